/*
 * test_input_cli.c - board text from standard input and from @FILE within
 * its stated limits (cli.h: 16 MiB of one board's text or line, 256 MiB
 * of one input, no NUL byte; issue 32 items 5 and 7), through the binary
 * named by $SLIDE.
 *
 * Each command runs in a child of a helper process (run_measured), which
 * reports the exit status, what the command wrote on stderr and the peak
 * resident memory of the command (getrusage of the helper's children), so
 * that "bounded" is checked as a number: the growth over the same command
 * on a one-line input.  Inputs come from yes(1) and head(1) with a byte
 * count, so even a command that reads everything (main at 4e81fef) ends.
 */
#include "testutil.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clitest.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-input-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s bfs 3x3 --save %s/33.db >/dev/null 2>&1", getenv("SLIDE"),
             dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

struct measured {
    int status;       /* exit status of the shell line (its last command) */
    long peak_kb;     /* the largest resident size among its processes */
    char err[4096];   /* the start of its standard error */
};

/*
 * Run `sh -c line` ("@" replaced by the scratch directory, "@@" by '@' and
 * the directory, "SLIDE" by the binary; standard output to /dev/null) in a
 * child that waits for it and reports its peak memory: a
 * fresh process, so the peak is this command's alone.
 */
static void run_measured(const char *line, struct measured *m)
{
    char cmd[2048], errpath[128];
    size_t k = 0;
    for (const char *p = line; *p && k + 256 < sizeof cmd; p++) {
        if (p[0] == '@' && p[1] == '@') /* "@@": a literal '@' before the directory */
            cmd[k++] = '@';
        else if (*p == '@')
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s", dir);
        else if (!strncmp(p, "SLIDE", 5) && (p += 4))
            k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s", getenv("SLIDE"));
        else
            cmd[k++] = *p;
    }
    cmd[k] = '\0';
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t helper = fork();
    assert_true(helper >= 0);
    if (helper == 0) {
        close(fds[0]);
        pid_t pid = fork();
        if (pid == 0) {
            int e = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            int null = open("/dev/null", O_WRONLY);
            dup2(e, 2);
            dup2(null, 1);
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            _exit(127);
        }
        int st = -1;
        waitpid(pid, &st, 0);
        struct rusage ru;
        getrusage(RUSAGE_CHILDREN, &ru);
        long out[2] = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, ru.ru_maxrss};
        if (write(fds[1], out, sizeof out) != (ssize_t)sizeof out)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    long got[2] = {-1, -1};
    assert_int_equal(read(fds[0], got, sizeof got), (ssize_t)sizeof got);
    close(fds[0]);
    waitpid(helper, NULL, 0);
    m->status = (int)got[0];
    m->peak_kb = got[1];
    FILE *f = fopen(errpath, "r");
    size_t n = f ? fread(m->err, 1, sizeof m->err - 1, f) : 0;
    m->err[n] = '\0';
    if (f)
        fclose(f);
}

static void expect_measured(const char *line, int status, const char *text, struct measured *m)
{
    run_measured(line, m);
    if (m->status != status || !strstr(m->err, text))
        fail_msg("%s: exit %d (want %d), stderr:\n%s\nwanted: %s", line, m->status, status,
                 m->err, text);
}

/* Growth allowed over a one-line run: the text of one board (16 MiB) held
 * twice, and room for the allocator and a sanitizer's bookkeeping. */
#define SMALL_GROWTH_KB (64L << 10)

/*
 * Item 5: an endless board on standard input.  `yes "1 2 3" | slide
 * solvable -` grew to 4 GB in 20 s at 4e81fef; now the board is refused
 * once its text passes 16 MiB, naming the limit, exit 2, and the memory
 * stays near that of a one-line input.  The same for solve - (which takes
 * an input whose first line is no board by itself as one board) and for
 * --goal -.
 */
static void test_endless_board(void **state)
{
    (void)state;
    struct measured base, m;
    static const char *const cmds[][2] = {
        {"solvable -", "the board on standard input is longer than 16777216 bytes"},
        {"solve --method layers --count -", "the board on standard input is longer than "
                                            "16777216 bytes"},
        {"solvable --goal - '1 2 3/4 5 6/7 8 0'", "the goal on standard input is longer "
                                                  "than 16777216 bytes"},
    };
    for (int i = 0; i < 3; i++) {
        char line[512];
        snprintf(line, sizeof line, "echo '1 2 3/4 5 6/7 8 0' | SLIDE %s >/dev/null", cmds[i][0]);
        run_measured(line, &base);
        snprintf(line, sizeof line, "yes '1 2 3' | head -c 100000000 | SLIDE %s", cmds[i][0]);
        expect_measured(line, 2, cmds[i][1], &m);
        assert_int_equal(clitest_count_lines(m.err), 1);
        printf("# %s: peak %ld kB (%ld kB on one line)\n", line, m.peak_kb, base.peak_kb);
#ifndef __SANITIZE_ADDRESS__
        assert_true(m.peak_kb - base.peak_kb < SMALL_GROWTH_KB);
#endif
    }
}

