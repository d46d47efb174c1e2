/*
 * test_kre.c - the brute-force tree and the prediction of Korf, Reid and
 * Edelkamp (kre.h) against independent truths: the tree's nodes and
 * children per depth and blank cell against a depth-first enumeration of
 * the pruned tree written here (3x3, 2x4, 4x4, every root cell); the
 * asymptotic branching factor of the 15 puzzle, 2.1304 (Edelkamp and Korf,
 * "The branching factor of regular search spaces", AAAI 1998); the
 * prediction with h = 0 against the tree's size; and the prediction from
 * the exact 3x3 Manhattan distribution against the formula summed here
 * over the enumerated tree and an enumeration of every board.
 */
#include "testutil.h"

#include <math.h>

#include "slide/hdist.h"
#include "slide/kre.h"

#define MAXD 14

/* Depth-first enumeration: blank at (r, c), last move direction (dr, dc). */
struct dfs {
    int rows, cols, maxd;
    double nodes[MAXD + 1][16], children[MAXD + 1][16];
};

static void dfs(struct dfs *s, int r, int c, int dr, int dc, int depth)
{
    static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    s->nodes[depth][r * s->cols + c] += 1;
    if (depth == s->maxd)
        return;
    for (int m = 0; m < 4; m++) {
        int nr = r + step[m][0], nc = c + step[m][1];
        if (nr < 0 || nc < 0 || nr >= s->rows || nc >= s->cols)
            continue;
        if (step[m][0] == -dr && step[m][1] == -dc && (dr || dc))
            continue; /* the move back to the parent */
        s->children[depth][r * s->cols + c] += 1;
        dfs(s, nr, nc, step[m][0], step[m][1], depth + 1);
    }
}

static void check_tree(int rows, int cols, int maxd)
{
    int n = rows * cols;
    slide_error err;
    for (int root = 0; root < n; root++) {
        struct dfs *s = calloc(1, sizeof *s);
        s->rows = rows;
        s->cols = cols;
        s->maxd = maxd;
        dfs(s, root / cols, root % cols, 0, 0, 0);
        struct kre_tree t;
        assert_int_equal(kre_tree_build(rows, cols, root, maxd, &t, &err), 0);
        for (int i = 0; i <= maxd; i++)
            for (int c = 0; c < n; c++) {
                assert_true(t.nodes[i * n + c] == s->nodes[i][c]);
                /* the enumeration stops at maxd: its leaves have no children counted */
                if (i < maxd)
                    assert_true(t.children[i * n + c] == s->children[i][c]);
            }
        kre_tree_free(&t);
        free(s);
    }
}

static void test_tree_against_enumeration(void **state)
{
    (void)state;
    check_tree(3, 3, 14);
    check_tree(2, 4, 14);
    check_tree(4, 4, 11);
}

static void test_branching_factor_15(void **state)
{
    (void)state;
    struct kre_tree t;
    slide_error err;
    assert_int_equal(kre_tree_build(4, 4, 15, 400, &t, &err), 0);
    double a = 0, b = 0;
    for (int c = 0; c < 16; c++) {
        a += t.nodes[398 * 16 + c];
        b += t.nodes[400 * 16 + c];
    }
    double bf = sqrt(b / a); /* two levels: the blank alternates colours */
    assert_true(fabs(bf - 2.1304) < 0.00005);
    kre_tree_free(&t);
}

/* A distribution with every board at value 0. */
static void zero_dist(struct hdist *d, int n)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->exact = 1;
    d->count = calloc((size_t)n * HDIST_VALUES, sizeof *d->count);
    for (int c = 0; c < n; c++) {
        d->count[(size_t)c * HDIST_VALUES] = 5;
        d->per_cell[c] = 5;
        d->total += 5;
    }
}

static void test_predict_h0_is_tree(void **state)
{
    (void)state;
    struct kre_tree t;
    struct hdist d;
    struct kre_prediction p;
    slide_error err;
    struct dfs *s = calloc(1, sizeof *s);
    s->rows = 3;
    s->cols = 3;
    s->maxd = 13; /* one deeper than the tree, so depth 12 has its children */
    dfs(s, 1, 1, 0, 0, 0);
    assert_int_equal(kre_tree_build(3, 3, 4, 12, &t, &err), 0);
    zero_dist(&d, 9);
    int th[2] = {10, 12};
    assert_int_equal(kre_predict(&t, &d, th, 2, &p, &err), 0);
    double want = 0, gen = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i <= th[j]; i++)
            for (int c = 0; c < 9; c++) {
                want += s->nodes[i][c];
                gen += s->children[i][c];
            }
    assert_true(p.expanded == want);
    assert_true(p.generated == gen);
    assert_true(p.expanded_se == 0);
    /* errors: a threshold beyond the tree, a cell with no sample */
    th[0] = 13;
    assert_int_equal(kre_predict(&t, &d, th, 1, &p, &err), SLIDE_EINVAL);
    d.per_cell[3] = 0;
    th[0] = 4;
    assert_int_equal(kre_predict(&t, &d, th, 1, &p, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "cell 3"));
    hdist_free(&d);
    kre_tree_free(&t);
    free(s);
}

