/*
 * test_sweep.c - the sweep (sweep.h) against an independent enumeration:
 * the naive hash-set BFS of testutil.h gives every board's distance, the
 * test evaluates the heuristics itself and builds its own joint table,
 * counts and edge checks, and compares them with the sweep's.  Also: the
 * published histograms as the joint table's marginal, identical results
 * for 1 and 2 threads, and lc-pairs caught inadmissible on 3x3.  h comes
 * from the test's own evaluators (refheur.h) for misplaced, manhattan, lc and
 * lc-pairs; wd from slide's table, which test_heuristic checks against a
 * reference written there.
 */
#include "testutil.h"

#include <math.h>

#include "slide/heuristic.h"
#include "slide/sweep.h"

#include "refheur.h"

#define NAMES 5
static const char *const names[NAMES] = {"misplaced", "manhattan", "lc", "lc-pairs", "wd"};

struct fixture {
    struct board goal;
    struct heuristic hs[NAMES];
};

static void setup(struct fixture *f, const char *goal_text)
{
    slide_error err;
    if (board_parse(goal_text, 0, 0, &f->goal, &err))
        fail_msg("%s", err.msg);
    for (int i = 0; i < NAMES; i++)
        if (heuristic_init(&f->hs[i], names[i], &f->goal, &err))
            fail_msg("%s: %s", names[i], err.msg);
}

static void teardown(struct fixture *f)
{
    for (int i = 0; i < NAMES; i++)
        heuristic_free(&f->hs[i]);
    board_free(&f->goal);
}

static void sweep(const struct fixture *f, int threads, struct sweep_result *r)
{
    slide_error err;
    struct sweep_options o = {threads, 0, NULL, NULL, METRIC_STM};
    if (sweep_run(&f->goal, f->hs, NAMES, &o, r, &err))
        fail_msg("sweep: %s", err.msg);
}

static uint64_t joint_at(const struct sweep_stats *s, int d, int h)
{
    return d < s->layers && h < s->joint_len[d] ? s->joint[d][h] : 0;
}

/* What the test computes itself for one heuristic. */
struct expect {
    uint64_t joint[64][128];
    uint64_t edges, edge_violations;
    int max_step;
};

/* h of heuristic i (names[]) on cells: the reference where the test has one. */
static int eval(const struct fixture *f, int i, const int *cells)
{
    switch (i) {
    case 0: return ref_misplaced(&f->goal, cells);
    case 1: return ref_manhattan(&f->goal, cells);
    case 2: return (int)ref_lc(&f->goal, cells, 0);
    case 3: return (int)ref_lc(&f->goal, cells, 1);
    default: return heuristic_eval(&f->hs[i], cells);
    }
}

/*
 * Every board of the naive BFS: its h into the joint table, and the edges
 * on which the blank moves down or right (each edge once) into the counts.
 */
static void expect_all(const struct fixture *f, const struct naive_set *set,
                       struct expect *ex)
{
    int R = f->goal.rows, C = f->goal.cols, n = R * C;
    for (size_t s = 0; s < set->cap; s++) {
        if (!set->keys[s])
            continue;
        int cells[16], z = 0, d = set->dist[s];
        for (int k = 0; k < n; k++)
            cells[k] = naive_cell(set->keys[s], k);
        while (cells[z])
            z++;
        for (int i = 0; i < NAMES; i++) {
            int v = eval(f, i, cells);
            assert_true(v >= 0 && v < 128 && d < 64);
            ex[i].joint[d][v]++;
            int to[2] = {z + C < n ? z + C : -1, z % C < C - 1 ? z + 1 : -1};
            for (int m = 0; m < 2; m++) {
                if (to[m] < 0)
                    continue;
                cells[z] = cells[to[m]];
                cells[to[m]] = 0;
                int w = eval(f, i, cells), step = abs(w - v);
                cells[to[m]] = cells[z];
                cells[z] = 0;
                ex[i].edges++;
                ex[i].edge_violations += step > 1;
                if (step > ex[i].max_step)
                    ex[i].max_step = step;
            }
        }
    }
}

