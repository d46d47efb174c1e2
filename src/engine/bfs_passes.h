/*
 * bfs_passes.h - one parallel pass of the two-bit BFS (bfs_kernel.h) over
 * the chunks of a store or of a slice: which chunks the flags say matter,
 * the threads and teams that take them (buckets.h), the apply phases of a
 * forward pass, and the stop and resumption of a slice's pass for room in
 * its remote buffers.  Internal to the kernel.
 */
#ifndef SLIDE_ENGINE_BFS_PASSES_H
#define SLIDE_ENGINE_BFS_PASSES_H

#include "bfs_scan.h"

enum pass { PASS_FORWARD, PASS_BACKWARD, PASS_CLOSE };

/* The flag a chunk needs for a pass to have anything to do in it (mtm:
 * the multi-tile metric, whose close pass turns the next layer's entries,
 * flagged as frontier of the other colour, into frontier). */
static uint8_t pass_needs(enum pass kind, int colour, int mtm)
{
    if (mtm && kind == PASS_CLOSE)
        return FLAG_FRONTIER(1 - colour);
    return kind == PASS_BACKWARD ? FLAG_UNVISITED(1 - colour)
                                 : FLAG_FRONTIER(colour);
}

/* One pass over the words [lo, hi) of a chunk; returns 1 if the chunk still
 * needs the pass's flag afterwards. */
static int pass_chunk(struct worker *w, struct store *st, enum pass kind,
                      int colour, unsigned depth_bit, uint64_t lo, uint64_t hi)
{
    int keep = 0;
    if (kind == PASS_FORWARD) {
        if (w->mtm)
            forward_words_mtm(w, st, lo, hi);
        else
            forward_words(w, st, colour, depth_bit, lo, hi);
        return 0;
    }
    /* words with nothing for the pass are skipped here, without a call
     * (next_word): late layers have few unvisited boards left, and a close
     * pass few frontier ones in most words */
    const uint64_t *words = st->words;
    if (kind == PASS_BACKWARD && w->rbase) {
        /* a slice with others: its queries need room (as forward_words_c) */
        unsigned until = 1;
        for (uint64_t wi = lo; next_word(words, &wi, hi, 1); wi++) {
            if (--until == 0) {
                if (slice_short(w, w->rput)) {
                    w->stop_wi = wi;
                    return 1;
                }
                until = w->check_words;
            }
            keep |= backward_word_remote(w, st, wi, 1 - colour);
        }
    } else if (kind == PASS_BACKWARD) {
        for (uint64_t wi = lo; next_word(words, &wi, hi, 1); wi++)
            keep |= backward_word(w, st, wi, 1 - colour);
    } else if (w->mtm) { /* the next layer's 01 -> 10: the chunk keeps its flag */
        for (uint64_t wi = lo; next_word_new(words, &wi, hi); wi++)
            close_word_mtm(st, wi);
        keep = 1;
    } else {
        for (uint64_t wi = lo; next_word(words, &wi, hi, 0); wi++)
            close_word(w, st, wi, colour, depth_bit);
    }
    /* forward and close passes leave no frontier of this colour behind */
    return keep;
}

/* A chunk's flags no longer need what `need` stands for (the thread that
 * processed the chunk, alone writing its flag byte in this phase). */
static inline void flag_clear(uint8_t *flags, int64_t ch, uint8_t need)
{
    uint8_t f = __atomic_load_n(&flags[ch], __ATOMIC_RELAXED);
    __atomic_store_n(&flags[ch], (uint8_t)(f & ~need), __ATOMIC_RELAXED);
}

/* A chunk that a stopped pass of a slice left unfinished, from word wi on
 * (struct slice: at most two per thread, so saved has room). */
static void slice_save(struct worker *w, uint64_t ch, uint64_t wi)
{
    struct slice *sl = w->sl;
    int k = __atomic_fetch_add(&sl->nsaved, 1, __ATOMIC_RELAXED);
    sl->saved[k] = (struct resume){ch, wi};
}

/* Words [from, end) of chunk ch of a pass (from: the chunk's first word,
 * or the slice's, or where a stopped pass left it); its flag is cleared
 * when the pass leaves nothing in it that the flag stands for.  A backward
 * pass resumed in the middle of a chunk does not know what its first part
 * left, so it keeps the flag (flags are only ever conservative). */
static inline void pass_words(struct worker *w, struct store *st, uint8_t *flags,
                              enum pass kind, int colour, unsigned depth_bit,
                              uint8_t need, uint64_t ch, uint64_t from)
{
    uint64_t end = ch * CHUNK_WORDS + CHUNK_WORDS;
    int keep = pass_chunk(w, st, kind, colour, depth_bit, from,
                          end < st->nwords ? end : st->nwords);
    if (w->stop_wi != NO_STOP) { /* a slice's pass, stopped for room */
        slice_save(w, ch, w->stop_wi);
        w->stop_wi = NO_STOP;
        return;
    }
    if (!keep && (kind != PASS_BACKWARD || from <= ch * CHUNK_WORDS || from == w->wlo))
        flag_clear(flags, (int64_t)ch, need);
}

