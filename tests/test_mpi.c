/*
 * test_mpi.c - `mpirun -n P slide-mpi bfs RxC --mpi` (bfs_mpi.c,
 * checkpoint_mpi.c, cmd_bfs_mpi.c), run as a program.
 *
 * Truth: the published histograms of tests/data/histograms.tsv (OEIS; not
 * produced by slide) for every P; and, as consistency tests (named so),
 * the single-process search's antipodes and every two-bit store entry.
 * Built and run by make test only where mpicc is present; the exchange
 * budget is set tiny (--budget 256: 32 indexes) so every layer of any size
 * takes many exchange rounds.  Every P = 1..4 runs with one thread and
 * P = 1..3 with two (hybrid MPI + OpenMP).
 */
#include "testutil.h"
#include "clitest.h"

#include <inttypes.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

/* Relative: main() runs the tests inside a fresh directory of its own, so
 * that runs in other checkouts at the same time never share files. */
#define SCRATCH "scratch"
#define MAXD 128

/* Run slide-mpi under mpirun with nprocs processes and the args; env is
 * prefixed to the command (NULL: none).  Returns the exit status. */
static int mpi_run(int nprocs, const char *env, const char *args, char **out, char **err)
{
    const char *bin = getenv("SLIDE_MPI_BIN"), *saved = getenv("SLIDE");
    char cmd[1024], keep[512];
    if (!bin)
        fail_msg("SLIDE_MPI_BIN is not set (run the tests with make test)");
    snprintf(keep, sizeof keep, "%s", saved ? saved : "");
    /* root (CI containers) needs mpirun's consent; more processes than
     * cores need --oversubscribe; under make asan, LeakSanitizer would
     * report Open MPI's own allocations kept until exit, so leak checks are
     * off for the MPI binary (address and undefined checks stay on) */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 %s mpirun %s--oversubscribe -n %d %s",
             env ? env : "",
             getuid() == 0 ? "--allow-run-as-root " : "", nprocs, bin);
    setenv("SLIDE", cmd, 1);
    int rc = clitest_run(args, NULL, out, err);
    setenv("SLIDE", keep, 1);
    return rc;
}

/* The distance table of a text report: hist[0..radius]; returns radius. */
static int parse_hist(const char *out, uint64_t *hist)
{
    int radius = -1;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int d;
        unsigned long long c, cum;
        if (sscanf(p, " %d %llu %llu", &d, &c, &cum) == 3 && d >= 0 && d < MAXD &&
            d == radius + 1)
            hist[radius = d] = c;
    }
    return radius;
}

/* The published histogram of rows x cols (blank in a corner). */
static int published(int rows, int cols, uint64_t *hist)
{
    char line[8192], want[16];
    FILE *f = fopen(TEST_DATA_DIR "/histograms.tsv", "r");
    assert_non_null(f);
    snprintf(want, sizeof want, "%dx%d\tcorner\t", rows, cols);
    int radius = -1;
    while (radius < 0 && fgets(line, sizeof line, f)) {
        if (strncmp(line, want, strlen(want)))
            continue;
        char *p = line;
        for (int tab = 0; tab < 4; tab++)
            p = strchr(p, '\t') + 1;
        for (radius = 0;; radius++) {
            hist[radius] = strtoull(p, &p, 10);
            if (*p != ',')
                break;
            p++;
        }
    }
    fclose(f);
    assert_true(radius > 0);
    return radius;
}

