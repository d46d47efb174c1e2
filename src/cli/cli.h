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
#include "slide/checkpoint.h"
#include "slide/metric.h"
#include "slide/report.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_UNSOLVABLE = 3 };

/*
 * The exit statuses of every command, defined once: `slide --help` prints
 * this table and README.md holds it verbatim (tests/test_docs_cli.c
 * compares them).  Each command's --help says which of them it uses.
 */
#define CLI_EXIT_CODES(X)                                                      \
    X(0, "success; also a bfs or frontier whose final checkpoint could not be written (the result is complete; a warning says so)") \
    X(1, "failure: out of memory or disk, a file that cannot be read or written, is corrupt or is in use, a search stopped, or a check that disagrees (bfs count, parity, heuristic claims)") \
    X(2, "bad input: options, sizes, board text, a board the database does not cover, or bad lines in a --keep-going batch") \
    X(3, "a board cannot reach the goal (solve, dist)") \
    X(130, "stopped by SIGINT (bfs with a checkpoint directory saves a checkpoint first)") \
    X(143, "stopped by SIGTERM (as SIGINT)")

/*
 * --summary FILE of bfs, frontier and heuristic (cli_summary.c): one record
 * of the figures a paper quotes, CSV for FILE.csv, JSON for FILE.json (only
 * when built with Jansson; else refused, saying so).  Columns / keys:
 *   summary (the command), board (RxC), goal, metric (stm: single-tile
 *   moves, mtm: multi-tile), boards, radius (empty / null when the search stopped early),
 *   max_depth, complete (yes/no), antipodes (boards at the radius; empty /
 *   null when incomplete), mean_distance, version, commit, command (as
 *   the provenance block's "# command:" line; JSON: under "provenance")
 * and for a heuristic sweep, per heuristic (CSV: one record each; JSON: a
 * list "heuristics"): heuristic, admissible, consistent, violations,
 * max_excess, mean_h, exact_fraction.  Every figure but the heuristics'
 * comes from hist[0..last] (boards, mean, antipodes = hist[last]).
 * cli_summary_check runs before the search (extension, Jansson, the file
 * can be written: atomic_file_check); cli_summary_write writes it whole.
 * Both return an exit status after printing why.
 */
struct sweep_stats;
struct cli_summary {
    const char *summary;               /* "bfs", "frontier", "heuristic" */
    const struct board *goal;
    const uint64_t *hist;              /* boards per distance, 0..last */
    int last;
    int complete;                      /* last is the radius */
    const char *command;               /* cli_command_line's */
    const struct sweep_stats *stats;   /* nstats heuristics, or NULL */
    int nstats;
    enum metric metric;                /* what hist counts in (0: METRIC_STM) */
};
int cli_summary_check(const char *path);
int cli_summary_write(const char *path, const struct cli_summary *s);

/*
 * "did you mean": the edit distance of a and b (insertions, deletions,
 * substitutions, transpositions of neighbours; words over 32 characters
 * count as far), and the name of names[0..count-1] nearest to word when it
 * is at most 1 edit away (2 for a word of 5 or more characters), else NULL
 * (cli_suggest.c).
 */
int cli_edit_distance(const char *a, const char *b);
const char *cli_suggest(const char *word, const char *const *names, size_t count);

/*
 * Every message on stderr goes through these: the text is formatted, then
 * written with each control byte (0x00-0x1f, 0x7f; a final newline aside)
 * as \xNN, so input or a file name echoed in a message never reaches the
 * terminal as an escape sequence.
 */
/* Print "slide: <message>" on stderr; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "slide: <message>" on stderr (a warning, a note, progress). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the text on stderr as it is formatted, control bytes escaped but a
 * final newline (progress lines with a prefix of their own, "pdb: "). */
void cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "slide: <err>" for a library error and return EXIT_USAGE for input
 * errors (SLIDE_EINVAL, SLIDE_ERANGE) or EXIT_FAIL for the rest. */
int cli_fail_lib(int rc, const slide_error *err);

