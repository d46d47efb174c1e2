/*
 * frontier_stream.c - delta-coded sorted key streams (frontier_stream.h).
 */
#define _GNU_SOURCE /* copy_file_range */
#include "slide/frontier_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fstream_open(struct fstream *s, const char *dir, slide_error *err)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (!dir)
        return SLIDE_OK;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/slide-frontier-XXXXXX", dir) >= sizeof path)
        return slide_fail(err, SLIDE_EIO, "temporary directory name too long: %s", dir);
    /* mkstemp creates the file with O_EXCL: never a symlink, never an old file */
    s->fd = mkstemp(path);
    if (s->fd < 0)
        return slide_fail(err, SLIDE_EIO, "cannot create a temporary file in %s: %s", dir,
                          strerror(errno));
    unlink(path);
    s->wbuf = malloc(FSTREAM_WRITE_BUFFER);
    if (!s->wbuf) {
        close(s->fd);
        s->fd = -1;
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a stream buffer");
    }
    return SLIDE_OK;
}

static int fail(struct fstream *s, int code, const char *what)
{
    if (!s->failed) {
        s->failed = code;
        slide_fail(&s->err, code, "%s", what);
    }
    return code;
}

/* Write len bytes at offset off of the stream's file. */
static int write_at(struct fstream *s, const unsigned char *buf, size_t len, uint64_t off)
{
    for (size_t done = 0; done < len;) {
        ssize_t w = pwrite(s->fd, buf + done, len - done, (off_t)(off + done));
        if (w <= 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "writing a temporary file of the frontier search "
                     "failed: %s", w < 0 ? strerror(errno) : "no progress");
            return fail(s, SLIDE_EIO, msg);
        }
        done += (size_t)w;
    }
    return SLIDE_OK;
}

/* The buffered bytes are the last wlen of the data. */
static int flush_file(struct fstream *s)
{
    int rc = write_at(s, s->wbuf, s->wlen, s->bytes - s->wlen);
    s->wlen = 0;
    return rc;
}

/* Room for need (<= FSTREAM_WRITE_BUFFER) more bytes at the end of the data. */
static unsigned char *room(struct fstream *s, size_t need)
{
    if (s->fd >= 0) {
        if (s->wlen + need > FSTREAM_WRITE_BUFFER && flush_file(s))
            return NULL;
        return s->wbuf + s->wlen;
    }
    if (s->bytes + need > s->mem_cap) {
        uint64_t cap = s->mem_cap ? s->mem_cap + s->mem_cap / 2 : 1 << 16;
        if (cap < s->bytes + need)
            cap = s->bytes + need;
        unsigned char *p = realloc(s->mem, cap);
        if (!p) {
            fail(s, SLIDE_ENOMEM, "out of memory for a layer of the frontier search "
                                  "(lower --max-memory or give --temp-dir)");
            return NULL;
        }
        s->mem = p;
        s->mem_cap = cap;
    }
    return s->mem + s->bytes;
}

static int new_block(struct fstream *s, fkey key)
{
    if (s->nblocks == s->block_cap) {
        size_t cap = s->block_cap ? s->block_cap * 2 : 64;
        struct fstream_block *p = realloc(s->block, cap * sizeof *p);
        if (!p)
            return fail(s, SLIDE_ENOMEM, "out of memory for the index of a layer");
        s->block = p;
        s->block_cap = cap;
    }
    s->block[s->nblocks++] = (struct fstream_block){key, s->bytes, 1};
    return SLIDE_OK;
}

