/*
 * bibfs.c - bidirectional breadth-first search between two boards (bibfs.h).
 */
#include "slide/bibfs.h"

#include <stdlib.h>
#include <string.h>

#include "slide/metric.h"
#include "slide/parity.h"
#include "slide/space.h"

#define EMPTY_KEY UINT64_MAX /* no index of a 20-cell space reaches it */
#define ROOT_MOVE 0xff       /* the stored "move" of a side's start board: no code */

/* A hash set of indexes, each with the move code (metric.h) that reached it. */
struct visited {
    uint64_t *keys;
    uint8_t *moves;
    size_t cap, len; /* cap a power of two, len <= cap / 2 */
};

/* One side of the search. */
struct side {
    struct visited seen;
    uint64_t *frontier, *next;
    size_t nfrontier, nnext, cap_frontier, cap_next;
    int layers;
};

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static int visited_init(struct visited *v, size_t cap)
{
    v->cap = cap;
    v->len = 0;
    v->keys = malloc(cap * sizeof *v->keys);
    v->moves = malloc(cap);
    if (!v->keys || !v->moves)
        return -1;
    memset(v->keys, 0xff, cap * sizeof *v->keys);
    return 0;
}

static void visited_free(struct visited *v)
{
    free(v->keys);
    free(v->moves);
    memset(v, 0, sizeof *v);
}

/* The stored move of key, or -1 if absent. */
static int visited_get(const struct visited *v, uint64_t key)
{
    for (size_t i = slot_of(key, v->cap);; i = (i + 1) & (v->cap - 1)) {
        if (v->keys[i] == key)
            return v->moves[i];
        if (v->keys[i] == EMPTY_KEY)
            return -1;
    }
}

static void visited_put(struct visited *v, uint64_t key, int move)
{
    size_t i = slot_of(key, v->cap);
    while (v->keys[i] != EMPTY_KEY)
        i = (i + 1) & (v->cap - 1);
    v->keys[i] = key;
    v->moves[i] = (uint8_t)move;
    v->len++;
}

/* Double the table when it would pass half full. */
static int visited_reserve(struct visited *v)
{
    if (2 * (v->len + 1) <= v->cap)
        return 0;
    struct visited bigger;
    if (visited_init(&bigger, 2 * v->cap))
        return -1;
    for (size_t i = 0; i < v->cap; i++)
        if (v->keys[i] != EMPTY_KEY)
            visited_put(&bigger, v->keys[i], v->moves[i]);
    visited_free(v);
    *v = bigger;
    return 0;
}

static int push_next(struct side *sd, uint64_t key)
{
    if (sd->nnext == sd->cap_next) {
        size_t cap = sd->cap_next ? 2 * sd->cap_next : 1024;
        uint64_t *p = realloc(sd->next, cap * sizeof *p);
        if (!p)
            return -1;
        sd->next = p;
        sd->cap_next = cap;
    }
    sd->next[sd->nnext++] = key;
    return 0;
}

static int side_init(struct side *sd, uint64_t root)
{
    memset(sd, 0, sizeof *sd);
    if (visited_init(&sd->seen, 1024) || push_next(sd, root))
        return -1;
    visited_put(&sd->seen, root, ROOT_MOVE);
    return 0;
}

/* The layer just generated becomes the frontier. */
static void side_advance(struct side *sd)
{
    uint64_t *f = sd->frontier;
    size_t cap = sd->cap_frontier;
    sd->frontier = sd->next;
    sd->cap_frontier = sd->cap_next;
    sd->nfrontier = sd->nnext;
    sd->next = f;
    sd->cap_next = cap;
    sd->nnext = 0;
}

static void side_free(struct side *sd)
{
    visited_free(&sd->seen);
    free(sd->frontier);
    free(sd->next);
}

struct search {
    const struct space *s;
    struct move_set moves; /* the metric's moves, by blank cell */
    struct board b;        /* scratch board for expansions */
    struct side side[2];   /* 0 from `from`, 1 from `to` */
    uint64_t max_states;
    uint64_t expanded;
    uint64_t meet;         /* index seen by both sides */
    int met;
};

