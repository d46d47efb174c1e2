/*
 * frontier_checkpoint.c - per-layer checkpoints of the frontier search
 * (frontier_checkpoint.h).
 */
#include "slide/frontier_checkpoint.h"

#include "slide/atomic_file.h"
#include "slide/file_kind.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#define LAYER_MAGIC "SLFRLAY1"
/* 1: rank keys (delta-coded fkeys), 2: moved keys (front-coded bytes) */
#define LAYER_VERSION(f) ((f)->moved ? 2u : 1u)
#define HEADER_BYTES 48
#define INDEX_ENTRY_BYTES 32
#define CHUNK (4u << 20)
#define STATE_MAX (64u << 10)
/* The longest goal text a state holds (a 40x40 goal takes 6.5 KB). */
#define GOAL_MAX 32768
/* An upper bound of the state file's size (write_state): the fixed lines,
 * the goal's text (goal_len bytes), a count of up to 20 digits per distance. */
#define STATE_BYTES(depth, goal_len) \
    (256u + (uint64_t)(goal_len) + 21u * ((uint64_t)(depth) + 1))

int fcheckpoint_open(const char *dir, int *lock_fd, slide_error *err)
{
    struct stat st;
    char path[4096];
    if (lstat(dir, &st) != 0) {
        if (errno != ENOENT || mkdir(dir, 0777) != 0)
            return slide_fail(err, SLIDE_EIO, "cannot create the checkpoint directory %s: %s",
                              dir, strerror(errno));
    } else if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
        return slide_fail(err, SLIDE_EIO, "checkpoint directory %s is %s, not a directory",
                          dir, S_ISLNK(st.st_mode) ? "a symbolic link" : "a file");
    }
    snprintf(path, sizeof path, "%s/lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0)
        return slide_fail(err, SLIDE_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return slide_fail(err, SLIDE_EIO, "%s is %s, not a regular file", path,
                          file_kind_name(st.st_mode));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return slide_fail(err, SLIDE_EIO, "checkpoint directory %s is in use by another "
                          "process (%s is locked)", dir, path);
    }
    /* what a killed run was writing: under the lock no live run owns it */
    static const char *const names[] = {"layer-*", "state", NULL};
    atomic_file_remove_stale(dir, names, NULL);
    *lock_fd = fd;
    return SLIDE_OK;
}

int fcheckpoint_exists(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/state", dir);
    return lstat(path, &st) == 0;
}

/* ---- writing ----------------------------------------------------------- */

/* A file being written through atomic_file (temporary, fsync, rename), with
 * the CRC-32 of what went into it so far. */
struct out {
    struct atomic_file f;
    uLong crc;
    uint64_t bytes;
};

static int out_open(struct out *o, const char *dir, const char *name, slide_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    o->crc = crc32(0L, Z_NULL, 0);
    o->bytes = 0;
    return atomic_file_open(&o->f, path, NULL, err);
}

