/*
 * test_mtm_pdb.c - pattern databases of kind mtm (pdb_build.h: plain tables
 * under multi-tile moves) against an abstract BFS written in the test: the
 * boards of mtm_naive.h with every tile outside the pattern relabelled 15
 * (one "free" label), searched by naive_mtm_bfs from the abstract goal.
 * Every board of 3x3 and 2x5: a loaded single table gives exactly its
 * abstract distance, a set of two gives their max (mtm tables are maxed,
 * not summed), which never exceeds the board's MTM distance; the reflected
 * lookup stays admissible; a set mixing mtm with other kinds is refused.
 */
#include "mtm_naive.h"

#include <unistd.h>

#include "slide/pdb.h"
#include "slide/pdb_file.h"

static char dir[64];

/* Build and save the table of `tiles` (a list) of kind `kind` as dir/name. */
static void make_table(const struct board *goal, const char *tiles, enum pdb_kind kind,
                       const char *name)
{
    struct pattern pat;
    struct pdb_table t;
    slide_error err;
    int list[PATTERN_MAX_TILES], k;
    char path[256];
    assert_int_equal(pattern_parse_tiles(tiles, list, PATTERN_MAX_TILES, &k, &err), 0);
    assert_int_equal(pattern_init(&pat, goal, list, k, &err), 0);
    struct pdb_build_options o = {2, 0, NULL, NULL};
    assert_int_equal(pdb_build(&pat, kind, &o, &t, &err), 0);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(pdb_save(path, &t, -1, 2, NULL, &err), 0);
    pdb_table_free(&t);
}

static int load(struct pdb_set *s, const char *a, const char *b, int reflect,
                slide_error *err)
{
    char list[600];
    if (b)
        snprintf(list, sizeof list, "%s/%s+%s/%s", dir, a, dir, b);
    else
        snprintf(list, sizeof list, "%s/%s", dir, a);
    return pdb_set_load(s, list, reflect, 1, err);
}

/* cells with every tile outside lo..hi relabelled 15. */
static naive_key abstract(const int *cells, int n, int lo, int hi)
{
    int a[16];
    for (int i = 0; i < n; i++)
        a[i] = cells[i] && (cells[i] < lo || cells[i] > hi) ? 15 : cells[i];
    return naive_pack(a, n);
}

/* Patterns lo1..hi1 and hi1+1..n-1 on R x C. */
static void check_board(int R, int C, int hi1, int reflect)
{
    int n = R * C, cells[16];
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, R, C, &err), 0);
    char t1[32], t2[32];
    snprintf(t1, sizeof t1, "1-%d", hi1);
    snprintf(t2, sizeof t2, "%d-%d", hi1 + 1, n - 1);
    make_table(&goal, t1, PDB_MTM, "a.pdb");
    make_table(&goal, t2, PDB_MTM, "b.pdb");
    uint64_t hist[64];
    struct naive_set real, abs1, abs2;
    naive_mtm_bfs(R, C, goal.cells, hist, 64, &real);
    for (int i = 0; i < n; i++)
        cells[i] = naive_cell(abstract(goal.cells, n, 1, hi1), i);
    naive_mtm_bfs(R, C, cells, hist, 64, &abs1);
    for (int i = 0; i < n; i++)
        cells[i] = naive_cell(abstract(goal.cells, n, hi1 + 1, n - 1), i);
    naive_mtm_bfs(R, C, cells, hist, 64, &abs2);
    struct pdb_set one, two, mirrored;
    assert_int_equal(load(&one, "a.pdb", NULL, 0, &err), 0);
    assert_int_equal(load(&two, "a.pdb", "b.pdb", 0, &err), 0);
    assert_true(pdb_set_admissible(&two) && pdb_set_metric(&two) == METRIC_MTM);
    if (reflect)
        assert_int_equal(load(&mirrored, "a.pdb", "b.pdb", 1, &err), 0);
    uint64_t boards = 0;
    for (size_t k = 0; k < real.cap; k++) {
        if (!real.keys[k])
            continue;
        for (int i = 0; i < n; i++)
            cells[i] = naive_cell(real.keys[k], i);
        int v1 = naive_lookup(&abs1, abstract(cells, n, 1, hi1));
        int v2 = naive_lookup(&abs2, abstract(cells, n, hi1 + 1, n - 1));
        assert_true(v1 >= 0 && v2 >= 0);
        assert_int_equal(pdb_set_h(&one, cells), v1);
        int h = pdb_set_h(&two, cells);
        assert_int_equal(h, v1 > v2 ? v1 : v2);
        assert_true(h <= real.dist[k]);
        if (reflect) {
            int hr = pdb_set_h(&mirrored, cells);
            assert_true(hr >= h && hr <= real.dist[k]);
        }
        boards++;
    }
    assert_int_equal(boards, real.len);
    pdb_set_free(&one);
    pdb_set_free(&two);
    if (reflect)
        pdb_set_free(&mirrored);
    naive_free(&real);
    naive_free(&abs1);
    naive_free(&abs2);
    board_free(&goal);
}

static void test_against_abstract_bfs(void **state)
{
    (void)state;
    check_board(3, 3, 4, 1);
    check_board(2, 5, 5, 0);
}

static void test_mixed_kinds_refused(void **state)
{
    (void)state;
    struct board goal;
    struct pdb_set s;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    make_table(&goal, "1-4", PDB_MTM, "a.pdb");
    make_table(&goal, "5-8", PDB_PLAIN, "p.pdb");
    assert_int_equal(load(&s, "a.pdb", "p.pdb", 0, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "of kind mtm"));
    /* the table's file says mtm, and pdb_verify recomputes it */
    struct pdb_table t;
    char path[256];
    snprintf(path, sizeof path, "%s/a.pdb", dir);
    assert_int_equal(pdb_load(path, 1, &t, &err), 0);
    assert_int_equal(t.kind, PDB_MTM);
    struct pdb_verify_report rep;
    assert_int_equal(pdb_verify(&t, 0, &rep, &err), 0);
    pdb_table_free(&t);
    board_free(&goal);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/slide-test-mtm-pdb-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    const char *names[] = {"a.pdb", "b.pdb", "p.pdb"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_abstract_bfs),
        cmocka_unit_test(test_mixed_kinds_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
