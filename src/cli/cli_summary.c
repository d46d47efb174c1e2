/*
 * cli_summary.c - `--summary FILE` of bfs, frontier and heuristic: the
 * figures a paper quotes, machine-readable, in CSV (FILE.csv) or JSON
 * (FILE.json, when slide was built with Jansson), written whole through
 * atomic_file.h.  Every figure is derived here from the histogram the
 * command printed, so the summary and the text output cannot disagree.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef SLIDE_HAVE_JANSSON
#include <jansson.h>
#endif

#include "cli.h"
#include "slide/atomic_file.h"
#include "slide/provenance.h"
#include "slide/sweep.h"

#define CSV_HEADER "summary,board,goal,metric,boards,radius,max_depth,complete,antipodes," \
                   "mean_distance,version,commit,command"
#define CSV_HEURISTIC ",heuristic,admissible,consistent,violations,max_excess,mean_h," \
                      "exact_fraction"

static const struct atomic_file_kind csv_kind = {"a slide summary", NULL, "summary,"};

/* A JSON summary starts with { "summary" (as cli_summary_write writes it,
 * white space between). */
static int json_is_ours(const unsigned char *head, size_t n)
{
    static const char key[] = "\"summary\"";
    size_t i = 0;
    while (i < n && strchr(" \t\r\n", head[i]))
        i++;
    if (i == n || head[i++] != '{')
        return 0;
    while (i < n && strchr(" \t\r\n", head[i]))
        i++;
    return n - i >= sizeof key - 1 && memcmp(head + i, key, sizeof key - 1) == 0;
}
static const struct atomic_file_kind json_kind = {"a slide summary", json_is_ours, NULL};

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The kind of path by its extension, or NULL after printing why not. */
static const struct atomic_file_kind *kind_of(const char *path)
{
    if (ends_with(path, ".csv"))
        return &csv_kind;
    if (!ends_with(path, ".json")) {
        cli_fail(EXIT_USAGE, "--summary %s: name the file FILE.csv or FILE.json (the format "
                             "follows the extension)", path);
        return NULL;
    }
#ifdef SLIDE_HAVE_JANSSON
    return &json_kind;
#else
    cli_fail(EXIT_USAGE, "--summary %s: this slide was built without Jansson, so it writes "
                         "CSV only: name the file FILE.csv (or install libjansson-dev and "
                         "rebuild)", path);
    return NULL;
#endif
}

int cli_summary_check(const char *path)
{
    slide_error err;
    const struct atomic_file_kind *k = kind_of(path);
    if (!k)
        return EXIT_USAGE;
    int rc = atomic_file_check(path, k, &err);
    return rc ? cli_fail_lib(rc, &err) : EXIT_OK;
}

/* The figures every summary holds, from the histogram. */
struct figures {
    char board[32], goal[1024];
    uint64_t boards, antipodes;
    double mean;
};

static void figures(const struct cli_summary *s, struct figures *f)
{
    long double sum = 0;
    snprintf(f->board, sizeof f->board, "%dx%d", s->goal->rows, s->goal->cols);
    board_format(s->goal, f->goal, sizeof f->goal);
    f->boards = 0;
    for (int d = 0; d <= s->last; d++) {
        f->boards += s->hist[d];
        sum += (long double)d * (long double)s->hist[d];
    }
    f->mean = f->boards ? (double)(sum / (long double)f->boards) : 0.0;
    f->antipodes = s->hist[s->last];
}

