#define _GNU_SOURCE /* madvise's MADV_HUGEPAGE */
/*
 * db.c - the distance-database file: writing (from a finished search or a
 * loaded database), opening and loading with every check (db.h).
 *
 * Blocks are compressed in batches of one per thread and written in order,
 * so memory stays at a few blocks and the file does not depend on the
 * thread count.  Member 0 is written last, over a placeholder of the same
 * size, once the block table is known.
 */
#include "slide/db.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "slide/atomic_file.h"
#include "slide/file_kind.h"
#include "slide/provenance.h"
#include "slide/rank.h"

_Static_assert(DB_MAX_BLOCK_BYTES <= UINT_MAX / 2, "zlib lengths are unsigned int");
_Static_assert(DB_RECORD_FIXED + 8u * (DB_MAX_RADIUS + 1) + DB_BLOCK_ENTRY * DB_MAX_BLOCKS +
                   DB_PDB_EXT <= 65531u, "the header record must fit one gzip extra field");

/* ---- little-endian fields --------------------------------------------- */

static void put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* ---- sizes -------------------------------------------------------------- */

const char *db_encoding_name(int encoding)
{
    switch (encoding) {
    case DB_ENC_BIT: return "1 bit per board (floor(d/2) mod 2)";
    case DB_ENC_MOD3: return "2 bits per board (d mod 3)";
    case DB_ENC_NIBBLE: return "4 bits per entry (pattern database value)";
    case DB_ENC_BYTE: return "1 byte per board (d)";
    }
    return NULL;
}

int db_default_level(int encoding)
{
    return encoding == DB_ENC_BYTE ? DB_DEFAULT_LEVEL_BYTE : DB_DEFAULT_LEVEL;
}

static uint64_t payload_size(uint64_t indexes, int encoding)
{
    if (encoding == DB_ENC_BIT)
        return indexes / 8 + (indexes % 8 != 0);
    if (encoding == DB_ENC_MOD3)
        return indexes / 4 + (indexes % 4 != 0);
    if (encoding == DB_ENC_NIBBLE)
        return indexes / 2 + (indexes % 2 != 0);
    return indexes;
}

/* The stored form (db.h): blocks written as they are, no gzip members. */
static int stored(const struct db *db)
{
    return db->level == DB_LEVEL_STORED;
}

/* The record of format `version` (of its kind) with radius and nblocks. */
static uint32_t record_len(int radius, uint32_t nblocks, int kind, uint32_t version)
{
    uint32_t ext = kind == DB_KIND_PDB ? DB_PDB_EXT : version >= 2 ? DB_METRIC_EXT : 0u;
    return DB_RECORD_FIXED + 8u * (uint32_t)(radius + 1) + DB_BLOCK_ENTRY * nblocks + ext;
}

/* The format version slide writes for a file of db's kind and form. */
static uint32_t written_version(const struct db *db)
{
    return (int)db->kind == DB_KIND_PDB ? DB_PDB_FORMAT_VERSION
           : stored(db)                 ? DB_FORMAT_STORED_VERSION
                                        : DB_FORMAT_VERSION;
}

static uint64_t block_len(const struct db *db, uint32_t k)
{
    uint64_t off = (uint64_t)k * db->block_bytes;
    uint64_t left = db->payload_bytes - off;
    return left < db->block_bytes ? left : db->block_bytes;
}

/* Block size and count for the payload; grows the default to fit the table. */
static int choose_blocks(struct db *db, uint64_t want, slide_error *err)
{
    uint64_t p = db->payload_bytes, b = want ? want : DB_BLOCK_BYTES;
    if (b > DB_MAX_BLOCK_BYTES)
        return slide_fail(err, SLIDE_EINVAL, "block size %llu is above the limit of %u bytes",
                          (unsigned long long)b, DB_MAX_BLOCK_BYTES);
    if (!want && (p + b - 1) / b > DB_MAX_BLOCKS)
        b = ((p + DB_MAX_BLOCKS - 1) / DB_MAX_BLOCKS + 4095) / 4096 * 4096;
    if ((p + b - 1) / b > DB_MAX_BLOCKS)
        return slide_fail(err, want ? SLIDE_EINVAL : SLIDE_ERANGE,
                          "a payload of %llu bytes needs more than %u blocks of %llu "
                          "bytes", (unsigned long long)p, DB_MAX_BLOCKS,
                          (unsigned long long)b);
    db->block_bytes = b;
    db->nblocks = (uint32_t)((p + b - 1) / b);
    return SLIDE_OK;
}

/* ---- the header member ------------------------------------------------- */

static void encode_record(const struct db *db, uint8_t *rec, uint32_t len)
{
    memset(rec, 0, len);
    memcpy(rec, DB_MAGIC, 8);
    put_u32(rec + 8, written_version(db));
    put_u32(rec + 12, len);
    put_u32(rec + 20, (uint32_t)db->rows);
    put_u32(rec + 24, (uint32_t)db->cols);
    put_u32(rec + 28, (uint32_t)db->kind);
    put_u32(rec + 32, (uint32_t)db->encoding);
    put_u32(rec + 36, (uint32_t)db->level);
    put_u32(rec + 40, (uint32_t)db->radius);
    put_u32(rec + 44, db->nblocks);
    put_u64(rec + 48, db->indexes);
    put_u64(rec + 56, db->reachable);
    put_u64(rec + 64, db->payload_bytes);
    put_u64(rec + 72, db->block_bytes);
    put_u32(rec + 80, db->payload_crc);
    for (int k = 0; (int)db->kind != DB_KIND_PDB && k < board_cells(&db->goal); k++)
        rec[84 + k] = (uint8_t)db->goal.cells[k];
    memcpy(rec + 104, db->tool_version, strnlen(db->tool_version, 24));
    uint8_t *p = rec + DB_RECORD_FIXED;
    for (int d = 0; d <= db->radius; d++, p += 8)
        put_u64(p, db->hist[d]);
    for (uint32_t k = 0; k < db->nblocks; k++, p += DB_BLOCK_ENTRY) {
        put_u64(p, db->blocks[k].offset);
        put_u64(p + 8, db->blocks[k].clen);
        put_u32(p + 16, db->blocks[k].crc);
    }
    if ((int)db->kind == DB_KIND_PDB) {
        put_u32(p, (uint32_t)db->pdb.kind);
        put_u32(p + 4, (uint32_t)db->pdb.k);
        memcpy(p + 8, db->pdb.tiles, 32);
        memcpy(p + 40, db->pdb.goal, 32);
    } else {
        put_u32(p, (uint32_t)db->metric);
    }
    put_u32(rec + 16, (uint32_t)crc32(0L, rec, len));
}

