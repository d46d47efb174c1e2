/*
 * test_ida_parallel.c - IDA* on one board with 1 to 4 threads
 * (ida_parallel.h) against independent truths: every length equals the
 * exact distance of the test's own plain BFS (naive_bfs on 3x3 and 2x5;
 * naive_distance_by_ball on 3x4), every path is replayed here with
 * board_move.  Consistency checks beside them (slide against slide, said
 * so): the thresholds, the iteration count and the nodes of every iteration
 * but the last equal the serial search's (ida_solve) for every thread
 * count, the path is the serial one, and a node limit of N stops every
 * thread count at exactly N expansions.
 */
#include "testutil.h"

#include "slide/ida.h"
#include "slide/ida_parallel.h"
#include "slide/rng.h"
#include "slide/scramble.h"

#define MAX_THREADS 4

struct trace {
    int bound[256];
    uint64_t expanded[256]; /* expansions before each iteration */
    int count;
};

static void record(int bound, uint64_t expanded, double seconds, void *ctx)
{
    (void)seconds;
    struct trace *t = ctx;
    if (t->count < 256) {
        t->bound[t->count] = bound;
        t->expanded[t->count++] = expanded;
    }
}

static void make_board(struct board *b, int rows, int cols, const int *cells)
{
    slide_error err;
    assert_int_equal(board_alloc(b, rows, cols, &err), 0);
    memcpy(b->cells, cells, (size_t)(rows * cols) * sizeof *cells);
    assert_int_equal(board_validate(b, &err), 0);
}

/* Replay r's moves with board_move: legal, ending on goal. */
static void assert_replays(const struct board *start, const struct board *goal,
                           const struct ida_result *r)
{
    struct board b;
    slide_error err;
    assert_int_equal(board_copy(&b, start, &err), 0);
    int z = board_blank(&b);
    for (int i = 0; i < r->length; i++)
        if (board_move(&b, &z, (enum move)r->moves[i]))
            fail_msg("move %d leaves the board", i);
    assert_true(board_equal(&b, goal));
    board_free(&b);
}

/* Solve with `threads` threads (1: ida_solve) and heuristic `name`. */
static int solve_with(const struct board *start, const struct board *goal, const char *name,
                      int threads, uint64_t serial_below, uint64_t max_nodes, struct trace *t,
                      struct ida_result *r, slide_error *err)
{
    struct ida_heuristic h[MAX_THREADS];
    struct ida_options o = {max_nodes, NULL, record, t, METRIC_STM};
    t->count = 0;
    for (int i = 0; i < threads; i++)
        assert_int_equal(ida_heuristic_open(&h[i], name, goal, err), 0);
    int rc = ida_solve_parallel_from(start, goal, h, threads, serial_below, &o, r, err);
    for (int i = 0; i < threads; i++)
        ida_heuristic_close(&h[i]);
    return rc;
}

/*
 * Solve start with 1..4 threads: each length `truth` (-1: the serial one),
 * each path replayed, and the consistency figures equal to the serial
 * search's.  Returns the length.
 */
