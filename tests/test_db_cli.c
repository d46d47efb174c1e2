/*
 * test_db_cli.c - the database commands through the slide binary ($SLIDE):
 * bfs --save, dist (every 3x3 board, paths replayed), db info / verify,
 * the gzip claims (zcat gives the payload, tail -c +OFFSET | zcat a block
 * on), exit codes and messages.
 */
#include "testutil.h"

#include <sys/stat.h>

#include "clitest.h"

#include <sys/wait.h>
#include <unistd.h>

#include "slide/db.h"

static const char *slide_bin(void)
{
    const char *s = getenv("SLIDE");
    if (!s)
        fail_msg("SLIDE is not set (run through make test)");
    return s;
}

/* Run a shell command; *out (may be NULL) receives its stdout. Returns the exit status. */
static int sh(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *buf = clitest_slurp(p);
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int shf(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int shf(char **out, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return sh(cmd, out);
}

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/slide-test-dbcli-%d", (int)getpid());
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s bfs 3x3 --save %s/33.db --no-progress "
             ">/dev/null 2>%s/save.err", dir, slide_bin(), dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(dir);
}

static void test_save_and_zcat(void **state)
{
    (void)state;
    char *out;
    struct db db, small;
    slide_error err;
    char path[300], p2[300];
    snprintf(path, sizeof path, "%s/33.db", dir);
    snprintf(p2, sizeof p2, "%s/33-small-blocks.db", dir);
    assert_int_equal(shf(&out, "cat %s/save.err; ls %s", dir, dir), 0);
    assert_non_null(strstr(out, "slide: saved "));
    assert_null(strstr(out, ".tmp"));
    free(out);
    assert_int_equal(db_load(path, 1, &db, &err), 0);
    /* zcat over the whole file writes exactly the payload */
    assert_int_equal(shf(&out, "zcat %s", path), 0);
    assert_memory_equal(out, db.payload, db.payload_bytes);
    free(out);
    assert_int_equal(shf(NULL, "gzip -t %s", path), 0);
    /* with small blocks, tail -c +OFFSET | zcat streams from block k on */
    struct db_save_options o = {0, 6, 2, 4096};
    assert_int_equal(db_write(p2, &db, &o, NULL, &err), 0);
    assert_int_equal(db_open(p2, &small, &err), 0);
    assert_int_equal(small.nblocks, 6);
    for (uint32_t k = 0; k < small.nblocks; k++) {
        assert_int_equal(shf(&out, "tail -c +%llu %s | zcat", (unsigned long long)small.blocks[k].offset + 1, p2), 0);
        assert_memory_equal(out, db.payload + 4096 * k, db.payload_bytes - 4096 * k);
        free(out);
    }
    db_free(&small);
    db_free(&db);
}

/* Every 3x3 board through `slide dist --path --format csv -`. */
static void test_dist_every_board(void **state)
{
    (void)state;
    struct naive_set set;
    uint64_t hist[64];
    struct board goal, b;
    struct space s;
    slide_error err;
    char path[300], *out;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    assert_int_equal(naive_bfs(3, 3, goal.cells, hist, 64, &set), 31);
    assert_int_equal(space_init(&s, &goal, SPACE_COMPACT, &err), 0);
    assert_int_equal(board_alloc(&b, 3, 3, &err), 0);
    snprintf(path, sizeof path, "%s/boards.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# every 3x3 board\n\n", f);
    for (uint64_t i = 0; i < s.size; i++) {
        char text[64];
        space_unrank(&s, i, &b);
        board_format(&b, text, sizeof text);
        fprintf(f, "%s\n", text);
    }
    assert_int_equal(fclose(f), 0);
    board_free(&b);
    assert_int_equal(shf(&out, "%s dist --db %s/33.db --path --format csv - < %s",
                         slide_bin(), dir, path), 0);
    char *line = strtok(out, "\n");
    assert_string_equal(line, "board,distance,path");
    uint64_t rows = 0;
    while ((line = strtok(NULL, "\n")) != NULL) {
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        assert_non_null(c2);
        *c1 = *c2 = '\0';
        assert_int_equal(board_parse(line, 3, 3, &b, &err), 0);
        int d = atoi(c1 + 1), z = board_blank(&b);
        assert_int_equal(d, naive_lookup(&set, naive_pack(b.cells, 9)));
        assert_int_equal((int)strlen(c2 + 1), d);
        for (const char *m = c2 + 1; *m; m++)
            assert_int_equal(board_move(&b, &z, (enum move)move_parse(*m)), 0);
        assert_true(board_equal(&b, &goal));
        board_free(&b);
        rows++;
    }
    assert_int_equal(rows, 181440);
    free(out);
    naive_free(&set);
    board_free(&goal);
}

static void test_dist_arguments(void **state)
{
    (void)state;
    char *out;
    const char *S = slide_bin();
    assert_int_equal(shf(&out, "%s dist --db %s/33.db '8 6 7/2 5 4/3 0 1' 1,2,3,4,5,6,7,8,0 "
                         "--format csv", S, dir), 0);
    assert_string_equal(out, "board,distance\n8 6 7/2 5 4/3 0 1,31\n1 2 3/4 5 6/7 8 0,0\n");
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/33.db '1 2 3/4 5 6/8 7 0' --path "
                         "--format csv", S, dir), 3);
    assert_string_equal(out, "board,distance,path\n1 2 3/4 5 6/8 7 0,unsolvable,\n");
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/33.db 1,2,3,4,5,6,7,8,0 '1 2/3 0' 2>&1",
                         S, dir), 2);
    assert_non_null(strstr(out, "slide: board 2: board has 4 cells, a 3x3 board needs 9"));
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/33.db --goal '1 2 3/4 0 5/6 7 8' "
                         "1,2,3,4,5,6,7,8,0 2>&1", S, dir), 2);
    assert_non_null(strstr(out, "the database is for goal 1 2 3/4 5 6/7 8 0, not"));
    free(out);
    assert_int_equal(shf(&out, "%s dist 1,2,3,4,5,6,7,8,0 2>&1", S), 2);
    assert_non_null(strstr(out, "needs --db FILE"));
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/nothing.db 0,1,2 2>&1", S, dir), 1);
    assert_non_null(strstr(out, "slide: cannot open "));
    assert_non_null(strstr(out, "/nothing.db: No such file or directory"));
    assert_int_equal(clitest_count_lines(out), 1); /* the path named once */
    free(out);
}

