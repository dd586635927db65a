/* Record linkage and prosecutor risk on hand-made examples (computations in
 * the comments). */
#include <math.h>
#include <string.h>

#include "keps/risk.h"
#include "keps/suda.h"
#include "keps/uniqueness.h"
#include "testutil.h"

/* Original a = -2,-2,2,2 (mean 0, population sd 2: z = -1,-1,1,1 exactly),
 * release a = -2,2,2,2 (z = -1,1,1,1). Attribute b is constant in the
 * original (7), so it is left out whatever the release holds.
 * docs/spec.md direction (per original, nearest released):
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

/* A distribution from unsorted (size, count) pairs with a repeat and a
 * zero: sizes 1 x3, 2 x2 (1 + 1), 5 x1 -> records 3 + 4 + 5 = 12, 6 classes. */
static void test_class_sizes_make(void **state)
{
    (void)state;
    uint32_t size[] = {5, 2, 1, 2, 7}, count[] = {1, 1, 3, 1, 0};
    keps_class_sizes h;
    assert_int_equal(keps_class_sizes_make(size, count, 5, &h, NULL), KEPS_OK);
    assert_int_equal(h.n, 3);
    assert_int_equal(h.size[0], 1);
    assert_int_equal(h.count[0], 3);
    assert_int_equal(h.size[1], 2);
    assert_int_equal(h.count[1], 2);
    assert_int_equal(h.size[2], 5);
    assert_int_equal(h.records, 12);
    assert_int_equal(h.classes, 6);
    keps_class_sizes_free(&h);
}

/* Sample q = a a b b b c: classes 2, 3, 1 over 6 records.
 * prosecutor: highest 1/1 (1 record: 1/6), average 3/6, lowest 1/3 (3/6);
 * sample uniques 1/6. Population a x2, b x6, c x3, d x4 (F = 2, 6, 3):
 * journalist highest 1/2 (class a: 2/6 of the records), average
 * max(3/11, (2/2 + 3/6 + 1/3)/6 = 11/36) = 11/36, marketer 11/36. */
static void test_sample_risk_hand(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q\na\na\nb\nb\nb\nc\n");
    keps_table *p = table_from_csv("q\nd\na\nb\nb\nc\nb\nd\nb\nc\nd\na\nb\nd\nb\nc\n");
    size_t col = 0;
    keps_sample_risk s;
    assert_int_equal(keps_sample_risk_compute(t, &col, 1, KEPS_SUPPRESSED_EXCLUDE, NULL, NULL, &s, NULL), KEPS_OK);
    assert_double_near(s.prosecutor_highest, 1, 0);
    assert_double_near(s.prosecutor_share_at_highest, 1.0 / 6, 1e-15);
    assert_double_near(s.prosecutor_average, 0.5, 1e-15);
    assert_double_near(s.prosecutor_lowest, 1.0 / 3, 1e-15);
    assert_double_near(s.prosecutor_share_at_lowest, 0.5, 1e-15);
    assert_double_near(s.sample_uniques, 1.0 / 6, 1e-15);
    assert_double_near(s.journalist_average, 0.5, 1e-15);
    assert_double_near(s.marketer_average, 0.5, 1e-15);
    /* risk bands (ARX's): 1 -> (0.5, 1]; 1/2 -> (0.334, 0.5]; 1/3 -> (0.25, 0.334] */
    assert_double_near(s.band_share[KEPS_RISK_BANDS - 1], 1.0 / 6, 1e-15);
    assert_double_near(s.band_share[KEPS_RISK_BANDS - 2], 2.0 / 6, 1e-15);
    assert_double_near(s.band_share[KEPS_RISK_BANDS - 3], 3.0 / 6, 1e-15);
    keps_sample_risk_free(&s);
    assert_int_equal(keps_sample_risk_compute(t, &col, 1, KEPS_SUPPRESSED_EXCLUDE, p, &col, &s, NULL), KEPS_OK);
    assert_double_near(s.journalist_highest, 0.5, 0);
    assert_double_near(s.journalist_share_at_highest, 2.0 / 6, 1e-15);
    assert_double_near(s.journalist_average, 11.0 / 36, 1e-15);
    assert_double_near(s.marketer_average, 11.0 / 36, 1e-15);
    assert_double_near(s.prosecutor_average, 0.5, 1e-15); /* unchanged */
    keps_sample_risk_free(&s);
    /* a population lacking c, or holding b fewer times than the sample, is
     * no superset: error naming the first row of the class */
    keps_table *q = table_from_csv("q\na\na\nb\nb\nb\n");
    keps_error err = {0};
    assert_int_equal(keps_sample_risk_compute(t, &col, 1, KEPS_SUPPRESSED_EXCLUDE, q, &col, &s, &err),
                     KEPS_EINPUT);
    assert_non_null(strstr(err.msg, ":7:1:")); /* c is on line 7 */
    keps_table *r = table_from_csv("q\na\na\nb\nb\nc\n");
    assert_int_equal(keps_sample_risk_compute(t, &col, 1, KEPS_SUPPRESSED_EXCLUDE, r, &col, &s, &err),
                     KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "3 times"));
    keps_table_free(q);
    keps_table_free(r);
    keps_table_free(p);
    keps_table_free(t);
}

