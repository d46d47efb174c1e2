/*
 * test_plots.c - scripts/plots.sh: run from another directory with a
 * relative RESULTS path (and one with a quote and a space), it writes every
 * figure into RESULTS/figures and nowhere else, each named after its CSV
 * file without ':' or '+', and none named with a literal '*'; a RESULTS
 * without CSV files is refused (exit 2) and writes nothing.
 *
 * The figures need gnuplot: without it the tests that draw say so in a
 * "skip:" line (make test lists it) and are skipped; the refusals, which
 * come before gnuplot is looked for, run everywhere.
 */
#include "testutil.h"

#include "scripttest.h"

#define DIR scripttest_dir() /* the test's scratch directory */

static int have_gnuplot(void)
{
    char *out;
    int rc = scripttest_sh(&out, "command -v gnuplot");
    free(out);
    if (rc) {
        printf("skip: no gnuplot, the figures were not drawn (apt-get install gnuplot-nox)\n");
        return 0;
    }
    return 1;
}

/* RESULTS at DIR/sub with a 2x3 histogram from slide and a joint table
 * whose name holds ':' and '+' (the form of results/joint/pdb-*.csv). */
static void results_dir(const char *sub)
{
    char *out, *err;
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    assert_int_equal(scripttest_sh(&out, "mkdir -p \"%s/%s/histograms\" \"%s/%s/joint\" && "
                                   "'%s' bfs 2x3 --format csv > \"%s/%s/histograms/2x3.csv\" && "
                                   "'%s' heuristic 2x3 --h manhattan --format csv --joint "
                                   "\"%s/%s/joint/pdb-2x3-pdb:a+b.csv\" > /dev/null",
                                   DIR, sub, DIR, sub, slide, DIR, sub, slide, DIR, sub), 0);
    free(out);
    (void)err;
}

/* Every file under path, one per line (names relative to path). */
static char *files_under(const char *path)
{
    char *out;
    assert_int_equal(scripttest_sh(&out, "cd \"%s\" && find . -type f | sort", path), 0);
    return out;
}

static void test_relative_path_from_elsewhere(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    results_dir("res");
    char *out;
    int rc = scripttest_sh(&out, "mkdir '%s/elsewhere' && cd '%s/elsewhere' && sh "
                           SCRIPTTEST_ROOT "/scripts/plots.sh ../res", DIR, DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    free(out);
    char where[256];
    snprintf(where, sizeof where, "%s/elsewhere", DIR);
    char *stray = files_under(where);
    assert_string_equal(stray, ""); /* nothing written where it ran */
    free(stray);
    snprintf(where, sizeof where, "%s/res/figures", DIR);
    char *figs = files_under(where);
    const char *want[] = {"./hist-2x3.svg", "./hist-2x3.png", "./hist-2x3-log.svg",
                          "./hist-2x3-log.png", "./histograms-normalised.svg",
                          "./histograms-normalised.png", "./joint-pdb-2x3-pdb-a_b.svg",
                          "./joint-pdb-2x3-pdb-a_b.png"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(figs, want[i]))
            fail_msg("no %s in:\n%s", want[i], figs);
    assert_int_equal(clitest_count_lines(figs), (int)(sizeof want / sizeof want[0]));
    assert_null(strpbrk(figs, ":+*"));
    free(figs);
    /* the SVG names its CSV relative to RESULTS, wherever that is */
    char svg[256];
    snprintf(svg, sizeof svg, "%s/res/figures/hist-2x3.svg", DIR);
    size_t len;
    char *text = test_read_file(svg, &len);
    assert_non_null(text);
    assert_non_null(strstr(text, "'histograms/2x3.csv'"));
    assert_null(strstr(text, DIR));
    free(text);
}

static void test_quote_and_space_in_path(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    results_dir("it's here");
    char *out;
    int rc = scripttest_sh(&out, "cd '%s' && sh " SCRIPTTEST_ROOT "/scripts/plots.sh \"it's here\"",
                           DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    free(out);
    char where[256];
    snprintf(where, sizeof where, "%s/it's here/figures", DIR);
    char *figs = files_under(where);
    assert_non_null(strstr(figs, "./hist-2x3.svg\n"));
    assert_non_null(strstr(figs, "./joint-pdb-2x3-pdb-a_b.png\n"));
    free(figs);
}

/* Joint tables only: no histogram figures, none named '*'. */
static void test_empty_glob_writes_no_star(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    results_dir("res");
    char *out;
    assert_int_equal(scripttest_sh(&out, "rm -r '%s/res/histograms' && sh " SCRIPTTEST_ROOT
                                   "/scripts/plots.sh '%s/res'", DIR, DIR), 0);
    free(out);
    char where[256];
    snprintf(where, sizeof where, "%s/res/figures", DIR);
    char *figs = files_under(where);
    assert_string_equal(figs, "./joint-pdb-2x3-pdb-a_b.png\n./joint-pdb-2x3-pdb-a_b.svg\n");
    free(figs);
}

static void test_nothing_to_plot_refused(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(scripttest_sh(&out, "mkdir -p '%s/empty/histograms' && cd '%s' && sh "
                                   SCRIPTTEST_ROOT "/scripts/plots.sh empty", DIR, DIR), 2);
    assert_non_null(strstr(out, "plots: no CSV files in "));
    free(out);
    char where[256];
    snprintf(where, sizeof where, "%s/empty", DIR);
    char *files = files_under(where);
    assert_string_equal(files, ""); /* no figures/, no 'hist-*.svg' */
    free(files);
    assert_int_equal(scripttest_sh(&out, "cd '%s' && sh " SCRIPTTEST_ROOT
                                   "/scripts/plots.sh no-such-DIR", DIR), 2);
    assert_non_null(strstr(out, "plots: no-such-DIR is not a directory"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_relative_path_from_elsewhere, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_quote_and_space_in_path, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_empty_glob_writes_no_star, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_nothing_to_plot_refused, scripttest_setup, scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
