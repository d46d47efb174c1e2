/*
 * test_serve_mtm.c - the JSON API of slide serve in the multi-tile metric
 * (the "metric" field of /api/solve, /api/eval and /api/histogram): a
 * server in this process holds a 3x3 database of each metric (slide bfs
 * 3x3 [--metric mtm] --save).  Lengths and distances against the
 * brute-force BFS of testutil.h in each metric, every MTM solution
 * replayed by the rules-only checker of mtm_naive.h, the histogram
 * against the same BFS; the refusals (a bad metric, a heuristic that is
 * not admissible in MTM, layers, a database of the other metric) as a 400
 * with one line.
 */
#include "mtm_naive.h"
#include "clitest.h"
#include "httptest.h"
#include "jsontest.h"

#include <jansson.h>
#include <unistd.h>

#include "slide/db.h"
#include "slide/serve.h"

static char dir[] = "/tmp/slide-serve-mtm-XXXXXX";
static struct db dbs[2];         /* 3x3: [0] STM, [1] MTM */
static struct serve *srv, *srv_stm; /* both databases; the STM one alone */
static int port, port_stm;
static struct naive_set stm3, mtm3;
static uint64_t hist_mtm[40];
static int radius_mtm;
static struct board goal3;

static struct serve *start(const struct db *d, int n)
{
    struct serve_config cfg = {"127.0.0.1", 0, serve_default_limits(), d, n, NULL, 0};
    struct serve *s;
    slide_error err;
    if (serve_start(&cfg, &s, &err))
        fail_msg("serve_start: %s", err.msg);
    return s;
}

static int setup(void **state)
{
    (void)state;
    char args[256], *out;
    slide_error err;
    assert_non_null(mkdtemp(dir));
    for (int m = 0; m < 2; m++) {
        snprintf(args, sizeof args, "bfs 3x3 %s--save %s/%d.db", m ? "--metric mtm " : "",
                 dir, m);
        assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
        free(out);
        snprintf(args, sizeof args, "%s/%d.db", dir, m);
        assert_int_equal(db_load(args, 1, &dbs[m], &err), 0);
    }
    assert_int_equal(board_goal(&goal3, 3, 3, &err), 0);
    uint64_t hist[40];
    assert_int_equal(naive_bfs(3, 3, goal3.cells, hist, 40, &stm3), 31);
    radius_mtm = naive_mtm_bfs(3, 3, goal3.cells, hist_mtm, 40, &mtm3);
    srv = start(dbs, 2);
    port = serve_port(srv);
    srv_stm = start(dbs, 1);
    port_stm = serve_port(srv_stm);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    serve_stop(srv);
    serve_stop(srv_stm);
    for (int m = 0; m < 2; m++)
        db_free(&dbs[m]);
    naive_free(&stm3);
    naive_free(&mtm3);
    board_free(&goal3);
    return clitest_remove_dir(dir);
}

/* A random solvable 3x3 board (seeded) as b and text. */
static void random3(uint64_t *seed, struct board *b, char *text, size_t len)
{
    slide_error err;
    do {
        int cells[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
        test_shuffle(cells, 9, seed);
        board_free(b);
        assert_int_equal(board_alloc(b, 3, 3, &err), 0);
        memcpy(b->cells, cells, sizeof cells);
    } while (naive_lookup(&stm3, naive_pack(b->cells, 9)) < 0);
    board_format(b, text, len);
}

/* /api/solve of text in MTM with method (and heuristic, may be NULL): the
 * method named, optimal, the brute-force MTM length, the moves replayed by
 * the rules in that many moves. */
static void solve_mtm(const struct board *b, const char *text, const char *method,
                      const char *heuristic, const char *want_method)
{
    char body[256];
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"metric\": \"mtm\", \"method\": "
             "\"%s\"%s%s%s}", text, method, heuristic ? ", \"heuristic\": \"" : "",
             heuristic ? heuristic : "", heuristic ? "\"" : "");
    json_t *v = call_at(port, "POST", "/api/solve", body, 200);
    int want = naive_lookup(&mtm3, naive_pack(b->cells, 9));
    assert_string_equal(str(v, "method"), want_method);
    assert_string_equal(str(v, "metric"), "mtm");
    assert_string_equal(str(v, "status"), "optimal");
    assert_int_equal(num(v, "length"), want);
    assert_int_equal(mtm_checker(b, str(v, "moves"), &goal3), want);
    json_decref(v);
}