/* Zayatz by hand: sizes {1: 2, 2: 1} (n = 4, u = 3) from N = 8.
 * h(s) = P(X = 1), X hypergeometric (N = 8, s successes, 4 drawn):
 * h(1) = 4/8, h(2) = 2 C(6,3)/C(8,4) = 40/70 = 4/7.
 * uniqueness = (2/3)(1/2) / ((2/3)(1/2) + (1/3)(4/7)) = 7/11;
 * uniques = 2 (7/11) / (4/8) = 28/11; share 28/88 = 7/22. */
static void test_zayatz_hand(void **state)
{
    (void)state;
    uint32_t size[] = {1, 2}, count[] = {2, 1};
    keps_class_sizes h;
    assert_int_equal(keps_class_sizes_make(size, count, 2, &h, NULL), KEPS_OK);
    keps_uniqueness u;
    assert_int_equal(keps_population_uniqueness(&h, 8, &u, NULL), KEPS_OK);
    assert_double_near(u.uniques[KEPS_UNIQ_ZAYATZ], 28.0 / 11, 1e-13);
    assert_double_near(u.share[KEPS_UNIQ_ZAYATZ], 7.0 / 22, 1e-14);
    assert_double_near(u.sampling_fraction, 0.5, 0);
    /* f = 0.5 > 0.1: Dankar's rule takes Zayatz unless SNB is valid and not larger */
    assert_true(u.model == KEPS_UNIQ_ZAYATZ || u.model == KEPS_UNIQ_SNB);
    assert_double_near(u.uniques[KEPS_UNIQ_DANKAR], u.uniques[u.model], 0);
    /* a population smaller than the sample, or not whole, is refused */
    keps_error err = {0};
    assert_int_equal(keps_population_uniqueness(&h, 3, &u, &err), KEPS_EINPUT);
    assert_int_equal(keps_population_uniqueness(&h, 8.5, &u, &err), KEPS_EINPUT);
    keps_class_sizes_free(&h);
    /* no sample unique: every estimate 0, no model */
    uint32_t s2[] = {2, 3}, c2[] = {4, 1};
    assert_int_equal(keps_class_sizes_make(s2, c2, 2, &h, NULL), KEPS_OK);
    assert_int_equal(keps_population_uniqueness(&h, 1000, &u, NULL), KEPS_OK);
    for (int m = 0; m < KEPS_UNIQ_MODELS; m++)
        assert_double_near(u.share[m], 0, 0);
    assert_int_equal(u.model, KEPS_UNIQ_NONE);
    keps_class_sizes_free(&h);
    /* ARX's population from a sampling fraction: round(rows / F) */
    assert_double_near(keps_population_from_fraction(30162, 0.01), 3016200, 0);
    assert_double_near(keps_population_from_fraction(3, 0.4), 8, 0); /* 7.5 rounds up */
}

/* Benedetti-Franconi by hand (sdcMicro's "approx"): classes
 *  A: 1 record, weight 4:    p = 1/4, p/(1-p) = 1/3: (1/3) ln 4 = 0.46209812037329684
 *  B: 2 records, weights 3+5: p = 2/8, (1/3) - (1/9) ln 4 = 0.17930062654223438
 *  C: 3 records, weights 2 each: p = 3/6, 0.5 / (3 - 0.5) = 0.2
 *  D: 2 records, weights 1 each: f = F: 1/2.
 * Sum over the 8 records: 0.46209812 + 2(0.17930063) + 3(0.2) + 2(0.5) = 2.4206993734577656. */
