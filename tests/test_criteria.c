/* Privacy criteria (keps/criteria.h) on hand-computed classes. Every
 * expected value is worked out in the comment next to it from the papers'
 * definitions (ARX's arithmetic where it decides a bound). */
#include "testutil.h"

#include <string.h>

#include "keps/criteria.h"
#include "keps/partition.h"
#include "keps/rng.h"

/* A table whose sensitive column s holds 5 a, 3 b, 2 c (10 rows, q = .5,
 * .3, .2) and a numeric column x with 5 x 1, 3 x 2, 2 x 3. */
static keps_table *abc_table(void)
{
    return table_from_csv("s,x,id\na,1,1\na,1,2\na,1,3\na,1,4\na,1,5\nb,2,6\nb,2,7\nb,2,8\nc,3,9\nc,3,10\n");
}

/* A class view over one sensitive column: values (ids) and counts. */
typedef struct {
    uint32_t val[8], cnt[8], n;
    const uint32_t *vp[1], *cp[1];
    keps_class_view v;
} view1;

static const keps_class_view *mkview(view1 *w, const keps_criteria *k, const char *spec)
{
    /* spec: "a:3 c:1" with ids from the column's codes (nominal) */
    memset(w, 0, sizeof *w);
    uint32_t tmpv[8], tmpc[8], n = 0;
    for (const char *p = spec; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char name = *p;
        int cnt = atoi(p + 2);
        tmpv[n] = (uint32_t)(name - 'a'); /* a, b, c are codes 0, 1, 2 (first appearance) */
        tmpc[n++] = (uint32_t)cnt;
        while (*p && *p != ' ')
            p++;
    }
    (void)k;
    /* increasing ids */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++)
            if (tmpv[j] < tmpv[i]) {
                uint32_t a = tmpv[i], b = tmpc[i];
                tmpv[i] = tmpv[j], tmpc[i] = tmpc[j];
                tmpv[j] = a, tmpc[j] = b;
            }
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        w->val[i] = tmpv[i], w->cnt[i] = tmpc[i];
        total += tmpc[i];
    }
    w->n = n;
    w->vp[0] = w->val;
    w->cp[0] = w->cnt;
    w->v.count = w->v.pcount = total;
    w->v.val = w->vp;
    w->v.cnt = w->cp;
    w->v.nval = &w->n;
    return &w->v;
}

static keps_criteria *mk(keps_table *t, keps_sensitive_type type, const keps_hierarchy *h, keps_criterion c)
{
    keps_sensitive_spec sp = {0, type, h};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, &sp, 1, &c, 1, NULL, &k, &err), KEPS_OK);
    return k;
}

static int passes(keps_table *t, keps_sensitive_type type, const keps_hierarchy *h, keps_criterion c,
                  const char *cls, double *figure)
{
    keps_criteria *k = mk(t, type, h, c);
    view1 w;
    const keps_class_view *v = mkview(&w, k, cls);
    int ok = keps_criterion_check(k, 0, v);
    assert_int_equal(keps_criteria_check_class(k, v), ok ? 0 : 1);
    if (figure)
        *figure = keps_criterion_figure(k, 0, v);
    keps_criteria_free(k);
    return ok;
}

#define CRIT(kind, a, b, var) ((keps_criterion){(kind), 0, {(a), (b)}, (var)})

/* G_n: exact sums computed with Python's fractions and 50-digit decimals:
 * G_1 = -gamma - ln 2 = -1.27036284546147817..., G_2 = G_1 + 2 = 0.72963715...,
 * G_4 = G_1 + 2 + 2/3, G_100 = G_1 + sum_{j<=50} 2/(2j-1) = 4.605186851488337;
 * above 100: ln n + m/24 - 7m^2/960 + 31 m^3/8064, m = 1/(n/2)^2 (n = 200:
 * ln 200 + 1e-4/24 - ... = 5.29832153314179). */
static void test_grassberger(void **state)
{
    (void)state;
    assert_true(keps_grassberger_g(1) == -1.2703628454614782);
    assert_true(keps_grassberger_g(2) == 0.7296371545385218);
    assert_true(keps_grassberger_g(3) == 0.7296371545385218);
    assert_true(keps_grassberger_g(4) == 1.3963038212051886);
    assert_true(keps_grassberger_g(100) == 4.605186851488337);
    assert_double_near(keps_grassberger_g(200), 5.29832153314179, 1e-14);
    assert_double_near(keps_grassberger_g(201), keps_grassberger_g(200), 0);
}

