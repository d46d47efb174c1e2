/*
 * pdb.c - pattern database heuristics: loading a set, the lookup, the
 * mirrored lookup (pdb.h).
 */
#include "slide/pdb.h"

#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slide/db.h"
#include "slide/pdb_file.h"
#include "slide/store.h"

static int same_goal(const struct pattern *a, const struct pattern *b)
{
    return a->rows == b->rows && a->cols == b->cols &&
           memcmp(a->goal_cells, b->goal_cells, sizeof a->goal_cells) == 0;
}

/* SLIDE_OK when the header of the table in name says it answers for goal
 * (read before the payload: a mismatch costs no load); else SLIDE_EINVAL
 * as pdb_set_match says it, or the header's own error. */
static int header_matches(const char *name, const struct board *goal, slide_error *err)
{
    struct db db;
    slide_error why;
    int rc = db_open_pdb(name, &db, &why);
    if (rc) {
        db_free(&db);
        return slide_fail(err, rc == SLIDE_EINVAL || rc == SLIDE_ERANGE ? SLIDE_EFORMAT : rc,
                          "%s: %s", name, why.msg);
    }
    if (db.rows != goal->rows || db.cols != goal->cols)
        rc = slide_fail(err, SLIDE_EINVAL, "%s: the pattern databases are for %dx%d boards, "
                        "not %dx%d", name, db.rows, db.cols, goal->rows, goal->cols);
    else if (!board_equal(&db.goal, goal)) {
        char theirs[256];
        board_format(&db.goal, theirs, sizeof theirs);
        rc = slide_fail(err, SLIDE_EINVAL, "%s: the pattern databases were built for another "
                        "goal, %s (checked before loading)", name, theirs);
    }
    db_free(&db);
    return rc;
}

static int load_one(struct pdb_set *s, const char *name, int threads,
                    const struct board *goal, slide_error *err)
{
    slide_error why;
    struct pdb_table *t = &s->tables[s->count];
    if (goal) {
        int grc = header_matches(name, goal, err);
        if (grc)
            return grc;
    }
    int rc = pdb_load_stoppable(name, threads, s->cancel, t, &why);
    if (rc) /* a bad file, never bad input: SLIDE_EINVAL is kept for the latter */
        return slide_fail(err, rc == SLIDE_EINVAL || rc == SLIDE_ERANGE ? SLIDE_EFORMAT : rc,
                          "%s: %s", name, why.msg);
    s->count++;
    if (!same_goal(&t->pat, &s->tables[0].pat))
        return slide_fail(err, SLIDE_EINVAL, "%s is for another board or goal than %s",
                          name, "the first table");
    return SLIDE_OK;
}

/* K of "NAME.K.pdb" (1..PDB_SET_MAX) with NAME's length in *stem, or 0. */
static int table_number(const char *file, size_t *stem)
{
    size_t n = strlen(file);
    if (n < 7 || file[0] == '.' || strcmp(file + n - 4, ".pdb"))
        return 0;
    size_t dot = n - 5;
    while (dot > 0 && file[dot] != '.')
        dot--;
    char *end;
    long k = strtol(file + dot + 1, &end, 10);
    if (dot == 0 || end != file + n - 4 || k < 1 || k > PDB_SET_MAX)
        return 0;
    *stem = dot;
    return (int)k;
}

/*
 * The tables of one directory written by pdb build --partition NAME:
 * DIR/NAME.1.pdb, DIR/NAME.2.pdb, ... in that order.  Every .pdb file in
 * DIR must be one of them: two partitions (NAME.K and OTHER.K) in one
 * directory are refused rather than summed (they overlap), and so are two
 * files for one K (x.1.pdb, x.01.pdb), where readdir's order would choose.
 * Such a directory is refused as a bad file is (SLIDE_EFORMAT).
 */
