/*
 * test_pdb_stats_cli.c - `slide pdb stats` and `slide pdb predict` from the
 * command line: the exact 3x3 Manhattan table against every board of the
 * plain BFS of testutil.h, the sampled table the same for any thread count
 * (a consistency test), the prediction's lines (one per IDA* threshold,
 * the 'all' line their sum), and refusals of bad input.
 */
#include "testutil.h"

#include "clitest.h"

#include <math.h>

static void test_stats_exact_3x3(void **state)
{
    (void)state;
    char *out, *p, *line;
    struct naive_set set;
    uint64_t hist[40], count[40] = {0};
    int goal[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    double sum = 0;
    naive_bfs(3, 3, goal, hist, 40, &set);
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i])
            continue;
        int h = 0;
        for (int c = 0; c < 9; c++) {
            int t = naive_cell(set.keys[i], c);
            if (t)
                h += abs(c / 3 - (t - 1) / 3) + abs(c % 3 - (t - 1) % 3);
        }
        count[h]++;
        sum += h;
    }
    naive_free(&set);
    assert_int_equal(clitest_run("pdb stats 3x3 --h manhattan --exact --format csv", NULL,
                                 &out, NULL), 0);
    p = out;
    int rows = 0;
    while (*p && (line = clitest_next_line(&p))) {
        char f[4][64];
        if (line[0] == '#' || !strncmp(line, "value,", 6))
            continue;
        for (int i = 0; i < 4; i++)
            clitest_field(line, i, f[i], sizeof f[i]);
        if (!strcmp(f[0], "mean") || !strcmp(f[0], "closed_form_mean")) {
            assert_true(fabs(atof(f[2]) - sum / 181440) < 1e-6);
            continue;
        }
        int v = atoi(f[0]);
        assert_true(v >= 0 && v < 40);
        assert_true(strtoull(f[1], NULL, 10) == count[v]);
        assert_true(fabs(atof(f[2]) - count[v] / 181440.0) < 1e-9);
        rows++;
    }
    assert_int_equal(rows, 23); /* Manhattan 0..22 on 3x3 */
    assert_int_equal(count[22] > 0, 1);
    free(out);
}

/* Consistency: the sample does not depend on the thread count. */
static void test_consistency_stats_threads(void **state)
{
    (void)state;
    char *a, *b;
    assert_int_equal(clitest_run("pdb stats 3x3 --h lc --samples 20000 --seed 5 --threads 1",
                                 NULL, &a, NULL), 0);
    assert_int_equal(clitest_run("pdb stats 3x3 --h lc --samples 20000 --seed 5 --threads 2",
                                 NULL, &b, NULL), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "20000 boards drawn uniformly"));
    assert_non_null(strstr(a, "\nmean: "));
    free(a);
    free(b);
}

static void test_predict_lines(void **state)
{
    (void)state;
    char *out, *p, *line;
    /* a 3x3 antipode (distance 31); its Manhattan distance is 21 */
    assert_int_equal(clitest_run("pdb predict 3x3 --h manhattan --exact --format csv -",
                                 "31 8 6 7/2 5 4/3 0 1\n", &out, NULL), 0);
    p = out;
    double sum = 0, all = -1;
    int iterations = 0, expect = 21;
    while (*p && (line = clitest_next_line(&p))) {
        char f[8][64];
        if (line[0] == '#' || !strncmp(line, "board,", 6))
            continue;
        for (int i = 0; i < 8; i++)
            clitest_field(line, i, f[i], sizeof f[i]);
        assert_string_equal(f[1], "31");
        assert_string_equal(f[2], "21");
        if (!strcmp(f[3], "all")) {
            all = atof(f[4]);
            continue;
        }
        assert_int_equal(atoi(f[3]), expect); /* thresholds 21, 23, ..., 31 */
        expect += 2;
        sum += atof(f[4]);
        iterations++;
        assert_string_equal(f[5], "0"); /* exact distribution: no sampling error */
    }
    assert_int_equal(iterations, 6);
    assert_true(fabs(all - sum) <= 1e-5 * all);
    free(out);
}

