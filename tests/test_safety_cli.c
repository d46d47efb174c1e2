/*
 * test_safety_cli.c - inputs that are not regular files, and messages and
 * exit statuses that tell the truth, through the binary named by $SLIDE.
 * Every run goes through timeout(1): a command that blocks on a FIFO fails
 * the test with status 124 (137 when it ignored SIGTERM) instead of hanging it.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "clitest.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-safety-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "%s bfs 2x2 --save %s/22.db >/dev/null 2>&1", getenv("SLIDE"),
             dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

/* `timeout 20 $SLIDE 2>&1 args` (stderr reaches the pipe even when args
 * redirect stdout), "@" in args replaced by the scratch directory ("@@" by
 * '@' and the directory); output
 * into out (at most len bytes); returns the exit status. */
static int run(const char *args, char *out, size_t len)
{
    char expanded[1024], cmd[1400];
    size_t k = 0;
    for (const char *p = args; *p && k + sizeof dir < sizeof expanded; p++)
        if (p[0] == '@' && p[1] == '@') /* "@@": a literal '@' before the directory */
            expanded[k++] = '@';
        else
            k += *p == '@' ? (size_t)snprintf(expanded + k, sizeof expanded - k, "%s", dir)
                           : (size_t)(expanded[k] = *p, 1);
    expanded[k] = '\0';
    snprintf(cmd, sizeof cmd, "timeout -k 5 20 %s 2>&1 %s", getenv("SLIDE"), expanded);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(const char *args, int status, const char *text)
{
    char out[8192];
    int got = run(args, out, sizeof out);
    if (got != status || !strstr(out, text))
        fail_msg("slide %s: exit %d (want %d), output:\n%s\nwanted: %s", args, got, status,
                 out, text);
}

/* A FIFO (and a device, a directory) where a database or a checkpoint
 * state is read: refused at once, one line naming what it is. */
static void test_inputs_not_regular(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/f", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/cp", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/cp/state", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    static const char *const cmds[] = {
        "db info @/f", "db verify @/f", "dist --db @/f 1,2/3,0", "solve --db @/f 1,2/3,0",
        "db recompress @/f @/out.db", "pdb info @/f", "pdb verify @/f",
        "solve --h pdb:@/f 1,2/3,0", "solve --h 'max(lc,pdb:@/f)' 1,2/3,0"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        expect(cmds[i], 1, "/f is a FIFO, not a regular file");
    expect("db info /dev/null", 1, "slide: /dev/null is a character device, not a regular file");
    expect("dist --db @ 1,2/3,0", 1, "is a directory, not a regular file");
    expect("bfs --resume @/cp", 1, "/cp/state is a FIFO, not a regular file");
    expect("bfs 2x2 --resume @/cp", 1, "/cp/state is a FIFO, not a regular file");
}

/* The precious file: exit 1, one line naming it and the kind, left as it was. */
static void expect_kept(const char *args, const char *kind)
{
    char out[4096], want[256], path[128];
    snprintf(path, sizeof path, "%s/precious.txt", dir);
    int got = run(args, out, sizeof out);
    snprintf(want, sizeof want, "it exists and is not %s; slide replaces only its own files "
             "of that kind; remove it or choose another name\n", kind);
    if (got != 1 || !strstr(out, want) || clitest_count_lines(out) != 1)
        fail_msg("slide %s: exit %d, output:\n%s\nwanted: %s", args, got, out, want);
    size_t len;
    char *text = test_read_file(path, &len);
    assert_string_equal(text, "precious\n");
    free(text);
}

/* Every output replaces an existing file only when it is slide's file of
 * the same kind; another file (a user's, or a slide file of another kind)
 * is refused before any work and left as it was. */
static void test_outputs_not_ours(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/precious.txt", dir);
    test_write_file(path, "precious\n", 9);
    expect_kept("bfs 2x2 --save @/precious.txt", "a slide distance database");
    expect_kept("bfs 2x2 --antipodes-file @/precious.txt", "a slide antipode list");
    expect_kept("heuristic 2x3 --h lc --joint @/precious.txt", "a slide joint table");
    expect_kept("db recompress @/22.db @/precious.txt", "a slide distance database");
    expect_kept("pdb build 2x3 --pattern 1,2 -o @/precious.txt", "a slide pattern database");
    /* the same kind is replaced, again and again */
    static const char *const again[] = {
        "bfs 2x2 --save @/22.db", "db recompress @/22.db @/22b.db",
        "db recompress @/22.db @/22b.db", "bfs 2x2 --antipodes-file @/a.txt",
        "bfs 2x2 --antipodes-file @/a.txt --provenance",
        "bfs 2x2 --antipodes-file @/a.txt", "heuristic 2x3 --h lc --joint @/j.csv",
        "heuristic 2x3 --h lc --joint @/j.csv --provenance",
        "heuristic 2x3 --h lc --joint @/j.csv", "pdb build 2x3 --pattern 1,2 -o @/p.pdb",
        "pdb build 2x3 --pattern 1,2 -o @/p.pdb"};
    for (size_t i = 0; i < sizeof again / sizeof again[0]; i++)
        expect(again[i], 0, "");
    /* a slide file of another kind is not replaced either */
    static const struct { const char *args, *says; } cross[] = {
        {"bfs 2x2 --save @/p.pdb", "p.pdb: it exists and is not a slide distance database"},
        {"pdb build 2x3 --pattern 1,2 -o @/22.db", "22.db: it exists and is not a slide "
                                                   "pattern database"},
        {"bfs 2x2 --antipodes-file @/j.csv", "j.csv: it exists and is not a slide antipode "
                                             "list"},
        {"heuristic 2x3 --h lc --joint @/a.txt", "a.txt: it exists and is not a slide joint "
                                                 "table"},
        {"db recompress @/22.db @/a.txt", "a.txt: it exists and is not a slide distance "
                                          "database"},
    };
    for (size_t i = 0; i < sizeof cross / sizeof cross[0]; i++)
        expect(cross[i].args, 1, cross[i].says);
    unlink(path);
}

/* pdb build --partition -o DIR: a symbolic link (even to a directory) or a
 * file is refused, and so is a foreign file where a table goes, all before
 * the first table is built. */
static void test_partition_dir(void **state)
{
    (void)state;
    char real[128], link[128], path[160];
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(link, sizeof link, "%s/plink", dir);
    assert_int_equal(mkdir(real, 0755), 0);
    assert_int_equal(symlink(real, link), 0);
    expect("pdb build 4x4 --partition 5-5-5 -o @/plink", 1,
           "/plink: it is a symbolic link; --partition writes into a directory (not a link "
           "to one)");
    expect("pdb build 4x4 --partition 5-5-5 -o @/plink/", 1,
           "/plink: it is a symbolic link; --partition writes into a directory");
    expect("pdb build 4x4 --partition 5-5-5 -o @/22.db", 1,
           "/22.db: it is a regular file; --partition writes into a directory");
    snprintf(path, sizeof path, "%s/5-5-5.2.pdb", real);
    test_write_file(path, "mine\n", 5);
    expect("pdb build 4x4 --partition 5-5-5 --progress -o @/real", 1,
           "5-5-5.2.pdb: it exists and is not a slide pattern database");
    char out[4096];
    run("pdb build 4x4 --partition 5-5-5 --progress -o @/real", out, sizeof out);
    assert_null(strstr(out, "pdb: cost")); /* refused before the first build */
    snprintf(path, sizeof path, "%s/5-5-5.1.pdb", real);
    assert_int_equal(access(path, F_OK), -1);
    unlink(link);
}

/* A path is named once; the real problem is named. */
static void test_messages(void **state)
{
    (void)state;
    char out[4096];
    assert_int_equal(run("db info @/nonexist.db", out, sizeof out), 1);
    char want[256];
    snprintf(want, sizeof want, "slide: cannot open %s/nonexist.db: No such file or "
             "directory\n", dir);
    assert_string_equal(out, want);
    assert_int_equal(run("dist --db nonexist.db 1,2/3,0", out, sizeof out), 1);
    assert_string_equal(out, "slide: cannot open nonexist.db: No such file or directory\n");
    expect("heuristic 3x3 --h lc --joint .", 1, "cannot write .: it is a directory");
    expect("heuristic 3x3 --h lc --joint ''", 1, "cannot write a file with an empty name");
    /* a limit above what the machine has is said, not silently lowered */
    expect("bfs 2x2 --max-memory 1000T --format csv", 0,
           "slide: warning: --max-memory 1000T is more than the");
    /* numbers quoted as given, factorials that do not wrap */
    expect("solvable '1 2 3/4 5 6/7 8 2147483647'", 2, "tile 2147483647 is out of range");
    expect("parity 5x5", 2, "25! > 2^64");
    expect("parity 1000x1000", 2, "1000000! > 2^64");
    expect("parity 1x12", 2, "only 12 of its 12! = 479001600 arrangements are reachable");
    expect("solvable 5", 2, "a 1x1 board has no tiles, only the blank");
    /* 1x1: singulars */
    expect("bfs 1x1", 0, "compact space of 1 index (8 bytes at 2 bits)");
    expect("parity 1x1", 0, "all 1 arrangement (full space)");
    expect("parity 1x1", 0, "only n = 1 arrangement can be reachable");
}

/* --help and --version check that standard output took them, like every
 * other command; the tex provenance prefix that parity --help documents is
 * the one its output uses. */
static void test_help_output(void **state)
{
    (void)state;
    expect("--help >/dev/full", 1, "writing standard output failed");
    expect("--version >/dev/full", 1, "writing standard output failed");
    expect("bfs --help >/dev/full", 1, "writing standard output failed");
    expect("db --help >/dev/full", 1, "writing standard output failed");
    char help[16384], out[4096];
    assert_int_equal(run("parity --help", help, sizeof help), 0);
    char *p = strstr(help, " for tex");
    assert_non_null(p);
    /* the quoted prefix just before " for tex" */
    char *close = p - 1, *open = close - 1;
    assert_int_equal(*close, '"');
    while (open > help && *open != '"')
        open--;
    char prefix[8];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(close - open - 1), open + 1);
    assert_int_equal(run("parity 2x2 --format tex --provenance", out, sizeof out), 0);
    if (strncmp(out, prefix, strlen(prefix)) != 0 || out[strlen(prefix)] != 's')
        fail_msg("parity --help documents tex prefix \"%s\", the output starts \"%.20s\"",
                 prefix, out);
}

