/*
 * cmd_serve.c - `slide serve`: the board in a web page, served by slide
 * itself (serve.h), with a JSON API (serve_api.h).
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#ifdef SLIDE_HAVE_SERVE
#include "slide/db.h"
#include "slide/serve.h"
#endif

static const char help[] =
    "usage: slide serve [--bind ADDR] [--port N] [--db FILE ...] [--threads N]\n"
    "                   [--max-nodes N] [--max-seconds S]\n"
    "Serve a web page to play, check and solve boards, with the engine behind\n"
    "it: the parity verdict in words, optimal solutions animated, the exact\n"
    "distance and every heuristic live where a database is loaded, and the\n"
    "size's distance histogram.  The URL goes to standard output (one line);\n"
    "Ctrl-C or SIGTERM stops the server cleanly (running searches are\n"
    "cancelled, connections closed).  The page is built into the binary.\n"
    "  --bind ADDR      the IP address to listen on (default 127.0.0.1, this\n"
    "                   machine only; 0.0.0.0 or :: opens it to the network)\n"
    "  --port N         the TCP port (default 8080; 0 picks a free one)\n"
    "  --db FILE        a distance database (slide bfs RxC --save FILE), up to\n"
    "                   16; its size gets exact distances, descent solutions\n"
    "                   and the histogram\n"
    "  --threads N      searches that may run at once (1..64, default 2); a\n"
    "                   solve request beyond that gets 503 with Retry-After: 1\n"
    "  --max-nodes N    IDA* expansions per search (default 200000000)\n"
    "  --max-seconds S  wall time per search (default 10); a search that hits\n"
    "                   either cap answers status \"stopped\" with the lower\n"
    "                   bound it proved\n"
    "Pattern databases (--pdb) are not available yet; IDA* uses lc.\n"
    "Limits of every request: a body of at most 64 KiB (413 beyond), boards up\n"
    "to 32x32 (400 beyond; /api/solvable takes any size the body can hold),\n"
    "at most 64 open connections, idle ones closed after 15 s.\n"
    "API (JSON; boards are text as on the command line, \"1 2 3/4 5 6/7 8 0\";\n"
    "goal is optional, default 1..n-1 with the blank last):\n"
    "  GET  /api/info       version, limits, loaded databases, heuristics\n"
    "  POST /api/solvable   {board, goal} -> solvable, inversions, blank_row,\n"
    "                       goal_blank_row (0 = top), rows, cols, width_rule\n"
    "                       (odd, even or path), explanation (words)\n"
    "  POST /api/solve      {board, goal, method: auto|ida|db|layers,\n"
    "                       heuristic: lc|manhattan|misplaced (ida), max_nodes,\n"
    "                       max_seconds (at most the server's)} -> status\n"
    "                       (optimal, found, stopped), method, heuristic,\n"
    "                       optimal, length, moves (the blank's, U D L R),\n"
    "                       lower_bound, expanded, generated, iterations,\n"
    "                       h_start, seconds, reason (when stopped).  auto:\n"
    "                       db where a database covers the board, else ida up\n"
    "                       to 16 cells, else layers (not optimal)\n"
    "  POST /api/scramble   {size: \"RxC\", goal, walk: K, seed} -> board, seed\n"
    "                       (a string: 64 bits), walk; uniform without walk\n"
    "  POST /api/eval       {board, goal, moves} -> distance (null without a\n"
    "                       database), h {misplaced, manhattan, lc, lc-pairs,\n"
    "                       wd: values, null where not built}, database, and\n"
    "                       with moves, path: the same for each board along them\n"
    "  GET  /api/histogram  ?size=RxC&goal=G -> rows, cols, goal, radius,\n"
    "                       reachable, histogram (boards per distance)\n"
    "Statuses: 200; 400 bad input, {\"error\": the command line's one-line\n"
    "message} (malformed JSON, wrong types, unknown fields, boards too big);\n"
    "404 unknown path or no such database; 405 wrong method (Allow header);\n"
    "413 body too large; 422 /api/solve of an unsolvable board (no search;\n"
    "error is the parity explanation); 503 every search slot busy.\n"
    "Exit status: 0 stopped by a signal, 1 cannot listen or load a database,\n"
    "or built without the web server, 2 bad arguments.\n";

#define SERVE_MAX_DBS 16

struct serve_args {
    const char *bind;
    long port, threads;
    long long max_nodes;
    double max_seconds;
    const char *db_paths[SERVE_MAX_DBS];
    int ndbs;
};

static int parse_seconds(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v > 0 && v <= 3600))
        return cli_fail(EXIT_USAGE, "--max-seconds expects a number of seconds above 0 and "
                                    "at most 3600, not \"%s\"", text);
    *out = v;
    return 0;
}

static int parse_nodes(const char *text, long long *out)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || v < 1)
        return cli_fail(EXIT_USAGE, "--max-nodes expects a whole number from 1 to %lld, "
                                    "not \"%s\"", (long long)INT64_MAX, text);
    *out = v;
    return 0;
}

/* Returns 0, an exit status, or -1 after --help. */
static int parse_args(int argc, char **argv, struct serve_args *a)
{
    static const struct option opts[] = {
        {"bind", required_argument, 0, 'b'},      {"port", required_argument, 0, 'p'},
        {"db", required_argument, 0, 'd'},        {"threads", required_argument, 0, 't'},
        {"max-nodes", required_argument, 0, 'n'}, {"max-seconds", required_argument, 0, 's'},
        {"help", no_argument, 0, 'h'},            {0, 0, 0, 0}};
    static const char shortopts[] = "b:p:d:t:n:s:h";
    *a = (struct serve_args){"127.0.0.1", 8080, 2, 200000000LL, 10.0, {0}, 0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case 'b': a->bind = optarg; break;
        case 'p': bad = cli_int("--port", optarg, 0, 65535, &a->port); break;
        case 't': bad = cli_int("--threads", optarg, 1, 64, &a->threads); break;
        case 'n': bad = parse_nodes(optarg, &a->max_nodes); break;
        case 's': bad = parse_seconds(optarg, &a->max_seconds); break;
        case 'd':
            if (a->ndbs == SERVE_MAX_DBS)
                return cli_fail(EXIT_USAGE, "--db: at most %d databases", SERVE_MAX_DBS);
            a->db_paths[a->ndbs++] = optarg;
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_bad_option("serve", argc, argv, shortopts, opts);
        }
        if (bad)
            return EXIT_USAGE;
    }
    if (optind < argc)
        return cli_fail(EXIT_USAGE, "serve takes no arguments, not \"%s\" (see slide serve "
                                    "--help)", argv[optind]);
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

static int run(const struct serve_args *a, struct db *dbs, const sigset_t *set)
{
    struct serve_config cfg = {a->bind, (int)a->port, serve_default_limits(), dbs, a->ndbs};
    cfg.limits.searches = (int)a->threads;
    cfg.limits.max_nodes = (uint64_t)a->max_nodes;
    cfg.limits.max_seconds = a->max_seconds;
    struct serve *s;
    slide_error err;
    int rc = serve_start(&cfg, &s, &err);
    if (rc)
        return cli_fail_lib(rc, &err) == EXIT_USAGE ? EXIT_USAGE : EXIT_FAIL;
    int v6 = strchr(a->bind, ':') != NULL;
    printf("http://%s%s%s:%d/\n", v6 ? "[" : "", a->bind, v6 ? "]" : "", serve_port(s));
    fflush(stdout);
    fprintf(stderr, "slide: serving the page at that address%s; Ctrl-C stops\n",
            strcmp(a->bind, "127.0.0.1") && strcmp(a->bind, "::1")
                ? " (open to the network: bound to a non-loopback address)" : "");
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
    if (status == EXIT_OK)
        status = run(&a, dbs, &set);
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
