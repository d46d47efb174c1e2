/*
 * frontier_layers.h - the frontier tests' comparison of the two key kinds
 * (frontier_key.h, frontier_moved.h): both searches step by step, each
 * moved-key layer turned into rank keys and sorted, the same set of boards
 * as the rank-key layer, in either metric.  A consistency test (slide
 * against slide: two representations, two sorts, two merges).
 */
#ifndef SLIDE_TEST_FRONTIER_LAYERS_H
#define SLIDE_TEST_FRONTIER_LAYERS_H

#include "testutil.h"

#include "slide/frontier.h"

static inline void goal_board(struct board *g, int rows, int cols, int blank)
{
    slide_error err;
    assert_int_equal(board_alloc(g, rows, cols, &err), 0);
    goal_with_blank(rows * cols, blank, g->cells);
}

static inline int cmp_fkey(const void *a, const void *b)
{
    fkey x = *(const fkey *)a, y = *(const fkey *)b;
    return (x > y) - (x < y);
}

/* The boards of stream s as rank keys, sorted. */
static inline fkey *layer_ranks(const struct frontier_search *f, const struct fstream *s,
                                int depth, const struct fkey_space *ks)
{
    slide_error err;
    size_t len = frontier_key_bytes(f, depth);
    unsigned char *keys = malloc(FSTREAM_BLOCK * len);
    fkey *out = malloc((s->count + 1) * sizeof *out);
    struct board b;
    board_alloc(&b, f->ks.rows, f->ks.cols, &err);
    uint64_t k = 0;
    for (size_t blk = 0; blk < s->nblocks; blk++) {
        int n = fstream_read_block_bytes(s, blk, keys, len, &err);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            fmoved_board(&f->ms, keys + (size_t)i * len, &b);
            assert_true(fkey_reachable(ks, &b));
            out[k++] = fkey_of_board(ks, &b);
        }
    }
    assert_true(k == s->count);
    qsort(out, k, sizeof *out, cmp_fkey);
    board_free(&b);
    free(keys);
    return out;
}

/* Rank and moved keys step by step in metric m (depth < 0: to the end);
 * every layer the same set of boards. */
static inline void check_layers_equal(int rows, int cols, int blank, int depth,
                                      enum metric m)
{
    slide_error err;
    struct board g;
    goal_board(&g, rows, cols, blank);
    struct frontier_search fr, fm;
    assert_int_equal(frontier_init_metric(&fr, &g, FRONTIER_KEYS_RANK, m, NULL, &err), 0);
    assert_int_equal(frontier_init_metric(&fm, &g, FRONTIER_KEYS_MOVED, m, NULL, &err), 0);
    struct frontier_options o = {2, -1, 0, 0, 0, NULL, NULL, 0};
    fkey *rank = malloc(FSTREAM_BLOCK * sizeof *rank);
    while (!fr.complete && (depth < 0 || fr.depth < depth)) {
        assert_int_equal(frontier_step(&fr, &o, &err), 0);
        assert_int_equal(frontier_step(&fm, &o, &err), 0);
        assert_true(fr.cur.count == fm.cur.count);
        fkey *moved = layer_ranks(&fm, &fm.cur, fm.depth, &fr.ks);
        uint64_t k = 0;
        for (size_t blk = 0; blk < fr.cur.nblocks; blk++) {
            int n = fstream_read_block(&fr.cur, blk, rank, &err);
            for (int i = 0; i < n; i++, k++)
                if (rank[i] != moved[k])
                    fail_msg("%dx%d blank %d distance %d: the layers differ at board %llu",
                             rows, cols, blank, fr.depth, (unsigned long long)k);
        }
        free(moved);
    }
    assert_int_equal(fr.complete, fm.complete);
    free(rank);
    frontier_free(&fr);
    frontier_free(&fm);
    board_free(&g);
}

#endif
