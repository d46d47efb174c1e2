/*
 * test_docs_cli.c - README.md against the binary: the command table names
 * exactly the commands of `slide --help`, each synopsis has the arguments
 * of a usage line of `slide CMD --help`, and the exit-status table is the
 * one `slide --help` prints, row for row.
 */
#include "testutil.h"

#include <ctype.h>

#include "clitest.h"

#define MAX_TOKENS 64
#define MAX_FORMS 64

struct form {
    char *tok[MAX_TOKENS];
    int n;
};

static char *readme(void)
{
    size_t len;
    char *t = test_read_file(TEST_DATA_DIR "/../../README.md", &len);
    assert_non_null(t);
    return t;
}

/* Standard output of `slide args` (exit 0) into *out (malloc'd). */
static void run_help(const char *args, char **out)
{
    assert_int_equal(clitest_run(args, NULL, out, NULL), 0);
}

/* Blank out [...] and (...) groups (nesting allowed) in place. */
static void drop_groups(char *s)
{
    int depth = 0;
    for (char *p = s; *p; p++) {
        if (*p == '[' || *p == '(')
            depth++;
        int in = depth > 0;
        if ((*p == ']' || *p == ')') && depth > 0)
            depth--;
        if (in)
            *p = ' ';
    }
}

/*
 * The positional words of a synopsis (modified in place): options and their
 * values ("--db FILE"), "|" and "-" are dropped; what is left is "slide",
 * the command, its action words and its arguments (RxC, BOARD, FILE...).
 */
static void positional(char *s, struct form *f)
{
    drop_groups(s);
    f->n = 0;
    int skip_value = 0;
    for (char *t = strtok(s, " \t\n`"); t; t = strtok(NULL, " \t\n`")) {
        if (t[0] == '-' && t[1] == '-') {
            skip_value = !strchr(t, '=');
            continue;
        }
        if (skip_value && isupper((unsigned char)t[0])) {
            skip_value = 0;
            continue;
        }
        skip_value = 0;
        /* "BOARD... | - | @FILE": - and @FILE are other spellings of BOARD */
        if (!strcmp(t, "|") || !strcmp(t, "-") || !strcmp(t, "@FILE"))
            continue;
        assert_true(f->n < MAX_TOKENS);
        f->tok[f->n++] = t;
    }
}

static int same_form(const struct form *a, const struct form *b)
{
    if (a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->tok[i], b->tok[i]) != 0)
            return 0;
    return 1;
}

/* The usage forms of `slide CMD --help`: its first lines, split at "slide". */
static int usage_forms(char *help, struct form *forms)
{
    char *end = help;
    for (char *nl; (nl = strchr(end, '\n')) && (end == help || *end == ' ');)
        end = nl + 1;
    *end = '\0';
    char *p = strstr(help, "usage:");
    assert_non_null(p);
    memset(p, ' ', 6);
    int n = 0;
    for (char *q = strstr(p, "slide "); q && n < MAX_FORMS; n++) {
        char *next = strstr(q + 6, "\n");
        next = next ? strstr(next, "slide ") : NULL;
        if (next)
            next[-1] = '\0';
        positional(q, &forms[n]);
        q = next;
    }
    return n;
}

/* "`slide db info\|verify FILE`" -> one form per alternative. */
static int expand(const char *code, char out[][512], int max)
{
    const char *bar = strstr(code, "\\|");
    if (!bar) {
        snprintf(out[0], 512, "%.500s", code);
        return 1;
    }
    const char *w0 = bar;
    while (w0 > code && w0[-1] != ' ')
        w0--;
    int n = 0;
    for (const char *alt = w0; alt && n < max;) {
        const char *stop = strstr(alt, "\\|");
        const char *sp = strchr(alt, ' ');
        size_t len = stop && (!sp || stop < sp) ? (size_t)(stop - alt)
                                                : (size_t)(sp ? sp - alt : (long)strlen(alt));
        const char *rest = sp ? sp : "";
        snprintf(out[n++], 512, "%.*s%.*s%.200s", (int)(w0 - code), code, (int)len, alt, rest);
        alt = stop && (!sp || stop < sp) ? stop + 2 : NULL;
    }
    return n;
}

