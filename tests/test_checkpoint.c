/*
 * test_checkpoint.c - saving and loading a search (checkpoint.h).
 *
 * Truths used: a CRC-32 computed bit by bit here (and the standard check
 * value of "123456789"); an uninterrupted search, whose histogram must equal
 * the published one and whose final store must equal, byte for byte, the
 * store of a search stopped through on_layer, saved, loaded and resumed.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "slide/bfs.h"
#include "slide/checkpoint.h"

/* CRC-32 (reflected, polynomial 0xEDB88320), one bit at a time. */
static uint32_t crc_bitwise(const unsigned char *p, size_t len)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

/* A search over a board with its store, stopped or finished. */
struct search {
    struct space s;
    struct store st;
    struct bfs_result r;
};

static int stop_depth;
static int stop_at(const struct bfs_layer *L, void *ctx)
{
    (void)ctx;
    return L->depth == stop_depth;
}

static void space_for(struct space *s, int rows, int cols, const char *goal,
                      enum space_kind kind)
{
    struct board g;
    slide_error err;
    int rc = goal ? board_parse(goal, rows, cols, &g, &err) : board_goal(&g, rows, cols, &err);
    assert_int_equal(rc, 0);
    assert_int_equal(space_init(s, &g, kind, &err), 0);
    board_free(&g);
}

/* Search rows x cols from the start; stop after distance `stop` (< 0: never). */
static void search_start(struct search *x, int rows, int cols, int stop, int threads)
{
    slide_error err;
    space_for(&x->s, rows, cols, NULL, SPACE_COMPACT);
    assert_int_equal(store_alloc(&x->st, x->s.size, &err), 0);
    stop_depth = stop;
    struct bfs_options o = {.threads = threads, .on_layer = stop_at};
    int rc = bfs_run(&x->s, &x->st, &o, &x->r, &err);
    assert_int_equal(rc, stop >= 0 ? SLIDE_EINTR : SLIDE_OK);
}

static void search_continue(struct search *x, int stop, int threads)
{
    slide_error err;
    stop_depth = stop;
    struct bfs_options o = {.threads = threads, .on_layer = stop_at};
    int rc = bfs_resume(&x->s, &x->st, &o, &x->r, &err);
    assert_int_equal(rc, stop >= 0 ? SLIDE_EINTR : SLIDE_OK);
}

static void search_free(struct search *x)
{
    store_free(&x->st);
    bfs_result_free(&x->r);
}

/* ---- directories ------------------------------------------------------ */

