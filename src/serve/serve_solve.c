/*
 * serve_solve.c - POST /api/solve: one board solved by IDA*, by descent in
 * a loaded distance database, or layer by layer, each bounded by the
 * server's limits (serve.h), in the metric the request names (metric.h:
 * IDA* and the database count multi-tile moves too, layers does not).
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "request.h"
#include "slide/heuristic.h"
#include "slide/ida.h"
#include "slide/ida_parallel.h"
#include "slide/layers.h"
#include "slide/parity.h"
#include "slide/pdb.h"
#include "text.h"

/* What a method produced; the figures a method does not have stay -1. */
struct solved {
    const char *method, *heuristic;
    enum metric metric;
    int optimal;
    char *moves;            /* letters, NUL-terminated, malloc'd; NULL when stopped */
    long long length, lower_bound, expanded, generated, iterations, h_start;
    int threads;            /* IDA*'s threads; 0 for the other methods */
    char stopped[SLIDE_ERROR_LEN]; /* why a search stopped; "" when it did not */
    char heuristic_name[80]; /* a copy that outlives the heuristic (a pdb
                                heuristic's name is freed with it) */
};

struct solve_request {
    const struct board *start, *goal;
    enum metric metric;
    const char *heuristic;
    const struct pdb_set *pdb; /* IDA* over this loaded set (heuristic: what
                                  it is maxed with, "" for none); else NULL */
    long long max_nodes;
    double max_seconds;
    int client; /* the request's socket, watched while the search runs */
};

/*
 * The heuristic IDA* uses when the request names none: the strongest one
 * slide has for this board and goal.  A loaded admissible pattern database
 * set built for the board's size and goal, maxed with lc (as --h
 * max(lc,pdb:...) does; lc costs little beside the table lookups), else lc.
 * In MTM, where lc overestimates: a set of kind mtm maxed with wd (where
 * wd's tables fit, else alone), else wd.
 */
static void best_heuristic(const struct serve_api *api, struct solve_request *q)
{
    q->pdb = serve_pdb_for(api, q->goal, q->metric);
    q->heuristic = IDA_HEURISTIC_DEFAULT; /* alone, or maxed with the tables */
    if (q->metric == METRIC_MTM)
        q->heuristic = serve_wd_fits(q->goal->rows, q->goal->cols) ? "wd" : "";
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Move codes as text in metric m's notation (metric.h; malloc'd). */
static char *letters(const unsigned char *moves, int len, enum metric m)
{
    size_t need = move_format_codes(moves, len, m, NULL, 0);
    char *s = malloc(need + 1);
    if (s)
        move_format_codes(moves, len, m, s, need + 1);
    return s;
}

/* The heuristic of q, opened in the caller's slot: wd's tables come from
 * the server's store (built there at most once, stopped by the slot's
 * flag: SLIDE_EINTR). */
static int open_heuristic(struct serve_api *api, const struct solve_request *q,
                          const volatile sig_atomic_t *flag, struct ida_heuristic *h,
                          slide_error *err)
{
    if (q->pdb)
        return ida_heuristic_open_pdb(h, q->pdb, q->heuristic, q->goal, err);
    if (!strcmp(q->heuristic, "wd") && q->metric == METRIC_STM)
        return ida_heuristic_open_wd_shared(h, q->goal, api->wd, flag, err);
    return ida_heuristic_open_metric(h, q->heuristic, q->goal, q->metric, err);
}

/* Why the slot's flag stopped a search (or a build of its tables). */
static void stopped_why(struct serve_api *api, int slot, const struct solve_request *q,
                        const char *during, struct solved *s, const slide_error *err)
{
    if (serve_pool_timed_out(api->pool, slot))
        snprintf(s->stopped, sizeof s->stopped, "stopped at the time limit of %g s, %s",
                 q->max_seconds, during);
    else if (serve_pool_left(api->pool, slot))
        snprintf(s->stopped, sizeof s->stopped, "stopped: the client has gone");
    else
        snprintf(s->stopped, sizeof s->stopped, "%s", err->msg);
}

/*
 * The slots a search borrows beside its own (slot[0]): the idle ones at
 * its start, so that it runs one thread per slot it holds and the server
 * never runs more threads than it has slots; at most the machine's
 * processors in all.  Returns the slots held (>= 1) in slot[].
 */
static int borrow_slots(struct serve_api *api, const struct solve_request *q, int *slot)
{
    int most = omp_get_num_procs(), held = 1;
    if (most > SERVE_POOL_MAX)
        most = SERVE_POOL_MAX;
    while (held < most && (slot[held] = serve_pool_acquire(api->pool, q->max_seconds, -1)) >= 0)
        held++;
    return held;
}

