/*
 * test_pdb_cli.c - `slide pdb build|info|verify`, `slide solve --h pdb:...`
 * and `slide heuristic --h pdb:...` from the command line: outputs checked
 * against independent truths (the published optimal lengths of Korf's
 * instances 1, 2 and 4 are 57, 55 and 56 - Korf 1985, Table 1; the 3x3
 * distances of a plain BFS), refusals of bad input, and answers printed in
 * input order with --threads.
 */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include "clitest.h"

static char dir[64];

/* Run "$SLIDE cmd" through the shell with %s-style formatting. */
static void test_build_info_verify(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x3 --pattern 5-8 -o %s/b.pdb --progress",
                         dir), 0);
    assert_non_null(strstr(out, "b.pdb: additive, tiles 5,6,7,8, 3024 entries, max 15"));
    assert_non_null(strstr(out, "(8 bits per entry)"));
    assert_non_null(strstr(err, "pdb: cost 15: "));
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, NULL, "pdb info %s/b.pdb", dir), 0);
    assert_non_null(strstr(out, "kind: additive\nseed: the goal placement, the blank on every "
                                "cell of the goal blank's region\ntiles: 5,6,7,8\nentries: "
                                "3024, 3024 with"));
    assert_non_null(strstr(out, "\n0 1\n")); /* one placement at the goal */
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s/b.pdb", dir), 0);
    assert_non_null(strstr(out, "ok: "));
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x3 --pattern 1-4 --plain -o %s/p.pdb", dir),
                     0);
    assert_non_null(strstr(out, "plain, tiles 1,2,3,4, 15120 entries"));
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s/p.pdb", dir), 0);
    free(out);
    /* issue 31: one table leaves h = 0 off the goal; IDA* used to write past
     * its path here (exit 134); the answer is the one move */
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x3 --pattern 1-4 -o %s/a.pdb", dir), 0);
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "solve --h pdb:%s/a.pdb \"1 2 3/4 5 6/7 0 8\"",
                                  dir), 0);
    assert_non_null(strstr(out, "optimal moves: 1\n"));
    free(out);
    /* a distance-database command refuses a pattern database, and vice versa */
    assert_int_equal(clitest_runf(&out, &err, "db info %s/b.pdb", dir), 1);
    assert_non_null(strstr(err, "pattern database"));
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x2 --save %s/d.db >/dev/null 2>&1 && %s pdb info "
                         "%s/d.db", dir, getenv("SLIDE"), dir), 1);
    assert_non_null(strstr(err, "not a pattern database"));
    free(out);
    free(err);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"pdb build 3x3 --pattern 1,2 --partition 7-8 -o x", "exactly one of --pattern"},
        {"pdb build 3x3 --pattern 1,2", "-o FILE"},
        {"pdb build 3x3 --pattern 1,9 -o x", "out of range"},
        {"pdb build 3x3 --pattern 1,1 -o x", "given twice"},
        {"pdb build 3x3 --pattern 1,,2 -o x", "bad tile list"},
        {"pdb build 3x3 --pattern 1-2, -o x", "it ends with a comma"},
        {"pdb build 3x3 --pattern ,1-2 -o x", "bad tile list"},
        {"pdb build 3x3 --partition 7-8 -o x", "is for 4x4 boards"},
        {"pdb build 4x4 --partition 9-9 -o x", "unknown --partition"},
        {"pdb build 4x4 --partition 7-8 --plain -o x", "--plain is used only with pdb build --pattern"},
        {"pdb info --threads 2 x", "--threads is used only with pdb build, verify, stats or"},
        {"pdb build 3x3 --pattern 1 --plain --additive -o x", "set the same thing"},
        {"pdb build 1x5 --pattern 1 -o x", "at least 2x2"},
        {"pdb build 6x6 --pattern 1 -o x", "at most 30"},
        {"pdb build 3x3 --pattern 1 --bogus -o x", "--bogus"},
        {"pdb frob x", "unknown pdb subcommand 'frob' (allowed: build, info, predict, stats, verify)"},
        {"pdb frob", "unknown pdb subcommand 'frob' (allowed: build, info, predict, stats, verify)"},
        {"pdb", "usage: slide pdb"},
        {"solve --reflect \"1 2 3/4 5 6/7 0 8\"", "--reflect mirrors"},
        {"solve --h pdb: \"1 2 3/4 5 6/7 0 8\"", "no pattern database named"},
        {"solve --h pdb:x.pdb+ \"1 2 3/4 5 6/7 0 8\"", "bad pattern database list"},
        {"heuristic 3x3 --h pdb:+x.pdb", "bad pattern database list"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int rc = clitest_runf(&out, &err, "%s", cases[i].args);
        if (rc != 2 || !strstr(err, cases[i].says))
            fail_msg("%s: exit %d, stderr %s", cases[i].args, rc, err);
        assert_int_equal(clitest_count_lines(err), 1);
        free(out);
        free(err);
    }
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "pdb verify %s/missing.pdb", dir), 1);
    assert_non_null(strstr(err, "cannot open"));
    free(out);
    free(err);
    /* never written over a directory */
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x3 --pattern 1 -o %s", dir), 1);
    assert_non_null(strstr(err, "a directory"));
    free(out);
    free(err);
}

