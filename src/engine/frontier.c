/*
 * frontier.c - frontier search with delayed duplicate detection
 * (frontier.h).
 */
#include "slide/frontier.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "slide/store.h"

#include "slide/frontier_sort.h"

#include "frontier_internal.h"

#define DEFAULT_BUFFER_KEYS (1u << 24)

/* The rank keys' fields that moved keys use too: dimensions, and the size
 * of the space when it fits 128 bits. */
static int moved_space(struct frontier_search *f, const struct board *goal, enum metric m,
                       slide_error *err)
{
    int n = board_cells(goal);
    f->moved = 1;
    if (n <= FKEY_MAX_CELLS)
        fkey_init(&f->ks, goal, err); /* cannot fail below the limit */
    f->ks.rows = goal->rows;
    f->ks.cols = goal->cols;
    f->ks.n = n;
    f->ks.m = n - 1;
    f->ks.goal_blank = board_blank(goal);
    f->ks.path_graph = goal->rows == 1 || goal->cols == 1;
    return fmoved_init(&f->ms, goal, m, err);
}

/* Layer 0: the goal's key. */
static int first_layer(struct frontier_search *f, const struct board *goal, slide_error *err)
{
    int rc;
    if (!f->moved) {
        if ((rc = fstream_open(&f->prev, NULL, err)) || (rc = fstream_open(&f->cur, NULL, err)))
            return rc;
        return fstream_append(&f->cur, fkey_of_board(&f->ks, goal));
    }
    size_t len = fmoved_key_len(&f->ms, 0);
    unsigned char key[16];
    if ((rc = fstream_open_bytes(&f->prev, NULL, len, err)) ||
        (rc = fstream_open_bytes(&f->cur, NULL, len, err)))
        return rc;
    fmoved_encode(&f->ms, goal, key, len); /* the goal: no pair */
    return fstream_append_bytes(&f->cur, key);
}

int frontier_init_metric(struct frontier_search *f, const struct board *goal,
                         enum frontier_keys keys, enum metric m, const char *temp_dir,
                         slide_error *err)
{
    int rc;
    memset(f, 0, sizeof *f);
    f->prev.fd = f->cur.fd = -1;
    f->temp_dir = temp_dir;
    f->metric = m;
    if ((rc = move_set_init(&f->moves, goal->rows, goal->cols, m, err)))
        return rc;
    if (keys == FRONTIER_KEYS_MOVED ||
        (keys == FRONTIER_KEYS_AUTO && board_cells(goal) > FKEY_MAX_CELLS))
        rc = moved_space(f, goal, m, err);
    else
        rc = fkey_init(&f->ks, goal, err);
    if (rc) {
        fmoved_free(&f->ms);
        move_set_free(&f->moves);
        return rc;
    }
    f->hist_cap = 64;
    f->hist = calloc((size_t)f->hist_cap, sizeof *f->hist);
    if (!f->hist) {
        frontier_free(f);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
    }
    if ((rc = first_layer(f, goal, err)) || (rc = fstream_finish(&f->cur, err)) ||
        (rc = fstream_finish(&f->prev, err))) {
        frontier_free(f);
        return rc;
    }
    f->hist[0] = 1;
    f->reached = 1;
    return SLIDE_OK;
}

int frontier_init_keys(struct frontier_search *f, const struct board *goal,
                       enum frontier_keys keys, const char *temp_dir, slide_error *err)
{
    return frontier_init_metric(f, goal, keys, METRIC_STM, temp_dir, err);
}

int frontier_init(struct frontier_search *f, const struct board *goal,
                  const char *temp_dir, slide_error *err)
{
    return frontier_init_keys(f, goal, FRONTIER_KEYS_AUTO, temp_dir, err);
}

size_t frontier_key_bytes(const struct frontier_search *f, int depth)
{
    return f->moved ? fmoved_key_len(&f->ms, depth) : sizeof(fkey);
}

void frontier_free(struct frontier_search *f)
{
    fstream_close(&f->prev);
    fstream_close(&f->cur);
    fmoved_free(&f->ms);
    move_set_free(&f->moves);
    free(f->hist);
    f->hist = NULL;
}

