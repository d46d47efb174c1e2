/*
 * parity.c - inversion counting and the solvability criterion (parity.h).
 */
#include "slide/parity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parity_inversions(const int *seq, size_t len, uint64_t *count,
                      slide_error *err)
{
    /* Fenwick tree over values: scanning right to left, the tiles already
     * inserted are those to the right; those smaller are inversions. */
    uint32_t *tree = calloc(len + 1, sizeof *tree);
    unsigned char *seen = calloc(len + 1, 1);
    uint64_t inv = 0;
    int rc = SLIDE_OK;
    if (!tree || !seen) {
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory counting inversions");
        goto out;
    }
    for (size_t i = len; i-- > 0;) {
        int v = seq[i];
        if (v < 0 || (size_t)v >= len || seen[v]) {
            rc = slide_fail(err, SLIDE_EINVAL,
                            "inversion count needs a permutation of 0..%zu",
                            len ? len - 1 : 0);
            goto out;
        }
        seen[v] = 1;
        for (size_t k = (size_t)v; k > 0; k -= k & -k)
            inv += tree[k];
        for (size_t k = (size_t)v + 1; k <= len; k += k & -k)
            tree[k]++;
    }
    *count = inv;
out:
    free(tree);
    free(seen);
    return rc;
}

/* t of board b relabelled by goal order: out[i] = goal index of b's i-th tile. */
static int relabel(const struct board *b, const struct board *goal, int *out,
                   slide_error *err)
{
    int n = board_cells(b);
    int *goal_index = malloc((size_t)n * sizeof *goal_index);
    if (!goal_index)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory relabelling tiles");
    for (int k = 0, i = 0; k < n; k++)
        if (goal->cells[k])
            goal_index[goal->cells[k]] = i++;
    for (int k = 0, i = 0; k < n; k++)
        if (b->cells[k])
            out[i++] = goal_index[b->cells[k]];
    free(goal_index);
    return SLIDE_OK;
}

int parity_check(const struct board *b, const struct board *goal,
                 struct parity_report *r, slide_error *err)
{
    if (b->rows != goal->rows || b->cols != goal->cols)
        return slide_fail(err, SLIDE_EINVAL,
                          "the board is %dx%d but the goal is %dx%d", b->rows,
                          b->cols, goal->rows, goal->cols);
    int n = board_cells(b);
    int *t = malloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *t);
    if (!t)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory checking parity");
    int rc = relabel(b, goal, t, err);
    if (!rc)
        rc = parity_inversions(t, (size_t)(n - 1), &r->inversions, err);
    free(t);
    if (rc)
        return rc;
    r->rows = b->rows;
    r->cols = b->cols;
    r->blank_row = board_blank(b) / b->cols;
    r->goal_blank_row = board_blank(goal) / b->cols;
    r->path_graph = b->rows == 1 || b->cols == 1;
    if (r->path_graph) {
        r->solvable = r->inversions == 0;
    } else {
        int apart = abs(r->blank_row - r->goal_blank_row);
        r->solvable = (r->inversions + (uint64_t)(b->cols - 1) * (uint64_t)apart) % 2 == 0;
    }
    return SLIDE_OK;
}

size_t parity_explain(const struct parity_report *r, char *buf, size_t len)
{
    int apart = abs(r->blank_row - r->goal_blank_row);
    const char *verdict = r->solvable ? "solvable" : "unsolvable";
    if (r->path_graph)
        return (size_t)snprintf(buf, len,
            "%s: a %dx%d board is a path, tiles never pass each other, so only "
            "boards with the tiles in goal order are solvable; inversions %llu",
            verdict, r->rows, r->cols, (unsigned long long)r->inversions);
    if (r->cols % 2)
        return (size_t)snprintf(buf, len,
            "%s: width %d is odd, so the inversion count must be even; "
            "inversions %llu (relative to the goal's tile order)",
            verdict, r->cols, (unsigned long long)r->inversions);
    return (size_t)snprintf(buf, len,
        "%s: width %d is even, so inversions + rows between the blank and the "
        "goal's blank must be even; inversions %llu (relative to the goal's tile "
        "order), blank in row %d, goal blank in row %d (rows counted from 1 at "
        "the top): %llu + %d = %llu is %s",
        verdict, r->cols, (unsigned long long)r->inversions, r->blank_row + 1,
        r->goal_blank_row + 1, (unsigned long long)r->inversions, apart,
        (unsigned long long)(r->inversions + (uint64_t)apart),
        (r->inversions + (uint64_t)apart) % 2 ? "odd" : "even");
}

enum parity_goal_kind parity_goal_kind(const struct board *goal)
{
    int n = board_cells(goal), standard = 1, first = 1;
    for (int k = 0; k < n; k++) {
        standard &= goal->cells[k] == (k + 1) % n;
        first &= goal->cells[k] == k;
    }
    return standard ? PARITY_GOAL_STANDARD : first ? PARITY_GOAL_BLANK_FIRST : PARITY_GOAL_OTHER;
}

/* 1 when cells, read as a rows x cols board, reach the goal of kind, else
 * 0; *rc is SLIDE_OK or the error (then 0). */
static int reaches(const int *cells, int rows, int cols, enum parity_goal_kind kind, int *rc,
                   slide_error *err)
{
    struct board b = {0}, goal = {0};
    struct parity_report r = {0};
    int n = rows * cols;
    *rc = board_alloc(&b, rows, cols, err);
    if (!*rc)
        *rc = board_alloc(&goal, rows, cols, err);
    for (int k = 0; !*rc && k < n; k++) {
        b.cells[k] = cells[k];
        goal.cells[k] = kind == PARITY_GOAL_BLANK_FIRST ? k : (k + 1) % n;
    }
    if (!*rc)
        *rc = parity_check(&b, &goal, &r, err);
    board_free(&b);
    board_free(&goal);
    return !*rc && r.solvable;
}

int parity_hint(const struct board *b, const struct board *goal, int one_line,
                struct parity_hint *hint, slide_error *err)
{
    struct parity_report r;
    int rc = parity_check(b, goal, &r, err);
    memset(hint, 0, sizeof *hint);
    enum parity_goal_kind kind = rc ? PARITY_GOAL_OTHER : parity_goal_kind(goal);
    if (rc || r.solvable || kind == PARITY_GOAL_OTHER)
        return rc;
    enum parity_goal_kind other =
        kind == PARITY_GOAL_STANDARD ? PARITY_GOAL_BLANK_FIRST : PARITY_GOAL_STANDARD;
    struct parity_hint tries[3]; /* found unused */
    int ntries = 0, n = board_cells(b);
    int rows, cols;
    if (one_line && b->rows == 1 && board_rectangle(n, &rows, &cols)) {
        tries[ntries++] = (struct parity_hint){0, rows, cols, kind};
        tries[ntries++] = (struct parity_hint){0, rows, cols, other};
    }
    tries[ntries++] = (struct parity_hint){0, b->rows, b->cols, other};
    for (int i = 0; i < ntries; i++) {
        if (reaches(b->cells, tries[i].rows, tries[i].cols, tries[i].goal, &rc, err)) {
            *hint = tries[i];
            hint->found = 1;
            return SLIDE_OK;
        }
        if (rc)
            return rc;
    }
    return SLIDE_OK;
}
