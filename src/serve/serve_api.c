/*
 * serve_api.c - the routes of the JSON API and its small endpoints: info,
 * solvable, scramble, histogram (serve_api.h).  solve and eval have files
 * of their own.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "request.h"
#include "slide/heuristic.h"
#include "slide/ida_heuristic.h"
#include "slide/parity.h"
#include "slide/pdb.h"
#include "slide/provenance.h"
#include "slide/scramble.h"
#include "text.h"

static json_t *db_summary(const struct db *db)
{
    return json_pack("{s:i, s:i, s:o, s:s, s:i, s:I}", "rows", db->rows, "cols", db->cols,
                     "goal", json_board(&db->goal), "metric", metric_name(db->metric),
                     "radius", db->radius, "reachable", (json_int_t)db->reachable);
}

/* One loaded pattern database set: its board, goal and tables. */
static json_t *pdb_summary(const struct pdb_set *p)
{
    json_t *tables = json_array();
    for (int i = 0; i < p->count; i++) {
        const struct pdb_table *t = &p->tables[i];
        json_t *tiles = json_array();
        for (int k = 0; k < t->pat.k; k++)
            json_array_append_new(tiles, json_integer(t->pat.tiles[k]));
        json_array_append_new(tables, json_pack("{s:s, s:o, s:i}", "kind",
                                                pdb_kind_name(t->kind),
                                                "tiles", tiles, "max", t->max));
    }
    struct board goal;
    slide_error err;
    json_t *g = pdb_set_goal(p, &goal, &err) ? json_null() : json_board(&goal);
    if (!json_is_null(g))
        board_free(&goal);
    return json_pack("{s:i, s:i, s:o, s:b, s:s, s:b, s:o}", "rows", p->rows, "cols", p->cols,
                     "goal", g, "admissible", pdb_set_admissible(p), "metric",
                     metric_name(pdb_set_metric(p)), "reflect", p->reflect, "tables", tables);
}

static void info(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    (void)client;
    static const char *const none[] = {NULL};
    if (req_fields(f, none, r))
        return;
    const struct serve_limits *l = api->limits;
    json_t *dbs = json_array(), *hs = json_array(), *ida = json_array(), *pdbs = json_array();
    for (int i = 0; i < api->ndbs; i++)
        json_array_append_new(dbs, db_summary(&api->dbs[i]));
    for (int i = 0; i < api->npdbs; i++)
        json_array_append_new(pdbs, pdb_summary(&api->pdbs[i]));
    int n;
    const struct heuristic_def *t = heuristic_table(&n);
    for (int i = 0; i < n; i++)
        json_array_append_new(hs, json_pack("{s:s, s:b, s:s}", "name", t[i].name,
                                            "admissible", t[i].admissible == HEURISTIC_YES,
                                            "summary", t[i].summary));
    /* what /api/solve takes as "heuristic" */
    for (int i = 0; ida_heuristic_name(i); i++)
        json_array_append_new(ida, json_string(ida_heuristic_name(i)));
    json_array_append_new(ida, json_string("wd"));
    if (api->npdbs)
        json_array_append_new(ida, json_string("pdb"));
    json_t *limits = json_pack("{s:I, s:i, s:I, s:f, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:i}",
                               "max_body", (json_int_t)l->max_body, "max_side", l->max_side,
                               "max_nodes", (json_int_t)l->max_nodes,
                               "max_seconds", l->max_seconds, "max_moves", l->max_moves,
                               "searches", l->searches, "connections", l->connections,
                               "per_address", l->per_address,
                               "head_seconds", l->head_seconds,
                               "read_seconds", l->read_seconds,
                               "send_seconds", l->send_seconds,
                               "auto_ida_cells", SERVE_AUTO_IDA_CELLS);
    reply_json(r, 200, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:[ssss], s:[ss]}",
                                 "version", provenance_version(), "commit", provenance_commit(),
                                 "limits", limits, "databases", dbs,
                                 "pattern_databases", pdbs, "heuristics", hs,
                                 "ida_heuristics", ida, "methods", "auto", "ida", "db",
                                 "layers", "metrics", "stm", "mtm"));
}

static const char *width_rule(const struct parity_report *p)
{
    if (p->path_graph)
        return "path";
    return p->cols % 2 ? "odd" : "even";
}

