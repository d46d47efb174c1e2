/*
 * scramble.h - random boards: uniformly random solvable boards and random
 * walks from the goal, reproducible from a seed (rng.h).
 *
 * Representation: boards as in board.h; the caller allocates `out` with the
 * goal's dimensions (board_alloc) and reuses it for every draw, so drawing
 * many boards allocates nothing per board beyond the parity check.
 *
 * Uniform draw (R, C >= 2): shuffle all n cells of the goal by Fisher-Yates
 * (R. Durstenfeld, CACM 7(7), 1964; Knuth TAOCP 2, Algorithm 3.4.2P), a
 * uniform arrangement of the n! arrangements.  If it fails the parity
 * criterion (parity.h), swap the tiles on the first two cells, in reading
 * order, that do not hold the blank.  That swap flips the tiles' inversion
 * parity and keeps the blank, so it maps the unsolvable arrangements one to
 * one onto the solvable ones (it is its own inverse on a fixed pair of
 * cells); every one of the n!/2 solvable boards therefore has probability
 * 2/n!.  On a 1-row or 1-column board (a path) only the n boards with the
 * tiles in goal order are solvable: the blank's cell is drawn uniformly.
 *
 * Random walk: k moves of the blank from the goal, each drawn uniformly
 * among the legal moves that do not undo the move before (on a path the
 * undo is taken when it is the only legal move).  The move graph is
 * bipartite, so the distance of the result has the parity of k and is at
 * most k.
 *
 * Determinism: for a seed, goal and sequence of calls the boards are the
 * same on every machine (64-bit integer arithmetic only).
 */
#ifndef SLIDE_SCRAMBLE_H
#define SLIDE_SCRAMBLE_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/rng.h"

/*
 * Draw a uniformly random board that reaches `goal` (valid, any size up to
 * BOARD_MAX_SIDE x BOARD_MAX_SIDE) into out (allocated with the goal's
 * dimensions).  Uses about n + 1 draws of r.  Errors: SLIDE_EINVAL when
 * out's dimensions differ from the goal's, SLIDE_ENOMEM (parity check).
 */
int scramble_uniform(struct rng *r, const struct board *goal, struct board *out,
                     slide_error *err);

/*
 * Write into out (allocated with the goal's dimensions) the board reached
 * from `goal` by a random walk of k blank moves without immediate undo.
 * Errors: SLIDE_EINVAL when out's dimensions differ from the goal's, or when
 * k > 0 on a 1x1 board (it has no moves).
 */
int scramble_walk(struct rng *r, const struct board *goal, uint64_t k,
                  struct board *out, slide_error *err);

#endif
