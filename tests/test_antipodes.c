/*
 * test_antipodes.c - `slide bfs --antipodes all|N` and `--antipodes-file`:
 * the antipodes (boards at the radius) of 2x3, 2x4, 2x5 and 3x3 against the
 * boards published in OEIS (tests/data/antipodes.tsv), and every one of the
 * 148 antipodes of 3x3 with the blank in the centre against the plain BFS
 * of testutil.h (a hash set over boards, none of slide's indexing).
 */
#include "testutil.h"

#include "clitest.h"

#include <sys/stat.h>
#include <unistd.h>

/* A board in slide's text syntax, formatted here: "r0c0 r0c1/r1c0 ...". */
static void format_cells(const int *cells, int rows, int cols, char *buf, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < rows * cols; i++) {
        const char *sep = i == 0 ? "" : i % cols == 0 ? "/" : " ";
        used += (size_t)snprintf(buf + used, len - used, "%s%d", sep, cells[i]);
    }
}

/* Parse "a b c/d e f" into cells; the number of cells. */
static int parse_cells(const char *text, int *cells, int max)
{
    int n = 0;
    for (const char *p = text; *p && n < max;) {
        if (*p >= '0' && *p <= '9') {
            cells[n++] = (int)strtol(p, (char **)&p, 10);
        } else {
            p++;
        }
    }
    return n;
}

struct lines {
    char **line;
    int n;
};

/* The non-comment lines of a file (the antipodes file's boards). */
static struct lines read_boards(const char *path)
{
    struct lines L = {NULL, 0};
    size_t len;
    char *text = test_read_file(path, &len);
    if (!text)
        fail_msg("%s was not written", path);
    L.line = calloc(len + 1, sizeof *L.line);
    assert_non_null(L.line);
    for (char *p = strtok(text, "\n"); p; p = strtok(NULL, "\n"))
        if (p[0] != '#')
            L.line[L.n++] = strdup(p);
    free(text);
    return L;
}

static int lines_contain(const struct lines *L, const char *s)
{
    for (int i = 0; i < L->n; i++)
        if (strcmp(L->line[i], s) == 0)
            return 1;
    return 0;
}

static void lines_free(struct lines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->line[i]);
    free(L->line);
}

/* Run slide bfs with --antipodes-file into a fresh directory; the boards. */
static struct lines slide_antipodes(const char *size, const char *goal, char **out)
{
    char dir[] = "/tmp/slide-test-anti-XXXXXX", args[1200], path[600];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/antipodes.txt", dir);
    snprintf(args, sizeof args, "bfs %s --goal '%s' --threads 2 --antipodes all "
             "--antipodes-file %s", size, goal, path);
    char *err;
    int rc = clitest_run(args, NULL, out, &err);
    if (rc != 0)
        fail_msg("slide %s: exit %d: %s", args, rc, err);
    free(err);
    struct lines L = read_boards(path);
    unlink(path);
    rmdir(dir);
    return L;
}

/* Every published antipode of tests/data/antipodes.tsv is slide's, and when
 * the source lists all of them, slide lists no other. */
static void test_published_antipodes(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_DATA_DIR "/antipodes.tsv", "r");
    assert_non_null(f);
    struct published_antipodes pa;
    int rows_checked = 0;
    while (published_antipodes_next(f, &pa)) {
        char *out;
        struct lines L = slide_antipodes(pa.size, pa.goal, &out);
        char want[64];
        snprintf(want, sizeof want, "radius: %ld\nantipodes: %ld\n", pa.radius, pa.count);
        if (!strstr(out, want))
            fail_msg("%s goal %s: slide says\n%s\nOEIS (%s): %s", pa.size, pa.goal, out,
                     pa.source, want);
        assert_int_equal(L.n, pa.count);
        int listed = 0;
        for (char *b = strtok(pa.boards, ";"); b; b = strtok(NULL, ";"), listed++)
            if (!lines_contain(&L, b))
                fail_msg("%s: the published antipode %s (%s) is not in slide's list",
                         pa.size, b, pa.source);
        if (listed == pa.count)
            assert_int_equal(L.n, listed);
        lines_free(&L);
        free(out);
        rows_checked++;
    }
    fclose(f);
    assert_int_equal(rows_checked, 5);
}

