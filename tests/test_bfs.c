/*
 * test_bfs.c - the two-bit BFS against a plain hash-set BFS written in the
 * test (testutil.h) and against published histograms (bfs.h).
 */
#include "testutil.h"

#include "slide/bfs.h"

struct run {
    struct space s;
    struct store st;
    struct bfs_result r;
    struct board goal;
    int forward; /* layers found by a forward pass */
};

static int count_forward(const struct bfs_layer *L, void *ctx)
{
    *(int *)ctx += !L->backward;
    return 0;
}

static void run_bfs_queue(struct run *x, int rows, int cols, int goal_blank,
                          enum space_kind kind, int threads, int no_backward,
                          int windows, int small_buckets, int queue)
{
    slide_error err;
    assert_int_equal(board_alloc(&x->goal, rows, cols, &err), 0);
    goal_with_blank(rows * cols, goal_blank, x->goal.cells);
    assert_int_equal(space_init(&x->s, &x->goal, kind, &err), 0);
    assert_int_equal(store_alloc(&x->st, x->s.size, &err), 0);
    x->forward = 0;
    struct bfs_options o = {.threads = threads, .no_backward = no_backward,
                            .on_layer = count_forward, .ctx = &x->forward,
                            .windows = windows, .small_buckets = small_buckets,
                            .queue = queue};
    int rc = bfs_run(&x->s, &x->st, &o, &x->r, &err);
    if (rc)
        fail_msg("bfs_run: %s", err.msg);
    assert_true(x->r.complete);
}

static void run_bfs_buckets(struct run *x, int rows, int cols, int goal_blank,
                            enum space_kind kind, int threads, int no_backward,
                            int windows, int small_buckets)
{
    run_bfs_queue(x, rows, cols, goal_blank, kind, threads, no_backward, windows,
                  small_buckets, 0);
}

static void run_bfs_windows(struct run *x, int rows, int cols, int goal_blank,
                            enum space_kind kind, int threads, int no_backward,
                            int windows)
{
    run_bfs_buckets(x, rows, cols, goal_blank, kind, threads, no_backward, windows, 0);
}

static void run_bfs(struct run *x, int rows, int cols, int goal_blank,
                    enum space_kind kind, int threads, int no_backward)
{
    run_bfs_windows(x, rows, cols, goal_blank, kind, threads, no_backward, 0);
}

static void free_run(struct run *x)
{
    store_free(&x->st);
    bfs_result_free(&x->r);
    board_free(&x->goal);
}

/* The search with 2 and 3 threads leaves the same histogram, first boards
 * and store, byte for byte, as x (1 thread, checked board by board). */
static void check_threads_same_store(const struct run *x, int rows, int cols,
                                     int goal_blank, enum space_kind kind, int windows)
{
    for (int threads = 2; threads <= 3; threads++) {
        struct run y;
        run_bfs_windows(&y, rows, cols, goal_blank, kind, threads, 0, windows);
        assert_int_equal(y.r.radius, x->r.radius);
        assert_memory_equal(y.r.hist, x->r.hist, (size_t)(x->r.radius + 1) * 8);
        assert_int_equal(y.r.nfirst, x->r.nfirst);
        assert_memory_equal(y.r.first, x->r.first, sizeof x->r.first);
        if (memcmp(y.st.words, x->st.words, x->st.nwords * 8) != 0)
            fail_msg("%dx%d blank %d %s: the store of %d threads differs from 1 thread's",
                     rows, cols, goal_blank, space_kind_name(kind), threads);
        free_run(&y);
    }
}

/* Histogram equals the naive BFS's, and every board's stored d mod 4 is
 * right, with 1 thread; 2 and 3 threads leave the same store.  windows and
 * queue as in bfs_options. */
