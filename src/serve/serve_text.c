/*
 * serve_text.c - request bytes made safe to echo (text.h).
 */
#include <stdio.h>
#include <string.h>

#include "text.h"

int utf8_char(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = p[0];
    int len;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c < 0x80)
        return 1;
    if (c < 0xC2) /* a continuation byte, or an overlong 2-byte form */
        return 0;
    if (c < 0xE0) {
        len = 2;
    } else if (c < 0xF0) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c < 0xF5) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        if (c == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0;
    }
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return -1;
        unsigned b = p[i];
        if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF))
            return 0;
    }
    return len;
}

size_t utf8_check(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        int k = utf8_char(p + i, len - i);
        if (k <= 0 || p[i] == 0)
            return i;
        i += (size_t)k;
    }
    return len;
}

/* The text for the character at p[i] (in piece, returned length; *k the
 * bytes it takes); 0 when a character is cut short by the end. */
static size_t piece_at(const unsigned char *p, size_t len, size_t i, char *piece, int *k)
{
    *k = utf8_char(p + i, len - i);
    if (*k < 0)
        return 0;
    if (*k == 0 || p[i] < 0x20 || p[i] == 0x7F) {
        *k = 1;
        return (size_t)snprintf(piece, 8, "\\x%02X", p[i]);
    }
    memcpy(piece, p + i, (size_t)*k);
    return (size_t)*k;
}

/* Pieces of s into dst while they fit in room bytes; returns the bytes
 * written and in *all whether every piece went. */
static size_t copy_pieces(char *dst, const unsigned char *p, size_t len, size_t room, int *all)
{
    size_t out = 0, i = 0;
    char piece[8];
    int k;
    *all = 1;
    while (i < len) {
        size_t n = piece_at(p, len, i, piece, &k);
        if (n == 0)
            break;
        if (out + n > room) {
            *all = 0;
            break;
        }
        if (dst)
            memcpy(dst + out, piece, n);
        out += n;
        i += (size_t)k;
    }
    return out;
}

char *text_clip(char *dst, size_t cap, const char *s, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    int all;
    if (max > cap - 1)
        max = cap - 1;
    size_t out = copy_pieces(NULL, p, len, max, &all);
    if (all) {
        copy_pieces(dst, p, len, max, &all);
    } else if (max >= 3) {
        out = copy_pieces(dst, p, len, max - 3, &all);
        memcpy(dst + out, "...", 3);
        out += 3;
    } else {
        out = 0;
    }
    dst[out] = '\0';
    return dst;
}
