/*
 * bfs_mpi.c - the two-bit BFS over MPI processes (bfs_mpi.h).
 *
 * A process expands its slice with the expansion of bfs_run itself
 * (bfs_slice.h: the same scan, move and window tables, buckets and chunk
 * flags); this file adds what only the distributed search has: the slices,
 * the exchange of the targets and questions that leave a slice, and the
 * reductions.  Only the main thread calls MPI, outside the parallel
 * regions of the expansion.
 *
 * An exchange round, after each stop of the scan (bfs_slice_scan):
 *   1. every thread's remote buffer is moved into one array (they lie one
 *      after the other in one allocation) and radix-sorted (frontier_sort.h):
 *      forward, the target bit positions, which are then halved and made
 *      distinct; backward, the pairs (queried, asking) by the queried index;
 *   2. P - 1 pairwise steps k = 1..P-1, each sending to rank + k the part
 *      owned there (a contiguous run of the sorted array: ownership is by
 *      contiguous slices) and receiving from rank - k; a message is its size,
 *      then its payload: the distinct indexes as LEB128 varints of their
 *      gaps, the first from the owner's lo.  Forward, the owner marks them
 *      (bfs_slice_mark); backward, the owner answers one bit per index
 *      (bfs_slice_answer) and the asker marks each board whose question came
 *      back 1.
 * One incoming message is held at a time.
 */
#include "slide/bfs_mpi.h"

#include "bfs_slice.h"
#include "slide/frontier_sort.h"

#include <omp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU seconds of this process so far (every thread). */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Round up to a multiple of u. */
static uint64_t units_of(uint64_t x, uint64_t u)
{
    return (x + u - 1) / u;
}

void bfs_mpi_range(const struct space *s, int nprocs, int rank, uint64_t *lo,
                   uint64_t *hi)
{
    uint64_t unit = bfs_slice_unit(s), units = units_of(s->size, unit);
    unsigned __int128 a = (unsigned __int128)units * (unsigned)rank / (unsigned)nprocs,
                      b = (unsigned __int128)units * (unsigned)(rank + 1) / (unsigned)nprocs;
    *lo = (uint64_t)a * unit;
    *hi = rank == nprocs - 1 ? s->size : (uint64_t)b * unit;
    if (*lo > s->size)
        *lo = s->size;
    if (*hi > s->size)
        *hi = s->size;
}

int bfs_mpi_owner(const struct space *s, int nprocs, uint64_t i)
{
    uint64_t unit = bfs_slice_unit(s), units = units_of(s->size, unit), lo, hi;
    int p = (int)((unsigned __int128)(i / unit) * (unsigned)nprocs / units);
    for (;;) {
        bfs_mpi_range(s, nprocs, p, &lo, &hi);
        if (i < lo)
            p--;
        else if (i >= hi)
            p++;
        else
            return p;
    }
}

int bfs_mpi_agree(MPI_Comm comm, int rc, slide_error *err)
{
    int rank, nprocs, mine, first;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    mine = rc ? rank : nprocs;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == nprocs)
        return SLIDE_OK;
    MPI_Bcast(&rc, 1, MPI_INT, first, comm);
    MPI_Bcast(err->msg, SLIDE_ERROR_LEN, MPI_CHAR, first, comm);
    return rc;
}

