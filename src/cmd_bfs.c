/*
 * cmd_bfs.c - `slide bfs RxC`: enumerate every board by two-bit BFS and
 * report the distance histogram, the radius and the antipodes.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/bfs.h"
#include "slide/db.h"
#include "slide/provenance.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide bfs RxC [--goal G] [--threads N] [--space compact|full]\n"
    "                 [--format text|csv|md|tex] [--progress] [--max-memory BYTES]\n"
    "                 [--save FILE [--encoding 1|2|8] [--level N]]\n"
    "Breadth-first search from the goal over every board of an R x C puzzle\n"
    "(R*C <= 20), 2 bits per board.  Reports the number of boards at each\n"
    "distance, the radius (largest distance, God's number) and the antipodes\n"
    "(boards at the radius), and checks the count against (RC)!/2 (n for\n"
    "1-row and 1-column boards, which are paths).\n"
    "  --goal G           goal board (default 1..n-1 in reading order, blank last)\n"
    "  --threads N        OpenMP threads (default: all cores); results do not\n"
    "                     depend on N\n"
    "  --space compact    index the (RC)!/2 solvable boards (default)\n"
    "  --space full       index all (RC)! arrangements (twice the memory)\n"
    "  --format F         text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --progress         one line per layer on stderr (default on a terminal);\n"
    "  --no-progress      never\n"
    "  --max-memory B     refuse if the store needs more than B bytes (K/M/G\n"
    "                     suffixes); the default limit is MemAvailable\n"
    "  --save FILE        write the distance database (see slide dist, slide db):\n"
    "                     a gzip file (zcat FILE gives the payload), written as\n"
    "                     FILE.tmp and renamed when complete\n"
    "  --encoding E       1: 1 bit per board, floor(d/2) mod 2 (default);\n"
    "                     2: 2 bits, d mod 3; 8: 1 byte, d (radius <= 254).  2 and\n"
    "                     8 recompute the layers with a byte per board\n"
    "  --level N          zlib level 0..9 (default 1, and 9 for encoding 8: bits\n"
    "                     hardly compress at any level, bytes gain about 25%)\n"
    "Output (text): a line naming the board, goal and space; the table\n"
    "'distance count cumulative', one row per distance from 0; then 'boards\n"
    "reached', 'radius', 'antipodes' (count, then up to 10 boards, smallest\n"
    "index first) and a line with wall time, threads and peak memory.\n"
    "With --format csv stdout holds exactly the table: the header\n"
    "'distance,count' and one row per distance; the summary goes to stderr.\n"
    "md and tex print the table with columns distance, count, cumulative,\n"
    "followed by the summary.\n"
    "Exit status: 0 done, 1 out of memory or the count disagrees with\n"
    "(RC)!/2, 2 bad arguments.\n";

struct bfs_args {
    int rows, cols;
    const char *goal_text;
    int threads;
    enum space_kind kind;
    enum report_format format;
    int progress;          /* -1 auto */
    uint64_t max_memory;   /* 0: MemAvailable */
    const char *save;      /* database file, or NULL */
    struct db_save_options db;
};

