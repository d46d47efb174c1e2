/*
 * cli_number.c - the one parser of numbers in option values (cli.h:
 * cli_parse_whole, cli_int, cli_u64, cli_real, cli_bytes).
 *
 * Why one: each command had its own strtol, strtoll or strtod, and they
 * disagreed - `serve --max-nodes 99999999999999999999999` was clamped to
 * 2^63-1 by an strtoll without an errno check where `solve --max-nodes`
 * refused it.  Here a value is a whole number only when it is an optional
 * sign and digits and nothing else (no spaces, no trailing letters), and a
 * value past the allowed range (or past 64 bits) is refused, never
 * clamped; each refusal is one line naming the option and the range, exit
 * status EXIT_USAGE.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The digits of text after an optional sign (and 0x with hex), as a
 * magnitude: 0, CLI_NUM_SYNTAX, or CLI_NUM_RANGE past 64 bits. */
static int magnitude(const char *text, int hex, int *neg, unsigned long long *mag)
{
    const char *p = text;
    int base = 10;
    *neg = *p == '-';
    if (*p == '+' || *p == '-')
        p++;
    if (hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!(base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
        return CLI_NUM_SYNTAX;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (*end)
        return CLI_NUM_SYNTAX;
    if (errno == ERANGE)
        return CLI_NUM_RANGE;
    *mag = v;
    return 0;
}

int cli_parse_whole(const char *text, long long lo, long long hi, long long *out)
{
    int neg;
    unsigned long long m;
    int rc = magnitude(text, 0, &neg, &m);
    if (rc)
        return rc;
    if (neg ? m > (unsigned long long)LLONG_MAX + 1 : m > (unsigned long long)LLONG_MAX)
        return CLI_NUM_RANGE;
    long long v = neg ? (long long)(0 - m) : (long long)m;
    if (v < lo || v > hi)
        return CLI_NUM_RANGE;
    *out = v;
    return 0;
}

int cli_int(const char *option, const char *text, long lo, long hi, long *out)
{
    long long v;
    if (cli_parse_whole(text, lo, hi, &v)) {
        cli_fail(EXIT_USAGE, "%s expects a whole number from %ld to %ld, not \"%s\"",
                 option, lo, hi, text);
        return -1;
    }
    *out = (long)v;
    return 0;
}

int cli_u64(const char *option, const char *text, uint64_t *out)
{
    int neg;
    unsigned long long m;
    if (magnitude(text, 1, &neg, &m) || neg) {
        cli_fail(EXIT_USAGE, "%s expects a whole number from 0 to %llu (or 0x and hex "
                 "digits), not \"%s\"", option, (unsigned long long)UINT64_MAX, text);
        return -1;
    }
    *out = (uint64_t)m;
    return 0;
}

int cli_real(const char *option, const char *text, double lo, double hi, int above,
             const char *expects, double *out)
{
    char *end;
    errno = 0;
    double v = (*text == '-' || *text == '+' || *text == '.' ||
                isdigit((unsigned char)*text)) ? strtod(text, &end) : NAN;
    int ok = !isnan(v) && !*end && errno != ERANGE && isfinite(v) &&
             (above ? v > lo : v >= lo) && v <= hi;
    if (!ok) {
        cli_fail(EXIT_USAGE, "%s expects %s, not \"%s\"", option, expects, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_bytes(const char *option, const char *text, uint64_t *out)
{
    size_t n = strlen(text);
    int shift = 0;
    char digits[32];
    if (n > 1 && n < sizeof digits)
        switch (text[n - 1]) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 't': case 'T': shift = 40; break;
        }
    snprintf(digits, sizeof digits, "%.*s", (int)(shift ? n - 1 : n), text);
    int neg;
    unsigned long long v = 0;
    if (n >= sizeof digits || magnitude(digits, 0, &neg, &v) || neg || *digits == '+' ||
        v == 0 || v > (~0ULL >> shift)) {
        cli_fail(EXIT_USAGE,
                 "%s expects a positive byte count such as 512M or 8G (at most 16 EiB "
                 "in all), not \"%s\"", option, text);
        return -1;
    }
    *out = (uint64_t)v << shift;
    return 0;
}
