/*
 * test_mtm.c - the multi-tile metric (metric.h) in IDA* (ida.h) and the
 * bidirectional BFS (bibfs.h), against independent truths: the brute-force
 * MTM BFS of mtm_naive.h (a hash map from arrangement to distance, written
 * from the rules alone) for every board of at most 10 cells, its
 * meet-in-the-middle form for samples of 3x4 and 2x6, and every path
 * replayed by mtm_checker, which knows only the rules and the notation.
 * Every 3x3 board is in test_mtm_3x3.c (tens of seconds).
 */
#include "mtm_naive.h"

#include "slide/bibfs.h"
#include "slide/heuristic.h"
#include "slide/ida.h"
#include "slide/metric.h"
#include "slide/parity.h"
#include "slide/sweep.h"

static void unpack(const struct naive_set *set, size_t k, struct board *b)
{
    for (int i = 0; i < board_cells(b); i++)
        b->cells[i] = naive_cell(set->keys[k], i);
}

/* IDA* in MTM with the MTM walking distance: its length, path checked. */
static int ida_mtm(const struct board *b, const struct board *goal,
                   struct ida_heuristic *h)
{
    struct ida_options o = {0, NULL, NULL, NULL, METRIC_MTM};
    struct ida_result r;
    slide_error err;
    if (ida_solve(b, goal, h, &o, &r, &err))
        fail_msg("ida: %s", err.msg);
    char text[4096];
    assert_true(move_format_codes(r.moves, r.length, METRIC_MTM, text, sizeof text) <
                sizeof text);
    if (mtm_checker(b, text, goal) != r.length)
        fail_msg("path \"%s\" of %d moves does not replay", text, r.length);
    assert_int_equal(ida_replay(b, goal, r.moves, r.length, NULL, &err), 0);
    int len = r.length;
    ida_result_free(&r);
    return len;
}

/* bibfs in MTM: its distance, path checked. */
static int bibfs_mtm(const struct board *a, const struct board *b)
{
    struct bibfs_result r;
    slide_error err;
    if (bibfs_solve_metric(a, b, 0, METRIC_MTM, &r, &err))
        fail_msg("bibfs: %s", err.msg);
    if (mtm_checker(a, r.path, b) != r.distance)
        fail_msg("path \"%s\" of %d moves does not replay", r.path, r.distance);
    int d = r.distance;
    bibfs_result_free(&r);
    return d;
}

/*
 * The brute force itself, on every board of 2..10 cells: the MTM BFS
 * reaches exactly the boards the STM BFS reaches (an MTM move is k STM
 * moves and an STM move is an MTM move), and on every board
 * ceil(d_stm / (max(R,C) - 1)) <= d_mtm <= d_stm.
 */
static void test_brute_force_small(void **state)
{
    (void)state;
    static const int dims[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {3, 3},
                                  {2, 5}, {5, 2}, {1, 5}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int R = dims[i][0], C = dims[i][1], goal[16];
        goal_with_blank(R * C, R * C - 1, goal);
        uint64_t hs[128], hm[128];
        struct naive_set stm, mtm;
        naive_bfs(R, C, goal, hs, 128, &stm);
        naive_mtm_bfs(R, C, goal, hm, 128, &mtm);
        assert_int_equal(stm.len, mtm.len);
        int k = (R > C ? R : C) - 1;
        for (size_t s = 0; s < stm.cap; s++) {
            if (!stm.keys[s])
                continue;
            int ds = stm.dist[s], dm = naive_lookup(&mtm, stm.keys[s]);
            assert_true(dm >= 0 && dm <= ds && dm * k >= ds);
        }
        naive_free(&stm);
        naive_free(&mtm);
    }
}

