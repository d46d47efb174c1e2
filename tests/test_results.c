/*
 * test_results.c - results/ can never drift from the code: regenerate the
 * small-board results (scripts/results.sh --small) and compare them with the
 * committed files, provenance and timing masked (scripts/check-results.sh).
 */
#include "testutil.h"

#include <sys/wait.h>

static void test_results_agree(void **state)
{
    (void)state;
    const char *bin = getenv("SLIDE");
    if (!bin)
        fail_msg("SLIDE is not set (run through make test)");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s/../.. && SLIDE=%s sh scripts/check-results.sh 2>&1",
             TEST_DATA_DIR, bin);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char out[8192];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("results/ differs from what the code produces:\n%s", out);
    assert_non_null(strstr(out, "results/ agrees with the code"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_results_agree)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
