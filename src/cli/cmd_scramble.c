/*
 * cmd_scramble.c - `slide scramble RxC`: random solvable boards or random
 * walks from the goal, reproducible from a seed.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "slide/scramble.h"

static const char help[] =
    "usage: slide scramble RxC [--count N] [--walk K] [--seed S] [--goal G]\n"
    "Examples:\n"
    "  slide scramble 4x4 --seed 1               # a random solvable 15-puzzle\n"
    "  slide scramble 3x3 --walk 20 --count 5    # five random walks of 20 moves\n"
    "Print random boards of an R x C puzzle (sides 1..1000), one per line.\n"
    "Without --walk every board is drawn uniformly from the (RC)!/2 boards that\n"
    "can reach the goal: a uniformly random arrangement, and, when it fails the\n"
    "parity criterion, the tiles on its first two non-blank cells swapped (a\n"
    "one-to-one map onto the solvable boards).  On a 1-row or 1-column board\n"
    "only the n boards with the tiles in goal order are solvable; one of them is\n"
    "drawn.\n"
    "  --count N   boards to print (default 1)\n"
    "  --walk K    instead, walk K random blank moves from the goal, never\n"
    "              undoing the move before (unless it is the only move); the\n"
    "              board's distance from the goal is <= K and has K's parity\n"
    "  --seed S    the seed (0..2^64-1, decimal or 0x hex).  The same seed, size,\n"
    "              goal and options print the same boards on every machine\n"
    "              (xoshiro256** seeded by SplitMix64).  Without --seed a seed is\n"
    "              taken from the clock and printed on stderr.\n"
    "  --goal G    the goal board (default 1..n-1 in reading order, blank last)\n"
    "Output: N lines, each a board in slide's syntax: rows separated by '/',\n"
    "cells by spaces, the blank 0 (\"4 1 3/7 2 6/0 5 8\").  The lines can be\n"
    "given to `slide solve -`.\n"
    "Exit status: 0 done, 1 output failed, 2 bad arguments.\n";

struct scramble_args {
    int rows, cols;
    long count;
    long walk;      /* -1: uniform draws */
    uint64_t seed;
    int seeded;
    const char *goal_text;
};

static int parse_seed(const char *text, uint64_t *seed)
{
    return cli_u64("--seed", text, seed) ? EXIT_USAGE : 0;
}

static const struct cli_option scramble_options[] = {
    {"count", 'n', CLI_VALUE, 'n', 0, NULL, NULL},
    {"walk", 'w', CLI_VALUE, 'w', 0, NULL, NULL},
    {"seed", 's', CLI_VALUE, 's', 0, NULL, NULL},
    {"goal", 'g', CLI_VALUE, 'g', 0, NULL, NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int parse_args(int argc, char **argv, struct scramble_args *a)
{
    struct cli_parse p;
    slide_error err;
    memset(a, 0, sizeof *a);
    a->count = 1;
    a->walk = -1;
    cli_parse_init(&p, "scramble", scramble_options, argc, argv);
    for (int c; (c = cli_parse_next(&p)) != CLI_END;) {
        switch (c) {
        case CLI_ERROR: return EXIT_USAGE;
        case 'n':
            if (cli_int("--count", p.value, 0, LONG_MAX, &a->count))
                return EXIT_USAGE;
            break;
        case 'w':
            if (cli_int("--walk", p.value, 0, LONG_MAX, &a->walk))
                return EXIT_USAGE;
            break;
        case 's':
            if (parse_seed(p.value, &a->seed))
                return EXIT_USAGE;
            a->seeded = 1;
            break;
        case 'g': a->goal_text = p.value; break;
        case 'h': return cli_help(help);
        }
    }
    if (p.nargs != 1)
        return cli_fail(EXIT_USAGE, "slide scramble takes one board size such as 4x4 "
                                    "(see --help)");
    if (board_parse_dims(p.args[0], &a->rows, &a->cols, &err))
        return cli_fail(EXIT_USAGE, "%s", err.msg);
    return EXIT_OK;
}

/* A seed from the clock and the process id, for runs without --seed. */
static uint64_t clock_seed(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t x = (uint64_t)t.tv_sec * 1000000007ULL ^ (uint64_t)t.tv_nsec ^
                 ((uint64_t)getpid() << 32);
    return rng_splitmix64(&x);
}

static int print_boards(const struct scramble_args *a, const struct board *goal)
{
    struct rng r;
    struct board b;
    slide_error err;
    int rc = board_alloc(&b, a->rows, a->cols, &err);
    if (rc)
        return cli_fail_lib(rc, &err);
    /* Every arrangement formats to the same length: the same numbers. */
    size_t len = board_format(goal, NULL, 0) + 1;
    char *line = malloc(len);
    if (!line) {
        board_free(&b);
        return cli_fail(EXIT_FAIL, "out of memory for a %dx%d board", a->rows, a->cols);
    }
    rng_seed(&r, a->seed);
    for (long i = 0; i < a->count && !rc; i++) {
        rc = a->walk >= 0 ? scramble_walk(&r, goal, (uint64_t)a->walk, &b, &err)
                          : scramble_uniform(&r, goal, &b, &err);
        if (!rc) {
            board_format(&b, line, len);
            if (puts(line) == EOF)
                break; /* reported by cli_finish_stdout */
        }
    }
    free(line);
    board_free(&b);
    if (rc)
        return cli_fail_lib(rc, &err);
    return cli_finish_stdout();
}

int cmd_scramble(int argc, char **argv)
{
    struct scramble_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!a.seeded) {
        a.seed = clock_seed();
        fprintf(stderr, "slide: seed %" PRIu64 " (give --seed %" PRIu64
                " to draw the same boards again)\n", a.seed, a.seed);
    }
    struct board goal = {0};
    if ((rc = cli_goal(a.goal_text, a.rows, a.cols, &goal)))
        return rc;
    rc = print_boards(&a, &goal);
    board_free(&goal);
    return rc;
}
