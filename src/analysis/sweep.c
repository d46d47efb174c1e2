/*
 * sweep.c - heuristics against exact distances over a whole puzzle
 * (sweep.h).
 *
 * Each OpenMP thread owns one struct worker: a board to unrank into, the
 * h-value counts of the layer being swept and its kept examples.  After a
 * layer the counts are added into the joint table in thread order, so
 * nothing depends on which thread saw which board.
 */
#include "slide/sweep.h"

#include <limits.h>
#include <stdio.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "slide/store.h"

/* One heuristic as seen by one thread. */
struct acc {
    uint64_t *hcount;      /* SWEEP_MAX_H + 1 counts for the current layer */
    int hmax;              /* largest h counted in it, -1 when none */
    uint64_t edges, edge_violations;
    int max_step;
    struct sweep_example ex[SWEEP_KEEP];
    int nex;
    struct sweep_edge eex[SWEEP_KEEP];
    int neex;
};

struct worker {
    struct board b;
    int have;              /* t holds the tiles of block `block` at blank z */
    uint64_t block;
    int z;
    uint8_t t[SPACE_MAX_CELLS];
    int bad;               /* an h outside 0..SWEEP_MAX_H was seen */
    int bad_h, bad_which;
    struct acc acc[SWEEP_MAX_HEURISTICS];
};

struct sweep_state {
    const struct space *s;
    struct move_set moves;  /* the metric's moves, by blank cell */
    const struct store *st;
    const struct heuristic *hs;
    int count, threads, depth;
    struct worker **w;
    struct sweep_result *r;
    const struct sweep_options *o;
    int rc;
    slide_error err;
};

static void copy_cells(uint8_t *dst, const int *cells, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = (uint8_t)cells[k];
}

/* Insert into a list sorted by index, keeping the SWEEP_KEEP smallest. */
static void keep_example(struct sweep_example *ex, int *nex,
                         const struct sweep_example *e)
{
    int k = *nex;
    if (k == SWEEP_KEEP && e->index >= ex[k - 1].index)
        return;
    if (k < SWEEP_KEEP)
        k++;
    int i = k - 1;
    for (; i > 0 && ex[i - 1].index > e->index; i--)
        ex[i] = ex[i - 1];
    ex[i] = *e;
    *nex = k;
}

static int edge_before(const struct sweep_edge *a, const struct sweep_edge *b)
{
    return a->index < b->index || (a->index == b->index && a->move < b->move);
}

static void keep_edge(struct sweep_edge *ex, int *nex, const struct sweep_edge *e)
{
    int k = *nex;
    if (k == SWEEP_KEEP && !edge_before(e, &ex[k - 1]))
        return;
    if (k < SWEEP_KEEP)
        k++;
    int i = k - 1;
    for (; i > 0 && edge_before(e, &ex[i - 1]); i--)
        ex[i] = ex[i - 1];
    ex[i] = *e;
    *nex = k;
}

/* h of the board, or -1 (recorded in w) when outside 0..SWEEP_MAX_H. */
static int eval_checked(struct worker *w, const struct heuristic *h, int which,
                        const int *cells)
{
    int v = heuristic_eval(h, cells);
    if (v >= 0 && v <= SWEEP_MAX_H)
        return v;
    w->bad = 1;
    w->bad_h = v;
    w->bad_which = which;
    return -1;
}

/* Check the edges to the boards the blank reaches by moving down or right. */
static void check_edges(struct sweep_state *S, struct worker *w, uint64_t index,
                        int z, const int *hv)
{
    const struct move_set *ms = &S->moves;
    int *cells = w->b.cells, cols = S->s->cols;
    for (int mi = 0; mi < ms->count[z]; mi++) {
        unsigned char code = ms->codes[(size_t)z * (size_t)ms->max + (size_t)mi];
        enum move dir = move_code_dir(code);
        if (dir != MOVE_DOWN && dir != MOVE_RIGHT)
            continue;
        int to = move_apply(cells, cols, z, code);
        for (int i = 0; i < S->count; i++) {
            struct acc *a = &w->acc[i];
            int v = eval_checked(w, &S->hs[i], i, cells);
            if (v < 0 || hv[i] < 0)
                continue;
            int step = v > hv[i] ? v - hv[i] : hv[i] - v;
            a->edges++;
            if (step > a->max_step)
                a->max_step = step;
            if (step > 1) {
                a->edge_violations++;
                struct sweep_edge e;
                memset(&e, 0, sizeof e); /* padding too: results compare bytewise */
                e.index = index;
                e.move = code;
                e.h = hv[i];
                e.h_next = v;
                move_apply(cells, cols, to, move_code_inverse(code)); /* record s */
                copy_cells(e.cells, cells, S->s->n);
                move_apply(cells, cols, z, code);
                keep_edge(a->eex, &a->neex, &e);
            }
        }
        move_apply(cells, cols, to, move_code_inverse(code));
    }
}

