/*
 * bfs.c - the layered two-bit BFS (bfs.h).
 *
 * Each layer is one parallel pass over the store's words, forward (the
 * frontier marks its unvisited neighbours) or backward (unvisited boards
 * look for a frontier neighbour).  Horizontal neighbours are e +- 1, done
 * on whole words by masks; vertical ones come from the move tables
 * (move_tables.h).  In dense layers a thread reads a neighbour's index from
 * the tables of the window it is in (window_set, vertical_window_c: one
 * loop per word over the moves of both directions, masks.vmove); in sparse
 * ones it keeps the tile sequence t and Lehmer digits of the last block it
 * decoded (worker.base), advances them to nearby blocks by the tail table
 * or mixed-radix addition (frontier entries are met in increasing index
 * order within a chunk), and updates the C digits a vertical move changes
 * (vmove_lex).
 *
 * No store of a pass is locked.  Backward and close passes write only the
 * word being scanned.  A forward pass of one thread marks its targets
 * itself: at once when the store is small enough for the cache (mark_now),
 * else prefetched when computed and marked in batches of BATCH or more
 * (own_room); a forward pass of several puts every target outside the
 * word being scanned in a bucket for the owner of the target's chunk, and
 * the owners mark them in apply phases between barriers (buckets.h),
 * reading ahead of the marks; the threads of a team scan the chunks they
 * own first (team_scan).  A target waits as its bit position in the
 * store, twice its index (mark_target).  Words without work are skipped
 * by a loop of their own (next_word), without stepping (block, blank)
 * along: word_first finds a word's first entry by a multiply-high.
 *
 * A byte of flags per chunk of the store says which chunks may hold
 * frontier entries of each colour and unvisited entries of each colour;
 * a pass skips the chunks that cannot matter to it.  The first and last
 * few dozen layers of a big board touch a tiny share of the chunks, and
 * without the flags each of them would still read the whole store (about
 * 4 s per layer for the 10.9 GB of 2x7).  Flags are only ever conservative
 * (set when in doubt, cleared by the thread that just processed the chunk),
 * so the result cannot depend on them.
 *
 * The distributed search (bfs_mpi.c) runs these same passes over one slice
 * of the index space per process (bfs_slice.h, at the end of this file):
 * the passes address the slice by global word and chunk numbers; a target
 * outside the slice goes to the thread's remote buffer (one compare per
 * target, in instantiations of the forward scan of their own, so that
 * bfs_run's are unchanged), and a pass can stop at a word boundary when a
 * buffer runs short of room and go on where it stopped.
 */
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
    int npending;
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
    struct masks mk;
    struct tail tail;
    struct vtab vt;
    struct wtab wt;
    struct buckets bk; /* the forward passes' targets, by owner */
    int queue;         /* a thread alone queues its targets (bfs_options) */
};


/* Re-read the tail of w->base after a move that was not by the table. */
static void tail_load(struct worker *w)
{
    const struct tail *tl = w->tail;
    int b = w->s->m - tl->k;
    uint32_t set = 0;
    for (int j = b; j < w->s->m; j++)
        set |= 1u << w->base.t[j];
    for (int j = 0; j < tl->k; j++) {
        w->tail_set[j] = (uint8_t)__builtin_ctz(set);
        set &= set - 1;
    }
    w->tail_r = (unsigned)(w->base.lex % tl->rows);
}

/* Write the TAIL_MAX tail tiles of row r of the tail table into p. */
static inline void tail_tiles(const struct worker *w, struct perm *p, unsigned r)
{
    const struct tail *tl = w->tail;
    int b = w->s->m - TAIL_MAX;
#if defined(__SSSE3__)
    /* one byte shuffle; the 3 bytes past m become 0 (slack) */
    __m128i set = _mm_loadl_epi64((const __m128i *)w->tail_set);
    __m128i ctl = _mm_loadl_epi64((const __m128i *)&tl->pick8[r]);
    _mm_storel_epi64((__m128i *)&p->t[b], _mm_shuffle_epi8(set, ctl));
#else
#pragma GCC unroll 8
    for (int j = 0; j < TAIL_MAX; j++)
        p->t[b + j] = w->tail_set[tl->pick[r][j]];
#endif
}

/* Move w->base from block w->h to block h of the same tail window (h > w->h,
 * r = tail row of h's lex): only the tail changes, by one row of the tail
 * table (k tile reads, one 8-byte digit store). */
static inline void worker_tail_step(struct worker *w, uint64_t h, unsigned r)
{
    const struct tail *tl = w->tail;
    int b = w->s->m - TAIL_MAX; /* tail_rows != 0: the tail is TAIL_MAX long */
    /* little-endian byte order: one 8-byte store writes the k digits and
     * zeroes slack bytes past m, which no one reads */
    memcpy(&w->base.d[b], &tl->digit8[r], sizeof tl->digit8[r]);
    tail_tiles(w, &w->base, r);
    w->base.dsum = w->base.dsum - tl->dsum[w->tail_r] + tl->dsum[r];
    w->base_parity = (int)(w->base.dsum & 1u) & w->lex_shift;
    w->base.lex = h << w->lex_shift;
    if (w->lex_shift) {
        /* r is even (base has the even lex of its pair), and row r + 1 is
         * the same tail with its last two tiles swapped: the other board */
        memcpy(&w->other.d[b], &tl->digit8[r + 1], sizeof tl->digit8[r]);
        tail_tiles(w, &w->other, r + 1);
        w->other.lex = w->base.lex + 1;
    }
    w->tail_r = r;
    w->h = h;
}

/* Make w->base the t of block h (lexicographically smaller of the pair)
 * when the tail table cannot from where it is: from the first board of the
 * worker's window when h is in it (the window path does not move w->base,
 * so it may be far behind), else a mixed-radix carry or a fresh unranking. */
static __attribute__((noinline)) void worker_move(struct worker *w, uint64_t h)
{
    int m = w->s->m;
    uint64_t lex = h << w->lex_shift;
    const struct window *wn = w->win;
    int b = m - TAIL_MAX;
    /* windows on: compact space (lex_shift 1), tail TAIL_MAX long; h in
     * the window or the next (a word across the boundary) when that only
     * raises head digit b - 1 (perm_head_step); WINDOW_NONE: neither */
    uint64_t off = h - wn->base;
    if (off < WINDOW_BLOCKS ||
        (off < 2 * WINDOW_BLOCKS && wn->p.d[b - 1] < TAIL_MAX)) {
        w->base = wn->p; /* its tail is sorted: row 0 */
        if (off >= WINDOW_BLOCKS)
            perm_head_step(&w->base, b);
        memcpy(w->tail_set, &w->base.t[b], TAIL_MAX);
        w->tail_r = 0;
        w->other = w->base;
        w->h = wn->base + (off >= WINDOW_BLOCKS ? WINDOW_BLOCKS : 0);
        worker_tail_step(w, h, (unsigned)(lex - w->base.lex));
        return;
    }
    if (h > w->h && lex - w->base.lex <= MAX_JUMP) { /* w->h starts at max */
        perm_advance(&w->base, lex - w->base.lex, m);
    } else {
        w->base.lex = lex;
        perm_unrank(&w->base, m);
    }
    if (w->tail_rows)
        tail_load(w);
    w->base_parity = (int)(w->base.dsum & 1u) & w->lex_shift;
    if (w->lex_shift) {
        w->other = w->base;
        w->other.t[m - 2] = w->base.t[m - 1];
        w->other.t[m - 1] = w->base.t[m - 2];
        w->other.d[m - 2] = 1; /* base.d[m-2] is 0: t[m-2] < t[m-1] */
        w->other.lex = w->base.lex + 1;
    }
    w->h = h;
}

/*
 * Make w->base the t of block h.  Blocks are met in increasing order within
 * a chunk, and a dense layer usually moves by a few ranks inside the window
 * of the last TAIL_MAX positions: then only the tail changes, by one row of
 * the tail table (worker_tail_step).
 */
static inline void worker_seek(struct worker *w, uint64_t h)
{
    if (h == w->h)
        return;
    uint64_t diff = (h << w->lex_shift) - w->base.lex;
    if (!(h > w->h && diff < (uint64_t)(w->tail_rows - w->tail_r))) {
        worker_move(w, h);
        return;
    }
    worker_tail_step(w, h, w->tail_r + (unsigned)diff);
}

/* Fill w->win for the window of block h.  The window keeps its own first
 * board, so w->base stays where the board-by-board path left it. */
static __attribute__((noinline)) void window_set(struct worker *w, uint64_t h)
{
    uint64_t base = h - h % WINDOW_BLOCKS;
    window_enter(w->win, w->wt, w->vt, base, w->s->m);
    /* the words whose 32 entries all lie in the window's entries
     * [base n, (base + WINDOW_BLOCKS) n): one test per word in
     * window_covers */
    uint64_t n = (uint64_t)w->s->n;
    uint64_t first = (base * n + STORE_ENTRIES_PER_WORD - 1) / STORE_ENTRIES_PER_WORD;
    uint64_t end = (base + WINDOW_BLOCKS) * n / STORE_ENTRIES_PER_WORD;
    w->win_w0 = first;
    w->win_nw = end > first ? end - first : 0;
}

