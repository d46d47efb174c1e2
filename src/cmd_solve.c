/*
 * cmd_solve.c - `slide solve BOARD`: an optimal solution of one board (or
 * of every board on standard input), by a method chosen from a table.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/ida.h"
#include "slide/parity.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide solve [--method M] [--h NAME] [--goal G] [--size RxC]\n"
    "                   [--format text|csv|md|tex] [--max-nodes N] [--progress] BOARD\n"
    "Find a shortest sequence of moves from BOARD to the goal.\n"
    "BOARD: rows separated by / or newlines, cells by spaces or commas, the\n"
    "blank 0, _ or . (\"8 6 7/2 5 4/3 0 1\"); any size up to 1000x1000.\n"
    "BOARD - reads standard input: one board per line when the boards are\n"
    "written one per line (rows separated by /, as `slide scramble` prints\n"
    "them, or flat lists of R*C cells with --size), each solved in turn; blank\n"
    "lines and lines starting with # are skipped.  Otherwise the whole input\n"
    "is one board (rows on separate lines).\n"
    "  --method M     ida (default): IDA* (Korf 1985), memory O(moves)\n"
    "  --h NAME       IDA*'s heuristic: lc (default; Manhattan + linear\n"
    "                 conflicts, 2*(k-LIS) per row and column), manhattan,\n"
    "                 misplaced.  All are admissible, so lengths are optimal.\n"
    "  --goal G       the goal board (default 1..n-1 in reading order, blank last)\n"
    "  --size RxC     the dimensions, for boards written as one flat list\n"
    "  --format F     text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --max-nodes N  give up on a board after N node expansions\n"
    "  --progress     one line per IDA* threshold on stderr (default on a\n"
    "  --no-progress  terminal); never\n"
    "Unsolvable boards are recognised without search from the parity\n"
    "invariant (see slide solvable); Ctrl-C stops the search and reports the\n"
    "lower bound reached.\n"
    "Moves are written as the direction the BLANK moves: U up, D down, L left,\n"
    "R right (U means the tile above the blank slides down into it).  The\n"
    "same solution is also given as the tiles moved, in order.\n"
    "Output (text), per board:\n"
    "  board: B / goal: G / method: M, heuristic H\n"
    "  optimal moves: L            (or 'unsolvable: <parity explanation>',\n"
    "  blank moves: UDLR...         or 'stopped: <why>')\n"
    "  tiles moved: t1 t2 ...\n"
    "  nodes: E expanded, N generated, I iterations, h(board) H\n"
    "  time: S s\n"
    "boards separated by an empty line.  csv, md and tex give one record per\n"
    "board with the columns board,method,heuristic,status,length,blank_moves,\n"
    "tiles_moved,expanded,generated,iterations,h_start,lower_bound,seconds;\n"
    "status is optimal, found (a heuristic that may overestimate), unsolvable\n"
    "or stopped; length is empty unless a solution was found; lower_bound is\n"
    "what the search proved (the length when optimal).\n"
    "Exit status: 0 every board solved, 1 a search stopped or failed, 2 bad\n"
    "arguments or board text, 3 a board is unsolvable.\n";

/* The problem handed to a method. */
struct solve_job {
    const struct board *start, *goal;
    const char *heuristic;
    uint64_t max_nodes;
    const volatile sig_atomic_t *cancel;
    int progress;
};

/* What a method found: the fields a method does not produce stay 0. */
struct solve_answer {
    int length;            /* -1: none */
    unsigned char *moves;  /* blank moves (enum move), length entries */
    int optimal;           /* 1 if length is proven optimal */
    int lower_bound;       /* proven lower bound on the optimum */
    uint64_t expanded, generated;
    int iterations, h_start;
    double seconds;
    const char *heuristic; /* name actually used, or "" */
};

static void print_threshold(int bound, uint64_t expanded, double seconds, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "slide: threshold %d, %" PRIu64 " nodes expanded so far, %.2f s\n",
            bound, expanded, seconds);
}

static int solve_ida(const struct solve_job *job, struct solve_answer *ans,
                     slide_error *err)
{
    struct ida_heuristic h;
    int rc = ida_heuristic_open(&h, job->heuristic, job->goal, err);
    if (rc)
        return rc;
    struct ida_options o = {job->max_nodes, job->cancel,
                            job->progress ? print_threshold : NULL, NULL};
    struct ida_result r;
    rc = ida_solve(job->start, job->goal, &h, &o, &r, err);
    ans->length = r.length;
    ans->moves = r.moves;
    ans->optimal = rc == SLIDE_OK && h.admissible;
    /* IDA*'s thresholds bound the optimum only when h never overestimates */
    ans->lower_bound = !h.admissible ? 0 : rc == SLIDE_OK ? r.length : r.bound;
    ans->expanded = r.expanded;
    ans->generated = r.generated;
    ans->iterations = r.iterations;
    ans->h_start = r.h_start;
    ans->seconds = r.seconds;
    ans->heuristic = h.name;
    ida_heuristic_close(&h);
    return rc;
}

