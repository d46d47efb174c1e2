/*
 * test_pdb24_cli.c - the 24-puzzle (5x5) with pattern databases, cheaply:
 *   - tests/data/korf24.txt, the 50 instances of Korf and Felner (2002) with
 *     their published optimal lengths: every line parses; each board is a
 *     permutation of 0..24 that can reach the goal (inversion parity, written
 *     here); slide's column is Korf's board turned 180 degrees with every tile
 *     t relabelled 25 - t; each published length is at least the Manhattan
 *     distance and has the parity of the blank's distance to its goal cell.
 *   - `slide pdb build 5x5` of a tiny additive partition (eight tables of
 *     three tiles; one checked by `slide pdb verify`, a search that shares
 *     no code with the build) and `slide solve --h pdb:...` with and without
 *     --reflect on random-walk boards: every length equals the distance found
 *     by a bidirectional breadth-first search written here, and the moves
 *     replay.
 */
#include "testutil.h"

#include "clitest.h"
#include "refheur.h"

#define N24 25

static char dir[64];

/* ---- the published instances ------------------------------------------ */

/* Parse n integers of text into v; returns the end of the last one. */
static const char *parse_ints(const char *text, int *v, int n)
{
    char *end = (char *)text;
    for (int i = 0; i < n; i++) {
        v[i] = (int)strtol(text, &end, 10);
        assert_true(end != text);
        text = end;
    }
    return end;
}

/* 1 when cells[0..24] holds each of 0..24 once. */
static int is_permutation(const int *cells)
{
    int seen[N24] = {0};
    for (int i = 0; i < N24; i++) {
        if (cells[i] < 0 || cells[i] >= N24 || seen[cells[i]])
            return 0;
        seen[cells[i]] = 1;
    }
    return 1;
}

/* Inversions among the tiles (blank skipped).  On a board of odd width a
 * move changes them by an even number (a vertical move passes a tile over
 * an even number of others), so a board reaches a goal with an even count
 * exactly when its own count is even (Johnson and Story 1879). */
static int inversions(const int *cells)
{
    int t[N24], k = 0, inv = 0;
    for (int i = 0; i < N24; i++)
        if (cells[i])
            t[k++] = cells[i];
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            inv += t[i] > t[j];
    return inv;
}

static void test_published_instances(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_DATA_DIR "/korf24.txt", "r");
    assert_non_null(f);
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, 5, 5, &err), 0);
    char line[512];
    int count = 0, korf[N24], ours[N24];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        int head[2];
        const char *p = parse_ints(line, head, 2);
        p = parse_ints(p, korf, N24);
        p = parse_ints(p, ours, N24);
        assert_int_equal(p[strspn(p, " \t")], '\n');
        assert_int_equal(head[0], ++count);
        int length = head[1];
        assert_true(is_permutation(korf) && is_permutation(ours));
        /* Korf's goal 0 1 ... 24 and slide's 1 ... 24 0 both have 0 inversions */
        assert_int_equal(inversions(korf) % 2, 0);
        assert_int_equal(inversions(ours) % 2, 0);
        for (int c = 0; c < N24; c++) {
            int t = korf[N24 - 1 - c];
            assert_int_equal(ours[c], t ? N24 - t : 0);
        }
        /* every move moves the blank one cell: the length has the parity of
         * the blank's distance to its goal cell (24), and Manhattan bounds it */
        int z = 0;
        while (ours[z])
            z++;
        assert_int_equal(length % 2, (4 - z / 5 + 4 - z % 5) % 2);
        assert_true(length >= ref_manhattan(&goal, ours));
    }
    fclose(f);
    board_free(&goal);
    assert_int_equal(count, 50);
}

/* ---- bidirectional BFS on 5x5 boards ---------------------------------- */

/* A 5x5 board packed 5 bits per cell (125 bits). */
typedef unsigned __int128 key24;

struct set24 {
    key24 *keys; /* 0: empty (no board packs to 0) */
    uint8_t *dist;
    size_t cap, len;
};

static size_t hash24(key24 k, size_t cap)
{
    uint64_t h = (uint64_t)k ^ (uint64_t)(k >> 64) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & (cap - 1);
}

static int lookup24(const struct set24 *s, key24 k)
{
    for (size_t i = hash24(k, s->cap); s->keys[i]; i = (i + 1) & (s->cap - 1))
        if (s->keys[i] == k)
            return s->dist[i];
    return -1;
}

static int insert24(struct set24 *s, key24 k, int d)
{
    size_t i = hash24(k, s->cap);
    for (; s->keys[i]; i = (i + 1) & (s->cap - 1))
        if (s->keys[i] == k)
            return 0;
    assert_true(s->len * 3 < s->cap * 2);
    s->keys[i] = k;
    s->dist[i] = (uint8_t)d;
    s->len++;
    return 1;
}

static key24 pack24(const int *cells)
{
    key24 k = 0;
    for (int i = 0; i < N24; i++)
        k |= (key24)cells[i] << (5 * i);
    return k;
}

static int cell24(key24 k, int i) { return (int)(k >> (5 * i)) & 31; }