static void test_l_diversity(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    double f;
    /* distinct */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_DISTINCT_L, 2, 0, 0), "a:3 c:1", &f));
    assert_double_near(f, 2, 0);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_DISTINCT_L, 3, 0, 0), "a:3 c:1", NULL));
    /* Shannon: {a:2, b:2} has H = ln 2 exactly: 2-diverse at the bound
     * (4 (ln 4 - ln 2) = 4 ln 2 = 2 ln 2 + 2 ln 2); {a:3, b:1} has
     * H = -(.75 ln .75 + .25 ln .25) = 0.5623 < ln 2 */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_ENTROPY_L, 2, 0, 0), "a:2 b:2", &f));
    assert_double_near(f, 2, 1e-12);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_ENTROPY_L, 2, 0, 0), "a:3 b:1", &f));
    assert_double_near(f, exp(0.5623351446188083), 1e-12);
    /* fewer distinct values than ceil(l) fails whatever the entropy */
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_ENTROPY_L, 1.5, 0, 0), "a:4", NULL));
    /* Grassberger: {a:1, b:1}: G_2 - (G_1 + G_1)/2 = 0.7296 + 1.2704 = 2.0
     * >= ln 2; {a:2, b:2}: G_4 - G_2 = 0.6667 < ln 2 = 0.6931 */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_ENTROPY_L, 2, 0, KEPS_ENTROPY_GRASSBERGER),
                       "a:1 b:1", &f));
    assert_double_near(f, exp(2.0), 1e-12);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_ENTROPY_L, 2, 0, KEPS_ENTROPY_GRASSBERGER),
                        "a:2 b:2", &f));
    assert_double_near(f, exp(2.0 / 3.0), 1e-12);
    /* recursive (c,l) = (2,2): counts 5,3,1: r1 = 5 < 2 (3 + 1) = 8 holds;
     * c = 1: 5 < 4 fails; l = 3: 5 < 2 * 1 fails */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_RECURSIVE_CL, 2, 2, 0), "a:5 b:3 c:1", &f));
    assert_double_near(f, 5.0 / 4.0, 1e-15);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_RECURSIVE_CL, 1, 2, 0), "a:5 b:3 c:1", NULL));
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_RECURSIVE_CL, 2, 3, 0), "a:5 b:3 c:1", NULL));
    /* r1 = 4 < 2 (4) at the bound: strict, fails */
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_RECURSIVE_CL, 1, 2, 0), "a:4 b:4", NULL));
    keps_table_free(t);
}

/* A two-level hierarchy over a, b, c: {a, b} -> X, c -> Y, then '*'. */
static keps_hierarchy *abc_hierarchy(void)
{
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    const char *txt = "a;X;*\nb;X;*\nc;Y;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(txt, strlen(txt), "h.csv", ';', &h, &err), KEPS_OK);
    return h;
}

static void test_t_closeness(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    double f;
    /* equal: q = (.5, .3, .2), class {a, b}: p = (.5, .5, 0):
     * 1/2 (0 + .2 + .2) = 0.2 */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_T_CLOSENESS, 0.2, 0, 0), "a:1 b:1", &f));
    assert_double_near(f, 0.2, 1e-15);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_T_CLOSENESS, 0.19, 0, 0), "a:1 b:1", NULL));
    /* hierarchical, class {a, c}: p - q = (0, -.3, +.3): X moves nothing
     * (pos 0), Y nothing, the root moves .3 at cost 2/2: EMD = 0.3. Class
     * {b, b}: p - q = (-.5, +.7, -.2): X moves .5 at cost 1/2 (.25) and
     * passes +.2 up, Y passes -.2, the root moves .2 at 1: EMD = 0.45 */
    keps_hierarchy *h = abc_hierarchy();
    assert_true(passes(t, KEPS_SENSITIVE_HIERARCHICAL, h, CRIT(KEPS_CRIT_T_CLOSENESS, 0.3, 0, 0), "a:1 c:1", &f));
    assert_double_near(f, 0.3, 1e-15);
    assert_false(passes(t, KEPS_SENSITIVE_HIERARCHICAL, h, CRIT(KEPS_CRIT_T_CLOSENESS, 0.44, 0, 0), "b:2", &f));
    assert_double_near(f, 0.45, 1e-15);
    keps_hierarchy_free(h);
    keps_table_free(t);
}