/* The board (t, digits) of entry (w->h, z): in the compact space t's parity
 * is fixed by z, which picks one of the pair.  Without pairs (full space,
 * m < 2: lex_shift 0) need[z] and base_parity are both 0. */
static inline const struct perm *worker_perm(const struct worker *w, int z)
{
    return w->need[z] == w->base_parity ? &w->base : &w->other;
}

/* Index of the board with lex rank lex and blank z'. */
static inline uint64_t index_of(const struct space *s, uint64_t lex, int z)
{
    uint64_t block = s->kind == SPACE_COMPACT && s->m >= 2 ? lex >> 1 : lex;
    return block * (uint64_t)s->n + (uint64_t)z;
}

/* Neighbours of entry e = (h, z) with board p, by O(C) rank updates.
 * Inlined per column count so the short rotation loops unroll. */
static inline __attribute__((always_inline)) int
neighbours_c(const struct space *s, const struct vtab *v, const struct perm *p,
             int z, uint64_t e, uint64_t out[MOVE_COUNT], const int c)
{
    int k = 0, col = z % c;
    if (col > 0)
        out[k++] = e - 1;
    if (col < c - 1)
        out[k++] = e + 1;
    if (z >= c)
        out[k++] = index_of(s, vmove_lex(v, p, z - c, 0, c), z - c);
    if (z + c < s->n)
        out[k++] = index_of(s, vmove_lex(v, p, z, 1, c), z + c);
    return k;
}

static int neighbours(const struct space *s, const struct vtab *v,
                      const struct perm *p, int z, uint64_t e,
                      uint64_t out[MOVE_COUNT])
{
    switch (s->cols) {
    case 2: return neighbours_c(s, v, p, z, e, out, 2);
    case 3: return neighbours_c(s, v, p, z, e, out, 3);
    case 4: return neighbours_c(s, v, p, z, e, out, 4);
    case 5: return neighbours_c(s, v, p, z, e, out, 5);
    case 6: return neighbours_c(s, v, p, z, e, out, 6);
    case 7: return neighbours_c(s, v, p, z, e, out, 7);
    default: return neighbours_c(s, v, p, z, e, out, s->cols);
    }
}

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

/* Entry k of a word whose first entry is (h0, z0). */
static inline void offset(const struct space *s, uint64_t h0, int z0, int k,
                          uint64_t *h, int *z)
{
    int zz = z0 + k;
    uint64_t hh = h0;
    while (zz >= s->n) {
        zz -= s->n;
        hh++;
    }
    *h = hh;
    *z = zz;
}

/* Vertical neighbours of the frontier entries in fm (colour already
 * filtered), pushed for marking; inlined per column count c.  Entry k of the
 * word is (h0 + zq[z0 + k], zr[z0 + k]) by the worker's small tables. */
static inline __attribute__((always_inline)) void
vertical_c(struct worker *w, struct store *st, uint64_t fm, uint64_t h0, int z0,
           struct pushq *np, const int c, const int shared, const int pf, const int remote)
{
    const int n = w->s->n, shift = w->lex_shift;
    while (fm) {
        int k = z0 + __builtin_ctzll(fm) / 2, z = w->zr[k];
        fm &= fm - 1;
        worker_seek(w, h0 + w->zq[k]);
        const struct perm *p = worker_perm(w, z);
        if (z >= c)
            worker_push(w, st->words, (vmove_lex(w->vt, p, z - c, 0, c) >> shift) *
                                          (uint64_t)n + (uint64_t)(z - c), np, shared, pf,
                        remote);
        if (z + c < n)
            worker_push(w, st->words, (vmove_lex(w->vt, p, z, 1, c) >> shift) *
                                          (uint64_t)n + (uint64_t)(z + c), np, shared, pf,
                        remote);
    }
}

/* Index of the lowest set bit of b (b != 0).  GCC 12 puts a dependency-
 * breaking xor and a sign extension around __builtin_ctzll in the loop
 * below, 2 of its 26 instructions per target; tzcnt with a 64-bit result
 * needs neither (on a CPU without BMI1 it runs as bsf: the same for b != 0). */
static inline uint64_t lowest_bit(uint64_t b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t r;
    __asm__("tzcnt %1, %0" : "=r"(r) : "rm"(b) : "cc");
    return r;
#else
    return (uint64_t)__builtin_ctzll(b);
#endif
}

/*
 * Vertical neighbours of the frontier entries in fm (a word whose entries
 * all lie in the worker's window), by the window tables: move bit 2k + dir
 * of the word (masks.vmove) reads masks.vent for the move's tables in the
 * window and the entry's block offset in the word, then window_lex's
 * two table reads give the target, here as its bit position.  What the
 * loop reads is in locals: the pushes store through w, which would make
 * the compiler reload everything read through pointers.
 */
static inline __attribute__((always_inline)) void
vertical_window_c(struct worker *w, uint64_t *words, uint64_t fm, uint64_t h0,
                  int z0, uint64_t n, struct pushq *np, const int c, const int shared,
                  const int pf, const int remote)
{
    const struct window *wn = w->win;
    const struct vent *ve = &w->mk->vent[z0];
    /* one register for ve: else GCC 12 adds its two parts at every move */
    __asm__("" : "+r"(ve));
    const unsigned off = (unsigned)(h0 - wn->base);
    (void)c;
    /* one loop over the moves of both directions (masks.vmove): the loop's
     * set-up and its spills are paid once per word, not once per direction */
    for (uint64_t b = (fm | fm << 1) & w->mk->vmove[z0]; b;) {
        uint64_t i = lowest_bit(b);
        b &= b - 1;
        uint64_t lex = window_lex(wn, ve->zm[i], off + ve->q[i]);
        /* 2 ((lex >> 1) n + z'), the target's bit position */
        worker_push_bit(w, words, (lex & ~1ULL) * n + ve->zt2[i], np, shared, pf, remote);
    }
}

/* Whether the window tables cover every entry of word wi, whose first entry
 * is (h0, z0); the window is set up first when the word lies in one window
 * that is not the current one. */
static inline int window_covers(struct worker *w, uint64_t wi, uint64_t h0, int z0)
{
    if (wi - w->win_w0 < w->win_nw)
        return 1; /* in the current window: the common case */
    uint64_t hl = h0 + w->zq[z0 + STORE_ENTRIES_PER_WORD - 1];
    if (hl - w->win->base >= WINDOW_BLOCKS || h0 < w->win->base) {
        if (hl - (h0 - h0 % WINDOW_BLOCKS) < WINDOW_BLOCKS)
            window_set(w, h0);
    }
    return h0 >= w->win->base && hl - w->win->base < WINDOW_BLOCKS;
}

/* Vertical neighbours of the frontier entries fm of word wi: by the window
 * tables when the word lies in one window, else board by board. */
static inline __attribute__((always_inline)) void
vertical_word_c(struct worker *w, struct store *st, uint64_t *words, uint64_t wi,
                uint64_t fm, uint64_t h0, int z0, uint64_t n, struct pushq *np, const int c,
                const int shared, const int pf, const int remote)
{
    /* the current window's words first: win_nw is 0 while windows are off */
    if (wi - w->win_w0 < w->win_nw || (w->windows && window_covers(w, wi, h0, z0))) {
        vertical_window_c(w, words, fm, h0, z0, n, np, c, shared, pf, remote);
        return;
    }
    vertical_c(w, st, fm, h0, z0, np, c, shared, pf, remote);
}

/*
 * Horizontal moves inside word wi done on the whole word: targets are the
 * frontier entries shifted one entry left/right; those still unvisited
 * become frontier in the same store that closes the frontier (flip).
 * Targets across the word boundary go through worker_push.
 */
static inline __attribute__((always_inline)) void
forward_horizontal(struct worker *w, uint64_t *words, uint64_t wi, uint64_t fm,
                   int phase, uint64_t flip, struct pushq *np, const int shared, const int pf,
                   const int remote)
{
    const struct masks *mk = w->mk;
    uint64_t lm = fm & mk->left[phase], rm = fm & mk->right[phase];
    uint64_t tgt = (lm >> 2) | (rm << 2);
    uint64_t e0 = wi * STORE_ENTRIES_PER_WORD;
    if (lm & 1)
        worker_push(w, words, e0 - 1, np, shared, pf, remote);
    if (rm >> 62)
        worker_push(w, words, e0 + STORE_ENTRIES_PER_WORD, np, shared, pf, remote);
    /* only this thread writes the word in this phase: a plain store */
    uint64_t *p = &words[wi], old = __atomic_load_n(p, __ATOMIC_RELAXED);
    uint64_t hit = tgt & old & (old >> 1); /* targets that are 11 */
    __atomic_store_n(p, (old ^ flip) & ~hit, __ATOMIC_RELAXED);
    if (!hit)
        return;
    w->found += (uint64_t)__builtin_popcountll(hit);
    if (w->mark_flag)
        flag_set(w->flags, e0 >> CHUNK_SHIFT, w->mark_flag);
}

