/*
 * bfs_marking.h - how the two-bit BFS (bfs_kernel.h) marks a target:
 * unvisited (11) becomes frontier (10), once, counted by the one thread
 * that writes the target's word in that phase (so no locked instruction):
 * at once (a store in cache), queued and prefetched in batches (a thread
 * alone), or put in the bucket of the owner of the target's chunk (a team,
 * buckets.h) and marked in apply phases between barriers.  Targets wait as
 * bit positions 2e.  Internal to the kernel.
 */
#ifndef SLIDE_ENGINE_BFS_MARKING_H
#define SLIDE_ENGINE_BFS_MARKING_H

#include "bfs_kernel.h"

/* Say that chunk ch may now hold what `bit` stands for.  In any phase of a
 * pass one thread alone writes a chunk's flag byte (the one scanning it,
 * or in an apply phase its owner: buckets.h), so a plain store does;
 * checked first so that a flag byte, once set, is only read. */
static inline void flag_set(uint8_t *flags, uint64_t ch, uint8_t bit)
{
    uint8_t f = __atomic_load_n(&flags[ch], __ATOMIC_RELAXED);
    if (!(f & bit))
        __atomic_store_n(&flags[ch], (uint8_t)(f | bit), __ATOMIC_RELAXED);
}

/*
 * store_mark for a forward target: unvisited (11) becomes frontier (10).
 * The target is given by its bit position b = 2e in the store (e its
 * index), the form in which targets wait to be marked (pending, buckets):
 * word b / 64, shift b mod 64, which x86's bit instructions take from b
 * itself.  The thread marking it is the only one writing its word in this
 * phase (one thread, or the owner in an apply phase: buckets.h), so a
 * plain store does: no locked instruction.
 *
 * Without a branch: whether a target is still unvisited is close to a coin
 * toss in the middle layers, and a branch on it was mispredicted so often
 * that marking took 30 % of a 3x4 search (perf) for 16 % of its
 * instructions; the word is written back whether it changed or not (its
 * line is being read anyway).  Returns found plus 1 if e was marked.
 */
static inline uint64_t mark_target(uint64_t *words, uint64_t b, uint64_t found)
{
#if defined(__x86_64__) && defined(__GNUC__)
    /* both = v & v >> 1 has bit b set iff entry e is 11; the flip of bit b
     * (btc, offset mod 64) is kept when it is (cmovc), and adc counts it.
     * The word's address is formed in the load and the store themselves
     * (GCC would add a lea). */
    uint64_t q, v, both, flip;
    __asm__("mov %[b], %[q]\n\t"
            "shr $6, %[q]\n\t"
            "mov (%[words],%[q],8), %[v]\n\t"
            "mov %[v], %[both]\n\t"
            "shr $1, %[both]\n\t"
            "and %[v], %[both]\n\t"
            "mov %[v], %[flip]\n\t"
            "btc %[b], %[flip]\n\t"
            "bt %[b], %[both]\n\t"
            "cmovc %[flip], %[v]\n\t"
            "adc $0, %[found]\n\t"
            "mov %[v], (%[words],%[q],8)"
            : [q] "=&r"(q), [v] "=&r"(v), [both] "=&r"(both), [flip] "=&r"(flip),
              [found] "+r"(found)
            : [b] "r"(b), [words] "r"(words)
            : "cc", "memory");
#else
    uint64_t *p = &words[b >> 6];
    uint64_t v = __atomic_load_n(p, __ATOMIC_RELAXED);
    uint64_t x = ((v & (v >> 1)) >> (b & 63)) & 1u;
    __atomic_store_n(p, v ^ (x << (b & 63)), __ATOMIC_RELAXED); /* 11 -> 10 */
    found += x;
#endif
    return found;
}

/* mark_target, and the chunk's flag `bit` set if e was marked (a store to
 * the flag byte only when it changes: the threads of an apply phase own
 * different bytes of one line). */