/*
 * The methods.  Each solves one board and fills the answer; SLIDE_EUNSOLVABLE
 * must come from the parity criterion, before any search.  To add a method
 * (db: descent in a distance database, layers, bibfs: bidirectional BFS),
 * write its solve function above and add a row here and in the help text.
 */
static const struct solve_method {
    const char *name;
    int (*solve)(const struct solve_job *job, struct solve_answer *ans,
                 slide_error *err);
} methods[] = {
    {"ida", solve_ida},
};
#define NMETHODS (sizeof methods / sizeof methods[0])

struct solve_args {
    const struct solve_method *method;
    const char *heuristic;
    const char *goal_text;
    int rows, cols;
    enum report_format format;
    uint64_t max_nodes;
    int progress;
};

static const struct solve_method *method_find(const char *name)
{
    for (size_t i = 0; i < NMETHODS; i++)
        if (strcmp(methods[i].name, name) == 0)
            return &methods[i];
    return NULL;
}

static int method_unknown(const char *name)
{
    char known[256] = "";
    for (size_t i = 0; i < NMETHODS; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                 i ? ", " : "", methods[i].name);
    return cli_fail(EXIT_USAGE, "--method must be one of %s, not \"%s\"", known, name);
}

static int parse_args(int argc, char **argv, struct solve_args *a)
{
    static const struct option opts[] = {
        {"method", required_argument, 0, 'M'}, {"h", required_argument, 0, 'H'},
        {"goal", required_argument, 0, 'g'},   {"size", required_argument, 0, 's'},
        {"format", required_argument, 0, 'f'}, {"max-nodes", required_argument, 0, 'n'},
        {"progress", no_argument, 0, 'p'},     {"no-progress", no_argument, 0, 'P'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    slide_error err;
    long v;
    int c, k;
    memset(a, 0, sizeof *a);
    a->method = &methods[0];
    a->heuristic = IDA_HEURISTIC_DEFAULT;
    a->progress = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "M:H:g:s:f:n:h", opts, NULL)) != -1) {
        switch (c) {
        case 'M':
            if (!(a->method = method_find(optarg)))
                return method_unknown(optarg);
            break;
        case 'H': a->heuristic = optarg; break;
        case 'g': a->goal_text = optarg; break;
        case 's':
            if (board_parse_dims(optarg, &a->rows, &a->cols, &err))
                return cli_fail(EXIT_USAGE, "--size: %s", err.msg);
            break;
        case 'f':
            if ((k = report_format_parse(optarg)) < 0)
                return cli_fail(EXIT_USAGE, "--format must be text, csv, md or tex, not \"%s\"", optarg);
            a->format = (enum report_format)k;
            break;
        case 'n':
            if (cli_int("--max-nodes", optarg, 1, LONG_MAX, &v))
                return EXIT_USAGE;
            a->max_nodes = (uint64_t)v;
            break;
        case 'p': a->progress = 1; break;
        case 'P': a->progress = 0; break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_fail(EXIT_USAGE, "see slide solve --help");
        }
    }
    return EXIT_OK;
}

/* ---- input: one board from the arguments, or boards from stdin -------- */

struct board_list {
    char **text;   /* board texts (pointers into buf, or the joined words) */
    int *line;     /* their line numbers on stdin (0: not from lines) */
    int count;
    char *buf;
};

static void board_list_free(struct board_list *l)
{
    free(l->text);
    free(l->line);
    free(l->buf);
    memset(l, 0, sizeof *l);
}

/* 1 if line is a board by itself: it has a '/' or parses at the given size. */
static int is_board_line(const char *line, int rows, int cols)
{
    if (strchr(line, '/'))
        return 1;
    struct board b;
    slide_error err;
    if (rows <= 0 || board_parse(line, rows, cols, &b, &err))
        return 0;
    board_free(&b);
    return 1;
}

/* Split buf into its non-empty, non-comment lines (in place). */
static int split_lines(struct board_list *l)
{
    size_t cap = 16;
    l->text = malloc(cap * sizeof *l->text);
    l->line = malloc(cap * sizeof *l->line);
    int lineno = 0;
    for (char *p = l->buf, *next; p && l->text && l->line; p = next) {
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (p[strspn(p, " \t\r")] == '\0' || p[strspn(p, " \t")] == '#')
            continue;
        if ((size_t)l->count == cap) {
            cap *= 2;
            char **t = realloc(l->text, cap * sizeof *t);
            int *n = realloc(l->line, cap * sizeof *n);
            if (t)
                l->text = t;
            if (n)
                l->line = n;
            if (!t || !n)
                return -1;
        }
        l->text[l->count] = p;
        l->line[l->count++] = lineno;
    }
    return l->text && l->line ? 0 : -1;
}

