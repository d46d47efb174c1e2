/*
 * bfs_mpi.c - the two-bit BFS over MPI processes (bfs_mpi.h).
 *
 * Written apart from bfs.c on purpose: the single-process search stays the
 * code it is (results/ keeps its commit while bfs.c is unchanged), and this
 * one uses only the public index-space and store interfaces.  Inside a
 * process, OpenMP threads expand and mark with the store's atomic
 * store_mark, so the counts do not depend on the thread count; only the
 * main thread calls MPI, outside the parallel regions.
 */
#include "slide/bfs_mpi.h"

#include <omp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of one LEB128 varint of a 64-bit value, at most. */
#define VARINT_MAX 10

void bfs_mpi_range(const struct space *s, int nprocs, int rank, uint64_t *lo,
                   uint64_t *hi)
{
    unsigned __int128 b = s->blocks;
    *lo = (uint64_t)(b * (unsigned)rank / (unsigned)nprocs) * (uint64_t)s->n;
    *hi = (uint64_t)(b * (unsigned)(rank + 1) / (unsigned)nprocs) * (uint64_t)s->n;
}

int bfs_mpi_owner(const struct space *s, int nprocs, uint64_t i)
{
    uint64_t h = i / (uint64_t)s->n, lo, hi;
    int p = (int)((unsigned __int128)h * (unsigned)nprocs / s->blocks);
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

/*
 * One OpenMP thread's state: its outgoing buffers (out[p]: raw global
 * indexes for owner p), the boards it marked, and its block cache.
 */
struct worker {
    uint64_t **out;
    size_t *len, *cap;
    size_t total;     /* raw indexes held, all owners */
    int failed;       /* an allocation failed */
    uint64_t found, expanded;
    struct firsts first;
    uint64_t have_h;  /* the block (and parity) t was unranked for */
    uint8_t t[SPACE_MAX_CELLS];
};

/* The workers and the messages of one process. */
struct exchange {
    int nprocs, rank, nthreads;
    struct worker *w;
    size_t limit;     /* raw indexes, all threads, that end a round */
    uint64_t *merged; /* one owner's indexes from every thread */
    size_t merged_cap;
    uint8_t *code;    /* one encoded message */
    size_t code_cap;
    uint8_t *in;      /* one received message */
    size_t in_cap;
    uint64_t *dec;    /* its decoded indexes */
    size_t dec_cap;
    uint8_t *reply;   /* backward: our answers to one message of queries */
    size_t reply_cap;
    uint8_t *answer;  /* backward: the answers to our queries */
    size_t answer_cap;
};

static int exchange_init(struct exchange *x, int nprocs, int rank, int nthreads,
                         uint64_t budget)
{
    memset(x, 0, sizeof *x);
    x->nprocs = nprocs;
    x->rank = rank;
    x->nthreads = nthreads;
    x->limit = (size_t)(budget / sizeof(uint64_t));
    x->w = calloc((size_t)nthreads, sizeof *x->w);
    if (!x->w)
        return SLIDE_ENOMEM;
    for (int k = 0; k < nthreads; k++) {
        struct worker *w = &x->w[k];
        w->out = calloc((size_t)nprocs, sizeof *w->out);
        w->len = calloc((size_t)nprocs, sizeof *w->len);
        w->cap = calloc((size_t)nprocs, sizeof *w->cap);
        if (!w->out || !w->len || !w->cap)
            return SLIDE_ENOMEM;
    }
    return SLIDE_OK;
}

static void exchange_free(struct exchange *x)
{
    for (int k = 0; x->w && k < x->nthreads; k++) {
        struct worker *w = &x->w[k];
        for (int p = 0; w->out && p < x->nprocs; p++)
            free(w->out[p]);
        free(w->out);
        free(w->len);
        free(w->cap);
    }
    free(x->w);
    free(x->merged);
    free(x->code);
    free(x->in);
    free(x->dec);
    free(x->reply);
    free(x->answer);
    memset(x, 0, sizeof *x);
}

/* Grow *buf to hold need bytes; 0 or -1 when out of memory. */
static int grow(void **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    void *p = realloc(*buf, c);
    if (!p)
        return -1;
    *buf = p;
    *cap = c;
    return 0;
}

static void worker_push(struct worker *w, int owner, uint64_t index)
{
    size_t need = (w->len[owner] + 1) * sizeof(uint64_t), cap = w->cap[owner] * sizeof(uint64_t);
    void *buf = w->out[owner];
    if (grow(&buf, &cap, need)) {
        w->failed = 1;
        return;
    }
    w->out[owner] = buf;
    w->cap[owner] = cap / sizeof(uint64_t);
    w->out[owner][w->len[owner]++] = index;
    w->total++;
}

/* Raw indexes held by every thread, and whether an allocation failed. */
static size_t exchange_held(const struct exchange *x, int *failed)
{
    size_t total = 0;
    for (int k = 0; k < x->nthreads; k++) {
        total += x->w[k].total;
        *failed |= x->w[k].failed;
    }
    return total;
}

/* Every thread's indexes for owner p in x->merged (their buffers emptied);
 * returns how many, or SIZE_MAX when out of memory. */
static size_t gather(struct exchange *x, int p)
{
    size_t n = 0;
    for (int k = 0; k < x->nthreads; k++)
        n += x->w[k].len[p];
    if (grow((void **)&x->merged, &x->merged_cap, n * sizeof(uint64_t) + 8))
        return SIZE_MAX;
    n = 0;
    for (int k = 0; k < x->nthreads; k++) {
        struct worker *w = &x->w[k];
        if (w->len[p])
            memcpy(x->merged + n, w->out[p], w->len[p] * sizeof(uint64_t));
        n += w->len[p];
        w->len[p] = 0;
    }
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/*
 * Sort and de-duplicate v[0..*n), then write the gaps as LEB128 varints:
 * the first relative to base (the owner's lo), each next one relative to
 * the one before.  Returns the bytes written to code (room: VARINT_MAX * n).
 */
static size_t encode(uint64_t *v, size_t *n, uint64_t base, uint8_t *code)
{
    size_t k = 0, bytes = 0;
    if (*n == 0)
        return 0;
    qsort(v, *n, sizeof *v, cmp_u64);
    for (size_t i = 0; i < *n; i++)
        if (k == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    *n = k;
    uint64_t prev = base;
    for (size_t i = 0; i < k; i++) {
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

/* Decode one message (gaps from lo) into out; returns the count, or
 * SIZE_MAX if an index falls outside [lo, hi) (not between correct peers). */
static size_t decode(const uint8_t *p, size_t bytes, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t prev = lo;
    size_t i = 0, n = 0;
    while (i < bytes) {
        uint64_t gap = 0;
        for (unsigned sh = 0; i < bytes && sh < 64; sh += 7) {
            uint8_t b = p[i++];
            gap |= (uint64_t)(b & 0x7f) << sh;
            if (!(b & 0x80))
                break;
        }
        prev += gap;
        if (prev < lo || prev >= hi)
            return SIZE_MAX;
        out[n++] = prev;
    }
    return n;
}

/* One process's state during a layer. */
struct layer_ctx {
    const struct space *s;
    struct store *st;
    uint64_t lo, hi;
    struct exchange x;
    int backward;           /* this layer: 1 backward scan (queries), 0 forward */
    struct bfs_mpi_layer L; /* this process's share before the reduction */
};

static void mark_local(struct layer_ctx *c, struct worker *w, uint64_t g)
{
    if (store_mark(c->st, g - c->lo)) {
        w->found++;
        firsts_add(&w->first, g);
    }
}

/* Mark the n received indexes in x->dec, in parallel. */
static void mark_received(struct layer_ctx *c, size_t n)
{
    const uint64_t *v = c->x.dec;
#pragma omp parallel for schedule(static) num_threads(c->x.nthreads) if (n >= 4096)
    for (size_t i = 0; i < n; i++)
        mark_local(c, &c->x.w[omp_get_thread_num()], v[i]);
}

/*
 * Send this process's buffer for dst (out_bytes of x->code) and receive
 * the one from src into x->in; returns the received size, SIZE_MAX when
 * there was no room for it (the message is then taken and dropped).
 */
static size_t swap_message(MPI_Comm comm, struct exchange *x, int dst, int src,
                           uint64_t out_bytes, int tag)
{
    uint64_t in_bytes = 0;
    int failed = 0;
    MPI_Sendrecv(&out_bytes, 1, MPI_UINT64_T, dst, tag, &in_bytes, 1, MPI_UINT64_T,
                 src, tag, comm, MPI_STATUS_IGNORE);
    if (grow((void **)&x->in, &x->in_cap, in_bytes + 1))
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

/* Sort and de-duplicate x->merged[0..n) and delta-code it for owner dst
 * into x->code; returns the bytes (SIZE_MAX: out of memory). */
static size_t encode_for(struct layer_ctx *c, int dst, size_t n)
{
    struct exchange *x = &c->x;
    uint64_t lo, hi;
    bfs_mpi_range(c->s, x->nprocs, dst, &lo, &hi);
    if (grow((void **)&x->code, &x->code_cap, n * VARINT_MAX + 1))
        return SIZE_MAX;
    c->L.remote_raw += n;
    size_t bytes = encode(x->merged, &n, lo, x->code);
    c->L.remote += n;
    return bytes;
}

/* Decode the received message into x->dec; returns the count, SIZE_MAX on
 * error (*rc says which). */
static size_t receive_indexes(struct layer_ctx *c, size_t in_bytes, int *rc)
{
    struct exchange *x = &c->x;
    if (in_bytes == SIZE_MAX ||
        grow((void **)&x->dec, &x->dec_cap, (in_bytes + 1) * sizeof(uint64_t))) {
        *rc = SLIDE_ENOMEM;
        return SIZE_MAX;
    }
    size_t m = decode(x->in, in_bytes, c->lo, c->hi, x->dec);
    if (m == SIZE_MAX)
        *rc = SLIDE_EFORMAT;
    return m;
}

/* Forward step with dst and src: send our neighbours of dst's boards,
 * receive src's neighbours of ours and mark them. */
static int forward_step(MPI_Comm comm, struct layer_ctx *c, int dst, int src)
{
    struct exchange *x = &c->x;
    int rc = SLIDE_OK;
    double t0 = MPI_Wtime();
    size_t n = gather(x, dst), out_bytes = n == SIZE_MAX ? SIZE_MAX : encode_for(c, dst, n);
    if (out_bytes == SIZE_MAX) {
        rc = SLIDE_ENOMEM;
        out_bytes = 0;
    }
    size_t in_bytes = swap_message(comm, x, dst, src, out_bytes, 2);
    c->L.messages += 1 + (out_bytes > 0);
    c->L.bytes += out_bytes;
    double t1 = MPI_Wtime();
    size_t m = receive_indexes(c, in_bytes, &rc);
    if (!rc)
        mark_received(c, m);
    c->L.exchange += t1 - t0;
    c->L.mark += MPI_Wtime() - t1;
    return rc;
}

static int cmp_pair(const void *a, const void *b)
{
    return cmp_u64(a, b); /* by the queried index, the first of the pair */
}

/* One bit per received query: is that board (ours) in the frontier? */
static int answer_queries(struct layer_ctx *c, size_t m)
{
    struct exchange *x = &c->x;
    if (grow((void **)&x->reply, &x->reply_cap, m / 8 + 1))
        return SLIDE_ENOMEM;
    memset(x->reply, 0, m / 8 + 1);
    for (size_t i = 0; i < m; i++)
        if (store_get(c->st, x->dec[i] - c->lo) == STORE_FRONTIER)
            x->reply[i / 8] |= (uint8_t)(1u << (i % 8));
    return SLIDE_OK;
}

/*
 * Backward step with dst and src: our pairs (queried index, asking board)
 * for dst are sorted by the queried index and its distinct values sent as
 * in the forward step; src's queries are answered with one bit each; dst's
 * answers mark the boards that asked about a frontier board.
 */
static int backward_step(MPI_Comm comm, struct layer_ctx *c, int dst, int src)
{
    struct exchange *x = &c->x;
    int rc = SLIDE_OK;
    double t0 = MPI_Wtime();
    size_t n = gather(x, dst), asked = 0, out_bytes = 0;
    if (n == SIZE_MAX)
        rc = SLIDE_ENOMEM;
    else if (n) {
        qsort(x->merged, n / 2, 2 * sizeof(uint64_t), cmp_pair);
        /* the distinct queried indexes, copied past the pairs for encode */
        if (grow((void **)&x->merged, &x->merged_cap, (n + n / 2 + 1) * sizeof(uint64_t)))
            rc = SLIDE_ENOMEM;
        else {
            uint64_t *q = x->merged + n;
            for (size_t i = 0; i < n; i += 2)
                q[asked++] = x->merged[i];
            uint64_t lo, hi;
            bfs_mpi_range(c->s, x->nprocs, dst, &lo, &hi);
            if (grow((void **)&x->code, &x->code_cap, asked * VARINT_MAX + 1))
                rc = SLIDE_ENOMEM;
            else {
                c->L.remote_raw += asked;
                out_bytes = encode(q, &asked, lo, x->code);
                c->L.remote += asked;
            }
        }
    }
    if (rc)
        out_bytes = asked = 0;
    size_t in_bytes = swap_message(comm, x, dst, src, out_bytes, 4);
    size_t m = receive_indexes(c, in_bytes, &rc);
    if (m == SIZE_MAX || (!rc && answer_queries(c, m) != SLIDE_OK)) {
        rc = rc ? rc : SLIDE_ENOMEM;
        m = 0;
    }
    /* the answers: sizes follow from the query counts both sides know;
     * after a failure the step still runs, with what it has */
    size_t back = asked ? asked / 8 + 1 : 0, give = m ? m / 8 + 1 : 0;
    if (grow((void **)&x->answer, &x->answer_cap, back + 1))
        rc = SLIDE_ENOMEM, back = 0;
    MPI_Sendrecv(x->reply, (int)give, MPI_BYTE, src, 6, x->answer, (int)back, MPI_BYTE, dst,
                 6, comm, MPI_STATUS_IGNORE);
    c->L.messages += 1 + (out_bytes > 0) + (give > 0);
    c->L.bytes += out_bytes + give;
    double t1 = MPI_Wtime();
    if (!rc)
        for (size_t i = 0, j = 0; i < n; i += 2) {
            if (i > 0 && x->merged[i] != x->merged[i - 2])
                j++; /* the next distinct queried index */
            if (x->answer[j / 8] >> (j % 8) & 1)
                mark_local(c, &x->w[0], x->merged[i + 1]);
        }
    c->L.exchange += t1 - t0;
    c->L.mark += MPI_Wtime() - t1;
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
    for (int k = 1; k < x->nprocs; k++) {
        int dst = (x->rank + k) % x->nprocs, src = (x->rank - k + x->nprocs) % x->nprocs;
        int step = c->backward ? backward_step(comm, c, dst, src)
                               : forward_step(comm, c, dst, src);
        rc = rc ? rc : step;
    }
    for (int k = 0; k < x->nthreads; k++)
        x->w[k].total = 0;
    return rc;
}

/* The neighbours of global index g (colour z's), with w's block cache. */
static int neighbours_of(const struct space *s, struct worker *w, uint64_t g, int z,
                         uint64_t *nb)
{
    /* a block's t depends on need_parity[z] in the compact space (the two
     * arrangements of a half-rank), so the cache key holds both */
    uint64_t key = g / (uint64_t)s->n * 2 + s->need_parity[z];
    if (key != w->have_h) {
        space_untz(s, g, w->t);
        w->have_h = key;
    }
    return space_neighbours_tz(s, w->t, z, g, nb);
}

/* Expand the frontier entries of colour `colour` in local word wi and close
 * them (10 -> 0b, b the depth bit); w NULL: only close them (the second
 * pass of a backward layer). */
static void expand_word(struct layer_ctx *c, struct worker *w, uint64_t wi, int colour,
                        unsigned depth_bit)
{
    const struct space *s = c->s;
    uint64_t word = __atomic_load_n(&c->st->words[wi], __ATOMIC_RELAXED);
    uint64_t fm = (word >> 1) & ~word & STORE_LOW_BITS, flip = 0;
    while (fm) {
        int b = __builtin_ctzll(fm);
        fm &= fm - 1;
        uint64_t g = c->lo + wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2);
        int z = (int)(g % (uint64_t)s->n);
        if (s->colour[z] != colour)
            continue;
        if (w) {
            uint64_t nb[MOVE_COUNT];
            int cnt = neighbours_of(s, w, g, z, nb);
            for (int i = 0; i < cnt; i++)
                if (nb[i] >= c->lo && nb[i] < c->hi)
                    mark_local(c, w, nb[i]);
                else
                    worker_push(w, bfs_mpi_owner(s, c->x.nprocs, nb[i]), nb[i]);
            w->expanded++;
        }
        flip |= (uint64_t)(2u | depth_bit) << b; /* 10 -> 0b */
    }
    if (flip)
        __atomic_fetch_xor(&c->st->words[wi], flip, __ATOMIC_RELAXED);
}

/*
 * Backward scan of local word wi: each unvisited entry of colour `colour`
 * (the next layer's) with a frontier neighbour here is marked at once; one
 * with none here asks the owners of its remote neighbours (pairs of
 * queried index and asking board, in the owner's buffer).
 */
static void backward_word(struct layer_ctx *c, struct worker *w, uint64_t wi, int colour)
{
    const struct space *s = c->s;
    uint64_t word = __atomic_load_n(&c->st->words[wi], __ATOMIC_RELAXED);
    uint64_t um = word & (word >> 1) & STORE_LOW_BITS; /* entries == 11 */
    while (um) {
        int b = __builtin_ctzll(um);
        um &= um - 1;
        uint64_t e = wi * STORE_ENTRIES_PER_WORD + (uint64_t)(b / 2), g = c->lo + e;
        if (e >= c->st->size)
            break; /* the padding of the last word */
        int z = (int)(g % (uint64_t)s->n), cnt, here = 0;
        if (s->colour[z] != colour)
            continue;
        uint64_t nb[MOVE_COUNT];
        cnt = neighbours_of(s, w, g, z, nb);
        w->expanded++;
        for (int i = 0; i < cnt && !here; i++)
            here = nb[i] >= c->lo && nb[i] < c->hi &&
                   store_get(c->st, nb[i] - c->lo) == STORE_FRONTIER;
        if (here) {
            mark_local(c, w, g);
            continue;
        }
        for (int i = 0; i < cnt; i++)
            if (nb[i] < c->lo || nb[i] >= c->hi) {
                int owner = bfs_mpi_owner(s, c->x.nprocs, nb[i]);
                worker_push(w, owner, nb[i]);
                worker_push(w, owner, g);
            }
    }
}

static void close_frontier(struct layer_ctx *c, int colour, unsigned depth_bit)
{
#pragma omp parallel for schedule(static) num_threads(c->x.nthreads)
    for (uint64_t wi = 0; wi < c->st->nwords; wi++)
        expand_word(c, NULL, wi, colour, depth_bit);
}

/*
 * Words a thread takes at a time: at most 256 raw 64-bit values come from
 * one word (32 entries, 4 moves, 2 values for a backward query), so a
 * round ends holding less than 2 x the budget.
 */
static uint64_t scan_step(const struct exchange *x)
{
    uint64_t step = x->limit / 256 / (uint64_t)x->nthreads;
    return step < 1 ? 1 : step > 1024 ? 1024 : step;
}

/*
 * Expand local words from `from` on with every thread until the buffers
 * hold the budget (or a thread is out of memory); returns where the scan
 * stopped (every word before it expanded).  One parallel region per round:
 * threads take steps of words from a shared counter.
 */
static uint64_t expand_round(struct layer_ctx *c, uint64_t from, int colour, unsigned bit,
                             int die)
{
    uint64_t next = from, nwords = c->st->nwords, step = scan_step(&c->x);
    size_t held = 0, limit = c->x.limit;
#pragma omp parallel num_threads(c->x.nthreads)
    {
        struct worker *w = &c->x.w[omp_get_thread_num()];
        while (__atomic_load_n(&held, __ATOMIC_RELAXED) < limit && !w->failed) {
            uint64_t lo = __atomic_fetch_add(&next, step, __ATOMIC_RELAXED);
            if (lo >= nwords)
                break;
            uint64_t hi = nwords - lo < step ? nwords : lo + step;
            if (die && lo <= nwords / 2 && nwords / 2 < hi)
                raise(SIGKILL); /* the test hook of bfs_mpi_options */
            size_t before = w->total;
            for (uint64_t wi = lo; wi < hi; wi++)
                if (c->backward)
                    backward_word(c, w, wi, 1 - colour);
                else
                    expand_word(c, w, wi, colour, bit);
            __atomic_fetch_add(&held, w->total - before, __ATOMIC_RELAXED);
        }
    }
    return next < nwords ? next : nwords;
}

/* Every round of one layer (forward or backward, as c->backward says);
 * the layer's counts are left in the workers. */
static int run_layer(MPI_Comm comm, struct layer_ctx *c, int d,
                         const struct bfs_mpi_options *o)
{
    int colour = d & 1, failed = 0;
    unsigned bit = (unsigned)(d / 2) & 1u;
    uint64_t wi = 0, nwords = c->st->nwords;
    int die = o->fault_depth == d && o->fault_rank == c->x.rank;
    for (;;) {
        double t0 = MPI_Wtime();
        if (wi < nwords)
            wi = expand_round(c, wi, colour, bit, die);
        exchange_held(&c->x, &failed);
        c->L.expand += MPI_Wtime() - t0;
        int rc = exchange_round(comm, c); /* in step with the peers even after a failure */
        if (failed)
            rc = SLIDE_ENOMEM;
        c->L.rounds++;
        int local[3] = {wi < nwords, rc == SLIDE_ENOMEM, rc == SLIDE_EFORMAT}, all[3];
        MPI_Allreduce(local, all, 3, MPI_INT, MPI_MAX, comm);
        if (all[1] || all[2])
            return all[1] ? SLIDE_ENOMEM : SLIDE_EFORMAT;
        if (!all[0]) {
            if (c->backward) {
                double t1 = MPI_Wtime();
                close_frontier(c, colour, bit);
                c->L.mark += MPI_Wtime() - t1;
            }
            return SLIDE_OK;
        }
    }
}

/* Sum the counts, take the largest times, merge the smallest indexes. */
static void reduce_layer(MPI_Comm comm, struct layer_ctx *c, struct bfs_mpi_layer *L,
                         struct firsts *first)
{
    struct firsts mine_first = {0};
    uint64_t found = 0;
    for (int k = 0; k < c->x.nthreads; k++) {
        const struct worker *w = &c->x.w[k];
        found += w->found;
        c->L.expanded += w->expanded;
        for (int i = 0; i < w->first.n; i++)
            firsts_add(&mine_first, w->first.v[i]);
    }
    uint64_t sums[6] = {found, c->L.expanded, c->L.remote, c->L.remote_raw,
                        c->L.bytes, c->L.messages}, tot[6];
    double times[3] = {c->L.expand, c->L.exchange, c->L.mark}, tmax[3];
    MPI_Allreduce(sums, tot, 6, MPI_UINT64_T, MPI_SUM, comm);
    MPI_Allreduce(times, tmax, 3, MPI_DOUBLE, MPI_MAX, comm);
    memset(L, 0, sizeof *L);
    L->layer.count = tot[0];
    L->expanded = tot[1];
    L->remote = tot[2];
    L->remote_raw = tot[3];
    L->bytes = tot[4];
    L->messages = tot[5];
    L->expand = tmax[0];
    L->exchange = tmax[1];
    L->mark = tmax[2];
    L->rounds = c->L.rounds;
    int nprocs = c->x.nprocs;
    uint64_t mine[BFS_KEEP + 1], *all = malloc((size_t)nprocs * sizeof mine);
    mine[0] = (uint64_t)mine_first.n;
    memcpy(mine + 1, mine_first.v, sizeof mine_first.v);
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

static int mpi_layers(MPI_Comm comm, const struct space *s, struct store *st,
                      const struct bfs_mpi_options *o, struct bfs_result *r,
                      slide_error *err)
{
    struct layer_ctx c = {.s = s, .st = st};
    int nprocs, rank;
    MPI_Comm_size(comm, &nprocs);
    MPI_Comm_rank(comm, &rank);
    bfs_mpi_range(s, nprocs, rank, &c.lo, &c.hi);
    uint64_t budget = o->budget ? o->budget : BFS_MPI_DEFAULT_BUDGET;
    if (budget > BFS_MPI_MAX_BUDGET)
        budget = BFS_MPI_MAX_BUDGET;
    int threads = o->threads > 0 ? o->threads : omp_get_max_threads();
    int rc = exchange_init(&c.x, nprocs, rank, threads, budget);
    rc = bfs_mpi_agree(comm, rc ? slide_fail(err, rc, "out of memory for the exchange "
                                             "buffers") : SLIDE_OK, err);
    double start = MPI_Wtime() - r->seconds;
    r->threads = threads;
    while (!rc && !r->complete) {
        int d = r->radius;
        double t0 = MPI_Wtime();
        for (int k = 0; k < threads; k++) {
            struct worker *w = &c.x.w[k];
            w->found = w->expanded = 0;
            w->first.n = 0;
            w->have_h = UINT64_MAX;
        }
        memset(&c.L, 0, sizeof c.L);
        c.backward = !o->no_backward && bfs_backward_pays(s, r, d);
        rc = run_layer(comm, &c, d, o);
        if (rc) {
            rc = slide_fail(err, rc, rc == SLIDE_ENOMEM
                            ? "out of memory for the exchange buffers at distance %d"
                            : "a corrupt message between processes at distance %d", d + 1);
            break;
        }
        struct bfs_mpi_layer L;
        struct firsts first;
        reduce_layer(comm, &c, &L, &first);
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
    return rc ? rc : mpi_layers(comm, s, st, o, r, err);
}

int bfs_mpi_run(MPI_Comm comm, const struct space *s, struct store *st,
                const struct bfs_mpi_options *o, struct bfs_result *r,
                slide_error *err)
{
    int nprocs, rank;
    memset(r, 0, sizeof *r);
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
    return mpi_layers(comm, s, st, o, r, err);
}

int bfs_mpi_check_memory(MPI_Comm comm, uint64_t bytes, uint64_t limit,
                         const char *what, slide_error *err)
{
    MPI_Comm node;
    int node_rank, rc = SLIDE_OK;
    uint64_t sum = 0;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Reduce(&bytes, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, node);
    if (node_rank == 0)
        rc = store_check_memory(sum, limit, what, err);
    MPI_Comm_free(&node);
    return bfs_mpi_agree(comm, rc, err);
}
