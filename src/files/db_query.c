/*
 * db_query.c - questions to a loaded distance database: which board and
 * goal it answers, exact distances and optimal paths by descent, and the
 * local verification of every index (db.h).
 */
#include "slide/db.h"

#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* The raw entry of index i: a bit (encoding 1), two bits (2) or a byte (8). */
static inline unsigned raw_at(const struct db *db, uint64_t i)
{
    switch (db->encoding) {
    case DB_ENC_BIT: return (db->payload[i >> 3] >> (i & 7)) & 1u;
    case DB_ENC_MOD3: return (db->payload[i >> 2] >> (2 * (i & 3))) & 3u;
    default: return db->payload[i];
    }
}

/* The value of index i: d mod 4 (encoding 1: the colour is d mod 2 and the
 * bit floor(d/2) mod 2), d mod 3 (2) or d (8). */
static inline unsigned value_at(const struct db *db, uint64_t i)
{
    if (db->encoding == DB_ENC_BIT)
        return db->space.colour[i % (uint64_t)db->space.n] | raw_at(db, i) << 1;
    return raw_at(db, i);
}

/* Values are distances modulo this. */
static unsigned modulus(const struct db *db)
{
    return db->encoding == DB_ENC_BIT ? 4u : db->encoding == DB_ENC_MOD3 ? 3u : 256u;
}

/* The value a board one move closer holds; -1 if none can (d = 0, encoding 8). */
static int closer(const struct db *db, unsigned v)
{
    unsigned m = modulus(db);
    if (db->encoding == DB_ENC_BYTE)
        return v == 0 ? -1 : (int)v - 1;
    return (int)((v + m - 1) % m);
}

int db_match(const struct db *db, const struct board *b, const struct board *goal,
             slide_error *err)
{
    char want[256], got[256];
    if (b && (b->rows != db->rows || b->cols != db->cols))
        return slide_fail(err, SLIDE_EINVAL, "the database is for %dx%d boards, the board "
                          "is %dx%d", db->rows, db->cols, b->rows, b->cols);
    if (goal && !board_equal(goal, &db->goal)) {
        board_format(&db->goal, want, sizeof want);
        board_format(goal, got, sizeof got);
        return slide_fail(err, SLIDE_EINVAL, "the database is for goal %s, not %s", want, got);
    }
    return SLIDE_OK;
}

int db_check_metric(const struct db *db, enum metric asked, slide_error *err)
{
    if (db->metric == asked)
        return SLIDE_OK;
    return slide_fail(err, SLIDE_EINVAL, "the database counts %s moves (%s), not the %s "
                      "moves (%s) asked for", metric_long_name(db->metric),
                      metric_name(db->metric), metric_long_name(asked), metric_name(asked));
}

static int inconsistent(const struct board *b, const char *what, slide_error *err)
{
    char text[256];
    board_format(b, text, sizeof text);
    return slide_fail(err, SLIDE_EFORMAT, "the database is inconsistent: %s at board %s",
                      what, text);
}

struct walker {
    const struct db *db;
    struct board w;          /* the board reached so far */
    int z;                   /* its blank */
    uint8_t t[SPACE_MAX_CELLS];
    uint64_t i;              /* its index */
};

struct vertical {
    uint64_t i;              /* index after the move, UINT64_MAX if off the board */
    uint8_t t[SPACE_MAX_CELLS];
};

/* The board one vertical move m away, as index and t (the board is kept). */
static void vertical(struct walker *k, enum move m, struct vertical *v)
{
    int z = k->z;
    v->i = UINT64_MAX;
    if (board_move(&k->w, &z, m) != 0)
        return;
    int to = z;
    space_split(&k->db->space, &k->w, v->t);
    board_move(&k->w, &z, move_inverse(m));
    v->i = space_index_tz(&k->db->space, v->t, to);
    __builtin_prefetch(&k->db->payload[v->i >> (k->db->encoding == DB_ENC_BIT    ? 3
                                                : k->db->encoding == DB_ENC_MOD3 ? 2
                                                                                 : 0)]);
}

