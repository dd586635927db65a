/* A release compared with its input (keps/before_after.h), on tables small
 * enough to count by hand. */
#include <jansson.h>
#include <string.h>

#include "keps/before_after.h"
#include "testutil.h"

/* Input: x and s are the QIs, n a number, u untouched.
 *   row  x  s  n  u
 *    0   a  M  1  p
 *    1   a  M  2  p
 *    2   b  F  3  q
 *    3   c  F  4  q
 *    4   c  F  5  q
 *    5   d  M  6  r
 * Classes on (x,s): {a,M} 2, {b,F} 1, {c,F} 2, {d,M} 1: sizes {1: 2, 2: 2};
 * prosecutor highest 1, share at highest 2/6, average 4 classes / 6 = 2/3,
 * sample uniques 2/6. */
static const char *in_rows[6][4] = {{"a", "M", "1", "p"}, {"a", "M", "2", "p"}, {"b", "F", "3", "q"},
                                    {"c", "F", "4", "q"}, {"c", "F", "5", "q"}, {"d", "M", "6", "r"}};

/* Release: rows 2 and 5 suppressed ('*' in both QIs), the rest generalized;
 * n microaggregated into 1,1,1 and 6,6,6 (starred rows keep their n).
 * Classes on (x,s) without the suppressed: {ab,M} 2, {cd,F} 2: highest 1/2,
 * share at highest 4/4, average 2/4, no uniques. */
static const char *rel_rows[6][4] = {{"ab", "M", "1", "p"}, {"ab", "M", "1", "p"}, {"*", "*", "1", "q"},
                                     {"cd", "F", "6", "q"}, {"cd", "F", "6", "q"}, {"*", "*", "6", "r"}};

static keps_table *make(const char *rows[][4], size_t n, const size_t *keep, const uint32_t *line)
{
    const char *names[] = {"x", "s", "n", "u"};
    keps_error err = {0};
    keps_table *t = keps_table_new(4, names, NULL, "<test>", &err);
    assert_non_null(t);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(keps_table_append(t, rows[keep ? keep[i] : i], NULL, line ? line[i] : 0, &err), KEPS_OK);
    return t;
}

static json_t *compare_offered(const keps_table *in, const keps_table *rel, const uint8_t *offered)
{
    const char *qi[] = {"x", "s"}, *attr[] = {"x", "s", "n", "u", "absent"};
    keps_before_after_opts o = {.top_values = 3, .bins = 5, .offered = offered};
    keps_json j;
    keps_json_init(&j);
    keps_error err = {0};
    assert_int_equal(keps_before_after_json(&j, NULL, in, rel, qi, 2, attr, 5, &o, &err), KEPS_OK);
    json_error_t je;
    json_t *v = json_loads(keps_json_text(&j), 0, &je);
    assert_non_null(v);
    keps_json_free(&j);
    return v;
}

/* json_t at a path of keys and array indices: "risk.input.prosecutor.highest", "a.0.1" */
static json_t *json_path(json_t *v, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
        v = json_is_array(v) ? json_array_get(v, (size_t)atoi(k)) : json_object_get(v, k);
    return v;
}

static double num(json_t *root, const char *path)
{
    json_t *v = json_path(root, path);
    assert_non_null(v);
    return json_number_value(v);
}

static void assert_json(json_t *root, const char *path, const char *want)
{
    json_t *v = json_path(root, path);
    assert_non_null(v);
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_string_equal(s, want);
    free(s);
}

static json_t *compare(const keps_table *in, const keps_table *rel)
{
    return compare_offered(in, rel, NULL);
}

static void risk_both_sides(void **state)
{
    (void)state;
    keps_table *in = make(in_rows, 6, NULL, NULL), *rel = make(rel_rows, 6, NULL, NULL);
    json_t *v = compare(in, rel);
    assert_json(v, "qis", "[\"x\",\"s\"]");
    assert_double_near(num(v, "risk.input.prosecutor.highest"), 1, 1e-15);
    assert_double_near(num(v, "risk.input.prosecutor.share_at_highest"), 2.0 / 6, 1e-15);
    assert_double_near(num(v, "risk.input.prosecutor.average"), 4.0 / 6, 1e-15);
    assert_double_near(num(v, "risk.input.sample_uniques"), 2.0 / 6, 1e-15);
    assert_json(v, "risk.input.class_sizes", "[[1,2],[2,2]]");
    assert_double_near(num(v, "risk.input.records"), 6, 0);
    assert_double_near(num(v, "risk.release.records"), 4, 0);
    assert_double_near(num(v, "risk.release.suppressed"), 2, 0);
    assert_double_near(num(v, "risk.release.prosecutor.highest"), 0.5, 1e-15);
    assert_double_near(num(v, "risk.release.prosecutor.share_at_highest"), 1, 1e-15);
    assert_double_near(num(v, "risk.release.prosecutor.average"), 0.5, 1e-15);
    assert_double_near(num(v, "risk.release.sample_uniques"), 0, 0);
    assert_json(v, "risk.release.class_sizes", "[[2,2]]");
    /* band of risk 1/2: (0.334, 0.5], the 23rd of ARX's 24 */
    assert_double_near(num(v, "risk.release.risk_distribution.22.records"), 1, 1e-15);
    assert_double_near(num(v, "risk.release.risk_distribution.22.up_to"), 0.5, 0);
    json_decref(v);
    keps_table_free(in);
    keps_table_free(rel);
}

