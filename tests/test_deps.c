/*
 * test_deps.c - scripts/deps.sh, which every make runs first, on machines
 * made up here: a PATH of stand-in programs (pkg-config answering from a
 * list of installed packages, id saying root or not, an apt-get that
 * "installs" a package by adding it to that list and logs each call) and
 * an empty include directory.  The truths are the stand-in machine's
 * packages, set by each test: what is missing must be installed (root with
 * apt-get) or named, one line for each part of the full tool left out
 * (slide serve, build/slide-mpi), the build stopped only for a required
 * package, and a failed install not retried by every make.
 */
#include "testutil.h"

#include "scripttest.h"

static char dir[128];

/* The stand-in programs: $D/pc/NAME exists for each package pkg-config
 * knows; $D/broken lists packages apt-get cannot install. */
static const char pkg_config[] =
    "#!/bin/sh\n"
    "for a; do case $a in --*) ;; *) [ -f \"$D/pc/$a\" ] || exit 1 ;; esac; done\n"
    "exit 0\n";
static const char apt_get[] =
    "#!/bin/sh\n"
    "echo \"$*\" >> \"$D/apt.log\"\n"
    "[ \"$1\" = update ] && exit 0\n"
    "pkgs=''\n"
    "for a; do case $a in -*|install) ;; *) pkgs=\"$pkgs $a\" ;; esac; done\n"
    "for p in $pkgs; do grep -qx \"$p\" \"$D/broken\" 2>/dev/null && "
    "{ echo \"E: Unable to locate package $p\" >&2; exit 100; }; done\n"
    "for p in $pkgs; do echo \"Setting up $p ...\"; case $p in\n"
    "  gcc) printf '#!/bin/sh\\n' > \"$D/bin/cc\"; chmod +x \"$D/bin/cc\" ;;\n"
    "  pkg-config) cp \"$D/pkg-config.stub\" \"$D/bin/pkg-config\" ;;\n"
    "  zlib1g-dev) touch \"$D/pc/zlib\" ;;\n"
    "  libcmocka-dev) touch \"$D/pc/cmocka\" ;;\n"
    "  libmicrohttpd-dev) touch \"$D/pc/libmicrohttpd\" ;;\n"
    "  libjansson-dev) touch \"$D/pc/jansson\" ;;\n"
    "  libopenmpi-dev) printf '#!/bin/sh\\n' > \"$D/bin/mpicc\"; chmod +x \"$D/bin/mpicc\" ;;\n"
    "  gnuplot-nox) printf '#!/bin/sh\\n' > \"$D/bin/gnuplot\"; chmod +x \"$D/bin/gnuplot\" ;;\n"
    "  chromium) printf '#!/bin/sh\\n' > \"$D/bin/chromium\"; chmod +x \"$D/bin/chromium\" ;;\n"
    "  nodejs) printf '#!/bin/sh\\n' > \"$D/bin/node\"; chmod +x \"$D/bin/node\" ;;\n"
    "  npm) printf '#!/bin/sh\\n' > \"$D/bin/npm\"; chmod +x \"$D/bin/npm\" ;;\n"
    "esac; done\n"
    "exit 0\n";

/* A machine with a C compiler (cc), pkg-config and the packages in
 * installed (space-separated pkg-config names); root or not; with apt-get
 * when root. */