/* Between two arbitrary boards: bibfs against a brute force rooted at one. */
static void test_bibfs_any_two(void **state)
{
    (void)state;
    struct board a, b;
    slide_error err;
    assert_int_equal(board_parse("0 1 2 3 4/5 6 7 8 9", 0, 0, &a, &err), 0);
    assert_int_equal(board_copy(&b, &a, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    naive_mtm_bfs(2, 5, a.cells, hist, 64, &set);
    uint64_t seed = 11;
    for (int done = 0; done < 300;) {
        size_t k = (size_t)(test_rng(&seed) & (set.cap - 1));
        if (!set.keys[k])
            continue;
        unpack(&set, k, &b);
        assert_int_equal(bibfs_mtm(&a, &b), set.dist[k]);
        assert_int_equal(bibfs_mtm(&b, &a), set.dist[k]);
        done++;
    }
    naive_free(&set);
    board_free(&a);
    board_free(&b);
}

/* Random boards of a 12-cell puzzle: IDA* against the meet-in-the-middle
 * brute force around a ball of radius `depth`. */
static void sample_12(int rows, int cols, int depth, int count, uint64_t seed)
{
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(board_copy(&b, &goal, &err), 0);
    struct naive_set ball;
    naive_mtm_ball(rows, cols, goal.cells, depth, 1u << 24, &ball);
    struct ida_heuristic h;
    assert_int_equal(ida_heuristic_open_metric(&h, "wd", &goal, METRIC_MTM, &err), 0);
    for (int i = 0; i < count;) {
        test_shuffle(b.cells, rows * cols, &seed);
        struct parity_report pr;
        assert_int_equal(parity_check(&b, &goal, &pr, &err), 0);
        if (!pr.solvable)
            continue;
        int want = naive_mtm_distance_by_ball(rows, cols, b.cells, &ball, 1u << 23);
        assert_true(want > 0);
        assert_int_equal(ida_mtm(&b, &goal, &h), want);
        i++;
    }
    ida_heuristic_close(&h);
    naive_free(&ball);
    board_free(&goal);
    board_free(&b);
}

static void test_samples_3x4_2x6(void **state)
{
    (void)state;
    sample_12(3, 4, 12, 8, 3);
    sample_12(2, 6, 12, 6, 5);
}

/*
 * heuristic.h's rows bound for MTM over every board of 3x3 and 2x5 against
 * naive_mtm_bfs: wd is admissible and consistent on every MTM edge
 * (naive_mtm_neighbours), as its claims say; misplaced, manhattan and lc
 * claim NOT admissible, and some board shows it (h > d).
 */
static void test_heuristics_every_board(void **state)
{
    (void)state;
    static const int dims[][2] = {{3, 3}, {2, 5}};
    static const char *names[] = {"wd", "misplaced", "manhattan", "lc"};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int R = dims[i][0], C = dims[i][1], n = R * C;
        struct board goal;
        slide_error err;
        assert_int_equal(board_goal(&goal, R, C, &err), 0);
        uint64_t hist[64];
        struct naive_set set;
        naive_mtm_bfs(R, C, goal.cells, hist, 64, &set);
        for (size_t j = 0; j < sizeof names / sizeof names[0]; j++) {
            struct heuristic h;
            assert_int_equal(heuristic_init_metric(&h, names[j], &goal, METRIC_MTM, &err), 0);
            int over = 0, steep = 0, cells[16], next_cells[16];
            for (size_t k = 0; k < set.cap; k++) {
                if (!set.keys[k])
                    continue;
                for (int c = 0; c < n; c++)
                    cells[c] = naive_cell(set.keys[k], c);
                int v = heuristic_eval(&h, cells);
                over += v > set.dist[k];
                naive_key next[NAIVE_MAX_NEIGHBOURS];
                for (int m = naive_mtm_neighbours(R, C, set.keys[k], next); m-- > 0;) {
                    for (int c = 0; c < n; c++)
                        next_cells[c] = naive_cell(next[m], c);
                    int w = heuristic_eval(&h, next_cells);
                    steep += w - v > 1 || v - w > 1;
                }
            }
            int claim_yes = h.def->admissible == HEURISTIC_YES;
            assert_int_equal(claim_yes, j == 0);
            assert_int_equal(over == 0, claim_yes);
            if (j == 0)
                assert_int_equal(steep, 0);
            heuristic_free(&h);
        }
        naive_free(&set);
        board_free(&goal);
    }
}

/* wd kept incrementally (heuristic_wd_move, unit step by unit step) equals
 * wd evaluated in full after every step of random MTM walks, both metrics'
 * tables, on 3x4, 4x4 and 2x6. */
static void test_wd_incremental(void **state)
{
    (void)state;
    static const int dims[][2] = {{3, 4}, {4, 4}, {2, 6}};
    uint64_t seed = 99;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        for (int metric = METRIC_STM; metric <= METRIC_MTM; metric++) {
            int R = dims[i][0], C = dims[i][1];
            struct board b;
            struct heuristic h;
            slide_error err;
            assert_int_equal(board_goal(&b, R, C, &err), 0);
            assert_int_equal(heuristic_init_metric(&h, "wd", &b, (enum metric)metric, &err), 0);
            struct heuristic_wd_node nd, next;
            assert_int_equal(heuristic_wd_start(&h, b.cells, &nd), 0);
            int z = R * C - 1;
            for (int step = 0; step < 3000; step++) {
                int dir = (int)(test_rng(&seed) % 4), from = board_step(R, C, z, (enum move)dir);
                if (from < 0)
                    continue;
                int t = b.cells[from];
                b.cells[z] = t;
                b.cells[from] = 0;
                int v = heuristic_wd_move(&h, &nd, t, from, z, &next);
                assert_int_equal(v, heuristic_eval(&h, b.cells));
                nd = next;
                z = from;
            }
            heuristic_free(&h);
            board_free(&b);
        }
}

/*
 * The sweep in MTM (sweep.h, metric MTM) on every board of 3x3 and 2x5
 * against naive_mtm_bfs: its histogram, each heuristic's boards with h > d,
 * and the edges (every MTM edge once) and those with |dh| > 1 counted over
 * naive_mtm_neighbours.
 */
static void test_sweep_mtm(void **state)
{
    (void)state;
    static const int dims[][2] = {{3, 3}, {2, 5}};
    static const char *names[] = {"wd", "manhattan"};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int R = dims[i][0], C = dims[i][1], n = R * C, cells[16];
        struct board goal;
        slide_error err;
        assert_int_equal(board_goal(&goal, R, C, &err), 0);
        uint64_t hist[64];
        struct naive_set set;
        int radius = naive_mtm_bfs(R, C, goal.cells, hist, 64, &set);
        struct heuristic hs[2];
        for (int j = 0; j < 2; j++)
            assert_int_equal(heuristic_init_metric(&hs[j], names[j], &goal, METRIC_MTM, &err),
                             0);
        struct sweep_options o = {2, 0, NULL, NULL, METRIC_MTM};
        struct sweep_result r;
        if (sweep_run(&goal, hs, 2, &o, &r, &err))
            fail_msg("sweep: %s", err.msg);
        assert_int_equal(r.radius, radius);
        for (int d = 0; d <= radius; d++)
            assert_int_equal(r.hist[d], hist[d]);
        for (int j = 0; j < 2; j++) {
            uint64_t over = 0, edges = 0, steep = 0;
            for (size_t k = 0; k < set.cap; k++) {
                if (!set.keys[k])
                    continue;
                for (int c = 0; c < n; c++)
                    cells[c] = naive_cell(set.keys[k], c);
                int v = heuristic_eval(&hs[j], cells);
                over += v > set.dist[k];
                naive_key next[NAIVE_MAX_NEIGHBOURS];
                for (int m = naive_mtm_neighbours(R, C, set.keys[k], next); m-- > 0;) {
                    for (int c = 0; c < n; c++)
                        cells[c] = naive_cell(next[m], c);
                    int w = heuristic_eval(&hs[j], cells);
                    edges++;
                    steep += w - v > 1 || v - w > 1;
                }
            }
            assert_int_equal(r.stats[j].violations, over);
            assert_int_equal(2 * r.stats[j].edges, edges); /* each edge seen from both ends */
            assert_int_equal(2 * r.stats[j].edge_violations, steep);
        }
        assert_true(r.stats[0].admissible && r.stats[0].consistent);
        assert_false(r.stats[1].admissible);
        sweep_result_free(&r);
        heuristic_free(&hs[0]);
        heuristic_free(&hs[1]);
        naive_free(&set);
        board_free(&goal);
    }
}

