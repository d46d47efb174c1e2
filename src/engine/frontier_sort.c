/*
 * frontier_sort.c - LSD radix sort of keys (frontier_sort.h).
 *
 * One body serves fkey and uint64_t keys (RADIX_SORT below): count every
 * digit in one pass over the keys, then one stable scatter pass per digit
 * that is not the same for all keys.
 */
#include "slide/frontier_sort.h"

#include <stdlib.h>
#include <string.h>

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

/* ---- byte keys ---------------------------------------------------------- */

#define SMALL_BYTES 32

static void insertion_bytes(unsigned char *a, size_t n, size_t len, size_t d,
                            unsigned char *x)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        if (memcmp(a + (j - 1) * len + d, a + i * len + d, len - d) <= 0)
            continue;
        memcpy(x, a + i * len, len);
        for (; j > 0 && memcmp(a + (j - 1) * len + d, x + d, len - d) > 0; j--)
            memcpy(a + j * len, a + (j - 1) * len, len);
        memcpy(a + j * len, x, len);
    }
}

/* A range still to sort: n records at src (equal in bytes [0, d)), to end
 * in dst when to_dst, else in src; the other buffer's range is scratch. */
struct msd_task {
    unsigned char *src, *dst;
    size_t n, d;
    int to_dst;
};

/* One task: sort a small range, or scatter it by byte d into its other
 * buffer and push its buckets (each level moves every record once; the
 * buckets go on from where the scatter put them).  Returns the tasks'
 * new count, or (size_t)-1 when the stack cannot grow. */
static size_t msd_step(struct msd_task t, size_t len, struct msd_task **stack, size_t top,
                       size_t *cap)
{
    size_t count[256], pos[256];
    while (t.n >= SMALL_BYTES && t.d < len) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < t.n; i++)
            count[t.src[i * len + t.d]]++;
        if (count[t.src[t.d]] == t.n) { /* every record has the same byte here */
            t.d++;
            continue;
        }
        size_t sum = 0;
        for (int v = 0; v < 256; v++) {
            pos[v] = sum;
            sum += count[v];
        }
        for (size_t i = 0; i < t.n; i++)
            memcpy(t.dst + pos[t.src[i * len + t.d]]++ * len, t.src + i * len, len);
        for (size_t v = 0, at = 0; v < 256; at += count[v++]) {
            unsigned char *b = t.dst + at * len, *o = t.src + at * len;
            if (count[v] == 1 && !t.to_dst)
                memcpy(o, b, len);
            if (count[v] < 2)
                continue;
            if (top == *cap) {
                size_t c = *cap ? 2 * *cap : 256;
                struct msd_task *p = realloc(*stack, c * sizeof *p);
                if (!p)
                    return (size_t)-1;
                *stack = p;
                *cap = c;
            }
            (*stack)[top++] = (struct msd_task){b, o, count[v], t.d + 1, !t.to_dst};
        }
        return top;
    }
    if (t.d < len && t.n > 1)
        insertion_bytes(t.src, t.n, len, t.d, t.dst);
    if (t.to_dst)
        memcpy(t.dst, t.src, t.n * len);
    return top;
}

unsigned char *fsort_bytes(unsigned char *a, unsigned char *tmp, size_t n, size_t len)
{
    struct msd_task *stack = NULL;
    size_t top = 0, cap = 0;
    top = msd_step((struct msd_task){a, tmp, n, 0, 0}, len, &stack, top, &cap);
    while (top && top != (size_t)-1) {
        struct msd_task t = stack[--top];
        top = msd_step(t, len, &stack, top, &cap);
    }
    free(stack);
    return top == (size_t)-1 ? NULL : a;
}

size_t fsort_unique_bytes(unsigned char *a, size_t n, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || memcmp(a + i * len, a + (k - 1) * len, len)) {
            if (k != i)
                memcpy(a + k * len, a + i * len, len);
            k++;
        }
    return k;
}
