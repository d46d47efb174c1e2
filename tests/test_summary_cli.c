/*
 * test_summary_cli.c - `--summary FILE` of bfs, frontier and heuristic, and
 * the provenance block's "# command:" line.
 *
 * Independent truths: the published 3x3 histogram (tests/data/
 * histograms.tsv, OEIS A089473) gives the boards, the radius 31, the 2
 * antipodes and the mean distance (computed here); its first 11 terms the
 * boards within distance 10.  Against the text output (a consistency test:
 * both are slide's) every column is parsed from both and compared: the
 * summary must say what the text says.  The "# command:" line is run again
 * through sh and must give the same output, also for arguments holding
 * spaces and a quote.
 */
#include "testutil.h"

#include <math.h>

#include "scripttest.h"

#define DIR scripttest_dir()

/* Field i (0-based) of a CSV record, quotes removed (a quoted field may
 * hold commas and doubled quotes). */
static void csv_get(const char *line, int i, char *buf, size_t len)
{
    const char *p = line;
    size_t n = 0;
    for (int f = 0; f <= i; f++) {
        n = 0;
        int quoted = *p == '"';
        if (quoted)
            p++;
        while (*p && (quoted || (*p != ',' && *p != '\n'))) {
            if (quoted && *p == '"') {
                if (p[1] != '"') {
                    p++;
                    break;
                }
                p++;
            }
            if (f == i && n + 1 < len)
                buf[n++] = *p;
            p++;
        }
        if (*p == ',')
            p++;
    }
    buf[n] = '\0';
}

/* The column named col of record 1 (the line after the header). */
static void csv_col(const char *csv, const char *col, int record, char *buf, size_t len)
{
    char name[64];
    int i = 0;
    for (;; i++) {
        csv_get(csv, i, name, sizeof name);
        if (!name[0])
            fail_msg("no column %s in %s", col, csv);
        if (strcmp(name, col) == 0)
            break;
    }
    const char *line = csv;
    for (int r = 0; r < record; r++) {
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
    }
    csv_get(line, i, buf, len);
}

/* The number after "key: " in text (a line of slide's text output). */
static double text_value(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        fail_msg("no \"%s\" in %s", key, text);
    return strtod(p + strlen(key), NULL);
}

/* The histogram table of slide's text output: rows "d count cumulative"
 * after the header line; returns the largest d. */
static int text_histogram(const char *text, uint64_t *hist, int max)
{
    const char *p = strstr(text, "cumulative\n");
    assert_non_null(p);
    p += strlen("cumulative\n");
    int last = -1;
    for (;;) {
        int d;
        unsigned long long c, cum;
        if (sscanf(p, "%d %llu %llu", &d, &c, &cum) != 3)
            break;
        assert_true(d == last + 1 && d < max);
        hist[d] = c;
        last = d;
        p = strchr(p, '\n') + 1;
    }
    return last;
}

static double mean_of(const uint64_t *hist, int last, uint64_t *boards)
{
    long double sum = 0;
    *boards = 0;
    for (int d = 0; d <= last; d++) {
        *boards += hist[d];
        sum += (long double)d * hist[d];
    }
    return (double)(sum / *boards);
}

