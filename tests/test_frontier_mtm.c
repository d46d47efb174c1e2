/*
 * test_frontier_mtm.c - the frontier search in the multi-tile metric
 * (frontier.h with METRIC_MTM: the blank jumps along its row or column;
 * layers d-1 and d subtracted), with rank keys and moved keys.
 *
 * Independent truths: the keys' neighbours against jumps made here by
 * swapping the blank with the next cell, one cell at a time; the plain MTM
 * BFS of testutil.h (naive_mtm_bfs: a hash map from arrangement to
 * distance), layer by layer and board by board, on every board of 2 to 10
 * cells; a brute-force MTM BFS over whole boards (brute_big.h) for the
 * first layers of 6x6 and 5x6; the published 4x4 counts (OEIS A389728,
 * tests/data/mtm-published.tsv).  Consistency tests (slide against slide):
 * the two-bit BFS in MTM (results/mtm/3x4.csv, made by slide bfs --metric
 * mtm), rank keys against moved keys layer by layer, 1 against 3 threads,
 * on disk, and a resumed checkpoint.
 */
#include "testutil.h"
#include "brute_big.h"
#include "frontier_layers.h"
#include "mtm_naive.h"

#include <unistd.h>

#include "slide/frontier.h"
#include "slide/frontier_checkpoint.h"

static void start(struct frontier_search *f, const struct board *g, enum frontier_keys keys,
                  const char *dir)
{
    slide_error err;
    if (frontier_init_metric(f, g, keys, METRIC_MTM, dir, &err))
        fail_msg("frontier_init_metric: %s", err.msg);
    assert_int_equal(f->metric, METRIC_MTM);
}

struct run_opts {
    int threads;
    uint64_t buffer;
    const char *dir;
    uint64_t max_memory; /* 1: every step on disk in dir */
    int passes;          /* frontier_options.passes */
};

static void run(struct frontier_search *f, const struct board *g, enum frontier_keys keys,
                int depth, const struct run_opts *o)
{
    slide_error err;
    start(f, g, keys, o->dir);
    struct frontier_options fo = {o->threads, depth, o->buffer, o->max_memory, 0, NULL, NULL,
                                  o->passes};
    if (frontier_run(f, &fo, &err))
        fail_msg("frontier_run: %s", err.msg);
}

/* Call fn on every board of layer s (distance depth) of f. */
static void each_board(const struct frontier_search *f, const struct fstream *s, int depth,
                       void (*fn)(const struct board *, void *), void *ctx)
{
    slide_error err;
    struct board b;
    size_t len = frontier_key_bytes(f, depth);
    unsigned char *keys = malloc(FSTREAM_BLOCK * (len > sizeof(fkey) ? len : sizeof(fkey)));
    assert_non_null(keys);
    assert_int_equal(board_alloc(&b, f->ks.rows, f->ks.cols, &err), 0);
    uint64_t seen = 0;
    for (size_t blk = 0; blk < s->nblocks; blk++) {
        int n = f->moved ? fstream_read_block_bytes(s, blk, keys, len, &err)
                         : fstream_read_block(s, blk, (fkey *)keys, &err);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            if (f->moved)
                fmoved_board(&f->ms, keys + (size_t)i * len, &b);
            else
                fkey_board(&f->ks, ((fkey *)keys)[i], &b);
            fn(&b, ctx);
        }
        seen += (uint64_t)n;
    }
    assert_true(seen == s->count);
    board_free(&b);
    free(keys);
}

/* ---- neighbours ---------------------------------------------------------- */

/* The keys of the boards one MTM move from b, made here: the blank swapped
 * with the next cell in one direction until the edge, every board met one
 * move away.  Returns how many; keys sorted. */
