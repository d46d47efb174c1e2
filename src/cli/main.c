/*
 * main.c - the slide command: dispatch to a subcommand (src/cmd_*.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "slide/provenance.h"

struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

#define CLI_ENTRY(name, summary) {#name, summary, cmd_##name},
static const struct command commands[] = {CLI_COMMANDS(CLI_ENTRY)};
#undef CLI_ENTRY
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fputs("usage: slide COMMAND [OPTIONS] [ARGS]\n"
          "Exhaustive state-space enumeration of R x C sliding-tile puzzles.\n\n"
          "commands:\n", out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'slide COMMAND --help' documents a command's options and output.\n"
          "Boards are written row by row, rows separated by / or newlines, cells\n"
          "by spaces or commas, the blank as 0, _ or .: \"1 2 3/4 5 6/7 8 0\".\n"
          "The standard goal has tiles 1..n-1 in reading order and the blank last.\n"
          "A BOARD or --goal G written - is read from standard input (once), and\n"
          "@FILE from FILE: boards of any size, past the argument length limit.\n"
          "Data goes to standard output, messages and progress to standard error.\n"
          "Long options are written in full; an option given twice, or one that\n"
          "the request does not use, is refused.\n"
          "Exit status (every command):\n", out);
#define CLI_EXIT_LINE(code, text) fprintf(out, "  %-4d %s\n", code, text);
    CLI_EXIT_CODES(CLI_EXIT_LINE)
#undef CLI_EXIT_LINE
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return cli_finish_stdout(); /* a full stdout fails, as for every command */
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("slide %s (commit %s)\n%s\n", provenance_version(),
               provenance_commit(), provenance_compiler());
        return cli_finish_stdout();
    }
    opterr = 0; /* the commands report option errors themselves, in one line */
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    const char *near = cli_suggest(argv[1], names, NCOMMANDS);
    if (near)
        return cli_fail(EXIT_USAGE, "unknown command \"%s\": did you mean %s? (see slide "
                        "--help)", argv[1], near);
    return cli_fail(EXIT_USAGE, "unknown command \"%s\" (see slide --help)", argv[1]);
}