/* Take move m: the board, its blank, t and index follow. */
static void take(struct walker *k, enum move m, const struct vertical *v)
{
    board_move(&k->w, &k->z, m);
    if (m == MOVE_LEFT || m == MOVE_RIGHT) {
        k->i += m == MOVE_LEFT ? (uint64_t)-1 : 1u; /* t unchanged: index -+ 1 */
    } else {
        k->i = v->i;
        memcpy(k->t, v->t, (size_t)k->db->space.m);
    }
}

/*
 * One step towards the goal: the first move (L, R, U, D) whose board holds
 * `want`.  Horizontal moves keep t, so their index is i -+ 1; the two
 * vertical ones are computed together so their cache misses overlap.
 * Returns the move taken, or -1 if no neighbour holds want.
 */
static int step_closer(struct walker *k, unsigned want)
{
    const struct db *db = k->db;
    int c = db->cols;
    struct vertical v[2];
    if (k->z % c > 0 && value_at(db, k->i - 1) == want) {
        take(k, MOVE_LEFT, NULL);
        return MOVE_LEFT;
    }
    if (k->z % c < c - 1 && value_at(db, k->i + 1) == want) {
        take(k, MOVE_RIGHT, NULL);
        return MOVE_RIGHT;
    }
    vertical(k, MOVE_UP, &v[0]);
    vertical(k, MOVE_DOWN, &v[1]);
    for (int j = 0; j < 2; j++)
        if (v[j].i != UINT64_MAX && value_at(db, v[j].i) == want) {
            take(k, j ? MOVE_DOWN : MOVE_UP, &v[j]);
            return j ? MOVE_DOWN : MOVE_UP;
        }
    return -1;
}

/*
 * One step towards the goal in any metric: the first move of
 * space_moves_tz whose board holds `want`; the board is rebuilt from the
 * new index.  Returns the move code, or -1.  (STM walks use step_closer,
 * which keeps the board by moves and overlaps the vertical look-ups.)
 */
static int step_closer_moves(struct walker *k, unsigned want)
{
    const struct db *db = k->db;
    uint64_t nb[SPACE_MAX_MOVES];
    unsigned char codes[SPACE_MAX_MOVES];
    int n = space_moves_tz(&db->space, db->metric, k->t, k->z, k->i, nb, codes);
    for (int j = 0; j < n; j++)
        if (value_at(db, nb[j]) == want) {
            k->i = nb[j];
            k->z = space_untz(&db->space, k->i, k->t);
            space_unrank(&db->space, k->i, &k->w);
            return codes[j];
        }
    return -1;
}

/* Descend from b to the goal; codes (may be NULL) receives the path. */
static int walk(const struct db *db, const struct board *b, unsigned char *codes, int *len,
                slide_error *err)
{
    struct walker k = {db, {0}, 0, {0}, 0};
    int rc = db_match(db, b, NULL, err);
    if (!rc && !db->payload)
        rc = slide_fail(err, SLIDE_EINVAL, "the database payload is not loaded");
    if (!rc)
        rc = board_validate(b, err);
    if (rc)
        return rc;
    k.z = space_split(&db->space, b, k.t);
    if (!space_reachable_tz(&db->space, k.t, k.z))
        return slide_fail(err, SLIDE_EUNSOLVABLE, "the board cannot reach the goal (its "
                          "tiles have the other parity)");
    k.i = space_index_tz(&db->space, k.t, k.z);
    unsigned v = value_at(db, k.i);
    if (db->encoding == DB_ENC_BYTE && (int)v > db->radius)
        return inconsistent(b, "a distance above the radius", err);
    if (db->encoding == DB_ENC_BYTE && !codes) {
        *len = (int)v;
        return SLIDE_OK;
    }
    if ((rc = board_copy(&k.w, b, err)) != SLIDE_OK)
        return rc;
    int steps = 0;
    for (; k.i != db->goal_index; steps++) {
        int want = closer(db, v), m = -1;
        if (steps < db->radius && want >= 0)
            m = db->metric == METRIC_STM ? step_closer(&k, (unsigned)want)
                                         : step_closer_moves(&k, (unsigned)want);
        if (m < 0) {
            rc = inconsistent(&k.w, steps >= db->radius ? "a walk longer than the radius"
                                                        : "no neighbour one move closer",
                              err);
            break;
        }
        v = (unsigned)want;
        if (codes)
            codes[steps] = (unsigned char)m;
    }
    board_free(&k.w);
    if (!rc)
        *len = steps;
    return rc;
}

