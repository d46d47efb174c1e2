/*
 * test_serve.c - the JSON API of slide serve over HTTP: the server runs in
 * this process on an ephemeral loopback port, with a 3x3 distance database
 * written by `slide bfs 3x3 --save`.  Every endpoint is checked against an
 * independent truth: the plain hash-set BFS of testutil.h (verdicts,
 * distances, optimal lengths), solutions replayed here, heuristics counted
 * here, the published 3x3 histogram; every bad input against its
 * documented status and message.  A second server holds 3x3 pattern
 * databases (tiles 1-4 and 5-8, additive, built by `slide pdb build`): its
 * IDA* lengths and pdb values are checked against the same BFS.
 */
#include "testutil.h"
#include "clitest.h"
#include "httptest.h"
#include "jsontest.h"

#include <fcntl.h>
#include <jansson.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slide/db.h"
#include "slide/pdb.h"
#include "slide/serve.h"

static char dir[] = "/tmp/slide-serve-test-XXXXXX";
static struct db db3;
static struct serve *srv;
static int port;
static struct pdb_set pdb3;   /* 3x3, tiles 1-4 + 5-8, additive */
static struct serve *srv_pdb; /* a server with pdb3 and no database */
static int port_pdb;
static struct naive_set truth3; /* distance of every solvable 3x3 board */
static const int goal3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};

static struct serve *start_server(int searches)
{
    struct serve_config cfg = {"127.0.0.1", 0, serve_default_limits(), &db3, 1, NULL, 0};
    cfg.limits.searches = searches;
    struct serve *s;
    slide_error err;
    if (serve_start(&cfg, &s, &err))
        fail_msg("serve_start: %s", err.msg);
    return s;
}

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    char args[256], *out;
    snprintf(args, sizeof args, "bfs 3x3 --save %s/3x3.db", dir);
    assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "%s/3x3.db", dir);
    slide_error err;
    assert_int_equal(db_load(args, 1, &db3, &err), 0);
    uint64_t hist[40];
    assert_int_equal(naive_bfs(3, 3, goal3, hist, 40, &truth3), 31);
    srv = start_server(2);
    port = serve_port(srv);
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "pdb build 3x3 --pattern %s -o %s/%c.pdb",
                 i ? "5-8" : "1-4", dir, "ab"[i]);
        assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
        free(out);
    }
    snprintf(args, sizeof args, "%s/a.pdb+%s/b.pdb", dir, dir);
    assert_int_equal(pdb_set_load(&pdb3, args, 0, 1, &err), 0);
    struct serve_config cfg = {"127.0.0.1", 0, serve_default_limits(), NULL, 0, &pdb3, 1};
    if (serve_start(&cfg, &srv_pdb, &err))
        fail_msg("serve_start: %s", err.msg);
    port_pdb = serve_port(srv_pdb);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    serve_stop(srv);
    serve_stop(srv_pdb);
    pdb_set_free(&pdb3);
    db_free(&db3);
    naive_free(&truth3);
    return clitest_remove_dir(dir);
}

/* call_at the first server (the one with the 3x3 database). */
static json_t *call(const char *method, const char *path, const char *json, int want)
{
    return call_at(port, method, path, json, want);
}

/* A 3x3 board as text, and its distance from the naive BFS (-1: none). */
static int board3(const int *cells, char *text, size_t len)
{
    snprintf(text, len, "%d %d %d/%d %d %d/%d %d %d", cells[0], cells[1], cells[2], cells[3],
             cells[4], cells[5], cells[6], cells[7], cells[8]);
    return naive_lookup(&truth3, naive_pack(cells, 9));
}

/* Inversions counted pair by pair, the blank skipped (standard goal). */
static int inversions(const int *cells, int n)
{
    int inv = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            inv += cells[i] && cells[j] && cells[i] > cells[j];
    return inv;
}

static void test_info(void **state)
{
    (void)state;
    json_t *v = call("GET", "/api/info", NULL, 200);
    json_t *dbs = json_object_get(v, "databases");
    assert_int_equal(json_array_size(dbs), 1);
    json_t *d = json_array_get(dbs, 0);
    assert_int_equal(num(d, "rows"), 3);
    assert_int_equal(num(d, "radius"), 31);
    assert_int_equal(num(d, "reachable"), 181440);
    assert_string_equal(str(d, "goal"), "1 2 3/4 5 6/7 8 0");
    json_t *l = json_object_get(v, "limits");
    assert_int_equal(num(l, "max_body"), SERVE_MAX_BODY);
    assert_int_equal(num(l, "max_side"), SERVE_MAX_SIDE);
    assert_int_equal(num(l, "searches"), 2);
    json_decref(v);
}

/* The verdict of 300 random 3x3 arrangements against reachability in the
 * BFS, and the inversions against a pairwise count. */
static void test_solvable_3x3(void **state)
{
    (void)state;
    uint64_t seed = 77;
    int cells[9];
    char text[64], body[128];
    for (int k = 0; k < 300; k++) {
        memcpy(cells, goal3, sizeof cells);
        test_shuffle(cells, 9, &seed);
        int d = board3(cells, text, sizeof text);
        snprintf(body, sizeof body, "{\"board\": \"%s\"}", text);
        json_t *v = call("POST", "/api/solvable", body, 200);
        assert_int_equal(json_is_true(json_object_get(v, "solvable")), d >= 0);
        assert_int_equal(num(v, "inversions"), inversions(cells, 9));
        assert_string_equal(str(v, "width_rule"), "odd");
        json_decref(v);
    }
}

/* Sam Loyd's 14-15 board: one inversion, blank at home, even width. */
static void test_solvable_loyd(void **state)
{
    (void)state;
    json_t *v = call("POST", "/api/solvable",
                     "{\"board\": \"1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0\"}", 200);
    assert_false(json_is_true(json_object_get(v, "solvable")));
    assert_int_equal(num(v, "inversions"), 1);
    assert_int_equal(num(v, "blank_row"), 3);
    assert_int_equal(num(v, "goal_blank_row"), 3);
    assert_string_equal(str(v, "width_rule"), "even");
    json_decref(v);
    /* the same text as `slide solvable` prints (a consistency test) */
    char *out;
    assert_int_equal(clitest_run("solvable '1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0'", NULL,
                                 &out, NULL), 0);
    v = call("POST", "/api/solve", "{\"board\": \"1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0\"}",
             422);
    out[strcspn(out, "\n")] = '\0';
    assert_string_equal(str(v, "error"), out);
    assert_string_equal(str(v, "status"), "unsolvable");
    assert_int_equal(num(v, "expanded"), 0);
    json_decref(v);
    free(out);
}

