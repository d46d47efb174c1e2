/*
 * test_pdb.c - pattern database heuristics (pdb.h, pdb_file.h) against
 * independent truths: the exact distance of every board from the plain
 * hash-set BFS of testutil.h (admissibility; consistency on every edge for
 * a plain table; an overlapping partition caught overestimating), IDA* with the tables
 * against those distances (every 3x3 board, paths replayed; IDA* with wd
 * on a sample), samples of 3x4
 * against bidirectional BFS, the file round trip and its corruption checks,
 * and the verifier catching a wrong value.
 */
#include "testutil.h"

#include "clitest.h"
#include "fuzz/fuzz_fixup.h"

#include <unistd.h>

#include "slide/bibfs.h"
#include "slide/ida.h"
#include "slide/ida_parallel.h"
#include "slide/pdb.h"
#include "slide/pdb_file.h"

static char dir[64];

/* Build the table of tiles (a list such as "1-4") and save it as dir/name. */
static void make_table(int rows, int cols, const int *goalcells, const char *tiles,
                       enum pdb_kind kind, const char *name)
{
    struct board goal;
    struct pattern pat;
    struct pdb_table t;
    slide_error err;
    int list[PATTERN_MAX_TILES], k;
    char path[256];
    assert_int_equal(board_alloc(&goal, rows, cols, &err), 0);
    for (int c = 0; c < rows * cols; c++)
        goal.cells[c] = goalcells ? goalcells[c] : (c + 1) % (rows * cols);
    assert_int_equal(pattern_parse_tiles(tiles, list, PATTERN_MAX_TILES, &k, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, list, k, &err), 0);
    struct pdb_build_options o = {2, 0, NULL, NULL};
    assert_int_equal(pdb_build(&pat, kind, &o, &t, &err), 0);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(pdb_save(path, &t, -1, 2, NULL, &err), 0);
    pdb_table_free(&t);
    board_free(&goal);
}

static void open_set(struct pdb_set *s, const char *names, int reflect)
{
    char list[1024] = "", *p = list;
    slide_error err;
    const char *q = names;
    while (*q) { /* prefix every name with dir/ */
        size_t len = strcspn(q, "+");
        p += sprintf(p, "%s%s/%.*s", p == list ? "" : "+", dir, (int)len, q);
        q += len + (q[len] == '+');
    }
    int rc = pdb_set_load(s, list, reflect, 1, &err);
    if (rc)
        fail_msg("%s", err.msg);
}

struct sweep {
    uint64_t boards, over, exact, inconsistent;
    double sum_h;
};

/* Every board of the naive BFS: h <= d, and |h(a) - h(b)| <= 1 on every move. */
static struct sweep sweep_set(const struct pdb_set *s, int rows, int cols,
                              const struct naive_set *set)
{
    struct sweep w = {0};
    int n = rows * cols, cells[16];
    for (size_t i = 0; i < set->cap; i++) {
        if (!set->keys[i])
            continue;
        for (int c = 0; c < n; c++)
            cells[c] = naive_cell(set->keys[i], c);
        int h = pdb_set_h(s, cells), d = set->dist[i], z = 0;
        w.boards++;
        w.over += h > d;
        w.exact += h == d;
        w.sum_h += h;
        while (cells[z])
            z++;
        for (int m = 0; m < MOVE_COUNT; m++) {
            int to = board_step(rows, cols, z, (enum move)m);
            if (to < 0)
                continue;
            cells[z] = cells[to];
            cells[to] = 0;
            int h2 = pdb_set_h(s, cells);
            w.inconsistent += h2 > h + 1 || h2 < h - 1;
            cells[to] = cells[z];
            cells[z] = 0;
        }
    }
    return w;
}