static void runs_free(struct runs *r)
{
    for (size_t i = 0; i < r->len; i++)
        fstream_close(&r->run[i]);
    free(r->run);
    memset(r, 0, sizeof *r);
}

/* Expand blocks [b0, b1) of cur into out (room for moves.max keys a board);
 * returns the number of neighbours written, -1 on error. */
static int64_t expand_blocks(struct expand *x, size_t b0, size_t b1, fkey *out,
                             fkey *keys, slide_error *err)
{
    int64_t k = 0;
    for (size_t b = b0; b < b1; b++) {
        int len = fstream_read_block(&x->f->cur, b, keys, err);
        if (len < 0)
            return -1;
        for (int i = 0; i < len; i++)
            k += fkey_neighbours(&x->f->ks, &x->f->moves, keys[i], out + k);
    }
    return k;
}

/* Keep the keys of a[0..n) in the pass's range, packed; returns how many. */
static int64_t keep_range(const struct pass *p, fkey *a, int64_t n)
{
    int64_t u = 0;
    for (int64_t i = 0; i < n; i++)
        if (a[i] >= p->lo && (!p->hi || a[i] < p->hi))
            a[u++] = a[i];
    return u;
}

/* One chunk, blocks [b0, b1) of cur: expand into buf, keep the pass's keys,
 * sort (tmp as scratch), dedup, write a run. */
static int chunk_run(struct expand *x, size_t b0, size_t b1, unsigned char *buf,
                     unsigned char *tmp, struct fstream *run, slide_error *err)
{
    if (x->f->moved)
        return fbytes_share(x, b0, b1, buf, tmp, run, err);
    fkey *keys = malloc(FSTREAM_BLOCK * sizeof *keys), *xa = (fkey *)buf;
    if (!keys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
    int64_t n = expand_blocks(x, b0, b1, xa, keys, err);
    free(keys);
    if (n < 0)
        return SLIDE_EFORMAT;
    if (x->pass->lo || x->pass->hi)
        n = keep_range(x->pass, xa, n);
    size_t u;
    int rc = fstream_open(run, x->dir, err);
    if (rc)
        return rc;
    if (x->f->ks.bits <= 64) { /* sort the low halves: half the traffic */
        uint64_t *a = (uint64_t *)xa, *t = (uint64_t *)tmp;
        for (int64_t i = 0; i < n; i++) /* in place: a[i] lies below key i */
            a[i] = (uint64_t)xa[i];
        uint64_t *s = fsort_u64(a, t, (size_t)n, x->f->ks.bits);
        u = fsort_unique_u64(s, (size_t)n);
        for (size_t i = 0; i < u && !fstream_append(run, s[i]); i++)
            ;
    } else {
        fkey *s = fsort_keys(xa, (fkey *)tmp, (size_t)n, x->f->ks.bits);
        u = fsort_unique(s, (size_t)n);
        for (size_t i = 0; i < u && !fstream_append(run, s[i]); i++)
            ;
    }
#pragma omp atomic
    x->candidates += u;
    return fstream_finish(run, err); /* the first failed append, if any */
}

static int grow_runs(struct runs *r, size_t more, slide_error *err)
{
    if (r->len + more <= r->cap)
        return SLIDE_OK;
    size_t cap = (r->len + more) * 2;
    struct fstream *p = realloc(r->run, cap * sizeof *p);
    if (!p)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the run list");
    for (size_t i = r->cap; i < cap; i++) {
        memset(&p[i], 0, sizeof p[i]);
        p[i].fd = -1;
    }
    r->run = p;
    r->cap = cap;
    return SLIDE_OK;
}

/*
 * The chunks of the step, taken by the threads as they come free (no
 * barrier between them: a thread slowed by another job on its core takes
 * fewer): chunk c writes run c, so the runs do not depend on which thread
 * took which, and the merged layer (a set) not on the thread count.
 */
static int expand_chunks(struct expand *x, const size_t *bound, size_t nchunks,
                         size_t region, struct runs *r, slide_error *err)
{
    int rc = grow_runs(r, nchunks, err);
    if (rc)
        return rc;
    size_t first = r->len;
    x->rc = SLIDE_OK;
#pragma omp parallel num_threads(x->threads)
    {
        size_t t = (size_t)omp_get_thread_num();
        unsigned char *buf = x->a + t * region, *tmp = x->tmp + t * region;
        slide_error e;
#pragma omp for schedule(dynamic, 1)
        for (size_t c = 0; c < nchunks; c++) {
            int failed;
#pragma omp atomic read
            failed = x->rc;
            if (failed)
                continue;
            int trc = chunk_run(x, bound[c], bound[c + 1], buf, tmp, &r->run[first + c], &e);
            if (trc) {
#pragma omp critical(frontier_error)
                if (!x->rc) {
                    x->err = e;
#pragma omp atomic write
                    x->rc = trc;
                }
            }
        }
    }
    r->len = first + nchunks;
    if (x->rc && err)
        *err = x->err;
    return x->rc;
}

/* A binary min-heap of the runs' cursors, keyed by their current key. */
struct heap {
    struct fstream_cursor *cur;
    fkey *key;
    size_t *idx, len;
};

static void sift_down(struct heap *h, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->len && h->key[h->idx[l]] < h->key[h->idx[m]])
            m = l;
        if (l + 1 < h->len && h->key[h->idx[l + 1]] < h->key[h->idx[m]])
            m = l + 1;
        if (m == i)
            return;
        size_t t = h->idx[i];
        h->idx[i] = h->idx[m];
        h->idx[m] = t;
        i = m;
    }
}

