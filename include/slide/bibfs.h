/*
 * bibfs.h - exact distance and an optimal path between any two boards of one
 * small puzzle (R * C <= 20) by bidirectional breadth-first search.
 *
 * Representation: a board is its index in the FULL index space (space.h) of
 * the target board, so any two arrangements can be searched, not only a
 * board and the standard goal.  Each side keeps a hash set of the indexes it
 * has reached, each with the blank move that first reached it (open
 * addressing, linear probing, at most half full), and the indexes of its
 * current layer (the frontier).
 *
 * Method (bidirectional BFS, Pohl 1971): one side searches from `from`, the
 * other from `to`; each round expands one whole layer of the side whose
 * frontier is smaller.  With df and db layers complete and no board seen by
 * both sides, every path is longer than df + db; a board of the new layer
 * (at df + 1) that the other side has seen (at <= db) therefore closes a
 * path of exactly df + 1 + db moves, which is optimal - so the first such
 * board ends the search.  The path is read back through the stored moves of
 * both sides.  Boards in different parity classes (parity.h) are refused
 * without search.
 *
 * Limits: R * C <= SPACE_MAX_CELLS (20) so that an index fits in 64 bits; and
 * a cap on the boards stored by both sides together (18 to 36 bytes each:
 * a slot is an 8-byte index and a 1-byte move, and a set doubles when it
 * would pass half full, so it is between a quarter and half full),
 * beyond which the search stops with an error instead of exhausting memory.
 */
#ifndef SLIDE_BIBFS_H
#define SLIDE_BIBFS_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/metric.h"

/* A cap of 20 M boards is up to 0.72 GB of hash slots (36 bytes each). */
#define BIBFS_DEFAULT_MAX_STATES 20000000ULL

struct bibfs_result {
    int distance;      /* moves in an optimal solution, 0 when from == to */
    char *path;        /* the distance moves from `from` to `to` in the notation of
                          metric.h (STM: one letter 'U','D','L','R' per move; MTM:
                          groups of one letter separated by spaces), NUL-ended */
    uint64_t states;   /* boards stored by both sides */
    uint64_t expanded; /* boards whose neighbours were generated */
    int forward_layers, backward_layers; /* layers each side completed or began */
};

/*
 * The distance from board `from` to board `to` (same dimensions, both
 * valid, R * C <= 20) and an optimal path, into r (free with
 * bibfs_result_free).  max_states: the cap on stored boards (0 means
 * BIBFS_DEFAULT_MAX_STATES).
 * Errors: SLIDE_EINVAL (dimensions differ, an invalid board), SLIDE_ERANGE
 * (more than 20 cells), SLIDE_EUNSOLVABLE (the boards are in different
 * parity classes: no path exists), SLIDE_ENOMEM (out of memory, or the cap
 * was reached: the message names the cap and how deep both sides got).
 */
int bibfs_solve(const struct board *from, const struct board *to,
                uint64_t max_states, struct bibfs_result *r, slide_error *err);

/*
 * The same in metric `metric` (metric.h): in the multi-tile metric a move
 * jumps the blank to any cell of its row or column (move_set: the one move
 * generator of each metric), and r->distance counts such moves.
 * bibfs_solve is bibfs_solve_metric with METRIC_STM.  Errors: as
 * bibfs_solve, and SLIDE_EINVAL for an unknown metric.
 */
int bibfs_solve_metric(const struct board *from, const struct board *to,
                       uint64_t max_states, enum metric metric, struct bibfs_result *r,
                       slide_error *err);

void bibfs_result_free(struct bibfs_result *r);

#endif