/* /api/solvable as the page's board field uses it: a flat list with a
 * size, the blank-first goal, the board and goal as parsed, and the hint
 * for another reading (the hint's claims: test_parity against a BFS; the
 * convention of Korf's instance 1: Korf 1985, blank first). */
static void test_solvable_field(void **state)
{
    (void)state;
    const char *korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    char body[256];
    snprintf(body, sizeof body, "{\"board\": \"%s\"}", korf1); /* one line: 1x16 */
    json_t *v = call("POST", "/api/solvable", body, 200), *h;
    assert_int_equal(num(v, "rows"), 1);
    assert_int_equal(num(v, "cols"), 16);
    assert_false(json_is_true(json_object_get(v, "solvable")));
    assert_string_equal(str(v, "goal_kind"), "standard");
    h = json_object_get(v, "hint");
    assert_string_equal(str(h, "size"), "4x4");
    assert_string_equal(str(h, "board"), "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3");
    assert_string_equal(str(h, "goal"), "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15");
    assert_string_equal(str(h, "goal_kind"), "blank-first");
    assert_true(json_is_true(json_object_get(h, "solvable")));
    json_decref(v);
    /* the hint taken: the size and the blank-first goal */
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"size\": \"4x4\", \"blank_first\": true}",
             korf1);
    v = call("POST", "/api/solvable", body, 200);
    assert_true(json_is_true(json_object_get(v, "solvable")));
    assert_string_equal(str(v, "board"), "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3");
    assert_string_equal(str(v, "goal"), "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15");
    assert_string_equal(str(v, "goal_kind"), "blank-first");
    assert_true(json_is_null(json_object_get(v, "hint")));
    json_decref(v);
    /* any syntax the command line takes: commas, newlines, '_' */
    v = call("POST", "/api/solvable", "{\"board\": \"1,2,3\\n4,5,6\\n7,_,8\"}", 200);
    assert_string_equal(str(v, "board"), "1 2 3/4 5 6/7 0 8");
    assert_true(json_is_null(json_object_get(v, "hint")));
    json_decref(v);
    /* solvable as a path, but 16 cells: the 4x4 reading offered */
    v = call("POST", "/api/solvable", "{\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\"}",
             200);
    assert_true(json_is_true(json_object_get(v, "solvable")));
    h = json_object_get(v, "hint");
    assert_string_equal(str(h, "size"), "4x4");
    assert_string_equal(str(h, "goal_kind"), "standard");
    assert_true(json_is_true(json_object_get(h, "solvable")));
    json_decref(v);
    static const char *const bad[][2] = {
        {"{\"board\": \"1 2 3/4 5 6/7 8 0\", \"goal\": \"1 2 3/4 5 6/7 8 0\", \"blank_first\": "
         "true}", "give the goal as \"goal\" or as \"blank_first\", not both"},
        {"{\"board\": \"1 2 3/4 5 6/7 8 0\", \"blank_first\": 1}",
         "field \"blank_first\" must be true or false"},
        {"{\"board\": \"1 2 3 4 5 6 7 0\", \"size\": \"3x3\"}", NULL},
        {"{\"board\": \"1 2 3/4 5 6/7 8 0\", \"size\": \"3y3\"}", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = call("POST", "/api/solvable", bad[i][0], 400);
        if (bad[i][1])
            assert_string_equal(str(v, "error"), bad[i][1]);
        json_decref(v);
    }
    /* the same message as the command line for a bad size */
    char *out, *err;
    clitest_run("solvable --size 3x3 '1 2 3 4 5 6 7 0'", NULL, &out, &err);
    v = call("POST", "/api/solvable", bad[2][0], 400);
    assert_non_null(strstr(err, str(v, "error")));
    json_decref(v);
    free(out);
    free(err);
    /* solve takes no size */
    v = call("POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"size\": \"3x3\"}", 400);
    assert_non_null(strstr(str(v, "error"), "unknown field \"size\""));
    json_decref(v);
}

/* Solve one 3x3 board on the server at port p with the request's extra
 * fields (", \"method\": ..."); check the method, the heuristic (want_h,
 * unless NULL), the length against the BFS, and replay the moves here. */
