/*
 * cli.c - shared command-line helpers (cli.h).
 */
#include "cli.h"
#include "slide/db.h"
#include "slide/file_kind.h"
#include "slide/report.h"
#include "slide/store.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The one writer of messages on stderr: prefix, then the formatted text
 * with every control byte (below 0x20, and 0x7f) written as \xNN - a
 * board, a line of input or a file name echoed in a message can hold an
 * escape sequence that would drive the terminal - except a newline that
 * ends the text, then a newline when nl is set.
 */
static void vput(const char *prefix, int nl, const char *fmt, va_list ap)
{
    char small[1024], *text = small;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0)
        small[0] = '\0';
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)))
        vsnprintf(text, (size_t)n + 1, fmt, copy);
    else if (n >= (int)sizeof small)
        text = small; /* out of memory: the message cut short */
    va_end(copy);
    size_t len = strlen(text), plen = strlen(prefix), k = plen;
    int ends_line = len > 0 && text[len - 1] == '\n';
    /* the line in one write (stderr is unbuffered): prefix, text, newline */
    char *out = malloc(plen + 4 * len + 2);
    if (!out) { /* out of memory: say so rather than print raw bytes */
        fputs(prefix, stderr);
        fputs("(out of memory for the message)\n", stderr);
        if (text != small)
            free(text);
        return;
    }
    memcpy(out, prefix, plen);
    for (size_t i = 0; i < len - (size_t)ends_line; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == 0x7f)
            k += (size_t)snprintf(out + k, 5, "\\x%02x", c);
        else
            out[k++] = (char)c;
    }
    if (ends_line || nl)
        out[k++] = '\n';
    fwrite(out, 1, k, stderr);
    free(out);
    if (text != small)
        free(text);
}

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput("slide: ", 1, fmt, ap);
    va_end(ap);
    return code;
}

void cli_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput("slide: ", 1, fmt, ap);
    va_end(ap);
}

void cli_eprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput("", 0, fmt, ap);
    va_end(ap);
}

int cli_fail_lib(int rc, const slide_error *err)
{
    int code = rc == SLIDE_EINVAL || rc == SLIDE_ERANGE ? EXIT_USAGE : EXIT_FAIL;
    return cli_fail(code, "%s", err->msg);
}

/* 1 if msg holds path as a word (after a space or at the start, before a
 * space, ':', ',' or the end). */
static int names_path(const char *msg, const char *path)
{
    size_t n = strlen(path);
    for (const char *q = msg; n && (q = strstr(q, path)); q++) {
        char after = q[n];
        if ((q == msg || q[-1] == ' ') &&
            (after == '\0' || after == ' ' || after == ':' || after == ','))
            return 1;
    }
    return 0;
}

int cli_fail_file(int code, const char *path, const slide_error *err)
{
    if (names_path(err->msg, path))
        return cli_fail(code, "%s", err->msg);
    return cli_fail(code, "%s: %s", path, err->msg);
}

/* EXIT_USAGE naming the metric of db and the one asked; db is freed. */
static int other_metric(const char *path, struct db *db, const slide_error *err)
{
    int rc = cli_fail(EXIT_USAGE, "%s: %s (--metric %s reads it)", path, err->msg,
                      metric_name(db->metric));
    db_free(db);
    return rc;
}

