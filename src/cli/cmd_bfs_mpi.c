/*
 * cmd_bfs_mpi.c - `mpirun -n P slide-mpi bfs RxC --mpi`: the two-bit BFS
 * spread over P processes (bfs_mpi.h), with per-process checkpoints
 * (checkpoint_mpi.h).  Only built by mpicc (build/slide-mpi).
 *
 * Every process parses the same arguments and reaches the same decisions
 * (errors are agreed with bfs_mpi_agree); only rank 0 prints, so the other
 * ranks' stdout and stderr go to /dev/null.
 */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli.h"
#include "slide/bfs_mpi.h"
#include "slide/checkpoint_mpi.h"
#include "slide/provenance.h"

static const char help[] =
    "usage: mpirun -n P slide-mpi bfs RxC --mpi [--goal G] [--space compact|full]\n"
    "                 [--metric stm|mtm]\n"
    "                 [--threads N] [--progress] [--stats] [--max-memory BYTES]\n"
    "                 [--budget BYTES] [--checkpoint DIR] [--checkpoint-every MINUTES]\n"
    "                 [--resume DIR]\n"
    "       mpirun -n P slide-mpi bfs --mpi --resume DIR [OPTIONS]\n"
    "Examples:\n"
    "  mpirun -n 2 build/slide-mpi bfs 3x4 --mpi --threads 1   # 2 processes\n"
    "  mpirun -n 8 --hostfile hosts slide-mpi bfs 2x7 --mpi --checkpoint ck\n"
    "The breadth-first search of slide bfs spread over the P processes of an MPI\n"
    "job: process p owns a contiguous slice of the index space (whole words of\n"
    "the store and whole blocks of n boards, so horizontal moves stay local)\n"
    "and 2 bits per board of it, and expands it with the expansion of slide bfs;\n"
    "the neighbours owned elsewhere are sent to their owners in bounded rounds,\n"
    "sorted and delta-coded.  Histogram, radius and antipodes are those of\n"
    "slide bfs (text format) for any P and any --threads.\n"
    "  --goal G, --space S  as slide bfs\n"
    "  --metric M         stm (default) or mtm, as slide bfs; checkpoints record it\n"
    "  --threads N        OpenMP threads in each process (default: OpenMP's, that\n"
    "                     is OMP_NUM_THREADS or the cores the process may use);\n"
    "                     run P x N <= cores\n"
    "  --progress         one line per layer on stderr from rank 0\n"
    "  --no-progress      never (default unless stderr is a terminal)\n"
    "  --no-backward      expand every layer forward (default: the late layers,\n"
    "                     once fewer unvisited boards remain than frontier ones,\n"
    "                     scan the unvisited boards, which ask the owners of\n"
    "                     their remote neighbours whether one is frontier)\n"
    "  --stats            one line per layer on stderr: 'mpi-layer' distance count\n"
    "                     expanded remote remote-raw bytes messages rounds, then\n"
    "                     expand, exchange and mark wall seconds (max over\n"
    "                     processes; exchange includes waiting for the peers),\n"
    "                     expand, exchange and mark CPU seconds (sum over\n"
    "                     processes; exchange without the MPI calls), and F\n"
    "                     (forward) or B (backward: expanded counts the unvisited\n"
    "                     boards scanned, remote the queries, bytes include the\n"
    "                     one-bit answers)\n"
    "  --max-memory B     per machine: refuse if the processes of one machine\n"
    "                     need more than B bytes (default MemAvailable); each\n"
    "                     needs its slice of the store, the search's tables and\n"
    "                     buckets, and up to 5 x --budget for the exchange\n"
    "  --budget B         bytes of remote neighbour indexes (8 bytes each) the\n"
    "                     threads of a process buffer before an exchange round\n"
    "                     (default 64M, at most 1G; at least 2K per thread)\n"
    "  --checkpoint DIR   save at layer boundaries: DIR/part-K.G per process and\n"
    "                     DIR/mpi-state (see README); also once at the end\n"
    "  --checkpoint-every M  minutes between checkpoints (default 5; 0: every layer)\n"
    "  --resume DIR       continue the search saved in DIR; it must be run with the\n"
    "                     same number of processes (another is refused).  RxC,\n"
    "                     --goal and --space may be left out (they come from\n"
    "                     DIR/mpi-state); given ones must match it\n"
    "SIGINT or SIGTERM to mpirun: rank 0 stops the search at the end of the\n"
    "layer and, with a checkpoint directory, saves it (exit 130 or 143).  A\n"
    "process that dies ends the whole job (mpirun names it); the last\n"
    "checkpoint stays intact for --resume.\n"
    "Test hook: SLIDE_MPI_FAULT=RANK:DISTANCE makes that rank kill itself in the\n"
    "middle of expanding layer DISTANCE; SLIDE_MPI_PAUSE_MS=N makes rank 0 wait\n"
    "N ms after each layer.\n";

