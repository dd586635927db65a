/* The bad-input corpus: every file under tests/bad/ must give exactly the
 * message in its .msg file (written by hand as the specification of that
 * message: file, line, column, what is wrong, how to fix it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "keps/job.h"
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

static const char *const csv_cases[] = {"ragged.csv",   "ragged_crlf.csv", "unterminated.csv", "dupheader.csv",
                                        "badquote.csv", "empty.csv",       "emptyname.csv", "nulbyte.csv"};

static void bad_csv_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof csv_cases / sizeof *csv_cases; i++) {
        char rel[256];
        size_t len;
        snprintf(rel, sizeof rel, "tests/bad/%s", csv_cases[i]);
        char *data = slurp(rel, &len);
        keps_table *t = (keps_table *)1;
        keps_error err = {0};
        assert_int_equal(keps_csv_read_buffer(data, len, csv_cases[i], NULL, &t, &err), KEPS_EINPUT);
        assert_null(t);
        expect_msg(csv_cases[i], &err);
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
    /* hexadecimal is not a number in a data file */
    t = table_from_csv("v\n1\n0x1A\n");
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_EINPUT);
    assert_string_equal(err.msg, "test.csv:3:1: column 'v': '0x1A' is not a number; a numeric column needs a "
                                 "finite number or the missing token '' in every cell");
    keps_table_free(t);
    free(data);
}

static const char *const hier_cases[] = {"hier_depth.hier", "hier_inconsistent.hier", "hier_duplicate.hier",
                                         "hier_emptycell.hier"};

static void bad_hierarchies(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof hier_cases / sizeof *hier_cases; i++) {
        char rel[256];
        size_t len;
        snprintf(rel, sizeof rel, "tests/bad/%s", hier_cases[i]);
        char *data = slurp(rel, &len);
        keps_hierarchy *h = (keps_hierarchy *)1;
        keps_error err = {0};
        assert_int_equal(keps_hierarchy_load_buffer(data, len, hier_cases[i], 0, &h, &err), KEPS_EINPUT);
        assert_null(h);
        expect_msg(hier_cases[i], &err);
        free(data);
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

static const char *const job_cases[] = {"job_syntax.yml", "job_nested.yml", "job_twice.yml"};

static void bad_job_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof job_cases / sizeof *job_cases; i++) {
        char rel[256];
        size_t len;
        snprintf(rel, sizeof rel, "tests/bad/%s", job_cases[i]);
        char *data = slurp(rel, &len);
        keps_job *job = (keps_job *)1;
        keps_error err = {0};
        assert_int_equal(keps_job_load_buffer(data, len, job_cases[i], &job, &err), KEPS_EINPUT);
        assert_null(job);
        expect_msg(job_cases[i], &err);
        free(data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_csv_files),        cmocka_unit_test(non_numeric_cell),
        cmocka_unit_test(bad_hierarchies),      cmocka_unit_test(value_missing_from_hierarchy),
        cmocka_unit_test(bad_job_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