static int out_of_memory(slide_error *err)
{
    return slide_fail(err, SLIDE_ENOMEM, "out of memory in the bidirectional search");
}

/* Generate the neighbours of one frontier board of side k. */
static int expand_board(struct search *q, int k, uint64_t index, slide_error *err)
{
    struct side *me = &q->side[k];
    const struct visited *other = &q->side[1 - k].seen;
    space_unrank(q->s, index, &q->b);
    int z = board_blank(&q->b), cols = q->b.cols;
    const struct move_set *ms = &q->moves;
    q->expanded++;
    for (int i = 0; i < ms->count[z] && !q->met; i++) {
        unsigned char m = ms->codes[(size_t)z * (size_t)ms->max + (size_t)i];
        int back = move_apply(q->b.cells, cols, z, m);
        uint64_t nb = space_rank(q->s, &q->b);
        move_apply(q->b.cells, cols, back, move_code_inverse(m));
        if (visited_get(&me->seen, nb) >= 0)
            continue;
        if (visited_reserve(&me->seen) || push_next(me, nb))
            return out_of_memory(err);
        visited_put(&me->seen, nb, m);
        if (visited_get(other, nb) >= 0) {
            q->meet = nb;
            q->met = 1;
        }
    }
    return SLIDE_OK;
}

static int expand_layer(struct search *q, int k, slide_error *err)
{
    struct side *me = &q->side[k];
    me->layers++;
    for (size_t i = 0; i < me->nfrontier && !q->met; i++) {
        int rc = expand_board(q, k, me->frontier[i], err);
        if (rc)
            return rc;
        if (q->side[0].seen.len + q->side[1].seen.len > q->max_states)
            return slide_fail(err, SLIDE_ENOMEM,
                              "the bidirectional search reached its cap of %llu boards "
                              "with no path of %d moves or fewer found (raise the cap, "
                              "up to 36 bytes per board)",
                              (unsigned long long)q->max_states,
                              q->side[0].layers + q->side[1].layers - 1);
    }
    side_advance(me);
    return SLIDE_OK;
}

/*
 * Append to path the move codes that lead from index `index` back to the
 * root of side k (at most cap in all): for side 0 they are collected
 * backwards (the caller reverses them), for side 1 they are the moves
 * towards `to`.
 */
static int trace(struct search *q, int k, uint64_t index, unsigned char *path, int *len,
                 int cap)
{
    space_unrank(q->s, index, &q->b);
    int z = board_blank(&q->b), m;
    while ((m = visited_get(&q->side[k].seen, space_rank(q->s, &q->b))) != ROOT_MOVE) {
        unsigned char back = move_code_inverse((unsigned char)m);
        if (m < 0 || *len == cap || move_target(q->b.rows, q->b.cols, z, back) < 0)
            return -1;
        z = move_apply(q->b.cells, q->b.cols, z, back);
        path[(*len)++] = k == 0 ? (unsigned char)m : back;
    }
    return 0;
}

static int build_path(struct search *q, struct bibfs_result *r, slide_error *err)
{
    int cap = q->side[0].layers + q->side[1].layers + 1, n0 = 0, n = 0;
    unsigned char *codes = malloc((size_t)cap);
    if (!codes)
        return out_of_memory(err);
    if (trace(q, 0, q->meet, codes, &n0, cap)) {
        free(codes);
        return slide_fail(err, SLIDE_EINVAL, "internal error: broken forward trace");
    }
    for (int i = 0; i < n0 / 2; i++) { /* from-side moves were collected backwards */
        unsigned char c = codes[i];
        codes[i] = codes[n0 - 1 - i];
        codes[n0 - 1 - i] = c;
    }
    n = n0;
    if (trace(q, 1, q->meet, codes, &n, cap)) {
        free(codes);
        return slide_fail(err, SLIDE_EINVAL, "internal error: broken backward trace");
    }
    size_t need = move_format_codes(codes, n, q->moves.metric, NULL, 0);
    if ((r->path = malloc(need + 1)))
        move_format_codes(codes, n, q->moves.metric, r->path, need + 1);
    free(codes);
    if (!r->path)
        return out_of_memory(err);
    r->distance = n;
    return SLIDE_OK;
}

