/*
 * serve_target.c - the request target checked before it is decoded
 * (target.h).
 */
#include <stdio.h>
#include <string.h>

#include "target.h"

static int hex(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static int control(int byte)
{
    return byte < 0x20 || byte == 0x7f;
}

/* The offset of the first control byte of path[0..len), raw or written
 * %HH, and the byte in *byte; len when there is none. */
static size_t path_control(const char *path, size_t len, int *byte)
{
    for (size_t i = 0; i < len; i++) {
        int b = (unsigned char)path[i];
        if (b == '%' && i + 2 < len && hex(path[i + 1]) >= 0 && hex(path[i + 2]) >= 0)
            b = hex(path[i + 1]) * 16 + hex(path[i + 2]);
        if (control(b)) {
            *byte = b;
            return i;
        }
    }
    return len;
}

int target_check(const char *target, char *why, size_t len)
{
    why[0] = '\0';
    if (!target)
        return 0;
    size_t n = strlen(target);
    if (n > SERVE_MAX_TARGET) {
        snprintf(why, len, "the request target (path and query) is %zu bytes; slide serve "
                 "reads at most %d", n, SERVE_MAX_TARGET);
        return 414;
    }
    const char *query = strchr(target, '?');
    size_t path_len = query ? (size_t)(query - target) : n;
    int byte = 0;
    size_t at = path_control(target, path_len, &byte);
    if (at < path_len) {
        snprintf(why, len, "the path holds the control byte 0x%02X (at byte %zu%s); a path "
                 "is text without control bytes", byte, at + 1,
                 target[at] == '%' ? ", percent-encoded" : "");
        return 400;
    }
    size_t fields = 0;
    for (const char *p = query; p; p = strchr(p + 1, '&'))
        fields++;
    if (fields > SERVE_MAX_QUERY_FIELDS) {
        snprintf(why, len, "the query has %zu fields; slide serve reads at most %d", fields,
                 SERVE_MAX_QUERY_FIELDS);
        return 400;
    }
    return 0;
}
