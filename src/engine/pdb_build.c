/*
 * pdb_build.c - the layered search that builds a pattern database
 * (pdb_build.h).
 */
#include "slide/pdb_build.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slide/store.h"

/* Entry values of the build (not those of bfs.c).  The current and next
 * layers swap encodings every layer (cur_code), so the next layer found by
 * one pass is the current layer of the following pass without a pass to
 * rename it. */
enum { S_CLOSED = 0, S_UNSEEN = 3 };

static inline unsigned cur_code(int d)
{
    return d % 2 == 0 ? 1u : 2u;
}

/* Words per unit of parallel work. */
#define CHUNK_WORDS 4096


const char *pdb_kind_name(enum pdb_kind kind)
{
    return kind == PDB_ADDITIVE ? "additive" : kind == PDB_MTM ? "mtm" : "plain";
}

int pdb_kind_parse(const char *name)
{
    if (strcmp(name, "additive") == 0)
        return PDB_ADDITIVE;
    if (strcmp(name, "plain") == 0)
        return PDB_PLAIN;
    if (strcmp(name, "mtm") == 0)
        return PDB_MTM;
    return -1;
}

uint64_t pdb_entries(const struct pattern *pat, enum pdb_kind kind)
{
    return kind == PDB_ADDITIVE ? pat->placements : pat->placements * (uint64_t)pat->nfree;
}

uint64_t pdb_build_bytes(const struct pattern *pat, enum pdb_kind kind)
{
    return store_bytes_needed(pat->placements * (uint64_t)pat->nfree) +
           pdb_entries(pat, kind);
}

/* ---- a placement's block of f entries -------------------------------- */

/* The 2f bits of entries [e, e + f) (f <= 29, so they fit one word). */
static inline uint64_t block_bits(const struct store *st, uint64_t e, int f)
{
    uint64_t w = e >> 5;
    unsigned sh = (unsigned)(e & 31) * 2, nb = 2u * (unsigned)f;
    uint64_t x = __atomic_load_n(&st->words[w], __ATOMIC_RELAXED) >> sh;
    if (sh + nb > 64)
        x |= __atomic_load_n(&st->words[w + 1], __ATOMIC_RELAXED) << (64 - sh);
    return x & ((1ULL << nb) - 1);
}

/* Flip the bits `bits` (2f bits) of entries [e, e + f); atomic per word,
 * since the words are shared with neighbouring placements. */
static inline void block_xor(struct store *st, uint64_t e, int f, uint64_t bits)
{
    uint64_t w = e >> 5;
    unsigned sh = (unsigned)(e & 31) * 2, nb = 2u * (unsigned)f;
    if (bits << sh)
        __atomic_fetch_xor(&st->words[w], bits << sh, __ATOMIC_RELAXED);
    if (sh + nb > 64 && (bits >> (64 - sh)))
        __atomic_fetch_xor(&st->words[w + 1], bits >> (64 - sh), __ATOMIC_RELAXED);
}

/* Entries (bit 2j for entry j) holding value v, within x. */
static inline uint64_t entries_equal(uint64_t x, unsigned v)
{
    uint64_t y = x ^ (STORE_LOW_BITS * (uint64_t)(3u - v));
    return y & (y >> 1) & STORE_LOW_BITS;
}

/* Clear the bits `bits` (within 2f bits) of entries [e, e + f): fetch_and,
 * since other threads update other entries of the same words. */
static inline void block_clear(struct store *st, uint64_t e, int f, uint64_t bits)
{
    uint64_t w = e >> 5;
    unsigned sh = (unsigned)(e & 31) * 2, nb = 2u * (unsigned)f;
    if (bits << sh)
        __atomic_fetch_and(&st->words[w], ~(bits << sh), __ATOMIC_RELAXED);
    if (sh + nb > 64 && (bits >> (64 - sh)))
        __atomic_fetch_and(&st->words[w + 1], ~(bits >> (64 - sh)), __ATOMIC_RELAXED);
}

/* ---- a layer: one pass ------------------------------------------------- */

struct counts {
    uint64_t states, values;
};

/* Most moves from one placement's states: f blank cells, 4 moves each. */
#define MAX_TARGETS (PATTERN_MAX_CELLS * MOVE_COUNT)

/* A generated state: entry t = q * f + j of placement q with cells occ,
 * the blank in cell `cell` (free rank j). */
