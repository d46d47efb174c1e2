/*
 * sweep.h - compare heuristics with the exact distance on every reachable
 * board of a small puzzle: admissibility, consistency, tightness and the
 * joint (distance, h) table.
 *
 * Method: a two-bit BFS from the goal (bfs.h) in the sweep's metric.  When
 * layer d is complete its boards are exactly the frontier entries, so the
 * on_layer callback visits them (bfs_visit_frontier) knowing their exact
 * distance d, unranks each into a per-thread board and evaluates every
 * heuristic on it.  Consistency is checked on every edge of the move graph
 * exactly once: from each board, the moves that take the blank down or
 * right (the other endpoint of an edge sees the same edge as an up or left
 * move), evaluating h on the neighbour made by the move; in the multi-tile
 * metric the moves of the blank down or right by any number of cells
 * (struct move_set, metric.h).
 *
 * Representation of the results: per heuristic the joint table
 * joint[d][h] = boards at distance d with heuristic value h, d = 0..radius,
 * h = 0..joint_len[d]-1.  Every count and statistic is derived from integer
 * per-thread counters merged after each layer, and example boards are the
 * ones of smallest index, so results are identical for any thread count.
 */
#ifndef SLIDE_SWEEP_H
#define SLIDE_SWEEP_H

#include <stdint.h>

#include "slide/bfs.h"
#include "slide/board.h"
#include "slide/heuristic.h"
#include "slide/metric.h"
#include "slide/space.h"

#define SWEEP_KEEP 10            /* example boards kept per kind */
#define SWEEP_MAX_HEURISTICS 16  /* heuristics per sweep */
#define SWEEP_MAX_H 4095         /* largest h a sweep tabulates */

/* A board where h > d (index in the compact space of the goal). */
struct sweep_example {
    uint64_t index;
    int d, h;
    uint8_t cells[SPACE_MAX_CELLS];
};

/* An edge where |h(s) - h(s')| > 1: s' is s after move `move` (D or R). */
struct sweep_edge {
    uint64_t index;                /* of s */
    int move;                      /* its move code (metric.h; STM: the enum move) */
    int h, h_next;
    uint8_t cells[SPACE_MAX_CELLS];/* s */
};

struct sweep_stats {
    const struct heuristic_def *def;
    uint64_t boards;
    uint64_t **joint;              /* joint[d][h], see above */
    int *joint_len;
    int layers;                    /* radius + 1 */
    uint64_t violations;           /* boards with h > d */
    int max_excess;                /* max over boards of h - d */
    struct sweep_example examples[SWEEP_KEEP]; /* smallest indexes first */
    int nexamples;
    uint64_t edges;                /* edges checked (every edge once) */
    uint64_t edge_violations;      /* edges with |h(s) - h(s')| > 1 */
    int max_step;                  /* max |h(s) - h(s')| over edges */
    struct sweep_edge edge_examples[SWEEP_KEEP]; /* smallest (index, move) first */
    int nedge_examples;
    uint64_t sum_h, sum_d, exact;  /* sums over boards; boards with h = d */
    double mean_h, mean_d;
    double mean_ratio;             /* mean of h/d over boards with d > 0 */
    double exact_fraction;         /* exact / boards */
    int admissible;                /* violations == 0 */
    int consistent;                /* edge_violations == 0 */
    int parity_ok;                 /* d - h even on every board */
};

struct sweep_options {
    int threads;                   /* <= 0: the OpenMP default */
    uint64_t max_memory;           /* 0: MemAvailable (store.h) */
    bfs_layer_fn progress;         /* called after each layer is swept, or NULL */
    void *progress_ctx;
    enum metric metric;            /* the moves d counts and edges follow (metric.h);
                                      0: STM.  MTM: d from the BFS in MTM
                                      (bfs_options.metric), and every heuristic
                                      bound for it (heuristic_init_metric) */
};

struct sweep_result {
    int rows, cols;
    int radius;
    uint64_t boards;               /* reachable boards visited */
    uint64_t *hist;                /* boards per distance, 0..radius */
    int count;                     /* heuristics */
    struct sweep_stats *stats;     /* count entries, in the order given */
    double seconds;
    int threads;
};

/*
 * Sweep the heuristics hs[0..count-1] (each initialised for `goal`) over
 * every board that reaches goal (the compact space, n <= SPACE_MAX_CELLS).
 * Errors: SLIDE_EINVAL (count out of 1..SWEEP_MAX_HEURISTICS, a heuristic
 * of other dimensions or bound for single-tile moves in an MTM sweep, or
 * h != 0 at the goal), SLIDE_ERANGE (too many
 * cells, or h outside 0..SWEEP_MAX_H on some board), SLIDE_ENOMEM (the
 * store over the memory limit).  Free r with sweep_result_free, also after
 * an error.
 */
int sweep_run(const struct board *goal, const struct heuristic *hs, int count,
              const struct sweep_options *o, struct sweep_result *r,
              slide_error *err);

void sweep_result_free(struct sweep_result *r);

#endif