/* One chunk of a pass, if its flags say the pass has work there. */
static inline void pass_one(struct worker *w, struct store *st, uint8_t *flags,
                            enum pass kind, int colour, unsigned depth_bit,
                            uint8_t need, int64_t ch)
{
    if (!(__atomic_load_n(&flags[ch], __ATOMIC_RELAXED) & need))
        return;
    uint64_t lo = (uint64_t)ch * CHUNK_WORDS;
    pass_words(w, st, flags, kind, colour, depth_bit, need, (uint64_t)ch,
               lo > w->wlo ? lo : w->wlo);
}

/* Whether a slice's pass is stopping (struct slice); never in bfs_run. */
static inline int slice_stopping(const struct worker *w)
{
    return w->sl && __atomic_load_n(&w->sl->stop, __ATOMIC_RELAXED);
}

/* Scan the chunks of thread o of a team of T not yet taken (buckets_chunk),
 * two at a time from o's counter (one locked add per two chunks, not per
 * board); a forward pass joins apply phases when asked for.  Returns when
 * all are taken. */
static void team_take(struct worker *w, struct store *st, uint8_t *flags,
                      enum pass kind, int colour, unsigned depth_bit, uint8_t need,
                      uint64_t nchunks, unsigned o, unsigned T)
{
    struct buckets *bk = w->bk;
    for (;;) {
        if (kind == PASS_FORWARD && __atomic_load_n(&bk->apply, __ATOMIC_RELAXED))
            worker_apply(w, st);
        if (slice_stopping(w))
            return;
        uint64_t j = (uint64_t)__atomic_fetch_add(&w->next[o * 8], 2, __ATOMIC_RELAXED);
        for (uint64_t i = j; i < j + 2; i++) {
            uint64_t ch = buckets_chunk(i, o, T);
            if (ch >= nchunks)
                return;
            if (ch < w->ch_lo) /* a slice's: chunks before it in its first stripe */
                continue;
            if (slice_stopping(w)) /* taken, not begun: the pass goes on with it */
                slice_save(w, ch, ch * CHUNK_WORDS > w->wlo ? ch * CHUNK_WORDS : w->wlo);
            else
                pass_one(w, st, flags, kind, colour, depth_bit, need, (int64_t)ch);
        }
    }
}

/*
 * The chunks of a pass of a team of T > 1 threads: this thread's own
 * (buckets_owner) in increasing order first, then the others' not yet
 * taken, every chunk once.  So most words a thread scans and writes are
 * those it marks in the apply phases and scans in the next passes, still
 * in its core's caches; from one shared counter, neighbouring chunks went
 * to either thread.  3x4 with 2 threads: 1.82 s against 1.88 s for the
 * forward passes (best of 3, alternated), and 1.72 s against 1.79 s for
 * the backward and close passes too.
 */
static void team_scan(struct worker *w, struct store *st, uint8_t *flags,
                      enum pass kind, int colour, unsigned depth_bit, uint8_t need,
                      uint64_t nchunks, int T)
{
    if (w->sl) { /* a slice's pass: what it left unfinished when it stopped first */
        struct slice *sl = w->sl;
        while (!slice_stopping(w)) {
            if (kind == PASS_FORWARD && __atomic_load_n(&w->bk->apply, __ATOMIC_RELAXED))
                worker_apply(w, st);
            int k = __atomic_fetch_add(&sl->todo_next, 1, __ATOMIC_RELAXED);
            if (k >= sl->ntodo)
                break;
            pass_words(w, st, flags, kind, colour, depth_bit, need, sl->todo[k].ch,
                       sl->todo[k].wi);
        }
    }
    for (int k = 0; k < T; k++)
        team_take(w, st, flags, kind, colour, depth_bit, need, nchunks,
                  (unsigned)((w->me + k) % T), (unsigned)T);
}

/* The scan of a forward pass of a team of more than one thread (buckets.h):
 * team_scan, apply phases when asked for, and a last one when every thread
 * has scanned its last chunk. */
static void forward_team(struct worker *w, struct store *st, uint8_t *flags,
                         int colour, unsigned depth_bit, uint8_t need,
                         int64_t nchunks, int T)
{
    struct buckets *bk = w->bk;
    team_scan(w, st, flags, PASS_FORWARD, colour, depth_bit, need, (uint64_t)nchunks, T);
    __atomic_fetch_add(&bk->finished, 1, __ATOMIC_RELAXED);
    /* a thread that asks for an apply phase has not finished: so while
     * some thread scans, the finished ones see the request */
    for (;;) {
        if (__atomic_load_n(&bk->apply, __ATOMIC_RELAXED))
            worker_apply(w, st);
        else if (__atomic_load_n(&bk->finished, __ATOMIC_RELAXED) == w->team)
            break;
        else
            sched_yield();
    }
    worker_apply(w, st);
}

