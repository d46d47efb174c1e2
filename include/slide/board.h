/*
 * board.h - an R x C sliding-tile board: dimensions, cells, parsing,
 * formatting, goals and moves.
 *
 * Representation: cells are numbered 0..n-1 in reading order (row-major),
 * n = rows * cols; cell k is at row k / cols, column k % cols.  cells[k]
 * holds the tile on cell k: tiles are 1..n-1 and the blank is 0.
 *
 * Invariants of a valid board: 1 <= rows, cols <= BOARD_MAX_SIDE; every value
 * 0..n-1 appears exactly once in cells.  board_parse and board_goal only
 * produce valid boards; board_move keeps a board valid.
 *
 * A move is named by the direction the BLANK travels: U (up), D (down),
 * L (left), R (right).  Equivalently the tile next to the blank in that
 * direction slides the opposite way.
 *
 * Text syntax (board_parse): rows separated by '/' or newlines, cells by
 * spaces, tabs or commas, the blank written 0, '_' or '.'.  Example for the
 * standard 3x3 goal: "1 2 3/4 5 6/7 8 0".
 */
#ifndef SLIDE_BOARD_H
#define SLIDE_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "slide/error.h"

/* Largest side accepted by the parser and the solvers that work on any size. */
#define BOARD_MAX_SIDE 1000
/* The largest tile number of any board (BOARD_MAX_SIDE^2 - 1). */
#define BOARD_MAX_TILE (BOARD_MAX_SIDE * BOARD_MAX_SIDE - 1)

struct board {
    int rows;
    int cols;
    int *cells; /* rows * cols entries, owned by the board */
};

enum move { MOVE_UP = 0, MOVE_DOWN = 1, MOVE_LEFT = 2, MOVE_RIGHT = 3 };
#define MOVE_COUNT 4

/* Number of cells, rows * cols. */
static inline int board_cells(const struct board *b) { return b->rows * b->cols; }

/*
 * Allocate an all-zero rows x cols board (not yet valid).  rows, cols in
 * 1..BOARD_MAX_SIDE.  Errors: SLIDE_EINVAL for a side out of range,
 * SLIDE_ENOMEM.  Free with board_free.
 */
int board_alloc(struct board *b, int rows, int cols, slide_error *err);

/* Release the cells of b (b may be zeroed or already freed). */
void board_free(struct board *b);

/* Deep copy of src into dst (dst is allocated here).  Errors: SLIDE_ENOMEM. */
int board_copy(struct board *dst, const struct board *src, slide_error *err);

/* 1 if a and b have the same dimensions and cells, else 0. */
int board_equal(const struct board *a, const struct board *b);

/*
 * Parse "RxC" (for example "3x4"; 'X' also accepted) into rows and cols,
 * each 1..BOARD_MAX_SIDE.  Errors: SLIDE_EINVAL naming what was wrong.
 */
int board_parse_dims(const char *text, int *rows, int *cols, slide_error *err);

/*
 * The rectangle that n cells written on one line most likely stand for:
 * rows x cols = n with 2 <= rows <= cols and rows the largest divisor of n
 * up to sqrt(n) (16: 4x4, 12: 3x4, 6: 2x3, 8: 2x4).  Returns 1, or 0 when
 * there is none (n < 4 or prime).
 */
int board_rectangle(int n, int *rows, int *cols);

/*
 * Parse a board from text (syntax above).  If rows and cols are both > 0 the
 * text may also be one flat list of rows*cols cells; otherwise the size is
 * inferred from the rows and must then agree with rows/cols when given.
 * Validates: equal row lengths, every cell a tile 1..n-1 or the blank, each
 * exactly once.  Errors (SLIDE_EINVAL), one line each, e.g.
 *   "tile 5 appears twice", "row 2 has 4 cells but row 1 has 3",
 *   "tile 12 is out of range for a 3x3 board (1..8)".
 * On success out owns newly allocated cells.
 */
int board_parse(const char *text, int rows, int cols, struct board *out,
                slide_error *err);

/*
 * The standard goal: tiles 1..n-1 in reading order, blank in the last cell.
 * Errors: as board_alloc.
 */
int board_goal(struct board *b, int rows, int cols, slide_error *err);

/*
 * A goal as the command line and the page name it: one of the words
 *   last, standard       the standard goal (board_goal)
 *   first, blank-first   the blank first, then 1..n-1 (Korf's convention)
 * (surrounding white space ignored) for a rows x cols board, or any board
 * text (board_parse).  A word needs rows, cols > 0.  Errors: those of
 * board_parse; SLIDE_EINVAL for a word without a size.
 */
int board_parse_goal(const char *text, int rows, int cols, struct board *out,
                     slide_error *err);

/* 1 when text is a blank-first goal word, 0 a standard one, -1 neither. */
int board_goal_word(const char *text);

/*
 * Check that b is valid (invariants above); used after building a board by
 * hand.  Errors: SLIDE_EINVAL with the first problem found.
 */
int board_validate(const struct board *b, slide_error *err);

/*
 * Format b as one line, rows separated by '/', cells by spaces, blank as 0
 * ("1 2 3/4 5 6/7 8 0").  Writes at most len bytes including the NUL;
 * returns the length the full text needs (like snprintf).
 */
size_t board_format(const struct board *b, char *buf, size_t len);

/* The cell holding the blank, or -1 if there is none. */
int board_blank(const struct board *b);

/*
 * The cell the blank reaches from cell `blank` by move m on a rows x cols
 * board, or -1 if that leaves the board.
 */
int board_step(int rows, int cols, int blank, enum move m);

/*
 * Apply move m to b, whose blank is on cell *blank (updated).  Returns 0, or
 * -1 (board unchanged) when the move leaves the board.
 */
int board_move(struct board *b, int *blank, enum move m);

/* 'U', 'D', 'L', 'R' for a move; move_parse is the inverse (-1 if none). */
char move_letter(enum move m);
int move_parse(char c);

/* The move that undoes m. */
static inline enum move move_inverse(enum move m) { return (enum move)(m ^ 1); }

#endif
