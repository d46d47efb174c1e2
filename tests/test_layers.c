/*
 * test_layers.c - the layer-by-layer construction (layers.h): every
 * solution is replayed move by move with board_move and must end on the
 * goal, within the stated bound; solvability is taken from the naive BFS of
 * testutil.h on every 3x3 board, and from replay (a solution that reaches
 * the goal proves the board solvable) on random boards of many shapes.
 */
#include "testutil.h"

#include "slide/layers.h"

/* Swap two tiles (never the blank): flips solvability (R, C >= 2). */
static void swap_two_tiles(struct board *b)
{
    int i = b->cells[0] == 0 ? 2 : 0, j = b->cells[1] == 0 ? 2 : 1;
    int t = b->cells[i];
    b->cells[i] = b->cells[j];
    b->cells[j] = t;
}

/* Solve b towards goal and check everything the header promises. */
static void expect_solved(const struct board *b, const struct board *goal)
{
    struct layers_moves m = {0};
    slide_error err;
    int rc = layers_solve(b, goal, &m, &err);
    if (rc)
        fail_msg("%dx%d: %s", b->rows, b->cols, err.msg);
    if (!test_replay(b, m.moves, m.len, goal))
        fail_msg("%dx%d: the %llu moves do not lead to the goal", b->rows, b->cols,
                 (unsigned long long)m.len);
    assert_true(m.len <= layers_bound(b->rows, b->cols));
    assert_int_equal(m.fallbacks, 0);
    /* never a move followed by its inverse */
    for (uint64_t i = 0; i + 1 < m.len; i++)
        if (move_parse(m.moves[i + 1]) == (int)move_inverse((enum move)move_parse(m.moves[i])))
            fail_msg("%dx%d: moves %llu and %llu are %c%c, a move and its inverse", b->rows,
                     b->cols, (unsigned long long)i + 1, (unsigned long long)i + 2,
                     m.moves[i], m.moves[i + 1]);
    /* counting gives the length of the moves */
    struct layers_moves c = {0};
    c.count_only = 1;
    assert_int_equal(layers_solve(b, goal, &c, &err), 0);
    assert_int_equal(c.len, m.len);
    layers_moves_free(&m);
}

/* A random solvable board and a random goal of rows x cols: a random
 * arrangement, with two tiles swapped when layers_solve refuses it (the
 * refusal is only taken as a hint here: replaying the solution to the goal
 * is what proves the board solvable). */
static void random_pair(int rows, int cols, uint64_t *seed, struct board *b,
                        struct board *goal)
{
    slide_error err;
    assert_int_equal(board_goal(goal, rows, cols, &err), 0);
    test_shuffle(goal->cells, board_cells(goal), seed);
    assert_int_equal(board_copy(b, goal, &err), 0);
    test_shuffle(b->cells, board_cells(b), seed);
    struct layers_moves m = {0};
    m.count_only = 1;
    if (layers_solve(b, goal, &m, &err) == SLIDE_EUNSOLVABLE)
        swap_two_tiles(b);
}

/* One random solvable board of rows x cols, solved and checked. */
static void solve_random(int rows, int cols, uint64_t *seed)
{
    struct board b, goal;
    random_pair(rows, cols, seed, &b, &goal);
    expect_solved(&b, &goal);
    board_free(&b);
    board_free(&goal);
}

static void test_block_radius(void **state)
{
    (void)state;
    assert_int_equal(layers_block_radius(), LAYERS_BLOCK_RADIUS);
}

/* Every 3x3 arrangement: solved iff the naive BFS reaches it from the goal,
 * refused by parity otherwise; and the same with the blank of the goal in
 * the centre. */
