/*
 * test_buckets.c - the forward pass's buckets (src/engine/buckets.h): the
 * owner map gives every chunk one owner below T, and each thread an equal
 * share (to within one chunk) of every run of 64 chunks, so no thread of a
 * team of up to 64 is left out of the apply phases; the put pointers count
 * the entries, and buckets_full asks for an apply phase exactly when a
 * bucket has less than margin entries of room; buckets_chunk lists each
 * thread's chunks in order.  The shares and the lists are found here chunk
 * by chunk, not derived from the formulas.
 */
#include "testutil.h"

#include "../src/engine/buckets.h"

static void test_owner_shares(void **state)
{
    (void)state;
    for (unsigned T = 1; T <= 130; T++) {
        unsigned count[130] = {0};
        for (uint64_t ch = 5 * 64; ch < 6 * 64; ch++) { /* one run of 64 */
            unsigned o = buckets_owner(ch, T);
            assert_true(o < T);
            /* the map repeats every 64 chunks, far into a 2x7 store */
            assert_int_equal(o, buckets_owner(ch + 64 * 40000ULL, T));
            count[o]++;
        }
        unsigned lo = 64 / T, hi = (64 + T - 1) / T, owners = 0;
        for (unsigned o = 0; o < T; o++) {
            if (count[o])
                owners++;
            if (T <= 64) {
                assert_true(count[o] >= lo);
                assert_true(count[o] <= hi);
            }
        }
        assert_int_equal(owners, T <= 64 ? T : 64);
        /* a thread's chunks of a run are consecutive: it owns a share */
        for (uint64_t ch = 1; ch < 64; ch++)
            assert_true(buckets_owner(ch, T) >= buckets_owner(ch - 1, T));
    }
}

/* buckets_chunk lists thread o's chunks (those buckets_owner gives it, found
 * here by testing every chunk) in increasing order, ordinal by ordinal;
 * a thread that owns none gets UINT64_MAX at once. */
static void test_chunk_order(void **state)
{
    (void)state;
    const uint64_t nchunks = 64 * 7 + 13; /* a last run of 64 cut short */
    for (unsigned T = 1; T <= 130; T++) {
        uint64_t seen = 0;
        for (unsigned o = 0; o < T; o++) {
            uint64_t j = 0;
            for (uint64_t ch = 0; ch < nchunks; ch++) {
                if (buckets_owner(ch, T) != o)
                    continue;
                assert_int_equal(buckets_chunk(j, o, T), ch);
                j++;
            }
            /* the next ordinal is past the store (or none at all) */
            assert_true(buckets_chunk(j, o, T) >= nchunks);
            if (j == 0)
                assert_true(buckets_chunk(0, o, T) == UINT64_MAX);
            seen += j;
        }
        assert_int_equal(seen, nchunks); /* every chunk, once */
    }
}

static void test_put_and_full(void **state)
{
    (void)state;
    struct buckets bk;
    for (int T = 2; T <= 5; T++) {
        assert_int_equal(buckets_init(&bk, T, 1), 0);
        assert_true(bk.cap >= 2 * bk.margin);
        for (int t = 0; t < T; t++)
            for (int o = 0; o < T; o++) {
                assert_int_equal(buckets_fill(&bk, t, o), 0);
                assert_ptr_equal(bk.put[(size_t)t * bk.stride + (size_t)o],
                                 buckets_at(&bk, t, o));
            }
        assert_false(buckets_full(&bk, 1, T));
        /* fill thread 1's bucket for owner T - 1 up to cap - margin: room
         * for margin more, not full; one more entry makes it full */
        uint64_t **put = &bk.put[1 * bk.stride + (size_t)(T - 1)];
        for (size_t k = 0; k < bk.cap - bk.margin; k++)
            *(*put)++ = k;
        assert_int_equal(buckets_fill(&bk, 1, T - 1), bk.cap - bk.margin);
        assert_int_equal(buckets_at(&bk, 1, T - 1)[bk.cap - bk.margin - 1],
                         bk.cap - bk.margin - 1);
        assert_false(buckets_full(&bk, 1, T));
        assert_false(buckets_full(&bk, 0, T)); /* other threads untouched */
        *(*put)++ = 0;
        assert_true(buckets_full(&bk, 1, T));
        assert_false(buckets_full(&bk, 0, T));
        buckets_free(&bk);
    }
    assert_int_equal(buckets_init(&bk, 1, 0), 0); /* one thread: none */
    assert_null(bk.mem);
    buckets_free(&bk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_owner_shares),
        cmocka_unit_test(test_chunk_order),
        cmocka_unit_test(test_put_and_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
