/*
 * test_make_test.c - the closing line of `make test` (scripts/make-test.sh
 * over scripts/run-tests.sh, the browser suite and the Python suite): it
 * is the last line printed, after the browser and Python suites; its counts are the sums of the suites'
 * (written in the test, from the stand-in suites' own figures); every
 * skipped suite is named there and on a "skipped:" line with its reason; a
 * failing or broken suite makes it say so and exit non-zero.
 *
 * The suites are stand-ins written here (cmocka-like binaries as shell
 * scripts, a browser runner that prints what the real one prints), so the
 * test runs in a second and depends on nothing installed.
 */
#include "testutil.h"

#include "scripttest.h"

#define DIR scripttest_dir() /* the test's scratch directory */

/* A stand-in cmocka binary NAME: runs the shell lines extra, prints
 * cmocka's summary lines for passed and failed tests, exits with status. */
static void cmocka_bin(const char *name, int passed, int failed, const char *extra, int status)
{
    char path[256], text[1024], fails[128] = "";
    snprintf(path, sizeof path, "%s/%s", DIR, name);
    if (failed)
        snprintf(fails, sizeof fails, "[  FAILED  ] %d test(s), listed below:\n", failed);
    snprintf(text, sizeof text, "#!/bin/sh\n%scat <<'END'\n[==========] %d test(s) run.\n"
             "[  PASSED  ] %d test(s).\n%sEND\nexit %d\n", extra, passed + failed, passed,
             fails, status);
    scripttest_write(path, text, 1);
}

/* A stand-in runner DIR/file: prints text, exits with status. */
static void runner(const char *file, const char *text, int status)
{
    char path[256], script[1024];
    snprintf(path, sizeof path, "%s/%s", DIR, file);
    snprintf(script, sizeof script, "printf '%%s\\n' '%s'\nexit %d\n", text, status);
    scripttest_write(path, script, 0);
}

/* The browser stand-in. */
static void browser(const char *text, int status)
{
    runner("browser.sh", text, status);
}

/* The Python stand-in. */
static void python(const char *text, int status)
{
    runner("python.sh", text, status);
}

/* make-test.sh over the real run-tests.sh, the stand-in binaries named in
 * bins and browser.sh; env: extra variables (the Python suite is left out
 * unless env names PYTHON_TESTS). */
static int run(const char *env, const char *bins, char **out)
{
    /* make test's own SKIP_* variables are not this test's */
    return scripttest_sh(out, "cd '%s' && SKIP_SERVE= SKIP_MPI= PYTHON_TESTS= %s BROWSER_TESTS='%s/browser.sh' sh "
                         SCRIPTTEST_ROOT "/scripts/make-test.sh %s", DIR, env, DIR, bins);
}

static void test_closing_line_last_with_sums(void **state)
{
    (void)state;
    cmocka_bin("test_a", 3, 0, "", 0);
    cmocka_bin("test_b", 4, 0, "", 0);
    browser("ok   loads\nbrowser: 10 passed, 0 failed (screenshots in x)", 0);
    char *out, last[512];
    int rc = run("", "./test_a ./test_b", &out);
    if (rc) print_message("%s", out);
    assert_int_equal(rc, 0);
    scripttest_last_line(out, last, sizeof last);
    assert_string_equal(last, "17 passed, 0 failed (cmocka 7, browser 10); nothing skipped");
    /* the browser suite's lines come before it, and the suites' own lines
     * say "cmocka:" / "browser:" so that one line alone is the total */
    assert_non_null(strstr(out, "ok   test_a (3 tests)"));
    assert_non_null(strstr(out, "cmocka: 7 passed, 0 failed"));
    assert_true(strstr(out, "browser: 10 passed") < strstr(out, "17 passed"));
    free(out);
}

static void test_skipped_suites_named(void **state)
{
    (void)state;
    /* said by each of its tests: listed once */
    cmocka_bin("test_a", 2, 0, "echo 'skip: no network namespaces here (needs root)'\n"
                               "echo 'skip: no network namespaces here (needs root)'\n", 0);
    browser("browser tests skipped: no chromium (apt-get install chromium)", 0);
    char *out, last[512];
    assert_int_equal(run("SKIP_SERVE='test_serve test_serve_load' SKIP_SERVE_WHY='libmicrohttpd-dev "
                         "libjansson-dev are missing (make deps)' SKIP_MPI=test_mpi "
                         "SKIP_MPI_WHY='no mpicc'", "./test_a", &out), 0);
    scripttest_last_line(out, last, sizeof last);
    assert_string_equal(last, "2 passed, 0 failed (cmocka 2); 4 suites skipped: server tests "
                              "(test_serve,test_serve_load), MPI tests (test_mpi), test_a, "
                              "browser tests");
    assert_non_null(strstr(out, "skipped: server tests (test_serve,test_serve_load): "
                                "libmicrohttpd-dev libjansson-dev are missing (make deps)\n"));
    assert_non_null(strstr(out, "skipped: MPI tests (test_mpi): no mpicc\n"));
    const char *once = strstr(out, "skipped: test_a: no network namespaces here (needs root)\n");
    assert_non_null(once);
    assert_null(strstr(once + 1, "skipped: test_a"));
    assert_non_null(strstr(out, "skipped: browser tests: no chromium (apt-get install chromium)\n"));
    free(out);
}

