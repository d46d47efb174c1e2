/*
 * test_frontier_moved.c - the frontier search with moved keys
 * (frontier_moved.h): boards of any size.
 *
 * Independent truths: board_move (the keys' neighbours against the boards'
 * moves); the plain BFS of testutil.h (naive_bfs, naive_ball) on boards of
 * up to 16 cells; a brute-force BFS over whole boards (brute_big.h: a hash
 * set of cell arrays, no key) for the first layers of 6x6, 7x7 and 10x10
 * with the blank in a corner, at mid-side and inside; the published first
 * layers of the infinite board (OEIS A090377, A090378 in
 * tests/data/infinite-board.tsv) on 40x40, of 5x5 (A090031) and 4x4
 * (A089484).  The comparison with the rank keys layer by layer, as sets
 * of boards, is a consistency test (slide against slide, two key
 * representations and two sorts).
 */
#include "testutil.h"
#include "brute_big.h"
#include "frontier_layers.h"

#include <unistd.h>

#include "slide/frontier.h"
#include "slide/frontier_checkpoint.h"
#include "slide/frontier_sort.h"

/* A moved-key search whose steps are cut into passes passes (0: the
 * fewest that fit). */
static void run_moved_passes(struct frontier_search *f, const struct board *g, int depth,
                             int threads, uint64_t buffer, const char *dir,
                             uint64_t max_memory, int passes)
{
    slide_error err;
    assert_int_equal(frontier_init_keys(f, g, FRONTIER_KEYS_MOVED, dir, &err), 0);
    struct frontier_options o = {threads, depth, buffer, max_memory, 0, NULL, NULL, passes};
    if (frontier_run(f, &o, &err))
        fail_msg("frontier_run: %s", err.msg);
}

static void run_moved(struct frontier_search *f, const struct board *g, int depth,
                      int threads, uint64_t buffer, const char *dir, uint64_t max_memory)
{
    run_moved_passes(f, g, depth, threads, buffer, dir, max_memory, 0);
}

/* ---- keys ------------------------------------------------------------ */

/* Sort n records of len bytes (insertion sort: a handful). */
static void sort_records(unsigned char *a, int n, size_t len)
{
    unsigned char tmp[512];
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && memcmp(a + (j - 1) * len, a + j * len, len) > 0; j--) {
            memcpy(tmp, a + j * len, len);
            memcpy(a + j * len, a + (j - 1) * len, len);
            memcpy(a + (j - 1) * len, tmp, len);
        }
}

/*
 * Random walks on boards from 2x2 to 40x40: a key round-trips through its
 * board, is valid, and its neighbours are the keys of the boards one
 * board_move away; a key too short for the board is refused.
 */
