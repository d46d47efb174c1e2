/*
 * fuzz_board.c - libFuzzer target: the board parser (board_parse,
 * board_parse_dims) on arbitrary text.  A parsed board must be valid and
 * survive format -> parse unchanged; a refusal must carry a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slide/board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const struct board *b)
{
    struct board c;
    slide_error err;
    size_t need = board_format(b, NULL, 0);
    char *text = malloc(need + 1);
    if (!text)
        return;
    board_format(b, text, need + 1);
    if (board_validate(b, &err) != SLIDE_OK ||
        board_parse(text, b->rows, b->cols, &c, &err) != SLIDE_OK)
        abort();
    if (!board_equal(b, &c))
        abort();
    board_free(&c);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const int dims[][2] = {{0, 0}, {3, 3}, {2, 5}, {1, 4}};
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        struct board b;
        slide_error err = {{0}};
        if (board_parse(text, dims[k][0], dims[k][1], &b, &err) == SLIDE_OK) {
            /* very large boards are valid but slow to round-trip */
            if (board_cells(&b) <= 4096)
                roundtrip(&b);
            board_free(&b);
        } else if (!err.msg[0]) {
            abort();
        }
    }
    int r, c;
    slide_error err = {{0}};
    if (board_parse_dims(text, &r, &c, &err) != SLIDE_OK && !err.msg[0])
        abort();
    free(text);
    return 0;
}
