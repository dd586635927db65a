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
    /* hexadecimal is not a number in a data file */
    t = table_from_csv("v\n1\n0x1A\n");
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_EINPUT);
    assert_string_equal(err.msg, "test.csv:3:1: column 'v': '0x1A' is not a number; a numeric column needs a "
                                 "finite number or the missing token '' in every cell");
    keps_table_free(t);
    free(data);
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
        cmocka_unit_test(value_missing_from_hierarchy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