/* Advance the top cursor; returns -1 on a read error. */
static int heap_advance(struct heap *h, slide_error *err)
{
    size_t top = h->idx[0];
    int got = fstream_cursor_next(&h->cur[top], &h->key[top], err);
    if (got < 0)
        return -1;
    if (!got)
        h->idx[0] = h->idx[--h->len];
    if (h->len)
        sift_down(h, 0);
    return 0;
}

/* The runs' cursors from their first key >= lo on. */
static int heap_open(struct heap *h, const struct runs *r, fkey lo, slide_error *err)
{
    memset(h, 0, sizeof *h);
    h->cur = calloc(r->len + 1, sizeof *h->cur);
    h->key = calloc(r->len + 1, sizeof *h->key);
    h->idx = calloc(r->len + 1, sizeof *h->idx);
    if (!h->cur || !h->key || !h->idx)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the merge");
    for (size_t i = 0; i < r->len; i++) {
        int rc = fstream_cursor_open(&h->cur[i], &r->run[i], err);
        if (rc)
            return rc;
        int got = fstream_cursor_seek(&h->cur[i], lo, &h->key[i], err);
        if (got < 0)
            return SLIDE_EFORMAT;
        if (got)
            h->idx[h->len++] = i;
    }
    for (size_t i = h->len / 2; i-- > 0;)
        sift_down(h, i);
    return SLIDE_OK;
}

static void heap_close(struct heap *h, size_t n)
{
    if (h->cur)
        for (size_t i = 0; i < n; i++)
            fstream_cursor_close(&h->cur[i]);
    free(h->cur);
    free(h->key);
    free(h->idx);
}

/* The layers a new key must not be in (frontier.h): d-1, and in the
 * multi-tile metric d as well; returns how many (1 or 2). */
int frontier_subtracted(const struct frontier_search *f, const struct fstream *layer[2])
{
    layer[0] = &f->prev;
    layer[1] = &f->cur;
    return f->metric == METRIC_MTM ? 2 : 1;
}

/* Advance a subtracted layer's cursor (*got: its state, p its key) to the
 * first key >= k; 1 if that key is k. */
static inline int in_layer(struct fstream_cursor *c, fkey *p, int *got, fkey k,
                           slide_error *err)
{
    while (*got > 0 && *p < k)
        *got = fstream_cursor_next(c, p, err);
    return *got > 0 && *p == k;
}

/* Merge the runs' keys in [lo, hi) (hi = 0: no bound), drop repeats and
 * the keys of the subtracted layers, into out. */
