/*
 * test_solve_methods.c - `slide solve --method layers|bibfs` end to end
 * through the binary named by $SLIDE.  Truths independent of the methods:
 * every printed solution is replayed here with board_move (the tiles moved
 * too) and must end on the goal; layers' length is held to layers_bound;
 * bibfs' distances are compared with the plain hash-set BFS of testutil.h
 * (from any goal, on every shape tested), and as consistency checks with
 * --method ida and d(a, b) with d(b, a);
 * unsolvable boards are made here by swapping two tiles (or, on a path
 * board, taking tiles out of order), which flips the parity class.
 */
#include "testutil.h"

#include "clitest.h"
#include "slide/board.h"
#include "slide/layers.h"

/* A board line of a command's output, parsed (the caller frees it). */
static void parse(const char *text, int rows, int cols, struct board *b)
{
    slide_error err;
    if (board_parse(text, rows, cols, b, &err))
        fail_msg("cannot parse \"%.60s\": %s", text, err.msg);
}

/* A uniformly random arrangement of rows x cols as text (either parity class). */
static void random_arrangement(int rows, int cols, uint64_t *seed, char *text, size_t len)
{
    struct board g;
    slide_error err;
    assert_int_equal(board_goal(&g, rows, cols, &err), 0);
    test_shuffle(g.cells, board_cells(&g), seed);
    assert_true(board_format(&g, text, len) < len);
    board_free(&g);
}

/* ---- layers ------------------------------------------------------------ */

/* `count` boards drawn by slide scramble for a random goal, solved in CSV:
 * each is "found", replays to the goal with the printed tiles, and keeps
 * within layers_bound. */
static void layers_csv(int rows, int cols, int count, uint64_t seed)
{
    char goal_text[8192], args[8400], *boards, *out;
    struct board goal;
    random_arrangement(rows, cols, &seed, goal_text, sizeof goal_text);
    parse(goal_text, rows, cols, &goal);
    snprintf(args, sizeof args, "scramble %dx%d --count %d --seed %llu --goal '%s'", rows,
             cols, count, (unsigned long long)seed, goal_text);
    assert_int_equal(clitest_run(args, NULL, &boards, NULL), 0);
    snprintf(args, sizeof args, "solve --method layers --format csv --size %dx%d --goal '%s' -",
             rows, cols, goal_text);
    assert_int_equal(clitest_run(args, boards, &out, NULL), 0);
    assert_int_equal(clitest_count_lines(out), count + 1);
    char *p = out;
    clitest_next_line(&p); /* the header */
    for (int i = 0; i < count; i++) {
        char *line = clitest_next_line(&p), *f[7], *q = line;
        for (int k = 0; k < 7; k++) { /* board..tiles_moved; no field has a comma */
            f[k] = q;
            q += strcspn(q, ",");
            *q++ = '\0';
        }
        struct board b;
        parse(f[0], rows, cols, &b);
        assert_string_equal(f[1], "layers");
        assert_string_equal(f[3], "found");
        uint64_t len = strtoull(f[4], NULL, 10);
        assert_int_equal(strlen(f[5]), len);
        assert_true(len <= layers_bound(rows, cols));
        clitest_replay(&b, f[5], len, f[6], &goal);
        board_free(&b);
    }
    free(boards);
    free(out);
    board_free(&goal);
}

static void test_layers_shapes(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 7}, {7, 2},
                                    {4, 4}, {3, 8}, {5, 9}, {9, 5}, {10, 10}, {13, 7},
                                    {20, 20}, {1, 6}, {6, 1}, {1, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        layers_csv(shapes[i][0], shapes[i][1], 6, 100 + i);
}

/* Two 200 x 200 boards, one per line as scramble prints them: --moves
 * replays to the goal, --count gives the same lengths. */
