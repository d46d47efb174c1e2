/*
 * bfs_scan.h - one pass of the two-bit BFS (bfs_kernel.h) over the words
 * [lo, hi) of a chunk: forward (the frontier of one colour marks its
 * unvisited neighbours and is closed), backward (unvisited entries of one
 * colour look for a frontier neighbour) or close (the old frontier of one
 * colour is closed).  Words without work are skipped by a loop of their own
 * (next_word); a word's first entry comes from word_first.  Internal to the
 * kernel.
 */
#ifndef SLIDE_ENGINE_BFS_SCAN_H
#define SLIDE_ENGINE_BFS_SCAN_H

#include "bfs_moves.h"

/*
 * Block and blank cell of the first entry of word wi, e = 32 wi:
 * e / n = 2e / 2n by a multiply-high with mk->ninv = ceil(2^64 / 2n) (2n,
 * not n, so that it fits 64 bits for n = 1 too).  Exact for 2e < 2^64 / 2n
 * (Granlund and Montgomery, "Division by invariant integers using
 * multiplication", PLDI 1994: the error 2e (ninv - 2^64 / 2n) / 2^64 is
 * below 2e / 2^64 < 1 / 2n, too small to reach the next multiple of
 * 1 / 2n); indexes stay below 2^46 (16! / 2 boards), so that holds.
 * Without a division, a pass can skip empty words without stepping (h0, z0)
 * word by word.
 */
static inline void word_first(const struct masks *mk, uint64_t n, uint64_t wi,
                              uint64_t *h, int *z)
{
    uint64_t e = wi * STORE_ENTRIES_PER_WORD;
    uint64_t q = (uint64_t)(((unsigned __int128)(2 * e) * mk->ninv) >> 64);
    *h = q;
    *z = (int)(e - q * n);
}

/* The unvisited entries (11, unvisited 1) or the frontier ones (10,
 * unvisited 0) of the first word at or after *wi, below hi, that has some,
 * that word in *wi; 0 when there is none.  A loop of its own, so that the
 * words without (about half of those a dense forward layer reads, most of
 * a backward or close pass's) cost a handful of instructions each. */
static inline __attribute__((always_inline)) uint64_t
next_word(const uint64_t *words, uint64_t *wi, uint64_t hi, const int unvisited)
{
    for (uint64_t i = *wi; i < hi; i++) {
        uint64_t word = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
        uint64_t f = (unvisited ? word : ~word) & (word >> 1) & STORE_LOW_BITS;
        if (f) {
            *wi = i;
            return f;
        }
    }
    return 0;
}

/* A slice's scan (remote 1): whether it must stop before its next word
 * run, for room in this thread's remote buffer (r its next entry) or
 * because another thread stopped (struct slice). */
static __attribute__((noinline)) int slice_short(struct worker *w, const uint64_t *r)
{
    struct slice *sl = w->sl;
    if (__atomic_load_n(&sl->stop, __ATOMIC_RELAXED))
        return 1;
    if ((size_t)(r - w->rbase) + sl->margin <= sl->cap)
        return 0;
    __atomic_store_n(&sl->stop, 1, __ATOMIC_RELAXED);
    return 1;
}

/* Forward expansion of the words [lo, hi): mark the neighbours of the
 * frontier entries of `colour`, close those entries.  Inlined per column
 * count c, so the switch on c is made once per chunk.  What every word
 * reads is kept in locals (the pushes store through w and st).  remote 1:
 * targets outside the slice go to the remote buffer, whose room is checked
 * every w->check_words words; when short, the scan stops before word wi
 * (w->stop_wi; every word before it expanded and closed). */
