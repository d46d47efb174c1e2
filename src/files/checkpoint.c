/*
 * checkpoint.c - save and load a BFS at a layer boundary (checkpoint.h).
 *
 * Why the store is written raw and not through zlib: measured on the 3x4
 * store (59,875,200 bytes, 2 threads, ext4 on a virtual disk, fsync
 * included, reads cold after POSIX_FADV_DONTNEED):
 *
 *   store at          raw write  raw read   zlib -1 (2 threads, 8 MiB blocks)
 *   distance 18       0.20 s     0.05 s     ratio 119, 0.08 s write, 0.04 s read
 *   distance 27       0.14 s     0.04 s     ratio 7.4, 0.34 s write, 0.15 s read
 *   distance 36       0.09 s     0.04 s     ratio 1.7, 0.69 s write, 0.21 s read
 *   final (53)        0.16 s     0.04 s     ratio 1.8, 0.52 s write, 0.18 s read
 *
 * zlib wins only while the store is almost all unvisited, in the first
 * seconds of a run when no checkpoint is due; from the middle of the search
 * on, deflate runs at about 100-200 MB/s on two cores while the disk takes
 * 300-700 MB/s, so raw I/O is 2-5 times faster to write and 4 times faster
 * to read, and it leaves both cores to the search.
 */
#define _DEFAULT_SOURCE /* flock(2) */
#include "slide/checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include "slide/atomic_file.h"
#include "slide/board.h"
#include "slide/file_kind.h"

/* Bytes per CRC block (parallel unit) and per read/write call. */
#define CRC_BLOCK (8u << 20)
#define IO_CHUNK (64u << 20)
/* A state file is a few KB; anything far larger is not one. */
#define STATE_MAX_BYTES (4u << 20)
/* Radius bound for parsing (the 4x5 radius is about 100). */
#define RADIUS_MAX 100000

struct paths {
    char state[PATH_MAX], store[PATH_MAX], state_tmp[PATH_MAX];
};

/* What a state file says (hist is malloc'd). */
struct state {
    int rows, cols, radius, complete, nfirst;
    enum metric metric;     /* "metric mtm" line; none: the single-tile metric */
    char goal[512], space[16];
    uint64_t entries, bytes;
    uint32_t store_crc;
    double elapsed;
    uint64_t first[BFS_KEEP];
    uint64_t *hist;
};

uint32_t checkpoint_crc32(const void *p, size_t len)
{
    const unsigned char *b = p;
    int64_t nb = (int64_t)((len + CRC_BLOCK - 1) / CRC_BLOCK);
    if (nb <= 1)
        return (uint32_t)crc32(0, b, (uInt)len);
    uLong *crc = malloc((size_t)nb * sizeof *crc);
    if (!crc) /* no memory for the table: one sequential pass gives the same value */
        return (uint32_t)crc32_z(0, b, len);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t i = 0; i < nb; i++) {
        size_t off = (size_t)i * CRC_BLOCK;
        size_t n = len - off < CRC_BLOCK ? len - off : CRC_BLOCK;
        crc[i] = crc32(0, b + off, (uInt)n);
    }
    uLong total = crc[0];
    for (int64_t i = 1; i < nb; i++) {
        size_t off = (size_t)i * CRC_BLOCK;
        size_t n = len - off < CRC_BLOCK ? len - off : CRC_BLOCK;
        total = crc32_combine(total, crc[i], (z_off_t)n);
    }
    free(crc);
    return (uint32_t)total;
}

static int slurp_state(const char *path, char **out, size_t *out_len, slide_error *err);
static int check_envelope(char *t, size_t len, const char *path, slide_error *err);

static int make_paths(const char *dir, struct paths *p, slide_error *err)
{
    size_t k = sizeof p->state;
    if ((size_t)snprintf(p->state, k, "%s/state", dir) >= k ||
        (size_t)snprintf(p->store, k, "%s/store", dir) >= k ||
        (size_t)snprintf(p->state_tmp, k, "%s/state.tmp", dir) >= k)
        return slide_fail(err, SLIDE_EINVAL,
                          "checkpoint directory name is too long (%zu bytes; "
                          "at most %d)", strlen(dir), PATH_MAX - 16);
    return SLIDE_OK;
}

static int host_little_endian(slide_error *err)
{
    if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
        return slide_fail(err, SLIDE_EINVAL, "checkpoints store little-endian "
                          "words and need a little-endian host");
    return SLIDE_OK;
}

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static int io_fail(slide_error *err, const char *what, const char *path)
{
    return slide_fail(err, SLIDE_EIO, "cannot %s %s: %s", what, path,
                      strerror(errno));
}

