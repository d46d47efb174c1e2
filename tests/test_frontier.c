/*
 * test_frontier.c - the frontier search (frontier.h) and its parts: keys
 * (frontier_key.h), streams (frontier_stream.h) and the radix sort
 * (frontier_sort.h).
 *
 * Independent truths: the two-bit BFS (bfs.h) - a different algorithm over
 * a different data structure - on every board of up to 12 cells but the
 * 239,500,800-board ones (3x4, 2x6: in scripts/bench-frontier.sh) with
 * several goals; the published first layers of 4x4 (OEIS A089484), 3x5
 * (A346737) and 5x5 (A090031) in tests/data; qsort for the radix sort.
 * The key tests against space.h are consistency tests (same formula).
 */
#include "testutil.h"

#include <unistd.h>

#include "slide/bfs.h"
#include "slide/frontier.h"
#include "slide/frontier_checkpoint.h"
#include "slide/frontier_sort.h"
#include "slide/space.h"

/* ---- keys ------------------------------------------------------------ */

static void goal_board(struct board *g, int rows, int cols, int blank)
{
    slide_error err;
    assert_int_equal(board_alloc(g, rows, cols, &err), 0);
    goal_with_blank(rows * cols, blank, g->cells);
}

/* Consistency: below 21 cells a key is space.h's compact index. */
static void test_key_consistency_with_space(void **state)
{
    (void)state;
    static const int dims[][2] = {{2, 2}, {2, 3}, {3, 3}, {2, 4}, {1, 5}, {4, 4}, {3, 5}};
    slide_error err;
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        struct board g, b;
        goal_board(&g, dims[i][0], dims[i][1], 0);
        struct space s;
        struct fkey_space k;
        assert_int_equal(space_init(&s, &g, SPACE_COMPACT, &err), 0);
        assert_int_equal(fkey_init(&k, &g, &err), 0);
        assert_true(k.size == (fkey)s.size);
        struct move_set ms;
        assert_int_equal(move_set_init(&ms, g.rows, g.cols, METRIC_STM, &err), 0);
        assert_int_equal(board_alloc(&b, g.rows, g.cols, &err), 0);
        for (int t = 0; t < 2000; t++) {
            uint64_t idx = test_rng(&seed) % s.size;
            space_unrank(&s, idx, &b);
            assert_true(fkey_of_board(&k, &b) == (fkey)idx);
            uint64_t sn[4];
            fkey kn[4];
            int n1 = space_neighbours(&s, idx, sn), n2 = fkey_neighbours(&k, &ms, idx, kn);
            assert_int_equal(n1, n2);
            for (int j = 0; j < n1; j++) { /* the same set, in another order */
                int found = 0;
                for (int i2 = 0; i2 < n2; i2++)
                    found += kn[i2] == (fkey)sn[j];
                assert_int_equal(found, 1);
            }
        }
        move_set_free(&ms);
        board_free(&b);
        board_free(&g);
    }
}

/*
 * 5x5 keys (128-bit path): random solvable boards round-trip, keys stay
 * below (25)!/2, every neighbour is one move away on the board and has the
 * key among its own neighbours.
 */
static void test_key_5x5_roundtrip(void **state)
{
    (void)state;
    slide_error err;
    struct board g, b, c;
    struct fkey_space k;
    board_goal(&g, 5, 5, &err);
    assert_int_equal(fkey_init(&k, &g, &err), 0);
    assert_int_equal(k.bits, 83); /* 25!/2 = 7.76e24 < 2^83 */
    struct move_set ms;
    assert_int_equal(move_set_init(&ms, 5, 5, METRIC_STM, &err), 0);
    board_alloc(&b, 5, 5, &err);
    board_alloc(&c, 5, 5, &err);
    uint64_t seed = 99;
    for (int t = 0; t < 3000; t++) {
        memcpy(b.cells, g.cells, 25 * sizeof *b.cells);
        test_shuffle(b.cells, 25, &seed);
        if (!fkey_reachable(&k, &b)) {
            int x = b.cells[0] ? 0 : 2, y = b.cells[1] ? 1 : 2;
            int tmp = b.cells[x];
            b.cells[x] = b.cells[y];
            b.cells[y] = tmp;
        }
        assert_true(fkey_reachable(&k, &b));
        fkey key = fkey_of_board(&k, &b);
        assert_true(key < k.size);
        fkey_board(&k, key, &c);
        assert_true(board_equal(&b, &c));
        fkey nb[4], back[4];
        int n = fkey_neighbours(&k, &ms, key, nb);
        int blank = board_blank(&b);
        int deg = (blank % 5 > 0) + (blank % 5 < 4) + (blank >= 5) + (blank < 20);
        assert_int_equal(n, deg);
        for (int i = 0; i < n; i++) {
            fkey_board(&k, nb[i], &c);
            int diff = 0;
            for (int j = 0; j < 25; j++)
                diff += b.cells[j] != c.cells[j];
            assert_int_equal(diff, 2);
            int m = fkey_neighbours(&k, &ms, nb[i], back), found = 0;
            for (int j = 0; j < m; j++)
                found |= back[j] == key;
            assert_true(found);
        }
    }
    /* the goal is key 24 (t in goal order has rank 0; blank on cell 24) */
    assert_true(fkey_of_board(&k, &g) == 24);
    move_set_free(&ms);
    board_free(&b);
    board_free(&c);
    board_free(&g);
}