static const char *goal_kind_name(enum parity_goal_kind k)
{
    return k == PARITY_GOAL_STANDARD ? "standard"
           : k == PARITY_GOAL_BLANK_FIRST ? "blank-first" : "other";
}

/*
 * Another reading of the input (parity_hint): {size, board, goal,
 * goal_kind, solvable} - the board in that shape, towards that goal, and
 * whether it reaches it - when the board cannot reach its goal and that
 * reading can, or when a board read from one row of cells (one_line: no
 * size given) is solvable as a path but its cells form a rectangle
 * (board_rectangle; the standard goal of that shape).  NULL when there is
 * none.
 */
static json_t *hint_of(const struct board *b, const struct board *goal, int solvable,
                       int one_line)
{
    struct parity_hint h;
    slide_error err;
    int rows, cols;
    if (parity_hint(b, goal, one_line, &h, &err))
        return NULL;
    if (!h.found && !(solvable && one_line && board_rectangle(board_cells(b), &rows, &cols)))
        return NULL;
    if (h.found) {
        rows = h.rows;
        cols = h.cols;
    }
    struct board shaped = {0}, g = {0};
    json_t *o = NULL;
    if (!board_alloc(&shaped, rows, cols, &err) && !board_goal(&g, rows, cols, &err)) {
        memcpy(shaped.cells, b->cells, (size_t)board_cells(b) * sizeof *b->cells);
        if (h.found && h.goal == PARITY_GOAL_BLANK_FIRST)
            for (int k = 0; k < rows * cols; k++)
                g.cells[k] = k;
        char size[32];
        struct parity_report p = {0};
        snprintf(size, sizeof size, "%dx%d", rows, cols);
        if (!parity_check(&shaped, &g, &p, &err)) /* so the hint says what it offers */
            o = json_pack("{s:s, s:o, s:o, s:s, s:b}", "size", size, "board",
                          json_board(&shaped), "goal", json_board(&g), "goal_kind",
                          goal_kind_name(parity_goal_kind(&g)), "solvable", p.solvable);
    }
    board_free(&shaped);
    board_free(&g);
    return o;
}

static void solvable(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    (void)client;
    static const char *const fields[] = {"board", "goal", "size", "blank_first", NULL};
    struct board b = {0}, goal = {0};
    struct parity_report p;
    slide_error err;
    char why[SLIDE_ERROR_LEN];
    if (req_fields(f, fields, r) || req_board(api, f, 1, &b, &goal, r)) {
    } else if (parity_check(&b, &goal, &p, &err)) {
        reply_error(r, 400, "%s", err.msg);
    } else {
        parity_explain(&p, why, sizeof why);
        int one_line = b.rows == 1 && !json_object_get(f, "size");
        json_t *hint = hint_of(&b, &goal, p.solvable, one_line);
        reply_json(r, 200, json_pack("{s:b, s:I, s:i, s:i, s:i, s:i, s:s, s:s, s:o, s:o, s:s, "
                                     "s:o}",
                                     "solvable", p.solvable, "inversions",
                                     (json_int_t)p.inversions, "blank_row", p.blank_row,
                                     "goal_blank_row", p.goal_blank_row, "rows", p.rows,
                                     "cols", p.cols, "width_rule", width_rule(&p),
                                     "explanation", why, "board", json_board(&b), "goal",
                                     json_board(&goal), "goal_kind",
                                     goal_kind_name(parity_goal_kind(&goal)), "hint",
                                     hint ? hint : json_null()));
    }
    board_free(&b);
    board_free(&goal);
}

/* A seed from the clock when the request has none (returned, so the board
 * can be drawn again). */
static uint64_t clock_seed(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t x = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
    return rng_splitmix64(&x);
}

