/*
 * ida.c - IDA* on one board (ida.h).
 */
#include "slide/ida.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slide/metric.h"
#include "slide/parity.h"

#include "ida_search.h"

#define NO_MOVE 0xff         /* came-by value of the root: no move code (metric.h) */
#define NEXT_DONE 0xff       /* frame.next of a node whose moves are all tried */
#define CANCEL_EVERY 0xffffu /* poll the cancel flag when expanded & this == 0 */
#define POLL_EVERY 0xfffu    /* the same with hooks.poll (a parallel search's
                                abandoned items stop sooner) */

/* One level of the depth-first path. */
struct frame {
    int h;              /* h of the board at this depth */
    unsigned char next; /* next move to try: STM a direction 0..MOVE_COUNT, MTM
                           an index into the blank cell's moves (struct move_set);
                           NEXT_DONE: none left */
    unsigned char came; /* the move code that led here, NO_MOVE at the root */
};

struct ida_search {
    struct board b;         /* the board at the current depth (own copy) */
    int blank;
    int *nbr;               /* nbr[4 * cell + m]: cell the blank reaches by m, or -1 */
    int *home;              /* goal cell of every tile */
    int misplaced;          /* tiles off their goal cell; 0 exactly on the goal */
    struct move_set moves;  /* the moves of the metric, by blank cell */
    unsigned char scratch[IDA_STATE_MAX]; /* h's state between the unit steps of
                                             a multi-tile move */
    struct ida_heuristic *h;
    const struct ida_options *o;
    struct frame *stack;    /* stack[0..bound] */
    unsigned char *state;   /* h's state per depth 0..bound + 1: state_size
                               bytes each */
    int depth_cap;          /* frames and states allocated, >= bound + 2 */
    int bound, next_bound;
    uint64_t expanded, generated;
    uint64_t limit;         /* expansions allowed before check_stop refills or
                               stops: o->max_nodes, or no limit */
    struct ida_hooks hooks; /* ida_search.h: splitting and stopping */
    uint64_t poll_mask;     /* CANCEL_EVERY, or POLL_EVERY with hooks.poll */
    unsigned char *path;    /* scratch for hooks.emit: depth_cap moves */
    int depth;              /* depth reached when iterate returned */
    uint64_t iter_expanded, iter_generated; /* the counts when the last
                               iteration began */
    struct timespec t0;
};

static double elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void search_free(struct ida_search *s)
{
    board_free(&s->b);
    free(s->nbr);
    free(s->home);
    free(s->stack);
    free(s->state);
    free(s->path);
    move_set_free(&s->moves);
}

static int search_init(struct ida_search *s, const struct board *start,
                       const struct board *goal, slide_error *err)
{
    int n = board_cells(start);
    if (s->o->metric == METRIC_MTM && s->h->metric != METRIC_MTM)
        return slide_fail(err, SLIDE_EINVAL, "heuristic %s bounds single-tile moves: it "
                          "may overestimate in the multi-tile metric", s->h->name);
    int rc = move_set_init(&s->moves, start->rows, start->cols, s->o->metric, err);
    if (rc)
        return rc;
    if (board_copy(&s->b, start, err))
        return SLIDE_ENOMEM;
    s->nbr = malloc((size_t)n * MOVE_COUNT * sizeof *s->nbr);
    s->home = malloc((size_t)n * sizeof *s->home);
    if (!s->nbr || !s->home)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for IDA* on a %dx%d board",
                          start->rows, start->cols);
    for (int k = 0; k < n; k++) {
        s->home[goal->cells[k]] = k;
        for (int m = 0; m < MOVE_COUNT; m++)
            s->nbr[MOVE_COUNT * k + m] = board_step(start->rows, start->cols, k, (enum move)m);
    }
    s->blank = board_blank(start);
    for (int k = 0; k < n; k++)
        s->misplaced += start->cells[k] && s->home[start->cells[k]] != k;
    s->limit = s->o->max_nodes ? s->o->max_nodes : UINT64_MAX;
    s->poll_mask = CANCEL_EVERY;
    return SLIDE_OK;
}

