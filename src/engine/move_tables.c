/*
 * move_tables.c - building the move tables (move_tables.h): the tail
 * table, the segment tables and the window tables, and a window's head
 * parts.  The readers the search runs per move are inline in the header.
 */
#include "move_tables.h"

#include "slide/store.h"

#include <stdlib.h>
#include <string.h>

static const int64_t fact[SPACE_MAX_CELLS] = {
    1LL, 1LL, 2LL, 6LL, 24LL, 120LL, 720LL, 5040LL, 40320LL, 362880LL,
    3628800LL, 39916800LL, 479001600LL, 6227020800LL, 87178291200LL,
    1307674368000LL, 20922789888000LL, 355687428096000LL,
    6402373705728000LL, 121645100408832000LL};

/* Set every digit and tile of p from its lex rank (digits by mixed radix). */
void perm_unrank(struct perm *p, int m)
{
    rank_unlex(p->lex, m, p->t);
    uint32_t later = 0;
    p->dsum = 0;
    for (int i = m - 1; i >= 0; i--) {
        unsigned v = p->t[i];
        p->d[i] = (uint8_t)__builtin_popcount(later & ((1u << v) - 1u));
        p->dsum += p->d[i];
        later |= 1u << v;
    }
}

/*
 * Add `carry` to digit i of p's mixed-radix number (radix m - i at position
 * i) and carry up, then rebuild the tiles from the first changed position
 * on, choosing from the tiles that were already there.  p->lex is the
 * caller's.  Precondition: the sum fits in m digits.
 */
static void digits_add(struct perm *p, int i, uint64_t carry, int m)
{
    while (carry) {
        uint64_t radix = (uint64_t)(m - i), total = p->d[i] + carry, digit;
        /* nearby ranks carry little: avoid the slow division when we can */
        if (total < radix) {
            digit = total;
            carry = 0;
        } else if (total < 2 * radix) {
            digit = total - radix;
            carry = 1;
        } else {
            digit = total % radix;
            carry = total / radix;
        }
        p->dsum = p->dsum - p->d[i] + (unsigned)digit;
        p->d[i] = (uint8_t)digit;
        i--;
    }
    int from = i + 1 < m ? i + 1 : m;
    uint32_t avail = 0;
    for (int k = from; k < m; k++)
        avail |= 1u << p->t[k];
    for (int k = from; k < m; k++) {
        uint32_t x = avail;
        for (unsigned j = 0; j < p->d[k]; j++)
            x &= x - 1; /* skip the d smallest remaining tiles */
        unsigned v = (unsigned)__builtin_ctz(x);
        avail &= ~(1u << v);
        p->t[k] = (uint8_t)v;
    }
}

/*
 * Advance p by `diff` lex ranks: add diff to the digits, rebuilding only the
 * tiles that change.  Nearby ranks differ only in the last few digits, so
 * this costs far less than unranking from scratch.  Precondition:
 * p->lex + diff < m!.
 */
void perm_advance(struct perm *p, uint64_t diff, int m)
{
    digits_add(p, m - 2, diff, m); /* the last digit has radix 1: always 0 */
    p->lex += diff;
}

void tail_init(struct tail *tl, int m)
{
    memset(tl, 0, sizeof *tl);
    if (m < 3)
        return; /* too short to matter */
    tl->k = m < TAIL_MAX ? m : TAIL_MAX;
    tl->rows = (unsigned)fact[tl->k];
    for (unsigned r = 0; r < tl->rows; r++) {
        struct perm p = {.lex = r};
        perm_unrank(&p, tl->k);
        for (int j = 0; j < tl->k; j++) {
            tl->pick[r][j] = p.t[j];
            tl->digit[r][j] = p.d[j];
            tl->digit8[r] |= (uint64_t)p.d[j] << (8 * j);
        }
        tl->pick8[r] = ~0ULL << (8 * tl->k) & 0x8080808080808080ULL;
        for (int j = 0; j < tl->k; j++)
            tl->pick8[r] |= (uint64_t)p.t[j] << (8 * j);
        tl->dsum[r] = (uint8_t)p.dsum;
    }
}

void vtab_free(struct vtab *v)
{
    for (int dir = 0; dir < 2; dir++) {
        free(v->weight[dir]);
        free(v->cmp[dir]);
    }
    memset(v, 0, sizeof *v);
}