static void scramble(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    (void)client;
    static const char *const fields[] = {"size", "goal", "walk", "seed", NULL};
    int rows, cols, given;
    long long walk = -1;
    uint64_t seed = 0;
    struct board goal = {0}, b = {0};
    slide_error err;
    if (req_fields(f, fields, r) || req_size(api, f, &rows, &cols, r) ||
        req_int(f, "walk", 0, 1000000, &walk, r) || req_seed(f, "seed", &seed, &given, r) ||
        req_goal(f, rows, cols, &goal, r))
        goto done;
    if (!given)
        seed = clock_seed();
    struct rng g;
    rng_seed(&g, seed);
    int rc = board_alloc(&b, rows, cols, &err);
    if (!rc)
        rc = walk < 0 ? scramble_uniform(&g, &goal, &b, &err)
                      : scramble_walk(&g, &goal, (uint64_t)walk, &b, &err);
    if (rc) {
        reply_error(r, rc == SLIDE_ENOMEM ? 500 : 400, "%s", err.msg);
        goto done;
    }
    char s[24];
    snprintf(s, sizeof s, "%llu", (unsigned long long)seed);
    reply_json(r, 200, json_pack("{s:o, s:s, s:o}", "board", json_board(&b), "seed", s,
                                 "walk", walk < 0 ? json_null() : json_integer(walk)));
done:
    board_free(&goal);
    board_free(&b);
}

static void histogram(struct serve_api *api, json_t *f, int client, struct serve_reply *r)
{
    (void)client;
    static const char *const fields[] = {"size", "goal", "metric", NULL};
    int rows, cols;
    enum metric m;
    struct board goal = {0};
    if (req_fields(f, fields, r) || req_size(api, f, &rows, &cols, r) ||
        req_goal(f, rows, cols, &goal, r) || req_metric(f, &m, r))
        goto done;
    const struct db *db = serve_db_for(api, &goal, &goal, m);
    if (!db) {
        reply_error(r, 404, "no database of %dx%d boards with this goal%s is loaded (start "
                    "slide serve with --db FILE; see /api/info)", rows, cols,
                    m == METRIC_MTM ? " in the multi-tile metric" : "");
        goto done;
    }
    json_t *h = json_array();
    for (int d = 0; d <= db->radius; d++)
        json_array_append_new(h, json_integer((json_int_t)db->hist[d]));
    json_t *o = db_summary(db);
    json_object_set_new(o, "histogram", h);
    reply_json(r, 200, o);
done:
    board_free(&goal);
}

typedef void (*endpoint_fn)(struct serve_api *api, json_t *f, int client,
                            struct serve_reply *r);

static const struct route {
    const char *path, *method;
    endpoint_fn run;
} routes[] = {
    {"/api/info", "GET", info},           {"/api/histogram", "GET", histogram},
    {"/api/solvable", "POST", solvable},  {"/api/solve", "POST", serve_solve},
    {"/api/scramble", "POST", scramble},  {"/api/eval", "POST", serve_eval},
};

int serve_api_init(struct serve_api *api, slide_error *err)
{
    int rc = heuristic_wd_store_new(&api->wd, SERVE_WD_TABLE_BYTES, err);
    if (!rc)
        rc = serve_eval_cache_new(&api->cache, err);
    return rc;
}

void serve_api_free(struct serve_api *api)
{
    serve_eval_cache_free(api->cache); /* its heuristics borrow the store's tables */
    api->cache = NULL;
    heuristic_wd_store_free(api->wd);
    api->wd = NULL;
}

void serve_api_handle(struct serve_api *api, const char *method, const char *path,
                      json_t *fields, const char *parse_error, int client,
                      struct serve_reply *reply)
{
    memset(reply, 0, sizeof *reply);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        const struct route *t = &routes[i];
        if (strcmp(path, t->path))
            continue;
        if (strcmp(method, t->method) && !(strcmp(t->method, "GET") == 0 &&
                                           strcmp(method, "HEAD") == 0)) {
            char m[32];
            reply->allow = strcmp(t->method, "GET") ? t->method : "GET, HEAD";
            reply_error(reply, 405, "%s takes %s, not %s", t->path, t->method,
                        text_clip(m, sizeof m, method, strlen(method), 16));
        } else if (parse_error) {
            reply_error(reply, 400, "%s", parse_error);
        } else {
            t->run(api, fields, client, reply);
        }
        return;
    }
    char p[160];
    reply_error(reply, 404, "no such endpoint: %s (the API: /api/info, /api/solvable, "
                "/api/solve, /api/scramble, /api/eval, /api/histogram)",
                text_clip(p, sizeof p, path, strlen(path), 128));
}