static void test_keys_against_board_moves(void **state)
{
    (void)state;
    static const int dims[][2] = {{2, 2}, {3, 3}, {4, 4}, {1, 7}, {5, 7}, {10, 10}, {40, 40}};
    slide_error err;
    uint64_t seed = 41;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int rows = dims[i][0], cols = dims[i][1], n = rows * cols, z;
        struct board g, b, c;
        struct fmoved_space s;
        goal_board(&g, rows, cols, (int)(test_rng(&seed) % (uint64_t)n));
        assert_int_equal(fmoved_init(&s, &g, METRIC_STM, &err), 0);
        assert_int_equal(s.w, n - 1 < 256 ? 1 : 2);
        struct move_set ms;
        assert_int_equal(move_set_init(&ms, rows, cols, METRIC_STM, &err), 0);
        board_alloc(&b, rows, cols, &err);
        board_alloc(&c, rows, cols, &err);
        memcpy(b.cells, g.cells, (size_t)n * sizeof *b.cells);
        z = board_blank(&b);
        size_t len = fmoved_key_len(&s, 40);
        unsigned char key[512], nb[4 * 512], want[4 * 512];
        for (int step = 0; step < 40; step++) {
            assert_int_equal(fmoved_encode(&s, &b, key, len), 0);
            assert_true(fmoved_valid(&s, key, len));
            fmoved_board(&s, key, &c);
            assert_int_equal(memcmp(b.cells, c.cells, (size_t)n * sizeof *b.cells), 0);
            int k = fmoved_neighbours(&s, &ms, key, len, nb), m = 0;
            for (int mv = 0; mv < MOVE_COUNT; mv++) {
                int zc = z;
                memcpy(c.cells, b.cells, (size_t)n * sizeof *c.cells);
                if (board_move(&c, &zc, (enum move)mv) == 0)
                    assert_int_equal(fmoved_encode(&s, &c, want + (size_t)m++ * len, len), 0);
            }
            assert_int_equal(k, m);
            sort_records(nb, k, len);
            sort_records(want, m, len);
            assert_int_equal(memcmp(nb, want, (size_t)k * len), 0);
            /* one random move on */
            int pick = (int)(test_rng(&seed) % (uint64_t)k);
            fmoved_board(&s, nb + (size_t)pick * len, &b);
            z = board_blank(&b);
        }
        /* the goal's key has no pair; a key of one pair does not fit distance 0 */
        assert_int_equal(fmoved_encode(&s, &g, key, fmoved_key_len(&s, 0)), 0);
        assert_int_equal(fmoved_neighbours(&s, &ms, key, fmoved_key_len(&s, 0), nb), -1);
        /* malformed keys (the walk has left at least two tiles out of place) */
        assert_int_equal(fmoved_encode(&s, &b, key, len), 0);
        int w = s.w, pairs = key[2 * w - 1];
        assert_true(pairs >= 2);
        unsigned char bad[512];
        memcpy(bad, key, len);
        bad[len - 1] ^= 1; /* a byte after the pairs */
        assert_false(fmoved_valid(&s, bad, len));
        memcpy(bad, key, len); /* the first pair's tile is the goal's there */
        int cell = bad[2 * w + w - 1] | (w == 2 ? bad[2 * w] << 8 : 0);
        bad[3 * w + w - 1] = (unsigned char)(g.cells[cell] & 0xff);
        if (w == 2)
            bad[3 * w] = (unsigned char)(g.cells[cell] >> 8);
        assert_false(fmoved_valid(&s, bad, len));
        memcpy(bad, key, len); /* the first two pairs swapped: not increasing */
        memcpy(bad + 2 * w, key + 4 * w, 2 * (size_t)w);
        memcpy(bad + 4 * w, key + 2 * w, 2 * (size_t)w);
        assert_false(fmoved_valid(&s, bad, len));
        memcpy(bad, key, len); /* a tile twice */
        memcpy(bad + 3 * w, key + 5 * w, (size_t)w);
        assert_false(fmoved_valid(&s, bad, len));
        move_set_free(&ms);
        fmoved_free(&s);
        board_free(&b);
        board_free(&c);
        board_free(&g);
    }
}

/* ---- byte keys: the sort and the streams ------------------------------ */

static size_t qsort_len;

static int cmp_record(const void *a, const void *b)
{
    return memcmp(a, b, qsort_len);
}

/* Random records over a few byte values (long shared prefixes, repeats,
 * trailing zeros), of 1 to 40 bytes: fsort_bytes and fsort_unique_bytes
 * against qsort and a plain dedup; the stream of the sorted keys, in memory
 * and in a file, decodes to the same keys at their length and at a larger
 * one. */
