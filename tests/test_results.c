/*
 * test_results.c - results/ against independent truths and against the code.
 *
 * Independent: every committed histogram (results/histograms/B.csv, the 2x7
 * and 7x2 searches included) equals the published one term by term
 * (tests/data/histograms.tsv), and the committed antipode lists contain the
 * boards published in OEIS (tests/data/antipodes.tsv) with the published
 * counts, and each joint (d, h) table sums over h to the published
 * histogram; every Korf-Felner record of the 24-puzzle runs names Korf and
 * Felner's board and agrees with their published length.
 *
 * Consistency (slide against slide): regenerating the small-board results
 * (scripts/check-results.sh --small) gives the committed files, provenance
 * and timing masked; and scripts/check-search-code.sh, which lets the 2x7
 * and 7x2 searches keep their older commit, tells a changed search from an
 * unchanged one on two known pairs of commits.
 */
#include "testutil.h"

#include <dirent.h>
#include <sys/wait.h>

#define RESULTS TEST_DATA_DIR "/../../results"

/* Run a shell command from the repository root; its exit status, output in out. */
static int shell(const char *command, char *out, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s/../.. && %s 2>&1", TEST_DATA_DIR, command);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* scripts/results-commits.sh on a made-up results directory: three files
 * of commit aaa (two dated), one of bbb in LaTeX, one without provenance;
 * the counts and dates are the test's own. */
static void test_results_commits_script(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(shell("d=$(mktemp -d) && mkdir -p $d/h && "
                           "printf '# slide 0.1.0 (commit aaa)\\n# date: 2026-01-02T00:00:00Z\\nx\\n' > $d/h/a.csv && "
                           "printf '# slide 0.1.0 (commit aaa)\\n# date: 2026-01-01T00:00:00Z\\nx\\n' > $d/h/b.csv && "
                           "printf '> slide 0.1.0 (commit aaa)\\n' > $d/c.md && "
                           "printf '%% slide 0.1.0 (commit bbb)\\n%% date: 2026-02-01T00:00:00Z\\n' > $d/t.tex && "
                           "printf 'plain\\n' > $d/n.txt && "
                           "sh scripts/results-commits.sh $d | sed \"s|$d/||\"; rm -rf $d",
                           out, sizeof out), 0);
    assert_string_equal(out, "aaa               3 files  2026-01-01T00:00:00Z .. "
                             "2026-01-02T00:00:00Z  (e.g. c.md)\n"
                             "bbb               1 file  2026-02-01T00:00:00Z .. "
                             "2026-02-01T00:00:00Z  (e.g. t.tex)\n"
                             "1 files name no commit (tables and notes without a provenance "
                             "block)\n");
}

/* Korf and Felner's published lengths (tests/data/korf24.txt: number, length,
 * their board, the board for slide's goal): published[n], board[n] with
 * single spaces. */
static int korf24_published(int *published, char board[51][128])
{
    FILE *f = fopen(TEST_DATA_DIR "/korf24.txt", "r");
    assert_non_null(f);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int k, len;
        char theirs[128], ours[128];
        if (line[0] == '#' ||
            sscanf(line, "%d\t%d\t%127[0-9 ]\t%127[0-9 ]", &k, &len, theirs, ours) != 4)
            continue;
        assert_true(k >= 1 && k <= 50);
        published[k] = len;
        snprintf(board[k], 128, "%s", ours);
        n++;
    }
    fclose(f);
    return n;
}

/* Independent truth: every Korf-Felner record of the committed 24-puzzle runs
 * (results/puzzle24*.csv) names the published board; a solved one has the
 * published length, a stopped one a lower bound no higher.  And the number
 * of distinct instances solved by the runs that choose without the lengths
 * (SELECT=all and SELECT=retry in their header line) is the one
 * puzzle24-kf50.md states, and that table is what --summary makes of them. */
