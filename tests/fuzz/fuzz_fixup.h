/*
 * fuzz_fixup.h - shared by the fuzz targets (tests/fuzz/) and their
 * regression test (tests/test_db.c).
 *
 * fuzz_fixup: a mutated header almost never keeps a right CRC-32, so the
 * loader would stop at the checksum and the fuzzer would never reach the
 * field checks behind it.  Before loading, the header record's CRC (db.h:
 * record at byte 16, its length at byte 14, the CRC at record byte 16) is
 * recomputed in place whenever the record fits the buffer.  The loader
 * itself has no fuzzing mode.
 *
 * fuzz_db_exercise: open, load, verify and query a database from memory;
 * every step must either succeed or fail with a message, never crash.
 */
#ifndef SLIDE_FUZZ_FIXUP_H
#define SLIDE_FUZZ_FIXUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "slide/db.h"

static inline void fuzz_fixup(uint8_t *buf, size_t len)
{
    if (len < 16)
        return;
    size_t rec = (size_t)buf[14] | (size_t)buf[15] << 8;
    if (rec < 20 || 16 + rec > len)
        return;
    uint8_t *r = buf + 16;
    memset(r + 16, 0, 4);
    uint32_t crc = (uint32_t)crc32(0L, r, (uInt)rec);
    for (int i = 0; i < 4; i++)
        r[16 + i] = (uint8_t)(crc >> (8 * i));
}

/* Largest space whose payload is verified and queried (keeps runs fast). */
#define FUZZ_MAX_INDEXES 400000u

static inline void fuzz_db_exercise(const uint8_t *buf, size_t len)
{
    struct db db;
    slide_error err;
    if (db_open_mem(buf, len, &db, &err) != SLIDE_OK) {
        if (!err.msg[0])
            abort(); /* an error must come with its message */
        return;
    }
    if (db.indexes <= FUZZ_MAX_INDEXES && db_load_payload(&db, 1, &err) == SLIDE_OK) {
        struct db_verify_report rep;
        struct board b;
        unsigned char moves[DB_MAX_RADIUS + 1];
        int d;
        db_verify(&db, 1, &rep, &err);
        if (board_alloc(&b, db.rows, db.cols, &err) == SLIDE_OK) {
            for (uint64_t i = 0; i < db.indexes; i += db.indexes / 64 + 1) {
                space_unrank(&db.space, i, &b);
                if (db_path(&db, &b, moves, &d, &err) == SLIDE_OK &&
                    (d < 0 || d > db.radius))
                    abort(); /* a distance outside the file's own radius */
                db_distance(&db, &b, &d, &err);
            }
            board_free(&b);
        }
    }
    db_free(&db);
}

#endif
