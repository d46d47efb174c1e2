/*
 * bfs.c - the layered two-bit BFS (bfs.h).
 *
 * Each layer is one parallel pass over the store's words.  A thread keeps
 * the tile sequence t and Lehmer digits of the last block it decoded
 * (worker.base) and advances it to nearby blocks by mixed-radix addition
 * on the digits instead of unranking, because frontier entries are met in increasing index order
 * within a chunk.  Horizontal neighbours are e +- 1; vertical ones are found
 * by updating the C Lehmer digits a vertical move changes (delta_up/down),
 * then prefetched in batches before the atomic marks.
 *
 * A byte of flags per chunk of the store says which chunks may hold
 * frontier entries of each colour and unvisited entries of each colour;
 * a pass skips the chunks that cannot matter to it.  The first and last
 * few dozen layers of a big board touch a tiny share of the chunks, and
 * without the flags each of them would still read the whole store (about
 * 4 s per layer for the 10.9 GB of 2x7).  Flags are only ever conservative
 * (set when in doubt, cleared by the thread that just processed the chunk),
 * so the result cannot depend on them.
 */
#include "slide/bfs.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Words per chunk, the unit of scheduling and of the flags: 4 KiB of store,
 * 16384 entries, so the flags of a 10.9 GB store (2.7 MB) stay in cache. */
#define CHUNK_WORDS 512
#define CHUNK_SHIFT 14 /* log2 of the entries per chunk */
/* Chunk flag bits: may hold frontier / unvisited entries of colour c. */
#define FLAG_FRONTIER(c) ((uint8_t)(1u << (c)))
#define FLAG_UNVISITED(c) ((uint8_t)(4u << (c)))
#define FLAG_ALL ((uint8_t)0xf)
/* Neighbour indexes prefetched before they are marked (memory-level
 * parallelism: a locked fetch_and waits for its cache miss, a prefetch
 * does not, so the misses of a whole batch overlap). */
#define BATCH 64
/* Positions at the end of t whose arrangements are tabulated (struct tail). */
#define TAIL_MAX 5
#define TAIL_ROWS 120 /* TAIL_MAX! */
/* Lex ranks to advance incrementally before unranking from scratch. */
#define MAX_JUMP 5040

static const int64_t fact[SPACE_MAX_CELLS] = {
    1LL, 1LL, 2LL, 6LL, 24LL, 120LL, 720LL, 5040LL, 40320LL, 362880LL,
    3628800LL, 39916800LL, 479001600LL, 6227020800LL, 87178291200LL,
    1307674368000LL, 20922789888000LL, 355687428096000LL,
    6402373705728000LL, 121645100408832000LL};

/* A board of the block being expanded: tiles, Lehmer digits, lex rank. */
struct perm {
    uint8_t t[SPACE_MAX_CELLS];
    uint8_t d[SPACE_MAX_CELLS];
    uint64_t lex;
    unsigned dsum; /* sum of the digits: its parity is the permutation's */
};

/*
 * Per-word masks by phase = (index of the word's first entry) mod n: bit 2k
 * set when entry k of such a word has colour 0 / has a left / a right
 * neighbour.  They let a word's horizontal moves be done with shifts.
 */
struct masks {
    uint64_t colour0[SPACE_MAX_CELLS];
    uint64_t left[SPACE_MAX_CELLS];
    uint64_t right[SPACE_MAX_CELLS];
};

static void masks_init(struct masks *mk, const struct space *s)
{
    memset(mk, 0, sizeof *mk);
    for (int p = 0; p < s->n; p++)
        for (int k = 0; k < STORE_ENTRIES_PER_WORD; k++) {
            int z = (p + k) % s->n, col = z % s->cols;
            uint64_t bit = 1ULL << (2 * k);
            if (s->colour[z] == 0)
                mk->colour0[p] |= bit;
            if (col > 0)
                mk->left[p] |= bit;
            if (col < s->cols - 1)
                mk->right[p] |= bit;
        }
}

