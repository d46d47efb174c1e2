/*
 * origin.h - which requests may use the API of `slide serve`: those of
 * its own page and of programs, not those of other web sites (internal).
 *
 * Any page a browser shows can send requests to 127.0.0.1; without a
 * check, a page of another site could start searches on the local server
 * (and read the answers after a DNS rebinding).  Browsers say where a
 * request comes from, and only that is checked, so curl and scripts (which
 * send neither header) are unaffected:
 *   Sec-Fetch-Site  when present must be "same-origin" or "none" (typed
 *                   into the address bar);
 *   Origin          when present must be http:// followed by the Host
 *                   header (the page of this server, by the name and port
 *                   the browser used);
 *   Host            when the server listens on a loopback address, must
 *                   name a loopback host: localhost, 127.x.x.x or [::1]
 *                   (with any port, or none).  A rebound name such as
 *                   evil.example:8080 is refused.  On another address any
 *                   Host is taken (the server was opened to a network,
 *                   under whatever name it has there).
 * The Fetch standard defines Sec-Fetch-Site; RFC 6454 the Origin header.
 */
#ifndef SLIDE_SERVE_ORIGIN_H
#define SLIDE_SERVE_ORIGIN_H

#include <stddef.h>

/*
 * 0 when a request with these headers (NULL: absent) may use the API;
 * else -1 with the reason, one line, in why (len bytes).  loopback: the
 * server listens on a loopback address.
 */
int origin_check(const char *host, const char *origin, const char *fetch_site, int loopback,
                 char *why, size_t len);

/* 1 if text is an IPv4 or IPv6 address of the loopback interface
 * (127.0.0.0/8, ::1 in any spelling, ::ffff:127.x.x.x), 0 otherwise. */
int origin_is_loopback(const char *text);

#endif
