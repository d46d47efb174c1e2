/*
 * test_libslide.c - libslide as a user meets it (docs/libslide.md): `make
 * install` into a DESTDIR, the example docs/examples/sweep_mine.c built
 * with pkg-config against that install and run, and the example plugin
 * docs/examples/my_heuristic.c built as a shared object and given to
 * `slide heuristic --h plugin:FILE.so`.
 *
 * Independent truths: the boards, mean Manhattan distance and the number of
 * boards where twice the Manhattan distance exceeds the exact distance are
 * computed here by a plain BFS (testutil.h) and the reference Manhattan of
 * refheur.h, none of slide's code.  That the plugin's report equals the
 * built-in manhattan's column by column is a consistency test.
 */
#include <math.h>

#include "testutil.h"

#include "refheur.h"
#include "scripttest.h"

#define DIR scripttest_dir()
#define EXAMPLES SCRIPTTEST_ROOT "/docs/examples"

/* The sanitizer flags of this build, for what is linked against it. */
#if defined(__SANITIZE_ADDRESS__)
#define SAN " -fsanitize=address,undefined"
#else
#define SAN ""
#endif

/* Truths for the 3x3 board with the standard goal, by plain BFS. */
struct truth {
    uint64_t boards;
    double mean_manhattan;
    uint64_t scaled_violations; /* boards with 2 * manhattan > d */
};

static struct truth truth_3x3(void)
{
    struct board goal = {0};
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    struct naive_set set;
    uint64_t hist[64];
    naive_bfs(3, 3, goal.cells, hist, 64, &set);
    struct truth t = {0};
    uint64_t sum = 0;
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i])
            continue;
        int cells[9];
        for (int k = 0; k < 9; k++)
            cells[k] = naive_cell(set.keys[i], k);
        int m = ref_manhattan(&goal, cells);
        sum += (uint64_t)m;
        t.scaled_violations += 2 * m > set.dist[i];
        t.boards++;
    }
    t.mean_manhattan = (double)sum / (double)t.boards;
    naive_free(&set);
    board_free(&goal);
    return t;
}

/* The build directory of the slide under test ($SLIDE's folder). */
static void build_dir(char *buf, size_t len)
{
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    snprintf(buf, len, "%s", slide);
    char *slash = strrchr(buf, '/');
    assert_non_null(slash);
    *slash = '\0';
}

/* make install into DIR/root with PREFIX=/opt/slide; the environment that
 * makes pkg-config find it. */
#define PKG_ENV "PKG_CONFIG_PATH='%s/root/opt/slide/lib/pkgconfig' PKG_CONFIG_SYSROOT_DIR='%s/root'"

static void install(void)
{
    char build[1024], *out;
    build_dir(build, sizeof build);
    int rc = scripttest_sh(&out, "make -s -C " SCRIPTTEST_ROOT " BUILD='%s' DESTDIR='%s/root' "
                           "PREFIX=/opt/slide install >/dev/null", build, DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    free(out);
}

static void test_install_has_headers_libraries_and_pc(void **state)
{
    (void)state;
    install();
    const char *want[] = {"include/slide.h", "include/slide/heuristic_api.h",
                          "include/slide/board.h", "include/slide/sweep.h",
                          "lib/libslide.a", "lib/libslide.so.0", "lib/libslide.so",
                          "lib/pkgconfig/slide.pc"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/root/opt/slide/%s", DIR, want[i]);
        if (stat(path, &st) != 0)
            fail_msg("make install left out %s", want[i]);
    }
    char *out;
    assert_int_equal(scripttest_sh(&out, PKG_ENV " pkg-config --cflags --libs slide", DIR, DIR), 0);
    assert_non_null(strstr(out, "/root/opt/slide/include"));
    assert_non_null(strstr(out, "-lslide"));
    free(out);
    /* the prefix is the one given, not the DESTDIR */
    assert_int_equal(scripttest_sh(&out, "grep '^prefix=' '%s/root/opt/slide/lib/pkgconfig/slide.pc'",
                                   DIR), 0);
    assert_string_equal(out, "prefix=/opt/slide\n");
    free(out);
}

/* The value after `key ` on the line of heuristic `name` in sweep_mine's output. */
static double field(const char *out, const char *name, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof pat, "%s boards ", name);
    const char *line = strstr(out, pat);
    while (line && line != out && line[-1] != '\n')
        line = strstr(line + 1, pat);
    if (!line)
        fail_msg("no line for %s in:\n%s", name, out);
    snprintf(pat, sizeof pat, " %s ", key);
    const char *v = strstr(line, pat);
    assert_non_null(v);
    if (strcmp(key, "admissible") == 0)
        return strncmp(v + strlen(pat), "yes", 3) == 0;
    return strtod(v + strlen(pat), NULL);
}

