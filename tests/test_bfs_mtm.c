/*
 * test_bfs_mtm.c - the two-bit BFS in the multi-tile metric (bfs.h,
 * bfs_options.metric = METRIC_MTM) against a plain hash-set BFS written in
 * the test (testutil.h: naive_bfs_metric with naive_neighbours_mtm, which
 * moves the blank one cell at a time and shares no code with slide's rank
 * arithmetic), histogram term by term and every board's distance, for
 * every board of up to 10 cells and several goal blanks; the same store for
 * 1, 2 and 3 threads (a consistency test); a stopped search resumed; and
 * the test's own generator against the published 4x4 MTM counts (OEIS
 * A389728, tests/data/mtm-published.tsv).
 */
#include "testutil.h"

#include "slide/bfs.h"

/* Each board's distance, from the layer callback (bfs_visit_frontier). */
struct layers {
    const struct space *s;
    const struct store *st;
    uint8_t *dist;  /* 255: not seen */
    int stop_at;    /* stop the search after this layer (-1: never) */
};

struct visit_ctx {
    uint8_t *dist;
    int depth;
};

static void visit_depth(void *ctx, int thread, uint64_t index)
{
    (void)thread;
    struct visit_ctx *v = ctx;
    if (v->dist[index] != 255)
        fail_msg("index %llu visited at distance %d and %d", (unsigned long long)index,
                 v->dist[index], v->depth);
    v->dist[index] = (uint8_t)v->depth;
}

static int on_layer(const struct bfs_layer *L, void *ctx)
{
    struct layers *x = ctx;
    struct visit_ctx v = {x->dist, L->depth};
    uint64_t seen = bfs_visit_frontier(x->s, x->st, L->depth, 1, visit_depth, &v);
    assert_true(seen == L->count);
    return L->depth == x->stop_at;
}

struct run {
    struct space s;
    struct store st;
    struct bfs_result r;
    struct board goal;
    uint8_t *dist;
};

static void start(struct run *x, int rows, int cols, int goal_blank, enum space_kind kind)
{
    slide_error err;
    assert_int_equal(board_alloc(&x->goal, rows, cols, &err), 0);
    goal_with_blank(rows * cols, goal_blank, x->goal.cells);
    assert_int_equal(space_init(&x->s, &x->goal, kind, &err), 0);
    assert_int_equal(store_alloc(&x->st, x->s.size, &err), 0);
    x->dist = malloc(x->s.size);
    assert_non_null(x->dist);
    memset(x->dist, 255, x->s.size);
}

/* MTM search of a fresh run x with these options (threads, small buckets,
 * queue); stop_at as struct layers. */
static int search(struct run *x, int threads, int small, int queue, int stop_at,
                  slide_error *err)
{
    struct layers L = {&x->s, &x->st, x->dist, stop_at};
    struct bfs_options o = {.threads = threads, .on_layer = on_layer, .ctx = &L,
                            .small_buckets = small, .queue = queue,
                            .metric = METRIC_MTM};
    return bfs_run(&x->s, &x->st, &o, &x->r, err);
}

static void run_mtm(struct run *x, int rows, int cols, int goal_blank, enum space_kind kind,
                    int threads, int small, int queue)
{
    slide_error err;
    start(x, rows, cols, goal_blank, kind);
    if (search(x, threads, small, queue, -1, &err))
        fail_msg("bfs_run: %s", err.msg);
    assert_true(x->r.complete);
    assert_int_equal(x->r.metric, METRIC_MTM);
}

static void free_run(struct run *x)
{
    store_free(&x->st);
    bfs_result_free(&x->r);
    board_free(&x->goal);
    free(x->dist);
}

/* y's result, store and distances are x's (a consistency test). */
static void assert_same(const struct run *x, const struct run *y)
{
    assert_int_equal(y->r.radius, x->r.radius);
    assert_memory_equal(y->r.hist, x->r.hist, (size_t)(x->r.radius + 1) * 8);
    assert_int_equal(y->r.nfirst, x->r.nfirst);
    assert_memory_equal(y->r.first, x->r.first, sizeof x->r.first);
    assert_memory_equal(y->st.words, x->st.words, x->st.nwords * 8);
    assert_memory_equal(y->dist, x->dist, x->s.size);
}

/* Histogram, every board's distance and the first antipodes equal the naive
 * MTM BFS's (1 thread); 2 and 3 threads, with small buckets or not, and a
 * thread alone queueing its targets leave the same store and result. */
