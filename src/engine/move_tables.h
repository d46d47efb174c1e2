/*
 * move_tables.h - the rank change of a move, in table form, for the
 * two-bit BFS (bfs.c).  Internal to the engine layer.
 *
 * Representation.  A board of the compact space is a block h and a blank
 * cell z; the block holds the lexicographically smaller t of a pair of
 * permutations of the m = n - 1 tiles (t: tiles in reading order, blank
 * left out) and its partner with the last two entries swapped, so
 * lex(t) >> 1 = h, and the blank cell picks which of the two by parity.
 * struct perm keeps t, its Lehmer digits d (d[i] = tiles after i smaller
 * than t[i], radix m - i) and lex = sum d[i] (m-1-i)!.
 *
 * A horizontal move keeps t (index +- 1).  A vertical move rotates C
 * consecutive entries of t (a segment), so only C digits change, and the
 * change of lex is a sum of table entries:
 *   struct tail   arrangements of the last TAIL_MAX entries (moving
 *                 between nearby blocks by one table row);
 *   struct vtab   per segment, the weights of the C digits and the terms
 *                 of the comparisons with the moved tile (vmove_lex);
 *   struct wtab   the same split into a head part, fixed for a window of
 *                 TAIL_MAX! lex ranks, and a tail part, fixed by the row
 *                 in the window: struct window holds a window's head
 *                 parts, window_target reads a neighbour's index.
 *
 * Invariants: the tail, segment and window tables are built once per
 * search and only read while it runs; a struct window is brought to each
 * window its thread enters (window_enter: a few adds from the previous
 * window when only the head's last digit goes up, else rebuilt from its
 * first board), and its tables are valid for blocks [base, base +
 * WINDOW_BLOCKS), and m!/2 is a multiple of WINDOW_BLOCKS whenever the
 * window tables are on (m > TAIL_MAX), so a window never runs past the
 * last block.
 */
#ifndef SLIDE_ENGINE_MOVE_TABLES_H
#define SLIDE_ENGINE_MOVE_TABLES_H

#include "slide/space.h"

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Positions at the end of t whose arrangements are tabulated (struct tail). */
#define TAIL_MAX 6
#define TAIL_ROWS 720 /* TAIL_MAX! */

/* A board of the block being expanded: tiles, Lehmer digits, lex rank. */
struct perm {
    uint8_t t[SPACE_MAX_CELLS + 16]; /* slack: vmove_lex reads 16 bytes */
    uint8_t d[SPACE_MAX_CELLS + 4];  /* slack: worker_seek writes 8 bytes */
    uint64_t lex;
    unsigned dsum; /* sum of the digits: its parity is the permutation's */
};

/*
 * The last TAIL_MAX positions of t in lex order: lex mod k! is the rank of
 * their arrangement among the k tiles there, so moving between ranks with
 * the same higher digits only permutes those k tiles.  Row r of the table
 * gives, for each of the k positions, which of the k tiles (in increasing
 * order) goes there and its Lehmer digit.  A dense layer moves between
 * nearby blocks nearly every time, so most moves become k table reads
 * instead of a mixed-radix carry and a rebuild.
 */
struct tail {
    int k;                           /* tail length, 0: table not used */
    unsigned rows;                   /* k! */
    uint8_t pick[TAIL_ROWS][TAIL_MAX];
    uint8_t digit[TAIL_ROWS][TAIL_MAX];
    uint64_t digit8[TAIL_ROWS];      /* digit[r] as bytes of one word */
    uint64_t pick8[TAIL_ROWS];       /* pick[r] as bytes, 0x80 past k */
    uint8_t dsum[TAIL_ROWS];
};

/*
 * Rank change of a vertical move as a few multiply-adds.  A move rotates the
 * C entries of t at positions a..a+C-1 (a segment): down from z (a = z)
 * brings x = t[a+C-1] to the front, up from z (a = z - C) sends x = t[a] to
 * the back.  Only those C Lehmer digits change, each new digit is an old one
 * of the segment plus or minus a comparison with x, so with F[i] = (m-1-i)!
 *
 *     delta = sum_k d[a+k] * weight[a][k]  +  cmp[a][g]
 *
 * where g has bit j-1 set when the j-th tile x passes is smaller than x
 * (j = 1..C-1).  The weights are differences of factorials, the 2^(C-1)
 * comparison terms sums of factorials; both depend only on a and g.
 */