static void test_info_and_verify(void **state)
{
    (void)state;
    char *out, expect[4096];
    uint64_t pub[64];
    const char *S = slide_bin();
    int n = published_histogram(3, 3, "corner", pub, 64);
    assert_int_equal(n, 32);
    int len = snprintf(expect, sizeof expect, "distance,count\n");
    for (int d = 0; d < n; d++)
        len += snprintf(expect + len, sizeof expect - (size_t)len, "%d,%llu\n", d,
                        (unsigned long long)pub[d]);
    assert_int_equal(shf(&out, "%s db info %s/33.db --format csv 2>/dev/null", S, dir), 0);
    assert_string_equal(out, expect);
    free(out);
    assert_int_equal(shf(&out, "%s db info %s/33.db", S, dir), 0);
    assert_non_null(strstr(out, "board: 3x3, goal 1 2 3/4 5 6/7 8 0\n"));
    assert_non_null(strstr(out, "space: compact, 181440 indexes, 181440 reachable boards\n"));
    assert_non_null(strstr(out, "encoding: 1, 1 bit per board"));
    assert_non_null(strstr(out, "radius: 31, antipodes: 2\n"));
    free(out);
    assert_int_equal(shf(&out, "%s db verify %s/33.db", S, dir), 0);
    assert_non_null(strstr(out, "ok: "));
    assert_non_null(strstr(out, "181440 reachable boards and 0 other indexes"));
    free(out);
    /* one flipped byte in the compressed payload */
    assert_int_equal(shf(NULL, "cp %s/33.db %s/bad.db && printf 'Z' | dd of=%s/bad.db bs=1 "
                         "seek=2000 conv=notrunc 2>/dev/null", dir, dir, dir), 0);
    assert_int_equal(shf(&out, "%s db verify %s/bad.db 2>&1", S, dir), 1);
    assert_non_null(strstr(out, "bad.db: block 0 "));
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/bad.db 1,2,3,4,5,6,7,8,0 2>&1", S, dir), 1);
    assert_non_null(strstr(out, "bad.db: block 0 "));
    free(out);
    assert_int_equal(shf(&out, "%s db check %s/33.db 2>&1", S, dir), 2);
    assert_string_equal(out, "slide: unknown db subcommand 'check' (allowed: info, verify, "
                             "recompress)\n");
    free(out);
    /* recompress: another level, the same payload (zcat) and a clean verify */
    assert_int_equal(shf(&out, "%s db recompress %s/33.db %s/33-9.db --level 9 2>&1", S, dir,
                         dir), 0);
    assert_non_null(strstr(out, "slide: wrote "));
    free(out);
    assert_int_equal(shf(&out, "%s db info %s/33-9.db", S, dir), 0);
    assert_non_null(strstr(out, "zlib level 9"));
    free(out);
    assert_int_equal(shf(NULL, "zcat %s/33.db > %s/a.raw && zcat %s/33-9.db | cmp -s - "
                         "%s/a.raw", dir, dir, dir, dir), 0);
    assert_int_equal(shf(NULL, "%s db verify %s/33-9.db >/dev/null", S, dir), 0);
    assert_int_equal(shf(&out, "%s db recompress %s/bad.db %s/x.db 2>&1", S, dir, dir), 1);
    assert_non_null(strstr(out, "bad.db: block 0 "));
    free(out);
}

