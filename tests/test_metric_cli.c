/*
 * test_metric_cli.c - `slide bfs --metric stm|mtm` as a user runs it: the
 * MTM histogram of small boards against a brute-force MTM BFS written in
 * the test (testutil.h, naive_bfs_metric), the same report for any thread
 * count (a consistency test), bad values refused with one line and exit 2,
 * --save refused in MTM, and checkpoints that record the metric (the
 * single-tile ones unchanged) and refuse a resumption in the other one.
 * The binary comes from $SLIDE.
 */
#include "testutil.h"
#include "clitest.h"

#include <unistd.h>

#define MAXD 128

/* The distance table of a text report: hist[0..radius]; returns radius. */
static int parse_hist(const char *out, uint64_t *hist)
{
    int radius = -1;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int d;
        unsigned long long c, cum;
        if (sscanf(p, " %d %llu %llu", &d, &c, &cum) == 3 && d == radius + 1 && d < MAXD)
            hist[radius = d] = c;
    }
    return radius;
}

/* The report without its last line (wall time, threads). */
static void cut_wall(char *out)
{
    char *w = strstr(out, "\nwall ");
    if (w)
        w[1] = '\0';
}

static void test_against_naive(void **state)
{
    (void)state;
    static const int shapes[][3] = {{2, 3, 5}, {3, 2, 0}, {2, 4, 7}, {3, 3, 4}, {1, 6, 2}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        int rows = shapes[k][0], cols = shapes[k][1], z = shapes[k][2], goal[16];
        goal_with_blank(rows * cols, z, goal);
        char g[128] = "", *out, *one;
        for (int i = 0; i < rows * cols; i++) {
            char cell[8];
            snprintf(cell, sizeof cell, "%s%d", i == 0 ? "" : i % cols ? " " : "/", goal[i]);
            strcat(g, cell);
        }
        uint64_t want[MAXD], got[MAXD];
        struct naive_set set;
        size_t expect = 1;
        for (int i = 2; i <= rows * cols; i++)
            expect *= (size_t)i;
        int radius = naive_bfs_metric(rows, cols, goal, want, MAXD, &set, 1, -1, expect);
        naive_free(&set);
        assert_int_equal(clitest_runf(&out, NULL, "bfs %dx%d --goal '%s' --metric mtm "
                                      "--threads 3 --no-progress", rows, cols, g), 0);
        assert_int_equal(parse_hist(out, got), radius);
        assert_memory_equal(got, want, (size_t)(radius + 1) * sizeof *got);
        assert_non_null(strstr(out, "metric mtm"));
        assert_int_equal(clitest_runf(&one, NULL, "bfs %dx%d --goal '%s' --metric mtm "
                                      "--threads 1 --no-progress", rows, cols, g), 0);
        cut_wall(out);
        cut_wall(one);
        assert_string_equal(one, out);
        free(out);
        free(one);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_run("bfs 3x3 --metric tile", NULL, &out, &err), 2);
    assert_non_null(strstr(err, "--metric must be stm"));
    assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err)); /* one line */
    free(out);
    free(err);
    assert_int_equal(clitest_run("bfs 3x3 --metric mtm --save /tmp/slide-never.db "
                                 "--encoding 1", NULL, &out, &err), 2);
    assert_non_null(strstr(err, "--encoding 1 takes d mod 2 from the board's colour"));
    assert_int_equal(access("/tmp/slide-never.db", F_OK), -1);
    free(out);
    free(err);
    /* the default is the single-tile metric, and its report says nothing new */
    assert_int_equal(clitest_run("bfs 2x3 --no-progress", NULL, &out, NULL), 0);
    assert_null(strstr(out, "metric"));
    char *stm;
    assert_int_equal(clitest_run("bfs 2x3 --metric stm --no-progress", NULL, &stm, NULL), 0);
    cut_wall(out);
    cut_wall(stm);
    assert_string_equal(out, stm);
    free(out);
    free(stm);
}

/* A checkpoint records the metric: "metric mtm" in the state of an MTM
 * search, nothing in a single-tile one; a resumption in the other metric is
 * refused naming both; without --metric it goes on in the recorded one. */
static void test_checkpoints(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-metric-XXXXXX", *out, *err, *ref;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(clitest_runf(&ref, NULL, "bfs 2x4 --metric mtm --no-progress "
                                  "--checkpoint %s/m", dir), 0);
    assert_int_equal(clitest_runf(&out, NULL, "bfs 2x4 --no-progress --checkpoint %s/s",
                                  dir), 0);
    free(out);
    char path[256];
    snprintf(path, sizeof path, "%s/m/state", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *state_m = clitest_slurp(f);
    fclose(f);
    assert_non_null(strstr(state_m, "\nmetric mtm\n"));
    snprintf(path, sizeof path, "%s/s/state", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    char *state_s = clitest_slurp(f);
    fclose(f);
    assert_null(strstr(state_s, "metric"));
    /* exit 1, as a checkpoint of another board, goal or space */
    assert_int_equal(clitest_runf(&out, &err, "bfs --resume %s/m --metric stm", dir), 1);
    assert_non_null(strstr(err, "multi-tile metric (mtm), not the single-tile metric"));
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "bfs --resume %s/s --metric mtm", dir), 1);
    assert_non_null(strstr(err, "single-tile metric (stm), not the multi-tile metric"));
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, NULL, "bfs --resume %s/m --no-progress", dir), 0);
    uint64_t a[MAXD], b[MAXD];
    int radius = parse_hist(ref, a);
    assert_int_equal(parse_hist(out, b), radius);
    assert_memory_equal(a, b, (size_t)(radius + 1) * sizeof *a);
    assert_non_null(strstr(out, "metric mtm"));
    free(out);
    free(ref);
    free(state_m);
    free(state_s);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* `slide parity RxC --metric mtm`: both metrics reach the same (RC)!/2
 * arrangements (the brute-force MTM BFS reaches that many too: the MTM
 * generator's set size against the theorem's count). */
static void test_parity(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(clitest_run("parity 2x4 --metric mtm", NULL, &out, NULL), 0);
    assert_non_null(strstr(out, "reachable:      20160 "));
    assert_non_null(strstr(out, "metrics disagree: 0 "));
    assert_non_null(strstr(out, "multi-tile metric reaches the same 20160"));
    free(out);
    int goal[8];
    uint64_t hist[MAXD];
    struct naive_set set;
    goal_with_blank(8, 7, goal);
    naive_bfs_metric(2, 4, goal, hist, MAXD, &set, 1, -1, 40320);
    assert_int_equal(set.len, 20160);
    naive_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_naive),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_checkpoints),
        cmocka_unit_test(test_parity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