static char *slurp_file(const char *name)
{
    char path[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", DIR, name);
    char *text = test_read_file(path, &len);
    assert_non_null(text);
    return text;
}

static void test_bfs_summary_csv(void **state)
{
    (void)state;
    uint64_t pub[64], boards, hist[64], tboards;
    int n = published_histogram(3, 3, "corner", pub, 64);
    assert_int_equal(n, 32);
    double pub_mean = mean_of(pub, n - 1, &boards);
    char *out, *err, v[256];
    assert_int_equal(clitest_runf(&out, &err, "bfs 3x3 --no-progress --summary %s/s.csv", DIR), 0);
    char *csv = slurp_file("s.csv");
    /* the header is the documented one */
    static const char header[] = "summary,board,goal,metric,boards,radius,max_depth,complete,"
                                 "antipodes,mean_distance,version,commit,command\n";
    assert_true(strncmp(csv, header, sizeof header - 1) == 0);
    /* against the text output */
    int last = text_histogram(out, hist, 64);
    double tmean = mean_of(hist, last, &tboards);
    csv_col(csv, "summary", 1, v, sizeof v);
    assert_string_equal(v, "bfs");
    csv_col(csv, "board", 1, v, sizeof v);
    assert_string_equal(v, "3x3");
    csv_col(csv, "goal", 1, v, sizeof v);
    assert_non_null(strstr(out, v)); /* "goal 1 2 3/4 5 6/7 8 0" */
    assert_string_equal(v, "1 2 3/4 5 6/7 8 0");
    csv_col(csv, "metric", 1, v, sizeof v);
    assert_string_equal(v, "stm");
    csv_col(csv, "boards", 1, v, sizeof v);
    assert_int_equal(strtoull(v, NULL, 10), (uint64_t)text_value(out, "boards reached: "));
    assert_int_equal(strtoull(v, NULL, 10), tboards);
    assert_int_equal(strtoull(v, NULL, 10), boards); /* published */
    csv_col(csv, "radius", 1, v, sizeof v);
    assert_int_equal(atoi(v), (int)text_value(out, "\nradius: "));
    assert_int_equal(atoi(v), 31);
    csv_col(csv, "max_depth", 1, v, sizeof v);
    assert_int_equal(atoi(v), 31);
    csv_col(csv, "complete", 1, v, sizeof v);
    assert_string_equal(v, "yes");
    csv_col(csv, "antipodes", 1, v, sizeof v);
    assert_int_equal(atoi(v), (int)text_value(out, "\nantipodes: "));
    assert_int_equal(atoi(v), 2);
    assert_int_equal(atoi(v), (int)pub[31]);
    csv_col(csv, "mean_distance", 1, v, sizeof v);
    assert_true(fabs(strtod(v, NULL) - tmean) < 1e-8);
    assert_true(fabs(strtod(v, NULL) - pub_mean) < 1e-8);
    csv_col(csv, "command", 1, v, sizeof v);
    assert_true(strncmp(v, "slide bfs 3x3 --no-progress --summary ", 38) == 0);
    free(csv);
    free(out);
    free(err);
}

/* The number after "key": in a JSON text (keys are unique in a summary
 * without heuristics). */
static double json_number(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(json, pat);
    if (!p)
        fail_msg("no %s in %s", key, json);
    return strtod(p + strlen(pat), NULL);
}

static void test_bfs_summary_json(void **state)
{
    (void)state;
    char *out, *err;
    int rc = clitest_runf(&out, &err, "bfs 3x3 --no-progress --summary %s/s.json", DIR);
    if (rc == 2 && strstr(err, "built without Jansson")) { /* said plainly, CSV only */
        printf("skip: --summary FILE.json: this build has no Jansson\n");
        free(out);
        free(err);
        return;
    }
    assert_int_equal(rc, 0);
    char *json = slurp_file("s.json");
    assert_int_equal((uint64_t)json_number(json, "boards"), 181440);
    assert_int_equal((int)json_number(json, "radius"), 31);
    assert_int_equal((int)json_number(json, "antipodes"), 2);
    assert_true(fabs(json_number(json, "mean_distance") - 21.972398589) < 1e-9);
    assert_non_null(strstr(json, "\"complete\": true"));
    assert_non_null(strstr(json, "\"metric\": \"stm\""));
    assert_non_null(strstr(json, "\"provenance\": {"));
    assert_non_null(strstr(json, "\"command\": \"slide bfs 3x3 --no-progress --summary "));
    free(json);
    free(out);
    free(err);
}

static void test_frontier_summary_incomplete(void **state)
{
    (void)state;
    uint64_t pub[64], boards;
    assert_int_equal(published_histogram(3, 3, "corner", pub, 64), 32);
    mean_of(pub, 10, &boards);
    char *out, *err, v[256];
    assert_int_equal(clitest_runf(&out, &err, "frontier 3x3 --max-depth 10 --no-progress "
                                  "--summary %s/f.csv", DIR), 0);
    char *csv = slurp_file("f.csv");
    csv_col(csv, "summary", 1, v, sizeof v);
    assert_string_equal(v, "frontier");
    csv_col(csv, "boards", 1, v, sizeof v);
    assert_int_equal(strtoull(v, NULL, 10), boards);
    assert_int_equal(strtoull(v, NULL, 10), (uint64_t)text_value(out, "boards reached: "));
    csv_col(csv, "complete", 1, v, sizeof v);
    assert_string_equal(v, "no");
    csv_col(csv, "radius", 1, v, sizeof v);
    assert_string_equal(v, ""); /* not known */
    csv_col(csv, "antipodes", 1, v, sizeof v);
    assert_string_equal(v, "");
    csv_col(csv, "max_depth", 1, v, sizeof v);
    assert_int_equal(atoi(v), (int)text_value(out, "searched to distance "));
    assert_int_equal(atoi(v), 10);
    free(csv);
    free(out);
    free(err);
}

/* The heuristic sweep's summary: the board's figures against the published
 * histogram, each heuristic's against the sweep's own CSV. */
static void test_heuristic_summary(void **state)
{
    (void)state;
    char *out, *err, v[256], w[256];
    assert_int_equal(clitest_runf(&out, &err, "heuristic 3x3 --h manhattan,lc-pairs --no-progress "
                                  "--format csv --summary %s/h.csv", DIR), 0);
    char *csv = slurp_file("h.csv");
    const char *names[] = {"manhattan", "lc-pairs"};
    const char *cols[] = {"admissible", "consistent", "violations", "max_excess", "mean_h",
                          "exact_fraction"};
    for (int r = 1; r <= 2; r++) {
        csv_col(csv, "heuristic", r, v, sizeof v);
        assert_string_equal(v, names[r - 1]);
        csv_col(csv, "radius", r, v, sizeof v);
        assert_int_equal(atoi(v), 31);
        csv_col(csv, "mean_distance", r, v, sizeof v);
        csv_col(out, "mean_d", r, w, sizeof w);
        assert_true(fabs(strtod(v, NULL) - strtod(w, NULL)) < 1e-6);
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            csv_col(csv, cols[c], r, v, sizeof v);
            csv_col(out, cols[c], r, w, sizeof w);
            if (strchr(w, '.'))
                assert_true(fabs(strtod(v, NULL) - strtod(w, NULL)) < 1e-6);
            else
                assert_string_equal(v, w);
        }
    }
    /* lc-pairs is the inadmissible one */
    csv_col(csv, "admissible", 2, v, sizeof v);
    assert_string_equal(v, "no");
    free(csv);
    free(out);
    free(err);
}

