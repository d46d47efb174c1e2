/*
 * test_mtm_cli.c - `slide solve --metric mtm` (cmd_solve.c): lengths of
 * every method against the brute-force MTM BFS of mtm_naive.h, paths from
 * the output replayed by mtm_checker (the rules and the notation only), the
 * tiles line checked by replaying the moves by hand, and the refusals (a
 * method or heuristic that counts single-tile moves, a bad metric) as one
 * line and exit 2.
 */
#include "mtm_naive.h"

#include "clitest.h"

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
                   "--method db counts single-tile moves only");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_mtm_methods),
        cmocka_unit_test(test_solve_mtm_refusals),
        cmocka_unit_test(test_solve_mtm_pdb),
        cmocka_unit_test(test_heuristic_mtm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
