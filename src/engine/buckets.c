/*
 * buckets.c - targets bucketed by the thread that marks them (buckets.h).
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE, MADV_HUGEPAGE */
#include "buckets.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The buckets' memory, in huge pages where the kernel gives them (as the
 * store's): from malloc, in 4 KiB pages, a 2-thread 3x4 search took 3,696
 * page faults against 1,469 (955 with one thread), and 1.79 s against
 * 1.75 s (best of 3, alternated). */
static uint64_t *buckets_map(size_t bytes, size_t *mapped)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    *mapped = bytes;
    return p;
}

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
    bk->mem = buckets_map(n * cap * sizeof *bk->mem, &bk->mapped);
    /* each thread's row of put pointers on cache lines of its own: a row
     * is written at every target its thread sends */
    bk->put = aligned_alloc(64, T * bk->stride * sizeof *bk->put);
    /* next[o] on a line of its own: o adds to it every two chunks */
    bk->next = aligned_alloc(64, T * 8 * sizeof *bk->next);
    if (!bk->mem || !bk->put || !bk->next) {
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
    if (bk->mem)
        munmap(bk->mem, bk->mapped);
    free(bk->put);
    free(bk->next);
    memset(bk, 0, sizeof *bk);
}

int buckets_full(const struct buckets *bk, int t, int team)
{
    for (int o = 0; o < team; o++)
        if (bk->cap - buckets_fill(bk, t, o) < bk->margin)
            return 1;
    return 0;
}