/* Korf's instances 1, 2, 4 (published optima 57, 55, 56) with the 5-5-5
 * tables built here, with reflection and maxed with lc; --threads 2 prints
 * them in input order. */
static void test_solve_korf(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 4x4 --partition 5-5-5 -o %s/p555", dir), 0);
    assert_non_null(strstr(out, "use: --h pdb:"));
    free(out);
    char h[512];
    snprintf(h, sizeof h, "pdb:%s/p555/5-5-5.1.pdb+%s/p555/5-5-5.2.pdb+%s/p555/5-5-5.3.pdb",
             dir, dir, dir);
    const char *boards = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2\n"
                         "10 5 1 0 15 9 13 14 2 8 4 7 6 12 11 3\n"
                         "10 7 12 13 3 15 14 8 0 2 5 1 9 6 4 11\n";
    const char *opts[] = {"", "--reflect", "--threads 2", "--reflect --threads 2"};
    for (int i = 0; i < 4; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "solve --size 4x4 --count --h %s %s -", h, opts[i]);
        assert_int_equal(clitest_run(cmd, boards, &out, NULL), 0);
        assert_string_equal(out, "57\n55\n56\n");
        free(out);
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "solve --size 4x4 --format csv --h 'max(lc,%s)' --reflect -", h);
    assert_int_equal(clitest_run(cmd, boards, &out, &err), 0);
    assert_non_null(strstr(out, ",ida,\"max(lc,pdb)\",optimal,57,"));
    assert_non_null(strstr(err, "loaded 3 pattern databases"));
    free(out);
    free(err);
    /* a goal the tables were not built for is refused */
    snprintf(cmd, sizeof cmd, "solve --h %s --goal '0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 "
             "15' '1 2 3 0/4 5 6 7/8 9 10 11/12 13 14 15'", h);
    assert_int_equal(clitest_run(cmd, NULL, &out, &err), 2);
    assert_non_null(strstr(err, "another goal"));
    free(out);
    free(err);
}

/*
 * Bad input around --h pdb: exits 2 in one line naming what is allowed:
 * boards of another size than the tables (every line is checked before
 * anything is printed; with --keep-going the error says its line), a
 * max( ) of another form (refused before any table is loaded), too many
 * tables, tables of different boards; a directory with two files for one
 * table number exits 1, as the other directories that are not one
 * partition's tables.
 */
