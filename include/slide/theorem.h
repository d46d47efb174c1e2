/*
 * theorem.h - an exhaustive check of the parity theorem: for every one of
 * the (RC)! arrangements of an R x C board, compare what a breadth-first
 * search says (reachable from the goal or not) with what a solvability
 * criterion says.
 *
 * Representation: the arrangements are the indexes 0..(RC)!-1 of the FULL
 * index space of the goal (space.h).  A two-bit BFS from the goal over that
 * space (bfs.h) leaves every reachable entry closed and every other entry
 * unvisited; that is the truth.  The criterion is a function of a board and
 * the goal, called once per arrangement on the unranked board.  The default
 * criterion is parity_check (parity.h), which computes inversions on the
 * board itself - it never looks at the space's need_parity table, which is
 * derived from the same theorem, so the check is not circular.
 *
 * Invariants of a result: arrangements = agree + disagree; the examples are
 * the smallest indexes that disagree, in increasing order, so the result is
 * the same for every thread count.
 *
 * Theorem checked (Johnson 1879, Story 1879; Wilson 1974 for the general
 * graph form): for R, C >= 2 exactly the boards satisfying the criterion of
 * parity.h reach the goal, (RC)!/2 of them.  For a 1-row or 1-column board
 * the hypothesis fails: the move graph is a path, tiles never pass each
 * other, and only the n boards with the tiles in goal order are reachable
 * (parity.h's criterion for path graphs).
 */
#ifndef SLIDE_THEOREM_H
#define SLIDE_THEOREM_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/metric.h"

/* Largest board checked: (RC)! <= 12! arrangements (2 bits each, 120 MB). */
#define THEOREM_MAX_CELLS 12
/*
 * Largest path (1xN or Nx1) checked: only N of its N! arrangements are
 * reachable, so the BFS is instant and the check of the criterion on every
 * arrangement is all the work, N! evaluations for a claim about N boards;
 * 11! is already 11 times the 3x3 full space's work per reachable-board
 * class, so paths above 10 cells are refused with the figures.
 */
#define THEOREM_MAX_PATH_CELLS 10
/* Disagreements kept as examples. */
#define THEOREM_KEEP 10

/*
 * A solvability criterion: 1 if board b (valid, goal's dimensions) is
 * claimed to reach goal, 0 if not, or a negative slide_status on failure
 * (then err, which belongs to the calling thread, holds the message).
 * Called concurrently from several threads with distinct b.
 */
typedef int (*theorem_criterion_fn)(const struct board *b,
                                    const struct board *goal, void *ctx,
                                    slide_error *err);

struct theorem_result {
    int rows, cols;
    int path_graph;          /* 1-row or 1-column board: hypothesis R, C >= 2 fails */
    uint64_t arrangements;   /* (RC)! */
    uint64_t reachable;      /* reached by the BFS from the goal */
    uint64_t criterion;      /* arrangements the criterion calls solvable */
    uint64_t agree;          /* criterion == reachability */
    uint64_t disagree;
    /* the disagreeing arrangements of smallest full-space index, in order */
    int example_cells[THEOREM_KEEP][THEOREM_MAX_CELLS];
    int example_reachable[THEOREM_KEEP]; /* 1: reachable, criterion said no */
    int nexamples;
    /* theorem_parity_metric with METRIC_MTM: reachable counts the
     * multi-tile search's boards, and metric_disagree the arrangements that
     * one metric reaches and the other does not (0: the same set) */
    enum metric metric;
    uint64_t metric_disagree;
    double bfs_seconds;      /* wall time of the search (both, in MTM) */
    double check_seconds;    /* wall time of the comparison */
    int threads;
};

/*
 * The default criterion: parity_check(b, goal) (parity.h).  ctx unused.
 * Errors: those of parity_check (SLIDE_ENOMEM).
 */
int theorem_criterion_parity(const struct board *b, const struct board *goal,
                             void *ctx, slide_error *err);

/*
 * Run the BFS from goal over all (RC)! arrangements, then compare every
 * arrangement's reachability with fn(board, goal, ctx) in parallel.
 * goal: a valid board with at most THEOREM_MAX_CELLS cells.  threads <= 0
 * means the OpenMP default.  max_memory: as store_check_memory (0 =
 * MemAvailable).  Fills r.
 * Errors: SLIDE_ERANGE when (RC)! > 12! (the message names both numbers),
 * SLIDE_ENOMEM, or the first error fn returned.
 */
int theorem_parity(const struct board *goal, theorem_criterion_fn fn, void *ctx,
                   int threads, uint64_t max_memory, struct theorem_result *r,
                   slide_error *err);

/*
 * theorem_parity in metric m (metric.h).  METRIC_STM: theorem_parity.
 * METRIC_MTM: the BFS runs in both metrics over all (RC)! arrangements (two
 * stores: the memory check counts both); the criterion is compared with the
 * multi-tile search's reachability, and r->metric_disagree counts the
 * arrangements whose reachability differs between the metrics.  Same
 * errors.
 */
int theorem_parity_metric(const struct board *goal, enum metric m, theorem_criterion_fn fn,
                          void *ctx, int threads, uint64_t max_memory,
                          struct theorem_result *r, slide_error *err);

#endif
