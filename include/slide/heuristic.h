/*
 * heuristic.h - lower bounds on a board's distance from the goal, kept as
 * the rows of one table (name, function, claims, reference): adding a
 * heuristic is adding a row to heuristic_table in heuristic.c.
 *
 * Representation: a board is a cell array as in board.h - cells[k] is the
 * tile on cell k (reading order), 0 the blank, n = rows * cols cells.  A
 * struct heuristic is one table row bound to one (rows, cols, goal):
 * heuristic_init precomputes what the row needs (the goal row and column of
 * every tile, walking-distance tables) and heuristic_eval then evaluates any
 * board of those dimensions with that goal.  After init the struct is
 * read-only: heuristic_eval allocates nothing and may be called from any
 * number of threads at once.
 *
 * Invariants of an initialised struct: goal_row[t], goal_col[t] are the row
 * and column of tile t's goal cell for t = 1..n-1 (t = 0: the goal's blank);
 * every heuristic is >= 0 on every board and 0 on the goal.
 *
 * The heuristics ("line" = a row or a column; a tile is "in its goal line"
 * when it sits in the row of its goal cell, or in the column of it):
 *   misplaced  tiles not on their goal cell.
 *   manhattan  sum over tiles of |row - goal row| + |col - goal col|.
 *   lc         manhattan + 2 (k - LIS) for every row and every column, k =
 *              the tiles in their goal line, LIS = the longest increasing
 *              subsequence of their goal positions along the line, in the
 *              order they stand (Hansson, Mayer & Yung 1992, in the
 *              "tiles that must leave the line" form).  Admissible: tiles
 *              that stay in a line keep their order, so at least k - LIS of
 *              them leave it and come back, 2 moves each that Manhattan does
 *              not count; row terms count vertical moves and column terms
 *              horizontal ones, so no move is counted twice.
 *   lc-pairs   manhattan + 2 per pair of tiles in their goal line standing in
 *              the wrong order - the common variant that is NOT admissible
 *              (three tiles of a line in reversed order make 3 pairs, +6,
 *              though moving two of them out and back costs only 4); kept
 *              as a reference and a negative test.
 *   wd         walking distance (K. Takahashi, web page): vertical + horizontal
 *              part.  The vertical part is the exact distance in the
 *              relaxed puzzle whose state is the rows x rows matrix "how
 *              many tiles of goal row j stand in row i" (the blank's row is
 *              the one holding a tile less), where a move carries any tile
 *              of a row next to the blank's into the blank's row; the
 *              horizontal part is the same over columns.  A vertical move of
 *              the real puzzle is one relaxed move of the vertical part and
 *              leaves the horizontal state alone (and vice versa), so the
 *              sum is admissible.  The tables come from a BFS of each
 *              relaxed puzzle from the goal, built for the given goal and
 *              dimensions; boards whose tables would hold more than
 *              HEURISTIC_WD_MAX_STATES states are refused.
 *   pdb:FILES  pattern databases (pdb.h): FILE or FILE+FILE+... summed;
 *   pdbr:FILES the same maxed with the mirrored lookup.  Not a row of the
 *              table: heuristic_init loads the files and makes a row named
 *              by the spec, claiming nothing (the sweep measures it).
 *   plugin:FILE  one's own heuristic in a shared object (heuristic_api.h):
 *              a row named by the plugin, with the plugin's claims.
 * A struct slide_heuristic_spec given by a program (heuristic_init_spec)
 * makes a row the same way.
 */
#ifndef SLIDE_HEURISTIC_H
#define SLIDE_HEURISTIC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/heuristic_api.h"
#include "slide/metric.h"

/* Largest relaxed-puzzle table (states) wd builds for one component. */
#define HEURISTIC_WD_MAX_STATES (1u << 22)
/* Bits of one packed walking-distance state (count matrix). */
#define HEURISTIC_WD_MAX_BITS 256

/* What the reference proves: yes, no (known false), or not claimed. */
enum heuristic_claim { HEURISTIC_NO = 0, HEURISTIC_YES = 1, HEURISTIC_UNKNOWN = 2 };

struct heuristic;
struct heuristic_wd;
struct heuristic_lines;
struct pdb_set;

/* Value of h for a board (cells as above, the dimensions of h). */
typedef int (*heuristic_fn)(const struct heuristic *h, const int *cells);

/* One row of the table. */
struct heuristic_def {
    const char *name;                  /* as given to --h */
    heuristic_fn eval;
    /* Build the row's tables (NULL: the goal tables suffice).  Errors as
     * heuristic_init. */
    int (*prepare)(struct heuristic *h, slide_error *err);
    enum heuristic_claim admissible;
    enum heuristic_claim consistent;   /* |h(s) - h(s')| <= 1 on every move */
    const char *summary;               /* one line for --help and reports */
    const char *reference;             /* where the claims are proved */
};

