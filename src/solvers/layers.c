/*
 * layers.c - layer-by-layer construction of a solution (layers.h).
 *
 * The solver works on the board relabelled to the standard goal (tile k+1
 * belongs on cell k), stored with a border: (R+2) x (C+2) padded cells, the
 * border locked like a placed tile, so that no route needs a bounds check.
 * A line is always solved through a "view": logical coordinates (i, j) of
 * the unsolved region, logical row 0 being the line to place; for a column
 * the view is the transposed region, and a logical move maps to the
 * physical one with U<->L, D<->R swapped (m ^ 2 in the numbering of enum
 * move).  In the view, padded cell = base + i * si + j * sj.
 */
#include "slide/layers.h"

#include <stdlib.h>
#include <string.h>

#include "slide/parity.h"

/* The 3 x 2 end-of-line block: local cell k = 2 * row + col. */
#define BLOCK_CELLS 6
#define BLOCK_STATES (BLOCK_CELLS * BLOCK_CELLS * BLOCK_CELLS)
#define BLOCK_UNSEEN 255
/*
 * Moves kept for cancellation: a move that undoes the last surviving one
 * removes both (so no output holds a move followed by its inverse), looking
 * back up to CANCEL_DEPTH surviving moves.  A blank route is a shortest path
 * in a region of at most 10^6 cells, so no retrace is deeper; the same
 * window in both modes keeps --count equal to the length of the moves.
 */
#define CANCEL_DEPTH (1u << 20)
/*
 * The ring starts at RECENT_MIN moves and doubles while it is full, up to
 * CANCEL_DEPTH, so the window is the same as with a full-size ring from the
 * start; a small board never holds more than RECENT_MIN.  (A 1 MiB ring per
 * call was mapped and unmapped by AddressSanitizer's allocator on every call:
 * make asan's test_layers, with about 1.5 million small solves, spent its
 * time in page faults.)
 */
#define RECENT_MIN (1u << 12)

struct route_scratch { /* the general search, allocated on first use */
    unsigned *stamp;   /* per padded cell: == gen when seen in this search */
    int *prev;         /* per padded cell: previous cell on the best path */
    int *g;            /* per padded cell: moves from the start */
    uint64_t *heap;
    size_t heap_len, heap_cap;
    int *path;
    unsigned gen;
};

struct solver {
    int rows, cols, pw, np; /* board; padded width C + 2, padded cells */
    int *cells;             /* tile on each padded cell, 0 = blank, -1 = border */
    int *pos;               /* padded cell of each tile; pos[0] is the blank */
    unsigned char *locked;  /* border, placed (or temporarily held) cells */
    struct layers_moves *out;
    int tr, r0, c0, h, w;   /* the view: transposed?, region origin, logical size */
    int base, si, sj;       /* padded cell of logical (0, 0); strides of i and j */
    int ld[MOVE_COUNT];     /* padded offset of each logical direction */
    int ring[8];            /* padded offsets of the 8 cells around a cell */
    uint8_t block[BLOCK_STATES];
    struct route_scratch rs;
    uint8_t *recent;        /* the last surviving moves, a ring of rcap */
    uint32_t rcap;          /* a power of two, RECENT_MIN..CANCEL_DEPTH */
    uint32_t head, nrecent; /* next slot (mod rcap); moves held */
    int rc;                 /* first error (SLIDE_ENOMEM), sticky */
    slide_error *err;
};

static const int DI[MOVE_COUNT] = {-1, 1, 0, 0};
static const int DJ[MOVE_COUNT] = {0, 0, -1, 1};

