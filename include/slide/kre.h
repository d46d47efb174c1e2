/*
 * kre.h - the number of nodes IDA* expands, predicted from the heuristic's
 * value distribution by the formula of Korf, Reid and Edelkamp ("Time
 * complexity of iterative-deepening-A*", Artificial Intelligence 129,
 * 2001):
 *     E(d) = sum over depths i = 0..d of N_i P(d - i),
 * N_i the nodes at depth i of the brute-force search tree and P(x) the
 * probability that such a node has h <= x.  A node is expanded in the
 * iteration with threshold d when g + h <= d, g = i its depth.
 *
 * Representation: a kre_tree holds the brute-force tree of IDA* without
 * heuristic but with parent pruning (the move that undoes the previous one
 * is never made, as in slide's IDA*) from a root whose blank is on cell
 * root: nodes[i * n + c] is the number of its nodes at depth i with the
 * blank on cell c and children[i * n + c] the number of their children
 * (moves other than the undo).  It is computed by the recurrence over
 * (blank cell, last move) - the tree's nodes at depth i + 1 with the blank
 * on c' after move m are the nodes at depth i on the cell m came from whose
 * last move was not the inverse of m - so it depends on the board's shape
 * and the root's blank cell only, never on the tiles.
 *
 * The distribution: the nodes of the tree are not uniform over the blank's
 * cells (corners have fewer children), so P is taken per cell, from the
 * distribution given the blank's cell (hdist.h), and the sum is
 *     E(d) = sum over i, c of nodes[i][c] P_c(d - i),
 * which is KRE's equilibrium distribution (the value distribution weighted
 * by where the tree's nodes have their blank) applied depth by depth; the
 * predicted generated nodes are the same sum with children[i][c].  The
 * assumptions are KRE's: the nodes at depth i with the blank on c have the
 * values of uniform boards with the blank on c, and every node with
 * g + h <= d is reached (true for a consistent h; with an inconsistent one
 * a node whose ancestor was cut off is still counted, so the prediction
 * is an upper estimate).
 */
#ifndef SLIDE_KRE_H
#define SLIDE_KRE_H

#include "slide/error.h"
#include "slide/hdist.h"

#define KRE_MAX_DEPTH 1000

struct kre_tree {
    int n, depth;
    double *nodes;       /* (depth + 1) * n, see above */
    double *children;    /* (depth + 1) * n */
};

/* A prediction and the standard error its sampled distribution gives it. */
struct kre_prediction {
    double expanded, generated;
    double expanded_se, generated_se; /* 0 for an exact distribution */
};

/*
 * The brute-force tree of a rows x cols board (rows, cols >= 1, n <=
 * HDIST_MAX_CELLS) from a root with the blank on cell root, to depth
 * 0..KRE_MAX_DEPTH (counts as doubles: exact up to 2^53).  Errors:
 * SLIDE_EINVAL (out of range), SLIDE_ENOMEM.  Free with kre_tree_free.
 */
int kre_tree_build(int rows, int cols, int root, int depth, struct kre_tree *t,
                   slide_error *err);

void kre_tree_free(struct kre_tree *t);

/*
 * The nodes expanded and generated over the IDA* iterations with the given
 * thresholds (count >= 1, each 0..t->depth): one threshold for one
 * iteration, all of them for a whole search.  d is the value distribution
 * with t's cells.  The standard error is the sampling error only: for each
 * cell the prediction is the mean of a weight W_c(h) over the sampled
 * boards, whose variance over per_cell[c] boards is known.  Errors:
 * SLIDE_EINVAL (threshold out of range, cells differ, or a cell the tree
 * reaches has no sampled board: the message names it).
 */
int kre_predict(const struct kre_tree *t, const struct hdist *d, const int *thresholds,
                int count, struct kre_prediction *out, slide_error *err);

#endif
