/*
 * cmd_heuristic.c - `slide heuristic RxC --h LIST`: every heuristic of the
 * list against the exact distance of every reachable board (sweep.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/atomic_file.h"
#include "slide/heuristic.h"
#include "slide/metric.h"
#include "slide/provenance.h"
#include "slide/report.h"
#include "slide/sweep.h"

static const char help_usage[] =
    "usage: slide heuristic RxC --h LIST [--goal G] [--joint FILE.csv]\n"
    "                       [--threads N] [--format text|csv|md|tex] [--provenance]\n"
    "                       [--progress] [--max-memory BYTES] [--summary FILE]\n"
    "Examples:\n"
    "  slide heuristic 3x3 --h manhattan,lc,wd      # admissible? consistent? tight?\n"
    "  slide heuristic 3x4 --h lc --joint lc.csv    # and the (d, h) table\n"
    "Compare heuristics with the exact distance d of every board that reaches\n"
    "the goal (R*C <= 20 cells; a two-bit BFS gives d layer by layer).\n"
    "  --h LIST           comma-separated heuristics (also --heuristic):\n";

static const char help_options[] =
    "  --goal G           goal board (default 1..n-1 in reading order, blank last)\n"
    "  --joint FILE.csv   write the joint table: header 'distance,h,count', one\n"
    "                     row per (distance, h) pair that occurs, by distance then\n"
    "                     h.  With several heuristics, one file each, named FILE\n"
    "                     with '-NAME' inserted before '.csv' (appended if FILE\n"
    "                     does not end in .csv): --joint j.csv --h lc,wd writes\n"
    "                     j-lc.csv and j-wd.csv, each checked before the sweep and\n"
    "                     written to a temporary beside it, renamed when complete;\n"
    "                     an existing file must be a joint table (or empty).\n"
    "  --threads N        OpenMP threads (default: all cores); results do not\n"
    "                     depend on N\n"
    "  --format F         text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --provenance       start the output (and every --joint file) with the\n"
    "                     provenance block: lines starting '# ' ('% ' for tex,\n"
    "                     '> ' for md) naming version, commit, command, compiler,\n"
    "                     host, threads, date and wall time\n"
    "  --summary FILE     FILE.csv or FILE.json, as slide bfs (the board's\n"
    "                     figures) with, per heuristic, heuristic, admissible,\n"
    "                     consistent, violations, max_excess, mean_h,\n"
    "                     exact_fraction (CSV: one record each; JSON: a list\n"
    "                     \"heuristics\")\n"
    "  --progress         one line per layer on stderr (default on a terminal);\n"
    "  --no-progress      never\n"
    "  --max-memory B     refuse if the BFS store needs more than B bytes\n"
    "  --metric M         stm (default) or mtm: the multi-tile metric (a move\n"
    "                     jumps the blank along its row or column; see slide\n"
    "                     solve --help).  In mtm wd is the multi-tile walking\n"
    "                     distance, and misplaced, manhattan, lc and lc-pairs\n"
    "                     are accepted to show where they fail (their mtm claim\n"
    "                     is: not admissible); d is the multi-tile distance\n"
    "                     (the BFS of slide bfs --metric mtm), and an edge one\n"
    "                     multi-tile move\n"
    "Measures, per heuristic h (d = exact distance; an edge is one move):\n"
    "  boards             boards compared (the reachable ones)\n"
    "  admissible         yes if h <= d on every board\n"
    "  violations         boards with h > d (up to 10 listed, smallest index first)\n"
    "  max_excess         the largest h - d (0 for an admissible h)\n"
    "  consistent         yes if |h(s) - h(s')| <= 1 on every edge\n"
    "  consistency_violations  edges with |h(s) - h(s')| > 1 (up to 10 listed)\n"
    "  mean_h, mean_d     means over the boards; mean_ratio: mean of h/d over the\n"
    "                     boards with d > 0; exact_fraction: share with h = d\n"
    "  parity_ok          yes if d - h is even on every board\n"
    "Output: text gives a line naming the board, then a table with one row per\n"
    "measure (also the edges checked, the largest |h(s) - h(s')| and what the\n"
    "heuristic's reference claims) and one column per heuristic, then the listed\n"
    "boards as 'NAME: h H > d D: BOARD' and 'NAME: h H, after move M h H2: BOARD'.\n"
    "With --format csv stdout holds exactly the header\n"
    "  heuristic,boards,admissible,violations,max_excess,consistent,\n"
    "  consistency_violations,mean_h,mean_d,mean_ratio,exact_fraction,parity_ok,\n"
    "  max_step\n"
    "(one line; max_step is the largest |h(s) - h(s')| over the edges, 1 for a\n"
    "consistent heuristic that changes on every move) and one record per heuristic, means with 6 decimals, yes/no for\n"
    "the verdicts; the rest goes to stderr.  md and tex print that table, then\n"
    "the rest as list items or % comments.\n"
    "Exit status: 0 done, 1 a heuristic breaks a property its reference claims,\n"
    "out of memory or a file could not be written, 2 bad arguments.\n";

struct heur_args {
    int rows, cols;
    const char *goal_text;
    const char *list;
    const char *joint;
    int threads;
    enum report_format format;
    int provenance;
    int progress;          /* -1 auto */
    uint64_t max_memory;
    const char *summary;   /* --summary FILE, or NULL */
    int metric;         /* --metric: enum metric */
};

