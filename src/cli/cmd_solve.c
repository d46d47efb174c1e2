/*
 * cmd_solve.c - `slide solve BOARD`: a solution of one board (or of every
 * board on standard input) by a method chosen from a table: optimal by
 * IDA*, bidirectional BFS or descent in a distance database, or constructed
 * layer by layer for any size.
 */
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "slide/bibfs.h"
#include "slide/db.h"
#include "slide/ida.h"
#include "slide/ida_parallel.h"
#include "slide/layers.h"
#include "slide/metric.h"
#include "slide/parity.h"
#include "slide/pdb.h"
#include "slide/provenance.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide solve [--method ida|layers|bibfs|db] [--goal G] [--size RxC]\n"
    "                   [--metric stm|mtm]\n"
    "                   [--count | --moves | --format text|csv|md|tex]\n"
    "                   [--h NAME] [--max-nodes N] [--progress]   (ida only)\n"
    "                   [--reflect] [--threads N] [--provenance]\n"
    "                   [--max-states N]                          (bibfs only)\n"
    "                   [--db FILE]                               (db)\n"
    "                   BOARD\n"
    "Examples:\n"
    "  slide solve '8 6 7/2 5 4/3 0 1'    # optimal: 31 moves (IDA*)\n"
    "  slide scramble 1000x1000 --seed 1 | slide solve --method layers --count -\n"
    "Find a sequence of moves that takes BOARD to the goal G.  Methods:\n"
    "  ida     (default) IDA* (Korf 1985): OPTIMAL.  Memory O(moves); time\n"
    "          grows fast with the distance (the 15-puzzle takes seconds to\n"
    "          minutes; far beyond that it is hopeless).  Any size.\n"
    "  layers  layer-by-layer construction: place the top row, then the left\n"
    "          column, recurse, turn the last 2x2 block.  NOT OPTIMAL, but any\n"
    "          solvable board up to 1000x1000 and any goal, in time O(moves):\n"
    "          about 2.7 n^3 moves on a random n x n board, never more than the\n"
    "          bound of layers.h (8 n^3 + n^2 for n x n).  1000x1000 takes\n"
    "          about 20 s and 2.7e9 moves: use --count.\n"
    "  bibfs   bidirectional BFS (Pohl 1971): OPTIMAL, the exact distance\n"
    "          between ANY two boards of at most 20 cells - BOARD and the goal\n"
    "          G, which need not be the standard goal (so d(a, b) is --goal b\n"
    "          a).  Memory up to 36 bytes per board stored (9-byte hash slots\n"
    "          kept between a quarter and half full), capped by\n"
    "          --max-states.\n"
    "  db      descent in a distance database (--db FILE, written by slide bfs\n"
    "          RxC --goal G --save FILE): OPTIMAL, in microseconds per board,\n"
    "          for boards of the file's size and goal only; any other board is\n"
    "          an error.\n"
    "--db FILE without --method uses db for the boards the file covers (its\n"
    "size and goal) and IDA* for the others, with a note on stderr saying\n"
    "why ('slide: the database covers 3x3 boards with goal ..., not this 2x5\n"
    "board; solving with --method ida'; again only when the reason changes).\n"
    "The file is loaded (and its checksums checked) once for all boards.\n"
    "BOARD: rows separated by / or newlines, cells by spaces or commas, the\n"
    "blank 0, _ or . (\"8 6 7/2 5 4/3 0 1\"); any size up to 1000x1000.\n"
    "BOARD - reads standard input: one board per line when the boards are\n"
    "written one per line (rows separated by /, as `slide scramble` prints\n"
    "them, or flat lists of R*C cells with --size), each solved in turn; blank\n"
    "lines and lines starting with # are skipped.  Otherwise the whole input\n"
    "is one board (rows on separate lines); 1-row boards, which have no /,\n"
    "need --size 1xN to be read one per line.  A big board comes from a file\n"
    "or a pipe: slide scramble 1000x1000 --seed 1 | slide solve --method\n"
    "layers --count -.  Input limits: one board's text (and one line) 16 MiB,\n"
    "an input 256 MiB; a NUL byte is refused (exit 2 for each).\n"
    "  --method M     ida, layers, bibfs or db (above)\n"
    "  --metric M     what one move is: stm (default), the single-tile metric\n"
    "                 (one tile slides one cell), or mtm, the multi-tile metric\n"
    "                 (the blank jumps to any cell of its row or column and the\n"
    "                 k tiles between slide one cell each: one move).  mtm\n"
    "                 works with --method ida, bibfs and db (a database of\n"
    "                 bfs --metric mtm --save: the metric of --db must be the\n"
    "                 one asked, exit 2 otherwise); layers counts single-tile\n"
    "                 moves and is refused.  With ida in mtm the\n"
    "                 heuristic must bound multi-tile moves: wd (the default\n"
    "                 there: the walking distance of multi-tile moves) or\n"
    "                 pdb:FILES of kind mtm (slide pdb build --mtm: maxed,\n"
    "                 not summed) or max(wd,pdb:FILES);\n"
    "                 manhattan, lc and misplaced are refused (one move may\n"
    "                 lower them by up to max(R,C)-1).  Notation in mtm: a move\n"
    "                 is its letter repeated once per cell the blank travels,\n"
    "                 moves separated by one space: 'UU L DDD' is 3 moves (the\n"
    "                 blank jumps 2 cells up, 1 left, 3 down); tiles moved lists\n"
    "                 per move the tiles that slide, in the order the blank\n"
    "                 meets them, joined by commas ('5,2 7 1,4,3')\n"
    "  --goal G       the goal board (default 1..n-1 in reading order, blank last)\n"
    "  --size RxC     the dimensions, for boards written as one flat list\n"
    "  --count        print only the number of moves, one line per board\n"
    "                 (layers then counts the moves without storing them)\n"
    "  --moves        print only the blank moves, one line per board\n"
    "  --format F     text (default), csv, md (Markdown) or tex (booktabs)\n"
    "  --h NAME       (ida) the heuristic: lc (default; Manhattan + linear\n"
    "                 conflicts, 2*(k-LIS) per row and column), manhattan,\n"
    "                 misplaced, wd (walking distance), pdb:FILE+FILE+...\n"
    "                 (the sum of pattern databases written by slide pdb\n"
    "                 build; a name may be the DIR of pdb build --partition,\n"
    "                 all its tables; loaded once, load time on stderr) or\n"
    "                 max(NAME,pdb:FILE+...) with NAME lc, manhattan, misplaced\n"
    "                 or wd (one NAME, one sum; no nested max).  Every board\n"
    "                 must have the tables' size and goal.  All are\n"
    "                 admissible, so lengths are optimal - except a pdb sum\n"
    "                 whose tables share a tile or mix plain tables (a note\n"
    "                 says so; not 'optimal').\n"
    "  --reflect      (ida, pdb) also look the tables up for the board mirrored\n"
    "                 about the main diagonal and take the larger value (square\n"
    "                 boards whose goal has its blank on the diagonal; other\n"
    "                 goals are refused)\n"
    "  --threads N    one BOARD (ida): search it with N threads (default: every\n"
    "                 core OpenMP reports, OMP_NUM_THREADS if set); each\n"
    "                 threshold's tree is split into work items the threads\n"
    "                 share.  The length, the path, the thresholds and the\n"
    "                 nodes of every iteration but the last do not depend on\n"
    "                 N; the last iteration may count more nodes (items past\n"
    "                 the solution's, partly searched; 'last iteration' and\n"
    "                 expanded_last).  Small iterations (after one of under\n"
    "                 100000 expansions) run on one thread.  With --max-nodes\n"
    "                 a stopped search has expanded exactly N nodes.\n"
    "                 BOARD - or @FILE: solve N boards at once, one thread each\n"
    "                 (default 1); answers are printed in input order and do\n"
    "                 not depend on N.  Other methods: several boards only\n"
    "  --max-nodes N  (ida) give up on a board after N node expansions\n"
    "  --progress     (ida) one line per IDA* threshold on stderr (default on a\n"
    "  --no-progress  terminal); never\n"
    "  --max-states N (bibfs) give up on a board after storing N boards\n"
    "                 (both sides together; default 20000000: up to 0.72 GB\n"
    "                 of hash slots, and half again while a set doubles)\n"
    "  --provenance   start stdout with the provenance block (tool version,\n"
    "                 commit, compiler and flags, CPU, threads, date), lines\n"
    "                 prefixed \"# \" (text, csv, --count, --moves), \"% \" (tex)\n"
    "                 or \"> \" (md), and end it with the searches' CPU time\n"
    "                 (summed over boards), the tables' load time (wall and\n"
    "                 CPU) and the run's wall and CPU time\n"
    "  --keep-going   (with -) report a bad line on standard error as 'line N:\n"
    "                 ...', go on with the others, exit 2 at the end; without\n"
    "                 it every line is checked first (its text, its goal, and\n"
    "                 that --method db or --h pdb: takes it) and a bad one is\n"
    "                 refused before anything is printed\n"
    "  --db FILE      (db) the distance database; alone it means db where the\n"
    "                 file covers the board, else ida (above)\n"
    "An option that the method does not use is refused.  Unsolvable boards\n"
    "are recognised without search from the parity invariant (see slide\n"
    "solvable).  Ctrl-C stops IDA* and reports the lower bound reached; it\n"
    "ends the other methods at once.\n"
    "Moves are written as the direction the BLANK moves: U up, D down, L left,\n"
    "R right (U means the tile above the blank slides down into it).  The\n"
    "same solution is also given as the tiles moved, in order.  Every\n"
    "solution is replayed to the goal before it is printed.\n"
    "Output (text), per board, boards separated by an empty line:\n"
    "  board: B / goal: G / method: M[, heuristic H]\n"
    "  optimal moves: L              ida, bibfs, db\n"
    "  moves: L (not optimal in general; bound U for RxC)     layers\n"
    "                    (or 'unsolvable: <parity explanation>' and no more\n"
    "                     lines, or 'stopped: <why>')\n"
    "  blank moves: UDLR...\n"
    "  tiles moved: t1 t2 ...\n"
    "  nodes: E expanded, N generated, I iterations, h(board) H    ida\n"
    "  last iteration: E expanded, N generated                     ida\n"
    "  nodes: E expanded, S stored                                 bibfs\n"
    "  time: S s, CPU C s, T threads\n"
    "--count and --moves print one line per board instead: the number L, or\n"
    "the blank moves (an empty line for a board already at the goal); an\n"
    "unsolvable or stopped board gets its 'unsolvable: ...' or 'stopped: ...'\n"
    "line.  csv, md and tex give one record per board with the columns\n"
    "board,method,heuristic,status,length,blank_moves,tiles_moved,expanded,\n"
    "generated,iterations,h_start,lower_bound,seconds,stored,threads,\n"
    "cpu_seconds,expanded_last,generated_last,cpu_critical;\n"
    "status is optimal, found (a valid solution not proven optimal: layers),\n"
    "unsolvable or stopped; length is empty unless a solution was found;\n"
    "lower_bound is what the search proved (the length when optimal; empty\n"
    "for layers).  The figures a method does not produce are empty: ida gives\n"
    "expanded, generated, iterations and h_start, bibfs expanded and stored\n"
    "(the boards both sides keep), layers and db none; ida also the last\n"
    "iteration's share of expanded and generated (expanded_last,\n"
    "generated_last).  seconds is the wall time of the method alone (not\n"
    "parsing, printing or loading tables); cpu_seconds its CPU time, measured\n"
    "inside slide: the sum over the threads of its search (each thread's\n"
    "CLOCK_THREAD_CPUTIME_ID), so never the tables' load or another board's\n"
    "search; threads is how many searched (1 for a search whose iterations\n"
    "were all small); cpu_critical (ida) the CPU seconds on the search's\n"
    "critical path: the serial parts plus, per threshold, the busiest\n"
    "thread's (about the wall time with a core per thread, so cpu_seconds on\n"
    "one thread over it estimates the speedup on a machine not shared).\n"
    "--provenance adds the tables' load time (wall and CPU)\n"
    "and the searches' CPU time in all.  The text output streams a\n"
    "solution; csv, md and tex hold each record in memory, so for solutions\n"
    "of billions of moves (layers on big boards) use --count or --moves.\n"
    "Exit status: 0 every board solved, 1 a search stopped or failed, or a\n"
    "bad or unreadable database, 2 bad arguments or board text (or, with\n"
    "--method db, a board the database does not cover), 3 a board is\n"
    "unsolvable.\n";