/* Notation: format and parse are inverse; bad texts are refused. */
static void test_notation(void **state)
{
    (void)state;
    unsigned char codes[8] = {move_code(MOVE_UP, 2), move_code(MOVE_LEFT, 1),
                              move_code(MOVE_DOWN, 3)}, back[8];
    char text[64];
    int len;
    slide_error err;
    assert_int_equal(move_format_codes(codes, 3, METRIC_MTM, text, sizeof text), 8);
    assert_string_equal(text, "UU L DDD");
    assert_int_equal(move_parse_codes(text, METRIC_MTM, back, 8, &len, &err), 0);
    assert_int_equal(len, 3);
    assert_memory_equal(codes, back, 3);
    assert_int_equal(move_parse_codes("UUL", METRIC_STM, back, 8, &len, &err), 0);
    assert_int_equal(len, 3);
    assert_int_equal(move_parse_codes("UL D", METRIC_MTM, back, 8, &len, &err), SLIDE_EINVAL);
    assert_int_equal(move_parse_codes("U  D", METRIC_MTM, back, 8, &len, &err), SLIDE_EINVAL);
    assert_int_equal(move_parse_codes("U ", METRIC_MTM, back, 8, &len, &err), SLIDE_EINVAL);
    assert_int_equal(move_parse_codes("U D", METRIC_STM, back, 8, &len, &err), SLIDE_EINVAL);
    assert_int_equal(metric_parse("mtm"), METRIC_MTM);
    assert_int_equal(metric_parse("stm"), METRIC_STM);
    assert_int_equal(metric_parse("MTM"), -1);
    /* the move set: 3x3 MTM has 4 moves from every cell, STM 2..4 */
    struct move_set ms;
    assert_int_equal(move_set_init(&ms, 3, 3, METRIC_MTM, &err), 0);
    for (int z = 0; z < 9; z++)
        assert_int_equal(ms.count[z], 4);
    move_set_free(&ms);
    assert_int_equal(move_set_init(&ms, 3, 65, METRIC_MTM, &err), SLIDE_ERANGE);
}