static void test_key_too_big(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    struct fkey_space k;
    board_goal(&g, 5, 7, &err);
    assert_int_equal(fkey_init(&k, &g, &err), SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "at most 34 cells"));
    board_free(&g);
    board_goal(&g, 2, 17, &err);
    assert_int_equal(fkey_init(&k, &g, &err), SLIDE_OK);
    board_free(&g);
}

static void test_key_format(void **state)
{
    (void)state;
    char buf[48];
    assert_string_equal(fkey_format(0, buf), "0");
    fkey big = ((fkey)1 << 100) + 7; /* 1267650600228229401496703205383 */
    assert_string_equal(fkey_format(big, buf), "1267650600228229401496703205383");
}

/* ---- streams and sort ------------------------------------------------ */

static int cmp_key(const void *a, const void *b)
{
    fkey x = *(const fkey *)a, y = *(const fkey *)b;
    return x < y ? -1 : x > y;
}

static void check_stream(const char *dir)
{
    slide_error err;
    struct fstream s;
    enum { N = 3 * FSTREAM_BLOCK + 17 };
    static fkey keys[N], got[FSTREAM_BLOCK];
    uint64_t seed = 5;
    fkey k = 3;
    for (int i = 0; i < N; i++) { /* gaps of 1 byte to the full 128 bits */
        int kind = (int)(test_rng(&seed) % 4);
        k += kind == 0 ? 1 : kind == 1 ? test_rng(&seed) % 1000 + 1
                          : kind == 2 ? (fkey)test_rng(&seed) << 20 : 1;
        keys[i] = k;
    }
    keys[N - 1] = ~(fkey)0; /* the largest key */
    assert_int_equal(fstream_open(&s, dir, &err), 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(fstream_append(&s, keys[i]), 0);
    assert_int_equal(fstream_append(&s, keys[5]), SLIDE_EINVAL); /* not increasing */
    assert_int_not_equal(fstream_finish(&s, &err), 0);
    fstream_close(&s);
    assert_int_equal(fstream_open(&s, dir, &err), 0);
    for (int i = 0; i < N; i++)
        fstream_append(&s, keys[i]);
    assert_int_equal(fstream_finish(&s, &err), 0);
    assert_true(s.count == N);
    assert_int_equal(s.nblocks, 4);
    size_t at = 0;
    for (size_t b = 0; b < s.nblocks; b++) {
        int len = fstream_read_block(&s, b, got, &err);
        assert_true(len > 0);
        for (int i = 0; i < len; i++)
            assert_true(got[i] == keys[at + (size_t)i]);
        at += (size_t)len;
    }
    assert_int_equal(at, N);
    struct fstream_cursor c;
    fkey x;
    assert_int_equal(fstream_cursor_open(&c, &s, &err), 0);
    for (int i = 0; i < N; i++) {
        assert_int_equal(fstream_cursor_next(&c, &x, &err), 1);
        assert_true(x == keys[i]);
    }
    assert_int_equal(fstream_cursor_next(&c, &x, &err), 0);
    fstream_cursor_close(&c);
    fstream_close(&s);
}

static void test_stream_memory(void **state)
{
    (void)state;
    check_stream(NULL);
}

static void test_stream_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-frontier-XXXXXX";
    assert_non_null(mkdtemp(dir));
    check_stream(dir);
    assert_int_equal(rmdir(dir), 0); /* the temporary file left nothing behind */
}