/* The problem handed to a method.  The start is known to reach the goal
 * (solve_one checks parity first). */
struct solve_job {
    const struct board *start, *goal;
    const char *heuristic;
    uint64_t max_nodes, max_states;
    const volatile sig_atomic_t *cancel;
    int progress;
    int count_only; /* only the length is wanted: a method may skip the moves */
    const struct db *db; /* loaded, covering start and goal; NULL without --db */
    const struct pdb_set *pdb; /* loaded once for --h pdb:..., shared; else NULL */
    const char *pdb_with;      /* the NAME of --h max(NAME,pdb:...), or "" */
    int threads;               /* threads of one search (ida; 1 with several boards) */
    enum metric metric;        /* what one move is (metric.h); MTM: ida, bibfs only */
};

#define SOLVE_NONE (-1) /* a figure the method does not produce */

/* What a method found: the figures it does not produce stay SOLVE_NONE. */
struct solve_answer {
    uint64_t length;     /* moves of the solution (when the method succeeded) */
    char *moves;         /* the length moves in the notation of job->metric
                            (metric.h; STM: length letters 'U','D','L','R') + NUL
                            (malloc'd); NULL only when job->count_only was honoured */
    int optimal;         /* 1 if length is proven optimal */
    char caveat[96];     /* why a solution is not optimal, for the text output */
    int64_t lower_bound; /* proven lower bound on the optimum */
    int64_t expanded, generated, iterations, h_start, stored;
    int64_t expanded_last, generated_last; /* ida: of those, the last iteration's */
    int64_t threads;     /* threads of the search */
    double cpu_seconds;  /* the search's CPU time (its threads'), < 0 unknown */
    double cpu_critical; /* of it, on the critical path (ida.h), < 0 unknown */
    const char *heuristic; /* name actually used, or "" */
    char heuristic_name[80]; /* a copy that outlives the heuristic */
};

static void print_threshold(int bound, uint64_t expanded, double seconds, void *ctx)
{
    (void)ctx;
    fprintf(stderr, "slide: threshold %d, %" PRIu64 " nodes expanded so far, %.2f s\n",
            bound, expanded, seconds);
}

