/* test_board.c - parsing, validation, formatting and moves (board.h). */
#include "testutil.h"

#include "slide/board.h"

static void parse_ok(const char *text, int rows, int cols, int er, int ec,
                     const int *cells)
{
    struct board b;
    slide_error err;
    int rc = board_parse(text, rows, cols, &b, &err);
    if (rc)
        fail_msg("\"%s\": %s", text, err.msg);
    assert_int_equal(b.rows, er);
    assert_int_equal(b.cols, ec);
    assert_memory_equal(b.cells, cells, (size_t)(er * ec) * sizeof(int));
    board_free(&b);
}

static void parse_err(const char *text, int rows, int cols, const char *msg)
{
    struct board b;
    slide_error err = {{0}};
    int rc = board_parse(text, rows, cols, &b, &err);
    assert_int_equal(rc, SLIDE_EINVAL);
    if (!strstr(err.msg, msg))
        fail_msg("\"%s\": got \"%s\", wanted \"%s\"", text, err.msg, msg);
    assert_null(b.cells);
}

static void test_parse_syntaxes(void **state)
{
    (void)state;
    static const int g33[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    parse_ok("1 2 3/4 5 6/7 8 0", 0, 0, 3, 3, g33);
    parse_ok("1,2,3\n4,5,6\n7,8,_\n", 0, 0, 3, 3, g33);
    parse_ok("1 2 3 / 4 5 6 / 7 8 .", 0, 0, 3, 3, g33);
    parse_ok("1 2 3 4 5 6 7 8 0", 3, 3, 3, 3, g33);
    /* comments in every form; a '/' then a newline is one separator */
    parse_ok("# my board\n1 2 3\n4 5 6\n  # note\n7 8 0\n", 0, 0, 3, 3, g33);
    parse_ok("1 2 3/\n4 5 6/\n7 8 0\n", 0, 0, 3, 3, g33);
    /* an empty cell or row is an error naming where */
    parse_err("1 2 3/4 5 6/7 8 0/", 0, 0, "empty row 4");
    parse_err("/1 2 3/4 5 6/7 8 0", 0, 0, "empty row 1");
    parse_err("1 2 3//4 5 6/7 8 0", 0, 0, "empty row 2");
    parse_err("1,,2,3/4,5,6/7,8,0", 0, 0, "empty cell in row 1 after 1 cell ");
    parse_err("1,2,3/,4,5,6/7,8,0", 0, 0, "empty cell in row 2 after 0 cells");
    parse_err("1,2,3/4,5,6,/7,8,0", 0, 0, "empty cell in row 2 after 3 cells");
    parse_err("1,2,3/4,5,6/7,8,0,", 0, 0, "empty cell in row 3 after 3 cells");
    /* numbers are quoted as written, at any length; singulars */
    parse_err("1 2 3/4 5 6/7 8 2147483647", 0, 0, "tile 2147483647 is out of range");
    parse_err("1 2 3/4 5 6/7 8 123456789012345678901234567890", 0, 0,
              "tile 123456789012345678901234567890 is out of range");
    parse_err("5", 0, 0, "a 1x1 board has no tiles, only the blank");
    parse_err("0", 2, 2, "board has 1 cell, a 2x2 board needs 4");
    parse_err("1 2/0", 0, 0, "row 2 has 1 cell but row 1 has 2");
    /* a Princeton-style size header is named as such */
    parse_err("3\n1 2 3\n4 5 6\n7 8 0\n", 0, 0,
              "a first line with a single number looks like a size header; remove it "
              "or use --size");
    parse_ok("1 2 3/4 5 6/7 8 0", 3, 3, 3, 3, g33);
    static const int g23[] = {4, 5, 0, 1, 2, 3};
    parse_ok("4 5 0/1 2 3", 0, 0, 2, 3, g23);
    parse_ok("4 5 0 1 2 3", 2, 3, 2, 3, g23);
    static const int g14[] = {0, 1, 2, 3};
    parse_ok("0 1 2 3", 0, 0, 1, 4, g14);
    parse_ok("0/1/2/3", 0, 0, 4, 1, g14);
}

static void test_parse_errors(void **state)
{
    (void)state;
    parse_err("1 2 3/4 5 6/7 8 5", 0, 0, "tile 5 appears twice");
    parse_err("1 2 3/4 5 6 0/7 8", 0, 0, "row 2 has 4 cells but row 1 has 3");
    parse_err("1 2 3/4 5 6/7 12 0", 0, 0,
              "tile 12 is out of range for a 3x3 board (1..8)");
    parse_err("1 2 3/4 5 6/7 8 9", 0, 0, "tile 9 is out of range");
}

static void test_parse_errors_more(void **state)
{
    (void)state;
    parse_err("1 2 3 4 5", 3, 2, "board has 5 cells, a 3x2 board needs 6");
    parse_err("1 2 3/4 5 6/7 8 x", 0, 0, "unexpected character 'x'");
    parse_err("1 2 3/4 0 6/7 8 0", 0, 0, "the blank appears twice");
    parse_err("1 2 3/4 5 6/7 8 9/10 11 12", 0, 0, "tile 12 is out of range");
    parse_err("", 0, 0, "empty");
    parse_err("  /  \n", 0, 0, "empty");
    parse_err("1 2/3 4", 0, 0, "tile 4 is out of range for a 2x2 board (1..3)");
    parse_err("-1 2 3/4 5 6/7 8 0", 0, 0, "unexpected character '-'");
    parse_err("99999999999999 2/3 0", 0, 0, "out of range");
    parse_err("1 2 3/4 5 6/7 8 0", 2, 4, "a 2x4 board needs 8");
    parse_err("1 2/3 0/4 5", 2, 3, "expected a 2x3 board");
}

static void test_dims(void **state)
{
    (void)state;
    int r, c;
    slide_error err;
    assert_int_equal(board_parse_dims("3x4", &r, &c, &err), 0);
    assert_int_equal(r, 3);
    assert_int_equal(c, 4);
    assert_int_equal(board_parse_dims("1000X1", &r, &c, &err), 0);
    assert_int_equal(board_parse_dims("3x", &r, &c, &err), SLIDE_EINVAL);
    assert_int_equal(board_parse_dims("x3", &r, &c, &err), SLIDE_EINVAL);
    assert_int_equal(board_parse_dims("3x3x3", &r, &c, &err), SLIDE_EINVAL);
    assert_int_equal(board_parse_dims("0x3", &r, &c, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "sides 1..1000"));
    assert_int_equal(board_parse_dims("1001x2", &r, &c, &err), SLIDE_EINVAL);
}

static void test_format_roundtrip(void **state)
{
    (void)state;
    struct board b, c;
    slide_error err;
    char buf[64];
    assert_int_equal(board_goal(&b, 3, 4, &err), 0);
    size_t need = board_format(&b, buf, sizeof buf);
    assert_string_equal(buf, "1 2 3 4/5 6 7 8/9 10 11 0");
    assert_int_equal(need, strlen(buf));
    assert_int_equal(board_parse(buf, 0, 0, &c, &err), 0);
    assert_true(board_equal(&b, &c));
    /* truncation is reported like snprintf */
    assert_int_equal(board_format(&b, buf, 5), need);
    assert_int_equal(strlen(buf), 4);
    board_free(&b);
    board_free(&c);
}

static void test_moves(void **state)
{
    (void)state;
    struct board b;
    slide_error err;
    assert_int_equal(board_goal(&b, 3, 3, &err), 0);
    int z = board_blank(&b);
    assert_int_equal(z, 8);
    assert_int_equal(board_move(&b, &z, MOVE_DOWN), -1);
    assert_int_equal(board_move(&b, &z, MOVE_RIGHT), -1);
    assert_int_equal(board_move(&b, &z, MOVE_UP), 0);
    assert_int_equal(z, 5);
    assert_int_equal(b.cells[8], 6);
    assert_int_equal(board_move(&b, &z, MOVE_LEFT), 0);
    assert_int_equal(z, 4);
    assert_int_equal(b.cells[5], 5);
    assert_int_equal(board_validate(&b, &err), 0);
    for (int m = 0; m < MOVE_COUNT; m++) {
        assert_int_equal(move_parse(move_letter((enum move)m)), m);
        assert_int_equal(move_inverse(move_inverse((enum move)m)), m);
        assert_int_equal(board_step(3, 3, board_step(3, 3, 4, (enum move)m),
                                    move_inverse((enum move)m)), 4);
    }
    assert_int_equal(move_parse('x'), -1);
    board_free(&b);
}

static void test_big_board(void **state)
{
    (void)state;
    struct board b;
    slide_error err;
    assert_int_equal(board_goal(&b, 1000, 1000, &err), 0);
    assert_int_equal(board_validate(&b, &err), 0);
    board_free(&b);
    assert_int_equal(board_alloc(&b, 1001, 3, &err), SLIDE_EINVAL);
}

/* The goal words shared by the command line and the page. */
static void test_goal_words(void **state)
{
    (void)state;
    struct board g = {0};
    slide_error err;
    const char *first[] = {"first", "blank-first", " first\n"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(board_parse_goal(first[i], 3, 4, &g, &err), SLIDE_OK);
        assert_int_equal(g.rows, 3);
        assert_int_equal(g.cols, 4);
        for (int k = 0; k < 12; k++) /* the blank first, then 1..11 */
            assert_int_equal(g.cells[k], k);
        board_free(&g);
    }
    const char *last[] = {"last", "standard"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(board_parse_goal(last[i], 2, 3, &g, &err), SLIDE_OK);
        int want[] = {1, 2, 3, 4, 5, 0};
        for (int k = 0; k < 6; k++)
            assert_int_equal(g.cells[k], want[k]);
        board_free(&g);
    }
    /* a board text is parsed as a board */
    assert_int_equal(board_parse_goal("0 1/2 3", 0, 0, &g, &err), SLIDE_OK);
    assert_int_equal(g.rows, 2);
    assert_int_equal(g.cells[0], 0);
    board_free(&g);
    /* a word needs a size; a near-word is not one */
    assert_int_equal(board_parse_goal("first", 0, 0, &g, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "needs the board's size"));
    assert_int_equal(board_parse_goal("firsts", 3, 3, &g, &err), SLIDE_EINVAL);
    assert_int_equal(board_goal_word("Last"), -1);
    assert_int_equal(board_goal_word("last"), 0);
    assert_int_equal(board_goal_word("blank-first"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_syntaxes), cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_errors_more), cmocka_unit_test(test_dims),
        cmocka_unit_test(test_format_roundtrip), cmocka_unit_test(test_moves),
        cmocka_unit_test(test_big_board), cmocka_unit_test(test_goal_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
