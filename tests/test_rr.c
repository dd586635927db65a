/* Randomized response (docs/spec.md 7, Ekenstedt et al. 2022): matrices and levels by hand for
 * n = 2 and 3, verifiers against brute force over all subsets, the
 * implication formulas against the paper's worked numbers, and a property
 * test that measured levels never exceed the promised ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/rr.h"
#include "keps/schema.h"
#include "testutil.h"

#define TOL 1e-12

static void assert_matrix(const keps_rr_matrix *M, const double *want, size_t n)
{
    assert_int_equal(M->n, n);
    for (size_t i = 0; i < n * n; i++)
        assert_double_near(M->m[i], want[i], TOL);
}

/* n = 2, p = 0.5: keep 0.5, else uniform 0.25 each:
 *   M = [[0.75, 0.25], [0.25, 0.75]], eps = ln(0.75/0.25) = ln 3
 *   (= ln(1 + 2*0.5/0.5)). */
static void test_ldp_n2(void **state)
{
    (void)state;
    keps_rr_matrix M;
    assert_int_equal(keps_rr_ldp_matrix(2, 0.5, &M, NULL), KEPS_OK);
    const double want[] = {0.75, 0.25, 0.25, 0.75};
    assert_matrix(&M, want, 2);
    assert_double_near(keps_rr_ldp_epsilon(0.5, 2), log(3.0), TOL);
    assert_double_near(keps_rr_matrix_epsilon(&M), log(3.0), TOL);
    assert_double_near(keps_rr_ldp_p(log(3.0), 2), 0.5, 1e-12);
    assert_true(keps_rr_ldp_epsilon(keps_rr_ldp_p(log(3.0), 2), 2) <= log(3.0));
    keps_rr_matrix_free(&M);
}

/* n = 3, p = 0.4: off-diagonal (1-0.4)/3 = 0.2, diagonal 0.6; eps = ln 3
 * (= ln(1 + 3*0.4/0.6) = ln 3). Ekenstedt et al.'s printed eq. (1), ln(1 +
 * p/(N(1-p))), would give ln(1 + 0.4/(3*0.6)) = 0.2007: wrong (docs/spec.md 9). */
static void test_ldp_n3(void **state)
{
    (void)state;
    keps_rr_matrix M;
    assert_int_equal(keps_rr_ldp_matrix(3, 0.4, &M, NULL), KEPS_OK);
    const double want[] = {0.6, 0.2, 0.2, 0.2, 0.6, 0.2, 0.2, 0.2, 0.6};
    assert_matrix(&M, want, 3);
    assert_double_near(keps_rr_ldp_epsilon(0.4, 3), log(3.0), TOL);
    assert_double_near(keps_rr_matrix_epsilon(&M), log(3.0), TOL);
    keps_rr_matrix_free(&M);
}

/* n = 2, f = (0.25, 0.75), p_t = 0.5: M[y][z] = 0.5 [y==z] + 0.5 f_z:
 *   M = [[0.625, 0.375], [0.125, 0.875]].
 * Class of a_0 only: bucket a_0 0.625/0.25 = 2.5 (= 1 + 0.5 (4 - 1));
 * class of a_1 only, bucket a_0: 0.25/0.125 = 2 (= 1/(1-0.5)). t = 2.5.
 * Largest p_t for t = 2.5: min(1.5/3, 1 - 1/2.5) = 0.5.
 * eps of the matrix: column 0: 0.625/0.125 = 5; column 1: 0.875/0.375. */
static void test_t_n2(void **state)
{
    (void)state;
    const double f[] = {0.25, 0.75};
    keps_rr_matrix M;
    assert_int_equal(keps_rr_t_matrix(2, f, 0.5, &M, NULL), KEPS_OK);
    const double want[] = {0.625, 0.375, 0.125, 0.875};
    assert_matrix(&M, want, 2);
    assert_double_near(keps_rr_t_level(0.5, f, 2), 2.5, TOL);
    assert_double_near(keps_rr_t_p(2.5, f, 2), 0.5, 1e-12);
    assert_double_near(keps_rr_matrix_epsilon(&M), log(5.0), TOL);
    /* with 1/(1-p_t) binding: f = (0.5, 0.5), p_t = 0.5: same-value ratio
     * 1.5, other 2; the largest p_t for t = 2 is 1 - 1/2 = 0.5. */
    const double u[] = {0.5, 0.5};
    assert_double_near(keps_rr_t_level(0.5, u, 2), 2.0, TOL);
    assert_double_near(keps_rr_t_p(2.0, u, 2), 0.5, 1e-12);
    keps_rr_matrix_free(&M);
}

/* n = 3, f = (0.2, 0.3, 0.5), p_t = 0.5: rows
 *   [0.6, 0.15, 0.25], [0.1, 0.65, 0.25], [0.1, 0.15, 0.75];
 * t = max(1 + 0.5 (1/0.2 - 1), 1/0.5) = 3 (class of a_0: 0.6/0.2). */
