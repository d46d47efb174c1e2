/*
 * heuristic.c - the heuristic table and its evaluators (heuristic.h).
 *
 * Every evaluator walks the board once per line it needs, keeping per-line
 * scratch on the stack (at most BOARD_MAX_SIDE entries), so that evaluation
 * allocates nothing and shares nothing between threads.
 */
#include "slide/heuristic.h"

#include "slide/pdb.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- walking-distance tables ------------------------------------------- */

#define WD_MAX_WORDS (HEURISTIC_WD_MAX_BITS / 64)
#define WD_MAX_ENTRIES HEURISTIC_WD_MAX_BITS /* at least one bit per entry */

/*
 * One relaxed puzzle (one component of wd).  A state is the lines x lines
 * matrix cnt[i][j] = tiles of class j (goal line j) standing in line i,
 * packed entry e = i * lines + j into word e / per_word at bit
 * (e % per_word) * bits.  States are kept in BFS order (keys, dist) with an
 * open-addressing hash (slot[] = state index + 1, 0 empty).
 */
struct wd_table {
    int lines, width;      /* lines of the board, cells per line */
    int bits, per_word, words;
    uint8_t word_of[WD_MAX_ENTRIES];
    uint8_t shift_of[WD_MAX_ENTRIES];
    uint64_t nstates, alloc;
    uint64_t *keys;        /* nstates * words */
    uint16_t *dist;
    uint32_t *slot;
    uint64_t cap;          /* slots, a power of two */
};

/* The two components of one bound heuristic: its own tables, or a
 * store's (shared, read-only). */
struct heuristic_wd {
    const struct wd_table *vert, *horiz;
    struct wd_table own[2];
};

static uint64_t wd_hash(const uint64_t *key, int words)
{
    uint64_t x = 0x243f6a8885a308d3ULL;
    for (int w = 0; w < words; w++) {
        x ^= key[w];
        x *= 0x9e3779b97f4a7c15ULL;
        x ^= x >> 29;
    }
    return x;
}

/* Index of the state `key`, or -1 when the table does not hold it. */
static int64_t wd_find(const struct wd_table *t, const uint64_t *key)
{
    if (!t->cap)
        return -1;
    uint64_t i = wd_hash(key, t->words) & (t->cap - 1);
    for (;; i = (i + 1) & (t->cap - 1)) {
        uint32_t s = t->slot[i];
        if (!s)
            return -1;
        const uint64_t *k = t->keys + (uint64_t)(s - 1) * (uint64_t)t->words;
        int w = 0;
        while (w < t->words && k[w] == key[w])
            w++;
        if (w == t->words)
            return (int64_t)s - 1;
    }
}

static void wd_place(struct wd_table *t, uint64_t index)
{
    const uint64_t *key = t->keys + index * (uint64_t)t->words;
    uint64_t i = wd_hash(key, t->words) & (t->cap - 1);
    while (t->slot[i])
        i = (i + 1) & (t->cap - 1);
    t->slot[i] = (uint32_t)(index + 1);
}

/* Keep the hash at most half full and room for one more state. */
static int wd_grow(struct wd_table *t, slide_error *err)
{
    if (t->nstates == t->alloc) {
        uint64_t a = t->alloc ? 2 * t->alloc : 1024;
        uint64_t *k = realloc(t->keys, a * (uint64_t)t->words * sizeof *k);
        if (k)
            t->keys = k;
        uint16_t *d = realloc(t->dist, a * sizeof *d);
        if (d)
            t->dist = d;
        if (!k || !d)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a walking-distance table");
        t->alloc = a;
    }
    if (2 * (t->nstates + 1) > t->cap) {
        uint64_t cap = t->cap ? 2 * t->cap : 2048;
        uint32_t *s = calloc(cap, sizeof *s);
        if (!s)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a walking-distance table");
        free(t->slot);
        t->slot = s;
        t->cap = cap;
        for (uint64_t i = 0; i < t->nstates; i++)
            wd_place(t, i);
    }
    return SLIDE_OK;
}

/* Add key at distance d unless present.  what names the component. */
static int wd_insert(struct wd_table *t, const uint64_t *key, unsigned d,
                     const char *what, int rows, int cols, slide_error *err)
{
    if (wd_find(t, key) >= 0)
        return SLIDE_OK;
    if (t->nstates >= HEURISTIC_WD_MAX_STATES)
        return slide_fail(err, SLIDE_ERANGE,
                          "wd: the %s table of a %dx%d board has more than %u states; "
                          "wd is limited to boards whose row and column tables stay "
                          "within that (4x4, 3x5, 2x6 and smaller, and their transposes)",
                          what, rows, cols, HEURISTIC_WD_MAX_STATES);
    if (d > UINT16_MAX)
        return slide_fail(err, SLIDE_ERANGE, "wd: the %s table of a %dx%d board has "
                          "distances beyond %d", what, rows, cols, UINT16_MAX);
    int rc = wd_grow(t, err);
    if (rc)
        return rc;
    memcpy(t->keys + t->nstates * (uint64_t)t->words, key, (size_t)t->words * sizeof *key);
    t->dist[t->nstates] = (uint16_t)d;
    wd_place(t, t->nstates++);
    return SLIDE_OK;
}

