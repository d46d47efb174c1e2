/*
 * conns.h - the open connections of `slide serve` and the deadlines that
 * bound each request on them (internal).
 *
 * libmicrohttpd's connection timeout is an idle timeout: it starts again
 * with every byte, so a client that sends one byte a second keeps a
 * connection, and its thread, for ever.  Here every connection has a
 * deadline for what it is doing:
 *   READING  from its start, and from the end of each answer, until its
 *            request is in (head and body): at most read_seconds;
 *   WORKING  while the request is answered (a search or an evaluation is
 *            bounded by the pool's deadline, serve_pool.h): no deadline;
 *   SENDING  from the queued answer until libmicrohttpd reports it sent:
 *            at most send_seconds.
 * A sweeper thread looks SWEEPS_PER_SECOND times a second and shuts down
 * (shutdown(2)) the socket of every connection past its deadline;
 * libmicrohttpd's thread of that connection then reads the end of the
 * stream and closes it as if the client had.
 *
 * Representation: a doubly linked list of struct conn, one per socket,
 * made when libmicrohttpd announces the connection
 * (MHD_CONNECTION_NOTIFY_STARTED) and unlinked when it announces its close
 * (MHD_CONNECTION_NOTIFY_CLOSED), which libmicrohttpd does before it
 * closes the socket.  Invariant: while a conn is linked, its fd is that
 * connection's socket, so the sweeper (which holds the lock) never shuts
 * down a descriptor that was closed and reused.  Every field is read and
 * written under lock.
 */
#ifndef SLIDE_SERVE_CONNS_H
#define SLIDE_SERVE_CONNS_H

#include <pthread.h>
#include <time.h>

#include "slide/error.h"

#define SWEEPS_PER_SECOND 4

enum conn_state { CONN_READING, CONN_WORKING, CONN_SENDING };

struct conn {
    struct conn *prev, *next;
    int fd;                  /* the socket */
    enum conn_state state;
    struct timespec since;   /* CLOCK_MONOTONIC: when the state began */
    int cut;                 /* shut down by the sweeper */
};

struct conns {
    pthread_mutex_t lock;
    pthread_cond_t wake;     /* stop */
    pthread_t sweeper;
    int started, stopping;
    double read_seconds, send_seconds;
    struct conn *head;
    long count;              /* linked conns */
    long cut;                /* connections shut down at a deadline, in all */
};

/* Start the sweeper with the two deadlines (seconds > 0).  Errors:
 * SLIDE_ENOMEM (the thread cannot be created). */
int conns_init(struct conns *cs, double read_seconds, double send_seconds, slide_error *err);

/* A new connection on socket fd, READING from now; NULL when out of
 * memory (the caller then closes the connection). */
struct conn *conns_add(struct conns *cs, int fd);

/* Unlink and free c (NULL is ignored). */
void conns_remove(struct conns *cs, struct conn *c);

/* c enters state st now (NULL is ignored). */
void conns_set(struct conns *cs, struct conn *c, enum conn_state st);

/* Stop and join the sweeper, free what is still linked (cs may be
 * zeroed). */
void conns_free(struct conns *cs);

#endif