static void test_t_n3(void **state)
{
    (void)state;
    const double f[] = {0.2, 0.3, 0.5};
    keps_rr_matrix M;
    assert_int_equal(keps_rr_t_matrix(3, f, 0.5, &M, NULL), KEPS_OK);
    const double want[] = {0.6, 0.15, 0.25, 0.1, 0.65, 0.25, 0.1, 0.15, 0.75};
    assert_matrix(&M, want, 3);
    assert_double_near(keps_rr_t_level(0.5, f, 3), 3.0, TOL);
    /* data with exactly these frequencies in two homogeneous-ish classes:
     * class {a_0, a_0} reaches the bound 3 on bucket a_0. */
    uint32_t v[10] = {0, 0, 1, 1, 1, 2, 2, 2, 2, 2}, cls[10] = {0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_double_near(keps_rr_verify_mult_t(&M, v, cls, 10, 2), 3.0, 1e-12);
    keps_rr_matrix_free(&M);
}

/* Sequence n = 2: RR-t with f = (0.5, 0.5), p_t = 0.5 and RR-LDP with
 * p = 0.5 both have [[0.75, 0.25], [0.25, 0.75]]; the product is
 * [[0.75^2 + 0.25^2, 2*0.75*0.25], ...] = [[0.625, 0.375], [0.375, 0.625]],
 * eps = ln(0.625/0.375) = ln(5/3) < ln 3 of the LDP stage alone. */
static void test_sequence_n2(void **state)
{
    (void)state;
    const double f[] = {0.5, 0.5};
    keps_rr_params par = {KEPS_RR_BOTH, 0.5, 0.5};
    keps_rr_matrix M;
    assert_int_equal(keps_rr_matrix_for(&par, 2, f, &M, NULL), KEPS_OK);
    const double want[] = {0.625, 0.375, 0.375, 0.625};
    assert_matrix(&M, want, 2);
    assert_double_near(keps_rr_matrix_epsilon(&M), log(5.0 / 3.0), TOL);
    /* U = sum_z max_y f_y M[y][z] = 2 * 0.5 * 0.625 */
    assert_double_near(keps_rr_utility(&M, f), 0.625, TOL);
    keps_rr_matrix_free(&M);
}

/* Hand-computed verifiers. RR-LDP n = 2, p = 0.5, values (0,0,0,1),
 * classes {r0,r1}, {r2,r3}. Pr(Z=0) per record: .75 .75 .75 .25, so
 * Pr_D(0) = 2.5/4 = .625, Pr_D(1) = .375.
 *  Def 4: class A (.75,.25): .75/.625 = 1.2, .375/.25 = 1.5; class B
 *         (.5,.5): 1.25, 1.333..  -> t = 1.5
 *  Def 7, k = 2: bucket 1 lowest pair .25 -> .375/.25 = 1.5 -> t = 1.5
 *  Def 6: ln(.75/.25) = ln 3
 *  Def 8, k = 1: the remaining 3 with lowest Pr(Z=1) average .25 -> ln 1.5 */
static void test_verifiers_by_hand(void **state)
{
    (void)state;
    keps_rr_matrix M;
    assert_int_equal(keps_rr_ldp_matrix(2, 0.5, &M, NULL), KEPS_OK);
    uint32_t v[] = {0, 0, 0, 1}, cls[] = {0, 0, 1, 1};
    assert_double_near(keps_rr_verify_mult_t(&M, v, cls, 4, 2), 1.5, TOL);
    assert_double_near(keps_rr_verify_kt(&M, v, 4, 2), 1.5, TOL);
    assert_double_near(keps_rr_verify_ldp(&M, v, 4), log(3.0), TOL);
    assert_double_near(keps_rr_verify_kdp(&M, v, 4, 1), log(1.5), TOL);
    /* one value only: eps-LDP over the records present is 0 */
    uint32_t same[] = {1, 1, 1};
    assert_double_near(keps_rr_verify_ldp(&M, same, 3), 0.0, TOL);
    keps_rr_matrix_free(&M);
}

/* ---- brute force oracles straight from Defs. 4, 6, 7, 8 ---- */

static double bf_ratio(double a, double b)
{
    if (a == 0 && b == 0)
        return 1;
    if (a == 0 || b == 0)
        return INFINITY;
    return a > b ? a / b : b / a;
}

static double bf_pd(const keps_rr_matrix *M, const uint32_t *v, size_t N, unsigned mask, size_t z)
{
    double s = 0;
    size_t c = 0;
    for (size_t i = 0; i < N; i++)
        if (mask & (1u << i)) {
            s += M->m[v[i] * M->n + z];
            c++;
        }
    return s / (double)c;
}

/* worst ratio between Pr_D and the average over every subset of size m */
static double bf_subsets(const keps_rr_matrix *M, const uint32_t *v, size_t N, size_t m)
{
    double t = 1;
    unsigned all = (1u << N) - 1;
    for (unsigned mask = 1; mask <= all; mask++) {
        if ((size_t)__builtin_popcount(mask) != m)
            continue;
        for (size_t z = 0; z < M->n; z++) {
            double r = bf_ratio(bf_pd(M, v, N, all, z), bf_pd(M, v, N, mask, z));
            t = r > t ? r : t;
        }
    }
    return t;
}

/* Def 8 literally: remove every group K of k records, compare D with D_{-K} */
static double bf_kdp(const keps_rr_matrix *M, const uint32_t *v, size_t N, size_t k)
{
    double t = 1;
    unsigned all = (1u << N) - 1;
    for (unsigned removed = 1; removed <= all; removed++) {
        if ((size_t)__builtin_popcount(removed) != k)
            continue;
        for (size_t z = 0; z < M->n; z++) {
            double r = bf_ratio(bf_pd(M, v, N, all, z), bf_pd(M, v, N, all & ~removed, z));
            t = r > t ? r : t;
        }
    }
    return log(t);
}

static double bf_ldp(const keps_rr_matrix *M, const uint32_t *v, size_t N)
{
    double worst = 1;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            for (size_t z = 0; z < M->n; z++) {
                double a = M->m[v[i] * M->n + z], b = M->m[v[j] * M->n + z];
                double r = a == 0 && b == 0 ? 1 : b == 0 ? INFINITY : a / b;
                worst = r > worst ? r : worst;
            }
    return log(worst);
}

static double bf_mult(const keps_rr_matrix *M, const uint32_t *v, const uint32_t *cls, size_t N, size_t nc)
{
    double t = 1;
    unsigned all = (1u << N) - 1;
    for (size_t c = 0; c < nc; c++) {
        unsigned mask = 0;
        for (size_t i = 0; i < N; i++)
            if (cls[i] == c)
                mask |= 1u << i;
        if (!mask)
            continue;
        for (size_t z = 0; z < M->n; z++) {
            double r = bf_ratio(bf_pd(M, v, N, all, z), bf_pd(M, v, N, mask, z));
            t = r > t ? r : t;
        }
    }
    return t;
}

static void assert_level(double got, double want)
{
    if (isinf(want))
        assert_true(isinf(got));
    else
        assert_true(fabs(got - want) <= 1e-9 * (1 + fabs(want)));
}

/* Random row-stochastic matrices (some entries 0, to exercise the
 * unbounded cases) on random tiny data sets: every verifier equals its
 * brute-force oracle. */
static void test_verifiers_brute_force(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(2022);
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 2 + keps_rng_below(rng, 3), N = 2 + keps_rng_below(rng, 8);
        keps_rr_matrix M;
        assert_int_equal(keps_rr_ldp_matrix(n, 0.0, &M, NULL), KEPS_OK);
        for (size_t y = 0; y < n; y++) {
            double s = 0;
            for (size_t z = 0; z < n; z++) {
                double w = keps_rng_below(rng, 6) == 0 ? 0.0 : keps_rng_uniform_open(rng);
                M.m[y * n + z] = w;
                s += w;
            }
            if (s == 0)
                M.m[y * n] = s = 1;
            for (size_t z = 0; z < n; z++)
                M.m[y * n + z] /= s;
        }
        uint32_t v[9], cls[9];
        size_t nc = 1 + keps_rng_below(rng, 3);
        for (size_t i = 0; i < N; i++) {
            v[i] = (uint32_t)keps_rng_below(rng, n);
            cls[i] = (uint32_t)keps_rng_below(rng, nc);
        }
        assert_level(keps_rr_verify_ldp(&M, v, N), bf_ldp(&M, v, N));
        assert_level(keps_rr_verify_mult_t(&M, v, cls, N, nc), bf_mult(&M, v, cls, N, nc));
        for (size_t k = 1; k < N; k++) {
            assert_level(keps_rr_verify_kt(&M, v, N, k), bf_subsets(&M, v, N, k));
            assert_level(keps_rr_verify_kdp(&M, v, N, k), bf_kdp(&M, v, N, k));
        }
        keps_rr_matrix_free(&M);
    }
    keps_rng_free(rng);
}

