/*
 * test_db_mtm.c - distance databases in the multi-tile metric (db.h): every
 * distance of 2x3 and 3x3 files (several goals, encodings 2 and 8) against
 * the brute-force MTM BFS of testutil.h, every path replayed by the
 * rules-only checker of mtm_naive.h; the metric in the header, a file of
 * the other metric refused, encoding 1 refused, a damaged metric field
 * named; format 1 files written by an older slide (tests/data/db-v1/) read
 * as single-tile against the brute-force STM BFS.
 */
#include "testutil.h"
#include "mtm_naive.h"

#include <unistd.h>

#include "slide/bfs.h"
#include "slide/db.h"
#include "fuzz/fuzz_fixup.h"

static void tmp_path(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "/tmp/slide-test-db-mtm-%d-%s", (int)getpid(), name);
}

/* The MTM search of the rows x cols board with goal (NULL: the default),
 * saved to path with encoding enc: db_save's code (err says why). */
static int build_rc(const char *path, int rows, int cols, const char *goal_text, int enc,
                    slide_error *err)
{
    struct board goal;
    struct space s;
    struct store st;
    struct bfs_result r;
    struct bfs_options o = {.threads = 2, .metric = METRIC_MTM};
    struct db_save_options so = {enc, -1, 2, 0};
    if (goal_text)
        assert_int_equal(board_parse(goal_text, rows, cols, &goal, err), 0);
    else
        assert_int_equal(board_goal(&goal, rows, cols, err), 0);
    assert_int_equal(space_init(&s, &goal, SPACE_COMPACT, err), 0);
    assert_int_equal(store_alloc(&st, s.size, err), 0);
    if (bfs_run(&s, &st, &o, &r, err))
        fail_msg("%dx%d: %s", rows, cols, err->msg);
    int rc = db_save(path, &s, &st, &r, &so, NULL, err);
    store_free(&st);
    bfs_result_free(&r);
    board_free(&goal);
    return rc;
}

static void build(const char *path, int rows, int cols, const char *goal_text, int enc)
{
    slide_error err;
    if (build_rc(path, rows, cols, goal_text, enc, &err))
        fail_msg("%dx%d: %s", rows, cols, err.msg);
}

/*
 * Every index of db against a brute-force BFS of metric mtm (0 or 1):
 * radius, histogram, each distance, each path (its text replayed by the
 * rules: mtm_checker, or the STM replay) of exactly that many moves.
 */
static void check_every_board(const struct db *db, int mtm)
{
    struct naive_set set;
    uint64_t hist[256] = {0};
    slide_error err;
    int radius = mtm ? naive_mtm_bfs(db->rows, db->cols, db->goal.cells, hist, 256, &set)
                     : naive_bfs(db->rows, db->cols, db->goal.cells, hist, 256, &set);
    assert_int_equal(radius, db->radius);
    for (int d = 0; d <= radius; d++)
        assert_int_equal(hist[d], db->hist[d]);
    struct board b;
    unsigned char codes[DB_MAX_RADIUS + 1];
    char text[4096];
    assert_int_equal(board_alloc(&b, db->rows, db->cols, &err), 0);
    for (uint64_t i = 0; i < db->space.size; i++) {
        space_unrank(&db->space, i, &b);
        int want = naive_lookup(&set, naive_pack(b.cells, db->space.n)), d = -1, len = -1;
        assert_true(want >= 0);
        if (db_distance(db, &b, &d, &err) || db_path(db, &b, codes, &len, &err))
            fail_msg("index %llu: %s", (unsigned long long)i, err.msg);
        assert_int_equal(d, want);
        assert_int_equal(len, want);
        move_format_codes(codes, len, db->metric, text, sizeof text);
        if (mtm)
            assert_int_equal(mtm_checker(&b, text, &db->goal), want);
        else
            assert_true(test_replay(&b, text, strlen(text), &db->goal));
    }
    board_free(&b);
    naive_free(&set);
}

static void load(const char *path, struct db *db)
{
    slide_error err;
    if (db_load(path, 2, db, &err))
        fail_msg("db_load %s: %s", path, err.msg);
}

static void roundtrip(int rows, int cols, const char *goal, int enc)
{
    char path[256];
    struct db db;
    struct db_verify_report rep;
    slide_error err;
    tmp_path(path, sizeof path, "rt.db");
    build(path, rows, cols, goal, enc);
    load(path, &db);
    assert_int_equal(db.version, DB_FORMAT_VERSION);
    assert_int_equal(db.metric, METRIC_MTM);
    assert_int_equal(db.encoding, enc ? enc : DB_ENC_MOD3);
    check_every_board(&db, 1);
    if (db_verify(&db, 2, &rep, &err))
        fail_msg("db_verify: %s", err.msg);
    assert_int_equal(rep.checked, db.reachable);
    assert_int_equal(db_check_metric(&db, METRIC_MTM, &err), SLIDE_OK);
    assert_int_equal(db_check_metric(&db, METRIC_STM, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "counts multi-tile moves (mtm), not the single-tile "
                                    "moves (stm) asked for"));
    db_free(&db);
    unlink(path);
}

