/*
 * cmd_bfs.c - `slide bfs RxC`: enumerate every board by two-bit BFS and
 * report the distance histogram, the radius and the antipodes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "slide/bfs.h"
#include "slide/atomic_file.h"
#include "slide/checkpoint.h"
#include "slide/db.h"
#include "slide/frontier_key.h"
#include "slide/provenance.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide bfs RxC [--goal G] [--metric stm|mtm] [--threads N] [--space compact|full]\n"
    "                 [--format text|csv|md|tex] [--progress] [--max-memory BYTES]\n"
    "                 [--checkpoint DIR] [--checkpoint-every MINUTES] [--resume DIR]\n"
    "                 [--save FILE [--encoding 1|2|8] [--level N]]\n"
    "                 [--antipodes all|N] [--antipodes-file FILE] [--summary FILE]\n"
    "       slide bfs --resume DIR [OPTIONS]\n"
    "Examples:\n"
    "  slide bfs 3x3                               # the 8-puzzle: histogram, radius\n"
    "  slide bfs 3x4 --format csv --save 3x4.db    # CSV, and a distance database\n"
    "Breadth-first search from the goal over every board of an R x C puzzle\n"
    "(R*C <= 20), 2 bits per board.  Reports the number of boards at each\n"
    "distance, the radius (largest distance, God's number) and the antipodes\n"
    "(boards at the radius), and checks the count against (RC)!/2 (n for\n"
    "1-row and 1-column boards, which are paths).\n"
    "  --goal G           goal board (default 1..n-1 in reading order, blank last)\n"
    "  --metric M         what one move is: stm (default, the single-tile metric:\n"
    "                     one tile slides one cell) or mtm (the multi-tile\n"
    "                     metric: the blank jumps to any cell of its row or\n"
    "                     column, the tiles between sliding one cell each).\n"
    "                     Checkpoints and --save files record it (--resume\n"
    "                     refuses the other one)\n"
    "  --threads N        OpenMP threads (default: all cores); results do not\n"
    "                     depend on N\n"
    "  --space compact    index the (RC)!/2 solvable boards (default)\n"
    "  --space full       index all (RC)! arrangements (twice the memory)\n"
    "  --format F         text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --progress         one line per layer on stderr (default on a terminal):\n"
    "                     distance, new boards, boards so far and their share of\n"
    "                     the reachable boards, layer time, rate, and an ETA: the\n"
    "                     boards not yet reached divided by the rate of the last\n"
    "                     3 layers (meaningless in the first, tiny layers, where\n"
    "                     it is hours; optimistic near the end, where the rate\n"
    "                     falls)\n"
    "  --no-progress      never\n"
    "  --provenance       start stdout with the provenance block (tool version,\n"
    "                     commit, compiler and flags, CPU, threads, date, wall\n"
    "                     time), lines prefixed \"# \" (text, csv), \"% \" (tex)\n"
    "                     or \"> \" (md)\n"
    "  --max-memory B     refuse if the store needs more than B bytes (K/M/G\n"
    "                     suffixes); the default limit is MemAvailable; also\n"
    "                     checked before --resume loads a store\n"
    "  --checkpoint DIR   save the search into DIR (created if missing) at layer\n"
    "                     boundaries: DIR/store (the two-bit store, raw) and\n"
    "                     DIR/state (text: board, goal, space, histogram, CRCs),\n"
    "                     each written beside, synced, then renamed, state last; also\n"
    "                     once at the end (marked complete).  Refused up front if\n"
    "                     the disk cannot hold two stores (each save is written\n"
    "                     beside the last, then renamed), or if DIR already holds\n"
    "                     a checkpoint (continue that one with --resume DIR)\n"
    "  --checkpoint-every M  minutes from the start of one checkpoint to the\n"
    "                     next (0: after every layer).  Default: the larger of 5\n"
    "                     minutes and 10 times the last checkpoint's write time,\n"
    "                     so that saving takes at most 10% of the run (plus the\n"
    "                     final save).  With --progress each save prints\n"
    "                     'checkpoint at distance D saved in DIR: MB in S s'\n"
    "  --resume DIR       continue the search saved in DIR from its last complete\n"
    "                     layer (any --threads); the result equals an\n"
    "                     uninterrupted run.  RxC, --goal and --space are read\n"
    "                     from DIR; any given that contradicts it is refused,\n"
    "                     naming both values.  Checkpoints go on into DIR unless\n"
    "                     --checkpoint names another directory.  A complete\n"
    "                     checkpoint just prints its result\n"
    "A checkpoint directory belongs to one process at a time (an flock on\n"
    "DIR/lock, held for the whole run): another run on it is refused with\n"
    "'checkpoint DIR is in use by process N' before it touches anything.\n"
    "SIGINT or SIGTERM (with a checkpoint directory): the search stops at the\n"
    "end of the current layer, saves a checkpoint and exits with 128 + the\n"
    "signal number; a second signal (a second or more later; an immediate copy,\n"
    "as timeout(1) sends, counts as the same) quits at once and the previous\n"
    "checkpoint stays.  After SIGKILL, --resume loses only the work since the last\n"
    "checkpoint.\n"
    "  --antipodes N      list N antipodes (default 10), smallest index first;\n"
    "                     'all' lists every one.  Beyond 10, the boards of the\n"
    "                     last layer are collected when it is found (one more\n"
    "                     scan of the store; not possible when --resume loads a\n"
    "                     complete checkpoint)\n"
    "  --antipodes-file FILE  write every antipode to FILE, one board per line\n"
    "                     (rows separated by '/'), smallest index first, after\n"
    "                     a '# ' line naming the board, goal, radius and count;\n"
    "                     FILE is checked before the search and written whole\n"
    "                     (a temporary beside it, renamed), never through a link;\n"
    "                     an existing FILE must be such a list (or empty)\n"
    "  --summary FILE     the figures a paper quotes, machine-readable: FILE.csv\n"
    "                     (header summary,board,goal,metric,boards,radius,\n"
    "                     max_depth,complete,antipodes,mean_distance,version,\n"
    "                     commit,command and one record) or FILE.json (the same\n"
    "                     keys, the last three under \"provenance\"; needs a build\n"
    "                     with Jansson); metric: the --metric (stm, mtm); written\n"
    "                     whole, checked before the search as --antipodes-file\n"
    "  --save FILE        write the distance database (see slide dist, slide db):\n"
    "                     a gzip file (zcat FILE gives the payload), written to a\n"
    "                     temporary beside FILE and renamed when complete; FILE\n"
    "                     must be new, empty or a distance database (checked\n"
    "                     before the search)\n"
    "  --mpi              the search over MPI processes: mpirun -n P slide-mpi bfs\n"
    "                     RxC --mpi (see slide-mpi bfs --mpi --help)\n"
    "  --encoding E       1: 1 bit per board, floor(d/2) mod 2 (default in stm;\n"
    "                     stm only); 2: 2 bits, d mod 3 (default in mtm); 8: 1\n"
    "                     byte, d (radius <= 254).  2 and 8 recompute the layers\n"
    "                     with a byte per board\n"
    "  --level N          zlib level 0..9 (default 1, and 9 for encoding 8: bits\n"
    "                     hardly compress at any level, bytes gain about 25%)\n"
    "  --uncompressed     store the payload as it is, not gzip (format version 3:\n"
    "                     no longer zcat-able; Python's slide.Database maps it\n"
    "                     and reads it in place, without loading it)\n"
    "Output (text): a line naming the board, goal and space; the table\n"
    "'distance count cumulative', one row per distance from 0; then 'boards\n"
    "reached', 'radius', 'antipodes' (count, then up to 10 boards or\n"
    "--antipodes N, smallest index first, and '  ... K more' when some are not\n"
    "listed) and a line with wall time, threads and peak memory.\n"
    "With --format csv stdout holds exactly the table: the header\n"
    "'distance,count' and one row per distance; the summary goes to stderr.\n"
    "md and tex print the table with columns distance, count, cumulative,\n"
    "followed by the summary.\n"
    "Exit status: 0 done (also when the final checkpoint could not be written:\n"
    "the result is complete, and a warning says so; as slide frontier), 1 out\n"
    "of memory or disk, a checkpoint refused or in use, a stop whose\n"
    "checkpoint was not saved, --save failed, or the count disagrees with\n"
    "(RC)!/2, 2 bad arguments, 130 (SIGINT) or 143 (SIGTERM) stopped on\n"
    "request after saving a checkpoint.\n";

/* Default spacing of checkpoints: at least this, and 10 write times. */
#define CKPT_MIN_SECONDS 300.0
#define CKPT_IO_FACTOR 10.0
/* Layers over which the progress line measures the rate for its ETA. */
#define ETA_WINDOW 3