/*
 * The option layer: one rule for every command.
 *
 * A command declares its options in one table of struct cli_option (ended
 * by a zeroed entry) and reads them with cli_parse_next; the layer enforces,
 * for all commands alike:
 *   - long options are written in full: "--thr" and "--h" are unknown
 *     options (with a hint naming the option they begin), so no
 *     abbreviation ever reaches --help;
 *   - "--name value", "--name=value", "-x value", "-xvalue", clusters of
 *     short flags ("-ph"), and "--" ending the options;
 *   - a word "-" or "-" followed by a digit ("-1x3") is an argument, not an
 *     option, so the command's own parser names the real problem;
 *   - an option given twice is an error (options that are one setting,
 *     like --progress and --no-progress, name each other in `same`);
 *   - an option that the request does not use is refused, naming what uses
 *     it: the command computes the contexts that are active (bits it
 *     defines: "--save given", "action is verify", "--method ida") and
 *     calls cli_parse_unused, which refuses every given option whose `uses`
 *     has none of them, with its `used_with` text.
 * Every refusal is one line naming the option and "see slide CMD --help",
 * exit status EXIT_USAGE.
 *
 * A new command (slide pdb, slide serve, slide frontier, ...):
 *
 *   enum { CTX_SAVE = 1 };
 *   static const struct cli_option opts[] = {
 *       {"threads", 't', CLI_VALUE, 't', 0, NULL, NULL},
 *       {"save", 0, CLI_VALUE, 'S', 0, NULL, NULL},
 *       {"level", 0, CLI_VALUE, 'L', CTX_SAVE, "--save FILE", NULL},
 *       {"progress", 0, CLI_FLAG, 'p', 0, NULL, NULL},
 *       {"no-progress", 0, CLI_FLAG, 'P', 0, NULL, "progress"},
 *       {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
 *       {0}};
 *   static int take(int id, const char *value, void *ctx)   // one option
 *   {
 *       struct pdb_args *a = ctx;
 *       switch (id) {
 *       case 't': return cli_threads(value, &a->threads) ? EXIT_USAGE : EXIT_OK;
 *       ...
 *       }
 *   }
 *   struct cli_parse p;
 *   cli_parse_init(&p, "pdb", opts, argc, argv);
 *   int rc = cli_parse_options(&p, help, take, a);  // -1: help shown
 *   if (rc) return rc;
 *   if (cli_parse_unused(&p, a->save ? CTX_SAVE : 0, NULL)) return EXIT_USAGE;
 *   // the arguments that are not options, in order: p.args[0 .. p.nargs-1]
 */
enum cli_arg { CLI_FLAG = 0, CLI_VALUE = 1 };

/*
 * Deprecated: the error report for a command still parsed by getopt_long
 * (opterr 0, set by main), which abbreviates options and accepts them
 * twice.  Kept only so that a command written before the option layer
 * builds; convert it to struct cli_option (above) instead.
 */
int cli_bad_option(const char *cmd, int argc, char **argv, const char *shortopts,
                   const struct option *longopts)
    __attribute__((deprecated("declare the options as struct cli_option (cli.h)")));
enum { CLI_END = -1, CLI_ERROR = -2 };
#define CLI_MAX_OPTIONS 48

struct cli_option {
    const char *name;      /* long name without "--", matched in full only */
    char letter;           /* short name (-x), 0 for none */
    enum cli_arg arg;      /* CLI_FLAG or CLI_VALUE */
    int id;                /* returned by cli_parse_next (>= 0) */
    unsigned uses;         /* 0: used by every request; else the contexts using it */
    const char *used_with; /* for uses != 0: what uses it ("--save FILE", "db info") */
    const char *same;      /* the option this one is the same setting as, or NULL */
};

struct cli_parse {
    const char *cmd;                /* the command's name, for messages */
    const struct cli_option *opts;
    int argc;
    char **argv;                    /* argv[0] is the command's name */
    int next;                       /* the next word to read */
    const char *cluster;            /* the rest of a cluster of short options */
    int ended;                      /* "--" was read */
    const char *value;              /* the value of the option just returned */
    char **args;                    /* the non-option words, in order (in argv) */
    int nargs;
    char given[CLI_MAX_OPTIONS];    /* per option: 'l' given as --name, 's' as -x, 0 not */
};

