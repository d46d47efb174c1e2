/*
 * pdb_file.c - pattern database files and their independent verifier
 * (pdb_file.h).
 */
#include "slide/pdb_file.h"

#include <stdlib.h>
#include <string.h>

#include "slide/store.h"

int pdb_file_encoding(const struct pdb_table *t)
{
    return t->max <= 14 ? DB_ENC_NIBBLE : DB_ENC_BYTE;
}

/* ---- writing ------------------------------------------------------------- */

static uint8_t *pack_nibbles(const struct pdb_table *t)
{
    uint64_t bytes = t->entries / 2 + (t->entries & 1);
    uint8_t *out = malloc(bytes ? bytes : 1);
    if (!out)
        return NULL;
    for (uint64_t b = 0; b < bytes; b++) {
        unsigned lo = t->value[2 * b], hi = 2 * b + 1 < t->entries ? t->value[2 * b + 1]
                                                                  : PDB_NONE;
        lo = lo == PDB_NONE ? 15u : lo;
        hi = hi == PDB_NONE ? 15u : hi;
        out[b] = (uint8_t)(lo | hi << 4);
    }
    return out;
}

static void fill_header(struct db *h, const struct pdb_table *t, uint64_t *hist)
{
    const struct pattern *pat = &t->pat;
    memset(h, 0, sizeof *h);
    h->rows = pat->rows;
    h->cols = pat->cols;
    h->encoding = pdb_file_encoding(t);
    h->radius = t->max;
    h->indexes = t->entries;
    h->reachable = t->reachable;
    for (int v = 0; v <= t->max; v++)
        hist[v] = t->hist[v];
    h->hist = hist;
    h->pdb.kind = (int)t->kind;
    h->pdb.k = pat->k;
    for (int i = 0; i < pat->k; i++)
        h->pdb.tiles[i] = (uint8_t)pat->tiles[i];
    for (int c = 0; c < pat->n; c++)
        h->pdb.goal[c] = (uint8_t)pat->goal_cells[c];
}

