/*
 * bytebfs.c - benchmark baseline: BFS with one byte per board in an array
 * indexed by the lexicographic rank of all n cells (n! entries, half of
 * them unreachable) and a FIFO queue of 64-bit ranks.  The plain
 * "array instead of hash set" design, single-threaded.  Prints the
 * histogram as distance,count.  Usage: bytebfs R C   (R*C <= 12)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int n;
static uint64_t fact[21];

static uint64_t rank(const uint8_t *p)
{
    uint64_t r = 0;
    for (int i = 0; i < n; i++) {
        int less = 0;
        for (int j = i + 1; j < n; j++)
            less += p[j] < p[i];
        r += (uint64_t)less * fact[n - 1 - i];
    }
    return r;
}

static void unrank(uint64_t r, uint8_t *p)
{
    int used[21] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t d = r / fact[n - 1 - i];
        r %= fact[n - 1 - i];
        int v = 0;
        for (;; v++)
            if (!used[v] && d-- == 0)
                break;
        used[v] = 1;
        p[i] = (uint8_t)v;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int R = atoi(argv[1]), C = atoi(argv[2]);
    n = R * C;
    if (R < 2 || C < 2 || n > 12)
        return 2;
    fact[0] = 1;
    for (int i = 1; i <= n; i++)
        fact[i] = fact[i - 1] * (uint64_t)i;
    uint8_t *dist = malloc(fact[n]);
    uint64_t *queue = malloc(fact[n] / 2 * sizeof *queue);
    for (uint64_t i = 0; i < fact[n]; i++)
        dist[i] = 255;
    uint8_t p[21];
    for (int i = 0; i < n - 1; i++)
        p[i] = (uint8_t)(i + 1);
    p[n - 1] = 0;
    uint64_t hist[256] = {0}, head = 0, tail = 0, g = rank(p);
    dist[g] = 0;
    queue[tail++] = g;
    int radius = 0;
    while (head < tail) {
        uint64_t r = queue[head++];
        int d = dist[r], z = 0;
        hist[d]++;
        radius = d > radius ? d : radius;
        unrank(r, p);
        while (p[z])
            z++;
        int row = z / C, col = z % C;
        int to[4] = {row ? z - C : -1, row < R - 1 ? z + C : -1, col ? z - 1 : -1, col < C - 1 ? z + 1 : -1};
        for (int i = 0; i < 4; i++) {
            if (to[i] < 0)
                continue;
            p[z] = p[to[i]];
            p[to[i]] = 0;
            uint64_t q = rank(p);
            if (dist[q] == 255) {
                dist[q] = (uint8_t)(d + 1);
                queue[tail++] = q;
            }
            p[to[i]] = p[z];
            p[z] = 0;
        }
    }
    printf("distance,count\n");
    for (int d = 0; d <= radius; d++)
        printf("%d,%llu\n", d, (unsigned long long)hist[d]);
    return 0;
}