static inline __attribute__((always_inline)) void
forward_words_c(struct worker *w, struct store *st, int colour, unsigned depth_bit,
                uint64_t lo, uint64_t hi, const int c, const int shared, const int pf,
                const int remote)
{
    const struct masks *mk = w->mk;
    uint64_t *words = st->words, n = (uint64_t)w->s->n;
    /* fm & (c0 ^ other): entries of `colour`; fm & deep: the depth bit */
    const uint64_t other = colour ? ~0ULL : 0, deep = depth_bit ? ~0ULL : 0;
    struct pushq np = {.n = w->npending};
    if (shared == 2) {
        np.q0 = w->bput[0];
        np.q1 = w->bput[1];
    }
    if (remote) {
        np.r = w->rput;
        np.lo2 = w->lo2;
        np.span2 = w->span2;
    }
    unsigned until = 1; /* words to expand before the next check for room */
    for (uint64_t wi = lo;; wi++) {
        uint64_t fm = next_word(words, &wi, hi, 0);
        if (!fm)
            break;
        if ((shared || remote) && --until == 0) {
            if (shared == 2) {
                w->bput[0] = np.q0;
                w->bput[1] = np.q1;
            }
            if (shared)
                worker_check(w, st);
            if (shared == 2) {
                np.q0 = w->bput[0];
                np.q1 = w->bput[1];
            }
            if (remote && slice_short(w, np.r)) {
                w->stop_wi = wi;
                break;
            }
            until = remote ? w->check_words : w->bk->words;
        }
        uint64_t h0;
        int z0;
        word_first(mk, n, wi, &h0, &z0);
        /* frontier entries of the other colour belong to the next layer */
        fm &= mk->colour0[z0] ^ other;
        if (!fm)
            continue;
        if (!shared && pf)
            own_room(w, st, &np);
        /* 10 -> 0b: xor with 10 (bit 0) or 11 (bit 1) */
        uint64_t flip = (fm << 1) | (fm & deep);
        forward_horizontal(w, words, wi, fm, z0, flip, &np, shared, pf, remote);
        /* vertical moves last: fewer values stay live across their loops */
        vertical_word_c(w, st, words, wi, fm, h0, z0, n, &np, c, shared, pf, remote);
    }
    w->npending = np.n;
    if (shared == 2) {
        w->bput[0] = np.q0;
        w->bput[1] = np.q1;
    }
    if (remote)
        w->rput = np.r;
}

/* Forward expansion of words [lo, hi) by a thread alone (shared 0), a team
 * of 2 (2) or any team (1), for c columns: all of it inlined, once per
 * case. */
static inline __attribute__((always_inline)) void
forward_words_s(struct worker *w, struct store *st, int colour, unsigned depth_bit,
                uint64_t lo, uint64_t hi, const int shared, const int pf, const int remote)
{
#define FORWARD_C(c) forward_words_c(w, st, colour, depth_bit, lo, hi, c, shared, pf, remote)
    switch (w->s->cols) {
    case 1: FORWARD_C(1); break;
    case 2: FORWARD_C(2); break;
    case 3: FORWARD_C(3); break;
    case 4: FORWARD_C(4); break;
    case 5: FORWARD_C(5); break;
    case 6: FORWARD_C(6); break;
    case 7: FORWARD_C(7); break;
    default: FORWARD_C(w->s->cols); break;
    }
#undef FORWARD_C
}

/* One function per way of marking, each with its own register allocation:
 * in one function, the team of 2 added 1.0 M instructions to a thread
 * alone on 2x5; apart, a thread alone takes 2.5 M fewer than before the
 * team of 2 (133.0 M in the forward passes, callgrind). */
#define FORWARD_WAY(name, shared, pf, remote)                                      \
    static __attribute__((noinline)) void name(struct worker *w, struct store *st,  \
                                               int colour, unsigned depth_bit,      \
                                               uint64_t lo, uint64_t hi)            \
    {                                                                               \
        forward_words_s(w, st, colour, depth_bit, lo, hi, shared, pf, remote);      \
    }
FORWARD_WAY(forward_team2, 2, 0, 0)
FORWARD_WAY(forward_teamn, 1, 0, 0)
FORWARD_WAY(forward_queue, 0, 1, 0)
FORWARD_WAY(forward_now, 0, 0, 0)
/* the same for a slice of the distributed search that has others */
FORWARD_WAY(forward_team2_remote, 2, 0, 1)
FORWARD_WAY(forward_teamn_remote, 1, 0, 1)
FORWARD_WAY(forward_queue_remote, 0, 1, 1)
FORWARD_WAY(forward_now_remote, 0, 0, 1)
#undef FORWARD_WAY

