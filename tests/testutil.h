/*
 * testutil.h - shared test helpers: cmocka includes, the published
 * histograms (tests/data/histograms.tsv), and an independent plain BFS over
 * boards with a hash set, written here without any of slide's indexing.
 */
#ifndef SLIDE_TESTUTIL_H
#define SLIDE_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slide/board.h"

/* ---- published histograms ------------------------------------------- */

/*
 * Find the row for board "RxC" (or its transpose) and goal-blank kind
 * ("corner", "centre (cell 4)", "mid-side edge cell") and copy its counts
 * into out (at most max); returns the number of counts, 0 if not found.
 */
static inline int published_histogram(int rows, int cols, const char *blank,
                                      uint64_t *out, int max)
{
    FILE *f = fopen(TEST_DATA_DIR "/histograms.tsv", "r");
    if (!f)
        return 0;
    static char line[1 << 14];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        int r, c;
        if (line[0] == '#' || sscanf(line, "%dx%d", &r, &c) != 2)
            continue;
        if (!((r == rows && c == cols) || (r == cols && c == rows)))
            continue;
        char *fields[6];
        char *p = line;
        int k = 0;
        for (; k < 6 && p; k++) {
            fields[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (k < 5 || strcmp(fields[1], blank) != 0)
            continue;
        for (char *q = fields[4]; *q && found < max;) {
            out[found++] = strtoull(q, &q, 10);
            if (*q == ',')
                q++;
            else
                break;
        }
    }
    fclose(f);
    return found;
}

/* The published multi-tile-metric counts of rows x cols with the blank
 * named blank ("corner"), from tests/data/mtm-published.tsv, into out (at
 * most max); returns how many. */
static inline int published_mtm_histogram(int rows, int cols, const char *blank,
                                          uint64_t *out, int max)
{
    FILE *f = fopen(TEST_DATA_DIR "/mtm-published.tsv", "r");
    if (!f)
        return 0;
    static char line[1 << 14];
    char want[64];
    int found = 0;
    snprintf(want, sizeof want, "%dx%d\t%s\t", rows, cols, blank);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, want, strlen(want)) != 0)
            continue;
        for (char *q = line + strlen(want); *q && found < max;) {
            out[found++] = strtoull(q, &q, 10);
            if (*q != ',')
                break;
            q++;
        }
    }
    fclose(f);
    return found;
}

/* ---- published antipodes (tests/data/antipodes.tsv) ------------------- */

/* One row: board size, goal, radius, count, the boards the source lists
 * (';'-separated, slide's syntax) and the source. */
struct published_antipodes {
    char *size, *goal, *boards, *source;
    long radius, count;
    char line[2048];
};