static int merge_runs(const struct frontier_search *f, const struct runs *r, fkey lo,
                      fkey hi, struct fstream *out, slide_error *err)
{
    struct heap h;
    const struct fstream *layer[2];
    struct fstream_cursor pc[2];
    fkey p[2] = {0, 0}, last = 0;
    int have_last = 0, rc, pgot[2] = {0, 0}, ns = frontier_subtracted(f, layer), opened = 0;
    if ((rc = heap_open(&h, r, lo, err)))
        goto done;
    for (; opened < ns; opened++) {
        if ((rc = fstream_cursor_open(&pc[opened], layer[opened], err)))
            goto done;
        pgot[opened] = fstream_cursor_seek(&pc[opened], lo, &p[opened], err);
    }
    while (h.len && pgot[0] >= 0 && pgot[1] >= 0) {
        fkey k = h.key[h.idx[0]];
        if (hi && k >= hi)
            break;
        if (heap_advance(&h, err)) {
            rc = SLIDE_EFORMAT;
            break;
        }
        if (have_last && k == last)
            continue;
        last = k;
        have_last = 1;
        /* layer d only in MTM: the single-tile merge pays one test */
        if (in_layer(&pc[0], &p[0], &pgot[0], k, err) ||
            (ns > 1 && in_layer(&pc[1], &p[1], &pgot[1], k, err)))
            continue;
        if ((rc = fstream_append(out, k)))
            break;
    }
    if (!rc && (pgot[0] < 0 || pgot[1] < 0))
        rc = SLIDE_EFORMAT;
    if (!rc)
        rc = fstream_finish(out, err);
    else if (rc != SLIDE_EFORMAT)
        fstream_finish(out, err);
done:
    while (opened-- > 0)
        fstream_cursor_close(&pc[opened]);
    heap_close(&h, r->len);
    return rc;
}

static int step_threads(const struct frontier_options *o)
{
    return o->threads > 0 ? o->threads : omp_get_max_threads();
}

/* Parts of a merge in memory: key ranges cut at the first keys of evenly
 * spaced blocks of layer d (so the parts, and the layer's bytes, depend on
 * the layer only, not on the thread count). */
#define MERGE_PARTS 16

/*
 * Merge the runs (their keys in pass's range) onto the end of out (opened;
 * join: it may hold the keys of earlier passes): with at least 4 blocks of
 * layer d a part in the pass, the parts are merged by the threads as they
 * come free, each into a stream of its own (in memory, or a file in dir
 * when the step is on disk), joined in order; otherwise in one pass.
 * Moved keys: the same in frontier_bytes.c.
 */
static int merge_all(const struct frontier_search *f, const struct frontier_options *o,
                     const struct runs *r, const char *dir, const struct pass *pass, int join,
                     struct fstream *out, slide_error *err)
{
    size_t nb = pass->be - pass->bs;
    int rc = SLIDE_OK, n = MERGE_PARTS;
    if (f->moved)
        return fbytes_merge(f, r, dir, step_threads(o), pass, join, out, err);
    if (nb < 4 * MERGE_PARTS) {
        struct fstream one;
        if (!join)
            return merge_runs(f, r, pass->lo, pass->hi, out, err);
        if ((rc = fstream_open(&one, dir, err)))
            return rc;
        if ((rc = merge_runs(f, r, pass->lo, pass->hi, &one, err))) {
            fstream_close(&one);
            return rc;
        }
        return fstream_concat(out, &one, err);
    }
    fkey cut[MERGE_PARTS + 1];
    struct fstream part[MERGE_PARTS];
    cut[0] = pass->lo;
    for (int i = 1; i < n; i++)
        cut[i] = f->cur.block[pass->bs + (size_t)i * nb / (size_t)n].first;
    cut[n] = pass->hi; /* 0: no bound */
    for (int i = 0; i < n; i++)
        if ((rc = fstream_open(&part[i], dir, err))) {
            while (i-- > 0)
                fstream_close(&part[i]);
            return rc;
        }
    slide_error perr = {{0}};
#pragma omp parallel for schedule(dynamic, 1) num_threads(step_threads(o))
    for (int i = 0; i < n; i++) {
        slide_error e;
        int failed;
#pragma omp atomic read
        failed = rc;
        if (failed)
            continue;
        int prc = merge_runs(f, r, cut[i], cut[i + 1], &part[i], &e);
        if (prc) {
#pragma omp critical(frontier_merge_error)
            if (!rc) {
                perr = e;
#pragma omp atomic write
                rc = prc;
            }
        }
    }
    if (rc && err)
        *err = perr;
    for (int i = 0; i < n; i++)
        if (rc || (rc = fstream_concat(out, &part[i], err)))
            fstream_close(&part[i]);
    return rc;
}