#define DEFAULT_EVERY 300.0

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

struct mpi_args {
    int rows, cols, sized; /* sized: RxC given */
    const char *goal_text;
    enum space_kind kind;
    int kind_given;
    char resume_goal[512]; /* the goal read from --resume DIR's checkpoint */
    int progress, stats, threads, no_backward;
    enum metric metric;   /* --metric */
    int metric_given;
    uint64_t max_memory, budget;
    const char *checkpoint, *resume;
    double every;
};

struct mpi_ctx {
    const struct mpi_args *a;
    const struct space *s;
    int rank;
    double last_save;
    long pause_ms; /* test hook SLIDE_MPI_PAUSE_MS: rank 0 waits this long per layer */
};

static const struct cli_option opts[] = {
    {"mpi", 0, CLI_FLAG, 'M', 0, NULL, NULL},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"space", 's', CLI_VALUE, 's', 0, NULL, NULL},
    {"progress", 0, CLI_FLAG, 'p', 0, NULL, NULL},
    {"no-progress", 0, CLI_FLAG, 'P', 0, NULL, "progress"},
    {"stats", 0, CLI_FLAG, 'T', 0, NULL, NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"no-backward", 0, CLI_FLAG, 'B', 0, NULL, NULL},
    {"max-memory", 'm', CLI_VALUE, 'm', 0, NULL, NULL},
    {"budget", 0, CLI_VALUE, 'b', 0, NULL, NULL},
    {"checkpoint", 0, CLI_VALUE, 'c', 0, NULL, NULL},
    {"checkpoint-every", 0, CLI_VALUE, 'e', 1, "--checkpoint DIR or --resume DIR", NULL},
    {"resume", 0, CLI_VALUE, 'r', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {"metric", 0, CLI_VALUE, 'X', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int take(int id, const char *v, void *ctx)
{
    struct mpi_args *a = ctx;
    int k;
    switch (id) {
    case 'M': return EXIT_OK;
    case 'g': a->goal_text = v; return EXIT_OK;
    case 's':
        if ((k = space_kind_parse(v)) < 0)
            return cli_fail(EXIT_USAGE, "--space must be compact or full, not \"%s\"", v);
        a->kind = (enum space_kind)k;
        a->kind_given = 1;
        return EXIT_OK;
    case 'p': a->progress = 1; return EXIT_OK;
    case 'P': a->progress = 0; return EXIT_OK;
    case 'T': a->stats = 1; return EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'B': a->no_backward = 1; return EXIT_OK;
    case 'X':
        a->metric_given = 1;
        return cli_metric(v, &a->metric) ? EXIT_USAGE : EXIT_OK;
    case 'm': return cli_bytes("--max-memory", v, &a->max_memory) ? EXIT_USAGE : EXIT_OK;
    case 'b':
        if (cli_bytes("--budget", v, &a->budget))
            return EXIT_USAGE;
        if (a->budget < 64 || a->budget > BFS_MPI_MAX_BUDGET)
            return cli_fail(EXIT_USAGE, "--budget must be from 64 bytes to 1G, not %s", v);
        return EXIT_OK;
    case 'c': a->checkpoint = v; return EXIT_OK;
    case 'r': a->resume = v; return EXIT_OK;
    case 'e':
        if (cli_real("--checkpoint-every", v, 0, 1e6, 0, "minutes from 0 to 1000000",
                     &a->every))
            return EXIT_USAGE;
        a->every *= 60;
        return EXIT_OK;
    }
    return EXIT_USAGE;
}

static int parse(int argc, char **argv, struct mpi_args *a)
{
    struct cli_parse p;
    slide_error err;
    memset(a, 0, sizeof *a);
    a->progress = -1;
    a->every = DEFAULT_EVERY;
    cli_parse_init(&p, "bfs --mpi", opts, argc, argv);
    int rc = cli_parse_options(&p, help, take, a);
    if (rc)
        return rc;
    if (cli_parse_unused(&p, a->checkpoint || a->resume ? 1 : 0, NULL))
        return EXIT_USAGE;
    if (p.nargs > 1 || (p.nargs == 0 && !a->resume))
        return cli_fail(EXIT_USAGE, "slide bfs --mpi takes one board size such as 3x3 (or "
                        "none with --resume DIR)");
    a->sized = p.nargs == 1;
    if (a->sized && board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    return EXIT_OK;
}

/*
 * --resume DIR: what was not given (size, goal, space) comes from the
 * checkpoint; what was given is kept, so that checkpoint_mpi_load refuses
 * a contradiction naming both.  Collective.
 */
static int from_checkpoint(MPI_Comm comm, struct mpi_args *a)
{
    struct checkpoint_info info;
    slide_error err;
    if (!a->resume || (a->sized && a->goal_text && a->kind_given))
        return EXIT_OK;
    int rc = checkpoint_mpi_describe(comm, a->resume, &info, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    cli_resume_fill(&info, a->sized, a->kind_given, &a->rows, &a->cols, &a->kind,
                    &a->goal_text, a->resume_goal, sizeof a->resume_goal);
    return EXIT_OK;
}

static void print_stats(const struct bfs_mpi_layer *L)
{
    fprintf(stderr, "mpi-layer %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
            " %" PRIu64 " %d %.4f %.4f %.4f %.4f %.4f %.4f %c\n", L->layer.depth,
            L->layer.count, L->expanded, L->remote, L->remote_raw, L->bytes, L->messages,
            L->rounds, L->expand, L->exchange, L->mark, L->cpu_expand, L->cpu_exchange,
            L->cpu_mark, L->layer.backward ? 'B' : 'F');
}

/* Rank 0 decides: stop for a signal or a due checkpoint. */
static int on_layer(const struct bfs_mpi_layer *L, void *ctx)
{
    struct mpi_ctx *c = ctx;
    if (c->rank != 0)
        return 0;
    if (c->a->progress)
        fprintf(stderr, "slide: distance %d: %" PRIu64 " boards, %" PRIu64 " in all "
                "(%.2f%% of the reachable boards), %.2f s%s\n", L->layer.depth,
                L->layer.count, L->layer.cumulative,
                100.0 * (double)L->layer.cumulative / (double)c->s->reachable,
                L->layer.seconds, L->layer.backward ? " (backward)" : "");
    if (c->a->stats)
        print_stats(L);
    if (c->pause_ms > 0) /* lets a test signal mpirun in the middle of a short search */
        nanosleep(&(struct timespec){c->pause_ms / 1000, c->pause_ms % 1000 * 1000000},
                  NULL);
    const char *dir = c->a->checkpoint ? c->a->checkpoint : c->a->resume;
    return stop_signal || (dir && MPI_Wtime() - c->last_save >= c->a->every);
}

/* Rank 0 checks the directory (not another checkpoint, room for two sets
 * of parts) and creates it. */
static int prepare_dir(MPI_Comm comm, const struct mpi_args *a, const struct space *s,
                       slide_error *err)
{
    int rank, rc = SLIDE_OK;
    const char *dir = a->checkpoint;
    MPI_Comm_rank(comm, &rank);
    if (!dir)
        return SLIDE_OK;
    if (rank == 0) {
        struct statvfs v;
        uint64_t need = 2 * store_bytes_needed(s->size) + (1u << 20);
        struct stat sb;
        if (mkdir(dir, 0777) && (stat(dir, &sb) || !S_ISDIR(sb.st_mode) || access(dir, W_OK)))
            rc = slide_fail(err, SLIDE_EIO, "cannot use %s as the checkpoint directory: it "
                            "cannot be created, is not a directory or is not writable", dir);
        else if (!a->resume && checkpoint_mpi_exists(MPI_COMM_SELF, dir))
            rc = slide_fail(err, SLIDE_EIO, "%s already holds an MPI checkpoint; continue "
                            "it with --resume %s", dir, dir);
        else if (statvfs(dir, &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < need)
            rc = slide_fail(err, SLIDE_ENOMEM, "%s has %" PRIu64 " bytes free; the "
                            "checkpoints need %" PRIu64, dir,
                            (uint64_t)v.f_bavail * v.f_frsize, need);
    }
    return bfs_mpi_agree(comm, rc, err);
}

/* What the memory guard counted: this process's need (bfs_mpi_bytes) and
 * the sum over its machine. */
struct need {
    uint64_t mine, machine;
};

/* A fresh store or a loaded one, after the per-machine memory guard. */
static int open_search(MPI_Comm comm, const struct mpi_args *a, const struct space *s,
                       struct store *st, struct bfs_result *r, int *gen, struct need *nd,
                       slide_error *err)
{
    int nprocs, rank, rc;
    uint64_t lo, hi;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    memset(r, 0, sizeof *r);
    *gen = 0;
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    nd->mine = bfs_mpi_bytes(s, nprocs, rank, a->threads, a->budget);
    rc = bfs_mpi_check_memory(comm, nd->mine, a->max_memory,
                              "the slices of the two-bit store, tables and exchange "
                              "buffers of this machine's processes", &nd->machine, err);
    if (rc)
        return rc;
    if (a->resume) {
        rc = checkpoint_mpi_load(comm, a->resume, s, a->max_memory,
                                 nd->mine - store_bytes_needed(hi - lo), st, r, gen, err);
        if (!rc && a->metric_given && r->metric != a->metric) {
            store_free(st);
            bfs_result_free(r);
            rc = slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is a search in the %s "
                            "metric, not the %s metric (--metric %s)", a->resume,
                            metric_long_name(r->metric), metric_long_name(a->metric),
                            metric_name(a->metric));
        }
        return rc;
    }
    return bfs_mpi_agree(comm, store_alloc(st, hi - lo, err), err);
}

/* The search with checkpoints at the boundaries rank 0 picks. */
static int search(MPI_Comm comm, const struct mpi_args *a, const struct space *s,
                  struct store *st, struct bfs_result *r, int gen, slide_error *err)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    const char *pause = getenv("SLIDE_MPI_PAUSE_MS");
    long long pause_ms = 0;
    if (pause && cli_parse_whole(pause, 0, 3600000, &pause_ms))
        pause_ms = 0;
    struct mpi_ctx c = {a, s, rank, MPI_Wtime(), (long)pause_ms};
    struct bfs_mpi_options o = {.threads = a->threads, .no_backward = a->no_backward,
                                .budget = a->budget, .on_layer = on_layer, .ctx = &c,
                                .fault_rank = -1, .fault_depth = -1,
                                .metric = a->resume ? r->metric : a->metric};
    const char *fault = getenv("SLIDE_MPI_FAULT"), *dir = a->checkpoint ? a->checkpoint
                                                                         : a->resume;
    if (fault && sscanf(fault, "%d:%d", &o.fault_rank, &o.fault_depth) != 2)
        o.fault_rank = o.fault_depth = -1;
    int rc = r->complete ? SLIDE_OK : a->resume ? bfs_mpi_resume(comm, s, st, &o, r, err)
                                                : bfs_mpi_run(comm, s, st, &o, r, err);
    while (rc == SLIDE_EINTR) {
        if (dir && (rc = checkpoint_mpi_save(comm, dir, s, st, r, &gen, err)))
            return rc;
        c.last_save = MPI_Wtime();
        int sig = stop_signal;
        MPI_Bcast(&sig, 1, MPI_INT, 0, comm);
        if (sig)
            return slide_fail(err, SLIDE_EINTR, "stopped by %s after distance %d%s%s",
                              sig == SIGINT ? "SIGINT" : "SIGTERM", r->radius,
                              dir ? "; checkpoint saved in " : "", dir ? dir : "");
        rc = bfs_mpi_resume(comm, s, st, &o, r, err);
    }
    if (!rc && dir)
        rc = checkpoint_mpi_save(comm, dir, s, st, r, &gen, err);
    return rc;
}

static void report(const struct mpi_args *a, const struct space *s,
                   const struct bfs_result *r, int nprocs, const struct need *nd)
{
    struct board b = {0};
    slide_error err;
    printf("board %dx%d, %s space of %" PRIu64 " indexes, %d MPI processes\n", a->rows,
           a->cols, space_kind_name(s->kind), s->size, nprocs);
    if (r->metric == METRIC_MTM)
        printf("metric mtm: the multi-tile metric (the blank jumps along its row or "
               "column)\n");
    cli_histogram(REPORT_TEXT, a->rows, a->cols, r->hist, r->radius);
    printf("boards reached: %" PRIu64 "; expected %s = %" PRIu64 ": %s\n", r->reached,
           s->path_graph ? "n (a path)" : "(RC)!/2", s->reachable,
           r->reached == s->reachable ? "ok" : "MISMATCH");
    printf("radius: %d\nantipodes: %" PRIu64 "\n", r->radius, r->hist[r->radius]);
    if (board_alloc(&b, s->rows, s->cols, &err) == SLIDE_OK) {
        for (int i = 0; i < r->nfirst; i++) {
            char line[256];
            space_unrank(s, r->first[i], &b);
            board_format(&b, line, sizeof line);
            printf("  %s\n", line);
        }
        board_free(&b);
    }
    printf("wall %.3f s, processes %d, threads per process %d, peak memory of rank 0 "
           "%.1f MB\n", r->seconds, nprocs, r->threads, provenance_peak_rss() / 1e6);
    printf("memory counted by the guard: %" PRIu64 " bytes on rank 0's machine "
           "(rank 0: %" PRIu64 ")\n", nd->machine, nd->mine);
}

static int run(MPI_Comm comm, const struct mpi_args *a)
{
    struct board goal = {0};
    struct space s;
    struct store st = {0};
    struct bfs_result r = {0};
    slide_error err;
    int nprocs, gen = 0, rc;
    struct need nd = {0, 0};
    MPI_Comm_size(comm, &nprocs);
    if (cli_goal(a->goal_text, a->rows, a->cols, &goal))
        return EXIT_USAGE;
    rc = space_init(&s, &goal, a->kind, &err);
    board_free(&goal);
    if (!rc && !(rc = prepare_dir(comm, a, &s, &err)) &&
        !(rc = open_search(comm, a, &s, &st, &r, &gen, &nd, &err)))
        rc = search(comm, a, &s, &st, &r, gen, &err);
    store_free(&st);
    int code = rc ? (rc == SLIDE_EINTR ? 128 + (int)stop_signal : cli_fail_lib(rc, &err))
                  : EXIT_OK;
    if (rc == SLIDE_EINTR)
        cli_fail(code, "%s", err.msg);
    if (!rc) {
        report(a, &s, &r, nprocs, &nd);
        if (cli_finish_stdout() || r.reached != s.reachable)
            code = EXIT_FAIL;
    }
    bfs_result_free(&r);
    return code;
}

int cmd_bfs_mpi(int argc, char **argv)
{
    int rank, nprocs, rc;
    struct mpi_args a;
    int provided;
    /* only the main thread calls MPI; OpenMP threads expand and mark */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    (void)provided; /* FUNNELED asks nothing of the library beyond the single level */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank != 0) {
        /* every rank reaches the same outcome; rank 0 says it once */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            return EXIT_FAIL;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    rc = parse(argc, argv, &a);
    if (rc == 0) {
        if (a.progress < 0)
            a.progress = rank == 0 && cli_progress_wanted(-1);
        rc = from_checkpoint(MPI_COMM_WORLD, &a);
        if (rc == 0)
            rc = run(MPI_COMM_WORLD, &a);
    }
    MPI_Finalize();
    return rc < 0 ? EXIT_OK : rc;
}
