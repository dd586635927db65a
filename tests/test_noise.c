/* Secure Laplace and geometric samplers: distributions against theory.
 *
 * Bounds: every moment/frequency check allows 5 standard errors of the
 * estimator (computed from the theoretical distribution, written next to
 * each check). For a correct sampler one such check fails with probability
 * ~6e-7; the seed is fixed, so the tests are deterministic. */
#include <math.h>
#include <stdlib.h>

#include "keps/noise.h"
#include "testutil.h"

#define N 1000000

/* Laplace b = 1 at value 0: mean 0, variance 2b^2 = 2, E[X^4] = 24 so
 * Var(X^2) = 20; Pr[|X| > 3] = e^-3; Pr[X > 1] = e^-1/2. The grid
 * (g = 2^-40) changes these by O(g), far below the tolerances. */
static void laplace_moments(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(11);
    double s1 = 0, s2 = 0;
    long tail3 = 0, above1 = 0;
    for (int i = 0; i < N; i++) {
        double x = keps_laplace(r, 0.0, 1.0);
        s1 += x;
        s2 += x * x;
        tail3 += fabs(x) > 3;
        above1 += x > 1;
    }
    double mean = s1 / N, m2 = s2 / N;
    assert_true(fabs(mean) < 5 * sqrt(2.0 / N));       /* sd of mean: sqrt(2/N) */
    assert_true(fabs(m2 - 2) < 5 * sqrt(20.0 / N));    /* sd of mean of X^2: sqrt(20/N) */
    double p3 = exp(-3), p1 = exp(-1) / 2;
    assert_true(fabs((double)tail3 / N - p3) < 5 * sqrt(p3 * (1 - p3) / N));
    assert_true(fabs((double)above1 / N - p1) < 5 * sqrt(p1 * (1 - p1) / N));
    keps_rng_free(r);
}

/* Scale 1000 at value 1e6: mean 1e6, variance 2e6. */
static void laplace_scaled_shifted(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(12);
    double s1 = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        double x = keps_laplace(r, 1e6, 1000.0) - 1e6;
        s1 += x;
        s2 += x * x;
    }
    assert_true(fabs(s1 / N) < 5 * sqrt(2e6 / N));
    assert_true(fabs(s2 / N / 2e6 - 1) < 5 * sqrt(20.0 / N) / 2); /* relative: sqrt(20 b^4/N)/(2b^2) */
    keps_rng_free(r);
}

/* Every output lies on the grid g Z; the value is rounded to the grid. */
static void laplace_grid(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(13);
    keps_noise_info info;
    /* b = 0.3: ceil(log2 0.3) = -1, so g = 2^-41. */
    for (int i = 0; i < 10000; i++) {
        double x = keps_laplace_ex(r, 0.1, 0.3, 1.0, &info);
        double q = x / info.granularity; /* exact: power-of-two scaling */
        assert_true(q == floor(q));
    }
    assert_true(info.granularity == 0x1p-41);
    keps_rng_free(r);
}

/* The stated guarantee, by hand: b = 1, D = 1 gives g = 2^-40, t = 2^40,
 * steps = floor(1/g) + 1 = 2^40 + 1, epsilon = 1 + 2^-40 exactly. b = 0.3,
 * D = 0.3: g = 2^-41, t = 0.3/g = 0.3*2^41 is not an integer, t_used =
 * ceil(2t)/2 in [t, t + 1/2], and epsilon = (floor(t) + 1)/t_used lies in
 * [1, 1 + 2^-38] (floor(t) + 1 >= t_used, and both are within 1 of t ~ 2^39). */
static void laplace_guarantee(void **state)
{
    (void)state;
    keps_noise_info info;
    assert_int_equal(keps_laplace_info(1.0, 1.0, &info), 0);
    assert_true(info.granularity == 0x1p-40);
    assert_true(info.scale == 1.0);
    assert_true(info.epsilon == 1 + 0x1p-40);
    assert_int_equal(keps_laplace_info(0.3, 0.3, &info), 0);
    assert_true(info.epsilon >= 1 && info.epsilon <= 1 + 0x1p-38);
    assert_true(info.scale >= 0.3 && info.scale <= 0.3 * (1 + 0x1p-39));
    assert_int_equal(keps_laplace_info(0, 1, &info), -1);
    assert_int_equal(keps_laplace_info(INFINITY, 1, &info), -1);
    keps_rng *r = keps_rng_new_seeded(1);
    assert_true(isnan(keps_laplace(r, NAN, 1.0)));
    assert_true(isnan(keps_laplace(r, 1.0, -1.0)));
    keps_rng_free(r);
}

/* Geometric mechanism with epsilon = ln 2, D = 1: alpha = e^-eps = 1/2,
 * Pr[Y = k] = (1-a)/(1+a) a^|k| = (1/3) 2^-|k|. So Pr[0] = 1/3,
 * Pr[Y = 1] = 1/6, Pr[Y >= 3] = sum_{k>=3} (1/3) 2^-k = 1/12,
 * Var Y = 2a/(1-a)^2 = 4, E[Y^4] = 2 (1/3) sum k^4 2^-k = (2/3) 150 = 100,
 * so Var(Y^2) = 84. The scale is rounded up by < 2^-39 relative: negligible. */