/* Bytes of a key in the expansion buffer of the next step. */
static size_t step_key_bytes(const struct frontier_search *f)
{
    return frontier_key_bytes(f, f->depth + 1);
}

/* Boards of layer d whose neighbours the whole expansion buffer holds (all
 * threads' chunks together).  The default buffer takes the same bytes with
 * either key kind. */
static uint64_t batch_keys(const struct frontier_search *f, const struct frontier_options *o)
{
    uint64_t buffer = o->buffer_keys >= 64 ? o->buffer_keys
                                           : DEFAULT_BUFFER_KEYS * sizeof(fkey) /
                                                 (step_key_bytes(f) ? step_key_bytes(f) : 1);
    uint64_t keys = buffer / (uint64_t)f->moves.max;
    return keys < FSTREAM_BLOCK ? FSTREAM_BLOCK : keys;
}

/*
 * Boards of a chunk: a thread's share of the buffer, and small enough that
 * a layer makes 8 chunks a thread (so a slow thread holds up the step by
 * at most about a sixteenth), but not below 4 blocks.
 */
static uint64_t chunk_keys(const struct frontier_search *f, const struct frontier_options *o)
{
    uint64_t T = (uint64_t)step_threads(o), share = batch_keys(f, o) / T;
    uint64_t balance = f->cur.count / (8 * T);
    if (balance < 4 * FSTREAM_BLOCK)
        balance = 4 * FSTREAM_BLOCK;
    uint64_t keys = share < balance ? share : balance;
    return keys < FSTREAM_BLOCK ? FSTREAM_BLOCK : keys;
}

/* Keys the expansion buffer holds: each thread's chunk's neighbours, or all
 * of the layer's. */
static uint64_t buffer_cap(const struct frontier_search *f, const struct frontier_options *o)
{
    uint64_t fan = (uint64_t)f->moves.max;
    uint64_t cap = (uint64_t)step_threads(o) * chunk_keys(f, o) * fan;
    return cap > f->cur.count * fan ? f->cur.count * fan : cap;
}

/* The most passes a step is cut into (frontier.h), and the blocks of
 * layer d each must have at least. */
#define MAX_PASSES 64
#define PASS_BLOCKS 4

/* The most passes layer d allows: a power of two with PASS_BLOCKS blocks
 * each. */
static int most_passes(const struct frontier_search *f)
{
    int p = 1;
    while (p < MAX_PASSES && f->cur.nblocks >= (size_t)(2 * p * PASS_BLOCKS))
        p *= 2;
    return p;
}

/* frontier_estimate for a step in passes passes: each pass's runs are
 * freed before the next is made, so they count once, cut by passes (with a
 * quarter more for passes that come out uneven). */
