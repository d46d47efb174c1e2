/*
 * serve_api.h - the JSON API of `slide serve`, independent of HTTP: a
 * request is (method, path, JSON object of fields), an answer is (status,
 * JSON text).  serve.c carries them over HTTP; the fields of a GET come
 * from the query string, those of a POST from its body.
 *
 * Endpoints (fields marked ? are optional; every board is text in slide's
 * syntax, "1 2 3/4 5 6/7 8 0"; goal defaults to 1..n-1 with the blank last):
 *   GET  /api/info        version, limits, loaded databases (with their
 *                          metric), heuristics, metrics.
 *   POST /api/solvable    {board, goal?} -> the parity verdict and numbers.
 *   POST /api/solve       {board, goal?, method?, metric?, heuristic?,
 *                          max_nodes?, max_seconds?} -> a solution (IDA*,
 *                          database descent or layer by layer) with its
 *                          figures and metric.
 *   POST /api/scramble    {size, goal?, walk?, seed?} -> a random board.
 *   POST /api/eval        {board, goal?, moves?, metric?} -> every heuristic
 *                          and, where a database is loaded, the exact
 *                          distance, of the board and of each board along
 *                          moves.
 *   GET  /api/histogram   ?size=RxC&goal=G&metric=M -> a loaded database's
 *                          histogram.
 * metric (the endpoints that count moves): "stm" (default) or "mtm", the
 * multi-tile metric (metric.h): moves in its notation ("UU L" is two
 * moves), distances from a database of that metric, IDA* with a heuristic
 * that bounds its moves (wd or pattern databases of kind mtm; lc,
 * manhattan and misplaced are refused as solve --metric mtm refuses them),
 * no layers.
 * Statuses: 200 an answer; 400 bad input ({"error": one line, the same as
 * the command line's message}); 404 unknown path or no such database; 405
 * wrong method (Allow names the right one); 413 body too large; 422 an
 * unsolvable board given to /api/solve (no node searched); 503 every search
 * slot busy (Retry-After: 1; /api/solve's IDA* and /api/eval take a slot),
 * or an evaluation stopped (time limit, server stopping, client gone); 500
 * a bug (a solution that does not replay).
 */
#ifndef SLIDE_SERVE_API_H
#define SLIDE_SERVE_API_H

#include <jansson.h>

#include "slide/db.h"
#include "slide/serve.h"
#include "slide/serve_pool.h"

struct serve_eval_cache;
struct heuristic_wd_store;

struct serve_api {
    const struct serve_limits *limits;
    const struct db *dbs;   /* borrowed */
    int ndbs;
    struct serve_pool *pool;
    /* the heuristics bound to the last few goals (built once: wd's tables
     * take up to half a second); NULL until the first /api/eval */
    struct serve_eval_cache *cache;
    const struct pdb_set *pdbs; /* borrowed, read-only (serve.h) */
    int npdbs;
    /* wd's tables, built at most once each (by the request that first
     * needs one, inside its search slot and deadline) and shared
     * read-only by /api/solve and /api/eval; NULL until serve_api_init */
    struct heuristic_wd_store *wd;
};

struct serve_reply {
    int status;            /* HTTP status */
    char *body;            /* JSON text, malloc'd (NULL: out of memory) */
    int retry_after;       /* seconds for a Retry-After header; 0: none */
    const char *allow;     /* methods for an Allow header (405); NULL: none */
};

/* Make what answering requests needs (the heuristic cache, the store of
 * wd's tables) in api, whose other fields are set.  Errors: SLIDE_ENOMEM.  Release with
 * serve_api_free after the last request. */
int serve_api_init(struct serve_api *api, slide_error *err);
void serve_api_free(struct serve_api *api);

/*
 * Answer one request.  method: "GET", "POST", ... (any bytes); path: the
 * URL path ("/api/solve"; any bytes); fields: the request's JSON value (an
 * object; NULL when the body was empty) - or, when parse_error is not
 * NULL, the body did not parse and parse_error says why.  client: the
 * request's socket, which the search pool watches so that a client that
 * closes it frees its slot at once (-1: none).  Fills reply (free
 * reply->body); an error that echoes the method or path cuts it between
 * characters and escapes invalid UTF-8 (\xHH), so it is valid JSON.
 * Thread-safe: any number of requests may be answered at once.
 */
void serve_api_handle(struct serve_api *api, const char *method, const char *path,
                      json_t *fields, const char *parse_error, int client,
                      struct serve_reply *reply);

#endif
