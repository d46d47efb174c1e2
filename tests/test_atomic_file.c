/*
 * test_atomic_file.c - atomic_file: every hostile target is refused before
 * anything is created, nothing is written through a link or over a special
 * file, and no temporary survives an error or a signal.
 */
#define _XOPEN_SOURCE 700 /* mknod */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slide/atomic_file.h"
#include "slide/file_kind.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-atomic-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[192];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Entries of the scratch directory whose names start with '.' (temporaries). */
static int hidden_entries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static mode_t lmode(const char *path)
{
    struct stat sb;
    assert_int_equal(lstat(path, &sb), 0);
    return sb.st_mode;
}

static void assert_file_is(const char *path, const char *text)
{
    size_t len;
    char *got = test_read_file(path, &len);
    assert_int_equal(len, strlen(text));
    assert_memory_equal(got, text, len);
    free(got);
}

/* A new file appears whole, with mode 0644 less the umask, and no temporary. */
static void test_write_and_mode(void **state)
{
    (void)state;
    char path[128];
    slide_error err;
    in_dir(path, sizeof path, "plain.txt");
    mode_t old = umask(027);
    assert_int_equal(atomic_file_write_all(path, "hello\n", 6, &err), 0);
    umask(old);
    assert_file_is(path, "hello\n");
    assert_int_equal(lmode(path) & 0777, 0640);
    /* replacing a regular file is allowed */
    assert_int_equal(atomic_file_write_all(path, "again\n", 6, &err), 0);
    assert_file_is(path, "again\n");
    assert_int_equal(hidden_entries(), 0);
    unlink(path);
}

