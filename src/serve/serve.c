/*
 * serve.c - the HTTP side of `slide serve` (serve.h): libmicrohttpd with
 * one thread per connection, request bodies collected up to the limit, the
 * embedded page, and every /api/ request handed to serve_api_handle.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "assets.h"
#include "conns.h"
#include "origin.h"
#include "slide/serve.h"
#include "slide/serve_api.h"
#include "target.h"
#include "text.h"

struct serve {
    struct MHD_Daemon *daemon;
    struct serve_limits limits;
    struct serve_pool pool;
    struct serve_api api;
    struct conns conns;   /* every connection and its deadline */
    int port;
    int loopback;         /* listening on a loopback address (origin.h) */
    /* requests between their first call and their completion, so that
     * serve_stop lets the answers of cancelled searches go out */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int active;
};

/* One request, from its request line (on_target) to its completion: the
 * body is collected across the calls of the access handler. */
struct request {
    char *body;
    size_t len, cap;
    int headed;      /* the head is in: the handler has been called */
    int refuse;      /* 400 or 414 for the request target (target.h); 0: none */
    char why[200];   /* the refusal's reason */
};

struct serve_limits serve_default_limits(void)
{
    return (struct serve_limits){.max_body = SERVE_MAX_BODY,
                                 .max_side = SERVE_MAX_SIDE,
                                 .max_nodes = SERVE_MAX_NODES,
                                 .max_seconds = SERVE_MAX_SECONDS,
                                 .max_moves = SERVE_MAX_MOVES,
                                 .searches = 2,
                                 .connections = SERVE_MAX_CONNECTIONS,
                                 .per_address = SERVE_MAX_PER_ADDRESS,
                                 .head_seconds = SERVE_HEAD_SECONDS,
                                 .read_seconds = SERVE_READ_SECONDS,
                                 .send_seconds = SERVE_SEND_SECONDS};
}

int serve_is_loopback(const char *address)
{
    return origin_is_loopback(address);
}

/* How long serve_stop waits for the answers in flight (cancelled searches
 * answer within milliseconds; a slow client must not hold the stop). */
#define SERVE_DRAIN_SECONDS 2

/* The connection's entry in the deadline list (NULL if it has none). */
static struct conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* The connection's socket, -1 if unknown. */
static int socket_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return i ? i->connect_fd : -1;
}

