/* keps models: k-anonymity, l-diversity, t-closeness figures against hand
 * computations (comments), Li et al. 2007's worked example and brute-force
 * oracles on random tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "keps/models.h"
#include "keps/rng.h"

#define TOL 1e-12

/* The release used by most tests. QIs age, zip; sensitive disease
 * (nominal) and salary (numeric, in thousands).
 *   class A = rows 1-3  ([20-30[, 476**): disease flu flu cancer,     salary 3 4 5
 *   class B = rows 4-7  ([30-40[, 4790*): flu gastritis cancer gastr., salary 6 11 8 7
 *   class C = rows 8-9  ([40-50[, 476**): cancer cancer,              salary 9 10
 *   row 10 suppressed   (*, *):           flu,                        salary 3
 * Row 11 has one QI starred only: it is NOT suppressed and forms class D'
 * in a separate test (see partial_star). */
static const char *RELEASE = "age,zip,disease,salary\n"
                             "[20-30[,476**,flu,3\n"
                             "[20-30[,476**,flu,4\n"
                             "[20-30[,476**,cancer,5\n"
                             "[30-40[,4790*,flu,6\n"
                             "[30-40[,4790*,gastritis,11\n"
                             "[30-40[,4790*,cancer,8\n"
                             "[30-40[,4790*,gastritis,7\n"
                             "[40-50[,476**,cancer,9\n"
                             "[40-50[,476**,cancer,10\n"
                             "*,*,flu,3\n";

static const size_t QI[] = {0, 1};
static const size_t SENS[] = {2, 3};

static void compute(keps_table *t, const keps_sensitive_type *types, keps_suppressed_mode mode, keps_models *m)
{
    keps_error err = {0};
    keps_status st = keps_models_compute(t, QI, 2, SENS, types, 2, mode, m, &err);
    if (st)
        fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(st, KEPS_OK);
}

/* Classes A=0, B=1, C=2 (first appearance); row 10 excluded.
 * Sizes 3, 4, 2: min 2 (C); by size C, A, B. Below k=3: C only (2 rows);
 * below k=4: C and A (5 rows); below k=2: none. */
static void test_k_anonymity(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(RELEASE);
    keps_models m;
    compute(t, NULL, KEPS_SUPPRESSED_EXCLUDE, &m);
    assert_int_equal(m.ec.nclasses, 3);
    assert_int_equal(m.ec.suppressed, 1);
    assert_int_equal(m.ec.class_of[9], KEPS_NONE);
    assert_int_equal(m.ec.size[0], 3);
    assert_int_equal(m.ec.size[1], 4);
    assert_int_equal(m.ec.size[2], 2);
    assert_int_equal(m.min_class, 2);
    assert_int_equal(m.by_size[0], 2);
    assert_int_equal(m.by_size[1], 0);
    assert_int_equal(m.by_size[2], 1);
    size_t c, r;
    keps_models_below_k(&m, 2, &c, &r);
    assert_int_equal(c, 0);
    assert_int_equal(r, 0);
    keps_models_below_k(&m, 3, &c, &r);
    assert_int_equal(c, 1);
    assert_int_equal(r, 2);
    keps_models_below_k(&m, 4, &c, &r);
    assert_int_equal(c, 2);
    assert_int_equal(r, 5);
    keps_models_free(&m);
    keps_table_free(t);
}