/* Returns -1 when out of memory; a 1-row board has no segments (c = 0). */
int vtab_init(struct vtab *v, const struct space *s)
{
    memset(v, 0, sizeof *v);
    if (s->rows < 2)
        return 0;
    int c = s->cols, m = s->m, nseg = m - c + 1;
    size_t ng = (size_t)1 << (c - 1);
    int64_t F[SPACE_MAX_CELLS];
    for (int i = 0; i < m; i++)
        F[i] = fact[m - 1 - i];
    v->c = c;
    for (int dir = 0; dir < 2; dir++) {
        v->weight[dir] = calloc((size_t)nseg * (size_t)c, sizeof(int64_t));
        v->cmp[dir] = calloc((size_t)nseg * ng, sizeof(int64_t));
        if (!v->weight[dir] || !v->cmp[dir]) {
            vtab_free(v);
            return -1;
        }
    }
    for (int a = 0; a < nseg; a++) {
        int64_t *wu = v->weight[0] + (size_t)a * (size_t)c;
        int64_t *wd = v->weight[1] + (size_t)a * (size_t)c;
        /* up: x leaves a for a+c-1, tile j (at a+j) moves to a+j-1 */
        wu[0] = F[a + c - 1] - F[a];
        for (int j = 1; j < c; j++)
            wu[j] = F[a + j - 1] - F[a + j];
        /* down: x leaves a+c-1 for a, tile at a+k moves to a+k+1 */
        for (int k = 0; k < c - 1; k++)
            wd[k] = F[a + k + 1] - F[a + k];
        wd[c - 1] += F[a] - F[a + c - 1];
        for (size_t g = 0; g < ng; g++) {
            int64_t up = 0, down = 0;
            int less = __builtin_popcountll(g);
            for (int j = 1; j < c; j++)
                if (!(g >> (j - 1) & 1)) { /* x is smaller than tile j */
                    up += F[a + j - 1];    /* tile j gains x as a later smaller */
                    down -= F[a + j];      /* tile j loses x */
                }
            up -= (int64_t)less * F[a + c - 1];
            down += (int64_t)less * F[a];
            v->cmp[0][((size_t)a << (c - 1)) + g] = up;
            v->cmp[1][((size_t)a << (c - 1)) + g] = down;
        }
    }
    return 0;
}

static enum vclass vclass_of(int a, int c, int hb)
{
    return a >= hb ? VC_TAIL : a + c <= hb ? VC_HEAD : VC_STRADDLE;
}

/* Row table of move mv (tail or straddling down), or of straddling up
 * move mv with q tail tiles below x. */
static inline size_t wtab_row(int mv)
{
    return (size_t)(1 + mv) * TAIL_ROWS;
}

static inline size_t wtab_uprow(const struct wtab *wt, int mv, int q)
{
    return (size_t)(1 + wt->nmv + mv * (TAIL_MAX + 1) + q) * TAIL_ROWS;
}

/* The share of the tail digits (positions hb.. of the segment) in the rank
 * change of move mv of the board p. */
static int64_t wtab_tail_digits(const struct vtab *v, const struct perm *p, int hb,
                                int mv)
{
    int a = mv >> 1, dir = mv & 1, c = v->c;
    int64_t sum = 0;
    for (int k = hb - a; k < c; k++)
        sum += (int64_t)p->d[a + k] * v->weight[dir][a * c + k];
    return sum;
}

/* Fill the row tables: row rho's board with the identity head has the
 * tail digits and tile order of row rho of every window. */
