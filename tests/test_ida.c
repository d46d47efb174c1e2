/*
 * test_ida.c - IDA* (ida.h) and its heuristics (ida_heuristic.h) against
 * independent truths: the plain hash-set BFS of testutil.h for exact
 * distances, a replay of every path written here with board_move, full
 * re-evaluation for every incremental heuristic step, the parity of random
 * walks, and the parity criterion for refusals.
 */
#include "testutil.h"

#include "slide/ida.h"
#include "slide/parity.h"
#include "slide/rng.h"
#include "slide/scramble.h"

/* ---- helpers ----------------------------------------------------------- */

static void make_board(struct board *b, int rows, int cols, const int *cells)
{
    slide_error err;
    assert_int_equal(board_alloc(b, rows, cols, &err), 0);
    memcpy(b->cells, cells, (size_t)(rows * cols) * sizeof *cells);
    assert_int_equal(board_validate(b, &err), 0);
}

static void parse(struct board *b, const char *text)
{
    slide_error err;
    if (board_parse(text, 0, 0, b, &err))
        fail_msg("%s: %s", text, err.msg);
}

/* Replay r's moves from start with board_move: legal, r->length of them,
 * ending on goal. */
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

struct bounds {
    int bound[256];
    int count;
};

static void record_bound(int bound, uint64_t expanded, double seconds, void *ctx)
{
    (void)expanded;
    (void)seconds;
    struct bounds *b = ctx;
    if (b->count < 256)
        b->bound[b->count++] = bound;
}

/*
 * Solve start with heuristic `name`; check the path replays, that the
 * thresholds grow by exactly `step` (0: only that they grow), and return
 * the length.
 */
static int solve(const struct board *start, const struct board *goal,
                 const char *name, int step)
{
    struct ida_heuristic h;
    struct ida_result r;
    struct bounds bs = {{0}, 0};
    struct ida_options o = {0, NULL, record_bound, &bs, METRIC_STM};
    slide_error err;
    assert_int_equal(ida_heuristic_open(&h, name, goal, &err), 0);
    int rc = ida_solve(start, goal, &h, &o, &r, &err);
    if (rc)
        fail_msg("ida_solve: %s", err.msg);
    assert_int_equal(bs.count, r.iterations);
    assert_int_equal(bs.bound[0], r.h_start);
    assert_int_equal(bs.bound[bs.count - 1], r.length);
    for (int i = 1; i < bs.count; i++)
        if (step ? bs.bound[i] != bs.bound[i - 1] + step : bs.bound[i] <= bs.bound[i - 1])
            fail_msg("thresholds %d then %d with %s", bs.bound[i - 1], bs.bound[i], name);
    assert_replays(start, goal, &r);
    assert_true(r.h_start <= r.length);
    int len = r.length;
    ida_result_free(&r);
    ida_heuristic_close(&h);
    return len;
}

/* A board drawn uniformly from the boards of a naive BFS set. */
static void random_reached(struct rng *g, const struct naive_set *set, int n,
                           int *cells)
{
    naive_key k;
    do
        k = set->keys[rng_below(g, set->cap)];
    while (!k);
    for (int i = 0; i < n; i++)
        cells[i] = naive_cell(k, i);
}

/*
 * IDA* with heuristic `name` equals the BFS distance on `count` boards of
 * rows x cols drawn from the BFS (count 0: every reachable board).
 */
static void check_against_bfs(int rows, int cols, const int *goal_cells, int count,
                              const char *name, int step, uint64_t seed)
{
    struct naive_set set;
    uint64_t hist[128];
    int n = rows * cols, cells[16];
    naive_bfs(rows, cols, goal_cells, hist, 128, &set);
    struct board goal, b;
    make_board(&goal, rows, cols, goal_cells);
    struct rng g;
    rng_seed(&g, seed);
    size_t slot = 0, done = 0;
    while (count ? done < (size_t)count : slot < set.cap) {
        if (count) {
            random_reached(&g, &set, n, cells);
        } else if (!set.keys[slot++]) {
            continue;
        } else {
            for (int i = 0; i < n; i++)
                cells[i] = naive_cell(set.keys[slot - 1], i);
        }
        make_board(&b, rows, cols, cells);
        int d = naive_lookup(&set, naive_pack(cells, n));
        int len = solve(&b, &goal, name, step);
        if (len != d)
            fail_msg("%dx%d board %d: IDA* with %s says %d, BFS %d", rows, cols,
                     (int)done, name, len, d);
        board_free(&b);
        done++;
    }
    if (!count)
        assert_int_equal(done, set.len);
    board_free(&goal);
    naive_free(&set);
}

