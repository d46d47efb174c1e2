/*
 * test_temporaries_cli.c - what killed runs leave behind (issue 32 item
 * 6): the temporaries of a checkpoint directory (pdb build --resume,
 * frontier --resume) and of an output file are removed by the next run
 * when they are provably slide's, and nothing else is: not a file of
 * another name, not a symbolic link named like one (nor what it points
 * to), not a temporary that a live run holds locked, not one that does not
 * start as a file of the target's kind.  The pdb checkpoint directory is
 * removed once the table is written, as `pdb build --help` says, unless
 * something else is in it.  Through the binary named by $SLIDE.
 *
 * The leftovers are made here, named as atomic_file.h names them, with
 * the contents a killed run leaves (a table's first bytes, a layer's);
 * killing a run in the middle of a write cannot be timed in a test.
 */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clitest.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-temps-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

static void path_in(char *buf, size_t len, const char *sub, const char *name)
{
    snprintf(buf, len, "%s/%s/%s", dir, sub, name);
}

/* A file sub/name holding len bytes of data (NULL: zeros). */
static void put(const char *sub, const char *name, const void *data, size_t len)
{
    char p[256];
    path_in(p, sizeof p, sub, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    char *zeros = data ? NULL : calloc(1, len + 1);
    assert_int_equal(write(fd, data ? data : zeros, len), (ssize_t)len);
    free(zeros);
    close(fd);
}

static int exists(const char *sub, const char *name)
{
    char p[256];
    struct stat sb;
    path_in(p, sizeof p, sub, name);
    return lstat(p, &sb) == 0;
}

static void run_ok(const char *fmt, const char *a, const char *b)
{
    char args[1024], *out, *err;
    snprintf(args, sizeof args, fmt, a, b);
    int rc = clitest_run(args, NULL, &out, &err);
    if (rc != 0)
        fail_msg("slide %s: exit %d: %s", args, rc, err);
    free(out);
    free(err);
}

/* The foreign entries every test puts beside the leftovers, and checks. */
static void put_foreign(const char *sub)
{
    char victim[256], link[256];
    put(sub, "notes.txt", "mine\n", 5);
    put(sub, ".notes.0123456789abcdef.tmp", "mine too\n", 9);     /* another name */
    put(sub, ".pdb-store.3.0123456789abcdef.tmp.bak", NULL, 4096); /* not the pattern */
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    FILE *f = fopen(victim, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    path_in(link, sizeof link, sub, ".layer-9.1111111111111111.tmp");
    assert_int_equal(symlink(victim, link), 0);
    path_in(link, sizeof link, sub, ".pdb-store.9.1111111111111111.tmp");
    assert_int_equal(symlink(victim, link), 0);
}

static void check_foreign(const char *sub)
{
    char victim[256];
    size_t len;
    assert_true(exists(sub, "notes.txt"));
    assert_true(exists(sub, ".notes.0123456789abcdef.tmp"));
    assert_true(exists(sub, ".pdb-store.3.0123456789abcdef.tmp.bak"));
    assert_true(exists(sub, ".layer-9.1111111111111111.tmp"));
    assert_true(exists(sub, ".pdb-store.9.1111111111111111.tmp"));
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    char *v = test_read_file(victim, &len);
    assert_non_null(v);
    assert_string_equal(v, "keep me\n");
    free(v);
}

/* `slide pdb build ARGS --checkpoint-every 0 --progress`, slowed by the
 * test hook SLIDE_PDB_PAUSE_MS, stopped by SIGTERM once it says it saved a
 * checkpoint: it saves another and exits 143. */
static void stopped_build(const char *args)
{
    char cmd[1024], line[512];
    int fds[2];
    snprintf(cmd, sizeof cmd, "exec %s pdb build %s --checkpoint-every 0 --progress 2>&1",
             getenv("SLIDE"), args);
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        setenv("SLIDE_PDB_PAUSE_MS", "300", 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    int saved = 0;
    while (!saved && fgets(line, sizeof line, f))
        saved = strstr(line, "checkpoint at cost") != NULL;
    assert_true(saved);
    kill(pid, SIGTERM);
    while (fgets(line, sizeof line, f))
        ;
    fclose(f);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 143);
}

/*
 * pdb build --checkpoint: a directory with only the build's files is gone
 * once the table is written (at 4e81fef its lock file kept it).  Then a
 * build stopped with a checkpoint, a dead run's temporaries of each kind
 * (1 MB each) and foreign entries put beside it: --resume removes the
 * temporaries (at 4e81fef they stayed: 284 MB after 20 kills of a 7-tile
 * build), keeps every foreign entry, and keeps the directory, which is not
 * empty.
 */
static void test_pdb_checkpoint(void **state)
{
    (void)state;
    char ck[128], out[128], p[256], args[512];
    struct stat sb;
    snprintf(ck, sizeof ck, "%s/ck", dir);
    snprintf(out, sizeof out, "%s/a.pdb", dir);
    run_ok("pdb build 3x3 --pattern 1-4 --checkpoint %s -o %s", ck, out);
    assert_int_equal(lstat(ck, &sb), -1); /* removed, as documented */
    snprintf(args, sizeof args, "3x3 --pattern 1-4 --checkpoint %s -o %s", ck, out);
    stopped_build(args);
    assert_true(exists("ck", "pdb-state"));
    static const char *const stale[] = {".pdb-store.4.0123456789abcdef.tmp",
                                        ".pdb-values.4.fedcba9876543210.tmp",
                                        ".pdb-state.00112233aabbccdd.tmp"};
    for (int i = 0; i < 3; i++)
        put("ck", stale[i], NULL, 1 << 20);
    put_foreign("ck");
    run_ok("pdb build 3x3 --pattern 1-4 --resume %s -o %s", ck, out);
    for (int i = 0; i < 3; i++)
        if (exists("ck", stale[i]))
            fail_msg("%s/%s is still there", ck, stale[i]);
    check_foreign("ck");
    assert_false(exists("ck", "pdb-state"));
    assert_false(exists("ck", "lock"));
    assert_int_equal(lstat(ck, &sb), 0); /* not empty: not removed */
    snprintf(p, sizeof p, "%s/victim.txt", dir);
    assert_int_equal(access(p, F_OK), 0);
}

/*
 * frontier --checkpoint, then --resume with a dead run's layer and state
 * temporaries beside the checkpoint: they are removed, the foreign
 * entries kept, and the search resumes to the right count (3x3 to depth
 * 12: the published histogram's first terms, tests/data).
 */
static void test_frontier_resume(void **state)
{
    (void)state;
    char fk[128], args[512], *out;
    snprintf(fk, sizeof fk, "%s/fk", dir);
    run_ok("frontier 3x3 --max-depth 6 --checkpoint %s --format csv%s", fk, "");
    unsigned char layer[4096] = "SLFRLAY1";
    put("fk", ".layer-7.0123456789abcdef.tmp", layer, sizeof layer);
    put("fk", ".layer-6.89abcdef01234567.tmp", layer, sizeof layer);
    put("fk", ".state.0011223344556677.tmp", "slide-frontier-checkpoint 1\n", 28);
    put_foreign("fk");
    snprintf(args, sizeof args, "frontier --resume %s --max-depth 12 --format csv", fk);
    assert_int_equal(clitest_run(args, NULL, &out, NULL), 0);
    assert_false(exists("fk", ".layer-7.0123456789abcdef.tmp"));
    assert_false(exists("fk", ".layer-6.89abcdef01234567.tmp"));
    assert_false(exists("fk", ".state.0011223344556677.tmp"));
    check_foreign("fk");
    uint64_t pub[40];
    assert_true(published_histogram(3, 3, "corner", pub, 40) > 12);
    for (int d = 0; d <= 12; d++) {
        char row[64];
        snprintf(row, sizeof row, "\n%d,%llu\n", d, (unsigned long long)pub[d]);
        if (!strstr(out, row))
            fail_msg("row %s missing from:\n%s", row + 1, out);
    }
    free(out);
}

/*
 * An output file's temporaries: beside o/x.pdb, a dead run's temporaries
 * of x.pdb go when x.pdb is written, whatever they hold: one that starts
 * as a pattern database (a copy of a real one's first 64 KiB), an empty
 * one (a run killed right after the create), one of other bytes (a table
 * killed while its blocks were written: its header comes last, over
 * zeros; issue 39 item 1: at b66e30a only the first went); kept are one
 * that a live run holds locked (flock, as atomic_file holds its own), one
 * of another target (y.pdb), and the foreign entries.
 */
static void test_output_temporaries(void **state)
{
    (void)state;
    char o[128], src[128], out[160];
    size_t len;
    snprintf(o, sizeof o, "%s/o", dir);
    assert_int_equal(mkdir(o, 0755), 0);
    snprintf(src, sizeof src, "%s/src.pdb", dir);
    run_ok("pdb build 3x3 --pattern 5-8 -o %s%s", src, "");
    char *table = test_read_file(src, &len);
    assert_non_null(table);
    size_t head = len < 65536 ? len : 65536;
    put("o", ".x.pdb.0123456789abcdef.tmp", table, head);             /* dead: goes */
    put("o", ".x.pdb.1111111111111111.tmp", NULL, 0);                 /* empty: goes */
    put("o", ".x.pdb.2222222222222222.tmp", "not a table at all", 18); /* goes too */
    put("o", ".x.pdb.3333333333333333.tmp", table, head);             /* live: locked */
    put("o", ".y.pdb.4444444444444444.tmp", table, head);             /* another target */
    put_foreign("o");
    char live[256];
    path_in(live, sizeof live, "o", ".x.pdb.3333333333333333.tmp");
    int fd = open(live, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    snprintf(out, sizeof out, "%s/x.pdb", o);
    run_ok("pdb build 3x3 --pattern 5-8 -o %s%s", out, "");
    close(fd);
    assert_false(exists("o", ".x.pdb.0123456789abcdef.tmp"));
    assert_false(exists("o", ".x.pdb.1111111111111111.tmp"));
    assert_false(exists("o", ".x.pdb.2222222222222222.tmp"));
    assert_true(exists("o", ".x.pdb.3333333333333333.tmp"));
    assert_true(exists("o", ".y.pdb.4444444444444444.tmp"));
    assert_true(exists("o", "x.pdb"));
    check_foreign("o");
    free(table);
}

/*
 * bfs --save x.db after runs killed during the save (issue 39 item 1: at
 * b66e30a every one of these stayed): a temporary as `slide bfs 2x3 --save`
 * leaves it when killed before its header - the file's bytes with the
 * first 256 zeroed (the header is written last, over zeros) -, an empty
 * one, and the first half of a complete file are all removed when x.db is
 * written; x.db is then the database of 2x3 (db info's count of boards:
 * 6!/2 = 360, the half of the arrangements the parity allows).
 */
static void test_bfs_save_temporaries(void **state)
{
    (void)state;
    char s[128], src[128], out[160], args[512], *o, *e;
    size_t len;
    snprintf(s, sizeof s, "%s/s", dir);
    assert_int_equal(mkdir(s, 0755), 0);
    snprintf(src, sizeof src, "%s/src.db", dir);
    run_ok("bfs 2x3 --save %s%s", src, "");
    char *db = test_read_file(src, &len);
    assert_non_null(db);
    assert_true(len > 256);
    put("s", ".x.db.00000000000000aa.tmp", db, len / 2);    /* half written */
    put("s", ".x.db.00000000000000bb.tmp", NULL, 0);        /* empty */
    memset(db, 0, 256);
    put("s", ".x.db.00000000000000cc.tmp", db, len);        /* header not yet */
    put_foreign("s");
    snprintf(out, sizeof out, "%s/x.db", s);
    run_ok("bfs 2x3 --save %s%s", out, "");
    assert_false(exists("s", ".x.db.00000000000000aa.tmp"));
    assert_false(exists("s", ".x.db.00000000000000bb.tmp"));
    assert_false(exists("s", ".x.db.00000000000000cc.tmp"));
    check_foreign("s");
    snprintf(args, sizeof args, "db info %s", out);
    assert_int_equal(clitest_run(args, NULL, &o, &e), 0);
    if (!strstr(o, "360 reachable boards"))
        fail_msg("db info %s:\n%s", out, o);
    free(o);
    free(e);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pdb_checkpoint),
        cmocka_unit_test(test_frontier_resume),
        cmocka_unit_test(test_output_temporaries),
        cmocka_unit_test(test_bfs_save_temporaries),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
