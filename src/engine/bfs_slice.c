/*
 * bfs_slice.c - the distributed search's slices (bfs_slice.h): the passes
 * of the two-bit BFS (bfs_kernel.h) over the words of one slice, through
 * views of its store and flags that take global word and chunk numbers
 * (the slice's first word is wlo, its first chunk ch_lo; the views' bases
 * are moved back by them, so only those numbers are ever used with them).
 */
#include "bfs_slice.h"

#include "bfs_layer.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Remote entries one word may add: two vertical neighbours per entry
 * forward, or two queries of two entries (queried, asking) backward. */
#define SLICE_PER_WORD (4 * STORE_ENTRIES_PER_WORD)
/* Smallest remote buffer: two margins of one word. */
#define SLICE_MIN_CAP (2 * SLICE_PER_WORD)

struct bfs_slice {
    const struct space *s;
    struct bfs_options o;
    int threads;
    struct tables tb;
    struct store view;      /* the slice's store by global word */
    uint8_t *flags_mem;     /* one byte per chunk ch_lo..ch_end - 1 */
    uint8_t *flags;         /* the same by global chunk */
    struct slice sl;
    struct bfs_result res;  /* run_pass's r (threads used) */
    /* the layer being expanded */
    enum pass kind;
    int colour, windows, started;
    unsigned bit;
    uint8_t mark_flag;
    uint64_t found;
};

uint64_t bfs_slice_unit(const struct space *s)
{
    uint64_t a = STORE_ENTRIES_PER_WORD, b = (uint64_t)s->n;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return STORE_ENTRIES_PER_WORD / a * (uint64_t)s->n;
}

size_t bfs_slice_cap(uint64_t budget, int threads, uint64_t entries)
{
    uint64_t cap = budget / sizeof(uint64_t) / (uint64_t)(threads > 0 ? threads : 1);
    /* a pass sends at most SLICE_PER_WORD / 32 entries per board */
    uint64_t most = entries / STORE_ENTRIES_PER_WORD * SLICE_PER_WORD + 2 * SLICE_MIN_CAP;
    if (cap > most)
        cap = most;
    return (size_t)(cap < SLICE_MIN_CAP ? SLICE_MIN_CAP : cap);
}

/* Words between two checks of a buffer of cap entries: its margin
 * (check words x SLICE_PER_WORD) at most half of it, and no more words
 * than a team's bucket check. */
static unsigned slice_check_words(size_t cap, size_t per_word)
{
    size_t words = cap / (2 * per_word);
    return words < 1 ? 1 : words > BUCKETS_WORDS ? BUCKETS_WORDS : (unsigned)words;
}

uint64_t bfs_slice_bytes(const struct space *s, uint64_t entries, int threads, size_t cap)
{
    uint64_t T = (uint64_t)(threads > 0 ? threads : 1), bytes = sizeof(struct bfs_slice);
    bytes += entries / (CHUNK_WORDS * STORE_ENTRIES_PER_WORD) + 2;          /* flags */
    uint64_t c = (uint64_t)s->cols, m = (uint64_t)s->m;
    if (s->rows >= 2) {
        uint64_t nseg = m - c + 1, nmv = 2 * nseg, nrows = 1 + nmv * (TAIL_MAX + 2);
        bytes += 2 * nseg * (c + (1ULL << (c - 1))) * sizeof(int64_t);       /* vtab */
        bytes += nrows * TAIL_ROWS * sizeof(int64_t) + (1 + nmv) * TAIL_ROWS  /* wtab, */
                 + 2 * nrows * WINDOW_BLOCKS * sizeof(int64_t);               /* at its peak */
    }
    if (T >= 2) { /* buckets_init's */
        uint64_t bcap = BUCKETS_BYTES / (T * T * sizeof(uint64_t));
        if (bcap < 2 * BUCKETS_PER_WORD)
            bcap = 2 * BUCKETS_PER_WORD;
        bytes += T * T * bcap * sizeof(uint64_t) + T * (T + 8) * sizeof(uint64_t *) +
                 T * 8 * sizeof(int64_t);
    }
    bytes += T * (uint64_t)cap * sizeof(uint64_t) + T * sizeof(uint64_t *);   /* remote */
    bytes += T * 8 * sizeof(int64_t) + 2 * (2 * T + 2) * sizeof(struct resume);
    return bytes;
}

void bfs_slice_close(struct bfs_slice *x)
{
    if (!x)
        return;
    tables_free(&x->tb);
    free(x->flags_mem);
    free(x->sl.rmem);
    free(x->sl.rput);
    free(x->sl.next);
    free(x->sl.saved);
    free(x->sl.todo);
    free(x);
}