static void test_individual_risk_hand(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q\nA\nB\nB\nC\nC\nC\nD\nD\n");
    double w[] = {4, 3, 5, 2, 2, 2, 1, 1};
    size_t col = 0;
    keps_individual_risk r;
    assert_int_equal(keps_individual_risk_compute(t, &col, 1, w, KEPS_SUPPRESSED_EXCLUDE, &r, NULL), KEPS_OK);
    assert_double_near(r.risk[0], 0.46209812037329684, 1e-15);
    assert_double_near(r.risk[1], 0.17930062654223438, 1e-15);
    assert_double_near(r.risk[2], 0.17930062654223438, 1e-15);
    assert_double_near(r.risk[3], 0.2, 1e-15);
    assert_double_near(r.risk[6], 0.5, 0);
    assert_double_near(r.sum, 2.4206993734577656, 1e-14);
    assert_double_near(r.highest, 0.5, 0);
    keps_individual_risk_free(&r);
    /* without weights: 1/f */
    assert_int_equal(keps_individual_risk_compute(t, &col, 1, NULL, KEPS_SUPPRESSED_EXCLUDE, &r, NULL), KEPS_OK);
    assert_double_near(r.risk[0], 1, 0);
    assert_double_near(r.risk[4], 1.0 / 3, 1e-15);
    assert_double_near(r.sum, 4, 1e-15); /* one per class */
    keps_individual_risk_free(&r);
    /* a weight of 0 is refused */
    w[5] = 0;
    assert_int_equal(keps_individual_risk_compute(t, &col, 1, w, KEPS_SUPPRESSED_EXCLUDE, &r, NULL), KEPS_EINPUT);
    keps_table_free(t);
}

/* Distinction and separation by hand on (x, y): rows (1,a) (1,a) (1,b)
 * (2,b). x: classes 3, 1: distinction 2/4, separation 1 - C(3,2)/C(4,2)
 * = 1 - 3/6 = 1/2. y: 2, 2: 2/4, 1 - 2/6 = 2/3. (x, y): 2, 1, 1: 3/4,
 * 1 - 1/6 = 5/6. */
static void test_attribute_risks_hand(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("x,y\n1,a\n1,a\n1,b\n2,b\n");
    size_t cols[] = {0, 1};
    keps_attribute_risks a;
    assert_int_equal(keps_attribute_risks_compute(t, cols, 2, 2, NULL, KEPS_SUPPRESSED_EXCLUDE, &a, NULL), KEPS_OK);
    assert_int_equal(a.n, 3);
    assert_int_equal(a.c[0].pos[0], 0);
    assert_double_near(a.c[0].distinction, 0.5, 0);
    assert_double_near(a.c[0].separation, 0.5, 1e-15);
    assert_int_equal(a.c[1].pos[0], 1);
    assert_double_near(a.c[1].separation, 2.0 / 3, 1e-15);
    assert_int_equal(a.c[2].size, 2);
    assert_double_near(a.c[2].distinction, 0.75, 0);
    assert_double_near(a.c[2].separation, 5.0 / 6, 1e-15);
    assert_int_equal(a.c[2].uniques, 2);
    keps_attribute_risks_free(&a);
    assert_int_equal(keps_attribute_risks_compute(t, cols, 2, 3, NULL, KEPS_SUPPRESSED_EXCLUDE, &a, NULL),
                     KEPS_EINPUT);
    assert_int_equal(keps_combinations(9, 2), 45);
    assert_int_equal(keps_combinations(9, 9), 511);
    keps_table_free(t);
}

/* SUDA scores of two published examples, as sdcMicro's suda2 gives them
 * (its tests/testthat/test_suda2.R lists them; keps's figures were also
 * checked against sdcMicro 5.8.1's C++ run on these tables, DIS included,
 * digit for digit): Templ's book example (scores of rows 5-8: 4, 2, 6, 8)
 * and the SDC guidelines' example (0 0 6 0 12 0 6 10 0 0). Hand check of
 * row 5 of the latter (Rural, Female, Secondary complete, Unemployed), 4
 * attributes, weight (4 - k)!: {Rural} 3! = 6; {Female, Secondary complete},
 * {Female, Unemployed}, {Secondary complete, Unemployed} 2! each: 12. */
