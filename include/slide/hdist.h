/*
 * hdist.h - the distribution of a heuristic's values over the solvable
 * boards of one size and goal: estimated by uniform sampling with
 * confidence intervals, or, for Manhattan on boards of at most
 * HDIST_EXACT_MAX_CELLS cells, exact by a dynamic programme.
 *
 * Representation: count[c * HDIST_VALUES + v] is the number of boards (drawn
 * or, when exact, existing) whose blank is on cell c and whose heuristic
 * value is v, for c = 0..n-1 and v = 0..max; per_cell[c] is the sum over v
 * (the boards with the blank on c) and total the sum over all cells.
 *
 * Invariants: every counted value is <= max < HDIST_VALUES; total equals
 * the sum of per_cell.  A sampled distribution's boards are independent
 * uniform draws among the solvable boards (scramble.h), so the blank is
 * uniform over the cells and per_cell[c] is binomial; the distribution
 * given the blank's cell (what Korf, Reid and Edelkamp's prediction needs,
 * kre.h) is count[c][.] / per_cell[c].
 *
 * Determinism: samples are drawn in chunks of HDIST_CHUNK boards, chunk j
 * from its own generator seeded by (seed, j), and the chunk counts are
 * integers summed in any order, so the counts depend on the seed and the
 * number of samples only, never on the thread count.
 */
#ifndef SLIDE_HDIST_H
#define SLIDE_HDIST_H

#include <stdint.h>

#include "slide/board.h"
#include "slide/error.h"
#include "slide/heuristic.h"

#define HDIST_VALUES 256            /* values 0..255 are tabulated */
#define HDIST_MAX_CELLS 64          /* boards the sampler accepts */
#define HDIST_CHUNK 4096            /* boards per independently seeded chunk */
#define HDIST_EXACT_MAX_CELLS 16    /* the exact Manhattan programme: 2^n states */

struct hdist {
    int n;                          /* cells */
    int max;                        /* largest value counted */
    int exact;                      /* 1: counts of all solvable boards */
    uint64_t total;
    uint64_t per_cell[HDIST_MAX_CELLS];
    uint64_t *count;                /* n * HDIST_VALUES, see above */
};

/* A probability or mean with its two-sided confidence interval. */
struct hdist_estimate {
    double value, low, high;
};

/*
 * Draw `samples` (>= 1) uniform solvable boards for goal (the dimensions and
 * goal h was initialised with, 4 <= n <= HDIST_MAX_CELLS cells) from seed,
 * with `threads` threads (<= 0: all), and count h on each into d
 * (allocated here; free with hdist_free).  Errors: SLIDE_EINVAL (board too
 * large or small, or a value above HDIST_VALUES - 1: the message names it),
 * SLIDE_ENOMEM.
 */
int hdist_sample(const struct heuristic *h, const struct board *goal, uint64_t samples,
                 uint64_t seed, int threads, struct hdist *d, slide_error *err);

/*
 * The exact distribution of the Manhattan distance over all solvable boards
 * of goal's size (n <= HDIST_EXACT_MAX_CELLS, rows and cols >= 2), by
 * blank cell.  Method: tiles 1..n-1 are placed in increasing order on the
 * free cells; a state is (set of occupied cells, parity of the inversions
 * so far) and holds the number of partial placements per partial Manhattan
 * sum; placing tile t on cell c adds its distance from t's goal cell and
 * the number of placed (smaller) tiles on cells after c to the inversions.
 * The blank takes the last free cell; a board is solvable exactly when the
 * parity of its permutation relative to the goal (blank included) equals
 * the parity of the blank's Manhattan distance from its goal cell (Johnson
 * and Story 1879, in the form of Archer 1999, "A modern treatment of the
 * 15 puzzle", Amer. Math. Monthly 106).  Memory: 2^(n+1) * 8 * ((n - 1)
 * (rows + cols - 2) + 1) bytes (95 MB on 4x4).  Errors: SLIDE_EINVAL
 * (board too large or a path), SLIDE_ENOMEM.
 */
int hdist_manhattan_exact(const struct board *goal, struct hdist *d, slide_error *err);

/*
 * The mean Manhattan distance over the solvable boards of goal's size
 * (n >= 4), in closed form: with at least three tiles, swapping two tiles
 * other than t maps the unsolvable boards with t on a cell one to one onto
 * the solvable ones, so each tile is uniform over the n cells and
 *     mean = sum over tiles of E|R - r| + E|C - c|,
 * where R is uniform on 0..rows-1 and r the tile's goal row (likewise C),
 * and E|X - a| = (a (a + 1) + (m - 1 - a)(m - a)) / (2 m) for X uniform on
 * 0..m-1.
 */
double hdist_manhattan_mean(const struct board *goal);

/*
 * Pr(h = v) (cell < 0: over all boards; else given the blank on cell) with
 * the Wilson score interval at z standard errors (z = 1.96: 95 %); exact
 * distributions get low = high = value.
 */
struct hdist_estimate hdist_prob(const struct hdist *d, int cell, int v, double z);

/* The mean of h (cell as above) with the normal interval mean +- z s / sqrt(N). */
struct hdist_estimate hdist_mean(const struct hdist *d, int cell, double z);

/* count[cell][v], 0 outside the table. */
static inline uint64_t hdist_count(const struct hdist *d, int cell, int v)
{
    return v < 0 || v >= HDIST_VALUES ? 0 : d->count[(size_t)cell * HDIST_VALUES + v];
}

void hdist_free(struct hdist *d);

#endif
