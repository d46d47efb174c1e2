/*
 * solvers_driver.c - a hidden driver for the layer construction and the
 * bidirectional search, until `slide solve --method layers|bibfs` exists.
 * Not a test (the name does not start with test_); scripts/bench-solvers.sh
 * builds and runs it.
 *
 *   solvers_driver layers BOARD [GOAL] [--count]   moves (or their number)
 *   solvers_driver bibfs FROM [TO]                 distance and path
 *   solvers_driver time-layers N SEED [--store]    a random solvable N x N
 *       board: "n moves seconds moves/n^3 bound" (count only unless --store,
 *       which also stores and replays the moves)
 *   solvers_driver ratio RxC COUNT SEED            COUNT random solvable boards:
 *       "board count mean_ratio min_ratio max_ratio mean_layers mean_optimum"
 *       of the layer length to the optimum (bidirectional BFS)
 * Boards are given in slide's board syntax; GOAL and TO default to the
 * standard goal.  Exit status 0 on success, 1 on any error.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slide/bibfs.h"
#include "slide/layers.h"
#include "slide/parity.h"

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A uniformly random solvable board towards the standard goal: a random
 * arrangement with two tiles swapped when parity says it is unsolvable. */
static int random_board(int rows, int cols, uint64_t *seed, struct board *b)
{
    slide_error err;
    struct parity_report pr;
    struct board goal;
    if (board_goal(&goal, rows, cols, &err) || board_copy(b, &goal, &err))
        return -1;
    for (int i = board_cells(b) - 1; i > 0; i--) {
        int j = (int)(rng_next(seed) % (uint64_t)(i + 1)), t = b->cells[i];
        b->cells[i] = b->cells[j];
        b->cells[j] = t;
    }
    if (parity_check(b, &goal, &pr, &err))
        return -1;
    if (!pr.solvable) {
        int i = b->cells[0] == 0 ? 2 : 0, j = b->cells[1] == 0 ? 2 : 1, t = b->cells[i];
        b->cells[i] = b->cells[j];
        b->cells[j] = t;
    }
    board_free(&goal);
    return 0;
}

static int parse_or_goal(const char *text, const struct board *like, struct board *b)
{
    slide_error err;
    int rc = text ? board_parse(text, like ? like->rows : 0, like ? like->cols : 0, b, &err)
                  : board_goal(b, like->rows, like->cols, &err);
    if (rc)
        fprintf(stderr, "solvers_driver: %s\n", err.msg);
    return rc;
}

static int run_layers(int argc, char **argv)
{
    int count = argc > 0 && strcmp(argv[argc - 1], "--count") == 0;
    argc -= count;
    struct board b, goal;
    struct layers_moves m = {0};
    slide_error err;
    if (argc < 1 || parse_or_goal(argv[0], NULL, &b) ||
        parse_or_goal(argc > 1 ? argv[1] : NULL, &b, &goal))
        return 1;
    m.count_only = count;
    if (layers_solve(&b, &goal, &m, &err)) {
        fprintf(stderr, "solvers_driver: %s\n", err.msg);
        return 1;
    }
    printf("moves: %llu (bound %llu)\n", (unsigned long long)m.len,
           (unsigned long long)layers_bound(b.rows, b.cols));
    if (!count)
        printf("%.*s\n", (int)m.len, m.moves ? m.moves : "");
    layers_moves_free(&m);
    return 0;
}

static int run_bibfs(int argc, char **argv)
{
    struct board a, b;
    struct bibfs_result r;
    slide_error err;
    if (argc < 1 || parse_or_goal(argv[0], NULL, &a) ||
        parse_or_goal(argc > 1 ? argv[1] : NULL, &a, &b))
        return 1;
    if (bibfs_solve(&a, &b, 0, &r, &err)) {
        fprintf(stderr, "solvers_driver: %s\n", err.msg);
        return 1;
    }
    printf("distance: %d\npath: %s\nboards stored: %llu\n", r.distance, r.path,
           (unsigned long long)r.states);
    bibfs_result_free(&r);
    return 0;
}

