/*
 * frontier_key.c - 128-bit compact keys of boards (frontier_key.h).
 *
 * Up to 21 cells (m <= 20 tiles) the lexicographic rank fits in 64 bits and
 * rank.h computes it; beyond, the same Lehmer code is evaluated in 128 bits
 * here (Horner's rule in the factorial base).
 */
#include "slide/frontier_key.h"

#include <stdlib.h>
#include <string.h>

#include "slide/rank.h"

/* fkey_neighbours tells a horizontal move by bit 1 of its code. */
_Static_assert(MOVE_UP == 0 && MOVE_DOWN == 1 && MOVE_LEFT == 2 && MOVE_RIGHT == 3,
               "the move codes of metric.h");

int fkey_init(struct fkey_space *s, const struct board *goal, slide_error *err)
{
    int n = board_cells(goal);
    memset(s, 0, sizeof *s);
    if (n > FKEY_MAX_CELLS)
        return slide_fail(err, SLIDE_ERANGE,
                          "a %dx%d board has %d cells; the frontier search keys a "
                          "board in 128 bits, which allows at most %d cells",
                          goal->rows, goal->cols, n, FKEY_MAX_CELLS);
    s->rows = goal->rows;
    s->cols = goal->cols;
    s->n = n;
    s->m = n - 1;
    s->goal_blank = board_blank(goal);
    s->path_graph = goal->rows == 1 || goal->cols == 1;
    for (int k = 0, i = 0; k < n; k++)
        if (goal->cells[k]) {
            s->label[i] = goal->cells[k];
            s->index_of[goal->cells[k]] = i++;
        }
    int gr = s->goal_blank / s->cols;
    for (int z = 0; z < n; z++)
        s->need_parity[z] = (uint8_t)(((s->cols - 1) * abs(z / s->cols - gr)) & 1);
    fkey f = 1;
    for (int k = 2; k <= n; k++)
        f *= (fkey)k;
    s->size = s->path_graph ? (fkey)n : (n >= 2 ? f / 2 : 1);
    for (fkey top = s->size - 1; top; top >>= 1)
        s->bits++;
    for (int k = 0; k <= RANK_MAX_LEN; k++)
        s->fact[k] = rank_factorial(k);
    return SLIDE_OK;
}

/* Lexicographic rank of t (m > 20 tiles) in 128 bits, and its parity. */
static fkey lex128(const uint8_t *t, int m, int *parity)
{
    uint64_t seen = 0;
    fkey r = 0;
    int sum = 0;
    for (int i = 0; i < m; i++) {
        int d = t[i] - __builtin_popcountll(seen & ((1ULL << t[i]) - 1));
        seen |= 1ULL << t[i];
        sum += d;
        r = r * (fkey)(m - i) + (fkey)d;
    }
    *parity = sum & 1;
    return r;
}

/* The permutation of 0..m-1 of lexicographic rank r (m > 20); its parity. */
static int unlex128(fkey r, int m, uint8_t *t)
{
    uint8_t digit[FKEY_MAX_CELLS];
    int sum = 0;
    for (int i = m - 1; i >= 0; i--) {
        unsigned radix = (unsigned)(m - i);
        if (r >> 64) {
            digit[i] = (uint8_t)(r % radix);
            r /= radix;
        } else { /* 64-bit division once the high half is gone: much faster */
            uint64_t q = (uint64_t)r;
            digit[i] = (uint8_t)(q % radix);
            r = q / radix;
        }
        sum += digit[i];
    }
    uint64_t free_set = m >= 64 ? ~0ULL : (1ULL << m) - 1;
    for (int i = 0; i < m; i++) {
        uint64_t f = free_set;
        for (int k = 0; k < digit[i]; k++)
            f &= f - 1;                   /* drop the digit[i] smallest */
        int v = __builtin_ctzll(f);
        t[i] = (uint8_t)v;
        free_set &= ~(1ULL << v);
    }
    return sum & 1;
}