static void every_3x3(const char *goal_text)
{
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_parse(goal_text, 0, 0, &goal, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(3, 3, goal.cells, hist, 64, &set);
    assert_int_equal(board_copy(&b, &goal, &err), 0);
    struct layers_moves m = {0};
    uint64_t solved = 0, refused = 0, longest = 0;
    for (size_t k = 0; k < set.cap; k++) { /* every reachable board */
        if (!set.keys[k])
            continue;
        for (int i = 0; i < 9; i++)
            b.cells[i] = naive_cell(set.keys[k], i);
        assert_int_equal(layers_solve(&b, &goal, &m, &err), 0);
        assert_true(test_replay(&b, m.moves, m.len, &goal));
        assert_int_equal(m.fallbacks, 0);
        longest = m.len > longest ? m.len : longest;
        solved++;
        swap_two_tiles(&b); /* its mirror class: unreachable */
        assert_int_equal(naive_lookup(&set, naive_pack(b.cells, 9)), -1);
        assert_int_equal(layers_solve(&b, &goal, &m, &err), SLIDE_EUNSOLVABLE);
        refused++;
    }
    assert_int_equal(solved, 181440);
    assert_int_equal(refused, 181440);
    assert_true(longest <= layers_bound(3, 3));
    assert_non_null(strstr(err.msg, "cannot reach the goal"));
    layers_moves_free(&m);
    naive_free(&set);
    board_free(&b);
    board_free(&goal);
}

static void test_every_3x3(void **state)
{
    (void)state;
    every_3x3("1 2 3/4 5 6/7 8 0");
    every_3x3("8 1 6/3 0 7/4 2 5");
}

/* Every reachable board of small non-square shapes, one random goal each. */
static void test_every_small(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}};
    uint64_t seed = 0x5eed0001;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
        struct board goal, b;
        slide_error err;
        assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
        test_shuffle(goal.cells, board_cells(&goal), &seed);
        uint64_t hist[64];
        struct naive_set set;
        naive_bfs(rows, cols, goal.cells, hist, 64, &set);
        assert_int_equal(board_copy(&b, &goal, &err), 0);
        for (size_t k = 0; k < set.cap; k++) {
            if (!set.keys[k])
                continue;
            for (int i = 0; i < n; i++)
                b.cells[i] = naive_cell(set.keys[k], i);
            expect_solved(&b, &goal);
        }
        naive_free(&set);
        board_free(&b);
        board_free(&goal);
    }
}

/* Random solvable boards of many shapes, square and not, random goals. */
static void test_random_shapes(void **state)
{
    (void)state;
    uint64_t seed = 0x1a7e5;
    for (int rows = 2; rows <= 12; rows++)
        for (int cols = 2; cols <= 12; cols++)
            for (int k = 0; k < 4; k++)
                solve_random(rows, cols, &seed);
    static const int sides[] = {2, 3, 4, 5, 8, 13, 21, 34, 50};
    for (size_t r = 0; r < sizeof sides / sizeof sides[0]; r++)
        for (size_t c = 0; c < sizeof sides / sizeof sides[0]; c++)
            solve_random(sides[r], sides[c], &seed);
    static const int shapes[][2] = {{2, 50}, {50, 2}, {3, 40}, {40, 3}, {7, 31},
                                    {31, 7}, {20, 20}, {33, 17}, {50, 50}, {49, 50}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int k = 0; k < 3; k++)
            solve_random(shapes[s][0], shapes[s][1], &seed);
}

/* Unsolvable boards of every shape are refused, by parity, without moves. */
static void test_unsolvable_refused(void **state)
{
    (void)state;
    uint64_t seed = 0xbad;
    static const int shapes[][2] = {{2, 2}, {3, 4}, {5, 5}, {2, 9}, {50, 50}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        struct board b, goal;
        struct layers_moves m = {0};
        slide_error err = {{0}};
        random_pair(shapes[s][0], shapes[s][1], &seed, &b, &goal);
        expect_solved(&b, &goal);
        swap_two_tiles(&b);
        assert_int_equal(layers_solve(&b, &goal, &m, &err), SLIDE_EUNSOLVABLE);
        assert_non_null(strstr(err.msg, "cannot reach the goal"));
        assert_int_equal(m.len, 0);
        board_free(&b);
        board_free(&goal);
    }
}

