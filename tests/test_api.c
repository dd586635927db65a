/* The public API's preconditions, as a caller with only the headers can
 * break them: the calls below answer a bad argument (a column index or a
 * level out of range, an enum value outside its type, a NULL they cannot
 * use) with KEPS_EINPUT and a message, never a crash or a silent KEPS_OK. */
#include <stdio.h>
#include <string.h>

#include "keps/dpmicro.h"
#include "keps/kepsilon.h"
#include "keps/models.h"
#include "keps/partition.h"
#include "keps/ola.h"
#include "keps/release.h"
#include "keps/risk.h"
#include "keps/rr.h"
#include "keps/schema.h"
#include "testutil.h"

/* One column a = x,y,x with the hierarchy x,y -> * (height 1). */
static keps_schema *one_qi(keps_table **t)
{
    *t = table_from_csv("a\nx\ny\nx\n");
    keps_schema *s = keps_schema_new(*t);
    keps_hierarchy *h = NULL;
    const char *hc = "x;*\ny;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(hc, strlen(hc), "h.csv", ';', &h, NULL), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, NULL), KEPS_OK);
    return s;
}

static void expect_einput(keps_status st, const keps_error *err, const char *says)
{
    assert_int_equal(st, KEPS_EINPUT);
    if (!strstr(err->msg, says))
        fprintf(stderr, "message '%s' lacks '%s'\n", err->msg, says);
    assert_non_null(strstr(err->msg, says));
}

/* Two categories, keep-or-uniform with p = 1/2; record 2's category 2 has
 * no row in the 2 x 2 matrix. */
static void test_rr_randomize_value_out_of_range(void **state)
{
    (void)state;
    keps_rr_matrix M;
    keps_error err = {0};
    assert_int_equal(keps_rr_ldp_matrix(2, 0.5, &M, &err), KEPS_OK);
    uint32_t v[] = {0, 2, 1}, out[3];
    keps_rng *rng = keps_rng_new_seeded(1);
    expect_einput(keps_rr_randomize(&M, v, 3, rng, out, &err), &err, "record 2 has category 2");
    keps_rng_free(rng);
    keps_rr_matrix_free(&M);
}

/* epsilon-LDP to "model 17" used to fall through to Lemma 1 and succeed. */
static void test_rr_implies_unknown_model(void **state)
{
    (void)state;
    keps_plevel from = {KEPS_PM_LDP, 1.0, 0};
    keps_implication imp;
    keps_error err = {0};
    expect_einput(keps_rr_implies(&from, (keps_pmodel)17, 5, 100, &imp, &err), &err, "unknown target");
    from.model = (keps_pmodel)17;
    expect_einput(keps_rr_implies(&from, KEPS_PM_KT, 5, 100, &imp, &err), &err, "unknown source");
}