/* A suite whose tests skip their part: its line says how many, and the
 * reason is printed once while the suites run, not once per test. */
static void test_inner_skip_said_once(void **state)
{
    (void)state;
    cmocka_bin("test_plots", 4, 0, "echo 'skip: no gnuplot (apt-get install gnuplot-nox)'\n"
                                   "echo 'skip: no gnuplot (apt-get install gnuplot-nox)'\n"
                                   "echo 'skip: no gnuplot (apt-get install gnuplot-nox)'\n", 0);
    browser("browser: 1 passed, 0 failed (screenshots in x)", 0);
    char *out;
    assert_int_equal(run("", "./test_plots", &out), 0);
    assert_non_null(strstr(out, "ok   test_plots (4 tests, 3 skipped)\n"));
    const char *first = strstr(out, "skip test_plots: no gnuplot");
    assert_non_null(first);
    assert_null(strstr(first + 1, "skip test_plots: no gnuplot"));
    free(out);
}

static void test_failures_counted(void **state)
{
    (void)state;
    cmocka_bin("test_a", 5, 2, "", 1);
    cmocka_bin("test_b", 0, 0, "echo crashed\n", 139); /* no summary: one failure */
    browser("FAIL loads: no board\nbrowser: 9 passed, 1 failed (screenshots in x)", 1);
    char *out, last[512];
    assert_int_not_equal(run("", "./test_a ./test_b", &out), 0);
    scripttest_last_line(out, last, sizeof last);
    assert_string_equal(last, "14 passed, 4 failed (cmocka 5, browser 9); nothing skipped");
    free(out);
}

static void test_broken_browser_suite_fails(void **state)
{
    (void)state;
    cmocka_bin("test_a", 1, 0, "", 0);
    browser("browser: error: chromium did not start", 1);
    char *out, last[512];
    assert_int_not_equal(run("", "./test_a", &out), 0);
    scripttest_last_line(out, last, sizeof last);
    assert_string_equal(last, "1 passed, 1 failed (cmocka 1, browser 0); nothing skipped");
    free(out);
}

/* make-test.sh with a cmocka binary of 3 tests, a browser suite of 10 and
 * the Python stand-in printing text and exiting with status; the closing
 * line into last. */
static int run_python(const char *text, int status, char **out, char *last, size_t len)
{
    char env[512];
    cmocka_bin("test_a", 3, 0, "", 0);
    browser("browser: 10 passed, 0 failed (screenshots in x)", 0);
    python(text, status);
    snprintf(env, sizeof env, "PYTHON_TESTS='%s/python.sh'", DIR);
    int rc = run(env, "./test_a", out);
    scripttest_last_line(*out, last, len);
    return rc;
}

static void test_python_suite_counted(void **state)
{
    (void)state;
    char *out, last[512];
    assert_int_equal(run_python("....\npython: 41 passed, 0 failed", 0, &out, last, sizeof last), 0);
    assert_string_equal(last, "54 passed, 0 failed (cmocka 3, browser 10, python 41); "
                              "nothing skipped");
    assert_true(strstr(out, "python: 41 passed") < strstr(out, "54 passed"));
    free(out);
}

static void test_python_suite_skipped_or_failing(void **state)
{
    (void)state;
    char *out, last[512];
    assert_int_equal(run_python("python tests skipped: no python3 with numpy (make deps)", 0,
                                &out, last, sizeof last), 0);
    assert_string_equal(last, "13 passed, 0 failed (cmocka 3, browser 10); 1 suite skipped: "
                              "python tests");
    assert_non_null(strstr(out, "skipped: python tests: no python3 with numpy (make deps)\n"));
    free(out);
    /* failures are counted; a suite that exits non-zero with none fails once */
    assert_int_not_equal(run_python("F.\npython: 1 passed, 1 failed", 1, &out, last, sizeof last), 0);
    assert_string_equal(last, "14 passed, 1 failed (cmocka 3, browser 10, python 1); "
                              "nothing skipped");
    free(out);
    assert_int_not_equal(run_python("ImportError: no module named slide", 1, &out, last,
                                    sizeof last), 0);
    assert_string_equal(last, "13 passed, 1 failed (cmocka 3, browser 10, python 0); "
                              "nothing skipped");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_closing_line_last_with_sums, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_skipped_suites_named, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_failures_counted, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_inner_skip_said_once, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_broken_browser_suite_fails, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_python_suite_counted, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_python_suite_skipped_or_failing, scripttest_setup, scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
