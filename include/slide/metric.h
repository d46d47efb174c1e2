/*
 * metric.h - what one move is: the single-tile metric (STM) or the
 * multi-tile metric (MTM), and the move generator of each, in one place.
 *
 * STM: the blank swaps with one tile next to it (one cell up, down, left or
 * right); that is one move.  MTM ("row moves", "multislide"): the blank
 * jumps to any other cell of its row or column, and the k tiles between
 * (including the one on the target cell) each slide one cell towards the
 * blank's old cell; that is one move, whatever k.  Every STM move is an MTM
 * move (k = 1), so an MTM distance is never above the STM distance, and
 * the boards reachable are the same in both metrics (an MTM move is k STM
 * moves).
 *
 * Representation of a move: one byte, a move code.  Bits 0-1 are the
 * direction the BLANK travels (enum move of board.h: U, D, L, R), bits 2-7
 * are k - 1, k the cells it travels (1..MOVE_MAX_CELLS).  An STM move has
 * k = 1, so its code is its enum move.  MTM on boards whose sides exceed
 * MOVE_MAX_CELLS + 1 is therefore refused by the searches that store codes.
 *
 * Text notation (move_format_codes, move_parse_codes): in STM one letter per
 * move (U, D, L, R: the direction the blank travels), "UULDR".  In MTM a
 * move is its letter repeated k times, and moves are separated by one
 * space: "UU L DDD" is three moves (the blank jumps 2 cells up, 1 left, 3
 * down).  Removing the spaces gives the same path as STM unit moves, so a
 * checker that knows the STM rules replays it too; a group of unequal
 * letters is not a move.
 *
 * Invariants of a struct move_set: for every cell z, codes[z * max ..
 * z * max + count[z] - 1] are the moves of the blank on z, in the order
 * U, D, L, R and by increasing k within a direction, each legal; to[] is
 * the blank's cell after each.
 */
#ifndef SLIDE_METRIC_H
#define SLIDE_METRIC_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/error.h"

enum metric { METRIC_STM = 0, METRIC_MTM = 1 };

/* The most cells one coded move travels (k - 1 in 6 bits, codes below 0xfc:
 * a search may use 0xff as "no move"). */
#define MOVE_MAX_CELLS 63

/* "stm" / "mtm"; metric_parse returns -1 for any other name. */
const char *metric_name(enum metric m);
int metric_parse(const char *name);

/* The long name: "single-tile" / "multi-tile". */
const char *metric_long_name(enum metric m);

static inline unsigned char move_code(enum move dir, int cells)
{
    return (unsigned char)((unsigned)dir | (unsigned)(cells - 1) << 2);
}
static inline enum move move_code_dir(unsigned char code) { return (enum move)(code & 3u); }
static inline int move_code_cells(unsigned char code) { return (code >> 2) + 1; }
/* The code that undoes code: the opposite direction, the same cells. */
static inline unsigned char move_code_inverse(unsigned char code)
{
    return (unsigned char)(code ^ 1u);
}

/*
 * 1 if a move `code` right after the move `came` can be skipped by an
 * optimal search: in STM the move that undoes `came`; in MTM every move
 * along the same axis (two jumps along one line are no jump or one jump,
 * so a path holding them is never shorter than one without).
 */
static inline int move_redundant(enum metric m, unsigned char came, unsigned char code)
{
    return m == METRIC_MTM ? ((came ^ code) & 2u) == 0
                           : (code & 3u) == ((came & 3u) ^ 1u);
}

/* The moves of every blank cell of a rows x cols board in one metric. */
struct move_set {
    enum metric metric;
    int rows, cols, n;
    int max;               /* moves of a cell at most: 4, or rows + cols - 2 */
    int *count;            /* n entries */
    unsigned char *codes;  /* n * max */
    int *to;               /* n * max: the blank's cell after the move */
};

/*
 * Build the move set of a rows x cols board (1..BOARD_MAX_SIDE each) in
 * metric m.  Errors: SLIDE_EINVAL (a bad metric), SLIDE_ERANGE (MTM with a
 * side above MOVE_MAX_CELLS + 1: its moves do not fit a code), SLIDE_ENOMEM.
 * Free with move_set_free.
 */
int move_set_init(struct move_set *s, int rows, int cols, enum metric m,
                  slide_error *err);
void move_set_free(struct move_set *s);

/*
 * Apply the move `code` to cells (a rows x cols board, cols given) whose
 * blank is on `blank`: the blank travels its cells, each tile met slides one
 * cell back.  Returns the blank's new cell.  The move must be legal.
 */
int move_apply(int *cells, int cols, int blank, unsigned char code);

/* The cell the blank reaches by `code` from `blank`, or -1 off the board. */
int move_target(int rows, int cols, int blank, unsigned char code);

/*
 * Write codes[0..len-1] in the notation above into buf (len bytes incl.
 * the NUL, truncated like snprintf); returns the length the full text
 * needs.
 */
size_t move_format_codes(const unsigned char *codes, int len, enum metric m, char *buf,
                         size_t size);

/*
 * Read the notation of metric m from text into codes (at most max);
 * *len receives the count.  Errors: SLIDE_EINVAL naming the first bad
 * character or group (mixed letters, more than MOVE_MAX_CELLS letters, a
 * stray space in STM), or too many moves.
 */
int move_parse_codes(const char *text, enum metric m, unsigned char *codes, int max,
                     int *len, slide_error *err);

#endif
