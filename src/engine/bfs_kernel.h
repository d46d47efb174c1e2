/*
 * bfs_kernel.h - what every part of the two-bit BFS kernel (bfs.c,
 * bfs_slice.c) shares: the chunk and batch constants, the per-word masks,
 * a thread's state (struct worker), a slice's state between calls (struct
 * slice) and the tables of a search.  Internal to the engine layer; its
 * hot functions are static inline and the kernel's headers are included
 * in this order by the kernel's compilation units only:
 *
 *   bfs_kernel.h    constants, masks, struct worker / slice / tables
 *   bfs_cursor.h    where a thread stands: block, tile sequence, digits
 *   bfs_marking.h   how a target is marked, batched, bucketed, prefetched
 *   bfs_moves.h     which boards are one move away (the move set)
 *   bfs_scan.h      one pass over the words of a chunk, forward, backward
 *                   or closing
 *   bfs_passes.h    chunks, flags, teams, threads, stopping: one pass
 *   bfs_layer.h     what a layer needs: tables, direction, first boards
 *
 * Representation: the store (store.h) holds two bits per index e, at bit
 * positions 2e and 2e + 1 of word e / 32: 11 unvisited, 10 frontier, 0b
 * closed (b: a depth bit).  A word's first entry is (block h0, blank z0),
 * z0 its phase; entry k of it is (h0 + zq[z0 + k], zr[z0 + k]).
 */
#ifndef SLIDE_ENGINE_BFS_KERNEL_H
#define SLIDE_ENGINE_BFS_KERNEL_H

#include "slide/bfs.h"

#include "bfs_slice.h"
#include "buckets.h"
#include "move_tables.h"

#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSSE3__)
#include <tmmintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Words per chunk, the unit of scheduling and of the flags: 4 KiB of store,
 * 16384 entries, so the flags of a 10.9 GB store (2.7 MB) stay in cache. */
#define CHUNK_WORDS 512
#define CHUNK_SHIFT 14 /* log2 of the entries per chunk */
/* Chunk flag bits: may hold frontier / unvisited entries of colour c. */
#define FLAG_FRONTIER(c) ((uint8_t)(1u << (c)))
#define FLAG_UNVISITED(c) ((uint8_t)(4u << (c)))
#define FLAG_ALL ((uint8_t)0xf)
/* Neighbour indexes prefetched before they are marked (memory-level
 * parallelism: a locked fetch_and waits for its cache miss, a prefetch
 * does not, so the misses of a whole batch overlap). */
#define BATCH 64
/* Most targets one word pushes: two vertical moves per entry, and the two
 * horizontal neighbours across its ends. */
#define PUSH_MAX (2 * STORE_ENTRIES_PER_WORD + 2)
/* The same in the multi-tile metric (bfs_moves.h): at most rows - 1
 * vertical jumps per entry, and k entries across each end for each
 * horizontal jump of k = 1 .. cols - 1 cells, over every shape of at most
 * SPACE_MAX_CELLS cells (push_max_mtm gives a board's own). */
#define PUSH_MAX_MTM ((SPACE_MAX_CELLS - 1) * STORE_ENTRIES_PER_WORD + \
                      SPACE_MAX_CELLS * (SPACE_MAX_CELLS - 1))
/* A thread alone on a store of more words than this (2 MiB) queues its
 * targets and prefetches them (push_own; or on any store with
 * bfs_options.queue); a smaller store stays in the thread's L2 or L3
 * cache, where a prefetch saves no miss and the queue only adds
 * instructions, so its targets are marked at once (on 2x5 about 2
 * instructions fewer per target, callgrind). */
#ifndef PREFETCH_MIN_WORDS /* -DPREFETCH_MIN_WORDS=0: queue on every store */
#define PREFETCH_MIN_WORDS (1u << 18)
#endif
/* Lex ranks to advance incrementally before unranking from scratch. */
#define MAX_JUMP 5040


/*
 * Per-word masks by phase = (index of the word's first entry) mod n: bit 2k
 * set when entry k of such a word has colour 0 / has a left / a right
 * neighbour.  They let a word's horizontal moves be done with shifts.
 */