/* Ring of the 8 cells around a tile, clockwise from the one above. */
static const int RING_I[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
static const int RING_J[8] = {0, 1, 1, 1, 0, -1, -1, -1};

/* ---- moves ---------------------------------------------------------- */

static void emit_stored(struct solver *s, enum move m)
{
    struct layers_moves *o = s->out;
    if (o->len == o->cap) {
        uint64_t cap = o->cap ? 2 * o->cap : 4096;
        char *p = realloc(o->moves, (size_t)cap);
        if (!p) {
            if (!s->rc)
                s->rc = slide_fail(s->err, SLIDE_ENOMEM, "out of memory for %llu moves",
                                   (unsigned long long)cap);
            o->len++;
            return;
        }
        o->moves = p;
        o->cap = cap;
    }
    o->moves[o->len++] = move_letter(m);
}

/* Double the full ring of recent moves (nrecent == rcap < CANCEL_DEPTH), the
 * oldest move first; out of line, so that emit stays short. */
static __attribute__((noinline, cold)) void recent_grow(struct solver *s)
{
    uint32_t cap = 2 * s->rcap;
    uint8_t *p = malloc(cap);
    if (!p) {
        if (!s->rc)
            s->rc = slide_fail(s->err, SLIDE_ENOMEM, "out of memory for %u recent moves", cap);
        return; /* the smaller window goes on; the error is returned */
    }
    uint32_t old = s->head & (s->rcap - 1); /* full: the oldest move is at head */
    memcpy(p, s->recent + old, s->rcap - old);
    memcpy(p + (s->rcap - old), s->recent, old);
    free(s->recent);
    s->recent = p;
    s->head = s->rcap;
    s->rcap = cap;
}

/* Emit m, or cancel it against the last surviving move when it undoes it
 * (the board's state is the same either way). */
static inline void emit(struct solver *s, enum move m)
{
    uint32_t mask = s->rcap - 1;
    if (s->nrecent && s->recent[(s->head - 1) & mask] == move_inverse(m)) {
        s->head--;
        s->nrecent--;
        s->out->len--; /* the stored letter, if any, is dropped with it */
        return;
    }
    if (s->recent) {
        if (s->nrecent > mask && mask < CANCEL_DEPTH - 1) {
            recent_grow(s);
            mask = s->rcap - 1;
        }
        s->recent[s->head++ & mask] = (uint8_t)m;
        s->nrecent += s->nrecent <= mask;
    }
    if (s->out->count_only)
        s->out->len++;
    else
        emit_stored(s, m);
}

/* Move the blank one cell in logical direction dir (the cell must exist). */
static inline void step(struct solver *s, int dir)
{
    int z = s->pos[0], to = z + s->ld[dir], t = s->cells[to];
    s->cells[z] = t;
    s->pos[t] = z;
    s->cells[to] = 0;
    s->pos[0] = to;
    emit(s, (enum move)(s->tr ? dir ^ 2 : dir));
}

static void steps(struct solver *s, int dir, int count)
{
    for (int k = 0; k < count; k++)
        step(s, dir);
}

/* ---- the view ------------------------------------------------------- */

static inline int cell_at(const struct solver *s, int i, int j)
{
    return s->base + i * s->si + j * s->sj;
}

static void coords(const struct solver *s, int cell, int *i, int *j)
{
    int r = cell / s->pw - 1 - s->r0, c = cell % s->pw - 1 - s->c0;
    *i = s->tr ? c : r;
    *j = s->tr ? r : c;
}

/* The tile that belongs on a padded cell (standard goal). */
static int goal_tile(const struct solver *s, int cell)
{
    return (cell / s->pw - 1) * s->cols + cell % s->pw - 1 + 1;
}

static void set_view(struct solver *s, int tr)
{
    s->tr = tr;
    s->h = tr ? s->cols - s->c0 : s->rows - s->r0;
    s->w = tr ? s->rows - s->r0 : s->cols - s->c0;
    s->base = (s->r0 + 1) * s->pw + s->c0 + 1;
    s->si = tr ? 1 : s->pw;
    s->sj = tr ? s->pw : 1;
    for (int d = 0; d < MOVE_COUNT; d++)
        s->ld[d] = DI[d] * s->si + DJ[d] * s->sj;
    for (int k = 0; k < 8; k++)
        s->ring[k] = RING_I[k] * s->si + RING_J[k] * s->sj;
}

/* Free: inside the region and not locked (valid for i in -1..h, j in -1..w:
 * outside the region lies a placed cell or the border). */
static inline int free_cell(const struct solver *s, int cell) { return !s->locked[cell]; }

static int is_free(const struct solver *s, int i, int j)
{
    return free_cell(s, cell_at(s, i, j));
}

static void set_lock(struct solver *s, int i, int j, int v)
{
    s->locked[cell_at(s, i, j)] = (unsigned char)v;
}

/* ---- blank routes that never pass the tile on cell x ---------------- */

static int ring_slot(const struct solver *s, int x, int cell)
{
    for (int k = 0; k < 8; k++)
        if (x + s->ring[k] == cell)
            return k;
    return -1;
}

/* The logical direction from ring slot k to the next slot in sense +-1. */
static int ring_dir(int k, int sense)
{
    int next = (k + sense + 8) & 7;
    int di = RING_I[next] - RING_I[k], dj = RING_J[next] - RING_J[k];
    return di < 0 ? MOVE_UP : di > 0 ? MOVE_DOWN : dj < 0 ? MOVE_LEFT : MOVE_RIGHT;
}

/* Moves from ring slot a to slot b in sense +-1; -1 if a cell is not free. */
static int ring_cost(const struct solver *s, int x, int a, int b, int sense)
{
    int len = 0;
    for (int k = a; k != b;) {
        k = (k + sense + 8) & 7;
        if (!free_cell(s, x + s->ring[k]))
            return -1;
        len++;
    }
    return len;
}

/* Blank (in the ring of x) to ring slot b, the shorter free way; 0 if
 * neither way is free. */
static int ring_route(struct solver *s, int x, int b)
{
    int a = ring_slot(s, x, s->pos[0]);
    int cw = ring_cost(s, x, a, b, 1), acw = ring_cost(s, x, a, b, -1);
    if (cw < 0 && acw < 0)
        return 0;
    int sense = acw < 0 || (cw >= 0 && cw <= acw) ? 1 : -1;
    for (int k = a; k != b; k = (k + sense + 8) & 7)
        step(s, ring_dir(k, sense));
    return 1;
}

/*
 * Is the L path from (bi, bj) to (ti, tj) clear of locked cells and of the
 * tile at (xi, xj)?  The path stays in the bounding box of two cells of the
 * region, and while tiles are routed the only locked cells inside the region
 * lie on logical row 0 (the line being placed), so only the path's cells on
 * row 0 need a look: O(1) for most paths instead of O(length).
 */
static int lpath_ok(const struct solver *s, int bi, int bj, int ti, int tj,
                    int vertical_first, int xi, int xj)
{
    int hrow = vertical_first ? ti : bi, vcol = vertical_first ? bj : tj;
    int lo_i = bi < ti ? bi : ti, hi_i = bi < ti ? ti : bi;
    int lo_j = bj < tj ? bj : tj, hi_j = bj < tj ? tj : bj;
    if ((xi == hrow && xj >= lo_j && xj <= hi_j) ||
        (xj == vcol && xi >= lo_i && xi <= hi_i))
        return 0;
    if (hrow == 0)
        for (int j = lo_j; j <= hi_j; j++)
            if (!is_free(s, 0, j))
                return 0;
    return lo_i > 0 || is_free(s, 0, vcol);
}

static void lpath_walk(struct solver *s, int bi, int bj, int ti, int tj,
                       int vertical_first)
{
    int dv = bi < ti ? MOVE_DOWN : MOVE_UP, dh = bj < tj ? MOVE_RIGHT : MOVE_LEFT;
    int nv = abs(ti - bi), nh = abs(tj - bj);
    if (vertical_first) {
        steps(s, dv, nv);
        steps(s, dh, nh);
    } else {
        steps(s, dh, nh);
        steps(s, dv, nv);
    }
}

/* The neighbour of x = (xi, xj) on the side of (bi, bj): between the two,
 * so that both L paths to it avoid x. */
static void facing_cell(int bi, int bj, int xi, int xj, int *fi, int *fj)
{
    *fi = xi;
    *fj = xj;
    if (bj != xj)
        *fj += bj < xj ? -1 : 1;
    else
        *fi += bi < xi ? -1 : 1;
}

/* ---- the general search (A*, Manhattan heuristic) ------------------- */

static int scratch_alloc(struct solver *s)
{
    struct route_scratch *r = &s->rs;
    if (r->stamp)
        return SLIDE_OK;
    size_t n = (size_t)s->np;
    r->stamp = calloc(n, sizeof *r->stamp);
    r->prev = malloc(n * sizeof *r->prev);
    r->g = malloc(n * sizeof *r->g);
    r->path = malloc(n * sizeof *r->path);
    r->heap_cap = 4 * n + 16;
    r->heap = malloc(r->heap_cap * sizeof *r->heap);
    if (!r->stamp || !r->prev || !r->g || !r->path || !r->heap)
        return slide_fail(s->err, SLIDE_ENOMEM, "out of memory for the route search");
    return SLIDE_OK;
}

static void heap_push(struct route_scratch *r, uint64_t key)
{
    size_t k = r->heap_len++;
    while (k > 0 && r->heap[(k - 1) / 2] > key) {
        r->heap[k] = r->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    r->heap[k] = key;
}

static uint64_t heap_pop(struct route_scratch *r)
{
    uint64_t top = r->heap[0], last = r->heap[--r->heap_len];
    size_t k = 0, len = r->heap_len;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= len)
            break;
        if (c + 1 < len && r->heap[c + 1] < r->heap[c])
            c++;
        if (r->heap[c] >= last)
            break;
        r->heap[k] = r->heap[c];
        k = c;
    }
    if (len)
        r->heap[k] = last;
    return top;
}