int fstream_append(struct fstream *s, fkey key)
{
    if (s->failed)
        return s->failed;
    if (s->count && key <= s->last)
        return fail(s, SLIDE_EINVAL, "keys of a stream must increase");
    s->count++;
    if (s->nblocks == 0 || s->block[s->nblocks - 1].count == FSTREAM_BLOCK) {
        s->last = key;
        return new_block(s, key);
    }
    unsigned char *p = room(s, FSTREAM_GAP_MAX);
    if (!p)
        return s->failed;
    fkey gap = key - s->last;
    int len = 0;
    if (!(uint64_t)(gap >> 64)) { /* every gap of a 4x4 layer: 64-bit shifts */
        uint64_t g = (uint64_t)gap;
        while (g >= 0x80) {
            p[len++] = (unsigned char)(g | 0x80);
            g >>= 7;
        }
        p[len++] = (unsigned char)g;
    } else {
        while (gap >= 0x80) {
            p[len++] = (unsigned char)(gap | 0x80);
            gap >>= 7;
        }
        p[len++] = (unsigned char)gap;
    }
    s->bytes += (uint64_t)len;
    if (s->fd >= 0)
        s->wlen += (size_t)len;
    s->block[s->nblocks - 1].count++;
    s->last = key;
    return SLIDE_OK;
}

int fstream_finish(struct fstream *s, slide_error *err)
{
    if (!s->failed && s->fd >= 0)
        flush_file(s);
    if (s->failed) {
        if (err)
            *err = s->err;
        return s->failed;
    }
    return SLIDE_OK;
}

static int read_bytes(const struct fstream *s, uint64_t off, size_t len,
                      unsigned char *buf, slide_error *err)
{
    size_t done = 0;
    while (done < len) {
        ssize_t r = pread(s->fd, buf + done, len - done, (off_t)(off + done));
        if (r <= 0)
            return slide_fail(err, SLIDE_EIO, "reading a temporary file of the frontier "
                              "search failed: %s", r < 0 ? strerror(errno) : "file too short");
        done += (size_t)r;
    }
    return SLIDE_OK;
}

int fstream_read_block(const struct fstream *s, size_t b, fkey *out, slide_error *err)
{
    const struct fstream_block *bl = &s->block[b];
    uint64_t end = b + 1 < s->nblocks ? s->block[b + 1].offset : s->bytes;
    size_t len = (size_t)(end - bl->offset);
    unsigned char local[FSTREAM_BLOCK * FSTREAM_GAP_MAX];
    const unsigned char *p = s->mem + bl->offset;
    if (len > sizeof local) {
        slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream is longer than possible", b);
        return -1;
    }
    if (s->fd >= 0) {
        if (read_bytes(s, bl->offset, len, local, err))
            return -1;
        p = local;
    }
    const unsigned char *q = p + len;
    fkey k = bl->first;
    out[0] = k;
    for (uint32_t i = 1; i < bl->count; i++) {
        uint64_t low = 0; /* the first 9 bytes (63 bits) in 64-bit shifts */
        int shift = 0;
        unsigned char byte;
        do {
            if (p == q) {
                slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream is malformed", b);
                return -1;
            }
            byte = *p++;
            low |= (uint64_t)(byte & 0x7f) << shift;
            shift += 7;
        } while ((byte & 0x80) && shift < 63);
        fkey gap = low;
        while (byte & 0x80) { /* a longer gap: on in 128 bits */
            if (p == q || shift > 126) {
                slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream is malformed", b);
                return -1;
            }
            byte = *p++;
            gap |= (fkey)(byte & 0x7f) << shift;
            shift += 7;
        }
        k += gap;
        out[i] = k;
    }
    if (p != q) {
        slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream has trailing bytes", b);
        return -1;
    }
    return (int)bl->count;
}

uint64_t fstream_memory(const struct fstream *s)
{
    return (uint64_t)s->block_cap * sizeof *s->block + (s->fd < 0 ? s->mem_cap : 0) +
           (s->wbuf ? FSTREAM_WRITE_BUFFER : 0);
}