/* The sweep's statistics, recomputed from the test's own joint table. */
static void check_stats(const struct sweep_stats *s, const struct expect *e)
{
    uint64_t boards = 0, viol = 0, exact = 0, sum_h = 0, sum_d = 0;
    int max_excess = -1000, parity = 1;
    for (int d = 0; d < 64; d++)
        for (int h = 0; h < 128; h++) {
            uint64_t c = e->joint[d][h];
            assert_int_equal(joint_at(s, d, h), c);
            if (!c)
                continue;
            boards += c;
            viol += h > d ? c : 0;
            exact += h == d ? c : 0;
            sum_h += c * (uint64_t)h;
            sum_d += c * (uint64_t)d;
            if (h - d > max_excess)
                max_excess = h - d;
            parity &= (d - h) % 2 == 0;
        }
    assert_int_equal(s->boards, boards);
    assert_int_equal(s->violations, viol);
    assert_int_equal(s->admissible, viol == 0);
    assert_int_equal(s->max_excess, max_excess);
    assert_int_equal(s->exact, exact);
    assert_int_equal(s->sum_h, sum_h);
    assert_int_equal(s->sum_d, sum_d);
    assert_int_equal(s->parity_ok, parity);
    assert_true(fabs(s->mean_h - (double)sum_h / (double)boards) < 1e-9);
    assert_true(fabs(s->exact_fraction - (double)exact / (double)boards) < 1e-12);
    assert_int_equal(s->edges, e->edges);
    assert_int_equal(s->edge_violations, e->edge_violations);
    assert_int_equal(s->consistent, e->edge_violations == 0);
    assert_int_equal(s->max_step, e->max_step);
}

/* Mean of h/d over boards with d > 0, straight from the definition. */
static double ratio_from_naive(const struct fixture *f, int i, const struct naive_set *set,
                               int n)
{
    double sum = 0;
    uint64_t count = 0;
    for (size_t s = 0; s < set->cap; s++) {
        if (!set->keys[s] || set->dist[s] == 0)
            continue;
        int cells[16];
        for (int k = 0; k < n; k++)
            cells[k] = naive_cell(set->keys[s], k);
        sum += (double)eval(f, i, cells) / set->dist[s];
        count++;
    }
    return sum / (double)count;
}

/* The sweep against the naive enumeration, for one goal. */
static void against_naive(const char *goal_text, const char *blank_kind)
{
    struct fixture f;
    setup(&f, goal_text);
    int R = f.goal.rows, C = f.goal.cols, n = R * C;
    struct sweep_result r;
    sweep(&f, 2, &r);
    uint64_t hist[64], pub[64];
    struct naive_set set;
    int radius = naive_bfs(R, C, f.goal.cells, hist, 64, &set);
    assert_int_equal(r.radius, radius);
    int npub = published_histogram(R, C, blank_kind, pub, 64);
    assert_int_equal(npub, radius + 1);
    struct expect *ex = calloc(NAMES, sizeof *ex);
    expect_all(&f, &set, ex);
    for (int i = 0; i < NAMES; i++) {
        const struct sweep_stats *s = &r.stats[i];
        assert_ptr_equal(s->def, f.hs[i].def);
        check_stats(s, &ex[i]);
        assert_true(fabs(s->mean_ratio - ratio_from_naive(&f, i, &set, n)) < 1e-9);
        /* the joint table's marginal over h is the published histogram */
        uint64_t total = 0;
        for (int d = 0; d <= radius; d++) {
            uint64_t row = 0;
            for (int h = 0; h < s->joint_len[d]; h++)
                row += s->joint[d][h];
            assert_int_equal(row, pub[d]);
            assert_int_equal(r.hist[d], pub[d]);
            total += row;
        }
        assert_int_equal(total, r.boards);
    }
    free(ex);
    naive_free(&set);
    sweep_result_free(&r);
    teardown(&f);
}

static void test_3x3_against_naive(void **state)
{
    (void)state;
    against_naive("1 2 3/4 5 6/7 8 0", "corner");
    against_naive("1 2 3/4 0 5/6 7 8", "centre (cell 4)");
    against_naive("1 0 2/3 4 5/6 7 8", "mid-side edge cell");
}

static void test_2x5_against_naive(void **state)
{
    (void)state;
    against_naive("1 2 3 4 5/6 7 8 9 0", "corner");
}

/* Sizes and claims on 3x3: 181440 boards, 9!/2 * 12 edges / 9 cells. */
static void test_3x3_verdicts(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f, "1 2 3/4 5 6/7 8 0");
    struct sweep_result r;
    sweep(&f, 2, &r);
    assert_int_equal(r.boards, 181440);
    for (int i = 0; i < NAMES; i++) {
        const struct sweep_stats *s = &r.stats[i];
        assert_int_equal(s->boards, 181440);
        assert_int_equal(s->edges, 181440 / 9 * 12);
        if (s->def->admissible == HEURISTIC_YES)
            assert_true(s->admissible);
        if (s->def->consistent == HEURISTIC_YES)
            assert_true(s->consistent);
    }
    assert_true(r.stats[0].admissible && r.stats[0].consistent); /* misplaced */
    assert_true(r.stats[1].admissible && r.stats[1].consistent); /* manhattan */
    sweep_result_free(&r);
    teardown(&f);
}

