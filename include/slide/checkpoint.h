/*
 * checkpoint.h - save a two-bit BFS (bfs.h) at a layer boundary into a
 * directory and load it back, so that a long run survives an interrupt.
 *
 * Representation: a checkpoint is a directory holding two files.
 *
 *   DIR/store  the store's words (store.h) exactly as in memory: nwords
 *              64-bit little-endian words, padding entries included (11).
 *   DIR/state  text, one "key value" per line, in this order:
 *                slide-checkpoint VERSION   (magic and format version)
 *                board RxC
 *                goal G                     (board text, as board_format)
 *                space compact|full
 *                entries N                  (store entries = space size)
 *                store-bytes B              (size of DIR/store)
 *                store-crc32 XXXXXXXX       (CRC-32 of DIR/store, hex)
 *                radius D                   (depth of the current frontier)
 *                complete 0|1               (1: the search has finished)
 *                elapsed SECONDS            (search wall time so far)
 *                first K i1 ... iK          (bfs_result.first)
 *                metric mtm                 (only for a search in the
 *                                            multi-tile metric; none: the
 *                                            single-tile one, bfs_result.metric)
 *                hist h0 ... hD             (boards at distance 0..D)
 *                state-crc32 XXXXXXXX       (CRC-32 of all lines above)
 *
 * Invariants: state names exactly the store beside it (entries, bytes and
 * CRC agree); the store holds closed layers 0..D-1, layer D as frontier (or
 * every layer closed when complete), and hist sums to the visited entries.
 * Saving (every file through atomic_file.h): the store into a synced
 * temporary; the state into DIR/state.tmp (synced, renamed, directory
 * synced); the store's temporary renamed to DIR/store; DIR/state.tmp
 * renamed to DIR/state.  A death at any point leaves one state that names
 * the store beside it: DIR/state before the store's rename, DIR/state.tmp
 * after it.  Loading therefore promotes DIR/state.tmp to DIR/state only
 * when its own CRC checks and its store-crc32 is the store's; otherwise it
 * removes DIR/state.tmp and keeps DIR/state (roll forward or back).
 */
#ifndef SLIDE_CHECKPOINT_H
#define SLIDE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "slide/bfs.h"
#include "slide/error.h"
#include "slide/space.h"

#define CHECKPOINT_VERSION 1
#define CHECKPOINT_MAGIC "slide-checkpoint"
/* Bytes of the disk a checkpoint needs beyond its store (the state file). */
#define CHECKPOINT_STATE_RESERVE (1u << 20)

/*
 * CRC-32 (ISO 3309, zlib's crc32) of len bytes at p, computed in parallel
 * 8 MiB blocks combined with zlib's crc32_combine, so the value equals a
 * sequential crc32 of the whole buffer for any thread count.
 */
uint32_t checkpoint_crc32(const void *p, size_t len);

/*
 * Read exactly len bytes of the regular file at path (never through a
 * symbolic link) into p.  Errors: SLIDE_EIO (missing, unreadable, not a
 * regular file), SLIDE_EFORMAT when the file is shorter than len.
 */
int checkpoint_read_file(const char *path, void *p, size_t len, slide_error *err);

/*
 * Make dir ready to receive checkpoints of space s.  Checks first, creating
 * nothing: dir is not a file, its parent exists, and the file system has
 * room for the checkpoints of a whole run: two stores (each save after the
 * first writes its store beside the last one) + CHECKPOINT_STATE_RESERVE,
 * less the size of a store already in dir.  Then creates dir if missing.
 * Errors: SLIDE_EIO (cannot create, not a directory, missing parent),
 * SLIDE_ENOMEM naming the bytes needed and the bytes free.
 */
int checkpoint_prepare(const char *dir, const struct space *s, slide_error *err);

/*
 * 1 if dir holds a checkpoint (DIR/state, or a DIR/state.tmp whose own CRC
 * checks), else 0.  Says nothing about its validity.
 */
int checkpoint_exists(const char *dir);

/*
 * Save the search over s held in st and r (as left by bfs_run or bfs_resume
 * returning SLIDE_OK or SLIDE_EINTR: a layer boundary) into dir, replacing
 * the checkpoint there only once the new one is complete.  Checks the free
 * disk space first, as checkpoint_prepare.  On failure the previous
 * checkpoint stays valid and the temporary files are removed.  A
 * DIR/state.tmp found when a save starts is taken as the previous save's,
 * whose last rename failed (loading has already settled any older one), and
 * is renamed to DIR/state first.
 * Errors: SLIDE_EINVAL (st does not fit s, or a big-endian host),
 * SLIDE_ENOMEM (disk space, with both figures), SLIDE_EIO naming the file
 * and the system error.
 */
int checkpoint_save(const char *dir, const struct space *s,
                    const struct store *st, const struct bfs_result *r,
                    slide_error *err);

/*
 * Load the checkpoint in dir for space s: st is allocated here (after
 * store_check_memory against max_memory, 0 = MemAvailable) and r is filled
 * so that bfs_resume continues the search (or, if r->complete, r is the
 * final result).  Checks, in order: magic, format version, state CRC, board
 * dimensions, goal, space kind, entries, store size, store CRC, and that the
 * store's frontier and unvisited counts agree with the histogram; each
 * refusal names the file, what it holds and what was expected.  Free st with
 * store_free and r with bfs_result_free.  Errors: SLIDE_EIO (missing or
 * unreadable), SLIDE_EFORMAT (corrupt, truncated, other version, or a
 * checkpoint of another board, goal or space), SLIDE_ENOMEM (memory guard),
 * SLIDE_EINVAL (big-endian host).  On error st and r are left empty.
 */
int checkpoint_load(const char *dir, const struct space *s, uint64_t max_memory,
                    struct store *st, struct bfs_result *r, slide_error *err);

/* An exclusive hold on a checkpoint directory (checkpoint_lock). */
struct checkpoint_lock {
    int fd;   /* DIR/lock, flock'ed; -1 when not held */
};

/*
 * Take the exclusive lock of the checkpoint directory dir (which must
 * exist): flock(2) on DIR/lock (created if missing, never through a link),
 * which then holds this process's id, and remove the temporaries a dead
 * run left there (".store.*.tmp", ".state.tmp.*.tmp", and pdb_checkpoint.h's
 * ".pdb-store.*.tmp", ".pdb-values.*.tmp", ".pdb-state.*.tmp": no live run
 * owns one while the lock is ours).  Hold it for the whole run: the lock
 * ends with checkpoint_unlock or the process.  Errors: SLIDE_EIO "checkpoint
 * DIR is in use by process N" when another process holds it, or naming the
 * file and the system error (a missing directory: "no checkpoint: directory
 * DIR does not exist").
 */
int checkpoint_lock(const char *dir, struct checkpoint_lock *lk, slide_error *err);

/* Release the lock (safe on one not held). */
void checkpoint_unlock(struct checkpoint_lock *lk);

/* What a checkpoint is of, read from its state without the store. */
struct checkpoint_info {
    int rows, cols;
    enum space_kind kind;
    char goal[512];   /* board text of the goal */
};

/*
 * The board size, goal and space of the checkpoint in dir (from DIR/state,
 * or from a whole DIR/state.tmp when the state is missing), so that
 * `--resume DIR` needs nothing else.  Errors: as checkpoint_load for the
 * state file (SLIDE_EIO missing, SLIDE_EFORMAT corrupt).
 */
int checkpoint_describe(const char *dir, struct checkpoint_info *info, slide_error *err);

#endif
