/*
 * cmd_parity.c - `slide parity RxC`: the parity criterion checked against a
 * BFS on every arrangement of the board.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/provenance.h"
#include "slide/report.h"
#include "slide/theorem.h"

static const char help[] =
    "usage: slide parity RxC [--goal G] [--threads N] [--format text|csv|md|tex]\n"
    "                    [--provenance] [--max-memory BYTES] [--metric stm|mtm]\n"
    "Examples:\n"
    "  slide parity 3x3                # all 9! arrangements against the criterion\n"
    "  slide parity 2x4 --format md    # the same check as a Markdown table\n"
    "Check the parity theorem exhaustively: a BFS from the goal over all (RC)!\n"
    "arrangements of the board (full space, 2 bits each) says which ones can\n"
    "reach the goal; the solvability criterion (the one `slide solvable` uses:\n"
    "inversions of the tiles in goal order, plus for an even width the rows\n"
    "between the blank and the goal's blank, must be even) is evaluated on every\n"
    "arrangement on its own, and the two are compared.  Boards with (RC)! <= 12!\n"
    "(at most 12 cells: 2x2 .. 3x4, 4x3, 2x6, 6x2), and paths 1xN and Nx1 for\n"
    "N <= 10 (only N of their N! arrangements are reachable, so checking all\n"
    "N! is refused beyond 10! = 3628800).\n"
    "On a 1-row or 1-column board the theorem's hypothesis R, C >= 2 fails: the\n"
    "board is a path, tiles never pass each other, only n arrangements are\n"
    "reachable, and the criterion is the path rule \"tiles in goal order\".\n"
    "  --goal G        goal board (default 1..n-1 in reading order, blank last)\n"
    "  --threads N     OpenMP threads (default: all cores); results do not depend on N\n"
    "  --format F      text (default), csv, md or tex\n"
    "  --provenance    start the output with the provenance block (lines \"# \",\n"
    "                  \"> \" for md, \"% \" for tex: version, commit, compiler,\n"
    "                  host, threads, date, wall time)\n"
    "  --max-memory B  refuse if the store needs more than B bytes (K/M/G suffixes)\n"
    "  --metric mtm    the BFS in the multi-tile metric (the blank jumps along its\n"
    "                  row or column), and beside it in the single-tile one: the\n"
    "                  criterion is checked against MTM reachability, and a line\n"
    "                  'metrics disagree: N' counts the arrangements one metric\n"
    "                  reaches and the other does not (exit 1 unless 0).  Twice\n"
    "                  the memory.  Default stm\n"
    "Output (text): the board and goal; 'arrangements', 'reachable' (by the\n"
    "BFS), 'criterion true', 'agree', 'disagree', one line each; up to 10\n"
    "disagreeing boards (smallest full-space index first) with which side said\n"
    "what; a 'verdict:' line (\"the criterion matches reachability on all 362880\n"
    "arrangements of 3x3\"); a line with wall times and threads.\n"
    "With --format csv stdout holds exactly the header\n"
    "'board,arrangements,reachable,criterion,agree,disagree' and one record\n"
    "(board as RxC); the verdict and any disagreeing boards go to stderr.  md and\n"
    "tex print the same one-row table.\n"
    "Exit status: 0 the criterion agrees everywhere, 1 it disagrees somewhere (or\n"
    "out of memory), 2 bad arguments or a board with more than 12 cells (a\n"
    "path: 10).\n";

struct parity_args {
    int rows, cols;
    const char *goal_text;
    int threads;
    enum report_format format;
    int provenance;
    uint64_t max_memory;
    enum metric metric;   /* --metric */
};