static int load_dir(struct pdb_set *s, const char *dir, int threads,
                    const struct board *goal, slide_error *err)
{
    char names[PDB_SET_MAX + 1][256] = {{0}}, stem[256] = "", path[4096 + 256 + 2];
    DIR *d = opendir(dir);
    if (!d)
        return slide_fail(err, SLIDE_EIO, "cannot open directory %s: %s", dir,
                          strerror(errno));
    int rc = SLIDE_OK, found = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        size_t len = strlen(e->d_name), n = 0;
        if (len < 4 || strcmp(e->d_name + len - 4, ".pdb") || e->d_name[0] == '.')
            continue;
        int k = len < sizeof stem ? table_number(e->d_name, &n) : 0;
        if (!k)
            rc = slide_fail(err, SLIDE_EFORMAT, "%s/%s is not named NAME.K.pdb as pdb build "
                            "--partition writes its tables", dir, e->d_name);
        else if (found && (strlen(stem) != n || strncmp(stem, e->d_name, n)))
            rc = slide_fail(err, SLIDE_EFORMAT, "%s holds the tables of two partitions, %s "
                            "and %.*s; name the files (pdb:%s/%s.1.pdb+...)", dir, stem,
                            (int)n, e->d_name, dir, stem);
        else if (names[k][0]) /* x.1.pdb and x.01.pdb: which one readdir gives last */
            rc = slide_fail(err, SLIDE_EFORMAT, "%s holds two files for table %d, %s and %s; "
                            "keep one", dir, k, names[k], e->d_name);
        if (!rc) {
            snprintf(stem, sizeof stem, "%.*s", (int)n, e->d_name);
            memcpy(names[k], e->d_name, len + 1); /* len < 256 */
            found++;
        }
    }
    closedir(d);
    if (!rc && !found)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s holds no pattern database (NAME.K.pdb)", dir);
    for (int k = 1; !rc && k <= PDB_SET_MAX; k++) {
        if (!names[k][0])
            continue;
        if (s->count == PDB_SET_MAX)
            return slide_fail(err, SLIDE_EINVAL, "at most %d pattern databases in one sum",
                              PDB_SET_MAX);
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        rc = load_one(s, path, threads, goal, err);
    }
    return rc;
}

/* A name of the list: a table file, or a --partition directory. */
static int load_name(struct pdb_set *s, const char *name, int threads,
                     const struct board *goal, slide_error *err)
{
    struct stat sb;
    if (stat(name, &sb) == 0 && S_ISDIR(sb.st_mode))
        return load_dir(s, name, threads, goal, err);
    return load_one(s, name, threads, goal, err);
}

/* Disjointness and kinds of the loaded tables. */
static void classify(struct pdb_set *s)
{
    int seen[PATTERN_MAX_CELLS] = {0};
    s->disjoint = 1;
    s->all_additive = 1;
    s->all_mtm = 1;
    for (int t = 0; t < PATTERN_MAX_CELLS; t++)
        s->table_of[t] = -1;
    for (int j = s->count - 1; j >= 0; j--) {
        const struct pattern *pat = &s->tables[j].pat;
        for (int i = 0; i < pat->k; i++) {
            s->table_of[pat->tiles[i]] = j;
            s->index_in[pat->tiles[i]] = (uint8_t)i;
        }
        uint64_t w = 1; /* rank_kperm: r = r * (n - i) + digit i */
        for (int i = pat->k - 1; i >= 0; i--) {
            s->weight[j][i] = w;
            w *= (uint64_t)(pat->n - i);
        }
    }
    for (int j = 0; j < s->count; j++) {
        const struct pattern *pat = &s->tables[j].pat;
        s->all_additive &= s->tables[j].kind == PDB_ADDITIVE;
        s->all_mtm &= s->tables[j].kind == PDB_MTM;
        for (int i = 0; i < pat->k; i++)
            if (seen[pat->tiles[i]]++)
                s->disjoint = 0;
    }
}