static unsigned wd_get(const struct wd_table *t, const uint64_t *key, int e)
{
    return (unsigned)(key[t->word_of[e]] >> t->shift_of[e]) & ((1u << t->bits) - 1u);
}

static void wd_add(const struct wd_table *t, uint64_t *key, int e, int delta)
{
    uint64_t one = 1ULL << t->shift_of[e];
    if (delta > 0)
        key[t->word_of[e]] += one;
    else
        key[t->word_of[e]] -= one;
}

/* The line holding the blank: the one with a tile fewer than width. */
static int wd_blank_line(const struct wd_table *t, const uint64_t *key)
{
    for (int i = 0; i < t->lines; i++) {
        unsigned sum = 0;
        for (int j = 0; j < t->lines; j++)
            sum += wd_get(t, key, i * t->lines + j);
        if (sum < (unsigned)t->width)
            return i;
    }
    return -1;
}

/* Lay out the packing; SLIDE_ERANGE when the matrix does not fit. */
static int wd_layout(struct wd_table *t, int lines, int width, const char *what,
                     int rows, int cols, slide_error *err)
{
    memset(t, 0, sizeof *t);
    t->lines = lines;
    t->width = width;
    while ((1 << t->bits) <= width)
        t->bits++;
    t->per_word = 64 / t->bits;
    int entries = lines * lines;
    if ((entries + t->per_word - 1) / t->per_word > WD_MAX_WORDS)
        return slide_fail(err, SLIDE_ERANGE,
                          "wd: the %s state of a %dx%d board is a %dx%d matrix of counts "
                          "up to %d, more than %d bits; wd is limited to boards with "
                          "few lines (4x4, 3x5, 2x6 and smaller, and their transposes)",
                          what, rows, cols, lines, lines, width, HEURISTIC_WD_MAX_BITS);
    t->words = (entries + t->per_word - 1) / t->per_word;
    for (int e = 0; e < entries; e++) {
        t->word_of[e] = (uint8_t)(e / t->per_word);
        t->shift_of[e] = (uint8_t)((e % t->per_word) * t->bits);
    }
    return SLIDE_OK;
}

/* States expanded between two looks at a build's cancel flag. */
#define WD_CANCEL_EVERY 4096

/*
 * The multi-tile moves of the relaxed puzzle from state key (blank in line
 * b) to blank line nb: every line i from nb towards b, b excluded, gives one
 * tile of some class it holds to the line next to it on b's side (the tiles
 * of the real column between the blank's two cells each slide one line).
 * Line `at` is the next line to choose a class for; next holds the choices
 * made so far.  Each result is inserted at distance d + 1.
 */
static int wd_jumps(struct wd_table *t, const uint64_t *key, uint64_t *next, int b,
                    int nb, int at, unsigned d, const char *what, int rows, int cols,
                    slide_error *err)
{
    int L = t->lines, dir = nb > b ? 1 : -1, rc = SLIDE_OK;
    if (at == nb + dir)
        return wd_insert(t, next, d + 1, what, rows, cols, err);
    for (int j = 0; j < L && !rc; j++) {
        if (!wd_get(t, key, at * L + j))
            continue;
        wd_add(t, next, at * L + j, -1);
        wd_add(t, next, (at - dir) * L + j, 1);
        rc = wd_jumps(t, key, next, b, nb, at + dir, d, what, rows, cols, err);
        wd_add(t, next, (at - dir) * L + j, -1);
        wd_add(t, next, at * L + j, 1);
    }
    return rc;
}

/*
 * BFS of the relaxed puzzle from the goal state: line i holds the width
 * tiles of class i, except the goal blank's line, which holds one fewer.
 * STM: a move carries one tile of any class from a line next to the
 * blank's line into it (the blank's line changes).  MTM: the blank's line
 * jumps to any other line nb, and every line from nb up to the blank's
 * (that one excluded) passes one tile of a class it holds one line towards
 * the blank's old line (wd_jumps).  Stops with SLIDE_EINTR when *cancel
 * (NULL: never) becomes nonzero.
 */
