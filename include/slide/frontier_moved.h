/*
 * frontier_moved.h - boards of any size as "moved keys" for the frontier
 * search (frontier.h): the blank's cell and the cells whose tile differs
 * from the goal's, with those tiles.  A key's length grows with the
 * distance searched, not with the number of cells.
 *
 * Representation: w = 1, 2 or 3 bytes hold a cell index or a tile label
 * (the fewest bytes that hold n - 1), big-endian.  A key of len bytes is
 *   z | k | c_1 t_1 | c_2 t_2 | ... | c_k t_k | zero bytes up to len
 * with z the blank's cell, k the number of pairs, and (c_i, t_i) every cell
 * c_i != z whose tile t_i differs from the goal's tile on c_i, by
 * increasing c_i.  The blank's goal cell is among the c_i whenever z is
 * elsewhere.  Equal boards have equal bytes; keys are ordered by memcmp
 * (the order means nothing; the frontier search only needs one).
 *
 * Length: a board at distance d was reached by d moves, each moving one
 * tile (the single-tile metric) or at most r = max(rows, cols) - 1 tiles
 * (the multi-tile metric), so at most min(r d, n - 1) tiles differ from the
 * goal: keys of the boards within distance d fit fmoved_key_len(s, d) =
 * w * (2 + 2 * min(r d, n - 1)) bytes.  Trailing zero bytes carry nothing, so a key written with
 * one length reads back with any larger one (frontier_stream.h stores them
 * without the zeros): the key length of a search can grow with its depth.
 *
 * On boards of up to FKEY_MAX_CELLS cells the rank keys of frontier_key.h
 * are shorter and denser; moved keys serve beyond, and as a second,
 * independent representation against which the rank keys are checked.
 */
#ifndef SLIDE_FRONTIER_MOVED_H
#define SLIDE_FRONTIER_MOVED_H

#include <stddef.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/metric.h"

/* Pairs a key may hold (the depth of a search with moved keys on boards of
 * more than this many cells). */
#define FMOVED_MAX_PAIRS 1024

struct fmoved_space {
    int rows, cols, n;
    int w;           /* bytes of a cell index or tile label: 1..3 */
    int goal_blank;
    int per_move;    /* tiles one move may move: 1 (STM), max(rows, cols) - 1 (MTM) */
    int *goal;       /* n entries: the goal's tile on each cell (0: blank) */
    int *home;       /* n entries: the goal cell of each tile (home[0]: blank) */
};

/*
 * Set up the moved keys of goal's board (valid) for a search in metric m
 * (it bounds the tiles out of place at a distance).  Errors: SLIDE_ENOMEM.
 * Free with fmoved_free.
 */
int fmoved_init(struct fmoved_space *s, const struct board *goal, enum metric m,
                slide_error *err);

void fmoved_free(struct fmoved_space *s);

/* Pairs of the keys of boards within distance depth (>= 0): min(per_move *
 * depth, n-1), or -1 when that exceeds FMOVED_MAX_PAIRS. */
int fmoved_max_pairs(const struct fmoved_space *s, int depth);

/* Bytes of the keys of boards within distance depth: w * (2 + 2 * pairs);
 * 0 when fmoved_max_pairs is -1. */
size_t fmoved_key_len(const struct fmoved_space *s, int depth);

/*
 * Key of board b (the space's dimensions, valid) into key (len bytes).
 * Returns 0, or -1 when more tiles differ from the goal than len holds.
 */
int fmoved_encode(const struct fmoved_space *s, const struct board *b, unsigned char *key,
                  size_t len);

/* Write the board of key (valid, len bytes) into b (the space's dimensions). */
void fmoved_board(const struct fmoved_space *s, const unsigned char *key, struct board *b);

/*
 * Keys of the boards one move of ms (metric.h: the same board size) from
 * key (valid, len bytes) into out (room for ms->max keys of len bytes each,
 * one after another); returns how many (ms->count of the blank's cell), or
 * -1 when a neighbour does not fit len bytes (len was chosen for a smaller
 * depth).  A jump of k cells is made from the jump of k - 1 cells before
 * it (ms lists them in that order): one pair dropped and one inserted.
 */
int fmoved_neighbours(const struct fmoved_space *s, const struct move_set *ms,
                      const unsigned char *key, size_t len, unsigned char *out);

/*
 * 1 when key (len bytes) is well formed: z and every cell below n, cells
 * strictly increasing and never z, each tile different from the goal's
 * tile there, the tiles on the pairs' cells and z a rearrangement of the
 * goal's tiles on those cells, zero bytes after the pairs; else 0.  (It
 * does not check that the goal can be reached: the parity.)
 */
int fmoved_valid(const struct fmoved_space *s, const unsigned char *key, size_t len);

#endif
