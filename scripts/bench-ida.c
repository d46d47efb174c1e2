/*
 * bench-ida.c - IDA* on EVERY reachable board of a small puzzle against the
 * plain hash-set BFS of tests/testutil.h (built by scripts/bench-ida.sh).
 *
 * usage: bench-ida RxC [HEURISTIC]      (R*C <= 16 cells and the BFS in memory)
 * Output: one line per distance, "distance boards mean_expanded max_expanded",
 * then a summary: boards, mismatches, total expanded and generated, seconds.
 * Exit status 1 on any mismatch or a path that does not replay.
 */
#include "../tests/testutil.h"

#include <time.h>

#include "slide/ida.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct per_distance {
    uint64_t boards, expanded, max_expanded;
};

int main(int argc, char **argv)
{
    int rows, cols;
    slide_error err;
    if (argc < 2 || board_parse_dims(argv[1], &rows, &cols, &err) || rows * cols > 16) {
        fprintf(stderr, "usage: bench-ida RxC [heuristic] (at most 16 cells)\n");
        return 2;
    }
    const char *name = argc > 2 ? argv[2] : "lc";
    int n = rows * cols, cells[16];
    struct board goal, b;
    struct ida_heuristic h;
    struct naive_set set;
    static uint64_t hist[256];
    static struct per_distance per[256];
    board_goal(&goal, rows, cols, &err);
    board_alloc(&b, rows, cols, &err);
    if (ida_heuristic_open(&h, name, &goal, &err)) {
        fprintf(stderr, "bench-ida: %s\n", err.msg);
        return 2;
    }
    double t0 = now();
    int radius = naive_bfs(rows, cols, goal.cells, hist, 256, &set);
    fprintf(stderr, "bench-ida: BFS of %dx%d: %zu boards, radius %d, %.2f s\n", rows,
            cols, set.len, radius, now() - t0);
    uint64_t boards = 0, bad = 0, expanded = 0, generated = 0;
    t0 = now();
    for (size_t slot = 0; slot < set.cap; slot++) {
        if (!set.keys[slot])
            continue;
        for (int i = 0; i < n; i++)
            cells[i] = naive_cell(set.keys[slot], i);
        memcpy(b.cells, cells, (size_t)n * sizeof *cells);
        struct ida_result r;
        int d = set.dist[slot];
        if (ida_solve(&b, &goal, &h, NULL, &r, &err) ||
            ida_replay(&b, &goal, r.moves, r.length, NULL, &err) || r.length != d) {
            if (bad++ < 10)
                fprintf(stderr, "bench-ida: board %zu: length %d, BFS %d %s\n", slot,
                        r.length, d, err.msg);
        }
        boards++;
        expanded += r.expanded;
        generated += r.generated;
        per[d].boards++;
        per[d].expanded += r.expanded;
        if (r.expanded > per[d].max_expanded)
            per[d].max_expanded = r.expanded;
        ida_result_free(&r);
    }
    double secs = now() - t0;
    printf("distance boards mean_expanded max_expanded\n");
    for (int d = 0; d <= radius; d++)
        printf("%d %llu %.1f %llu\n", d, (unsigned long long)per[d].boards,
               per[d].boards ? (double)per[d].expanded / (double)per[d].boards : 0.0,
               (unsigned long long)per[d].max_expanded);
    printf("%dx%d heuristic %s: %llu boards (BFS %zu), %llu mismatches; expanded %llu, "
           "generated %llu; %.2f s, %.0f boards/s, %.1f M generated/s\n",
           rows, cols, name, (unsigned long long)boards, set.len,
           (unsigned long long)bad, (unsigned long long)expanded,
           (unsigned long long)generated, secs, (double)boards / secs,
           (double)generated / secs / 1e6);
    ida_heuristic_close(&h);
    naive_free(&set);
    board_free(&b);
    board_free(&goal);
    return bad || boards != set.len ? 1 : 0;
}
