/*
 * cmd_pdb.c - `slide pdb build|info|verify`: pattern databases.
 */
#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_pdb_run.h"
#include "cmd_pdb_stats.h"
#include "slide/atomic_file.h"
#include "slide/file_kind.h"
#include "slide/pdb_build.h"
#include "slide/pdb_checkpoint.h"
#include "slide/pdb_file.h"
#include "slide/provenance.h"

static const char help[] =
    "usage: slide pdb build RxC --pattern TILES [--additive|--plain|--mtm] [--goal G]\n"
    "                       -o FILE\n"
    "       slide pdb build RxC --partition NAME [--goal G] -o DIR\n"
    "       slide pdb info FILE\n"
    "       slide pdb verify FILE [--max-memory BYTES]\n"
    "       slide pdb stats RxC --h H [--samples N] [--seed S] [--exact] [--goal G]\n"
    "       slide pdb predict RxC --h H BOARD --length L [--samples N] [--seed S]\n"
    "       slide pdb predict RxC --h H - | @FILE [--samples N] [--seed S] [--exact]\n"
    "Examples:\n"
    "  slide pdb build 4x4 --partition 7-8 -o pdb78    # the two 15-puzzle tables\n"
    "  slide solve --h pdb:pdb78 --reflect - < data/korf100.txt\n"
    "build: the pattern database of a set of tiles, by a layered breadth-first\n"
    "search over (placement of the tiles, blank cell) on the two-bit store of\n"
    "slide bfs, written through the database container (see slide db --help):\n"
    "the header holds board, goal, pattern, kind and the histogram of values,\n"
    "every block its CRC-32.  Values take 4 bits when the largest is at most 14,\n"
    "else a byte; a placement no board reaches holds 15 (255).\n"
    "  --pattern TILES  tiles of the pattern: 1,2,3 or ranges 1-7 (no empty item)\n"
    "  --additive       (default) only moves of pattern tiles count; the value of\n"
    "                   a placement is the least over the blank's cells and is\n"
    "                   stored without the blank; values of disjoint patterns add\n"
    "                   up (Korf and Felner 2002).  The search starts from the\n"
    "                   goal placement with the blank on the goal's blank cell\n"
    "                   and every free cell the blank reaches from there without\n"
    "                   moving a pattern tile (file format 3; tables of format 2\n"
    "                   seeded the blank on any free cell, too low: rebuild them)\n"
    "  --plain          every move counts; stored per blank cell; max-combined\n"
    "  --mtm            as --plain in the multi-tile metric: a move jumps the\n"
    "                   blank to any cell of its row or column, the cells between\n"
    "                   shifting one cell (kind mtm); for solve --metric mtm,\n"
    "                   where tables of kind mtm are maxed, never summed (one\n"
    "                   move may slide tiles of several patterns)\n"
    "  --partition NAME the standard additive tile sets for the standard goal,\n"
    "                   each written to DIR/NAME.K.pdb: on 4x4 7-8, 6-6-3, 5-5-5\n"
    "                   (Felner, Korf and Hanan 2004), on 5x5 6-6-6-6 (Korf and\n"
    "                   Felner 2002); the tiles are those papers' sets moved to\n"
    "                   slide's goal (blank last) by the 180-degree turn t -> n - t\n"
    "  --goal G         the goal board (default: 1..n-1, blank last)\n"
    "  -o, --output F   the file (--pattern) or directory (--partition; not a\n"
    "                   link); an existing table file must be a pattern database\n"
    "                   (or empty); all are checked before the first build\n"
    "  --threads N      threads (default: all cores); the file does not depend on N\n"
    "  --max-memory B   refuse a build needing more (suffix K, M, G)\n"
    "  --level N        zlib level 0..9 (default 1)\n"
    "  --progress       one line per layer on standard error (default on a TTY):\n"
    "                   'pdb: cost D: S states, V values (cumulative C of E), T s'\n"
    "  --checkpoint DIR save the build into DIR (created if missing; locked)\n"
    "                   every --checkpoint-every minutes (default 10) and at\n"
    "                   SIGINT/SIGTERM; removed once the table is written\n"
    "  --resume DIR     continue the build saved in DIR (give the same build\n"
    "                   arguments; a checkpoint of another build, or one whose\n"
    "                   state disagrees with its files, is refused); with\n"
    "                   --partition the tables before it must exist and be\n"
    "                   that partition's (their headers' board, goal, kind\n"
    "                   and tiles are checked)\n"
    "  --checkpoint-every M  minutes between checkpoints\n"
    "  Output: one line per table on standard output: 'FILE: KIND, tiles T,\n"
    "  E entries, max M, B bytes (E bits per entry), build S s'; for --partition\n"
    "  also the --h argument that sums the tables.\n"
    "  SIGINT or SIGTERM during a build: without a checkpoint directory, one\n"
    "  line says which table was not written (and, with --partition, that the\n"
    "  ones before it are complete); no partial file or temporary remains.  With\n"
    "  one, the build stops at the end of the layer, saves a checkpoint, says\n"
    "  where, and exits 128 + the signal; a second signal stops at once.\n"
    "info: the header (no payload read): board, goal, kind, seed, tiles, entries,\n"
    "encoding, checksums, then the table 'value count' of the histogram.\n"
    "verify: load every block (CRCs, sizes, histogram), then recompute every\n"
    "value by an independent layered search over (placement, blank cell) with a\n"
    "byte per state (no code of the build), from the abstract goal alone (the\n"
    "goal placement, the blank on the goal's blank cell), and compare.  Memory:\n"
    "about n bytes per placement; refused up front above what is available.\n"
    "stats: the distribution of heuristic H (any --h of slide heuristic: pdb:A+B,\n"
    "pdbr:A+B for the mirrored max, manhattan, lc ...) over the solvable boards,\n"
    "from N boards drawn uniformly (slide scramble's draw; the counts depend on\n"
    "S and N only, never on --threads), with 95 % intervals: Wilson score for\n"
    "each probability, normal for the mean.  --exact (manhattan only, at most 16\n"
    "cells): every board counted by a dynamic programme instead.  Output: the\n"
    "table 'value count probability low high', then the mean [low, high] (CSV:\n"
    "a row 'mean,,M,LOW,HIGH'); for manhattan also the closed-form mean.\n"
    "predict: the IDA* nodes H predicts for a board of optimal length L by the\n"
    "formula of Korf, Reid and Edelkamp (2001): for each threshold t = h(BOARD),\n"
    "h + 2, ..., L, the sum over depths i and blank cells c of the nodes of the\n"
    "brute-force tree (parent pruning, from BOARD's blank cell) at depth i on\n"
    "c times Pr(h <= t - i | blank on c) from the distribution of stats;\n"
    "generated nodes likewise with the nodes' children.  One line per threshold\n"
    "and one for all of them ('threshold all'), each with its sampling standard\n"
    "error (se); '-' (standard input) or @FILE reads lines 'LENGTH BOARD' (LENGTH\n"
    "0..1000; blank and # lines skipped; at most 16 MiB a line, 256 MiB in all),\n"
    "every one checked before anything is printed: a bad line is refused as\n"
    "'line N: ...', an input without one as 'standard input holds no board'.\n"
    "  --h H           the heuristic (stats, predict)\n"
    "  --samples N     boards drawn (default 1000000)\n"
    "  --seed S        the generator's seed (default 1)\n"
    "  --exact         the exact Manhattan distribution (no sampling)\n"
    "  --length L      predict: the optimal length of BOARD\n"
    "  --format F      text (default) or csv\n"
    "  --provenance    start the output with the provenance block ('# ' lines)\n"
    "Exit status: 0 ok, 1 failure (memory, files, a wrong value, a table of an\n"
    "old format), 2 bad arguments, 3 predict: a board that cannot reach the goal,\n"
    "130 (SIGINT) or 143 (SIGTERM) a build stopped.\n";

