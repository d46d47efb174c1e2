/*
 * test_cmd_parity.c - `slide parity` through the binary named by $SLIDE:
 * the CSV contract (one header, one record), the verdict line, the honest
 * report on path boards, the refusal of boards over 12 cells.
 */
#include "testutil.h"

#include <sys/wait.h>

/* Run "$SLIDE args" with stderr to /dev/null or into stdout; capture stdout
 * into buf and return the exit status. */
static int slide_run(const char *args, int merge_stderr, char *buf, size_t len)
{
    const char *bin = getenv("SLIDE");
    if (!bin)
        fail_msg("SLIDE is not set (make test sets it to build/slide)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s %s", bin, args, merge_stderr ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(buf, 1, len - 1, p);
    buf[got] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_csv_contract(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(slide_run("parity 2x3 --format csv --threads 2", 0, out, sizeof out), 0);
    assert_string_equal(out, "board,arrangements,reachable,criterion,agree,disagree\n"
                             "2x3,720,360,360,720,0\n");
    assert_int_equal(slide_run("parity 3x2 --format csv --goal '0 1/2 3/4 5'", 0, out,
                               sizeof out), 0);
    assert_string_equal(out, "board,arrangements,reachable,criterion,agree,disagree\n"
                             "3x2,720,360,360,720,0\n");
    assert_int_equal(slide_run("parity 1x5 --format csv", 0, out, sizeof out), 0);
    assert_string_equal(out, "board,arrangements,reachable,criterion,agree,disagree\n"
                             "1x5,120,5,5,120,0\n");
}

static void test_text_verdict(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(slide_run("parity 3x3", 0, out, sizeof out), 0);
    assert_non_null(strstr(out, "\nreachable:      181440 "));
    assert_non_null(strstr(out, "\ndisagree:       0\n"));
    assert_non_null(strstr(out, "verdict: the criterion matches reachability on all "
                                "362880 arrangements of 3x3\n"));
    assert_int_equal(slide_run("parity 4x1", 0, out, sizeof out), 0);
    assert_non_null(strstr(out, "hypothesis R, C >= 2 fails"));
    assert_non_null(strstr(out, "verdict: the path-graph criterion (tiles in goal order) "
                                "matches reachability on all 24 arrangements of 4x1\n"));
}

static void test_provenance(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(slide_run("parity 2x2 --format csv --provenance", 0, out, sizeof out), 0);
    assert_true(strncmp(out, "# slide ", 8) == 0);
    assert_non_null(strstr(out, "# command: slide parity 2x2 --format csv --provenance\n"));
    const char *hdr = strstr(out, "\nboard,arrangements,");
    assert_non_null(hdr);
    assert_string_equal(strchr(hdr + 1, '\n'), "\n2x2,24,12,12,24,0\n");
}

static void test_refusals(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(slide_run("parity 3x5", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "at most 12 cells"));
    assert_int_equal(slide_run("parity 3x3 --goal '1 2 3/4 5 6/7 8 8'", 1, out, sizeof out), 2);
    assert_non_null(strstr(out, "tile 8 appears twice"));
    assert_int_equal(slide_run("parity 3x3 --format xml", 1, out, sizeof out), 2);
    assert_int_equal(slide_run("parity", 1, out, sizeof out), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_contract),
        cmocka_unit_test(test_text_verdict),
        cmocka_unit_test(test_provenance),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