static void remove_checkpoint(const char *dir)
{
    static const char *const names[] = {"state", "store", "state.tmp", "store.tmp", "lock"};
    char path[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static char *new_dir(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/slide-test-ckpt-XXXXXX");
    assert_non_null(mkdtemp(buf));
    return buf;
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    void *p = test_read_file(from, &len);
    test_write_file(to, p, len);
    free(p);
}

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* ---- comparisons ------------------------------------------------------ */

static void assert_same_search(const struct search *a, const struct search *b)
{
    assert_int_equal(a->r.radius, b->r.radius);
    assert_int_equal(a->r.complete, b->r.complete);
    assert_true(a->r.reached == b->r.reached);
    assert_memory_equal(a->r.hist, b->r.hist, (size_t)(a->r.radius + 1) * sizeof(uint64_t));
    assert_int_equal(a->r.nfirst, b->r.nfirst);
    assert_memory_equal(a->r.first, b->r.first, (size_t)a->r.nfirst * sizeof(uint64_t));
    assert_true(a->st.nwords == b->st.nwords);
    assert_memory_equal(a->st.words, b->st.words, a->st.nwords * 8);
}

static void assert_published(const struct search *x, int rows, int cols)
{
    uint64_t pub[128];
    int len = published_histogram(rows, cols, "corner", pub, 128);
    assert_int_equal(len, x->r.radius + 1);
    assert_memory_equal(x->r.hist, pub, (size_t)len * sizeof(uint64_t));
}

/* Save x into dir, load it into y (same space), and compare. */
static void save_load(const char *dir, const struct search *x, struct search *y)
{
    slide_error err;
    if (checkpoint_save(dir, &x->s, &x->st, &x->r, &err))
        fail_msg("save: %s", err.msg);
    y->s = x->s;
    if (checkpoint_load(dir, &y->s, 0, &y->st, &y->r, &err))
        fail_msg("load: %s", err.msg);
    assert_same_search(x, y);
    assert_true(y->r.seconds > x->r.seconds - 1e-5 && y->r.seconds < x->r.seconds + 1e-5);
}

/* ---- tests ------------------------------------------------------------ */

static void test_crc32(void **state)
{
    (void)state;
    assert_true(checkpoint_crc32("123456789", 9) == 0xCBF43926u);
    assert_true(checkpoint_crc32("", 0) == 0);
    /* 2.5 blocks of 8 MiB and an odd tail: the combined CRC of many blocks */
    size_t len = (5u << 22) + 13;
    unsigned char *p = malloc(len);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (unsigned char)x;
    }
    assert_true(checkpoint_crc32(p, len) == crc_bitwise(p, len));
    assert_true(checkpoint_crc32(p + 1, len - 1) == crc_bitwise(p + 1, len - 1));
    free(p);
}

/* A 2x5 search stopped at distance 20: every field survives the round trip. */
static void test_round_trip_2x5(void **state)
{
    (void)state;
    char dir[64], path[128];
    struct search x, y;
    new_dir(dir, sizeof dir);
    search_start(&x, 2, 5, 20, 2);
    assert_int_equal(x.r.radius, 20);
    assert_false(checkpoint_exists(dir));
    save_load(dir, &x, &y);
    assert_true(checkpoint_exists(dir));
    /* the store file is the words, and its CRC is the one in the state */
    size_t len, slen;
    path_in(path, sizeof path, dir, "store");
    unsigned char *store = (unsigned char *)test_read_file(path, &len);
    assert_true(len == x.st.nwords * 8);
    assert_memory_equal(store, x.st.words, len);
    path_in(path, sizeof path, dir, "state");
    char *text = test_read_file(path, &slen), want[64];
    snprintf(want, sizeof want, "\nstore-crc32 %08x\n", crc_bitwise(store, len));
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "\nradius 20\ncomplete 0\n"));
    free(text);
    free(store);
    search_free(&y);
    search_free(&x);
    remove_checkpoint(dir);
}

/* Stop, save, load and resume at several depths: equal to one whole run. */
static void test_resume_2x5(void **state)
{
    (void)state;
    static const int stops[] = {0, 1, 20, 54, 55};
    char dir[64];
    struct search whole;
    search_start(&whole, 2, 5, -1, 2);
    assert_published(&whole, 2, 5);
    new_dir(dir, sizeof dir);
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        struct search x, y;
        search_start(&x, 2, 5, stops[i], 1 + (int)(i & 1));
        save_load(dir, &x, &y);
        search_free(&x);
        search_continue(&y, -1, 2 - (int)(i & 1)); /* the other thread count */
        assert_same_search(&whole, &y);
        search_free(&y);
    }
    /* several interruptions in one run, a checkpoint at each, then the end */
    struct search x, y;
    search_start(&x, 2, 5, 10, 2);
    for (int stop = 25; stop <= 50; stop += 15) {
        save_load(dir, &x, &y);
        search_free(&x);
        search_continue(&y, stop, 1);
        x = y;
    }
    search_continue(&x, -1, 2);
    save_load(dir, &x, &y); /* the final, complete checkpoint */
    assert_int_equal(y.r.complete, 1);
    assert_same_search(&whole, &y);
    search_continue(&y, -1, 2); /* resuming a finished search changes nothing */
    assert_same_search(&whole, &y);
    search_free(&y);
    search_free(&x);
    search_free(&whole);
    remove_checkpoint(dir);
}

/* 3x4 stopped mid-way (1 thread), saved, loaded, resumed (2 threads). */
static void test_resume_3x4(void **state)
{
    (void)state;
    char dir[64];
    struct search whole, x, y;
    search_start(&whole, 3, 4, -1, 2);
    assert_published(&whole, 3, 4);
    new_dir(dir, sizeof dir);
    search_start(&x, 3, 4, 22, 1);
    save_load(dir, &x, &y);
    search_free(&x);
    search_continue(&y, -1, 2);
    assert_same_search(&whole, &y);
    search_free(&y);
    search_free(&whole);
    remove_checkpoint(dir);
}