/*
 * lc-pairs is caught: violations exist, and each listed board really has
 * h > d - h recomputed, d from the naive BFS.
 */
static void test_lc_pairs_inadmissible(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f, "1 2 3/4 5 6/7 8 0");
    struct sweep_result r;
    sweep(&f, 2, &r);
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(3, 3, f.goal.cells, hist, 64, &set);
    const struct sweep_stats *s = &r.stats[3];
    assert_string_equal(s->def->name, "lc-pairs");
    assert_false(s->admissible);
    assert_true(s->violations > 0);
    assert_true(s->max_excess > 0);
    assert_int_equal(s->nexamples, s->violations < SWEEP_KEEP ? (int)s->violations
                                                              : SWEEP_KEEP);
    for (int k = 0; k < s->nexamples; k++) {
        int cells[9];
        for (int c = 0; c < 9; c++)
            cells[c] = s->examples[k].cells[c];
        int d = naive_lookup(&set, naive_pack(cells, 9));
        int h = (int)ref_lc(&f.goal, cells, 1);
        assert_int_equal(d, s->examples[k].d);
        assert_int_equal(h, s->examples[k].h);
        assert_true(h > d);
        if (k)
            assert_true(s->examples[k - 1].index < s->examples[k].index);
    }
    /* and its inconsistent edges are real */
    for (int k = 0; k < s->nedge_examples; k++) {
        const struct sweep_edge *e = &s->edge_examples[k];
        int cells[9], z = 0;
        for (int c = 0; c < 9; c++)
            cells[c] = e->cells[c];
        while (cells[z])
            z++;
        assert_int_equal(ref_lc(&f.goal, cells, 1), e->h);
        int to = board_step(3, 3, z, (enum move)e->move);
        assert_true(to >= 0);
        cells[z] = cells[to];
        cells[to] = 0;
        assert_int_equal(ref_lc(&f.goal, cells, 1), e->h_next);
        assert_true(abs(e->h_next - e->h) > 1);
    }
    naive_free(&set);
    sweep_result_free(&r);
    teardown(&f);
}

/* The counterexamples of paper-notes.md section 5, h by the test's own
 * evaluator and d by the naive BFS. */
static void test_paper_counterexamples(void **state)
{
    (void)state;
    struct board goal;
    slide_error err;
    assert_int_equal(board_parse("1 2 3/4 5 6/7 8 0", 0, 0, &goal, &err), 0);
    static const struct {
        const char *board;
        int manhattan, lc, lc_pairs;
    } want[] = {
        {"1 2 3/0 4 5/6 7 8", 7, 7, 7},    /* before the move */
        {"1 2 3/6 4 5/0 7 8", 6, 8, 10},   /* after it: lc-pairs + 3 */
        {"0 8 7/6 5 4/3 2 1", 20, 28, 32}, /* lc-pairs > d = 28 */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct board b;
        assert_int_equal(board_parse(want[i].board, 3, 3, &b, &err), 0);
        assert_int_equal(ref_manhattan(&goal, b.cells), want[i].manhattan);
        assert_int_equal(ref_lc(&goal, b.cells, 0), want[i].lc);
        assert_int_equal(ref_lc(&goal, b.cells, 1), want[i].lc_pairs);
        board_free(&b);
    }
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(3, 3, goal.cells, hist, 64, &set);
    const int far[9] = {0, 8, 7, 6, 5, 4, 3, 2, 1};
    assert_int_equal(naive_lookup(&set, naive_pack(far, 9)), 28);
    naive_free(&set);
    board_free(&goal);
}

