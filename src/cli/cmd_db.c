/*
 * cmd_db.c - `slide db info|verify FILE`: what a distance database holds,
 * and whether every part of it checks out.
 */
#include <inttypes.h>
#include <omp.h>
#include <string.h>

#include "cli.h"
#include "slide/atomic_file.h"
#include "slide/db.h"
#include "slide/report.h"

static const char help[] =
    "usage: slide db info FILE [--format text|csv|md|tex]\n"
    "       slide db verify FILE [--threads N]\n"
    "       slide db recompress FILE OUT [--level N | --uncompressed] [--threads N]\n"
    "Examples:\n"
    "  slide db info 3x3.db      # board, goal, metric, encoding, histogram\n"
    "  slide db verify 3x3.db    # every CRC and every board's moves\n"
    "info: the header of a distance database (written by slide bfs --save)\n"
    "without reading the payload: board, goal, metric (stm or mtm; a format 1\n"
    "file is stm), space, encoding, sizes,\n"
    "checksums, zlib level, the version that wrote it, and the histogram.\n"
    "  The file is one gzip stream: `zcat FILE` writes the raw payload (db.h\n"
    "  describes it) and `tail -c +$((OFFSET + 1)) FILE | zcat` the payload from\n"
    "  the block at OFFSET on (the first block's offset is shown).  A file\n"
    "  written --uncompressed holds the payload as it is from that offset on\n"
    "  (`tail -c +$((OFFSET + 1)) FILE`), and says so.\n"
    "  Output (text): lines 'key: value', then the table 'distance count\n"
    "  cumulative'.  With --format csv stdout holds exactly the table (header\n"
    "  distance,count); the other lines go to standard error.\n"
    "verify: read everything and check it: the header checksum and fields,\n"
    "the file size, every block's length and CRC-32, the payload CRC-32, and\n"
    "then a local check of every index with no search, by the moves of the\n"
    "file's metric: the goal holds distance 0, every other reachable board\n"
    "has a neighbour one move closer and none differing by other than one\n"
    "(mod 4 for encoding 1, mod 3 for 2, exactly for 8; in mtm a neighbour\n"
    "may also hold the same distance), unreachable indexes and padding hold\n"
    "the empty value, and the boards per value match the histogram.  For\n"
    "encoding 8 this proves every distance; for 1 and 2 it proves local\n"
    "consistency.\n"
    "  Output: one line 'ok: ...' with the counts; otherwise the first\n"
    "  problem found on standard error.\n"
    "  --threads N   threads (default: all cores); the verdict does not depend on N\n"
    "recompress: load FILE (with every check of verify but the local one) and\n"
    "write it again as OUT at zlib level N (default 1; 9 for encoding 8), via\n"
    "a temporary beside OUT; an existing OUT must be a distance database (or\n"
    "empty).  The payload and the histogram are copied unchanged.\n"
    "  --uncompressed  write the payload as it is (format version 3, not\n"
    "                  gzip; Python's slide.Database maps it in place)\n"
    "  Output: one line on standard error with the size and the time.\n"
    "Exit status: 0 ok, 1 the file is unreadable, corrupt or inconsistent,\n"
    "2 bad arguments.\n";

struct db_args {
    const char *action, *file, *out;
    enum report_format format;
    int threads;
    int level;
    int uncompressed;
};

/* Contexts that use an option (cli.h): the action. */
enum { USE_INFO = 1, USE_VERIFY = 2, USE_RECOMPRESS = 4 };

static const struct cli_option db_options[] = {
    {"format", 'f', CLI_VALUE, 'f', USE_INFO, "db info", NULL},
    {"threads", 't', CLI_VALUE, 't', USE_VERIFY | USE_RECOMPRESS,
     "db verify or db recompress", NULL},
    {"level", 'l', CLI_VALUE, 'l', USE_RECOMPRESS, "db recompress", NULL},
    {"uncompressed", 0, CLI_FLAG, 'U', USE_RECOMPRESS, "db recompress", NULL},
    {"help", 'h', CLI_FLAG, 'h', 0, NULL, NULL},
    {0, 0, 0, 0, 0, NULL, NULL}};

static int take_option(int c, const char *v, void *ctx)
{
    struct db_args *a = ctx;
    long n;
    switch (c) {
    case 'f': return cli_format(v, &a->format) ? EXIT_USAGE : EXIT_OK;
    case 't': return cli_threads(v, &a->threads) ? EXIT_USAGE : EXIT_OK;
    case 'l':
        if (cli_int("--level", v, 0, 9, &n))
            return EXIT_USAGE;
        a->level = (int)n;
        return EXIT_OK;
    case 'U': a->uncompressed = 1; return EXIT_OK;
    }
    return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct db_args *a)
{
    struct cli_parse p;
    memset(a, 0, sizeof *a);
    a->level = -1;
    cli_parse_init(&p, "db", db_options, argc, argv);
    int rc = cli_parse_options(&p, help, take_option, a);
    if (rc)
        return rc;
    int args = p.nargs;
    a->action = args > 0 ? p.args[0] : "";
    int info = !strcmp(a->action, "info"), verify = !strcmp(a->action, "verify"),
        recompress = !strcmp(a->action, "recompress");
    if (args > 0 && cli_subcommand("db", a->action, "info, verify, recompress"))
        return EXIT_USAGE;
    if (!((args == 2 && (info || verify)) || (args == 3 && recompress)))
        return cli_fail(EXIT_USAGE, "usage: slide db info|verify FILE, or slide db "
                                    "recompress FILE OUT (see slide db --help)");
    unsigned active = info ? USE_INFO : verify ? USE_VERIFY : USE_RECOMPRESS;
    char now[32];
    snprintf(now, sizeof now, "db %s", a->action);
    if (cli_parse_unused(&p, active, now))
        return EXIT_USAGE;
    if (a->uncompressed && a->level >= 0)
        return cli_fail(EXIT_USAGE, "--uncompressed stores the payload as it is: it takes "
                        "no --level");
    if (a->uncompressed)
        a->level = DB_LEVEL_STORED;
    a->file = p.args[1];
    a->out = args == 3 ? p.args[2] : NULL;
    return EXIT_OK;
}