static void test_program_built_with_pkg_config(void **state)
{
    (void)state;
    install();
    struct truth t = truth_3x3();
    char *out;
    int rc = scripttest_sh(&out, "cd '%s' && " PKG_ENV " && export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR && "
                           "cc" SAN " -Wall -Wextra -Werror -o sweep_mine " EXAMPLES "/sweep_mine.c "
                           EXAMPLES "/my_heuristic.c $(pkg-config --cflags --libs slide) && "
                           "LD_LIBRARY_PATH='%s/root/opt/slide/lib' ./sweep_mine 3x3",
                           DIR, DIR, DIR, DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    assert_int_equal((uint64_t)field(out, "my-manhattan", "boards"), t.boards);
    assert_true(field(out, "my-manhattan", "admissible"));
    assert_int_equal((int)field(out, "my-manhattan", "violations"), 0);
    assert_true(fabs(field(out, "my-manhattan", "mean_h") - t.mean_manhattan) < 1e-6);
    assert_true(fabs(field(out, "manhattan", "mean_h") - t.mean_manhattan) < 1e-6);
    free(out);
    /* it runs against the installed shared library, not a static copy */
    assert_int_equal(scripttest_sh(&out, "LD_LIBRARY_PATH='%s/root/opt/slide/lib' ldd '%s/sweep_mine'",
                                   DIR, DIR), 0);
    assert_non_null(strstr(out, "/root/opt/slide/lib/libslide.so.0"));
    free(out);
}

/* Build the example plugin into DIR/NAME.so with extra cc flags. */
static void build_plugin(const char *name, const char *flags, const char *source)
{
    char *out;
    int rc = scripttest_sh(&out, "cc -Wall -Wextra -Werror -shared -fPIC -I" SCRIPTTEST_ROOT
                           "/include %s -o '%s/%s.so' '%s'", flags, DIR, name, source);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    free(out);
}

/* The CSV record of heuristic name (from --format csv), the name cut off. */
static void csv_record(const char *csv, const char *name, char *buf, size_t len)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\n%s,", name);
    const char *p = strstr(csv, pat);
    if (!p)
        fail_msg("no record for %s in:\n%s", name, csv);
    p += strlen(pat);
    size_t n = strcspn(p, "\n");
    assert_true(n < len);
    memcpy(buf, p, n);
    buf[n] = '\0';
}

static void test_plugin_matches_builtin_and_truth(void **state)
{
    (void)state;
    struct truth t = truth_3x3();
    build_plugin("mine", "", EXAMPLES "/my_heuristic.c");
    char *out, *err, mine[512], builtin[512];
    int rc = clitest_runf(&out, &err, "heuristic 3x3 --h manhattan,plugin:%s/mine.so --format csv "
                          "--no-progress", DIR);
    if (rc)
        print_message("%s", err);
    assert_int_equal(rc, 0);
    csv_record(out, "manhattan", builtin, sizeof builtin);
    csv_record(out, "my-manhattan", mine, sizeof mine);
    assert_string_equal(mine, builtin); /* consistency: the same measures */
    /* boards,admissible,violations,max_excess,consistent,...,mean_h,... */
    char f[64];
    clitest_field(mine, 0, f, sizeof f);
    assert_int_equal(strtoull(f, NULL, 10), t.boards);
    clitest_field(mine, 1, f, sizeof f);
    assert_string_equal(f, "yes");
    clitest_field(mine, 6, f, sizeof f);
    assert_true(fabs(strtod(f, NULL) - t.mean_manhattan) < 1e-6);
    free(out);
    free(err);
}