/* A heuristic of single-tile moves is refused in an MTM search. */
static void test_refusals(void **state)
{
    (void)state;
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(board_parse("8 6 7/2 5 4/3 0 1", 0, 0, &b, &err), 0);
    struct ida_heuristic h;
    assert_int_equal(ida_heuristic_open_metric(&h, "manhattan", &goal, METRIC_MTM, &err),
                     SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "not admissible in the multi-tile metric"));
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    struct ida_options o = {0, NULL, NULL, NULL, METRIC_MTM};
    struct ida_result r;
    assert_int_equal(ida_solve(&b, &goal, &h, &o, &r, &err), SLIDE_EINVAL);
    ida_heuristic_close(&h);
    /* an MTM bound is admissible in STM too: the STM optimum, 31 */
    assert_int_equal(ida_heuristic_open_metric(&h, "wd", &goal, METRIC_MTM, &err), 0);
    assert_int_equal(ida_solve(&b, &goal, &h, NULL, &r, &err), 0);
    assert_int_equal(r.length, 31);
    ida_result_free(&r);
    ida_heuristic_close(&h);
    board_free(&goal);
    board_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_brute_force_small),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sweep_mtm),
        cmocka_unit_test(test_wd_incremental),
        cmocka_unit_test(test_heuristics_every_board),
        cmocka_unit_test(test_bibfs_any_two),
        cmocka_unit_test(test_samples_3x4_2x6),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
