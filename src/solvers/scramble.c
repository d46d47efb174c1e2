/*
 * scramble.c - uniformly random solvable boards and random walks
 * (scramble.h).
 */
#include "slide/scramble.h"

#include <string.h>

#include "slide/parity.h"

static int check_dims(const struct board *goal, const struct board *out,
                      slide_error *err)
{
    if (out->rows != goal->rows || out->cols != goal->cols || !out->cells)
        return slide_fail(err, SLIDE_EINVAL,
                          "the output board is %dx%d but the goal is %dx%d",
                          out->rows, out->cols, goal->rows, goal->cols);
    return SLIDE_OK;
}

/* A path board: the goal's tiles in order with the blank on a random cell. */
static void draw_path(struct rng *r, const struct board *goal, struct board *out)
{
    int n = board_cells(goal);
    int z = (int)rng_below(r, (uint64_t)n);
    for (int k = 0, i = 0; k < n; k++) {
        if (goal->cells[k] == 0)
            continue;
        if (i == z)
            i++;
        out->cells[i++] = goal->cells[k];
    }
    out->cells[z] = 0;
}

/* Swap the tiles on the first two cells without the blank (parity flip). */
static void swap_first_tiles(struct board *b)
{
    int first = b->cells[0] ? 0 : 1;
    int second = b->cells[first + 1] ? first + 1 : first + 2;
    int t = b->cells[first];
    b->cells[first] = b->cells[second];
    b->cells[second] = t;
}

int scramble_uniform(struct rng *r, const struct board *goal, struct board *out,
                     slide_error *err)
{
    int rc = check_dims(goal, out, err);
    if (rc)
        return rc;
    int n = board_cells(goal);
    if (goal->rows == 1 || goal->cols == 1) {
        draw_path(r, goal, out);
        return SLIDE_OK;
    }
    memcpy(out->cells, goal->cells, (size_t)n * sizeof *out->cells);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        int t = out->cells[i];
        out->cells[i] = out->cells[j];
        out->cells[j] = t;
    }
    struct parity_report pr;
    if ((rc = parity_check(out, goal, &pr, err)))
        return rc;
    if (!pr.solvable)
        swap_first_tiles(out);
    return SLIDE_OK;
}

/* The legal moves from `blank` other than `banned` (-1: none) into moves. */
static int legal_moves(const struct board *b, int blank, int banned,
                       enum move moves[MOVE_COUNT])
{
    int count = 0;
    for (int m = 0; m < MOVE_COUNT; m++)
        if (m != banned && board_step(b->rows, b->cols, blank, (enum move)m) >= 0)
            moves[count++] = (enum move)m;
    return count;
}

int scramble_walk(struct rng *r, const struct board *goal, uint64_t k,
                  struct board *out, slide_error *err)
{
    int rc = check_dims(goal, out, err);
    if (rc)
        return rc;
    if (k > 0 && board_cells(goal) == 1)
        return slide_fail(err, SLIDE_EINVAL,
                          "a 1x1 board has no moves, so only a walk of 0 moves exists");
    memcpy(out->cells, goal->cells, (size_t)board_cells(goal) * sizeof *out->cells);
    int blank = board_blank(out), banned = -1;
    for (uint64_t step = 0; step < k; step++) {
        enum move moves[MOVE_COUNT];
        int count = legal_moves(out, blank, banned, moves);
        if (count == 0) /* a path's end: the undo is the only move */
            count = legal_moves(out, blank, -1, moves);
        enum move m = moves[rng_below(r, (uint64_t)count)];
        board_move(out, &blank, m);
        banned = (int)move_inverse(m);
    }
    return SLIDE_OK;
}