/* Each kind of non-regular target is refused by name, and left as it was. */
static void test_refuses_special_targets(void **state)
{
    (void)state;
    char fifo[128], sub[128], link[128], dangling[128], victim[128], dev[128];
    slide_error err;
    in_dir(fifo, sizeof fifo, "fifo");
    in_dir(sub, sizeof sub, "sub");
    in_dir(link, sizeof link, "link");
    in_dir(dangling, sizeof dangling, "dangling");
    in_dir(victim, sizeof victim, "victim.txt");
    in_dir(dev, sizeof dev, "null");
    test_write_file(victim, "precious", 8);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(symlink("/nonexistent/target", dangling), 0);
    struct { const char *path, *kind; } cases[] = {
        {fifo, "a FIFO"}, {sub, "a directory"}, {link, "a symbolic link"},
        {dangling, "a symbolic link"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mode_t before = lmode(cases[i].path);
        assert_int_equal(atomic_file_check(cases[i].path, NULL, &err), SLIDE_EIO);
        assert_non_null(strstr(err.msg, cases[i].kind));
        assert_non_null(strstr(err.msg, cases[i].path));
        assert_int_equal(atomic_file_write_all(cases[i].path, "x", 1, &err), SLIDE_EIO);
        assert_int_equal(lmode(cases[i].path), before);
    }
    assert_file_is(victim, "precious");
    /* a character device (made here, as /dev/null's twin; needs root) */
    if (mknod(dev, S_IFCHR | 0600, makedev(1, 3)) == 0) {
        assert_int_equal(atomic_file_write_all(dev, "x", 1, &err), SLIDE_EIO);
        assert_non_null(strstr(err.msg, "a character device"));
        assert_true(S_ISCHR(lmode(dev)));
        unlink(dev);
    }
    assert_int_equal(hidden_entries(), 0);
    unlink(fifo);
    rmdir(sub);
    unlink(link);
    unlink(dangling);
    unlink(victim);
}

/* The old writer's NAME.tmp: a link placed there is never followed. */
static void test_preplaced_tmp_link(void **state)
{
    (void)state;
    char path[128], tmp[160], victim[128];
    slide_error err;
    in_dir(path, sizeof path, "x.db");
    in_dir(victim, sizeof victim, "victim2.txt");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    test_write_file(victim, "precious", 8);
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(atomic_file_write_all(path, "data", 4, &err), 0);
    assert_true(S_ISREG(lmode(path)));
    assert_file_is(path, "data");
    assert_file_is(victim, "precious");
    assert_true(S_ISLNK(lmode(tmp)));
    unlink(tmp);
    unlink(path);
    unlink(victim);
}

/* Bad directories and names: refused up front, nothing created. */
static void test_refuses_bad_directories(void **state)
{
    (void)state;
    char path[160], ro[128];
    slide_error err;
    assert_int_equal(atomic_file_check("/nonexistent/dir/j.csv", NULL, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "directory /nonexistent/dir does not exist"));
    assert_int_equal(atomic_file_check("", NULL, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "empty name"));
    in_dir(path, sizeof path, "sub/");
    assert_int_equal(atomic_file_check(path, NULL, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "ends in '/'"));
    in_dir(path, sizeof path, "file/x");
    char file[128];
    in_dir(file, sizeof file, "file");
    test_write_file(file, "x", 1);
    assert_int_equal(atomic_file_check(path, NULL, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "is a regular file, not a directory"));
    unlink(file);
    in_dir(ro, sizeof ro, "ro");
    assert_int_equal(mkdir(ro, 0555), 0);
    snprintf(path, sizeof path, "%s/out.csv", ro);
    if (geteuid() != 0) { /* root writes into a 0555 directory anyway */
        assert_int_equal(atomic_file_check(path, NULL, &err), SLIDE_EIO);
        assert_non_null(strstr(err.msg, "is not writable"));
    }
    assert_int_equal(hidden_entries(), 0);
    rmdir(ro);
}

/* Two temporaries of one target have different, hidden names beside it. */
static void test_temporary_names(void **state)
{
    (void)state;
    char path[128];
    struct atomic_file a, b;
    slide_error err;
    in_dir(path, sizeof path, "t.csv");
    assert_int_equal(atomic_file_open(&a, path, NULL, &err), 0);
    assert_int_equal(atomic_file_open(&b, path, NULL, &err), 0);
    assert_string_not_equal(a.tmp, b.tmp);
    assert_memory_equal(a.tmp, dir, strlen(dir));
    assert_non_null(strstr(a.tmp, "/.t.csv."));
    assert_int_equal(access(path, F_OK), -1); /* nothing at the target yet */
    assert_int_equal(hidden_entries(), 2);
    atomic_file_abort(&a);
    atomic_file_abort(&b);
    assert_int_equal(hidden_entries(), 0);
    assert_int_equal(access(path, F_OK), -1);
}

/* A failed write (a file size limit, like a full disk) keeps the old file. */
static void test_write_error_keeps_target(void **state)
{
    (void)state;
    char path[128];
    struct atomic_file f;
    struct rlimit old, small;
    slide_error err;
    in_dir(path, sizeof path, "keep.txt");
    test_write_file(path, "old", 3);
    assert_int_equal(atomic_file_open(&f, path, NULL, &err), 0);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 1000;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    static char big[8192];
    fwrite(big, 1, sizeof big, f.stream);
    int rc = atomic_file_commit(&f, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, SLIDE_EIO);
    assert_non_null(strstr(err.msg, "keep.txt"));
    assert_file_is(path, "old");
    assert_int_equal(hidden_entries(), 0);
    unlink(path);
}

/* A FIFO put at the target while the file was written is still refused. */
static void test_target_replaced_during_write(void **state)
{
    (void)state;
    char path[128];
    struct atomic_file f;
    slide_error err;
    in_dir(path, sizeof path, "late");
    assert_int_equal(atomic_file_open(&f, path, NULL, &err), 0);
    fputs("data", f.stream);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(atomic_file_commit(&f, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "a FIFO"));
    assert_true(S_ISFIFO(lmode(path)));
    assert_int_equal(hidden_entries(), 0);
    unlink(path);
}

/* Kinds for the tests: a text kind by its header line, a binary one by
 * its magic. */
static int has_magic(const unsigned char *head, size_t n)
{
    return n >= 4 && !memcmp(head, "MAG\1", 4);
}
static const struct atomic_file_kind text_kind = {"a test table", NULL, "x,y\n"};
static const struct atomic_file_kind bin_kind = {"a test binary", has_magic, NULL};

/* An existing file is replaced only when it is of the kind written (or
 * empty); a foreign one is refused with a one-line error that names it and
 * says what to do, and is left exactly as it was. */
static void test_replaces_only_own_kind(void **state)
{
    (void)state;
    char path[128];
    slide_error err;
    static const struct {
        const struct atomic_file_kind *kind;
        const char *old; /* no NUL inside: its length is strlen */
        int ours;
    } cases[] = {
        {&text_kind, "precious\n", 0},
        {&text_kind, "x,y\n1,2\n", 1},
        {&text_kind, "# slide 0.1.0\n# command: x\nx,y\n1,2\n", 1},
        {&text_kind, "# a comment\nsomething else\nx,y\n", 0},
        {&text_kind, "# only comments, no header\n", 0},
        {&text_kind, "", 1},
        {&bin_kind, "MAG\1rest", 1},
        {&bin_kind, "MAG\2rest", 0},
        {&bin_kind, "x,y\n", 0},
        {&bin_kind, "MA", 0},
    };
    in_dir(path, sizeof path, "out");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file(path, cases[i].old, strlen(cases[i].old));
        int rc = atomic_file_check(path, cases[i].kind, &err);
        int wrote = atomic_file_write_all(path, "new", 3, &err) == 0; /* kind NULL */
        assert_true(wrote);
        test_write_file(path, cases[i].old, strlen(cases[i].old));
        struct atomic_file f;
        int rc2 = atomic_file_open(&f, path, cases[i].kind, &err);
        if (!rc2) {
            fputs("new", f.stream);
            rc2 = atomic_file_commit(&f, &err);
        }
        if (cases[i].ours) {
            if (rc || rc2)
                fail_msg("case %zu refused: %s", i, err.msg);
            assert_file_is(path, "new");
        } else {
            assert_int_equal(rc, SLIDE_EIO);
            assert_int_equal(rc2, SLIDE_EIO);
            char want[256];
            snprintf(want, sizeof want, "cannot write %s: it exists and is not %s; slide "
                     "replaces only its own files of that kind; remove it or choose "
                     "another name", path, cases[i].kind->name);
            assert_string_equal(err.msg, want);
            size_t len;
            char *kept = test_read_file(path, &len);
            assert_int_equal(len, strlen(cases[i].old));
            assert_memory_equal(kept, cases[i].old, len);
            free(kept);
        }
        assert_int_equal(hidden_entries(), 0);
    }
    /* a foreign file put at the target during the work is refused at commit */
    unlink(path);
    struct atomic_file f;
    assert_int_equal(atomic_file_open(&f, path, &text_kind, &err), 0);
    fputs("x,y\n", f.stream);
    test_write_file(path, "precious\n", 9);
    assert_int_equal(atomic_file_commit(&f, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "is not a test table"));
    assert_file_is(path, "precious\n");
    assert_int_equal(hidden_entries(), 0);
    /* a file that cannot be read cannot be shown to be ours */
    if (geteuid() != 0) {
        assert_int_equal(chmod(path, 0200), 0);
        assert_int_equal(atomic_file_check(path, &text_kind, &err), SLIDE_EIO);
        assert_non_null(strstr(err.msg, "it exists and cannot be read"));
        chmod(path, 0644);
    }
    unlink(path);
}

