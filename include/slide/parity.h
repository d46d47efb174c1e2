/*
 * parity.h - the solvability criterion of the sliding-tile puzzle for any
 * R x C board and any goal.
 *
 * Representation: write a board as (t, z): z is the blank's cell, t the tiles
 * in reading order with the blank skipped, each tile relabelled by its index
 * in the goal's t (so the goal's own t is 0, 1, ..., n-2).  N = inversions(t).
 *
 * Theorem (Johnson 1879, Story 1879; Wilson 1974 for sufficiency): for
 * R, C >= 2 a board reaches the goal iff
 *     N + (C - 1) * (row(z) - row(z_goal))  is even.
 * Why: a horizontal move leaves t unchanged and the row unchanged; a vertical
 * move carries one tile past C - 1 others (N changes parity iff C is even)
 * and changes the blank's row by one.  For odd C this is "N even"; for even
 * C, "N + blank row distance even" - the seeds' width rules, generalised to
 * any goal.  On a 1-row or 1-column board (a path graph) tiles never pass
 * each other: a board is solvable iff t is already in goal order.
 */
#ifndef SLIDE_PARITY_H
#define SLIDE_PARITY_H

#include <stddef.h>
#include <stdint.h>

#include "slide/board.h"

struct parity_report {
    uint64_t inversions; /* N, of the tiles relabelled by goal order */
    int blank_row;       /* row of the blank, 0 = top */
    int goal_blank_row;  /* row of the goal's blank */
    int rows, cols;
    int path_graph;      /* 1 for 1-row / 1-column boards */
    int solvable;        /* 1 solvable, 0 not */
};

/*
 * Count inversions of seq[0..len-1], a permutation of 0..len-1, in
 * O(len log len) (Fenwick tree).  Errors: SLIDE_EINVAL if seq is not a
 * permutation of 0..len-1, SLIDE_ENOMEM.
 */
int parity_inversions(const int *seq, size_t len, uint64_t *count,
                      slide_error *err);

/*
 * Decide whether board b reaches goal (same dimensions, both valid), filling
 * r.  Errors: SLIDE_EINVAL when the dimensions differ, SLIDE_ENOMEM.
 */
int parity_check(const struct board *b, const struct board *goal,
                 struct parity_report *r, slide_error *err);

/*
 * Explain r in one line of words ("inversions 17, blank in row 3, goal blank
 * in row 4; width 4 is even, so inversions + rows apart must be even: 17 + 1
 * = 18 is even").  Returns the needed length like snprintf.
 */
size_t parity_explain(const struct parity_report *r, char *buf, size_t len);

/*
 * The two goals every user meets: the standard goal 1 .. n-1 with the blank
 * last (board_goal), and the blank-first goal 0 1 .. n-1 of Korf's papers
 * (Korf 1985, the 15-puzzle instances) and many other sources.
 */
enum parity_goal_kind { PARITY_GOAL_OTHER = 0, PARITY_GOAL_STANDARD, PARITY_GOAL_BLANK_FIRST };

/* Which of the two goals `goal` is (PARITY_GOAL_OTHER for any other). */
enum parity_goal_kind parity_goal_kind(const struct board *goal);

/*
 * A reading of an unsolvable board under which it is solvable, for the
 * hints of a user interface: a board copied from a source of the other
 * convention, or a one-line list of cells meant as a rectangle.
 *   rows, cols   the shape: the board's own, or (one_line) the rectangle
 *                of its n cells (board_rectangle: 16 cells 4x4, 12 3x4)
 *   goal         PARITY_GOAL_STANDARD or PARITY_GOAL_BLANK_FIRST
 * found is 0 when there is none: b reaches goal; goal is neither of the two
 * goals above; or no reading works (odd widths: both goals are in one
 * parity class, so neither reaches a board the other does not).
 */
struct parity_hint {
    int found;
    int rows, cols;
    enum parity_goal_kind goal;
};

/*
 * Look for a parity_hint for board b and goal (same dimensions, both
 * valid).  one_line: b was read from one line of cells with no size given
 * (b->rows == 1), so a rectangle of the same cells is tried first, towards
 * the same kind of goal, then towards the other.  Then the same shape
 * towards the other kind of goal.  Errors: as parity_check.
 */
int parity_hint(const struct board *b, const struct board *goal, int one_line,
                struct parity_hint *hint, slide_error *err);

#endif