static void test_sweeps_3x3_2x5(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    int goal9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0}, goal10[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
    naive_bfs(3, 3, goal9, hist, 64, &set);
    make_table(3, 3, NULL, "1-4", PDB_ADDITIVE, "a14");
    make_table(3, 3, NULL, "5-8", PDB_ADDITIVE, "a58");
    make_table(3, 3, NULL, "1,2,3", PDB_ADDITIVE, "a123");
    make_table(3, 3, NULL, "4,5,6", PDB_ADDITIVE, "a456");
    make_table(3, 3, NULL, "7,8", PDB_ADDITIVE, "a78");
    make_table(3, 3, NULL, "1-4", PDB_PLAIN, "p14");
    make_table(3, 3, NULL, "3-7", PDB_ADDITIVE, "a37");
    const char *good[] = {"a14+a58", "a123+a456+a78", "p14", "a14"};
    for (int reflect = 0; reflect < 2; reflect++)
        for (int i = 0; i < 4; i++) {
            struct pdb_set s;
            open_set(&s, good[i], reflect);
            assert_true(pdb_set_admissible(&s));
            struct sweep w = sweep_set(&s, 3, 3, &set);
            assert_true(w.boards == 181440);
            assert_true(w.over == 0);          /* admissible */
            /* a plain table is an exact distance in an abstraction: consistent;
             * additive tables, minimised over the blank's cell, need not be
             * (the counts go to results/, see paper-notes.md) */
            if (s.tables[0].kind == PDB_PLAIN)
                assert_true(w.inconsistent == 0);
            assert_true(w.exact >= 1);
            pdb_set_free(&s);
        }
    /* tiles 3 and 4 counted twice: the sum must overestimate somewhere */
    struct pdb_set bad;
    open_set(&bad, "a14+a37", 0);
    assert_false(pdb_set_admissible(&bad));
    struct sweep w = sweep_set(&bad, 3, 3, &set);
    assert_true(w.over > 0);
    pdb_set_free(&bad);
    naive_free(&set);

    naive_bfs(2, 5, goal10, hist, 64, &set);
    make_table(2, 5, NULL, "1,2,6,7", PDB_ADDITIVE, "b1");
    make_table(2, 5, NULL, "3,4,5,8,9", PDB_ADDITIVE, "b2");
    struct pdb_set s;
    open_set(&s, "b1+b2", 0);
    w = sweep_set(&s, 2, 5, &set);
    assert_true(w.boards == 1814400);
    assert_true(w.over == 0);

    pdb_set_free(&s);
    naive_free(&set);
}

/* IDA* with the 4-4 partition and reflection on every 3x3 board: the
 * length equals the exact distance, and every path replays to the goal. */
static void test_ida_every_3x3(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    int goal9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    naive_bfs(3, 3, goal9, hist, 64, &set);
    struct pdb_set s;
    open_set(&s, "a14+a58", 1);
    struct board goal;
    slide_error err;
    assert_int_equal(pdb_set_goal(&s, &goal, &err), 0);
    uint64_t wrong = 0, bad_path = 0, solved = 0;
#pragma omp parallel num_threads(2) reduction(+ : wrong, bad_path, solved)
    {
        struct ida_heuristic h;
        struct board b;
        slide_error e;
        board_alloc(&b, 3, 3, &e);
        ida_heuristic_open_pdb(&h, &s, "", &goal, &e);
#pragma omp for schedule(dynamic, 1024)
        for (size_t i = 0; i < set.cap; i++) {
            if (!set.keys[i])
                continue;
            for (int c = 0; c < 9; c++)
                b.cells[c] = naive_cell(set.keys[i], c);
            struct ida_result r;
            if (ida_solve(&b, &goal, &h, NULL, &r, &e) != SLIDE_OK)
                wrong++;
            else {
                wrong += r.length != set.dist[i];
                bad_path += ida_replay(&b, &goal, r.moves, r.length, NULL, &e) != 0;
            }
            solved++;
            ida_result_free(&r);
        }
        ida_heuristic_close(&h);
        board_free(&b);
    }
    assert_true(solved == 181440);
    assert_true(wrong == 0);
    assert_true(bad_path == 0);
    board_free(&goal);
    pdb_set_free(&s);
    naive_free(&set);
}