static void test_layers_200(void **state)
{
    (void)state;
    char *boards, *moves, *counts;
    assert_int_equal(clitest_run("scramble 200x200 --count 2 --seed 7", NULL, &boards,
                                 NULL), 0);
    assert_int_equal(clitest_count_lines(boards), 2);
    assert_int_equal(clitest_run("solve --method layers --moves -", boards, &moves, NULL), 0);
    assert_int_equal(clitest_run("solve --method layers --count -", boards, &counts, NULL), 0);
    assert_int_equal(clitest_count_lines(moves), 2);
    assert_int_equal(clitest_count_lines(counts), 2);
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, 200, 200, &err), 0);
    char *pb = boards, *pm = moves, *pc = counts;
    for (int i = 0; i < 2; i++) {
        struct board b;
        parse(clitest_next_line(&pb), 0, 0, &b);
        char *m = clitest_next_line(&pm);
        size_t len = strlen(m);
        assert_int_equal(strtoull(clitest_next_line(&pc), NULL, 10), len);
        assert_true(len <= layers_bound(200, 200));
        clitest_replay(&b, m, len, NULL, &goal);
        board_free(&b);
    }
    board_free(&goal);
    free(boards);
    free(moves);
    free(counts);
}

/* Swap two tiles (never the blank): flips the parity class when R, C >= 2. */
static void swap_two_tiles(struct board *b)
{
    int i = b->cells[0] == 0 ? 2 : 0, j = b->cells[1] == 0 ? 2 : 1, t = b->cells[i];
    b->cells[i] = b->cells[j];
    b->cells[j] = t;
}

/* Boards pushed out of their class are refused by every method, exit 3,
 * with the parity explanation and nothing searched. */
static void test_unsolvable(void **state)
{
    (void)state;
    static const char *shapes[] = {"2x2", "3x3", "4x4", "7x5", "20x20"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char args[128], *boards, *out, text[4096];
        snprintf(args, sizeof args, "scramble %s --seed %zu", shapes[i], i + 1);
        assert_int_equal(clitest_run(args, NULL, &boards, NULL), 0);
        struct board b;
        parse(boards, 0, 0, &b);
        swap_two_tiles(&b);
        board_format(&b, text, sizeof text);
        snprintf(args, sizeof args, "solve --method layers -");
        assert_int_equal(clitest_run(args, text, &out, NULL), 3);
        assert_int_equal(strncmp(out + strcspn(out, "\n") + 1, "goal:", 5), 0);
        assert_non_null(strstr(out, "method: layers\nunsolvable: "));
        assert_null(strstr(out, "moves"));
        free(out);
        if (board_cells(&b) <= 20) {
            assert_int_equal(clitest_run("solve --method bibfs --count -", text, &out, NULL), 3);
            assert_int_equal(strncmp(out, "unsolvable: ", 12), 0);
            free(out);
        }
        board_free(&b);
        free(boards);
    }
    char *out;
    /* a path board is solvable only with its tiles in goal order */
    assert_int_equal(clitest_run("solve --method layers --count '1 3 0 2'", NULL, &out, NULL), 3);
    free(out);
    /* among other boards: those are still solved, the status is 3 */
    assert_int_equal(clitest_run("solve --method layers --count -", "1 2 3/4 5 6/7 0 8\n"
                                 "1 2 3/4 5 6/8 7 0\n1 2 3/4 5 6/0 7 8\n", &out, NULL), 3);
    assert_int_equal(strncmp(out, "1\nunsolvable: ", 14), 0);
    assert_non_null(strstr(out, "\n2\n"));
    free(out);
}

/* The text output says what the method claims. */
static void test_text_claims(void **state)
{
    (void)state;
    char *out, want[128];
    assert_int_equal(clitest_run("solve --method layers '4 1 3/7 2 6/0 5 8'", NULL, &out,
                                 NULL), 0);
    snprintf(want, sizeof want, "(not optimal in general; bound %llu for 3x3)\nblank moves: ",
             (unsigned long long)layers_bound(3, 3));
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(out, "\nmoves: "));
    assert_null(strstr(out, "nodes:"));
    free(out);
    assert_int_equal(clitest_run("solve --method bibfs '4 1 3/7 2 6/0 5 8'", NULL, &out,
                                 NULL), 0);
    assert_non_null(strstr(out, "method: bibfs\noptimal moves: 6\n"));
    assert_non_null(strstr(out, " stored\n"));
    free(out);
    assert_int_equal(clitest_run("solve --help", NULL, &out, NULL), 0);
    assert_non_null(strstr(out, "NOT OPTIMAL"));
    assert_non_null(strstr(out, "ANY two boards"));
    free(out);
}

/* ---- bibfs ------------------------------------------------------------- */

