/*
 * test_scramble.c - the generator (rng.h) against its published outputs,
 * and random boards (scramble.h): reproducible, always solvable by the
 * parity criterion, uniform by a chi-square test, and random walks with the
 * parity and bound of their length checked against plain BFS distances.
 */
#include "testutil.h"

#include "slide/parity.h"
#include "slide/rng.h"
#include "slide/scramble.h"

/* ---- the generator ------------------------------------------------------- */

static void test_splitmix64_published(void **state)
{
    (void)state;
    /* SplitMix64 from state 0: the first outputs of the reference code
     * (Vigna, prng.di.unimi.it/splitmix64.c), as listed in public test
     * suites (e.g. test_crow_random_splitmix64 of the Crow C++ library). */
    static const uint64_t want[] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
                                    0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL};
    uint64_t x = 0;
    for (int i = 0; i < 4; i++)
        assert_true(rng_splitmix64(&x) == want[i]);
}

static void test_xoshiro256ss_published(void **state)
{
    (void)state;
    /* xoshiro256** 1.0 with s[0..3] = four SplitMix64 outputs from state
     * 100: Vigna's reference code, test vector of
     * github.com/Quuxplusone/Xoshiro256ss (test-vector.txt). */
    static const uint64_t want[] = {792317387143481937ULL, 1418856489092323125ULL,
                                    6662743737787356053ULL, 9823178768685107703ULL};
    struct rng r;
    rng_seed(&r, 100);
    for (int i = 0; i < 4; i++)
        assert_true(rng_next(&r) == want[i]);
}

/* Chi-square statistic of counts[0..k-1] against equal expectation. */
static double chi_square(const uint64_t *counts, int k, uint64_t total)
{
    double e = (double)total / k, x = 0;
    for (int i = 0; i < k; i++)
        x += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
    return x;
}

static void test_below_uniform(void **state)
{
    (void)state;
    struct rng r;
    uint64_t counts[7] = {0};
    rng_seed(&r, 1);
    for (int i = 0; i < 70000; i++)
        counts[rng_below(&r, 7)]++;
    /* 6 degrees of freedom: P(chi2 > 40) < 1e-6 */
    assert_true(chi_square(counts, 7, 70000) < 40);
    assert_int_equal(rng_below(&r, 1), 0);
    /* a bound above 2^63: values stay below it */
    uint64_t big = 0xc000000000000000ULL;
    for (int i = 0; i < 1000; i++)
        assert_true(rng_below(&r, big) < big);
}

/* ---- uniform boards -------------------------------------------------- */

static void assert_solvable(const struct board *b, const struct board *goal)
{
    struct parity_report pr;
    slide_error err;
    assert_int_equal(board_validate(b, &err), 0);
    assert_int_equal(parity_check(b, goal, &pr, &err), 0);
    assert_true(pr.solvable);
}

static void draw_many(int rows, int cols, const char *goal_text, int count,
                      uint64_t seed)
{
    struct board goal, b;
    slide_error err;
    struct rng r;
    if (goal_text)
        assert_int_equal(board_parse(goal_text, rows, cols, &goal, &err), 0);
    else
        assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    rng_seed(&r, seed);
    for (int i = 0; i < count; i++) {
        assert_int_equal(scramble_uniform(&r, &goal, &b, &err), 0);
        assert_solvable(&b, &goal);
    }
    board_free(&b);
    board_free(&goal);
}

static void test_uniform_always_solvable(void **state)
{
    (void)state;
    draw_many(4, 4, NULL, 20000, 1);
    draw_many(3, 5, NULL, 5000, 2);
    draw_many(4, 4, "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15", 5000, 3);
    draw_many(3, 3, "1 2 3/4 0 5/6 7 8", 5000, 4);
    draw_many(1, 6, NULL, 1000, 5);
    draw_many(5, 1, "1/2/0/3/4", 1000, 6);
    draw_many(1, 1, NULL, 10, 7);
    draw_many(1000, 1000, NULL, 2, 8);
    draw_many(2, 1000, NULL, 20, 9);
}

/* A board's cells as a number in base n (n^n fits for n <= 6). */
static size_t code(const struct board *b)
{
    size_t c = 0, n = (size_t)board_cells(b);
    for (size_t k = 0; k < n; k++)
        c = c * n + (size_t)b->cells[k];
    return c;
}

/* Draw `per` * solvable boards; every solvable board appears and the
 * counts pass a loose chi-square bound. */
static void check_uniform(int rows, int cols, uint64_t solvable, uint64_t per,
                          double bound, uint64_t seed)
{
    struct board goal, b;
    slide_error err;
    struct rng r;
    size_t n = (size_t)(rows * cols), size = 1;
    for (size_t i = 0; i < n; i++)
        size *= n;
    uint64_t *hits = calloc(size, sizeof *hits), *counts = calloc(solvable, sizeof *counts);
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    rng_seed(&r, seed);
    for (uint64_t i = 0; i < per * solvable; i++) {
        assert_int_equal(scramble_uniform(&r, &goal, &b, &err), 0);
        hits[code(&b)]++;
    }
    uint64_t distinct = 0;
    for (size_t c = 0; c < size; c++)
        if (hits[c]) {
            assert_true(distinct < solvable);
            counts[distinct++] = hits[c];
        }
    assert_int_equal(distinct, solvable);
    double x = chi_square(counts, (int)solvable, per * solvable);
    if (x > bound)
        fail_msg("%dx%d: chi-square %.1f over %llu boards exceeds %.1f", rows, cols, x,
                 (unsigned long long)solvable, bound);
    free(hits);
    free(counts);
    board_free(&b);
    board_free(&goal);
}

