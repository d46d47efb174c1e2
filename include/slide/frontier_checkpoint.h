/*
 * frontier_checkpoint.h - one checkpoint per layer of a frontier search
 * (frontier.h), so that a run stopped or killed resumes from the last
 * complete layer.
 *
 * Representation: a directory holding
 *   DIR/lock       empty; flock(2)ed by the process that uses DIR
 *   DIR/layer-D    the stream of layer D (frontier_stream.h), binary,
 *                  little-endian: the 8-byte magic "SLFRLAY1", then u32
 *                  version (1: rank keys, 2: moved keys), rows, cols, depth; u64 count, data bytes,
 *                  blocks; the index (per block: first key low and high
 *                  u64, data offset u64, count u32, zero u32); the data;
 *                  u32 CRC-32 of every byte before it.
 *   DIR/state      text, one "key value" per line:
 *                    slide-frontier-checkpoint VERSION
 *                    board RxC
 *                    goal G                 (board_format)
 *                    depth D                (the last complete layer)
 *                    elapsed SECONDS
 *                    keys rank|moved        (version 2; version 1: rank)
 *                    metric stm|mtm         (version 3; versions 1-2: stm)
 *                    hist h0 ... hD
 *                    state-crc32 XXXXXXXX   (CRC-32 of the lines above)
 * Invariants: state names depth D only once layer-D and layer-(D-1) (D > 0)
 * are complete files beside it; their counts equal hist[D] and hist[D-1].
 * Every file is written through atomic_file.h (a temporary, fsynced, renamed
 * over a regular file only, the directory fsynced); state last.  Files are
 * read only if regular (file_kind.h), never through a symlink.  Layer files
 * other than the two state names are removed after the state is renamed.
 */
#ifndef SLIDE_FRONTIER_CHECKPOINT_H
#define SLIDE_FRONTIER_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "slide/error.h"
#include "slide/frontier.h"

#define FCHECKPOINT_VERSION 3
#define FCHECKPOINT_MAGIC "slide-frontier-checkpoint"

/*
 * Make dir ready (create it if missing; its parent must exist; refuse a
 * symlink or a non-directory) and lock it for this process: *lock_fd
 * receives the descriptor holding the lock (close it to release).  The
 * temporaries that a killed run left there (".layer-D.<hex>.tmp",
 * ".state.<hex>.tmp"; atomic_file_remove_stale) are removed.
 * Errors: SLIDE_EIO naming dir and what is wrong, including "in use by
 * another process".
 */
int fcheckpoint_open(const char *dir, int *lock_fd, slide_error *err);

/* 1 if dir holds a frontier checkpoint (DIR/state), else 0. */
int fcheckpoint_exists(const char *dir);

/*
 * The board size, goal (board_format text, goal_len bytes with the NUL),
 * key kind (FRONTIER_KEYS_RANK or _MOVED) and metric of the checkpoint in
 * dir, from DIR/state (CRC checked), so that --resume DIR needs none of
 * them.  Errors: SLIDE_EFORMAT (missing, unreadable, not a
 * regular file, corrupt, another version; the message says which),
 * SLIDE_ENOMEM.
 */
int fcheckpoint_describe(const char *dir, int *rows, int *cols, char *goal, size_t goal_len,
                         enum frontier_keys *keys, enum metric *metric, slide_error *err);

/*
 * Save the search f (between steps) with goal into dir (open, locked).
 * Checks the free disk space first: the new files (layers and state), each
 * rounded up to whole blocks, and one block more.  On
 * failure the previous checkpoint stays valid.  *bytes receives the bytes
 * written.  Errors: SLIDE_ENOMEM (disk space, both figures), SLIDE_EIO
 * naming the file and the system error, SLIDE_EINVAL (big-endian host).
 */
int fcheckpoint_save(const char *dir, const struct frontier_search *f,
                     const struct board *goal, uint64_t *bytes, slide_error *err);

/*
 * Load the checkpoint in dir into f, already set up by frontier_init for
 * goal (layers go to f->temp_dir's temporary files when their data exceeds
 * max_memory, 0 = no limit).  Checks magic, version, state CRC, board,
 * goal, key kind, metric (f->metric), each layer's header, CRC, index and
 * count against the histogram.  Errors: SLIDE_EIO (missing, unreadable),
 * SLIDE_EFORMAT (corrupt, another version, board, goal, key kind or
 * metric; the message names the file and what it holds),
 * SLIDE_ENOMEM.  On error f is unchanged.
 */
int fcheckpoint_load(const char *dir, struct frontier_search *f, const struct board *goal,
                     uint64_t max_memory, slide_error *err);

#endif
