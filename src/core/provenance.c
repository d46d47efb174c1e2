/*
 * provenance.c - build and host facts (provenance.h).
 */
#include "slide/provenance.h"

#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef SLIDE_VERSION
#define SLIDE_VERSION "0.0.0"
#endif
#ifndef SLIDE_COMMIT
#define SLIDE_COMMIT "unknown"
#endif
#ifndef SLIDE_CFLAGS_USED
#define SLIDE_CFLAGS_USED "unknown"
#endif

const char *provenance_version(void) { return SLIDE_VERSION; }
const char *provenance_commit(void) { return SLIDE_COMMIT; }
const char *provenance_cflags(void) { return SLIDE_CFLAGS_USED; }

const char *provenance_compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

void provenance_cpu(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v += 1 + (v[1] == ' ');
                v[strcspn(v, "\n")] = '\0';
                snprintf(buf, len, "%s", v);
            }
            break;
        }
    }
    fclose(f);
}

unsigned long long provenance_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (unsigned long long)ru.ru_maxrss * 1024ULL;
}

void provenance_write(FILE *out, const char *prefix, const char *command,
                      int threads, double wall_seconds)
{
    char cpu[256], date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    provenance_cpu(cpu, sizeof cpu);
    fprintf(out, "%sslide %s (commit %s)\n", prefix, provenance_version(),
            provenance_commit());
    fprintf(out, "%scommand: %s\n", prefix, command);
    fprintf(out, "%scompiler: %s; flags: %s\n", prefix, provenance_compiler(),
            provenance_cflags());
    double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    fprintf(out, "%shost: %s, %ld cores, %.1f GiB; threads: %d\n", prefix, cpu,
            sysconf(_SC_NPROCESSORS_ONLN), ram / 1073741824.0, threads);
    fprintf(out, "%sdate: %s\n", prefix, date);
    if (wall_seconds >= 0)
        provenance_write_times(out, prefix, wall_seconds);
}

void provenance_write_times(FILE *out, const char *prefix, double wall_seconds)
{
    /* CPU time beside wall time shows whether the run had its cores */
    struct rusage ru;
    double user = 0, sys = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
        sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    }
    fprintf(out, "%swall time: %.3f s; CPU time: user %.1f s, system %.1f s; "
                 "peak RSS: %.1f MB\n",
            prefix, wall_seconds, user, sys, provenance_peak_rss() / 1e6);
}
