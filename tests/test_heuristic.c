/*
 * test_heuristic.c - every heuristic of heuristic.h against an independent
 * reimplementation written here (brute force over subsets or pairs, a 0-1
 * BFS over boards of tile classes for walking distance), and the
 * admissible ones against exact distances from the naive BFS of testutil.h.
 */
#include "testutil.h"

#include "slide/heuristic.h"

#include "refheur.h"

/* ---- helpers -------------------------------------------------------------- */

static uint64_t rng_state = 0x853c49e6748fea9bULL;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int rng_below(int n) { return (int)(rng() % (uint64_t)n); }

static void shuffle(int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(i + 1), x = v[i];
        v[i] = v[j];
        v[j] = x;
    }
}

static struct board parse(const char *text)
{
    struct board b;
    slide_error err;
    if (board_parse(text, 0, 0, &b, &err))
        fail_msg("%s: %s", text, err.msg);
    return b;
}

static void init(struct heuristic *h, const char *name, const struct board *goal)
{
    slide_error err;
    if (heuristic_init(h, name, goal, &err))
        fail_msg("%s on %dx%d: %s", name, goal->rows, goal->cols, err.msg);
}

/*
 * Walking distance, reference: a board of tile classes (the goal row of
 * each tile + 1, or its goal column + 1; blank 0), where moves along the
 * class direction's lines are free and moves across them cost 1.  A 0-1
 * BFS from the goal's class board gives every class board its distance:
 * with free moves the blank reaches every cell of its line, so any class in
 * a neighbouring line can cross - exactly the relaxed puzzle of wd.
 */
struct wd_ref {
    int rows, cols, by_row;
    struct naive_set set;
};

static naive_key class_key(const struct board *goal, const int *cells, int by_row)
{
    int n = board_cells(goal), cls[16];
    for (int k = 0; k < n; k++) {
        int g = cells[k] ? goal_cell(goal, cells[k]) : -1;
        cls[k] = g < 0 ? 0 : 1 + (by_row ? g / goal->cols : g % goal->cols);
    }
    return naive_pack(cls, n);
}

/* Lower the distance of k to d (inserting it); returns 1 if it changed. */
static int relax(struct naive_set *s, naive_key k, int d)
{
    size_t i = naive_hash(k, s->cap);
    while (s->keys[i] && s->keys[i] != k)
        i = (i + 1) & (s->cap - 1);
    if (s->keys[i] && s->dist[i] <= d)
        return 0;
    if (!s->keys[i])
        s->len++;
    s->keys[i] = k;
    s->dist[i] = (uint8_t)d;
    return 1;
}

static void wd_ref_build(struct wd_ref *w, const struct board *goal, int by_row)
{
    int R = goal->rows, C = goal->cols, n = R * C;
    w->rows = R;
    w->cols = C;
    w->by_row = by_row;
    w->set.cap = 1 << 22;
    w->set.keys = calloc(w->set.cap, sizeof *w->set.keys);
    w->set.dist = calloc(w->set.cap, 1);
    size_t qcap = (size_t)1 << 22, head = 0, tail = 0; /* circular deque */
    naive_key *q = malloc(qcap * sizeof *q);
    naive_key start = class_key(goal, goal->cells, by_row);
    relax(&w->set, start, 0);
    q[tail++] = start;
    while (head != tail) {
        naive_key k = q[head];
        head = (head + 1) & (qcap - 1);
        int d = naive_lookup(&w->set, k), z = 0;
        while (naive_cell(k, z))
            z++;
        int r = z / C, c = z % C;
        int to[4] = {r > 0 ? z - C : -1, r < R - 1 ? z + C : -1, c > 0 ? z - 1 : -1,
                     c < C - 1 ? z + 1 : -1};
        for (int i = 0; i < 4; i++) {
            if (to[i] < 0)
                continue;
            int vertical = i < 2, cost = by_row ? vertical : !vertical;
            naive_key tile = (k >> (4 * to[i])) & 15;
            naive_key next = (k & ~((naive_key)15 << (4 * to[i]))) | (tile << (4 * z));
            if (!relax(&w->set, next, d + cost))
                continue;
            if (cost) {
                q[tail] = next;
                tail = (tail + 1) & (qcap - 1);
            } else {
                head = (head - 1) & (qcap - 1);
                q[head] = next;
            }
            assert_true(head != tail);
        }
    }
    free(q);
    (void)n;
}

static int ref_wd(const struct wd_ref *v, const struct wd_ref *h,
                  const struct board *goal, const int *cells)
{
    int a = naive_lookup(&v->set, class_key(goal, cells, 1));
    int b = naive_lookup(&h->set, class_key(goal, cells, 0));
    assert_true(a >= 0 && b >= 0);
    return a + b;
}