/* Transposition with relabelling; needs a square board, blank on the diagonal. */
static int init_mirror(struct pdb_set *s, slide_error *err)
{
    const struct pattern *pat = &s->tables[0].pat;
    int r = pat->goal_blank / s->cols, c = pat->goal_blank % s->cols;
    if (s->rows != s->cols)
        return slide_fail(err, SLIDE_EINVAL, "--reflect needs a square board, not %dx%d",
                          s->rows, s->cols);
    if (r != c)
        return slide_fail(err, SLIDE_EINVAL, "--reflect: the goal's blank is on cell %d "
                          "(row %d, column %d), off the main diagonal, so the goal is not "
                          "its own mirror image; allowed: a goal with its blank on a cell "
                          "whose row equals its column", pat->goal_blank, r, c);
    for (int k = 0; k < s->n; k++)
        s->mirror_cell[k] = (k % s->cols) * s->cols + k / s->cols;
    for (int k = 0; k < s->n; k++)
        s->mirror_tile[pat->goal_cells[k]] = pat->goal_cells[s->mirror_cell[k]];
    return SLIDE_OK;
}

static void maybe_sparse(struct pdb_set *s, int threads);

int pdb_set_load(struct pdb_set *s, const char *files, int reflect, int threads,
                 slide_error *err)
{
    return pdb_set_load_for(s, files, reflect, threads, NULL, err);
}

/* pdb_set_load_for, stopped by *cancel (may be NULL) between blocks. */
static int load_set(struct pdb_set *s, const char *files, int reflect, int threads,
                    const struct board *goal, const volatile sig_atomic_t *cancel,
                    slide_error *err)
{
    char name[4096];
    memset(s, 0, sizeof *s);
    s->cancel = cancel;
    const char *p = files;
    int rc = SLIDE_OK;
    size_t flen = strlen(files);
    /* An empty name anywhere (a leading or trailing '+', or "++") is refused
     * before any table is read, not skipped. */
    if (flen && (files[0] == '+' || files[flen - 1] == '+' || strstr(files, "++")))
        rc = slide_fail(err, SLIDE_EINVAL, "bad pattern database list \"%s\": give "
                        "FILE or FILE+FILE+... (no empty name)", files);
    while (!rc && *p) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        if (len == 0 || len >= sizeof name)
            rc = slide_fail(err, SLIDE_EINVAL, "bad pattern database list \"%s\": give "
                            "FILE or FILE+FILE+...", files);
        else if (s->count == PDB_SET_MAX)
            rc = slide_fail(err, SLIDE_EINVAL, "at most %d pattern databases in one sum",
                            PDB_SET_MAX);
        if (!rc) {
            memcpy(name, p, len);
            name[len] = '\0';
            rc = load_name(s, name, threads, goal, err);
        }
        p += len + (plus != NULL);
    }
    if (!rc && s->count == 0)
        rc = slide_fail(err, SLIDE_EINVAL, "no pattern database named: give pdb:FILE or "
                        "pdb:FILE+FILE+...");
    if (!rc) {
        s->rows = s->tables[0].pat.rows;
        s->cols = s->tables[0].pat.cols;
        s->n = s->tables[0].pat.n;
        classify(s);
        for (int j = 0; j < s->count && !s->all_mtm; j++)
            if (s->tables[j].kind == PDB_MTM)
                rc = slide_fail(err, SLIDE_EINVAL, "table %d is of kind mtm (multi-tile "
                                "moves) and others are not: mtm tables combine by max, "
                                "the others by sum; give only one kind", j + 1);
        s->reflect = reflect;
        if (reflect && !rc)
            rc = init_mirror(s, err);
        if (!rc)
            maybe_sparse(s, threads);
    }
    s->cancel = NULL; /* the caller's flag: not kept past the load */
    if (rc)
        pdb_set_free(s);
    return rc;
}

int pdb_set_load_for(struct pdb_set *s, const char *files, int reflect, int threads,
                     const struct board *goal, slide_error *err)
{
    return load_set(s, files, reflect, threads, goal, NULL, err);
}

int pdb_set_load_stoppable(struct pdb_set *s, const char *files, int reflect, int threads,
                           const volatile sig_atomic_t *cancel, slide_error *err)
{
    return load_set(s, files, reflect, threads, NULL, cancel, err);
}