struct vtab {
    int c;                 /* columns, the segment length */
    int64_t *weight[2];    /* [dir][a * c + k], dir 0 up, 1 down */
    int64_t *cmp[2];       /* [dir][(a << (c - 1)) + g] */
};

/* Bit i set when t[i] < x, for i = 0..15 (t has 16 readable bytes). */
static inline unsigned below(const uint8_t *t, unsigned x)
{
#if defined(__SSE2__)
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(
        _mm_set1_epi8((char)x), _mm_loadu_si128((const __m128i *)t)));
#else
    unsigned lt = 0;
    for (int i = 0; i < 16; i++)
        lt |= (unsigned)(t[i] < x) << i;
    return lt;
#endif
}

/* Lex rank of p after the vertical move whose segment starts at a
 * (dir 1: down, x = t[a+c-1]; dir 0: up, x = t[a]).  c is a constant in
 * each inlined copy, so the loops unroll. */
static inline __attribute__((always_inline)) uint64_t
vmove_lex(const struct vtab *v, const struct perm *p, int a, int dir, const int c)
{
    const uint8_t *t = p->t + a, *d = p->d + a;
    unsigned x = dir ? t[c - 1] : t[0], g = 0;
#if defined(__SSE2__)
    /* bit j: t[a+j] < x, for 16 positions at once (t has 16 bytes slack) */
    unsigned lt = below(t, x);
    g = (dir ? lt : lt >> 1) & ((1u << (c - 1)) - 1u);
#else
    const uint8_t *y = dir ? t : t + 1; /* the tiles x passes, in order */
#pragma GCC unroll 16
    for (int j = 0; j < c - 1; j++)
        g |= (unsigned)(y[j] < x) << j;
#endif
    const int64_t *w = v->weight[dir] + (size_t)a * (size_t)c;
    int64_t delta = v->cmp[dir][((size_t)a << (c - 1)) + g];
#pragma GCC unroll 16
    for (int k = 0; k < c; k++)
        delta += (int64_t)d[k] * w[k];
    return (uint64_t)((int64_t)p->lex + delta);
}

/*
 * Window tables: the rank change of every vertical move of the boards of
 * one window as a few table reads, without their tiles or digits.  A window
 * is the TAIL_MAX! lex ranks that share the first hb = m - TAIL_MAX
 * entries of t (the head); a board of it is the head plus row
 * rho = lex mod TAIL_MAX! of the tail table.  Of vmove_lex's
 *     delta = sum_k d[a+k] * weight[a][k] + cmp[a][g]
 * the digit terms split into head digits (fixed in a window) and tail
 * digits (fixed by rho), and cmp is additive over the bits of g
 * (cmp[g1 | g2] = cmp[g1] + cmp[g2] - cmp[0] for disjoint g1, g2), so the
 * comparisons against head tiles split from those among tail tiles.  The
 * segment a..a+C-1 of a move is
 *   head     (a + C <= hb): all of delta depends on the head: one number
 *            per window;
 *   tail     (a >= hb): all of it depends on rho: one number per row, for
 *            the whole search;
 *   straddle (otherwise): up moves carry a head tile x past tail tiles:
 *            the tail bits depend on rho and on q, the number of tail tiles
 *            below x, so there is a row table per q and the window picks
 *            one; down moves carry a tail tile x past head tiles: the head
 *            bits depend on x's rank xr in the tail set (a row table gives
 *            xr), so the window has one number per xr.
 * In all cases delta = win[mv][xr] + row_w[mv][rho] (xr = 0 but for
 * straddling down moves), where the window chooses the row tables.
 */
enum vclass { VC_HEAD, VC_STRADDLE, VC_TAIL };