struct target {
    uint64_t t;     /* the entry, q * f + j */
    uint32_t occ;
    uint8_t cell, j;
};

/*
 * Additive: the entries (bit 2j for free cell rank j) of the blank's region
 * around free cell c of the placement with cells occ.  The blank moves
 * there at no cost, so the region's states share their cost: they are
 * marked together and a region is always all unseen, all next, all current
 * or all closed.
 */
static uint64_t region_entries(const struct pattern *pat, uint32_t occ, int c)
{
    uint32_t free = ~occ & ((1u << pat->n) - 1u);
    return pattern_free_entries(occ, pattern_region(pat, 1u << c, free));
}

/* Mark target tg next (its region, additive) if it is unseen.  A region is
 * uniform, so testing its one entry tg.t decides for all of them; two
 * threads marking the same region both clear the same bits. */
static inline __attribute__((always_inline)) void mark(struct pdb_run *b, const struct target *tg,
                                                   unsigned next)
{
    uint64_t t = tg->t, e = t - tg->j;
    unsigned sh = (unsigned)(t & 31) * 2;
    if (((__atomic_load_n(&b->st.words[t >> 5], __ATOMIC_RELAXED) >> sh) & 3u) != S_UNSEEN)
        return;
    uint64_t bits = b->kind == PDB_ADDITIVE ? region_entries(&b->pat, tg->occ, tg->cell)
                                            : 1ULL << (2 * tg->j);
    /* 11 -> next: clear the bit that next lacks */
    block_clear(&b->st, e, b->f, next == 2 ? bits : bits << 1);
}

/*
 * The targets a thread has generated and prefetched but not yet marked, in
 * a ring: a target is marked LOOKAHEAD targets after it was prefetched, so
 * the cache misses of many placements' targets are under way at once
 * instead of those of one placement (a placement with one current region
 * has a few targets, and marking them right away waited for each miss).
 * Marks of one layer commute (each turns unseen entries into next ones and
 * the first writer wins), so marking later changes nothing but the time.
 */
#define RING 256 /* a power of 2, above LOOKAHEAD + MAX_TARGETS */
#define LOOKAHEAD 48
struct ring {
    struct target t[RING];
    unsigned head, tail; /* pending: t[tail % RING .. head % RING) */
};
_Static_assert(RING >= LOOKAHEAD + MAX_TARGETS && (RING & (RING - 1)) == 0,
               "the ring holds a placement's targets beyond the lookahead");

/* Mark the pending targets until at most `keep` remain. */
static void ring_mark(struct pdb_run *b, struct ring *r, unsigned keep, unsigned next)
{
    while (r->head - r->tail > keep)
        mark(b, &r->t[r->tail++ % RING], next);
}

/* The values of placement p's current states (bit 2j for entry j): cost d. */
static void record(struct pdb_run *b, uint64_t p, uint64_t cur, int d, struct counts *c)
{
    uint64_t e = p * (uint64_t)b->f;
    c->states += (uint64_t)__builtin_popcountll(cur);
    if (d > PDB_MAX_VALUE)
        return; /* pdb_build fails on this layer */
    if (b->kind == PDB_ADDITIVE) {
        if (b->value[p] == PDB_NONE) {
            b->value[p] = (uint8_t)d;
            c->values++;
        }
        return;
    }
    c->values += (uint64_t)__builtin_popcountll(cur);
    for (uint64_t m = cur; m; m &= m - 1)
        b->value[e + (uint64_t)(__builtin_ctzll(m) / 2)] = (uint8_t)d;
}

/*
 * The multi-tile moves of placement p (cells pos, occ) with the blank on z:
 * the blank jumps along its row or column to cell c, and every cell between
 * (c included, z excluded) shifts one cell towards z: a pattern tile there
 * moves, a free cell stays free.  The targets go to the ring; those pending
 * are marked down to the lookahead after each blank, so that the ring never
 * holds more than one blank's moves beyond it.
 */