static const int goal33[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};

/* ---- IDA* against BFS -------------------------------------------------- */

static void test_3x3_lc_random_20000(void **state)
{
    (void)state;
    /* All 181,440 boards: scripts/bench-ida.sh. */
    check_against_bfs(3, 3, goal33, 20000, "lc", 2, 20240001);
}

static void test_3x3_other_heuristics(void **state)
{
    (void)state;
    check_against_bfs(3, 3, goal33, 1000, "manhattan", 2, 7);
    check_against_bfs(3, 3, goal33, 200, "misplaced", 0, 8);
}

static void test_3x3_other_goals(void **state)
{
    (void)state;
    static const int centre[] = {1, 2, 3, 4, 0, 5, 6, 7, 8};
    static const int korf[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    static const int edge[] = {8, 1, 3, 2, 4, 5, 6, 0, 7};
    check_against_bfs(3, 3, centre, 1000, "lc", 2, 11);
    check_against_bfs(3, 3, korf, 1000, "lc", 2, 12);
    check_against_bfs(3, 3, edge, 1000, "lc", 2, 13);
}

static void test_small_boards_exhaustive(void **state)
{
    (void)state;
    static const int g22[] = {1, 2, 3, 0};
    static const int g23[] = {1, 2, 3, 4, 5, 0};
    static const int g32[] = {3, 0, 5, 1, 2, 4};
    static const int g24[] = {1, 2, 3, 4, 5, 6, 7, 0};
    check_against_bfs(2, 2, g22, 0, "lc", 2, 0);
    check_against_bfs(2, 3, g23, 0, "lc", 2, 0);
    check_against_bfs(3, 2, g32, 0, "lc", 2, 0);
    check_against_bfs(2, 4, g24, 0, "lc", 2, 0);
    check_against_bfs(2, 3, g23, 0, "misplaced", 0, 0);
}

static void test_2x5_lc_random_1000(void **state)
{
    (void)state;
    static const int g25[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
    check_against_bfs(2, 5, g25, 1000, "lc", 2, 25);
}

/* ---- refusals, limits, paths ------------------------------------------- */

static void test_unsolvable_refused_without_search(void **state)
{
    (void)state;
    struct board b, goal;
    struct ida_heuristic h;
    struct ida_result r;
    slide_error err = {{0}};
    parse(&b, "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"); /* Loyd's 14-15 */
    parse(&goal, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0");
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    assert_int_equal(ida_solve(&b, &goal, &h, NULL, &r, &err), SLIDE_EUNSOLVABLE);
    assert_int_equal(r.length, -1);
    assert_null(r.moves);
    assert_int_equal(r.expanded, 0);
    assert_int_equal(r.generated, 0);
    assert_int_equal(r.iterations, 0);
    assert_non_null(strstr(err.msg, "unsolvable"));
    assert_non_null(strstr(err.msg, "inversions 1"));
    board_free(&b);
    /* a path board out of order */
    parse(&b, "2 1 0");
    board_free(&goal);
    parse(&goal, "1 2 0");
    ida_heuristic_close(&h);
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    assert_int_equal(ida_solve(&b, &goal, &h, NULL, &r, &err), SLIDE_EUNSOLVABLE);
    assert_int_equal(r.expanded, 0);
    ida_heuristic_close(&h);
    board_free(&b);
    board_free(&goal);
}

static void test_paths_and_trivial(void **state)
{
    (void)state;
    struct board b, goal;
    parse(&goal, "1 2 3 4 0");
    parse(&b, "0 1 2 3 4");
    assert_int_equal(solve(&b, &goal, "lc", 2), 4);
    board_free(&b);
    board_free(&goal);
    parse(&goal, "1/0/2");
    parse(&b, "1/2/0");
    assert_int_equal(solve(&b, &goal, "manhattan", 2), 1);
    assert_int_equal(solve(&goal, &goal, "lc", 2), 0);
    board_free(&b);
    board_free(&goal);
    parse(&goal, "0");
    assert_int_equal(solve(&goal, &goal, "lc", 2), 0);
    board_free(&goal);
}

static void test_unknown_heuristic_and_size_mismatch(void **state)
{
    (void)state;
    struct board b, goal;
    struct ida_heuristic h;
    struct ida_result r;
    slide_error err;
    parse(&goal, "1 2 3/4 5 6/7 8 0");
    assert_int_equal(ida_heuristic_open(&h, "pdb", &goal, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "known: lc, manhattan, misplaced"));
    parse(&b, "1 2/3 0");
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    assert_int_equal(ida_solve(&b, &goal, &h, NULL, &r, &err), SLIDE_EINVAL);
    ida_heuristic_close(&h);
    board_free(&b);
    board_free(&goal);
}

/* Korf's instance 1 (optimum 57), in slide's goal convention. */
static const char *korf1 = "13 6 8 12/15 14 0 10/11 7 4 5/9 1 3 2";

static void test_node_limit_and_cancel(void **state)
{
    (void)state;
    struct board b, goal;
    struct ida_heuristic h;
    struct ida_result r;
    slide_error err;
    parse(&b, korf1);
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    struct ida_options o = {1000, NULL, NULL, NULL, METRIC_STM};
    assert_int_equal(ida_solve(&b, &goal, &h, &o, &r, &err), SLIDE_EINTR);
    assert_int_equal(r.expanded, 1000); /* --max-nodes N: N expansions, not N + 1 */
    assert_int_equal(r.length, -1);
    assert_true(r.bound >= r.h_start && r.bound <= 57);
    assert_non_null(strstr(err.msg, "node limit"));
    volatile sig_atomic_t stop = 1;
    struct ida_options c = {0, &stop, NULL, NULL, METRIC_STM};
    assert_int_equal(ida_solve(&b, &goal, &h, &c, &r, &err), SLIDE_EINTR);
    assert_int_equal(r.expanded, 0); /* the flag is read before the first expansion */
    assert_non_null(strstr(err.msg, "interrupted"));
    ida_heuristic_close(&h);
    board_free(&b);
    board_free(&goal);
}

static void test_replay_checks(void **state)
{
    (void)state;
    struct board b, goal;
    slide_error err;
    int tiles[4];
    parse(&goal, "1 2 3/4 5 6/7 8 0");
    parse(&b, "1 2 3/4 5 6/7 0 8");
    unsigned char right[] = {MOVE_RIGHT}, down[] = {MOVE_DOWN}, lr[] = {MOVE_LEFT, MOVE_RIGHT};
    assert_int_equal(ida_replay(&b, &goal, right, 1, tiles, &err), 0);
    assert_int_equal(tiles[0], 8);
    assert_int_equal(ida_replay(&b, &goal, down, 1, tiles, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "move 1 (D) leaves the board"));
    assert_int_equal(ida_replay(&b, &goal, lr, 2, tiles, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "not on the goal"));
    board_free(&b);
    board_free(&goal);
}

/* ---- 4x4 and big boards: random walks ---------------------------------- */

static void walk_and_solve(int rows, int cols, int walks, int kmin, int kmax,
                           uint64_t seed)
{
    struct board goal, b;
    slide_error err;
    struct rng g;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    rng_seed(&g, seed);
    for (int i = 0; i < walks; i++) {
        int k = kmin + (int)rng_below(&g, (uint64_t)(kmax - kmin + 1));
        assert_int_equal(scramble_walk(&g, &goal, (uint64_t)k, &b, &err), 0);
        int len = solve(&b, &goal, "lc", 2);
        if (len > k || (len - k) % 2)
            fail_msg("%dx%d walk of %d moves: optimum %d", rows, cols, k, len);
    }
    board_free(&b);
    board_free(&goal);
}

static void test_4x4_walks(void **state)
{
    (void)state;
    walk_and_solve(4, 4, 30, 20, 45, 44);
}

static void test_big_board_walks(void **state)
{
    (void)state;
    walk_and_solve(1000, 1000, 2, 10, 25, 1000);
    walk_and_solve(1, 1000, 2, 10, 25, 1001); /* a path */
    walk_and_solve(7, 3, 5, 20, 30, 73);
}

/* ---- the heuristics themselves ------------------------------------------- */

/* Along random walks every incremental step equals a full evaluation. */
static void check_steps(const char *name, const struct board *goal, int steps,
                        uint64_t seed)
{
    struct ida_heuristic h;
    struct board b;
    slide_error err;
    struct rng g;
    rng_seed(&g, seed);
    assert_int_equal(ida_heuristic_open(&h, name, goal, &err), 0);
    assert_int_equal(board_copy(&b, goal, &err), 0);
    assert_int_equal(h.eval(h.ctx, &b), 0);
    int z = board_blank(&b), value = 0;
    for (int i = 0; i < steps; i++) {
        enum move m = (enum move)rng_below(&g, MOVE_COUNT);
        int from = board_step(b.rows, b.cols, z, m), to = z;
        if (from < 0)
            continue;
        board_move(&b, &z, m);
        int next = h.step(h.ctx, &b, from, to, value);
        int full = h.eval(h.ctx, &b);
        if (next != full)
            fail_msg("%s on %dx%d, step %d: incremental %d, full %d", name, b.rows,
                     b.cols, i, next, full);
        int change = next - value;
        if (strcmp(name, "misplaced") ? abs(change) % 2 != 1 : abs(change) > 1)
            fail_msg("%s changed by %d in one move", name, change);
        value = next;
    }
    ida_heuristic_close(&h);
    board_free(&b);
}

static void test_incremental_equals_full(void **state)
{
    (void)state;
    static const char *const names[] = {"lc", "manhattan", "misplaced"};
    static const char *const goals[] = {
        "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
        "1 2 3 4 5/6 7 0 8 9", "5 1/4 0/3 2/6 7/8 9", "1 2 3 4 5 0"};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            struct board goal;
            parse(&goal, goals[j]);
            check_steps(names[i], &goal, 20000, (uint64_t)(i * 5 + j));
            board_free(&goal);
        }
}

/* Hand-counted values. */
static void test_heuristic_values(void **state)
{
    (void)state;
    struct board goal, b;
    struct ida_heuristic lc, md, mis;
    slide_error err;
    parse(&goal, "1 2 3/4 5 6/7 8 0");
    assert_int_equal(ida_heuristic_open(&lc, "lc", &goal, &err), 0);
    assert_int_equal(ida_heuristic_open(&md, "manhattan", &goal, &err), 0);
    assert_int_equal(ida_heuristic_open(&mis, "misplaced", &goal, &err), 0);
    /* row 1 reversed: 3 2 1 - Manhattan 2+0+2, LIS 1 so 2 must leave: +4 */
    parse(&b, "3 2 1/4 5 6/7 8 0");
    assert_int_equal(md.eval(md.ctx, &b), 4);
    assert_int_equal(lc.eval(lc.ctx, &b), 8);
    assert_int_equal(mis.eval(mis.ctx, &b), 2);
    board_free(&b);
    /* column 1 holds 7 4 1 (reversed), row 1 holds 2 3 whose goal row is 1 */
    parse(&b, "7 2 3/4 5 6/1 8 0");
    assert_int_equal(md.eval(md.ctx, &b), 4);
    assert_int_equal(lc.eval(lc.ctx, &b), 8);
    board_free(&b);
    /* 8 6 7/2 5 4/3 0 1 (an antipode): Manhattan 21; the only conflict is
     * row 2 holding 5 then 4, whose goal order is 4 5 */
    parse(&b, "8 6 7/2 5 4/3 0 1");
    assert_int_equal(md.eval(md.ctx, &b), 21);
    assert_int_equal(lc.eval(lc.ctx, &b), 23);
    board_free(&b);
    ida_heuristic_close(&lc);
    ida_heuristic_close(&md);
    ida_heuristic_close(&mis);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heuristic_values),
        cmocka_unit_test(test_incremental_equals_full),
        cmocka_unit_test(test_unsolvable_refused_without_search),
        cmocka_unit_test(test_unknown_heuristic_and_size_mismatch),
        cmocka_unit_test(test_paths_and_trivial),
        cmocka_unit_test(test_replay_checks),
        cmocka_unit_test(test_node_limit_and_cancel),
        cmocka_unit_test(test_small_boards_exhaustive),
        cmocka_unit_test(test_3x3_lc_random_20000),
        cmocka_unit_test(test_3x3_other_heuristics),
        cmocka_unit_test(test_3x3_other_goals),
        cmocka_unit_test(test_2x5_lc_random_1000),
        cmocka_unit_test(test_4x4_walks),
        cmocka_unit_test(test_big_board_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