static void solve3_at(int p, const int *cells, const char *extra, const char *want_method,
                      const char *want_h)
{
    char text[64], body[192];
    int d = board3(cells, text, sizeof text);
    assert_true(d >= 0);
    snprintf(body, sizeof body, "{\"board\": \"%s\"%s}", text, extra);
    json_t *v = call_at(p, "POST", "/api/solve", body, 200);
    assert_string_equal(str(v, "method"), want_method);
    if (want_h)
        assert_string_equal(str(v, "heuristic"), want_h);
    const char *moves = str(v, "moves");
    struct board b, goal;
    slide_error err;
    assert_int_equal(board_parse(text, 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_true(test_replay(&b, moves, strlen(moves), &goal));
    assert_int_equal(num(v, "length"), (long long)strlen(moves));
    if (strcmp(want_method, "layers")) {
        assert_int_equal(num(v, "length"), d);
        assert_true(json_is_true(json_object_get(v, "optimal")));
        assert_string_equal(str(v, "status"), "optimal");
    } else {
        assert_true(num(v, "length") >= d);
        assert_false(json_is_true(json_object_get(v, "optimal")));
        assert_string_equal(str(v, "status"), "found");
    }
    board_free(&b);
    board_free(&goal);
    json_decref(v);
}

/* Solve one 3x3 board by method on the first server. */
static void solve3(const int *cells, const char *method, const char *want_method)
{
    char extra[64];
    snprintf(extra, sizeof extra, ", \"method\": \"%s\"", method);
    solve3_at(port, cells, extra, want_method, NULL);
}

/* The next random solvable 3x3 board into cells (a shuffle of the goal). */
static void random_solvable3(int *cells, uint64_t *seed)
{
    char text[64];
    do {
        memcpy(cells, goal3, 9 * sizeof *cells);
        test_shuffle(cells, 9, seed);
    } while (board3(cells, text, sizeof text) < 0);
}

static void test_solve_3x3(void **state)
{
    (void)state;
    uint64_t seed = 5;
    int cells[9];
    for (int k = 0; k < 40; k++) {
        random_solvable3(cells, &seed);
        solve3(cells, "auto", "db");
        solve3(cells, "ida", "ida");
        solve3(cells, "layers", "layers");
    }
    /* the antipodes, distance 31 */
    const int far1[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1}, far2[9] = {6, 4, 7, 8, 5, 0, 3, 2, 1};
    solve3(far1, "ida", "ida");
    solve3(far2, "db", "db");
}

/* IDA* with wd, as serve --help lists it: optimal lengths against the BFS;
 * a size its tables do not fit is refused at once; /api/info lists it. */
static void test_solve_wd(void **state)
{
    (void)state;
    uint64_t seed = 9;
    int cells[9];
    for (int k = 0; k < 20; k++) {
        random_solvable3(cells, &seed);
        solve3_at(port, cells, ", \"method\": \"ida\", \"heuristic\": \"wd\"", "ida", "wd");
    }
    const int far1[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1};
    solve3_at(port, far1, ", \"method\": \"ida\", \"heuristic\": \"wd\"", "ida", "wd");
    json_t *s = call("POST", "/api/scramble", "{\"size\": \"6x6\", \"seed\": 1}", 200);
    char body[512];
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"method\": \"ida\", \"heuristic\": "
             "\"wd\"}", str(s, "board"));
    json_t *v = call("POST", "/api/solve", body, 400);
    assert_string_equal(str(v, "error"), "heuristic wd: its tables fit boards up to 4x4, 3x5 "
                        "and 2x6 (and their transposes; one row or column up to 16 cells), "
                        "not 6x6; take lc, manhattan or misplaced");
    json_decref(v);
    json_decref(s);
    v = call("POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"heuristic\": "
             "\"wd2\"}", 400);
    assert_string_equal(str(v, "error"), "unknown heuristic \"wd2\" for IDA* (known: lc, "
                        "manhattan, misplaced, wd, pdb)");
    json_decref(v);
    /* what /api/info says /api/solve takes: pdb only where tables are loaded */
    for (int i = 0; i < 2; i++) {
        v = call_at(i ? port_pdb : port, "GET", "/api/info", NULL, 200);
        char names[128] = "";
        json_t *h = json_object_get(v, "ida_heuristics"), *e;
        size_t k;
        json_array_foreach(h, k, e)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? "," : "",
                     json_string_value(e));
        assert_string_equal(names, i ? "lc,manhattan,misplaced,wd,pdb"
                                     : "lc,manhattan,misplaced,wd");
        json_decref(v);
    }
}

/* A 4x4 board from a walk: IDA* with lc, replayed; the length is at most
 * the walk, of its parity, and at least the Manhattan distance counted
 * here. */
static void test_solve_4x4(void **state)
{
    (void)state;
    json_t *s = call("POST", "/api/scramble", "{\"size\": \"4x4\", \"walk\": 40, \"seed\": 3}", 200);
    char body[256];
    snprintf(body, sizeof body, "{\"board\": \"%s\"}", str(s, "board"));
    json_t *v = call("POST", "/api/solve", body, 200);
    assert_string_equal(str(v, "method"), "ida");
    assert_string_equal(str(v, "heuristic"), "lc");
    struct board b, goal;
    slide_error err;
    assert_int_equal(board_parse(str(s, "board"), 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    const char *moves = str(v, "moves");
    assert_true(test_replay(&b, moves, strlen(moves), &goal));
    int md = 0;
    for (int c = 0; c < 16; c++)
        if (b.cells[c])
            md += abs(c / 4 - (b.cells[c] - 1) / 4) + abs(c % 4 - (b.cells[c] - 1) % 4);
    long long len = num(v, "length");
    assert_true(len <= 40 && len % 2 == 0 && len >= md);
    assert_true(num(v, "expanded") > 0);
    board_free(&b);
    board_free(&goal);
    json_decref(v);
    json_decref(s);
}

/*
 * Parallel IDA* in the server (issue 43): a 4x4 board of 1,173,759
 * expansions with lc, whose iterations are split among the threads, on the
 * two-slot server: one thread per slot (the machine's processors
 * allowing), the same length and the same path as `slide solve` on one
 * thread (the CLI's output parsed here; the parallel search keeps the
 * serial path), replayed here; then a node cap below the search's size
 * stops it with exactly that many expansions.
 */
static void test_solve_parallel(void **state)
{
    (void)state;
    const char *board = "1 8 6 10/2 5 11 3/13 9 15 12/7 0 14 4";
    char *out, *p, want[256] = "";
    int cli_len = -1;
    assert_int_equal(clitest_runf(&out, NULL, "solve --h lc --threads 1 \"%s\"", board), 0);
    if ((p = strstr(out, "optimal moves: ")))
        cli_len = atoi(p + strlen("optimal moves: "));
    if ((p = strstr(out, "blank moves: ")))
        sscanf(p + strlen("blank moves: "), "%255s", want);
    free(out);
    assert_int_equal(cli_len, 42);
    char body[256];
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"heuristic\": \"lc\"}", board);
    json_t *v = call("POST", "/api/solve", body, 200);
    assert_string_equal(str(v, "status"), "optimal");
    assert_int_equal(num(v, "threads"), omp_get_num_procs() >= 2 ? 2 : 1);
    assert_int_equal(num(v, "length"), cli_len);
    assert_string_equal(str(v, "moves"), want);
    struct board b, goal;
    slide_error err;
    assert_int_equal(board_parse(board, 0, 0, &b, &err), 0);
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_true(test_replay(&b, str(v, "moves"), strlen(str(v, "moves")), &goal));
    json_decref(v);
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"heuristic\": \"lc\", "
             "\"max_nodes\": 654321}", board);
    v = call("POST", "/api/solve", body, 200);
    assert_string_equal(str(v, "status"), "stopped");
    assert_non_null(strstr(str(v, "reason"), "node limit"));
    assert_int_equal(num(v, "expanded"), 654321);
    assert_true(json_is_null(json_object_get(v, "moves")));
    json_decref(v);
    board_free(&b);
    board_free(&goal);
}