static void geometric_pmf(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(21);
    long zero = 0, one = 0, ge3 = 0;
    double s1 = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        int64_t y = keps_geometric_mech(r, 1000, log(2.0), 1) - 1000;
        zero += y == 0;
        one += y == 1;
        ge3 += y >= 3;
        s1 += (double)y;
        s2 += (double)(y * y);
    }
    double p0 = 1.0 / 3, p1 = 1.0 / 6, p3 = 1.0 / 12;
    assert_true(fabs((double)zero / N - p0) < 5 * sqrt(p0 * (1 - p0) / N));
    assert_true(fabs((double)one / N - p1) < 5 * sqrt(p1 * (1 - p1) / N));
    assert_true(fabs((double)ge3 / N - p3) < 5 * sqrt(p3 * (1 - p3) / N));
    assert_true(fabs(s1 / N) < 5 * sqrt(4.0 / N));
    assert_true(fabs(s2 / N - 4) < 5 * sqrt(84.0 / N));
    keps_rng_free(r);
}

/* Sensitivity 2, epsilon 1: Pr[Y = k] proportional to exp(-|k|/2),
 * Pr[0] = (1 - e^-1/2)/(1 + e^-1/2) = tanh(1/4). Guarantee D/t = 1 exactly
 * (t = 2 is dyadic). Saturation at INT64_MAX; bad arguments give INT64_MIN. */
static void geometric_sensitivity_and_edges(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(22);
    keps_noise_info info;
    long zero = 0;
    for (int i = 0; i < N; i++)
        zero += keps_geometric_mech_ex(r, 5, 1.0, 2, &info) == 5;
    double p0 = tanh(0.25);
    assert_true(fabs((double)zero / N - p0) < 5 * sqrt(p0 * (1 - p0) / N));
    assert_true(info.epsilon == 1.0 && info.scale == 2.0);
    int saw_max = 0;
    for (int i = 0; i < 100; i++)
        saw_max |= keps_geometric_mech(r, INT64_MAX, 1.0, 1) == INT64_MAX;
    assert_true(saw_max); /* half the draws are >= 0 and saturate */
    assert_true(keps_geometric_mech(r, 7, 0.0, 1) == INT64_MIN);
    assert_true(keps_geometric_mech(r, 7, 1.0, 0) == INT64_MIN);
    keps_rng_free(r);
}

/* Exact Bernoulli(exp(-gamma)) for double and rational gamma, including the
 * integer-part path (gamma = 2.5) and gamma = 0. */
static void bernoulli_exp_freq(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(31);
    double gam[] = {0.5, 2.5, 1.0};
    for (int k = 0; k < 3; k++) {
        long c = 0;
        for (int i = 0; i < N; i++)
            c += keps_bernoulli_exp(r, gam[k]);
        double p = exp(-gam[k]);
        assert_true(fabs((double)c / N - p) < 5 * sqrt(p * (1 - p) / N));
    }
    long c = 0;
    for (int i = 0; i < N; i++)
        c += keps_bernoulli_exp_rational(r, 4, 3); /* exp(-4/3) */
    double p = exp(-4.0 / 3);
    assert_true(fabs((double)c / N - p) < 5 * sqrt(p * (1 - p) / N));
    /* den = 2^61 + 1: gamma/K no longer fits one fraction for large K, so the
     * Bernoulli(gamma) AND Bernoulli(1/K) path runs (den*K >= 2^63 from
     * K = 4, reached with probability ~gamma^3/6 = 2%). gamma ~ 1/2. */
    c = 0;
    for (int i = 0; i < N; i++)
        c += keps_bernoulli_exp_rational(r, UINT64_C(1) << 60, (UINT64_C(1) << 61) + 1);
    p = exp(-(double)(UINT64_C(1) << 60) / (double)((UINT64_C(1) << 61) + 1));
    assert_true(fabs((double)c / N - p) < 5 * sqrt(p * (1 - p) / N));
    assert_int_equal(keps_bernoulli_exp(r, 0), 1);
    assert_int_equal(keps_bernoulli_exp(r, -1), 1);
    assert_int_equal(keps_bernoulli_exp(r, INFINITY), 0);
    assert_int_equal(keps_bernoulli_exp_rational(r, 0, 7), 1);
    keps_rng_free(r);
}

/* Core sampler with a non-trivial shift: s = 3, shift = 1 is t = 1.5,
 * Pr[0] = tanh(1/(2t)) = tanh(1/3). */
static void discrete_laplace_shift(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(32);
    long zero = 0;
    for (int i = 0; i < N; i++)
        zero += keps_discrete_laplace(r, 3, 1) == 0;
    double p0 = tanh(1.0 / 3);
    assert_true(fabs((double)zero / N - p0) < 5 * sqrt(p0 * (1 - p0) / N));
    uint64_t s;
    unsigned sh;
    assert_int_equal(keps_scale_rational(1.5, &s, &sh), 0);
    assert_true(s == 3 && sh == 1); /* 1.5 = 3/2 */
    assert_int_equal(keps_scale_rational(10.0, &s, &sh), 0);
    assert_true(s == 10 && sh == 0);
    /* 1/3 is not dyadic: ilogb = -2, so k = 42 and s = ceil(2^42/3) =
     * 1466015503702 (2^42 = 4398046511104 = 3*1466015503701 + 1), even, so
     * it reduces to 733007751851/2^41. */
    assert_int_equal(keps_scale_rational(1.0 / 3, &s, &sh), 0);
    assert_true(s == UINT64_C(733007751851) && sh == 41);
    assert_int_equal(keps_scale_rational(0x1p50 + 0.5, &s, &sh), 0);
    assert_true(s == (UINT64_C(1) << 50) + 1 && sh == 0); /* rounded up */
    assert_int_equal(keps_scale_rational(-1, &s, &sh), -1);
    keps_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(laplace_moments),       cmocka_unit_test(laplace_scaled_shifted),
        cmocka_unit_test(laplace_grid),          cmocka_unit_test(laplace_guarantee),
        cmocka_unit_test(geometric_pmf),         cmocka_unit_test(geometric_sensitivity_and_edges),
        cmocka_unit_test(bernoulli_exp_freq),    cmocka_unit_test(discrete_laplace_shift),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
