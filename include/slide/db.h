/*
 * db.h - distance databases: the finished search of one R x C board and
 * goal as a file, exact distances and optimal paths by lookup.
 *
 * Payload.  One value per index of the space (space.h), index i:
 *   encoding 1: bit i%8 of byte i/8 = floor(d/2) mod 2, where d is the
 *               distance of board i from the goal.  With the board's colour
 *               (d mod 2, space.h colour[z]) this gives d mod 4.
 *   encoding 2: bits 2*(i%4)..2*(i%4)+1 of byte i/4 = d mod 3.
 *   encoding 8: byte i = d (radius <= 254).
 * An index that cannot reach the goal (full space, 1-row/1-column boards)
 * holds the "no board" value: 0 (encoding 1), 3 (2), 255 (8); so do the
 * padding entries past the last index.
 *
 * Why a residue is an exact database: the move graph is bipartite, so every
 * neighbour of a board at distance d > 0 is at d - 1 or d + 1, and at least
 * one is at d - 1.  With d mod 4 or d mod 3 known, the neighbours one step
 * closer are exactly those holding (d - 1) mod M, because (d + 1) mod M
 * differs from it for M = 3, 4.  Walking to such a neighbour until the goal
 * is reached takes d steps and is an optimal solution (the two-bit BFS
 * oracle of Korf 2008, "Linear-time disk-based implicit graph search").
 *
 * File.  The whole file is one valid gzip stream (RFC 1952) of several
 * members, so `zcat FILE` writes exactly the uncompressed payload:
 *   member 0   the header: a gzip member whose FEXTRA field holds one
 *              subfield 'S','l' (the header record below) and whose deflate
 *              body is empty; DB_HEADER_MEMBER(len) bytes for a record of
 *              len bytes.
 *   member 1+k block k of the payload, bytes [k*B, min((k+1)*B, P)) for block
 *              size B and payload size P, compressed on its own (zlib,
 *              windowBits 31), so blocks are written and checked in
 *              parallel and any block can be inflated alone:
 *              `tail -c +$((offset+1)) FILE | zcat` streams from block k on.
 * Header record, all integers little-endian (byte offsets):
 *   0 magic "slide-db"   8 u32 format version   12 u32 record length L
 *   16 u32 CRC-32 of the record with these 4 bytes read as zero
 *   20 u32 rows  24 u32 cols  28 u32 space kind (0 compact, 1 full)
 *   32 u32 encoding  36 u32 zlib level  40 u32 radius  44 u32 block count
 *   48 u64 indexes (space size)  56 u64 reachable boards  64 u64 payload bytes
 *   72 u64 block size B  80 u32 CRC-32 of the whole uncompressed payload
 *   84 u8[20] goal cells in reading order (blank 0, unused cells 0)
 *   104 char[24] version of the slide that wrote it (NUL padded)
 *   128 u64[radius + 1] histogram (boards at each distance)
 *   then per block: u64 file offset, u64 compressed length, u32 CRC-32 of
 *   the uncompressed block;
 *   then (format 2 on) u32 metric (0 single-tile, 1 multi-tile: metric.h).
 * Format 1 has no metric field and holds single-tile distances; slide
 * writes format 2 and reads both.
 *
 * The multi-tile metric.  Its move graph is not bipartite (a jump of two
 * cells keeps the colour), so a neighbour of a board at d is at d - 1, d or
 * d + 1.  d mod 3 still tells them apart, so encodings 2 and 8 are exact
 * oracles as above; encoding 1 (which needs d mod 2 from the colour) is
 * refused for it.  Every reader states the metric it counts in and is
 * refused a file of the other (db_check_metric).
 * Invariants checked on load: blocks are contiguous from the end of member
 * 0 to the end of the file; every block inflates to exactly its length with
 * its CRC; the block CRCs combine to the payload CRC; the histogram sums to
 * the reachable boards.
 *
 * Stored (uncompressed) form, format version 3 (DB_FORMAT_STORED_VERSION):
 * the member 0 and record of format 2 (the metric field included), with
 * zlib level DB_LEVEL_STORED (255), and
 * each block's bytes written as they are (its length in the table is the
 * block's length), so the payload lies contiguous in the file from the end
 * of member 0 and can be memory-mapped and read in place (db_map).  Such a
 * file is no longer one gzip stream: `zcat` reads member 0 and stops at the
 * payload ("trailing garbage"); `tail -c +$((OFFSET + 1)) FILE` is the
 * payload.  Slides before this form refuse it by its version.  Compressed
 * files (formats 1 and 2) are written and read as before.
 */
