/*
 * pdb.h - pattern database heuristics: a set of loaded tables (pdb_file.h)
 * combined into one h(board), the small API for solvers, sweeps and
 * services.
 *
 * Representation: a set holds tables[0..count-1], loaded once and read-only
 * afterwards, so any number of threads may evaluate one set at once.  h of
 * a board is
 *     sum over tables of value(table, the placement of its tiles)
 * (a plain table adds its value at the board's blank cell) and, with
 * reflection, the larger of that and the same sum for the board mirrored
 * about the main diagonal and relabelled so that the goal maps to itself.
 *
 * A set of multi-tile tables (kind mtm, pdb_build.h) is combined by max
 * instead of the sum: one MTM move may slide tiles of several patterns, so
 * their values do not add; the max of admissible values is admissible.  A
 * set may not mix mtm tables with the others (pdb_set_load refuses it).
 *
 * When h is admissible (pdb_set_admissible): the sum is admissible when all
 * tables are additive and their tile sets are disjoint (every move moves
 * one tile, which at most one table counts: Korf and Felner 2002), or when
 * the set has a single table (additive or plain: a table's value is an
 * exact distance in an abstraction, Culberson and Schaeffer 1998).  The
 * mirrored board has the same distance as the board (transposition with
 * relabelling is an automorphism of the move graph fixing the goal), so the
 * reflected value is admissible too (Felner, Korf and Hanan 2004, section
 * on the 15 puzzle).  Reflection needs a square board whose goal has its
 * blank on the main diagonal; other goals are refused.
 */
#ifndef SLIDE_PDB_H
#define SLIDE_PDB_H

#include <signal.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/metric.h"
#include "slide/pdb_build.h"

#define PDB_SET_MAX 8

struct pdb_set {
    int count;
    struct pdb_table tables[PDB_SET_MAX];
    int rows, cols, n;
    int reflect;                         /* 1: max with the mirrored board */
    int mirror_cell[PATTERN_MAX_CELLS];  /* cell -> its transpose */
    int mirror_tile[PATTERN_MAX_CELLS];  /* tile -> the goal's tile on the
                                            mirror of its goal cell */
    int disjoint;                        /* no tile in two tables */
    int all_additive;
    int all_mtm;                         /* every table of kind mtm: maxed, not
                                            summed, and a bound on multi-tile
                                            moves (pdb_set_metric) */
    int table_of[PATTERN_MAX_CELLS];     /* tile -> the first table holding
                                            it, -1 for none (and the blank) */
    uint8_t index_in[PATTERN_MAX_CELLS]; /* tile -> its place in that table's
                                            pattern */
    uint64_t weight[PDB_SET_MAX][PATTERN_MAX_TILES]; /* weight[j][i]: what
                                            digit i of rank_kperm is worth in
                                            table j's entry */
    /* The sparse form of every table (pdb_set_sparse), or all NULL:
     * sparse[j][sum over i of cell(tiles[i]) * n^(k-1-i)] is table j's
     * value of that placement (n^k bytes, placements with two tiles on one
     * cell PDB_NONE and never read).  A tile's slide from cell a to b then
     * changes the entry by (b - a) * cell_weight[tile], read off no board. */
    uint8_t *sparse[PDB_SET_MAX];
    uint32_t cell_weight[PATTERN_MAX_CELLS]; /* tile -> n^(k-1-i) in its table */
    const volatile sig_atomic_t *cancel; /* while loading only (else NULL) */
};

/*
 * The state of one board for the incremental evaluation (pdb_node_start,
 * pdb_node_move): every table's entry and value for the board and for its
 * mirror image and, without the sparse form, where every tile is on both.
 * Invariant: e[j] is table j's entry for the board (rank_kperm of its
 * tiles' cells, or the sparse index with s->sparse), me[j] for the
 * mirrored board, v[j] and vm[j] their values; sum is the sum of v[], msum
 * that of vm[] (0 without reflection), and h = max(sum, msum).  The fields
 * up to `where` are all a child needs with the sparse form (copied per
 * node: the smaller, the faster).
 */