static void estimate(const struct frontier_search *f, const struct frontier_options *o,
                     int passes, uint64_t *fixed, uint64_t *step)
{
    double cur = (double)f->cur.count, prev = (double)f->prev.count;
    double growth = prev > 0 && cur > prev ? cur / prev : 1.0;
    if (f->depth < 4)
        growth = 4; /* the first layers say little about the growth */
    /* gaps of the runs are about 4 times those of the layer: 2 more bits;
     * moved keys share shorter prefixes in the runs than in the layer */
    double layer_bpk = cur > 0 ? (double)f->cur.bytes / cur : (double)FSTREAM_GAP_MAX;
    double bpk = f->moved ? 1.5 * layer_bpk + 2.0 : layer_bpk + 1.0;
    double index = (double)sizeof(struct fstream_block) / FSTREAM_BLOCK;
    double runs = cur * f->moves.max * (bpk + 0.25 + index);
    if (passes > 1)
        runs = runs * 1.25 / passes;
    *fixed = fstream_memory(&f->prev) + fstream_memory(&f->cur) +
             2 * buffer_cap(f, o) * step_key_bytes(f);
    *step = (uint64_t)(runs + cur * growth * (bpk + index)) + (1u << 20);
}

void frontier_estimate(const struct frontier_search *f, const struct frontier_options *o,
                       uint64_t *fixed, uint64_t *step)
{
    estimate(f, o, o->passes > 0 ? o->passes : 1, fixed, step);
}

/* Does a step in passes passes fit in memory? */
static int fits_memory(const struct frontier_search *f, const struct frontier_options *o,
                       int passes, uint64_t avail)
{
    uint64_t fixed, step, limit = o->max_memory ? o->max_memory : UINT64_MAX;
    estimate(f, o, passes, &fixed, &step);
    return fixed + step <= limit &&
           (!avail || step + 2 * buffer_cap(f, o) * step_key_bytes(f) <= avail);
}

/*
 * Where the runs and the new layer go (*dir NULL: memory, or temp_dir), and
 * in how many passes: the fewest that fit, memory before disk at each count
 * (o->passes > 0: that many, or refused).
 */
static int choose_storage(const struct frontier_search *f, const struct frontier_options *o,
                          const char **dir, int *passes, slide_error *err)
{
    uint64_t fixed, step, free_bytes = 0;
    uint64_t avail = store_memory_available(0);
    int last = most_passes(f);
    if (o->passes > 0 && o->passes < last)
        last = o->passes;
    int first = o->passes > 0 ? last : 1;
    struct statvfs v;
    if (f->temp_dir) {
        if (statvfs(f->temp_dir, &v) != 0)
            return slide_fail(err, SLIDE_EIO, "cannot read the free space of %s", f->temp_dir);
        free_bytes = (uint64_t)v.f_bavail * (uint64_t)v.f_frsize;
    }
    *dir = NULL;
    for (*passes = first; *passes <= last; *passes *= 2) {
        if (fits_memory(f, o, *passes, avail))
            return SLIDE_OK;
        estimate(f, o, *passes, &fixed, &step);
        if (f->temp_dir && step <= free_bytes && (!o->max_disk || step <= o->max_disk)) {
            *dir = f->temp_dir;
            return SLIDE_OK;
        }
    }
    *passes = last;
    estimate(f, o, last, &fixed, &step);
    char cut[80] = "";
    if (last > 1)
        snprintf(cut, sizeof cut, " (with the step cut into %d passes)", last);
    /* bytes in full beside the GB: two figures that round alike still
     * differ where it matters */
    if (!f->temp_dir)
        return slide_fail(err, SLIDE_ENOMEM, "distance %d needs about %" PRIu64 " bytes "
                          "(%.2f GB) of memory (%" PRIu64 " held, %" PRIu64 " for the step%s) "
                          "but %" PRIu64 " bytes (%.2f GB) may be used; give --temp-dir DIR "
                          "to put it on disk", f->depth + 1, fixed + step,
                          (double)(fixed + step) / 1e9, fixed, step, cut,
                          o->max_memory ? o->max_memory : avail,
                          (double)(o->max_memory ? o->max_memory : avail) / 1e9);
    char cap[64] = "";
    if (o->max_disk && step > o->max_disk)
        snprintf(cap, sizeof cap, " and --max-disk allows %" PRIu64, o->max_disk);
    return slide_fail(err, SLIDE_ENOMEM, "distance %d needs about %" PRIu64 " bytes "
                      "(%.2f GB) of disk in %s but %" PRIu64 " bytes (%.2f GB) are "
                      "free%s%s", f->depth + 1, step, (double)step / 1e9, f->temp_dir,
                      free_bytes, (double)free_bytes / 1e9, cap, cut);
}

