/*
 * test_mtm_cli.c - `slide solve --metric mtm` (cmd_solve.c): lengths of
 * every method against the brute-force MTM BFS of mtm_naive.h, paths from
 * the output replayed by mtm_checker (the rules and the notation only), the
 * tiles line checked by replaying the moves by hand, and the refusals (a
 * method or heuristic that counts single-tile moves, a bad metric) as one
 * line and exit 2.  Distance databases in MTM (bfs --metric mtm --save):
 * dist and solve --method db against the brute force and IDA*, db info and
 * verify, files of the other metric refused, format 1 files still read.
 */
#include "mtm_naive.h"

#include "clitest.h"
#include "slide/parity.h"

#include <unistd.h>

/* The value of the line "key: value" in out (copied into buf). */
static void line_value(const char *out, const char *key, char *buf, size_t len)
{
    const char *p = strstr(out, key);
    if (!p)
        fail_msg("no \"%s\" in:\n%s", key, out);
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    assert_true(n < len);
    memcpy(buf, p, n);
    buf[n] = '\0';
}

/* The tiles of each move (comma-joined, moves space-separated), replayed by
 * hand from b along the MTM moves `moves`. */
static void expect_tiles(const struct board *b, const char *moves, const char *tiles)
{
    char want[4096] = "";
    int cells[64], n = board_cells(b), z = 0;
    for (int i = 0; i < n; i++)
        if (!(cells[i] = b->cells[i]))
            z = i;
    for (const char *p = moves; *p; p++) {
        if (*p == ' ') {
            strcat(want, " ");
            continue;
        }
        int t = *p == 'U' ? z - b->cols : *p == 'D' ? z + b->cols : *p == 'L' ? z - 1 : z + 1;
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d",
                 p > moves && p[-1] != ' ' ? "," : "", cells[t]);
        cells[z] = cells[t];
        cells[t] = 0;
        z = t;
    }
    assert_string_equal(tiles, want);
}

static void test_solve_mtm_methods(void **state)
{
    (void)state;
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    naive_mtm_bfs(3, 3, goal.cells, hist, 64, &set);
    static const char *boards[] = {"8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1",
                                   "1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 8 0"};
    static const char *methods[] = {"--method ida", "--method bibfs", "--h wd"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        assert_int_equal(board_parse(boards[i], 0, 0, &b, &err), 0);
        int want = naive_lookup(&set, naive_pack(b.cells, 9));
        for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
            char *out, *e, moves[512], tiles[1024], len[32];
            assert_int_equal(clitest_runf(&out, &e, "solve --metric mtm %s '%s'", methods[m],
                                          boards[i]), 0);
            line_value(out, "optimal moves: ", len, sizeof len);
            assert_int_equal(atoi(len), want);
            line_value(out, "blank moves: ", moves, sizeof moves);
            assert_int_equal(mtm_checker(&b, moves, &goal), want);
            line_value(out, "tiles moved: ", tiles, sizeof tiles);
            expect_tiles(&b, moves, tiles);
            free(out);
            free(e);
            assert_int_equal(clitest_runf(&out, NULL, "solve --metric mtm --count %s '%s'",
                                          methods[m], boards[i]), 0);
            assert_int_equal(atoi(out), want);
            free(out);
        }
        board_free(&b);
    }
    naive_free(&set);
    board_free(&goal);
}

/* One line on stderr holding `what`, nothing on stdout, exit 2. */
static void expect_refused(const char *args, const char *what)
{
    char *out, *e;
    assert_int_equal(clitest_run(args, NULL, &out, &e), 2);
    assert_string_equal(out, "");
    if (!strstr(e, what))
        fail_msg("\"%s\" not in: %s", what, e);
    assert_int_equal(clitest_count_lines(e), 1);
    free(out);
    free(e);
}

static void test_solve_mtm_refusals(void **state)
{
    (void)state;
    expect_refused("solve --metric mtm --method layers '1 2 3/4 5 6/7 0 8'",
                   "--method layers counts single-tile moves only");
    expect_refused("solve --metric mtm --method db '1 2 3/4 5 6/7 0 8'",
                   "--method db needs --db");
    expect_refused("solve --metric mtm --h manhattan '1 2 3/4 5 6/7 0 8'",
                   "manhattan is not admissible in the multi-tile metric");
    expect_refused("solve --metric mtm --h lc '1 2 3/4 5 6/7 0 8'",
                   "lc is not admissible in the multi-tile metric");
    expect_refused("solve --metric xtm '1 2 3/4 5 6/7 0 8'", "--metric must be stm or mtm");
}

