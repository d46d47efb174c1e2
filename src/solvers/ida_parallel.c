/*
 * ida_parallel.c - IDA* on one board with several threads (ida_parallel.h):
 * the split of each iteration into work items, the threads that take them,
 * the shared node budget.
 */
#include "slide/ida_parallel.h"

#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ida_search.h"

#define ITEM_DEPTH_MAX 60 /* deepest split; an item is its path from the start */
#define QUOTA_MAX 65536   /* expansions a thread draws from the budget at once */

struct item {
    int len;
    unsigned char path[ITEM_DEPTH_MAX];
};

struct par;

/* One thread's search and what it found in the current iteration. */
struct worker {
    struct par *p;
    struct ida_search *s;
    int current;           /* the item being searched */
    int next_bound;        /* least f above the threshold seen */
    int found_item;        /* lowest item with a goal, INT_MAX: none */
    int found_len;
    unsigned char *found_path; /* its path: cap bytes */
    int cap;
    int stopped_item;      /* lowest item stopped (limit, cancel, error) */
    double cpu;            /* CPU seconds in the searches */
    double busy;           /* of them, in this iteration's items (no waits) */
};

/* The shared state of one parallel search. */
struct par {
    const struct ida_options *o;
    int threads;
    struct worker *w;      /* w[0..threads-1]; w[0] also splits */
    struct item *items;
    int nitems, items_cap;
    int slack;             /* the split's: items are nodes within it of the
                              threshold; -1 before the first split */
    atomic_int next;       /* the next item to take */
    atomic_int best;       /* the lowest item holding a goal, INT_MAX: none */
    atomic_int stop;       /* a thread stopped for good: all stop */
    int rc;                /* the first stop's error and message */
    slide_error err;
    /* the node budget (o->max_nodes), under lock */
    omp_lock_t lock;
    uint64_t left;
    int participants, waiting, finished, exhausted;
    int team;              /* the most threads OpenMP gave an iteration */
    uint64_t serial_below; /* an iteration after one of fewer expansions runs
                              on one thread, unsplit */
    double critical;       /* CPU seconds on the critical path (ida.h) */
};

/* ---- the node budget --------------------------------------------------- */

static int cancelled(const struct par *p)
{
    return p->o->cancel && *p->o->cancel;
}

/* Polled by the searches: stop when a thread stopped for good, or when the
 * item searched lies above the lowest one with a goal (it cannot matter). */
static int poll_stop(void *ctx)
{
    struct worker *w = ctx;
    return atomic_load(&w->p->stop) || w->current > atomic_load(&w->p->best);
}

/*
 * A quota of expansions for a thread whose quota is spent: a share of what
 * is left (smaller as less is left), or, when nothing is left, a wait for
 * quota that finishing threads give back.  When every participant waits or
 * has finished and nothing is left, the budget is spent: exactly N nodes
 * were expanded (every quota drawn was used, or given back).  Returns 1 to
 * stop.
 */
static int refill(void *ctx, uint64_t expanded, uint64_t *limit)
{
    struct worker *w = ctx;
    struct par *p = w->p;
    int waited = 0, stop = 0;
    omp_set_lock(&p->lock);
    for (;;) {
        if (p->left > 0) {
            uint64_t take = p->left / (4 * (uint64_t)p->participants);
            take = take < 1 ? 1 : take > QUOTA_MAX ? QUOTA_MAX : take;
            p->left -= take;
            *limit = expanded + take;
            break;
        }
        if (p->exhausted || cancelled(p) || poll_stop(w)) {
            stop = 1;
            break;
        }
        if (!waited) {
            p->waiting++;
            waited = 1;
        }
        if (p->waiting + p->finished == p->participants) {
            p->exhausted = 1;
            stop = 1;
            break;
        }
        omp_unset_lock(&p->lock);
        nanosleep(&(struct timespec){0, 50000}, NULL);
        omp_set_lock(&p->lock);
    }
    p->waiting -= waited;
    omp_unset_lock(&p->lock);
    return stop;
}

/* A thread done with a phase gives back the quota it did not use. */
static void finish(struct worker *w)
{
    struct par *p = w->p;
    uint64_t back = p->o->max_nodes ? ida_search_give_back(w->s) : 0;
    omp_set_lock(&p->lock);
    p->left += back;
    p->finished++;
    omp_unset_lock(&p->lock);
}

/* The first thread to stop for good (node limit, interrupt, error) leaves
 * its error for the result. */
