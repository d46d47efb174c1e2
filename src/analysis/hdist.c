/*
 * hdist.c - heuristic value distributions: uniform sampling, the exact
 * Manhattan programme and the confidence intervals (see hdist.h).
 */
#include "slide/hdist.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "slide/rng.h"
#include "slide/scramble.h"

static int hdist_alloc(struct hdist *d, int n, slide_error *err)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->count = calloc((size_t)n * HDIST_VALUES, sizeof *d->count);
    return d->count ? SLIDE_OK : slide_fail(err, SLIDE_ENOMEM, "out of memory for a "
                                            "distribution of %d cells", n);
}

void hdist_free(struct hdist *d)
{
    free(d->count);
    memset(d, 0, sizeof *d);
}

/* Draw chunk j (its own generator) into the thread's counts; -1 on error. */
static int sample_chunk(const struct heuristic *h, const struct board *goal, struct board *b,
                        uint64_t seed, uint64_t j, uint64_t boards, uint64_t *count,
                        int *bad)
{
    struct rng r;
    slide_error err;
    uint64_t x = seed ^ (j * 0xd1342543de82ef95ULL);
    rng_seed(&r, rng_splitmix64(&x));
    for (uint64_t i = 0; i < boards; i++) {
        if (scramble_uniform(&r, goal, b, &err))
            return -1;
        int v = heuristic_eval(h, b->cells);
        if (v < 0 || v >= HDIST_VALUES) {
            *bad = v;
            return -1;
        }
        count[(size_t)board_blank(b) * HDIST_VALUES + v]++;
    }
    return 0;
}

int hdist_sample(const struct heuristic *h, const struct board *goal, uint64_t samples,
                 uint64_t seed, int threads, struct hdist *d, slide_error *err)
{
    int n = board_cells(goal);
    if (n < 4 || n > HDIST_MAX_CELLS || goal->rows < 2 || goal->cols < 2)
        return slide_fail(err, SLIDE_EINVAL, "sampling needs a board of 4 to %d cells with "
                          "two rows and two columns at least, not %dx%d",
                          HDIST_MAX_CELLS, goal->rows, goal->cols);
    if (samples < 1)
        return slide_fail(err, SLIDE_EINVAL, "the number of samples must be at least 1");
    if (hdist_alloc(d, n, err))
        return SLIDE_ENOMEM;
    uint64_t chunks = (samples + HDIST_CHUNK - 1) / HDIST_CHUNK;
    int failed = 0, bad = 0;
    if (threads <= 0)
        threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads)
    {
        struct board b;
        slide_error e;
        uint64_t *mine = calloc((size_t)n * HDIST_VALUES, sizeof *mine);
        int ok = mine && board_alloc(&b, goal->rows, goal->cols, &e) == SLIDE_OK, mybad = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t j = 0; j < chunks; j++) {
            uint64_t boards = j + 1 < chunks ? HDIST_CHUNK : samples - j * HDIST_CHUNK;
            if (ok && sample_chunk(h, goal, &b, seed, j, boards, mine, &mybad))
                ok = 0;
        }
#pragma omp critical
        {
            if (!ok)
                failed = 1;
            if (mybad)
                bad = mybad;
            for (size_t i = 0; mine && i < (size_t)n * HDIST_VALUES; i++)
                d->count[i] += mine[i];
        }
        if (mine)
            board_free(&b);
        free(mine);
    }
    if (failed) {
        hdist_free(d);
        return bad ? slide_fail(err, SLIDE_EINVAL, "a heuristic value %d is outside 0..%d: "
                                "the heuristic does not fit this board", bad, HDIST_VALUES - 1)
                   : slide_fail(err, SLIDE_ENOMEM, "out of memory while sampling");
    }
    for (int c = 0; c < n; c++)
        for (int v = 0; v < HDIST_VALUES; v++) {
            uint64_t k = hdist_count(d, c, v);
            d->per_cell[c] += k;
            if (k && v > d->max)
                d->max = v;
        }
    d->total = samples;
    return SLIDE_OK;
}

/* Parity of the permutation of cells (blank counted as tile n). */
static int sequence_parity(const int *cells, int n)
{
    int inv = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int a = cells[i] ? cells[i] : n, b = cells[j] ? cells[j] : n;
            inv += a > b;
        }
    return inv & 1;
}

/* The programme's tables: for each (occupied set, parity) a row of sums. */
struct md_dp {
    int n, width, goal_cell[HDIST_EXACT_MAX_CELLS];
    uint64_t *row;                       /* (set * 2 + parity) * width + sum */
};

static uint64_t *md_row(struct md_dp *p, uint32_t set, int parity)
{
    return p->row + ((size_t)set * 2 + (size_t)parity) * (size_t)p->width;
}

/* Place tile t (the popcount of set, plus one) on every free cell of set. */
static void md_extend(struct md_dp *p, int cols, uint32_t set)
{
    int t = __builtin_popcount(set) + 1, g = p->goal_cell[t];
    for (int parity = 0; parity < 2; parity++) {
        const uint64_t *from = md_row(p, set, parity);
        for (int c = 0; c < p->n; c++) {
            if (set >> c & 1)
                continue;
            uint32_t after = set & ~((2u << c) - 1);  /* placed tiles on cells > c */
            int np = (parity + __builtin_popcount(after)) & 1;
            int dist = abs(c / cols - g / cols) + abs(c % cols - g % cols);
            uint64_t *to = md_row(p, set | 1u << c, np);
            for (int s = 0; s + dist < p->width; s++)
                to[s + dist] += from[s];
        }
    }
}

