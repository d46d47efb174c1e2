/*
 * pdb_build.h - building pattern databases by a layered breadth-first
 * search over a pattern space (pattern.h), in parallel.
 *
 * Two kinds:
 *   additive (Korf and Felner, "Disjoint pattern database heuristics", AIJ
 *     134, 2002; Felner, Korf and Hanan, "Additive pattern database
 *     heuristics", JAIR 22, 2004): only moves of pattern tiles cost 1; the
 *     blank moving through free cells is free.  The search runs over the
 *     states (placement, blank's free cell) by cost layers from the
 *     abstract goal: the goal placement with the blank on the goal's blank
 *     cell, and so (free moves) on every cell of that cell's region, the
 *     free cells the blank reaches without moving a pattern tile.  The
 *     goal placement with the blank in another region is NOT at cost 0:
 *     pattern tiles wall it off (slide before format 3 seeded it so, which
 *     made values too low; db.h).  After each layer the new states are
 *     closed under the free moves (a flood fill of the blank's region among
 *     the free cells).  A placement's value is the first layer that
 *     reaches it with the blank anywhere, i.e. the minimum over blank
 *     cells; it is stored without the blank.  Values of disjoint patterns
 *     add up to an admissible heuristic, because every real move moves one
 *     tile and is counted by at most one pattern.
 *   plain (Culberson and Schaeffer 1998): every move costs 1 and the value is
 *     kept per (placement, blank cell); a plain value is admissible alone,
 *     and plain values combine only by max.
 *
 * Representation during the search: one two-bit entry per state in a store
 * (store.h, the store of `slide bfs`: same allocation, huge pages, memory
 * guard and atomic word updates) with its own four values:
 *     11 unseen   00 closed   01 / 10 current and next layer, swapping
 *                             roles every layer (01 current at even costs)
 * Layer d is one pass: each placement holding current states is visited by
 * one thread, which writes their values, generates their neighbours one
 * move away (the target placement's rank is p plus the rank change of the
 * moved tile, pattern_move_delta) and marks the unseen ones next with an
 * atomic fetch_and (the first writer wins, so counts are exact for any
 * thread count), then closes them.  Additive: a target is marked with its
 * whole blank region (the free cells the blank reaches at no cost), so a
 * region's states always share their value and the next layer needs no
 * closure pass.  The pass skips 64-bit words holding no current entry.
 * The values therefore do not depend on the thread count.
 *
 * Why not bfs.c itself: bfs.c searches the compact space of whole boards,
 * where every move has cost 1 and the graph's bipartite colours let two bits
 * hold a depth bit as well; a pattern space has states the index cannot
 * colour (its blank ranges over free cells only), the additive kind has
 * cost-0 moves that need the region closure, and a PDB needs the value per
 * placement, not a residue.  What is shared is the store and its atomic
 * marking, the memory guard, the OpenMP threads and the per-layer report.
 *
 * Memory: states / 4 bytes for the store plus one byte per entry of the
 * table (placements for additive, states for plain).
 */
#ifndef SLIDE_PDB_BUILD_H
#define SLIDE_PDB_BUILD_H

#include <stdint.h>

#include "slide/error.h"
#include "slide/pattern.h"
#include "slide/store.h"

/*
 *   mtm: plain, in the multi-tile metric (metric.h): a move jumps the blank to
 *     any cell of its row or column and the cells between shift one cell
 *     towards its old cell (pattern tiles among them move, free cells stay
 *     free), at cost 1; the value is kept per (placement, blank cell) like
 *     plain.  Such a value is the exact distance of an abstraction of the MTM
 *     move graph (every real MTM move maps to one abstract move), so it is
 *     admissible for MTM - and for STM, whose distances are never below MTM
 *     ones.  MTM tables are NOT additive: one move may slide tiles of
 *     several patterns, so they combine only by max (pdb.h).
 */
enum pdb_kind { PDB_ADDITIVE = 0, PDB_PLAIN = 1, PDB_MTM = 2 };

/* The value of an entry no state reaches (e.g. the wrong parity). */
#define PDB_NONE 255
/* Largest value a table holds. */
#define PDB_MAX_VALUE 254

/* A finished table: value[e] for e < entries, PDB_NONE for unreached. */
struct pdb_table {
    struct pattern pat;
    enum pdb_kind kind;
    uint64_t entries;      /* placements (additive) or placements * nfree (plain) */
    uint8_t *value;
    int max;               /* largest value */
    uint64_t hist[256];    /* entries per value; hist[PDB_NONE] unreached */
    uint64_t reachable;    /* entries with a value */
};

