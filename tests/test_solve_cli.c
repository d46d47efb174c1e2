/*
 * test_solve_cli.c - `slide solve` and `slide scramble` end to end through
 * the binary named by $SLIDE (set by make test): outputs parsed back and
 * checked against plain BFS distances (testutil.h) and a replay of the
 * printed moves, exit statuses, and reproducibility of scramble's output.
 */
#include "testutil.h"

#include "clitest.h"
#include "slide/board.h"

/* Run "$SLIDE args" with stdin from `input` (may be NULL); stdout into out
 * (cut to len - 1 bytes).  Returns the exit status. */
static int run(const char *args, const char *input, char *out, size_t len)
{
    char *got;
    int status = clitest_run(args, input, &got, NULL);
    snprintf(out, len, "%s", got);
    free(got);
    return status;
}

static char out[1 << 20], again[1 << 20];

static void test_scramble_reproducible(void **state)
{
    (void)state;
    assert_int_equal(run("scramble 4x4 --count 20 --seed 42", NULL, out, sizeof out), 0);
    assert_int_equal(run("scramble 4x4 --seed 42 --count 20", NULL, again, sizeof again), 0);
    assert_string_equal(out, again);
    assert_int_equal(clitest_count_lines(out), 20);
    assert_int_equal(run("scramble 4x4 --count 20 --seed 43", NULL, again, sizeof again), 0);
    assert_string_not_equal(out, again);
    assert_int_equal(run("scramble 4x4 --count 3 --seed 0x2a", NULL, again, sizeof again), 0);
    assert_int_equal(strncmp(out, again, strlen(again)), 0); /* 0x2a = 42 */
}

static void test_scramble_errors(void **state)
{
    (void)state;
    assert_int_equal(run("scramble", NULL, out, sizeof out), 2);
    assert_int_equal(run("scramble 3x3 --seed -1", NULL, out, sizeof out), 2);
    assert_int_equal(run("scramble 3x3 --count x", NULL, out, sizeof out), 2);
    assert_int_equal(run("scramble 1001x2", NULL, out, sizeof out), 2);
    assert_int_equal(run("scramble 1x1 --walk 1 --seed 1", NULL, out, sizeof out), 2);
    assert_int_equal(run("scramble --help", NULL, out, sizeof out), 0);
    assert_non_null(strstr(out, "xoshiro256**"));
}

/* Scrambled 3x3 boards, solved through a pipe in CSV: every length is the
 * BFS distance and every move string replays to the goal. */