static void test_puzzle24_published(void **state)
{
    (void)state;
    static int published[51];
    static char board[51][128];
    assert_int_equal(korf24_published(published, board), 50);
    DIR *dir = opendir(RESULTS);
    assert_non_null(dir);
    int records = 0, solved[51] = {0};
    for (struct dirent *e; (e = readdir(dir));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "puzzle24", 8) != 0 || len < 5 ||
            strcmp(e->d_name + len - 4, ".csv") != 0)
            continue;
        char path[512], line[1024];
        snprintf(path, sizeof path, "%s/%s", RESULTS, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        /* a run that chose without the lengths says so in its header line */
        int chooses = fgets(line, sizeof line, f) && line[0] == '#' &&
                      (strstr(line, " SELECT=all ") || strstr(line, " SELECT=retry "));
        while (fgets(line, sizeof line, f)) {
            int id, pub, length = -1, lower = -1;
            char b[128], status[16], rest[512];
            if (strncmp(line, "kf,", 3) != 0)
                continue;
            if (sscanf(line, "kf,%d,%127[^,],%d,%15[^,],%511s", &id, b, &pub, status, rest) != 5)
                fail_msg("%s: a record not read: %s", e->d_name, line);
            if (strcmp(status, "optimal") == 0)
                assert_int_equal(sscanf(rest, "%d,%d", &length, &lower), 2);
            else
                assert_int_equal(sscanf(rest, ",%d", &lower), 1);
            assert_true(id >= 1 && id <= 50);
            for (char *c = b; *c; c++)
                if (*c == '/')
                    *c = ' ';
            if (strcmp(b, board[id]) != 0)
                fail_msg("%s: #%d is not Korf and Felner's board", e->d_name, id);
            assert_int_equal(pub, published[id]);
            if (length >= 0 && length != published[id])
                fail_msg("%s: #%d solved at %d, published %d", e->d_name, id, length, published[id]);
            if (lower > published[id])
                fail_msg("%s: #%d: lower bound %d above the published %d", e->d_name, id, lower,
                         published[id]);
            if (length >= 0 && strstr(rest, ",ok,") == NULL)
                fail_msg("%s: #%d solved but its path did not replay: %s", e->d_name, id, line);
            if (length >= 0 && chooses)
                solved[id] = 1;
            records++;
        }
        fclose(f);
    }
    closedir(dir);
    assert_true(records > 0);
    int count = 0;
    for (int k = 1; k <= 50; k++)
        count += solved[k];
    FILE *f = fopen(RESULTS "/puzzle24-kf50.md", "r");
    assert_non_null(f);
    char line[1024];
    int stated = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%d of the 50 solved", &stated) == 1)
            break;
    fclose(f);
    assert_int_equal(stated, count);
    /* consistency: the committed table is what --summary makes of the records */
    char out[256];
    assert_int_equal(shell("d=$(mktemp -d) && cp results/puzzle24*.csv $d/ && "
                           "OUT=$d sh scripts/results-24.sh --summary > /dev/null && "
                           "cmp $d/puzzle24-kf50.md results/puzzle24-kf50.md; r=$?; rm -rf $d; exit $r",
                           out, sizeof out), 0);
}

/* scripts/results-24.sh --summary on made-up records.  A SELECT=all run
 * (puzzle24-select.csv): #3 stopped at 90, #7 solved, #9 stopped at 84; a
 * SELECT=retry run (puzzle24-retry.csv, which ls lists first): #3 solved at
 * 97, #9 stopped at 80 (so the best bound, 84, is not the first record's);
 * a KF= run whose name begins the same (puzzle24-retry-check.csv) solving
 * #11: not a run that chose without the lengths, so not counted.  Then a
 * solved record that failed its check, and one whose length is not the
 * published one though its check says ok: exit 1, no table, no temporary. */