static void test_bad_input(void **state)
{
    (void)state;
    char *out, *err;
    static const struct {
        const char *args, *input, *says;
    } cases[] = {
        {"pdb stats 3x3 --h lc --exact", NULL, "--exact is for --h manhattan only"},
        {"pdb stats 3x3", NULL, "name the heuristic with --h"},
        {"pdb stats 3x3 --h manhattan --format md", NULL, "--format must be text or csv"},
        {"pdb stats 3x3 --h manhattan --samples 0", NULL, "--samples"},
        {"pdb stats 1x4 --h manhattan --samples 10", NULL, "two rows and two columns"},
        {"pdb stats 3x3 --h nosuch", NULL, "nosuch"},
        {"pdb predict 3x3 --h manhattan '8 6 7/2 5 4/3 0 1'", NULL, "needs --length L"},
        {"pdb predict 3x3 --h manhattan --length 3 -", NULL, "used only with pdb predict BOARD"},
        {"pdb predict 3x3 --h manhattan --samples 100 -", "x 1 2 3/4 5 6/7 8 0\n",
         "expected \"LENGTH BOARD\""},
        {"pdb predict 3x3 --h manhattan --samples 100 --length 3 '8 6 7/2 5 4/3 0 1'", NULL,
         "below its h = 21"},
        {"pdb stats 3x3 --h manhattan --length 3", NULL, "pdb predict BOARD"},
    };
    /* a board that cannot reach the goal: exit 3, as slide solve */
    assert_int_equal(clitest_run("pdb predict 3x3 --h manhattan --samples 100 --length 30 "
                                 "'2 1 3/4 5 6/7 8 0'", NULL, &out, &err), 3);
    assert_non_null(strstr(err, "cannot reach the goal"));
    free(out);
    free(err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = clitest_run(cases[i].args, cases[i].input, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says))
            fail_msg("%s: exit %d, stderr %s", cases[i].args, rc, err);
        free(out);
        free(err);
    }
}

/* pdb predict -: every line is checked before anything is printed (no
 * description, no prediction of the lines before a bad one); the status
 * and the line are said; an overlong length names the allowed range. */
static void test_predict_checked_first(void **state)
{
    (void)state;
    static const struct {
        const char *input;
        int status;
        const char *says;
    } cases[] = {
        {"31 8 6 7/2 5 4/3 0 1\nx y\n", 2, "slide: line 2: expected \"LENGTH BOARD\""},
        {"31 8 6 7/2 5 4/3 0 1\n1 1 2 3/4 5 6/7 0 8 9\n", 2, "slide: line 2: "},
        {"31 8 6 7/2 5 4/3 0 1\n# c\n0 1 2 3/4 5 6/0 7 8\n", 2,
         "slide: line 3: board 1 2 3/4 5 6/0 7 8: length 0 is below its h = 2"},
        {"31 8 6 7/2 5 4/3 0 1\n5 2 1 3/4 5 6/7 8 0\n", 3,
         "slide: line 2: board 2 1 3/4 5 6/7 8 0 cannot reach the goal"},
        {"99999999999999999999 1 2 3/4 5 6/7 0 8\n", 2,
         "slide: line 1: length 99999999999999999999 is out of range: give the optimal "
         "length, 0..1000\n"},
        {"1001 1 2 3/4 5 6/7 0 8\n", 2, "length 1001 is out of range"},
        {"-1 1 2 3/4 5 6/7 0 8\n", 2, "length -1 is out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int rc = clitest_run("pdb predict 3x3 --h manhattan --samples 100 -", cases[i].input,
                             &out, &err);
        if (rc != cases[i].status || !strstr(err, cases[i].says) || out[0])
            fail_msg("%s: exit %d, stdout \"%s\", stderr %s", cases[i].input, rc, out, err);
        free(out);
        free(err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_exact_3x3),
        cmocka_unit_test(test_consistency_stats_threads),
        cmocka_unit_test(test_predict_lines),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_predict_checked_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
