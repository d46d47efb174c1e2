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
    int c[16] = {0};
    uint64_t total = 0, solvable = 0;
    for (int i = 0;;) {
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
        /* Heap's algorithm, iterative */
        while (i < n && c[i] >= i) {
            c[i] = 0;
            i++;
        }
        if (i >= n)
            break;
        int j = i % 2 ? c[i] : 0, t = b.cells[j];
        b.cells[j] = b.cells[i];
        b.cells[i] = t;
        c[i]++;
        i = 0;
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inversions), cmocka_unit_test(test_every_arrangement),
        cmocka_unit_test(test_loyd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