static int print_help(void)
{
    int n;
    const struct heuristic_def *t = heuristic_table(&n);
    char list[2048];
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "                       %-10s %s\n",
                                 t[i].name, t[i].summary);
    fputs(help_usage, stdout);
    fputs(list, stdout);
    fputs("                       pdb:FILE+FILE  the sum of pattern databases (slide pdb\n"
          "                                  build); pdbr:FILE+FILE also the mirrored\n"
          "                                  lookup; named by the files' base names\n"
          "                       plugin:FILE.so one's own heuristic, a shared object\n"
          "                                  (docs/libslide.md); its claims are checked\n", stdout);
    return cli_help(help_options);
}

static const struct cli_option heuristic_options[] = {
    {"h", 0, CLI_VALUE, 'H', 0, NULL, NULL},
    {"heuristic", 0, CLI_VALUE, 'H', 0, NULL, "h"},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"joint", 'j', CLI_VALUE, 'j', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"provenance", 0, CLI_FLAG, 'P', 0, NULL, NULL},
    {"progress", 0, CLI_FLAG, 'p', 0, NULL, NULL},
    {"no-progress", 0, CLI_FLAG, 'q', 0, NULL, "progress"},
    {"max-memory", 'm', CLI_VALUE, 'm', 0, NULL, NULL},
    {"summary", 0, CLI_VALUE, 'Y', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'e', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int parse_args(int argc, char **argv, struct heur_args *a)
{
    struct cli_parse p;
    slide_error err;
    memset(a, 0, sizeof *a);
    a->progress = -1;
    cli_parse_init(&p, "heuristic", heuristic_options, argc, argv);
    for (int c; (c = cli_parse_next(&p)) != CLI_END;) {
        switch (c) {
        case CLI_ERROR: return EXIT_USAGE;
        case 'H': a->list = p.value; break;
        case 'g': a->goal_text = p.value; break;
        case 'j': a->joint = p.value; break;
        case 't':
            if (cli_threads(p.value, &a->threads))
                return EXIT_USAGE;
            break;
        case 'f':
            if (cli_format(p.value, &a->format))
                return EXIT_USAGE;
            break;
        case 'P': a->provenance = 1; break;
        case 'p': a->progress = 1; break;
        case 'q': a->progress = 0; break;
        case 'm':
            if (cli_max_memory(p.value, &a->max_memory))
                return EXIT_USAGE;
            break;
        case 'Y': a->summary = p.value; break;
        case 'e':
            if ((a->metric = metric_parse(p.value)) < 0)
                return cli_fail(EXIT_USAGE, "--metric must be stm or mtm, not \"%s\"",
                                p.value);
            break;
        case 'h': return print_help();
        }
    }
    if (p.nargs != 1)
        return cli_fail(EXIT_USAGE, "slide heuristic takes one board size such as 3x3 (see --help)");
    if (board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    if (!a->list)
        return cli_fail(EXIT_USAGE, "name the heuristics with --h, e.g. --h manhattan,lc "
                                    "(see --help)");
    return EXIT_OK;
}

/* Set up every heuristic of the comma-separated list; returns how many. */
static int open_heuristics(const char *list, const struct board *goal, enum metric metric,
                           struct heuristic *hs, int *count)
{
    char buf[512];
    slide_error err;
    if (strlen(list) >= sizeof buf)
        return cli_fail(EXIT_USAGE, "--h: the list is too long");
    strcpy(buf, list);
    *count = 0;
    for (char *save = NULL, *name = strtok_r(buf, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        for (int i = 0; i < *count; i++)
            if (strcmp(hs[i].def->name, name) == 0)
                return cli_fail(EXIT_USAGE, "--h names %s twice", name);
        if (*count == SWEEP_MAX_HEURISTICS)
            return cli_fail(EXIT_USAGE, "--h takes at most %d heuristics", SWEEP_MAX_HEURISTICS);
        int rc = heuristic_init_metric(&hs[*count], name, goal, metric, &err);
        if (rc)
            return cli_fail_lib(rc, &err);
        (*count)++;
    }
    if (*count == 0)
        return cli_fail(EXIT_USAGE, "--h: no heuristic named (see --help)");
    return EXIT_OK;
}

static int print_layer(const struct bfs_layer *L, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "slide: distance %d: %" PRIu64 " boards swept, %" PRIu64
            " in all, %.2f s\n", L->depth, L->count, L->cumulative, L->elapsed);
    return 0;
}

/* ---- the table ------------------------------------------------------------ */

static const char *yes_no(int v) { return v ? "yes" : "no"; }

static const char *claim_text(enum heuristic_claim c)
{
    return c == HEURISTIC_YES ? "yes" : c == HEURISTIC_NO ? "no" : "-";
}

/* The CSV fields of one heuristic, in the documented order. */
#define NFIELDS 13
static const char *const csv_header[NFIELDS] = {
    "heuristic", "boards", "admissible", "violations", "max_excess", "consistent",
    "consistency_violations", "mean_h", "mean_d", "mean_ratio", "exact_fraction",
    "parity_ok", "max_step"};

static void stats_fields(const struct sweep_stats *s, char f[NFIELDS][32])
{
    snprintf(f[0], 32, "%s", s->def->name);
    snprintf(f[1], 32, "%" PRIu64, s->boards);
    snprintf(f[2], 32, "%s", yes_no(s->admissible));
    snprintf(f[3], 32, "%" PRIu64, s->violations);
    snprintf(f[4], 32, "%d", s->max_excess);
    snprintf(f[5], 32, "%s", yes_no(s->consistent));
    snprintf(f[6], 32, "%" PRIu64, s->edge_violations);
    snprintf(f[7], 32, "%.6f", s->mean_h);
    snprintf(f[8], 32, "%.6f", s->mean_d);
    snprintf(f[9], 32, "%.6f", s->mean_ratio);
    snprintf(f[10], 32, "%.6f", s->exact_fraction);
    snprintf(f[11], 32, "%s", yes_no(s->parity_ok));
    snprintf(f[12], 32, "%d", s->max_step);
}

static void print_records(const struct heur_args *a, const struct sweep_result *r)
{
    char caption[128];
    snprintf(caption, sizeof caption, "Heuristics against exact distances, %dx%d puzzle",
             a->rows, a->cols);
    struct report_table t = {stdout, a->format, NFIELDS, csv_header, caption, 12};
    report_begin(&t);
    for (int i = 0; i < r->count; i++) {
        char f[NFIELDS][32];
        const char *row[NFIELDS];
        stats_fields(&r->stats[i], f);
        for (int k = 0; k < NFIELDS; k++)
            row[k] = f[k];
        report_row(&t, row);
    }
    report_end(&t);
}

/* Text: one row per measure, one column per heuristic. */
#define NMEASURES 16
static void print_transposed(const struct sweep_result *r)
{
    static const char *const label[NMEASURES] = {
        "boards", "admissible", "boards h > d", "max h - d", "consistent",
        "edges |dh| > 1", "edges checked", "max |dh|", "mean h", "mean d", "mean h/d",
        "h = d fraction", "d - h even", "claim admissible", "claim consistent", ""};
    const char *hdr[1 + SWEEP_MAX_HEURISTICS];
    char cell[SWEEP_MAX_HEURISTICS][NMEASURES][32];
    hdr[0] = "measure";
    for (int i = 0; i < r->count; i++) {
        const struct sweep_stats *s = &r->stats[i];
        char f[NFIELDS][32];
        stats_fields(s, f);
        hdr[1 + i] = s->def->name;
        static const int from_csv[] = {1, 2, 3, 4, 5, 6};
        for (int k = 0; k < 6; k++)
            strcpy(cell[i][k], f[from_csv[k]]);
        snprintf(cell[i][6], 32, "%" PRIu64, s->edges);
        snprintf(cell[i][7], 32, "%d", s->max_step);
        for (int k = 8; k <= 12; k++)
            strcpy(cell[i][k], f[k - 1]);
        strcpy(cell[i][13], claim_text(s->def->admissible));
        strcpy(cell[i][14], claim_text(s->def->consistent));
    }
    struct report_table t = {stdout, REPORT_TEXT, 1 + r->count, hdr, NULL, 16};
    report_begin(&t);
    for (int k = 0; k < NMEASURES - 1; k++) {
        const char *row[1 + SWEEP_MAX_HEURISTICS];
        row[0] = label[k];
        for (int i = 0; i < r->count; i++)
            row[1 + i] = cell[i][k];
        report_row(&t, row);
    }
    report_end(&t);
}

static void format_cells(const uint8_t *cells, int rows, int cols, char *buf, size_t len)
{
    int v[SPACE_MAX_CELLS];
    for (int k = 0; k < rows * cols; k++)
        v[k] = cells[k];
    struct board b = {rows, cols, v};
    board_format(&b, buf, len);
}

static void print_examples(FILE *out, const char *pre, const struct sweep_result *r)
{
    char line[128];
    for (int i = 0; i < r->count; i++) {
        const struct sweep_stats *s = &r->stats[i];
        for (int k = 0; k < s->nexamples; k++) {
            format_cells(s->examples[k].cells, r->rows, r->cols, line, sizeof line);
            fprintf(out, "%s%s: h %d > d %d: %s\n", pre, s->def->name, s->examples[k].h,
                    s->examples[k].d, line);
        }
        for (int k = 0; k < s->nedge_examples; k++) {
            const struct sweep_edge *e = &s->edge_examples[k];
            format_cells(e->cells, r->rows, r->cols, line, sizeof line);
            char mv[MOVE_MAX_CELLS + 1];
            unsigned char code = (unsigned char)e->move;
            move_format_codes(&code, 1, METRIC_MTM, mv, sizeof mv);
            fprintf(out, "%s%s: h %d, after move %s h %d: %s\n", pre, s->def->name, e->h,
                    mv, e->h_next, line);
        }
    }
}

/* ---- joint files ---------------------------------------------------------- */

/* FILE, or FILE with "-NAME" before its ".csv" when several are written. */
static void joint_path(const char *file, const char *name, int several, char *buf,
                       size_t len)
{
    size_t n = strlen(file);
    if (!several)
        snprintf(buf, len, "%s", file);
    else if (n >= 4 && strcmp(file + n - 4, ".csv") == 0)
        snprintf(buf, len, "%.*s-%s.csv", (int)(n - 4), file, name);
    else
        snprintf(buf, len, "%s-%s", file, name);
}

static int write_joint_rows(FILE *f, const struct sweep_stats *s)
{
    if (fprintf(f, "distance,h,count\n") < 0)
        return -1;
    for (int d = 0; d < s->layers; d++)
        for (int h = 0; h < s->joint_len[d]; h++)
            if (s->joint[d][h] &&
                fprintf(f, "%d,%d,%" PRIu64 "\n", d, h, s->joint[d][h]) < 0)
                return -1;
    return 0;
}

/* A joint table, recognised by its header line (write_joint_rows). */
static const struct atomic_file_kind joint_kind = {"a slide joint table", NULL,
                                                   "distance,h,count\n"};

static int write_joint(const char *path, const struct sweep_stats *s,
                       const char *command, const struct sweep_result *r, int prov)
{
    struct atomic_file f;
    slide_error err;
    if (atomic_file_open(&f, path, &joint_kind, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    if (prov)
        provenance_write(f.stream, "# ", command, r->threads, r->seconds);
    if (write_joint_rows(f.stream, s) || ferror(f.stream)) {
        int e = errno;
        atomic_file_abort(&f);
        return cli_fail(EXIT_FAIL, "writing %s failed: %s", path, strerror(e));
    }
    return atomic_file_commit(&f, &err) ? cli_fail_lib(SLIDE_EIO, &err) : EXIT_OK;
}

/* Every joint file's name checked before the sweep: a bad one fails now. */
static int check_joints(const struct heur_args *a, const struct heuristic *hs, int count)
{
    slide_error err;
    for (int i = 0; a->joint && i < count; i++) {
        char path[4096];
        joint_path(a->joint, hs[i].def->name, count > 1, path, sizeof path);
        if (atomic_file_check(path, &joint_kind, &err))
            return cli_fail_lib(SLIDE_EIO, &err);
    }
    return EXIT_OK;
}

static int write_joints(const struct heur_args *a, const struct sweep_result *r,
                        const char *command)
{
    for (int i = 0; i < r->count; i++) {
        char path[4096];
        joint_path(a->joint, r->stats[i].def->name, r->count > 1, path, sizeof path);
        int rc = write_joint(path, &r->stats[i], command, r, a->provenance);
        if (rc)
            return rc;
    }
    return EXIT_OK;
}

/* ---- report --------------------------------------------------------------- */

/* Exit 1 (after printing) when a measurement contradicts a claimed yes. */
static int check_claims(const struct sweep_result *r)
{
    int rc = EXIT_OK;
    for (int i = 0; i < r->count; i++) {
        const struct sweep_stats *s = &r->stats[i];
        if (s->def->admissible == HEURISTIC_YES && !s->admissible)
            rc = cli_fail(EXIT_FAIL, "heuristic %s is claimed admissible, but %" PRIu64
                          " boards have h > d", s->def->name, s->violations);
        if (s->def->consistent == HEURISTIC_YES && !s->consistent)
            rc = cli_fail(EXIT_FAIL, "heuristic %s is claimed consistent, but %" PRIu64
                          " edges have |h(s) - h(s')| > 1", s->def->name, s->edge_violations);
    }
    return rc;
}

static void print_report(const struct heur_args *a, const struct board *goal,
                         const struct sweep_result *r, const char *command)
{
    const char *pre = a->format == REPORT_TEX ? "% " : a->format == REPORT_MD ? "- " : "";
    FILE *info = a->format == REPORT_CSV ? stderr : stdout;
    char gtext[256];
    if (a->provenance)
        provenance_write(stdout, cli_provenance_prefix(a->format), command, r->threads,
                         r->seconds);
    board_format(goal, gtext, sizeof gtext);
    fprintf(info, "%sboard %dx%d, goal %s: %" PRIu64 " boards, radius %d\n", pre,
            a->rows, a->cols, gtext, r->boards, r->radius);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    if (a->format == REPORT_TEXT)
        print_transposed(r);
    else
        print_records(a, r);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    print_examples(info, pre, r);
    fprintf(info, "%swall %.3f s, threads %d, peak memory %.1f MB\n", pre, r->seconds,
            r->threads, provenance_peak_rss() / 1e6);
}

static int run(const struct heur_args *a, const struct board *goal, const char *command)
{
    struct heuristic hs[SWEEP_MAX_HEURISTICS];
    struct sweep_result r = {0};
    slide_error err;
    int count = 0;
    int rc = open_heuristics(a->list, goal, (enum metric)a->metric, hs, &count);
    if (!rc)
        rc = check_joints(a, hs, count);
    if (!rc && a->summary)
        rc = cli_summary_check(a->summary);
    if (!rc) {
        struct sweep_options o = {a->threads, a->max_memory,
                                  cli_progress_wanted(a->progress) ? print_layer : NULL, NULL,
                                  (enum metric)a->metric};
        int lrc = sweep_run(goal, hs, count, &o, &r, &err);
        rc = lrc ? cli_fail_lib(lrc, &err) : EXIT_OK;
    }
    if (!rc && a->joint)
        rc = write_joints(a, &r, command);
    if (!rc) {
        print_report(a, goal, &r, command);
        rc = cli_finish_stdout();
    }
    if (!rc && a->summary) {
        struct cli_summary sum = {"heuristic", goal, r.hist, r.radius, 1, command, r.stats,
                                  r.count, (enum metric)a->metric};
        rc = cli_summary_write(a->summary, &sum);
    }
    if (!rc)
        rc = check_claims(&r);
    sweep_result_free(&r);
    for (int i = 0; i < count; i++)
        heuristic_free(&hs[i]);
    return rc;
}

int cmd_heuristic(int argc, char **argv)
{
    struct heur_args a;
    char command[1024];
    cli_command_line("heuristic", argc, argv, command, sizeof command); /* before the options are read (argv is permuted) */
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board goal = {0};
    if ((rc = cli_goal(a.goal_text, a.rows, a.cols, &goal)))
        return rc;
    rc = run(&a, &goal, command);
    board_free(&goal);
    return rc;
}
