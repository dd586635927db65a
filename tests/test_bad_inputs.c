/* The bad-input corpus: every file under tests/bad/ must give exactly the
 * message in its .msg file (written by hand as the specification of that
 * message: file, line, column, what is wrong, how to fix it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "job.h"
#include "testutil.h"

static char *slurp(const char *rel, size_t *len)
{
    FILE *f = fopen(src_path(rel), "rb");
    assert_non_null(f);
    char *b = malloc(1 << 16);
    *len = fread(b, 1, (1 << 16) - 1, f);
    b[*len] = '\0';
    fclose(f);
    return b;
}

static void expect_msg(const char *name, const keps_error *err)
{
    char rel[256];
    size_t n;
    snprintf(rel, sizeof rel, "tests/bad/%s.msg", name);
    char *want = slurp(rel, &n);
    while (n && (want[n - 1] == '\n' || want[n - 1] == '\r'))
        want[--n] = '\0';
    if (strcmp(want, err->msg) != 0)
        fprintf(stderr, "%s:\n  want: %s\n  got:  %s\n", name, want, err->msg);
    assert_string_equal(err->msg, want);
    free(want);
}

/* Loaders under test: each must fail with KEPS_EINPUT, give no object, and
 * produce the message in the .msg file. */
static keps_status load_csv(const char *d, size_t n, const char *name, int *made)
{
    keps_table *t = (keps_table *)1;
    keps_error err = {0};
    keps_status st = keps_csv_read_buffer(d, n, name, NULL, &t, &err);
    *made = t != NULL;
    expect_msg(name, &err);
    return st;
}

static keps_status load_hierarchy(const char *d, size_t n, const char *name, int *made)
{
    keps_hierarchy *h = (keps_hierarchy *)1;
    keps_error err = {0};
    keps_status st = keps_hierarchy_load_buffer(d, n, name, 0, &h, &err);
    *made = h != NULL;
    expect_msg(name, &err);
    return st;
}

static keps_status load_job(const char *d, size_t n, const char *name, int *made)
{
    keps_job *job = (keps_job *)1;
    keps_error err = {0};
    keps_status st = keps_job_load_buffer(d, n, name, &job, &err);
    *made = job != NULL;
    expect_msg(name, &err);
    return st;
}

static const struct {
    const char *file;
    keps_status (*load)(const char *, size_t, const char *, int *);
} cases[] = {
    {"ragged.csv", load_csv},
    {"ragged_crlf.csv", load_csv},
    {"unterminated.csv", load_csv},
    {"dupheader.csv", load_csv},
    {"badquote.csv", load_csv},
    {"empty.csv", load_csv},
    {"emptyname.csv", load_csv},
    {"nulbyte.csv", load_csv},
    {"blankline.csv", load_csv},
    {"stray_cr.csv", load_csv},
    {"hier_depth.hier", load_hierarchy},
    {"hier_inconsistent.hier", load_hierarchy},
    {"hier_duplicate.hier", load_hierarchy},
    {"hier_emptycell.hier", load_hierarchy},
    {"hier_header.hier", load_hierarchy},
    {"job_syntax.yml", load_job},
    {"job_nested.yml", load_job},
    {"job_twice.yml", load_job},
};

static void bad_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char rel[256];
        size_t len;
        int made;
        snprintf(rel, sizeof rel, "tests/bad/%s", cases[i].file);
        char *data = slurp(rel, &len);
        assert_int_equal(cases[i].load(data, len, cases[i].file, &made), KEPS_EINPUT);
        assert_false(made);
        free(data);
    }
}

static void non_numeric_cell(void **state)
{
    (void)state;
    size_t len;
    char *data = slurp("tests/bad/notnumeric.csv", &len);
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read_buffer(data, len, "notnumeric.csv", NULL, &t, &err), KEPS_OK);
    assert_int_equal(keps_table_numeric(t, 1, &err), KEPS_EINPUT);
    expect_msg("notnumeric.csv", &err);
    keps_table_free(t);
    /* hexadecimal is not a number in a data file; 0x1A = 1*16 + 10 = 26 */
    t = table_from_csv("v\n1\n0x1A\n");
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_EINPUT);
    assert_string_equal(err.msg, "test.csv:3:1: column 'v': '0x1A' is hexadecimal; numbers in data files are "
                                 "decimal (write 26)");
    keps_table_free(t);
    free(data);
}