/* Caps: one expansion, then a time limit, each answers "stopped" with a
 * lower bound; the bound never exceeds the Manhattan distance + ... (it is
 * a proven bound: at most the true distance, at least h(board)). */
static void test_solve_caps(void **state)
{
    (void)state;
    const char *hard = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"; /* distance 80 */
    char body[256];
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"max_nodes\": 1}", hard);
    json_t *v = call("POST", "/api/solve", body, 200);
    assert_string_equal(str(v, "status"), "stopped");
    assert_true(json_is_null(json_object_get(v, "moves")));
    long long lb = num(v, "lower_bound");
    assert_true(lb >= num(v, "h_start") && lb <= 80);
    assert_non_null(strstr(str(v, "reason"), "node limit"));
    json_decref(v);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"max_seconds\": 0.3}", hard);
    v = call("POST", "/api/solve", body, 200);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    assert_string_equal(str(v, "status"), "stopped");
    assert_non_null(strstr(str(v, "reason"), "time limit of 0.3 s"));
    assert_true(num(v, "lower_bound") <= 80);
    assert_true(wall < 2.0);
    json_decref(v);
}

/* Scrambles: the same seed gives the same board as `slide scramble`
 * (consistency); a walk of k moves ends at a distance <= k of k's parity. */
static void test_scramble(void **state)
{
    (void)state;
    json_t *v = call("POST", "/api/scramble", "{\"size\": \"4x4\", \"seed\": 12345}", 200);
    char *out;
    assert_int_equal(clitest_run("scramble 4x4 --seed 12345", NULL, &out, NULL), 0);
    out[strcspn(out, "\n")] = '\0';
    assert_string_equal(str(v, "board"), out);
    assert_string_equal(str(v, "seed"), "12345");
    free(out);
    json_decref(v);
    v = call("POST", "/api/scramble", "{\"size\": \"3x3\", \"seed\": \"18446744073709551615\"}", 200);
    assert_string_equal(str(v, "seed"), "18446744073709551615");
    json_decref(v);
    for (int k = 0; k < 30; k++) {
        char body[128];
        snprintf(body, sizeof body, "{\"size\": \"3x3\", \"walk\": %d, \"seed\": %d}", k, k + 1);
        v = call("POST", "/api/scramble", body, 200);
        struct board b;
        slide_error err;
        assert_int_equal(board_parse(str(v, "board"), 0, 0, &b, &err), 0);
        int d = naive_lookup(&truth3, naive_pack(b.cells, 9));
        assert_true(d >= 0 && d <= k && d % 2 == k % 2);
        board_free(&b);
        json_decref(v);
    }
}

/* eval: the distance against the BFS, misplaced and Manhattan counted here,
 * every admissible h at most d, and the path's boards one by one. */
static void test_eval(void **state)
{
    (void)state;
    const int cells[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1};
    char text[64], body[256];
    int d = board3(cells, text, sizeof text);
    snprintf(body, sizeof body, "{\"board\": \"%s\", \"moves\": \"URUL\"}", text);
    json_t *v = call("POST", "/api/eval", body, 200);
    assert_true(json_is_true(json_object_get(v, "database")));
    assert_int_equal(num(v, "distance"), d);
    json_t *h = json_object_get(v, "h");
    int mis = 0, man = 0;
    for (int c = 0; c < 9; c++)
        if (cells[c]) {
            mis += cells[c] != goal3[c];
            man += abs(c / 3 - (cells[c] - 1) / 3) + abs(c % 3 - (cells[c] - 1) % 3);
        }
    assert_int_equal(num(h, "misplaced"), mis);
    assert_int_equal(num(h, "manhattan"), man);
    assert_true(num(h, "lc") >= man && num(h, "lc") <= d && num(h, "wd") <= d);
    json_t *path = json_object_get(v, "path");
    assert_int_equal(json_array_size(path), 5);
    struct board b;
    slide_error err;
    assert_int_equal(board_parse(text, 0, 0, &b, &err), 0);
    int z = board_blank(&b);
    for (size_t i = 0; i < 5; i++) {
        if (i)
            assert_int_equal(board_move(&b, &z, (enum move)move_parse("URUL"[i - 1])), 0);
        json_t *p = json_array_get(path, i);
        assert_int_equal(num(p, "distance"), naive_lookup(&truth3, naive_pack(b.cells, 9)));
    }
    board_free(&b);
    json_decref(v);
    /* no database for 2x4: the distance is null, the heuristics are there */
    v = call("POST", "/api/eval", "{\"board\": \"1 2 3 4/5 6 0 7\"}", 200);
    assert_true(json_is_null(json_object_get(v, "distance")));
    assert_false(json_is_true(json_object_get(v, "database")));
    assert_int_equal(num(json_object_get(v, "h"), "manhattan"), 1);
    assert_int_equal(num(json_object_get(v, "h"), "wd"), 1);
    json_decref(v);
    /* 5x5: wd's tables would not fit, so it is not tried (null at once);
     * the others are there: one tile one cell off */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    v = call("POST", "/api/eval",
             "{\"board\": \"1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24\"}",
             200);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(json_is_null(json_object_get(json_object_get(v, "h"), "wd")));
    assert_int_equal(num(json_object_get(v, "h"), "lc"), 1);
    assert_true(t1.tv_sec - t0.tv_sec < 2);
    json_decref(v);
}