/*
 * Block and blank cell of the first entry of word wi, e = 32 wi:
 * e / n = 2e / 2n by a multiply-high with mk->ninv = ceil(2^64 / 2n) (2n,
 * not n, so that it fits 64 bits for n = 1 too).  Exact for 2e < 2^64 / 2n
 * (Granlund and Montgomery, "Division by invariant integers using
 * multiplication", PLDI 1994: the error 2e (ninv - 2^64 / 2n) / 2^64 is
 * below 2e / 2^64 < 1 / 2n, too small to reach the next multiple of
 * 1 / 2n); indexes stay below 2^46 (16! / 2 boards), so that holds.
 * Without a division, a pass can skip empty words without stepping (h0, z0)
 * word by word.
 */
static inline void word_first(const struct masks *mk, uint64_t n, uint64_t wi,
                              uint64_t *h, int *z)
{
    uint64_t e = wi * STORE_ENTRIES_PER_WORD;
    uint64_t q = (uint64_t)(((unsigned __int128)(2 * e) * mk->ninv) >> 64);
    *h = q;
    *z = (int)(e - q * n);
}

/* The unvisited entries (11, unvisited 1) or the frontier ones (10,
 * unvisited 0) of the first word at or after *wi, below hi, that has some,
 * that word in *wi; 0 when there is none.  A loop of its own, so that the
 * words without (about half of those a dense forward layer reads, most of
 * a backward or close pass's) cost a handful of instructions each. */
static inline __attribute__((always_inline)) uint64_t
next_word(const uint64_t *words, uint64_t *wi, uint64_t hi, const int unvisited)
{
    for (uint64_t i = *wi; i < hi; i++) {
        uint64_t word = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
        uint64_t f = (unvisited ? word : ~word) & (word >> 1) & STORE_LOW_BITS;
        if (f) {
            *wi = i;
            return f;
        }
    }
    return 0;
}

/* A slice's scan (remote 1): whether it must stop before its next word
 * run, for room in this thread's remote buffer (r its next entry) or
 * because another thread stopped (struct slice). */
static __attribute__((noinline)) int slice_short(struct worker *w, const uint64_t *r)
{
    struct slice *sl = w->sl;
    if (__atomic_load_n(&sl->stop, __ATOMIC_RELAXED))
        return 1;
    if ((size_t)(r - w->rbase) + sl->margin <= sl->cap)
        return 0;
    __atomic_store_n(&sl->stop, 1, __ATOMIC_RELAXED);
    return 1;
}

/* Forward expansion of the words [lo, hi): mark the neighbours of the
 * frontier entries of `colour`, close those entries.  Inlined per column
 * count c, so the switch on c is made once per chunk.  What every word
 * reads is kept in locals (the pushes store through w and st).  remote 1:
 * targets outside the slice go to the remote buffer, whose room is checked
 * every w->check_words words; when short, the scan stops before word wi
 * (w->stop_wi; every word before it expanded and closed). */
static inline __attribute__((always_inline)) void
forward_words_c(struct worker *w, struct store *st, int colour, unsigned depth_bit,
                uint64_t lo, uint64_t hi, const int c, const int shared, const int pf,
                const int remote)
{
    const struct masks *mk = w->mk;
    uint64_t *words = st->words, n = (uint64_t)w->s->n;
    /* fm & (c0 ^ other): entries of `colour`; fm & deep: the depth bit */
    const uint64_t other = colour ? ~0ULL : 0, deep = depth_bit ? ~0ULL : 0;
    struct pushq np = {.n = w->npending};
    if (shared == 2) {
        np.q0 = w->bput[0];
        np.q1 = w->bput[1];
    }
    if (remote) {
        np.r = w->rput;
        np.lo2 = w->lo2;
        np.span2 = w->span2;
    }
    unsigned until = 1; /* words to expand before the next check for room */
    for (uint64_t wi = lo;; wi++) {
        uint64_t fm = next_word(words, &wi, hi, 0);
        if (!fm)
            break;
        if ((shared || remote) && --until == 0) {
            if (shared == 2) {
                w->bput[0] = np.q0;
                w->bput[1] = np.q1;
            }
            if (shared)
                worker_check(w, st);
            if (shared == 2) {
                np.q0 = w->bput[0];
                np.q1 = w->bput[1];
            }
            if (remote && slice_short(w, np.r)) {
                w->stop_wi = wi;
                break;
            }
            until = remote ? w->check_words : w->bk->words;
        }
        uint64_t h0;
        int z0;
        word_first(mk, n, wi, &h0, &z0);
        /* frontier entries of the other colour belong to the next layer */
        fm &= mk->colour0[z0] ^ other;
        if (!fm)
            continue;
        if (!shared && pf)
            own_room(w, st, &np);
        /* 10 -> 0b: xor with 10 (bit 0) or 11 (bit 1) */
        uint64_t flip = (fm << 1) | (fm & deep);
        forward_horizontal(w, words, wi, fm, z0, flip, &np, shared, pf, remote);
        /* vertical moves last: fewer values stay live across their loops */
        vertical_word_c(w, st, words, wi, fm, h0, z0, n, &np, c, shared, pf, remote);
    }
    w->npending = np.n;
    if (shared == 2) {
        w->bput[0] = np.q0;
        w->bput[1] = np.q1;
    }
    if (remote)
        w->rput = np.r;
}

/* Forward expansion of words [lo, hi) by a thread alone (shared 0), a team
 * of 2 (2) or any team (1), for c columns: all of it inlined, once per
 * case. */
static inline __attribute__((always_inline)) void
forward_words_s(struct worker *w, struct store *st, int colour, unsigned depth_bit,
                uint64_t lo, uint64_t hi, const int shared, const int pf, const int remote)
{
#define FORWARD_C(c) forward_words_c(w, st, colour, depth_bit, lo, hi, c, shared, pf, remote)
    switch (w->s->cols) {
    case 1: FORWARD_C(1); break;
    case 2: FORWARD_C(2); break;
    case 3: FORWARD_C(3); break;
    case 4: FORWARD_C(4); break;
    case 5: FORWARD_C(5); break;
    case 6: FORWARD_C(6); break;
    case 7: FORWARD_C(7); break;
    default: FORWARD_C(w->s->cols); break;
    }
#undef FORWARD_C
}

/* One function per way of marking, each with its own register allocation:
 * in one function, the team of 2 added 1.0 M instructions to a thread
 * alone on 2x5; apart, a thread alone takes 2.5 M fewer than before the
 * team of 2 (133.0 M in the forward passes, callgrind). */
#define FORWARD_WAY(name, shared, pf, remote)                                      \
    static __attribute__((noinline)) void name(struct worker *w, struct store *st,  \
                                               int colour, unsigned depth_bit,      \
                                               uint64_t lo, uint64_t hi)            \
    {                                                                               \
        forward_words_s(w, st, colour, depth_bit, lo, hi, shared, pf, remote);      \
    }
FORWARD_WAY(forward_team2, 2, 0, 0)
FORWARD_WAY(forward_teamn, 1, 0, 0)
FORWARD_WAY(forward_queue, 0, 1, 0)
FORWARD_WAY(forward_now, 0, 0, 0)
/* the same for a slice of the distributed search that has others */
FORWARD_WAY(forward_team2_remote, 2, 0, 1)
FORWARD_WAY(forward_teamn_remote, 1, 0, 1)
FORWARD_WAY(forward_queue_remote, 0, 1, 1)
FORWARD_WAY(forward_now_remote, 0, 0, 1)
#undef FORWARD_WAY

static void forward_words(struct worker *w, struct store *st, int colour,
                          unsigned depth_bit, uint64_t lo, uint64_t hi)
{
    if (w->rbase) { /* a slice with others (w->sl->remote) */
        if (w->team == 2)
            forward_team2_remote(w, st, colour, depth_bit, lo, hi);
        else if (w->team > 1)
            forward_teamn_remote(w, st, colour, depth_bit, lo, hi);
        else if (w->queue)
            forward_queue_remote(w, st, colour, depth_bit, lo, hi);
        else
            forward_now_remote(w, st, colour, depth_bit, lo, hi);
        return;
    }
    if (w->team == 2)
        forward_team2(w, st, colour, depth_bit, lo, hi);
    else if (w->team > 1) /* the team's buckets are not prefetched: pf 0 */
        forward_teamn(w, st, colour, depth_bit, lo, hi);
    else if (w->queue)
        forward_queue(w, st, colour, depth_bit, lo, hi);
    else
        forward_now(w, st, colour, depth_bit, lo, hi);
}

/* Whether e lies outside the worker's slice (never when remote is 0). */
static inline __attribute__((always_inline)) int
outside(const struct worker *w, uint64_t e, const int remote)
{
    return remote && 2 * e - w->lo2 >= w->span2;
}

/* Ask the owner of q whether it is frontier, for the asking entry a of
 * this slice (a backward pass of a slice with others; struct slice). */
static inline void push_query(struct worker *w, uint64_t q, uint64_t a)
{
    w->rput[0] = q;
    w->rput[1] = a;
    w->rput += 2;
}

/* The unvisited entries um (of one colour) of word wi with a frontier
 * neighbour, board by board: every neighbour's index from the board's
 * digits, the targets prefetched before they are read.  remote 1: a
 * neighbour outside the slice is asked about (push_query) when none
 * inside is frontier. */