int db_distance(const struct db *db, const struct board *b, int *dist, slide_error *err)
{
    return walk(db, b, NULL, dist, err);
}

int db_path(const struct db *db, const struct board *b, unsigned char *codes, int *len,
            slide_error *err)
{
    return walk(db, b, codes, len, err);
}

/* ---- verification ------------------------------------------------------------ */

enum flaw { FLAW_NONE, FLAW_UNREACHABLE, FLAW_GOAL, FLAW_RANGE, FLAW_NEIGHBOUR, FLAW_NO_CLOSER };

struct finding {
    uint64_t index;      /* smallest failing index, UINT64_MAX if none */
    enum flaw flaw;
    unsigned value;
    uint64_t other;      /* the neighbour involved */
    unsigned other_value;
};

static unsigned none_value(const struct db *db)
{
    return db->encoding == DB_ENC_BIT ? 0u : db->encoding == DB_ENC_MOD3 ? 3u : 255u;
}

/* The local check of index i (board (t, z)); fills f when it fails. */
static enum flaw check_index(const struct db *db, uint64_t i, const uint8_t *t, int z,
                             struct finding *f)
{
    const struct space *s = &db->space;
    unsigned v = value_at(db, i), m = modulus(db);
    f->value = v;
    if (i == db->goal_index)
        return v == 0 ? FLAW_NONE : FLAW_GOAL;
    if (db->encoding == DB_ENC_BYTE && (v == 0 || (int)v > db->radius))
        return FLAW_RANGE;
    uint64_t nb[SPACE_MAX_MOVES];
    unsigned char codes[SPACE_MAX_MOVES];
    int k = space_moves_tz(s, db->metric, t, z, i, nb, codes), down = 0;
    int same_ok = db->metric == METRIC_MTM; /* not bipartite: equal values meet */
    for (int j = 0; j < k; j++) {
        unsigned w = value_at(db, nb[j]);
        if (w == (v + m - 1) % m)
            down = 1;
        else if (w != (v + 1) % m && !(same_ok && w == v)) {
            f->other = nb[j];
            f->other_value = w;
            return FLAW_NEIGHBOUR;
        }
    }
    return down ? FLAW_NONE : FLAW_NO_CLOSER;
}

/*
 * Check the n indexes of block h (index = h * n + z); counts go to rep, the
 * first flaw to f.  Within a block t depends only on the parity class of z
 * (space.h), so it is unranked at most twice, and so is reachability.
 */
static void check_block(const struct db *db, uint64_t h, struct db_verify_report *rep,
                        struct finding *f)
{
    const struct space *s = &db->space;
    uint8_t t[2][SPACE_MAX_CELLS];
    int have[2] = {0, 0}, reach[2] = {1, 1};
    for (int z = 0; z < s->n; z++) {
        uint64_t i = h * (uint64_t)s->n + (uint64_t)z;
        struct finding here = {i, FLAW_NONE, 0, 0, 0};
        int p = s->kind == SPACE_FULL ? 0 : s->need_parity[z];
        if (!have[p]) {
            space_untz(s, i, t[p]);
            have[p] = 1;
            if (s->kind == SPACE_FULL || s->path_graph)
                reach[p] = space_reachable_tz(s, t[p], z);
        }
        if (!reach[p]) {
            rep->unreachable++;
            here.value = raw_at(db, i);
            here.flaw = here.value == none_value(db) ? FLAW_NONE : FLAW_UNREACHABLE;
        } else {
            rep->checked++;
            here.flaw = check_index(db, i, t[p], z, &here);
            rep->classes[here.value]++;
        }
        if (here.flaw != FLAW_NONE && i < f->index)
            *f = here;
    }
}

