/*
 * rank.c - Lehmer-code ranking and unranking of permutations (rank.h).
 */
#include "slide/rank.h"

#include <assert.h>

static const uint64_t factorial[RANK_MAX_LEN + 1] = {
    1ULL, 1ULL, 2ULL, 6ULL, 24ULL, 120ULL, 720ULL, 5040ULL, 40320ULL,
    362880ULL, 3628800ULL, 39916800ULL, 479001600ULL, 6227020800ULL,
    87178291200ULL, 1307674368000ULL, 20922789888000ULL, 355687428096000ULL,
    6402373705728000ULL, 121645100408832000ULL, 2432902008176640000ULL};

uint64_t rank_factorial(int k)
{
    assert(k >= 0 && k <= RANK_MAX_LEN);
    return factorial[k];
}

uint64_t rank_lex(const uint8_t *perm, int len, int *parity)
{
    uint32_t seen = 0;
    uint64_t r = 0;
    unsigned sum = 0;
    for (int i = 0; i < len; i++) {
        unsigned v = perm[i];
        /* smaller values not yet seen are exactly the smaller ones to the right */
        unsigned d = v - (unsigned)__builtin_popcount(seen & ((1u << v) - 1u));
        r += d * factorial[len - 1 - i];
        sum += d;
        seen |= 1u << v;
    }
    if (parity)
        *parity = (int)(sum & 1u);
    return r;
}

/*
 * Division by a small d (2..RANK_MAX_LEN) as a multiplication (the
 * Granlund-Montgomery method): M = floor((2^64 - 1) / d) + 1 makes
 * d * M = 2^64 + e with 0 <= e < d, so n * M / 2^64 = n / d + n e / (d 2^64).
 * Writing n = q d + s (s < d), that is q + (s + n e / 2^64) / d, whose
 * floor is q whenever n * d < 2^64.  The digits of a rank r < len! are
 * peeled with d = 2, 3, ..., len, and the n divided by d is below
 * len! / (d - 1)!, so n * d <= 2 * 20! < 2^64 always holds.  A 64-bit
 * division takes tens of cycles; this multiply a few.
 */
#define RECIP(d) (UINT64_MAX / (d) + 1)
static const uint64_t reciprocal[RANK_MAX_LEN + 1] = {
    0, 0, RECIP(2), RECIP(3), RECIP(4), RECIP(5), RECIP(6), RECIP(7), RECIP(8), RECIP(9),
    RECIP(10), RECIP(11), RECIP(12), RECIP(13), RECIP(14), RECIP(15), RECIP(16), RECIP(17),
    RECIP(18), RECIP(19), RECIP(20)};
#undef RECIP

static inline uint64_t div_small(uint64_t n, unsigned d)
{
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)n * reciprocal[d]) >> 64);
}

/* The Lehmer digits of lexicographic rank r (< len!): digit[len - d] is
 * the digit of radix d, taken from the least significant end (the
 * factorial number system) by division by 2, 3, ..., len.  Returns their
 * sum mod 2, the parity. */
static inline unsigned lehmer_digits(uint64_t r, int len, unsigned *digit)
{
    unsigned sum = 0;
    digit[len - 1] = 0;
    for (unsigned d = 2; d <= (unsigned)len; d++) {
        uint64_t q = div_small(r, d);
        unsigned x = (unsigned)(r - q * d);
        digit[len - d] = x;
        sum += x;
        r = q;
    }
    return sum & 1u;
}

int rank_unlex(uint64_t r, int len, uint8_t *perm)
{
    unsigned digit[RANK_MAX_LEN];
    if (len < 1)
        return 0;
    unsigned parity = lehmer_digits(r, len, digit);
    if (len <= 16) {
        /* the values not yet placed as nibbles of one word, smallest
         * first: the d-th is taken out by two shifts and a mask */
        uint64_t w = 0xfedcba9876543210ULL;
        for (int i = 0; i < len; i++) {
            unsigned sh = 4 * digit[i];
            perm[i] = (uint8_t)((w >> sh) & 15u);
            w = (w & ((1ULL << sh) - 1u)) | ((w >> sh >> 4) << sh);
        }
        return (int)parity;
    }
    uint32_t avail = (1u << len) - 1u;
    for (int i = 0; i < len; i++) {
        uint32_t x = avail;
        for (unsigned k = 0; k < digit[i]; k++)
            x &= x - 1; /* drop the d smallest available values */
        unsigned v = (unsigned)__builtin_ctz(x);
        avail &= ~(1u << v);
        perm[i] = (uint8_t)v;
    }
    return (int)parity;
}