static void test_solve_mtm(void **state)
{
    (void)state;
    uint64_t seed = 11;
    struct board b = {0};
    char text[64];
    for (int k = 0; k < 25; k++) {
        random3(&seed, &b, text, sizeof text);
        solve_mtm(&b, text, "auto", NULL, "db");
        solve_mtm(&b, text, "db", NULL, "db");
        solve_mtm(&b, text, "ida", NULL, "ida"); /* wd of MTM, the default there */
        solve_mtm(&b, text, "ida", "wd", "ida");
    }
    board_free(&b);
    /* the server without an MTM database: auto takes IDA* */
    json_t *v = call_at(port_stm, "POST", "/api/solve",
                        "{\"board\": \"8 6 7/2 5 4/3 0 1\", \"metric\": \"mtm\"}", 200);
    assert_string_equal(str(v, "method"), "ida");
    assert_string_equal(str(v, "heuristic"), "wd");
    assert_int_equal(num(v, "length"), 20);
    json_decref(v);
}

/* No metric field, or "stm": single-tile lengths, as before. */
static void test_solve_stm_default(void **state)
{
    (void)state;
    const char *bodies[] = {"{\"board\": \"8 6 7/2 5 4/3 0 1\"}",
                            "{\"board\": \"8 6 7/2 5 4/3 0 1\", \"metric\": \"stm\"}"};
    for (int i = 0; i < 2; i++) {
        json_t *v = call_at(port, "POST", "/api/solve", bodies[i], 200);
        assert_string_equal(str(v, "metric"), "stm");
        assert_string_equal(str(v, "method"), "db");
        assert_int_equal(num(v, "length"), 31);
        assert_int_equal(strlen(str(v, "moves")), 31);
        json_decref(v);
    }
}

/* One line of error, status want, holding `part`. */
static void expect_error(int p, const char *method, const char *path, const char *body,
                         int want, const char *part)
{
    json_t *v = call_at(p, method, path, body, want);
    const char *e = str(v, "error");
    if (!strstr(e, part))
        fail_msg("\"%s\" not in: %s", part, e);
    assert_null(strchr(e, '\n'));
    json_decref(v);
}

static void test_refusals(void **state)
{
    (void)state;
    static const char board[] = "\"board\": \"8 6 7/2 5 4/3 0 1\"";
    char body[256];
    snprintf(body, sizeof body, "{%s, \"metric\": \"xtm\"}", board);
    expect_error(port, "POST", "/api/solve", body, 400,
                 "field \"metric\" must be stm (one tile one cell) or mtm");
    snprintf(body, sizeof body, "{%s, \"metric\": 1}", board);
    expect_error(port, "POST", "/api/solve", body, 400, "field \"metric\" must be a string");
    expect_error(port, "POST", "/api/eval", "{\"board\": \"1 2 3/4 5 6/7 0 8\", "
                 "\"metric\": \"MTM\"}", 400, "field \"metric\" must be stm");
    expect_error(port, "GET", "/api/histogram?size=3x3&metric=x", NULL, 400,
                 "field \"metric\" must be stm");
    static const char *const stm_only[] = {"lc", "manhattan", "misplaced"};
    for (int i = 0; i < 3; i++) {
        char want[96];
        snprintf(body, sizeof body, "{%s, \"metric\": \"mtm\", \"method\": \"ida\", "
                 "\"heuristic\": \"%s\"}", board, stm_only[i]);
        snprintf(want, sizeof want, "%s is not admissible in the multi-tile metric",
                 stm_only[i]);
        expect_error(port, "POST", "/api/solve", body, 400, want);
    }
    snprintf(body, sizeof body, "{%s, \"metric\": \"mtm\", \"method\": \"layers\"}", board);
    expect_error(port, "POST", "/api/solve", body, 400, "method layers counts single-tile");
    snprintf(body, sizeof body, "{%s, \"metric\": \"mtm\", \"method\": \"db\"}", board);
    expect_error(port_stm, "POST", "/api/solve", body, 400,
                 "no database of the multi-tile metric is loaded for 3x3");
    expect_error(port_stm, "GET", "/api/histogram?size=3x3&metric=mtm", NULL, 404,
                 "in the multi-tile metric");
    snprintf(body, sizeof body, "{%s, \"metric\": \"mtm\", \"moves\": \"UR\"}", board);
    expect_error(port, "POST", "/api/eval", body, 400, "field \"moves\"");
    snprintf(body, sizeof body, "{%s, \"metric\": \"mtm\", \"moves\": \"DD\"}", board);
    expect_error(port, "POST", "/api/eval", body, 400, "move 1 leaves the board");
}

