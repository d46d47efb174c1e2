/*
 * test_serve_hostile.c - slide serve against clients that misbehave (issue
 * 32): slow request heads, an endless chunked body, evaluations that would
 * take the CPU, bytes that are not UTF-8, a client that leaves during its
 * search, requests from other sites' pages, answers nobody reads.  Each
 * server runs in this process on an ephemeral loopback port, some with
 * small limits so that a deadline or a cap is reached within seconds.
 * Every test has a bounded count of connections and a bounded time; the
 * deadlines asked of the server are generous except where the issue names
 * one (GET / within 1 s under 200 slow connections).
 *
 * The sockets are this file's own (not httptest.h's request, which waits
 * for the server without a limit): each read has a timeout, and a
 * connection may come from another loopback address (127.0.0.2) to show
 * that the cap on one address does not shut out the others.
 */
#include "testutil.h"
#include "clitest.h"
#include "httptest.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slide/serve.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static struct serve *start(const struct serve_limits *l)
{
    struct serve_config cfg = {"127.0.0.1", 0, *l, NULL, 0, NULL, 0};
    struct serve *s;
    slide_error err;
    if (serve_start(&cfg, &s, &err))
        fail_msg("serve_start: %s", err.msg);
    return s;
}

/* A connection to the server from source address src (127.0.0.x); -1 if
 * it cannot be made. */
static int connect_from(int port, const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0}, from = {0};
    from.sin_family = AF_INET;
    inet_pton(AF_INET, src, &from.sin_addr);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&from, sizeof from) == 0 &&
        connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

/* Everything the server sends on fd until it closes, at most `seconds`
 * from now; *closed is 1 when the end (or a reset) came in time. */
static char *read_until_close(int fd, double seconds, size_t *len, int *closed)
{
    size_t cap = 1 << 16, got = 0;
    char *raw = malloc(cap);
    double until = now() + seconds;
    *closed = 0;
    for (;;) {
        double left = until - now();
        struct pollfd q = {fd, POLLIN, 0};
        if (left <= 0 || poll(&q, 1, (int)(left * 1000) + 1) <= 0)
            break;
        ssize_t k = recv(fd, raw + got, cap - got - 1, 0);
        if (k <= 0) {
            *closed = k == 0 || errno == ECONNRESET;
            break;
        }
        got += (size_t)k;
        if (got + 1 == cap)
            raw = realloc(raw, cap *= 2);
    }
    raw[got] = '\0';
    *len = got;
    return raw;
}

/* Send a whole request (raw bytes, ending the connection with it) from src
 * and read the answer for at most `seconds`; *took is the time to the
 * close.  Returns a->status (0: no answer in time). */
static int raw_request(int port, const char *src, const char *req, size_t len, double seconds,
                       struct http_answer *a, double *took)
{
    memset(a, 0, sizeof *a);
    double t0 = now();
    int fd = connect_from(port, src);
    if (fd < 0)
        return 0;
    size_t got;
    int closed;
    char *raw = NULL;
    if (http_send_all(fd, req, len) == 0)
        raw = read_until_close(fd, seconds, &got, &closed);
    close(fd);
    if (took)
        *took = now() - t0;
    if (!raw)
        return 0;
    http_parse(raw, got, a);
    return closed ? a->status : 0;
}

/* GET path from src with Connection: close. */
static int get_from(int port, const char *src, const char *path, double seconds,
                    struct http_answer *a, double *took)
{
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     "Connection: close\r\n\r\n", path, port);
    return raw_request(port, src, req, (size_t)n, seconds, a, took);
}