/* Member 0: gzip header with FEXTRA 'Sl', empty deflate body, CRC 0, size 0. */
static void encode_member0(const struct db *db, uint8_t *out, uint32_t len)
{
    static const uint8_t gz[10] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255};
    memcpy(out, gz, 10);
    put_u16(out + 10, len + 4);
    out[12] = 'S';
    out[13] = 'l';
    put_u16(out + 14, len);
    encode_record(db, out + 16, len);
    uint8_t *tail = out + 16 + len;
    memset(tail, 0, 10);
    tail[0] = 3; /* final fixed-Huffman block holding only end-of-block */
}

/* ---- writing -------------------------------------------------------------- */

/* The start of a slide container file (member 0 up to the space kind). */
static int container_kind(const unsigned char *b, size_t n)
{
    if (n < 48 || b[0] != 0x1f || b[1] != 0x8b || b[2] != 8 || b[3] != 4 || b[12] != 'S' ||
        b[13] != 'l' || memcmp(b + 16, DB_MAGIC, 8) != 0)
        return -1;
    return (int)get_u32(b + 16 + 28);
}

static int is_distance_db(const unsigned char *head, size_t n)
{
    int k = container_kind(head, n);
    return k >= 0 && k != DB_KIND_PDB;
}

static int is_pdb(const unsigned char *head, size_t n)
{
    return container_kind(head, n) == DB_KIND_PDB;
}

const struct atomic_file_kind db_file_kind = {"a slide distance database", is_distance_db,
                                              NULL};
const struct atomic_file_kind db_pdb_file_kind = {"a slide pattern database", is_pdb, NULL};

/* Fills dst with payload bytes [off, off + len). */
typedef void (*fill_fn)(const void *ctx, uint64_t off, uint64_t len, uint8_t *dst);

struct writer {
    FILE *f;
    const char *path;  /* the target, for messages */
    int threads;
    fill_fn fill;
    const void *ctx;
};

static uint64_t deflate_block(const uint8_t *in, uint64_t len, uint8_t *out,
                              uint64_t cap, int level)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    uint64_t n = zs.total_out;
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? n : 0;
}

static uint64_t deflate_cap(uint64_t len, int level)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    uint64_t cap = deflateBound(&zs, (uLong)len);
    deflateEnd(&zs);
    return cap;
}

static int write_fail(const struct writer *w, slide_error *err)
{
    return slide_fail(err, SLIDE_EIO, "writing %s failed: %s", w->path, strerror(errno));
}

/* Compress blocks [k0, k0 + n) in parallel into out[], then write them. */
static int write_batch(struct writer *w, struct db *db, uint32_t k0, int n,
                       uint8_t **raw, uint8_t **out, uint64_t cap, uint64_t *offset,
                       slide_error *err)
{
    uint64_t clen[n];
    uint32_t crc[n];
#pragma omp parallel for num_threads(w->threads) schedule(dynamic, 1)
    for (int j = 0; j < n; j++) {
        uint64_t len = block_len(db, k0 + (uint32_t)j);
        w->fill(w->ctx, (uint64_t)(k0 + (uint32_t)j) * db->block_bytes, len, raw[j]);
        crc[j] = (uint32_t)crc32(0L, raw[j], (uInt)len);
        clen[j] = stored(db) ? len : deflate_block(raw[j], len, out[j], cap, db->level);
    }
    for (int j = 0; j < n; j++) {
        uint32_t k = k0 + (uint32_t)j;
        if (clen[j] == 0)
            return slide_fail(err, SLIDE_ENOMEM, "zlib could not compress block %u", k);
        if (fwrite(stored(db) ? raw[j] : out[j], 1, clen[j], w->f) != clen[j])
            return write_fail(w, err);
        db->blocks[k] = (struct db_block){*offset, clen[j], crc[j]};
        *offset += clen[j];
        db->payload_crc = (uint32_t)crc32_combine(db->payload_crc, crc[j],
                                                  (z_off_t)block_len(db, k));
    }
    return SLIDE_OK;
}

static int write_blocks(struct writer *w, struct db *db, uint64_t offset, slide_error *err)
{
    int n = db->nblocks < (uint32_t)w->threads ? (int)db->nblocks : w->threads;
    uint64_t most = block_len(db, 0), cap = stored(db) ? 0 : deflate_cap(most, db->level);
    uint8_t *raw[n], *out[n];
    int rc = SLIDE_OK;
    memset(raw, 0, sizeof raw);
    memset(out, 0, sizeof out);
    for (int j = 0; j < n && !rc; j++)
        if (!(raw[j] = malloc(most)) || (cap && !(out[j] = malloc(cap))))
            rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for %d compression buffers "
                            "of %llu bytes", n, (unsigned long long)(most + cap));
    db->payload_crc = (uint32_t)crc32(0L, Z_NULL, 0);
    for (uint32_t k0 = 0; k0 < db->nblocks && !rc; k0 += (uint32_t)n) {
        int m = db->nblocks - k0 < (uint32_t)n ? (int)(db->nblocks - k0) : n;
        rc = write_batch(w, db, k0, m, raw, out, cap, &offset, err);
    }
    for (int j = 0; j < n; j++) {
        free(raw[j]);
        free(out[j]);
    }
    return rc;
}

static int write_header(struct writer *w, const struct db *db, slide_error *err)
{
    uint32_t len = record_len(db->radius, db->nblocks, (int)db->kind, written_version(db));
    uint8_t *m0 = calloc(1, DB_HEADER_MEMBER(len));
    if (!m0)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the header");
    encode_member0(db, m0, len);
    int ok = fseeko(w->f, 0, SEEK_SET) == 0 &&
             fwrite(m0, 1, DB_HEADER_MEMBER(len), w->f) == DB_HEADER_MEMBER(len);
    free(m0);
    return ok ? SLIDE_OK : write_fail(w, err);
}