static void check_naive_queue(int rows, int cols, int goal_blank,
                              enum space_kind kind, int windows, int queue)
{
    struct run x;
    uint64_t hist[160];
    struct naive_set set;
    run_bfs_queue(&x, rows, cols, goal_blank, kind, 1, 0, windows, 0, queue);
    int radius = naive_bfs(rows, cols, x.goal.cells, hist, 160, &set);
    assert_int_equal(x.r.radius, radius);
    for (int d = 0; d <= radius; d++)
        if (x.r.hist[d] != hist[d])
            fail_msg("%dx%d blank %d: distance %d: %llu boards, naive BFS %llu", rows,
                     cols, goal_blank, d, (unsigned long long)x.r.hist[d],
                     (unsigned long long)hist[d]);
    assert_true(x.r.reached == set.len);
    assert_true(x.r.reached == x.s.reachable);
    /* every reachable board: colour = d mod 2, closed bit = floor(d/2) mod 2 */
    struct board b;
    slide_error err;
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    int nfar = 0; /* the antipodes met so far, in index order */
    for (uint64_t i = 0; i < x.s.size; i++) {
        space_unrank(&x.s, i, &b);
        int d = naive_lookup(&set, naive_pack(b.cells, x.s.n));
        unsigned v = store_get(&x.st, i);
        if (d < 0) {
            assert_int_equal(v, STORE_UNVISITED);
            continue;
        }
        assert_int_equal(x.s.colour[i % (uint64_t)x.s.n], d & 1);
        assert_int_equal(v, (unsigned)(d / 2) & 1u);
        /* r.first: the BFS_KEEP smallest indexes at the radius */
        if (d == radius && nfar < BFS_KEEP) {
            assert_true(nfar < x.r.nfirst);
            if (x.r.first[nfar] != i)
                fail_msg("%dx%d: antipode %d is index %llu, naive BFS %llu", rows, cols,
                         nfar, (unsigned long long)x.r.first[nfar], (unsigned long long)i);
            nfar++;
        }
    }
    assert_int_equal(x.r.nfirst, nfar);
    board_free(&b);
    naive_free(&set);
    check_threads_same_store(&x, rows, cols, goal_blank, kind, windows);
    free_run(&x);
}

static void check_naive_windows(int rows, int cols, int goal_blank,
                                enum space_kind kind, int windows)
{
    check_naive_queue(rows, cols, goal_blank, kind, windows, 0);
}

static void check_against_naive(int rows, int cols, int goal_blank, enum space_kind kind)
{
    check_naive_windows(rows, cols, goal_blank, kind, 0);
}

static void test_naive_small(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {1, 6}, {6, 1}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int z = 0; z < shapes[k][0] * shapes[k][1]; z++)
            for (int kind = 0; kind < 2; kind++)
                check_against_naive(shapes[k][0], shapes[k][1], z, (enum space_kind)kind);
}

static void test_naive_3x3_2x5(void **state)
{
    (void)state;
    for (int z = 0; z < 9; z++)
        check_against_naive(3, 3, z, SPACE_COMPACT);
    check_against_naive(3, 3, 4, SPACE_FULL);
    check_against_naive(2, 5, 9, SPACE_COMPACT);
    check_against_naive(5, 2, 0, SPACE_COMPACT);
    check_against_naive(2, 5, 2, SPACE_COMPACT);
}

/* Both ways of finding vertical neighbours, each in every layer, forward
 * and backward (window tables of move_tables.h; board by board), against
 * the naive BFS (the last layers of each go backward): the shapes with at
 * least 6 tiles, every goal blank of 2x4, 4x2 and 3x3, and 2x5 and 5x2
 * with the blank in a corner and in the middle of a long side. */
static void test_naive_windows(void **state)
{
    (void)state;
    static const int shapes[][2] = {{2, 4}, {4, 2}, {3, 3}};
    for (int windows = -1; windows <= 1; windows += 2) {
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
            for (int z = 0; z < shapes[k][0] * shapes[k][1]; z++)
                check_naive_windows(shapes[k][0], shapes[k][1], z, SPACE_COMPACT,
                                    windows);
        check_naive_windows(2, 5, 9, SPACE_COMPACT, windows);
        check_naive_windows(5, 2, 5, SPACE_COMPACT, windows);
        check_naive_windows(2, 5, 2, SPACE_COMPACT, windows);
    }
}

/* A thread alone marks the targets of a store that fits the cache as it
 * finds them, and queues and prefetches those of a bigger one (bfs.c);
 * the tests' boards are all small, so the queue is forced here
 * (bfs_options.queue), and checked against the naive BFS the same way:
 * both ways of finding vertical neighbours, the full space, 2x5 and 5x2. */
static void test_naive_queue(void **state)
{
    (void)state;
    for (int windows = -1; windows <= 1; windows++) {
        check_naive_queue(2, 5, 9, SPACE_COMPACT, windows, 1);
        check_naive_queue(5, 2, 5, SPACE_COMPACT, windows, 1);
        check_naive_queue(3, 3, 4, SPACE_COMPACT, windows, 1);
    }
    check_naive_queue(3, 3, 4, SPACE_FULL, 0, 1);
    check_naive_queue(2, 4, 3, SPACE_FULL, 0, 1);
}

