/*
 * test_theorem.c - the exhaustive parity check (theorem.h) against
 * independent truths: (RC)! and (RC)!/2 computed here, the naive hash-set
 * BFS of testutil.h for reachability, and a deliberately wrong criterion
 * that must be caught.
 */
#include "testutil.h"

#include "slide/parity.h"
#include "slide/theorem.h"

static uint64_t factorial(int n)
{
    uint64_t f = 1;
    for (int k = 2; k <= n; k++)
        f *= (uint64_t)k;
    return f;
}

static void run(const struct board *goal, theorem_criterion_fn fn, int threads,
                struct theorem_result *r)
{
    slide_error err;
    int rc = theorem_parity(goal, fn, NULL, threads, 0, r, &err);
    if (rc)
        fail_msg("theorem_parity %dx%d: %s", goal->rows, goal->cols, err.msg);
}

/* The verdict holds: no disagreement, and the counts are the theorem's. */
static void expect_theorem(const struct board *goal)
{
    struct theorem_result r;
    int n = board_cells(goal);
    int path = goal->rows == 1 || goal->cols == 1;
    run(goal, theorem_criterion_parity, 0, &r);
    assert_int_equal(r.arrangements, factorial(n));
    assert_int_equal(r.reachable, path ? (uint64_t)n : factorial(n) / 2);
    assert_int_equal(r.criterion, r.reachable);
    assert_int_equal(r.agree, r.arrangements);
    assert_int_equal(r.disagree, 0);
    assert_int_equal(r.nexamples, 0);
    assert_int_equal(r.path_graph, path);
}

static void expect_standard(int rows, int cols)
{
    struct board g;
    slide_error err;
    assert_int_equal(board_goal(&g, rows, cols, &err), 0);
    expect_theorem(&g);
    board_free(&g);
}

static void expect_goal(const char *text)
{
    struct board g;
    slide_error err;
    assert_int_equal(board_parse(text, 0, 0, &g, &err), 0);
    expect_theorem(&g);
    board_free(&g);
}

static void test_small_boards(void **state)
{
    (void)state;
    expect_standard(2, 2);
    expect_standard(2, 3);
    expect_standard(3, 2);
    expect_standard(3, 3);
    expect_standard(2, 4);
    expect_standard(4, 2);
}

static void test_other_goals(void **state)
{
    (void)state;
    expect_goal("1 2 3/4 0 5/6 7 8");    /* blank in the centre */
    expect_goal("0 8 7/6 5 4/3 2 1");    /* reversed, blank top left */
    expect_goal("5 0 3/1 4 2");          /* 2x3, even width, scrambled */
    expect_goal("4 1/0 3/2 5");          /* 3x2 */
}

static void test_paths(void **state)
{
    (void)state;
    expect_standard(1, 4);
    expect_standard(4, 1);
    expect_standard(1, 6);
    expect_goal("3 0 1 2");
    expect_goal("2/0/1");
}

/* Reachability from the naive BFS of testutil.h, for boards up to 16 cells. */
static int naive_reachable(const struct naive_set *set, const struct board *b)
{
    return naive_lookup(set, naive_pack(b->cells, board_cells(b))) >= 0;
}

/* The seeds' rule without the blank row: "inversions even" for every width. */
static int wrong_criterion(const struct board *b, const struct board *goal,
                           void *ctx, slide_error *err)
{
    (void)ctx;
    struct parity_report pr;
    int rc = parity_check(b, goal, &pr, err);
    return rc ? rc : pr.inversions % 2 == 0;
}

/* The check must be able to fail: a wrong criterion disagrees, and every
 * example it lists really disagrees with the naive BFS. */