/* Move codes (IDA*, the database walk) in the notation of metric m (SLIDE_ENOMEM). */
static int letters_of(const unsigned char *moves, int len, enum metric m, char **out,
                      slide_error *err)
{
    size_t need = move_format_codes(moves, len, m, NULL, 0);
    if (!(*out = malloc(need + 1)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %d moves", len);
    move_format_codes(moves, len, m, *out, need + 1);
    return SLIDE_OK;
}

/* One heuristic per thread of the search (a heuristic holds scratch space). */
static int open_heuristics(const struct solve_job *job, struct ida_heuristic *h, int n,
                           slide_error *err)
{
    for (int i = 0; i < n; i++) {
        int rc = job->pdb ? ida_heuristic_open_pdb(&h[i], job->pdb, job->pdb_with, job->goal,
                                                   err)
                          : ida_heuristic_open_metric(&h[i], job->heuristic, job->goal,
                                                      job->metric, err);
        if (rc) {
            while (i-- > 0)
                ida_heuristic_close(&h[i]);
            return rc;
        }
    }
    return SLIDE_OK;
}

static int solve_ida(const struct solve_job *job, struct solve_answer *ans,
                     slide_error *err)
{
    int threads = job->threads > 1 ? job->threads : 1;
    struct ida_heuristic *hs = calloc((size_t)threads, sizeof *hs);
    if (!hs)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %d threads", threads);
    int rc = open_heuristics(job, hs, threads, err);
    if (rc) {
        free(hs);
        return rc;
    }
    struct ida_heuristic h = hs[0];
    struct ida_options o = {job->max_nodes, job->cancel,
                            job->progress ? print_threshold : NULL, NULL, job->metric};
    struct ida_result r;
    rc = ida_solve_parallel(job->start, job->goal, hs, threads, &o, &r, err);
    if (!rc)
        rc = letters_of(r.moves, r.length, job->metric, &ans->moves, err);
    ans->length = rc ? 0 : (uint64_t)r.length;
    ans->optimal = rc == SLIDE_OK && h.admissible;
    snprintf(ans->caveat, sizeof ans->caveat, "maybe not optimal: heuristic %s "
             "may overestimate", h.name);
    /* IDA*'s thresholds bound the optimum only when h never overestimates */
    ans->lower_bound = !h.admissible ? 0 : rc == SLIDE_OK ? r.length : r.bound;
    ans->expanded = (int64_t)r.expanded;
    ans->generated = (int64_t)r.generated;
    ans->iterations = r.iterations;
    ans->h_start = r.h_start;
    ans->expanded_last = (int64_t)r.expanded_last;
    ans->generated_last = (int64_t)r.generated_last;
    ans->threads = r.threads;
    ans->cpu_seconds = r.cpu_seconds;
    ans->cpu_critical = r.cpu_critical;
    snprintf(ans->heuristic_name, sizeof ans->heuristic_name, "%s", h.name);
    ans->heuristic = ans->heuristic_name;
    ida_result_free(&r);
    for (int i = 0; i < threads; i++)
        ida_heuristic_close(&hs[i]);
    free(hs);
    return rc;
}

static int solve_layers(const struct solve_job *job, struct solve_answer *ans,
                        slide_error *err)
{
    struct layers_moves m = {0};
    m.count_only = job->count_only;
    int rc = layers_solve(job->start, job->goal, &m, err);
    if (!rc && !m.count_only) { /* the buffer becomes the answer's, NUL-terminated */
        char *p = m.cap > m.len ? m.moves : realloc(m.moves, (size_t)m.len + 1);
        if (!p)
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for %" PRIu64 " moves", m.len);
        else
            p[m.len] = '\0';
        ans->moves = p;
        m.moves = p ? NULL : m.moves;
    }
    ans->length = m.len;
    snprintf(ans->caveat, sizeof ans->caveat, "not optimal in general; bound %" PRIu64
             " for %dx%d", layers_bound(job->start->rows, job->start->cols),
             job->start->rows, job->start->cols);
    layers_moves_free(&m);
    return rc;
}

static int solve_bibfs(const struct solve_job *job, struct solve_answer *ans,
                       slide_error *err)
{
    uint64_t cap = job->max_states ? job->max_states : BIBFS_DEFAULT_MAX_STATES;
    struct bibfs_result r;
    int rc = bibfs_solve_metric(job->start, job->goal, cap, job->metric, &r, err);
    ans->expanded = (int64_t)r.expanded;
    ans->stored = (int64_t)r.states;
    if (rc == SLIDE_ENOMEM && r.states > cap) {
        /* the cap, not the machine, ran out: with df and db layers complete
         * and no meeting every path is longer than df + db, and the layer in
         * progress is counted in forward_layers + backward_layers */
        ans->lower_bound = r.forward_layers + r.backward_layers;
        return SLIDE_EINTR;
    }
    if (!rc) {
        ans->length = (uint64_t)r.distance;
        ans->moves = r.path;
        ans->optimal = 1;
        ans->lower_bound = r.distance;
    }
    return rc;
}

/* The walk of db.h's oracle: every step goes to a neighbour one move
 * closer, so the path is optimal.  With --count, db_distance (a direct read
 * for a byte-per-board file) and no moves. */
static int solve_db(const struct solve_job *job, struct solve_answer *ans,
                    slide_error *err)
{
    unsigned char m[DB_MAX_RADIUS + 1];
    int len = 0;
    int rc = job->count_only ? db_distance(job->db, job->start, &len, err)
                             : db_path(job->db, job->start, m, &len, err);
    if (!rc && !job->count_only)
        rc = letters_of(m, len, job->db->metric, &ans->moves, err);
    if (!rc) {
        ans->length = (uint64_t)len;
        ans->optimal = 1;
        ans->lower_bound = len;
    }
    return rc;
}

/* 1 if the database answers for job's board and goal; else 0 and why not,
 * for the note or the error ("the database covers 3x3 boards with goal G,
 * not this 2x5 board"). */
static int db_covers(const struct solve_job *job, char *why, size_t len)
{
    const struct db *db = job->db;
    char want[256], got[256];
    slide_error err;
    if (db_match(db, job->start, job->goal, &err) == SLIDE_OK)
        return 1;
    board_format(&db->goal, want, sizeof want);
    if (job->start->rows != db->rows || job->start->cols != db->cols)
        snprintf(got, sizeof got, "this %dx%d board", job->start->rows, job->start->cols);
    else /* same size, so the goal text is as short as the database's */
        board_format(job->goal, got + snprintf(got, sizeof got, "goal "),
                     sizeof got - strlen("goal "));
    snprintf(why, len, "the database covers %dx%d boards with goal %s, not %s", db->rows,
             db->cols, want, got);
    return 0;
}

/*
 * The methods.  Each solves one board that is known to reach the goal and
 * fills the answer.  To add a method, write its solve function above and add
 * a row here and in the help text.  A method that can take only some boards
 * says which (covers); given its needed option without --method, it is
 * chosen and hands the other boards to its fallback, with a note.
 */
enum { TAKES_H = 1, TAKES_MAX_NODES = 2, TAKES_MAX_STATES = 4, TAKES_DB = 8,
       TAKES_PROGRESS = 16, TAKES_BATCH = 32, TAKES_THREADS = 64 };

static const struct solve_method {
    const char *name;
    int (*solve)(const struct solve_job *job, struct solve_answer *ans,
                 slide_error *err);
    unsigned takes;  /* the method-specific options it uses (TAKES_*) */
    int cancelable;  /* stops on job->cancel with what it proved so far */
    unsigned needs;  /* options it cannot do without (a subset of takes) */
    /* 1 if it can solve job's board (else 0 and why not); NULL: every board */
    int (*covers)(const struct solve_job *job, char *why, size_t len);
    const char *fallback; /* when chosen by its option alone: the method for
                             the boards it does not cover (NULL: none) */
} methods[] = {
    {"ida", solve_ida, TAKES_H | TAKES_MAX_NODES | TAKES_PROGRESS | TAKES_THREADS, 1, 0, NULL,
     NULL},
    {"layers", solve_layers, 0, 0, 0, NULL, NULL},
    {"bibfs", solve_bibfs, TAKES_MAX_STATES, 0, 0, NULL, NULL},
    {"db", solve_db, TAKES_DB, 0, TAKES_DB, db_covers, "ida"},
};
#define NMETHODS (sizeof methods / sizeof methods[0])

/* The method-specific options, by their TAKES_* bit. */
static const struct {
    unsigned bit;
    const char *name;
    const char *value; /* how the usage message writes its value */
} specific[] = {{TAKES_H, "--h", "NAME"}, {TAKES_MAX_NODES, "--max-nodes", "N"},
                {TAKES_MAX_STATES, "--max-states", "N"}, {TAKES_DB, "--db", "FILE"}};

enum solve_output { OUT_RECORD, OUT_COUNT, OUT_MOVES };

struct solve_args {
    const struct solve_method *method;
    const struct solve_method *fallback; /* for boards method does not cover */
    const char *heuristic;
    const char *db_path;
    const char *goal_text;
    int rows, cols;
    enum report_format format;
    enum solve_output output;
    uint64_t max_nodes, max_states;
    int progress;
    int keep_going; /* a bad line is reported and skipped, exit 2 at the end */
    unsigned given; /* the method-specific options given (TAKES_*) */
    int reflect;    /* --reflect */
    int threads;    /* --threads: boards solved at once (several boards), or the
                       threads of the one board's search (ida) */
    int batch;      /* BOARD - or @FILE: several boards */
    enum metric metric; /* --metric */
    char pdb_with[64], pdb_files[4096]; /* --h pdb:FILES or max(WITH,pdb:FILES) */
    int is_pdb;
    int provenance;      /* --provenance */
    char command[512];   /* the command line, for --provenance */
};

static const struct solve_method *method_find(const char *name)
{
    for (size_t i = 0; i < NMETHODS; i++)
        if (strcmp(methods[i].name, name) == 0)
            return &methods[i];
    return NULL;
}

/* The names of the methods whose `takes` has bit (all when bit is 0). */
static void method_names(unsigned bit, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < NMETHODS; i++)
        if (!bit || (methods[i].takes & bit))
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     methods[i].name);
}

