/*
 * serve_request.c - JSON fields in, JSON replies out (request.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"
#include "slide/pdb.h"
#include "text.h"

/* The message goes through text_clip: a request's bytes echoed in it
 * (a method, a path, a cut field name) could otherwise make it invalid
 * UTF-8, which no JSON string may hold. */
void reply_error(struct serve_reply *r, int status, const char *fmt, ...)
{
    char msg[SLIDE_ERROR_LEN + 128], safe[4 * sizeof msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    text_clip(safe, sizeof safe, msg, strlen(msg), sizeof safe - 1);
    reply_json(r, status, json_pack("{s:s}", "error", safe));
}

void serve_reply_busy(const struct serve_api *api, struct serve_reply *r)
{
    r->retry_after = 1;
    reply_error(r, 503, "all %d search slots are busy; try again in a second",
                api->limits->searches);
}

void reply_json(struct serve_reply *r, int status, json_t *v)
{
    free(r->body);
    r->status = status;
    r->body = v ? json_dumps(v, JSON_COMPACT) : NULL;
    json_decref(v);
    if (!r->body) { /* out of memory: a static text the transport copies */
        r->status = 500;
        r->body = strdup("{\"error\":\"out of memory\"}");
    }
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

int req_fields(json_t *f, const char *const *allowed, struct serve_reply *r)
{
    char list[256] = "";
    for (int i = 0; allowed[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 allowed[i]);
    if (!f)
        return 0;
    if (!json_is_object(f)) {
        reply_error(r, 400, "the request must be a JSON object (fields: %s), not %s",
                    list[0] ? list : "none", type_name(f));
        return -1;
    }
    const char *key;
    json_t *v;
    json_object_foreach(f, key, v) {
        int known = 0;
        for (int i = 0; allowed[i] && !known; i++)
            known = strcmp(key, allowed[i]) == 0;
        if (!known) {
            char k[80];
            reply_error(r, 400, "unknown field \"%s\" (allowed: %s)",
                        text_clip(k, sizeof k, key, strlen(key), 64), list[0] ? list : "none");
            return -1;
        }
    }
    return 0;
}

int req_string(json_t *f, const char *name, int required, const char *example,
               const char **out, struct serve_reply *r)
{
    json_t *v = f ? json_object_get(f, name) : NULL;
    *out = NULL;
    if (!v && !required)
        return 0;
    if (!v) {
        reply_error(r, 400, "field \"%s\" is missing (write it like \"%s\")", name, example);
        return -1;
    }
    if (!json_is_string(v)) {
        reply_error(r, 400, "field \"%s\" must be a string like \"%s\", not %s", name,
                    example, type_name(v));
        return -1;
    }
    *out = json_string_value(v);
    return 0;
}

int req_int(json_t *f, const char *name, long long lo, long long hi, long long *out,
            struct serve_reply *r)
{
    json_t *v = f ? json_object_get(f, name) : NULL;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        reply_error(r, 400, "field \"%s\" must be an integer from %lld to %lld", name, lo, hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

int req_seconds(json_t *f, const char *name, double hi, double *out, struct serve_reply *r)
{
    json_t *v = f ? json_object_get(f, name) : NULL;
    if (!v)
        return 0;
    double x = json_is_number(v) ? json_number_value(v) : -1;
    if (!(x > 0 && x <= hi)) {
        reply_error(r, 400, "field \"%s\" must be a number of seconds above 0 and at most %g",
                    name, hi);
        return -1;
    }
    *out = x;
    return 0;
}

int req_seed(json_t *f, const char *name, uint64_t *out, int *given, struct serve_reply *r)
{
    json_t *v = f ? json_object_get(f, name) : NULL;
    *given = v != NULL;
    if (!v)
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (!*s || *s < '0' || *s > '9' || *end || errno) {
        reply_error(r, 400, "field \"%s\" must be a whole number from 0 to "
                    "18446744073709551615 (an integer, or a string of digits)", name);
        return -1;
    }
    *out = (uint64_t)x;
    return 0;
}

static int check_side(int m, int rows, int cols, const char *what, struct serve_reply *r)
{
    if (rows <= m && cols <= m)
        return 0;
    reply_error(r, 400, "%s is %dx%d; slide serve takes boards up to %dx%d (the command "
                "line takes up to %dx%d)", what, rows, cols, m, m, BOARD_MAX_SIDE,
                BOARD_MAX_SIDE);
    return -1;
}

int req_size(const struct serve_api *api, json_t *f, int *rows, int *cols,
             struct serve_reply *r)
{
    const char *text;
    slide_error err;
    if (req_string(f, "size", 1, "4x4", &text, r))
        return -1;
    if (board_parse_dims(text, rows, cols, &err)) {
        reply_error(r, 400, "size: %s", err.msg);
        return -1;
    }
    return check_side(api->limits->max_side, *rows, *cols, "the size", r);
}

int req_goal(json_t *f, int rows, int cols, struct board *goal, struct serve_reply *r)
{
    const char *text;
    slide_error err;
    json_t *first = f ? json_object_get(f, "blank_first") : NULL;
    if (req_string(f, "goal", 0, "1 2 3/4 5 6/7 8 0", &text, r))
        return -1;
    if (first && !json_is_boolean(first)) {
        reply_error(r, 400, "field \"blank_first\" must be true or false");
        return -1;
    }
    if (first && text) {
        reply_error(r, 400, "give the goal as \"goal\" or as \"blank_first\", not both");
        return -1;
    }
    int rc = text ? board_parse_goal(text, rows, cols, goal, &err)
                  : board_goal(goal, rows, cols, &err);
    if (!rc && json_is_true(first)) /* 0 1 .. n-1: Korf's convention */
        for (int k = 0; k < rows * cols; k++)
            goal->cells[k] = k;
    if (rc) {
        reply_error(r, rc == SLIDE_ENOMEM ? 500 : 400, "goal: %s", err.msg);
        return -1;
    }
    return 0;
}

int req_board(const struct serve_api *api, json_t *f, int any_side, struct board *b,
              struct board *goal, struct serve_reply *r)
{
    const char *text, *size;
    slide_error err;
    int rows = 0, cols = 0;
    *b = (struct board){0};
    *goal = (struct board){0};
    if (req_string(f, "board", 1, "1 2 3/4 5 6/7 8 0", &text, r) ||
        req_string(f, "size", 0, "4x4", &size, r))
        return -1;
    if (size && board_parse_dims(size, &rows, &cols, &err)) {
        reply_error(r, 400, "size: %s", err.msg);
        return -1;
    }
    int rc = board_parse(text, rows, cols, b, &err);
    if (rc) {
        reply_error(r, rc == SLIDE_ENOMEM ? 500 : 400, "%s", err.msg);
        return -1;
    }
    if (!any_side && check_side(api->limits->max_side, b->rows, b->cols, "the board", r))
        return -1;
    return req_goal(f, b->rows, b->cols, goal, r);
}

json_t *json_board(const struct board *b)
{
    size_t need = board_format(b, NULL, 0) + 1;
    char *s = malloc(need);
    if (!s)
        return NULL;
    board_format(b, s, need);
    json_t *v = json_string(s);
    free(s);
    return v;
}

int req_metric(json_t *f, enum metric *out, struct serve_reply *r)
{
    const char *text;
    *out = METRIC_STM;
    if (req_string(f, "metric", 0, "mtm", &text, r))
        return -1;
    if (!text)
        return 0;
    int m = metric_parse(text);
    if (m < 0) {
        char clip[48];
        reply_error(r, 400, "field \"metric\" must be stm (one tile one cell) or mtm (the "
                    "blank jumps along its row or column), not \"%s\"",
                    text_clip(clip, sizeof clip, text, strlen(text), 32));
        return -1;
    }
    *out = (enum metric)m;
    return 0;
}

const struct db *serve_db_for(const struct serve_api *api, const struct board *b,
                              const struct board *goal, enum metric m)
{
    slide_error err;
    for (int i = 0; i < api->ndbs; i++)
        if (api->dbs[i].metric == m && db_match(&api->dbs[i], b, goal, &err) == SLIDE_OK)
            return &api->dbs[i];
    return NULL;
}

const struct pdb_set *serve_pdb_for(const struct serve_api *api, const struct board *goal,
                                    enum metric m)
{
    for (int i = 0; i < api->npdbs; i++) {
        const struct pdb_set *p = &api->pdbs[i];
        int same = p->rows == goal->rows && p->cols == goal->cols;
        for (int k = 0; same && k < p->n; k++)
            same = goal->cells[k] == p->tables[0].pat.goal_cells[k];
        if (same && pdb_set_admissible(p) && (m == METRIC_STM || pdb_set_metric(p) == m))
            return p;
    }
    return NULL;
}