static void forward_words(struct worker *w, struct store *st, int colour,
                          unsigned depth_bit, uint64_t lo, uint64_t hi)
{
    if (w->rbase) { /* a slice with others (w->sl->remote) */
        if (w->team == 2)
            forward_team2_remote(w, st, colour, depth_bit, lo, hi);
        else if (w->team > 1)
            forward_teamn_remote(w, st, colour, depth_bit, lo, hi);
        else if (w->queue)
            forward_queue_remote(w, st, colour, depth_bit, lo, hi);
        else
            forward_now_remote(w, st, colour, depth_bit, lo, hi);
        return;
    }
    if (w->team == 2)
        forward_team2(w, st, colour, depth_bit, lo, hi);
    else if (w->team > 1) /* the team's buckets are not prefetched: pf 0 */
        forward_teamn(w, st, colour, depth_bit, lo, hi);
    else if (w->queue)
        forward_queue(w, st, colour, depth_bit, lo, hi);
    else
        forward_now(w, st, colour, depth_bit, lo, hi);
}

/* Whether e lies outside the worker's slice (never when remote is 0). */
static inline __attribute__((always_inline)) int
outside(const struct worker *w, uint64_t e, const int remote)
{
    return remote && 2 * e - w->lo2 >= w->span2;
}

/* Ask the owner of q whether it is frontier, for the asking entry a of
 * this slice (a backward pass of a slice with others; struct slice). */
static inline void push_query(struct worker *w, uint64_t q, uint64_t a)
{
    w->rput[0] = q;
    w->rput[1] = a;
    w->rput += 2;
}

/* The unvisited entries um (of one colour) of word wi with a frontier
 * neighbour, board by board: every neighbour's index from the board's
 * digits, the targets prefetched before they are read.  remote 1: a
 * neighbour outside the slice is asked about (push_query) when none
 * inside is frontier. */
static inline __attribute__((always_inline)) uint64_t
backward_boards(struct worker *w, const struct store *st, uint64_t wi, uint64_t um,
                uint64_t h0, int z0, const int remote)
{
    const struct space *s = w->s;
    uint64_t nb[STORE_ENTRIES_PER_WORD][MOVE_COUNT], hit = 0;
    int cnt[STORE_ENTRIES_PER_WORD], bits[STORE_ENTRIES_PER_WORD], n = 0;
    while (um) {
        int b = __builtin_ctzll(um), z;
        uint64_t h, e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        um &= um - 1;
        if (e >= st->size)
            break;
        offset(s, h0, z0, b / 2, &h, &z);
        worker_seek(w, h);
        cnt[n] = neighbours(s, w->vt, worker_perm(w, z), z, e, nb[n]);
        for (int i = 0; i < cnt[n]; i++)
            __builtin_prefetch(&st->words[nb[n][i] >> 5], 0, 0);
        bits[n++] = b;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < cnt[j]; i++)
            if (!outside(w, nb[j][i], remote) && store_get(st, nb[j][i]) == STORE_FRONTIER) {
                hit |= 1ULL << bits[j];
                break;
            }
    if (remote)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < cnt[j] && !(hit >> bits[j] & 1); i++)
                if (outside(w, nb[j][i], 1))
                    push_query(w, nb[j][i], wi * STORE_ENTRIES_PER_WORD +
                                                (uint64_t)(bits[j] / 2));
    return hit;
}

/* The same by the window tables, for a word that lies in the worker's
 * window: the neighbours in the same word by the word's masks (fm: its
 * frontier entries), the others by their indexes (the vertical ones by
 * window_target).  A neighbour has the frontier's colour, whose entries no
 * backward pass changes: its word may be stored to by the thread that scans
 * it (for entries of the other colour), but the atomic load sees the
 * neighbour's bits either way. */