static void stop_all(struct par *p, int rc, const slide_error *err)
{
    int zero = 0;
    if (atomic_compare_exchange_strong(&p->stop, &zero, 1)) {
        p->rc = rc;
        p->err = *err;
    }
}

/* ---- the split ----------------------------------------------------------- */

static int add_item(void *ctx, const unsigned char *path, int len)
{
    struct par *p = ((struct worker *)ctx)->p;
    if (p->nitems == p->items_cap) {
        int cap = p->items_cap ? 2 * p->items_cap : 256;
        struct item *v = realloc(p->items, (size_t)cap * sizeof *v);
        if (!v)
            return SLIDE_ENOMEM;
        p->items = v;
        p->items_cap = cap;
    }
    struct item *it = &p->items[p->nitems++];
    it->len = len;
    memcpy(it->path, path, (size_t)len);
    return SLIDE_OK;
}

/*
 * The items of the iteration with threshold `bound`: a depth-first search
 * of w[0] that hands on every node whose f is within p->slack of the
 * threshold (or that is ITEM_DEPTH_MAX deep), unexpanded, so that the
 * items' subtrees are of like sizes; the slack starts from the last
 * iteration's plus 2 (the trees grow) and shrinks until there are enough
 * items.  A goal met above the items becomes the last item (the serial
 * search stops there).  *next_bound gets the split's least f above bound.
 */
static int split(struct par *p, int bound, int h_start, int *next_bound, slide_error *err)
{
    struct worker *w = &p->w[0];
    int want = IDA_ITEMS_PER_THREAD * p->threads, rc;
    uint64_t e0, g0;
    ida_search_counts(w->s, &e0, &g0);
    p->participants = 1;
    p->finished = 0;
    p->slack = p->slack < 0 ? bound - h_start : p->slack + 2;
    if (p->slack > bound - h_start)
        p->slack = bound - h_start;
    for (;;) {
        struct ida_hooks k = {ITEM_DEPTH_MAX, p->slack, add_item,
                              p->o->max_nodes ? refill : NULL, poll_stop, w};
        int found, nb = INT_MAX;
        ida_search_hooks(w->s, &k);
        p->nitems = 0;
        w->current = -1;
        rc = ida_search_subtree(w->s, NULL, 0, bound, &found, &nb, err);
        if (rc == SLIDE_ENOMEM && p->nitems == p->items_cap) /* add_item's, no message */
            return slide_fail(err, rc, "out of memory for %d work items", p->nitems);
        if (rc)
            return rc;
        if (found >= 0)
            ida_search_path(w->s, found, w->found_path);
        if (found >= 0 || p->nitems >= want || p->slack == 0) {
            if (found >= 0 && (rc = add_item(w, w->found_path, found)))
                return slide_fail(err, rc, "out of memory for the work items");
            *next_bound = nb;
            return SLIDE_OK;
        }
        ida_search_set_counts(w->s, e0, g0); /* a try with too few items */
        p->slack--;
    }
}

/* ---- the threads --------------------------------------------------------- */

/* Search item i; a goal or a stop is noted in w. */
static void search_item(struct worker *w, int i, int bound)
{
    struct par *p = w->p;
    const struct item *it = &p->items[i];
    slide_error err;
    int found, nb = w->next_bound;
    w->current = i;
    if (i > atomic_load(&p->best))
        return; /* a goal lies in an earlier item */
    int rc = ida_search_subtree(w->s, it->path, it->len, bound, &found, &nb, &err);
    if (rc == SLIDE_OK || i > atomic_load(&p->best)) { /* done, or abandoned */
        w->next_bound = nb;
        if (rc == SLIDE_OK && found >= 0 && i < w->found_item) {
            w->found_item = i;
            w->found_len = found;
            ida_search_path(w->s, found, w->found_path);
            int b = atomic_load(&p->best);
            while (i < b && !atomic_compare_exchange_weak(&p->best, &b, i))
                ;
        }
        return;
    }
    if (i < w->stopped_item)
        w->stopped_item = i;
    stop_all(p, rc, &err);
}

/* One thread's part of an iteration: items from the shared counter until
 * none is left, a goal lies below them, or the search stops. */
static void work(struct worker *w, int bound)
{
    struct par *p = w->p;
    struct ida_hooks k = {0, 0, NULL, p->o->max_nodes ? refill : NULL, poll_stop, w};
    ida_search_hooks(w->s, &k);
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->nitems || i > atomic_load(&p->best) || atomic_load(&p->stop))
            break;
        search_item(w, i, bound);
    }
    w->current = INT_MAX;
    finish(w);
}