static void test_pdb_input_refused(void **state)
{
    (void)state;
    char *out, *err, h[512], cmd[1024];
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x3 --pattern 1-4 -o %s/r1.pdb && "
                                  "%s pdb build 3x3 --pattern 5-8 -o %s/r2.pdb && %s pdb build "
                                  "2x4 --pattern 1-3 -o %s/r24.pdb", dir, getenv("SLIDE"), dir,
                                  getenv("SLIDE"), dir), 0);
    free(out);
    snprintf(h, sizeof h, "pdb:%s/r1.pdb+%s/r2.pdb", dir, dir);
    const char *boards = "1 2 3/4 5 6/7 0 8\n1 2 3 4/5 6 0 7\n";
    snprintf(cmd, sizeof cmd, "solve --h %s -", h);
    assert_int_equal(clitest_run(cmd, boards, &out, &err), 2);
    assert_string_equal(out, "");
    assert_non_null(strstr(err, "slide: line 2: the pattern databases are for 3x3 boards, "
                                "not 2x4\n"));
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "solve --count --keep-going --h %s -", h);
    assert_int_equal(clitest_run(cmd, boards, &out, &err), 2);
    assert_string_equal(out, "1\n");
    assert_non_null(strstr(err, "slide: line 2: the pattern databases are for 3x3 boards, "
                                "not 2x4\n"));
    free(out);
    free(err);
    static const char *const forms[] = {"max(pdb:%s/r1.pdb,pdb:%s/r2.pdb)",
                                        "max(lc,max(wd,pdb:%s/r1.pdb))",
                                        "max(lc,pdb:%s/r1.pdb,pdb:%s/r2.pdb)",
                                        "max(nosuch,pdb:%s/r1.pdb)"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char spec[600];
        snprintf(spec, sizeof spec, forms[i], dir, dir);
        assert_int_equal(clitest_runf(&out, &err, "solve --h '%s' '1 2 3/4 5 6/7 0 8'", spec),
                         2);
        assert_int_equal(clitest_count_lines(err), 1); /* no table loaded first */
        assert_non_null(strstr(err, "max(NAME,pdb:FILE+FILE+...) with NAME one of lc, "
                                    "manhattan, misplaced, wd"));
        free(out);
        free(err);
    }
    assert_int_equal(clitest_runf(&out, &err, "solve --h 'pdb:%s/r1.pdb+%s/r1.pdb+%s/r1.pdb+"
                                  "%s/r1.pdb+%s/r1.pdb+%s/r1.pdb+%s/r1.pdb+%s/r1.pdb+%s/r1.pdb' "
                                  "'1 2 3/4 5 6/7 0 8'", dir, dir, dir, dir, dir, dir, dir, dir,
                                  dir), 2);
    assert_non_null(strstr(err, "at most 8 pattern databases in one sum"));
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "solve --h pdb:%s/r1.pdb+%s/r24.pdb "
                                  "'1 2 3/4 5 6/7 0 8'", dir, dir), 2);
    assert_non_null(strstr(err, "r24.pdb is for another board or goal than the first table"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
    /* x.1.pdb and x.01.pdb both read as table 1: which one readdir gives
     * last would win; refused instead */
    char two[128], from[256], to[256];
    snprintf(two, sizeof two, "%s/two", dir);
    assert_int_equal(mkdir(two, 0755), 0);
    snprintf(from, sizeof from, "%s/r1.pdb", dir);
    for (int i = 0; i < 2; i++) {
        snprintf(to, sizeof to, "%s/%s", two, i ? "x.01.pdb" : "x.1.pdb");
        assert_int_equal(link(from, to), 0);
    }
    assert_int_equal(clitest_runf(&out, &err, "solve --h pdb:%s/two '1 2 3/4 5 6/7 0 8'", dir),
                     1); /* like the other directories that are not one partition */
    assert_non_null(strstr(err, "holds two files for table 1"));
    assert_non_null(strstr(err, "x.1.pdb"));
    assert_non_null(strstr(err, "x.01.pdb"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(out);
    free(err);
}

/* slide heuristic sweeps a PDB sum and catches the overlapping one. */
static void test_heuristic_sweep(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x3 --pattern 1-4 -o %s/a.pdb && %s pdb "
                         "build 3x3 --pattern 3-7 -o %s/o.pdb", dir, getenv("SLIDE"), dir), 0);
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "heuristic 3x3 --format csv --h pdb:%s/a.pdb+%s/b.pdb,"
                         "pdb:%s/a.pdb+%s/o.pdb", dir, dir, dir, dir), 0);
    char *p = out, *line, v[64];
    while (*p == '#')
        clitest_next_line(&p);
    clitest_next_line(&p); /* header */
    line = clitest_next_line(&p);
    clitest_field(line, 3, v, sizeof v); /* violations */
    assert_string_equal(v, "0");
    line = clitest_next_line(&p);
    clitest_field(line, 3, v, sizeof v);
    assert_true(atoi(v) > 0); /* tiles 3 and 4 counted twice */
    free(out);
}