struct worker {
    const struct space *s;
    const struct masks *mk;
    const struct tail *tail;
    int have;                       /* base holds block h */
    uint64_t h;
    struct perm base;               /* lexicographically first t of block h */
    struct perm other;              /* compact: base with the last two swapped */
    int other_ok;                   /* other is up to date */
    int base_parity;
    uint8_t tail_set[TAIL_MAX];     /* tiles of base's tail, increasing */
    unsigned tail_r;                /* base.lex mod tail->rows */
    uint8_t *flags;                 /* chunk flags (one byte per chunk) */
    uint8_t mark_flag;              /* flag set on a chunk gaining frontier */
    uint64_t pending[BATCH];        /* neighbours prefetched, not yet marked */
    int npending;
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

/* Set every digit and tile of p from its lex rank (digits by mixed radix). */
static void perm_unrank(struct perm *p, int m)
{
    rank_unlex(p->lex, m, p->t);
    uint32_t later = 0;
    p->dsum = 0;
    for (int i = m - 1; i >= 0; i--) {
        unsigned v = p->t[i];
        p->d[i] = (uint8_t)__builtin_popcount(later & ((1u << v) - 1u));
        p->dsum += p->d[i];
        later |= 1u << v;
    }
}

/*
 * Advance p by `diff` lex ranks: add diff to the mixed-radix number of the
 * digits (radix m - i at position i), then rebuild the tiles from the first
 * changed position on, choosing from the tiles that were already there.
 * Nearby ranks differ only in the last few digits, so this costs far less
 * than unranking from scratch.  Precondition: p->lex + diff < m!.
 */
static void perm_advance(struct perm *p, uint64_t diff, int m)
{
    int i = m - 2; /* the last digit has radix 1: it is always 0 */
    uint64_t carry = diff;
    while (carry) {
        uint64_t radix = (uint64_t)(m - i), total = p->d[i] + carry, digit;
        /* nearby ranks carry little: avoid the slow division when we can */
        if (total < radix) {
            digit = total;
            carry = 0;
        } else if (total < 2 * radix) {
            digit = total - radix;
            carry = 1;
        } else {
            digit = total % radix;
            carry = total / radix;
        }
        p->dsum = p->dsum - p->d[i] + (unsigned)digit;
        p->d[i] = (uint8_t)digit;
        i--;
    }
    int from = i + 1 < m ? i + 1 : m;
    uint32_t avail = 0;
    for (int k = from; k < m; k++)
        avail |= 1u << p->t[k];
    for (int k = from; k < m; k++) {
        uint32_t x = avail;
        for (unsigned j = 0; j < p->d[k]; j++)
            x &= x - 1; /* skip the d smallest remaining tiles */
        unsigned v = (unsigned)__builtin_ctz(x);
        avail &= ~(1u << v);
        p->t[k] = (uint8_t)v;
    }
    p->lex += diff;
}

/*
 * The last TAIL_MAX positions of t in lex order: lex mod k! is the rank of
 * their arrangement among the k tiles there, so moving between ranks with
 * the same higher digits only permutes those k tiles.  Row r of the table
 * gives, for each of the k positions, which of the k tiles (in increasing
 * order) goes there and its Lehmer digit.  A dense layer moves between
 * nearby blocks nearly every time, so most moves become k table reads
 * instead of a mixed-radix carry and a rebuild.
 */
struct tail {
    int k;                           /* tail length, 0: table not used */
    unsigned rows;                   /* k! */
    uint8_t pick[TAIL_ROWS][TAIL_MAX];
    uint8_t digit[TAIL_ROWS][TAIL_MAX];
    uint8_t dsum[TAIL_ROWS];
};

static void tail_init(struct tail *tl, int m)
{
    memset(tl, 0, sizeof *tl);
    if (m < 3)
        return; /* too short to matter */
    tl->k = m < TAIL_MAX ? m : TAIL_MAX;
    tl->rows = (unsigned)fact[tl->k];
    for (unsigned r = 0; r < tl->rows; r++) {
        struct perm p = {.lex = r};
        perm_unrank(&p, tl->k);
        for (int j = 0; j < tl->k; j++) {
            tl->pick[r][j] = p.t[j];
            tl->digit[r][j] = p.d[j];
        }
        tl->dsum[r] = (uint8_t)p.dsum;
    }
}

/* Everything a pass reads besides the store, built once per search. */
struct tables {
    struct masks mk;
    struct tail tail;
};

/* Re-read the tail of w->base after a move that was not by the table. */
static void tail_load(struct worker *w)
{
    const struct tail *tl = w->tail;
    int b = w->s->m - tl->k;
    uint32_t set = 0;
    for (int j = b; j < w->s->m; j++)
        set |= 1u << w->base.t[j];
    for (int j = 0; j < tl->k; j++) {
        w->tail_set[j] = (uint8_t)__builtin_ctz(set);
        set &= set - 1;
    }
    w->tail_r = (unsigned)(w->base.lex % tl->rows);
}

/* Move w->base forward by diff lex ranks within its tail: the caller has
 * checked that tail_r + diff < rows. */
static inline void tail_move(struct worker *w, uint64_t diff)
{
    const struct tail *tl = w->tail;
    unsigned r = w->tail_r + (unsigned)diff;
    int b = w->s->m - tl->k;
    for (int j = 0; j < tl->k; j++) {
        w->base.t[b + j] = w->tail_set[tl->pick[r][j]];
        w->base.d[b + j] = tl->digit[r][j];
    }
    w->base.dsum = w->base.dsum - tl->dsum[w->tail_r] + tl->dsum[r];
    w->base.lex += diff;
    w->tail_r = r;
}

/* Make w->base the t of block h (lexicographically smaller of the pair). */
static void worker_move(struct worker *w, uint64_t h)
{
    const struct space *s = w->s;
    int m = s->m, compact = s->kind == SPACE_COMPACT && m >= 2;
    uint64_t lex = compact ? 2 * h : h;
    if (w->have && h > w->h && w->tail->k &&
        lex - w->base.lex < w->tail->rows - w->tail_r) {
        tail_move(w, lex - w->base.lex);
    } else {
        if (w->have && h > w->h && lex - w->base.lex <= MAX_JUMP) {
            perm_advance(&w->base, lex - w->base.lex, m);
        } else {
            w->base.lex = lex;
            perm_unrank(&w->base, m);
        }
        if (w->tail->k)
            tail_load(w);
    }
    w->base_parity = (int)(w->base.dsum & 1u);
    w->other_ok = 0;
    w->h = h;
    w->have = 1;
}

static inline void worker_seek(struct worker *w, uint64_t h)
{
    if (!w->have || h != w->h)
        worker_move(w, h);
}

/* The board (t, digits) of entry (h, z): in the compact space t's parity is
 * fixed by z, which picks one of the pair. */
static const struct perm *worker_perm(struct worker *w, uint64_t h, int z)
{
    const struct space *s = w->s;
    int m = s->m;
    worker_seek(w, h);
    if (s->kind == SPACE_FULL || m < 2 || s->need_parity[z] == w->base_parity)
        return &w->base;
    if (!w->other_ok) {
        w->other = w->base;
        w->other.t[m - 2] = w->base.t[m - 1];
        w->other.t[m - 1] = w->base.t[m - 2];
        w->other.d[m - 2] = 1;
        w->other.lex = w->base.lex + 1;
        w->other_ok = 1;
    }
    return &w->other;
}

/*
 * Lex-rank change when the blank moves down from z: t[z..z+c-1] rotates
 * right (t[z+c-1] = x comes first).  Only those c Lehmer digits change:
 * x gains the smaller tiles it passed, each passed tile loses x if x < it.
 */
static inline __attribute__((always_inline)) int64_t delta_down(const struct perm *p, int z, int c, int m)
{
    int x = p->t[z + c - 1], less = 0;
    int64_t delta = 0;
#pragma GCC unroll 8
    for (int j = 1; j < c; j++) {
        int y = p->t[z + j - 1];
        less += y < x;
        delta += ((int64_t)p->d[z + j - 1] - (x < y) - p->d[z + j]) * fact[m - 1 - (z + j)];
    }
    delta += ((int64_t)p->d[z + c - 1] + less - p->d[z]) * fact[m - 1 - z];
    return delta;
}

/* The inverse rotation: the blank moves up from z, t[z-c] = x goes last. */
static inline __attribute__((always_inline)) int64_t delta_up(const struct perm *p, int z, int c, int m)
{
    int x = p->t[z - c], less = 0;
    int64_t delta = 0;
#pragma GCC unroll 8
    for (int j = 0; j < c - 1; j++) {
        int y = p->t[z - c + j + 1];
        less += y < x;
        delta += ((int64_t)p->d[z - c + j + 1] + (x < y) - p->d[z - c + j]) *
                 fact[m - 1 - (z - c + j)];
    }
    delta += ((int64_t)p->d[z - c] - less - p->d[z - 1]) * fact[m - 1 - (z - 1)];
    return delta;
}

/* Index of the board with lex rank lex and blank z'. */
static inline uint64_t index_of(const struct space *s, uint64_t lex, int z)
{
    uint64_t block = s->kind == SPACE_COMPACT && s->m >= 2 ? lex >> 1 : lex;
    return block * (uint64_t)s->n + (uint64_t)z;
}

/* Neighbours of entry e = (h, z) with board p, by O(C) rank updates.
 * Inlined per column count so the short rotation loops unroll. */
static inline __attribute__((always_inline)) int
neighbours_c(const struct space *s, const struct perm *p, int z, uint64_t e,
             uint64_t out[MOVE_COUNT], const int c)
{
    int k = 0, col = z % c;
    if (col > 0)
        out[k++] = e - 1;
    if (col < c - 1)
        out[k++] = e + 1;
    if (z >= c)
        out[k++] = index_of(s, (uint64_t)((int64_t)p->lex + delta_up(p, z, c, s->m)), z - c);
    if (z + c < s->n)
        out[k++] = index_of(s, (uint64_t)((int64_t)p->lex + delta_down(p, z, c, s->m)), z + c);
    return k;
}

static int neighbours(const struct space *s, const struct perm *p, int z,
                      uint64_t e, uint64_t out[MOVE_COUNT])
{
    switch (s->cols) {
    case 2: return neighbours_c(s, p, z, e, out, 2);
    case 3: return neighbours_c(s, p, z, e, out, 3);
    case 4: return neighbours_c(s, p, z, e, out, 4);
    case 5: return neighbours_c(s, p, z, e, out, 5);
    case 6: return neighbours_c(s, p, z, e, out, 6);
    case 7: return neighbours_c(s, p, z, e, out, 7);
    default: return neighbours_c(s, p, z, e, out, s->cols);
    }
}

/* Say that chunk ch may now hold what `bit` stands for.  Checked first so
 * that a chunk's flag byte, once set, is only read (no cache-line writes). */
static inline void flag_set(uint8_t *flags, uint64_t ch, uint8_t bit)
{
    if (!(__atomic_load_n(&flags[ch], __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(&flags[ch], bit, __ATOMIC_RELAXED);
}

static void worker_flush(struct worker *w, struct store *st)
{
    for (int i = 0; i < w->npending; i++)
        if (store_mark(st, w->pending[i])) {
            flag_set(w->flags, w->pending[i] >> CHUNK_SHIFT, w->mark_flag);
            w->found++;
            keep_first(w->first, &w->nfirst, w->pending[i]);
        }
    w->npending = 0;
}

static void worker_push(struct worker *w, struct store *st, uint64_t e)
{
    __builtin_prefetch(&st->words[e >> 5], 1, 0);
    w->pending[w->npending++] = e;
    if (w->npending == BATCH)
        worker_flush(w, st);
}

/* Block and blank cell of the first entry of word wi. */
static inline void locate(const struct space *s, uint64_t wi, uint64_t *h, int *z)
{
    uint64_t e = wi * STORE_ENTRIES_PER_WORD;
    *h = e / (uint64_t)s->n;
    *z = (int)(e - *h * (uint64_t)s->n);
}

/* Entry k of a word whose first entry is (h0, z0). */
static inline void offset(const struct space *s, uint64_t h0, int z0, int k,
                          uint64_t *h, int *z)
{
    int zz = z0 + k;
    uint64_t hh = h0;
    while (zz >= s->n) {
        zz -= s->n;
        hh++;
    }
    *h = hh;
    *z = zz;
}

/*
 * The board for a vertical move from z whose rotated segment ends at t
 * position `last`: in the compact space the pair (base, other) differs only
 * in the last two tiles, so when the segment stays clear of them both give
 * neighbours in the same block, and base serves for either.
 */
static inline const struct perm *perm_for(struct worker *w, uint64_t h, int z,
                                          int last)
{
    if (last < w->s->m - 2)
        return &w->base;
    return worker_perm(w, h, z);
}

/* Vertical neighbours of the frontier entries in fm (colour already
 * filtered), pushed for marking; inlined per column count c. */
static inline __attribute__((always_inline)) void
vertical_c(struct worker *w, struct store *st, uint64_t fm, uint64_t h0, int z0,
           const int c)
{
    const struct space *s = w->s;
    int m = s->m;
    while (fm) {
        int b = __builtin_ctzll(fm), z;
        uint64_t h;
        fm &= fm - 1;
        offset(s, h0, z0, b / 2, &h, &z);
        worker_seek(w, h);
        if (z >= c) {
            const struct perm *p = perm_for(w, h, z, z - 1);
            worker_push(w, st, index_of(s, (uint64_t)((int64_t)p->lex + delta_up(p, z, c, m)), z - c));
        }
        if (z + c < s->n) {
            const struct perm *p = perm_for(w, h, z, z + c - 1);
            worker_push(w, st, index_of(s, (uint64_t)((int64_t)p->lex + delta_down(p, z, c, m)), z + c));
        }
    }
}

static void forward_vertical(struct worker *w, struct store *st, uint64_t fm,
                             uint64_t h0, int z0)
{
    switch (w->s->cols) {
    case 1: vertical_c(w, st, fm, h0, z0, 1); break;
    case 2: vertical_c(w, st, fm, h0, z0, 2); break;
    case 3: vertical_c(w, st, fm, h0, z0, 3); break;
    case 4: vertical_c(w, st, fm, h0, z0, 4); break;
    case 5: vertical_c(w, st, fm, h0, z0, 5); break;
    case 6: vertical_c(w, st, fm, h0, z0, 6); break;
    case 7: vertical_c(w, st, fm, h0, z0, 7); break;
    default: vertical_c(w, st, fm, h0, z0, w->s->cols); break;
    }
}

/*
 * Horizontal moves inside word wi done on the whole word: targets are the
 * frontier entries shifted one entry left/right; those still unvisited
 * become frontier in the same compare-and-swap that closes the frontier
 * (flip).  Targets across the word boundary go through worker_push.
 */
static void forward_horizontal(struct worker *w, struct store *st, uint64_t wi,
                               uint64_t fm, int phase, uint64_t flip)
{
    const struct masks *mk = w->mk;
    uint64_t lm = fm & mk->left[phase], rm = fm & mk->right[phase];
    uint64_t tgt = (lm >> 2) | (rm << 2);
    uint64_t e0 = wi * STORE_ENTRIES_PER_WORD;
    if (lm & 1)
        worker_push(w, st, e0 - 1);
    if (rm >> 62)
        worker_push(w, st, e0 + STORE_ENTRIES_PER_WORD);
    uint64_t *p = &st->words[wi], old = __atomic_load_n(p, __ATOMIC_RELAXED), hit, nw;
    do {
        hit = tgt & old & (old >> 1); /* targets that are 11 */
        nw = (old ^ flip) & ~hit;
    } while (!__atomic_compare_exchange_n(p, &old, nw, 1, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    w->found += (uint64_t)__builtin_popcountll(hit);
    if (hit)
        flag_set(w->flags, e0 >> CHUNK_SHIFT, w->mark_flag);
    while (hit) {
        uint64_t e = e0 + (uint64_t)(__builtin_ctzll(hit) / 2);
        if (w->nfirst == BFS_KEEP && e >= w->first[BFS_KEEP - 1])
            break; /* hits ascend: the rest are larger too */
        keep_first(w->first, &w->nfirst, e);
        hit &= hit - 1;
    }
}

/* Forward expansion of one word: mark neighbours, close frontier entries. */
static void forward_word(struct worker *w, struct store *st, uint64_t wi,
                         int colour, unsigned depth_bit)
{
    const struct space *s = w->s;
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS; /* entries == 10 */
    uint64_t h0;
    int z0;
    if (!fm)
        return;
    locate(s, wi, &h0, &z0);
    /* frontier entries of the other colour belong to the next layer */
    uint64_t c0 = w->mk->colour0[z0];
    fm &= colour ? ~c0 : c0;
    if (!fm)
        return;
    forward_vertical(w, st, fm, h0, z0);
    /* 10 -> 0b: xor with 10 (bit 0) or 11 (bit 1) */
    uint64_t flip = (fm << 1) | (depth_bit ? fm : 0);
    forward_horizontal(w, st, wi, fm, z0, flip);
}

/* Backward step of one word: unvisited entries with a frontier neighbour.
 * Returns 1 if unvisited entries of `colour` remain in the word. */
static int backward_word(struct worker *w, struct store *st, uint64_t wi,
                         int colour)
{
    const struct space *s = w->s;
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t um = word & (word >> 1) & STORE_LOW_BITS; /* entries == 11 */
    uint64_t clear = 0, h0;
    int z0;
    if (!um)
        return 0;
    locate(s, wi, &h0, &z0);
    uint64_t c0 = w->mk->colour0[z0];
    um &= colour ? ~c0 : c0;
    if (!um)
        return 0;
    uint64_t remain = um;
    uint64_t nb[STORE_ENTRIES_PER_WORD][MOVE_COUNT];
    int cnt[STORE_ENTRIES_PER_WORD], bits[STORE_ENTRIES_PER_WORD], n = 0;
    while (um) {
        int b = __builtin_ctzll(um), z;
        uint64_t h, e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        um &= um - 1;
        if (e >= st->size)
            break;
        offset(s, h0, z0, b / 2, &h, &z);
        cnt[n] = neighbours(s, worker_perm(w, h, z), z, e, nb[n]);
        for (int i = 0; i < cnt[n]; i++)
            __builtin_prefetch(&st->words[nb[n][i] >> 5], 0, 0);
        bits[n++] = b;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < cnt[j]; i++)
            if (store_get(st, nb[j][i]) == STORE_FRONTIER) {
                uint64_t e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(bits[j] / 2);
                clear |= 1ULL << bits[j]; /* 11 -> 10 */
                w->found++;
                keep_first(w->first, &w->nfirst, e);
                break;
            }
    if (clear) {
        __atomic_fetch_and(&st->words[wi], ~clear, __ATOMIC_RELAXED);
        flag_set(w->flags, (wi * STORE_ENTRIES_PER_WORD) >> CHUNK_SHIFT,
                 FLAG_FRONTIER(colour));
    }
    return (remain & ~clear) != 0;
}

/* Close every frontier entry of one colour (second pass of a backward step). */
static void close_word(const struct space *s, struct store *st, uint64_t wi,
                       int colour, unsigned depth_bit)
{
    uint64_t word = __atomic_load_n(&st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS;
    uint64_t flip = 0, h0, h;
    int z0, z;
    if (!fm)
        return;
    locate(s, wi, &h0, &z0);
    while (fm) {
        int b = __builtin_ctzll(fm);
        fm &= fm - 1;
        offset(s, h0, z0, b / 2, &h, &z);
        if (s->colour[z] == colour)
            flip |= (uint64_t)(2u | depth_bit) << b;
    }
    if (flip)
        __atomic_fetch_xor(&st->words[wi], flip, __ATOMIC_RELAXED);
}

enum pass { PASS_FORWARD, PASS_BACKWARD, PASS_CLOSE };

/* The flag a chunk needs for a pass to have anything to do in it. */
static uint8_t pass_needs(enum pass kind, int colour)
{
    return kind == PASS_BACKWARD ? FLAG_UNVISITED(1 - colour)
                                 : FLAG_FRONTIER(colour);
}

/* One pass over the words [lo, hi) of a chunk; returns 1 if the chunk still
 * needs the pass's flag afterwards. */
static int pass_chunk(struct worker *w, struct store *st, enum pass kind,
                      int colour, unsigned depth_bit, uint64_t lo, uint64_t hi)
{
    int keep = 0;
    for (uint64_t wi = lo; wi < hi; wi++) {
        if (kind == PASS_FORWARD)
            forward_word(w, st, wi, colour, depth_bit);
        else if (kind == PASS_BACKWARD)
            keep |= backward_word(w, st, wi, 1 - colour);
        else
            close_word(w->s, st, wi, colour, depth_bit);
    }
    /* forward and close passes leave no frontier of this colour behind */
    return keep;
}

/* One parallel pass over the flagged chunks; returns the boards newly
 * marked. */
static uint64_t run_pass(const struct space *s, const struct tables *tb,
                         struct store *st, uint8_t *flags, int threads,
                         enum pass kind, int colour, unsigned depth_bit,
                         struct bfs_result *r)
{
    uint64_t found = 0;
    int64_t nchunks = (int64_t)((st->nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint64_t first[BFS_KEEP] = {0};
    int nfirst = 0;
    uint8_t need = pass_needs(kind, colour);
#pragma omp parallel num_threads(threads) reduction(+ : found)
    {
        struct worker w = {.s = s, .mk = &tb->mk, .tail = &tb->tail, .flags = flags,
                           .mark_flag = FLAG_FRONTIER(1 - colour)};
#pragma omp for schedule(dynamic, 2)
        for (int64_t ch = 0; ch < nchunks; ch++) {
            if (!(__atomic_load_n(&flags[ch], __ATOMIC_RELAXED) & need))
                continue;
            uint64_t lo = (uint64_t)ch * CHUNK_WORDS;
            uint64_t hi = lo + CHUNK_WORDS < st->nwords ? lo + CHUNK_WORDS : st->nwords;
            if (!pass_chunk(&w, st, kind, colour, depth_bit, lo, hi))
                __atomic_fetch_and(&flags[ch], (uint8_t)~need, __ATOMIC_RELAXED);
        }
        worker_flush(&w, st);
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

static int bfs_layers(const struct space *s, struct store *st, uint8_t *flags,
                      const struct bfs_options *o, struct bfs_result *r,
                      slide_error *err)
{
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    double start = omp_get_wtime() - r->seconds;
    struct tables tb;
    masks_init(&tb.mk, s);
    tail_init(&tb.tail, s->m);
    r->threads = threads;
    while (!r->complete) {
        int d = r->radius, colour = d & 1;
        unsigned bit = (unsigned)(d / 2) & 1u;
        double t0 = omp_get_wtime();
        int back = want_backward(s, o, r, d);
        uint64_t found;
        if (back) {
            found = run_pass(s, &tb, st, flags, threads, PASS_BACKWARD, colour, bit, r);
            run_pass(s, &tb, st, flags, threads, PASS_CLOSE, colour, bit, r);
        } else {
            found = run_pass(s, &tb, st, flags, threads, PASS_FORWARD, colour, bit, r);
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
    return bfs_loop(s, st, o, r, 0, err);
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