static int fsync_dir(const char *dir, slide_error *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return io_fail(err, "open directory", dir);
    int rc = fsync(fd);
    close(fd);
    return rc ? io_fail(err, "sync directory", dir) : SLIDE_OK;
}

int checkpoint_read_file(const char *path, void *p, size_t len, slide_error *err)
{
    int fd = file_open_regular(path, 0, err);
    if (fd < 0)
        return fd;
    char *b = p;
    for (size_t off = 0; off < len;) {
        size_t n = len - off < IO_CHUNK ? len - off : IO_CHUNK;
        ssize_t k = read(fd, b + off, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = errno;
            close(fd);
            if (k == 0)
                return slide_fail(err, SLIDE_EFORMAT, "%s is truncated: %zu of "
                                  "%zu bytes", path, off, len);
            errno = e;
            return io_fail(err, "read", path);
        }
        off += (size_t)k;
    }
    close(fd);
    return SLIDE_OK;
}

/* A state.tmp left by a failed last rename of this run is the checkpoint:
 * finish its rename before the next save replaces state.tmp. */
static int finish_rename(const char *dir, const struct paths *p, slide_error *err)
{
    if (!file_exists(p->state_tmp))
        return SLIDE_OK;
    if (rename(p->state_tmp, p->state) != 0)
        return io_fail(err, "rename to state", p->state_tmp);
    return fsync_dir(dir, err);
}

int checkpoint_exists(const char *dir)
{
    struct paths p;
    if (make_paths(dir, &p, NULL))
        return 0;
    if (file_exists(p.state))
        return 1;
    /* a state.tmp counts only if it is whole (its own CRC checks) */
    char *t = NULL;
    size_t len = 0;
    int whole = slurp_state(p.state_tmp, &t, &len, NULL) == SLIDE_OK &&
                check_envelope(t, len, p.state_tmp, NULL) == SLIDE_OK;
    free(t);
    return whole;
}

/* The directory that holds dir ("." for a bare name). */
static void parent_of(const char *dir, char *buf, size_t len)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    while (n > 0 && dir[n - 1] != '/')
        n--;
    while (n > 1 && dir[n - 1] == '/')
        n--;
    snprintf(buf, len, "%.*s", (int)(n ? n : 1), n ? dir : ".");
}

/* Room for need bytes on the file system of dir (or of its parent, where
 * dir is still to be created: nothing is created before this check). */
static int check_disk(const char *dir, uint64_t need, slide_error *err)
{
    struct statvfs fs;
    char parent[PATH_MAX];
    const char *where = dir;
    if (!file_exists(dir)) {
        parent_of(dir, parent, sizeof parent);
        where = parent;
    }
    if (statvfs(where, &fs) != 0)
        return io_fail(err, "examine the file system of", where);
    uint64_t avail = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
    if (need > avail)
        return slide_fail(err, SLIDE_ENOMEM,
                          "checkpoints in %s need %" PRIu64 " bytes (%.2f GB) of "
                          "free disk (room for the store being written beside the "
                          "last one) but only %" PRIu64 " bytes (%.2f GB) are free",
                          dir, need, (double)need / 1e9, avail, (double)avail / 1e9);
    return SLIDE_OK;
}

