/*
 * test_mpi_netns.c - slide-mpi across two network namespaces that only TCP
 * connects (tests/mpi-netns.sh, run as a program): ranks on two "hosts" of
 * this machine, an `ip netns exec` launch agent, Open MPI over TCP.
 *
 * Truth: the published histograms of tests/data/histograms.tsv (OEIS; not
 * produced by slide), checked by the script for 2x5 (P = 2, 3), 3x3 (P = 4,
 * 2 threads each) and a 2x5 search resumed from its checkpoint after its
 * process on the second host was killed.  Where it cannot run (not root,
 * no iproute2, no network namespaces) it is skipped, and make test prints
 * the script's one line saying why.  Built only where mpicc is present.
 */
#include "testutil.h"

#include <sys/wait.h>

static void test_across_network_namespaces(void **state)
{
    (void)state;
    const char *bin = getenv("SLIDE_MPI_BIN");
    char cmd[1024];
    if (!bin)
        fail_msg("SLIDE_MPI_BIN is not set (run the tests with make test)");
    snprintf(cmd, sizeof cmd, "SLIDE_MPI_BIN='%s' TEST_DATA_DIR='%s' sh '%s/../mpi-netns.sh' 2>&1",
             bin, TEST_DATA_DIR, TEST_DATA_DIR);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char out[16384];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        /* "skip: why", printed by run-tests.sh */
        printf("%s", out);
        skip();
    }
    if (WEXITSTATUS(status) != 0)
        fail_msg("tests/mpi-netns.sh exited %d:\n%s", WEXITSTATUS(status), out);
    printf("%s", out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_across_network_namespaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