/*
 * Make room for a path of `bound` moves: frames 0..bound, and h's state for
 * depths 0..bound + 1.  The extra state is for the children of a node at
 * depth bound, which the search still evaluates (their f sets the next
 * threshold): with an h that is 0 off the goal (a table that does not
 * cover every tile, misplaced on a board whose blank alone is off) such a
 * node is within the threshold and is expanded.
 */
static int reserve_path(struct ida_search *s, int bound, slide_error *err)
{
    if (bound + 2 <= s->depth_cap)
        return SLIDE_OK;
    int cap = bound + 2 > 2 * s->depth_cap ? bound + 2 : 2 * s->depth_cap;
    struct frame *p = realloc(s->stack, (size_t)cap * sizeof *p);
    if (!p)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves", bound);
    s->stack = p;
    unsigned char *path = realloc(s->path, (size_t)cap);
    if (!path)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves", bound);
    s->path = path;
    if (s->h->state_size) {
        unsigned char *q = realloc(s->state, (size_t)cap * s->h->state_size);
        if (!q)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves",
                              bound);
        s->state = q;
    }
    s->depth_cap = cap;
    return SLIDE_OK;
}

/* The state of h at depth g (when h keeps one). */
static unsigned char *state_at(const struct ida_search *s, int g)
{
    return s->state + (size_t)g * s->h->state_size;
}

/* Slide the tile next to the blank in direction m (one cell); returns the
 * cell it came from. */
static inline __attribute__((always_inline)) int unit_step(struct ida_search *s, int m)
{
    int from = s->nbr[MOVE_COUNT * s->blank + m], to = s->blank;
    int t = s->b.cells[from];
    s->b.cells[to] = t;
    s->b.cells[from] = 0;
    s->blank = from;
    s->misplaced += (s->home[t] != to) - (s->home[t] != from);
    return from;
}

/*
 * Apply the move `code` (metric.h) from depth g; returns h afterwards.  A
 * single-tile move (every STM move) slides one tile and updates h once.  A
 * multi-tile move is its k unit steps, each told to h's incremental form
 * (step or move) in turn, which is exact because that form only needs the
 * board before and after one tile's slide; h's state goes through scratch
 * from the second step on.
 */
static int apply(struct ida_search *s, unsigned char code, int g, int h_before)
{
    if (code < MOVE_COUNT) { /* k = 1 */
        int to = s->blank, from = unit_step(s, code);
        if (s->h->move)
            return s->h->move(s->h->ctx, &s->b, from, to, state_at(s, g), state_at(s, g + 1));
        return s->h->step ? s->h->step(s->h->ctx, &s->b, from, to, h_before)
                          : s->h->eval(s->h->ctx, &s->b);
    }
    int m = (int)move_code_dir(code), k = move_code_cells(code), h = h_before;
    for (int i = 0; i < k; i++) {
        int to = s->blank, from = unit_step(s, m);
        if (s->h->move) {
            const void *before = i ? state_at(s, g + 1) : state_at(s, g);
            void *after = i ? s->scratch : state_at(s, g + 1);
            h = s->h->move(s->h->ctx, &s->b, from, to, before, after);
            if (i)
                memcpy(state_at(s, g + 1), s->scratch, s->h->state_size);
        } else if (s->h->step) {
            h = s->h->step(s->h->ctx, &s->b, from, to, h);
        }
    }
    return s->h->move || s->h->step ? h : s->h->eval(s->h->ctx, &s->b);
}

/* Undo the move `code` (the blank goes back).  Codes below MOVE_COUNT are
 * single-tile moves: one step. */
static __attribute__((noinline)) void undo_multi(struct ida_search *s, unsigned char code)
{
    for (int i = move_code_cells(code); i > 0; i--)
        unit_step(s, (int)move_code_dir(code) ^ 1);
}

static void undo(struct ida_search *s, unsigned char code)
{
    if (code < MOVE_COUNT)
        unit_step(s, code ^ 1);
    else
        undo_multi(s, code);
}

/* The next move of the node in f, skipping those move_redundant names;
 * -1 when done. */
