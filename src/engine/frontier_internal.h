/*
 * frontier_internal.h - what the frontier search's two key kinds share
 * (frontier.c: rank keys and the step; frontier_bytes.c: moved keys).
 *
 * A step cuts the blocks of layer d into chunks, which the threads take as
 * they come free, each expanding, sorting and deduplicating a chunk into
 * one sorted run (struct runs); the runs are then merged.  Each thread's
 * part of the expansion buffer holds moves.max keys (the most moves of a
 * board in the search's metric) of klen bytes per board of a chunk, and as
 * much scratch.
 */
#ifndef SLIDE_FRONTIER_INTERNAL_H
#define SLIDE_FRONTIER_INTERNAL_H

#include "slide/frontier.h"

/* The sorted runs of one step. */
struct runs {
    struct fstream *run;
    size_t len, cap;
};

/* Expansion buffers of one step: keys and the sort's scratch. */
struct expand {
    const struct frontier_search *f;
    const char *dir;       /* runs in temporary files there; NULL: memory */
    unsigned char *a, *tmp;
    size_t klen;           /* bytes of a key in a and tmp */
    int threads;
    int rc;
    slide_error err;
    uint64_t candidates;
};

/*
 * The layers a new key must not be in: layer[0] = prev (d-1) and, in the
 * multi-tile metric, layer[1] = cur (d), whose boards can be neighbours of
 * each other there (frontier.h); returns how many of them count (1 or 2).
 */
int frontier_subtracted(const struct frontier_search *f, const struct fstream *layer[2]);

/*
 * Moved keys: one chunk, blocks [b0, b1) of cur: expand into buf (room for
 * moves.max keys a board), sort (tmp as scratch), drop repeats, write the run
 * (opened here).  Errors: SLIDE_ENOMEM, SLIDE_EIO, SLIDE_EFORMAT,
 * SLIDE_ERANGE (a neighbour longer than the key length).
 */
int fbytes_share(struct expand *x, size_t b0, size_t b1, unsigned char *buf,
                 unsigned char *tmp, struct fstream *run, slide_error *err);

/* Moved keys: merge the runs, drop repeats and the keys of the subtracted
 * layers (frontier_subtracted), into out (opened with fstream_open_bytes);
 * with a layer d of at least 64 blocks in 16 key ranges cut at its blocks'
 * first keys, merged by up to threads threads into streams of their own
 * (files in dir when it is not NULL) and joined, as for rank keys.
 * Errors: as the streams. */
int fbytes_merge(const struct frontier_search *f, const struct runs *r, const char *dir,
                 int threads, struct fstream *out, slide_error *err);

#endif
