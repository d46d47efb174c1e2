/*
 * space.h - an index space: the boards of one R x C puzzle with one goal,
 * numbered 0..size-1 so that an index can address a packed array.
 *
 * Representation: a board is (t, z) - z the blank's cell, t the tiles in
 * reading order with the blank skipped, relabelled by their index in the
 * goal's t (goal: t = 0, 1, ..., m-1 with m = n-1 tiles, blank on z_goal).
 *
 *   compact space: index = half_rank(t) * n + z over the boards that satisfy
 *                  the parity criterion (parity.h): t's parity must equal
 *                  need_parity[z] = (C-1) * |row(z) - row(z_goal)| mod 2.
 *                  size = n * m!/2 = (RC)!/2 for R, C >= 2 - every index is
 *                  a solvable board.  1-row/1-column boards (paths) reach only
 *                  the goal order of their tiles, so their compact space is
 *                  that one t: index = z, size = n.
 *   full space:    index = lex_rank(t) * n + z over all (RC)! arrangements.
 *
 * Why (t, z) and not a rank of all n cells: the blank's cell is index % n, so
 * a board's colour (the parity class of the bipartite move graph, which the
 * two-bit BFS needs for every entry it scans) costs no unranking; and a
 * horizontal move leaves t unchanged, so it moves the index by exactly +-1.
 * A vertical move rotates C consecutive entries of t.
 *
 * colour[z] = (|row(z)-row(z_goal)| + |col(z)-col(z_goal)|) mod 2: every move
 * flips it, so a board's distance from the goal has the parity of its colour.
 *
 * Limits: n <= SPACE_MAX_CELLS (20) so that every index fits in 64 bits.
 */
#ifndef SLIDE_SPACE_H
#define SLIDE_SPACE_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/metric.h"
#include "slide/rank.h"

#define SPACE_MAX_CELLS RANK_MAX_LEN

enum space_kind { SPACE_COMPACT = 0, SPACE_FULL = 1 };

struct space {
    int rows, cols;
    int n;                 /* cells */
    int m;                 /* tiles, n - 1 */
    enum space_kind kind;
    int goal_blank;        /* z_goal */
    int path_graph;        /* 1-row or 1-column board */
    int label[SPACE_MAX_CELLS];         /* goal t index -> tile label */
    int index_of[SPACE_MAX_CELLS + 1];  /* tile label -> goal t index */
    uint8_t colour[SPACE_MAX_CELLS];
    uint8_t need_parity[SPACE_MAX_CELLS]; /* compact space: parity of t at z */
    uint64_t blocks;       /* number of t values: m!/2 (compact; 1 on a path) or m! */
    uint64_t size;         /* blocks * n */
    uint64_t reachable;    /* boards that can reach the goal: (RC)!/2, or n */
};

/*
 * Set up the space of goal's dimensions and goal (a valid board).
 * Errors: SLIDE_ERANGE when the board has more than SPACE_MAX_CELLS cells
 * (the message names the cell count and the limit).
 */
int space_init(struct space *s, const struct board *goal, enum space_kind kind,
               slide_error *err);

/* "compact" or "full"; space_kind_parse returns -1 for other names. */
const char *space_kind_name(enum space_kind k);
int space_kind_parse(const char *name);

/*
 * The (t, z) form of board b (same dimensions as the space, valid).
 * t receives m entries.  Returns z.
 */
int space_split(const struct space *s, const struct board *b, uint8_t *t);

/*
 * 1 if the board (t, z) can reach the goal: the parity theorem (parity.h) on
 * the (t, z) form - t's parity must be need_parity[z] - or, on a path graph,
 * where tiles never pass each other, t must be the goal order 0..m-1.
 */
int space_reachable_tz(const struct space *s, const uint8_t *t, int z);

/* 1 if board b belongs to the space: always for the full space, else
 * space_reachable_tz of its (t, z) form. */
int space_contains(const struct space *s, const struct board *b);

/* Index of board b; precondition: space_contains(s, b). */
uint64_t space_rank(const struct space *s, const struct board *b);

/* t (m entries) and z of index (< size); returns z. */
int space_untz(const struct space *s, uint64_t index, uint8_t *t);

/* Write the board of index into b (b already has the space's dimensions). */
void space_unrank(const struct space *s, uint64_t index, struct board *b);

/* Index of (t, z); t must have the parity need_parity[z] in the compact space. */
uint64_t space_index_tz(const struct space *s, const uint8_t *t, int z);

/*
 * Neighbours of the board (t, z) whose index is `index`: writes the index of
 * each board one move away into out (at most 4) and returns how many.
 * t is not changed.
 */
int space_neighbours_tz(const struct space *s, const uint8_t *t, int z,
                        uint64_t index, uint64_t out[MOVE_COUNT]);

/* Neighbours of an index (unranks, then as above). */
int space_neighbours(const struct space *s, uint64_t index,
                     uint64_t out[MOVE_COUNT]);

/* The most moves of one board in either metric: rows + cols - 2 < n. */
#define SPACE_MAX_MOVES SPACE_MAX_CELLS

/*
 * The boards one move of metric m (metric.h) away from (t, z), whose index
 * is `index`: out[j] their indexes, codes[j] the move codes (in STM the
 * enum move), in the order L, R, U, D and, in MTM, by increasing cells
 * within a direction.  Returns how many (at most SPACE_MAX_MOVES).  In MTM
 * a horizontal jump of k cells keeps t (index -+ k) and a vertical one is
 * k rotations of t.  t is not changed.
 */
int space_moves_tz(const struct space *s, enum metric m, const uint8_t *t, int z,
                   uint64_t index, uint64_t out[SPACE_MAX_MOVES],
                   unsigned char codes[SPACE_MAX_MOVES]);

#endif