void rank_unhalf(uint64_t h, int len, int parity, uint8_t *perm)
{
    if (len < 2) {
        for (int i = 0; i < len; i++)
            perm[i] = (uint8_t)i;
        return;
    }
    if (rank_unlex(2 * h, len, perm) != parity) {
        uint8_t tmp = perm[len - 2];
        perm[len - 2] = perm[len - 1];
        perm[len - 1] = tmp;
    }
}

int rank_parity(const uint8_t *perm, int len)
{
    int p;
    rank_lex(perm, len, &p);
    return p;
}

uint64_t rank_kperm_count(int n, int k)
{
    uint64_t c = 1;
    for (int i = 0; i < k; i++) {
        if (c > UINT64_MAX / (uint64_t)(n - i))
            return 0;
        c *= (uint64_t)(n - i);
    }
    return c;
}

uint64_t rank_kperm(const uint8_t *pos, int k, int n)
{
    uint32_t seen = 0;
    uint64_t r = 0;
    for (int i = 0; i < k; i++) {
        unsigned v = pos[i];
        unsigned d = v - (unsigned)__builtin_popcount(seen & ((1u << v) - 1u));
        r = r * (uint64_t)(n - i) + d;
        seen |= 1u << v;
    }
    return r;
}

/* The cell of the d-th (from 0) set bit of avail. */
static inline unsigned select_bit(uint32_t avail, unsigned d)
{
    for (; d >= 8; d -= 8) /* skip 8 set bits at a time while we can */
        avail &= avail - 1, avail &= avail - 1, avail &= avail - 1, avail &= avail - 1,
        avail &= avail - 1, avail &= avail - 1, avail &= avail - 1, avail &= avail - 1;
    while (d--)
        avail &= avail - 1;
    return (unsigned)__builtin_ctz(avail);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* With BMI2, pdep deposits bit d at the d-th set bit of avail: one instruction. */
__attribute__((target("bmi2"))) static void unkperm_bmi2(const unsigned *digit, int k,
                                                          uint32_t avail, uint8_t *pos)
{
    for (int i = 0; i < k; i++) {
        unsigned v = (unsigned)__builtin_ctz(__builtin_ia32_pdep_si(1u << digit[i], avail));
        avail &= ~(1u << v);
        pos[i] = (uint8_t)v;
    }
}
#endif

void rank_unkperm(uint64_t r, int k, int n, uint8_t *pos)
{
    unsigned digit[RANK_KPERM_MAX_N];
    if (r <= UINT32_MAX) { /* 32-bit division is several times faster */
        uint32_t r32 = (uint32_t)r;
        for (int i = k - 1; i >= 0; i--) {
            digit[i] = r32 % (uint32_t)(n - i);
            r32 /= (uint32_t)(n - i);
        }
    } else {
        for (int i = k - 1; i >= 0; i--) {
            digit[i] = (unsigned)(r % (uint64_t)(n - i));
            r /= (uint64_t)(n - i);
        }
    }
    uint32_t avail = (1u << n) - 1u;
#if defined(__x86_64__) && defined(__GNUC__)
    static int bmi2 = -1; /* benign race: every thread computes the same value */
    if (bmi2 < 0)
        bmi2 = __builtin_cpu_supports("bmi2") ? 1 : 0;
    if (bmi2) {
        unkperm_bmi2(digit, k, avail, pos);
        return;
    }
#endif
    for (int i = 0; i < k; i++) {
        unsigned v = select_bit(avail, digit[i]); /* the digit[i]-th free cell */
        avail &= ~(1u << v);
        pos[i] = (uint8_t)v;
    }
}