static void mtm_targets(struct pdb_run *b, const uint8_t *pos, const int8_t *at,
                        uint32_t occ, int z, struct ring *r, unsigned next)
{
    const struct pattern *pat = &b->pat;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int dir = 0; dir < 4; dir++) {
        uint8_t np[PATTERN_MAX_TILES];
        memcpy(np, pos, (size_t)pat->k);
        uint32_t nocc = occ;
        int rr = z / pat->cols, cc = z % pat->cols, prev = z;
        for (;;) {
            rr += dr[dir];
            cc += dc[dir];
            if (rr < 0 || rr >= pat->rows || cc < 0 || cc >= pat->cols)
                break;
            int c = rr * pat->cols + cc;
            if (at[c] >= 0) { /* the pattern tile on c shifts to prev */
                np[at[c]] = (uint8_t)prev;
                nocc ^= (1u << c) | (1u << prev);
            }
            struct target *tg = &r->t[r->head++ % RING];
            tg->occ = nocc;
            tg->cell = (uint8_t)c;
            tg->j = (uint8_t)pattern_free_rank(nocc, c);
            tg->t = rank_kperm(np, pat->k, pat->n) * (uint64_t)b->f + tg->j;
            __builtin_prefetch(&b->st.words[tg->t >> 5], 1, 0);
            prev = c;
        }
    }
    ring_mark(b, r, LOOKAHEAD, next);
}

/*
 * Placement p's current states (cost d): record their values, generate
 * their neighbours, mark the unseen ones next (cost d + 1), close them.
 * The targets are found first and prefetched, then marked: the marks are
 * random accesses to a big array, and prefetching them together lets the
 * memory system serve several misses at once.  A target's placement rank
 * is p plus the change of the one moved tile (pattern_move_delta), not a
 * ranking anew.
 */
static void expand(struct pdb_run *b, uint64_t p, uint64_t cur, int d, struct counts *c,
                   struct ring *r)
{
    const struct pattern *pat = &b->pat;
    uint8_t pos[PATTERN_MAX_TILES];
    int8_t at[PATTERN_MAX_CELLS];
    uint32_t before[PATTERN_MAX_TILES], occ = 0;
    uint64_t f = (uint64_t)b->f;
    record(b, p, cur, d, c);
    rank_unkperm(p, pat->k, pat->n, pos);
    memset(at, -1, sizeof at);
    for (int i = 0; i < pat->k; i++) {
        at[pos[i]] = (int8_t)i;
        before[i] = occ;
        occ |= 1u << pos[i];
    }
    uint32_t curcells = pattern_entries_cells(pat, occ, cur); /* the current blanks */
    if (b->kind == PDB_MTM) {
        for (uint32_t zs = curcells; zs; zs &= zs - 1)
            mtm_targets(b, pos, at, occ, __builtin_ctz(zs), r, 3u - cur_code(d));
        block_xor(&b->st, p * f, b->f, cur_code(d) == 1 ? cur : cur << 1);
        return;
    }
    for (int i = 0; i < pat->k; i++) { /* tile i slides from c into blank cell z */
        int c = pos[i];
        for (uint32_t nb = pat->nbr[c] & curcells; nb; nb &= nb - 1) {
            int z = __builtin_ctz(nb);
            struct target *tg = &r->t[r->head++ % RING];
            uint64_t q = p + (uint64_t)pattern_move_delta(pat, at, occ, before[i], i, c, z);
            tg->occ = occ ^ (1u << c) ^ (1u << z);
            tg->cell = (uint8_t)c;
            tg->j = (uint8_t)pattern_free_rank(tg->occ, c);
            tg->t = q * f + tg->j;
            __builtin_prefetch(&b->st.words[tg->t >> 5], 1, 0);
        }
    }
    if (b->kind == PDB_PLAIN) /* the blank moves to a free cell at cost 1 */
        for (uint32_t zs = curcells; zs; zs &= zs - 1)
            for (uint32_t nb = pat->nbr[__builtin_ctz(zs)] & ~occ; nb; nb &= nb - 1) {
                struct target *tg = &r->t[r->head++ % RING];
                tg->t = p * f;
                tg->occ = occ;
                tg->cell = (uint8_t)__builtin_ctz(nb);
                tg->j = (uint8_t)pattern_free_rank(occ, tg->cell);
                tg->t += tg->j;
            }
    ring_mark(b, r, LOOKAHEAD, 3u - cur_code(d));
    /* close: cur -> 00 */
    block_xor(&b->st, p * f, b->f, cur_code(d) == 1 ? cur : cur << 1);
}

/*
 * Layer d: visit, in parallel, every placement whose block holds a current
 * entry and expand it.  A placement belongs to the chunk holding its first
 * entry, so one thread writes its values.
 */