#define MOVES_MAX (2 * SPACE_MAX_CELLS) /* move mv = 2 * segment + dir */
#define WINDOW_BLOCKS (TAIL_ROWS / 2)   /* blocks of a window (pairs) */
#define WINDOW_NONE (1ULL << 63)        /* no block is that large */
/* Index of the vertical move (dir 0 up, 1 down) of blank z in struct
 * window's zrow, zhead and zimg. */
#define ZMOVE(dir, z) ((dir) * SPACE_MAX_CELLS + (z))

/* How window_step updates a move's head share (see there). */
enum wstep { WS_ADD, WS_REDO, WS_DOWN, WS_UP, WS_KINDS };

/* A vertical move of the blank from cell z: the scan's tables of a window
 * by (dir, z) are those of move mv and of parity need ^ (window's par). */
struct zmove {
    uint8_t dir, z, mv, need;
};

struct wtab {
    int on;                       /* 0: this space does not use windows */
    int hb;                       /* head length m - TAIL_MAX */
    int nmv;                      /* moves: 2 * (m - C + 1) */
    uint64_t vmask[2][SPACE_MAX_CELLS]; /* [dir][phase]: entries with that move */
    int nzm;                      /* the (dir, z) that have a move */
    struct zmove zm[2 * SPACE_MAX_CELLS];
    /* zm for window_enter's fill of struct window's zimg: the nzneed0
     * entries of need 0, then those of need 1 */
    struct zmove zs[2 * SPACE_MAX_CELLS];
    int nzneed0;
    uint8_t cls[MOVES_MAX];       /* class of each move */
    uint8_t rowpar[TAIL_ROWS];    /* parity of row rho's tail digits */
    /* window_step (move_tables.c): each move's kind (enum wstep), the
     * moves by kind, the change of a move's head share when the window
     * moves by one (d[hb-1] + 1, lex + TAIL_ROWS), and of WS_UP moves with
     * a < hb - 1 the comparison term of position hb - 1 (cmp[bit] -
     * cmp[0]) and whether the move straddles (q, its row, can change) */
    uint8_t kind[MOVES_MAX];
    uint8_t bykind[MOVES_MAX];
    int nkind[WS_KINDS];
    int64_t step[MOVES_MAX];
    int64_t upbit[MOVES_MAX];
    uint8_t qrow[MOVES_MAX];
    /* row tables, TAIL_ROWS each: [0] zeros, then per move (tail: delta;
     * straddle down: tail digits' share and tail bits), then per straddling
     * up move and q = 0..TAIL_MAX (tail digits' share and tail bits);
     * only while wtab_init builds the tables by block from them */
    int64_t *rows;
    uint8_t *xr;                  /* [0] zeros, then per move: straddling
                                   * down: x's rank in the tail set by row */
    /* The same by block instead of row: a block j of a window holds rows 2j
     * and 2j + 1, and an entry of blank z is the one of parity
     * s = need[z] ^ (parity of the head digits), i.e. row
     * rho = 2j + sel with sel = s ^ rowpar[2j].  pair[s][R][j] packs
     * two numbers: 8 * (row table R at that rho, plus sel, plus 2j) + xr
     * (x's rank at that rho: the xr table of the straddling down move
     * whose row table R is, else 0; xr < TAIL_MAX <= 8).  So an entry's lex
     * is two table reads: the packed number, then the window's share by
     * its xr (struct window), which holds the window's first lex. */
    int64_t *pair[2];             /* [s][R * WINDOW_BLOCKS + j] */
};

/* What the window path needs of the window of blocks [base, base +
 * WINDOW_BLOCKS): see struct wtab.  The lex rank of move mv's target from
 * row rho is head[mv][xr[mv][rho]] + row[mv][rho]: head includes the lex
 * rank of the window's first board. */
