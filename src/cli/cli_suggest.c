/*
 * cli_suggest.c - "did you mean ...?": the known name nearest to a
 * misspelt word by edit distance (insertions, deletions, substitutions and
 * transpositions of neighbours, each 1: the optimal string alignment
 * distance of Damerau 1964), so that `slide sovle` names solve.
 */
#include <string.h>

#include "cli.h"

/* Words longer than this are not compared (no command is near them). */
#define SUGGEST_MAX 32

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

int cli_edit_distance(const char *a, const char *b)
{
    int n = (int)strlen(a), m = (int)strlen(b);
    if (n > SUGGEST_MAX || m > SUGGEST_MAX)
        return SUGGEST_MAX + 1;
    int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[n][m];
}

const char *cli_suggest(const char *word, const char *const *names, size_t count)
{
    const char *best = NULL;
    int best_d = 0;
    size_t len = strlen(word);
    /* at most 2 edits, and fewer than half the word's letters */
    int limit = len >= 5 ? 2 : 1;
    for (size_t i = 0; i < count; i++) {
        int d = cli_edit_distance(word, names[i]);
        if (d <= limit && (!best || d < best_d)) {
            best = names[i];
            best_d = d;
        }
    }
    return best;
}
