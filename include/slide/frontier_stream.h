/*
 * frontier_stream.h - a strictly increasing sequence of keys
 * (frontier_key.h), delta-coded in blocks with an index, held in memory or
 * in a temporary file: how the frontier search (frontier.h) stores a layer
 * and the sorted runs of its external sort.
 *
 * Representation: keys are cut into blocks of FSTREAM_BLOCK keys (fewer at
 * the end of the stream, and where joined parts end: fstream_concat).  The
 * index holds, per block, its first key, its number of keys and the byte
 * offset of its data; the data of a block is the gaps key[i] - key[i-1]
 * (i >= 1) in LEB128 (7 bits a byte, high bit = more bytes follow), so a
 * block decodes without the blocks before it (parallel reading).  Dense
 * layers have small gaps: one to three bytes per board.
 *
 * Invariants: keys strictly increase across the whole stream; the sum of
 * block counts is count; block b's bytes are [offset[b], offset[b+1]) (the
 * last one ends at bytes).  A stream is written once (fstream_append, then
 * fstream_finish) and read any number of times, by any number of threads
 * at once (fstream_read_block uses pread for files).
 *
 * A file-backed stream lives in an unlinked temporary file (mkstemp in the
 * given directory, removed at once): it is never visible under a name, is
 * never written through a symlink, and vanishes when closed or when the
 * process dies.  Its index stays in memory (1/FSTREAM_BLOCK of the keys).
 */
#ifndef SLIDE_FRONTIER_STREAM_H
#define SLIDE_FRONTIER_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "slide/error.h"
#include "slide/frontier_key.h"

/* Keys per block: 4096 keeps the index at about 0.01 byte per key. */
#define FSTREAM_BLOCK 4096
/* Most bytes one gap takes (128 bits at 7 bits per byte). */
#define FSTREAM_GAP_MAX 19
/* Bytes the writer of a file-backed stream buffers before a write(). */
#define FSTREAM_WRITE_BUFFER (1u << 20)

struct fstream_block {
    fkey first;
    uint64_t offset;  /* of its gaps in the data */
    uint32_t count;   /* keys, 1..FSTREAM_BLOCK */
};

struct fstream {
    uint64_t count;         /* keys */
    uint64_t bytes;         /* data bytes (gaps) */
    struct fstream_block *block;
    size_t nblocks, block_cap;
    unsigned char *mem;     /* the data, memory-backed streams */
    uint64_t mem_cap;
    int fd;                 /* the data, file-backed streams; -1 in memory */
    unsigned char *wbuf;    /* file writer's buffer */
    size_t wlen;
    fkey last;              /* last key appended */
    size_t klen;            /* byte keys (fstream_open_bytes): their length; 0: fkeys */
    unsigned char *lastb;   /* byte keys: the last key appended (klen bytes) */
    int failed;             /* an append failed: the error is in err */
    slide_error err;
};

/*
 * Start an empty stream: in memory when dir is NULL, else in an unlinked
 * temporary file in directory dir.  Errors: SLIDE_EIO (cannot create the
 * file, naming dir and the system error), SLIDE_ENOMEM.
 */
int fstream_open(struct fstream *s, const char *dir, slide_error *err);

/*
 * Append key (greater than every key before it).  Errors are sticky: once an
 * append fails (memory, disk) later ones do nothing and fstream_finish
 * returns the first error.  Returns 0 or the error code.
 */
int fstream_append(struct fstream *s, fkey key);

/* Flush a file-backed stream; returns the first error of the appends
 * (SLIDE_ENOMEM, SLIDE_EIO naming the system error) or SLIDE_OK. */
int fstream_finish(struct fstream *s, slide_error *err);

/*
 * Decode block b (< nblocks) into out (FSTREAM_BLOCK keys); returns its
 * count, or -1 when the data cannot be read or is malformed (err says
 * which).  Thread-safe.
 */
int fstream_read_block(const struct fstream *s, size_t b, fkey *out, slide_error *err);

/*
 * Copy len raw data bytes from offset off (off + len <= bytes) into buf:
 * how a stream is saved.  Errors: SLIDE_EIO (file read).
 */
int fstream_raw_read(const struct fstream *s, uint64_t off, size_t len, void *buf,
                     slide_error *err);

/*
 * Rebuild a saved stream into s (just opened, nothing appended): append
 * raw data with fstream_raw_append, then give the index (nblocks entries,
 * taken over and freed by the stream, also on error) and the key count to
 * fstream_raw_finish, which checks them against the data: offsets from 0,
 * increasing, inside the data; counts 1..FSTREAM_BLOCK summing to count;
 * first keys increasing and below limit; the last block decodes.
 * Errors: SLIDE_ENOMEM, SLIDE_EIO, SLIDE_EFORMAT naming what is wrong.
 */
