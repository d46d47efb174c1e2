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
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "assets.h"
#include "slide/serve.h"
#include "slide/serve_api.h"

struct serve {
    struct MHD_Daemon *daemon;
    struct serve_limits limits;
    struct serve_pool pool;
    struct serve_api api;
    int port;
    /* requests between their first call and their completion, so that
     * serve_stop lets the answers of cancelled searches go out */
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int active;
};

/* One request's body, collected across the calls of the access handler. */
struct request {
    char *body;
    size_t len, cap;
    int too_big;
};

struct serve_limits serve_default_limits(void)
{
    return (struct serve_limits){SERVE_MAX_BODY, SERVE_MAX_SIDE, SERVE_MAX_NODES,
                                 SERVE_MAX_SECONDS, SERVE_MAX_MOVES, 2,
                                 SERVE_MAX_CONNECTIONS};
}

/* How long serve_stop waits for the answers in flight (cancelled searches
 * answer within milliseconds; a slow client must not hold the stop). */
#define SERVE_DRAIN_SECONDS 2

static enum MHD_Result respond(struct MHD_Connection *c, int status, const char *type,
                               void *data, size_t len, enum MHD_ResponseMemoryMode mode,
                               const struct serve_reply *extra)
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
        char s[16];
        snprintf(s, sizeof s, "%d", extra->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, s);
    }
    if (extra && extra->allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, extra->allow);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result respond_reply(struct MHD_Connection *c, struct serve_reply *reply)
{
    if (!reply->body)
        return MHD_NO;
    enum MHD_Result ret = respond(c, reply->status, "application/json; charset=utf-8",
                                  reply->body, strlen(reply->body), MHD_RESPMEM_MUST_FREE,
                                  reply);
    if (ret == MHD_NO)
        free(reply->body);
    reply->body = NULL;
    return ret;
}

/* A reply built here (not by the API): status and one error line. */
static enum MHD_Result respond_error(struct MHD_Connection *c, int status, const char *allow,
                                     const char *msg)
{
    json_t *o = json_pack("{s:s}", "error", msg);
    struct serve_reply reply = {status, o ? json_dumps(o, JSON_COMPACT) : NULL, 0, allow};
    json_decref(o);
    return respond_reply(c, &reply);
}

static enum MHD_Result too_big(struct serve *s, struct MHD_Connection *c)
{
    char msg[128];
    snprintf(msg, sizeof msg, "the request body is larger than %zu bytes, the most slide "
             "serve reads", s->limits.max_body);
    return respond_error(c, 413, NULL, msg);
}

static enum MHD_Result asset(struct MHD_Connection *c, const char *url, const char *method)
{
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return respond_error(c, 405, "GET, HEAD", "the page's files take GET or HEAD");
    for (size_t i = 0; i < serve_asset_count; i++)
        if (!strcmp(url, serve_assets[i].path) ||
            (!strcmp(url, "/index.html") && !strcmp(serve_assets[i].path, "/")))
            return respond(c, 200, serve_assets[i].type, (void *)serve_assets[i].data,
                           serve_assets[i].len, MHD_RESPMEM_PERSISTENT, NULL);
    return respond_error(c, 404, NULL, "no such page (the page is /, the API /api/info)");
}

static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    json_object_set_new(cls, key, json_string(value ? value : ""));
    return MHD_YES;
}

/* The request's fields: the query of a GET, the JSON body of the rest. */
static json_t *fields_of(struct MHD_Connection *c, const char *method, const struct request *q,
                         char *why, size_t len)
{
    why[0] = '\0';
    if (!strcmp(method, "GET") || !strcmp(method, "HEAD")) {
        json_t *o = json_object();
        if (o && MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_query, o) == 0) {
            json_decref(o);
            return NULL;
        }
        return o;
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
    char why[256];
    json_t *f = fields_of(c, method, q, why, sizeof why);
    struct serve_reply reply;
    serve_api_handle(&s->api, method, url, f, why[0] ? why : NULL, &reply);
    json_decref(f);
    return respond_reply(c, &reply);
}

/* Append a piece of the body, or note that it is over the limit. */
static void collect(struct serve *s, struct request *q, const char *data, size_t len)
{
    if (q->too_big || len > s->limits.max_body - q->len) {
        q->too_big = 1;
        return;
    }
    if (q->len + len > q->cap) {
        size_t cap = q->cap ? q->cap : 4096;
        while (cap < q->len + len)
            cap *= 2;
        char *p = realloc(q->body, cap);
        if (!p) {
            q->too_big = 1;
            return;
        }
        q->body = p;
        q->cap = cap;
    }
    memcpy(q->body + q->len, data, len);
    q->len += len;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **state)
{
    (void)version;
    struct serve *s = cls;
    struct request *q = *state;
    if (!q) { /* the headers are in; the body, if any, comes next */
        if (!(q = calloc(1, sizeof *q)))
            return MHD_NO;
        *state = q;
        pthread_mutex_lock(&s->lock);
        s->active++;
        pthread_mutex_unlock(&s->lock);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > s->limits.max_body) {
            q->too_big = 1; /* answered at once: the body is never read */
            return too_big(s, c);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        collect(s, q, upload_data, *upload_size);
        *upload_size = 0;
        return MHD_YES;
    }
    if (q->too_big)
        return too_big(s, c);
    if (!strncmp(url, "/api/", 5))
        return api(s, c, url, method, q);
    return asset(c, url, method);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state,
                         enum MHD_RequestTerminationCode why)
{
    (void)c;
    (void)why;
    struct serve *s = cls;
    struct request *q = *state;
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

static int check_limits(const struct serve_limits *l, slide_error *err)
{
    if (l->max_body < 1 || l->max_body > SERVE_MAX_BODY * 16 || l->max_side < 1 ||
        l->max_side > BOARD_MAX_SIDE || l->max_nodes < 1 || !(l->max_seconds > 0) ||
        l->max_moves < 0 || l->connections < 1 || l->connections > 1024)
        return slide_fail(err, SLIDE_EINVAL, "a server limit is out of range");
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
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0);
    errno = 0;
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR, &a,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->limits.connections,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_CONNECTION_TIMEOUT,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
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
                              cfg->pdbs, cfg->npdbs};
    json_object_seed(0); /* before any thread makes a JSON object */
    rc = serve_pool_init(&s->pool, cfg->limits.searches, err);
    if (!rc)
        rc = serve_api_init(&s->api, err);
    if (!rc)
        rc = listen_on(s, cfg, err);
    if (rc) {
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
    MHD_stop_daemon(s->daemon);
    if (listener != MHD_INVALID_SOCKET)
        close(listener);
    serve_pool_free(&s->pool);
    serve_api_free(&s->api);
    pthread_cond_destroy(&s->idle);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