int bfs_slice_open(struct bfs_slice **out, const struct space *s, struct store *st,
                   uint64_t lo, int remote, const struct bfs_options *o, size_t cap,
                   int fresh, slide_error *err)
{
    uint64_t unit = bfs_slice_unit(s), hi = lo + st->size;
    *out = NULL;
    if (lo % unit || hi > s->size || (hi % unit && hi != s->size))
        return slide_fail(err, SLIDE_EINVAL, "a slice [%llu, %llu) of a space of %llu boards "
                          "must start and end at multiples of %llu",
                          (unsigned long long)lo, (unsigned long long)hi,
                          (unsigned long long)s->size, (unsigned long long)unit);
    struct bfs_slice *x = calloc(1, sizeof *x);
    if (!x)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the slice");
    x->s = s;
    x->o = *o;
    x->threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    if (tables_init(&x->tb, s, x->threads, o, err)) {
        free(x);
        return SLIDE_ENOMEM;
    }
    struct slice *sl = &x->sl;
    sl->lo = lo;
    sl->hi = hi;
    sl->wlo = lo / STORE_ENTRIES_PER_WORD;
    sl->whi = (hi + STORE_ENTRIES_PER_WORD - 1) / STORE_ENTRIES_PER_WORD;
    sl->ch_lo = sl->wlo / CHUNK_WORDS;
    sl->ch_end = hi == lo ? sl->ch_lo : (sl->whi + CHUNK_WORDS - 1) / CHUNK_WORDS;
    sl->remote = remote;
    sl->queue = o->queue || sl->whi - sl->wlo > PREFETCH_MIN_WORDS;
    /* the multi-tile metric: up to rows - 1 vertical jumps per entry leave
     * the slice (its horizontal ones never do, and it never goes backward) */
    sl->per_word = SLICE_PER_WORD;
    if (x->tb.mtm && (size_t)(s->rows - 1) * STORE_ENTRIES_PER_WORD > sl->per_word)
        sl->per_word = (size_t)(s->rows - 1) * STORE_ENTRIES_PER_WORD;
    sl->cap = cap < 2 * sl->per_word ? 2 * sl->per_word : cap;
    sl->check_words = slice_check_words(sl->cap, sl->per_word);
    sl->margin = (size_t)sl->check_words * sl->per_word;
    sl->cap_saved = 2 * x->threads + 2;
    size_t nch = (size_t)(sl->ch_end - sl->ch_lo);
    x->flags_mem = malloc(nch ? nch : 1);
    sl->next = aligned_alloc(64, (size_t)x->threads * 8 * sizeof *sl->next);
    sl->saved = malloc((size_t)sl->cap_saved * sizeof *sl->saved);
    sl->todo = malloc((size_t)sl->cap_saved * sizeof *sl->todo);
    if (remote) {
        sl->rmem = malloc((size_t)x->threads * sl->cap * sizeof *sl->rmem);
        sl->rput = malloc((size_t)x->threads * sizeof *sl->rput);
    }
    if (!x->flags_mem || !sl->next || !sl->saved || !sl->todo ||
        (remote && (!sl->rmem || !sl->rput))) {
        bfs_slice_close(x);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the slice's buffers");
    }
    /* a fresh search: only the goal's chunk holds frontier (colour 0); a
     * resumed one knows nothing (flags_alloc) */
    memset(x->flags_mem, fresh ? FLAG_UNVISITED(0) | FLAG_UNVISITED(1) : FLAG_ALL, nch ? nch : 1);
    uint64_t goal = (uint64_t)s->goal_blank;
    if (fresh && goal >= lo && goal < hi)
        x->flags_mem[(goal >> CHUNK_SHIFT) - sl->ch_lo] |= FLAG_FRONTIER(0);
    /* views by global numbers: integer arithmetic, so no pointer is ever
     * formed outside its object; only numbers in the slice are used */
    x->flags = (uint8_t *)((uintptr_t)x->flags_mem - (uintptr_t)sl->ch_lo);
    x->view.words = (uint64_t *)((uintptr_t)st->words - (uintptr_t)(sl->wlo * sizeof(uint64_t)));
    x->view.size = hi;
    x->view.nwords = sl->whi;
    bfs_slice_clear(x);
    *out = x;
    return SLIDE_OK;
}

int bfs_slice_threads(const struct bfs_slice *x)
{
    return x->threads;
}

uint64_t *bfs_slice_remote(struct bfs_slice *x, int t, size_t *n)
{
    const struct slice *sl = &x->sl;
    if (!sl->remote) {
        *n = 0;
        return NULL;
    }
    uint64_t *base = sl->rmem + (size_t)t * sl->cap;
    *n = (size_t)(sl->rput[t] - base);
    return base;
}

void bfs_slice_clear(struct bfs_slice *x)
{
    struct slice *sl = &x->sl;
    for (int t = 0; sl->remote && t < x->threads; t++)
        sl->rput[t] = sl->rmem + (size_t)t * sl->cap;
}

