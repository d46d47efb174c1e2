/*
 * ida_heuristic.c - misplaced tiles, Manhattan distance and Manhattan plus
 * linear conflicts, each with a full and an incremental evaluation
 * (ida_heuristic.h).
 */
#include "slide/ida_heuristic.h"

#include "slide/heuristic.h"
#include "slide/pdb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where every tile belongs and where every cell is, for one goal. */
struct goal_map {
    int rows, cols, n;
    int *goal_cell, *goal_row, *goal_col; /* by tile 1..n-1 */
    int *cell_row, *cell_col;             /* by cell 0..n-1 */
    int *seq, *tails;                     /* scratch of max(rows, cols) for LIS */
};

static void goal_map_free(void *ctx)
{
    struct goal_map *g = ctx;
    if (!g)
        return;
    free(g->goal_cell);
    free(g->goal_row);
    free(g->goal_col);
    free(g->cell_row);
    free(g->cell_col);
    free(g->seq);
    free(g->tails);
    free(g);
}

static struct goal_map *goal_map_new(const struct board *goal)
{
    struct goal_map *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    size_t n = (size_t)board_cells(goal);
    size_t side = (size_t)(goal->rows > goal->cols ? goal->rows : goal->cols);
    g->rows = goal->rows;
    g->cols = goal->cols;
    g->n = (int)n;
    g->goal_cell = malloc(n * sizeof(int));
    g->goal_row = malloc(n * sizeof(int));
    g->goal_col = malloc(n * sizeof(int));
    g->cell_row = malloc(n * sizeof(int));
    g->cell_col = malloc(n * sizeof(int));
    g->seq = malloc(side * sizeof(int));
    g->tails = malloc(side * sizeof(int));
    if (!g->goal_cell || !g->goal_row || !g->goal_col || !g->cell_row ||
        !g->cell_col || !g->seq || !g->tails) {
        goal_map_free(g);
        return NULL;
    }
    for (int k = 0; k < g->n; k++) {
        int t = goal->cells[k];
        g->cell_row[k] = k / g->cols;
        g->cell_col[k] = k % g->cols;
        g->goal_cell[t] = k;
        g->goal_row[t] = k / g->cols;
        g->goal_col[t] = k % g->cols;
    }
    return g;
}

/* ---- misplaced tiles -------------------------------------------------- */

static int misplaced_eval(void *ctx, const struct board *b)
{
    const struct goal_map *g = ctx;
    int h = 0;
    for (int k = 0; k < g->n; k++)
        h += b->cells[k] && g->goal_cell[b->cells[k]] != k;
    return h;
}

static int misplaced_step(void *ctx, const struct board *b, int from, int to,
                          int h)
{
    const struct goal_map *g = ctx;
    int home = g->goal_cell[b->cells[to]];
    return h + (home == from) - (home == to);
}

/* ---- Manhattan distance ----------------------------------------------- */

static int manhattan_eval(void *ctx, const struct board *b)
{
    const struct goal_map *g = ctx;
    int64_t h = 0;
    for (int k = 0; k < g->n; k++) {
        int t = b->cells[k];
        if (t)
            h += abs(g->cell_row[k] - g->goal_row[t]) +
                 abs(g->cell_col[k] - g->goal_col[t]);
    }
    return h < IDA_H_MAX ? (int)h : IDA_H_MAX;
}

/* The +-1 change of one tile's Manhattan distance. */
static int manhattan_delta(const struct goal_map *g, int t, int from, int to)
{
    if (g->cell_row[from] != g->cell_row[to])
        return abs(g->cell_row[to] - g->goal_row[t]) -
               abs(g->cell_row[from] - g->goal_row[t]);
    return abs(g->cell_col[to] - g->goal_col[t]) -
           abs(g->cell_col[from] - g->goal_col[t]);
}

static int manhattan_step(void *ctx, const struct board *b, int from, int to,
                          int h)
{
    const struct goal_map *g = ctx;
    return h + manhattan_delta(g, b->cells[to], from, to);
}

/* ---- linear conflicts -------------------------------------------------- */

