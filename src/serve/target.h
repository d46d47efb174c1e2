/*
 * target.h - the request target (the path and query of a request line)
 * checked as it arrives, before libmicrohttpd decodes it (internal).
 *
 * libmicrohttpd stores every query field in the connection's memory pool
 * (32 KiB, shared with the request's head); a query of hundreds of fields
 * exhausts it and the connection is closed without an answer.  It also
 * decodes the path's percent escapes into a C string, so "/api/info%00"
 * reaches the handler as "/api/info".  The target is therefore checked
 * here, on the bytes of the request line, and a refused request is
 * answered with its status and one line, {"error": ...}:
 *   414  the target is longer than SERVE_MAX_TARGET bytes;
 *   400  the query has more than SERVE_MAX_QUERY_FIELDS fields ('&'
 *        separated pieces), or the path holds a control byte (0x00..0x1F,
 *        0x7F), raw or percent-encoded.
 * (A request line too long for the pool itself, about 30 KiB, is
 * answered by libmicrohttpd: 414 with its own HTML text.)
 */
#ifndef SLIDE_SERVE_TARGET_H
#define SLIDE_SERVE_TARGET_H

#include <stddef.h>

#define SERVE_MAX_TARGET 8192       /* bytes of a request target */
#define SERVE_MAX_QUERY_FIELDS 32   /* fields of a query */

/*
 * 0 when target (the request line's target, NUL-terminated, as sent:
 * nothing decoded; NULL or "" for none) may be served; else 400 or 414
 * with the reason, one line of valid UTF-8, in why (len bytes).
 */
int target_check(const char *target, char *why, size_t len);

#endif