static void test_summary_refusals(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x3 --summary %s/s.txt", DIR), 2);
    assert_non_null(strstr(err, "FILE.csv or FILE.json"));
    free(out);
    free(err);
    /* a file that is not a summary is not replaced, a link is not followed */
    char path[256];
    snprintf(path, sizeof path, "%s/mine.csv", DIR);
    scripttest_write(path, "precious,data\n", 0);
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x3 --summary %s", path), 1);
    free(out);
    free(err);
    char *kept = slurp_file("mine.csv");
    assert_string_equal(kept, "precious,data\n");
    free(kept);
    char *o2;
    assert_int_equal(scripttest_sh(&o2, "ln -s mine.csv '%s/link.csv'", DIR), 0);
    free(o2);
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x3 --summary %s/link.csv", DIR), 1);
    assert_non_null(strstr(err, "symbolic link"));
    free(out);
    free(err);
    /* a summary is replaced by the next one */
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x3 --no-progress --summary %s/s.csv", DIR), 0);
    free(out);
    free(err);
    assert_int_equal(clitest_runf(&out, &err, "bfs 2x3 --no-progress --summary %s/s.csv", DIR), 0);
    free(out);
    free(err);
}

/* Output without the lines that differ between two runs of one command. */
static void drop_run_lines(char *text)
{
    char *w = text;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        int drop = strncmp(line, "# date", 6) == 0 || strncmp(line, "# wall", 6) == 0 ||
                   strncmp(line, "wall ", 5) == 0;
        if (!drop) {
            memmove(w, line, len);
            w += len;
        }
        line += len;
    }
    *w = '\0';
}

/* The "# command:" line run again through sh (slide on the PATH) gives the
 * same output, for arguments with spaces, a slash and a quote. */
static void test_provenance_command_reruns(void **state)
{
    (void)state;
    char build[1024], *first, *second;
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    snprintf(build, sizeof build, "%s", slide);
    *strrchr(build, '/') = '\0';
    int rc = scripttest_sh(&first, "cd '%s' && PATH='%s':$PATH slide bfs 2x3 --provenance "
                           "--no-progress --goal '1 2 3/4 5 0' --antipodes-file \"it's a.txt\" "
                           "--format csv", DIR, build);
    assert_int_equal(rc, 0);
    const char *cmd = strstr(first, "# command: ");
    assert_non_null(cmd);
    cmd += strlen("# command: ");
    char line[1024];
    size_t len = strcspn(cmd, "\n");
    assert_true(len < sizeof line);
    memcpy(line, cmd, len);
    line[len] = '\0';
    assert_string_equal(line, "slide bfs 2x3 --provenance --no-progress --goal '1 2 3/4 5 0' "
                              "--antipodes-file 'it'\\''s a.txt' --format csv");
    /* the line, pasted into a shell as it is */
    char script[1200];
    snprintf(script, sizeof script, "%s/again.sh", DIR);
    char text[1200];
    snprintf(text, sizeof text, "%s\n", line);
    scripttest_write(script, text, 0);
    rc = scripttest_sh(&second, "cd '%s' && PATH='%s':$PATH sh again.sh", DIR, build);
    assert_int_equal(rc, 0);
    drop_run_lines(first);
    drop_run_lines(second);
    assert_string_equal(second, first);
    char *anti = slurp_file("it's a.txt");
    assert_non_null(strstr(anti, "4 5 0/1 2 3")); /* the file the quoted name named */
    free(anti);
    free(first);
    free(second);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bfs_summary_csv, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_bfs_summary_json, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_frontier_summary_incomplete, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_heuristic_summary, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_summary_refusals, scripttest_setup,
                                        scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_provenance_command_reruns, scripttest_setup,
                                        scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