/* The lines of the README section that starts with heading (NUL-ended copy). */
static char *section(const char *text, const char *heading)
{
    const char *p = strstr(text, heading);
    assert_non_null(p);
    p += strlen(heading);
    const char *end = strstr(p, "\n#");
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char *s = malloc(len + 1);
    memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

/* The command names of `slide --help`, NUL-separated in names. */
static int help_commands(char *help, char names[][32], int max)
{
    char *p = strstr(help, "commands:\n");
    assert_non_null(p);
    p += 10;
    int n = 0;
    while (*p == ' ' && n < max) {
        sscanf(p, " %31s", names[n++]);
        p = strchr(p, '\n') + 1;
    }
    return n;
}

static void test_command_table(void **state)
{
    (void)state;
    char *text = readme(), *help, *save = NULL;
    run_help("--help", &help);
    char *table = section(text, "## Commands\n");
    char names[32][32];
    int nnames = help_commands(help, names, 32), seen[32] = {0};
    int rows = 0;
    for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "| `slide ", 9) != 0)
            continue;
        rows++;
        char *cell_end = strstr(line + 2, " | ");
        assert_non_null(cell_end);
        *cell_end = '\0';
        /* every `slide ...` code span of the first cell */
        for (char *c = strstr(line, "`slide "); c; c = strstr(c, "`slide ")) {
            char *close = strchr(c + 1, '`');
            assert_non_null(close);
            *close = '\0';
            char alts[8][512], cmd[32], usage_cmd[64];
            int nalt = expand(c + 1, alts, 8);
            sscanf(c + 7, "%31s", cmd);
            int known = -1;
            for (int i = 0; i < nnames; i++)
                if (!strcmp(names[i], cmd))
                    known = i;
            if (known < 0)
                fail_msg("README names 'slide %s', which slide --help does not list", cmd);
            seen[known] = 1;
            snprintf(usage_cmd, sizeof usage_cmd, "%s --help", cmd);
            char *chelp;
            run_help(usage_cmd, &chelp);
            struct form forms[MAX_FORMS], mine;
            int nf = usage_forms(chelp, forms);
            for (int a = 0; a < nalt; a++) {
                char copy[512];
                memcpy(copy, alts[a], sizeof copy);
                positional(copy, &mine);
                int found = 0;
                for (int k = 0; k < nf && !found; k++)
                    found = same_form(&mine, &forms[k]);
                if (!found)
                    fail_msg("README's `%s` has the arguments of no usage line of "
                             "slide %s --help", alts[a], cmd);
            }
            free(chelp);
            c = close + 1;
        }
    }
    assert_true(rows > 0);
    for (int i = 0; i < nnames; i++)
        if (!seen[i])
            fail_msg("slide --help lists '%s' but README's command table does not",
                     names[i]);
    free(table);
    free(help);
    free(text);
}

static void test_exit_table(void **state)
{
    (void)state;
    char *text = readme(), *help, *save = NULL;
    run_help("--help", &help);
    char *table = section(text, "### Exit status\n");
    char *h = strstr(help, "Exit status (every command):\n");
    assert_non_null(h);
    h = strchr(h, '\n') + 1;
    int rows = 0;
    for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int code, used;
        if (sscanf(line, "| %d | %n", &code, &used) != 1)
            continue;
        char *meaning = line + used;
        size_t len = strlen(meaning);
        assert_true(len > 2 && !strcmp(meaning + len - 2, " |"));
        meaning[len - 2] = '\0';
        int hcode, hused;
        if (sscanf(h, " %d %n", &hcode, &hused) != 1)
            fail_msg("README has exit status %d; slide --help has no more rows", code);
        char *hl = h + hused, *nl = strchr(hl, '\n');
        assert_non_null(nl);
        *nl = '\0';
        if (hcode != code || strcmp(hl, meaning) != 0)
            fail_msg("README: %d \"%s\"; slide --help: %d \"%s\"", code, meaning, hcode, hl);
        h = nl + 1;
        rows++;
    }
    assert_true(rows >= 4);
    int extra;
    if (sscanf(h, " %d", &extra) == 1)
        fail_msg("slide --help has exit status %d, which README's table lacks", extra);
    free(table);
    free(help);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_table),
        cmocka_unit_test(test_exit_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