static void test_stream_rejects_malformed(void **state)
{
    (void)state;
    slide_error err;
    struct fstream s;
    static fkey got[FSTREAM_BLOCK];
    fstream_open(&s, NULL, &err);
    for (int i = 0; i < 10; i++)
        fstream_append(&s, (fkey)(i * 300));
    fstream_finish(&s, &err);
    s.mem[s.bytes - 1] |= 0x80; /* the last gap never ends */
    assert_int_equal(fstream_read_block(&s, 0, got, &err), -1);
    assert_non_null(strstr(err.msg, "malformed"));
    fstream_close(&s);
}

/* Radix sort (and the insertion sort of short arrays) against qsort. */
static void check_sort(size_t n, int bits, uint64_t *seed)
{
    fkey *a = malloc(n * sizeof *a), *t = malloc(n * sizeof *t), *r = malloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        fkey v = ((fkey)test_rng(seed) << 64) | test_rng(seed);
        if (i % 7 == 3)
            v = a[i / 2]; /* repeats */
        a[i] = bits == 128 ? v : v & (((fkey)1 << bits) - 1);
        r[i] = a[i];
    }
    qsort(r, n, sizeof *r, cmp_key);
    fkey *s = fsort_keys(a, t, n, bits);
    for (size_t i = 0; i < n; i++)
        assert_true(s[i] == r[i]);
    size_t u = fsort_unique(s, n), distinct = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        distinct += r[i] != r[i - 1];
    assert_int_equal(u, distinct);
    for (size_t i = 1; i < u; i++)
        assert_true(s[i - 1] < s[i]);
    free(a);
    free(t);
    free(r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void check_sort_u64(size_t n, int bits, uint64_t *seed)
{
    uint64_t *a = malloc(n * sizeof *a), *t = malloc(n * sizeof *t), *r = malloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = i % 5 == 2 ? a[i / 3] : test_rng(seed);
        a[i] = r[i] = bits == 64 ? v : v & ((1ULL << bits) - 1);
    }
    qsort(r, n, sizeof *r, cmp_u64);
    uint64_t *s = fsort_u64(a, t, n, bits);
    for (size_t i = 0; i < n; i++)
        assert_true(s[i] == r[i]);
    size_t u = fsort_unique_u64(s, n);
    for (size_t i = 1; i < u; i++)
        assert_true(s[i - 1] < s[i]);
    free(a);
    free(t);
    free(r);
}

static void test_sort_against_qsort(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (int bits = 1; bits <= 64; bits += 7) {
        check_sort_u64(40, bits, &seed);
        check_sort_u64(50000, bits, &seed);
    }
    check_sort_u64(50000, 64, &seed);
    for (int bits = 1; bits <= 128; bits += 9) {
        check_sort(50, bits, &seed);
        check_sort(100000, bits, &seed);
    }
    check_sort(100000, 128, &seed);
}

/* ---- the search against the two-bit BFS ------------------------------ */

struct fopts {
    int threads;
    uint64_t buffer;
    const char *dir;
    uint64_t max_memory; /* 1: every step goes to dir */
    int passes;          /* frontier_options.passes */
};

/* The most passes any step of the last run_frontier took. */
static int most_passes_seen;

static int note_passes(const struct frontier_layer *L, void *ctx)
{
    (void)ctx;
    if (L->passes > most_passes_seen)
        most_passes_seen = L->passes;
    return 0;
}

static void run_frontier(struct frontier_search *f, const struct board *g, int max_depth,
                         const struct fopts *o)
{
    slide_error err;
    assert_int_equal(frontier_init(f, g, o->dir, &err), 0);
    struct frontier_options fo = {o->threads, max_depth, o->buffer, o->max_memory, 0,
                                  note_passes, NULL, o->passes};
    most_passes_seen = 0;
    int rc = frontier_run(f, &fo, &err);
    if (rc)
        fail_msg("frontier_run: %s", err.msg);
}