static const struct cli_option parity_options[] = {
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"provenance", 0, CLI_FLAG, 'p', 0, NULL, NULL},
    {"max-memory", 'm', CLI_VALUE, 'm', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'M', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int parse_args(int argc, char **argv, struct parity_args *a)
{
    struct cli_parse p;
    slide_error err;
    memset(a, 0, sizeof *a);
    cli_parse_init(&p, "parity", parity_options, argc, argv);
    for (int c; (c = cli_parse_next(&p)) != CLI_END;) {
        switch (c) {
        case CLI_ERROR: return EXIT_USAGE;
        case 'g': a->goal_text = p.value; break;
        case 't':
            if (cli_threads(p.value, &a->threads))
                return EXIT_USAGE;
            break;
        case 'f':
            if (cli_format(p.value, &a->format))
                return EXIT_USAGE;
            break;
        case 'p': a->provenance = 1; break;
        case 'm':
            if (cli_max_memory(p.value, &a->max_memory))
                return EXIT_USAGE;
            break;
        case 'M':
            if (cli_metric(p.value, &a->metric))
                return EXIT_USAGE;
            break;
        case 'h': return cli_help(help);
        }
    }
    if (p.nargs != 1)
        return cli_fail(EXIT_USAGE, "slide parity takes one board size such as 3x3 (see --help)");
    if (board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    return EXIT_OK;
}

static void print_table(const struct parity_args *a, const struct theorem_result *r)
{
    static const char *const hdr[] = {"board", "arrangements", "reachable",
                                      "criterion", "agree", "disagree"};
    char c[6][24], caption[96];
    snprintf(caption, sizeof caption,
             "The parity criterion against reachability on every arrangement of %dx%d",
             a->rows, a->cols);
    snprintf(c[0], sizeof c[0], "%dx%d", a->rows, a->cols);
    snprintf(c[1], sizeof c[1], "%" PRIu64, r->arrangements);
    snprintf(c[2], sizeof c[2], "%" PRIu64, r->reachable);
    snprintf(c[3], sizeof c[3], "%" PRIu64, r->criterion);
    snprintf(c[4], sizeof c[4], "%" PRIu64, r->agree);
    snprintf(c[5], sizeof c[5], "%" PRIu64, r->disagree);
    const char *const row[] = {c[0], c[1], c[2], c[3], c[4], c[5]};
    struct report_table t = {stdout, a->format, 6, hdr, caption, 12};
    report_begin(&t);
    report_row(&t, row);
    report_end(&t);
}

static void print_examples(FILE *out, const char *pre, const struct theorem_result *r)
{
    if (r->nexamples == 0)
        return;
    fprintf(out, "%sdisagreeing arrangements (smallest index first, up to %d):\n", pre,
            THEOREM_KEEP);
    for (int k = 0; k < r->nexamples; k++) {
        struct board b = {r->rows, r->cols, (int *)r->example_cells[k]};
        char line[128];
        board_format(&b, line, sizeof line);
        fprintf(out, "%s  %s: %s\n", pre, line,
                r->example_reachable[k] ? "reachable, the criterion says unsolvable"
                                        : "unreachable, the criterion says solvable");
    }
}

static void print_verdict(FILE *out, const char *pre, const struct theorem_result *r)
{
    const char *what = r->path_graph ? "the path-graph criterion (tiles in goal order)"
                                     : "the criterion";
    if (r->disagree == 0)
        fprintf(out, "%sverdict: %s matches reachability on all %" PRIu64
                " arrangements of %dx%d\n", pre, what, r->arrangements, r->rows, r->cols);
    else
        fprintf(out, "%sverdict: %s FAILS: it disagrees with reachability on %" PRIu64
                " of the %" PRIu64 " arrangements of %dx%d\n", pre, what, r->disagree,
                r->arrangements, r->rows, r->cols);
    if (r->metric == METRIC_MTM && r->metric_disagree == 0)
        fprintf(out, "%sverdict: the multi-tile metric reaches the same %" PRIu64
                " arrangements as the single-tile one\n", pre, r->reachable);
    else if (r->metric == METRIC_MTM)
        fprintf(out, "%sverdict: the metrics FAIL to agree: %" PRIu64 " arrangements are "
                "reachable in one and not the other\n", pre, r->metric_disagree);
}

static void print_text(const struct board *goal, const struct theorem_result *r)
{
    char gtext[128];
    board_format(goal, gtext, sizeof gtext);
    uint64_t expect = r->path_graph ? (uint64_t)(r->rows * r->cols) : r->arrangements / 2;
    printf("board %dx%d, goal %s: all %" PRIu64 " arrangement%s (full space)\n", r->rows,
           r->cols, gtext, r->arrangements, r->arrangements == 1 ? "" : "s");
    if (r->path_graph)
        printf("note: a %dx%d board is a path, so the theorem's hypothesis R, C >= 2 fails:\n"
               "note: tiles never pass each other, only n = %d arrangement%s can be "
               "reachable,\n"
               "note: and the criterion checked is parity.h's path rule, tiles in goal order\n",
               r->rows, r->cols, r->rows * r->cols, r->rows * r->cols == 1 ? "" : "s");
    printf("arrangements:   %" PRIu64 "\n", r->arrangements);
    printf("reachable:      %" PRIu64 " (by BFS from the goal; %s = %" PRIu64 ")\n",
           r->reachable, r->path_graph ? "n" : "(RC)!/2", expect);
    printf("criterion true: %" PRIu64 "\n", r->criterion);
    printf("agree:          %" PRIu64 "\n", r->agree);
    printf("disagree:       %" PRIu64 "\n", r->disagree);
    if (r->metric == METRIC_MTM)
        printf("metrics disagree: %" PRIu64 " (arrangements reachable in one of stm, mtm "
               "and not the other)\n", r->metric_disagree);
    print_examples(stdout, "", r);
    print_verdict(stdout, "", r);
    printf("wall: bfs %.3f s, check %.3f s; threads %d, peak memory %.1f MB\n",
           r->bfs_seconds, r->check_seconds, r->threads, provenance_peak_rss() / 1e6);
}

int cmd_parity(int argc, char **argv)
{
    struct parity_args a;
    struct theorem_result r;
    slide_error err;
    char cmd[512];
    cli_command_line("parity", argc, argv, cmd, sizeof cmd); /* before the option layer permutes argv */
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board goal = {0};
    if ((rc = cli_goal(a.goal_text, a.rows, a.cols, &goal)))
        return rc;
    rc = theorem_parity_metric(&goal, a.metric, theorem_criterion_parity, NULL, a.threads,
                               a.max_memory, &r, &err);
    if (rc) {
        board_free(&goal);
        return cli_fail_lib(rc, &err);
    }
    if (a.provenance) {
        provenance_write(stdout, cli_provenance_prefix(a.format), cmd, r.threads, r.bfs_seconds + r.check_seconds);
    }
    if (a.format == REPORT_TEXT) {
        print_text(&goal, &r);
    } else {
        print_table(&a, &r);
        fflush(stdout); /* the table before the diagnostics on a shared terminal */
        print_examples(stderr, "slide: ", &r);
        print_verdict(stderr, "slide: ", &r);
    }
    board_free(&goal);
    rc = cli_finish_stdout();
    if (!rc && (r.disagree || r.metric_disagree))
        rc = EXIT_FAIL;
    return rc;
}
