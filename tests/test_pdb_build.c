/*
 * test_pdb_build.c - pattern spaces and the pattern database build
 * (pattern.h, pdb_build.h) against a plain breadth-first search written
 * here: a hash map from pattern states (the tiles' cells and the blank's,
 * packed 5 bits each; not slide's ranking) to their distance, filled by a
 * 0-1 BFS with a double-ended queue (additive) or a FIFO (plain).
 */
#include "testutil.h"

#include "slide/pattern.h"
#include "slide/pdb_build.h"
#include "slide/pdb_file.h"

/* ---- the independent search --------------------------------------------- */

struct hmap {
    uint64_t *key; /* packed state + 1; 0 = empty */
    uint8_t *dist;
    uint64_t cap;
};

static uint64_t hslot(const struct hmap *h, uint64_t key)
{
    uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> 20;
    for (i &= h->cap - 1; h->key[i] && h->key[i] != key; i = (i + 1) & (h->cap - 1))
        ;
    return i;
}

/* Packed state: cells of the pattern tiles, then the blank's cell. */
static uint64_t pack(const int *cell, int k, int blank)
{
    uint64_t x = (uint64_t)blank;
    for (int i = 0; i < k; i++)
        x = x << 5 | (uint64_t)cell[i];
    return x + 1;
}

static void unpack(uint64_t key, int *cell, int k, int *blank)
{
    key--;
    for (int i = k - 1; i >= 0; i--, key >>= 5)
        cell[i] = (int)(key & 31);
    *blank = (int)key;
}

/*
 * 0-1 BFS over (tile cells, blank) from the goal state, the goal cells with
 * the blank on the goal's blank cell (the definition: the abstract goal is
 * the abstraction of the goal board); returns the map.  additive: pattern
 * moves cost 1, blank moves 0, so the goal blank's region comes out at
 * cost 0 by the search itself; plain: every move costs 1.
 * seed_anywhere: the seeding slide used before issue 31 (the goal cells with
 * the blank on every free cell), kept only to show that the checks reject it.
 */
static struct hmap reference_bfs_seeded(int rows, int cols, const int *goalcell, int k,
                                        int goalblank, int additive, int seed_anywhere)
{
    int n = rows * cols;
    struct hmap h;
    h.cap = 1;
    uint64_t states = 1;
    for (int i = 0; i <= k; i++)
        states *= (uint64_t)(n - i);
    while (h.cap < 2 * states)
        h.cap <<= 1;
    h.key = calloc(h.cap, sizeof *h.key);
    h.dist = calloc(h.cap, 1);
    uint64_t *dq = malloc(8 * (states + 1) * sizeof *dq);
    assert_non_null(h.key);
    assert_non_null(dq);
    uint64_t head = 4 * (states + 1), tail = head; /* deque in [head, tail) */
    for (int z = 0; z < n; z++) {
        int used = 0;
        for (int i = 0; i < k; i++)
            used |= goalcell[i] == z;
        if (used || (z != goalblank && !seed_anywhere))
            continue;
        uint64_t key = pack(goalcell, k, z), s = hslot(&h, key);
        h.key[s] = key;
        dq[tail++] = key;
    }
    while (head < tail) {
        uint64_t key = dq[head++];
        int cell[PATTERN_MAX_TILES], z;
        unpack(key, cell, k, &z);
        uint8_t d = h.dist[hslot(&h, key)];
        int zr = z / cols, zc = z % cols;
        const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
        for (int m = 0; m < 4; m++) {
            int r = zr + dr[m], c = zc + dc[m];
            if (r < 0 || r >= rows || c < 0 || c >= cols)
                continue;
            int to = r * cols + c, cost = !additive;
            int next[PATTERN_MAX_TILES];
            memcpy(next, cell, sizeof next);
            for (int i = 0; i < k; i++)
                if (cell[i] == to) {
                    next[i] = z;
                    cost = 1;
                }
            uint64_t nk = pack(next, k, to), s = hslot(&h, nk);
            if (h.key[s] && h.dist[s] <= d + cost)
                continue;
            h.key[s] = nk;
            h.dist[s] = (uint8_t)(d + cost);
            if (cost == 0)
                dq[--head] = nk;
            else
                dq[tail++] = nk;
        }
    }
    free(dq);
    return h;
}

static struct hmap reference_bfs(int rows, int cols, const int *goalcell, int k,
                                 int goalblank, int additive)
{
    return reference_bfs_seeded(rows, cols, goalcell, k, goalblank, additive, 0);
}

/* ---- comparing every entry ----------------------------------------------- */