/* k - LIS of seq[0..k-1] (distinct values), by patience sorting. */
static int must_leave(const int *seq, int k, int *tails)
{
    int len = 0;
    for (int i = 0; i < k; i++) {
        int lo = 0, hi = len;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (tails[mid] < seq[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        tails[lo] = seq[i];
        if (lo == len)
            len++;
    }
    return k - len;
}

/*
 * k - LIS of line `line` (a row if vertical == 0, else a column), read from
 * the cells of b except that position `pos` along the line is read as
 * holding tile `as` (0: the blank); pos < 0 reads b as it is.
 */
static int line_conflict(struct goal_map *g, const struct board *b, int line,
                         int vertical, int pos, int as)
{
    int len = vertical ? g->rows : g->cols, k = 0;
    int stride = vertical ? g->cols : 1, first = vertical ? line : line * g->cols;
    const int *home_line = vertical ? g->goal_col : g->goal_row;
    const int *home_pos = vertical ? g->goal_row : g->goal_col;
    for (int i = 0; i < len; i++) {
        int t = i == pos ? as : b->cells[first + i * stride];
        if (t && home_line[t] == line)
            g->seq[k++] = home_pos[t];
    }
    return must_leave(g->seq, k, g->tails);
}

static int lc_eval(void *ctx, const struct board *b)
{
    struct goal_map *g = ctx;
    int64_t h = manhattan_eval(ctx, b);
    for (int r = 0; r < g->rows; r++)
        h += 2 * line_conflict(g, b, r, 0, -1, 0);
    for (int c = 0; c < g->cols; c++)
        h += 2 * line_conflict(g, b, c, 1, -1, 0);
    return h < IDA_H_MAX ? (int)h : IDA_H_MAX;
}

/*
 * Only one line's conflicts can change: a vertical move takes tile t out of
 * one row and into another (its column's order is unchanged, the blank does
 * not count), and only a row that is t's goal row counts t.  That row's
 * conflict is compared with and without t at t's column.
 */
static int lc_step(void *ctx, const struct board *b, int from, int to, int h)
{
    struct goal_map *g = ctx;
    int t = b->cells[to];
    int vertical = g->cell_row[from] != g->cell_row[to];
    const int *cell_line = vertical ? g->cell_row : g->cell_col;
    const int *cell_pos = vertical ? g->cell_col : g->cell_row;
    int home = vertical ? g->goal_row[t] : g->goal_col[t];
    h += manhattan_delta(g, t, from, to);
    if (home != cell_line[to] && home != cell_line[from])
        return h;
    /* line_conflict's `vertical` names the line's direction: a column for a
     * horizontal move, a row for a vertical one. */
    int with = line_conflict(g, b, home, !vertical, cell_pos[to], t);
    int without = line_conflict(g, b, home, !vertical, cell_pos[to], 0);
    return home == cell_line[to] ? h + 2 * (with - without)
                                 : h - 2 * (with - without);
}

/* ---- the table --------------------------------------------------------- */

struct heuristic_row {
    const char *name;
    const char *summary;
    int admissible;
    ida_eval_fn eval;
    ida_step_fn step;
};

/*
 * One row per heuristic.  A heuristic from elsewhere (walking distance,
 * pattern databases) joins as a row whose eval wraps its h(board) and whose
 * step is NULL, or with a step of its own when it has an incremental form.
 */
static const struct heuristic_row rows[] = {
    {"lc", "Manhattan + 2 * (k - LIS) per row and column (linear conflicts)", 1,
     lc_eval, lc_step},
    {"manhattan", "sum of the tiles' row and column distances to their goal cells",
     1, manhattan_eval, manhattan_step},
    {"misplaced", "number of tiles not on their goal cell", 1, misplaced_eval,
     misplaced_step},
};
#define NROWS (int)(sizeof rows / sizeof rows[0])

const char *ida_heuristic_name(int i) { return i >= 0 && i < NROWS ? rows[i].name : NULL; }

const char *ida_heuristic_summary(int i)
{
    return i >= 0 && i < NROWS ? rows[i].summary : NULL;
}

static int open_wd(struct ida_heuristic *h, const struct board *goal, enum metric metric,
                   struct heuristic_wd_store *store, const volatile sig_atomic_t *cancel,
                   slide_error *err);

int ida_heuristic_open(struct ida_heuristic *h, const char *name,
                       const struct board *goal, slide_error *err)
{
    return ida_heuristic_open_metric(h, name, goal, METRIC_STM, err);
}

int ida_heuristic_open_metric(struct ida_heuristic *h, const char *name,
                              const struct board *goal, enum metric metric,
                              slide_error *err)
{
    memset(h, 0, sizeof *h);
    if (strcmp(name, "wd") == 0)
        return open_wd(h, goal, metric, NULL, NULL, err);
    if (metric == METRIC_MTM && heuristic_stm_only(name))
        return slide_fail(err, SLIDE_EINVAL, "%s is not admissible in the multi-tile "
                          "metric (one move slides up to %d tiles); use wd, pdb:FILES "
                          "of kind mtm or max(wd,pdb:FILES)", name,
                          (goal->rows > goal->cols ? goal->rows : goal->cols) - 1);
    int i = 0;
    while (i < NROWS && strcmp(rows[i].name, name) != 0)
        i++;
    if (i == NROWS) {
        char known[256] = "";
        for (int j = 0; j < NROWS; j++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     j ? ", " : "", rows[j].name);
        return slide_fail(err, SLIDE_EINVAL, "unknown heuristic \"%s\" (known: %s, wd, "
                          "pdb:FILE+FILE..., max(NAME,pdb:FILE+...))",
                          name, known);
    }
    struct goal_map *g = goal_map_new(goal);
    if (!g)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristic of a "
                          "%dx%d board", goal->rows, goal->cols);
    h->name = rows[i].name;
    h->admissible = rows[i].admissible;
    h->ctx = g;
    h->eval = rows[i].eval;
    h->step = rows[i].step;
    h->release = goal_map_free;
    return SLIDE_OK;
}

/* ---- walking distance (heuristic.h's wd, evaluated in full) ---------------- */

static int wd_eval(void *ctx, const struct board *b)
{
    return heuristic_eval(ctx, b->cells);
}

static int wd_start(void *ctx, const struct board *b, void *state)
{
    return heuristic_wd_start(ctx, b->cells, state);
}

/* The tile now on `to` is the one that moved. */
static int wd_move(void *ctx, const struct board *b, int from, int to, const void *before,
                   void *after)
{
    return heuristic_wd_move(ctx, before, b->cells[to], from, to, after);
}

static void wd_release(void *ctx)
{
    if (ctx) {
        heuristic_free(ctx);
        free(ctx);
    }
}

/* wd's tables are built for this goal and metric (heuristic_init_metric),
 * or taken from store (heuristic_init_wd_shared: single-tile tables only)
 * when it is not NULL; h is their sum. */
static int open_wd(struct ida_heuristic *h, const struct board *goal, enum metric metric,
                   struct heuristic_wd_store *store, const volatile sig_atomic_t *cancel,
                   slide_error *err)
{
    struct heuristic *w = calloc(1, sizeof *w);
    if (!w)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the wd heuristic");
    int rc = store && metric == METRIC_STM
                 ? heuristic_init_wd_shared(w, goal, store, cancel, err)
                 : heuristic_init_metric(w, "wd", goal, metric, err);
    if (rc) {
        free(w);
        return rc;
    }
    h->name = "wd";
    h->admissible = 1;
    h->metric = metric;
    h->ctx = w;
    h->eval = wd_eval;
    _Static_assert(sizeof(struct heuristic_wd_node) <= IDA_STATE_MAX, "wd node too large");
    h->state_size = sizeof(struct heuristic_wd_node);
    h->start = wd_start;
    h->move = wd_move;
    h->release = wd_release;
    return SLIDE_OK;
}

int ida_heuristic_open_wd_shared(struct ida_heuristic *h, const struct board *goal,
                                 struct heuristic_wd_store *store,
                                 const volatile sig_atomic_t *cancel, slide_error *err)
{
    memset(h, 0, sizeof *h);
    return open_wd(h, goal, METRIC_STM, store, cancel, err);
}

/* ---- pattern databases ------------------------------------------------- */

struct pdb_ctx {
    const struct pdb_set *set;
    struct ida_heuristic with; /* name NULL when none */
    char name[64];
};

static int pdb_eval(void *ctx, const struct board *b)
{
    struct pdb_ctx *c = ctx;
    int h = pdb_set_h(c->set, b->cells);
    if (c->with.name) {
        int w = c->with.eval(c->with.ctx, b);
        h = w > h ? w : h;
    }
    return h < IDA_H_MAX ? h : IDA_H_MAX;
}

static int pdb_start(void *ctx, const struct board *b, void *state)
{
    const struct pdb_ctx *c = ctx;
    int h = pdb_node_start(c->set, b->cells, state);
    return h < IDA_H_MAX ? h : IDA_H_MAX;
}

/* The tile now on `to` is the one that moved. */
static int pdb_move(void *ctx, const struct board *b, int from, int to, const void *before,
                    void *after)
{
    const struct pdb_ctx *c = ctx;
    int h = pdb_node_move(c->set, before, b->cells[to], from, to, after);
    return h < IDA_H_MAX ? h : IDA_H_MAX;
}

static void pdb_prefetch(void *ctx, const struct board *b, int from, int to, void *state)
{
    const struct pdb_ctx *c = ctx;
    pdb_node_prefetch(c->set, state, b->cells, from, to);
}

static void pdb_release(void *ctx)
{
    struct pdb_ctx *c = ctx;
    if (c) {
        ida_heuristic_close(&c->with);
        free(c);
    }
}

int ida_heuristic_open_pdb(struct ida_heuristic *h, const struct pdb_set *set,
                           const char *with, const struct board *goal, slide_error *err)
{
    memset(h, 0, sizeof *h);
    int rc = pdb_set_match(set, goal, err);
    if (rc)
        return rc;
    struct pdb_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristic");
    c->set = set;
    if (with && *with) {
        rc = ida_heuristic_open_metric(&c->with, with, goal, pdb_set_metric(set), err);
        if (rc) {
            free(c);
            return rc;
        }
    }
    snprintf(c->name, sizeof c->name, "%s%s%s", with && *with ? "max(" : "",
             with && *with ? with : "", with && *with ? ",pdb)" : "pdb");
    h->name = c->name;
    h->admissible = pdb_set_admissible(set) && (!c->with.name || c->with.admissible);
    h->metric = pdb_set_metric(set);
    h->ctx = c;
    h->eval = pdb_eval;
    h->step = NULL;
    if (pdb_node_ok(set) && !c->with.name) {
        _Static_assert(sizeof(struct pdb_node) <= IDA_STATE_MAX, "pdb_node too large");
        h->state_size = sizeof(struct pdb_node);
        h->start = pdb_start;
        h->move = pdb_move;
        h->prefetch = pdb_prefetch;
    }
    h->release = pdb_release;
    return SLIDE_OK;
}

void ida_heuristic_close(struct ida_heuristic *h)
{
    if (h->release)
        h->release(h->ctx);
    memset(h, 0, sizeof *h);
}