/* SIGINT or SIGTERM while a temporary exists: it is removed, the process
 * dies by the signal, and the target never appears. */
static void test_signal_removes_temporary(void **state)
{
    (void)state;
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        char path[128];
        in_dir(path, sizeof path, "sig.db");
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct atomic_file f;
            slide_error err;
            signal(sigs[i], SIG_DFL);
            if (atomic_file_open(&f, path, NULL, &err))
                _exit(3);
            fputs("partial", f.stream);
            fflush(f.stream);
            raise(sigs[i]);
            _exit(4); /* not reached: the handler re-raises */
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), sigs[i]);
        assert_int_equal(access(path, F_OK), -1);
        assert_int_equal(hidden_entries(), 0);
    }
}

/* file_open_regular: a FIFO is refused at once (no blocking), a link only
 * when links are not expected. */
static void test_open_regular(void **state)
{
    (void)state;
    char fifo[128], file[128], link[128];
    slide_error err;
    in_dir(fifo, sizeof fifo, "in.fifo");
    in_dir(file, sizeof file, "in.txt");
    in_dir(link, sizeof link, "in.link");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    test_write_file(file, "abc", 3);
    assert_int_equal(symlink(file, link), 0);
    assert_true(file_open_regular(fifo, 1, &err) < 0);
    assert_non_null(strstr(err.msg, "is a FIFO, not a regular file"));
    assert_true(file_open_regular(dir, 1, &err) < 0);
    assert_non_null(strstr(err.msg, "is a directory"));
    assert_true(file_open_regular(link, 0, &err) < 0);
    assert_non_null(strstr(err.msg, "symbolic link"));
    int fd = file_open_regular(link, 1, &err);
    assert_true(fd >= 0);
    char buf[4];
    assert_int_equal(read(fd, buf, 4), 3); /* blocking mode again */
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    close(fd);
    assert_true(file_open_regular("/nonexistent", 1, &err) < 0);
    assert_non_null(strstr(err.msg, "cannot open /nonexistent: No such file"));
    unlink(fifo);
    unlink(file);
    unlink(link);
}