int fstream_raw_append(struct fstream *s, const void *data, size_t len, slide_error *err);
int fstream_raw_finish(struct fstream *s, struct fstream_block *index, size_t nblocks,
                       uint64_t count, fkey limit, slide_error *err);

/* Bytes of memory the stream holds (index and in-memory data). */
uint64_t fstream_memory(const struct fstream *s);

/* Release everything (closes and so deletes the file); s may be zeroed. */
void fstream_close(struct fstream *s);

/* A reader that walks a stream key by key, from block first_block on. */
struct fstream_cursor {
    const struct fstream *s;
    size_t next_block;
    fkey *keys;           /* FSTREAM_BLOCK decoded keys */
    unsigned char *bkeys; /* byte keys: FSTREAM_BLOCK decoded keys of klen bytes */
    size_t klen;
    int len, pos;
    int failed;
};

/* Errors: SLIDE_ENOMEM. */
int fstream_cursor_open(struct fstream_cursor *c, const struct fstream *s,
                        slide_error *err);

/*
 * The next key into *key: returns 1, 0 at the end, -1 on a read error
 * (err says which).
 */
int fstream_cursor_next(struct fstream_cursor *c, fkey *key, slide_error *err);

void fstream_cursor_close(struct fstream_cursor *c);

/*
 * Put the cursor (just opened) on the first key >= key: returns 1 with
 * that key in *first (the next fstream_cursor_next gives the one after),
 * 0 when there is none, -1 on a read error.  Binary search on the blocks'
 * first keys, then one block decoded.
 */
int fstream_cursor_seek(struct fstream_cursor *c, fkey key, fkey *first, slide_error *err);

/*
 * Append stream src (its keys all above dst's; both finished) to stream
 * dst, both in memory or both in files: its data after dst's (in files
 * copied by copy_file_range, or read and written where the file system
 * cannot), its index with the offsets moved; src is closed.  dst's blocks
 * need not be full (a block ends where a part ended).  Errors:
 * SLIDE_ENOMEM, SLIDE_EIO (a file copy failed), SLIDE_EINVAL (a memory and
 * a file stream, or src not finished); dst unchanged, src closed.
 */
int fstream_concat(struct fstream *dst, struct fstream *src, slide_error *err);

/*
 * Byte keys (frontier_moved.h): the same streams for keys that are byte
 * strings of one length, ordered by memcmp, whose trailing zero bytes carry
 * nothing.  A key is stored without its trailing zeros, front-coded: the
 * LEB128 length of the prefix it shares with the key before it (0 for a
 * block's first key), the LEB128 length of the rest, the rest.  So a stream
 * written with keys of klen bytes reads back with any length at least that
 * of its longest key without its zeros.  An index entry's first holds the
 * first 16 bytes of the block's first key, big-endian.  Appends must
 * strictly increase (memcmp).  Errors as the fkey functions.
 */
int fstream_open_bytes(struct fstream *s, const char *dir, size_t klen, slide_error *err);
int fstream_append_bytes(struct fstream *s, const unsigned char *key);

/*
 * Decode block b into out (FSTREAM_BLOCK keys of klen bytes); returns its
 * count, or -1 when the data cannot be read, is malformed or holds a key
 * longer than klen (err says which).  Thread-safe.
 */
int fstream_read_block_bytes(const struct fstream *s, size_t b, unsigned char *out,
                             size_t klen, slide_error *err);

/* A cursor over byte keys of klen bytes; *key points into the cursor's
 * buffer until the next call.  Errors: SLIDE_ENOMEM. */
int fstream_cursor_open_bytes(struct fstream_cursor *c, const struct fstream *s,
                              size_t klen, slide_error *err);
int fstream_cursor_next_bytes(struct fstream_cursor *c, const unsigned char **key,
                              slide_error *err);

/* As fstream_cursor_seek for byte keys (key of the cursor's klen bytes):
 * the blocks' 16-byte prefixes found by binary search, then keys decoded
 * from the last block whose prefix is below key's. */
int fstream_cursor_seek_bytes(struct fstream_cursor *c, const unsigned char *key,
                              const unsigned char **first, slide_error *err);

/*
 * As fstream_raw_finish for a stream of byte keys (opened with
 * fstream_open_bytes(klen)): the index checked against the data, then
 * every key decoded: strictly increasing, and valid(ctx, key, klen) true.
 * Errors: SLIDE_ENOMEM, SLIDE_EIO, SLIDE_EFORMAT naming what is wrong.
 */
int fstream_raw_finish_bytes(struct fstream *s, struct fstream_block *index, size_t nblocks,
                             uint64_t count,
                             int (*valid)(const void *ctx, const unsigned char *key,
                                          size_t klen),
                             const void *ctx, slide_error *err);

#endif