/* A board reachable from goal: `walk` random moves of the blank. */
static void random_walk(const struct board *goal, int walk, int *cells)
{
    int n = board_cells(goal), z = board_blank(goal);
    memcpy(cells, goal->cells, (size_t)n * sizeof *cells);
    struct board b = {goal->rows, goal->cols, cells};
    for (int i = 0; i < walk;)
        i += board_move(&b, &z, (enum move)rng_below(4)) == 0;
}

/* A random board with the parity of the goal (solvable when R, C >= 2). */
static void random_solvable(const struct board *goal, int *cells)
{
    random_walk(goal, 400, cells);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_table(void **state)
{
    (void)state;
    int count;
    const struct heuristic_def *t = heuristic_table(&count);
    assert_int_equal(count, 5);
    const char *want[] = {"misplaced", "manhattan", "lc", "lc-pairs", "wd"};
    for (int i = 0; i < count; i++) {
        assert_string_equal(t[i].name, want[i]);
        assert_ptr_equal(heuristic_find(want[i]), &t[i]);
        assert_non_null(t[i].reference);
    }
    assert_null(heuristic_find("pdb"));
    assert_int_equal(heuristic_find("lc-pairs")->admissible, HEURISTIC_NO);
    char names[128];
    heuristic_names(names, sizeof names);
    assert_string_equal(names, "misplaced, manhattan, lc, lc-pairs, wd");
    struct heuristic h;
    struct board goal = parse("1 2 3/4 5 6/7 8 0");
    slide_error err = {{0}};
    assert_int_equal(heuristic_init(&h, "nope", &goal, &err), SLIDE_EINVAL);
    assert_non_null(strstr(err.msg, "unknown heuristic \"nope\" (known: misplaced"));
    assert_null(h.def);
    board_free(&goal);
}

/* Hand-worked values. */
static void test_hand_values(void **state)
{
    (void)state;
    struct board goal = parse("1 2 3/4 5 6/7 8 0");
    struct board b = parse("3 2 1/4 5 6/7 8 0");
    struct heuristic h;
    static const struct {
        const char *name;
        int value;
    } cases[] = {{"misplaced", 2}, {"manhattan", 4}, {"lc", 8}, {"lc-pairs", 10}};
    /* 3 2 1 in row 0: LIS 1, so lc adds 2 * (3 - 1); three inverted pairs add 6 */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        init(&h, cases[i].name, &goal);
        assert_int_equal(heuristic_eval(&h, b.cells), cases[i].value);
        assert_int_equal(heuristic_eval(&h, goal.cells), 0);
        heuristic_free(&h);
    }
    board_free(&b);
    board_free(&goal);
}

/* Compare name with its reference on random boards of one size and goal. */
static void compare_random(const char *name, const struct board *goal, int trials,
                           int walk)
{
    struct heuristic h;
    int n = board_cells(goal);
    int *cells = malloc((size_t)n * sizeof *cells);
    init(&h, name, goal);
    for (int i = 0; i < trials; i++) {
        if (walk)
            random_walk(goal, walk, cells);
        else {
            memcpy(cells, goal->cells, (size_t)n * sizeof *cells);
            shuffle(cells, n); /* any arrangement: unreachable ones too */
        }
        long want = !strcmp(name, "misplaced")   ? ref_misplaced(goal, cells)
                    : !strcmp(name, "manhattan") ? ref_manhattan(goal, cells)
                                                 : ref_lc(goal, cells, !strcmp(name, "lc-pairs"));
        long got = heuristic_eval(&h, cells);
        if (got != want)
            fail_msg("%s on %dx%d trial %d: %ld, reference %ld", name, goal->rows,
                     goal->cols, i, got, want);
    }
    heuristic_free(&h);
    free(cells);
}

static void test_against_reference_small(void **state)
{
    (void)state;
    static const char *dims[] = {"3x3", "2x5", "3x4", "4x4", "1x6", "5x2", "6x6", "7x3"};
    static const char *names[] = {"misplaced", "manhattan", "lc", "lc-pairs"};
    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
        int r, c;
        slide_error err;
        assert_int_equal(board_parse_dims(dims[d], &r, &c, &err), 0);
        struct board goal;
        assert_int_equal(board_goal(&goal, r, c, &err), 0);
        for (size_t i = 0; i < 4; i++) {
            compare_random(names[i], &goal, 3000, 0);
            compare_random(names[i], &goal, 3000, 12); /* many tiles in goal lines */
        }
        /* a goal with the blank inside and shuffled labels */
        shuffle(goal.cells, r * c);
        for (size_t i = 0; i < 4; i++) {
            compare_random(names[i], &goal, 2000, 0);
            compare_random(names[i], &goal, 2000, 20);
        }
        board_free(&goal);
    }
}