/* Start reading argv[1..argc-1] for command cmd (argv is permuted). */
void cli_parse_init(struct cli_parse *p, const char *cmd, const struct cli_option *opts,
                    int argc, char **argv);

/* The next option's id (its value in p->value), CLI_END after the last, or
 * CLI_ERROR after printing why (exit with EXIT_USAGE). */
int cli_parse_next(struct cli_parse *p);

/*
 * Read every option: an option with id 'h' prints help (cli_help) when help
 * is not NULL; every other goes to take(id, value, ctx), which returns
 * EXIT_OK or EXIT_USAGE (after printing).  Returns EXIT_OK, EXIT_USAGE, or
 * -1 after the help was printed (exit EXIT_OK).
 */
typedef int (*cli_take_fn)(int id, const char *value, void *ctx);
int cli_parse_options(struct cli_parse *p, const char *help, cli_take_fn take, void *ctx);

/* 1 if the option with this id was given. */
int cli_parse_given(const struct cli_parse *p, int id);

/* A command's subcommand word: EXIT_OK when it is one of allowed (names
 * separated by ", "), else EXIT_USAGE after "unknown CMD subcommand 'W'
 * (allowed: ...)". */
int cli_subcommand(const char *cmd, const char *word, const char *allowed);

/* Refuse (print, return EXIT_USAGE) the first given option whose uses has
 * no bit of active: "option --level is used only with db recompress, not
 * with db verify" (now: what the request is, NULL to leave that out);
 * EXIT_OK when every given option is used. */
int cli_parse_unused(const struct cli_parse *p, unsigned active, const char *now);

/* Print a command's --help text: -1 (the caller exits EXIT_OK), or
 * EXIT_FAIL when standard output cannot take it (printed). */
int cli_help(const char *text);

/* Print a library error about the file path once: err's message as it is
 * when it names path, else "path: message"; returns code. */
int cli_fail_file(int code, const char *path, const slide_error *err);

/*
 * Numbers in option values: one parser for every option of every command
 * (cli_number.c).  A whole number is an optional sign and decimal digits,
 * nothing else (no spaces, no suffix); a value outside the range, or past
 * 64 bits, is refused, never clamped.  The printing forms write one line
 * naming the option, the range and the value given ("--max-nodes expects
 * a whole number from 1 to 9223372036854775807, not \"99...\"") and return
 * -1 (the caller exits EXIT_USAGE); they return 0 with *out set otherwise.
 */
enum { CLI_NUM_SYNTAX = -1, CLI_NUM_RANGE = -2 };

/* text as a whole number in [lo, hi] into *out, printing nothing: 0,
 * CLI_NUM_SYNTAX (not a number), CLI_NUM_RANGE (outside). */
int cli_parse_whole(const char *text, long long lo, long long hi, long long *out);

/* An integer option value in [lo, hi]. */
int cli_int(const char *option, const char *text, long lo, long hi, long *out);

/* An unsigned 64-bit value, 0 to 2^64-1, decimal or 0x hex (seeds). */
int cli_u64(const char *option, const char *text, uint64_t *out);

/* A decimal value in [lo, hi] ((lo, hi] when above); expects is the
 * allowed range in words, for the message ("a number of seconds above 0
 * and at most 3600"). */
int cli_real(const char *option, const char *text, double lo, double hi, int above,
             const char *expects, double *out);

/* Parse --format's value (text, csv, md, tex); prints and returns -1 on error. */
int cli_format(const char *text, enum report_format *out);

/* Parse --threads (1..1024); prints and returns -1 on error. */
int cli_threads(const char *text, int *out);

/* Parse --metric (stm, mtm: metric.h); prints a one-line error naming what
 * is allowed and returns -1 on error. */
int cli_metric(const char *text, enum metric *out);

