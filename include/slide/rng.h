/*
 * rng.h - a portable, seedable pseudo-random generator, so that every
 * random board slide draws is the same on every machine for a given seed.
 *
 * Representation: the 256-bit state s[0..3] of xoshiro256** 1.0
 * (D. Blackman and S. Vigna, "Scrambled linear pseudorandom number
 * generators", ACM Trans. Math. Softw. 47(4), 2021; reference code at
 * https://prng.di.unimi.it/).  The state is filled from a 64-bit seed by four
 * outputs of SplitMix64 (G. L. Steele, D. Lea, C. H. Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), the seeding the xoshiro
 * authors recommend.  Only 64-bit unsigned arithmetic is used, so the stream
 * does not depend on the compiler, the word size or the byte order.
 *
 * Invariant: the state is never all zero (SplitMix64 cannot produce four
 * zero outputs in a row: it is a bijection of a counter that steps by an odd
 * constant).
 */
#ifndef SLIDE_RNG_H
#define SLIDE_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/*
 * One SplitMix64 step: advances *x by 0x9e3779b97f4a7c15 and returns the
 * mixed value.  Exposed because it is the seeding function and is checked
 * against the published outputs.
 */
uint64_t rng_splitmix64(uint64_t *x);

/* Seed r from a 64-bit seed (any value, 0 included). */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 random bits (xoshiro256**). */
uint64_t rng_next(struct rng *r);

/*
 * A uniform integer in [0, bound), bound >= 1, without modulo bias:
 * draws are rejected while they fall in the incomplete last block of
 * 2^64 mod bound values (expected draws < 2).
 */
uint64_t rng_below(struct rng *r, uint64_t bound);

#endif