/* One CSV record per board: length (field 4) and moves (field 5). */
static void record(const char *line, uint64_t *len, char *moves, size_t size)
{
    char buf[32];
    clitest_field(line, 3, buf, sizeof buf);
    assert_string_equal(buf, "optimal");
    clitest_field(line, 4, buf, sizeof buf);
    *len = strtoull(buf, NULL, 10);
    clitest_field(line, 5, moves, size);
}

/* Random boards of rows x cols (<= 16 cells): bibfs equals the plain BFS
 * distance and ida, and its moves replay to the goal. */
static void bibfs_against_bfs_and_ida(int rows, int cols, int count, uint64_t seed)
{
    int n = rows * cols, gcells[16];
    char args[128], *boards, *bi, *ida;
    struct naive_set set;
    uint64_t hist[64];
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    memcpy(gcells, goal.cells, (size_t)n * sizeof *gcells);
    naive_bfs(rows, cols, gcells, hist, 64, &set);
    snprintf(args, sizeof args, "scramble %dx%d --count %d --seed %llu", rows, cols, count,
             (unsigned long long)seed);
    assert_int_equal(clitest_run(args, NULL, &boards, NULL), 0);
    assert_int_equal(clitest_run("solve --method bibfs --format csv -", boards, &bi, NULL), 0);
    assert_int_equal(clitest_run("solve --method ida --format csv -", boards, &ida, NULL), 0);
    char *pb = boards, *p1 = strchr(bi, '\n') + 1, *p2 = strchr(ida, '\n') + 1;
    for (int i = 0; i < count; i++) {
        char m1[128], m2[128];
        uint64_t l1, l2;
        struct board b;
        parse(clitest_next_line(&pb), rows, cols, &b);
        record(clitest_next_line(&p1), &l1, m1, sizeof m1);
        record(clitest_next_line(&p2), &l2, m2, sizeof m2);
        assert_int_equal(l1, l2);
        assert_int_equal(l1, naive_lookup(&set, naive_pack(b.cells, n)));
        assert_int_equal(strlen(m1), l1);
        clitest_replay(&b, m1, l1, NULL, &goal);
        board_free(&b);
    }
    naive_free(&set);
    board_free(&goal);
    free(boards);
    free(bi);
    free(ida);
}

static void test_bibfs_3x3(void **state)
{
    (void)state;
    bibfs_against_bfs_and_ida(3, 3, 40, 11);
}

static void test_bibfs_2x5(void **state)
{
    (void)state;
    bibfs_against_bfs_and_ida(2, 5, 25, 12);
    bibfs_against_bfs_and_ida(5, 2, 10, 13);
}

/* `slide solve --method M --count --goal TO FROM`: one number. */
static uint64_t distance(const char *method, const char *from, const char *to)
{
    char args[512], *out;
    snprintf(args, sizeof args, "solve --method %s --count --goal '%s' '%s'", method, to,
             from);
    assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
    assert_int_equal(clitest_count_lines(out), 1);
    uint64_t d = strtoull(out, NULL, 10);
    free(out);
    return d;
}

/* Pairs of boards of one random class (drawn by scramble for a random
 * goal, so both classes occur): d(a, b) equals the plain BFS from b (the
 * truth), and, as consistency checks, d(b, a) and ida's d(a, b). */
static void test_bibfs_between_any_two(void **state)
{
    (void)state;
    static const int shapes[][2] = {{3, 3}, {2, 5}, {3, 2}};
    uint64_t seed = 99;
    for (int s = 0; s < 3; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
        for (int k = 0; k < 4; k++) {
            char g[64], args[160], *pair, *p;
            random_arrangement(rows, cols, &seed, g, sizeof g);
            snprintf(args, sizeof args, "scramble %dx%d --count 2 --seed %d --goal '%s'",
                     rows, cols, 10 * s + k, g);
            assert_int_equal(clitest_run(args, NULL, &pair, NULL), 0);
            p = pair;
            char *a = clitest_next_line(&p), *b = clitest_next_line(&p);
            uint64_t ab = distance("bibfs", a, b);
            struct board bb, ba;
            struct naive_set set;
            uint64_t hist[64];
            parse(b, rows, cols, &bb);
            parse(a, rows, cols, &ba);
            naive_bfs(rows, cols, bb.cells, hist, 64, &set);
            assert_int_equal(ab, naive_lookup(&set, naive_pack(ba.cells, n)));
            naive_free(&set);
            board_free(&bb);
            board_free(&ba);
            assert_int_equal(ab, distance("bibfs", b, a));
            assert_int_equal(ab, distance("ida", a, b));
            free(pair);
        }
    }
}

