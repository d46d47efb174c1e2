/*
 * serve_eval.c - POST /api/eval: every heuristic of heuristic.h and, where
 * a loaded database covers the board, its exact distance - for one board
 * and for each board along a sequence of moves (the page's chart of h and
 * d along a solution).
 */
#include <stdlib.h>
#include <string.h>

#include "request.h"
#include "slide/heuristic.h"

struct evaluator {
    struct heuristic *h;   /* count rows of the table; def NULL when refused */
    int count;
    const struct db *db;
};

static void evaluator_free(struct evaluator *e)
{
    for (int i = 0; e->h && i < e->count; i++)
        heuristic_free(&e->h[i]);
    free(e->h);
}

/* Bind every heuristic to goal; one that cannot be built for this size
 * (wd's tables too large) is left out (its value is null). */
static int evaluator_init(struct evaluator *e, const struct board *goal, slide_error *err)
{
    const struct heuristic_def *table = heuristic_table(&e->count);
    if (!(e->h = calloc((size_t)e->count, sizeof *e->h)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristics");
    for (int i = 0; i < e->count; i++) {
        int rc = heuristic_init(&e->h[i], table[i].name, goal, err);
        if (rc == SLIDE_ENOMEM)
            return rc;
        if (rc)
            memset(&e->h[i], 0, sizeof e->h[i]);
    }
    return SLIDE_OK;
}

/* {"distance": d|null, "h": {name: value|null, ...}} of board b. */
static json_t *evaluate(const struct evaluator *e, const struct board *b)
{
    const struct heuristic_def *table = heuristic_table(&(int){0});
    json_t *h = json_object(), *o = json_object();
    for (int i = 0; i < e->count; i++)
        json_object_set_new(h, table[i].name, e->h[i].def
                                                  ? json_integer(heuristic_eval(&e->h[i], b->cells))
                                                  : json_null());
    int d;
    slide_error err;
    int known = e->db && db_distance(e->db, b, &d, &err) == SLIDE_OK;
    json_object_set_new(o, "distance", known ? json_integer(d) : json_null());
    json_object_set_new(o, "h", h);
    return o;
}

/* The boards along moves, each evaluated; NULL and a 400 on an illegal move. */
static json_t *along(const struct evaluator *e, const struct board *start, const char *moves,
                     struct serve_reply *r)
{
    struct board b;
    slide_error err;
    if (board_copy(&b, start, &err)) {
        reply_error(r, 500, "%s", err.msg);
        return NULL;
    }
    json_t *path = json_array();
    json_array_append_new(path, evaluate(e, &b));
    int z = board_blank(&b);
    for (size_t i = 0; moves[i]; i++) {
        int m = move_parse(moves[i]);
        if (m < 0 || board_move(&b, &z, (enum move)m)) {
            reply_error(r, 400, "field \"moves\": move %zu ('%c') %s", i + 1, moves[i],
                        m < 0 ? "is not one of U, D, L, R" : "leaves the board");
            json_decref(path);
            path = NULL;
            break;
        }
        json_array_append_new(path, evaluate(e, &b));
    }
    board_free(&b);
    return path;
}

static void eval_board(struct serve_api *api, json_t *f, const struct board *b,
                       const struct board *goal, struct serve_reply *r)
{
    const char *moves;
    if (req_string(f, "moves", 0, "UULDR", &moves, r))
        return;
    if (moves && strlen(moves) > (size_t)api->limits->max_moves) {
        reply_error(r, 400, "field \"moves\" has %zu moves; slide serve evaluates at most %d",
                    strlen(moves), api->limits->max_moves);
        return;
    }
    struct evaluator e = {NULL, 0, serve_db_for(api, b, goal)};
    slide_error err;
    if (evaluator_init(&e, goal, &err)) {
        reply_error(r, 500, "%s", err.msg);
    } else {
        json_t *o = evaluate(&e, b), *path = moves ? along(&e, b, moves, r) : NULL;
        json_object_set_new(o, "database", json_boolean(e.db != NULL));
        if (path)
            json_object_set_new(o, "path", path);
        if (!moves || path)
            reply_json(r, 200, o);
        else
            json_decref(o);
    }
    evaluator_free(&e);
}

void serve_eval(struct serve_api *api, json_t *f, struct serve_reply *r)
{
    static const char *const fields[] = {"board", "goal", "moves", NULL};
    struct board b = {0}, goal = {0};
    if (!req_fields(f, fields, r) && !req_board(api, f, &b, &goal, r))
        eval_board(api, f, &b, &goal, r);
    board_free(&b);
    board_free(&goal);
}
