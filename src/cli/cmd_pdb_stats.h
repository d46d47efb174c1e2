/*
 * cmd_pdb_stats.h - `slide pdb stats` and `slide pdb predict` (internal to
 * the command-line layer; cmd_pdb.c parses, cmd_pdb_stats.c runs).
 */
#ifndef SLIDE_CMD_PDB_STATS_H
#define SLIDE_CMD_PDB_STATS_H

#include <stdint.h>

struct pdb_stats_args {
    const char *dims, *heur, *goal, *board; /* board: predict's BOARD or "-" */
    const char *command;                    /* for the provenance block */
    uint64_t samples, seed;
    int exact, threads, csv, provenance;
    long length;                            /* predict BOARD --length L; -1 unset */
};

int pdb_stats_run(const struct pdb_stats_args *a);
int pdb_predict_run(const struct pdb_stats_args *a);

#endif