/* Write header placeholder, blocks, then the header; commit (atomic_file.h). */
static int write_file(const char *path, struct db *db, fill_fn fill, const void *ctx,
                      int threads, uint64_t *file_bytes, slide_error *err)
{
    struct atomic_file af;
    int rc = atomic_file_open(&af, path, (int)db->kind == DB_KIND_PDB ? &db_pdb_file_kind
                                                                      : &db_file_kind, err);
    if (rc)
        return rc;
    db->blocks = calloc(db->nblocks, sizeof *db->blocks);
    if (!db->blocks) {
        atomic_file_abort(&af);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the block table");
    }
    struct writer w = {af.stream, path, threads > 0 ? threads : omp_get_max_threads(),
                       fill, ctx};
    uint64_t hm = DB_HEADER_MEMBER(record_len(db->radius, db->nblocks, (int)db->kind,
                                              written_version(db)));
    uint8_t zero[256] = {0};
    for (uint64_t done = 0; done < hm && !rc; done += sizeof zero) {
        size_t k = hm - done < sizeof zero ? (size_t)(hm - done) : sizeof zero;
        if (fwrite(zero, 1, k, w.f) != k)
            rc = write_fail(&w, err);
    }
    if (!rc)
        rc = write_blocks(&w, db, hm, err);
    if (!rc)
        rc = write_header(&w, db, err);
    if (rc) {
        atomic_file_abort(&af);
        return rc;
    }
    if ((rc = atomic_file_commit(&af, err)))
        return rc;
    if (file_bytes)
        *file_bytes = db->nblocks ? db->blocks[db->nblocks - 1].offset +
                                        db->blocks[db->nblocks - 1].clen : hm;
    return SLIDE_OK;
}

/* ---- payload producers ---------------------------------------------------- */

/* Encoding 1 from a finished store: 01 (closed, floor(d/2) odd) -> 1. */
static void fill_from_store(const void *ctx, uint64_t off, uint64_t len, uint8_t *dst)
{
    const struct store *st = ctx;
    for (uint64_t b = off; b < off + len; b++) {
        uint64_t w = st->words[b / 4] >> (16 * (b % 4));
        uint64_t x = w & ~(w >> 1) & 0x5555u; /* entries == 01 */
        x = (x | x >> 1) & 0x3333u;
        x = (x | x >> 2) & 0x0f0fu;
        x = (x | x >> 4) & 0x00ffu;
        dst[b - off] = (uint8_t)x;
    }
}

struct exact {
    const uint8_t *dist; /* distance per index, 255 for none */
    uint64_t size;
};

static void fill_bytes(const void *ctx, uint64_t off, uint64_t len, uint8_t *dst)
{
    memcpy(dst, ((const struct exact *)ctx)->dist + off, len);
}

static void fill_mod3(const void *ctx, uint64_t off, uint64_t len, uint8_t *dst)
{
    const struct exact *e = ctx;
    for (uint64_t b = off; b < off + len; b++) {
        unsigned v = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint64_t i = 4 * b + k;
            unsigned x = i < e->size && e->dist[i] != 255 ? e->dist[i] % 3u : 3u;
            v |= x << (2 * k);
        }
        dst[b - off] = (uint8_t)v;
    }
}

static void fill_copy(const void *ctx, uint64_t off, uint64_t len, uint8_t *dst)
{
    memcpy(dst, (const uint8_t *)ctx + off, len);
}

/* ---- exact layers for encodings 2 and 8 ------------------------------------ */

/* Expand layer d of dist into d + 1 by the moves of metric m; returns the
 * boards newly reached. */
static uint64_t expand_layer(const struct space *s, enum metric m, uint8_t *dist, int d,
                             int threads)
{
    uint64_t found = 0;
    int64_t size = (int64_t)s->size;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) reduction(+ : found)
    for (int64_t i = 0; i < size; i++) {
        if (dist[i] != d)
            continue;
        uint64_t nb[SPACE_MAX_MOVES];
        unsigned char codes[SPACE_MAX_MOVES];
        uint8_t t[SPACE_MAX_CELLS];
        int z = space_untz(s, (uint64_t)i, t);
        int k = space_moves_tz(s, m, t, z, (uint64_t)i, nb, codes);
        for (int j = 0; j < k; j++) {
            uint8_t expect = 255;
            if (__atomic_load_n(&dist[nb[j]], __ATOMIC_RELAXED) == 255 &&
                __atomic_compare_exchange_n(&dist[nb[j]], &expect, (uint8_t)(d + 1), 0,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                found++;
        }
    }
    return found;
}

/*
 * Exact distances by a plain layered BFS over one byte per index in the
 * search's metric, checked against the search: the same histogram, and
 * (colour, bit) = d mod 4 in the store (STM) or a closed entry (MTM, whose
 * store keeps no depth) for every reachable index and "unvisited" for
 * every other.
 */
static int exact_layers(const struct space *s, const struct store *st,
                        const struct bfs_result *r, int threads, uint8_t **out,
                        slide_error *err)
{
    int rc = store_check_memory(s->size, 0, "exact distances at one byte per board", err);
    uint8_t *dist = rc ? NULL : malloc(s->size);
    if (rc)
        return rc;
    if (!dist)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %llu bytes of distances",
                          (unsigned long long)s->size);
    memset(dist, 255, s->size);
    dist[s->goal_blank] = 0; /* the goal's t is the identity, of rank 0 */
    int d = 0;
    for (uint64_t found = 1; found && !rc; d++) {
        found = d < 254 ? expand_layer(s, r->metric, dist, d, threads) : 0;
        if (found != (d < r->radius ? r->hist[d + 1] : 0))
            rc = slide_fail(err, SLIDE_EINVAL, "the byte BFS found %llu boards at distance "
                            "%d, the search %llu", (unsigned long long)found, d + 1,
                            (unsigned long long)(d < r->radius ? r->hist[d + 1] : 0));
    }
    uint64_t bad = UINT64_MAX;
    int64_t size = rc ? 0 : (int64_t)s->size;
#pragma omp parallel for num_threads(threads) reduction(min : bad)
    for (int64_t i = 0; i < size; i++) {
        unsigned v = store_get(st, (uint64_t)i), c = s->colour[i % s->n];
        int ok = dist[i] == 255              ? v == STORE_UNVISITED
                 : r->metric == METRIC_MTM ? v == STORE_CLOSED_EVEN
                                           : v < 2 && (c | v << 1) == (unsigned)dist[i] % 4u;
        if (!ok && (uint64_t)i < bad)
            bad = (uint64_t)i;
    }
    if (!rc && bad != UINT64_MAX)
        rc = slide_fail(err, SLIDE_EINVAL, "the byte BFS and the search disagree at index "
                        "%llu", (unsigned long long)bad);
    if (rc)
        free(dist);
    else
        *out = dist;
    return rc;
}

/* ---- saving ------------------------------------------------------------------ */