static void check_published(int rows, int cols, int goal_blank, const char *kind)
{
    uint64_t pub[160];
    int len = published_histogram(rows, cols, kind, pub, 160);
    if (len == 0)
        fail_msg("no published histogram for %dx%d %s in tests/data", rows, cols, kind);
    struct run x;
    run_bfs(&x, rows, cols, goal_blank, SPACE_COMPACT, 2, 0);
    assert_int_equal(x.r.radius + 1, len);
    for (int d = 0; d < len; d++)
        if (x.r.hist[d] != pub[d])
            fail_msg("%dx%d: distance %d: %llu boards, published %llu", rows, cols, d,
                     (unsigned long long)x.r.hist[d], (unsigned long long)pub[d]);
    free_run(&x);
}

static void test_published(void **state)
{
    (void)state;
    check_published(2, 2, 3, "corner");
    check_published(2, 3, 5, "corner");
    check_published(3, 2, 0, "corner");
    check_published(2, 4, 7, "corner");
    check_published(4, 2, 7, "corner");
    check_published(3, 3, 8, "corner");
    check_published(3, 3, 4, "centre (cell 4)");
    check_published(3, 3, 1, "mid-side edge cell");
    check_published(3, 3, 5, "mid-side edge cell");
    check_published(2, 5, 9, "corner");
    check_published(5, 2, 9, "corner");
}

/* 2x6 (239,500,800 boards, ~7 s): the only board of this test with six
 * columns, so the six-column rotation of the fast neighbour code is
 * checked against published numbers too. */
static void test_published_2x6(void **state)
{
    (void)state;
    check_published(2, 6, 11, "corner");
}

/*
 * Consistency (slide against slide, not an independent truth): on 2x6, the
 * smallest board with 6 columns, where most vertical moves cross the
 * window boundary, the window tables in every layer leave the same
 * histogram, first boards and store, byte for byte, as board by board in
 * every layer; test_published_2x6 checks the histogram against the
 * published one.
 */
static void test_windows_consistency_2x6(void **state)
{
    (void)state;
    struct run a, b;
    run_bfs_windows(&a, 2, 6, 11, SPACE_COMPACT, 2, 0, 1);
    run_bfs_windows(&b, 2, 6, 11, SPACE_COMPACT, 2, 0, -1);
    assert_int_equal(a.r.radius, b.r.radius);
    assert_memory_equal(a.r.hist, b.r.hist, (size_t)(a.r.radius + 1) * 8);
    assert_int_equal(a.r.nfirst, b.r.nfirst);
    assert_memory_equal(a.r.first, b.r.first, sizeof a.r.first);
    if (memcmp(a.st.words, b.st.words, a.st.nwords * 8) != 0)
        fail_msg("2x6: the store with window tables differs from board by board");
    free_run(&a);
    free_run(&b);
}

/* The published 3x3 antipodes for the standard goal. */
static void test_antipodes(void **state)
{
    (void)state;
    struct run x;
    run_bfs(&x, 3, 3, 8, SPACE_COMPACT, 2, 0);
    assert_int_equal(x.r.radius, 31);
    assert_int_equal(x.r.nfirst, 2);
    const char *want[] = {"6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"};
    struct board b;
    slide_error err;
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    for (int i = 0; i < 2; i++) {
        char buf[64];
        space_unrank(&x.s, x.r.first[i], &b);
        board_format(&b, buf, sizeof buf);
        int found = !strcmp(buf, want[0]) || !strcmp(buf, want[1]);
        if (!found)
            fail_msg("antipode %s is not published", buf);
    }
    assert_true(x.r.first[0] < x.r.first[1]);
    board_free(&b);
    free_run(&x);
}