/* IDA* with slots[0..threads-1] (one heuristic each, opened here after the
 * first); o polls slot[0]'s flag, which the deadline and the client's
 * leaving raise. */
static int search(struct serve_api *api, const struct solve_request *q,
                  struct ida_heuristic *h, int threads, const struct ida_options *o,
                  struct ida_result *res, slide_error *err)
{
    int opened = 1, rc = SLIDE_OK;
    while (opened < threads && !(rc = open_heuristic(api, q, o->cancel, &h[opened], err)))
        opened++;
    if (!rc)
        rc = threads == 1 ? ida_solve(q->start, q->goal, h, o, res, err)
                          : ida_solve_parallel(q->start, q->goal, h, threads, o, res, err);
    for (int i = 1; i < opened; i++)
        ida_heuristic_close(&h[i]);
    return rc;
}

/* IDA* in a pool slot (the heuristic's tables are built in it too), on
 * as many threads as borrow_slots finds slots; returns SLIDE_OK,
 * SLIDE_EINTR (stopped: s->stopped says why) or another error; 1 when
 * every slot is busy. */
static int run_ida(struct serve_api *api, const struct solve_request *q, struct solved *s,
                   slide_error *err)
{
    int slot[SERVE_POOL_MAX];
    if ((slot[0] = serve_pool_acquire(api->pool, q->max_seconds, q->client)) < 0)
        return 1;
    struct ida_heuristic h[SERVE_POOL_MAX];
    int rc = open_heuristic(api, q, serve_pool_flag(api->pool, slot[0]), &h[0], err);
    if (rc) {
        s->method = "ida";
        s->heuristic = q->pdb ? NULL : q->heuristic;
        s->lower_bound = 0;
        if (rc == SLIDE_EINTR)
            stopped_why(api, slot[0], q, "while the walking-distance tables were built", s,
                        err);
        serve_pool_release(api->pool, slot[0]);
        return rc;
    }
    int threads = borrow_slots(api, q, slot);
    struct ida_options o = {(uint64_t)q->max_nodes, serve_pool_flag(api->pool, slot[0]), NULL,
                            NULL, q->metric};
    struct ida_result res = {0};
    rc = search(api, q, h, threads, &o, &res, err);
    if (rc == SLIDE_EINTR) {
        char during[128];
        snprintf(during, sizeof during, "in the iteration with threshold %d: the optimum "
                 "is at least %d", res.bound, res.bound);
        stopped_why(api, slot[0], q, during, s, err);
    }
    for (int i = threads - 1; i >= 0; i--)
        serve_pool_release(api->pool, slot[i]);
    s->method = "ida";
    snprintf(s->heuristic_name, sizeof s->heuristic_name, "%s", h[0].name);
    s->heuristic = s->heuristic_name;
    s->optimal = rc == SLIDE_OK && h[0].admissible;
    s->length = rc ? -1 : res.length;
    s->lower_bound = !h[0].admissible ? 0 : rc ? res.bound : res.length;
    s->expanded = (long long)res.expanded;
    s->generated = (long long)res.generated;
    s->iterations = res.iterations;
    s->h_start = res.h_start;
    s->threads = res.threads ? res.threads : threads;
    if (!rc && !(s->moves = letters(res.moves, res.length, q->metric)))
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for %d moves", res.length);
    ida_result_free(&res);
    ida_heuristic_close(&h[0]);
    return rc == SLIDE_EINTR && s->stopped[0] ? SLIDE_EINTR : rc;
}

