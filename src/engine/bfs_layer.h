/*
 * bfs_layer.h - what a layer of the two-bit BFS (bfs_kernel.h) needs
 * besides its passes, for bfs_run (bfs.c) and for a slice of the
 * distributed search (bfs_slice.c) alike: the tables of a search, the
 * choice of the window tables and of the direction from the histogram, and
 * the layer's smallest boards.  Internal to the kernel.
 */
#ifndef SLIDE_ENGINE_BFS_LAYER_H
#define SLIDE_ENGINE_BFS_LAYER_H

#include "bfs_passes.h"

/*
 * The BFS_KEEP smallest indexes of the layer just found (r->first, whose
 * last value the CLI prints as the antipodes).  After a layer's passes its
 * boards are the only frontier entries (10) in the store: the old frontier
 * is closed.  So they are found here in index order, in the chunks flagged
 * as holding frontier of the layer's colour, and the passes need not keep
 * the smallest indexes at every mark (a compare per target).  A dense
 * layer stops in its first chunks; a sparse one skips unflagged chunks a
 * byte each.
 */
static int layer_first(const struct store *st, const uint8_t *flags, uint8_t flag,
                       uint64_t ch0, uint64_t w0, uint64_t first[BFS_KEEP])
{
    int n = 0;
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    for (uint64_t ch = ch0; ch < nchunks && n < BFS_KEEP; ch++) {
        if (!(flags[ch] & flag))
            continue;
        uint64_t lo = ch * CHUNK_WORDS > w0 ? ch * CHUNK_WORDS : w0; /* w0: a slice's */
        uint64_t hi = lo + CHUNK_WORDS < st->nwords ? lo + CHUNK_WORDS : st->nwords;
        for (uint64_t wi = lo; wi < hi && n < BFS_KEEP; wi++) {
            uint64_t v = st->words[wi];
            for (uint64_t fm = (v >> 1) & ~v & STORE_LOW_BITS; fm && n < BFS_KEEP;
                 fm &= fm - 1)
                first[n++] = wi * STORE_ENTRIES_PER_WORD +
                             (uint64_t)(__builtin_ctzll(fm) / 2);
        }
    }
    return n;
}

/* Unvisited boards of the colour of distance d + 1 after layer d
 * (compact space). */
static uint64_t unvisited_next(const struct space *s, const struct bfs_result *r,
                               int d)
{
    int next = (d + 1) & 1, cells = 0;
    for (int z = 0; z < s->n; z++)
        cells += s->colour[z] == next;
    uint64_t unvisited = (uint64_t)cells * s->blocks; /* entries of colour next */
    for (int k = next; k <= d; k += 2)
        unvisited -= r->hist[k];
    return unvisited;
}

/*
 * Whether a layer should use the window tables, given the boards it
 * expands (`boards`: the frontier of a forward layer, the unvisited boards
 * of the next colour in a backward one): setting up a window (about 1,800
 * instructions on 3x4 when built afresh, more with more columns; about 600
 * on average since a window is mostly stepped from the one before it,
 * window_enter) costs as much as the block steps of some boards, so windows
 * pay when a window holds more than a few such boards on average; sparser
 * layers go board by board.  Either way gives the same marks.  callgrind,
 * one thread, whole run, at 275670d (before this threshold changed), by
 * minimum per window:
 *   2x5 (millions): 216.3 at 1, 215.5 at 4, 216.2 at 8, 216.5 at 12,
 *                   220.2 at 16, 219.0 at 24, 231.1 at 64, 367.8 never;
 *   3x4 (billions): 27.72 at 1, 27.56 at 4, 27.58 at 8, 27.58 at 12,
 *                   27.82 at 24.
 * The differences from 4 to 12 are within libgomp's spin (a few million),
 * so 8 is taken.  The earlier threshold, 24, was set by wall time when a
 * window cost about three times as much: on 2x6 and 2x7 windows were then
 * slower below about 20 boards per window and faster above about 30.  With
 * 8, 2x6 with two threads took 3.5-4.6 s either way (4 alternating runs,
 * the host's noise), and 2x7's layers 43-46 (8 to 24 frontier boards per
 * window, now by windows) took 14.0 s with two threads against 16.0 s at
 * 946e8ce board by board (results/histograms/2x7.progress.txt, different
 * hours, so only a hint).  Overridable at build time
 * (-DWINDOW_MIN_FRONTIER=n) for such measurements.
 */
#ifndef WINDOW_MIN_FRONTIER
#define WINDOW_MIN_FRONTIER 8
#endif

static int windows_pay(const struct space *s, const struct wtab *wt,
                       const struct bfs_options *o, uint64_t boards)
{
    if (!wt->on || o->windows < 0)
        return 0;
    if (o->windows > 0)
        return 1;
    uint64_t windows = s->blocks / WINDOW_BLOCKS;
    return boards >= (uint64_t)WINDOW_MIN_FRONTIER * (windows ? windows : 1);
}

static void tables_free(struct tables *tb)
{
    vtab_free(&tb->vt);
    wtab_free(&tb->wt);
    buckets_free(&tb->bk);
}

/* The tables of a search for `threads` threads (o: queue, small_buckets).
 * Errors: SLIDE_ENOMEM (nothing held then). */
static int tables_init(struct tables *tb, const struct space *s, int threads,
                       const struct bfs_options *o, slide_error *err)
{
    masks_init(&tb->mk, s);
    tail_init(&tb->tail, s->m);
    if (vtab_init(&tb->vt, s))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the move tables");
    if (wtab_init(&tb->wt, s, &tb->tail, &tb->vt)) {
        vtab_free(&tb->vt);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the move tables");
    }
    tb->queue = o->queue;
    if (buckets_init(&tb->bk, threads, o->small_buckets)) {
        vtab_free(&tb->vt);
        wtab_free(&tb->wt);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the target buckets");
    }
    /* the multi-tile metric's words between two bucket checks: a word
     * sends up to push_max_mtm targets, not BUCKETS_PER_WORD */
    tb->mtm = o->metric == METRIC_MTM;
    unsigned push_max = (unsigned)push_max_mtm(s); /* 0 on 1x1: no move at all */
    tb->mtm_words = push_max ? (unsigned)(tb->bk.words * BUCKETS_PER_WORD / push_max) : 1;
    if (tb->mtm && threads > 1 && tb->mtm_words == 0) {
        tables_free(tb);
        return slide_fail(err, SLIDE_ERANGE, "the multi-tile metric on %dx%d takes at most "
                          "126 threads", s->rows, s->cols);
    }
    return SLIDE_OK;
}


#endif
