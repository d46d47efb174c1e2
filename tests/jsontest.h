/*
 * jsontest.h - the JSON side of the server tests (test_serve*.c): a call to
 * the API whose status must be the one expected and whose answer must be
 * JSON of the API's content type, and the typed fields of an answer.
 * Include after testutil.h and httptest.h.
 */
#ifndef SLIDE_JSONTEST_H
#define SLIDE_JSONTEST_H

#include <jansson.h>

/* Send method path (body json, NULL for none) to the server at port p;
 * the answer's status must be want; returns its JSON. */
static inline json_t *call_at(int p, const char *method, const char *path, const char *json,
                              int want)
{
    struct http_answer a;
    http_request(p, method, path, json, json ? strlen(json) : 0, &a);
    if (a.status != want)
        fail_msg("%s %s %s: status %d, not %d: %s", method, path, json ? json : "",
                 a.status, want, a.body);
    json_error_t e;
    json_t *v = json_loads(a.body, 0, &e);
    if (!v)
        fail_msg("%s %s: the answer is not JSON: %s", method, path, a.body);
    char type[128];
    assert_true(http_header(&a, "Content-Type", type, sizeof type));
    assert_string_equal(type, "application/json; charset=utf-8");
    http_answer_free(&a);
    return v;
}

static inline const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        fail_msg("field %s is not a string", key);
    return json_string_value(v);
}

static inline long long num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("field %s is not an integer", key);
    return json_integer_value(v);
}

#endif