static inline __attribute__((always_inline)) uint64_t
backward_window_c(struct worker *w, const struct store *st, uint64_t wi,
                  uint64_t um, uint64_t fm, uint64_t h0, int z0, const int c,
                  const int remote)
{
    const struct masks *mk = w->mk;
    const struct window *wn = w->win;
    const uint8_t *zq = w->zq + z0, *zr = w->zr + z0;
    const uint64_t n = (uint64_t)w->s->n;
    const unsigned off = (unsigned)(h0 - wn->base);
    uint64_t e0 = wi * STORE_ENTRIES_PER_WORD;
    uint64_t hit = um & ((mk->left[z0] & (fm << 2)) | (mk->right[z0] & (fm >> 2)));
    /* the neighbours across the word's ends: e0 - 1 and e0 + 32 */
    if (um & mk->left[z0] & 1 && store_get(st, e0 - 1) == STORE_FRONTIER)
        hit |= 1;
    if (um >> 62 & mk->right[z0] >> 62 && e0 + STORE_ENTRIES_PER_WORD < st->size &&
        store_get(st, e0 + STORE_ENTRIES_PER_WORD) == STORE_FRONTIER)
        hit |= 1ULL << 62;
    uint64_t tgt[2 * STORE_ENTRIES_PER_WORD];
    uint8_t bit[2 * STORE_ENTRIES_PER_WORD];
    int nt = 0;
#pragma GCC unroll 2
    for (int dir = 0; dir < 2; dir++)
        for (uint64_t b = um & ~hit & w->wt->vmask[dir][z0]; b;) {
            unsigned k = (unsigned)__builtin_ctzll(b) >> 1;
            b &= b - 1;
            tgt[nt] = window_target(wn, dir, zr[k], off + zq[k], n, c);
            __builtin_prefetch(&st->words[tgt[nt] >> 5], 0, 0);
            bit[nt++] = (uint8_t)(2 * k);
        }
    for (int i = 0; i < nt; i++)
        if (!outside(w, tgt[i], remote) && store_get(st, tgt[i]) == STORE_FRONTIER)
            hit |= 1ULL << bit[i];
    /* the horizontal neighbours never leave a slice (bfs_slice.h) */
    if (remote)
        for (int i = 0; i < nt; i++)
            if (outside(w, tgt[i], 1) && !(hit >> bit[i] & 1))
                push_query(w, tgt[i], e0 + bit[i] / 2u);
    return hit;
}

static inline __attribute__((always_inline)) uint64_t
backward_window(struct worker *w, const struct store *st, uint64_t wi, uint64_t um,
                uint64_t fm, uint64_t h0, int z0, const int remote)
{
#define BACKWARD_C(c) backward_window_c(w, st, wi, um, fm, h0, z0, c, remote)
    switch (w->s->cols) {
    case 2: return BACKWARD_C(2);
    case 3: return BACKWARD_C(3);
    case 4: return BACKWARD_C(4);
    case 5: return BACKWARD_C(5);
    case 6: return BACKWARD_C(6);
    case 7: return BACKWARD_C(7);
    default: return BACKWARD_C(w->s->cols);
    }
#undef BACKWARD_C
}

/*
 * Backward step of one word: its unvisited entries of `colour` with a
 * frontier neighbour become frontier (11 -> 10).  Only the thread that
 * owns the word writes it in a backward pass, so a plain (relaxed) store
 * does.  Returns 1 if unvisited entries of `colour` remain in the word.
 * remote 1: a slice with others, whose entries ask about their neighbours
 * outside (push_query).
 */
