/*
 * ida_search.h - one IDA* depth-first search over a subtree, the piece that
 * the serial solver (ida.c) and the parallel one (ida_parallel.c) share.
 * Internal to src/solvers; not part of the library's interface.
 *
 * Representation: a search owns a copy of the start board, the move table,
 * the path stack and the heuristic's per-depth state (ida.c); it is always
 * back on the start board between calls of ida_search_subtree unless that
 * call found a goal.  A subtree is named by its path from the start
 * (prefix[0..len-1], enum move values, no move undoing the one before it);
 * its nodes are counted exactly as the serial iteration counts them
 * (expanded: a node within the threshold that is not a goal; generated:
 * every child tried), the replay of the prefix not counted.
 */
#ifndef SLIDE_IDA_SEARCH_H
#define SLIDE_IDA_SEARCH_H

#include <stdint.h>

#include "slide/ida.h"

struct ida_search;

/* A node at the leaf depth, within the threshold: path[0..len-1] from the
 * start.  Returns 0, or SLIDE_ENOMEM to stop the search. */
typedef int (*ida_emit_fn)(void *ctx, const unsigned char *path, int len);

/* How a search stops and splits besides o->max_nodes and o->cancel. */
struct ida_hooks {
    /* With emit: a node below the root first reached within the threshold
     * goes to emit, unexpanded and untested, at depth `leaf` or once the
     * threshold less its f is at most `slack` (its subtree is then small:
     * its size grows about exponentially with that difference). */
    int leaf, slack;
    ida_emit_fn emit;   /* NULL: no split */
    /* Called when the expansions reach *limit: raise *limit and return 0
     * to go on, or return 1 to stop (node limit).  NULL: o->max_nodes. */
    int (*refill)(void *ctx, uint64_t expanded, uint64_t *limit);
    /* Polled with o->cancel (then every 4096 expansions, not 65536):
     * nonzero stops. */
    int (*poll)(void *ctx);
    void *ctx;
};

/* ida_solve's checks before any search: the same dimensions
 * (SLIDE_EINVAL), start can reach goal (SLIDE_EUNSOLVABLE, parity.h). */
int ida_search_check(const struct board *start, const struct board *goal, slide_error *err);

/* A search from start to goal with heuristic h (ida_solve's arguments;
 * start known to reach goal).  Errors: SLIDE_ENOMEM. */
int ida_search_new(struct ida_search **s, const struct board *start,
                   const struct board *goal, struct ida_heuristic *h,
                   const struct ida_options *o, slide_error *err);
void ida_search_delete(struct ida_search *s);
void ida_search_hooks(struct ida_search *s, const struct ida_hooks *k);

/* h of the start board. */
int ida_search_h_start(const struct ida_search *s);

/*
 * The iteration with threshold `bound` over the subtree of prefix (len
 * moves; len 0: the whole tree).  *found: the length of the first goal
 * found, depth-first, in move order (its path by ida_search_path), or -1;
 * *next_bound lowered to the least f above bound seen.  Returns SLIDE_OK,
 * SLIDE_EINTR (stopped: node limit, cancel or poll; the message says
 * which), SLIDE_ENOMEM, or emit's error.
 */
int ida_search_subtree(struct ida_search *s, const unsigned char *prefix, int len,
                       int bound, int *found, int *next_bound, slide_error *err);

/* The path of the goal the last subtree found: len moves into out. */
void ida_search_path(const struct ida_search *s, int len, unsigned char *out);

/* The counters (settable, so that a discarded split can be undone). */
void ida_search_counts(const struct ida_search *s, uint64_t *expanded, uint64_t *generated);
void ida_search_set_counts(struct ida_search *s, uint64_t expanded, uint64_t generated);

/* The expansions left of the quota (limit less expanded), given back: the
 * limit becomes the expansions so far, so the next one calls refill. */
uint64_t ida_search_give_back(struct ida_search *s);

/* CPU seconds of the calling thread (CLOCK_THREAD_CPUTIME_ID). */
double ida_thread_cpu(void);

#endif