void fstream_close(struct fstream *s)
{
    free(s->block);
    free(s->mem);
    free(s->wbuf);
    free(s->lastb);
    if (s->fd >= 0)
        close(s->fd);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

int fstream_cursor_open(struct fstream_cursor *c, const struct fstream *s,
                        slide_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->keys = malloc(FSTREAM_BLOCK * sizeof *c->keys);
    if (!c->keys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a stream cursor");
    return SLIDE_OK;
}

int fstream_cursor_next(struct fstream_cursor *c, fkey *key, slide_error *err)
{
    if (c->pos == c->len) {
        if (c->failed || c->next_block >= c->s->nblocks)
            return c->failed ? -1 : 0;
        c->len = fstream_read_block(c->s, c->next_block++, c->keys, err);
        c->pos = 0;
        if (c->len < 0) {
            c->failed = 1;
            c->len = 0;
            return -1;
        }
    }
    *key = c->keys[c->pos++];
    return 1;
}

int fstream_cursor_seek(struct fstream_cursor *c, fkey key, fkey *first, slide_error *err)
{
    const struct fstream *s = c->s;
    size_t lo = 0, hi = s->nblocks; /* the last block whose first key <= key */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->block[mid].first <= key)
            lo = mid;
        else
            hi = mid;
    }
    c->next_block = lo;
    c->len = c->pos = 0;
    int got;
    while ((got = fstream_cursor_next(c, first, err)) > 0 && *first < key)
        ;
    return got;
}

/* Copy the len data bytes of file stream src to offset off of dst's file:
 * copy_file_range (the kernel copies, no round trip through user memory),
 * then pread and pwrite where the file system cannot. */
static int copy_file_data(struct fstream *dst, const struct fstream *src, uint64_t len,
                          uint64_t off, slide_error *err)
{
    loff_t in = 0, out = (loff_t)off;
    while ((uint64_t)in < len) {
        ssize_t n = copy_file_range(src->fd, &in, dst->fd, &out, (size_t)(len - (uint64_t)in), 0);
        if (n > 0)
            continue;
        if (n < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL &&
            errno != EOPNOTSUPP)
            return slide_fail(err, SLIDE_EIO, "joining the parts of a layer on disk failed: "
                              "%s", strerror(errno));
        break; /* n == 0 (nothing copied) or not supported: copy by hand */
    }
    unsigned char *buf = NULL;
    while ((uint64_t)in < len) {
        size_t n = len - (uint64_t)in < FSTREAM_WRITE_BUFFER ? (size_t)(len - (uint64_t)in)
                                                             : FSTREAM_WRITE_BUFFER;
        if (!buf && !(buf = malloc(FSTREAM_WRITE_BUFFER)))
            return slide_fail(err, SLIDE_ENOMEM, "out of memory joining the parts of a layer");
        if (read_bytes(src, (uint64_t)in, n, buf, err) || write_at(dst, buf, n, (uint64_t)out)) {
            free(buf);
            if (dst->failed && err)
                *err = dst->err;
            return SLIDE_EIO;
        }
        in += (loff_t)n;
        out += (loff_t)n;
    }
    free(buf);
    return SLIDE_OK;
}

int fstream_concat(struct fstream *dst, struct fstream *src, slide_error *err)
{
    int rc = SLIDE_OK;
    int on_disk = dst->fd >= 0;
    if (src->count && on_disk != (src->fd >= 0))
        rc = slide_fail(err, SLIDE_EINVAL, "joining a layer's parts: memory and file streams mixed");
    else if (src->count) {
        unsigned char *m = on_disk ? dst->mem : realloc(dst->mem, dst->bytes + src->bytes + 1);
        struct fstream_block *b =
            realloc(dst->block, (dst->nblocks + src->nblocks) * sizeof *b);
        if (m)
            dst->mem = m;
        if (b)
            dst->block = b;
        if ((!m && !on_disk) || !b) {
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory joining the parts of a layer");
        } else if (on_disk && (dst->wlen || src->wlen)) {
            rc = slide_fail(err, SLIDE_EINVAL, "joining a layer's parts: a part not finished");
        } else if (on_disk && (rc = copy_file_data(dst, src, src->bytes, dst->bytes, err))) {
            ; /* dst's index unchanged: the bytes past dst->bytes are not its data */
        } else {
            dst->block_cap = dst->nblocks + src->nblocks;
            if (!on_disk) {
                dst->mem_cap = dst->bytes + src->bytes + 1;
                memcpy(dst->mem + dst->bytes, src->mem, src->bytes);
            }
            for (size_t i = 0; i < src->nblocks; i++) {
                dst->block[dst->nblocks + i] = src->block[i];
                dst->block[dst->nblocks + i].offset += dst->bytes;
            }
            dst->nblocks += src->nblocks;
            dst->bytes += src->bytes;
            dst->count += src->count;
            dst->last = src->last;
            if (dst->klen && src->klen == dst->klen)
                memcpy(dst->lastb, src->lastb, dst->klen);
        }
    }
    fstream_close(src);
    return rc;
}

