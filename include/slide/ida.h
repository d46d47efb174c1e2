/*
 * ida.h - optimal solutions of single boards by IDA* (iterative-deepening
 * A*; R. E. Korf, "Depth-first iterative-deepening: an optimal admissible
 * tree search", Artificial Intelligence 27 (1985) 97-109).
 *
 * Method: a series of depth-first searches from the start board.  Search i
 * prunes every node whose f = g + h exceeds the threshold T_i (g = moves so
 * far, h from ida_heuristic.h); T_0 = h(start) and T_{i+1} is the smallest
 * f that exceeded T_i.  With an admissible h the first goal found is at the
 * optimal depth: every node of an optimal path has f <= d*, and no
 * threshold skips past d* (Korf 1985, Theorem 6.1).  When h has the parity
 * of the distance (Manhattan, lc) every f has the parity of h(start), so
 * the thresholds grow by exactly 2 (STM).  A move that undoes the previous
 * move is never generated (it only leads back to the parent); in the
 * multi-tile metric no move along the axis of the previous one is (metric.h,
 * move_redundant: two jumps along one line are no jump or one jump, so an
 * optimal path never holds them).  The goal test is an
 * O(1) count of misplaced tiles kept up to date along the path, so it works
 * with any heuristic.
 *
 * Moves: those of o->metric (metric.h), single-tile (STM, default) or
 * multi-tile (MTM: the blank jumps to any cell of its row or column).  The
 * search knows them only through struct move_set, the one move generator
 * of each metric.  In MTM the heuristic must be admissible for MTM
 * (ida_heuristic.h): a multi-tile move is told to h's incremental form as
 * its unit steps, one after another.
 *
 * Representation of a solution: moves[0..length-1], each a move code
 * (metric.h: the direction the BLANK moves and the cells it travels; in STM
 * a code is the enum move of board.h); the tile on the cell the blank
 * reaches is the last one a move slides (ida_replay lists them).
 *
 * Memory: O(n) for the board and the move table plus O(threshold) for the
 * path; no size limit beyond board.h's.  Search state lives in one struct
 * inside ida_solve: nothing is global, so searches may run concurrently
 * (one heuristic per search: a heuristic's context holds scratch space).
 */
#ifndef SLIDE_IDA_H
#define SLIDE_IDA_H

#include <signal.h>
#include <stdint.h>

#include "slide/board.h"
#include "slide/ida_heuristic.h"
#include "slide/metric.h"

/*
 * Called when an iteration is about to start with threshold `bound`;
 * expanded counts the nodes expanded so far, seconds the time so far.
 */
typedef void (*ida_iteration_fn)(int bound, uint64_t expanded, double seconds,
                                 void *ctx);

struct ida_options {
    uint64_t max_nodes;                  /* stop after this many expansions; 0: no limit */
    const volatile sig_atomic_t *cancel; /* stop when *cancel != 0; may be NULL */
    ida_iteration_fn on_iteration;       /* may be NULL */
    void *ctx;
    enum metric metric;                  /* what one move is (metric.h); 0: STM */
};

struct ida_result {
    int length;             /* moves of the solution, -1 when stopped */
    unsigned char *moves;   /* length move codes (NULL when length <= 0) */
    uint64_t expanded;      /* nodes whose children were generated */
    uint64_t generated;     /* children generated (the undo move excluded) */
    int iterations;         /* depth-first searches run */
    int h_start;            /* h of the start board */
    int bound;              /* the last threshold; when stopped, the optimum
                               (with an admissible h) is at least this */
    double seconds;         /* wall time */
    /* Added for the parallel search (ida_parallel.h), filled by both: */
    uint64_t expanded_last, generated_last; /* of expanded and generated, the
                               last iteration's; the others' are the same for
                               every thread count, the last's may not be */
    double cpu_seconds;     /* CPU time of the search's threads (each
                               CLOCK_THREAD_CPUTIME_ID), nothing else */
    int threads;            /* threads that searched */
    double cpu_critical;    /* the CPU seconds on the critical path: the
                               serial parts, plus per parallel iteration the
                               busiest thread's CPU in its items (waits
                               excluded); about the wall time with a core of
                               its own per thread, so cpu_seconds of one
                               thread over this estimates the speedup on a
                               machine not shared */
};

/*
 * Solve `start` for `goal` (valid boards of the same dimensions) with the
 * opened heuristic h (opened for this goal); o may be NULL (no limits).
 * On success r->length is the optimal number of moves (if h->admissible)
 * and r->moves a solution; free with ida_result_free.  r is filled on every
 * return (length -1 when no solution was found).
 * Errors:
 *   SLIDE_EINVAL       dimensions differ, or an unknown metric;
 *   SLIDE_EUNSOLVABLE  the parity criterion (parity.h) says start cannot
 *                      reach goal; no node is searched and the message is
 *                      parity_explain's;
 *   SLIDE_ERANGE       h(start) >= IDA_H_MAX: beyond any search; MTM on a
 *                      board with a side above MOVE_MAX_CELLS + 1;
 *   SLIDE_EINTR        stopped by o->max_nodes or o->cancel (the message
 *                      says which and gives the lower bound r->bound);
 *   SLIDE_ENOMEM.
 */
int ida_solve(const struct board *start, const struct board *goal,
              struct ida_heuristic *h, const struct ida_options *o,
              struct ida_result *r, slide_error *err);

void ida_result_free(struct ida_result *r);

/*
 * Replay moves[0..length-1] (move codes, metric.h, of either metric) from
 * start and check that they are legal and end on goal.  If tiles is not
 * NULL it receives, for each move, the tile on the cell the blank reaches
 * (the only tile a single-tile move slides).  Errors: SLIDE_EINVAL
 * naming the first illegal move or the board reached instead of the goal,
 * SLIDE_ENOMEM.
 */
int ida_replay(const struct board *start, const struct board *goal,
               const unsigned char *moves, int length, int *tiles,
               slide_error *err);

#endif