/* Thread count and scan direction never change the histogram or the store. */
static void test_deterministic(void **state)
{
    (void)state;
    static const int shapes[][3] = {{2, 5, 9}, {3, 3, 4}, {4, 2, 1}};
    for (int k = 0; k < 3; k++) {
        struct run a, b, c;
        run_bfs(&a, shapes[k][0], shapes[k][1], shapes[k][2], SPACE_COMPACT, 1, 0);
        run_bfs(&b, shapes[k][0], shapes[k][1], shapes[k][2], SPACE_COMPACT, 2, 0);
        run_bfs(&c, shapes[k][0], shapes[k][1], shapes[k][2], SPACE_COMPACT, 3, 1);
        assert_int_equal(a.r.radius, b.r.radius);
        assert_int_equal(a.r.radius, c.r.radius);
        assert_memory_equal(a.r.hist, b.r.hist, (size_t)(a.r.radius + 1) * 8);
        assert_memory_equal(a.r.hist, c.r.hist, (size_t)(a.r.radius + 1) * 8);
        assert_memory_equal(a.st.words, b.st.words, a.st.nwords * 8);
        assert_memory_equal(a.st.words, c.st.words, a.st.nwords * 8);
        assert_int_equal(a.r.nfirst, b.r.nfirst);
        assert_int_equal(a.r.nfirst, c.r.nfirst);
        assert_memory_equal(a.r.first, b.r.first, sizeof a.r.first);
        assert_memory_equal(a.r.first, c.r.first, sizeof a.r.first);
        free_run(&a);
        free_run(&b);
        free_run(&c);
    }
}

/*
 * A forward pass of several threads puts the targets outside the word being
 * scanned in buckets by the owner of their chunk, which marks them in apply
 * phases (buckets.h); with the smallest buckets those come many times a
 * layer.  So run, 2, 3 and 4 threads leave the same histogram, first boards
 * and store as 1 thread (whose search test_naive_3x3_2x5 checks board by
 * board against the naive BFS: this is a consistency test), and there were
 * more apply phases than forward passes, so some came in the middle of a
 * pass (one ends each forward pass: the layers found forward, and perhaps
 * the last pass, which finds nothing).  2x5 and 5x2 (2 and 5 columns,
 * window tables in the dense layers), and 2x5 board by board.
 */
static void test_small_buckets(void **state)
{
    (void)state;
    static const int shapes[][4] = {{2, 5, 9, 0}, {5, 2, 0, 0}, {2, 5, 9, -1}};
    for (int k = 0; k < 3; k++) {
        const int *sh = shapes[k];
        struct run a;
        run_bfs_windows(&a, sh[0], sh[1], sh[2], SPACE_COMPACT, 1, 0, sh[3]);
        assert_true(a.r.applies == 0); /* one thread marks every target itself */
        for (int threads = 2; threads <= 4; threads++) {
            struct run b;
            run_bfs_buckets(&b, sh[0], sh[1], sh[2], SPACE_COMPACT, threads, 0, sh[3], 1);
            assert_int_equal(b.r.radius, a.r.radius);
            assert_memory_equal(b.r.hist, a.r.hist, (size_t)(a.r.radius + 1) * 8);
            assert_int_equal(b.r.nfirst, a.r.nfirst);
            assert_memory_equal(b.r.first, a.r.first, sizeof a.r.first);
            if (memcmp(b.st.words, a.st.words, a.st.nwords * 8) != 0)
                fail_msg("%dx%d, %d threads, small buckets: the store differs from 1 thread's",
                         sh[0], sh[1], threads);
            if (b.r.threads == threads && b.r.applies <= (uint64_t)b.forward + 1)
                fail_msg("%dx%d, %d threads: %llu apply phases, %d forward passes",
                         sh[0], sh[1], threads, (unsigned long long)b.r.applies,
                         b.forward + 1);
            free_run(&b);
        }
        free_run(&a);
    }
}

/* on_layer sees every layer; bfs_visit_frontier visits exactly that layer. */
struct layer_check {
    const struct space *s;
    const struct store *st;
    const struct naive_set *set;
    uint64_t visits, wrong;
    int layers;
    int depth;
};

static void visit(void *ctx, int thread, uint64_t index)
{
    (void)thread;
    struct layer_check *c = ctx;
    struct board b;
    slide_error err;
    board_alloc(&b, c->s->rows, c->s->cols, &err);
    space_unrank(c->s, index, &b);
    int d = naive_lookup(c->set, naive_pack(b.cells, c->s->n));
#pragma omp atomic
    c->visits++;
    if (d != c->depth) {
#pragma omp atomic
        c->wrong++;
    }
    board_free(&b);
}

static int on_layer(const struct bfs_layer *L, void *ctx)
{
    struct layer_check *c = ctx;
    c->depth = L->depth;
    uint64_t n = bfs_visit_frontier(c->s, c->st, L->depth, 2, visit, c);
    assert_true(n == L->count);
    c->layers++;
    return 0;
}