static int report_flaw(const struct db *db, const struct finding *f, slide_error *err)
{
    struct board b = {0};
    char text[256] = "?";
    if (board_alloc(&b, db->rows, db->cols, err) == SLIDE_OK) {
        space_unrank(&db->space, f->index, &b);
        board_format(&b, text, sizeof text);
        board_free(&b);
    }
    unsigned long long i = (unsigned long long)f->index;
    switch (f->flaw) {
    case FLAW_UNREACHABLE:
        return slide_fail(err, SLIDE_EFORMAT, "index %llu (%s) cannot reach the goal but "
                          "holds %u, not %u", i, text, f->value, none_value(db));
    case FLAW_GOAL:
        return slide_fail(err, SLIDE_EFORMAT, "the goal (index %llu) holds %u, not 0", i,
                          f->value);
    case FLAW_RANGE:
        return slide_fail(err, SLIDE_EFORMAT, "index %llu (%s) holds distance %u, outside "
                          "1..%d", i, text, f->value, db->radius);
    case FLAW_NEIGHBOUR:
        return slide_fail(err, SLIDE_EFORMAT, "index %llu (%s) holds %u but its neighbour "
                          "%llu holds %u, not one more or one less%s", i, text, f->value,
                          (unsigned long long)f->other, f->other_value,
                          db->metric == METRIC_MTM ? " or the same" : "");
    default:
        return slide_fail(err, SLIDE_EFORMAT, "index %llu (%s) holds %u but no neighbour "
                          "is one move closer to the goal", i, text, f->value);
    }
}

/* Padding past the last index must hold the "no board" value. */
static int check_padding(const struct db *db, slide_error *err)
{
    unsigned per = db->encoding == DB_ENC_BIT ? 8u : db->encoding == DB_ENC_MOD3 ? 4u : 1u;
    for (uint64_t i = db->indexes; i < db->payload_bytes * per; i++) {
        unsigned v = raw_at(db, i);
        if (v != none_value(db))
            return slide_fail(err, SLIDE_EFORMAT, "padding entry %llu past the last board "
                              "holds %u, not %u", (unsigned long long)(i - db->indexes), v,
                              none_value(db));
    }
    return SLIDE_OK;
}

/* Boards per stored value against the histogram folded by the modulus. */
static int check_classes(const struct db *db, const struct db_verify_report *rep,
                         slide_error *err)
{
    unsigned m = modulus(db);
    for (unsigned v = 0; v < m && v < 256; v++) {
        uint64_t want = 0;
        for (int d = (int)v; d <= db->radius; d += (int)m)
            want += db->hist[d];
        if (rep->classes[v] != want)
            return slide_fail(err, SLIDE_EFORMAT, "%llu boards hold %u but the histogram "
                              "has %llu boards at distances %u mod %u",
                              (unsigned long long)rep->classes[v], v,
                              (unsigned long long)want, v, m);
    }
    return SLIDE_OK;
}

int db_verify(const struct db *db, int threads, struct db_verify_report *rep,
              slide_error *err)
{
    struct finding first = {UINT64_MAX, FLAW_NONE, 0, 0, 0};
    memset(rep, 0, sizeof *rep);
    if (!db->payload)
        return slide_fail(err, SLIDE_EINVAL, "the database payload is not loaded");
    int64_t blocks = (int64_t)db->space.blocks;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        struct db_verify_report mine;
        struct finding f = {UINT64_MAX, FLAW_NONE, 0, 0, 0};
        memset(&mine, 0, sizeof mine);
#pragma omp for schedule(dynamic, 256)
        for (int64_t h = 0; h < blocks; h++)
            check_block(db, (uint64_t)h, &mine, &f);
#pragma omp critical(db_verify_merge)
        {
            rep->checked += mine.checked;
            rep->unreachable += mine.unreachable;
            for (int v = 0; v < 256; v++)
                rep->classes[v] += mine.classes[v];
            if (f.index < first.index)
                first = f;
        }
    }
    if (first.index != UINT64_MAX)
        return report_flaw(db, &first, err);
    int rc = check_padding(db, err);
    return rc ? rc : check_classes(db, rep, err);
}