/* Long lines: the line-by-line path (patience sorting, Fenwick inversions). */
static void test_against_reference_long_lines(void **state)
{
    (void)state;
    slide_error err;
    struct board goal;
    assert_int_equal(board_goal(&goal, 150, 200, &err), 0);
    int n = 150 * 200;
    int *cells = malloc((size_t)n * sizeof *cells);
    for (int trial = 0; trial < 2; trial++) {
        /* shuffle inside rows (all tiles in their goal row), then swap some
         * columns' cells so columns get tiles of their own too */
        memcpy(cells, goal.cells, (size_t)n * sizeof *cells);
        for (int r = 0; r < 150; r++)
            shuffle(cells + r * 200, trial ? 200 : 100);
        for (int i = 0; i < 2000; i++) {
            int a = rng_below(n), b = (a + 200 * (1 + rng_below(10))) % n, x = cells[a];
            cells[a] = cells[b];
            cells[b] = x;
        }
        struct heuristic h;
        init(&h, "lc", &goal);
        assert_int_equal(heuristic_eval(&h, cells), ref_lc(&goal, cells, 0));
        heuristic_free(&h);
        init(&h, "lc-pairs", &goal);
        assert_int_equal(heuristic_eval(&h, cells), ref_lc(&goal, cells, 1));
        heuristic_free(&h);
    }
    free(cells);
    board_free(&goal);
}

/* 1000 x 1000: zero at the goal, bounded by the length of a random walk
 * (and of its parity for manhattan and lc); wd refuses with a reason. */
static void test_huge_board(void **state)
{
    (void)state;
    slide_error err;
    struct board goal;
    assert_int_equal(board_goal(&goal, 1000, 1000, &err), 0);
    int *cells = malloc(1000000 * sizeof *cells);
    random_walk(&goal, 5000, cells);
    static const char *names[] = {"misplaced", "manhattan", "lc", "lc-pairs"};
    for (int i = 0; i < 4; i++) {
        struct heuristic h;
        init(&h, names[i], &goal);
        assert_int_equal(heuristic_eval(&h, goal.cells), 0);
        int v = heuristic_eval(&h, cells);
        assert_true(v >= 0);
        if (i < 3)
            assert_true(v <= 5000);
        if (i == 1 || i == 2)
            assert_int_equal(v % 2, 0); /* the walk has even length */
        heuristic_free(&h);
    }
    struct heuristic w;
    assert_int_equal(heuristic_init(&w, "wd", &goal, &err), SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "wd: the vertical (row) state of a 1000x1000 board"));
    struct board g45;
    assert_int_equal(board_goal(&g45, 4, 5, &err), 0);
    assert_int_equal(heuristic_init(&w, "wd", &g45, &err), SLIDE_ERANGE);
    assert_non_null(strstr(err.msg, "horizontal (column) table of a 4x5 board has more than"));
    assert_null(w.wd);
    board_free(&g45);
    free(cells);
    board_free(&goal);
}

static void test_manhattan_delta(void **state)
{
    (void)state;
    struct board goal = parse("1 2 3 4/5 6 7 8/9 10 11 0");
    struct heuristic h;
    init(&h, "manhattan", &goal);
    int cells[12];
    for (int i = 0; i < 2000; i++) {
        random_solvable(&goal, cells);
        int z = 0;
        while (cells[z])
            z++;
        int to = board_step(3, 4, z, (enum move)rng_below(4));
        if (to < 0)
            continue;
        int before = heuristic_eval(&h, cells), tile = cells[to];
        cells[z] = tile;
        cells[to] = 0;
        assert_int_equal(heuristic_eval(&h, cells) - before,
                         heuristic_manhattan_delta(&h, tile, to, z));
    }
    heuristic_free(&h);
    board_free(&goal);
}

/* h (wd bound to goal) against the reference on `trials` random boards. */
static void check_wd_bound(const struct board *goal, const struct heuristic *h, int trials)
{
    struct wd_ref v, hz;
    int cells[16];
    wd_ref_build(&v, goal, 1);
    wd_ref_build(&hz, goal, 0);
    for (int i = 0; i < trials; i++) {
        random_solvable(goal, cells);
        int got = heuristic_eval(h, cells), want = ref_wd(&v, &hz, goal, cells);
        if (got != want)
            fail_msg("wd on %dx%d: %d, reference %d", goal->rows, goal->cols, got, want);
    }
    naive_free(&v.set);
    naive_free(&hz.set);
}

