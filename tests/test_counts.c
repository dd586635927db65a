/* Frequency tables through the C API: keps_table_counts (the count column
 * and its errors), keps_table_group_counts (a hand-made GROUP BY), and the
 * exact search under l-diversity and t-closeness on Adult grouped by its
 * QIs and occupation (keps_lattice_new_weighted_ex with histograms,
 * keps_criteria_new_weighted) against the search on the rows: same node,
 * score, suppressed records, classes and metrics. The grouping here is a
 * plain scan over the rows' strings, independent of the lattice's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "keps/criteria.h"
#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/search.h"
#include "keps/table.h"
#include "testutil.h"

static void test_count_column(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,n\nx,3\ny,12\nx,1\n");
    uint32_t *w = NULL;
    uint64_t records = 0;
    keps_error err = {0};
    assert_int_equal(keps_table_counts(t, 1, &w, &records, &err), KEPS_OK);
    assert_int_equal(records, 16);
    assert_int_equal(w[0], 3), assert_int_equal(w[1], 12), assert_int_equal(w[2], 1);
    free(w);
    keps_table_free(t);
    static const char *bad[] = {"0", "-1", "1.0", "1e2", "", "4294967296", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char csv[64];
        snprintf(csv, sizeof csv, "a,n\nx,3\ny,%s\n", bad[i]);
        t = table_from_csv(csv);
        memset(&err, 0, sizeof err);
        assert_int_equal(keps_table_counts(t, 1, &w, &records, &err), KEPS_EINPUT);
        assert_null(w);
        assert_non_null(strstr(err.msg, ":3:2: column 'n'")); /* file:line:column of the cell */
        keps_table_free(t);
    }
    /* 4294967295 + 1 records: too many for 32-bit class sizes */
    t = table_from_csv("a,n\nx,4294967295\ny,1\n");
    assert_int_equal(keps_table_counts(t, 1, &w, &records, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, ":3:2: column 'n'"));
    keps_table_free(t);
}

static void test_group(void **state)
{
    (void)state;
    /* by hand: (a,x) 2+3 = 5, (b,x) 1, (a,y) 4 */
    keps_table *t = table_from_csv("k,n,v\na,2,x\nb,1,x\na,3,x\na,4,y\n"), *g = NULL;
    keps_error err = {0};
    assert_int_equal(keps_table_group_counts(t, 1, &g, &err), KEPS_OK);
    static const char *want[] = {"a", "5", "x", "b", "1", "x", "a", "4", "y"};
    assert_table_cells(g, 3, 3, want);
    keps_table_free(g);
    keps_table_free(t);
}

/* Adult's rows grouped by cols[0..n): each row's tuple as one string,
 * row indices sorted by it, runs counted. */
static char **key_s;
static int by_key(const void *a, const void *b)
{
    return strcmp(key_s[*(const size_t *)a], key_s[*(const size_t *)b]);
}

static keps_table *group_rows(const keps_table *t, const size_t *cols, size_t n, uint32_t **w)
{
    key_s = malloc(t->nrows * sizeof *key_s);
    size_t *idx = malloc(t->nrows * sizeof *idx);
    for (size_t r = 0; r < t->nrows; r++) {
        size_t len = 1;
        for (size_t j = 0; j < n; j++)
            len += strlen(keps_table_str(t, cols[j], r)) + 1;
        key_s[r] = calloc(len, 1);
        for (size_t j = 0; j < n; j++) {
            strcat(key_s[r], keps_table_str(t, cols[j], r));
            strcat(key_s[r], "\x1f");
        }
        idx[r] = r;
    }
    qsort(idx, t->nrows, sizeof *idx, by_key);
    const char **names = malloc(n * sizeof *names), **f = malloc(n * sizeof *f);
    for (size_t j = 0; j < n; j++)
        names[j] = t->cols[cols[j]].name;
    keps_error err = {0};
    keps_table *W = keps_table_new(n, names, t->missing_token, "grouped", &err);
    *w = malloc(t->nrows * sizeof **w);
    for (size_t x = 0; x < t->nrows;) {
        size_t y = x;
        while (y < t->nrows && !strcmp(key_s[idx[x]], key_s[idx[y]]))
            y++;
        for (size_t j = 0; j < n; j++)
            f[j] = keps_table_str(t, cols[j], idx[x]);
        (*w)[W->nrows] = (uint32_t)(y - x);
        assert_int_equal(keps_table_append(W, f, NULL, 0, &err), KEPS_OK);
        x = y;
    }
    for (size_t r = 0; r < t->nrows; r++)
        free(key_s[r]);
    free(key_s), free(idx), free(names), free(f);
    return W;
}