int hdist_manhattan_exact(const struct board *goal, struct hdist *d, slide_error *err)
{
    int n = board_cells(goal), rows = goal->rows, cols = goal->cols;
    if (n > HDIST_EXACT_MAX_CELLS || rows < 2 || cols < 2)
        return slide_fail(err, SLIDE_EINVAL, "the exact Manhattan distribution needs at most "
                          "%d cells and two rows and columns, not %dx%d",
                          HDIST_EXACT_MAX_CELLS, rows, cols);
    struct md_dp p = {.n = n, .width = (n - 1) * (rows + cols - 2) + 1};
    for (int c = 0; c < n; c++)
        p.goal_cell[goal->cells[c]] = c;
    p.row = calloc(((size_t)2 << n) * (size_t)p.width, sizeof *p.row);
    if (!p.row)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the exact Manhattan "
                          "programme (%zu MB)", (((size_t)2 << n) * p.width * 8) >> 20);
    if (hdist_alloc(d, n, err)) {
        free(p.row);
        return SLIDE_ENOMEM;
    }
    md_row(&p, 0, 0)[0] = 1;
    uint32_t full = (uint32_t)((1ull << n) - 1);
    /* sets in increasing order: every subset of a set comes before it */
    for (uint32_t set = 0; set < full; set++)
        if (__builtin_popcount(set) < n - 1)
            md_extend(&p, cols, set);
    int goal_parity = sequence_parity(goal->cells, n), gb = p.goal_cell[0];
    for (int b = 0; b < n; b++) {
        uint32_t set = full & ~(1u << b);
        /* the blank (tile n, the largest) on b: one inversion per tile after it */
        int inv = __builtin_popcount(set & ~((2u << b) - 1));
        int blank_md = abs(b / cols - gb / cols) + abs(b % cols - gb % cols);
        for (int parity = 0; parity < 2; parity++) {
            if (((parity + inv + goal_parity) & 1) != (blank_md & 1))
                continue;
            const uint64_t *r = md_row(&p, set, parity);
            for (int s = 0; s < p.width && s < HDIST_VALUES; s++) {
                d->count[(size_t)b * HDIST_VALUES + s] += r[s];
                d->per_cell[b] += r[s];
                if (r[s] && s > d->max)
                    d->max = s;
            }
        }
        d->total += d->per_cell[b];
    }
    free(p.row);
    d->exact = 1;
    return SLIDE_OK;
}

/* E|X - a| for X uniform on 0..m-1. */
static double mean_offset(int a, int m)
{
    return ((double)a * (a + 1) + (double)(m - 1 - a) * (m - a)) / (2.0 * m);
}

double hdist_manhattan_mean(const struct board *goal)
{
    double sum = 0;
    for (int c = 0; c < board_cells(goal); c++)
        if (goal->cells[c])
            sum += mean_offset(c / goal->cols, goal->rows) +
                   mean_offset(c % goal->cols, goal->cols);
    return sum;
}

/* Boards counted with the blank on cell (cell < 0: all) and value v. */
static uint64_t cell_count(const struct hdist *d, int cell, int v)
{
    if (cell >= 0)
        return hdist_count(d, cell, v);
    uint64_t k = 0;
    for (int c = 0; c < d->n; c++)
        k += hdist_count(d, c, v);
    return k;
}

struct hdist_estimate hdist_prob(const struct hdist *d, int cell, int v, double z)
{
    double N = (double)(cell < 0 ? d->total : d->per_cell[cell]);
    struct hdist_estimate e = {0, 0, 0};
    if (N <= 0)
        return e;
    double p = (double)cell_count(d, cell, v) / N;
    e.value = e.low = e.high = p;
    if (d->exact)
        return e;
    /* Wilson score interval: sound near 0 and 1, where the normal one is not */
    double z2 = z * z, den = 1 + z2 / N, mid = (p + z2 / (2 * N)) / den;
    double half = z * sqrt(p * (1 - p) / N + z2 / (4 * N * N)) / den;
    e.low = fmax(0, mid - half);
    e.high = fmin(1, mid + half);
    return e;
}

struct hdist_estimate hdist_mean(const struct hdist *d, int cell, double z)
{
    double N = (double)(cell < 0 ? d->total : d->per_cell[cell]), s1 = 0, s2 = 0;
    struct hdist_estimate e = {0, 0, 0};
    if (N <= 0)
        return e;
    for (int v = 0; v <= d->max; v++) {
        double k = (double)cell_count(d, cell, v);
        s1 += k * v;
        s2 += k * v * v;
    }
    e.value = e.low = e.high = s1 / N;
    if (d->exact || N < 2)
        return e;
    double var = (s2 - s1 * s1 / N) / (N - 1), half = z * sqrt(fmax(var, 0) / N);
    e.low = e.value - half;
    e.high = e.value + half;
    return e;
}
