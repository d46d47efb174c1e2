/*
 * test_db.c - distance databases (db.h): save/load round trips, every 3x3
 * distance and path against the naive BFS of testutil.h, full spaces and
 * path graphs, the stored (uncompressed) form loaded and mapped, every
 * corruption the loader must name, a full disk, and the
 * inputs the fuzzers found (tests/data/fuzz/).
 */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "slide/bfs.h"
#include "slide/db.h"

/* The fuzz targets themselves, so their inputs run exactly as when fuzzed. */
#include "fuzz/fuzz_db.c"
#define LLVMFuzzerTestOneInput fuzz_board_one
#include "fuzz/fuzz_board.c"
#undef LLVMFuzzerTestOneInput

/* ---- helpers ------------------------------------------------------------------- */

struct search {
    struct board goal;
    struct space s;
    struct store st;
    struct bfs_result r;
};

static void search_run(struct search *x, int rows, int cols, const char *goal,
                       enum space_kind kind)
{
    slide_error err;
    struct bfs_options o = {.threads = 0};
    if (goal)
        assert_int_equal(board_parse(goal, rows, cols, &x->goal, &err), 0);
    else
        assert_int_equal(board_goal(&x->goal, rows, cols, &err), 0);
    assert_int_equal(space_init(&x->s, &x->goal, kind, &err), 0);
    assert_int_equal(store_alloc(&x->st, x->s.size, &err), 0);
    if (bfs_run(&x->s, &x->st, &o, &x->r, &err))
        fail_msg("bfs: %s", err.msg);
}

static void search_free(struct search *x)
{
    store_free(&x->st);
    bfs_result_free(&x->r);
    board_free(&x->goal);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "/tmp/slide-test-db-%d-%s", (int)getpid(), name);
}

static void save(const struct search *x, const char *path, int enc, int level,
                 int threads, uint64_t block)
{
    slide_error err;
    struct db_save_options o = {enc, level, threads, block};
    if (db_save(path, &x->s, &x->st, &x->r, &o, NULL, &err))
        fail_msg("db_save %s: %s", path, err.msg);
}