/* The partitions, in slide's standard goal (tiles turned by t -> n - t). */
static const struct partition {
    const char *name;
    int rows, cols;
    const char *sets[4];
} partitions[] = {
    {"7-8", 4, 4, {"9-15", "1-8"}},
    {"6-6-3", 4, 4, {"3,4,7,8,11,12", "1,2,5,6,9,10", "13,14,15"}},
    {"5-5-5", 4, 4, {"9,10,13,14,15", "4,7,8,11,12", "1,2,3,5,6"}},
    {"6-6-6-6", 5, 5, {"13,18,19,20,23,24", "11,12,16,17,21,22", "4,5,9,10,14,15",
                       "1,2,3,6,7,8"}},
};
#define NPARTITIONS (int)(sizeof partitions / sizeof partitions[0])

struct pdb_args {
    const char *action, *dims, *tiles, *partition, *goal, *out, *file;
    enum pdb_kind kind;
    int kind_set;
    int threads, level, progress;
    uint64_t max_memory;
    const char *checkpoint, *resume;
    double every;
    struct pdb_stats_args st;
    int format_set;
};

/* Contexts that use an option (cli.h): the action, and --pattern. */
enum { USE_BUILD = 1, USE_VERIFY = 2, USE_PATTERN = 4, USE_STATS = 8, USE_PREDICT = 16 };

