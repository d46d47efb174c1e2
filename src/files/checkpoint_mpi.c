/*
 * checkpoint_mpi.c - per-process checkpoints of the distributed BFS
 * (checkpoint_mpi.h).  The parts are written with atomic_file.h and
 * checked with checkpoint_crc32, as the single-process checkpoint is.
 */
#include "slide/checkpoint_mpi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slide/atomic_file.h"
#include "slide/bfs_mpi.h"
#include "slide/checkpoint.h"

#define STATE_NAME "mpi-state"
#define STATE_MAX (1u << 20)

static void part_path(char *buf, size_t len, const char *dir, int rank, int gen)
{
    snprintf(buf, len, "%s/part-%d.%d", dir, rank, gen);
}

/* The header lines every state starts with: they name the search. */
static int format_header(char *buf, size_t len, const struct space *s)
{
    struct board b = {0};
    char goal[256] = "?";
    slide_error e;
    if (board_alloc(&b, s->rows, s->cols, &e) == SLIDE_OK) {
        space_unrank(s, (uint64_t)s->goal_blank, &b);
        board_format(&b, goal, sizeof goal);
        board_free(&b);
    }
    return snprintf(buf, len, "%s %d\nboard %dx%d\ngoal %s\nspace %s\nentries %" PRIu64 "\n",
                    CHECKPOINT_MPI_MAGIC, CHECKPOINT_MPI_VERSION, s->rows, s->cols, goal,
                    space_kind_name(s->kind), s->size);
}

/* Rank 0 writes the state naming every part (crc[k], bytes[k]). */
static int write_state(const char *dir, const struct space *s, int nprocs, int gen,
                       const struct bfs_result *r, const uint32_t *crc,
                       const uint64_t *bytes, slide_error *err)
{
    size_t cap = 4096 + (size_t)nprocs * 96 + (size_t)(r->radius + 1) * 24, n;
    char *buf = malloc(cap), path[4096];
    if (!buf)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the checkpoint state");
    n = (size_t)format_header(buf, cap, s);
    n += (size_t)snprintf(buf + n, cap - n, "processes %d\ngeneration %d\nradius %d\n"
                          "complete %d\nelapsed %.6f\nfirst %d", nprocs, gen, r->radius,
                          r->complete, r->seconds, r->nfirst);
    for (int i = 0; i < r->nfirst; i++)
        n += (size_t)snprintf(buf + n, cap - n, " %" PRIu64, r->first[i]);
    if (r->metric == METRIC_MTM) /* only then: single-tile states are as before */
        n += (size_t)snprintf(buf + n, cap - n, "\nmetric mtm");
    n += (size_t)snprintf(buf + n, cap - n, "\nhist");
    for (int d = 0; d <= r->radius; d++)
        n += (size_t)snprintf(buf + n, cap - n, " %" PRIu64, r->hist[d]);
    n += (size_t)snprintf(buf + n, cap - n, "\n");
    for (int k = 0; k < nprocs; k++) {
        uint64_t lo, hi;
        bfs_mpi_range(s, nprocs, k, &lo, &hi);
        n += (size_t)snprintf(buf + n, cap - n, "part %d %" PRIu64 " %" PRIu64 " %" PRIu64
                              " %08x\n", k, lo, hi, bytes[k], crc[k]);
    }
    n += (size_t)snprintf(buf + n, cap - n, "state-crc32 %08x\n", checkpoint_crc32(buf, n));
    snprintf(path, sizeof path, "%s/%s", dir, STATE_NAME);
    int rc = atomic_file_write_all(path, buf, n, err);
    free(buf);
    return rc;
}