static inline __attribute__((always_inline)) uint64_t
backward_boards(struct worker *w, const struct store *st, uint64_t wi, uint64_t um,
                uint64_t h0, int z0, const int remote)
{
    const struct space *s = w->s;
    uint64_t nb[STORE_ENTRIES_PER_WORD][MOVE_COUNT], hit = 0;
    int cnt[STORE_ENTRIES_PER_WORD], bits[STORE_ENTRIES_PER_WORD], n = 0;
    while (um) {
        int b = __builtin_ctzll(um), z;
        uint64_t h, e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        um &= um - 1;
        if (e >= st->size)
            break;
        offset(s, h0, z0, b / 2, &h, &z);
        worker_seek(w, h);
        cnt[n] = neighbours(s, w->vt, worker_perm(w, z), z, e, nb[n]);
        for (int i = 0; i < cnt[n]; i++)
            __builtin_prefetch(&st->words[nb[n][i] >> 5], 0, 0);
        bits[n++] = b;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < cnt[j]; i++)
            if (!outside(w, nb[j][i], remote) && store_get(st, nb[j][i]) == STORE_FRONTIER) {
                hit |= 1ULL << bits[j];
                break;
            }
    if (remote)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < cnt[j] && !(hit >> bits[j] & 1); i++)
                if (outside(w, nb[j][i], 1))
                    push_query(w, nb[j][i], wi * STORE_ENTRIES_PER_WORD +
                                                (uint64_t)(bits[j] / 2));
    return hit;
}

/* The same by the window tables, for a word that lies in the worker's
 * window: the neighbours in the same word by the word's masks (fm: its
 * frontier entries), the others by their indexes (the vertical ones by
 * window_target).  A neighbour has the frontier's colour, whose entries no
 * backward pass changes: its word may be stored to by the thread that scans
 * it (for entries of the other colour), but the atomic load sees the
 * neighbour's bits either way. */
static inline __attribute__((always_inline)) uint64_t
backward_window_c(struct worker *w, const struct store *st, uint64_t wi,
                  uint64_t um, uint64_t fm, uint64_t h0, int z0, const int c,
                  const int remote)
{
    const struct masks *mk = w->mk;
    const struct window *wn = w->win;
    const uint8_t *zq = w->zq + z0, *zr = w->zr + z0;
    const uint64_t n = (uint64_t)w->s->n;
    const unsigned off = (unsigned)(h0 - wn->base);
    uint64_t e0 = wi * STORE_ENTRIES_PER_WORD;
    uint64_t hit = um & ((mk->left[z0] & (fm << 2)) | (mk->right[z0] & (fm >> 2)));
    /* the neighbours across the word's ends: e0 - 1 and e0 + 32 */
    if (um & mk->left[z0] & 1 && store_get(st, e0 - 1) == STORE_FRONTIER)
        hit |= 1;
    if (um >> 62 & mk->right[z0] >> 62 && e0 + STORE_ENTRIES_PER_WORD < st->size &&
        store_get(st, e0 + STORE_ENTRIES_PER_WORD) == STORE_FRONTIER)
        hit |= 1ULL << 62;
    uint64_t tgt[2 * STORE_ENTRIES_PER_WORD];
    uint8_t bit[2 * STORE_ENTRIES_PER_WORD];
    int nt = 0;
#pragma GCC unroll 2
    for (int dir = 0; dir < 2; dir++)
        for (uint64_t b = um & ~hit & w->wt->vmask[dir][z0]; b;) {
            unsigned k = (unsigned)__builtin_ctzll(b) >> 1;
            b &= b - 1;
            tgt[nt] = window_target(wn, dir, zr[k], off + zq[k], n, c);
            __builtin_prefetch(&st->words[tgt[nt] >> 5], 0, 0);
            bit[nt++] = (uint8_t)(2 * k);
        }
    for (int i = 0; i < nt; i++)
        if (!outside(w, tgt[i], remote) && store_get(st, tgt[i]) == STORE_FRONTIER)
            hit |= 1ULL << bit[i];
    /* the horizontal neighbours never leave a slice (bfs_slice.h) */
    if (remote)
        for (int i = 0; i < nt; i++)
            if (outside(w, tgt[i], 1) && !(hit >> bit[i] & 1))
                push_query(w, tgt[i], e0 + bit[i] / 2u);
    return hit;
}

static inline __attribute__((always_inline)) uint64_t
backward_window(struct worker *w, const struct store *st, uint64_t wi, uint64_t um,
                uint64_t fm, uint64_t h0, int z0, const int remote)
{
#define BACKWARD_C(c) backward_window_c(w, st, wi, um, fm, h0, z0, c, remote)
    switch (w->s->cols) {
    case 2: return BACKWARD_C(2);
    case 3: return BACKWARD_C(3);
    case 4: return BACKWARD_C(4);
    case 5: return BACKWARD_C(5);
    case 6: return BACKWARD_C(6);
    case 7: return BACKWARD_C(7);
    default: return BACKWARD_C(w->s->cols);
    }
#undef BACKWARD_C
}

/*
 * Backward step of one word: its unvisited entries of `colour` with a
 * frontier neighbour become frontier (11 -> 10).  Only the thread that
 * owns the word writes it in a backward pass, so a plain (relaxed) store
 * does.  Returns 1 if unvisited entries of `colour` remain in the word.
 * remote 1: a slice with others, whose entries ask about their neighbours
 * outside (push_query).
 */
static inline __attribute__((always_inline)) int
backward_word_r(struct worker *w, struct store *st, uint64_t wi, int colour,
                const int remote)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t um = word & (word >> 1) & STORE_LOW_BITS; /* entries == 11 */
    uint64_t h0, hit;
    int z0;
    if (!um)
        return 0;
    word_first(w->mk, (uint64_t)w->s->n, wi, &h0, &z0);
    uint64_t c0 = w->mk->colour0[z0], mine = colour ? ~c0 : c0;
    um &= mine;
    if (!um)
        return 0;
    if (w->windows && window_covers(w, wi, h0, z0)) {
        uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS & ~mine;
        hit = backward_window(w, st, wi, um, fm, h0, z0, remote);
    } else {
        hit = backward_boards(w, st, wi, um, h0, z0, remote);
    }
    if (hit) {
        __atomic_store_n(&st->words[wi], word & ~hit, __ATOMIC_RELAXED);
        flag_set(w->flags, (wi * STORE_ENTRIES_PER_WORD) >> CHUNK_SHIFT,
                 FLAG_FRONTIER(colour));
        w->found += (uint64_t)__builtin_popcountll(hit);
    }
    return (um & ~hit) != 0;
}

/* backward_word_r, not inlined: inlined, it made GCC stop inlining the
 * forward expansion into the pass (14 % more instructions on 2x5). */
static __attribute__((noinline)) int
backward_word(struct worker *w, struct store *st, uint64_t wi, int colour)
{
    return backward_word_r(w, st, wi, colour, 0);
}

static __attribute__((noinline)) int
backward_word_remote(struct worker *w, struct store *st, uint64_t wi, int colour)
{
    return backward_word_r(w, st, wi, colour, 1);
}

/* Close every frontier entry of one colour (second pass of a backward
 * step), the whole word at once by the colour masks. */
static void close_word(const struct worker *w, struct store *st, uint64_t wi,
                       int colour, unsigned depth_bit)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS, h0;
    int z0;
    if (!fm)
        return;
    word_first(w->mk, (uint64_t)w->s->n, wi, &h0, &z0);
    uint64_t c0 = w->mk->colour0[z0];
    fm &= colour ? ~c0 : c0;
    /* 10 -> 0b: xor with 10 (bit 0) or 11 (bit 1); only the thread that
     * owns the word writes it in a close pass */
    if (fm)
        __atomic_store_n(&st->words[wi], word ^ ((fm << 1) | (depth_bit ? fm : 0)),
                         __ATOMIC_RELAXED);
}

enum pass { PASS_FORWARD, PASS_BACKWARD, PASS_CLOSE };

/* The flag a chunk needs for a pass to have anything to do in it. */
static uint8_t pass_needs(enum pass kind, int colour)
{
    return kind == PASS_BACKWARD ? FLAG_UNVISITED(1 - colour)
                                 : FLAG_FRONTIER(colour);
}

/* One pass over the words [lo, hi) of a chunk; returns 1 if the chunk still
 * needs the pass's flag afterwards. */
static int pass_chunk(struct worker *w, struct store *st, enum pass kind,
                      int colour, unsigned depth_bit, uint64_t lo, uint64_t hi)
{
    int keep = 0;
    if (kind == PASS_FORWARD) {
        forward_words(w, st, colour, depth_bit, lo, hi);
        return 0;
    }
    /* words with nothing for the pass are skipped here, without a call
     * (next_word): late layers have few unvisited boards left, and a close
     * pass few frontier ones in most words */
    const uint64_t *words = st->words;
    if (kind == PASS_BACKWARD && w->rbase) {
        /* a slice with others: its queries need room (as forward_words_c) */
        unsigned until = 1;
        for (uint64_t wi = lo; next_word(words, &wi, hi, 1); wi++) {
            if (--until == 0) {
                if (slice_short(w, w->rput)) {
                    w->stop_wi = wi;
                    return 1;
                }
                until = w->check_words;
            }
            keep |= backward_word_remote(w, st, wi, 1 - colour);
        }
    } else if (kind == PASS_BACKWARD) {
        for (uint64_t wi = lo; next_word(words, &wi, hi, 1); wi++)
            keep |= backward_word(w, st, wi, 1 - colour);
    } else {
        for (uint64_t wi = lo; next_word(words, &wi, hi, 0); wi++)
            close_word(w, st, wi, colour, depth_bit);
    }
    /* forward and close passes leave no frontier of this colour behind */
    return keep;
}