/*
 * The board of `index` into w->b; returns its blank cell.  A layer's boards
 * come in increasing index order within a thread's chunk, several often
 * from one block (one t, different blanks), so the block's t is kept: in the
 * compact space two blanks of one block differ in t only by the parity
 * their rows ask for, that is by swapping the last two entries (space.h).
 */
static int worker_unrank(const struct space *s, struct worker *w, uint64_t index)
{
    uint64_t block = index / (uint64_t)s->n;
    int z = (int)(index % (uint64_t)s->n);
    if (!w->have || block != w->block) {
        space_untz(s, index, w->t);
        w->block = block;
        w->have = 1;
    } else if (s->m >= 2 && s->need_parity[z] != s->need_parity[w->z]) {
        uint8_t x = w->t[s->m - 2];
        w->t[s->m - 2] = w->t[s->m - 1];
        w->t[s->m - 1] = x;
    }
    w->z = z;
    for (int k = 0, i = 0; k < s->n; k++)
        w->b.cells[k] = k == z ? 0 : s->label[w->t[i++]];
    return z;
}

static void visit(void *ctx, int thread, uint64_t index)
{
    struct sweep_state *S = ctx;
    struct worker *w = S->w[thread];
    int hv[SWEEP_MAX_HEURISTICS], d = S->depth;
    int z = worker_unrank(S->s, w, index);
    for (int i = 0; i < S->count; i++) {
        struct acc *a = &w->acc[i];
        int v = hv[i] = eval_checked(w, &S->hs[i], i, w->b.cells);
        if (v < 0)
            continue;
        a->hcount[v]++;
        if (v > a->hmax)
            a->hmax = v;
        if (v > d) {
            struct sweep_example e;
            memset(&e, 0, sizeof e);
            e.index = index;
            e.d = d;
            e.h = v;
            copy_cells(e.cells, w->b.cells, S->s->n);
            keep_example(a->ex, &a->nex, &e);
        }
    }
    check_edges(S, w, index, z, hv);
}

/* Add the threads' counts of layer d into the joint tables, clearing them. */
static int merge_layer(struct sweep_state *S, int d)
{
    for (int i = 0; i < S->count; i++) {
        struct sweep_stats *st = &S->r->stats[i];
        int hmax = -1;
        for (int t = 0; t < S->threads; t++)
            if (S->w[t]->acc[i].hmax > hmax)
                hmax = S->w[t]->acc[i].hmax;
        uint64_t **joint = realloc(st->joint, (size_t)(d + 1) * sizeof *joint);
        if (joint)
            st->joint = joint;
        int *len = realloc(st->joint_len, (size_t)(d + 1) * sizeof *len);
        if (len)
            st->joint_len = len;
        uint64_t *row = joint && len ? calloc((size_t)hmax + 1, sizeof *row) : NULL;
        if (!row)
            return slide_fail(&S->err, SLIDE_ENOMEM, "out of memory for the joint table");
        st->joint[d] = row;
        st->joint_len[d] = hmax + 1;
        st->layers = d + 1;
        for (int t = 0; t < S->threads; t++) {
            struct acc *a = &S->w[t]->acc[i];
            for (int h = 0; h <= a->hmax; h++) {
                row[h] += a->hcount[h];
                a->hcount[h] = 0;
            }
            a->hmax = -1;
        }
    }
    return SLIDE_OK;
}

static int first_bad(struct sweep_state *S, int d)
{
    for (int t = 0; t < S->threads; t++)
        if (S->w[t]->bad)
            return slide_fail(&S->err, SLIDE_ERANGE,
                              "heuristic %s is %d on a board at distance %d or next "
                              "to it; a sweep tabulates h in 0..%d",
                              S->hs[S->w[t]->bad_which].def->name, S->w[t]->bad_h, d,
                              SWEEP_MAX_H);
    return SLIDE_OK;
}

