/*
 * frontier_bytes.c - the steps of a frontier search with moved keys
 * (frontier_moved.h): byte keys of x->klen bytes, expanded into records,
 * sorted by fsort_bytes, written as front-coded runs (frontier_stream.h)
 * and merged by a heap of cursors in memcmp order (frontier_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "slide/frontier_sort.h"

#include "frontier_internal.h"

/* Keep the keys [from, n) of out that lie in the pass's range, packed from
 * from on; returns the new end. */
static size_t keep_range(const struct pass *p, unsigned char *out, size_t from, size_t n,
                         size_t len)
{
    size_t u = from;
    for (size_t i = from; i < n; i++) {
        const unsigned char *k = out + i * len;
        if ((p->blo && memcmp(k, p->blo, len) < 0) || (p->bhi && memcmp(k, p->bhi, len) >= 0))
            continue;
        if (u != i)
            memcpy(out + u * len, k, len);
        u++;
    }
    return u;
}

int fbytes_block_first(const struct fstream *s, size_t b, size_t klen, unsigned char *key,
                       slide_error *err)
{
    unsigned char *block = malloc(FSTREAM_BLOCK * klen);
    if (!block)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
    int rc = fstream_read_block_bytes(s, b, block, klen, err) < 1 ? SLIDE_EFORMAT : SLIDE_OK;
    if (!rc)
        memcpy(key, block, klen);
    free(block);
    return rc;
}

int fbytes_share(struct expand *x, size_t b0, size_t b1, unsigned char *buf,
                 unsigned char *tmp, struct fstream *run, slide_error *err)
{
    const struct frontier_search *f = x->f;
    size_t len = x->klen;
    unsigned char *keys = malloc((size_t)FSTREAM_BLOCK * len);
    if (!keys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
    unsigned char *out = buf;
    size_t n = 0;
    int rc = SLIDE_OK;
    for (size_t b = b0; !rc && b < b1; b++) {
        int count = fstream_read_block_bytes(&f->cur, b, keys, len, err);
        if (count < 0)
            rc = SLIDE_EFORMAT;
        for (int i = 0; !rc && i < count; i++) {
            int k = fmoved_neighbours(&f->ms, &f->moves, keys + (size_t)i * len, len,
                                      out + n * len);
            if (k < 0)
                rc = slide_fail(err, SLIDE_ERANGE, "a board of distance %d has more tiles "
                                "out of place than its key holds", f->depth + 1);
            n += (size_t)(k > 0 ? k : 0);
            if (k > 0 && (x->pass->blo || x->pass->bhi))
                n = keep_range(x->pass, out, n - (size_t)k, n, len);
        }
    }
    free(keys);
    if (rc || (rc = fstream_open_bytes(run, x->dir, len, err)))
        return rc;
    unsigned char *s = fsort_bytes(out, tmp, n, len);
    if (!s)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the sort of a chunk");
    size_t u = fsort_unique_bytes(s, n, len);
    for (size_t i = 0; i < u && !fstream_append_bytes(run, s + i * len); i++)
        ;
#pragma omp atomic
    x->candidates += u;
    return fstream_finish(run, err); /* the first failed append, if any */
}

/* A binary min-heap of the runs' cursors, keyed by their current key. */
struct bheap {
    struct fstream_cursor *cur;
    const unsigned char **key;
    size_t *idx, len, klen;
};

static int less(const struct bheap *h, size_t a, size_t b)
{
    return memcmp(h->key[h->idx[a]], h->key[h->idx[b]], h->klen) < 0;
}

static void sift_down(struct bheap *h, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < h->len && less(h, l, m))
            m = l;
        if (l + 1 < h->len && less(h, l + 1, m))
            m = l + 1;
        if (m == i)
            return;
        size_t t = h->idx[i];
        h->idx[i] = h->idx[m];
        h->idx[m] = t;
        i = m;
    }
}

/* The runs' cursors from their first key >= lo (NULL: from the start). */
static int heap_open(struct bheap *h, const struct runs *r, size_t klen,
                     const unsigned char *lo, slide_error *err)
{
    memset(h, 0, sizeof *h);
    h->klen = klen;
    h->cur = calloc(r->len + 1, sizeof *h->cur);
    h->key = calloc(r->len + 1, sizeof *h->key);
    h->idx = calloc(r->len + 1, sizeof *h->idx);
    if (!h->cur || !h->key || !h->idx)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the merge");
    for (size_t i = 0; i < r->len; i++) {
        int rc = fstream_cursor_open_bytes(&h->cur[i], &r->run[i], klen, err);
        if (rc)
            return rc;
        int got = lo ? fstream_cursor_seek_bytes(&h->cur[i], lo, &h->key[i], err)
                     : fstream_cursor_next_bytes(&h->cur[i], &h->key[i], err);
        if (got < 0)
            return SLIDE_EFORMAT;
        if (got)
            h->idx[h->len++] = i;
    }
    for (size_t i = h->len / 2; i-- > 0;)
        sift_down(h, i);
    return SLIDE_OK;
}

static void heap_close(struct bheap *h, size_t n)
{
    if (h->cur)
        for (size_t i = 0; i < n; i++)
            fstream_cursor_close(&h->cur[i]);
    free(h->cur);
    free(h->key);
    free(h->idx);
}