static void test_sort_and_stream_bytes(void **state)
{
    (void)state;
    slide_error err;
    uint64_t seed = 5;
    static const size_t sizes[] = {0, 1, 2, 31, 32, 33, 500, 6000};
    for (size_t len = 1; len <= 40; len += 13)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            unsigned char *a = malloc(n * len + 1), *t = malloc(n * len + 1),
                          *q = malloc(n * len + 1);
            for (size_t i = 0; i < n * len; i++) {
                uint64_t r = test_rng(&seed);
                a[i] = (i % len) * 3 >= len * 2 && r % 3 ? 0 : (unsigned char)(r % 3);
            }
            memcpy(q, a, n * len);
            unsigned char *sorted = fsort_bytes(a, t, n, len);
            assert_non_null(sorted);
            qsort_len = len;
            qsort(q, n, len, cmp_record);
            assert_int_equal(memcmp(sorted, q, n * len), 0);
            size_t u = fsort_unique_bytes(sorted, n, len), v = 0;
            for (size_t i = 0; i < n; i++)
                if (v == 0 || memcmp(q + i * len, q + (v - 1) * len, len))
                    memmove(q + v++ * len, q + i * len, len);
            assert_true(u == v);
            assert_int_equal(memcmp(sorted, q, u * len), 0);
            for (int disk = 0; disk < 2; disk++) {
                struct fstream st;
                assert_int_equal(fstream_open_bytes(&st, disk ? "/tmp" : NULL, len, &err), 0);
                for (size_t i = 0; i < u; i++)
                    assert_int_equal(fstream_append_bytes(&st, sorted + i * len), 0);
                assert_int_equal(fstream_finish(&st, &err), 0);
                if (u > 1) /* a repeat or a smaller key is refused */
                    assert_int_equal(fstream_append_bytes(&st, sorted), SLIDE_EINVAL);
                size_t wide = len + 3;
                unsigned char *out = malloc(FSTREAM_BLOCK * wide);
                for (size_t b = 0, k = 0; b < st.nblocks; b++) {
                    int c = fstream_read_block_bytes(&st, b, out, wide, &err);
                    assert_true(c > 0);
                    for (int i = 0; i < c; i++, k++) {
                        assert_int_equal(memcmp(out + i * wide, sorted + k * len, len), 0);
                        assert_true(!out[i * wide + len] && !out[i * wide + len + 2]);
                    }
                }
                if (u > 0 && len > 1) { /* too short a reader: refused */
                    int c = fstream_read_block_bytes(&st, 0, out, 1, &err);
                    int longer = 0;
                    for (size_t i = 0; i < u && i < FSTREAM_BLOCK; i++)
                        for (size_t j = 1; j < len; j++)
                            longer |= sorted[i * len + j];
                    assert_true(longer ? c == -1 : c > 0);
                }
                free(out);
                fstream_close(&st);
            }
            free(a);
            free(t);
            free(q);
        }
}

/* ---- against the plain BFS of testutil.h ----------------------------- */

/* 2x4 with the blank on every cell, 3x3 on a corner, a side and the
 * centre: the whole histograms; 4x4 with four blanks: the ball of radius
 * 11. */
static void test_against_naive_bfs(void **state)
{
    (void)state;
    static const int dims[][2] = {{3, 3}, {2, 4}};
    for (size_t i = 0; i < 2; i++)
        for (int z = 0; z < dims[i][0] * dims[i][1]; z++) {
            if (i == 0 && z != 0 && z != 1 && z != 4)
                continue;
            struct board g;
            struct naive_set set;
            uint64_t hist[64];
            goal_board(&g, dims[i][0], dims[i][1], z);
            int radius = naive_bfs(g.rows, g.cols, g.cells, hist, 64, &set);
            naive_free(&set);
            struct frontier_search f;
            run_moved(&f, &g, -1, 2, 0, NULL, 0);
            assert_true(f.complete);
            assert_int_equal(frontier_radius(&f), radius);
            for (int d = 0; d <= radius; d++)
                assert_true(f.hist[d] == hist[d]);
            frontier_free(&f);
            board_free(&g);
        }
    for (int z = 0; z < 16; z += 5) {
        struct board g;
        struct naive_set set;
        goal_board(&g, 4, 4, z);
        naive_ball(4, 4, g.cells, 11, 1 << 18, &set);
        uint64_t hist[12] = {0};
        for (size_t k = 0; k < set.cap; k++)
            if (set.keys[k])
                hist[set.dist[k]]++;
        naive_free(&set);
        struct frontier_search f;
        run_moved(&f, &g, 11, 1, 0, NULL, 0);
        for (int d = 0; d <= 11; d++)
            if (f.hist[d] != hist[d])
                fail_msg("4x4 blank %d distance %d: %llu, plain BFS %llu", z, d,
                         (unsigned long long)f.hist[d], (unsigned long long)hist[d]);
        frontier_free(&f);
        board_free(&g);
    }
}