static void test_puzzle24_summary_script(void **state)
{
    (void)state;
    char out[8192];
    const char *make =
        "d=$(mktemp -d) && h='set,id,board,published,status,length,lower_bound,h_start,manhattan,"
        "expanded,generated,seconds,e,g,cpu_s,check,md,load,load_cpu_s' && "
        "printf '# slide 0.1.0 (commit aaa), 2026-01-01T00:00Z, x, results-24.sh SELECT=all KF_FIRST=1\\n%s\\n"
        "kf,3,b,97,stopped,,90,77,65,1,2,3,4,5,10.25,-,,0,1\\n"
        "kf,7,b,99,optimal,99,99,80,70,1,2,3,4,5,20,ok,,0,1\\n"
        "kf,9,b,101,stopped,,84,81,70,1,2,3,4,5,30,-,,0,1\\n' \"$h\" > $d/puzzle24-select.csv && "
        "printf '# slide 0.1.0 (commit bbb), 2026-01-02T00:00Z, x, results-24.sh SELECT=retry RETRY=2\\n%s\\n"
        "kf,3,b,97,optimal,97,97,77,65,1,2,3,4,5,40,ok,,0,1\\n"
        "kf,9,b,101,stopped,,80,81,70,1,2,3,4,5,50,-,,0,1\\n' \"$h\" > $d/puzzle24-retry.csv && "
        "printf '# slide 0.1.0 (commit ccc), 2026-01-03T00:00Z, x, results-24.sh KF_BUDGET=9\\n%s\\n"
        "kf,11,b,106,optimal,106,106,82,70,1,2,3,4,5,60,ok,,0,1\\n' \"$h\" > $d/puzzle24-retry-check.csv && ";
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "%s OUT=$d sh scripts/results-24.sh --summary > /dev/null && "
             "grep -E '^\\| (3|7|9|11) \\|' $d/puzzle24-kf50.md && tail -1 $d/puzzle24-kf50.md; rm -rf $d",
             make);
    assert_int_equal(shell(cmd, out, sizeof out), 0);
    assert_string_equal(out,
        "| 3 | 97 | 77 | 2 | optimal, 97 | - | 50 | puzzle24-retry.csv | ok |\n"
        "| 7 | 99 | 80 | 1 | optimal, 99 | - | 20 | puzzle24-select.csv | ok |\n"
        "| 9 | 101 | 81 | 2 | stopped | >= 84 | 80 | - | - |\n"
        "| 11 | - | - | 0 | not searched | - | - | - | - |\n"
        "2 of the 50 solved optimally (every length the published one, every path replayed), "
        "1 stopped, 47 not searched; 150 CPU s of search in all.\n");
    const char *spoil[] = {"s/,ok,/,not the goal,/", "s/optimal,99,99/optimal,98,99/"};
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd,
                 "%s sed -i '%s' $d/puzzle24-select.csv $d/puzzle24-retry.csv && "
                 "OUT=$d sh scripts/results-24.sh --summary 2>&1 > /dev/null; echo rc=$?; ls $d; rm -rf $d",
                 make, spoil[k]);
        assert_int_equal(shell(cmd, out, sizeof out), 0);
        assert_string_equal(out, "results-24: a solved instance failed its check in its run's records\n"
                                 "rc=1\npuzzle24-retry-check.csv\npuzzle24-retry.csv\npuzzle24-select.csv\n");
    }
}

static void test_results_consistency(void **state)
{
    (void)state;
    const char *bin = getenv("SLIDE");
    if (!bin)
        fail_msg("SLIDE is not set (run through make test)");
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "SLIDE=%s sh scripts/check-results.sh --small", bin);
    if (shell(cmd, out, sizeof out) != 0)
        fail_msg("results/ differs from what the code produces:\n%s", out);
    assert_non_null(strstr(out, "results/ agrees with the code"));
}

/* Counts of a committed histogram CSV (after its '# ' lines); how many. */
static int read_histogram(const char *path, uint64_t *count, int max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int d;
        unsigned long long c;
        if (sscanf(line, "%d,%llu", &d, &c) != 2)
            continue;
        assert_int_equal(d, n);
        assert_true(n < max);
        count[n++] = c;
    }
    fclose(f);
    return n;
}

static void test_histograms_published(void **state)
{
    (void)state;
    DIR *dir = opendir(RESULTS "/histograms");
    assert_non_null(dir);
    int checked = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        int rows, cols;
        char rest[64] = "";
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv") != 0 ||
            sscanf(e->d_name, "%dx%d%63s", &rows, &cols, rest) < 2)
            continue;
        const char *kind = strncmp(rest, "-centre", 7) == 0 ? "centre (cell 4)" : "corner";
        char path[512];
        snprintf(path, sizeof path, "%s/%s", RESULTS "/histograms", e->d_name);
        static uint64_t got[200], pub[200];
        int n = read_histogram(path, got, 200);
        int np = published_histogram(rows, cols, kind, pub, 200);
        if (np == 0)
            fail_msg("%s: no published histogram in tests/data", e->d_name);
        assert_int_equal(n, np);
        for (int d = 0; d < n; d++)
            if (got[d] != pub[d])
                fail_msg("%s: distance %d: %llu boards, published %llu", e->d_name, d,
                         (unsigned long long)got[d], (unsigned long long)pub[d]);
        checked++;
    }
    closedir(dir);
    assert_true(checked >= 15); /* 2x2 .. 2x6, 6x2, 3x3-centre, 2x7, 7x2 */
}

/* Every joint table results/joint/B-NAME.csv: summed over h, the published
 * histogram of B. */