static int next_move(const struct ida_search *s, struct frame *f)
{
    if (s->moves.metric == METRIC_STM) { /* the four directions, the undo skipped */
        const int *to = s->nbr + MOVE_COUNT * s->blank;
        while (f->next < MOVE_COUNT) {
            int m = f->next++;
            if (m != (f->came ^ 1) && to[m] >= 0)
                return m;
        }
        return -1;
    }
    const struct move_set *ms = &s->moves;
    const unsigned char *code = ms->codes + (size_t)s->blank * (size_t)ms->max;
    while (f->next < ms->count[s->blank]) {
        unsigned char c = code[f->next++];
        if (f->came == NO_MOVE || !move_redundant(ms->metric, f->came, c))
            return c;
    }
    return -1;
}

/* Let h start fetching what every child of the node at depth g will read
 * (STM only: h's prefetch announces a single tile's slide). */
static void prefetch_children(struct ida_search *s, const struct frame *f, int g)
{
    const int *to = s->nbr + MOVE_COUNT * s->blank;
    for (int m = 0; m < MOVE_COUNT; m++)
        if (m != (f->came ^ 1) && to[m] >= 0)
            s->h->prefetch(s->h->ctx, &s->b, to[m], s->blank, state_at(s, g));
}

/* Called once per expansion: the node limit and the cancel flag (and the
 * hooks of a parallel search). */
static int check_stop(struct ida_search *s, slide_error *err)
{
    const struct ida_options *o = s->o;
    if (s->expanded >= s->limit &&
        (!s->hooks.refill || s->hooks.refill(s->hooks.ctx, s->expanded, &s->limit)))
        return slide_fail(err, SLIDE_EINTR,
                          "stopped at the node limit of %llu expansions, in the "
                          "iteration with threshold %d: the optimum is at least %d",
                          (unsigned long long)o->max_nodes, s->bound, s->bound);
    if ((s->expanded & s->poll_mask) == 0 &&
        ((o->cancel && *o->cancel) || (s->hooks.poll && s->hooks.poll(s->hooks.ctx))))
        return slide_fail(err, SLIDE_EINTR,
                          "interrupted in the iteration with threshold %d: the "
                          "optimum is at least %d", s->bound, s->bound);
    return SLIDE_OK;
}

/* A node at the leaf depth of a split goes to hooks.emit with its path. */
static int emit_leaf(struct ida_search *s, int g)
{
    for (int i = 0; i < g; i++)
        s->path[i] = s->stack[i + 1].came;
    return s->hooks.emit(s->hooks.ctx, s->path, g);
}

/*
 * One depth-first search to s->bound from the node at depth `root` of the
 * path in s->stack (0: the start, whose frame is set up here).  Sets
 * *found to the solution's length (its moves are stack[1..length].came) or
 * leaves it -1 when no goal lies within the threshold (the board is then
 * back at the root).  Returns SLIDE_OK, SLIDE_EINTR when stopped
 * (check_stop), or hooks.emit's error; s->depth is the depth it returns at.
 */
static int iterate(struct ida_search *s, int root, int h_start, int *found, slide_error *err)
{
    int g = root, rc;
    if (root == 0) {
        s->stack[0] = (struct frame){h_start, 0, NO_MOVE};
        if (s->h->start)
            s->h->start(s->h->ctx, &s->b, state_at(s, 0));
    }
    s->depth = root;
    for (;; s->depth = g) {
        struct frame *f = &s->stack[g];
        if (f->next == 0) { /* first visit: within the threshold */
            if (s->hooks.emit && g > root &&
                (g >= s->hooks.leaf || s->bound - g - f->h <= s->hooks.slack)) {
                /* a work item of a split */
                if ((rc = emit_leaf(s, g)))
                    return rc;
                f->next = NEXT_DONE;
            } else if (s->misplaced == 0) {
                *found = g;
                return SLIDE_OK;
            } else if ((rc = check_stop(s, err))) { /* before counting: N at most */
                return rc;
            } else {
                s->expanded++;
                if (s->h->prefetch && s->moves.metric == METRIC_STM)
                    prefetch_children(s, f, g);
            }
        }
        int m = next_move(s, f);
        if (m < 0) {
            if (g == root)
                return SLIDE_OK;
            undo(s, f->came);
            g--;
            continue;
        }
        int h = apply(s, (unsigned char)m, g, f->h);
        s->generated++;
        if (g + 1 + h > s->bound) {
            if (g + 1 + h < s->next_bound)
                s->next_bound = g + 1 + h;
            undo(s, (unsigned char)m);
            continue;
        }
        s->stack[++g] = (struct frame){h, 0, (unsigned char)m};
    }
}