/* Manhattan distance from (i, j) to the rectangle [i0, i1] x [j0, j1]. */
static int rect_dist(int i, int j, int i0, int i1, int j0, int j1)
{
    int di = i < i0 ? i0 - i : i > i1 ? i - i1 : 0;
    int dj = j < j0 ? j0 - j : j > j1 ? j - j1 : 0;
    return di + dj;
}

/* Heap key: f first, then the larger g, then the cell (21 bits each; a
 * padded 1000 x 1000 board has 1,004,004 < 2^21 cells). */
static uint64_t route_key(int f, int g, int cell)
{
    return ((uint64_t)f << 42) | ((uint64_t)(0x1FFFFF - g) << 21) | (uint64_t)cell;
}

/* Walk the blank along the search's path to cell `end`. */
static void route_follow(struct solver *s, int end)
{
    struct route_scratch *r = &s->rs;
    int len = 0;
    for (int c = end; c != s->pos[0]; c = r->prev[c])
        r->path[len++] = c;
    while (len-- > 0) {
        int d = 0;
        while (s->pos[0] + s->ld[d] != r->path[len])
            d++;
        step(s, d);
    }
}

/*
 * Shortest blank route to any free cell of the logical rectangle
 * [i0, i1] x [j0, j1], through free cells; locked cells (the caller locks
 * what must not move) are never entered.  Returns 1, or 0 if none exists.
 */