static void wtab_rows(struct wtab *wt, const struct space *s, const struct vtab *v)
{
    int c = v->c, m = s->m, hb = wt->hb;
    struct perm p = {.lex = 0};
    perm_unrank(&p, m);
    for (unsigned rho = 0; rho < TAIL_ROWS; rho++) {
        if (rho)
            perm_advance(&p, 1, m); /* the next rank: a few tail digits */
        for (int mv = 0; mv < wt->nmv; mv++) {
            int a = mv >> 1, dir = mv & 1;
            if (wt->cls[mv] == VC_TAIL) {
                wt->rows[wtab_row(mv) + rho] =
                    (int64_t)(vmove_lex(v, &p, a, dir, c) - rho);
            } else if (wt->cls[mv] == VC_STRADDLE && dir) {
                /* x = t[a+c-1], a tail tile, passes t[a..a+c-2]: the tail
                 * bits, for positions hb..a+c-2 (bit pos - a) */
                const int64_t *cmp = v->cmp[1] + ((size_t)a << (c - 1));
                unsigned tailbits = ((1u << (c - 1)) - 1u) & ~((1u << (hb - a)) - 1u);
                wt->rows[wtab_row(mv) + rho] =
                    wtab_tail_digits(v, &p, hb, mv) - cmp[0] +
                    cmp[below(p.t + a, p.t[a + c - 1]) & tailbits];
                wt->xr[wtab_row(mv) + rho] = (uint8_t)(p.t[a + c - 1] - hb);
            } else if (wt->cls[mv] == VC_STRADDLE) {
                /* x = t[a], a head tile with q tail tiles below it, passes
                 * t[a+1..a+c-1]: the tail bits, for positions hb..a+c-1
                 * (bit pos - a - 1), are the tail tiles below x, i.e. in
                 * this board (identity head) below hb + q */
                const int64_t *cmp = v->cmp[0] + ((size_t)a << (c - 1));
                int64_t digits = wtab_tail_digits(v, &p, hb, mv) - cmp[0];
                unsigned tailbits = ((1u << (c - 1)) - 1u) & ~((1u << (hb - a - 1)) - 1u);
                for (int q = 0; q <= TAIL_MAX; q++)
                    wt->rows[wtab_uprow(wt, mv, q) + rho] =
                        digits + cmp[below(p.t + a + 1, (unsigned)(hb + q)) & tailbits];
            }
        }
    }
}

void wtab_free(struct wtab *wt)
{
    free(wt->rows);
    free(wt->xr);
    for (int s = 0; s < 2; s++)
        free(wt->pair[s]);
    memset(wt, 0, sizeof *wt);
}

/* The row tables by block (see struct wtab); -1 when out of memory. */
static int wtab_pairs(struct wtab *wt, size_t nrows)
{
    for (int s = 0; s < 2; s++) {
        wt->pair[s] = malloc(nrows * WINDOW_BLOCKS * sizeof *wt->pair[s]);
        if (!wt->pair[s])
            return -1;
        for (unsigned j = 0; j < WINDOW_BLOCKS; j++) {
            unsigned sel = (unsigned)s ^ wt->rowpar[2 * j], rho = 2 * j + sel;
            for (size_t R = 0; R < nrows; R++) {
                /* xr tables exist for R <= nmv (zeros but for straddling
                 * down moves, whose row and xr tables share R) */
                unsigned xr = R <= (size_t)wt->nmv ? wt->xr[R * TAIL_ROWS + rho] : 0;
                int64_t lex = wt->rows[R * TAIL_ROWS + rho] + sel + 2 * (int64_t)j;
                wt->pair[s][R * WINDOW_BLOCKS + j] = lex * 8 + (int64_t)xr;
            }
        }
    }
    return 0;
}

/* Returns -1 when out of memory; wt->on stays 0 for the spaces the window
 * path does not cover (full space, no pairs, short t, one row). */