static int neighbours24(key24 k, key24 out[4])
{
    int z = 0, m = 0;
    while (cell24(k, z))
        z++;
    int r = z / 5, c = z % 5;
    int to[4] = {r > 0 ? z - 5 : -1, r < 4 ? z + 5 : -1, c > 0 ? z - 1 : -1,
                 c < 4 ? z + 1 : -1};
    for (int i = 0; i < 4; i++)
        if (to[i] >= 0) {
            key24 tile = (k >> (5 * to[i])) & 31;
            out[m++] = (k & ~((key24)31 << (5 * to[i]))) | tile << (5 * z);
        }
    return m;
}

struct side24 {
    struct set24 set;
    key24 *queue;
    size_t head, tail; /* queue[head..tail) is the last layer */
    int depth;
};

static void side_init(struct side24 *s, const int *cells, size_t cap)
{
    s->set.cap = cap;
    s->set.len = 0;
    s->set.keys = calloc(cap, sizeof *s->set.keys);
    s->set.dist = calloc(cap, 1);
    s->queue = malloc(cap * sizeof *s->queue);
    assert_true(s->set.keys && s->set.dist && s->queue);
    s->head = 0;
    s->tail = 1;
    s->queue[0] = pack24(cells);
    s->depth = 0;
    insert24(&s->set, s->queue[0], 0);
}

static void side_free(struct side24 *s)
{
    free(s->set.keys);
    free(s->set.dist);
    free(s->queue);
}

/* Expand one whole layer of s; returns the least depth-sum over the new
 * boards the other side holds, or -1. */
static int side_layer(struct side24 *s, const struct side24 *other)
{
    size_t end = s->tail;
    int best = -1;
    key24 next[4];
    for (; s->head < end; s->head++)
        for (int i = neighbours24(s->queue[s->head], next); i-- > 0;)
            if (insert24(&s->set, next[i], s->depth + 1)) {
                s->queue[s->tail++] = next[i];
                int d = lookup24(&other->set, next[i]);
                if (d >= 0 && (best < 0 || s->depth + 1 + d < best))
                    best = s->depth + 1 + d;
            }
    s->depth++;
    return best;
}

/* The distance between a and b, expanding the smaller side a layer at a
 * time: the first layer that meets the other side holds a middle board of
 * every shortest path, so the least sum found there is the distance. */
static int bibfs24(const int *a, const int *b)
{
    if (pack24(a) == pack24(b))
        return 0;
    struct side24 s[2];
    side_init(&s[0], a, (size_t)1 << 19);
    side_init(&s[1], b, (size_t)1 << 19);
    int d = -1;
    while (d < 0) {
        int i = s[0].tail - s[0].head <= s[1].tail - s[1].head ? 0 : 1;
        d = side_layer(&s[i], &s[1 - i]);
    }
    side_free(&s[0]);
    side_free(&s[1]);
    return d;
}

/* ---- solving 5x5 boards with a tiny partition -------------------------- */

static void test_random_walks_5x5(void **state)
{
    (void)state;
    char *out, h[2048] = "pdb:";
    for (int g = 0; g < 8; g++) {
        assert_int_equal(clitest_runf(&out, NULL, "pdb build 5x5 --pattern %d-%d -o %s/t%d.pdb",
                             3 * g + 1, 3 * g + 3, dir, g), 0);
        free(out);
        snprintf(h + strlen(h), sizeof h - strlen(h), "%s%s/t%d.pdb", g ? "+" : "", dir, g);
    }
    /* a 5x5 table against slide's independent recomputation */
    assert_int_equal(clitest_runf(&out, NULL, "pdb verify %s/t7.pdb", dir), 0);
    assert_non_null(strstr(out, "ok: "));
    free(out);
    char *boards;
    assert_int_equal(clitest_runf(&boards, NULL, "scramble 5x5 --walk 22 --count 3 --seed 13"), 0);
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 5, 5, &err), 0);
    for (int reflect = 0; reflect < 2; reflect++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "solve --format csv --h %s%s -", h,
                 reflect ? " --reflect" : "");
        assert_int_equal(clitest_run(cmd, boards, &out, NULL), 0);
        char *p = out, *line, board_text[256], v[4096];
        clitest_next_line(&p); /* header */
        for (int i = 0; i < 3; i++) {
            line = clitest_next_line(&p);
            clitest_field(line, 0, board_text, sizeof board_text);
            assert_int_equal(board_parse(board_text, 5, 5, &b, &err), 0);
            clitest_field(line, 3, v, sizeof v);
            assert_string_equal(v, "optimal");
            clitest_field(line, 4, v, sizeof v);
            int length = atoi(v);
            assert_int_equal(length, bibfs24(b.cells, goal.cells));
            assert_true(length > 0 && length <= 22);
            clitest_field(line, 5, v, sizeof v);
            assert_int_equal((int)strlen(v), length);
            clitest_replay(&b, v, strlen(v), NULL, &goal);
            board_free(&b);
        }
        free(out);
    }
    free(boards);
    board_free(&goal);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/slide-test-pdb24-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_instances),
        cmocka_unit_test(test_random_walks_5x5),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
