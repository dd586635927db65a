/* Mondrian: an independent checker (every class >= k, classes partition the
 * rows, extents are exact, and no class admits a valid cut on any QI), run
 * on Adult and on random data; hand-computed NCP, discernibility and labels;
 * another tool's published figures on Adult; bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/mondrian.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "testutil.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rows of class c, collected by scanning cls (independent of the code's
 * internal permutation). */
static size_t class_rows(const keps_mondrian_result *r, uint32_t c, uint32_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->cls[i] == c)
            rows[n++] = (uint32_t)i;
    return n;
}

/* Is there a cut of this numeric QI with both sides >= k? Any boundary
 * between distinct sorted values counts, not only the median. */
static int numeric_cut_exists(const keps_table *t, size_t col, const uint32_t *rows, size_t n, size_t k,
                              double *lo, double *hi)
{
    double *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = strtod(keps_table_str(t, col, rows[i]), NULL);
    qsort(v, n, sizeof *v, cmp_double);
    *lo = v[0];
    *hi = v[n - 1];
    int found = 0;
    for (size_t i = 1; i < n && !found; i++)
        if (v[i] != v[i - 1] && i >= k && n - i >= k)
            found = 1;
    free(v);
    return found;
}

/* Categorical QI: the lowest common level of the rows, and whether the
 * children of that node would all keep >= k rows. */
static int categorical_cut_exists(const keps_qi *q, const uint32_t *rows, size_t n, size_t k, int *level,
                                  const keps_table *t)
{
    const uint32_t *codes = t->cols[q->col].codes;
    int l = 0;
    for (; l <= q->height; l++) {
        size_t i = 1;
        while (i < n && q->map[l][codes[rows[i]]] == q->map[l][codes[rows[0]]])
            i++;
        if (i == n)
            break;
    }
    /* l == height + 1: no common node (several top values): virtual root */
    *level = l;
    if (l == 0)
        return 0;
    size_t nv = keps_hierarchy_size(q->h, l - 1);
    size_t *cnt = calloc(nv, sizeof *cnt);
    for (size_t i = 0; i < n; i++)
        cnt[q->map[l - 1][codes[rows[i]]]]++;
    int ok = 1;
    for (size_t v = 0; v < nv; v++)
        if (cnt[v] && cnt[v] < k)
            ok = 0;
    free(cnt);
    return ok;
}

static void check_mondrian(const keps_schema *s, const keps_table *t, const keps_mondrian_result *r, size_t k)
{
    size_t total = 0;
    uint32_t *rows = malloc(t->nrows * sizeof *rows);
    for (uint32_t c = 0; c < r->nclasses; c++) {
        size_t n = class_rows(r, c, rows);
        assert_int_equal(n, r->size[c]);
        assert_true(n >= k);
        total += n;
        for (size_t q = 0; q < s->nqi; q++) {
            const keps_mondrian_extent *e = &r->extent[c * r->nqi + q];
            if (!s->qi[q].h) {
                double lo, hi;
                assert_false(numeric_cut_exists(t, s->qi[q].col, rows, n, k, &lo, &hi));
                assert_double_near(e->lo, lo, 0);
                assert_double_near(e->hi, hi, 0);
            } else {
                int level;
                assert_false(categorical_cut_exists(&s->qi[q], rows, n, k, &level, t));
                assert_int_equal(e->level, level);
                if (level <= s->qi[q].height)
                    assert_int_equal(e->node, s->qi[q].map[level][t->cols[s->qi[q].col].codes[rows[0]]]);
            }
        }
    }
    assert_int_equal(total, t->nrows);
    free(rows);
}

static const char *adult_qis[] = {"sex", "race", "marital-status", "education", "native-country",
                                  "workclass", "occupation", "salary-class"};