/* Header fields of a database of space s with histogram r. */
static int init_header(struct db *db, const struct space *s, const struct bfs_result *r,
                       const struct db_save_options *o, slide_error *err)
{
    memset(db, 0, sizeof *db);
    db->rows = s->rows;
    db->cols = s->cols;
    db->kind = s->kind;
    db->metric = r->metric;
    db->encoding = o->encoding ? o->encoding
                               : r->metric == METRIC_MTM ? DB_ENC_MOD3 : DB_ENC_BIT;
    db->level = o->level < 0 ? db_default_level(db->encoding) : o->level;
    db->radius = r->radius;
    db->indexes = s->size;
    db->reachable = s->reachable;
    db->hist = r->hist;
    snprintf(db->tool_version, sizeof db->tool_version, "%s", provenance_version());
    if (!db_encoding_name(db->encoding) || db->encoding == DB_ENC_NIBBLE)
        return slide_fail(err, SLIDE_EINVAL, "encoding must be 1, 2 or 8, not %d", db->encoding);
    if (db->encoding == DB_ENC_BIT && db->metric == METRIC_MTM)
        return slide_fail(err, SLIDE_EINVAL, "encoding 1 takes d mod 2 from the board's "
                          "colour, which holds only in the single-tile metric: a multi-tile "
                          "database takes encoding 2 or 8");
    if (db->level > 9 && !stored(db))
        return slide_fail(err, SLIDE_EINVAL, "zlib level must be 0..9, not %d", db->level);
    if (r->radius > (db->encoding == DB_ENC_BIT ? DB_MAX_RADIUS : 254))
        return slide_fail(err, SLIDE_EINVAL, "radius %d is above the %d that encoding %d "
                          "holds", r->radius, db->encoding == DB_ENC_BIT ? DB_MAX_RADIUS : 254,
                          db->encoding);
    db->payload_bytes = payload_size(s->size, db->encoding);
    int rc = choose_blocks(db, o->block_bytes, err);
    if (!rc && (rc = board_alloc(&db->goal, s->rows, s->cols, err)) == SLIDE_OK)
        for (int k = 0, i = 0; k < s->n; k++)
            db->goal.cells[k] = k == s->goal_blank ? 0 : s->label[i++];
    return rc;
}

int db_save_pdb(const char *path, const struct db *hdr, const uint8_t *payload,
                const struct db_save_options *o, uint64_t *file_bytes, slide_error *err)
{
    struct db h = *hdr;
    h.kind = (enum space_kind)DB_KIND_PDB;
    h.blocks = NULL;
    h.level = o->level < 0 ? DB_DEFAULT_LEVEL : o->level;
    h.payload_bytes = payload_size(h.indexes, h.encoding);
    snprintf(h.tool_version, sizeof h.tool_version, "%s", provenance_version());
    if (h.level > 9)
        return slide_fail(err, SLIDE_EINVAL, "zlib level must be 0..9, not %d", h.level);
    int rc = choose_blocks(&h, o->block_bytes, err);
    if (!rc)
        rc = write_file(path, &h, fill_copy, payload, o->threads, file_bytes, err);
    free(h.blocks);
    return rc;
}

static void release_written(struct db *db)
{
    free(db->blocks);
    board_free(&db->goal);
}

int db_save(const char *path, const struct space *s, const struct store *st,
            const struct bfs_result *r, const struct db_save_options *o,
            uint64_t *file_bytes, slide_error *err)
{
    struct db h;
    uint8_t *dist = NULL;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    if (st->size != s->size || !r->complete || r->reached != s->reachable)
        return slide_fail(err, SLIDE_EINVAL, "only a complete search can be saved "
                          "(%llu of %llu boards reached)", (unsigned long long)r->reached,
                          (unsigned long long)s->reachable);
    if (store_count(st, STORE_FRONTIER) != 0)
        return slide_fail(err, SLIDE_EINVAL, "the store still holds frontier boards");
    int rc = init_header(&h, s, r, o, err);
    if (!rc && h.encoding != DB_ENC_BIT)
        rc = exact_layers(s, st, r, threads, &dist, err);
    struct exact e = {dist, s->size};
    if (!rc)
        rc = h.encoding == DB_ENC_BIT  ? write_file(path, &h, fill_from_store, st, threads,
                                                    file_bytes, err)
             : h.encoding == DB_ENC_BYTE ? write_file(path, &h, fill_bytes, &e, threads,
                                                      file_bytes, err)
                                         : write_file(path, &h, fill_mod3, &e, threads,
                                                      file_bytes, err);
    free(dist);
    release_written(&h);
    return rc;
}

int db_write(const char *path, const struct db *db, const struct db_save_options *o,
             uint64_t *file_bytes, slide_error *err)
{
    struct db h = *db;
    if (!db->payload)
        return slide_fail(err, SLIDE_EINVAL, "the database payload is not loaded");
    h.blocks = NULL;
    h.level = o->level < 0 ? db_default_level(db->encoding) : o->level;
    h.tool_version[0] = '\0';
    snprintf(h.tool_version, sizeof h.tool_version, "%s", provenance_version());
    if (h.level > 9 && !stored(&h))
        return slide_fail(err, SLIDE_EINVAL, "zlib level must be 0..9, not %d", h.level);
    int rc = choose_blocks(&h, o->block_bytes, err);
    if (!rc)
        rc = write_file(path, &h, fill_copy, db->payload, o->threads, file_bytes, err);
    free(h.blocks);
    return rc;
}

/* ---- reading ------------------------------------------------------------------ */

/* Read len bytes at off from the file or buffer; -1 (errno set) on failure. */
static int source_read(const struct db *db, uint64_t off, uint64_t len, uint8_t *dst)
{
    if (db->mem) {
        memcpy(dst, db->mem + off, len);
        return 0;
    }
    while (len) {
        ssize_t got = pread(db->fd, dst, len > (1u << 30) ? (1u << 30) : len, (off_t)off);
        if (got <= 0) {
            if (got == 0)
                errno = EIO; /* the file shrank under us */
            if (got == 0 || errno != EINTR)
                return -1;
            continue;
        }
        dst += got;
        off += (uint64_t)got;
        len -= (uint64_t)got;
    }
    return 0;
}

#define BAD(...) slide_fail(err, SLIDE_EFORMAT, __VA_ARGS__)