/* The histogram against the published 8-puzzle counts (tests/data). */
static void test_histogram(void **state)
{
    (void)state;
    uint64_t pub[64];
    int n = published_histogram(3, 3, "corner", pub, 64);
    assert_int_equal(n, 32);
    json_t *v = call("GET", "/api/histogram?size=3x3", NULL, 200);
    json_t *h = json_object_get(v, "histogram");
    assert_int_equal(json_array_size(h), (size_t)n);
    for (int d = 0; d < n; d++)
        assert_int_equal(json_integer_value(json_array_get(h, (size_t)d)), pub[d]);
    json_decref(v);
    v = call("GET", "/api/histogram?size=4x4", NULL, 404);
    assert_non_null(strstr(str(v, "error"), "no database of 4x4 boards"));
    json_decref(v);
    v = call("GET", "/api/histogram?size=3x3&goal=0%201%202/3%204%205/6%207%208", NULL, 404);
    json_decref(v);
}

/* Every bad input: the documented status and message. */
static void test_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *method, *path, *body;
        int status;
        const char *error;
    } cases[] = {
        {"POST", "/api/solve", "{\"board\":", 400, "malformed JSON at line 1"},
        {"POST", "/api/solve", "[1, 2]", 400, "must be a JSON object"},
        {"POST", "/api/solve", "\"1 2 3/4 5 6/7 8 0\"", 400, "must be a JSON object"},
        {"POST", "/api/solve", "{}", 400, "field \"board\" is missing"},
        {"POST", "/api/solve", "{\"board\": 5}", 400, "field \"board\" must be a string"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"colour\": 1}", 400,
         "unknown field \"colour\""},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"board\": \"x\"}", 400,
         "duplicate object key"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"method\": \"magic\"}", 400,
         "must be auto, ida, db or layers"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"heuristic\": \"magic\"}",
         400, "unknown heuristic \"magic\" for IDA* (known: lc, "},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"heuristic\": \"pdb\"}", 400,
         "heuristic pdb: no pattern database is loaded for 3x3 boards"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"max_nodes\": 0}", 400,
         "\"max_nodes\" must be an integer from 1"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"max_nodes\": \"9\"}", 400,
         "\"max_nodes\" must be an integer"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"max_seconds\": 1e9}", 400,
         "\"max_seconds\" must be a number"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3 4/5 6 7 0\", \"method\": \"db\"}", 400,
         "method db: no database is loaded for 2x4"},
        {"POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"goal\": \"1 2/3 0\"}", 400,
         "goal: "},
        {"POST", "/api/solvable", "{\"board\": \"1 2 3/4 5 6/7 8\"}", 400, "row 3 has 2 cells"},
        {"POST", "/api/scramble", "{\"size\": \"0x3\"}", 400, "size: "},
        {"POST", "/api/scramble", "{\"size\": \"33x2\"}", 400, "up to 32x32"},
        {"POST", "/api/scramble", "{\"size\": \"3x3\", \"walk\": -1}", 400,
         "\"walk\" must be an integer from 0"},
        {"POST", "/api/scramble", "{\"size\": \"3x3\", \"seed\": \"12x\"}", 400,
         "\"seed\" must be a whole number"},
        {"POST", "/api/scramble", "{\"size\": \"3x3\", \"seed\": -4}", 400,
         "\"seed\" must be a whole number"},
        {"POST", "/api/eval", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"moves\": \"DD\"}", 400,
         "move 1 ('D') leaves the board"},
        {"POST", "/api/eval", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"moves\": \"UX\"}", 400,
         "move 2 ('X') is not one of U, D, L, R"},
        {"GET", "/api/histogram", NULL, 400, "field \"size\" is missing"},
        {"GET", "/api/histogram?size=3x3&bins=4", NULL, 400, "unknown field \"bins\""},
        {"GET", "/api/solve", NULL, 405, "/api/solve takes POST, not GET"},
        {"DELETE", "/api/solve", NULL, 405, "takes POST"},
        {"POST", "/api/info", "{}", 405, "/api/info takes GET"},
        {"GET", "/api/nothing", NULL, 404, "no such endpoint"},
        {"POST", "/", "{}", 405, "take GET or HEAD"},
        {"GET", "/secret.txt", NULL, 404, "no such page"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *v = call(cases[i].method, cases[i].path, cases[i].body, cases[i].status);
        const char *e = str(v, "error");
        if (!strstr(e, cases[i].error))
            fail_msg("%s %s %s: error \"%s\" lacks \"%s\"", cases[i].method, cases[i].path,
                     cases[i].body ? cases[i].body : "", e, cases[i].error);
        json_decref(v);
    }
}

/* Board errors carry the command line's own message (a consistency test). */
static void test_bad_board_same_as_cli(void **state)
{
    (void)state;
    static const char *const boards[] = {"1 2 3/4 5 5/7 8 0", "1 2 3/4 5 6/7 8 9",
                                         "1 2 3/4 5/7 8 0", "1 2 x/4 5 6/7 8 0", ""};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        char args[128], body[128], *out, *err;
        snprintf(args, sizeof args, "solvable '%s'", boards[i]);
        int rc = clitest_run(args, NULL, &out, &err);
        assert_int_equal(rc, 2);
        err[strcspn(err, "\n")] = '\0';
        assert_true(strncmp(err, "slide: ", 7) == 0);
        snprintf(body, sizeof body, "{\"board\": \"%s\"}", boards[i]);
        json_t *v = call("POST", "/api/solvable", body, 400);
        assert_string_equal(str(v, "error"), err + 7);
        json_decref(v);
        free(out);
        free(err);
    }
}