static void same_result(const struct sweep_result *a, const struct sweep_result *b)
{
    assert_int_equal(a->radius, b->radius);
    assert_int_equal(a->boards, b->boards);
    assert_memory_equal(a->hist, b->hist, (size_t)(a->radius + 1) * sizeof *a->hist);
    for (int i = 0; i < a->count; i++) {
        const struct sweep_stats *x = &a->stats[i], *y = &b->stats[i];
        assert_int_equal(x->layers, y->layers);
        for (int d = 0; d < x->layers; d++) {
            assert_int_equal(x->joint_len[d], y->joint_len[d]);
            assert_memory_equal(x->joint[d], y->joint[d],
                                (size_t)x->joint_len[d] * sizeof *x->joint[d]);
        }
        assert_int_equal(x->nexamples, y->nexamples);
        for (int k = 0; k < x->nexamples; k++) {
            const struct sweep_example *p = &x->examples[k], *q = &y->examples[k];
            assert_int_equal(p->index, q->index);
            assert_int_equal(p->d, q->d);
            assert_int_equal(p->h, q->h);
            assert_memory_equal(p->cells, q->cells, sizeof p->cells);
        }
        assert_int_equal(x->nedge_examples, y->nedge_examples);
        for (int k = 0; k < x->nedge_examples; k++) {
            const struct sweep_edge *p = &x->edge_examples[k], *q = &y->edge_examples[k];
            assert_int_equal(p->index, q->index);
            assert_int_equal(p->move, q->move);
            assert_int_equal(p->h, q->h);
            assert_int_equal(p->h_next, q->h_next);
            assert_memory_equal(p->cells, q->cells, sizeof p->cells);
        }
        assert_int_equal(x->edges, y->edges);
        assert_int_equal(x->edge_violations, y->edge_violations);
        assert_int_equal(x->max_step, y->max_step);
        /* bit-identical doubles: computed from the same integers in one order */
        assert_memory_equal(&x->mean_ratio, &y->mean_ratio, sizeof x->mean_ratio);
        assert_memory_equal(&x->mean_h, &y->mean_h, sizeof x->mean_h);
    }
}

static void test_threads_identical(void **state)
{
    (void)state;
    static const char *goals[] = {"1 2 3/4 5 6/7 8 0", "1 2 3 4 5/6 7 8 9 0"};
    for (int g = 0; g < 2; g++) {
        struct fixture f;
        setup(&f, goals[g]);
        struct sweep_result one, two, three;
        sweep(&f, 1, &one);
        sweep(&f, 2, &two);
        sweep(&f, 3, &three);
        same_result(&one, &two);
        same_result(&one, &three);
        sweep_result_free(&one);
        sweep_result_free(&two);
        sweep_result_free(&three);
        teardown(&f);
    }
}

static void test_errors(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f, "1 2 3/4 5 6/7 8 0");
    struct sweep_result r;
    slide_error err = {{0}};
    struct sweep_options o = {1, 0, NULL, NULL, METRIC_STM};
    assert_int_equal(sweep_run(&f.goal, f.hs, 0, &o, &r, &err), SLIDE_EINVAL);
    sweep_result_free(&r);
    /* heuristics set up for another goal: h is not 0 at this one */
    struct board other;
    assert_int_equal(board_parse("8 7 6/5 4 3/2 1 0", 0, 0, &other, &err), 0);
    assert_int_equal(sweep_run(&other, f.hs, NAMES, &o, &r, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "is 8 at the goal"));
    sweep_result_free(&r);
    board_free(&other);
    /* other dimensions */
    struct board g24;
    assert_int_equal(board_goal(&g24, 2, 4, &err), 0);
    assert_int_equal(sweep_run(&g24, f.hs, 1, &o, &r, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "set up for 3x3"));
    sweep_result_free(&r);
    board_free(&g24);
    teardown(&f);
    /* too many cells for an index space */
    struct board g55;
    struct heuristic h;
    assert_int_equal(board_goal(&g55, 5, 5, &err), 0);
    assert_int_equal(heuristic_init(&h, "manhattan", &g55, &err), 0);
    assert_int_equal(sweep_run(&g55, &h, 1, &o, &r, &err), SLIDE_ERANGE);
    sweep_result_free(&r);
    heuristic_free(&h);
    board_free(&g55);
}

/* Path graphs: a 1x4 board has only its 4 slides of the blank. */
static void test_path_graph(void **state)
{
    (void)state;
    struct fixture f;
    setup(&f, "1 2 3 0");
    struct sweep_result r;
    sweep(&f, 2, &r);
    assert_int_equal(r.boards, 4);
    assert_int_equal(r.radius, 3);
    for (int i = 0; i < NAMES; i++) {
        assert_int_equal(r.stats[i].edges, 3);
        assert_true(r.stats[i].admissible);
    }
    /* manhattan is exact on a path: every move brings one tile home */
    assert_int_equal(r.stats[1].exact, 4);
    sweep_result_free(&r);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x3_against_naive),
        cmocka_unit_test(test_2x5_against_naive),
        cmocka_unit_test(test_3x3_verdicts),
        cmocka_unit_test(test_lc_pairs_inadmissible),
        cmocka_unit_test(test_paper_counterexamples),
        cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_path_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
