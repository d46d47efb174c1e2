/*
 * serve_eval.c - POST /api/eval: every heuristic of heuristic.h and, where
 * a loaded database covers the board, its exact distance - for one board
 * and for each board along a sequence of moves (the page's chart of h and
 * d along a solution).
 *
 * In the multi-tile metric (the request's "metric") wd is the MTM walking
 * distance, the pattern databases and the distance database those of that
 * metric, and moves are read in its notation (metric.h: "UU L" is two
 * moves); the other heuristics keep their values, which may exceed the
 * MTM distance (/api/info says which are admissible in STM).
 *
 * An evaluation takes a slot of the search pool (serve_pool.h) like a
 * search: up to 20,000 boards of 32x32 are seconds of CPU, so the slots
 * bound the CPU the server takes, and the slot's flag (deadline, stop,
 * client gone) is read before every board.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"
#include "slide/heuristic.h"
#include "slide/pdb.h"
#include "text.h"

#define EVAL_CACHE 8 /* goals whose heuristics are kept */

/* Every heuristic of the table bound to one goal; read-only once built,
 * so any number of requests may evaluate with it at once. */
struct evaluator {
    struct board goal;
    enum metric metric;
    struct heuristic *h;   /* count rows of the table; def NULL where not built */
    int count;
};

struct serve_eval_cache {
    pthread_mutex_t lock;
    struct evaluator *e[EVAL_CACHE];
    int n;
};

static void evaluator_free(struct evaluator *e)
{
    if (!e)
        return;
    for (int i = 0; e->h && i < e->count; i++)
        heuristic_free(&e->h[i]);
    free(e->h);
    board_free(&e->goal);
    free(e);
}

/*
 * wd's tables are built by a BFS that stops only when it passes
 * HEURISTIC_WD_MAX_STATES, after seconds of work; the sizes whose tables
 * fit are known (heuristic.c's message lists them: 4x4, 3x5, 2x6 and
 * smaller, and the transposes; one row or column up to 16 cells), so
 * other sizes are not tried.
 */
int serve_wd_fits(int rows, int cols)
{
    int a = rows < cols ? rows : cols, b = rows < cols ? cols : rows;
    return (a == 1 && b <= 16) || (a == 2 && b <= 6) || (a == 3 && b <= 5) ||
           (a == 4 && b <= 4);
}

/* Bind every heuristic to goal; one that is not built for this size (wd
 * beyond serve_wd_fits) has the value null.  wd's tables come from the
 * store (built there at most once; a build stops with SLIDE_EINTR when
 * *cancel is raised). */
static int evaluator_new(struct heuristic_wd_store *wd, const struct board *goal,
                         enum metric m, const volatile sig_atomic_t *cancel,
                         struct evaluator **out, slide_error *err)
{
    const struct heuristic_def *table;
    struct evaluator *e = calloc(1, sizeof *e);
    *out = NULL;
    if (!e || board_copy(&e->goal, goal, err)) {
        free(e);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristics");
    }
    e->metric = m;
    table = heuristic_table(&e->count);
    if (!(e->h = calloc((size_t)e->count, sizeof *e->h))) {
        evaluator_free(e);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristics");
    }
    for (int i = 0; i < e->count; i++) {
        int is_wd = !strcmp(table[i].name, "wd");
        if (is_wd && !serve_wd_fits(goal->rows, goal->cols))
            continue;
        int rc = is_wd && m == METRIC_MTM /* its own tables, not the store's */
                     ? heuristic_init_metric(&e->h[i], "wd", goal, m, err)
                 : is_wd ? heuristic_init_wd_shared(&e->h[i], goal, wd, cancel, err)
                         : heuristic_init(&e->h[i], table[i].name, goal, err);
        if (rc == SLIDE_ENOMEM || rc == SLIDE_EINTR) {
            evaluator_free(e);
            return rc;
        }
        if (rc)
            memset(&e->h[i], 0, sizeof e->h[i]);
    }
    *out = e;
    return SLIDE_OK;
}

static int same(const struct evaluator *e, const struct board *goal, enum metric m)
{
    return e->metric == m && board_equal(&e->goal, goal);
}

static struct evaluator *cached(struct serve_eval_cache *c, const struct board *goal,
                                enum metric m)
{
    struct evaluator *e = NULL;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < c->n && !e; i++)
        if (same(c->e[i], goal, m))
            e = c->e[i];
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* The evaluator of goal: from the cache, or built (in the caller's slot,
 * stopped by its flag: SLIDE_EINTR) and (room permitting) kept there;
 * *own is 1 when the caller must free it. */