int wtab_init(struct wtab *wt, const struct space *s, const struct tail *tl,
                     const struct vtab *v)
{
    memset(wt, 0, sizeof *wt);
    if (s->kind != SPACE_COMPACT || s->path_graph || s->rows < 2 ||
        tl->k != TAIL_MAX || s->m <= TAIL_MAX)
        return 0; /* m > TAIL_MAX: a head of one tile at least (window_step
                   * reads d[hb - 1]); m = TAIL_MAX is only 1x7, a path */
    int c = s->cols, m = s->m, n = s->n, hb = m - TAIL_MAX;
    wt->nmv = 2 * (m - c + 1);
    wt->hb = hb;
    size_t nrows = 1 + (size_t)wt->nmv * (TAIL_MAX + 2);
    wt->rows = calloc(nrows * TAIL_ROWS, sizeof *wt->rows);
    wt->xr = calloc((size_t)(1 + wt->nmv) * TAIL_ROWS, 1);
    if (!wt->rows || !wt->xr) {
        wtab_free(wt);
        return -1;
    }
    for (int mv = 0; mv < wt->nmv; mv++) {
        int a = mv >> 1, dir = mv & 1, kind;
        const int64_t *cmp = v->cmp[dir] + ((size_t)a << (c - 1));
        wt->cls[mv] = (uint8_t)vclass_of(a, c, hb);
        /* window_step: digit hb - 1 goes up by one, lex by TAIL_ROWS */
        wt->step[mv] = TAIL_ROWS;
        if (wt->cls[mv] == VC_TAIL || a + c - 1 < hb - 1) {
            kind = WS_ADD; /* no head position hb - 1 in the segment */
        } else {
            wt->step[mv] += v->weight[dir][a * c + hb - 1 - a];
            if (dir)
                kind = wt->cls[mv] == VC_HEAD ? WS_REDO : WS_DOWN;
            else
                kind = WS_UP;
            if (!dir && a < hb - 1) /* bit of position hb - 1 */
                wt->upbit[mv] = cmp[1u << (hb - 2 - a)] - cmp[0];
            wt->qrow[mv] = wt->cls[mv] == VC_STRADDLE && !dir;
        }
        wt->kind[mv] = (uint8_t)kind;
        wt->nkind[kind]++;
    }
    for (int kind = 0, k = 0; kind < WS_KINDS; kind++)
        for (int mv = 0; mv < wt->nmv; mv++)
            if (wt->kind[mv] == kind)
                wt->bykind[k++] = (uint8_t)mv;
    for (unsigned r = 0; r < TAIL_ROWS; r++)
        wt->rowpar[r] = tl->dsum[r] & 1u;
    wtab_rows(wt, s, v);
    int fail = wtab_pairs(wt, nrows);
    /* the scan reads only the tables by block: drop the ones by row */
    free(wt->rows);
    free(wt->xr);
    wt->rows = NULL;
    wt->xr = NULL;
    if (fail) {
        wtab_free(wt);
        return -1;
    }
    for (int p = 0; p < n; p++)
        for (int k = 0; k < STORE_ENTRIES_PER_WORD; k++) {
            int z = (p + k) % n;
            if (z >= c) /* up */
                wt->vmask[0][p] |= 1ULL << (2 * k);
            if (z + c < n) /* down */
                wt->vmask[1][p] |= 1ULL << (2 * k);
        }
    for (int z = 0; z < n; z++)
        for (int dir = 0; dir < 2; dir++) {
            int mv = dir ? 2 * z + 1 : 2 * (z - c); /* segment z or z - c */
            if (mv >= 0 && mv < wt->nmv)
                wt->zm[wt->nzm++] = (struct zmove){(uint8_t)dir, (uint8_t)z,
                                                   (uint8_t)mv,
                                                   (uint8_t)s->need_parity[z]};
        }
    for (int need = 0, k = 0; need < 2; need++)
        for (int i = 0; i < wt->nzm; i++)
            if (wt->zm[i].need == need)
                wt->zs[k++] = wt->zm[i];
    for (int i = 0; i < wt->nzm; i++)
        wt->nzneed0 += wt->zm[i].need == 0;
    wt->on = 1;
    return 0;
}

void window_init(struct window *wn, const struct wtab *wt)
{
    wn->base = WINDOW_NONE;
    /* window_enter copies whole images, entries without a move too */
    memset(wn->zimg, 0, sizeof wn->zimg);
    for (int i = 0; i < wt->nzm; i++)
        wn->zhead[ZMOVE(wt->zm[i].dir, wt->zm[i].z)] = wn->head[wt->zm[i].mv];
}

/* The head's share of every move's rank change in the window whose first
 * board is wn->p (its tail sorted: t[hb + i] is the i-th smallest tail
 * tile), plus its lex rank, and the row tables that go with them (and
 * wn->sum for the straddling moves, for window_step).  The comparisons of
 * head tiles with a tile x are bits of one below(t, x): once per tail tile
 * for all straddling down moves, once per straddling up move. */
