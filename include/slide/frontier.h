/*
 * frontier.h - breadth-first search that keeps only the last two layers:
 * the first distances of boards too big for the two-bit store (4x4, 3x5,
 * 5x5), and a second, independent algorithm against which the two-bit BFS
 * (bfs.h) is checked.
 *
 * Method (frontier search with delayed duplicate detection: Korf, "Delayed
 * duplicate detection", IJCAI 2003 workshop / AAAI 2004; Korf and Schultze,
 * "Large-scale parallel breadth-first search", AAAI 2005).  The move graph
 * is undirected (every move is undone by one move), so every neighbour of
 * a board at distance d lies at distance d - 1, d or d + 1; hence
 *     layer d+1 = neighbours(layer d) \ (layer d-1 u layer d),
 * and no older layer is needed.  In the single-tile metric the graph is
 * also bipartite (a move changes the blank's colour on a chessboard), so
 * no neighbour lies in layer d and only layer d-1 is subtracted; in the
 * multi-tile metric a jump of two cells joins boards of one layer (e.g.
 * the blank 2 cells left and the blank 1 cell left of the goal's: both at
 * distance 1), so layers d-1 and d are subtracted.  The moves come from a
 * move set (metric.h) handed to the keys' neighbour functions (rank keys
 * make the single-tile metric's four moves directly: their hot path); the
 * metric changes nothing else but that subtraction.  A layer is a sorted stream of keys
 * (frontier_key.h, frontier_stream.h).  One step:
 *   1. the blocks of layer d are cut into chunks (a thread's share of
 *      buffer_keys/fan boards, fan the most moves of a board, and at most
 *      an eighth of the layer per thread); the threads take the chunks as
 *      they come free (no barrier between chunks, so a thread slowed by
 *      another job on its core does not hold up the others), expand each
 *      into their part of the buffer, sort it (frontier_sort.h), drop
 *      repeats and write it as a sorted run (in memory, or in a temporary
 *      file);
 *   2. the runs are merged (a heap over their cursors), repeats dropped,
 *      and the keys of layer d-1 (and, in the multi-tile metric, of layer
 *      d) subtracted while the streams advance: the
 *      duplicates are detected once per layer, not per board.  In memory
 *      the merge is cut into 16 key ranges at the first
 *      keys of evenly spaced blocks of layer d; the threads merge the
 *      ranges as they come free, each into a stream of its own, and the
 *      streams are joined in order (a block ends where a range ends), so
 *      the new layer's bytes depend on the layer only.
 * Memory: the two stored layers, the runs of one step, and twice the key
 * length per buffered key (the buffer and the sort's scratch: 32 bytes for
 * rank keys).
 *
 * Invariants of a search between steps: cur is layer `depth`, prev layer
 * depth - 1 (empty at depth 0), hist[0..depth] their counts so far;
 * complete once a step found no new board: then cur is empty, the radius
 * is depth - 1 and prev holds the antipodes.  Every count is independent of
 * the thread count and of the batch size (the layers are sets).
 */
#ifndef SLIDE_FRONTIER_H
#define SLIDE_FRONTIER_H

#include <stdint.h>

#include "slide/frontier_key.h"
#include "slide/frontier_moved.h"
#include "slide/frontier_stream.h"
#include "slide/metric.h"

/* How boards are keyed: ranks in 128 bits (frontier_key.h: dense, boards of
 * up to FKEY_MAX_CELLS cells) or moved keys (frontier_moved.h: any board,
 * longer keys as the search goes deeper).  AUTO: rank keys when they fit. */
enum frontier_keys { FRONTIER_KEYS_AUTO, FRONTIER_KEYS_RANK, FRONTIER_KEYS_MOVED };

struct frontier_layer {
    int depth;             /* distance of the layer just found */
    uint64_t count;        /* boards at that distance */
    uint64_t cumulative;   /* boards at distance <= depth */
    uint64_t candidates;   /* neighbours generated (after the per-run dedup) */
    uint64_t run_bytes;    /* data bytes of the step's sorted runs (all passes) */
    uint64_t bytes;        /* data bytes of its stream */
    double seconds;        /* wall time of the step */
    double elapsed;        /* wall time of the search so far */
    int passes;            /* passes of the step (frontier_options) */
};

/* Called after every layer; return non-zero to stop (frontier_run then
 * returns SLIDE_EINTR at a layer boundary, the search consistent). */
typedef int (*frontier_layer_fn)(const struct frontier_layer *layer, void *ctx);

struct frontier_options {
    int threads;           /* OpenMP threads; <= 0 means the default */
    int max_depth;         /* stop once layer max_depth is known; < 0: never */
    uint64_t buffer_keys;  /* keys of the expansion buffer (>= 64); 0: 2^24 */
    uint64_t max_memory;   /* bytes the search may hold; 0: MemAvailable */
    uint64_t max_disk;     /* bytes a step may put in temp_dir; 0: its free space */
    frontier_layer_fn on_layer; /* may be NULL */
    void *ctx;
    int passes;            /* 0: the fewest that fit; 1, 2, 4, ..., 64: that many
                            * (fewer where layer d has too few blocks) */
};