static int wd_build(struct wd_table *t, int blank_class, enum metric metric,
                    const char *what, int rows, int cols,
                    const volatile sig_atomic_t *cancel, slide_error *err)
{
    uint64_t key[WD_MAX_WORDS] = {0};
    int L = t->lines;
    for (int i = 0; i < L; i++)
        for (int k = 0; k < t->width - (i == blank_class); k++)
            wd_add(t, key, i * L + i, 1);
    int rc = wd_insert(t, key, 0, what, rows, cols, err);
    for (uint64_t head = 0; !rc && head < t->nstates; head++) {
        if (cancel && head % WD_CANCEL_EVERY == 0 && *cancel)
            return slide_fail(err, SLIDE_EINTR, "the walking-distance tables' build was "
                              "stopped");
        memcpy(key, t->keys + head * (uint64_t)t->words, (size_t)t->words * sizeof *key);
        unsigned d = t->dist[head];
        int b = wd_blank_line(t, key);
        for (int nb = 0; metric == METRIC_MTM && nb < L && !rc; nb++) {
            uint64_t next[WD_MAX_WORDS];
            memcpy(next, key, sizeof next);
            if (nb != b)
                rc = wd_jumps(t, key, next, b, nb, b + (nb > b ? 1 : -1), d, what, rows,
                              cols, err);
        }
        for (int nb = b - 1; metric == METRIC_STM && nb <= b + 1 && !rc; nb += 2) {
            if (nb < 0 || nb >= L)
                continue;
            for (int j = 0; j < L && !rc; j++) {
                if (!wd_get(t, key, nb * L + j))
                    continue;
                uint64_t next[WD_MAX_WORDS];
                memcpy(next, key, sizeof next);
                wd_add(t, next, nb * L + j, -1);
                wd_add(t, next, b * L + j, 1);
                rc = wd_insert(t, next, d + 1, what, rows, cols, err);
            }
        }
    }
    return rc;
}

