/*
 * cmd_serve.c - `slide serve`: the board in a web page, served by slide
 * itself (serve.h), with a JSON API (serve_api.h).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#ifdef SLIDE_HAVE_SERVE
#include "slide/db.h"
#include "slide/pdb.h"
#include "slide/serve.h"
#endif

static const char help[] =
    "usage: slide serve [--bind ADDR] [--port N] [--db FILE...] [--pdb SETS [--reflect]]\n"
    "                   [--threads N] [--max-nodes N] [--max-seconds S]\n"
    "Examples:\n"
    "  slide serve                            # the page at http://127.0.0.1:8080/\n"
    "  slide serve --db 3x3.db --pdb pdb78    # exact 3x3, IDA* with pdb78 on 4x4\n"
    "Serve a web page to play, check and solve boards, with the engine behind\n"
    "it: the parity verdict in words, optimal solutions animated, the exact\n"
    "distance and every heuristic live where a database is loaded, and the\n"
    "size's distance histogram.  The URL goes to standard output (one line);\n"
    "Ctrl-C or SIGTERM stops the server cleanly (running searches are\n"
    "cancelled, connections closed).  The page is built into the binary.\n"
    "A board can be typed into the page in any syntax slide takes, or given\n"
    "in its address: /?board=BOARD[&size=RxC][&goal=first|last|GOAL], e.g.\n"
    "/?board=14+13+15+7/11+12+9+5/6+0+2+1/4+8+10+3&goal=first (Korf's #1).\n"
    "  --bind ADDR      the IP address to listen on (default 127.0.0.1, this\n"
    "                   machine only, as any 127.x.x.x or ::1; 0.0.0.0, :: or\n"
    "                   another address opens it to the network)\n"
    "  --port N         the TCP port (default 8080; 0 picks a free one)\n"
    "  --db FILE...     distance databases (slide bfs RxC [--metric mtm] --save\n"
    "                   FILE), up to 16, as the words after --db (--db a.db\n"
    "                   b.db); their sizes get exact distances, descent\n"
    "                   solutions and the histogram, each in its file's metric\n"
    "                   (a request of the other metric does not use it)\n"
    "  --pdb SETS       pattern database sets (slide pdb build), loaded once and\n"
    "                   shared read-only: a set is FILE or FILE+FILE+... (as in\n"
    "                   slide solve --h pdb:FILE+...), where a name may be the\n"
    "                   DIR of pdb build --partition (all its tables); sets\n"
    "                   are separated by commas, up to 4 (--pdb a.pdb+b.pdb,\n"
    "                   pdb78; no empty one).  Each set must be admissible\n"
    "                   (disjoint additive tables, or one table).  IDA* with no\n"
    "                   heuristic asked uses max(lc,pdb) with the set built for\n"
    "                   the board's size and goal, else lc; /api/eval reports\n"
    "                   its value as pdb\n"
    "  --reflect        every --pdb set also looks up the board mirrored in the\n"
    "                   main diagonal and takes the larger sum (as slide solve\n"
    "                   --reflect; square boards whose goal's blank is on it)\n"
    "  --threads N      searches and evaluations that may run at once (1..64,\n"
    "                   default 2); an IDA* solve or an eval beyond that gets\n"
    "                   503 with Retry-After: 1.  An IDA* solve also takes the\n"
    "                   slots idle at its start (at most the machine's\n"
    "                   processors) and searches with one thread per slot held\n"
    "  --max-nodes N    IDA* expansions per search (default 200000000)\n"
    "  --max-seconds S  wall time per search (default 10); a search that hits\n"
    "                   either cap answers status \"stopped\" with the lower\n"
    "                   bound it proved\n"
    "Limits of every request: a body of at most 64 KiB (413 beyond, at once\n"
    "when Content-Length says so, else when the body passes it; the\n"
    "connection is then closed), boards up to 32x32 (400 beyond;\n"
    "/api/solvable takes any size the body can hold), a path and query of\n"
    "at most 8 KiB (414) and 32 query fields (400), no control byte in the\n"
    "path (400), Host in HTTP/1.1 (400), the head within 2 s and the head\n"
    "and body within 10 s of the connection's start or the previous answer\n"
    "and the answer taken within 60 s (else the connection is closed), at\n"
    "most 512 open connections, 256 from one client address: a new one\n"
    "beyond takes the place of the oldest still sending its head or idle\n"
    "(else of the oldest sending its body or receiving its answer), and is\n"
    "closed at once only when all are at work.  A search or evaluation\n"
    "whose client closes the connection is cancelled.  API calls from\n"
    "pages of other sites are refused (403): a\n"
    "browser's Origin must be this server and Sec-Fetch-Site same-origin, and\n"
    "on a loopback address the Host must be localhost, 127.x.x.x or [::1]\n"
    "(programs such as curl send neither Origin nor Sec-Fetch-Site).\n"
    "API (JSON; boards are text as on the command line, \"1 2 3/4 5 6/7 8 0\";\n"
    "goal is optional, default 1..n-1 with the blank last):\n"
    "  GET  /api/info       version, limits, loaded databases and pattern\n"
    "                       databases (each with its metric), heuristics\n"
    "                       (ida_heuristics: what /api/solve's heuristic takes\n"
    "                       here), metrics\n"
    "  POST /api/solvable   {board, goal | blank_first: true, size: \"RxC\" (a flat\n"
    "                       list of cells)} -> solvable, inversions, blank_row,\n"
    "                       goal_blank_row (0 = top), rows, cols, width_rule\n"
    "                       (odd, even or path), explanation (words), board\n"
    "                       and goal (as parsed), goal_kind (standard,\n"
    "                       blank-first, other), hint (null, or another\n"
    "                       reading: {size, board, goal, goal_kind, solvable}\n"
    "                       - the blank-first goal of Korf's convention or the\n"
    "                       standard one, a one-row list as a rectangle)\n"
    "  POST /api/solve      {board, goal, method: auto|ida|db|layers, metric,\n"
    "                       heuristic: lc|manhattan|misplaced|wd|pdb (ida;\n"
    "                       default max(lc,pdb) where a set fits, else lc;\n"
    "                       wd up to 4x4, 3x5, 2x6 and their transposes),\n"
    "                       max_nodes,\n"
    "                       max_seconds (at most the server's)} -> status\n"
    "                       (optimal, found, stopped), method, heuristic,\n"
    "                       optimal, length, moves (the blank's, U D L R),\n"
    "                       lower_bound, expanded, generated, iterations,\n"
    "                       h_start, threads (ida), seconds, metric, reason\n"
    "                       (when stopped).  auto: db where a database covers\n"
    "                       the board, else ida up to 16 cells (any size in\n"
    "                       mtm), else layers (not optimal)\n"
    "  POST /api/scramble   {size: \"RxC\", goal, walk: K, seed} -> board, seed\n"
    "                       (a string: 64 bits), walk; uniform without walk\n"
    "  POST /api/eval       {board, goal, moves, metric} -> distance (null\n"
    "                       without a database of the metric), metric,\n"
    "                       database), h {misplaced, manhattan, lc, lc-pairs,\n"
    "                       wd, pdb: values, null where not built or no\n"
    "                       pattern database fits}, database, and\n"
    "                       with moves, path: the same for each board along them\n"
    "  GET  /api/histogram  ?size=RxC&goal=G&metric=M -> rows, cols, goal,\n"
    "                       metric, radius, reachable, histogram (boards per\n"
    "                       distance)\n"
    "metric: stm (default) or mtm, the multi-tile metric (slide solve --metric):\n"
    "moves are written and read in its notation (\"UU L\" is two moves; the\n"
    "blank jumps along its row or column), ida's heuristic must bound its\n"
    "moves (wd, the default there, or pdb of kind mtm; lc, manhattan and\n"
    "misplaced get 400 as on the command line), layers gets 400, and a\n"
    "database serves the requests of its own metric only.\n"
    "Statuses: 200; 400 bad input, {\"error\": the command line's one-line\n"
    "message} (malformed JSON, wrong types, unknown fields, boards too big);\n"
    "403 a call from another site's page; 404 unknown path or no such\n"
    "database; 405 wrong method (Allow header); 413 body too large; 422\n"
    "/api/solve of an unsolvable board (no search; error is the parity\n"
    "explanation); 503 every search slot busy, or an eval stopped (its time\n"
    "limit, the server stopping).\n"
    "Exit status: 0 stopped by a signal, 1 cannot listen or load a database,\n"
    "or built without the web server, 2 bad arguments.\n";

#define SERVE_MAX_DBS 16
#define SERVE_MAX_PDB_SETS 4

struct serve_args {
    const char *bind;
    long port, threads;
    long long max_nodes;
    double max_seconds;
    const char *db_paths[SERVE_MAX_DBS];
    int ndbs;
    const char *pdb;  /* --pdb SETS, or NULL */
    int reflect;      /* --reflect: the mirrored lookup too */
};