/* pdb build --mtm, then solve --metric mtm with those tables (maxed): the
 * brute-force length; an additive table is refused in MTM. */
static void test_solve_mtm_pdb(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-mtm-cli-XXXXXX", *out, *e;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(clitest_runf(&out, &e, "pdb build 3x3 --pattern 1-4 --mtm -o %s/a.pdb",
                                  dir), 0);
    free(out);
    free(e);
    assert_int_equal(clitest_runf(&out, &e, "pdb build 3x3 --pattern 5-8 --mtm -o %s/b.pdb",
                                  dir), 0);
    free(out);
    free(e);
    assert_int_equal(clitest_runf(&out, &e, "pdb build 3x3 --pattern 1-8 -o %s/s.pdb", dir),
                     0);
    free(out);
    free(e);
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(board_parse("8 6 7/2 5 4/3 0 1", 0, 0, &b, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    naive_mtm_bfs(3, 3, goal.cells, hist, 64, &set);
    int want = naive_lookup(&set, naive_pack(b.cells, 9));
    assert_int_equal(clitest_runf(&out, &e, "solve --metric mtm --h pdb:%s/a.pdb+%s/b.pdb "
                                  "--reflect --moves '8 6 7/2 5 4/3 0 1'", dir, dir), 0);
    out[strcspn(out, "\n")] = '\0';
    assert_int_equal(mtm_checker(&b, out, &goal), want);
    free(out);
    free(e);
    assert_int_equal(clitest_runf(&out, &e, "solve --metric mtm --h pdb:%s/s.pdb "
                                  "'8 6 7/2 5 4/3 0 1'", dir), 2);
    assert_non_null(strstr(e, "bounds single-tile moves"));
    free(out);
    free(e);
    char path[128];
    for (const char *f = "a.pdb\0b.pdb\0s.pdb\0"; *f; f += strlen(f) + 1) {
        snprintf(path, sizeof path, "%s/%s", dir, f);
        unlink(path);
    }
    rmdir(dir);
    naive_free(&set);
    board_free(&goal);
    board_free(&b);
}

/*
 * The 15-puzzle in MTM with 4x4 tables of kind mtm (tiles 1-5, 6-10, 11-15,
 * maxed with wd, mirrored), as scripts/results-mtm-korf.sh solves Korf's
 * 100: Korf's instance 16 (results/mtm/korf100.csv: 27 MTM moves, 42 STM)
 * against the meet-in-the-middle brute force of mtm_naive.h (a ball of
 * radius 14 around the goal; the board's own BFS to depth 13), the path
 * replayed by mtm_checker.  Three of the four checks of the results script
 * in one test; it takes a few seconds and about 0.5 GB.
 */
static void test_solve_mtm_pdb_15_puzzle(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-mtm-korf-XXXXXX", *out, *e;
    assert_non_null(mkdtemp(dir));
    const char *tiles[] = {"1-5", "6-10", "11-15"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(clitest_runf(&out, &e, "pdb build 4x4 --pattern %s --mtm -o %s/%d.pdb",
                                      tiles[i], dir, i), 0);
        free(out);
        free(e);
    }
    const char *text = "0 9 12 4/5 3 2 8/10 1 7 6/11 14 13 15";
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(board_parse(text, 0, 0, &b, &err), 0);
    assert_int_equal(clitest_runf(&out, &e, "solve --metric mtm --size 4x4 --reflect --moves "
                                  "--h 'max(wd,pdb:%s/0.pdb+%s/1.pdb+%s/2.pdb)' '%s'", dir, dir,
                                  dir, text), 0);
    out[strcspn(out, "\n")] = '\0';
    int got = mtm_checker(&b, out, &goal);
    free(out);
    free(e);
    struct naive_set ball;
    naive_mtm_ball(4, 4, goal.cells, 14, 1u << 24, &ball);
    int want = naive_mtm_distance_by_ball(4, 4, b.cells, &ball, 1u << 25);
    naive_free(&ball);
    assert_int_equal(want, 27);
    assert_int_equal(got, want);
    char path[128];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%d.pdb", dir, i);
        unlink(path);
    }
    rmdir(dir);
    board_free(&goal);
    board_free(&b);
}