static void check_wd(const struct board *goal, int trials)
{
    struct heuristic h;
    init(&h, "wd", goal);
    check_wd_bound(goal, &h, trials);
    heuristic_free(&h);
}

/*
 * Issue 39, item 5: wd with tables from a store shared between goals
 * (slide serve's).  Bound to goals of one size whose blanks share a row
 * (or a column), the store's tables serve them all; every value is the
 * reference's.  A store kept at 0 bytes builds each heuristic its own
 * tables, with the same values; a build whose cancel flag is up stops
 * with SLIDE_EINTR and keeps nothing.
 */
static void test_wd_shared(void **state)
{
    (void)state;
    static const char *goals[] = {"1 2 3 4/5 6 7 8/9 10 11 0", "11 10 9 8/7 6 5 4/3 2 1 0",
                                  "1 2 3 4/5 6 7 8/9 10 0 11", "1 2 3/4 5 6/7 8 9/10 11 0",
                                  "0 1 2/3 4 5/6 7 8/9 10 11"};
    struct heuristic_wd_store *s, *none;
    slide_error err;
    assert_int_equal(heuristic_wd_store_new(&s, (size_t)1 << 30, &err), SLIDE_OK);
    assert_int_equal(heuristic_wd_store_new(&none, 0, &err), SLIDE_OK);
    size_t bytes[5];
    for (int i = 0; i < 5; i++) {
        struct board goal = parse(goals[i]);
        struct heuristic h, own;
        assert_int_equal(heuristic_init_wd_shared(&h, &goal, s, NULL, &err), SLIDE_OK);
        assert_int_equal(heuristic_init_wd_shared(&own, &goal, none, NULL, &err), SLIDE_OK);
        check_wd_bound(&goal, &h, 1000);
        check_wd_bound(&goal, &own, 1000);
        bytes[i] = heuristic_wd_store_bytes(s);
        heuristic_free(&h);
        heuristic_free(&own);
        board_free(&goal);
    }
    /* 3x4, blank bottom right: two tables; the reversed goal shares both;
     * the blank one to the left shares the row table and adds a column
     * table; 4x3 with the blank bottom right shares both (its rows are the
     * 3x4's columns and vice versa); the blank top left adds two */
    assert_true(bytes[0] > 0);
    assert_true(bytes[1] == bytes[0]);
    assert_true(bytes[2] > bytes[1]);
    assert_true(bytes[3] == bytes[2]);
    assert_true(bytes[4] > bytes[3]);
    assert_int_equal(heuristic_wd_store_bytes(none), 0);
    struct board goal = parse("1 2/3 4/5 6/7 8/9 10/11 0");
    struct heuristic h;
    volatile sig_atomic_t up = 1;
    assert_int_equal(heuristic_init_wd_shared(&h, &goal, none, &up, &err), SLIDE_EINTR);
    assert_null(h.wd);
    struct heuristic_wd_store *fresh;
    assert_int_equal(heuristic_wd_store_new(&fresh, (size_t)1 << 30, &err), SLIDE_OK);
    assert_int_equal(heuristic_init_wd_shared(&h, &goal, fresh, &up, &err), SLIDE_EINTR);
    assert_int_equal(heuristic_wd_store_bytes(fresh), 0);
    board_free(&goal);
    heuristic_wd_store_free(fresh);
    heuristic_wd_store_free(none);
    heuristic_wd_store_free(s);
}

static void test_wd_reference(void **state)
{
    (void)state;
    static const char *goals[] = {
        "1 2 3/4 5 6/7 8 0", "1 2 3/4 0 5/6 7 8", "8 7 6/5 4 3/2 1 0",
        "1 2 3 4 5/6 7 8 9 0", "0 1 2 3 4/5 6 7 8 9", "1 2 3 4/5 6 7 8/9 10 11 0",
        "1 2 3/4 5 6/7 8 9/10 11 0", "3 1 2 4/0 5 6 7/8 9 10 11", "1 2/3 0"};
    for (size_t i = 0; i < sizeof goals / sizeof goals[0]; i++) {
        struct board goal = parse(goals[i]);
        check_wd(&goal, 3000);
        board_free(&goal);
    }
}

/*
 * Count the states of the relaxed puzzle directly: matrices cnt[i][j] >= 0
 * with column j summing to the size of class j (width, or width - 1 for
 * the blank's class) and row i to width, except one row (the blank's) to
 * width - 1.  fill() counts the completions of rows i.. from entry (i, j).
 */