/* Histogram, radius and the first antipodes equal the two-bit BFS's. */
static void check_against_bfs(int rows, int cols, int blank, const struct fopts *o)
{
    slide_error err;
    struct board g;
    goal_board(&g, rows, cols, blank);
    struct space s;
    struct store st;
    struct bfs_result r;
    assert_int_equal(space_init(&s, &g, SPACE_COMPACT, &err), 0);
    assert_int_equal(store_alloc(&st, s.size, &err), 0);
    struct bfs_options bo = {.threads = 1}; /* its thread tests are in test_bfs */
    assert_int_equal(bfs_run(&s, &st, &bo, &r, &err), 0);
    struct frontier_search f;
    run_frontier(&f, &g, -1, o);
    assert_true(f.complete);
    assert_int_equal(f.on_disk, o->dir && o->max_memory == 1);
    if (frontier_radius(&f) != r.radius)
        fail_msg("%dx%d blank %d: radius %d, two-bit BFS %d", rows, cols, blank,
                 frontier_radius(&f), r.radius);
    for (int d = 0; d <= r.radius; d++)
        if (f.hist[d] != r.hist[d])
            fail_msg("%dx%d blank %d distance %d: %llu, two-bit BFS %llu", rows, cols,
                     blank, d, (unsigned long long)f.hist[d], (unsigned long long)r.hist[d]);
    assert_true(f.reached == s.reachable);
    const struct fstream *last = frontier_last_layer(&f);
    fkey first[FSTREAM_BLOCK];
    int len = fstream_read_block(last, 0, first, &err);
    assert_true(len >= r.nfirst);
    for (int i = 0; i < r.nfirst; i++)
        assert_true(first[i] == (fkey)r.first[i]);
    assert_true(last->count == r.hist[r.radius]);
    frontier_free(&f);
    store_free(&st);
    bfs_result_free(&r);
    board_free(&g);
}

/* Every board of up to 10 cells; the goal's blank on every cell up to 9
 * cells, on a corner and an inner cell of the 10-cell boards. */
static void test_against_bfs_small(void **state)
{
    (void)state;
    struct fopts o = {1, 0, NULL, 0, 0};
    for (int rows = 1; rows <= 10; rows++)
        for (int cols = 1; rows * cols <= 10; cols++)
            for (int z = 0; z < rows * cols; z++)
                if (rows * cols <= 9 || z == rows * cols - 1 || z == rows * cols / 2 + 1)
                    check_against_bfs(rows, cols, z, &o);
}

/* 11 and 12 cells: the paths (1x11 ... 12x1) and the 2x5's neighbour sizes,
 * with small batches, one and three threads, and runs on disk. */
static void test_against_bfs_options(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-frontier-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct fopts one = {1, 64, NULL, 0, 0}, three = {3, 1000, dir, 1, 0};
    check_against_bfs(1, 11, 5, &one);
    check_against_bfs(12, 1, 0, &three);
    check_against_bfs(1, 12, 11, &one);
    check_against_bfs(3, 3, 4, &three);
    check_against_bfs(2, 5, 9, &three);
    check_against_bfs(5, 2, 3, &one);
    assert_int_equal(rmdir(dir), 0);
}

/* A step that does not fit the memory limit and has no disk is refused,
 * naming the figures, and leaves the search as it was. */
static void test_memory_refusal(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    goal_board(&g, 3, 3, 8);
    struct frontier_search f;
    assert_int_equal(frontier_init(&f, &g, NULL, &err), 0);
    struct frontier_options o = {1, 5, 0, 0, 0, NULL, NULL, 0};
    assert_int_equal(frontier_run(&f, &o, &err), 0);
    o.max_depth = 10;
    o.max_memory = 1000;
    assert_int_equal(frontier_run(&f, &o, &err), SLIDE_ENOMEM);
    assert_non_null(strstr(err.msg, "distance 6 needs about"));
    assert_non_null(strstr(err.msg, "--temp-dir"));
    assert_int_equal(f.depth, 5);
    o.max_memory = 0;
    assert_int_equal(frontier_run(&f, &o, &err), 0);
    assert_true(f.hist[10] == 286); /* OEIS A089473 */
    frontier_free(&f);
    board_free(&g);
}

