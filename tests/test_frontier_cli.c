/*
 * test_frontier_cli.c - `slide frontier` as a user runs it: histograms
 * against the published counts (tests/data), options and their errors,
 * checkpoints and resume, the disk path, the multi-tile metric (A389728),
 * and the refusals (memory, a checkpoint directory in use, a symlink, a
 * corrupt layer file, a resume in the other metric).
 */
#include "testutil.h"
#include "clitest.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[] = "/tmp/slide-test-frontier-cli-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(scratch);
}

/* CSV rows "d,count" equal want[0..n) and nothing else. */
static void check_csv(const char *out, const uint64_t *want, int n)
{
    char *copy = strdup(out), *p = copy, *line = clitest_next_line(&p);
    assert_string_equal(line, "distance,count");
    int d = 0;
    while (*p && (line = clitest_next_line(&p))) {
        int dd;
        unsigned long long c;
        assert_int_equal(sscanf(line, "%d,%llu", &dd, &c), 2);
        assert_int_equal(dd, d);
        assert_true(d < n);
        if (c != want[d])
            fail_msg("distance %d: %llu boards, published %llu", d, c,
                     (unsigned long long)want[d]);
        d++;
    }
    assert_int_equal(d, n);
    free(copy);
}

static void run_ok(const char *args, char **out, char **err)
{
    int rc = clitest_run(args, NULL, out, err);
    if (rc != 0)
        fail_msg("slide %s: exit %d: %s", args, rc, *err);
}

static void test_published_whole_and_partial(void **state)
{
    (void)state;
    uint64_t want[128];
    char *out, *err;
    int n = published_histogram(2, 4, "corner", want, 128); /* OEIS A090035 */
    run_ok("frontier 4x2 --format csv --no-progress", &out, &err);
    check_csv(out, want, n);
    assert_non_null(strstr(err, "radius: 36"));
    assert_non_null(strstr(err, "20160: ok"));
    free(out);
    free(err);
    n = published_histogram(3, 3, "centre (cell 4)", want, 128); /* OEIS A089474 */
    run_ok("frontier 3x3 --goal '1 2 3/4 0 5/6 7 8' --format csv --threads 1", &out, &err);
    check_csv(out, want, n);
    free(out);
    free(err);
    published_histogram(4, 4, "corner", want, 128); /* OEIS A089484 */
    run_ok("frontier 4x4 --max-depth 14 --format csv", &out, &err);
    check_csv(out, want, 15);
    assert_non_null(strstr(err, "searched to distance 14"));
    free(out);
    free(err);
}

static void check_usage(const char *args, const char *words);

/* Moved keys from the command line: the half-plane (OEIS A090378, on
 * 40x40 with --blank 19), the 15-puzzle with --keys moved through a
 * checkpoint and a resume (A089484), and the refusals. */
static void test_moved_keys(void **state)
{
    (void)state;
    uint64_t want[128];
    char *out, *err, args[512];
    FILE *f = fopen(TEST_DATA_DIR "/infinite-board.tsv", "r");
    static char line[4096];
    int n = 0;
    assert_non_null(f);
    while (!n && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '\t');
        if (strncmp(line, "half-plane\t", 11) || !p || !(p = strchr(p + 1, '\t')))
            continue;
        for (p++; n < 128;) {
            want[n++] = strtoull(p, &p, 10);
            if (*p++ != ',')
                break;
        }
    }
    fclose(f);
    assert_true(n > 10);
    run_ok("frontier 40x40 --blank 19 --max-depth 10 --format csv --no-progress", &out, &err);
    check_csv(out, want, 11);
    assert_non_null(strstr(err, "moved keys of"));
    free(out);
    free(err);
    published_histogram(4, 4, "corner", want, 128); /* OEIS A089484 */
    snprintf(args, sizeof args, "frontier 4x4 --keys moved --max-depth 9 --checkpoint %s/mv "
             "--format csv --no-progress", scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, 10);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s/mv --keys rank", scratch);
    check_usage(args, "moved keys");
    snprintf(args, sizeof args, "frontier --resume %s/mv --max-depth 13 --format csv "
             "--no-progress", scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, 14);
    free(out);
    free(err);
    snprintf(args, sizeof args, "rm -rf %s/mv", scratch); /* later tests want it empty */
    assert_int_equal(system(args), 0);
}