static int out_write(struct out *o, const void *buf, size_t len, slide_error *err)
{
    o->crc = crc32(o->crc, buf, (uInt)len);
    if (fwrite(buf, 1, len, o->f.stream) != len)
        return slide_fail(err, SLIDE_EIO, "writing %s failed: %s", o->f.path, strerror(errno));
    o->bytes += len;
    return SLIDE_OK;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int write_index(struct out *o, const struct fstream *s, slide_error *err)
{
    unsigned char e[INDEX_ENTRY_BYTES * 256];
    for (size_t b = 0; b < s->nblocks;) {
        size_t k = 0;
        for (; k < 256 && b < s->nblocks; k++, b++) {
            unsigned char *p = e + k * INDEX_ENTRY_BYTES;
            put64(p, (uint64_t)s->block[b].first);
            put64(p + 8, (uint64_t)(s->block[b].first >> 64));
            put64(p + 16, s->block[b].offset);
            put32(p + 24, s->block[b].count);
            put32(p + 28, 0);
        }
        int rc = out_write(o, e, k * INDEX_ENTRY_BYTES, err);
        if (rc)
            return rc;
    }
    return SLIDE_OK;
}

static int write_layer(const char *dir, const struct frontier_search *f,
                       const struct fstream *s, int depth, uint64_t *bytes,
                       slide_error *err)
{
    char name[32];
    struct out o;
    unsigned char h[HEADER_BYTES] = {0}, *buf = malloc(CHUNK);
    if (!buf)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a checkpoint buffer");
    snprintf(name, sizeof name, "layer-%d", depth);
    memcpy(h, LAYER_MAGIC, 8);
    put32(h + 8, LAYER_VERSION(f));
    put32(h + 12, (uint32_t)f->ks.rows);
    put32(h + 16, (uint32_t)f->ks.cols);
    put32(h + 20, (uint32_t)depth);
    put64(h + 24, s->count);
    put64(h + 32, s->bytes);
    put64(h + 40, (uint64_t)s->nblocks);
    int rc = out_open(&o, dir, name, err);
    if (rc) {
        free(buf);
        return rc;
    }
    if (!(rc = out_write(&o, h, sizeof h, err)) && !(rc = write_index(&o, s, err)))
        for (uint64_t off = 0; !rc && off < s->bytes; off += CHUNK) {
            size_t len = s->bytes - off < CHUNK ? (size_t)(s->bytes - off) : CHUNK;
            if (!(rc = fstream_raw_read(s, off, len, buf, err)))
                rc = out_write(&o, buf, len, err);
        }
    if (!rc) {
        put32(h, (uint32_t)o.crc);
        rc = out_write(&o, h, 4, err);
    }
    free(buf);
    if (rc)
        atomic_file_abort(&o.f);
    else if (!(rc = atomic_file_commit(&o.f, err)))
        *bytes += o.bytes;
    return rc;
}

static int write_state(const char *dir, const struct frontier_search *f,
                       const struct board *goal, slide_error *err)
{
    char *text = malloc(STATE_MAX), *gtext = malloc(GOAL_MAX);
    if (!text || !gtext) {
        free(text);
        free(gtext);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a checkpoint state");
    }
    if (board_format(goal, gtext, GOAL_MAX) >= GOAL_MAX) {
        free(text);
        free(gtext);
        return slide_fail(err, SLIDE_EINVAL, "the goal of a %dx%d board is too long for a "
                          "checkpoint (at most %d bytes of text)", goal->rows, goal->cols,
                          GOAL_MAX - 1);
    }
    size_t n = (size_t)snprintf(text, STATE_MAX, "%s %d\nboard %dx%d\ngoal %s\ndepth %d\n"
                                "elapsed %.3f\nkeys %s\nmetric %s\nhist", FCHECKPOINT_MAGIC,
                                FCHECKPOINT_VERSION, f->ks.rows, f->ks.cols, gtext, f->depth,
                                f->seconds, f->moved ? "moved" : "rank",
                                metric_name(f->metric));
    free(gtext);
    for (int d = 0; d <= f->depth && n < STATE_MAX - 64; d++)
        n += (size_t)snprintf(text + n, STATE_MAX - n, " %" PRIu64, f->hist[d]);
    n += (size_t)snprintf(text + n, STATE_MAX - n, "\n");
    uLong crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)n);
    n += (size_t)snprintf(text + n, STATE_MAX - n, "state-crc32 %08lx\n", crc);
    char path[4096];
    snprintf(path, sizeof path, "%s/state", dir);
    int rc = atomic_file_write_all(path, text, n, err);
    free(text);
    return rc;
}

/* Remove layer files the state no longer names (regular files only). */
static void remove_old_layers(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        int k;
        char tail;
        char path[4096];
        struct stat st;
        if (sscanf(e->d_name, "layer-%d%c", &k, &tail) != 1 || k == depth || k == depth - 1)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            unlink(path);
    }
    closedir(d);
}

static int layer_on_disk(const char *dir, int depth, uint64_t count)
{
    char path[4096];
    unsigned char h[HEADER_BYTES];
    snprintf(path, sizeof path, "%s/layer-%d", dir, depth);
    slide_error err;
    int fd = file_open_regular(path, 0, &err);
    if (fd < 0)
        return 0;
    int ok = read(fd, h, sizeof h) == sizeof h &&
             !memcmp(h, LAYER_MAGIC, 8) && get32(h + 20) == (uint32_t)depth &&
             get64(h + 24) == count;
    close(fd);
    return ok;
}