static uint64_t fill(int lines, int i, int j, int *left, int *need)
{
    if (i == lines)
        return 1; /* rows exact and totals equal: every column is exact too */
    if (j == lines - 1) {
        int v = left[i];
        if (v > need[j])
            return 0;
        need[j] -= v;
        left[i] = 0;
        uint64_t w = fill(lines, i + 1, 0, left, need);
        left[i] = v;
        need[j] += v;
        return w;
    }
    uint64_t w = 0;
    for (int v = 0; v <= left[i] && v <= need[j]; v++) {
        left[i] -= v;
        need[j] -= v;
        w += fill(lines, i, j + 1, left, need);
        left[i] += v;
        need[j] += v;
    }
    return w;
}

static uint64_t count_matrices(int lines, int width, int blank_class)
{
    uint64_t total = 0;
    for (int b = 0; b < lines; b++) {
        int left[8], need[8];
        for (int i = 0; i < lines; i++) {
            left[i] = width - (i == b);
            need[i] = width - (i == blank_class);
        }
        total += fill(lines, 0, 0, left, need);
    }
    return total;
}

static void test_wd_state_counts(void **state)
{
    (void)state;
    static const char *dims[] = {"3x3", "2x5", "3x4", "4x4", "2x6", "3x5"};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        int r, c;
        slide_error err;
        assert_int_equal(board_parse_dims(dims[i], &r, &c, &err), 0);
        struct board goal;
        assert_int_equal(board_goal(&goal, r, c, &err), 0);
        struct heuristic h;
        init(&h, "wd", &goal);
        uint64_t sv, sh;
        heuristic_wd_states(&h, &sv, &sh);
        assert_int_equal(sv, count_matrices(r, c, r - 1));
        assert_int_equal(sh, count_matrices(c, r, c - 1));
        heuristic_free(&h);
        board_free(&goal);
    }
}

/*
 * Every board of 3x3 and 2x5 (exact distances by the naive BFS):
 * misplaced, manhattan, lc and wd never exceed d; misplaced and manhattan
 * (and, as proved in heuristic.h's notes, lc and wd) change by at most 1
 * per move; manhattan and lc keep the parity of d.
 */
static void exhaustive(int rows, int cols)
{
    static const char *names[] = {"misplaced", "manhattan", "lc", "wd"};
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, rows, cols, &err), 0);
    int n = rows * cols;
    uint64_t hist[64];
    struct naive_set set;
    naive_bfs(rows, cols, goal.cells, hist, 64, &set);
    struct heuristic hs[4];
    for (int i = 0; i < 4; i++)
        init(&hs[i], names[i], &goal);
    uint64_t boards = 0;
    for (size_t s = 0; s < set.cap; s++) {
        if (!set.keys[s])
            continue;
        int cells[16], z = 0;
        for (int k = 0; k < n; k++)
            cells[k] = naive_cell(set.keys[s], k);
        while (cells[z])
            z++;
        int d = set.dist[s];
        boards++;
        for (int i = 0; i < 4; i++) {
            int v = heuristic_eval(&hs[i], cells);
            if (v > d)
                fail_msg("%s is %d > %d on a %dx%d board", names[i], v, d, rows, cols);
            if (i == 1 || i == 2)
                assert_int_equal((d - v) & 1, 0);
            for (int m = 0; m < 4; m++) {
                int to = board_step(rows, cols, z, (enum move)m);
                if (to < 0)
                    continue;
                cells[z] = cells[to];
                cells[to] = 0;
                int w = heuristic_eval(&hs[i], cells);
                cells[to] = cells[z];
                cells[z] = 0;
                if (abs(w - v) > 1)
                    fail_msg("%s changes by %d in one move", names[i], w - v);
            }
        }
    }
    uint64_t half = 1;
    for (int k = 3; k <= n; k++)
        half *= (uint64_t)k;
    assert_int_equal(boards, half); /* n!/2 */
    for (int i = 0; i < 4; i++)
        heuristic_free(&hs[i]);
    naive_free(&set);
    board_free(&goal);
}

static void test_admissible_3x3(void **state)
{
    (void)state;
    exhaustive(3, 3);
}

static void test_admissible_2x5(void **state)
{
    (void)state;
    exhaustive(2, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_hand_values),
        cmocka_unit_test(test_against_reference_small),
        cmocka_unit_test(test_against_reference_long_lines),
        cmocka_unit_test(test_huge_board),
        cmocka_unit_test(test_manhattan_delta),
        cmocka_unit_test(test_wd_shared),
        cmocka_unit_test(test_wd_reference),
        cmocka_unit_test(test_wd_state_counts),
        cmocka_unit_test(test_admissible_3x3),
        cmocka_unit_test(test_admissible_2x5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