/* ---- the paper's appendix tables (Ekenstedt et al. 2022, Tables III-VII) ----
 * Each table lists per-record probabilities Pr(c_i = a_1) (a_2 gets the
 * rest). As a mechanism: record i is category i, its row is (p_i, 1 - p_i,
 * 0, ...), so the verifiers see exactly the table. mu = 1/4, sigma = alpha =
 * 1/20 (the tables need sigma < mu, 0 < alpha <= mu). */
static void records_matrix(const double *p, size_t N, keps_rr_matrix *M, uint32_t *v)
{
    assert_int_equal(keps_rr_ldp_matrix(N, 0.0, M, NULL), KEPS_OK);
    for (size_t i = 0; i < N; i++) {
        for (size_t z = 0; z < N; z++)
            M->m[i * N + z] = 0.0;
        M->m[i * N] = p[i];
        M->m[i * N + 1] = 1.0 - p[i];
        v[i] = (uint32_t)i;
    }
}

static void test_paper_appendix_tables(void **state)
{
    (void)state;
    keps_rr_matrix M;
    uint32_t v[6], cls[6] = {0, 0, 1, 1};
    /* Table III: E1 = {mu, mu}, E2 = {sigma, 2mu - sigma}. Both class means are
     * mu = Pr_D(a_1) (and 1 - mu for a_2): multiplicative 1-closeness. LDP: the
     * caption's ln((2mu - sigma)/sigma) = ln 9 (a_1: 0.45/0.05; a_2: 0.95/0.55
     * is smaller); the text's "eps >= ln(mu/sigma)" is a weaker necessary bound. */
    const double t3[] = {0.25, 0.25, 0.05, 0.45};
    records_matrix(t3, 4, &M, v);
    assert_double_near(keps_rr_verify_mult_t(&M, v, cls, 4, 2), 1.0, 1e-12);
    assert_double_near(keps_rr_verify_ldp(&M, v, 4), log(9.0), 1e-12);
    keps_rr_matrix_free(&M);
    /* Table IV, N = 6, k = 3, mu = 1/2: {0, 0, 1/2, 1/2, 1/2, 1/2}. Pr_D(a_1) = 1/3;
     * the lowest 3-subset {0, 0, 1/2} has 1/6: ratio 2 = k(N-k+1)/N (a_2: at most
     * (2/3)/(1/2) = 4/3). The caption's t = N-k+1 = 4 is satisfied too (Lemma 2.4)
     * but is not the level. Any 2-subset {0, 0} has Pr_K(a_1) = 0: t = infinity. */
    const double t4[] = {0, 0, 0.5, 0.5, 0.5, 0.5};
    records_matrix(t4, 6, &M, v);
    assert_double_near(keps_rr_verify_kt(&M, v, 6, 3), 2.0, 1e-12);
    assert_true(isinf(keps_rr_verify_kt(&M, v, 6, 2)));
    keps_rr_matrix_free(&M);
    /* Table V: both classes {2mu - sigma, sigma}: multiplicative 1-closeness, but
     * the 2-subset {sigma, sigma} gives (2,t) with t = mu/sigma = 5. */
    const double t5[] = {0.45, 0.05, 0.45, 0.05};
    records_matrix(t5, 4, &M, v);
    assert_double_near(keps_rr_verify_mult_t(&M, v, cls, 4, 2), 1.0, 1e-12);
    assert_double_near(keps_rr_verify_kt(&M, v, 4, 2), 5.0, 1e-12);
    keps_rr_matrix_free(&M);
    /* Table VI: {mu, 2mu, mu - sigma, sigma}: Pr_D(a_1) = mu, the lowest pair
     * {mu - sigma, sigma} averages mu/2: (2,2)-closeness as the paper computes
     * (a_2: at most 0.75/0.625 = 1.2); eps-LDP = ln(2mu/sigma) = ln 10. */
    const double t6[] = {0.25, 0.5, 0.2, 0.05};
    records_matrix(t6, 4, &M, v);
    assert_double_near(keps_rr_verify_kt(&M, v, 4, 2), 2.0, 1e-12);
    assert_double_near(keps_rr_verify_ldp(&M, v, 4), log(10.0), 1e-12);
    keps_rr_matrix_free(&M);
    /* Table VII, N = 6, k = 3: {mu, mu, mu - alpha, alpha, 0, 0}; Pr_D(a_1) = k mu/N
     * = 1/8. Removing one record (eps-DP): without a mu, 0.5/5 = 0.1 (ratio 1.25);
     * without a 0, 0.15 (1.2): eps = ln max(N/(N-1), (N-1)k/((k-1)N)) = ln 1.25 (the
     * caption drops the ln). Removing k = 3: the rest {alpha, 0, 0} has alpha/3:
     * ratio (N-k) mu k/(N alpha) = 7.5, eps_k = ln 7.5 (the caption prints 7.5). */
    const double t7[] = {0.25, 0.25, 0.2, 0.05, 0, 0};
    records_matrix(t7, 6, &M, v);
    assert_double_near(keps_rr_verify_kdp(&M, v, 6, 1), log(1.25), 1e-12);
    assert_double_near(keps_rr_verify_kdp(&M, v, 6, 3), log(7.5), 1e-12);
    keps_rr_matrix_free(&M);
}

