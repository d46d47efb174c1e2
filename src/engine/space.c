/*
 * space.c - index spaces over (t, z) (space.h).
 */
#include "slide/space.h"

#include <stdlib.h>
#include <string.h>

int space_init(struct space *s, const struct board *goal, enum space_kind kind,
               slide_error *err)
{
    int n = board_cells(goal);
    memset(s, 0, sizeof *s);
    if (n > SPACE_MAX_CELLS)
        return slide_fail(err, SLIDE_ERANGE,
                          "a %dx%d board has %d cells; ranking and search need at "
                          "most %d cells, so that every index fits in 64 bits",
                          goal->rows, goal->cols, n, SPACE_MAX_CELLS);
    s->rows = goal->rows;
    s->cols = goal->cols;
    s->n = n;
    s->m = n - 1;
    s->kind = kind;
    s->goal_blank = board_blank(goal);
    s->path_graph = goal->rows == 1 || goal->cols == 1;
    for (int k = 0, i = 0; k < n; k++)
        if (goal->cells[k]) {
            s->label[i] = goal->cells[k];
            s->index_of[goal->cells[k]] = i++;
        }
    int gr = s->goal_blank / s->cols, gc = s->goal_blank % s->cols;
    for (int z = 0; z < n; z++) {
        int dr = abs(z / s->cols - gr), dc = abs(z % s->cols - gc);
        s->colour[z] = (uint8_t)((dr + dc) & 1);
        s->need_parity[z] = (uint8_t)(((s->cols - 1) * dr) & 1);
    }
    uint64_t mf = rank_factorial(s->m);
    /* a path graph reaches only the goal order of its tiles: one block */
    s->blocks = kind == SPACE_FULL ? mf : (s->m >= 2 && !s->path_graph ? mf / 2 : 1);
    s->size = s->blocks * (uint64_t)n;
    s->reachable = s->path_graph ? (uint64_t)n : rank_factorial(n) / 2;
    return SLIDE_OK;
}

const char *space_kind_name(enum space_kind k)
{
    return k == SPACE_FULL ? "full" : "compact";
}

int space_kind_parse(const char *name)
{
    if (strcmp(name, "compact") == 0)
        return SPACE_COMPACT;
    if (strcmp(name, "full") == 0)
        return SPACE_FULL;
    return -1;
}

int space_split(const struct space *s, const struct board *b, uint8_t *t)
{
    int z = -1;
    for (int k = 0, i = 0; k < s->n; k++) {
        if (b->cells[k])
            t[i++] = (uint8_t)s->index_of[b->cells[k]];
        else
            z = k;
    }
    return z;
}

int space_reachable_tz(const struct space *s, const uint8_t *t, int z)
{
    if (s->path_graph) {
        for (int k = 0; k < s->m; k++)
            if (t[k] != k)
                return 0;
        return 1;
    }
    return rank_parity(t, s->m) == s->need_parity[z];
}

int space_contains(const struct space *s, const struct board *b)
{
    uint8_t t[SPACE_MAX_CELLS];
    int z = space_split(s, b, t);
    return s->kind == SPACE_FULL || space_reachable_tz(s, t, z);
}

uint64_t space_index_tz(const struct space *s, const uint8_t *t, int z)
{
    uint64_t r = s->kind == SPACE_FULL ? rank_lex(t, s->m, 0) : rank_half(t, s->m);
    return r * (uint64_t)s->n + (uint64_t)z;
}

uint64_t space_rank(const struct space *s, const struct board *b)
{
    uint8_t t[SPACE_MAX_CELLS];
    int z = space_split(s, b, t);
    return space_index_tz(s, t, z);
}