/* Death during a save: a state.tmp is promoted only when its own CRC checks
 * and it names the store beside it; otherwise it is removed and the state
 * kept (a truncated or stale state.tmp never replaces a good state). */
static void test_interrupted_saves(void **state)
{
    (void)state;
    char a[64], b[64], from[128], to[128];
    struct search x10, x30, y;
    slide_error err;
    size_t len;
    new_dir(a, sizeof a);
    new_dir(b, sizeof b);
    search_start(&x10, 2, 5, 10, 2);
    search_start(&x30, 2, 5, 30, 2);
    assert_int_equal(checkpoint_save(a, &x10.s, &x10.st, &x10.r, &err), 0);
    assert_int_equal(checkpoint_save(b, &x30.s, &x30.st, &x30.r, &err), 0);
    /* garbage state.tmp beside checkpoint a: removed, a loads */
    path_in(to, sizeof to, a, "state.tmp");
    test_write_file(to, "slide-checkpoint 1\nboard 2x5\n", 29);
    assert_int_equal(checkpoint_load(a, &x10.s, 0, &y.st, &y.r, &err), 0);
    assert_int_equal(y.r.radius, 10);
    assert_int_equal(access(to, F_OK), -1);
    search_free(&y);
    /* b's state, truncated, as state.tmp beside a: removed, a's state kept */
    path_in(from, sizeof from, b, "state");
    char *text = test_read_file(from, &len);
    test_write_file(to, text, len - 5);
    assert_int_equal(checkpoint_load(a, &x10.s, 0, &y.st, &y.r, &err), 0);
    assert_int_equal(y.r.radius, 10);
    assert_int_equal(access(to, F_OK), -1);
    search_free(&y);
    /* b's whole state as state.tmp, but a's store (death before the store's
     * rename): the state.tmp names another store, so it is removed */
    test_write_file(to, text, len);
    assert_int_equal(checkpoint_load(a, &x10.s, 0, &y.st, &y.r, &err), 0);
    assert_int_equal(y.r.radius, 10);
    assert_int_equal(access(to, F_OK), -1);
    search_free(&y);
    /* between the renames: a holds b's store and b's state as state.tmp */
    path_in(from, sizeof from, b, "store");
    path_in(to, sizeof to, a, "store");
    copy_file(from, to);
    path_in(to, sizeof to, a, "state.tmp");
    test_write_file(to, text, len);
    free(text);
    y.s = x30.s;
    assert_int_equal(checkpoint_load(a, &y.s, 0, &y.st, &y.r, &err), 0);
    assert_same_search(&x30, &y);
    assert_int_equal(access(to, F_OK), -1); /* renamed to state */
    search_free(&y);
    /* a directory with only unfinished files holds no checkpoint */
    remove_checkpoint(b);
    assert_int_equal(mkdir(b, 0755), 0);
    path_in(to, sizeof to, b, "state.tmp");
    test_write_file(to, "x", 1);
    assert_false(checkpoint_exists(b));
    assert_int_equal(checkpoint_load(b, &x10.s, 0, &y.st, &y.r, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "state does not exist"));
    search_free(&x10);
    search_free(&x30);
    remove_checkpoint(a);
    remove_checkpoint(b);
}

/* Load dir for s and expect refusal `code` with a message containing want. */
static void refused(const char *dir, const struct space *s, uint64_t max_memory,
                    int code, const char *want)
{
    struct store st;
    struct bfs_result r;
    slide_error err = {{0}};
    int rc = checkpoint_load(dir, s, max_memory, &st, &r, &err);
    if (rc != code || !strstr(err.msg, want))
        fail_msg("load: got %d \"%s\", wanted %d \"%s\"", rc, err.msg, code, want);
    assert_null(st.words);
    assert_null(r.hist);
}

/* Replace the state's text from `from` to the end of its line by `to`. */
static void edit_state(const char *dir, const char *from, const char *to, int fix_crc)
{
    char path[128];
    size_t len;
    path_in(path, sizeof path, dir, "state");
    char *t = test_read_file(path, &len), *p = strstr(t, from);
    assert_non_null(p);
    size_t head = (size_t)(p - t), tail_at = head + strcspn(p, "\n");
    char *u = malloc(len + strlen(to) + 64);
    memcpy(u, t, head);
    strcpy(u + head, to);
    strcat(u, t + tail_at);
    if (fix_crc) { /* a consistent state whose counts lie */
        char *c = strstr(u, "state-crc32 ");
        snprintf(c, 32, "state-crc32 %08x\n", crc_bitwise((unsigned char *)u, (size_t)(c - u)));
    }
    test_write_file(path, u, strlen(u));
    free(u);
    free(t);
}

