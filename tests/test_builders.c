/* Hierarchy builders and the missing value in hierarchy files. Expected
 * labels are worked out by hand in the comments, from the rules in
 * keps/hierarchy.h (ARX's builders' labels: "<18", ">=90", "[a, b]",
 * "[2020, 2030["); tests/oracles/hierarchy_oracle.py checks random cases
 * against an independent Python implementation. */
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "testutil.h"

/* Builds spec over the one column of csv; fails the test on error. */
static keps_hierarchy *build(keps_table *t, const char *spec)
{
    keps_hierarchy *h;
    keps_error err = {0};
    keps_status st = keps_hierarchy_build_text(t, 0, spec, &h, &err);
    if (st)
        fprintf(stderr, "%s: %s\n", spec, err.msg);
    assert_int_equal(st, KEPS_OK);
    return h;
}

/* Fails unless row r of h reads want[0..levels) (rows are in builder order). */
static void row_is(const keps_hierarchy *h, size_t r, const char *const *want)
{
    for (int l = 0; l <= keps_hierarchy_height(h); l++) {
        const char *got = keps_table_str(h->levels, (size_t)l, r);
        if (strcmp(got, want[l]))
            fprintf(stderr, "row %zu level %d: got '%s', want '%s'\n", r, l, got, want[l]);
        assert_string_equal(got, want[l]);
    }
}

static void expect_error(keps_table *t, const char *spec, const char *part)
{
    keps_hierarchy *h = (keps_hierarchy *)1;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_build_text(t, 0, spec, &h, &err), KEPS_EINPUT);
    assert_null(h);
    if (!strstr(err.msg, part))
        fprintf(stderr, "%s: got '%s', want '%s'\n", spec, err.msg, part);
    assert_non_null(strstr(err.msg, part));
}

/* The brief's example: 01097 -> 0109* -> 010** -> 01***, then *. Values
 * shorter than the longest (5 characters) are padded on the right with '*'
 * first, as ARX's redaction builder does: "123" is "123**", so masking 1
 * or 2 characters leaves "123**", 3 leaves "12***". UTF-8 counts
 * characters: "Zü" is 2 characters (3 bytes), padded "Zü***". The missing
 * value (empty) stays itself below the top; rows sort by bytes, missing last. */
static void mask_builder(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("zip\n01097\n123\n\"\"\n01099\nZ\xc3\xbc\n");
    keps_hierarchy *h = build(t, "mask=1,2,3");
    assert_int_equal(keps_hierarchy_height(h), 4);
    const char *r0[] = {"01097", "0109*", "010**", "01***", "*"};
    const char *r1[] = {"01099", "0109*", "010**", "01***", "*"};
    const char *r2[] = {"123", "123**", "123**", "12***", "*"};
    const char *r3[] = {"Z\xc3\xbc", "Z\xc3\xbc***", "Z\xc3\xbc***", "Z\xc3\xbc***", "*"};
    const char *r4[] = {"", "", "", "", "*"};
    row_is(h, 0, r0);
    row_is(h, 1, r1);
    row_is(h, 2, r2);
    row_is(h, 3, r3);
    row_is(h, 4, r4);
    keps_hierarchy_free(h);
    /* masking all 5 characters is the top itself */
    expect_error(t, "mask=1,5", "not below the longest value's length 5");
    expect_error(t, "mask=2,1", "must increase");
    keps_table_free(t);
}

/* order=2,4 over the sorted distinct values. Numbers sort by value (9
 * before 10), strings by bytes ("10" before "9"). Numeric 1,2,9,10,11:
 * runs of 2: [1, 2] [9, 10] [11, 11]; runs of 4: [1, 10] [11, 11]. */
static void order_builder(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("v\n10\n2\n9\n1\n11\n");
    keps_hierarchy *h = build(t, "order=2,4");
    const char *want[][4] = {{"1", "[1, 2]", "[1, 10]", "*"},
                             {"2", "[1, 2]", "[1, 10]", "*"},
                             {"9", "[9, 10]", "[1, 10]", "*"},
                             {"10", "[9, 10]", "[1, 10]", "*"},
                             {"11", "[11, 11]", "[11, 11]", "*"}};
    for (size_t r = 0; r < 5; r++)
        row_is(h, r, want[r]);
    keps_hierarchy_free(h);
    /* numeric = 0: strings by bytes: 1 < 10 < 11 < 2 < 9 */
    keps_error err = {0};
    const unsigned runs[] = {2};
    assert_int_equal(keps_hierarchy_order(t, 0, runs, 1, 0, &h, &err), KEPS_OK);
    const char *bytes[][3] = {{"1", "[1, 10]", "*"}, {"10", "[1, 10]", "*"}, {"11", "[11, 2]", "*"},
                              {"2", "[11, 2]", "*"}, {"9", "[9, 9]", "*"}};
    for (size_t r = 0; r < 5; r++)
        row_is(h, r, bytes[r]);
    keps_hierarchy_free(h);
    expect_error(t, "order=2,3", "not a multiple");
    expect_error(t, "order=1", "from 2");
    expect_error(t, "order=2,top=5", "bottom= and top= go with interval=");
    keps_table_free(t);
    /* a column with a leading zero is categorical: sorted as strings */
    t = table_from_csv("v\n010\n9\n");
    h = build(t, "order=2");
    assert_string_equal(keps_table_str(h->levels, 1, 0), "[010, 9]");
    keps_hierarchy_free(h);
    keps_table_free(t);
}