/* 1 x N and N x 1: solvable only with the tiles in goal order. */
static void test_paths(void **state)
{
    (void)state;
    uint64_t seed = 0x9a7b;
    for (int n = 1; n <= 12; n++)
        for (int vertical = 0; vertical <= 1; vertical++) {
            int rows = vertical ? n : 1, cols = vertical ? 1 : n;
            struct board goal, b;
            slide_error err;
            struct layers_moves m = {0};
            assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
            test_shuffle(goal.cells, board_cells(&goal), &seed);
            assert_int_equal(board_copy(&b, &goal, &err), 0);
            int tiles[12], ntiles = 0, zg = board_blank(&goal);
            for (int k = 0; k < n; k++)
                if (goal.cells[k])
                    tiles[ntiles++] = goal.cells[k];
            for (int z = 0; z < n; z++) { /* the blank on every cell, tiles in order */
                for (int k = 0, t = 0; k < n; k++)
                    b.cells[k] = k == z ? 0 : tiles[t++];
                expect_solved(&b, &goal);
                assert_int_equal(layers_solve(&b, &goal, &m, &err), 0);
                assert_int_equal(m.len, (uint64_t)abs(z - zg));
                if (n >= 3) { /* two tiles out of order: refused */
                    int i = z == 0 ? 1 : 0, j = i + 1 == z ? i + 2 : i + 1;
                    int t = b.cells[i];
                    b.cells[i] = b.cells[j];
                    b.cells[j] = t;
                    assert_int_equal(layers_solve(&b, &goal, &m, &err), SLIDE_EUNSOLVABLE);
                }
            }
            layers_moves_free(&m);
            board_free(&b);
            board_free(&goal);
        }
}

/* count_only gives the same length without storing; errors on bad input. */
static void test_count_only_and_errors(void **state)
{
    (void)state;
    uint64_t seed = 0xc0;
    struct board b, goal, other;
    struct layers_moves m = {0}, c = {0};
    slide_error err = {{0}};
    random_pair(30, 40, &seed, &b, &goal);
    assert_int_equal(layers_solve(&b, &goal, &m, &err), 0);
    c.count_only = 1;
    assert_int_equal(layers_solve(&b, &goal, &c, &err), 0);
    assert_int_equal(c.len, m.len);
    assert_null(c.moves);
    assert_int_equal(board_goal(&other, 40, 30, &err), 0);
    assert_int_equal(layers_solve(&b, &other, &m, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "30x40 but the goal is 40x30"));
    b.cells[0] = b.cells[1];
    assert_int_equal(layers_solve(&b, &goal, &m, &err), SLIDE_EINVAL);
    layers_moves_free(&m);
    board_free(&b);
    board_free(&goal);
    board_free(&other);
}

