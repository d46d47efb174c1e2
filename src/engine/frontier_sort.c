/*
 * frontier_sort.c - LSD radix sort of keys (frontier_sort.h).
 */
#include "slide/frontier_sort.h"

#include <string.h>

#define RADIX (1u << FSORT_DIGIT_BITS)

/* Below this many keys the counting passes cost more than they save. */
#define SMALL_SORT 64

static void insertion_sort(fkey *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        fkey x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > x; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

fkey *fsort_keys(fkey *a, fkey *tmp, size_t n, int bits)
{
    size_t count[RADIX];
    if (n <= SMALL_SORT) {
        insertion_sort(a, n);
        return a;
    }
    for (int shift = 0; shift < bits; shift += FSORT_DIGIT_BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(unsigned)(a[i] >> shift) & (RADIX - 1)]++;
        if (n == 0 || count[(unsigned)(a[0] >> shift) & (RADIX - 1)] == n)
            continue; /* every key has the same digit here: already in order */
        size_t sum = 0;
        for (unsigned d = 0; d < RADIX; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(unsigned)(a[i] >> shift) & (RADIX - 1)]++] = a[i];
        fkey *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

size_t fsort_unique(fkey *a, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || a[i] != a[k - 1])
            a[k++] = a[i];
    return k;
}
