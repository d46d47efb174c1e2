/*
 * cmd_pdb_stats.c - `slide pdb stats` (the value distribution of a
 * heuristic over the solvable boards) and `slide pdb predict` (the IDA*
 * nodes it predicts by Korf, Reid and Edelkamp's formula).
 */
#include "cmd_pdb_stats.h"

#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/hdist.h"
#include "slide/kre.h"
#include "slide/parity.h"
#include "slide/provenance.h"

#define Z95 1.959963984540054  /* two-sided 95 % normal quantile */

struct loaded {
    struct board goal;
    struct heuristic h;
    struct hdist d;
    double seconds;
};

static void unload(struct loaded *l)
{
    hdist_free(&l->d);
    heuristic_free(&l->h);
    board_free(&l->goal);
}

/* The lines that say what the figures are (after "# " in CSV). */
static void describe(const struct pdb_stats_args *a, const struct loaded *l, const char *p)
{
    char goal[512];
    board_format(&l->goal, goal, sizeof goal);
    printf("%sheuristic %s on %s, goal %s\n", p, a->heur, a->dims, goal);
    if (l->d.exact)
        printf("%sexact: all %llu solvable boards, by the Manhattan programme\n", p,
               (unsigned long long)l->d.total);
    else
        printf("%s%llu boards drawn uniformly from the solvable boards (seed %llu); 95 %% "
               "intervals: Wilson score for a probability, mean +- 1.96 s / sqrt(N) for the "
               "mean\n", p, (unsigned long long)l->d.total, (unsigned long long)a->seed);
}

/*
 * The goal, the heuristic and its distribution (sampled, or exact); nothing
 * is printed but an error.
 */
