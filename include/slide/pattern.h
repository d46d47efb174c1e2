/*
 * pattern.h - pattern spaces: the abstraction of a board to the cells of a
 * chosen set of tiles (the pattern) and the blank, for pattern databases
 * (Culberson and Schaeffer, "Pattern databases", Computational
 * Intelligence 14(3), 1998).
 *
 * Representation: the pattern is tiles[0..k-1] (labels 1..n-1, distinct);
 * a placement is pos[0..k-1], pos[i] the cell of tiles[i]; it is numbered
 * by its k-permutation rank (rank.h) p in [0, placements), placements =
 * n!/(n-k)!.  The other n - k cells are the free cells (the blank and the
 * tiles outside the pattern, which the abstraction does not tell apart);
 * a state with the blank is (p, f) with f the blank's rank among the free
 * cells in increasing cell order, index p * (n - k) + f, so one
 * placement's states are consecutive.  occ is the bit mask of the
 * placement's cells (bit c for cell c).
 *
 * Invariants: 2 <= rows, cols; n = rows * cols <= PATTERN_MAX_CELLS (masks
 * fit in 32 bits); 1 <= k <= n - 1; states fit in 64 bits.
 */
#ifndef SLIDE_PATTERN_H
#define SLIDE_PATTERN_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/rank.h"

#define PATTERN_MAX_CELLS 30
#define PATTERN_MAX_TILES (PATTERN_MAX_CELLS - 1)

struct pattern {
    int rows, cols, n, k;
    int nfree;                             /* n - k */
    int tiles[PATTERN_MAX_TILES];          /* labels, in the order given */
    uint8_t goal_pos[PATTERN_MAX_TILES];   /* goal cell of tiles[i] */
    int goal_blank;                        /* the goal's blank cell */
    int slot[PATTERN_MAX_CELLS];           /* label -> i, or -1 outside */
    int goal_cells[PATTERN_MAX_CELLS];     /* the goal board, reading order */
    uint64_t placements;                   /* n!/(n-k)! */
    uint32_t nbr[PATTERN_MAX_CELLS];       /* cells next to cell c, as a mask */
    uint32_t not_first_col, not_last_col;  /* cells outside column 0 / C - 1:
                                              where a shift by one cell may land */
    uint64_t weight[PATTERN_MAX_TILES];    /* rank weight of tiles[i]'s digit:
                                              (n-i-1)!/(n-k)! */
};

/*
 * Set up the pattern of tiles[0..k-1] on goal's board and goal.  Errors
 * (SLIDE_EINVAL, naming what is allowed): a side below 2, more than
 * PATTERN_MAX_CELLS cells, k outside 1..n-1, a tile out of range or given
 * twice; SLIDE_ERANGE when the states do not fit in 64 bits.
 */
int pattern_init(struct pattern *pat, const struct board *goal, const int *tiles,
                 int k, slide_error *err);

/*
 * Parse a tile list "1,2,3" (also "1-7" ranges) into tiles (at most max);
 * *k receives the count.  Errors: SLIDE_EINVAL naming the bad item.
 */
int pattern_parse_tiles(const char *text, int *tiles, int max, int *k,
                        slide_error *err);

/* "1,2,3,4" into buf (len bytes); returns the length needed (snprintf). */
size_t pattern_format_tiles(const struct pattern *pat, char *buf, size_t len);

/* The placement of the pattern on a board: pos[i] = cell of tiles[i]. */
void pattern_placement(const struct pattern *pat, const int *cells, uint8_t *pos);

/* Bit mask of the cells of pos[0..k-1]. */
static inline uint32_t pattern_occupied(const struct pattern *pat, const uint8_t *pos)
{
    uint32_t occ = 0;
    for (int i = 0; i < pat->k; i++)
        occ |= 1u << pos[i];
    return occ;
}

/* Rank of free cell z among the free cells of occ (z not in occ). */
static inline int pattern_free_rank(uint32_t occ, int z)
{
    return z - __builtin_popcount(occ & ((1u << z) - 1u));
}

/* The free cell of rank f among the free cells of occ. */
static inline int pattern_free_cell(const struct pattern *pat, uint32_t occ, int f)
{
    uint32_t x = ~occ & ((1u << pat->n) - 1u);
    while (f-- > 0)
        x &= x - 1;
    return __builtin_ctz(x);
}

/*
 * Rank change of placement pos (rank p = rank_kperm(pos, k, n)) when tile i
 * slides from its cell c = pos[i] into the free cell z: the new placement's
 * rank is p + the returned value.  before is the mask of the cells of
 * tiles 0..i-1, occ that of all pattern tiles.
 *
 * Why it works: the lexicographic k-permutation rank (rank.h) is
 * sum_i d_i * weight[i] with digit d_i = pos[i] - |{j < i : pos[j] <
 * pos[i]}|.  Moving tile i from c to z changes d_i by (z - c) less the
 * tiles j < i strictly between c and z, and adds one to the digit of each
 * tile j > i strictly between them (moving down; all signs flip moving up);
 * no other digit changes.  A sideways move has no cell between, so it is
 * +-weight[i].  O(cells between) instead of O(k) for ranking anew.
 */
static inline int64_t pattern_move_delta(const struct pattern *pat, const int8_t *at,
                                         uint32_t occ, uint32_t before, int i, int c,
                                         int z)
{
    int lo = c < z ? c : z, hi = c < z ? z : c;
    if (hi - lo == 1)
        return c < z ? (int64_t)pat->weight[i] : -(int64_t)pat->weight[i];
    uint32_t between = ((1u << hi) - 1u) & ~((2u << lo) - 1u);
    int64_t s = (int64_t)(hi - lo - __builtin_popcount(before & between)) *
                (int64_t)pat->weight[i];
    for (uint32_t x = between & occ & ~before; x; x &= x - 1)
        s += (int64_t)pat->weight[at[__builtin_ctz(x)]];
    return c < z ? s : -s;
}

/* The cells reachable from the cells of seed through free cells of free
 * (a flood fill; seed must lie inside free). */
uint32_t pattern_region(const struct pattern *pat, uint32_t seed, uint32_t free);

/* The entries of the cells in `cells` (free cells of occ) in a placement's
 * block of two-bit entries: bit 2j for the cell of free rank j. */
uint64_t pattern_free_entries(uint32_t occ, uint32_t cells);

/* The inverse: the cells (a mask) of the entries in `entries` (bit 2j for
 * free rank j, the low bit of each two-bit entry) of a placement with
 * cells occ. */
uint32_t pattern_entries_cells(const struct pattern *pat, uint32_t occ, uint64_t entries);

#endif