/* --uncompressed: the stored form, the same payload as the gzip file at a
 * known offset (tail -c), answered by dist and verify; refused with --level. */
static void test_uncompressed(void **state)
{
    (void)state;
    char *out, *raw;
    const char *S = slide_bin();
    struct db z;
    slide_error err;
    char path[300];
    snprintf(path, sizeof path, "%s/33.db", dir);
    assert_int_equal(db_load(path, 1, &z, &err), 0);
    assert_int_equal(shf(NULL, "%s bfs 3x3 --save %s/33s.db --uncompressed --no-progress "
                         ">/dev/null 2>&1", S, dir), 0);
    assert_int_equal(shf(&out, "%s db info %s/33s.db", S, dir), 0);
    assert_non_null(strstr(out, "bytes per board, uncompressed\n"));
    assert_non_null(strstr(out, "format: version 3,"));
    char *at = strstr(out, "stored: the payload starts at byte ");
    assert_non_null(at);
    unsigned long long off = strtoull(at + strlen("stored: the payload starts at byte "), NULL,
                                      10);
    free(out);
    assert_int_equal(shf(&raw, "tail -c +%llu %s/33s.db", off + 1, dir), 0);
    assert_memory_equal(raw, z.payload, z.payload_bytes);
    free(raw);
    assert_int_equal(shf(&out, "%s db verify %s/33s.db", S, dir), 0);
    assert_non_null(strstr(out, "ok: "));
    free(out);
    assert_int_equal(shf(&out, "%s dist --db %s/33s.db '8 6 7/2 5 4/3 0 1'", S, dir), 0);
    assert_non_null(strstr(out, " 31\n"));
    free(out);
    /* recompress both ways gives the same files back */
    assert_int_equal(shf(NULL, "%s db recompress %s/33s.db %s/33z.db 2>/dev/null && %s db "
                         "recompress %s/33z.db %s/33s2.db --uncompressed 2>/dev/null && cmp "
                         "%s/33s.db %s/33s2.db && zcat %s/33z.db | cmp - %s/33s2.db -i 0:%llu",
                         S, dir, dir, S, dir, dir, dir, dir, dir, dir, off), 0);
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s/x.db --uncompressed --level 1 2>&1", S,
                         dir), 2);
    assert_non_null(strstr(out, "--uncompressed stores the payload as it is: it takes no "
                            "--level"));
    free(out);
    assert_int_equal(shf(&out, "%s db recompress %s/33s.db %s/x.db --uncompressed --level 1 "
                         "2>&1", S, dir, dir), 2);
    assert_non_null(strstr(out, "it takes no --level"));
    free(out);
    assert_int_equal(shf(&out, "%s bfs 2x3 --uncompressed 2>&1", S), 2);
    assert_non_null(strstr(out, "--save FILE"));
    free(out);
    db_free(&z);
}

