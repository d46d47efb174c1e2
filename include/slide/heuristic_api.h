/*
 * heuristic_api.h - one's own heuristic, from outside libslide: a callback
 * that slide's sweeps (slide heuristic, sweep.h) and every other user of
 * struct heuristic evaluate like a built-in one.  PUBLIC AND STABLE: this
 * header's types keep their layout for a given SLIDE_HEURISTIC_ABI; a
 * change that breaks a compiled plugin raises the number.
 *
 * Representation: a board is its cell array, cells[k] = the tile on cell k
 * in reading order (k = row * cols + col), 0 the blank, n = rows * cols
 * entries (board.h).  A heuristic is a struct slide_heuristic_spec: a name,
 * the callback h(cells, rows, cols, user) returning a lower bound on the
 * board's number of moves to the goal (an int >= 0, 0 on the goal; the
 * sweep refuses values above SWEEP_MAX_H), an optional init that sees the
 * goal once and makes the user data, and what the author claims
 * (admissible, consistent), which slide heuristic checks: a claim the
 * sweep contradicts makes it exit 1.
 *
 * Two ways to use it:
 *  - linked against libslide: heuristic_init_spec(&h, &spec, user, &goal,
 *    &err) binds the spec to a goal, then heuristic_eval, sweep_run,
 *    heuristic_free as for a built-in heuristic (docs/libslide.md);
 *  - as a plugin: a shared object exporting
 *        const struct slide_heuristic_spec slide_heuristic_plugin = {...};
 *    (the symbol SLIDE_HEURISTIC_SYMBOL, abi = SLIDE_HEURISTIC_ABI), named
 *    to slide as --h plugin:FILE.so (heuristic_init: "plugin:" + a path; a
 *    path without '/' is taken relative to the working directory, never
 *    searched for).  The plugin needs no libslide and no other slide
 *    header than this one.
 *
 * Threads: h is called from many threads at once with the same user data
 * (the sweep evaluates boards in parallel), so it must only read user.
 * init and fini run once, on one thread.
 */
#ifndef SLIDE_HEURISTIC_API_H
#define SLIDE_HEURISTIC_API_H

/* The version of struct slide_heuristic_spec; a plugin sets .abi to it. */
#define SLIDE_HEURISTIC_ABI 1
/* The name of the object a plugin exports. */
#define SLIDE_HEURISTIC_SYMBOL "slide_heuristic_plugin"

/* Claims, as enum heuristic_claim of heuristic.h. */
#define SLIDE_CLAIM_NO 0
#define SLIDE_CLAIM_YES 1
#define SLIDE_CLAIM_NONE 2

/*
 * h of the board cells[0..rows*cols-1] (a valid arrangement of the goal's
 * dimensions); user: what init left (or what was passed in).  Returns the
 * value, >= 0.  Must not write to cells or user; may be called
 * concurrently.
 */
typedef int (*slide_heuristic_fn)(const int *cells, int rows, int cols, void *user);

struct slide_heuristic_spec {
    int abi;                 /* SLIDE_HEURISTIC_ABI */
    const char *name;        /* the name in reports: 1..32 characters of
                                [A-Za-z0-9_.-] */
    slide_heuristic_fn h;    /* required */
    /*
     * Optional (NULL: user is used as given).  Called once with the goal
     * (goal[k] = the tile on cell k, as cells above) before any h; *user
     * holds the user data given to heuristic_init_spec (NULL for a plugin)
     * and may be replaced.  Returns 0, or non-zero to refuse this goal or
     * size: slide then reports "NAME refused the RxC board ..." and fails
     * with SLIDE_EINVAL.
     */
    int (*init)(const int *goal, int rows, int cols, void **user);
    /* Optional: called once with the final user data when the heuristic is
     * freed (also after init refused). */
    void (*fini)(void *user);
    int admissible;          /* SLIDE_CLAIM_YES / _NO / _NONE */
    int consistent;          /* the same, for |h(s) - h(s')| <= 1 per move */
    const char *summary;     /* one line for reports, or NULL */
};

#endif