void fstream_cursor_close(struct fstream_cursor *c)
{
    free(c->keys);
    free(c->bkeys);
    memset(c, 0, sizeof *c);
}

int fstream_raw_read(const struct fstream *s, uint64_t off, size_t len, void *buf,
                     slide_error *err)
{
    if (s->fd >= 0)
        return read_bytes(s, off, len, buf, err);
    memcpy(buf, s->mem + off, len);
    return SLIDE_OK;
}

int fstream_raw_append(struct fstream *s, const void *data, size_t len, slide_error *err)
{
    if (s->fd >= 0) {
        if (!s->failed && !flush_file(s) && !write_at(s, data, len, s->bytes))
            s->bytes += len;
        return s->failed ? fstream_finish(s, err) : SLIDE_OK;
    }
    if (s->bytes + len > s->mem_cap) {
        unsigned char *p = realloc(s->mem, s->bytes + len);
        if (!p)
            return slide_fail(err, SLIDE_ENOMEM, "out of memory for a layer of %llu bytes",
                              (unsigned long long)(s->bytes + len));
        s->mem = p;
        s->mem_cap = s->bytes + len;
    }
    memcpy(s->mem + s->bytes, data, len);
    s->bytes += len;
    return SLIDE_OK;
}

/* limit 0: byte keys, whose first entries (prefixes) may repeat */
static int check_index(const struct fstream_block *b, size_t n, uint64_t count,
                       uint64_t bytes, fkey limit, slide_error *err)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t end = i + 1 < n ? b[i + 1].offset : bytes;
        if ((i == 0 && b[i].offset != 0) || b[i].offset > end || end > bytes ||
            b[i].count == 0 || b[i].count > FSTREAM_BLOCK ||
            (i > 0 && b[i].first < b[i - 1].first) ||
            (limit && ((i > 0 && b[i].first == b[i - 1].first) || b[i].first >= limit)))
            return slide_fail(err, SLIDE_EFORMAT, "entry %zu of a layer's index is "
                              "inconsistent with its data", i);
        sum += b[i].count;
    }
    if (sum != count || (n == 0 && bytes != 0))
        return slide_fail(err, SLIDE_EFORMAT, "a layer's index counts %llu keys, its "
                          "header %llu", (unsigned long long)sum, (unsigned long long)count);
    return SLIDE_OK;
}