static int run_db(const struct db *db, const struct board *start, struct solved *s,
                  slide_error *err)
{
    unsigned char m[DB_MAX_RADIUS + 1];
    int len = 0;
    int rc = db_path(db, start, m, &len, err);
    if (rc)
        return rc;
    if (!(s->moves = letters(m, len, db->metric)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %d moves", len);
    s->method = "db";
    s->optimal = 1;
    s->length = s->lower_bound = len;
    return SLIDE_OK;
}

static int run_layers(const struct board *start, const struct board *goal, struct solved *s,
                      slide_error *err)
{
    struct layers_moves m = {0};
    int rc = layers_solve(start, goal, &m, err);
    if (!rc && !(s->moves = malloc(m.len + 1)))
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for the moves");
    if (!rc) {
        if (m.len) /* a board already at the goal has no moves (m.moves NULL) */
            memcpy(s->moves, m.moves, m.len);
        s->moves[m.len] = '\0';
        s->length = (long long)m.len;
    }
    s->method = "layers";
    layers_moves_free(&m);
    return rc;
}

/* 1 if the moves (metric m's notation) take start to goal in `length`
 * moves (the check every answer goes through): each move is replayed as
 * its unit steps, by the single-tile rules. */
static int replays(const struct board *start, const struct board *goal, enum metric m,
                   const char *moves, long long length)
{
    struct board b;
    slide_error err;
    if (board_copy(&b, start, &err))
        return 0;
    int z = board_blank(&b), ok = 1, count = 0;
    for (const char *p = moves; *p && ok; p++) {
        if (*p == ' ' && m == METRIC_MTM)
            continue; /* between moves */
        ok = move_parse(*p) >= 0 && board_move(&b, &z, (enum move)move_parse(*p)) == 0;
        count += m == METRIC_STM || p[1] != *p; /* the last letter of a move */
    }
    ok = ok && board_equal(&b, goal) && count == length;
    board_free(&b);
    return ok;
}

static json_t *figure(long long v)
{
    return v < 0 ? json_null() : json_integer(v);
}

static void reply_solved(struct serve_reply *r, const struct solved *s, double seconds)
{
    const char *status = s->stopped[0] ? "stopped" : s->optimal ? "optimal" : "found";
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:f}",
                          "status", status, "method", s->method,
                          "metric", metric_name(s->metric),
                          "heuristic", s->heuristic ? json_string(s->heuristic) : json_null(),
                          "optimal", s->optimal, "length", figure(s->length),
                          "moves", s->moves ? json_string(s->moves) : json_null(),
                          "lower_bound", figure(s->lower_bound),
                          "expanded", figure(s->expanded), "generated", figure(s->generated),
                          "iterations", figure(s->iterations), "h_start", figure(s->h_start),
                          "seconds", seconds);
    if (o && s->stopped[0])
        json_object_set_new(o, "reason", json_string(s->stopped));
    if (o && s->threads)
        json_object_set_new(o, "threads", json_integer(s->threads));
    reply_json(r, 200, o);
}

/* 422 with the parity explanation when start cannot reach goal; -1 then. */
static int refuse_unsolvable(const struct board *start, const struct board *goal,
                             struct serve_reply *r)
{
    struct parity_report pr;
    slide_error err;
    if (parity_check(start, goal, &pr, &err)) {
        reply_error(r, 400, "%s", err.msg);
        return -1;
    }
    if (pr.solvable)
        return 0;
    char why[SLIDE_ERROR_LEN];
    parity_explain(&pr, why, sizeof why);
    reply_json(r, 422, json_pack("{s:s, s:s, s:i}", "error", why, "status", "unsolvable",
                                 "expanded", 0));
    return -1;
}

/* The request's method, heuristic and caps. */
static int read_options(struct serve_api *api, json_t *f, const struct board *goal,
                        const char **method, struct solve_request *q, struct serve_reply *r)
{
    const struct serve_limits *l = api->limits;
    q->heuristic = NULL;
    q->max_nodes = (long long)l->max_nodes;
    q->max_seconds = l->max_seconds;
    if (req_string(f, "method", 0, "auto", method, r) || req_metric(f, &q->metric, r) ||
        req_string(f, "heuristic", 0, "lc", &q->heuristic, r) ||
        req_int(f, "max_nodes", 1, (long long)l->max_nodes, &q->max_nodes, r) ||
        req_seconds(f, "max_seconds", l->max_seconds, &q->max_seconds, r))
        return -1;
    *method = *method ? *method : "auto";
    static const char *const known[] = {"auto", "ida", "db", "layers", NULL};
    int ok = 0;
    for (int i = 0; known[i]; i++)
        ok |= strcmp(*method, known[i]) == 0;
    char clip[48];
    if (!ok) {
        reply_error(r, 400, "field \"method\" must be auto, ida, db or layers, not \"%s\"",
                    text_clip(clip, sizeof clip, *method, strlen(*method), 32));
        return -1;
    }
    if (q->heuristic && strcmp(*method, "ida") && strcmp(*method, "auto")) {
        reply_error(r, 400, "field \"heuristic\" is for method ida (or auto), not %s", *method);
        return -1;
    }
    if (q->metric == METRIC_MTM && !strcmp(*method, "layers")) {
        reply_error(r, 400, "method layers counts single-tile moves; in the multi-tile "
                    "metric (mtm) take auto, ida or db");
        return -1;
    }
    if (!q->heuristic) {
        best_heuristic(api, q);
        return 0;
    }
    if (!strcmp(q->heuristic, "pdb")) { /* the tables alone */
        q->heuristic = "";
        if ((q->pdb = serve_pdb_for(api, goal, q->metric)))
            return 0;
        reply_error(r, 400, "heuristic pdb: no pattern database %sis loaded for %dx%d boards "
                    "with this goal (see /api/info)", q->metric == METRIC_MTM ? "of kind mtm "
                    : "", goal->rows, goal->cols);
        return -1;
    }
    if (q->metric == METRIC_MTM && heuristic_stm_only(q->heuristic)) {
        struct ida_heuristic h; /* refused before anything is built: the CLI's words */
        slide_error err;
        ida_heuristic_open_metric(&h, q->heuristic, goal, METRIC_MTM, &err);
        reply_error(r, 400, "%s", err.msg);
        return -1;
    }
    if (!strcmp(q->heuristic, "wd")) { /* ida_heuristic_open builds its tables */
        if (serve_wd_fits(goal->rows, goal->cols))
            return 0;
        reply_error(r, 400, "heuristic wd: its tables fit boards up to 4x4, 3x5 and 2x6 (and "
                    "their transposes; one row or column up to 16 cells), not %dx%d; take "
                    "lc, manhattan or misplaced", goal->rows, goal->cols);
        return -1;
    }
    char names[160] = "";
    for (int i = 0; ida_heuristic_name(i); i++) {
        if (!strcmp(q->heuristic, ida_heuristic_name(i)))
            return 0;
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 ida_heuristic_name(i));
    }
    reply_error(r, 400, "unknown heuristic \"%s\" for IDA* (known: %s, wd, pdb)",
                text_clip(clip, sizeof clip, q->heuristic, strlen(q->heuristic), 32), names);
    return -1;
}