int checkpoint_mpi_save(MPI_Comm comm, const char *dir, const struct space *s,
                        const struct store *st, const struct bfs_result *r,
                        int *generation, slide_error *err)
{
    int nprocs, rank, gen = *generation + 1, rc;
    char path[4096];
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    size_t len = (size_t)st->nwords * sizeof(uint64_t);
    part_path(path, sizeof path, dir, rank, gen);
    rc = bfs_mpi_agree(comm, atomic_file_write_all(path, st->words, len, err), err);
    if (rc)
        return rc;
    uint32_t mine = checkpoint_crc32(st->words, len), *crc = NULL;
    uint64_t my_bytes = len, *bytes = NULL;
    if (rank == 0) {
        crc = malloc((size_t)nprocs * sizeof *crc);
        bytes = malloc((size_t)nprocs * sizeof *bytes);
    }
    MPI_Gather(&mine, 1, MPI_UINT32_T, crc, 1, MPI_UINT32_T, 0, comm);
    MPI_Gather(&my_bytes, 1, MPI_UINT64_T, bytes, 1, MPI_UINT64_T, 0, comm);
    rc = SLIDE_OK;
    if (rank == 0)
        rc = crc && bytes ? write_state(dir, s, nprocs, gen, r, crc, bytes, err)
                          : slide_fail(err, SLIDE_ENOMEM, "out of memory for the state");
    free(crc);
    free(bytes);
    rc = bfs_mpi_agree(comm, rc, err);
    if (rc) {
        unlink(path); /* the state still names generation gen - 1 */
        return rc;
    }
    if (*generation > 0) {
        part_path(path, sizeof path, dir, rank, *generation);
        unlink(path);
    }
    *generation = gen;
    return SLIDE_OK;
}

int checkpoint_mpi_exists(MPI_Comm comm, const char *dir)
{
    char path[4096];
    int yes;
    snprintf(path, sizeof path, "%s/%s", dir, STATE_NAME);
    yes = access(path, F_OK) == 0;
    MPI_Bcast(&yes, 1, MPI_INT, 0, comm);
    return yes;
}

/* Rank 0 reads the state; every process gets its text (NUL-ended). */
static int read_state(MPI_Comm comm, const char *dir, char **text, slide_error *err)
{
    int rank, rc = SLIDE_OK;
    uint64_t n = 0;
    char path[4096];
    MPI_Comm_rank(comm, &rank);
    snprintf(path, sizeof path, "%s/%s", dir, STATE_NAME);
    *text = malloc(STATE_MAX + 1);
    if (!*text)
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for %s", path);
    else if (rank == 0) {
        FILE *f = fopen(path, "rb");
        if (!f)
            rc = slide_fail(err, SLIDE_EIO, "cannot open %s: no MPI checkpoint there", path);
        else {
            n = fread(*text, 1, STATE_MAX + 1, f);
            fclose(f);
            if (n > STATE_MAX)
                rc = slide_fail(err, SLIDE_EFORMAT, "%s is over %u bytes: not a state file",
                                path, STATE_MAX);
        }
    }
    if ((rc = bfs_mpi_agree(comm, rc, err)))
        return rc;
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    MPI_Bcast(*text, (int)n, MPI_CHAR, 0, comm);
    (*text)[n] = 0;
    return SLIDE_OK;
}

/* Return the line starting with key (and a space), or NULL. */
static const char *field(const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, key, k) == 0 && p[k] == ' ')
            return p + k + 1;
    return NULL;
}

/* The value of key's line, or "" when there is none. */
static const char *value_of(const char *text, const char *key)
{
    const char *v = field(text, key);
    return v ? v : "";
}