static void distributions(void **state)
{
    (void)state;
    keps_table *in = make(in_rows, 6, NULL, NULL), *rel = make(rel_rows, 6, NULL, NULL);
    json_t *v = compare(in, rel);
    /* x: most frequent first, ties by value ('*' sorts before letters);
     * top 3, the rest as other */
    assert_json(v, "distributions.x.input.values", "[[\"a\",2],[\"c\",2],[\"b\",1]]");
    assert_json(v, "distributions.x.input.other", "1");
    assert_json(v, "distributions.x.input.other_values", "1");
    assert_json(v, "distributions.x.input.distinct", "4");
    assert_json(v, "distributions.x.release.values", "[[\"*\",2],[\"ab\",2],[\"cd\",2]]");
    assert_json(v, "distributions.x.release.other", "0");
    /* n: numeric on both sides, so one set of bins over [1, 6], width 1;
     * 6 falls in the last bin */
    assert_json(v, "distributions.n.input.bins", "[1,2,3,4,5,6]");
    assert_json(v, "distributions.n.input.counts", "[1,1,1,1,2]");
    assert_json(v, "distributions.n.release.bins", "[1,2,3,4,5,6]");
    assert_json(v, "distributions.n.release.counts", "[3,0,0,0,3]");
    /* u: the same value counts on both sides */
    assert_json(v, "unchanged", "[\"u\"]");
    assert_null(json_path(v, "distributions.u"));
    assert_null(json_path(v, "distributions.absent"));
    json_decref(v);
    keps_table_free(in);
    keps_table_free(rel);
}

static void suppressed_values(void **state)
{
    (void)state;
    keps_table *in = make(in_rows, 6, NULL, NULL), *rel = make(rel_rows, 6, NULL, NULL);
    json_t *v = compare(in, rel);
    /* rows 2 (b,F) and 5 (d,M) suppressed: [value, records, suppressed] */
    assert_json(v, "suppressed_values.x.values", "[[\"b\",1,1],[\"d\",1,1]]");
    assert_json(v, "suppressed_values.x.other", "[4,0]");
    assert_json(v, "suppressed_values.s.values", "[[\"F\",3,1],[\"M\",3,1]]");
    assert_json(v, "suppressed_values.s.other", "[0,0]");
    json_decref(v);
    keps_table_free(rel);
    /* The same release with its suppressed rows left out, rows carrying
     * their input lines: the missing rows are the suppressed ones. */
    uint32_t lines[6] = {2, 3, 4, 5, 6, 7}, kept_lines[4] = {2, 3, 5, 6};
    size_t keep[4] = {0, 1, 3, 4};
    keps_table_free(in);
    in = make(in_rows, 6, NULL, lines);
    rel = make(rel_rows, 4, keep, kept_lines);
    v = compare(in, rel);
    assert_json(v, "suppressed_values.x.values", "[[\"b\",1,1],[\"d\",1,1]]");
    assert_double_near(num(v, "risk.release.records"), 4, 0);
    json_decref(v);
    keps_table_free(rel);
    /* Rows that cannot be matched (fewer rows, no lines): no section. */
    rel = make(rel_rows, 4, keep, NULL);
    v = compare(in, rel);
    assert_null(json_path(v, "suppressed_values"));
    json_decref(v);
    keps_table_free(rel);
    /* Nothing suppressed: no section. */
    rel = make(in_rows, 6, NULL, NULL);
    v = compare(in, rel);
    assert_null(json_path(v, "suppressed_values"));
    assert_json(v, "unchanged", "[\"x\",\"s\",\"n\",\"u\"]");
    json_decref(v);
    keps_table_free(rel);
    keps_table_free(in);
}

/* A research subset: row 4 of the input (c,F, line 5) is not offered, so
 * the release lacks it without suppressing it. Offered: a,a,b,c,d; b and d
 * suppressed. x: b [1,1], d [1,1], other a,a,c [3,0]; s: F offered twice
 * (b, the second c) with b suppressed [2,1], M three times with d [3,1]. */
static void subset_rows_are_not_suppressed(void **state)
{
    (void)state;
    uint32_t lines[6] = {2, 3, 4, 5, 6, 7}, rel_lines[5] = {2, 3, 4, 6, 7};
    size_t keep[5] = {0, 1, 2, 4, 5};
    uint8_t offered[6] = {1, 1, 1, 0, 1, 1};
    keps_table *in = make(in_rows, 6, NULL, lines), *rel = make(rel_rows, 5, keep, rel_lines);
    json_t *v = compare_offered(in, rel, offered);
    assert_json(v, "suppressed_values.x.values", "[[\"b\",1,1],[\"d\",1,1]]");
    assert_json(v, "suppressed_values.x.other", "[3,0]");
    assert_json(v, "suppressed_values.s.values", "[[\"F\",2,1],[\"M\",3,1]]");
    json_decref(v);
    keps_table_free(rel);
    keps_table_free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(risk_both_sides),
        cmocka_unit_test(distributions),
        cmocka_unit_test(suppressed_values),
        cmocka_unit_test(subset_rows_are_not_suppressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