static void test_uniform_chi_square(void **state)
{
    (void)state;
    /* df 11: P(chi2 > 45) ~ 5e-6.  df 359: mean 359, sd 26.8, bound +7 sd
     * (P ~ 1e-9).
     * df 3 (a 1x4 path: 4 solvable boards): P(chi2 > 30) ~ 1e-6. */
    check_uniform(2, 2, 12, 10000, 45, 22);
    check_uniform(2, 3, 360, 200, 359 + 7 * 26.8, 23);
    check_uniform(3, 2, 360, 200, 359 + 7 * 26.8, 32);
    check_uniform(1, 4, 4, 10000, 30, 14);
}

static void test_reproducible(void **state)
{
    (void)state;
    struct board goal, a, b;
    slide_error err;
    struct rng r1, r2, r3;
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(board_alloc(&a, 4, 4, &err), 0);
    assert_int_equal(board_alloc(&b, 4, 4, &err), 0);
    rng_seed(&r1, 77);
    rng_seed(&r2, 77);
    rng_seed(&r3, 78);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(scramble_uniform(&r1, &goal, &a, &err), 0);
        assert_int_equal(scramble_uniform(&r2, &goal, &b, &err), 0);
        assert_true(board_equal(&a, &b));
        assert_int_equal(scramble_walk(&r1, &goal, 50, &a, &err), 0);
        assert_int_equal(scramble_walk(&r2, &goal, 50, &b, &err), 0);
        assert_true(board_equal(&a, &b));
        assert_int_equal(scramble_uniform(&r3, &goal, &b, &err), 0);
        assert_int_equal(scramble_uniform(&r1, &goal, &a, &err), 0);
        assert_int_equal(scramble_uniform(&r2, &goal, &a, &err), 0);
        differ += !board_equal(&a, &b);
    }
    assert_true(differ > 95);
    board_free(&a);
    board_free(&b);
    board_free(&goal);
}

/* ---- random walks ------------------------------------------------------- */

static void test_walks_parity_and_bound(void **state)
{
    (void)state;
    static const int g33[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    struct naive_set set;
    uint64_t hist[64];
    naive_bfs(3, 3, g33, hist, 64, &set);
    struct board goal, b;
    slide_error err;
    struct rng r;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    rng_seed(&r, 5);
    for (int i = 0; i < 5000; i++) {
        int k = (int)rng_below(&r, 60);
        assert_int_equal(scramble_walk(&r, &goal, (uint64_t)k, &b, &err), 0);
        int d = naive_lookup(&set, naive_pack(b.cells, 9));
        if (d < 0 || d > k || (k - d) % 2)
            fail_msg("walk of %d moves reached a board at distance %d", k, d);
        /* no immediate undo: two moves never come back to the goal */
        if (k == 2)
            assert_false(board_equal(&b, &goal));
    }
    naive_free(&set);
    board_free(&b);
    board_free(&goal);
}

/* On a big board: the blank's colour says the distance has k's parity. */
static void test_walks_big_boards(void **state)
{
    (void)state;
    struct board goal, b;
    slide_error err;
    struct rng r;
    assert_int_equal(board_goal(&goal, 1000, 1000, &err), 0);
    assert_int_equal(board_alloc(&b, 1000, 1000, &err), 0);
    rng_seed(&r, 6);
    for (int k = 0; k < 200; k += 37) {
        assert_int_equal(scramble_walk(&r, &goal, (uint64_t)k, &b, &err), 0);
        assert_solvable(&b, &goal);
        int z = board_blank(&b), zg = board_blank(&goal);
        int md = abs(z / 1000 - zg / 1000) + abs(z % 1000 - zg % 1000);
        assert_true(md <= k && (k - md) % 2 == 0);
    }
    board_free(&b);
    board_free(&goal);
}

static void test_walks_on_paths_and_errors(void **state)
{
    (void)state;
    struct board goal, b, small;
    slide_error err;
    struct rng r;
    rng_seed(&r, 3);
    /* 1x2: the blank must turn back - the undo is the only move */
    assert_int_equal(board_goal(&goal, 1, 2, &err), 0);
    assert_int_equal(board_alloc(&b, 1, 2, &err), 0);
    assert_int_equal(scramble_walk(&r, &goal, 2, &b, &err), 0);
    assert_true(board_equal(&b, &goal));
    assert_int_equal(scramble_walk(&r, &goal, 3, &b, &err), 0);
    assert_int_equal(b.cells[0], 0);
    board_free(&b);
    board_free(&goal);
    /* 1x5: with no undo the blank runs straight to the far end */
    assert_int_equal(board_goal(&goal, 1, 5, &err), 0);
    assert_int_equal(board_alloc(&b, 1, 5, &err), 0);
    assert_int_equal(scramble_walk(&r, &goal, 4, &b, &err), 0);
    assert_int_equal(b.cells[0], 0);
    assert_int_equal(b.cells[4], 4);
    /* errors: 1x1 has no moves, mismatched output */
    assert_int_equal(board_goal(&small, 1, 1, &err), 0);
    assert_int_equal(scramble_walk(&r, &small, 0, &small, &err), 0);
    assert_int_equal(scramble_walk(&r, &small, 1, &small, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "no moves"));
    assert_int_equal(scramble_uniform(&r, &goal, &small, &err), SLIDE_EINVAL);
    assert_int_equal(scramble_walk(&r, &goal, 3, &small, &err), SLIDE_EINVAL);
    board_free(&small);
    board_free(&b);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_published),
        cmocka_unit_test(test_xoshiro256ss_published),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_uniform_always_solvable),
        cmocka_unit_test(test_uniform_chi_square),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_walks_parity_and_bound),
        cmocka_unit_test(test_walks_big_boards),
        cmocka_unit_test(test_walks_on_paths_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