static void wd_table_free(struct wd_table *t)
{
    free(t->keys);
    free(t->dist);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* One component's table: `lines` lines of `width` cells, the goal blank
 * in line `blank`, moves of `metric` (t freed on error).  vertical: the
 * rows of a rows x cols board, else its columns. */
static int wd_table_make(struct wd_table *t, int vertical, int rows, int cols, int blank,
                         enum metric metric, const volatile sig_atomic_t *cancel,
                         slide_error *err)
{
    const char *what = vertical ? "vertical (row)" : "horizontal (column)";
    int rc = wd_layout(t, vertical ? rows : cols, vertical ? cols : rows, what, rows, cols,
                       err);
    if (!rc)
        rc = wd_build(t, blank, metric, what, rows, cols, cancel, err);
    if (rc)
        wd_table_free(t);
    return rc;
}

static int prepare_wd(struct heuristic *h, slide_error *err)
{
    struct heuristic_wd *w = calloc(1, sizeof *w);
    if (!w)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for walking-distance tables");
    h->wd = w;
    int rc = wd_table_make(&w->own[0], 1, h->rows, h->cols, h->goal_row[0], h->metric,
                           NULL, err);
    if (!rc)
        rc = wd_table_make(&w->own[1], 0, h->rows, h->cols, h->goal_col[0], h->metric,
                           NULL, err);
    w->vert = &w->own[0];
    w->horiz = &w->own[1];
    return rc;
}

/* ---- walking-distance tables shared between goals ---------------------- */

/* One table of a store: a component's lines, cells per line and the goal
 * blank's line are its key (the table depends on nothing else). */
struct wd_entry {
    struct wd_entry *next;
    int lines, width, blank;
    struct wd_table t;
};

struct heuristic_wd_store {
    pthread_mutex_t lock;    /* held while a table is looked up or built */
    struct wd_entry *head;
    size_t bytes, max_bytes;
};

static size_t wd_table_bytes(const struct wd_table *t)
{
    return (size_t)(t->alloc * ((uint64_t)t->words * sizeof *t->keys + sizeof *t->dist) +
                    t->cap * sizeof *t->slot);
}

int heuristic_wd_store_new(struct heuristic_wd_store **out, size_t max_bytes,
                           slide_error *err)
{
    if (!(*out = calloc(1, sizeof **out)))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the walking-distance tables");
    pthread_mutex_init(&(*out)->lock, NULL);
    (*out)->max_bytes = max_bytes;
    return SLIDE_OK;
}

void heuristic_wd_store_free(struct heuristic_wd_store *s)
{
    if (!s)
        return;
    while (s->head) {
        struct wd_entry *e = s->head;
        s->head = e->next;
        wd_table_free(&e->t);
        free(e);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
}

size_t heuristic_wd_store_bytes(struct heuristic_wd_store *s)
{
    pthread_mutex_lock(&s->lock);
    size_t b = s->bytes;
    pthread_mutex_unlock(&s->lock);
    return b;
}

/* The store's table of one component, built there if it is not there
 * yet - or, when the store is full, built into own (the caller's). */
static int wd_shared(struct heuristic_wd_store *s, int vertical, int rows, int cols,
                     int blank, const volatile sig_atomic_t *cancel, struct wd_table *own,
                     const struct wd_table **out, slide_error *err)
{
    int lines = vertical ? rows : cols, width = vertical ? cols : rows, rc = SLIDE_OK;
    pthread_mutex_lock(&s->lock);
    struct wd_entry *e = s->head;
    while (e && !(e->lines == lines && e->width == width && e->blank == blank))
        e = e->next;
    if (!e && s->bytes >= s->max_bytes) { /* the caller's own, built without the lock */
        pthread_mutex_unlock(&s->lock);
        rc = wd_table_make(own, vertical, rows, cols, blank, METRIC_STM, cancel, err);
        *out = own;
        return rc;
    }
    if (!e) { /* built here, kept only when complete */
        if (!(e = calloc(1, sizeof *e))) {
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for walking-distance tables");
        } else if ((rc = wd_table_make(&e->t, vertical, rows, cols, blank, METRIC_STM, cancel,
                                       err))) {
            free(e);
            e = NULL;
        } else {
            e->lines = lines;
            e->width = width;
            e->blank = blank;
            e->next = s->head;
            s->head = e;
            s->bytes += wd_table_bytes(&e->t);
        }
    }
    if (!rc)
        *out = &e->t;
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* h bound to def and goal: the goal row and column of every tile (h
 * zeroed first; freed on error). */
static int bind_goal(struct heuristic *h, const struct heuristic_def *def,
                     const struct board *goal, slide_error *err)
{
    int n = board_cells(goal);
    memset(h, 0, sizeof *h);
    h->def = def;
    h->rows = goal->rows;
    h->cols = goal->cols;
    h->n = n;
    h->goal_row = malloc((size_t)n * sizeof *h->goal_row);
    h->goal_col = malloc((size_t)n * sizeof *h->goal_col);
    if (!h->goal_row || !h->goal_col) {
        heuristic_free(h);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the %s heuristic of a "
                          "%dx%d board", def->name, goal->rows, goal->cols);
    }
    for (int k = 0; k < n; k++) {
        h->goal_row[goal->cells[k]] = k / goal->cols;
        h->goal_col[goal->cells[k]] = k % goal->cols;
    }
    return SLIDE_OK;
}

int heuristic_init_wd_shared(struct heuristic *h, const struct board *goal,
                             struct heuristic_wd_store *store,
                             const volatile sig_atomic_t *cancel, slide_error *err)
{
    int rc = bind_goal(h, heuristic_find("wd"), goal, err);
    if (rc)
        return rc;
    if (!(h->wd = calloc(1, sizeof *h->wd))) {
        heuristic_free(h);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for walking-distance tables");
    }
    rc = wd_shared(store, 1, h->rows, h->cols, h->goal_row[0], cancel, &h->wd->own[0],
                       &h->wd->vert, err);
    if (!rc)
        rc = wd_shared(store, 0, h->rows, h->cols, h->goal_col[0], cancel, &h->wd->own[1],
                       &h->wd->horiz, err);
    if (rc)
        heuristic_free(h);
    return rc;
}

/* Distance of one component; a state missing from the table (a board that
 * cannot reach the goal, possible only on 1-wide boards) counts 0. */
static int wd_lookup(const struct wd_table *t, const uint64_t *key)
{
    int64_t i = wd_find(t, key);
    return i < 0 ? 0 : t->dist[i];
}

static int eval_wd(const struct heuristic *h, const int *cells)
{
    const struct wd_table *v = h->wd->vert, *z = h->wd->horiz;
    uint64_t kv[WD_MAX_WORDS] = {0}, kh[WD_MAX_WORDS] = {0};
    int R = h->rows, C = h->cols;
    for (int r = 0, k = 0; r < R; r++)
        for (int c = 0; c < C; c++, k++) {
            int t = cells[k];
            if (!t)
                continue;
            int ev = r * R + h->goal_row[t], eh = c * C + h->goal_col[t];
            kv[v->word_of[ev]] += 1ULL << v->shift_of[ev];
            kh[z->word_of[eh]] += 1ULL << z->shift_of[eh];
        }
    return wd_lookup(v, kv) + wd_lookup(z, kh);
}

int heuristic_wd_start(const struct heuristic *h, const int *cells,
                       struct heuristic_wd_node *nd)
{
    const struct wd_table *v = h->wd->vert, *z = h->wd->horiz;
    memset(nd, 0, sizeof *nd);
    int R = h->rows, C = h->cols;
    for (int r = 0, k = 0; r < R; r++)
        for (int c = 0; c < C; c++, k++) {
            int t = cells[k];
            if (!t)
                continue;
            wd_add(v, nd->key[0], r * R + h->goal_row[t], 1);
            wd_add(z, nd->key[1], c * C + h->goal_col[t], 1);
        }
    nd->part[0] = wd_lookup(v, nd->key[0]);
    nd->part[1] = wd_lookup(z, nd->key[1]);
    return nd->part[0] + nd->part[1];
}

int heuristic_wd_move(const struct heuristic *h, const struct heuristic_wd_node *before,
                      int tile, int from, int to, struct heuristic_wd_node *after)
{
    int C = h->cols, vertical = from / C != to / C, i = vertical ? 0 : 1;
    const struct wd_table *t = vertical ? h->wd->vert : h->wd->horiz;
    int lines = t->lines, cls = vertical ? h->goal_row[tile] : h->goal_col[tile];
    int a = vertical ? from / C : from % C, b = vertical ? to / C : to % C;
    *after = *before;
    wd_add(t, after->key[i], a * lines + cls, -1);
    wd_add(t, after->key[i], b * lines + cls, 1);
    after->part[i] = wd_lookup(t, after->key[i]);
    return after->part[0] + after->part[1];
}

void heuristic_wd_states(const struct heuristic *h, uint64_t *vertical,
                         uint64_t *horizontal)
{
    *vertical = h->wd && h->wd->vert ? h->wd->vert->nstates : 0;
    *horizontal = h->wd && h->wd->horiz ? h->wd->horiz->nstates : 0;
}

/* ---- misplaced, manhattan ------------------------------------------------ */

static int eval_misplaced(const struct heuristic *h, const int *cells)
{
    int s = 0;
    for (int r = 0, k = 0; r < h->rows; r++)
        for (int c = 0; c < h->cols; c++, k++) {
            int t = cells[k];
            s += (t != 0) & ((h->goal_row[t] != r) | (h->goal_col[t] != c));
        }
    return s;
}

static int manhattan(const struct heuristic *h, const int *cells)
{
    int s = 0;
    for (int r = 0, k = 0; r < h->rows; r++)
        for (int c = 0; c < h->cols; c++, k++) {
            int t = cells[k];
            if (!t)
                continue;
            int dr = r - h->goal_row[t], dc = c - h->goal_col[t];
            s += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
        }
    return s;
}

static int eval_manhattan(const struct heuristic *h, const int *cells)
{
    return manhattan(h, cells);
}

/* ---- linear conflicts ---------------------------------------------------- */

/*
 * Length of the longest strictly increasing subsequence of v[0..k-1] by
 * patience sorting (Fredman 1975), O(k log k).  Overwrites v with the pile
 * tops: pile lo <= i is written only after v[i] has been read.
 */
static int lis_length(int *v, int k)
{
    int len = 0;
    for (int i = 0; i < k; i++) {
        int x = v[i], lo = 0, hi = len;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (v[mid] < x)
                lo = mid + 1;
            else
                hi = mid;
        }
        v[lo] = x;
        if (lo == len)
            len++;
    }
    return len;
}

/* Inversions of v[0..k-1] (distinct values in [0, range)). */
static long inversions(const int *v, int k, int range)
{
    long inv = 0;
    if (k <= 64) {
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                inv += v[i] > v[j];
        return inv;
    }
    int fen[BOARD_MAX_SIDE + 1]; /* Fenwick tree of the values seen */
    memset(fen, 0, (size_t)(range + 1) * sizeof *fen);
    for (int i = 0; i < k; i++) {
        int below = 0;
        for (int x = v[i]; x > 0; x -= x & -x)
            below += fen[x];
        inv += i - below; /* seen values greater than v[i] */
        for (int x = v[i] + 1; x <= range; x += x & -x)
            fen[x]++;
    }
    return inv;
}

/*
 * The goal positions along line `line` of the tiles standing in it that
 * belong to it, in the order they stand: rows when by_row, else columns.
 */
static int line_tiles(const struct heuristic *h, const int *cells, int by_row,
                      int line, int *out)
{
    int k = 0;
    if (by_row) {
        const int *p = cells + (size_t)line * (size_t)h->cols;
        for (int c = 0; c < h->cols; c++)
            if (p[c] && h->goal_row[p[c]] == line)
                out[k++] = h->goal_col[p[c]];
    } else {
        for (int r = 0, i = line; r < h->rows; r++, i += h->cols)
            if (cells[i] && h->goal_col[cells[i]] == line)
                out[k++] = h->goal_row[cells[i]];
    }
    return k;
}

/* Sum over every row and column of (k - LIS) or of the inverted pairs. */
static long line_conflicts(const struct heuristic *h, const int *cells, int pairs)
{
    int buf[BOARD_MAX_SIDE];
    long s = 0;
    for (int by_row = 1; by_row >= 0; by_row--) {
        int nlines = by_row ? h->rows : h->cols, range = by_row ? h->cols : h->rows;
        for (int line = 0; line < nlines; line++) {
            int k = line_tiles(h, cells, by_row, line, buf);
            if (k < 2)
                continue;
            s += pairs ? inversions(buf, k, range) : k - lis_length(buf, k);
        }
    }
    return s;
}

/*
 * Boards with every line of at most LINE_TABLE_SIDE cells use tables.  A
 * line's content is coded in base W + 1 (W = cells in the line): the digit
 * of the cell at position p is 1 + the goal position of its tile when the
 * tile belongs to the line, else 0, weighted (W + 1)^p.  Because the digits
 * of distinct cells occupy distinct places, the code of a line is the sum
 * over its cells of a per-(tile, cell) contribution, and conflicts[code]
 * holds (k - LIS) or the inverted pairs of that content, computed once by
 * the functions above.  Evaluation is then one pass over the cells.
 */
#define LINE_TABLE_SIDE 6

struct heuristic_lines {
    uint32_t *row_code, *col_code;  /* [t * n + k]: tile t on cell k */
    int *dist;                      /* [t * n + k]: its Manhattan distance */
    uint8_t *row_conf, *col_conf;   /* by line code */
};

static uint32_t power(uint32_t b, int e)
{
    uint32_t p = 1;
    while (e-- > 0)
        p *= b;
    return p;
}

/* conflicts[code] for every code of a line of w cells. */
static uint8_t *conflict_table(int w, int pairs)
{
    uint32_t size = power((uint32_t)w + 1, w);
    uint8_t *tab = malloc(size);
    if (!tab)
        return NULL;
    for (uint32_t code = 0; code < size; code++) {
        int v[LINE_TABLE_SIDE], k = 0;
        for (uint32_t x = code; x; x /= (uint32_t)w + 1)
            if (x % ((uint32_t)w + 1))
                v[k++] = (int)(x % ((uint32_t)w + 1)) - 1;
        tab[code] = (uint8_t)(pairs ? inversions(v, k, w) : k - lis_length(v, k));
    }
    return tab;
}

static void lines_free(struct heuristic_lines *L)
{
    if (!L)
        return;
    free(L->row_code);
    free(L->col_code);
    free(L->dist);
    free(L->row_conf);
    free(L->col_conf);
    free(L);
}

static int prepare_lines(struct heuristic *h, int pairs, slide_error *err)
{
    int R = h->rows, C = h->cols, n = h->n;
    if (R > LINE_TABLE_SIDE || C > LINE_TABLE_SIDE)
        return SLIDE_OK; /* long lines: evaluated line by line */
    struct heuristic_lines *L = h->lines = calloc(1, sizeof *L);
    size_t cells = (size_t)n * (size_t)n;
    if (L) {
        L->row_code = calloc(cells, sizeof *L->row_code);
        L->col_code = calloc(cells, sizeof *L->col_code);
        L->dist = calloc(cells, sizeof *L->dist);
        L->row_conf = conflict_table(C, pairs);
        L->col_conf = conflict_table(R, pairs);
    }
    if (!L || !L->row_code || !L->col_code || !L->dist || !L->row_conf || !L->col_conf)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the %s tables",
                          h->def->name);
    for (int t = 1; t < n; t++)
        for (int k = 0; k < n; k++) {
            int r = k / C, c = k % C, gr = h->goal_row[t], gc = h->goal_col[t];
            size_t i = (size_t)t * (size_t)n + (size_t)k;
            L->dist[i] = abs(r - gr) + abs(c - gc);
            if (gr == r)
                L->row_code[i] = (uint32_t)(gc + 1) * power((uint32_t)C + 1, c);
            if (gc == c)
                L->col_code[i] = (uint32_t)(gr + 1) * power((uint32_t)R + 1, r);
        }
    return SLIDE_OK;
}

