/*
 * error.h - the error record that library functions fill in.
 *
 * Representation: a fixed buffer holding one line of text, no trailing
 * newline.  Library functions never print; on failure they write a message
 * that names the problem and what is allowed, and return a negative code.
 * Only the command-line tool prints the message (prefixed "slide: ").
 *
 * Invariant: after a function returns SLIDE_OK the record is untouched; after
 * it returns an error the message is non-empty.
 */
#ifndef SLIDE_ERROR_H
#define SLIDE_ERROR_H

#include <stddef.h>

enum slide_status {
    SLIDE_OK = 0,
    SLIDE_EINVAL = -1,   /* malformed input: board text, dimensions, options */
    SLIDE_ENOMEM = -2,   /* an allocation failed or the need exceeds the memory limit */
    SLIDE_ERANGE = -3,   /* a size that does not fit the representation (index > 64 bits) */
    SLIDE_EIO = -4,      /* a read, write, rename or close failed */
    SLIDE_EFORMAT = -5,  /* a file is corrupt, truncated or of another version */
    SLIDE_EUNSOLVABLE = -6, /* the board cannot reach the goal */
    SLIDE_EINTR = -7     /* interrupted on request (SIGINT); state was saved */
};

#define SLIDE_ERROR_LEN 512

typedef struct slide_error {
    char msg[SLIDE_ERROR_LEN];
} slide_error;

/*
 * Write a printf-style message into err (if err is not NULL) and return code.
 * Use as: return slide_fail(err, SLIDE_EINVAL, "tile %d appears twice", t);
 */
int slide_fail(slide_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