/* 3x4 samples: IDA* with an additive partition = IDA* with lc = bidirectional BFS. */
static void test_ida_samples_3x4(void **state)
{
    (void)state;
    make_table(3, 4, NULL, "1,2,5,6,9,10", PDB_ADDITIVE, "c1");
    make_table(3, 4, NULL, "3,4,7,8,11", PDB_ADDITIVE, "c2");
    struct pdb_set s;
    open_set(&s, "c1+c2", 0);
    struct board goal, b;
    struct ida_heuristic hp, hl;
    slide_error err;
    assert_int_equal(pdb_set_goal(&s, &goal, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 4, &err), 0);
    assert_int_equal(ida_heuristic_open_pdb(&hp, &s, "", &goal, &err), 0);
    assert_int_equal(ida_heuristic_open(&hl, "lc", &goal, &err), 0);
    uint64_t seed = 12345;
    for (int k = 0; k < 12; k++) {
        int cells[12];
        for (int c = 0; c < 12; c++)
            cells[c] = goal.cells[c];
        /* a random solvable board: shuffle, then fix parity by a tile swap */
        test_shuffle(cells, 12, &seed);
        memcpy(b.cells, cells, sizeof cells);
        struct bibfs_result br;
        if (bibfs_solve(&b, &goal, 0, &br, &err) == SLIDE_EUNSOLVABLE) {
            int i = cells[0] && cells[1] ? 0 : 2;
            int t = b.cells[i];
            b.cells[i] = b.cells[i + 1];
            b.cells[i + 1] = t;
            assert_int_equal(bibfs_solve(&b, &goal, 0, &br, &err), 0);
        }
        struct ida_result rp, rl;
        assert_int_equal(ida_solve(&b, &goal, &hp, NULL, &rp, &err), 0);
        assert_int_equal(ida_solve(&b, &goal, &hl, NULL, &rl, &err), 0);
        assert_int_equal(rp.length, br.distance);
        assert_int_equal(rl.length, br.distance);
        assert_int_equal(ida_replay(&b, &goal, rp.moves, rp.length, NULL, &err), 0);
        assert_true(rp.expanded <= rl.expanded); /* the tables prune more here */
        ida_result_free(&rp);
        ida_result_free(&rl);
        bibfs_result_free(&br);
    }
    ida_heuristic_close(&hp);
    ida_heuristic_close(&hl);
    board_free(&b);
    board_free(&goal);
    pdb_set_free(&s);
}

/*
 * IDA* cannot write past its path for any admissible h (issue 31: with h = 0
 * off the goal a node at depth = threshold is expanded and its children
 * evaluated).  Every 3x3 board one or two moves from the goal, solved with
 * every heuristic IDA* and the server accept: the built-in ones, single
 * tables (additive, plain, tiles 7-8 only), a full additive partition, each
 * with and without the mirror and maxed with every built-in; the length is
 * the exact distance of the test's own BFS and the path replays.  Run under
 * ASan (make asan) this also checks every write.
 */
static void test_one_move_boards(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    int goal9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    naive_bfs(3, 3, goal9, hist, 64, &set);
    make_table(3, 3, NULL, "1-4", PDB_ADDITIVE, "one14");
    make_table(3, 3, NULL, "5-8", PDB_ADDITIVE, "one58");
    make_table(3, 3, NULL, "7,8", PDB_ADDITIVE, "one78");
    make_table(3, 3, NULL, "1-4", PDB_PLAIN, "onep14");
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    const char *sets[] = {"one14", "one78", "onep14", "one14+one58", NULL};
    const char *with[] = {"", "lc", "manhattan", "misplaced", "wd", NULL};
    int solved = 0;
    for (int si = -1; sets[si < 0 ? 0 : si]; si++)
        for (int reflect = 0; reflect < (si < 0 ? 1 : 2); reflect++)
            for (int wi = si < 0; with[wi]; wi++) {
                struct pdb_set s;
                struct ida_heuristic h;
                if (si >= 0) {
                    open_set(&s, sets[si], reflect);
                    assert_int_equal(ida_heuristic_open_pdb(&h, &s, with[wi], &goal, &err), 0);
                } else {
                    assert_int_equal(ida_heuristic_open(&h, with[wi], &goal, &err), 0);
                }
                assert_true(h.admissible);
                for (size_t i = 0; i < set.cap; i++) {
                    if (!set.keys[i] || set.dist[i] < 1 || set.dist[i] > 2)
                        continue;
                    for (int c = 0; c < 9; c++)
                        b.cells[c] = naive_cell(set.keys[i], c);
                    struct ida_result r;
                    if (ida_solve(&b, &goal, &h, NULL, &r, &err) != SLIDE_OK)
                        fail_msg("%s%s with %s: %s", sets[si < 0 ? 0 : si],
                                 reflect ? " (mirror)" : "", with[wi], err.msg);
                    assert_int_equal(r.length, set.dist[i]);
                    assert_int_equal(ida_replay(&b, &goal, r.moves, r.length, NULL, &err), 0);
                    ida_result_free(&r);
                    solved++;
                }
                ida_heuristic_close(&h);
                if (si >= 0)
                    pdb_set_free(&s);
            }
    /* 2 boards at distance 1 and 4 at 2, for 4 built-ins and 4 x 2 x 5 table sets */
    assert_int_equal(solved, 6 * (4 + 4 * 2 * 5));
    board_free(&b);
    board_free(&goal);
    naive_free(&set);
}

