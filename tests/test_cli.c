/*
 * test_cli.c - the slide command as a user runs it: outputs, error messages
 * and exit codes.  The binary comes from the SLIDE environment variable.
 */
#include "testutil.h"

#include <sys/wait.h>

static char out[1 << 16];

/* Run `slide ARGS` through the shell; stdout+stderr into out; exit status. */
static int slide(const char *args, int merge_stderr)
{
    const char *bin = getenv("SLIDE");
    char cmd[1024];
    if (!bin)
        fail_msg("SLIDE is not set (run through make test)");
    snprintf(cmd, sizeof cmd, "%s %s%s", bin, args, merge_stderr ? " 2>&1" : " 2>/dev/null");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(const char *args, int status, const char *text)
{
    int got = slide(args, 1);
    if (got != status || !strstr(out, text))
        fail_msg("slide %s: exit %d (want %d), output:\n%s\nwanted: %s", args, got,
                 status, out, text);
}

/*
 * One number parser for every option (issue 39 item 4): every option that
 * takes a number, in every command, refuses a value past 64 bits, one
 * with a space before it, one with letters after it, and NaN, with exit 2
 * and one line naming the option ("slide: --max-nodes expects ...").  At
 * b66e30a `serve --max-nodes 99999999999999999999999` was clamped to
 * 2^63-1 and the server started (here --bind 256.0.0.0 makes such a start
 * fail at once, naming the address instead).
 */
static void test_number_options(void **state)
{
    (void)state;
    static const char *const opts[] = {
        "bfs 2x3 --threads", "bfs 2x3 --encoding", "bfs 2x3 --level",
        "bfs 2x3 --antipodes", "bfs 2x3 --max-memory", "bfs 2x3 --checkpoint-every",
        "db recompress a.db b.db --level", "db verify a.db --threads",
        "dist --db a.db --threads", "frontier 3x3 --max-depth", "frontier 3x3 --threads",
        "frontier 3x3 --max-memory", "frontier 3x3 --max-disk", "frontier 3x3 --buffer",
        "heuristic 3x3 --threads", "heuristic 3x3 --max-memory", "parity 2x3 --threads",
        "parity 2x3 --max-memory", "pdb stats 3x3 --samples", "pdb stats 3x3 --seed",
        "pdb predict 3x3 --length", "pdb build 3x3 --level", "pdb build 3x3 --max-memory",
        "pdb build 3x3 --checkpoint-every", "pdb build 3x3 --threads",
        "scramble 3x3 --count", "scramble 3x3 --walk", "scramble 3x3 --seed",
        "serve --bind 256.0.0.0 --port", "serve --bind 256.0.0.0 --threads",
        "serve --bind 256.0.0.0 --max-nodes", "serve --bind 256.0.0.0 --max-seconds",
        "solve 1/2/0 --size 3x1 --max-nodes",
        "solve 1/2/0 --size 3x1 --method bibfs --max-states", "solve - --threads"};
    static const char *const values[] = {"99999999999999999999999", "' 5'", "5x", "nan"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++) {
            char args[256], want[64];
            const char *opt = strstr(opts[i], " --");
            const char *last = opt;
            while ((opt = strstr(opt + 1, " --")))
                last = opt;
            snprintf(want, sizeof want, "slide:%s expects ", last);
            snprintf(args, sizeof args, "%s %s </dev/null", opts[i], values[j]);
            expect(args, 2, want);
            if (strchr(out, '\n') != out + strlen(out) - 1)
                fail_msg("slide %s: more than one line:\n%s", args, out);
        }
}

static void test_bfs_csv(void **state)
{
    (void)state;
    uint64_t pub[64];
    int len = published_histogram(3, 3, "corner", pub, 64);
    assert_int_equal(len, 32);
    assert_int_equal(slide("bfs 3x3 --format csv --threads 2", 0), 0);
    char *p = out;
    assert_memory_equal(p, "distance,count\n", 15);
    p += 15;
    for (int d = 0; d < len; d++) {
        int dd;
        unsigned long long c;
        int used;
        assert_int_equal(sscanf(p, "%d,%llu\n%n", &dd, &c, &used), 2);
        assert_int_equal(dd, d);
        assert_true(c == pub[d]);
        p += used;
    }
    assert_string_equal(p, ""); /* nothing else on stdout */
}

static void test_bfs_text(void **state)
{
    (void)state;
    expect("bfs 3x3", 0, "boards reached: 181440; expected (RC)!/2 = 181440: ok");
    assert_non_null(strstr(out, "radius: 31\n"));
    assert_non_null(strstr(out, "antipodes: 2\n  6 4 7/8 5 0/3 2 1\n  8 6 7/2 5 4/3 0 1\n"));
    expect("bfs 1x5", 0, "boards reached: 5; expected n (a path) = 5: ok");
    assert_non_null(strstr(out, "radius: 4\n"));
    expect("bfs 2x3 --space full --format md", 0, "| 21 | 1 | 360 |");
    expect("bfs 2x3 --format tex", 0, "\\toprule");
    expect("bfs 2x3 --goal '0 1 2/3 4 5'", 0, "radius: 21");
    expect("bfs 3x3 --progress", 0, "slide: distance 31: 2 boards");
}

static void test_bfs_errors(void **state)
{
    (void)state;
    expect("bfs 5x5", 2, "slide: a 5x5 board has 25 cells; ranking and search need at most 20 cells");
    expect("bfs 3x4 --max-memory 1M", 1, "needs 59875200 bytes");
    assert_non_null(strstr(out, "1048576 bytes"));
    expect("bfs 3y3", 2, "is not of the form RxC");
    expect("bfs", 2, "one board size");
    expect("bfs 3x3 --threads 0", 2, "--threads expects a whole number from 1 to 1024");
    expect("bfs 3x3 --format xml", 2, "--format must be text, csv, md or tex");
    expect("bfs 3x3 --space half", 2, "--space must be compact or full");
    expect("bfs 3x3 --goal '1 2 3/4 5 6/7 8 8'", 2, "goal: tile 8 appears twice");
    expect("bfs 2x2 --goal '1 2 3/4 5 6/7 8 0'", 2, "board has 9 cells, a 2x2 board needs 4");
    expect("frobnicate", 2, "unknown command \"frobnicate\"");
    /* build/slide has no MPI: --mpi points at the MPI build, in one line
     * (test_hints_cli: the exact lines with and without one beside it) */
    expect("bfs 3x3 --mpi", 2, "slide-mpi bfs");
    assert_non_null(strchr(out, '\n'));
    assert_string_equal(strchr(out, '\n'), "\n"); /* one line */
    expect("bfs --resume ''", 1, "slide: the checkpoint directory name is empty");
    expect("bfs 2x3 --checkpoint ''", 1, "slide: the checkpoint directory name is empty");
}

/* Option errors: one line each, slide's prefix, the command's --help. */
static void test_option_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"bfs -3x3", "slide: board size \"-3x3\" is not of the form RxC (e.g. 3x3)\n"},
        {"bfs 3x3 --frobnicate", "slide: unknown option --frobnicate (see slide bfs --help)\n"},
        {"bfs 3x3 --threads", "slide: option --threads needs a value (see slide bfs --help)\n"},
        {"bfs 3x3 -t", "slide: option -t needs a value (see slide bfs --help)\n"},
        {"bfs 3x3 --progress=yes", "slide: option --progress takes no value (see slide bfs --help)\n"},
        {"solve -q 1,2,3,4,5,6,7,8,0", "slide: unknown option -q (see slide solve --help)\n"},
        {"dist --db", "slide: option --db needs a value (see slide dist --help)\n"},
        {"scramble 3x3 --nope", "slide: unknown option --nope (see slide scramble --help)\n"},
        /* long options are written in full: an abbreviation is unknown and
         * the hint names what it begins; none reaches --help */
        {"bfs 2x3 --prog=1", "slide: unknown option --prog; long options are written in "
                             "full: did you mean --progress? (see slide bfs --help)\n"},
        {"bfs 2x3 --thr", "slide: unknown option --thr; long options are written in full: "
                          "did you mean --threads? (see slide bfs --help)\n"},
        {"bfs 2x3 --pro", "slide: unknown option --pro; long options are written in full: "
                          "did you mean --progress or --provenance? (see slide bfs --help)\n"},
        {"bfs 2x3 --h lc", "slide: unknown option --h; long options are written in full: "
                           "did you mean --help? (see slide bfs --help)\n"},
        {"bfs 2x3 --he", "slide: unknown option --he; long options are written in full: "
                         "did you mean --help? (see slide bfs --help)\n"},
        {"bfs --progress -3x3", "slide: board size \"-3x3\" is not of the form RxC (e.g. 3x3)\n"},
        {"bfs 2x3 --=x", "slide: unknown option --=x (see slide bfs --help)\n"},
        /* an option given twice, or with its opposite */
        {"bfs 2x3 -t 2 --threads 3", "slide: option --threads is given twice; give it once "
                                     "(see slide bfs --help)\n"},
        {"bfs 2x3 --progress --no-progress", "slide: options --progress and --no-progress set "
                                             "the same thing; give one (see slide bfs --help)\n"},
        {"heuristic 2x3 --h lc --heuristic wd", "slide: options --h and --heuristic set the "
                                                "same thing; give one (see slide heuristic --help)\n"},
        /* an option that the request does not use names what uses it */
        {"bfs 2x3 --encoding 2", "slide: option --encoding is used only with --save FILE "
                                 "(see slide bfs --help)\n"},
        {"bfs 2x3 --level 3", "slide: option --level is used only with --save FILE "
                              "(see slide bfs --help)\n"},
        {"db verify x.db --level 3", "slide: option --level is used only with db recompress, "
                                     "not with db verify (see slide db --help)\n"},
        {"db info x.db --threads 2", "slide: option --threads is used only with db verify or "
                                     "db recompress, not with db info (see slide db --help)\n"},
        {"db recompress x.db y.db --format csv", "slide: option --format is used only with "
                                                 "db info, not with db recompress (see slide db --help)\n"},
        {"solve --method layers --progress 1,2,3/4,5,6/7,8,0", "slide: option --progress is "
         "used only with --method ida, not with --method layers (see slide solve --help)\n"},
        {"solve --threads 4 1,2,3/4,5,6/7,0,8", "slide: option --threads is used only with "
         "BOARD - or @FILE (several boards), not with one BOARD (see slide solve --help)\n"},
        {"solve --threads 4 --method layers 1,2,3/4,5,6/7,0,8", "slide: option --threads is "
         "used only with BOARD - or @FILE (several boards), not with one BOARD (see slide "
         "solve --help)\n"},
        {"bfs 2x3 --checkpoint-every 3", "slide: option --checkpoint-every is used only with "
                                         "--checkpoint DIR or --resume DIR (see slide bfs --help)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = slide(cases[i][0], 1);
        if (got != 2 || strcmp(out, cases[i][1]) != 0)
            fail_msg("slide %s: exit %d, output \"%s\", wanted exit 2 and \"%s\"",
                     cases[i][0], got, out, cases[i][1]);
    }
}