static void fresh_checkpoint(const char *dir, const struct search *x)
{
    slide_error err;
    remove_checkpoint(dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(checkpoint_save(dir, &x->s, &x->st, &x->r, &err), 0);
}

static void test_foreign_and_corrupt(void **state)
{
    (void)state;
    char dir[64], path[128], line[256];
    struct search x;
    struct space other;
    new_dir(dir, sizeof dir);
    search_start(&x, 2, 5, 20, 2);
    fresh_checkpoint(dir, &x);
    space_for(&other, 5, 2, NULL, SPACE_COMPACT);
    refused(dir, &other, 0, SLIDE_EFORMAT, "is for a 2x5 board, not 5x2");
    space_for(&other, 2, 5, "0 1 2 3 4/5 6 7 8 9", SPACE_COMPACT);
    refused(dir, &other, 0, SLIDE_EFORMAT,
            "is for goal \"1 2 3 4 5/6 7 8 9 0\", not \"0 1 2 3 4/5 6 7 8 9\"");
    space_for(&other, 2, 5, NULL, SPACE_FULL);
    refused(dir, &other, 0, SLIDE_EFORMAT, "is of the compact space, not the full space");
    refused(dir, &x.s, 1000, SLIDE_ENOMEM, "needs 453600 bytes");
    refused(dir, &x.s, 1000, SLIDE_ENOMEM, "only 1000 bytes");
    edit_state(dir, "slide-checkpoint 1", "slide-checkpoint 2", 0);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "format version 2; this slide reads version 1");
    edit_state(dir, "slide-checkpoint 2", "a text file", 0);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "is not a slide checkpoint");
    fresh_checkpoint(dir, &x);
    edit_state(dir, "hist 1 2 3", "hist 1 2 4", 0);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "state is corrupt: its CRC-32 is");
    fresh_checkpoint(dir, &x); /* counts that move one board from layer 20 to 19 */
    snprintf(line, sizeof line, "hist 1 2 3 6 11 19 30 44 68 112 176 271 411 602 851 1232 "
             "1783 2530 3567 4997 6837");
    edit_state(dir, "hist", line, 1);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "holds 6838 frontier and");
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "the state implies 6837");
    fresh_checkpoint(dir, &x); /* the state cut short */
    path_in(path, sizeof path, dir, "state");
    assert_int_equal(truncate(path, 100), 0);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "is truncated");
    fresh_checkpoint(dir, &x); /* the store cut short */
    path_in(path, sizeof path, dir, "store");
    assert_int_equal(truncate(path, 453600 - 8), 0);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "store has 453592 bytes but the state says 453600");
    fresh_checkpoint(dir, &x); /* one flipped byte in the store */
    size_t len;
    unsigned char *p = (unsigned char *)test_read_file(path, &len);
    p[len / 2] ^= 0x10;
    test_write_file(path, p, len);
    free(p);
    refused(dir, &x.s, 0, SLIDE_EFORMAT, "store is corrupt: its CRC-32 is");
    search_free(&x);
    remove_checkpoint(dir);
    refused(dir, &x.s, 0, SLIDE_EIO, "no checkpoint");
}

