/*
 * refheur.h - reference heuristics written for the tests, from their
 * definitions and without any of slide's tables: misplaced tiles, Manhattan
 * distance, and Manhattan + 2 per line of (k - LIS) (lc) or of inverted
 * pairs (lc-pairs), every line collected by scanning the board.  Tests
 * that need an h independent of src/heuristics use these.  Include after
 * testutil.h.
 */
#ifndef SLIDE_REFHEUR_H
#define SLIDE_REFHEUR_H

#include <stdlib.h>

/* Goal cell of tile t by searching the goal (no precomputed tables). */
static inline int goal_cell(const struct board *goal, int t)
{
    for (int k = 0;; k++)
        if (goal->cells[k] == t)
            return k;
}

static inline int ref_misplaced(const struct board *goal, const int *cells)
{
    int s = 0;
    for (int k = 0; k < board_cells(goal); k++)
        s += cells[k] != 0 && cells[k] != goal->cells[k];
    return s;
}

static inline int ref_manhattan(const struct board *goal, const int *cells)
{
    int s = 0, C = goal->cols;
    for (int k = 0; k < board_cells(goal); k++) {
        if (!cells[k])
            continue;
        int g = goal_cell(goal, cells[k]);
        s += abs(k / C - g / C) + abs(k % C - g % C);
    }
    return s;
}

/* Largest increasing subsequence: every subset when short, else O(k^2) DP. */
static inline int ref_lis(const int *v, int k)
{
    int best = 0;
    if (k <= 14) {
        for (uint32_t set = 0; set < (1u << k); set++) {
            int last = -1, ok = 1, size = 0;
            for (int i = 0; i < k && ok; i++)
                if (set >> i & 1) {
                    ok = v[i] > last;
                    last = v[i];
                    size++;
                }
            if (ok && size > best)
                best = size;
        }
        return best;
    }
    int *len = malloc((size_t)k * sizeof *len);
    for (int i = 0; i < k; i++) {
        len[i] = 1;
        for (int j = 0; j < i; j++)
            if (v[j] < v[i] && len[j] + 1 > len[i])
                len[i] = len[j] + 1;
        if (len[i] > best)
            best = len[i];
    }
    free(len);
    return best;
}

static inline int ref_pairs(const int *v, int k)
{
    int s = 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            s += v[i] > v[j];
    return s;
}

/*
 * Manhattan + 2 * sum over lines of (k - LIS) (pairs = 0) or of inverted
 * pairs (pairs = 1), lines collected by scanning the board.
 */
static inline long ref_lc(const struct board *goal, const int *cells, int pairs)
{
    int R = goal->rows, C = goal->cols;
    int side = R > C ? R : C;
    int small[32];
    int *v = side <= 32 ? small : malloc((size_t)side * sizeof *v);
    long s = ref_manhattan(goal, cells);
    for (int dir = 0; dir < 2; dir++) {
        int nlines = dir == 0 ? R : C, len = dir == 0 ? C : R;
        for (int line = 0; line < nlines; line++) {
            int k = 0;
            for (int p = 0; p < len; p++) {
                int cell = dir == 0 ? line * C + p : p * C + line;
                if (!cells[cell])
                    continue;
                int g = goal_cell(goal, cells[cell]);
                int gline = dir == 0 ? g / C : g % C, gpos = dir == 0 ? g % C : g / C;
                if (gline == line)
                    v[k++] = gpos;
            }
            s += 2 * (pairs ? ref_pairs(v, k) : k - ref_lis(v, k));
        }
    }
    if (v != small)
        free(v);
    return s;
}

#endif
