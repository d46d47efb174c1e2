/*
 * bfs.h - the two-bit breadth-first search from the goal over an index
 * space (space.h) into a store (store.h).
 *
 * Method: the two-bit breadth-first search of Cooperman and Finkelstein
 * (1992), as named and described by Korf ("Minimizing disk I/O in two-bit
 * breadth-first search", AAAI 2008), kept in memory.  The move graph
 * is bipartite - every move flips the blank's colour - so the boards at
 * distance d all have colour d mod 2.  Layer d scans the entries of colour
 * d mod 2 for frontier (10) and either
 *   forward:  marks every unvisited neighbour (colour (d+1) mod 2) frontier,
 *             then closes the entry with bit floor(d/2) mod 2, or
 *   backward: (once most of the space is visited) marks every unvisited
 *             entry of colour (d+1) mod 2 that has a frontier neighbour,
 *             then closes the old frontier in a second pass.
 * Because frontier entries of the two colours are told apart by colour,
 * three states per colour suffice and the fourth two-bit value keeps one bit
 * of depth.  At the end every reachable entry is closed and
 * (colour, bit) = (d mod 2, floor(d/2) mod 2) = d mod 4: an exact distance
 * oracle when combined with a neighbour one step closer (db.h).
 *
 * Counts are exact for any number of threads: a forward mark (11 -> 10)
 * is an atomic operation that reports its first writer, and in a backward
 * pass only the thread that scans a word changes it, so the result does not
 * depend on the thread count.
 */
#ifndef SLIDE_BFS_H
#define SLIDE_BFS_H

#include <stdint.h>

#include "slide/metric.h"
#include "slide/space.h"
#include "slide/store.h"

/* Boards reported per layer and as antipodes. */
#define BFS_KEEP 10

struct bfs_layer {
    int depth;            /* distance of the layer just completed */
    uint64_t count;       /* boards at that distance */
    uint64_t cumulative;  /* boards at distance <= depth */
    uint64_t space_size;
    double seconds;       /* wall time of the expansion that found it */
    double elapsed;       /* wall time since the search began */
    int backward;         /* 1 if found by a backward scan */
};

/*
 * Called after every layer is known.  Return non-zero to stop the search
 * cleanly at this layer boundary (bfs_run then returns SLIDE_EINTR with a
 * consistent store and result that bfs_resume can continue).
 */
typedef int (*bfs_layer_fn)(const struct bfs_layer *layer, void *ctx);

struct bfs_options {
    int threads;             /* OpenMP threads; <= 0 means the default */
    int no_backward;         /* 1: never switch to the backward scan */
    bfs_layer_fn on_layer;   /* may be NULL */
    void *ctx;
    /* How a layer, forward or backward, finds vertical neighbours: 0 by
     * window tables in the layers dense enough for them to pay (frontier
     * boards per window forward, unvisited ones backward), board by board
     * in the rest;
     * 1 by window tables in every layer; -1 board by board in every layer.
     * The result is the same, byte for byte; the choice is for tests and
     * measurements.  Window tables need the compact space with at least 6
     * tiles, 2 rows and 2 columns; elsewhere every choice goes board by
     * board. */
    int windows;
    /* 1: small buckets (16,896 targets each) for the targets a forward
     * pass of several threads sends to the owners of their chunks, so
     * that its apply phases (when the threads stop scanning and mark
     * them) come often; for tests.  0: buckets of 16 MiB in all (more from 127 threads on:
     * src/engine/buckets.h).  Same result either way. */
    int small_buckets;
    /* 1: a forward pass of one thread queues its targets, prefetched, and
     * marks them in batches on every store; 0: only on stores over 2 MiB,
     * smaller ones (in the cache) being marked as they are found.  Same
     * result either way; for tests. */
    int queue;
    /* METRIC_STM (0, the default) or METRIC_MTM: what one move is
     * (metric.h).  In MTM the graph is not bipartite (a jump of two cells
     * keeps the colour), so the frontier is told from the next layer by
     * its code, not its colour: a pass marks new boards 01, and a close
     * pass after every layer turns them into frontier (10); closed boards
     * keep no depth bit (00).  MTM goes forward and board by board in every
     * layer (no backward scan, no window tables). */
    enum metric metric;
};

struct bfs_result {
    uint64_t *hist;          /* hist[d] boards at distance d, d = 0..radius */
    int radius;              /* largest distance (God's number) */
    int layers_alloc;
    uint64_t reached;        /* sum of hist */
    uint64_t first[BFS_KEEP];/* smallest indexes of the last layer found */
    int nfirst;
    int complete;            /* 1 when no new board remains */
    double seconds;          /* wall time */
    int threads;             /* threads used (the team OpenMP gave the last
                                pass: at most the threads asked for) */
    uint64_t applies;        /* apply phases of the forward passes of several
                                threads (one ends each such pass) */
    enum metric metric;      /* the metric searched (bfs_options.metric; a
                                checkpoint records it) */
};

/*
 * Run the search on s from its goal into st (st->size == s->size, every
 * entry unvisited).  r receives the histogram; free it with bfs_result_free.
 * Errors: SLIDE_EINVAL (store size), SLIDE_ENOMEM, SLIDE_EINTR (stopped by
 * on_layer; r and st are consistent and can be resumed).
 */
int bfs_run(const struct space *s, struct store *st,
            const struct bfs_options *o, struct bfs_result *r,
            slide_error *err);

/*
 * Continue a search stopped at a layer boundary: st holds the closed layers
 * 0..r->radius - 1 and layer r->radius as frontier, r its histogram.
 * Same errors as bfs_run, and SLIDE_EINVAL when r->metric is not
 * o->metric (a search goes on in the metric it began in).
 */
int bfs_resume(const struct space *s, struct store *st,
               const struct bfs_options *o, struct bfs_result *r,
               slide_error *err);

void bfs_result_free(struct bfs_result *r);

/*
 * Record layer `depth` (0 <= depth <= r->radius + 1) with `count` boards:
 * hist[depth] = count, radius = depth, reached += count; the histogram
 * grows as needed.  Errors: SLIDE_ENOMEM (r unchanged).
 */
int bfs_result_push(struct bfs_result *r, int depth, uint64_t count,
                    slide_error *err);

/*
 * 1 when layer d + 1 is cheaper to find backward (every unvisited entry of
 * colour (d+1) mod 2 looks for a frontier neighbour) than forward: when
 * fewer such entries remain unvisited than layer d holds, by r's histogram
 * of layers 0..d.  Only in the compact space of a board with 2+ rows and
 * columns, where every entry is a reachable board (in the full space the
 * unreachable half would stay unvisited and be scanned at every late layer).
 * Deterministic in r, so every thread or process makes the same choice.
 */
int bfs_backward_pays(const struct space *s, const struct bfs_result *r, int d);

/*
 * Visitor of one board: ctx is the caller's, thread in [0, threads) names
 * the calling OpenMP thread (for per-thread accumulators), index the board.
 */
typedef void (*bfs_visit_fn)(void *ctx, int thread, uint64_t index);

/*
 * Call fn, in parallel, for every board of layer `depth` while that layer is
 * the frontier - that is, from an on_layer callback for layer `depth` (the
 * frontier entries of colour depth mod 2 are then exactly the boards at
 * distance depth).  Every board of the layer is visited exactly once, in no
 * particular order.  threads <= 0 means the OpenMP default.  Returns the
 * number of boards visited.  This is how sweeps learn exact distances
 * without storing them.
 */
uint64_t bfs_visit_frontier(const struct space *s, const struct store *st,
                            int depth, int threads, bfs_visit_fn fn, void *ctx);

#endif