/* Copy the smallest key into k and advance its cursor; -1 on a read error. */
static int heap_pop(struct bheap *h, unsigned char *k, slide_error *err)
{
    size_t top = h->idx[0];
    memcpy(k, h->key[top], h->klen);
    int got = fstream_cursor_next_bytes(&h->cur[top], &h->key[top], err);
    if (got < 0)
        return -1;
    if (!got)
        h->idx[0] = h->idx[--h->len];
    if (h->len)
        sift_down(h, 0);
    return 0;
}

/* Advance a subtracted layer's cursor (*got: its state, *p its key) to the
 * first key >= k; 1 if that key is k. */
static int in_layer(struct fstream_cursor *c, const unsigned char **p, int *got,
                    const unsigned char *k, size_t len, slide_error *err)
{
    while (*got > 0 && memcmp(*p, k, len) < 0)
        *got = fstream_cursor_next_bytes(c, p, err);
    return *got > 0 && !memcmp(*p, k, len);
}

/* Merge the runs' keys in [lo, hi) (NULL: no bound), drop repeats and the
 * keys of the subtracted layers (frontier_subtracted), into out. */
static int merge_range(const struct frontier_search *f, const struct runs *r,
                       const unsigned char *lo, const unsigned char *hi, struct fstream *out,
                       slide_error *err)
{
    size_t len = out->klen;
    struct bheap h = {0};
    const struct fstream *layer[2];
    struct fstream_cursor pc[2] = {{0}};
    const unsigned char *p[2] = {NULL, NULL};
    unsigned char *k = calloc(2, len), *last = k + len;
    int have_last = 0, rc, pgot[2] = {0, 0}, ns = frontier_subtracted(f, layer), opened = 0;
    if (!k) {
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for the merge");
        goto done;
    }
    if ((rc = heap_open(&h, r, len, lo, err)))
        goto done;
    for (; opened < ns; opened++) {
        if ((rc = fstream_cursor_open_bytes(&pc[opened], layer[opened], len, err)))
            goto done;
        pgot[opened] = lo ? fstream_cursor_seek_bytes(&pc[opened], lo, &p[opened], err)
                          : fstream_cursor_next_bytes(&pc[opened], &p[opened], err);
    }
    while (h.len && pgot[0] >= 0 && pgot[1] >= 0) {
        if (hi && memcmp(h.key[h.idx[0]], hi, len) >= 0)
            break;
        if (heap_pop(&h, k, err)) {
            rc = SLIDE_EFORMAT;
            break;
        }
        if (have_last && !memcmp(k, last, len))
            continue;
        memcpy(last, k, len);
        have_last = 1;
        if (in_layer(&pc[0], &p[0], &pgot[0], k, len, err) ||
            (ns > 1 && in_layer(&pc[1], &p[1], &pgot[1], k, len, err)))
            continue;
        if ((rc = fstream_append_bytes(out, k)))
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
    free(k);
    return rc;
}

/* Parts of a merge, as for rank keys (frontier.c). */
#define MERGE_PARTS 16

int fbytes_merge(const struct frontier_search *f, const struct runs *r, const char *dir,
                 int threads, const struct pass *pass, int join, struct fstream *out,
                 slide_error *err)
{
    size_t nb = pass->be - pass->bs, len = out->klen;
    int rc = SLIDE_OK, n = MERGE_PARTS;
    if (nb < 4 * MERGE_PARTS) {
        struct fstream one;
        if (!join)
            return merge_range(f, r, pass->blo, pass->bhi, out, err);
        if ((rc = fstream_open_bytes(&one, dir, len, err)))
            return rc;
        if ((rc = merge_range(f, r, pass->blo, pass->bhi, &one, err))) {
            fstream_close(&one);
            return rc;
        }
        return fstream_concat(out, &one, err);
    }
    /* the cuts: the first keys of evenly spaced blocks of the pass */
    unsigned char *cut = malloc((MERGE_PARTS + 1) * len);
    struct fstream part[MERGE_PARTS];
    if (!cut)
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for the merge");
    for (int i = 1; !rc && i < n; i++)
        rc = fbytes_block_first(&f->cur, pass->bs + (size_t)i * nb / (size_t)n, len,
                                cut + (size_t)i * len, err);
    for (int i = 0; !rc && i < n; i++)
        if ((rc = fstream_open_bytes(&part[i], dir, len, err)))
            while (i-- > 0)
                fstream_close(&part[i]);
    if (rc) {
        free(cut);
        return rc;
    }
    slide_error perr = {{0}};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int i = 0; i < n; i++) {
        slide_error e;
        int failed;
#pragma omp atomic read
        failed = rc;
        if (failed)
            continue;
        int prc = merge_range(f, r, i ? cut + (size_t)i * len : pass->blo,
                              i + 1 < n ? cut + (size_t)(i + 1) * len : pass->bhi, &part[i], &e);
        if (prc) {
#pragma omp critical(frontier_bytes_merge_error)
            if (!rc) {
                perr = e;
#pragma omp atomic write
                rc = prc;
            }
        }
    }
    free(cut);
    if (rc && err)
        *err = perr;
    for (int i = 0; i < n; i++)
        if (rc || (rc = fstream_concat(out, &part[i], err)))
            fstream_close(&part[i]);
    return rc;
}