/*
 * The signal that asked the search to stop (0: none).  The only global: a
 * signal handler can reach nothing else.
 */
static volatile sig_atomic_t stop_signal;

struct bfs_args {
    int rows, cols;
    const char *goal_text;
    int threads;
    enum space_kind kind;
    enum report_format format;
    int progress;          /* -1 auto */
    uint64_t max_memory;   /* 0: MemAvailable */
    const char *checkpoint;  /* --checkpoint DIR, or NULL */
    const char *resume;      /* --resume DIR, or NULL */
    double every;            /* --checkpoint-every, seconds; < 0: automatic */
    int provenance;          /* --provenance */
    char command[512];       /* the command line, for --provenance */
    const char *save;      /* database file, or NULL */
    int sized, kind_given;   /* RxC and --space were given */
    enum metric metric;      /* --metric */
    int metric_given;
    char resume_goal[512];   /* the goal read from --resume DIR's checkpoint */
    struct db_save_options db;
    int uncompressed;      /* --uncompressed: the stored form */
    uint64_t antipodes;      /* boards to list (--antipodes; UINT64_MAX: all) */
    const char *antipodes_file; /* --antipodes-file, or NULL */
    const char *summary;     /* --summary FILE, or NULL */
};

/*
 * Every board of the last layer, collected from the layer callback while
 * that layer is the frontier (the finished store keeps only d mod 4, which
 * cannot tell the radius from radius - 4).  The last layer is the one whose
 * cumulative count reaches every reachable board.
 */
