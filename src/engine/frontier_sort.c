/*
 * frontier_sort.c - LSD radix sort of keys (frontier_sort.h).
 *
 * One body serves fkey and uint64_t keys (RADIX_SORT below): count every
 * digit in one pass over the keys, then one stable scatter pass per digit
 * that is not the same for all keys.
 */
#include "slide/frontier_sort.h"

#include <stdlib.h>

#define RADIX (1u << FSORT_DIGIT_BITS)
/* Below this many keys the counting passes cost more than they save. */
#define SMALL_SORT 64

#define RADIX_SORT(NAME, TYPE)                                                        \
    TYPE *NAME(TYPE *a, TYPE *tmp, size_t n, int bits)                               \
    {                                                                                 \
        int nd = (bits + FSORT_DIGIT_BITS - 1) / FSORT_DIGIT_BITS;                    \
        size_t(*count)[RADIX] = n > SMALL_SORT ? calloc((size_t)nd, sizeof *count) : NULL; \
        if (!count) { /* short, or no memory for the counts: insertion sort */        \
            for (size_t i = 1; i < n; i++) {                                          \
                TYPE x = a[i];                                                        \
                size_t j = i;                                                         \
                for (; j > 0 && a[j - 1] > x; j--)                                    \
                    a[j] = a[j - 1];                                                  \
                a[j] = x;                                                             \
            }                                                                         \
            return a;                                                                 \
        }                                                                             \
        for (size_t i = 0; i < n; i++)                                                \
            for (int d = 0; d < nd; d++)                                              \
                count[d][(unsigned)(a[i] >> (d * FSORT_DIGIT_BITS)) & (RADIX - 1)]++; \
        for (int d = 0; d < nd; d++) {                                                \
            int shift = d * FSORT_DIGIT_BITS;                                         \
            if (count[d][(unsigned)(a[0] >> shift) & (RADIX - 1)] == n)               \
                continue; /* every key has the same digit here */                     \
            size_t sum = 0;                                                           \
            for (unsigned v = 0; v < RADIX; v++) {                                    \
                size_t c = count[d][v];                                               \
                count[d][v] = sum;                                                    \
                sum += c;                                                             \
            }                                                                         \
            for (size_t i = 0; i < n; i++)                                            \
                tmp[count[d][(unsigned)(a[i] >> shift) & (RADIX - 1)]++] = a[i];      \
            TYPE *t = a;                                                              \
            a = tmp;                                                                  \
            tmp = t;                                                                  \
        }                                                                             \
        free(count);                                                                  \
        return a;                                                                     \
    }

#define UNIQUE(NAME, TYPE)                                                            \
    size_t NAME(TYPE *a, size_t n)                                                    \
    {                                                                                 \
        size_t k = 0;                                                                 \
        for (size_t i = 0; i < n; i++)                                                \
            if (k == 0 || a[i] != a[k - 1])                                           \
                a[k++] = a[i];                                                        \
        return k;                                                                     \
    }

RADIX_SORT(fsort_keys, fkey)
RADIX_SORT(fsort_u64, uint64_t)
UNIQUE(fsort_unique, fkey)
UNIQUE(fsort_unique_u64, uint64_t)