/* ---- brute force over big boards -------------------------------------- */

/* 6x6, 7x7 and 10x10 (more than 34 cells: moved keys by default), the
 * blank in a corner, at mid-side, inside: the first 11 layers. */
static void test_big_boards_against_brute_force(void **state)
{
    (void)state;
    static const int dims[][2] = {{6, 6}, {7, 7}, {10, 10}, {5, 8}};
    slide_error err;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int rows = dims[i][0], cols = dims[i][1];
        int blanks[3] = {0, cols / 2 - 1, (rows / 2) * cols + cols / 2};
        for (int j = 0; j < 3; j++) {
            struct board g;
            struct frontier_search f;
            uint64_t hist[12];
            goal_board(&g, rows, cols, blanks[j]);
            brute_layers(rows, cols, blanks[j], 10, hist, 0);
            assert_int_equal(frontier_init(&f, &g, NULL, &err), 0);
            assert_true(f.moved);
            frontier_free(&f);
            run_moved(&f, &g, 10, 2, 0, NULL, 0);
            for (int d = 0; d <= 10; d++)
                if (f.hist[d] != hist[d])
                    fail_msg("%dx%d blank %d distance %d: %llu, brute force %llu", rows, cols,
                             blanks[j], d, (unsigned long long)f.hist[d],
                             (unsigned long long)hist[d]);
            frontier_free(&f);
            board_free(&g);
        }
    }
}

/* ---- against the rank keys, layer by layer --------------------------- */

static void test_layers_equal_rank_keys(void **state)
{
    (void)state;
    check_layers_equal(3, 3, 0, -1, METRIC_STM);
    check_layers_equal(3, 3, 5, -1, METRIC_STM);
    check_layers_equal(2, 5, 7, -1, METRIC_STM);
    check_layers_equal(3, 4, 0, 16, METRIC_STM);
    check_layers_equal(3, 4, 5, 15, METRIC_STM);
    check_layers_equal(4, 4, 15, 13, METRIC_STM);
    check_layers_equal(4, 4, 5, 12, METRIC_STM);
}

/* ---- threads, batches, disk, checkpoints ----------------------------- */

/* Every layer byte for byte the same with 1 and 3 threads, small batches
 * and on disk; and with 1 and 3 threads where the merge goes in parts. */
static void test_threads_batches_disk(void **state)
{
    (void)state;
    slide_error err;
    char dir[] = "/tmp/slide-test-moved-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct board g;
    goal_board(&g, 3, 4, 11);
    struct frontier_search a, b;
    run_moved(&a, &g, 17, 1, 0, NULL, 0);
    run_moved(&b, &g, 17, 3, 1000, dir, 1);
    assert_true(b.on_disk);
    for (int d = 0; d <= 17; d++)
        assert_true(a.hist[d] == b.hist[d]);
    assert_true(a.cur.bytes == b.cur.bytes && a.cur.nblocks == b.cur.nblocks);
    unsigned char *buf = malloc(a.cur.bytes);
    assert_int_equal(fstream_raw_read(&b.cur, 0, a.cur.bytes, buf, &err), 0);
    assert_int_equal(memcmp(buf, a.cur.mem, a.cur.bytes), 0);
    free(buf);
    frontier_free(&a);
    frontier_free(&b);
    board_free(&g);
    assert_int_equal(rmdir(dir), 0);
    /* layer 18 of 4x4 has over 64 blocks: step 19 merges in parts */
    uint64_t want[100];
    assert_true(published_histogram(4, 4, "corner", want, 100) > 19); /* OEIS A089484 */
    goal_board(&g, 4, 4, 15);
    run_moved(&a, &g, 19, 1, 0, NULL, 0);
    run_moved(&b, &g, 19, 3, 0, NULL, 0);
    assert_true(a.prev.nblocks >= 64);
    for (int d = 0; d <= 19; d++)
        assert_true(a.hist[d] == want[d] && b.hist[d] == want[d]);
    assert_true(a.cur.bytes == b.cur.bytes && a.cur.nblocks == b.cur.nblocks);
    assert_int_equal(memcmp(a.cur.mem, b.cur.mem, a.cur.bytes), 0);
    frontier_free(&a);
    frontier_free(&b);
    board_free(&g);
}