static keps_schema *adult_schema(keps_table *t)
{
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    assert_int_equal(keps_schema_add_qi(s, t, "age", &err), KEPS_OK);
    for (size_t i = 0; i < sizeof adult_qis / sizeof *adult_qis; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s", adult_qis[i], src_path("data/adult/adult_hierarchy_"));
        size_t n = strlen(spec);
        snprintf(spec + n, sizeof spec - n, "%s.csv", adult_qis[i]);
        keps_status st = keps_schema_add_qi(s, t, spec, &err);
        if (st)
            fprintf(stderr, "%s\n", err.msg);
        assert_int_equal(st, KEPS_OK);
    }
    return s;
}

static void test_mondrian_adult(void **state)
{
    (void)state;
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    keps_schema *s = adult_schema(t);
    static const size_t ks[] = {2, 10, 100};
    size_t prev_classes = SIZE_MAX;
    for (size_t i = 0; i < 3; i++) {
        keps_mondrian_result r;
        assert_int_equal(keps_mondrian(s, t, ks[i], &r, &err), KEPS_OK);
        check_mondrian(s, t, &r, ks[i]);
        assert_true(r.ncp > 0 && r.ncp < 1);
        assert_true(r.nclasses < prev_classes); /* larger k, fewer classes */
        prev_classes = r.nclasses;
        keps_mondrian_result_free(&r);
    }
    keps_schema_free(s);
    keps_table_free(t);
}

/* Against another tool: kaylode/k-anonymity (MIT; its "mondrian" is Basic
 * Mondrian with hierarchy splits) publishes, for Adult with the ARX
 * hierarchies (the bundled ones; theirs write age ranges with '~') and the
 * eight QIs in column order, per k: NCP, CAVG = n / (classes * k) and DM
 * (file metric_result, commit 86c359e494394d8293dda5038092d22effce242b).
 * DM is exact; NCP and CAVG are printed to 3 decimals. */
static void test_mondrian_matches_peer(void **state)
{
    (void)state;
    static const char *q[] = {"sex", "age", "race", "marital-status", "education", "native-country",
                              "workclass", "occupation"};
    static const struct {
        size_t k;
        double ncp, cavg, dm;
    } want[] = {{2, 0.043, 2.152, 236866},    {5, 0.133, 2.225, 513256},    {10, 0.213, 2.100, 861416},
                {20, 0.294, 1.959, 1488604},  {50, 0.434, 2.462, 9405394},  {100, 0.521, 4.022, 25779338}};
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", q[i], KEPS_SOURCE_DIR, q[i]);
        assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    }
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        keps_mondrian_result r;
        assert_int_equal(keps_mondrian(s, t, want[i].k, &r, &err), KEPS_OK);
        assert_double_near(r.discernibility, want[i].dm, 0);
        assert_double_near(r.ncp, want[i].ncp, 0.0005);
        assert_double_near((double)t->nrows / ((double)r.nclasses * (double)want[i].k), want[i].cavg, 0.0005);
        keps_mondrian_result_free(&r);
    }
    keps_schema_free(s);
    keps_table_free(t);
}

/* Random integer data with many ties, two numeric QIs and one categorical
 * (a 2-level hierarchy built in memory). */
static void test_mondrian_random(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(5);
    for (int trial = 0; trial < 12; trial++) {
        size_t n = 50 + keps_rng_below(g, 400), k = 1 + keps_rng_below(g, 9);
        size_t cap = 64 + n * 24;
        char *csv = malloc(cap), *p = csv;
        p += sprintf(p, "x,y,c\n");
        for (size_t i = 0; i < n; i++)
            p += sprintf(p, "%d,%.1f,c%d\n", (int)keps_rng_below(g, 20), (double)keps_rng_below(g, 50) / 2,
                         (int)keps_rng_below(g, 6));
        keps_table *t = table_from_csv(csv);
        free(csv);
        keps_schema *s = keps_schema_new(t);
        keps_error err = {0};
        assert_int_equal(keps_schema_add_qi(s, t, "x", &err), KEPS_OK);
        assert_int_equal(keps_schema_add_qi(s, t, "y", &err), KEPS_OK);
        const char *hcsv = "c0;even;*\nc1;odd;*\nc2;even;*\nc3;odd;*\nc4;even;*\nc5;odd;*\n";
        keps_hierarchy *h;
        assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
        assert_int_equal(keps_schema_add_qi_hierarchy(s, 2, h, &err), KEPS_OK);
        keps_mondrian_result r;
        assert_int_equal(keps_mondrian(s, t, k, &r, &err), KEPS_OK);
        check_mondrian(s, t, &r, k);
        keps_mondrian_result_free(&r);
        keps_schema_free(s);
        keps_table_free(t);
    }
    keps_rng_free(g);
}