static int check_boards(const struct board *start, const struct board *goal,
                        slide_error *err)
{
    if (start->rows != goal->rows || start->cols != goal->cols)
        return slide_fail(err, SLIDE_EINVAL, "the board is %dx%d but the goal is %dx%d",
                          start->rows, start->cols, goal->rows, goal->cols);
    struct parity_report pr;
    int rc = parity_check(start, goal, &pr, err);
    if (rc)
        return rc;
    if (!pr.solvable) {
        char why[SLIDE_ERROR_LEN];
        parity_explain(&pr, why, sizeof why);
        return slide_fail(err, SLIDE_EUNSOLVABLE, "%s", why);
    }
    return SLIDE_OK;
}

/* Copy the path of a solution of `len` moves into r. */
static int take_path(const struct ida_search *s, int len, struct ida_result *r,
                     slide_error *err)
{
    r->length = len;
    if (len == 0)
        return SLIDE_OK;
    r->moves = malloc((size_t)len);
    if (!r->moves)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves", len);
    for (int i = 0; i < len; i++)
        r->moves[i] = s->stack[i + 1].came;
    return SLIDE_OK;
}

/* The iterations, from threshold h(start) up. */
static int deepen(struct ida_search *s, struct ida_result *r, slide_error *err)
{
    int found = -1, rc;
    s->bound = r->h_start;
    for (;;) {
        if ((rc = reserve_path(s, s->bound, err)))
            return rc;
        if (s->o->on_iteration)
            s->o->on_iteration(s->bound, s->expanded, elapsed(&s->t0), s->o->ctx);
        s->next_bound = INT_MAX;
        r->iterations++;
        s->iter_expanded = s->expanded;
        s->iter_generated = s->generated;
        if ((rc = iterate(s, 0, r->h_start, &found, err)))
            return rc;
        if (found >= 0)
            return take_path(s, found, r, err);
        if (s->next_bound == INT_MAX) /* cannot happen on a connected move graph */
            return slide_fail(err, SLIDE_EUNSOLVABLE,
                              "IDA* ran out of boards without reaching the goal");
        s->bound = s->next_bound;
    }
}

int ida_solve(const struct board *start, const struct board *goal,
              struct ida_heuristic *h, const struct ida_options *o,
              struct ida_result *r, slide_error *err)
{
    static const struct ida_options none = {0, NULL, NULL, NULL, METRIC_STM};
    struct ida_search s = {0};
    double cpu0 = ida_thread_cpu();
    memset(r, 0, sizeof *r);
    r->length = -1;
    r->threads = 1;
    clock_gettime(CLOCK_MONOTONIC, &s.t0);
    int rc = check_boards(start, goal, err);
    if (rc)
        return rc;
    s.h = h;
    s.o = o ? o : &none;
    if (!(rc = search_init(&s, start, goal, err))) {
        r->h_start = h->eval(h->ctx, start);
        if (r->h_start >= IDA_H_MAX)
            rc = slide_fail(err, SLIDE_ERANGE,
                            "h(start) = %d with %s: the board is too far from the "
                            "goal for any search", r->h_start, h->name);
        else
            rc = deepen(&s, r, err);
    }
    r->expanded = s.expanded;
    r->generated = s.generated;
    r->expanded_last = s.expanded - s.iter_expanded;
    r->generated_last = s.generated - s.iter_generated;
    r->bound = s.bound;
    r->seconds = elapsed(&s.t0);
    r->cpu_seconds = r->cpu_critical = ida_thread_cpu() - cpu0;
    search_free(&s);
    return rc;
}

void ida_result_free(struct ida_result *r)
{
    free(r->moves);
    r->moves = NULL;
}