struct heuristic {
    const struct heuristic_def *def;
    enum metric metric;         /* the moves h bounds (heuristic_init_metric) */
    int rows, cols, n;
    int *goal_row;              /* n entries, by tile */
    int *goal_col;              /* n entries, by tile */
    struct heuristic_lines *lines; /* lc tables for lines <= 6 cells, or NULL */
    struct heuristic_wd *wd;    /* walking-distance tables, or NULL */
    struct pdb_set *pdb;        /* pattern databases (pdb.h), or NULL */
    struct heuristic_def *own_def; /* the row of a pdb, plugin or spec
                                      heuristic, or NULL */
    const struct slide_heuristic_spec *spec; /* one's own (heuristic_api.h), or NULL */
    void *spec_user;            /* its user data (after its init) */
    void *plugin;               /* the dlopen handle of a plugin, or NULL */
};

/* The table: *count rows, in the order --help lists them. */
const struct heuristic_def *heuristic_table(int *count);

/* The row named `name`, or NULL. */
const struct heuristic_def *heuristic_find(const char *name);

/*
 * The names of all rows, ", "-separated, into buf (for messages and help).
 * Returns the length the full text needs, like snprintf.
 */
size_t heuristic_names(char *buf, size_t len);

/*
 * Bind the row named `name` to goal (a valid board of any size up to
 * BOARD_MAX_SIDE x BOARD_MAX_SIDE) and precompute its tables.
 * Errors: SLIDE_EINVAL for an unknown name (the message lists the names),
 * SLIDE_ERANGE when wd's tables for this board would be too large (the
 * message names the component, the limit and what is allowed),
 * SLIDE_ENOMEM.  On error h is left freed.  Release with heuristic_free.
 */
int heuristic_init(struct heuristic *h, const char *name,
                   const struct board *goal, slide_error *err);

/*
 * Bind one's own heuristic (heuristic_api.h) to goal: h->def becomes a row
 * named spec->name with spec's claims, evaluated by spec->h(cells, rows,
 * cols, user data).  spec and what user points to must outlive h.  Calls
 * spec->init (if any) with the goal's cells.  Errors: SLIDE_EINVAL for a
 * spec of another ABI version, without h, with a name that is empty,
 * longer than 32 or not of [A-Za-z0-9_.-], claims outside 0..2, or when
 * init refuses the goal; SLIDE_ENOMEM.  On error h is left freed.  Release
 * with heuristic_free (which calls spec->fini).
 */
int heuristic_init_spec(struct heuristic *h, const struct slide_heuristic_spec *spec,
                        void *user, const struct board *goal, slide_error *err);

/*
 * heuristic_init for "plugin:FILE": dlopen FILE (a path without '/' is
 * relative to the working directory), look up SLIDE_HEURISTIC_SYMBOL and
 * bind it as heuristic_init_spec does.  Errors: SLIDE_EINVAL for a missing
 * or unreadable file, a file that is not a shared object, a missing symbol,
 * another ABI version (the message names the file, the symbol and the
 * versions), and those of heuristic_init_spec.
 */
int heuristic_init_plugin(struct heuristic *h, const char *name,
                          const struct board *goal, slide_error *err);

/* Call a spec's fini and close a plugin (heuristic_free does). */
void heuristic_spec_release(struct heuristic *h);

/*
 * The multi-tile metric (metric.h): one move jumps the blank to any cell of
 * its row or column, sliding up to max(rows, cols) - 1 tiles one cell each.
 * heuristic_init_metric(h, name, goal, METRIC_MTM, ...) binds a row for
 * MTM; the row's claims (h->def) are then those for MTM moves:
 *   wd         becomes the MTM walking distance: the same relaxed puzzles,
 *              whose moves are the MTM ones.  A vertical MTM move of the
 *              blank from row b to row b' (one column, k = |b' - b| rows)
 *              slides the tile of each row from b' towards b (b excluded)
 *              one row towards b: in the count matrix, each of those rows
 *              passes one tile of some class it holds to its neighbour on
 *              b's side, and the blank's row becomes b'.  The relaxed move
 *              lets a row pass a tile of ANY class it holds (the real one
 *              passes the class of the tile in the blank's column), so
 *              every real vertical move is one relaxed move, and a
 *              horizontal move (tiles and blank keep their rows) leaves the
 *              vertical state alone; vice versa for columns.  A solution
 *              with V vertical and H horizontal moves thus maps to relaxed
 *              paths of V and H moves, and the tables hold the shortest
 *              relaxed paths: wd <= V + H, admissible.  A real move changes
 *              one component by one relaxed move, whose ends differ by at
 *              most 1 in BFS distance: consistent.
 *   misplaced, manhattan, lc, lc-pairs  claim NOT admissible (one MTM move
 *              of k tiles lowers manhattan and misplaced by up to k and lc
 *              by more): they are bound only so that a sweep can show
 *              where they fail; a solver must refuse them
 *              (heuristic_stm_only).
 *   pdb:FILES  multi-tile pattern databases (pdb.h, kind mtm) maxed; the
 *              sweep measures them.
 * Errors: as heuristic_init, and SLIDE_EINVAL for an unknown metric.
 */