static int prepare_lc(struct heuristic *h, slide_error *err)
{
    return prepare_lines(h, 0, err);
}

static int prepare_lc_pairs(struct heuristic *h, slide_error *err)
{
    return prepare_lines(h, 1, err);
}

/* Manhattan + 2 * conflicts from the tables (lines of <= LINE_TABLE_SIDE). */
static int lines_by_table(const struct heuristic *h, const int *cells)
{
    const struct heuristic_lines *L = h->lines;
    uint32_t rc[LINE_TABLE_SIDE] = {0}, cc[LINE_TABLE_SIDE] = {0};
    int s = 0, n = h->n;
    for (int r = 0, k = 0; r < h->rows; r++)
        for (int c = 0; c < h->cols; c++, k++) {
            size_t i = (size_t)cells[k] * (size_t)n + (size_t)k;
            s += L->dist[i];
            rc[r] += L->row_code[i];
            cc[c] += L->col_code[i];
        }
    int conf = 0;
    for (int r = 0; r < h->rows; r++)
        conf += L->row_conf[rc[r]];
    for (int c = 0; c < h->cols; c++)
        conf += L->col_conf[cc[c]];
    return s + 2 * conf;
}

static int eval_lc(const struct heuristic *h, const int *cells)
{
    if (h->lines)
        return lines_by_table(h, cells);
    return manhattan(h, cells) + 2 * (int)line_conflicts(h, cells, 0);
}

