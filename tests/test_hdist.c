/*
 * test_hdist.c - heuristic value distributions (hdist.h) against
 * independent truths: every reachable board of 3x3, 2x4 and 3x2 from the
 * plain hash-set BFS of testutil.h, its Manhattan distance and its pattern
 * database value computed here; the exact programme must equal the
 * enumeration per blank cell, the closed-form mean must equal the
 * enumerated mean, and the sampled distribution (a pattern database sum
 * and Manhattan) must hold every exact probability and the exact mean in
 * its confidence interval.
 */
#include "testutil.h"

#include "clitest.h"

#include <math.h>
#include <unistd.h>

#include "slide/hdist.h"
#include "slide/pdb.h"
#include "slide/pdb_build.h"
#include "slide/pdb_file.h"

static char dir[64];

/* The Manhattan distance, written here from the goal cells. */
static int manhattan(const int *cells, const int *goal, int rows, int cols)
{
    int n = rows * cols, h = 0;
    for (int c = 0; c < n; c++)
        for (int g = 0; cells[c] && g < n; g++)
            if (goal[g] == cells[c])
                h += abs(c / cols - g / cols) + abs(c % cols - g % cols);
    return h;
}

/* Exact counts [cell][value] of eval over every reachable board. */
struct truth {
    uint64_t count[16][64], total;
    double mean;
};

static void enumerate(int rows, int cols, const int *goal, const struct heuristic *h,
                      struct truth *t)
{
    struct naive_set set;
    uint64_t hist[64];
    int n = rows * cols, cells[16];
    memset(t, 0, sizeof *t);
    naive_bfs(rows, cols, goal, hist, 64, &set);
    double sum = 0;
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i])
            continue;
        int blank = 0;
        for (int c = 0; c < n; c++) {
            cells[c] = naive_cell(set.keys[i], c);
            if (!cells[c])
                blank = c;
        }
        int v = h ? heuristic_eval(h, cells) : manhattan(cells, goal, rows, cols);
        assert_true(v >= 0 && v < 64);
        t->count[blank][v]++;
        t->total++;
        sum += v;
    }
    t->mean = sum / (double)t->total;
    naive_free(&set);
}

static void make_goal(struct board *b, int rows, int cols, const int *cells)
{
    slide_error err;
    assert_int_equal(board_alloc(b, rows, cols, &err), 0);
    for (int c = 0; c < rows * cols; c++)
        b->cells[c] = cells ? cells[c] : (c + 1) % (rows * cols);
}

static void check_exact_manhattan(int rows, int cols, const int *goalcells)
{
    struct board goal;
    struct hdist d;
    struct truth t;
    slide_error err;
    make_goal(&goal, rows, cols, goalcells);
    enumerate(rows, cols, goal.cells, NULL, &t);
    assert_int_equal(hdist_manhattan_exact(&goal, &d, &err), 0);
    assert_true(d.exact);
    assert_true(d.total == t.total);
    for (int c = 0; c < rows * cols; c++)
        for (int v = 0; v < 64; v++)
            if (hdist_count(&d, c, v) != t.count[c][v])
                fail_msg("%dx%d: cell %d value %d: %llu, enumeration %llu", rows, cols, c, v,
                         (unsigned long long)hdist_count(&d, c, v),
                         (unsigned long long)t.count[c][v]);
    assert_true(fabs(hdist_mean(&d, -1, 1.96).value - t.mean) < 1e-12);
    assert_true(fabs(hdist_manhattan_mean(&goal) - t.mean) < 1e-12);
    hdist_free(&d);
    board_free(&goal);
}

