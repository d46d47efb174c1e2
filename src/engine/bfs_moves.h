/*
 * bfs_moves.h - which boards are one move away, for the two-bit BFS
 * (bfs_kernel.h): horizontal moves keep t, so they are e +- 1, done on whole
 * words by the masks; vertical moves rotate C entries of t, so their
 * targets come from the move tables (move_tables.h), board by board
 * (vmove_lex, from the cursor's digits) or by the window tables of a dense
 * layer.  Targets found here are handed to bfs_marking.h.  Internal to the
 * kernel.
 */
#ifndef SLIDE_ENGINE_BFS_MOVES_H
#define SLIDE_ENGINE_BFS_MOVES_H

#include "bfs_cursor.h"
#include "bfs_marking.h"

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
 * The multi-tile metric (MTM): the blank jumps j cells along its row or
 * column in one move, the j tiles between sliding one cell each.  Along
 * its row t is unchanged: the target is e +- j, done on the whole word by
 * the masks jleft / jright.  Down its column, a jump of j rows is j
 * vertical moves in a row, which rotate the disjoint segments of t that
 * start at z, z + C, ... (up: z - C, z - 2C, ...); a rotation changes only
 * the digits of its own segment and reads only its tiles and digits, which
 * the earlier rotations did not touch, so the jump's change of lex is the
 * sum of the single moves' changes, each from the board's own digits
 * (vmove_lex).  Frontier entries are 10; the targets are marked 01
 * (worker_push_mtm), so that a board joined to the frontier by a move of
 * the same layer (MTM's graph is not bipartite) is not expanded with it.
 * Board by board only: the window tables are for single moves.
 */

/* Vertical jumps of the frontier entries in fm, pushed for marking. */
static inline __attribute__((always_inline)) void
vertical_mtm_c(struct worker *w, struct store *st, uint64_t fm, uint64_t h0, int z0,
               struct pushq *np, const int c, const int shared, const int pf,
               const int remote)
{
    const int n = w->s->n, shift = w->lex_shift;
    while (fm) {
        int k = z0 + __builtin_ctzll(fm) / 2, z = w->zr[k];
        fm &= fm - 1;
        worker_seek(w, h0 + w->zq[k]);
        const struct perm *p = worker_perm(w, z);
        uint64_t lex = p->lex;
        for (int a = z - c; a >= 0; a -= c) { /* up: segment a, blank to a */
            lex += vmove_lex(w->vt, p, a, 0, c) - p->lex;
            worker_push_mtm(w, st->words, (lex >> shift) * (uint64_t)n + (uint64_t)a, np,
                            shared, pf, remote);
        }
        lex = p->lex;
        for (int a = z; a + c < n; a += c) { /* down: segment a, blank to a + c */
            lex += vmove_lex(w->vt, p, a, 1, c) - p->lex;
            worker_push_mtm(w, st->words, (lex >> shift) * (uint64_t)n + (uint64_t)(a + c), np,
                            shared, pf, remote);
        }
    }
}

/*
 * Horizontal jumps of the frontier entries fm of word wi (phase: its first
 * entry's blank cell): targets inside the word are marked 01 in the same
 * store that closes the frontier (flip), those across its ends go through
 * worker_push.
 */
static inline __attribute__((always_inline)) void
forward_horizontal_mtm(struct worker *w, uint64_t *words, uint64_t wi, uint64_t fm,
                       int phase, uint64_t flip, struct pushq *np, const int c,
                       const int shared, const int pf, const int remote)
{
    const struct masks *mk = w->mk;
    uint64_t e0 = wi * STORE_ENTRIES_PER_WORD, tgt = 0;
    for (int j = 1; j < c; j++) {
        uint64_t lm = fm & mk->jleft[j][phase], rm = fm & mk->jright[j][phase];
        tgt |= (lm >> (2 * j)) | (rm << (2 * j));
        /* entries k < j land before the word, k >= 32 - j after it */
        for (uint64_t b = lm & ((1ULL << (2 * j)) - 1); b; b &= b - 1)
            worker_push_mtm(w, words, e0 + lowest_bit(b) / 2 - (uint64_t)j, np, shared, pf,
                            remote);
        for (uint64_t b = rm >> (64 - 2 * j); b; b &= b - 1)
            worker_push_mtm(w, words, e0 + STORE_ENTRIES_PER_WORD + lowest_bit(b) / 2, np,
                            shared, pf, remote);
    }
    /* only this thread writes the word in this phase: a plain store */
    uint64_t *p = &words[wi], old = __atomic_load_n(p, __ATOMIC_RELAXED);
    uint64_t hit = tgt & old & (old >> 1); /* targets that are 11 */
    __atomic_store_n(p, (old ^ flip) ^ (hit << 1), __ATOMIC_RELAXED); /* 11 -> 01 */
    if (!hit)
        return;
    w->found += (uint64_t)__builtin_popcountll(hit);
    if (w->mark_flag)
        flag_set(w->flags, e0 >> CHUNK_SHIFT, w->mark_flag);
}

#endif
