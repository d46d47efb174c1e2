/*
 * metric.c - the two metrics and their move generators (metric.h).
 */
#include "slide/metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *metric_name(enum metric m)
{
    return m == METRIC_MTM ? "mtm" : "stm";
}

const char *metric_long_name(enum metric m)
{
    return m == METRIC_MTM ? "multi-tile" : "single-tile";
}

int metric_parse(const char *name)
{
    if (strcmp(name, "stm") == 0)
        return METRIC_STM;
    if (strcmp(name, "mtm") == 0)
        return METRIC_MTM;
    return -1;
}

int move_target(int rows, int cols, int blank, unsigned char code)
{
    int k = move_code_cells(code), r = blank / cols, c = blank % cols;
    switch (move_code_dir(code)) {
    case MOVE_UP: r -= k; break;
    case MOVE_DOWN: r += k; break;
    case MOVE_LEFT: c -= k; break;
    case MOVE_RIGHT: c += k; break;
    }
    return r < 0 || r >= rows || c < 0 || c >= cols ? -1 : r * cols + c;
}

int move_apply(int *cells, int cols, int blank, unsigned char code)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int dir = (int)move_code_dir(code), step = dr[dir] * cols + dc[dir];
    for (int i = move_code_cells(code); i > 0; i--) {
        cells[blank] = cells[blank + step];
        blank += step;
    }
    cells[blank] = 0;
    return blank;
}

int move_set_init(struct move_set *s, int rows, int cols, enum metric m,
                  slide_error *err)
{
    memset(s, 0, sizeof *s);
    if (m != METRIC_STM && m != METRIC_MTM)
        return slide_fail(err, SLIDE_EINVAL, "unknown metric %d (stm or mtm)", (int)m);
    if (rows < 1 || cols < 1 || rows > BOARD_MAX_SIDE || cols > BOARD_MAX_SIDE)
        return slide_fail(err, SLIDE_EINVAL, "a %dx%d board has no moves (sides 1..%d)",
                          rows, cols, BOARD_MAX_SIDE);
    if (m == METRIC_MTM && (rows > MOVE_MAX_CELLS + 1 || cols > MOVE_MAX_CELLS + 1))
        return slide_fail(err, SLIDE_ERANGE, "the multi-tile metric is supported on boards "
                          "with sides up to %d, not %dx%d", MOVE_MAX_CELLS + 1, rows, cols);
    s->metric = m;
    s->rows = rows;
    s->cols = cols;
    s->n = rows * cols;
    s->max = m == METRIC_MTM ? rows + cols - 2 : MOVE_COUNT;
    if (s->max < 1)
        s->max = 1;
    s->count = calloc((size_t)s->n, sizeof *s->count);
    s->codes = malloc((size_t)s->n * (size_t)s->max);
    s->to = malloc((size_t)s->n * (size_t)s->max * sizeof *s->to);
    if (!s->count || !s->codes || !s->to) {
        move_set_free(s);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the moves of a %dx%d board",
                          rows, cols);
    }
    int kmax = m == METRIC_MTM ? (rows > cols ? rows : cols) - 1 : 1;
    for (int z = 0; z < s->n; z++)
        for (int d = 0; d < MOVE_COUNT; d++)
            for (int k = 1; k <= kmax; k++) {
                unsigned char code = move_code((enum move)d, k);
                int to = move_target(rows, cols, z, code);
                if (to < 0)
                    break;
                size_t i = (size_t)z * (size_t)s->max + (size_t)s->count[z]++;
                s->codes[i] = code;
                s->to[i] = to;
            }
    return SLIDE_OK;
}

void move_set_free(struct move_set *s)
{
    free(s->count);
    free(s->codes);
    free(s->to);
    memset(s, 0, sizeof *s);
}

size_t move_format_codes(const unsigned char *codes, int len, enum metric m, char *buf,
                         size_t size)
{
    size_t need = 0;
    for (int i = 0; i < len; i++) {
        int k = m == METRIC_MTM ? move_code_cells(codes[i]) : 1;
        char c = move_letter(move_code_dir(codes[i]));
        for (int j = 0; j < k + (m == METRIC_MTM && i > 0); j++, need++)
            if (need + 1 < size)
                buf[need] = j == 0 && m == METRIC_MTM && i > 0 ? ' ' : c;
    }
    if (size)
        buf[need < size ? need : size - 1] = '\0';
    return need;
}

int move_parse_codes(const char *text, enum metric m, unsigned char *codes, int max,
                     int *len, slide_error *err)
{
    *len = 0;
    for (const char *p = text; *p;) {
        int d = move_parse(*p), k = 1;
        if (d < 0)
            return slide_fail(err, SLIDE_EINVAL, "move %d: '%c' is not a move (U, D, L, R%s)",
                              *len + 1, *p, m == METRIC_MTM ? "; moves separated by one "
                              "space" : "");
        while (m == METRIC_MTM && p[k] && p[k] != ' ') {
            if (p[k] != *p)
                return slide_fail(err, SLIDE_EINVAL, "move %d: \"%.*s\" mixes directions (a "
                                  "multi-tile move repeats one letter)", *len + 1,
                                  (int)strcspn(p, " "), p);
            k++;
        }
        if (k > MOVE_MAX_CELLS)
            return slide_fail(err, SLIDE_EINVAL, "move %d travels %d cells, more than %d",
                              *len + 1, k, MOVE_MAX_CELLS);
        if (*len == max)
            return slide_fail(err, SLIDE_EINVAL, "more than %d moves", max);
        codes[(*len)++] = move_code((enum move)d, k);
        p += k;
        if (m == METRIC_MTM && *p == ' ') {
            if (!p[1] || p[1] == ' ')
                return slide_fail(err, SLIDE_EINVAL, "after move %d: one space between "
                                  "moves, none at the end", *len);
            p++;
        }
    }
    return SLIDE_OK;
}