static void test_every_board_2x3(void **state)
{
    (void)state;
    roundtrip(2, 3, NULL, 0);
    roundtrip(2, 3, "0 1 2/3 4 5", 8);
    roundtrip(3, 2, "1 2/3 0/4 5", 2);
}

static void test_every_board_3x3(void **state)
{
    (void)state;
    roundtrip(3, 3, NULL, 0);
    roundtrip(3, 3, "1 2 3/4 0 5/6 7 8", 8);
}

/* A layer of MTM moves (a jump of two cells keeps the colour) holds boards
 * of both colours, so encoding 1 would be wrong: refused. */
static void test_encoding_1_refused(void **state)
{
    (void)state;
    slide_error err;
    char path[256];
    tmp_path(path, sizeof path, "enc1.db");
    assert_int_equal(build_rc(path, 2, 3, NULL, DB_ENC_BIT, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "encoding 2 or 8"));
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The metric field sits after the block table; a bad value, or MTM with
 * encoding 1, is refused with the field named. */
static void test_bad_metric_field(void **state)
{
    (void)state;
    char path[256];
    size_t len;
    struct db db;
    slide_error err;
    tmp_path(path, sizeof path, "field.db");
    build(path, 2, 3, NULL, 2);
    uint8_t *good = (uint8_t *)test_read_file(path, &len);
    uint32_t rlen = (uint32_t)good[14] | (uint32_t)good[15] << 8;
    size_t field = 16 + rlen - DB_METRIC_EXT;
    assert_int_equal(good[field], METRIC_MTM);
    uint8_t *b = malloc(len);
    assert_non_null(b);
    memcpy(b, good, len);
    put32(b + field, 2);
    fuzz_fixup(b, len);
    assert_int_equal(db_open_mem(b, len, &db, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "header names metric 2"));
    memcpy(b, good, len);
    put32(b + 16 + 32, DB_ENC_BIT);
    fuzz_fixup(b, len);
    assert_int_equal(db_open_mem(b, len, &db, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "encoding 1 for the multi-tile metric"));
    memcpy(b, good, len);
    put32(b + 16 + 8, 1); /* format 1 has no metric field: the length disagrees */
    fuzz_fixup(b, len);
    assert_int_equal(db_open_mem(b, len, &db, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "header record has"));
    free(b);
    free(good);
    unlink(path);
}

/* Files of format 1 (no metric field), written by slide before the
 * multi-tile metric: read as single-tile, every board right. */
static void test_format_1_files(void **state)
{
    (void)state;
    static const char *const files[] = {"tests/data/db-v1/2x3.db",
                                        "tests/data/db-v1/2x3-blank-first-enc8.db"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        struct db db;
        struct db_verify_report rep;
        slide_error err;
        load(files[k], &db);
        assert_int_equal(db.version, 1);
        assert_int_equal(db.metric, METRIC_STM);
        check_every_board(&db, 0);
        assert_int_equal(db_verify(&db, 1, &rep, &err), SLIDE_OK);
        assert_int_equal(db_check_metric(&db, METRIC_MTM, &err), SLIDE_EINVAL);
        assert_non_null(strstr(err.msg, "counts single-tile moves (stm), not the "
                                        "multi-tile moves (mtm)"));
        db_free(&db);
    }
}

/* A verified MTM file whose payload is altered no longer verifies: the
 * local check reads MTM neighbours (a 2x3 file of bytes, one value made
 * two more than it is). */
static void test_verify_catches(void **state)
{
    (void)state;
    char path[256];
    struct db db;
    struct db_verify_report rep;
    slide_error err;
    tmp_path(path, sizeof path, "verify.db");
    build(path, 2, 3, NULL, 8);
    load(path, &db);
    uint64_t i = db.goal_index == 0 ? 1 : 0;
    db.payload[i] = (uint8_t)(db.payload[i] + 2);
    assert_int_equal(db_verify(&db, 1, &rep, &err), SLIDE_EFORMAT);
    db_free(&db);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_board_2x3),
        cmocka_unit_test(test_every_board_3x3),
        cmocka_unit_test(test_encoding_1_refused),
        cmocka_unit_test(test_bad_metric_field),
        cmocka_unit_test(test_format_1_files),
        cmocka_unit_test(test_verify_catches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