int fcheckpoint_save(const char *dir, const struct frontier_search *f,
                     const struct board *goal, uint64_t *bytes, slide_error *err)
{
    struct statvfs v;
    if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
        return slide_fail(err, SLIDE_EINVAL, "checkpoints are written on little-endian "
                          "hosts only");
    *bytes = 0;
    int from = f->depth > 0 && !layer_on_disk(dir, f->depth - 1, f->prev.count)
                   ? f->depth - 1 : f->depth;
    if (statvfs(dir, &v) == 0) {
        /* what the new files take on disk, each rounded up to whole blocks,
         * and a block for the directory: a one-board layer asks 12 KiB on
         * a file system of 4 KiB blocks, not a megabyte */
        uint64_t blk = v.f_frsize ? v.f_frsize : 4096, need = blk;
        need += (STATE_BYTES(f->depth, board_format(goal, NULL, 0)) + blk - 1) / blk * blk;
        for (int d = from; d <= f->depth; d++) {
            const struct fstream *s = d == f->depth ? &f->cur : &f->prev;
            uint64_t size = HEADER_BYTES + (uint64_t)s->nblocks * INDEX_ENTRY_BYTES +
                            s->bytes + 4;
            need += (size + blk - 1) / blk * blk;
        }
        uint64_t avail = (uint64_t)v.f_bavail * v.f_frsize;
        if (avail < need)
            return slide_fail(err, SLIDE_ENOMEM, "a checkpoint of distance %d needs %" PRIu64
                              " bytes in %s but %" PRIu64 " are free", f->depth, need, dir,
                              avail);
    }
    int rc = SLIDE_OK;
    for (int d = from; !rc && d <= f->depth; d++)
        rc = write_layer(dir, f, d == f->depth ? &f->cur : &f->prev, d, bytes, err);
    if (!rc && !(rc = write_state(dir, f, goal, err)))
        remove_old_layers(dir, f->depth);
    return rc;
}

/* ---- reading ----------------------------------------------------------- */

static int read_full(int fd, void *buf, size_t len)
{
    unsigned char *p = buf;
    for (size_t done = 0; done < len;) {
        ssize_t r = read(fd, p + done, len - done);
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

struct state {
    int rows, cols, depth;
    int moved;             /* keys moved (version 2); version 1: rank keys */
    enum metric metric;    /* version 3; versions 1 and 2: the single-tile metric */
    char goal[GOAL_MAX];
    double elapsed;
    uint64_t *hist;
};

/* The text of DIR/state, CRC checked; NULL with err set. */
static char *read_state_text(const char *path, slide_error *err)
{
    int fd = file_open_regular(path, 0, err);
    if (fd < 0)
        return NULL;
    char *text = calloc(STATE_MAX + 1, 1);
    ssize_t n = text ? read(fd, text, STATE_MAX) : -1;
    close(fd);
    char *c = n > 0 ? strstr(text, "state-crc32 ") : NULL;
    unsigned long want;
    if (!c || sscanf(c, "state-crc32 %lx", &want) != 1 ||
        crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)(c - text)) != want) {
        slide_fail(err, SLIDE_EFORMAT, "%s is not a frontier checkpoint state or is "
                   "corrupt (its CRC-32 does not match)", path);
        free(text);
        return NULL;
    }
    return text;
}

static int parse_state(const char *path, char *text, struct state *st, slide_error *err)
{
    int version, used;
    char *p = text;
    memset(st, 0, sizeof *st);
    char keys[16] = "rank";
    if (sscanf(p, FCHECKPOINT_MAGIC " %d\nboard %dx%d\ngoal %32767[^\n]\ndepth %d\n"
               "elapsed %lf\n%n", &version, &st->rows, &st->cols, st->goal,
               &st->depth, &st->elapsed, &used) != 6 || st->depth < 0 || st->depth > 100000)
        return slide_fail(err, SLIDE_EFORMAT, "%s: not a frontier checkpoint state", path);
    if (version < 1 || version > FCHECKPOINT_VERSION)
        return slide_fail(err, SLIDE_EFORMAT, "%s has format version %d; this slide "
                          "reads versions 1 to %d", path, version, FCHECKPOINT_VERSION);
    p += used;
    used = 0;
    if (version >= 2 && (sscanf(p, "keys %15s\n%n", keys, &used) != 1 || used == 0 ||
                         (strcmp(keys, "rank") && strcmp(keys, "moved"))))
        return slide_fail(err, SLIDE_EFORMAT, "%s: no keys line (rank or moved)", path);
    st->moved = !strcmp(keys, "moved");
    p += used;
    used = 0;
    char metric[16] = "stm";
    if (version >= 3 && (sscanf(p, "metric %15s\n%n", metric, &used) != 1 || used == 0 ||
                         metric_parse(metric) < 0))
        return slide_fail(err, SLIDE_EFORMAT, "%s: no metric line (stm or mtm)", path);
    st->metric = (enum metric)metric_parse(metric);
    p += used;
    if (strncmp(p, "hist", 4))
        return slide_fail(err, SLIDE_EFORMAT, "%s: not a frontier checkpoint state", path);
    used = 4;
    st->hist = calloc((size_t)st->depth + 1, sizeof *st->hist);
    if (!st->hist)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a histogram");
    p += used;
    for (int d = 0; d <= st->depth; d++) {
        char *end;
        st->hist[d] = strtoull(p, &end, 10);
        if (end == p)
            return slide_fail(err, SLIDE_EFORMAT, "%s: the histogram is short", path);
        p = end;
    }
    return SLIDE_OK;
}

