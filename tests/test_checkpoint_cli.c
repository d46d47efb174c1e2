/*
 * test_checkpoint_cli.c - `slide bfs --checkpoint/--resume` as a user runs
 * it: a run is stopped mid-way by SIGINT, SIGTERM or SIGKILL (sent when its
 * progress lines on stderr reach a given distance), resumed, and must then
 * give the published histogram and, byte for byte, the final store and
 * state of an uninterrupted run.  The binary comes from $SLIDE.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "testutil.h"

#include "slide/checkpoint.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* What a finished child did. */
struct outcome {
    int exited, status, signal;   /* exit status, or the killing signal */
    int trigger;                  /* distance at which the signal went, -1 none */
    char err[1 << 16];            /* all of its stderr */
};

static struct outcome res;

/* Split args at spaces into argv after the binary (no quoting needed here). */
static void make_argv(char *args, char **argv, int max)
{
    const char *bin = getenv("SLIDE");
    if (!bin)
        fail_msg("SLIDE is not set (run through make test)");
    int k = 0;
    argv[k++] = (char *)bin;
    for (char *t = strtok(args, " "); t && k < max - 1; t = strtok(NULL, " "))
        argv[k++] = t;
    argv[k] = NULL;
}

/* Distance in a progress line ("distance D:") or a checkpoint line; -1. */
static int line_depth(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    int d;
    return p && sscanf(p + strlen(key), "%d", &d) == 1 ? d : -1;
}

/*
 * Run `slide ARGS` with stdout into out_path and stderr through a small pipe
 * that is read line by line; once a line has `key` followed by a distance
 * >= at, send sig (0: never).  The pipe holds 4 KiB, so the child cannot run
 * more than a few dozen lines ahead of the reader.
 */
/* 2: run_slide sends its signal again as soon as slide says it got the
 * first, as timeout(1) does (to the child, then to the process group). */
static int signal_copies = 1;
/* > 0: the child may write files of at most this many bytes. */
static rlim_t file_limit;

