/*
 * serve_pool.c - search slots with deadlines and a watchdog (serve_pool.h).
 */
#define _GNU_SOURCE /* POLLRDHUP */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "slide/serve_pool.h"

/* How often the watchdog looks at the deadlines while a search runs: a
 * search overruns its wall time by at most this plus IDA*'s polling delay. */
#define WATCH_NS 10000000L

static int past(const struct timespec *now, const struct timespec *t)
{
    return now->tv_sec > t->tv_sec || (now->tv_sec == t->tv_sec && now->tv_nsec >= t->tv_nsec);
}

/* 1 if the peer of socket fd has closed it (or it failed): the request's
 * answer has nobody to go to.  Data waiting (a pipelined request) is not
 * a close. */
static int client_gone(int fd)
{
    struct pollfd q = {fd, POLLRDHUP, 0};
    return fd >= 0 && poll(&q, 1, 0) == 1 && (q.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* Raise the flags of busy slots whose deadline has passed or whose client
 * has gone; 1 if any busy. */
static int expire(struct serve_pool *p)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int busy = 0;
    for (int i = 0; i < p->size; i++) {
        struct serve_slot *s = &p->slots[i];
        if (!s->busy)
            continue;
        busy = 1;
        if (!s->cancel && past(&now, &s->deadline)) {
            s->timed_out = 1;
            s->cancel = 1;
        } else if (!s->cancel && client_gone(s->fd)) {
            s->left = 1;
            s->cancel = 1;
        }
    }
    return busy;
}

static void *watch(void *arg)
{
    struct serve_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        if (!expire(p)) { /* nothing to watch: sleep until a slot is taken */
            pthread_cond_wait(&p->wake, &p->lock);
            continue;
        }
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += WATCH_NS;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &t);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int serve_pool_init(struct serve_pool *p, int size, slide_error *err)
{
    memset(p, 0, sizeof *p);
    if (size < 1 || size > SERVE_POOL_MAX)
        return slide_fail(err, SLIDE_EINVAL, "concurrent searches must be 1..%d, not %d",
                          SERVE_POOL_MAX, size);
    if (!(p->slots = calloc((size_t)size, sizeof *p->slots)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %d search slots", size);
    p->size = size;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
    int rc = pthread_create(&p->watchdog, NULL, watch, p);
    if (rc) {
        serve_pool_free(p);
        return slide_fail(err, SLIDE_ENOMEM, "cannot start the search watchdog: %s",
                          strerror(rc));
    }
    p->started = 1;
    return SLIDE_OK;
}

int serve_pool_acquire(struct serve_pool *p, double seconds, int fd)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long long ns = (long long)(seconds * 1e9);
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec += (long)(ns % 1000000000LL);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    int got = -1;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->size && got < 0 && !p->stopping; i++) {
        if (p->slots[i].busy)
            continue;
        p->slots[i] = (struct serve_slot){.busy = 1, .fd = fd, .deadline = t};
        got = i;
    }
    if (got >= 0)
        pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return got;
}

const volatile sig_atomic_t *serve_pool_flag(struct serve_pool *p, int slot)
{
    return &p->slots[slot].cancel;
}

int serve_pool_timed_out(struct serve_pool *p, int slot)
{
    pthread_mutex_lock(&p->lock);
    int t = p->slots[slot].timed_out;
    pthread_mutex_unlock(&p->lock);
    return t;
}

int serve_pool_left(struct serve_pool *p, int slot)
{
    pthread_mutex_lock(&p->lock);
    int t = p->slots[slot].left;
    pthread_mutex_unlock(&p->lock);
    return t;
}

void serve_pool_release(struct serve_pool *p, int slot)
{
    pthread_mutex_lock(&p->lock);
    p->slots[slot].busy = 0;
    p->slots[slot].fd = -1;
    pthread_mutex_unlock(&p->lock);
}

void serve_pool_stop(struct serve_pool *p)
{
    if (!p->slots)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    for (int i = 0; i < p->size; i++)
        if (p->slots[i].busy)
            p->slots[i].cancel = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void serve_pool_free(struct serve_pool *p)
{
    if (!p->slots)
        return;
    serve_pool_stop(p);
    if (p->started)
        pthread_join(p->watchdog, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p->slots);
    memset(p, 0, sizeof *p);
}
