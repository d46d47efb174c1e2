/*
 * _slide.c - the C extension behind the slide Python package: slide's
 * library (include/slide) over numpy arrays.  python/slide/__init__.py
 * wraps it (sizes, goals, defaults, documentation); this file only moves
 * numbers between numpy arrays and the library's functions.
 *
 * Representation: N boards are an N x n integer array, row i the cells of
 * board i in reading order (tile per cell, 0 the blank, n = rows * cols),
 * any integer dtype and any strides (nothing is copied to read them; a
 * value that is not a tile of the board makes the board invalid).  Every
 * vectorised function checks every board (a permutation of 0..n-1, n <=
 * PY_MAX_CELLS) before the library sees it, works on the boards in
 * parallel (OpenMP, threads <= 0: all cores) with the GIL released, and on
 * a bad board raises for the first one (smallest row), naming the row and
 * the library's message for it.  Results are new numpy arrays; bfs writes
 * the distances straight into the array it returns, and
 * Database.array is the loaded payload of a byte-per-board database
 * itself (read-only, kept alive by the array).
 *
 * Errors: slide's status codes become the exceptions created in
 * PyInit__slide: SLIDE_EINVAL and SLIDE_ERANGE -> BadInput (a ValueError),
 * SLIDE_EUNSOLVABLE -> Unsolvable (a BadInput), SLIDE_EIO and
 * SLIDE_EFORMAT -> FileError (an OSError), SLIDE_ENOMEM -> OutOfMemory (a
 * MemoryError), SLIDE_EINTR -> Interrupted; all subclasses of slide.Error.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdint.h>
#include <string.h>

#include "slide/bfs.h"
#include "slide/board.h"
#include "slide/db.h"
#include "slide/heuristic.h"
#include "slide/ida.h"
#include "slide/ida_heuristic.h"
#include "slide/parity.h"
#include "slide/pdb.h"
#include "slide/rng.h"
#include "slide/scramble.h"
#include "slide/space.h"
#include "slide/store.h"

/* Cells of the boards the vectorised functions take (a tile fits a uint8 up
 * to 256 cells; the library's own limits are smaller where they apply). */
#define PY_MAX_CELLS 256
_Static_assert(SPACE_MAX_CELLS <= 256, "unrank writes its boards as uint8 rows");

static PyObject *Error, *BadInput, *Unsolvable, *FileError, *OutOfMemory, *Interrupted;

/* Raise the exception of slide status rc with message msg; returns NULL. */
static PyObject *raise_slide(int rc, const char *msg)
{
    PyObject *type = Error;
    switch (rc) {
    case SLIDE_EINVAL:
    case SLIDE_ERANGE: type = BadInput; break;
    case SLIDE_EUNSOLVABLE: type = Unsolvable; break;
    case SLIDE_EIO:
    case SLIDE_EFORMAT: type = FileError; break;
    case SLIDE_ENOMEM: type = OutOfMemory; break;
    case SLIDE_EINTR: type = Interrupted; break;
    default: break;
    }
    PyErr_SetString(type, msg);
    return NULL;
}

