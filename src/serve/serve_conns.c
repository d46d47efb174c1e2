/*
 * serve_conns.c - connections and their deadlines (conns.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conns.h"

static double since_seconds(const struct timespec *t, const struct timespec *now)
{
    return (double)(now->tv_sec - t->tv_sec) + 1e-9 * (double)(now->tv_nsec - t->tv_nsec);
}

/* Shut down every connection past its deadline (lock held). */
static void sweep(struct conns *cs)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    for (struct conn *c = cs->head; c; c = c->next) {
        double limit = c->state == CONN_READING   ? cs->read_seconds
                       : c->state == CONN_SENDING ? cs->send_seconds
                                                  : -1;
        if (c->cut || limit < 0 || since_seconds(&c->since, &now) <= limit)
            continue;
        shutdown(c->fd, SHUT_RDWR);
        c->cut = 1;
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

int conns_init(struct conns *cs, double read_seconds, double send_seconds, slide_error *err)
{
    memset(cs, 0, sizeof *cs);
    cs->read_seconds = read_seconds;
    cs->send_seconds = send_seconds;
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

struct conn *conns_add(struct conns *cs, int fd)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    c->state = CONN_READING;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_lock(&cs->lock);
    c->next = cs->head;
    if (cs->head)
        cs->head->prev = c;
    cs->head = c;
    cs->count++;
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
    pthread_mutex_unlock(&cs->lock);
    free(c);
}

void conns_set(struct conns *cs, struct conn *c, enum conn_state st)
{
    if (!c)
        return;
    pthread_mutex_lock(&cs->lock);
    c->state = st;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
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