int checkpoint_prepare(const char *dir, const struct space *s, slide_error *err)
{
    struct paths p;
    struct stat sb;
    int rc = make_paths(dir, &p, err);
    if (rc)
        return rc;
    char parent[PATH_MAX];
    if (!*dir)
        return slide_fail(err, SLIDE_EIO, "the checkpoint directory name is empty");
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return slide_fail(err, SLIDE_EIO, "checkpoint path %s is %s, not a directory", dir,
                          file_kind_name(sb.st_mode));
    parent_of(dir, parent, sizeof parent);
    if (!file_exists(dir) && (stat(parent, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        return slide_fail(err, SLIDE_EIO, "cannot create checkpoint directory %s: %s "
                          "does not exist", dir, parent);
    /* Every save after the first writes its store beside the last one, so
     * a run needs room for two stores; a store already there holds one. */
    uint64_t one = store_bytes_needed(s->size), need = 2 * one + CHECKPOINT_STATE_RESERVE;
    if (stat(p.store, &sb) == 0 && S_ISREG(sb.st_mode))
        need -= (uint64_t)sb.st_size < one ? (uint64_t)sb.st_size : one;
    if ((rc = check_disk(dir, need, err)))
        return rc;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return io_fail(err, "create checkpoint directory", dir);
    if (access(dir, W_OK | X_OK) != 0)
        return io_fail(err, "write into checkpoint directory", dir);
    return SLIDE_OK;
}

/* The goal of s as board text ("1 2 3/4 5 6/7 8 0"). */
static int goal_text(const struct space *s, char *buf, size_t len, slide_error *err)
{
    struct board b;
    int rc = board_alloc(&b, s->rows, s->cols, err);
    if (rc)
        return rc;
    space_unrank(s, (uint64_t)s->goal_blank, &b); /* goal: t of rank 0, blank on z_goal */
    board_format(&b, buf, len);
    board_free(&b);
    return SLIDE_OK;
}

/* Append printf output to a growing buffer; returns -1 when out of memory. */
static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (k < 0)
            return -1;
        if ((size_t)k < *cap - *len) {
            *len += (size_t)k;
            return 0;
        }
        char *b = realloc(*buf, *cap * 2 + (size_t)k);
        if (!b)
            return -1;
        *buf = b;
        *cap = *cap * 2 + (size_t)k;
    }
}

/* The state text of the search (s, st, r) whose store has CRC crc. */
static char *format_state(const struct space *s, const struct store *st,
                          const struct bfs_result *r, uint32_t crc, size_t *out_len)
{
    char goal[512];
    size_t len = 0, cap = 4096;
    char *t = malloc(cap);
    if (!t || goal_text(s, goal, sizeof goal, NULL)) {
        free(t);
        return NULL;
    }
    int bad = appendf(&t, &len, &cap, "%s %d\nboard %dx%d\ngoal %s\nspace %s\n"
                      "entries %" PRIu64 "\nstore-bytes %" PRIu64 "\nstore-crc32 %08" PRIx32
                      "\nradius %d\ncomplete %d\nelapsed %.6f\nfirst %d",
                      CHECKPOINT_MAGIC, CHECKPOINT_VERSION, s->rows, s->cols, goal,
                      space_kind_name(s->kind), st->size, st->nwords * 8, crc,
                      r->radius, r->complete ? 1 : 0, r->seconds, r->nfirst);
    for (int i = 0; i < r->nfirst && !bad; i++)
        bad = appendf(&t, &len, &cap, " %" PRIu64, r->first[i]);
    /* the multi-tile metric's line, only there: single-tile checkpoints are
     * those of format 1 before it, byte for byte */
    if (r->metric == METRIC_MTM)
        bad = bad || appendf(&t, &len, &cap, "\nmetric mtm");
    bad = bad || appendf(&t, &len, &cap, "\nhist");
    for (int d = 0; d <= r->radius && !bad; d++)
        bad = appendf(&t, &len, &cap, " %" PRIu64, r->hist[d]);
    bad = bad || appendf(&t, &len, &cap, "\n");
    uint32_t sc = checkpoint_crc32(t, len);
    if (bad || appendf(&t, &len, &cap, "state-crc32 %08" PRIx32 "\n", sc)) {
        free(t);
        return NULL;
    }
    *out_len = len;
    return t;
}

/* The store, raw, into a synced temporary (renamed by the caller). */
static int write_store(struct atomic_file *f, const char *path, const struct store *st,
                       slide_error *err)
{
    int rc = atomic_file_open(f, path, NULL, err);
    if (rc)
        return rc;
    const char *b = (const char *)st->words;
    size_t len = st->nwords * 8;
    for (size_t off = 0; off < len; off += IO_CHUNK) {
        size_t n = len - off < IO_CHUNK ? len - off : IO_CHUNK;
        if (fwrite(b + off, 1, n, f->stream) != n) {
            rc = io_fail(err, "write", path);
            atomic_file_abort(f);
            return rc;
        }
    }
    return atomic_file_sync(f, err);
}

/*
 * The save protocol (checkpoint.h): store into a synced temporary; state
 * into state.tmp (synced, renamed); store renamed; state.tmp renamed to
 * state.  A death anywhere leaves a state that names the store beside it:
 * state (before the store's rename) or state.tmp (after it).
 */
static int save_files(const char *dir, const struct paths *p, const struct space *s,
                      const struct store *st, const struct bfs_result *r,
                      slide_error *err)
{
    struct atomic_file store_f;
    uint32_t crc = checkpoint_crc32(st->words, st->nwords * 8);
    int rc = write_store(&store_f, p->store, st, err);
    if (rc)
        return rc;
    size_t len;
    char *text = format_state(s, st, r, crc, &len);
    if (!text) {
        atomic_file_abort(&store_f);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the checkpoint state");
    }
    rc = atomic_file_write_all(p->state_tmp, text, len, err);
    free(text);
    if (!rc)
        rc = atomic_file_commit(&store_f, err);
    else
        atomic_file_abort(&store_f);
    if (rc) {
        unlink(p->state_tmp); /* it names a store that is not there */
        return rc;
    }
    /* from here on state.tmp is the checkpoint: it is kept on failure */
    if (rename(p->state_tmp, p->state) != 0)
        return io_fail(err, "rename to state", p->state_tmp);
    return fsync_dir(dir, err);
}

int checkpoint_save(const char *dir, const struct space *s,
                    const struct store *st, const struct bfs_result *r,
                    slide_error *err)
{
    struct paths p;
    int rc;
    if ((rc = host_little_endian(err)) || (rc = make_paths(dir, &p, err)))
        return rc;
    if (st->size != s->size || r->radius < 0 || !r->hist)
        return slide_fail(err, SLIDE_EINVAL, "checkpoint of a store of %" PRIu64
                          " entries for a space of %" PRIu64, st->size, s->size);
    if ((rc = finish_rename(dir, &p, err)) ||
        (rc = check_disk(dir, st->nwords * 8 + CHECKPOINT_STATE_RESERVE, err)))
        return rc;
    return save_files(dir, &p, s, st, r, err);
}

/* ---- loading ------------------------------------------------------------ */

/* Read the whole state file into a NUL-terminated buffer. */
static int slurp_state(const char *path, char **out, size_t *out_len, slide_error *err)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return errno == ENOENT
                   ? slide_fail(err, SLIDE_EIO, "no checkpoint: %s does not exist", path)
                   : io_fail(err, "examine", path);
    if (!S_ISREG(sb.st_mode))
        return slide_fail(err, SLIDE_EFORMAT, "%s is %s, not a regular file", path,
                          file_kind_name(sb.st_mode));
    if (sb.st_size > STATE_MAX_BYTES)
        return slide_fail(err, SLIDE_EFORMAT, "%s has %lld bytes; a checkpoint state "
                          "has at most %u", path, (long long)sb.st_size, STATE_MAX_BYTES);
    size_t len = (size_t)sb.st_size;
    char *t = malloc(len + 1);
    if (!t)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory reading %s", path);
    int rc = checkpoint_read_file(path, t, len, err);
    if (rc) {
        free(t);
        return rc;
    }
    t[len] = '\0';
    *out = t;
    *out_len = len;
    return SLIDE_OK;
}