static void test_solve_csv_against_bfs(void **state)
{
    (void)state;
    static const int g33[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    static char boards[1 << 16];
    struct naive_set set;
    uint64_t hist[64];
    naive_bfs(3, 3, g33, hist, 64, &set);
    assert_int_equal(run("scramble 3x3 --count 50 --seed 9", NULL, boards, sizeof boards), 0);
    assert_int_equal(run("solve - --format csv", boards, out, sizeof out), 0);
    assert_int_equal(clitest_count_lines(out), 51);
    assert_int_equal(strncmp(out, "board,method,heuristic,status,length,blank_moves,", 49), 0);
    const char *line = strchr(out, '\n') + 1;
    for (int i = 0; i < 50; i++, line = strchr(line, '\n') + 1) {
        char text[64], status[16], len[8], moves[64];
        struct board b, goal;
        slide_error err;
        clitest_field(line, 0, text, sizeof text);
        clitest_field(line, 3, status, sizeof status);
        clitest_field(line, 4, len, sizeof len);
        clitest_field(line, 5, moves, sizeof moves);
        assert_string_equal(status, "optimal");
        assert_int_equal(board_parse(text, 0, 0, &b, &err), 0);
        assert_int_equal(atoi(len), naive_lookup(&set, naive_pack(b.cells, 9)));
        assert_int_equal((int)strlen(moves), atoi(len));
        int z = board_blank(&b);
        for (const char *m = moves; *m; m++)
            assert_int_equal(board_move(&b, &z, (enum move)move_parse(*m)), 0);
        assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
        assert_true(board_equal(&b, &goal));
        board_free(&b);
        board_free(&goal);
    }
    naive_free(&set);
}

static void test_solve_text(void **state)
{
    (void)state;
    assert_int_equal(run("solve '8 6 7/2 5 4/3 0 1'", NULL, out, sizeof out), 0);
    assert_non_null(strstr(out, "optimal moves: 31\n"));
    assert_non_null(strstr(out, "heuristic lc"));
    assert_int_equal(run("solve --h manhattan '8 6 7/2 5 4/3 0 1'", NULL, out, sizeof out), 0);
    assert_non_null(strstr(out, "optimal moves: 31\n"));
    /* the tiles moved: the blank moving R from "1 2 3/4 5 6/7 0 8" moves 8 */
    assert_int_equal(run("solve '1 2 3/4 5 6/7 0 8'", NULL, out, sizeof out), 0);
    assert_non_null(strstr(out, "blank moves: R\ntiles moved: 8\n"));
    /* one board over several lines, and flat lines with --size */
    assert_int_equal(run("solve -", "1 2 3\n4 5 6\n0 7 8\n", out, sizeof out), 0);
    assert_non_null(strstr(out, "optimal moves: 2\n"));
    assert_int_equal(run("solve --size 3x3 -", "# two boards\n1 2 3 4 5 6 7 0 8\n\n"
                         "1 2 3 4 5 6 7 8 0\n", out, sizeof out), 0);
    assert_non_null(strstr(out, "optimal moves: 1\n"));
    assert_non_null(strstr(out, "optimal moves: 0\n"));
    assert_int_equal(run("solve --goal '0 1 2/3 4 5/6 7 8' '1 0 2/3 4 5/6 7 8'", NULL,
                         out, sizeof out), 0);
    assert_non_null(strstr(out, "optimal moves: 1\nblank moves: L\n"));
}

static void test_solve_unsolvable_and_errors(void **state)
{
    (void)state;
    assert_int_equal(run("solve '1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0'", NULL, out,
                         sizeof out), 3);
    assert_non_null(strstr(out, "unsolvable: width 4 is even"));
    assert_null(strstr(out, "nodes"));
    /* one unsolvable board among others: the others are still solved */
    assert_int_equal(run("solve - --format csv", "1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/8 7 0\n"
                         "1 2 3/4 5 6/0 7 8\n", out, sizeof out), 3);
    assert_int_equal(clitest_count_lines(out), 4);
    assert_non_null(strstr(out, ",unsolvable,,"));
    assert_int_equal(run("solve --h bogus '1 2/3 0'", NULL, out, sizeof out), 2);
    assert_int_equal(run("solve --method bogus '1 2/3 0'", NULL, out, sizeof out), 2);
    assert_int_equal(run("solve '1 2/3 3'", NULL, out, sizeof out), 2);
    assert_int_equal(run("solve", NULL, out, sizeof out), 2);
    assert_int_equal(run("solve - ", "1 2 3/4 5 6/7 0 8\n1 2 3/4 5 5/7 0 8\n", out,
                         sizeof out), 2);
    assert_int_equal(run("solve --max-nodes 1000 '13 6 8 12/15 14 0 10/11 7 4 5/9 1 3 2'",
                         NULL, out, sizeof out), 1);
    assert_non_null(strstr(out, "stopped: stopped at the node limit"));
    assert_non_null(strstr(out, "nodes: 1000 expanded,")); /* N, not N + 1 (issue 32) */
    assert_int_equal(run("solve --help", NULL, out, sizeof out), 0);
    assert_non_null(strstr(out, "direction the BLANK moves"));
}

/* 4x4 random walks through both commands: the optimum is <= the walk and
 * has its parity. */
/* --provenance as bfs's: the block first, the CSV records after it
 * unchanged, the wall time last; '> ' for Markdown. */
static void test_solve_provenance(void **state)
{
    (void)state;
    assert_int_equal(run("solve --provenance --format csv '8 6 7/2 5 4/3 0 1'", NULL, out,
                         sizeof out), 0);
    assert_true(strncmp(out, "# slide ", 8) == 0);
    /* shell-quoted, so that the line can be pasted back (test_summary_cli) */
    assert_non_null(strstr(out, "\n# command: slide solve --provenance --format csv "
                                "'8 6 7/2 5 4/3 0 1'\n"));
    assert_non_null(strstr(out, "\n# date: "));
    const char *header = strstr(out, "\nboard,method,"), *record = strstr(out, "\n8 6 7/2 5 4/3 0 1,ida,lc,optimal,31,");
    assert_non_null(header);
    assert_non_null(record);
    const char *times = strstr(out, "\n# wall time: ");
    assert_non_null(times);
    assert_true(record < times && strchr(times + 1, '\n')[1] == '\0'); /* the last line */
    assert_int_equal(run("solve --provenance --format md --count '1 2 3/4 5 6/7 0 8'", NULL,
                         out, sizeof out), 2); /* --count and --format choose one output */
    assert_int_equal(run("solve --provenance --format md '1 2 3/4 5 6/7 0 8'", NULL, out,
                         sizeof out), 0);
    assert_true(strncmp(out, "> slide ", 8) == 0);
    assert_non_null(strstr(out, "\n> wall time: "));
    /* without it, no block */
    assert_int_equal(run("solve --count '1 2 3/4 5 6/7 0 8'", NULL, out, sizeof out), 0);
    assert_string_equal(out, "1\n");
}

static void test_walks_through_cli(void **state)
{
    (void)state;
    static char boards[1 << 14];
    assert_int_equal(run("scramble 4x4 --walk 31 --count 5 --seed 3", NULL, boards,
                         sizeof boards), 0);
    assert_int_equal(run("solve - --format csv", boards, out, sizeof out), 0);
    const char *line = strchr(out, '\n') + 1;
    for (int i = 0; i < 5; i++, line = strchr(line, '\n') + 1) {
        char len[8];
        clitest_field(line, 4, len, sizeof len);
        assert_true(atoi(len) <= 31 && atoi(len) % 2 == 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scramble_reproducible),
        cmocka_unit_test(test_scramble_errors),
        cmocka_unit_test(test_solve_csv_against_bfs),
        cmocka_unit_test(test_solve_text),
        cmocka_unit_test(test_solve_unsolvable_and_errors),
        cmocka_unit_test(test_walks_through_cli),
        cmocka_unit_test(test_solve_provenance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
