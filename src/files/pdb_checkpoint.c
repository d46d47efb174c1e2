/*
 * pdb_checkpoint.c - checkpoints of a pattern database build
 * (pdb_checkpoint.h), written through atomic_file.h with the CRC-32, file
 * reading and locking of the BFS checkpoints (checkpoint.h).
 */
#include "slide/pdb_checkpoint.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "slide/atomic_file.h"
#include "slide/checkpoint.h"

#define STATE_NAME "pdb-state"
#define STATE_MAX 8192

/* "KIND RxC tiles T goal G" of a build. */
static void build_line(const struct pattern *pat, enum pdb_kind kind, char *buf, size_t len)
{
    char tiles[256];
    pattern_format_tiles(pat, tiles, sizeof tiles);
    int n = snprintf(buf, len, "%s %dx%d tiles %s goal", pdb_kind_name(kind), pat->rows,
                     pat->cols, tiles);
    for (int c = 0; c < pat->n && n > 0 && (size_t)n < len; c++)
        n += snprintf(buf + n, len - (size_t)n, " %d", pat->goal_cells[c]);
}

static int path_of(const char *dir, const char *name, int depth, char *buf, size_t len,
                   slide_error *err)
{
    int n = depth < 0 ? snprintf(buf, len, "%s/%s", dir, name)
                      : snprintf(buf, len, "%s/%s.%d", dir, name, depth);
    if (n < 0 || (size_t)n >= len)
        return slide_fail(err, SLIDE_EINVAL, "checkpoint directory name is too long "
                          "(%zu bytes)", strlen(dir));
    return SLIDE_OK;
}

int pdb_checkpoint_exists(const char *dir)
{
    char p[4096];
    struct stat sb;
    slide_error err;
    return path_of(dir, STATE_NAME, -1, p, sizeof p, &err) == SLIDE_OK && lstat(p, &sb) == 0;
}

static int check_disk(const char *dir, uint64_t need, slide_error *err)
{
    struct statvfs vfs;
    if (statvfs(dir, &vfs) != 0)
        return slide_fail(err, SLIDE_EIO, "cannot examine %s: %s", dir, strerror(errno));
    uint64_t avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
    if (avail < need)
        return slide_fail(err, SLIDE_ENOMEM, "a checkpoint in %s needs %" PRIu64 " bytes "
                          "of disk; %" PRIu64 " are free", dir, need, avail);
    return SLIDE_OK;
}

/* Remove DIR/pdb-store.E and DIR/pdb-values.E for every E but keep (-1: all). */
static void remove_others(const char *dir, int keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char p[4096], mine[2][32];
    snprintf(mine[0], sizeof mine[0], "pdb-store.%d", keep);
    snprintf(mine[1], sizeof mine[1], "pdb-values.%d", keep);
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name;
        if ((strncmp(n, "pdb-store.", 10) && strncmp(n, "pdb-values.", 11)) ||
            !strcmp(n, mine[0]) || !strcmp(n, mine[1]))
            continue;
        if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, n) < sizeof p)
            unlink(p);
    }
    closedir(d);
}

static int format_state(const struct pdb_run *run, char *buf, size_t len)
{
    char what[1024];
    uint64_t sb = run->st.nwords * 8, vb = pdb_entries(&run->pat, run->kind);
    build_line(&run->pat, run->kind, what, sizeof what);
    int n = snprintf(buf, len, "%s %d\nbuild %s\ndepth %d\ncumulative %" PRIu64 "\n"
                     "elapsed %.3f\nstore-bytes %" PRIu64 "\nstore-crc32 %08x\n"
                     "values-bytes %" PRIu64 "\nvalues-crc32 %08x\n", PDB_CHECKPOINT_MAGIC,
                     PDB_CHECKPOINT_VERSION, what, run->depth, run->cumulative,
                     run->elapsed, sb, checkpoint_crc32(run->st.words, sb), vb,
                     checkpoint_crc32(run->value, vb));
    if (n < 0 || (size_t)n + 32 >= len)
        return -1;
    n += snprintf(buf + n, len - (size_t)n, "state-crc32 %08x\n",
                  checkpoint_crc32(buf, (size_t)n));
    return n;
}