static void load(const char *path, struct db *db)
{
    slide_error err;
    if (db_load(path, 2, db, &err))
        fail_msg("db_load %s: %s", path, err.msg);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(*len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

/* Apply path (moves) to b and require the goal after exactly len moves. */
static void replay(const struct board *b, const unsigned char *moves, int len,
                   const struct board *goal)
{
    struct board w;
    slide_error err;
    assert_int_equal(board_copy(&w, b, &err), 0);
    int z = board_blank(&w);
    for (int k = 0; k < len; k++)
        assert_int_equal(board_move(&w, &z, (enum move)moves[k]), 0);
    assert_true(board_equal(&w, goal));
    board_free(&w);
}

/*
 * Every index of x's space against the naive BFS: distance, optimal path
 * replayed to the goal, unsolvable boards refused.
 */
static void check_every_board(const struct search *x, const struct db *db)
{
    struct naive_set set;
    uint64_t hist[256];
    slide_error err;
    int n = x->s.n;
    int radius = naive_bfs(x->s.rows, x->s.cols, x->goal.cells, hist, 256, &set);
    assert_int_equal(radius, db->radius);
    struct board b;
    unsigned char moves[DB_MAX_RADIUS + 1];
    assert_int_equal(board_alloc(&b, x->s.rows, x->s.cols, &err), 0);
    uint64_t seen = 0;
    for (uint64_t i = 0; i < x->s.size; i++) {
        space_unrank(&x->s, i, &b);
        int want = naive_lookup(&set, naive_pack(b.cells, n)), d = -1, len = -1;
        int rc = db_distance(db, &b, &d, &err);
        if (want < 0) {
            assert_int_equal(rc, SLIDE_EUNSOLVABLE);
            continue;
        }
        if (rc || d != want)
            fail_msg("index %llu: rc %d (%s), distance %d, BFS says %d",
                     (unsigned long long)i, rc, rc ? err.msg : "", d, want);
        assert_int_equal(db_path(db, &b, moves, &len, &err), 0);
        assert_int_equal(len, want);
        replay(&b, moves, len, &x->goal);
        seen++;
    }
    assert_int_equal(seen, set.len);
    board_free(&b);
    naive_free(&set);
}

/* ---- round trips ------------------------------------------------------------------ */

static void test_roundtrip_3x3(void **state)
{
    (void)state;
    struct search x;
    char path[256];
    uint64_t pub[64];
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    assert_int_equal(published_histogram(3, 3, "corner", pub, 64), 32);
    tmp_path(path, sizeof path, "rt33.db");
    for (int enc = 1; enc <= 8; enc *= 2) {
        if (enc == 4)
            continue;
        struct db db;
        struct db_verify_report rep;
        slide_error err;
        save(&x, path, enc, -1, 0, 0);
        load(path, &db);
        assert_int_equal(db.rows, 3);
        assert_int_equal(db.cols, 3);
        assert_int_equal(db.encoding, enc);
        assert_int_equal(db.level, enc == 8 ? 9 : 1);
        assert_int_equal(db.radius, 31);
        assert_int_equal(db.indexes, 181440);
        assert_true(board_equal(&db.goal, &x.goal));
        assert_memory_equal(db.hist, pub, 32 * sizeof *pub);
        for (uint64_t i = 0; enc == 1 && i < x.s.size; i++)
            assert_int_equal((db.payload[i / 8] >> (i % 8)) & 1, store_get(&x.st, i));
        if (db_verify(&db, 2, &rep, &err))
            fail_msg("verify: %s", err.msg);
        assert_int_equal(rep.checked, 181440);
        check_every_board(&x, &db);
        db_free(&db);
    }
    unlink(path);
    search_free(&x);
}

/* A goal with the blank in the centre: its own histogram and distances. */
static void test_centre_goal(void **state)
{
    (void)state;
    struct search x;
    struct db db;
    char path[256];
    uint64_t pub[64];
    search_run(&x, 3, 3, "1 2 3/4 0 5/6 7 8", SPACE_COMPACT);
    tmp_path(path, sizeof path, "centre.db");
    save(&x, path, 1, 6, 2, 0);
    load(path, &db);
    assert_int_equal(published_histogram(3, 3, "centre (cell 4)", pub, 64), 31);
    assert_int_equal(db.radius, 30);
    assert_memory_equal(db.hist, pub, 31 * sizeof *pub);
    assert_int_equal(db.level, 6);
    check_every_board(&x, &db);
    db_free(&db);
    unlink(path);
    search_free(&x);
}

/* 2x5 in 56 small blocks: identical files for 1 and 2 threads, sampled distances. */
static void test_roundtrip_2x5(void **state)
{
    (void)state;
    struct search x;
    struct db db;
    struct db_verify_report rep;
    struct naive_set set;
    slide_error err;
    char p1[256], p2[256];
    uint64_t pub[64], hist[64];
    size_t l1, l2;
    search_run(&x, 2, 5, NULL, SPACE_COMPACT);
    tmp_path(p1, sizeof p1, "rt25a.db");
    tmp_path(p2, sizeof p2, "rt25b.db");
    save(&x, p1, 1, 1, 1, 4096);
    save(&x, p2, 1, 1, 2, 4096);
    uint8_t *a = read_all(p1, &l1), *b = read_all(p2, &l2);
    assert_int_equal(l1, l2);
    assert_memory_equal(a, b, l1);
    load(p1, &db);
    assert_int_equal(db.nblocks, 56);
    assert_int_equal(published_histogram(2, 5, "corner", pub, 64), 56);
    assert_memory_equal(db.hist, pub, 56 * sizeof *pub);
    if (db_verify(&db, 2, &rep, &err))
        fail_msg("verify: %s", err.msg);
    assert_int_equal(naive_bfs(2, 5, x.goal.cells, hist, 64, &set), 55);
    struct board bd;
    assert_int_equal(board_alloc(&bd, 2, 5, &err), 0);
    for (uint64_t i = 0; i < x.s.size; i += 97) {
        int d;
        space_unrank(&x.s, i, &bd);
        assert_int_equal(db_distance(&db, &bd, &d, &err), 0);
        assert_int_equal(d, naive_lookup(&set, naive_pack(bd.cells, 10)));
    }
    board_free(&bd);
    naive_free(&set);
    db_free(&db);
    free(a);
    free(b);
    unlink(p1);
    unlink(p2);
    search_free(&x);
}

/* The full space (half the indexes unreachable) and a path graph. */
static void test_full_space_and_path_graph(void **state)
{
    (void)state;
    static const struct { int rows, cols; enum space_kind kind; } cases[] = {
        {2, 3, SPACE_FULL}, {1, 5, SPACE_COMPACT}, {4, 1, SPACE_FULL}, {2, 2, SPACE_COMPACT}};
    char path[256];
    tmp_path(path, sizeof path, "full.db");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int enc = 1; enc <= 8; enc *= 2) {
            struct search x;
            struct db db;
            struct db_verify_report rep;
            slide_error err;
            if (enc == 4)
                continue;
            search_run(&x, cases[c].rows, cases[c].cols, NULL, cases[c].kind);
            save(&x, path, enc, 9, 0, 0);
            load(path, &db);
            if (db_verify(&db, 1, &rep, &err))
                fail_msg("verify %dx%d: %s", cases[c].rows, cases[c].cols, err.msg);
            assert_int_equal(rep.checked, x.s.reachable);
            assert_int_equal(rep.checked + rep.unreachable, x.s.size);
            check_every_board(&x, &db);
            db_free(&db);
            search_free(&x);
        }
    unlink(path);
}

/* ---- queries it must refuse ------------------------------------------------------------ */

static void test_other_board_or_goal(void **state)
{
    (void)state;
    struct search x;
    struct db db;
    struct board b, g;
    slide_error err;
    char path[256];
    int d;
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(path, sizeof path, "other.db");
    save(&x, path, 1, -1, 0, 0);
    load(path, &db);
    assert_int_equal(board_goal(&b, 2, 5, &err), 0);
    assert_int_equal(db_distance(&db, &b, &d, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "the database is for 3x3 boards, the board is 2x5"));
    board_free(&b);
    assert_int_equal(board_parse("1 2 3/4 0 5/6 7 8", 0, 0, &g, &err), 0);
    assert_int_equal(db_match(&db, NULL, &g, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "for goal 1 2 3/4 5 6/7 8 0, not 1 2 3/4 0 5/6 7 8"));
    assert_int_equal(db_match(&db, &g, &x.goal, &err), SLIDE_OK);
    board_free(&g);
    assert_int_equal(board_parse("1 2 3/4 5 6/8 7 0", 0, 0, &b, &err), 0);
    assert_int_equal(db_distance(&db, &b, &d, &err), SLIDE_EUNSOLVABLE);
    board_free(&b);
    db_free(&db);
    unlink(path);
    search_free(&x);
}

/* ---- corruption -------------------------------------------------------------------------- */

struct corrupt_ctx {
    uint8_t *good;
    size_t len;
    char path[256];
};

/* Open (header) and load (payload) buf; require code and a message part. */
static void expect_bad(const uint8_t *buf, size_t len, int code, const char *part)
{
    struct db db;
    slide_error err = {{0}};
    int rc = db_open_mem(buf, len, &db, &err);
    if (!rc) {
        rc = db_load_payload(&db, 2, &err);
        db_free(&db);
    }
    if (rc != code || !strstr(err.msg, part))
        fail_msg("got %d \"%s\", wanted %d \"%s\"", rc, err.msg, code, part);
}

/* A copy of the good file with one change made by the caller. */
static uint8_t *copy_of(const struct corrupt_ctx *c)
{
    uint8_t *b = malloc(c->len + 64);
    assert_non_null(b);
    memcpy(b, c->good, c->len);
    return b;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void test_corruptions(void **state)
{
    (void)state;
    struct search x;
    struct corrupt_ctx c;
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(c.path, sizeof c.path, "corrupt.db");
    save(&x, c.path, 1, 6, 0, 4096); /* 6 blocks */
    c.good = read_all(c.path, &c.len);
    expect_bad(c.good, c.len, SLIDE_OK, "");
    uint8_t *b;
    const size_t rec = 16; /* the header record starts here */
    uint32_t len = (uint32_t)c.good[14] | (uint32_t)c.good[15] << 8;
    uint64_t first_block = DB_HEADER_MEMBER(len);

    b = copy_of(&c); b[0] = 'P';
    expect_bad(b, c.len, SLIDE_EFORMAT, "does not start with a gzip header");
    free(b);
    b = copy_of(&c); b[12] = 'X';
    expect_bad(b, c.len, SLIDE_EFORMAT, "a gzip file but not a slide database");
    free(b);
    b = copy_of(&c); b[rec + 2] = 'X';
    expect_bad(b, c.len, SLIDE_EFORMAT, "the header does not start with \"slide-db\"");
    free(b);
    b = copy_of(&c); put32(b + rec + 8, DB_PDB_FORMAT_VERSION + 1);
    expect_bad(b, c.len, SLIDE_EFORMAT, "format version 4 is newer than this slide reads");
    free(b);
    b = copy_of(&c); b[rec + DB_RECORD_FIXED + 8 * 5] ^= 1; /* histogram */
    expect_bad(b, c.len, SLIDE_EFORMAT, "header checksum mismatch");
    free(b);
    /* fields that disagree, with the header checksum made right again */
    b = copy_of(&c); put32(b + rec + 20, 2); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "header goal has a value past cell 6 of a 2x3 board");
    free(b);
    b = copy_of(&c); put32(b + rec + 28, 1); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "but the 3x3 full space has 362880");
    free(b);
    b = copy_of(&c); put32(b + rec + 40, 30); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "radius 30 and 6 blocks need");
    free(b);
    b = copy_of(&c); put32(b + rec + 32, 7); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "encoding 7 (1, 2 or 8)");
    free(b);
    b = copy_of(&c); b[rec + 84] = 9; fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "header goal is not a valid board");
    free(b);
    b = copy_of(&c); put32(b + rec + 80, 12345); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "payload checksum mismatch");
    free(b);
    b = copy_of(&c); put32(b + rec + DB_RECORD_FIXED + 8 * 32 + 16, 1); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "block 0 checksum mismatch");
    free(b);
    /* sizes */
    expect_bad(c.good, c.len - 100, SLIDE_EFORMAT, "the file is truncated: it has");
    expect_bad(c.good, 40, SLIDE_EFORMAT, "truncated");
    expect_bad(c.good, 0, SLIDE_EFORMAT, "does not start with a gzip header");
    b = copy_of(&c);
    expect_bad(b, c.len + 7, SLIDE_EFORMAT, "extra data at the end");
    free(b);
    /* flipped bytes inside the compressed blocks */
    for (size_t at = first_block + 30; at < c.len; at += 997) {
        b = copy_of(&c); b[at] ^= 0x10;
        expect_bad(b, c.len, SLIDE_EFORMAT, "block ");
        free(b);
    }
    free(c.good);
    unlink(c.path);
    search_free(&x);
}