/* The value of the line "key value" at *cur; advances *cur past the line. */
static char *take_line(char **cur, const char *key, const char *path, slide_error *err)
{
    char *line = *cur, *nl = strchr(line, '\n');
    size_t k = strlen(key);
    if (!nl || strncmp(line, key, k) != 0 || line[k] != ' ') {
        slide_fail(err, SLIDE_EFORMAT, "%s: expected a line '%s ...' but found '%.40s'",
                   path, key, nl ? (*nl = '\0', line) : line);
        return NULL;
    }
    *nl = '\0';
    *cur = nl + 1;
    return line + k + 1;
}

/* Parse exactly `count` decimal numbers separated by single spaces. */
static int parse_u64s(const char *text, uint64_t *out, int count)
{
    const char *q = text;
    for (int i = 0; i < count; i++) {
        char *end;
        if (*q < '0' || *q > '9')
            return -1;
        errno = 0;
        out[i] = strtoull(q, &end, 10);
        if (errno || (*end != ' ' && *end != '\0') || (*end == ' ') != (i + 1 < count))
            return -1;
        q = end + (*end == ' ');
    }
    return *q == '\0' ? 0 : -1;
}

/* Exactly 8 hexadecimal digits, as the CRC lines are written. */
static int parse_hex32(const char *text, uint32_t *v)
{
    uint32_t x = 0;
    for (int i = 0; i < 8; i++) {
        char c = text[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        x = x << 4 | (uint32_t)d;
    }
    *v = x;
    return text[8] == '\0' || text[8] == '\n' ? 0 : -1;
}

static int parse_u64(const char *text, uint64_t *v)
{
    return parse_u64s(text, v, 1);
}

static int parse_int(const char *text, int lo, int hi, int *v)
{
    uint64_t x;
    if (parse_u64(text, &x) || x < (uint64_t)lo || x > (uint64_t)hi)
        return -1;
    *v = (int)x;
    return 0;
}

static int bad_field(slide_error *err, const char *path, const char *key,
                     const char *value)
{
    return slide_fail(err, SLIDE_EFORMAT, "%s: malformed %s value '%.40s'", path, key,
                      value);
}

/* Magic, version and the state's own CRC; on success the text is trusted. */
static int check_envelope(char *t, size_t len, const char *path, slide_error *err)
{
    size_t k = strlen(CHECKPOINT_MAGIC);
    int version;
    if (strncmp(t, CHECKPOINT_MAGIC, k) != 0 || t[k] != ' ')
        return slide_fail(err, SLIDE_EFORMAT, "%s is not a slide checkpoint (it does "
                          "not start with '%s')", path, CHECKPOINT_MAGIC);
    if (sscanf(t + k, " %d", &version) != 1)
        return slide_fail(err, SLIDE_EFORMAT, "%s: no format version after '%s'",
                          path, CHECKPOINT_MAGIC);
    if (version != CHECKPOINT_VERSION)
        return slide_fail(err, SLIDE_EFORMAT, "%s is a checkpoint of format version %d; "
                          "this slide reads version %d only", path, version,
                          CHECKPOINT_VERSION);
    const char *key = "\nstate-crc32 ";
    char *last = NULL;
    for (char *q = strstr(t, key); q; q = strstr(q + 1, key))
        last = q;
    uint32_t x;
    if (!last || last + strlen(key) + 9 != t + len ||
        parse_hex32(last + strlen(key), &x))
        return slide_fail(err, SLIDE_EFORMAT, "%s is truncated (it does not end with "
                          "a state-crc32 line)", path);
    uint32_t got = checkpoint_crc32(t, (size_t)(last + 1 - t));
    if (got != x)
        return slide_fail(err, SLIDE_EFORMAT, "%s is corrupt: its CRC-32 is %08" PRIx32
                          " but its state-crc32 line says %08" PRIx32, path, got, x);
    last[1] = '\0'; /* the fields end here */
    return SLIDE_OK;
}

/* The counts: first (K then K indexes) and hist (radius+1 numbers). */
static int parse_counts(char **cur, struct state *st, const char *path, slide_error *err)
{
    char *v = take_line(cur, "first", path, err), *rest;
    if (!v)
        return SLIDE_EFORMAT;
    long k = strtol(v, &rest, 10);
    if (k < 1 || k > BFS_KEEP || (*rest != ' ') ||
        parse_u64s(rest + 1, st->first, (int)k))
        return bad_field(err, path, "first", v);
    st->nfirst = (int)k;
    if (strncmp(*cur, "metric ", 7) == 0) { /* optional: the multi-tile metric */
        if (!(v = take_line(cur, "metric", path, err)))
            return SLIDE_EFORMAT;
        if (strcmp(v, "mtm") != 0)
            return bad_field(err, path, "metric", v);
        st->metric = METRIC_MTM;
    }
    if (!(v = take_line(cur, "hist", path, err)))
        return SLIDE_EFORMAT;
    st->hist = calloc((size_t)st->radius + 1, sizeof *st->hist);
    if (!st->hist)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
    if (parse_u64s(v, st->hist, st->radius + 1))
        return slide_fail(err, SLIDE_EFORMAT, "%s: hist must hold %d counts (distance "
                          "0 to radius %d)", path, st->radius + 1, st->radius);
    return SLIDE_OK;
}

/* Every field of the state text, checked for syntax only. */
static int parse_state(char *t, struct state *st, const char *path, slide_error *err)
{
    char *cur = strchr(t, '\n') + 1, *v; /* after the magic line */
    memset(st, 0, sizeof *st);
#define FIELD(key) if (!(v = take_line(&cur, key, path, err))) return SLIDE_EFORMAT
    FIELD("board");
    if (sscanf(v, "%dx%d", &st->rows, &st->cols) != 2)
        return bad_field(err, path, "board", v);
    FIELD("goal");
    snprintf(st->goal, sizeof st->goal, "%s", v);
    FIELD("space");
    snprintf(st->space, sizeof st->space, "%s", v);
    FIELD("entries");
    if (parse_u64(v, &st->entries))
        return bad_field(err, path, "entries", v);
    FIELD("store-bytes");
    if (parse_u64(v, &st->bytes))
        return bad_field(err, path, "store-bytes", v);
    FIELD("store-crc32");
    if (parse_hex32(v, &st->store_crc))
        return bad_field(err, path, "store-crc32", v);
    FIELD("radius");
    if (parse_int(v, 0, RADIUS_MAX, &st->radius))
        return bad_field(err, path, "radius", v);
    FIELD("complete");
    if (parse_int(v, 0, 1, &st->complete))
        return bad_field(err, path, "complete", v);
    FIELD("elapsed");
    if (sscanf(v, "%lf", &st->elapsed) != 1 || !(st->elapsed >= 0))
        return bad_field(err, path, "elapsed", v);
#undef FIELD
    return parse_counts(&cur, st, path, err);
}

/* Does the state describe a search over space s? */
static int match_space(const struct state *st, const struct space *s,
                       const char *dir, slide_error *err)
{
    char goal[512];
    int rc = goal_text(s, goal, sizeof goal, err);
    if (rc)
        return rc;
    if (st->rows != s->rows || st->cols != s->cols)
        return slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is for a %dx%d board, "
                          "not %dx%d", dir, st->rows, st->cols, s->rows, s->cols);
    if (strcmp(st->goal, goal) != 0)
        return slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is for goal \"%s\", not "
                          "\"%s\"", dir, st->goal, goal);
    if (strcmp(st->space, space_kind_name(s->kind)) != 0)
        return slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is of the %s space, not "
                          "the %s space", dir, st->space, space_kind_name(s->kind));
    if (st->entries != s->size || st->bytes != store_bytes_needed(s->size))
        return slide_fail(err, SLIDE_EFORMAT, "checkpoint %s holds %" PRIu64 " entries "
                          "in %" PRIu64 " bytes; the space needs %" PRIu64 " in %" PRIu64,
                          dir, st->entries, st->bytes, s->size,
                          store_bytes_needed(s->size));
    return SLIDE_OK;
}