/* ---- implications ---- */

/* Figure 6 setup: t0 = 2, N = 100, k = 5 "results in eps_t = 0.7". The
 * attained bound t = (k + (N-k)e^eps)/N gives e^eps = (200-5)/95, eps =
 * ln(195/95) = 0.7191 (the paper's printed Theorem 3, with N-k-1, would
 * give ln(39/18.8) = 0.7298; both round to 0.7). */
static void test_figure6_epsilon(void **state)
{
    (void)state;
    double e = keps_rr_kt_to_ldp_needed(2.0, 5, 100);
    assert_double_near(e, log(195.0 / 95.0), 1e-12);
    assert_true(fabs(e - 0.7) < 0.05);
    assert_true(keps_rr_ldp_to_kt(e, 5, 100) <= 2.0);
}

/* The corrected Theorem 3 bound is attained: RR-LDP on 5 records of a_0
 * and 95 of a_1. Bucket a_1: the 5 a_0 records have (1-p)/n, the others
 * p + (1-p)/n = e^eps (1-p)/n, so Pr_D/Pr_K = (5 + 95 e^eps)/100 exactly,
 * above the printed (5 + 94 e^eps)/100. */
static void test_theorem3_attained(void **state)
{
    (void)state;
    keps_rr_matrix M;
    assert_int_equal(keps_rr_ldp_matrix(2, 0.5, &M, NULL), KEPS_OK);
    uint32_t v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i < 5 ? 0 : 1;
    double t = keps_rr_verify_kt(&M, v, 100, 5), e = log(3.0);
    assert_double_near(t, (5 + 95 * 3.0) / 100, 1e-12);
    assert_double_near(keps_rr_ldp_to_kt(e, 5, 100), t, 1e-12);
    assert_true(t > (5.0 / 100) * (1 + 94 * 3.0 / 5)); /* the printed formula is exceeded */
    keps_rr_matrix_free(&M);
}

/* Large epsilons, where e^eps overflows (eps > ln DBL_MAX = 709.78; the
 * CLI takes eps up to infinity):
 * - p(eps, n=2) = (e^eps - 1)/(e^eps - 1 + 2) = 1/(1 + 2e^-eps/(1-e^-eps)).
 *   From eps = 38 on, 2e^-eps < 2^-54 and p rounds to 1, whose epsilon is
 *   infinite; the next double down, 1 - 2^-53, has eps = ln(1 + 2(1 -
 *   2^-53)/2^-53) = ln(2^54 - 1) = 54 ln 2 = 37.43 <= eps: that is p. Below,
 *   p must equal the closed form expm1(eps)/(expm1(eps) + n) (the defect:
 *   inf/inf = NaN from eps = 710).
 * - t(eps = 709.8, k = 5, N = 100) = 0.05 + 0.95 e^709.8: e^709.8 > DBL_MAX
 *   but 0.95 e^709.8 = 0.95 e^709 e^0.8 = 1.7376e308 is not.
 * - the eps needed for t = 1e308: ln((N t - k)/(N - k)) with N t = 1e310
 *   overflowing; = ln t + ln(100/95) - (negligible) = 308 ln 10 + ln(20/19)
 *   = 709.1962086421661 + 0.0512932943875505. */
static void test_large_epsilon(void **state)
{
    (void)state;
    const double eps_big[] = {38, 700, 710, 1e300, INFINITY};
    for (size_t i = 0; i < 4; i++)
        assert_true(keps_rr_ldp_p(eps_big[i], 2) == 1.0 - 0x1p-53);
    assert_true(keps_rr_ldp_p(eps_big[4], 2) == 1.0);
    const double eps_mid[] = {1e-6, 0.1, 1, 5, 20};
    for (size_t i = 0; i < 5; i++)
        for (size_t n = 2; n <= 7; n += 5) {
            double em1 = expm1(eps_mid[i]), want = em1 / (em1 + (double)n);
            assert_double_near(keps_rr_ldp_p(eps_mid[i], n), want, 4e-16 * want);
        }
    double t = keps_rr_ldp_to_kt(709.8, 5, 100), want_t = 0.95 * exp(709.0) * exp(0.8);
    assert_true(isfinite(t));
    assert_double_near(t, want_t, 1e-13 * want_t);
    double e = keps_rr_kt_to_ldp_needed(1e308, 5, 100);
    assert_double_near(e, 709.1962086421661 + 0.0512932943875505, 1e-12);
    assert_true(keps_rr_ldp_to_kt(e, 5, 100) <= 1e308);
}

static keps_implication imply(keps_pmodel from, double level, long k, keps_pmodel to, long to_k, long N,
                              keps_status want)
{
    keps_plevel f = {from, level, k};
    keps_implication o;
    keps_error err = {0};
    assert_int_equal(keps_rr_implies(&f, to, to_k, N, &o, &err), want);
    return o;
}