static int parse_seconds(const char *text, double *out)
{
    return cli_real("--max-seconds", text, 0, 3600, 1,
                    "a number of seconds above 0 and at most 3600", out) ? EXIT_USAGE : 0;
}

static int parse_nodes(const char *text, long long *out)
{
    long v;
    if (cli_int("--max-nodes", text, 1, INT64_MAX, &v))
        return EXIT_USAGE;
    *out = v;
    return 0;
}

/* Contexts that use an option (cli.h). */
enum { USE_PDB = 1 };

static const struct cli_option serve_options[] = {
    {"bind", 'b', CLI_VALUE, 'b', 0, NULL, NULL},
    {"port", 'p', CLI_VALUE, 'p', 0, NULL, NULL},
    {"db", 'd', CLI_VALUE, 'd', 0, NULL, NULL},
    {"pdb", 0, CLI_VALUE, 'P', 0, NULL, NULL},
    {"reflect", 0, CLI_FLAG, 'r', USE_PDB, "--pdb SETS", NULL},
    {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
    {"max-nodes", 0, CLI_VALUE, 'n', 0, NULL, NULL},
    {"max-seconds", 0, CLI_VALUE, 's', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0}};

static int take(int id, const char *value, void *ctx)
{
    struct serve_args *a = ctx;
    switch (id) {
    case 'b': a->bind = value; return EXIT_OK;
    case 'p': return cli_int("--port", value, 0, 65535, &a->port) ? EXIT_USAGE : EXIT_OK;
    case 't': return cli_int("--threads", value, 1, 64, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'n': return parse_nodes(value, &a->max_nodes) ? EXIT_USAGE : EXIT_OK;
    case 's': return parse_seconds(value, &a->max_seconds) ? EXIT_USAGE : EXIT_OK;
    case 'P': a->pdb = value; return EXIT_OK;
    case 'r': a->reflect = 1; return EXIT_OK;
    case 'd': a->db_paths[a->ndbs++] = value; return EXIT_OK;
    default: return EXIT_USAGE;
    }
}

/* Returns 0, an exit status, or -1 after --help.  --db FILE may be followed
 * by more database files: the words that are not options. */
static int parse_args(int argc, char **argv, struct serve_args *a)
{
    *a = (struct serve_args){"127.0.0.1", 8080, 2, 200000000LL, 10.0, {0}, 0, NULL, 0};
    struct cli_parse p;
    cli_parse_init(&p, "serve", serve_options, argc, argv);
    int rc = cli_parse_options(&p, help, take, a);
    if (rc)
        return rc;
    if (cli_parse_unused(&p, a->pdb ? USE_PDB : 0, NULL))
        return EXIT_USAGE;
    if (p.nargs && !a->ndbs)
        return cli_fail(EXIT_USAGE, "serve takes no arguments, not \"%s\" (database files "
                                    "follow --db; see slide serve --help)", p.args[0]);
    if (a->ndbs + p.nargs > SERVE_MAX_DBS)
        return cli_fail(EXIT_USAGE, "--db: at most %d databases, not %d", SERVE_MAX_DBS,
                        a->ndbs + p.nargs);
    for (int i = 0; i < p.nargs; i++)
        a->db_paths[a->ndbs++] = p.args[i];
    return 0;
}

#ifdef SLIDE_HAVE_SERVE
/* Wait for SIGINT or SIGTERM (blocked in every thread by the caller). */
static int wait_for_signal(const sigset_t *set)
{
    int sig = 0;
    while (sigwait(set, &sig) != 0)
        ;
    return sig;
}

/*
 * Load --pdb's sets into sets[0..*n-1], each as slide solve --h pdb:SET
 * loads it (the same one-line errors); a set whose sum may overestimate is
 * refused, since the server's answers claim optimality.
 */
static int load_pdb_sets(const char *spec, int reflect, struct pdb_set *sets, int *n)
{
    char buf[4096];
    *n = 0;
    if (!spec)
        return EXIT_OK;
    if (snprintf(buf, sizeof buf, "%s", spec) >= (int)sizeof buf)
        return cli_fail(EXIT_USAGE, "--pdb: the list of files is longer than %zu bytes",
                        sizeof buf - 1);
    size_t len = strlen(spec); /* strtok_r would skip an empty set silently */
    if (len && (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,")))
        return cli_fail(EXIT_USAGE, "--pdb \"%s\": an empty set name; give SET or "
                        "SET,SET,... (a set is FILE or FILE+FILE+...)", spec);
    char *save = NULL;
    for (char *one = strtok_r(buf, ",", &save); one; one = strtok_r(NULL, ",", &save)) {
        slide_error err;
        if (*n == SERVE_MAX_PDB_SETS)
            return cli_fail(EXIT_USAGE, "--pdb: at most %d sets (separated by commas)",
                            SERVE_MAX_PDB_SETS);
        int rc = pdb_set_load(&sets[*n], one, reflect, 0, &err);
        if (rc) /* bad input 2, a bad file 1, as slide solve --h pdb: */
            return cli_fail_lib(rc, &err);
        (*n)++;
        if (!pdb_set_admissible(&sets[*n - 1]))
            return cli_fail(EXIT_USAGE, "--pdb %s: the pattern databases overlap or mix "
                            "kinds, so their sum may overestimate; serve takes disjoint "
                            "additive tables or one table", one);
    }
    if (*n == 0)
        return cli_fail(EXIT_USAGE, "--pdb expects FILE or FILE+FILE..., not \"%s\"", spec);
    return EXIT_OK;
}

/* The open-file limit raised (within its hard limit) to hold the
 * connections; serve_start refuses if it still cannot. */
static void room_for_connections(int connections)
{
    struct rlimit r;
    rlim_t need = (rlim_t)serve_files_needed(connections);
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur < need &&
        (r.rlim_max == RLIM_INFINITY || r.rlim_max >= need)) {
        r.rlim_cur = need;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

static int run(const struct serve_args *a, struct db *dbs, const struct pdb_set *pdbs,
               int npdbs, const sigset_t *set)
{
    struct serve_config cfg = {a->bind, (int)a->port, serve_default_limits(), dbs, a->ndbs,
                               pdbs, npdbs};
    cfg.limits.searches = (int)a->threads;
    cfg.limits.max_nodes = (uint64_t)a->max_nodes;
    cfg.limits.max_seconds = a->max_seconds;
    struct serve *s;
    slide_error err;
    room_for_connections(cfg.limits.connections);
    int rc = serve_start(&cfg, &s, &err);
    if (rc)
        return cli_fail_lib(rc, &err) == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
    int v6 = strchr(a->bind, ':') != NULL;
    printf("http://%s%s%s:%d/\n", v6 ? "[" : "", a->bind, v6 ? "]" : "", serve_port(s));
    fflush(stdout);
    fprintf(stderr, "slide: serving the page at that address%s; Ctrl-C stops\n",
            serve_is_loopback(a->bind)
                ? "" : " (open to the network: bound to a non-loopback address)");
    int sig = wait_for_signal(set);
    serve_stop(s);
    fprintf(stderr, "slide: %s received, server stopped\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    return EXIT_OK;
}

int cmd_serve(int argc, char **argv)
{
    struct serve_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    /* blocked before any thread starts (OpenMP's while loading, the
     * server's): every thread inherits the mask, so only sigwait sees them */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct db dbs[SERVE_MAX_DBS];
    memset(dbs, 0, sizeof dbs);
    slide_error err;
    int status = EXIT_OK;
    for (int i = 0; i < a.ndbs && status == EXIT_OK; i++)
        if (db_load(a.db_paths[i], 0, &dbs[i], &err))
            status = cli_fail(EXIT_FAIL, "%s: %s", a.db_paths[i], err.msg);
    struct pdb_set pdbs[SERVE_MAX_PDB_SETS];
    int npdbs = 0;
    memset(pdbs, 0, sizeof pdbs);
    if (status == EXIT_OK)
        status = load_pdb_sets(a.pdb, a.reflect, pdbs, &npdbs);
    if (status == EXIT_OK)
        status = run(&a, dbs, pdbs, npdbs, &set);
    for (int i = 0; i < npdbs; i++)
        pdb_set_free(&pdbs[i]);
    for (int i = 0; i < a.ndbs; i++)
        db_free(&dbs[i]);
    return status;
}
#else
int cmd_serve(int argc, char **argv)
{
    struct serve_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    return cli_fail(EXIT_FAIL, "this slide was built without the web server: install "
                               "libmicrohttpd-dev and libjansson-dev (make deps), then "
                               "run make again");
}
#endif
