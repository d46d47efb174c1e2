/*
 * cmd_pdb_run.h - the layer loop of `slide pdb build` with checkpoints
 * (pdb_checkpoint.h): start or resume a build, save it every few minutes
 * and at SIGINT/SIGTERM, stop with 128 + the signal.
 */
#ifndef SLIDE_CMD_PDB_RUN_H
#define SLIDE_CMD_PDB_RUN_H

#include "slide/pdb_build.h"

struct pdb_ckpt {
    const char *dir;   /* checkpoint directory, or NULL: none */
    int resume;        /* 1: continue the checkpoint in dir */
    double every;      /* seconds between checkpoints */
};

/*
 * Build the table of pat into t as pdb_build does, checkpointing as c says.
 * Returns EXIT_OK, or an exit status after printing the one-line error;
 * when a signal stops it, saves a checkpoint, prints where, and exits.
 */
int pdb_run_cli(const struct pattern *pat, enum pdb_kind kind,
                const struct pdb_build_options *o, const struct pdb_ckpt *c,
                struct pdb_table *t);

/* Non-zero once the first SIGINT/SIGTERM asked a checkpointed build to stop
 * at the end of its layer (set by cmd_pdb.c's handler). */
extern volatile sig_atomic_t pdb_stop_signal;

#endif