static void machine(const char *installed, int root)
{
    char path[256], *out;
    scripttest_tmpdir(dir, sizeof dir);
    assert_int_equal(scripttest_sh(&out, "cd '%s' && mkdir bin pc include && "
                                   "for p in cat mkdir dirname rm cp touch grep chmod "
                                   "mktemp sort sed; do "
                                   "ln -s \"$(command -v $p)\" bin/$p; done && "
                                   "for p in %s; do touch pc/$p; done", dir, installed), 0);
    free(out);
    snprintf(path, sizeof path, "%s/pkg-config.stub", dir);
    scripttest_write(path, pkg_config, 1);
    snprintf(path, sizeof path, "%s/bin/pkg-config", dir);
    scripttest_write(path, pkg_config, 1);
    snprintf(path, sizeof path, "%s/bin/cc", dir);
    scripttest_write(path, "#!/bin/sh\n", 1);
    snprintf(path, sizeof path, "%s/bin/id", dir);
    scripttest_write(path, root ? "#!/bin/sh\necho 0\n" : "#!/bin/sh\necho 1000\n", 1);
    if (root) {
        snprintf(path, sizeof path, "%s/bin/apt-get", dir);
        scripttest_write(path, apt_get, 1);
    }
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* deps.sh MODE on the machine (env: extra variables); output in *out. */
static int deps(const char *env, const char *mode, char **out)
{
    return scripttest_sh(out, "D='%s' PATH='%s/bin' DEPS_INCLUDE='%s/include' "
                         "DEPS_STAMP='%s/build/deps-failed' CC=cc %s /bin/sh "
                         SCRIPTTEST_ROOT "/scripts/deps.sh %s", dir, dir, dir, dir, env, mode);
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The number of apt-get calls logged (0 when none). */
static int apt_calls(const char *what)
{
    char *out;
    scripttest_sh(&out, "grep -c '^%s' '%s/apt.log' || true", what, dir);
    int n = atoi(out);
    free(out);
    return n;
}

/* Not root: each left-out part of the full tool gets exactly one line,
 * naming its packages and the command; the build goes on. */
static void test_user_names_each_part_once(void **state)
{
    (void)state;
    machine("zlib", 0);
    char *out;
    assert_int_equal(deps("", "build", &out), 0);
    assert_int_equal(lines(out), 2);
    assert_non_null(strstr(out, "slide: building without slide serve: libmicrohttpd-dev "
                                "libjansson-dev are missing (make deps as root, or sudo "
                                "apt-get install -y libmicrohttpd-dev libjansson-dev)\n"));
    assert_non_null(strstr(out, "slide: building without build/slide-mpi (slide bfs --mpi): "
                                "libopenmpi-dev openmpi-bin are missing (make deps as root, or "
                                "sudo apt-get install -y libopenmpi-dev openmpi-bin)\n"));
    free(out);
    /* one library of the pair present: only the other is named */
    teardown(NULL);
    machine("zlib jansson", 0);
    assert_int_equal(deps("NO_MPI=1", "build", &out), 0);
    assert_string_equal(out, "slide: building without slide serve: libmicrohttpd-dev is "
                             "missing (make deps as root, or sudo apt-get install -y "
                             "libmicrohttpd-dev)\n");
    free(out);
}

/* deps.sh stops the build (exit 1) and prints exactly line. */
static void stops_with(const char *env, const char *mode, const char *line)
{
    char *out;
    assert_int_equal(deps(env, mode, &out), 1);
    assert_string_equal(out, line);
    free(out);
}

static void test_user_required_missing_stops(void **state)
{
    (void)state;
    machine("libmicrohttpd jansson", 0);
    char *out;
    stops_with("NO_MPI=1", "build", "slide: cannot build: zlib1g-dev is missing (make deps as "
                                    "root, or sudo apt-get install -y zlib1g-dev)\n");
    assert_int_equal(deps("NO_MPI=1", "test", &out), 1);
    assert_non_null(strstr(out, "zlib1g-dev libcmocka-dev are missing"));
    free(out);
    /* make results needs gnuplot for its figures */
    teardown(NULL);
    machine("zlib libmicrohttpd jansson", 0);
    stops_with("NO_MPI=1", "results", "slide: make results draws its figures with gnuplot: "
                                      "gnuplot-nox is missing (make deps as root, or sudo "
                                      "apt-get install -y gnuplot-nox)\n");
}

static void test_everything_there_is_silent(void **state)
{
    (void)state;
    machine("zlib cmocka libmicrohttpd jansson", 0);
    char *out, path[256];
    snprintf(path, sizeof path, "%s/bin/mpicc", dir);
    scripttest_write(path, "#!/bin/sh\n", 1);
    assert_int_equal(deps("", "build", &out), 0);
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(deps("", "test", &out), 0);
    assert_string_equal(out, "");
    free(out);
    /* parts left out on purpose (make HAVE_SERVE=0 HAVE_MPI=0): no line */
    teardown(NULL);
    machine("zlib", 0);
    assert_int_equal(deps("NO_SERVE=1 NO_MPI=1", "build", &out), 0);
    assert_string_equal(out, "");
    free(out);
}

/* Root with apt-get: the full tool is installed, once. */
static void test_root_installs_the_full_tool(void **state)
{
    (void)state;
    machine("", 1);
    char *out, path[256];
    snprintf(path, sizeof path, "%s/bin/pkg-config", dir);
    unlink(path); /* a bare machine: not even pkg-config */
    assert_int_equal(deps("", "build", &out), 0);
    assert_non_null(strstr(out, "slide: installing pkg-config zlib1g-dev libmicrohttpd-dev "
                                "libjansson-dev libopenmpi-dev openmpi-bin with apt-get"));
    assert_null(strstr(out, "building without"));
    assert_null(strstr(out, "Setting up")); /* apt-get's own lines stay out of make's */
    assert_int_equal(lines(out), 1);
    free(out);
    assert_int_equal(apt_calls("update"), 1);
    assert_int_equal(apt_calls("install"), 1);
    assert_int_equal(deps("", "build", &out), 0); /* all there now: nothing to do */
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(apt_calls("install"), 1);
}

/* Root, but Open MPI cannot be installed: the rest is, the MPI line says
 * so, and the next make does not try again; make deps does. */
static void test_root_failed_install_not_retried(void **state)
{
    (void)state;
    machine("zlib", 1);
    char *out, path[256];
    snprintf(path, sizeof path, "%s/broken", dir);
    scripttest_write(path, "libopenmpi-dev\n", 0);
    assert_int_equal(deps("", "build", &out), 0);
    assert_non_null(strstr(out, "slide: building without build/slide-mpi (slide bfs --mpi): "
                                "libopenmpi-dev openmpi-bin are missing (apt-get could not "
                                "install them; make deps tries again)\n"));
    assert_null(strstr(out, "without slide serve"));
    /* apt-get's reason, once, though the package was tried twice */
    const char *why = "slide: apt-get: E: Unable to locate package libopenmpi-dev\n";
    const char *at = strstr(out, why);
    assert_non_null(at);
    assert_null(strstr(at + 1, why));
    assert_null(strstr(out, "Setting up"));
    free(out);
    int tries = apt_calls("install");
    assert_true(tries >= 2); /* all at once, then part by part */
    assert_int_equal(deps("", "build", &out), 0);
    assert_non_null(strstr(out, "building without build/slide-mpi"));
    assert_null(strstr(out, "installing"));
    free(out);
    assert_int_equal(apt_calls("install"), tries);
    assert_int_equal(deps("", "all", &out), 0); /* make deps: tried again */
    free(out);
    assert_true(apt_calls("install") > tries);
}

/* No C compiler (a bare image: gcc-12 may come with Open MPI, but not cc):
 * a user is told to install gcc, root gets it; CC names another compiler. */
static void test_compiler(void **state)
{
    (void)state;
    machine("zlib libmicrohttpd jansson", 0);
    char *out, path[256];
    snprintf(path, sizeof path, "%s/bin/cc", dir);
    unlink(path);
    stops_with("NO_MPI=1", "build", "slide: cannot build: gcc is missing (make deps as root, "
                                    "or sudo apt-get install -y gcc)\n");
    stops_with("NO_MPI=1 CC=clang", "build", "slide: cannot build: clang is missing (make deps "
                                             "as root, or sudo apt-get install -y clang)\n");
    scripttest_write(path, "#!/bin/sh\n", 1); /* cc there: CC='cc -std=c11' is cc */
    assert_int_equal(deps("NO_MPI=1 CC='cc -std=c11'", "build", &out), 0);
    assert_string_equal(out, "");
    free(out);
    teardown(NULL);
    machine("", 1);
    snprintf(path, sizeof path, "%s/bin/cc", dir);
    unlink(path);
    assert_int_equal(deps("", "build", &out), 0);
    assert_non_null(strstr(out, "slide: installing gcc zlib1g-dev "));
    free(out);
    assert_int_equal(access(path, X_OK), 0);
}

/* A make of its own, as a user's shell starts it: under `make test` the
 * environment carries the outer make's MAKELEVEL (a sub-make does not run
 * deps.sh), MAKEFLAGS and HAVE_SERVE (make-test.sh's), which would decide
 * for the make under test. */
#define MAKE_FRESH "unset MAKELEVEL MAKEFLAGS MFLAGS HAVE_SERVE HAVE_MPI;"

/* The Makefile on such a machine (make -n: nothing built): deps.sh runs
 * before make looks, its lines say what is left out, and what make then
 * decides agrees with them - no server flag, no slide-mpi, and make test
 * told which suites it leaves out and why. */
static void test_make_says_what_it_leaves_out(void **state)
{
    (void)state;
    machine("zlib cmocka", 0);
    char *out;
    assert_int_equal(scripttest_sh(&out, "cd '%s/bin' && for p in sh make uname sed tr sort "
                                   "find env; do ln -sf \"$(command -v $p)\" $p; done", dir),
                     0);
    free(out);
    assert_int_equal(scripttest_sh(&out, "cd " SCRIPTTEST_ROOT " && " MAKE_FRESH " D='%s' "
                                   "PATH='%s/bin' DEPS_INCLUDE='%s/include' make -n "
                                   "BUILD='%s/build' all test",
                                   dir, dir, dir, dir), 0);
    assert_non_null(strstr(out, "slide: building without slide serve: libmicrohttpd-dev "
                                "libjansson-dev are missing"));
    assert_non_null(strstr(out, "slide: building without build/slide-mpi (slide bfs --mpi): "
                                "libopenmpi-dev openmpi-bin are missing"));
    assert_null(strstr(out, "-DSLIDE_HAVE_SERVE"));
    char link[256];
    snprintf(link, sizeof link, "-o %s/build/slide-mpi", dir);
    assert_null(strstr(out, link));
    assert_non_null(strstr(out, "SKIP_SERVE='test_serve test_serve_conns test_serve_hostile "
                                "test_serve_load test_serve_mtm'"));
    assert_non_null(strstr(out, "SKIP_SERVE_WHY='libmicrohttpd-dev libjansson-dev are missing "
                                "(make deps)'"));
    assert_non_null(strstr(out, "SKIP_MPI_WHY='no mpicc: libopenmpi-dev openmpi-bin are "
                                "missing (make deps)'"));
    /* one line each, once: not again for make's own sub-makes */
    const char *first = strstr(out, "building without slide serve");
    assert_null(strstr(first + 1, "building without slide serve"));
    free(out);
    /* HAVE_SERVE=0 HAVE_MPI=0: left out on purpose, without a word */
    assert_int_equal(scripttest_sh(&out, "cd " SCRIPTTEST_ROOT " && " MAKE_FRESH " D='%s' "
                                   "PATH='%s/bin' DEPS_INCLUDE='%s/include' make -n "
                                   "BUILD='%s/build' HAVE_SERVE=0 HAVE_MPI=0 test", dir, dir, dir, dir), 0);
    assert_null(strstr(out, "building without"));
    assert_non_null(strstr(out, "SKIP_SERVE_WHY='make HAVE_SERVE=0'"));
    assert_non_null(strstr(out, "SKIP_MPI_WHY='make HAVE_MPI=0'"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_user_names_each_part_once, teardown),
        cmocka_unit_test_teardown(test_user_required_missing_stops, teardown),
        cmocka_unit_test_teardown(test_everything_there_is_silent, teardown),
        cmocka_unit_test_teardown(test_root_installs_the_full_tool, teardown),
        cmocka_unit_test_teardown(test_root_failed_install_not_retried, teardown),
        cmocka_unit_test_teardown(test_compiler, teardown),
        cmocka_unit_test_teardown(test_make_says_what_it_leaves_out, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
