/*
 * serve_pool.h - the small pool of concurrent searches and evaluations of
 * `slide serve`: a fixed number of slots, each with a wall-time deadline
 * and a cancel flag that a watchdog thread raises when the deadline passes
 * or the client that asked has gone.
 *
 * Representation: slots[0..size-1]; a slot is busy from serve_pool_acquire
 * to serve_pool_release.  The searcher polls the slot's cancel flag (IDA*
 * takes it as ida_options.cancel); the watchdog sets it once the slot's
 * deadline (CLOCK_MONOTONIC) is past or its client's socket has been
 * closed by the peer (poll(2) reports POLLRDHUP, POLLHUP or POLLERR: a
 * page closed or a fetch aborted), and serve_pool_stop sets it on every
 * busy slot.  A request that finds every slot busy is refused at once (the
 * server answers 503 with Retry-After) instead of queueing: the number of
 * searches, and so the CPU the server takes, never exceeds size.
 *
 * Invariants: a cancel flag is 0 when its slot is handed out; once raised
 * it stays raised until the slot is released.  All fields but the flags
 * are guarded by lock.
 */
#ifndef SLIDE_SERVE_POOL_H
#define SLIDE_SERVE_POOL_H

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "slide/error.h"

/* Most slots a pool can have. */
#define SERVE_POOL_MAX 64

struct serve_slot {
    volatile sig_atomic_t cancel; /* raised by the watchdog or by stop */
    int busy;
    int timed_out;                /* the deadline, not stop, raised cancel */
    int left;                     /* the client's leaving raised cancel */
    int fd;                       /* the client's socket, watched; -1: none */
    struct timespec deadline;     /* CLOCK_MONOTONIC */
};

struct serve_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;          /* a slot was taken, or stop */
    pthread_t watchdog;
    int size;
    int stopping;
    int started;                  /* watchdog running */
    struct serve_slot *slots;
};

/*
 * Make a pool of size slots (1..SERVE_POOL_MAX) and start its watchdog.
 * Errors: SLIDE_EINVAL (size out of range), SLIDE_ENOMEM (also when a
 * thread cannot be created).  Free with serve_pool_free.
 */
int serve_pool_init(struct serve_pool *p, int size, slide_error *err);

/*
 * Take a free slot whose deadline is `seconds` (> 0) from now, for the
 * client on socket fd (-1: none to watch; the socket must stay open until
 * the slot is released).  Returns the slot number, or -1 when every slot
 * is busy or the pool is stopping.
 */
int serve_pool_acquire(struct serve_pool *p, double seconds, int fd);

/* The cancel flag of a slot taken by serve_pool_acquire. */
const volatile sig_atomic_t *serve_pool_flag(struct serve_pool *p, int slot);

/* 1 if the slot's deadline raised its flag (0: not raised, or by stop). */
int serve_pool_timed_out(struct serve_pool *p, int slot);

/* 1 if the client's leaving raised the slot's flag. */
int serve_pool_left(struct serve_pool *p, int slot);

/* Give the slot back. */
void serve_pool_release(struct serve_pool *p, int slot);

/* Refuse new searches and raise the flag of every busy one. */
void serve_pool_stop(struct serve_pool *p);

/* Stop, join the watchdog and release the slots (p may be zeroed). */
void serve_pool_free(struct serve_pool *p);

#endif
