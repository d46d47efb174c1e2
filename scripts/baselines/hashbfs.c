/*
 * hashbfs.c - benchmark baseline: the textbook BFS over boards with a hash
 * set and a FIFO queue, as most puzzle tools do it.  Boards are packed 4
 * bits per cell into a 64-bit key (R*C <= 16).  Prints the histogram in
 * slide's CSV form (distance,count) so the bench can compare results.
 * Usage: hashbfs R C
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static size_t cap;
static uint64_t *keys;
static uint8_t *dist;

static size_t slot(uint64_t k)
{
    uint64_t h = k * 0x9e3779b97f4a7c15ULL;
    size_t i = (size_t)(h >> 20) & (cap - 1);
    while (keys[i] && keys[i] != k)
        i = (i + 1) & (cap - 1);
    return i;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int R = atoi(argv[1]), C = atoi(argv[2]), n = R * C;
    if (R < 2 || C < 2 || n > 16)
        return 2;
    size_t states = 1;
    for (int i = 2; i <= n; i++)
        states *= (size_t)i;
    states /= 2;
    for (cap = 1; cap < states * 2; cap <<= 1)
        ;
    keys = calloc(cap, sizeof *keys);
    dist = calloc(cap, 1);
    uint64_t *queue = malloc(states * sizeof *queue);
    uint64_t hist[256] = {0}, goal = 0;
    for (int i = 0; i < n - 1; i++)
        goal |= (uint64_t)(i + 1) << (4 * i);
    size_t head = 0, tail = 0, s = slot(goal);
    keys[s] = goal;
    queue[tail++] = goal;
    int radius = 0;
    while (head < tail) {
        uint64_t k = queue[head++];
        int d = dist[slot(k)], z = 0;
        hist[d]++;
        radius = d > radius ? d : radius;
        while ((k >> (4 * z)) & 15)
            z++;
        int r = z / C, c = z % C;
        int to[4] = {r ? z - C : -1, r < R - 1 ? z + C : -1, c ? z - 1 : -1, c < C - 1 ? z + 1 : -1};
        for (int i = 0; i < 4; i++) {
            if (to[i] < 0)
                continue;
            uint64_t tile = (k >> (4 * to[i])) & 15;
            uint64_t next = (k & ~(15ULL << (4 * to[i]))) | (tile << (4 * z));
            size_t j = slot(next);
            if (!keys[j]) {
                keys[j] = next;
                dist[j] = (uint8_t)(d + 1);
                queue[tail++] = next;
            }
        }
    }
    printf("distance,count\n");
    for (int d = 0; d <= radius; d++)
        printf("%d,%llu\n", d, (unsigned long long)hist[d]);
    return 0;
}
