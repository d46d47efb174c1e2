/*
 * layers.h - a valid (not optimal) solution of any solvable R x C board, up
 * to 1000 x 1000, by layer-by-layer construction.
 *
 * Representation: the solution is a sequence of blank moves, one byte each,
 * 'U', 'D', 'L' or 'R' (board.h: the direction the BLANK travels), held in a
 * growable buffer (struct layers_moves); with count_only set, the moves are
 * counted and not stored (a 1000 x 1000 solution has about 2.7e9 moves).
 *
 * Method (the seeds' "layer-by-layer" construction; see e.g. Parberry 1995,
 * "A real-time algorithm for the (n^2-1)-puzzle", for the same scheme):
 *   1. Any goal: move the goal's blank to the last cell by the fixed path
 *      P = R^(C-1-gc) D^(R-1-gr) (goal blank on row gr, column gc), relabel
 *      the tiles so that this board is the standard goal, solve, and append
 *      P reversed (U^(R-1-gr) L^(C-1-gc)).
 *   2. While the unsolved region (h rows x w columns, bottom-right of the
 *      board) is larger than 2 x 2: place its top row if h >= 3, then its
 *      left column if w >= 3 (a column is a row of the transposed region).
 *      A line of length w is placed tile by tile: the tile goes towards
 *      its target by a staircase (horizontal and vertical steps alternate,
 *      entering row 0 only on the target's column), then straight; for each
 *      step the blank first reaches the cell ahead of the tile without
 *      passing it - round a free side lane, across a free corner, or around
 *      the ring of 8 cells that surround the tile - and the tile slides into
 *      it.  Placed tiles are never moved again.  The
 *      last two tiles a, b of the line are brought into the 3 x 2 block at
 *      the line's end (a to its place, then b to the cell below b's place,
 *      then the blank into the block) and finished by the shortest sequence
 *      inside the block, from a table of the 120 (blank, a, b) placements
 *      computed by BFS (the other three tiles of the block are unplaced and
 *      may move).
 *   3. The last 2 x 2 block: its 12 reachable states form one cycle, so the
 *      blank goes round it clockwise or anticlockwise, at most 6 moves.
 *   A line whose tiles are all home already is skipped (locked as placed),
 *   and a move that undoes the last surviving move cancels it (the pair
 *   is removed; the window reaches 2^20 moves back in both the stored and
 *   the counting mode, more than any blank route of a 1000 x 1000 board):
 *   so no solution holds a move followed by its inverse, a solved board
 *   takes 0 moves and a board one move from the standard goal takes 1.
 *   1 x N and N x 1 boards are paths: a board is solvable iff its tiles are
 *   already in goal order, and the blank just walks to the goal's blank.
 *
 * Bound (guaranteed, layers_bound): every tile of a line of length w in a
 * region of h x w (line direction first; D = h + w - 2, the largest
 * Manhattan distance in the region) costs at most 6D + 4 moves: the blank
 * reaches the tile by an L-shaped path of at most D - 1 moves that never
 * passes the tile or a placed tile, goes round the tile's ring to the first
 * cell ahead (at most 6), and each of the at most D tile steps costs 1 + 4
 * moves (1 + 2 at a turn with a free corner, as on the staircase), except at
 * most one turn under a placed tile that costs 1 + 6.  The line adds at most
 * D + 2 moves to bring the blank into the 3 x 2 block and at most
 * LAYERS_BLOCK_RADIUS moves inside it.  So
 *   moves <= sum over lines of [w (6D + 4) + D + 2 + LAYERS_BLOCK_RADIUS]
 *            + 6 + (R + C - 2),
 * summed over the lines the construction places (layers_bound evaluates
 * it).  For n x n this is at most 8 n^3 + n^2 (a test checks every
 * n <= 1000): O(n) moves per tile, O(n^3) in all.  Random boards take about
 * 2.6 n^3 (scripts/bench-solvers.sh).  1 x N and N x 1 boards need at most
 * N - 1 moves.
 *
 * Time: O(moves) - the position of every tile is kept in an inverse array,
 * so no step scans the board; the general search (A* with the Manhattan
 * heuristic, counted in `searches`) is needed only to bring the blank into
 * a line's final 3 x 2 block when the line's last tiles are already there.
 */
#ifndef SLIDE_LAYERS_H
#define SLIDE_LAYERS_H

#include <stdint.h>

#include "slide/board.h"

/* Largest distance in the 3 x 2 end-of-line table (computed by BFS at run
 * time; a test checks the two agree). */
#define LAYERS_BLOCK_RADIUS 18

struct layers_moves {
    char *moves;       /* len moves U/D/L/R, not NUL-terminated (untouched if count_only) */
    uint64_t len;      /* moves in the solution */
    uint64_t cap;      /* bytes allocated in moves */
    int count_only;    /* set by the caller: count the moves, do not store them */
    uint64_t searches; /* diagnostic: blank routes found by the general search */
    uint64_t fallbacks;/* diagnostic: of those, routes to a tile's neighbour - the
                          bound's argument says 0 (the L path and the ring suffice) */
};

/*
 * Solve board b towards goal (same dimensions, both valid, sides
 * 1..BOARD_MAX_SIDE) by the layer-by-layer construction.  out must be
 * zeroed or reused (its buffer is kept and overwritten); set count_only
 * first to get only out->len.  On success out->len <= layers_bound(R, C)
 * and the moves, applied to b, give goal.
 * Errors: SLIDE_EINVAL (dimensions differ, an invalid board),
 * SLIDE_EUNSOLVABLE (the parity criterion of parity.h says b cannot reach
 * goal; nothing is searched), SLIDE_ENOMEM.
 */
int layers_solve(const struct board *b, const struct board *goal,
                 struct layers_moves *out, slide_error *err);

/* The bound above for an R x C board, any goal (R, C in 1..BOARD_MAX_SIDE). */
uint64_t layers_bound(int rows, int cols);

/* The largest distance in the 3 x 2 end-of-line table, computed now. */
int layers_block_radius(void);

/* Release the move buffer (out may be zeroed). */
void layers_moves_free(struct layers_moves *out);

#endif
