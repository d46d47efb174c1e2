/*
 * cmd_dist.c - `slide dist --db FILE BOARD...`: exact distances (and
 * optimal paths) from a distance database.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/db.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide dist --db FILE [--goal G] [--metric stm|mtm] [--path]\n"
    "                  [--format text|csv|md|tex] [--threads N] [--time]\n"
    "                  [--keep-going] BOARD... | - | @FILE\n"
    "Examples:\n"
    "  slide bfs 3x3 --save 3x3.db    # the database, once\n"
    "  slide scramble 3x3 --count 9 | slide dist --db 3x3.db --path -\n"
    "The exact distance of each BOARD from the goal, read from a distance\n"
    "database written by `slide bfs RxC --save FILE`.  With an encoding of 1\n"
    "or 2 bits the distance is found by walking to the goal: from every board\n"
    "the database names the neighbours one move closer.\n"
    "BOARD: one board per argument, quoted (\"8 6 7/2 5 4/3 0 1\") or with\n"
    "commas (8,6,7,2,5,4,3,0,1); - reads boards from standard input and @FILE\n"
    "from FILE, one per line (rows separated by /), skipping empty lines and\n"
    "lines starting # (at most 256 MiB, a line at most 16 MiB with its newline,\n"
    "no NUL byte, at least one board: exit 2 otherwise).\n"
    "  --db FILE      the database (required)\n"
    "  --goal G       refuse unless the database was built for goal G\n"
    "  --metric M     stm (default) or mtm: the metric the distances are asked\n"
    "                 in; a database of the other metric is refused (exit 2).\n"
    "                 An mtm database comes from slide bfs RxC --metric mtm\n"
    "                 --save FILE\n"
    "  --path         also print an optimal solution\n"
    "  --format F     text (default), csv, md or tex\n"
    "  --threads N    lookups in parallel (default: all cores)\n"
    "  --time         print the lookup rate on standard error\n"
    "  --keep-going   report a bad board on standard error, go on with the\n"
    "                 others, exit 2 at the end (default: refuse it before\n"
    "                 printing anything)\n"
    "Every board is read and checked before the table starts, so a bad one\n"
    "leaves no partial table; a bad line of standard input is named 'line N'\n"
    "(its line number), a bad argument 'board N'.\n"
    "Output: a table with one row per board, in input order: columns board\n"
    "(as \"1 2 3/4 5 6/7 8 0\"), distance (a number, or \"unsolvable\" for a\n"
    "board of the other parity class) and, with --path, path: the moves of\n"
    "the blank, U D L R, as one word (empty for the goal and for unsolvable\n"
    "boards; in mtm a move is its letter once per cell the blank jumps, moves\n"
    "separated by spaces: \"UU L\" is two moves).  CSV: header board,distance[,path], one record per line.\n"
    "Exit status: 0 done, 1 a bad or unreadable database, 2 bad arguments or\n"
    "a board of another size or goal (also one skipped by --keep-going), 3 if\n"
    "some board cannot reach the goal.\n";

#define BATCH 4096

struct dist_args {
    const char *db_path, *goal_text;
    int path, timing, threads, keep_going;
    enum metric metric;
    enum report_format format;
};

struct answer {
    int rc;
    int dist;
    char *path; /* path_bytes(db) bytes */
};