/* 3x3, goal 1 2 3/4 0 5/6 7 8: all 148 antipodes equal the plain BFS's. */
static void test_centre_antipodes_naive(void **state)
{
    (void)state;
    const int goal[9] = {1, 2, 3, 4, 0, 5, 6, 7, 8};
    uint64_t hist[64];
    struct naive_set set;
    int radius = naive_bfs(3, 3, goal, hist, 64, &set);
    assert_int_equal(radius, 30);
    char *out;
    struct lines L = slide_antipodes("3x3", "1 2 3/4 0 5/6 7 8", &out);
    assert_int_equal((uint64_t)L.n, hist[radius]);
    assert_int_equal(L.n, 148);
    int naive_count = 0;
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i] || set.dist[i] != radius)
            continue;
        int cells[9];
        char text[64];
        for (int k = 0; k < 9; k++)
            cells[k] = naive_cell(set.keys[i], k);
        format_cells(cells, 3, 3, text, sizeof text);
        if (!lines_contain(&L, text))
            fail_msg("the plain BFS finds %s at distance %d; slide does not list it", text,
                     radius);
        naive_count++;
    }
    assert_int_equal(naive_count, 148);
    /* and every line slide wrote is a board the plain BFS puts at the radius */
    for (int i = 0; i < L.n; i++) {
        int cells[16];
        assert_int_equal(parse_cells(L.line[i], cells, 16), 9);
        assert_int_equal(naive_lookup(&set, naive_pack(cells, 9)), radius);
    }
    lines_free(&L);
    free(out);
    naive_free(&set);
}

/* --antipodes N lists N and says how many more there are. */
static void test_antipodes_count(void **state)
{
    (void)state;
    char *out, *err;
    int rc = clitest_run("bfs 3x3 --goal '1 2 3/4 0 5/6 7 8' --antipodes 3", NULL, &out,
                         &err);
    assert_int_equal(rc, 0);
    const char *p = strstr(out, "antipodes: 148\n");
    assert_non_null(p);
    p = strchr(p, '\n') + 1;
    for (int i = 0; i < 3; i++) {
        assert_true(p[0] == ' ' && p[1] == ' ' && p[2] != '.');
        p = strchr(p, '\n') + 1;
    }
    assert_true(strncmp(p, "  ... 145 more (--antipodes all lists them)\n", 44) == 0);
    free(out);
    free(err);
    /* the default is 10 */
    rc = clitest_run("bfs 3x3 --goal '1 2 3/4 0 5/6 7 8'", NULL, &out, &err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "  ... 138 more"));
    free(out);
    free(err);
    /* 0 lists none */
    rc = clitest_run("bfs 3x3 --antipodes 0", NULL, &out, &err);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "antipodes: 2\n  ... 2 more"));
    free(out);
    free(err);
}

/* Bad values and files that are not ours: a one-line error, nothing written. */
static void test_antipodes_errors(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_run("bfs 2x3 --antipodes many", NULL, &out, &err), 2);
    assert_non_null(strstr(err, "--antipodes expects 'all' or a count"));
    free(out);
    free(err);
    assert_int_equal(clitest_run("bfs 2x3 --antipodes -1", NULL, &out, &err), 2);
    free(out);
    free(err);
    assert_int_equal(clitest_run("bfs 2x3 --antipodes-file /tmp", NULL, &out, &err), 1);
    assert_non_null(strstr(err, "it is a directory; slide replaces only regular files"));
    free(out);
    free(err);
    /* a symlink at FILE is not followed */
    char dir[] = "/tmp/slide-test-anti-XXXXXX", link[600], target[600], args[1400];
    assert_non_null(mkdtemp(dir));
    snprintf(link, sizeof link, "%s/a.txt", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    test_write_file(target, "keep\n", 5);
    assert_int_equal(symlink(target, link), 0);
    snprintf(args, sizeof args, "bfs 2x3 --antipodes-file %s", link);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 1);
    assert_non_null(strstr(err, "it is a symbolic link"));
    size_t len;
    char *kept = test_read_file(target, &len);
    assert_string_equal(kept, "keep\n");
    free(kept);
    free(out);
    free(err);
    unlink(link);
    unlink(target);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_antipodes),
        cmocka_unit_test(test_centre_antipodes_naive),
        cmocka_unit_test(test_antipodes_count),
        cmocka_unit_test(test_antipodes_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