/* slide heuristic --metric mtm: wd admissible, manhattan not, with the
 * boards h > d counted from the brute force; exit 0 (the claims hold). */
static void test_heuristic_mtm(void **state)
{
    (void)state;
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, 2, 4, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    naive_mtm_bfs(2, 4, goal.cells, hist, 64, &set);
    int over = 0, cells[8];
    for (size_t k = 0; k < set.cap; k++) {
        if (!set.keys[k])
            continue;
        int h = 0; /* Manhattan, written here */
        for (int c = 0; c < 8; c++) {
            int t = cells[c] = naive_cell(set.keys[k], c);
            if (t)
                h += abs(c / 4 - (t - 1) / 4) + abs(c % 4 - (t - 1) % 4);
        }
        over += h > set.dist[k];
    }
    char *out, *e, want[128];
    assert_int_equal(clitest_runf(&out, &e, "heuristic 2x4 --metric mtm --h wd,manhattan "
                                  "--format csv --no-progress"), 0);
    assert_non_null(strstr(out, "\nwd,20160,yes,0,0,yes,0,"));
    snprintf(want, sizeof want, "\nmanhattan,20160,no,%d,", over);
    if (!strstr(out, want))
        fail_msg("\"%s\" not in:\n%s", want, out);
    free(out);
    free(e);
    naive_free(&set);
    board_free(&goal);
}

/* A shell command's exit status (stdout and stderr to /dev/null). */
static int quiet(const char *fmt, const char *dir)
{
    char cmd[1024], *out, *e;
    snprintf(cmd, sizeof cmd, fmt, dir);
    int rc = clitest_run(cmd, NULL, &out, &e);
    free(out);
    free(e);
    return rc;
}

/* Random solvable 3x3 boards (seeded), in slide's text. */
static void random_board(uint64_t *seed, const struct board *goal, struct board *b,
                         char *text, size_t len)
{
    slide_error err;
    for (;;) {
        int cells[9];
        memcpy(cells, goal->cells, sizeof cells);
        test_shuffle(cells, 9, seed);
        assert_int_equal(board_alloc(b, 3, 3, &err), 0);
        memcpy(b->cells, cells, sizeof cells);
        struct parity_report pr;
        assert_int_equal(parity_check(b, goal, &pr, &err), 0);
        if (pr.solvable) {
            board_format(b, text, len);
            return;
        }
        board_free(b);
    }
}

/* bfs --metric mtm --save; every answer of dist and solve --method db in
 * MTM: the brute-force distance, the path replayed by the rules, the
 * length of IDA* in MTM. */
static void test_db_mtm_answers(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-mtm-db-XXXXXX", *out, *e;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(quiet("bfs 3x3 --metric mtm --save %s/m.db", dir), 0);
    assert_int_equal(clitest_runf(&out, &e, "db info %s/m.db", dir), 0);
    assert_non_null(strstr(out, "metric: mtm (multi-tile moves)"));
    assert_non_null(strstr(out, "format: version 2"));
    assert_non_null(strstr(out, "encoding: 2,"));
    free(out);
    free(e);
    assert_int_equal(clitest_runf(&out, &e, "db verify %s/m.db", dir), 0);
    assert_non_null(strstr(out, "ok: "));
    free(out);
    free(e);
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    uint64_t hist[64], seed = 40;
    struct naive_set set;
    naive_mtm_bfs(3, 3, goal.cells, hist, 64, &set);
    for (int i = 0; i < 24; i++) {
        char text[64], moves[512], len[32];
        random_board(&seed, &goal, &b, text, sizeof text);
        int want = naive_lookup(&set, naive_pack(b.cells, 9));
        assert_int_equal(clitest_runf(&out, &e, "solve --method db --db %s/m.db --metric mtm "
                                      "'%s'", dir, text), 0);
        line_value(out, "optimal moves: ", len, sizeof len);
        assert_int_equal(atoi(len), want);
        line_value(out, "blank moves: ", moves, sizeof moves);
        assert_int_equal(mtm_checker(&b, moves, &goal), want);
        free(out);
        free(e);
        assert_int_equal(clitest_runf(&out, &e, "solve --metric mtm --count '%s'", text), 0);
        assert_int_equal(atoi(out), want); /* IDA* in MTM: the same length */
        free(out);
        free(e);
        assert_int_equal(clitest_runf(&out, &e, "dist --db %s/m.db --metric mtm --path "
                                      "--format csv '%s'", dir, text), 0);
        char *row = strchr(out, '\n') + 1, d[16], path[512];
        clitest_field(row, 1, d, sizeof d);
        clitest_field(row, 2, path, sizeof path);
        assert_int_equal(atoi(d), want);
        assert_int_equal(mtm_checker(&b, path, &goal), want);
        free(out);
        free(e);
        board_free(&b);
    }
    naive_free(&set);
    board_free(&goal);
    clitest_remove_dir(dir);
}

