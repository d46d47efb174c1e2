/*
 * httptest.h - a minimal HTTP/1.0 client for the server tests: one request
 * per connection to 127.0.0.1, the whole answer read until the server
 * closes.  Include after testutil.h.
 */
#ifndef SLIDE_HTTPTEST_H
#define SLIDE_HTTPTEST_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct http_answer {
    int status;        /* 0 when the connection failed */
    char *head;        /* status line and headers, NUL-terminated */
    char *body;        /* NUL-terminated (a body never holds NUL here) */
    size_t body_len;
};

static inline void http_answer_free(struct http_answer *a)
{
    free(a->head);
    free(a->body);
    memset(a, 0, sizeof *a);
}

static inline int http_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

static inline int http_send_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Split raw (len bytes) into a->head and a->body; parse the status. */
static inline void http_parse(char *raw, size_t len, struct http_answer *a)
{
    char *sep = raw ? strstr(raw, "\r\n\r\n") : NULL;
    if (!sep || sscanf(raw, "HTTP/1.%*d %d", &a->status) != 1) {
        a->status = 0;
        a->head = raw;
        a->body = calloc(1, 1);
        return;
    }
    size_t hlen = (size_t)(sep - raw);
    a->body_len = len - hlen - 4;
    a->body = malloc(a->body_len + 1);
    memcpy(a->body, sep + 4, a->body_len);
    a->body[a->body_len] = '\0';
    raw[hlen] = '\0';
    a->head = raw;
}

/*
 * Send "METHOD path" with body (len bytes; NULL: none) and read the answer.
 * Returns a->status (0 if the server could not be reached or closed early).
 */
static inline int http_request(int port, const char *method, const char *path,
                               const char *body, size_t len, struct http_answer *a)
{
    memset(a, 0, sizeof *a);
    int fd = http_connect(port);
    if (fd < 0)
        return 0;
    char head[512];
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                     method, path, body ? len : 0);
    size_t cap = 1 << 16, got = 0;
    char *raw = malloc(cap);
    if (http_send_all(fd, head, (size_t)n) == 0 && body)
        http_send_all(fd, body, len); /* the server may answer 413 and close first */
    for (ssize_t k; (k = recv(fd, raw + got, cap - got - 1, 0)) > 0;) {
        got += (size_t)k;
        if (got + 1 == cap)
            raw = realloc(raw, cap *= 2);
    }
    raw[got] = '\0';
    close(fd);
    http_parse(raw, got, a);
    return a->status;
}

/* POST a NUL-terminated JSON text. */
static inline int http_post(int port, const char *path, const char *json, struct http_answer *a)
{
    return http_request(port, "POST", path, json, strlen(json), a);
}

/* The value of header name (case as sent by the server) into buf; 0 if absent. */
static inline int http_header(const struct http_answer *a, const char *name, char *buf,
                              size_t len)
{
    size_t n = strlen(name);
    for (const char *p = a->head; p && (p = strstr(p, "\r\n")); p += 2)
        if (!strncasecmp(p + 2, name, n) && p[2 + n] == ':') {
            const char *v = p + 3 + n;
            v += strspn(v, " ");
            size_t m = strcspn(v, "\r\n");
            snprintf(buf, len, "%.*s", (int)m, v);
            return 1;
        }
    return 0;
}

#endif