/* IDA* with walking distance (--h wd) on every 37th 3x3 board and on a
 * 2x5 sample: the length equals the plain BFS distance. */
static void test_ida_wd(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    int goal9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    naive_bfs(3, 3, goal9, hist, 64, &set);
    struct board goal, b;
    struct ida_heuristic h;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    assert_int_equal(ida_heuristic_open(&h, "wd", &goal, &err), 0);
    assert_true(h.admissible);
    int checked = 0;
    for (size_t i = 0; i < set.cap; i += 37) {
        if (!set.keys[i])
            continue;
        for (int c = 0; c < 9; c++)
            b.cells[c] = naive_cell(set.keys[i], c);
        struct ida_result r;
        assert_int_equal(ida_solve(&b, &goal, &h, NULL, &r, &err), 0);
        assert_int_equal(r.length, set.dist[i]);
        ida_result_free(&r);
        checked++;
    }
    assert_true(checked > 1000);
    ida_heuristic_close(&h);
    board_free(&b);
    board_free(&goal);
    naive_free(&set);
}

static void test_reflect_refused(void **state)
{
    (void)state;
    int off[9] = {1, 0, 2, 3, 4, 5, 6, 7, 8}; /* blank on cell 1, off the diagonal */
    make_table(3, 3, off, "1-4", PDB_ADDITIVE, "off");
    make_table(2, 3, NULL, "1-3", PDB_ADDITIVE, "rect");
    struct pdb_set s;
    slide_error err;
    char path[256];
    snprintf(path, sizeof path, "%s/off", dir);
    assert_int_equal(pdb_set_load(&s, path, 1, 1, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "off the main diagonal"));
    assert_int_equal(pdb_set_load(&s, path, 0, 1, &err), 0);
    pdb_set_free(&s);
    snprintf(path, sizeof path, "%s/rect", dir);
    assert_int_equal(pdb_set_load(&s, path, 1, 1, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "square"));
    snprintf(path, sizeof path, "%s/a14+%s/rect", dir, dir);
    assert_int_equal(pdb_set_load(&s, path, 0, 1, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "another board"));
    /* an empty name in the list is refused, not skipped */
    const char *bad[] = {"%s/a14+", "+%s/a14", "%s/a14++%s/a14"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, bad[i], dir, dir);
        assert_int_equal(pdb_set_load(&s, path, 0, 1, &err), SLIDE_EINVAL);
        assert_non_null(strstr(err.msg, "bad pattern database list"));
    }
    assert_int_equal(pdb_set_load(&s, "", 0, 1, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "no pattern database named"));
}