/* Ordered EMD on the numeric column x (1, 2, 3 with q = .5, .3, .2): class
 * {3}: cumulative p - q = -.5, -.8, 0: (0.5 + 0.8) / (3 - 1) = 0.65; class
 * {1, 3}: p = (.5, 0, .5): 0, -.3, 0 -> 0.15. Ordered text sorts by bytes:
 * the column s ordered (a < b < c) gives the same figures. */
static void test_ordered(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    keps_sensitive_spec sp[2] = {{1, KEPS_SENSITIVE_AUTO, NULL}, {0, KEPS_SENSITIVE_ORDERED, NULL}};
    keps_criterion c[2] = {{KEPS_CRIT_T_CLOSENESS, 0, {0.65, 0}, 0}, {KEPS_CRIT_T_CLOSENESS, 1, {0.64, 0}, 0}};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, sp, 2, c, 2, NULL, &k, &err), KEPS_OK);
    assert_int_equal(keps_criteria_sensitive_type(k, 0), KEPS_SENSITIVE_ORDERED);
    assert_int_equal(keps_criteria_nvalues(k, 0), 3);
    /* value ids are ranks: x = 1, 2, 3 -> 0, 1, 2 */
    uint32_t v0[1] = {2}, c0[1] = {1}, n0 = 1;
    const uint32_t *vp[2] = {v0, v0}, *cp[2] = {c0, c0};
    uint32_t nv[2] = {n0, n0};
    keps_class_view v = {1, 1, vp, cp, nv};
    assert_double_near(keps_criterion_figure(k, 0, &v), 0.65, 1e-15);
    assert_double_near(keps_criterion_figure(k, 1, &v), 0.65, 1e-15);
    assert_true(keps_criterion_check(k, 0, &v));
    assert_false(keps_criterion_check(k, 1, &v));
    assert_int_equal(keps_criteria_check_class(k, &v), 2);
    uint32_t v1[2] = {0, 2}, c1[2] = {1, 1};
    vp[0] = vp[1] = v1, cp[0] = cp[1] = c1, nv[0] = nv[1] = 2;
    v.count = v.pcount = 2;
    assert_double_near(keps_criterion_figure(k, 0, &v), 0.15, 1e-15);
    keps_criteria_free(k);
    keps_table_free(t);
}

static void test_likeness_disclosure(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    double f;
    /* basic beta = 1: {a:3, c:1}: (.75-.5)/.5 = .5, (.25-.2)/.2 = .25 */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_BETA_LIKENESS, 1, 0, 0), "a:3 c:1", &f));
    assert_double_near(f, 0.5, 1e-15);
    /* {c:2}: (1 - .2)/.2 = 4 */
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_BETA_LIKENESS, 1, 0, 0), "c:2", &f));
    assert_double_near(f, 4, 1e-12);
    /* {a:2, c:3}: c at (.6 - .2)/.2 = 2: basic beta = 2 holds; enhanced
     * caps c's bound at -ln .2 = 1.609 and fails */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_BETA_LIKENESS, 2.0000001, 0, 0), "a:2 c:3",
                       NULL));
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL,
                        CRIT(KEPS_CRIT_BETA_LIKENESS, 2.0000001, 0, KEPS_BETA_ENHANCED), "a:2 c:3", NULL));
    /* delta-disclosure 1: {a:1, b:1}: log2(.5/.5) = 0, log2(.5/.3) = 0.737;
     * {b:2}: log2(1/.3) = 1.737 >= 1 fails; the absent values do not count */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_DELTA_DISCLOSURE, 1, 0, 0), "a:1 b:1", &f));
    assert_double_near(f, log2(0.5 / 0.3), 1e-12);
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_DELTA_DISCLOSURE, 1, 0, 0), "b:2", NULL));
    /* multiplicative t = 2: {a:5, b:3, c:2}: every ratio 1; {a:2, b:1}: c
     * absent -> infinite; {a:2, b:2, c:1}: p = .4, .4, .2 vs .5, .3, .2:
     * worst .4/.3 = 1.333 */
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_MULT_T, 1, 0, 0), "a:5 b:3 c:2", NULL));
    assert_false(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_MULT_T, 2, 0, 0), "a:2 b:1", &f));
    assert_true(isinf(f));
    assert_true(passes(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_MULT_T, 1.34, 0, 0), "a:2 b:2 c:1", &f));
    assert_double_near(f, 0.4 / 0.3, 1e-12);
    keps_table_free(t);
}

/* delta-presence and k-map against a research subset: rows 1, 2, 6 are
 * released. */
