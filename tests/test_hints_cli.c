/*
 * test_hints_cli.c - the hints slide gives a newcomer where a command
 * cannot do what was asked as written:
 *   - `bfs --mpi` in the binary built without MPI points at the MPI build
 *     beside it (or says how to get one); the truths are the situations the
 *     test sets up (a copy of the binary alone, then with a slide-mpi);
 *   - a board that cannot reach the goal but can reach the other common
 *     goal (Korf's blank-first convention, or the standard one) names
 *     --goal, and a one-line board read as 1xN names --size RxC.  The
 *     truth that the advice is right: following it, slide solvable says
 *     "solvable" (whose criterion test_parity checks against a BFS), and
 *     for Korf's instance 1 the published convention (Korf 1985: blank
 *     first); that no hint is given where none applies (odd widths, where
 *     both goals are one parity class; a size given).
 */
#include "testutil.h"

#include "scripttest.h"

#define DIR scripttest_dir() /* the test's scratch directory */

/* As root the pointer at mpirun is followed by the line about Open MPI's
 * --allow-run-as-root (docs/mpi.md). */
#define ROOT_LINE (geteuid() == 0 ? "slide: hint: as root, Open MPI's mpirun refuses to start " \
                                    "until given --allow-run-as-root (docs/mpi.md)\n" : "")

static void test_mpi_points_at_the_mpi_build(void **state)
{
    (void)state;
    char expect[1024];
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    char *out, want[512];
    /* alone: how to get the MPI build */
    assert_int_equal(scripttest_sh(&out, "cp '%s' '%s/slide' && '%s/slide' bfs 3x3 --mpi "
                                   "--threads 1", slide, DIR, DIR), 2);
    snprintf(expect, sizeof expect, "%s%s", "slide: --mpi needs the MPI build "
             "(build/slide-mpi), and there is none beside this slide: make deps (or apt-get "
             "install libopenmpi-dev openmpi-bin), make, then mpirun -n P build/slide-mpi bfs RxC "
             "--mpi\n", ROOT_LINE);
    assert_string_equal(out, expect);
    free(out);
    /* with slide-mpi beside it: the command to run, with the words given */
    assert_int_equal(scripttest_sh(&out, "printf '#!/bin/sh\\n' > '%s/slide-mpi' && chmod +x "
                                   "'%s/slide-mpi' && '%s/slide' bfs 3x3 --mpi --threads 1 "
                                   "--goal '0 1 2/3 4 5/6 7 8'", DIR, DIR, DIR), 2);
    snprintf(want, sizeof want, "slide: --mpi runs in the MPI build, not in this slide: mpirun "
             "-n P %s/slide-mpi bfs 3x3 --mpi --threads 1 --goal '0 1 2/3 4 5/6 7 8'\n%s", DIR,
             ROOT_LINE);
    assert_string_equal(out, want);
    free(out);
}

/* Edit distance written here (plain Levenshtein plus adjacent swaps, full
 * matrix), to say which command a misspelling is nearest to. */
static int distance(const char *a, const char *b)
{
    int n = (int)strlen(a), m = (int)strlen(b), d[40][40];
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++) {
            if (!i || !j) {
                d[i][j] = i + j;
                continue;
            }
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* A misspelt command gets "did you mean CMD?" naming the nearest command
 * of `slide --help`'s list when it is close (1 edit, 2 from 5 letters);
 * a word near none gets no guess. */
static void test_did_you_mean(void **state)
{
    (void)state;
    static const char *names[] = {"bfs", "frontier", "parity", "heuristic", "dist", "db",
                                  "pdb", "solve", "solvable", "scramble", "serve"};
    /* the list is the one slide --help prints */
    char *help, *err;
    assert_int_equal(clitest_run("--help", NULL, &help, &err), 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %s ", names[i]);
        assert_non_null(strstr(help, line));
    }
    free(help);
    free(err);
    static const char *typos[] = {"sovle", "slove", "bsf", "herustic", "froniter", "scrambel",
                                  "pdbb", "solvabel", "xyz", "histogram"};
    for (size_t t = 0; t < sizeof typos / sizeof typos[0]; t++) {
        const char *best = NULL;
        int bd = 99, limit = strlen(typos[t]) >= 5 ? 2 : 1;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            int d = distance(typos[t], names[i]);
            if (d < bd) {
                bd = d;
                best = names[i];
            }
        }
        char *out, args[64], want[160];
        snprintf(args, sizeof args, "%s", typos[t]);
        assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
        if (bd <= limit)
            snprintf(want, sizeof want, "slide: unknown command \"%s\": did you mean %s? (see "
                     "slide --help)\n", typos[t], best);
        else
            snprintf(want, sizeof want, "slide: unknown command \"%s\" (see slide --help)\n",
                     typos[t]);
        assert_string_equal(err, want);
        free(out);
        free(err);
    }
}