static void test_implications(void **state)
{
    (void)state;
    /* Theorem 2: eps-LDP => (1,t): t = (e^eps (N-1) + 1)/N; N = 10, eps = ln 2: 19/10 */
    keps_implication o = imply(KEPS_PM_LDP, log(2.0), 0, KEPS_PM_KT, 1, 10, KEPS_OK);
    assert_double_near(o.to.level, 1.9, 1e-12);
    /* Theorem 2: (1,t) => eps-LDP with e^eps = t^2: t = 2 -> ln 4 */
    o = imply(KEPS_PM_KT, 2.0, 1, KEPS_PM_LDP, 0, 0, KEPS_OK);
    assert_double_near(o.to.level, log(4.0), 1e-12);
    /* Theorem 4.1: (5, 2)-closeness <=> (95, ln 2)-DP for N = 100 */
    o = imply(KEPS_PM_KT, 2.0, 5, KEPS_PM_KDP, 0, 100, KEPS_OK);
    assert_int_equal(o.to.k, 95);
    assert_double_near(o.to.level, log(2.0), 1e-12);
    /* e^800 overflows, the epsilons derived do not. eps-LDP => (95, t) with
     * t = (95 + 5 e^800)/100: (5, ln t)-DP, ln t = 800 + ln 0.05 + (e^-800
     * terms) = 800 - 2.995732273553991. (99, 800)-DP is (1, e^800)-closeness
     * (Theorem 4.1), so e^eps = t^2: eps = 2 * 800. */
    o = imply(KEPS_PM_LDP, 800, 0, KEPS_PM_KDP, 5, 100, KEPS_OK);
    assert_double_near(o.to.level, 800 - 2.995732273553991, 1e-12);
    o = imply(KEPS_PM_KDP, 800, 99, KEPS_PM_LDP, 0, 100, KEPS_OK);
    assert_double_near(o.to.level, 1600, 1e-12);
    o = imply(KEPS_PM_KDP, log(2.0), 95, KEPS_PM_KT, 0, 100, KEPS_OK);
    assert_int_equal(o.to.k, 5);
    assert_double_near(o.to.level, 2.0, 1e-12);
    /* (99, eps)-DP of N = 100 is (1, e^eps)-closeness => 2 eps-LDP */
    o = imply(KEPS_PM_KDP, 0.5, 99, KEPS_PM_LDP, 0, 100, KEPS_OK);
    assert_double_near(o.to.level, 1.0, 1e-12);
    /* Lemma 1: eps-LDP => multiplicative t for classes >= k */
    o = imply(KEPS_PM_LDP, log(3.0), 0, KEPS_PM_TCLOSE, 5, 100, KEPS_OK);
    assert_double_near(o.to.level, (5 + 95 * 3.0) / 100, 1e-12);
    /* eps-LDP => (N-k, t)-closeness (Theorem 3, group size N-k) => (k, ln t)-DP
     * (Theorem 4.1): N = 10, k = 3, eps = ln 2: t = (7 + 3*2)/10 = 1.3 */
    o = imply(KEPS_PM_LDP, log(2.0), 0, KEPS_PM_KDP, 3, 10, KEPS_OK);
    assert_int_equal(o.to.k, 3);
    assert_double_near(o.to.level, log(1.3), 1e-12);
    /* the same model: the level itself */
    o = imply(KEPS_PM_LDP, 0.7, 0, KEPS_PM_LDP, 0, 0, KEPS_OK);
    assert_double_near(o.to.level, 0.7, 0);
    o = imply(KEPS_PM_TCLOSE, 1.5, 5, KEPS_PM_TCLOSE, 5, 100, KEPS_OK);
    assert_double_near(o.to.level, 1.5, 0);
    /* Lemma 2.1: larger subsets keep t */
    o = imply(KEPS_PM_KT, 2.0, 5, KEPS_PM_KT, 8, 100, KEPS_OK);
    assert_double_near(o.to.level, 2.0, 0);
    /* impossible directions */
    imply(KEPS_PM_TCLOSE, 2.0, 5, KEPS_PM_LDP, 0, 100, KEPS_EJOB);  /* Theorem 1 */
    imply(KEPS_PM_TCLOSE, 2.0, 5, KEPS_PM_KT, 5, 100, KEPS_EJOB);   /* Lemma 2.3 */
    imply(KEPS_PM_TCLOSE, 2.0, 5, KEPS_PM_KDP, 5, 100, KEPS_EJOB);  /* Theorem 5 */
    imply(KEPS_PM_KT, 2.0, 2, KEPS_PM_LDP, 0, 100, KEPS_EJOB);      /* Theorem 3 */
    imply(KEPS_PM_KT, 2.0, 5, KEPS_PM_KDP, 96, 100, KEPS_EJOB);     /* Theorem 4.2 */
    imply(KEPS_PM_KT, 2.0, 5, KEPS_PM_KT, 4, 100, KEPS_EJOB);       /* Lemma 2.2 */
    imply(KEPS_PM_KDP, 1.0, 5, KEPS_PM_KDP, 6, 100, KEPS_EJOB);     /* Lemma 3.2 */
    /* missing N */
    imply(KEPS_PM_LDP, 1.0, 0, KEPS_PM_KT, 5, 0, KEPS_EINPUT);
}

/* ---- property: measured levels never exceed the promised ones ---- */

static void check_promise(const keps_rr_params *par, const uint32_t *v, const uint32_t *cls, size_t N, size_t nc,
                          size_t n, size_t k, size_t kdp)
{
    double *f = malloc(n * sizeof *f);
    keps_rr_frequencies(v, N, n, f);
    keps_rr_matrix M;
    assert_int_equal(keps_rr_matrix_for(par, n, f, &M, NULL), KEPS_OK);
    keps_rr_levels cl, ver;
    keps_rr_closed_levels(par, &M, f, N, k, kdp, &cl);
    keps_rr_verified_levels(&M, v, cls, N, nc, k, kdp, &ver);
    const double slack = 1e-9;
    assert_true(ver.epsilon_ldp <= cl.epsilon_ldp + slack);
    assert_true(ver.mult_t <= cl.mult_t * (1 + slack));
    assert_true(ver.kt <= cl.kt * (1 + slack));
    assert_true(ver.kdp <= cl.kdp + slack);
    keps_rr_matrix_free(&M);
    free(f);
}

static void test_levels_within_promise(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(7);
    for (int trial = 0; trial < 400; trial++) {
        size_t n = 2 + keps_rng_below(rng, 5), N = 10 + keps_rng_below(rng, 60);
        size_t kmin = 1 + keps_rng_below(rng, 5), nc = N / kmin;
        uint32_t v[70], cls[70];
        /* skewed values so some categories are rare or absent */
        for (size_t i = 0; i < N; i++) {
            v[i] = (uint32_t)keps_rng_below(rng, 1 + keps_rng_below(rng, n));
            cls[i] = (uint32_t)(i % nc); /* classes of size >= kmin */
        }
        size_t k = N / nc, kdp = 1 + keps_rng_below(rng, N - 1);
        for (int kind = 0; kind < 3; kind++) {
            keps_rr_params par = {(keps_rr_kind)kind, keps_rng_uniform(rng), keps_rng_uniform(rng)};
            check_promise(&par, v, cls, N, nc, n, k, kdp);
        }
        /* parameters chosen from targets meet them */
        double f[8];
        keps_rr_frequencies(v, N, n, f);
        double eps0 = 0.1 + 3 * keps_rng_uniform(rng), t0 = 1 + 5 * keps_rng_uniform(rng);
        assert_true(keps_rr_ldp_epsilon(keps_rr_ldp_p(eps0, n), n) <= eps0);
        assert_true(keps_rr_t_level(keps_rr_t_p(t0, f, n), f, n) <= t0);
        assert_true(keps_rr_ldp_to_kt(keps_rr_kt_to_ldp_needed(t0, k, N), k, N) <= t0);
    }
    keps_rng_free(rng);
}