/* Write text to the scratch file name (in dir). */
static void scratch_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    test_write_file(path, text, strlen(text));
}

/* Reading many boards: comments everywhere, --keep-going, one numbering
 * ("line N") for solve and dist, no partial table on a refusal. */
static void test_many_boards(void **state)
{
    (void)state;
    char out[8192];
    scratch_file("one.txt", "# my board\n1 2 3\n4 5 6\n7 0 8\n");
    expect("solve --count - < @/one.txt", 0, "1\n");
    scratch_file("list.txt", "# boards\n1 2/0 3\n\n1 2/3 0 0\n0 1/3 2\n");
    /* strict: refused before anything is printed, naming the line */
    assert_int_equal(run("solve --count - < @/list.txt", out, sizeof out), 2);
    assert_string_equal(out, "slide: line 4: row 2 has 3 cells but row 1 has 2\n");
    assert_int_equal(run("solve --format csv - < @/list.txt", out, sizeof out), 2);
    assert_string_equal(out, "slide: line 4: row 2 has 3 cells but row 1 has 2\n");
    assert_int_equal(run("dist --db @/22.db --format md - < @/list.txt", out, sizeof out), 2);
    assert_string_equal(out, "slide: line 4: row 2 has 3 cells but row 1 has 2\n");
    /* --keep-going: the same line reported, the others done, exit 2 */
    assert_int_equal(run("solve --count --keep-going - < @/list.txt", out, sizeof out), 2);
    assert_non_null(strstr(out, "slide: line 4: row 2 has 3 cells but row 1 has 2\n"));
    assert_int_equal(run("solve --count --keep-going - < @/list.txt 2>/dev/null", out,
                         sizeof out), 2);
    assert_string_equal(out, "1\n2\n"); /* by hand: L; R then D */
    assert_int_equal(run("dist --db @/22.db --format csv --keep-going - < @/list.txt", out,
                         sizeof out), 2);
    assert_non_null(strstr(out, "slide: line 4: row 2 has 3 cells but row 1 has 2\n"));
    assert_non_null(strstr(out, "board,distance\n1 2/0 3,1\n0 1/3 2,2\n"));
    /* a size header, and empty cells or rows */
    scratch_file("princeton.txt", "3\n1 2 3\n4 5 6\n7 8 0\n");
    expect("solve - < @/princeton.txt", 2,
           "slide: a first line with a single number looks like a size header; remove it "
           "or use --size");
    expect("solvable 1,,2/3,0", 2, "empty cell in row 1 after 1 cell");
    expect("solvable '3//4'", 2, "empty row 2");
}