int pdb_set_match(const struct pdb_set *s, const struct board *goal, slide_error *err)
{
    if (goal->rows != s->rows || goal->cols != s->cols)
        return slide_fail(err, SLIDE_EINVAL, "the pattern databases are for %dx%d boards, "
                          "not %dx%d", s->rows, s->cols, goal->rows, goal->cols);
    for (int k = 0; k < s->n; k++)
        if (goal->cells[k] != s->tables[0].pat.goal_cells[k])
            return slide_fail(err, SLIDE_EINVAL, "the pattern databases were built for "
                              "another goal (build them with --goal, or solve for theirs)");
    return SLIDE_OK;
}

int pdb_set_goal(const struct pdb_set *s, struct board *b, slide_error *err)
{
    int rc = board_alloc(b, s->rows, s->cols, err);
    for (int k = 0; !rc && k < s->n; k++)
        b->cells[k] = s->tables[0].pat.goal_cells[k];
    return rc;
}

/* The sum of the tables (the max for mtm tables) for a board given as
 * where[tile] = cell. */
static int sum_of(const struct pdb_set *s, const int *where)
{
    int h = 0;
    for (int j = 0; j < s->count; j++) {
        const struct pdb_table *t = &s->tables[j];
        const struct pattern *pat = &t->pat;
        uint8_t pos[PATTERN_MAX_TILES];
        for (int i = 0; i < pat->k; i++)
            pos[i] = (uint8_t)where[pat->tiles[i]];
        uint64_t e = rank_kperm(pos, pat->k, pat->n);
        if (t->kind != PDB_ADDITIVE) /* plain, mtm: by blank cell too */
            e = e * (uint64_t)pat->nfree +
                (uint64_t)pattern_free_rank(pattern_occupied(pat, pos), where[0]);
        if (!s->all_mtm)
            h += t->value[e];
        else if (t->value[e] > h)
            h = t->value[e];
    }
    return h;
}

int pdb_set_h(const struct pdb_set *s, const int *cells)
{
    int where[PATTERN_MAX_CELLS];
    for (int k = 0; k < s->n; k++)
        where[cells[k]] = k;
    int h = sum_of(s, where);
    if (s->reflect) {
        int mirrored[PATTERN_MAX_CELLS];
        for (int t = 0; t < s->n; t++)
            mirrored[s->mirror_tile[t]] = s->mirror_cell[where[t]];
        int hm = sum_of(s, mirrored);
        h = hm > h ? hm : h;
    }
    return h;
}

/* Entry of additive table j for a board given as where[tile] = cell. */
static inline uint64_t table_entry(const struct pdb_set *s, int j, const uint8_t *where)
{
    const struct pattern *pat = &s->tables[j].pat;
    uint8_t pos[PATTERN_MAX_TILES];
    for (int i = 0; i < pat->k; i++)
        pos[i] = where[pat->tiles[i]];
    return rank_kperm(pos, pat->k, pat->n);
}

/*
 * Table j's entry after tile `tile` (in it) slides from cell a to the
 * adjacent cell b, from the entry e before (pdb.h, pdb_node_prefetch): the
 * tiles on the cells strictly between a and b are read from the board,
 * cell c holding tile map[cells[cell_of[c]]] (cell_of and map NULL: the
 * board itself; the mirror otherwise).
 */
static inline uint64_t entry_moved(const struct pdb_set *s, int j, uint64_t e, int tile,
                                   int a, int b, const int *cells, const int *cell_of,
                                   const int *map)
{
    const uint64_t *w = s->weight[j];
    int i = s->index_in[tile], lo = a < b ? a : b, hi = a < b ? b : a;
    int64_t d = hi - lo, later = 0; /* digit i's change, in |b - a| less earlier tiles */
    for (int c = lo + 1; c < hi; c++) {
        int u = cells[cell_of ? cell_of[c] : c];
        u = map ? map[u] : u;
        if (u && s->table_of[u] == j) {
            if (s->index_in[u] < i)
                d--;
            else
                later += (int64_t)w[s->index_in[u]];
        }
    }
    int64_t change = d * (int64_t)w[i] + later;
    return (uint64_t)((int64_t)e + (b > a ? change : -change));
}

/* pdb_node_prefetch with the sparse form: the entries are not kept (the
 * move recomputes them: a multiply-add each). */
