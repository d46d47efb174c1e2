/*
 * serve_conns.c - connections and their deadlines (conns.h).
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conns.h"

static double since_seconds(const struct timespec *t, const struct timespec *now)
{
    return (double)(now->tv_sec - t->tv_sec) + 1e-9 * (double)(now->tv_nsec - t->tv_nsec);
}

/* Shut down c's socket (lock held); it no longer counts. */
static void cut(struct conns *cs, struct conn *c)
{
    shutdown(c->fd, SHUT_RDWR);
    c->cut = 1;
    cs->live--;
}

/* The deadline of state st in seconds; -1: none. */
static double limit_of(const struct conns_limits *l, enum conn_state st)
{
    switch (st) {
    case CONN_HEAD: /* the head is part of head and body */
        return l->head_seconds < l->read_seconds ? l->head_seconds : l->read_seconds;
    case CONN_BODY:
        return l->read_seconds;
    case CONN_SENDING:
        return l->send_seconds;
    default:
        return -1;
    }
}

/* Shut down every connection past its deadline (lock held). */
static void sweep(struct conns *cs)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    for (struct conn *c = cs->head; c; c = c->next) {
        double limit = limit_of(&cs->limits, c->state);
        if (c->cut || limit < 0 || since_seconds(&c->since, &now) <= limit)
            continue;
        cut(cs, c);
        cs->cut++;
    }
}

static void *sweeper(void *arg)
{
    struct conns *cs = arg;
    pthread_mutex_lock(&cs->lock);
    while (!cs->stopping) {
        sweep(cs);
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += 1000000000L / SWEEPS_PER_SECOND;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cs->wake, &cs->lock, &t);
    }
    pthread_mutex_unlock(&cs->lock);
    return NULL;
}

int conns_init(struct conns *cs, const struct conns_limits *l, slide_error *err)
{
    memset(cs, 0, sizeof *cs);
    cs->limits = *l;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&cs->lock, NULL);
    pthread_cond_init(&cs->wake, &ca);
    pthread_condattr_destroy(&ca);
    int rc = pthread_create(&cs->sweeper, NULL, sweeper, cs);
    if (rc) {
        pthread_cond_destroy(&cs->wake);
        pthread_mutex_destroy(&cs->lock);
        return slide_fail(err, SLIDE_ENOMEM, "cannot start the connection sweeper: %s",
                          strerror(rc));
    }
    cs->started = 1;
    return SLIDE_OK;
}

struct conn_addr conns_address(const struct sockaddr *a)
{
    struct conn_addr k;
    memset(&k, 0, sizeof k);
    k.family = a ? a->sa_family : AF_UNSPEC;
    if (k.family == AF_INET)
        memcpy(k.bytes, &((const struct sockaddr_in *)(const void *)a)->sin_addr, 4);
    else if (k.family == AF_INET6)
        memcpy(k.bytes, &((const struct sockaddr_in6 *)(const void *)a)->sin6_addr, 16);
    return k;
}

static int same_address(const struct conn_addr *a, const struct conn_addr *b)
{
    return a->family == b->family && !memcmp(a->bytes, b->bytes, sizeof a->bytes);
}

/* 1 if a whole request head waits unread on socket fd: the client sent
 * it at once, and the connection's thread has not read it yet. */
static int head_waiting(int fd)
{
    char buf[2048];
    ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_PEEK | MSG_DONTWAIT);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n");
}

/* How readily c is evicted: 0 first; -1 never.  A connection in HEAD
 * whose whole head waits in its socket (c->ready) ranks with SENDING. */
static int eviction_rank(const struct conn *c)
{
    switch (c->state) {
    case CONN_HEAD:
        return c->ready ? 2 : 0;
    case CONN_BODY:
        return 1;
    case CONN_SENDING:
        return 2;
    default:
        return -1;
    }
}

/* The live connection (from `from`; NULL: any) of lowest rank and, among
 * those, the oldest; NULL if none may be evicted (lock held). */
static struct conn *victim(struct conns *cs, const struct conn_addr *from)
{
    struct conn *best = NULL;
    int best_rank = 0;
    for (struct conn *c = cs->head; c; c = c->next) {
        int rank = eviction_rank(c);
        if (c->cut || rank < 0 || (from && !same_address(&c->from, from)))
            continue;
        if (!best || rank < best_rank ||
            (rank == best_rank && since_seconds(&c->since, &best->since) > 0)) {
            best = c;
            best_rank = rank;
        }
    }
    return best;
}

/* Evict the victim; 0 if there is none (lock held).  A victim in HEAD is
 * first looked at: one whose head waits is marked ready and the choice
 * made again (each connection is looked at once per head). */
static int evict(struct conns *cs, const struct conn_addr *from)
{
    struct conn *c;
    while ((c = victim(cs, from)) && c->state == CONN_HEAD && !c->ready &&
           head_waiting(c->fd))
        c->ready = 1;
    if (!c)
        return 0;
    cut(cs, c);
    cs->evicted++;
    return 1;
}

int conns_admit(struct conns *cs, const struct conn_addr *from)
{
    pthread_mutex_lock(&cs->lock);
    long mine = 0;
    for (struct conn *c = cs->head; c; c = c->next)
        mine += !c->cut && same_address(&c->from, from);
    int ok = mine < cs->limits.per_address || evict(cs, from);
    if (ok && cs->live >= cs->limits.connections)
        ok = evict(cs, NULL);
    pthread_mutex_unlock(&cs->lock);
    return ok;
}

struct conn *conns_add(struct conns *cs, int fd, const struct conn_addr *from)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    c->from = *from;
    c->state = CONN_HEAD;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_lock(&cs->lock);
    c->next = cs->head;
    if (cs->head)
        cs->head->prev = c;
    cs->head = c;
    cs->count++;
    cs->live++;
    pthread_mutex_unlock(&cs->lock);
    return c;
}

void conns_remove(struct conns *cs, struct conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&cs->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        cs->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    cs->count--;
    cs->live -= !c->cut;
    pthread_mutex_unlock(&cs->lock);
    free(c);
}

void conns_set(struct conns *cs, struct conn *c, enum conn_state st)
{
    if (!c)
        return;
    pthread_mutex_lock(&cs->lock);
    if (!(st == CONN_BODY && c->state == CONN_HEAD))
        clock_gettime(CLOCK_MONOTONIC, &c->since);
    c->state = st;
    c->ready = 0;
    pthread_mutex_unlock(&cs->lock);
}

void conns_free(struct conns *cs)
{
    if (!cs->started)
        return;
    pthread_mutex_lock(&cs->lock);
    cs->stopping = 1;
    pthread_cond_broadcast(&cs->wake);
    pthread_mutex_unlock(&cs->lock);
    pthread_join(cs->sweeper, NULL);
    while (cs->head) {
        struct conn *c = cs->head;
        cs->head = c->next;
        free(c);
    }
    pthread_cond_destroy(&cs->wake);
    pthread_mutex_destroy(&cs->lock);
    memset(cs, 0, sizeof *cs);
}