static int replay_ok(const struct board *b, const struct layers_moves *m)
{
    struct board c, goal;
    slide_error err;
    if (board_copy(&c, b, &err) || board_goal(&goal, b->rows, b->cols, &err))
        return 0;
    int z = board_blank(&c), ok = 1;
    for (uint64_t k = 0; k < m->len && ok; k++)
        ok = board_move(&c, &z, (enum move)move_parse(m->moves[k])) == 0;
    ok = ok && board_equal(&c, &goal);
    board_free(&c);
    board_free(&goal);
    return ok;
}

static int run_time_layers(int argc, char **argv)
{
    if (argc < 2)
        return 1;
    int n = atoi(argv[0]), store = argc > 2 && strcmp(argv[2], "--store") == 0;
    uint64_t seed = strtoull(argv[1], NULL, 0) | 1;
    struct board b, goal;
    struct layers_moves m = {0};
    slide_error err;
    if (random_board(n, n, &seed, &b) || board_goal(&goal, n, n, &err))
        return 1;
    m.count_only = !store;
    double t0 = omp_get_wtime();
    if (layers_solve(&b, &goal, &m, &err)) {
        fprintf(stderr, "solvers_driver: %s\n", err.msg);
        return 1;
    }
    double secs = omp_get_wtime() - t0;
    if (store && !replay_ok(&b, &m)) {
        fprintf(stderr, "solvers_driver: the moves do not replay to the goal\n");
        return 1;
    }
    printf("%d %llu %.3f %.4f %llu%s\n", n, (unsigned long long)m.len, secs,
           (double)m.len / ((double)n * n * n), (unsigned long long)layers_bound(n, n),
           store ? " replayed" : "");
    layers_moves_free(&m);
    return 0;
}

static int run_ratio(int argc, char **argv)
{
    int rows, cols;
    slide_error err;
    if (argc < 3 || board_parse_dims(argv[0], &rows, &cols, &err))
        return 1;
    int count = atoi(argv[1]);
    uint64_t seed = strtoull(argv[2], NULL, 0) | 1, sum_l = 0, sum_o = 0;
    double sum_r = 0, min_r = 1e9, max_r = 0;
    int done = 0;
    struct board goal;
    if (board_goal(&goal, rows, cols, &err))
        return 1;
    while (done < count) {
        struct board b;
        struct layers_moves m = {0};
        struct bibfs_result r;
        if (random_board(rows, cols, &seed, &b) || layers_solve(&b, &goal, &m, &err) ||
            bibfs_solve(&b, &goal, 0, &r, &err))
            return 1;
        if (r.distance > 0) { /* the goal itself has no ratio */
            double q = (double)m.len / r.distance;
            sum_r += q;
            min_r = q < min_r ? q : min_r;
            max_r = q > max_r ? q : max_r;
            sum_l += m.len;
            sum_o += (uint64_t)r.distance;
            done++;
        }
        layers_moves_free(&m);
        bibfs_result_free(&r);
        board_free(&b);
    }
    printf("%dx%d %d %.4f %.4f %.4f %.2f %.2f\n", rows, cols, count, sum_r / count, min_r,
           max_r, (double)sum_l / count, (double)sum_o / count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: solvers_driver layers|bibfs|time-layers|ratio ... (see the source)\n",
              stderr);
        return 1;
    }
    if (strcmp(argv[1], "layers") == 0)
        return run_layers(argc - 2, argv + 2);
    if (strcmp(argv[1], "bibfs") == 0)
        return run_bibfs(argc - 2, argv + 2);
    if (strcmp(argv[1], "time-layers") == 0)
        return run_time_layers(argc - 2, argv + 2);
    if (strcmp(argv[1], "ratio") == 0)
        return run_ratio(argc - 2, argv + 2);
    fprintf(stderr, "solvers_driver: unknown mode %s\n", argv[1]);
    return 1;
}
