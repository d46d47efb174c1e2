/*
 * fuzz_db.c - libFuzzer target: the distance-database loader, verifier and
 * lookups on arbitrary bytes (scripts/fuzz.sh builds and runs it).
 *
 * Two kinds of input:
 *   a file:       opened, loaded, verified and queried from memory (with
 *                 the header CRC made right, fuzz_fixup.h);
 *   "P" k bytes:  the bytes are XORed into the payload of a valid 2x3
 *                 database (k mod 6 picks encoding and space), which is then
 *                 verified and queried - block checksums would otherwise
 *                 keep every damaged payload away from the query code.
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz_fixup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_db_cleanup(void);

static struct db bases[6];
static int have_bases;

/* Free the payload-mode databases (for the regression test's leak check). */
void fuzz_db_cleanup(void)
{
    for (int k = 0; have_bases && k < 6; k++)
        db_free(&bases[k]);
    have_bases = 0;
}

static void make_bases(void)
{
    static const int enc[3] = {1, 2, 8};
    for (int k = 0; k < 6; k++) {
        struct board goal;
        struct space s;
        struct store st;
        struct bfs_result r;
        struct bfs_options o = {.threads = 1};
        struct db_save_options so = {enc[k % 3], 1, 1, 0};
        slide_error err;
        char path[64];
        snprintf(path, sizeof path, "/tmp/fuzz-db-%d-%d.db", (int)getpid(), k);
        if (board_goal(&goal, 2, 3, &err) || space_init(&s, &goal, k / 3, &err) ||
            store_alloc(&st, s.size, &err) || bfs_run(&s, &st, &o, &r, &err) ||
            db_save(path, &s, &st, &r, &so, NULL, &err) || db_load(path, 1, &bases[k], &err))
            abort();
        unlink(path);
        store_free(&st);
        bfs_result_free(&r);
        board_free(&goal);
    }
    have_bases = 1;
}

static void payload_mode(const uint8_t *data, size_t size)
{
    if (!have_bases)
        make_bases();
    struct db *base = &bases[data[1] % 6];
    uint8_t *saved = malloc(base->payload_bytes);
    if (!saved)
        return;
    memcpy(saved, base->payload, base->payload_bytes);
    for (size_t i = 2; i < size; i++)
        base->payload[(i - 2) % base->payload_bytes] ^= data[i];
    struct db_verify_report rep;
    struct board b;
    unsigned char moves[DB_MAX_RADIUS + 1];
    slide_error err;
    int d;
    db_verify(base, 1, &rep, &err);
    if (board_alloc(&b, 2, 3, &err) == SLIDE_OK) {
        for (uint64_t i = data[1] / 6 % 11; i < base->indexes; i += 11) {
            space_unrank(&base->space, i, &b);
            if (db_path(base, &b, moves, &d, &err) == SLIDE_OK && (d < 0 || d > base->radius))
                abort();
            db_distance(base, &b, &d, &err);
        }
        board_free(&b);
    }
    memcpy(base->payload, saved, base->payload_bytes);
    free(saved);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 2 && data[0] == 'P') {
        payload_mode(data, size);
        return 0;
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    fuzz_fixup(copy, size);
    fuzz_db_exercise(copy, size);
    free(copy);
    return 0;
}