#ifndef SLIDE_DB_H
#define SLIDE_DB_H

#include <signal.h>
#include <stdint.h>

#include "slide/atomic_file.h"
#include "slide/bfs.h"
#include "slide/board.h"
#include "slide/error.h"
#include "slide/metric.h"
#include "slide/space.h"
#include "slide/store.h"

#define DB_MAGIC "slide-db"
#define DB_FORMAT_VERSION 2u              /* written now; 1 (no metric) is read */
#define DB_FORMAT_OLDEST 1u
#define DB_METRIC_EXT 4u                 /* format 2: the metric after the block table */
#define DB_FORMAT_STORED_VERSION 3u      /* the stored form (above) */
#define DB_LEVEL_STORED 255              /* "zlib level" of a stored file */
#define DB_RECORD_FIXED 128u             /* header record before the histogram */
#define DB_BLOCK_ENTRY 20u               /* bytes per block in the table */
#define DB_MAX_RADIUS 1023               /* largest radius a file can hold */
#define DB_MAX_BLOCKS 2048u              /* blocks a file can hold */
#define DB_BLOCK_BYTES (4u << 20)        /* default block size */
#define DB_MAX_BLOCK_BYTES (1u << 30)    /* zlib lengths are 32-bit: stay well below */
/*
 * Default zlib levels, from scripts/bench-db.sh: a 1-bit payload is close to
 * incompressible and higher levels do not help (3x4: 0.970 of the payload at
 * level 1, 0.969 at 6 and 9, 15-20% more time; 2x6: 0.932 at 1, 0.935 at 9),
 * and so is a 2-bit one (2x5: 0.168 bytes per board at 1, 0.163 at 9); bytes
 * of exact distances do gain (2x5: 0.368 bytes per board at 1, 0.280 at 9).
 */
#define DB_DEFAULT_LEVEL 1
#define DB_DEFAULT_LEVEL_BYTE 9
/* Bytes of member 0 for a header record of len bytes: gzip header and XLEN
 * (12), subfield id and length (4), the record, empty deflate body (2), CRC-32
 * and length (8). */
#define DB_HEADER_MEMBER(len) ((uint64_t)(len) + 26u)

enum db_encoding { DB_ENC_BIT = 1, DB_ENC_MOD3 = 2, DB_ENC_NIBBLE = 4, DB_ENC_BYTE = 8 };

/*
 * Pattern databases (pdb_build.h) travel in the same container: format
 * version 3 (see DB_PDB_FORMAT_VERSION), space kind DB_KIND_PDB, encoding 4 (entry e in the low nibble
 * of byte e/2 when e is even, the high one when odd; 15 = no value) or 8
 * (a byte per entry; 255 = no value), radius = the largest value,
 * histogram = entries per value (zero counts allowed), indexes = entries,
 * reachable = entries with a value, the fixed goal field zero.  After the
 * block table the record holds DB_PDB_EXT more bytes:
 *   u32 PDB kind (0 additive, 1 plain)   u32 k (pattern tiles)
 *   u8[32] the pattern tiles, in order   u8[32] the goal, reading order
 * so boards up to 30 cells (5x5, 5x6) fit.  db_open refuses such files and
 * db_open_pdb accepts only them.
 */
#define DB_KIND_PDB 2

/* The kinds an existing file must be for db_save/db_write (a distance
 * database) and db_save_pdb (a pattern database) to replace it: the gzip
 * header with the 'Sl' field, the magic, and the space kind (atomic_file.h). */
extern const struct atomic_file_kind db_file_kind, db_pdb_file_kind;
/*
 * Pattern database format versions: 3 (written now) and 2 (read for plain
 * tables only).  The layout is the same; what changed is the additive
 * build's seed: format 2 seeded the goal placement with the blank on every
 * free cell, format 3 only on the cells of the goal blank's region (the
 * definition, pdb_build.h), so a format 2 additive table holds values that
 * are too low and db_open_pdb refuses it, saying to rebuild.  Plain tables
 * were always seeded with the goal's blank cell alone.
 */
#define DB_PDB_FORMAT_VERSION 3u
#define DB_PDB_FORMAT_OLDEST 2u
#define DB_PDB_EXT 72u
#define DB_PDB_MAX_CELLS 30

struct db_pdb {
    int kind;              /* enum pdb_kind */
    int k;
    uint8_t tiles[32];
    uint8_t goal[32];
};

struct db_block {
    uint64_t offset;  /* of its gzip member in the file */
    uint64_t clen;    /* bytes of the member */
    uint32_t crc;     /* CRC-32 of its uncompressed bytes */
};