/* Results do not depend on threads or batch size: whole layers compared. */
static void test_threads_and_batches_consistency(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    goal_board(&g, 3, 3, 0);
    struct fopts a = {1, 0, NULL, 0, 0}, b = {4, 64, NULL, 0, 0};
    struct frontier_search f1, f2;
    for (int depth = 5; depth <= 20; depth += 15) {
        run_frontier(&f1, &g, depth, &a);
        run_frontier(&f2, &g, depth, &b);
        assert_int_equal(f1.depth, depth);
        assert_true(f1.cur.count == f2.cur.count && f1.cur.bytes == f2.cur.bytes);
        assert_int_equal(memcmp(f1.cur.mem, f2.cur.mem, f1.cur.bytes), 0);
        frontier_free(&f1);
        frontier_free(&f2);
    }
    board_free(&g);
    (void)err;
}

/*
 * A layer of at least 64 blocks is merged in parts by the threads and the
 * parts joined: the layer's bytes and index are the same with 1 and 3
 * threads, its counts the published ones (A089484), and a
 * checkpoint of it (blocks cut where the parts end) loads back to the same
 * bytes.
 */
static void test_merge_in_parts(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    goal_board(&g, 4, 4, 15);
    struct fopts a = {1, 0, NULL, 0, 0}, b = {3, 5000, NULL, 0, 0};
    struct frontier_search f1, f2, f3;
    run_frontier(&f1, &g, 19, &a);
    run_frontier(&f2, &g, 19, &b);
    assert_true(f1.cur.nblocks >= 64 && f1.cur.nblocks > (f1.cur.count + 4095) / 4096);
    assert_true(f1.cur.bytes == f2.cur.bytes && f1.cur.nblocks == f2.cur.nblocks);
    assert_int_equal(memcmp(f1.cur.mem, f2.cur.mem, f1.cur.bytes), 0);
    for (size_t i = 0; i < f1.cur.nblocks; i++) /* field by field: the struct has padding */
        assert_true(f1.cur.block[i].first == f2.cur.block[i].first &&
                    f1.cur.block[i].offset == f2.cur.block[i].offset &&
                    f1.cur.block[i].count == f2.cur.block[i].count);
    uint64_t want[100];
    assert_true(published_histogram(4, 4, "corner", want, 100) > 19); /* OEIS A089484 */
    for (int d = 0; d <= 19; d++)
        assert_true(f1.hist[d] == want[d]);
    char dir[] = "/tmp/slide-test-frontier-parts-XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* every step on disk: the parts are files, joined by copying; the same
     * layer, byte for byte and block for block */
    struct fopts c = {3, 5000, dir, 1, 0};
    struct frontier_search f4;
    run_frontier(&f4, &g, 19, &c);
    assert_true(f4.on_disk && f4.cur.fd >= 0);
    assert_true(f4.cur.bytes == f1.cur.bytes && f4.cur.nblocks == f1.cur.nblocks);
    unsigned char *disk = malloc(f1.cur.bytes + 1);
    assert_non_null(disk);
    assert_int_equal(fstream_raw_read(&f4.cur, 0, f4.cur.bytes, disk, &err), 0);
    assert_int_equal(memcmp(disk, f1.cur.mem, f1.cur.bytes), 0);
    for (size_t i = 0; i < f1.cur.nblocks; i++)
        assert_true(f1.cur.block[i].first == f4.cur.block[i].first &&
                    f1.cur.block[i].offset == f4.cur.block[i].offset &&
                    f1.cur.block[i].count == f4.cur.block[i].count);
    free(disk);
    frontier_free(&f4);
    int lock;
    uint64_t bytes;
    assert_int_equal(fcheckpoint_open(dir, &lock, &err), 0);
    assert_int_equal(fcheckpoint_save(dir, &f1, &g, &bytes, &err), 0);
    assert_int_equal(frontier_init(&f3, &g, NULL, &err), 0);
    assert_int_equal(fcheckpoint_load(dir, &f3, &g, 0, &err), 0);
    assert_true(f3.cur.bytes == f1.cur.bytes && f3.cur.nblocks == f1.cur.nblocks);
    assert_int_equal(memcmp(f3.cur.mem, f1.cur.mem, f1.cur.bytes), 0);
    close(lock);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    frontier_free(&f1);
    frontier_free(&f2);
    frontier_free(&f3);
    board_free(&g);
}

/* ---- steps cut into passes ------------------------------------------- */

/* The two-bit BFS (independent) against searches whose steps are cut into
 * up to 8 passes, in memory and on disk: histogram, radius, antipodes. */