static int threads_of(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* ---- boards as numpy arrays ---------------------------------------------- */

/* An N x n integer array read in place. */
struct boards {
    PyArrayObject *arr;   /* a reference held */
    npy_intp N, n;
    const char *data;
    npy_intp s0, s1;      /* strides in bytes */
    int type;             /* numpy type number */
};

static void boards_release(struct boards *v)
{
    Py_XDECREF(v->arr);
    v->arr = NULL;
}

/* Take obj (a 2-d array of integers with n columns) for reading. */
static int boards_take(PyObject *obj, int n, struct boards *v)
{
    memset(v, 0, sizeof *v);
    PyArrayObject *a = (PyArrayObject *)PyArray_FROM_OF(obj, NPY_ARRAY_ALIGNED);
    if (!a)
        return -1;
    v->arr = a;
    if (PyArray_NDIM(a) != 2) {
        PyErr_Format(BadInput, "boards must be an N x %d array of integers (one board per "
                     "row), not %d-dimensional", n, PyArray_NDIM(a));
        goto fail;
    }
    int t = PyArray_TYPE(a);
    if (!PyTypeNum_ISINTEGER(t)) {
        PyObject *name = PyObject_Str((PyObject *)PyArray_DESCR(a));
        PyErr_Format(BadInput, "boards must hold integers (tiles 1..%d and 0 for the "
                     "blank), not %s", n - 1, name ? PyUnicode_AsUTF8(name) : "?");
        Py_XDECREF(name);
        goto fail;
    }
    if (PyArray_DIM(a, 1) != n) {
        PyErr_Format(BadInput, "boards have %ld cells per row but this board size has %d",
                     (long)PyArray_DIM(a, 1), n);
        goto fail;
    }
    v->N = PyArray_DIM(a, 0);
    v->n = n;
    v->data = PyArray_BYTES(a);
    v->s0 = PyArray_STRIDE(a, 0);
    v->s1 = PyArray_STRIDE(a, 1);
    v->type = t;
    return 0;
fail:
    boards_release(v);
    return -1;
}

/* Read a cell as a number, -1 for anything outside 0..INT_MAX (READ_S for
 * signed types, READ_U for unsigned ones). */
#define READ_S(T)                                                             \
    for (npy_intp k = 0; k < v->n; k++) {                                     \
        long long x = *(const T *)(p + k * v->s1);                            \
        out[k] = (x < 0 || x > INT_MAX) ? -1 : (int)x;                        \
    }                                                                         \
    break
#define READ_U(T)                                                             \
    for (npy_intp k = 0; k < v->n; k++) {                                     \
        unsigned long long x = *(const T *)(p + k * v->s1);                   \
        out[k] = x > INT_MAX ? -1 : (int)x;                                   \
    }                                                                         \
    break

/* Cells of board i into out[0..n-1]. */
static void boards_row(const struct boards *v, npy_intp i, int *out)
{
    const char *p = v->data + i * v->s0;
    switch (v->type) {
    case NPY_BYTE: READ_S(npy_byte);
    case NPY_UBYTE: READ_U(npy_ubyte);
    case NPY_SHORT: READ_S(npy_short);
    case NPY_USHORT: READ_U(npy_ushort);
    case NPY_INT: READ_S(npy_int);
    case NPY_UINT: READ_U(npy_uint);
    case NPY_LONG: READ_S(npy_long);
    case NPY_ULONG: READ_U(npy_ulong);
    case NPY_LONGLONG: READ_S(npy_longlong);
    case NPY_ULONGLONG: READ_U(npy_ulonglong);
    default:
        for (npy_intp k = 0; k < v->n; k++)
            out[k] = -1;
    }
}

/* 1 when cells[0..n-1] is a permutation of 0..n-1 (n <= PY_MAX_CELLS). */
static int cells_ok(const int *cells, int n)
{
    uint64_t seen[PY_MAX_CELLS / 64] = {0};
    for (int k = 0; k < n; k++) {
        unsigned t = (unsigned)cells[k];
        if (t >= (unsigned)n || (seen[t >> 6] >> (t & 63) & 1))
            return 0;
        seen[t >> 6] |= 1ULL << (t & 63);
    }
    return 1;
}

/* The smallest bad row so far (shared by the threads of a loop). */
static void note_bad(int64_t *bad, int64_t i)
{
#pragma omp critical(slide_py_bad)
    if (i < *bad)
        *bad = i;
}

/* Raise for board i of v: the library's complaint about it (board_validate),
 * or else rc with msg (why it was refused although it is a board). */
static PyObject *raise_row(const struct boards *v, int64_t i, int rows, int cols, int rc,
                           const char *msg)
{
    int cells[PY_MAX_CELLS];
    struct board b = {rows, cols, cells};
    slide_error err = {{0}};
    char text[SLIDE_ERROR_LEN + 64];
    boards_row(v, (npy_intp)i, cells);
    int vrc = board_validate(&b, &err);
    if (vrc) {
        snprintf(text, sizeof text, "row %lld: %s", (long long)i,
                 err.msg);
        return raise_slide(vrc, text);
    }
    snprintf(text, sizeof text, "row %lld: %s", (long long)i, msg);
    return raise_slide(rc, text);
}

/* A new N x n array for boards: uint8 up to 256 cells. */
static PyArrayObject *new_boards(npy_intp N, int n)
{
    npy_intp dims[2] = {N, n};
    return (PyArrayObject *)PyArray_ZEROS(2, dims, n <= 256 ? NPY_UINT8 : NPY_INT32, 0);
}

static void put_row(PyArrayObject *a, npy_intp i, const int *cells, int n)
{
    if (PyArray_TYPE(a) == NPY_UINT8) {
        uint8_t *o = (uint8_t *)PyArray_GETPTR2(a, i, 0);
        for (int k = 0; k < n; k++)
            o[k] = (uint8_t)cells[k];
    } else {
        int32_t *o = (int32_t *)PyArray_GETPTR2(a, i, 0);
        for (int k = 0; k < n; k++)
            o[k] = cells[k];
    }
}

/* ---- long calls that Ctrl-C stops ------------------------------------------ */

struct waited {
    void (*work)(void *);
    void *arg;
    int done;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static void *waited_main(void *p)
{
    struct waited *w = p;
    w->work(w->arg);
    pthread_mutex_lock(&w->mu);
    w->done = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/*
 * Run work(arg) on a thread of its own while this one waits with the GIL
 * released, waking every 100 ms so that Python sees a signal (Ctrl-C, or
 * Jupyter's interrupt): then *cancel is set, which the work polls (a
 * loop skips its remaining rows, IDA* and the loaders return SLIDE_EINTR),
 * and once work has returned -1 is returned with the KeyboardInterrupt
 * pending: the caller frees what it made and returns NULL.  0 when it ran
 * to its end.
 */
static int run_interruptible(void (*work)(void *), void *arg, volatile sig_atomic_t *cancel)
{
    struct waited w = {work, arg, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    pthread_t t;
    if (pthread_create(&t, NULL, waited_main, &w) != 0) { /* no thread: not stoppable */
        Py_BEGIN_ALLOW_THREADS
        work(arg);
        Py_END_ALLOW_THREADS
        return 0;
    }
    int interrupted = 0, done = 0;
    while (!done) {
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&w.mu);
        if (!w.done) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 100000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&w.cv, &w.mu, &ts);
        }
        done = w.done;
        pthread_mutex_unlock(&w.mu);
        Py_END_ALLOW_THREADS
        if (!done && !interrupted && PyErr_CheckSignals() < 0) {
            *cancel = 1;
            interrupted = 1;
        }
    }
    pthread_join(t, NULL);
    return interrupted ? -1 : 0;
}

/* Calls over fewer boards than this run inline: a thread of their own
 * costs tens of microseconds, and they end in milliseconds anyway. */
#define PY_STOPPABLE_ROWS 65536

/* work(arg) with the GIL released: stoppable by Ctrl-C (run_interruptible)
 * when the call is long (rows >= PY_STOPPABLE_ROWS), inline otherwise.
 * -1 when interrupted. */
static int run_long(npy_intp rows, void (*work)(void *), void *arg,
                    volatile sig_atomic_t *cancel)
{
    if (rows >= PY_STOPPABLE_ROWS)
        return run_interruptible(work, arg, cancel);
    Py_BEGIN_ALLOW_THREADS
    work(arg);
    Py_END_ALLOW_THREADS
    return 0;
}

/*
 * What a vectorised function does with one valid board (cells, rows x
 * cols): write its result for row i into out and return SLIDE_OK, or
 * return a slide status when the board has none.  explain then says why
 * (status and message) for the exception.
 */
typedef int (*row_fn)(const void *ctx, const int *cells, int rows, int cols, void *out,
                      npy_intp i);
typedef int (*explain_fn)(const void *ctx, const int *cells, int rows, int cols,
                          slide_error *err);

/* map_rows's loop: fn over every board of v into o, the smallest bad row
 * into bad; Ctrl-C (cancel) skips the rest. */
struct rows_job {
    const struct boards *v;
    int rows, cols, threads;
    row_fn fn;
    const void *ctx;
    void *o;
    int64_t bad;
    volatile sig_atomic_t cancel;
};

static void rows_work(void *arg)
{
    struct rows_job *J = arg;
    int n = J->rows * J->cols;
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads_of(J->threads))
    for (npy_intp i = 0; i < J->v->N; i++) {
        int cells[PY_MAX_CELLS];
        if (J->cancel)
            continue;
        boards_row(J->v, i, cells);
        if (!cells_ok(cells, n) || J->fn(J->ctx, cells, J->rows, J->cols, J->o, i) != SLIDE_OK)
            note_bad(&J->bad, i);
    }
}

/* fn over every board of obj (an N x rows*cols integer array), in parallel
 * with the GIL released (stoppable by Ctrl-C when long: run_long), into a new 1-d array of out_type; on a bad board
 * the exception for the first one (raise_row, explain). */
static PyObject *map_rows(PyObject *obj, int rows, int cols, int threads, int out_type,
                          row_fn fn, explain_fn explain, const void *ctx)
{
    int n = rows * cols;
    struct boards v;
    if (n > PY_MAX_CELLS)
        return PyErr_Format(BadInput, "boards of more than %d cells are not taken as arrays",
                            PY_MAX_CELLS);
    if (boards_take(obj, n, &v))
        return NULL;
    npy_intp dims[1] = {v.N};
    PyArrayObject *out = (PyArrayObject *)PyArray_ZEROS(1, dims, out_type, 0);
    if (!out) {
        boards_release(&v);
        return NULL;
    }
    struct rows_job J = {&v, rows, cols, threads, fn, ctx, PyArray_DATA(out), INT64_MAX, 0};
    if (run_long(v.N, rows_work, &J, &J.cancel)) {
        Py_DECREF(out);
        boards_release(&v);
        return NULL;
    }
    int64_t bad = J.bad;
    if (bad != INT64_MAX) {
        int cells[PY_MAX_CELLS];
        slide_error err = {{0}};
        boards_row(&v, (npy_intp)bad, cells);
        int rc = cells_ok(cells, n) ? explain(ctx, cells, rows, cols, &err) : SLIDE_EINVAL;
        if (rc == SLIDE_OK)
            rc = slide_fail(&err, SLIDE_EINVAL, "the board has no result");
        raise_row(&v, bad, rows, cols, rc, err.msg);
        Py_DECREF(out);
        out = NULL;
    }
    boards_release(&v);
    return (PyObject *)out;
}

/* ---- goals and spaces ---------------------------------------------------- */

/* The goal: goal_text (board syntax, or a goal word such as "blank-first":
 * board_parse_goal) or, when NULL, the standard goal. */