struct db {
    /* header */
    uint32_t version;
    int rows, cols;
    enum space_kind kind;
    int encoding;
    int level;
    int radius;
    uint64_t indexes, reachable;
    uint64_t payload_bytes, block_bytes;
    uint32_t payload_crc;
    uint32_t nblocks;
    char tool_version[25];
    enum metric metric;        /* what one move is; STM for a format 1 file */
    uint64_t *hist;            /* radius + 1 counts */
    struct db_block *blocks;   /* nblocks */
    uint64_t file_bytes;
    /* derived */
    struct board goal;
    struct space space;
    uint64_t goal_index;
    uint8_t *payload;          /* NULL until db_load_payload */
    struct db_pdb pdb;         /* kind DB_KIND_PDB only */
    /* where it is read from (internal) */
    int fd;                    /* valid when fd_open */
    int fd_open;
    const uint8_t *mem;
    int want_pdb;
    void *map;                 /* db_map: the file mapped (payload points into it) */
    uint64_t map_bytes;
    const volatile sig_atomic_t *cancel; /* stop loading when set (db_map,
                                            pdb_load_stoppable); may be NULL */
};

struct db_save_options {
    int encoding;         /* 1, 2 or 8; 0 means 1 in STM, 2 in MTM */
    int level;            /* zlib level 0..9; -1 means db_default_level;
                             DB_LEVEL_STORED: the stored form (distance
                             databases only) */
    int threads;          /* <= 0: OpenMP default */
    uint64_t block_bytes; /* 0: DB_BLOCK_BYTES, grown to fit DB_MAX_BLOCKS */
};

/* "1 bit (floor(d/2) mod 2)" etc.; NULL for an unknown encoding. */
const char *db_encoding_name(int encoding);

/*
 * Write the database of a finished search (in the metric r->metric) to path through atomic_file.h
 * (checked first; a random temporary beside it, renamed when complete and
 * synced; on any failure the temporary is removed and path is untouched).  s, st, r: the space, the store and the result of a
 * complete bfs_run on s.  Encodings 2 and 8 recompute exact distances by a
 * plain layered BFS over a byte per index (memory: one byte per index) and
 * refuse to save if its histogram or any board's d mod 4 disagrees with
 * st and r.  file_bytes (may be NULL) receives the size written.
 * Errors: SLIDE_EINVAL (incomplete search, bad options, radius too large
 * for the encoding, encoding 1 in MTM), SLIDE_ENOMEM, SLIDE_ERANGE (payload above
 * DB_MAX_BLOCKS * DB_MAX_BLOCK_BYTES), SLIDE_EIO (create, write, close or
 * rename failed: the message names the file and the system error).
 */
int db_save(const char *path, const struct space *s, const struct store *st,
            const struct bfs_result *r, const struct db_save_options *o,
            uint64_t *file_bytes, slide_error *err);

/*
 * Write a loaded database (payload present) to path again, with o's level,
 * threads and block size (o->encoding is ignored: the payload is copied).
 * Errors: as db_save.
 */
int db_write(const char *path, const struct db *db,
             const struct db_save_options *o, uint64_t *file_bytes,
             slide_error *err);

/*
 * Read and check the header of the database in path (or in the len bytes
 * at buf, which must outlive db): magic, version (a newer one is refused),
 * record CRC, every field against the space it names, the block table
 * against the file size.  The payload is not read (db->payload NULL).
 * Errors: SLIDE_EIO (open/read), SLIDE_EFORMAT (the message names the
 * field or check that failed), SLIDE_ENOMEM.  Free with db_free.
 */
int db_open(const char *path, struct db *db, slide_error *err);
int db_open_mem(const void *buf, uint64_t len, struct db *db, slide_error *err);

/*
 * db_open for a pattern database file (kind DB_KIND_PDB): the same checks,
 * with db->pdb filled and db->goal set from it (db->space is not set up).
 * Errors: as db_open; SLIDE_EFORMAT also for a board database.
 */
int db_open_pdb(const char *path, struct db *db, slide_error *err);

/*
 * Write a pattern database (the container above): hdr holds rows, cols,
 * goal, radius (the largest value), indexes, reachable, hist (radius + 1
 * counts), encoding (4 or 8) and pdb; payload its payload_size bytes.
 * o->level and o->threads are used.  Errors: as db_save.
 */
int db_save_pdb(const char *path, const struct db *hdr, const uint8_t *payload,
                const struct db_save_options *o, uint64_t *file_bytes,
                slide_error *err);