/*
 * --metric mtm (the multi-tile metric): A389728 through a checkpoint and a
 * resume, the header naming the metric, the summary's metric column; a
 * resume in the other metric refused in one line (exit 2), both ways.
 */
static void test_multi_tile_metric(void **state)
{
    (void)state;
    uint64_t want[64];
    char *out, *err, args[1024], says[1024];
    assert_true(published_mtm_histogram(4, 4, "corner", want, 64) > 12); /* A389728 */
    snprintf(args, sizeof args, "frontier 4x4 --metric mtm --max-depth 8 --checkpoint %s/mtm "
             "--format csv --no-progress", scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, 9);
    assert_non_null(strstr(err, "frontier search, multi-tile metric (mtm), "));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s/mtm --metric stm", scratch);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
    snprintf(says, sizeof says, "slide: --resume %s/mtm holds a search in the multi-tile "
             "metric (mtm); give no --metric or --metric mtm\n", scratch);
    assert_string_equal(err, says);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s/mtm --max-depth 12 --format csv "
             "--no-progress --summary %s/mtm.csv", scratch, scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, 13);
    free(out);
    free(err);
    snprintf(args, sizeof args, "%s/mtm.csv", scratch);
    size_t len;
    char *sum = test_read_file(args, &len);
    char *row = strstr(sum, "\nfrontier,4x4,");
    assert_non_null(row);
    assert_non_null(strstr(row, ",mtm,"));
    assert_null(strstr(row, ",stm,"));
    free(sum);
    /* a single-tile checkpoint is not resumed in the multi-tile metric */
    snprintf(args, sizeof args, "frontier 3x3 --max-depth 3 --checkpoint %s/stm --no-progress",
             scratch);
    run_ok(args, &out, &err);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s/stm --metric mtm", scratch);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
    assert_non_null(strstr(err, "single-tile metric (stm); give no --metric or --metric stm"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
    snprintf(args, sizeof args, "rm -rf %s/mtm %s/stm %s/mtm.csv", scratch, scratch, scratch);
    assert_int_equal(system(args), 0);
}

static void test_text_output(void **state)
{
    (void)state;
    char *out, *err;
    run_ok("frontier 2x3", &out, &err);
    assert_non_null(strstr(out, "frontier search"));
    assert_non_null(strstr(out, "radius: 21"));
    assert_non_null(strstr(out, "antipodes: 1\n  4 5 0/1 2 3\n")); /* OEIS, reference */
    free(out);
    free(err);
    /* A cut list of antipodes says how many are left out (consistency with
     * slide bfs, which finds the same 12 on this board and goal). */
    run_ok("frontier 2x5 --goal '1 2 0 3 4/5 6 7 8 9' --no-progress", &out, &err);
    assert_non_null(strstr(out, "antipodes: 12\n"));
    assert_non_null(strstr(out, "  ... 2 more\n"));
    free(out);
    free(err);
    run_ok("frontier 3x3 --max-depth 5 --no-progress", &out, &err);
    assert_non_null(strstr(out, "searched to distance 5"));
    assert_non_null(strstr(out, "  ... 10 more\n")); /* 20 boards at distance 5 (OEIS A089473) */
    free(out);
    free(err);
    run_ok("frontier 2x3 --format tex --provenance", &out, &err);
    assert_non_null(strstr(out, "\\toprule"));
    assert_non_null(strstr(out, "% slide"));
    free(out);
    free(err);
}

static void check_usage(const char *args, const char *words)
{
    char *out, *err;
    int rc = clitest_run(args, NULL, &out, &err);
    if (rc != 2 || !strstr(err, words) || clitest_count_lines(err) != 1)
        fail_msg("slide %s: exit %d, stderr \"%s\" (wanted 2 and \"%s\")", args, rc, err,
                 words);
    free(out);
    free(err);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_run("frontier --help", NULL, &out, &err), 0);
    assert_non_null(strstr(out, "usage: slide frontier RxC"));
    free(out);
    free(err);
    check_usage("frontier", "one board size");
    check_usage("frontier 6x6 --keys rank", "at most 34 cells");
    check_usage("frontier 3x3 --keys ranks", "--keys expects rank or moved");
    check_usage("frontier 6x6 --blank 36", "cells 0 to 35");
    check_usage("frontier 3x3 --blank 1 --goal '1 2 3/4 5 6/7 8 0'", "not both");
    check_usage("frontier 3x3 --max-depth -1", "--max-depth expects");
    check_usage("frontier 3x3 --buffer 3", "--buffer expects");
    check_usage("frontier 3x3 --frobnicate", "frobnicate");
    check_usage("frontier 3x3 --checkpoint a --resume b", "not both");
    check_usage("frontier 3x3 --temp-dir /nonexistent/dir", "not a writable directory");
    check_usage("frontier 3x3 --goal '1 2 3/4 5 6/7 8 8'", "goal");
    check_usage("frontier 3x3 --passes 3", "--passes expects 1, 2, 4, 8, 16, 32 or 64");
    check_usage("frontier 3x3 --passes 0", "--passes expects");
    check_usage("frontier 3x3 --passes 128", "--passes expects");
    check_usage("frontier 3x3 --passes 2x", "--passes expects");
}

