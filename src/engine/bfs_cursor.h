/*
 * bfs_cursor.h - where a thread of the two-bit BFS stands (bfs_kernel.h):
 * the tile sequence t and Lehmer digits of the last block it decoded
 * (worker.base, and its pair partner worker.other), moved to nearby blocks
 * by the tail table or mixed-radix addition, or set afresh; the window of
 * move tables it is in.  Internal to the kernel (bfs_kernel.h lists the
 * headers and their order).
 *
 * Invariant: w->h is the block whose boards w->base / w->other are (or
 * UINT64_MAX: none yet); w->tail_r is the tail row of w->base.lex.
 */
#ifndef SLIDE_ENGINE_BFS_CURSOR_H
#define SLIDE_ENGINE_BFS_CURSOR_H

#include "bfs_kernel.h"

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

#endif