struct window {
    uint64_t base;                   /* first block; WINDOW_NONE: none yet */
    size_t row[MOVES_MAX];           /* row table R of each move */
    int64_t head[MOVES_MAX][TAIL_MAX]; /* the head's share (by xr) */
    int64_t sum[MOVES_MAX];          /* straddling moves: head's share
                                      * without the comparisons */
    struct perm p;                   /* the window's first board */
    /* by direction and blank cell, at ZMOVE(dir, z), for the scan: the
     * table by block (wtab.pair) of the entry's parity, and the head's
     * share (pointers into this struct's own head, set once by
     * window_init: a copy of the struct would still point into the
     * original).  One index for both, so a loop over the moves of both
     * directions reads them without a multiply by the direction. */
    const int64_t *zrow[2 * SPACE_MAX_CELLS];
    const int64_t *zhead[2 * SPACE_MAX_CELLS];
    /* zrow for each parity of the head (window_step flips it every time
     * and moves few rows: one copy instead of a fill) */
    const int64_t *zimg[2][2 * SPACE_MAX_CELLS];
};

/* Set every digit and tile of p from its lex rank p->lex (m tiles). */
void perm_unrank(struct perm *p, int m);

/* Advance p by diff lex ranks (p->lex + diff < m!), rebuilding only the
 * digits and tiles that change. */
void perm_advance(struct perm *p, uint64_t diff, int m);

/* Fill the tail table for m tiles (tl->k = 0 when m < 3: not used). */
void tail_init(struct tail *tl, int m);

/* Build the segment tables of space s; returns 0, or -1 when out of
 * memory (nothing held then).  A 1-row board has none (v->c = 0). */
int vtab_init(struct vtab *v, const struct space *s);
void vtab_free(struct vtab *v);

/* Build the window tables from tl and v; returns 0, or -1 when out of
 * memory (nothing held then).  wt->on stays 0 for the spaces the window
 * path does not cover (full space, path graphs, one row, m <= TAIL_MAX). */
int wtab_init(struct wtab *wt, const struct space *s, const struct tail *tl,
              const struct vtab *v);
void wtab_free(struct wtab *wt);

/* An empty window (base WINDOW_NONE) whose zhead point into its head. */
void window_init(struct window *wn, const struct wtab *wt);

/* Move p, the first board of a window (its tail sorted), to the first board
 * of the next window, when only head digit hb - 1 goes up (it is below
 * TAIL_MAX, its radix being TAIL_MAX + 1): the head's last tile u gives
 * way to the smallest tail tile above it, v = t[hb + d[hb-1]] (d[hb-1] tail
 * tiles are below u), and u takes v's place, so the tail stays sorted. */
static inline void perm_head_step(struct perm *p, int hb)
{
    unsigned dd = p->d[hb - 1], u = p->t[hb - 1];
    p->t[hb - 1] = p->t[hb + (int)dd];
    p->t[hb + (int)dd] = (uint8_t)u;
    p->d[hb - 1] = (uint8_t)(dd + 1);
    p->dsum++;
    p->lex += TAIL_ROWS;
}

/* Make wn the window whose first block is base (a multiple of
 * WINDOW_BLOCKS) and fill its tables: from the current window by
 * window_step when only the head's last digit goes up, else by
 * window_build from the first board. */
void window_enter(struct window *wn, const struct wtab *wt, const struct vtab *v,
                  uint64_t base, int m);

/* Lex rank of the target of move zm = ZMOVE(dir, z) (the vertical move of
 * blank z) from the entry of blank z in block base + j of the worker's
 * window, by two table reads: see struct wtab.  (>> of a negative int64_t
 * is arithmetic in GCC and Clang, the compilers the Makefile takes.) */
static inline __attribute__((always_inline)) uint64_t
window_lex(const struct window *wn, size_t zm, unsigned j)
{
    int64_t packed = wn->zrow[zm][j];
    return (uint64_t)wn->zhead[zm][packed & 7] + (uint64_t)(packed >> 3);
}

/* Index of the vertical neighbour (dir 0: up, 1: down) of the entry of
 * blank z in block base + j of the worker's window. */
static inline __attribute__((always_inline)) uint64_t
window_target(const struct window *wn, int dir, size_t z, unsigned j, uint64_t n,
              const int c)
{
    uint64_t lex = window_lex(wn, ZMOVE(dir, z), j);
    return (lex >> 1) * n + (dir ? z + (uint64_t)c : z - (uint64_t)c);
}

#endif
