/*
 * bfs.c - the layered two-bit BFS (bfs.h).
 *
 * Each layer is one parallel pass over the store's words, forward (the
 * frontier marks its unvisited neighbours) or backward (unvisited boards
 * look for a frontier neighbour).  Horizontal neighbours are e +- 1, done
 * on whole words by masks; vertical ones come from the move tables
 * (move_tables.h).  In dense layers a thread reads a neighbour's index from
 * the tables of the window it is in (window_set, vertical_window_c: one
 * loop per word over the moves of both directions, masks.vmove); in sparse
 * ones it keeps the tile sequence t and Lehmer digits of the last block it
 * decoded (worker.base), advances them to nearby blocks by the tail table
 * or mixed-radix addition (frontier entries are met in increasing index
 * order within a chunk), and updates the C digits a vertical move changes
 * (vmove_lex).
 *
 * No store of a pass is locked.  Backward and close passes write only the
 * word being scanned.  A forward pass of one thread marks its targets
 * itself: at once when the store is small enough for the cache (mark_now),
 * else prefetched when computed and marked in batches of BATCH or more
 * (own_room); a forward pass of several puts every target outside the
 * word being scanned in a bucket for the owner of the target's chunk, and
 * the owners mark them in apply phases between barriers (buckets.h),
 * reading ahead of the marks; the threads of a team scan the chunks they
 * own first (team_scan).  A target waits as its bit position in the
 * store, twice its index (mark_target).  Words without work are skipped
 * by a loop of their own (next_word), without stepping (block, blank)
 * along: word_first finds a word's first entry by a multiply-high.
 *
 * A byte of flags per chunk of the store says which chunks may hold
 * frontier entries of each colour and unvisited entries of each colour;
 * a pass skips the chunks that cannot matter to it.  The first and last
 * few dozen layers of a big board touch a tiny share of the chunks, and
 * without the flags each of them would still read the whole store (about
 * 4 s per layer for the 10.9 GB of 2x7).  Flags are only ever conservative
 * (set when in doubt, cleared by the thread that just processed the chunk),
 * so the result cannot depend on them.
 *
 * The distributed search (bfs_mpi.c) runs these same passes over one slice
 * of the index space per process (bfs_slice.h, bfs_slice.c):
 * the passes address the slice by global word and chunk numbers; a target
 * outside the slice goes to the thread's remote buffer (one compare per
 * target, in instantiations of the forward scan of their own, so that
 * bfs_run's are unchanged), and a pass can stop at a word boundary when a
 * buffer runs short of room and go on where it stopped.
 *
 * The kernel is split by concern into internal headers, included by this
 * file and bfs_slice.c only, so that its hot functions stay inlined:
 * bfs_kernel.h (shared state; it lists the others), bfs_cursor.h,
 * bfs_marking.h, bfs_moves.h, bfs_scan.h, bfs_passes.h, bfs_layer.h.  This
 * file is the layer driver: layer by layer, the direction, the result.
 */
#include "slide/bfs.h"

#include "bfs_layer.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/*
 * Chunk flags for a search: a fresh one has only the goal's chunk holding
 * frontier (of colour 0) and every chunk possibly unvisited; a resumed one
 * knows nothing, so every flag is set.  Returns NULL when out of memory.
 */
static uint8_t *flags_alloc(const struct store *st, int fresh, uint64_t goal)
{
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    uint8_t *flags = malloc(nchunks ? nchunks : 1);
    if (!flags)
        return NULL;
    memset(flags, fresh ? FLAG_UNVISITED(0) | FLAG_UNVISITED(1) : FLAG_ALL, nchunks);
    if (fresh)
        flags[goal >> CHUNK_SHIFT] |= FLAG_FRONTIER(0);
    return flags;
}

int bfs_result_push(struct bfs_result *r, int depth, uint64_t count,
                    slide_error *err)
{
    if (depth >= r->layers_alloc) {
        int cap = r->layers_alloc ? 2 * r->layers_alloc : 64;
        uint64_t *h = realloc(r->hist, (size_t)cap * sizeof *h);
        if (!h)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
        memset(h + r->layers_alloc, 0, (size_t)(cap - r->layers_alloc) * sizeof *h);
        r->hist = h;
        r->layers_alloc = cap;
    }
    r->hist[depth] = count;
    r->radius = depth;
    r->reached += count;
    return SLIDE_OK;
}

int bfs_backward_pays(const struct space *s, const struct bfs_result *r, int d)
{
    if (s->kind != SPACE_COMPACT || s->path_graph)
        return 0;
    return unvisited_next(s, r, d) < r->hist[d];
}