static int route_search(struct solver *s, int i0, int i1, int j0, int j1)
{
    struct route_scratch *r = &s->rs;
    if ((s->rc = s->rc ? s->rc : scratch_alloc(s)))
        return 0;
    s->out->searches++;
    r->gen++;
    r->heap_len = 0;
    int start = s->pos[0], bi, bj;
    coords(s, start, &bi, &bj);
    r->stamp[start] = r->gen;
    r->g[start] = 0;
    heap_push(r, route_key(rect_dist(bi, bj, i0, i1, j0, j1), 0, start));
    while (r->heap_len) {
        uint64_t key = heap_pop(r);
        int cell = (int)(key & 0x1FFFFF), i, j;
        int g = 0x1FFFFF - (int)((key >> 21) & 0x1FFFFF);
        if (g != r->g[cell])
            continue; /* a stale entry */
        coords(s, cell, &i, &j);
        if (rect_dist(i, j, i0, i1, j0, j1) == 0) {
            route_follow(s, cell);
            return 1;
        }
        for (int d = 0; d < MOVE_COUNT; d++) {
            int nc = cell + s->ld[d];
            if (!free_cell(s, nc) || (r->stamp[nc] == r->gen && r->g[nc] <= g + 1))
                continue;
            r->stamp[nc] = r->gen;
            r->g[nc] = g + 1;
            r->prev[nc] = cell;
            heap_push(r, route_key(g + 1 + rect_dist(i + DI[d], j + DJ[d], i0, i1, j0, j1),
                                   g + 1, nc));
        }
    }
    return 0;
}

/* ---- tiles ---------------------------------------------------------- */

static int internal_error(struct solver *s, const char *what)
{
    if (!s->rc)
        s->rc = slide_fail(s->err, SLIDE_EINVAL,
                           "internal error in the layer construction: %s on a %dx%d "
                           "board (please report the board)", what, s->rows, s->cols);
    return s->rc;
}