/*
 * --goal is checked against each table's header before its payload is read:
 * a table whose payload is corrupt (loading it fails) but whose header is
 * intact is refused for another goal with that message, not with the
 * corruption; for its own goal the same file fails on the corruption, so
 * the first refusal cannot have come after a load.  The goal words of the
 * page (first, last) work on the command line.
 */
static void test_goal_checked_before_payload(void **state)
{
    (void)state;
    char *out, *err, path[128];
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x3 --pattern 1-4 -o %s/c.pdb", dir), 0);
    free(out);
    free(err);
    snprintf(path, sizeof path, "%s/c.pdb", dir);
    size_t len;
    unsigned char *bytes = (unsigned char *)test_read_file(path, &len);
    assert_true(len > 64);
    for (size_t i = len - 40; i < len - 8; i++) /* the last block's compressed bytes */
        bytes[i] ^= 0x55;
    test_write_file(path, bytes, len);
    free(bytes);
    /* its own goal: the corruption is found (exit 1, a bad file) */
    assert_int_equal(clitest_runf(&out, &err, "solve --h pdb:%s '1 2 3/4 5 6/7 0 8'", path), 1);
    assert_null(strstr(err, "another goal"));
    free(out);
    free(err);
    const char *goals[] = {"'0 1 2/3 4 5/6 7 8'", "first --size 3x3", "blank-first --size 3x3"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(clitest_runf(&out, &err, "solve --h pdb:%s --goal %s '1 0 2/3 4 5/6 7 8'",
                                      path, goals[i]), 2);
        if (!strstr(err, "another goal, 1 2 3/4 5 6/7 8 0 (checked before loading)"))
            fail_msg("--goal %s: %s", goals[i], err);
        assert_null(strstr(err, "loaded"));
        assert_null(strstr(err, "korf100")); /* Korf's instances are 4x4 */
        free(out);
        free(err);
    }
    /* the page's words without tables: 'first' is 0 1 2/3 4 5/6 7 8 */
    assert_int_equal(clitest_runf(&out, &err, "solve --goal first --count '1 0 2/3 4 5/6 7 8'"), 0);
    assert_string_equal(out, "1\n");
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "solve --goal last --count '1 2 3/4 5 6/7 0 8'"), 0);
    assert_string_equal(out, "1\n");
    free(out);
    free(err);
}

/* Without a terminal on stderr a build still says that it started (a log
 * of a 4-minute build is not silent), and the table's line follows. */
static void test_build_says_it_started(void **state)
{
    (void)state;
    char *out;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s pdb build 3x3 --pattern 1-3 -o %s/s.pdb 2>&1 | cat",
             getenv("SLIDE"), dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    out = clitest_slurp(p);
    assert_int_equal(pclose(p), 0);
    const char *start = strstr(out, "slide: pdb build: building ");
    const char *done = strstr(out, "s.pdb: additive, tiles 1,2,3,");
    assert_non_null(start);
    assert_non_null(done);
    assert_true(start < done);
    free(out);
}

/* A 4x4 --goal blank first against tables of the standard goal names
 * data/korf100.txt, whose instances are turned to slide's goal (the
 * file's first line: Korf's instance 1, blank last). */