static void test_presence_kmap(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    uint8_t sub[10] = {1, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    keps_criterion c[2] = {{KEPS_CRIT_DELTA_PRESENCE, 0, {0.05, 0.2}, 0}, {KEPS_CRIT_K_MAP, 0, {5, 0}, 0}};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, NULL, 0, c, 2, NULL, &k, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "research subset"));
    assert_int_equal(keps_criteria_new(t, NULL, 0, c, 2, sub, &k, &err), KEPS_OK);
    assert_int_equal(keps_criteria_released(k), 3);
    keps_class_view v = {2, 10, NULL, NULL, NULL};
    assert_int_equal(keps_criteria_check_class(k, &v), 0); /* 2/10 = 0.2 <= 0.2, 10 >= 5 */
    v.count = 3;
    assert_int_equal(keps_criteria_check_class(k, &v), 1); /* 0.3 */
    v.count = 1, v.pcount = 4;
    assert_int_equal(keps_criteria_check_class(k, &v), 1); /* 0.25 */
    v.count = 0, v.pcount = 4;
    assert_int_equal(keps_criteria_check_class(k, &v), 1); /* 0 < 0.05 */
    v.count = 1, v.pcount = 20;
    assert_int_equal(keps_criteria_check_class(k, &v), 0);
    c[1].p[0] = 21;
    keps_criteria_free(k);
    assert_int_equal(keps_criteria_new(t, NULL, 0, c, 2, sub, &k, &err), KEPS_OK);
    assert_int_equal(keps_criteria_check_class(k, &v), 2); /* 20 < 21 */
    keps_criteria_free(k);
    keps_table_free(t);
}

/* Sizes 1, 1, 2, 5, 10 (19 rows, 5 classes). Average risk: 5/19 = .263;
 * suppressing one class 4/18 = .222, two 3/17 = .176. Uniqueness: 2/19 =
 * .105, then 1/18 = .0556, then 0. */
/* k-map estimated from the population size (El Emam & Dankar 2008, as ARX
 * derives it): 10 rows of a population of 10,000, k = 10: lambda = 0.01.
 * Poisson: P(0) = e^-0.01 = 0.99005 >= 0.99 at the first count, ARX returns
 * count + 1 = 2; zero-truncated: P(1)/(1 - P(0)) = 0.0099005/0.0099502 =
 * 0.99501 >= 0.99, count 2. k = 3 of a population of 1,000 (lambda = 0.03):
 * CDF(0) = 0.97045, CDF(1) = 0.99956 -> 3 (Poisson, then capped at k). */
static void test_kmap_estimated(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    struct {
        double k, pop;
        int est;
        size_t want;
    } cases[] = {{10, 10000, KEPS_KMAP_POISSON, 2}, {10, 10000, KEPS_KMAP_ZERO_TRUNCATED_POISSON, 2},
                 {3, 1000, KEPS_KMAP_POISSON, 3}, {3, 1000, KEPS_KMAP_ZERO_TRUNCATED_POISSON, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        keps_criterion c = {KEPS_CRIT_K_MAP, 0, {cases[i].k, 0.01, cases[i].pop}, cases[i].est};
        keps_criteria *k = NULL;
        keps_error err = {0};
        assert_int_equal(keps_criteria_new(t, NULL, 0, &c, 1, NULL, &k, &err), KEPS_OK);
        assert_int_equal(keps_criteria_kmap_derived_k(k, 0), cases[i].want);
        assert_int_equal(keps_criteria_min_class_size(k), cases[i].want);
        keps_class_view v = {(uint32_t)cases[i].want, 0, NULL, NULL, NULL};
        assert_int_equal(keps_criteria_check_class(k, &v), 0);
        v.count--;
        assert_int_equal(keps_criteria_check_class(k, &v), 1);
        keps_criteria_free(k);
    }
    keps_table_free(t);
}

static void test_sample_based(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    uint32_t sizes[5] = {1, 1, 2, 5, 10};
    struct {
        keps_criterion_kind kind;
        double r;
        size_t want;
    } cases[] = {{KEPS_CRIT_AVERAGE_RISK, 0.3, 0}, {KEPS_CRIT_AVERAGE_RISK, 0.2, 2},
                 {KEPS_CRIT_AVERAGE_RISK, 0.2222222222222223, 1}, {KEPS_CRIT_SAMPLE_UNIQUENESS, 0.05, 2},
                 {KEPS_CRIT_SAMPLE_UNIQUENESS, 0.06, 1}, {KEPS_CRIT_SAMPLE_UNIQUENESS, 0, 2},
                 {KEPS_CRIT_AVERAGE_RISK, 0, 5}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        keps_criterion c = {cases[i].kind, 0, {cases[i].r, 0}, 0};
        keps_criteria *k = NULL;
        keps_error err = {0};
        assert_int_equal(keps_criteria_new(t, NULL, 0, &c, 1, NULL, &k, &err), KEPS_OK);
        assert_true(keps_criteria_has_sample_based(k));
        assert_int_equal(keps_criteria_sample_prefix(k, sizes, 5), cases[i].want);
        keps_criteria_free(k);
    }
    keps_table_free(t);
}

/* (k,t) with N = 10 (a 5, b 3, c 2), k = 9: the 9 rows holding c least
 * hold it once: q/p = .2/(1/9) = 1.8 (a: .5/(4/9) = 1.125, b: .3/(2/9) =
 * 1.35; the most-holding subsets give 5/9/.5 = 1.11); k = 8 can miss c. */
static void test_kt(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    keps_criteria *k = mk(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_KT_CLOSENESS, 9, 2, 0));
    assert_double_near(keps_criteria_kt_level(k, 0), 1.8, 1e-12);
    keps_criteria_free(k);
    k = mk(t, KEPS_SENSITIVE_NOMINAL, NULL, CRIT(KEPS_CRIT_KT_CLOSENESS, 8, 2, 0));
    assert_true(isinf(keps_criteria_kt_level(k, 0)));
    keps_criteria_free(k);
    keps_table_free(t);
}