/* A body over 64 KiB: 413 (announced by Content-Length: refused unread). */
static void test_huge_body(void **state)
{
    (void)state;
    size_t len = SERVE_MAX_BODY + 1;
    char *big = malloc(len + 1);
    memset(big, ' ', len);
    big[len] = '\0';
    big[0] = '{';
    big[len - 1] = '}';
    json_t *v = call("POST", "/api/solve", big, 413);
    assert_non_null(strstr(str(v, "error"), "larger than 65536 bytes"));
    json_decref(v);
    /* just under the limit is read and parsed: {} with blanks -> board missing */
    big[SERVE_MAX_BODY - 1] = '}';
    big[SERVE_MAX_BODY] = '\0';
    v = call("POST", "/api/solve", big, 400);
    assert_non_null(strstr(str(v, "error"), "field \"board\" is missing"));
    json_decref(v);
    free(big);
    /* a board too big for the server, within the body limit */
    char *text = malloc(40 * 40 * 5);
    size_t n = 0;
    for (int c = 0; c < 33 * 33; c++)
        n += (size_t)sprintf(text + n, "%d%s", c == 33 * 33 - 1 ? 0 : 33 * 33 - 1 - c,
                             c % 33 == 32 ? (c == 33 * 33 - 1 ? "" : "/") : " ");
    char *body = malloc(n + 32);
    sprintf(body, "{\"board\": \"%s\"}", text);
    v = call("POST", "/api/solve", body, 400);
    assert_non_null(strstr(str(v, "error"), "the board is 33x33; slide serve takes boards up to 32x32"));
    json_decref(v);
    /* the parity verdict takes any size the command line does (O(n log n)):
     * this 33x33 board has the 1088 tiles in reverse order, so every pair is
     * an inversion: 1088 * 1087 / 2, even, and the width is odd */
    v = call("POST", "/api/solvable", body, 200);
    assert_true(json_is_true(json_object_get(v, "solvable")));
    assert_int_equal(num(v, "inversions"), 1088 * 1087 / 2);
    json_decref(v);
    free(body);
    free(text);
}

/* The page and its files come from the binary. */
static void test_page(void **state)
{
    (void)state;
    static const char *const files[][2] = {{"/", "text/html"}, {"/index.html", "text/html"},
                                           {"/app.js", "text/javascript"},
                                           {"/style.css", "text/css"},
                                           {"/favicon.svg", "image/svg+xml"},
                                           {"/favicon.ico", "image/svg+xml"}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        struct http_answer a;
        assert_int_equal(http_request(port, "GET", files[i][0], NULL, 0, &a), 200);
        char type[128], csp[256];
        assert_true(http_header(&a, "Content-Type", type, sizeof type));
        assert_non_null(strstr(type, files[i][1]));
        assert_true(http_header(&a, "Content-Security-Policy", csp, sizeof csp));
        assert_true(a.body_len > 100);
        http_answer_free(&a);
    }
}

/* A search in the single slot of a second server. */
struct long_search {
    int port;
    json_t *answer;
};

static void *run_long_search(void *arg)
{
    struct long_search *s = arg;
    struct http_answer a;
    http_post(s->port, "/api/solve",
              "{\"board\": \"0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1\", \"max_seconds\": 3}", &a);
    s->answer = a.status == 200 ? json_loads(a.body, 0, NULL) : NULL;
    http_answer_free(&a);
    return NULL;
}

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* With one slot busy a second search gets 503 and Retry-After: 1, cheap
 * requests are still answered, and serve_stop cancels the running search
 * (it answers "stopped") and returns at once. */
static void test_pool_and_stop(void **state)
{
    (void)state;
    struct serve *s = start_server(1);
    struct long_search ls = {serve_port(s), NULL};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_long_search, &ls), 0);
    struct http_answer a;
    int busy = 0;
    for (int tries = 0; tries < 200 && !busy; tries++) {
        struct timespec pause = {0, 10000000};
        nanosleep(&pause, NULL);
        http_post(ls.port, "/api/solve", "{\"board\": \"1 2 3/4 5 6/0 7 8\", \"method\": \"ida\"}",
                  &a);
        busy = a.status == 503;
        if (busy) {
            char retry[16];
            assert_true(http_header(&a, "Retry-After", retry, sizeof retry));
            assert_string_equal(retry, "1");
            assert_non_null(strstr(a.body, "search slots are busy"));
        } else {
            assert_int_equal(a.status, 200);
        }
        http_answer_free(&a);
    }
    assert_true(busy);
    assert_int_equal(http_post(ls.port, "/api/solvable", "{\"board\": \"1 2/3 0\"}", &a), 200);
    http_answer_free(&a);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    serve_stop(s);
    double took = since(&t0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(took < 1.5);
    assert_non_null(ls.answer);
    assert_string_equal(str(ls.answer, "status"), "stopped");
    json_decref(ls.answer);
}

static void test_bind_errors(void **state)
{
    (void)state;
    struct serve_config cfg = {"localhost", 0, serve_default_limits(), NULL, 0, NULL, 0};
    struct serve *s;
    slide_error err;
    assert_int_equal(serve_start(&cfg, &s, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "is not an IP address"));
    cfg.bind = "127.0.0.1";
    cfg.port = port; /* taken by the test server */
    assert_int_equal(serve_start(&cfg, &s, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "cannot listen on 127.0.0.1 port"));
    cfg.port = 0;
    cfg.limits.searches = 0;
    assert_int_equal(serve_start(&cfg, &s, &err), SLIDE_EINVAL);
}

/* The command's own errors: one line, exit status 2 (bad arguments) or 1
 * (a database that cannot be read). */