static void test_solvable(void **state)
{
    (void)state;
    expect("solvable '1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0'", 0, "unsolvable: width 4 is even");
    expect("solvable '1 2 3/4 5 6/8 7 0'", 0, "unsolvable: width 3 is odd");
    expect("solvable '1 2 3/4 5 6/7 0 8'", 0, "solvable: width 3 is odd");
    /* several words are several boards, never one joined board */
    expect("solvable \"1 2 3\" \"4 5 6\" \"7 8 0\"", 2,
           "slide: solvable takes one BOARD (got 3); quote it, or use - to read it from "
           "standard input");
    expect("solve A B", 2, "slide: solve takes one BOARD (got 2); quote it, or use - to "
           "read several");
    expect("solvable --goal '0 1 2/3 4 5' '1 0 2/3 4 5'", 0, "solvable");
    expect("solvable '2 1 0'", 0, "unsolvable: a 1x3 board is a path");
    expect("solvable --size 2x2 '1 2 3 0'", 0, "solvable");
    expect("solvable '1 2 3/4 5 6/7 8 5'", 2, "slide: tile 5 appears twice");
    expect("solvable '1 2 3/4 5 6 0/7 8'", 2, "slide: row 2 has 4 cells but row 1 has 3");
    expect("solvable '1 2 3/4 5 6/7 12 0'", 2,
           "slide: tile 12 is out of range for a 3x3 board (1..8)");
    expect("solvable", 2, "no board given");
    expect("solvable --goal '1 2/3 0' '1 2 3/4 5 6/7 8 0'", 2, "goal: board has 4 cells");
}