fkey fkey_encode_tz(const struct fkey_space *s, const uint8_t *t, int z)
{
    if (s->path_graph || s->m < 2)
        return (fkey)z;
    int parity;
    fkey lex = s->m <= RANK_MAX_LEN ? (fkey)rank_lex(t, s->m, 0) : lex128(t, s->m, &parity);
    return (lex >> 1) * (fkey)s->n + (fkey)z;
}

int fkey_decode_tz(const struct fkey_space *s, fkey key, uint8_t *t)
{
    int z = (int)(key % (fkey)s->n);
    fkey h = key / (fkey)s->n;
    if (s->path_graph || s->m < 2) {
        for (int i = 0; i < s->m; i++)
            t[i] = (uint8_t)i;
        return z;
    }
    if (s->m <= RANK_MAX_LEN) {
        rank_unhalf((uint64_t)h, s->m, s->need_parity[z], t);
    } else if (unlex128(2 * h, s->m, t) != s->need_parity[z]) {
        uint8_t x = t[s->m - 2];
        t[s->m - 2] = t[s->m - 1];
        t[s->m - 1] = x;
    }
    return z;
}

static int split(const struct fkey_space *s, const struct board *b, uint8_t *t)
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

int fkey_reachable(const struct fkey_space *s, const struct board *b)
{
    uint8_t t[FKEY_MAX_CELLS];
    int z = split(s, b, t);
    if (s->path_graph) {
        for (int i = 0; i < s->m; i++)
            if (t[i] != i)
                return 0;
        return 1;
    }
    int parity = 0;
    if (s->m <= RANK_MAX_LEN)
        rank_lex(t, s->m, &parity);
    else
        lex128(t, s->m, &parity);
    return parity == s->need_parity[z];
}

fkey fkey_of_board(const struct fkey_space *s, const struct board *b)
{
    uint8_t t[FKEY_MAX_CELLS];
    int z = split(s, b, t);
    return fkey_encode_tz(s, t, z);
}

void fkey_board(const struct fkey_space *s, fkey key, struct board *b)
{
    uint8_t t[FKEY_MAX_CELLS];
    int z = fkey_decode_tz(s, key, t);
    for (int k = 0, i = 0; k < s->n; k++)
        b->cells[k] = k == z ? 0 : s->label[t[i++]];
}

/* Rotate C entries of t for a vertical unit move of the blank from y
 * (up: the tile above lands at t position y - 1; down: the tile below
 * lands at t position y); returns the blank's new cell. */
static inline int rotate(uint8_t *u, int y, int c, int up)
{
    if (up) {
        uint8_t x = u[y - c];
        memmove(u + y - c, u + y - c + 1, (size_t)(c - 1));
        u[y - 1] = x;
        return y - c;
    }
    uint8_t x = u[y + c - 1];
    memmove(u + y + 1, u + y, (size_t)(c - 1));
    u[y] = x;
    return y + c;
}

/*
 * A vertical unit move rotates C consecutive entries of t (as in space.c,
 * rotate); a horizontal move keeps t: the key changes by the cells the
 * blank travels.  The single-tile metric's four moves are made directly
 * (its hot path: no table read); the multi-tile metric's jumps come from
 * the move set, a jump of k cells along a column made from the jump of
 * k - 1 cells before it (u, blank on y).
 */
/*
 * The lexicographic rank of u, which is t (of rank lex, m <= RANK_MAX_LEN
 * entries) with entries [a, a + c) rotated; left: the values of t[0..a) as
 * a bit set.  Lehmer digit j counts the smaller values right of position
 * j: for j < a that set of values is the same in u as in t, and for j >= a
 * + c so are the positions, so only the c digits of the rotated entries
 * change (c terms where rank_lex takes m).
 */
static uint64_t relex(const struct fkey_space *s, const uint8_t *t, const uint8_t *u,
                      int a, int c, uint32_t left, uint64_t lex)
{
    uint32_t st = left, su = left;
    for (int j = a; j < a + c; j++) {
        unsigned vt = t[j], vu = u[j];
        uint64_t f = s->fact[s->m - 1 - j];
        lex -= (vt - (unsigned)__builtin_popcount(st & ((1u << vt) - 1u))) * f;
        lex += (vu - (unsigned)__builtin_popcount(su & ((1u << vu) - 1u))) * f;
        st |= 1u << vt;
        su |= 1u << vu;
    }
    return lex;
}

