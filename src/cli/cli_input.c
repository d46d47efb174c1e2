/*
 * cli_input.c - board text from standard input or a file, read line by
 * line within stated limits (cli.h: CLI_TEXT_MAX, CLI_INPUT_MAX).
 *
 * Why not read everything and look afterwards: `yes | slide solvable -`
 * never ends, and a 3 GB @FILE is no board; both grew the process by
 * gigabytes before any check.  Here no line may pass CLI_TEXT_MAX and no
 * input CLI_INPUT_MAX, each refused (exit 2) as soon as it passes, and a
 * NUL byte - which ended a board silently when the text was a C string -
 * is refused where it stands.
 */
#include "cli.h"
#include "slide/file_kind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Standard input can be read once: the second reader is refused. */
static int stdin_taken;

/* An input being read: its stream, its name in messages, its limits. */
struct input {
    FILE *f;
    const char *what;   /* "the board", "the boards", "the goal" */
    char where[96];     /* "standard input" or the file name */
    size_t max;         /* bytes the input may hold */
    size_t bytes;       /* read so far */
    char *line;         /* the line being read (reused) */
    size_t cap;
};

static const char *mib(size_t bytes, char *buf, size_t len)
{
    snprintf(buf, len, "%zu bytes (%zu MiB)", bytes, bytes >> 20);
    return buf;
}

/* Open "-" or "@FILE" (a regular file: a FIFO or a device could be
 * endless, and a larger file than max is refused before it is read). */
static int input_open(struct input *in, const char *arg, const char *what, size_t max)
{
    memset(in, 0, sizeof *in);
    in->max = max;
    in->what = what;
    if (!strcmp(arg, "-")) {
        if (stdin_taken++)
            return cli_fail(EXIT_USAGE, "standard input is read once: only one of BOARD "
                            "and --goal can be -");
        in->f = stdin;
        snprintf(in->where, sizeof in->where, "standard input");
        return EXIT_OK;
    }
    slide_error err;
    struct stat sb;
    char limit[64];
    snprintf(in->where, sizeof in->where, "%.80s", arg + 1);
    int fd = file_open_regular(arg + 1, 1, &err);
    if (fd < 0)
        return cli_fail(EXIT_USAGE, "%s: %s", what, err.msg);
    if (fstat(fd, &sb) == 0 && (uint64_t)sb.st_size > max) {
        close(fd);
        return cli_fail(EXIT_USAGE, "%s: %s has %lld bytes, more than the %s slide reads "
                        "from a file of board text", what, arg + 1, (long long)sb.st_size,
                        mib(max, limit, sizeof limit));
    }
    if (!(in->f = fdopen(fd, "r"))) {
        close(fd);
        return cli_fail(EXIT_FAIL, "out of memory reading %s", arg + 1);
    }
    return EXIT_OK;
}

static void input_close(struct input *in)
{
    if (in->f && in->f != stdin)
        fclose(in->f);
    free(in->line);
    in->f = NULL;
    in->line = NULL;
}

/* Room for one more byte of the line being read (len used). */
static int grow_line(struct input *in, size_t len)
{
    if (len + 1 < in->cap)
        return EXIT_OK;
    size_t cap = in->cap ? 2 * in->cap : 4096;
    if (cap > CLI_TEXT_MAX + 2)
        cap = CLI_TEXT_MAX + 2;
    char *p = realloc(in->line, cap);
    if (!p)
        return cli_fail(EXIT_FAIL, "out of memory reading %s (a line of %zu bytes)",
                        in->where, len);
    in->line = p;
    in->cap = cap;
    return EXIT_OK;
}

/* The next line (without its newline) in in->line, *len bytes; *got is 0
 * at the end of the input.  Returns EXIT_OK or the status of a refusal. */
static int next_line(struct input *in, long number, size_t *len, int *got)
{
    char limit[64];
    int c, rc;
    *len = 0;
    *got = 0;
    while ((c = getc_unlocked(in->f)) != EOF) {
        *got = 1;
        if (++in->bytes > in->max)
            return cli_fail(EXIT_USAGE, "%s holds more than %s, the most slide reads; "
                            "split it", in->where, mib(in->max, limit, sizeof limit));
        if (c == '\n')
            break;
        if (c == '\0')
            return cli_fail(EXIT_USAGE, "%s: line %ld holds a NUL byte (byte %zu of the "
                            "line); board text has none", in->where, number, *len + 1);
        /* one rule with cli_text_add: a line counts with its newline */
        if (*len + 1 == CLI_TEXT_MAX)
            return cli_fail(EXIT_USAGE, "%s on %s: line %ld is longer than %s with its "
                            "newline, the most slide reads for one board", in->what,
                            in->where, number, mib(CLI_TEXT_MAX, limit, sizeof limit));
        if ((rc = grow_line(in, *len)))
            return rc;
        in->line[(*len)++] = (char)c;
    }
    if (ferror(in->f))
        return cli_fail(EXIT_FAIL, "cannot read %s: %s", in->where, strerror(errno));
    if (*got && (rc = grow_line(in, *len)))
        return rc;
    if (*got)
        in->line[*len] = '\0';
    return EXIT_OK;
}