static void test_korf_goal_hint(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "pdb build 4x4 --pattern 1-3 -o %s/k.pdb", dir), 0);
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "solve --h pdb:%s/k.pdb --goal '0 1 2 3/4 5 6 7/8 9 "
                                  "10 11/12 13 14 15' '1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15'",
                                  dir), 2);
    assert_non_null(strstr(err, "another goal, 1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"));
    assert_non_null(strstr(err, "hint: data/korf100.txt holds Korf's 100 instances turned to "
                                "slide's goal"));
    free(out);
    free(err);
    /* a one-line list of 16 cells, on a line of standard input as in an
     * argument: the --size hint that slide solvable gives */
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "solve --h pdb:%s/k.pdb %s", dir,
                 i ? "'1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15'" : "-");
        assert_int_equal(clitest_run(cmd, i ? NULL : "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n",
                                     &out, &err), 2);
        assert_non_null(strstr(err, "the pattern databases are for 4x4 boards, not 1x16"));
        assert_non_null(strstr(err, "for a 4x4 board add --size 4x4"));
        free(out);
        free(err);
    }
    assert_int_equal(clitest_run("solvable '1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15'", NULL, &out,
                                 &err), 0);
    assert_non_null(strstr(err, "for a 4x4 board add --size 4x4"));
    free(out);
    free(err);
    /* and it does: its first board reaches the standard goal */
    assert_int_equal(clitest_runf(&out, &err, "solvable --size 4x4 \"$(grep -v '^#' "
                                  TEST_DATA_DIR "/../../data/korf100.txt | head -n 1)\""), 0);
    assert_non_null(strstr(out, "solvable"));
    free(out);
    free(err);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/slide-test-pdbcli-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