static int expand_all(const struct frontier_search *f, const struct frontier_options *o,
                      const char *dir, const struct pass *pass, struct runs *r,
                      uint64_t *candidates, slide_error *err)
{
    uint64_t per_chunk = chunk_keys(f, o);
    struct expand x = {.f = f, .dir = dir, .pass = pass, .klen = step_key_bytes(f)};
    x.threads = step_threads(o);
    size_t nb = f->cur.nblocks, nchunks = 0;
    uint64_t most = f->cur.count < per_chunk ? f->cur.count : per_chunk;
    size_t region = (size_t)(most * (uint64_t)f->moves.max) * x.klen;
    size_t *bound = malloc((nb + 1) * sizeof *bound);
    x.a = malloc((size_t)x.threads * region + 1);
    x.tmp = malloc((size_t)x.threads * region + 1);
    int rc = SLIDE_OK;
    if (!x.a || !x.tmp || !bound)
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for an expansion buffer of "
                        "%zu bytes (lower --buffer)", 2 * (size_t)x.threads * region);
    for (size_t b0 = 0; !rc && b0 < nb;) { /* chunks of whole blocks */
        size_t b1 = b0;
        uint64_t keys = 0;
        while (b1 < nb && (b1 == b0 || keys + f->cur.block[b1].count <= per_chunk))
            keys += f->cur.block[b1++].count;
        bound[nchunks++] = b0;
        b0 = b1;
    }
    if (!rc) {
        bound[nchunks] = nb;
        rc = expand_chunks(&x, bound, nchunks, region, r, err);
    }
    free(x.a);
    free(x.tmp);
    free(bound);
    *candidates += x.candidates;
    return rc;
}

/* Pass i of passes: blocks [bs, be) of layer d, bounded by their first keys
 * (byte keys: into lo and hi, klen bytes each). */
static int make_pass(const struct frontier_search *f, int i, int passes, unsigned char *lo,
                     unsigned char *hi, struct pass *p, slide_error *err)
{
    size_t nb = f->cur.nblocks, klen = step_key_bytes(f);
    memset(p, 0, sizeof *p);
    p->bs = (size_t)i * nb / (size_t)passes;
    p->be = (size_t)(i + 1) * nb / (size_t)passes;
    int rc = SLIDE_OK;
    if (i > 0) {
        if (f->moved)
            rc = fbytes_block_first(&f->cur, p->bs, klen, lo, err), p->blo = lo;
        else
            p->lo = f->cur.block[p->bs].first;
    }
    if (!rc && i + 1 < passes) {
        if (f->moved)
            rc = fbytes_block_first(&f->cur, p->be, klen, hi, err), p->bhi = hi;
        else
            p->hi = f->cur.block[p->be].first;
    }
    return rc;
}

/* The step's passes one after the other onto next (opened): each expands
 * all of layer d, keeps its key range, and merges its runs, freed before
 * the next pass. */
static int run_passes(const struct frontier_search *f, const struct frontier_options *o,
                      const char *dir, int passes, struct fstream *next, uint64_t *candidates,
                      uint64_t *run_bytes, slide_error *err)
{
    size_t klen = step_key_bytes(f);
    unsigned char *bound = malloc(2 * klen);
    int rc = bound ? SLIDE_OK : slide_fail(err, SLIDE_ENOMEM, "out of memory for a pass");
    for (int i = 0; !rc && i < passes; i++) {
        struct pass p;
        struct runs r = {0};
        if ((rc = make_pass(f, i, passes, bound, bound + klen, &p, err)))
            break;
        rc = expand_all(f, o, dir, &p, &r, candidates, err);
        if (!rc)
            rc = merge_all(f, o, &r, dir, &p, i > 0, next, err);
        for (size_t j = 0; j < r.len; j++)
            *run_bytes += r.run[j].bytes;
        runs_free(&r);
    }
    free(bound);
    return rc;
}