static int goal_make(const char *goal_text, int rows, int cols, struct board *goal)
{
    slide_error err = {{0}};
    int rc = goal_text ? board_parse_goal(goal_text, rows, cols, goal, &err)
                       : board_goal(goal, rows, cols, &err);
    if (!rc && (goal->rows != rows || goal->cols != cols)) {
        board_free(goal);
        rc = slide_fail(&err, SLIDE_EINVAL, "the goal is %dx%d, the boards %dx%d",
                        goal->rows, goal->cols, rows, cols);
    }
    if (rc) {
        char text[SLIDE_ERROR_LEN + 16];
        snprintf(text, sizeof text, "goal: %s", err.msg);
        raise_slide(rc, text);
        return -1;
    }
    return 0;
}

/* The index space of rows x cols with goal_text (NULL: standard), kind 0
 * compact or 1 full. */
static int space_make(const char *goal_text, int rows, int cols, int kind, struct space *s)
{
    struct board goal = {0};
    slide_error err = {{0}};
    if (goal_make(goal_text, rows, cols, &goal))
        return -1;
    int rc = space_init(s, &goal, kind ? SPACE_FULL : SPACE_COMPACT, &err);
    board_free(&goal);
    if (rc) {
        raise_slide(rc, err.msg);
        return -1;
    }
    return 0;
}

/* ---- rank, unrank, solvable ---------------------------------------------- */

/* The index of a board in the space ctx (the compact space has none for a
 * board of the other parity). */
static int rank_row(const void *ctx, const int *cells, int rows, int cols, void *out,
                    npy_intp i)
{
    const struct space *s = ctx;
    uint8_t t[SPACE_MAX_CELLS];
    struct board b = {rows, cols, (int *)cells};
    int z = space_split(s, &b, t);
    if (s->kind == SPACE_COMPACT && !space_reachable_tz(s, t, z))
        return SLIDE_EUNSOLVABLE;
    ((uint64_t *)out)[i] = space_index_tz(s, t, z);
    return SLIDE_OK;
}

static int rank_explain(const void *ctx, const int *cells, int rows, int cols,
                        slide_error *err)
{
    (void)ctx, (void)cells, (void)rows, (void)cols;
    return slide_fail(err, SLIDE_EUNSOLVABLE, "the board cannot reach the goal, so the "
                      "compact space (the solvable boards) has no rank for it; space='full' "
                      "ranks every arrangement");
}

static PyObject *py_rank(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj;
    const char *goal_text;
    int rows, cols, kind, threads;
    if (!PyArg_ParseTuple(args, "Oiizii", &obj, &rows, &cols, &goal_text, &kind, &threads))
        return NULL;
    struct space s;
    if (space_make(goal_text, rows, cols, kind, &s))
        return NULL;
    return map_rows(obj, rows, cols, threads, NPY_UINT64, rank_row, rank_explain, &s);
}

/* py_unrank's loop: the boards of ranks idx[0..N-1] into out. */
struct unrank_job {
    const struct space *s;
    const uint64_t *idx;
    npy_intp N;
    PyArrayObject *out;
    int threads;
    int64_t bad;
    volatile sig_atomic_t cancel;
};

static void unrank_work(void *arg)
{
    struct unrank_job *J = arg;
    const struct space *s = J->s;
#pragma omp parallel for schedule(static, 4096) num_threads(threads_of(J->threads))
    for (npy_intp i = 0; i < J->N; i++) {
        uint8_t t[SPACE_MAX_CELLS];
        if (J->cancel)
            continue;
        if (J->idx[i] >= s->size) {
            note_bad(&J->bad, i);
            continue;
        }
        /* space_unrank, written straight into the uint8 row */
        int z = space_untz(s, J->idx[i], t);
        uint8_t *o = (uint8_t *)PyArray_GETPTR2(J->out, i, 0);
        for (int k = 0, j = 0; k < s->n; k++)
            o[k] = k == z ? 0 : (uint8_t)s->label[t[j++]];
    }
}