/* Every thread's part of the iteration with threshold `bound`. */
static void run_items(struct par *p, int bound)
{
    atomic_store(&p->next, 0);
    for (int t = 0; t < p->threads; t++) {
        p->w[t].busy = 0;
        p->w[t].next_bound = INT_MAX;
        p->w[t].found_item = INT_MAX;
        p->w[t].stopped_item = INT_MAX;
    }
#pragma omp parallel num_threads(p->threads)
    {
        double cpu0 = ida_thread_cpu();
        struct worker *w = &p->w[omp_get_thread_num()];
#pragma omp single
        {
            p->participants = omp_get_num_threads();
            p->finished = 0;
            if (p->participants > p->team)
                p->team = p->participants;
        }
        work(w, bound);
        w->busy = ida_thread_cpu() - cpu0;
#pragma omp barrier
        w->cpu += ida_thread_cpu() - cpu0;
    }
}

/* ---- the search ---------------------------------------------------------- */

static void par_free(struct par *p)
{
    for (int t = 0; p->w && t < p->threads; t++) {
        ida_search_delete(p->w[t].s);
        free(p->w[t].found_path);
    }
    free(p->w);
    free(p->items);
    omp_destroy_lock(&p->lock);
}

static int par_init(struct par *p, const struct board *start, const struct board *goal,
                    struct ida_heuristic *h, slide_error *err)
{
    omp_init_lock(&p->lock);
    p->slack = -1;
    p->left = p->o->max_nodes;
    atomic_init(&p->next, 0);
    atomic_init(&p->best, INT_MAX);
    atomic_init(&p->stop, 0);
    if (!(p->w = calloc((size_t)p->threads, sizeof *p->w)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %d threads", p->threads);
    for (int t = 0; t < p->threads; t++) {
        p->w[t].p = p;
        int rc = ida_search_new(&p->w[t].s, start, goal, &h[t], p->o, err);
        if (rc)
            return rc;
        if (p->o->max_nodes) /* quotas come from the shared budget */
            ida_search_give_back(p->w[t].s);
    }
    return SLIDE_OK;
}

/* Room for a goal's path (at most bound moves) in every worker. */
static int reserve_found(struct par *p, int bound, slide_error *err)
{
    int need = bound > ITEM_DEPTH_MAX ? bound : ITEM_DEPTH_MAX;
    for (int t = 0; t < p->threads; t++) {
        struct worker *w = &p->w[t];
        if (w->cap >= need)
            continue;
        unsigned char *q = realloc(w->found_path, (size_t)need);
        if (!q)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves", bound);
        w->found_path = q;
        w->cap = need;
    }
    return SLIDE_OK;
}

static void totals(const struct par *p, uint64_t *expanded, uint64_t *generated)
{
    *expanded = *generated = 0;
    for (int t = 0; t < p->threads; t++) {
        uint64_t e, g;
        ida_search_counts(p->w[t].s, &e, &g);
        *expanded += e;
        *generated += g;
    }
}

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/*
 * After an iteration's items: the solution of the lowest item holding one,
 * if every item below it was searched to its end; SLIDE_EINTR (or the
 * error) when the search stopped before that; else *found stays -1.
 */
static int conclude(struct par *p, struct ida_result *r, int *found, slide_error *err)
{
    const struct worker *best = NULL;
    int stopped = INT_MAX;
    for (int t = 0; t < p->threads; t++) {
        const struct worker *w = &p->w[t];
        if (w->found_item != INT_MAX && (!best || w->found_item < best->found_item))
            best = w;
        if (w->stopped_item < stopped)
            stopped = w->stopped_item;
    }
    if (best && best->found_item < stopped) {
        *found = best->found_len;
        r->length = best->found_len;
        if (best->found_len && !(r->moves = malloc((size_t)best->found_len)))
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves",
                              best->found_len);
        if (best->found_len)
            memcpy(r->moves, best->found_path, (size_t)best->found_len);
        return SLIDE_OK;
    }
    if (atomic_load(&p->stop)) {
        *err = p->err;
        return p->rc;
    }
    return SLIDE_OK;
}

/*
 * A small iteration on thread 0 alone, without a split: the serial search
 * itself.  Returns as conclude does.
 */
static int iterate_alone(struct par *p, int bound, struct ida_result *r, int *found,
                         int *next, slide_error *err)
{
    struct worker *w = &p->w[0];
    struct ida_hooks k = {0, 0, NULL, p->o->max_nodes ? refill : NULL, poll_stop, w};
    double c0 = ida_thread_cpu();
    ida_search_hooks(w->s, &k);
    w->current = -1;
    p->participants = 1;
    p->finished = 0;
    int rc = ida_search_subtree(w->s, NULL, 0, bound, found, next, err);
    if (!rc && *found >= 0) {
        r->length = *found;
        if (*found && !(r->moves = malloc((size_t)*found)))
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for a path of %d moves", *found);
        else if (*found)
            ida_search_path(w->s, *found, r->moves);
    }
    finish(w);
    double used = ida_thread_cpu() - c0;
    w->cpu += used;
    p->critical += used;
    return rc;
}

/* The iterations, from threshold h(start) up. */
static int deepen(struct par *p, struct ida_result *r, const struct timespec *t0,
                  double *split_cpu, slide_error *err)
{
    int bound = r->h_start, rc;
    uint64_t last = 0; /* expansions of the iteration before */
    for (;;) {
        uint64_t e, g;
        totals(p, &e, &g);
        if (p->o->on_iteration)
            p->o->on_iteration(bound, e, since(t0), p->o->ctx);
        r->iterations++;
        r->bound = bound;
        r->expanded_last = e; /* the counts before this iteration, for now */
        r->generated_last = g;
        if ((rc = reserve_found(p, bound, err)))
            return rc;
        int found = -1, next = INT_MAX;
        if (last < p->serial_below) {
            if ((rc = iterate_alone(p, bound, r, &found, &next, err)) || found >= 0)
                return rc;
        } else {
            double c0 = ida_thread_cpu();
            atomic_store(&p->best, INT_MAX);
            rc = split(p, bound, r->h_start, &next, err);
            *split_cpu += ida_thread_cpu() - c0;
            if (rc)
                return rc;
            finish(&p->w[0]);
            run_items(p, bound);
            double most = 0;
            for (int t = 0; t < p->threads; t++)
                most = p->w[t].busy > most ? p->w[t].busy : most;
            p->critical += most;
            if ((rc = conclude(p, r, &found, err)) || found >= 0)
                return rc;
            for (int t = 0; t < p->threads; t++)
                next = p->w[t].next_bound < next ? p->w[t].next_bound : next;
        }
        if (next == INT_MAX) /* cannot happen on a connected move graph */
            return slide_fail(err, SLIDE_EUNSOLVABLE,
                              "IDA* ran out of boards without reaching the goal");
        totals(p, &last, &g);
        last -= e;
        bound = next;
    }
}

int ida_solve_parallel(const struct board *start, const struct board *goal,
                       struct ida_heuristic *h, int threads, const struct ida_options *o,
                       struct ida_result *r, slide_error *err)
{
    return ida_solve_parallel_from(start, goal, h, threads, IDA_SERIAL_BELOW, o, r, err);
}

int ida_solve_parallel_from(const struct board *start, const struct board *goal,
                            struct ida_heuristic *h, int threads, uint64_t serial_below,
                            const struct ida_options *o, struct ida_result *r,
                            slide_error *err)
{
    static const struct ida_options none = {0, NULL, NULL, NULL, METRIC_STM};
    if (threads == 1)
        return ida_solve(start, goal, h, o, r, err);
    memset(r, 0, sizeof *r);
    r->length = -1;
    if (threads < 1 || threads > 1024)
        return slide_fail(err, SLIDE_EINVAL, "threads must be from 1 to 1024, not %d",
                          threads);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = ida_search_check(start, goal, err);
    if (rc)
        return rc;
    struct par p = {0};
    p.o = o ? o : &none;
    p.threads = threads;
    p.serial_below = serial_below;
    double split_cpu = 0;
    if (!(rc = par_init(&p, start, goal, h, err))) {
        r->h_start = ida_search_h_start(p.w[0].s);
        if (r->h_start >= IDA_H_MAX)
            rc = slide_fail(err, SLIDE_ERANGE,
                            "h(start) = %d with %s: the board is too far from the "
                            "goal for any search", r->h_start, h->name);
        else
            rc = deepen(&p, r, &t0, &split_cpu, err);
    }
    if (p.w) {
        uint64_t e, g;
        totals(&p, &e, &g);
        r->expanded_last = e - r->expanded_last;
        r->generated_last = g - r->generated_last;
        r->expanded = e;
        r->generated = g;
        r->cpu_seconds = split_cpu;
        r->cpu_critical = split_cpu + p.critical;
        for (int t = 0; t < p.threads; t++)
            r->cpu_seconds += p.w[t].cpu;
    }
    r->threads = p.team ? p.team : 1;
    r->seconds = since(&t0);
    par_free(&p);
    return rc;
}