struct antipodes {
    int wanted;            /* more than the search's BFS_KEEP are needed */
    int depth;             /* the layer collected; -1: none */
    uint64_t *index;       /* its boards, sorted once complete */
    uint64_t count;        /* boards in that layer */
    uint64_t filled;       /* written so far (atomic while collecting) */
    int failed;            /* out of memory */
};

/* State of one run, shared with the layer callback. */
struct run_ctx {
    const struct space *s;
    const char *dir;       /* where checkpoints go, or NULL */
    int progress;
    double every;          /* as bfs_args.every */
    double last_save;      /* clock at the start of the last save (or the run) */
    double save_seconds;   /* how long the last save took */
    uint64_t win_count[ETA_WINDOW];
    double win_seconds[ETA_WINDOW];
    int nwin;
    const struct store *st; /* for collecting the antipodes */
    int threads;
    struct antipodes anti;
};

static int parse_minutes(const char *text, double *seconds)
{
    double v;
    if (cli_real("--checkpoint-every", text, 0, 1e6, 0,
                 "minutes from 0 to 1000000 (0: every layer)", &v))
        return EXIT_USAGE;
    *seconds = v * 60;
    return 0;
}

/* --antipodes: "all" or a count from 0 to 10^9. */
static int parse_antipodes(const char *text, uint64_t *out)
{
    long long v;
    if (strcmp(text, "all") == 0) {
        *out = UINT64_MAX;
        return 0;
    }
    if (cli_parse_whole(text, 0, 1000000000L, &v))
        return cli_fail(EXIT_USAGE, "--antipodes expects 'all' or a count from 0 to "
                                    "1000000000, not \"%s\"", text);
    *out = (uint64_t)v;
    return 0;
}

/* Contexts that use an option (cli.h): a database or checkpoints asked for. */
enum { USE_SAVE = 1, USE_CHECKPOINT = 2 };