/* A chunk's flags no longer need what `need` stands for (the thread that
 * processed the chunk, alone writing its flag byte in this phase). */
static inline void flag_clear(uint8_t *flags, int64_t ch, uint8_t need)
{
    uint8_t f = __atomic_load_n(&flags[ch], __ATOMIC_RELAXED);
    __atomic_store_n(&flags[ch], (uint8_t)(f & ~need), __ATOMIC_RELAXED);
}

/* A chunk that a stopped pass of a slice left unfinished, from word wi on
 * (struct slice: at most two per thread, so saved has room). */
static void slice_save(struct worker *w, uint64_t ch, uint64_t wi)
{
    struct slice *sl = w->sl;
    int k = __atomic_fetch_add(&sl->nsaved, 1, __ATOMIC_RELAXED);
    sl->saved[k] = (struct resume){ch, wi};
}

/* Words [from, end) of chunk ch of a pass (from: the chunk's first word,
 * or the slice's, or where a stopped pass left it); its flag is cleared
 * when the pass leaves nothing in it that the flag stands for.  A backward
 * pass resumed in the middle of a chunk does not know what its first part
 * left, so it keeps the flag (flags are only ever conservative). */
static inline void pass_words(struct worker *w, struct store *st, uint8_t *flags,
                              enum pass kind, int colour, unsigned depth_bit,
                              uint8_t need, uint64_t ch, uint64_t from)
{
    uint64_t end = ch * CHUNK_WORDS + CHUNK_WORDS;
    int keep = pass_chunk(w, st, kind, colour, depth_bit, from,
                          end < st->nwords ? end : st->nwords);
    if (w->stop_wi != NO_STOP) { /* a slice's pass, stopped for room */
        slice_save(w, ch, w->stop_wi);
        w->stop_wi = NO_STOP;
        return;
    }
    if (!keep && (kind != PASS_BACKWARD || from <= ch * CHUNK_WORDS || from == w->wlo))
        flag_clear(flags, (int64_t)ch, need);
}

/* One chunk of a pass, if its flags say the pass has work there. */
static inline void pass_one(struct worker *w, struct store *st, uint8_t *flags,
                            enum pass kind, int colour, unsigned depth_bit,
                            uint8_t need, int64_t ch)
{
    if (!(__atomic_load_n(&flags[ch], __ATOMIC_RELAXED) & need))
        return;
    uint64_t lo = (uint64_t)ch * CHUNK_WORDS;
    pass_words(w, st, flags, kind, colour, depth_bit, need, (uint64_t)ch,
               lo > w->wlo ? lo : w->wlo);
}

/* Whether a slice's pass is stopping (struct slice); never in bfs_run. */
static inline int slice_stopping(const struct worker *w)
{
    return w->sl && __atomic_load_n(&w->sl->stop, __ATOMIC_RELAXED);
}

/* Scan the chunks of thread o of a team of T not yet taken (buckets_chunk),
 * two at a time from o's counter (one locked add per two chunks, not per
 * board); a forward pass joins apply phases when asked for.  Returns when
 * all are taken. */
static void team_take(struct worker *w, struct store *st, uint8_t *flags,
                      enum pass kind, int colour, unsigned depth_bit, uint8_t need,
                      uint64_t nchunks, unsigned o, unsigned T)
{
    struct buckets *bk = w->bk;
    for (;;) {
        if (kind == PASS_FORWARD && __atomic_load_n(&bk->apply, __ATOMIC_RELAXED))
            worker_apply(w, st);
        if (slice_stopping(w))
            return;
        uint64_t j = (uint64_t)__atomic_fetch_add(&w->next[o * 8], 2, __ATOMIC_RELAXED);
        for (uint64_t i = j; i < j + 2; i++) {
            uint64_t ch = buckets_chunk(i, o, T);
            if (ch >= nchunks)
                return;
            if (ch < w->ch_lo) /* a slice's: chunks before it in its first stripe */
                continue;
            if (slice_stopping(w)) /* taken, not begun: the pass goes on with it */
                slice_save(w, ch, ch * CHUNK_WORDS > w->wlo ? ch * CHUNK_WORDS : w->wlo);
            else
                pass_one(w, st, flags, kind, colour, depth_bit, need, (int64_t)ch);
        }
    }
}

/*
 * The chunks of a pass of a team of T > 1 threads: this thread's own
 * (buckets_owner) in increasing order first, then the others' not yet
 * taken, every chunk once.  So most words a thread scans and writes are
 * those it marks in the apply phases and scans in the next passes, still
 * in its core's caches; from one shared counter, neighbouring chunks went
 * to either thread.  3x4 with 2 threads: 1.82 s against 1.88 s for the
 * forward passes (best of 3, alternated), and 1.72 s against 1.79 s for
 * the backward and close passes too.
 */
static void team_scan(struct worker *w, struct store *st, uint8_t *flags,
                      enum pass kind, int colour, unsigned depth_bit, uint8_t need,
                      uint64_t nchunks, int T)
{
    if (w->sl) { /* a slice's pass: what it left unfinished when it stopped first */
        struct slice *sl = w->sl;
        while (!slice_stopping(w)) {
            if (kind == PASS_FORWARD && __atomic_load_n(&w->bk->apply, __ATOMIC_RELAXED))
                worker_apply(w, st);
            int k = __atomic_fetch_add(&sl->todo_next, 1, __ATOMIC_RELAXED);
            if (k >= sl->ntodo)
                break;
            pass_words(w, st, flags, kind, colour, depth_bit, need, sl->todo[k].ch,
                       sl->todo[k].wi);
        }
    }
    for (int k = 0; k < T; k++)
        team_take(w, st, flags, kind, colour, depth_bit, need, nchunks,
                  (unsigned)((w->me + k) % T), (unsigned)T);
}

/* The scan of a forward pass of a team of more than one thread (buckets.h):
 * team_scan, apply phases when asked for, and a last one when every thread
 * has scanned its last chunk. */
static void forward_team(struct worker *w, struct store *st, uint8_t *flags,
                         int colour, unsigned depth_bit, uint8_t need,
                         int64_t nchunks, int T)
{
    struct buckets *bk = w->bk;
    team_scan(w, st, flags, PASS_FORWARD, colour, depth_bit, need, (uint64_t)nchunks, T);
    __atomic_fetch_add(&bk->finished, 1, __ATOMIC_RELAXED);
    /* a thread that asks for an apply phase has not finished: so while
     * some thread scans, the finished ones see the request */
    for (;;) {
        if (__atomic_load_n(&bk->apply, __ATOMIC_RELAXED))
            worker_apply(w, st);
        else if (__atomic_load_n(&bk->finished, __ATOMIC_RELAXED) == w->team)
            break;
        else
            sched_yield();
    }
    worker_apply(w, st);
}

/* A worker of run_pass on a slice (thread me). */
static void slice_worker(struct worker *w, struct slice *sl, int me)
{
    w->wlo = sl->wlo;
    w->ch_lo = sl->ch_lo;
    w->next = sl->next;
    w->queue = sl->queue;
    if (!sl->remote)
        return;
    w->lo2 = 2 * sl->lo;
    w->span2 = 2 * (sl->hi - sl->lo);
    w->rbase = sl->rmem + (size_t)me * sl->cap;
    w->rput = sl->rput[me];
    w->check_words = sl->check_words;
    if (w->team > 1 && w->bk->words < w->check_words) /* the buckets' check too */
        w->check_words = w->bk->words;
}

/* The flag a pass's marks set on their chunks: the next colour's
 * frontier, or none (0) in a dense forward layer, whose chunks [ch0,
 * nchunks) are all flagged here instead of at every mark. */
static uint8_t pass_mark_flag(uint8_t *flags, uint64_t ch0, uint64_t nchunks, enum pass kind,
                              int colour, int windows)
{
    uint8_t mark_flag = FLAG_FRONTIER(1 - colour);
    if (windows && kind == PASS_FORWARD) {
        /* a dense layer marks boards in nearly every chunk: flag them all
         * now rather than at every mark (mark_flag 0: no flag per mark) */
        for (uint64_t ch = ch0; ch < nchunks; ch++)
            flags[ch] |= mark_flag;
        mark_flag = 0;
    }
    return mark_flag;
}

/*
 * One parallel pass over the flagged chunks; returns the boards newly
 * marked.  No store of a pass is locked: a backward or close pass writes
 * only the words it scans (and their chunks' flags), and a forward pass of
 * several threads sends its targets outside the word it scans to their
 * chunks' owners (buckets.h).  mark_flag: pass_mark_flag's.  sl: NULL, or
 * the slice of the distributed search whose pass this is (from where it
 * stopped; st and flags its views, struct slice).
 */