/* The first non-empty, non-comment line of text (copied), or NULL. */
static char *first_line(const char *text)
{
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        size_t lead = strspn(p, " \t\r");
        if (lead < len && p[lead] != '#') {
            char *s = malloc(len + 1);
            if (s) {
                memcpy(s, p, len);
                s[len] = '\0';
            }
            return s;
        }
        p += len + (p[len] == '\n');
    }
    return NULL;
}

static int read_boards(int argc, char **argv, const struct solve_args *a,
                       struct board_list *l)
{
    memset(l, 0, sizeof *l);
    if (argc == 0)
        return cli_fail(EXIT_USAGE, "no board given (write it like \"1 2 3/4 5 6/7 8 0\", "
                                    "or - to read boards from standard input)");
    if (argc == 1 && strcmp(argv[0], "-") == 0) {
        if (!(l->buf = cli_slurp(stdin)))
            return cli_fail(EXIT_FAIL, "cannot read standard input");
        char *first = first_line(l->buf);
        int by_line = first && is_board_line(first, a->rows, a->cols);
        free(first);
        if (by_line)
            return split_lines(l) ? cli_fail(EXIT_FAIL, "out of memory reading boards") : 0;
    } else {
        size_t len = 1;
        for (int i = 0; i < argc; i++)
            len += strlen(argv[i]) + 1;
        if (!(l->buf = malloc(len)))
            return cli_fail(EXIT_FAIL, "out of memory reading the board");
        l->buf[0] = '\0';
        for (int i = 0; i < argc; i++)
            strcat(strcat(l->buf, i ? " " : ""), argv[i]);
    }
    l->text = malloc(sizeof *l->text);
    l->line = calloc(1, sizeof *l->line);
    if (!l->text || !l->line)
        return cli_fail(EXIT_FAIL, "out of memory reading the board");
    l->text[0] = l->buf;
    l->count = 1;
    return 0;
}

/* ---- output ------------------------------------------------------------ */

/* A board as one line of text (malloc'd; NULL when out of memory). */
static char *board_text(const struct board *b)
{
    size_t need = board_format(b, NULL, 0) + 1;
    char *s = malloc(need);
    if (s)
        board_format(b, s, need);
    return s;
}

/* The blank moves as letters, and the tiles moved, space separated. */
static int path_texts(const struct board *start, const struct board *goal,
                      const struct solve_answer *ans, char **letters, char **tiles,
                      slide_error *err)
{
    int len = ans->length > 0 ? ans->length : 0;
    int *t = malloc(((size_t)len + 1) * sizeof *t);
    *letters = malloc((size_t)len + 1);
    *tiles = malloc((size_t)len * 12 + 1);
    int rc = !t || !*letters || !*tiles
                 ? slide_fail(err, SLIDE_ENOMEM, "out of memory printing a solution")
                 : ida_replay(start, goal, ans->moves, len, t, err);
    if (!rc) {
        char *p = *tiles;
        *p = '\0';
        for (int i = 0; i < len; i++) {
            (*letters)[i] = move_letter((enum move)ans->moves[i]);
            p += sprintf(p, i ? " %d" : "%d", t[i]);
        }
        (*letters)[len] = '\0';
    }
    free(t);
    return rc;
}

static const char *status_name(int rc, const struct solve_answer *ans)
{
    if (rc == SLIDE_EUNSOLVABLE)
        return "unsolvable";
    if (rc)
        return "stopped";
    return ans->optimal ? "optimal" : "found";
}

struct printed {
    const char *board, *goal, *method, *status, *letters, *tiles, *why;
};

static void print_text(const struct printed *p, const struct solve_answer *ans)
{
    printf("board: %s\ngoal: %s\nmethod: %s%s%s\n", p->board, p->goal, p->method,
           ans->heuristic[0] ? ", heuristic " : "", ans->heuristic);
    if (p->why && strcmp(p->status, "unsolvable") == 0) {
        printf("%s\n", p->why); /* parity_explain's line starts "unsolvable:" */
        return;
    }
    if (p->why) {
        printf("stopped: %s\n", p->why);
    } else {
        printf("%s moves: %d\n", ans->optimal ? "optimal" : "found (maybe not optimal)",
               ans->length);
        printf("blank moves: %s\ntiles moved: %s\n", p->letters, p->tiles);
    }
    printf("nodes: %" PRIu64 " expanded, %" PRIu64 " generated, %d iterations, "
           "h(board) %d\ntime: %.3f s\n", ans->expanded, ans->generated,
           ans->iterations, ans->h_start, ans->seconds);
}