static void sparse_prefetch(const struct pdb_set *s, const struct pdb_node *nd, int tile,
                            int from, int to)
{
    int j = s->table_of[tile];
    if (j >= 0)
        __builtin_prefetch(s->sparse[j] + nd->e[j] +
                           (to - from) * (int64_t)s->cell_weight[tile]);
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        if ((j = s->table_of[mt]) >= 0)
            __builtin_prefetch(s->sparse[j] + nd->me[j] +
                               (s->mirror_cell[to] - s->mirror_cell[from]) *
                                   (int64_t)s->cell_weight[mt]);
    }
}

void pdb_node_prefetch(const struct pdb_set *s, struct pdb_node *nd, const int *cells,
                       int from, int to)
{
    uint64_t e = 0, me = 0;
    int tile = cells[from];
    if (s->sparse[0]) {
        sparse_prefetch(s, nd, tile, from, to);
        return;
    }
    int j = s->table_of[tile];
    if (j >= 0) {
        e = entry_moved(s, j, nd->e[j], tile, from, to, cells, NULL, NULL);
        __builtin_prefetch(s->tables[j].value + e);
    }
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        if ((j = s->table_of[mt]) >= 0) {
            me = entry_moved(s, j, nd->me[j], mt, s->mirror_cell[from], s->mirror_cell[to],
                             cells, s->mirror_cell, s->mirror_tile);
            __builtin_prefetch(s->tables[j].value + me);
        }
    }
    if (nd->nnext < 4) { /* kept for pdb_node_move, which then need not rank again */
        nd->next_tile[nd->nnext] = (uint8_t)tile;
        nd->next_entry[nd->nnext] = e;
        nd->next_mentry[nd->nnext++] = me;
    }
}

/* The sparse index of table j for a board given as where[tile] = cell. */
static uint32_t sparse_entry(const struct pdb_set *s, int j, const uint8_t *where)
{
    const struct pattern *pat = &s->tables[j].pat;
    uint32_t e = 0;
    for (int i = 0; i < pat->k; i++)
        e += where[pat->tiles[i]] * s->cell_weight[pat->tiles[i]];
    return e;
}

int pdb_node_start(const struct pdb_set *s, const int *cells, struct pdb_node *nd)
{
    memset(nd, 0, sizeof *nd);
    for (int k = 0; k < s->n; k++)
        nd->where[cells[k]] = (uint8_t)k;
    for (int j = 0; j < s->count; j++) {
        nd->e[j] = s->sparse[j] ? sparse_entry(s, j, nd->where)
                                : (uint32_t)table_entry(s, j, nd->where);
        nd->sum += nd->v[j] = s->sparse[j] ? s->sparse[j][nd->e[j]]
                                           : s->tables[j].value[nd->e[j]];
    }
    if (s->reflect) {
        for (int t = 0; t < s->n; t++)
            nd->mwhere[s->mirror_tile[t]] = (uint8_t)s->mirror_cell[nd->where[t]];
        for (int j = 0; j < s->count; j++) {
            nd->me[j] = s->sparse[j] ? sparse_entry(s, j, nd->mwhere)
                                     : (uint32_t)table_entry(s, j, nd->mwhere);
            nd->msum += nd->vm[j] = s->sparse[j] ? s->sparse[j][nd->me[j]]
                                                 : s->tables[j].value[nd->me[j]];
        }
    }
    return nd->msum > nd->sum ? nd->msum : nd->sum;
}

/* pdb_node_move with the sparse form: only the entries and values are
 * carried (where and mwhere are not kept). */
static int sparse_move(const struct pdb_set *s, const struct pdb_node *before, int tile,
                       int from, int to, struct pdb_node *after)
{
    memcpy(after, before, offsetof(struct pdb_node, where));
    int j = s->table_of[tile];
    if (j >= 0) {
        after->e[j] = (uint32_t)(before->e[j] + (to - from) * (int64_t)s->cell_weight[tile]);
        uint8_t v = s->sparse[j][after->e[j]];
        after->sum += (int)v - (int)after->v[j];
        after->v[j] = v;
    }
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        if ((j = s->table_of[mt]) >= 0) {
            int64_t step = s->mirror_cell[to] - s->mirror_cell[from];
            after->me[j] = (uint32_t)(before->me[j] + step * (int64_t)s->cell_weight[mt]);
            uint8_t v = s->sparse[j][after->me[j]];
            after->msum += (int)v - (int)after->vm[j];
            after->vm[j] = v;
        }
    }
    return after->msum > after->sum ? after->msum : after->sum;
}

