/*
 * kre.c - the brute-force tree by blank cell and the prediction of Korf,
 * Reid and Edelkamp (see kre.h).
 */
#include "slide/kre.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slide/board.h"

/* Last-move slots: the four moves, and "none" for the root. */
#define SLOTS (MOVE_COUNT + 1)
#define ROOT_SLOT MOVE_COUNT

void kre_tree_free(struct kre_tree *t)
{
    free(t->nodes);
    free(t->children);
    memset(t, 0, sizeof *t);
}

/* One level: from cur[c][last] to next[c'][m], adding the level's sums. */
static void tree_level(int rows, int cols, const double *cur, double *next, double *nodes,
                       double *children)
{
    int n = rows * cols;
    memset(next, 0, (size_t)n * SLOTS * sizeof *next);
    for (int c = 0; c < n; c++)
        for (int last = 0; last < SLOTS; last++) {
            double k = cur[c * SLOTS + last];
            if (k == 0)
                continue;
            nodes[c] += k;
            for (int m = 0; m < MOVE_COUNT; m++) {
                int to = board_step(rows, cols, c, (enum move)m);
                if (to < 0 || (last != ROOT_SLOT && m == (int)move_inverse((enum move)last)))
                    continue;
                children[c] += k;
                next[to * SLOTS + m] += k;
            }
        }
}

int kre_tree_build(int rows, int cols, int root, int depth, struct kre_tree *t,
                   slide_error *err)
{
    memset(t, 0, sizeof *t);
    int n = rows * cols;
    if (rows < 1 || cols < 1 || n > HDIST_MAX_CELLS || root < 0 || root >= n || depth < 0 ||
        depth > KRE_MAX_DEPTH)
        return slide_fail(err, SLIDE_EINVAL, "the brute-force tree needs a board of at most "
                          "%d cells, a root cell on it and a depth 0..%d", HDIST_MAX_CELLS,
                          KRE_MAX_DEPTH);
    size_t len = (size_t)(depth + 1) * n;
    double *cur = calloc((size_t)n * SLOTS, sizeof *cur);
    double *next = calloc((size_t)n * SLOTS, sizeof *next);
    t->nodes = calloc(len, sizeof *t->nodes);
    t->children = calloc(len, sizeof *t->children);
    if (!cur || !next || !t->nodes || !t->children) {
        free(cur);
        free(next);
        kre_tree_free(t);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the brute-force tree");
    }
    t->n = n;
    t->depth = depth;
    cur[root * SLOTS + ROOT_SLOT] = 1;
    for (int i = 0; i <= depth; i++) {
        tree_level(rows, cols, cur, next, t->nodes + (size_t)i * n,
                   t->children + (size_t)i * n);
        double *swap = cur;
        cur = next;
        next = swap;
    }
    free(cur);
    free(next);
    return SLIDE_OK;
}

/*
 * Weight of a board with the blank on c and value v: the tree's nodes (or
 * children) at depths i <= threshold - v, summed over the thresholds.
 */
static double weight(const struct kre_tree *t, const double *per, int c, int v,
                     const int *thresholds, int count)
{
    double w = 0;
    for (int j = 0; j < count; j++)
        for (int i = 0; i <= thresholds[j] - v; i++)
            w += per[(size_t)i * t->n + c];
    return w;
}

/* Sum and sampling variance of one cell's share of the prediction. */
static void cell_share(const struct kre_tree *t, const struct hdist *d, const double *per,
                       int c, const int *thresholds, int count, double *sum, double *var)
{
    double N = (double)d->per_cell[c], m1 = 0, m2 = 0;
    for (int v = 0; v <= d->max; v++) {
        uint64_t k = hdist_count(d, c, v);
        if (!k)
            continue;
        double p = (double)k / N, w = weight(t, per, c, v, thresholds, count);
        m1 += p * w;
        m2 += p * w * w;
    }
    *sum += m1;
    if (!d->exact)
        *var += fmax(m2 - m1 * m1, 0) / N;
}

int kre_predict(const struct kre_tree *t, const struct hdist *d, const int *thresholds,
                int count, struct kre_prediction *out, slide_error *err)
{
    memset(out, 0, sizeof *out);
    if (d->n != t->n || count < 1)
        return slide_fail(err, SLIDE_EINVAL, "the distribution has %d cells and the tree "
                          "%d; at least one threshold is needed", d->n, t->n);
    for (int j = 0; j < count; j++)
        if (thresholds[j] < 0 || thresholds[j] > t->depth)
            return slide_fail(err, SLIDE_EINVAL, "threshold %d is outside the tree's depths "
                              "0..%d", thresholds[j], t->depth);
    double ve = 0, vg = 0;
    for (int c = 0; c < t->n; c++) {
        double reached = 0;
        for (int i = 0; i <= t->depth; i++)
            reached += t->nodes[(size_t)i * t->n + c];
        if (reached == 0)
            continue;
        if (d->per_cell[c] == 0)
            return slide_fail(err, SLIDE_EINVAL, "no sampled board has the blank on cell %d: "
                              "draw more samples", c);
        cell_share(t, d, t->nodes, c, thresholds, count, &out->expanded, &ve);
        cell_share(t, d, t->children, c, thresholds, count, &out->generated, &vg);
    }
    out->expanded_se = sqrt(ve);
    out->generated_se = sqrt(vg);
    return SLIDE_OK;
}
