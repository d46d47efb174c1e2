/*
 * test_heuristic_cli.c - `slide heuristic` end to end, through the binary
 * named by $SLIDE (set by make test): the CSV record format, the joint
 * files (names, header, sums against the published 3x3 histogram), the
 * lc-pairs violations and every max_step against the test's own evaluator
 * (refheur.h) and the naive BFS, the
 * provenance prefix, and the exit status of bad requests.
 */
#define _XOPEN_SOURCE 700 /* mknod */
#include "testutil.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "clitest.h"
#include "refheur.h"

static char tmpdir[256];
static char *last_err; /* standard error of the last run */

/*
 * Run "$SLIDE args" with every "@" in args replaced by the test's
 * temporary directory; stdout into *out (malloc'd); returns the exit status.
 */
static int run(const char *args, char **out)
{
    char expanded[2048];
    size_t k = 0;
    for (const char *p = args; *p && k + sizeof tmpdir < sizeof expanded; p++)
        if (*p == '@')
            k += (size_t)snprintf(expanded + k, sizeof expanded - k, "%s", tmpdir);
        else
            expanded[k++] = *p;
    expanded[k] = '\0';
    free(last_err);
    return clitest_run(expanded, NULL, out, &last_err);
}

static char *read_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *text = malloc(1 << 20);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static int exists(const char *name)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return stat(path, &st) == 0;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/slide-heur-cli-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(last_err);
    last_err = NULL;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *header =
    "heuristic,boards,admissible,violations,max_excess,consistent,"
    "consistency_violations,mean_h,mean_d,mean_ratio,exact_fraction,parity_ok,"
    "max_step\n";

/* What the test computes itself for one heuristic on 3x3. */
struct ref_stats {
    uint64_t violations; /* boards with h > d */
    int max_step;        /* largest |h(s) - h(s')| over the edges */
};

/* h of the test's own evaluator (refheur.h): 0 Manhattan, 1 lc-pairs. */
static int ref_h(const struct board *goal, const int *cells, int which)
{
    return which ? (int)ref_lc(goal, cells, 1) : ref_manhattan(goal, cells);
}

/* Violations and the largest step over edges on 3x3, from the naive BFS and
 * the reference evaluator, none of slide's heuristic code. */
static struct ref_stats reference_stats(int which)
{
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    struct ref_stats r = {0, 0};
    naive_bfs(3, 3, goal.cells, hist, 64, &set);
    for (size_t s = 0; s < set.cap; s++) {
        if (!set.keys[s])
            continue;
        int cells[9], z = 0;
        for (int k = 0; k < 9; k++)
            cells[k] = naive_cell(set.keys[s], k);
        int h = ref_h(&goal, cells, which);
        r.violations += h > set.dist[s];
        while (cells[z])
            z++;
        int to[4] = {z >= 3 ? z - 3 : -1, z < 6 ? z + 3 : -1, z % 3 ? z - 1 : -1,
                     z % 3 < 2 ? z + 1 : -1};
        for (int m = 0; m < 4; m++) {
            if (to[m] < 0)
                continue;
            cells[z] = cells[to[m]];
            cells[to[m]] = 0;
            int step = abs(ref_h(&goal, cells, which) - h);
            cells[to[m]] = cells[z];
            cells[z] = 0;
            if (step > r.max_step)
                r.max_step = step;
        }
    }
    naive_free(&set);
    board_free(&goal);
    return r;
}