int pdb_node_move(const struct pdb_set *s, const struct pdb_node *before, int tile, int from,
                  int to, struct pdb_node *after)
{
    if (s->sparse[0])
        return sparse_move(s, before, tile, from, to, after);
    int c = 0; /* announced by pdb_node_prefetch? (only children of before are) */
    while (c < before->nnext && before->next_tile[c] != tile)
        c++;
    memcpy(after, before, offsetof(struct pdb_node, nnext));
    after->nnext = 0;
    after->where[tile] = (uint8_t)to;
    int j = s->table_of[tile];
    if (j >= 0) {
        after->e[j] = (uint32_t)(c < before->nnext ? before->next_entry[c]
                                                   : table_entry(s, j, after->where));
        uint8_t v = s->tables[j].value[after->e[j]];
        after->sum += (int)v - (int)after->v[j];
        after->v[j] = v;
    }
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        after->mwhere[mt] = (uint8_t)s->mirror_cell[to];
        if ((j = s->table_of[mt]) >= 0) {
            after->me[j] = (uint32_t)(c < before->nnext ? before->next_mentry[c]
                                                        : table_entry(s, j, after->mwhere));
            uint8_t v = s->tables[j].value[after->me[j]];
            after->msum += (int)v - (int)after->vm[j];
            after->vm[j] = v;
        }
    }
    return after->msum > after->sum ? after->msum : after->sum;
}

/* ---- the sparse form (pdb_set_sparse) ---------------------------------- */

/* Copy the ranked values of placements whose first i tiles stand on the
 * cells of `used` (their sparse index so far `index`) in rank order: for a
 * fixed prefix rank_kperm's digit i counts the free cells below tile i's
 * cell, so the free cells taken in increasing order give ranks *r, *r + 1,
 * ... and the ranked table is read from start to end. */
static void sparse_fill(const struct pattern *pat, const uint8_t *value, uint8_t *out,
                        uint64_t *r, int i, uint32_t used, uint64_t index)
{
    uint64_t n = (uint64_t)pat->n;
    uint32_t free_cells = ~used & (uint32_t)(((uint64_t)1 << pat->n) - 1);
    if (i == pat->k - 1) { /* the last tile: a run of consecutive ranks */
        uint8_t *row = out + index * n;
        const uint8_t *v = value + *r;
        *r += (uint64_t)__builtin_popcount(free_cells);
        for (; free_cells; free_cells &= free_cells - 1)
            row[__builtin_ctz(free_cells)] = *v++;
        return;
    }
    for (; free_cells; free_cells &= free_cells - 1) {
        int c = __builtin_ctz(free_cells);
        sparse_fill(pat, value, out, r, i + 1, used | 1u << c, index * n + (uint64_t)c);
    }
}

static uint64_t sparse_size(const struct pattern *pat)
{
    uint64_t size = 1;
    for (int i = 0; i < pat->k && size < ((uint64_t)1 << 32); i++)
        size *= (uint64_t)pat->n;
    return size;
}

