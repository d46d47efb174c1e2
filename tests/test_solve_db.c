/*
 * test_solve_db.c - `slide solve --db FILE` and `--method db` end to end
 * through the binary named by $SLIDE.  The database is written here by
 * `slide bfs 3x3 --save` (and one for another goal).  Truths independent of
 * the database: the plain hash-set BFS of testutil.h (every length is the
 * BFS distance from the goal in use), a replay of every printed solution
 * (blank moves and tiles moved) here with board_move, --method ida's answer
 * for the same boards, and the loader's own message as `slide dist` prints
 * it for the bad files.
 */
#include "testutil.h"

#include "clitest.h"
#include "slide/board.h"
#include "slide/parity.h"

static const int g33[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
static const int other33[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
#define OTHER_GOAL "0 1 2/3 4 5/6 7 8"

static char dir[256], db33[300], dbother[300];

static int setup(void **state)
{
    (void)state;
    const char *slide = getenv("SLIDE");
    char cmd[2048];
    if (!slide)
        return -1;
    snprintf(dir, sizeof dir, "/tmp/slide-test-solvedb-%d", (int)getpid());
    snprintf(db33, sizeof db33, "%s/33.db", dir);
    snprintf(dbother, sizeof dbother, "%s/33-other.db", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s bfs 3x3 --save %s --no-progress >/dev/null "
             "2>&1 && %s bfs 3x3 --goal '" OTHER_GOAL "' --save %s --no-progress >/dev/null 2>&1",
             dir, slide, db33, slide, dbother);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

static void parse(const char *text, int rows, int cols, struct board *b)
{
    slide_error err;
    if (board_parse(text, rows, cols, b, &err))
        fail_msg("cannot parse \"%.60s\": %s", text, err.msg);
}

/* count random boards of rows x cols that reach goal (cells), one per line;
 * a board of the other class gets two tiles swapped (parity, Johnson and
 * Story 1879), checked against the BFS set when it is given. */
static char *random_boards(int rows, int cols, const int *goal, int count, uint64_t seed,
                           const struct naive_set *set)
{
    int n = rows * cols, cells[20];
    size_t cap = (size_t)count * 64 + 1, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = '\0';
    struct board b;
    slide_error err;
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    for (int k = 0; k < count; k++) {
        memcpy(cells, goal, (size_t)n * sizeof *cells);
        test_shuffle(cells, n, &seed);
        memcpy(b.cells, cells, (size_t)n * sizeof *cells);
        struct board g;
        assert_int_equal(board_alloc(&g, rows, cols, &err), 0);
        memcpy(g.cells, goal, (size_t)n * sizeof *cells);
        struct parity_report pr;
        assert_int_equal(parity_check(&b, &g, &pr, &err), 0);
        board_free(&g);
        if (!pr.solvable) {
            int i = b.cells[0] == 0 ? 2 : 0, j = b.cells[1] == 0 ? 2 : 1, t = b.cells[i];
            b.cells[i] = b.cells[j];
            b.cells[j] = t;
        }
        if (set)
            assert_true(naive_lookup(set, naive_pack(b.cells, n)) >= 0);
        len += board_format(&b, text + len, cap - len);
        text[len++] = '\n';
        text[len] = '\0';
    }
    board_free(&b);
    return text;
}

/* One CSV record of solve: board, method, status, length, moves, tiles. */
struct record {
    char *board, *method, *status, *length, *moves, *tiles;
};

static void split_record(char *line, struct record *r)
{
    char *f[7], *q = line;
    for (int k = 0; k < 7; k++) { /* board..tiles_moved; no field has a comma */
        f[k] = q;
        q += strcspn(q, ",");
        if (*q)
            *q++ = '\0';
    }
    *r = (struct record){f[0], f[1], f[3], f[4], f[5], f[6]};
}

/* "$SLIDE args", which must exit with status; *out and *err (may be NULL)
 * as for clitest_run. */
static void run_ok(const char *args, const char *input, int status, char **out, char **err)
{
    int got = clitest_run(args, input, out, err);
    if (got != status)
        fail_msg("slide %s: exit %d, expected %d", args, got, status);
}

/* `solve --db file opt -` on boards the file does not cover: stdout
 * exactly --method ida's, stderr exactly the note (once for all boards).
 * Returns stdout (malloc'd). */
static char *expect_fallback(const char *file, const char *opt, const char *boards,
                             const char *note)
{
    char args[1024], *out, *ida, *err_text;
    snprintf(args, sizeof args, "solve --db %s %s -", file, opt);
    run_ok(args, boards, 0, &out, &err_text);
    snprintf(args, sizeof args, "solve --method ida %s -", opt);
    run_ok(args, boards, 0, &ida, NULL);
    assert_string_equal(out, ida);
    assert_string_equal(err_text, note);
    free(ida);
    free(err_text);
    return out;
}

/* The CSV of `solve --db ... --format csv -` for count boards: every
 * record solved by db, optimal, of the BFS distance (set) and replaying to
 * goal with its blank moves and tiles; the lengths into len[0..count-1]. */
static void check_db_csv(char *csv, int count, const struct naive_set *set,
                         const struct board *goal, int *len)
{
    char *p = csv;
    clitest_next_line(&p); /* the header */
    for (int i = 0; i < count; i++) {
        struct record r;
        struct board b;
        split_record(clitest_next_line(&p), &r);
        parse(r.board, 3, 3, &b);
        assert_string_equal(r.method, "db");
        assert_string_equal(r.status, "optimal");
        len[i] = naive_lookup(set, naive_pack(b.cells, 9));
        assert_int_equal(atoi(r.length), len[i]);
        assert_int_equal((int)strlen(r.moves), len[i]);
        clitest_replay(&b, r.moves, strlen(r.moves), r.tiles, goal);
        board_free(&b);
    }
    assert_string_equal(p, "");
}

/* 300 random 3x3 boards through --db: method db, each length the BFS
 * distance and equal to --method ida's, each solution replays to the goal
 * (moves and tiles), and not one note on stderr; --count (db_distance, no
 * path) gives IDA*'s lengths. */
static void test_db_against_bfs_and_ida(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    struct board goal;
    slide_error err;
    char args[1024], *err_text;
    assert_int_equal(naive_bfs(3, 3, g33, hist, 64, &set), 31);
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    char *boards = random_boards(3, 3, g33, 300, 77, &set);
    snprintf(args, sizeof args, "solve --db %s --format csv -", db33);
    char *out;
    run_ok(args, boards, 0, &out, &err_text);
    assert_string_equal(err_text, "");
    char *ida;
    run_ok("solve --method ida --count -", boards, 0, &ida, NULL);
    snprintf(args, sizeof args, "solve --db %s --count -", db33);
    char *counts;
    run_ok(args, boards, 0, &counts, NULL);
    assert_string_equal(counts, ida); /* the same optimum, line by line */
    int len[300];
    check_db_csv(out, 300, &set, &goal, len);
    char *pi = ida;
    for (int i = 0; i < 300; i++)
        assert_int_equal(atoi(clitest_next_line(&pi)), len[i]);
    free(boards);
    free(out);
    free(err_text);
    free(ida);
    free(counts);
    board_free(&goal);
    naive_free(&set);
}

/* The text form names the method and the optimum; the antipode takes 31;
 * the goal takes 0; an unsolvable board is recognised (exit 3). */
static void test_text_output(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "solve --db %s '8 6 7/2 5 4/3 0 1'", db33);
    char *out;
    run_ok(args, NULL, 0, &out, NULL);
    assert_non_null(strstr(out, "\nmethod: db\noptimal moves: 31\nblank moves: "));
    free(out);
    snprintf(args, sizeof args, "solve --method db --db %s --count '1 2 3/4 5 6/7 8 0'", db33);
    run_ok(args, NULL, 0, &out, NULL);
    assert_string_equal(out, "0\n");
    free(out);
    snprintf(args, sizeof args, "solve --db %s --count '1 2 3/4 5 6/8 7 0'", db33);
    run_ok(args, NULL, 3, &out, NULL);
    assert_int_equal(strncmp(out, "unsolvable: ", 12), 0);
    free(out);
}

/* --method db with a board the file does not cover: exit 2, one line on
 * stderr naming both sizes, nothing on stdout. */
static void test_method_db_other_size(void **state)
{
    (void)state;
    char args[1024], *err_text;
    snprintf(args, sizeof args, "solve --method db --db %s '1 2 3 4 5/6 7 8 0 9'", db33);
    char *out;
    run_ok(args, NULL, 2, &out, &err_text);
    assert_string_equal(out, "");
    assert_int_equal(clitest_count_lines(err_text), 1);
    assert_non_null(strstr(err_text, "3x3"));
    assert_non_null(strstr(err_text, "2x5"));
    free(out);
    free(err_text);
}

/* Plain --db on 2x5 boards: IDA*'s answers exactly, one note for all of
 * them, and the solutions replay; mixed with 3x3 boards, each goes to its
 * method. */
static void test_fallback_other_size(void **state)
{
    (void)state;
    static const int g25[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
    char args[1024], *err_text;
    struct board goal;
    slide_error err;
    char *boards = random_boards(2, 5, g25, 6, 5, NULL);
    char *out = expect_fallback(db33, "--moves", boards,
                                "slide: the database covers 3x3 boards with goal "
                                "1 2 3/4 5 6/7 8 0, not this 2x5 board; solving with "
                                "--method ida\n");
    assert_int_equal(board_goal(&goal, 2, 5, &err), 0);
    char *pb = boards, *pm = out;
    for (int i = 0; i < 6; i++) {
        struct board b;
        parse(clitest_next_line(&pb), 2, 5, &b);
        char *m = clitest_next_line(&pm);
        clitest_replay(&b, m, strlen(m), NULL, &goal);
        board_free(&b);
    }
    free(out);
    /* 3x3, 2x5, 3x3, 2x5: the note once (the same reason), methods by board */
    snprintf(args, sizeof args, "solve --db %s --format csv -", db33);
    run_ok(args, "8 6 7/2 5 4/3 0 1\n1 2 3 4 5/6 7 8 0 9\n1 2 3/4 5 6/7 0 8\n"
           "1 2 3 4 0/6 7 8 9 5\n", 0, &out, &err_text);
    assert_int_equal(clitest_count_lines(err_text), 1);
    char *p = out;
    static const char *const want[][2] = {{"db", "31"}, {"ida", "1"}, {"db", "1"},
                                          {"ida", "1"}};
    clitest_next_line(&p);
    for (int i = 0; i < 4; i++) {
        struct record r;
        split_record(clitest_next_line(&p), &r);
        assert_string_equal(r.method, want[i][0]);
        assert_string_equal(r.length, want[i][1]);
    }
    free(out);
    free(err_text);
    free(boards);
    board_free(&goal);
}

/* A database for another goal: plain --db falls back with a note naming
 * both goals; --method db refuses (exit 2); with --goal set to its goal it
 * is used, and its lengths are the BFS distances from that goal. */
static void test_other_goal(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    struct board goal;
    char args[1024], *err_text;
    char *boards = random_boards(3, 3, g33, 20, 9, NULL);
    free(expect_fallback(dbother, "--count", boards,
                         "slide: the database covers 3x3 boards with goal " OTHER_GOAL
                         ", not goal 1 2 3/4 5 6/7 8 0; solving with --method ida\n"));
    char *out;
    snprintf(args, sizeof args, "solve --method db --db %s --count -", dbother);
    run_ok(args, boards, 2, &out, &err_text);
    assert_string_equal(out, "");
    assert_int_equal(clitest_count_lines(err_text), 1);
    assert_non_null(strstr(err_text, "line 1: --method db: the database covers 3x3 boards "
                                     "with goal " OTHER_GOAL ", not goal 1 2 3/4 5 6/7 8 0"));
    free(out);
    free(err_text);
    free(boards);
    /* towards its own goal */
    naive_bfs(3, 3, other33, hist, 64, &set);
    boards = random_boards(3, 3, other33, 40, 11, &set);
    snprintf(args, sizeof args, "solve --db %s --goal '" OTHER_GOAL "' --format csv -",
             dbother);
    run_ok(args, boards, 0, &out, &err_text);
    assert_string_equal(err_text, "");
    parse(OTHER_GOAL, 3, 3, &goal);
    int len[40];
    check_db_csv(out, 40, &set, &goal, len);
    free(out);
    free(err_text);
    free(boards);
    board_free(&goal);
    naive_free(&set);
}

/* Bad files: exit 1, nothing on stdout, the loader's one line - the same
 * that `slide dist` prints for the file - for plain --db and --method db. */
static void test_bad_files(void **state)
{
    (void)state;
    char cmd[2048], bad[320], args[1024], *err_text, *dist_err, *out;
    static const char *const spoil[] = {
        "truncate -s 5000 %s",                                        /* truncated */
        "printf X | dd of=%s bs=1 seek=3000 conv=notrunc 2>/dev/null", /* payload byte */
        "printf slidx | dd of=%s bs=1 seek=16 conv=notrunc 2>/dev/null", /* magic */
        "truncate -s 0 %s",                                           /* empty */
    };
    for (size_t i = 0; i < sizeof spoil / sizeof spoil[0]; i++) {
        snprintf(bad, sizeof bad, "%s/bad%zu.db", dir, i);
        snprintf(cmd, sizeof cmd, "cp %s %s && ", db33, bad);
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), spoil[i], bad);
        assert_int_equal(system(cmd), 0);
        snprintf(args, sizeof args, "dist --db %s '1 2 3/4 5 6/7 0 8'", bad);
        run_ok(args, NULL, 1, &out, &dist_err);
        free(out);
        assert_int_equal(clitest_count_lines(dist_err), 1);
        assert_non_null(strstr(dist_err, bad));
        for (int strict = 0; strict < 2; strict++) {
            snprintf(args, sizeof args, "solve %s--db %s '1 2 3 4 5/6 7 8 0 9'",
                     strict ? "--method db " : "", bad);
            run_ok(args, NULL, 1, &out, &err_text);
            assert_string_equal(out, "");
            assert_string_equal(err_text, dist_err);
            free(out);
            free(err_text);
        }
        free(dist_err);
    }
    snprintf(args, sizeof args, "solve --db %s/missing.db '1 2 3/4 5 6/7 0 8'", dir);
    run_ok(args, NULL, 1, &out, &err_text);
    assert_int_equal(clitest_count_lines(err_text), 1);
    free(out);
    free(err_text);
}

/* Options: --db belongs to db (and its ida fallback takes --h and
 * --max-nodes); --method db needs --db; the others refuse it. */
static void test_options(void **state)
{
    (void)state;
    char args[1024], *err_text, *out;
    static const struct {
        const char *opts;
        int status;
        const char *msg;
    } cases[] = {
        {"--method layers --db %s", 2, "--db is used only with --method db, not with --method layers"},
        {"--method bibfs --db %s", 2, "--db is used only with --method db, not with --method bibfs"},
        {"--method ida --db %s", 2, "--db is used only with --method db, not with --method ida"},
        {"--method db --h lc --db %s", 2, "--h is used only with --method ida, not with --method db"},
        {"--method db --max-states 9 --db %s", 2, "--max-states is used only with --method bibfs"},
        {"--method db", 2, "--method db needs --db FILE"},
        {"--db %s --h manhattan --max-nodes 100000", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char opts[600];
        snprintf(opts, sizeof opts, cases[i].opts, db33);
        snprintf(args, sizeof args, "solve %s --count '1 2 3/4 5 6/7 0 8'", opts);
        run_ok(args, NULL, cases[i].status, &out, &err_text);
        if (cases[i].msg) {
            assert_int_equal(clitest_count_lines(err_text), 1);
            assert_non_null(strstr(err_text, cases[i].msg));
        } else {
            assert_string_equal(out, "1\n");
        }
        free(out);
        free(err_text);
    }
    run_ok("solve --help", NULL, 0, &out, NULL);
    assert_non_null(strstr(out, "--db FILE"));
    assert_non_null(strstr(out, "  db      "));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_db_against_bfs_and_ida),
        cmocka_unit_test(test_text_output),
        cmocka_unit_test(test_method_db_other_size),
        cmocka_unit_test(test_fallback_other_size),
        cmocka_unit_test(test_other_goal),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