static keps_schema *city_schema(keps_table *t)
{
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    s->others = KEPS_OTHERS_KEEP;
    assert_int_equal(keps_schema_add_qi(s, t, "age", &err), KEPS_OK);
    const char *hcsv = "A1;A;*\nA2;A;*\nB1;B;*\n";
    keps_hierarchy *h;
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "city.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 1, h, &err), KEPS_OK);
    return s;
}

/* Hand computation, k = 2, hierarchy A1,A2 -> A -> *, B1 -> B -> * (3 leaves;
 * categorical width = leaves under the node / 3, 0 for one leaf).
 * Root: age width (30-20)/10 = 1, city covers * : 3/3 = 1; tie ->
 * age (first QI). Sorted ages 20,20,25,25,30,30, median position 2 -> v = 25:
 * "x <= 25" leaves 4|2, "x < 25" leaves 2|4, equally balanced -> "x <= 25".
 * {30,30 | B1,B1}: nothing to cut -> class "30","B1".
 * {20,20,25,25 | A1,A2,A1,A2}: age width 0.5, city covers A: 2/3 > 0.5 ->
 * city: children A1 (2 rows) and A2 (2 rows) -> classes {a,c} and {b,d},
 * each with ages 20,25 -> "[20-25]" (2 rows < 2k, no further cut).
 * NCP = (4 records * (0.5 + 0) + 2 * 0) / (6 records * 2 QIs) = 1/6.
 * Discernibility = 2^2 * 3 = 12. (With the old width (leaves-1)/(3-1) the
 * tie at A went to age: classes {20,20|A} {25,25|A}.) */
static void test_mondrian_hand(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,city,x\n20,A1,a\n20,A2,b\n25,A1,c\n25,A2,d\n30,B1,e\n30,B1,f\n");
    keps_schema *s = city_schema(t);
    keps_mondrian_result r;
    keps_error err = {0};
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_OK);
    assert_int_equal(r.nclasses, 3);
    assert_double_near(r.ncp, 1.0 / 6.0, 1e-15);
    assert_double_near(r.discernibility, 12, 0);
    keps_table *rel;
    assert_int_equal(keps_mondrian_release(s, &r, &rel, &err), KEPS_OK);
    static const char *want[6][3] = {{"[20-25]", "A1", "a"}, {"[20-25]", "A2", "b"}, {"[20-25]", "A1", "c"},
                                     {"[20-25]", "A2", "d"}, {"30", "B1", "e"},        {"30", "B1", "f"}};
    assert_int_equal(rel->nrows, 6);
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 3; j++)
            assert_string_equal(keps_table_str(rel, j, i), want[i][j]);
    keps_table_free(rel);
    keps_mondrian_result_free(&r);
    /* k = 3: root cut "x <= 25" gives 4|2 (2 < 3), "x < 25" 2|4: neither;
     * city's children A (4) and B (2 < 3): no. One class of 6:
     * NCP = (1 + 1)/2 = 1, labels "[20-30]" and "*". */
    assert_int_equal(keps_mondrian(s, t, 3, &r, &err), KEPS_OK);
    assert_int_equal(r.nclasses, 1);
    assert_double_near(r.ncp, 1.0, 1e-15);
    char buf[64];
    keps_mondrian_label(s, &r, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "[20-30]");
    keps_mondrian_label(s, &r, 0, 1, buf, sizeof buf);
    assert_string_equal(buf, "*");
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

