/*
 * brute_big.h - a brute-force BFS over whole boards of up to 256 cells for
 * the frontier tests: boards as n bytes in a hash set, no key, no move
 * table; the moves made from the rules by swapping the blank with the cell
 * next to it, one cell at a time (a multi-tile move is several such swaps
 * in one direction, every board met on the way one move away).
 */
#ifndef SLIDE_TEST_BRUTE_BIG_H
#define SLIDE_TEST_BRUTE_BIG_H

#include "testutil.h"

/* Boards of up to 256 cells as n bytes, in a hash set. */
struct bigset {
    unsigned char *cells; /* len boards of n bytes, in the order found */
    uint32_t *slot;       /* cap slots: index + 1 of a board, 0 empty */
    size_t n, len, cap, room;
};

static inline uint64_t big_hash(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static inline int big_insert(struct bigset *s, const unsigned char *b)
{
    size_t i = big_hash(b, s->n) & (s->cap - 1);
    for (; s->slot[i]; i = (i + 1) & (s->cap - 1))
        if (!memcmp(s->cells + (s->slot[i] - 1) * s->n, b, s->n))
            return 0;
    assert_true(s->len < s->room);
    memcpy(s->cells + s->len * s->n, b, s->n);
    s->slot[i] = (uint32_t)++s->len;
    return 1;
}

/* Insert the boards one move from board i of s: one cell (mtm 0) or any
 * number of cells (mtm 1) of the blank along its row or column. */
static inline void big_expand(struct bigset *s, int rows, int cols, size_t i, int mtm)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    unsigned char b[256];
    int blank = 0;
    while (s->cells[i * s->n + (size_t)blank])
        blank++;
    for (int m = 0; m < 4; m++) {
        memcpy(b, s->cells + i * s->n, s->n);
        int r = blank / cols, c = blank % cols;
        for (;;) {
            int r2 = r + dr[m], c2 = c + dc[m];
            if (r2 < 0 || r2 >= rows || c2 < 0 || c2 >= cols)
                break;
            b[r * cols + c] = b[r2 * cols + c2];
            b[r2 * cols + c2] = 0;
            big_insert(s, b);
            r = r2;
            c = c2;
            if (!mtm)
                break;
        }
    }
}

/* Layers 0..maxd of rows x cols from the standard goal with the blank on
 * cell z, by plain BFS, layer after layer, in either metric. */
static inline void brute_layers(int rows, int cols, int z, int maxd, uint64_t *hist, int mtm)
{
    struct bigset s = {0};
    s.n = (size_t)(rows * cols);
    s.room = 1u << 19;
    s.cap = 1u << 21;
    s.cells = malloc(s.room * s.n);
    s.slot = calloc(s.cap, sizeof *s.slot);
    assert_true(s.n <= 256 && s.cells && s.slot);
    unsigned char b[256] = {0};
    for (size_t k = 0; k < s.n; k++)
        b[k] = (unsigned char)((k + 1) % s.n);
    b[s.n - 1] = b[z];
    b[z] = 0;
    big_insert(&s, b);
    size_t lo = 0, hi = 1;
    hist[0] = 1;
    for (int d = 1; d <= maxd; d++) {
        for (size_t i = lo; i < hi; i++)
            big_expand(&s, rows, cols, i, mtm);
        lo = hi;
        hi = s.len;
        hist[d] = hi - lo;
    }
    free(s.cells);
    free(s.slot);
}

#endif