static void test_manhattan_exact(void **state)
{
    (void)state;
    check_exact_manhattan(3, 3, NULL);
    check_exact_manhattan(2, 4, NULL);
    check_exact_manhattan(3, 2, NULL);
    const int centre[9] = {1, 2, 3, 4, 0, 5, 6, 7, 8}; /* goal blank not in a corner */
    check_exact_manhattan(3, 3, centre);
    const int odd[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    check_exact_manhattan(2, 4, odd);
}

/* The 4x4 closed form against its own definition: average over cells. */
static void test_manhattan_mean_4x4(void **state)
{
    (void)state;
    struct board goal;
    make_goal(&goal, 4, 4, NULL);
    double sum = 0;
    for (int t = 1; t < 16; t++) {
        int g = t - 1;
        for (int c = 0; c < 16; c++)
            sum += (abs(c / 4 - g / 4) + abs(c % 4 - g % 4)) / 16.0;
    }
    assert_true(fabs(hdist_manhattan_mean(&goal) - sum) < 1e-12);
    assert_true(fabs(sum - 37.0) < 1e-12); /* 16 cells * 2 * 1.25, less the blank's 3 */
    board_free(&goal);
}

/* Every exact probability (by cell and overall) inside the sample's interval. */
static void check_sample(const struct hdist *d, const struct truth *t, int n, double z)
{
    for (int v = 0; v < 64; v++) {
        uint64_t all = 0;
        for (int c = 0; c < n; c++) {
            all += t->count[c][v];
            uint64_t per = 0;
            for (int w = 0; w < 64; w++)
                per += t->count[c][w];
            double p = (double)t->count[c][v] / (double)per;
            struct hdist_estimate e = hdist_prob(d, c, v, z);
            if (p < e.low - 1e-12 || p > e.high + 1e-12)
                fail_msg("cell %d value %d: exact %.6f outside [%.6f, %.6f]", c, v, p, e.low,
                         e.high);
        }
        double p = (double)all / (double)t->total;
        struct hdist_estimate e = hdist_prob(d, -1, v, z);
        if (p < e.low - 1e-12 || p > e.high + 1e-12)
            fail_msg("value %d: exact %.6f outside [%.6f, %.6f]", v, p, e.low, e.high);
    }
    struct hdist_estimate m = hdist_mean(d, -1, z);
    if (t->mean < m.low || t->mean > m.high)
        fail_msg("mean: exact %.6f outside [%.6f, %.6f]", t->mean, m.low, m.high);
}

static void test_sample_pdb_3x3(void **state)
{
    (void)state;
    struct board goal;
    struct pattern pat;
    struct pdb_table tab;
    struct heuristic h;
    struct hdist d, d1;
    struct truth t;
    slide_error err;
    char spec[600], path[2][256];
    const char *tiles[2] = {"1-4", "5-8"};
    make_goal(&goal, 3, 3, NULL);
    for (int i = 0; i < 2; i++) {
        int list[PATTERN_MAX_TILES], k;
        assert_int_equal(pattern_parse_tiles(tiles[i], list, PATTERN_MAX_TILES, &k, &err), 0);
        assert_int_equal(pattern_init(&pat, &goal, list, k, &err), 0);
        struct pdb_build_options o = {2, 0, NULL, NULL};
        assert_int_equal(pdb_build(&pat, PDB_ADDITIVE, &o, &tab, &err), 0);
        snprintf(path[i], sizeof path[i], "%s/p%d", dir, i);
        assert_int_equal(pdb_save(path[i], &tab, -1, 2, NULL, &err), 0);
        pdb_table_free(&tab);
    }
    snprintf(spec, sizeof spec, "pdb:%s+%s", path[0], path[1]);
    assert_int_equal(heuristic_init(&h, spec, &goal, &err), 0);
    enumerate(3, 3, goal.cells, &h, &t);
    assert_int_equal(hdist_sample(&h, &goal, 200000, 7, 2, &d, &err), 0);
    assert_false(d.exact);
    assert_true(d.total == 200000);
    check_sample(&d, &t, 9, 4.0);
    /* the counts do not depend on the thread count */
    assert_int_equal(hdist_sample(&h, &goal, 200000, 7, 1, &d1, &err), 0);
    assert_memory_equal(d.count, d1.count, 9 * HDIST_VALUES * sizeof *d.count);
    hdist_free(&d1);
    heuristic_free(&h);
    hdist_free(&d);
    board_free(&goal);
}

/* Sample heuristic name on 2x4 against the enumerated Manhattan truth. */
static void sample_2x4(const char *name, struct hdist *d, struct truth *t)
{
    struct board goal;
    struct heuristic h;
    slide_error err;
    make_goal(&goal, 2, 4, NULL);
    assert_int_equal(heuristic_init(&h, name, &goal, &err), 0);
    enumerate(2, 4, goal.cells, NULL, t);
    assert_int_equal(hdist_sample(&h, &goal, 100000, 11, 2, d, &err), 0);
    heuristic_free(&h);
    board_free(&goal);
}

static void test_sample_manhattan_2x4(void **state)
{
    (void)state;
    struct hdist d;
    struct truth t;
    sample_2x4("manhattan", &d, &t);
    check_sample(&d, &t, 8, 4.0);
    hdist_free(&d);
}

/* A sample of the wrong heuristic is outside the intervals (the check bites). */
static void test_sample_check_fails(void **state)
{
    (void)state;
    struct hdist d;
    struct truth t;
    sample_2x4("misplaced", &d, &t); /* against Manhattan's truth */
    struct hdist_estimate m = hdist_mean(&d, -1, 4.0);
    assert_true(t.mean < m.low || t.mean > m.high);
    hdist_free(&d);
}

static void test_errors(void **state)
{
    (void)state;
    struct board goal;
    struct heuristic h;
    struct hdist d;
    slide_error err;
    make_goal(&goal, 1, 4, NULL);
    assert_int_equal(heuristic_init(&h, "manhattan", &goal, &err), 0);
    assert_int_equal(hdist_sample(&h, &goal, 10, 1, 1, &d, &err), SLIDE_EINVAL);
    assert_int_equal(hdist_manhattan_exact(&goal, &d, &err), SLIDE_EINVAL);
    heuristic_free(&h);
    board_free(&goal);
    make_goal(&goal, 5, 5, NULL);
    assert_int_equal(hdist_manhattan_exact(&goal, &d, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "at most 16 cells"));
    board_free(&goal);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/slide-test-hdist-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manhattan_exact),    cmocka_unit_test(test_manhattan_mean_4x4),
        cmocka_unit_test(test_sample_pdb_3x3),     cmocka_unit_test(test_sample_manhattan_2x4),
        cmocka_unit_test(test_sample_check_fails), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