/* Hidden entries (temporaries) in d. */
static int hidden_in(const char *d)
{
    DIR *h = opendir(d);
    assert_non_null(h);
    int n = 0;
    for (struct dirent *e; (e = readdir(h));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(h);
    return n;
}

/*
 * Run slide pdb build (args split at spaces) with stderr read line by line;
 * at the nth line holding "pdb: cost 3:" send sig.  Returns the exit status
 * (-1 when killed by a signal); stderr's lines after the trigger into tail.
 */
static int build_and_stop(const char *args, int nth, int sig, char *tail, size_t len)
{
    char buf[1024], *argv[32];
    int argc = 0, fds[2];
    snprintf(buf, sizeof buf, "%s pdb build %s", getenv("SLIDE"), args);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[1024];
    int seen = 0;
    size_t k = 0;
    tail[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        if (seen >= nth && k + strlen(line) < len)
            k += (size_t)snprintf(tail + k, len - k, "%s", line);
        if (strstr(line, "pdb: cost 3:") && ++seen == nth)
            kill(pid, sig);
    }
    fclose(f);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(seen, nth); /* the build was still running when stopped */
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* build_and_stop with SIGINT at the nth cost-3 line of a build slowed by
 * the pause hook (SLIDE_PDB_PAUSE_MS), so that the signal lands mid-build;
 * the build must exit 130. */
static void interrupt_paused_build(const char *args, int nth, char *tail, size_t len)
{
    setenv("SLIDE_PDB_PAUSE_MS", "100", 1);
    assert_int_equal(build_and_stop(args, nth, SIGINT, tail, len), 130);
    unsetenv("SLIDE_PDB_PAUSE_MS");
}

/* SIGINT or SIGTERM during a build: exit 130 or 143 with one line saying
 * what was not written and what is complete; no file, no temporary. */
static void test_build_stopped(void **state)
{
    (void)state;
    char args[512], tail[4096], want[512], path[256], sub[128];
    snprintf(args, sizeof args, "4x4 --pattern 1-6 --progress --threads 2 -o %s/stop.pdb",
             dir);
    assert_int_equal(build_and_stop(args, 1, SIGINT, tail, sizeof tail), 130);
    snprintf(want, sizeof want, "slide: pdb build stopped by SIGINT: no table was written to "
             "%s/stop.pdb\n", dir);
    assert_non_null(strstr(tail, want));
    assert_null(strstr(tail, "pdb: cost 9")); /* it stopped at once */
    snprintf(path, sizeof path, "%s/stop.pdb", dir);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(hidden_in(dir), 0);
    /* the second table of a partition: the first stays, complete */
    snprintf(sub, sizeof sub, "%s/part", dir);
    snprintf(args, sizeof args, "4x4 --partition 6-6-3 --progress --threads 2 -o %s", sub);
    assert_int_equal(build_and_stop(args, 2, SIGTERM, tail, sizeof tail), 143);
    snprintf(want, sizeof want, "slide: pdb build stopped by SIGTERM: no table was written "
             "to %s/6-6-3.2.pdb (the table before it is complete)\n", sub);
    assert_non_null(strstr(tail, want));
    snprintf(path, sizeof path, "%s/6-6-3.1.pdb", sub);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/6-6-3.2.pdb", sub);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(hidden_in(sub), 0);
    char *out;
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s/6-6-3.1.pdb", sub), 0);
    free(out);
}

/* Byte-for-byte equality of two files. */
static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = test_read_file(a, &la), *y = test_read_file(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/*
 * Edit the checkpoint state in ck by hand, as a user could: the depth moved
 * by ddepth (the pdb-store and pdb-values files renamed to match) and the
 * cumulative count by dcum, the state's CRC-32 recomputed (zlib's crc32,
 * the standard CRC the format names).  Returns the original state text
 * (malloc'd) for forge_restore.
 */
static char *forge_state(const char *ck, int ddepth, long dcum)
{
    char path[256], from[256], to[256], text[8192];
    size_t len;
    snprintf(path, sizeof path, "%s/pdb-state", ck);
    char *orig = test_read_file(path, &len);
    int depth;
    unsigned long long cum;
    char *d = strstr(orig, "\ndepth "), *c = strstr(orig, "\ncumulative ");
    assert_non_null(d);
    assert_non_null(c);
    assert_int_equal(sscanf(d, "\ndepth %d", &depth), 1);
    assert_int_equal(sscanf(c, "\ncumulative %llu", &cum), 1);
    assert_true(depth + ddepth > 0);
    const char *names[] = {"pdb-store", "pdb-values"};
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/%s.%d", ck, names[i], depth);
        snprintf(to, sizeof to, "%s/%s.%d", ck, names[i], depth + ddepth);
        assert_int_equal(rename(from, to), 0);
    }
    char *rest = strchr(c + 1, '\n'), *crc = strstr(orig, "state-crc32 ");
    assert_non_null(rest);
    assert_non_null(crc);
    int n = snprintf(text, sizeof text, "%.*s\ndepth %d\ncumulative %llu%.*s", (int)(d - orig),
                     orig, depth + ddepth, cum + (unsigned long long)dcum, (int)(crc - rest),
                     rest);
    n += snprintf(text + n, sizeof text - (size_t)n, "state-crc32 %08lx\n",
                  crc32(0, (const Bytef *)text, (uInt)n));
    test_write_file(path, text, (size_t)n);
    return orig;
}

/* Undo forge_state(ck, ddepth, ...) with the original text it returned. */
static void forge_restore(const char *ck, int ddepth, char *orig)
{
    char path[256], from[256], to[256];
    int depth;
    assert_int_equal(sscanf(strstr(orig, "\ndepth "), "\ndepth %d", &depth), 1);
    const char *names[] = {"pdb-store", "pdb-values"};
    for (int i = 0; i < 2; i++) {
        snprintf(from, sizeof from, "%s/%s.%d", ck, names[i], depth + ddepth);
        snprintf(to, sizeof to, "%s/%s.%d", ck, names[i], depth);
        assert_int_equal(rename(from, to), 0);
    }
    snprintf(path, sizeof path, "%s/pdb-state", ck);
    test_write_file(path, orig, strlen(orig));
    free(orig);
}

/*
 * --checkpoint: SIGINT stops at a layer's end with a checkpoint (the pause
 * hook SLIDE_PDB_PAUSE_MS lets the signal land mid-build); --resume of
 * another build is refused in one line, a second --checkpoint into the
 * same directory too; the resumed table (with another thread count) passes
 * pdb verify (an independent search) and equals an uninterrupted build
 * byte for byte (consistency); the checkpoint is removed.
 */
static void test_checkpoint_resume(void **state)
{
    (void)state;
    char args[512], tail[4096], want[512], a[256], b[256], ck[128];
    char *out, *err;
    snprintf(ck, sizeof ck, "%s/ck", dir);
    snprintf(a, sizeof a, "%s/ck.pdb", dir);
    snprintf(b, sizeof b, "%s/whole.pdb", dir);
    snprintf(args, sizeof args, "3x4 --pattern 1,2,5,6,9 --progress --threads 1 "
             "--checkpoint %s -o %s", ck, a);
    interrupt_paused_build(args, 1, tail, sizeof tail);
    snprintf(want, sizeof want, "checkpoint saved in %s (continue with --resume %s)\n", ck, ck);
    assert_non_null(strstr(tail, want));
    assert_int_equal(access(a, F_OK), -1);
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x4 --pattern 1,2,5,7,9 --resume %s "
                                  "-o %s", ck, a), 1);
    assert_non_null(strstr(err, "is of another build (additive 3x4 tiles 1,2,5,6,9 goal"));
    assert_int_equal(clitest_count_lines(err), 1);
    free(err);
    free(out);
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x4 --pattern 1,2,5,6,9 --plain "
                                  "--resume %s -o %s", ck, a), 1);
    assert_non_null(strstr(err, "not of this one (plain 3x4"));
    free(err);
    free(out);
    assert_int_equal(clitest_runf(&out, &err, "pdb build 3x4 --pattern 1,2,5,6,9 "
                                  "--checkpoint %s -o %s", ck, a), 1);
    assert_non_null(strstr(err, "already holds a pattern database checkpoint"));
    free(err);
    free(out);
    /* a state edited by hand (CRC recomputed) is refused, not resumed into a
     * wrong table: the depth one lower or one higher, the count one more */
    static const struct { int ddepth; long dcum; const char *why; } forged[] = {
        {-1, 0, "depth"}, /* values at or above it, or states marked next */
        {1, 0, "marked for the layer after depth"},
        {0, 1, "entries hold a value, not the"},
    };
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
        char *orig = forge_state(ck, forged[i].ddepth, forged[i].dcum);
        assert_int_equal(clitest_runf(&out, &err, "pdb build 3x4 --pattern 1,2,5,6,9 "
                                      "--resume %s -o %s", ck, a), 1);
        assert_non_null(strstr(err, "is corrupt ("));
        assert_non_null(strstr(err, forged[i].why));
        assert_int_equal(clitest_count_lines(err), 1);
        assert_int_equal(access(a, F_OK), -1);
        free(err);
        free(out);
        forge_restore(ck, forged[i].ddepth, orig);
    }
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x4 --pattern 1,2,5,6,9 --threads 2 "
                                  "--resume %s -o %s", ck, a), 0);
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s", a), 0);
    free(out);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x4 --pattern 1,2,5,6,9 -o %s", b),
                     0);
    free(out);
    assert_true(same_file(a, b));
    snprintf(want, sizeof want, "%s/pdb-state", ck);
    assert_int_equal(access(want, F_OK), -1);
}

