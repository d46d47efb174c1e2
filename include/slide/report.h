/*
 * report.h - tables out: aligned text, CSV, Markdown and LaTeX (booktabs).
 *
 * A table is a header row and data rows of preformatted cells (strings).
 * CSV is the stable machine interface: a header line, one record per line,
 * fields quoted only when they contain a comma or quote.  Markdown and LaTeX
 * right-align numeric columns.  Text pads columns to `width`.
 */
#ifndef SLIDE_REPORT_H
#define SLIDE_REPORT_H

#include <stdio.h>

enum report_format { REPORT_TEXT, REPORT_CSV, REPORT_MD, REPORT_TEX };

/* Parse "text", "csv", "md" or "tex"; -1 for anything else. */
int report_format_parse(const char *name);

struct report_table {
    FILE *out;
    enum report_format format;
    int ncols;
    const char *const *headers;  /* ncols names */
    const char *caption;         /* LaTeX caption, or NULL */
    int width;                   /* text column width; 0 means 12 */
};

void report_begin(const struct report_table *t);
void report_row(const struct report_table *t, const char *const *cells);
void report_end(const struct report_table *t);

#endif