/* slide bfs on a board beyond the index points at slide frontier. */
static void test_bfs_too_big_points_at_frontier(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_run("bfs 5x5", NULL, &out, &err), 2);
    assert_non_null(strstr(err, "at most 20 cells"));
    assert_non_null(strstr(err, "hint: slide frontier 5x5 --max-depth D"));
    free(out);
    free(err);
    /* beyond frontier's keys too: no pointer to it */
    assert_int_equal(clitest_run("bfs 6x6", NULL, &out, &err), 2);
    assert_null(strstr(err, "frontier"));
    free(out);
    free(err);
}

#define KORF1 "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" /* Korf 1985, instance 1 */
#define KORF1_ROWS "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"
#define BLANK_FIRST_4X4 "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"

/* `slide ARGS`: its exit status, stdout's first word (the verdict) and all
 * of stderr. */
static int slide(const char *args, char *verdict, size_t len, char **err)
{
    char *out;
    int rc = clitest_run(args, NULL, &out, err);
    snprintf(verdict, len, "%.*s", (int)strcspn(out, ":\n"), out);
    free(out);
    return rc;
}

static void test_korf_convention_names_goal(void **state)
{
    (void)state;
    char v[32], *err;
    assert_int_equal(slide("solvable '" KORF1_ROWS "'", v, sizeof v, &err), 0);
    assert_string_equal(v, "unsolvable");
    assert_string_equal(err, "slide: hint: this board cannot reach the standard goal (blank "
                             "last) but can reach the blank-first goal of Korf's convention: "
                             "add --goal '" BLANK_FIRST_4X4 "'\n");
    free(err);
    /* the advice followed */
    assert_int_equal(slide("solvable --goal '" BLANK_FIRST_4X4 "' '" KORF1_ROWS "'", v,
                           sizeof v, &err), 0);
    assert_string_equal(v, "solvable");
    assert_string_equal(err, "");
    free(err);
    /* and the other way: Loyd's board towards the blank-first goal */
    assert_int_equal(slide("solvable --goal '" BLANK_FIRST_4X4 "' '1 2 3 4/5 6 7 8/9 10 11 "
                           "12/13 14 0 15'", v, sizeof v, &err), 0);
    assert_string_equal(v, "unsolvable");
    assert_string_equal(err, "slide: hint: this board cannot reach the blank-first goal of "
                             "Korf's convention but can reach the standard goal (blank last): "
                             "leave out --goal\n");
    free(err);
    /* solve: exit 3, the same hint */
    assert_int_equal(slide("solve '" KORF1_ROWS "'", v, sizeof v, &err), 3);
    assert_non_null(strstr(err, "add --goal '" BLANK_FIRST_4X4 "'"));
    free(err);
    /* odd width: the two goals are one parity class, so no hint */
    assert_int_equal(slide("solvable '1 2 3/4 5 6/8 7 0'", v, sizeof v, &err), 0);
    assert_string_equal(v, "unsolvable");
    assert_string_equal(err, "");
    free(err);
}