static int on_layer(const struct bfs_layer *L, void *ctx)
{
    struct sweep_state *S = ctx;
    S->depth = L->depth;
    uint64_t seen = bfs_visit_frontier(S->s, S->st, L->depth, S->threads, visit, S);
    if (seen != L->count)
        S->rc = slide_fail(&S->err, SLIDE_EFORMAT,
                           "sweep: layer %d holds %llu boards but the search counted %llu",
                           L->depth, (unsigned long long)seen,
                           (unsigned long long)L->count);
    if (!S->rc)
        S->rc = first_bad(S, L->depth);
    if (!S->rc)
        S->rc = merge_layer(S, L->depth);
    if (!S->rc && S->o->progress)
        return S->o->progress(L, S->o->progress_ctx);
    return S->rc != SLIDE_OK;
}

/* Statistics of one heuristic from its joint table and edge counters. */
static void summarise(struct sweep_stats *st)
{
    uint64_t positive = 0;
    double ratio = 0;
    st->max_excess = INT_MIN;
    st->parity_ok = 1;
    for (int d = 0; d < st->layers; d++)
        for (int h = 0; h < st->joint_len[d]; h++) {
            uint64_t c = st->joint[d][h];
            if (!c)
                continue;
            st->boards += c;
            st->sum_h += c * (uint64_t)h;
            st->sum_d += c * (uint64_t)d;
            st->violations += h > d ? c : 0;
            st->exact += h == d ? c : 0;
            if (h - d > st->max_excess)
                st->max_excess = h - d;
            if ((d - h) & 1)
                st->parity_ok = 0;
            if (d > 0) {
                positive += c;
                ratio += (double)c * ((double)h / (double)d);
            }
        }
    double b = st->boards ? (double)st->boards : 1.0;
    st->mean_h = (double)st->sum_h / b;
    st->mean_d = (double)st->sum_d / b;
    st->exact_fraction = (double)st->exact / b;
    st->mean_ratio = positive ? ratio / (double)positive : 0.0;
    st->admissible = st->violations == 0;
    st->consistent = st->edge_violations == 0;
}

/* Fold the threads' edge counters and examples into the results. */
static void merge_threads(struct sweep_state *S)
{
    for (int i = 0; i < S->count; i++) {
        struct sweep_stats *st = &S->r->stats[i];
        for (int t = 0; t < S->threads; t++) {
            const struct acc *a = &S->w[t]->acc[i];
            st->edges += a->edges;
            st->edge_violations += a->edge_violations;
            if (a->max_step > st->max_step)
                st->max_step = a->max_step;
            for (int k = 0; k < a->nex; k++)
                keep_example(st->examples, &st->nexamples, &a->ex[k]);
            for (int k = 0; k < a->neex; k++)
                keep_edge(st->edge_examples, &st->nedge_examples, &a->eex[k]);
        }
        summarise(st);
    }
}

static void workers_free(struct sweep_state *S)
{
    if (!S->w)
        return;
    for (int t = 0; t < S->threads; t++) {
        if (!S->w[t])
            continue;
        for (int i = 0; i < S->count; i++)
            free(S->w[t]->acc[i].hcount);
        board_free(&S->w[t]->b);
        free(S->w[t]);
    }
    free(S->w);
    S->w = NULL;
}

static int workers_alloc(struct sweep_state *S, slide_error *err)
{
    S->w = calloc((size_t)S->threads, sizeof *S->w);
    if (!S->w)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the sweep's threads");
    for (int t = 0; t < S->threads; t++) {
        struct worker *w = S->w[t] = calloc(1, sizeof *w);
        if (!w)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for the sweep's threads");
        int rc = board_alloc(&w->b, S->s->rows, S->s->cols, err);
        if (rc)
            return rc;
        for (int i = 0; i < S->count; i++) {
            w->acc[i].hmax = -1;
            w->acc[i].hcount = calloc(SWEEP_MAX_H + 1, sizeof *w->acc[i].hcount);
            if (!w->acc[i].hcount)
                return slide_fail(err, SLIDE_ENOMEM, "out of memory for the sweep's counts");
        }
    }
    return SLIDE_OK;
}