static int jumps(const struct frontier_search *f, const struct board *b, unsigned char *out,
                 size_t len)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    slide_error err;
    struct board c;
    assert_int_equal(board_alloc(&c, b->rows, b->cols, &err), 0);
    int n = 0, cols = b->cols, z = board_blank(b);
    for (int m = 0; m < 4; m++) {
        memcpy(c.cells, b->cells, (size_t)board_cells(b) * sizeof *c.cells);
        for (int r = z / cols, q = z % cols;;) {
            int r2 = r + dr[m], q2 = q + dc[m];
            if (r2 < 0 || r2 >= b->rows || q2 < 0 || q2 >= cols)
                break;
            c.cells[r * cols + q] = c.cells[r2 * cols + q2];
            c.cells[r2 * cols + q2] = 0;
            if (f->moved) {
                assert_int_equal(fmoved_encode(&f->ms, &c, out + (size_t)n * len, len), 0);
            } else {
                fkey k = fkey_of_board(&f->ks, &c);
                memcpy(out + (size_t)n * len, &k, sizeof k);
            }
            n++;
            r = r2;
            q = q2;
        }
    }
    board_free(&c);
    return n;
}

static size_t sort_len;
static int cmp_len(const void *a, const void *b) { return memcmp(a, b, sort_len); }

/*
 * Random walks: at every board, the neighbours the keys give (rank keys up
 * to 34 cells, moved keys on every size) are the boards jumps() makes.
 */
static void test_neighbours_against_jumps(void **state)
{
    (void)state;
    static const int dims[][2] = {{2, 2}, {1, 6}, {5, 1}, {3, 4}, {4, 4}, {5, 5},
                                  {2, 17}, {6, 6}, {10, 10}, {40, 40}};
    slide_error err;
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        for (int moved = 0; moved < 2; moved++) {
            int rows = dims[i][0], cols = dims[i][1], n = rows * cols;
            if (!moved && n > FKEY_MAX_CELLS)
                continue;
            struct board g, b;
            struct frontier_search f;
            goal_board(&g, rows, cols, (int)(test_rng(&seed) % (uint64_t)n));
            start(&f, &g, moved ? FRONTIER_KEYS_MOVED : FRONTIER_KEYS_RANK, NULL);
            assert_int_equal(f.moves.max, rows + cols - 2 > 0 ? rows + cols - 2 : 1);
            /* 25 jumps: 40x40's keys hold 25 * 39 pairs (FMOVED_MAX_PAIRS) */
            size_t len = moved ? frontier_key_bytes(&f, 25) : sizeof(fkey);
            assert_true(len > 0);
            unsigned char *key = malloc(len), *got = malloc((size_t)(rows + cols) * len),
                          *want = malloc((size_t)(rows + cols) * len);
            assert_int_equal(board_alloc(&b, rows, cols, &err), 0);
            memcpy(b.cells, g.cells, (size_t)n * sizeof *b.cells);
            for (int step = 0; step < 24; step++) {
                int k;
                if (moved) {
                    assert_int_equal(fmoved_encode(&f.ms, &b, key, len), 0);
                    k = fmoved_neighbours(&f.ms, &f.moves, key, len, got);
                } else {
                    fkey kk = fkey_of_board(&f.ks, &b), nb[2 * 64];
                    k = fkey_neighbours(&f.ks, &f.moves, kk, nb);
                    for (int j = 0; j < k; j++)
                        memcpy(got + (size_t)j * len, &nb[j], sizeof nb[j]);
                }
                int m = jumps(&f, &b, want, len);
                assert_int_equal(k, m);
                sort_len = len;
                qsort(got, (size_t)k, len, cmp_len);
                qsort(want, (size_t)m, len, cmp_len);
                assert_int_equal(memcmp(got, want, (size_t)k * len), 0);
                int pick = (int)(test_rng(&seed) % (uint64_t)k); /* one jump on */
                if (moved) {
                    fmoved_board(&f.ms, got + (size_t)pick * len, &b);
                } else {
                    fkey kk;
                    memcpy(&kk, got + (size_t)pick * len, sizeof kk);
                    fkey_board(&f.ks, kk, &b);
                }
            }
            free(key);
            free(got);
            free(want);
            board_free(&b);
            frontier_free(&f);
            board_free(&g);
        }
}

/* ---- against the plain MTM BFS, board by board -------------------------- */

struct naive_ctx {
    const struct naive_set *set;
    int n, depth;
    uint64_t wrong;
};

static void naive_check(const struct board *b, void *ctx)
{
    struct naive_ctx *c = ctx;
    if (naive_lookup(c->set, naive_pack(b->cells, c->n)) != c->depth)
        c->wrong++;
}