/* Round trip, the verifier, and a corrupted file. */
static void test_file_and_verify(void **state)
{
    (void)state;
    struct pdb_table t;
    struct pdb_verify_report rep;
    slide_error err;
    char path[256];
    const char *names[] = {"a14", "a58", "p14", "a37"};
    char set_files[600];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        volatile sig_atomic_t stop = 1; /* a stop requested: nothing loaded */
        assert_int_equal(pdb_load_stoppable(path, 1, &stop, &t, &err), SLIDE_EINTR);
        assert_null(t.value);
        struct pdb_set set;
        snprintf(set_files, sizeof set_files, "%s+%s", path, path);
        assert_int_equal(pdb_set_load_stoppable(&set, set_files, 0, 1, &stop, &err),
                         SLIDE_EINTR);
        assert_int_equal(set.count, 0);
        assert_int_equal(pdb_load(path, 1, &t, &err), 0);
        assert_int_equal(pdb_verify(&t, 0, &rep, &err), 0);
        assert_true(rep.entries == t.entries);
        /* one wrong value is caught and named */
        uint64_t e = t.entries / 3;
        while (t.value[e] == PDB_NONE)
            e++;
        t.value[e] ^= 1;
        assert_int_equal(pdb_verify(&t, 0, &rep, &err), SLIDE_EFORMAT);
        assert_non_null(strstr(err.msg, "the search gives"));
        pdb_table_free(&t);
    }
    /* the 4-bit encoding is used when the values fit (tiles 1-3 reach 11),
     * a byte when they do not (tiles 5-8 reach 15) */
    struct db db;
    snprintf(path, sizeof path, "%s/a123", dir);
    assert_int_equal(db_open_pdb(path, &db, &err), 0);
    assert_int_equal(db.encoding, DB_ENC_NIBBLE);
    assert_true(db.radius <= 14);
    db_free(&db);
    snprintf(path, sizeof path, "%s/a58", dir);
    assert_int_equal(db_open_pdb(path, &db, &err), 0);
    assert_int_equal(db.encoding, DB_ENC_BYTE);
    assert_int_equal(db.radius, 15);
    db_free(&db);
    assert_int_equal(db_open(path, &db, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "pattern database"));
    /* flip a byte of the last block: its CRC catches it */
    size_t len;
    char *buf = test_read_file(path, &len);
    buf[len - 12] ^= 0x40;
    snprintf(path, sizeof path, "%s/bad", dir);
    test_write_file(path, buf, len);
    free(buf);
    assert_true(pdb_load(path, 1, &t, &err) == SLIDE_EFORMAT);
}

/*
 * Files of format 2 (before issue 31): an additive table is refused with a
 * message saying to rebuild (its seeding made values too low), a plain one,
 * seeded as now, is read.  The file is a format 3 one with the version field
 * set back to 2 and the header checksum made right again.
 */
static void test_old_format(void **state)
{
    (void)state;
    const char *names[] = {"a14", "p14"};
    for (int i = 0; i < 2; i++) {
        char path[256];
        size_t len;
        slide_error err;
        struct pdb_table t;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *buf = (uint8_t *)test_read_file(path, &len);
        assert_int_equal(buf[16 + 8], DB_PDB_FORMAT_VERSION);
        buf[16 + 8] = 2;
        fuzz_fixup(buf, len);
        snprintf(path, sizeof path, "%s/old-%s", dir, names[i]);
        test_write_file(path, (char *)buf, len);
        free(buf);
        int rc = pdb_load(path, 1, &t, &err);
        if (i == 0) {
            assert_int_equal(rc, SLIDE_EFORMAT);
            assert_non_null(strstr(err.msg, "format 2"));
            assert_non_null(strstr(err.msg, "rebuild it with slide pdb build"));
        } else {
            assert_int_equal(rc, SLIDE_OK);
            pdb_table_free(&t);
        }
    }
}

/* The 4x4 tables of an additive 4-4-4-3 partition (small enough for a test). */
static const char *const p4443 = "q1+q2+q3+q4";
static void make_4443(void)
{
    make_table(4, 4, NULL, "1,2,5,6", PDB_ADDITIVE, "q1");
    make_table(4, 4, NULL, "3,4,7,8", PDB_ADDITIVE, "q2");
    make_table(4, 4, NULL, "9,10,13,14", PDB_ADDITIVE, "q3");
    make_table(4, 4, NULL, "11,12,15", PDB_ADDITIVE, "q4");
}

/*
 * Consistency test (the incremental form against the full one, both
 * slide's): along random walks on 4x4 and on 3x3, with and without
 * reflection, with and without pdb_node_prefetch announcing the children,
 * with the ranked tables and with their sparse form (pdb_set_sparse, whose
 * values pdb_set_h never reads), pdb_node_start and pdb_node_move give
 * pdb_set_h of every board walked through.
 */