/* The cell "s" alone in column v: its status from keps_table_numeric and,
 * when refused, the message. */
static keps_status one_cell(const char *s, double *x, keps_error *err)
{
    char csv[128];
    snprintf(csv, sizeof csv, "v\n%s\n", s);
    keps_table *t = table_from_csv(csv);
    keps_status st = keps_table_numeric(t, 0, err);
    if (!st)
        *x = keps_table_num(t, 0, 0);
    keps_table_free(t);
    return st;
}

/* Magnitudes up to KEPS_NUM_MAX = 1e100 are read, larger ones refused with
 * the cell's position and the bound: 1.7e308 is finite but its mean with
 * itself, (1.7e308 + 1.7e308)/2, overflows (the defect: MDAV released inf).
 * 1e400 is beyond every double (strtod's ERANGE overflow). A subnormal is
 * a number: 1e-320 / 2^-1074 = 1e-320 / 4.9406564584124654e-324 = 2024.02,
 * so it reads as 2024 * 2^-1074; 1e-400 is nearer 0 than to 2^-1074. */
static void number_magnitude_and_spelling(void **state)
{
    (void)state;
    keps_error err = {0};
    double x = NAN;
    assert_int_equal(one_cell("1e100", &x, &err), KEPS_OK);
    assert_true(x == 1e100);
    assert_int_equal(one_cell("-1e100", &x, &err), KEPS_OK);
    assert_true(x == -1e100);
    assert_int_equal(one_cell("1e-320", &x, &err), KEPS_OK);
    assert_true(x == ldexp(2024.0, -1074));
    assert_int_equal(one_cell("1e-400", &x, &err), KEPS_OK);
    assert_true(x == 0.0);
    const char *big[] = {"1.7e308", "-1.000001e100", "1e400"};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(one_cell(big[i], &x, &err), KEPS_EINPUT);
        char want[256];
        snprintf(want, sizeof want, "test.csv:2:1: column 'v': '%s' is too large: keps accepts numbers of "
                 "magnitude up to 1e+100, so that its sums, squares and noise stay finite; rescale the column",
                 big[i]);
        assert_string_equal(err.msg, want);
    }
    assert_int_equal(one_cell("0x1p-3", &x, &err), KEPS_EINPUT); /* 2^-3 = 0.125 */
    assert_non_null(strstr(err.msg, "'0x1p-3' is hexadecimal; numbers in data files are decimal (write 0.125)"));
    const char *nan_inf[] = {"inf", "-infinity", "nan"};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(one_cell(nan_inf[i], &x, &err), KEPS_EINPUT);
        assert_non_null(strstr(err.msg, "is not a number"));
    }
}

static void value_missing_from_hierarchy(void **state)
{
    (void)state;
    size_t dl, hl;
    char *data = slurp("tests/bad/bind_data.csv", &dl), *hd = slurp("tests/bad/bind_sex.hier", &hl);
    keps_table *t;
    keps_hierarchy *h;
    keps_error err = {0};
    assert_int_equal(keps_csv_read_buffer(data, dl, "bind_data.csv", NULL, &t, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_load_buffer(hd, hl, "bind_sex.hier", 0, &h, &err), KEPS_OK);
    uint32_t **map;
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_EINPUT);
    expect_msg("bind_data.csv", &err);
    keps_hierarchy_free(h);
    keps_table_free(t);
    free(data);
    free(hd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_files),
        cmocka_unit_test(non_numeric_cell),
        cmocka_unit_test(number_magnitude_and_spelling),
        cmocka_unit_test(value_missing_from_hierarchy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