static int method_unknown(const char *name)
{
    char known[256];
    method_names(0, known, sizeof known);
    return cli_fail(EXIT_USAGE, "--method must be one of %s, not \"%s\"", known, name);
}

/* Without --method: the first method whose needs were all given, with its
 * fallback; else the first row (ida). */
static void method_default(struct solve_args *a)
{
    a->method = &methods[0];
    for (size_t i = 0; i < NMETHODS; i++) {
        if (methods[i].needs && (a->given & methods[i].needs) == methods[i].needs) {
            a->method = &methods[i];
            a->fallback = methods[i].fallback ? method_find(methods[i].fallback) : NULL;
            return;
        }
    }
}

/* Refuse a method without an option it needs, and (cli_parse_unused) an
 * option that the chosen method and its fallback would silently ignore. */
static int check_specific(const struct solve_args *a, const struct cli_parse *p)
{
    unsigned used = a->method->takes | (a->fallback ? a->fallback->takes : 0);
    for (size_t i = 0; i < sizeof specific / sizeof specific[0]; i++)
        if (a->method->needs & specific[i].bit & ~a->given)
            return cli_fail(EXIT_USAGE, "--method %s needs %s %s", a->method->name,
                            specific[i].name, specific[i].value);
    char now[64];
    snprintf(now, sizeof now, "--method %s", a->method->name);
    /* --threads solves several boards at once, or searches one board with
     * several threads (ida) */
    char one[96];
    snprintf(one, sizeof one, "one BOARD and %s", now);
    int threads_used = a->batch || (used & TAKES_THREADS);
    return cli_parse_unused(p, used | TAKES_BATCH, now) ||
                   cli_parse_unused(p, threads_used ? ~0u : ~(unsigned)TAKES_BATCH, one)
               ? EXIT_USAGE
               : EXIT_OK;
}

/* --count, --moves and --format csv|md|tex each choose what is printed. */
static int set_output(struct solve_args *a, enum solve_output out, const char *opt)
{
    int clash = out == OUT_RECORD
                    ? a->output != OUT_RECORD
                    : (a->output != OUT_RECORD && a->output != out) ||
                          a->format != REPORT_TEXT;
    if (clash)
        return cli_fail(EXIT_USAGE, "%s: choose one of --count, --moves and --format "
                        "csv|md|tex (each sets what is printed)", opt);
    a->output = out;
    return EXIT_OK;
}