/* CRC-32 (IEEE, reflected), written here from its definition. */
static unsigned crc32_of(const char *p, size_t n)
{
    unsigned c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= (unsigned char)p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

/* The lines from "radius:" on, without the wall-time line. */
static char *summary(const char *out)
{
    const char *r = strstr(out, "radius:");
    assert_non_null(r);
    char *s = strdup(r), *w = strstr(s, "wall ");
    if (w)
        *w = 0;
    return s;
}

/* Every entry of the single-process checkpoint store equals that of the
 * MPI parts named by DIR/mpi-state. */
static void compare_stores(const char *single, const char *mpi)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/store", single);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *whole = clitest_slurp(f); /* reads bytes; the size comes from stat */
    fclose(f);
    struct stat stb;
    assert_int_equal(stat(path, &stb), 0);
    const uint64_t *w = (const uint64_t *)whole;
    snprintf(path, sizeof path, "%s/mpi-state", mpi);
    FILE *st = fopen(path, "r");
    assert_non_null(st);
    int gen = -1, parts = 0;
    uint64_t covered = 0;
    while (fgets(line, sizeof line, st)) {
        int k;
        uint64_t lo, hi;
        if (sscanf(line, "generation %d", &gen) == 1)
            continue;
        if (sscanf(line, "part %d %" SCNu64 " %" SCNu64, &k, &lo, &hi) != 3)
            continue;
        assert_true(gen > 0);
        char pp[512];
        snprintf(pp, sizeof pp, "%s/part-%d.%d", mpi, k, gen);
        FILE *pf = fopen(pp, "rb");
        assert_non_null(pf);
        size_t nw = (size_t)((hi - lo + 31) / 32);
        uint64_t *pw = malloc(nw * 8 + 8);
        assert_non_null(pw);
        assert_int_equal(fread(pw, 8, nw, pf), nw);
        fclose(pf);
        for (uint64_t i = lo; i < hi; i++) {
            unsigned a = (unsigned)(w[i / 32] >> (2 * (i % 32))) & 3u;
            unsigned b = (unsigned)(pw[(i - lo) / 32] >> (2 * ((i - lo) % 32))) & 3u;
            if (a != b)
                fail_msg("entry %" PRIu64 ": single process %u, MPI part %d %u", i, a, k, b);
        }
        covered += hi - lo;
        parts++;
        free(pw);
    }
    fclose(st);
    assert_true(parts > 0);
    /* the parts cover the space: the single store is its entries plus < 32 of padding */
    assert_true(covered * 2 <= (uint64_t)stb.st_size * 8);
    assert_true(covered * 2 + 64 > (uint64_t)stb.st_size * 8);
    free(whole);
}

/* The most exchange rounds of a layer in the --stats lines. */
static int max_rounds(const char *err)
{
    int most = 0;
    for (const char *p = strstr(err, "mpi-layer "); p; p = strstr(p + 1, "mpi-layer ")) {
        int d, rounds;
        unsigned long long x[6];
        if (sscanf(p, "mpi-layer %d %llu %llu %llu %llu %llu %llu %d", &d, &x[0], &x[1],
                   &x[2], &x[3], &x[4], &x[5], &rounds) == 8 && rounds > most)
            most = rounds;
    }
    return most;
}

/* The --stats lines of backward layers (ending in B). */
static int backward_layers(const char *err)
{
    int n = 0;
    for (const char *p = strstr(err, "mpi-layer "); p; p = strstr(p + 1, "mpi-layer ")) {
        const char *eol = strchr(p, '\n');
        n += eol && eol - p > 2 && eol[-1] == 'B' && eol[-2] == ' ';
    }
    return n;
}

/* A single-process run with a final checkpoint into dir; its output. */
static char *single(const char *board, const char *dir)
{
    char args[512], *out, *err;
    snprintf(args, sizeof args, "bfs %s --no-progress --checkpoint %s", board, dir);
    assert_int_equal(clitest_run(args, NULL, &out, &err), 0);
    free(err);
    return out;
}

/* Histogram against the published one, summary and store against one
 * process, for P = 1..4. */
