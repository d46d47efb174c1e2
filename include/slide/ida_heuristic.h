/*
 * ida_heuristic.h - the heuristics IDA* (ida.h) searches with, behind one
 * small interface: a context and two function pointers.
 *
 * Representation: a heuristic is (ctx, eval, step).  eval computes h of a
 * whole board from scratch; step, when present, computes h of the board
 * after one move from h before it, touching only what the move changed, so
 * a search pays O(1) (Manhattan) or one line's worth (linear conflict) per
 * node instead of O(n).  A heuristic with step == NULL is evaluated in full
 * at every node: this is how any h(board) function (for example one from a
 * table of heuristics elsewhere in slide) is plugged in - an eval wrapper
 * and a row in the table in ida_heuristic.c.
 *
 * Built-in heuristics (all admissible, all 0 exactly on the goal):
 *   misplaced  tiles not on their goal cell.
 *   manhattan  sum over tiles of |row - goal row| + |col - goal col|.
 *   lc         manhattan + 2 * (k - LIS) for every row and every column,
 *              where k counts the tiles of that line whose goal is in the
 *              line and LIS is the longest increasing subsequence of their
 *              goal positions along the line, in the order they stand.
 *              (Hansson, Mayer and Yung, "Criticizing solutions to relaxed
 *              models yields powerful admissible heuristics", Information
 *              Sciences 63, 1992; the LIS form counts the fewest tiles
 *              that must leave.)  Why admissible: tiles that never leave a
 *              line keep their order in it and must end in goal order, so at
 *              most LIS of the k stay and at least k - LIS leave and return:
 *              two vertical moves each for a row, two horizontal moves each
 *              for a column, none counted by Manhattan (the tile already
 *              stands in its goal row, resp. column).  A vertical and a
 *              horizontal move are different moves, so the extras of rows
 *              and of columns add up.
 * Moves change h by exactly +-1 (manhattan, and lc: see paper-notes.md,
 * section 5), so with these two h keeps the parity of the distance and
 * IDA*'s thresholds grow
 * by 2; misplaced changes by 0 or 1.
 *
 * Invariant: h fits in an int.  eval saturates at IDA_H_MAX (a board that
 * far from the goal is beyond any search), and ida_solve refuses it.
 */
#ifndef SLIDE_IDA_HEURISTIC_H
#define SLIDE_IDA_HEURISTIC_H

#include <limits.h>
#include <signal.h>

#include "slide/board.h"
#include "slide/metric.h"

#define IDA_H_MAX (INT_MAX / 4)

/* h of board b (the dimensions the heuristic was opened for). */
typedef int (*ida_eval_fn)(void *ctx, const struct board *b);

/*
 * h of board b, which has just had one tile slide from cell `from` to cell
 * `to` (the blank went from `to` to `from`), given h_before, h of the board
 * before that move.
 */
typedef int (*ida_step_fn)(void *ctx, const struct board *b, int from, int to,
                           int h_before);

/*
 * A heuristic with per-node state (state_size bytes, at most
 * IDA_STATE_MAX, kept by the search for every depth of its path):
 * start fills *state for board b and returns h(b); move fills *after
 * for board b, which has just had one tile slide from `from` to `to`,
 * from *before (the parent's state) and returns h(b).  This is how a
 * heuristic whose h is not a function of h_before alone (the sum of
 * several pattern databases, maxed with its mirror image) is updated by
 * touching only what the move changed.
 */
#define IDA_STATE_MAX 256
typedef int (*ida_start_fn)(void *ctx, const struct board *b, void *state);
typedef int (*ida_move_fn)(void *ctx, const struct board *b, int from, int to,
                           const void *before, void *after);
/* Optional: announce that move(ctx, b', from, to, state, ...) will follow
 * for the board b' that b becomes when the tile on `from` slides to `to`
 * (b's blank), so that h can start fetching what it will read (and note
 * in *state what it computed on the way). */
typedef void (*ida_prefetch_fn)(void *ctx, const struct board *b, int from, int to,
                                void *state);

struct ida_heuristic {
    const char *name;
    int admissible;     /* 1: never overestimates, so IDA* lengths are optimal */
    enum metric metric; /* the moves it bounds: a bound on multi-tile moves
                           bounds single-tile ones too, not the reverse */
    void *ctx;          /* owned; released by ida_heuristic_close */
    ida_eval_fn eval;
    ida_step_fn step;   /* NULL: eval at every node (unless move is set) */
    size_t state_size;  /* > 0: start and move are used instead of step */
    ida_start_fn start;
    ida_move_fn move;
    ida_prefetch_fn prefetch; /* may be NULL */
    void (*release)(void *ctx);
};

/*
 * Open the heuristic called `name` for boards shaped like `goal` (valid,
 * any size) and that goal.  Errors: SLIDE_EINVAL for an unknown name (the
 * message lists the known ones), SLIDE_ENOMEM.
 */
int ida_heuristic_open(struct ida_heuristic *h, const char *name,
                       const struct board *goal, slide_error *err);

/*
 * The same for metric `metric` (metric.h).  In the multi-tile metric "wd"
 * is the MTM walking distance (heuristic.h) and misplaced, manhattan and
 * lc are refused: SLIDE_EINVAL saying that NAME is not admissible in the
 * multi-tile metric and what is.  ida_heuristic_open is this with
 * METRIC_STM.  Errors: as ida_heuristic_open.
 */
int ida_heuristic_open_metric(struct ida_heuristic *h, const char *name,
                              const struct board *goal, enum metric metric,
                              slide_error *err);

struct pdb_set;

/*
 * Open a pattern database heuristic over the loaded set (pdb.h; shared, not
 * copied: it must outlive h), maxed with the built-in heuristic `with` when
 * with is a non-empty name ("max(lc,pdb:...)").  A set of mtm tables bounds
 * multi-tile moves (h->metric, pdb_set_metric), and `with` is then opened
 * for them (ida_heuristic_open_metric: lc is refused, wd is the MTM one).  admissible follows pdb_set_admissible.  Errors:
 * SLIDE_EINVAL (unknown `with`, or goal not the set's goal: the message
 * says so), SLIDE_ENOMEM.  When the tables are additive and disjoint and `with` is
 * empty, the search updates h incrementally (start/move above: only the
 * table holding the moved tile, and its mirror image, are looked up again);
 * otherwise h is evaluated in full at every node.
 */
int ida_heuristic_open_pdb(struct ida_heuristic *h, const struct pdb_set *set,
                           const char *with, const struct board *goal,
                           slide_error *err);

struct heuristic_wd_store;

/*
 * Open "wd" for goal with its tables from store (heuristic.h's
 * heuristic_init_wd_shared: each built there at most once, shared
 * read-only; the store must outlive h).  cancel: NULL, or a flag that
 * stops a build in progress when it becomes nonzero (SLIDE_EINTR).
 * Errors: SLIDE_ERANGE (a size whose tables wd does not build),
 * SLIDE_EINTR, SLIDE_ENOMEM.
 */
int ida_heuristic_open_wd_shared(struct ida_heuristic *h, const struct board *goal,
                                 struct heuristic_wd_store *store,
                                 const volatile sig_atomic_t *cancel, slide_error *err);

/* Release what ida_heuristic_open allocated (h may be zeroed). */
void ida_heuristic_close(struct ida_heuristic *h);

/* The known heuristics: names and one-line summaries, i = 0.. until NULL. */
const char *ida_heuristic_name(int i);
const char *ida_heuristic_summary(int i);

/* The name ida_heuristic_open uses when none is chosen: "lc". */
#define IDA_HEURISTIC_DEFAULT "lc"

#endif
