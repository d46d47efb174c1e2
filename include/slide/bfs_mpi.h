/*
 * bfs_mpi.h - the two-bit BFS of bfs.h spread over the processes of an MPI
 * communicator, one slice of the store per process.
 *
 * Representation: process p of P owns the contiguous index range
 * [lo_p, hi_p) of the space, cut at multiples of lcm(32, n) indexes (n the
 * cell count): whole words of the store, so no word is shared, and whole
 * blocks (block h = index / n holds the n boards that share the tile
 * sequence t; a horizontal move changes only z, so it stays inside its
 * block and never leaves the process).  The units are shared out as evenly
 * as integers allow (lo_p = unit * floor(units * p / P)), so P need not
 * divide anything; a process may own nothing.  Each process holds a store
 * (store.h) of hi_p - lo_p entries with the meaning of bfs.h: local entry i
 * is global index lo_p + i.
 *
 * A layer d (method: Korf 2008's two-bit BFS with a per-owner exchange, as
 * in distributed BFS codes such as Graph500's):
 *   expand:   the process scans its slice with the expansion of bfs_run
 *             itself (src/engine/bfs_slice.h: the same word scan, move and
 *             window tables, per-thread buckets and chunk flags); targets
 *             in the slice are marked as bfs_run marks them, the others go
 *             to the scanning thread's remote buffer (budget / 8 / threads
 *             entries); when a buffer is nearly full every thread stops at
 *             a word boundary;
 *   exchange: the buffers are sorted (radix) and de-duplicated, cut by
 *             owner (ownership is contiguous), and each owner's part is
 *             delta-coded (LEB128 varints of the gaps, the first relative
 *             to the owner's lo) and sent in P - 1 pairwise steps (send to
 *             p + k, receive from p - k), so only one incoming message is
 *             held at a time and every message is below 2^31 bytes;
 *   mark:     the owner decodes and marks what it receives; the scan goes
 *             on where it stopped.
 * Rounds repeat until every process has scanned its whole slice.
 *
 * Backward layers (once fewer unvisited boards remain than frontier
 * boards, as in bfs.c; compact space only): each process scans its
 * unvisited entries of the next colour; one with a frontier neighbour on
 * this process is marked at once, one without asks the owners of its
 * remote neighbours.  The queries (pairs of queried index and asking
 * board, in the same remote buffers) are exchanged in the same bounded
 * rounds: the distinct queried indexes go sorted and delta-coded, the
 * owner answers one bit per index (frontier or not), and the asker marks
 * the boards whose query came back 1.  The old frontier is closed in a
 * second pass once every process has had its answers.  The choice is made
 * from the reduced histogram, so every process makes the same one;
 * options.no_backward keeps every layer forward.
 *
 * Threads: inside a process, OpenMP threads scan as in bfs_run (chunks
 * from counters by owner, a team's targets in buckets by owner thread),
 * each with its own remote buffer, and mark received indexes in parallel.
 *
 * Exactness: every 11 -> 10 change of a board is made and counted by one
 * writer on its owner, whether the target was found there or received, so
 * each layer count is the exact sum over threads and processes
 * (MPI_Allreduce) and does not depend on P or the thread count.  The
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

/*
 * Bytes process `rank` of `nprocs` needs at most for a search of s with
 * `threads` OpenMP threads (<= 0: OpenMP's default) and an exchange budget
 * of `budget` bytes (0: the default): its slice of the store, the chunk
 * flags, the move and window tables, the threads' buckets and remote
 * buffers, and (nprocs > 1) the exchange's sort scratch, messages and
 * answers at their largest.  For bfs_mpi_check_memory.
 */
uint64_t bfs_mpi_bytes(const struct space *s, int nprocs, int rank, int threads,
                       uint64_t budget);

/* Figures of one layer, summed over the processes (times: the largest). */
struct bfs_mpi_layer {
    struct bfs_layer layer;
    double expand, exchange, mark; /* wall seconds, max over processes: the scan;
                                      the exchange (sort, encode, MPI, decode,
                                      waiting for the peers); marking what came */
    double cpu_expand, cpu_exchange, cpu_mark; /* CPU seconds of the process (all its
                                      threads), summed over processes: the scan;
                                      sort, encode and decode (not MPI calls);
                                      marking what came and closing */
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
    uint64_t budget;          /* remote buffer bytes of a process, all threads (8 per
                                 entry; at least 2 KiB per thread), 0: default */
    bfs_mpi_layer_fn on_layer;/* may be NULL */
    void *ctx;
    int fault_rank;           /* test hook: this rank dies with SIGKILL ... */
    int fault_depth;          /* ... in the middle of expanding this layer (< 0: never) */
    enum metric metric;       /* as bfs_options.metric (0: the single-tile metric) */
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
 * bytes: what this process needs (bfs_mpi_bytes).  *machine (may be NULL)
 * receives the sum over this process's machine.  Collective.  Errors:
 * SLIDE_ENOMEM (on every process) naming the machine's need and what it
 * has.
 */
int bfs_mpi_check_memory(MPI_Comm comm, uint64_t bytes, uint64_t limit,
                         const char *what, uint64_t *machine, slide_error *err);

#endif
