/*
 * buckets.c - targets bucketed by the thread that marks them (buckets.h).
 */
#include "buckets.h"

#include <stdlib.h>
#include <string.h>

int buckets_init(struct buckets *bk, int threads, int small)
{
    memset(bk, 0, sizeof *bk);
    bk->threads = threads;
    if (threads < 2)
        return 0; /* one thread marks every target itself */
    size_t T = (size_t)threads, n = T * T;
    size_t cap = BUCKETS_BYTES / (n * sizeof *bk->mem);
    if (small)
        cap = 4 * (size_t)BUCKETS_WORDS * BUCKETS_PER_WORD;
    if (cap < 2 * (size_t)BUCKETS_PER_WORD)
        cap = 2 * (size_t)BUCKETS_PER_WORD;
    size_t words = cap / (2 * (size_t)BUCKETS_PER_WORD);
    bk->words = words < BUCKETS_WORDS ? (unsigned)words : BUCKETS_WORDS;
    bk->margin = (size_t)bk->words * BUCKETS_PER_WORD;
    bk->cap = cap;
    bk->stride = (T + 7) & ~(size_t)7;
    bk->mem = malloc(n * cap * sizeof *bk->mem);
    /* each thread's row of put pointers on cache lines of its own: a row
     * is written at every target its thread sends */
    bk->put = aligned_alloc(64, T * bk->stride * sizeof *bk->put);
    if (!bk->mem || !bk->put) {
        buckets_free(bk);
        return -1;
    }
    for (size_t t = 0; t < T; t++)
        for (size_t o = 0; o < T; o++)
            bk->put[t * bk->stride + o] = buckets_at(bk, (int)t, (int)o);
    return 0;
}

void buckets_free(struct buckets *bk)
{
    free(bk->mem);
    free(bk->put);
    memset(bk, 0, sizeof *bk);
}

int buckets_full(const struct buckets *bk, int t, int team)
{
    for (int o = 0; o < team; o++)
        if (bk->cap - buckets_fill(bk, t, o) < bk->margin)
            return 1;
    return 0;
}