struct frontier_search {
    int moved;             /* 1: moved keys (ms), layers of byte keys; 0: rank keys */
    enum metric metric;    /* what one move is (metric.h) */
    struct move_set moves; /* the moves of metric; moves.max: fan, the most a board has */
    struct fkey_space ks;  /* rank keys; with moved keys rows, cols, n, m,
                            * goal_blank, path_graph, and size ((RC)!/2, 0
                            * beyond FKEY_MAX_CELLS cells: not known) */
    struct fmoved_space ms; /* moved keys */
    const char *temp_dir;  /* runs and layers in files there; NULL: memory */
    struct fstream prev, cur;
    int depth;
    uint64_t *hist;        /* hist_cap entries, hist[0..depth] used */
    int hist_cap;
    uint64_t reached;      /* sum of hist */
    int complete;
    double seconds;        /* wall time of the steps so far */
    uint64_t candidates;   /* keys of the last step's runs */
    uint64_t run_bytes;    /* their data bytes */
    int on_disk;           /* the last step's runs and layer went to temp_dir */
    int passes;            /* the last step's passes */
    double step_seconds;   /* wall time of the last step */
};

/*
 * Start a search from goal (a valid board): layer 0 = {goal}, its boards
 * keyed as keys says (AUTO: rank keys up to FKEY_MAX_CELLS cells, moved
 * keys beyond).  Steps that do
 * not fit in memory put their runs and layer in temporary files in temp_dir
 * (NULL: such steps are refused).  Errors: SLIDE_ERANGE (rank keys asked
 * for a board of more than FKEY_MAX_CELLS cells), as fmoved_init,
 * fstream_open, SLIDE_ENOMEM.  Free with frontier_free.
 */
int frontier_init_keys(struct frontier_search *f, const struct board *goal,
                       enum frontier_keys keys, const char *temp_dir, slide_error *err);

/*
 * frontier_init_keys in metric m (METRIC_STM or METRIC_MTM; the former is
 * what frontier_init_keys does).  Errors: as frontier_init_keys, and as
 * move_set_init (the multi-tile metric on sides over MOVE_MAX_CELLS + 1).
 */
int frontier_init_metric(struct frontier_search *f, const struct board *goal,
                         enum frontier_keys keys, enum metric m, const char *temp_dir,
                         slide_error *err);

/* frontier_init_keys with FRONTIER_KEYS_AUTO. */
int frontier_init(struct frontier_search *f, const struct board *goal,
                  const char *temp_dir, slide_error *err);

/*
 * Bytes of a key of a board within distance depth: 16 for rank keys,
 * fmoved_key_len for moved keys (0: beyond FMOVED_MAX_PAIRS pairs).
 */
size_t frontier_key_bytes(const struct frontier_search *f, int depth);

/*
 * What the next step needs, estimated from the last two layers (growth
 * ratio, bytes per key, at most moves.max neighbours a board): *fixed the bytes held
 * in memory whatever happens (stored layers' in-memory parts, the
 * expansion buffer and its scratch), *step the bytes of the runs and of the
 * new layer, which go to memory or, with temp_dir, to disk.
 */
void frontier_estimate(const struct frontier_search *f, const struct frontier_options *o,
                       uint64_t *fixed, uint64_t *step);

/*
 * Compute layer depth + 1 (nothing when complete).  Checked first, from
 * frontier_estimate: the runs and the new layer stay in memory when fixed +
 * step fits o->max_memory (and MemAvailable); else they go to temp_dir when
 * its file system has room for step (and step <= o->max_disk when set);
 * else the step is refused
 * (SLIDE_ENOMEM naming the bytes needed and available, and --temp-dir).
 * Errors: SLIDE_ENOMEM, SLIDE_EIO (temporary files), SLIDE_EFORMAT (a
 * stream failed to decode); on error the search is unchanged (layers
 * depth - 1 and depth kept).
 */
int frontier_step(struct frontier_search *f, const struct frontier_options *o,
                  slide_error *err);

/*
 * Steps until the search is complete or layer o->max_depth is known,
 * calling o->on_layer after each.  Errors: as frontier_step; SLIDE_EINTR
 * when on_layer asked to stop.
 */
int frontier_run(struct frontier_search *f, const struct frontier_options *o,
                 slide_error *err);

/* Radius when complete (depth - 1), else -1. */
int frontier_radius(const struct frontier_search *f);

/*
 * The last non-empty layer (the antipodes when complete, else layer
 * depth).
 */
const struct fstream *frontier_last_layer(const struct frontier_search *f);

/*
 * Install prev and cur (layers depth - 1 and depth, taken over) and the
 * histogram hist[0..depth] (copied): how a checkpoint resumes a search set
 * up by frontier_init.  Errors: SLIDE_ENOMEM, SLIDE_EINVAL (counts of the
 * streams differ from the histogram).
 */
int frontier_restore(struct frontier_search *f, int depth, const uint64_t *hist,
                     struct fstream *prev, struct fstream *cur, double seconds,
                     slide_error *err);

void frontier_free(struct frontier_search *f);

#endif