static void test_csv(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("heuristic 3x3 --h manhattan,lc-pairs --format csv --threads 2",
                         &out), 0);
    assert_memory_equal(out, header, strlen(header));
    uint64_t pub[64], sum_d = 0;
    int np = published_histogram(3, 3, "corner", pub, 64);
    for (int d = 0; d < np; d++)
        sum_d += (uint64_t)d * pub[d];
    char mean_d[32], want[256];
    snprintf(mean_d, sizeof mean_d, "%.6f", (double)sum_d / 181440.0);
    /* manhattan: admissible and consistent, d - h always even */
    char *line = out + strlen(header);
    snprintf(want, sizeof want, "manhattan,181440,yes,0,0,yes,0,");
    assert_memory_equal(line, want, strlen(want));
    assert_non_null(strstr(line, mean_d));
    char *next = strchr(line, '\n');
    assert_non_null(next);
    struct ref_stats man = reference_stats(0), lcp = reference_stats(1);
    assert_int_equal(man.violations, 0);
    snprintf(want, sizeof want, ",yes,%d\n", man.max_step);
    assert_memory_equal(next - strlen(want) + 1, want, strlen(want));
    snprintf(want, sizeof want, "lc-pairs,181440,no,%llu,",
             (unsigned long long)lcp.violations);
    assert_memory_equal(next + 1, want, strlen(want));
    char *end = strchr(next + 1, '\n');
    snprintf(want, sizeof want, ",yes,%d\n", lcp.max_step);
    assert_memory_equal(end - strlen(want) + 1, want, strlen(want));
    assert_null(strchr(strchr(next + 1, '\n') + 1, '\n')); /* two records only */
    free(out);
}

static void check_joint(const char *name, int with_provenance)
{
    char *text = read_file(name);
    if (!text)
        fail_msg("%s was not written", name);
    char *p = text;
    if (with_provenance) {
        assert_memory_equal(p, "# slide ", 8);
        while (*p == '#')
            p = strchr(p, '\n') + 1;
    }
    assert_memory_equal(p, "distance,h,count\n", 17);
    p += 17;
    uint64_t rows[64] = {0}, pub[64], total = 0;
    int d, h;
    unsigned long long c;
    while (sscanf(p, "%d,%d,%llu", &d, &h, &c) == 3) {
        assert_true(d >= 0 && d < 64 && h >= 0 && c > 0);
        rows[d] += c;
        total += c;
        p = strchr(p, '\n') + 1;
    }
    assert_int_equal(*p, '\0');
    assert_int_equal(total, 181440);
    int np = published_histogram(3, 3, "corner", pub, 64);
    for (d = 0; d < np; d++)
        assert_int_equal(rows[d], pub[d]);
    free(text);
}

static void test_joint_files(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("heuristic 3x3 --h lc,wd --joint @/j.csv --format csv", &out), 0);
    free(out);
    check_joint("j-lc.csv", 0);
    check_joint("j-wd.csv", 0);
    assert_false(exists("j.csv"));
    assert_false(exists("j-lc.csv.tmp"));
    assert_int_equal(run("heuristic 3x3 --h misplaced --joint @/one.csv --provenance", &out), 0);
    assert_memory_equal(out, "# slide ", 8);
    free(out);
    check_joint("one.csv", 1);
    /* a directory that does not exist: exit 1 before the sweep, nothing left */
    assert_int_equal(run("heuristic 3x3 --h lc --joint @/nodir/j.csv --progress", &out), 1);
    free(out);
    assert_false(exists("nodir"));
    assert_null(strstr(last_err, "distance"));
    assert_non_null(strstr(last_err, "nodir does not exist"));
}

/* Hostile --joint targets: refused before the sweep, naming what they are,
 * and left exactly as they were; a pre-placed NAME.tmp link is not followed. */