int cli_load_db(const char *path, int threads, enum metric asked, struct db *db)
{
    slide_error err;
    /* the header first, so that a file of the other metric is refused
     * before its payload is read; db_load reads the header again */
    if (db_open(path, db, &err))
        return cli_fail_file(EXIT_FAIL, path, &err);
    if (db_check_metric(db, asked, &err))
        return other_metric(path, db, &err);
    db_free(db);
    if (db_load(path, threads, db, &err))
        return cli_fail_file(EXIT_FAIL, path, &err);
    if (db_check_metric(db, asked, &err)) /* replaced in between */
        return other_metric(path, db, &err);
    return EXIT_OK;
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

int cli_max_memory(const char *text, uint64_t *out)
{
    if (cli_bytes("--max-memory", text, out))
        return -1;
    uint64_t avail = store_memory_available(0);
    if (avail && *out > avail)
        cli_note("warning: --max-memory %s is more than the %" PRIu64
                " bytes (%.2f GB) available now (MemAvailable); the limit used is %" PRIu64
                " bytes\n", text, avail, avail / 1e9, avail);
    return 0;
}

int cli_board(const char *cmd, int argc, char **argv, int rows, int cols, struct board *b)
{
    slide_error err;
    char *text;
    if (argc == 0)
        return cli_fail(EXIT_USAGE, "no board given (write it like \"1 2 3/4 5 6/7 8 0\", "
                                    "or - to read it from standard input)");
    if (argc > 1)
        return cli_fail(EXIT_USAGE, "%s takes one BOARD (got %d); quote it, or use - "
                        "to read it from standard input", cmd, argc);
    int rc = cli_read_text(argv[0], "the board", &text);
    if (rc)
        return rc;
    rc = board_parse(text, rows, cols, b, &err);
    free(text);
    return rc ? cli_fail_lib(rc, &err) : 0;
}

int cli_goal(const char *text, int rows, int cols, struct board *goal)
{
    slide_error err;
    char *t = NULL;
    int rc = text ? cli_read_text(text, "the goal", &t) : EXIT_OK;
    if (rc)
        return rc;
    rc = t ? board_parse_goal(t, rows, cols, goal, &err) : board_goal(goal, rows, cols, &err);
    free(t);
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

int cli_help(const char *text)
{
    fputs(text, stdout);
    int rc = cli_finish_stdout();
    return rc ? rc : -1;
}

int cli_progress_wanted(int flag)
{
    if (flag >= 0)
        return flag;
    return isatty(STDERR_FILENO);
}

/* arg as one shell word into out (at most len bytes with the NUL): as it
 * is when every character is plain, else in single quotes, each ' written
 * '\''.  Returns the length it needs.  len >= 1. */
static size_t shell_word(const char *arg, char *out, size_t len)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                "0123456789_@%+=:,./-";
    size_t need = 0;
    char *o = out, *end = out + len - 1;
    int quote = !*arg || arg[strspn(arg, plain)] != '\0';
#define PUT(c) do { if (o < end) *o++ = (c); need++; } while (0)
    if (quote)
        PUT('\'');
    for (const char *p = arg; *p; p++) {
        if (*p == '\'' && quote) {
            PUT('\''); PUT('\\'); PUT('\''); PUT('\'');
        } else {
            PUT(*p);
        }
    }
    if (quote)
        PUT('\'');
#undef PUT
    *o = '\0';
    return need;
}

void cli_command_line(const char *name, int argc, char **argv, char *buf,
                      size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "slide %s", name);
    for (int i = 1; i < argc && used < len; i++) {
        char word[4096];
        size_t need = shell_word(argv[i], word, sizeof word);
        if (need >= sizeof word || used + 1 + need + 4 >= len) {
            snprintf(buf + used, len - used, " ...");
            return;
        }
        used += (size_t)snprintf(buf + used, len - used, " %s", word);
    }
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

int cli_metric(const char *text, enum metric *out)
{
    int m = metric_parse(text);
    if (m < 0)
        return cli_fail(EXIT_USAGE, "--metric must be stm (one tile one cell) or mtm "
                        "(the blank jumps along its row or column), not \"%s\"", text);
    *out = (enum metric)m;
    return 0;
}

/* ---- the option layer (cli.h) ------------------------------------------ */

void cli_parse_init(struct cli_parse *p, const char *cmd, const struct cli_option *opts,
                    int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->opts = opts;
    p->argc = argc;
    p->argv = argv;
    p->next = 1;
    p->args = argv + 1;
}

/* One line: the problem, then where the options are documented. */
static int bad(const struct cli_parse *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad(const struct cli_parse *p, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_fail(CLI_ERROR, "%s (see slide %s --help)", msg, p->cmd);
}

/* The option whose long name is name[0..len) exactly, or NULL. */
static const struct cli_option *find_long(const struct cli_parse *p, const char *name,
                                          size_t len)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

static const struct cli_option *find_short(const struct cli_parse *p, char c)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (o->letter && o->letter == c)
            return o;
    return NULL;
}

/* "--thr": unknown, with the options it begins as a hint. */
static int unknown_long(const struct cli_parse *p, const char *word, size_t len)
{
    char hint[256] = "";
    size_t used = 0;
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (len > 2 && strncmp(o->name, word + 2, len - 2) == 0 && used < sizeof hint)
            used += (size_t)snprintf(hint + used, sizeof hint - used, "%s--%s",
                                     used ? " or " : "; long options are written in full: "
                                                     "did you mean ", o->name);
    char msg[400];
    snprintf(msg, sizeof msg, "unknown option %.*s%s%s", (int)(len > 2 ? len : strlen(word)),
             word, hint,
             used ? "?" : "");
    return cli_fail(CLI_ERROR, "%s (see slide %s --help)", msg, p->cmd);
}

/* How o was written: "--name" (how 'l') or "-x" (how 's'). */
static void written(const struct cli_option *o, char how, char *buf, size_t len)
{
    if (how == 's')
        snprintf(buf, len, "-%c", o->letter);
    else
        snprintf(buf, len, "--%s", o->name);
}

/* The option that o is the same setting as (itself when none). */
static const struct cli_option *canonical(const struct cli_parse *p,
                                          const struct cli_option *o)
{
    const struct cli_option *c = o->same ? find_long(p, o->same, strlen(o->same)) : NULL;
    return c ? c : o;
}

/* Record that o was given (written as how); refuse a second time. */
static int take(struct cli_parse *p, const struct cli_option *o, char how)
{
    char now[64], before[64], msg[200];
    int j = (int)(o - p->opts);
    assert(j < CLI_MAX_OPTIONS);
    for (const struct cli_option *q = p->opts; q->name; q++) {
        int i = (int)(q - p->opts);
        if (!p->given[i] || canonical(p, q) != canonical(p, o))
            continue;
        written(o, how, now, sizeof now);
        written(q, p->given[i], before, sizeof before);
        if (i == j)
            snprintf(msg, sizeof msg, "option %s is given twice; give it once", now);
        else
            snprintf(msg, sizeof msg, "options %s and %s set the same thing; give one",
                     before, now);
        return bad(p, "%s", msg);
    }
    p->given[j] = how;
    return o->id;
}

/* The value of o: attached (the rest of the word) or the next word. */
static int take_value(struct cli_parse *p, const struct cli_option *o, char how,
                      const char *attached)
{
    char w[64];
    if (attached) {
        p->value = attached;
    } else if (p->next < p->argc) {
        p->value = p->argv[p->next++];
    } else {
        written(o, how, w, sizeof w);
        return bad(p, "option %s needs a value", w);
    }
    return take(p, o, how);
}

static int next_long(struct cli_parse *p, const char *word)
{
    size_t len = strcspn(word, "=");
    const struct cli_option *o = find_long(p, word + 2, len - 2);
    if (!o)
        return unknown_long(p, word, len);
    p->value = NULL;
    if (o->arg == CLI_VALUE)
        return take_value(p, o, 'l', word[len] == '=' ? word + len + 1 : NULL);
    if (word[len] == '=')
        return bad(p, "option --%s takes no value", o->name);
    return take(p, o, 'l');
}

/* The next letter of a cluster "-abc" (p->cluster points at it). */
static int next_short(struct cli_parse *p)
{
    char c = *p->cluster++, w[3] = {'-', c, '\0'};
    const struct cli_option *o = find_short(p, c);
    if (!o) {
        p->cluster = NULL;
        return bad(p, "unknown option %s", w);
    }
    p->value = NULL;
    if (o->arg == CLI_VALUE) {
        const char *attached = *p->cluster ? p->cluster : NULL;
        p->cluster = NULL;
        return take_value(p, o, 's', attached);
    }
    if (!*p->cluster)
        p->cluster = NULL;
    return take(p, o, 's');
}

/* An option word: "--x", or "-x" not followed by a digit; "-" is not one. */
static int is_option(const char *w)
{
    return w[0] == '-' && w[1] && !(w[1] >= '0' && w[1] <= '9');
}

int cli_parse_next(struct cli_parse *p)
{
    if (p->cluster)
        return next_short(p);
    while (p->next < p->argc) {
        char *w = p->argv[p->next++];
        if (p->ended || !is_option(w)) {
            p->args[p->nargs++] = w; /* never past the words already read */
            continue;
        }
        if (strcmp(w, "--") == 0) {
            p->ended = 1;
            continue;
        }
        if (w[1] == '-')
            return next_long(p, w);
        p->value = NULL;
        p->cluster = w + 1;
        return next_short(p);
    }
    return CLI_END;
}

int cli_parse_options(struct cli_parse *p, const char *help, cli_take_fn take, void *ctx)
{
    for (int c; (c = cli_parse_next(p)) != CLI_END;) {
        if (c == CLI_ERROR)
            return EXIT_USAGE;
        if (c == 'h' && help)
            return cli_help(help);
        if (take(c, p->value, ctx))
            return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cli_parse_given(const struct cli_parse *p, int id)
{
    for (const struct cli_option *o = p->opts; o->name; o++)
        if (o->id == id && p->given[o - p->opts])
            return 1;
    return 0;
}

int cli_subcommand(const char *cmd, const char *word, const char *allowed)
{
    size_t n = strlen(word);
    for (const char *a = allowed; *a; a += strspn(a, ", ")) {
        size_t k = strcspn(a, ",");
        if (k == n && !strncmp(a, word, n))
            return EXIT_OK;
        a += k;
    }
    return cli_fail(EXIT_USAGE, "unknown %s subcommand '%s' (allowed: %s)", cmd, word,
                    allowed);
}

int cli_parse_unused(const struct cli_parse *p, unsigned active, const char *now)
{
    for (const struct cli_option *o = p->opts; o->name; o++) {
        char w[64];
        char how = p->given[o - p->opts];
        if (!how || !o->uses || (o->uses & active))
            continue;
        written(o, how, w, sizeof w);
        return cli_fail(EXIT_USAGE, "option %s is used only with %s%s%s (see slide %s "
                        "--help)", w, o->used_with, now ? ", not with " : "", now ? now : "",
                        p->cmd);
    }
    return EXIT_OK;
}

/* ---- the getopt_long error reporter, for commands not yet converted ---- */

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

void cli_resume_fill(const struct checkpoint_info *info, int sized, int kind_given,
                     int *rows, int *cols, enum space_kind *kind, const char **goal,
                     char *buf, size_t len)
{
    if (!sized) {
        *rows = info->rows;
        *cols = info->cols;
    }
    if (!kind_given)
        *kind = info->kind;
    if (!*goal && info->rows == *rows && info->cols == *cols) {
        snprintf(buf, len, "%s", info->goal);
        *goal = buf;
    }
}