/* A line of 1000 '#': a comment, which costs nothing to skip. */
static const char *comment_line(void)
{
    static char c[1001];
    memset(c, '#', 1000);
    return c;
}

/*
 * Item 5: an endless batch, one board per line.  The input is refused
 * once it passes 256 MiB (dist -, solve -; comment lines here, so that the
 * test reads 300 MB in a second); a batch whose lines are bad is refused at
 * its first line at once (dist -, solve -) or, with --keep-going, reported
 * line by line without keeping the lines: the memory stays near that of
 * one line.  At 4e81fef every byte was kept first.
 */
static void test_endless_batch(void **state)
{
    (void)state;
    struct measured base, m;
    char line[1400];
    snprintf(line, sizeof line, "yes '%s' | head -c 300000000 | SLIDE dist --db @/33.db -",
             comment_line());
    expect_measured(line, 2, "standard input holds more than 268435456 bytes (256 MiB), the "
                    "most slide reads; split it", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
    snprintf(line, sizeof line, "(echo '1 2 3/4 5 6/7 0 8'; yes '%s') | head -c 300000000 | "
             "SLIDE solve --count -", comment_line());
    expect_measured(line, 2, "standard input holds more than 268435456 bytes", &m);
    expect_measured("yes '1 2 3' | head -c 300000000 | SLIDE dist --db @/33.db -", 2,
                    "slide: line 1: board has 3 cells, a 3x3 board needs 9", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
    expect_measured("yes '1 2 3/4 5 6' | head -c 300000000 | SLIDE solve -", 2,
                    "slide: line 1: ", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
    run_measured("echo '1 2 3' | SLIDE dist --keep-going --db @/33.db -", &base);
    run_measured("yes '1 2 3' | head -c 8000000 | SLIDE dist --keep-going --db @/33.db - "
                 "2>/dev/null; echo $? >&2", &m);
    printf("# dist --keep-going of 8 MB of bad lines: peak %ld kB (%ld kB on one line)\n",
           m.peak_kb, base.peak_kb);
    assert_string_equal(m.err, "2\n");
#ifndef __SANITIZE_ADDRESS__
    /* AddressSanitizer keeps freed memory in quarantine (up to 256 MB): no
     * bound on the resident size holds there */
    assert_true(m.peak_kb - base.peak_kb < 8L << 10);
#endif
}

/* Item 5: a 1000x1000 board (the largest slide takes) from standard input
 * and from @FILE, also padded with blanks to just under the limit; past the
 * limit it is refused naming it. */
static void test_largest_board(void **state)
{
    (void)state;
    struct measured m;
    char line[1024];
    snprintf(line, sizeof line, "SLIDE scramble 1000x1000 --seed 7 > @/big.txt");
    run_measured(line, &m);
    assert_int_equal(m.status, 0);
    expect_measured("SLIDE solvable - < @/big.txt", 0, "", &m);
    expect_measured("SLIDE solvable @@/big.txt", 0, "", &m);
    /* solve's reader: a board two moves from the goal (layer by layer is
     * quick there) */
    run_measured("SLIDE scramble 1000x1000 --walk 2 --seed 7 > @/near.txt", &m);
    expect_measured("SLIDE solve --method layers --count - < @/near.txt", 0, "", &m);
    /* the board's text, with blank lines before it up to 16 MiB in all */
    struct stat sb;
    char path[128];
    snprintf(path, sizeof path, "%s/big.txt", dir);
    assert_int_equal(stat(path, &sb), 0);
    long pad = (16L << 20) - (long)sb.st_size - 1;
    snprintf(line, sizeof line, "head -c %ld /dev/zero | tr '\\000' '\\n' > @/padded.txt && "
             "cat @/big.txt >> @/padded.txt && SLIDE solvable - < @/padded.txt", pad);
    expect_measured(line, 0, "", &m);
    snprintf(line, sizeof line, "head -c %ld /dev/zero | tr '\\000' ' ' > @/over.txt && "
             "cat @/big.txt >> @/over.txt && SLIDE solvable @@/over.txt", pad + 2);
    expect_measured(line, 2, "the board on ", &m);
    assert_non_null(strstr(m.err, "is longer than 16777216 bytes (16 MiB)"));
}

/* Item 5: a 3 GB @FILE (sparse: no disk) is refused before a byte is read,
 * naming its size and the limit. */
static void test_huge_file(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/huge.txt", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 3LL << 30), 0);
    close(fd);
    struct measured m;
    expect_measured("SLIDE solvable @@/huge.txt", 2, "the board: ", &m);
    assert_non_null(strstr(m.err, "huge.txt has 3221225472 bytes, more than the 268435456 "
                                  "bytes (256 MiB) slide reads"));
    expect_measured("SLIDE solve --count @@/huge.txt", 2, "has 3221225472 bytes", &m);
    unlink(path);
}

/*
 * Item 7: a NUL byte ended a board silently ("1 2 3/4 5 6/7 8 0\0junk" was
 * the goal at 4e81fef); it is refused naming the line and the byte, on
 * standard input, in @FILE, in a batch and in --goal -.
 */
static void test_nul_byte(void **state)
{
    (void)state;
    struct measured m;
    expect_measured("printf '1 2 3/4 5 6/7 8 0\\000 junk\\n' | SLIDE solvable -", 2,
                    "standard input: line 1 holds a NUL byte (byte 18 of the line); board "
                    "text has none", &m);
    expect_measured("printf '# x\\n1 2 3/4 5 6/7 8 0\\000\\n' > @/nul.txt && "
                    "SLIDE solvable @@/nul.txt", 2, "nul.txt: line 2 holds a NUL byte", &m);
    expect_measured("printf '1 2 3/4 5 6/7 0 8\\n1 2 3/4 5 6/7 8 0\\000\\n' | "
                    "SLIDE solve --count -", 2, "line 2 holds a NUL byte", &m);
    expect_measured("printf '1 2 3/4 5 6/7 0 8\\n8 6 7/2 5 4/3 0 1\\000\\n' | "
                    "SLIDE dist --keep-going --db @/33.db -", 2, "line 2 holds a NUL byte", &m);
    expect_measured("printf '1 2 3/4 5 6/7 8 0\\000\\n' | SLIDE solvable --goal - "
                    "'1 2 3/4 5 6/7 0 8'", 2, "holds a NUL byte", &m);
}

/*
 * Item 5: memory that runs out while reading is said to be memory, exit
 * 1, not bad input (dist - took it for "cannot read standard input" at
 * 4e81fef).  ulimit -v makes malloc fail; not under AddressSanitizer,
 * whose shadow memory does not fit such a limit.
 */
static void test_out_of_memory(void **state)
{
    (void)state;
#ifdef __SANITIZE_ADDRESS__
    printf("# skipped under AddressSanitizer (ulimit -v)\n");
#else
    struct measured m;
    expect_measured("yes '8 6 7/2 5 4/3 0 1' | head -c 200000000 | (ulimit -v 150000; "
                    "SLIDE dist --db @/33.db - >/dev/null)", 1, "out of memory", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
    expect_measured("yes '8 6 7/2 5 4/3 0 1' | head -c 200000000 | (ulimit -v 150000; "
                    "SLIDE solve --count - >/dev/null)", 1, "out of memory", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
#endif
}

/* 1 if s holds a control byte other than the newline that ends a line. */
static int has_control(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f)
            return 1;
    return 0;
}

/*
 * Issue 39 item 3: pdb predict - read standard input whole (300 MB of
 * input took 312 MB and exited 1, "cannot read the boards"; a NUL byte
 * dropped the rest; at b66e30a).  Now its lines go through the reader of
 * every board input: 300 MB of comment lines are refused at 256 MiB, exit
 * 2, the memory near that of a one-line input; a NUL byte is refused
 * naming the line; @FILE reads the same lines as -.  Messages that echo
 * input or a file name write a control byte as \xNN: an escape sequence
 * in a predict line, in a solve line, in a file name.
 */
static void test_predict_input(void **state)
{
    (void)state;
    struct measured base, m;
    char line[1400];
    run_measured("echo '2 1 2 3/4 5 6/0 7 8' | SLIDE pdb predict 3x3 --h manhattan --exact - "
                 ">/dev/null", &base);
    assert_int_equal(base.status, 0);
    snprintf(line, sizeof line, "yes '%s' | head -c 300000000 | SLIDE pdb predict 3x3 --h "
             "manhattan --exact -", comment_line());
    expect_measured(line, 2, "standard input holds more than 268435456 bytes (256 MiB), the "
                    "most slide reads; split it", &m);
    assert_int_equal(clitest_count_lines(m.err), 1);
    printf("# %s: peak %ld kB (%ld kB on one line)\n", line, m.peak_kb, base.peak_kb);
#ifndef __SANITIZE_ADDRESS__
    assert_true(m.peak_kb - base.peak_kb < SMALL_GROWTH_KB);
#endif
    expect_measured("printf '2 1 2 3/4 5 6/0 7 8\\n2 1 2 3/4 5 6/0 7 8\\000 junk\\n' | SLIDE pdb "
                    "predict 3x3 --h manhattan --exact -", 2, "standard input: line 2 holds a "
                    "NUL byte", &m);
    /* @FILE: the same lines, the same answer (the prediction at length 2
     * from h = 2: one iteration, threshold 2, and the 'all' line) */
    char *a, *b;
    expect_measured("printf '# two\\n\\n2 1 2 3/4 5 6/0 7 8\\n' > @/p.txt", 0, "", &m);
    snprintf(line, sizeof line, "pdb predict 3x3 --h manhattan --exact @%s/p.txt", dir);
    assert_int_equal(clitest_run(line, NULL, &a, NULL), 0);
    assert_int_equal(clitest_run("pdb predict 3x3 --h manhattan --exact -",
                                 "2 1 2 3/4 5 6/0 7 8\n", &b, NULL), 0);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "length 2, h 2, threshold 2:"));
    assert_non_null(strstr(a, "length 2, h 2, threshold all:"));
    free(a);
    free(b);
    expect_measured("printf 'x\\033[31mRED 1 2\\n' | SLIDE pdb predict 3x3 --h manhattan "
                    "--exact -", 2, "got \"x\\x1b[31mRED 1 2\"", &m);
    assert_false(has_control(m.err));
    expect_measured("printf '1 2 3/4 5 6/7 8 0\\n1 2 \\033]0;title\\007\\n' | SLIDE solve "
                    "--count -", 2, "line 2: ", &m);
    assert_false(has_control(m.err));
    expect_measured("SLIDE solvable \"@@/$(printf 'no\\033[2Jsuch')\"", 2, "no\\x1b[2Jsuch",
                    &m);
    assert_false(has_control(m.err));
}

/*
 * Issue 39 item 8: one rule for every batch.  dist takes @FILE as `slide
 * --help` says every BOARD does (at b66e30a: "unexpected character '@'");
 * an input of blank and # lines only is refused by dist (exit 0 at
 * b66e30a) and by solve (which said "longer than 16 MiB" once the comment
 * lines passed it) alike; a line of 16 MiB - 1 bytes and its newline is
 * read by both, one of 16 MiB by neither (dist read it, solve refused it).
 * The distances are those of the boards' construction: the goal is 0, one
 * move from it 1.
 */
static void test_batch_rules(void **state)
{
    (void)state;
    struct measured m;
    char line[1400], *out;
    expect_measured("printf '# boards\\n1 2 3/4 5 6/7 0 8\\n\\n1 2 3/4 5 6/7 8 0\\n' > @/b.txt",
                    0, "", &m);
    snprintf(line, sizeof line, "dist --db %s/33.db --format csv @%s/b.txt", dir, dir);
    assert_int_equal(clitest_run(line, NULL, &out, NULL), 0);
    assert_string_equal(out, "board,distance\n1 2 3/4 5 6/7 0 8,1\n1 2 3/4 5 6/7 8 0,0\n");
    free(out);
    static const char *const cmds[] = {"dist --db @/33.db", "solve --count"};
    for (int i = 0; i < 2; i++) {
        snprintf(line, sizeof line, "SLIDE %s - </dev/null", cmds[i]);
        expect_measured(line, 2, "slide: standard input holds no board (only blank lines and "
                        "# comments)", &m);
        snprintf(line, sizeof line, "yes '%s' | head -c 20000000 | SLIDE %s -", comment_line(),
                 cmds[i]);
        expect_measured(line, 2, "slide: standard input holds no board", &m);
        snprintf(line, sizeof line, "printf '#\\n\\n' > @/e.txt; SLIDE %s @@/e.txt", cmds[i]);
        expect_measured(line, 2, "e.txt holds no board", &m);
        assert_int_equal(clitest_count_lines(m.err), 1);
        /* the goal padded with blanks to 16 MiB - 1 bytes, then 16 MiB */
        for (long n = (16L << 20) - 1; n <= 16L << 20; n++) {
            snprintf(line, sizeof line, "{ printf '1 2 3/4 5 6/7 8 0'; head -c %ld /dev/zero | "
                     "tr '\\000' ' '; echo; } | SLIDE %s -", n - 17, cmds[i]);
            if (n < 16L << 20)
                expect_measured(line, 0, "", &m);
            else
                expect_measured(line, 2, "the boards on standard input: line 1 is longer "
                                "than 16777216 bytes (16 MiB) with its newline", &m);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_endless_board),
        cmocka_unit_test(test_endless_batch),
        cmocka_unit_test(test_largest_board),
        cmocka_unit_test(test_huge_file),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_predict_input),
        cmocka_unit_test(test_batch_rules),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