int cli_read_lines(const char *arg, const char *what, cli_line_fn fn, void *ctx)
{
    struct input in;
    int rc = input_open(&in, arg, what, CLI_INPUT_MAX);
    for (long number = 1; !rc; number++) {
        size_t len;
        int got;
        if ((rc = next_line(&in, number, &len, &got)) || !got)
            break;
        rc = fn(in.line, len, number, ctx);
    }
    input_close(&in);
    return rc;
}

int cli_no_boards(const char *arg)
{
    return cli_fail(EXIT_USAGE, "%s holds no board (only blank lines and # comments)",
                    strcmp(arg, "-") ? arg + 1 : "standard input");
}

int cli_text_add(struct cli_text *t, const char *line, size_t len)
{
    char limit[64];
    if (len + 1 > CLI_TEXT_MAX - t->len)
        return cli_fail(EXIT_USAGE, "%s on %s is longer than %s, the most slide reads for "
                        "one board%s", t->what, t->where, mib(CLI_TEXT_MAX, limit, sizeof limit),
                        t->hint ? t->hint : "");
    if (t->len + len + 2 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + len + 2)
            cap *= 2;
        char *p = realloc(t->text, cap);
        if (!p)
            return cli_fail(EXIT_FAIL, "out of memory reading %s from %s", t->what, t->where);
        t->text = p;
        t->cap = cap;
    }
    memcpy(t->text + t->len, line, len);
    t->len += len;
    t->text[t->len++] = '\n';
    t->text[t->len] = '\0';
    return EXIT_OK;
}

int cli_lines_add(struct cli_lines *l, const char *line, size_t len, long number)
{
    if (l->count == l->cap_lines) {
        long cap = l->cap_lines ? 2 * l->cap_lines : 64;
        size_t *o = realloc(l->off, (size_t)cap * sizeof *o);
        if (o)
            l->off = o;
        long *n = o ? realloc(l->number, (size_t)cap * sizeof *n) : NULL;
        if (!n)
            return cli_fail(EXIT_FAIL, "out of memory for the boards (%ld lines)", l->count);
        l->number = n;
        l->cap_lines = cap;
    }
    if (len + 1 > l->cap - l->len) {
        size_t cap = l->cap ? l->cap : 4096;
        while (cap - l->len < len + 1)
            cap *= 2;
        char *b = realloc(l->buf, cap);
        if (!b)
            return cli_fail(EXIT_FAIL, "out of memory for the boards (%zu bytes)", l->len);
        l->buf = b;
        l->cap = cap;
    }
    memcpy(l->buf + l->len, line, len);
    l->buf[l->len + len] = '\0';
    l->off[l->count] = l->len;
    l->number[l->count++] = number;
    l->len += len + 1;
    return EXIT_OK;
}

void cli_lines_free(struct cli_lines *l)
{
    free(l->buf);
    free(l->off);
    free(l->number);
    memset(l, 0, sizeof *l);
}

static int join_line(char *line, size_t len, long number, void *ctx)
{
    (void)number;
    return cli_text_add(ctx, line, len);
}

int cli_read_text(const char *arg, const char *what, char **out)
{
    *out = NULL;
    if (strcmp(arg, "-") && arg[0] != '@') {
        if (!(*out = strdup(arg)))
            return cli_fail(EXIT_FAIL, "out of memory for %s", what);
        return EXIT_OK;
    }
    struct cli_text j = {NULL, 0, 0, what, strcmp(arg, "-") ? arg + 1 : "standard input",
                         NULL};
    int rc = cli_read_lines(arg, what, join_line, &j);
    if (!rc && !j.text && !(j.text = calloc(1, 1)))
        rc = cli_fail(EXIT_FAIL, "out of memory for %s", what);
    if (rc) {
        free(j.text);
        return rc;
    }
    *out = j.text;
    return EXIT_OK;
}