/* The options; a method-specific one names the methods that use it. */
static const struct cli_option solve_options[] = {
    {"method", 'M', CLI_VALUE, 'M', 0, NULL, NULL},
    {"metric", 'e', CLI_VALUE, 'e', 0, NULL, NULL},
    {"h", 'H', CLI_VALUE, 'H', TAKES_H, "--method ida", NULL},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"size", 's', CLI_VALUE, 's', 0, NULL, NULL},
    {"format", 'f', CLI_VALUE, 'f', 0, NULL, NULL},
    {"max-nodes", 'n', CLI_VALUE, 'n', TAKES_MAX_NODES, "--method ida", NULL},
    {"max-states", 'S', CLI_VALUE, 'S', TAKES_MAX_STATES, "--method bibfs", NULL},
    {"count", 'c', CLI_FLAG, 'c', 0, NULL, NULL},
    {"moves", 'm', CLI_FLAG, 'm', 0, NULL, NULL},
    {"progress", 0, CLI_FLAG, 'p', TAKES_PROGRESS, "--method ida", NULL},
    {"no-progress", 0, CLI_FLAG, 'P', TAKES_PROGRESS, "--method ida", "progress"},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {"db", 'd', CLI_VALUE, 'd', TAKES_DB, "--method db", NULL},
    {"keep-going", 0, CLI_FLAG, 'k', 0, NULL, NULL},
    {"reflect", 0, CLI_FLAG, 'r', TAKES_H, "--method ida", NULL},
    {"threads", 't', CLI_VALUE, 't', TAKES_BATCH,
     "--method ida, or BOARD - or @FILE (several boards)", NULL},
    {"provenance", 0, CLI_FLAG, 'V', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

/* One option's value into a; EXIT_OK or EXIT_USAGE (printed). */
static int take_option(int c, const char *v, void *ctx)
{
    struct solve_args *a = ctx;
    slide_error err;
    long n;
    int k;
    switch (c) {
    case 'M':
        return (a->method = method_find(v)) ? EXIT_OK : method_unknown(v);
    case 'H': a->heuristic = v; a->given |= TAKES_H; return EXIT_OK;
    case 'e':
        if ((k = metric_parse(v)) < 0)
            return cli_fail(EXIT_USAGE, "--metric must be stm or mtm, not \"%s\"", v);
        a->metric = (enum metric)k;
        return EXIT_OK;
    case 'd': a->db_path = v; a->given |= TAKES_DB; return EXIT_OK;
    case 'g': a->goal_text = v; return EXIT_OK;
    case 's':
        return board_parse_dims(v, &a->rows, &a->cols, &err)
                   ? cli_fail(EXIT_USAGE, "--size: %s", err.msg) : EXIT_OK;
    case 'f':
        if ((k = report_format_parse(v)) < 0)
            return cli_fail(EXIT_USAGE, "--format must be text, csv, md or tex, not \"%s\"", v);
        if (k != REPORT_TEXT && set_output(a, OUT_RECORD, "--format"))
            return EXIT_USAGE;
        a->format = (enum report_format)k;
        return EXIT_OK;
    case 'n':
    case 'S':
        if (cli_int(c == 'n' ? "--max-nodes" : "--max-states", v, 1, LONG_MAX, &n))
            return EXIT_USAGE;
        *(c == 'n' ? &a->max_nodes : &a->max_states) = (uint64_t)n;
        a->given |= c == 'n' ? TAKES_MAX_NODES : TAKES_MAX_STATES;
        return EXIT_OK;
    case 'c':
    case 'm':
        return set_output(a, c == 'c' ? OUT_COUNT : OUT_MOVES, c == 'c' ? "--count" : "--moves");
    case 'p': a->progress = 1; return EXIT_OK;
    case 'P': a->progress = 0; return EXIT_OK;
    case 'k': a->keep_going = 1; return EXIT_OK;
    case 'r': a->reflect = 1; return EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'V': a->provenance = 1; return EXIT_OK;
    }
    return EXIT_USAGE;
}

/* 1 if NAME of --h max(NAME,pdb:...) is a heuristic ida_heuristic_open knows. */
static int known_with(const char *name)
{
    for (int i = 0; ida_heuristic_name(i); i++)
        if (!strcmp(ida_heuristic_name(i), name))
            return 1;
    return !strcmp(name, "wd");
}

static int parse_args(int argc, char **argv, struct solve_args *a, struct cli_parse *p)
{
    memset(a, 0, sizeof *a);
    a->heuristic = IDA_HEURISTIC_DEFAULT;
    a->progress = -1;
    cli_parse_init(p, "solve", solve_options, argc, argv);
    int rc = cli_parse_options(p, help, take_option, a);
    if (rc)
        return rc;
    a->batch = p->nargs != 1 || !strcmp(p->args[0], "-") || p->args[0][0] == '@';
    a->is_pdb = pdb_spec_split(a->heuristic, a->pdb_with, sizeof a->pdb_with, a->pdb_files,
                               sizeof a->pdb_files);
    if (a->is_pdb == -1)
        return cli_fail(EXIT_USAGE, "--h: the pattern database list is too long");
    if (a->is_pdb == -2 || (a->is_pdb == 1 && a->pdb_with[0] && !known_with(a->pdb_with)))
        return cli_fail(EXIT_USAGE, "--h \"%s\": combine as pdb:FILE+FILE+... or "
                        "max(NAME,pdb:FILE+FILE+...) with NAME one of lc, manhattan, "
                        "misplaced, wd (one NAME and one pdb: sum; no nested max)",
                        a->heuristic);
    if (a->reflect && a->is_pdb != 1)
        return cli_fail(EXIT_USAGE, "--reflect mirrors pattern database lookups: use it with "
                                    "--h pdb:FILES or --h max(NAME,pdb:FILES)");
    if (!a->method)
        method_default(a);
    if (a->metric == METRIC_MTM && strcmp(a->method->name, "ida") != 0 &&
        strcmp(a->method->name, "bibfs") != 0 && strcmp(a->method->name, "db") != 0)
        return cli_fail(EXIT_USAGE, "--metric mtm: --method %s counts single-tile moves "
                        "only; use --method ida, bibfs or db", a->method->name);
    if (a->metric == METRIC_MTM && !(a->given & TAKES_H))
        a->heuristic = "wd"; /* lc may overestimate multi-tile distances */
    /* one board: its IDA* search on every core; boards: one at a time */
    int searches = (a->method->takes | (a->fallback ? a->fallback->takes : 0)) & TAKES_THREADS;
    if (a->threads == 0)
        a->threads = !a->batch && searches ? omp_get_max_threads() : 1;
    return check_specific(a, p);
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

/* 1 if a line holds nothing: blanks only, or a '#' comment. */
static int empty_line(const char *p)
{
    return p[strspn(p, " \t\r")] == '\0' || p[strspn(p, " \t")] == '#';
}

/*
 * The lines of "-" or "@FILE" as read (cli_read_lines): until the first
 * one that is not empty the input may be one board over several lines or
 * a board per line; that line decides (is_board_line).  Blank lines and
 * # comments are dropped in either case; an input of nothing else is
 * refused (cli_no_boards).  One board: every other line is kept, joined,
 * at most CLI_TEXT_MAX bytes.  A board per line:
 * each is kept apart and, unless --keep-going, parsed at once, so that a
 * bad one stops the input there.
 */
struct gather {
    const struct solve_args *a;
    enum { UNDECIDED, ONE_BOARD, BY_LINE } mode;
    struct cli_text one;     /* the lines so far, joined */
    struct cli_lines lines;  /* BY_LINE: the boards */
};

/* A line kept apart (BY_LINE), checked first unless --keep-going. */
static int gather_line(struct gather *g, const char *line, size_t len, long number)
{
    const struct solve_args *a = g->a;
    if (!a->keep_going) {
        struct board b;
        slide_error err;
        int rc = board_parse(line, a->rows, a->cols, &b, &err);
        if (rc)
            return cli_fail(rc == SLIDE_ENOMEM ? EXIT_FAIL : EXIT_USAGE, "line %ld: %s",
                            number, err.msg);
        board_free(&b);
    }
    return cli_lines_add(&g->lines, line, len, number);
}

static int gather_one(char *line, size_t len, long number, void *ctx)
{
    struct gather *g = ctx;
    if (empty_line(line)) /* nothing for the board either (board_parse skips it) */
        return EXIT_OK;
    if (g->mode == BY_LINE)
        return gather_line(g, line, len, number);
    if (g->mode == UNDECIDED) {
        if (is_board_line(line, g->a->rows, g->a->cols)) {
            g->mode = BY_LINE; /* the empty lines before it are dropped */
            return gather_line(g, line, len, number);
        }
        g->mode = ONE_BOARD;
    }
    return cli_text_add(&g->one, line, len);
}

/* The boards of "-" or "@FILE" into l. */
static int read_input(const char *arg, const struct solve_args *a, struct board_list *l)
{
    struct gather g = {a, UNDECIDED, {NULL, 0, 0, "the board",
                                      strcmp(arg, "-") ? arg + 1 : "standard input",
                                      " (or give one board per line)"}, {0}};
    int rc = cli_read_lines(arg, "the boards", gather_one, &g);
    if (!rc && g.mode == UNDECIDED)
        rc = cli_no_boards(arg);
    int n = g.mode == BY_LINE ? (int)g.lines.count : 1;
    l->buf = g.mode == BY_LINE ? g.lines.buf : g.one.text;
    if (g.mode == BY_LINE)
        g.lines.buf = NULL;
    else
        g.one.text = NULL;
    if (!rc && !l->buf && !(l->buf = calloc(1, 1)))
        rc = cli_fail(EXIT_FAIL, "out of memory reading the boards");
    if (!rc && (!(l->text = malloc((size_t)n * sizeof *l->text)) ||
                !(l->line = calloc((size_t)n, sizeof *l->line))))
        rc = cli_fail(EXIT_FAIL, "out of memory for %d boards", n);
    for (int i = 0; !rc && i < n; i++) {
        l->text[i] = l->buf + (g.mode == BY_LINE ? g.lines.off[i] : 0);
        l->line[i] = g.mode == BY_LINE ? (int)g.lines.number[i] : 0;
    }
    l->count = rc ? 0 : n;
    free(g.one.text);
    cli_lines_free(&g.lines);
    return rc;
}

static int read_boards(int argc, char **argv, const struct solve_args *a,
                       struct board_list *l)
{
    memset(l, 0, sizeof *l);
    if (argc == 0)
        return cli_fail(EXIT_USAGE, "no board given (write it like \"1 2 3/4 5 6/7 8 0\", "
                                    "or - to read boards from standard input)");
    if (argc > 1)
        return cli_fail(EXIT_USAGE, "solve takes one BOARD (got %d); quote it, or "
                        "use - to read several", argc);
    if (strcmp(argv[0], "-") == 0 || argv[0][0] == '@')
        return read_input(argv[0], a, l);
    if (!(l->buf = strdup(argv[0])) || !(l->text = malloc(sizeof *l->text)) ||
        !(l->line = calloc(1, sizeof *l->line)))
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

/*
 * Replay moves[0..len-1] (letters, in the notation of metric m: metric.h)
 * from start.  With tiles != NULL, write the tiles that each move slides
 * to it, moves separated by spaces (MTM: a move's tiles joined by commas,
 * in the order the blank meets them); with goal != NULL, check that the
 * moves end on goal.  Streams, so a solution of billions of moves needs no
 * more memory than the board.  Errors: SLIDE_EINVAL (a move that leaves
 * the board, a group of unequal letters, or the wrong end: a bug of the
 * method), SLIDE_ENOMEM.
 */
static int replay(const struct board *start, const struct board *goal, enum metric metric,
                  const char *moves, uint64_t len, FILE *tiles, slide_error *err)
{
    struct board b;
    int rc = board_copy(&b, start, err);
    if (rc)
        return rc;
    int z = board_blank(&b);
    char prev = ' ';
    for (uint64_t i = 0; i < len && !rc; i++) {
        if (metric == METRIC_MTM && moves[i] == ' ' && prev != ' ') {
            prev = ' ';
            continue;
        }
        int m = move_parse(moves[i]);
        int to = m < 0 ? -1 : board_step(b.rows, b.cols, z, (enum move)m);
        int joined = metric == METRIC_MTM && prev != ' '; /* within one MTM move */
        if (to < 0 || (joined && moves[i] != prev)) {
            rc = slide_fail(err, SLIDE_EINVAL, "internal error: move %" PRIu64
                            " ('%c') of the solution is not legal", i + 1, moves[i]);
            break;
        }
        if (tiles)
            fprintf(tiles, joined ? ",%d" : i ? " %d" : "%d", b.cells[to]);
        board_move(&b, &z, (enum move)m);
        prev = moves[i];
    }
    if (!rc && goal && !board_equal(&b, goal))
        rc = slide_fail(err, SLIDE_EINVAL, "internal error: the %" PRIu64 " moves of "
                        "the solution do not end on the goal", len);
    board_free(&b);
    return rc;
}

/* The characters of ans->moves: one per move in STM, the text's length in
 * MTM (a move is as many letters as cells it travels, and spaces). */
static uint64_t moves_chars(const struct solve_job *job, const struct solve_answer *ans)
{
    return job->metric == METRIC_MTM ? strlen(ans->moves) : ans->length;
}

/* Every solution is replayed to the goal before it is printed: a method
 * whose path does not get there is a bug worth a loud failure. */
static int check_answer(const struct solve_job *job, const struct solve_answer *ans,
                        slide_error *err)
{
    if (ans->moves)
        return replay(job->start, job->goal, job->metric, ans->moves,
                      moves_chars(job, ans), NULL, err);
    if (job->count_only)
        return SLIDE_OK;
    return slide_fail(err, SLIDE_EINVAL, "internal error: the method gave no moves");
}

static const char *status_name(int rc, const struct solve_answer *ans)
{
    if (rc == SLIDE_EUNSOLVABLE)
        return "unsolvable";
    if (rc)
        return "stopped";
    return ans->optimal ? "optimal" : "found";
}

/* What solve_one hands to the printers besides the answer. */
struct printed {
    const struct solve_job *job;
    const char *board, *goal, *method, *status;
    const char *why; /* the message when there is no solution, else NULL */
    double seconds;
    int unsolvable;  /* status is "unsolvable" */
};

/* "nodes: ..." from the figures the method produced; nothing if none. */
static void print_figures(const struct solve_answer *ans)
{
    const struct {
        int64_t v;
        const char *fmt;
    } f[] = {{ans->expanded, "%" PRId64 " expanded"}, {ans->generated, "%" PRId64 " generated"},
             {ans->iterations, "%" PRId64 " iterations"}, {ans->h_start, "h(board) %" PRId64},
             {ans->stored, "%" PRId64 " stored"}};
    int any = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (f[i].v == SOLVE_NONE)
            continue;
        fputs(any++ ? ", " : "nodes: ", stdout);
        printf(f[i].fmt, f[i].v);
    }
    if (any)
        putchar('\n');
}

static int print_text(const struct printed *p, const struct solve_answer *ans,
                      slide_error *err)
{
    printf("board: %s\ngoal: %s\nmethod: %s%s%s\n", p->board, p->goal, p->method,
           ans->heuristic[0] ? ", heuristic " : "", ans->heuristic);
    if (p->unsolvable) {
        printf("%s\n", p->why); /* parity_explain's line starts "unsolvable:" */
        return SLIDE_OK;
    }
    if (p->why) {
        printf("stopped: %s\n", p->why);
    } else {
        if (ans->optimal)
            printf("optimal moves: %" PRIu64 "\n", ans->length);
        else
            printf("moves: %" PRIu64 " (%s)\n", ans->length, ans->caveat);
        fputs("blank moves: ", stdout);
        fwrite(ans->moves, 1, moves_chars(p->job, ans), stdout);
        fputs("\ntiles moved: ", stdout);
        int rc = replay(p->job->start, NULL, p->job->metric, ans->moves,
                        moves_chars(p->job, ans), stdout, err);
        putchar('\n');
        if (rc)
            return rc;
    }
    print_figures(ans);
    if (ans->expanded_last != SOLVE_NONE)
        printf("last iteration: %" PRId64 " expanded, %" PRId64 " generated\n",
               ans->expanded_last, ans->generated_last);
    printf("time: %.3f s, CPU %.3f s, %" PRId64 " thread%s\n", p->seconds, ans->cpu_seconds,
           ans->threads, ans->threads == 1 ? "" : "s");
    return SLIDE_OK;
}

/* --count and --moves: one line per board. */
static void print_line(const struct printed *p, const struct solve_answer *ans,
                       enum solve_output out)
{
    if (p->unsolvable)
        printf("%s\n", p->why);
    else if (p->why)
        printf("stopped: %s\n", p->why);
    else if (out == OUT_COUNT)
        printf("%" PRIu64 "\n", ans->length);
    else {
        fwrite(ans->moves, 1, moves_chars(p->job, ans), stdout);
        putchar('\n');
    }
}

static const char *const columns[] = {
    "board", "method", "heuristic", "status", "length", "blank_moves", "tiles_moved",
    "expanded", "generated", "iterations", "h_start", "lower_bound", "seconds", "stored",
    "threads", "cpu_seconds", "expanded_last", "generated_last", "cpu_critical"};
#define NCOLUMNS (int)(sizeof columns / sizeof columns[0])

/* A figure as a cell: empty when the method does not produce it. */
static const char *figure(int64_t v, char *buf, size_t len)
{
    if (v == SOLVE_NONE)
        return "";
    snprintf(buf, len, "%" PRId64, v);
    return buf;
}

/* The tiles moved as one string (malloc'd), for a table cell. */
static int tiles_text(const struct printed *p, const struct solve_answer *ans,
                      char **text, slide_error *err)
{
    size_t size;
    FILE *f = open_memstream(text, &size);
    if (!f)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory printing a solution");
    int rc = replay(p->job->start, NULL, p->job->metric, ans->moves,
                    moves_chars(p->job, ans), f, err);
    if (fclose(f) && !rc)
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory printing a solution");
    return rc;
}

static int print_record(const struct report_table *t, const struct printed *p,
                        const struct solve_answer *ans, slide_error *err)
{
    char len[24] = "", f[9][24], sec[32], cpu[32], crit[32];
    char *tiles = NULL;
    int solved = !p->why;
    if (solved) {
        snprintf(len, sizeof len, "%" PRIu64, ans->length);
        int rc = tiles_text(p, ans, &tiles, err);
        if (rc) {
            free(tiles);
            return rc;
        }
    }
    snprintf(sec, sizeof sec, "%.6f", p->seconds);
    snprintf(cpu, sizeof cpu, "%.6f", ans->cpu_seconds);
    snprintf(crit, sizeof crit, "%.6f", ans->cpu_critical);
    const char *row[] = {p->board, p->method, ans->heuristic, p->status, len,
                         solved ? ans->moves : "", solved ? tiles : "",
                         figure(ans->expanded, f[0], sizeof f[0]),
                         figure(ans->generated, f[1], sizeof f[1]),
                         figure(ans->iterations, f[2], sizeof f[2]),
                         figure(ans->h_start, f[3], sizeof f[3]),
                         figure(ans->lower_bound, f[4], sizeof f[4]), sec,
                         figure(ans->stored, f[5], sizeof f[5]),
                         figure(ans->threads, f[6], sizeof f[6]), ans->cpu_seconds < 0 ? "" : cpu,
                         figure(ans->expanded_last, f[7], sizeof f[7]),
                         figure(ans->generated_last, f[8], sizeof f[8]),
                         ans->cpu_critical < 0 ? "" : crit};
    report_row(t, row);
    free(tiles);
    return SLIDE_OK;
}

/* Print the answer in the chosen form. */
static int print_answer(const struct solve_args *a, const struct report_table *t,
                        const struct printed *p, const struct solve_answer *ans,
                        slide_error *err)
{
    if (a->output != OUT_RECORD) {
        print_line(p, ans, a->output);
        return SLIDE_OK;
    }
    return a->format == REPORT_TEXT ? print_text(p, ans, err) : print_record(t, p, ans, err);
}

/* ---- one board --------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* SLIDE_EUNSOLVABLE with parity_explain's line when start cannot reach goal. */
static int check_solvable(const struct board *start, const struct board *goal,
                          slide_error *err)
{
    struct parity_report pr;
    int rc = parity_check(start, goal, &pr, err);
    if (rc || pr.solvable)
        return rc;
    char why[SLIDE_ERROR_LEN];
    parity_explain(&pr, why, sizeof why);
    return slide_fail(err, SLIDE_EUNSOLVABLE, "%s", why);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* CPU seconds of the calling thread, or of the process (clock). */
static double cpu_clock(clockid_t clock)
{
    struct timespec t;
    if (clock_gettime(clock, &t))
        return 0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double thread_cpu(void)
{
    return cpu_clock(CLOCK_THREAD_CPUTIME_ID);
}

/* A board's search, kept until it is printed (boards may be solved in
 * parallel and are printed in input order). */
struct solved {
    struct solve_answer ans;
    int rc;
    slide_error err;
    double seconds;
};

/* Check and solve job's board with method. */
static void solve_only(const struct solve_method *method, const struct solve_job *job,
                       struct solved *s)
{
    struct solve_answer ans = {.lower_bound = SOLVE_NONE, .expanded = SOLVE_NONE,
                               .generated = SOLVE_NONE, .iterations = SOLVE_NONE,
                               .h_start = SOLVE_NONE, .stored = SOLVE_NONE,
                               .expanded_last = SOLVE_NONE, .generated_last = SOLVE_NONE,
                               .threads = 1, .cpu_seconds = -1, .cpu_critical = -1,
                               .heuristic = ""};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double cpu0 = thread_cpu();
    s->ans = ans;
    s->rc = check_solvable(job->start, job->goal, &s->err);
    if (!s->rc)
        s->rc = method->solve(job, &s->ans, &s->err);
    s->seconds = seconds_since(&t0);
    if (s->ans.cpu_seconds < 0) /* a method on this thread alone */
        s->ans.cpu_seconds = thread_cpu() - cpu0;
}

/* Print a solved board; returns an exit status. */
static int print_solved(const struct solve_args *a, const struct solve_method *method,
                        const struct solve_job *job, const struct report_table *t,
                        struct solved *s)
{
    char *btext = board_text(job->start), *gtext = board_text(job->goal);
    int status, rc = s->rc;
    if (rc == SLIDE_EINVAL || rc == SLIDE_ENOMEM || rc == SLIDE_ERANGE ||
        rc == SLIDE_EFORMAT) { /* EFORMAT: a database that contradicts itself */
        status = cli_fail_lib(rc, &s->err);
    } else if (!btext || !gtext) {
        status = cli_fail(EXIT_FAIL, "out of memory");
    } else if (!rc && check_answer(job, &s->ans, &s->err)) {
        status = cli_fail(EXIT_FAIL, "%s", s->err.msg);
    } else {
        struct printed p = {job, btext, gtext, method->name, status_name(rc, &s->ans),
                            rc ? s->err.msg : NULL, s->seconds, rc == SLIDE_EUNSOLVABLE};
        status = rc == SLIDE_EUNSOLVABLE ? EXIT_UNSOLVABLE : rc ? EXIT_FAIL : EXIT_OK;
        if (print_answer(a, t, &p, &s->ans, &s->err))
            status = cli_fail(EXIT_FAIL, "%s", s->err.msg);
        else if (!rc || rc == SLIDE_EUNSOLVABLE)
            cli_board_hint(job->start, job->goal, a->rows == 0, a->goal_text != NULL,
                           CLI_HINT_OPTIONS);
    }
    free(btext);
    free(gtext);
    free(s->ans.moves);
    s->ans.moves = NULL;
    return status;
}

/* What stays from board to board. */
struct solve_run {
    const struct solve_args *a;
    const struct report_table *t;
    struct db db;                /* loaded when a->db_path is set */
    struct pdb_set pdb;          /* loaded when --h names pattern databases */
    char note[SLIDE_ERROR_LEN];  /* the last fallback note printed */
    double load_wall, load_cpu;  /* loading --db and --h pdb: (process CPU) */
    double search_cpu;           /* the searches' CPU seconds, summed */
};

/* The method for job: the chosen one if it covers the board; else its
 * fallback, with a note on stderr unless the same note was the last one
 * printed; else (--method named it) an error.  Returns an exit status. */
static int method_for(struct solve_run *r, const struct solve_job *job, int lineno,
                      int quiet, const struct solve_method **m)
{
    char why[SLIDE_ERROR_LEN];
    *m = r->a->method;
    if (!(*m)->covers || (*m)->covers(job, why, sizeof why))
        return EXIT_OK;
    if (!r->a->fallback)
        return lineno ? cli_fail(EXIT_USAGE, "line %d: --method %s: %s", lineno, (*m)->name, why)
                      : cli_fail(EXIT_USAGE, "--method %s: %s", (*m)->name, why);
    *m = r->a->fallback;
    if (!quiet && strcmp(why, r->note) != 0) {
        cli_note("%s; solving with --method %s\n", why, (*m)->name);
        snprintf(r->note, sizeof r->note, "%s", why);
    }
    return EXIT_OK;
}

/* One board of the input: parsed, with its goal, job and method. */
struct item {
    struct board start, goal;
    struct solve_job job;
    const struct solve_method *m;
    struct solved s;
    int done; /* solved (set under the print lock) */
};

static void item_free(struct item *it)
{
    board_free(&it->start);
    board_free(&it->goal);
}

/* After tables were refused for goal: when it is Korf's (4x4, blank
 * first), the line that says where his instances are for slide's goal. */
static void korf_hint(const struct board *goal)
{
    static int said; /* once per process, as cli_board_hint */
    if (goal->rows != 4 || goal->cols != 4)
        return;
    for (int k = 0; k < board_cells(goal); k++)
        if (goal->cells[k] != k)
            return;
    if (!said++)
        cli_fail(0, "hint: data/korf100.txt holds Korf's 100 instances turned to slide's goal "
                    "(blank last): slide solve --h pdb:FILES - < data/korf100.txt");
}

/* Parse one board and choose its method (quiet: without the fallback
 * note, for check_lines); --h pdb:'s tables must fit a board that IDA*
 * solves.  Returns an exit status. */
static int prepare_one(struct solve_run *r, const char *text, int lineno, int quiet,
                       struct item *it)
{
    const struct solve_args *a = r->a;
    slide_error err;
    memset(it, 0, sizeof *it);
    int rc = board_parse(text, a->rows, a->cols, &it->start, &err);
    if (rc)
        return lineno ? cli_fail(rc == SLIDE_ENOMEM ? EXIT_FAIL : EXIT_USAGE, "line %d: %s",
                                 lineno, err.msg)
                      : cli_fail_lib(rc, &err);
    if ((rc = cli_goal(a->goal_text, it->start.rows, it->start.cols, &it->goal)))
        return rc;
    struct solve_job job = {&it->start, &it->goal, a->heuristic, a->max_nodes, a->max_states,
                            &interrupted,
                            cli_progress_wanted(a->progress) && (a->threads == 1 || !a->batch),
                            a->output == OUT_COUNT, a->db_path ? &r->db : NULL,
                            a->is_pdb == 1 ? &r->pdb : NULL, a->pdb_with,
                            a->batch ? 1 : a->threads, a->metric};
    it->job = job;
    if ((rc = method_for(r, &it->job, lineno, quiet, &it->m)))
        return rc;
    if (job.pdb && (it->m->takes & TAKES_H) && (rc = pdb_set_match(job.pdb, &it->goal, &err))) {
        rc = lineno ? cli_fail(EXIT_USAGE, "line %d: %s", lineno, err.msg)
                    : cli_fail_lib(rc, &err);
        /* a one-line list of the tables' cell count: the --size hint, as
         * slide solvable gives it */
        cli_board_hint(&it->start, &it->goal, a->rows == 0, a->goal_text != NULL,
                       CLI_HINT_OPTIONS);
        korf_hint(&it->goal);
        return rc;
    }
    return EXIT_OK;
}

/* Parse, solve and print one board; returns an exit status. */
static int solve_one(struct solve_run *r, const char *text, int lineno)
{
    struct item it;
    int status = prepare_one(r, text, lineno, 0, &it);
    if (status == EXIT_OK) {
        solve_only(it.m, &it.job, &it.s);
        r->search_cpu += it.s.ans.cpu_seconds;
        status = print_solved(r->a, it.m, &it.job, r->t, &it.s);
    }
    item_free(&it);
    return status;
}

/* Without --keep-going, every line is prepared (parsed, its goal and method
 * chosen, --h pdb:'s tables matched) before anything is solved or printed:
 * a bad one is refused (exit 2) and leaves no partial table. */
static int check_lines(struct solve_run *r, const struct board_list *l)
{
    for (int i = 0; i < l->count && l->line[i] && !r->a->keep_going; i++) {
        struct item it;
        int rc = prepare_one(r, l->text[i], l->line[i], 1, &it);
        item_free(&it);
        if (rc)
            return rc;
    }
    return EXIT_OK;
}

/* Worse statuses win: usage > failure > unsolvable > ok. */
static int worse(int a, int b)
{
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_UNSOLVABLE] = 1, [EXIT_FAIL] = 2,
                               [EXIT_USAGE] = 3};
    return rank[b] > rank[a] ? b : a;
}

static int solve_serial(struct solve_run *r, const struct board_list *l)
{
    const struct solve_args *a = r->a;
    int status = EXIT_OK;
    for (int i = 0; i < l->count && !interrupted; i++) {
        if (i && a->output == OUT_RECORD && a->format == REPORT_TEXT)
            putchar('\n');
        int s = solve_one(r, l->text[i], l->line[i]);
        status = worse(status, s);
        if (s == EXIT_USAGE && !a->keep_going)
            break;
    }
    return status;
}

/*
 * --threads N: every board is parsed first, in order (a bad line stops the
 * input there unless --keep-going, as in the serial loop), then the boards are solved N at a
 * time and each answer is printed in input order as soon as the ones
 * before it are out.  The heuristic's tables (pattern databases, --db) are
 * shared read-only; each search has its own state.
 */
static int solve_parallel(struct solve_run *r, const struct board_list *l)
{
    const struct solve_args *a = r->a;
    struct item *items = calloc((size_t)l->count + 1, sizeof *items);
    if (!items)
        return cli_fail(EXIT_FAIL, "out of memory for %d boards", l->count);
    int n = 0, status = EXIT_OK, prep = EXIT_OK;
    for (int i = 0; i < l->count; i++) {
        int s = prepare_one(r, l->text[i], l->line[i], 0, &items[n]);
        if (s == EXIT_OK) {
            n++;
            continue;
        }
        item_free(&items[n]);
        prep = worse(prep, s);
        if (s == EXIT_USAGE && !a->keep_going)
            break;
    }
    /* No `ordered` clause: with it, a thread that finished board i waited
     * for board i - 1 before it could take another, so one long board held
     * both threads (Korf's #60 is a quarter of the 100).  Instead the thread
     * that completes the next board in input order prints every finished
     * board from there on; the others go on solving. */
    int printed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(a->threads)
    for (int i = 0; i < n; i++) {
        if (!interrupted)
            solve_only(items[i].m, &items[i].job, &items[i].s);
#pragma omp critical(solve_print)
        {
            items[i].done = 1;
            for (; printed < n && items[printed].done; printed++) {
                struct item *it = &items[printed];
                if (it->s.ans.cpu_seconds > 0)
                    r->search_cpu += it->s.ans.cpu_seconds;
                if (!interrupted || it->s.rc != SLIDE_OK || it->s.ans.length) {
                    if (printed && a->output == OUT_RECORD && a->format == REPORT_TEXT)
                        putchar('\n');
                    int s = print_solved(a, it->m, &it->job, r->t, &it->s);
                    status = s == EXIT_OK ? status : worse(status, s);
                }
                item_free(it);
            }
        }
    }
    free(items);
    return worse(status, prep);
}

/* The goal of --goal when its text alone gives the size (rows written with
 * '/', or --size), for checking the tables' headers before their payload;
 * 0 when it does not (the boards give the size: checked per board). */
static int goal_for_tables(const struct solve_args *a, struct board *goal)
{
    slide_error err;
    const char *t = a->goal_text;
    if (!t || (a->rows == 0 && !strpbrk(t, "/\n")))
        return 0;
    return board_parse_goal(t, a->rows, a->cols, goal, &err) == SLIDE_OK;
}

/* Load --h's pattern databases once, with the load time on stderr. */
static int load_pdbs(const struct solve_args *a, struct pdb_set *set)
{
    slide_error err;
    struct timespec t0;
    struct board goal = {0};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int known = goal_for_tables(a, &goal);
    /* bad input (the list, --reflect, tables that do not go together) is 2;
     * a bad file is 1 (pdb.h keeps SLIDE_EINVAL for the former) */
    int rc = pdb_set_load_for(set, a->pdb_files, a->reflect, 0, known ? &goal : NULL, &err);
    if (rc) {
        rc = cli_fail_lib(rc, &err);
        if (known)
            korf_hint(&goal);
    }
    board_free(&goal);
    if (rc)
        return rc;
    if (a->metric == METRIC_MTM && pdb_set_metric(set) != METRIC_MTM)
        return pdb_set_free(set), cli_fail(EXIT_USAGE, "--metric mtm: the pattern databases are of kind %s, "
                        "which bounds single-tile moves; build tables of kind mtm (slide "
                        "pdb build --pattern TILES --mtm)",
                        pdb_kind_name(set->tables[0].kind));
    if (!pdb_set_admissible(set))
        fprintf(stderr, "slide: note: the pattern databases overlap or mix kinds, so their "
                        "sum may overestimate: lengths are not proven optimal\n");
    if (a->progress != 0)
        fprintf(stderr, "slide: loaded %d pattern database%s in %.3f s\n", set->count,
                set->count == 1 ? "" : "s", seconds_since(&t0));
    return EXIT_OK;
}

int cmd_solve(int argc, char **argv)
{
    struct solve_args a;
    struct cli_parse p;
    char command[sizeof a.command];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cli_command_line("solve", argc, argv, command, sizeof command); /* before argv is permuted */
    int rc = parse_args(argc, argv, &a, &p);
    memcpy(a.command, command, sizeof command);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    struct board_list l = {0};
    struct solve_run r = {&a, NULL, {0}, {0}, "", 0, 0, 0};
    struct timespec tl;
    clock_gettime(CLOCK_MONOTONIC, &tl);
    double cl = cpu_clock(CLOCK_PROCESS_CPUTIME_ID); /* nothing else runs yet */
    if (a.db_path && (rc = cli_load_db(a.db_path, 0, a.metric, &r.db)) != EXIT_OK)
        return rc;
    if (a.is_pdb == 1 && (rc = load_pdbs(&a, &r.pdb)) != EXIT_OK) {
        db_free(&r.db);
        return rc;
    }
    r.load_wall = seconds_since(&tl);
    r.load_cpu = cpu_clock(CLOCK_PROCESS_CPUTIME_ID) - cl;
    /* --goal - or @FILE is read once, for every board */
    char *goal_buf = NULL;
    if (a.goal_text && (!strcmp(a.goal_text, "-") || a.goal_text[0] == '@') &&
        !(rc = cli_read_text(a.goal_text, "the goal", &goal_buf)))
        a.goal_text = goal_buf;
    if (rc || (rc = read_boards(p.nargs, p.args, &a, &l)) || (rc = check_lines(&r, &l))) {
        board_list_free(&l);
        db_free(&r.db);
        pdb_set_free(&r.pdb);
        free(goal_buf);
        return rc;
    }
    /* the others end at once, as usual */
    if (a.method->cancelable || (a.fallback && a.fallback->cancelable)) {
        struct sigaction sa = {0};
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
    }
    struct report_table t = {stdout, a.format, NCOLUMNS, columns, "Solutions", 0};
    r.t = &t;
    int table = a.output == OUT_RECORD && a.format != REPORT_TEXT;
    const char *prefix = cli_provenance_prefix(a.format);
    if (a.provenance) /* the times come at the end: the answers stream */
        provenance_write(stdout, prefix, a.command, a.threads, -1);
    if (table)
        report_begin(&t);
    int status = a.batch && a.threads > 1 ? solve_parallel(&r, &l)
                               : solve_serial(&r, &l);
    if (table)
        report_end(&t);
    if (a.provenance) {
        printf("%ssearch CPU time: %.3f s (the searches' own threads, measured inside "
               "slide); loading tables: %.3f s wall, %.3f s CPU\n", prefix, r.search_cpu,
               a.db_path || a.is_pdb == 1 ? r.load_wall : 0.0,
               a.db_path || a.is_pdb == 1 ? r.load_cpu : 0.0);
        provenance_write_times(stdout, prefix, seconds_since(&t0));
    }
    board_list_free(&l);
    db_free(&r.db);
    free(goal_buf);
    pdb_set_free(&r.pdb);
    rc = cli_finish_stdout();
    return rc ? rc : status;
}
