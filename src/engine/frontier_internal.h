/*
 * frontier_internal.h - what the frontier search's two key kinds share
 * (frontier.c: rank keys and the step; frontier_bytes.c: moved keys).
 *
 * A step expands the blocks of layer d in batches; each batch is cut among
 * the threads, each expanding, sorting and deduplicating its share into one
 * sorted run (struct runs); the runs are then merged.  The expansion buffer
 * holds 4 keys of klen bytes per board of a batch, and as much scratch.
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
    uint64_t *start;       /* keys of cur before each block of the batch */
    int threads;
    int rc;
    slide_error err;
    uint64_t candidates;
};

/*
 * Moved keys: one thread's share of a batch, blocks [b0, b1) of cur (batch0
 * the batch's first block): expand into the buffer, sort, drop repeats,
 * write the run (opened here).  Errors: SLIDE_ENOMEM, SLIDE_EIO,
 * SLIDE_EFORMAT, SLIDE_ERANGE (a neighbour longer than the key length).
 */
int fbytes_share(struct expand *x, size_t b0, size_t b1, size_t batch0, struct fstream *run,
                 slide_error *err);

/* Moved keys: merge the runs, drop repeats and the keys of layer d-1, into
 * out (opened with fstream_open_bytes).  Errors: as the streams. */
int fbytes_merge(const struct frontier_search *f, const struct runs *r, struct fstream *out,
                 slide_error *err);

#endif