/* One CSV field, quoted when it holds a comma, a quote or a line end. */
static void csv_field(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* The common columns of one record. */
static void csv_common(FILE *out, const struct cli_summary *s, const struct figures *f)
{
    char num[64];
    csv_field(out, s->summary, 1);
    csv_field(out, f->board, 0);
    csv_field(out, f->goal, 0);
    csv_field(out, metric_name(s->metric), 0);
    fprintf(out, ",%" PRIu64 ",", f->boards);
    if (s->complete)
        fprintf(out, "%d", s->last);
    fprintf(out, ",%d,%s,", s->last, s->complete ? "yes" : "no");
    if (s->complete)
        fprintf(out, "%" PRIu64, f->antipodes);
    snprintf(num, sizeof num, "%.9f", f->mean);
    csv_field(out, num, 0);
    csv_field(out, provenance_version(), 0);
    csv_field(out, provenance_commit(), 0);
    csv_field(out, s->command, 0);
}

static void write_csv(FILE *out, const struct cli_summary *s, const struct figures *f)
{
    fprintf(out, "%s%s\n", CSV_HEADER, s->nstats ? CSV_HEURISTIC : "");
    for (int i = 0; i < (s->nstats ? s->nstats : 1); i++) {
        csv_common(out, s, f);
        if (s->nstats) {
            const struct sweep_stats *h = &s->stats[i];
            csv_field(out, h->def->name, 0);
            fprintf(out, ",%s,%s,%" PRIu64 ",%d,%.9f,%.9f", h->admissible ? "yes" : "no",
                    h->consistent ? "yes" : "no", h->violations, h->max_excess, h->mean_h,
                    h->exact_fraction);
        }
        fputc('\n', out);
    }
}

#ifdef SLIDE_HAVE_JANSSON
static json_t *json_summary(const struct cli_summary *s, const struct figures *f)
{
    json_t *o = json_object(), *prov = json_object();
    json_object_set_new(o, "summary", json_string(s->summary));
    json_object_set_new(o, "board", json_string(f->board));
    json_object_set_new(o, "goal", json_string(f->goal));
    json_object_set_new(o, "metric", json_string(metric_name(s->metric)));
    json_object_set_new(o, "boards", json_integer((json_int_t)f->boards));
    json_object_set_new(o, "radius", s->complete ? json_integer(s->last) : json_null());
    json_object_set_new(o, "max_depth", json_integer(s->last));
    json_object_set_new(o, "complete", json_boolean(s->complete));
    json_object_set_new(o, "antipodes",
                        s->complete ? json_integer((json_int_t)f->antipodes) : json_null());
    json_object_set_new(o, "mean_distance", json_real(f->mean));
    json_object_set_new(prov, "version", json_string(provenance_version()));
    json_object_set_new(prov, "commit", json_string(provenance_commit()));
    json_object_set_new(prov, "command", json_string(s->command));
    json_object_set_new(o, "provenance", prov);
    if (s->nstats) {
        json_t *list = json_array();
        for (int i = 0; i < s->nstats; i++) {
            const struct sweep_stats *h = &s->stats[i];
            json_t *e = json_object();
            json_object_set_new(e, "heuristic", json_string(h->def->name));
            json_object_set_new(e, "admissible", json_boolean(h->admissible));
            json_object_set_new(e, "consistent", json_boolean(h->consistent));
            json_object_set_new(e, "violations", json_integer((json_int_t)h->violations));
            json_object_set_new(e, "max_excess", json_integer(h->max_excess));
            json_object_set_new(e, "mean_h", json_real(h->mean_h));
            json_object_set_new(e, "exact_fraction", json_real(h->exact_fraction));
            json_array_append_new(list, e);
        }
        json_object_set_new(o, "heuristics", list);
    }
    return o;
}
#endif

int cli_summary_write(const char *path, const struct cli_summary *s)
{
    struct atomic_file af;
    struct figures f;
    slide_error err;
    const struct atomic_file_kind *k = kind_of(path);
    if (!k)
        return EXIT_USAGE;
    figures(s, &f);
    if (atomic_file_open(&af, path, k, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    int bad = 0;
    if (k == &csv_kind) {
        write_csv(af.stream, s, &f);
    } else {
#ifdef SLIDE_HAVE_JANSSON
        json_t *o = json_summary(s, &f);
        bad = !o || json_dumpf(o, af.stream, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                                 JSON_REAL_PRECISION(12)) != 0;
        fputc('\n', af.stream);
        json_decref(o);
#endif
    }
    if (bad || ferror(af.stream)) {
        atomic_file_abort(&af);
        return cli_fail(EXIT_FAIL, "writing the summary %s failed", path);
    }
    return atomic_file_commit(&af, &err) ? cli_fail_lib(SLIDE_EIO, &err) : EXIT_OK;
}
