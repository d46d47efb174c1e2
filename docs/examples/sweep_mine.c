/*
 * sweep_mine.c - a program linked against libslide that checks one's own
 * heuristic (my_heuristic.c) beside the built-in Manhattan distance on
 * every board of a small puzzle (docs/libslide.md):
 *   cc -o sweep_mine sweep_mine.c my_heuristic.c $(pkg-config --cflags --libs slide)
 *   ./sweep_mine 3x3
 * prints one line per heuristic,
 *   NAME boards B admissible yes|no violations V mean_h M
 * and exits 0, 1 when a claim of a heuristic is refuted, 2 on bad input.
 */
#include <inttypes.h>
#include <stdio.h>

#include <slide.h>

/* my_heuristic.c's spec */
extern const struct slide_heuristic_spec slide_heuristic_plugin;

int main(int argc, char **argv)
{
    struct board goal = {0};
    struct heuristic hs[2];
    struct sweep_result r = {0};
    slide_error err;
    int rows, cols;
    if (argc != 2 || board_parse_dims(argv[1], &rows, &cols, &err) ||
        board_goal(&goal, rows, cols, &err)) {
        fprintf(stderr, "usage: sweep_mine RxC (R*C <= 20)\n");
        return 2;
    }
    if (heuristic_init_spec(&hs[0], &slide_heuristic_plugin, NULL, &goal, &err)) {
        fprintf(stderr, "sweep_mine: %s\n", err.msg);
        return 2;
    }
    if (heuristic_init(&hs[1], "manhattan", &goal, &err)) {
        fprintf(stderr, "sweep_mine: %s\n", err.msg);
        heuristic_free(&hs[0]);
        return 2;
    }
    struct sweep_options o = {0}; /* all threads, memory limit from the machine */
    int rc = sweep_run(&goal, hs, 2, &o, &r, &err);
    if (rc)
        fprintf(stderr, "sweep_mine: %s\n", err.msg);
    for (int i = 0; !rc && i < r.count; i++) {
        const struct sweep_stats *s = &r.stats[i];
        printf("%s boards %" PRIu64 " admissible %s violations %" PRIu64 " mean_h %.6f\n",
               s->def->name, s->boards, s->admissible ? "yes" : "no", s->violations,
               s->mean_h);
        if (s->def->admissible == HEURISTIC_YES && !s->admissible)
            rc = 1;
    }
    sweep_result_free(&r);
    heuristic_free(&hs[0]);
    heuristic_free(&hs[1]);
    board_free(&goal);
    return rc == 1 ? 1 : rc ? 2 : 0;
}