static void test_layer_visits(void **state)
{
    (void)state;
    struct run x;
    uint64_t hist[64];
    struct naive_set set;
    slide_error err;
    assert_int_equal(board_goal(&x.goal, 3, 3, &err), 0);
    naive_bfs(3, 3, x.goal.cells, hist, 64, &set);
    assert_int_equal(space_init(&x.s, &x.goal, SPACE_COMPACT, &err), 0);
    assert_int_equal(store_alloc(&x.st, x.s.size, &err), 0);
    struct layer_check c = {&x.s, &x.st, &set, 0, 0, 0, 0};
    struct bfs_options o = {.threads = 2, .on_layer = on_layer, .ctx = &c};
    assert_int_equal(bfs_run(&x.s, &x.st, &o, &x.r, &err), 0);
    assert_int_equal(c.layers, 32);
    assert_true(c.visits == 181440);
    assert_true(c.wrong == 0);
    naive_free(&set);
    free_run(&x);
}

/* Stopping at a layer boundary and resuming gives the uninterrupted result. */
static int stop_at_20(const struct bfs_layer *L, void *ctx)
{
    (void)ctx;
    return L->depth == 20;
}

/* Stop 2x5 (blank 9) by o.on_layer after distance `stop`, resume it with
 * `threads` threads (all chunk flags set again), and compare the store and
 * histogram with a search that was never stopped.  Consistency: both are
 * slide's; the uninterrupted histogram's truth is test_published. */
static void check_stop_resume(struct bfs_options o, int stop, int threads)
{
    struct run a, x;
    slide_error err;
    run_bfs(&a, 2, 5, 9, SPACE_COMPACT, 2, 0);
    assert_int_equal(board_goal(&x.goal, 2, 5, &err), 0);
    assert_int_equal(space_init(&x.s, &x.goal, SPACE_COMPACT, &err), 0);
    assert_int_equal(store_alloc(&x.st, x.s.size, &err), 0);
    assert_int_equal(bfs_run(&x.s, &x.st, &o, &x.r, &err), SLIDE_EINTR);
    assert_int_equal(x.r.radius, stop);
    o.threads = threads;
    o.on_layer = NULL;
    assert_int_equal(bfs_resume(&x.s, &x.st, &o, &x.r, &err), 0);
    assert_int_equal(x.r.radius, a.r.radius);
    assert_memory_equal(x.r.hist, a.r.hist, (size_t)(a.r.radius + 1) * 8);
    assert_memory_equal(x.st.words, a.st.words, a.st.nwords * 8);
    free_run(&a);
    free_run(&x);
}

static void test_stop_resume(void **state)
{
    (void)state;
    check_stop_resume((struct bfs_options){.threads = 2, .on_layer = stop_at_20}, 20, 2);
}

/* Stops after distance 48 of 2x5, which a backward layer found (ctx: set
 * to 1 when it was). */
static int stop_at_48_backward(const struct bfs_layer *L, void *ctx)
{
    if (L->depth != 48)
        return 0;
    *(int *)ctx = L->backward;
    return 1;
}

/* With the window tables in every layer, stopped among the backward layers
 * with 2 threads and resumed with 3. */
static void test_stop_resume_backward(void **state)
{
    (void)state;
    int backward = 0;
    check_stop_resume((struct bfs_options){.threads = 2, .on_layer = stop_at_48_backward,
                                         .ctx = &backward, .windows = 1},
                      48, 3);
    assert_int_equal(backward, 1);
}

static void test_bad_store(void **state)
{
    (void)state;
    struct run x;
    slide_error err;
    assert_int_equal(board_goal(&x.goal, 2, 3, &err), 0);
    assert_int_equal(space_init(&x.s, &x.goal, SPACE_COMPACT, &err), 0);
    assert_int_equal(store_alloc(&x.st, x.s.size - 1, &err), 0);
    struct bfs_options o = {.threads = 1};
    assert_int_equal(bfs_run(&x.s, &x.st, &o, &x.r, &err), SLIDE_EINVAL);
    free_run(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_small),  cmocka_unit_test(test_naive_3x3_2x5),
        cmocka_unit_test(test_naive_windows), cmocka_unit_test(test_windows_consistency_2x6),
        cmocka_unit_test(test_published),    cmocka_unit_test(test_published_2x6),
        cmocka_unit_test(test_antipodes),
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_small_buckets),
        cmocka_unit_test(test_naive_queue),
        cmocka_unit_test(test_layer_visits),
        cmocka_unit_test(test_stop_resume),  cmocka_unit_test(test_stop_resume_backward),
        cmocka_unit_test(test_bad_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