static int threads_of(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* The largest slice of P: every process sizes its buffers by it, so that
 * what a peer sends fits what this one holds. */
static uint64_t largest_slice(const struct space *s, int nprocs)
{
    uint64_t unit = bfs_slice_unit(s);
    return units_of(units_of(s->size, unit), (uint64_t)nprocs) * unit;
}

/* Remote entries per thread for these options (the same on every process). */
static size_t cap_of(const struct space *s, int nprocs, int threads, uint64_t budget,
                     enum metric metric)
{
    if (!budget)
        budget = BFS_MPI_DEFAULT_BUDGET;
    size_t cap = bfs_slice_cap(budget, threads, largest_slice(s, nprocs));
    /* what a slice's pass in the multi-tile metric needs at least
     * (bfs_slice_open: two words of rows - 1 jumps per entry) */
    size_t mtm = 4 * (size_t)(s->rows > 1 ? s->rows - 1 : 1) * STORE_ENTRIES_PER_WORD;
    return metric == METRIC_MTM && cap < mtm ? mtm : cap;
}

/* Bytes of the sort's counts (frontier_sort.c): 128-bit keys, 11-bit digits. */
#define SORT_COUNTS (12 * 2048 * sizeof(size_t))

uint64_t bfs_mpi_bytes(const struct space *s, int nprocs, int rank, int threads,
                       uint64_t budget)
{
    uint64_t lo, hi;
    int T = threads_of(threads);
    size_t cap = cap_of(s, nprocs, T, budget, METRIC_STM);
    uint64_t all = (uint64_t)T * cap * sizeof(uint64_t); /* every thread's remote entries */
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    uint64_t bytes = store_bytes_needed(hi - lo) + bfs_slice_bytes(s, hi - lo, T, cap);
    if (nprocs > 1)
        /* the sort's scratch, one encoded message out and one in (a varint
         * of a gap below 2^56 takes at most 8 bytes), the decoded indexes,
         * the answers both ways, the sort's counts, the slices' bounds */
        bytes += 4 * all + 2 * (all / 16 + 1) + SORT_COUNTS + 2 * ((uint64_t)nprocs + 1) * 8 +
                 (all / 2 + 6 * 4096); /* grow's slack of an eighth on four buffers */
    return bytes;
}

/* The exchange of one process: its view of the slices and its buffers. */
struct exchange {
    int nprocs, rank, threads;
    uint64_t *lo;        /* [p]: first index of p's slice; lo[P] = size */
    uint64_t *tmp;       /* sort scratch, threads x cap entries */
    int bits;            /* target bit positions are below 2^bits */
    int qbits;           /* indexes are below 2^qbits */
    int abits;           /* offsets in this slice are below 2^abits */
    int vbytes;          /* bytes of a varint of a gap, at most: ceil(qbits / 7) */
    size_t most;         /* entries a process sends one peer in a round, at most */
    /* after sort_round: forward, the distinct targets in v[0..n); backward,
     * the pairs by queried index in pairs[0..n); seg[p] is where p's start */
    uint64_t *v;
    fkey *pairs;
    size_t n, *seg;
    uint8_t *code, *in, *reply, *answer;
    size_t code_cap, in_cap, reply_cap, answer_cap;
    uint64_t *dec;
    size_t dec_cap;
};

/* Grow *buf to hold need bytes (and an eighth more, so that growing by
 * little takes few copies, but never far above need: bfs_mpi_bytes
 * counts it); 0 or -1 when out of memory. */
static int grow(void **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = need + need / 8 + 4096;
    void *p = realloc(*buf, c);
    if (!p)
        return -1;
    *buf = p;
    *cap = c;
    return 0;
}

static int bits_for(uint64_t below)
{
    int b = 1;
    while (b < 64 && (1ULL << b) < below)
        b++;
    return b;
}

static int exchange_init(struct exchange *x, const struct space *s, int nprocs, int rank,
                         int threads, size_t cap)
{
    memset(x, 0, sizeof *x);
    x->nprocs = nprocs;
    x->rank = rank;
    x->threads = threads;
    x->bits = bits_for(2 * s->size);
    x->qbits = bits_for(s->size);
    x->vbytes = (x->qbits + 6) / 7;
    x->most = (size_t)threads * cap;
    uint64_t lo, hi;
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    x->abits = bits_for(hi - lo);
    x->lo = malloc(((size_t)nprocs + 1) * sizeof *x->lo);
    x->seg = malloc(((size_t)nprocs + 1) * sizeof *x->seg);
    if (!x->lo || !x->seg)
        return SLIDE_ENOMEM;
    for (int p = 0; p < nprocs; p++) {
        uint64_t hi;
        bfs_mpi_range(s, nprocs, p, &x->lo[p], &hi);
    }
    x->lo[nprocs] = s->size;
    if (nprocs > 1 && !(x->tmp = malloc((size_t)threads * cap * sizeof *x->tmp)))
        return SLIDE_ENOMEM;
    return SLIDE_OK;
}

static void exchange_free(struct exchange *x)
{
    free(x->lo);
    free(x->seg);
    free(x->tmp);
    free(x->code);
    free(x->in);
    free(x->dec);
    free(x->reply);
    free(x->answer);
    memset(x, 0, sizeof *x);
}

/* One process's state during a layer. */
struct layer_ctx {
    const struct space *s;
    struct bfs_slice *sl;
    struct exchange x;
    int backward;           /* this layer: 1 backward scan (queries), 0 forward */
    struct bfs_mpi_layer L; /* this process's share before the reduction */
};

/* The queried index of sorted pair i (sort_round). */
static inline uint64_t pair_queried(const struct exchange *x, size_t i)
{
    return (uint64_t)(x->pairs[i] >> x->abits);
}

/* Move every thread's remote entries into one array (they lie one after
 * the other, thread t's at t x cap) and sort it; then split it by owner.
 * Returns SLIDE_EFORMAT if a buffer holds more than cap entries (the scan
 * checks its room so that none ever does: this says it if it did). */
static int sort_round(struct layer_ctx *c)
{
    struct exchange *x = &c->x;
    uint64_t *all = NULL;
    size_t n = 0;
    for (int t = 0; t < x->threads; t++) {
        size_t k;
        uint64_t *b = bfs_slice_remote(c->sl, t, &k);
        if (k > x->most / (size_t)x->threads)
            return SLIDE_EFORMAT;
        if (t == 0)
            all = b;
        if (k && b != all + n)
            memmove(all + n, b, k * sizeof *b);
        n += k;
    }
    c->L.remote_raw += c->backward ? n / 2 : n;
    if (!c->backward) {
        uint64_t *v = n ? fsort_u64(all, x->tmp, n, x->bits) : all;
        size_t k = 0; /* bit positions 2e to distinct indexes e */
        for (size_t i = 0; i < n; i++)
            if (k == 0 || v[i] >> 1 != v[k - 1])
                v[k++] = v[i] >> 1;
        x->v = v;
        x->n = k;
        for (int p = 0, i = 0; p <= x->nprocs; p++) {
            while ((size_t)i < k && v[i] < x->lo[p])
                i++;
            x->seg[p] = (size_t)i;
        }
        return SLIDE_OK;
    }
    /* pairs (queried q, asking a) as keys q 2^abits + (a - lo), below
     * 2^(qbits + abits): sorted by q */
    size_t np = n / 2;
    uint64_t lo = x->lo[x->rank];
    fkey *keys = (fkey *)(void *)x->tmp, *scratch = (fkey *)(void *)all;
    for (size_t i = 0; i < np; i++)
        keys[i] = (fkey)all[2 * i] << x->abits | (fkey)(all[2 * i + 1] - lo);
    x->pairs = np ? fsort_keys(keys, scratch, np, x->qbits + x->abits) : keys;
    x->n = np;
    for (int p = 0, i = 0; p <= x->nprocs; p++) {
        while ((size_t)i < np && pair_queried(x, i) < x->lo[p])
            i++;
        x->seg[p] = (size_t)i;
    }
    return SLIDE_OK;
}

/* The increasing distinct v[0..n) as LEB128 gaps from base into code. */
static size_t encode(const uint64_t *v, size_t n, uint64_t base, uint8_t *code)
{
    size_t bytes = 0;
    uint64_t prev = base;
    for (size_t i = 0; i < n; i++) {
        uint64_t gap = v[i] - prev;
        prev = v[i];
        while (gap >= 0x80) {
            code[bytes++] = (uint8_t)(gap | 0x80);
            gap >>= 7;
        }
        code[bytes++] = (uint8_t)gap;
    }
    return bytes;
}

/* The same for the distinct queried indexes of sorted pairs [a, a + n);
 * *asked gets how many. */
static size_t encode_queries(const struct exchange *x, size_t a, size_t n, uint64_t base,
                             uint8_t *code, size_t *asked)
{
    size_t bytes = 0, k = 0;
    uint64_t prev = base;
    for (size_t i = 0; i < n; i++) {
        uint64_t q = pair_queried(x, a + i);
        if (i > 0 && q == prev)
            continue;
        uint64_t gap = q - prev;
        prev = q;
        k++;
        while (gap >= 0x80) {
            code[bytes++] = (uint8_t)(gap | 0x80);
            gap >>= 7;
        }
        code[bytes++] = (uint8_t)gap;
    }
    *asked = k;
    return bytes;
}

/* Decode one message (gaps from lo) into out (room for most); returns the
 * count, or SIZE_MAX if an index falls outside [lo, hi) or does not
 * increase, or there are more than most (not between correct peers). */
static size_t decode(const uint8_t *p, size_t bytes, uint64_t lo, uint64_t hi, uint64_t *out,
                     size_t most)
{
    uint64_t prev = lo;
    size_t i = 0, n = 0;
    while (i < bytes) {
        if (n == most)
            return SIZE_MAX;
        uint64_t gap = 0;
        for (unsigned sh = 0; i < bytes && sh < 64; sh += 7) {
            uint8_t b = p[i++];
            gap |= (uint64_t)(b & 0x7f) << sh;
            if (!(b & 0x80))
                break;
        }
        if ((n > 0 && gap == 0) || gap >= hi - prev)
            return SIZE_MAX;
        prev += gap;
        out[n++] = prev;
    }
    return n;
}

/*
 * Send out_bytes of x->code to dst and receive the message from src into
 * x->in; returns the received size, SIZE_MAX when there was no room for it
 * (the message is then taken and dropped).
 */
static size_t swap_message(MPI_Comm comm, struct exchange *x, int dst, int src,
                           uint64_t out_bytes, int tag)
{
    uint64_t in_bytes = 0;
    int failed = 0;
    MPI_Sendrecv(&out_bytes, 1, MPI_UINT64_T, dst, tag, &in_bytes, 1, MPI_UINT64_T,
                 src, tag, comm, MPI_STATUS_IGNORE);
    /* a peer sends at most most indexes of vbytes (not between correct peers
     * otherwise: then the message is taken and dropped) */
    if (in_bytes > x->most * (uint64_t)x->vbytes || grow((void **)&x->in, &x->in_cap, in_bytes + 1))
        failed = 1;
    /* each payload only where there is one: the sizes told both sides */
    MPI_Request req[2];
    int nreq = 0;
    if (out_bytes)
        MPI_Isend(x->code, (int)out_bytes, MPI_BYTE, dst, tag + 1, comm, &req[nreq++]);
    if (in_bytes)
        MPI_Irecv(failed ? NULL : x->in, failed ? 0 : (int)in_bytes, MPI_BYTE, src,
                  tag + 1, comm, &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    return failed ? SIZE_MAX : (size_t)in_bytes;
}

/* Decode the received message into x->dec; returns the count, SIZE_MAX on
 * error (*rc says which). */
static size_t receive_indexes(struct layer_ctx *c, size_t in_bytes, int *rc)
{
    struct exchange *x = &c->x;
    size_t most = in_bytes < x->most ? in_bytes : x->most; /* a byte per index at least */
    if (in_bytes == SIZE_MAX ||
        grow((void **)&x->dec, &x->dec_cap, (most + 1) * sizeof(uint64_t))) {
        *rc = SLIDE_ENOMEM;
        return SIZE_MAX;
    }
    size_t m = decode(x->in, in_bytes, x->lo[x->rank], x->lo[x->rank + 1], x->dec, most);
    if (m == SIZE_MAX)
        *rc = SLIDE_EFORMAT;
    return m;
}

/* Forward step with dst and src: send our targets in dst's slice, receive
 * src's in ours and mark them. */
static int forward_step(MPI_Comm comm, struct layer_ctx *c, int dst, int src)
{
    struct exchange *x = &c->x;
    int rc = SLIDE_OK;
    double t0 = MPI_Wtime(), u0 = cpu_now();
    size_t a = x->seg[dst], n = x->seg[dst + 1] - a, out_bytes = 0;
    if (grow((void **)&x->code, &x->code_cap, n * (size_t)x->vbytes + 1))
        rc = SLIDE_ENOMEM;
    else
        out_bytes = encode(x->v + a, n, x->lo[dst], x->code);
    c->L.remote += rc ? 0 : n;
    double u1 = cpu_now();
    size_t in_bytes = swap_message(comm, x, dst, src, out_bytes, 2);
    c->L.messages += 1 + (out_bytes > 0);
    c->L.bytes += out_bytes;
    double u2 = cpu_now();
    size_t m = receive_indexes(c, in_bytes, &rc);
    double t1 = MPI_Wtime(), u3 = cpu_now();
    if (!rc)
        bfs_slice_mark(c->sl, x->dec, m, 1);
    c->L.exchange += t1 - t0;
    c->L.mark += MPI_Wtime() - t1;
    c->L.cpu_exchange += (u1 - u0) + (u3 - u2);
    c->L.cpu_mark += cpu_now() - u3;
    return rc;
}

/*
 * Backward step with dst and src: the distinct indexes our boards ask dst
 * about go as in the forward step; src's questions are answered with one
 * bit each; dst's answers mark the boards that asked about a frontier
 * board.
 */
static int backward_step(MPI_Comm comm, struct layer_ctx *c, int dst, int src)
{
    struct exchange *x = &c->x;
    int rc = SLIDE_OK;
    double t0 = MPI_Wtime(), u0 = cpu_now();
    size_t a = x->seg[dst], n = x->seg[dst + 1] - a, asked = 0, out_bytes = 0;
    if (grow((void **)&x->code, &x->code_cap, n * (size_t)x->vbytes + 1))
        rc = SLIDE_ENOMEM;
    else
        out_bytes = encode_queries(x, a, n, x->lo[dst], x->code, &asked);
    c->L.remote += asked;
    double u1 = cpu_now();
    size_t in_bytes = swap_message(comm, x, dst, src, out_bytes, 4);
    double u2 = cpu_now();
    size_t m = receive_indexes(c, in_bytes, &rc);
    if (m == SIZE_MAX)
        m = 0;
    /* the answers: sizes follow from the query counts both sides know;
     * after a failure the step still runs, with what it has */
    size_t give = m ? m / 8 + 1 : 0, back = asked ? asked / 8 + 1 : 0;
    if (grow((void **)&x->reply, &x->reply_cap, give + 1) ||
        grow((void **)&x->answer, &x->answer_cap, back + 1)) {
        rc = SLIDE_ENOMEM;
        give = back = 0;
    }
    if (give) {
        memset(x->reply, 0, give);
        bfs_slice_answer(c->sl, x->dec, m, x->reply);
    }
    double u3 = cpu_now();
    MPI_Sendrecv(x->reply, (int)give, MPI_BYTE, src, 6, x->answer, (int)back, MPI_BYTE, dst,
                 6, comm, MPI_STATUS_IGNORE);
    c->L.messages += 1 + (out_bytes > 0) + (give > 0);
    c->L.bytes += out_bytes + give;
    double t1 = MPI_Wtime(), u4 = cpu_now();
    c->L.cpu_exchange += (u1 - u0) + (u3 - u2);
    if (!rc && back) {
        /* the boards whose question came back 1, in x->dec (free again) */
        size_t k = 0, j = 0;
        if (grow((void **)&x->dec, &x->dec_cap, (n + 1) * sizeof(uint64_t)))
            rc = SLIDE_ENOMEM;
        uint64_t lo = x->lo[x->rank], mask = (1ULL << x->abits) - 1;
        for (size_t i = 0; !rc && i < n; i++) {
            if (i > 0 && pair_queried(x, a + i) != pair_queried(x, a + i - 1))
                j++; /* the next distinct queried index */
            if (x->answer[j / 8] >> (j % 8) & 1)
                x->dec[k++] = lo + ((uint64_t)x->pairs[a + i] & mask);
        }
        if (!rc)
            bfs_slice_mark(c->sl, x->dec, k, 0);
    }
    c->L.exchange += t1 - t0;
    c->L.mark += MPI_Wtime() - t1;
    c->L.cpu_mark += cpu_now() - u4;
    return rc;
}

/*
 * One exchange round: P - 1 pairwise steps, each with rank + k (to whom we
 * send) and rank - k (from whom we receive).  Returns SLIDE_OK,
 * SLIDE_ENOMEM or SLIDE_EFORMAT.
 */
static int exchange_round(MPI_Comm comm, struct layer_ctx *c)
{
    struct exchange *x = &c->x;
    int rc = SLIDE_OK;
    double t0 = MPI_Wtime(), u0 = cpu_now();
    if (sort_round(c)) { /* nothing sent: every step of the round still runs */
        rc = SLIDE_EFORMAT;
        x->n = 0;
        for (int p = 0; p <= x->nprocs; p++)
            x->seg[p] = 0;
    }
    c->L.exchange += MPI_Wtime() - t0;
    c->L.cpu_exchange += cpu_now() - u0;
    for (int k = 1; k < x->nprocs; k++) {
        int dst = (x->rank + k) % x->nprocs, src = (x->rank - k + x->nprocs) % x->nprocs;
        int step = c->backward ? backward_step(comm, c, dst, src)
                               : forward_step(comm, c, dst, src);
        rc = rc ? rc : step;
    }
    bfs_slice_clear(c->sl);
    return rc;
}

/* Every round of one layer: scan, exchange, until every process's scan is
 * complete; then the layer's end on this slice (the close of a backward
 * layer).  found: this process's new boards; first its smallest. */
static int run_layer(MPI_Comm comm, struct layer_ctx *c, int d,
                     const struct bfs_mpi_options *o, uint64_t *found,
                     uint64_t first[BFS_KEEP], int *nfirst)
{
    int done = 0, die = o->fault_depth == d && o->fault_rank == c->x.rank;
    for (;;) {
        double t0 = MPI_Wtime(), u0 = cpu_now();
        if (!done)
            done = bfs_slice_scan(c->sl);
        c->L.expand += MPI_Wtime() - t0;
        c->L.cpu_expand += cpu_now() - u0;
        if (die)
            raise(SIGKILL); /* the test hook of bfs_mpi_options: mid-layer */
        int rc = SLIDE_OK;
        if (c->x.nprocs > 1)
            rc = exchange_round(comm, c); /* in step with the peers even after a failure */
        c->L.rounds++;
        int local[3] = {!done, rc == SLIDE_ENOMEM, rc == SLIDE_EFORMAT}, all[3];
        MPI_Allreduce(local, all, 3, MPI_INT, MPI_MAX, comm);
        if (all[1] || all[2])
            return all[1] ? SLIDE_ENOMEM : SLIDE_EFORMAT;
        if (!all[0])
            break;
    }
    double t1 = MPI_Wtime(), u1 = cpu_now();
    *found = bfs_slice_finish(c->sl, first, nfirst);
    c->L.mark += MPI_Wtime() - t1;
    c->L.cpu_mark += cpu_now() - u1;
    return SLIDE_OK;
}

/* The smallest BFS_KEEP indexes marked in the current layer. */
struct firsts {
    uint64_t v[BFS_KEEP];
    int n;
};

static void firsts_add(struct firsts *f, uint64_t e)
{
    if (f->n == BFS_KEEP && e >= f->v[BFS_KEEP - 1])
        return;
    int i = f->n < BFS_KEEP ? f->n++ : BFS_KEEP - 1;
    for (; i > 0 && f->v[i - 1] > e; i--)
        f->v[i] = f->v[i - 1];
    f->v[i] = e;
}

/* Sum the counts, take the largest times, merge the smallest indexes. */
static void reduce_layer(MPI_Comm comm, struct layer_ctx *c, uint64_t found,
                         const uint64_t *mine_first, int nmine, struct bfs_mpi_layer *L,
                         struct firsts *first)
{
    uint64_t sums[5] = {found, c->L.remote, c->L.remote_raw, c->L.bytes, c->L.messages},
             tot[5];
    double times[3] = {c->L.expand, c->L.exchange, c->L.mark}, tmax[3];
    double cpu[3] = {c->L.cpu_expand, c->L.cpu_exchange, c->L.cpu_mark}, csum[3];
    MPI_Allreduce(sums, tot, 5, MPI_UINT64_T, MPI_SUM, comm);
    MPI_Allreduce(times, tmax, 3, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(cpu, csum, 3, MPI_DOUBLE, MPI_SUM, comm);
    memset(L, 0, sizeof *L);
    L->layer.count = tot[0];
    L->expanded = c->L.expanded;
    L->remote = tot[1];
    L->remote_raw = tot[2];
    L->bytes = tot[3];
    L->messages = tot[4];
    L->expand = tmax[0];
    L->exchange = tmax[1];
    L->mark = tmax[2];
    L->cpu_expand = csum[0];
    L->cpu_exchange = csum[1];
    L->cpu_mark = csum[2];
    L->rounds = c->L.rounds;
    int nprocs = c->x.nprocs;
    uint64_t mine[BFS_KEEP + 1] = {(uint64_t)nmine};
    uint64_t *all = malloc((size_t)nprocs * sizeof mine);
    memcpy(mine + 1, mine_first, (size_t)nmine * sizeof *mine_first);
    MPI_Allgather(mine, BFS_KEEP + 1, MPI_UINT64_T, all, BFS_KEEP + 1, MPI_UINT64_T, comm);
    memset(first, 0, sizeof *first);
    for (int p = 0; all && p < nprocs; p++)
        for (uint64_t i = 0; i < all[p * (BFS_KEEP + 1)]; i++)
            firsts_add(first, all[p * (BFS_KEEP + 1) + 1 + i]);
    free(all);
}

/* Rank 0's on_layer decides for every process. */
static int call_on_layer(MPI_Comm comm, const struct bfs_mpi_options *o,
                         const struct bfs_mpi_layer *L)
{
    int stop = o->on_layer ? o->on_layer(L, o->ctx) : 0;
    MPI_Bcast(&stop, 1, MPI_INT, 0, comm);
    return stop;
}

/* The slice's expansion and the exchange buffers, on every process or on
 * none (agreed). */
static int open_layers(MPI_Comm comm, struct layer_ctx *c, const struct space *s,
                       struct store *st, const struct bfs_mpi_options *o, int fresh,
                       slide_error *err)
{
    int nprocs, rank, rc;
    uint64_t lo, hi;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    int threads = threads_of(o->threads);
    size_t cap = cap_of(s, nprocs, threads, o->budget, o->metric);
    struct bfs_options bo = {.threads = threads, .no_backward = o->no_backward,
                             .metric = o->metric};
    rc = bfs_slice_open(&c->sl, s, st, lo, nprocs > 1, &bo, cap, fresh, err);
    if (!rc && exchange_init(&c->x, s, nprocs, rank, threads, cap))
        rc = slide_fail(err, SLIDE_ENOMEM, "out of memory for the exchange buffers");
    return bfs_mpi_agree(comm, rc, err);
}

static int mpi_layers(MPI_Comm comm, const struct space *s, struct store *st,
                      const struct bfs_mpi_options *o, struct bfs_result *r, int fresh,
                      slide_error *err)
{
    struct layer_ctx c = {.s = s};
    int rc = open_layers(comm, &c, s, st, o, fresh, err);
    double start = MPI_Wtime() - r->seconds;
    r->threads = threads_of(o->threads);
    while (!rc && !r->complete) {
        int d = r->radius, nfirst = 0;
        uint64_t found = 0, mine[BFS_KEEP];
        double t0 = MPI_Wtime();
        memset(&c.L, 0, sizeof c.L);
        c.backward = bfs_slice_layer(c.sl, r, &c.L.expanded);
        rc = run_layer(comm, &c, d, o, &found, mine, &nfirst);
        if (rc) {
            rc = slide_fail(err, rc, rc == SLIDE_ENOMEM
                            ? "out of memory for the exchange buffers at distance %d"
                            : "a corrupt message between processes (or an overfull remote buffer) at "
                              "distance %d", d + 1);
            break;
        }
        struct bfs_mpi_layer L;
        struct firsts first;
        reduce_layer(comm, &c, found, mine, nfirst, &L, &first);
        double t1 = MPI_Wtime();
        r->seconds = t1 - start;
        if (L.layer.count == 0) {
            r->complete = 1;
            break;
        }
        memcpy(r->first, first.v, sizeof first.v);
        r->nfirst = first.n;
        if ((rc = bfs_result_push(r, d + 1, L.layer.count, err)))
            break;
        L.layer = (struct bfs_layer){d + 1, L.layer.count, r->reached, s->size,
                                     t1 - t0, r->seconds, c.backward};
        if (call_on_layer(comm, o, &L))
            rc = slide_fail(err, SLIDE_EINTR, "search stopped after distance %d", d + 1);
    }
    bfs_slice_close(c.sl);
    exchange_free(&c.x);
    return rc;
}

/* st must be this rank's slice. */
static int check_slice(MPI_Comm comm, const struct space *s, const struct store *st,
                       slide_error *err)
{
    int nprocs, rank, rc = SLIDE_OK;
    uint64_t lo, hi;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    if (st->size != hi - lo)
        rc = slide_fail(err, SLIDE_EINVAL, "process %d holds %llu entries but owns %llu",
                        rank, (unsigned long long)st->size,
                        (unsigned long long)(hi - lo));
    return bfs_mpi_agree(comm, rc, err);
}

int bfs_mpi_resume(MPI_Comm comm, const struct space *s, struct store *st,
                   const struct bfs_mpi_options *o, struct bfs_result *r,
                   slide_error *err)
{
    int rc = check_slice(comm, s, st, err);
    if (!rc && r->metric != o->metric)
        rc = slide_fail(err, SLIDE_EINVAL, "the search was begun in the %s metric, not the "
                        "%s metric", metric_long_name(r->metric), metric_long_name(o->metric));
    return rc ? rc : mpi_layers(comm, s, st, o, r, 0, err);
}

int bfs_mpi_run(MPI_Comm comm, const struct space *s, struct store *st,
                const struct bfs_mpi_options *o, struct bfs_result *r,
                slide_error *err)
{
    int nprocs, rank;
    memset(r, 0, sizeof *r);
    r->metric = o->metric;
    int rc = check_slice(comm, s, st, err);
    if (rc)
        return rc;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    uint64_t goal = (uint64_t)s->goal_blank, lo, hi; /* t = identity: block 0 */
    bfs_mpi_range(s, nprocs, rank, &lo, &hi);
    if (goal >= lo && goal < hi)
        store_set(st, goal - lo, STORE_FRONTIER);
    if ((rc = bfs_result_push(r, 0, 1, err)))
        return bfs_mpi_agree(comm, rc, err);
    r->first[0] = goal;
    r->nfirst = 1;
    struct bfs_mpi_layer L = {.layer = {0, 1, 1, s->size, 0.0, 0.0, 0}};
    if (call_on_layer(comm, o, &L))
        return slide_fail(err, SLIDE_EINTR, "search stopped after distance 0");
    return mpi_layers(comm, s, st, o, r, 1, err);
}

int bfs_mpi_check_memory(MPI_Comm comm, uint64_t bytes, uint64_t limit,
                         const char *what, uint64_t *machine, slide_error *err)
{
    MPI_Comm node;
    int node_rank, rc = SLIDE_OK;
    uint64_t sum = 0;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Allreduce(&bytes, &sum, 1, MPI_UINT64_T, MPI_SUM, node);
    if (machine)
        *machine = sum;
    if (node_rank == 0)
        rc = store_check_memory(sum, limit, what, err);
    MPI_Comm_free(&node);
    return bfs_mpi_agree(comm, rc, err);
}
