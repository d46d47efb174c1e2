/*
 * conns.h - the open connections of `slide serve` and the deadlines that
 * bound each request on them (internal).
 *
 * libmicrohttpd's connection timeout is an idle timeout: it starts again
 * with every byte, so a client that sends one byte a second keeps a
 * connection, and its thread, for ever.  Here every connection has a
 * deadline for what it is doing:
 *   HEAD     from its start, and from the end of each answer, until its
 *            request's head is in: at most head_seconds (a client that is
 *            idle between requests is in HEAD too);
 *   BODY     the head is in, the body is read: the head and the body
 *            within read_seconds of the start of HEAD;
 *   WORKING  while the request is answered (a search or an evaluation is
 *            bounded by the pool's deadline, serve_pool.h): no deadline;
 *   SENDING  from the queued answer until libmicrohttpd reports it sent:
 *            at most send_seconds.
 * A sweeper thread looks SWEEPS_PER_SECOND times a second and shuts down
 * (shutdown(2)) the socket of every connection past its deadline;
 * libmicrohttpd's thread of that connection then reads the end of the
 * stream and closes it as if the client had.
 *
 * Room for new clients: at most `connections` connections are open, and
 * at most `per_address` from one client address.  A new connection
 * beyond either cap takes the place of one that holds a slot without
 * using it (conns_admit): the oldest in HEAD (a head that drips, or a
 * client idle between requests), else the oldest in BODY, else the
 * oldest in SENDING - from the same address when that address's cap is
 * reached - which is shut down as the sweeper does.  Connections at work
 * are never evicted; a new one that finds every slot at work is refused.
 * A connection in HEAD whose whole head already waits in its socket
 * (sent at once, not yet read by its thread) is not slow: it ranks with
 * SENDING.  So a client that sends its request at once is evicted only
 * when no connection is idle or slow.
 *
 * Representation: a doubly linked list of struct conn, one per socket,
 * made when libmicrohttpd announces the connection
 * (MHD_CONNECTION_NOTIFY_STARTED) and unlinked when it announces its close
 * (MHD_CONNECTION_NOTIFY_CLOSED), which libmicrohttpd does before it
 * closes the socket.  Invariant: while a conn is linked, its fd is that
 * connection's socket, so the sweeper (which holds the lock) never shuts
 * down a descriptor that was closed and reused; a conn shut down (cut) is
 * no longer counted against the caps (it closes within milliseconds).
 * Every field is read and written under lock.
 */
#ifndef SLIDE_SERVE_CONNS_H
#define SLIDE_SERVE_CONNS_H

#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

#include "slide/error.h"

#define SWEEPS_PER_SECOND 4

enum conn_state { CONN_HEAD, CONN_BODY, CONN_WORKING, CONN_SENDING };

/* A client address: the family and the address bytes (not the port). */
struct conn_addr {
    int family;
    unsigned char bytes[16];
};

struct conn {
    struct conn *prev, *next;
    int fd;                  /* the socket */
    struct conn_addr from;
    enum conn_state state;
    struct timespec since;   /* CLOCK_MONOTONIC: when the state began (BODY: HEAD's) */
    int cut;                 /* shut down (deadline or eviction) */
    int ready;               /* HEAD, and a whole head waits in the socket */
};

struct conns_limits {
    double head_seconds, read_seconds, send_seconds; /* > 0 */
    long connections, per_address;                   /* >= 1 */
};

struct conns {
    pthread_mutex_t lock;
    pthread_cond_t wake;     /* stop */
    pthread_t sweeper;
    int started, stopping;
    struct conns_limits limits;
    struct conn *head;
    long count;              /* linked conns */
    long live;               /* linked conns not cut */
    long cut;                /* connections shut down at a deadline, in all */
    long evicted;            /* connections shut down for a new one, in all */
};

/* Start the sweeper with the deadlines and caps of l.  Errors:
 * SLIDE_ENOMEM (the thread cannot be created). */
int conns_init(struct conns *cs, const struct conns_limits *l, slide_error *err);

/* The address of a (family AF_INET or AF_INET6; others are one address). */
struct conn_addr conns_address(const struct sockaddr *a);

/* 1 if a new connection from `from` may open now, after evicting what
 * the caps need (see above); 0 if it must be refused. */
int conns_admit(struct conns *cs, const struct conn_addr *from);

/* A new connection on socket fd from `from`, in HEAD from now; NULL
 * when out of memory (the caller then closes the connection). */
struct conn *conns_add(struct conns *cs, int fd, const struct conn_addr *from);

/* Unlink and free c (NULL is ignored). */
void conns_remove(struct conns *cs, struct conn *c);

/* c enters state st now (NULL is ignored); BODY keeps HEAD's start, so
 * that read_seconds bounds the head and the body together. */
void conns_set(struct conns *cs, struct conn *c, enum conn_state st);

/* Stop and join the sweeper, free what is still linked (cs may be
 * zeroed). */
void conns_free(struct conns *cs);

#endif
