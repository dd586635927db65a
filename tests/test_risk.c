/* Record linkage and prosecutor risk on hand-made examples (computations in
 * the comments). */
#include <math.h>
#include <string.h>

#include "keps/risk.h"
#include "testutil.h"

/* Original a = -2,-2,2,2 (mean 0, population sd 2: z = -1,-1,1,1 exactly),
 * release a = -2,2,2,2 (z = -1,1,1,1). Attribute b is constant in the
 * original (7), so it is left out whatever the release holds.
 * SPEC direction (per original, nearest released):
 *   o0 = -1: G = {r0}, own -> 1;  o1 = -1: G = {r0}, own r1 not in G -> 0;
 *   o2 = 1: G = {r1,r2,r3}, own -> 1/3;  o3: same -> 1/3.
 *   RL = (1 + 0 + 1/3 + 1/3) / 4 = 5/12.
 * Paper direction (per released, nearest originals):
 *   r0 = -1: G = {o0,o1}, own -> 1/2;  r1 = 1: G = {o2,o3}, own o1 not -> 0;
 *   r2: G = {o2,o3} -> 1/2;  r3: -> 1/2.  RL = 1.5 / 4 = 3/8. */
static void test_record_linkage_hand(void **state)
{
    (void)state;
    double o[] = {-2, 7, -2, 7, 2, 7, 2, 7};
    double r[] = {-2, 7, 2, 8, 2, 9, 2, 10};
    double rl;
    keps_error err = {0};
    assert_int_equal(keps_record_linkage(o, r, 4, 2, KEPS_RL_ORIGINAL, &rl, &err), KEPS_OK);
    assert_double_near(rl, 5.0 / 12.0, 1e-15);
    assert_int_equal(keps_record_linkage(o, r, 4, 2, KEPS_RL_RELEASED, &rl, &err), KEPS_OK);
    assert_double_near(rl, 3.0 / 8.0, 1e-15);
    /* the release equal to the original, distinct records: RL = 1 */
    double u[] = {1, 5, 2, 3, 3, 9, 4, 1};
    assert_int_equal(keps_record_linkage(u, u, 4, 2, KEPS_RL_ORIGINAL, &rl, &err), KEPS_OK);
    assert_double_near(rl, 1.0, 0);
    /* everything constant: every record ties with all n: RL = 1/n */
    double cst[] = {3, 3, 3, 3};
    assert_int_equal(keps_record_linkage(cst, cst, 4, 1, KEPS_RL_ORIGINAL, &rl, &err), KEPS_OK);
    assert_double_near(rl, 0.25, 0);
    /* bad input */
    assert_int_equal(keps_record_linkage(o, r, 0, 2, KEPS_RL_ORIGINAL, &rl, &err), KEPS_EINPUT);
    r[3] = NAN;
    assert_int_equal(keps_record_linkage(o, r, 4, 2, KEPS_RL_ORIGINAL, &rl, &err), KEPS_EINPUT);
}

/* Many records, both threads: a release equal to the original with all
 * records distinct links every record (RL = 1); k identical copies per
 * group (microaggregation with centroids that are nearest to their own
 * members, here: well separated groups) give exactly 1/k. */
static void test_record_linkage_groups(void **state)
{
    (void)state;
    enum { N = 3000, K = 3 };
    static double o[N * 2], r[N * 2];
    for (int i = 0; i < N; i++) {
        int g = i / K;
        o[2 * i] = 100.0 * g + (i % K);  /* groups 100 apart, members 0,1,2 */
        o[2 * i + 1] = -50.0 * g;
        r[2 * i] = 100.0 * g + 1;        /* centroid */
        r[2 * i + 1] = -50.0 * g;
    }
    double rl;
    assert_int_equal(keps_record_linkage(o, o, N, 2, KEPS_RL_ORIGINAL, &rl, NULL), KEPS_OK);
    assert_double_near(rl, 1.0, 1e-12);
    assert_int_equal(keps_record_linkage(o, r, N, 2, KEPS_RL_ORIGINAL, &rl, NULL), KEPS_OK);
    assert_double_near(rl, 1.0 / K, 1e-12);
    /* paper direction: each centroid's nearest original is the middle
     * member only: one of K records links -> 1/K as well */
    assert_int_equal(keps_record_linkage(o, r, N, 2, KEPS_RL_RELEASED, &rl, NULL), KEPS_OK);
    assert_double_near(rl, 1.0 / K, 1e-12);
}

/* Classes on (q1, q2): (a,x) x2, (b,x) x3, (b,y) x1 -> sizes 2, 3, 1.
 * max = 1/1; avg = (2*1/2 + 3*1/3 + 1) / 6 = 3/6; below 2: 1/6,
 * below 5: 6/6, below 10: 6/6. On q1 alone: sizes 2, 4: max 1/2,
 * avg 2/6, below 2: 0, below 5: 1. */