/* Step by step to the end: every layer has the count of the plain BFS and
 * each of its boards is at that distance there (so the layers are the same
 * sets); the radius and the boards reached are the same. */
static void check_against_naive(int rows, int cols, int blank, enum frontier_keys keys,
                                const struct naive_set *set, const uint64_t *hist, int radius)
{
    slide_error err;
    struct board g;
    struct frontier_search f;
    goal_board(&g, rows, cols, blank);
    start(&f, &g, keys, NULL);
    /* one thread: on small layers a second one mostly waits (its thread
     * tests are below) */
    struct frontier_options o = {1, -1, 0, 0, 0, NULL, NULL, 0};
    struct naive_ctx c = {set, rows * cols, 0, 0};
    while (!f.complete) {
        assert_int_equal(frontier_step(&f, &o, &err), 0);
        if (f.complete)
            break;
        c.depth = f.depth;
        each_board(&f, &f.cur, f.depth, naive_check, &c);
        if (f.depth > radius || f.cur.count != hist[f.depth] || c.wrong)
            fail_msg("%dx%d blank %d %s keys distance %d: %llu boards (%llu not at that "
                     "distance in the plain BFS), plain BFS %llu", rows, cols, blank,
                     f.moved ? "moved" : "rank", f.depth, (unsigned long long)f.cur.count,
                     (unsigned long long)c.wrong,
                     (unsigned long long)(f.depth <= radius ? hist[f.depth] : 0));
    }
    assert_int_equal(frontier_radius(&f), radius);
    assert_true(f.reached == set->len);
    frontier_free(&f);
    board_free(&g);
}

/* Every board of 2 to 10 cells; the goal's blank on every cell up to 9
 * cells, on the last cell of the 10-cell boards (1.8 million boards each);
 * both key kinds. */
static void test_against_naive_small(void **state)
{
    (void)state;
    for (int rows = 1; rows <= 10; rows++)
        for (int cols = 1; rows * cols <= 10; cols++) {
            int n = rows * cols;
            if (n < 2)
                continue;
            for (int z = 0; z < n; z++) {
                if (n == 10 && z != n - 1)
                    continue;
                int goal[16];
                uint64_t hist[64];
                struct naive_set set;
                goal_with_blank(n, z, goal);
                int radius = naive_mtm_bfs(rows, cols, goal, hist, 64, &set);
                check_against_naive(rows, cols, z, FRONTIER_KEYS_RANK, &set, hist, radius);
                check_against_naive(rows, cols, z, FRONTIER_KEYS_MOVED, &set, hist, radius);
                naive_free(&set);
            }
        }
}

/* ---- big boards: brute force and the two key kinds ----------------------- */

/* 6x6 (36 cells: moved keys only) and 5x6 (30 cells: both kinds), the
 * blank in a corner and inside: the first layers against brute_layers. */
static void test_big_boards_against_brute_force(void **state)
{
    (void)state;
    static const int dims[][3] = {{6, 6, 5}, {5, 6, 5}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int rows = dims[i][0], cols = dims[i][1], depth = dims[i][2];
        int blanks[2] = {rows * cols - 1, (rows / 2) * cols + cols / 2};
        for (int j = 0; j < 2; j++) {
            uint64_t hist[16];
            brute_layers(rows, cols, blanks[j], depth, hist, 1);
            for (int moved = 0; moved < 2; moved++) {
                if (!moved && rows * cols > FKEY_MAX_CELLS)
                    continue;
                struct board g;
                struct frontier_search f;
                struct run_opts o = {2, 0, NULL, 0, 0};
                goal_board(&g, rows, cols, blanks[j]);
                run(&f, &g, moved ? FRONTIER_KEYS_MOVED : FRONTIER_KEYS_RANK, depth, &o);
                for (int d = 0; d <= depth; d++)
                    if (f.hist[d] != hist[d])
                        fail_msg("%dx%d blank %d distance %d: %llu, brute force %llu", rows,
                                 cols, blanks[j], d, (unsigned long long)f.hist[d],
                                 (unsigned long long)hist[d]);
                frontier_free(&f);
                board_free(&g);
            }
        }
    }
}