static void expect_caught(int rows, int cols)
{
    struct board g, b;
    slide_error err;
    struct theorem_result r, r1;
    assert_int_equal(board_goal(&g, rows, cols, &err), 0);
    run(&g, wrong_criterion, 0, &r);
    assert_true(r.disagree > 0);
    assert_int_equal(r.agree + r.disagree, r.arrangements);
    assert_int_equal(r.nexamples, r.disagree < THEOREM_KEEP ? r.disagree : THEOREM_KEEP);
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(rows, cols, g.cells, hist, 64, &set);
    assert_int_equal(set.len, r.reachable);
    for (int k = 0; k < r.nexamples; k++) {
        b.rows = rows;
        b.cols = cols;
        b.cells = r.example_cells[k];
        assert_int_equal(board_validate(&b, &err), 0);
        int reach = naive_reachable(&set, &b);
        assert_int_equal(reach, r.example_reachable[k]);
        assert_int_not_equal(reach, wrong_criterion(&b, &g, NULL, &err));
    }
    /* the same examples, in the same order, with one thread */
    run(&g, wrong_criterion, 1, &r1);
    assert_int_equal(r1.disagree, r.disagree);
    assert_memory_equal(r1.example_cells, r.example_cells, sizeof r.example_cells);
    naive_free(&set);
    board_free(&g);
}

static void test_wrong_criterion_caught(void **state)
{
    (void)state;
    expect_caught(2, 2);
    expect_caught(3, 2);
    expect_caught(2, 4);
    expect_caught(4, 2);
}

/* For an odd width the blank's row does not matter, so the same "wrong"
 * rule is right there: no disagreement on 2x3 and 3x3. */
static void test_odd_width_rule(void **state)
{
    (void)state;
    struct board g;
    slide_error err;
    struct theorem_result r;
    for (int rows = 2; rows <= 3; rows++) {
        assert_int_equal(board_goal(&g, rows, 3, &err), 0);
        run(&g, wrong_criterion, 0, &r);
        assert_int_equal(r.disagree, 0);
        board_free(&g);
    }
}

/* Reachability itself, board by board, against the naive BFS on 3x3 with
 * the blank of the goal in the centre: the criterion and the naive set
 * agree on every one of the 9! arrangements. */
static void test_against_naive_bfs(void **state)
{
    (void)state;
    struct board g;
    slide_error err;
    struct theorem_result r;
    assert_int_equal(board_parse("1 2 3/4 0 5/6 7 8", 0, 0, &g, &err), 0);
    run(&g, theorem_criterion_parity, 2, &r);
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(3, 3, g.cells, hist, 64, &set);
    assert_int_equal(set.len, r.reachable);
    naive_free(&set);
    board_free(&g);
}

static void test_refuses_big_boards(void **state)
{
    (void)state;
    struct board g;
    slide_error err = {{0}};
    struct theorem_result r;
    assert_int_equal(board_goal(&g, 3, 5, &err), 0);
    assert_int_equal(theorem_parity(&g, theorem_criterion_parity, NULL, 1, 0, &r, &err),
                     SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "at most 12 cells"));
    board_free(&g);
    assert_int_equal(board_goal(&g, 1, 13, &err), 0);
    assert_int_equal(theorem_parity(&g, theorem_criterion_parity, NULL, 1, 0, &r, &err),
                     SLIDE_ERANGE);
    board_free(&g);
    /* no factorial wraps: 21! and beyond exceed 2^64 and say so */
    static const struct { int rows, cols; const char *says; } big[] = {
        {5, 5, "a 5x5 board has 25! > 2^64 arrangements"},
        {7, 3, "a 7x3 board has 21! > 2^64 arrangements"},
        {4, 5, "a 4x5 board has 20! = 2432902008176640000 arrangements"},
        {1000, 1000, "1000000! > 2^64"},
        /* a path: refused with its figures before the N! check */
        {1, 12, "a 1x12 board is a path: only 12 of its 12! = 479001600 arrangements"},
        {11, 1, "at most 10 cells (10! = 3628800 arrangements)"},
    };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        assert_int_equal(board_goal(&g, big[i].rows, big[i].cols, &err), 0);
        assert_int_equal(theorem_parity(&g, theorem_criterion_parity, NULL, 1, 0, &r, &err),
                         SLIDE_ERANGE);
        if (!strstr(err.msg, big[i].says))
            fail_msg("%dx%d: \"%s\" lacks \"%s\"", big[i].rows, big[i].cols, err.msg,
                     big[i].says);
        board_free(&g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_boards),
        cmocka_unit_test(test_other_goals),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_wrong_criterion_caught),
        cmocka_unit_test(test_odd_width_rule),
        cmocka_unit_test(test_against_naive_bfs),
        cmocka_unit_test(test_refuses_big_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