/* Distances along MTM moves against the brute force; wd of MTM is a lower
 * bound of each. */
static void test_eval_mtm(void **state)
{
    (void)state;
    const char *moves = "U L D RR UU";
    json_t *v = call_at(port, "POST", "/api/eval", "{\"board\": \"8 6 7/2 5 4/3 0 1\", "
                        "\"metric\": \"mtm\", \"moves\": \"U L D RR UU\"}", 200);
    assert_string_equal(str(v, "metric"), "mtm");
    assert_true(json_is_true(json_object_get(v, "database")));
    json_t *path = json_object_get(v, "path");
    assert_int_equal(json_array_size(path), 6);
    struct board b;
    slide_error err;
    assert_int_equal(board_parse("8 6 7/2 5 4/3 0 1", 3, 3, &b, &err), 0);
    int z = board_blank(&b);
    for (size_t i = 0; i < 6; i++) {
        json_t *p = json_array_get(path, i);
        int d = naive_lookup(&mtm3, naive_pack(b.cells, 9));
        assert_int_equal(num(p, "distance"), d);
        assert_true(num(json_object_get(p, "h"), "wd") <= d);
        for (char c = *moves; *moves && *moves != ' '; moves++) /* one move, unit steps */
            assert_int_equal(board_move(&b, &z, (enum move)move_parse(c)), 0);
        moves += *moves == ' ';
    }
    board_free(&b);
    json_decref(v);
}

/* /api/histogram?metric=mtm against the brute-force MTM BFS; /api/info
 * names the metric of each database. */
static void test_histogram_and_info(void **state)
{
    (void)state;
    json_t *v = call_at(port, "GET", "/api/histogram?size=3x3&metric=mtm", NULL, 200);
    assert_string_equal(str(v, "metric"), "mtm");
    json_t *h = json_object_get(v, "histogram");
    assert_int_equal(json_array_size(h), (size_t)radius_mtm + 1);
    for (int d = 0; d <= radius_mtm; d++)
        assert_int_equal(json_integer_value(json_array_get(h, (size_t)d)), hist_mtm[d]);
    json_decref(v);
    v = call_at(port, "GET", "/api/histogram?size=3x3", NULL, 200);
    assert_int_equal(num(v, "radius"), 31);
    json_decref(v);
    v = call_at(port, "GET", "/api/info", NULL, 200);
    json_t *d = json_object_get(v, "databases");
    assert_int_equal(json_array_size(d), 2);
    assert_string_equal(str(json_array_get(d, 0), "metric"), "stm");
    assert_string_equal(str(json_array_get(d, 1), "metric"), "mtm");
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_mtm),
        cmocka_unit_test(test_solve_stm_default),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_eval_mtm),
        cmocka_unit_test(test_histogram_and_info),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