static void test_joint_targets(void **state)
{
    (void)state;
    char *out, path[512], victim[512];
    struct stat sb;
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(victim, sizeof victim, "%s/victim.txt", tmpdir);
    FILE *v = fopen(victim, "w");
    assert_non_null(v);
    fputs("precious\n", v);
    fclose(v);
    snprintf(path, sizeof path, "%s/link.csv", tmpdir);
    assert_int_equal(symlink(victim, path), 0);
    snprintf(path, sizeof path, "%s/dangling.csv", tmpdir);
    assert_int_equal(symlink("/nonexistent/x", path), 0);
    static const struct { const char *arg, *says; } cases[] = {
        {"@/fifo", "it is a FIFO"},
        {"@/link.csv", "it is a symbolic link"},
        {"@/dangling.csv", "it is a symbolic link"},
        {"@", "it is a directory"},
        {"''", "empty name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[128];
        snprintf(args, sizeof args, "heuristic 3x3 --h lc --progress --joint %s",
                 cases[i].arg);
        assert_int_equal(run(args, &out), 1);
        free(out);
        if (!strstr(last_err, cases[i].says) || strstr(last_err, "distance") ||
            clitest_count_lines(last_err) != 1)
            fail_msg("%s: %s", args, last_err);
    }
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    snprintf(path, sizeof path, "%s/link.csv", tmpdir);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    /* the old temporary name as a link to the victim */
    snprintf(path, sizeof path, "%s/j1.csv.tmp", tmpdir);
    assert_int_equal(symlink(victim, path), 0);
    assert_int_equal(run("heuristic 2x3 --h lc --joint @/j1.csv", &out), 0);
    free(out);
    char *text = read_file("victim.txt");
    assert_string_equal(text, "precious\n");
    free(text);
    snprintf(path, sizeof path, "%s/j1.csv", tmpdir);
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    /* a device node (needs root to make one here) */
    snprintf(path, sizeof path, "%s/full", tmpdir);
    if (mknod(path, S_IFCHR | 0600, makedev(1, 7)) == 0) {
        assert_int_equal(run("heuristic 2x3 --h lc --joint @/full", &out), 1);
        free(out);
        assert_non_null(strstr(last_err, "it is a character device"));
        assert_int_equal(lstat(path, &sb), 0);
        assert_true(S_ISCHR(sb.st_mode));
    }
}

static void test_provenance_and_formats(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("heuristic 2x3 --h lc --format csv --provenance", &out), 0);
    char *p = out;
    int lines = 0;
    while (*p == '#') {
        assert_memory_equal(p, "# ", 2);
        p = strchr(p, '\n') + 1;
        lines++;
    }
    assert_true(lines >= 5);
    assert_memory_equal(p, header, strlen(header));
    assert_memory_equal(p + strlen(header), "lc,360,yes,0,0,yes,0,", 21);
    assert_memory_equal(strchr(p + strlen(header), '\n') - 2, ",1\n", 3);
    free(out);
    assert_int_equal(run("heuristic 2x3 --h lc,lc-pairs", &out), 0);
    assert_non_null(strstr(out, "admissible"));
    assert_non_null(strstr(out, "claim consistent"));
    free(out);
    assert_int_equal(run("heuristic 2x3 --h lc --format md", &out), 0);
    assert_non_null(strstr(out, "| heuristic | boards |"));
    free(out);
    assert_int_equal(run("heuristic 2x3 --h lc --format tex", &out), 0);
    assert_non_null(strstr(out, "\\begin{tabular}"));
    assert_non_null(strstr(out, "consistency\\_violations"));
    free(out);
    assert_int_equal(run("heuristic --help", &out), 0);
    assert_non_null(strstr(out, "distance,h,count"));
    assert_non_null(strstr(out, "lc-pairs"));
    free(out);
}

static void test_bad_requests(void **state)
{
    (void)state;
    static const struct {
        const char *args;
        int status;
        const char *message;
    } cases[] = {
        {"heuristic 3x3", 2, "name the heuristics with --h"},
        {"heuristic 3x3 --h lc,foo", 2, "unknown heuristic \"foo\""},
        {"heuristic 3x3 --h lc,lc", 2, "--h names lc twice"},
        {"heuristic 5x5 --h lc", 2, "at most 20 cells"},
        {"heuristic 3x3x --h lc", 2, "not of the form RxC"},
        {"heuristic 3x3 --h lc --format xml", 2, "--format must be"},
        {"heuristic 3x3 --h lc --threads 0", 2, "--threads expects"},
        {"heuristic 3x3 --h lc --max-memory 1K", 1, "needs 45360 bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out;
        int status = run(cases[i].args, &out);
        free(out);
        if (status != cases[i].status || !strstr(last_err, cases[i].message))
            fail_msg("%s: status %d, stderr \"%s\"", cases[i].args, status, last_err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_joint_files),
        cmocka_unit_test(test_joint_targets),
        cmocka_unit_test(test_provenance_and_formats),
        cmocka_unit_test(test_bad_requests),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
