/*
 * clitest.h - running the slide binary from a test: the binary is named by
 * the SLIDE environment variable (make test sets it to build/slide).
 * Include after testutil.h.
 */
#ifndef SLIDE_CLITEST_H
#define SLIDE_CLITEST_H

#include <sys/wait.h>
#include <unistd.h>

/* All of a stream, NUL-terminated (malloc'd). */
static inline char *clitest_slurp(FILE *f)
{
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (size_t got; (got = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

/*
 * Run "$SLIDE args" (args pass through the shell) with standard input from
 * `input` (NULL: empty).  *out receives standard output and, when err is not
 * NULL, *err standard error (both malloc'd, NUL-terminated).  Returns the
 * exit status, -1 if the program did not exit normally.
 */
static inline int clitest_run(const char *args, const char *input, char **out, char **err)
{
    const char *slide = getenv("SLIDE");
    if (!slide)
        fail_msg("SLIDE is not set (run the tests with make test)");
    char in_path[] = "/tmp/slide-test-in-XXXXXX", err_path[] = "/tmp/slide-test-err-XXXXXX";
    int fd = mkstemp(in_path), efd = mkstemp(err_path);
    assert_true(fd >= 0 && efd >= 0);
    size_t n = input ? strlen(input) : 0;
    assert_true(write(fd, input ? input : "", n) == (ssize_t)n);
    close(fd);
    close(efd);
    size_t len = strlen(slide) + strlen(args) + sizeof in_path + sizeof err_path + 16;
    char *cmd = malloc(len);
    assert_non_null(cmd);
    snprintf(cmd, len, "%s %s < %s 2>%s", slide, args, in_path, err_path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    *out = clitest_slurp(p);
    int status = pclose(p);
    if (err) {
        FILE *e = fopen(err_path, "r");
        assert_non_null(e);
        *err = clitest_slurp(e);
        fclose(e);
    }
    unlink(in_path);
    unlink(err_path);
    free(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* clitest_run with the arguments formatted printf-style (at most 4 KiB),
 * no standard input. */
static inline int clitest_runf(char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int clitest_runf(char **out, char **err, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return clitest_run(cmd, NULL, out, err);
}

static inline int clitest_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Field i (0-based) of a CSV record without quoted fields, into buf. */
static inline void clitest_field(const char *line, int i, char *buf, size_t len)
{
    while (i-- > 0) {
        line = strchr(line, ',');
        assert_non_null(line);
        line++;
    }
    size_t n = strcspn(line, ",\n");
    assert_true(n < len);
    memcpy(buf, line, n);
    buf[n] = '\0';
}

/* The next line of *p (NUL-terminated in place), advancing *p past it. */
static inline char *clitest_next_line(char **p)
{
    char *line = *p, *nl = strchr(line, '\n');
    assert_non_null(nl);
    *nl = '\0';
    *p = nl + 1;
    return line;
}

/*
 * Replay len blank moves from b as a test's own truth: each move legal, the
 * tile it slides equal to the next number of `tiles` (NULL: not checked),
 * the end on goal.
 */
static inline void clitest_replay(const struct board *b, const char *moves, size_t len,
                                  const char *tiles, const struct board *goal)
{
    struct board c;
    slide_error err;
    assert_int_equal(board_copy(&c, b, &err), 0);
    int z = board_blank(&c);
    for (size_t i = 0; i < len; i++) {
        int m = move_parse(moves[i]);
        assert_true(m >= 0);
        int to = board_step(c.rows, c.cols, z, (enum move)m);
        assert_true(to >= 0);
        if (tiles) {
            char *end;
            assert_int_equal(strtol(tiles, &end, 10), c.cells[to]);
            tiles = end;
        }
        assert_int_equal(board_move(&c, &z, (enum move)m), 0);
    }
    if (tiles)
        assert_int_equal(tiles[strspn(tiles, " ")], '\0');
    if (!board_equal(&c, goal))
        fail_msg("%dx%d: %zu moves do not end on the goal", b->rows, b->cols, len);
    board_free(&c);
}

/* Remove a test's scratch directory (a group teardown): 0 or -1. */
static inline int clitest_remove_dir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%.400s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