static void print_header(FILE *out, const char *pre, const char *file, const struct db *db)
{
    char goal[256];
    board_format(&db->goal, goal, sizeof goal);
    int stored = db->level == DB_LEVEL_STORED;
    char level[32];
    snprintf(level, sizeof level, stored ? "uncompressed" : "zlib level %d", db->level);
    fprintf(out, "%sfile: %s, %" PRIu64 " bytes, %.4f bytes per board, %s\n", pre, file,
            db->file_bytes, (double)db->file_bytes / (double)db->indexes, level);
    fprintf(out, "%sformat: version %u, written by slide %s\n", pre, db->version,
            db->tool_version[0] ? db->tool_version : "(unknown)");
    fprintf(out, "%sboard: %dx%d, goal %s\n", pre, db->rows, db->cols, goal);
    fprintf(out, "%smetric: %s (%s moves)\n", pre, metric_name(db->metric),
            metric_long_name(db->metric));
    fprintf(out, "%sspace: %s, %" PRIu64 " indexes, %" PRIu64 " reachable boards\n", pre,
            space_kind_name(db->kind), db->indexes, db->reachable);
    fprintf(out, "%sencoding: %d, %s\n", pre, db->encoding, db_encoding_name(db->encoding));
    fprintf(out, "%spayload: %" PRIu64 " bytes, CRC-32 %08x, %u block%s of up to %" PRIu64
            " bytes, compressed to %.1f%%\n", pre, db->payload_bytes, db->payload_crc,
            db->nblocks, db->nblocks == 1 ? "" : "s", db->block_bytes,
            100.0 * (double)db->file_bytes / (double)db->payload_bytes);
    fprintf(out, "%sradius: %d, antipodes: %" PRIu64 "\n", pre, db->radius,
            db->hist[db->radius]);
    if (stored)
        fprintf(out, "%sstored: the payload starts at byte %" PRIu64 " (tail -c +%" PRIu64
                " FILE writes it all)\n", pre, db->blocks[0].offset, db->blocks[0].offset + 1);
    else
        fprintf(out, "%sgzip: the payload starts at byte %" PRIu64
                " (zcat FILE writes it all)\n", pre, db->blocks[0].offset);
}

static int info(const struct db_args *a)
{
    struct db db;
    slide_error err;
    if (db_open(a->file, &db, &err))
        return cli_fail_file(EXIT_FAIL, a->file, &err);
    FILE *out = a->format == REPORT_CSV ? stderr : stdout;
    const char *pre = a->format == REPORT_TEX ? "% " : a->format == REPORT_MD ? "- " : "";
    print_header(out, pre, a->file, &db);
    if (a->format == REPORT_MD)
        fputc('\n', stdout);
    cli_histogram(a->format, db.rows, db.cols, db.hist, db.radius);
    db_free(&db);
    return cli_finish_stdout();
}

static int verify(const struct db_args *a)
{
    struct db db;
    struct db_verify_report rep;
    slide_error err;
    double t0 = omp_get_wtime();
    if (db_load(a->file, a->threads, &db, &err))
        return cli_fail_file(EXIT_FAIL, a->file, &err);
    double t1 = omp_get_wtime();
    int rc = db_verify(&db, a->threads, &rep, &err);
    double t2 = omp_get_wtime();
    db_free(&db);
    if (rc)
        return cli_fail_file(EXIT_FAIL, a->file, &err);
    printf("ok: %s: checksums and sizes agree; %" PRIu64 " reachable boards and %" PRIu64
           " other indexes pass the local check (load %.3f s, check %.3f s)\n", a->file,
           rep.checked, rep.unreachable, t1 - t0, t2 - t1);
    return cli_finish_stdout();
}

static int recompress(const struct db_args *a)
{
    struct db db;
    slide_error err;
    uint64_t bytes = 0;
    double t0 = omp_get_wtime();
    if (atomic_file_check(a->out, &db_file_kind, &err)) /* before the load, which may be long */
        return cli_fail_lib(SLIDE_EIO, &err);
    if (db_load(a->file, a->threads, &db, &err))
        return cli_fail_file(EXIT_FAIL, a->file, &err);
    double t1 = omp_get_wtime();
    struct db_save_options o = {0, a->level, a->threads, 0};
    int rc = db_write(a->out, &db, &o, &bytes, &err);
    double t2 = omp_get_wtime();
    uint64_t indexes = db.indexes;
    db_free(&db);
    if (rc)
        return cli_fail_lib(rc, &err);
    cli_note("wrote %s: %" PRIu64 " bytes, %.4f bytes per board (load %.3f s, "
            "compress and write %.3f s)\n", a->out, bytes, (double)bytes / (double)indexes,
            t1 - t0, t2 - t1);
    return EXIT_OK;
}

int cmd_db(int argc, char **argv)
{
    struct db_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!strcmp(a.action, "recompress"))
        return recompress(&a);
    return strcmp(a.action, "info") == 0 ? info(&a) : verify(&a);
}