/* A checkpoint of a moved-key search resumes to the same layers; a rank
 * search refuses it; a damaged layer is refused. */
static void test_checkpoint(void **state)
{
    (void)state;
    slide_error err;
    char dir[] = "/tmp/slide-test-moved-ck-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int lock;
    uint64_t bytes;
    struct board g;
    goal_board(&g, 3, 4, 5);
    struct frontier_search a, b, c;
    run_moved(&a, &g, 8, 2, 0, NULL, 0);
    assert_int_equal(fcheckpoint_open(dir, &lock, &err), 0);
    assert_int_equal(fcheckpoint_save(dir, &a, &g, &bytes, &err), 0);
    struct frontier_options o = {2, 14, 0, 0, 0, NULL, NULL, 0};
    assert_int_equal(frontier_run(&a, &o, &err), 0);
    assert_int_equal(frontier_init_keys(&b, &g, FRONTIER_KEYS_MOVED, NULL, &err), 0);
    assert_int_equal(fcheckpoint_load(dir, &b, &g, 0, &err), 0);
    assert_int_equal(b.depth, 8);
    assert_int_equal(frontier_run(&b, &o, &err), 0);
    for (int d = 0; d <= 14; d++)
        assert_true(a.hist[d] == b.hist[d]);
    assert_int_equal(memcmp(a.cur.mem, b.cur.mem, a.cur.bytes), 0);
    assert_int_equal(frontier_init_keys(&c, &g, FRONTIER_KEYS_RANK, NULL, &err), 0);
    assert_int_equal(fcheckpoint_load(dir, &c, &g, 0, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "moved keys, not rank keys"));
    frontier_free(&c);
    /* flip a bit of layer 8's data: its CRC or its keys refuse it */
    char path[256];
    snprintf(path, sizeof path, "%s/layer-8", dir);
    size_t len;
    unsigned char *data = (unsigned char *)test_read_file(path, &len);
    data[len - 10] ^= 0x40;
    test_write_file(path, data, len);
    free(data);
    assert_int_equal(frontier_init_keys(&c, &g, FRONTIER_KEYS_MOVED, NULL, &err), 0);
    assert_int_equal(fcheckpoint_load(dir, &c, &g, 0, &err), SLIDE_EFORMAT);
    frontier_free(&c);
    close(lock);
    frontier_free(&a);
    frontier_free(&b);
    board_free(&g);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- published terms --------------------------------------------------- */

static int infinite_terms(const char *region, uint64_t *out, int max)
{
    FILE *f = fopen(TEST_DATA_DIR "/infinite-board.tsv", "r");
    static char line[1 << 12];
    int found = 0;
    assert_non_null(f);
    while (!found && fgets(line, sizeof line, f)) {
        char *p;
        if (line[0] == '#' || strncmp(line, region, strlen(region)) ||
            !(p = strchr(line, '\t')) || !(p = strchr(p + 1, '\t')))
            continue;
        for (p++; found < max;) {
            out[found++] = strtoull(p, &p, 10);
            if (*p++ != ',')
                break;
        }
    }
    fclose(f);
    return found;
}

/* The first depth + 1 layers of rows x cols from blank equal want, with
 * every step cut into up to passes passes (0: the fewest that fit), on
 * disk in dir when dir is not NULL; returns the last step's passes. */
static int check_terms_passes(int rows, int cols, int blank, const uint64_t *want, int depth,
                              int passes, const char *dir)
{
    struct board g;
    struct frontier_search f;
    goal_board(&g, rows, cols, blank);
    run_moved_passes(&f, &g, depth, 2, 0, dir, dir ? 1 : 0, passes);
    int used = f.passes;
    for (int d = 0; d <= depth; d++)
        if (f.hist[d] != want[d])
            fail_msg("%dx%d blank %d distance %d: %llu, published %llu", rows, cols, blank, d,
                     (unsigned long long)f.hist[d], (unsigned long long)want[d]);
    frontier_free(&f);
    board_free(&g);
    return used;
}

static void check_terms(int rows, int cols, int blank, const uint64_t *want, int depth)
{
    check_terms_passes(rows, cols, blank, want, depth, 0, NULL);
}

/*
 * The infinite board on 40x40: the blank in a corner (a quarter-plane:
 * cells within distance d - 1 of the corner never touch the far edges for
 * d <= 39) and at mid-side of the top edge (cell 19: a half-plane for d <=
 * 19); C x C boards with the blank in a corner agree with the quarter-plane
 * for distances below C (A090377's comment).  And 5x5 (A090031), 4x4
 * (A089484) with moved keys.
 */
static void test_published(void **state)
{
    (void)state;
    uint64_t q[32], h[32], w[100];
    assert_true(infinite_terms("quarter-plane", q, 32) >= 13);
    assert_true(infinite_terms("half-plane", h, 32) >= 12);
    check_terms(40, 40, 0, q, 12);
    check_terms(40, 40, 19, h, 11);
    check_terms(6, 6, 35, q, 5);
    check_terms(7, 7, 0, q, 6);
    check_terms(10, 10, 99, q, 9);
    check_terms(40, 40, 20, h, 11); /* the other mid-side cell of an even side */
    assert_true(published_histogram(4, 4, "corner", w, 100) > 18); /* OEIS A089484 */
    check_terms(4, 4, 15, w, 18);
    FILE *f = fopen(TEST_DATA_DIR "/partial-histograms.tsv", "r");
    assert_non_null(f);
    static char line[1 << 14];
    int n = 0;
    while (!n && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '\t');
        if (strncmp(line, "5x5\t", 4) || !p || !(p = strchr(p + 1, '\t')))
            continue;
        for (p++; n < 100;) {
            w[n++] = strtoull(p, &p, 10);
            if (*p++ != ',')
                break;
        }
    }
    fclose(f);
    assert_true(n > 16);
    check_terms(5, 5, 24, w, 16); /* OEIS A090031 */
}