/* RR-t alone, p_t = 2/5, f = (4/7, 2/7, 1/7), N = 7 (classes of 3 and 4),
 * M[y][z] = (2/5)[y = z] + (3/5) f_z. Column ratios: hiv (2/5 + 3/35)/(3/35)
 * = 17/3, cold 10/3, flu 13/6, so eps = ln(17/3). Eq. (2): max(1 + (2/5)(7 -
 * 1), 1/(3/5)) = 17/5. Theorem 3 from eps at k = 3: (3 + 4 * 17/3)/7 = 11/3,
 * above 17/5, so t stays 17/5; for (1,eps)-DP at k = N - 1 = 6: (6 + 17/3)/7
 * = 5/3, far below 17/5: the level is ln(5/3), not ln(17/5). */
static void test_tclose_closed_levels(void **state)
{
    (void)state;
    const double f[] = {4.0 / 7, 2.0 / 7, 1.0 / 7};
    keps_rr_params par = {KEPS_RR_TCLOSE, 0.0, 0.4};
    keps_rr_matrix M;
    assert_int_equal(keps_rr_matrix_for(&par, 3, f, &M, NULL), KEPS_OK);
    keps_rr_levels cl;
    keps_rr_closed_levels(&par, &M, f, 7, 3, 1, &cl);
    assert_double_near(cl.epsilon_ldp, log(17.0 / 3), 1e-12);
    assert_double_near(cl.mult_t, 17.0 / 5, 1e-12);
    assert_double_near(cl.kt, 17.0 / 5, 1e-12);
    assert_double_near(cl.kdp, log(5.0 / 3), 1e-12);
    keps_rr_matrix_free(&M);
}

/* ---- utility (eqs. 4-5) ---- */

/* RR-LDP n = 3, f = (0.2, 0.3, 0.5), p = 0.4 (diag .6, off .2):
 * z=0: max(.2*.6, .3*.2, .5*.2) = .12; z=1: max(.04, .18, .1) = .18;
 * z=2: max(.04, .06, .3) = .3; U = .6 (eq. 5 with n for N). Identity: 1. */
static void test_utility(void **state)
{
    (void)state;
    const double f[] = {0.2, 0.3, 0.5};
    keps_rr_matrix M;
    assert_int_equal(keps_rr_ldp_matrix(3, 0.4, &M, NULL), KEPS_OK);
    assert_double_near(keps_rr_utility(&M, f), 0.6, TOL);
    keps_rr_matrix_free(&M);
    assert_int_equal(keps_rr_ldp_matrix(3, 1.0, &M, NULL), KEPS_OK);
    assert_double_near(keps_rr_utility(&M, f), 1.0, TOL);
    keps_rr_matrix_free(&M);
    /* p = 0: output independent of input, best guess the mode: U = 0.5 */
    assert_int_equal(keps_rr_ldp_matrix(3, 0.0, &M, NULL), KEPS_OK);
    assert_double_near(keps_rr_utility(&M, f), 0.5, 1e-12); /* 3 * 0.5/3 */
    keps_rr_matrix_free(&M);
}

/* ---- sampling ---- */

/* 30000 records, f = (0.2, 0.3, 0.5). RR-t leaves the expected distribution
 * equal to f (Pr_D = f M_t = f); RR-LDP n = 3, p = 0.4 turns it into
 * 0.4 f + 0.2. Each observed frequency is within 5 standard deviations
 * (sd <= sqrt(.25/30000) = 0.0029, bound 0.0145): a false failure has
 * probability below 1e-6 per check, and the seed is fixed. */
static void test_randomize_distribution(void **state)
{
    (void)state;
    enum { N = 30000 };
    static uint32_t v[N], out[N];
    for (size_t i = 0; i < N; i++)
        v[i] = i < N / 5 ? 0 : i < N / 2 ? 1 : 2;
    double f[3];
    keps_rr_frequencies(v, N, 3, f);
    keps_rng *rng = keps_rng_new_seeded(99);
    const keps_rr_params pars[] = {{KEPS_RR_TCLOSE, 0, 0.5}, {KEPS_RR_LDP, 0.4, 0}};
    const double want[2][3] = {{0.2, 0.3, 0.5}, {0.28, 0.32, 0.4}};
    for (int m = 0; m < 2; m++) {
        keps_rr_matrix M;
        assert_int_equal(keps_rr_matrix_for(&pars[m], 3, f, &M, NULL), KEPS_OK);
        assert_int_equal(keps_rr_randomize(&M, v, N, rng, out, NULL), KEPS_OK);
        size_t cnt[3] = {0};
        for (size_t i = 0; i < N; i++)
            cnt[out[i]]++;
        for (int z = 0; z < 3; z++)
            assert_true(fabs((double)cnt[z] / N - want[m][z]) < 0.0145);
        keps_rr_matrix_free(&M);
    }
    keps_rng_free(rng);
}

/* keps_rr_apply_part: a part holding category 0 only draws RR-t's values
 * from the whole data's counts, not from its own records. Whole data
 * 1:3 over categories 0, 1; p_t = 0 (always draw): Pr(1) = 3/4 by hand;
 * drawing from the part itself would give Pr(1) = 0. RR-LDP stays
 * uniform over n; counts lacking a record's category are refused. */
static void test_apply_part_draws_from_whole(void **state)
{
    (void)state;
    enum { N = 20000 };
    static uint32_t v[N], out[N];
    keps_rng *rng = keps_rng_new_seeded(7);
    const uint64_t counts[2] = {1000, 3000}, none[2] = {0, 5};
    keps_rr_params tc = {KEPS_RR_TCLOSE, NAN, 0.0}, both = {KEPS_RR_BOTH, 0.5, 0.0};
    assert_int_equal(keps_rr_apply_part(&tc, 2, counts, v, N, rng, out, NULL), KEPS_OK);
    size_t ones = 0;
    for (size_t i = 0; i < N; i++)
        ones += out[i];
    /* binomial(N, 3/4): sd = sqrt(N 3/16) ~ 61; 5 sd */
    assert_true(fabs((double)ones - 0.75 * N) < 5 * sqrt(N * 3.0 / 16));
    /* both: RR-t's 3/4, then RR-LDP keeps with 1/2, else uniform over 2:
     * 3/4 * 1/2 + 1/4 = 5/8 */
    assert_int_equal(keps_rr_apply_part(&both, 2, counts, v, N, rng, out, NULL), KEPS_OK);
    ones = 0;
    for (size_t i = 0; i < N; i++)
        ones += out[i];
    assert_true(fabs((double)ones - 0.625 * N) < 5 * sqrt(N * 0.625 * 0.375));
    keps_error err = {0};
    assert_int_equal(keps_rr_apply_part(&tc, 2, none, v, N, rng, out, &err), KEPS_EINPUT);
    keps_rng_free(rng);
}

