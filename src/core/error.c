/* error.c - formatting of library error messages (see error.h). */
#include "slide/error.h"

#include <stdarg.h>
#include <stdio.h>

int slide_fail(slide_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}