/* Steps cut into passes: the half-plane (A090378) to 13 in memory, the
 * quarter-plane (A090377) to 14 on disk, 4x4 (A089484) to 19, each last
 * step in the passes asked for. */
static void test_published_in_passes(void **state)
{
    (void)state;
    uint64_t q[32], h[32], w[100];
    char dir[] = "/tmp/slide-test-moved-passes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_true(infinite_terms("quarter-plane", q, 32) >= 15);
    assert_true(infinite_terms("half-plane", h, 32) >= 14);
    assert_int_equal(check_terms_passes(40, 40, 19, h, 13, 8, NULL), 8);
    assert_int_equal(check_terms_passes(40, 40, 0, q, 14, 4, dir), 4);
    assert_true(published_histogram(4, 4, "corner", w, 100) > 19); /* OEIS A089484 */
    assert_int_equal(check_terms_passes(4, 4, 15, w, 19, 16, NULL), 16);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_against_board_moves),
        cmocka_unit_test(test_sort_and_stream_bytes),
        cmocka_unit_test(test_against_naive_bfs),
        cmocka_unit_test(test_big_boards_against_brute_force),
        cmocka_unit_test(test_layers_equal_rank_keys),
        cmocka_unit_test(test_threads_batches_disk),
        cmocka_unit_test(test_checkpoint),
        cmocka_unit_test(test_published_in_passes),
        cmocka_unit_test(test_published),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