/* The counts must describe a BFS: one goal, no empty layer, indexes in range. */
static int check_counts(const struct state *st, const char *path, slide_error *err)
{
    uint64_t reached = 0;
    for (int d = 0; d <= st->radius; d++) {
        if (st->hist[d] == 0 || (d == 0 && st->hist[0] != 1))
            return slide_fail(err, SLIDE_EFORMAT, "%s: %" PRIu64 " boards at distance "
                              "%d is not a BFS layer", path, st->hist[d], d);
        reached += st->hist[d];
    }
    if (reached > st->entries)
        return slide_fail(err, SLIDE_EFORMAT, "%s: the histogram sums to %" PRIu64
                          ", more than the %" PRIu64 " entries", path, reached,
                          st->entries);
    for (int i = 0; i < st->nfirst; i++)
        if (st->first[i] >= st->entries)
            return slide_fail(err, SLIDE_EFORMAT, "%s: board index %" PRIu64 " is out "
                              "of range", path, st->first[i]);
    return SLIDE_OK;
}

/* Read and check the state file at path against s. */
static int load_state(const char *dir, const char *path, const struct space *s,
                      struct state *st, slide_error *err)
{
    char *t = NULL;
    size_t len = 0;
    memset(st, 0, sizeof *st);
    int rc = slurp_state(path, &t, &len, err);
    if (rc)
        return rc;
    if (!(rc = check_envelope(t, len, path, err)) &&
        !(rc = parse_state(t, st, path, err)) &&
        !(rc = match_space(st, s, dir, err)))
        rc = check_counts(st, path, err);
    free(t);
    return rc;
}

