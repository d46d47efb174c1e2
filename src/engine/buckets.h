/*
 * buckets.h - the forward pass's targets, bucketed by the thread that will
 * mark them (bfs.c).  Internal to the engine layer.
 *
 * Representation.  A forward pass of a team of T > 1 threads alternates
 * two phases, separated by barriers:
 *   scan   threads take chunks of the store two at a time (next) and
 *          close their frontier; the only store writes are to the words
 *          being scanned (closing, and horizontal moves inside a word);
 *          every other target's bit position in the store (twice its
 *          index) goes to bucket (t, o) of the scanning thread t, where
 *          o = owner of the target's chunk (buckets_owner: a share of
 *          every 64 chunks);
 *   apply  thread o marks the targets of buckets (0..T-1, o), all in
 *          chunks it owns, and empties them.
 * Thread t takes its own chunks first, in increasing order (next[t]), and
 * then those of others not yet taken (next[o]; each chunk is taken once, by
 * an atomic add), in every pass of a team, forward or not (bfs.c,
 * team_scan): so the words t scans and writes are mostly those it marks.
 * So no word is ever written by two threads in one phase, and every store
 * is plain: no locked instruction per board.  A scanning thread asks for
 * an apply phase (apply = 1) when one of its buckets has less than
 * margin = words * BUCKETS_PER_WORD entries of room, checked before each
 * run of `words` words, which cannot send more than that to one bucket;
 * every thread joins at its next check, and at the end of the pass.
 *
 * Size: BUCKETS_BYTES in all, in T^2 buckets of cap entries, and words as
 * large as cap >= 2 margin allows, up to BUCKETS_WORDS (64 up to T = 11,
 * 62 at T = 16, 1 from T = 127 on); cap is at least 2 BUCKETS_PER_WORD,
 * so from T = 127 on the buckets take T^2 * 1056 bytes (69 MB at 256).
 *
 * Invariants: bucket (t, o) is written by t in scan phases and read and
 * emptied by o in apply phases; its entries are those before put[t][o],
 * at most cap of them; the barriers order the two.  cap >= 2 margin.
 * next[o] counts the ordinals of o's chunks taken so far in the pass (it
 * may pass the last one): each is taken by one thread.
 */
#ifndef SLIDE_ENGINE_BUCKETS_H
#define SLIDE_ENGINE_BUCKETS_H

#include <stddef.h>
#include <stdint.h>

/* The most targets one word sends to one bucket: two vertical moves per
 * entry and two neighbours across the word's ends. */
#define BUCKETS_PER_WORD (2 * 32 + 2)
/* The most words scanned between two checks for room. */
#define BUCKETS_WORDS 64
/* All buckets together (but see Size above). */
#define BUCKETS_BYTES (16u << 20)

struct buckets {
    int threads;            /* T the buckets were made for */
    size_t cap;             /* entries per bucket */
    unsigned words;         /* words scanned between two checks for room */
    size_t margin;          /* words * BUCKETS_PER_WORD */
    size_t stride;          /* T rounded up to 8: a row of put per line */
    uint64_t *mem;          /* bucket (t, o) at mem[(t * T + o) * cap] */
    size_t mapped;          /* bytes of mem (mmap) */
    uint64_t **put;         /* [t * stride + o]: next free entry of (t, o) */
    int apply;              /* 1: an apply phase is asked for (atomic) */
    uint64_t applies;       /* apply phases so far (thread 0 counts) */
    int finished;           /* threads done scanning this pass (atomic) */
    int64_t *next;          /* [o * 8]: o's next chunk to scan, by ordinal
                             * (buckets_chunk; atomic) */
};

/* Buckets for `threads` threads (1: none needed), sized as above, or with
 * small = 1 of 4 margins of BUCKETS_WORDS words each (16,896 entries), so
 * that apply phases come often, for tests.  Returns 0, or -1 when out of
 * memory (nothing held then). */
int buckets_init(struct buckets *bk, int threads, int small);
void buckets_free(struct buckets *bk);

/* Bucket (t, o). */
static inline uint64_t *buckets_at(const struct buckets *bk, int t, int o)
{
    return bk->mem + ((size_t)t * (size_t)bk->threads + (size_t)o) * bk->cap;
}

/* The thread of a team of T that owns chunk ch: chunks are owned in
 * stripes of 64 (256 KiB of store), thread o taking the o-th of T equal
 * runs of each stripe (some threads own none from T = 65 on).  A multiply
 * and a shift per target, where ch mod T took a multiply-high.  Any map
 * would be exact; the apply phases are balanced when every thread owns a
 * share of each region the frontier is in (not on stores of under 64
 * chunks, 1 MiB, where thread 0 owns the most: tiny boards). */
static inline unsigned buckets_owner(uint64_t ch, unsigned T)
{
    return (unsigned)(((ch & 63) * T) >> 6);
}

/* Chunk ordinal j of thread o of a team of T, in increasing chunk order:
 * o owns the chunks ch with ch mod 64 in [ceil(64 o / T), ceil(64 (o + 1)
 * / T)) (buckets_owner).  May be past the store's last chunk; UINT64_MAX
 * when o owns none (T > 64). */
static inline uint64_t buckets_chunk(uint64_t j, unsigned o, unsigned T)
{
    uint64_t lo = (64u * o + T - 1) / T, hi = (64u * (o + 1) + T - 1) / T;
    uint64_t len = hi - lo;
    return len ? (j / len) * 64 + lo + j % len : UINT64_MAX;
}

/* Entries in bucket (t, o). */
static inline size_t buckets_fill(const struct buckets *bk, int t, int o)
{
    return (size_t)(bk->put[(size_t)t * bk->stride + (size_t)o] - buckets_at(bk, t, o));
}

/* Whether one of thread t's buckets (of a team of `team`) has less than
 * margin entries of room. */
int buckets_full(const struct buckets *bk, int t, int team);

#endif
