/*
 * theorem.c - the parity theorem checked on every arrangement (theorem.h).
 */
#include "slide/theorem.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slide/bfs.h"
#include "slide/parity.h"
#include "slide/space.h"
#include "slide/store.h"

int theorem_criterion_parity(const struct board *b, const struct board *goal,
                             void *ctx, slide_error *err)
{
    (void)ctx;
    struct parity_report pr;
    int rc = parity_check(b, goal, &pr, err);
    return rc ? rc : pr.solvable;
}

/* One thread's share of the comparison. */
struct tally {
    uint64_t reachable, criterion, agree, disagree;
    int rc;                       /* first error of fn, or SLIDE_OK */
    slide_error err;
};

/* Criterion and truth for index i: 1 if they agree, 0 if not, < 0 error. */
static int judge(const struct space *s, const struct store *st,
                 const struct board *goal, theorem_criterion_fn fn, void *ctx,
                 struct board *b, uint64_t i, int *says, int *reached,
                 slide_error *err)
{
    space_unrank(s, i, b);
    *says = fn(b, goal, ctx, err);
    if (*says < 0)
        return *says;
    *says = *says != 0;
    *reached = store_get(st, i) != STORE_UNVISITED;
    return *says == *reached;
}

static void tally_index(const struct space *s, const struct store *st,
                        const struct board *goal, theorem_criterion_fn fn,
                        void *ctx, struct board *b, uint64_t i, struct tally *t)
{
    int says, reached, same = judge(s, st, goal, fn, ctx, b, i, &says, &reached, &t->err);
    if (same < 0) {
        t->rc = same;
        return;
    }
    t->reachable += (uint64_t)reached;
    t->criterion += (uint64_t)says;
    t->agree += (uint64_t)same;
    t->disagree += (uint64_t)!same;
}

/* Merge one thread's tally into the total (called in a critical section). */
static void tally_merge(struct tally *total, const struct tally *t)
{
    total->reachable += t->reachable;
    total->criterion += t->criterion;
    total->agree += t->agree;
    total->disagree += t->disagree;
    if (t->rc && !total->rc) {
        total->rc = t->rc;
        total->err = t->err;
    }
}

static int compare_all(const struct space *s, const struct store *st,
                       const struct board *goal, theorem_criterion_fn fn,
                       void *ctx, int threads, struct tally *total)
{
    int failed = 0; /* set once any thread is out of memory or fn failed */
    memset(total, 0, sizeof *total);
#pragma omp parallel num_threads(threads)
    {
        struct tally t;
        struct board b;
        memset(&t, 0, sizeof t);
        if (board_alloc(&b, s->rows, s->cols, &t.err))
            t.rc = SLIDE_ENOMEM;
        int64_t size = (int64_t)s->size;
#pragma omp for schedule(dynamic, 4096)
        for (int64_t i = 0; i < size; i++) {
            if (t.rc || __atomic_load_n(&failed, __ATOMIC_RELAXED))
                continue;
            tally_index(s, st, goal, fn, ctx, &b, (uint64_t)i, &t);
            if (t.rc)
                __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
        }
        board_free(&b);
#pragma omp critical(theorem_merge)
        tally_merge(total, &t);
    }
    return total->rc;
}

/*
 * The first THEOREM_KEEP disagreements in index order, by a sequential scan
 * that stops once it has them (only when there are any: a failed check
 * is the rare case, and the scan needs no per-thread bookkeeping).
 */
static int find_examples(const struct space *s, const struct store *st,
                         const struct board *goal, theorem_criterion_fn fn,
                         void *ctx, struct theorem_result *r, slide_error *err)
{
    uint64_t want = r->disagree < THEOREM_KEEP ? r->disagree : THEOREM_KEEP;
    struct board b = {s->rows, s->cols, NULL};
    for (uint64_t i = 0; i < s->size && (uint64_t)r->nexamples < want; i++) {
        int says, reached;
        b.cells = r->example_cells[r->nexamples];
        int same = judge(s, st, goal, fn, ctx, &b, i, &says, &reached, err);
        if (same < 0)
            return same;
        if (!same)
            r->example_reachable[r->nexamples++] = reached;
    }
    return SLIDE_OK;
}

/* "20! = 2432902008176640000", or "21! > 2^64" where n! does not fit. */
static void factorial_text(int n, char *buf, size_t len)
{
    if (n <= RANK_MAX_LEN)
        snprintf(buf, len, "%d! = %llu", n, (unsigned long long)rank_factorial(n));
    else
        snprintf(buf, len, "%d! > 2^64", n);
}