static void check_pattern(int rows, int cols, const int *tiles, int k, int additive,
                          int threads)
{
    struct board goal;
    struct pattern pat;
    struct pdb_table t;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, tiles, k, &err), 0);
    struct pdb_build_options o = {threads, 0, NULL, NULL};
    assert_int_equal(pdb_build(&pat, additive ? PDB_ADDITIVE : PDB_PLAIN, &o, &t, &err), 0);
    int goalcell[PATTERN_MAX_TILES];
    for (int i = 0; i < k; i++)
        for (int c = 0; c < pat.n; c++)
            if (goal.cells[c] == tiles[i])
                goalcell[i] = c;
    struct hmap h = reference_bfs(rows, cols, goalcell, k, pat.goal_blank, additive);
    uint64_t checked = 0;
    for (uint64_t p = 0; p < pat.placements; p++) {
        uint8_t pos[PATTERN_MAX_TILES];
        int cell[PATTERN_MAX_TILES];
        rank_unkperm(p, k, pat.n, pos);
        for (int i = 0; i < k; i++)
            cell[i] = pos[i];
        uint32_t occ = pattern_occupied(&pat, pos);
        int best = PDB_NONE;
        for (int z = 0, f = 0; z < pat.n; z++) {
            if (occ & (1u << z))
                continue;
            uint64_t s = hslot(&h, pack(cell, k, z));
            int want = h.key[s] ? h.dist[s] : PDB_NONE;
            best = want < best ? want : best;
            if (!additive)
                assert_int_equal(t.value[p * (uint64_t)pat.nfree + (uint64_t)f], want);
            f++;
        }
        if (additive)
            assert_int_equal(t.value[p], best);
        checked++;
    }
    assert_true(checked == pat.placements);
    assert_true(t.hist[0] == 1);
    free(h.key);
    free(h.dist);
    pdb_table_free(&t);
    board_free(&goal);
}

static void test_additive_small(void **state)
{
    (void)state;
    const int a[] = {1, 2, 3}, b[] = {4, 5, 6, 7, 8}, c[] = {1, 5, 9}, d[] = {2, 6, 10, 11};
    check_pattern(3, 3, a, 3, 1, 1);
    check_pattern(3, 3, b, 5, 1, 2);
    check_pattern(2, 5, a, 3, 1, 2);
    check_pattern(3, 4, c, 3, 1, 2);
    check_pattern(3, 4, d, 4, 1, 1);
    /* every tile: the placement fixes the blank, half the placements are unreachable */
    const int all[] = {1, 2, 3, 4, 5, 6, 7, 8};
    check_pattern(3, 3, all, 8, 1, 2);
    /* 5x5 (the 24-puzzle's tables): a corner piece of the 6-6-6-6 set */
    check_pattern(5, 5, (const int[]){13, 18, 19}, 3, 1, 2);
}

static void test_plain_small(void **state)
{
    (void)state;
    const int a[] = {1, 2, 3}, b[] = {7, 8}, c[] = {1, 5, 9, 11};
    check_pattern(3, 3, a, 3, 0, 1);
    check_pattern(3, 3, b, 2, 0, 2);
    check_pattern(2, 6, c, 4, 0, 2);
    check_pattern(2, 2, (const int[]){1, 2}, 2, 0, 1);
    check_pattern(5, 5, (const int[]){1, 7}, 2, 0, 2);
}

/* The additive values (least over the blank's cells) the map h gives to
 * every placement of pat, into value[0..placements-1]. */
static void additive_values(const struct pattern *pat, const struct hmap *h, uint8_t *value)
{
    for (uint64_t p = 0; p < pat->placements; p++) {
        uint8_t pos[PATTERN_MAX_TILES];
        int cell[PATTERN_MAX_TILES];
        rank_unkperm(p, pat->k, pat->n, pos);
        for (int i = 0; i < pat->k; i++)
            cell[i] = pos[i];
        uint32_t occ = pattern_occupied(pat, pos);
        int best = PDB_NONE;
        for (int z = 0; z < pat->n; z++) {
            uint64_t s = hslot(h, pack(cell, pat->k, z));
            if (!(occ & (1u << z)) && h->key[s] && h->dist[s] < best)
                best = h->dist[s];
        }
        value[p] = (uint8_t)best;
    }
}

/*
 * The seeding of issue 31: a table seeded with the goal placement and the
 * blank on any free cell is admissible but too low where the pattern walls
 * the goal's blank in.  For 3x3 tiles 5-8 (standard goal) 1,164 of the
 * 3,024 entries differ (the figure of the independent check, its
 * own 0-1 BFS); every one is lower (value 1: 6 placements instead of 2);
 * slide's build equals the definition's
 * table, and pdb_verify rejects the old one (so the checks can fail).
 */