/* Copy the file from over to (both must be readable/writable). */
static void copy_file(const char *from, const char *to)
{
    size_t len;
    char *p = test_read_file(from, &len);
    assert_non_null(p);
    test_write_file(to, p, len);
    free(p);
}

/* --resume with a foreign table where the partition's first table should
 * be: refused (exit 1) in one line naming the file and what differs, and
 * nothing is built or printed on stdout. */
static void refuse_foreign_kept(const char *ck, const char *sub, const char *foreign,
                                const char *differs)
{
    char kept[256], *out, *err;
    snprintf(kept, sizeof kept, "%s/5-5-5.1.pdb", sub);
    copy_file(foreign, kept);
    assert_int_equal(clitest_runf(&out, &err, "pdb build 4x4 --partition 5-5-5 --resume %s "
                                  "-o %s", ck, sub), 1);
    assert_non_null(strstr(err, kept));
    assert_non_null(strstr(err, differs));
    assert_non_null(strstr(err, "not table 1 of --partition 5-5-5"));
    assert_int_equal(clitest_count_lines(err), 1);
    assert_string_equal(out, "");
    free(out);
    free(err);
}

/* --partition with --checkpoint: stopped in its second table, resumed: the
 * first table is kept, the second continues from the checkpoint (equal to
 * a --pattern build of its tiles: consistency; pdb verify: independent),
 * the third is built; a checkpoint of a tile set outside the partition is
 * refused, and so is a kept first table that is not the partition's
 * (another board, another tile set, another goal). */