/* ---- joint values and classes ---- */

static void test_joint_codes(void **state)
{
    (void)state;
    /* columns with 2 and 3 values: joint = a + 2 b */
    uint32_t a[] = {0, 1, 1, 0}, b[] = {2, 0, 2, 2}, nv[] = {2, 3}, v[4], back[2];
    const uint32_t *cols[] = {a, b};
    size_t n;
    assert_int_equal(keps_rr_joint_codes(2, cols, nv, 4, v, &n, NULL), KEPS_OK);
    assert_int_equal(n, 6);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[1], 1);
    assert_int_equal(v[2], 5);
    keps_rr_joint_split(v[2], 2, nv, back);
    assert_int_equal(back[0], 1);
    assert_int_equal(back[1], 2);
    uint32_t big[] = {600};
    const uint32_t *one[] = {a};
    assert_int_equal(keps_rr_joint_codes(1, one, big, 4, v, &n, NULL), KEPS_EINPUT);
}


/* keps_rr_release splits each released joint value back into the
 * sensitive columns, in the schema's order. sex (M = code 0, F = 1: codes
 * follow first appearance) and salary (low = 0, high = 1, mid = 2): the
 * joint value is sex + 2 * salary over 2 * 3 = 6 values. Released
 * out = {5, 0, 1, 4}:
 *   5 = 1 + 2*2 -> F, mid;   0 -> M, low;   1 = 1 + 2*0 -> F, low;
 *   4 = 0 + 2*2 -> M, mid.
 * (Reading the columns the other way round, 1 would be M, high.) id is an
 * identifier (dropped), note is kept, zip (QI) comes from the generalized
 * table, whose other cells ("gx") are not used. */
static void test_release_splits_joint_value(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("id,zip,sex,salary,note\np0,130,M,low,a\np1,131,F,high,b\np2,130,M,mid,c\n"
                                   "p3,131,F,low,d\n");
    keps_error err = {0};
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_set_role(s, "id", KEPS_ROLE_IDENTIFIER, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 1, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "sex", KEPS_ROLE_SENSITIVE, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "salary", KEPS_ROLE_SENSITIVE, &err), KEPS_OK);
    s->others = KEPS_OTHERS_KEEP;
    /* the joint codes keps_rr_release splits are keps_rr_joint_codes's */
    const uint32_t *codes[] = {t->cols[2].codes, t->cols[3].codes};
    uint32_t nv[] = {t->cols[2].nvalues, t->cols[3].nvalues}, value[4];
    size_t dom;
    assert_int_equal(keps_rr_joint_codes(2, codes, nv, 4, value, &dom, &err), KEPS_OK);
    assert_int_equal(dom, 6);
    uint32_t same[] = {0, 3, 4, 1};
    assert_memory_equal(value, same, sizeof same);
    keps_table *gen = table_from_csv("zip,sex,salary,note\n13*,gx,gx,gx\n13*,gx,gx,gx\n13*,gx,gx,gx\n13*,gx,gx,gx\n");
    uint32_t out[] = {5, 0, 1, 4};
    keps_table *rel = NULL;
    assert_int_equal(keps_rr_release(s, out, gen, &rel, &err), KEPS_OK);
    const char *want[] = {"13*", "F", "mid", "a", "13*", "M", "low", "b", "13*", "F", "low", "c", "13*", "M", "mid", "d"};
    assert_table_cells(rel, 4, 4, want);
    assert_string_equal(rel->cols[1].name, "sex");
    keps_table_free(rel);
    /* no partition: the input's QIs; the identity releases the input */
    assert_int_equal(keps_rr_release(s, out, NULL, &rel, &err), KEPS_OK);
    const char *given[] = {"130", "F", "mid", "a", "131", "M", "low", "b", "130", "F", "low", "c", "131", "M", "mid", "d"};
    assert_table_cells(rel, 4, 4, given);
    keps_table_free(rel);
    assert_int_equal(keps_rr_release(s, value, NULL, &rel, &err), KEPS_OK);
    const char *input[] = {"130", "M", "low", "a", "131", "F", "high", "b", "130", "M", "mid", "c", "131", "F", "low", "d"};
    assert_table_cells(rel, 4, 4, input);
    keps_table_free(rel);
    /* a value outside the joint domain, a generalized table of other rows */
    out[2] = 6;
    rel = (keps_table *)1;
    assert_int_equal(keps_rr_release(s, out, NULL, &rel, &err), KEPS_EINPUT);
    assert_null(rel);
    assert_non_null(strstr(err.msg, "row 3"));
    out[2] = 1;
    keps_table *short_gen = table_from_csv("zip,sex,salary,note\n13*,gx,gx,gx\n");
    assert_int_equal(keps_rr_release(s, out, short_gen, &rel, &err), KEPS_EINPUT);
    keps_table_free(short_gen);
    keps_table_free(gen);
    keps_schema_free(s);
    /* no sensitive column */
    s = keps_schema_new(t);
    s->others = KEPS_OTHERS_KEEP;
    assert_int_equal(keps_rr_release(s, out, NULL, &rel, &err), KEPS_EINPUT);
    keps_schema_free(s);
    keps_table_free(t);
}

/* keps_rr_choose_params: keep probabilities from p/pt or the targets
 * epsilon/t, values worked by hand on freq {1/4, 3/4} (n = 2). */