int pdb_checkpoint_save(const char *dir, const struct pdb_run *run, uint64_t *bytes,
                        slide_error *err)
{
    char ps[4096], pv[4096], pst[4096], state[STATE_MAX];
    uint64_t sb = run->st.nwords * 8, vb = pdb_entries(&run->pat, run->kind);
    if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
        return slide_fail(err, SLIDE_EINVAL, "checkpoints store little-endian words and "
                          "need a little-endian host");
    int rc = path_of(dir, "pdb-store", run->depth, ps, sizeof ps, err);
    if (!rc)
        rc = path_of(dir, "pdb-values", run->depth, pv, sizeof pv, err);
    if (!rc)
        rc = path_of(dir, STATE_NAME, -1, pst, sizeof pst, err);
    if (!rc)
        rc = check_disk(dir, sb + vb + STATE_MAX, err);
    int n = rc ? 0 : format_state(run, state, sizeof state);
    if (!rc && n < 0)
        rc = slide_fail(err, SLIDE_EINVAL, "checkpoint state too long");
    if (!rc)
        rc = atomic_file_write_all(ps, run->st.words, sb, err);
    if (!rc)
        rc = atomic_file_write_all(pv, run->value, vb, err);
    if (!rc)
        rc = atomic_file_write_all(pst, state, (size_t)n, err);
    if (rc)
        return rc;
    remove_others(dir, run->depth);
    if (bytes)
        *bytes = sb + vb + (uint64_t)n;
    return SLIDE_OK;
}

/* ---- loading ----------------------------------------------------------- */

struct pdb_state {
    char build[1024];
    int depth;
    uint64_t cumulative, store_bytes, values_bytes;
    unsigned store_crc, values_crc;
    double elapsed;
};

static int read_state_text(const char *dir, char *t, size_t cap, char *path, slide_error *err)
{
    struct stat sb;
    int rc = path_of(dir, STATE_NAME, -1, path, 4096, err);
    if (rc)
        return rc;
    if (lstat(path, &sb) != 0)
        return slide_fail(err, SLIDE_EIO, "no pattern database checkpoint in %s (%s: %s)",
                          dir, path, strerror(errno));
    if (!S_ISREG(sb.st_mode) || sb.st_size <= 0 || (uint64_t)sb.st_size >= cap)
        return slide_fail(err, SLIDE_EFORMAT, "%s is not a pattern database checkpoint "
                          "state (a regular file under %zu bytes)", path, cap);
    if ((rc = checkpoint_read_file(path, t, (size_t)sb.st_size, err)))
        return rc;
    t[sb.st_size] = '\0';
    return SLIDE_OK;
}

static int parse_state(const char *dir, struct pdb_state *s, slide_error *err)
{
    char t[STATE_MAX], path[4096];
    int rc = read_state_text(dir, t, sizeof t, path, err), version;
    if (rc)
        return rc;
    char *crcline = strstr(t, "state-crc32 ");
    unsigned crc;
    if (!crcline || sscanf(crcline, "state-crc32 %8x", &crc) != 1 ||
        crc != checkpoint_crc32(t, (size_t)(crcline - t)))
        return slide_fail(err, SLIDE_EFORMAT, "%s is corrupt (its state-crc32 does not "
                          "match)", path);
    char *nl = strchr(t, '\n'), *b = strstr(t, "\nbuild ");
    if (sscanf(t, PDB_CHECKPOINT_MAGIC " %d", &version) != 1 || !nl || !b)
        return slide_fail(err, SLIDE_EFORMAT, "%s is not a pattern database checkpoint", path);
    if (version != PDB_CHECKPOINT_VERSION)
        return slide_fail(err, SLIDE_EFORMAT, "%s is of checkpoint format %d; this slide "
                          "reads %d%s", path, version, PDB_CHECKPOINT_VERSION,
                          version == 1 ? " (format 1 builds seeded additive tables with the "
                                         "blank on any free cell: start the build anew)"
                                       : "");
    b += 7;
    size_t bl = strcspn(b, "\n");
    snprintf(s->build, sizeof s->build, "%.*s", (int)bl, b);
    if (sscanf(b + bl, "\ndepth %d\ncumulative %" SCNu64 "\nelapsed %lf\nstore-bytes %"
               SCNu64 "\nstore-crc32 %8x\nvalues-bytes %" SCNu64 "\nvalues-crc32 %8x\n",
               &s->depth, &s->cumulative, &s->elapsed, &s->store_bytes, &s->store_crc,
               &s->values_bytes, &s->values_crc) != 7 ||
        s->depth < 0 || s->depth > PDB_MAX_VALUE + 1)
        return slide_fail(err, SLIDE_EFORMAT, "%s is corrupt (a field is missing or out "
                          "of range)", path);
    return SLIDE_OK;
}

