/*
 * frontier_sort.h - sorting and deduplicating arrays of keys
 * (frontier_key.h) for the frontier search.
 *
 * Method: least-significant-digit radix sort, 11-bit digits, over the low
 * `bits` bits only (keys are below 2^bits), stable: one pass counts every
 * digit, then one scatter pass per digit; a digit on which every key agrees
 * is skipped.  Arrays of up to 64 keys get an insertion sort.  O(n * bits/11),
 * no comparisons: the right tool for fixed-width keys (Knuth, TAOCP vol. 3,
 * 5.2.5).
 */
#ifndef SLIDE_FRONTIER_SORT_H
#define SLIDE_FRONTIER_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "slide/frontier_key.h"

#define FSORT_DIGIT_BITS 11

/*
 * Sort the n keys of a (each below 2^bits, 1 <= bits <= 128) using tmp (n
 * keys) as scratch; returns a or tmp, whichever holds the sorted keys.
 */
fkey *fsort_keys(fkey *a, fkey *tmp, size_t n, int bits);

/*
 * The same for 64-bit keys (bits <= 64).  Keys of boards up to 20 cells (4x4: 44 bits)
 * are sorted this way, at half the memory traffic of fsort_keys.
 */
uint64_t *fsort_u64(uint64_t *a, uint64_t *tmp, size_t n, int bits);

/* Remove repeats from the sorted a[0..n); returns the new length. */
size_t fsort_unique(fkey *a, size_t n);
size_t fsort_unique_u64(uint64_t *a, size_t n);

/*
 * Byte keys (frontier_moved.h): sort the n records of len bytes at a into
 * memcmp order, using tmp (n * len bytes) as scratch; returns a, or NULL
 * when the ranges still to sort could not be held (out of memory; a and
 * tmp then hold the records in no useful order).  Most-significant-digit
 * radix sort, one byte a level, the ranges still to sort on a stack on the
 * heap (no recursion), insertion sort below 32 records (McIlroy, Bostic and
 * McIlroy, "Engineering radix sort", Computing Systems 6, 1993).
 */
unsigned char *fsort_bytes(unsigned char *a, unsigned char *tmp, size_t n, size_t len);

/* Remove repeats from the sorted records a[0..n) of len bytes; returns the
 * new count. */
size_t fsort_unique_bytes(unsigned char *a, size_t n, size_t len);

#endif