/* A shuffle needs a generator: rng NULL is fine only with keep_order. */
static void test_release_write_needs_rng(void **state)
{
    (void)state;
    keps_table *t;
    keps_schema *s = one_qi(&t);
    keps_table *rel;
    keps_error err = {0};
    assert_int_equal(keps_release_build(s, NULL, NULL, &rel, &err), KEPS_OK);
    const char *path = "api_release.csv";
    remove(path);
    expect_einput(keps_release_write(rel, path, ',', NULL, 0, &err), &err, "rng is NULL");
    assert_null(fopen(path, "r"));
    assert_int_equal(keps_release_write(rel, path, ',', NULL, 1, &err), KEPS_OK);
    assert_int_equal(remove(path), 0);
    keps_table_free(rel);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Levels outside [0, 1] for the one QI of height 1. */
static void test_apply_levels_out_of_range(void **state)
{
    (void)state;
    keps_table *t;
    keps_schema *s = one_qi(&t);
    keps_lattice *L = NULL;
    keps_error err = {0};
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    keps_table *rel = (keps_table *)1;
    keps_counts cnt;
    const int bad[] = {2, -1, 1000};
    for (int b = 0; b < 3; b++) {
        expect_einput(apply_k(L, &bad[b], 1, 0, &rel, &cnt, &err), &err, "out of range: 0 to 1");
        assert_null(rel);
    }
    const int top = 1; /* the valid top node: one class of 3, every label "*" */
    assert_int_equal(apply_k(L, &top, 1, 0, &rel, &cnt, &err), KEPS_OK);
    assert_int_equal(rel->nrows, 3);
    assert_string_equal(keps_table_str(rel, 0, 1), "*");
    keps_table_free(rel);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* The table has columns 0 and 1 only. The hierarchy passed with a bad
 * column is the schema's even so (freed: ASan's leak check would say). */
static void test_column_indices(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\nx,1\ny,1\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    keps_hierarchy *h = NULL;
    const char *hc = "x;*\ny;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(hc, strlen(hc), "h.csv", ';', &h, &err), KEPS_OK);
    uint32_t **map = NULL;
    expect_einput(keps_hierarchy_bind(h, t, 2, &map, &err), &err, "column index 2 is out of range");
    assert_null(map);
    expect_einput(keps_schema_add_qi_hierarchy(s, 2, h, &err), &err, "column index 2 is out of range");
    assert_int_equal(s->nqi, 0);
    const size_t good[] = {0}, bad[] = {0, 5};
    keps_partition part;
    expect_einput(keps_partition_from_columns(t, bad, 2, NULL, NULL, &part, &err), &err,
                  "quasi-identifier column index 5");
    keps_criteria *crit = NULL;
    keps_sensitive_spec sp = {5, KEPS_SENSITIVE_AUTO, NULL};
    expect_einput(keps_criteria_new(t, &sp, 1, NULL, 0, NULL, &crit, &err), &err, "sensitive column index 5");
    sp.col = 1;
    sp.type = (keps_sensitive_type)6;
    expect_einput(keps_criteria_new(t, &sp, 1, NULL, 0, NULL, &crit, &err), &err, "unknown type");
    keps_prosecutor p;
    expect_einput(keps_prosecutor_risk(t, bad, 2, KEPS_SUPPRESSED_EXCLUDE, &p, &err), &err,
                  "quasi-identifier column index 5");
    expect_einput(keps_prosecutor_risk(t, good, 1, (keps_suppressed_mode)4, &p, &err), &err,
                  "unknown suppressed-row mode 4");
    expect_einput(keps_table_numeric(t, 2, &err), &err, "column index 2 is out of range");
    const double w = 5;
    expect_einput(keps_hierarchy_interval(t, 2, &w, 1, &h, &err), &err, "column index 2 is out of range");
    assert_null(h);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Enum values outside their type used to run one of the other cases. */
static void test_unknown_enums(void **state)
{
    (void)state;
    keps_error err = {0};
    const double x[] = {1, 2, 3, 4}, lo = 0, hi = 10;
    keps_dpmicro_params dp = {(keps_dpm_mode)7, 2, 1.0, &lo, &hi, 0, NULL};
    keps_dpmicro_result dr;
    keps_rng *rng = keps_rng_new_seeded(1);
    expect_einput(keps_dpmicro_run(x, 4, 1, &dp, rng, &dr, &err), &err, "unknown DP microaggregation mode 7");
    double rl = -1;
    expect_einput(keps_record_linkage(x, x, 4, 1, (keps_rl_direction)5, &rl, &err), &err,
                  "unknown record-linkage direction 5");
    keps_rr_params rp = {(keps_rr_kind)7, 0.5, 0.5};
    const double freq[] = {0.5, 0.5};
    keps_rr_matrix M = {0};
    expect_einput(keps_rr_matrix_for(&rp, 2, freq, &M, &err), &err, "unknown randomized-response mechanism 7");
    keps_table *t = table_from_csv("a,b\nx,1\n");
    keps_schema *s = keps_schema_new(t);
    expect_einput(keps_schema_set_role(s, "a", (keps_role)9, &err), &err, "role 9");
    expect_einput(keps_schema_set_role(s, "a", KEPS_ROLE_QUASI, &err), &err, "keps_schema_add_qi");
    assert_int_equal(keps_schema_set_role(s, "a", KEPS_ROLE_IDENTIFIER, &err), KEPS_OK);
    keps_schema_free(s);
    keps_table_free(t);
    keps_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rr_randomize_value_out_of_range),
        cmocka_unit_test(test_rr_implies_unknown_model),
        cmocka_unit_test(test_release_write_needs_rng),
        cmocka_unit_test(test_apply_levels_out_of_range),
        cmocka_unit_test(test_column_indices),
        cmocka_unit_test(test_unknown_enums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