/* The search under crit on t's QIs (columns 0..q) with sensitive column q. */
static void search(keps_table *t, const uint32_t *w, size_t q, const keps_criterion *c, size_t nc, double sup,
                   keps_search_result *res)
{
    static const char *qis[] = {"age", "sex", "race", "marital-status"};
    keps_error err = {0};
    keps_schema *s = keps_schema_new(t);
    for (size_t i = 0; i < q; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s", qis[i], src_path("data/adult/adult_hierarchy_"));
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s.csv", qis[i]);
        assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    }
    keps_sensitive_spec sp = {(size_t)keps_table_column(t, "occupation"), KEPS_SENSITIVE_NOMINAL, NULL};
    keps_criteria *k = NULL;
    assert_int_equal(keps_criteria_new_weighted(t, w, &sp, 1, c, nc, NULL, &k, &err), KEPS_OK);
    uint32_t *codes = malloc(t->nrows * sizeof *codes);
    for (size_t r = 0; r < t->nrows; r++)
        codes[r] = keps_criteria_value(k, 0, t->cols[sp.col].codes[r]);
    size_t m = keps_criteria_nvalues(k, 0);
    const uint32_t *cp = codes;
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new_weighted_ex(s, w, NULL, &cp, &m, 1, &L, &err), KEPS_OK);
    keps_search_params p = {k, sup, KEPS_METRIC_LOSS, NULL};
    assert_int_equal(keps_search_run(L, &p, res, &err), KEPS_OK);
    keps_lattice_free(L);
    free(codes);
    keps_criteria_free(k);
    keps_schema_free(s);
}

static void test_adult_criteria(void **state)
{
    (void)state;
    keps_table *t = NULL;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    size_t cols[5];
    static const char *names[] = {"age", "sex", "race", "marital-status", "occupation"};
    for (size_t j = 0; j < 5; j++)
        cols[j] = (size_t)keps_table_column(t, names[j]);
    uint32_t *w = NULL;
    keps_table *W = group_rows(t, cols, 5, &w);
    assert_true(W->nrows < t->nrows / 2);
    static const keps_criterion sets[][3] = {
        {{KEPS_CRIT_K_ANONYMITY, 0, {3, 0, 0}, 0}, {KEPS_CRIT_DISTINCT_L, 0, {4, 0, 0}, 0}},
        {{KEPS_CRIT_K_ANONYMITY, 0, {2, 0, 0}, 0}, {KEPS_CRIT_T_CLOSENESS, 0, {0.25, 0, 0}, 0}},
        {{KEPS_CRIT_ENTROPY_L, 0, {3, 0, 0}, KEPS_ENTROPY_SHANNON}, {KEPS_CRIT_RECURSIVE_CL, 0, {3, 3, 0}, 0}},
        {{KEPS_CRIT_K_ANONYMITY, 0, {5, 0, 0}, 0}, {KEPS_CRIT_KT_CLOSENESS, 0, {10, 20, 0}, 0}},
    };
    static const size_t nset[] = {2, 2, 2, 2};
    static const double sups[] = {0, 0.04};
    for (size_t x = 0; x < 4; x++)
        for (size_t y = 0; y < 2; y++) {
            keps_search_result a, b;
            search(t, NULL, 4, sets[x], nset[x], sups[y], &a);
            search(W, w, 4, sets[x], nset[x], sups[y], &b);
            assert_int_equal(a.found, b.found);
            assert_int_equal(a.suppress_limit, b.suppress_limit);
            if (a.found) {
                assert_memory_equal(a.levels, b.levels, 4 * sizeof *a.levels);
                assert_int_equal(a.suppressed, b.suppressed);
                assert_int_equal(a.nclasses, b.nclasses);
                assert_int_equal(a.score_len, b.score_len);
                for (size_t i = 0; i < a.score_len; i++)
                    assert_double_near(a.score[i], b.score[i], 1e-9 * fmax(1, fabs(a.score[i])));
                for (int m = 0; m < KEPS_METRIC_COUNT; m++)
                    assert_double_near(a.metrics.v[m], b.metrics.v[m], 1e-9 * fmax(1, fabs(a.metrics.v[m])));
            }
            keps_search_result_free(&a);
            keps_search_result_free(&b);
        }
    free(w);
    keps_table_free(W);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_column),
        cmocka_unit_test(test_group),
        cmocka_unit_test(test_adult_criteria),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