static void test_prosecutor_hand(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q1,q2\na,x\nb,x\nb,y\na,x\nb,x\nb,x\n");
    size_t cols[] = {0, 1};
    keps_prosecutor p;
    assert_int_equal(keps_prosecutor_risk(t, cols, 2, KEPS_SUPPRESSED_EXCLUDE, &p, NULL), KEPS_OK);
    assert_int_equal(p.classes, 3);
    assert_double_near(p.max, 1.0, 0);
    assert_double_near(p.avg, 0.5, 1e-15);
    assert_double_near(p.below[0], 1.0 / 6.0, 1e-15);
    assert_double_near(p.below[1], 1.0, 0);
    assert_double_near(p.below[2], 1.0, 0);
    assert_int_equal(keps_prosecutor_risk(t, cols, 1, KEPS_SUPPRESSED_EXCLUDE, &p, NULL), KEPS_OK);
    assert_int_equal(p.classes, 2);
    assert_double_near(p.max, 0.5, 0);
    assert_double_near(p.avg, 2.0 / 6.0, 1e-15);
    assert_double_near(p.below[0], 0, 0);
    assert_double_near(p.below[1], 1.0, 0);
    keps_table_free(t);
}

/* Suppressed records (every QI '*'): (a,x) x2, (b,y) x3, (a,*) x1, (*,*) x4.
 * Left out (ARX): classes 2, 3, 1 over 6 records: max 1, avg 3/6,
 * below 2: 1/6, below 5: 6/6. As a class: 4 classes over 10 records:
 * max 1, avg 4/10, below 2: 1/10, below 5 (sizes 2, 3, 1, 4): 10/10.
 * (a,*) is not suppressed: only one of its QIs is '*'. */
static void test_prosecutor_suppressed(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q1,q2\na,x\n*,*\nb,y\na,*\nb,y\n*,*\na,x\n*,*\nb,y\n*,*\n");
    size_t cols[] = {0, 1};
    keps_prosecutor p;
    assert_int_equal(keps_prosecutor_risk(t, cols, 2, KEPS_SUPPRESSED_EXCLUDE, &p, NULL), KEPS_OK);
    assert_int_equal(p.suppressed, 4);
    assert_int_equal(p.records, 6);
    assert_int_equal(p.classes, 3);
    assert_double_near(p.max, 1.0, 0);
    assert_double_near(p.avg, 0.5, 1e-15);
    assert_double_near(p.below[0], 1.0 / 6.0, 1e-15);
    assert_double_near(p.below[1], 1.0, 0);
    assert_int_equal(keps_prosecutor_risk(t, cols, 2, KEPS_SUPPRESSED_CLASS, &p, NULL), KEPS_OK);
    assert_int_equal(p.suppressed, 4);
    assert_int_equal(p.records, 10);
    assert_int_equal(p.classes, 4);
    assert_double_near(p.avg, 0.4, 1e-15);
    assert_double_near(p.below[0], 0.1, 1e-15);
    assert_double_near(p.below[1], 1.0, 0);
    keps_table_free(t);
    /* every row '*': a release generalized to the top looks the same as one
     * whose rows were all suppressed, so the rows are one class of 2 (risk
     * 1/2), never "nothing to link" */
    t = table_from_csv("q1\n*\n*\n");
    assert_int_equal(keps_prosecutor_risk(t, cols, 1, KEPS_SUPPRESSED_EXCLUDE, &p, NULL), KEPS_OK);
    assert_int_equal(p.records, 2);
    assert_int_equal(p.classes, 1);
    assert_int_equal(p.suppressed, 2);
    assert_double_near(p.max, 0.5, 0);
    keps_table_free(t);
}

/* Releasing the data unchanged links every record to itself (RL = 1),
 * also for a small spread on a large offset (10^13 + 0..11, sd 3.45,
 * below 10^-12 of the mean): a relative cut-off once dropped that column as
 * constant and left every record tied with all twelve (RL 1/12). */
static void test_record_linkage_large_offset(void **state)
{
    (void)state;
    double x[12], rl;
    for (int i = 0; i < 12; i++)
        x[i] = 1e13 + (double)i;
    assert_int_equal(keps_record_linkage(x, x, 12, 1, KEPS_RL_ORIGINAL, &rl, NULL), KEPS_OK);
    assert_double_near(rl, 1.0, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_linkage_hand),
        cmocka_unit_test(test_record_linkage_groups),
        cmocka_unit_test(test_record_linkage_large_offset),
        cmocka_unit_test(test_prosecutor_hand),
        cmocka_unit_test(test_prosecutor_suppressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