/* disease: distinct A {flu,cancer}=2, B {flu,gastritis,cancer}=3, C {cancer}=1 -> min 1 (C).
 * Entropy (natural log):
 *   A (2/3,1/3): H = ln 3 - (2/3) ln 2 = 0.636514, exp(H) = 3 / 2^(2/3) = 1.889882
 *   B (1/4,1/2,1/4): H = 1.5 ln 2, exp(H) = 2^1.5 = 2.828427
 *   C (1): H = 0, exp(H) = 1                                -> min 1 (C)
 * Whole table (10 rows, suppressed row included): flu 4, cancer 4, gastritis 2
 *   Q = (flu .4, cancer .4, gastritis .2)
 * Equal-distance EMD = 1/2 sum |p - q|:
 *   A (flu 2/3, cancer 1/3, g 0): (4/15 + 1/15 + 1/5)/2 = 4/15 = 0.266667
 *   B (1/4, 1/4, 1/2):            (.15 + .15 + .3)/2   = 0.3
 *   C (0, 1, 0):                  (.4 + .6 + .2)/2     = 0.6   -> max 0.6 (C)
 * salary (numeric -> ordered): whole-table values 3..11, m = 9,
 *   Q = (2/10 for 3, 1/10 for each of 4..11).
 *   distinct A 3, B 4, C 2 -> min 2 (C); exp(H) A 3, B 4, C 2 -> min 2 (C).
 * Ordered EMD = 1/8 sum_i |cumulative (p - q)| over ranks 3,4,...,11:
 *   A {3,4,5}: p - q = 2/15, 7/30, 7/30, -.1 x6
 *      cumulative 4/30, 11/30, 18/30, 15/30, 12/30, 9/30, 6/30, 3/30, 0
 *      sum 78/30 = 2.6 -> 0.325
 *   B {6,7,8,11}: p - q = -.2, -.1, -.1, .15, .15, .15, -.1, -.1, .15
 *      cumulative -.2, -.3, -.4, -.25, -.1, .05, -.05, -.15, 0 -> 1.5/8 = 0.1875
 *   C {9,10}: p - q = -.2, -.1 x5, .4, .4, -.1
 *      cumulative -.2, -.3, -.4, -.5, -.6, -.7, -.3, .1, 0 -> 3.1/8 = 0.3875 -> max (C) */
static void test_l_diversity_and_t_closeness(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(RELEASE);
    keps_models m;
    compute(t, NULL, KEPS_SUPPRESSED_EXCLUDE, &m);
    const keps_sensitive_figures *d = &m.sens[0], *s = &m.sens[1];
    assert_int_equal(d->type, KEPS_SENSITIVE_NOMINAL);
    assert_int_equal(d->min_distinct, 1);
    assert_int_equal(d->min_distinct_class, 2);
    assert_double_near(d->min_entropy_l, 1.0, TOL);
    assert_int_equal(d->min_entropy_class, 2);
    assert_double_near(d->max_emd, 0.6, TOL);
    assert_int_equal(d->max_emd_class, 2);
    assert_int_equal(d->distinct_values, 3);

    assert_int_equal(s->type, KEPS_SENSITIVE_ORDERED);
    assert_int_equal(s->distinct_values, 9);
    assert_int_equal(s->missing_ignored, 0);
    assert_int_equal(s->min_distinct, 2);
    assert_double_near(s->min_entropy_l, 2.0, TOL);
    assert_double_near(s->max_emd, 0.3875, TOL);
    assert_int_equal(s->max_emd_class, 2);

    /* the holds-tests at and across the bounds */
    assert_true(keps_t_closeness_holds(d->max_emd, 0.6));
    assert_false(keps_t_closeness_holds(d->max_emd, 0.5));
    assert_true(keps_entropy_l_holds(s->min_entropy_l, 2.0));
    assert_false(keps_entropy_l_holds(s->min_entropy_l, 2.01));
    keps_models_free(&m);
    keps_table_free(t);
}

/* salary forced nominal: Q = (.2, .1 x8)
 *   A {3,4,5}:    (2/15 + 7/30 + 7/30 + .1 x6)/2 = (36/30)/2 = 0.6
 *   B {6,7,8,11}: (.2 + .1 + .1 + .15 x4 + .1 + .1)/2 = 1.2/2 = 0.6
 *   C {9,10}:     (.2 + .1 x6 + .4 x2)/2 = 1.6/2 = 0.8   -> max 0.8 (C) */