static enum MHD_Result respond(struct serve *s, struct MHD_Connection *c, int status,
                               const char *type, void *data, size_t len,
                               enum MHD_ResponseMemoryMode mode, const struct serve_reply *extra)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, data, mode);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    /* the page loads nothing but its own files and talks only to this server */
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self'; img-src 'self' data:");
    if (extra && extra->retry_after) {
        char v[16];
        snprintf(v, sizeof v, "%d", extra->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    if (extra && extra->allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, extra->allow);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    if (ret == MHD_YES)
        conns_set(&s->conns, conn_of(c), CONN_SENDING);
    return ret;
}

static enum MHD_Result respond_reply(struct serve *s, struct MHD_Connection *c,
                                     struct serve_reply *reply)
{
    if (!reply->body)
        return MHD_NO;
    enum MHD_Result ret = respond(s, c, reply->status, "application/json; charset=utf-8",
                                  reply->body, strlen(reply->body), MHD_RESPMEM_MUST_FREE,
                                  reply);
    if (ret == MHD_NO)
        free(reply->body);
    reply->body = NULL;
    return ret;
}

/* {"error": msg} as JSON text (malloc'd; NULL when out of memory). */
static char *error_json(const char *msg)
{
    json_t *o = json_pack("{s:s}", "error", msg);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* A reply built here (not by the API): status and one error line. */
static enum MHD_Result respond_error(struct serve *s, struct MHD_Connection *c, int status,
                                     const char *allow, const char *msg)
{
    struct serve_reply reply = {status, error_json(msg), 0, allow};
    return respond_reply(s, c, &reply);
}

static void body_limit(const struct serve *s, char *msg, size_t len)
{
    snprintf(msg, len, "the request body is larger than %zu bytes, the most slide serve reads",
             s->limits.max_body);
}

/* A body announced (Content-Length) over the limit: 413 before reading it. */
static enum MHD_Result too_big(struct serve *s, struct MHD_Connection *c)
{
    char msg[128];
    body_limit(s, msg, sizeof msg);
    return respond_error(s, c, 413, NULL, msg);
}

/*
 * The answer to a body that turned out too big (or too big for memory)
 * while it was read: one without Content-Length (chunked) can be endless.
 * libmicrohttpd queues an answer only before a body is read or after all
 * of it, so this one is written to the socket here (the handler runs in
 * the connection's own thread, which nothing else writes from), the
 * sending side is shut so that the client reads the answer and then the
 * end, and MHD_NO has libmicrohttpd close the connection without reading
 * another byte.
 */
static enum MHD_Result refuse_body(struct MHD_Connection *c, int status, const char *msg)
{
    int fd = socket_of(c);
    char *body = error_json(msg), head[512];
    if (fd >= 0 && body) {
        int n = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: application/json; "
                         "charset=utf-8\r\nContent-Length: %zu\r\nConnection: close\r\n"
                         "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n",
                         status, status == 413 ? "Content Too Large" : "Internal Server Error",
                         strlen(body));
        /* a fresh answer on a socket whose client has read the previous
         * ones fits its buffer; one that does not is cut, as any
         * connection closed in the middle */
        if (send(fd, head, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT | MSG_MORE) == n)
            send(fd, body, strlen(body), MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(fd, SHUT_WR);
    }
    free(body);
    return MHD_NO;
}

static enum MHD_Result asset(struct serve *s, struct MHD_Connection *c, const char *url,
                             const char *method)
{
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return respond_error(s, c, 405, "GET, HEAD", "the page's files take GET or HEAD");
    /* /favicon.ico: what a browser asks for when a page names no icon */
    for (size_t i = 0; i < serve_asset_count; i++)
        if (!strcmp(url, serve_assets[i].path) ||
            (!strcmp(url, "/index.html") && !strcmp(serve_assets[i].path, "/")) ||
            (!strcmp(url, "/favicon.ico") && !strcmp(serve_assets[i].path, "/favicon.svg")))
            return respond(s, c, 200, serve_assets[i].type, (void *)serve_assets[i].data,
                           serve_assets[i].len, MHD_RESPMEM_PERSISTENT, NULL);
    return respond_error(s, c, 404, NULL, "no such page (the page is /, the API /api/info)");
}

/* The fields of a query, and the first problem with its bytes. */
struct query {
    json_t *o;
    char why[256];
};

/* A query's text after percent-decoding is any bytes: the fields take
 * valid UTF-8 without NUL (Jansson's strings, and what a board or a size
 * is written in). */
static int query_text_ok(struct query *q, const char *what, const char *key, const char *t,
                         size_t len)
{
    size_t at = utf8_check(t, len);
    if (at == len)
        return 1;
    char k[80];
    const char *name = text_clip(k, sizeof k, key, strlen(key), 48);
    if (t[at] == '\0')
        snprintf(q->why, sizeof q->why, "the query's %s%s%s holds a NUL byte (%%00) at byte "
                 "%zu; fields are text without NUL", what, key == t ? "" : " of ",
                 key == t ? "" : name, at + 1);
    else
        snprintf(q->why, sizeof q->why, "the query's %s%s%s is not valid UTF-8: byte %zu is "
                 "0x%02X (percent-encode UTF-8 text, e.g. %%C3%%A9 for \u00e9)", what,
                 key == t ? "" : " of ", key == t ? "" : name, at + 1,
                 (unsigned char)t[at]);
    return 0;
}

static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind, const char *key,
                                 size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct query *q = cls;
    if (!query_text_ok(q, "field name", key, key, key_size) ||
        (value && !query_text_ok(q, "value", key, value, value_size)))
        return MHD_NO;
    json_object_set_new(q->o, key, json_stringn(value ? value : "", value ? value_size : 0));
    return MHD_YES;
}

/* The request's fields: the query of a GET, the JSON body of the rest;
 * why says what is wrong with them when it is not empty. */
static json_t *fields_of(struct MHD_Connection *c, const char *method, const struct request *q,
                         char *why, size_t len)
{
    why[0] = '\0';
    if (!strcmp(method, "GET") || !strcmp(method, "HEAD")) {
        struct query qu = {json_object(), ""};
        if (!qu.o)
            return NULL;
        MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, add_query, &qu);
        if (qu.why[0])
            snprintf(why, len, "%s", qu.why);
        return qu.o;
    }
    if (q->len == 0)
        return NULL;
    json_error_t e;
    json_t *v = json_loadb(q->body, q->len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
    if (!v)
        snprintf(why, len, "malformed JSON at line %d, column %d: %s", e.line, e.column,
                 e.text);
    return v;
}

static enum MHD_Result api(struct serve *s, struct MHD_Connection *c, const char *url,
                           const char *method, const struct request *q)
{
    char why[512];
    if (origin_check(MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
                     MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site"),
                     s->loopback, why, sizeof why))
        return respond_error(s, c, 403, NULL, why);
    json_t *f = fields_of(c, method, q, why, sizeof why);
    struct serve_reply reply;
    serve_api_handle(&s->api, method, url, f, why[0] ? why : NULL, socket_of(c), &reply);
    json_decref(f);
    return respond_reply(s, c, &reply);
}

/* Append a piece of the body: 0, or 413 when it passes the limit, 500
 * when memory runs out. */
static int collect(struct serve *s, struct request *q, const char *data, size_t len)
{
    if (len > s->limits.max_body - q->len)
        return 413;
    if (q->len + len > q->cap) {
        size_t cap = q->cap ? q->cap : 4096;
        while (cap < q->len + len)
            cap *= 2;
        char *p = realloc(q->body, cap);
        if (!p)
            return 500;
        q->body = p;
        q->cap = cap;
    }
    memcpy(q->body + q->len, data, len);
    q->len += len;
    return 0;
}

/*
 * The request line is in (libmicrohttpd's URI log callback, in the
 * connection's thread): the request's state starts here, and its target
 * is checked before libmicrohttpd reads the query (target.h).  The query
 * of a refused target is cut at its '?': libmicrohttpd passes the request
 * line's own buffer and parses the query from it after this call (0.9.x
 * and 1.x alike), so it then stores no field and its pool keeps room for
 * the answer.  NULL when out of memory (the handler then closes the
 * connection).
 */
static void *on_target(void *cls, const char *target, struct MHD_Connection *c)
{
    (void)c;
    struct serve *s = cls;
    struct request *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    pthread_mutex_lock(&s->lock);
    s->active++;
    pthread_mutex_unlock(&s->lock);
    q->refuse = target_check(target, q->why, sizeof q->why);
    char *query = q->refuse && target ? strchr(target, '?') : NULL;
    if (query)
        query[1] = '\0';
    return q;
}

static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    (void)kind;
    (void)value;
    *(int *)cls += !strcasecmp(key, MHD_HTTP_HEADER_HOST);
    return MHD_YES;
}