/* A worker of run_pass on a slice (thread me). */
static void slice_worker(struct worker *w, struct slice *sl, int me)
{
    w->wlo = sl->wlo;
    w->ch_lo = sl->ch_lo;
    w->next = sl->next;
    w->queue = sl->queue;
    if (!sl->remote)
        return;
    w->lo2 = 2 * sl->lo;
    w->span2 = 2 * (sl->hi - sl->lo);
    w->rbase = sl->rmem + (size_t)me * sl->cap;
    w->rput = sl->rput[me];
    w->check_words = sl->check_words;
    unsigned bw = w->mtm ? w->mtm_words : w->bk->words;
    if (w->team > 1 && bw < w->check_words) /* the buckets' check too */
        w->check_words = bw;
}

/* The flag a pass's marks set on their chunks: the next colour's
 * frontier, or none (0) in a dense forward layer, whose chunks [ch0,
 * nchunks) are all flagged here instead of at every mark. */
static uint8_t pass_mark_flag(uint8_t *flags, uint64_t ch0, uint64_t nchunks, enum pass kind,
                              int colour, int windows)
{
    uint8_t mark_flag = FLAG_FRONTIER(1 - colour);
    if (windows && kind == PASS_FORWARD) {
        /* a dense layer marks boards in nearly every chunk: flag them all
         * now rather than at every mark (mark_flag 0: no flag per mark) */
        for (uint64_t ch = ch0; ch < nchunks; ch++)
            flags[ch] |= mark_flag;
        mark_flag = 0;
    }
    return mark_flag;
}

/*
 * One parallel pass over the flagged chunks; returns the boards newly
 * marked.  No store of a pass is locked: a backward or close pass writes
 * only the words it scans (and their chunks' flags), and a forward pass of
 * several threads sends its targets outside the word it scans to their
 * chunks' owners (buckets.h).  mark_flag: pass_mark_flag's.  sl: NULL, or
 * the slice of the distributed search whose pass this is (from where it
 * stopped; st and flags its views, struct slice).
 */
static uint64_t run_pass(const struct space *s, struct tables *tb,
                         struct store *st, uint8_t *flags, int threads,
                         enum pass kind, int colour, unsigned depth_bit,
                         uint8_t mark_flag, int windows, struct slice *sl,
                         struct bfs_result *r)
{
    uint64_t found = 0;
    int64_t nchunks = (int64_t)((st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint8_t need = pass_needs(kind, colour, tb->mtm);
    struct buckets *bk = &tb->bk;
    for (int o = 0; !sl && bk->next && o < bk->threads; o++) /* none for one thread */
        bk->next[o * 8] = 0;
    bk->finished = 0;
    bk->apply = 0;
    int used = threads;
#pragma omp parallel num_threads(threads) reduction(+ : found)
    {
        struct window win;
        uint64_t pend_mtm[BATCH + PUSH_MAX_MTM]; /* not initialised: no cost */
        window_init(&win, &tb->wt);
        /* OpenMP may give fewer threads than asked, never more */
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        int buckets = kind == PASS_FORWARD && team > 1;
        if (me == 0)
            used = team;
        struct worker w = {.s = s, .mk = &tb->mk, .tail = &tb->tail, .h = UINT64_MAX,
                           .zq = tb->mk.zq, .zr = tb->mk.zr, .need = tb->mk.need,
                           .lex_shift = s->kind == SPACE_COMPACT && s->m >= 2,
                           .tail_rows = tb->tail.k == TAIL_MAX ? tb->tail.rows : 0,
                           .vt = &tb->vt, .wt = &tb->wt, .win = &win,
                           .flags = flags,
                           .mark_flag = mark_flag,
                           .windows = windows,
                           .me = me, .team = buckets ? team : 1,
                           .queue = tb->queue || st->nwords > PREFETCH_MIN_WORDS,
                           .bk = bk,
                           .bput = buckets ? bk->put + (size_t)me * bk->stride : NULL,
                           .next = bk->next, .sl = sl, .stop_wi = NO_STOP,
                           .mtm = tb->mtm, .mtm_words = tb->mtm_words,
                           .pend_mtm = pend_mtm};
        if (sl)
            slice_worker(&w, sl, me);
        /* a slice's chunks are scheduled for the threads asked for,
         * whatever OpenMP gives (every thread goes through every
         * counter): a stopped pass goes on with the same counters */
        int T = sl ? threads : team;
        if (buckets) {
            forward_team(&w, st, flags, colour, depth_bit, need, nchunks, T);
        } else if (team > 1 || sl) { /* a backward or close pass: no buckets */
            team_scan(&w, st, flags, kind, colour, depth_bit, need, (uint64_t)nchunks, T);
        } else {
#pragma omp for schedule(dynamic, 2)
            for (int64_t ch = 0; ch < nchunks; ch++)
                pass_one(&w, st, flags, kind, colour, depth_bit, need, ch);
        }
        if (w.mtm)
            worker_flush_mtm(&w, st);
        else
            worker_flush(&w, st);
        if (sl && sl->remote)
            sl->rput[me] = w.rput;
        found += w.found;
    }
    r->threads = used;
    return found;
}

#endif
