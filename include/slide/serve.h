/*
 * serve.h - `slide serve`: an HTTP server (GNU libmicrohttpd) that serves
 * one page (embedded in the binary) and the JSON API of serve_api.h.
 *
 * Representation: a struct serve owns the libmicrohttpd daemon (one thread
 * per connection, at most limits.connections of them and
 * limits.per_address from one client address: a new connection beyond
 * them takes the place of the oldest one still sending its head or idle
 * between requests, else of the oldest sending its body or receiving its
 * answer, and is closed at once only when every one is at work), the
 * search pool (serve_pool.h), the connections' deadlines and the API
 * context; it borrows the loaded databases, which must outlive it.  Every
 * request is bounded: its head must arrive within limits.head_seconds,
 * its head and body within limits.read_seconds and its answer be taken
 * within limits.send_seconds (else the connection is closed), its target
 * (path and query) by SERVE_MAX_TARGET bytes and 32 query fields (414 and
 * 400), its body by limits.max_body (larger
 * ones get 413: at once when Content-Length says so, else as soon as the
 * body passes the limit, and the connection is closed), its board by
 * limits.max_side, its search by limits.max_nodes and limits.max_seconds,
 * and the searches and evaluations running at once by limits.searches
 * (more get 503 with Retry-After); a search whose client closes its
 * connection is cancelled.  API requests from pages of other sites are
 * refused (403; origin.h says how they are told).
 *
 * Invariant: after serve_start returns SLIDE_OK the server answers on
 * serve_port until serve_stop, which cancels the running searches, closes
 * every connection and joins every thread before it returns.
 */
#ifndef SLIDE_SERVE_H
#define SLIDE_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "slide/db.h"
#include "slide/error.h"

struct pdb_set;

#define SERVE_MAX_BODY (64u << 10)       /* bytes of a request body */
#define SERVE_MAX_SIDE 32                /* rows and columns of a board */
#define SERVE_MAX_NODES 200000000ull     /* IDA* expansions per search */
#define SERVE_MAX_SECONDS 10.0           /* wall time per search */
#define SERVE_MAX_MOVES 20000            /* moves replayed by /api/eval */
#define SERVE_MAX_CONNECTIONS 512        /* open connections */
#define SERVE_MAX_PER_ADDRESS 256        /* open connections from one address */
#define SERVE_HEAD_SECONDS 2.0           /* a request's head arrives within */
#define SERVE_READ_SECONDS 10.0          /* a request's head and body arrive within */
#define SERVE_SEND_SECONDS 60.0          /* an answer is taken within */
#define SERVE_CONNECTION_TIMEOUT 15      /* seconds without a byte either way */
#define SERVE_AUTO_IDA_CELLS 16          /* "auto" uses IDA* up to 4x4 */
#define SERVE_WD_TABLE_BYTES (48u << 20) /* wd's tables kept (heuristic.h's store) */

struct serve_limits {
    size_t max_body;
    int max_side;
    uint64_t max_nodes;   /* a request may ask for fewer, never more */
    double max_seconds;   /* likewise */
    int max_moves;
    int searches;         /* concurrent searches and evaluations, 1..SERVE_POOL_MAX */
    int connections;      /* open connections in all, 1..1024 */
    int per_address;      /* open connections from one client address, 1..connections */
    double head_seconds;  /* the head of a request, from the connection's start or the
                             previous answer, > 0 (read_seconds if that is less) */
    double read_seconds;  /* head and body of a request, from the same start, > 0 */
    double send_seconds;  /* an answer, from its start to its last byte, > 0 */
};

/* The open files (RLIMIT_NOFILE) a server of `connections` connections
 * needs: those, as many again as half of them (connections shut down for
 * new ones that have not closed yet; at least 16) and 64 more. */
int serve_files_needed(int connections);

/* The default limits above (searches: 2). */
struct serve_limits serve_default_limits(void);

/* 1 if address (text, as for serve_config.bind) is on the loopback
 * interface: 127.0.0.0/8, ::1 in any spelling, ::ffff:127.x.x.x. */
int serve_is_loopback(const char *address);

struct serve_config {
    const char *bind;      /* an IPv4 or IPv6 address; NULL: 127.0.0.1 */
    int port;              /* 0..65535; 0: any free port (see serve_port) */
    struct serve_limits limits;
    const struct db *dbs;  /* ndbs loaded databases (payload present), borrowed */
    int ndbs;
    /* npdbs loaded admissible pattern database sets (pdb.h), borrowed and
     * read-only: IDA* and /api/eval use the one built for the request's
     * board size and goal */
    const struct pdb_set *pdbs;
    int npdbs;
};

struct serve;

/*
 * Start serving in background threads.  Errors: SLIDE_EINVAL (bind is not
 * an IP address, a limit out of range, more connections than the
 * open-file limit (RLIMIT_NOFILE) leaves room for), SLIDE_EIO (the address
 * cannot be listened on: the message names it and the system error),
 * SLIDE_ENOMEM.
 * On success *out is the server; stop and free it with serve_stop.
 */
int serve_start(const struct serve_config *cfg, struct serve **out, slide_error *err);

/* The port the server listens on (the one chosen when cfg->port was 0). */
int serve_port(const struct serve *s);

/* Cancel the searches, close the connections, join the threads, free s. */
void serve_stop(struct serve *s);

#endif