static int eval_lc_pairs(const struct heuristic *h, const int *cells)
{
    if (h->lines)
        return lines_by_table(h, cells);
    return manhattan(h, cells) + 2 * (int)line_conflicts(h, cells, 1);
}

/* ---- the table ----------------------------------------------------------- */

static const struct heuristic_def table[] = {
    {"misplaced", eval_misplaced, NULL, HEURISTIC_YES, HEURISTIC_YES,
     "tiles not on their goal cell",
     "each misplaced tile moves at least once; a move changes h by at most 1"},
    {"manhattan", eval_manhattan, NULL, HEURISTIC_YES, HEURISTIC_YES,
     "sum of the tiles' grid distances to their goals",
     "a move moves one tile one cell: h changes by exactly 1"},
    {"lc", eval_lc, prepare_lc, HEURISTIC_YES, HEURISTIC_YES,
     "manhattan + 2 (k - LIS) per row and column",
     "Hansson, Mayer & Yung 1992; tiles leaving their goal line (seeds, fifteen puzzle)"},
    {"lc-pairs", eval_lc_pairs, prepare_lc_pairs, HEURISTIC_NO, HEURISTIC_UNKNOWN,
     "manhattan + 2 per inverted pair; NOT admissible",
     "the common variant; 3 reversed tiles count 6 but need only 4 extra moves"},
    {"wd", eval_wd, prepare_wd, HEURISTIC_YES, HEURISTIC_YES,
     "walking distance (Takahashi): rows + columns",
     "Takahashi (takaken, web page); each move is one move of one relaxed puzzle"},
};

