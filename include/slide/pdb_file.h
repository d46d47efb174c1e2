/*
 * pdb_file.h - pattern database files: a finished table (pdb_build.h)
 * written through the database container (db.h, format version 3: the
 * header record names the board, the goal, the pattern, the kind, the
 * histogram of values and the CRC-32 of every block), read back with every
 * check, and verified by a search that shares no code with the build.
 *
 * Encoding on disk: 4 bits per entry when the largest value is at most 14
 * (15 marks "no value"), else one byte per entry (255 "no value").  In
 * memory a loaded table always has one byte per entry.
 */
#ifndef SLIDE_PDB_FILE_H
#define SLIDE_PDB_FILE_H

#include <stdint.h>

#include "slide/db.h"
#include "slide/pdb_build.h"

/* The encoding pdb_save uses for t: DB_ENC_NIBBLE or DB_ENC_BYTE. */
int pdb_file_encoding(const struct pdb_table *t);

/*
 * Write t to path (via path.tmp and a rename; never over something that is
 * not a regular file).  level: zlib level, -1 for the default.  file_bytes
 * (may be NULL) receives the size written.  Errors: as db_save.
 */
int pdb_save(const char *path, const struct pdb_table *t, int level, int threads,
             uint64_t *file_bytes, slide_error *err);

/*
 * Read the pattern database in path into t (free with pdb_table_free),
 * checking the container (db_open_pdb, every block CRC) and that the values
 * agree with the stored histogram.  Errors: SLIDE_EIO, SLIDE_EFORMAT (names
 * the check that failed), SLIDE_ENOMEM.
 */
int pdb_load(const char *path, int threads, struct pdb_table *t, slide_error *err);

/* pdb_load that stops between blocks with SLIDE_EINTR, t freed, when
 * *cancel (may be NULL) becomes non-zero. */
int pdb_load_stoppable(const char *path, int threads, const volatile sig_atomic_t *cancel,
                       struct pdb_table *t, slide_error *err);

struct pdb_verify_report {
    uint64_t states;      /* pattern states (with the blank) searched */
    uint64_t entries;     /* table entries compared */
    uint64_t bytes;       /* memory the check used */
};

/*
 * Recompute every value of t by an independent search and compare: a
 * layered 0-1 BFS (additive) or BFS (plain) over (placement, blank cell)
 * with one byte per state, indexed by placement rank * n + blank cell, the
 * blank's free moves followed by an explicit stack - none of the build's
 * store, bit tricks or region masks.  Memory: n bytes per placement plus
 * 8 bytes per state of the largest layer; refused up front (SLIDE_ENOMEM)
 * above max_memory or what is available.  Errors: SLIDE_EFORMAT naming the
 * first entry that differs, its placement and both values.
 */
int pdb_verify(const struct pdb_table *t, uint64_t max_memory,
               struct pdb_verify_report *rep, slide_error *err);

#endif