/* 0, or 400 with the reason in why: RFC 9112, section 3.2, has a server
 * refuse an HTTP/1.1 request without Host, and any with more than one. */
static int host_check(struct MHD_Connection *c, const char *version, char *why, size_t len)
{
    int hosts = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &hosts);
    if (hosts > 1)
        snprintf(why, len, "the request has %d Host headers; one is allowed (RFC 9112, "
                 "section 3.2)", hosts);
    else if (!hosts && strcmp(version, MHD_HTTP_VERSION_1_0))
        snprintf(why, len, "an HTTP/1.1 request must have a Host header (RFC 9112, "
                 "section 3.2)");
    else
        return 0;
    return 400;
}

/* The first call of a request: its head is in. */
static enum MHD_Result begin(struct serve *s, struct MHD_Connection *c, const char *version,
                             struct request *q)
{
    q->headed = 1;
    conns_set(&s->conns, conn_of(c), CONN_BODY);
    if (!q->refuse)
        q->refuse = host_check(c, version, q->why, sizeof q->why);
    if (q->refuse) /* answered at once: a body is never read */
        return respond_error(s, c, q->refuse, NULL, q->why);
    const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl && strtoull(cl, NULL, 10) > s->limits.max_body)
        return too_big(s, c); /* answered at once: the body is never read */
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **state)
{
    struct serve *s = cls;
    struct request *q = *state;
    if (!q) /* out of memory at the request line */
        return MHD_NO;
    if (!q->headed) /* the head is in; the body, if any, comes next */
        return begin(s, c, version, q);
    if (*upload_size) {
        char msg[128];
        int status = collect(s, q, upload_data, *upload_size);
        if (status == 413)
            body_limit(s, msg, sizeof msg);
        else if (status)
            snprintf(msg, sizeof msg, "out of memory for the request body");
        if (status)
            return refuse_body(c, status, msg);
        *upload_size = 0;
        return MHD_YES;
    }
    conns_set(&s->conns, conn_of(c), CONN_WORKING);
    if (!strncmp(url, "/api/", 5))
        return api(s, c, url, method, q);
    return asset(s, c, url, method);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode why)
{
    (void)why;
    struct serve *s = cls;
    struct request *q = *state;
    conns_set(&s->conns, conn_of(c), CONN_HEAD); /* the next request's deadline */
    if (!q)
        return;
    free(q->body);
    free(q);
    *state = NULL;
    pthread_mutex_lock(&s->lock);
    if (--s->active == 0)
        pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->lock);
}