static inline uint64_t mark_target_flag(uint64_t *words, uint8_t *flags, uint8_t bit,
                                        uint64_t b, uint64_t found)
{
    uint64_t now = mark_target(words, b, found);
    uint8_t *f = &flags[b >> (CHUNK_SHIFT + 1)];
    uint8_t old = __atomic_load_n(f, __ATOMIC_RELAXED);
    uint8_t nf = (uint8_t)(old | (bit & (uint8_t)(0u - (unsigned)(now - found))));
    if (nf != old)
        __atomic_store_n(f, nf, __ATOMIC_RELAXED);
    return now;
}

/* Mark the pending targets (prefetched when pushed).  The loop keeps its
 * count in a local: the worker's fields would be reloaded after every
 * store.  Inlined once per value of has_flag (w->mark_flag != 0), so the
 * loop of a pass without flags does not test the flag per target. */
static inline __attribute__((always_inline)) void
mark_list_f(struct worker *w, struct store *st, const uint64_t *list, size_t len,
            const size_t ahead, const int has_flag)
{
    uint64_t found = 0;
    uint8_t *flags = w->flags, bit = w->mark_flag;
    uint64_t *words = st->words; /* a local: the stores make st->words reload */
    size_t i = 0;
#define MARK_ONE(k)                                                            \
    do {                                                                       \
        if (ahead && i + (k) + ahead < len)                                    \
            __builtin_prefetch(&words[list[i + (k) + ahead] >> 6], 1, 0);      \
        if (has_flag)                                                          \
            found = mark_target_flag(words, flags, bit, list[i + (k)], found); \
        else                                                                   \
            found = mark_target(words, list[i + (k)], found);                  \
    } while (0)
    /* unrolled by hand, the list read at constant offsets: a target costs
     * 13 instructions, and GCC's unroll pragma added a pointer increment
     * to each (a flush has BATCH or more) */
    for (; i + 4 <= len; i += 4) {
        MARK_ONE(0);
        MARK_ONE(1);
        MARK_ONE(2);
        MARK_ONE(3);
    }
    for (; i < len; i++)
        MARK_ONE(0);
#undef MARK_ONE
    w->found += found;
}

static inline __attribute__((always_inline)) void
mark_list(struct worker *w, struct store *st, const uint64_t *list, size_t len,
          const size_t ahead)
{
    if (w->mark_flag)
        mark_list_f(w, st, list, len, ahead, 1);
    else
        mark_list_f(w, st, list, len, ahead, 0);
}

static void worker_flush(struct worker *w, struct store *st)
{
    mark_list(w, st, w->pending, (size_t)w->npending, 0);
    w->npending = 0;
}

/* Targets read ahead of the mark in an apply phase (its loop does little
 * else, so the cache misses need a long start): 3x4 with 2 threads took
 * 1.94, 1.89 and 1.84 s at 24, 48 and 96 (best of 4, alternated), 1.87 s
 * at 192. */
#define APPLY_AHEAD 96

/* Mark the len targets of list (not prefetched). */
static void worker_mark(struct worker *w, struct store *st, const uint64_t *list,
                        size_t len)
{
    mark_list(w, st, list, len, APPLY_AHEAD);
}

/* Mark the target of bit position b at once: a thread alone on a store
 * small enough to stay in its cache (push_own), where queueing and
 * prefetching would cost instructions and save no miss.  With a branch on
 * the entry: in cache, a target costs few cycles either way, and the
 * branch skips the store and the count of most targets of late layers. */
static inline void mark_now(struct worker *w, uint64_t *words, uint64_t b)
{
    uint64_t *p = &words[b >> 6];
    if ((~__atomic_load_n(p, __ATOMIC_RELAXED) >> (b & 63)) & 3u)
        return; /* not 11 */
    uint64_t v = __atomic_load_n(p, __ATOMIC_RELAXED);
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("btc %1, %0" : "+r"(v) : "r"(b) : "cc"); /* no and for b mod 64 */
#else
    v ^= 1ULL << (b & 63);
#endif
    __atomic_store_n(p, v, __ATOMIC_RELAXED); /* 11 -> 10 */
    w->found++;
    if (w->mark_flag)
        flag_set(w->flags, b >> (CHUNK_SHIFT + 1), w->mark_flag);
}

