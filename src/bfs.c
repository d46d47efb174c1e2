/*
 * bfs.c - the layered two-bit BFS (bfs.h).
 *
 * Each layer is one parallel pass over the store's words.  A thread keeps
 * the tile sequence t of the last block it decoded (worker.base) and steps
 * to the next block with next_permutation instead of unranking, because
 * frontier entries are met in increasing index order within a chunk.
 */
#include "slide/bfs.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Words per unit of dynamic scheduling: 2 KiB of store, 256 entries. */
#define CHUNK_WORDS 64

struct worker {
    const struct space *s;
    int have;                       /* base holds block h */
    uint64_t h;
    uint8_t base[SPACE_MAX_CELLS];  /* t of block h at base_parity */
    uint8_t other[SPACE_MAX_CELLS]; /* base with the last two swapped */
    int base_parity;
    uint64_t found;                 /* boards this thread marked first */
    uint64_t first[BFS_KEEP];       /* smallest indexes it marked, sorted */
    int nfirst;
};

/* Keep the BFS_KEEP smallest indexes seen, in increasing order. */
static void keep_first(uint64_t *first, int *nfirst, uint64_t e)
{
    int k = *nfirst;
    if (k == BFS_KEEP && e >= first[k - 1])
        return;
    if (k < BFS_KEEP)
        k++;
    int i = k - 1;
    while (i > 0 && first[i - 1] > e) {
        first[i] = first[i - 1];
        i--;
    }
    first[i] = e;
    *nfirst = k;
}