/* The gzip framing of member 0; *len receives the record length. */
static int check_member0(const uint8_t *b, uint64_t have, uint32_t *len, slide_error *err)
{
    if (have < 16 || b[0] != 0x1f || b[1] != 0x8b)
        return BAD("not a slide database: the file does not start with a gzip header");
    if (b[2] != 8 || b[3] != 4 || b[12] != 'S' || b[13] != 'l')
        return BAD("a gzip file but not a slide database (its first member has no "
                   "'Sl' header field)");
    *len = get_u16(b + 14);
    if (*len + 4 != get_u16(b + 10))
        return BAD("header field of %u bytes disagrees with the gzip extra length %u",
                   *len, get_u16(b + 10));
    if (*len < DB_RECORD_FIXED)
        return BAD("header record of %u bytes is shorter than the %u fixed bytes", *len,
                   DB_RECORD_FIXED);
    if (have < DB_HEADER_MEMBER(*len))
        return BAD("the file is truncated: it has %llu bytes but its header alone needs %llu",
                   (unsigned long long)have, (unsigned long long)DB_HEADER_MEMBER(*len));
    if (memcmp(b + 16, DB_MAGIC, 8) != 0)
        return BAD("not a slide database: the header does not start with \"%s\"", DB_MAGIC);
    return SLIDE_OK;
}

