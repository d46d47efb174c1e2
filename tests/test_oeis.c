/*
 * test_oeis.c - scripts/oeis.sh (make oeis): the quick set of OEIS
 * sequences computed by slide agrees term by term with the published terms
 * of tests/data/oeis.tsv (independent: copied from the OEIS), and each
 * b-file holds exactly those terms; a wrong published term is reported as
 * a disagreement naming the term (exit 1); terms beyond the published ones
 * count as new only when the second computation (the goal's half-turn
 * image) agrees, and are dropped, with the reason, when it does not (a
 * stand-in slide that miscounts from that image).
 */
#include "testutil.h"

#include "scripttest.h"

#define DIR scripttest_dir()

/* The published terms of anum in tests/data/oeis.tsv (read here, not by
 * the script), comma-separated, into buf. */
static void published_terms(const char *anum, char *buf, size_t len)
{
    FILE *f = fopen(TEST_DATA_DIR "/oeis.tsv", "r");
    assert_non_null(f);
    char line[8192];
    buf[0] = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, anum, strlen(anum)) != 0)
            continue;
        char *field = line;
        for (int i = 0; i < 6; i++)
            field = strchr(field, '\t') + 1; /* the terms are the 7th field */
        size_t n = strcspn(field, "\t");
        assert_true(n < len);
        memcpy(buf, field, n);
        buf[n] = 0;
    }
    fclose(f);
    assert_true(buf[0] != 0);
}

/* The b-file's terms as "a,b,c" (lines "n a(n)" after '#' lines), checking
 * that n runs from offset 0 without gaps. */
static void bfile_terms(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    long want = 0;
    buf[0] = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        long n;
        char value[64];
        assert_int_equal(sscanf(line, "%ld %63s", &n, value), 2);
        assert_int_equal(n, want++);
        assert_true(strlen(buf) + strlen(value) + 2 < len);
        if (buf[0])
            strcat(buf, ",");
        strcat(buf, value);
    }
    fclose(f);
}

static void test_quick_set_agrees(void **state)
{
    (void)state;
    char *out;
    int rc = scripttest_sh(&out, "sh " SCRIPTTEST_ROOT "/scripts/oeis.sh --quick --out '%s/o'", DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    free(out);
    /* every row agrees, none of the registry's rows is left out */
    assert_int_equal(scripttest_sh(&out, "grep -c '^A[0-9]*,' '%s/o/table.csv'", DIR), 0);
    int rows = atoi(out);
    free(out);
    assert_int_equal(scripttest_sh(&out, "grep -c '^A[0-9]*\t' " TEST_DATA_DIR "/oeis.tsv"), 0);
    assert_int_equal(rows, atoi(out));
    assert_true(rows >= 21);
    free(out);
    assert_int_equal(scripttest_sh(&out, "grep '^A' '%s/o/table.csv' | grep -vc '\"agree'", DIR), 1);
    assert_int_equal(atoi(out), 0);
    free(out);
    /* complete histograms: the b-file is the published sequence */
    const char *full[] = {"A089473", "A089474", "A089483", "A090034", "A090035", "A090036"};
    for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) {
        char want[8192], got[8192], path[256];
        published_terms(full[i], want, sizeof want);
        snprintf(path, sizeof path, "%s/o/b%s.txt", DIR, full[i] + 1);
        bfile_terms(path, got, sizeof got);
        assert_string_equal(got, want);
    }
    /* a partial one: a prefix of the published terms, 19 of them (depth 18) */
    char want[8192], got[8192], path[256];
    published_terms("A090164", want, sizeof want);
    snprintf(path, sizeof path, "%s/o/b090164.txt", DIR);
    bfile_terms(path, got, sizeof got);
    assert_int_equal(strncmp(got, want, strlen(got)), 0);
    assert_int_equal(want[strlen(got)], ',');
    assert_string_equal(got + strlen(got) - 13, "355330,682250"); /* a(17), a(18) */
    /* the multi-tile metric (A389728, slide frontier --metric mtm): 13 terms */
    published_terms("A389728", want, sizeof want);
    snprintf(path, sizeof path, "%s/o/b389728.txt", DIR);
    bfile_terms(path, got, sizeof got);
    assert_int_equal(strncmp(got, want, strlen(got)), 0);
    assert_int_equal(want[strlen(got)], ',');
    assert_string_equal(got + strlen(got) - 13, "289534,808623"); /* a(11), a(12) */
}