/* The blank, far from tile x = (xi, xj), walks an L path to x's side. */
static void approach(struct solver *s, int xi, int xj)
{
    int bi, bj, fi, fj;
    coords(s, s->pos[0], &bi, &bj);
    facing_cell(bi, bj, xi, xj, &fi, &fj);
    if (!is_free(s, fi, fj))
        return;
    if (lpath_ok(s, bi, bj, fi, fj, 1, xi, xj))
        lpath_walk(s, bi, bj, fi, fj, 1);
    else if (lpath_ok(s, bi, bj, fi, fj, 0, xi, xj))
        lpath_walk(s, bi, bj, fi, fj, 0);
}

/* Bring the blank to cell y next to the tile at x = (xi, xj), never moving
 * x: an L path to x's ring, then round the ring. */
static int blank_to(struct solver *s, int x, int xi, int xj, int y)
{
    if (ring_slot(s, x, s->pos[0]) < 0)
        approach(s, xi, xj);
    if (ring_slot(s, x, s->pos[0]) >= 0 && ring_route(s, x, ring_slot(s, x, y)))
        return SLIDE_OK;
    /* never needed on the regions this construction makes (layers.h) */
    s->out->fallbacks++;
    int was = s->locked[x], yi, yj;
    coords(s, y, &yi, &yj);
    s->locked[x] = 1;
    int ok = route_search(s, yi, yi, yj, yj);
    s->locked[x] = (unsigned char)was;
    return ok ? SLIDE_OK : internal_error(s, "no route for the blank");
}

/* The common cases of a step, without the ring: the blank right behind the
 * tile goes round by a free side lane (4 moves), or the blank beside it
 * cuts the corner (2 moves).  Returns 1 if the blank is now on y. */
static int quick_to(struct solver *s, int x, int y, int dir)
{
    int z = s->pos[0], back = s->ld[dir ^ 1];
    if (z == x + back) {
        static const int sides[MOVE_COUNT][2] = {
            {MOVE_RIGHT, MOVE_LEFT}, {MOVE_RIGHT, MOVE_LEFT},
            {MOVE_DOWN, MOVE_UP}, {MOVE_DOWN, MOVE_UP}};
        for (int k = 0; k < 2; k++) {
            int side = sides[dir][k], o = s->ld[side];
            if (free_cell(s, z + o) && free_cell(s, x + o) && free_cell(s, y + o)) {
                step(s, side);
                step(s, dir);
                step(s, dir);
                step(s, side ^ 1);
                return 1;
            }
        }
        return 0;
    }
    for (int side = 0; side < MOVE_COUNT; side++) {
        if ((side >> 1) == (dir >> 1) || z != x + s->ld[side])
            continue;
        if (!free_cell(s, y + s->ld[side]))
            return 0;
        step(s, dir);
        step(s, side ^ 1);
        return 1;
    }
    return 0;
}

/* Slide the tile on cell *x one cell in logical direction dir. */
static int tile_step(struct solver *s, int *x, int xi, int xj, int dir)
{
    int y = *x + s->ld[dir];
    if (s->pos[0] != y && !quick_to(s, *x, y, dir) && blank_to(s, *x, xi, xj, y))
        return s->rc;
    step(s, dir ^ 1); /* the blank takes the tile's cell */
    *x = y;
    return s->rc;
}

/*
 * Move tile t to logical (ti, tj), ti in {0, 1}, never through row 0 except
 * on column tj: while both remain and the tile stays out of row 0, the
 * steps alternate (horizontal first), a staircase whose turns cost 3 moves
 * against 5 for a straight step; then the rest of the row; then the column.
 */
static int tile_to(struct solver *s, int t, int ti, int tj)
{
    int x = s->pos[t], xi, xj, last = MOVE_UP;
    coords(s, x, &xi, &xj);
    while ((xi != ti || xj != tj) && !s->rc) {
        int h = xj < tj ? MOVE_RIGHT : MOVE_LEFT, v = xi < ti ? MOVE_DOWN : MOVE_UP;
        int dir = xj == tj ? v : xi == ti ? h
                : (last == h && xi + DI[v] > 0) ? v : h;
        tile_step(s, &x, xi, xj, dir);
        xi += DI[dir];
        xj += DJ[dir];
        last = dir;
    }
    return s->rc;
}

/* ---- the 3 x 2 block at the end of a line --------------------------- */

static int block_state(int blank, int a, int b)
{
    return (blank * BLOCK_CELLS + a) * BLOCK_CELLS + b;
}

