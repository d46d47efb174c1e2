/*
 * scripttest.h - running the repository's shell scripts from a test: a
 * command line through /bin/sh with its output captured, scratch
 * directories, and small stand-in programs for a machine the test makes up
 * (a PATH of its own).  Include after testutil.h (it includes clitest.h).
 */
#ifndef SLIDE_SCRIPTTEST_H
#define SLIDE_SCRIPTTEST_H

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clitest.h"

/* The repository's root (the tests run from anywhere). */
#define SCRIPTTEST_ROOT TEST_DATA_DIR "/../.."

/*
 * Run cmd (printf-style, at most 16 KiB) with /bin/sh; *out (malloc'd,
 * NUL-terminated) gets its standard output and standard error, in the
 * order written.  Returns the exit status, -1 if it did not exit normally.
 */
static inline int scripttest_sh(char **out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int scripttest_sh(char **out, const char *fmt, ...)
{
    char cmd[16384] = "{ ";
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd + 2, sizeof cmd - 16, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && n < (int)sizeof cmd - 16);
    strcat(cmd, "\n} 2>&1");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    *out = clitest_slurp(p);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A fresh scratch directory (path into dir, at least 64 bytes). */
static inline void scripttest_tmpdir(char *dir, size_t len)
{
    assert_true(len >= 64);
    snprintf(dir, len, "/tmp/slide-script-test-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* The scratch directory of the running test (scripttest_setup makes it,
 * scripttest_teardown removes it: cmocka's setup and teardown). */
static inline char *scripttest_dir(void)
{
    static char dir[128];
    return dir;
}

static inline int scripttest_setup(void **state)
{
    (void)state;
    scripttest_tmpdir(scripttest_dir(), 128);
    return 0;
}

static inline int scripttest_teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(scripttest_dir());
}

/* Write text to path (mode 0755 when exec). */
static inline void scripttest_write(const char *path, const char *text, int exec)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
    if (exec)
        assert_int_equal(chmod(path, 0755), 0);
}

/* The last line of text (copied into line; "" when there is none). */
static inline void scripttest_last_line(const char *text, char *line, size_t len)
{
    size_t n = strlen(text);
    while (n && text[n - 1] == '\n')
        n--;
    size_t start = n;
    while (start && text[start - 1] != '\n')
        start--;
    snprintf(line, len, "%.*s", (int)(n - start), text + start);
}

#endif