static PyObject *py_unrank(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj;
    const char *goal_text;
    int rows, cols, kind, threads;
    if (!PyArg_ParseTuple(args, "Oiizii", &obj, &rows, &cols, &goal_text, &kind, &threads))
        return NULL;
    struct space s;
    if (space_make(goal_text, rows, cols, kind, &s))
        return NULL;
    /* the wrapper has refused negative and non-integer ranks */
    PyArrayObject *r = (PyArrayObject *)PyArray_FROM_OTF(obj, NPY_UINT64,
                                                         NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
    if (!r)
        return NULL;
    if (PyArray_NDIM(r) != 1) {
        Py_DECREF(r);
        return PyErr_Format(BadInput, "ranks must be a 1-dimensional array");
    }
    npy_intp N = PyArray_DIM(r, 0);
    const uint64_t *idx = (const uint64_t *)PyArray_DATA(r);
    PyArrayObject *out = new_boards(N, s.n);
    if (!out) {
        Py_DECREF(r);
        return NULL;
    }
    struct unrank_job J = {&s, idx, N, out, threads, INT64_MAX, 0};
    if (run_long(N, unrank_work, &J, &J.cancel)) {
        Py_DECREF(out);
        Py_DECREF(r);
        return NULL;
    }
    int64_t bad = J.bad;
    if (bad != INT64_MAX) {
        PyErr_Format(BadInput, "rank %llu (entry %lld) is out of range: the %s space of %dx%d "
                     "has ranks 0..%llu", (unsigned long long)idx[bad], (long long)bad,
                     space_kind_name(s.kind), rows, cols, (unsigned long long)(s.size - 1));
        Py_DECREF(out);
        out = NULL;
    }
    Py_DECREF(r);
    return (PyObject *)out;
}

static PyObject *py_space_size(PyObject *self, PyObject *args)
{
    (void)self;
    const char *goal_text;
    int rows, cols, kind;
    if (!PyArg_ParseTuple(args, "iizi", &rows, &cols, &goal_text, &kind))
        return NULL;
    struct space s;
    if (space_make(goal_text, rows, cols, kind, &s))
        return NULL;
    return PyLong_FromUnsignedLongLong(s.size);
}

static int solvable_row(const void *ctx, const int *cells, int rows, int cols, void *out,
                        npy_intp i)
{
    struct board b = {rows, cols, (int *)cells};
    struct parity_report pr;
    int rc = parity_check(&b, (const struct board *)ctx, &pr, NULL);
    if (!rc)
        ((npy_bool *)out)[i] = pr.solvable ? NPY_TRUE : NPY_FALSE;
    return rc;
}

static int solvable_explain(const void *ctx, const int *cells, int rows, int cols,
                            slide_error *err)
{
    struct board b = {rows, cols, (int *)cells};
    struct parity_report pr;
    return parity_check(&b, (const struct board *)ctx, &pr, err);
}

static PyObject *py_solvable(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj;
    const char *goal_text;
    int rows, cols, threads;
    if (!PyArg_ParseTuple(args, "Oiizi", &obj, &rows, &cols, &goal_text, &threads))
        return NULL;
    struct board goal = {0};
    if (goal_make(goal_text, rows, cols, &goal))
        return NULL;
    PyObject *res = map_rows(obj, rows, cols, threads, NPY_BOOL, solvable_row,
                             solvable_explain, &goal);
    board_free(&goal);
    return res;
}

/* ---- bfs ----------------------------------------------------------------- */

struct bfs_py {
    const struct space *s;
    struct store *st;  /* allocated and freed by bfs_work */
    uint8_t *dist;
    int threads;
    int too_far;       /* a layer beyond 254 */
    volatile sig_atomic_t cancel; /* Ctrl-C: stop at the end of this layer */
};

struct bfs_py_layer {
    struct bfs_py *B;
    uint8_t depth;
};

static void bfs_py_visit_depth(void *ctx, int thread, uint64_t index)
{
    (void)thread;
    struct bfs_py_layer *L = ctx;
    L->B->dist[index] = L->depth;
}

static int bfs_py_on_layer(const struct bfs_layer *layer, void *ctx)
{
    struct bfs_py *B = ctx;
    if (B->cancel)
        return 1;
    if (layer->depth > 254) {
        B->too_far = 1;
        return 1;
    }
    struct bfs_py_layer L = {B, (uint8_t)layer->depth};
    bfs_visit_frontier(B->s, B->st, layer->depth, B->threads, bfs_py_visit_depth, &L);
    return 0;
}

/* py_bfs's search, into B's array; the store is freed before it returns. */
struct bfs_job {
    struct bfs_py *B;
    struct bfs_options o;
    struct bfs_result r;
    slide_error err;
    int rc;
};

static void bfs_work(void *arg)
{
    struct bfs_job *J = arg;
    struct store *st = J->B->st;
    memset(J->B->dist, 255, J->B->s->size); /* boards that cannot reach the goal (full space) */
    J->rc = store_alloc(st, J->B->s->size, &J->err);
    if (!J->rc)
        J->rc = bfs_run(J->B->s, st, &J->o, &J->r, &J->err);
    store_free(st);
}

static PyObject *py_bfs(PyObject *self, PyObject *args)
{
    (void)self;
    const char *goal_text;
    int rows, cols, kind, threads;
    unsigned long long max_memory;
    if (!PyArg_ParseTuple(args, "iiziiK", &rows, &cols, &goal_text, &kind, &threads,
                          &max_memory))
        return NULL;
    struct space s;
    if (space_make(goal_text, rows, cols, kind, &s))
        return NULL;
    slide_error err = {{0}};
    char what[128];
    snprintf(what, sizeof what, "the distances of a %dx%d board (a byte per board and the "
             "two-bit store)", rows, cols);
    uint64_t need = s.size + store_bytes_needed(s.size);
    int rc = store_check_memory(need, max_memory, what, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    if (s.size > (uint64_t)NPY_MAX_INTP)
        return PyErr_Format(BadInput, "%dx%d has too many boards for one array", rows, cols);
    npy_intp dims[1] = {(npy_intp)s.size};
    PyArrayObject *dist = (PyArrayObject *)PyArray_EMPTY(1, dims, NPY_UINT8, 0);
    if (!dist)
        return NULL;
    struct store st = {0};
    struct bfs_py B = {&s, &st, (uint8_t *)PyArray_DATA(dist), threads_of(threads), 0, 0};
    struct bfs_job J = {&B, {.threads = threads, .on_layer = bfs_py_on_layer, .ctx = &B},
                        {0}, {{0}}, 0};
    struct bfs_result r;
    if (run_long((npy_intp)s.size, bfs_work, &J, &B.cancel)) {
        bfs_result_free(&J.r);
        Py_DECREF(dist);
        return NULL;
    }
    rc = J.rc;
    r = J.r;
    err = J.err;
    if (B.too_far)
        rc = slide_fail(&err, SLIDE_ERANGE, "a distance above 254 does not fit a byte");
    if (rc) {
        bfs_result_free(&r);
        Py_DECREF(dist);
        return raise_slide(rc, err.msg);
    }
    npy_intp hd[1] = {r.radius + 1};
    PyArrayObject *hist = (PyArrayObject *)PyArray_EMPTY(1, hd, NPY_UINT64, 0);
    if (!hist) {
        bfs_result_free(&r);
        Py_DECREF(dist);
        return NULL;
    }
    memcpy(PyArray_DATA(hist), r.hist, (size_t)(r.radius + 1) * sizeof(uint64_t));
    bfs_result_free(&r);
    return Py_BuildValue("NN", dist, hist);
}

/* The end of a type's init: raise for rc, or mark the object ready. */
static int init_done(int *ready, int rc, const slide_error *err)
{
    if (rc) {
        raise_slide(rc, err->msg);
        return -1;
    }
    *ready = 1;
    return 0;
}

/* The type object of an extension type: objects of struct obj, made by
 * tp_new and init, released by dealloc. */
#define SLIDE_TYPE(name, obj, init, dealloc, methods, getset, doc)                  \
    {                                                                               \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = name, .tp_basicsize = sizeof(obj), \
        .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,                        \
        .tp_new = PyType_GenericNew, .tp_init = (initproc)init,                      \
        .tp_dealloc = (destructor)dealloc, .tp_methods = methods, .tp_getset = getset, \
        .tp_doc = doc,                                                               \
    }

/* ---- heuristics ---------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    struct heuristic h;
    int ready;
} HeuristicObject;

static int Heuristic_init(HeuristicObject *self, PyObject *args, PyObject *kw)
{
    (void)kw;
    const char *name, *goal_text;
    int rows, cols;
    if (!PyArg_ParseTuple(args, "siiz", &name, &rows, &cols, &goal_text))
        return -1;
    if (self->ready) {
        heuristic_free(&self->h);
        self->ready = 0;
    }
    if (rows * cols > PY_MAX_CELLS) {
        PyErr_Format(BadInput, "boards of more than %d cells are not taken as arrays",
                     PY_MAX_CELLS);
        return -1;
    }
    struct board goal = {0};
    if (goal_make(goal_text, rows, cols, &goal))
        return -1;
    slide_error err = {{0}};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = heuristic_init(&self->h, name, &goal, &err);
    Py_END_ALLOW_THREADS
    board_free(&goal);
    return init_done(&self->ready, rc, &err);
}

static void Heuristic_dealloc(HeuristicObject *self)
{
    if (self->ready)
        heuristic_free(&self->h);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* h of a board by fn(ctx, cells); a value >= none (when none > 0) means the
 * board has no value. */
typedef int (*h_fn)(const void *ctx, const int *cells);
struct h_call {
    h_fn fn;
    const void *ctx;
    int none;
};

static int h_row(const void *ctx, const int *cells, int rows, int cols, void *out, npy_intp i)
{
    (void)rows, (void)cols;
    const struct h_call *c = ctx;
    int h = c->fn(c->ctx, cells);
    if (c->none > 0 && h >= c->none)
        return SLIDE_EUNSOLVABLE;
    ((int32_t *)out)[i] = h;
    return SLIDE_OK;
}

static int h_explain(const void *ctx, const int *cells, int rows, int cols, slide_error *err)
{
    (void)ctx, (void)cells, (void)rows, (void)cols;
    return slide_fail(err, SLIDE_EUNSOLVABLE, "the pattern databases hold no value for this "
                      "board (it cannot reach the goal)");
}

static PyObject *h_many(PyObject *obj, int rows, int cols, int threads, h_fn fn,
                        const void *ctx, int none)
{
    struct h_call c = {fn, ctx, none};
    return map_rows(obj, rows, cols, threads, NPY_INT32, h_row, h_explain, &c);
}

static int heuristic_fn_py(const void *ctx, const int *cells)
{
    return heuristic_eval((const struct heuristic *)ctx, cells);
}

static PyObject *Heuristic_h(HeuristicObject *self, PyObject *args)
{
    PyObject *obj;
    int threads;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &threads))
        return NULL;
    if (!self->ready)
        return PyErr_Format(Error, "the heuristic is not initialised");
    return h_many(obj, self->h.rows, self->h.cols, threads, heuristic_fn_py, &self->h, 0);
}