/* Parse the histogram and the first indexes into r. */
static int parse_result(const char *text, struct bfs_result *r)
{
    const char *h = value_of(text, "hist"), *f = value_of(text, "first");
    char *end;
    if (sscanf(value_of(text, "radius"), "%d", &r->radius) != 1 || r->radius < 0 ||
        r->radius > 100000 || sscanf(value_of(text, "complete"), "%d", &r->complete) != 1 ||
        sscanf(value_of(text, "elapsed"), "%lf", &r->seconds) != 1)
        return -1;
    r->layers_alloc = r->radius + 64;
    r->hist = calloc((size_t)r->layers_alloc, sizeof *r->hist);
    if (!r->hist)
        return -1;
    for (int d = 0; d <= r->radius; d++, h = end) {
        r->hist[d] = strtoull(h, &end, 10);
        if (end == h)
            return -1;
        r->reached += r->hist[d];
    }
    const char *m = field(text, "metric");
    if (m && strncmp(m, "mtm\n", 4) != 0)
        return -1;
    r->metric = m ? METRIC_MTM : METRIC_STM;
    long k = strtol(f, &end, 10);
    if (end == f || k < 0 || k > BFS_KEEP)
        return -1;
    r->nfirst = (int)k;
    for (int i = 0; i < r->nfirst; i++) {
        f = end;
        r->first[i] = strtoull(f, &end, 10);
        if (end == f)
            return -1;
    }
    return 0;
}

/* The state's magic and CRC (not yet what search it names). */
static int check_crc(const char *dir, const char *text, slide_error *err)
{
    const char *c = field(text, "state-crc32");
    unsigned crc;
    if (!c || strncmp(text, CHECKPOINT_MPI_MAGIC " ", strlen(CHECKPOINT_MPI_MAGIC) + 1))
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s is not an MPI checkpoint state", dir,
                          STATE_NAME);
    if (sscanf(c, "%x", &crc) != 1 ||
        crc != checkpoint_crc32(text, (size_t)(c - strlen("state-crc32 ") - text)))
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s is corrupt: its state-crc32 does not "
                          "match its lines", dir, STATE_NAME);
    return SLIDE_OK;
}

/* Board size, goal and space from a state whose CRC holds. */
static int parse_info(const char *dir, const char *text, struct checkpoint_info *info,
                      slide_error *err)
{
    const char *g = value_of(text, "goal"), *k = value_of(text, "space");
    size_t glen = strcspn(g, "\n"), klen = strcspn(k, "\n");
    char kind[16];
    int version = 0, n = -1;
    sscanf(text, CHECKPOINT_MPI_MAGIC " %d", &version);
    if (version != CHECKPOINT_MPI_VERSION)
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s is version %d of the MPI checkpoint; "
                          "this slide reads version %d only", dir, STATE_NAME, version,
                          CHECKPOINT_MPI_VERSION);
    snprintf(kind, sizeof kind, "%.*s", (int)(klen < sizeof kind ? klen : 0), k);
    int ki = space_kind_parse(kind);
    if (sscanf(value_of(text, "board"), "%dx%d%n", &info->rows, &info->cols, &n) != 2 ||
        n < 3 || info->rows < 1 || info->cols < 1 || ki < 0 || glen == 0 ||
        glen >= sizeof info->goal)
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s has no valid board, goal or space line",
                          dir, STATE_NAME);
    info->kind = (enum space_kind)ki;
    memcpy(info->goal, g, glen);
    info->goal[glen] = 0;
    return SLIDE_OK;
}

int checkpoint_mpi_describe(MPI_Comm comm, const char *dir, struct checkpoint_info *info,
                            slide_error *err)
{
    char *text = NULL;
    int rc = read_state(comm, dir, &text, err);
    if (!rc)
        rc = check_crc(dir, text, err);
    if (!rc)
        rc = parse_info(dir, text, info, err);
    free(text);
    return rc;
}

/* Check the state's CRC and that it names this search and process count. */
static int check_state(const char *dir, const char *text, const struct space *s,
                       int nprocs, slide_error *err)
{
    char header[1024];
    int procs = 0, n = format_header(header, sizeof header, s), rc;
    struct checkpoint_info info;
    if ((rc = check_crc(dir, text, err)) || (rc = parse_info(dir, text, &info, err)))
        return rc;
    if (strncmp(text, header, (size_t)n))
        return slide_fail(err, SLIDE_EINVAL, "%s holds the search of %dx%d (%s space, goal "
                          "%s), not of the %dx%d %s space and goal asked for; leave out RxC, "
                          "--goal and --space to resume it", dir, info.rows, info.cols,
                          space_kind_name(info.kind), info.goal, s->rows, s->cols,
                          space_kind_name(s->kind));
    if (sscanf(value_of(text, "processes"), "%d", &procs) != 1)
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s has no process count", dir, STATE_NAME);
    if (procs != nprocs)
        return slide_fail(err, SLIDE_EINVAL, "%s was saved by %d MPI processes; resume it "
                          "with mpirun -n %d (a different count is not supported), not %d",
                          dir, procs, procs, nprocs);
    return SLIDE_OK;
}

