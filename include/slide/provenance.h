/*
 * provenance.h - what built slide and where it runs, for the header of every
 * results file and for `slide --version`.
 *
 * The build fills in the version, git commit, compiler and flags (Makefile);
 * the host CPU, core count and date are read at run time.
 */
#ifndef SLIDE_PROVENANCE_H
#define SLIDE_PROVENANCE_H

#include <stddef.h>
#include <stdio.h>

const char *provenance_version(void);   /* "0.1.0" */
const char *provenance_commit(void);    /* git describe, or "unknown" */
const char *provenance_compiler(void);  /* compiler name and version */
const char *provenance_cflags(void);    /* the flags slide was built with */

/* CPU model name from /proc/cpuinfo (or "unknown") into buf. */
void provenance_cpu(char *buf, size_t len);

/* Peak resident memory of this process, bytes (getrusage), 0 if unknown. */
unsigned long long provenance_peak_rss(void);

/*
 * Write the provenance block, each line starting with `prefix` ("# " for
 * CSV and text, "% " for LaTeX, "<!-- " is not used: Markdown gets "> ").
 * Lines: tool version and commit; command; compiler and flags; host (CPU
 * model, online cores, physical memory in GiB) and threads; date (UTC);
 * and, when wall_seconds >= 0, the wall time with this process's user and
 * system CPU time and peak RSS so far (getrusage), so a reader can tell a
 * run that had its cores from one that shared them.
 */
void provenance_write(FILE *out, const char *prefix, const char *command,
                      int threads, double wall_seconds);

/* The block's last line alone (wall_seconds >= 0), for output that streams:
 * the block without it first (wall_seconds -1), this line at the end. */
void provenance_write_times(FILE *out, const char *prefix, double wall_seconds);

#endif
