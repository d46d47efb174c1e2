/*
 * test_mtm_3x3.c - IDA* in the multi-tile metric (ida.h, metric.h) on every
 * 3x3 board against the brute-force MTM BFS of mtm_naive.h (a hash map from
 * arrangement to distance, written from the rules alone), each path
 * replayed by mtm_checker (the rules and the notation only); bibfs (bibfs.h)
 * on every antipode and one board in 50.  Boards are spread over the
 * OpenMP threads; each thread counts its mismatches and the test asserts
 * none (cmocka's asserts are not for threads).
 */
#include "mtm_naive.h"

#include <omp.h>

#include "slide/bibfs.h"
#include "slide/ida.h"
#include "slide/metric.h"

/* 1 if IDA* (heuristic h) and, when with_bibfs, bibfs give want on b with
 * paths that replay. */
static int solves(const struct board *b, const struct board *goal,
                  struct ida_heuristic *h, int want, int with_bibfs)
{
    struct ida_options o = {0, NULL, NULL, NULL, METRIC_MTM};
    struct ida_result r;
    slide_error err;
    char text[512];
    if (ida_solve(b, goal, h, &o, &r, &err))
        return 0;
    int ok = r.length == want &&
             move_format_codes(r.moves, r.length, METRIC_MTM, text, sizeof text) <
                 sizeof text &&
             mtm_checker(b, text, goal) == want;
    ida_result_free(&r);
    struct bibfs_result q;
    if (ok && with_bibfs) {
        if (bibfs_solve_metric(b, goal, 0, METRIC_MTM, &q, &err))
            return 0;
        ok = q.distance == want && mtm_checker(b, q.path, goal) == want;
        bibfs_result_free(&q);
    }
    return ok;
}

static void test_every_3x3(void **state)
{
    (void)state;
    struct board goal;
    slide_error err;
    assert_int_equal(board_goal(&goal, 3, 3, &err), 0);
    uint64_t hist[64];
    struct naive_set set;
    int radius = naive_mtm_bfs(3, 3, goal.cells, hist, 64, &set);
    struct ida_heuristic h; /* wd's eval is read-only: shared by the threads */
    assert_int_equal(ida_heuristic_open_metric(&h, "wd", &goal, METRIC_MTM, &err), 0);
    uint64_t seen = 0, bad = 0, first_bad = UINT64_MAX;
#pragma omp parallel reduction(+ : seen, bad) reduction(min : first_bad)
    {
        struct board b;
        slide_error e;
        int ok = board_copy(&b, &goal, &e) == 0;
#pragma omp for schedule(dynamic, 4096)
        for (size_t k = 0; k < set.cap; k++) {
            if (!set.keys[k] || !ok)
                continue;
            for (int i = 0; i < 9; i++)
                b.cells[i] = naive_cell(set.keys[k], i);
            int d = set.dist[k];
            if (!solves(&b, &goal, &h, d, d == radius || k % 50 == 0)) {
                bad++;
                first_bad = k < first_bad ? k : first_bad;
            }
            seen++;
        }
        board_free(&b);
        bad += !ok;
    }
    if (bad)
        fail_msg("%llu boards solved wrongly, the first packed as %llx",
                 (unsigned long long)bad, (unsigned long long)set.keys[first_bad]);
    assert_int_equal(seen, 181440);
    ida_heuristic_close(&h);
    naive_free(&set);
    board_free(&goal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_3x3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