static int evaluator_for(struct serve_api *api, const struct board *goal, enum metric m,
                         const volatile sig_atomic_t *cancel, struct evaluator **out,
                         int *own, slide_error *err)
{
    struct serve_eval_cache *c = api->cache;
    *own = 0;
    if ((*out = cached(c, goal, m)))
        return SLIDE_OK;
    int rc = evaluator_new(api->wd, goal, m, cancel, out, err);
    if (rc)
        return rc;
    pthread_mutex_lock(&c->lock);
    struct evaluator *again = NULL;
    for (int i = 0; i < c->n && !again; i++)
        if (same(c->e[i], goal, m))
            again = c->e[i];
    if (again) { /* another request built it meanwhile */
        evaluator_free(*out);
        *out = again;
    } else if (c->n < EVAL_CACHE) {
        c->e[c->n++] = *out;
    } else {
        *own = 1;
    }
    pthread_mutex_unlock(&c->lock);
    return SLIDE_OK;
}

int serve_eval_cache_new(struct serve_eval_cache **out, slide_error *err)
{
    if (!(*out = calloc(1, sizeof **out)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristic cache");
    pthread_mutex_init(&(*out)->lock, NULL);
    return SLIDE_OK;
}

void serve_eval_cache_free(struct serve_eval_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        evaluator_free(c->e[i]);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* h of a loaded pattern database set; null without one, or where a
 * placement has no value (the board cannot reach the goal). */
static json_t *pdb_value(const struct pdb_set *p, const struct board *b)
{
    int v = p ? pdb_set_h(p, b->cells) : PDB_NONE;
    return v < PDB_NONE ? json_integer(v) : json_null();
}

/* {"distance": d|null, "h": {name: value|null, ..., "pdb": value|null}}
 * of board b. */
static json_t *evaluate(const struct evaluator *e, const struct db *db,
                        const struct pdb_set *pdb, const struct board *b)
{
    const struct heuristic_def *table = heuristic_table(&(int){0});
    json_t *h = json_object(), *o = json_object();
    for (int i = 0; i < e->count; i++)
        json_object_set_new(h, table[i].name, e->h[i].def
                                                  ? json_integer(heuristic_eval(&e->h[i], b->cells))
                                                  : json_null());
    json_object_set_new(h, "pdb", pdb_value(pdb, b));
    int d;
    slide_error err;
    int known = db && db_distance(db, b, &d, &err) == SLIDE_OK;
    json_object_set_new(o, "distance", known ? json_integer(d) : json_null());
    json_object_set_new(o, "h", h);
    return o;
}

/* What an evaluation reads besides the board. */
struct eval_ctx {
    const struct evaluator *e;
    const struct db *db;
    const struct pdb_set *pdb;
    const volatile sig_atomic_t *cancel; /* the pool slot's flag */
};

/* The refusal of move i + 1 of moves: a whole character is named, so a
 * multibyte one is echoed as itself. */
static void bad_move(const char *moves, size_t i, int m, struct serve_reply *r)
{
    char c[16];
    size_t n = strlen(moves + i);
    int k = utf8_char((const unsigned char *)moves + i, n);
    text_clip(c, sizeof c, moves + i, k > 0 ? (size_t)k : 1, 8);
    reply_error(r, 400, "field \"moves\": move %zu ('%s') %s", i + 1, c,
                m < 0 ? "is not one of U, D, L, R" : "leaves the board");
}

/* along() in MTM: the moves in metric.h's notation, one board per move. */
static json_t *along_mtm(const struct eval_ctx *x, const struct board *start,
                         const char *moves, int *stopped, struct serve_reply *r)
{
    struct board b;
    slide_error err;
    int len = 0, max = (int)strlen(moves) + 1;
    unsigned char *codes = malloc((size_t)max);
    *stopped = 0;
    if (!codes || board_copy(&b, start, &err)) {
        free(codes);
        reply_error(r, 500, "out of memory for %d moves", max);
        return NULL;
    }
    json_t *path = NULL;
    if (move_parse_codes(moves, METRIC_MTM, codes, max, &len, &err)) {
        reply_error(r, 400, "field \"moves\": %s", err.msg);
        len = -1;
    } else {
        path = json_array();
        json_array_append_new(path, evaluate(x->e, x->db, x->pdb, &b));
    }
    int z = board_blank(&b);
    for (int i = 0; path && i < len; i++) {
        if (*x->cancel) {
            *stopped = 1;
        } else if (move_target(b.rows, b.cols, z, codes[i]) < 0) {
            reply_error(r, 400, "field \"moves\": move %d leaves the board", i + 1);
        } else {
            z = move_apply(b.cells, b.cols, z, codes[i]);
            json_array_append_new(path, evaluate(x->e, x->db, x->pdb, &b));
            continue;
        }
        json_decref(path);
        path = NULL;
    }
    free(codes);
    board_free(&b);
    return path;
}

/* The boards along moves, each evaluated; NULL and an answer in r on an
 * illegal move, or when the slot's flag stops it (*stopped then 1). */
static json_t *along(const struct eval_ctx *x, const struct board *start, const char *moves,
                     int *stopped, struct serve_reply *r)
{
    struct board b;
    slide_error err;
    *stopped = 0;
    if (board_copy(&b, start, &err)) {
        reply_error(r, 500, "%s", err.msg);
        return NULL;
    }
    json_t *path = json_array();
    json_array_append_new(path, evaluate(x->e, x->db, x->pdb, &b));
    int z = board_blank(&b);
    for (size_t i = 0; moves[i]; i++) {
        int m = move_parse(moves[i]);
        if (*x->cancel) {
            *stopped = 1;
        } else if (m < 0 || board_move(&b, &z, (enum move)m)) {
            bad_move(moves, i, m, r);
        } else {
            json_array_append_new(path, evaluate(x->e, x->db, x->pdb, &b));
            continue;
        }
        json_decref(path);
        path = NULL;
        break;
    }
    board_free(&b);
    return path;
}

/* The answer of an evaluation that the slot's flag stopped. */
static void stopped_reply(struct serve_api *api, int slot, size_t moves, struct serve_reply *r)
{
    if (serve_pool_timed_out(api->pool, slot))
        reply_error(r, 503, "the evaluation of %zu moves stopped at the time limit of %g s; "
                    "ask for fewer moves", moves, api->limits->max_seconds);
    else
        reply_error(r, 503, "the evaluation was stopped: the server is stopping or the "
                    "client has gone");
}

static void eval_board(struct serve_api *api, json_t *f, int client, const struct board *b,
                       const struct board *goal, struct serve_reply *r)
{
    const char *moves;
    enum metric m;
    if (req_string(f, "moves", 0, "UULDR", &moves, r) || req_metric(f, &m, r))
        return;
    if (moves && strlen(moves) > (size_t)api->limits->max_moves) {
        reply_error(r, 400, "field \"moves\" has %zu moves; slide serve evaluates at most %d",
                    strlen(moves), api->limits->max_moves);
        return;
    }
    struct eval_ctx x = {NULL, serve_db_for(api, b, goal, m), serve_pdb_for(api, goal, m),
                         NULL};
    int slot = serve_pool_acquire(api->pool, api->limits->max_seconds, client);
    if (slot < 0) {
        serve_reply_busy(api, r);
        return;
    }
    x.cancel = serve_pool_flag(api->pool, slot);
    struct evaluator *e;
    int own, stopped = 0;
    slide_error err;
    int rc = evaluator_for(api, goal, m, x.cancel, &e, &own, &err);
    if (rc) {
        if (rc == SLIDE_EINTR)
            stopped_reply(api, slot, moves ? strlen(moves) : 0, r);
        else
            reply_error(r, 500, "%s", err.msg);
        serve_pool_release(api->pool, slot);
        return;
    }
    x.e = e;
    json_t *o = evaluate(e, x.db, x.pdb, b);
    json_t *path = !moves ? NULL
                   : m == METRIC_MTM ? along_mtm(&x, b, moves, &stopped, r)
                                     : along(&x, b, moves, &stopped, r);
    if (stopped)
        stopped_reply(api, slot, strlen(moves), r);
    serve_pool_release(api->pool, slot);
    json_object_set_new(o, "database", json_boolean(x.db != NULL));
    json_object_set_new(o, "metric", json_string(metric_name(m)));
    if (path)
        json_object_set_new(o, "path", path);
    if (!moves || path)
        reply_json(r, 200, o);
    else
        json_decref(o);
    if (own)
        evaluator_free(e);
}

void serve_eval(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    static const char *const fields[] = {"board", "goal", "moves", "metric", NULL};
    struct board b = {0}, goal = {0};
    if (!req_fields(f, fields, r) && !req_board(api, f, 0, &b, &goal, r))
        eval_board(api, f, client, &b, &goal, r);
    board_free(&b);
    board_free(&goal);
}
