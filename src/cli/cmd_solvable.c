/*
 * cmd_solvable.c - `slide solvable BOARD [--goal G]`: the parity verdict.
 */
#include <stdlib.h>

#include "cli.h"
#include "slide/parity.h"

static const char help[] =
    "usage: slide solvable [--goal G] [--size RxC] BOARD\n"
    "Examples:\n"
    "  slide solvable '8 6 7/2 5 4/3 0 1'    # solvable, and the numbers why\n"
    "  slide solvable '1 2 3/4 5 6/8 7 0'    # two tiles swapped: unsolvable\n"
    "Decide whether BOARD can reach the goal, without search, from the parity\n"
    "invariant: N = inversions of the tiles (in the goal's tile order), and for\n"
    "an even width also the rows between the blank and the goal's blank.\n"
    "  width odd:  solvable iff N is even\n"
    "  width even: solvable iff N + rows apart is even\n"
    "  1-row or 1-column boards: solvable iff the tiles are in goal order.\n"
    "BOARD: rows separated by / or newlines, cells by spaces or commas, blank\n"
    "0, _ or . (\"1 2 3/4 5 6/8 7 0\"); - reads it from standard input, @FILE\n"
    "from FILE (at most 16 MiB of text, no NUL byte: exit 2 otherwise).\n"
    "  --goal G     the goal board (default: 1..n-1 in reading order, blank last)\n"
    "  --size RxC   the dimensions, when BOARD is one flat list of cells\n"
    "Output: one line on stdout, \"solvable: ...\" or \"unsolvable: ...\" and\n"
    "the numbers behind the verdict.  Exit status 0 for either verdict.\n";

static const struct cli_option solvable_options[] = {
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"size", 's', CLI_VALUE, 's', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

int cmd_solvable(int argc, char **argv)
{
    struct cli_parse p;
    const char *goal_text = NULL;
    int rows = 0, cols = 0;
    slide_error err;
    cli_parse_init(&p, "solvable", solvable_options, argc, argv);
    for (int c; (c = cli_parse_next(&p)) != CLI_END;) {
        switch (c) {
        case CLI_ERROR: return EXIT_USAGE;
        case 'g': goal_text = p.value; break;
        case 's':
            if (board_parse_dims(p.value, &rows, &cols, &err))
                return cli_fail(EXIT_USAGE, "--size: %s", err.msg);
            break;
        case 'h': return cli_help(help) < 0 ? EXIT_OK : EXIT_FAIL;
        }
    }
    struct board b = {0}, goal = {0};
    int rc = cli_board("solvable", p.nargs, p.args, rows, cols, &b);
    if (rc)
        return rc;
    if ((rc = cli_goal(goal_text, b.rows, b.cols, &goal))) {
        board_free(&b);
        return rc;
    }
    struct parity_report r;
    rc = parity_check(&b, &goal, &r, &err);
    if (!rc)
        cli_board_hint(&b, &goal, rows == 0, goal_text != NULL, CLI_HINT_OPTIONS);
    board_free(&b);
    board_free(&goal);
    if (rc)
        return cli_fail_lib(rc, &err);
    char line[1024];
    parity_explain(&r, line, sizeof line);
    puts(line);
    return cli_finish_stdout();
}