static uint64_t run_pass(const struct space *s, struct tables *tb,
                         struct store *st, uint8_t *flags, int threads,
                         enum pass kind, int colour, unsigned depth_bit,
                         uint8_t mark_flag, int windows, struct slice *sl,
                         struct bfs_result *r)
{
    uint64_t found = 0;
    int64_t nchunks = (int64_t)((st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint8_t need = pass_needs(kind, colour);
    struct buckets *bk = &tb->bk;
    for (int o = 0; !sl && bk->next && o < bk->threads; o++) /* none for one thread */
        bk->next[o * 8] = 0;
    bk->finished = 0;
    bk->apply = 0;
    int used = threads;
#pragma omp parallel num_threads(threads) reduction(+ : found)
    {
        struct window win;
        window_init(&win, &tb->wt);
        /* OpenMP may give fewer threads than asked, never more */
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        int buckets = kind == PASS_FORWARD && team > 1;
        if (me == 0)
            used = team;
        struct worker w = {.s = s, .mk = &tb->mk, .tail = &tb->tail, .h = UINT64_MAX,
                           .zq = tb->mk.zq, .zr = tb->mk.zr, .need = tb->mk.need,
                           .lex_shift = s->kind == SPACE_COMPACT && s->m >= 2,
                           .tail_rows = tb->tail.k == TAIL_MAX ? tb->tail.rows : 0,
                           .vt = &tb->vt, .wt = &tb->wt, .win = &win,
                           .flags = flags,
                           .mark_flag = mark_flag,
                           .windows = windows,
                           .me = me, .team = buckets ? team : 1,
                           .queue = tb->queue || st->nwords > PREFETCH_MIN_WORDS,
                           .bk = bk,
                           .bput = buckets ? bk->put + (size_t)me * bk->stride : NULL,
                           .next = bk->next, .sl = sl, .stop_wi = NO_STOP};
        if (sl)
            slice_worker(&w, sl, me);
        /* a slice's chunks are scheduled for the threads asked for,
         * whatever OpenMP gives (every thread goes through every
         * counter): a stopped pass goes on with the same counters */
        int T = sl ? threads : team;
        if (buckets) {
            forward_team(&w, st, flags, colour, depth_bit, need, nchunks, T);
        } else if (team > 1 || sl) { /* a backward or close pass: no buckets */
            team_scan(&w, st, flags, kind, colour, depth_bit, need, (uint64_t)nchunks, T);
        } else {
#pragma omp for schedule(dynamic, 2)
            for (int64_t ch = 0; ch < nchunks; ch++)
                pass_one(&w, st, flags, kind, colour, depth_bit, need, ch);
        }
        worker_flush(&w, st);
        if (sl && sl->remote)
            sl->rput[me] = w.rput;
        found += w.found;
    }
    r->threads = used;
    return found;
}

/*
 * The BFS_KEEP smallest indexes of the layer just found (r->first, whose
 * last value the CLI prints as the antipodes).  After a layer's passes its
 * boards are the only frontier entries (10) in the store: the old frontier
 * is closed.  So they are found here in index order, in the chunks flagged
 * as holding frontier of the layer's colour, and the passes need not keep
 * the smallest indexes at every mark (a compare per target).  A dense
 * layer stops in its first chunks; a sparse one skips unflagged chunks a
 * byte each.
 */
static int layer_first(const struct store *st, const uint8_t *flags, uint8_t flag,
                       uint64_t ch0, uint64_t w0, uint64_t first[BFS_KEEP])
{
    int n = 0;
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    for (uint64_t ch = ch0; ch < nchunks && n < BFS_KEEP; ch++) {
        if (!(flags[ch] & flag))
            continue;
        uint64_t lo = ch * CHUNK_WORDS > w0 ? ch * CHUNK_WORDS : w0; /* w0: a slice's */
        uint64_t hi = lo + CHUNK_WORDS < st->nwords ? lo + CHUNK_WORDS : st->nwords;
        for (uint64_t wi = lo; wi < hi && n < BFS_KEEP; wi++) {
            uint64_t v = st->words[wi];
            for (uint64_t fm = (v >> 1) & ~v & STORE_LOW_BITS; fm && n < BFS_KEEP;
                 fm &= fm - 1)
                first[n++] = wi * STORE_ENTRIES_PER_WORD +
                             (uint64_t)(__builtin_ctzll(fm) / 2);
        }
    }
    return n;
}

/*
 * Chunk flags for a search: a fresh one has only the goal's chunk holding
 * frontier (of colour 0) and every chunk possibly unvisited; a resumed one
 * knows nothing, so every flag is set.  Returns NULL when out of memory.
 */
static uint8_t *flags_alloc(const struct store *st, int fresh, uint64_t goal)
{
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    uint8_t *flags = malloc(nchunks ? nchunks : 1);
    if (!flags)
        return NULL;
    memset(flags, fresh ? FLAG_UNVISITED(0) | FLAG_UNVISITED(1) : FLAG_ALL, nchunks);
    if (fresh)
        flags[goal >> CHUNK_SHIFT] |= FLAG_FRONTIER(0);
    return flags;
}

int bfs_result_push(struct bfs_result *r, int depth, uint64_t count,
                    slide_error *err)
{
    if (depth >= r->layers_alloc) {
        int cap = r->layers_alloc ? 2 * r->layers_alloc : 64;
        uint64_t *h = realloc(r->hist, (size_t)cap * sizeof *h);
        if (!h)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
        memset(h + r->layers_alloc, 0, (size_t)(cap - r->layers_alloc) * sizeof *h);
        r->hist = h;
        r->layers_alloc = cap;
    }
    r->hist[depth] = count;
    r->radius = depth;
    r->reached += count;
    return SLIDE_OK;
}

/* Unvisited boards of the colour of distance d + 1 after layer d
 * (compact space). */
static uint64_t unvisited_next(const struct space *s, const struct bfs_result *r,
                               int d)
{
    int next = (d + 1) & 1, cells = 0;
    for (int z = 0; z < s->n; z++)
        cells += s->colour[z] == next;
    uint64_t unvisited = (uint64_t)cells * s->blocks; /* entries of colour next */
    for (int k = next; k <= d; k += 2)
        unvisited -= r->hist[k];
    return unvisited;
}

int bfs_backward_pays(const struct space *s, const struct bfs_result *r, int d)
{
    if (s->kind != SPACE_COMPACT || s->path_graph)
        return 0;
    return unvisited_next(s, r, d) < r->hist[d];
}

/*
 * Whether a layer should use the window tables, given the boards it
 * expands (`boards`: the frontier of a forward layer, the unvisited boards
 * of the next colour in a backward one): setting up a window (about 1,800
 * instructions on 3x4 when built afresh, more with more columns; about 600
 * on average since a window is mostly stepped from the one before it,
 * window_enter) costs as much as the block steps of some boards, so windows
 * pay when a window holds more than a few such boards on average; sparser
 * layers go board by board.  Either way gives the same marks.  callgrind,
 * one thread, whole run, at 275670d (before this threshold changed), by
 * minimum per window:
 *   2x5 (millions): 216.3 at 1, 215.5 at 4, 216.2 at 8, 216.5 at 12,
 *                   220.2 at 16, 219.0 at 24, 231.1 at 64, 367.8 never;
 *   3x4 (billions): 27.72 at 1, 27.56 at 4, 27.58 at 8, 27.58 at 12,
 *                   27.82 at 24.
 * The differences from 4 to 12 are within libgomp's spin (a few million),
 * so 8 is taken.  The earlier threshold, 24, was set by wall time when a
 * window cost about three times as much: on 2x6 and 2x7 windows were then
 * slower below about 20 boards per window and faster above about 30.  With
 * 8, 2x6 with two threads took 3.5-4.6 s either way (4 alternating runs,
 * the host's noise), and 2x7's layers 43-46 (8 to 24 frontier boards per
 * window, now by windows) took 14.0 s with two threads against 16.0 s at
 * 946e8ce board by board (results/histograms/2x7.progress.txt, different
 * hours, so only a hint).  Overridable at build time
 * (-DWINDOW_MIN_FRONTIER=n) for such measurements.
 */
#ifndef WINDOW_MIN_FRONTIER
#define WINDOW_MIN_FRONTIER 8
#endif

static int windows_pay(const struct space *s, const struct wtab *wt,
                       const struct bfs_options *o, uint64_t boards)
{
    if (!wt->on || o->windows < 0)
        return 0;
    if (o->windows > 0)
        return 1;
    uint64_t windows = s->blocks / WINDOW_BLOCKS;
    return boards >= (uint64_t)WINDOW_MIN_FRONTIER * (windows ? windows : 1);
}

/* The tables of a search for `threads` threads (o: queue, small_buckets).
 * Errors: SLIDE_ENOMEM (nothing held then). */
static int tables_init(struct tables *tb, const struct space *s, int threads,
                       const struct bfs_options *o, slide_error *err)
{
    masks_init(&tb->mk, s);
    tail_init(&tb->tail, s->m);
    if (vtab_init(&tb->vt, s))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the move tables");
    if (wtab_init(&tb->wt, s, &tb->tail, &tb->vt)) {
        vtab_free(&tb->vt);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the move tables");
    }
    tb->queue = o->queue;
    if (buckets_init(&tb->bk, threads, o->small_buckets)) {
        vtab_free(&tb->vt);
        wtab_free(&tb->wt);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the target buckets");
    }
    return SLIDE_OK;
}

static void tables_free(struct tables *tb)
{
    vtab_free(&tb->vt);
    wtab_free(&tb->wt);
    buckets_free(&tb->bk);
}

static int bfs_layers(const struct space *s, struct store *st, uint8_t *flags,
                      const struct bfs_options *o, struct bfs_result *r,
                      slide_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    double start = omp_get_wtime() - r->seconds;
    struct tables tb;
    if (tables_init(&tb, s, threads, o, err))
        return SLIDE_ENOMEM;
    r->threads = threads;
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    int rc = SLIDE_OK;
    while (!r->complete) {
        int d = r->radius, colour = d & 1;
        unsigned bit = (unsigned)(d / 2) & 1u;
        double t0 = omp_get_wtime();
        int back = !o->no_backward && bfs_backward_pays(s, r, d);
        uint64_t found;
        enum pass kind = back ? PASS_BACKWARD : PASS_FORWARD;
        /* a backward layer expands the unvisited boards */
        int windows = windows_pay(s, &tb.wt, o, back ? unvisited_next(s, r, d) : r->hist[d]);
        found = run_pass(s, &tb, st, flags, threads, kind, colour, bit,
                         pass_mark_flag(flags, 0, nchunks, kind, colour, windows), windows,
                         NULL, r);
        if (back)
            run_pass(s, &tb, st, flags, threads, PASS_CLOSE, colour, bit,
                     FLAG_FRONTIER(1 - colour), 0, NULL, r);
        double t1 = omp_get_wtime();
        r->seconds = t1 - start;
        if (found == 0) {
            r->complete = 1;
            break;
        }
        r->nfirst = layer_first(st, flags, FLAG_FRONTIER(1 - colour), 0, 0, r->first);
        rc = bfs_result_push(r, d + 1, found, err);
        if (rc)
            break;
        struct bfs_layer L = {d + 1, found, r->reached, s->size, t1 - t0,
                              r->seconds, back};
        if (o->on_layer && o->on_layer(&L, o->ctx)) {
            rc = slide_fail(err, SLIDE_EINTR, "search stopped after distance %d", d + 1);
            break;
        }
    }
    r->applies += tb.bk.applies;
    tables_free(&tb);
    return rc;
}

/* Layers until complete, with chunk flags that live as long as the loop. */
static int bfs_loop(const struct space *s, struct store *st,
                    const struct bfs_options *o, struct bfs_result *r,
                    int fresh, slide_error *err)
{
    uint8_t *flags = flags_alloc(st, fresh, (uint64_t)s->goal_blank);
    if (!flags)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the chunk flags");
    int rc = bfs_layers(s, st, flags, o, r, err);
    free(flags);
    return rc;
}

int bfs_resume(const struct space *s, struct store *st,
               const struct bfs_options *o, struct bfs_result *r,
               slide_error *err)
{
    if (st->size != s->size)
        return slide_fail(err, SLIDE_EINVAL,
                          "store has %llu entries but the space has %llu",
                          (unsigned long long)st->size,
                          (unsigned long long)s->size);
    return bfs_loop(s, st, o, r, 0, err);
}

int bfs_run(const struct space *s, struct store *st,
            const struct bfs_options *o, struct bfs_result *r,
            slide_error *err)
{
    memset(r, 0, sizeof *r);
    if (st->size != s->size)
        return slide_fail(err, SLIDE_EINVAL,
                          "store has %llu entries but the space has %llu",
                          (unsigned long long)st->size,
                          (unsigned long long)s->size);
    uint64_t goal = (uint64_t)s->goal_blank; /* t = identity has rank 0 */
    store_set(st, goal, STORE_FRONTIER);
    int rc = bfs_result_push(r, 0, 1, err);
    if (rc)
        return rc;
    r->first[0] = goal;
    r->nfirst = 1;
    struct bfs_layer L = {0, 1, 1, s->size, 0.0, 0.0, 0};
    if (o->on_layer && o->on_layer(&L, o->ctx))
        return slide_fail(err, SLIDE_EINTR, "search stopped after distance 0");
    return bfs_loop(s, st, o, r, 1, err);
}

void bfs_result_free(struct bfs_result *r)
{
    free(r->hist);
    memset(r, 0, sizeof *r);
}

uint64_t bfs_visit_frontier(const struct space *s, const struct store *st,
                            int depth, int threads, bfs_visit_fn fn, void *ctx)
{
    uint64_t visited = 0;
    int64_t nwords = (int64_t)st->nwords;
    int colour = depth & 1;
    if (threads <= 0)
        threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(+ : visited)
    {
        int me = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1024)
        for (int64_t wi = 0; wi < nwords; wi++) {
            uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
            uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS;
            while (fm) {
                int b = __builtin_ctzll(fm);
                fm &= fm - 1;
                uint64_t e = (uint64_t)wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
                if (s->colour[e % (uint64_t)s->n] != colour)
                    continue;
                fn(ctx, me, e);
                visited++;
            }
        }
    }
    return visited;
}

/*
 * The distributed search's slices (bfs_slice.h): the passes above over the
 * words of one slice, through views of its store and flags that take
 * global word and chunk numbers (the slice's first word is wlo, its first
 * chunk ch_lo; the views' bases are moved back by them, so only those
 * numbers are ever used with them).
 */

/* Remote entries one word may add: two vertical neighbours per entry
 * forward, or two queries of two entries (queried, asking) backward. */
#define SLICE_PER_WORD (4 * STORE_ENTRIES_PER_WORD)
/* Smallest remote buffer: two margins of one word. */
#define SLICE_MIN_CAP (2 * SLICE_PER_WORD)

struct bfs_slice {
    const struct space *s;
    struct bfs_options o;
    int threads;
    struct tables tb;
    struct store view;      /* the slice's store by global word */
    uint8_t *flags_mem;     /* one byte per chunk ch_lo..ch_end - 1 */
    uint8_t *flags;         /* the same by global chunk */
    struct slice sl;
    struct bfs_result res;  /* run_pass's r (threads used) */
    /* the layer being expanded */
    enum pass kind;
    int colour, windows, started;
    unsigned bit;
    uint8_t mark_flag;
    uint64_t found;
};

uint64_t bfs_slice_unit(const struct space *s)
{
    uint64_t a = STORE_ENTRIES_PER_WORD, b = (uint64_t)s->n;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return STORE_ENTRIES_PER_WORD / a * (uint64_t)s->n;
}

size_t bfs_slice_cap(uint64_t budget, int threads, uint64_t entries)
{
    uint64_t cap = budget / sizeof(uint64_t) / (uint64_t)(threads > 0 ? threads : 1);
    /* a pass sends at most SLICE_PER_WORD / 32 entries per board */
    uint64_t most = entries / STORE_ENTRIES_PER_WORD * SLICE_PER_WORD + 2 * SLICE_MIN_CAP;
    if (cap > most)
        cap = most;
    return (size_t)(cap < SLICE_MIN_CAP ? SLICE_MIN_CAP : cap);
}

/* Words between two checks of a buffer of cap entries: its margin
 * (check words x SLICE_PER_WORD) at most half of it, and no more words
 * than a team's bucket check. */
static unsigned slice_check_words(size_t cap)
{
    size_t words = cap / (2 * (size_t)SLICE_PER_WORD);
    return words < 1 ? 1 : words > BUCKETS_WORDS ? BUCKETS_WORDS : (unsigned)words;
}

uint64_t bfs_slice_bytes(const struct space *s, uint64_t entries, int threads, size_t cap)
{
    uint64_t T = (uint64_t)(threads > 0 ? threads : 1), bytes = sizeof(struct bfs_slice);
    bytes += entries / (CHUNK_WORDS * STORE_ENTRIES_PER_WORD) + 2;          /* flags */
    uint64_t c = (uint64_t)s->cols, m = (uint64_t)s->m;
    if (s->rows >= 2) {
        uint64_t nseg = m - c + 1, nmv = 2 * nseg, nrows = 1 + nmv * (TAIL_MAX + 2);
        bytes += 2 * nseg * (c + (1ULL << (c - 1))) * sizeof(int64_t);       /* vtab */
        bytes += nrows * TAIL_ROWS * sizeof(int64_t) + (1 + nmv) * TAIL_ROWS  /* wtab, */
                 + 2 * nrows * WINDOW_BLOCKS * sizeof(int64_t);               /* at its peak */
    }
    if (T >= 2) { /* buckets_init's */
        uint64_t bcap = BUCKETS_BYTES / (T * T * sizeof(uint64_t));
        if (bcap < 2 * BUCKETS_PER_WORD)
            bcap = 2 * BUCKETS_PER_WORD;
        bytes += T * T * bcap * sizeof(uint64_t) + T * (T + 8) * sizeof(uint64_t *) +
                 T * 8 * sizeof(int64_t);
    }
    bytes += T * (uint64_t)cap * sizeof(uint64_t) + T * sizeof(uint64_t *);   /* remote */
    bytes += T * 8 * sizeof(int64_t) + 2 * (2 * T + 2) * sizeof(struct resume);
    return bytes;
}

void bfs_slice_close(struct bfs_slice *x)
{
    if (!x)
        return;
    tables_free(&x->tb);
    free(x->flags_mem);
    free(x->sl.rmem);
    free(x->sl.rput);
    free(x->sl.next);
    free(x->sl.saved);
    free(x->sl.todo);
    free(x);
}

int bfs_slice_open(struct bfs_slice **out, const struct space *s, struct store *st,
                   uint64_t lo, int remote, const struct bfs_options *o, size_t cap,
                   int fresh, slide_error *err)
{
    uint64_t unit = bfs_slice_unit(s), hi = lo + st->size;
    *out = NULL;
    if (lo % unit || hi > s->size || (hi % unit && hi != s->size))
        return slide_fail(err, SLIDE_EINVAL, "a slice [%llu, %llu) of a space of %llu boards "
                          "must start and end at multiples of %llu",
                          (unsigned long long)lo, (unsigned long long)hi,
                          (unsigned long long)s->size, (unsigned long long)unit);
    struct bfs_slice *x = calloc(1, sizeof *x);
    if (!x)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the slice");
    x->s = s;
    x->o = *o;
    x->threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    if (tables_init(&x->tb, s, x->threads, o, err)) {
        free(x);
        return SLIDE_ENOMEM;
    }
    struct slice *sl = &x->sl;
    sl->lo = lo;
    sl->hi = hi;
    sl->wlo = lo / STORE_ENTRIES_PER_WORD;
    sl->whi = (hi + STORE_ENTRIES_PER_WORD - 1) / STORE_ENTRIES_PER_WORD;
    sl->ch_lo = sl->wlo / CHUNK_WORDS;
    sl->ch_end = hi == lo ? sl->ch_lo : (sl->whi + CHUNK_WORDS - 1) / CHUNK_WORDS;
    sl->remote = remote;
    sl->queue = o->queue || sl->whi - sl->wlo > PREFETCH_MIN_WORDS;
    sl->cap = cap < SLICE_MIN_CAP ? SLICE_MIN_CAP : cap;
    sl->check_words = slice_check_words(sl->cap);
    sl->margin = (size_t)sl->check_words * SLICE_PER_WORD;
    sl->cap_saved = 2 * x->threads + 2;
    size_t nch = (size_t)(sl->ch_end - sl->ch_lo);
    x->flags_mem = malloc(nch ? nch : 1);
    sl->next = aligned_alloc(64, (size_t)x->threads * 8 * sizeof *sl->next);
    sl->saved = malloc((size_t)sl->cap_saved * sizeof *sl->saved);
    sl->todo = malloc((size_t)sl->cap_saved * sizeof *sl->todo);
    if (remote) {
        sl->rmem = malloc((size_t)x->threads * sl->cap * sizeof *sl->rmem);
        sl->rput = malloc((size_t)x->threads * sizeof *sl->rput);
    }
    if (!x->flags_mem || !sl->next || !sl->saved || !sl->todo ||
        (remote && (!sl->rmem || !sl->rput))) {
        bfs_slice_close(x);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the slice's buffers");
    }
    /* a fresh search: only the goal's chunk holds frontier (colour 0); a
     * resumed one knows nothing (flags_alloc) */
    memset(x->flags_mem, fresh ? FLAG_UNVISITED(0) | FLAG_UNVISITED(1) : FLAG_ALL, nch ? nch : 1);
    uint64_t goal = (uint64_t)s->goal_blank;
    if (fresh && goal >= lo && goal < hi)
        x->flags_mem[(goal >> CHUNK_SHIFT) - sl->ch_lo] |= FLAG_FRONTIER(0);
    /* views by global numbers: integer arithmetic, so no pointer is ever
     * formed outside its object; only numbers in the slice are used */
    x->flags = (uint8_t *)((uintptr_t)x->flags_mem - (uintptr_t)sl->ch_lo);
    x->view.words = (uint64_t *)((uintptr_t)st->words - (uintptr_t)(sl->wlo * sizeof(uint64_t)));
    x->view.size = hi;
    x->view.nwords = sl->whi;
    bfs_slice_clear(x);
    *out = x;
    return SLIDE_OK;
}

int bfs_slice_threads(const struct bfs_slice *x)
{
    return x->threads;
}

uint64_t *bfs_slice_remote(struct bfs_slice *x, int t, size_t *n)
{
    const struct slice *sl = &x->sl;
    if (!sl->remote) {
        *n = 0;
        return NULL;
    }
    uint64_t *base = sl->rmem + (size_t)t * sl->cap;
    *n = (size_t)(sl->rput[t] - base);
    return base;
}

void bfs_slice_clear(struct bfs_slice *x)
{
    struct slice *sl = &x->sl;
    for (int t = 0; sl->remote && t < x->threads; t++)
        sl->rput[t] = sl->rmem + (size_t)t * sl->cap;
}

int bfs_slice_layer(struct bfs_slice *x, const struct bfs_result *r, uint64_t *boards)
{
    int d = r->radius, back = !x->o.no_backward && bfs_backward_pays(x->s, r, d);
    uint64_t b = back ? unvisited_next(x->s, r, d) : r->hist[d];
    x->colour = d & 1;
    x->bit = (unsigned)(d / 2) & 1u;
    x->kind = back ? PASS_BACKWARD : PASS_FORWARD;
    x->windows = windows_pay(x->s, &x->tb.wt, &x->o, b);
    x->started = 0;
    x->found = 0;
    *boards = b;
    return back;
}

int bfs_slice_scan(struct bfs_slice *x)
{
    struct slice *sl = &x->sl;
    if (sl->hi == sl->lo)
        return 1;
    if (!x->started) { /* a pass begins: the counters at the slice's first stripe */
        x->mark_flag = pass_mark_flag(x->flags, sl->ch_lo, sl->ch_end, x->kind, x->colour,
                                      x->windows);
        unsigned T = (unsigned)x->threads;
        for (unsigned o = 0; o < T; o++) {
            uint64_t len = (64u * (o + 1) + T - 1) / T - (64u * o + T - 1) / T;
            sl->next[o * 8] = (int64_t)(sl->ch_lo / 64 * len);
        }
        sl->nsaved = 0;
        x->started = 1;
    }
    /* what the last stop left unfinished is done first (team_scan) */
    struct resume *t = sl->todo;
    sl->todo = sl->saved;
    sl->saved = t;
    sl->ntodo = sl->nsaved;
    sl->nsaved = 0;
    sl->todo_next = 0;
    sl->stop = 0;
    x->found += run_pass(x->s, &x->tb, &x->view, x->flags, x->threads, x->kind, x->colour,
                         x->bit, x->mark_flag, x->windows, sl, &x->res);
    for (int k = sl->todo_next; k < sl->ntodo; k++) /* not taken: still to do */
        sl->saved[sl->nsaved++] = sl->todo[k];
    return !sl->stop;
}

/* Mark the n indexes e of a slice (targets waiting as indexes), n read
 * ahead as an apply phase's are. */
static uint64_t slice_mark_list(uint64_t *words, uint8_t *flags, uint8_t bit,
                                const uint64_t *e, size_t n)
{
    uint64_t found = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + APPLY_AHEAD < n)
            __builtin_prefetch(&words[e[i + APPLY_AHEAD] >> 5], 1, 0);
        found = bit ? mark_target_flag(words, flags, bit, 2 * e[i], found)
                    : mark_target(words, 2 * e[i], found);
    }
    return found;
}

