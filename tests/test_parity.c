/* test_parity.c - the solvability criterion against BFS reachability (parity.h). */
#include "testutil.h"

#include "slide/parity.h"

static void test_inversions(void **state)
{
    (void)state;
    int seq[64];
    slide_error err;
    uint64_t inv;
    srand(7);
    for (int round = 0; round < 200; round++) {
        int len = 1 + rand() % 64;
        for (int i = 0; i < len; i++)
            seq[i] = i;
        for (int i = len - 1; i > 0; i--) {
            int j = rand() % (i + 1), t = seq[i];
            seq[i] = seq[j];
            seq[j] = t;
        }
        uint64_t naive = 0;
        for (int i = 0; i < len; i++)
            for (int j = i + 1; j < len; j++)
                naive += seq[i] > seq[j];
        assert_int_equal(parity_inversions(seq, (size_t)len, &inv, &err), 0);
        assert_true(inv == naive);
    }
    seq[0] = 0;
    seq[1] = 0;
    assert_int_equal(parity_inversions(seq, 2, &inv, &err), SLIDE_EINVAL);
}

/* The next arrangement of cells[0..n-1] by Heap's algorithm (iterative;
 * c: n + 1 counters, zero at the start, c[n] the position); 0 after the
 * last of the n! arrangements. */
static int next_arrangement(int *cells, int n, int *c)
{
    int i = c[n];
    while (i < n && c[i] >= i) {
        c[i] = 0;
        i++;
    }
    if (i >= n)
        return 0;
    int j = i % 2 ? c[i] : 0, t = cells[j];
    cells[j] = cells[i];
    cells[i] = t;
    c[i]++;
    c[n] = 0;
    return 1;
}

/* Visit every arrangement of n cells (Heap's algorithm) and compare the
 * criterion with membership in the naive BFS's reachable set. */
static void check_all_arrangements(int rows, int cols, const int *goal_cells)
{
    int n = rows * cols;
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(rows, cols, goal_cells, hist, 64, &set);
    struct board b, goal;
    slide_error err;
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&goal, rows, cols, &err), 0);
    memcpy(goal.cells, goal_cells, (size_t)n * sizeof(int));
    memcpy(b.cells, goal_cells, (size_t)n * sizeof(int));
    int c[17] = {0};
    uint64_t total = 0, solvable = 0;
    for (;;) {
        struct parity_report r;
        assert_int_equal(parity_check(&b, &goal, &r, &err), 0);
        int reachable = naive_lookup(&set, naive_pack(b.cells, n)) >= 0;
        if (r.solvable != reachable) {
            char buf[128];
            board_format(&b, buf, sizeof buf);
            fail_msg("%dx%d board %s: criterion %d, reachable %d", rows, cols, buf,
                     r.solvable, reachable);
        }
        total++;
        solvable += (uint64_t)reachable;
        if (!next_arrangement(b.cells, n, c))
            break;
    }
    uint64_t fact = 1;
    for (int k = 2; k <= n; k++)
        fact *= (uint64_t)k;
    assert_true(total == fact);
    assert_true(solvable == set.len);
    if (rows > 1 && cols > 1)
        assert_true(solvable == fact / 2);
    board_free(&b);
    board_free(&goal);
    naive_free(&set);
}

static void test_every_arrangement(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3}, {1, 4},
                                    {4, 1}};
    int goal[16];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int n = shapes[s][0] * shapes[s][1];
        for (int z = 0; z < n; z++) { /* every goal-blank cell */
            goal_with_blank(n, z, goal);
            if (n == 9 && z % 2)
                continue; /* 3x3: corners, centre suffice; mid-sides below */
            check_all_arrangements(shapes[s][0], shapes[s][1], goal);
        }
    }
    goal_with_blank(9, 1, goal);
    check_all_arrangements(3, 3, goal);
    /* a scrambled goal: the criterion is relative to the goal's tile order */
    static const int odd_goal[] = {3, 1, 0, 5, 2, 4};
    check_all_arrangements(2, 3, odd_goal);
}