#define TABLE_LEN ((int)(sizeof table / sizeof table[0]))

const struct heuristic_def *heuristic_table(int *count)
{
    *count = TABLE_LEN;
    return table;
}

const struct heuristic_def *heuristic_find(const char *name)
{
    for (int i = 0; i < TABLE_LEN; i++)
        if (strcmp(name, table[i].name) == 0)
            return &table[i];
    return NULL;
}

size_t heuristic_names(char *buf, size_t len)
{
    size_t need = 0;
    for (int i = 0; i < TABLE_LEN; i++) {
        int w = snprintf(need < len ? buf + need : NULL, need < len ? len - need : 0,
                         "%s%s", i ? ", " : "", table[i].name);
        need += (size_t)w;
    }
    if (len && need >= len)
        buf[len - 1] = '\0';
    return need;
}

static int eval_pdb(const struct heuristic *h, const int *cells)
{
    return pdb_set_h(h->pdb, cells);
}

/* The row's name: "pdb:" or "pdbr:" and the files' base names without
 * ".pdb" ("pdb:7-8.1+7-8.2"), so that it can name a --joint file. */
static char *pdb_label(const char *spec)
{
    char *out = malloc(strlen(spec) + 1), *o = out;
    if (!out)
        return NULL;
    const char *p = strchr(spec, ':') + 1;
    o += sprintf(o, "%.*s", (int)(p - spec), spec);
    while (*p) {
        size_t len = strcspn(p, "+");
        const char *base = p;
        for (const char *q = p; q < p + len; q++)
            if (*q == '/')
                base = q + 1;
        size_t blen = (size_t)(p + len - base);
        if (blen > 4 && strncmp(p + len - 4, ".pdb", 4) == 0)
            blen -= 4;
        o += sprintf(o, "%s%.*s", o[-1] == ':' ? "" : "+", (int)blen, base);
        p += len + (p[len] == '+');
    }
    return out;
}