/* --passes: 4x4 to 19 with every step cut into 8 passes, on disk, is the
 * published histogram (A089484), and the progress lines say the passes. */
static void test_passes(void **state)
{
    (void)state;
    char args[512], *out, *err;
    uint64_t want[128];
    published_histogram(4, 4, "corner", want, 128); /* OEIS A089484 */
    snprintf(args, sizeof args, "frontier 4x4 --max-depth 19 --passes 8 --max-memory 1 "
             "--temp-dir %s --format csv --progress", scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, 20);
    assert_non_null(strstr(err, "distance 19: 859744 boards"));
    assert_non_null(strstr(err, ", disk, 8 passes"));
    free(out);
    free(err);
}

static void test_memory_and_disk(void **state)
{
    (void)state;
    char args[512], *out, *err;
    uint64_t want[128];
    int n = published_histogram(3, 3, "corner", want, 128); /* OEIS A089473 */
    int rc = clitest_run("frontier 3x3 --max-memory 1", NULL, &out, &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "--temp-dir"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier 3x3 --max-memory 1 --temp-dir %s --format csv "
             "--progress", scratch);
    run_ok(args, &out, &err);
    check_csv(out, want, n);
    assert_non_null(strstr(err, ", disk"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier 3x3 --max-memory 1 --temp-dir %s --max-disk 1K",
             scratch);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "--max-disk allows 1024\n"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "rmdir %s && mkdir %s", scratch, scratch); /* empty */
    assert_int_equal(system(args), 0);
}

static void test_checkpoint_resume(void **state)
{
    (void)state;
    char dir[512], args[1024], path[600], *out, *err;
    uint64_t want[128];
    int n = published_histogram(3, 3, "corner", want, 128);
    snprintf(dir, sizeof dir, "%s/ck", scratch);
    snprintf(args, sizeof args, "frontier 3x3 --checkpoint %s --max-depth 12 --format csv",
             dir);
    run_ok(args, &out, &err);
    check_csv(out, want, 13);
    free(out);
    free(err);
    /* the same directory again is refused */
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "already holds a checkpoint"));
    free(out);
    free(err);
    /* a directory in use is refused */
    snprintf(path, sizeof path, "%s/lock", dir);
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0 && flock(fd, LOCK_EX) == 0);
    snprintf(args, sizeof args, "frontier 3x3 --resume %s --format csv", dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "in use by another process"));
    free(out);
    free(err);
    close(fd);
    /* resumed, it ends with the whole published histogram */
    run_ok(args, &out, &err);
    check_csv(out, want, n);
    assert_non_null(strstr(err, "resuming"));
    free(out);
    free(err);
    /* the finished checkpoint prints its result; a corrupt layer is refused */
    run_ok(args, &out, &err);
    check_csv(out, want, n);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/layer-%d", dir, n - 1);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 60, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "CRC-32"));
    free(out);
    free(err);
    /* a symlink in place of the directory is refused */
    snprintf(path, sizeof path, "%s/link", scratch);
    assert_int_equal(symlink(dir, path), 0);
    snprintf(args, sizeof args, "frontier 3x3 --checkpoint %s/link", scratch);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "symbolic link"));
    free(out);
    free(err);
}