int ida_replay(const struct board *start, const struct board *goal,
               const unsigned char *moves, int length, int *tiles,
               slide_error *err)
{
    struct board b;
    int rc = board_copy(&b, start, err);
    if (rc)
        return rc;
    int blank = board_blank(&b);
    for (int i = 0; i < length && !rc; i++) {
        int to = moves[i] == NO_MOVE ? -1 : move_target(b.rows, b.cols, blank, moves[i]);
        if (to < 0) {
            int k = move_code_cells(moves[i]);
            char cells[24] = "";
            if (k > 1)
                snprintf(cells, sizeof cells, ", %d cells", k);
            rc = slide_fail(err, SLIDE_EINVAL, "move %d (%c%s) leaves the board", i + 1,
                            move_letter(move_code_dir(moves[i])), cells);
            break;
        }
        if (tiles)
            tiles[i] = b.cells[to];
        blank = move_apply(b.cells, b.cols, blank, moves[i]);
    }
    if (!rc && !board_equal(&b, goal)) {
        char text[128];
        board_format(&b, text, sizeof text);
        rc = slide_fail(err, SLIDE_EINVAL, "the moves end on %s%s, not on the goal", text,
                        strlen(text) == sizeof text - 1 ? "..." : "");
    }
    board_free(&b);
    return rc;
}

/* ---- the subtree search of ida_search.h (for ida_parallel.c) ------------ */

double ida_thread_cpu(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
        return 0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int ida_search_new(struct ida_search **out, const struct board *start,
                   const struct board *goal, struct ida_heuristic *h,
                   const struct ida_options *o, slide_error *err)
{
    struct ida_search *s = calloc(1, sizeof *s);
    if (!s)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a search");
    s->h = h;
    s->o = o;
    clock_gettime(CLOCK_MONOTONIC, &s->t0);
    int rc = search_init(s, start, goal, err);
    if (rc) {
        ida_search_delete(s);
        return rc;
    }
    *out = s;
    return SLIDE_OK;
}

void ida_search_delete(struct ida_search *s)
{
    if (s) {
        search_free(s);
        free(s);
    }
}

void ida_search_hooks(struct ida_search *s, const struct ida_hooks *k)
{
    s->hooks = *k;
    s->poll_mask = k->poll ? POLL_EVERY : CANCEL_EVERY;
}

int ida_search_h_start(const struct ida_search *s)
{
    return s->h->eval(s->h->ctx, &s->b);
}

int ida_search_subtree(struct ida_search *s, const unsigned char *prefix, int len,
                       int bound, int *found, int *next_bound, slide_error *err)
{
    int rc = reserve_path(s, bound > len ? bound : len, err);
    *found = -1;
    if (rc)
        return rc;
    s->bound = bound;
    s->next_bound = *next_bound;
    s->stack[0] = (struct frame){s->h->eval(s->h->ctx, &s->b), NEXT_DONE, NO_MOVE};
    if (s->h->start)
        s->stack[0].h = s->h->start(s->h->ctx, &s->b, state_at(s, 0));
    for (int g = 0; g < len; g++) { /* the prefix, not counted */
        int h = apply(s, prefix[g], g, s->stack[g].h);
        s->stack[g + 1] = (struct frame){h, NEXT_DONE, prefix[g]};
    }
    s->stack[len].next = 0;
    rc = iterate(s, len, s->stack[0].h, found, err);
    if (*found >= 0) { /* keep the path for ida_search_path, then go back */
        for (int i = 0; i < *found; i++)
            s->path[i] = s->stack[i + 1].came;
        s->depth = *found;
    }
    for (int g = s->depth; g > 0; g--)
        undo(s, s->stack[g].came);
    *next_bound = s->next_bound;
    return rc;
}

void ida_search_path(const struct ida_search *s, int len, unsigned char *out)
{
    memcpy(out, s->path, (size_t)len);
}

void ida_search_counts(const struct ida_search *s, uint64_t *expanded, uint64_t *generated)
{
    *expanded = s->expanded;
    *generated = s->generated;
}

void ida_search_set_counts(struct ida_search *s, uint64_t expanded, uint64_t generated)
{
    s->expanded = expanded;
    s->generated = generated;
}

uint64_t ida_search_give_back(struct ida_search *s)
{
    uint64_t left = s->limit > s->expanded ? s->limit - s->expanded : 0;
    s->limit = s->expanded;
    return left;
}

int ida_search_check(const struct board *start, const struct board *goal, slide_error *err)
{
    return check_boards(start, goal, err);
}
