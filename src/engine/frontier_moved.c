/*
 * frontier_moved.c - moved keys of boards of any size (frontier_moved.h).
 *
 * A move of the blank from z to z2 changes two cells: z2 becomes the blank
 * (its pair, if any, goes) and z takes the tile t from z2 (a pair (z, t)
 * unless z is t's goal cell).  A neighbour's key is the key's pairs with
 * that pair dropped and that pair inserted in order: O(k) bytes.
 */
#include "slide/frontier_moved.h"

#include <stdlib.h>
#include <string.h>

static unsigned get(const unsigned char *p, int w)
{
    unsigned v = 0;
    for (int i = 0; i < w; i++)
        v = v << 8 | p[i];
    return v;
}

static void put(unsigned char *p, int w, unsigned v)
{
    for (int i = w - 1; i >= 0; i--) {
        p[i] = (unsigned char)(v & 0xff);
        v >>= 8;
    }
}

int fmoved_init(struct fmoved_space *s, const struct board *goal, enum metric m,
                slide_error *err)
{
    memset(s, 0, sizeof *s);
    s->rows = goal->rows;
    s->cols = goal->cols;
    s->per_move = m == METRIC_MTM ? (goal->rows > goal->cols ? goal->rows : goal->cols) - 1 : 1;
    if (s->per_move < 1)
        s->per_move = 1;
    s->n = board_cells(goal);
    s->w = s->n - 1 < 256 ? 1 : s->n - 1 < 65536 ? 2 : 3;
    s->goal_blank = board_blank(goal);
    s->goal = malloc((size_t)s->n * sizeof *s->goal);
    s->home = malloc((size_t)s->n * sizeof *s->home);
    if (!s->goal || !s->home) {
        fmoved_free(s);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the moved keys of a %dx%d "
                          "board", goal->rows, goal->cols);
    }
    for (int c = 0; c < s->n; c++) {
        s->goal[c] = goal->cells[c];
        s->home[goal->cells[c]] = c;
    }
    return SLIDE_OK;
}

void fmoved_free(struct fmoved_space *s)
{
    free(s->goal);
    free(s->home);
    s->goal = s->home = NULL;
}

int fmoved_max_pairs(const struct fmoved_space *s, int depth)
{
    /* in 64 bits: per_move * depth may pass INT_MAX */
    long long k = (long long)s->per_move * depth;
    if (k > s->n - 1)
        k = s->n - 1;
    return k > FMOVED_MAX_PAIRS ? -1 : (int)k;
}

size_t fmoved_key_len(const struct fmoved_space *s, int depth)
{
    int k = fmoved_max_pairs(s, depth);
    return k < 0 ? 0 : (size_t)s->w * (2 + 2 * (size_t)k);
}

int fmoved_encode(const struct fmoved_space *s, const struct board *b, unsigned char *key,
                  size_t len)
{
    int w = s->w, z = board_blank(b);
    size_t at = 2 * (size_t)w;
    unsigned k = 0;
    memset(key, 0, len);
    for (int c = 0; c < s->n; c++) {
        if (c == z || b->cells[c] == s->goal[c])
            continue;
        if (at + 2 * (size_t)w > len)
            return -1;
        put(key + at, w, (unsigned)c);
        put(key + at + w, w, (unsigned)b->cells[c]);
        at += 2 * (size_t)w;
        k++;
    }
    put(key, w, (unsigned)z);
    put(key + w, w, k);
    return 0;
}

void fmoved_board(const struct fmoved_space *s, const unsigned char *key, struct board *b)
{
    int w = s->w;
    unsigned z = get(key, w), k = get(key + w, w);
    memcpy(b->cells, s->goal, (size_t)s->n * sizeof *b->cells);
    for (unsigned i = 0; i < k; i++) {
        const unsigned char *p = key + 2 * (size_t)w * (i + 1);
        b->cells[get(p, w)] = (int)get(p + w, w);
    }
    b->cells[z] = 0;
}