static void check_mtm(int rows, int cols, int goal_blank, enum space_kind kind)
{
    struct run x;
    uint64_t hist[160];
    struct naive_set set;
    run_mtm(&x, rows, cols, goal_blank, kind, 1, 0, 0);
    int radius = naive_bfs_metric(rows, cols, x.goal.cells, hist, 160, &set, 1, -1,
                                  (size_t)x.s.reachable);
    if (x.r.radius != radius)
        fail_msg("%dx%d blank %d %s: radius %d, naive MTM BFS %d", rows, cols, goal_blank,
                 space_kind_name(kind), x.r.radius, radius);
    for (int d = 0; d <= radius; d++)
        if (x.r.hist[d] != hist[d])
            fail_msg("%dx%d blank %d: distance %d: %llu boards, naive MTM BFS %llu", rows,
                     cols, goal_blank, d, (unsigned long long)x.r.hist[d],
                     (unsigned long long)hist[d]);
    assert_true(x.r.reached == set.len && x.r.reached == x.s.reachable);
    struct board b;
    slide_error err;
    assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
    int nfar = 0;
    for (uint64_t i = 0; i < x.s.size; i++) {
        space_unrank(&x.s, i, &b);
        int d = naive_lookup(&set, naive_pack(b.cells, x.s.n));
        unsigned v = store_get(&x.st, i);
        if (d < 0) { /* the full space's other half */
            assert_int_equal(v, STORE_UNVISITED);
            assert_int_equal(x.dist[i], 255);
            continue;
        }
        if (x.dist[i] != d)
            fail_msg("%dx%d blank %d: index %llu at distance %d, naive MTM BFS %d", rows,
                     cols, goal_blank, (unsigned long long)i, x.dist[i], d);
        assert_int_equal(v, 0); /* closed */
        if (d == radius && nfar < BFS_KEEP) {
            assert_true(nfar < x.r.nfirst && x.r.first[nfar] == i);
            nfar++;
        }
    }
    assert_int_equal(x.r.nfirst, nfar);
    board_free(&b);
    naive_free(&set);
    static const int ways[][3] = {{2, 0, 0}, {3, 0, 0}, {2, 1, 0}, {3, 1, 0}, {1, 0, 1}};
    for (size_t k = 0; k < sizeof ways / sizeof ways[0]; k++) {
        struct run y;
        run_mtm(&y, rows, cols, goal_blank, kind, ways[k][0], ways[k][1], ways[k][2]);
        assert_same(&x, &y);
        free_run(&y);
    }
    free_run(&x);
}

/* Every board of 2 to 10 cells: paths, 2 rows, 2 columns, 3x3. */
static void test_paths(void **state)
{
    (void)state;
    for (int n = 2; n <= 10; n++) {
        check_mtm(1, n, n - 1, SPACE_COMPACT);
        check_mtm(n, 1, 0, SPACE_COMPACT);
        check_mtm(1, n, n / 2, SPACE_COMPACT);
    }
}

static void test_two_rows(void **state)
{
    (void)state;
    for (int c = 2; c <= 5; c++)
        for (int z = 0; z < 2 * c; z += (c > 3 ? 3 : 1)) {
            check_mtm(2, c, z, SPACE_COMPACT);
            check_mtm(c, 2, z, SPACE_COMPACT);
        }
}

static void test_3x3(void **state)
{
    (void)state;
    check_mtm(3, 3, 8, SPACE_COMPACT); /* corner */
    check_mtm(3, 3, 4, SPACE_COMPACT); /* centre */
    check_mtm(3, 3, 1, SPACE_COMPACT); /* mid-side */
}

static void test_full_space(void **state)
{
    (void)state;
    check_mtm(2, 3, 5, SPACE_FULL);
    check_mtm(3, 2, 2, SPACE_FULL);
    check_mtm(2, 4, 0, SPACE_FULL);
}

/* A search stopped after layer 9 and resumed equals one run through; it
 * cannot be resumed in the other metric. */
static void test_stop_resume(void **state)
{
    (void)state;
    struct run x, y;
    slide_error err;
    run_mtm(&x, 3, 3, 8, SPACE_COMPACT, 2, 0, 0);
    start(&y, 3, 3, 8, SPACE_COMPACT);
    assert_int_equal(search(&y, 2, 0, 0, 9, &err), SLIDE_EINTR);
    assert_int_equal(y.r.radius, 9);
    struct bfs_options stm = {.threads = 1};
    assert_int_equal(bfs_resume(&y.s, &y.st, &stm, &y.r, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "multi-tile"));
    struct layers L = {&y.s, &y.st, y.dist, -1};
    struct bfs_options mtm = {.threads = 3, .on_layer = on_layer, .ctx = &L,
                              .metric = METRIC_MTM};
    assert_int_equal(bfs_resume(&y.s, &y.st, &mtm, &y.r, &err), SLIDE_OK);
    assert_same(&x, &y);
    free_run(&x);
    free_run(&y);
}

/* The published 4x4 MTM counts, from a corner blank (tests/data): the test's
 * own MTM generator, so that the comparisons above rest on a checked one. */
static void test_naive_published(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_DATA_DIR "/mtm-published.tsv", "r");
    assert_non_null(f);
    char line[4096];
    uint64_t pub[64];
    int npub = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "4x4\tcorner\t", 11) != 0)
            continue;
        for (char *p = line + 11; npub < 64 && *p && *p != '\t';) {
            pub[npub++] = strtoull(p, &p, 10);
            if (*p == ',')
                p++;
        }
    }
    fclose(f);
    assert_true(npub >= 10);
    int goal[16];
    goal_with_blank(16, 15, goal);
    uint64_t hist[64];
    struct naive_set set;
    int depth = 9;
    naive_bfs_metric(4, 4, goal, hist, 64, &set, 1, depth, 1u << 17);
    for (int d = 0; d <= depth; d++)
        if (hist[d] != pub[d])
            fail_msg("4x4 MTM distance %d: naive %llu, A389728 %llu", d,
                     (unsigned long long)hist[d], (unsigned long long)pub[d]);
    naive_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_published), cmocka_unit_test(test_paths),
        cmocka_unit_test(test_two_rows),        cmocka_unit_test(test_3x3),
        cmocka_unit_test(test_full_space),      cmocka_unit_test(test_stop_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