static void test_node_consistency(void **state)
{
    (void)state;
    make_4443();
    const char *sets[] = {p4443, "a14+a58", "a123+a456+a78"};
    int sides[] = {4, 3, 3};
    uint64_t seed = 99;
    for (int k = 0; k < 3; k++)
        for (int variant = 0; variant < 4; variant++) {
            int reflect = variant & 1, sparse = variant >> 1;
            struct pdb_set s;
            slide_error err;
            open_set(&s, sets[k], reflect);
            assert_true(pdb_node_ok(&s));
            pdb_set_drop_sparse(&s); /* these small sets get it when loaded */
            if (sparse)
                assert_int_equal(pdb_set_sparse(&s, 2, &err), SLIDE_OK);
            assert_true((s.sparse[0] != NULL) == sparse);
            int n = sides[k] * sides[k], cells[16], z = n - 1;
            for (int c = 0; c < n; c++)
                cells[c] = (c + 1) % n;
            struct pdb_node cur, next;
            assert_int_equal(pdb_node_start(&s, cells, &cur), pdb_set_h(&s, cells));
            for (int step = 0; step < 20000; step++) {
                int to = board_step(sides[k], sides[k], z, (enum move)(test_rng(&seed) % 4));
                if (to < 0)
                    continue;
                if (step % 3) /* announce the children first (entries kept), or not */
                    for (int m = 0; m < MOVE_COUNT; m++) {
                        int from = board_step(sides[k], sides[k], z, (enum move)m);
                        if (from >= 0)
                            pdb_node_prefetch(&s, &cur, cells, from, z);
                    }
                int t = cells[to];
                cells[z] = t;
                cells[to] = 0;
                int h = pdb_node_move(&s, &cur, t, to, z, &next);
                z = to;
                if (h != pdb_set_h(&s, cells))
                    fail_msg("set %s reflect %d sparse %d step %d: incremental h %d, full %d",
                             sets[k], reflect, sparse, step, h, pdb_set_h(&s, cells));
                struct pdb_node fresh; /* the entries moved, as ranked anew */
                pdb_node_start(&s, cells, &fresh);
                for (int j = 0; j < s.count; j++)
                    if (next.e[j] != fresh.e[j] || next.me[j] != fresh.me[j])
                        fail_msg("set %s reflect %d step %d: table %d's entry moved to "
                                 "%u/%u, ranked anew %u/%u", sets[k], reflect, step, j,
                                 next.e[j], next.me[j], fresh.e[j], fresh.me[j]);
                cur = next;
            }
            pdb_set_free(&s);
        }
    /* overlapping tables (tile 3 and 4 in both) take the full evaluation */
    struct pdb_set s;
    open_set(&s, "a14+a37", 0);
    assert_false(pdb_node_ok(&s));
    pdb_set_free(&s);
}

/*
 * The sparse form (pdb_set_sparse) against the ranked tables, every
 * placement: rank_unkperm (rank.c, not the conversion's rank-order walk)
 * gives each ranked entry's cells, whose base-n number must hold the same
 * value; the 4x4 set is of a size pdb_set_load converts by itself.
 */
static void test_sparse_form(void **state)
{
    (void)state;
    make_4443();
    const char *sets[] = {p4443, "a123+a456+a78"};
    for (int k = 0; k < 2; k++) {
        struct pdb_set s;
        open_set(&s, sets[k], 0);
        assert_non_null(s.sparse[0]); /* at most 3 times the ranked size: converted */
        for (int j = 0; j < s.count; j++) {
            const struct pattern *pat = &s.tables[j].pat;
            for (uint64_t r = 0; r < s.tables[j].entries; r++) {
                uint8_t pos[PATTERN_MAX_TILES];
                uint64_t e = 0;
                rank_unkperm(r, pat->k, pat->n, pos);
                for (int i = 0; i < pat->k; i++)
                    e = e * (uint64_t)pat->n + pos[i];
                if (s.sparse[j][e] != s.tables[j].value[r])
                    fail_msg("set %s table %d rank %llu: sparse %d, ranked %d", sets[k], j,
                             (unsigned long long)r, s.sparse[j][e], s.tables[j].value[r]);
            }
        }
        pdb_set_free(&s);
    }
}

/*
 * Korf's 100 instances (tests/data/korf100.txt, slide's goal): six of the
 * easiest, solved by IDA* with the 4-4-4-3 tables and the mirrored lookup,
 * have the optimal lengths Korf published, and every path replays.
 */
/* Korf's instances `pick` with 4-4-4-3 and the mirror at their published
 * lengths, by ida_solve (threads 1) or the parallel search with every
 * iteration split. */