/* Copy pairs [a, b) of p but pair j to q; returns the end of q. */
static unsigned char *copy_pairs(unsigned char *q, const unsigned char *p, size_t pw,
                                 unsigned a, unsigned b, unsigned j)
{
    if (j >= a && j < b) {
        memcpy(q, p + pw * a, pw * (j - a));
        q += pw * (j - a);
        a = j + 1;
    }
    memcpy(q, p + pw * a, pw * (b - a));
    return q + pw * (b - a);
}

/* The neighbour of key (z, k pairs at p) with the blank moved to z2: the
 * pairs before and after the dropped one (j) and the inserted one (at ins
 * among the old pairs) copied as whole runs of bytes. */
static int one_move(const struct fmoved_space *s, const unsigned char *p, unsigned k,
                    unsigned z, unsigned z2, size_t len, unsigned char *out)
{
    int w = s->w;
    size_t pw = 2 * (size_t)w;
    unsigned j = k, ins = k, t = (unsigned)s->goal[z2];
    for (unsigned i = 0; i < k; i++) {
        unsigned c = get(p + pw * i, w);
        if (c == z2) {
            j = i;
            t = get(p + pw * i + w, w);
        }
        if (c > z && ins == k)
            ins = i;
        if (c > z2 && c > z)
            break;
    }
    int add = s->home[t] != (int)z;
    unsigned k2 = k - (j < k) + (unsigned)add;
    if (pw * (k2 + 1) > len)
        return -1;
    put(out, w, z2);
    put(out + w, w, k2);
    unsigned char *q = out + pw;
    q = copy_pairs(q, p, pw, 0, ins, j);
    if (add) {
        put(q, w, z);
        put(q + w, w, t);
        q += pw;
    }
    q = copy_pairs(q, p, pw, ins, k, j);
    memset(q, 0, len - (size_t)(q - out));
    return 0;
}

int fmoved_neighbours(const struct fmoved_space *s, const struct move_set *ms,
                      const unsigned char *key, size_t len, unsigned char *out)
{
    int w = s->w;
    unsigned z = get(key, w);
    const unsigned char *code = ms->codes + (size_t)z * (size_t)ms->max;
    const int *to = ms->to + (size_t)z * (size_t)ms->max;
    for (int i = 0; i < ms->count[z]; i++) {
        /* a jump of k > 1 cells: one more cell from the jump of k - 1 */
        const unsigned char *from = move_code_cells(code[i]) == 1 ? key
                                                                   : out + (size_t)(i - 1) * len;
        unsigned fz = get(from, w), fk = get(from + w, w);
        if (one_move(s, from + 2 * (size_t)w, fk, fz, (unsigned)to[i], len,
                     out + (size_t)i * len))
            return -1;
    }
    return ms->count[z];
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int fmoved_valid(const struct fmoved_space *s, const unsigned char *key, size_t len)
{
    int w = s->w;
    size_t pw = 2 * (size_t)w;
    if (len < pw)
        return 0;
    unsigned z = get(key, w), k = get(key + w, w);
    if (z >= (unsigned)s->n || k > (unsigned)s->n - 1 || pw * (k + 1) > len)
        return 0;
    for (size_t i = pw * (k + 1); i < len; i++)
        if (key[i])
            return 0;
    int *have = malloc(2 * ((size_t)k + 1) * sizeof *have), *want = have + k + 1;
    if (!have)
        return 0;
    int ok = 1;
    have[0] = 0;
    want[0] = s->goal[z];
    for (unsigned i = 0; ok && i < k; i++) {
        unsigned c = get(key + pw * (i + 1), w), t = get(key + pw * (i + 1) + w, w);
        ok = c < (unsigned)s->n && c != z && t < (unsigned)s->n && t != 0 &&
             (int)t != s->goal[c] && (i == 0 || c > get(key + pw * i, w));
        have[i + 1] = (int)t;
        want[i + 1] = ok ? s->goal[c] : -1;
    }
    if (ok) {
        qsort(have, k + 1, sizeof *have, cmp_int);
        qsort(want, k + 1, sizeof *want, cmp_int);
        ok = !memcmp(have, want, (k + 1) * sizeof *have);
    }
    free(have);
    return ok;
}
