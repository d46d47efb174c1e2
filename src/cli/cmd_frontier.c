/*
 * cmd_frontier.c - `slide frontier RxC`: the first layers of boards too big
 * for the two-bit store, by frontier search (frontier.h), with per-layer
 * checkpoints (frontier_checkpoint.h).
 */
#include <inttypes.h>
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "slide/atomic_file.h"
#include "slide/frontier.h"
#include "slide/frontier_checkpoint.h"
#include "slide/provenance.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide frontier RxC [--max-depth D] [--goal G | --blank CELL]\n"
    "                 [--metric stm|mtm] [--keys rank|moved] [--threads N]\n"
    "                 [--format text|csv|md|tex] [--progress] [--provenance]\n"
    "                 [--max-memory BYTES] [--buffer KEYS] [--temp-dir DIR]\n"
    "                 [--max-disk BYTES] [--passes P] [--summary FILE]\n"
    "                 [--checkpoint DIR] [--resume DIR]\n"
    "       slide frontier --resume DIR [OPTIONS]\n"
    "Examples:\n"
    "  slide frontier 4x4 --max-depth 25    # the 15-puzzle's first 26 layers\n"
    "  slide frontier 4x4 --metric mtm --max-depth 19 --checkpoint ck  # A389728\n"
    "Breadth-first search from the goal that keeps only the last two layers\n"
    "(frontier search with delayed duplicate detection), for a board of any\n"
    "size: the number of boards at each distance up to D on boards whose\n"
    "whole space does not fit in memory (4x4, 3x5, 5x5, 6x6, 10x10, ...), and,\n"
    "when the search ends before D, the radius and the antipodes as `slide bfs`\n"
    "gives them.  A layer is a sorted list of board keys, compressed.  Layer d+1\n"
    "is the neighbours of layer d, sorted (radix sort, in chunks the threads\n"
    "take as they come free, one sorted run per chunk), merged (in memory: in\n"
    "16 key ranges at once), with repeats and the boards of layer d-1 removed\n"
    "(in the multi-tile metric those of layers d-1 and d: a jump can join two\n"
    "boards of one layer).\n"
    "  --max-depth D      stop once distance D is known (default: run until no\n"
    "                     new board is found, which only small boards reach)\n"
    "  --goal G           goal board (default 1..n-1 in reading order, blank last)\n"
    "  --blank CELL       the default goal with its blank swapped onto CELL\n"
    "                     (0..n-1 in reading order): 0 a corner, C/2-1 mid-side;\n"
    "                     40x40 --blank 19 stands for the infinite half-plane\n"
    "                     (OEIS A090378) to distance 19\n"
    "  --metric M         what one move is: stm (default, the single-tile metric:\n"
    "                     one tile slides one cell) or mtm (the multi-tile\n"
    "                     metric: the blank jumps to any cell of its row or\n"
    "                     column, the tiles between sliding one cell each);\n"
    "                     a checkpoint records it and is resumed only in it\n"
    "  --keys K           rank: a board is its compact index of slide bfs in 128\n"
    "                     bits (boards of up to 34 cells; about 1.3-2.5 bytes a\n"
    "                     board in a layer); moved: the blank's cell and the\n"
    "                     cells whose tile is not the goal's, with their tiles\n"
    "                     (any size; a key of distance d holds at most d tiles,\n"
    "                     d (max(R,C) - 1) in the multi-tile metric:\n"
    "                     about 10-25 bytes a board).  Default: rank when the\n"
    "                     board has at most 34 cells, else moved\n"
    "  --threads N        OpenMP threads (default: all cores); results do not\n"
    "                     depend on N\n"
    "  --format F         text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --progress         one line per layer on stderr (default on a terminal):\n"
    "                     distance, boards, boards so far, neighbours generated\n"
    "                     (after each run's repeats are dropped) and the bytes\n"
    "                     each takes in the runs, bytes per board of the layer,\n"
    "                     time, rate, 'disk' when the\n"
    "                     step went to --temp-dir, 'P passes' when it was cut,\n"
    "                     and an ETA to --max-depth that\n"
    "                     assumes each layer grows by the last ratio\n"
    "  --no-progress      never\n"
    "  --provenance       start stdout with the provenance block (as slide bfs)\n"
    "  --summary FILE     FILE.csv or FILE.json, as slide bfs; with --max-depth\n"
    "                     short of the radius: complete no, radius and antipodes\n"
    "                     empty (null), max_depth the last layer searched\n"
    "  --max-memory B     memory the search may hold (K/M/G/T suffixes; default\n"
    "                     MemAvailable).  Before each layer the need is estimated\n"
    "                     from the last two layers: a step that does not fit goes\n"
    "                     to --temp-dir, or is refused (exit 1) without one\n"
    "  --buffer KEYS      the most neighbours held at once, all threads' chunks\n"
    "                     together (default 16M rank keys, or as many moved\n"
    "                     keys as fit the same 512 MB; a key takes twice its\n"
    "                     length, 32 bytes for a rank key: the buffer and the\n"
    "                     sort's scratch); a chunk is also at most an eighth of\n"
    "                     a layer per thread\n"
    "  --temp-dir DIR     where steps that do not fit in memory put their sorted\n"
    "                     runs and new layers: unlinked temporary files (nothing\n"
    "                     remains after the run); its free space is checked first\n"
    "  --max-disk B       disk a step may use in --temp-dir (K/M/G/T; default:\n"
    "                     the free space); a step estimated to need more is\n"
    "                     refused (exit 1) before it starts\n"
    "  --passes P         cut each step into P passes over layer d (1, 2, 4, ...,\n"
    "                     64; fewer on small layers), each keeping the new keys\n"
    "                     of one key range: its runs are freed before the next\n"
    "                     pass, so a step's runs take about 1/P of the memory\n"
    "                     or disk, for P expansions of layer d.  Default: the\n"
    "                     fewest that fit (1 where one pass fits)\n"
    "  --checkpoint DIR   save every layer into DIR (created if missing, locked\n"
    "                     while in use): DIR/layer-D for the last two layers and\n"
    "                     DIR/state (text: board, goal, keys, metric, depth,\n"
    "                     histogram, CRC),\n"
    "                     each written as a temporary, synced and renamed, state\n"
    "                     last.  Refused if DIR already holds a checkpoint\n"
    "  --resume DIR       continue the search saved in DIR from its last layer\n"
    "                     (any --threads, --max-depth); the size, goal, keys and\n"
    "                     metric come from DIR (RxC, --goal, --keys or\n"
    "                     --metric, if given, must be the same);\n"
    "                     checkpoints go on into DIR\n"
    "SIGINT or SIGTERM with a checkpoint directory: the search stops at the end\n"
    "of the current layer, saves it and exits with 128 + the signal (a second\n"
    "signal, a second or more later, quits at once; the last saved layer\n"
    "stays).  Without a checkpoint directory they end slide at once.\n"
    "Output (text): a line naming the board, goal and key width; the table\n"
    "'distance count cumulative'; then either 'radius' and 'antipodes' (count,\n"
    "then up to 10 boards, smallest key first, and '... N more' if there are\n"
    "more) when the search ended, or 'searched to distance D' and the first 10\n"
    "boards of layer D (and '... N more'); then the\n"
    "bytes per board of the last layer and a line with wall time, threads and\n"
    "peak memory.  With --format csv stdout holds exactly the table ('distance,\n"
    "count' and one row per distance); the summary goes to stderr.\n"
    "Exit status: 0 done (also when the final checkpoint could not be written:\n"
    "the result is complete, and a warning says so; as slide bfs), 1 out of\n"
    "memory or disk, a checkpoint refused, one that cannot be saved at the\n"
    "start, a stop whose checkpoint was not saved, or the count differs from\n"
    "(RC)!/2 at the end, 2 bad arguments, 130 (SIGINT) or 143 (SIGTERM)\n"
    "stopped on request with the checkpoint saved.\n";

