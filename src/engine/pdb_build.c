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

/* Entry values of the build (not those of bfs.c). */
enum { S_CLOSED = 0, S_CUR = 1, S_NEXT = 2, S_UNSEEN = 3 };

/* Words per unit of parallel work. */
#define CHUNK_WORDS 4096

struct build {
    const struct pattern *pat;
    enum pdb_kind kind;
    struct store st;
    uint8_t *value;
    uint64_t placements;
    int f;                 /* entries per placement: nfree */
    int threads;
};

const char *pdb_kind_name(enum pdb_kind kind)
{
    return kind == PDB_ADDITIVE ? "additive" : "plain";
}

int pdb_kind_parse(const char *name)
{
    if (strcmp(name, "additive") == 0)
        return PDB_ADDITIVE;
    if (strcmp(name, "plain") == 0)
        return PDB_PLAIN;
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

/* ---- the two passes of a layer ------------------------------------------ */

struct counts {
    uint64_t states, values;
};

/* Free cells of occ in increasing order into fc (f of them). */
static void free_cells(const struct pattern *pat, uint32_t occ, uint8_t *fc)
{
    uint32_t x = ~occ & ((1u << pat->n) - 1u);
    for (int j = 0; x; x &= x - 1, j++)
        fc[j] = (uint8_t)__builtin_ctz(x);
}

/* Most moves from one placement's states: f blank cells, 4 moves each. */
#define MAX_TARGETS (PATTERN_MAX_CELLS * MOVE_COUNT)

/*
 * Pass 1 for placement p: expand its current states, then close them.  The
 * targets are ranked first and prefetched, then marked: the marks are
 * random accesses to a big array, and prefetching them together lets the
 * memory system serve several misses at once.
 */
static void expand(struct build *b, uint64_t p, uint64_t cur)
{
    const struct pattern *pat = b->pat;
    uint8_t pos[PATTERN_MAX_TILES], fc[PATTERN_MAX_CELLS];
    int8_t at[PATTERN_MAX_CELLS];
    uint64_t target[MAX_TARGETS], f = (uint64_t)b->f;
    int nt = 0;
    rank_unkperm(p, pat->k, pat->n, pos);
    uint32_t occ = pattern_occupied(pat, pos);
    free_cells(pat, occ, fc);
    memset(at, -1, sizeof at);
    for (int i = 0; i < pat->k; i++)
        at[pos[i]] = (int8_t)i;
    for (uint64_t m = cur; m; m &= m - 1) {
        int z = fc[__builtin_ctzll(m) / 2];
        for (uint32_t nb = pat->nbr[z]; nb; nb &= nb - 1) {
            int c = __builtin_ctz(nb), i = at[c];
            uint64_t t;
            if (i < 0) {
                if (b->kind != PDB_PLAIN)
                    continue; /* a free move: the region closure covers it */
                t = p * f + (uint64_t)pattern_free_rank(occ, c);
            } else { /* tile i slides from c into the blank's cell z */
                pos[i] = (uint8_t)z;
                t = rank_kperm(pos, pat->k, pat->n) * f +
                    (uint64_t)pattern_free_rank(occ ^ (1u << c) ^ (1u << z), c);
                pos[i] = (uint8_t)c;
            }
            __builtin_prefetch(&b->st.words[t >> 5], 1, 0);
            target[nt++] = t;
        }
    }
    for (int j = 0; j < nt; j++)
        store_mark(&b->st, target[j]);
    block_xor(&b->st, p * f, b->f, cur); /* 01 -> 00 */
}

/* Additive: the entries (bit 2j) of the blank regions holding next ones. */
static uint64_t grow_regions(const struct build *b, uint64_t p, uint64_t next)
{
    const struct pattern *pat = b->pat;
    uint8_t pos[PATTERN_MAX_TILES], fc[PATTERN_MAX_CELLS];
    rank_unkperm(p, pat->k, pat->n, pos);
    uint32_t occ = pattern_occupied(pat, pos), seed = 0;
    uint32_t free = ~occ & ((1u << pat->n) - 1u);
    free_cells(pat, occ, fc);
    for (uint64_t m = next; m; m &= m - 1)
        seed |= 1u << fc[__builtin_ctzll(m) / 2];
    uint32_t region = pattern_region(pat, seed, free);
    uint64_t out = 0;
    for (int j = 0; j < b->f; j++)
        if (region & (1u << fc[j]))
            out |= 1ULL << (2 * j);
    return out;
}

/* Pass 2 for placement p: next (and, additive, the rest of their regions)
 * becomes current at depth d; the values are written. */
static void promote(struct build *b, uint64_t p, uint64_t bits, uint64_t next, int d,
                    struct counts *c)
{
    uint64_t e = p * (uint64_t)b->f;
    uint64_t unseen = entries_equal(bits, S_UNSEEN), flip = next * 3; /* 10 -> 01 */
    if (b->kind == PDB_ADDITIVE) {
        uint64_t add = grow_regions(b, p, next) & unseen;
        flip |= add << 1; /* 11 -> 01 */
        c->states += (uint64_t)__builtin_popcountll(next | add);
        if (b->value[p] == PDB_NONE) {
            b->value[p] = (uint8_t)d;
            c->values++;
        }
    } else {
        c->states += (uint64_t)__builtin_popcountll(next);
        c->values += (uint64_t)__builtin_popcountll(next);
        for (uint64_t m = next; m; m &= m - 1)
            b->value[e + (uint64_t)(__builtin_ctzll(m) / 2)] = (uint8_t)d;
    }
    block_xor(&b->st, e, b->f, flip);
}

/*
 * Visit, in parallel, every placement whose block holds an entry equal to
 * `which`: pass 1 (S_CUR) or pass 2 (S_NEXT, promoting to depth d).  A
 * placement belongs to the chunk holding its first entry.
 */
static void scan(struct build *b, unsigned which, int d, struct counts *total)
{
    const uint64_t *words = b->st.words;
    int64_t nchunks = (int64_t)((b->st.nwords + CHUNK_WORDS - 1) / CHUNK_WORDS);
    uint64_t f = (uint64_t)b->f, states = 0, values = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(b->threads) \
    reduction(+ : states, values)
    for (int64_t ch = 0; ch < nchunks; ch++) {
        struct counts c = {0, 0};
        uint64_t e0 = (uint64_t)ch * CHUNK_WORDS * 32, e1 = e0 + CHUNK_WORDS * 32ULL;
        uint64_t p = (e0 + f - 1) / f, p_end = (e1 + f - 1) / f;
        if (p_end > b->placements)
            p_end = b->placements;
        while (p < p_end) {
            uint64_t w = p * f >> 5;
            if (!entries_equal(__atomic_load_n(&words[w], __ATOMIC_RELAXED), which)) {
                uint64_t q = ((w + 1) * 32) / f; /* first block reaching word w + 1 */
                if (q > p) {
                    p = q;
                    continue;
                }
            }
            uint64_t bits = block_bits(&b->st, p * f, b->f);
            uint64_t hit = entries_equal(bits, which);
            if (hit && which == S_CUR)
                expand(b, p, hit);
            else if (hit)
                promote(b, p, bits, hit, d, &c);
            p++;
        }
        states += c.states;
        values += c.values;
    }
    total->states = states;
    total->values = values;
}

/* ---- the search ------------------------------------------------------------ */

static void seed_goal(struct build *b)
{
    const struct pattern *pat = b->pat;
    uint64_t p = rank_kperm(pat->goal_pos, pat->k, pat->n), e = p * (uint64_t)b->f;
    uint32_t occ = pattern_occupied(pat, pat->goal_pos);
    if (b->kind == PDB_ADDITIVE) {
        /* the blank anywhere: every state of the goal placement costs 0 */
        block_xor(&b->st, e, b->f, (STORE_LOW_BITS << 1) & ((1ULL << (2 * b->f)) - 1));
        b->value[p] = 0;
    } else {
        int j = pattern_free_rank(occ, pat->goal_blank);
        block_xor(&b->st, e, b->f, 2ULL << (2 * j));
        b->value[e + (uint64_t)j] = 0;
    }
}

static int alloc_build(struct build *b, const struct pattern *pat, enum pdb_kind kind,
                       const struct pdb_build_options *o, slide_error *err)
{
    char what[160];
    memset(b, 0, sizeof *b);
    b->pat = pat;
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

static void report(const struct pdb_build_options *o, int d, const struct counts *c,
                   uint64_t *cumulative, uint64_t entries, double t0, double *tl)
{
    double now = omp_get_wtime();
    *cumulative += c->values;
    if (o && o->on_layer) {
        struct pdb_layer l = {d, c->states, c->values, *cumulative, entries, now - *tl,
                              now - t0};
        o->on_layer(&l, o->ctx);
    }
    *tl = now;
}

int pdb_build(const struct pattern *pat, enum pdb_kind kind,
              const struct pdb_build_options *o, struct pdb_table *t, slide_error *err)
{
    struct build b;
    memset(t, 0, sizeof *t);
    int rc = alloc_build(&b, pat, kind, o, err);
    if (rc)
        return rc;
    double t0 = omp_get_wtime(), tl = t0;
    uint64_t cumulative = 0, entries = pdb_entries(pat, kind);
    seed_goal(&b);
    struct counts c = {kind == PDB_ADDITIVE ? (uint64_t)b.f : 1, 1};
    report(o, 0, &c, &cumulative, entries, t0, &tl);
    for (int d = 1; rc == SLIDE_OK; d++) {
        struct counts none;
        scan(&b, S_CUR, d, &none);
        scan(&b, S_NEXT, d, &c);
        if (c.states == 0)
            break;
        if (d > PDB_MAX_VALUE)
            rc = slide_fail(err, SLIDE_ERANGE, "pattern database values exceed %d",
                            PDB_MAX_VALUE);
        else
            report(o, d, &c, &cumulative, entries, t0, &tl);
    }
    store_free(&b.st);
    if (rc) {
        free(b.value);
        return rc;
    }
    t->pat = *pat;
    t->kind = kind;
    t->entries = entries;
    t->value = b.value;
    pdb_table_count(t);
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