static const struct cli_option bfs_options[] = {
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"space", 's', CLI_VALUE, 's', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"progress", 0, CLI_FLAG, 'p', 0, NULL, NULL},
    {"no-progress", 0, CLI_FLAG, 'P', 0, NULL, "progress"},
    {"provenance", 0, CLI_FLAG, 'V', 0, NULL, NULL},
    {"max-memory", 'm', CLI_VALUE, 'm', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {"checkpoint", 0, CLI_VALUE, 'c', 0, NULL, NULL},
    {"checkpoint-every", 0, CLI_VALUE, 'e', USE_CHECKPOINT,
     "--checkpoint DIR or --resume DIR", NULL},
    {"resume", 0, CLI_VALUE, 'r', 0, NULL, NULL},
    {"save", 0, CLI_VALUE, 'S', 0, NULL, NULL},
    {"encoding", 0, CLI_VALUE, 'E', USE_SAVE, "--save FILE", NULL},
    {"level", 0, CLI_VALUE, 'L', USE_SAVE, "--save FILE", NULL},
    {"uncompressed", 0, CLI_FLAG, 'U', USE_SAVE, "--save FILE", NULL},
    {"antipodes", 0, CLI_VALUE, 'A', 0, NULL, NULL},
    {"antipodes-file", 0, CLI_VALUE, 'F', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'M', 0, NULL, NULL},
    {"summary", 0, CLI_VALUE, 'Y', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

/* One option's value into a; EXIT_OK or EXIT_USAGE (printed). */
static int take_option(int c, const char *v, void *ctx)
{
    struct bfs_args *a = ctx;
    long n;
    int k;
    switch (c) {
    case 'g': a->goal_text = v; return EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 's':
        if ((k = space_kind_parse(v)) < 0)
            return cli_fail(EXIT_USAGE, "--space must be compact or full, not \"%s\"", v);
        a->kind = (enum space_kind)k;
        a->kind_given = 1;
        return EXIT_OK;
    case 'f': return cli_format(v, &a->format) ? EXIT_USAGE : EXIT_OK;
    case 'p': a->progress = 1; return EXIT_OK;
    case 'P': a->progress = 0; return EXIT_OK;
    case 'V': a->provenance = 1; return EXIT_OK;
    case 'm': return cli_max_memory(v, &a->max_memory) ? EXIT_USAGE : EXIT_OK;
    case 'c': a->checkpoint = v; return EXIT_OK;
    case 'r': a->resume = v; return EXIT_OK;
    case 'e': return parse_minutes(v, &a->every) ? EXIT_USAGE : EXIT_OK;
    case 'S': a->save = v; return EXIT_OK;
    case 'E':
        if (cli_int("--encoding", v, 1, 8, &n))
            return EXIT_USAGE;
        if (!db_encoding_name((int)n) || n == DB_ENC_NIBBLE)
            return cli_fail(EXIT_USAGE, "--encoding must be 1, 2 or 8, not %ld", n);
        a->db.encoding = (int)n;
        return EXIT_OK;
    case 'L':
        if (cli_int("--level", v, 0, 9, &n))
            return EXIT_USAGE;
        a->db.level = (int)n;
        return EXIT_OK;
    case 'U': a->uncompressed = 1; return EXIT_OK;
    case 'A': return parse_antipodes(v, &a->antipodes) ? EXIT_USAGE : EXIT_OK;
    case 'M':
        a->metric_given = 1;
        return cli_metric(v, &a->metric) ? EXIT_USAGE : EXIT_OK;
    case 'F':
        if (!*v)
            return cli_fail(EXIT_USAGE, "--antipodes-file needs a file name");
        a->antipodes_file = v;
        return EXIT_OK;
    case 'Y': a->summary = v; return EXIT_OK;
    }
    return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct bfs_args *a)
{
    struct cli_parse p;
    slide_error err;
    memset(a, 0, sizeof *a);
    a->progress = -1;
    a->every = -1;
    a->db.level = -1;
    a->antipodes = BFS_KEEP;
    cli_parse_init(&p, "bfs", bfs_options, argc, argv);
    int rc = cli_parse_options(&p, help, take_option, a);
    if (rc)
        return rc;
    unsigned active = (a->save ? USE_SAVE : 0) |
                      (a->checkpoint || a->resume ? USE_CHECKPOINT : 0);
    if (cli_parse_unused(&p, active, NULL))
        return EXIT_USAGE;
    if (a->uncompressed && a->db.level >= 0)
        return cli_fail(EXIT_USAGE, "--uncompressed stores the payload as it is: it takes "
                        "no --level");
    if (a->uncompressed)
        a->db.level = DB_LEVEL_STORED;
    if (p.nargs > 1 || (p.nargs == 0 && !a->resume))
        return cli_fail(EXIT_USAGE, "bfs takes one board size such as 3x3 (or none with "
                        "--resume DIR; see --help)");
    a->sized = p.nargs == 1;
    if (a->save && a->metric == METRIC_MTM && a->db.encoding == DB_ENC_BIT)
        return cli_fail(EXIT_USAGE, "--encoding 1 takes d mod 2 from the board's colour, "
                        "which holds only in the single-tile metric: with --metric mtm "
                        "use --encoding 2 (the default) or 8");
    if (a->sized && board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    return EXIT_OK;
}

/*
 * --resume DIR alone: the size, goal and space come from the checkpoint.
 * What was given is kept, so that checkpoint_load refuses a contradiction
 * naming both values.
 */
static int from_checkpoint(struct bfs_args *a)
{
    struct checkpoint_info info;
    slide_error err;
    if (!a->resume || (a->sized && a->goal_text && a->kind_given))
        return EXIT_OK;
    int rc = checkpoint_describe(a->resume, &info, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    cli_resume_fill(&info, a->sized, a->kind_given, &a->rows, &a->cols, &a->kind,
                    &a->goal_text, a->resume_goal, sizeof a->resume_goal);
    return EXIT_OK;
}

/* "1h02m", "3m07s" or "12s": a duration for the progress line. */
static void format_duration(double sec, char *buf, size_t len)
{
    if (!(sec >= 0) || sec > 1e8) {
        snprintf(buf, len, "?");
        return;
    }
    unsigned long t = (unsigned long)(sec + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
    else
        snprintf(buf, len, "%lus", t);
}

/* Seconds to go: boards not yet reached at the rate of the last layers. */
static double estimate_eta(struct run_ctx *c, const struct bfs_layer *L)
{
    int k = c->nwin++ % ETA_WINDOW;
    c->win_count[k] = L->count;
    c->win_seconds[k] = L->seconds;
    uint64_t count = 0;
    double sec = 0;
    for (int i = 0; i < ETA_WINDOW && i < c->nwin; i++) {
        count += c->win_count[i];
        sec += c->win_seconds[i];
    }
    uint64_t left = c->s->reachable > L->cumulative ? c->s->reachable - L->cumulative : 0;
    if (left == 0)
        return 0;
    return count > 0 && sec > 0 ? (double)left * sec / (double)count : -1;
}

static void print_layer(struct run_ctx *c, const struct bfs_layer *L)
{
    char eta[32];
    double rate = L->seconds > 0 ? (double)L->count / L->seconds : 0;
    format_duration(estimate_eta(c, L), eta, sizeof eta);
    fprintf(stderr, "slide: distance %d: %" PRIu64 " boards, %" PRIu64
            " in all (%.2f%% of the reachable boards), %.2f s (%.1f M boards/s), "
            "ETA %s%s\n", L->depth, L->count, L->cumulative,
            100.0 * (double)L->cumulative / (double)c->s->reachable, L->seconds,
            rate / 1e6, eta, L->backward ? ", backward" : "");
}

/* A checkpoint is due after --checkpoint-every, or by the 10 % rule. */
static int checkpoint_due(const struct run_ctx *c)
{
    double gap = c->every >= 0 ? c->every
                               : fmax(CKPT_MIN_SECONDS, CKPT_IO_FACTOR * c->save_seconds);
    return omp_get_wtime() - c->last_save >= gap;
}

static void collect_board(void *ctx, int thread, uint64_t index)
{
    struct antipodes *a = ctx;
    (void)thread;
    uint64_t k = __atomic_fetch_add(&a->filled, 1, __ATOMIC_RELAXED);
    if (k < a->count)
        a->index[k] = index;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Collect the boards of layer `depth`, the frontier now, sorted by index. */
static void collect_layer(struct run_ctx *c, int depth, uint64_t count)
{
    struct antipodes *a = &c->anti;
    free(a->index);
    a->index = count < SIZE_MAX / sizeof *a->index
                   ? malloc(count ? (size_t)count * sizeof *a->index : 1) : NULL;
    a->count = count;
    a->filled = 0;
    a->depth = -1;
    if (!a->index) {
        a->failed = 1;
        return;
    }
    bfs_visit_frontier(c->s, c->st, depth, c->threads, collect_board, a);
    if (a->filled != count) { /* cannot happen: the layer count is exact */
        a->failed = 1;
        return;
    }
    qsort(a->index, (size_t)count, sizeof *a->index, cmp_u64);
    a->depth = depth;
}

/* Stop the search at this layer for a signal or a due checkpoint. */
static int on_layer(const struct bfs_layer *L, void *ctx)
{
    struct run_ctx *c = ctx;
    if (c->progress)
        print_layer(c, L);
    /* the layer that brings every reachable board in is the last one */
    if (c->anti.wanted && L->cumulative == c->s->reachable)
        collect_layer(c, L->depth, L->count);
    return c->dir && (stop_signal || checkpoint_due(c));
}

/* Seconds on the monotonic clock (async-signal-safe). */
static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t signal_newline; /* stderr is a terminal */
static double first_signal_at;

/*
 * The first SIGINT/SIGTERM asks for a checkpoint at the end of the layer; a
 * later one quits at once.  A copy arriving within a second of the first is
 * taken as the same request: timeout(1) and process-group kills deliver the
 * signal twice, and quitting then would lose the checkpoint asked for.
 */
static void on_signal(int sig)
{
    static const char msg[] = "slide: stopping at the end of this layer to save a "
                              "checkpoint (signal again to quit without saving)\n";
    if (stop_signal) {
        if (monotonic_seconds() - first_signal_at < 1.0)
            return;
        atomic_file_remove_all(); /* a checkpoint or --save being written */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_signal = sig;
    first_signal_at = monotonic_seconds();
    /* a newline ends the "^C" a terminal echoes */
    if ((signal_newline && write(STDERR_FILENO, "\n", 1) < 0) ||
        write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing to do: the flag is what matters */
    }
}

/* SIGINT and SIGTERM stop at a layer boundary; a later one kills. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT); /* one handler at a time */
    sigaddset(&sa.sa_mask, SIGTERM);
    signal_newline = isatty(STDERR_FILENO);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Save a checkpoint of (st, r) and time it; the time counts as search time. */
static int save(struct run_ctx *c, const struct store *st, struct bfs_result *r,
                slide_error *err)
{
    double t0 = omp_get_wtime();
    int rc = checkpoint_save(c->dir, c->s, st, r, err);
    double t1 = omp_get_wtime();
    c->last_save = t0; /* after a failure too: retry only when due again */
    if (rc)
        return rc;
    c->save_seconds = t1 - t0;
    if (c->progress)
        cli_note("checkpoint at distance %d%s saved in %s: %.1f MB in "
                "%.2f s\n", r->radius, r->complete ? " (complete)" : "", c->dir,
                (double)st->nwords * 8 / 1e6, t1 - t0);
    return SLIDE_OK;
}

/* The antipodes to list: the collected layer, or the search's first few. */
static const uint64_t *antipode_list(const struct antipodes *anti,
                                     const struct bfs_result *r, uint64_t *n)
{
    if (anti->depth == r->radius) {
        *n = anti->count;
        return anti->index;
    }
    *n = (uint64_t)r->nfirst;
    return r->first;
}

static void print_summary(FILE *out, const char *pre, const struct space *s,
                          const struct bfs_result *r, const struct antipodes *anti,
                          uint64_t shown, int ok)
{
    struct board b = {0};
    slide_error err;
    uint64_t n;
    const uint64_t *list = antipode_list(anti, r, &n);
    fprintf(out, "%sboards reached: %" PRIu64 "; expected %s = %" PRIu64 ": %s\n", pre,
            r->reached, s->path_graph ? "n (a path)" : "(RC)!/2", s->reachable,
            ok ? "ok" : "MISMATCH");
    fprintf(out, "%sradius: %d\n", pre, r->radius);
    fprintf(out, "%santipodes: %" PRIu64 "\n", pre, r->hist[r->radius]);
    if (board_alloc(&b, s->rows, s->cols, &err) == SLIDE_OK) {
        for (uint64_t i = 0; i < n && i < shown; i++) {
            char line[256];
            space_unrank(s, list[i], &b);
            board_format(&b, line, sizeof line);
            fprintf(out, "%s  %s\n", pre, line);
        }
        board_free(&b);
        if (r->hist[r->radius] > shown)
            fprintf(out, "%s  ... %" PRIu64 " more (--antipodes all lists them)\n", pre,
                    r->hist[r->radius] - shown);
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
    cli_note("saved %s: %" PRIu64 " bytes, %.4f bytes per board\n",
            a->save, bytes, (double)bytes / (double)s->size);
    return EXIT_OK;
}

/* Run (or continue) the search, saving checkpoints when due; exit code. */
static int search(struct run_ctx *c, const struct bfs_args *a, struct store *st,
                  struct bfs_result *r)
{
    slide_error err;
    struct bfs_options o = {.threads = a->threads, .on_layer = on_layer, .ctx = c,
                            .metric = r->hist ? r->metric : a->metric};
    int fresh = r->hist == NULL, done = r->complete;
    c->last_save = omp_get_wtime();
    /* a resumed search whose frontier is already the last layer */
    if (!fresh && !done && c->anti.wanted && r->reached == c->s->reachable)
        collect_layer(c, r->radius, r->hist[r->radius]);
    if (c->dir)
        catch_signals();
    int rc = fresh ? bfs_run(c->s, st, &o, r, &err) : bfs_resume(c->s, st, &o, r, &err);
    while (rc == SLIDE_EINTR) { /* on_layer stopped it: a checkpoint or a signal */
        if (save(c, st, r, &err) == SLIDE_OK)
            r->seconds += c->save_seconds; /* saving mid-run is part of the run */
        else if (stop_signal)
            return cli_fail(EXIT_FAIL, "stopped after distance %d, but the "
                            "checkpoint was not saved: %s", r->radius, err.msg);
        else
            cli_note("warning: checkpoint not saved (the search goes "
                    "on): %s\n", err.msg);
        if (stop_signal)
            return cli_fail(128 + stop_signal, "stopped by %s after distance %d; "
                            "checkpoint saved in %s (continue with --resume %s)",
                            stop_signal == SIGINT ? "SIGINT" : "SIGTERM", r->radius,
                            c->dir, c->dir);
        rc = bfs_resume(c->s, st, &o, r, &err);
    }
    if (rc == SLIDE_OK && c->dir && !done && save(c, st, r, &err)) {
        /* the result is complete and valid: report it, exit 0 */
        cli_note("warning: the search finished but its final checkpoint "
                "was not saved (the result below is complete): %s\n", err.msg);
    }
    /* a signal during the last layer or the final save: the result is complete */
    return rc ? cli_fail_lib(rc, &err) : EXIT_OK;
}

static int same_dir(const char *x, const char *y)
{
    struct stat a, b;
    return stat(x, &a) == 0 && stat(y, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* The checkpoint directories a run holds (cli.h: one process per directory). */
struct held {
    struct checkpoint_lock resume, checkpoint;
};

static void release(struct held *h)
{
    checkpoint_unlock(&h->resume);
    checkpoint_unlock(&h->checkpoint);
}

/* Check the disk up front, take the directory, and refuse to overwrite
 * another checkpoint (checked under the lock, so two runs cannot both
 * start one). */
static int check_checkpoint_dir(const struct bfs_args *a, const struct space *s,
                                struct held *h)
{
    slide_error err;
    const char *dir = a->checkpoint ? a->checkpoint : a->resume;
    int resumed_here = a->resume && (!a->checkpoint || same_dir(a->checkpoint, a->resume));
    if (!dir)
        return EXIT_OK;
    int rc = checkpoint_prepare(dir, s, &err);
    if (!rc && !resumed_here)
        rc = checkpoint_lock(dir, &h->checkpoint, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    if (!resumed_here && checkpoint_exists(dir))
        return cli_fail(EXIT_FAIL, "%s already holds a checkpoint; continue it with "
                        "--resume %s, or remove %s/state and %s/store first",
                        dir, dir, dir, dir);
    return EXIT_OK;
}

/* The store and result to start from: a loaded checkpoint or a new store. */
static int open_search(const struct bfs_args *a, const struct space *s,
                       struct store *st, struct bfs_result *r)
{
    slide_error err;
    char what[128];
    int rc;
    memset(r, 0, sizeof *r);
    if (a->resume) {
        if ((rc = checkpoint_load(a->resume, s, a->max_memory, st, r, &err)))
            return cli_fail_lib(rc, &err);
        if (a->metric_given && r->metric != a->metric) {
            int m = (int)r->metric;
            store_free(st);
            bfs_result_free(r);
            return cli_fail(EXIT_FAIL, "checkpoint %s is a search in the %s metric (%s), "
                            "not the %s metric (--metric %s)", a->resume,
                            metric_long_name((enum metric)m), metric_name((enum metric)m),
                            metric_long_name(a->metric), metric_name(a->metric));
        }
        cli_note("resuming %s at distance %d%s: %" PRIu64 " boards "
                "reached, %.1f s of search so far\n", a->resume, r->radius,
                r->complete ? " (complete)" : "", r->reached, r->seconds);
        return EXIT_OK;
    }
    snprintf(what, sizeof what, "the %s space of a %dx%d board at 2 bits per board",
             space_kind_name(a->kind), a->rows, a->cols);
    if ((rc = store_check_memory(store_bytes_needed(s->size), a->max_memory, what, &err)) ||
        (rc = store_alloc(st, s->size, &err)))
        return cli_fail_lib(rc, &err);
    return EXIT_OK;
}

/* A resume takes its directory and loads first, so that a failed one
 * creates no directory; a fresh run checks and takes its checkpoint
 * directory before allocating the store.  On failure nothing is held. */
static int start(const struct bfs_args *a, const struct space *s, struct store *st,
                 struct bfs_result *r, struct held *h)
{
    slide_error err;
    int rc;
    h->resume.fd = h->checkpoint.fd = -1;
    if (!a->resume) {
        if ((rc = check_checkpoint_dir(a, s, h)) || (rc = open_search(a, s, st, r)))
            release(h);
        return rc;
    }
    if ((rc = checkpoint_lock(a->resume, &h->resume, &err)))
        return cli_fail_lib(rc, &err);
    if ((rc = open_search(a, s, st, r))) {
        release(h);
        return rc;
    }
    if ((rc = check_checkpoint_dir(a, s, h))) {
        store_free(st);
        bfs_result_free(r);
        release(h);
    }
    return rc;
}

static int report(const struct bfs_args *a, const struct board *goal,
                  const struct space *s, const struct bfs_result *r,
                  const struct antipodes *anti)
{
    char gtext[256];
    board_format(goal, gtext, sizeof gtext);
    int ok = r->reached == s->reachable;
    FILE *info = a->format == REPORT_CSV ? stderr : stdout;
    if (a->provenance)
        provenance_write(stdout, cli_provenance_prefix(a->format), a->command,
                         r->threads, r->seconds);
    const char *pre = a->format == REPORT_TEX ? "% " : a->format == REPORT_MD ? "- " : "";
    fprintf(info, "%sboard %dx%d, goal %s, %s space of %" PRIu64 " index%s (%" PRIu64
            " bytes at 2 bits)\n", pre, a->rows, a->cols, gtext, space_kind_name(s->kind),
            s->size, s->size == 1 ? "" : "es", store_bytes_needed(s->size));
    if (r->metric == METRIC_MTM)
        fprintf(info, "%smetric mtm: the multi-tile metric (the blank jumps along its row "
                "or column)\n", pre);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    cli_histogram(a->format, a->rows, a->cols, r->hist, r->radius);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    print_summary(info, pre, s, r, anti, a->antipodes, ok);
    int rc = cli_finish_stdout();
    if (!rc && !ok)
        rc = cli_fail(EXIT_FAIL, "the search reached a different number of boards "
                                 "than the parity theorem predicts");
    return rc;
}

/* Every antipode is known if it was collected or fits in the search's list. */
static int check_antipodes(const struct antipodes *anti, const struct bfs_result *r)
{
    if (!anti->wanted || anti->depth == r->radius ||
        r->hist[r->radius] <= (uint64_t)r->nfirst)
        return EXIT_OK;
    if (anti->failed)
        return cli_fail(EXIT_FAIL, "out of memory for the %" PRIu64 " antipodes",
                        r->hist[r->radius]);
    return cli_fail(EXIT_FAIL, "this checkpoint is complete and keeps only %d of the %"
                    PRIu64 " antipodes; run the search again for --antipodes or "
                    "--antipodes-file", r->nfirst, r->hist[r->radius]);
}

/* The antipode file's lines: '# ' header, then one board per line. */
static int print_antipodes(FILE *f, const struct board *goal, const struct space *s,
                           const struct bfs_result *r, const struct antipodes *anti)
{
    struct board b = {0};
    slide_error err;
    char line[256];
    uint64_t n;
    const uint64_t *list = antipode_list(anti, r, &n);
    board_format(goal, line, sizeof line);
    fprintf(f, "# antipodes of the %dx%d board, goal %s: %" PRIu64 " board%s at the "
            "radius %d, smallest index first\n", s->rows, s->cols, line,
            r->hist[r->radius], r->hist[r->radius] == 1 ? "" : "s", r->radius);
    if (board_alloc(&b, s->rows, s->cols, &err))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        space_unrank(s, list[i], &b);
        board_format(&b, line, sizeof line);
        fprintf(f, "%s\n", line);
    }
    board_free(&b);
    return ferror(f) ? -1 : 0;
}

/* An antipode list, recognised by its header line (print_antipodes). */
static const struct atomic_file_kind antipodes_kind = {"a slide antipode list", NULL,
                                                       "# antipodes of the "};

/* Write the antipodes to path through atomic_file.h: complete or not at all,
 * never through a link or over a file that is not regular. */
static int write_antipodes(const char *path, const struct board *goal,
                           const struct space *s, const struct bfs_result *r,
                           const struct antipodes *anti)
{
    struct atomic_file f;
    slide_error err;
    if (atomic_file_open(&f, path, &antipodes_kind, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    if (print_antipodes(f.stream, goal, s, r, anti)) {
        atomic_file_abort(&f);
        return cli_fail(EXIT_FAIL, "writing the antipodes to %s failed", path);
    }
    return atomic_file_commit(&f, &err) ? cli_fail_lib(SLIDE_EIO, &err) : EXIT_OK;
}

static int run(const struct bfs_args *a, const struct board *goal)
{
    struct space s;
    struct store st;
    struct bfs_result r;
    slide_error err;
    int rc = space_init(&s, goal, a->kind, &err);
    if (rc) {
        rc = cli_fail_lib(rc, &err);
        if (board_cells(goal) <= FKEY_MAX_CELLS)
            cli_fail(0, "hint: slide frontier %dx%d --max-depth D searches this board's "
                        "layers up to distance D without an index (up to %d cells; "
                        "docs/frontier.md)", goal->rows, goal->cols, FKEY_MAX_CELLS);
        return rc;
    }
    /* a database that cannot be written is refused before the search */
    if (a->antipodes_file && (rc = atomic_file_check(a->antipodes_file, &antipodes_kind, &err)))
        return cli_fail_lib(rc, &err);
    if (a->save && (rc = atomic_file_check(a->save, &db_file_kind, &err)))
        return cli_fail_lib(rc, &err);
    if (a->summary && (rc = cli_summary_check(a->summary)))
        return rc;
    struct held h;
    if ((rc = start(a, &s, &st, &r, &h)))
        return rc;
    struct run_ctx c = {.s = &s, .dir = a->checkpoint ? a->checkpoint : a->resume,
                        .progress = cli_progress_wanted(a->progress), .every = a->every,
                        .st = &st, .threads = a->threads};
    c.anti.depth = -1;
    c.anti.wanted = a->antipodes > BFS_KEEP || a->antipodes_file != NULL;
    rc = search(&c, a, &st, &r);
    if (rc == EXIT_OK)
        rc = check_antipodes(&c.anti, &r);
    /* a finished search is valid even when its final checkpoint failed (the
     * warning said so); a --save that failed is a failure */
    int saved = EXIT_OK;
    if (rc == EXIT_OK && a->save) {
        int db_rc = save_db(a, &s, &st, &r);
        if (db_rc)
            saved = db_rc;
    }
    store_free(&st);
    if (rc == EXIT_OK && a->antipodes_file)
        rc = write_antipodes(a->antipodes_file, goal, &s, &r, &c.anti);
    if (rc == EXIT_OK)
        rc = report(a, goal, &s, &r, &c.anti);
    if (rc == EXIT_OK && a->summary) {
        struct cli_summary sum = {"bfs", goal, r.hist, r.radius, 1, a->command, NULL, 0,
                                  r.metric};
        rc = cli_summary_write(a->summary, &sum);
    }
    bfs_result_free(&r);
    release(&h);
    free(c.anti.index);
    return rc ? rc : saved;
}

#ifndef SLIDE_MPI
/* The MPI build beside this binary (make builds build/slide-mpi next to
 * build/slide, make install both into PREFIX/bin) into path; 1 if found. */
static int mpi_build_beside(char *path, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return snprintf(path, len, "%s/slide-mpi", self) < (int)len && access(path, X_OK) == 0;
}

/* The binary built without MPI: --mpi points at the MPI build when it is
 * there (the command to run, with the words given), else says how to get it. */
/* As root, Open MPI's mpirun refuses to start without --allow-run-as-root:
 * the end of the one line that points at mpirun says so. */
static const char *root_note(void)
{
    return geteuid() == 0 ? " (as root, Open MPI's mpirun also wants --allow-run-as-root: "
                            "docs/mpi.md)" : "";
}

int cmd_bfs_mpi(int argc, char **argv)
{
    char mpi[4200], words[1024] = "";
    if (!mpi_build_beside(mpi, sizeof mpi))
        return cli_fail(EXIT_USAGE, "--mpi needs the MPI build (build/slide-mpi), and there "
                        "is none beside this slide: make deps (or apt-get install "
                        "libopenmpi-dev openmpi-bin), make, then mpirun -n P build/slide-mpi "
                        "bfs RxC --mpi%s", root_note());
    for (int i = 0; i < argc; i++) {
        size_t at = strlen(words);
        int plain = argv[i][0] && !argv[i][strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGH"
                                                           "IJKLMNOPQRSTUVWXYZ0123456789-_./=:,+")];
        snprintf(words + at, sizeof words - at, plain ? " %s" : " '%s'", argv[i]);
    }
    return cli_fail(EXIT_USAGE, "--mpi runs in the MPI build, not in this slide: mpirun -n P "
                    "%s%s%s", mpi, words, root_note());
}
#endif

/* 1 if the words after the command name hold --mpi (before any "--"). */
static int wants_mpi(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--mpi"))
            return 1;
    return 0;
}

int cmd_bfs(int argc, char **argv)
{
    struct bfs_args a;
    if (wants_mpi(argc, argv))
        return cmd_bfs_mpi(argc, argv);
    char command[sizeof a.command];
    cli_command_line("bfs", argc, argv, command, sizeof command);
    int rc = parse_args(argc, argv, &a);
    memcpy(a.command, command, sizeof command);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if ((rc = from_checkpoint(&a)))
        return rc;
    struct board goal = {0};
    if (cli_goal(a.goal_text, a.rows, a.cols, &goal))
        return EXIT_USAGE;
    rc = run(&a, &goal);
    board_free(&goal);
    return rc;
}
