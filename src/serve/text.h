/*
 * text.h - bytes from a request made safe to echo in a JSON answer
 * (internal).
 *
 * A JSON text must be valid UTF-8 (RFC 8259), and Jansson refuses to make
 * a string of anything else.  What a client sends is not: the method and
 * path of a request line, a query's bytes after percent-decoding, or a
 * prefix of a field name cut at a byte count.  Everything echoed in an
 * error goes through text_clip, which cuts only between characters and
 * writes every byte that is not part of a valid character as the four
 * characters \xHH, so the message stays one readable line and the answer
 * keeps its 4xx status.
 *
 * Valid UTF-8 here is RFC 3629's: 1 to 4 bytes, no overlong forms, no
 * surrogates (U+D800..U+DFFF), nothing above U+10FFFF - the rule Jansson
 * applies.
 */
#ifndef SLIDE_SERVE_TEXT_H
#define SLIDE_SERVE_TEXT_H

#include <stddef.h>

/*
 * The length (1..4) of the valid UTF-8 character that p[0..n) starts with;
 * 0 when it starts with none (n == 0, a stray continuation byte, an
 * overlong form, a surrogate, a code point above U+10FFFF), and -1 when
 * p[0..n) is the valid beginning of a character that n cuts short.
 */
int utf8_char(const unsigned char *p, size_t n);

/* The offset of the first byte of s[0..len) that is NUL or not part of a
 * valid UTF-8 character; len when there is none. */
size_t utf8_check(const char *s, size_t len);

/*
 * s[0..len) into dst (cap > 0 bytes, NUL-terminated) as valid UTF-8 of at
 * most max bytes before the NUL: whole characters only, "..." after the
 * last one when more of s did not fit, every invalid byte and every
 * control character written \xHH, a character cut short by the end of s
 * left out.  Returns dst.
 */
char *text_clip(char *dst, size_t cap, const char *s, size_t len, size_t max);

#endif
