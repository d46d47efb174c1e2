/* test_space.c - index spaces: bijection, neighbours in index space (space.h). */
#include "testutil.h"

#include "slide/space.h"

static uint64_t rng_state = 12345;
static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void make_space(struct space *s, int rows, int cols, int goal_blank,
                       enum space_kind kind, struct board *goal)
{
    slide_error err;
    assert_int_equal(board_alloc(goal, rows, cols, &err), 0);
    goal_with_blank(rows * cols, goal_blank, goal->cells);
    assert_int_equal(space_init(s, goal, kind, &err), 0);
}

/*
 * The neighbours of index i computed in index space equal the ranks of the
 * boards reached by moving the blank on the unranked board.
 */
static void check_index(const struct space *s, struct board *b, uint64_t i)
{
    uint64_t nb[MOVE_COUNT], want[MOVE_COUNT];
    space_unrank(s, i, b);
    assert_int_equal(board_validate(b, NULL), 0);
    assert_true(space_contains(s, b));
    assert_true(space_rank(s, b) == i);
    int k = space_neighbours(s, i, nb), w = 0;
    for (int m = 0; m < MOVE_COUNT; m++) {
        int z = board_blank(b);
        if (board_move(b, &z, (enum move)m) == 0) {
            assert_true(space_contains(s, b));
            want[w++] = space_rank(s, b);
            board_move(b, &z, move_inverse((enum move)m));
        }
    }
    assert_int_equal(k, w);
    for (int a = 0; a < k; a++) {
        int found = 0;
        for (int c = 0; c < w; c++)
            found |= nb[a] == want[c];
        assert_true(found);
        /* every move flips the colour (bipartite) */
        assert_int_not_equal(s->colour[nb[a] % (uint64_t)s->n], s->colour[i % (uint64_t)s->n]);
    }
}

static void test_exhaustive_small(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {1, 5}, {5, 1}, {2, 4}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int kind = 0; kind < 2; kind++)
            for (int zg = 0; zg < shapes[k][0] * shapes[k][1]; zg += 3) {
                struct space s;
                struct board goal, b;
                slide_error err;
                make_space(&s, shapes[k][0], shapes[k][1], zg, (enum space_kind)kind, &goal);
                uint64_t fact = rank_factorial(s.n);
                /* a path's compact space is its n reachable boards */
                uint64_t want = kind == SPACE_FULL ? fact
                                : s.path_graph   ? (uint64_t)s.n
                                                 : fact / 2;
                assert_true(s.size == want);
                assert_int_equal(board_alloc(&b, s.rows, s.cols, &err), 0);
                for (uint64_t i = 0; i < s.size; i++)
                    check_index(&s, &b, i);
                /* the goal has index z_goal (t = identity has rank 0) */
                assert_true(space_rank(&s, &goal) == (uint64_t)zg);
                if (s.path_graph && s.m >= 2 && kind == SPACE_COMPACT) {
                    /* tiles out of goal order are not in a path's space */
                    int a = zg == 0 ? 1 : 0, c = zg == 1 || zg == 0 ? 2 : 1;
                    int x = goal.cells[a];
                    goal.cells[a] = goal.cells[c];
                    goal.cells[c] = x;
                    assert_false(space_contains(&s, &goal));
                }
                board_free(&b);
                board_free(&goal);
            }
}

static void test_random_large(void **state)
{
    (void)state;
    static const int shapes[][2] = {{3, 4}, {4, 3}, {2, 7}, {7, 2}, {4, 4}, {4, 5}, {5, 4}, {2, 10}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int kind = 0; kind < 2; kind++) {
            struct space s;
            struct board goal, b;
            slide_error err;
            make_space(&s, shapes[k][0], shapes[k][1], (int)k % (shapes[k][0] * shapes[k][1]),
                       (enum space_kind)kind, &goal);
            assert_int_equal(board_alloc(&b, s.rows, s.cols, &err), 0);
            for (int r = 0; r < 20000; r++)
                check_index(&s, &b, rng() % s.size);
            check_index(&s, &b, s.size - 1);
            check_index(&s, &b, 0);
            board_free(&b);
            board_free(&goal);
        }
}

static void test_limits(void **state)
{
    (void)state;
    struct board goal;
    struct space s;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 7, &err), 0);
    assert_int_equal(space_init(&s, &goal, SPACE_COMPACT, &err), SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "21 cells"));
    board_free(&goal);
    assert_int_equal(board_goal(&goal, 4, 5, &err), 0);
    assert_int_equal(space_init(&s, &goal, SPACE_FULL, &err), 0);
    assert_true(s.size == rank_factorial(20));
    board_free(&goal);
    assert_int_equal(space_kind_parse("compact"), SPACE_COMPACT);
    assert_int_equal(space_kind_parse("full"), SPACE_FULL);
    assert_int_equal(space_kind_parse("half"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_small), cmocka_unit_test(test_random_large),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