/* Where thread k of T starts in the increasing e[0..n): at a chunk's first
 * index, so no two threads write one word or one chunk's flag. */
static size_t slice_split(const uint64_t *e, size_t n, int k, int T)
{
    if (k <= 0)
        return 0;
    if (k >= T)
        return n;
    size_t i = (size_t)((unsigned __int128)n * (unsigned)k / (unsigned)T);
    while (i > 0 && i < n && e[i] >> CHUNK_SHIFT == e[i - 1] >> CHUNK_SHIFT)
        i++;
    return i;
}

void bfs_slice_mark(struct bfs_slice *x, const uint64_t *e, size_t n, int sorted)
{
    uint64_t found = 0, *words = x->view.words;
    uint8_t *flags = x->flags, bit = x->mark_flag;
    int T = sorted && n >= 4096 ? x->threads : 1;
    if (T == 1) {
        x->found += slice_mark_list(words, flags, bit, e, n);
        return;
    }
#pragma omp parallel num_threads(T) reduction(+ : found)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        size_t a = slice_split(e, n, me, team), b = slice_split(e, n, me + 1, team);
        found += slice_mark_list(words, flags, bit, e + a, b > a ? b - a : 0);
    }
    x->found += found;
}

void bfs_slice_answer(const struct bfs_slice *x, const uint64_t *e, size_t n, uint8_t *bits)
{
    for (size_t i = 0; i < n; i++)
        if (store_get(&x->view, e[i]) == STORE_FRONTIER)
            bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

uint64_t bfs_slice_finish(struct bfs_slice *x, uint64_t first[BFS_KEEP], int *nfirst)
{
    struct slice *sl = &x->sl;
    if (x->kind == PASS_BACKWARD) { /* every slice has had its answers: close */
        x->kind = PASS_CLOSE;
        x->started = 0;
        bfs_slice_scan(x);
    }
    *nfirst = sl->hi == sl->lo ? 0
                               : layer_first(&x->view, x->flags, FLAG_FRONTIER(1 - x->colour),
                                             sl->ch_lo, sl->wlo, first);
    return x->found;
}