/* The store file into st, with its CRC-32 in *crc. */
static int read_store(const struct paths *p, uint64_t bytes, struct store *st,
                      uint32_t *crc, slide_error *err)
{
    struct stat sb;
    if (lstat(p->store, &sb) != 0)
        return io_fail(err, "examine", p->store);
    if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size != bytes)
        return slide_fail(err, SLIDE_EFORMAT, "%s has %lld bytes but the state says %"
                          PRIu64 " (truncated or from another checkpoint)", p->store,
                          (long long)sb.st_size, bytes);
    int rc = checkpoint_read_file(p->store, st->words, st->nwords * 8, err);
    if (rc)
        return rc;
    *crc = checkpoint_crc32(st->words, st->nwords * 8);
    return SLIDE_OK;
}

/* The store (CRC crc) against the state: CRC, and agreement with the histogram. */
static int check_store(const struct paths *p, const struct state *sv,
                       const struct store *st, uint32_t crc, slide_error *err)
{
    if (crc != sv->store_crc)
        return slide_fail(err, SLIDE_EFORMAT, "%s is corrupt: its CRC-32 is %08" PRIx32
                          " but the state says %08" PRIx32, p->store, crc, sv->store_crc);
    uint64_t reached = 0;
    for (int d = 0; d <= sv->radius; d++)
        reached += sv->hist[d];
    uint64_t frontier = store_count(st, STORE_FRONTIER);
    uint64_t unvisited = store_count(st, STORE_UNVISITED);
    uint64_t want_frontier = sv->complete ? 0 : sv->hist[sv->radius];
    if (frontier != want_frontier || unvisited != st->size - reached)
        return slide_fail(err, SLIDE_EFORMAT, "%s holds %" PRIu64 " frontier and %"
                          PRIu64 " unvisited entries but the state implies %" PRIu64
                          " and %" PRIu64, p->store, frontier, unvisited, want_frontier,
                          st->size - reached);
    return SLIDE_OK;
}