/* "auto": the database when one covers the board, IDA* up to
 * SERVE_AUTO_IDA_CELLS cells, layer by layer beyond (in STM; in MTM IDA*
 * at any size, within the server's limits). */
static const char *choose(const struct board *b, const char *method, const struct db *db,
                          enum metric m)
{
    if (strcmp(method, "auto"))
        return method;
    if (db)
        return "db";
    return board_cells(b) <= SERVE_AUTO_IDA_CELLS || m == METRIC_MTM ? "ida" : "layers";
}

static void solve_board(struct serve_api *api, json_t *f, int client, const struct board *b,
                        const struct board *goal, struct serve_reply *r)
{
    struct solve_request q = {b, goal, METRIC_STM, NULL, NULL, 0, 0, client};
    const char *method;
    if (read_options(api, f, goal, &method, &q, r) || refuse_unsolvable(b, goal, r))
        return;
    const struct db *db = serve_db_for(api, b, goal, q.metric);
    method = choose(b, method, db, q.metric);
    if (!strcmp(method, "db") && !db) {
        reply_error(r, 400, "method db: no database %sis loaded for %dx%d boards with this "
                    "goal (see /api/info)", q.metric == METRIC_MTM ? "of the multi-tile "
                    "metric " : "", b->rows, b->cols);
        return;
    }
    if (!strcmp(method, "ida") && q.metric == METRIC_MTM && !q.pdb && !q.heuristic[0]) {
        reply_error(r, 400, "the multi-tile metric: no heuristic bounds its moves on %dx%d "
                    "boards here (wd's tables fit up to 4x4, 3x5 and 2x6; no pattern "
                    "database of kind mtm is loaded for this goal)", b->rows, b->cols);
        return;
    }
    struct solved s = {.expanded = -1, .generated = -1, .iterations = -1, .h_start = -1,
                       .lower_bound = -1, .length = -1, .metric = q.metric};
    slide_error err;
    double t0 = now_seconds();
    int rc = !strcmp(method, "ida") ? run_ida(api, &q, &s, &err)
             : !strcmp(method, "db") ? run_db(db, b, &s, &err)
                                     : run_layers(b, goal, &s, &err);
    double seconds = now_seconds() - t0;
    if (rc == 1) {
        serve_reply_busy(api, r);
    } else if (rc && rc != SLIDE_EINTR) {
        reply_error(r, rc == SLIDE_EINVAL || rc == SLIDE_ERANGE ? 400 : 500, "%s", err.msg);
    } else if (!rc && !replays(b, goal, s.metric, s.moves, s.length)) {
        reply_error(r, 500, "internal error: the %s solution does not replay to the goal",
                    method);
    } else {
        reply_solved(r, &s, seconds);
    }
    free(s.moves);
}

void serve_solve(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    static const char *const fields[] = {"board", "goal", "method", "metric", "heuristic",
                                         "max_nodes", "max_seconds", NULL};
    struct board b = {0}, goal = {0};
    if (!req_fields(f, fields, r) && !req_board(api, f, 0, &b, &goal, r))
        solve_board(api, f, client, &b, &goal, r);
    board_free(&b);
    board_free(&goal);
}