static int check_board(const struct board *start, const struct board *goal, const char *name,
                       int truth)
{
    struct trace serial, par;
    struct ida_result r1, r;
    slide_error err;
    if (solve_with(start, goal, name, 1, 0, 0, &serial, &r1, &err))
        fail_msg("serial: %s", err.msg);
    assert_int_equal(r1.threads, 1);
    if (truth >= 0 && r1.length != truth)
        fail_msg("serial IDA* %d, the test's BFS %d", r1.length, truth);
    /* every iteration split (0), and the default: small iterations unsplit */
    const struct { int threads; uint64_t serial_below; } runs[] = {
        {2, 0}, {3, 0}, {4, 0}, {2, IDA_SERIAL_BELOW}};
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        int threads = runs[k].threads;
        if (solve_with(start, goal, name, threads, runs[k].serial_below, 0, &par, &r, &err))
            fail_msg("%d threads: %s", threads, err.msg);
        if (r.length != r1.length)
            fail_msg("%d threads: length %d, the test's BFS %d", threads, r.length,
                     truth >= 0 ? truth : r1.length);
        assert_replays(start, goal, &r);
        /* consistency with the serial search (slide against slide) */
        assert_int_equal(r.iterations, r1.iterations);
        assert_int_equal(par.count, serial.count);
        for (int i = 0; i < par.count; i++) {
            assert_int_equal(par.bound[i], serial.bound[i]);
            assert_int_equal(par.expanded[i], serial.expanded[i]);
        }
        assert_int_equal(r.expanded - r.expanded_last, r1.expanded - r1.expanded_last);
        assert_int_equal(r.generated - r.generated_last, r1.generated - r1.generated_last);
        assert_true(r.expanded_last >= r1.expanded_last); /* abandoned items add, never cut */
        assert_int_equal(r.h_start, r1.h_start);
        assert_int_equal(r.bound, r1.bound);
        if (r.length && memcmp(r.moves, r1.moves, (size_t)r.length))
            fail_msg("%d threads: another path than the serial search's", threads);
        assert_true(r.threads >= 1 && r.threads <= threads);
        assert_true(r.cpu_seconds >= 0);
        /* the critical path takes the busiest thread, never more than all */
        assert_true(r.cpu_critical >= 0 && r.cpu_critical <= r.cpu_seconds + 1e-9);
        ida_result_free(&r);
    }
    assert_replays(start, goal, &r1);
    int len = r1.length;
    ida_result_free(&r1);
    return len;
}

/* `count` boards drawn from a naive BFS of rows x cols, against its distances. */
static void check_against_bfs(int rows, int cols, int count, const char *name, uint64_t seed)
{
    struct naive_set set;
    uint64_t hist[128];
    int n = rows * cols, cells[16], goal_cells[16];
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    memcpy(goal_cells, goal.cells, (size_t)n * sizeof *goal_cells);
    naive_bfs(rows, cols, goal_cells, hist, 128, &set);
    struct rng g;
    rng_seed(&g, seed);
    for (int done = 0; done < count; done++) {
        naive_key k;
        do
            k = set.keys[rng_below(&g, set.cap)];
        while (!k);
        for (int i = 0; i < n; i++)
            cells[i] = naive_cell(k, i);
        make_board(&b, rows, cols, cells);
        check_board(&b, &goal, name, naive_lookup(&set, k));
        board_free(&b);
    }
    board_free(&goal);
    naive_free(&set);
}

static void test_3x3_against_bfs(void **state)
{
    (void)state;
    check_against_bfs(3, 3, 100, "lc", 301);
    check_against_bfs(3, 3, 40, "manhattan", 302);
    check_against_bfs(3, 3, 10, "misplaced", 303);
}

static void test_2x5_against_bfs(void **state)
{
    (void)state;
    check_against_bfs(2, 5, 60, "lc", 25);
}

/* 3x4 boards a random walk of 20 to 40 moves from the goal, against the
 * plain BFS that meets a ball of radius 16 around the goal. */
static void test_3x4_against_ball(void **state)
{
    (void)state;
    struct board goal, b;
    struct naive_set ball;
    slide_error err;
    struct rng g;
    assert_int_equal(board_goal(&goal, 3, 4, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 4, &err), 0);
    naive_ball(3, 4, goal.cells, 16, (size_t)1 << 20, &ball);
    rng_seed(&g, 34);
    for (int i = 0; i < 12; i++) {
        int k = 20 + (int)rng_below(&g, 21);
        assert_int_equal(scramble_walk(&g, &goal, (uint64_t)k, &b, &err), 0);
        int truth = naive_distance_by_ball(3, 4, b.cells, &ball, (size_t)1 << 22);
        check_board(&b, &goal, "lc", truth);
    }
    naive_free(&ball);
    board_free(&b);
    board_free(&goal);
}

/* 4x4 walks: trees big enough for every thread to take many items; the
 * lengths checked against the serial search and the walk's bound and parity. */
static void test_4x4_walks(void **state)
{
    (void)state;
    struct board goal, b;
    slide_error err;
    struct rng g;
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(board_alloc(&b, 4, 4, &err), 0);
    rng_seed(&g, 44);
    for (int i = 0; i < 4; i++) {
        int k = 40 + (int)rng_below(&g, 40);
        assert_int_equal(scramble_walk(&g, &goal, (uint64_t)k, &b, &err), 0);
        int len = check_board(&b, &goal, "lc", -1);
        if (len > k || (k - len) % 2)
            fail_msg("walk of %d moves: optimum %d", k, len);
    }
    board_free(&b);
    board_free(&goal);
}