struct pdb_node {
    uint32_t e[PDB_SET_MAX], me[PDB_SET_MAX]; /* (pdb_node_ok: < 2^32 entries) */
    uint8_t v[PDB_SET_MAX], vm[PDB_SET_MAX];
    int sum, msum;
    uint8_t where[PATTERN_MAX_CELLS];    /* tile -> cell (not kept with sparse) */
    uint8_t mwhere[PATTERN_MAX_CELLS];   /* tile -> cell, mirrored board */
    /* The children announced by pdb_node_prefetch since this node was
     * filled: the tile each moves and the entries it will read (not copied
     * to a child, so never stale; not kept with sparse, where an entry
     * costs one multiply-add). */
    int nnext;
    uint8_t next_tile[4];
    uint64_t next_entry[4], next_mentry[4];
};

/*
 * Load the tables named in files, "A" or "A+B+C" (at most PDB_SET_MAX), in
 * parallel with `threads` for each file; they must share board and goal.
 * A name that is a directory stands for the tables pdb build --partition
 * wrote there, DIR/NAME.1.pdb, DIR/NAME.2.pdb, ... (every .pdb file in it
 * must be one of them: one partition per directory).
 * reflect: 1 for the mirrored lookup as well.  Errors: those of pdb_load
 * (naming the file: SLIDE_EIO, SLIDE_EFORMAT, SLIDE_ENOMEM - a bad file is
 * never SLIDE_EINVAL), SLIDE_EIO (a directory that cannot be read),
 * SLIDE_EFORMAT (a directory that is not one partition's tables: none, a
 * misnamed one, two partitions, or two files for one table number such as
 * x.1.pdb and x.01.pdb), SLIDE_EINVAL only for bad input (an empty name in
 * the list, tables of different boards or goals, too many files,
 * reflection refused: the message names the goal's blank cell and what is
 * allowed).
 * Free with pdb_set_free.
 */
int pdb_set_load(struct pdb_set *s, const char *files, int reflect, int threads,
                 slide_error *err);

/*
 * pdb_set_load for boards of goal's size with that goal (goal may be NULL:
 * pdb_set_load): each file's header is read first and a table of another
 * size or goal is refused before any payload is read (the 7-8 tables take
 * seconds to load).  Errors: those of pdb_set_load; SLIDE_EINVAL naming the
 * file and its size ("the pattern databases are for 4x4 boards, not 1x16")
 * or its goal ("were built for another goal, 1 2 3 4/.../13 14 15 0").
 */
int pdb_set_load_for(struct pdb_set *s, const char *files, int reflect, int threads,
                     const struct board *goal, slide_error *err);

/*
 * pdb_set_load that stops when *cancel (may be NULL) becomes non-zero
 * (another thread sets it: Python's Ctrl-C): after the blocks being read,
 * with SLIDE_EINTR and everything freed.  Errors: those of pdb_set_load.
 */
int pdb_set_load_stoppable(struct pdb_set *s, const char *files, int reflect, int threads,
                           const volatile sig_atomic_t *cancel, slide_error *err);

/* 1 when h is admissible (see above). */
static inline int pdb_set_admissible(const struct pdb_set *s)
{
    return s->count == 1 || s->all_mtm || (s->disjoint && s->all_additive);
}

/* The moves h bounds: METRIC_MTM for a set of mtm tables (admissible in
 * both metrics then), else METRIC_STM. */
static inline enum metric pdb_set_metric(const struct pdb_set *s)
{
    return s->all_mtm ? METRIC_MTM : METRIC_STM;
}

/* The goal the set was built for, into b (allocated here).  Errors: ENOMEM. */
int pdb_set_goal(const struct pdb_set *s, struct board *b, slide_error *err);

/*
 * SLIDE_OK when the set answers for boards of goal's size with that goal,
 * else SLIDE_EINVAL saying which differs ("the pattern databases are for
 * 3x3 boards, not 2x4", or built for another goal).
 */
int pdb_set_match(const struct pdb_set *s, const struct board *goal, slide_error *err);

/*
 * h of the board whose cells are cells[0..n-1] (tile per cell, 0 = blank,
 * the set's dimensions).  Allocation-free, thread-safe.  Returns
 * PDB_NONE * count or more when some placement has no value (a board that
 * cannot reach the goal).
 */
int pdb_set_h(const struct pdb_set *s, const int *cells);