static void test_properties(void **state)
{
    (void)state;
    keps_table *t = abc_table();
    keps_criterion c[3] = {{KEPS_CRIT_K_ANONYMITY, 0, {4, 0}, 0},
                           {KEPS_CRIT_ENTROPY_L, 0, {4.5, 0}, KEPS_ENTROPY_SHANNON},
                           {KEPS_CRIT_RECURSIVE_CL, 0, {3, 3}, 0}};
    keps_sensitive_spec sp = {0, KEPS_SENSITIVE_AUTO, NULL};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, &sp, 1, c, 3, NULL, &k, &err), KEPS_OK);
    assert_int_equal(keps_criteria_sensitive_type(k, 0), KEPS_SENSITIVE_NOMINAL);
    assert_int_equal(keps_criteria_min_class_size(k), 5); /* ceil(4.5) */
    assert_true(keps_criteria_monotone(k, 0));
    assert_false(keps_criteria_monotone(k, 1));
    assert_true(keps_criteria_need_histograms(k));
    keps_criteria_free(k);
    /* out of range: t-closeness above 1, a column index past the specs */
    keps_criterion bad = {KEPS_CRIT_T_CLOSENESS, 0, {1.5, 0}, 0};
    assert_int_equal(keps_criteria_new(t, &sp, 1, &bad, 1, NULL, &k, &err), KEPS_EINPUT);
    bad.p[0] = 0.5, bad.sens = 1;
    assert_int_equal(keps_criteria_new(t, &sp, 1, &bad, 1, NULL, &k, &err), KEPS_EINPUT);
    /* a value that is no leaf of the hierarchy */
    keps_hierarchy *h = abc_hierarchy();
    keps_table *t2 = table_from_csv("s\na\nd\n");
    keps_sensitive_spec hs = {0, KEPS_SENSITIVE_HIERARCHICAL, h};
    bad.sens = 0;
    assert_int_equal(keps_criteria_new(t2, &hs, 1, &bad, 1, NULL, &k, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "'d'"));
    keps_table_free(t2);
    keps_hierarchy_free(h);
    keps_table_free(t);
}

/* The mass bounds (keps_criteria_enforce's below): the rows a coarse
 * partition's bound promises never exceed the rows failing in a refinement
 * of it (the finer partition it was merged from), on random tables, for
 * t-closeness (every ground distance), Shannon entropy-l, basic and
 * enhanced beta-likeness, delta-disclosure, recursive (c,l) and
 * Grassberger's entropy (its distinct values). Hand case
 * first: values a, a, b, b (q = .5, .5), classes {a, a} and {b, b}: equal EMD .5 each; a class holding only a or
 * only b is as far as any class of their values gets (1 - .5 = .5), so with
 * t = .2 each class promises 2 (.5 - .2) / (.5 - .2) = 2 failing rows in any
 * refinement: 4 (every sub-class is pure and fails). The whole table's
 * bound would promise only floor((2 - 4 * .2) / (1 - .2)) = 1. */