static void fill_result(struct state *sv, struct bfs_result *r)
{
    memset(r, 0, sizeof *r);
    r->hist = sv->hist;
    sv->hist = NULL;
    r->radius = sv->radius;
    r->layers_alloc = sv->radius + 1;
    for (int d = 0; d <= sv->radius; d++)
        r->reached += r->hist[d];
    memcpy(r->first, sv->first, sizeof r->first);
    r->nfirst = sv->nfirst;
    r->complete = sv->complete;
    r->metric = sv->metric;
    r->seconds = sv->elapsed;
}

/*
 * A state.tmp is a save that died between its renames, or one that died
 * before the store's rename: read it (removing it when its own CRC or
 * fields fail); *have says whether it is a candidate.
 */
static int load_candidate(const char *dir, const struct paths *p, const struct space *s,
                          struct state *sv, int *have, slide_error *err)
{
    struct stat sb;
    slide_error ignored;
    *have = 0;
    memset(sv, 0, sizeof *sv);
    if (lstat(p->state_tmp, &sb) != 0)
        return SLIDE_OK;
    if (load_state(dir, p->state_tmp, s, sv, &ignored) == SLIDE_OK) {
        *have = 1;
        return SLIDE_OK;
    }
    free(sv->hist);
    sv->hist = NULL;
    return unlink(p->state_tmp) == 0 ? SLIDE_OK : io_fail(err, "remove", p->state_tmp);
}

/*
 * Which state names the store: state.tmp (then promoted to state) when its
 * store CRC is the store's, else state (and state.tmp is removed).  *use
 * points at the chosen one.
 */
static int choose_state(const char *dir, const struct paths *p, struct state *main_sv,
                        int main_rc, struct state *tmp_sv, uint32_t crc,
                        struct state **use, slide_error *err)
{
    if (tmp_sv->hist && tmp_sv->store_crc == crc) {
        *use = tmp_sv;
        if (rename(p->state_tmp, p->state) != 0)
            return io_fail(err, "rename to state", p->state_tmp);
        return fsync_dir(dir, err);
    }
    if (tmp_sv->hist && unlink(p->state_tmp) != 0)
        return io_fail(err, "remove", p->state_tmp);
    *use = main_sv;
    return main_rc;
}

int checkpoint_load(const char *dir, const struct space *s, uint64_t max_memory,
                    struct store *st, struct bfs_result *r, slide_error *err)
{
    struct paths p;
    struct state sv, tv, *use = NULL;
    char what[160];
    slide_error main_err;
    int rc, have_tmp;
    uint32_t crc = 0;
    memset(st, 0, sizeof *st);
    memset(r, 0, sizeof *r);
    memset(&sv, 0, sizeof sv);
    if ((rc = host_little_endian(err)) || (rc = make_paths(dir, &p, err)) ||
        (rc = load_candidate(dir, &p, s, &tv, &have_tmp, err)))
        return rc;
    int main_rc = load_state(dir, p.state, s, &sv, &main_err);
    if (main_rc && !have_tmp) {
        *err = main_err;
        free(sv.hist);
        return main_rc;
    }
    snprintf(what, sizeof what, "resuming the %s space of a %dx%d board at 2 bits "
             "per board", space_kind_name(s->kind), s->rows, s->cols);
    uint64_t bytes = store_bytes_needed(s->size);
    if (!(rc = store_check_memory(bytes, max_memory, what, err)) &&
        !(rc = store_alloc(st, s->size, err)) &&
        !(rc = read_store(&p, bytes, st, &crc, err))) {
        if ((rc = choose_state(dir, &p, &sv, main_rc, &tv, crc, &use, err)) && use == &sv)
            *err = main_err;
        if (!rc)
            rc = check_store(&p, use, st, crc, err);
    }
    if (rc)
        store_free(st);
    else
        fill_result(use, r);
    free(sv.hist);
    free(tv.hist);
    return rc;
}