/* Rank and moved keys: the same set of boards, layer by layer
 * (frontier_layers.h); 6x6 has too many cells for rank keys, 5x6 not. */
static void test_rank_and_moved_keys(void **state)
{
    (void)state;
    check_layers_equal(4, 4, 15, 10, METRIC_MTM);
    check_layers_equal(4, 4, 5, 9, METRIC_MTM);
    check_layers_equal(5, 6, 29, 5, METRIC_MTM);
    check_layers_equal(3, 4, 0, 12, METRIC_MTM);
}

/* ---- the two-bit BFS in MTM and the published counts -------------------- */

/* The first layers of 3x4 equal slide bfs --metric mtm's histogram in
 * results/mtm/3x4.csv (the whole search: scripts/results-mtm-frontier.sh). */
static void test_3x4_against_bfs(void **state)
{
    (void)state;
    FILE *in = fopen(TEST_DATA_DIR "/../../results/mtm/3x4.csv", "r");
    assert_non_null(in);
    char line[512];
    uint64_t want[64];
    int n = 0, d;
    unsigned long long count;
    while (fgets(line, sizeof line, in))
        if (sscanf(line, "%d,%llu", &d, &count) == 2 && d == n && n < 64)
            want[n++] = count;
    fclose(in);
    assert_true(n > 16);
    struct board g;
    struct frontier_search f;
    struct run_opts o = {2, 0, NULL, 0, 0};
    goal_board(&g, 3, 4, 11);
    run(&f, &g, FRONTIER_KEYS_RANK, 15, &o);
    for (d = 0; d <= 15; d++)
        if (f.hist[d] != want[d])
            fail_msg("3x4 distance %d: %llu, slide bfs --metric mtm %llu", d,
                     (unsigned long long)f.hist[d], (unsigned long long)want[d]);
    frontier_free(&f);
    board_free(&g);
}

/* OEIS A389728 (4x4, blank in a corner): rank keys to 13, moved keys to 11;
 * each in one pass, and with every step cut into passes (8 on disk for
 * rank keys, 4 in memory for moved keys; both subtracted layers sought
 * from each pass's first key). */
static void test_published_4x4(void **state)
{
    (void)state;
    uint64_t want[64];
    int n = published_mtm_histogram(4, 4, "corner", want, 64);
    assert_true(n > 13);
    char dir[] = "/tmp/slide-test-mtm-passes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int i = 0; i < 4; i++) {
        int moved = i & 1, cut = i >> 1, depth = moved ? 11 : 13;
        struct board g;
        struct frontier_search f;
        struct run_opts o = {2, 0, NULL, 0, 1};
        if (cut)
            o = moved ? (struct run_opts){2, 0, NULL, 0, 4} : (struct run_opts){2, 0, dir, 1, 8};
        goal_board(&g, 4, 4, 15);
        run(&f, &g, moved ? FRONTIER_KEYS_MOVED : FRONTIER_KEYS_RANK, depth, &o);
        assert_int_equal(f.passes, o.passes);
        for (int d = 0; d <= depth; d++)
            if (f.hist[d] != want[d])
                fail_msg("4x4 MTM distance %d (%d passes): %llu, A389728 %llu", d, o.passes,
                         (unsigned long long)f.hist[d], (unsigned long long)want[d]);
        frontier_free(&f);
        board_free(&g);
    }
    assert_int_equal(rmdir(dir), 0);
}

/* ---- threads, disk, checkpoints ----------------------------------------- */

/* Layer 11 of 4x4 has over 64 blocks, so step 12 merges in parts: the
 * layer's bytes and index are the same with 1 and 3 threads and small
 * batches (rank keys), and in memory and on disk (moved keys). */