/* A categorical split in two steps: ages all equal (width 0), city
 * A1,A1,A2,A2,B1,B1 with k = 2: * -> {A: 4, B: 2}, A -> {A1: 2, A2: 2}.
 * Three classes, NCP 0, discernibility 12. */
static void test_mondrian_categorical_split(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,city,x\n40,A1,a\n40,A1,b\n40,A2,c\n40,A2,d\n40,B1,e\n40,B1,f\n");
    keps_schema *s = city_schema(t);
    keps_mondrian_result r;
    assert_int_equal(keps_mondrian(s, t, 2, &r, NULL), KEPS_OK);
    assert_int_equal(r.nclasses, 3);
    assert_double_near(r.ncp, 0, 0);
    assert_double_near(r.discernibility, 12, 0);
    assert_int_equal(r.cls[0], r.cls[1]);
    assert_int_equal(r.cls[2], r.cls[3]);
    assert_int_equal(r.cls[4], r.cls[5]);
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

/* A hierarchy without a single top (x1,x2 -> X; y1,y2 -> Y): the partition
 * of all records is covered by a virtual root "*" (width 1). k = 2: split
 * into X (2) and Y (2) -> labels X, Y, NCP = 2/4 = 1/2.
 * k = 3: no cut, one class "*", NCP 1. */
static void test_mondrian_virtual_root(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("c\nx1\ny1\nx2\ny2\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    const char *hcsv = "x1;X\nx2;X\ny1;Y\ny2;Y\n";
    keps_hierarchy *h;
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    keps_mondrian_result r;
    char buf[32];
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_OK);
    check_mondrian(s, t, &r, 2);
    assert_int_equal(r.nclasses, 2);
    assert_double_near(r.ncp, 0.5, 1e-15);
    keps_mondrian_label(s, &r, r.cls[0], 0, buf, sizeof buf);
    assert_string_equal(buf, "X");
    keps_mondrian_result_free(&r);
    assert_int_equal(keps_mondrian(s, t, 3, &r, &err), KEPS_OK);
    check_mondrian(s, t, &r, 3);
    assert_int_equal(r.nclasses, 1);
    assert_double_near(r.ncp, 1.0, 0);
    keps_mondrian_label(s, &r, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "*");
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Labels are never cut short. A 200-character hierarchy label: both
 * leaves x1, x2 generalize to it and k = 2 keeps them together (children of
 * one record each), so the release holds all 200 characters (the release
 * used to format into a 128-byte buffer). A numeric class {-0.1-0.2, 2}:
 * -0.30000000000000004 needs 17 digits, "[-0.30000000000000004-2]" is 24
 * characters, the length keps_mondrian_label returns with buf = NULL, and a
 * 10-byte buf gets its first 9 as snprintf would. */
static void test_mondrian_long_labels(void **state)
{
    (void)state;
    char lab[201], hcsv[420];
    memset(lab, 'L', 200);
    lab[200] = '\0';
    snprintf(hcsv, sizeof hcsv, "x1;%s\nx2;%s\n", lab, lab);
    keps_table *t = table_from_csv("c,v\nx1,-0.30000000000000004\nx2,2\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    keps_hierarchy *h;
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 1, NULL, &err), KEPS_OK);
    keps_mondrian_result r;
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_OK);
    assert_int_equal(r.nclasses, 1);
    keps_table *rel;
    assert_int_equal(keps_mondrian_release(s, &r, &rel, &err), KEPS_OK);
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(keps_table_str(rel, 0, i), lab);
        assert_string_equal(keps_table_str(rel, 1, i), "[-0.30000000000000004-2]");
    }
    assert_int_equal(keps_mondrian_label(s, &r, 0, 0, NULL, 0), 200);
    assert_int_equal(keps_mondrian_label(s, &r, 0, 1, NULL, 0), 24);
    char small[10];
    assert_int_equal(keps_mondrian_label(s, &r, 0, 1, small, sizeof small), 24);
    assert_string_equal(small, "[-0.30000");
    keps_table_free(rel);
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