static void korf_published(int threads)
{
    static const int pick[] = {12, 30, 42, 55, 79, 97};
    FILE *f = fopen(TEST_DATA_DIR "/korf100.txt", "r");
    assert_non_null(f);
    char line[512];
    int lengths[101] = {0};
    char boards[101][64];
    while (fgets(line, sizeof line, f)) {
        int i, len;
        char korf[64], ours[64];
        if (line[0] == '#' ||
            sscanf(line, "%d\t%63[^\t]\t%63[^\t]\t%d", &i, korf, ours, &len) != 4)
            continue;
        assert_true(i >= 1 && i <= 100);
        lengths[i] = len;
        strcpy(boards[i], ours);
    }
    fclose(f);
    struct pdb_set s;
    open_set(&s, p4443, 1);
    struct board goal;
    struct ida_heuristic h;
    slide_error err;
    assert_int_equal(pdb_set_goal(&s, &goal, &err), 0);
    struct ida_heuristic hs[2]; /* one per thread */
    for (int t = 0; t < threads; t++)
        assert_int_equal(ida_heuristic_open_pdb(&hs[t], &s, "", &goal, &err), 0);
    h = hs[0];
    assert_true(h.move != NULL); /* the incremental form is the one tested */
    for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++) {
        struct board b;
        struct ida_result r;
        assert_true(lengths[pick[k]] > 0);
        assert_int_equal(board_parse(boards[pick[k]], 4, 4, &b, &err), 0);
        assert_int_equal(ida_solve_parallel_from(&b, &goal, hs, threads, 0, NULL, &r, &err), 0);
        if (r.length != lengths[pick[k]])
            fail_msg("Korf #%d: length %d, published %d", pick[k], r.length,
                     lengths[pick[k]]);
        assert_int_equal(ida_replay(&b, &goal, r.moves, r.length, NULL, &err), 0);
        ida_result_free(&r);
        board_free(&b);
    }
    for (int t = 0; t < threads; t++)
        ida_heuristic_close(&hs[t]);
    board_free(&goal);
    pdb_set_free(&s);
}

static void test_korf_published_lengths(void **state)
{
    (void)state;
    korf_published(1);
    korf_published(2);
}

/*
 * The parallel search (ida_parallel.h) with the incremental pattern
 * database heuristic, whose per-depth state the items replay: 3x3 boards
 * with a14+a58 and the mirror against the plain BFS's distances, and
 * Korf's instances of test_korf_published_lengths at their published
 * lengths, on 2 and 3 threads with every iteration split; every path
 * replayed.
 */
static void test_parallel_with_tables(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    int goal9[9] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    naive_bfs(3, 3, goal9, hist, 64, &set);
    struct pdb_set s;
    open_set(&s, "a14+a58", 1);
    struct board goal, b;
    struct ida_heuristic h[3];
    struct ida_result r;
    slide_error err;
    assert_int_equal(pdb_set_goal(&s, &goal, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    for (int t = 0; t < 3; t++)
        assert_int_equal(ida_heuristic_open_pdb(&h[t], &s, "", &goal, &err), 0);
    assert_true(h[0].move != NULL);
    uint64_t seed = 7;
    for (int done = 0; done < 200;) {
        naive_key k = set.keys[test_rng(&seed) % set.cap];
        if (!k)
            continue;
        for (int c = 0; c < 9; c++)
            b.cells[c] = naive_cell(k, c);
        for (int threads = 2; threads <= 3; threads++) {
            assert_int_equal(ida_solve_parallel_from(&b, &goal, h, threads, 0, NULL, &r, &err),
                             0);
            if (r.length != naive_lookup(&set, k))
                fail_msg("%d threads: length %d, BFS %d", threads, r.length,
                         naive_lookup(&set, k));
            assert_int_equal(ida_replay(&b, &goal, r.moves, r.length, NULL, &err), 0);
            ida_result_free(&r);
        }
        done++;
    }
    for (int t = 0; t < 3; t++)
        ida_heuristic_close(&h[t]);
    board_free(&b);
    board_free(&goal);
    pdb_set_free(&s);
    naive_free(&set);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/slide-test-pdb-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweeps_3x3_2x5),  cmocka_unit_test(test_ida_every_3x3),
        cmocka_unit_test(test_ida_samples_3x4), cmocka_unit_test(test_reflect_refused), cmocka_unit_test(test_ida_wd),
        cmocka_unit_test(test_file_and_verify), cmocka_unit_test(test_node_consistency),
        cmocka_unit_test(test_sparse_form),
        cmocka_unit_test(test_korf_published_lengths), cmocka_unit_test(test_one_move_boards),
        cmocka_unit_test(test_old_format), cmocka_unit_test(test_parallel_with_tables),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