static void test_cli_errors(void **state)
{
    (void)state;
    static const struct {
        const char *args;
        int status;
        const char *error;
    } cases[] = {
        {"serve --thr 2", 2, "slide: unknown option --thr"},
        {"serve --port 1 --port 2", 2, "slide: option --port is given twice"},
        {"serve --port 70000", 2, "slide: --port expects a whole number from 0 to 65535"},
        {"serve --threads 0", 2, "slide: --threads expects a whole number from 1 to 64"},
        {"serve --max-seconds 0", 2, "slide: --max-seconds expects a number of seconds"},
        {"serve --max-nodes x", 2, "slide: --max-nodes expects a whole number"},
        {"serve extra", 2, "slide: serve takes no arguments, not \"extra\""},
        {"serve --port 0 --bind localhost", 2, "slide: bind address \"localhost\" is not an IP"},
        {"serve --port 0 --db /nonexistent/x.db", 1, "slide: /nonexistent/x.db: "},
        {"serve --reflect", 2, "slide: option --reflect is used only with --pdb SETS"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int rc = clitest_run(cases[i].args, NULL, &out, &err);
        if (rc != cases[i].status || strncmp(err, cases[i].error, strlen(cases[i].error)) ||
            clitest_count_lines(err) != 1)
            fail_msg("slide %s: status %d, stderr %s", cases[i].args, rc, err);
        free(out);
        free(err);
    }
}

/* /api/info of the pdb server lists its set: board, goal, tables. */
static void test_pdb_info(void **state)
{
    (void)state;
    json_t *v = call_at(port_pdb, "GET", "/api/info", NULL, 200);
    json_t *sets = json_object_get(v, "pattern_databases");
    assert_int_equal(json_array_size(sets), 1);
    json_t *p = json_array_get(sets, 0);
    assert_int_equal(num(p, "rows"), 3);
    assert_int_equal(num(p, "cols"), 3);
    assert_string_equal(str(p, "goal"), "1 2 3/4 5 6/7 8 0");
    assert_true(json_is_true(json_object_get(p, "admissible")));
    json_t *t = json_object_get(p, "tables");
    assert_int_equal(json_array_size(t), 2);
    assert_string_equal(str(json_array_get(t, 1), "kind"), "additive");
    assert_int_equal(json_array_size(json_object_get(json_array_get(t, 1), "tiles")), 4);
    assert_int_equal(json_array_size(json_object_get(v, "databases")), 0);
    json_decref(v);
    /* the first server has none */
    v = call("GET", "/api/info", NULL, 200);
    assert_int_equal(json_array_size(json_object_get(v, "pattern_databases")), 0);
    json_decref(v);
}

/* One 3x3 solve on the pdb server: IDA*, the heuristic named, the length
 * equal to the naive BFS distance (solve3_at). */
static void solve3_pdb(const int *cells, const char *extra, const char *want_h)
{
    solve3_at(port_pdb, cells, extra, "ida", want_h);
}

static void test_pdb_solve(void **state)
{
    (void)state;
    uint64_t seed = 11;
    int cells[9];
    for (int k = 0; k < 40; k++) {
        random_solvable3(cells, &seed);
        solve3_pdb(cells, "", "max(lc,pdb)");
        solve3_pdb(cells, ", \"heuristic\": \"pdb\"", "pdb");
    }
    const int far1[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1}, far2[9] = {6, 4, 7, 8, 5, 0, 3, 2, 1};
    solve3_pdb(far1, ", \"method\": \"ida\"", "max(lc,pdb)");
    solve3_pdb(far2, ", \"heuristic\": \"pdb\"", "pdb");
    /* a heuristic asked by name is used, the tables aside */
    solve3_pdb(far1, ", \"heuristic\": \"manhattan\"", "manhattan");
}

/* eval's pdb value on 300 random solvable 3x3 boards and along a path:
 * never above the BFS distance, never below Manhattan (the additive tables
 * count every tile move of their tiles; Korf and Felner 2002). */
static void test_pdb_eval(void **state)
{
    (void)state;
    uint64_t seed = 23;
    int cells[9], exact = 0;
    for (int k = 0; k < 300; k++) {
        random_solvable3(cells, &seed);
        char text[64], body[160];
        int d = board3(cells, text, sizeof text);
        snprintf(body, sizeof body, "{\"board\": \"%s\", \"moves\": \"URDL\"}", text);
        struct http_answer a;
        http_request(port_pdb, "POST", "/api/eval", body, strlen(body), &a);
        int moved = a.status == 200;
        http_answer_free(&a);
        if (!moved) /* a move leaves the board: evaluate the board alone */
            snprintf(body, sizeof body, "{\"board\": \"%s\"}", text);
        json_t *v = call_at(port_pdb, "POST", "/api/eval", body, 200);
        json_t *h = json_object_get(v, "h");
        long long p = num(h, "pdb");
        assert_true(p <= d);
        assert_true(p >= num(h, "manhattan"));
        exact += p == d;
        json_t *path = json_object_get(v, "path");
        struct board b;
        slide_error err;
        assert_int_equal(board_parse(text, 0, 0, &b, &err), 0);
        int z = board_blank(&b);
        for (size_t i = 0; moved && i < 5; i++) {
            if (i)
                assert_int_equal(board_move(&b, &z, (enum move)move_parse("URDL"[i - 1])), 0);
            long long pi = num(json_object_get(json_array_get(path, i), "h"), "pdb");
            assert_true(pi <= naive_lookup(&truth3, naive_pack(b.cells, 9)));
        }
        board_free(&b);
        json_decref(v);
    }
    assert_true(exact > 0); /* the check above can be met with equality */
}

/* Boards of another size or goal: IDA* falls back to lc, eval's pdb is
 * null, and the tables cannot be asked for by name. */
static void test_pdb_fallback(void **state)
{
    (void)state;
    json_t *v = call_at(port_pdb, "POST", "/api/solve",
                        "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"goal\": \"0 1 2/3 4 5/6 7 8\"}",
                        200);
    assert_string_equal(str(v, "heuristic"), "lc");
    assert_string_equal(str(v, "status"), "optimal");
    json_decref(v);
    /* 2x4, one tile one cell off */
    v = call_at(port_pdb, "POST", "/api/solve", "{\"board\": \"1 2 3 4/5 6 0 7\"}", 200);
    assert_string_equal(str(v, "heuristic"), "lc");
    assert_int_equal(num(v, "length"), 1);
    json_decref(v);
    v = call_at(port_pdb, "POST", "/api/eval", "{\"board\": \"1 2 3 4/5 6 0 7\"}", 200);
    assert_true(json_is_null(json_object_get(json_object_get(v, "h"), "pdb")));
    json_decref(v);
    v = call_at(port_pdb, "POST", "/api/eval",
                "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"goal\": \"0 1 2/3 4 5/6 7 8\"}", 200);
    assert_true(json_is_null(json_object_get(json_object_get(v, "h"), "pdb")));
    json_decref(v);
    v = call_at(port_pdb, "POST", "/api/solve",
                "{\"board\": \"1 2 3 4/5 6 0 7\", \"heuristic\": \"pdb\"}", 400);
    assert_string_equal(str(v, "error"), "heuristic pdb: no pattern database is loaded for "
                                         "2x4 boards with this goal (see /api/info)");
    json_decref(v);
    /* the server without tables: lc, and pdb null */
    v = call("POST", "/api/solve", "{\"board\": \"1 2 3/4 5 6/7 0 8\", \"method\": \"ida\"}",
             200);
    assert_string_equal(str(v, "heuristic"), "lc");
    json_decref(v);
}

/* A bad --pdb is refused at start with slide solve's one-line message. */
static void test_pdb_cli_errors(void **state)
{
    (void)state;
    char bad[300], args[700], *out, *err, *solve_err;
    snprintf(bad, sizeof bad, "%s/bad.pdb", dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("not a table\n", f);
    fclose(f);
    const char *files[] = {bad, "/nonexistent/x.pdb"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "solve \"1 2 3/4 5 6/7 0 8\" --h pdb:%s", files[i]);
        assert_int_equal(clitest_run(args, NULL, &out, &solve_err), 1);
        free(out);
        snprintf(args, sizeof args, "serve --port 0 --pdb %s/a.pdb+%s", dir, files[i]);
        assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
        assert_int_equal(clitest_count_lines(err), 1);
        assert_non_null(strstr(err, files[i]));
        assert_string_equal(err, solve_err);
        free(out);
        free(err);
        free(solve_err);
    }
    snprintf(args, sizeof args, "serve --port 0 --pdb %s/a.pdb+%s/a.pdb", dir, dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
    assert_int_equal(clitest_count_lines(err), 1);
    assert_non_null(strstr(err, "overlap"));
    free(out);
    free(err);
    /* an empty set name is refused, not skipped (strtok_r would skip it) */
    const char *empty[] = {",", "%s/a.pdb,", ",%s/a.pdb", "%s/a.pdb,,%s/b.pdb"};
    for (int i = 0; i < 4; i++) {
        char spec[600];
        snprintf(spec, sizeof spec, empty[i], dir, dir);
        snprintf(args, sizeof args, "serve --port 0 --pdb '%s'", spec);
        assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
        assert_non_null(strstr(err, "an empty set name"));
        assert_int_equal(clitest_count_lines(err), 1);
        free(out);
        free(err);
    }
    /* bad input, not a bad file: exit 2 as slide solve --h pdb: */
    snprintf(args, sizeof args, "pdb build 2x4 --pattern 1-3 -o %s/c24.pdb", dir);
    assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
    free(out);
    snprintf(args, sizeof args, "serve --port 0 --pdb %s/a.pdb+%s/c24.pdb", dir, dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
    assert_non_null(strstr(err, "is for another board or goal than the first table"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
}

/* `$SLIDE serve --port 0 --pdb SPEC [--reflect]` as a process: its port,
 * or -1 with its exit status in *status when it did not start. */
static int spawn_serve(const char *spec, int reflect, pid_t *pid, int *status)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    *pid = fork();
    assert_true(*pid >= 0);
    if (*pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        close(fds[0]);
        close(fds[1]);
        execl(getenv("SLIDE"), "slide", "serve", "--port", "0", "--pdb", spec,
              reflect ? "--reflect" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[256] = "";
    int p = -1;
    if (fgets(line, sizeof line, f) && sscanf(line, "http://127.0.0.1:%d/", &p) == 1) {
        fclose(f);
        return p;
    }
    fclose(f);
    assert_int_equal(waitpid(*pid, status, 0), *pid);
    *status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
    return -1;
}

/* --pdb DIR (the tables pdb build --partition writes, NAME.K.pdb) with
 * --reflect: the set and the reflection in /api/info, optimal lengths
 * against the BFS; a directory of no table or of two partitions refused. */
static void test_cli_pdb_dir(void **state)
{
    (void)state;
    char part[128], from[128], to[160];
    snprintf(part, sizeof part, "%s/part", dir);
    assert_int_equal(mkdir(part, 0755), 0);
    pid_t pid;
    int status = 0;
    assert_int_equal(spawn_serve(part, 0, &pid, &status), -1);
    assert_int_equal(status, 1); /* no table in it */
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/%c.pdb", dir, "ab"[i]);
        snprintf(to, sizeof to, "%s/m.%d.pdb", part, i + 1);
        assert_int_equal(link(from, to), 0);
    }
    int p = spawn_serve(part, 1, &pid, &status);
    assert_true(p > 0);
    json_t *v = call_at(p, "GET", "/api/info", NULL, 200);
    json_t *set = json_array_get(json_object_get(v, "pattern_databases"), 0);
    assert_int_equal(json_array_size(json_object_get(set, "tables")), 2);
    assert_true(json_is_true(json_object_get(set, "reflect")));
    assert_true(json_is_true(json_object_get(set, "admissible")));
    json_decref(v);
    uint64_t seed = 29;
    int cells[9];
    for (int k = 0; k < 10; k++) {
        random_solvable3(cells, &seed);
        solve3_at(p, cells, ", \"heuristic\": \"pdb\"", "ida", "pdb");
    }
    const int far1[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1};
    solve3_at(p, far1, "", "ida", "max(lc,pdb)");
    assert_int_equal(kill(pid, SIGTERM), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* a second partition beside the first is refused, naming both */
    snprintf(to, sizeof to, "%s/other.1.pdb", part);
    assert_int_equal(link(from, to), 0);
    char args[256], *out, *err;
    snprintf(args, sizeof args, "serve --port 0 --pdb %s", part);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "holds the tables of two partitions"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_solvable_3x3),
        cmocka_unit_test(test_solvable_loyd),
        cmocka_unit_test(test_solvable_field),
        cmocka_unit_test(test_solve_3x3),
        cmocka_unit_test(test_solve_4x4),
        cmocka_unit_test(test_solve_wd),
        cmocka_unit_test(test_solve_caps),
        cmocka_unit_test(test_solve_parallel),
        cmocka_unit_test(test_scramble),
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_bad_board_same_as_cli),
        cmocka_unit_test(test_huge_body),
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_pool_and_stop),
        cmocka_unit_test(test_bind_errors),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_pdb_info),
        cmocka_unit_test(test_pdb_solve),
        cmocka_unit_test(test_pdb_eval),
        cmocka_unit_test(test_pdb_fallback),
        cmocka_unit_test(test_cli_pdb_dir),
        cmocka_unit_test(test_pdb_cli_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