/* ---- ownership and description ------------------------------------------ */

/* The process id written in a lock file (0 when unreadable). */
static long lock_holder(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    return strtol(buf, NULL, 10);
}

/*
 * Temporaries of a run that died without removing them (SIGKILL, power
 * loss): atomic_file names them ".store.<hex>.tmp" and ".state.tmp.<hex>.tmp"
 * for slide bfs, ".pdb-store.D.<hex>.tmp", ".pdb-values.D.<hex>.tmp" and
 * ".pdb-state.<hex>.tmp" for slide pdb build (pdb_checkpoint.h), which
 * locks its directory here too; under the lock no live run owns one, so
 * they go (atomic_file_remove_stale: regular files only, never a link).
 */
static void remove_stale(const char *dir)
{
    static const char *const names[] = {"store", "state.tmp", "pdb-store.*", "pdb-values.*",
                                        "pdb-state", NULL};
    atomic_file_remove_stale(dir, names, NULL);
}

int checkpoint_lock(const char *dir, struct checkpoint_lock *lk, slide_error *err)
{
    char path[PATH_MAX];
    struct stat sb;
    lk->fd = -1;
    if (!*dir)
        return slide_fail(err, SLIDE_EIO, "the checkpoint directory name is empty");
    if ((size_t)snprintf(path, sizeof path, "%s/lock", dir) >= sizeof path)
        return slide_fail(err, SLIDE_EINVAL, "checkpoint directory name is too long");
    int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR
                   ? slide_fail(err, SLIDE_EIO, "no checkpoint: directory %s does not "
                                "exist", dir)
                   : io_fail(err, "open the lock file", path);
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return slide_fail(err, SLIDE_EIO, "%s is not a regular file", path);
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        long pid = e == EWOULDBLOCK ? lock_holder(fd) : 0;
        close(fd);
        if (e != EWOULDBLOCK)
            return slide_fail(err, SLIDE_EIO, "cannot lock %s: %s", path, strerror(e));
        return pid > 0 ? slide_fail(err, SLIDE_EIO, "checkpoint %s is in use by process %ld",
                                    dir, pid)
                       : slide_fail(err, SLIDE_EIO, "checkpoint %s is in use by another "
                                    "process", dir);
    }
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        int e = errno;
        close(fd);
        return slide_fail(err, SLIDE_EIO, "cannot write %s: %s", path, strerror(e));
    }
    lk->fd = fd;
    remove_stale(dir);
    return SLIDE_OK;
}

void checkpoint_unlock(struct checkpoint_lock *lk)
{
    if (lk->fd >= 0)
        close(lk->fd); /* the lock goes with the descriptor; the file stays */
    lk->fd = -1;
}

/* Board, goal and space of the state file at path (checked envelope). */
static int describe_file(const char *path, struct checkpoint_info *info, slide_error *err)
{
    char *t = NULL;
    size_t len = 0;
    struct state st;
    memset(&st, 0, sizeof st);
    int rc = slurp_state(path, &t, &len, err);
    if (!rc && !(rc = check_envelope(t, len, path, err)) &&
        !(rc = parse_state(t, &st, path, err))) {
        int k = space_kind_parse(st.space);
        if (k < 0)
            rc = bad_field(err, path, "space", st.space);
        info->rows = st.rows;
        info->cols = st.cols;
        info->kind = (enum space_kind)(k < 0 ? 0 : k);
        snprintf(info->goal, sizeof info->goal, "%s", st.goal);
    }
    free(st.hist);
    free(t);
    return rc;
}

int checkpoint_describe(const char *dir, struct checkpoint_info *info, slide_error *err)
{
    struct paths p;
    int rc = make_paths(dir, &p, err);
    if (rc)
        return rc;
    struct stat sb;
    if (!*dir)
        return slide_fail(err, SLIDE_EIO, "the checkpoint directory name is empty");
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return slide_fail(err, SLIDE_EIO, "no checkpoint: %s %s", dir,
                          stat(dir, &sb) != 0 ? "does not exist" : "is not a directory");
    rc = describe_file(p.state, info, err);
    /* a whole state.tmp names the same board, goal and space */
    if (rc && describe_file(p.state_tmp, info, NULL) == SLIDE_OK)
        rc = SLIDE_OK;
    return rc;
}