int pdb_set_sparse(struct pdb_set *s, int threads, slide_error *err)
{
    uint64_t total = 0;
    if (!pdb_node_ok(s))
        return slide_fail(err, SLIDE_EINVAL, "a sparse form is only for disjoint additive "
                          "tables");
    for (int j = 0; j < s->count; j++) {
        if (sparse_size(&s->tables[j].pat) >= ((uint64_t)1 << 32))
            return slide_fail(err, SLIDE_EINVAL, "table %d's sparse form would have 2^32 "
                              "entries or more", j + 1);
        total += sparse_size(&s->tables[j].pat);
    }
    int rc = store_check_memory(total, 0, "the sparse form of the pattern databases", err);
    uint8_t *out[PDB_SET_MAX] = {0};
    for (int j = 0; !rc && j < s->count; j++)
        if (!(out[j] = db_alloc_payload(sparse_size(&s->tables[j].pat))))
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for the sparse form of "
                            "table %d (%llu bytes)", j + 1,
                            (unsigned long long)sparse_size(&s->tables[j].pat));
    if (rc) {
        for (int j = 0; j < s->count; j++)
            free(out[j]);
        return rc;
    }
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) \
    schedule(dynamic, 1)
    for (int j = 0; j < s->count; j++) {
        const struct pattern *pat = &s->tables[j].pat;
        uint64_t r = 0;
        memset(out[j], PDB_NONE, sparse_size(pat));
        sparse_fill(pat, s->tables[j].value, out[j], &r, 0, 0, 0);
    }
    for (int j = 0; j < s->count; j++) {
        const struct pattern *pat = &s->tables[j].pat;
        uint32_t w = 1;
        for (int i = pat->k - 1; i >= 0; i--, w *= (uint32_t)pat->n)
            s->cell_weight[pat->tiles[i]] = w;
        s->sparse[j] = out[j];
    }
    return SLIDE_OK;
}

/* pdb_set_load's choice: the sparse form when no table's is over three
 * times its ranked one (the 6-tile tables of the 24-puzzle: 1.9 times;
 * 4x4's 6-6-3: 2.9 times; not 7-8: 4.7 times, and 16^8 bytes), they take
 * at most SPARSE_AUTO_MAX bytes together, and the memory is there. */
#define SPARSE_AUTO_MAX ((uint64_t)4 << 30)
static void maybe_sparse(struct pdb_set *s, int threads)
{
    slide_error ignored;
    uint64_t total = 0;
    if (!pdb_node_ok(s))
        return;
    for (int j = 0; j < s->count; j++) {
        if (sparse_size(&s->tables[j].pat) > 3 * s->tables[j].entries)
            return;
        total += sparse_size(&s->tables[j].pat);
    }
    if (total <= SPARSE_AUTO_MAX)
        (void)pdb_set_sparse(s, threads, &ignored); /* else the ranked form alone */
}

void pdb_set_drop_sparse(struct pdb_set *s)
{
    for (int j = 0; j < s->count; j++) {
        free(s->sparse[j]);
        s->sparse[j] = NULL;
    }
}

void pdb_set_free(struct pdb_set *s)
{
    pdb_set_drop_sparse(s);
    for (int j = 0; j < s->count; j++)
        pdb_table_free(&s->tables[j]);
    memset(s, 0, sizeof *s);
}

int pdb_spec_split(const char *spec, char *with, size_t wlen, char *files, size_t flen)
{
    const char *f;
    size_t wl = 0;
    if (strncmp(spec, "pdb:", 4) == 0) {
        f = spec + 4;
    } else if (strncmp(spec, "max(", 4) == 0 && strstr(spec, ",pdb:") &&
               spec[strlen(spec) - 1] == ')') {
        const char *comma = strstr(spec, ",pdb:");
        wl = (size_t)(comma - (spec + 4));
        f = comma + 5;
        /* one NAME and one sum: max(pdb:A,pdb:B) or a nested max( ) would
         * otherwise split into a NAME or FILE holding the rest */
        if (wl == 0 || strcspn(spec + 4, "(),:") < wl || strpbrk(f, "(") ||
            strchr(f, ')') != spec + strlen(spec) - 1 || strstr(f, "pdb:"))
            return -2;
    } else if (strncmp(spec, "max(", 4) == 0 && strstr(spec, "pdb:")) {
        return -2; /* max(pdb:FILES,NAME), max(pdb:A) ... */
    } else {
        return 0;
    }
    size_t fl = strlen(f) - (wl || spec[0] == 'm' ? 1 : 0);
    if (wl >= wlen || fl >= flen)
        return -1;
    memcpy(with, spec + 4, wl);
    with[wl] = '\0';
    memcpy(files, f, fl);
    files[fl] = '\0';
    return 1;
}
