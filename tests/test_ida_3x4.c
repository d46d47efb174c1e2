/*
 * test_ida_3x4.c - IDA* with lc on 200 random 3x4 boards against exact
 * distances computed by the test itself: a plain hash-set BFS ball of radius
 * BALL around the goal and, from each board, a plain BFS until it meets the
 * ball (naive_distance_by_ball in testutil.h; none of slide's indexing).
 * A consistency check beside it: the same distances read off slide's
 * two-bit BFS (the boards at distance d are the frontier entries of colour
 * d mod 2 when layer d is reported), whose layer counts are checked against
 * the published 3x4 histogram (tests/data/histograms.tsv).  Kept apart from
 * test_ida because the BFS takes ~30 s on 2 cores.
 */
#include "testutil.h"

#include "slide/bfs.h"
#include "slide/ida.h"
#include "slide/rng.h"

#define BOARDS 200
/* Radius of the goal's ball: 1,330,811 boards at distance <= 22 (published
 * 3x4 histogram), in a set of 2^22 entries. */
#define BALL 22
#define BALL_CAP ((size_t)1 << 22)

struct targets {
    const struct space *s;
    const struct store *st;
    uint64_t index[BOARDS];
    int dist[BOARDS];
};

static int read_layer(const struct bfs_layer *layer, void *ctx)
{
    struct targets *t = ctx;
    for (int i = 0; i < BOARDS; i++) {
        int z = (int)(t->index[i] % (uint64_t)t->s->n);
        if (t->dist[i] < 0 && t->s->colour[z] == layer->depth % 2 &&
            store_get(t->st, t->index[i]) == STORE_FRONTIER)
            t->dist[i] = layer->depth;
    }
    return 0;
}

static void test_3x4_lc_random_200(void **state)
{
    (void)state;
    static struct targets t;
    struct board goal, b;
    struct space s;
    struct store st;
    struct bfs_result res;
    slide_error err;
    struct rng g;
    assert_int_equal(board_goal(&goal, 3, 4, &err), 0);
    assert_int_equal(space_init(&s, &goal, SPACE_COMPACT, &err), 0);
    assert_int_equal(store_alloc(&st, s.size, &err), 0);
    rng_seed(&g, 34);
    t.s = &s;
    t.st = &st;
    for (int i = 0; i < BOARDS; i++) {
        t.index[i] = rng_below(&g, s.size); /* every compact index is solvable */
        t.dist[i] = -1;
    }
    struct bfs_options o = {.on_layer = read_layer, .ctx = &t};
    assert_int_equal(bfs_run(&s, &st, &o, &res, &err), 0);
    uint64_t published[64];
    int layers = published_histogram(3, 4, "corner", published, 64);
    assert_int_equal(layers, 54);
    assert_int_equal(res.radius, layers - 1);
    for (int d = 0; d < layers; d++)
        assert_int_equal(res.hist[d], published[d]);
    bfs_result_free(&res);
    store_free(&st);

    struct naive_set ball;
    uint64_t within = 0;
    for (int d = 0; d <= BALL; d++)
        within += published[d];
    assert_int_equal(naive_ball(3, 4, goal.cells, BALL, BALL_CAP, &ball), within);

    struct ida_heuristic h;
    assert_int_equal(ida_heuristic_open(&h, "lc", &goal, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 4, &err), 0);
    for (int i = 0; i < BOARDS; i++) {
        struct ida_result r;
        space_unrank(&s, t.index[i], &b);
        assert_true(t.dist[i] >= 0);
        if (ida_solve(&b, &goal, &h, NULL, &r, &err))
            fail_msg("board %d: %s", i, err.msg);
        int truth = naive_distance_by_ball(3, 4, b.cells, &ball, BALL_CAP);
        if (r.length != truth)
            fail_msg("board %d: IDA* %d, the test's plain BFS %d", i, r.length, truth);
        if (t.dist[i] != truth) /* consistency: slide's two-bit BFS */
            fail_msg("board %d: two-bit BFS %d, the test's plain BFS %d", i, t.dist[i],
                     truth);
        int z = board_blank(&b);
        for (int m = 0; m < r.length; m++)
            assert_int_equal(board_move(&b, &z, (enum move)r.moves[m]), 0);
        assert_true(board_equal(&b, &goal));
        ida_result_free(&r);
    }
    ida_heuristic_close(&h);
    naive_free(&ball);
    board_free(&b);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x4_lc_random_200),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