/*
 * Load the distance database in path for a command counting moves of
 * metric `asked` (its --metric): the header is read and its metric checked
 * before the payload is loaded.  Returns EXIT_OK, or prints one line and
 * returns EXIT_FAIL (an unreadable or bad file) or EXIT_USAGE (a file of
 * the other metric: the line names both); db is freed on failure.
 */
struct db;
int cli_load_db(const char *path, int threads, enum metric asked, struct db *db);

/*
 * The histogram table on stdout: columns distance, count, cumulative (CSV:
 * distance, count), one row per distance 0..radius of hist.
 */
void cli_histogram(enum report_format format, int rows, int cols, const uint64_t *hist,
                   int radius);

/* --max-memory: a byte count (cli_bytes); one more than MemAvailable is
 * kept but said on stderr, since the smaller figure is what applies. */
int cli_max_memory(const char *text, uint64_t *out);

/* Parse a byte count (a positive whole number) with an optional K, M, G or T
 * suffix (powers of 1024), at most 2^64-1 bytes (cli_number.c). */
int cli_bytes(const char *option, const char *text, uint64_t *out);

/*
 * Board text read from standard input ("-") or a file ("@FILE") is read
 * line by line within these limits, each refusal one line naming the
 * input and the limit, exit status EXIT_USAGE (reading or memory failing:
 * EXIT_FAIL, "out of memory reading ...").
 *   CLI_TEXT_MAX   bytes of one board's text, and of one line, each line
 *                  counted with its newline (one ends the last line when it
 *                  has none), for every command alike: a 1000x1000 board
 *                  (BOARD_MAX_SIDE) written with single spaces takes
 *                  6.9 MB, so any spacing up to twice that fits;
 *   CLI_INPUT_MAX  bytes of one input: about ten million boards of 3x4
 *                  for solve or dist, one per line.
 * A NUL byte is refused wherever it stands (it would end the text).
 */
#define CLI_TEXT_MAX ((size_t)16 << 20)
#define CLI_INPUT_MAX ((size_t)256 << 20)

/*
 * The one BOARD of command cmd: argv[0] (argc must be 1), "-" for
 * standard input or "@FILE" (cli_read_text).  rows/cols (0 = infer) as for
 * board_parse.  Returns 0, or the exit status after printing the error
 * (several words: "takes one BOARD (got N); quote it ...").
 */
int cli_board(const char *cmd, int argc, char **argv, int rows, int cols, struct board *b);

/*
 * The text an argument names, for BOARD and --goal, into *out (malloc'd):
 * "-" is standard input (readable once in a process: a second "-" is
 * refused), "@FILE" the whole of FILE (a regular file), anything else the
 * argument itself; a text read is at most CLI_TEXT_MAX bytes.  what ("the
 * board", "the goal") names it in messages.  Returns EXIT_OK, or the exit
 * status after printing why (*out NULL).
 */
int cli_read_text(const char *arg, const char *what, char **out);

/*
 * Call fn on each line of "-" (standard input) or "@FILE", in order:
 * line is NUL-terminated without its newline (len bytes, at most
 * CLI_TEXT_MAX, no NUL inside), number counts from 1; fn returns EXIT_OK
 * to go on or an exit status to stop (returned).  The input may hold at
 * most CLI_INPUT_MAX bytes.  Returns EXIT_OK at the end, or the status of
 * the refusal (printed here) or of fn.
 */
typedef int (*cli_line_fn)(char *line, size_t len, long number, void *ctx);
int cli_read_lines(const char *arg, const char *what, cli_line_fn fn, void *ctx);

/* The refusal of a batch ("-" or "@FILE") without a board, the same for
 * every command: "standard input holds no board (only blank lines and #
 * comments)", exit status EXIT_USAGE (returned). */
int cli_no_boards(const char *arg);

/* One board's text gathered from lines (cli_read_lines), joined by
 * newlines: text (malloc'd, NUL-terminated) of len bytes, at most
 * CLI_TEXT_MAX.  what and where name it ("the board", "standard input");
 * hint (or NULL) ends the refusal. */
