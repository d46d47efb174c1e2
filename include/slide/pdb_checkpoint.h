/*
 * pdb_checkpoint.h - save a pattern database build (pdb_build.h's pdb_run)
 * between two layers into a directory and load it back, so that a long
 * build survives an interrupt.
 *
 * Representation: a directory holding
 *   DIR/lock          flock(2)ed by the process using DIR (checkpoint_lock)
 *   DIR/pdb-store.D   the run's store words as in memory (little-endian)
 *   DIR/pdb-values.D  the run's value bytes (PDB_NONE not yet reached)
 *   DIR/pdb-state     text, one "key value" per line, in this order:
 *                       slide-pdb-checkpoint VERSION
 *                       build KIND RxC tiles T goal G   (what is built)
 *                       depth D         (the next layer to expand)
 *                       cumulative C    (entries with a value)
 *                       elapsed SECONDS
 *                       store-bytes B   store-crc32 X
 *                       values-bytes B  values-crc32 X
 *                       state-crc32 X   (CRC-32 of the lines above)
 * Invariants: pdb-state names depth D only once pdb-store.D and
 * pdb-values.D are complete (each written through atomic_file.h: a synced
 * temporary renamed into place; the state last), and their sizes and CRCs
 * are those it holds.  Files of other depths are removed after the state's
 * rename, so a death at any point leaves the last complete checkpoint.
 */
#ifndef SLIDE_PDB_CHECKPOINT_H
#define SLIDE_PDB_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "slide/error.h"
#include "slide/pdb_build.h"

/* 2 since the additive seed is the goal blank's region (pdb_build.h); a
 * format 1 checkpoint holds layers of the old seeding and is refused. */
#define PDB_CHECKPOINT_VERSION 2
#define PDB_CHECKPOINT_MAGIC "slide-pdb-checkpoint"

/* 1 if dir holds a pdb checkpoint (DIR/pdb-state), else 0. */
int pdb_checkpoint_exists(const char *dir);

/*
 * Save run (between layers) into dir (existing, locked with
 * checkpoint_lock).  Checks the free disk space first.  *bytes (may be
 * NULL) receives the bytes written.  On failure the previous checkpoint
 * stays.  Errors: SLIDE_ENOMEM (disk space, both figures), SLIDE_EIO naming
 * the file and the system error, SLIDE_EINVAL (big-endian host).
 */
int pdb_checkpoint_save(const char *dir, const struct pdb_run *run, uint64_t *bytes,
                        slide_error *err);

/*
 * Load the checkpoint in dir as the build of pat and kind: run is allocated
 * here (pdb_run_alloc, with o's memory guard and threads) and filled.
 * Refuses, naming both, a checkpoint of another build (kind, board, tiles
 * or goal); checks magic, version, state CRC, sizes, the CRCs of both
 * files and that depth and cumulative count agree with the files
 * (pdb_run_check).  Errors: SLIDE_EIO (missing, unreadable), SLIDE_EFORMAT (corrupt,
 * another version or another build), SLIDE_ENOMEM.  On error run is empty.
 */
int pdb_checkpoint_load(const char *dir, const struct pattern *pat, enum pdb_kind kind,
                        const struct pdb_build_options *o, struct pdb_run *run,
                        slide_error *err);

/*
 * What the checkpoint in dir builds (its "build" line: "KIND RxC tiles T
 * goal G") into buf, and in *tiles its tile list ("1,2,3"; tiles_len
 * bytes).  Errors: as pdb_checkpoint_load for the state file.
 */
int pdb_checkpoint_describe(const char *dir, char *buf, size_t len, char *tiles,
                            size_t tiles_len, slide_error *err);

/* Remove the checkpoint of dir after the table is written: its files, the
 * temporaries of dead runs, the lock file, and dir itself when nothing
 * else is in it.  A directory locked by another run is left alone. */
void pdb_checkpoint_remove(const char *dir);

#endif