static size_t enforce_rows(const keps_criteria *k, const keps_partition *p, int mono, size_t *below)
{
    keps_class_set cs = {.n = p->nclasses, .count = p->count, .pcount = p->pcount, .hist = p->hist,
                         .first = p->first_row};
    uint8_t *sup = malloc(p->nclasses + 1);
    keps_enforce_stats st;
    assert_int_equal(keps_criteria_enforce(k, &cs, mono, 1, sup, &st), KEPS_OK);
    free(sup);
    if (below)
        *below = st.below;
    return st.rows;
}

/* A table of one column s: runs[0] rows of a, then runs[1] of b, ... */
static keps_table *runs_table(const int *runs, size_t nruns)
{
    size_t n = 0;
    for (size_t i = 0; i < nruns; i++)
        n += (size_t)runs[i];
    char *csv = malloc(8 + 2 * n), *w = csv;
    w += sprintf(w, "s\n");
    for (size_t i = 0; i < nruns; i++)
        for (int r = 0; r < runs[i]; r++)
            w += sprintf(w, "%c\n", (char)('a' + i));
    keps_table *t = table_from_csv(csv);
    free(csv);
    return t;
}

/* Criterion c on column s of t (nominal), the rows in nc classes cls:
 * the rows failing class by class, and in *below the rows the mass bounds
 * promise to fail in every refinement of the partition. */
static size_t rows_and_bound(keps_table *t, keps_criterion c, const uint32_t *cls, size_t nc, size_t *below)
{
    keps_error err = {0};
    keps_sensitive_spec sp = {0, KEPS_SENSITIVE_NOMINAL, NULL};
    keps_criteria *k = NULL;
    assert_int_equal(keps_criteria_new(t, &sp, 1, &c, 1, NULL, &k, &err), KEPS_OK);
    keps_partition p;
    assert_int_equal(keps_partition_from_classes(t, cls, nc, k, &p, &err), KEPS_OK);
    size_t rows = enforce_rows(k, &p, 0, NULL);
    enforce_rows(k, &p, 1, below);
    keps_partition_free(&p);
    keps_criteria_free(k);
    return rows;
}