static PyObject *Heuristic_get_name(HeuristicObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(self->ready ? self->h.def->name : "");
}

static PyObject *Heuristic_get_admissible(HeuristicObject *self, void *c)
{
    (void)c;
    if (!self->ready)
        Py_RETURN_NONE;
    enum heuristic_claim a = self->h.def->admissible;
    if (a == HEURISTIC_UNKNOWN)
        Py_RETURN_NONE;
    return PyBool_FromLong(a == HEURISTIC_YES);
}

static PyMethodDef Heuristic_methods[] = {
    {"h", (PyCFunction)Heuristic_h, METH_VARARGS, "h(boards, threads): int32 array"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Heuristic_getset[] = {
    {"name", (getter)Heuristic_get_name, NULL, "the heuristic's name", NULL},
    {"admissible", (getter)Heuristic_get_admissible, NULL,
     "True/False as its reference proves, None when not claimed", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject HeuristicType = SLIDE_TYPE("slide._slide.Heuristic", HeuristicObject, Heuristic_init, Heuristic_dealloc, Heuristic_methods, Heuristic_getset, "Heuristic(name, rows, cols, goal_text_or_None)");

/* ---- pattern databases --------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    struct pdb_set set;
    int ready;
} PdbObject;

/* Pdb_init's loading, stoppable between blocks. */
struct pdb_job {
    struct pdb_set *set;
    const char *files;
    int reflect, threads;
    slide_error err;
    int rc;
    volatile sig_atomic_t cancel;
};

static void pdb_work(void *arg)
{
    struct pdb_job *J = arg;
    J->rc = pdb_set_load_stoppable(J->set, J->files, J->reflect, J->threads, &J->cancel,
                                   &J->err);
}

static int Pdb_init(PdbObject *self, PyObject *args, PyObject *kw)
{
    (void)kw;
    const char *files;
    int reflect, threads;
    if (!PyArg_ParseTuple(args, "sii", &files, &reflect, &threads))
        return -1;
    if (self->ready) {
        pdb_set_free(&self->set);
        self->ready = 0;
    }
    struct pdb_job J = {&self->set, files, reflect, threads, {{0}}, 0, 0};
    if (run_interruptible(pdb_work, &J, &J.cancel)) {
        if (!J.rc)
            pdb_set_free(&self->set);
        return -1;
    }
    return init_done(&self->ready, J.rc, &J.err);
}

static void Pdb_dealloc(PdbObject *self)
{
    if (self->ready)
        pdb_set_free(&self->set);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int pdb_fn_py(const void *ctx, const int *cells)
{
    return pdb_set_h((const struct pdb_set *)ctx, cells);
}

static PyObject *Pdb_h(PdbObject *self, PyObject *args)
{
    PyObject *obj;
    int threads;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &threads))
        return NULL;
    if (!self->ready)
        return PyErr_Format(Error, "the pattern databases are not loaded");
    return h_many(obj, self->set.rows, self->set.cols, threads, pdb_fn_py, &self->set,
                  PDB_NONE);
}

static PyObject *Pdb_goal(PdbObject *self, PyObject *noargs)
{
    (void)noargs;
    struct board g = {0};
    slide_error err = {{0}};
    if (!self->ready)
        return PyErr_Format(Error, "the pattern databases are not loaded");
    int rc = pdb_set_goal(&self->set, &g, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    PyArrayObject *out = new_boards(1, board_cells(&g));
    if (out)
        put_row(out, 0, g.cells, board_cells(&g));
    board_free(&g);
    return (PyObject *)out;
}

static PyObject *Pdb_info(PdbObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!self->ready)
        return PyErr_Format(Error, "the pattern databases are not loaded");
    return Py_BuildValue("{s:i,s:i,s:i,s:O,s:O}", "rows", self->set.rows, "cols",
                         self->set.cols, "tables", self->set.count, "admissible",
                         pdb_set_admissible(&self->set) ? Py_True : Py_False, "reflect",
                         self->set.reflect ? Py_True : Py_False);
}

static PyMethodDef Pdb_methods[] = {
    {"h", (PyCFunction)Pdb_h, METH_VARARGS, "h(boards, threads): int32 array"},
    {"goal", (PyCFunction)Pdb_goal, METH_NOARGS, "the goal, a 1 x n array"},
    {"info", (PyCFunction)Pdb_info, METH_NOARGS, "rows, cols, tables, admissible, reflect"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject PdbType = SLIDE_TYPE("slide._slide.PatternDatabase", PdbObject, Pdb_init, Pdb_dealloc, Pdb_methods, NULL, "PatternDatabase(files, reflect, threads)");

/* ---- distance databases -------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    struct db db;
    int ready;
    int mapped;  /* the payload is the file mapped (db_map), not a copy */
} DbObject;

/* Db_init's loading (db_map), stoppable between blocks. */
struct db_job {
    DbObject *self;
    const char *path;
    int threads, check;
    slide_error err;
    int rc;
    volatile sig_atomic_t cancel;
};

static void db_work(void *arg)
{
    struct db_job *J = arg;
    J->rc = db_map(J->path, J->threads, J->check, &J->cancel, &J->self->db, &J->self->mapped,
                   &J->err);
    /* the module counts single-tile moves only (slide._metric) */
    if (!J->rc && (J->rc = db_check_metric(&J->self->db, METRIC_STM, &J->err)) != SLIDE_OK)
        db_free(&J->self->db);
}

static int Db_init(DbObject *self, PyObject *args, PyObject *kw)
{
    (void)kw;
    const char *path;
    int threads, check;
    if (!PyArg_ParseTuple(args, "sii", &path, &threads, &check))
        return -1;
    if (self->ready) { /* an array over the payload may exist: never unmap it */
        PyErr_SetString(Error, "a Database is initialised once");
        return -1;
    }
    struct db_job J = {self, path, threads, check, {{0}}, 0, 0};
    if (run_interruptible(db_work, &J, &J.cancel)) {
        if (!J.rc)
            db_free(&self->db);
        return -1;
    }
    return init_done(&self->ready, J.rc, &J.err);
}

static void Db_dealloc(DbObject *self)
{
    if (self->ready)
        db_free(&self->db);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The distance of a board by db_distance (a walk to the goal when the
 * database stores d mod 4 or d mod 3). */
static int db_row(const void *ctx, const int *cells, int rows, int cols, void *out,
                  npy_intp i)
{
    struct board b = {rows, cols, (int *)cells};
    int d;
    int rc = db_distance((const struct db *)ctx, &b, &d, NULL);
    if (!rc)
        ((uint8_t *)out)[i] = (uint8_t)d;
    return rc;
}

/* The index of a board in the database's space (the first step of
 * db_distance), for a byte-per-board database. */
static int db_rank_row(const void *ctx, const int *cells, int rows, int cols, void *out,
                       npy_intp i)
{
    return rank_row(&((const struct db *)ctx)->space, cells, rows, cols, out, i);
}

static int db_explain(const void *ctx, const int *cells, int rows, int cols, slide_error *err)
{
    struct board b = {rows, cols, (int *)cells};
    int d;
    return db_distance((const struct db *)ctx, &b, &d, err);
}

/* The bytes of a byte-per-board database at ix[0..N-1] into o, fetched
 * ahead so that the cache misses of a large table overlap. */
struct lookup_job {
    const struct db *db;
    const uint64_t *ix;
    npy_intp N;
    uint8_t *o;
    int threads;
    int64_t bad;
    volatile sig_atomic_t cancel;
};

static void lookup_work(void *arg)
{
    struct lookup_job *J = arg;
    const uint8_t *payload = J->db->payload;
    enum { AHEAD = 16 };
#pragma omp parallel for schedule(static, 16384) num_threads(threads_of(J->threads))
    for (npy_intp i = 0; i < J->N; i++) {
        if (J->cancel)
            continue;
        if (i + AHEAD < J->N)
            __builtin_prefetch(&payload[J->ix[i + AHEAD]]);
        uint8_t x = payload[J->ix[i]];
        if ((int)x > J->db->radius)
            note_bad(&J->bad, i);
        J->o[i] = x;
    }
}

/* The distances of a byte-per-board database: every board's index first
 * (in parallel), then the payload's bytes at those indexes, fetched ahead
 * so that the cache misses of a large table overlap. */
static PyObject *db_distance_bytes(const struct db *db, PyObject *obj, int threads)
{
    PyArrayObject *idx = (PyArrayObject *)map_rows(obj, db->rows, db->cols, threads,
                                                   NPY_UINT64, db_rank_row, db_explain, db);
    if (!idx)
        return NULL;
    npy_intp N = PyArray_DIM(idx, 0), dims[1] = {N};
    PyArrayObject *out = (PyArrayObject *)PyArray_ZEROS(1, dims, NPY_UINT8, 0);
    if (!out) {
        Py_DECREF(idx);
        return NULL;
    }
    struct lookup_job J = {db, (const uint64_t *)PyArray_DATA(idx), N,
                           (uint8_t *)PyArray_DATA(out), threads, INT64_MAX, 0};
    if (run_long(N, lookup_work, &J, &J.cancel)) {
        Py_DECREF(out);
        Py_DECREF(idx);
        return NULL;
    }
    int64_t bad = J.bad;
    if (bad != INT64_MAX) { /* no board (full space) or corrupt: db_distance says which */
        struct boards v;
        int cells[PY_MAX_CELLS];
        slide_error err = {{0}};
        if (!boards_take(obj, db->rows * db->cols, &v)) {
            boards_row(&v, (npy_intp)bad, cells);
            int rc = db_explain(db, cells, db->rows, db->cols, &err);
            raise_row(&v, bad, db->rows, db->cols, rc ? rc : SLIDE_EFORMAT,
                      rc ? err.msg : "the database is inconsistent");
            boards_release(&v);
        }
        Py_DECREF(out);
        out = NULL;
    }
    Py_DECREF(idx);
    return (PyObject *)out;
}

static PyObject *Db_distance(DbObject *self, PyObject *args)
{
    PyObject *obj;
    int threads;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &threads))
        return NULL;
    if (!self->ready)
        return PyErr_Format(Error, "the database is not loaded");
    if (self->db.encoding == DB_ENC_BYTE)
        return db_distance_bytes(&self->db, obj, threads);
    return map_rows(obj, self->db.rows, self->db.cols, threads, NPY_UINT8, db_row, db_explain,
                    &self->db);
}

/* An optimal path of one board (text of its cells): "UDLR..." */
static PyObject *Db_path(DbObject *self, PyObject *args)
{
    const char *text;
    if (!PyArg_ParseTuple(args, "s", &text))
        return NULL;
    if (!self->ready)
        return PyErr_Format(Error, "the database is not loaded");
    struct board b = {0};
    slide_error err = {{0}};
    int rc = board_parse(text, self->db.rows, self->db.cols, &b, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    unsigned char *moves = malloc((size_t)self->db.radius + 1);
    char *letters = malloc((size_t)self->db.radius + 2);
    int len = 0;
    if (!moves || !letters)
        rc = slide_fail(&err, SLIDE_ENOMEM, "out of memory for a path");
    if (!rc)
        rc = db_path(&self->db, &b, moves, &len, &err);
    PyObject *res = NULL;
    if (!rc) {
        for (int k = 0; k < len; k++)
            letters[k] = move_letter((enum move)moves[k]);
        res = PyUnicode_FromStringAndSize(letters, len);
    } else {
        raise_slide(rc, err.msg);
    }
    free(moves);
    free(letters);
    board_free(&b);
    return res;
}

static PyObject *Db_info(DbObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!self->ready)
        return PyErr_Format(Error, "the database is not loaded");
    const struct db *db = &self->db;
    npy_intp hd[1] = {db->radius + 1};
    PyArrayObject *hist = (PyArrayObject *)PyArray_EMPTY(1, hd, NPY_UINT64, 0);
    if (!hist)
        return NULL;
    memcpy(PyArray_DATA(hist), db->hist, (size_t)(db->radius + 1) * sizeof(uint64_t));
    PyArrayObject *goal = new_boards(1, board_cells(&db->goal));
    if (!goal) {
        Py_DECREF(hist);
        return NULL;
    }
    put_row(goal, 0, db->goal.cells, board_cells(&db->goal));
    return Py_BuildValue("{s:i,s:i,s:s,s:i,s:i,s:K,s:K,s:N,s:N,s:s,s:O,s:i}", "rows",
                         db->rows, "cols", db->cols, "space", space_kind_name(db->kind),
                         "encoding", db->encoding, "radius", db->radius, "indexes",
                         (unsigned long long)db->indexes, "reachable",
                         (unsigned long long)db->reachable, "histogram", hist, "goal", goal,
                         "version", db->tool_version, "mapped",
                         self->mapped ? Py_True : Py_False, "level", db->level);
}

/* The payload of a byte-per-board database as a read-only array (no copy). */
static PyObject *Db_array(DbObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!self->ready)
        return PyErr_Format(Error, "the database is not loaded");
    if (self->db.encoding != DB_ENC_BYTE)
        return PyErr_Format(BadInput, "the database stores %s per board, not the distance: "
                            "only a byte-per-board database (slide bfs RxC --save FILE "
                            "--encoding 8) is an array of distances; slide.bfs() gives one "
                            "for any size", db_encoding_name(self->db.encoding));
    npy_intp dims[1] = {(npy_intp)self->db.indexes};
    PyObject *a = PyArray_SimpleNewFromData(1, dims, NPY_UINT8, self->db.payload);
    if (!a)
        return NULL;
    PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    Py_INCREF(self);
    if (PyArray_SetBaseObject((PyArrayObject *)a, (PyObject *)self) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static PyMethodDef Db_methods[] = {
    {"distance", (PyCFunction)Db_distance, METH_VARARGS, "distance(boards, threads)"},
    {"path", (PyCFunction)Db_path, METH_VARARGS, "path(board_text): moves of the blank"},
    {"info", (PyCFunction)Db_info, METH_NOARGS, "the header as a dict"},
    {"array", (PyCFunction)Db_array, METH_NOARGS, "the distances by rank (encoding 8)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject DbType = SLIDE_TYPE("slide._slide.Database", DbObject, Db_init, Db_dealloc, Db_methods, NULL, "Database(path, threads, check)");

/* ---- IDA* ---------------------------------------------------------------- */

/* Open the IDA* heuristic: the pattern databases pdb (a PdbObject) or name. */
static int ida_open(struct ida_heuristic *h, const char *name, PyObject *pdb,
                    const struct board *goal, slide_error *err)
{
    if (pdb && pdb != Py_None)
        return ida_heuristic_open_pdb(h, &((PdbObject *)pdb)->set, "", goal, err);
    return ida_heuristic_open(h, name, goal, err);
}

static int pdb_arg_ok(PyObject *pdb)
{
    if (pdb == Py_None || PyObject_TypeCheck(pdb, &PdbType)) {
        if (pdb != Py_None && !((PdbObject *)pdb)->ready) {
            PyErr_SetString(Error, "the pattern databases are not loaded");
            return 0;
        }
        return 1;
    }
    PyErr_SetString(BadInput, "heuristic must be a name or a slide.PatternDatabase");
    return 0;
}

/* One IDA* search, as run_interruptible's work. */
struct solve_job {
    const struct board *start, *goal;
    const char *name;
    PyObject *pdb;
    struct ida_options o;
    struct ida_result r;
    slide_error err;
    int rc;
};

static void solve_work(void *arg)
{
    struct solve_job *j = arg;
    struct ida_heuristic h = {0};
    j->rc = ida_open(&h, j->name, j->pdb, j->goal, &j->err);
    if (!j->rc)
        j->rc = ida_solve(j->start, j->goal, &h, &j->o, &j->r, &j->err);
    ida_heuristic_close(&h);
}

static PyObject *py_solve(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text, *goal_text, *name;
    int rows, cols;
    PyObject *pdb;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "siizsOK", &text, &rows, &cols, &goal_text, &name, &pdb,
                          &max_nodes))
        return NULL;
    if (!pdb_arg_ok(pdb))
        return NULL;
    struct board start = {0}, goal = {0};
    slide_error err = {{0}};
    int rc = board_parse(text, rows, cols, &start, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    if (goal_make(goal_text, start.rows, start.cols, &goal)) {
        board_free(&start);
        return NULL;
    }
    volatile sig_atomic_t cancel = 0;
    struct solve_job j = {&start, &goal, name, pdb, {.max_nodes = max_nodes, .cancel = &cancel},
                          {0}, {{0}}, 0};
    int interrupted = run_interruptible(solve_work, &j, &cancel);
    board_free(&start);
    board_free(&goal);
    struct ida_result *r = &j.r;
    if (interrupted || j.rc) {
        ida_result_free(r);
        return interrupted ? NULL : raise_slide(j.rc, j.err.msg);
    }
    PyObject *moves = PyUnicode_New(r->length > 0 ? r->length : 0, 127);
    if (moves)
        for (int k = 0; k < r->length; k++)
            PyUnicode_WriteChar(moves, k, (Py_UCS4)move_letter((enum move)r->moves[k]));
    PyObject *res = moves ? Py_BuildValue("{s:N,s:i,s:K,s:K,s:i,s:i,s:d}", "moves", moves,
                                          "length", r->length, "expanded",
                                          (unsigned long long)r->expanded, "generated",
                                          (unsigned long long)r->generated, "iterations",
                                          r->iterations, "h_start", r->h_start, "seconds",
                                          r->seconds)
                          : NULL;
    ida_result_free(r);
    return res;
}

/* IDA* on many boards, one board per thread at a time (run_interruptible's
 * work): lengths into L, nodes expanded into E, the first failure kept. */
struct many_job {
    const struct boards *v;
    int rows, cols, threads;
    const char *name;
    PyObject *pdb;
    const struct board *goal;
    struct ida_options o;
    int32_t *L;
    uint64_t *E;
    int64_t bad;
    int first_rc;
    slide_error first_err;
};

static void many_work(void *arg)
{
    struct many_job *J = arg;
    int n = J->rows * J->cols;
#pragma omp parallel num_threads(threads_of(J->threads))
    {
        struct ida_heuristic h = {0};
        slide_error err = {{0}};
        int orc = ida_open(&h, J->name, J->pdb, J->goal, &err);
#pragma omp for schedule(dynamic, 1)
        for (npy_intp i = 0; i < J->v->N; i++) {
            int cells[PY_MAX_CELLS];
            struct board b = {J->rows, J->cols, cells};
            struct ida_result r = {0};
            slide_error e = {{0}};
            int rc = orc;
            boards_row(J->v, i, cells);
            if (!rc && !cells_ok(cells, n))
                rc = SLIDE_EINVAL;
            if (!rc)
                rc = ida_solve(&b, J->goal, &h, &J->o, &r, &e);
            if (rc) {
#pragma omp critical(slide_py_solve)
                if (i < J->bad) {
                    J->bad = i;
                    J->first_rc = rc;
                    J->first_err = orc ? err : e;
                }
            } else {
                J->L[i] = r.length;
                J->E[i] = r.expanded;
            }
            ida_result_free(&r);
        }
        ida_heuristic_close(&h);
    }
}

static PyObject *py_solve_many(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj, *pdb;
    const char *goal_text, *name;
    int rows, cols, threads;
    unsigned long long max_nodes;
    if (!PyArg_ParseTuple(args, "OiizsOKi", &obj, &rows, &cols, &goal_text, &name, &pdb,
                          &max_nodes, &threads))
        return NULL;
    if (!pdb_arg_ok(pdb))
        return NULL;
    if (rows * cols > PY_MAX_CELLS)
        return PyErr_Format(BadInput, "boards of more than %d cells are not taken as arrays",
                            PY_MAX_CELLS);
    struct board goal = {0};
    struct boards v;
    if (goal_make(goal_text, rows, cols, &goal))
        return NULL;
    if (boards_take(obj, rows * cols, &v)) {
        board_free(&goal);
        return NULL;
    }
    npy_intp dims[1] = {v.N};
    PyArrayObject *len = (PyArrayObject *)PyArray_ZEROS(1, dims, NPY_INT32, 0);
    PyArrayObject *nodes = (PyArrayObject *)PyArray_ZEROS(1, dims, NPY_UINT64, 0);
    PyObject *res = NULL;
    if (len && nodes) {
        volatile sig_atomic_t cancel = 0;
        struct many_job J = {&v, rows, cols, threads, name, pdb, &goal,
                             {.max_nodes = max_nodes, .cancel = &cancel},
                             (int32_t *)PyArray_DATA(len), (uint64_t *)PyArray_DATA(nodes),
                             INT64_MAX, SLIDE_OK, {{0}}};
        if (run_interruptible(many_work, &J, &cancel) == 0) {
            if (J.bad != INT64_MAX)
                raise_row(&v, J.bad, rows, cols, J.first_rc, J.first_err.msg);
            else
                res = Py_BuildValue("OO", len, nodes);
        }
    }
    Py_XDECREF(len);
    Py_XDECREF(nodes);
    board_free(&goal);
    boards_release(&v);
    return res;
}

/* ---- samples ------------------------------------------------------------- */

/* py_sample's loop: count boards from one generator, in order (the same
 * boards as slide scramble --seed), into out. */
struct sample_job {
    const struct board *goal;
    struct board *b;
    PyArrayObject *out;
    Py_ssize_t count;
    unsigned long long seed;
    long long walk;
    slide_error err;
    int rc;
    volatile sig_atomic_t cancel;
};

static void sample_work(void *arg)
{
    struct sample_job *J = arg;
    struct rng r;
    int n = board_cells(J->goal);
    rng_seed(&r, J->seed);
    for (Py_ssize_t i = 0; i < J->count && !J->rc && !J->cancel; i++) {
        J->rc = J->walk >= 0 ? scramble_walk(&r, J->goal, (uint64_t)J->walk, J->b, &J->err)
                             : scramble_uniform(&r, J->goal, J->b, &J->err);
        if (!J->rc)
            put_row(J->out, i, J->b->cells, n);
    }
}

static PyObject *py_sample(PyObject *self, PyObject *args)
{
    (void)self;
    const char *goal_text;
    int rows, cols;
    Py_ssize_t count;
    unsigned long long seed;
    long long walk;
    if (!PyArg_ParseTuple(args, "iiznKL", &rows, &cols, &goal_text, &count, &seed, &walk))
        return NULL;
    if (count < 0)
        return PyErr_Format(BadInput, "n must be 0 or more, not %zd", count);
    struct board goal = {0}, b = {0};
    slide_error err = {{0}};
    if (goal_make(goal_text, rows, cols, &goal))
        return NULL;
    int n = rows * cols, rc = board_alloc(&b, rows, cols, &err);
    if (rc) {
        board_free(&goal);
        return raise_slide(rc, err.msg);
    }
    PyArrayObject *out = new_boards(count, n);
    if (!out) {
        board_free(&goal);
        board_free(&b);
        return NULL;
    }
    struct sample_job J = {&goal, &b, out, count, seed, walk, {{0}}, 0, 0};
    int big = count >= PY_STOPPABLE_ROWS || walk >= 4096; /* a walk is not stopped inside */
    int stopped = run_long(big ? PY_STOPPABLE_ROWS : 0, sample_work, &J, &J.cancel);
    board_free(&goal);
    board_free(&b);
    rc = J.rc;
    err = J.err;
    if (stopped) {
        Py_DECREF(out);
        return NULL;
    }
    if (rc) {
        Py_DECREF(out);
        return raise_slide(rc, err.msg);
    }
    return (PyObject *)out;
}

/* ---- small helpers ------------------------------------------------------- */

static PyObject *py_rectangle(PyObject *self, PyObject *args)
{
    (void)self;
    int n, rows, cols;
    if (!PyArg_ParseTuple(args, "i", &n))
        return NULL;
    if (!board_rectangle(n, &rows, &cols))
        Py_RETURN_NONE;
    return Py_BuildValue("ii", rows, cols);
}

static PyObject *py_parse_dims(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text;
    int rows, cols;
    slide_error err = {{0}};
    if (!PyArg_ParseTuple(args, "s", &text))
        return NULL;
    int rc = board_parse_dims(text, &rows, &cols, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    return Py_BuildValue("ii", rows, cols);
}

/* Parse board text (rows, cols: 0 to infer; with both given also a goal
 * word such as "blank-first") into a 1-d array of cells. */
static PyObject *py_parse_board(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text;
    int rows, cols;
    if (!PyArg_ParseTuple(args, "sii", &text, &rows, &cols))
        return NULL;
    struct board b = {0};
    slide_error err = {{0}};
    int rc = rows > 0 && cols > 0 ? board_parse_goal(text, rows, cols, &b, &err)
                                  : board_parse(text, rows, cols, &b, &err);
    if (rc)
        return raise_slide(rc, err.msg);
    PyArrayObject *out = new_boards(1, board_cells(&b));
    if (out)
        put_row(out, 0, b.cells, board_cells(&b));
    PyObject *res = out ? Py_BuildValue("iiN", b.rows, b.cols, out) : NULL;
    board_free(&b);
    return res;
}

static PyObject *py_heuristic_names(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    char buf[1024];
    heuristic_names(buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyMethodDef module_methods[] = {
    {"rank", py_rank, METH_VARARGS, "rank(boards, rows, cols, goal, kind, threads)"},
    {"unrank", py_unrank, METH_VARARGS, "unrank(ranks, rows, cols, goal, kind, threads)"},
    {"space_size", py_space_size, METH_VARARGS, "space_size(rows, cols, goal, kind)"},
    {"solvable", py_solvable, METH_VARARGS, "solvable(boards, rows, cols, goal, threads)"},
    {"bfs", py_bfs, METH_VARARGS, "bfs(rows, cols, goal, kind, threads, max_memory)"},
    {"solve", py_solve, METH_VARARGS, "solve(text, rows, cols, goal, name, pdb, max_nodes)"},
    {"solve_many", py_solve_many, METH_VARARGS,
     "solve_many(boards, rows, cols, goal, name, pdb, max_nodes, threads)"},
    {"sample", py_sample, METH_VARARGS, "sample(rows, cols, goal, n, seed, walk)"},
    {"rectangle", py_rectangle, METH_VARARGS, "rectangle(cells): (rows, cols) or None"},
    {"parse_dims", py_parse_dims, METH_VARARGS, "parse_dims('RxC'): (rows, cols)"},
    {"parse_board", py_parse_board, METH_VARARGS, "parse_board(text, rows, cols)"},
    {"heuristic_names", py_heuristic_names, METH_NOARGS, "the heuristics' names"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "slide._slide",
                                        "slide's C library over numpy arrays", -1,
                                        module_methods, NULL, NULL, NULL, NULL};

/* A new exception class NAME with the given bases, added to module m. */
static PyObject *add_exception(PyObject *m, const char *name, PyObject *bases,
                               const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "slide.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    Py_XDECREF(bases);
    if (!e || PyModule_AddObject(m, name, e) < 0)
        return NULL;
    Py_INCREF(e);
    return e;
}

PyMODINIT_FUNC PyInit__slide(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    Error = add_exception(m, "Error", Py_BuildValue("(O)", PyExc_Exception),
                          "Base class of every error slide raises.");
    if (!Error)
        return NULL;
    BadInput = add_exception(m, "BadInput", Py_BuildValue("(OO)", Error, PyExc_ValueError),
                             "A bad board, size, goal, option, dtype or shape.");
    Unsolvable = BadInput ? add_exception(m, "Unsolvable", Py_BuildValue("(O)", BadInput),
                                          "A board that cannot reach the goal.")
                          : NULL;
    FileError = add_exception(m, "FileError", Py_BuildValue("(OO)", Error, PyExc_OSError),
                              "A file that cannot be read, or is corrupt or of "
                              "another kind.");
    OutOfMemory = add_exception(m, "OutOfMemory",
                                Py_BuildValue("(OO)", Error, PyExc_MemoryError),
                                "More memory than is available.");
    Interrupted = add_exception(m, "Interrupted",
                                Py_BuildValue("(OO)", Error, PyExc_RuntimeError),
                                "A search stopped by its node limit.");
    if (!Unsolvable || !FileError || !OutOfMemory || !Interrupted)
        return NULL;
    PyTypeObject *types[] = {&HeuristicType, &PdbType, &DbType};
    const char *names[] = {"Heuristic", "PatternDatabase", "Database"};
    for (int i = 0; i < 3; i++) {
        if (PyType_Ready(types[i]) < 0)
            return NULL;
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0)
            return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_CELLS", PY_MAX_CELLS);
    PyModule_AddIntConstant(m, "SPACE_MAX_CELLS", SPACE_MAX_CELLS);
    return m;
}