/* The three local cells of a state. */
static int block_blank(int st) { return st / (BLOCK_CELLS * BLOCK_CELLS); }
static int block_a(int st) { return st / BLOCK_CELLS % BLOCK_CELLS; }
static int block_b(int st) { return st % BLOCK_CELLS; }

/* The local cell reached from k by direction d, or -1. */
static int block_step(int k, int d)
{
    int i = k / 2 + DI[d], j = k % 2 + DJ[d];
    return i < 0 || i > 2 || j < 0 || j > 1 ? -1 : 2 * i + j;
}

/* The state after the blank moves d from state (z, a, b), or -1. */
static int block_next(int z, int a, int b, int d)
{
    int to = block_step(z, d);
    if (to < 0)
        return -1;
    return block_state(to, a == to ? z : a, b == to ? z : b);
}

/* Distances to "a on local cell 0, b on cell 1", by BFS from those states. */
static int block_table(uint8_t *dist)
{
    int queue[BLOCK_STATES], head = 0, tail = 0, radius = 0;
    memset(dist, BLOCK_UNSEEN, BLOCK_STATES);
    for (int z = 2; z < BLOCK_CELLS; z++) {
        queue[tail++] = block_state(z, 0, 1);
        dist[block_state(z, 0, 1)] = 0;
    }
    while (head < tail) {
        int st = queue[head++];
        for (int d = 0; d < MOVE_COUNT; d++) {
            int nx = block_next(block_blank(st), block_a(st), block_b(st), d);
            if (nx >= 0 && dist[nx] == BLOCK_UNSEEN) {
                dist[nx] = (uint8_t)(dist[st] + 1);
                radius = dist[nx] > radius ? dist[nx] : radius;
                queue[tail++] = nx;
            }
        }
    }
    return tail == BLOCK_CELLS * (BLOCK_CELLS - 1) * (BLOCK_CELLS - 2) ? radius : -1;
}

int layers_block_radius(void)
{
    uint8_t dist[BLOCK_STATES];
    return block_table(dist);
}

/* Local block cell of logical (i, j), or -1 outside the block. */
static int block_cell(const struct solver *s, int i, int j)
{
    return i >= 0 && i <= 2 && j >= s->w - 2 && j < s->w ? 2 * i + (j - (s->w - 2)) : -1;
}

static int block_cell_of(const struct solver *s, int tile)
{
    int i, j;
    coords(s, s->pos[tile], &i, &j);
    return block_cell(s, i, j);
}

/* Finish the line: a and b and the blank are in the block. */
static int block_solve(struct solver *s, int a, int b)
{
    int z = block_cell_of(s, 0), pa = block_cell_of(s, a), pb = block_cell_of(s, b);
    if (z < 0 || pa < 0 || pb < 0)
        return internal_error(s, "the end-of-line block is incomplete");
    int st = block_state(z, pa, pb);
    while (s->block[st] > 0 && !s->rc) {
        int d = 0, nx = -1;
        for (; d < MOVE_COUNT; d++) {
            nx = block_next(block_blank(st), block_a(st), block_b(st), d);
            if (nx >= 0 && s->block[nx] + 1 == s->block[st])
                break;
        }
        step(s, d);
        st = nx;
    }
    return s->rc;
}

/* ---- lines ---------------------------------------------------------- */

/* Place logical row 0 of the current view (h >= 3, w >= 2). */
static int solve_line(struct solver *s)
{
    int w = s->w;
    for (int j = 0; j < w - 2 && !s->rc; j++) {
        if (tile_to(s, goal_tile(s, cell_at(s, 0, j)), 0, j))
            return s->rc;
        set_lock(s, 0, j, 1);
    }
    int a = goal_tile(s, cell_at(s, 0, w - 2)), b = goal_tile(s, cell_at(s, 0, w - 1));
    if (tile_to(s, a, 0, w - 2))
        return s->rc;
    set_lock(s, 0, w - 2, 1);
    if (block_cell_of(s, b) < 0 && tile_to(s, b, 1, w - 1))
        return s->rc;
    if (block_cell_of(s, 0) < 0) {
        int cb = s->pos[b];
        s->locked[cb] = 1;
        int ok = route_search(s, 0, 2, w - 2, w - 1);
        s->locked[cb] = 0;
        if (!ok)
            return internal_error(s, "no route into the end-of-line block");
    }
    set_lock(s, 0, w - 2, 0);
    if (block_solve(s, a, b))
        return s->rc;
    set_lock(s, 0, w - 2, 1);
    set_lock(s, 0, w - 1, 1);
    return SLIDE_OK;
}

