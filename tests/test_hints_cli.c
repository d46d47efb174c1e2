/*
 * test_hints_cli.c - the hints slide gives a newcomer where a command
 * cannot do what was asked as written: `bfs --mpi` in the binary built
 * without MPI points at the MPI build beside it (or says how to get one).
 * The truths are the situations the test sets up (a copy of the binary
 * alone in a directory, then with a slide-mpi beside it).
 */
#include "testutil.h"

#include "scripttest.h"

#define DIR scripttest_dir() /* the test's scratch directory */

static void test_mpi_points_at_the_mpi_build(void **state)
{
    (void)state;
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    char *out, want[512];
    /* alone: how to get the MPI build */
    assert_int_equal(scripttest_sh(&out, "cp '%s' '%s/slide' && '%s/slide' bfs 3x3 --mpi "
                                   "--threads 1", slide, DIR, DIR), 2);
    assert_string_equal(out, "slide: --mpi needs the MPI build (build/slide-mpi), and there is "
                             "none beside this slide: make deps (or apt-get install "
                             "libopenmpi-dev openmpi-bin), make, then mpirun -n P "
                             "build/slide-mpi bfs RxC --mpi\n");
    free(out);
    /* with slide-mpi beside it: the command to run, with the words given */
    assert_int_equal(scripttest_sh(&out, "printf '#!/bin/sh\\n' > '%s/slide-mpi' && chmod +x "
                                   "'%s/slide-mpi' && '%s/slide' bfs 3x3 --mpi --threads 1 "
                                   "--goal '0 1 2/3 4 5/6 7 8'", DIR, DIR, DIR), 2);
    snprintf(want, sizeof want, "slide: --mpi runs in the MPI build, not in this slide: mpirun "
             "-n P %s/slide-mpi bfs 3x3 --mpi --threads 1 --goal '0 1 2/3 4 5/6 7 8'\n", DIR);
    assert_string_equal(out, want);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mpi_points_at_the_mpi_build, scripttest_setup, scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
