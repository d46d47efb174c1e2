/* test_store.c - the packed two-bit array (store.h). */
#include "testutil.h"

#include <omp.h>

#include "slide/store.h"

static void test_fill_count(void **state)
{
    (void)state;
    struct store st;
    slide_error err;
    for (uint64_t size = 1; size < 200; size += 13) {
        assert_int_equal(store_alloc(&st, size, &err), 0);
        assert_true(store_count(&st, STORE_UNVISITED) == size);
        for (unsigned v = 0; v < 4; v++) {
            store_fill(&st, v);
            assert_true(store_count(&st, v) == size);
        }
        store_fill(&st, STORE_UNVISITED);
        for (uint64_t i = 0; i < size; i += 3)
            store_set(&st, i, (unsigned)(i % 4));
        for (uint64_t i = 0; i < size; i++)
            assert_int_equal(store_get(&st, i), i % 3 ? STORE_UNVISITED : (unsigned)(i % 4));
        store_free(&st);
    }
}

static void test_mark(void **state)
{
    (void)state;
    struct store st;
    slide_error err;
    assert_int_equal(store_alloc(&st, 100, &err), 0);
    assert_int_equal(store_mark(&st, 5), 1);
    assert_int_equal(store_mark(&st, 5), 0);
    assert_int_equal(store_get(&st, 5), STORE_FRONTIER);
    /* closed entries of either depth bit are never changed by marking */
    store_set(&st, 6, STORE_CLOSED_ODD);
    store_set(&st, 7, STORE_CLOSED_EVEN);
    assert_int_equal(store_mark(&st, 6), 0);
    assert_int_equal(store_mark(&st, 7), 0);
    assert_int_equal(store_get(&st, 6), STORE_CLOSED_ODD);
    assert_int_equal(store_get(&st, 7), STORE_CLOSED_EVEN);
    assert_int_equal(store_get(&st, 4), STORE_UNVISITED);
    assert_int_equal(store_get(&st, 8), STORE_UNVISITED);
    store_free(&st);
}

/* Many threads marking overlapping entries: each entry has exactly one winner. */
static void test_concurrent_marks(void **state)
{
    (void)state;
    struct store st;
    slide_error err;
    const uint64_t size = 1 << 16;
    assert_int_equal(store_alloc(&st, size, &err), 0);
    uint64_t wins = 0;
#pragma omp parallel num_threads(4) reduction(+ : wins)
    for (int round = 0; round < 4; round++)
        for (uint64_t i = (uint64_t)omp_get_thread_num(); i < size; i += 1)
            wins += (uint64_t)store_mark(&st, (i * 7919) % size);
    assert_true(wins == size);
    assert_true(store_count(&st, STORE_FRONTIER) == size);
    store_free(&st);
}

static void test_memory_guard(void **state)
{
    (void)state;
    slide_error err;
    assert_int_equal(store_check_memory(1000, 999, "a test store", &err), SLIDE_ENOMEM);
    assert_non_null(strstr(err.msg, "needs 1000 bytes"));
    assert_non_null(strstr(err.msg, "999 bytes"));
    assert_int_equal(store_check_memory(1000, 1000, "a test store", &err), 0);
    assert_true(store_bytes_needed(33) == 16);
    assert_true(store_bytes_needed(32) == 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_count), cmocka_unit_test(test_mark),
        cmocka_unit_test(test_concurrent_marks), cmocka_unit_test(test_memory_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