/* A connection is about to be accepted (libmicrohttpd's accept policy,
 * in the listening thread, just before it announces the connection in
 * that thread): the caps, with eviction (conns.h). */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
    (void)len;
    struct serve *s = cls;
    struct conn_addr from = conns_address(addr);
    return conns_admit(&s->conns, &from) ? MHD_YES : MHD_NO;
}

/* A connection opens (its deadline starts) or closes (before its socket
 * does: conns.h). */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    struct serve *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        conns_remove(&s->conns, *socket_context);
        *socket_context = NULL;
        return;
    }
    int fd = socket_of(c);
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    struct conn_addr from = conns_address(i ? i->client_addr : NULL);
    *socket_context = fd >= 0 ? conns_add(&s->conns, fd, &from) : NULL;
    if (!*socket_context && fd >= 0)
        shutdown(fd, SHUT_RDWR); /* without a deadline it is not kept */
}

/* Connections libmicrohttpd keeps beyond limits.connections: those shut
 * down for a new one that have not closed yet (each within milliseconds,
 * but a reconnecting client evicts thousands a second). */
static int evicted_spare(int connections)
{
    return connections / 2 > 16 ? connections / 2 : 16;
}

/* Descriptors beside the connections: the listening socket, the pool's
 * and the daemon's pipes, the databases, standard streams. */
#define SERVE_SPARE_FILES 64

int serve_files_needed(int connections)
{
    return connections + evicted_spare(connections) + SERVE_SPARE_FILES;
}

static int check_limits(const struct serve_limits *l, slide_error *err)
{
    struct rlimit nofile;
    if (l->max_body < 1 || l->max_body > SERVE_MAX_BODY * 16 || l->max_side < 1 ||
        l->max_side > BOARD_MAX_SIDE || l->max_nodes < 1 || !(l->max_seconds > 0) ||
        l->max_moves < 0 || l->connections < 1 || l->connections > 1024 ||
        l->per_address < 1 || l->per_address > l->connections || !(l->head_seconds > 0) ||
        !(l->read_seconds > 0) || !(l->send_seconds > 0))
        return slide_fail(err, SLIDE_EINVAL, "a server limit is out of range");
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY &&
        (rlim_t)serve_files_needed(l->connections) > nofile.rlim_cur)
        return slide_fail(err, SLIDE_EINVAL, "%d connections need %d open files, but the "
                          "limit (ulimit -n) is %llu", l->connections,
                          serve_files_needed(l->connections),
                          (unsigned long long)nofile.rlim_cur);
    return SLIDE_OK;
}

