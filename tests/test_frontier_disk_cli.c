/*
 * test_frontier_disk_cli.c - slide frontier when its checkpoints do not
 * fit (issue 32 item 7): one rule with slide bfs (a finished search whose
 * final checkpoint failed exits 0 with its complete result and a warning;
 * a checkpoint directory that cannot take the first one is refused up
 * front with an error line), checkpoints that ask what they write (not a
 * megabyte for a one-board layer), and refusals whose figures are bytes.
 * Through the binary named by $SLIDE.
 *
 * A file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes writes fail
 * anywhere; a nearly full disk is a small tmpfs mounted in a private mount
 * namespace (unshare -rm), where the system allows one - elsewhere that
 * test says it is skipped.
 */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clitest.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-fdisk-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

/* All of fd into buf (len bytes with the NUL), then close it. */
static void drain(int fd, char *buf, size_t len)
{
    size_t n = 0;
    for (ssize_t k; n + 1 < len && (k = read(fd, buf + n, len - 1 - n)) > 0;)
        n += (size_t)k;
    buf[n] = '\0';
    close(fd);
}

/* `sh -c line` with files limited to fsize bytes (0: no limit); standard
 * output and error (pipes: no file limit applies to them) into out and err;
 * the exit status. */
static int run_limited(const char *line, rlim_t fsize, char *out, size_t olen, char *err,
                       size_t elen)
{
    int o[2], e[2];
    assert_int_equal(pipe(o), 0);
    assert_int_equal(pipe(e), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(o[1], 1);
        dup2(e[1], 2);
        close(o[0]);
        close(e[0]);
        if (fsize) {
            struct rlimit r = {fsize, fsize};
            signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG */
            setrlimit(RLIMIT_FSIZE, &r);
        }
        execl("/bin/sh", "sh", "-c", line, (char *)NULL);
        _exit(127);
    }
    close(o[1]);
    close(e[1]);
    drain(o[0], out, olen); /* the outputs here are far below a pipe's buffer */
    drain(e[0], err, elen);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char out[1 << 16], err[1 << 14];

/* The CSV table of out has the published 3x3 counts at distances 0..last. */
static void check_table(int last)
{
    uint64_t pub[40];
    assert_true(published_histogram(3, 3, "corner", pub, 40) > last);
    for (int d = 0; d <= last; d++) {
        char row[64];
        snprintf(row, sizeof row, "\n%d,%llu\n", d, (unsigned long long)pub[d]);
        if (!strstr(out, row))
            fail_msg("row %s missing from:\n%s", row + 1, out);
    }
}

/*
 * A checkpoint directory where nothing can be written (files limited to 1
 * byte): refused at once, exit 1, one error line saying the search does
 * not start and why (at 4e81fef: exit 1 with a warning only - no result,
 * no error line).
 */
static void test_first_checkpoint_fails(void **state)
{
    (void)state;
    char line[512];
    snprintf(line, sizeof line, "%s frontier 3x3 --max-depth 5 --checkpoint %s/ck0",
             getenv("SLIDE"), dir);
    assert_int_equal(run_limited(line, 1, out, sizeof out, err, sizeof err), 1);
    assert_string_equal(out, "");
    assert_int_equal(clitest_count_lines(err), 1);
    char want[256];
    snprintf(want, sizeof want, "slide: no checkpoint can be saved in %s/ck0, so the search "
             "does not start: ", dir);
    if (strncmp(err, want, strlen(want)))
        fail_msg("stderr: %s", err);
}

/*
 * Checkpoints that stop fitting on the way (layer files limited to 8 KiB):
 * the search goes on with a warning per layer, prints its complete table
 * (the published counts to distance 20) and exits 0 with a last warning,
 * as slide bfs does (at 4e81fef: exit 1, "the last checkpoint was not
 * saved").
 */
static void test_final_checkpoint_fails(void **state)
{
    (void)state;
    char line[512];
    snprintf(line, sizeof line, "%s frontier 3x3 --max-depth 20 --checkpoint %s/ck1 "
             "--format csv --no-progress", getenv("SLIDE"), dir);
    assert_int_equal(run_limited(line, 8 << 10, out, sizeof out, err, sizeof err), 0);
    check_table(20);
    assert_non_null(strstr(err, "slide: warning: checkpoint of distance "));
    assert_non_null(strstr(err, "slide: warning: the search finished but its final "
                                "checkpoint (distance 20) was not saved (the result is "
                                "complete)\n"));
}

/*
 * The other half of the rule, as slide bfs: a search stopped by SIGTERM
 * whose checkpoint could not be saved has lost its work since the last
 * one, so it exits 1 saying so (at 4e81fef: 143, as if stopped cleanly).
 * 4x4 runs for hours: the signal comes once a checkpoint has failed (the
 * first warning, near distance 12 with files limited to 16 KiB), and the
 * search stops at the end of that layer.
 */
static void test_stop_unsaved(void **state)
{
    (void)state;
    int e[2];
    assert_int_equal(pipe(e), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(e[1], 2);
        close(e[0]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        struct rlimit r = {16 << 10, 16 << 10};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &r);
        struct rlimit cpu = {120, 120}; /* should the signal never come */
        setrlimit(RLIMIT_CPU, &cpu);
        char ck[128];
        snprintf(ck, sizeof ck, "%s/ck2", dir);
        execl(getenv("SLIDE"), "slide", "frontier", "4x4", "--checkpoint", ck,
              "--no-progress", (char *)NULL);
        _exit(127);
    }
    close(e[1]);
    FILE *f = fdopen(e[0], "r");
    char l[1024];
    int signalled = 0, stopped = 0;
    while (fgets(l, sizeof l, f)) {
        if (!signalled && strstr(l, "slide: warning: checkpoint of distance ")) {
            kill(pid, SIGTERM);
            signalled = 1;
        }
        stopped |= strstr(l, "slide: stopped by SIGTERM after distance ") &&
                   strstr(l, ", but the checkpoint was not saved\n");
    }
    fclose(f);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(signalled);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    assert_true(stopped);
}

/* `unshare -rm`: a private mount namespace, root in it; 0 where the system
 * does not allow one. */
static int have_mount_namespace(void)
{
    char line[256];
    snprintf(line, sizeof line, "unshare -rm sh -c 'mount -t tmpfs -o size=8k none %s' "
             ">/dev/null 2>&1", dir);
    return system(line) == 0;
}

/*
 * A nearly full disk (a tmpfs of 64 KiB): every checkpoint of 3x3 to
 * distance 20 fits, the search prints its table and exits 0 with no
 * warning (at 4e81fef each checkpoint asked 1 MB more than it wrote, the
 * first was refused, nothing was printed).  On 8 KiB even distance 0 does
 * not fit: the refusal gives both figures in bytes.
 */
static void test_small_disk(void **state)
{
    (void)state;
    if (!have_mount_namespace()) {
        printf("# skipped: no private mount namespace here (unshare -rm)\n");
        return;
    }
    char line[768];
    snprintf(line, sizeof line, "unshare -rm sh -c 'mount -t tmpfs -o size=64k none %s && "
             "exec %s frontier 3x3 --max-depth 20 --checkpoint %s/ck --format csv "
             "--no-progress'", dir, getenv("SLIDE"), dir);
    assert_int_equal(run_limited(line, 0, out, sizeof out, err, sizeof err), 0);
    check_table(20);
    assert_null(strstr(err, "warning"));
    snprintf(line, sizeof line, "unshare -rm sh -c 'mount -t tmpfs -o size=8k none %s && "
             "exec %s frontier 3x3 --max-depth 5 --checkpoint %s/ck'", dir, getenv("SLIDE"),
             dir);
    assert_int_equal(run_limited(line, 0, out, sizeof out, err, sizeof err), 1);
    unsigned long long need = 0, avail = 0;
    const char *p = strstr(err, "a checkpoint of distance 0 needs ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "a checkpoint of distance 0 needs %llu bytes in %*s but %llu "
                            "are free", &need, &avail), 2);
    assert_true(need > avail && need <= 64 << 10);
}

/* A step refused for disk (--temp-dir, --max-disk): the figures in bytes
 * beside the GB (at 4e81fef "needs about 0.00 GB of disk ..."). */
static void test_refusal_in_bytes(void **state)
{
    (void)state;
    char line[512];
    snprintf(line, sizeof line, "%s frontier 3x3 --max-memory 1K --temp-dir %s --max-disk 1 "
             "--no-progress", getenv("SLIDE"), dir);
    assert_int_equal(run_limited(line, 0, out, sizeof out, err, sizeof err), 1);
    unsigned long long need = 0, avail = 0, cap = 0;
    const char *p = strstr(err, "slide: distance 1 needs about ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "slide: distance 1 needs about %llu bytes (%*f GB) of disk in "
                            "%*s but %llu bytes (%*f GB) are free and --max-disk allows %llu",
                            &need, &avail, &cap), 3);
    assert_true(need > cap && cap == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_checkpoint_fails),
        cmocka_unit_test(test_final_checkpoint_fails),
        cmocka_unit_test(test_stop_unsaved),
        cmocka_unit_test(test_small_disk),
        cmocka_unit_test(test_refusal_in_bytes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