static int bfs_layers(const struct space *s, struct store *st, uint8_t *flags,
                      const struct bfs_options *o, struct bfs_result *r,
                      slide_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    double start = omp_get_wtime() - r->seconds;
    struct tables tb;
    if (tables_init(&tb, s, threads, o, err))
        return SLIDE_ENOMEM;
    r->threads = threads;
    uint64_t nchunks = (st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS;
    int rc = SLIDE_OK;
    while (!r->complete) {
        int d = r->radius, colour = d & 1;
        unsigned bit = (unsigned)(d / 2) & 1u;
        double t0 = omp_get_wtime();
        /* the multi-tile metric goes forward, board by board, and closes
         * every layer (bfs_moves.h) */
        int back = !o->no_backward && !tb.mtm && bfs_backward_pays(s, r, d);
        uint64_t found;
        enum pass kind = back ? PASS_BACKWARD : PASS_FORWARD;
        /* a backward layer expands the unvisited boards */
        int windows = !tb.mtm &&
                      windows_pay(s, &tb.wt, o, back ? unvisited_next(s, r, d) : r->hist[d]);
        found = run_pass(s, &tb, st, flags, threads, kind, colour, bit,
                         pass_mark_flag(flags, 0, nchunks, kind, colour, windows), windows,
                         NULL, r);
        if (back || tb.mtm)
            run_pass(s, &tb, st, flags, threads, PASS_CLOSE, colour, bit,
                     FLAG_FRONTIER(1 - colour), 0, NULL, r);
        double t1 = omp_get_wtime();
        r->seconds = t1 - start;
        if (found == 0) {
            r->complete = 1;
            break;
        }
        r->nfirst = layer_first(st, flags, FLAG_FRONTIER(1 - colour), 0, 0, r->first);
        rc = bfs_result_push(r, d + 1, found, err);
        if (rc)
            break;
        struct bfs_layer L = {d + 1, found, r->reached, s->size, t1 - t0,
                              r->seconds, back};
        if (o->on_layer && o->on_layer(&L, o->ctx)) {
            rc = slide_fail(err, SLIDE_EINTR, "search stopped after distance %d", d + 1);
            break;
        }
    }
    r->applies += tb.bk.applies;
    tables_free(&tb);
    return rc;
}

/* Layers until complete, with chunk flags that live as long as the loop. */
static int bfs_loop(const struct space *s, struct store *st,
                    const struct bfs_options *o, struct bfs_result *r,
                    int fresh, slide_error *err)
{
    uint8_t *flags = flags_alloc(st, fresh, (uint64_t)s->goal_blank);
    if (!flags)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the chunk flags");
    int rc = bfs_layers(s, st, flags, o, r, err);
    free(flags);
    return rc;
}

int bfs_resume(const struct space *s, struct store *st,
               const struct bfs_options *o, struct bfs_result *r,
               slide_error *err)
{
    if (st->size != s->size)
        return slide_fail(err, SLIDE_EINVAL,
                          "store has %llu entries but the space has %llu",
                          (unsigned long long)st->size,
                          (unsigned long long)s->size);
    if (r->metric != o->metric)
        return slide_fail(err, SLIDE_EINVAL, "the search was begun in the %s metric (%s), "
                          "not the %s metric (%s)", metric_long_name(r->metric),
                          metric_name(r->metric), metric_long_name(o->metric),
                          metric_name(o->metric));
    return bfs_loop(s, st, o, r, 0, err);
}

int bfs_run(const struct space *s, struct store *st,
            const struct bfs_options *o, struct bfs_result *r,
            slide_error *err)
{
    memset(r, 0, sizeof *r);
    r->metric = o->metric;
    if (st->size != s->size)
        return slide_fail(err, SLIDE_EINVAL,
                          "store has %llu entries but the space has %llu",
                          (unsigned long long)st->size,
                          (unsigned long long)s->size);
    uint64_t goal = (uint64_t)s->goal_blank; /* t = identity has rank 0 */
    store_set(st, goal, STORE_FRONTIER);
    int rc = bfs_result_push(r, 0, 1, err);
    if (rc)
        return rc;
    r->first[0] = goal;
    r->nfirst = 1;
    struct bfs_layer L = {0, 1, 1, s->size, 0.0, 0.0, 0};
    if (o->on_layer && o->on_layer(&L, o->ctx))
        return slide_fail(err, SLIDE_EINTR, "search stopped after distance 0");
    return bfs_loop(s, st, o, r, 1, err);
}

void bfs_result_free(struct bfs_result *r)
{
    free(r->hist);
    memset(r, 0, sizeof *r);
}

uint64_t bfs_visit_frontier(const struct space *s, const struct store *st,
                            int depth, int threads, bfs_visit_fn fn, void *ctx)
{
    uint64_t visited = 0;
    int64_t nwords = (int64_t)st->nwords;
    (void)s;
    (void)depth; /* at a layer boundary the frontier (10) is the layer */
    if (threads <= 0)
        threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(+ : visited)
    {
        int me = omp_get_thread_num();
#pragma omp for schedule(dynamic, 1024)
        for (int64_t wi = 0; wi < nwords; wi++) {
            uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
            uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS;
            while (fm) {
                int b = __builtin_ctzll(fm);
                fm &= fm - 1;
                fn(ctx, me, (uint64_t)wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2));
                visited++;
            }
        }
    }
    return visited;
}