/* Read this process's part into a new store; check its size and CRC. */
static int load_part(const char *dir, const char *text, const struct space *s,
                     int nprocs, int rank, int gen, struct store *st, slide_error *err)
{
    char key[32], path[4096];
    uint64_t lo, hi, plo, phi, bytes;
    unsigned crc;
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    snprintf(key, sizeof key, "part %d", rank);
    const char *p = field(text, key);
    part_path(path, sizeof path, dir, rank, gen);
    if (!p || sscanf(p, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %x", &plo, &phi, &bytes,
                     &crc) != 4 || plo != lo || phi != hi)
        return slide_fail(err, SLIDE_EFORMAT, "%s/%s has no valid line for process %d",
                          dir, STATE_NAME, rank);
    int rc = store_alloc(st, hi - lo, err);
    if (rc)
        return rc;
    FILE *f = fopen(path, "rb");
    size_t want = (size_t)st->nwords * sizeof(uint64_t), got = 0;
    if (f) {
        got = fread(st->words, 1, want, f);
        if (got == want && fgetc(f) != EOF)
            got++;
        fclose(f);
    }
    if (!f || got != want || bytes != want)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s is missing or does not hold the %zu bytes "
                        "of process %d's slice", path, want, rank);
    else if (checkpoint_crc32(st->words, want) != crc)
        rc = slide_fail(err, SLIDE_EFORMAT, "%s is corrupt: its CRC-32 is not %08x", path,
                        crc);
    if (rc)
        store_free(st);
    return rc;
}

int checkpoint_mpi_load(MPI_Comm comm, const char *dir, const struct space *s,
                        uint64_t max_memory, uint64_t extra, struct store *st,
                        struct bfs_result *r, int *generation, slide_error *err)
{
    int nprocs, rank, rc;
    char *text = NULL;
    uint64_t lo, hi;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    memset(st, 0, sizeof *st);
    memset(r, 0, sizeof *r);
    if ((rc = read_state(comm, dir, &text, err))) {
        free(text);
        return rc;
    }
    rc = check_state(dir, text, s, nprocs, err);
    if (!rc && (parse_result(text, r) ||
                sscanf(value_of(text, "generation"), "%d", generation) != 1))
        rc = slide_fail(err, SLIDE_EFORMAT, "%s/%s has a malformed result line", dir,
                        STATE_NAME);
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    if (!(rc = bfs_mpi_agree(comm, rc, err)))
        rc = bfs_mpi_check_memory(comm, store_bytes_needed(hi - lo) + extra, max_memory,
                                  "the slices of the two-bit store, tables and exchange "
                                  "buffers of this machine's processes", NULL, err);
    if (!rc)
        rc = bfs_mpi_agree(comm, load_part(dir, text, s, nprocs, rank, *generation, st, err),
                           err);
    free(text);
    if (!rc && !r->complete) {
        uint64_t mine = store_count(st, STORE_FRONTIER), all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, comm);
        if (all != r->hist[r->radius])
            rc = slide_fail(err, SLIDE_EFORMAT, "%s: the parts hold %" PRIu64 " frontier "
                            "boards but the state's layer %d has %" PRIu64, dir, all,
                            r->radius, r->hist[r->radius]);
    }
    if (rc) {
        if (st->words)
            store_free(st);
        bfs_result_free(r);
    }
    return rc;
}