static inline __attribute__((always_inline)) int
backward_word_r(struct worker *w, struct store *st, uint64_t wi, int colour,
                const int remote)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t um = word & (word >> 1) & STORE_LOW_BITS; /* entries == 11 */
    uint64_t h0, hit;
    int z0;
    if (!um)
        return 0;
    word_first(w->mk, (uint64_t)w->s->n, wi, &h0, &z0);
    uint64_t c0 = w->mk->colour0[z0], mine = colour ? ~c0 : c0;
    um &= mine;
    if (!um)
        return 0;
    if (w->windows && window_covers(w, wi, h0, z0)) {
        uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS & ~mine;
        hit = backward_window(w, st, wi, um, fm, h0, z0, remote);
    } else {
        hit = backward_boards(w, st, wi, um, h0, z0, remote);
    }
    if (hit) {
        __atomic_store_n(&st->words[wi], word & ~hit, __ATOMIC_RELAXED);
        flag_set(w->flags, (wi * STORE_ENTRIES_PER_WORD) >> CHUNK_SHIFT,
                 FLAG_FRONTIER(colour));
        w->found += (uint64_t)__builtin_popcountll(hit);
    }
    return (um & ~hit) != 0;
}

/* backward_word_r, not inlined: inlined, it made GCC stop inlining the
 * forward expansion into the pass (14 % more instructions on 2x5). */
static __attribute__((noinline)) int
backward_word(struct worker *w, struct store *st, uint64_t wi, int colour)
{
    return backward_word_r(w, st, wi, colour, 0);
}

static __attribute__((noinline)) int
backward_word_remote(struct worker *w, struct store *st, uint64_t wi, int colour)
{
    return backward_word_r(w, st, wi, colour, 1);
}

/* Close every frontier entry of one colour (second pass of a backward
 * step), the whole word at once by the colour masks. */
static void close_word(const struct worker *w, struct store *st, uint64_t wi,
                       int colour, unsigned depth_bit)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS, h0;
    int z0;
    if (!fm)
        return;
    word_first(w->mk, (uint64_t)w->s->n, wi, &h0, &z0);
    uint64_t c0 = w->mk->colour0[z0];
    fm &= colour ? ~c0 : c0;
    /* 10 -> 0b: xor with 10 (bit 0) or 11 (bit 1); only the thread that
     * owns the word writes it in a close pass */
    if (fm)
        __atomic_store_n(&st->words[wi], word ^ ((fm << 1) | (depth_bit ? fm : 0)),
                         __ATOMIC_RELAXED);
}

/*
 * The multi-tile metric's scans (bfs_moves.h), apart from the single-tile
 * ones above so that those are compiled as before: the forward expansion of
 * words [lo, hi) as forward_words_c (every frontier entry is of the layer:
 * no colour filter; closed entries keep no depth bit), and the close pass.
 */

/* The first word at or after *wi, below hi, with entries of the next layer
 * (01), that word in *wi and its 01 entries' low bits; 0 when none. */
static inline uint64_t next_word_new(const uint64_t *words, uint64_t *wi, uint64_t hi)
{
    for (uint64_t i = *wi; i < hi; i++) {
        uint64_t word = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
        uint64_t f = word & ~(word >> 1) & STORE_LOW_BITS;
        if (f) {
            *wi = i;
            return f;
        }
    }
    return 0;
}

static inline __attribute__((always_inline)) void
forward_words_mtm_c(struct worker *w, struct store *st, uint64_t lo, uint64_t hi, const int c,
                    const int shared, const int pf, const int remote)
{
    const struct masks *mk = w->mk;
    uint64_t *words = st->words, n = (uint64_t)w->s->n;
    struct pushq np = {.n = w->npending};
    if (shared == 2) {
        np.q0 = w->bput[0];
        np.q1 = w->bput[1];
    }
    if (remote) {
        np.r = w->rput;
        np.lo2 = w->lo2;
        np.span2 = w->span2;
    }
    unsigned until = 1; /* words to expand before the next check for room */
    for (uint64_t wi = lo;; wi++) {
        uint64_t fm = next_word(words, &wi, hi, 0);
        if (!fm)
            break;
        if ((shared || remote) && --until == 0) {
            if (shared == 2) {
                w->bput[0] = np.q0;
                w->bput[1] = np.q1;
            }
            if (shared)
                worker_check(w, st);
            if (shared == 2) {
                np.q0 = w->bput[0];
                np.q1 = w->bput[1];
            }
            if (remote && slice_short(w, np.r)) {
                w->stop_wi = wi;
                break;
            }
            until = remote ? w->check_words : w->mtm_words;
        }
        uint64_t h0;
        int z0;
        word_first(mk, n, wi, &h0, &z0);
        if (!shared && pf)
            own_room_mtm(w, st, &np);
        /* 10 -> 00 */
        forward_horizontal_mtm(w, words, wi, fm, z0, fm << 1, &np, c, shared, pf, remote);
        vertical_mtm_c(w, st, fm, h0, z0, &np, c, shared, pf, remote);
    }
    w->npending = np.n;
    if (shared == 2) {
        w->bput[0] = np.q0;
        w->bput[1] = np.q1;
    }
    if (remote)
        w->rput = np.r;
}