/* Dates: month 2020-02, quarter 2020-Q1, year 2020, decade [2020, 2030[
 * (ARX's label), century [2000, 2100[. 2020-02-29 is a real date (2020 is a
 * leap year); 2019-02-29 and 1900-02-29 are not (1900: divisible by 100,
 * not by 400), 2000-02-29 is. Times are accepted after 'T' or a space. */
static void date_builder(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("d\n2020-02-29\n1999-12-31T23:59:59\n2000-02-29 08:30\n");
    keps_hierarchy *h = build(t, "date=month,quarter,year,decade,century");
    const char *want[][7] = {
        {"1999-12-31T23:59:59", "1999-12", "1999-Q4", "1999", "[1990, 2000[", "[1900, 2000[", "*"},
        {"2000-02-29 08:30", "2000-02", "2000-Q1", "2000", "[2000, 2010[", "[2000, 2100[", "*"},
        {"2020-02-29", "2020-02", "2020-Q1", "2020", "[2020, 2030[", "[2000, 2100[", "*"}};
    for (size_t r = 0; r < 3; r++)
        row_is(h, r, want[r]);
    keps_hierarchy_free(h);
    /* bottom/top coding with dates, compared as times */
    h = build(t, "date=year,bottom=2000-01-01,top=2020-02-29");
    const char *coded[][3] = {{"1999-12-31T23:59:59", "<2000-01-01", "*"},
                              {"2000-02-29 08:30", "2000", "*"},
                              {"2020-02-29", ">=2020-02-29", "*"}};
    for (size_t r = 0; r < 3; r++)
        row_is(h, r, coded[r]);
    keps_hierarchy_free(h);
    keps_table_free(t);
    const char *bad[] = {"2019-02-29", "1900-02-29", "31/12/2020", "2020-1-5", "2020-01-01T24:00", "2020-01-01Z"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char csv[80];
        snprintf(csv, sizeof csv, "d\n2020-01-01\n%s\n", bad[i]);
        t = table_from_csv(csv);
        expect_error(t, "date=year", ":3:1: column 'd': '");
        expect_error(t, "date=year", "is not an ISO 8601 date");
        keps_table_free(t);
    }
    t = table_from_csv("d\n2020-01-01\n");
    expect_error(t, "date=year,month", "coarser");
    expect_error(t, "date=week", "date units are day, month");
    keps_table_free(t);
}

/* Intervals with ARX's bottom and top coding: width 5, 10, 20, bottom 18,
 * top 90. 17 < 18: "<18" on every level; 18: [15-20[ cut at 18 is [18-20[,
 * and [10-20[, [0-20[ likewise; 89: [85-90[, [80-90[, [80-100[ cut at 90 is
 * [80-90[; 90 and 95: ">=90". */
static void interval_coding(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age\n17\n18\n89\n90\n95\n");
    keps_hierarchy *h = build(t, "interval=5,10,20,bottom=18,top=90");
    const char *want[][5] = {{"17", "<18", "<18", "<18", "*"},
                             {"18", "[18-20[", "[18-20[", "[18-20[", "*"},
                             {"89", "[85-90[", "[80-90[", "[80-90[", "*"},
                             {"90", ">=90", ">=90", ">=90", "*"},
                             {"95", ">=90", ">=90", ">=90", "*"}};
    for (size_t r = 0; r < 5; r++)
        row_is(h, r, want[r]);
    keps_hierarchy_free(h);
    /* coding alone: one level, the rest kept */
    h = build(t, "top=90");
    const char *top[][3] = {{"17", "17", "*"}, {"18", "18", "*"}, {"89", "89", "*"}, {"90", ">=90", "*"},
                            {"95", ">=90", "*"}};
    for (size_t r = 0; r < 5; r++)
        row_is(h, r, top[r]);
    keps_hierarchy_free(h);
    expect_error(t, "interval=5,7", "not a multiple");
    expect_error(t, "bottom=90,top=18", "must lie below top");
    expect_error(t, "interval=5,mask=1", "one builder at a time");
    expect_error(t, "size=5", "unknown key 'size'");
    expect_error(t, "interval=", "an empty value");
    keps_table_free(t);
    t = table_from_csv("age\n"); /* no values: nothing to build (found by fuzz_builder) */
    expect_error(t, "interval=5", "column 'age' holds no values");
    keps_table_free(t);
}