static int load(const struct pdb_stats_args *a, struct loaded *l)
{
    int rows, cols;
    slide_error err;
    memset(l, 0, sizeof *l);
    if (board_parse_dims(a->dims, &rows, &cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    if (!a->heur)
        return cli_fail(EXIT_USAGE, "name the heuristic with --h (manhattan, lc, pdb:A+B, "
                                    "pdbr:A+B ...; see slide heuristic --help)");
    if (a->exact && strcmp(a->heur, "manhattan"))
        return cli_fail(EXIT_USAGE, "--exact is for --h manhattan only; other heuristics "
                                    "are sampled (--samples N)");
    if (cli_goal(a->goal, rows, cols, &l->goal))
        return EXIT_USAGE;
    int rc = heuristic_init(&l->h, a->heur, &l->goal, &err);
    double t0 = omp_get_wtime();
    if (!rc)
        rc = a->exact ? hdist_manhattan_exact(&l->goal, &l->d, &err)
                      : hdist_sample(&l->h, &l->goal, a->samples, a->seed, a->threads, &l->d,
                                     &err);
    l->seconds = omp_get_wtime() - t0;
    if (rc) {
        unload(l);
        return cli_fail_lib(rc, &err);
    }
    return EXIT_OK;
}

/* The provenance block if asked, then the lines describing the figures,
 * each after prefix. */
static void announce(const struct pdb_stats_args *a, const struct loaded *l,
                     const char *prefix)
{
    if (a->provenance)
        provenance_write(stdout, "# ", a->command, a->threads, l->seconds);
    describe(a, l, prefix);
}

int pdb_stats_run(const struct pdb_stats_args *a)
{
    struct loaded l;
    int rc = load(a, &l);
    if (rc)
        return rc;
    announce(a, &l, a->csv ? "# " : "");
    printf(a->csv ? "value,count,probability,low,high\n" : "value count probability low high\n");
    for (int v = 0; v <= l.d.max; v++) {
        uint64_t k = 0;
        for (int c = 0; c < l.d.n; c++)
            k += hdist_count(&l.d, c, v);
        struct hdist_estimate e = hdist_prob(&l.d, -1, v, Z95);
        printf(a->csv ? "%d,%llu,%.9g,%.9g,%.9g\n" : "%d %llu %.9g %.9g %.9g\n", v,
               (unsigned long long)k, e.value, e.low, e.high);
    }
    struct hdist_estimate m = hdist_mean(&l.d, -1, Z95);
    printf(a->csv ? "mean,,%.6f,%.6f,%.6f\n" : "mean: %.6f [%.6f, %.6f]\n", m.value, m.low,
           m.high);
    if (!strcmp(a->heur, "manhattan"))
        printf(a->csv ? "closed_form_mean,,%.6f,%.6f,%.6f\n"
                      : "closed-form mean (every tile uniform over the cells): %.6f\n",
               hdist_manhattan_mean(&l.goal), hdist_manhattan_mean(&l.goal),
               hdist_manhattan_mean(&l.goal));
    unload(&l);
    return cli_finish_stdout();
}

/* One board to predict: its text, length and (0: an argument) line. */
struct predict_item {
    const char *text;
    long length;
    int line;
};

/*
 * Check item: a board of the goal's size that reaches the goal, whose
 * length is at least its h and at most KRE_MAX_DEPTH; *b receives the
 * board (free it) and *h0 its h.  Errors are printed, "line N: " first for
 * a line of standard input; returns an exit status.
 */
static int predict_check(const struct loaded *l, const struct predict_item *it,
                         struct board *b, int *h0)
{
    slide_error err;
    char shown[512], at[32] = "";
    if (it->line)
        snprintf(at, sizeof at, "line %d: ", it->line);
    if (board_parse(it->text, l->goal.rows, l->goal.cols, b, &err))
        return cli_fail(EXIT_USAGE, "%s%s", at, err.msg);
    board_format(b, shown, sizeof shown);
    struct parity_report pr;
    if (parity_check(b, &l->goal, &pr, &err) || !pr.solvable) {
        cli_fail(EXIT_UNSOLVABLE, "%sboard %s cannot reach the goal (parity): it has no "
                 "IDA* search to predict", at, shown);
        cli_board_hint(b, &l->goal, 0, 0, CLI_HINT_FILES);
        board_free(b);
        return EXIT_UNSOLVABLE;
    }
    *h0 = heuristic_eval(&l->h, b->cells);
    if (it->length < *h0 || it->length > KRE_MAX_DEPTH) {
        board_free(b);
        return cli_fail(EXIT_USAGE, "%sboard %s: length %ld is below its h = %d or above "
                        "%d (give the optimal length)", at, shown, it->length, *h0,
                        KRE_MAX_DEPTH);
    }
    return EXIT_OK;
}

/* One board's prediction (checked by predict_check): every iteration, then
 * all of them. */
static int predict_board(const struct pdb_stats_args *a, const struct loaded *l,
                         const struct board *b, int h0, long length)
{
    struct kre_tree t;
    slide_error err;
    char shown[512];
    int rc = EXIT_OK;
    board_format(b, shown, sizeof shown);
    /* IDA*'s thresholds on a bipartite graph: h0 raised in steps of 2 to the length */
    int th[KRE_MAX_DEPTH + 1], count = 0;
    for (long d = length - 2 * ((length - h0) / 2); d <= length; d += 2)
        th[count++] = (int)d;
    if (kre_tree_build(l->goal.rows, l->goal.cols, board_blank(b), (int)length, &t, &err))
        return cli_fail_lib(SLIDE_ENOMEM, &err);
    for (int j = 0; j <= count && !rc; j++) {
        struct kre_prediction p;
        int one = j < count;
        if (kre_predict(&t, &l->d, one ? &th[j] : th, one ? 1 : count, &p, &err)) {
            rc = cli_fail_lib(SLIDE_EINVAL, &err);
            break;
        }
        char thr[16];
        snprintf(thr, sizeof thr, one ? "%d" : "all", th[j < count ? j : 0]);
        printf(a->csv ? "\"%s\",%ld,%d,%s,%.6g,%.3g,%.6g,%.3g\n"
                      : "%s: length %ld, h %d, threshold %s: expanded %.6g (se %.3g), "
                        "generated %.6g (se %.3g)\n",
               shown, length, h0, thr, p.expanded, p.expanded_se, p.generated,
               p.generated_se);
    }
    kre_tree_free(&t);
    return rc;
}

/* A "LENGTH BOARD" line of the input (cli_read_lines), kept unless it is
 * blank or a # comment. */
static int predict_take(char *line, size_t len, long number, void *ctx)
{
    const char *s = line + strspn(line, " \t\r");
    if (!*s || *s == '#')
        return EXIT_OK;
    return cli_lines_add(ctx, line, len, number);
}

/*
 * The "LENGTH BOARD" lines of "-" or "@FILE", read within the limits of
 * every board input (cli_read_lines: 16 MiB a line, 256 MiB in all, no
 * NUL byte), into *items (malloc'd; their texts point into lines) and *n.
 * The lengths are checked here, before anything is loaded: a number of
 * 0..KRE_MAX_DEPTH.  Input with no line of a board is refused.
 */
static int predict_lines(const char *arg, struct cli_lines *lines,
                         struct predict_item **items, int *n)
{
    int cap = 0;
    *items = NULL;
    *n = 0;
    int rc = cli_read_lines(arg, "the boards", predict_take, lines);
    if (rc)
        return rc;
    if (lines->count == 0)
        return cli_no_boards(arg);
    for (long i = 0; i < lines->count; i++) {
        char *s = lines->buf + lines->off[i], *end;
        long line = lines->number[i];
        s += strspn(s, " \t\r");
        errno = 0;
        long length = strtol(s, &end, 10);
        if (end == s || !isspace((unsigned char)*end))
            return cli_fail(EXIT_USAGE, "line %ld: expected \"LENGTH BOARD\" (the optimal "
                            "length, then the board), got \"%.40s\"", line, s);
        if (errno == ERANGE || length < 0 || length > KRE_MAX_DEPTH)
            return cli_fail(EXIT_USAGE, "line %ld: length %.*s is out of range: give the "
                            "optimal length, 0..%d", line, (int)(end - s < 40 ? end - s : 40),
                            s, KRE_MAX_DEPTH);
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            struct predict_item *p = realloc(*items, (size_t)cap * sizeof *p);
            if (!p)
                return cli_fail(EXIT_FAIL, "out of memory for %d boards", *n);
            *items = p;
        }
        (*items)[(*n)++] = (struct predict_item){end, length, (int)line};
    }
    return EXIT_OK;
}

/*
 * Every board is checked (its text, length, parity and h) before the
 * distribution's description or any prediction is printed, so a bad line
 * leaves no partial output.
 */
int pdb_predict_run(const struct pdb_stats_args *a)
{
    int batch = !strcmp(a->board, "-") || a->board[0] == '@';
    if (!batch && a->length < 0)
        return cli_fail(EXIT_USAGE, "pdb predict BOARD needs --length L, its optimal length "
                                    "(or give - or @FILE and lines \"LENGTH BOARD\")");
    struct predict_item one = {a->board, a->length, 0}, *items = &one;
    int n = 1, rc = EXIT_OK;
    struct cli_lines lines = {0};
    if (batch)
        rc = predict_lines(a->board, &lines, &items, &n);
    struct loaded l;
    struct board *boards = NULL;
    int *h0 = NULL, checked = 0;
    if (!rc && !(rc = load(a, &l))) {
        boards = calloc((size_t)n + 1, sizeof *boards);
        h0 = calloc((size_t)n + 1, sizeof *h0);
        if (!boards || !h0)
            rc = cli_fail(EXIT_FAIL, "out of memory for %d boards", n);
        for (; !rc && checked < n; checked++)
            if ((rc = predict_check(&l, &items[checked], &boards[checked], &h0[checked])))
                break;
        if (!rc) {
            announce(a, &l, "# ");
            printf("%s", a->csv ? "board,length,h,threshold,expanded,expanded_se,generated,"
                                  "generated_se\n" : "");
        }
        for (int i = 0; !rc && i < n; i++)
            rc = predict_board(a, &l, &boards[i], h0[i], items[i].length);
        for (int i = 0; i < checked; i++)
            board_free(&boards[i]);
        unload(&l);
    }
    free(boards);
    free(h0);
    if (items != &one)
        free(items);
    cli_lines_free(&lines);
    return rc ? rc : cli_finish_stdout();
}