int space_untz(const struct space *s, uint64_t index, uint8_t *t)
{
    uint64_t block;
    int z;
    if (index <= UINT32_MAX) { /* 32-bit division is several times faster */
        block = (uint32_t)index / (uint32_t)s->n;
        z = (int)((uint32_t)index % (uint32_t)s->n);
    } else {
        block = index / (uint64_t)s->n;
        z = (int)(index % (uint64_t)s->n);
    }
    if (s->kind == SPACE_FULL)
        rank_unlex(block, s->m, t);
    else
        rank_unhalf(block, s->m, s->need_parity[z], t);
    return z;
}

void space_unrank(const struct space *s, uint64_t index, struct board *b)
{
    uint8_t t[SPACE_MAX_CELLS];
    int z = space_untz(s, index, t);
    for (int k = 0, i = 0; k < s->n; k++)
        b->cells[k] = k == z ? 0 : s->label[t[i++]];
}

/*
 * The blank moves from z to z + C: the tile on cell z + C (t position
 * z + C - 1) lands on cell z (t position z); the C - 1 tiles in between
 * shift one place right in t.  Moving up is the inverse rotation.
 */
static void rotate_down(uint8_t *t, int z, int c)
{
    uint8_t x = t[z + c - 1];
    memmove(t + z + 1, t + z, (size_t)(c - 1));
    t[z] = x;
}

static void rotate_up(uint8_t *t, int z, int c)
{
    uint8_t x = t[z - c];
    memmove(t + z - c, t + z - c + 1, (size_t)(c - 1));
    t[z - 1] = x;
}

int space_neighbours_tz(const struct space *s, const uint8_t *t, int z,
                        uint64_t here, uint64_t out[MOVE_COUNT])
{
    int k = 0, c = s->cols;
    uint8_t u[SPACE_MAX_CELLS];
    if (z % c > 0)
        out[k++] = here - 1;
    if (z % c < c - 1)
        out[k++] = here + 1;
    if (z >= c) {
        memcpy(u, t, (size_t)s->m);
        rotate_up(u, z, c);
        out[k++] = space_index_tz(s, u, z - c);
    }
    if (z + c < s->n) {
        memcpy(u, t, (size_t)s->m);
        rotate_down(u, z, c);
        out[k++] = space_index_tz(s, u, z + c);
    }
    return k;
}

int space_moves_tz(const struct space *s, enum metric m, const uint8_t *t, int z,
                   uint64_t index, uint64_t out[SPACE_MAX_MOVES],
                   unsigned char codes[SPACE_MAX_MOVES])
{
    int k = 0, c = s->cols, col = z % c, row = z / c;
    int most_l = m == METRIC_MTM ? col : col > 0;
    int most_r = m == METRIC_MTM ? c - 1 - col : col < c - 1;
    int most_u = m == METRIC_MTM ? row : row > 0;
    int most_d = m == METRIC_MTM ? s->rows - 1 - row : row < s->rows - 1;
    uint8_t u[SPACE_MAX_CELLS];
    for (int j = 1; j <= most_l; j++, k++) {
        out[k] = index - (uint64_t)j;
        codes[k] = move_code(MOVE_LEFT, j);
    }
    for (int j = 1; j <= most_r; j++, k++) {
        out[k] = index + (uint64_t)j;
        codes[k] = move_code(MOVE_RIGHT, j);
    }
    memcpy(u, t, (size_t)s->m);
    for (int j = 1; j <= most_u; j++, k++) {
        rotate_up(u, z - (j - 1) * c, c);
        out[k] = space_index_tz(s, u, z - j * c);
        codes[k] = move_code(MOVE_UP, j);
    }
    memcpy(u, t, (size_t)s->m);
    for (int j = 1; j <= most_d; j++, k++) {
        rotate_down(u, z + (j - 1) * c, c);
        out[k] = space_index_tz(s, u, z + j * c);
        codes[k] = move_code(MOVE_DOWN, j);
    }
    return k;
}

int space_neighbours(const struct space *s, uint64_t index,
                     uint64_t out[MOVE_COUNT])
{
    uint8_t t[SPACE_MAX_CELLS];
    int z = space_untz(s, index, t);
    return space_neighbours_tz(s, t, z, index, out);
}
