/*
 * checkpoint_mpi.h - save a distributed two-bit BFS (bfs_mpi.h) at a layer
 * boundary, one file per process, and load it back with the same number
 * of processes.
 *
 * Representation: a directory holding
 *   DIR/part-K.G   process K's slice of the store (store.h words, raw
 *                  little-endian, padding included), save generation G;
 *   DIR/mpi-state  text, one "key value" per line:
 *                    slide-mpi-checkpoint VERSION
 *                    board RxC / goal G / space compact|full / entries N
 *                    processes P
 *                    generation G
 *                    radius D / complete 0|1 / elapsed SECONDS
 *                    first K i1 ... iK
 *                    hist h0 ... hD
 *                    part K LO HI BYTES CRC32     (one line per process)
 *                    state-crc32 XXXXXXXX         (CRC-32 of the lines above)
 * Saving (collective): every process writes part-K.G+1 through
 * atomic_file.h; once all have, rank 0 replaces mpi-state (atomic rename)
 * naming generation G+1; only then does each process remove part-K.G.  A
 * process or machine lost at any point leaves mpi-state naming a complete
 * set of parts.  Invariant: mpi-state's parts exist with the bytes and
 * CRCs it names, and together hold closed layers 0..D-1 and frontier D.
 * Version 2: slices cut at multiples of lcm(32, n) indexes (bfs_mpi.h);
 * version 1 (whole blocks) is refused, naming both versions.
 */
#ifndef SLIDE_CHECKPOINT_MPI_H
#define SLIDE_CHECKPOINT_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "slide/bfs.h"
#include "slide/checkpoint.h"
#include "slide/error.h"
#include "slide/space.h"
#include "slide/store.h"

#define CHECKPOINT_MPI_VERSION 2
#define CHECKPOINT_MPI_MAGIC "slide-mpi-checkpoint"

/*
 * Save this process's slice st (from bfs_mpi_range) and the result r (the
 * same on every process) into dir (which exists).  *generation is the
 * generation of the checkpoint in dir (0: none) and becomes the new one.
 * Collective.  Errors (on every process): SLIDE_EIO naming the file.
 * On error the previous checkpoint stays valid.
 */
int checkpoint_mpi_save(MPI_Comm comm, const char *dir, const struct space *s,
                        const struct store *st, const struct bfs_result *r,
                        int *generation, slide_error *err);

/* 1 (on every process) if dir holds an mpi-state file. Collective. */
int checkpoint_mpi_exists(MPI_Comm comm, const char *dir);

/*
 * The board size, goal and space of the checkpoint in dir, read from its
 * mpi-state (magic, version and state CRC checked), so that `--resume DIR`
 * needs nothing else.  Collective (rank 0 reads).  Errors on every process:
 * SLIDE_EIO (no state), SLIDE_EFORMAT (not a state, corrupt, another
 * version, no valid board, goal or space line), SLIDE_ENOMEM.
 */
int checkpoint_mpi_describe(MPI_Comm comm, const char *dir, struct checkpoint_info *info,
                            slide_error *err);

/*
 * Load the checkpoint in dir for space s: allocates st (this process's
 * slice, after the per-machine memory guard of bfs_mpi_check_memory with
 * max_memory, extra: bytes the caller will need besides the store) and
 * fills r and *generation.  Checks magic, version, state CRC, board, goal,
 * space, entries, the process count, each part's size and CRC, and that
 * the frontier entries add up to the last layer's count.  Collective;
 * errors on every process: SLIDE_EIO, SLIDE_EFORMAT, SLIDE_ENOMEM, and
 * SLIDE_EINVAL for a checkpoint of another board, goal or space, or saved
 * by another number of processes (the message names both).  On
 * error st and r are left empty.
 */
int checkpoint_mpi_load(MPI_Comm comm, const char *dir, const struct space *s,
                        uint64_t max_memory, uint64_t extra, struct store *st,
                        struct bfs_result *r, int *generation, slide_error *err);

#endif