/* Where a forward scan puts its targets, a local of the scan (forward_words_c)
 * whose fields stay in registers: a field of w would be reloaded after every
 * store of a target.  Written back to w before a flush or an apply phase
 * and at the end of the words the caller scans. */
struct pushq {
    int n;              /* a thread alone: w->npending */
    uint64_t *q0, *q1;  /* a team of 2: w->bput[0], w->bput[1] */
    uint64_t *r;        /* a slice with others: w->rput */
    uint64_t lo2, span2;/* and w->lo2, w->span2 */
};

/* Queue the target of bit position b (2e, see mark_target) for marking by
 * this thread, prefetched (pf), or mark it now (no pf: a store small enough
 * for the cache).  There is room: the scan flushes before a word when
 * BATCH or more are pending (own_room), and a word pushes at most
 * PUSH_MAX. */

static inline void push_own(struct worker *w, uint64_t *words, uint64_t b,
                            struct pushq *np, const int pf)
{
    if (!pf) { /* a store in cache: marked now (mark_now) */
        mark_now(w, words, b);
        return;
    }
    __builtin_prefetch(&words[b >> 6], 1, 0);
    w->pending[np->n++] = b;
}

/* Before the targets of a word of a thread alone: mark the pending ones
 * when there are BATCH or more, so the word's fit (one test per word, not
 * one per target). */
static inline void own_room(struct worker *w, struct store *st, struct pushq *np)
{
    if (np->n >= BATCH) {
        w->npending = np->n;
        worker_flush(w, st);
        np->n = 0;
    }
}

/* The target of bit position b (2e) of a forward pass: marked by this
 * thread when it is alone (shared 0), else put in the bucket of the owner
 * of e's chunk: shared 2 for a team of 2, whose two put pointers stay in
 * registers (np; the owner is bit 5 of the chunk number, and the pointer
 * is picked and both advanced without a branch), shared 1 for any team,
 * through w->bput.  Through w->bput, each target's put waited for the
 * last one's store to the same pointer: 3x4 took 2.39 s with 2 threads
 * against 2.18 s in registers (best of 4, alternated).  remote 1 (a slice
 * of the distributed search with other slices): a target outside the
 * slice goes to this thread's remote buffer instead (one compare). */
static inline __attribute__((always_inline)) void
worker_push_bit(struct worker *w, uint64_t *words, uint64_t b, struct pushq *np,
                const int shared, const int pf, const int remote)
{
    if (remote && b - np->lo2 >= np->span2) {
        *np->r++ = b;
        return;
    }
    if (shared == 2) {
        uint64_t o = buckets_owner(b >> (CHUNK_SHIFT + 1), 2); /* a shift and an and */
        uint64_t *q0 = np->q0, *q1 = np->q1;
        uint64_t *q = o ? q1 : q0;
        *q = b;
        np->q0 = q0 + (1 - o);
        np->q1 = q1 + o;
        return;
    }
    if (shared) {
        uint64_t **put =
            &w->bput[buckets_owner(b >> (CHUNK_SHIFT + 1), (unsigned)w->team)];
        *(*put)++ = b;
        return;
    }
    push_own(w, words, b, np, pf);
}

/* Target e of a forward pass (worker_push_bit). */
static inline __attribute__((always_inline)) void
worker_push(struct worker *w, uint64_t *words, uint64_t e, struct pushq *np, const int shared,
            const int pf, const int remote)
{
    worker_push_bit(w, words, 2 * e, np, shared, pf, remote);
}

/* MTM's marking of a list (below). */
static void mark_list_mtm(struct worker *w, struct store *st, const uint64_t *list,
                          size_t len, size_t ahead);

/* An apply phase (buckets.h): every thread of the team calls it, the same
 * number of times in a pass.  Between the barriers no one scans, and this
 * thread marks the targets every thread put in its buckets, all in chunks
 * it owns. */
