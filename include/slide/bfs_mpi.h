/*
 * bfs_mpi.h - the two-bit BFS of bfs.h spread over the processes of an MPI
 * communicator, one slice of the store per process.
 *
 * Representation: process p of P owns the contiguous index range
 * [lo_p, hi_p) of the space, cut at block boundaries (multiples of n, the
 * cell count): block h = index / n holds the n boards that share the tile
 * sequence t, and a horizontal move changes only z, so it stays inside its
 * block and never leaves the process.  Blocks are shared out as evenly as
 * integers allow (lo_p = n * floor(blocks * p / P)), so P need not divide
 * anything.  Each process holds a store (store.h) of hi_p - lo_p entries
 * with the meaning of bfs.h: local entry i is global index lo_p + i.
 *
 * A layer d (method: Korf 2008's two-bit BFS with a per-owner exchange, as
 * in distributed BFS codes such as Graph500's):
 *   expand:   scan the local frontier of colour d mod 2 in index order;
 *             neighbours owned here are marked at once (store_mark), the
 *             others appended to a buffer per owner; the entry is closed;
 *   exchange: when the buffers hold `budget` bytes of raw indexes (or the
 *             scan ends) every process stops; each buffer is sorted,
 *             de-duplicated and delta-coded (LEB128 varints of the gaps,
 *             the first relative to the owner's lo), and sent in P - 1
 *             pairwise steps (send to p + k, receive from p - k), so only
 *             one incoming message is held at a time and every message is
 *             below 2^31 bytes;
 *   mark:     the owner decodes and marks what it receives.
 * Rounds repeat until every process has scanned its whole slice.
 *
 * Backward layers (once fewer unvisited boards remain than frontier
 * boards, as in bfs.c; compact space only): each process scans its
 * unvisited entries of the next colour; one with a frontier neighbour on
 * this process is marked at once, one without asks the owners of its
 * remote neighbours.  The queries (pairs of queried index and asking board,
 * buffered per owner like the forward neighbours) are exchanged in the same
 * bounded rounds: the distinct queried indexes go sorted and delta-coded,
 * the owner answers one bit per index (frontier or not), and the asker
 * marks the boards whose query came back 1.  The old frontier is closed in
 * a second pass.  The choice is made from the reduced histogram, so every
 * process makes the same one; options.no_backward keeps every layer forward.
 *
 * Threads: inside a process, OpenMP threads take words of the slice from a
 * shared counter, each with its own buffer per owner (merged before the
 * exchange), and mark received indexes in parallel.
 *
 * Exactness: a board's count goes to the thread whose store_mark turned
 * it from unvisited into frontier, on its owner, so each layer count is the
 * exact sum over threads and processes (MPI_Allreduce) and does not depend
 * on P or the thread count.  The
 * antipodes (smallest BFS_KEEP indexes of the last layer) are the smallest
 * of the union of every process's smallest ones.
 *
 * Only built with an MPI compiler (mpicc, make build/slide-mpi).
 */
#ifndef SLIDE_BFS_MPI_H
#define SLIDE_BFS_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "slide/bfs.h"
#include "slide/space.h"
#include "slide/store.h"

/* Largest exchange budget: encoded messages stay below 2^31 bytes. */
#define BFS_MPI_MAX_BUDGET (1ULL << 30)
#define BFS_MPI_DEFAULT_BUDGET (64ULL << 20)

/*
 * The index range [*lo, *hi) owned by process `rank` of `nprocs` (>= 1):
 * whole blocks of n indexes, the blocks split as evenly as possible.
 */
void bfs_mpi_range(const struct space *s, int nprocs, int rank, uint64_t *lo,
                   uint64_t *hi);

/* Rank owning global index i (inverse of bfs_mpi_range). */
int bfs_mpi_owner(const struct space *s, int nprocs, uint64_t i);

/* Figures of one layer, summed over the processes (times: the largest). */
struct bfs_mpi_layer {
    struct bfs_layer layer;
    double expand, exchange, mark; /* seconds, max over processes */
    uint64_t expanded;             /* frontier boards expanded (forward) or unvisited
                                      boards scanned (backward: layer.backward) */
    uint64_t remote;               /* indexes sent to other owners (deduplicated):
                                      neighbours (forward) or queries (backward) */
    uint64_t remote_raw;           /* before de-duplication */
    uint64_t bytes;                /* payload bytes sent (backward: with the answers) */
    uint64_t messages;             /* point-to-point messages (sizes and payloads) */
    int rounds;                    /* exchange rounds of the layer */
};

/*
 * Called on every process after every layer with the same figures.  The
 * value rank 0's call returns decides for all: non-zero stops the search
 * at this layer boundary (SLIDE_EINTR, resumable).
 */
typedef int (*bfs_mpi_layer_fn)(const struct bfs_mpi_layer *layer, void *ctx);

struct bfs_mpi_options {
    int threads;              /* OpenMP threads per process; <= 0: OpenMP's default */
    int no_backward;          /* 1: expand every layer forward */
    uint64_t budget;          /* raw outgoing index bytes per round (all threads), 0: default */
    bfs_mpi_layer_fn on_layer;/* may be NULL */
    void *ctx;
    int fault_rank;           /* test hook: this rank dies with SIGKILL ... */
    int fault_depth;          /* ... in the middle of expanding this layer (< 0: never) */
};

/*
 * Run the search on s from its goal: st is this process's slice (size
 * hi - lo from bfs_mpi_range for its rank in comm, every entry unvisited).
 * Collective over comm.  r (identical on every process) receives the
 * histogram, radius and antipodes as bfs_run's would.  Errors (the same on
 * every process): SLIDE_EINVAL (slice does not match), SLIDE_ENOMEM (a
 * buffer), SLIDE_EINTR (stopped by on_layer; resumable).
 */
int bfs_mpi_run(MPI_Comm comm, const struct space *s, struct store *st,
                const struct bfs_mpi_options *o, struct bfs_result *r,
                slide_error *err);

/* Continue from a layer boundary: st holds this process's slice of closed
 * layers 0..r->radius - 1 and frontier r->radius.  Same errors. */
int bfs_mpi_resume(MPI_Comm comm, const struct space *s, struct store *st,
                   const struct bfs_mpi_options *o, struct bfs_result *r,
                   slide_error *err);

/*
 * Make every process agree on an outcome: if any process has rc != 0, the
 * lowest such rank's rc and message are returned on every process.
 */
int bfs_mpi_agree(MPI_Comm comm, int rc, slide_error *err);

/*
 * The memory guard of store.h per machine: the bytes every process of one
 * machine (MPI_COMM_TYPE_SHARED) needs are summed and checked there
 * against store_memory_available(limit), before anything is allocated.
 * bytes: what this process needs.  Collective.  Errors: SLIDE_ENOMEM (on
 * every process) naming the machine's need and what it has.
 */
int bfs_mpi_check_memory(MPI_Comm comm, uint64_t bytes, uint64_t limit,
                         const char *what, slide_error *err);

#endif