int heuristic_init_metric(struct heuristic *h, const char *name, const struct board *goal,
                          enum metric metric, slide_error *err);

/* 1 when the row `name` is admissible in STM only (misplaced, manhattan,
 * lc, lc-pairs): a multi-tile search must refuse it. */
int heuristic_stm_only(const char *name);

/* Release what heuristic_init allocated (h may be zeroed or freed). */
void heuristic_free(struct heuristic *h);

/*
 * h of the board `cells` (h->n entries, a valid arrangement of the same
 * dimensions).  Allocation-free and thread-safe; O(n) for misplaced,
 * manhattan and wd, O(n log side) for lc and lc-pairs.
 */
static inline int heuristic_eval(const struct heuristic *h, const int *cells)
{
    return h->def->eval(h, cells);
}

/*
 * Change of the Manhattan distance when `tile` slides from cell `from` to
 * the neighbouring cell `to` (one move): -1 or +1.  For IDA*, which keeps
 * Manhattan incrementally.
 */
static inline int heuristic_manhattan_delta(const struct heuristic *h, int tile,
                                            int from, int to)
{
    int gr = h->goal_row[tile], gc = h->goal_col[tile], c = h->cols;
    int fr = from / c, fc = from % c, tr = to / c, tc = to % c;
    int before = (fr > gr ? fr - gr : gr - fr) + (fc > gc ? fc - gc : gc - fc);
    int after = (tr > gr ? tr - gr : gr - tr) + (tc > gc ? tc - gc : gc - tc);
    return after - before;
}

/*
 * wd kept incrementally (for IDA*): a node holds both relaxed states (the
 * count matrices, packed) and their distances.  heuristic_wd_start fills nd
 * for the board `cells` and returns wd; heuristic_wd_move fills *after for
 * the board where tile `tile` has slid one cell from `from` to `to` (a unit
 * step: in MTM a k-cell move is k of them, each a relaxed move of its own)
 * and returns its wd: only the component of the step's axis changes, by
 * two counts and one table lookup.  h must be a wd row (either metric).
 */
struct heuristic_wd_node {
    uint64_t key[2][HEURISTIC_WD_MAX_BITS / 64]; /* vertical, horizontal */
    int part[2];                                 /* their distances */
};
int heuristic_wd_start(const struct heuristic *h, const int *cells,
                       struct heuristic_wd_node *nd);
int heuristic_wd_move(const struct heuristic *h, const struct heuristic_wd_node *before,
                      int tile, int from, int to, struct heuristic_wd_node *after);

/*
 * Walking-distance tables shared between goals and threads (slide serve's
 * searches and evaluations).  A component's table depends only on its
 * lines, the cells per line and the line of the goal's blank, not on
 * where the other tiles' goals are, so one table serves every goal of a
 * size with the blank in that row (or column).  A store builds each table
 * at most once, under its lock, and keeps it read-only until it is freed;
 * a build that is stopped keeps nothing.  Once the store holds max_bytes
 * of tables it keeps no more: a missing table is then built for the one
 * heuristic that asks (outside the lock) and freed with it, so the store
 * holds at most max_bytes plus one table.  (Every table of every size wd
 * takes, each position of the blank, is about 130 MB.)
 */
struct heuristic_wd_store;

/* An empty store that keeps up to max_bytes of tables (see above).
 * Errors: SLIDE_ENOMEM. */
int heuristic_wd_store_new(struct heuristic_wd_store **out, size_t max_bytes,
                           slide_error *err);

/* Free the store (NULL is ignored); every heuristic bound to it must have
 * been freed. */
void heuristic_wd_store_free(struct heuristic_wd_store *s);

/* Bytes of the tables the store holds. */
size_t heuristic_wd_store_bytes(struct heuristic_wd_store *s);

/*
 * heuristic_init(h, "wd", goal, err) with the tables from store, built
 * there when missing (while the store's lock is held: a caller that needs
 * a table another is building waits for that build), or built for h
 * alone when the store is full.  cancel: NULL, or a
 * flag read every few thousand states of a build; when it becomes nonzero
 * the build stops and SLIDE_EINTR is returned.  Other errors as
 * heuristic_init.  h borrows the tables: free it before the store.
 */
int heuristic_init_wd_shared(struct heuristic *h, const struct board *goal,
                             struct heuristic_wd_store *store,
                             const volatile sig_atomic_t *cancel, slide_error *err);

/* Sizes of the walking-distance tables of h (0, 0 when h is not wd). */
void heuristic_wd_states(const struct heuristic *h, uint64_t *vertical,
                         uint64_t *horizontal);

#endif