static void test_help_version(void **state)
{
    (void)state;
    expect("--help", 0, "commands:");
    expect("--version", 0, "slide ");
    expect("bfs --help", 0, "Output (text)");
    expect("solvable --help", 0, "width even");
}

/* Every command's --help starts with its usage lines, then "Examples:" and
 * two command lines of that command (or building its input: slide bfs for
 * dist), each within 79 columns; the commands come from slide --help. */
static void test_help_examples(void **state)
{
    (void)state;
    static char list[sizeof out];
    assert_int_equal(slide("--help", 0), 0);
    snprintf(list, sizeof list, "%s", out);
    int commands = 0;
    for (char *line = strstr(list, "commands:\n"); line && (line = strchr(line, '\n'));) {
        char name[32], args[64];
        line++;
        if (sscanf(line, "  %31[a-z] ", name) != 1 || line[2] == ' ')
            break;
        snprintf(args, sizeof args, "%s --help", name);
        assert_int_equal(slide(args, 0), 0);
        char *p = out;
        while (*p && (!strncmp(p, "usage:", 6) || *p == ' ')) /* the usage lines */
            p = strchr(p, '\n') + 1;
        if (strncmp(p, "Examples:\n", 10))
            fail_msg("slide %s: no \"Examples:\" after the usage lines:\n%.300s", args, p);
        p += 10;
        for (int k = 0; k < 2; k++) {
            size_t len = strcspn(p, "\n");
            if (strncmp(p, "  slide ", 8) || len > 79)
                fail_msg("slide %s: example %d is not '  slide ...' within 79 columns: %.*s",
                         args, k + 1, (int)len, p);
            p += len + 1;
        }
        assert_true(*p != ' '); /* two, then the text */
        commands++;
    }
    assert_true(commands >= 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_csv),    cmocka_unit_test(test_bfs_text),
        cmocka_unit_test(test_bfs_errors), cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_solvable),
        cmocka_unit_test(test_help_version),
        cmocka_unit_test(test_help_examples),
        cmocka_unit_test(test_number_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
