/*
 * my_heuristic.c - one's own heuristic for slide, as a plugin and as part
 * of a program (docs/libslide.md).  It is the Manhattan distance times
 * MY_SCALE (default 1): admissible and consistent at 1; built with
 * -DMY_SCALE=2 it is the classic inadmissible example, and claims to be
 * admissible so that `slide heuristic` shows a refuted claim (exit 1).
 *
 * As a plugin (needs only slide/heuristic_api.h):
 *   cc -shared -fPIC $(pkg-config --cflags slide) -o my_heuristic.so my_heuristic.c
 *   slide heuristic 3x3 --h manhattan,plugin:./my_heuristic.so
 * In a program linked against libslide: see sweep_mine.c beside this file.
 */
#include <stdlib.h>

#include <slide/heuristic_api.h>

#ifndef MY_SCALE
#define MY_SCALE 1
#endif

/* What init computes once from the goal: the goal cell of every tile. */
struct my_goal {
    int cols;
    int cell_of[]; /* tile -> its goal cell */
};

static int my_init(const int *goal, int rows, int cols, void **user)
{
    int n = rows * cols;
    struct my_goal *g = malloc(sizeof *g + (size_t)n * sizeof g->cell_of[0]);
    if (!g)
        return 1; /* refuse: slide reports it */
    g->cols = cols;
    for (int k = 0; k < n; k++)
        g->cell_of[goal[k]] = k;
    *user = g;
    return 0;
}

static void my_fini(void *user)
{
    free(user);
}

/* Called from many threads at once: reads user only. */
static int my_h(const int *cells, int rows, int cols, void *user)
{
    const struct my_goal *g = user;
    int sum = 0;
    for (int k = 0; k < rows * cols; k++) {
        if (cells[k] == 0)
            continue; /* the blank does not count */
        int to = g->cell_of[cells[k]];
        sum += abs(k / cols - to / g->cols) + abs(k % cols - to % g->cols);
    }
    return MY_SCALE * sum;
}

/* The one symbol slide looks for in a plugin (SLIDE_HEURISTIC_SYMBOL). */
const struct slide_heuristic_spec slide_heuristic_plugin = {
    .abi = SLIDE_HEURISTIC_ABI,
    .name = MY_SCALE == 1 ? "my-manhattan" : "my-scaled-manhattan",
    .h = my_h,
    .init = my_init,
    .fini = my_fini,
    .admissible = SLIDE_CLAIM_YES,
    .consistent = MY_SCALE == 1 ? SLIDE_CLAIM_YES : SLIDE_CLAIM_NONE,
    .summary = "Manhattan distance (times MY_SCALE), an example plugin",
};