int bfs_slice_layer(struct bfs_slice *x, const struct bfs_result *r, uint64_t *boards)
{
    int d = r->radius, back = !x->o.no_backward && !x->tb.mtm && bfs_backward_pays(x->s, r, d);
    uint64_t b = back ? unvisited_next(x->s, r, d) : r->hist[d];
    x->colour = d & 1;
    x->bit = (unsigned)(d / 2) & 1u;
    x->kind = back ? PASS_BACKWARD : PASS_FORWARD;
    x->windows = !x->tb.mtm && windows_pay(x->s, &x->tb.wt, &x->o, b);
    x->started = 0;
    x->found = 0;
    *boards = b;
    return back;
}

int bfs_slice_scan(struct bfs_slice *x)
{
    struct slice *sl = &x->sl;
    if (sl->hi == sl->lo)
        return 1;
    if (!x->started) { /* a pass begins: the counters at the slice's first stripe */
        x->mark_flag = pass_mark_flag(x->flags, sl->ch_lo, sl->ch_end, x->kind, x->colour,
                                      x->windows);
        unsigned T = (unsigned)x->threads;
        for (unsigned o = 0; o < T; o++) {
            uint64_t len = (64u * (o + 1) + T - 1) / T - (64u * o + T - 1) / T;
            sl->next[o * 8] = (int64_t)(sl->ch_lo / 64 * len);
        }
        sl->nsaved = 0;
        x->started = 1;
    }
    /* what the last stop left unfinished is done first (team_scan) */
    struct resume *t = sl->todo;
    sl->todo = sl->saved;
    sl->saved = t;
    sl->ntodo = sl->nsaved;
    sl->nsaved = 0;
    sl->todo_next = 0;
    sl->stop = 0;
    x->found += run_pass(x->s, &x->tb, &x->view, x->flags, x->threads, x->kind, x->colour,
                         x->bit, x->mark_flag, x->windows, sl, &x->res);
    for (int k = sl->todo_next; k < sl->ntodo; k++) /* not taken: still to do */
        sl->saved[sl->nsaved++] = sl->todo[k];
    return !sl->stop;
}

/* Mark the n indexes e of a slice (targets waiting as indexes), n read
 * ahead as an apply phase's are. */
static uint64_t slice_mark_list(uint64_t *words, uint8_t *flags, uint8_t bit,
                                const uint64_t *e, size_t n, int mtm)
{
    uint64_t found = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + APPLY_AHEAD < n)
            __builtin_prefetch(&words[e[i + APPLY_AHEAD] >> 5], 1, 0);
        if (mtm) { /* the multi-tile metric marks 01 (bfs_marking.h) */
            uint64_t now = mark_target_mtm(words, 2 * e[i], found);
            if (now != found && bit)
                flag_set(flags, e[i] >> CHUNK_SHIFT, bit);
            found = now;
            continue;
        }
        found = bit ? mark_target_flag(words, flags, bit, 2 * e[i], found)
                    : mark_target(words, 2 * e[i], found);
    }
    return found;
}

/* Where thread k of T starts in the increasing e[0..n): at a chunk's first
 * index, so no two threads write one word or one chunk's flag. */
static size_t slice_split(const uint64_t *e, size_t n, int k, int T)
{
    if (k <= 0)
        return 0;
    if (k >= T)
        return n;
    size_t i = (size_t)((unsigned __int128)n * (unsigned)k / (unsigned)T);
    while (i > 0 && i < n && e[i] >> CHUNK_SHIFT == e[i - 1] >> CHUNK_SHIFT)
        i++;
    return i;
}

void bfs_slice_mark(struct bfs_slice *x, const uint64_t *e, size_t n, int sorted)
{
    uint64_t found = 0, *words = x->view.words;
    uint8_t *flags = x->flags, bit = x->mark_flag;
    int T = sorted && n >= 4096 ? x->threads : 1;
    if (T == 1) {
        x->found += slice_mark_list(words, flags, bit, e, n, x->tb.mtm);
        return;
    }
#pragma omp parallel num_threads(T) reduction(+ : found)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        size_t a = slice_split(e, n, me, team), b = slice_split(e, n, me + 1, team);
        found += slice_mark_list(words, flags, bit, e + a, b > a ? b - a : 0, x->tb.mtm);
    }
    x->found += found;
}

void bfs_slice_answer(const struct bfs_slice *x, const uint64_t *e, size_t n, uint8_t *bits)
{
    for (size_t i = 0; i < n; i++)
        if (store_get(&x->view, e[i]) == STORE_FRONTIER)
            bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

uint64_t bfs_slice_finish(struct bfs_slice *x, uint64_t first[BFS_KEEP], int *nfirst)
{
    struct slice *sl = &x->sl;
    /* every slice has had its answers and targets: close (the multi-tile
     * metric: every layer, its next layer's 01 -> 10) */
    if (x->kind == PASS_BACKWARD || x->tb.mtm) {
        x->kind = PASS_CLOSE;
        x->started = 0;
        bfs_slice_scan(x);
    }
    *nfirst = sl->hi == sl->lo ? 0
                               : layer_first(&x->view, x->flags, FLAG_FRONTIER(1 - x->colour),
                                             sl->ch_lo, sl->wlo, first);
    return x->found;
}
