/*
 * serve_origin.c - same-origin and loopback-host checks of API requests
 * (origin.h).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "origin.h"
#include "text.h"

int origin_is_loopback(const char *text)
{
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, text, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, text, &a6) != 1)
        return 0;
    if (IN6_IS_ADDR_LOOPBACK(&a6))
        return 1;
    return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
}

/* The host name of a Host header ("name:port", "[v6]:port", "name") into
 * buf; -1 when it does not parse. */
static int host_name(const char *host, char *buf, size_t len)
{
    const char *end;
    if (host[0] == '[') {
        end = strchr(host, ']');
        if (!end || (end[1] && end[1] != ':'))
            return -1;
        host++;
    } else {
        end = strchr(host, ':');
        if (!end)
            end = host + strlen(host);
    }
    size_t n = (size_t)(end - host);
    if (n == 0 || n >= len)
        return -1;
    memcpy(buf, host, n);
    buf[n] = '\0';
    return 0;
}

/* 1 if the Host header names a loopback host. */
static int loopback_host(const char *host)
{
    char name[256];
    if (host_name(host, name, sizeof name))
        return 0;
    return !strcasecmp(name, "localhost") || !strcasecmp(name, "localhost.") ||
           origin_is_loopback(name);
}

int origin_check(const char *host, const char *origin, const char *fetch_site, int loopback,
                 char *why, size_t len)
{
    char a[96], b[96];
    if (fetch_site && strcmp(fetch_site, "same-origin") && strcmp(fetch_site, "none")) {
        snprintf(why, len, "the API answers only this server's own page: a request from "
                 "another site (Sec-Fetch-Site: %s) is refused",
                 text_clip(a, sizeof a, fetch_site, strlen(fetch_site), 32));
        return -1;
    }
    if (origin && !(host && !strncasecmp(origin, "http://", 7) &&
                    !strcasecmp(origin + 7, host))) {
        snprintf(why, len, "the API answers only this server's own page: a request from "
                 "origin %s is refused (this server is http://%s)",
                 text_clip(a, sizeof a, origin, strlen(origin), 64),
                 host ? text_clip(b, sizeof b, host, strlen(host), 64) : "(no Host header)");
        return -1;
    }
    if (loopback && host && !loopback_host(host)) {
        snprintf(why, len, "Host %s is not a name of this loopback server (allowed: "
                 "localhost, 127.x.x.x or [::1], with the port); requests for other names "
                 "are refused against DNS rebinding",
                 text_clip(a, sizeof a, host, strlen(host), 64));
        return -1;
    }
    return 0;
}