static void check_board(const char *board, int rows, int cols, const int *procs, int nprocs,
                        int threads, const char *budget, int want_rounds, int forward_only)
{
    uint64_t want[MAXD], got[MAXD];
    int radius = published(rows, cols, want);
    char dir1[256], args[512];
    snprintf(dir1, sizeof dir1, SCRATCH "/single-%s-%d-%d", board, threads, forward_only);
    char *one = single(board, dir1), *sum1 = summary(one);
    for (int i = 0; i < nprocs; i++) {
        char *out, *err, dir[256];
        snprintf(dir, sizeof dir, SCRATCH "/mpi-%s-%d-%d-%d", board, procs[i], threads,
                 forward_only);
        snprintf(args, sizeof args, "bfs %s --mpi --threads %d --stats --budget %s "
                 "--checkpoint %s%s", board, threads, budget, dir,
                 forward_only ? " --no-backward" : "");
        int rc = mpi_run(procs[i], NULL, args, &out, &err);
        if (rc != 0)
            fail_msg("%s P=%d T=%d: exit %d: ...%s", board, procs[i], threads, rc,
                     err + (strlen(err) > 600 ? strlen(err) - 600 : 0));
        char want_threads[64];
        snprintf(want_threads, sizeof want_threads, "threads per process %d,", threads);
        if (!strstr(out, want_threads))
            fail_msg("%s P=%d: the report does not say %s", board, procs[i], want_threads);
        if (!strstr(err, "mpi-layer"))
            fail_msg("%s P=%d: no --stats lines", board, procs[i]);
        /* the late layers of a compact space go backward unless told not to */
        int back = backward_layers(err);
        if (forward_only ? back != 0 : back == 0)
            fail_msg("%s P=%d T=%d: %d backward layers%s", board, procs[i], threads,
                     back, forward_only ? " with --no-backward" : "");
        if (want_rounds && procs[i] > 1 && max_rounds(err) < 2)
            fail_msg("%s P=%d: the budget never split a layer into rounds", board, procs[i]);
        if (parse_hist(out, got) != radius)
            fail_msg("%s P=%d T=%d: radius not %d in %s", board, procs[i], threads, radius,
                     out);
        for (int d = 0; d <= radius; d++)
            if (got[d] != want[d])
                fail_msg("%s P=%d T=%d distance %d: %" PRIu64 ", published %" PRIu64, board,
                         procs[i], threads, d, got[d], want[d]);
        char *sum = summary(out);
        assert_string_equal(sum, sum1); /* consistency: radius, antipodes, boards */
        compare_stores(dir1, dir);      /* consistency: every entry */
        free(sum);
        free(out);
        free(err);
    }
    free(sum1);
    free(one);
}

static void test_3x3_published_and_consistency_P1_to_4(void **state)
{
    (void)state;
    static const int p[] = {1, 2, 3, 4};
    check_board("3x3", 3, 3, p, 4, 1, "256", 1, 0);
}

static void test_2x5_published_and_consistency_P1_to_4(void **state)
{
    (void)state;
    static const int p[] = {1, 2, 3, 4};
    check_board("2x5", 2, 5, p, 4, 1, "8K", 1, 0);
}

/* Hybrid: 2 OpenMP threads in each of P = 1..3 processes (one thread is
 * the tests above), against the published histograms and the single
 * process's store.  The budget still splits layers into rounds. */
static void test_threads_published_and_consistency(void **state)
{
    (void)state;
    static const int p[] = {1, 2, 3};
    check_board("3x3", 3, 3, p, 3, 2, "1K", 1, 0);
    check_board("2x5", 2, 5, p, 3, 2, "16K", 1, 0);
}

/* Every layer forward (--no-backward): the same histograms and stores. */
static void test_forward_only_published_and_consistency(void **state)
{
    (void)state;
    static const int p[] = {1, 2, 3}, p2[] = {2};
    check_board("3x3", 3, 3, p, 3, 1, "1K", 1, 1);
    check_board("2x5", 2, 5, p2, 1, 2, "16K", 1, 1);
}

/* Slices of unequal size, some empty: 2x3 has 360 boards, 4 units of
 * lcm(32, 6) = 96 (the last short) over 7 processes, 3 of which own
 * nothing; 2x4 630 units of 32 over 11.
 *
 * This test once failed under load (issue 17).  Explained: test_mpi then
 * kept its files in a fixed /tmp/slide-test-mpi, and a second make test
 * (another checkout, at the same time) began by removing that directory;
 * this test, fifth in the group, is where the first run stood a minute
 * later.  Reproduced with the test of 4b889fa by removing the directory
 * while this test ran: it fails the same way (compare_stores finds no
 * store).  Fixed since f5c1d34: every run works in a mkdtemp directory of
 * its own (main). */
static void test_uneven_ownership(void **state)
{
    (void)state;
    static const int p7[] = {7}, p11[] = {11};
    check_board("2x3", 2, 3, p7, 1, 1, "256", 0, 0);
    check_board("2x4", 2, 4, p11, 1, 1, "256", 0, 0);
}

/* Rank 1 killed mid-layer: the job fails naming it; the checkpoint of the
 * layer before stays and a resume with the same P (and no RxC: it comes
 * from the checkpoint) ends where one process does; another P, or another
 * board, space or goal, is refused. */