static void test_passes_against_bfs(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-passes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct fopts mem = {2, 0, NULL, 0, 8}, disk = {3, 1000, dir, 1, 4};
    check_against_bfs(2, 5, 9, &mem);
    assert_true(most_passes_seen == 8);
    check_against_bfs(5, 2, 3, &disk);
    assert_true(most_passes_seen == 4);
    check_against_bfs(2, 5, 4, &disk);
    assert_true(most_passes_seen == 4);
    assert_int_equal(rmdir(dir), 0);
}

/* The keys of a stream, decoded, into a new array. */
static fkey *all_keys(const struct fstream *s)
{
    slide_error err;
    fkey *k = malloc((s->count + FSTREAM_BLOCK) * sizeof *k);
    uint64_t n = 0;
    assert_non_null(k);
    for (size_t b = 0; b < s->nblocks; b++) {
        int len = fstream_read_block(s, b, k + n, &err);
        assert_true(len >= 0);
        n += (uint64_t)len;
    }
    assert_true(n == s->count);
    return k;
}

/*
 * 4x4 to distance 19 in 1, 4 (on disk) and 16 passes: every layer the
 * published one (A089484); as a consistency check, the last two layers
 * the same keys (their blocks may end elsewhere: a block ends where a
 * pass's part ends).
 */
static void test_passes_published_4x4(void **state)
{
    (void)state;
    char dir[] = "/tmp/slide-test-passes-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct board g;
    goal_board(&g, 4, 4, 15);
    uint64_t want[100];
    assert_true(published_histogram(4, 4, "corner", want, 100) > 19); /* OEIS A089484 */
    struct fopts o[3] = {{2, 0, NULL, 0, 1}, {2, 0, dir, 1, 4}, {2, 0, NULL, 0, 16}};
    struct frontier_search f[3];
    for (int i = 0; i < 3; i++) {
        run_frontier(&f[i], &g, 19, &o[i]);
        assert_int_equal(most_passes_seen, o[i].passes);
        assert_int_equal(f[i].passes, o[i].passes);
        for (int d = 0; d <= 19; d++)
            if (f[i].hist[d] != want[d])
                fail_msg("%d passes, distance %d: %llu, published %llu", o[i].passes, d,
                         (unsigned long long)f[i].hist[d], (unsigned long long)want[d]);
    }
    fkey *one = all_keys(&f[0].cur), *oneprev = all_keys(&f[0].prev);
    for (int i = 1; i < 3; i++) {
        fkey *k = all_keys(&f[i].cur), *kp = all_keys(&f[i].prev);
        assert_int_equal(memcmp(k, one, f[0].cur.count * sizeof *k), 0);
        assert_int_equal(memcmp(kp, oneprev, f[0].prev.count * sizeof *kp), 0);
        free(k);
        free(kp);
        frontier_free(&f[i]);
    }
    free(one);
    free(oneprev);
    frontier_free(&f[0]);
    board_free(&g);
    assert_int_equal(rmdir(dir), 0);
}

/*
 * Passes chosen by the search: a memory limit too small for one pass but
 * large enough for 8 (frontier_estimate's figures) cuts the step instead of
 * refusing it, with the published count and, from the same layers, the
 * neighbours of one pass (each chunk's keys split among the passes, none
 * lost or found twice: a consistency check); a limit below the most
 * passes' need is refused, naming the passes; a count not a power of two
 * up to 64 is refused.
 */