static void test_threads_and_disk(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    struct frontier_search a, b;
    goal_board(&g, 4, 4, 15);
    struct run_opts one = {1, 0, NULL, 0, 0}, three = {3, 5000, NULL, 0, 0};
    run(&a, &g, FRONTIER_KEYS_RANK, 12, &one);
    run(&b, &g, FRONTIER_KEYS_RANK, 12, &three);
    assert_true(a.prev.nblocks >= 64);
    assert_true(a.cur.bytes == b.cur.bytes && a.cur.nblocks == b.cur.nblocks);
    assert_int_equal(memcmp(a.cur.mem, b.cur.mem, a.cur.bytes), 0);
    for (size_t i = 0; i < a.cur.nblocks; i++)
        assert_true(a.cur.block[i].first == b.cur.block[i].first &&
                    a.cur.block[i].offset == b.cur.block[i].offset &&
                    a.cur.block[i].count == b.cur.block[i].count);
    frontier_free(&a);
    frontier_free(&b);
    char dir[] = "/tmp/slide-test-frontier-mtm-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct run_opts disk = {3, 1000, dir, 1, 0};
    run(&a, &g, FRONTIER_KEYS_MOVED, 10, &one);
    run(&b, &g, FRONTIER_KEYS_MOVED, 10, &disk);
    assert_true(b.on_disk);
    for (int d = 0; d <= 10; d++)
        assert_true(a.hist[d] == b.hist[d]);
    assert_true(a.cur.bytes == b.cur.bytes && a.cur.nblocks == b.cur.nblocks);
    unsigned char *buf = malloc(a.cur.bytes);
    assert_int_equal(fstream_raw_read(&b.cur, 0, a.cur.bytes, buf, &err), 0);
    assert_int_equal(memcmp(buf, a.cur.mem, a.cur.bytes), 0);
    free(buf);
    frontier_free(&a);
    frontier_free(&b);
    assert_int_equal(rmdir(dir), 0);
    board_free(&g);
}

/* A checkpoint of an MTM search (each key kind) resumes to the same layer
 * bytes; a search in the single-tile metric refuses it, naming both. */
static void check_checkpoint(enum frontier_keys keys)
{
    slide_error err;
    char dir[] = "/tmp/slide-test-frontier-mtm-ck-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int lock;
    uint64_t bytes;
    struct board g;
    struct frontier_search a, b, c;
    struct run_opts o = {2, 0, NULL, 0, 0};
    goal_board(&g, 4, 4, 15);
    run(&a, &g, keys, 7, &o);
    assert_int_equal(fcheckpoint_open(dir, &lock, &err), 0);
    assert_int_equal(fcheckpoint_save(dir, &a, &g, &bytes, &err), 0);
    struct frontier_options fo = {2, 11, 0, 0, 0, NULL, NULL, 0};
    assert_int_equal(frontier_run(&a, &fo, &err), 0);
    start(&b, &g, keys, NULL);
    assert_int_equal(fcheckpoint_load(dir, &b, &g, 0, &err), 0);
    assert_int_equal(b.depth, 7);
    assert_int_equal(frontier_run(&b, &fo, &err), 0);
    for (int d = 0; d <= 11; d++)
        assert_true(a.hist[d] == b.hist[d]);
    assert_true(a.cur.bytes == b.cur.bytes);
    assert_int_equal(memcmp(a.cur.mem, b.cur.mem, a.cur.bytes), 0);
    int rows, cols;
    char goal[256];
    enum frontier_keys k;
    enum metric m;
    assert_int_equal(fcheckpoint_describe(dir, &rows, &cols, goal, sizeof goal, &k, &m, &err),
                     0);
    assert_int_equal(m, METRIC_MTM);
    assert_int_equal(frontier_init_keys(&c, &g, keys, NULL, &err), 0);
    assert_int_equal(fcheckpoint_load(dir, &c, &g, 0, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "multi-tile metric (mtm), not the single-tile metric "
                                    "(stm)"));
    assert_int_equal(c.depth, 0);
    frontier_free(&c);
    close(lock);
    frontier_free(&a);
    frontier_free(&b);
    board_free(&g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_checkpoint(void **state)
{
    (void)state;
    check_checkpoint(FRONTIER_KEYS_RANK);
    check_checkpoint(FRONTIER_KEYS_MOVED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neighbours_against_jumps),
        cmocka_unit_test(test_against_naive_small),
        cmocka_unit_test(test_big_boards_against_brute_force),
        cmocka_unit_test(test_rank_and_moved_keys),
        cmocka_unit_test(test_3x4_against_bfs),
        cmocka_unit_test(test_published_4x4),
        cmocka_unit_test(test_threads_and_disk),
        cmocka_unit_test(test_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