/* ---- --count, --moves and the errors ----------------------------------- */

/* --count is the length of what --moves prints, for every method. */
static void test_count_is_moves_length(void **state)
{
    (void)state;
    static const char *cases[][2] = {{"ida", "3x3"}, {"bibfs", "3x3"}, {"bibfs", "2x5"},
                                     {"layers", "3x3"}, {"layers", "12x9"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[128], *boards, *moves, *counts;
        snprintf(args, sizeof args, "scramble %s --count 8 --seed %zu", cases[i][1], i);
        assert_int_equal(clitest_run(args, NULL, &boards, NULL), 0);
        snprintf(args, sizeof args, "solve --method %s --moves -", cases[i][0]);
        assert_int_equal(clitest_run(args, boards, &moves, NULL), 0);
        snprintf(args, sizeof args, "solve --method %s --count -", cases[i][0]);
        assert_int_equal(clitest_run(args, boards, &counts, NULL), 0);
        assert_int_equal(clitest_count_lines(counts), 8);
        char *pm = moves, *pc = counts;
        for (int k = 0; k < 8; k++)
            assert_int_equal(strlen(clitest_next_line(&pm)), strtoull(clitest_next_line(&pc), NULL, 10));
        free(boards);
        free(moves);
        free(counts);
    }
    /* the goal itself: 0 moves, an empty line */
    char *out;
    assert_int_equal(clitest_run("solve --method layers --moves '1 2/3 0'", NULL, &out, NULL), 0);
    assert_string_equal(out, "\n");
    free(out);
}

/* Bad input: exit 2 and one line on stderr, "slide: ...", nothing on stdout. */
static void expect_usage_error(const char *args, const char *words)
{
    char *out, *err;
    int status = clitest_run(args, NULL, &out, &err);
    if (status != 2 || clitest_count_lines(err) != 1 || strncmp(err, "slide: ", 7) != 0 ||
        !strstr(err, words) || out[0])
        fail_msg("solve %s: exit %d, stderr \"%s\", stdout \"%.80s\"", args, status, err, out);
    free(out);
    free(err);
}

static void test_errors(void **state)
{
    (void)state;
    expect_usage_error("solve --method bogus '1 2/3 0'", "ida, layers, bibfs");
    expect_usage_error("solve --method layers --h lc '1 2/3 0'", "--h is used only with --method ida, not with --method layers");
    expect_usage_error("solve --method layers --max-nodes 9 '1 2/3 0'", "--max-nodes");
    expect_usage_error("solve --max-states 9 '1 2/3 0'", "--max-states is used only with --method bibfs, not with --method ida");
    expect_usage_error("solve --method bibfs --max-states 0 '1 2/3 0'", "--max-states");
    expect_usage_error("solve --count --moves '1 2/3 0'", "choose one");
    expect_usage_error("solve --count --format csv '1 2/3 0'", "choose one");
    expect_usage_error("solve --format tex --moves '1 2/3 0'", "choose one");
    expect_usage_error("solve --method bibfs '1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/"
                       "16 17 18 19 20/21 22 23 24 0'", "at most 20 cells");
    expect_usage_error("solve --method layers --goal '1 2 3/4 5 6/7 8 0' '1 2/3 0'", "goal");
    expect_usage_error("solve --method layers '1 2/3 3'", "twice");
    /* bibfs past its cap: stopped, with the lower bound it proved */
    char *out, *err;
    assert_int_equal(clitest_run("solve --method bibfs --max-states 100 --format csv "
                                 "'8 6 7/2 5 4/3 0 1'", NULL, &out, &err), 1);
    assert_non_null(strstr(out, ",bibfs,,stopped,,,,"));
    char lb[16];
    clitest_field(strchr(out, '\n') + 1, 11, lb, sizeof lb);
    assert_true(atoi(lb) >= 1 && atoi(lb) <= 31); /* the optimum is 31 */
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_shapes),
        cmocka_unit_test(test_layers_200),
        cmocka_unit_test(test_unsolvable),
        cmocka_unit_test(test_text_claims),
        cmocka_unit_test(test_bibfs_3x3),
        cmocka_unit_test(test_bibfs_2x5),
        cmocka_unit_test(test_bibfs_between_any_two),
        cmocka_unit_test(test_count_is_moves_length),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
