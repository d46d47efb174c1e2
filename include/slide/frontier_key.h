/*
 * frontier_key.h - boards as 128-bit keys for the frontier search
 * (frontier.h), on boards of up to FKEY_MAX_CELLS cells.
 *
 * Representation: the compact index of space.h, computed in 128 bits.  A
 * board is (t, z): z the blank's cell, t the m = n - 1 tiles in reading
 * order with the blank skipped, relabelled by their position in the goal's
 * t.  Of the two permutations of lexicographic ranks 2h and 2h + 1 one is
 * even and one odd, so the solvable boards (t's parity equal to
 * need_parity[z] = (C-1) * |row(z) - row(z_goal)| mod 2) are numbered
 *   key = h * n + z,   h = lex_rank(t) >> 1,   0 <= key < (RC)!/2.
 * On boards of up to 20 cells the key is exactly space_rank's index, so
 * results (antipodes, first boards of a layer) name the same numbers as the
 * two-bit BFS.  1-row and 1-column boards are paths: t never changes, the
 * key is z and there are n keys.
 *
 * Keys are dense in [0, size): sorted layers of keys have small gaps, which
 * is what the delta coding of frontier_stream.h compresses.
 */
#ifndef SLIDE_FRONTIER_KEY_H
#define SLIDE_FRONTIER_KEY_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/metric.h"
#include "slide/rank.h"

/* 34! < 2^128: the largest board whose keys fit in 128 bits. */
#define FKEY_MAX_CELLS 34

__extension__ typedef unsigned __int128 fkey;

_Static_assert(sizeof(fkey) == 16, "fkey is a 128-bit integer");

struct fkey_space {
    int rows, cols, n, m;
    int goal_blank;
    int path_graph;                       /* 1-row or 1-column board */
    int label[FKEY_MAX_CELLS];            /* goal t index -> tile label */
    int index_of[FKEY_MAX_CELLS + 1];     /* tile label -> goal t index */
    uint8_t need_parity[FKEY_MAX_CELLS];  /* parity t must have at z */
    fkey size;                            /* (RC)!/2, or n on a path */
    int bits;                             /* bits of size - 1: key width */
    uint64_t fact[RANK_MAX_LEN + 1];      /* k!, for the neighbours' ranks */
};

/*
 * Set up the keys of goal's board (a valid board).  Errors: SLIDE_ERANGE
 * when it has more than FKEY_MAX_CELLS cells (the message names both).
 */
int fkey_init(struct fkey_space *s, const struct board *goal, slide_error *err);

/* Key of (t, z); t holds m goal indexes with the parity need_parity[z]. */
fkey fkey_encode_tz(const struct fkey_space *s, const uint8_t *t, int z);

/* t (m entries) of key (< size); returns z. */
int fkey_decode_tz(const struct fkey_space *s, fkey key, uint8_t *t);

/* 1 if board b (the space's dimensions, valid) can reach the goal. */
int fkey_reachable(const struct fkey_space *s, const struct board *b);

/* Key of board b; precondition: fkey_reachable(s, b). */
fkey fkey_of_board(const struct fkey_space *s, const struct board *b);

/* Write the board of key into b (already of the space's dimensions). */
void fkey_board(const struct fkey_space *s, fkey key, struct board *b);

/*
 * Keys of the boards one move of ms (metric.h: the same board size) from
 * key into out (room for ms->max keys); returns how many (ms->count of the
 * blank's cell: 2-4 in the single-tile metric, rows + cols - 2 in the
 * multi-tile one).  A jump of k cells along a column is computed from the
 * jump of k - 1 cells before it (ms lists them in that order), so a
 * multi-tile move costs one rotation and one encoding, as a unit move.
 */
int fkey_neighbours(const struct fkey_space *s, const struct move_set *ms, fkey key,
                    fkey *out);

/* Decimal text of k into buf (at least 40 bytes); returns buf. */
char *fkey_format(fkey k, char *buf);

#endif