struct cli_text {
    char *text;
    size_t len, cap;
    const char *what, *where, *hint;
};

/* Append a line; EXIT_OK, or the status of the refusal (printed). */
int cli_text_add(struct cli_text *t, const char *line, size_t len);

/* Lines kept apart, one after another in buf: line i is buf + off[i]
 * (NUL-terminated), read as line number[i]. */
struct cli_lines {
    char *buf;
    size_t len, cap;
    size_t *off;
    long *number;
    long count, cap_lines;
};

/* Keep a line (len bytes); EXIT_OK or EXIT_FAIL (out of memory, printed). */
int cli_lines_add(struct cli_lines *l, const char *line, size_t len, long number);
void cli_lines_free(struct cli_lines *l);

/* The goal: text (may be NULL for the standard goal; "-" and "@FILE" as
 * cli_read_text) of size rows x cols.  Returns 0 or the exit status
 * (printed). */
int cli_goal(const char *text, int rows, int cols, struct board *goal);


/* Print text to stdout, then check that stdout was written (disk full). */
int cli_finish_stdout(void);

/* "slide NAME ARG..." into buf, for provenance blocks, each ARG quoted for
 * a POSIX shell where it needs it ('1 2 3/4 5 6/7 8 0', 'it'\''s'), so
 * that the line pasted into sh runs the same command; call it before the
 * option layer permutes argv.  A line that does not fit len is cut at an
 * argument and ends " ..." (then it cannot be pasted back). */
void cli_command_line(const char *name, int argc, char **argv, char *buf,
                      size_t len);

/* The provenance prefix for a table format: "# " (text, csv), "% " (tex),
 * "> " (md). */
const char *cli_provenance_prefix(int format);

/* 1 if progress lines should go to stderr: a TTY, or forced by flag. */
int cli_progress_wanted(int flag);

/*
 * --resume DIR with parts of the search left out: what was not given
 * (sized = 0: the size; kind_given = 0: the space; *goal == NULL: the goal,
 * taken only when the size is the checkpoint's) comes from info, the goal
 * text copied into buf (len bytes).  What was given is kept, so that the
 * checkpoint's loader refuses a contradiction naming both.
 */
void cli_resume_fill(const struct checkpoint_info *info, int sized, int kind_given,
                     int *rows, int *cols, enum space_kind *kind, const char **goal,
                     char *buf, size_t len);

/*
 * After the verdict or the answer for board b: one line on stderr, "slide:
 * hint: ...", when another reading of the input would be likelier meant.
 * When b cannot reach goal but another reading can (parity_hint: the
 * blank-first goal of Korf's convention or the standard one; for one_line,
 * a board read from one row of cells without --size, the rectangle of its
 * cells), the line names what to write: the options --size and --goal
 * (CLI_HINT_OPTIONS; goal_given: --goal was given), or, where the goal
 * comes from a file (dist's database, pdb's tables), a file built for that
 * goal (CLI_HINT_FILES).  With CLI_HINT_OPTIONS, a one_line board whose
 * cells form a rectangle (board_rectangle) gets "add --size RxC" whatever
 * its verdict.  At most one line per process.
 */
enum cli_hint_to { CLI_HINT_OPTIONS, CLI_HINT_FILES };
void cli_board_hint(const struct board *b, const struct board *goal, int one_line,
                    int goal_given, enum cli_hint_to how);

/* slide bfs --mpi (cmd_bfs_mpi.c in the MPI build; otherwise a one-line
 * refusal naming what to install). */
int cmd_bfs_mpi(int argc, char **argv);

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
    X(pdb, "build, inspect and verify pattern databases (additive or plain)") \
    X(frontier, "the first layers of RxC up to 34 cells (4x4, 5x5) by frontier search") \
    X(serve, "the board in a web page: play, check, solve and chart, with a JSON API")

#define CLI_DECLARE(name, summary) int cmd_##name(int argc, char **argv);
CLI_COMMANDS(CLI_DECLARE)
#undef CLI_DECLARE

#endif