static void test_choose_params(void **state)
{
    (void)state;
    const double freq[] = {0.25, 0.75};
    keps_error err = {0};
    keps_rr_params par;
    keps_rr_targets tg = {NAN, NAN, NAN, NAN};
    /* ldp, t = 2, N = 10, k = 2: eps needed = ln((10*2 - 2)/(10 - 2)) = ln 2.25 < 1
     * = the given epsilon, so p = (2.25-1)/(2.25-1+2) = 5/13 (not (e-1)/(e+1)) */
    tg.epsilon = 1;
    tg.t = 2;
    assert_int_equal(keps_rr_choose_params(KEPS_RR_LDP, &tg, freq, 2, 10, 2, &par, &err), KEPS_OK);
    assert_int_equal(par.kind, KEPS_RR_LDP);
    assert_true(fabs(par.p - 5.0 / 13.0) < 1e-12);
    assert_true(isnan(par.pt));
    /* the given epsilon 0.5 is below ln 2.25: it stays, p = (e^.5-1)/(e^.5+1) = 0.2449186624 */
    tg.epsilon = 0.5;
    assert_int_equal(keps_rr_choose_params(KEPS_RR_LDP, &tg, freq, 2, 10, 2, &par, &err), KEPS_OK);
    assert_true(fabs(par.p - 0.2449186624) < 1e-9);
    /* t alone, k = N = 10: k is taken as N-1 = 9, eps = ln((20-9)/1) = ln 11, p = 10/12
     * (unclipped, k >= N would need no epsilon and keep everything) */
    tg.epsilon = NAN;
    assert_int_equal(keps_rr_choose_params(KEPS_RR_LDP, &tg, freq, 2, 10, 10, &par, &err), KEPS_OK);
    assert_true(fabs(par.p - 10.0 / 12.0) < 1e-12);
    assert_int_equal(keps_rr_choose_params(KEPS_RR_LDP, &tg, freq, 2, 10, 50, &par, &err), KEPS_OK);
    assert_true(fabs(par.p - 10.0 / 12.0) < 1e-12);
    /* tclose, t = 2: p_t = min((2-1)/(1/0.25-1), 1-1/2) = 1/3 */
    assert_int_equal(keps_rr_choose_params(KEPS_RR_TCLOSE, &tg, freq, 2, 10, 2, &par, &err), KEPS_OK);
    assert_int_equal(par.kind, KEPS_RR_TCLOSE);
    assert_true(fabs(par.pt - 1.0 / 3.0) < 1e-12);
    assert_true(isnan(par.p));
    /* both: t sets p_t only; epsilon 1 gives p = (e-1)/(e+1), however small the classes */
    tg.epsilon = 1;
    assert_int_equal(keps_rr_choose_params(KEPS_RR_BOTH, &tg, freq, 2, 10, 2, &par, &err), KEPS_OK);
    assert_true(fabs(par.pt - 1.0 / 3.0) < 1e-12);
    assert_true(fabs(par.p - (exp(1.0) - 1) / (exp(1.0) + 1)) < 1e-12);
    /* given directly */
    keps_rr_targets direct = {0.6, 0.5, NAN, NAN};
    assert_int_equal(keps_rr_choose_params(KEPS_RR_BOTH, &direct, freq, 2, 10, 2, &par, &err), KEPS_OK);
    assert_true(par.p == 0.6 && par.pt == 0.5);
    /* refusals, *out untouched */
    const struct {
        keps_rr_kind kind;
        keps_rr_targets tg;
        size_t N;
        const char *msg;
    } bad[] = {
        {KEPS_RR_LDP, {0.5, NAN, 1, NAN}, 10, "not both"},
        {KEPS_RR_TCLOSE, {NAN, 0.5, NAN, 2}, 10, "not both"},
        {KEPS_RR_TCLOSE, {NAN, 0.5, 1, NAN}, 10, "no RR-LDP stage"},
        {KEPS_RR_TCLOSE, {0.5, NAN, NAN, 2}, 10, "no RR-LDP stage"},
        {KEPS_RR_LDP, {NAN, 0.5, NAN, 2}, 10, "no RR-t stage"},
        /* p = 0.5 over n = 2 is eps = ln(1 + 2*0.5/0.5) = ln 3 > ln 2.25, the eps t = 2 needs
         * (above): ignoring t would leave it unmet */
        {KEPS_RR_LDP, {0.5, NAN, NAN, 2}, 10, "give p or t"},
        {KEPS_RR_TCLOSE, {NAN, NAN, NAN, NAN}, 10, "RR-t stage needs"},
        {KEPS_RR_BOTH, {NAN, NAN, NAN, 2}, 10, "RR-LDP stage needs"},
        {KEPS_RR_LDP, {NAN, NAN, NAN, NAN}, 10, "or a target t"},
        {KEPS_RR_LDP, {NAN, NAN, NAN, 2}, 1, "N >= 2"},
        {KEPS_RR_LDP, {1.5, NAN, NAN, NAN}, 10, "[0, 1]"},
        {KEPS_RR_LDP, {NAN, NAN, NAN, 0.5}, 10, "t >= 1"},
        {(keps_rr_kind)7, {0.5, NAN, NAN, NAN}, 10, "unknown mechanism"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        keps_rr_params keep = {KEPS_RR_BOTH, 42, 42};
        err.msg[0] = 0;
        assert_int_equal(keps_rr_choose_params(bad[i].kind, &bad[i].tg, freq, 2, bad[i].N, 2, &keep, &err),
                         KEPS_EINPUT);
        assert_non_null(strstr(err.msg, bad[i].msg));
        assert_true(keep.kind == KEPS_RR_BOTH && keep.p == 42 && keep.pt == 42);
    }
    assert_int_equal(keps_rr_choose_params(KEPS_RR_LDP, &direct, freq, 0, 10, 2, &par, &err), KEPS_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ldp_n2),
        cmocka_unit_test(test_ldp_n3),
        cmocka_unit_test(test_t_n2),
        cmocka_unit_test(test_t_n3),
        cmocka_unit_test(test_sequence_n2),
        cmocka_unit_test(test_verifiers_by_hand),
        cmocka_unit_test(test_verifiers_brute_force),
        cmocka_unit_test(test_paper_appendix_tables),
        cmocka_unit_test(test_figure6_epsilon),
        cmocka_unit_test(test_theorem3_attained),
        cmocka_unit_test(test_implications),
        cmocka_unit_test(test_levels_within_promise),
        cmocka_unit_test(test_tclose_closed_levels),
        cmocka_unit_test(test_utility),
        cmocka_unit_test(test_large_epsilon),
        cmocka_unit_test(test_randomize_distribution),
        cmocka_unit_test(test_apply_part_draws_from_whole),
        cmocka_unit_test(test_joint_codes),
        cmocka_unit_test(test_release_splits_joint_value),
        cmocka_unit_test(test_choose_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