/* The single-tile metric's neighbours of (t, z) of key on boards of up to
 * RANK_MAX_LEN + 1 cells (the hot path): t's rank from its decoding, each
 * vertical move's from it by relex. */
static int stm_neighbours(const struct fkey_space *s, fkey key, fkey *out)
{
    uint8_t t[FKEY_MAX_CELLS], u[FKEY_MAX_CELLS];
    int c = s->cols, k = 0, z;
    uint64_t lex;
    if (s->bits <= 64) { /* 64-bit division: no call */
        uint64_t k64 = (uint64_t)key, n = (uint64_t)s->n;
        z = (int)(k64 % n);
        lex = 2 * (k64 / n);
    } else {
        z = (int)(key % (fkey)s->n);
        lex = 2 * (uint64_t)(key / (fkey)s->n);
    }
    if (rank_unlex(lex, s->m, t) != s->need_parity[z]) { /* as rank_unhalf */
        uint8_t x = t[s->m - 2];
        t[s->m - 2] = t[s->m - 1];
        t[s->m - 1] = x;
        lex++;
    }
    if (z % c > 0)
        out[k++] = key - 1;
    if (z % c < c - 1)
        out[k++] = key + 1;
    uint32_t left = 0; /* the values of t[0..j) */
    int j = 0;
    if (z >= c) { /* up: entries [z - c, z) */
        for (; j < z - c; j++)
            left |= 1u << t[j];
        memcpy(u, t, (size_t)s->m);
        int y = rotate(u, z, c, 1);
        out[k++] = (fkey)(relex(s, t, u, z - c, c, left, lex) >> 1) * (fkey)s->n + (fkey)y;
    }
    if (z + c < s->n) { /* down: entries [z, z + c) */
        for (; j < z; j++)
            left |= 1u << t[j];
        memcpy(u, t, (size_t)s->m);
        int y = rotate(u, z, c, 0);
        out[k++] = (fkey)(relex(s, t, u, z, c, left, lex) >> 1) * (fkey)s->n + (fkey)y;
    }
    return k;
}

int fkey_neighbours(const struct fkey_space *s, const struct move_set *ms, fkey key,
                    fkey *out)
{
    if (ms->metric == METRIC_STM && !s->path_graph && s->m >= 2 && s->m <= RANK_MAX_LEN)
        return stm_neighbours(s, key, out);
    uint8_t t[FKEY_MAX_CELLS], u[FKEY_MAX_CELLS];
    int z = fkey_decode_tz(s, key, t), c = s->cols, k = 0;
    if (ms->metric == METRIC_STM) {
        if (z % c > 0)
            out[k++] = key - 1;
        if (z % c < c - 1)
            out[k++] = key + 1;
        for (int up = 1; up >= 0; up--)
            if (up ? z >= c : z + c < s->n) {
                memcpy(u, t, (size_t)s->m);
                int y = rotate(u, z, c, up);
                out[k++] = fkey_encode_tz(s, u, y);
            }
        return k;
    }
    const unsigned char *code = ms->codes + (size_t)z * (size_t)ms->max;
    const int *to = ms->to + (size_t)z * (size_t)ms->max;
    for (int i = 0, y = z; i < ms->count[z]; i++) {
        unsigned char m = code[i];
        if (m & 2u) { /* MOVE_LEFT, MOVE_RIGHT: t stays, the key moves by the cells */
            out[k++] = key + (fkey)(__int128)(to[i] - z);
            continue;
        }
        if (m < 4u) { /* one cell (k = 1): a new column direction, from t */
            memcpy(u, t, (size_t)s->m);
            y = z;
        }
        y = rotate(u, y, c, move_code_dir(m) == MOVE_UP);
        out[k++] = fkey_encode_tz(s, u, y);
    }
    return k;
}

char *fkey_format(fkey k, char *buf)
{
    char tmp[48];
    int len = 0;
    do {
        tmp[len++] = (char)('0' + (int)(k % 10));
        k /= 10;
    } while (k);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}