static int check_input(const struct board *from, const struct board *to,
                       slide_error *err)
{
    if (from->rows != to->rows || from->cols != to->cols)
        return slide_fail(err, SLIDE_EINVAL, "the boards are %dx%d and %dx%d; both "
                          "must have the same dimensions", from->rows, from->cols,
                          to->rows, to->cols);
    int rc = board_validate(from, err);
    if (!rc)
        rc = board_validate(to, err);
    if (rc)
        return rc;
    if (board_cells(to) > SPACE_MAX_CELLS)
        return slide_fail(err, SLIDE_ERANGE, "a %dx%d board has %d cells; the "
                          "bidirectional search indexes boards of at most %d cells",
                          to->rows, to->cols, board_cells(to), SPACE_MAX_CELLS);
    struct parity_report pr;
    if ((rc = parity_check(from, to, &pr, err)))
        return rc;
    if (!pr.solvable) {
        char why[400];
        parity_explain(&pr, why, sizeof why);
        return slide_fail(err, SLIDE_EUNSOLVABLE, "no path joins the two boards: %s", why);
    }
    return SLIDE_OK;
}

static int run(struct search *q, struct bibfs_result *r, slide_error *err)
{
    int rc = SLIDE_OK;
    while (!q->met && !rc) {
        struct side *f = &q->side[0], *b = &q->side[1];
        if (f->nfrontier == 0 || b->nfrontier == 0)
            return slide_fail(err, SLIDE_EINVAL, "internal error: a side of the "
                                                 "search ran dry");
        rc = expand_layer(q, b->nfrontier < f->nfrontier ? 1 : 0, err);
    }
    if (!rc)
        rc = build_path(q, r, err);
    return rc;
}

int bibfs_solve(const struct board *from, const struct board *to,
                uint64_t max_states, struct bibfs_result *r, slide_error *err)
{
    return bibfs_solve_metric(from, to, max_states, METRIC_STM, r, err);
}

int bibfs_solve_metric(const struct board *from, const struct board *to,
                       uint64_t max_states, enum metric metric, struct bibfs_result *r,
                       slide_error *err)
{
    memset(r, 0, sizeof *r);
    int rc = check_input(from, to, err);
    if (rc)
        return rc;
    struct space s;
    struct search q;
    memset(&q, 0, sizeof q);
    if ((rc = space_init(&s, to, SPACE_FULL, err)) ||
        (rc = move_set_init(&q.moves, to->rows, to->cols, metric, err)))
        return rc;
    q.s = &s;
    q.max_states = max_states ? max_states : BIBFS_DEFAULT_MAX_STATES;
    uint64_t a = space_rank(&s, from), b = space_rank(&s, to);
    if (board_alloc(&q.b, to->rows, to->cols, err) || side_init(&q.side[0], a) ||
        side_init(&q.side[1], b)) {
        rc = out_of_memory(err);
    } else {
        side_advance(&q.side[0]);
        side_advance(&q.side[1]);
        q.met = a == b;
        q.meet = a;
        rc = run(&q, r, err);
    }
    r->states = q.side[0].seen.len + q.side[1].seen.len;
    r->expanded = q.expanded;
    r->forward_layers = q.side[0].layers;
    r->backward_layers = q.side[1].layers;
    side_free(&q.side[0]);
    side_free(&q.side[1]);
    board_free(&q.b);
    move_set_free(&q.moves);
    if (rc)
        bibfs_result_free(r);
    return rc;
}

void bibfs_result_free(struct bibfs_result *r)
{
    free(r->path);
    r->path = NULL;
}