static int check_record_crc(const uint8_t *rec, uint32_t len, slide_error *err)
{
    uint32_t version = get_u32(rec + 8);
    if (version > DB_PDB_FORMAT_VERSION)
        return BAD("database format version %u is newer than this slide reads (up to %u): "
                   "use a newer slide", version, DB_PDB_FORMAT_VERSION);
    if (version == 0)
        return BAD("database format version 0 does not exist");
    if (get_u32(rec + 12) != len)
        return BAD("header record length %u disagrees with its gzip field (%u bytes)",
                   get_u32(rec + 12), len);
    uint32_t stored = get_u32(rec + 16);
    uLong crc = crc32(0L, rec, 16);
    static const uint8_t zero[4];
    crc = crc32(crc, zero, 4);
    crc = crc32(crc, rec + 20, len - 20);
    if ((uint32_t)crc != stored)
        return BAD("header checksum mismatch (stored %08x, computed %08x): the header is "
                   "corrupt", stored, (unsigned)crc);
    static const uint8_t tail[10] = {3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (memcmp(rec + len, tail, 10) != 0)
        return BAD("the header member does not end with an empty gzip body");
    return SLIDE_OK;
}

/* Scalars of the record, each checked for range. */
static int decode_scalars(const uint8_t *rec, struct db *db, slide_error *err)
{
    uint32_t rows = get_u32(rec + 20), cols = get_u32(rec + 24), kind = get_u32(rec + 28);
    uint32_t enc = get_u32(rec + 32), level = get_u32(rec + 36), radius = get_u32(rec + 40);
    int pdb = kind == DB_KIND_PDB;
    uint32_t most = pdb ? DB_PDB_MAX_CELLS : SPACE_MAX_CELLS;
    db->version = get_u32(rec + 8);
    if (pdb != db->want_pdb)
        return pdb ? BAD("this is a pattern database: read it with slide pdb info|verify")
                   : BAD("this is a distance database, not a pattern database");
    if (pdb ? db->version < DB_PDB_FORMAT_OLDEST
            : db->version < DB_FORMAT_OLDEST || db->version > DB_FORMAT_STORED_VERSION)
        return BAD("format version %u does not hold a %s database", db->version,
                   pdb ? "pattern" : "distance");
    if (rows < 1 || cols < 1 || rows > most || cols > most || rows * cols > most)
        return BAD("header names a %ux%u board; a database holds 1..%u cells", rows, cols,
                   most);
    if (kind > SPACE_FULL && !pdb)
        return BAD("header names space kind %u (0 compact, 1 full, 2 pattern)", kind);
    int enc_ok = pdb ? enc == DB_ENC_NIBBLE || enc == DB_ENC_BYTE
                     : enc != DB_ENC_NIBBLE && db_encoding_name((int)enc);
    if (!enc_ok)
        return BAD("header names encoding %u (%s)", enc, pdb ? "4 or 8" : "1, 2 or 8");
    int stored_form = !pdb && db->version == DB_FORMAT_STORED_VERSION;
    if (stored_form ? level != DB_LEVEL_STORED : level > 9)
        return stored_form ? BAD("header names zlib level %u; format version %u stores its "
                                 "blocks uncompressed (level %u)", level, db->version,
                                 DB_LEVEL_STORED)
                           : BAD("header names zlib level %u (0..9)", level);
    if (radius > (enc == DB_ENC_BIT ? (uint32_t)DB_MAX_RADIUS : enc == DB_ENC_NIBBLE ? 14u
                                                                                   : 254u))
        return BAD("header names radius %u, above what encoding %u holds", radius, enc);
    db->rows = (int)rows;
    db->cols = (int)cols;
    db->kind = (enum space_kind)kind;
    db->encoding = (int)enc;
    db->level = (int)level;
    db->radius = (int)radius;
    db->nblocks = get_u32(rec + 44);
    db->indexes = get_u64(rec + 48);
    db->reachable = get_u64(rec + 56);
    db->payload_bytes = get_u64(rec + 64);
    db->block_bytes = get_u64(rec + 72);
    db->payload_crc = get_u32(rec + 80);
    memcpy(db->tool_version, rec + 104, 24);
    db->tool_version[24] = '\0';
    return SLIDE_OK;
}

static int check_payload_blocks(struct db *db, slide_error *err);

/* The pattern record after the block table, and the goal it holds. */
static int decode_pdb(const uint8_t *rec, struct db *db, slide_error *err)
{
    slide_error why;
    const uint8_t *p = rec + DB_RECORD_FIXED + 8 * (size_t)(db->radius + 1) +
                       DB_BLOCK_ENTRY * (size_t)db->nblocks;
    int n = db->rows * db->cols, seen[32] = {0};
    db->pdb.kind = (int)get_u32(p);
    db->pdb.k = (int)get_u32(p + 4);
    memcpy(db->pdb.tiles, p + 8, 32);
    memcpy(db->pdb.goal, p + 40, 32);
    if (db->pdb.kind < 0 || db->pdb.kind > 2 || db->pdb.k < 1 || db->pdb.k > n - 1)
        return BAD("pattern record names kind %d and %d tiles (kind 0, 1 or 2, 1..%d tiles)",
                   db->pdb.kind, db->pdb.k, n - 1);
    if (db->version < DB_PDB_FORMAT_VERSION && db->pdb.kind == 0)
        return BAD("this additive table is in format %u, whose build seeded the goal "
                   "placement with the blank on any free cell: admissible, but lower than "
                   "its definition wherever the pattern walls in the goal's blank; rebuild "
                   "it with slide pdb build (format %u seeds the goal blank's region only)",
                   db->version, DB_PDB_FORMAT_VERSION);
    for (int i = 0; i < db->pdb.k; i++) {
        int t = db->pdb.tiles[i];
        if (t < 1 || t >= n || seen[t]++)
            return BAD("pattern record names tile %d twice or out of range (1..%d)", t,
                       n - 1);
    }
    int rc = board_alloc(&db->goal, db->rows, db->cols, err);
    for (int k = 0; !rc && k < n; k++)
        db->goal.cells[k] = db->pdb.goal[k];
    if (!rc && (rc = board_validate(&db->goal, &why)) != SLIDE_OK)
        return rc == SLIDE_ENOMEM ? slide_fail(err, rc, "%s", why.msg)
                                  : BAD("header goal is not a valid board: %s", why.msg);
    uint64_t want = rank_kperm_count(n, db->pdb.k) * (db->pdb.kind ? (uint64_t)(n - db->pdb.k)
                                                                    : 1u);
    if (!rc && (db->indexes != want || db->reachable > want))
        return BAD("header counts %llu entries (%llu with a value); this pattern has %llu",
                   (unsigned long long)db->indexes, (unsigned long long)db->reachable,
                   (unsigned long long)want);
    return rc ? rc : check_payload_blocks(db, err);
}

/* The metric after the block table (format 2 on; format 1 is STM). */
static int decode_metric(const uint8_t *rec, struct db *db, slide_error *err)
{
    const uint8_t *p = rec + DB_RECORD_FIXED + 8 * (size_t)(db->radius + 1) +
                       DB_BLOCK_ENTRY * (size_t)db->nblocks;
    uint32_t m = db->version >= 2 ? get_u32(p) : (uint32_t)METRIC_STM;
    if (m != METRIC_STM && m != METRIC_MTM)
        return BAD("header names metric %u (0 single-tile, 1 multi-tile)", m);
    db->metric = (enum metric)m;
    if (db->metric == METRIC_MTM && db->encoding == DB_ENC_BIT)
        return BAD("header names encoding 1 for the multi-tile metric, which has no "
                   "colour to complete it (encoding 2 or 8)");
    return SLIDE_OK;
}

/* The goal cells and the space they define, against the header's counts. */
static int decode_space(const uint8_t *rec, struct db *db, slide_error *err)
{
    slide_error why;
    int n = db->rows * db->cols;
    if ((int)db->kind == DB_KIND_PDB)
        return decode_pdb(rec, db, err);
    int rc = decode_metric(rec, db, err);
    if (rc)
        return rc;
    for (int k = n; k < SPACE_MAX_CELLS; k++)
        if (rec[84 + k])
            return BAD("header goal has a value past cell %d of a %dx%d board", n,
                       db->rows, db->cols);
    if ((rc = board_alloc(&db->goal, db->rows, db->cols, err)) != SLIDE_OK)
        return rc;
    for (int k = 0; k < n; k++)
        db->goal.cells[k] = rec[84 + k];
    if ((rc = board_validate(&db->goal, &why)) != SLIDE_OK)
        return rc == SLIDE_ENOMEM ? slide_fail(err, rc, "%s", why.msg)
                                  : BAD("header goal is not a valid board: %s", why.msg);
    if ((rc = space_init(&db->space, &db->goal, db->kind, err)) != SLIDE_OK)
        return rc;
    db->goal_index = space_rank(&db->space, &db->goal);
    if (db->indexes != db->space.size || db->reachable != db->space.reachable)
        return BAD("header counts %llu indexes and %llu reachable boards, but the %dx%d %s "
                   "space has %llu and %llu", (unsigned long long)db->indexes,
                   (unsigned long long)db->reachable, db->rows, db->cols,
                   space_kind_name(db->kind), (unsigned long long)db->space.size,
                   (unsigned long long)db->space.reachable);
    return check_payload_blocks(db, err);
}

static int check_payload_blocks(struct db *db, slide_error *err)
{
    if (db->payload_bytes != payload_size(db->indexes, db->encoding))
        return BAD("header says %llu payload bytes, encoding %d of %llu indexes needs %llu",
                   (unsigned long long)db->payload_bytes, db->encoding,
                   (unsigned long long)db->indexes,
                   (unsigned long long)payload_size(db->indexes, db->encoding));
    if (db->block_bytes < 1 || db->block_bytes > DB_MAX_BLOCK_BYTES || db->nblocks < 1 ||
        db->nblocks > DB_MAX_BLOCKS ||
        db->nblocks != (db->payload_bytes + db->block_bytes - 1) / db->block_bytes)
        return BAD("header says %u blocks of %llu bytes for %llu payload bytes (blocks of "
                   "1..%u bytes, at most %u blocks)", db->nblocks,
                   (unsigned long long)db->block_bytes, (unsigned long long)db->payload_bytes,
                   DB_MAX_BLOCK_BYTES, DB_MAX_BLOCKS);
    return SLIDE_OK;
}

static int decode_hist(const uint8_t *rec, struct db *db, slide_error *err)
{
    uint64_t sum = 0;
    db->hist = malloc((size_t)(db->radius + 1) * sizeof *db->hist);
    if (!db->hist)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the histogram");
    for (int d = 0; d <= db->radius; d++) {
        db->hist[d] = get_u64(rec + DB_RECORD_FIXED + 8 * (size_t)d);
        if (db->hist[d] > db->reachable - sum ||
            (db->hist[d] == 0 && (int)db->kind != DB_KIND_PDB))
            return BAD("histogram count %llu at distance %d is impossible (%llu reachable "
                       "boards, every layer up to the radius non-empty)",
                       (unsigned long long)db->hist[d], d, (unsigned long long)db->reachable);
        sum += db->hist[d];
    }
    if ((db->hist[0] != 1 && (int)db->kind != DB_KIND_PDB) || db->hist[0] < 1 ||
        sum != db->reachable)
        return BAD("histogram holds %llu boards (%llu at distance 0), the space has %llu "
                   "reachable boards and one goal", (unsigned long long)sum,
                   (unsigned long long)db->hist[0], (unsigned long long)db->reachable);
    return SLIDE_OK;
}

/* The block table: contiguous members from the end of member 0 to the end of the file. */
static int decode_blocks(const uint8_t *rec, uint32_t len, struct db *db, slide_error *err)
{
    uint64_t off = DB_HEADER_MEMBER(len);
    const uint8_t *p = rec + DB_RECORD_FIXED + 8 * (size_t)(db->radius + 1);
    db->blocks = malloc(db->nblocks * sizeof *db->blocks);
    if (!db->blocks)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the block table");
    for (uint32_t k = 0; k < db->nblocks; k++, p += DB_BLOCK_ENTRY) {
        struct db_block *b = &db->blocks[k];
        b->offset = get_u64(p);
        b->clen = get_u64(p + 8);
        b->crc = get_u32(p + 16);
        uint64_t most = block_len(db, k) + block_len(db, k) / 8 + 4096;
        if (b->offset != off)
            return BAD("block %u starts at byte %llu, expected %llu after the previous one",
                       k, (unsigned long long)b->offset, (unsigned long long)off);
        if (stored(db) && b->clen != block_len(db, k))
            return BAD("block %u is %llu bytes in a stored file; it holds %llu", k,
                       (unsigned long long)b->clen, (unsigned long long)block_len(db, k));
        if (!stored(db) && (b->clen < 20 || b->clen > most))
            return BAD("block %u is %llu bytes; a gzip member of a %llu-byte block has 20.."
                       "%llu", k, (unsigned long long)b->clen,
                       (unsigned long long)block_len(db, k), (unsigned long long)most);
        if (b->clen > db->file_bytes - off) {
            return BAD("the file is truncated: it has %llu bytes but block %u ends at byte "
                       "%llu", (unsigned long long)db->file_bytes, k,
                       (unsigned long long)(off + b->clen));
        }
        off += b->clen;
    }
    if (off != db->file_bytes)
        return BAD("the file has %llu bytes but its header accounts for %llu: extra data "
                   "at the end", (unsigned long long)db->file_bytes, (unsigned long long)off);
    return SLIDE_OK;
}

static int parse_header(const uint8_t *b, uint64_t have, struct db *db, slide_error *err)
{
    uint32_t len = 0;
    int rc = check_member0(b, have, &len, err);
    const uint8_t *rec = b + 16;
    if (!rc)
        rc = check_record_crc(rec, len, err);
    if (!rc)
        rc = decode_scalars(rec, db, err);
    uint32_t want = rc ? 0 : record_len(db->radius, db->nblocks, (int)db->kind, db->version);
    if (!rc && len != want)
        rc = BAD("header record has %u bytes, radius %d and %u blocks need %u", len,
                 db->radius, db->nblocks, want);
    if (!rc)
        rc = decode_space(rec, db, err);
    if (!rc)
        rc = decode_hist(rec, db, err);
    if (!rc)
        rc = decode_blocks(rec, len, db, err);
    return rc;
}

static int open_source(struct db *db, slide_error *err)
{
    uint64_t want = DB_HEADER_MEMBER(65531);
    uint64_t have = db->file_bytes < want ? db->file_bytes : want;
    uint8_t *buf = malloc(have ? have : 1);
    if (!buf)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the header");
    int rc = SLIDE_OK;
    if (source_read(db, 0, have, buf) != 0)
        rc = slide_fail(err, SLIDE_EIO, "cannot read the header: %s", strerror(errno));
    if (!rc)
        rc = parse_header(buf, have, db, err);
    free(buf);
    if (rc)
        db_free(db);
    return rc;
}

/* Open path (a regular file: never blocks on a FIFO) and read its header. */
static int open_file(const char *path, int want_pdb, struct db *db, slide_error *err)
{
    struct stat sb;
    memset(db, 0, sizeof *db);
    db->want_pdb = want_pdb;
    db->fd = file_open_regular(path, 1, err);
    if (db->fd < 0)
        return db->fd;
    db->fd_open = 1;
    if (fstat(db->fd, &sb) != 0) {
        int rc = slide_fail(err, SLIDE_EIO, "cannot examine %s: %s", path, strerror(errno));
        db_free(db);
        return rc;
    }
    db->file_bytes = (uint64_t)sb.st_size;
    return open_source(db, err);
}

int db_open(const char *path, struct db *db, slide_error *err)
{
    return open_file(path, 0, db, err);
}

int db_open_pdb(const char *path, struct db *db, slide_error *err)
{
    return open_file(path, 1, db, err);
}

int db_open_mem(const void *buf, uint64_t len, struct db *db, slide_error *err)
{
    memset(db, 0, sizeof *db);
    db->mem = buf;
    db->file_bytes = len;
    return open_source(db, err);
}

/* ---- loading the payload --------------------------------------------------------- */

/* Inflate one gzip member of clen bytes into exactly ulen bytes. */
static int inflate_block(const uint8_t *in, uint64_t clen, uint8_t *out, uint64_t ulen,
                         uint32_t k, slide_error *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return slide_fail(err, SLIDE_ENOMEM, "zlib could not start inflating block %u", k);
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)clen;
    zs.next_out = out;
    zs.avail_out = (uInt)ulen;
    int z = inflate(&zs, Z_FINISH), rc = SLIDE_OK;
    if (z == Z_STREAM_END && zs.total_out != ulen)
        rc = BAD("block %u inflates to %lu bytes, expected %llu", k, zs.total_out,
                 (unsigned long long)ulen);
    else if (z == Z_STREAM_END && zs.avail_in != 0)
        rc = BAD("block %u has %u bytes after the end of its gzip member", k, zs.avail_in);
    else if (z == Z_DATA_ERROR)
        rc = BAD("block %u is corrupt (zlib: %s)", k, zs.msg ? zs.msg : "data error");
    else if (z == Z_MEM_ERROR)
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory inflating block %u", k);
    else if (z != Z_STREAM_END)
        rc = zs.avail_out == 0 ? BAD("block %u inflates to more than %llu bytes", k,
                                     (unsigned long long)ulen)
                               : BAD("block %u is truncated (its gzip member ends early)", k);
    inflateEnd(&zs);
    return rc;
}

