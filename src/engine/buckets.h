/*
 * buckets.h - the forward pass's targets, bucketed by the thread that will
 * mark them (bfs.c).  Internal to the engine layer.
 *
 * Representation.  A forward pass of a team of T > 1 threads alternates
 * two phases, separated by barriers:
 *   scan   threads take chunks of the store dynamically and close their
 *          frontier; the only store writes are to the words being scanned
 *          (closing, and horizontal moves inside a word); every other
 *          target's index goes to bucket (t, o) of the scanning thread t,
 *          where o = owner of the target's chunk (ch mod T);
 *   apply  thread o marks the targets of buckets (0..T-1, o), all in
 *          chunks it owns, and empties them.
 * So no word is ever written by two threads in one phase, and every store
 * is plain: no locked instruction per board.  A scanning thread asks for
 * an apply phase (apply = 1) when one of its buckets has less than
 * BUCKETS_MARGIN entries of room, checked before each run of
 * BUCKETS_WORDS words, which cannot produce more than that; every thread
 * joins at its next check, and at the end of the pass.
 *
 * Invariants: bucket (t, o) is written by t in scan phases and read and
 * emptied by o in apply phases; fill[t][o] <= cap always; the barriers
 * order the two.  cap >= 4 BUCKETS_MARGIN.
 */
#ifndef SLIDE_ENGINE_BUCKETS_H
#define SLIDE_ENGINE_BUCKETS_H

#include <stddef.h>
#include <stdint.h>

/* Words scanned between two checks for room, and the most targets they can
 * send to one bucket: two vertical moves per entry and two neighbours
 * across a word's ends per word. */
#define BUCKETS_WORDS 64
#define BUCKETS_MARGIN (BUCKETS_WORDS * (2 * 32 + 2))
/* All buckets together, unless that leaves less than 4 margins each. */
#define BUCKETS_BYTES (16u << 20)

struct buckets {
    int threads;            /* T the buckets were made for */
    size_t cap;             /* entries per bucket */
    size_t stride;          /* T rounded up to 8: a row of fill per line */
    uint64_t *mem;          /* bucket (t, o) at mem[(t * T + o) * cap] */
    size_t *fill;           /* [t * stride + o] */
    int apply;              /* 1: an apply phase is asked for (atomic) */
    uint64_t applies;       /* apply phases so far (thread 0 counts) */
    int finished;           /* threads done scanning this pass (atomic) */
    int64_t next;           /* next chunk to scan (atomic) */
};

/* Buckets for `threads` threads (1: none needed): BUCKETS_BYTES in all, or
 * with small = 1 the smallest allowed (4 BUCKETS_MARGIN entries each), for
 * tests.  Returns 0, or -1 when out of memory (nothing held then). */
int buckets_init(struct buckets *bk, int threads, int small);
void buckets_free(struct buckets *bk);

/* Bucket (t, o). */
static inline uint64_t *buckets_at(const struct buckets *bk, int t, int o)
{
    return bk->mem + ((size_t)t * (size_t)bk->threads + (size_t)o) * bk->cap;
}

/* Whether one of thread t's buckets (of a team of `team`) has less than
 * BUCKETS_MARGIN entries of room. */
int buckets_full(const struct buckets *bk, int t, int team);

#endif