int fstream_raw_finish(struct fstream *s, struct fstream_block *index, size_t nblocks,
                       uint64_t count, fkey limit, slide_error *err)
{
    int rc = fstream_finish(s, err);
    free(s->block);
    s->block = index;
    s->nblocks = s->block_cap = nblocks;
    s->count = count;
    if (rc || (rc = check_index(index, nblocks, count, s->bytes, limit, err)))
        return rc;
    if (nblocks == 0)
        return SLIDE_OK;
    fkey *keys = malloc(FSTREAM_BLOCK * sizeof *keys);
    if (!keys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
    int len = fstream_read_block(s, nblocks - 1, keys, err);
    if (len > 0)
        s->last = keys[len - 1];
    free(keys);
    if (len < 0)
        return SLIDE_EFORMAT;
    if (s->last >= limit)
        return slide_fail(err, SLIDE_EFORMAT, "a layer holds a key beyond the space");
    return SLIDE_OK;
}

/* ---- byte keys ---------------------------------------------------------- */

int fstream_open_bytes(struct fstream *s, const char *dir, size_t klen, slide_error *err)
{
    int rc = fstream_open(s, dir, err);
    if (rc)
        return rc;
    s->klen = klen;
    s->lastb = calloc(klen ? klen : 1, 1);
    if (!s->lastb) {
        fstream_close(s);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a stream");
    }
    return SLIDE_OK;
}

static size_t put_leb(unsigned char *p, size_t v)
{
    size_t len = 0;
    while (v >= 0x80) {
        p[len++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[len++] = (unsigned char)v;
    return len;
}

/* The first 16 bytes of key (zeros beyond klen), big-endian. */
static fkey prefix16(const unsigned char *key, size_t klen)
{
    fkey v = 0;
    for (size_t i = 0; i < 16; i++)
        v = v << 8 | (i < klen ? key[i] : 0);
    return v;
}

/* Bytes a and b share from the start (at most len), 8 at a time. */
static size_t common_prefix(const unsigned char *a, const unsigned char *b, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) {
            x ^= y; /* the first differing byte is the lowest on little-endian */
            return i + (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                            ? (size_t)__builtin_ctzll(x) / 8
                            : (size_t)__builtin_clzll(x) / 8);
        }
    }
    while (i < len && a[i] == b[i])
        i++;
    return i;
}

int fstream_append_bytes(struct fstream *s, const unsigned char *key)
{
    size_t klen = s->klen, m = klen, shared = 0;
    if (s->failed)
        return s->failed;
    shared = common_prefix(key, s->lastb, klen);
    if (s->count && (shared == klen || key[shared] < s->lastb[shared]))
        return fail(s, SLIDE_EINVAL, "keys of a stream must increase");
    while (m > 0 && key[m - 1] == 0)
        m--;
    int first = s->nblocks == 0 || s->block[s->nblocks - 1].count == FSTREAM_BLOCK;
    if (first)
        shared = 0;
    else if (shared > m)
        shared = m;
    unsigned char *p = room(s, m - shared + 20);
    if (!p)
        return s->failed;
    if (first && new_block(s, prefix16(key, klen)))
        return s->failed;
    if (!first)
        s->block[s->nblocks - 1].count++;
    size_t len = put_leb(p, shared);
    len += put_leb(p + len, m - shared);
    memcpy(p + len, key + shared, m - shared);
    len += m - shared;
    s->bytes += len;
    if (s->fd >= 0)
        s->wlen += len;
    s->count++;
    memcpy(s->lastb + shared, key + shared, klen - shared);
    return SLIDE_OK;
}

static int get_leb(const unsigned char **p, const unsigned char *q, size_t *v)
{
    size_t x = 0;
    int shift = 0;
    do {
        if (*p == q || shift > 28)
            return -1;
        x |= (size_t)(**p & 0x7f) << shift;
        shift += 7;
    } while (*(*p)++ & 0x80);
    *v = x;
    return 0;
}

int fstream_read_block_bytes(const struct fstream *s, size_t b, unsigned char *out,
                             size_t klen, slide_error *err)
{
    const struct fstream_block *bl = &s->block[b];
    uint64_t end = b + 1 < s->nblocks ? s->block[b + 1].offset : s->bytes;
    size_t len = (size_t)(end - bl->offset);
    unsigned char *buf = NULL;
    const unsigned char *p = s->mem + bl->offset;
    if (len > (size_t)FSTREAM_BLOCK * (klen + 20)) {
        slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream is longer than possible", b);
        return -1;
    }
    if (s->fd >= 0) {
        buf = malloc(len ? len : 1);
        if (!buf) {
            slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
            return -1;
        }
        if (read_bytes(s, bl->offset, len, buf, err)) {
            free(buf);
            return -1;
        }
        p = buf;
    }
    const unsigned char *q = p + len;
    int rc = (int)bl->count;
    for (uint32_t i = 0; i < bl->count; i++) {
        size_t shared, rest;
        unsigned char *k = out + i * klen;
        if (get_leb(&p, q, &shared) || get_leb(&p, q, &rest) || (i == 0 && shared) ||
            shared + rest > klen || rest > (size_t)(q - p)) {
            rc = slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream is malformed "
                            "(or holds keys longer than %zu bytes)", b, klen);
            break;
        }
        if (i > 0)
            memcpy(k, k - klen, shared);
        memcpy(k + shared, p, rest);
        memset(k + shared + rest, 0, klen - shared - rest);
        p += rest;
    }
    if (rc > 0 && p != q)
        rc = slide_fail(err, SLIDE_EFORMAT, "block %zu of a stream has trailing bytes", b);
    free(buf);
    return rc > 0 ? rc : -1;
}