static const char *const columns[] = {
    "board", "method", "heuristic", "status", "length", "blank_moves", "tiles_moved",
    "expanded", "generated", "iterations", "h_start", "lower_bound", "seconds"};
#define NCOLUMNS (int)(sizeof columns / sizeof columns[0])

static void print_record(const struct report_table *t, const struct printed *p,
                         const struct solve_answer *ans)
{
    char len[16] = "", exp[24], gen[24], it[16], h0[16], lb[16] = "", sec[32];
    int solved = !p->why;
    if (solved)
        snprintf(len, sizeof len, "%d", ans->length);
    if (strcmp(p->status, "unsolvable") != 0)
        snprintf(lb, sizeof lb, "%d", ans->lower_bound);
    snprintf(exp, sizeof exp, "%" PRIu64, ans->expanded);
    snprintf(gen, sizeof gen, "%" PRIu64, ans->generated);
    snprintf(it, sizeof it, "%d", ans->iterations);
    snprintf(h0, sizeof h0, "%d", ans->h_start);
    snprintf(sec, sizeof sec, "%.6f", ans->seconds);
    const char *row[] = {p->board, p->method, ans->heuristic, p->status, len,
                         solved ? p->letters : "", solved ? p->tiles : "", exp, gen,
                         it, h0, lb, sec};
    report_row(t, row);
}

/* ---- one board --------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Parse, solve and print one board; returns an exit status. */
static int solve_one(const struct solve_args *a, const char *text, int lineno,
                     const struct report_table *t)
{
    struct board start = {0}, goal = {0};
    slide_error err;
    int rc = board_parse(text, a->rows, a->cols, &start, &err);
    if (rc)
        return lineno ? cli_fail(EXIT_USAGE, "line %d: %s", lineno, err.msg)
                      : cli_fail_lib(rc, &err);
    if (cli_goal(a->goal_text, start.rows, start.cols, &goal)) {
        board_free(&start);
        return EXIT_USAGE;
    }
    struct solve_job job = {&start, &goal, a->heuristic, a->max_nodes, &interrupted,
                            cli_progress_wanted(a->progress)};
    struct solve_answer ans = {.length = -1, .heuristic = ""};
    rc = a->method->solve(&job, &ans, &err);
    char *letters = NULL, *tiles = NULL;
    char *btext = board_text(&start), *gtext = board_text(&goal);
    int status = EXIT_OK;
    if (rc == SLIDE_EINVAL || rc == SLIDE_ENOMEM || rc == SLIDE_ERANGE) {
        status = cli_fail_lib(rc, &err);
    } else if (!btext || !gtext ||
               (!rc && path_texts(&start, &goal, &ans, &letters, &tiles, &err))) {
        /* a method's path that does not replay is a bug worth a loud failure */
        status = cli_fail(EXIT_FAIL, "%s", btext && gtext ? err.msg : "out of memory");
    } else {
        struct printed p = {btext, gtext, a->method->name, status_name(rc, &ans),
                            letters, tiles, rc ? err.msg : NULL};
        if (a->format == REPORT_TEXT)
            print_text(&p, &ans);
        else
            print_record(t, &p, &ans);
        status = rc == SLIDE_EUNSOLVABLE ? EXIT_UNSOLVABLE : rc ? EXIT_FAIL : EXIT_OK;
    }
    free(letters);
    free(tiles);
    free(btext);
    free(gtext);
    free(ans.moves);
    board_free(&start);
    board_free(&goal);
    return status;
}

/* Worse statuses win: usage > failure > unsolvable > ok. */
static int worse(int a, int b)
{
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_UNSOLVABLE] = 1, [EXIT_FAIL] = 2,
                               [EXIT_USAGE] = 3};
    return rank[b] > rank[a] ? b : a;
}

int cmd_solve(int argc, char **argv)
{
    struct solve_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board_list l;
    if ((rc = read_boards(argc - optind, argv + optind, &a, &l))) {
        board_list_free(&l);
        return rc;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    struct report_table t = {stdout, a.format, NCOLUMNS, columns,
                             "Optimal solutions", 0};
    if (a.format != REPORT_TEXT)
        report_begin(&t);
    int status = EXIT_OK;
    for (int i = 0; i < l.count && !interrupted; i++) {
        if (i && a.format == REPORT_TEXT)
            putchar('\n');
        int s = solve_one(&a, l.text[i], l.line[i], &t);
        status = worse(status, s);
        if (s == EXIT_USAGE)
            break;
    }
    if (a.format != REPORT_TEXT)
        report_end(&t);
    board_list_free(&l);
    rc = cli_finish_stdout();
    return rc ? rc : status;
}