/* Decimal widths are exact: 0.3 / 0.1 is 2.9999999999999996 in doubles,
 * which put 0.3 into [0.2-0.3[ (a label that excludes it). In decimal,
 * 0.3 lies in [0.3-0.4[ and 0.25 in [0.2-0.3[; width 0.2: [0.2-0.4[ for
 * both. With a decimal comma the labels use ','. */
static void interval_decimals(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("x\n0.3\n0.25\n-0.05\n");
    keps_hierarchy *h = build(t, "interval=0.1,0.2");
    const char *want[][4] = {{"-0.05", "[-0.1-0[", "[-0.2-0[", "*"},
                             {"0.25", "[0.2-0.3[", "[0.2-0.4[", "*"},
                             {"0.3", "[0.3-0.4[", "[0.2-0.4[", "*"}};
    for (size_t r = 0; r < 3; r++)
        row_is(h, r, want[r]);
    keps_hierarchy_free(h);
    keps_table_free(t);
    t = table_from_csv("x\n\"0,3\"\n\"1,25\"\n");
    t->decimal_comma = 1;
    h = build(t, "interval=0.5");
    assert_string_equal(keps_table_str(h->levels, 1, 0), "[0-0,5[");
    assert_string_equal(keps_table_str(h->levels, 1, 1), "[1-1,5[");
    keps_hierarchy_free(h);
    keps_table_free(t);
}

/* A written hierarchy reads back as the same hierarchy. */
static void write_round_trip(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("zip\n01097\n\"a;b\"\n");
    keps_hierarchy *h = build(t, "mask=1"), *back;
    const char *path = temp_file("");
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_write(h, path, 0, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_load(path, 0, &back, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_height(back), 2);
    for (size_t r = 0; r < 2; r++)
        for (size_t l = 0; l < 3; l++)
            assert_string_equal(keps_table_str(back->levels, l, r), keps_table_str(h->levels, l, r));
    assert_string_equal(keps_table_str(back->levels, 1, 1), "a;b**"); /* quoted on write: ';' separates */
    keps_hierarchy_free(back);
    keps_hierarchy_free(h);
    keps_table_free(t);
}

/* The missing value written as the empty field: a row ";;*" (or the short
 * path ";*") is allowed; an empty cell elsewhere is not. Binding data with
 * an empty cell to a hierarchy without that row names the row to add,
 * spelled for the hierarchy: height 2, separator ';', top '*': ";;*". */
static void missing_value_row(void **state)
{
    (void)state;
    const char *good[] = {"a;x;*\nb;x;*\n;;*\n", "a;x;*\nb;x;*\n;*\n"};
    keps_table *t = table_from_csv("v,w\na,1\n,2\n");
    for (size_t i = 0; i < 2; i++) {
        keps_hierarchy *h;
        keps_error err = {0};
        keps_status st = keps_hierarchy_load_buffer(good[i], strlen(good[i]), "h.csv", 0, &h, &err);
        if (st)
            fprintf(stderr, "%s\n", err.msg);
        assert_int_equal(st, KEPS_OK);
        uint32_t **map;
        assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_OK);
        uint32_t miss = t->cols[0].codes[1];
        assert_string_equal(keps_hierarchy_label(h, 1, map[1][miss]), "");
        assert_string_equal(keps_hierarchy_label(h, 2, map[2][miss]), "*");
        keps_hierarchy_map_free(map, h);
        keps_hierarchy_free(h);
    }
    const char *bad = "a;;*\n;x;*\n";
    keps_hierarchy *h;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(bad, strlen(bad), "h.csv", 0, &h, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "h.csv:1:2: empty value at level 1"));
    const char *nomiss = "a;x;*\nb;x;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(nomiss, strlen(nomiss), "h.csv", 0, &h, &err), KEPS_OK);
    uint32_t **map;
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_EINPUT);
    if (!strstr(err.msg, "add the row ';;*'"))
        fprintf(stderr, "%s\n", err.msg);
    assert_non_null(strstr(err.msg, ":3:1: column 'v': the missing value (the empty field) is not in the hierarchy "
                                    "h.csv; add the row ';;*'"));
    keps_hierarchy_free(h);
    keps_table_free(t);
    /* a missing token '?' is an ordinary string in the file: "?;?;*" */
    keps_csv_options o = {.missing = "?"};
    const char *csv = "v\na\n?\n";
    assert_int_equal(keps_csv_read_buffer(csv, strlen(csv), "d.csv", &o, &t, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_load_buffer(nomiss, strlen(nomiss), "h.csv", 0, &h, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "the missing value ('?') is not in the hierarchy h.csv; add the row '?;?;*'"));
    keps_hierarchy_free(h);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mask_builder),      cmocka_unit_test(order_builder),     cmocka_unit_test(date_builder),
        cmocka_unit_test(interval_coding),   cmocka_unit_test(interval_decimals), cmocka_unit_test(write_round_trip),
        cmocka_unit_test(missing_value_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
