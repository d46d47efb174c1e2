/*
 * cli_hint.c - the line after a board that cannot reach its goal, when
 * another reading of the same input can (parity_hint): a board copied from
 * a source that puts the blank first (Korf's instances), or a one-line list
 * of cells meant as a rectangle.  The line names the options to write.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slide/parity.h"

/* Longest goal text written out in a hint; a bigger goal is described. */
#define HINT_GOAL_TEXT 160

/* The goal of kind for rows x cols as --goal's value (quoted for a
 * shell), or a description when it is too long to be worth copying. */
static void goal_words(int rows, int cols, enum parity_goal_kind kind, char *buf, size_t len)
{
    struct board g = {0};
    slide_error err;
    char text[HINT_GOAL_TEXT + 1];
    int n = rows * cols;
    if (board_alloc(&g, rows, cols, &err) == SLIDE_OK) {
        for (int k = 0; k < n; k++)
            g.cells[k] = kind == PARITY_GOAL_BLANK_FIRST ? k : (k + 1) % n;
        if (board_format(&g, text, sizeof text) < sizeof text) {
            snprintf(buf, len, "'%s'", text);
            board_free(&g);
            return;
        }
    }
    board_free(&g);
    snprintf(buf, len, "%s", kind == PARITY_GOAL_BLANK_FIRST
                                 ? "\"0 1 2 ...\" (0 to n-1 in reading order, rows separated by /)"
                                 : "\"1 2 ... 0\" (1 to n-1 in reading order, then the blank)");
}

static const char *goal_name(enum parity_goal_kind kind)
{
    return kind == PARITY_GOAL_BLANK_FIRST ? "the blank-first goal of Korf's convention"
                                           : "the standard goal (blank last)";
}

/* What to write for the reading h of b: the options, or a file's goal. */
static void what_to_do(const struct board *b, const struct parity_hint *h, int goal_given,
                       enum cli_hint_to how, char *buf, size_t len)
{
    char words[HINT_GOAL_TEXT + 96], size[32] = "";
    int standard = h->goal == PARITY_GOAL_STANDARD;
    goal_words(h->rows, h->cols, h->goal, words, sizeof words);
    if (how == CLI_HINT_FILES) { /* the file's shape is the board's: only the goal differs */
        snprintf(buf, len, "a file built for that goal answers it (slide bfs %dx%d %s%s%s"
                 "--save FILE; slide pdb build likewise)", h->rows, h->cols,
                 standard ? "" : "--goal ", standard ? "" : words, standard ? "" : " ");
        return;
    }
    if (h->rows != b->rows || h->cols != b->cols)
        snprintf(size, sizeof size, "--size %dx%d", h->rows, h->cols);
    if (!standard)
        snprintf(buf, len, "add %s%s--goal %s", size, size[0] ? " " : "", words);
    else if (size[0])
        snprintf(buf, len, "add %s%s", size, goal_given ? " and leave out --goal" : "");
    else
        snprintf(buf, len, "leave out --goal");
}

void cli_board_hint(const struct board *b, const struct board *goal, int one_line,
                    int goal_given, enum cli_hint_to how)
{
    static int hinted; /* once per process: a batch of boards gets one line */
    struct parity_report r;
    struct parity_hint h;
    slide_error err;
    int rows, cols;
    if (hinted || parity_check(b, goal, &r, &err) ||
        parity_hint(b, goal, one_line, &h, &err))
        return;
    if (r.solvable || !h.found) { /* only the shape may be worth a word */
        if (one_line && b->rows == 1 && how == CLI_HINT_OPTIONS &&
            board_rectangle(board_cells(b), &rows, &cols)) {
            hinted = 1;
            cli_fail(0, "hint: the cells were read as one row (%dx%d), a path; for a %dx%d "
                        "board add --size %dx%d", b->rows, b->cols, rows, cols, rows, cols);
        }
        return;
    }
    hinted = 1;
    char todo[2 * HINT_GOAL_TEXT + 256];
    what_to_do(b, &h, goal_given, how, todo, sizeof todo);
    if (h.rows != b->rows || h.cols != b->cols)
        cli_fail(0, "hint: the cells were read as one row (%dx%d); as %dx%d they can reach "
                    "%s: %s", b->rows, b->cols, h.rows, h.cols, goal_name(h.goal), todo);
    else
        cli_fail(0, "hint: this board cannot reach %s but can reach %s: %s",
                 goal_name(h.goal == PARITY_GOAL_STANDARD ? PARITY_GOAL_BLANK_FIRST
                                                          : PARITY_GOAL_STANDARD),
                 goal_name(h.goal), todo);
}