static void test_suda_published(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,gender,income,education\n20s,male,50k+,highschool\n20s,male,50k+,highschool\n"
                                   "20s,male,50k-,highschool\n20s,male,50k-,highschool\n20s,female,50k-,university\n"
                                   "20s,female,50k-,highschool\n20s,female,50k-,middleschool\n60s,male,50k-,university\n");
    size_t cols[] = {0, 1, 2, 3};
    keps_suda s;
    assert_int_equal(keps_suda_compute(t, cols, 4, 4, KEPS_SUDA_DIS_FRACTION, KEPS_SUPPRESSED_EXCLUDE, &s, NULL),
                     KEPS_OK);
    static const double book[] = {0, 0, 0, 0, 4, 2, 6, 8};
    static const double book_dis[] = {0, 0, 0, 0, 0.010859095209110119, 0.0047558604060030348,
                                      0.017545170385026562, 0.024601057080283095};
    for (int r = 0; r < 8; r++) {
        assert_double_near(s.score[r], book[r], 0);
        assert_double_near(s.dis[r], book_dis[r], 1e-17);
    }
    keps_suda_free(&s);
    keps_table_free(t);
    t = table_from_csv("Residence,Gender,Education,Labor\nUrban,Female,Secondary incomplete,Employed\n"
                       "Urban,Female,Secondary incomplete,Employed\nUrban,Female,Primary incomplete,Non-LF\n"
                       "Urban,Male,Secondary complete,Employed\nRural,Female,Secondary complete,Unemployed\n"
                       "Urban,Male,Secondary complete,Employed\nUrban,Female,Primary complete,Non-LF\n"
                       "Urban,Male,Post-secondary,Unemployed\nUrban,Female,Secondary incomplete,Non-LF\n"
                       "Urban,Female,Secondary incomplete,Non-LF\n");
    assert_int_equal(keps_suda_compute(t, cols, 4, 4, KEPS_SUDA_DIS_FRACTION, KEPS_SUPPRESSED_EXCLUDE, &s, NULL),
                     KEPS_OK);
    static const double guide[] = {0, 0, 6, 0, 12, 0, 6, 10, 0, 0};
    for (int r = 0; r < 10; r++)
        assert_double_near(s.score[r], guide[r], 0);
    assert_double_near(s.dis[4], 0.011383006514236068, 1e-17);
    assert_int_equal(s.msus[4 * 4 + 0], 1); /* {Rural} */
    assert_int_equal(s.msus[4 * 4 + 1], 3);
    assert_int_equal(s.full_uniques, 4);
    assert_int_equal(s.pair_records, 6); /* three pairs */
    keps_suda_free(&s);
    keps_table_free(t);
    /* sdcMicro's contribution example: a = 2 1 1, b = 0 3 0, c = 0 6 0:
     * MSUs {a} of row 1, {b} and {c} of row 2 (2! each), {a,b} and {a,c}
     * of row 3 (1! each); total 8: a 4/8, b 3/8, c 3/8 -> 50, 37.5, 37.5 */
    t = table_from_csv("a,b,c\n2,0,0\n1,3,6\n1,0,0\n");
    size_t c3[] = {0, 1, 2};
    assert_int_equal(keps_suda_compute(t, c3, 3, 3, KEPS_SUDA_DIS_FRACTION, KEPS_SUPPRESSED_EXCLUDE, &s, NULL),
                     KEPS_OK);
    assert_double_near(s.contribution[0], 50, 1e-12);
    assert_double_near(s.contribution[1], 37.5, 1e-12);
    assert_double_near(s.contribution[2], 37.5, 1e-12);
    keps_suda_free(&s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_linkage_hand),
        cmocka_unit_test(test_record_linkage_groups),
        cmocka_unit_test(test_record_linkage_large_offset),
        cmocka_unit_test(test_prosecutor_hand),
        cmocka_unit_test(test_prosecutor_suppressed),
        cmocka_unit_test(test_class_sizes_make),
        cmocka_unit_test(test_sample_risk_hand),
        cmocka_unit_test(test_zayatz_hand),
        cmocka_unit_test(test_individual_risk_hand),
        cmocka_unit_test(test_attribute_risks_hand),
        cmocka_unit_test(test_suda_published),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
