/*
 * store.h - a packed array of two-bit entries, one per index of a space.
 *
 * Representation: entry i lives in words[i / 32], bits 2*(i % 32) (low) and
 * 2*(i % 32) + 1 (high).  During a two-bit BFS the values mean
 *     11 unvisited    10 frontier    00 closed, floor(d/2) even
 *                                    01 closed, floor(d/2) odd
 * (d = distance).  Padding entries past `size` in the last word are 11 and
 * are never scanned.  Concurrent updates use atomic word operations: marking
 * (11 -> 10) clears one bit with fetch_and (store_mark), closing (10 -> 0b)
 * flips bits with fetch_xor, so writers to different entries of one word
 * never lose each other's updates.  (The BFS's backward and closing passes,
 * in which only the thread scanning a word writes it, store whole words.)
 */
#ifndef SLIDE_STORE_H
#define SLIDE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "slide/error.h"

enum {
    STORE_CLOSED_EVEN = 0,
    STORE_CLOSED_ODD = 1,
    STORE_FRONTIER = 2,
    STORE_UNVISITED = 3
};

#define STORE_ENTRIES_PER_WORD 32
/* Bit k*2 set for every entry k of a word: selects the low bits. */
#define STORE_LOW_BITS 0x5555555555555555ULL

struct store {
    uint64_t *words;
    uint64_t size;   /* entries */
    uint64_t nwords;
    size_t bytes;    /* mapped bytes (a multiple of the page size) */
};

/* Bytes a store of `entries` entries occupies. */
uint64_t store_bytes_needed(uint64_t entries);

/*
 * Memory that may be used: MemAvailable from /proc/meminfo, or limit if it
 * is non-zero and smaller.  0 when neither is known.
 */
uint64_t store_memory_available(uint64_t limit);

/*
 * Refuse, before allocating anything, a need of `bytes` above what
 * store_memory_available(limit) allows.  what describes the job for the
 * message ("a 3x5 board at 2 bits per board").  Errors: SLIDE_ENOMEM naming
 * both figures.
 */
int store_check_memory(uint64_t bytes, uint64_t limit, const char *what,
                       slide_error *err);

/*
 * Allocate a store of `entries` entries, every one 11 (unvisited); large
 * stores are backed by transparent huge pages where the kernel offers them.
 * Errors: SLIDE_ENOMEM.
 */
int store_alloc(struct store *st, uint64_t entries, slide_error *err);

/* Release the memory (st may be zeroed). */
void store_free(struct store *st);

/* Set every entry to v (0..3), in parallel. */
void store_fill(struct store *st, unsigned v);

static inline unsigned store_get(const struct store *st, uint64_t i)
{
    uint64_t w = __atomic_load_n(&st->words[i >> 5], __ATOMIC_RELAXED);
    return (unsigned)(w >> ((i & 31) * 2)) & 3u;
}

/* Set entry i to v atomically with respect to other entries of the word. */
static inline void store_set(struct store *st, uint64_t i, unsigned v)
{
    unsigned sh = (unsigned)(i & 31) * 2;
    uint64_t *p = &st->words[i >> 5];
    uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
    do {
        want = (old & ~(3ULL << sh)) | ((uint64_t)v << sh);
    } while (!__atomic_compare_exchange_n(p, &old, want, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
}

/*
 * Turn entry i from unvisited into frontier.  Returns 1 if this call did it,
 * 0 if the entry was already visited or another thread won.  Entries that
 * are closed or frontier are never changed.
 */
static inline int store_mark(struct store *st, uint64_t i)
{
    unsigned sh = (unsigned)(i & 31) * 2;
    uint64_t *p = &st->words[i >> 5];
    if (((__atomic_load_n(p, __ATOMIC_RELAXED) >> sh) & 3u) != STORE_UNVISITED)
        return 0;
    uint64_t old = __atomic_fetch_and(p, ~(1ULL << sh), __ATOMIC_RELAXED);
    return ((old >> sh) & 3u) == STORE_UNVISITED;
}

/* Count the entries equal to v (0..3), in parallel. */
uint64_t store_count(const struct store *st, unsigned v);

#endif