static void test_passes_chosen(void **state)
{
    (void)state;
    slide_error err;
    struct board g;
    goal_board(&g, 4, 4, 15);
    uint64_t want[100];
    assert_true(published_histogram(4, 4, "corner", want, 100) > 19); /* OEIS A089484 */
    struct frontier_search f;
    struct fopts o = {2, 0, NULL, 0, 0};
    run_frontier(&f, &g, 18, &o);
    assert_int_equal(f.passes, 1);
    struct frontier_options fo = {2, 19, 0, 0, 0, NULL, NULL, 1};
    uint64_t fixed, step1, step8, step16;
    frontier_estimate(&f, &fo, &fixed, &step1);
    fo.passes = 8;
    frontier_estimate(&f, &fo, &fixed, &step8);
    fo.passes = 16;
    frontier_estimate(&f, &fo, &fixed, &step16);
    assert_true(step16 < step8 && step8 < step1);
    fo.passes = 0;
    fo.max_memory = fixed + step16 - 1;
    assert_int_equal(frontier_step(&f, &fo, &err), SLIDE_ENOMEM);
    assert_non_null(strstr(err.msg, "cut into 16 passes"));
    assert_int_equal(f.depth, 18);
    fo.passes = 3;
    assert_int_equal(frontier_step(&f, &fo, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "1, 2, 4, ..., 64"));
    fo.passes = 128;
    assert_int_equal(frontier_step(&f, &fo, &err), SLIDE_EINVAL);
    fo.passes = 0;
    fo.max_memory = fixed + step8;
    assert_int_equal(frontier_step(&f, &fo, &err), 0);
    assert_int_equal(f.depth, 19);
    assert_true(f.passes == 8 && !f.on_disk);
    assert_true(f.hist[19] == want[19]);
    struct frontier_search one;
    run_frontier(&one, &g, 18, &o);
    fo.max_memory = 0;
    fo.passes = 1;
    assert_int_equal(frontier_step(&one, &fo, &err), 0);
    assert_true(one.passes == 1 && one.candidates == f.candidates);
    assert_true(one.cur.count == f.cur.count);
    frontier_free(&one);
    frontier_free(&f);
    board_free(&g);
}

/* ---- published first layers ------------------------------------------ */

static int published_partial(int rows, int cols, uint64_t *out, int max)
{
    FILE *f = fopen(TEST_DATA_DIR "/partial-histograms.tsv", "r");
    static char line[1 << 14];
    int found = 0;
    assert_non_null(f);
    while (!found && fgets(line, sizeof line, f)) {
        int r, c;
        char *p;
        if (line[0] == '#' || sscanf(line, "%dx%d", &r, &c) != 2 || r != rows ||
            c != cols || !(p = strchr(line, '\t')) || !(p = strchr(p + 1, '\t')))
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

static void check_published(int rows, int cols, const uint64_t *want, int nwant,
                            int depth)
{
    struct board g;
    goal_board(&g, rows, cols, rows * cols - 1);
    struct fopts o = {2, 0, NULL, 0, 0};
    struct frontier_search f;
    assert_true(nwant > depth);
    run_frontier(&f, &g, depth, &o);
    assert_int_equal(f.depth, depth);
    for (int d = 0; d <= depth; d++)
        if (f.hist[d] != want[d])
            fail_msg("%dx%d distance %d: %llu, published %llu", rows, cols, d,
                     (unsigned long long)f.hist[d], (unsigned long long)want[d]);
    frontier_free(&f);
    board_free(&g);
}

static void test_published_4x4(void **state)
{
    (void)state;
    uint64_t want[100];
    int n = published_histogram(4, 4, "corner", want, 100); /* OEIS A089484 */
    check_published(4, 4, want, n, 20);
}

static void test_published_3x5(void **state)
{
    (void)state;
    uint64_t want[100];
    int n = published_histogram(3, 5, "corner", want, 100); /* OEIS A346737 */
    check_published(3, 5, want, n, 22);
    check_published(5, 3, want, n, 12);
}

static void test_published_5x5(void **state)
{
    (void)state;
    uint64_t want[100];
    int n = published_partial(5, 5, want, 100); /* OEIS A090031 */
    check_published(5, 5, want, n, 18);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_consistency_with_space),
        cmocka_unit_test(test_key_5x5_roundtrip),
        cmocka_unit_test(test_key_too_big),
        cmocka_unit_test(test_key_format),
        cmocka_unit_test(test_stream_memory),
        cmocka_unit_test(test_stream_file),
        cmocka_unit_test(test_stream_rejects_malformed),
        cmocka_unit_test(test_sort_against_qsort),
        cmocka_unit_test(test_against_bfs_small),
        cmocka_unit_test(test_against_bfs_options),
        cmocka_unit_test(test_memory_refusal),
        cmocka_unit_test(test_threads_and_batches_consistency),
        cmocka_unit_test(test_merge_in_parts),
        cmocka_unit_test(test_passes_against_bfs),
        cmocka_unit_test(test_passes_published_4x4),
        cmocka_unit_test(test_passes_chosen),
        cmocka_unit_test(test_published_4x4),
        cmocka_unit_test(test_published_3x5),
        cmocka_unit_test(test_published_5x5),
    };
    if (getenv("TEST_FILTER")) /* one test at a time: TEST_FILTER=test_published_5x5 */
        cmocka_set_test_filter(getenv("TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