static int valid_moved(const void *ctx, const unsigned char *key, size_t klen)
{
    return fmoved_valid(ctx, key, klen);
}

/* Read one layer file into s (opened by the caller). */
static int read_layer_body(int fd, const char *path, const struct frontier_search *f,
                           int depth, uint64_t count, struct fstream *s, slide_error *err)
{
    unsigned char h[HEADER_BYTES], tail[4];
    struct stat st;
    if (read_full(fd, h, sizeof h) || memcmp(h, LAYER_MAGIC, 8) ||
        get32(h + 8) != LAYER_VERSION(f))
        return slide_fail(err, SLIDE_EFORMAT, "%s is not a frontier layer of version %u "
                          "(%s keys)", path, LAYER_VERSION(f), f->moved ? "moved" : "rank");
    uint64_t n = get64(h + 24), bytes = get64(h + 32), nb = get64(h + 40);
    if (get32(h + 12) != (uint32_t)f->ks.rows || get32(h + 16) != (uint32_t)f->ks.cols ||
        get32(h + 20) != (uint32_t)depth || n != count ||
        nb < (n + FSTREAM_BLOCK - 1) / FSTREAM_BLOCK || nb > n || fstat(fd, &st) ||
        (uint64_t)st.st_size != HEADER_BYTES + nb * INDEX_ENTRY_BYTES + bytes + 4)
        return slide_fail(err, SLIDE_EFORMAT, "%s does not hold distance %d of a %dx%d "
                          "board with %" PRIu64 " boards, or is truncated", path, depth,
                          f->ks.rows, f->ks.cols, count);
    uLong crc = crc32(crc32(0L, Z_NULL, 0), h, sizeof h);
    struct fstream_block *index = calloc(nb ? nb : 1, sizeof *index);
    unsigned char *buf = malloc(CHUNK);
    int rc = !index || !buf ? slide_fail(err, SLIDE_ENOMEM, "out of memory reading %s", path)
                            : SLIDE_OK;
    for (uint64_t b = 0; !rc && b < nb; b++) {
        unsigned char e[INDEX_ENTRY_BYTES];
        if (read_full(fd, e, sizeof e)) {
            rc = slide_fail(err, SLIDE_EIO, "cannot read %s", path);
            break;
        }
        crc = crc32(crc, e, sizeof e);
        index[b].first = (fkey)get64(e) | (fkey)get64(e + 8) << 64;
        index[b].offset = get64(e + 16);
        index[b].count = get32(e + 24);
    }
    for (uint64_t off = 0; !rc && off < bytes; off += CHUNK) {
        size_t len = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;
        if (read_full(fd, buf, len))
            rc = slide_fail(err, SLIDE_EIO, "cannot read %s", path);
        else if (!(rc = fstream_raw_append(s, buf, len, err)))
            crc = crc32(crc, buf, (uInt)len);
    }
    free(buf);
    if (!rc && (read_full(fd, tail, 4) || get32(tail) != (uint32_t)crc))
        rc = slide_fail(err, SLIDE_EFORMAT, "%s is corrupt: its CRC-32 does not match", path);
    if (rc) {
        free(index);
        return rc;
    }
    if (f->moved)
        return fstream_raw_finish_bytes(s, index, (size_t)nb, n, valid_moved, &f->ms, err);
    return fstream_raw_finish(s, index, (size_t)nb, n, f->ks.size, err);
}