/*
 * atomic_file_remove_stale: the names it takes (an exact name, a '*'
 * prefix; 16 lowercase hex digits, ".tmp"), and never a live temporary (an
 * atomic_file being written is locked), a directory or a FIFO named like
 * one.
 */
static void test_remove_stale(void **state)
{
    (void)state;
    static const char *const dead[] = {".state.0123456789abcdef.tmp",
                                       ".layer-12.0123456789abcdef.tmp",
                                       ".layer-.fedcba9876543210.tmp"};
    static const char *const kept[] = {".state.0123456789ABCDEF.tmp", /* upper case */
                                       ".state.0123456789abcde.tmp",  /* 15 digits */
                                       ".states.0123456789abcdef.tmp", /* another name */
                                       ".state.0123456789abcdef.tmp~",
                                       "state.0123456789abcdef.tmp",
                                       ".laye.0123456789abcdef.tmp"};
    char p[256];
    for (size_t i = 0; i < 3; i++) {
        in_dir(p, sizeof p, dead[i]);
        test_write_file(p, "x", 1);
    }
    for (size_t i = 0; i < 6; i++) {
        in_dir(p, sizeof p, kept[i]);
        test_write_file(p, "x", 1);
    }
    in_dir(p, sizeof p, ".layer-1.1111111111111111.tmp");
    assert_int_equal(mkdir(p, 0755), 0);
    in_dir(p, sizeof p, ".layer-2.2222222222222222.tmp");
    assert_int_equal(mkfifo(p, 0600), 0);
    /* a live temporary of a target named "layer-5" (whose own open
     * removes only the dead temporaries of layer-5: none here) */
    struct atomic_file f;
    slide_error err;
    in_dir(p, sizeof p, "layer-5");
    assert_int_equal(atomic_file_open(&f, p, NULL, &err), 0);
    fputs("live", f.stream);
    static const char *const names[] = {"state", "layer-*", NULL};
    unsigned long long bytes = 0;
    assert_int_equal(atomic_file_remove_stale(dir, names, &bytes), 3);
    assert_int_equal(bytes, 3);
    assert_int_equal(access(f.tmp, F_OK), 0);
    assert_int_equal(atomic_file_commit(&f, &err), 0);
    for (size_t i = 0; i < 3; i++) {
        in_dir(p, sizeof p, dead[i]);
        assert_int_equal(access(p, F_OK), -1);
    }
    for (size_t i = 0; i < 6; i++) {
        in_dir(p, sizeof p, kept[i]);
        assert_int_equal(access(p, F_OK), 0);
        unlink(p);
    }
    in_dir(p, sizeof p, ".layer-1.1111111111111111.tmp");
    assert_true(S_ISDIR(lmode(p)));
    rmdir(p);
    in_dir(p, sizeof p, ".layer-2.2222222222222222.tmp");
    assert_true(S_ISFIFO(lmode(p)));
    unlink(p);
    in_dir(p, sizeof p, "layer-5");
    unlink(p);
    assert_int_equal(atomic_file_remove_stale("/nonexistent", names, NULL), 0);
}


/*
 * Issue 39 item 2: the temporary swapped for a symbolic link (to a victim
 * file) after the data was written and synced: commit refuses, naming the
 * swap; the target is not created (at b66e30a it became the link), the
 * link at the temporary's name is removed, the victim is untouched, and
 * the same when a target existed (it keeps its old bytes).
 */
