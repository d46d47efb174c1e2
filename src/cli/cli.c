/*
 * cli.c - shared command-line helpers (cli.h).
 */
#include "cli.h"
#include "slide/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("slide: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

int cli_fail_lib(int rc, const slide_error *err)
{
    int code = rc == SLIDE_EINVAL || rc == SLIDE_ERANGE ? EXIT_USAGE : EXIT_FAIL;
    return cli_fail(code, "%s", err->msg);
}

int cli_int(const char *option, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        cli_fail(EXIT_USAGE, "%s expects a whole number from %ld to %ld, not \"%s\"",
                 option, lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_format(const char *text, enum report_format *out)
{
    int k = report_format_parse(text);
    if (k < 0) {
        cli_fail(EXIT_USAGE, "--format must be text, csv, md or tex, not \"%s\"", text);
        return -1;
    }
    *out = (enum report_format)k;
    return 0;
}

void cli_histogram(enum report_format format, int rows, int cols, const uint64_t *hist,
                   int radius)
{
    static const char *const hdr[] = {"distance", "count", "cumulative"};
    char caption[96];
    snprintf(caption, sizeof caption, "Boards of the %dx%d puzzle by distance from the goal",
             rows, cols);
    struct report_table t = {stdout, format, format == REPORT_CSV ? 2 : 3, hdr, caption, 12};
    uint64_t cum = 0;
    report_begin(&t);
    for (int d = 0; d <= radius; d++) {
        char c0[24], c1[24], c2[24];
        cum += hist[d];
        snprintf(c0, sizeof c0, "%d", d);
        snprintf(c1, sizeof c1, "%" PRIu64, hist[d]);
        snprintf(c2, sizeof c2, "%" PRIu64, cum);
        const char *const row[] = {c0, c1, c2};
        report_row(&t, row);
    }
    report_end(&t);
}

int cli_bytes(const char *option, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    int shift = 0;
    if (*end && !end[1])
        switch (*end) {
        case 'k': case 'K': shift = 10; end++; break;
        case 'm': case 'M': shift = 20; end++; break;
        case 'g': case 'G': shift = 30; end++; break;
        case 't': case 'T': shift = 40; end++; break;
        }
    if (errno || end == text || *end || text[0] == '-' || v == 0 ||
        v > (~0ULL >> shift)) {
        cli_fail(EXIT_USAGE,
                 "%s expects a positive byte count such as 512M or 8G, not \"%s\"",
                 option, text);
        return -1;
    }
    *out = (uint64_t)v << shift;
    return 0;
}

char *cli_slurp(FILE *in)
{
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len - 1, in);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                return NULL;
            }
            buf = b;
            cap *= 2;
        }
    }
    if (ferror(in)) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* argv words joined by single spaces (a board may be given unquoted). */
static char *join_words(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int cli_board(int argc, char **argv, int rows, int cols, struct board *b)
{
    slide_error err;
    if (argc == 0)
        return cli_fail(EXIT_USAGE, "no board given (write it like \"1 2 3/4 5 6/7 8 0\", "
                                    "or - to read it from standard input)");
    char *text = argc == 1 && strcmp(argv[0], "-") == 0 ? cli_slurp(stdin)
                                                         : join_words(argc, argv);
    if (!text)
        return cli_fail(EXIT_FAIL, "cannot read the board text");
    int rc = board_parse(text, rows, cols, b, &err);
    free(text);
    return rc ? cli_fail_lib(rc, &err) : 0;
}

int cli_goal(const char *text, int rows, int cols, struct board *goal)
{
    slide_error err;
    int rc = text ? board_parse(text, rows, cols, goal, &err)
                  : board_goal(goal, rows, cols, &err);
    if (rc)
        return cli_fail(rc == SLIDE_ENOMEM ? EXIT_FAIL : EXIT_USAGE, "goal: %s",
                        err.msg);
    return 0;
}

int cli_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_fail(EXIT_FAIL, "writing standard output failed: %s",
                        strerror(errno));
    return EXIT_OK;
}

int cli_progress_wanted(int flag)
{
    if (flag >= 0)
        return flag;
    return isatty(STDERR_FILENO);
}

void cli_command_line(const char *name, int argc, char **argv, char *buf,
                      size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "slide %s", name);
    for (int i = 1; i < argc && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, " %s", argv[i]);
}

const char *cli_provenance_prefix(int format)
{
    return format == REPORT_TEX ? "% " : format == REPORT_MD ? "> " : "# ";
}

int cli_threads(const char *text, int *out)
{
    long v;
    if (cli_int("--threads", text, 1, 1024, &v))
        return -1;
    *out = (int)v;
    return 0;
}

/* The long options that `name` (len characters) names: an exact match, or
 * every option it abbreviates.  Returns how many; *hit the first. */
static int long_matches(const struct option *longopts, const char *name, size_t len,
                        const struct option **hit)
{
    int n = 0;
    *hit = NULL;
    for (const struct option *o = longopts; o && o->name; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len) {
            *hit = o;
            return 1;
        }
        if (!n++)
            *hit = o;
    }
    return n;
}

/* The message for a bad long option word ("--name" or "--name=value"). */
static int bad_long(const char *cmd, int argc, const char *word,
                    const struct option *longopts)
{
    size_t len = strcspn(word + 2, "=");
    const struct option *o;
    int n = len ? long_matches(longopts, word + 2, len, &o) : 0;
    if (n > 1)
        return cli_fail(EXIT_USAGE, "option %.*s is ambiguous: it abbreviates several "
                        "options (see slide %s --help)", (int)(len + 2), word, cmd);
    if (n == 0)
        return cli_fail(EXIT_USAGE, "unknown option %.*s (see slide %s --help)",
                        (int)(len ? len + 2 : strlen(word)), word, cmd);
    if (o->has_arg == no_argument && word[2 + len] == '=')
        return cli_fail(EXIT_USAGE, "option --%s takes no value (see slide %s --help)",
                        o->name, cmd);
    if (o->has_arg == required_argument && optind == argc && !word[2 + len])
        return cli_fail(EXIT_USAGE, "option --%s needs a value (see slide %s --help)",
                        o->name, cmd);
    return cli_fail(EXIT_USAGE, "option --%s is misused (see slide %s --help)", o->name,
                    cmd);
}

int cli_bad_option(const char *cmd, int argc, char **argv, const char *shortopts,
                   const struct option *longopts)
{
    const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    /* an error inside a cluster of short options leaves optind on it */
    const char *next = optind < argc ? argv[optind] : "";
    int in_cluster = optopt > 0 && optopt < 128 && next[0] == '-' && next[1] &&
                     next[1] != '-' && strchr(next + 1, optopt);
    if (!in_cluster && strncmp(word, "--", 2) == 0 && word[2])
        return bad_long(cmd, argc, word, longopts);
    if (optopt > 0 && optopt < 128 && optopt != ':' && strchr(shortopts, optopt))
        return cli_fail(EXIT_USAGE, "option -%c needs a value (see slide %s --help)",
                        optopt, cmd);
    if (optopt > 0 && optopt < 128)
        return cli_fail(EXIT_USAGE, "unknown option -%c (see slide %s --help)", optopt, cmd);
    return cli_fail(EXIT_USAGE, "unknown option %s (see slide %s --help)", word, cmd);
}