/* Big boards: a 100 x 100 replay, and thin 3 x 300, 300 x 3. */
static void test_big(void **state)
{
    (void)state;
    uint64_t seed = 0xb16;
    static const int shapes[][2] = {{100, 100}, {3, 300}, {300, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        solve_random(shapes[s][0], shapes[s][1], &seed);
}

/* The stated bound: O(n) per tile, 8 n^3 + n^2 on n x n for every n <= 1000;
 * and the path bound n - 1. */
static void test_bound_shape(void **state)
{
    (void)state;
    for (uint64_t n = 2; n <= 1000; n++) {
        uint64_t bnd = layers_bound((int)n, (int)n);
        assert_true(bnd <= 8 * n * n * n + n * n);
        /* per tile: at most 6 (R + C) + 30 moves on average */
        assert_true(bnd <= n * n * (12 * n + 30));
    }
    assert_int_equal(layers_bound(1, 7), 6);
    assert_int_equal(layers_bound(9, 1), 8);
}

/* Stages whose tiles are home cost nothing: a solved board takes 0 moves
 * and a board one move from the (standard) goal takes exactly 1, on many
 * shapes up to 100x100. */
static void test_home_stages(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 5}, {5, 3}, {4, 4},
                                    {7, 4}, {4, 7}, {10, 10}, {1, 6}, {6, 1}, {100, 100}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        struct board goal, b;
        slide_error err;
        int rows = shapes[k][0], cols = shapes[k][1];
        assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
        struct layers_moves m = {0};
        assert_int_equal(layers_solve(&goal, &goal, &m, &err), 0);
        if (m.len != 0)
            fail_msg("%dx%d: the solved board got %llu moves", rows, cols,
                     (unsigned long long)m.len);
        for (int d = 0; d < MOVE_COUNT; d++) {
            assert_int_equal(board_copy(&b, &goal, &err), 0);
            int z = board_blank(&b);
            if (board_move(&b, &z, (enum move)d) == 0) {
                assert_int_equal(layers_solve(&b, &goal, &m, &err), 0);
                if (m.len != 1 || m.moves[0] != move_letter(move_inverse((enum move)d)))
                    fail_msg("%dx%d, one move %c from the goal: %llu moves", rows, cols,
                             move_letter((enum move)d), (unsigned long long)m.len);
                expect_solved(&b, &goal);
            }
            board_free(&b);
        }
        layers_moves_free(&m);
        board_free(&goal);
    }
}

/* Every board reachable from goal (rows*cols <= 9) against the test's own
 * BFS distance d: 0 moves at d = 0, exactly 1 at d = 1, and never fewer
 * than d or of another parity; each answer replays to goal with no move
 * followed by its inverse. */
static void home_stages_against_bfs(int rows, int cols, const int *goal_cells)
{
    int n = rows * cols;
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_alloc(&goal, rows, cols, &err), 0);
    memcpy(goal.cells, goal_cells, (size_t)n * sizeof *goal.cells);
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(rows, cols, goal.cells, hist, 64, &set);
    assert_int_equal(board_copy(&b, &goal, &err), 0);
    struct layers_moves m = {0};
    uint64_t near = 0;
    for (size_t k = 0; k < set.cap; k++) {
        if (!set.keys[k])
            continue;
        for (int i = 0; i < n; i++)
            b.cells[i] = naive_cell(set.keys[k], i);
        uint64_t d = set.dist[k];
        assert_int_equal(layers_solve(&b, &goal, &m, &err), 0);
        if ((d <= 1 && m.len != d) || m.len < d || (m.len - d) % 2)
            fail_msg("%dx%d: a board at distance %llu got %llu moves", rows, cols,
                     (unsigned long long)d, (unsigned long long)m.len);
        near += d <= 1;
        expect_solved(&b, &goal);
    }
    assert_int_equal(near, 1 + hist[1]);
    layers_moves_free(&m);
    naive_free(&set);
    board_free(&b);
    board_free(&goal);
}

/* The home-stage rule with goals other than the standard one: the blank
 * first, in the centre, and random goals of several shapes. */
static void test_home_stages_other_goals(void **state)
{
    (void)state;
    static const int blank_first[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    static const int magic[9] = {8, 1, 6, 3, 0, 7, 4, 2, 5};
    home_stages_against_bfs(3, 3, blank_first);
    home_stages_against_bfs(3, 3, magic);
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}};
    uint64_t seed = 0x60a15eed;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 3; t++) {
            int cells[16];
            for (int i = 0; i < shapes[s][0] * shapes[s][1]; i++)
                cells[i] = i;
            test_shuffle(cells, shapes[s][0] * shapes[s][1], &seed);
            home_stages_against_bfs(shapes[s][0], shapes[s][1], cells);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_radius),
        cmocka_unit_test(test_every_3x3),
        cmocka_unit_test(test_every_small),
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_unsolvable_refused),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_count_only_and_errors),
        cmocka_unit_test(test_big),
        cmocka_unit_test(test_bound_shape),
        cmocka_unit_test(test_home_stages),
        cmocka_unit_test(test_home_stages_other_goals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