static void scan(struct pdb_run *b, int d, struct counts *total)
{
    const uint64_t *words = b->st.words;
    const unsigned which = cur_code(d);
    int64_t nchunks = (int64_t)((b->st.nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint64_t f = (uint64_t)b->f, states = 0, values = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(b->threads) \
    reduction(+ : states, values)
    for (int64_t ch = 0; ch < nchunks; ch++) {
        struct counts c = {0, 0};
        struct ring r;
        r.head = r.tail = 0;
        uint64_t e0 = (uint64_t)ch * CHUNK_WORDS * 32, e1 = e0 + CHUNK_WORDS * 32ULL;
        uint64_t p = (e0 + f - 1) / f, p_end = (e1 + f - 1) / f;
        if (p_end > b->placements)
            p_end = b->placements;
        uint64_t w_last = p_end > p ? (p_end * f - 1) >> 5 : 0;
        while (p < p_end) {
            uint64_t w = p * f >> 5;
            if (!entries_equal(__atomic_load_n(&words[w], __ATOMIC_RELAXED), which)) {
                /* skip words without a current entry, then go to the block
                 * holding the first entry of the next word that has one */
                do
                    w++;
                while (w <= w_last &&
                       !entries_equal(__atomic_load_n(&words[w], __ATOMIC_RELAXED), which));
                if (w > w_last)
                    break;
                uint64_t q = (w * 32) / f;
                if (q > p)
                    p = q;
            }
            uint64_t hit = entries_equal(block_bits(&b->st, p * f, b->f), which);
            if (hit)
                expand(b, p, hit, d, &c, &r);
            p++;
        }
        ring_mark(b, &r, 0, 3u - which);
        states += c.states;
        values += c.values;
    }
    total->states = states;
    total->values = values;
}

/* ---- the search ------------------------------------------------------------ */

/*
 * The goal's states at cost 0, current for layer 0: the goal placement with
 * the blank on the goal's blank cell and, for an additive table, on every
 * free cell the blank reaches from there without moving a pattern tile
 * (those moves are free, so the whole region costs 0).  A free cell of
 * another region is walled off by pattern tiles: reaching the goal from it
 * takes pattern moves, so seeding it too would make values too low.
 */
static void seed_goal(struct pdb_run *b)
{
    const struct pattern *pat = &b->pat;
    uint64_t p = rank_kperm(pat->goal_pos, pat->k, pat->n), e = p * (uint64_t)b->f;
    uint32_t occ = pattern_occupied(pat, pat->goal_pos);
    uint64_t bits = b->kind == PDB_ADDITIVE /* bit 2j for entry j */
                        ? region_entries(pat, occ, pat->goal_blank)
                        : 1ULL << (2 * pattern_free_rank(occ, pat->goal_blank));
    block_clear(&b->st, e, b->f, cur_code(0) == 1 ? bits << 1 : bits); /* 11 -> cur */
}

int pdb_run_alloc(const struct pattern *pat, enum pdb_kind kind,
                  const struct pdb_build_options *o, struct pdb_run *b, slide_error *err)
{
    char what[160];
    memset(b, 0, sizeof *b);
    b->pat = *pat;
    b->kind = kind;
    b->placements = pat->placements;
    b->f = pat->nfree;
    b->threads = o && o->threads > 0 ? o->threads : omp_get_max_threads();
    snprintf(what, sizeof what, "the %s pattern database of %d tiles on %dx%d (%llu "
             "states at 2 bits, %llu one-byte entries)", pdb_kind_name(kind), pat->k,
             pat->rows, pat->cols, (unsigned long long)(pat->placements * (uint64_t)b->f),
             (unsigned long long)pdb_entries(pat, kind));
    int rc = store_check_memory(pdb_build_bytes(pat, kind), o ? o->max_memory : 0, what,
                                err);
    if (rc)
        return rc;
    if ((rc = store_alloc(&b->st, pat->placements * (uint64_t)b->f, err)) != SLIDE_OK)
        return rc;
    uint64_t entries = pdb_entries(pat, kind);
    b->value = malloc(entries ? entries : 1);
    if (!b->value) {
        store_free(&b->st);
        return slide_fail(err, SLIDE_ENOMEM, "cannot allocate %llu bytes for the table",
                          (unsigned long long)entries);
    }
#pragma omp parallel for schedule(static) num_threads(b->threads)
    for (int64_t i = 0; i < (int64_t)entries; i++)
        b->value[i] = PDB_NONE;
    return SLIDE_OK;
}

int pdb_run_start(const struct pattern *pat, enum pdb_kind kind,
                  const struct pdb_build_options *o, struct pdb_run *run, slide_error *err)
{
    int rc = pdb_run_alloc(pat, kind, o, run, err);
    if (rc == SLIDE_OK)
        seed_goal(run);
    return rc;
}

int pdb_run_layer(struct pdb_run *run, const struct pdb_build_options *o, int *done,
                  slide_error *err)
{
    struct counts c;
    double t0 = omp_get_wtime();
    *done = 0;
    scan(run, run->depth, &c);
    if (c.states == 0) {
        *done = 1;
        return SLIDE_OK;
    }
    if (run->depth > PDB_MAX_VALUE)
        return slide_fail(err, SLIDE_ERANGE, "pattern database values exceed %d",
                          PDB_MAX_VALUE);
    double now = omp_get_wtime();
    run->cumulative += c.values;
    run->elapsed += now - t0;
    if (o && o->on_layer) {
        struct pdb_layer l = {run->depth, c.states, c.values, run->cumulative,
                              pdb_entries(&run->pat, run->kind), now - t0, run->elapsed};
        o->on_layer(&l, o->ctx);
    }
    run->depth++;
    return SLIDE_OK;
}

int pdb_run_check(const struct pdb_run *run, slide_error *err)
{
    uint64_t entries = pdb_entries(&run->pat, run->kind), set = 0, next = 0;
    int max = -1;
    const unsigned nc = 3u - cur_code(run->depth);
#pragma omp parallel for schedule(static) num_threads(run->threads) \
    reduction(+ : set) reduction(max : max)
    for (int64_t e = 0; e < (int64_t)entries; e++)
        if (run->value[e] != PDB_NONE) {
            set++;
            max = run->value[e] > max ? run->value[e] : max;
        }
#pragma omp parallel for schedule(static) num_threads(run->threads) reduction(+ : next)
    for (int64_t w = 0; w < (int64_t)run->st.nwords; w++)
        next += (uint64_t)__builtin_popcountll(entries_equal(run->st.words[w], nc));
    if (set != run->cumulative)
        return slide_fail(err, SLIDE_EFORMAT, "%llu entries hold a value, not the %llu "
                          "counted", (unsigned long long)set,
                          (unsigned long long)run->cumulative);
    if (max >= run->depth)
        return slide_fail(err, SLIDE_EFORMAT, "an entry holds value %d, not below the "
                          "depth %d", max, run->depth);
    if (next)
        return slide_fail(err, SLIDE_EFORMAT, "%llu states are marked for the layer after "
                          "depth %d, which is not expanded yet", (unsigned long long)next,
                          run->depth);
    return SLIDE_OK;
}

void pdb_run_finish(struct pdb_run *run, struct pdb_table *t)
{
    memset(t, 0, sizeof *t);
    t->pat = run->pat;
    t->kind = run->kind;
    t->entries = pdb_entries(&run->pat, run->kind);
    t->value = run->value;
    run->value = NULL;
    pdb_table_count(t);
    pdb_run_free(run);
}

void pdb_run_free(struct pdb_run *run)
{
    store_free(&run->st);
    free(run->value);
    run->value = NULL;
}

int pdb_build(const struct pattern *pat, enum pdb_kind kind,
              const struct pdb_build_options *o, struct pdb_table *t, slide_error *err)
{
    struct pdb_run run;
    memset(t, 0, sizeof *t);
    int rc = pdb_run_start(pat, kind, o, &run, err), done = 0;
    while (rc == SLIDE_OK && !done)
        rc = pdb_run_layer(&run, o, &done, err);
    if (rc) {
        pdb_run_free(&run);
        return rc;
    }
    pdb_run_finish(&run, t);
    return SLIDE_OK;
}

void pdb_table_count(struct pdb_table *t)
{
    memset(t->hist, 0, sizeof t->hist);
    for (uint64_t e = 0; e < t->entries; e++)
        t->hist[t->value[e]]++;
    t->max = 0;
    for (int v = 0; v <= PDB_MAX_VALUE; v++)
        if (t->hist[v])
            t->max = v;
    t->reachable = t->entries - t->hist[PDB_NONE];
}

void pdb_table_free(struct pdb_table *t)
{
    free(t->value);
    memset(t, 0, sizeof *t);
}