static const struct cli_option pdb_options[] = {
    {"pattern", 0, CLI_VALUE, 'P', USE_BUILD, "pdb build", NULL},
    {"partition", 0, CLI_VALUE, 'Q', USE_BUILD, "pdb build", NULL},
    {"additive", 0, CLI_FLAG, 'A', USE_PATTERN, "pdb build --pattern", NULL},
    {"plain", 0, CLI_FLAG, 'L', USE_PATTERN, "pdb build --pattern", "additive"},
    {"mtm", 0, CLI_FLAG, 'T', USE_PATTERN, "pdb build --pattern", "additive"},
    {"goal", 0, CLI_VALUE, 'g', USE_BUILD | USE_STATS, "pdb build, stats or predict", NULL},
    {"h", 0, CLI_VALUE, 'H', USE_STATS, "pdb stats or pdb predict", NULL},
    {"samples", 0, CLI_VALUE, 'n', USE_STATS, "pdb stats or pdb predict", NULL},
    {"seed", 0, CLI_VALUE, 's', USE_STATS, "pdb stats or pdb predict", NULL},
    {"exact", 0, CLI_FLAG, 'x', USE_STATS, "pdb stats or pdb predict", NULL},
    {"length", 0, CLI_VALUE, 'd', USE_PREDICT, "pdb predict BOARD", NULL},
    {"format", 0, CLI_VALUE, 'f', USE_STATS, "pdb stats or pdb predict", NULL},
    {"provenance", 0, CLI_FLAG, 'r', USE_STATS, "pdb stats or pdb predict", NULL},
    {"output", 'o', CLI_VALUE, 'o', USE_BUILD, "pdb build", NULL},
    {"threads", 't', CLI_VALUE, 't', USE_BUILD | USE_VERIFY | USE_STATS,
     "pdb build, verify, stats or predict", NULL},
    {"level", 0, CLI_VALUE, 'l', USE_BUILD, "pdb build", NULL},
    {"max-memory", 0, CLI_VALUE, 'm', USE_BUILD | USE_VERIFY, "pdb build or pdb verify",
     NULL},
    {"progress", 0, CLI_FLAG, 'p', USE_BUILD, "pdb build", NULL},
    {"checkpoint", 0, CLI_VALUE, 'c', USE_BUILD, "pdb build", NULL},
    {"resume", 0, CLI_VALUE, 'R', USE_BUILD, "pdb build", NULL},
    {"checkpoint-every", 0, CLI_VALUE, 'e', USE_BUILD, "pdb build", NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int take_option(int c, const char *v, void *ctx)
{
    struct pdb_args *a = ctx;
    long n;
    switch (c) {
    case 'P': a->tiles = v; return EXIT_OK;
    case 'Q': a->partition = v; return EXIT_OK;
    case 'A':
    case 'L':
    case 'T':
        a->kind = c == 'A' ? PDB_ADDITIVE : c == 'L' ? PDB_PLAIN : PDB_MTM;
        a->kind_set = 1;
        return EXIT_OK;
    case 'g': a->goal = v; return EXIT_OK;
    case 'o': a->out = v; return EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'H': a->st.heur = v; return EXIT_OK;
    case 'x': a->st.exact = 1; return EXIT_OK;
    case 'r': a->st.provenance = 1; return EXIT_OK;
    case 'n':
        if (cli_int("--samples", v, 1, 1000000000000L, &n))
            return EXIT_USAGE;
        a->st.samples = (uint64_t)n;
        return EXIT_OK;
    case 's':
        if (cli_int("--seed", v, 0, 0x7fffffffffffffffL, &n))
            return EXIT_USAGE;
        a->st.seed = (uint64_t)n;
        return EXIT_OK;
    case 'd':
        if (cli_int("--length", v, 0, 1000, &n))
            return EXIT_USAGE;
        a->st.length = n;
        return EXIT_OK;
    case 'f':
        if (strcmp(v, "text") && strcmp(v, "csv"))
            return cli_fail(EXIT_USAGE, "--format must be text or csv, not \"%s\"", v);
        a->st.csv = !strcmp(v, "csv");
        return EXIT_OK;
    case 'l':
        if (cli_int("--level", v, 0, 9, &n))
            return EXIT_USAGE;
        a->level = (int)n;
        return EXIT_OK;
    case 'm': return cli_bytes("--max-memory", v, &a->max_memory) ? EXIT_USAGE : EXIT_OK;
    case 'p': a->progress = 1; return EXIT_OK;
    case 'c': a->checkpoint = v; return EXIT_OK;
    case 'R': a->resume = v; return EXIT_OK;
    case 'e':
        if (cli_int("--checkpoint-every", v, 0, 100000, &n))
            return EXIT_USAGE;
        a->every = 60.0 * (double)n;
        return EXIT_OK;
    }
    return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct pdb_args *a)
{
    struct cli_parse p;
    memset(a, 0, sizeof *a);
    a->progress = -1; /* --progress's default: on a terminal (--help) */
    a->level = -1;
    a->st.samples = 1000000;
    a->st.seed = 1;
    a->st.length = -1;
    a->every = 600;
    cli_parse_init(&p, "pdb", pdb_options, argc, argv);
    int rc = cli_parse_options(&p, help, take_option, a);
    if (rc)
        return rc;
    int args = p.nargs;
    a->action = args > 0 ? p.args[0] : "";
    int build = !strcmp(a->action, "build"), stats = !strcmp(a->action, "stats");
    int predict = !strcmp(a->action, "predict");
    if (args > 0 && cli_subcommand("pdb", a->action, "build, info, predict, stats, verify"))
        return EXIT_USAGE;
    if (args == 2 && build)
        a->dims = p.args[1];
    else if ((args == 2 && stats) || (args == 3 && predict)) {
        a->st.dims = p.args[1];
        a->st.board = predict ? p.args[2] : NULL;
    }
    else if (args == 2 && (!strcmp(a->action, "info") || !strcmp(a->action, "verify")))
        a->file = p.args[1];
    else
        return cli_fail(EXIT_USAGE, "usage: slide pdb build RxC ..., slide pdb info FILE, "
                                    "slide pdb verify FILE, slide pdb stats RxC --h H or "
                                    "slide pdb predict RxC --h H BOARD (see slide pdb --help)");
    a->st.goal = a->goal;
    a->st.threads = a->threads;
    unsigned active = build ? USE_BUILD | (a->tiles ? USE_PATTERN : 0)
                      : !strcmp(a->action, "verify") ? USE_VERIFY
                      : stats ? USE_STATS
                      : predict ? USE_STATS | (strcmp(a->st.board, "-") && a->st.board[0] != '@'
                                                   ? USE_PREDICT : 0)
                                : 0;
    char now[32];
    snprintf(now, sizeof now, "pdb %s", a->action);
    return cli_parse_unused(&p, active, now) ? EXIT_USAGE : EXIT_OK;
}

static void on_layer(const struct pdb_layer *l, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "pdb: cost %d: %" PRIu64 " states, %" PRIu64 " values (cumulative %"
            PRIu64 " of %" PRIu64 "), %.2f s\n", l->depth, l->states, l->values,
            l->cumulative, l->entries, l->elapsed);
}

/* Without --progress: one line once the build has started (after its first
 * layer, so after a checkpoint was accepted), so that a log of a build of
 * minutes is not silent; the table's own line follows when it is written. */
struct quiet_start {
    const char *path, *tiles;
    int said;
};

static void on_first_layer(const struct pdb_layer *l, void *ctx)
{
    struct quiet_start *q = ctx;
    if (q->said++)
        return;
    cli_note("pdb build: building %s (tiles %s), cost %d reached after %.2f s; "
            "--progress for a line per layer\n", q->path, q->tiles, l->depth, l->elapsed);
}

/*
 * SIGINT/SIGTERM during a build: say what was stopped and what remains,
 * remove the temporary of a table being written, exit 128 + signal.  The
 * note is prepared before each table (global: a signal handler can reach
 * nothing else); the handler only writes and unlinks (async-signal-safe).
 */
static char stop_note[2400];
static volatile sig_atomic_t stop_len;

static volatile sig_atomic_t checkpointing; /* a checkpoint directory is in use */

static void on_stop(int sig)
{
    static const char head[] = "slide: pdb build stopped by ";
    if (checkpointing && !pdb_stop_signal) { /* stop at the layer's end, saving */
        pdb_stop_signal = sig;
        return;
    }
    const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    atomic_file_remove_all();
    ssize_t ignored = write(STDERR_FILENO, head, sizeof head - 1);
    ignored = write(STDERR_FILENO, name, strlen(name));
    ignored = write(STDERR_FILENO, stop_note, (size_t)stop_len);
    (void)ignored;
    _exit(128 + sig);
}

/* The note for a stop while path is built; done names the tables before it. */
static void stop_prepare(const char *path, int done)
{
    int n = snprintf(stop_note, sizeof stop_note, ": no table was written to %s%s\n", path,
                     done == 0   ? ""
                     : done == 1 ? " (the table before it is complete)"
                                 : " (the tables before it are complete)");
    stop_len = n < 0 ? 0 : n >= (int)sizeof stop_note ? (int)sizeof stop_note - 1 : n;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Build one table of tiles and write it to path. */
static int build_one(const struct pdb_args *a, const struct board *goal, const char *tiles,
                     const char *path, int done, int resume)
{
    int list[PATTERN_MAX_TILES + 1], k;
    struct pattern pat;
    struct pdb_table t;
    slide_error err;
    uint64_t bytes = 0;
    int rc = pattern_parse_tiles(tiles, list, PATTERN_MAX_TILES + 1, &k, &err);
    if (!rc)
        rc = pattern_init(&pat, goal, list, k, &err);
    if (!rc)
        rc = atomic_file_check(path, &db_pdb_file_kind, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    stop_prepare(path, done);
    int progress = cli_progress_wanted(a->progress);
    struct quiet_start q = {path, tiles, 0};
    struct pdb_build_options o = {a->threads, a->max_memory,
                                  progress ? on_layer : on_first_layer, progress ? NULL : &q};
    struct pdb_ckpt ck = {a->resume ? a->resume : a->checkpoint, resume, a->every};
    checkpointing = ck.dir != NULL;
    double t0 = omp_get_wtime();
    if ((rc = pdb_run_cli(&pat, a->kind, &o, &ck, &t)) != EXIT_OK)
        return rc;
    double t1 = omp_get_wtime();
    rc = pdb_save(path, &t, a->level, a->threads, &bytes, &err);
    signal(SIGINT, SIG_DFL); /* the note no longer holds: path is written */
    signal(SIGTERM, SIG_DFL);
    double t2 = omp_get_wtime();
    if (!rc) {
        char tl[256];
        pattern_format_tiles(&pat, tl, sizeof tl);
        if (ck.dir)
            pdb_checkpoint_remove(ck.dir);
        printf("%s: %s, tiles %s, %" PRIu64 " entries, max %d, %" PRIu64 " bytes (%d bits "
               "per entry), build %.2f s, write %.2f s, peak RSS %.0f MB\n", path,
               pdb_kind_name(t.kind), tl, t.entries, t.max, bytes,
               pdb_file_encoding(&t), t1 - t0, t2 - t1, provenance_peak_rss() / 1e6);
        fflush(stdout); /* a line per table as it is written, also into a pipe */
    }
    pdb_table_free(&t);
    return rc ? cli_fail_lib(rc, &err) : EXIT_OK;
}

/*
 * The directory of --partition: a real directory (never a symbolic link,
 * which would put the tables elsewhere) whose tables can all be written,
 * checked before any build; created only then when it does not exist.
 */
static int partition_dir(const char *dir, char paths[4][1024])
{
    struct stat sb;
    slide_error err;
    if (lstat(dir, &sb) != 0) {
        if (errno != ENOENT)
            return cli_fail(EXIT_FAIL, "cannot examine %s: %s", dir, strerror(errno));
        /* absent: its name must be one that could be written */
        if (atomic_file_check(dir, NULL, &err))
            return cli_fail_lib(SLIDE_EIO, &err);
        if (mkdir(dir, 0755) != 0)
            return cli_fail(EXIT_FAIL, "cannot create directory %s: %s", dir,
                            strerror(errno));
        return EXIT_OK;
    }
    if (!S_ISDIR(sb.st_mode))
        return cli_fail(EXIT_FAIL, "cannot write into %s: it is %s; --partition writes "
                        "into a directory (not a link to one)", dir,
                        file_kind_name(sb.st_mode));
    for (int j = 0; j < 4 && paths[j][0]; j++)
        if (atomic_file_check(paths[j], &db_pdb_file_kind, &err))
            return cli_fail_lib(SLIDE_EIO, &err);
    return EXIT_OK;
}

/*
 * A table kept by --partition --resume: its header (db_open_pdb; the
 * payload is not read) must be the additive table of tiles[0..k-1] for
 * goal, else the partition's sum would silently use another table.
 * Refused in one line naming the file and what differs.
 */
static int kept_table(const char *path, int index, const struct partition *p,
                      const struct board *goal, const int *tiles, int k)
{
    struct db db;
    slide_error err;
    char what[300] = "";
    if (db_open_pdb(path, &db, &err))
        return cli_fail_file(EXIT_FAIL, path, &err);
    int n = goal->rows * goal->cols, same_tiles = db.pdb.k == k;
    for (int i = 0; same_tiles && i < k; i++)
        same_tiles = db.pdb.tiles[i] == tiles[i];
    if (db.rows != goal->rows || db.cols != goal->cols)
        snprintf(what, sizeof what, "is for %dx%d boards, not %dx%d", db.rows, db.cols,
                 goal->rows, goal->cols);
    else if (db.pdb.kind != PDB_ADDITIVE)
        snprintf(what, sizeof what, "is a %s table, not additive",
                 pdb_kind_name((enum pdb_kind)db.pdb.kind));
    else if (!same_tiles) {
        size_t m = (size_t)snprintf(what, sizeof what, "has tiles ");
        for (int i = 0; i < db.pdb.k && m < sizeof what; i++)
            m += (size_t)snprintf(what + m, sizeof what - m, "%s%d", i ? "," : "",
                                  db.pdb.tiles[i]);
        if (m < sizeof what)
            snprintf(what + m, sizeof what - m, ", not %s", p->sets[index]);
    } else
        for (int c = 0; c < n && !what[0]; c++)
            if (db.pdb.goal[c] != goal->cells[c])
                snprintf(what, sizeof what, "was built for another goal (cell %d holds "
                         "%d, not %d)", c, db.pdb.goal[c], goal->cells[c]);
    db_free(&db);
    if (what[0])
        return cli_fail(EXIT_FAIL, "cannot resume: %s %s, so it is not table %d of "
                        "--partition %s; remove it (or put the right table back)", path,
                        what, index + 1, p->name);
    return EXIT_OK;
}

/*
 * --partition --resume DIR: *from receives the table whose build DIR holds;
 * the tables before it must exist and be that partition's (kept_table).
 * Refused in one line otherwise.
 */
static int resumed_table(const struct pdb_args *a, const struct partition *p,
                         const struct board *goal, char paths[4][1024], int *from)
{
    char what[1024], tiles[256];
    slide_error err;
    if (pdb_checkpoint_describe(a->resume, what, sizeof what, tiles, sizeof tiles, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    for (int j = 0; j < 4 && p->sets[j]; j++) {
        int list[PATTERN_MAX_TILES + 1], k;
        char mine[256];
        size_t m = 0;
        if (pattern_parse_tiles(p->sets[j], list, PATTERN_MAX_TILES + 1, &k, &err))
            continue;
        for (int i = 0; i < k && m < sizeof mine; i++) /* as pattern_format_tiles */
            m += (size_t)snprintf(mine + m, sizeof mine - m, "%s%d", i ? "," : "", list[i]);
        if (strcmp(mine, tiles))
            continue;
        for (int i = 0; i < j; i++) {
            int ti[PATTERN_MAX_TILES + 1], tk, rc;
            if (access(paths[i], F_OK) != 0)
                return cli_fail(EXIT_FAIL, "--resume %s continues table %d of %s, but table "
                                "%d (%s) is missing", a->resume, j + 1, p->name, i + 1,
                                paths[i]);
            if (pattern_parse_tiles(p->sets[i], ti, PATTERN_MAX_TILES + 1, &tk, &err))
                return cli_fail_lib(SLIDE_EINVAL, &err);
            if ((rc = kept_table(paths[i], i, p, goal, ti, tk)))
                return rc;
        }
        *from = j;
        return EXIT_OK;
    }
    return cli_fail(EXIT_FAIL, "checkpoint %s is of another build (%s), not of a table of "
                    "--partition %s", a->resume, what, p->name);
}

static int build_partition(const struct pdb_args *a, const struct board *goal)
{
    const struct partition *p = NULL;
    for (int i = 0; i < NPARTITIONS; i++)
        if (!strcmp(partitions[i].name, a->partition))
            p = &partitions[i];
    if (!p)
        return cli_fail(EXIT_USAGE, "unknown --partition \"%s\" (known: 7-8, 6-6-3, 5-5-5 "
                                    "on 4x4; 6-6-6-6 on 5x5)", a->partition);
    if (p->rows != goal->rows || p->cols != goal->cols)
        return cli_fail(EXIT_USAGE, "--partition %s is for %dx%d boards, not %dx%d", p->name,
                        p->rows, p->cols, goal->rows, goal->cols);
    if (a->kind_set && a->kind != PDB_ADDITIVE)
        return cli_fail(EXIT_USAGE, "--partition builds additive tables; --%s is not "
                                    "allowed with it", pdb_kind_name(a->kind));
    char paths[4][1024] = {""}, sum[4200] = "", out[900];
    /* "DIR/" names DIR: without the slash, lstat sees a link as a link */
    size_t n = strlen(a->out);
    while (n > 1 && a->out[n - 1] == '/')
        n--;
    if (n >= sizeof out)
        return cli_fail(EXIT_USAGE, "-o: the directory name has %zu bytes, at most %zu are "
                        "allowed", n, sizeof out - 1);
    snprintf(out, sizeof out, "%.*s", (int)n, a->out);
    for (int j = 0; j < 4 && p->sets[j]; j++)
        snprintf(paths[j], sizeof paths[j], "%s/%s.%d.pdb", out, p->name, j + 1);
    int rc = partition_dir(out, paths);
    if (rc)
        return rc;
    int from = 0; /* --resume: the table the checkpoint is of */
    if (a->resume && (rc = resumed_table(a, p, goal, paths, &from)))
        return rc;
    for (int j = 0; j < 4 && p->sets[j]; j++) {
        if (j < from)
            printf("%s: kept (complete before the checkpoint)\n", paths[j]);
        else if ((rc = build_one(a, goal, p->sets[j], paths[j], j, a->resume && j == from)))
            return rc;
        snprintf(sum + strlen(sum), sizeof sum - strlen(sum), "%s%s", j ? "+" : "",
                 paths[j]);
    }
    printf("use: --h pdb:%s\n", sum);
    return EXIT_OK;
}

static int build(const struct pdb_args *a)
{
    int rows, cols;
    struct board goal;
    slide_error err;
    if (board_parse_dims(a->dims, &rows, &cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    if (!a->out)
        return cli_fail(EXIT_USAGE, "name the output with -o FILE (or -o DIR with "
                                    "--partition)");
    if (!!a->tiles == !!a->partition)
        return cli_fail(EXIT_USAGE, "give exactly one of --pattern TILES and --partition "
                                    "NAME (see slide pdb --help)");
    if (cli_goal(a->goal, rows, cols, &goal))
        return EXIT_USAGE;
    if (a->checkpoint && a->resume && strcmp(a->checkpoint, a->resume))
        return cli_fail(EXIT_USAGE, "--resume %s continues checkpointing into %s; "
                        "--checkpoint names another directory", a->resume, a->resume);
    int rc = a->partition ? build_partition(a, &goal)
                          : build_one(a, &goal, a->tiles, a->out, 0, a->resume != NULL);
    board_free(&goal);
    return rc ? rc : cli_finish_stdout();
}

static int info(const struct pdb_args *a)
{
    struct db db;
    slide_error err;
    char goal[512];
    if (db_open_pdb(a->file, &db, &err))
        return cli_fail(EXIT_FAIL, "%s: %s", a->file, err.msg);
    board_format(&db.goal, goal, sizeof goal);
    printf("file: %s, %" PRIu64 " bytes, zlib level %d, written by slide %s (format %u)\n",
           a->file, db.file_bytes, db.level, db.tool_version, db.version);
    printf("board: %dx%d, goal %s\n", db.rows, db.cols, goal);
    printf("kind: %s\n", pdb_kind_name((enum pdb_kind)db.pdb.kind));
    printf("seed: the goal placement, the blank %s\ntiles:",
           db.pdb.kind == PDB_ADDITIVE ? "on every cell of the goal blank's region"
                                       : "on the goal's blank cell");
    for (int i = 0; i < db.pdb.k; i++)
        printf("%s%d", i ? "," : " ", db.pdb.tiles[i]);
    printf("\nentries: %" PRIu64 ", %" PRIu64 " with a value\n", db.indexes, db.reachable);
    printf("encoding: %d, %s\n", db.encoding, db.encoding == DB_ENC_NIBBLE
                                                    ? "4 bits per entry (15: no value)"
                                                    : "1 byte per entry (255: no value)");
    printf("payload: %" PRIu64 " bytes, CRC-32 %08x, %u block%s\n", db.payload_bytes,
           db.payload_crc, db.nblocks, db.nblocks == 1 ? "" : "s");
    printf("max: %d\nvalue count\n", db.radius);
    double mean = 0;
    for (int v = 0; v <= db.radius; v++) {
        printf("%d %" PRIu64 "\n", v, db.hist[v]);
        mean += (double)v * (double)db.hist[v];
    }
    printf("mean: %.4f\n", db.reachable ? mean / (double)db.reachable : 0.0);
    db_free(&db);
    return cli_finish_stdout();
}

static int verify(const struct pdb_args *a)
{
    struct pdb_table t;
    struct pdb_verify_report rep;
    slide_error err;
    double t0 = omp_get_wtime();
    if (pdb_load(a->file, a->threads, &t, &err))
        return cli_fail(EXIT_FAIL, "%s: %s", a->file, err.msg);
    double t1 = omp_get_wtime();
    int rc = pdb_verify(&t, a->max_memory, &rep, &err);
    double t2 = omp_get_wtime();
    pdb_table_free(&t);
    if (rc)
        return cli_fail(EXIT_FAIL, "%s: %s", a->file, err.msg);
    printf("ok: %s: checksums and histogram agree; all %" PRIu64 " entries equal an "
           "independent search of %" PRIu64 " states (load %.3f s, check %.3f s, %.0f MB)\n",
           a->file, rep.entries, rep.states, t1 - t0, t2 - t1, rep.bytes / 1e6);
    return cli_finish_stdout();
}

int cmd_pdb(int argc, char **argv)
{
    struct pdb_args a;
    char command[1024];
    cli_command_line("pdb", argc, argv, command, sizeof command);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    a.st.command = command;
    if (!strcmp(a.action, "build"))
        return build(&a);
    if (!strcmp(a.action, "stats"))
        return pdb_stats_run(&a.st);
    if (!strcmp(a.action, "predict"))
        return pdb_predict_run(&a.st);
    return strcmp(a.action, "info") == 0 ? info(&a) : verify(&a);
}
