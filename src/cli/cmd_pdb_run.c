/*
 * cmd_pdb_run.c - the checkpointed layer loop of `slide pdb build`
 * (cmd_pdb_run.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cmd_pdb_run.h"
#include "slide/checkpoint.h"
#include "slide/pdb_checkpoint.h"

volatile sig_atomic_t pdb_stop_signal;

/* Test hook SLIDE_PDB_PAUSE_MS: wait this long after each layer, so that a
 * test's signal lands while the build runs. */
static void pause_hook(void)
{
    const char *v = getenv("SLIDE_PDB_PAUSE_MS");
    long long ms = 0;
    if (v && !cli_parse_whole(v, 1, 59999, &ms)) {
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* The checkpoint directory: created if missing (its parent must exist; a
 * link or a file is refused), then locked for this process. */
static int open_dir(const struct pdb_ckpt *c, struct checkpoint_lock *lk)
{
    struct stat sb;
    slide_error err;
    if (lstat(c->dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cli_fail(EXIT_FAIL, "checkpoint %s is not a directory (links are refused)",
                        c->dir);
    if (lstat(c->dir, &sb) != 0 && (c->resume || mkdir(c->dir, 0755) != 0))
        return cli_fail(EXIT_FAIL, "cannot %s checkpoint directory %s: %s",
                        c->resume ? "open" : "create", c->dir, strerror(errno));
    if (checkpoint_lock(c->dir, lk, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    if (!c->resume && pdb_checkpoint_exists(c->dir)) {
        checkpoint_unlock(lk);
        return cli_fail(EXIT_FAIL, "%s already holds a pattern database checkpoint: continue "
                        "it with --resume %s, or remove it", c->dir, c->dir);
    }
    return EXIT_OK;
}

static int save(const struct pdb_ckpt *c, const struct pdb_run *run, int progress)
{
    slide_error err;
    uint64_t bytes = 0;
    double t0 = omp_get_wtime();
    if (pdb_checkpoint_save(c->dir, run, &bytes, &err))
        return cli_fail_lib(SLIDE_EIO, &err);
    if (progress)
        cli_eprintf("pdb: checkpoint at cost %d saved in %s: %.0f MB in %.1f s\n",
                run->depth, c->dir, bytes / 1e6, omp_get_wtime() - t0);
    return EXIT_OK;
}

/* The layers, with a checkpoint every c->every seconds and at a signal. */
static int layers(struct pdb_run *run, const struct pdb_build_options *o,
                  const struct pdb_ckpt *c)
{
    slide_error err;
    double last = omp_get_wtime();
    for (int done = 0;;) {
        if (pdb_run_layer(run, o, &done, &err))
            return cli_fail_lib(SLIDE_ERANGE, &err);
        if (done)
            return EXIT_OK;
        if (!c->dir)
            continue;
        pause_hook();
        int sig = pdb_stop_signal;
        if (!sig && omp_get_wtime() - last < c->every)
            continue;
        int rc = save(c, run, o->on_layer != NULL || sig);
        if (rc)
            return rc;
        last = omp_get_wtime();
        if (sig) {
            cli_note("pdb build stopped by %s before cost %d; checkpoint saved "
                    "in %s (continue with --resume %s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                    run->depth, c->dir, c->dir);
            return 128 + sig;
        }
    }
}

int pdb_run_cli(const struct pattern *pat, enum pdb_kind kind,
                const struct pdb_build_options *o, const struct pdb_ckpt *c,
                struct pdb_table *t)
{
    struct checkpoint_lock lk = {-1};
    struct pdb_run run;
    slide_error err;
    int rc = c->dir ? open_dir(c, &lk) : EXIT_OK;
    if (rc)
        return rc;
    int lrc = c->dir && c->resume ? pdb_checkpoint_load(c->dir, pat, kind, o, &run, &err)
                                  : pdb_run_start(pat, kind, o, &run, &err);
    if (lrc) {
        checkpoint_unlock(&lk);
        return cli_fail_lib(lrc, &err);
    }
    rc = layers(&run, o, c);
    if (rc) {
        pdb_run_free(&run);
        checkpoint_unlock(&lk);
        return rc;
    }
    pdb_run_finish(&run, t);
    checkpoint_unlock(&lk);
    return EXIT_OK;
}