/* "pdb:FILES" / "pdbr:FILES": load the set and make a row for it. */
static int init_pdb(struct heuristic *h, const char *name, const struct board *goal,
                    slide_error *err)
{
    int reflect = name[3] == 'r';
    struct board g = {0};
    h->pdb = calloc(1, sizeof *h->pdb);
    h->own_def = calloc(1, sizeof *h->own_def);
    char *label = pdb_label(name);
    if (!h->pdb || !h->own_def || !label) {
        free(label);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %s", name);
    }
    *h->own_def = (struct heuristic_def){label, eval_pdb, NULL, HEURISTIC_UNKNOWN,
                                         HEURISTIC_UNKNOWN, "pattern databases",
                                         "Culberson and Schaeffer 1998; Korf and Felner 2002"};
    int rc = pdb_set_load(h->pdb, name + (reflect ? 5 : 4), reflect, 0, err);
    if (!rc && h->metric == METRIC_MTM && pdb_set_metric(h->pdb) != METRIC_MTM)
        rc = slide_fail(err, SLIDE_EINVAL, "%s: the pattern databases are of kind %s, "
                        "which bounds single-tile moves; the multi-tile metric takes "
                        "tables of kind mtm", name, pdb_kind_name(h->pdb->tables[0].kind));
    if (!rc && (rc = pdb_set_goal(h->pdb, &g, err)) == SLIDE_OK && !board_equal(&g, goal))
        rc = slide_fail(err, SLIDE_EINVAL, "%s: the pattern databases were built for "
                        "another board or goal", name);
    board_free(&g);
    return rc;
}

int heuristic_init(struct heuristic *h, const char *name,
                   const struct board *goal, slide_error *err)
{
    return heuristic_init_metric(h, name, goal, METRIC_STM, err);
}

int heuristic_stm_only(const char *name)
{
    static const char *const stm_only[] = {"misplaced", "manhattan", "lc", "lc-pairs"};
    for (size_t i = 0; i < sizeof stm_only / sizeof stm_only[0]; i++)
        if (strcmp(name, stm_only[i]) == 0)
            return 1;
    return 0;
}

/* The claims of a row in the multi-tile metric (heuristic.h): a copy of
 * the row with them, owned by h. */
static int mtm_claims(struct heuristic *h, const struct heuristic_def *def,
                      slide_error *err)
{
    char *name = strdup(def->name);
    h->own_def = malloc(sizeof *h->own_def);
    if (!name || !h->own_def) {
        free(name);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %s", def->name);
    }
    *h->own_def = *def;
    h->own_def->name = name;
    if (heuristic_stm_only(def->name)) {
        h->own_def->admissible = HEURISTIC_NO;
        h->own_def->consistent = HEURISTIC_NO;
        h->own_def->reference = "one multi-tile move slides up to max(R,C)-1 tiles, each "
                                "of which the single-tile bound may count";
    } else if (strcmp(def->name, "wd") == 0) {
        h->own_def->summary = "multi-tile walking distance: rows + columns";
        h->own_def->reference = "heuristic.h: each MTM move is one move of one relaxed "
                                "puzzle whose moves are the MTM ones";
    }
    h->def = h->own_def;
    return SLIDE_OK;
}

int heuristic_init_metric(struct heuristic *h, const char *name, const struct board *goal,
                          enum metric metric, slide_error *err)
{
    memset(h, 0, sizeof *h);
    if (metric != METRIC_STM && metric != METRIC_MTM)
        return slide_fail(err, SLIDE_EINVAL, "unknown metric %d (stm or mtm)", (int)metric);
    h->metric = metric;
    if (strncmp(name, "plugin:", 7) == 0)
        return heuristic_init_plugin(h, name, goal, err);
    if (strncmp(name, "pdb:", 4) == 0 || strncmp(name, "pdbr:", 5) == 0) {
        int rc = init_pdb(h, name, goal, err);
        if (rc) {
            heuristic_free(h);
            return rc;
        }
        h->def = h->own_def;
        h->rows = goal->rows;
        h->cols = goal->cols;
        h->n = board_cells(goal);
        return SLIDE_OK;
    }
    const struct heuristic_def *def = heuristic_find(name);
    if (!def) {
        char names[256];
        heuristic_names(names, sizeof names);
        return slide_fail(err, SLIDE_EINVAL, "unknown heuristic \"%s\" (known: %s)",
                          name, names);
    }
    int rc = bind_goal(h, def, goal, err);
    if (rc)
        return rc;
    h->metric = metric;
    rc = def->prepare ? def->prepare(h, err) : SLIDE_OK;
    if (!rc && metric == METRIC_MTM)
        rc = mtm_claims(h, def, err);
    if (rc)
        heuristic_free(h);
    return rc;
}

void heuristic_free(struct heuristic *h)
{
    heuristic_spec_release(h);
    lines_free(h->lines);
    if (h->wd) {
        wd_table_free(&h->wd->own[0]);
        wd_table_free(&h->wd->own[1]);
        free(h->wd);
    }
    free(h->goal_row);
    free(h->goal_col);
    if (h->pdb) {
        pdb_set_free(h->pdb);
        free(h->pdb);
    }
    if (h->own_def) {
        free((char *)h->own_def->name);
        free(h->own_def);
    }
    memset(h, 0, sizeof *h);
}