#define FORWARD_MTM_WAY(name, shared, pf, remote)                                    \
    static __attribute__((noinline)) void name(struct worker *w, struct store *st,   \
                                               uint64_t lo, uint64_t hi)             \
    {                                                                                \
        switch (w->s->cols) {                                                        \
        case 1: forward_words_mtm_c(w, st, lo, hi, 1, shared, pf, remote); break;    \
        case 2: forward_words_mtm_c(w, st, lo, hi, 2, shared, pf, remote); break;    \
        case 3: forward_words_mtm_c(w, st, lo, hi, 3, shared, pf, remote); break;    \
        case 4: forward_words_mtm_c(w, st, lo, hi, 4, shared, pf, remote); break;    \
        case 5: forward_words_mtm_c(w, st, lo, hi, 5, shared, pf, remote); break;    \
        case 6: forward_words_mtm_c(w, st, lo, hi, 6, shared, pf, remote); break;    \
        default: forward_words_mtm_c(w, st, lo, hi, w->s->cols, shared, pf, remote); \
        }                                                                            \
    }
FORWARD_MTM_WAY(forward_team2_mtm, 2, 0, 0)
FORWARD_MTM_WAY(forward_teamn_mtm, 1, 0, 0)
FORWARD_MTM_WAY(forward_queue_mtm, 0, 1, 0)
FORWARD_MTM_WAY(forward_now_mtm, 0, 0, 0)
FORWARD_MTM_WAY(forward_team2_remote_mtm, 2, 0, 1)
FORWARD_MTM_WAY(forward_teamn_remote_mtm, 1, 0, 1)
FORWARD_MTM_WAY(forward_queue_remote_mtm, 0, 1, 1)
FORWARD_MTM_WAY(forward_now_remote_mtm, 0, 0, 1)
#undef FORWARD_MTM_WAY

/* forward_words in the multi-tile metric. */
static void forward_words_mtm(struct worker *w, struct store *st, uint64_t lo, uint64_t hi)
{
    if (w->rbase) {
        if (w->team == 2)
            forward_team2_remote_mtm(w, st, lo, hi);
        else if (w->team > 1)
            forward_teamn_remote_mtm(w, st, lo, hi);
        else if (w->queue)
            forward_queue_remote_mtm(w, st, lo, hi);
        else
            forward_now_remote_mtm(w, st, lo, hi);
        return;
    }
    if (w->team == 2)
        forward_team2_mtm(w, st, lo, hi);
    else if (w->team > 1)
        forward_teamn_mtm(w, st, lo, hi);
    else if (w->queue)
        forward_queue_mtm(w, st, lo, hi);
    else
        forward_now_mtm(w, st, lo, hi);
}

/* MTM's close pass: after a forward pass has closed the layer's frontier,
 * the next layer's entries (01) become frontier (10), the whole word at
 * once (only the thread that owns the word writes it in a close pass). */
static void close_word_mtm(struct store *st, uint64_t wi)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t nm = word & ~(word >> 1) & STORE_LOW_BITS;
    __atomic_store_n(&st->words[wi], word ^ (nm | nm << 1), __ATOMIC_RELAXED);
}

#endif