/* A file of the other metric: one line naming both metrics, exit 2; a
 * format 1 file (no metric field) is single-tile. */
static void test_db_metric_refusals(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-mtm-db-XXXXXX", cmd[512];
    assert_non_null(mkdtemp(dir));
    assert_int_equal(quiet("bfs 2x3 --metric mtm --save %s/m.db --encoding 8", dir), 0);
    assert_int_equal(quiet("bfs 2x3 --save %s/s.db", dir), 0);
    static const char mtm_file[] = "counts multi-tile moves (mtm), not the single-tile "
                                   "moves (stm) asked for (--metric mtm reads it)";
    static const char stm_file[] = "counts single-tile moves (stm), not the multi-tile "
                                   "moves (mtm) asked for (--metric stm reads it)";
    snprintf(cmd, sizeof cmd, "dist --db %s/m.db '1 2 3/4 0 5'", dir);
    expect_refused(cmd, mtm_file);
    snprintf(cmd, sizeof cmd, "dist --db %s/s.db --metric mtm '1 2 3/4 0 5'", dir);
    expect_refused(cmd, stm_file);
    snprintf(cmd, sizeof cmd, "solve --method db --db %s/m.db '1 2 3/4 0 5'", dir);
    expect_refused(cmd, mtm_file);
    snprintf(cmd, sizeof cmd, "solve --db %s/s.db --metric mtm '1 2 3/4 0 5'", dir);
    expect_refused(cmd, stm_file);
    expect_refused("dist --db tests/data/db-v1/2x3.db --metric mtm '1 2 3/4 0 5'", stm_file);
    snprintf(cmd, sizeof cmd, "bfs 2x3 --metric mtm --save %s/x.db --encoding 1", dir);
    expect_refused(cmd, "use --encoding 2 (the default) or 8");
    snprintf(cmd, sizeof cmd, "%s/x.db", dir);
    assert_int_equal(access(cmd, F_OK), -1); /* nothing written */
    /* distances of both files against the brute force of their metric */
    static const char *const boards[] = {"1 2 3/4 0 5", "1 2 3/0 4 5", "4 1 2/5 3 0",
                                         "5 4 3/2 1 0"};
    struct board goal, b;
    slide_error err;
    uint64_t hist[64];
    struct naive_set stm, mtm;
    assert_int_equal(board_goal(&goal, 2, 3, &err), 0);
    naive_bfs(2, 3, goal.cells, hist, 64, &stm);
    naive_mtm_bfs(2, 3, goal.cells, hist, 64, &mtm);
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        char *out, *e, want[128];
        assert_int_equal(board_parse(boards[i], 2, 3, &b, &err), 0);
        naive_key k = naive_pack(b.cells, 6);
        assert_int_equal(clitest_runf(&out, &e, "dist --db tests/data/db-v1/2x3.db --format "
                                      "csv '%s'", boards[i]), 0);
        snprintf(want, sizeof want, "board,distance\n%s,%d\n", boards[i],
                 naive_lookup(&stm, k));
        assert_string_equal(out, want);
        free(out);
        free(e);
        assert_int_equal(clitest_runf(&out, &e, "dist --db %s/m.db --metric mtm --format csv "
                                      "'%s'", dir, boards[i]), 0);
        snprintf(want, sizeof want, "board,distance\n%s,%d\n", boards[i],
                 naive_lookup(&mtm, k));
        assert_string_equal(out, want);
        free(out);
        free(e);
        board_free(&b);
    }
    naive_free(&stm);
    naive_free(&mtm);
    board_free(&goal);
    clitest_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_mtm_methods),
        cmocka_unit_test(test_solve_mtm_refusals),
        cmocka_unit_test(test_solve_mtm_pdb),
        cmocka_unit_test(test_solve_mtm_pdb_15_puzzle),
        cmocka_unit_test(test_heuristic_mtm),
        cmocka_unit_test(test_db_mtm_answers),
        cmocka_unit_test(test_db_metric_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