int pdb_save(const char *path, const struct pdb_table *t, int level, int threads,
             uint64_t *file_bytes, slide_error *err)
{
    struct db h;
    uint64_t hist[PDB_MAX_VALUE + 1];
    fill_header(&h, t, hist);
    uint8_t *packed = NULL;
    if (h.encoding == DB_ENC_NIBBLE && !(packed = pack_nibbles(t)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory packing %llu entries",
                          (unsigned long long)t->entries);
    struct db_save_options o = {h.encoding, level, threads, 0};
    int rc = db_save_pdb(path, &h, packed ? packed : t->value, &o, file_bytes, err);
    free(packed);
    return rc;
}

/* ---- reading --------------------------------------------------------------- */

static int table_from_db(struct db *db, struct pdb_table *t, slide_error *err)
{
    int tiles[PATTERN_MAX_TILES];
    for (int i = 0; i < db->pdb.k; i++)
        tiles[i] = db->pdb.tiles[i];
    int rc = pattern_init(&t->pat, &db->goal, tiles, db->pdb.k, err);
    if (rc)
        return rc;
    t->kind = (enum pdb_kind)db->pdb.kind;
    t->entries = db->indexes;
    if (t->entries != pdb_entries(&t->pat, t->kind))
        return slide_fail(err, SLIDE_EFORMAT, "the file holds %llu entries, the pattern "
                          "needs %llu", (unsigned long long)t->entries,
                          (unsigned long long)pdb_entries(&t->pat, t->kind));
    if (db->encoding == DB_ENC_BYTE) {
        t->value = db->payload; /* taken over */
        db->payload = NULL;
        return SLIDE_OK;
    }
    if (!(t->value = db_alloc_payload(t->entries)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %llu entries",
                          (unsigned long long)t->entries);
    for (uint64_t e = 0; e < t->entries; e++) {
        unsigned v = (db->payload[e / 2] >> (4 * (e & 1))) & 15u;
        t->value[e] = (uint8_t)(v == 15 ? PDB_NONE : v);
    }
    return SLIDE_OK;
}

/* The values must agree with the header's histogram and largest value. */
static int check_counts(const struct db *db, const struct pdb_table *t, slide_error *err)
{
    if (t->max != db->radius || t->reachable != db->reachable)
        return slide_fail(err, SLIDE_EFORMAT, "the values reach %d with %llu entries set; "
                          "the header says %d and %llu", t->max,
                          (unsigned long long)t->reachable, db->radius,
                          (unsigned long long)db->reachable);
    for (int v = 0; v <= db->radius; v++)
        if (t->hist[v] != db->hist[v])
            return slide_fail(err, SLIDE_EFORMAT, "%llu entries hold value %d; the header's "
                              "histogram says %llu", (unsigned long long)t->hist[v], v,
                              (unsigned long long)db->hist[v]);
    return SLIDE_OK;
}

int pdb_load(const char *path, int threads, struct pdb_table *t, slide_error *err)
{
    return pdb_load_stoppable(path, threads, NULL, t, err);
}

int pdb_load_stoppable(const char *path, int threads, const volatile sig_atomic_t *cancel,
                       struct pdb_table *t, slide_error *err)
{
    struct db db;
    memset(t, 0, sizeof *t);
    int rc = db_open_pdb(path, &db, err);
    if (rc)
        return rc;
    db.cancel = cancel;
    rc = db_load_payload(&db, threads, err);
    if (!rc)
        rc = table_from_db(&db, t, err);
    if (!rc) {
        pdb_table_count(t);
        rc = check_counts(&db, t, err);
    }
    db_free(&db);
    if (rc)
        pdb_table_free(t);
    return rc;
}

/* ---- the independent verifier ------------------------------------------------ */

struct vec {
    uint64_t *v;
    uint64_t len, cap;
};

static int push(struct vec *q, uint64_t x)
{
    if (q->len == q->cap) {
        uint64_t cap = q->cap ? 2 * q->cap : 1024;
        uint64_t *v = realloc(q->v, cap * sizeof *v);
        if (!v)
            return -1;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->len++] = x;
    return 0;
}

struct verifier {
    const struct pattern *pat;
    int additive;
    uint8_t *dist;  /* placements * n, 255 = unseen */
    struct vec cur, next;
    int mtm;        /* kind mtm: multi-tile moves (mtm_moves_of) */
};

/* Neighbouring cells of cell z by row and column arithmetic; returns count. */
static int cells_next_to(const struct pattern *pat, int z, int *out)
{
    int r = z / pat->cols, c = z % pat->cols, k = 0;
    if (r > 0)
        out[k++] = z - pat->cols;
    if (r < pat->rows - 1)
        out[k++] = z + pat->cols;
    if (c > 0)
        out[k++] = z - 1;
    if (c < pat->cols - 1)
        out[k++] = z + 1;
    return k;
}

/* The tile index on cell c of placement pos, or -1. */
static int tile_at(const struct pattern *pat, const uint8_t *pos, int c)
{
    for (int i = 0; i < pat->k; i++)
        if (pos[i] == c)
            return i;
    return -1;
}

/* Visit the moves of state s at depth d: free moves (cost 0, additive) go
 * onto cur, paid moves onto next.  Returns -1 when out of memory. */
/*
 * The multi-tile moves of state s (placement p, blank z), one cell at a
 * time along each direction: every step moves the blank one cell further
 * and shifts the pattern tile it meets (if any) back by one, exactly as the
 * rules move the whole group; every cell reached is one move from s.
 */
static int mtm_moves_of(struct verifier *v, uint64_t s, int d)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    const struct pattern *pat = v->pat;
    uint64_t n = (uint64_t)pat->n, p = s / n;
    for (int dir = 0; dir < 4; dir++) {
        uint8_t pos[PATTERN_MAX_TILES];
        rank_unkperm(p, pat->k, pat->n, pos);
        int z = (int)(s % n), r = z / pat->cols, c = z % pat->cols;
        for (;;) {
            r += dr[dir];
            c += dc[dir];
            if (r < 0 || r >= pat->rows || c < 0 || c >= pat->cols)
                break;
            int i = tile_at(pat, pos, r * pat->cols + c);
            if (i >= 0)
                pos[i] = (uint8_t)z;
            z = r * pat->cols + c;
            uint64_t t = rank_kperm(pos, pat->k, pat->n) * n + (uint64_t)z;
            if (v->dist[t] <= d + 1) /* 255 (unseen) is above every depth */
                continue;
            v->dist[t] = (uint8_t)(d + 1);
            if (push(&v->next, t) != 0)
                return -1;
        }
    }
    return 0;
}

static int moves_of(struct verifier *v, uint64_t s, int d)
{
    if (v->mtm)
        return mtm_moves_of(v, s, d);
    const struct pattern *pat = v->pat;
    uint64_t n = (uint64_t)pat->n, p = s / n;
    int z = (int)(s % n), nb[4], m = cells_next_to(pat, z, nb);
    uint8_t pos[PATTERN_MAX_TILES];
    rank_unkperm(p, pat->k, pat->n, pos);
    for (int j = 0; j < m; j++) {
        int c = nb[j], i = tile_at(pat, pos, c);
        uint64_t t;
        if (i < 0) {
            t = p * n + (uint64_t)c;
        } else {
            pos[i] = (uint8_t)z;
            t = rank_kperm(pos, pat->k, pat->n) * n + (uint64_t)c;
            pos[i] = (uint8_t)c;
        }
        int free_move = i < 0 && v->additive, want = free_move ? d : d + 1;
        if (v->dist[t] <= want) /* 255 (unseen) is above every depth */
            continue;
        v->dist[t] = (uint8_t)want;
        if (push(free_move ? &v->cur : &v->next, t) != 0)
            return -1;
    }
    return 0;
}

static int search(struct verifier *v, uint64_t *states, slide_error *err)
{
    const struct pattern *pat = v->pat;
    /* The abstract goal is one state, the goal placement with the blank on
     * the goal's blank cell, for both kinds; the free moves of layer 0 reach
     * the rest of its region at cost 0 (additive). */
    uint64_t g = rank_kperm(pat->goal_pos, pat->k, pat->n) * (uint64_t)pat->n +
                 (uint64_t)pat->goal_blank;
    v->dist[g] = 0;
    if (push(&v->cur, g) != 0)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the layer list");
    for (int d = 0; v->cur.len; d++) {
        for (uint64_t i = 0; i < v->cur.len; i++) { /* cur grows by free moves */
            if (v->dist[v->cur.v[i]] != d)
                continue; /* reached again later by a free move: done at that depth */
            ++*states;
            if (moves_of(v, v->cur.v[i], d) != 0)
                return slide_fail(err, SLIDE_ENOMEM, "out of memory for the layer list");
        }
        struct vec t = v->cur;
        v->cur = v->next;
        v->next = t;
        v->next.len = 0;
    }
    return SLIDE_OK;
}

static int compare(const struct verifier *v, const struct pdb_table *t, slide_error *err)
{
    const struct pattern *pat = v->pat;
    for (uint64_t p = 0; p < pat->placements; p++) {
        uint8_t pos[PATTERN_MAX_TILES];
        rank_unkperm(p, pat->k, pat->n, pos);
        uint32_t occ = pattern_occupied(pat, pos);
        int best = 255;
        for (int z = 0; z < pat->n; z++) {
            if (occ & (1u << z))
                continue;
            int d = v->dist[p * (uint64_t)pat->n + (uint64_t)z];
            best = d < best ? d : best;
            uint64_t e = p * (uint64_t)pat->nfree + (uint64_t)pattern_free_rank(occ, z);
            if (!v->additive && t->value[e] != d)
                return slide_fail(err, SLIDE_EFORMAT, "entry %llu (placement %llu, blank "
                                  "on cell %d) holds %d, the search gives %d",
                                  (unsigned long long)e, (unsigned long long)p, z,
                                  t->value[e], d);
        }
        if (v->additive && t->value[p] != best)
            return slide_fail(err, SLIDE_EFORMAT, "entry %llu holds %d, the search gives %d",
                              (unsigned long long)p, t->value[p], best);
    }
    return SLIDE_OK;
}

int pdb_verify(const struct pdb_table *t, uint64_t max_memory,
               struct pdb_verify_report *rep, slide_error *err)
{
    const struct pattern *pat = &t->pat;
    struct verifier v = {pat, t->kind == PDB_ADDITIVE, NULL, {0}, {0}, t->kind == PDB_MTM};
    uint64_t dist_bytes = pat->placements * (uint64_t)pat->n;
    uint64_t need = dist_bytes + 8 * (pat->placements * (uint64_t)pat->nfree / 4);
    memset(rep, 0, sizeof *rep);
    int rc = store_check_memory(need, max_memory, "verifying this pattern database "
                                "(a byte per placement and blank cell, plus the layers)",
                                err);
    if (rc)
        return rc;
    if (!(v.dist = malloc(dist_bytes)))
        return slide_fail(err, SLIDE_ENOMEM, "cannot allocate %llu bytes for the check",
                          (unsigned long long)dist_bytes);
    memset(v.dist, 255, dist_bytes);
    rc = search(&v, &rep->states, err);
    if (!rc)
        rc = compare(&v, t, err);
    rep->entries = t->entries;
    rep->bytes = dist_bytes + 8 * (v.cur.cap + v.next.cap);
    free(v.dist);
    free(v.cur.v);
    free(v.next.v);
    return rc;
}