int fstream_cursor_open_bytes(struct fstream_cursor *c, const struct fstream *s,
                              size_t klen, slide_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->klen = klen;
    c->bkeys = malloc((size_t)FSTREAM_BLOCK * klen);
    if (!c->bkeys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a stream cursor");
    return SLIDE_OK;
}

int fstream_cursor_next_bytes(struct fstream_cursor *c, const unsigned char **key,
                              slide_error *err)
{
    if (c->pos == c->len) {
        if (c->failed || c->next_block >= c->s->nblocks)
            return c->failed ? -1 : 0;
        c->len = fstream_read_block_bytes(c->s, c->next_block++, c->bkeys, c->klen, err);
        c->pos = 0;
        if (c->len < 0) {
            c->failed = 1;
            c->len = 0;
            return -1;
        }
    }
    *key = c->bkeys + (size_t)c->pos++ * c->klen;
    return 1;
}

int fstream_cursor_seek_bytes(struct fstream_cursor *c, const unsigned char *key,
                              const unsigned char **first, slide_error *err)
{
    const struct fstream *s = c->s;
    fkey p = prefix16(key, c->klen);
    size_t lo = 0, hi = s->nblocks; /* the last block whose prefix is below key's */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->block[mid].first < p)
            lo = mid;
        else
            hi = mid;
    }
    c->next_block = lo;
    c->len = c->pos = 0;
    int got;
    while ((got = fstream_cursor_next_bytes(c, first, err)) > 0 &&
           memcmp(*first, key, c->klen) < 0)
        ;
    return got;
}

int fstream_raw_finish_bytes(struct fstream *s, struct fstream_block *index, size_t nblocks,
                             uint64_t count,
                             int (*valid)(const void *ctx, const unsigned char *key,
                                          size_t klen),
                             const void *ctx, slide_error *err)
{
    int rc = fstream_finish(s, err);
    size_t klen = s->klen;
    free(s->block);
    s->block = index;
    s->nblocks = s->block_cap = nblocks;
    s->count = count;
    if (rc || (rc = check_index(index, nblocks, count, s->bytes, 0, err)))
        return rc;
    unsigned char *keys = malloc((size_t)FSTREAM_BLOCK * klen + klen);
    if (!keys)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a block");
    unsigned char *prev = keys + (size_t)FSTREAM_BLOCK * klen;
    for (size_t b = 0; !rc && b < nblocks; b++) {
        int len = fstream_read_block_bytes(s, b, keys, klen, err);
        if (len < 0) {
            rc = SLIDE_EFORMAT;
            break;
        }
        if (prefix16(keys, klen) != index[b].first)
            rc = slide_fail(err, SLIDE_EFORMAT, "entry %zu of a layer's index does not "
                            "name its first key", b);
        for (int i = 0; !rc && i < len; i++) {
            const unsigned char *k = keys + (size_t)i * klen;
            if ((b > 0 || i > 0) && memcmp(prev, k, klen) >= 0)
                rc = slide_fail(err, SLIDE_EFORMAT, "the keys of a layer do not increase "
                                "(block %zu)", b);
            else if (!valid(ctx, k, klen))
                rc = slide_fail(err, SLIDE_EFORMAT, "a layer holds a key that is no board "
                                "(block %zu)", b);
            memcpy(prev, k, klen);
        }
    }
    if (!rc && nblocks)
        memcpy(s->lastb, prev, klen);
    free(keys);
    return rc;
}