static void test_mondrian_bad_input(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,city,x\n20,A1,a\n2x,A2,b\n25,A1,c\n");
    keps_schema *s = city_schema(t);
    keps_mondrian_result r;
    keps_error err = {0};
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:3:1"));
    keps_schema_free(s);
    keps_table_free(t);
    t = table_from_csv("age,city,x\n20,A1,a\n21,A2,b\n25,A1,c\n");
    s = city_schema(t);
    assert_int_equal(keps_mondrian(s, t, 4, &r, &err), KEPS_EJOB);
    assert_non_null(strstr(err.msg, "larger than the number of records"));
    assert_int_equal(keps_mondrian(s, t, 0, &r, &err), KEPS_EINPUT);
    /* k = 3 = n: one class */
    assert_int_equal(keps_mondrian(s, t, 3, &r, &err), KEPS_OK);
    assert_int_equal(r.nclasses, 1);
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
    t = table_from_csv("age,city,x\n20,A1,a\n,A2,b\n25,A1,c\n");
    s = city_schema(t);
    assert_int_equal(keps_mondrian(s, t, 1, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "missing"));
    keps_schema_free(s);
    keps_table_free(t);
}

/* The median cut when both candidates are allowed (docs/spec.md section 10):
 * x = 1,1,1,1,2,2,2,2,2,3,3 (n = 11), k = 2. Lower median v = sorted[5] = 2.
 * "x <= 2" gives 9 | 2, "x < 2" gives 4 | 7: both keep >= 2; the second is
 * more balanced (|2*4 - 11| = 3 < |2*9 - 11| = 7), so it is taken. Then
 * {1,1,1,1} has width 0 (a class "1"); {2 x5, 3 x2}: v = sorted[3] = 2,
 * "x <= 2" = 5 | 2 (allowed), "x < 2" = 0 | 7 (not): classes "2" and "3".
 * Three classes, NCP 0, discernibility 16 + 25 + 4 = 45.
 * LeFevre's printed rule (only "x <= median") would cut 9 | 2 and then find
 * no cut of {1 x4, 2 x5} (sorted[4] = 2, "x <= 2" leaves 0 on the right):
 * classes [1-2] (9) and 3 (2), NCP 9 * (1/2) / 11 = 0.409, discernibility 85. */
static void test_mondrian_median_balance(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("x\n3\n1\n2\n1\n2\n3\n2\n1\n2\n1\n2\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    assert_int_equal(keps_schema_add_qi(s, t, "x", &err), KEPS_OK);
    keps_mondrian_result r;
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_OK);
    assert_int_equal(r.nclasses, 3);
    assert_double_near(r.ncp, 0, 0);
    assert_double_near(r.discernibility, 45, 0);
    keps_table *rel;
    assert_int_equal(keps_mondrian_release(s, &r, &rel, &err), KEPS_OK);
    for (size_t i = 0; i < rel->nrows; i++) /* every class holds one value: released as itself */
        assert_string_equal(keps_table_str(rel, 0, i), keps_table_str(t, 0, i));
    keps_table_free(rel);
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mondrian_adult), cmocka_unit_test(test_mondrian_matches_peer),
        cmocka_unit_test(test_mondrian_random),
        cmocka_unit_test(test_mondrian_hand), cmocka_unit_test(test_mondrian_categorical_split),
        cmocka_unit_test(test_mondrian_virtual_root), cmocka_unit_test(test_mondrian_bad_input),
        cmocka_unit_test(test_mondrian_long_labels), cmocka_unit_test(test_mondrian_median_balance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