static int parse_args(int argc, char **argv, struct bfs_args *a)
{
    static const struct option opts[] = {
        {"goal", required_argument, 0, 'g'},   {"threads", required_argument, 0, 't'},
        {"space", required_argument, 0, 's'},  {"format", required_argument, 0, 'f'},
        {"progress", no_argument, 0, 'p'},     {"no-progress", no_argument, 0, 'P'},
        {"max-memory", required_argument, 0, 'm'}, {"help", no_argument, 0, 'h'},
        {"save", required_argument, 0, 'S'},   {"encoding", required_argument, 0, 'E'},
        {"level", required_argument, 0, 'L'},  {0, 0, 0, 0}};
    long v;
    int c, k;
    slide_error err;
    memset(a, 0, sizeof *a);
    a->progress = -1;
    a->db.level = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "g:t:s:f:m:h", opts, NULL)) != -1) {
        switch (c) {
        case 'g': a->goal_text = optarg; break;
        case 't':
            if (cli_int("--threads", optarg, 1, 1024, &v))
                return EXIT_USAGE;
            a->threads = (int)v;
            break;
        case 's':
            if ((k = space_kind_parse(optarg)) < 0)
                return cli_fail(EXIT_USAGE, "--space must be compact or full, not \"%s\"", optarg);
            a->kind = (enum space_kind)k;
            break;
        case 'f':
            if ((k = report_format_parse(optarg)) < 0)
                return cli_fail(EXIT_USAGE, "--format must be text, csv, md or tex, not \"%s\"", optarg);
            a->format = (enum report_format)k;
            break;
        case 'p': a->progress = 1; break;
        case 'P': a->progress = 0; break;
        case 'm':
            if (cli_bytes("--max-memory", optarg, &a->max_memory))
                return EXIT_USAGE;
            break;
        case 'S': a->save = optarg; break;
        case 'E':
            if (cli_int("--encoding", optarg, 1, 8, &v))
                return EXIT_USAGE;
            if (!db_encoding_name((int)v))
                return cli_fail(EXIT_USAGE, "--encoding must be 1, 2 or 8, not %ld", v);
            a->db.encoding = (int)v;
            break;
        case 'L':
            if (cli_int("--level", optarg, 0, 9, &v))
                return EXIT_USAGE;
            a->db.level = (int)v;
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_fail(EXIT_USAGE, "see slide bfs --help");
        }
    }
    if (argc - optind != 1)
        return cli_fail(EXIT_USAGE, "slide bfs takes one board size such as 3x3 (see --help)");
    if (board_parse_dims(argv[optind], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    return EXIT_OK;
}

static int print_layer(const struct bfs_layer *L, void *ctx)
{
    (void)ctx;
    double rate = L->seconds > 0 ? (double)L->count / L->seconds : 0;
    fprintf(stderr, "slide: distance %d: %" PRIu64 " boards, %" PRIu64
            " in all (%.2f%% of the space), %.2f s (%.1f M boards/s)%s\n",
            L->depth, L->count, L->cumulative,
            100.0 * (double)L->cumulative / (double)L->space_size, L->seconds,
            rate / 1e6, L->backward ? ", backward" : "");
    return 0;
}

static void print_summary(FILE *out, const char *pre, const struct space *s,
                          const struct bfs_result *r, int ok)
{
    struct board b = {0};
    slide_error err;
    fprintf(out, "%sboards reached: %" PRIu64 "; expected %s = %" PRIu64 ": %s\n", pre,
            r->reached, s->path_graph ? "n (a path)" : "(RC)!/2", s->reachable,
            ok ? "ok" : "MISMATCH");
    fprintf(out, "%sradius: %d\n", pre, r->radius);
    fprintf(out, "%santipodes: %" PRIu64 "\n", pre, r->hist[r->radius]);
    if (board_alloc(&b, s->rows, s->cols, &err) == SLIDE_OK) {
        for (int i = 0; i < r->nfirst; i++) {
            char line[256];
            space_unrank(s, r->first[i], &b);
            board_format(&b, line, sizeof line);
            fprintf(out, "%s  %s\n", pre, line);
        }
        board_free(&b);
    }
    fprintf(out, "%swall %.3f s, threads %d, peak memory %.1f MB, %.1f M boards/s\n",
            pre, r->seconds, r->threads, provenance_peak_rss() / 1e6,
            r->seconds > 0 ? (double)r->reached / r->seconds / 1e6 : 0.0);
}

/* Write the database of the finished search (--save); 0 or an exit code. */
static int save_db(const struct bfs_args *a, const struct space *s,
                   const struct store *st, const struct bfs_result *r)
{
    slide_error err;
    uint64_t bytes = 0;
    struct db_save_options o = a->db;
    o.threads = a->threads;
    int rc = db_save(a->save, s, st, r, &o, &bytes, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    fprintf(stderr, "slide: saved %s: %" PRIu64 " bytes, %.4f bytes per board\n",
            a->save, bytes, (double)bytes / (double)s->size);
    return EXIT_OK;
}

static int run(const struct bfs_args *a, const struct board *goal)
{
    struct space s;
    struct store st;
    struct bfs_result r;
    slide_error err;
    char what[128], gtext[256];
    int rc = space_init(&s, goal, a->kind, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    snprintf(what, sizeof what, "the %s space of a %dx%d board at 2 bits per board",
             space_kind_name(a->kind), a->rows, a->cols);
    if ((rc = store_check_memory(store_bytes_needed(s.size), a->max_memory, what, &err)) ||
        (rc = store_alloc(&st, s.size, &err)))
        return cli_fail_lib(rc, &err);
    struct bfs_options o = {a->threads, 0,
                            cli_progress_wanted(a->progress) ? print_layer : NULL, NULL};
    rc = bfs_run(&s, &st, &o, &r, &err);
    int saved = rc || !a->save ? EXIT_OK : save_db(a, &s, &st, &r);
    store_free(&st);
    if (rc || saved) {
        bfs_result_free(&r);
        return rc ? cli_fail_lib(rc, &err) : saved;
    }
    board_format(goal, gtext, sizeof gtext);
    int ok = r.reached == s.reachable;
    FILE *info = a->format == REPORT_CSV ? stderr : stdout;
    const char *pre = a->format == REPORT_TEX ? "% " : a->format == REPORT_MD ? "- " : "";
    fprintf(info, "%sboard %dx%d, goal %s, %s space of %" PRIu64 " indexes (%" PRIu64
            " bytes at 2 bits)\n", pre, a->rows, a->cols, gtext, space_kind_name(s.kind),
            s.size, store_bytes_needed(s.size));
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    cli_histogram(a->format, a->rows, a->cols, r.hist, r.radius);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    print_summary(info, pre, &s, &r, ok);
    bfs_result_free(&r);
    rc = cli_finish_stdout();
    if (!rc && !ok)
        rc = cli_fail(EXIT_FAIL, "the search reached a different number of boards "
                                 "than the parity theorem predicts");
    return rc;
}

int cmd_bfs(int argc, char **argv)
{
    struct bfs_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board goal = {0};
    if (cli_goal(a.goal_text, a.rows, a.cols, &goal))
        return EXIT_USAGE;
    rc = run(&a, &goal);
    board_free(&goal);
    return rc;
}