static __attribute__((noinline)) void worker_apply(struct worker *w, struct store *st)
{
    struct buckets *bk = w->bk;
#pragma omp barrier
    if (w->me == 0) { /* every thread has seen the request: it is served */
        __atomic_store_n(&bk->apply, 0, __ATOMIC_RELAXED);
        bk->applies++;
    }
    /* (a team's worker has nothing pending: its targets go to buckets) */
    for (int t = 0; t < w->team; t++) {
        uint64_t *b = buckets_at(bk, t, w->me);
        if (w->mtm)
            mark_list_mtm(w, st, b, buckets_fill(bk, t, w->me), APPLY_AHEAD);
        else
            worker_mark(w, st, b, buckets_fill(bk, t, w->me));
        bk->put[(size_t)t * bk->stride + (size_t)w->me] = b;
    }
#pragma omp barrier
}

/* Before scanning bk->words more words: join an apply phase if one was
 * asked for, or ask for one if a bucket of this thread may not have room
 * for what those words send. */
static __attribute__((noinline)) void worker_check(struct worker *w, struct store *st)
{
    struct buckets *bk = w->bk;
    if (__atomic_load_n(&bk->apply, __ATOMIC_RELAXED) ||
        buckets_full(bk, w->me, w->team)) {
        __atomic_store_n(&bk->apply, 1, __ATOMIC_RELAXED);
        worker_apply(w, st);
    }
}

/*
 * The multi-tile metric's marking (bfs_moves.h): a target becomes 01 (next
 * layer), not 10, since an MTM move may join two boards of one layer; the
 * frontier stays 10 until the close pass.  Functions of their own, so that
 * the single-tile ones above are compiled as before.
 */

/* mark_target for MTM: unvisited (11) becomes 01.  Returns found plus 1 if
 * e (at bit position b = 2e) was marked. */
static inline uint64_t mark_target_mtm(uint64_t *words, uint64_t b, uint64_t found)
{
    uint64_t *p = &words[b >> 6];
    uint64_t v = __atomic_load_n(p, __ATOMIC_RELAXED);
    uint64_t x = ((v & (v >> 1)) >> (b & 63)) & 1u;
    __atomic_store_n(p, v ^ (x << ((b & 63) + 1)), __ATOMIC_RELAXED); /* 11 -> 01 */
    return found + x;
}

/* Mark the len targets of list (bit positions) for MTM, ahead of them
 * prefetched, setting w->mark_flag on the chunk of each marked one. */
static void mark_list_mtm(struct worker *w, struct store *st, const uint64_t *list,
                          size_t len, size_t ahead)
{
    uint64_t found = 0, *words = st->words;
    for (size_t i = 0; i < len; i++) {
        if (ahead && i + ahead < len)
            __builtin_prefetch(&words[list[i + ahead] >> 6], 1, 0);
        uint64_t now = mark_target_mtm(words, list[i], found);
        if (now != found && w->mark_flag)
            flag_set(w->flags, list[i] >> (CHUNK_SHIFT + 1), w->mark_flag);
        found = now;
    }
    w->found += found;
}

static __attribute__((noinline)) void worker_flush_mtm(struct worker *w, struct store *st)
{
    mark_list_mtm(w, st, w->pend_mtm, (size_t)w->npending, 0);
    w->npending = 0;
}

/* own_room for MTM. */
static inline void own_room_mtm(struct worker *w, struct store *st, struct pushq *np)
{
    if (np->n >= BATCH) {
        w->npending = np->n;
        worker_flush_mtm(w, st);
        np->n = 0;
    }
}

/* worker_push for MTM: the target e is this thread's to mark (alone, and
 * inside its slice) now or queued, or goes to a bucket or the remote buffer
 * as in worker_push_bit (which then never marks it itself). */
static inline __attribute__((always_inline)) void
worker_push_mtm(struct worker *w, uint64_t *words, uint64_t e, struct pushq *np,
                const int shared, const int pf, const int remote)
{
    uint64_t b = 2 * e;
    if (shared || (remote && b - np->lo2 >= np->span2)) {
        worker_push_bit(w, words, b, np, shared, pf, remote);
        return;
    }
    if (pf) {
        __builtin_prefetch(&words[b >> 6], 1, 0);
        w->pend_mtm[np->n++] = b;
        return;
    }
    uint64_t found = mark_target_mtm(words, b, 0);
    w->found += found;
    if (found && w->mark_flag)
        flag_set(w->flags, b >> (CHUNK_SHIFT + 1), w->mark_flag);
}

#endif
