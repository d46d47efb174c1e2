/*
 * mtm_naive.h - brute force in the multi-tile metric for the tests, written
 * from the rules alone and sharing nothing with slide's move generator
 * (metric.h): one move takes the blank to any other cell of its row or
 * column, and every tile between (the one on that cell included) slides one
 * cell towards the blank's old cell.
 *
 *   naive_mtm_neighbours  the boards one MTM move away from a packed board
 *                         (testutil.h's naive_neighbours_mtm);
 *   naive_mtm_bfs         plain BFS from the goal over a hash set (testutil.h's
 *                         naive_bfs_metric: arrangement -> distance);
 *   naive_mtm_ball, naive_mtm_distance_by_ball
 *                         testutil.h's meet-in-the-middle distance with MTM
 *                         moves, for boards too big for a whole BFS;
 *   mtm_checker           replays a path in metric.h's text notation (a move
 *                         is one letter repeated once per cell, moves separated
 *                         by one space) by swapping the blank with the next
 *                         cell, one cell at a time.
 */
#ifndef SLIDE_TEST_MTM_NAIVE_H
#define SLIDE_TEST_MTM_NAIVE_H

#include "testutil.h"

/* The boards one MTM move from k (testutil.h's naive_neighbours_mtm). */
static inline int naive_mtm_neighbours(int rows, int cols, naive_key k, naive_key *out)
{
    return naive_neighbours_mtm(rows, cols, k, out);
}

/* BFS from goal (rows*cols <= 16) under MTM moves; as naive_bfs. */
static inline int naive_mtm_bfs(int rows, int cols, const int *goal, uint64_t *hist,
                                int maxd, struct naive_set *set)
{
    size_t half = 1;
    for (int i = 3; i <= rows * cols; i++)
        half *= (size_t)i;
    return naive_bfs_metric(rows, cols, goal, hist, maxd, set, 1, -1, half);
}

/* The ball of radius depth around start under MTM moves (as naive_ball). */
static inline size_t naive_mtm_ball(int rows, int cols, const int *start, int depth,
                                    size_t cap, struct naive_set *set)
{
    return naive_ball_by(rows, cols, start, depth, cap, set, naive_mtm_neighbours);
}

/* Exact MTM distance from board to the centre of ball (naive_mtm_ball), by
 * the argument of naive_distance_by_ball: any move graph works. */
static inline int naive_mtm_distance_by_ball(int rows, int cols, const int *board,
                                             const struct naive_set *ball, size_t cap)
{
    return naive_distance_by_ball_by(rows, cols, board, ball, cap, naive_mtm_neighbours);
}

/*
 * Replay `text` (metric.h's MTM notation) from b: a move is a run of one
 * letter U/D/L/R (the blank's direction), one letter per cell; moves are
 * separated by exactly one space.  Returns the number of moves if every one
 * is legal and the end is goal, else -1.
 */
static inline int mtm_checker(const struct board *b, const char *text,
                              const struct board *goal)
{
    int n = b->rows * b->cols, cells[1024], z = 0, moves = 0;
    if (n > 1024)
        return -1;
    for (int i = 0; i < n; i++)
        if (!(cells[i] = b->cells[i]))
            z = i;
    for (const char *p = text; *p;) {
        char c = *p;
        int dr = c == 'U' ? -1 : c == 'D' ? 1 : 0, dc = c == 'L' ? -1 : c == 'R' ? 1 : 0;
        if (!dr && !dc)
            return -1;
        for (; *p == c; p++) {
            int r = z / b->cols + dr, col = z % b->cols + dc;
            if (r < 0 || r >= b->rows || col < 0 || col >= b->cols)
                return -1;
            cells[z] = cells[r * b->cols + col];
            z = r * b->cols + col;
            cells[z] = 0;
        }
        moves++;
        if (*p == ' ') {
            p++;
            if (!*p || *p == ' ')
                return -1;
        } else if (*p) {
            return -1; /* another letter without a space: not one move */
        }
    }
    for (int i = 0; i < n; i++)
        if (cells[i] != goal->cells[i])
            return -1;
    return moves;
}

#endif
