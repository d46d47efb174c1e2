/*
 * cli.h - helpers shared by the subcommands of the slide tool (internal).
 *
 * Only the command-line layer prints and chooses exit codes; every message
 * is one line on stderr, "slide: " then what was wrong and what is allowed.
 */
#ifndef SLIDE_CLI_H
#define SLIDE_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "slide/board.h"
#include "slide/report.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_UNSOLVABLE = 3 };

/* Print "slide: <message>" on stderr; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "slide: <err>" for a library error and return EXIT_USAGE for input
 * errors (SLIDE_EINVAL, SLIDE_ERANGE) or EXIT_FAIL for the rest. */
int cli_fail_lib(int rc, const slide_error *err);

/*
 * After getopt_long returned '?' (opterr is 0, set by main): one line naming
 * the unknown option, the option that needs a value or the one that takes
 * none, and the command's --help; returns EXIT_USAGE.  cmd is the command's
 * name, shortopts and longopts what was given to getopt_long.
 */
int cli_bad_option(const char *cmd, int argc, char **argv, const char *shortopts,
                   const struct option *longopts);

/* Parse an integer option value in [lo, hi]; prints and returns -1 on error. */
int cli_int(const char *option, const char *text, long lo, long hi, long *out);

/* Parse --format's value (text, csv, md, tex); prints and returns -1 on error. */
int cli_format(const char *text, enum report_format *out);

/* Parse --threads (1..1024); prints and returns -1 on error. */
int cli_threads(const char *text, int *out);

/*
 * The histogram table on stdout: columns distance, count, cumulative (CSV:
 * distance, count), one row per distance 0..radius of hist.
 */
void cli_histogram(enum report_format format, int rows, int cols, const uint64_t *hist,
                   int radius);

/* Parse a byte count with an optional K, M, G or T suffix (powers of 1024). */
int cli_bytes(const char *option, const char *text, uint64_t *out);

/*
 * The board named by argv[0..argc-1]: the words joined by spaces, or "-" for
 * standard input.  rows/cols (0 = infer) as for board_parse.  Prints the
 * error and returns non-zero on failure.
 */
int cli_board(int argc, char **argv, int rows, int cols, struct board *b);

/* The goal: text (may be NULL for the standard goal) of size rows x cols. */
int cli_goal(const char *text, int rows, int cols, struct board *goal);

/* Read all of a stream into a NUL-terminated buffer (NULL on failure). */
char *cli_slurp(FILE *in);

/* Print text to stdout, then check that stdout was written (disk full). */
int cli_finish_stdout(void);

/* "slide NAME ARG..." into buf, for provenance blocks; call it before
 * getopt_long permutes argv. */
void cli_command_line(const char *name, int argc, char **argv, char *buf,
                      size_t len);

/* The provenance prefix for a table format: "# " (text, csv), "% " (tex),
 * "> " (md). */
const char *cli_provenance_prefix(int format);

/* 1 if progress lines should go to stderr: a TTY, or forced by flag. */
int cli_progress_wanted(int flag);

/* The subcommands (one file each: src/cmd_NAME.c). */
#define CLI_COMMANDS(X)                                                        \
    X(bfs, "enumerate every board of RxC by two-bit BFS: histogram, radius, antipodes") \
    X(solvable, "say whether a board can reach the goal, with the parity invariant") \
    X(solve, "solve a board: optimal (IDA*, bidirectional BFS) or layer by layer (any size)") \
    X(scramble, "random solvable boards or random walks, reproducible from a seed") \
    X(parity, "check the parity criterion against a BFS on every arrangement of RxC") \
    X(dist, "exact distances and optimal paths of boards from a distance database") \
    X(db, "inspect (info), check (verify) or recompress a distance database file") \
    X(heuristic, "check heuristics against the exact distance of every board of RxC") \
    X(frontier, "the first layers of RxC up to 34 cells (4x4, 5x5) by frontier search")

#define CLI_DECLARE(name, summary) int cmd_##name(int argc, char **argv);
CLI_COMMANDS(CLI_DECLARE)
#undef CLI_DECLARE

#endif