static void run_slide(const char *args, const char *out_path, const char *key, int at,
                      int sig)
{
    char buf[1024], *argv[40];
    int fds[2];
    snprintf(buf, sizeof buf, "%s", args);
    make_argv(buf, argv, 40);
    assert_int_equal(pipe(fds), 0);
    fcntl(fds[0], F_SETPIPE_SZ, 4096);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        if (file_limit) { /* a full disk for every file the child writes */
            struct rlimit rl = {file_limit, file_limit};
            signal(SIGXFSZ, SIG_IGN);
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    FILE *err = fdopen(fds[0], "r");
    size_t len = 0;
    char line[1024];
    res.trigger = -1;
    res.err[0] = '\0';
    while (fgets(line, sizeof line, err)) {
        int d = sig ? line_depth(line, key) : -1;
        /* the copy comes once the first is handled, or the kernel merges them */
        if (signal_copies == 2 && strstr(line, "stopping at the end of this layer"))
            kill(pid, sig);
        if (res.trigger < 0 && d >= at) {
            kill(pid, sig);
            res.trigger = d;
        }
        len += (size_t)snprintf(res.err + len, sizeof res.err - len, "%s", line);
        if (len >= sizeof res.err)
            len = sizeof res.err - 1;
    }
    fclose(err);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    res.exited = WIFEXITED(st);
    res.status = res.exited ? WEXITSTATUS(st) : -1;
    res.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

static void expect_exit(int status, const char *text)
{
    if (!res.exited || res.status != status || !strstr(res.err, text))
        fail_msg("exit %d signal %d (want exit %d), stderr:\n%s\nwanted: %s", res.status,
                 res.signal, status, res.err, text);
}

/* ---- files ------------------------------------------------------------ */

static void file_in(char *buf, size_t len, const char *dir, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Remove everything in dir (plain files only), then dir. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    if (!d)
        return;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            file_in(path, sizeof path, dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

/* The table of a --format csv run: must equal the published histogram. */
static void expect_published_csv(const char *out_path, int rows, int cols)
{
    uint64_t pub[128];
    int n = published_histogram(rows, cols, "corner", pub, 128);
    size_t len;
    char *t = test_read_file(out_path, &len), *p = t;
    assert_true(n > 0);
    assert_memory_equal(p, "distance,count\n", 15);
    p += 15;
    for (int d = 0; d < n; d++) {
        int dd, used;
        unsigned long long c;
        assert_int_equal(sscanf(p, "%d,%llu\n%n", &dd, &c, &used), 2);
        assert_int_equal(dd, d);
        if (c != pub[d])
            fail_msg("%dx%d distance %d: %llu boards, published %llu", rows, cols, d, c,
                     (unsigned long long)pub[d]);
        p += used;
    }
    assert_string_equal(p, "");
    free(t);
}

/* A state file without its elapsed and state-crc32 lines (they vary). */
static char *state_fixed_part(const char *dir)
{
    char path[512];
    size_t len;
    file_in(path, sizeof path, dir, "state");
    char *t = test_read_file(path, &len);
    char *e = strstr(t, "\nelapsed "), *f = strstr(t, "\nfirst ");
    char *c = strstr(t, "\nstate-crc32 ");
    assert_true(e && f && c && e < f && f < c);
    memmove(e, f, strlen(f) + 1);
    *strstr(t, "\nstate-crc32 ") = '\0';
    return t;
}

/* dir holds the same complete checkpoint as ref: store byte for byte. */
static void expect_same_checkpoint(const char *dir, const char *ref)
{
    char a[512], b[512];
    size_t la, lb;
    file_in(a, sizeof a, dir, "store");
    file_in(b, sizeof b, ref, "store");
    char *x = test_read_file(a, &la), *y = test_read_file(b, &lb);
    assert_true(la == lb);
    if (memcmp(x, y, la) != 0)
        fail_msg("final store %s differs from the uninterrupted %s", a, b);
    free(x);
    free(y);
    x = state_fixed_part(dir);
    y = state_fixed_part(ref);
    assert_string_equal(x, y);
    assert_non_null(strstr(x, "\ncomplete 1\n"));
    free(x);
    free(y);
    file_in(a, sizeof a, dir, "store.tmp");
    assert_int_equal(access(a, F_OK), -1);
    file_in(a, sizeof a, dir, "state.tmp");
    assert_int_equal(access(a, F_OK), -1);
}

struct board_case {
    int rows, cols, radius;
    int sigint_at, sigkill_at; /* distances at which to interrupt */
};

static char base[64], out_path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(base, sizeof base, "/tmp/slide-test-ckcli-XXXXXX");
    if (!mkdtemp(base))
        return -1;
    snprintf(out_path, sizeof out_path, "%s/stdout", base);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[256];
    static const char *const dirs[] = {"ref", "ref1", "int", "term", "kill", "x", "big"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        file_in(path, sizeof path, base, dirs[i]);
        remove_dir(path);
    }
    remove_dir(base);
    return 0;
}

/* The uninterrupted run, with a final checkpoint in base/ref. */
static void reference(const struct board_case *b, const char *name, int threads)
{
    char args[512], dir[256];
    file_in(dir, sizeof dir, base, name);
    remove_dir(dir);
    snprintf(args, sizeof args, "bfs %dx%d --format csv --no-progress --threads %d "
             "--checkpoint %s", b->rows, b->cols, threads, dir);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(0, "");
    expect_published_csv(out_path, b->rows, b->cols);
}

/* Resume dir (at least at distance `from`) and compare with base/ref. */
static void resume_and_compare(const struct board_case *b, const char *dir, int from,
                               int threads)
{
    char args[512], ref[256], want[300];
    snprintf(args, sizeof args, "bfs %dx%d --format csv --no-progress --threads %d "
             "--resume %s", b->rows, b->cols, threads, dir);
    run_slide(args, out_path, NULL, 0, 0);
    snprintf(want, sizeof want, "slide: resuming %s at distance ", dir);
    expect_exit(0, want);
    int k = line_depth(res.err, want);
    if (k < from || k >= b->radius)
        fail_msg("resumed at distance %d, expected %d to %d", k, from, b->radius - 1);
    expect_published_csv(out_path, b->rows, b->cols);
    file_in(ref, sizeof ref, base, "ref");
    expect_same_checkpoint(dir, ref);
}

/* Stop a run with sig (SIGINT or SIGTERM) at a layer, then resume it. */
static void stop_and_resume(const struct board_case *b, const char *name, int sig,
                            int threads_before, int threads_after)
{
    char args[512], dir[256], want[300];
    file_in(dir, sizeof dir, base, name);
    remove_dir(dir);
    snprintf(args, sizeof args, "bfs %dx%d --format csv --progress --threads %d "
             "--checkpoint %s", b->rows, b->cols, threads_before, dir);
    run_slide(args, out_path, "slide: distance ", b->sigint_at, sig);
    snprintf(want, sizeof want, "slide: stopped by %s after distance ",
             sig == SIGINT ? "SIGINT" : "SIGTERM");
    expect_exit(128 + sig, want);
    int k = line_depth(res.err, want);
    if (k < res.trigger || k >= b->radius)
        fail_msg("stopped at distance %d; signal sent at %d, radius %d", k, res.trigger,
                 b->radius);
    size_t len;
    char *out = test_read_file(out_path, &len);
    assert_int_equal(len, 0); /* no table from a stopped run */
    free(out);
    resume_and_compare(b, dir, k, threads_after);
}

/* SIGKILL a run that saves after every layer, then resume it. */
static void kill_and_resume(const struct board_case *b)
{
    char args[512], dir[256];
    file_in(dir, sizeof dir, base, "kill");
    remove_dir(dir);
    snprintf(args, sizeof args, "bfs %dx%d --format csv --progress --threads 2 "
             "--checkpoint %s --checkpoint-every 0", b->rows, b->cols, dir);
    run_slide(args, out_path, "slide: checkpoint at distance ", b->sigkill_at, SIGKILL);
    if (res.signal != SIGKILL)
        fail_msg("not killed (exit %d); stderr:\n%s", res.status, res.err);
    resume_and_compare(b, dir, b->sigkill_at, 2);
}

static void test_2x5(void **state)
{
    (void)state;
    static const struct board_case b = {2, 5, 55, 5, 8};
    char ref[256], ref1[256];
    reference(&b, "ref1", 1);
    reference(&b, "ref", 2);
    file_in(ref, sizeof ref, base, "ref");
    file_in(ref1, sizeof ref1, base, "ref1");
    expect_same_checkpoint(ref1, ref); /* 1 and 2 threads: the same store */
    stop_and_resume(&b, "int", SIGINT, 1, 2);
    stop_and_resume(&b, "term", SIGTERM, 2, 1);
    kill_and_resume(&b);
}

static void test_3x4(void **state)
{
    (void)state;
    static const struct board_case b = {3, 4, 53, 16, 8};
    char args[512];
    reference(&b, "ref", 2);
    stop_and_resume(&b, "int", SIGINT, 1, 2);
    /* two copies of SIGTERM at once are one request: the checkpoint is saved */
    signal_copies = 2;
    stop_and_resume(&b, "term2", SIGTERM, 2, 2);
    signal_copies = 1;
    kill_and_resume(&b);
    /* the memory guard also stands before a resumed store is loaded */
    snprintf(args, sizeof args, "bfs 3x4 --resume %s/ref --max-memory 1M", base);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(1, "needs 59875200 bytes");
    expect_exit(1, "only 1048576 bytes");
}

/* Write `text` over the state line starting with `from` (CRC left stale). */
static void spoil_state(const char *dir, const char *from, const char *text)
{
    char path[512];
    size_t len;
    file_in(path, sizeof path, dir, "state");
    char *t = test_read_file(path, &len), *p = strstr(t, from);
    assert_non_null(p);
    memcpy(p, text, strlen(text));
    test_write_file(path, t, len);
    free(t);
}

static void expect_refused(const char *args, int status, const char *text)
{
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(status, text);
}

static void test_refusals(void **state)
{
    (void)state;
    static const struct board_case b = {2, 5, 55, 0, 0};
    char dir[256], args[512], path[512];
    reference(&b, "x", 2);
    file_in(dir, sizeof dir, base, "x");
#define TRY(status, text, ...) \
    (snprintf(args, sizeof args, __VA_ARGS__), expect_refused(args, status, text))
    TRY(1, "is for a 2x5 board, not 5x2", "bfs 5x2 --resume %s", dir);
    TRY(1, "is for goal \"1 2 3 4 5/6 7 8 9 0\", not \"0 1 2 3 4/5 6 7 8 9\"",
        "bfs 2x5 --goal 0,1,2,3,4/5,6,7,8,9 --resume %s", dir);
    TRY(1, "is of the compact space, not the full space", "bfs 2x5 --space full --resume %s",
        dir);
    TRY(1, "needs 453600 bytes", "bfs 2x5 --resume %s --max-memory 1K", dir);
    assert_non_null(strstr(res.err, "only 1024 bytes"));
    TRY(1, "already holds a checkpoint; continue it with --resume", "bfs 2x5 --checkpoint %s",
        dir);
    TRY(2, "option --checkpoint-every is used only with --checkpoint DIR or --resume DIR",
        "bfs 2x5 --checkpoint-every 5");
    TRY(2, "--checkpoint-every expects minutes", "bfs 2x5 --checkpoint %s --checkpoint-every -1",
        dir);
    TRY(1, "/missing does not exist", "bfs 2x5 --resume %s/missing", base);
    snprintf(path, sizeof path, "%s/missing", base);
    assert_int_equal(access(path, F_OK), -1); /* a failed --resume creates nothing */
    TRY(1, "/missing does not exist", "bfs 2x5 --checkpoint %s/missing/x", base);
    assert_non_null(strstr(res.err, "cannot create checkpoint directory"));
    TRY(1, "need 608225502045208576 bytes (608225502.05 GB) of free disk",
        "bfs 4x5 --checkpoint %s/big", base);
    snprintf(path, sizeof path, "%s/big", base);
    assert_int_equal(access(path, F_OK), -1); /* refused: no directory made */
    /* a complete checkpoint resumes to its result without searching */
    TRY(0, "(complete)", "bfs 2x5 --resume %s --format csv", dir);
    expect_published_csv(out_path, 2, 5);
    file_in(path, sizeof path, dir, "store");
    size_t len;
    char *s = test_read_file(path, &len);
    s[len / 3] ^= 1;
    test_write_file(path, s, len);
    free(s);
    TRY(1, "store is corrupt: its CRC-32 is", "bfs 2x5 --resume %s", dir);
    spoil_state(dir, "slide-checkpoint 1", "slide-checkpoint 7");
    TRY(1, "is a checkpoint of format version 7; this slide reads version 1",
        "bfs 2x5 --resume %s", dir);
#undef TRY
}

/* The whole of a file, for before/after comparisons (malloc'd). */
static char *slurp_in(const char *dir, const char *name, size_t *len)
{
    char path[512];
    file_in(path, sizeof path, dir, name);
    return test_read_file(path, len);
}

/*
 * One process per checkpoint directory: while this test holds DIR's lock
 * (as another slide would), a resume and a fresh start are refused naming
 * this process, print nothing and leave the files as they were.
 */
static void test_ownership(void **state)
{
    (void)state;
    static const struct board_case b = {2, 5, 55, 0, 0};
    char dir[256], fresh[256], args[640], want[400], path[512];
    struct checkpoint_lock lk;
    slide_error err;
    size_t l0, l1, s0, s1;
    reference(&b, "own", 1);
    file_in(dir, sizeof dir, base, "own");
    char *state0 = slurp_in(dir, "state", &l0), *store0 = slurp_in(dir, "store", &s0);
    assert_int_equal(checkpoint_lock(dir, &lk, &err), 0);
    snprintf(want, sizeof want, "slide: checkpoint %s is in use by process %ld\n", dir,
             (long)getpid());
    static const char *const forms[] = {"bfs --resume %s --format csv",
                                        "bfs 2x5 --resume %s --format csv",
                                        "bfs 2x5 --checkpoint %s"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(args, sizeof args, forms[i], dir);
        run_slide(args, out_path, NULL, 0, 0);
        expect_exit(1, want);
        assert_string_equal(res.err, want);
        size_t n;
        char *out = test_read_file(out_path, &n);
        assert_int_equal(n, 0);
        free(out);
    }
    char *state1 = slurp_in(dir, "state", &l1), *store1 = slurp_in(dir, "store", &s1);
    assert_true(l0 == l1 && s0 == s1 && !memcmp(state0, state1, l0) &&
                !memcmp(store0, store1, s0));
    free(state1);
    free(store1);
    checkpoint_unlock(&lk);
    /* two fresh starts into one new directory: the second is refused */
    file_in(fresh, sizeof fresh, base, "fresh");
    assert_int_equal(mkdir(fresh, 0755), 0);
    assert_int_equal(checkpoint_lock(fresh, &lk, &err), 0);
    snprintf(args, sizeof args, "bfs 2x3 --checkpoint %s", fresh);
    run_slide(args, out_path, NULL, 0, 0);
    snprintf(want, sizeof want, "checkpoint %s is in use by process %ld", fresh,
             (long)getpid());
    expect_exit(1, want);
    file_in(path, sizeof path, fresh, "state");
    assert_int_equal(access(path, F_OK), -1);
    file_in(path, sizeof path, fresh, "store");
    assert_int_equal(access(path, F_OK), -1);
    checkpoint_unlock(&lk);
    remove_dir(fresh);
    /* --resume DIR alone: size, goal and space from the checkpoint; a
     * truncated state.tmp beside the good state is removed, not promoted */
    file_in(path, sizeof path, dir, "state.tmp");
    test_write_file(path, state0, l0 / 2);
    snprintf(args, sizeof args, "bfs --resume %s --format csv", dir);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(0, "(complete)");
    expect_published_csv(out_path, 2, 5);
    assert_int_equal(access(path, F_OK), -1);
    /* given values that contradict it are refused, naming both */
    snprintf(args, sizeof args, "bfs --resume %s --space full", dir);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(1, "is of the compact space, not the full space");
    snprintf(args, sizeof args, "bfs 5x2 --resume %s", dir);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(1, "is for a 2x5 board, not 5x2");
    snprintf(args, sizeof args, "bfs --resume %s --goal 0,1,2,3,4/5,6,7,8,9", dir);
    run_slide(args, out_path, NULL, 0, 0);
    expect_exit(1, "is for goal \"1 2 3 4 5/6 7 8 9 0\", not \"0 1 2 3 4/5 6 7 8 9\"");
    free(state0);
    free(store0);
    remove_dir(dir);
}

/* Every checkpoint fails (files are limited to 100 KB, the 2x5 store has
 * 453,600 bytes): the search still finishes, warns, and exits 0 with the
 * right histogram, because the result is complete and valid. */
static void test_final_checkpoint_fails(void **state)
{
    (void)state;
    char dir[256], args[512];
    file_in(dir, sizeof dir, base, "full");
    snprintf(args, sizeof args, "bfs 2x5 --format csv --checkpoint %s --checkpoint-every 0",
             dir);
    file_limit = 100000;
    run_slide(args, out_path, NULL, 0, 0);
    file_limit = 0;
    expect_exit(0, "slide: warning: the search finished but its final checkpoint was not "
                   "saved (the result below is complete)");
    expect_published_csv(out_path, 2, 5);
    assert_false(strstr(res.err, "/.store."));
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) /* no temporary left behind */
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            assert_string_equal(e->d_name, "lock");
    closedir(d);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ownership),
        cmocka_unit_test(test_final_checkpoint_fails),
        cmocka_unit_test(test_2x5),
        cmocka_unit_test(test_3x4),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