static void test_goal_region_seed(void **state)
{
    (void)state;
    struct board goal;
    struct pattern pat;
    struct pdb_table t, old;
    slide_error err;
    const int tiles[] = {5, 6, 7, 8};
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, tiles, 4, &err), 0);
    int goalcell[4] = {4, 5, 6, 7};
    struct hmap right = reference_bfs_seeded(3, 3, goalcell, 4, pat.goal_blank, 1, 0);
    struct hmap wrong = reference_bfs_seeded(3, 3, goalcell, 4, pat.goal_blank, 1, 1);
    uint8_t *want = malloc(pat.placements), *low = malloc(pat.placements);
    assert_non_null(want);
    assert_non_null(low);
    additive_values(&pat, &right, want);
    additive_values(&pat, &wrong, low);
    uint64_t differ = 0, ones_low = 0, ones = 0;
    for (uint64_t p = 0; p < pat.placements; p++) {
        assert_true(low[p] <= want[p]);
        differ += low[p] != want[p];
        ones_low += low[p] == 1;
        ones += want[p] == 1;
    }
    assert_int_equal(pat.placements, 3024);
    assert_int_equal(differ, 1164);
    assert_int_equal(ones_low, 6); /* the old seeding: 6 placements one move away */
    assert_int_equal(ones, 2);     /* the definition: 2 (tile 6 or 8 moved into the goal's blank cell) */
    struct pdb_build_options o = {2, 0, NULL, NULL};
    assert_int_equal(pdb_build(&pat, PDB_ADDITIVE, &o, &t, &err), 0);
    assert_memory_equal(t.value, want, pat.placements);
    struct pdb_verify_report rep;
    assert_int_equal(pdb_verify(&t, 0, &rep, &err), SLIDE_OK);
    old = t;
    old.value = low;
    pdb_table_count(&old);
    assert_int_equal(pdb_verify(&old, 0, &rep, &err), SLIDE_EFORMAT);
    assert_non_null(strstr(err.msg, "the search gives"));
    pdb_table_free(&t);
    free(want);
    free(low);
    free(right.key);
    free(right.dist);
    free(wrong.key);
    free(wrong.dist);
    board_free(&goal);
}

/* Identical tables for 1, 2 and 3 threads (consistency test). */
static void test_consistency_threads(void **state)
{
    (void)state;
    struct board goal;
    struct pattern pat;
    slide_error err;
    const int tiles[] = {3, 4, 7, 8, 11};
    assert_int_equal(board_goal(&goal, 3, 4, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, tiles, 5, &err), 0);
    for (int kind = 0; kind < 2; kind++) {
        struct pdb_table t1, tn;
        struct pdb_build_options o1 = {1, 0, NULL, NULL};
        assert_int_equal(pdb_build(&pat, kind, &o1, &t1, &err), 0);
        for (int th = 2; th <= 3; th++) {
            struct pdb_build_options on = {th, 0, NULL, NULL};
            assert_int_equal(pdb_build(&pat, kind, &on, &tn, &err), 0);
            assert_memory_equal(t1.value, tn.value, t1.entries);
            pdb_table_free(&tn);
        }
        pdb_table_free(&t1);
    }
    board_free(&goal);
}

static void test_bad_patterns(void **state)
{
    (void)state;
    struct board goal;
    struct pattern pat;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, (const int[]){1, 1}, 2, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "twice"));
    assert_int_equal(pattern_init(&pat, &goal, (const int[]){9}, 1, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "1..8"));
    assert_int_equal(pattern_init(&pat, &goal, (const int[]){1}, 0, &err), SLIDE_EINVAL);
    board_free(&goal);
    assert_int_equal(board_goal(&goal, 1, 5, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, (const int[]){1}, 1, &err), SLIDE_EINVAL);
    board_free(&goal);
    int tiles[40], k;
    assert_int_equal(pattern_parse_tiles("1-3,7", tiles, 40, &k, &err), 0);
    assert_int_equal(k, 4);
    assert_int_equal(tiles[3], 7);
    assert_int_equal(pattern_parse_tiles("1,,2", tiles, 40, &k, &err), SLIDE_EINVAL);
    assert_int_equal(pattern_parse_tiles("3-1", tiles, 40, &k, &err), SLIDE_EINVAL);
    assert_int_equal(pattern_parse_tiles("", tiles, 40, &k, &err), SLIDE_EINVAL);
}

/*
 * pattern_move_delta against ranking anew (rank_kperm): every move of every
 * tile into a free neighbour, for every placement of 4 tiles on 3x4 and 3
 * on 5x5, and every 997th placement of 8 tiles on 4x4.
 */
