/*
 * test_bibfs.c - the bidirectional search (bibfs.h) against the naive
 * hash-set BFS of testutil.h: distances to the goal on many 3x3 and 2x5
 * boards (every antipode included), distances between two arbitrary boards
 * from a naive BFS rooted at one of them, symmetry d(a, b) = d(b, a), and
 * paths that replay with exactly the stated number of moves.
 */
#include "testutil.h"

#include "slide/bibfs.h"

/* bibfs in both directions equals want; both paths replay. */
static void expect_distance(const struct board *a, const struct board *b, int want)
{
    struct bibfs_result r;
    slide_error err;
    if (bibfs_solve(a, b, 0, &r, &err))
        fail_msg("bibfs: %s", err.msg);
    assert_int_equal(r.distance, want);
    assert_int_equal(strlen(r.path), (size_t)want);
    assert_true(test_replay(a, r.path, strlen(r.path), b));
    bibfs_result_free(&r);
    if (bibfs_solve(b, a, 0, &r, &err))
        fail_msg("bibfs: %s", err.msg);
    assert_int_equal(r.distance, want);
    assert_true(test_replay(b, r.path, strlen(r.path), a));
    bibfs_result_free(&r);
}

/* The board packed in slot k of the naive set. */
static void unpack(const struct naive_set *set, size_t k, struct board *b)
{
    for (int i = 0; i < board_cells(b); i++)
        b->cells[i] = naive_cell(set->keys[k], i);
}

/*
 * Distances from the goal: every board of the largest distance and `sample`
 * random reachable boards (slots of the naive set picked at random).
 */
static void against_naive(int rows, int cols, int sample, uint64_t seed)
{
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(board_copy(&b, &goal, &err), 0);
    uint64_t hist[128];
    struct naive_set set;
    int radius = naive_bfs(rows, cols, goal.cells, hist, 128, &set);
    int antipodes = 0;
    for (size_t k = 0; k < set.cap; k++)
        if (set.keys[k] && set.dist[k] == radius) {
            unpack(&set, k, &b);
            expect_distance(&b, &goal, radius);
            antipodes++;
        }
    assert_int_equal(antipodes, (int)hist[radius]);
    for (int done = 0; done < sample;) {
        size_t k = (size_t)(test_rng(&seed) & (set.cap - 1));
        if (!set.keys[k])
            continue;
        unpack(&set, k, &b);
        expect_distance(&b, &goal, set.dist[k]);
        done++;
    }
    naive_free(&set);
    board_free(&b);
    board_free(&goal);
}

static void test_3x3_to_goal(void **state)
{
    (void)state;
    against_naive(3, 3, 3000, 0x33);
}

static void test_2x5_to_goal(void **state)
{
    (void)state;
    against_naive(2, 5, 60, 0x25);
}

static void test_small_boards(void **state)
{
    (void)state;
    against_naive(2, 2, 12, 0x22);
    against_naive(2, 3, 100, 0x23);
    against_naive(3, 2, 100, 0x32);
}

/*
 * Between two arbitrary boards: a naive BFS rooted at a gives d(a, .) for
 * every board; bibfs must agree in both directions.
 */
static void test_between_any_two(void **state)
{
    (void)state;
    uint64_t seed = 0xab;
    for (int round = 0; round < 12; round++) {
        int rows = round % 3 == 2 ? 2 : 3, cols = round % 3 == 2 ? 4 : 3;
        struct board a, b;
        slide_error err;
        assert_int_equal(board_goal(&a, rows, cols, &err), 0);
        test_shuffle(a.cells, board_cells(&a), &seed);
        uint64_t hist[128];
        struct naive_set set;
        naive_bfs(rows, cols, a.cells, hist, 128, &set);
        assert_int_equal(board_copy(&b, &a, &err), 0);
        for (int done = 0; done < 40;) {
            size_t k = (size_t)(test_rng(&seed) & (set.cap - 1));
            if (!set.keys[k])
                continue;
            unpack(&set, k, &b);
            expect_distance(&a, &b, set.dist[k]);
            done++;
        }
        expect_distance(&a, &a, 0);
        naive_free(&set);
        board_free(&a);
        board_free(&b);
    }
}

