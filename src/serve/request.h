/*
 * request.h - reading a request's JSON fields and writing JSON replies,
 * shared by the endpoints of serve_api.c and serve_solve.c (internal).
 *
 * Every req_* function returns 0, or -1 after filling the reply with a 400
 * and one line naming the field, what was wrong and what is allowed; the
 * caller then just returns.
 */
#ifndef SLIDE_SERVE_REQUEST_H
#define SLIDE_SERVE_REQUEST_H

#include <jansson.h>

#include "slide/board.h"
#include "slide/serve_api.h"

/* Fill r with status and {"error": message}. */
void reply_error(struct serve_reply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Fill r with 503, Retry-After: 1 and "all N search slots are busy". */
void serve_reply_busy(const struct serve_api *api, struct serve_reply *r);

/* Fill r with status and the JSON text of v; takes v's reference. */
void reply_json(struct serve_reply *r, int status, json_t *v);

/* Refuse fields not in allowed (NULL-terminated) and a body that is not an
 * object; an empty body (f NULL) counts as {}. */
int req_fields(json_t *f, const char *const *allowed, struct serve_reply *r);

/* A string field: *out is NULL when absent and not required. */
int req_string(json_t *f, const char *name, int required, const char *example,
               const char **out, struct serve_reply *r);

/* An integer field in [lo, hi]; *out untouched when absent. */
int req_int(json_t *f, const char *name, long long lo, long long hi, long long *out,
            struct serve_reply *r);

/* A number field in (0, hi]; *out untouched when absent. */
int req_seconds(json_t *f, const char *name, double hi, double *out, struct serve_reply *r);

/* A 64-bit seed: an integer >= 0 or a string of decimal digits (JavaScript
 * numbers are exact only up to 2^53).  *given is 0 when absent. */
int req_seed(json_t *f, const char *name, uint64_t *out, int *given, struct serve_reply *r);

/* The size field "RxC" within the server's side limit. */
int req_size(const struct serve_api *api, json_t *f, int *rows, int *cols,
             struct serve_reply *r);

/* The "board" (required) and "goal" (optional) fields, parsed, within the
 * server's side limit unless any_side (then any size board.h accepts; the
 * body limit bounds it); free both with board_free (also after an error).
 * "size" ("RxC", optional) reads a flat list of cells as board_parse does;
 * an endpoint that does not list it refuses it (req_fields). */
int req_board(const struct serve_api *api, json_t *f, int any_side, struct board *b,
              struct board *goal, struct serve_reply *r);

/* The goal field for a board of rows x cols (default: the standard goal),
 * or "blank_first": true for 0 1 .. n-1 (where the endpoint lists it). */
int req_goal(json_t *f, int rows, int cols, struct board *goal, struct serve_reply *r);

/* A board as a JSON string ("1 2 3/4 5 6/7 8 0"); NULL when out of memory. */
json_t *json_board(const struct board *b);

/* The optional "metric" field: "stm" (the default) or "mtm" (metric.h);
 * anything else is refused naming the two. */
int req_metric(json_t *f, enum metric *out, struct serve_reply *r);

/* The loaded database that answers for boards of b's size towards goal in
 * metric m, or NULL. */
const struct db *serve_db_for(const struct serve_api *api, const struct board *b,
                              const struct board *goal, enum metric m);

/* The first loaded admissible pattern database set built for boards shaped
 * like goal and for that goal that bounds moves of metric m (any
 * admissible set bounds STM; MTM needs tables of kind mtm), or NULL. */
const struct pdb_set *serve_pdb_for(const struct serve_api *api, const struct board *goal,
                                    enum metric m);

/* 1 when wd's tables fit a rows x cols board (4x4, 3x5, 2x6 and smaller,
 * their transposes, one line of up to 16 cells): beyond, building them
 * fails only after seconds of work, so the server does not try. */
int serve_wd_fits(int rows, int cols);

/* The heuristic cache of /api/eval (serve_api.h); errors: SLIDE_ENOMEM. */
int serve_eval_cache_new(struct serve_eval_cache **out, slide_error *err);
void serve_eval_cache_free(struct serve_eval_cache *c);

/* The endpoints that take a slot of the pool; client is the socket of the
 * request (the pool's watchdog cancels the work when it closes; -1: none). */
void serve_solve(struct serve_api *api, json_t *f, int client, struct serve_reply *r);
void serve_eval(struct serve_api *api, json_t *f, int client, struct serve_reply *r);

#endif