int pdb_checkpoint_describe(const char *dir, char *buf, size_t len, char *tiles,
                            size_t tiles_len, slide_error *err)
{
    struct pdb_state s;
    int rc = parse_state(dir, &s, err);
    if (rc)
        return rc;
    snprintf(buf, len, "%s", s.build);
    const char *t = strstr(s.build, " tiles ");
    snprintf(tiles, tiles_len, "%.*s", t ? (int)strcspn(t + 7, " ") : 0, t ? t + 7 : "");
    return SLIDE_OK;
}

/* Read DIR/NAME.D (bytes long, CRC crc) into p. */
static int load_blob(const char *dir, const char *name, int depth, void *p, uint64_t bytes,
                     unsigned crc, slide_error *err)
{
    char path[4096];
    int rc = path_of(dir, name, depth, path, sizeof path, err);
    if (!rc)
        rc = checkpoint_read_file(path, p, bytes, err);
    if (!rc && checkpoint_crc32(p, bytes) != crc)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s is corrupt (its CRC-32 is not the one "
                        "the checkpoint state holds)", path);
    return rc;
}

int pdb_checkpoint_load(const char *dir, const struct pattern *pat, enum pdb_kind kind,
                        const struct pdb_build_options *o, struct pdb_run *run,
                        slide_error *err)
{
    struct pdb_state s;
    char want[1024];
    memset(run, 0, sizeof *run);
    int rc = parse_state(dir, &s, err);
    if (rc)
        return rc;
    build_line(pat, kind, want, sizeof want);
    if (strcmp(want, s.build))
        return slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is of another build (%s), "
                          "not of this one (%s)", dir, s.build, want);
    if ((rc = pdb_run_alloc(pat, kind, o, run, err)))
        return rc;
    uint64_t sb = run->st.nwords * 8, vb = pdb_entries(pat, kind);
    if (s.store_bytes != sb || s.values_bytes != vb || s.cumulative > vb)
        rc = slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is corrupt (sizes %" PRIu64
                        " and %" PRIu64 " bytes; this build has %" PRIu64 " and %" PRIu64
                        ")", dir, s.store_bytes, s.values_bytes, sb, vb);
    if (!rc)
        rc = load_blob(dir, "pdb-store", s.depth, run->st.words, sb, s.store_crc, err);
    if (!rc)
        rc = load_blob(dir, "pdb-values", s.depth, run->value, vb, s.values_crc, err);
    run->depth = s.depth;
    run->cumulative = s.cumulative;
    run->elapsed = s.elapsed;
    slide_error why;
    if (!rc && pdb_run_check(run, &why))
        rc = slide_fail(err, SLIDE_EFORMAT, "checkpoint %s is corrupt (%s); start the "
                        "build anew", dir, why.msg);
    if (rc) {
        pdb_run_free(run);
        return rc;
    }
    return SLIDE_OK;
}

void pdb_checkpoint_remove(const char *dir)
{
    char p[4096];
    slide_error err;
    struct checkpoint_lock lk;
    /* taken again (the build released it): a directory another run has
     * taken since is left to it; locking also clears dead temporaries */
    if (checkpoint_lock(dir, &lk, &err))
        return;
    remove_others(dir, -1);
    if (path_of(dir, STATE_NAME, -1, p, sizeof p, &err) == SLIDE_OK)
        unlink(p);
    if ((size_t)snprintf(p, sizeof p, "%s/lock", dir) < sizeof p)
        unlink(p);
    rmdir(dir); /* only when nothing else is in it: other files are not ours */
    checkpoint_unlock(&lk);
}