/* The last 2 x 2 block (the view covers it): round the 12-cycle. */
static int solve_square(struct solver *s)
{
    static const int cw_dir[4] = {MOVE_RIGHT, MOVE_DOWN, MOVE_LEFT, MOVE_UP};
    static const int ring_i[4] = {0, 0, 1, 1}, ring_j[4] = {0, 1, 1, 0};
    int c[4], want[4], z = 0;
    for (int k = 0; k < 4; k++) {
        int cell = cell_at(s, ring_i[k], ring_j[k]);
        c[k] = s->cells[cell];
        want[k] = k == 2 ? 0 : goal_tile(s, cell);
        if (c[k] == 0)
            z = k;
    }
    int turns = 0;
    while (memcmp(c, want, sizeof c) != 0 && turns < 12) {
        int next = (z + 1) & 3; /* clockwise: the tile ahead moves back */
        c[z] = c[next];
        c[next] = 0;
        z = next;
        turns++;
    }
    if (turns == 12)
        return internal_error(s, "the last 2x2 block is not on its cycle");
    for (int k = 0; k < (turns <= 6 ? turns : 12 - turns); k++) {
        int here = 0;
        while (cell_at(s, ring_i[here], ring_j[here]) != s->pos[0])
            here++;
        step(s, turns <= 6 ? cw_dir[here] : cw_dir[(here + 3) & 3] ^ 1);
    }
    return s->rc;
}

/* 1 if every tile of logical row 0 of the view is home already: the
 * stage is skipped (its cells locked), so a solved board costs no move. */
static int line_home(struct solver *s)
{
    for (int j = 0; j < s->w; j++) {
        int cell = cell_at(s, 0, j);
        if (s->cells[cell] != goal_tile(s, cell))
            return 0;
    }
    for (int j = 0; j < s->w; j++)
        set_lock(s, 0, j, 1);
    return 1;
}

static int solve_standard(struct solver *s)
{
    while (!s->rc && (s->rows - s->r0 > 2 || s->cols - s->c0 > 2)) {
        if (s->rows - s->r0 > 2) {
            set_view(s, 0);
            if (!line_home(s) && solve_line(s))
                break;
            s->r0++;
        }
        if (s->cols - s->c0 > 2) {
            set_view(s, 1);
            if (!line_home(s) && solve_line(s))
                break;
            s->c0++;
        }
    }
    if (!s->rc) {
        set_view(s, 0);
        solve_square(s);
    }
    return s->rc;
}

/* ---- setup ---------------------------------------------------------- */

static void solver_free(struct solver *s)
{
    free(s->cells);
    free(s->pos);
    free(s->locked);
    free(s->rs.stamp);
    free(s->rs.prev);
    free(s->rs.g);
    free(s->rs.heap);
    free(s->rs.path);
    free(s->recent);
}

/* The padded board of b relabelled so that `target` becomes the standard
 * goal; the border is locked. */
static int solver_init(struct solver *s, const struct board *b,
                       const struct board *target, struct layers_moves *out,
                       slide_error *err)
{
    memset(s, 0, sizeof *s);
    s->rows = b->rows;
    s->cols = b->cols;
    s->pw = b->cols + 2;
    s->np = (b->rows + 2) * s->pw;
    s->out = out;
    s->err = err;
    int n = board_cells(b);
    s->cells = malloc((size_t)s->np * sizeof *s->cells);
    s->pos = malloc((size_t)n * sizeof *s->pos);
    s->locked = malloc((size_t)s->np);
    s->rcap = RECENT_MIN;
    s->recent = malloc(s->rcap);
    if (!s->cells || !s->pos || !s->locked || !s->recent)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a %dx%d board",
                          s->rows, s->cols);
    for (int k = 0; k < n; k++) /* pos as the relabelling map first */
        s->pos[target->cells[k]] = k + 1;
    for (int p = 0; p < s->np; p++) {
        int r = p / s->pw - 1, c = p % s->pw - 1;
        int inside = r >= 0 && r < s->rows && c >= 0 && c < s->cols;
        int v = inside ? b->cells[r * s->cols + c] : -1;
        s->cells[p] = v > 0 ? s->pos[v] : v;
        s->locked[p] = (unsigned char)!inside;
    }
    for (int p = 0; p < s->np; p++)
        if (s->cells[p] >= 0)
            s->pos[s->cells[p]] = p;
    if (block_table(s->block) < 0)
        return slide_fail(err, SLIDE_EINVAL, "internal error: the 3x2 block table "
                                             "does not reach every placement");
    return SLIDE_OK;
}