static void test_loyd(void **state)
{
    (void)state;
    struct board b, goal;
    slide_error err;
    struct parity_report r;
    assert_int_equal(board_parse("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0", 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(parity_check(&b, &goal, &r, &err), 0);
    assert_int_equal(r.solvable, 0);
    assert_true(r.inversions == 1);
    char buf[512];
    parity_explain(&r, buf, sizeof buf);
    assert_non_null(strstr(buf, "unsolvable"));
    board_free(&b);
    /* a 1000x1000 goal with two tiles swapped: O(n log n), unsolvable */
    board_free(&goal);
    assert_int_equal(board_goal(&goal, 1000, 1000, &err), 0);
    assert_int_equal(board_copy(&b, &goal, &err), 0);
    b.cells[0] = 2;
    b.cells[1] = 1;
    assert_int_equal(parity_check(&b, &goal, &r, &err), 0);
    assert_int_equal(r.solvable, 0);
    board_free(&b);
    board_free(&goal);
}

/* The hint for every arrangement of rows x cols (and of its cells as one
 * line), against the naive BFS's reachable sets from the standard goal (S)
 * and the blank-first goal (F) of that shape.  What it must say, from the
 * definition: nothing for a board that reaches the goal asked for; else
 * (one line) the rectangle towards the same goal, then towards the other;
 * else the same shape towards the other goal; else nothing. */
static void check_hints(int rows, int cols)
{
    int n = rows * cols, standard[16], first[16];
    uint64_t hist[64];
    struct naive_set S, F;
    for (int k = 0; k < n; k++) {
        standard[k] = (k + 1) % n;
        first[k] = k;
    }
    naive_bfs(rows, cols, standard, hist, 64, &S);
    naive_bfs(rows, cols, first, hist, 64, &F);
    struct board b, line, gs, gf, ls, lf;
    slide_error err;
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&line, 1, n, &err), 0);
    assert_int_equal(board_goal(&gs, rows, cols, &err), 0);
    assert_int_equal(board_goal(&ls, 1, n, &err), 0);
    assert_int_equal(board_alloc(&gf, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&lf, 1, n, &err), 0);
    memcpy(gf.cells, first, (size_t)n * sizeof(int));
    memcpy(lf.cells, first, (size_t)n * sizeof(int));
    memcpy(b.cells, first, (size_t)n * sizeof(int));
    int c[17] = {0}, hinted = 0;
    for (;;) {
        memcpy(line.cells, b.cells, (size_t)n * sizeof(int));
        int in_s = naive_lookup(&S, naive_pack(b.cells, n)) >= 0;
        int in_f = naive_lookup(&F, naive_pack(b.cells, n)) >= 0;
        int ordered = 1; /* a 1 x n path reaches its goals only in order */
        for (int k = 0, last = 0; k < n; k++)
            if (b.cells[k]) {
                ordered &= b.cells[k] > last;
                last = b.cells[k];
            }
        struct parity_hint h;
        for (int kind = 0; kind < 2; kind++) { /* towards S, then towards F */
            int in_goal = kind ? in_f : in_s, in_other = kind ? in_s : in_f;
            enum parity_goal_kind want = kind ? PARITY_GOAL_STANDARD : PARITY_GOAL_BLANK_FIRST;
            assert_int_equal(parity_hint(&b, kind ? &gf : &gs, 0, &h, &err), 0);
            assert_int_equal(h.found, !in_goal && in_other);
            if (h.found) {
                assert_int_equal(h.rows, rows);
                assert_int_equal(h.cols, cols);
                assert_int_equal(h.goal, want);
                hinted++;
            }
            /* the same cells on one line, read as 1 x n */
            assert_int_equal(parity_hint(&line, kind ? &lf : &ls, 1, &h, &err), 0);
            if (ordered) {
                assert_int_equal(h.found, 0);
                continue;
            }
            assert_int_equal(h.found, in_goal || in_other);
            if (h.found) {
                assert_int_equal(h.rows, rows);
                assert_int_equal(h.cols, cols);
                assert_int_equal(h.goal, in_goal ? (kind ? PARITY_GOAL_BLANK_FIRST
                                                         : PARITY_GOAL_STANDARD)
                                                 : want);
            }
            /* with the size given (one_line 0): a path has no other reading */
            assert_int_equal(parity_hint(&line, kind ? &lf : &ls, 0, &h, &err), 0);
            assert_int_equal(h.found, 0);
        }
        if (!next_arrangement(b.cells, n, c))
            break;
    }
    /* even widths: the two goals are in opposite classes, so every board
     * unsolvable for one is solvable for the other; odd widths: never */
    assert_true(cols % 2 ? hinted == 0 : hinted > 0);
    board_free(&b);
    board_free(&line);
    board_free(&gs);
    board_free(&gf);
    board_free(&ls);
    board_free(&lf);
    naive_free(&S);
    naive_free(&F);
}

static void test_hint_every_arrangement(void **state)
{
    (void)state;
    /* the rectangle of n cells is the one closest to a square, rows <= cols */
    check_hints(2, 2);
    check_hints(2, 3);
    check_hints(2, 4);
    check_hints(3, 3);
    /* Korf's instance 1 (Korf 1985), blank first: unsolvable for the
     * standard goal, solvable for its own; as one line it reads 1x16 */
    struct board b, goal;
    slide_error err;
    struct parity_hint h;
    const char *korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    assert_int_equal(board_parse(korf1, 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 1, 16, &err), 0);
    assert_int_equal(parity_hint(&b, &goal, 1, &h, &err), 0);
    assert_true(h.found && h.rows == 4 && h.cols == 4 && h.goal == PARITY_GOAL_BLANK_FIRST);
    board_free(&b);
    board_free(&goal);
    assert_int_equal(board_parse(korf1, 4, 4, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(parity_hint(&b, &goal, 0, &h, &err), 0);
    assert_true(h.found && h.rows == 4 && h.cols == 4 && h.goal == PARITY_GOAL_BLANK_FIRST);
    /* another goal: no guess */
    goal.cells[0] = 2;
    goal.cells[1] = 1;
    assert_int_equal(parity_goal_kind(&goal), PARITY_GOAL_OTHER);
    assert_int_equal(parity_hint(&b, &goal, 0, &h, &err), 0);
    assert_int_equal(h.found, 0);
    board_free(&b);
    board_free(&goal);
    /* 7 cells on a line have no rectangle */
    assert_int_equal(board_parse("2 1 3 4 5 6 0", 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 1, 7, &err), 0);
    assert_int_equal(parity_hint(&b, &goal, 1, &h, &err), 0);
    assert_int_equal(h.found, 0);
    board_free(&b);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inversions), cmocka_unit_test(test_every_arrangement),
        cmocka_unit_test(test_loyd), cmocka_unit_test(test_hint_every_arrangement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