static const struct cli_option dist_options[] = {
    {"db", 'd', CLI_VALUE, 'd', 0, NULL, NULL},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'm', 0, NULL, NULL},
    {"path", 'p', CLI_FLAG, 'p', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"time", 0, CLI_FLAG, 'T', 0, NULL, NULL},
    {"keep-going", 0, CLI_FLAG, 'k', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int parse_args(int argc, char **argv, struct dist_args *a, struct cli_parse *p)
{
    memset(a, 0, sizeof *a);
    cli_parse_init(p, "dist", dist_options, argc, argv);
    for (int c; (c = cli_parse_next(p)) != CLI_END;) {
        switch (c) {
        case CLI_ERROR: return EXIT_USAGE;
        case 'd': a->db_path = p->value; break;
        case 'g': a->goal_text = p->value; break;
        case 'm':
            if (cli_metric(p->value, &a->metric))
                return EXIT_USAGE;
            break;
        case 'p': a->path = 1; break;
        case 'T': a->timing = 1; break;
        case 'k': a->keep_going = 1; break;
        case 'f':
            if (cli_format(p->value, &a->format))
                return EXIT_USAGE;
            break;
        case 't':
            if (cli_threads(p->value, &a->threads))
                return EXIT_USAGE;
            break;
        case 'h': return cli_help(help);
        }
    }
    if (!a->db_path)
        return cli_fail(EXIT_USAGE, "slide dist needs --db FILE (see --help)");
    if (p->nargs == 0)
        return cli_fail(EXIT_USAGE, "no board given (one per argument, or - for standard input, "
                                    "or @FILE)");
    return EXIT_OK;
}

/*
 * The boards, each checked as it comes (so that a bad line of an endless
 * input stops it at once): the arguments, or "-" or "@FILE" (alone): the
 * non-empty, non-comment lines of standard input or FILE, read by
 * cli_read_lines; an input without one is refused (cli_no_boards).  A bad
 * board is refused (exit 2), or with --keep-going reported and left out.
 */
struct board_source {
    const struct db *db;
    int keep_going, skipped;
    char **text;   /* the good boards' texts, in input order (after reading) */
    long *line;    /* their line numbers on standard input, or -(argument number) */
    long count, next;
    struct cli_lines in; /* standard input's good lines */
};

static void source_free(struct board_source *src)
{
    free(src->text);
    if (src->line != src->in.number)
        free(src->line);
    cli_lines_free(&src->in);
}

/* "line N" for standard input, "board N" for arguments. */
static void where_of(long line, char *buf, size_t len)
{
    if (line > 0)
        snprintf(buf, len, "line %ld", line);
    else
        snprintf(buf, len, "board %ld", -line);
}

static void where(const struct board_source *src, long i, char *buf, size_t len)
{
    where_of(src->line[i], buf, len);
}

/* 0 to keep the board (text), -1 to leave it out (reported, --keep-going),
 * or an exit status. */
static int check_one(struct board_source *src, const char *text, long line)
{
    struct board b;
    slide_error err;
    char at[48];
    int rc = board_parse(text, src->db->rows, src->db->cols, &b, &err);
    if (!rc) {
        board_free(&b);
        return 0;
    }
    where_of(line, at, sizeof at);
    cli_fail(rc == SLIDE_ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s: %s", at, err.msg);
    if (rc == SLIDE_ENOMEM || !src->keep_going)
        return rc == SLIDE_ENOMEM ? EXIT_FAIL : EXIT_USAGE;
    src->skipped = 1;
    return -1;
}

static int take_line(char *line, size_t len, long number, void *ctx)
{
    struct board_source *src = ctx;
    char *q = line + strspn(line, " \t\r");
    int rc;
    if (!*q || *q == '#')
        return EXIT_OK;
    if ((rc = check_one(src, line, number)))
        return rc < 0 ? EXIT_OK : rc;
    return cli_lines_add(&src->in, line, len, number);
}

/* The arguments' boards that pass the check. */
static int take_arguments(struct board_source *src, int argc, char **argv)
{
    if (!(src->text = malloc((size_t)argc * sizeof *src->text)) ||
        !(src->line = malloc((size_t)argc * sizeof *src->line)))
        return cli_fail(EXIT_FAIL, "out of memory for the boards");
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-") || argv[i][0] == '@')
            return cli_fail(EXIT_USAGE, "board %d: %s stands alone: give - or @FILE as the "
                            "only BOARD (a board per line), or the boards as arguments",
                            i + 1, argv[i][0] == '@' ? "@FILE" : "-");
        int rc = check_one(src, argv[i], -(long)(i + 1));
        if (rc > 0)
            return rc;
        if (rc == 0) {
            src->text[src->count] = argv[i];
            src->line[src->count++] = -(long)(i + 1);
        }
    }
    return EXIT_OK;
}

/* The boards: the arguments, or "-": the lines of standard input. */
static int source_open(struct board_source *src, const struct db *db, int keep_going,
                       int argc, char **argv)
{
    memset(src, 0, sizeof *src);
    src->db = db;
    src->keep_going = keep_going;
    if (!(argc == 1 && (strcmp(argv[0], "-") == 0 || argv[0][0] == '@')))
        return take_arguments(src, argc, argv);
    int rc = cli_read_lines(argv[0], "the boards", take_line, src);
    if (rc)
        return rc;
    if (src->in.count == 0 && !src->skipped)
        return cli_no_boards(argv[0]);
    src->count = src->in.count;
    src->line = src->in.number;
    if (!(src->text = malloc(((size_t)src->count + 1) * sizeof *src->text)))
        return cli_fail(EXIT_FAIL, "out of memory for %ld boards", src->count);
    for (long i = 0; i < src->count; i++)
        src->text[i] = src->in.buf + src->in.off[i];
    return EXIT_OK;
}

/* Parse up to BATCH boards into b (their input indexes into idx); returns
 * how many, or -1 after an error. */
static int read_batch(struct board_source *src, const struct db *db, struct board *b,
                      long *idx)
{
    slide_error err;
    int n = 0;
    for (; n < BATCH && src->next < src->count; src->next++) {
        long i = src->next;
        if (board_parse(src->text[i], db->rows, db->cols, &b[n], &err)) {
            cli_fail(EXIT_FAIL, "%s", err.msg); /* parsed once already: memory */
            while (n > 0)
                board_free(&b[--n]);
            return -1;
        }
        idx[n++] = i;
    }
    return n;
}

/* The longest path text of db, with its NUL: a letter per move in STM; in
 * MTM up to the longer side - 1 letters and a space per move. */
static size_t path_bytes(const struct db *db)
{
    size_t per = db->metric == METRIC_MTM ? (size_t)(db->rows > db->cols ? db->rows : db->cols)
                                          : 1u;
    return (size_t)db->radius * per + 1;
}

static void lookup(const struct db *db, const struct board *b, int want_path,
                   struct answer *ans, slide_error *err)
{
    unsigned char codes[DB_MAX_RADIUS + 1];
    ans->rc = want_path ? db_path(db, b, codes, &ans->dist, err)
                        : db_distance(db, b, &ans->dist, err);
    ans->path[0] = '\0';
    if (ans->rc == SLIDE_OK && want_path)
        move_format_codes(codes, ans->dist, db->metric, ans->path, path_bytes(db));
}

/* Rows of one batch; returns an exit code (0, or the first failure). */
static int print_batch(const struct report_table *t, struct board *b, struct answer *ans,
                       const slide_error *errs, int n, const struct board_source *src,
                       const long *idx, int *unsolvable)
{
    for (int i = 0; i < n; i++) {
        char text[256], dist[24];
        if (ans[i].rc == SLIDE_EUNSOLVABLE) {
            *unsolvable = 1;
            snprintf(dist, sizeof dist, "unsolvable");
        } else if (ans[i].rc) {
            char at[48];
            where(src, idx[i], at, sizeof at);
            return cli_fail(ans[i].rc == SLIDE_EINVAL ? EXIT_USAGE : EXIT_FAIL,
                            "%s: %s", at, errs[i].msg);
        } else {
            snprintf(dist, sizeof dist, "%d", ans[i].dist);
        }
        board_format(&b[i], text, sizeof text);
        const char *const row[] = {text, dist, ans[i].path};
        report_row(t, row);
    }
    return EXIT_OK;
}

struct run_state {
    const struct dist_args *a;
    struct db db;
    struct board *boards;
    long *idx;
    struct answer *ans;
    slide_error *errs;
    double seconds;
    long lookups;
};

static int run_batches(struct run_state *r, struct board_source *src,
                       const struct report_table *t, int *unsolvable)
{
    int rc = EXIT_OK, threads = r->a->threads > 0 ? r->a->threads : omp_get_max_threads();
    for (int n; rc == EXIT_OK && (n = read_batch(src, &r->db, r->boards, r->idx)) != 0;) {
        if (n < 0)
            return EXIT_FAIL;
        double t0 = omp_get_wtime();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
        for (int i = 0; i < n; i++)
            lookup(&r->db, &r->boards[i], r->a->path, &r->ans[i], &r->errs[i]);
        r->seconds += omp_get_wtime() - t0;
        r->lookups += n;
        rc = print_batch(t, r->boards, r->ans, r->errs, n, src, r->idx, unsolvable);
        for (int i = 0; i < n; i++) {
            if (r->ans[i].rc == SLIDE_EUNSOLVABLE) /* another goal's board? */
                cli_board_hint(&r->boards[i], &r->db.goal, 0, 0, CLI_HINT_FILES);
            board_free(&r->boards[i]);
        }
    }
    return rc;
}

static int run(struct run_state *r, struct board_source *src)
{
    static const char *const hdr[] = {"board", "distance", "path"};
    char caption[96];
    int unsolvable = 0, width = (int)board_format(&r->db.goal, NULL, 0);
    snprintf(caption, sizeof caption, "Exact distances from the goal of the %dx%d puzzle",
             r->db.rows, r->db.cols);
    struct report_table t = {stdout, r->a->format, r->a->path ? 3 : 2, hdr, caption,
                             width > 10 ? width : 10};
    int skipped = src->skipped, rc;
    report_begin(&t);
    rc = run_batches(r, src, &t, &unsolvable);
    if (rc == EXIT_OK)
        report_end(&t);
    if (rc == EXIT_OK && (rc = cli_finish_stdout()) == EXIT_OK && (unsolvable || skipped))
        rc = skipped ? EXIT_USAGE : EXIT_UNSOLVABLE;
    if (r->a->timing)
        fprintf(stderr, "slide: %ld lookups in %.3f s, %.0f per second\n", r->lookups,
                r->seconds, r->seconds > 0 ? (double)r->lookups / r->seconds : 0.0);
    return rc;
}

/* Load the database and check it against --goal; 0 or an exit code. */
static int open_db(const struct dist_args *a, struct db *db)
{
    slide_error err;
    struct board goal = {0};
    int rc = cli_load_db(a->db_path, a->threads, a->metric, db);
    if (rc)
        return rc;
    if (a->goal_text) {
        if ((rc = cli_goal(a->goal_text, db->rows, db->cols, &goal)))
            ;
        else if (db_match(db, NULL, &goal, &err))
            rc = cli_fail_file(EXIT_USAGE, a->db_path, &err);
        board_free(&goal);
    }
    if (rc)
        db_free(db);
    return rc;
}

int cmd_dist(int argc, char **argv)
{
    struct dist_args a;
    struct run_state r;
    struct cli_parse p;
    int rc = parse_args(argc, argv, &a, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    memset(&r, 0, sizeof r);
    r.a = &a;
    if ((rc = open_db(&a, &r.db)) != EXIT_OK)
        return rc;
    struct board_source src;
    if ((rc = source_open(&src, &r.db, a.keep_going, p.nargs, p.args))) {
        source_free(&src);
        db_free(&r.db);
        return rc;
    }
    r.boards = calloc(BATCH, sizeof *r.boards);
    r.idx = malloc(BATCH * sizeof *r.idx);
    r.ans = calloc(BATCH, sizeof *r.ans);
    r.errs = malloc(BATCH * sizeof *r.errs);
    char *paths = malloc((size_t)BATCH * path_bytes(&r.db));
    if (!r.boards || !r.idx || !r.ans || !r.errs || !paths) {
        rc = cli_fail(EXIT_FAIL, "out of memory for %d lookups", BATCH);
    } else {
        for (int i = 0; i < BATCH; i++)
            r.ans[i].path = paths + (size_t)i * path_bytes(&r.db);
        rc = run(&r, &src);
    }
    free(paths);
    free(r.boards);
    free(r.ans);
    free(r.errs);
    free(r.idx);
    source_free(&src);
    db_free(&r.db);
    return rc;
}
