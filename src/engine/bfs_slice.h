/*
 * bfs_slice.h - the layer expansion of the two-bit BFS (bfs.c) over one
 * slice of the index space, for the distributed search (bfs_mpi.c).
 * Internal to the engine layer.
 *
 * Representation.  A slice is the entries [lo, hi) of a space, held in a
 * store of hi - lo entries (local entry i is global index lo + i).  lo and
 * hi are multiples of bfs_slice_unit(s) = lcm(32, n) (hi may also be the
 * space's size): whole store words, so no word is shared between slices,
 * and whole blocks of n boards, so a horizontal move never leaves its
 * slice.  The expansion is bfs_run's own (the same scan, window and move
 * tables, per-thread buckets, chunk flags): it addresses the slice by
 * global word and chunk numbers, with the store's and the flags' base
 * moved back by the slice's first word and chunk, and its only addition
 * is a test per target: a target outside [lo, hi) goes to the remote
 * buffer of the thread that found it instead of being marked.
 *
 * A layer d:
 *   bfs_slice_layer   picks forward or backward and the window tables by
 *                     the histogram, as bfs_run does;
 *   bfs_slice_scan    runs the layer's pass over the slice; forward: every
 *                     frontier entry of colour d mod 2 is closed and its
 *                     neighbours marked (local) or buffered (remote, as
 *                     bit positions 2e); backward: every unvisited entry of
 *                     the next colour with a local frontier neighbour is
 *                     marked, one without asks about its remote ones (the
 *                     pair queried index, asking index, in the buffer).  It
 *                     returns 0 early, at a word boundary, when a thread's
 *                     buffer has less than a word run's worth of room, and
 *                     continues where it stopped when called again (a
 *                     forward pass may rescan a chunk's closed words: they
 *                     hold no frontier of the layer's colour any more);
 *   between calls     the caller takes the buffers (bfs_slice_remote),
 *                     empties them (bfs_slice_clear), marks what other
 *                     slices sent (bfs_slice_mark) and answers their
 *                     questions (bfs_slice_answer);
 *   bfs_slice_finish  once every slice has finished its pass and every
 *                     target and answer is marked: closes the old frontier
 *                     after a backward pass and returns the boards this
 *                     slice gained and its smallest new ones.
 * Counts are exact: every 11 -> 10 change is made and counted by one
 * writer (bfs.c), whether the target came from this slice or another.
 */
#ifndef SLIDE_ENGINE_BFS_SLICE_H
#define SLIDE_ENGINE_BFS_SLICE_H

#include <stddef.h>
#include <stdint.h>

#include "slide/bfs.h"

struct bfs_slice;

/* Entries a slice boundary is a multiple of: lcm(32, n). */
uint64_t bfs_slice_unit(const struct space *s);

/* Remote buffer entries per thread for a budget of `budget` bytes of raw
 * 8-byte entries in all (threads >= 1) and a slice of `entries` entries:
 * budget / 8 / threads, at least the 256 that one check's margin needs,
 * and not more than the slice could ever send in one pass. */
size_t bfs_slice_cap(uint64_t budget, int threads, uint64_t entries);

/*
 * Bytes a slice of `entries` entries needs besides its store, at most:
 * chunk flags, move and window tables (their peak while built), the
 * threads' buckets and remote buffers (threads x cap entries).  For the
 * memory guard, before anything is allocated.
 */
uint64_t bfs_slice_bytes(const struct space *s, uint64_t entries, int threads, size_t cap);

/*
 * Open the expansion of the slice [lo, lo + st->size) of s held in st
 * (lo and the end as above).  remote: 1 when other slices exist (targets
 * may leave this one); cap: remote buffer entries per thread
 * (bfs_slice_cap).  o: threads (<= 0: OpenMP's default), no_backward,
 * windows, small_buckets, queue as for bfs_run (on_layer unused).  fresh:
 * 1 for a new search (st holds the goal as frontier if it is in the slice,
 * else every entry unvisited), 0 for a resumed one.  Errors: SLIDE_EINVAL
 * (bad boundaries), SLIDE_ENOMEM.
 */
int bfs_slice_open(struct bfs_slice **out, const struct space *s, struct store *st,
                   uint64_t lo, int remote, const struct bfs_options *o, size_t cap,
                   int fresh, slide_error *err);
void bfs_slice_close(struct bfs_slice *sl);

/* Threads of the expansion: the remote buffers are numbered 0..threads-1. */
int bfs_slice_threads(const struct bfs_slice *sl);

/*
 * Begin the layer after r->radius (r: the histogram of the whole search,
 * layers 0..radius).  Returns 1 when it goes backward.  *boards: the
 * boards it expands in the whole space (the frontier forward, the
 * unvisited boards of the next colour backward).
 */
int bfs_slice_layer(struct bfs_slice *sl, const struct bfs_result *r, uint64_t *boards);

/* Run the layer's pass on from where it stopped; 1 when this slice's pass
 * is complete, 0 when it stopped for room in the remote buffers. */
int bfs_slice_scan(struct bfs_slice *sl);

/* Thread t's remote buffer: *n entries at the returned address (forward:
 * target bit positions 2e; backward: pairs queried e, asking e), in the
 * order found; the caller may reorder them.  Buffers of threads 0..T-1
 * lie one after the other in one allocation of T x cap entries (thread t's
 * at t x cap). */
uint64_t *bfs_slice_remote(struct bfs_slice *sl, int t, size_t *n);
/* Empty every remote buffer. */
void bfs_slice_clear(struct bfs_slice *sl);

/*
 * Mark the n global indexes e (all in the slice) frontier where unvisited,
 * counting each board once; increasing (then by every thread) or not
 * (sorted 0: by one thread).
 */
void bfs_slice_mark(struct bfs_slice *sl, const uint64_t *e, size_t n, int sorted);

/* Bit i of bits (n bits, zeroed by the caller): whether global index e[i]
 * (in the slice) is frontier. */
void bfs_slice_answer(const struct bfs_slice *sl, const uint64_t *e, size_t n,
                      uint8_t *bits);

/*
 * End the layer on this slice: after a backward pass, close the old
 * frontier.  Returns the boards the slice gained in the layer; first
 * receives its smallest BFS_KEEP (global indexes, increasing), *nfirst
 * how many.
 */
uint64_t bfs_slice_finish(struct bfs_slice *sl, uint64_t first[BFS_KEEP], int *nfirst);

#endif