/* POST json to path with extra header lines (each ending in \r\n). */
static int post_with(int port, const char *path, const char *headers, const char *json,
                     double seconds, struct http_answer *a)
{
    size_t len = strlen(json) + strlen(headers) + 512;
    char *req = malloc(len);
    int n = snprintf(req, len, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sContent-Type: "
                     "application/json\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                     path, port, headers, strlen(json), json);
    int status = raw_request(port, "127.0.0.1", req, (size_t)n, seconds, a, NULL);
    free(req);
    return status;
}

/* The answer's "error" string; the body must be JSON. */
static void expect_error(struct http_answer *a, int status, const char *part)
{
    json_error_t e;
    json_t *v = json_loads(a->body ? a->body : "", 0, &e);
    if (a->status != status || !v)
        fail_msg("status %d, not %d, body %s", a->status, status, a->body ? a->body : "");
    const char *msg = json_string_value(json_object_get(v, "error"));
    if (!msg || !strstr(msg, part))
        fail_msg("error \"%s\" lacks \"%s\"", msg ? msg : "(none)", part);
    json_decref(v);
}

/* 1 if the server has closed fd (end of stream or reset). */
static int closed_by_server(int fd)
{
    char c;
    ssize_t k = recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK);
    return k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

#define SLOW_CLIENTS 200

/*
 * Issue 32, item 1: 200 connections that send their request head one byte
 * at a time.  GET / from the same address is answered within 1 s three
 * times while they drip (at main's 4e81fef, 64 connections already left it
 * unanswered), and every slow connection is closed at the deadline for a
 * request's head and body (read_seconds, 4 s here: the probes come well
 * before it even on a loaded machine) although it never stops sending.
 */
static void test_slow_heads(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.read_seconds = 4;
    l.head_seconds = 4; /* the head's own deadline (issue 39) is test_head_deadline's */
    struct serve *s = start(&l);
    int port = serve_port(s), fds[SLOW_CLIENTS], open_ = 0;
    for (int i = 0; i < SLOW_CLIENTS; i++)
        open_ += (fds[i] = connect_from(port, "127.0.0.1")) >= 0;
    assert_int_equal(open_, SLOW_CLIENTS);
    static const char head[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                               "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";
    double t0 = now(), worst = 0;
    int probes = 0, sent = 0;
    while (open_ > 0 && now() - t0 < l.read_seconds + 4) {
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            if (fds[i] < 0)
                continue;
            if (closed_by_server(fds[i]) ||
                send(fds[i], head + sent % (sizeof head - 1), 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
                close(fds[i]);
                fds[i] = -1;
                open_--;
            }
        }
        sent++;
        if (probes < 3 && now() - t0 > 0.3 * (probes + 1)) {
            struct http_answer a;
            double took;
            /* the probe is made while all drip */
            assert_true(open_ == SLOW_CLIENTS && now() - t0 < l.read_seconds);
            int st = get_from(port, "127.0.0.1", "/", 5, &a, &took);
            if (st != 200 || took >= 1.0)
                fail_msg("GET / under %d slow connections: status %d after %.2f s",
                         SLOW_CLIENTS, st, took);
            worst = took > worst ? took : worst;
            http_answer_free(&a);
            probes++;
        }
        pause_ms(200);
    }
    double closed_after = now() - t0;
    printf("# GET / under %d slow connections: slowest of 3 probes %.3f s; all slow "
           "connections closed after %.2f s (deadline %.0f s)\n", SLOW_CLIENTS, worst,
           closed_after, l.read_seconds);
    for (int i = 0; i < SLOW_CLIENTS; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    assert_int_equal(probes, 3);
    assert_int_equal(open_, 0);
    assert_true(closed_after > l.read_seconds - 0.5);
    serve_stop(s);
}

/* Open fds[0..n-1] from src until the server keeps every one: one made
 * while a closed connection still counted may have been refused. */
static void hold_all(int port, const char *src, int *fds, int n)
{
    for (int round = 0, all = 0; !all; round++) {
        assert_true(round < 20);
        for (int i = 0; i < n; i++)
            if (fds[i] < 0 && (fds[i] = connect_from(port, src)) < 0)
                fail_msg("cannot connect from %s", src);
        pause_ms(300);
        all = 1;
        for (int i = 0; i < n; i++)
            if (closed_by_server(fds[i])) {
                close(fds[i]);
                fds[i] = -1;
                all = 0;
            }
    }
}

/* How many of fds[0..n-1] the server has closed. */
static int count_closed(const int *fds, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += closed_by_server(fds[i]);
    return k;
}

/* 1 if GET / from src is answered 200 within a second; else 0, and the
 * status and time on standard output. */
static int answered_from(int port, const char *src)
{
    struct http_answer a;
    double took;
    int st = get_from(port, src, "/", 3, &a, &took);
    http_answer_free(&a);
    if (st == 200 && took < 1.0)
        return 1;
    printf("# GET / from %s: status %d after %.2f s\n", src, st, took);
    return 0;
}

static void served_from(int port, const char *src)
{
    assert_true(answered_from(port, src));
}

/*
 * Item 1's caps (issue 32), with issue 39's eviction: at most 8
 * connections from one address and 16 in all.  Eight idle connections
 * from 127.0.0.1 (opened, nothing sent) hold its cap: a ninth from
 * 127.0.0.1 is answered at once, and the oldest of the eight is closed to
 * make room (at b66e30a the ninth was closed unanswered; issue 39, item
 * 7); 127.0.0.2 is served too.  With 16 idle connections open, one from
 * 127.0.0.3 is answered and exactly one idle one closed.  (A new
 * connection that finds every one at work is refused: test_serve_conns.)
 */
static void test_connection_caps(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.connections = 16;
    l.per_address = 8;
    l.head_seconds = l.read_seconds = 30; /* idle connections are not cut meanwhile */
    struct serve *s = start(&l);
    int port = serve_port(s), held[16];
    for (int i = 0; i < 16; i++)
        held[i] = -1;
    hold_all(port, "127.0.0.1", held, 8);
    served_from(port, "127.0.0.1");
    pause_ms(100);
    assert_int_equal(count_closed(held, 8), 1);
    served_from(port, "127.0.0.2");
    for (int i = 0; i < 8; i++)
        if (closed_by_server(held[i])) {
            close(held[i]);
            held[i] = -1;
        }
    hold_all(port, "127.0.0.1", held, 8);
    hold_all(port, "127.0.0.2", held + 8, 8);
    assert_int_equal(count_closed(held, 16), 0);
    served_from(port, "127.0.0.3");
    pause_ms(100);
    assert_int_equal(count_closed(held, 16), 1);
    for (int i = 0; i < 16; i++)
        close(held[i]);
    serve_stop(s);
}

/*
 * Issue 39, item 7: a request's head has a deadline of its own
 * (head_seconds, 2 s by default), shorter than the head and the body
 * together (read_seconds, 10 s).  A connection that drips its head one
 * byte every 100 ms is closed after about 2 s (at b66e30a after 10 s); one
 * that sent its head at once and drips its body is still open at 3.5 s.
 */
static void test_head_deadline(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    int head = connect_from(port, "127.0.0.1"), body = connect_from(port, "127.0.0.1");
    assert_true(head >= 0 && body >= 0);
    static const char drip[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: abcdefghijklmn"
                               "opqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx";
    static const char post[] = "POST /api/solvable HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                               "Content-Type: application/json\r\nContent-Length: 60\r\n\r\n";
    assert_int_equal(http_send_all(body, post, sizeof post - 1), 0);
    double t0 = now(), head_closed = -1;
    for (int i = 0; now() - t0 < 3.5; i++) {
        if (head_closed < 0 && closed_by_server(head))
            head_closed = now() - t0;
        if (head_closed < 0)
            send(head, drip + i % (sizeof drip - 1), 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (i % 5 == 0 && i / 5 < 50) /* a body byte every 0.5 s, 50 in all */
            send(body, " ", 1, MSG_DONTWAIT | MSG_NOSIGNAL);
        pause_ms(100);
    }
    int body_open = !closed_by_server(body);
    printf("# a dripping head closed after %.2f s (head deadline %.0f s); a dripping body "
           "%s at 3.5 s\n", head_closed, l.head_seconds, body_open ? "open" : "closed");
    close(head);
    close(body);
    assert_true(head_closed >= l.head_seconds - 0.3 && head_closed < 3.5);
    assert_true(body_open);
    serve_stop(s);
}

/* What the attacker thread of test_reconnecting_attacker does. */
struct attacker {
    int port;
    const char *src;
    volatile int stop;
    long made;   /* connections made */
};

#define ATTACKER_RING 160

/* Connect from a->src and send half a head, up to 2,500 times a second,
 * keeping its ATTACKER_RING newest connections open (the oldest is closed
 * when a new one is made), until a->stop. */
static void *attack(void *arg)
{
    struct attacker *a = arg;
    int ring[ATTACKER_RING];
    for (int i = 0; i < ATTACKER_RING; i++)
        ring[i] = -1;
    static const char half[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    for (long i = 0; !a->stop; i++) {
        int k = (int)(i % ATTACKER_RING);
        if (ring[k] >= 0)
            close(ring[k]);
        if ((ring[k] = connect_from(a->port, a->src)) >= 0) {
            send(ring[k], half, sizeof half - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
            a->made++;
        }
        struct timespec t = {0, 400000};
        nanosleep(&t, NULL);
    }
    for (int i = 0; i < ATTACKER_RING; i++)
        if (ring[i] >= 0)
            close(ring[i]);
    return NULL;
}

/*
 * Issue 39, item 7: attackers on 127.0.0.1 and 127.0.0.2 reconnect up to
 * 2,500 times a second each (the review's attacker made about 4,500), each
 * keeping 160 connections with half a head open, against caps of 128 per
 * address and 192 in all.  GET / from 127.0.0.1 and from 127.0.0.3 is
 * answered within a second, ten times each, during the attack (at
 * b66e30a the caps were full whenever the probe came, and it was closed
 * unanswered).
 */
static void test_reconnecting_attacker(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.connections = 192;
    l.per_address = 128;
    struct serve *s = start(&l);
    int port = serve_port(s);
    struct attacker a[2] = {{port, "127.0.0.1", 0, 0}, {port, "127.0.0.2", 0, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, attack, &a[i]), 0);
    pause_ms(300);
    double t0 = now();
    int answered = 0;
    for (int i = 0; i < 10; i++) {
        answered += answered_from(port, "127.0.0.1");
        answered += answered_from(port, "127.0.0.3");
        pause_ms(50);
    }
    double took = now() - t0;
    for (int i = 0; i < 2; i++) {
        a[i].stop = 1;
        pthread_join(t[i], NULL);
    }
    printf("# %d of 20 probes answered within 1 s, in %.2f s, while two attackers made %ld "
           "connections\n", answered, took, a[0].made + a[1].made);
    serve_stop(s);
    assert_int_equal(answered, 20);
}

/*
 * Item 2: a chunked body that never ends.  The 413 comes once the body
 * passes the limit (64 KiB), not when it ends, and the connection is then
 * closed; the client, which sends 1 KiB and then looks for an answer, has
 * sent little more than the limit by then.  (At 4e81fef the server read
 * for ever and answered nothing.)
 */
static void test_endless_chunked_body(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s), fd = connect_from(port, "127.0.0.1");
    assert_true(fd >= 0);
    char head[256], chunk[1024 + 16];
    int n = snprintf(head, sizeof head, "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                     port);
    assert_int_equal(http_send_all(fd, head, (size_t)n), 0);
    int c = snprintf(chunk, sizeof chunk, "400\r\n");
    memset(chunk + c, ' ', 1024);
    memcpy(chunk + c + 1024, "\r\n", 2);
    size_t clen = (size_t)c + 1026, sent = 0;
    double t0 = now();
    int answered = 0;
    while (!answered && now() - t0 < 10) {
        ssize_t k = send(fd, chunk, clen, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (k > 0)
            sent += (size_t)k;
        struct pollfd q = {fd, POLLIN, 0};
        answered = poll(&q, 1, k < 0 ? 20 : 5) > 0; /* 1 KiB per 5 ms at most */
    }
    size_t got;
    int closed;
    char *raw = read_until_close(fd, 5, &got, &closed);
    double took = now() - t0;
    close(fd);
    struct http_answer a = {0};
    http_parse(raw, got, &a);
    printf("# endless chunked body: 413 after %zu bytes sent (limit %zu), %.2f s, "
           "connection closed: %s\n", sent, l.max_body, took, closed ? "yes" : "no");
    assert_true(answered);
    expect_error(&a, 413, "larger than 65536 bytes");
    assert_true(closed);
    assert_true(sent < l.max_body + (512u << 10));
    http_answer_free(&a);
    serve_stop(s);
}

/* A 32x32 board evaluated along 20,000 moves (L and R in turn). */
struct long_eval {
    int port;
    int status;
};

static void *run_long_eval(void *arg)
{
    struct long_eval *e = arg;
    size_t cap = 64 << 10, n = 0;
    char *body = malloc(cap);
    n += (size_t)snprintf(body + n, cap - n, "{\"board\": \"");
    for (int c = 0; c < 32 * 32; c++)
        n += (size_t)snprintf(body + n, cap - n, "%d%s", c == 1023 ? 0 : c + 1,
                              c == 1023 ? "" : c % 32 == 31 ? "/" : " ");
    n += (size_t)snprintf(body + n, cap - n, "\", \"moves\": \"");
    for (int i = 0; i < 20000; i++)
        body[n++] = i % 2 ? 'R' : 'L';
    snprintf(body + n, cap - n, "\"}");
    struct http_answer a;
    e->status = post_with(e->port, "/api/eval", "", body, 60, &a);
    http_answer_free(&a);
    free(body);
    return NULL;
}

/*
 * Item 3: an evaluation takes a search slot (with one slot, a second
 * request is refused with 503 while a 32x32 x 20,000-move evaluation runs:
 * at 4e81fef every evaluation ran at once, outside the slots), and
 * serve_stop (what SIGTERM does) ends it within a second.
 */
static void test_eval_takes_a_slot(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.searches = 1;
    struct serve *s = start(&l);
    struct long_eval e = {serve_port(s), -1};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_long_eval, &e), 0);
    int busy = 0;
    struct http_answer a;
    for (int tries = 0; tries < 300 && !busy; tries++) {
        pause_ms(10);
        post_with(e.port, "/api/eval", "", "{\"board\": \"1 2 3/4 5 6/7 0 8\"}", 10, &a);
        busy = a.status == 503;
        if (busy) {
            char retry[16];
            assert_true(http_header(&a, "Retry-After", retry, sizeof retry));
            expect_error(&a, 503, "search slots are busy");
        }
        http_answer_free(&a);
    }
    assert_true(busy);
    double t0 = now();
    serve_stop(s);
    double took = now() - t0;
    pthread_join(t, NULL);
    printf("# serve_stop during a 32x32 evaluation of 20000 moves: %.3f s; its answer %d\n",
           took, e.status);
    assert_true(took < 2.5);
    /* 503: stopped; 0: dropped; 200 only if it ended between the busy
     * answer and the stop */
    assert_true(e.status == 503 || e.status == 0 || e.status == 200);
}

/*
 * Item 4: request bytes that are not UTF-8, or cut in a character, are
 * echoed escaped or cut between characters: the answer is JSON with the
 * right 4xx (at 4e81fef: 500 "out of memory", Jansson having refused the
 * message).  A query that is not UTF-8, or holds NUL, is refused naming it.
 */
static void test_utf8_in_errors(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    struct http_answer a;
    post_with(port, "/api/eval", "", "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"moves\": \"\xc3\xa9\"}",
              5, &a);
    expect_error(&a, 400, "move 1 ('\xc3\xa9') is not one of U, D, L, R");
    http_answer_free(&a);
    /* a field name whose 64th byte is the first of a two-byte character */
    char body[256], name[80];
    memset(name, 'a', 63);
    memcpy(name + 63, "\xc3\xa9", 3);
    snprintf(body, sizeof body, "{\"board\": \"1 2/3 0\", \"%s\": 1}", name);
    post_with(port, "/api/solve", "", body, 5, &a);
    expect_error(&a, 400, "unknown field \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    http_answer_free(&a);
    /* a method ending in a multibyte character, and one with a byte that
     * is no character at all */
    static const char *const methods[] = {"POSTPOSTPOSTPOS\xc3\xa9", "GET\xff"};
    for (int i = 0; i < 2; i++) {
        char req[256];
        int n = snprintf(req, sizeof req, "%s /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Connection: close\r\n\r\n", methods[i]);
        raw_request(port, "127.0.0.1", req, (size_t)n, 5, &a, NULL);
        expect_error(&a, 405, "/api/solve takes POST, not ");
        http_answer_free(&a);
    }
    /* a 129-byte path whose last character is two bytes */
    char path[160] = "/";
    memset(path + 1, 'x', 126);
    memcpy(path + 127, "%C3%A9", 7);
    get_from(port, "127.0.0.1", path, 5, &a, NULL);
    expect_error(&a, 404, "no such page");
    http_answer_free(&a);
    memcpy(path, "/api/", 5);
    get_from(port, "127.0.0.1", path, 5, &a, NULL);
    expect_error(&a, 404, "no such endpoint: /api/xxxx");
    http_answer_free(&a);
    get_from(port, "127.0.0.1", "/api/histogram?size=3x3%FF", 5, &a, NULL);
    expect_error(&a, 400, "the query's value of size is not valid UTF-8: byte 4 is 0xFF");
    http_answer_free(&a);
    get_from(port, "127.0.0.1", "/api/histogram?size=3x3%00x", 5, &a, NULL);
    expect_error(&a, 400, "the query's value of size holds a NUL byte (%00) at byte 4");
    http_answer_free(&a);
    get_from(port, "127.0.0.1", "/api/histogram?s%C3ze=3x3", 5, &a, NULL);
    expect_error(&a, 400, "the query's field name");
    http_answer_free(&a);
    serve_stop(s);
}

/* A search whose client sends it and then closes the connection. */
static void *leave_a_search(void *arg)
{
    int port = *(int *)arg;
    static const char body[] = "{\"board\": \"0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1\", "
                               "\"max_seconds\": 8}";
    char req[512];
    int n = snprintf(req, sizeof req, "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     strlen(body), body);
    int fd = connect_from(port, "127.0.0.1");
    if (fd >= 0) {
        http_send_all(fd, req, (size_t)n);
        pause_ms(300);
        close(fd);
    }
    return NULL;
}

/*
 * Item 7: a client that closes its connection during its search frees the
 * search slot at once (the only slot here): another search is served
 * within a second or two, not after the first one's 8 s (at 4e81fef it
 * kept the slot up to its time limit).
 */
static void test_leaving_client_frees_slot(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.searches = 1;
    struct serve *s = start(&l);
    int port = serve_port(s);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, leave_a_search, &port), 0);
    pthread_join(t, NULL);
    double t0 = now();
    int served = 0;
    struct http_answer a;
    while (!served && now() - t0 < 6) {
        post_with(port, "/api/solve", "", "{\"board\": \"1 2 3/4 5 6/7 0 8\", "
                  "\"method\": \"ida\"}", 10, &a);
        served = a.status == 200;
        assert_true(served || a.status == 503);
        http_answer_free(&a);
        if (!served)
            pause_ms(50);
    }
    double took = now() - t0;
    printf("# the slot of a client that left came back after %.3f s\n", took);
    assert_true(served);
    assert_true(took < 2.5);
    serve_stop(s);
}

/*
 * Item 7: API calls from another site's page are refused (403): an Origin
 * that is not this server, Sec-Fetch-Site cross-site or same-site, a Host
 * that is not a loopback name (DNS rebinding).  The page's own calls and
 * programs' calls (no Origin) are answered.  At 4e81fef all were.
 */
static void test_cross_origin_refused(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    static const char body[] = "{\"board\": \"1 2/3 0\"}";
    char own[128], localhost[128];
    snprintf(own, sizeof own, "Origin: http://127.0.0.1:%d\r\nSec-Fetch-Site: same-origin\r\n",
             port);
    const struct {
        const char *headers;
        int status;
        const char *error;
    } cases[] = {
        {"", 200, NULL},
        {own, 200, NULL},
        {"Origin: http://evil.example\r\n", 403, "origin http://evil.example is refused"},
        {"Origin: null\r\n", 403, "origin null is refused"},
        {"Sec-Fetch-Site: cross-site\r\n", 403, "(Sec-Fetch-Site: cross-site) is refused"},
        {"Sec-Fetch-Site: same-site\r\n", 403, "Sec-Fetch-Site: same-site"},
    };
    struct http_answer a;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        post_with(port, "/api/solvable", cases[i].headers, body, 5, &a);
        if (cases[i].error)
            expect_error(&a, cases[i].status, cases[i].error);
        else if (a.status != 200)
            fail_msg("headers %s: status %d: %s", cases[i].headers, a.status, a.body);
        http_answer_free(&a);
    }
    /* the Host of a rebound name, and loopback names */
    static const char *const hosts[][2] = {{"evil.example:%d", "403"},
                                           {"localhost:%d", "200"},
                                           {"[::1]:%d", "200"},
                                           {"127.0.0.2:%d", "200"}};
    for (int i = 0; i < 4; i++) {
        char host[64], req[512];
        snprintf(host, sizeof host, hosts[i][0], port);
        int n = snprintf(req, sizeof req, "GET /api/info HTTP/1.1\r\nHost: %s\r\n"
                         "Connection: close\r\n\r\n", host);
        raw_request(port, "127.0.0.1", req, (size_t)n, 5, &a, NULL);
        if (a.status != atoi(hosts[i][1]))
            fail_msg("Host %s: status %d: %s", host, a.status, a.body);
        if (a.status == 403)
            expect_error(&a, 403, "is not a name of this loopback server");
        http_answer_free(&a);
    }
    /* a page is not an API call: served to anyone */
    snprintf(localhost, sizeof localhost, "GET / HTTP/1.1\r\nHost: evil.example\r\n"
             "Connection: close\r\n\r\n");
    raw_request(port, "127.0.0.1", localhost, strlen(localhost), 5, &a, NULL);
    assert_int_equal(a.status, 200);
    http_answer_free(&a);
    serve_stop(s);
}

/*
 * The answer's deadline: a client that pipelines 2000 requests for the
 * page's script (40 MB of answers) and reads nothing has its connection
 * closed once an answer has waited send_seconds (1 s here); it then reads
 * what was sent and the end, well short of 2000 answers.
 */
static void test_unread_answers(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    l.send_seconds = 1;
    struct serve *s = start(&l);
    int port = serve_port(s), fd = connect_from(port, "127.0.0.1");
    assert_true(fd >= 0);
    char one[128];
    int n = snprintf(one, sizeof one, "GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n",
                     port);
    char *all = malloc((size_t)n * 2000);
    for (int i = 0; i < 2000; i++)
        memcpy(all + (size_t)i * (size_t)n, one, (size_t)n);
    /* the requests go out while the server answers: a thread would be
     * needed if they did not fit the socket buffers (80 KB do) */
    assert_int_equal(http_send_all(fd, all, (size_t)n * 2000), 0);
    free(all);
    pause_ms(3000);
    size_t got;
    int closed;
    char *raw = read_until_close(fd, 10, &got, &closed);
    int answers = 0;
    for (char *p = raw; (p = strstr(p, "HTTP/1.1 200")); p++)
        answers++;
    printf("# 2000 pipelined answers unread: the connection was closed after %d of them\n",
           answers);
    assert_true(closed);
    assert_true(answers < 2000);
    free(raw);
    close(fd);
    serve_stop(s);
}

/* Item 7: a board already at the goal, solved layer by layer (no moves:
 * memcpy from NULL at 4e81fef, which UBSan stops in make asan). */
static void test_solved_board(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    struct http_answer a;
    post_with(serve_port(s), "/api/solve", "",
              "{\"board\": \"1 2 3/4 5 6/7 8 0\", \"method\": \"layers\"}", 5, &a);
    assert_int_equal(a.status, 200);
    json_t *v = json_loads(a.body, 0, NULL);
    assert_non_null(v);
    assert_int_equal(json_integer_value(json_object_get(v, "length")), 0);
    assert_string_equal(json_string_value(json_object_get(v, "moves")), "");
    json_decref(v);
    http_answer_free(&a);
    serve_stop(s);
}

/* Item 7: every spelling of a loopback address is one (no "open to the
 * network" warning for 127.0.0.2 or the long form of ::1), the others are
 * not. */
static void test_loopback_addresses(void **state)
{
    (void)state;
    static const char *const yes[] = {"127.0.0.1", "127.0.0.2", "127.255.255.254", "::1",
                                      "0:0:0:0:0:0:0:1", "0000::0001", "::ffff:127.0.0.1"};
    static const char *const no[] = {"0.0.0.0", "::", "10.0.0.1", "128.0.0.1",
                                     "::ffff:10.0.0.1", "::2", "localhost", ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (!serve_is_loopback(yes[i]))
            fail_msg("%s is a loopback address", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (serve_is_loopback(no[i]))
            fail_msg("%s is not a loopback address", no[i]);
    /* the command's line on stderr, for 127.0.0.2 */
    int fds[2], errs[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(pipe(errs), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(errs[1], 2);
        close(fds[0]);
        close(errs[0]);
        execl(getenv("SLIDE"), "slide", "serve", "--port", "0", "--bind", "127.0.0.2",
              (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    close(errs[1]);
    FILE *out = fdopen(fds[0], "r"), *err = fdopen(errs[0], "r");
    char line[256] = "", eline[256] = "";
    assert_non_null(fgets(line, sizeof line, out));
    assert_non_null(fgets(eline, sizeof eline, err));
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    fclose(out);
    fclose(err);
    assert_non_null(strstr(line, "http://127.0.0.2:"));
    assert_non_null(strstr(eline, "slide: serving the page at that address"));
    if (strstr(eline, "open to the network"))
        fail_msg("127.0.0.2 is loopback, yet: %s", eline);
}

/* GET path (any length) from 127.0.0.1 with Connection: close. */
static int get_long(int port, const char *path, struct http_answer *a)
{
    size_t len = strlen(path) + 128;
    char *req = malloc(len);
    int n = snprintf(req, len, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: "
                     "close\r\n\r\n", path, port);
    int st = raw_request(port, "127.0.0.1", req, (size_t)n, 5, a, NULL);
    free(req);
    return st;
}

/* "/api/info?" and n fields a0=1&a1=1&... (malloc'd). */
static char *many_fields(int n)
{
    char *p = malloc(16 + (size_t)n * 16);
    size_t at = (size_t)sprintf(p, "/api/info?");
    for (int i = 0; i < n; i++)
        at += (size_t)sprintf(p + at, "%sa%d=1", i ? "&" : "", i);
    return p;
}

/*
 * Issue 39, item 6: a query of 500 fields (3.4 KB) got no answer at
 * b66e30a (libmicrohttpd's pool ran out storing them); now 400 with a
 * JSON error, and 414 for a target over 8 KiB (one field of 9,000 bytes,
 * or 3,000 fields).  32 fields are read (and refused by /api/info, which
 * takes none); the connection is answered, never dropped.
 */
static void test_many_query_fields(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    struct http_answer a;
    char *p = many_fields(500);
    get_long(port, p, &a);
    expect_error(&a, 400, "the query has 500 fields; slide serve reads at most 32");
    http_answer_free(&a);
    free(p);
    p = many_fields(3000);
    get_long(port, p, &a);
    expect_error(&a, 414, "slide serve reads at most 8192");
    http_answer_free(&a);
    free(p);
    p = many_fields(32);
    get_long(port, p, &a);
    expect_error(&a, 400, "unknown field");
    http_answer_free(&a);
    free(p);
    p = malloc(9100);
    memset(p, 'x', 9050);
    memcpy(p, "/api/info?a=", 12);
    p[9050] = '\0';
    get_long(port, p, &a);
    expect_error(&a, 414, "is 9050 bytes; slide serve reads at most 8192");
    http_answer_free(&a);
    free(p);
    serve_stop(s);
}

/*
 * Issue 39, item 8: "/api/info%00" was answered as /api/info at b66e30a
 * (the path decoded into a C string); a control byte in the path, raw or
 * percent-encoded, is now refused (400), on the page's paths as on the
 * API's.  A NUL in a query value keeps its own message (issue 32).
 */
static void test_control_bytes_in_path(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    struct http_answer a;
    static const char *const paths[] = {"/api/info%00", "/api/info%00x", "/%0a", "/api/in%1Ffo",
                                        "/api/info%7f", "/index.html%00.png"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        get_long(port, paths[i], &a);
        expect_error(&a, 400, "control byte");
        http_answer_free(&a);
    }
    static const char raw[] = "GET /api/\x01info HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Connection: close\r\n\r\n";
    raw_request(port, "127.0.0.1", raw, sizeof raw - 1, 5, &a, NULL);
    expect_error(&a, 400, "the control byte 0x01 (at byte 6)");
    http_answer_free(&a);
    get_long(port, "/api/info?x=%00", &a);
    expect_error(&a, 400, "holds a NUL byte");
    http_answer_free(&a);
    assert_int_equal(get_long(port, "/api/info?", &a), 200); /* an empty query is none */
    http_answer_free(&a);
    assert_int_equal(get_long(port, "/api/info%3f", &a), 404); /* a '?' in the path */
    http_answer_free(&a);
    serve_stop(s);
}

/*
 * Issue 39, item 8: an HTTP/1.1 request without Host was answered at
 * b66e30a; RFC 9112 (section 3.2) has it refused with 400, and one with
 * two Host lines.  HTTP/1.0 needs none.
 */
static void test_host_required(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    int port = serve_port(s);
    struct http_answer a;
    static const char none[] = "GET /api/info HTTP/1.1\r\nConnection: close\r\n\r\n";
    raw_request(port, "127.0.0.1", none, sizeof none - 1, 5, &a, NULL);
    expect_error(&a, 400, "must have a Host header");
    http_answer_free(&a);
    static const char page[] = "GET / HTTP/1.1\r\nConnection: close\r\n\r\n";
    raw_request(port, "127.0.0.1", page, sizeof page - 1, 5, &a, NULL);
    expect_error(&a, 400, "must have a Host header");
    http_answer_free(&a);
    static const char two[] = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: "
                              "127.0.0.1\r\nConnection: close\r\n\r\n";
    raw_request(port, "127.0.0.1", two, sizeof two - 1, 5, &a, NULL);
    expect_error(&a, 400, "2 Host headers");
    http_answer_free(&a);
    static const char old[] = "GET /api/info HTTP/1.0\r\n\r\n";
    assert_int_equal(raw_request(port, "127.0.0.1", old, sizeof old - 1, 5, &a, NULL), 200);
    http_answer_free(&a);
    serve_stop(s);
}

/* The kB of a "Name:   N kB" line of /proc/self/status; -1 if absent. */
static long status_kb(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, name, n) && line[n] == ':')
            kb = atol(line + n + 1);
    if (f)
        fclose(f);
    return kb;
}

#define WD_BURST 40

/* One request of the burst: POST /api/solve with heuristic wd. */
struct wd_request {
    int port;
    char json[256];
    int status;
};

static void *wd_solve(void *arg)
{
    struct wd_request *q = arg;
    struct http_answer a;
    q->status = post_with(q->port, "/api/solve", "", q->json, 60, &a);
    http_answer_free(&a);
    return NULL;
}

/* A 3x5 goal (tiles 1..14 in an order of seed i, the blank last) and the
 * board one move from it, as JSON text of /api/solve with heuristic wd. */
static void wd_json(int i, char *out, size_t len)
{
    int t[15];
    for (int k = 0; k < 14; k++)
        t[k] = k + 1;
    for (int k = 13; k > 0; k--) { /* a permutation of i's own */
        int j = (i * 7919 + k * 104729) % (k + 1), x = t[k];
        t[k] = t[j];
        t[j] = x;
    }
    t[14] = 0;
    char goal[96] = "", board[96] = "";
    for (int k = 0; k < 15; k++)
        snprintf(goal + strlen(goal), sizeof goal - strlen(goal), "%d%s", t[k],
                 k == 14 ? "" : k % 5 == 4 ? "/" : " ");
    t[14] = t[13]; /* the blank one to the left */
    t[13] = 0;
    for (int k = 0; k < 15; k++)
        snprintf(board + strlen(board), sizeof board - strlen(board), "%d%s", t[k],
                 k == 14 ? "" : k % 5 == 4 ? "/" : " ");
    snprintf(out, len, "{\"board\": \"%s\", \"goal\": \"%s\", \"heuristic\": \"wd\"}",
             board, goal);
}

/*
 * Issue 39, item 5: a burst of 40 /api/solve requests with heuristic wd
 * on 3x5 boards, each with a goal of its own (the blank in the same
 * corner).  wd's tables are built once, in a search slot, and shared:
 * the server's peak memory grows by little more than one set of tables
 * (about 10 MB), where at b66e30a every request built its own before it
 * asked for a slot (the review saw 1 GB for 200 requests).  Every answer
 * is 200 or 503 (busy slots).
 */
static void test_wd_burst(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    static struct wd_request q[WD_BURST];
    pthread_t t[WD_BURST];
    FILE *f = fopen("/proc/self/clear_refs", "w"); /* "5": the peak starts again */
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    long before = status_kb("VmRSS");
    double t0 = now();
    for (int i = 0; i < WD_BURST; i++) {
        q[i].port = serve_port(s);
        wd_json(i, q[i].json, sizeof q[i].json);
        assert_int_equal(pthread_create(&t[i], NULL, wd_solve, &q[i]), 0);
    }
    int ok = 0, busy = 0;
    for (int i = 0; i < WD_BURST; i++) {
        pthread_join(t[i], NULL);
        ok += q[i].status == 200;
        busy += q[i].status == 503;
    }
    double took = now() - t0;
    long peak = status_kb("VmHWM");
    printf("# %d wd solves at once: %d answered 200, %d 503, in %.2f s; peak memory %ld kB "
           "over %ld kB before\n", WD_BURST, ok, busy, took, peak - before, before);
    assert_int_equal(ok + busy, WD_BURST);
    assert_true(ok >= 1);
    if (f) /* the peak is the burst's */
        assert_true(peak - before < 48 * 1024);
    serve_stop(s);
}

/*
 * Issue 39, item 5: the building of wd's tables counts within the
 * request's deadline.  A 6x2 solve asked to stop after 1 ms is stopped
 * during the build (its reason says so; at b66e30a the tables were built
 * in full, before the deadline started), and the next request, with time,
 * builds them and is answered.
 */
static void test_wd_build_deadline(void **state)
{
    (void)state;
    struct serve_limits l = serve_default_limits();
    struct serve *s = start(&l);
    struct http_answer a;
    static const char board[] = "\"board\": \"1 2/3 4/5 6/7 8/9 10/0 11\", \"heuristic\": \"wd\"";
    char json[256];
    snprintf(json, sizeof json, "{%s, \"max_seconds\": 0.001}", board);
    assert_int_equal(post_with(serve_port(s), "/api/solve", "", json, 30, &a), 200);
    json_t *v = json_loads(a.body, 0, NULL);
    const char *reason = json_string_value(json_object_get(v, "reason"));
    printf("# wd on 6x2 with 1 ms: %s\n", reason ? reason : a.body);
    assert_string_equal(json_string_value(json_object_get(v, "status")), "stopped");
    assert_non_null(strstr(reason, "while the walking-distance tables were built"));
    json_decref(v);
    http_answer_free(&a);
    snprintf(json, sizeof json, "{%s}", board);
    assert_int_equal(post_with(serve_port(s), "/api/solve", "", json, 30, &a), 200);
    v = json_loads(a.body, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(v, "status")), "optimal");
    assert_string_equal(json_string_value(json_object_get(v, "moves")), "R");
    json_decref(v);
    http_answer_free(&a);
    serve_stop(s);
}

/* slide serve --pdb on a FIFO: refused at once in one line, exit 1.  The
 * server blocks SIGINT and SIGTERM before it loads the tables, so an open
 * that waited for a writer could be ended only by SIGKILL (timeout -k). */
static void test_pdb_fifo_refused(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-hostile-XXXXXX", fifo[64], cmd[512], out[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/t.pdb", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(cmd, sizeof cmd, "timeout -k 2 10 %s serve --port 0 --pdb %s 2>&1",
             getenv("SLIDE"), fifo);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    unlink(fifo);
    rmdir(dir);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || !strstr(out, "is a FIFO, not a regular file") ||
        clitest_count_lines(out) != 1)
        fail_msg("serve --pdb FIFO: status %d, output:\n%s", st, out);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slow_heads),
        cmocka_unit_test(test_connection_caps),
        cmocka_unit_test(test_head_deadline),
        cmocka_unit_test(test_reconnecting_attacker),
        cmocka_unit_test(test_endless_chunked_body),
        cmocka_unit_test(test_eval_takes_a_slot),
        cmocka_unit_test(test_utf8_in_errors),
        cmocka_unit_test(test_leaving_client_frees_slot),
        cmocka_unit_test(test_cross_origin_refused),
        cmocka_unit_test(test_unread_answers),
        cmocka_unit_test(test_solved_board),
        cmocka_unit_test(test_loopback_addresses),
        cmocka_unit_test(test_many_query_fields),
        cmocka_unit_test(test_control_bytes_in_path),
        cmocka_unit_test(test_host_required),
        cmocka_unit_test(test_wd_burst),
        cmocka_unit_test(test_wd_build_deadline),
        cmocka_unit_test(test_pdb_fifo_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
