/*
 * ida_parallel.h - IDA* (ida.h) on one board with several threads: the
 * same iterations, thresholds and solution as the serial search, each
 * iteration's tree shared out among the threads.
 *
 * Method: every iteration (threshold T) starts with a depth-first search
 * under T, exactly as the serial one (the nodes it expands counted as it
 * counts them), that stops at every node whose f = g + h is within a slack
 * S of T and lists it, in depth-first order: the work items.  A node's
 * subtree grows about exponentially with T - f, so items cut this way are
 * of like sizes, unlike the subtrees at one depth, whose sizes differ by
 * orders of magnitude.  S starts at the last iteration's plus 2 and
 * shrinks until there are at least IDA_ITEMS_PER_THREAD items per thread
 * (or S is 0).  The threads
 * then take the items in order from a shared counter (one at a time, so a
 * thread that drew a small subtree takes the next), each searching its
 * item's subtree with the serial depth-first search and the same
 * threshold.  The next threshold is the least f above T over the split and
 * all items.  The split's tries at a larger S that gave too few items are
 * not counted in the node figures (their time is in cpu_seconds).  An
 * item is also cut at depth 60 (its path is kept in 60 bytes).
 *
 * Determinism: an iteration that finds no goal expands and generates the
 * same nodes as the serial search, whatever the thread count, so the
 * thresholds, the iteration count and the nodes of every iteration but the
 * last are the same.  In the last iteration the solution kept is that of
 * the lowest-numbered item holding a goal: the threads finish every item
 * below it, and abandon the items above it.  Items follow the serial
 * depth-first order, so the path is the serial search's path, for every
 * thread count.  The last iteration's node counts may differ: items above
 * the solution's were partly searched (at most until the next poll, every
 * 4096 expansions, or their end), so they are at least the serial ones and
 * reported apart (expanded_last, generated_last).
 *
 * Node limit (o->max_nodes = N): the threads draw quotas of expansions from
 * one shared budget of N, and a thread whose quota is spent waits for
 * quota that others give back on finishing, so a stopped search has
 * expanded exactly N nodes, as the serial one.  A board that the serial
 * search solves within N may be stopped here when its last iteration does
 * not fit (the abandoned items spend some of N), never the other way.
 *
 * Memory: per thread, one search of ida.h (O(n + threshold)); the items
 * take 64 bytes each (a few thousand).  Cancel: o->cancel stops every
 * thread within 4096 expansions of each.
 */
#ifndef SLIDE_IDA_PARALLEL_H
#define SLIDE_IDA_PARALLEL_H

#include "slide/ida.h"

#define IDA_ITEMS_PER_THREAD 64
/* An iteration whose predecessor expanded fewer nodes than this (the first
 * one too) is searched by one thread without a split (about 10 ms: the
 * next is a few times bigger); the figures are the same either way. */
#define IDA_SERIAL_BELOW 100000

/*
 * Solve start for goal with `threads` threads (1..1024; 1 is ida_solve
 * itself).  h[0..threads-1]: one heuristic per thread, each opened for
 * this goal (a heuristic's context may hold scratch space, so threads do
 * not share one; pattern databases under them are shared).  o and r as in
 * ida_solve; r->threads is the number of threads that searched (OpenMP may
 * give fewer), r->cpu_seconds their CPU time together (each thread's
 * CLOCK_THREAD_CPUTIME_ID over the search, waits included).  Errors: those
 * of ida_solve (SLIDE_EINTR's message is the first stopping thread's: the
 * node limit or the interrupt), and SLIDE_EINVAL for threads out of range.
 */
int ida_solve_parallel(const struct board *start, const struct board *goal,
                       struct ida_heuristic *h, int threads, const struct ida_options *o,
                       struct ida_result *r, slide_error *err);

/* The same with the threshold of IDA_SERIAL_BELOW given: 0 splits every
 * iteration (the tests use it to share out even the smallest trees). */
int ida_solve_parallel_from(const struct board *start, const struct board *goal,
                            struct ida_heuristic *h, int threads, uint64_t serial_below,
                            const struct ida_options *o, struct ida_result *r,
                            slide_error *err);

#endif
