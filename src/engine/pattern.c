/*
 * pattern.c - pattern spaces (pattern.h): set-up, tile lists, placements.
 */
#include "slide/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_shape(const struct board *goal, int k, slide_error *err)
{
    int n = board_cells(goal);
    if (goal->rows < 2 || goal->cols < 2)
        return slide_fail(err, SLIDE_EINVAL, "a pattern database needs a board of at least "
                          "2x2, not %dx%d", goal->rows, goal->cols);
    if (n > PATTERN_MAX_CELLS)
        return slide_fail(err, SLIDE_EINVAL, "a %dx%d board has %d cells; pattern "
                          "databases handle at most %d", goal->rows, goal->cols, n,
                          PATTERN_MAX_CELLS);
    if (k < 1 || k > n - 1)
        return slide_fail(err, SLIDE_EINVAL, "a pattern of %d tiles on a %dx%d board: "
                          "1..%d tiles are allowed", k, goal->rows, goal->cols, n - 1);
    return SLIDE_OK;
}

static void init_neighbours(struct pattern *pat)
{
    for (int c = 0; c < pat->n; c++) {
        if (c % pat->cols != 0)
            pat->not_first_col |= 1u << c;
        if (c % pat->cols != pat->cols - 1)
            pat->not_last_col |= 1u << c;
        uint32_t m = 0;
        for (int mv = 0; mv < MOVE_COUNT; mv++) {
            int t = board_step(pat->rows, pat->cols, c, (enum move)mv);
            if (t >= 0)
                m |= 1u << t;
        }
        pat->nbr[c] = m;
    }
}

int pattern_init(struct pattern *pat, const struct board *goal, const int *tiles,
                 int k, slide_error *err)
{
    int rc = check_shape(goal, k, err);
    if (rc)
        return rc;
    memset(pat, 0, sizeof *pat);
    pat->rows = goal->rows;
    pat->cols = goal->cols;
    pat->n = board_cells(goal);
    pat->k = k;
    pat->nfree = pat->n - k;
    for (int c = 0; c < pat->n; c++) {
        pat->slot[c] = -1;
        pat->goal_cells[c] = goal->cells[c];
        if (goal->cells[c] == 0)
            pat->goal_blank = c;
    }
    for (int i = 0; i < k; i++) {
        int t = tiles[i];
        if (t < 1 || t >= pat->n)
            return slide_fail(err, SLIDE_EINVAL, "pattern tile %d is out of range for a "
                              "%dx%d board (1..%d)", t, pat->rows, pat->cols, pat->n - 1);
        if (pat->slot[t] >= 0)
            return slide_fail(err, SLIDE_EINVAL, "pattern tile %d is given twice", t);
        pat->slot[t] = i;
        pat->tiles[i] = t;
        for (int c = 0; c < pat->n; c++)
            if (goal->cells[c] == t)
                pat->goal_pos[i] = (uint8_t)c;
    }
    pat->placements = rank_kperm_count(pat->n, k);
    if (pat->placements == 0 || pat->placements > UINT64_MAX / (uint64_t)pat->nfree)
        return slide_fail(err, SLIDE_ERANGE, "a pattern of %d tiles on %d cells has more "
                          "states than 64-bit indexes hold", k, pat->n);
    init_neighbours(pat);
    pat->weight[k - 1] = 1;
    for (int i = k - 2; i >= 0; i--)
        pat->weight[i] = pat->weight[i + 1] * (uint64_t)(pat->n - i - 1);
    return SLIDE_OK;
}

static int parse_item(const char **p, int *lo, int *hi)
{
    char *end;
    long a = strtol(*p, &end, 10), b;
    if (end == *p || a < 0 || a > 999)
        return -1;
    b = a;
    if (*end == '-') {
        const char *q = end + 1;
        b = strtol(q, &end, 10);
        if (end == q || b < a || b > 999)
            return -1;
    }
    *lo = (int)a;
    *hi = (int)b;
    *p = end;
    return 0;
}