static void test_joint_marginals(void **state)
{
    (void)state;
    DIR *dir = opendir(RESULTS "/joint");
    assert_non_null(dir);
    int checked = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        int rows, cols;
        if (sscanf(e->d_name, "%dx%d-", &rows, &cols) != 2)
            continue;
        char path[512], line[256];
        snprintf(path, sizeof path, "%s/%s", RESULTS "/joint", e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        static uint64_t sum[200], pub[200];
        memset(sum, 0, sizeof sum);
        int d, h;
        unsigned long long c;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%d,%d,%llu", &d, &h, &c) == 3) {
                assert_true(d >= 0 && d < 200);
                sum[d] += c;
            }
        fclose(f);
        int np = published_histogram(rows, cols, "corner", pub, 200);
        assert_true(np > 0);
        for (d = 0; d < 200; d++)
            if (sum[d] != (d < np ? pub[d] : 0))
                fail_msg("%s: distance %d: %llu boards, published %llu", e->d_name, d,
                         (unsigned long long)sum[d],
                         (unsigned long long)(d < np ? pub[d] : 0));
        checked++;
    }
    closedir(dir);
    assert_true(checked >= 20); /* 4 boards x 5 heuristics */
}

/* Each published antipode is in results/antipodes/LABEL.txt, which lists
 * exactly the published number of boards. */
static void test_antipodes_published(void **state)
{
    (void)state;
    FILE *f = fopen(TEST_DATA_DIR "/antipodes.tsv", "r");
    assert_non_null(f);
    struct published_antipodes pa;
    int rows = 0;
    while (published_antipodes_next(f, &pa)) {
        /* the standard goal has its blank last; the other goal is 3x3-centre */
        int centre = pa.goal[strlen(pa.goal) - 1] != '0';
        char path[512];
        snprintf(path, sizeof path, "%s/%s%s.txt", RESULTS "/antipodes", pa.size,
                 centre ? "-centre" : "");
        size_t len;
        char *text = test_read_file(path, &len);
        int listed = 0;
        for (char *q = text; *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : q + strlen(q))
            listed += *q != '#' && *q != '\n';
        assert_int_equal(listed, pa.count);
        for (char *b = strtok(pa.boards, ";"); b; b = strtok(NULL, ";")) {
            char want[128];
            snprintf(want, sizeof want, "\n%s\n", b);
            if (!strstr(text, want))
                fail_msg("%s lacks the published antipode %s (%s)", path, b, pa.source);
        }
        free(text);
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 5);
}

/* check-search-code.sh names functions declared with attributes by their
 * own names (it once named them all "__attribute__", so a change in one
 * went unseen): a change in each of two such search functions of a fixture
 * repository fails the check and names the function. */
static void test_search_code_attributes(void **state)
{
    (void)state;
    char out[4096];
    if (shell("command -v git", out, sizeof out) != 0)
        skip();
    assert_int_equal(shell("sh tests/data/search-code-names.sh scripts/check-search-code.sh",
                           out, sizeof out), 0);
    assert_non_null(strstr(out, "worker_move (bfs.c), which the search reaches, differs"));
    assert_non_null(strstr(out, "window_target (bfs.c), which the search reaches, differs"));
    assert_null(strstr(out, "rc=0"));
}

/* check-search-code.sh: 892b2ac -> 45401d2 changed space_init (the search
 * reaches it); 42a8812 -> 45401d2 changed only functions it never calls;
 * 8554736 -> 739cbcc changed nothing, and move_tables.c, which the list
 * names, exists at neither (a file absent at both is the same). */
static void test_search_code_check(void **state)
{
    (void)state;
    char out[4096];
    if (shell("git cat-file -e 892b2ac^{commit} && git cat-file -e 42a8812^{commit} && "
              "git cat-file -e 8554736^{commit} && git cat-file -e 739cbcc^{commit}",
              out, sizeof out) != 0)
        skip(); /* a shallow clone without the history */
    /* move_tables.c is absent at both: the same (it stopped the check) */
    assert_int_equal(shell("sh scripts/check-search-code.sh 8554736 739cbcc", out,
                           sizeof out), 0);
    assert_non_null(strstr(out, "every file identical"));
    assert_int_equal(shell("sh scripts/check-search-code.sh 892b2ac 45401d2", out,
                           sizeof out), 1);
    assert_non_null(strstr(out, "space_init (space.c), which the search reaches, differs"));
    assert_int_equal(shell("sh scripts/check-search-code.sh 42a8812 45401d2", out,
                           sizeof out), 0);
    assert_non_null(strstr(out, "search code unchanged from 42a8812"));
    assert_non_null(strstr(out, "space_contains space_reachable_tz"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histograms_published),
        cmocka_unit_test(test_antipodes_published),
        cmocka_unit_test(test_joint_marginals),
        cmocka_unit_test(test_search_code_check),
        cmocka_unit_test(test_search_code_attributes),
        cmocka_unit_test(test_results_commits_script),
        cmocka_unit_test(test_puzzle24_published),
        cmocka_unit_test(test_puzzle24_summary_script),
        cmocka_unit_test(test_results_consistency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