static int check_size(const struct board *goal, slide_error *err)
{
    int n = board_cells(goal);
    int path = goal->rows == 1 || goal->cols == 1;
    char has[64], most[64];
    factorial_text(n, has, sizeof has);
    if (path && n > THEOREM_MAX_PATH_CELLS) {
        factorial_text(THEOREM_MAX_PATH_CELLS, most, sizeof most);
        return slide_fail(err, SLIDE_ERANGE,
                          "a %dx%d board is a path: only %d of its %s arrangements are "
                          "reachable, and the exhaustive check of a path allows at most "
                          "%d cells (%s arrangements)", goal->rows, goal->cols, n, has,
                          THEOREM_MAX_PATH_CELLS, most);
    }
    if (n > THEOREM_MAX_CELLS) {
        factorial_text(THEOREM_MAX_CELLS, most, sizeof most);
        return slide_fail(err, SLIDE_ERANGE,
                          "a %dx%d board has %s arrangements; the exhaustive parity check "
                          "allows at most %d cells (%s)", goal->rows, goal->cols, has,
                          THEOREM_MAX_CELLS, most);
    }
    return board_validate(goal, err);
}

/* Arrangements reached in one store and not the other (both of s). */
static uint64_t reach_differs(const struct space *s, const struct store *a,
                              const struct store *b)
{
    uint64_t n = 0;
    int64_t size = (int64_t)s->size;
#pragma omp parallel for reduction(+ : n) schedule(static)
    for (int64_t i = 0; i < size; i++)
        n += (store_get(a, (uint64_t)i) == STORE_UNVISITED) !=
             (store_get(b, (uint64_t)i) == STORE_UNVISITED);
    return n;
}

/* The BFS of metric m over the full space s into a new store *st. */
static int search_full(const struct space *s, enum metric m, int threads,
                       struct store *st, double *seconds, slide_error *err)
{
    struct bfs_result br;
    int rc = store_alloc(st, s->size, err);
    if (rc)
        return rc;
    struct bfs_options o = {.threads = threads, .no_backward = 1, .metric = m};
    rc = bfs_run(s, st, &o, &br, err);
    *seconds += br.seconds;
    bfs_result_free(&br);
    if (rc)
        store_free(st);
    return rc;
}

int theorem_parity(const struct board *goal, theorem_criterion_fn fn, void *ctx,
                   int threads, uint64_t max_memory, struct theorem_result *r,
                   slide_error *err)
{
    return theorem_parity_metric(goal, METRIC_STM, fn, ctx, threads, max_memory, r, err);
}

int theorem_parity_metric(const struct board *goal, enum metric m, theorem_criterion_fn fn,
                          void *ctx, int threads, uint64_t max_memory,
                          struct theorem_result *r, slide_error *err)
{
    struct space s;
    struct store st, stm;
    struct tally total;
    char what[128];
    int stores = m == METRIC_MTM ? 2 : 1;
    memset(r, 0, sizeof *r);
    memset(&total, 0, sizeof total);
    int rc = check_size(goal, err);
    if (!rc)
        rc = space_init(&s, goal, SPACE_FULL, err);
    if (rc)
        return rc;
    snprintf(what, sizeof what, "all %llu arrangements of a %dx%d board at 2 bits each%s",
             (unsigned long long)s.size, s.rows, s.cols, stores == 2 ? ", twice" : "");
    if ((rc = store_check_memory((uint64_t)stores * store_bytes_needed(s.size), max_memory,
                                 what, err)))
        return rc;
    r->threads = threads > 0 ? threads : omp_get_max_threads();
    r->metric = m;
    if ((rc = search_full(&s, m, r->threads, &st, &r->bfs_seconds, err)))
        return rc;
    if (m == METRIC_MTM) { /* the single-tile search beside it */
        if ((rc = search_full(&s, METRIC_STM, r->threads, &stm, &r->bfs_seconds, err))) {
            store_free(&st);
            return rc;
        }
        r->metric_disagree = reach_differs(&s, &st, &stm);
        store_free(&stm);
    }
    double t0 = omp_get_wtime();
    rc = compare_all(&s, &st, goal, fn, ctx, r->threads, &total);
    r->check_seconds = omp_get_wtime() - t0;
    if (rc == SLIDE_OK) {
        r->rows = s.rows;
        r->cols = s.cols;
        r->path_graph = s.path_graph;
        r->arrangements = s.size;
        r->reachable = total.reachable;
        r->criterion = total.criterion;
        r->agree = total.agree;
        r->disagree = total.disagree;
        rc = find_examples(&s, &st, goal, fn, ctx, r, err);
    } else if (total.rc && err) {
        *err = total.err;
    }
    store_free(&st);
    return rc;
}