static void test_killed_process_then_resume(void **state)
{
    (void)state;
    char *out, *err, line[256];
    uint64_t want[MAXD], got[MAXD];
    int radius = published(2, 5, want);
    const char *dir = SCRATCH "/killed";
    int rc = mpi_run(3, "SLIDE_MPI_FAULT=1:20", "bfs 2x5 --mpi --threads 2 --budget 64K "
                     "--checkpoint " SCRATCH "/killed --checkpoint-every 0", &out, &err);
    assert_int_not_equal(rc, 0);
    if (!strstr(err, "rank 1") || !strstr(err, "signal 9"))
        fail_msg("mpirun did not name the killed process: %s", err);
    free(out);
    free(err);
    snprintf(line, sizeof line, "%s/mpi-state", dir);
    FILE *f = fopen(line, "r");
    assert_non_null(f);
    int r = -1;
    while (fgets(line, sizeof line, f))
        sscanf(line, "radius %d", &r);
    fclose(f);
    assert_int_equal(r, 20); /* every layer up to the one being expanded */
    rc = mpi_run(2, NULL, "bfs --mpi --resume " SCRATCH "/killed", &out, &err);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(err, "saved by 3 MPI processes; resume it with mpirun -n 3"));
    free(out);
    free(err);
    /* a size, space or goal that is not the checkpoint's is refused, naming both */
    static const char *wrong[] = {"3x3", "2x5 --space full",
                                  "2x5 --goal \"0 1 2 3 4/5 6 7 8 9\""};
    for (int i = 0; i < 3; i++) {
        char args[256];
        snprintf(args, sizeof args, "bfs %s --mpi --resume " SCRATCH "/killed", wrong[i]);
        assert_int_equal(mpi_run(3, NULL, args, &out, &err), 2);
        if (!strstr(err, "holds the search of 2x5 (compact space, goal "))
            fail_msg("%s: %s", wrong[i], err);
        free(out);
        free(err);
    }
    /* no RxC: the size, goal and space come from the checkpoint */
    rc = mpi_run(3, NULL, "bfs --mpi --budget 64K --resume " SCRATCH "/killed", &out, &err);
    assert_int_equal(rc, 0);
    assert_int_equal(parse_hist(out, got), radius);
    for (int d = 0; d <= radius; d++)
        assert_true(got[d] == want[d]);
    free(out);
    free(err);
    char *one = single("2x5", SCRATCH "/single-2x5-k");
    free(one);
    compare_stores(SCRATCH "/single-2x5-k", dir);
}

/* SIGINT to mpirun once the first checkpoint exists: the processes stop at
 * a layer boundary, save, and a resume ends on the published histogram. */
static void test_interrupted_then_resume(void **state)
{
    (void)state;
    const char *bin = getenv("SLIDE_MPI_BIN");
    char cmd[1024], *out, *err;
    uint64_t want[MAXD], got[MAXD];
    int radius = published(2, 5, want), status;
    assert_non_null(bin);
    /* the 20 ms pause per layer keeps the search running (about 1 s) after
     * the first checkpoint, however fast the machine: without it, a fast
     * machine finished 2x5 before the signal arrived */
    snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=detect_leaks=0 SLIDE_MPI_PAUSE_MS=20 exec mpirun "
             "%s--oversubscribe -n 2 "
             "%s bfs 2x5 --mpi --threads 1 --budget 8K --checkpoint " SCRATCH "/int "
             "--checkpoint-every 0 "
             ">/dev/null 2>" SCRATCH "/int.err", getuid() == 0 ? "--allow-run-as-root " : "",
             bin);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    struct stat sb;
    for (int i = 0; i < 3000 && stat(SCRATCH "/int/mpi-state", &sb) != 0; i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    kill(pid, SIGINT);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
    FILE *f = fopen(SCRATCH "/int.err", "r");
    assert_non_null(f);
    err = clitest_slurp(f);
    fclose(f);
    if (!strstr(err, "checkpoint saved in " SCRATCH "/int"))
        fail_msg("no checkpoint message after SIGINT: %s", err);
    free(err);
    assert_int_equal(mpi_run(2, NULL, "bfs 2x5 --mpi --resume " SCRATCH "/int", &out, &err), 0);
    assert_int_equal(parse_hist(out, got), radius);
    for (int d = 0; d <= radius; d++)
        assert_true(got[d] == want[d]);
    free(out);
    free(err);
}