struct masks {
    uint64_t colour0[SPACE_MAX_CELLS];
    uint64_t left[SPACE_MAX_CELLS];
    uint64_t right[SPACE_MAX_CELLS];
    /* entry k of a word of phase p is (block + zq[p + k], blank zr[p + k]) */
    uint8_t zq[SPACE_MAX_CELLS + STORE_ENTRIES_PER_WORD];
    uint8_t zr[SPACE_MAX_CELLS + STORE_ENTRIES_PER_WORD];
    uint8_t need[SPACE_MAX_CELLS]; /* parity of t at z, 0 without pairs */
    uint64_t ninv; /* ceil(2^64 / 2n), for word_first */
    /* The vertical moves of a word of phase p, one bit each: bit
     * i = 2k + dir of vmove[p] is set when entry k has a move in direction
     * dir (0 up, 1 down), and vent[p] says which: zm[i] the move's index
     * ZMOVE(dir, z) in struct window, q[i] the entry's block offset in the
     * word, zt2[i] twice the blank cell after the move (targets wait as bit
     * positions, see mark_target).  (fm | fm << 1) & vmove[p] are then the
     * moves of the frontier entries fm, both directions in one loop; the
     * three arrays are read at one base plus the bit index. */
    uint64_t vmove[SPACE_MAX_CELLS];
    struct vent {
        uint8_t zm[2 * STORE_ENTRIES_PER_WORD];
        uint8_t q[2 * STORE_ENTRIES_PER_WORD];
        uint8_t zt2[2 * STORE_ENTRIES_PER_WORD];
    } vent[SPACE_MAX_CELLS];
    /* The multi-tile metric's horizontal jumps (bfs_moves.h): bit 2k of
     * jleft[j][p] / jright[j][p] set when entry k of a word of phase p
     * can jump j cells left / right in its row (j = 1 .. cols - 1). */
    uint64_t jleft[SPACE_MAX_CELLS][SPACE_MAX_CELLS];
    uint64_t jright[SPACE_MAX_CELLS][SPACE_MAX_CELLS];
};

static void masks_init(struct masks *mk, const struct space *s)
{
    memset(mk, 0, sizeof *mk);
    int pair = s->kind == SPACE_COMPACT && s->m >= 2;
    for (int k = 0; k < s->n + STORE_ENTRIES_PER_WORD; k++) {
        mk->zq[k] = (uint8_t)(k / s->n);
        mk->zr[k] = (uint8_t)(k % s->n);
    }
    for (int z = 0; z < s->n; z++)
        mk->need[z] = pair ? s->need_parity[z] : 0;
    mk->ninv = UINT64_MAX / (2 * (uint64_t)s->n) + 1;
    for (int p = 0; p < s->n; p++)
        for (int k = 0; k < STORE_ENTRIES_PER_WORD; k++) {
            int z = (p + k) % s->n, col = z % s->cols;
            uint64_t bit = 1ULL << (2 * k);
            if (s->colour[z] == 0)
                mk->colour0[p] |= bit;
            if (col > 0)
                mk->left[p] |= bit;
            if (col < s->cols - 1)
                mk->right[p] |= bit;
            for (int j = 1; j < s->cols; j++) {
                if (col >= j)
                    mk->jleft[j][p] |= bit;
                if (col + j < s->cols)
                    mk->jright[j][p] |= bit;
            }
            for (int dir = 0; dir < 2; dir++) {
                int zt = dir ? z + s->cols : z - s->cols;
                if (zt < 0 || zt >= s->n)
                    continue;
                mk->vmove[p] |= bit << dir;
                struct vent *v = &mk->vent[p];
                v->zm[2 * k + dir] = (uint8_t)ZMOVE(dir, z);
                v->q[2 * k + dir] = (uint8_t)((p + k) / s->n);
                v->zt2[2 * k + dir] = (uint8_t)(2 * zt);
            }
        }
}

/* Targets one word of space s may push in the multi-tile metric: rows - 1
 * vertical jumps per entry, and sum over j = 1..cols-1 of 2j across the
 * word's ends (at most PUSH_MAX_MTM). */
static inline unsigned push_max_mtm(const struct space *s)
{
    return (unsigned)((s->rows - 1) * STORE_ENTRIES_PER_WORD + s->cols * (s->cols - 1));
}