/* A random walk of k moves from the goal of 4x4: the distance is at most k
 * and has k's parity (the move graph is bipartite). */
static void test_4x4_walks(void **state)
{
    (void)state;
    uint64_t seed = 0x44;
    for (int k = 1; k <= 30; k += 3) {
        struct board goal, b;
        slide_error err;
        struct bibfs_result r;
        assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
        assert_int_equal(board_copy(&b, &goal, &err), 0);
        int z = board_blank(&b);
        for (int i = 0; i < k;)
            i += board_move(&b, &z, (enum move)(test_rng(&seed) & 3)) == 0;
        assert_int_equal(bibfs_solve(&b, &goal, 0, &r, &err), 0);
        assert_true(r.distance <= k);
        assert_int_equal(r.distance % 2, k % 2);
        assert_true(test_replay(&b, r.path, strlen(r.path), &goal));
        bibfs_result_free(&r);
        board_free(&b);
        board_free(&goal);
    }
}

/* Paths: only the blank moves. */
static void test_path_boards(void **state)
{
    (void)state;
    struct board a, b;
    slide_error err;
    assert_int_equal(board_parse("1 0 2 3 4", 0, 0, &a, &err), 0);
    assert_int_equal(board_parse("1 2 3 4 0", 0, 0, &b, &err), 0);
    expect_distance(&a, &b, 3);
    board_free(&a);
    board_free(&b);
    assert_int_equal(board_parse("3/1/0/2", 0, 0, &a, &err), 0);
    assert_int_equal(board_parse("0/3/1/2", 0, 0, &b, &err), 0);
    expect_distance(&a, &b, 2);
    board_free(&a);
    board_free(&b);
}

static void test_errors(void **state)
{
    (void)state;
    struct board a, b;
    struct bibfs_result r;
    slide_error err = {{0}};
    /* different parity classes: refused without search */
    assert_int_equal(board_parse("1 2 3/4 5 6/8 7 0", 0, 0, &a, &err), 0);
    assert_int_equal(board_goal(&b, 3, 3, &err), 0);
    assert_int_equal(bibfs_solve(&a, &b, 0, &r, &err), SLIDE_EUNSOLVABLE);
    assert_non_null(strstr(err.msg, "no path joins the two boards"));
    board_free(&a);
    board_free(&b);
    /* the cap: a hard 4x4 board with room for 1000 boards */
    assert_int_equal(board_parse("15 14 1 6/9 11 4 12/0 10 7 3/13 8 5 2", 0, 0, &a, &err), 0);
    assert_int_equal(board_goal(&b, 4, 4, &err), 0);
    assert_int_equal(bibfs_solve(&a, &b, 1000, &r, &err), SLIDE_ENOMEM);
    assert_non_null(strstr(err.msg, "cap of 1000 boards"));
    assert_null(r.path);
    board_free(&b);
    /* dimensions */
    assert_int_equal(board_goal(&b, 2, 8, &err), 0);
    assert_int_equal(bibfs_solve(&a, &b, 0, &r, &err), SLIDE_EINVAL);
    board_free(&a);
    board_free(&b);
    /* more than 20 cells */
    assert_int_equal(board_goal(&a, 3, 7, &err), 0);
    assert_int_equal(board_goal(&b, 3, 7, &err), 0);
    assert_int_equal(bibfs_solve(&a, &b, 0, &r, &err), SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "at most 20 cells"));
    board_free(&a);
    board_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x3_to_goal),
        cmocka_unit_test(test_2x5_to_goal),
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_between_any_two),
        cmocka_unit_test(test_4x4_walks),
        cmocka_unit_test(test_path_boards),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