int frontier_step(struct frontier_search *f, const struct frontier_options *o,
                  slide_error *err)
{
    if (f->complete)
        return SLIDE_OK;
    double t0 = omp_get_wtime();
    struct fstream next;
    uint64_t candidates = 0, run_bytes = 0;
    const char *dir;
    int passes = 1;
    size_t klen = step_key_bytes(f);
    if (!klen)
        return slide_fail(err, SLIDE_ERANGE, "distance %d: moved keys hold at most %d "
                          "tiles that differ from the goal", f->depth + 1, FMOVED_MAX_PAIRS);
    if (o->passes < 0 || o->passes > MAX_PASSES || (o->passes & (o->passes - 1)))
        return slide_fail(err, SLIDE_EINVAL, "%d passes: allowed are 1, 2, 4, ..., %d",
                          o->passes, MAX_PASSES);
    int rc = choose_storage(f, o, &dir, &passes, err);
    if (rc)
        return rc;
    if (!(rc = f->moved ? fstream_open_bytes(&next, dir, klen, err)
                        : fstream_open(&next, dir, err))) {
        rc = run_passes(f, o, dir, passes, &next, &candidates, &run_bytes, err);
        if (rc)
            fstream_close(&next);
    }
    if (rc)
        return rc;
    if (f->depth + 2 > f->hist_cap) {
        uint64_t *h = realloc(f->hist, (size_t)f->hist_cap * 2 * sizeof *h);
        if (!h) {
            fstream_close(&next);
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
        }
        f->hist = h;
        f->hist_cap *= 2;
    }
    fstream_close(&f->prev);
    f->prev = f->cur;
    f->cur = next;
    f->depth++;
    f->hist[f->depth] = next.count;
    f->reached += next.count;
    f->complete = next.count == 0;
    f->candidates = candidates;
    f->run_bytes = run_bytes;
    f->passes = passes;
    f->on_disk = dir != NULL;
    f->step_seconds = omp_get_wtime() - t0;
    f->seconds += f->step_seconds;
    return SLIDE_OK;
}

int frontier_run(struct frontier_search *f, const struct frontier_options *o,
                 slide_error *err)
{
    while (!f->complete && (o->max_depth < 0 || f->depth < o->max_depth)) {
        int rc = frontier_step(f, o, err);
        if (rc)
            return rc;
        struct frontier_layer L = {f->depth, f->hist[f->depth], f->reached, f->candidates,
                                   f->run_bytes, f->cur.bytes, f->step_seconds, f->seconds,
                                   f->passes};
        if (o->on_layer && o->on_layer(&L, o->ctx))
            return slide_fail(err, SLIDE_EINTR, "stopped after distance %d", f->depth);
    }
    return SLIDE_OK;
}

int frontier_radius(const struct frontier_search *f)
{
    return f->complete ? f->depth - 1 : -1;
}

const struct fstream *frontier_last_layer(const struct frontier_search *f)
{
    return f->complete ? &f->prev : &f->cur;
}

int frontier_restore(struct frontier_search *f, int depth, const uint64_t *hist,
                     struct fstream *prev, struct fstream *cur, double seconds,
                     slide_error *err)
{
    if (depth < 0 || prev->count != (depth ? hist[depth - 1] : 0) ||
        cur->count != hist[depth])
        return slide_fail(err, SLIDE_EINVAL, "the saved layers do not match the "
                          "saved histogram");
    int cap = f->hist_cap;
    while (cap < depth + 2)
        cap *= 2;
    uint64_t *h = realloc(f->hist, (size_t)cap * sizeof *h);
    if (!h)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
    f->hist = h;
    f->hist_cap = cap;
    f->reached = 0;
    for (int d = 0; d <= depth; d++)
        f->reached += (f->hist[d] = hist[d]);
    fstream_close(&f->prev);
    fstream_close(&f->cur);
    f->prev = *prev;
    f->cur = *cur;
    memset(prev, 0, sizeof *prev);
    memset(cur, 0, sizeof *cur);
    prev->fd = cur->fd = -1;
    f->depth = depth;
    f->complete = depth > 0 && f->cur.count == 0;
    f->seconds = seconds;
    return SLIDE_OK;
}
