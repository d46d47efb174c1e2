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

/*
 * One pass of a step (frontier.h, "passes"): the neighbours whose keys lie
 * in [lo, hi) of the key order, merged with blocks [bs, be) of layer d,
 * whose first keys cut the pass's merge into parts.  Rank keys: lo, hi (0:
 * no bound); byte keys: blo, bhi of klen bytes (NULL: no bound).  A step in
 * one pass is bs = 0, be = nblocks, no bounds; the passes of a step
 * partition the key order, so each new key is found by exactly one.
 */
struct pass {
    size_t bs, be;
    fkey lo, hi;
    const unsigned char *blo, *bhi;
};

/* The sorted runs of one step. */
struct runs {
    struct fstream *run;
    size_t len, cap;
};

/* Expansion buffers of one step: keys and the sort's scratch. */
struct expand {
    const struct frontier_search *f;
    const char *dir;       /* runs in temporary files there; NULL: memory */
    const struct pass *pass; /* the keys kept */
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

/* Moved keys: merge the runs (their keys in pass's range), drop repeats and
 * the keys of the subtracted layers (frontier_subtracted), onto the end of
 * out (opened with fstream_open_bytes; join: it may hold the keys of
 * earlier passes, all below these); with at least 64 blocks of layer d in
 * the pass, in 16 key ranges cut at their first keys, merged by up to
 * threads threads into streams of their own (files in dir when it is not
 * NULL) and joined, as for rank keys.  Errors: as the streams. */
int fbytes_merge(const struct frontier_search *f, const struct runs *r, const char *dir,
                 int threads, const struct pass *pass, int join, struct fstream *out,
                 slide_error *err);

/* Moved keys: the first key of block b of layer d into key (klen bytes,
 * zero-padded).  Errors: SLIDE_ENOMEM, SLIDE_EFORMAT. */
int fbytes_block_first(const struct fstream *s, size_t b, size_t klen, unsigned char *key,
                       slide_error *err);

#endif
