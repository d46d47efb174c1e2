/*
 * test_window.c - the window tables (src/engine/move_tables.h): a window
 * reached from the previous one by window_enter's incremental step (or its
 * carry) equals the same window built from scratch, and every vertical
 * neighbour read from a window equals the one of vmove_lex on the board.
 */
#include "testutil.h"

#include "slide/space.h"
#include "../src/engine/move_tables.h"

struct tables {
    struct space s;
    struct board goal;
    struct tail tl;
    struct vtab v;
    struct wtab wt;
};

static struct tables *tables_new(int rows, int cols, int blank)
{
    struct tables *tb = calloc(1, sizeof *tb);
    slide_error err;
    assert_non_null(tb);
    assert_int_equal(board_alloc(&tb->goal, rows, cols, &err), 0);
    goal_with_blank(rows * cols, blank, tb->goal.cells);
    assert_int_equal(space_init(&tb->s, &tb->goal, SPACE_COMPACT, &err), 0);
    tail_init(&tb->tl, tb->s.m);
    assert_int_equal(vtab_init(&tb->v, &tb->s), 0);
    assert_int_equal(wtab_init(&tb->wt, &tb->s, &tb->tl, &tb->v), 0);
    assert_true(tb->wt.on);
    return tb;
}

static void tables_free(struct tables *tb)
{
    wtab_free(&tb->wt);
    vtab_free(&tb->v);
    board_free(&tb->goal);
    free(tb);
}

/* The parts of two windows the scan reads (and the first board) agree. */
static void assert_same_window(const struct window *a, const struct window *b,
                               const struct wtab *wt, int m)
{
    assert_int_equal(a->base, b->base);
    for (int mv = 0; mv < wt->nmv; mv++) {
        int nxr = wt->cls[mv] == VC_STRADDLE && (mv & 1) ? TAIL_MAX : 1;
        assert_int_equal(a->row[mv], b->row[mv]);
        for (int xr = 0; xr < nxr; xr++)
            assert_int_equal(a->head[mv][xr], b->head[mv][xr]);
    }
    for (int i = 0; i < wt->nzm; i++) {
        const struct zmove *q = &wt->zm[i];
        assert_ptr_equal(a->zrow[ZMOVE(q->dir, q->z)], b->zrow[ZMOVE(q->dir, q->z)]);
    }
    assert_int_equal(a->p.lex, b->p.lex);
    assert_int_equal(a->p.dsum, b->p.dsum);
    assert_memory_equal(a->p.t, b->p.t, (size_t)m); /* past m: slack */
    assert_memory_equal(a->p.d, b->p.d, (size_t)m);
}

/* Every vertical neighbour of every entry of the window, by the tables
 * and from the board. */
static void assert_targets(const struct tables *tb, const struct window *wn)
{
    const struct space *s = &tb->s;
    int n = s->n, c = tb->v.c;
    for (unsigned j = 0; j < WINDOW_BLOCKS; j++) {
        struct perm p[2];
        for (int k = 0; k < 2; k++) { /* the pair of block base + j */
            memset(&p[k], 0, sizeof p[k]);
            p[k].lex = 2 * (wn->base + j) + (uint64_t)k;
            perm_unrank(&p[k], s->m);
        }
        for (int z = 0; z < n; z++) {
            const struct perm *b = &p[(p[0].dsum & 1u) != (unsigned)s->need_parity[z]];
            if (z >= c)
                assert_int_equal(window_target(wn, 0, z, j, (uint64_t)n, c),
                                 (vmove_lex(&tb->v, b, z - c, 0, c) >> 1) * (uint64_t)n +
                                     (uint64_t)(z - c));
            if (z + c < n)
                assert_int_equal(window_target(wn, 1, z, j, (uint64_t)n, c),
                                 (vmove_lex(&tb->v, b, z, 1, c) >> 1) * (uint64_t)n +
                                     (uint64_t)(z + c));
        }
    }
}

/* Walk the windows with strides 1 (steps and carries), then 1..9 (several
 * steps at once, longer carries), and back to the start (rebuild), each
 * window against a fresh one; the neighbours of every 97th window. */
static void check_walk(int rows, int cols, int blank)
{
    struct tables *tb = tables_new(rows, cols, blank);
    uint64_t windows = tb->s.blocks / WINDOW_BLOCKS, seen = 0, rng = 7;
    struct window *walk = malloc(sizeof *walk), *fresh = malloc(sizeof *fresh);
    assert_non_null(walk);
    assert_non_null(fresh);
    window_init(walk, &tb->wt);
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t w = 0; w < windows; seen++) {
            window_enter(walk, &tb->wt, &tb->v, w * WINDOW_BLOCKS, tb->s.m);
            window_init(fresh, &tb->wt);
            window_enter(fresh, &tb->wt, &tb->v, w * WINDOW_BLOCKS, tb->s.m);
            assert_same_window(walk, fresh, &tb->wt, tb->s.m);
            if (seen % 97 == 0)
                assert_targets(tb, walk);
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            w += pass ? 1 + (rng >> 33) % 9 : 1;
        }
    free(walk);
    free(fresh);
    tables_free(tb);
}

/* Boards far too big to search: the neighbours of a few windows built
 * afresh at scattered bases.  Their segments reach past t[15], where a
 * comparison mask taken from t[0] would lose bits (it did, in wtab_rows). */
static void check_sampled(int rows, int cols)
{
    struct tables *tb = tables_new(rows, cols, rows * cols - 1);
    uint64_t windows = tb->s.blocks / WINDOW_BLOCKS, rng = 11;
    struct window *wn = malloc(sizeof *wn);
    assert_non_null(wn);
    for (int i = 0; i < 6; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t w = i == 0 ? 0 : i == 1 ? windows - 1 : (rng >> 11) % windows;
        window_init(wn, &tb->wt);
        window_enter(wn, &tb->wt, &tb->v, w * WINDOW_BLOCKS, tb->s.m);
        assert_targets(tb, wn);
    }
    free(wn);
    tables_free(tb);
}

static void test_small(void **state)
{
    (void)state;
    /* head of 1 and 2 tiles: the head's last position is in every up move */
    check_walk(2, 4, 7);
    check_walk(4, 2, 7);
    check_walk(2, 4, 0);
    check_walk(3, 3, 8);
    check_walk(3, 3, 4);
    check_walk(3, 3, 0);
}

static void test_2x5(void **state)
{
    (void)state;
    check_walk(2, 5, 9);
    check_walk(5, 2, 9);
    check_walk(2, 5, 4);
}

static void test_3x4(void **state)
{
    (void)state;
    check_walk(3, 4, 11);
    check_walk(4, 3, 11);
    check_walk(2, 6, 11);
}

static void test_big_boards(void **state)
{
    (void)state;
    check_sampled(2, 7);
    check_sampled(7, 2);
    check_sampled(2, 8);
    check_sampled(3, 6);
    check_sampled(5, 4);
    check_sampled(4, 5);
    check_sampled(2, 9);
    check_sampled(2, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_2x5),
        cmocka_unit_test(test_3x4),
        cmocka_unit_test(test_big_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