/*
 * Inflate every block (in parallel; threads <= 0: OpenMP default), checking
 * each block's length and CRC and the payload CRC.  Refuses, before
 * allocating, a payload larger than memory allows or than its compressed
 * blocks could hold.  Errors: SLIDE_EFORMAT naming the first bad block,
 * SLIDE_EIO, SLIDE_ENOMEM.
 */
int db_load_payload(struct db *db, int threads, slide_error *err);

/* db_open then db_load_payload. */
int db_load(const char *path, int threads, struct db *db, slide_error *err);

/*
 * db_load without copying when it can: a stored-form file (format version
 * 2, above) is memory-mapped read-only and db->payload points into the
 * mapping; with check, every block's CRC and the payload CRC are computed
 * over the mapping first (in parallel; threads <= 0: OpenMP default).  A
 * compressed file is loaded as db_load does.  *mapped (may be NULL)
 * receives 1 when the payload is mapped.  cancel (may be NULL): when *cancel
 * becomes non-zero, the loading or checking stops after the blocks under
 * way with SLIDE_EINTR and db is freed.  The mapping lives until db_free;
 * the file must not shrink meanwhile (slide replaces files by renaming a
 * new one over them, which leaves a mapping intact; truncating the file in
 * place makes reads past its new end fault, as with any mapping).
 * Errors: as db_load; SLIDE_EIO also when mmap fails; SLIDE_EINTR.
 */
int db_map(const char *path, int threads, int check, const volatile sig_atomic_t *cancel,
           struct db *db, int *mapped, slide_error *err);

/* Release everything db holds (db may be zeroed or half-opened). */
void db_free(struct db *db);

/*
 * Memory for a loaded payload or table of `bytes` bytes (released with
 * free()): blocks of 32 MB and more are aligned on 2 MB and marked for
 * transparent huge pages before anything is written to them, because
 * searches read pattern databases at random and with 4 KB pages nearly
 * every lookup in a large table also misses the TLB.  NULL when out of
 * memory.
 */
void *db_alloc_payload(size_t bytes);

/*
 * Check that db answers queries about board b (its dimensions) towards
 * goal (NULL: any goal, i.e. the database's own).  Errors: SLIDE_EINVAL
 * naming both sizes or both goals.
 */
int db_match(const struct db *db, const struct board *b,
             const struct board *goal, slide_error *err);

/*
 * Check that db counts moves of metric `asked` (what the caller's user
 * asked for: --metric).  Errors: SLIDE_EINVAL, one sentence naming the
 * metric the file holds and the one asked.
 */
int db_check_metric(const struct db *db, enum metric asked, slide_error *err);

/*
 * The exact distance of board b (a valid board of the database's size)
 * from the database's goal, by descent along the oracle (above); encoding
 * 8 reads it directly.  Needs the payload.  Errors: SLIDE_EINVAL (other
 * size: see db_match), SLIDE_EUNSOLVABLE (b cannot reach the goal, by the
 * parity theorem), SLIDE_EFORMAT (the payload contradicts itself: no board
 * one step closer, or a walk longer than the radius).
 */
int db_distance(const struct db *db, const struct board *b, int *dist,
                slide_error *err);

/*
 * An optimal solution of b in the database's metric: codes[0..*len-1]
 * (move codes of metric.h; in STM each is the enum move of board.h) lead b
 * to the goal and *len is its distance.  codes must hold db->radius
 * entries.  Errors: as db_distance.
 */
int db_path(const struct db *db, const struct board *b, unsigned char *codes,
            int *len, slide_error *err);

struct db_verify_report {
    uint64_t checked;      /* reachable boards checked */
    uint64_t unreachable;  /* indexes that cannot reach the goal */
    uint64_t classes[256]; /* reachable boards per stored value */
};

/*
 * Check every index of a loaded database without any search (the local
 * check of a distance table, as in 24puzzle's PDB verifier): the goal holds
 * 0; every other reachable board has a neighbour holding its value minus
 * one (mod 4, 3, or exactly for encoding 8) and no neighbour holding other
 * than its value plus or minus one (in MTM: or the same value; neighbours
 * are the db's metric's); unreachable indexes and padding hold
 * the "no board" value; the boards per value match the histogram (folded
 * mod 4 or 3).  For encoding 8 this proves every value exact; for 1 and 2
 * it proves local consistency.  Errors: SLIDE_EFORMAT naming the smallest
 * failing index and its board, SLIDE_EINVAL (payload not loaded).
 */
int db_verify(const struct db *db, int threads, struct db_verify_report *rep,
              slide_error *err);

#endif