static void test_inadmissible_plugin_exits_1(void **state)
{
    (void)state;
    struct truth t = truth_3x3();
    build_plugin("twice", "-DMY_SCALE=2", EXAMPLES "/my_heuristic.c");
    char *out, *err, rec[512], f[64];
    int rc = clitest_runf(&out, &err, "heuristic 3x3 --h plugin:%s/twice.so --format csv "
                          "--no-progress", DIR);
    assert_int_equal(rc, 1); /* the docs: 1 when a claim is refuted */
    csv_record(out, "my-scaled-manhattan", rec, sizeof rec);
    clitest_field(rec, 1, f, sizeof f);
    assert_string_equal(f, "no");
    clitest_field(rec, 2, f, sizeof f);
    assert_int_equal(strtoull(f, NULL, 10), t.scaled_violations);
    assert_non_null(strstr(err, "my-scaled-manhattan is claimed admissible"));
    free(out);
    free(err);
}

static void expect_refused(const char *spec, const char *words)
{
    char *out, *err;
    int rc = clitest_runf(&out, &err, "heuristic 2x3 --h '%s' --no-progress", spec);
    assert_int_equal(rc, 2);
    if (!strstr(err, words))
        fail_msg("%s: expected \"%s\" in: %s", spec, words, err);
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
}

/* DIR/NAME.so: a plugin "zero" (h = 0) declaring the ABI version abi. */
static void zero_plugin(const char *name, const char *abi)
{
    char src[512], text[1024];
    snprintf(src, sizeof src, "%s/%s.c", DIR, name);
    snprintf(text, sizeof text, "#include <slide/heuristic_api.h>\n"
             "static int h(const int *c, int r, int k, void *u)\n"
             "{ (void)c; (void)r; (void)k; (void)u; return 0; }\n"
             "const struct slide_heuristic_spec slide_heuristic_plugin =\n"
             "{ %s, \"zero\", h, 0, 0, 2, 2, 0 };\n", abi);
    scripttest_write(src, text, 0);
    build_plugin(name, "", src);
}

static void test_plugin_errors_are_one_clear_line(void **state)
{
    (void)state;
    char spec[600], src[512];
    snprintf(spec, sizeof spec, "plugin:%s/absent.so", DIR);
    expect_refused(spec, "No such file");
    /* not a shared object */
    snprintf(src, sizeof src, "%s/text.so", DIR);
    scripttest_write(src, "not an ELF file\n", 0);
    snprintf(spec, sizeof spec, "plugin:%s", src);
    expect_refused(spec, "not a loadable shared object");
    /* a shared object without the symbol */
    snprintf(src, sizeof src, "%s/nosym.c", DIR);
    scripttest_write(src, "int something_else = 1;\n", 0);
    build_plugin("nosym", "", src);
    snprintf(spec, sizeof spec, "plugin:%s/nosym.so", DIR);
    expect_refused(spec, "exports no slide_heuristic_plugin");
    /* another ABI version */
    zero_plugin("abi", "SLIDE_HEURISTIC_ABI + 1");
    snprintf(spec, sizeof spec, "plugin:%s/abi.so", DIR);
    expect_refused(spec, "of API version 2, this slide takes version 1");
    /* the same file at the right version works (the check can pass) */
    zero_plugin("abi1", "SLIDE_HEURISTIC_ABI");
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "heuristic 2x3 --h plugin:%s/abi1.so --no-progress",
                                  DIR), 0);
    assert_non_null(strstr(out, "zero"));
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_install_has_headers_libraries_and_pc,
                                        scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_program_built_with_pkg_config, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_plugin_matches_builtin_and_truth, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_inadmissible_plugin_exits_1, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_plugin_errors_are_one_clear_line, scripttest_setup,
                                        scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