/* ---- the stored (uncompressed) form --------------------------------------------------- */

static void write_all(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* db_map of path: the return code, and the message part wanted. */
static void expect_map(const char *path, int check, int code, const char *part)
{
    struct db db;
    slide_error err = {{0}};
    int mapped = -1;
    int rc = db_map(path, 2, check, NULL, &db, &mapped, &err);
    if (!rc)
        db_free(&db);
    if (rc != code || !strstr(err.msg, part))
        fail_msg("db_map: got %d \"%s\", wanted %d \"%s\"", rc, err.msg, code, part);
}

/* Every encoding stored: the same payload as compressed, laid out in the
 * file as it is; loaded, mapped (in place) and verified; every 3x3 board
 * against the naive BFS through the mapping. */
static void test_stored_roundtrip(void **state)
{
    (void)state;
    struct search x;
    char path[256], zpath[256];
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(path, sizeof path, "stored.db");
    tmp_path(zpath, sizeof zpath, "stored-z.db");
    for (int enc = 1; enc <= 8; enc *= 2) {
        if (enc == 4)
            continue;
        struct db db, z, m;
        struct db_verify_report rep;
        slide_error err;
        int mapped = 0;
        size_t len;
        save(&x, path, enc, DB_LEVEL_STORED, 2, 4096); /* several blocks */
        save(&x, zpath, enc, -1, 2, 4096);
        load(path, &db);
        load(zpath, &z);
        assert_int_equal(db.version, DB_FORMAT_STORED_VERSION);
        assert_int_equal(z.version, DB_FORMAT_VERSION);
        assert_int_equal(db.level, DB_LEVEL_STORED);
        assert_true(db.nblocks > 1);
        assert_int_equal(db.payload_bytes, z.payload_bytes);
        assert_memory_equal(db.payload, z.payload, z.payload_bytes);
        uint8_t *file = read_all(path, &len);
        assert_int_equal(len, db.blocks[0].offset + db.payload_bytes);
        assert_memory_equal(file + db.blocks[0].offset, z.payload, z.payload_bytes);
        free(file);
        if (db_map(path, 2, 1, NULL, &m, &mapped, &err))
            fail_msg("db_map: %s", err.msg);
        assert_int_equal(mapped, 1);
        assert_non_null(m.map);
        assert_ptr_equal(m.payload, (uint8_t *)m.map + m.blocks[0].offset);
        if (db_verify(&m, 2, &rep, &err))
            fail_msg("verify: %s", err.msg);
        check_every_board(&x, &m);
        db_free(&m);
        if (db_map(zpath, 2, 1, NULL, &m, &mapped, &err)) /* compressed: loaded, not mapped */
            fail_msg("db_map: %s", err.msg);
        assert_int_equal(mapped, 0);
        assert_null(m.map);
        assert_memory_equal(m.payload, z.payload, z.payload_bytes);
        db_free(&m);
        /* a stop requested: both forms stop loading with SLIDE_EINTR, db freed */
        volatile sig_atomic_t stop = 1;
        assert_int_equal(db_map(zpath, 2, 1, &stop, &m, &mapped, &err), SLIDE_EINTR);
        assert_null(m.payload);
        assert_int_equal(db_map(path, 2, 1, &stop, &m, &mapped, &err), SLIDE_EINTR);
        assert_null(m.map);
        assert_non_null(strstr(err.msg, "interrupted"));
        assert_int_equal(db_map(path, 2, 0, &stop, &m, &mapped, &err), 0); /* nothing to read */
        db_free(&m);
        db_free(&db);
        db_free(&z);
    }
    unlink(path);
    unlink(zpath);
    search_free(&x);
}

/* Damaged stored files: named by db_load, by db_map with its check, and
 * refused by both where the header itself is wrong. */
static void test_stored_corruptions(void **state)
{
    (void)state;
    struct search x;
    struct corrupt_ctx c;
    char bad[256];
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(c.path, sizeof c.path, "stored-bad.db");
    tmp_path(bad, sizeof bad, "stored-bad2.db");
    save(&x, c.path, 8, DB_LEVEL_STORED, 0, 65536); /* 3 blocks */
    c.good = read_all(c.path, &c.len);
    expect_bad(c.good, c.len, SLIDE_OK, "");
    expect_map(c.path, 1, SLIDE_OK, "");
    const size_t rec = 16;
    uint32_t len = (uint32_t)c.good[14] | (uint32_t)c.good[15] << 8;
    uint64_t first_block = DB_HEADER_MEMBER(len);
    uint8_t *b;
    /* a changed payload byte in each block */
    for (uint64_t at = first_block + 5; at < c.len; at += 65536) {
        char want[64];
        snprintf(want, sizeof want, "block %u checksum mismatch",
                 (unsigned)((at - first_block) / 65536));
        b = copy_of(&c); b[at] ^= 0x40;
        expect_bad(b, c.len, SLIDE_EFORMAT, want);
        write_all(bad, b, c.len);
        expect_map(bad, 1, SLIDE_EFORMAT, want);
        expect_map(bad, 0, SLIDE_OK, ""); /* unchecked: mapped as it is */
        free(b);
    }
    /* truncated, too long, a block length that is not the block's */
    expect_bad(c.good, c.len - 1, SLIDE_EFORMAT, "the file is truncated");
    write_all(bad, c.good, c.len - 1);
    expect_map(bad, 1, SLIDE_EFORMAT, "the file is truncated");
    write_all(bad, c.good, first_block);
    expect_map(bad, 0, SLIDE_EFORMAT, "the file is truncated");
    b = copy_of(&c);
    expect_bad(b, c.len + 3, SLIDE_EFORMAT, "extra data at the end");
    free(b);
    b = copy_of(&c);
    put32(b + rec + DB_RECORD_FIXED + 8 * 32 + 8, 65535); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "block 0 is 65535 bytes in a stored file");
    free(b);
    /* the version and the level must agree */
    b = copy_of(&c); put32(b + rec + 36, 9); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "format version 3 stores its blocks uncompressed");
    free(b);
    b = copy_of(&c); put32(b + rec + 8, DB_FORMAT_VERSION); fuzz_fixup(b, c.len);
    expect_bad(b, c.len, SLIDE_EFORMAT, "zlib level 255 (0..9)");
    free(b);
    /* a pattern database cannot be stored */
    struct db_save_options o = {8, DB_LEVEL_STORED, 1, 0};
    struct db hdr = {0};
    slide_error err;
    assert_int_equal(db_save_pdb(bad, &hdr, c.good, &o, NULL, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "zlib level must be 0..9"));
    unlink(bad);
    free(c.good);
    unlink(c.path);
    search_free(&x);
}

