/*
 * pdb.c - pattern database heuristics: loading a set, the lookup, the
 * mirrored lookup (pdb.h).
 */
#include "slide/pdb.h"

#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slide/pdb_file.h"

static int same_goal(const struct pattern *a, const struct pattern *b)
{
    return a->rows == b->rows && a->cols == b->cols &&
           memcmp(a->goal_cells, b->goal_cells, sizeof a->goal_cells) == 0;
}

static int load_one(struct pdb_set *s, const char *name, int threads, slide_error *err)
{
    slide_error why;
    struct pdb_table *t = &s->tables[s->count];
    int rc = pdb_load(name, threads, t, &why);
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
static int load_dir(struct pdb_set *s, const char *dir, int threads, slide_error *err)
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
        rc = load_one(s, path, threads, err);
    }
    return rc;
}

/* A name of the list: a table file, or a --partition directory. */
static int load_name(struct pdb_set *s, const char *name, int threads, slide_error *err)
{
    struct stat sb;
    if (stat(name, &sb) == 0 && S_ISDIR(sb.st_mode))
        return load_dir(s, name, threads, err);
    return load_one(s, name, threads, err);
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
    for (int j = s->count - 1; j >= 0; j--)
        for (int i = 0; i < s->tables[j].pat.k; i++)
            s->table_of[s->tables[j].pat.tiles[i]] = j;
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

int pdb_set_load(struct pdb_set *s, const char *files, int reflect, int threads,
                 slide_error *err)
{
    char name[4096];
    memset(s, 0, sizeof *s);
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
            rc = load_name(s, name, threads, err);
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
    }
    if (rc)
        pdb_set_free(s);
    return rc;
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

/* Value of additive table j for a board given as where[tile] = cell. */
static inline uint8_t table_value(const struct pdb_set *s, int j, const uint8_t *where)
{
    const struct pdb_table *t = &s->tables[j];
    const struct pattern *pat = &t->pat;
    uint8_t pos[PATTERN_MAX_TILES];
    for (int i = 0; i < pat->k; i++)
        pos[i] = where[pat->tiles[i]];
    return t->value[rank_kperm(pos, pat->k, pat->n)];
}

/*
 * The entry of additive table j when tile `tile` (in it) moves to `to`:
 * rank_kperm of the table's cells, fused with reading them (the hot loop of
 * IDA* with pattern databases).
 */
static inline uint64_t entry_after(const struct pdb_set *s, int j, const uint8_t *where,
                                   int tile, int to)
{
    const struct pattern *pat = &s->tables[j].pat;
    uint32_t seen = 0;
    uint64_t r = 0;
    for (int i = 0; i < pat->k; i++) {
        unsigned v = pat->tiles[i] == tile ? (unsigned)to : where[pat->tiles[i]];
        r = r * (uint64_t)(pat->n - i) +
            (v - (unsigned)__builtin_popcount(seen & ((1u << v) - 1u)));
        seen |= 1u << v;
    }
    return r;
}

void pdb_node_prefetch(const struct pdb_set *s, struct pdb_node *nd, int tile, int to)
{
    uint64_t e = 0, me = 0;
    int j = s->table_of[tile];
    if (j >= 0)
        __builtin_prefetch(s->tables[j].value + (e = entry_after(s, j, nd->where, tile, to)));
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        if ((j = s->table_of[mt]) >= 0)
            __builtin_prefetch(s->tables[j].value +
                               (me = entry_after(s, j, nd->mwhere, mt, s->mirror_cell[to])));
    }
    if (nd->nnext < 4) { /* kept for pdb_node_move, which then need not rank again */
        nd->next_tile[nd->nnext] = (uint8_t)tile;
        nd->next_entry[nd->nnext] = e;
        nd->next_mentry[nd->nnext++] = me;
    }
}

int pdb_node_start(const struct pdb_set *s, const int *cells, struct pdb_node *nd)
{
    memset(nd, 0, sizeof *nd);
    for (int k = 0; k < s->n; k++)
        nd->where[cells[k]] = (uint8_t)k;
    for (int j = 0; j < s->count; j++)
        nd->sum += nd->v[j] = table_value(s, j, nd->where);
    if (s->reflect) {
        for (int t = 0; t < s->n; t++)
            nd->mwhere[s->mirror_tile[t]] = (uint8_t)s->mirror_cell[nd->where[t]];
        for (int j = 0; j < s->count; j++)
            nd->msum += nd->vm[j] = table_value(s, j, nd->mwhere);
    }
    return nd->msum > nd->sum ? nd->msum : nd->sum;
}

int pdb_node_move(const struct pdb_set *s, const struct pdb_node *before, int tile, int to,
                  struct pdb_node *after)
{
    int c = 0; /* announced by pdb_node_prefetch? (only children of before are) */
    while (c < before->nnext && before->next_tile[c] != tile)
        c++;
    memcpy(after, before, offsetof(struct pdb_node, nnext));
    after->nnext = 0;
    after->where[tile] = (uint8_t)to;
    int j = s->table_of[tile];
    if (j >= 0) {
        uint8_t v = c < before->nnext ? s->tables[j].value[before->next_entry[c]]
                                      : table_value(s, j, after->where);
        after->sum += (int)v - (int)after->v[j];
        after->v[j] = v;
    }
    if (s->reflect) {
        int mt = s->mirror_tile[tile];
        after->mwhere[mt] = (uint8_t)s->mirror_cell[to];
        if ((j = s->table_of[mt]) >= 0) {
            uint8_t v = c < before->nnext ? s->tables[j].value[before->next_mentry[c]]
                                          : table_value(s, j, after->mwhere);
            after->msum += (int)v - (int)after->vm[j];
            after->vm[j] = v;
        }
    }
    return after->msum > after->sum ? after->msum : after->sum;
}

void pdb_set_free(struct pdb_set *s)
{
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