/* The next row of f into *a (its strings point into a->line); 0 at the end. */
static inline int published_antipodes_next(FILE *f, struct published_antipodes *a)
{
    while (fgets(a->line, sizeof a->line, f)) {
        if (a->line[0] == '#')
            continue;
        char *field[6], *p = a->line;
        for (int k = 0; k < 6; k++) {
            field[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
            else
                assert_int_equal(k, 5);
        }
        field[5][strcspn(field[5], "\n")] = '\0';
        a->size = field[0];
        a->goal = field[1];
        a->radius = strtol(field[2], NULL, 10);
        a->count = strtol(field[3], NULL, 10);
        a->boards = field[4];
        a->source = field[5];
        return 1;
    }
    return 0;
}

/* ---- files ------------------------------------------------------------ */

/* The whole file at path, NUL-terminated (malloc'd); its size in *len. */
static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Replace the file at path by len bytes from p. */
static inline void test_write_file(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s", path);
    assert_int_equal(fwrite(p, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* ---- naive BFS over boards ------------------------------------------ */

/* A board of up to 16 cells packed 4 bits per cell: cell k in bits 4k..4k+3. */
typedef uint64_t naive_key;

struct naive_set {
    naive_key *keys;  /* 0 = empty slot (no valid packed board is 0 for n >= 2) */
    uint8_t *dist;
    size_t cap, len;
};

static inline size_t naive_hash(naive_key k, size_t cap)
{
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ULL;
    k ^= k >> 29;
    return (size_t)k & (cap - 1);
}

/* Insert k with distance d unless present; returns 1 if inserted. */
static inline int naive_insert(struct naive_set *s, naive_key k, uint8_t d)
{
    size_t i = naive_hash(k, s->cap);
    while (s->keys[i]) {
        if (s->keys[i] == k)
            return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->keys[i] = k;
    s->dist[i] = d;
    s->len++;
    return 1;
}

/* Distance of k, or -1 if absent. */
static inline int naive_lookup(const struct naive_set *s, naive_key k)
{
    size_t i = naive_hash(k, s->cap);
    while (s->keys[i]) {
        if (s->keys[i] == k)
            return s->dist[i];
        i = (i + 1) & (s->cap - 1);
    }
    return -1;
}

static inline naive_key naive_pack(const int *cells, int n)
{
    naive_key k = 0;
    for (int i = 0; i < n; i++)
        k |= (naive_key)cells[i] << (4 * i);
    return k;
}

static inline int naive_cell(naive_key k, int i) { return (int)((k >> (4 * i)) & 15); }

/* The boards next to k (up to 4), the blank moved; returns how many. */
static inline int naive_neighbours(int rows, int cols, naive_key k, naive_key out[4])
{
    int z = 0, m = 0;
    while (naive_cell(k, z) != 0)
        z++;
    int r = z / cols, c = z % cols;
    int to[4] = {r > 0 ? z - cols : -1, r < rows - 1 ? z + cols : -1,
                 c > 0 ? z - 1 : -1, c < cols - 1 ? z + 1 : -1};
    for (int i = 0; i < 4; i++) {
        if (to[i] < 0)
            continue;
        naive_key tile = (k >> (4 * to[i])) & 15;
        out[m++] = (k & ~((naive_key)15 << (4 * to[i]))) | (tile << (4 * z));
    }
    return m;
}

/* Most boards next to one in the multi-tile metric: rows - 1 + cols - 1. */
#define NAIVE_MTM_MAX 32

/*
 * The boards next to k in the multi-tile metric (MTM: the blank jumps to
 * any other cell of its row or column, the tiles between sliding one cell
 * each), up to NAIVE_MTM_MAX; returns how many.  Made the slow, obvious
 * way: from k, the blank steps one cell at a time in each direction, each
 * step a swap with the tile it meets, and every board met is a neighbour.
 */
static inline int naive_neighbours_mtm(int rows, int cols, naive_key k,
                                       naive_key out[NAIVE_MTM_MAX])
{
    int z = 0, m = 0;
    while (naive_cell(k, z) != 0)
        z++;
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int dir = 0; dir < 4; dir++) {
        naive_key b = k;
        int r = z / cols, c = z % cols;
        for (;;) {
            int r2 = r + dr[dir], c2 = c + dc[dir];
            if (r2 < 0 || r2 >= rows || c2 < 0 || c2 >= cols)
                break;
            int from = r * cols + c, to = r2 * cols + c2;
            naive_key tile = (b >> (4 * to)) & 15;
            b = (b & ~((naive_key)15 << (4 * to))) | (tile << (4 * from));
            out[m++] = b;
            r = r2;
            c = c2;
        }
    }
    return m;
}

/*
 * Plain BFS from goal (rows*cols <= 16 cells) with a hash set and a FIFO
 * queue, in the single-tile metric (mtm 0) or the multi-tile one (mtm 1,
 * naive_neighbours_mtm), every board to distance maxdepth (-1: all).
 * Fills hist (counts per distance, at most maxd) and returns the radius
 * (the largest distance found); the set is left in *set as naive_bfs's.
 */
static inline int naive_bfs_metric(int rows, int cols, const int *goal, uint64_t *hist,
                                   int maxd, struct naive_set *set, int mtm, int maxdepth,
                                   size_t expect)
{
    int n = rows * cols;
    set->cap = 1;
    while (set->cap < expect + expect / 2 + 16)
        set->cap <<= 1;
    set->keys = calloc(set->cap, sizeof *set->keys);
    set->dist = calloc(set->cap, 1);
    set->len = 0;
    naive_key *queue = malloc(expect * sizeof *queue + 16 * sizeof *queue),
              next[NAIVE_MTM_MAX];
    size_t head = 0, tail = 0;
    memset(hist, 0, (size_t)maxd * sizeof *hist);
    queue[tail++] = naive_pack(goal, n);
    naive_insert(set, queue[0], 0);
    int radius = 0;
    while (head < tail) {
        naive_key k = queue[head++];
        int d = naive_lookup(set, k);
        assert_true(d >= 0 && d < maxd);
        hist[d]++;
        if (d > radius)
            radius = d;
        if (d == maxdepth)
            continue;
        int cnt = mtm ? naive_neighbours_mtm(rows, cols, k, next)
                      : naive_neighbours(rows, cols, k, next);
        for (int i = cnt; i-- > 0;)
            if (naive_insert(set, next[i], (uint8_t)(d + 1))) {
                assert_true(tail < expect + 16);
                queue[tail++] = next[i];
            }
    }
    free(queue);
    return radius;
}

static inline int naive_bfs(int rows, int cols, const int *goal, uint64_t *hist,
                            int maxd, struct naive_set *set)
{
    size_t half = 1; /* (RC)!/2: every board the goal can reach, and more */
    for (int i = 3; i <= rows * cols; i++)
        half *= (size_t)i;
    return naive_bfs_metric(rows, cols, goal, hist, maxd, set, 0, -1, half);
}

/* The boards one move from k (at most NAIVE_MAX_NEIGHBOURS) into out;
 * returns how many: naive_stm_neighbours (naive_neighbours) or
 * naive_neighbours_mtm. */
#define NAIVE_MAX_NEIGHBOURS NAIVE_MTM_MAX
typedef int (*naive_neighbours_fn)(int rows, int cols, naive_key k, naive_key *out);

static inline int naive_stm_neighbours(int rows, int cols, naive_key k, naive_key *out)
{
    return naive_neighbours(rows, cols, k, out);
}

static inline void naive_free(struct naive_set *s)
{
    free(s->keys);
    free(s->dist);
    memset(s, 0, sizeof *s);
}

/* An empty set of capacity cap (a power of two) and a queue of cap boards. */
static inline naive_key *naive_alloc(struct naive_set *set, size_t cap)
{
    set->cap = cap;
    set->len = 0;
    set->keys = calloc(cap, sizeof *set->keys);
    set->dist = calloc(cap, 1);
    naive_key *queue = malloc(cap * sizeof *queue);
    assert_true(set->keys && set->dist && queue);
    return queue;
}

/*
 * The ball of radius `depth` around `start` (rows*cols <= 16) by plain BFS
 * into a new hash set of capacity cap (a power of two above 1.5 times the
 * boards found; checked), distances in *set, moves from nbr.  Returns the
 * boards found.
 */
static inline size_t naive_ball_by(int rows, int cols, const int *start, int depth,
                                   size_t cap, struct naive_set *set, naive_neighbours_fn nbr)
{
    naive_key *queue = naive_alloc(set, cap), next[NAIVE_MAX_NEIGHBOURS];
    size_t head = 0, tail = 0;
    queue[tail++] = naive_pack(start, rows * cols);
    naive_insert(set, queue[0], 0);
    while (head < tail) {
        naive_key k = queue[head++];
        int d = naive_lookup(set, k);
        for (int i = d < depth ? nbr(rows, cols, k, next) : 0; i-- > 0;)
            if (naive_insert(set, next[i], (uint8_t)(d + 1))) {
                assert_true(set->len * 3 < cap * 2);
                queue[tail++] = next[i];
            }
    }
    free(queue);
    return set->len;
}

static inline size_t naive_ball(int rows, int cols, const int *start, int depth,
                                size_t cap, struct naive_set *set)
{
    return naive_ball_by(rows, cols, start, depth, cap, set, naive_stm_neighbours);
}

/*
 * Exact distance from board to the centre of `ball` (a ball of radius R
 * around the goal, same moves nbr), by a plain BFS from board that expands
 * nothing once a board of the ball is seen: every shortest path crosses
 * distance R from the goal at layer D - R of this BFS, and every board of
 * the ball seen gives k + (its distance in the ball) >= D, so the least of
 * these is D.  cap bounds the boards this BFS may hold (checked).
 */
static inline int naive_distance_by_ball_by(int rows, int cols, const int *board,
                                            const struct naive_set *ball, size_t cap,
                                            naive_neighbours_fn nbr)
{
    struct naive_set mine;
    naive_key *queue = naive_alloc(&mine, cap), next[NAIVE_MAX_NEIGHBOURS];
    size_t head = 0, tail = 0;
    int best = -1;
    queue[tail++] = naive_pack(board, rows * cols);
    naive_insert(&mine, queue[0], 0);
    while (head < tail) {
        naive_key k = queue[head++];
        int d = naive_lookup(&mine, k), in = naive_lookup(ball, k);
        if (in >= 0 && (best < 0 || d + in < best))
            best = d + in;
        for (int i = best < 0 ? nbr(rows, cols, k, next) : 0; i-- > 0;)
            if (naive_insert(&mine, next[i], (uint8_t)(d + 1))) {
                assert_true(mine.len * 3 < cap * 2);
                queue[tail++] = next[i];
            }
    }
    free(queue);
    naive_free(&mine);
    return best;
}

static inline int naive_distance_by_ball(int rows, int cols, const int *board,
                                         const struct naive_set *ball, size_t cap)
{
    return naive_distance_by_ball_by(rows, cols, board, ball, cap, naive_stm_neighbours);
}

/* The standard goal (1..n-1, blank last) with the blank moved to cell z by
 * swapping: any goal with the blank on z is isomorphic for histograms. */
static inline void goal_with_blank(int n, int z, int *cells)
{
    for (int i = 0; i < n - 1; i++)
        cells[i] = i + 1;
    cells[n - 1] = 0;
    cells[n - 1] = cells[z];
    cells[z] = 0;
}

/* ---- reproducible random boards ------------------------------------- */

/* xorshift64 (seed non-zero): the same boards on every machine. */
static inline uint64_t test_rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A uniformly random arrangement of cells[0..n-1] (Fisher-Yates). */
static inline void test_shuffle(int *cells, int n, uint64_t *seed)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(test_rng(seed) % (uint64_t)(i + 1)), t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
    }
}

/*
 * Apply len blank moves ('U','D','L','R') to a copy of b; 1 if every move
 * is legal and the copy ends equal to goal.  The check every solver's
 * output goes through.
 */
static inline int test_replay(const struct board *b, const char *moves, uint64_t len,
                              const struct board *goal)
{
    struct board c;
    slide_error err;
    if (board_copy(&c, b, &err))
        return 0;
    int z = board_blank(&c), ok = 1;
    for (uint64_t k = 0; k < len && ok; k++) {
        int m = move_parse(moves[k]);
        ok = m >= 0 && board_move(&c, &z, (enum move)m) == 0;
    }
    ok = ok && board_equal(&c, goal);
    board_free(&c);
    return ok;
}

#endif