static void test_open_errors(void **state)
{
    (void)state;
    struct db db;
    slide_error err;
    assert_int_equal(db_open("/nonexistent/dir/x.db", &db, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "cannot open /nonexistent/dir/x.db"));
    assert_int_equal(db_open("/tmp", &db, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "not a regular file"));
    db_free(&db);
}

/* A file whose checksums are right but whose values are wrong: verify must
 * name it, and lookups must fail cleanly or stay within the radius. */
static void test_sealed_inconsistency(void **state)
{
    (void)state;
    struct search x;
    char path[256];
    slide_error err;
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(path, sizeof path, "sealed.db");
    for (int enc = 1; enc <= 8; enc *= 2) {
        struct db db, bad;
        struct db_verify_report rep;
        struct db_save_options o = {0, 1, 0, 0};
        if (enc == 4)
            continue;
        save(&x, path, enc, 1, 0, 0);
        load(path, &db);
        uint64_t at = 5000 + 77 * (uint64_t)enc; /* any board but the goal */
        if (enc == 1)
            db.payload[at / 8] ^= (uint8_t)(1u << (at % 8));
        else if (enc == 2)
            db.payload[at / 4] ^= (uint8_t)(1u << (2 * (at % 4)));
        else
            db.payload[at] = (uint8_t)(db.payload[at] + 2);
        assert_int_equal(db_write(path, &db, &o, NULL, &err), 0);
        load(path, &bad);
        assert_int_equal(db_verify(&bad, 2, &rep, &err), SLIDE_EFORMAT);
        /* every lookup either fails as EFORMAT or stays within the radius */
        struct board b;
        assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
        for (uint64_t i = 0; i < x.s.size; i += 7) {
            int d = -1;
            space_unrank(&x.s, i, &b);
            int rc = db_distance(&bad, &b, &d, &err);
            assert_true(rc == SLIDE_OK || rc == SLIDE_EFORMAT);
            if (rc == SLIDE_OK)
                assert_true(d >= 0 && d <= bad.radius);
        }
        board_free(&b);
        db_free(&bad);
        db_free(&db);
    }
    unlink(path);
    search_free(&x);
}