static void check_move_delta(int rows, int cols, int k, uint64_t step)
{
    struct board goal;
    struct pattern pat;
    slide_error err;
    int tiles[PATTERN_MAX_TILES];
    for (int i = 0; i < k; i++)
        tiles[i] = i + 1;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, tiles, k, &err), 0);
    uint64_t moves = 0;
    for (uint64_t p = 0; p < pat.placements; p += step) {
        uint8_t pos[PATTERN_MAX_TILES];
        int8_t at[PATTERN_MAX_CELLS];
        uint32_t occ = 0, before;
        rank_unkperm(p, k, pat.n, pos);
        memset(at, -1, sizeof at);
        for (int i = 0; i < k; i++) {
            at[pos[i]] = (int8_t)i;
            occ |= 1u << pos[i];
        }
        before = 0;
        for (int i = 0; i < k; i++) {
            int c = pos[i];
            for (uint32_t nb = pat.nbr[c] & ~occ; nb; nb &= nb - 1) {
                int z = __builtin_ctz(nb);
                int64_t delta = pattern_move_delta(&pat, at, occ, before, i, c, z);
                pos[i] = (uint8_t)z;
                assert_int_equal(p + (uint64_t)delta, rank_kperm(pos, k, pat.n));
                pos[i] = (uint8_t)c;
                moves++;
            }
            before |= 1u << c;
        }
    }
    assert_true(moves > 0);
    board_free(&goal);
}

static void test_move_delta(void **state)
{
    (void)state;
    check_move_delta(3, 4, 4, 1);
    check_move_delta(5, 5, 3, 1);
    check_move_delta(4, 4, 8, 997);
}

/*
 * pattern_region (mask shifts) against a flood fill by row and column
 * arithmetic, and pattern_free_entries and its inverse
 * pattern_entries_cells (pext/pdep where the CPU has BMI2) against
 * counting the free cells below each cell: random free masks and
 * seeds on 3x3, 2x5, 4x4, 5x5 and 5x6 (a 30-cell board: bits 30 and 31 of
 * the shifts must be cut).
 */
static void test_region_masks(void **state)
{
    (void)state;
    static const int shapes[][2] = {{3, 3}, {2, 5}, {5, 2}, {4, 4}, {5, 5}, {5, 6}, {6, 5}};
    uint64_t seed = 77;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        int rows = shapes[si][0], cols = shapes[si][1], n = rows * cols;
        struct board goal;
        struct pattern pat;
        slide_error err;
        assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
        assert_int_equal(pattern_init(&pat, &goal, (const int[]){1}, 1, &err), 0);
        for (int trial = 0; trial < 4000; trial++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t free = (uint32_t)(seed >> 20) & ((1u << n) - 1u);
            if (!free)
                continue;
            int start = (int)((seed >> 8) % (uint64_t)n);
            while (!(free & (1u << start)))
                start = (start + 1) % n;
            /* naive flood fill */
            uint32_t want = 1u << start;
            for (int changed = 1; changed;) {
                changed = 0;
                for (int c = 0; c < n; c++) {
                    if (!(want & (1u << c)))
                        continue;
                    int r = c / cols, k = c % cols;
                    int nb[4] = {r > 0 ? c - cols : -1, r < rows - 1 ? c + cols : -1,
                                 k > 0 ? c - 1 : -1, k < cols - 1 ? c + 1 : -1};
                    for (int m = 0; m < 4; m++)
                        if (nb[m] >= 0 && (free & (1u << nb[m])) && !(want & (1u << nb[m]))) {
                            want |= 1u << nb[m];
                            changed = 1;
                        }
                }
            }
            uint32_t got = pattern_region(&pat, 1u << start, free);
            assert_int_equal(got, want);
            uint32_t occ = ~free & ((1u << n) - 1u);
            uint64_t bits = 0;
            for (int c = 0, j = 0; c < n; c++)
                if (free & (1u << c)) {
                    if (want & (1u << c))
                        bits |= 1ULL << (2 * j);
                    j++;
                }
            assert_true(pattern_free_entries(occ, want) == bits);
            assert_int_equal(pattern_entries_cells(&pat, occ, bits), want);
        }
        board_free(&goal);
    }
}

/* The memory guard refuses a build above the limit before allocating. */
static void test_memory_guard(void **state)
{
    (void)state;
    struct board goal;
    struct pattern pat;
    struct pdb_table t;
    slide_error err;
    assert_int_equal(board_goal(&goal, 4, 4, &err), 0);
    assert_int_equal(pattern_init(&pat, &goal, (const int[]){1, 2, 3, 4, 5, 6, 7, 8}, 8,
                                  &err), 0);
    struct pdb_build_options o = {1, 1000000, NULL, NULL};
    assert_int_equal(pdb_build(&pat, PDB_ADDITIVE, &o, &t, &err), SLIDE_ENOMEM);
    assert_non_null(strstr(err.msg, "additive pattern database of 8 tiles"));
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_patterns), cmocka_unit_test(test_additive_small),
        cmocka_unit_test(test_plain_small), cmocka_unit_test(test_consistency_threads),
        cmocka_unit_test(test_memory_guard), cmocka_unit_test(test_move_delta),
        cmocka_unit_test(test_goal_region_seed), cmocka_unit_test(test_region_masks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