/* The CRC of block k's bytes at out into *crc, checked against the table. */
static int check_block(const struct db *db, uint32_t k, const uint8_t *out, uint32_t *crc,
                       slide_error *err)
{
    *crc = (uint32_t)crc32(0L, out, (uInt)block_len(db, k));
    if (*crc != db->blocks[k].crc)
        return BAD("block %u checksum mismatch (stored %08x, computed %08x): the data is "
                   "corrupt", k, db->blocks[k].crc, *crc);
    return SLIDE_OK;
}

/* Read, inflate and check block k; buf holds at least its compressed size.
 * in_place: the payload is mapped (db_map), only check it. */
static int load_block(struct db *db, uint32_t k, uint8_t *buf, int in_place, uint32_t *crc,
                      slide_error *err)
{
    const struct db_block *b = &db->blocks[k];
    uint64_t ulen = block_len(db, k);
    uint8_t *out = db->payload + (uint64_t)k * db->block_bytes;
    if (in_place)
        return check_block(db, k, out, crc, err);
    const uint8_t *in = db->mem ? db->mem + b->offset : buf;
    if (stored(db) && source_read(db, b->offset, ulen, out) != 0) /* no copy between */
        return slide_fail(err, SLIDE_EIO, "cannot read block %u: %s", k, strerror(errno));
    if (!stored(db) && !db->mem && source_read(db, b->offset, b->clen, buf) != 0)
        return slide_fail(err, SLIDE_EIO, "cannot read block %u: %s", k, strerror(errno));
    int rc = stored(db) ? SLIDE_OK : inflate_block(in, b->clen, out, ulen, k, err);
    return rc ? rc : check_block(db, k, out, crc, err);
}