static void window_build(struct window *restrict wn, const struct wtab *restrict wt,
                         const struct vtab *restrict v)
{
    const struct perm *p = &wn->p;
    const uint8_t *t = p->t;
    int c = v->c, hb = wt->hb;
    int64_t lex = (int64_t)p->lex;
    unsigned bt[TAIL_MAX], tails = 0;
    for (int xr = 0; xr < TAIL_MAX; xr++) {
        bt[xr] = below(t, t[hb + xr]); /* bit i: t[i] < the xr-th tail tile */
        tails |= 1u << t[hb + xr];
    }
    for (int mv = 0; mv < wt->nmv; mv++) {
        int a = mv >> 1, dir = mv & 1;
        const int64_t *cmp = v->cmp[dir] + ((size_t)a << (c - 1));
        const int64_t *w = v->weight[dir] + (size_t)a * (size_t)c;
        wn->row[mv] = 0; /* the zero row */
        if (wt->cls[mv] == VC_HEAD) {
            wn->head[mv][0] = (int64_t)vmove_lex(v, p, a, dir, c);
            continue;
        }
        if (wt->cls[mv] == VC_TAIL) {
            wn->head[mv][0] = lex;
            wn->row[mv] = 1 + (size_t)mv;
            continue;
        }
        int64_t sum = lex;
        for (int k = 0; k < hb - a; k++)
            sum += (int64_t)p->d[a + k] * w[k];
        wn->sum[mv] = sum;
        if (dir) { /* down: x, a tail tile, passes head tiles a..hb-1 */
            unsigned mask = (1u << (hb - a)) - 1u;
            for (int xr = 0; xr < TAIL_MAX; xr++)
                wn->head[mv][xr] = sum + cmp[bt[xr] >> a & mask];
            wn->row[mv] = 1 + (size_t)mv; /* its xr table is R's too */
        } else {   /* up: x = t[a] passes head tiles a+1..hb-1, then tail tiles */
            unsigned x = t[a];
            unsigned g = below(t, x) >> (a + 1) & ((1u << (hb - a - 1)) - 1u);
            int q = __builtin_popcount(tails & ((1u << x) - 1u));
            wn->head[mv][0] = sum + cmp[g];
            wn->row[mv] = wtab_uprow(wt, mv, q) / TAIL_ROWS;
        }
    }
}

/*
 * Move the window from base B to base B + WINDOW_BLOCKS when that only
 * raises head digit hb - 1 (perm_head_step: dd = d[hb-1] < TAIL_MAX; the
 * head's last tile u gives way to v, the smallest tail tile above it, and
 * takes v's place in the sorted tail).  u and v are neighbours among the
 * tiles at hb - 1 and after, so no tail tile lies between them, and of the
 * window's head shares only these change (wt->kind):
 *   WS_ADD   tail moves and head moves short of position hb - 1: lex, by
 *            TAIL_ROWS (no digit or comparison of the segment changes);
 *   the others: lex and d[hb-1]'s term, by wt->step[mv]; then
 *   WS_DOWN  straddling down, xr = dd: x (now u) is new: that comparison
 *            term is recomputed (for xr != dd, x and its comparison with
 *            t[hb-1] are unchanged);
 *   WS_UP    up moves with position hb - 1 in the segment: x = t[a]; when
 *            a < hb - 1 and u < x < v, t[hb-1] is no longer below x (bit
 *            hb - 2 - a of g clears; cmp is additive over bits) and, for a
 *            straddling move (wt->qrow), u, now a tail tile, is: q + 1;
 *            straddling a = hb - 1: x is v, u is one more tail tile below
 *            it: q + 1;
 *   WS_REDO  the head down move ending at hb - 1: x is t[hb-1] itself,
 *            recomputed from the tiles (vmove_lex).
 * A few adds per move instead of window_build's comparisons and sums; the
 * moves are walked by kind (wt->bykind) so the loops do not branch on it.
 */
/* GCC and Clang vector extension (the compilers the Makefile takes) */
typedef int64_t v2i64 __attribute__((vector_size(16)));
_Static_assert(TAIL_MAX % 2 == 0, "window_step adds shares two at a time");

