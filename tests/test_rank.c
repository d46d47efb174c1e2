/* test_rank.c - ranking and unranking against naive references (rank.h). */
#include "testutil.h"

#include "slide/rank.h"

/* Naive lexicographic rank: count permutations that precede perm, O(len^2). */
static uint64_t naive_lex(const uint8_t *p, int len)
{
    uint64_t r = 0, f = 1;
    for (int i = len - 1; i >= 0; i--) {
        int smaller = 0;
        for (int j = i + 1; j < len; j++)
            smaller += p[j] < p[i];
        r += (uint64_t)smaller * f;
        f *= (uint64_t)(len - i);
    }
    return r;
}

static int naive_parity(const uint8_t *p, int len)
{
    int inv = 0;
    for (int i = 0; i < len; i++)
        for (int j = i + 1; j < len; j++)
            inv += p[i] > p[j];
    return inv & 1;
}

/* Standard next_permutation for exhaustive enumeration in lexicographic order. */
static int next_permutation(uint8_t *p, int len)
{
    int i = len - 2;
    while (i >= 0 && p[i] >= p[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = len - 1;
    while (p[j] <= p[i])
        j--;
    uint8_t t = p[i]; p[i] = p[j]; p[j] = t;
    for (int a = i + 1, b = len - 1; a < b; a++, b--) {
        t = p[a]; p[a] = p[b]; p[b] = t;
    }
    return 1;
}

static void test_factorials(void **state)
{
    (void)state;
    uint64_t f = 1;
    for (int k = 0; k <= RANK_MAX_LEN; k++) {
        if (k)
            f *= (uint64_t)k;
        assert_true(rank_factorial(k) == f);
    }
}

/* Every permutation of len <= 9 in lexicographic order has rank 0, 1, 2, ... */
static void test_lex_exhaustive(void **state)
{
    (void)state;
    for (int len = 0; len <= 9; len++) {
        uint8_t p[RANK_MAX_LEN], q[RANK_MAX_LEN];
        for (int i = 0; i < len; i++)
            p[i] = (uint8_t)i;
        uint64_t expect = 0;
        do {
            int par;
            assert_true(rank_lex(p, len, &par) == expect);
            assert_int_equal(par, naive_parity(p, len));
            assert_int_equal(rank_unlex(expect, len, q), par);
            assert_memory_equal(p, q, (size_t)len);
            expect++;
        } while (next_permutation(p, len));
        assert_true(expect == rank_factorial(len));
    }
}

/* Half ranks of each parity cover [0, len!/2) exactly once, len <= 9. */
static void test_half_exhaustive(void **state)
{
    (void)state;
    for (int len = 2; len <= 9; len++) {
        uint64_t half = rank_factorial(len) / 2;
        uint8_t *seen = calloc(2 * half, 1);
        uint8_t p[RANK_MAX_LEN], q[RANK_MAX_LEN];
        for (int i = 0; i < len; i++)
            p[i] = (uint8_t)i;
        do {
            int par = naive_parity(p, len);
            uint64_t h = rank_half(p, len);
            assert_true(h < half);
            assert_int_equal(seen[par * half + h], 0);
            seen[par * half + h] = 1;
            rank_unhalf(h, len, par, q);
            assert_memory_equal(p, q, (size_t)len);
        } while (next_permutation(p, len));
        for (uint64_t i = 0; i < 2 * half; i++)
            assert_int_equal(seen[i], 1);
        free(seen);
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Random samples up to len = 20 against the naive rank. */
static void test_random_large(void **state)
{
    (void)state;
    for (int len = 10; len <= RANK_MAX_LEN; len++)
        for (int k = 0; k < 2000; k++) {
            uint8_t p[RANK_MAX_LEN], q[RANK_MAX_LEN];
            for (int i = 0; i < len; i++)
                p[i] = (uint8_t)i;
            for (int i = len - 1; i > 0; i--) {
                int j = (int)(rng() % (uint64_t)(i + 1));
                uint8_t t = p[i]; p[i] = p[j]; p[j] = t;
            }
            int par;
            uint64_t r = rank_lex(p, len, &par);
            assert_true(r == naive_lex(p, len));
            assert_true(r < rank_factorial(len));
            assert_int_equal(par, naive_parity(p, len));
            rank_unlex(r, len, q);
            assert_memory_equal(p, q, (size_t)len);
            uint64_t h = rank_half(p, len);
            assert_true(h < rank_factorial(len) / 2);
            rank_unhalf(h, len, par, q);
            assert_memory_equal(p, q, (size_t)len);
        }
}

/* The definition of unranking: digit i = r / (len-1-i)! (64-bit division),
 * then the digit-th smallest value not yet placed, from a list. */
static int naive_unlex(uint64_t r, int len, uint8_t *p)
{
    uint8_t left[RANK_MAX_LEN];
    int n = len, sum = 0;
    for (int i = 0; i < len; i++)
        left[i] = (uint8_t)i;
    for (int i = 0; i < len; i++) {
        uint64_t f = rank_factorial(len - 1 - i);
        int d = (int)(r / f);
        r %= f;
        sum += d;
        p[i] = left[d];
        memmove(left + d, left + d + 1, (size_t)(n - d - 1));
        n--;
    }
    return sum & 1;
}

/* Random ranks (not random permutations) up to len = 20 and the edges of
 * each range (0, len! - 1, around 2^32) against the definition, unlex and
 * unhalf, and back through rank_lex. */
static void test_random_ranks(void **state)
{
    (void)state;
    for (int len = 1; len <= RANK_MAX_LEN; len++) {
        uint64_t f = rank_factorial(len);
        for (int k = 0; k < 20000; k++) {
            uint64_t r = k == 0 ? 0 : k == 1 ? f - 1 : k < 6 && f > (1ULL << 32) + 2
                                                       ? (1ULL << 32) + (uint64_t)k - 4
                                                       : rng() % f;
            uint8_t p[RANK_MAX_LEN], q[RANK_MAX_LEN];
            int want = naive_unlex(r, len, q);
            assert_int_equal(rank_unlex(r, len, p), want);
            assert_memory_equal(p, q, (size_t)len);
            assert_int_equal(naive_parity(p, len), want);
            assert_true(rank_lex(p, len, 0) == r);
            if (len < 2)
                continue;
            int par = (int)(rng() & 1);
            rank_unhalf(r / 2, len, par, p);
            assert_int_equal(naive_parity(p, len), par);
            assert_true(rank_lex(p, len, 0) / 2 == r / 2);
        }
    }
}

/* Every k-tuple of distinct cells, in lexicographic order by recursion: the
 * i-th one generated must have rank i, and unrank must give it back. */
static void kperm_walk(uint8_t *pos, int depth, int k, int n, uint32_t used,
                       uint64_t *next)
{
    if (depth == k) {
        uint8_t back[RANK_KPERM_MAX_N];
        assert_true(rank_kperm(pos, k, n) == *next);
        rank_unkperm(*next, k, n, back);
        assert_memory_equal(back, pos, (size_t)k);
        (*next)++;
        return;
    }
    for (int c = 0; c < n; c++)
        if (!(used & (1u << c))) {
            pos[depth] = (uint8_t)c;
            kperm_walk(pos, depth + 1, k, n, used | (1u << c), next);
        }
}

static void test_kperm_exhaustive(void **state)
{
    (void)state;
    for (int n = 1; n <= 8; n++)
        for (int k = 1; k <= n && k <= 5; k++) {
            uint8_t pos[RANK_KPERM_MAX_N];
            uint64_t next = 0;
            kperm_walk(pos, 0, k, n, 0, &next);
            assert_true(next == rank_kperm_count(n, k));
        }
    assert_true(rank_kperm_count(16, 8) == 518918400ULL);
    assert_true(rank_kperm_count(25, 6) == 127512000ULL);
    /* a large case round-trips: the last tuple of 30 cells taken 6 */
    uint8_t last[6] = {29, 28, 27, 26, 25, 24}, back[6];
    assert_true(rank_kperm(last, 6, 30) == rank_kperm_count(30, 6) - 1);
    rank_unkperm(rank_kperm_count(30, 6) - 1, 6, 30, back);
    assert_memory_equal(back, last, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factorials), cmocka_unit_test(test_lex_exhaustive),
        cmocka_unit_test(test_half_exhaustive), cmocka_unit_test(test_random_large),
        cmocka_unit_test(test_random_ranks),
        cmocka_unit_test(test_kperm_exhaustive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