/* --goal @FILE and --goal -, for goals past the argument length limit:
 * a 200x200 goal (a shifted blank) and a board one move from it. */
static void test_goal_from_file(void **state)
{
    (void)state;
    int n = 200;
    size_t cap = (size_t)n * n * 7 + 16;
    char *goal = malloc(cap), *board = malloc(cap);
    size_t g = 0, b = 0;
    for (int k = 0; k < n * n; k++) {
        /* goal: blank first, then 1..n*n-1; board: blank and tile 1 swapped */
        int gv = k, bv = k == 0 ? 1 : k == 1 ? 0 : k;
        char sep = k == 0 ? '\0' : k % n == 0 ? '/' : ' ';
        if (sep) {
            goal[g++] = sep;
            board[b++] = sep;
        }
        g += (size_t)snprintf(goal + g, cap - g, "%d", gv);
        b += (size_t)snprintf(board + b, cap - b, "%d", bv);
    }
    goal[g] = board[b] = '\0';
    scratch_file("goal200.txt", goal);
    scratch_file("board200.txt", board);
    expect("solvable --goal @@/goal200.txt @@/board200.txt", 0, "solvable");
    expect("solve --method layers --count --goal @@/goal200.txt @@/board200.txt", 0, "\n");
    expect("solve --method layers --count --goal - @@/board200.txt < @/goal200.txt", 0, "\n");
    expect("solve --goal - - < @/goal200.txt", 2, "standard input is read once");
    expect("solvable --goal @@/nonexist.txt '1 2/3 0'", 2, "cannot open");
    free(goal);
    free(board);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_not_regular),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_outputs_not_ours),
        cmocka_unit_test(test_partition_dir),
        cmocka_unit_test(test_help_output),
        cmocka_unit_test(test_many_boards),
        cmocka_unit_test(test_goal_from_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