static void test_mass_bounds(void **state)
{
    (void)state;
    keps_error err = {0};
    keps_table *t = table_from_csv("s\na\na\nb\nb\n");
    keps_criterion c = {KEPS_CRIT_T_CLOSENESS, 0, {0.2, 0}, 0};
    uint32_t cls[4] = {0, 0, 1, 1};
    size_t below;
    assert_int_equal(rows_and_bound(t, c, cls, 2, &below), 4);
    assert_int_equal(below, 4);
    keps_table_free(t);
    /* per class, tight: q = .5, .5 over 340 rows; fine classes S1 = 100 a
     * (EMD .5, fails t = .2), S2 = 70 a + 30 b (EMD .2, passes), S3 = 140 b
     * (fails); coarse C = S1 + S2 (170 a, 30 b: EMD .35) and S3. C's values
     * reach at most .5, so C promises 200 (.35 - .2) / (.5 - .2) = 100
     * failing rows, exactly S1's (floor after the rounding margin: 99); S3
     * holds one value and fails whole: 140. Together 239 <= 240 failing in
     * the fine partition; a bound 10% stronger per class would promise 249. */
    {
        keps_table *t3 = runs_table((int[]){170, 170}, 2);
        uint32_t fine3[340], coarse3[340];
        for (int i = 0; i < 340; i++) {
            fine3[i] = i < 100 ? 0 : i < 200 ? 1 : 2; /* rows 100-199: 70 a, 30 b */
            coarse3[i] = fine3[i] == 2 ? 1 : 0;
        }
        assert_int_equal(rows_and_bound(t3, c, fine3, 3, &below), 240);
        rows_and_bound(t3, c, coarse3, 2, &below);
        assert_int_equal(below, 239);
        keps_table_free(t3);
    }
    /* beta-likeness and delta-disclosure cap a value's share in a passing
     * class: basic beta = .5 over q = .5, .5 allows .75. 350 rows: S1 = 100
     * a (fails), S2 = 75 a + 25 b (.75: passes), S3 = 150 b (fails); C = S1
     * + S2 holds 175 a of 200 rows: (175 - .75 x 200) / (1 - .75) = 100
     * rows fail in any refinement, S1's exactly (99 after the margin); S3
     * fails whole: 249 <= 250. delta-disclosure with delta = log2 1.5 has the
     * same cap (S2 fails too there, |log2 1.5| < delta being strict): 249
     * again; so has recursive (3,2)-diversity, r_1 < 3 r_2 (75 < 3 x 25
     * fails too). Shannon 2-diversity of 300 a + 100 b: H = -(.75 ln .75 + .25
     * ln .25) = 0.5623351446, and concavity promises 400 (1 - H / ln 2) =
     * 75.49 failing rows; but a passing sub-class of two values is balanced
     * (binary entropy ln 2 only at 1/2; the test's tolerance moves that to
     * 1/2 + 2.2e-4), so at most 100 a pass with the 100 b: (300 - .50022 x
     * 400) / (1 - .50022) = 199.9, 199 rows. */
    {
        keps_table *t4 = runs_table((int[]){175, 175}, 2);
        uint32_t fine4[350], coarse4[350];
        for (int i = 0; i < 350; i++) { /* rows 100-199: 75 a, 25 b */
            fine4[i] = i < 100 ? 0 : i < 200 ? 1 : 2;
            coarse4[i] = fine4[i] == 2 ? 1 : 0;
        }
        keps_criterion c4s[3] = {{KEPS_CRIT_BETA_LIKENESS, 0, {0.5, 0}, KEPS_BETA_BASIC},
                                 {KEPS_CRIT_DELTA_DISCLOSURE, 0, {log2(1.5), 0}, 0},
                                 {KEPS_CRIT_RECURSIVE_CL, 0, {3, 2}, 0}};
        for (int i = 0; i < 3; i++) {
            assert_int_equal(rows_and_bound(t4, c4s[i], fine4, 3, &below), i ? 350 : 250);
            rows_and_bound(t4, c4s[i], coarse4, 2, &below);
            assert_int_equal(below, 249);
        }
        keps_table_free(t4);
        t4 = runs_table((int[]){300, 100}, 2);
        uint32_t one4[400] = {0};
        keps_criterion e2 = {KEPS_CRIT_ENTROPY_L, 0, {2, 0}, KEPS_ENTROPY_SHANNON};
        rows_and_bound(t4, e2, one4, 1, &below);
        assert_int_equal(below, 199);
        keps_table_free(t4);
        /* recursive (2,3) on one class of 300 a, 50 b, 50 c: r_1 < 2 r_3,
         * and with three values r_3 <= (n - r_1) / 2, so a passing class
         * holds at most half a's: (300 - 200) / (1 - .5) = 200 rows fail
         * (truly 201: 99 a pass with the 50 b and 50 c); 199 after the
         * margin. Two values (10 a, 10 b) are fewer than l = 3: all 20 fail
         * in every refinement, for recursive (2,3) and for Grassberger
         * entropy 3-diversity alike. */
        t4 = runs_table((int[]){300, 50, 50}, 3);
        keps_criterion r23 = {KEPS_CRIT_RECURSIVE_CL, 0, {2, 3}, 0};
        rows_and_bound(t4, r23, one4, 1, &below);
        assert_int_equal(below, 199);
        keps_table_free(t4);
        t4 = runs_table((int[]){10, 10}, 2);
        keps_criterion few[2] = {{KEPS_CRIT_RECURSIVE_CL, 0, {2, 3}, 0},
                                 {KEPS_CRIT_ENTROPY_L, 0, {3, 0}, KEPS_ENTROPY_GRASSBERGER}};
        for (int i = 0; i < 2; i++) {
            rows_and_bound(t4, few[i], one4, 1, &below);
            assert_int_equal(below, 20);
        }
        keps_table_free(t4);
    }
    /* tight: 50 a and 50 b in two pure classes, t = 0.5: both pass (EMD .5),
     * and W = 100 * .5 = N t: the bound is 0, as it must be; so is the
     * entropy's for 2-diversity of two {25 a, 25 b} classes (H = ln 2) */
    t = runs_table((int[]){50, 50}, 2);
    uint32_t pure[100], mixed[100];
    for (int i = 0; i < 100; i++) {
        pure[i] = i < 50 ? 0 : 1;
        mixed[i] = (uint32_t)(i % 2);
    }
    keps_criterion tc[2] = {{KEPS_CRIT_T_CLOSENESS, 0, {0.5, 0}, 0}, {KEPS_CRIT_ENTROPY_L, 0, {2, 0}, 0}};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(rows_and_bound(t, tc[i], i ? mixed : pure, 2, &below), 0);
        assert_int_equal(below, 0);
    }
    keps_table_free(t);

    keps_rng *rng = keps_rng_new_seeded(11);
    keps_hierarchy *h = abc_hierarchy();
    for (int round = 0; round < 400; round++) {
        size_t n = 20 + keps_rng_below(rng, 80), nf = 2 + keps_rng_below(rng, 20), nc = 1 + keps_rng_below(rng, nf);
        char *rcsv = malloc(16 + n * 8), *ro = rcsv;
        ro += sprintf(ro, "s,x\n");
        int skew = (int)keps_rng_below(rng, 3);
        for (size_t r = 0; r < n; r++) {
            int v = (int)keps_rng_below(rng, 3);
            if (skew && keps_rng_below(rng, 2))
                v = 0;
            ro += sprintf(ro, "%c,%d\n", 'a' + v, v + 1);
        }
        keps_table *tt = table_from_csv(rcsv);
        free(rcsv);
        keps_sensitive_spec sps[3] = {{0, KEPS_SENSITIVE_NOMINAL, NULL}, {1, KEPS_SENSITIVE_ORDERED, NULL},
                                      {0, KEPS_SENSITIVE_HIERARCHICAL, h}};
        double x = 0.05 + 0.05 * (double)keps_rng_below(rng, 10);
        keps_criterion cs[9] = {{KEPS_CRIT_T_CLOSENESS, 0, {x, 0}, 0},
                                {KEPS_CRIT_T_CLOSENESS, 1, {x, 0}, 0},
                                {KEPS_CRIT_T_CLOSENESS, 2, {x, 0}, 0},
                                {KEPS_CRIT_ENTROPY_L, 0, {1.2 + 2 * x, 0}, KEPS_ENTROPY_SHANNON},
                                {KEPS_CRIT_BETA_LIKENESS, 0, {4 * x, 0}, KEPS_BETA_BASIC},
                                {KEPS_CRIT_BETA_LIKENESS, 0, {8 * x, 0}, KEPS_BETA_ENHANCED},
                                {KEPS_CRIT_DELTA_DISCLOSURE, 0, {0.3 + 2 * x, 0}, 0},
                                {KEPS_CRIT_RECURSIVE_CL, 0, {1 + 4 * x, 2 + (double)(round % 2)}, 0},
                                {KEPS_CRIT_ENTROPY_L, 0, {1.2 + 4 * x, 0}, KEPS_ENTROPY_GRASSBERGER}};
        uint32_t *fine = malloc(n * sizeof *fine), *coarse = malloc(n * sizeof *coarse), *map = malloc(nf * sizeof *map);
        for (size_t r = 0; r < n; r++)
            fine[r] = (uint32_t)keps_rng_below(rng, nf);
        for (size_t f = 0; f < nf; f++)
            map[f] = (uint32_t)keps_rng_below(rng, nc);
        for (size_t r = 0; r < n; r++)
            coarse[r] = map[fine[r]];
        for (size_t i = 0; i < 9; i++) {
            keps_criteria *kk = NULL;
            assert_int_equal(keps_criteria_new(tt, sps, 3, &cs[i], 1, NULL, &kk, &err), KEPS_OK);
            keps_partition pf, pc;
            assert_int_equal(keps_partition_from_classes(tt, fine, nf, kk, &pf, &err), KEPS_OK);
            assert_int_equal(keps_partition_from_classes(tt, coarse, nc, kk, &pc, &err), KEPS_OK);
            size_t b, fails = enforce_rows(kk, &pf, 0, NULL), cfails = enforce_rows(kk, &pc, 0, NULL);
            enforce_rows(kk, &pc, 1, &b);
            if (b > fails || b > cfails)
                fprintf(stderr, "round %d criterion %zu: bound %zu > %zu, %zu failing rows\n", round, i, b, fails,
                        cfails);
            assert_true(b <= fails && b <= cfails);
            keps_partition_free(&pf);
            keps_partition_free(&pc);
            keps_criteria_free(kk);
        }
        free(fine);
        free(coarse);
        free(map);
        keps_table_free(tt);
    }
    keps_hierarchy_free(h);
    keps_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grassberger),   cmocka_unit_test(test_l_diversity),
        cmocka_unit_test(test_t_closeness),   cmocka_unit_test(test_ordered),
        cmocka_unit_test(test_likeness_disclosure), cmocka_unit_test(test_presence_kmap),
        cmocka_unit_test(test_sample_based),  cmocka_unit_test(test_kt),
        cmocka_unit_test(test_properties),   cmocka_unit_test(test_mass_bounds),
        cmocka_unit_test(test_kmap_estimated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