/* Deflate cannot expand data by more than 1032:1 (RFC 1951 lengths): refuse
 * headers that promise more, before allocating the payload. */
static int check_ratio(const struct db *db, slide_error *err)
{
    for (uint32_t k = 0; k < db->nblocks; k++)
        if (block_len(db, k) / 1032 > db->blocks[k].clen)
            return BAD("block %u has %llu compressed bytes, too few for %llu bytes of payload",
                       k, (unsigned long long)db->blocks[k].clen,
                       (unsigned long long)block_len(db, k));
    return SLIDE_OK;
}

static int load_blocks(struct db *db, int threads, int in_place, uint32_t *crcs,
                       slide_error *err)
{
    uint32_t bad = UINT32_MAX;
    int bad_rc = SLIDE_OK;
    uint64_t most = 0;
    for (uint32_t k = 0; k < db->nblocks; k++)
        most = db->blocks[k].clen > most ? db->blocks[k].clen : most;
#pragma omp parallel num_threads(threads)
    {
        slide_error mine;
        uint8_t *buf = db->mem || stored(db) || in_place ? NULL : malloc(most);
#pragma omp for schedule(dynamic, 1)
        for (uint32_t k = 0; k < db->nblocks; k++) {
            int rc = db->cancel && *db->cancel
                         ? slide_fail(&mine, SLIDE_EINTR, "interrupted while loading")
                     : !db->mem && !stored(db) && !in_place && !buf
                         ? slide_fail(&mine, SLIDE_ENOMEM, "out of memory reading block %u", k)
                         : load_block(db, k, buf, in_place, &crcs[k], &mine);
#pragma omp critical(db_load_error)
            if (rc && k < bad) {
                bad = k;
                bad_rc = rc;
                *err = mine;
            }
        }
        free(buf);
    }
    return bad_rc;
}

/* The block CRCs combined against the header's payload CRC. */
static int check_payload_crc(const struct db *db, const uint32_t *crcs, slide_error *err)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    for (uint32_t k = 0; k < db->nblocks; k++)
        crc = crc32_combine(crc, crcs[k], (z_off_t)block_len(db, k));
    if ((uint32_t)crc != db->payload_crc)
        return BAD("payload checksum mismatch (stored %08x, computed %08x)", db->payload_crc,
                   (unsigned)crc);
    return SLIDE_OK;
}

#define HUGE_PAGE ((size_t)2 << 20)
void *db_alloc_payload(size_t bytes)
{
    if (bytes < 16 * HUGE_PAGE)
        return malloc(bytes ? bytes : 1);
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, bytes))
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE); /* advice only */
#endif
    return p;
}

int db_load_payload(struct db *db, int threads, slide_error *err)
{
    char what[96];
    if (db->payload)
        return SLIDE_OK;
    if (threads <= 0)
        threads = omp_get_max_threads();
    snprintf(what, sizeof what, "the payload of a %dx%d database", db->rows, db->cols);
    int rc = check_ratio(db, err);
    if (!rc)
        rc = store_check_memory(db->payload_bytes, 0, what, err);
    uint32_t *crcs = rc ? NULL : malloc(db->nblocks * sizeof *crcs);
    if (!rc && (!crcs || !(db->payload = db_alloc_payload(db->payload_bytes))))
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for %llu payload bytes",
                        (unsigned long long)db->payload_bytes);
    if (!rc)
        rc = load_blocks(db, threads, 0, crcs, err);
    if (!rc)
        rc = check_payload_crc(db, crcs, err);
    free(crcs);
    if (rc) {
        free(db->payload);
        db->payload = NULL;
    }
    return rc;
}

/* The payload of an opened database into memory; the file closed. */
static int load_opened(struct db *db, int threads, slide_error *err)
{
    int rc = db_load_payload(db, threads, err);
    if (rc)
        db_free(db);
    if (!rc && db->fd_open) {
        close(db->fd); /* everything is in memory now */
        db->fd_open = 0;
    }
    return rc;
}

int db_load(const char *path, int threads, struct db *db, slide_error *err)
{
    int rc = db_open(path, db, err);
    return rc ? rc : load_opened(db, threads, err);
}

/* Every block's CRC and the payload CRC over the mapped payload. */
static int check_mapped(struct db *db, int threads, slide_error *err)
{
    uint32_t *crcs = malloc(db->nblocks * sizeof *crcs);
    if (!crcs)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for %u checksums", db->nblocks);
    int rc = load_blocks(db, threads > 0 ? threads : omp_get_max_threads(), 1, crcs, err);
    if (!rc)
        rc = check_payload_crc(db, crcs, err);
    free(crcs);
    return rc;
}

int db_map(const char *path, int threads, int check, const volatile sig_atomic_t *cancel,
           struct db *db, int *mapped, slide_error *err)
{
    if (mapped)
        *mapped = 0;
    int rc = db_open(path, db, err);
    if (rc)
        return rc;
    db->cancel = cancel;
    if (!stored(db))
        return load_opened(db, threads, err);
    void *m = mmap(NULL, (size_t)db->file_bytes, PROT_READ, MAP_SHARED, db->fd, 0);
    if (m == MAP_FAILED) {
        rc = slide_fail(err, SLIDE_EIO, "cannot map %s: %s", path, strerror(errno));
        db_free(db);
        return rc;
    }
    db->map = m;
    db->map_bytes = db->file_bytes;
    db->payload = (uint8_t *)m + db->blocks[0].offset; /* read-only: never written */
    close(db->fd); /* the mapping holds the file */
    db->fd_open = 0;
    if (check && (rc = check_mapped(db, threads, err)) != SLIDE_OK) {
        db_free(db);
        return rc;
    }
    if (mapped)
        *mapped = 1;
    return SLIDE_OK;
}

void db_free(struct db *db)
{
    if (db->fd_open)
        close(db->fd);
    free(db->hist);
    free(db->blocks);
    if (db->map)
        munmap(db->map, (size_t)db->map_bytes);
    else
        free(db->payload);
    board_free(&db->goal);
    memset(db, 0, sizeof *db);
}