/* A checkpoint of version 1 (slices of whole blocks) is refused by name,
 * not read as if its parts were today's slices. */
static void test_old_checkpoint_version(void **state)
{
    (void)state;
    char *out, *err;
    const char *dir = SCRATCH "/v1";
    assert_int_equal(mkdir(dir, 0777), 0);
    FILE *f = fopen(SCRATCH "/v1/mpi-state", "w");
    assert_non_null(f);
    /* a valid version-1 state but for the version (its CRC holds) */
    char text[512];
    int n = snprintf(text, sizeof text, "slide-mpi-checkpoint 1\nboard 2x3\ngoal 1 2 3/4 5 0\n"
                     "space compact\nentries 360\nprocesses 2\ngeneration 1\nradius 3\n"
                     "complete 0\nelapsed 0.0\nfirst 0\nhist 1 2 3 5\n"
                     "part 0 0 180 48 00000000\npart 1 180 360 48 00000000\n");
    fprintf(f, "%sstate-crc32 %08x\n", text, crc32_of(text, (size_t)n));
    fclose(f);
    assert_int_equal(mpi_run(2, NULL, "bfs --mpi --resume " SCRATCH "/v1", &out, &err), 1);
    if (!strstr(err, "is version 1 of the MPI checkpoint; this slide reads version 2 only"))
        fail_msg("a version-1 checkpoint was not refused by its version: %s", err);
    free(out);
    free(err);
}

/* The memory guard counts what a process may hold (bfs_mpi_bytes: its
 * slice, the tables, buckets and 5 x the budget for the remote buffers and
 * the exchange), per machine: the report names the count; a limit one byte
 * below the machine's sum is refused before anything is allocated, the sum
 * itself is enough.  (Consistency: the count is slide's own.) */
static void test_memory_guard_counts_exchange(void **state)
{
    (void)state;
    char *out, *err, args[256];
    unsigned long long machine = 0, mine = 0;
    /* 64M budget, 2 threads: 5 x 64 MiB and 16 MiB of buckets at most */
    assert_int_equal(mpi_run(2, NULL, "bfs 3x3 --mpi --threads 2 --budget 64M --stats",
                             &out, &err), 0);
    const char *g = strstr(out, "memory counted by the guard: ");
    assert_non_null(g);
    assert_int_equal(sscanf(g, "memory counted by the guard: %llu bytes on rank 0's machine "
                            "(rank 0: %llu)", &machine, &mine), 2);
    unsigned long long sum = machine;
    /* 3x3 is small: the remote buffers are sized by what a pass can send
     * (4 per board), far below 64 MiB; the buckets of 2 threads are 16 MiB */
    assert_true(mine > 16ull << 20 && mine < 64ull << 20);
    assert_true(machine >= 2 * mine - (1u << 20) && machine <= 2 * mine + (1u << 20));
    free(out);
    free(err);
    snprintf(args, sizeof args, "bfs 3x3 --mpi --threads 2 --budget 64M --max-memory %llu",
             sum - 1);
    assert_int_equal(mpi_run(2, NULL, args, &out, &err), 1);
    if (!strstr(err, "slide: ") || !strstr(err, "exchange buffers"))
        fail_msg("--max-memory below the count was not refused: %s", err);
    free(out);
    free(err);
    snprintf(args, sizeof args, "bfs 3x3 --mpi --threads 2 --budget 64M --max-memory %llu", sum);
    assert_int_equal(mpi_run(2, NULL, args, &out, &err), 0);
    free(out);
    free(err);
}

static void test_bad_options(void **state)
{
    (void)state;
    char *out, *err;
    assert_int_equal(mpi_run(1, NULL, "bfs 3x3 --mpi --budget 8", &out, &err), 2);
    assert_non_null(strstr(err, "--budget must be"));
    free(out);
    free(err);
    assert_int_equal(mpi_run(1, NULL, "bfs 3x3 --mpi --threads 0", &out, &err), 2);
    assert_non_null(strstr(err, "--threads"));
    free(out);
    free(err);
    /* an option of slide bfs that --mpi lacks points to the --mpi help,
     * which does not list it (slide bfs --help does) */
    assert_int_equal(mpi_run(1, NULL, "bfs 3x3 --mpi --save x.db", &out, &err), 2);
    assert_non_null(strstr(err, "unknown option --save (see slide bfs --mpi --help)"));
    free(out);
    free(err);
    assert_int_equal(mpi_run(1, NULL, "bfs 5x5 --mpi", &out, &err), 2);
    free(out);
    free(err);
    assert_int_equal(mpi_run(2, NULL, "bfs 3x3 --mpi --max-memory 1K", &out, &err), 1);
    assert_non_null(strstr(err, "slide: "));
    free(out);
    free(err);
}