/* The listening address: IPv4 or IPv6 text, and the port. */
static int address(const char *text, int port, struct sockaddr_storage *a, int *v6,
                   slide_error *err)
{
    memset(a, 0, sizeof *a);
    struct sockaddr_in *a4 = (struct sockaddr_in *)a;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)a;
    if (port < 0 || port > 65535)
        return slide_fail(err, SLIDE_EINVAL, "port %d is out of range (0..65535)", port);
    if (inet_pton(AF_INET, text, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        *v6 = 0;
    } else if (inet_pton(AF_INET6, text, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        *v6 = 1;
    } else {
        return slide_fail(err, SLIDE_EINVAL, "bind address \"%.64s\" is not an IP address "
                          "(allowed: an IPv4 or IPv6 address, e.g. 127.0.0.1 or ::1)", text);
    }
    return SLIDE_OK;
}

static int listen_on(struct serve *s, const struct serve_config *cfg, slide_error *err)
{
    const char *bind = cfg->bind ? cfg->bind : "127.0.0.1";
    struct sockaddr_storage a;
    int v6 = 0;
    int rc = address(bind, cfg->port, &a, &v6, err);
    if (rc)
        return rc;
    /* poll(2), not select(2): descriptors may pass FD_SETSIZE */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_POLL | MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0);
    s->loopback = serve_is_loopback(bind);
    errno = 0;
    /* the caps are conns_admit's (on_accept): libmicrohttpd's are above */
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->port, on_accept, s, on_request, s, MHD_OPTION_SOCK_ADDR, &a,
        MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(s->limits.connections + evicted_spare(s->limits.connections)),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_CONNECTION_TIMEOUT,
        MHD_OPTION_URI_LOG_CALLBACK, on_target, s,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, s, MHD_OPTION_END);
    if (!s->daemon)
        return slide_fail(err, SLIDE_EIO, "cannot listen on %s port %d: %s", bind, cfg->port,
                          errno ? strerror(errno) : "the server library refused");
    const union MHD_DaemonInfo *i = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = i ? i->port : cfg->port;
    return SLIDE_OK;
}

int serve_start(const struct serve_config *cfg, struct serve **out, slide_error *err)
{
    *out = NULL;
    int rc = check_limits(&cfg->limits, err);
    if (rc)
        return rc;
    struct serve *s = calloc(1, sizeof *s);
    if (!s)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the server");
    s->limits = cfg->limits;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->api = (struct serve_api){&s->limits, cfg->dbs, cfg->ndbs, &s->pool, NULL,
                              cfg->pdbs, cfg->npdbs, NULL};
    json_object_seed(0); /* before any thread makes a JSON object */
    rc = serve_pool_init(&s->pool, cfg->limits.searches, err);
    if (!rc)
        rc = serve_api_init(&s->api, err);
    if (!rc)
        rc = conns_init(&s->conns,
                        &(struct conns_limits){s->limits.head_seconds, s->limits.read_seconds,
                                               s->limits.send_seconds, s->limits.connections,
                                               s->limits.per_address},
                        err);
    if (!rc)
        rc = listen_on(s, cfg, err);
    if (rc) {
        conns_free(&s->conns);
        serve_pool_free(&s->pool);
        serve_api_free(&s->api);
        pthread_cond_destroy(&s->idle);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return rc;
    }
    *out = s;
    return SLIDE_OK;
}

int serve_port(const struct serve *s) { return s->port; }

void serve_stop(struct serve *s)
{
    if (!s)
        return;
    MHD_socket listener = MHD_quiesce_daemon(s->daemon); /* no new connections */
    serve_pool_stop(&s->pool); /* running searches end within milliseconds */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += SERVE_DRAIN_SECONDS;
    pthread_mutex_lock(&s->lock);
    while (s->active > 0 && pthread_cond_timedwait(&s->idle, &s->lock, &until) == 0)
        ;
    pthread_mutex_unlock(&s->lock);
    MHD_stop_daemon(s->daemon); /* every connection closed, announced to conns */
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    conns_free(&s->conns);
    serve_pool_free(&s->pool);
    serve_api_free(&s->api);
    pthread_cond_destroy(&s->idle);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