static int read_layer(const char *dir, const struct frontier_search *f, int depth,
                      uint64_t count, const char *temp_dir, struct fstream *s,
                      slide_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/layer-%d", dir, depth);
    size_t klen = frontier_key_bytes(f, depth);
    if (f->moved && !klen)
        return slide_fail(err, SLIDE_EFORMAT, "%s: distance %d is beyond what moved keys "
                          "hold", path, depth);
    int rc = f->moved ? fstream_open_bytes(s, temp_dir, klen, err)
                      : fstream_open(s, temp_dir, err);
    if (rc)
        return rc;
    int fd = file_open_regular(path, 0, err);
    if (fd < 0)
        rc = SLIDE_EIO;
    else {
        rc = read_layer_body(fd, path, f, depth, count, s, err);
        close(fd);
    }
    if (rc)
        fstream_close(s);
    return rc;
}

static uint64_t layer_file_bytes(const char *dir, int depth)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/layer-%d", dir, depth);
    return lstat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* DIR/state read and parsed into st (path receives its name); on error
 * st holds nothing to free. */
static int load_state(const char *dir, char *path, size_t len, struct state *st,
                      slide_error *err)
{
    snprintf(path, len, "%s/state", dir);
    memset(st, 0, sizeof *st);
    char *text = read_state_text(path, err);
    if (!text)
        return SLIDE_EFORMAT;
    int rc = parse_state(path, text, st, err);
    free(text);
    if (rc) {
        free(st->hist);
        st->hist = NULL;
    }
    return rc;
}

int fcheckpoint_describe(const char *dir, int *rows, int *cols, char *goal, size_t goal_len,
                         enum frontier_keys *keys, enum metric *metric, slide_error *err)
{
    char path[4096];
    struct state *st = malloc(sizeof *st);
    if (!st)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a checkpoint state");
    int rc = load_state(dir, path, sizeof path, st, err);
    if (!rc) {
        *rows = st->rows;
        *cols = st->cols;
        *keys = st->moved ? FRONTIER_KEYS_MOVED : FRONTIER_KEYS_RANK;
        *metric = st->metric;
        snprintf(goal, goal_len, "%s", st->goal);
    }
    free(st->hist);
    free(st);
    return rc;
}

int fcheckpoint_load(const char *dir, struct frontier_search *f, const struct board *goal,
                     uint64_t max_memory, slide_error *err)
{
    char path[4096], *gtext = malloc(GOAL_MAX);
    struct state *stp = malloc(sizeof *stp);
    if (!gtext || !stp) {
        free(gtext);
        free(stp);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a checkpoint state");
    }
    struct state st;
    int rc = load_state(dir, path, sizeof path, stp, err);
    if (rc) {
        free(gtext);
        free(stp);
        return rc;
    }
    st = *stp; /* the goal text stays in *stp */
    board_format(goal, gtext, GOAL_MAX);
    if (!rc && (st.rows != goal->rows || st.cols != goal->cols || strcmp(stp->goal, gtext)))
        rc = slide_fail(err, SLIDE_EFORMAT, "%s holds a search of %dx%d with goal %.200s, "
                        "not %dx%d with goal %.200s", path, st.rows, st.cols, stp->goal,
                        goal->rows, goal->cols, gtext);
    if (!rc && st.moved != f->moved)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s holds a search with %s keys, not %s keys",
                        path, st.moved ? "moved" : "rank", f->moved ? "moved" : "rank");
    if (!rc && st.metric != f->metric)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s holds a search in the %s metric (%s), not "
                        "the %s metric (%s)", path, metric_long_name(st.metric),
                        metric_name(st.metric), metric_long_name(f->metric),
                        metric_name(f->metric));
    free(gtext);
    uint64_t bytes = layer_file_bytes(dir, st.depth) +
                     (st.depth ? layer_file_bytes(dir, st.depth - 1) : 0);
    const char *tdir = max_memory && bytes > max_memory ? f->temp_dir : NULL;
    if (!rc && max_memory && bytes > max_memory && !tdir)
        rc = slide_fail(err, SLIDE_ENOMEM, "the layers of %s take %" PRIu64 " bytes, more "
                        "than the memory limit; give --temp-dir DIR", dir, bytes);
    struct fstream prev = {.fd = -1}, cur = {.fd = -1};
    if (!rc && st.depth > 0)
        rc = read_layer(dir, f, st.depth - 1, st.hist[st.depth - 1], tdir, &prev, err);
    else if (!rc)
        rc = fstream_open(&prev, NULL, err);
    if (!rc)
        rc = read_layer(dir, f, st.depth, st.hist[st.depth], tdir, &cur, err);
    if (!rc)
        rc = frontier_restore(f, st.depth, st.hist, &prev, &cur, st.elapsed, err);
    fstream_close(&prev);
    fstream_close(&cur);
    free(st.hist);
    free(stp);
    return rc;
}