/* A registry holding one row of tests/data/oeis.tsv with its terms changed
 * by the sed expression edit. */
static void registry(const char *anum, const char *edit)
{
    char *out;
    assert_int_equal(scripttest_sh(&out, "grep '^%s\t' " TEST_DATA_DIR "/oeis.tsv | sed '%s' > '%s/reg.tsv'",
                                   anum, edit, DIR), 0);
    free(out);
}

static void test_wrong_term_reported(void **state)
{
    (void)state;
    registry("A089483", "s/,14,28,/,14,29,/"); /* a(5) is 28 */
    char *out;
    int rc = scripttest_sh(&out, "OEIS_DATA='%s/reg.tsv' sh " SCRIPTTEST_ROOT
                           "/scripts/oeis.sh --quick --out '%s/o'", DIR, DIR);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "differs at a(5): OEIS 29, slide 28"));
    free(out);
    assert_int_equal(scripttest_sh(&out, "cat '%s/o/table.csv'", DIR), 0);
    assert_non_null(strstr(out, "differs at a(5)"));
    free(out);
}

static void test_new_terms_checked_twice(void **state)
{
    (void)state;
    /* the 3x3 corner sequence with its last five terms removed: slide's
     * five further terms are new, confirmed from the goal's image */
    registry("A089473", "s/,14560,6274,3910,760,221,2\t/,14560\t/");
    char *out;
    int rc = scripttest_sh(&out, "OEIS_DATA='%s/reg.tsv' sh " SCRIPTTEST_ROOT
                           "/scripts/oeis.sh --quick --out '%s/o'", DIR, DIR);
    if (rc)
        print_message("%s", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "new terms a(27..31) checked by the goal's half-turn image"));
    free(out);
    char got[8192], path[256];
    snprintf(path, sizeof path, "%s/o/b089473.txt", DIR);
    bfile_terms(path, got, sizeof got);
    assert_string_equal(got + strlen(got) - 25, "14560,6274,3910,760,221,2");

    /* a stand-in slide that adds one to the last count when the blank is
     * in the top-left cell (the image): the new terms are not confirmed */
    const char *slide = getenv("SLIDE");
    assert_non_null(slide);
    char fake[4096];
    snprintf(fake, sizeof fake,
             "#!/bin/sh\n"
             "case \"$*\" in\n"
             "  *\"--goal 0 \"*) '%s' \"$@\" | awk -F, 'NR > 1 && $1 == 31 { $2 = $2 + 1; print $1 \",\" $2; next } { print }' ;;\n"
             "  *) exec '%s' \"$@\" ;;\n"
             "esac\n", slide, slide);
    char fakepath[256];
    snprintf(fakepath, sizeof fakepath, "%s/slide", DIR);
    scripttest_write(fakepath, fake, 1);
    rc = scripttest_sh(&out, "SLIDE='%s' OEIS_DATA='%s/reg.tsv' sh " SCRIPTTEST_ROOT
                       "/scripts/oeis.sh --quick --out '%s/o2'", fakepath, DIR, DIR);
    assert_int_equal(rc, 0); /* the published terms still agree */
    assert_non_null(strstr(out, "NOT confirmed"));
    free(out);
    snprintf(path, sizeof path, "%s/o2/b089473.txt", DIR);
    bfile_terms(path, got, sizeof got);
    assert_string_equal(got + strlen(got) - 5, "14560"); /* nothing new kept */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_quick_set_agrees, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_term_reported, scripttest_setup, scripttest_teardown),
        cmocka_unit_test_setup_teardown(test_new_terms_checked_twice, scripttest_setup, scripttest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