static void test_save_options(void **state)
{
    (void)state;
    char *out;
    const char *S = slide_bin();
    assert_int_equal(shf(NULL, "%s bfs 2x3 --save %s/23.db --encoding 8 --level 9 "
                         "--no-progress >/dev/null 2>&1", S, dir), 0);
    assert_int_equal(shf(&out, "%s db info %s/23.db", S, dir), 0);
    assert_non_null(strstr(out, "encoding: 8, 1 byte per board (d)"));
    assert_non_null(strstr(out, "zlib level 9"));
    free(out);
    /* forty 2x3 boards from the byte encoding against the naive BFS, paths replayed */
    struct naive_set set;
    uint64_t hist[64];
    struct board goal, b;
    slide_error err;
    assert_int_equal(board_goal(&goal, 2, 3, &err), 0);
    assert_int_equal(naive_bfs(2, 3, goal.cells, hist, 64, &set), 21);
    assert_int_equal(shf(NULL, "%s bfs 2x3 --space full --save %s/23f.db --no-progress "
                         ">/dev/null 2>&1", S, dir), 0);
    assert_int_equal(shf(&out, "%s dist --db %s/23f.db '1 2 3/5 4 0' '1 2 3/4 0 5'", S, dir), 3);
    assert_non_null(strstr(out, "unsolvable\n"));
    assert_non_null(strstr(out, " 1\n"));
    free(out);
    /* an empty input is refused, as solve refuses it (issue 39 item 8: it
     * printed the header and exited 0 until then) */
    assert_int_equal(shf(&out, "%s dist --db %s/23.db --path --format csv - < /dev/null "
                         "2>/dev/null", S, dir), 2);
    assert_string_equal(out, "");
    free(out);
    int rows = 0;
    for (size_t i = 0; i < set.cap; i++) {
        if (!set.keys[i])
            continue;
        char text[64], *c1, *c2;
        assert_int_equal(board_alloc(&b, 2, 3, &err), 0);
        for (int k = 0; k < 6; k++)
            b.cells[k] = naive_cell(set.keys[i], k);
        board_format(&b, text, sizeof text);
        assert_int_equal(shf(&out, "%s dist --db %s/23.db '%s' --path --format csv "
                             "| tail -n 1", S, dir, text), 0);
        assert_non_null(c1 = strchr(out, ','));
        assert_non_null(c2 = strchr(c1 + 1, ','));
        assert_int_equal(atoi(c1 + 1), set.dist[i]);
        int z = board_blank(&b), d = 0;
        for (const char *m = c2 + 1; *m && *m != '\n'; m++, d++)
            assert_int_equal(board_move(&b, &z, (enum move)move_parse(*m)), 0);
        assert_int_equal(d, set.dist[i]);
        assert_true(board_equal(&b, &goal));
        board_free(&b);
        free(out);
        if (++rows == 40)
            break; /* forty processes are enough for the command line */
    }
    naive_free(&set);
    board_free(&goal);
    /* refused before the search: no layer is reported */
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s/no/such/dir.db --progress 2>&1 "
                         ">/dev/null", S, dir), 1);
    assert_non_null(strstr(out, "/no/such does not exist"));
    assert_null(strstr(out, "distance"));
    assert_int_equal(clitest_count_lines(out), 1);
    free(out);
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s --progress 2>&1 >/dev/null", S, dir), 1);
    assert_non_null(strstr(out, "it is a directory"));
    assert_null(strstr(out, "distance"));
    free(out);
    /* a FIFO (like a device) would be replaced by the rename: refused, kept */
    char fifo[600], tmpdir[600];
    struct stat sb;
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s 2>&1 >/dev/null", S, fifo), 1);
    assert_non_null(strstr(out, "it is a FIFO; slide replaces only regular files"));
    free(out);
    assert_int_equal(stat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    assert_int_equal(shf(&out, "%s bfs 2x3 --save '' 2>&1 >/dev/null", S), 1);
    assert_non_null(strstr(out, "cannot write a file with an empty name"));
    free(out);
    /* the old fixed temporary name, pre-placed as a link: never followed */
    char victim[600];
    snprintf(tmpdir, sizeof tmpdir, "%s/t.db.tmp", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    FILE *v = fopen(victim, "w");
    assert_non_null(v);
    fputs("precious\n", v);
    fclose(v);
    assert_int_equal(symlink(victim, tmpdir), 0);
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s/t.db 2>&1 >/dev/null", S, dir), 0);
    free(out);
    assert_int_equal(stat(victim, &sb), 0);
    assert_int_equal(sb.st_size, 9);
    snprintf(victim, sizeof victim, "%s/t.db", dir);
    assert_int_equal(lstat(victim, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    /* a link at the target itself (to the victim, or dangling) is refused */
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s 2>&1 >/dev/null", S, tmpdir), 1);
    assert_non_null(strstr(out, "it is a symbolic link"));
    free(out);
    assert_int_equal(shf(&out, "%s db recompress %s/23.db %s 2>&1", S, dir, fifo), 1);
    assert_non_null(strstr(out, "it is a FIFO"));
    free(out);
    assert_int_equal(shf(&out, "%s bfs 2x3 --save %s/x.db --encoding 4 2>&1", S, dir), 2);
    assert_non_null(strstr(out, "--encoding must be 1, 2 or 8"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_and_zcat),
        cmocka_unit_test(test_dist_every_board),
        cmocka_unit_test(test_dist_arguments),
        cmocka_unit_test(test_info_and_verify),
        cmocka_unit_test(test_save_options),
        cmocka_unit_test(test_uncompressed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