static int setup(void **state)
{
    (void)state;
    clitest_remove_dir(SCRATCH);
    return mkdir(SCRATCH, 0777);
}

static int teardown(void **state)
{
    (void)state;
    return clitest_remove_dir(SCRATCH);
}

/* The first antipodes line and the boards listed after it. */
static const char *antipodes_of(const char *out)
{
    const char *p = strstr(out, "antipodes:");
    assert_non_null(p);
    return p;
}

/*
 * The multi-tile metric (--metric mtm): P = 1..3 processes, with a small
 * budget so that passes stop for room, give the histogram and antipodes of
 * the threaded `slide bfs 3x3 --metric mtm` (a consistency test: that one is
 * checked against a brute-force MTM BFS in test_bfs_mtm); a checkpoint of
 * one records the metric, and resuming it in the other metric is refused.
 */
static void test_mtm_P1_to_3(void **state)
{
    (void)state;
    char *ref, *out, *err, args[256];
    uint64_t want[MAXD], got[MAXD];
    assert_int_equal(clitest_run("bfs 3x3 --metric mtm --threads 2 --no-progress", NULL,
                                 &ref, NULL), 0);
    int radius = parse_hist(ref, want);
    assert_int_equal(radius, 24);
    for (int P = 1; P <= 3; P++) {
        snprintf(args, sizeof args, "bfs 3x3 --mpi --metric mtm --threads 2 --budget 4K%s",
                 P == 2 ? " --checkpoint " SCRATCH "/mtm" : "");
        assert_int_equal(mpi_run(P, NULL, args, &out, &err), 0);
        assert_int_equal(parse_hist(out, got), radius);
        assert_memory_equal(got, want, (size_t)(radius + 1) * sizeof *got);
        const char *a = antipodes_of(ref), *b = antipodes_of(out);
        assert_memory_equal(a, b, (size_t)(strstr(a, "wall") - a));
        assert_non_null(strstr(out, "metric mtm"));
        free(out);
        free(err);
    }
    assert_int_not_equal(mpi_run(2, NULL, "bfs --mpi --resume " SCRATCH "/mtm --metric stm",
                                 &out, &err), 0);
    if (!strstr(err, "multi-tile metric"))
        fail_msg("resuming an MTM checkpoint in STM: %s", err);
    free(out);
    free(err);
    assert_int_equal(mpi_run(2, NULL, "bfs --mpi --resume " SCRATCH "/mtm", &out, &err), 0);
    assert_int_equal(parse_hist(out, got), radius);
    assert_memory_equal(got, want, (size_t)(radius + 1) * sizeof *got);
    free(out);
    free(err);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtm_P1_to_3),
        cmocka_unit_test(test_3x3_published_and_consistency_P1_to_4),
        cmocka_unit_test(test_2x5_published_and_consistency_P1_to_4),
        cmocka_unit_test(test_threads_published_and_consistency),
        cmocka_unit_test(test_forward_only_published_and_consistency),
        cmocka_unit_test(test_uneven_ownership),
        cmocka_unit_test(test_killed_process_then_resume),
        cmocka_unit_test(test_interrupted_then_resume),
        cmocka_unit_test(test_old_checkpoint_version),
        cmocka_unit_test(test_memory_guard_counts_exchange),
        cmocka_unit_test(test_bad_options),
    };
    char home[] = "/tmp/slide-test-mpi-XXXXXX";
    if (!mkdtemp(home) || chdir(home)) {
        perror("test_mpi: cannot make its scratch directory in /tmp");
        return 1;
    }
    int failed = cmocka_run_group_tests(tests, setup, teardown);
    if (chdir("/") || rmdir(home))
        perror("test_mpi: cannot remove its scratch directory");
    return failed;
}