static void test_temporary_swapped_for_link(void **state)
{
    (void)state;
    char path[128], victim[128], aside[160];
    slide_error err;
    in_dir(path, sizeof path, "swapped.db");
    in_dir(victim, sizeof victim, "victim3.txt");
    test_write_file(victim, "precious", 8);
    for (int existing = 0; existing < 2; existing++) {
        struct atomic_file f;
        if (existing)
            test_write_file(path, "old", 3);
        assert_int_equal(atomic_file_open(&f, path, NULL, &err), 0);
        fputs("data", f.stream);
        assert_int_equal(atomic_file_sync(&f, &err), 0);
        /* the swap: a link renamed over the temporary's name */
        snprintf(aside, sizeof aside, "%s.link", path);
        assert_int_equal(symlink(victim, aside), 0);
        assert_int_equal(rename(aside, f.tmp), 0);
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s", f.tmp);
        assert_int_equal(atomic_file_commit(&f, &err), SLIDE_EIO);
        assert_non_null(strstr(err.msg, "was replaced by another program"));
        assert_non_null(strstr(err.msg, "a symbolic link"));
        assert_non_null(strstr(err.msg, "swapped.db was not written"));
        if (existing) {
            assert_true(S_ISREG(lmode(path)));
            assert_file_is(path, "old");
            unlink(path);
        } else {
            struct stat sb;
            assert_int_equal(lstat(path, &sb), -1);
        }
        assert_int_equal(access(tmp, F_OK), -1);
        assert_file_is(victim, "precious");
        assert_int_equal(hidden_entries(), 0);
    }
    unlink(victim);
}

/*
 * Issue 39 item 1: a dead run's temporaries of a target are removed by the
 * next atomic_file_open of that target whatever they hold - empty, zeros
 * (a database's header is written last, over zeros), other bytes - while
 * one held locked by a live run stays.  A real one: a child that creates
 * the temporary, writes zeros and is killed by SIGKILL.  At b66e30a the
 * empty and zero ones stayed (only a first block of the kind's magic went).
 */
static void test_dead_temporaries_any_contents(void **state)
{
    (void)state;
    char path[128], p[256];
    slide_error err;
    char zeros[4096] = {0};
    in_dir(path, sizeof path, "t.db");
    /* a killed writer's (its own open would clear the others: it comes first) */
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct atomic_file f;
        close(fds[0]);
        alarm(60); /* never outlives a failed test */
        if (atomic_file_open(&f, path, NULL, &err))
            _exit(3);
        fwrite(zeros, 1, sizeof zeros, f.stream);
        fflush(f.stream);
        if (write(fds[1], "w", 1) != 1)
            _exit(4);
        pause();
        _exit(5);
    }
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 1);
    close(fds[0]);
    kill(pid, SIGKILL);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    static const char *const dead[] = {".t.db.0123456789abcdef.tmp",
                                       ".t.db.1111111111111111.tmp",
                                       ".t.db.2222222222222222.tmp"};
    in_dir(p, sizeof p, dead[0]);
    test_write_file(p, "", 0);
    in_dir(p, sizeof p, dead[1]);
    test_write_file(p, zeros, sizeof zeros);
    in_dir(p, sizeof p, dead[2]);
    test_write_file(p, "not a table at all", 18);
    /* a live one: locked, as every writer holds its own */
    char live[256];
    in_dir(live, sizeof live, ".t.db.3333333333333333.tmp");
    test_write_file(live, "", 0);
    int lfd = open(live, O_RDONLY);
    assert_true(lfd >= 0);
    assert_int_equal(flock(lfd, LOCK_EX), 0);
    assert_int_equal(hidden_entries(), 5);
    assert_int_equal(atomic_file_write_all(path, "new", 3, &err), 0);
    assert_file_is(path, "new");
    for (int i = 0; i < 3; i++) {
        in_dir(p, sizeof p, dead[i]);
        assert_int_equal(access(p, F_OK), -1);
    }
    assert_int_equal(access(live, F_OK), 0);
    assert_int_equal(hidden_entries(), 1); /* the killed writer's went too */
    close(lfd);
    unlink(live);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_and_mode),
        cmocka_unit_test(test_refuses_special_targets),
        cmocka_unit_test(test_preplaced_tmp_link),
        cmocka_unit_test(test_refuses_bad_directories),
        cmocka_unit_test(test_temporary_names),
        cmocka_unit_test(test_write_error_keeps_target),
        cmocka_unit_test(test_target_replaced_during_write),
        cmocka_unit_test(test_replaces_only_own_kind),
        cmocka_unit_test(test_signal_removes_temporary),
        cmocka_unit_test(test_open_regular),
        cmocka_unit_test(test_remove_stale),
        cmocka_unit_test(test_temporary_swapped_for_link),
        cmocka_unit_test(test_dead_temporaries_any_contents),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