/* The goal itself, and a board one move away. */
static void test_trivial(void **state)
{
    (void)state;
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(check_board(&goal, &goal, "lc", 0), 0);
    int one[] = {1, 2, 3, 4, 5, 6, 7, 0, 8};
    make_board(&b, 3, 3, one);
    assert_int_equal(check_board(&b, &goal, "lc", 1), 1);
    board_free(&b);
    board_free(&goal);
}

/* --max-nodes N: a stopped search expanded exactly N nodes, with any
 * thread count; one that fits is solved with the serial length. */
static void test_node_limit(void **state)
{
    (void)state;
    struct board goal, b;
    struct trace t;
    struct ida_result r;
    slide_error err;
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    int cells[] = {13, 6, 8, 12, 15, 14, 0, 10, 11, 7, 4, 5, 9, 1, 3, 2};
    make_board(&b, 4, 4, cells);
    const uint64_t limits[] = {1, 2, 1000, 99999, 1234567};
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
            int rc = solve_with(&b, &goal, "lc", threads, 0, limits[i], &t, &r, &err);
            assert_int_equal(rc, SLIDE_EINTR);
            assert_non_null(strstr(err.msg, "node limit"));
            if (r.expanded != limits[i])
                fail_msg("%d threads, limit %llu: %llu expanded", threads,
                         (unsigned long long)limits[i], (unsigned long long)r.expanded);
            assert_int_equal(r.length, -1);
            ida_result_free(&r);
        }
    }
    int walk[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, 13, 14, 15, 12};
    struct board near;
    make_board(&near, 4, 4, walk);
    for (int threads = 1; threads <= MAX_THREADS; threads++) {
        assert_int_equal(solve_with(&near, &goal, "lc", threads, 0, 100, &t, &r, &err), 0);
        assert_int_equal(r.length, 2); /* by hand: R (11 slides left), D (12 up) */
        ida_result_free(&r);
    }
    board_free(&near);
    board_free(&b);
    board_free(&goal);
}

/* A raised cancel flag stops every thread count; unsolvable boards and bad
 * thread counts are refused without search. */
static void test_cancel_and_refusals(void **state)
{
    (void)state;
    struct board goal, b;
    struct ida_result r;
    struct ida_heuristic h[2];
    slide_error err;
    volatile sig_atomic_t cancel = 1;
    struct ida_options o = {0, &cancel, NULL, NULL, METRIC_STM};
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    int cells[] = {13, 6, 8, 12, 15, 14, 0, 10, 11, 7, 4, 5, 9, 1, 3, 2};
    make_board(&b, 4, 4, cells);
    for (int i = 0; i < 2; i++)
        assert_int_equal(ida_heuristic_open(&h[i], "lc", &goal, &err), 0);
    assert_int_equal(ida_solve_parallel(&b, &goal, h, 2, &o, &r, &err), SLIDE_EINTR);
    assert_non_null(strstr(err.msg, "interrupted"));
    assert_int_equal(r.length, -1);
    ida_result_free(&r);
    assert_int_equal(ida_solve_parallel(&b, &goal, h, 0, NULL, &r, &err), SLIDE_EINVAL);
    int odd[] = {2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0};
    struct board u;
    make_board(&u, 4, 4, odd);
    assert_int_equal(ida_solve_parallel(&u, &goal, h, 2, NULL, &r, &err), SLIDE_EUNSOLVABLE);
    assert_int_equal(r.expanded, 0);
    board_free(&u);
    for (int i = 0; i < 2; i++)
        ida_heuristic_close(&h[i]);
    board_free(&b);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trivial),
        cmocka_unit_test(test_3x3_against_bfs),
        cmocka_unit_test(test_2x5_against_bfs),
        cmocka_unit_test(test_3x4_against_ball),
        cmocka_unit_test(test_4x4_walks),
        cmocka_unit_test(test_node_limit),
        cmocka_unit_test(test_cancel_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