struct worker {
    const struct space *s;
    const struct masks *mk;
    const struct tail *tail;
    const struct vtab *vt;
    const struct wtab *wt;
    struct window *win;             /* tables of the window in use */
    int windows;                    /* 1: vertical moves by window tables */
    uint64_t win_w0, win_nw;        /* words [win_w0, + win_nw) lie in win */
    const uint8_t *zq, *zr, *need;  /* from masks */
    uint64_t h;                     /* block in base; UINT64_MAX: none */
    int lex_shift;                  /* lex of block h's base is h << lex_shift */
    unsigned tail_rows;             /* tail->rows when the tail is TAIL_MAX long, else 0 */
    struct perm base;               /* lexicographically first t of block h */
    struct perm other;              /* with pairs: base with the last two swapped */
    int base_parity;
    uint8_t tail_set[16];           /* tiles of base's tail, increasing */
    unsigned tail_r;                /* base.lex mod tail->rows */
    uint8_t *flags;                 /* chunk flags (one byte per chunk) */
    uint8_t mark_flag;              /* flag set on a chunk gaining frontier */
    /* neighbours prefetched, not yet marked: flushed when BATCH or more
     * before a word, so a word's targets (PUSH_MAX) always fit */
    uint64_t pending[BATCH + PUSH_MAX];
    int npending;                   /* entries of pending (or of pend_mtm) */
    int me, team;                   /* thread number; team > 1: buckets */
    int queue;                      /* alone: queue and prefetch targets */
    struct buckets *bk;
    uint64_t **bput;                /* this thread's buckets: o's next entry */
    int64_t *next;                  /* chunk counters by owner (team_take) */
    uint64_t found;                 /* boards this thread marked first */
    /* a slice of the distributed search (bfs_slice.h); in bfs_run sl is
     * NULL, the slice the whole store and no target remote */
    struct slice *sl;
    uint64_t wlo, ch_lo;            /* the slice's first word and chunk */
    uint64_t lo2, span2;            /* its entries as bit positions [lo2, lo2 + span2) */
    uint64_t *rbase, *rput;         /* this thread's remote buffer, its next entry */
    unsigned check_words;           /* words between two checks of its room */
    uint64_t stop_wi;               /* the word a scan stopped before (NO_STOP: none) */
    /* the multi-tile metric (bfs_moves.h): 1 in its search, whose scans
     * are instantiations of their own (mtm a constant there) */
    int mtm;
    unsigned mtm_words;             /* words between two bucket checks in MTM */
    /* MTM's pending (BATCH + PUSH_MAX_MTM entries): a word may push more */
    uint64_t *pend_mtm;
};

/* stop_wi of a worker whose scan did not stop */
#define NO_STOP UINT64_MAX

/* A chunk a stopped pass left unfinished: its words from wi on remain. */
struct resume {
    uint64_t ch, wi;
};

/*
 * The distributed search's state of one slice (bfs_slice.h) between the
 * calls of a layer.  A pass stops when a thread's remote buffer has less
 * than margin entries of room (checked every check_words words, which
 * cannot put more than that in it: two vertical neighbours per entry, or
 * two queries of two entries each backward, and the two horizontal
 * neighbours across a word's ends, which never leave a slice).  Chunks
 * are taken from counters by owner as in a team's pass (team_take); the
 * chunks taken but left unfinished are in saved (at most two per thread:
 * the one it stopped in and the other of the pair it took) and are done
 * first when the pass goes on (todo).
 */
struct slice {
    uint64_t lo, hi, wlo, whi, ch_lo, ch_end;
    size_t per_word;                /* remote entries one word may add */
    int remote, queue;
    size_t cap, margin;             /* remote entries per thread; room to keep */
    unsigned check_words;
    uint64_t *rmem;                 /* thread t's buffer at rmem + t * cap */
    uint64_t **rput;                /* [t]: next free entry */
    int stop;                       /* a thread is short of room (atomic) */
    int64_t *next;                  /* [o * 8]: o's next chunk ordinal (atomic) */
    struct resume *saved, *todo;
    int nsaved, ntodo, todo_next;   /* atomic while a pass runs */
    int cap_saved;
};

/* Everything a pass reads besides the store, built once per search. */
struct tables {
    int mtm;           /* the multi-tile metric (bfs_options.metric) */
    unsigned mtm_words;/* words a team scans between bucket checks in MTM */
    struct masks mk;
    struct tail tail;
    struct vtab vt;
    struct wtab wt;
    struct buckets bk; /* the forward passes' targets, by owner */
    int queue;         /* a thread alone queues its targets (bfs_options) */
};

#endif