int pattern_parse_tiles(const char *text, int *tiles, int max, int *k, slide_error *err)
{
    const char *p = text;
    *k = 0;
    while (*p) {
        int lo, hi;
        if (parse_item(&p, &lo, &hi) != 0 || (*p && *p != ','))
            return slide_fail(err, SLIDE_EINVAL, "bad tile list \"%s\": give tile numbers "
                              "and ranges separated by commas, e.g. 1,2,3 or 1-7", text);
        for (int t = lo; t <= hi; t++) {
            if (*k >= max)
                return slide_fail(err, SLIDE_EINVAL, "tile list \"%s\" names more than %d "
                                  "tiles", text, max);
            tiles[(*k)++] = t;
        }
        if (*p == ',' && !*++p) /* "1-2,": an empty last item, refused like ",1" */
            return slide_fail(err, SLIDE_EINVAL, "bad tile list \"%s\": it ends with a "
                              "comma; give tile numbers and ranges separated by commas, "
                              "e.g. 1,2,3 or 1-7", text);
    }
    if (*k == 0)
        return slide_fail(err, SLIDE_EINVAL, "empty tile list: give e.g. 1,2,3 or 1-7");
    return SLIDE_OK;
}

size_t pattern_format_tiles(const struct pattern *pat, char *buf, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < pat->k; i++) {
        int w = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
                         "%s%d", i ? "," : "", pat->tiles[i]);
        used += (size_t)w;
    }
    if (pat->k == 0 && len)
        buf[0] = '\0';
    return used;
}

void pattern_placement(const struct pattern *pat, const int *cells, uint8_t *pos)
{
    for (int c = 0; c < pat->n; c++) {
        int t = cells[c];
        if (t > 0 && pat->slot[t] >= 0)
            pos[pat->slot[t]] = (uint8_t)c;
    }
}

/* Whole-mask steps: the cells of r and their four neighbours, as shifts of
 * the mask (a shift by one cell must not wrap into the next row; bits past
 * the last cell are cut by free). */
uint32_t pattern_region(const struct pattern *pat, uint32_t seed, uint32_t free)
{
    uint32_t r = seed;
    for (;;) {
        uint32_t g = (r | (r << 1 & pat->not_first_col) | (r >> 1 & pat->not_last_col) |
                      r << pat->cols | r >> pat->cols) & free;
        if (g == r)
            return r;
        r = g;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* With BMI2: pext packs the cells' bits to their free ranks, pdep spreads
 * rank j to bit 2j; the inverse the other way round. */
__attribute__((target("bmi2"))) static uint64_t free_entries_bmi2(uint32_t occ,
                                                                  uint32_t cells)
{
    return __builtin_ia32_pdep_di(__builtin_ia32_pext_si(cells, ~occ), 0x5555555555555555ULL);
}

__attribute__((target("bmi2"))) static uint32_t entries_cells_bmi2(uint32_t free,
                                                                   uint64_t entries)
{
    return __builtin_ia32_pdep_si(
        (uint32_t)__builtin_ia32_pext_di(entries, 0x5555555555555555ULL), free);
}

static int have_bmi2(void)
{
    static int bmi2 = -1; /* benign race: every thread computes the same value */
    if (bmi2 < 0)
        bmi2 = __builtin_cpu_supports("bmi2") ? 1 : 0;
    return bmi2;
}
#endif

uint64_t pattern_free_entries(uint32_t occ, uint32_t cells)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_bmi2())
        return free_entries_bmi2(occ, cells);
#endif
    uint64_t out = 0;
    for (uint32_t x = cells; x; x &= x - 1)
        out |= 1ULL << (2 * pattern_free_rank(occ, __builtin_ctz(x)));
    return out;
}

uint32_t pattern_entries_cells(const struct pattern *pat, uint32_t occ, uint64_t entries)
{
    uint32_t free = ~occ & ((1u << pat->n) - 1u);
#if defined(__x86_64__) && defined(__GNUC__)
    if (have_bmi2())
        return entries_cells_bmi2(free, entries);
#endif
    uint32_t out = 0;
    for (int j = 0; free; free &= free - 1, j++)
        if (entries >> (2 * j) & 1)
            out |= free & -free;
    return out;
}