/* The formula summed here: enumerated tree, every board's Manhattan distance. */
static void test_predict_manhattan_3x3(void **state)
{
    (void)state;
    struct board goal;
    struct hdist d;
    struct kre_tree t;
    struct kre_prediction p;
    struct naive_set set;
    slide_error err;
    uint64_t hist[40];
    double count[9][40] = {{0}}, per[9] = {0};
    assert_int_equal(board_alloc(&goal, 3, 3, &err), 0);
    for (int c = 0; c < 9; c++)
        goal.cells[c] = (c + 1) % 9;
    naive_bfs(3, 3, goal.cells, hist, 40, &set);
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i])
            continue;
        int h = 0, blank = 0;
        for (int c = 0; c < 9; c++) {
            int tile = naive_cell(set.keys[i], c);
            if (!tile)
                blank = c;
            else
                h += abs(c / 3 - (tile - 1) / 3) + abs(c % 3 - (tile - 1) % 3);
        }
        count[blank][h]++;
        per[blank]++;
    }
    naive_free(&set);
    struct dfs *s = calloc(1, sizeof *s);
    s->rows = 3;
    s->cols = 3;
    s->maxd = 14;
    dfs(s, 0, 0, 0, 0, 0);
    assert_int_equal(hdist_manhattan_exact(&goal, &d, &err), 0);
    assert_int_equal(kre_tree_build(3, 3, 0, 14, &t, &err), 0);
    int th = 14;
    assert_int_equal(kre_predict(&t, &d, &th, 1, &p, &err), 0);
    double want = 0;
    for (int i = 0; i <= th; i++)
        for (int c = 0; c < 9; c++)
            for (int v = 0; v <= th - i; v++)
                want += s->nodes[i][c] * count[c][v] / per[c];
    assert_true(fabs(p.expanded - want) <= 1e-9 * want);
    assert_true(p.expanded > 0 && p.expanded_se == 0);
    kre_tree_free(&t);
    hdist_free(&d);
    board_free(&goal);
    free(s);
}

/* IDA* iteration with threshold d from one board: nodes with g + h <= d. */
struct ida_count {
    int rows, cols, goal_cell[16];
    double expanded, generated;
};

static int md(const struct ida_count *s, const int *cells)
{
    int h = 0, n = s->rows * s->cols;
    for (int c = 0; c < n; c++)
        if (cells[c]) {
            int g = s->goal_cell[cells[c]];
            h += abs(c / s->cols - g / s->cols) + abs(c % s->cols - g % s->cols);
        }
    return h;
}

static void iterate(struct ida_count *s, int *cells, int blank, int back, int g, int d)
{
    static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    if (g + md(s, cells) > d)
        return;
    s->expanded += 1;
    int r = blank / s->cols, c = blank % s->cols;
    for (int m = 0; m < 4; m++) {
        int nr = r + step[m][0], nc = c + step[m][1], to = nr * s->cols + nc;
        if (nr < 0 || nc < 0 || nr >= s->rows || nc >= s->cols || to == back)
            continue;
        s->generated += 1;
        cells[blank] = cells[to];
        cells[to] = 0;
        iterate(s, cells, to, blank, g + 1, d);
        cells[to] = cells[blank];
        cells[blank] = 0;
    }
}

static void check_mean_over_starts(int rows, int cols, int root, int d)
{
    struct board goal;
    struct hdist dist;
    struct kre_tree t;
    struct kre_prediction p;
    struct naive_set set;
    struct ida_count s = {.rows = rows, .cols = cols};
    slide_error err;
    uint64_t hist[64];
    int n = rows * cols, cells[16], starts = 0;
    assert_int_equal(board_alloc(&goal, rows, cols, &err), 0);
    for (int c = 0; c < n; c++) {
        goal.cells[c] = (c + 1) % n;
        s.goal_cell[goal.cells[c]] = c;
    }
    naive_bfs(rows, cols, goal.cells, hist, 64, &set);
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i] || naive_cell(set.keys[i], root) != 0)
            continue;
        for (int c = 0; c < n; c++)
            cells[c] = naive_cell(set.keys[i], c);
        iterate(&s, cells, root, -1, 0, d);
        starts++;
    }
    naive_free(&set);
    assert_int_equal(hdist_manhattan_exact(&goal, &dist, &err), 0);
    assert_int_equal(kre_tree_build(rows, cols, root, d, &t, &err), 0);
    assert_int_equal(kre_predict(&t, &dist, &d, 1, &p, &err), 0);
    double e = s.expanded / starts, g = s.generated / starts;
    if (fabs(p.expanded - e) > 1e-9 * e || fabs(p.generated - g) > 1e-9 * g)
        fail_msg("%dx%d root %d threshold %d: predicted %.6f / %.6f, mean of %d starts "
                 "%.6f / %.6f", rows, cols, root, d, p.expanded, p.generated, starts, e, g);
    kre_tree_free(&t);
    hdist_free(&dist);
    board_free(&goal);
}

static void test_predict_is_mean_over_starts(void **state)
{
    (void)state;
    for (int root = 0; root < 6; root++)
        check_mean_over_starts(2, 3, root, 16);
    check_mean_over_starts(2, 4, 7, 15);
    check_mean_over_starts(2, 4, 2, 14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_against_enumeration),
        cmocka_unit_test(test_branching_factor_15),
        cmocka_unit_test(test_predict_h0_is_tree),
        cmocka_unit_test(test_predict_manhattan_3x3),
        cmocka_unit_test(test_predict_is_mean_over_starts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