struct pdb_layer {
    int depth;             /* cost of the layer just found */
    uint64_t states;       /* states (with the blank) at that cost */
    uint64_t values;       /* table entries whose value is depth */
    uint64_t cumulative;   /* table entries with a value so far */
    uint64_t entries;      /* table size */
    double seconds;        /* wall time of this layer */
    double elapsed;        /* since the build began */
};

typedef void (*pdb_layer_fn)(const struct pdb_layer *layer, void *ctx);

struct pdb_build_options {
    int threads;           /* <= 0: OpenMP default */
    uint64_t max_memory;   /* bytes; 0: what the machine has available */
    pdb_layer_fn on_layer; /* may be NULL */
    void *ctx;
};

/* "additive" / "plain" / "mtm"; pdb_kind_parse returns -1 for other names. */
const char *pdb_kind_name(enum pdb_kind kind);
int pdb_kind_parse(const char *name);

/* Entries of the table of pat (placements or states) and the bytes a build
 * needs (store plus table). */
uint64_t pdb_entries(const struct pattern *pat, enum pdb_kind kind);
uint64_t pdb_build_bytes(const struct pattern *pat, enum pdb_kind kind);

/*
 * Build the table of pat.  t receives it (free with pdb_table_free).
 * Errors: SLIDE_ENOMEM (refused up front when pdb_build_bytes exceeds the
 * memory available or o->max_memory, naming both), SLIDE_ERANGE (a value
 * above PDB_MAX_VALUE).
 */
int pdb_build(const struct pattern *pat, enum pdb_kind kind,
              const struct pdb_build_options *o, struct pdb_table *t,
              slide_error *err);

/*
 * A build in progress, between two layers (what a checkpoint saves,
 * pdb_checkpoint.h): layers 0..depth-1 are closed and their values written;
 * the store's entries with code 01 (depth even) or 10 (depth odd) are the
 * states of cost depth, not yet expanded.
 */
struct pdb_run {
    struct pattern pat;
    enum pdb_kind kind;
    struct store st;       /* placements * nfree two-bit entries */
    uint8_t *value;        /* pdb_entries values, PDB_NONE not yet reached */
    uint64_t placements;
    int f;                 /* entries per placement: nfree */
    int threads;
    int depth;             /* the next layer to expand */
    uint64_t cumulative;   /* table entries with a value */
    double elapsed;        /* seconds of search so far (all processes) */
};

/*
 * pdb_build in steps, so that a caller can stop and save between layers:
 * pdb_run_start allocates (memory guard as pdb_build) and seeds the goal;
 * pdb_run_alloc only allocates (every entry unseen, every value PDB_NONE:
 * for a checkpoint to fill); pdb_run_layer expands layer run->depth and
 * reports it to o->on_layer, or sets *done when it is empty; pdb_run_finish
 * moves the values into t and frees the rest; pdb_run_free frees a run not
 * finished.  Errors: as pdb_build.
 */
int pdb_run_alloc(const struct pattern *pat, enum pdb_kind kind,
                  const struct pdb_build_options *o, struct pdb_run *run, slide_error *err);
int pdb_run_start(const struct pattern *pat, enum pdb_kind kind,
                  const struct pdb_build_options *o, struct pdb_run *run, slide_error *err);
int pdb_run_layer(struct pdb_run *run, const struct pdb_build_options *o, int *done,
                  slide_error *err);
void pdb_run_finish(struct pdb_run *run, struct pdb_table *t);
void pdb_run_free(struct pdb_run *run);

/*
 * The invariants of a run between layers that its depth and cumulative
 * count imply, for a run read back from a checkpoint: exactly cumulative
 * entries hold a value, every value is below depth, and no state carries
 * the code of layer depth + 1 (all of them became layer depth's).  A state
 * file edited by hand (its CRC recomputed) fails one of them unless the
 * depth moves by an even number above the largest value.  O(entries +
 * states / 32).  Errors: SLIDE_EFORMAT saying which does not hold.
 */
int pdb_run_check(const struct pdb_run *run, slide_error *err);

/* Fill t->hist, t->max and t->reachable from t->value. */
void pdb_table_count(struct pdb_table *t);

void pdb_table_free(struct pdb_table *t);

#endif