/* --resume DIR alone: the size and a non-standard goal come from the
 * checkpoint; a size or goal given must agree, and a wrong one is named. */
static void test_resume_without_size(void **state)
{
    (void)state;
    char dir[512], args[1024], *out, *err;
    uint64_t want[64];
    /* the blank in a corner: by symmetry the published corner histogram */
    int n = published_histogram(2, 3, "corner", want, 64);
    snprintf(dir, sizeof dir, "%s/ck23", scratch);
    snprintf(args, sizeof args, "frontier 2x3 --goal '0 1 2/3 4 5' --checkpoint %s "
             "--max-depth 6 --format csv", dir);
    run_ok(args, &out, &err);
    check_csv(out, want, 7);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier 3x3 --resume %s", dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 2);
    char says[1200];
    snprintf(says, sizeof says, "slide: --resume %s holds a search of 2x3, not 3x3; give no "
             "size (it comes from the checkpoint) or 2x3\n", dir);
    assert_string_equal(err, says);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier 2x3 --goal '1 2 3/4 5 0' --resume %s", dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "holds a search of 2x3 with goal 0 1 2/3 4 5, not 2x3 with "
                                "goal 1 2 3/4 5 0"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s --format csv", dir);
    run_ok(args, &out, &err);
    check_csv(out, want, n);
    assert_non_null(strstr(err, "resuming"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier 2x3 --goal '0 1 2/3 4 5' --resume %s --format csv",
             dir);
    run_ok(args, &out, &err);
    check_csv(out, want, n);
    free(out);
    free(err);
    snprintf(args, sizeof args, "frontier --resume %s/none", scratch);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "holds no frontier checkpoint"));
    free(out);
    free(err);
}

/* SIGINT (twice at once, as timeout(1) sends it) stops at a layer's end
 * with a checkpoint; the resumed search continues with the published
 * counts. */
static void test_interrupt_and_resume(void **state)
{
    (void)state;
    char dir[200], args[1024], *out, *err;
    uint64_t want[128];
    published_histogram(4, 4, "corner", want, 128); /* OEIS A089484 */
    snprintf(dir, sizeof dir, "%s/int", scratch);
    snprintf(args, sizeof args, "\"$SLIDE\" frontier 4x4 --max-depth 60 --checkpoint %s "
             "--threads 1 --no-progress >/dev/null 2>%s.err & pid=$!; sleep 1; "
             "kill -INT $pid; kill -INT $pid; wait $pid", dir, dir);
    int rc = system(args);
    assert_true(WIFEXITED(rc));
    assert_int_equal(WEXITSTATUS(rc), 130);
    snprintf(args, sizeof args, "%s.err", dir);
    size_t len;
    err = test_read_file(args, &len);
    assert_non_null(strstr(err, "checkpoint saved in"));
    free(err);
    snprintf(args, sizeof args, "frontier 4x4 --max-depth 17 --resume %s --format csv", dir);
    run_ok(args, &out, &err);
    int n = clitest_count_lines(out) - 1;
    assert_true(n >= 18);
    check_csv(out, want, n);
    free(out);
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_whole_and_partial),
        cmocka_unit_test(test_text_output),
        cmocka_unit_test(test_moved_keys),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_memory_and_disk),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_checkpoint_resume),
        cmocka_unit_test(test_multi_tile_metric),
        cmocka_unit_test(test_resume_without_size),
        cmocka_unit_test(test_interrupt_and_resume),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