/* A full disk (here: a file size limit) gives SLIDE_EIO and leaves no file. */
static void test_disk_full(void **state)
{
    (void)state;
    struct search x;
    struct rlimit old, small;
    slide_error err;
    char path[256];
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(path, sizeof path, "full-disk.db");
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 8000;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    struct db_save_options o = {1, 0, 1, 0}; /* level 0: the file is > 22 KB */
    int rc = db_save(path, &x.s, &x.st, &x.r, &o, NULL, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, SLIDE_EIO);
    assert_non_null(strstr(err.msg, "writing "));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(system("ls -a /tmp | grep -q '^\\.slide-test-db-.*full-disk' "), 256);
    /* and a directory that does not exist */
    assert_int_equal(db_save("/nonexistent/dir/x.db", &x.s, &x.st, &x.r, &o, NULL, &err),
                     SLIDE_EIO);
    assert_non_null(strstr(err.msg, "directory /nonexistent/dir does not exist"));
    search_free(&x);
}

static void test_save_refusals(void **state)
{
    (void)state;
    struct search x;
    slide_error err;
    char path[256];
    search_run(&x, 3, 3, NULL, SPACE_COMPACT);
    tmp_path(path, sizeof path, "refuse.db");
    struct db_save_options o = {3, -1, 0, 0};
    assert_int_equal(db_save(path, &x.s, &x.st, &x.r, &o, NULL, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "encoding must be 1, 2 or 8"));
    o = (struct db_save_options){1, 10, 0, 0};
    assert_int_equal(db_save(path, &x.s, &x.st, &x.r, &o, NULL, &err), SLIDE_EINVAL);
    o = (struct db_save_options){1, -1, 0, 1};
    assert_int_equal(db_save(path, &x.s, &x.st, &x.r, &o, NULL, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "needs more than 2048 blocks"));
    x.r.complete = 0;
    o = (struct db_save_options){1, -1, 0, 0};
    assert_int_equal(db_save(path, &x.s, &x.st, &x.r, &o, NULL, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "only a complete search"));
    assert_int_equal(access(path, F_OK), -1);
    search_free(&x);
}