/* Boards listed as antipodes or as the first of the last layer. */
#define SHOW_BOARDS 10

/* The signal that asked the search to stop (0: none); a handler can reach
 * nothing else. */
static volatile sig_atomic_t stop_signal;

struct frontier_args {
    int rows, cols;
    int max_depth;
    const char *goal_text;
    int blank;             /* --blank CELL: the standard goal with the blank there; -1 */
    enum frontier_keys keys;
    enum metric metric;    /* --metric */
    int metric_given;
    int threads;
    enum report_format format;
    int progress;
    int provenance;
    uint64_t max_memory, max_disk, buffer;
    int passes;            /* --passes; 0: the fewest that fit */
    const char *temp_dir, *checkpoint, *resume;
    char resume_goal[32768]; /* the goal read from --resume DIR's checkpoint */
    char command[512];
    const char *summary;    /* --summary FILE, or NULL */
};

struct run_ctx {
    const struct frontier_args *a;
    const struct frontier_search *f;
    const struct board *goal;
    const char *dir;
    int progress;
    int save_failed;
};

/* Contexts that use an option (cli.h): steps may go to disk. */
enum { USE_TEMP_DIR = 1 };

static const struct cli_option frontier_options[] = {
    {"max-depth", 'd', CLI_VALUE, 'd', 0, NULL, NULL},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"blank", 0, CLI_VALUE, 'B', 0, NULL, NULL},
    {"keys", 0, CLI_VALUE, 'k', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'M', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"progress", 0, CLI_FLAG, 'p', 0, NULL, NULL},
    {"no-progress", 0, CLI_FLAG, 'P', 0, NULL, "progress"},
    {"provenance", 0, CLI_FLAG, 'V', 0, NULL, NULL},
    {"max-memory", 'm', CLI_VALUE, 'm', 0, NULL, NULL},
    {"buffer", 0, CLI_VALUE, 'b', 0, NULL, NULL},
    {"temp-dir", 0, CLI_VALUE, 'T', 0, NULL, NULL},
    {"max-disk", 0, CLI_VALUE, 'D', USE_TEMP_DIR, "--temp-dir DIR", NULL},
    {"passes", 0, CLI_VALUE, 'Q', 0, NULL, NULL},
    {"checkpoint", 0, CLI_VALUE, 'c', 0, NULL, NULL},
    {"resume", 0, CLI_VALUE, 'r', 0, NULL, NULL},
    {"summary", 0, CLI_VALUE, 'Y', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

/* One option's value into a; EXIT_OK or EXIT_USAGE (printed). */
static int take_option(int c, const char *v, void *ctx)
{
    struct frontier_args *a = ctx;
    long n;
    switch (c) {
    case 'd':
        if (cli_int("--max-depth", v, 0, 100000, &n))
            return EXIT_USAGE;
        a->max_depth = (int)n;
        return EXIT_OK;
    case 'g': a->goal_text = v; return EXIT_OK;
    case 'B':
        if (cli_int("--blank", v, 0, BOARD_MAX_TILE, &n))
            return EXIT_USAGE;
        a->blank = (int)n;
        return EXIT_OK;
    case 'k':
        if (!strcmp(v, "rank"))
            a->keys = FRONTIER_KEYS_RANK;
        else if (!strcmp(v, "moved"))
            a->keys = FRONTIER_KEYS_MOVED;
        else
            return cli_fail(EXIT_USAGE, "--keys expects rank or moved, not \"%s\"", v);
        return EXIT_OK;
    case 'M':
        a->metric_given = 1;
        return cli_metric(v, &a->metric) ? EXIT_USAGE : EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'f': return cli_format(v, &a->format) ? EXIT_USAGE : EXIT_OK;
    case 'p': a->progress = 1; return EXIT_OK;
    case 'P': a->progress = 0; return EXIT_OK;
    case 'V': a->provenance = 1; return EXIT_OK;
    case 'm': return cli_bytes("--max-memory", v, &a->max_memory) ? EXIT_USAGE : EXIT_OK;
    case 'D': return cli_bytes("--max-disk", v, &a->max_disk) ? EXIT_USAGE : EXIT_OK;
    case 'b':
        if (cli_bytes("--buffer", v, &a->buffer))
            return EXIT_USAGE;
        if (a->buffer < 64 || a->buffer > (1ULL << 36))
            return cli_fail(EXIT_USAGE, "--buffer expects 64 to 64G keys, not \"%s\"", v);
        return EXIT_OK;
    case 'Q': {
        char *end;
        long p = strtol(v, &end, 10);
        if (!*v || *end || p < 1 || p > 64 || (p & (p - 1)))
            return cli_fail(EXIT_USAGE, "--passes expects 1, 2, 4, 8, 16, 32 or 64, not \"%s\"",
                            v);
        a->passes = (int)p;
        return EXIT_OK;
    }
    case 'T': a->temp_dir = v; return EXIT_OK;
    case 'c': a->checkpoint = v; return EXIT_OK;
    case 'r': a->resume = v; return EXIT_OK;
    case 'Y': a->summary = v; return EXIT_OK;
    }
    return EXIT_USAGE;
}

/*
 * --resume DIR: the size, goal, keys and metric come from the checkpoint; a
 * size, keys or metric given must agree, and a goal given is compared by
 * fcheckpoint_load, which names both values.
 */
static int from_checkpoint(struct frontier_args *a, int sized)
{
    int rows, cols;
    enum frontier_keys keys;
    enum metric metric;
    slide_error err;
    if (!fcheckpoint_exists(a->resume))
        return cli_fail(EXIT_FAIL, "%s holds no frontier checkpoint (no %s/state)",
                        a->resume, a->resume);
    if (fcheckpoint_describe(a->resume, &rows, &cols, a->resume_goal,
                             sizeof a->resume_goal, &keys, &metric, &err))
        return cli_fail_lib(SLIDE_EFORMAT, &err);
    if (a->metric_given && a->metric != metric)
        return cli_fail(EXIT_USAGE, "--resume %s holds a search in the %s metric (%s); give "
                        "no --metric or --metric %s", a->resume, metric_long_name(metric),
                        metric_name(metric), metric_name(metric));
    a->metric = metric;
    if (a->keys != FRONTIER_KEYS_AUTO && a->keys != keys)
        return cli_fail(EXIT_USAGE, "--resume %s holds a search with %s keys; give no --keys "
                        "or --keys %s", a->resume, keys == FRONTIER_KEYS_MOVED ? "moved" : "rank",
                        keys == FRONTIER_KEYS_MOVED ? "moved" : "rank");
    a->keys = keys;
    if (sized && (rows != a->rows || cols != a->cols))
        return cli_fail(EXIT_USAGE, "--resume %s holds a search of %dx%d, not %dx%d; give "
                        "no size (it comes from the checkpoint) or %dx%d", a->resume, rows,
                        cols, a->rows, a->cols, rows, cols);
    a->rows = rows;
    a->cols = cols;
    if (!a->goal_text)
        a->goal_text = a->resume_goal;
    return EXIT_OK;
}

static int parse_args(int argc, char **argv, struct frontier_args *a)
{
    struct cli_parse p;
    slide_error err;
    struct stat st;
    memset(a, 0, sizeof *a);
    a->progress = -1;
    a->max_depth = -1;
    a->blank = -1;
    cli_parse_init(&p, "frontier", frontier_options, argc, argv);
    int rc = cli_parse_options(&p, help, take_option, a);
    if (rc)
        return rc;
    if (cli_parse_unused(&p, a->temp_dir ? USE_TEMP_DIR : 0, NULL))
        return EXIT_USAGE;
    if (p.nargs > 1 || (p.nargs == 0 && !a->resume))
        return cli_fail(EXIT_USAGE, "slide frontier takes one board size such as 4x4 "
                                    "(or none with --resume DIR; see --help)");
    if (a->blank >= 0 && a->goal_text)
        return cli_fail(EXIT_USAGE, "give --goal or --blank, not both");
    if (a->checkpoint && a->resume)
        return cli_fail(EXIT_USAGE, "--resume DIR goes on saving into DIR; give "
                                    "--checkpoint or --resume, not both");
    if (p.nargs == 1 && board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    if (a->resume && (rc = from_checkpoint(a, p.nargs == 1)))
        return rc;
    if (a->temp_dir && (stat(a->temp_dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
                        access(a->temp_dir, W_OK | X_OK) != 0))
        return cli_fail(EXIT_USAGE, "--temp-dir %s is not a writable directory", a->temp_dir);
    return EXIT_OK;
}

static double first_signal_at;

/* Seconds on the monotonic clock (async-signal-safe). */
static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The first SIGINT/SIGTERM stops the search at the end of the layer; a later
 * one quits at once.  A copy within a second of the first is the same
 * request: timeout(1) and process-group kills deliver the signal twice.
 */
static void on_signal(int sig)
{
    static const char msg[] = "slide: stopping at the end of this layer\n";
    if (stop_signal) {
        if (monotonic_seconds() - first_signal_at < 1.0)
            return;
        atomic_file_remove_all(); /* a checkpoint file being written */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_signal = sig;
    first_signal_at = monotonic_seconds();
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing to do: the flag is what matters */
    }
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Seconds until --max-depth if every layer grows by the last ratio. */
static double estimate_eta(const struct run_ctx *c, const struct frontier_layer *L)
{
    int target = c->a->max_depth;
    uint64_t prev = L->depth > 0 ? c->f->hist[L->depth - 1] : 0;
    if (target < 0 || prev == 0 || L->count == 0)
        return -1;
    double g = (double)L->count / (double)prev, t = L->seconds, sum = 0;
    for (int d = L->depth + 1; d <= target && sum < 1e9; d++)
        sum += (t *= g);
    return sum;
}

static void print_layer(const struct run_ctx *c, const struct frontier_layer *L)
{
    double eta = estimate_eta(c, L);
    fprintf(stderr, "slide: distance %d: %" PRIu64 " boards, %" PRIu64 " in all, %" PRIu64
            " neighbours in runs of %.2f bytes each, %.2f bytes/board, %.2f s (%.2f M "
            "boards/s)%s", L->depth, L->count, L->cumulative, L->candidates,
            L->candidates ? (double)L->run_bytes / (double)L->candidates : 0.0,
            L->count ? (double)L->bytes / (double)L->count : 0.0, L->seconds,
            L->seconds > 0 ? (double)L->count / L->seconds / 1e6 : 0.0,
            c->f->on_disk ? ", disk" : "");
    if (L->passes > 1)
        fprintf(stderr, ", %d passes", L->passes);
    if (eta >= 0)
        fprintf(stderr, ", ETA %.0f s", eta);
    fputc('\n', stderr);
}

/* Save a checkpoint; on failure err says why and save_failed is set. */
static int save(struct run_ctx *c, slide_error *err)
{
    uint64_t bytes;
    double t0 = omp_get_wtime();
    int rc = fcheckpoint_save(c->dir, c->f, c->goal, &bytes, err);
    if (rc) {
        c->save_failed = 1;
        return rc;
    }
    c->save_failed = 0;
    if (c->progress)
        cli_note("checkpoint at distance %d saved in %s: %.1f MB in %.2f s\n",
                c->f->depth, c->dir, (double)bytes / 1e6, omp_get_wtime() - t0);
    return SLIDE_OK;
}

static int on_layer(const struct frontier_layer *L, void *ctx)
{
    struct run_ctx *c = ctx;
    slide_error err;
    if (c->progress)
        print_layer(c, L);
    if (c->dir && save(c, &err)) /* the search goes on; the last one says so at the end */
        cli_note("warning: checkpoint of distance %d not saved: %s\n",
                c->f->depth, err.msg);
    return stop_signal != 0;
}

/* Lock the checkpoint directory; load a checkpoint when resuming. */
static int start(const struct frontier_args *a, struct run_ctx *c, struct frontier_search *f,
                 int *lock_fd)
{
    slide_error err;
    int rc;
    c->dir = a->checkpoint ? a->checkpoint : a->resume;
    if (!c->dir)
        return EXIT_OK;
    if (a->resume && !fcheckpoint_exists(a->resume))
        return cli_fail(EXIT_FAIL, "%s holds no frontier checkpoint (no %s/state)",
                        a->resume, a->resume);
    /* lock first: a symlink or a directory in use is refused before reading */
    if ((rc = fcheckpoint_open(c->dir, lock_fd, &err)))
        return cli_fail_lib(rc, &err);
    if (a->checkpoint && fcheckpoint_exists(a->checkpoint))
        return cli_fail(EXIT_FAIL, "%s already holds a checkpoint; continue it with "
                        "--resume %s, or remove the directory first", a->checkpoint,
                        a->checkpoint);
    if (a->resume) {
        if ((rc = fcheckpoint_load(a->resume, f, c->goal, a->max_memory, &err)))
            return cli_fail_lib(rc, &err);
        cli_note("resuming %s at distance %d%s: %" PRIu64 " boards so far, "
                "%.1f s of search\n", a->resume, f->depth, f->complete ? " (complete)" : "",
                f->reached, f->seconds);
    }
    catch_signals();
    return EXIT_OK;
}

/* Up to SHOW_BOARDS boards of stream s, smallest key first. */
static void print_boards(FILE *out, const char *pre, const struct frontier_search *f,
                         const struct fstream *s)
{
    slide_error err;
    struct board b;
    size_t klen = f->moved ? frontier_key_bytes(f, f->depth) : sizeof(fkey);
    unsigned char *keys = malloc(FSTREAM_BLOCK * klen);
    int len = !keys || !s->nblocks ? 0
              : f->moved       ? fstream_read_block_bytes(s, 0, keys, klen, &err)
                               : fstream_read_block(s, 0, (fkey *)keys, &err);
    int shown = 0;
    size_t line_len = 16 + 8 * (size_t)f->ks.rows * (size_t)f->ks.cols;
    char *line = malloc(line_len);
    if (len > 0 && line && board_alloc(&b, f->ks.rows, f->ks.cols, &err) == SLIDE_OK) {
        for (; shown < len && shown < SHOW_BOARDS; shown++) {
            if (f->moved)
                fmoved_board(&f->ms, keys + (size_t)shown * klen, &b);
            else
                fkey_board(&f->ks, ((fkey *)keys)[shown], &b);
            board_format(&b, line, line_len);
            fprintf(out, "%s  %s\n", pre, line);
        }
        board_free(&b);
    }
    free(line);
    /* A cut list says so, as slide bfs does, so it is not read as complete. */
    if (shown > 0 && s->count > (uint64_t)shown)
        fprintf(out, "%s  ... %" PRIu64 " more\n", pre, s->count - (uint64_t)shown);
    free(keys);
}

static void print_summary(FILE *out, const char *pre, const struct frontier_search *f,
                          int threads)
{
    char num[48];
    const struct fstream *last = frontier_last_layer(f);
    if (f->complete) {
        fprintf(out, "%sboards reached: %" PRIu64 "; expected %s = %s: %s\n", pre,
                f->reached, f->ks.path_graph ? "n (a path)" : "(RC)!/2",
                fkey_format(f->ks.size, num), (fkey)f->reached == f->ks.size ? "ok"
                                                                              : "MISMATCH");
        fprintf(out, "%sradius: %d\n", pre, frontier_radius(f));
        fprintf(out, "%santipodes: %" PRIu64 "\n", pre, last->count);
    } else {
        fprintf(out, "%sboards reached: %" PRIu64 " (of %s)\n", pre, f->reached,
                f->ks.size ? fkey_format(f->ks.size, num) : "(RC)!/2");
        fprintf(out, "%ssearched to distance %d (the search goes on: radius > %d); "
                "first boards at distance %d:\n", pre, f->depth, f->depth - 1, f->depth);
    }
    print_boards(out, pre, f, last);
    /* a layer's figures: its keys' bytes, the index included */
    if (last->count)
        fprintf(out, "%slayer %d: %.3f bytes per board (%" PRIu64 " bytes of keys, "
                "index included)\n", pre, f->complete ? f->depth - 1 : f->depth,
                (double)(last->bytes + last->nblocks * sizeof(struct fstream_block)) /
                    (double)last->count,
                last->bytes + (uint64_t)last->nblocks * sizeof(struct fstream_block));
    fprintf(out, "%swall %.3f s, threads %d, peak memory %.1f MB, %.2f M boards/s\n", pre,
            f->seconds, threads, provenance_peak_rss() / 1e6,
            f->seconds > 0 ? (double)f->reached / f->seconds / 1e6 : 0.0);
}

static int report(const struct frontier_args *a, const struct board *goal,
                  const struct frontier_search *f, int threads)
{
    size_t glen = board_format(goal, NULL, 0) + 1;
    char *gtext = malloc(glen);
    if (!gtext)
        return cli_fail(EXIT_FAIL, "out of memory");
    board_format(goal, gtext, glen);
    FILE *info = a->format == REPORT_CSV ? stderr : stdout;
    if (a->provenance)
        provenance_write(stdout, cli_provenance_prefix(a->format), a->command, threads,
                         f->seconds);
    const char *pre = a->format == REPORT_TEX ? "% " : a->format == REPORT_MD ? "- " : "";
    /* the metric named only when it is not the default: STM's line as before */
    const char *metric = f->metric == METRIC_MTM ? ", multi-tile metric (mtm)" : "";
    if (f->moved)
        fprintf(info, "%sboard %dx%d, goal %s, frontier search%s, moved keys of %zu bytes\n",
                pre, a->rows, a->cols, gtext, metric, frontier_key_bytes(f, f->depth));
    else
        fprintf(info, "%sboard %dx%d, goal %s, frontier search%s, %d-bit keys\n", pre,
                a->rows, a->cols, gtext, metric, f->ks.bits);
    free(gtext);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    int last = f->complete ? f->depth - 1 : f->depth;
    cli_histogram(a->format, a->rows, a->cols, f->hist, last);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    print_summary(info, pre, f, threads);
    int rc = cli_finish_stdout();
    if (!rc && f->complete && f->ks.size && (fkey)f->reached != f->ks.size)
        rc = cli_fail(EXIT_FAIL, "the search reached a different number of boards than "
                                 "the parity theorem predicts");
    return rc;
}

static int run(const struct frontier_args *a, const struct board *goal)
{
    slide_error err;
    struct frontier_search f;
    int lock_fd = -1, rc;
    if ((rc = frontier_init_metric(&f, goal, a->keys, a->metric, a->temp_dir, &err)))
        return cli_fail_lib(rc, &err);
    struct run_ctx c = {.a = a, .f = &f, .goal = goal,
                        .progress = cli_progress_wanted(a->progress)};
    int threads = a->threads > 0 ? a->threads : omp_get_max_threads();
    if ((a->summary && (rc = cli_summary_check(a->summary))) ||
        (rc = start(a, &c, &f, &lock_fd))) {
        frontier_free(&f);
        if (lock_fd >= 0)
            close(lock_fd);
        return rc;
    }
    /* layer 0: a directory that cannot take a checkpoint fails now, not
     * after the first long layer */
    if (a->checkpoint && save(&c, &err))
        rc = cli_fail(EXIT_FAIL, "no checkpoint can be saved in %s, so the search does not "
                      "start: %s", c.dir, err.msg);
    struct frontier_options o = {threads, a->max_depth, a->buffer, a->max_memory,
                                 a->max_disk, on_layer, &c, a->passes};
    int lib = rc ? SLIDE_OK : frontier_run(&f, &o, &err);
    /* one rule with slide bfs: a stop whose checkpoint failed is a failure
     * (the work is lost); a finished search is a success even when its
     * final checkpoint failed (the result is complete, a warning says so) */
    if (rc)
        ;
    else if (lib == SLIDE_EINTR && c.dir && c.save_failed)
        rc = cli_fail(EXIT_FAIL, "stopped by %s after distance %d, but the checkpoint was "
                      "not saved", stop_signal == SIGINT ? "SIGINT" : "SIGTERM", f.depth);
    else if (lib == SLIDE_EINTR)
        rc = cli_fail(128 + stop_signal, "stopped by %s after distance %d%s%s",
                      stop_signal == SIGINT ? "SIGINT" : "SIGTERM", f.depth,
                      c.dir ? "; checkpoint saved in " : "", c.dir ? c.dir : "");
    else if (lib)
        rc = cli_fail_lib(lib, &err);
    else if (!(rc = report(a, goal, &f, threads)) && a->summary) {
        struct cli_summary sum = {"frontier", goal, f.hist, f.complete ? f.depth - 1 : f.depth,
                                  f.complete, a->command, NULL, 0, f.metric};
        rc = cli_summary_write(a->summary, &sum);
    }
    if (!rc && c.save_failed)
        cli_note("warning: the search finished but its final checkpoint "
                "(distance %d) was not saved (the result is complete)\n", f.depth);
    frontier_free(&f);
    if (lock_fd >= 0)
        close(lock_fd);
    return rc;
}

int cmd_frontier(int argc, char **argv)
{
    struct frontier_args a;
    char command[sizeof a.command];
    cli_command_line("frontier", argc, argv, command, sizeof command);
    int rc = parse_args(argc, argv, &a);
    memcpy(a.command, command, sizeof command);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board goal = {0};
    if (a.blank >= a.rows * a.cols)
        return cli_fail(EXIT_USAGE, "--blank %d: a %dx%d board has cells 0 to %d", a.blank,
                        a.rows, a.cols, a.rows * a.cols - 1);
    if ((rc = cli_goal(a.blank >= 0 ? NULL : a.goal_text, a.rows, a.cols, &goal)))
        return rc;
    if (a.blank >= 0) { /* the standard goal with its blank swapped onto the cell */
        int n = a.rows * a.cols;
        goal.cells[n - 1] = goal.cells[a.blank];
        goal.cells[a.blank] = 0;
    }
    rc = run(&a, &goal);
    board_free(&goal);
    return rc;
}