static void test_partition_resume(void **state)
{
    (void)state;
    char args[512], tail[4096], ck[128], sub[128], a[256], b[256];
    char *out, *err;
    snprintf(ck, sizeof ck, "%s/pck", dir);
    snprintf(sub, sizeof sub, "%s/p555r", dir);
    snprintf(args, sizeof args, "4x4 --partition 5-5-5 --progress --threads 2 "
             "--checkpoint %s -o %s", ck, sub);
    interrupt_paused_build(args, 2, tail, sizeof tail);
    assert_non_null(strstr(tail, "checkpoint saved in"));
    assert_int_equal(clitest_runf(&out, &err, "pdb build 4x4 --partition 6-6-3 --resume %s "
                                  "-o %s", ck, sub), 1);
    assert_non_null(strstr(err, "not of a table of --partition 6-6-3"));
    free(out);
    free(err);
    char first[256], save[256], other[256];
    snprintf(first, sizeof first, "%s/5-5-5.1.pdb", sub);
    snprintf(save, sizeof save, "%s/first.pdb", dir);
    copy_file(first, save);
    snprintf(other, sizeof other, "%s/foreign33.pdb", dir);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 3x3 --pattern 1-3 -o %s", other), 0);
    free(out);
    refuse_foreign_kept(ck, sub, other, "is for 3x3 boards, not 4x4");
    snprintf(b, sizeof b, "%s/t2.pdb", dir);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 4x4 --pattern 4,7,8,11,12 -o %s", b),
                     0);
    free(out);
    refuse_foreign_kept(ck, sub, b, "has tiles 4,7,8,11,12, not 9,10,13,14,15");
    snprintf(other, sizeof other, "%s/foreign-goal.pdb", dir);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 4x4 --pattern 9,10,13,14,15 --goal "
                                  "'0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15' -o %s", other), 0);
    free(out);
    refuse_foreign_kept(ck, sub, other, "was built for another goal");
    copy_file(save, first);
    assert_int_equal(clitest_runf(&out, NULL, "pdb build 4x4 --partition 5-5-5 --resume %s "
                                  "-o %s", ck, sub), 0);
    assert_non_null(strstr(out, "5-5-5.1.pdb: kept"));
    assert_non_null(strstr(out, "5-5-5.3.pdb: additive"));
    free(out);
    snprintf(a, sizeof a, "%s/5-5-5.2.pdb", sub);
    assert_true(same_file(a, b));
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s", a), 0);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_info_verify), cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_solve_korf), cmocka_unit_test(test_heuristic_sweep),
        cmocka_unit_test(test_pdb_input_refused),
        cmocka_unit_test(test_build_stopped), cmocka_unit_test(test_checkpoint_resume),
        cmocka_unit_test(test_partition_resume),
        cmocka_unit_test(test_goal_checked_before_payload),
        cmocka_unit_test(test_korf_goal_hint),
        cmocka_unit_test(test_build_says_it_started),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