static void window_step(struct window *restrict wn, const struct wtab *restrict wt,
                        const struct vtab *restrict v)
{
    /* locals: the stores into wn would otherwise make the compiler reload
     * what it read through wt and v */
    int64_t (*restrict head)[TAIL_MAX] = wn->head;
    int64_t *restrict sums = wn->sum;
    const int64_t *restrict step = wt->step;
    const uint8_t *mvs = wt->bykind;
    int hb = wt->hb, c = v->c;
    int nadd = wt->nkind[WS_ADD], nredo = wt->nkind[WS_REDO];
    int ndown = wt->nkind[WS_DOWN], nup = wt->nkind[WS_UP];
    unsigned dd = wn->p.d[hb - 1], u = wn->p.t[hb - 1], vv = wn->p.t[hb + (int)dd];
    perm_head_step(&wn->p, hb);
    const uint8_t *t = wn->p.t;
    for (int i = 0; i < nadd; i++)
        head[mvs[i]][0] += TAIL_ROWS;
    mvs += nadd;
    for (int i = 0; i < nredo; i++)
        head[mvs[i]][0] = (int64_t)vmove_lex(v, &wn->p, mvs[i] >> 1, 1, c);
    mvs += nredo;
    const int64_t *cmp1 = v->cmp[1];
    for (int i = 0; i < ndown; i++) {
        int mv = mvs[i], a = mv >> 1;
        int64_t st = step[mv], sum = sums[mv] + st;
        sums[mv] = sum;
        /* two shares per vector add: -O2 leaves the loop scalar */
        v2i64 add = {st, st};
        for (int xr = 0; xr < TAIL_MAX; xr += 2) {
            v2i64 h;
            memcpy(&h, &head[mv][xr], sizeof h);
            h += add;
            memcpy(&head[mv][xr], &h, sizeof h);
        }
        head[mv][dd] = sum + cmp1[((size_t)a << (c - 1)) +
                                  (below(t + a, u) & ((1u << (hb - a)) - 1u))];
    }
    mvs += ndown;
    for (int i = 0; i < nup; i++) {
        int mv = mvs[i], a = mv >> 1;
        unsigned x = t[a];
        int between = u < x && x < vv; /* false for a = hb - 1: x is vv */
        head[mv][0] += step[mv] - (between ? wt->upbit[mv] : 0);
        /* the row tables by q are consecutive; the zrow images of the
         * move's entry (up, blank at a + c) follow its row */
        size_t next = (size_t)((between & wt->qrow[mv]) | (a == hb - 1));
        wn->row[mv] += next;
        wn->zimg[0][ZMOVE(0, a + c)] += next * WINDOW_BLOCKS;
        wn->zimg[1][ZMOVE(0, a + c)] += next * WINDOW_BLOCKS;
    }
}

void window_enter(struct window *wn, const struct wtab *wt,
                  const struct vtab *v, uint64_t base, int m)
{
    int hb = wt->hb;
    uint64_t k = base > wn->base ? (base - wn->base) / WINDOW_BLOCKS : 0;
    if (wn->base != WINDOW_NONE && base > wn->base &&
        wn->p.d[hb - 1] + k <= TAIL_MAX) {
        while (k--)
            window_step(wn, wt, v);
    } else {
        if (wn->base != WINDOW_NONE && base > wn->base) {
            /* window bases: tail digits 0 before and after, the head's
             * number goes up by k */
            digits_add(&wn->p, hb - 1, k, m);
            wn->p.lex += k * TAIL_ROWS;
        } else {
            wn->p.lex = base * 2; /* a block is a pair of lex ranks */
            perm_unrank(&wn->p, m);
        }
        window_build(wn, wt, v);
        /* an entry reads the table of parity need ^ par: zs lists the
         * entries of need 0 first */
        const struct zmove *zs = wt->zs;
        for (unsigned par = 0; par < 2; par++) {
            const int64_t *pair = wt->pair[par];
            for (int i = 0; i < wt->nzm; i++) {
                if (i == wt->nzneed0)
                    pair = wt->pair[par ^ 1u];
                wn->zimg[par][ZMOVE(zs[i].dir, zs[i].z)] =
                    pair + wn->row[zs[i].mv] * WINDOW_BLOCKS;
            }
        }
    }
    /* row 0's tail digits are all 0: the window's parity is its head's */
    memcpy(wn->zrow, wn->zimg[wn->p.dsum & 1u], sizeof wn->zrow);
    wn->base = base;
}