static void test_disk_space(void **state)
{
    (void)state;
    char dir[64], want[128];
    struct space big;
    struct statvfs fs;
    slide_error err = {{0}};
    new_dir(dir, sizeof dir);
    space_for(&big, 4, 5, NULL, SPACE_COMPACT); /* 20!/2 boards: 304 PB */
    assert_int_equal(checkpoint_prepare(dir, &big, &err), SLIDE_ENOMEM);
    /* room for two stores: each save after the first writes beside the last */
    snprintf(want, sizeof want, "need %llu bytes",
             (unsigned long long)(2 * store_bytes_needed(big.size) + CHECKPOINT_STATE_RESERVE));
    if (!strstr(err.msg, want))
        fail_msg("\"%s\" lacks \"%s\"", err.msg, want);
    unsigned long long free_bytes;
    const char *p = strstr(err.msg, "but only ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "but only %llu bytes", &free_bytes), 1);
    assert_int_equal(statvfs(dir, &fs), 0);
    double real = (double)fs.f_bavail * (double)fs.f_frsize;
    assert_true((double)free_bytes > real * 0.9 - 1e9 && (double)free_bytes < real * 1.1 + 1e9);
    struct search x;
    search_start(&x, 2, 5, 3, 2);
    assert_int_equal(checkpoint_prepare(dir, &x.s, &err), 0);
    search_free(&x);
    /* a path that is a file, and one whose parent is missing */
    char file[128];
    path_in(file, sizeof file, dir, "f");
    test_write_file(file, "x", 1);
    assert_int_equal(checkpoint_prepare(file, &big, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "is a regular file, not a directory"));
    path_in(file, sizeof file, dir, "no/such");
    assert_int_equal(checkpoint_prepare(file, &big, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "cannot create checkpoint directory"));
    assert_non_null(strstr(err.msg, "/no does not exist"));
    /* refused for lack of disk: the directory is not created */
    path_in(file, sizeof file, dir, "new");
    assert_int_equal(checkpoint_prepare(file, &big, &err), SLIDE_ENOMEM);
    assert_int_equal(access(file, F_OK), -1);
    path_in(file, sizeof file, dir, "f");
    unlink(file);
    remove_checkpoint(dir);
}

/* The lock is exclusive across processes and names its holder; it ends
 * with the holder, and a link at DIR/lock is never followed. */
static void test_lock(void **state)
{
    (void)state;
    char dir[64], path[128];
    int up[2], down[2];
    struct checkpoint_lock lk;
    slide_error err;
    new_dir(dir, sizeof dir);
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the holder: lock, tell the parent, wait to be released */
        char c;
        struct checkpoint_lock mine;
        int ok = checkpoint_lock(dir, &mine, NULL) == SLIDE_OK;
        if (write(up[1], ok ? "y" : "n", 1) != 1 || read(down[0], &c, 1) != 1)
            _exit(2);
        _exit(ok ? 0 : 1);
    }
    char c = 0;
    assert_int_equal(read(up[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    char want[160];
    snprintf(want, sizeof want, "checkpoint %s is in use by process %ld", dir, (long)pid);
    assert_int_equal(checkpoint_lock(dir, &lk, &err), SLIDE_EIO);
    assert_string_equal(err.msg, want);
    assert_int_equal(write(down[1], "x", 1), 1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* free again; a dead run's temporaries go, other files stay */
    char stale[128], stale2[128], keep[128];
    path_in(stale, sizeof stale, dir, ".store.0123456789abcdef.tmp");
    path_in(stale2, sizeof stale2, dir, ".state.tmp.0123456789abcdef.tmp");
    path_in(keep, sizeof keep, dir, "keep.txt");
    test_write_file(stale, "x", 1);
    test_write_file(stale2, "x", 1);
    test_write_file(keep, "x", 1);
    assert_int_equal(checkpoint_lock(dir, &lk, &err), 0);
    assert_int_equal(access(stale, F_OK), -1);
    assert_int_equal(access(stale2, F_OK), -1);
    assert_int_equal(access(keep, F_OK), 0);
    unlink(keep);
    checkpoint_unlock(&lk);
    /* a missing directory, and a link planted as the lock file */
    path_in(path, sizeof path, dir, "none");
    assert_int_equal(checkpoint_lock(path, &lk, &err), SLIDE_EIO);
    assert_non_null(strstr(err.msg, "does not exist"));
    path_in(path, sizeof path, dir, "lock");
    unlink(path);
    assert_int_equal(symlink("/etc/passwd", path), 0);
    assert_int_equal(checkpoint_lock(dir, &lk, &err), SLIDE_EIO);
    unlink(path);
    for (int i = 0; i < 2; i++) {
        close(up[i]);
        close(down[i]);
    }
    remove_checkpoint(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),           cmocka_unit_test(test_round_trip_2x5),
        cmocka_unit_test(test_resume_2x5),      cmocka_unit_test(test_interrupted_saves),
        cmocka_unit_test(test_foreign_and_corrupt), cmocka_unit_test(test_disk_space),
        cmocka_unit_test(test_lock),
        cmocka_unit_test(test_resume_3x4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