static void test_forced_nominal(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(RELEASE);
    keps_models m;
    keps_sensitive_type ty[2] = {KEPS_SENSITIVE_AUTO, KEPS_SENSITIVE_NOMINAL};
    compute(t, ty, KEPS_SUPPRESSED_EXCLUDE, &m);
    assert_int_equal(m.sens[1].type, KEPS_SENSITIVE_NOMINAL);
    assert_double_near(m.sens[1].max_emd, 0.8, TOL);
    assert_int_equal(m.sens[1].max_emd_class, 2);
    keps_models_free(&m);
    /* ordered on a non-numeric column is an error naming the cell:
     * 'flu' is first on line 2, column 3 */
    keps_error err = {0};
    ty[0] = KEPS_SENSITIVE_ORDERED;
    assert_int_equal(keps_models_compute(t, QI, 2, SENS, ty, 2, KEPS_SUPPRESSED_EXCLUDE, &m, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:2:3:"));
    assert_non_null(strstr(err.msg, "'flu' is not a number"));
    keps_table_free(t);
}

/* --suppressed class: row 10 is class D = 3 (size 1, flu, salary 3).
 *   min class 1 (D); disease: distinct 1 (C first, then D tie -> C),
 *   EMD D = (.6 + .4 + .2)/2 = 0.6, ties with C -> C stays the worst.
 *   salary ordered D {3}: p - q = .8, -.1 x8; cumulative .8,.7,...,.1,0
 *      sum 3.6 -> 3.6/8 = 0.45 > 0.3875 -> worst D. */
static void test_suppressed_as_class(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(RELEASE);
    keps_models m;
    compute(t, NULL, KEPS_SUPPRESSED_CLASS, &m);
    assert_int_equal(m.ec.nclasses, 4);
    assert_int_equal(m.ec.suppressed, 1);
    assert_int_equal(m.ec.class_of[9], 3);
    assert_int_equal(m.min_class, 1);
    assert_int_equal(m.by_size[0], 3);
    assert_double_near(m.sens[0].max_emd, 0.6, TOL);
    assert_int_equal(m.sens[0].max_emd_class, 2);
    assert_double_near(m.sens[1].max_emd, 0.45, TOL);
    assert_int_equal(m.sens[1].max_emd_class, 3);
    keps_models_free(&m);
    keps_table_free(t);
}

/* Only rows with every QI '*' are suppressed: (*, 476**) is a class. */
static void test_partial_star(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,zip,d,s\n*,476**,x,1\n*,*,y,2\n*,476**,y,3\n");
    keps_models m;
    compute(t, NULL, KEPS_SUPPRESSED_EXCLUDE, &m);
    assert_int_equal(m.ec.nclasses, 1);
    assert_int_equal(m.ec.size[0], 2);
    assert_int_equal(m.ec.suppressed, 1);
    keps_models_free(&m);
    keps_table_free(t);
}

/* Minimum distinct and minimum entropy in different classes:
 *   X (10 rows: a x8, b, c): distinct 3, H = .8 ln 1.25 + .2 ln 10 = 0.639032 (exp: e^.6 e^.039032 = 1.822119 x 1.039804), exp(H) = 1.894646
 *   Y (2 rows: a, b):        distinct 2, exp(H) = 2
 *   -> min distinct 2 (Y = class 1), min exp(H) 1.894646 (X = class 0). */
static void test_entropy_vs_distinct(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q,s\nx,a\nx,a\nx,a\nx,a\nx,a\nx,a\nx,a\nx,a\nx,b\nx,c\ny,a\ny,b\n");
    size_t qi = 0, sens = 1;
    keps_models m;
    keps_error err = {0};
    assert_int_equal(keps_models_compute(t, &qi, 1, &sens, NULL, 1, KEPS_SUPPRESSED_EXCLUDE, &m, &err), KEPS_OK);
    assert_int_equal(m.sens[0].min_distinct, 2);
    assert_int_equal(m.sens[0].min_distinct_class, 1);
    assert_double_near(m.sens[0].min_entropy_l, exp(0.8 * log(1.25) + 0.2 * log(10.0)), TOL);
    assert_double_near(m.sens[0].min_entropy_l, 1.894646, 1e-6);
    assert_int_equal(m.sens[0].min_entropy_class, 0);
    keps_models_free(&m);
    keps_table_free(t);
}

/* Missing cells in an ordered column: left out of the EMD.
 *   non-missing values 1, 2, 3 (m = 3), Q = (1/3, 1/3, 1/3); 2 missing rows.
 *   A {1, ?}: P = (1,0,0): cumulative 2/3, 1/3, 0 -> 1/2 = 0.5
 *   B {2, 3}: P = (0,.5,.5): cumulative -1/3, -1/6, 0 -> (1/2)/2 = 0.25
 *   C {?}: skipped. Max 0.5 (A). Distinct (missing is a value): A 2, B 2, C 1. */
static void test_missing_ordered(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q,s\na,1\na,\nb,2\nb,3\nc,\n");
    size_t qi = 0, sens = 1;
    keps_models m;
    keps_error err = {0};
    assert_int_equal(keps_models_compute(t, &qi, 1, &sens, NULL, 1, KEPS_SUPPRESSED_EXCLUDE, &m, &err), KEPS_OK);
    assert_int_equal(m.sens[0].type, KEPS_SENSITIVE_ORDERED);
    assert_int_equal(m.sens[0].missing_ignored, 2);
    assert_int_equal(m.sens[0].distinct_values, 3);
    assert_double_near(m.sens[0].max_emd, 0.5, TOL);
    assert_int_equal(m.sens[0].max_emd_class, 0);
    assert_int_equal(m.sens[0].min_distinct, 1);
    assert_int_equal(m.sens[0].min_distinct_class, 2);
    keps_models_free(&m);
    keps_table_free(t);
}

/* Li, Li, Venkatasubramanian 2007, Section 4: salaries 3k..11k uniform (Q),
 * P1 = {3k,4k,5k} -> D = 0.375, P2 = {6k,8k,11k} -> D = 0.167 (1/6). */
static void test_li_example(void **state)
{
    (void)state;
    double q[9], p1[9] = {0}, p2[9] = {0};
    for (int i = 0; i < 9; i++)
        q[i] = 1.0 / 9;
    p1[0] = p1[1] = p1[2] = 1.0 / 3;
    p2[3] = p2[5] = p2[8] = 1.0 / 3;
    assert_double_near(keps_emd_ordered(p1, q, 9), 0.375, TOL);
    assert_double_near(keps_emd_ordered(p2, q, 9), 1.0 / 6, TOL);
    /* equal distance: P1 differs from Q by 2/9 on 3 values, 1/9 on 6: (6/9 + 6/9)/2 = 2/3 */
    assert_double_near(keps_emd_equal(p1, q, 9), 2.0 / 3, TOL);
}

/* Random tables against brute force: classes by pairwise comparison of QI
 * strings; per-class distributions and EMDs by the plain formulas. */
static void test_random_oracle(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(7);
    for (int round = 0; round < 20; round++) {
        size_t n = 50 + keps_rng_below(rng, 300);
        size_t cap = 64 + n * 32;
        char *csv = malloc(cap), *p = csv;
        p += sprintf(p, "a,b,c,s\n");
        int da = 1 + (int)keps_rng_below(rng, 5), db = 1 + (int)keps_rng_below(rng, 4),
            ds = 2 + (int)keps_rng_below(rng, 12);
        for (size_t r = 0; r < n; r++) {
            int a = (int)keps_rng_below(rng, (uint64_t)da), b = (int)keps_rng_below(rng, (uint64_t)db);
            int star = keps_rng_below(rng, 10) == 0;
            int s = (int)keps_rng_below(rng, (uint64_t)ds);
            if (star)
                p += sprintf(p, "*,*,*,%d\n", s * 3);
            else
                p += sprintf(p, "%d,x%d,%d,%d\n", a, b, (a * 7 + b) % 3, s * 3);
        }
        keps_table *t = table_from_csv(csv);
        free(csv);
        size_t qi[3] = {0, 1, 2}, sens[2] = {3, 3};
        keps_sensitive_type ty[2] = {KEPS_SENSITIVE_ORDERED, KEPS_SENSITIVE_NOMINAL};
        keps_models m;
        keps_error err = {0};
        assert_int_equal(keps_models_compute(t, qi, 3, sens, ty, 2, KEPS_SUPPRESSED_EXCLUDE, &m, &err), KEPS_OK);

        /* classes: rows equal on every QI string share a class, others not */
        for (size_t i = 0; i < n; i++) {
            int supp = !strcmp(keps_table_str(t, 0, i), "*") && !strcmp(keps_table_str(t, 1, i), "*");
            assert_int_equal(m.ec.class_of[i] == KEPS_NONE, supp);
            for (size_t j = i + 1; j < n && !supp; j++) {
                int eq = 1;
                for (int c = 0; c < 3; c++)
                    eq &= !strcmp(keps_table_str(t, (size_t)c, i), keps_table_str(t, (size_t)c, j));
                assert_int_equal(m.ec.class_of[i] == m.ec.class_of[j], eq);
            }
        }
        /* distributions over the sorted distinct salaries */
        double vals[64];
        size_t mv = 0;
        for (int v = 0; v < ds; v++) {
            char buf[16];
            snprintf(buf, sizeof buf, "%d", v * 3);
            if (keps_table_lookup(t, 3, buf, strlen(buf)) != KEPS_NONE)
                vals[mv++] = v * 3;
        }
        double q[64] = {0};
        for (size_t r = 0; r < n; r++)
            for (size_t v = 0; v < mv; v++)
                if (atof(keps_table_str(t, 3, r)) == vals[v])
                    q[v] += 1.0 / (double)n;
        double max_ord = 0, max_eq = 0, min_el = HUGE_VAL;
        for (size_t e = 0; e < m.ec.nclasses; e++) {
            double pe[64] = {0};
            for (size_t r = 0; r < n; r++)
                if (m.ec.class_of[r] == e)
                    for (size_t v = 0; v < mv; v++)
                        if (atof(keps_table_str(t, 3, r)) == vals[v])
                            pe[v] += 1.0 / m.ec.size[e];
            double h = 0;
            for (size_t v = 0; v < mv; v++)
                if (pe[v] > 0)
                    h -= pe[v] * log(pe[v]);
            max_ord = fmax(max_ord, keps_emd_ordered(pe, q, mv));
            max_eq = fmax(max_eq, keps_emd_equal(pe, q, mv));
            min_el = fmin(min_el, exp(h));
        }
        assert_double_near(m.sens[0].max_emd, max_ord, 1e-9);
        assert_double_near(m.sens[1].max_emd, max_eq, 1e-9);
        if (m.ec.nclasses)
            assert_double_near(m.sens[0].min_entropy_l, min_el, 1e-9);
        keps_models_free(&m);
        keps_table_free(t);
    }
    keps_rng_free(rng);
}

static void test_no_qi(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a\n1\n");
    keps_models m;
    keps_error err = {0};
    assert_int_equal(keps_models_compute(t, NULL, 0, NULL, NULL, 0, KEPS_SUPPRESSED_EXCLUDE, &m, &err),
                     KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "no quasi-identifier"));
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_k_anonymity),      cmocka_unit_test(test_l_diversity_and_t_closeness),
        cmocka_unit_test(test_forced_nominal),   cmocka_unit_test(test_suppressed_as_class),
        cmocka_unit_test(test_partial_star),     cmocka_unit_test(test_entropy_vs_distinct),
        cmocka_unit_test(test_missing_ordered),  cmocka_unit_test(test_li_example),
        cmocka_unit_test(test_random_oracle),    cmocka_unit_test(test_no_qi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