/* std::next_permutation; returns the parity change (0/1) it caused. */
static int next_perm(uint8_t *p, int len)
{
    int i = len - 2;
    while (i >= 0 && p[i] > p[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = len - 1;
    while (p[j] < p[i])
        j--;
    uint8_t x = p[i];
    p[i] = p[j];
    p[j] = x;
    int tail = len - 1 - i; /* reversing `tail` entries: tail/2 swaps */
    for (int a = i + 1, b = len - 1; a < b; a++, b--) {
        x = p[a];
        p[a] = p[b];
        p[b] = x;
    }
    return (1 + tail / 2) & 1;
}

/* Make w->base the t of block h (lexicographically smaller of the pair). */
static void worker_seek(struct worker *w, uint64_t h)
{
    const struct space *s = w->s;
    int m = s->m;
    if (w->have && h == w->h)
        return;
    if (w->have && h == w->h + 1 && m >= 2) {
        if (s->kind == SPACE_COMPACT) {
            /* lex rank 2h+1 is base with the last two swapped, 2h+2 follows */
            uint8_t x = w->base[m - 2];
            w->base[m - 2] = w->base[m - 1];
            w->base[m - 1] = x;
            w->base_parity ^= 1;
        }
        w->base_parity ^= next_perm(w->base, m);
    } else {
        uint64_t lex = s->kind == SPACE_COMPACT && m >= 2 ? 2 * h : h;
        w->base_parity = rank_unlex(lex, m, w->base);
    }
    memcpy(w->other, w->base, (size_t)m);
    if (m >= 2) {
        w->other[m - 2] = w->base[m - 1];
        w->other[m - 1] = w->base[m - 2];
    }
    w->h = h;
    w->have = 1;
}

/* t of entry (h, z): in the compact space its parity is fixed by z. */
static const uint8_t *worker_t(struct worker *w, uint64_t h, int z)
{
    worker_seek(w, h);
    if (w->s->kind == SPACE_FULL || w->s->m < 2 ||
        w->s->need_parity[z] == w->base_parity)
        return w->base;
    return w->other;
}

static void worker_mark(struct worker *w, struct store *st, uint64_t e)
{
    if (store_mark(st, e)) {
        w->found++;
        keep_first(w->first, &w->nfirst, e);
    }
}

/* Forward expansion of one word: mark neighbours, close frontier entries. */
static void forward_word(struct worker *w, struct store *st, uint64_t wi,
                         int colour, unsigned depth_bit)
{
    const struct space *s = w->s;
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS; /* entries == 10 */
    uint64_t flip = 0;
    while (fm) {
        int b = __builtin_ctzll(fm);
        fm &= fm - 1;
        uint64_t e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        uint64_t h = e / (uint64_t)s->n;
        int z = (int)(e - h * (uint64_t)s->n);
        if (s->colour[z] != colour)
            continue; /* a board of the next layer, found earlier in this pass */
        uint64_t nb[MOVE_COUNT];
        int k = space_neighbours_tz(s, worker_t(w, h, z), z, e, nb);
        for (int i = 0; i < k; i++)
            worker_mark(w, st, nb[i]);
        flip |= (uint64_t)(2u | depth_bit) << b; /* 10 -> 0b */
    }
    if (flip)
        __atomic_fetch_xor(&st->words[wi], flip, __ATOMIC_RELAXED);
}

/* Backward step of one word: unvisited entries with a frontier neighbour. */
static void backward_word(struct worker *w, struct store *st, uint64_t wi,
                          int colour)
{
    const struct space *s = w->s;
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t um = word & (word >> 1) & STORE_LOW_BITS; /* entries == 11 */
    uint64_t clear = 0;
    while (um) {
        int b = __builtin_ctzll(um);
        um &= um - 1;
        uint64_t e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        if (e >= st->size)
            break;
        uint64_t h = e / (uint64_t)s->n;
        int z = (int)(e - h * (uint64_t)s->n);
        if (s->colour[z] != colour)
            continue;
        uint64_t nb[MOVE_COUNT];
        int k = space_neighbours_tz(s, worker_t(w, h, z), z, e, nb);
        for (int i = 0; i < k; i++)
            if (store_get(st, nb[i]) == STORE_FRONTIER) {
                clear |= 1ULL << b; /* 11 -> 10 */
                w->found++;
                keep_first(w->first, &w->nfirst, e);
                break;
            }
    }
    if (clear)
        __atomic_fetch_and(&st->words[wi], ~clear, __ATOMIC_RELAXED);
}

/* Close every frontier entry of one colour (second pass of a backward step). */
static void close_word(const struct space *s, struct store *st, uint64_t wi,
                       int colour, unsigned depth_bit)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS;
    uint64_t flip = 0;
    while (fm) {
        int b = __builtin_ctzll(fm);
        fm &= fm - 1;
        uint64_t e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        if (s->colour[e % (uint64_t)s->n] == colour)
            flip |= (uint64_t)(2u | depth_bit) << b;
    }
    if (flip)
        __atomic_fetch_xor(&st->words[wi], flip, __ATOMIC_RELAXED);
}

enum pass { PASS_FORWARD, PASS_BACKWARD, PASS_CLOSE };

/* One parallel pass over the store; returns the boards newly marked. */
static uint64_t run_pass(const struct space *s, struct store *st, int threads,
                         enum pass kind, int colour, unsigned depth_bit,
                         struct bfs_result *r)
{
    uint64_t found = 0;
    int64_t nchunks = (int64_t)((st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint64_t first[BFS_KEEP] = {0};
    int nfirst = 0;
#pragma omp parallel num_threads(threads) reduction(+ : found)
    {
        struct worker w = {.s = s};
#pragma omp for schedule(dynamic, 16)
        for (int64_t ch = 0; ch < nchunks; ch++) {
            uint64_t lo = (uint64_t)ch * CHUNK_WORDS;
            uint64_t hi = lo + CHUNK_WORDS < st->nwords ? lo + CHUNK_WORDS : st->nwords;
            for (uint64_t wi = lo; wi < hi; wi++) {
                if (kind == PASS_FORWARD)
                    forward_word(&w, st, wi, colour, depth_bit);
                else if (kind == PASS_BACKWARD)
                    backward_word(&w, st, wi, 1 - colour);
                else
                    close_word(s, st, wi, colour, depth_bit);
            }
        }
        found += w.found;
#pragma omp critical(bfs_first)
        for (int i = 0; i < w.nfirst; i++)
            keep_first(first, &nfirst, w.first[i]);
    }
    if (kind != PASS_CLOSE && found > 0) {
        memcpy(r->first, first, sizeof first);
        r->nfirst = nfirst;
    }
    return found;
}

static int push_layer(struct bfs_result *r, int depth, uint64_t count,
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

/* Entries of each colour in the whole space. */
static void colour_sizes(const struct space *s, uint64_t size[2])
{
    size[0] = size[1] = 0;
    for (int z = 0; z < s->n; z++)
        size[s->colour[z]] += s->blocks;
}

/* Backward pays when fewer unvisited boards remain than frontier boards. */
static int want_backward(const struct space *s, const struct bfs_options *o,
                         const struct bfs_result *r, int d)
{
    if (o->no_backward || s->kind != SPACE_COMPACT || s->path_graph)
        return 0;
    uint64_t size[2], visited = 0;
    colour_sizes(s, size);
    for (int k = (d + 1) & 1; k <= d; k += 2)
        visited += r->hist[k];
    uint64_t unvisited = size[(d + 1) & 1] - visited;
    return unvisited < r->hist[d];
}

static int bfs_loop(const struct space *s, struct store *st,
                    const struct bfs_options *o, struct bfs_result *r,
                    slide_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    double start = omp_get_wtime() - r->seconds;
    r->threads = threads;
    while (!r->complete) {
        int d = r->radius, colour = d & 1;
        unsigned bit = (unsigned)(d / 2) & 1u;
        double t0 = omp_get_wtime();
        int back = want_backward(s, o, r, d);
        uint64_t found;
        if (back) {
            found = run_pass(s, st, threads, PASS_BACKWARD, colour, bit, r);
            run_pass(s, st, threads, PASS_CLOSE, colour, bit, r);
        } else {
            found = run_pass(s, st, threads, PASS_FORWARD, colour, bit, r);
        }
        double t1 = omp_get_wtime();
        r->seconds = t1 - start;
        if (found == 0) {
            r->complete = 1;
            break;
        }
        int rc = push_layer(r, d + 1, found, err);
        if (rc)
            return rc;
        struct bfs_layer L = {d + 1, found, r->reached, s->size, t1 - t0,
                              r->seconds, back};
        if (o->on_layer && o->on_layer(&L, o->ctx))
            return slide_fail(err, SLIDE_EINTR,
                              "search stopped after distance %d", d + 1);
    }
    return SLIDE_OK;
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
    return bfs_loop(s, st, o, r, err);
}

int bfs_run(const struct space *s, struct store *st,
            const struct bfs_options *o, struct bfs_result *r,
            slide_error *err)
{
    memset(r, 0, sizeof *r);
    if (st->size != s->size)
        return slide_fail(err, SLIDE_EINVAL,
                          "store has %llu entries but the space has %llu",
                          (unsigned long long)st->size,
                          (unsigned long long)s->size);
    uint64_t goal = (uint64_t)s->goal_blank; /* t = identity has rank 0 */
    store_set(st, goal, STORE_FRONTIER);
    int rc = push_layer(r, 0, 1, err);
    if (rc)
        return rc;
    r->first[0] = goal;
    r->nfirst = 1;
    struct bfs_layer L = {0, 1, 1, s->size, 0.0, 0.0, 0};
    if (o->on_layer && o->on_layer(&L, o->ctx))
        return slide_fail(err, SLIDE_EINTR, "search stopped after distance 0");
    return bfs_loop(s, st, o, r, err);
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
    int colour = depth & 1;
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
                uint64_t e = (uint64_t)wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
                if (s->colour[e % (uint64_t)s->n] != colour)
                    continue;
                fn(ctx, me, e);
                visited++;
            }
        }
    }
    return visited;
}