static int check_heuristics(const struct board *goal, const struct heuristic *hs,
                            int count, enum metric metric, slide_error *err)
{
    if (count < 1 || count > SWEEP_MAX_HEURISTICS)
        return slide_fail(err, SLIDE_EINVAL, "a sweep takes 1..%d heuristics, not %d",
                          SWEEP_MAX_HEURISTICS, count);
    for (int i = 0; i < count; i++) {
        if (hs[i].metric != metric && metric == METRIC_MTM)
            return slide_fail(err, SLIDE_EINVAL, "heuristic %s was set up for single-tile "
                              "moves, not for the multi-tile sweep", hs[i].def->name);
        if (hs[i].rows != goal->rows || hs[i].cols != goal->cols)
            return slide_fail(err, SLIDE_EINVAL, "heuristic %s was set up for %dx%d, "
                              "not for the %dx%d goal", hs[i].def->name, hs[i].rows,
                              hs[i].cols, goal->rows, goal->cols);
        int v = heuristic_eval(&hs[i], goal->cells);
        if (v != 0)
            return slide_fail(err, SLIDE_EINVAL, "heuristic %s is %d at the goal; a "
                              "heuristic must be 0 there (was it set up for this goal?)",
                              hs[i].def->name, v);
    }
    return SLIDE_OK;
}

/* Allocate the result's per-heuristic records. */
static int result_init(struct sweep_result *r, const struct board *goal,
                       const struct heuristic *hs, int count, slide_error *err)
{
    memset(r, 0, sizeof *r);
    r->rows = goal->rows;
    r->cols = goal->cols;
    r->stats = calloc((size_t)count, sizeof *r->stats);
    if (!r->stats)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the sweep's results");
    r->count = count;
    for (int i = 0; i < count; i++)
        r->stats[i].def = hs[i].def;
    return SLIDE_OK;
}

/* The BFS with the sweep riding on its layers. */
static int sweep_search(struct sweep_state *S, struct store *st, slide_error *err)
{
    struct bfs_result br;
    struct bfs_options bo = {.threads = S->threads, .on_layer = on_layer, .ctx = S,
                             .metric = S->moves.metric};
    int rc = bfs_run(S->s, st, &bo, &br, err);
    if (rc == SLIDE_EINTR && S->rc) {
        rc = S->rc;
        *err = S->err;
    }
    if (!rc) {
        merge_threads(S);
        S->r->radius = br.radius;
        S->r->boards = br.reached;
        S->r->seconds = br.seconds;
        S->r->hist = br.hist;
        br.hist = NULL;
    }
    bfs_result_free(&br);
    return rc;
}

int sweep_run(const struct board *goal, const struct heuristic *hs, int count,
              const struct sweep_options *o, struct sweep_result *r,
              slide_error *err)
{
    struct space s;
    struct store st = {0};
    int rc = result_init(r, goal, hs, count, err);
    if (!rc)
        rc = check_heuristics(goal, hs, count, o->metric, err);
    if (!rc)
        rc = space_init(&s, goal, SPACE_COMPACT, err);
    if (rc)
        return rc;
    char what[96];
    snprintf(what, sizeof what, "a sweep of the %dx%d board at 2 bits per board",
             goal->rows, goal->cols);
    if ((rc = store_check_memory(store_bytes_needed(s.size), o->max_memory, what, err)) ||
        (rc = store_alloc(&st, s.size, err)))
        return rc;
    struct sweep_state S = {.s = &s, .st = &st, .hs = hs, .count = count, .r = r, .o = o};
    S.threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    r->threads = S.threads;
    rc = move_set_init(&S.moves, goal->rows, goal->cols, o->metric, err);
    if (!rc)
        rc = workers_alloc(&S, err);
    if (!rc)
        rc = sweep_search(&S, &st, err);
    workers_free(&S);
    move_set_free(&S.moves);
    store_free(&st);
    return rc;
}

void sweep_result_free(struct sweep_result *r)
{
    for (int i = 0; i < r->count; i++) {
        for (int d = 0; d < r->stats[i].layers; d++)
            free(r->stats[i].joint[d]);
        free(r->stats[i].joint);
        free(r->stats[i].joint_len);
    }
    free(r->stats);
    free(r->hist);
    memset(r, 0, sizeof *r);
}