/* ---- inputs found by the fuzzers (scripts/fuzz.sh) ------------------------------------ */

static int run_dir(const char *sub, void (*fn)(const uint8_t *, size_t))
{
    char dir[512], file[1024];
    int count = 0;
    snprintf(dir, sizeof dir, "%s/fuzz/%s", TEST_DATA_DIR, sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len;
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
            continue;
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        uint8_t *buf = read_all(file, &len);
        buf[len] = 0;
        fn(buf, len);
        free(buf);
        count++;
    }
    closedir(d);
    return count;
}

static void db_input(const uint8_t *buf, size_t len)
{
    LLVMFuzzerTestOneInput(buf, len);
}

static void board_input(const uint8_t *buf, size_t len)
{
    fuzz_board_one(buf, len);
}

static void test_fuzz_regressions(void **state)
{
    (void)state;
    assert_true(run_dir("db", db_input) > 0);
    fuzz_db_cleanup();
    assert_true(run_dir("board", board_input) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_3x3),
        cmocka_unit_test(test_centre_goal),
        cmocka_unit_test(test_roundtrip_2x5),
        cmocka_unit_test(test_full_space_and_path_graph),
        cmocka_unit_test(test_other_board_or_goal),
        cmocka_unit_test(test_corruptions),
        cmocka_unit_test(test_stored_roundtrip),
        cmocka_unit_test(test_stored_corruptions),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_sealed_inconsistency),
        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_save_refusals),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