static void test_one_line_names_size(void **state)
{
    (void)state;
    char v[32], *err;
    /* Korf's instance as printed, on one line: read as 1x16 */
    assert_int_equal(slide("solvable '" KORF1 "'", v, sizeof v, &err), 0);
    assert_string_equal(v, "unsolvable");
    assert_string_equal(err, "slide: hint: the cells were read as one row (1x16); as 4x4 they "
                             "can reach the blank-first goal of Korf's convention: add --size "
                             "4x4 --goal '" BLANK_FIRST_4X4 "'\n");
    free(err);
    assert_int_equal(slide("solvable --size 4x4 --goal '" BLANK_FIRST_4X4 "' '" KORF1 "'", v,
                           sizeof v, &err), 0);
    assert_string_equal(v, "solvable");
    assert_string_equal(err, "");
    free(err);
    /* a 4x4 board solvable for the standard goal, on one line: --size alone */
    assert_int_equal(slide("solvable '5 1 2 3 4 6 7 8 9 10 11 12 13 14 15 0'", v, sizeof v,
                           &err), 0);
    assert_string_equal(err, "slide: hint: the cells were read as one row (1x16); as 4x4 they "
                             "can reach the standard goal (blank last): add --size 4x4\n");
    free(err);
    assert_int_equal(slide("solvable --size 4x4 '5 1 2 3 4 6 7 8 9 10 11 12 13 14 15 0'", v,
                           sizeof v, &err), 0);
    assert_string_equal(v, "solvable");
    free(err);
    /* solvable as a path too: the shape is still worth a word; 12 cells 3x4 */
    assert_int_equal(slide("solve --count '1 2 3 4 5 6 7 8 9 10 0 11'", v, sizeof v, &err), 0);
    assert_string_equal(v, "1");
    assert_string_equal(err, "slide: hint: the cells were read as one row (1x12), a path; for "
                             "a 3x4 board add --size 3x4\n");
    free(err);
    /* a size given, or a prime count of cells: no hint */
    assert_int_equal(slide("solvable --size 1x16 '" KORF1 "'", v, sizeof v, &err), 0);
    assert_string_equal(v, "unsolvable");
    assert_string_equal(err, "");
    free(err);
    assert_int_equal(slide("solvable '2 1 3 4 5 6 0'", v, sizeof v, &err), 0);
    assert_string_equal(err, "");
    free(err);
}

/* Many boards: one hint, not one per board. */
static void test_one_hint_per_run(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_run("solve --count -", KORF1_ROWS "\n" KORF1_ROWS "\n", &out, &err),
                     3);
    assert_int_equal(clitest_count_lines(out), 2);
    assert_int_equal(clitest_count_lines(err), 1);
    assert_non_null(strstr(err, "slide: hint: this board cannot reach the standard goal"));
    free(out);
    free(err);
}

/* dist: the goal is the database's, so the hint names a database of the
 * other goal. */
static void test_dist_names_a_database(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x4 --save '%s/2x4.db'", DIR), 0);
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "dist --db '%s/2x4.db' '1 3 2 4/5 6 7 0' "
                                  "'1 2 3 4/5 6 7 0'", DIR), 3);
    assert_non_null(strstr(out, "unsolvable"));
    assert_string_equal(err, "slide: hint: this board cannot reach the standard goal (blank "
                             "last) but can reach the blank-first goal of Korf's convention: a "
                             "file built for that goal answers it (slide bfs 2x4 --goal "
                             "'0 1 2 3/4 5 6 7' --save FILE; slide pdb build likewise)\n");
    free(out);
    free(err);
    /* the advice followed: that database has the board, at a distance */
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x4 --goal '0 1 2 3/4 5 6 7' --save "
                                  "'%s/2x4-first.db'", DIR), 0);
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "dist --db '%s/2x4-first.db' '1 3 2 4/5 6 7 0'",
                                  DIR), 0);
    assert_null(strstr(out, "unsolvable"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mpi_points_at_the_mpi_build, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test(test_did_you_mean), cmocka_unit_test(test_bfs_too_big_points_at_frontier),
        cmocka_unit_test(test_korf_convention_names_goal),
        cmocka_unit_test(test_one_line_names_size),
        cmocka_unit_test(test_one_hint_per_run),
        cmocka_unit_test_setup_teardown(test_dist_names_a_database, scripttest_setup,
                                        scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