/*
 * The incremental form of pdb_set_h, for a set whose tables are all
 * additive and disjoint (pdb_node_ok): pdb_node_start fills *nd for the board
 * cells[0..n-1] and returns h, equal to pdb_set_h(s, cells);
 * pdb_node_move fills *after for the board that results when tile `tile`
 * (1..n-1) of the board of *before slides to cell `to`, and returns its h.
 * Only the table holding the tile is looked up again, and with reflection
 * the one holding its mirror image: one lookup per table kind instead of
 * one per table.  Allocation-free, thread-safe.
 */
/*
 * Ask the memory for the entries pdb_node_move(s, nd, cells[from], to, ...)
 * will read, without reading them: a search that calls this for every
 * child before it evaluates the first has the children's cache misses
 * under way at once instead of one after another.  cells[0..n-1] is the
 * board of *nd, `to` its blank, `from` a cell next to it.  The entries are
 * computed from the parent's (nd->e, nd->me) by what the move changes
 * (below) and kept in *nd (up to four children), so pdb_node_move does not
 * compute them again.
 *
 * The change of an entry (incremental ranking, in the spirit of Korf and
 * Felner 2002, who index their tables so that one move changes one term):
 * rank_kperm's digit m is cell(m) less the pattern's earlier tiles on
 * lower cells.  When the tile at place i goes from cell a to cell b, digit
 * i changes by (b - a) less or plus the earlier tiles on the cells strictly
 * between a and b, and the digit of each later tile on those cells by one.
 * A horizontal move has no cell between; a vertical one has cols - 1: the
 * new entry costs at most cols - 1 reads of the board instead of a ranking
 * of all k tiles.
 */
void pdb_node_prefetch(const struct pdb_set *s, struct pdb_node *nd, const int *cells,
                       int from, int to);

static inline int pdb_node_ok(const struct pdb_set *s)
{
    if (!s->all_additive || !s->disjoint) /* a tile in one table only */
        return 0;
    for (int j = 0; j < s->count; j++)
        if (s->tables[j].entries > UINT32_MAX)
            return 0;
    return 1;
}
int pdb_node_start(const struct pdb_set *s, const int *cells, struct pdb_node *nd);
/* `from`: the cell the tile left (the board of *before's blank is `to`). */
int pdb_node_move(const struct pdb_set *s, const struct pdb_node *before, int tile, int from,
                  int to, struct pdb_node *after);

/*
 * Give every table of s (pdb_node_ok) its sparse form (s->sparse above),
 * which pdb_node_* then read instead of the ranked tables: a child's entry
 * is one multiply-add from its parent's, and the node state shrinks to
 * the entries and values.  It costs n^k bytes per table beside the
 * ranked ones (25^6 = 244 MB for a 6-tile table of the 24-puzzle, 1.9
 * times the ranked table).  pdb_set_load does this by itself when every
 * table's sparse form is at most three times its ranked one, n^k < 2^32
 * and all of them take at most 4 GiB (and the memory is there; otherwise
 * the ranked form serves alone);
 * callers may ask for it on any other set that pdb_node_ok accepts.
 * threads: tables converted at once (0: OpenMP's default).  Errors: SLIDE_EINVAL (not
 * pdb_node_ok, or n^k >= 2^32), SLIDE_ENOMEM (s is then unchanged).
 */
int pdb_set_sparse(struct pdb_set *s, int threads, slide_error *err);

/* Free the sparse form (if any): the ranked tables serve alone again. */
void pdb_set_drop_sparse(struct pdb_set *s);

void pdb_set_free(struct pdb_set *s);

/*
 * Split a heuristic spec: "pdb:FILES" gives *with = "" and files; the
 * combination "max(NAME,pdb:FILES)" gives *with = NAME.  Returns 1 for a
 * pdb spec, 0 for anything else (then nothing is written); -1 when the text
 * is too long for the buffers; -2 for a max( ) naming pdb: in another form
 * (max(pdb:A,pdb:B), a nested max, NAME empty or holding "(),:", FILES
 * holding a parenthesis or a second "pdb:"): only one NAME and one sum
 * combine.  NAME itself is not checked against the known heuristics.
 */
int pdb_spec_split(const char *spec, char *with, size_t wlen, char *files, size_t flen);

#endif
