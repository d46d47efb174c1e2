/*
 * report.c - table formatting (report.h).
 */
#include "slide/report.h"

#include <string.h>

int report_format_parse(const char *name)
{
    static const char *names[] = {"text", "csv", "md", "tex"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* LaTeX special characters in cell text. */
static void tex_field(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("&%$#_{}", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

static void write_row(const struct report_table *t, const char *const *cells)
{
    int w = t->width > 0 ? t->width : 12;
    for (int i = 0; i < t->ncols; i++) {
        switch (t->format) {
        case REPORT_TEXT:
            fprintf(t->out, i ? " %*s" : "%*s", w, cells[i]);
            break;
        case REPORT_CSV:
            if (i)
                fputc(',', t->out);
            csv_field(t->out, cells[i]);
            break;
        case REPORT_MD:
            fprintf(t->out, "| %s ", cells[i]);
            break;
        case REPORT_TEX:
            if (i)
                fputs(" & ", t->out);
            tex_field(t->out, cells[i]);
            break;
        }
    }
    fputs(t->format == REPORT_MD ? "|\n" : t->format == REPORT_TEX ? " \\\\\n" : "\n",
          t->out);
}

void report_begin(const struct report_table *t)
{
    if (t->format == REPORT_TEX) {
        fputs("\\begin{table}\n\\centering\n", t->out);
        if (t->caption) {
            fputs("\\caption{", t->out);
            tex_field(t->out, t->caption);
            fputs("}\n", t->out);
        }
        fputs("\\begin{tabular}{", t->out);
        for (int i = 0; i < t->ncols; i++)
            fputc('r', t->out);
        fputs("}\n\\toprule\n", t->out);
    }
    write_row(t, t->headers);
    if (t->format == REPORT_MD) {
        for (int i = 0; i < t->ncols; i++)
            fputs("|---:", t->out);
        fputs("|\n", t->out);
    } else if (t->format == REPORT_TEX) {
        fputs("\\midrule\n", t->out);
    }
}

void report_row(const struct report_table *t, const char *const *cells)
{
    write_row(t, cells);
}

void report_end(const struct report_table *t)
{
    if (t->format == REPORT_TEX)
        fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", t->out);
}
