/*
 * store.c - allocation, memory guard and bulk operations of the two-bit
 * store (store.h).
 */
#define _GNU_SOURCE
#include "slide/store.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

uint64_t store_bytes_needed(uint64_t entries)
{
    return (entries + STORE_ENTRIES_PER_WORD - 1) / STORE_ENTRIES_PER_WORD * 8;
}

uint64_t store_memory_available(uint64_t limit)
{
    uint64_t avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                avail = (uint64_t)kb * 1024;
                break;
            }
        fclose(f);
    }
    if (limit && (avail == 0 || limit < avail))
        avail = limit;
    return avail;
}

int store_check_memory(uint64_t bytes, uint64_t limit, const char *what,
                       slide_error *err)
{
    uint64_t avail = store_memory_available(limit);
    int by_limit = limit && avail == limit && limit < store_memory_available(0);
    if (avail && bytes > avail)
        return slide_fail(err, SLIDE_ENOMEM,
                          "%s needs %llu bytes (%.2f GB) but only %llu bytes "
                          "(%.2f GB) are available%s", what,
                          (unsigned long long)bytes, bytes / 1e9,
                          (unsigned long long)avail, avail / 1e9,
                          by_limit ? " under the memory limit" : " (MemAvailable)");
    return SLIDE_OK;
}

int store_alloc(struct store *st, uint64_t entries, slide_error *err)
{
    uint64_t need = store_bytes_needed(entries);
    long page = sysconf(_SC_PAGESIZE);
    size_t bytes = (size_t)((need + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page);
    memset(st, 0, sizeof *st);
    if (bytes == 0)
        bytes = (size_t)page;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return slide_fail(err, SLIDE_ENOMEM,
                          "cannot allocate %zu bytes for %llu two-bit entries",
                          bytes, (unsigned long long)entries);
#ifdef MADV_HUGEPAGE
    if (bytes >= (4u << 20))
        madvise(p, bytes, MADV_HUGEPAGE); /* fewer TLB misses on random marks */
#endif
    st->words = p;
    st->size = entries;
    st->nwords = need / 8;
    st->bytes = bytes;
    store_fill(st, STORE_UNVISITED);
    return SLIDE_OK;
}

void store_free(struct store *st)
{
    if (st->words)
        munmap(st->words, st->bytes);
    memset(st, 0, sizeof *st);
}

void store_fill(struct store *st, unsigned v)
{
    uint64_t pattern = STORE_LOW_BITS * (uint64_t)(v & 3u);
    int64_t nw = (int64_t)st->nwords;
    /* first touch in parallel spreads pages over the threads' memory */
#pragma omp parallel for schedule(static)
    for (int64_t w = 0; w < nw; w++)
        st->words[w] = pattern;
    /* padding past the last entry stays unvisited so scans never see it */
    uint64_t used = st->size % STORE_ENTRIES_PER_WORD;
    if (used && nw > 0)
        st->words[nw - 1] |= ~0ULL << (2 * used);
}

uint64_t store_count(const struct store *st, unsigned v)
{
    uint64_t total = 0;
    int64_t nw = (int64_t)st->nwords;
    uint64_t used = st->size % STORE_ENTRIES_PER_WORD;
#pragma omp parallel for schedule(static) reduction(+ : total)
    for (int64_t w = 0; w < nw; w++) {
        uint64_t x = st->words[w] ^ (STORE_LOW_BITS * (uint64_t)(3u - (v & 3u)));
        /* an entry equals v iff both its bits are now 1 */
        uint64_t hit = x & (x >> 1) & STORE_LOW_BITS;
        if (w == nw - 1 && used)
            hit &= (1ULL << (2 * used)) - 1;
        total += (uint64_t)__builtin_popcountll(hit);
    }
    return total;
}
