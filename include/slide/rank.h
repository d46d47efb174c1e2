/*
 * rank.h - permutation ranking: lexicographic over all len! permutations and
 * parity-aware ("half") over the len!/2 permutations of one parity.
 *
 * Representation: a permutation is perm[0..len-1], a rearrangement of
 * 0..len-1, len <= RANK_MAX_LEN.  Its Lehmer code is digit[i] = the number of
 * j > i with perm[j] < perm[i], so digit[i] < len - i and digit[len-1] = 0.
 *   lexicographic rank = sum_i digit[i] * (len-1-i)!       (in [0, len!))
 *   parity             = (sum_i digit[i]) mod 2            (0 even, 1 odd)
 * The permutations of lexicographic ranks 2k and 2k+1 differ by swapping the
 * last two entries, so they have opposite parities: the half rank k = lex >> 1
 * numbers the permutations of one given parity bijectively onto [0, len!/2)
 * (len >= 2; for len < 2 there is one permutation, of half rank 0, even).
 * Digits are computed with a bit mask and popcount, so rank is O(len);
 * unrank takes the digits by multiplying with reciprocals (no division)
 * and, for len <= 16, the values from a word of nibbles, also O(len).
 */
#ifndef SLIDE_RANK_H
#define SLIDE_RANK_H

#include <stdint.h>

/* n! fits in 64 bits for n <= 20; permutations of up to 20 entries. */
#define RANK_MAX_LEN 20

/* k! for 0 <= k <= RANK_MAX_LEN. */
uint64_t rank_factorial(int k);

/*
 * Lexicographic rank of perm (a permutation of 0..len-1, 0 <= len <= 20).
 * If parity is not NULL it receives the permutation's parity (0/1).
 */
uint64_t rank_lex(const uint8_t *perm, int len, int *parity);

/*
 * The permutation of 0..len-1 with lexicographic rank r (r < len!).  Returns
 * its parity.
 */
int rank_unlex(uint64_t r, int len, uint8_t *perm);

/* Half rank (lex rank >> 1) of perm; 0 when len < 2. */
static inline uint64_t rank_half(const uint8_t *perm, int len)
{
    return len < 2 ? 0 : rank_lex(perm, len, 0) >> 1;
}

/*
 * The permutation of the given parity (0/1) whose half rank is h
 * (h < len!/2; len >= 2).  For len < 2 writes the identity (only parity 0
 * exists).
 */
void rank_unhalf(uint64_t h, int len, int parity, uint8_t *perm);

/* Parity (0 even, 1 odd) of a permutation of 0..len-1. */
int rank_parity(const uint8_t *perm, int len);

/*
 * k-permutations (for pattern databases): pos[0..k-1] are k distinct cells
 * of 0..n-1 (1 <= k <= n <= RANK_KPERM_MAX_N).  Digit i is pos[i] minus the
 * number of earlier entries below it, so digit i < n - i, and the rank is
 * the mixed-radix number d_0 (n) d_1 (n-1) ... d_{k-1} (n-k+1), most
 * significant first: the lexicographic order of the k-tuples, numbered
 * bijectively onto [0, n!/(n-k)!).  rank_kperm_count returns that count,
 * or 0 when it does not fit in 64 bits.
 */
#define RANK_KPERM_MAX_N 30
uint64_t rank_kperm_count(int n, int k);
uint64_t rank_kperm(const uint8_t *pos, int k, int n);
/* The k-permutation of rank r (< rank_kperm_count(n, k)) into pos. */
void rank_unkperm(uint64_t r, int k, int n, uint8_t *pos);

#endif