static int check_input(const struct board *b, const struct board *goal,
                       slide_error *err)
{
    if (b->rows != goal->rows || b->cols != goal->cols)
        return slide_fail(err, SLIDE_EINVAL, "the board is %dx%d but the goal is %dx%d",
                          b->rows, b->cols, goal->rows, goal->cols);
    slide_error why_goal;
    int rc = board_validate(b, err);
    if (rc)
        return rc;
    if ((rc = board_validate(goal, &why_goal)))
        return slide_fail(err, rc, "goal: %s", why_goal.msg);
    struct parity_report pr;
    if ((rc = parity_check(b, goal, &pr, err)))
        return rc;
    if (!pr.solvable) {
        char why[400];
        parity_explain(&pr, why, sizeof why);
        return slide_fail(err, SLIDE_EUNSOLVABLE, "the board cannot reach the goal: %s", why);
    }
    return SLIDE_OK;
}

/* A path board with its tiles in goal order: walk the blank to its place. */
static void solve_path(const struct board *b, const struct board *goal,
                       struct solver *s)
{
    int z = board_blank(b), zg = board_blank(goal);
    enum move fwd = b->rows == 1 ? MOVE_RIGHT : MOVE_DOWN;
    for (int k = z; k != zg; k += zg > z ? 1 : -1)
        emit(s, zg > z ? fwd : move_inverse(fwd));
}

int layers_solve(const struct board *b, const struct board *goal,
                 struct layers_moves *out, slide_error *err)
{
    out->len = 0;
    out->searches = out->fallbacks = 0;
    int rc = check_input(b, goal, err);
    if (rc)
        return rc;
    struct solver s;
    struct board target = {0};
    if (b->rows == 1 || b->cols == 1) {
        memset(&s, 0, sizeof s);
        s.out = out;
        s.err = err;
        solve_path(b, goal, &s);
        return s.rc;
    }
    /* target: the goal with its blank walked to the last cell by P */
    int zg = board_blank(goal), gr = zg / b->cols, gc = zg % b->cols;
    if ((rc = board_copy(&target, goal, err)))
        return rc;
    for (int k = 0; k < b->cols - 1 - gc; k++)
        board_move(&target, &zg, MOVE_RIGHT);
    for (int k = 0; k < b->rows - 1 - gr; k++)
        board_move(&target, &zg, MOVE_DOWN);
    rc = solver_init(&s, b, &target, out, err);
    if (!rc)
        rc = solve_standard(&s);
    for (int k = 0; !rc && k < b->rows - 1 - gr; k++)
        emit(&s, MOVE_UP);
    for (int k = 0; !rc && k < b->cols - 1 - gc; k++)
        emit(&s, MOVE_LEFT);
    rc = rc ? rc : s.rc;
    solver_free(&s);
    board_free(&target);
    return rc;
}

uint64_t layers_bound(int rows, int cols)
{
    if (rows == 1 || cols == 1)
        return (uint64_t)rows * (uint64_t)cols - 1;
    uint64_t total = 6 + (uint64_t)(rows + cols - 2);
    int h = rows, w = cols, radius = layers_block_radius();
    while (h > 2 || w > 2) {
        if (h > 2) { /* the top row: w tiles in an h x w region */
            uint64_t d = (uint64_t)(h + w - 2);
            total += (uint64_t)w * (6 * d + 4) + d + 2 + (uint64_t)radius;
            h--;
        }
        if (w > 2) { /* the left column: h tiles, the region transposed */
            uint64_t d = (uint64_t)(h + w - 2);
            total += (uint64_t)h * (6 * d + 4) + d + 2 + (uint64_t)radius;
            w--;
        }
    }
    return total;
}

void layers_moves_free(struct layers_moves *out)
{
    free(out->moves);
    out->moves = NULL;
    out->len = out->cap = 0;
}
