/* Exponential mechanism: exact probabilities, sampled frequencies
 * (chi-square), overflow safety with 100,000 candidates. */
#include <math.h>
#include <stdlib.h>

#include "keps/expmech.h"
#include "testutil.h"

/* u = 0..4, eps = 2, du = 1: weight exp(eps*u/(2du)) = e^u, so
 * p_i = e^i (e - 1)/(e^5 - 1) (geometric series, by hand). */
static void probs_closed_form(void **state)
{
    (void)state;
    double u[5] = {0, 1, 2, 3, 4}, p[5];
    assert_int_equal(keps_expmech_probs(u, 5, 2.0, 1.0, p), 0);
    double e = exp(1.0);
    for (int i = 0; i < 5; i++)
        assert_double_near(p[i], exp((double)i) * (e - 1) / (exp(5.0) - 1), 1e-15);
}

/* 200,000 draws from the same mechanism; Pearson chi-square with 4 degrees
 * of freedom against the closed-form probabilities. Critical value at
 * alpha = 0.001 is 18.467 (chi-square table); a biased sampler (e.g. weights
 * exp(eps*u/du)) gives a statistic in the thousands. */
static void frequencies_chi_square(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(41);
    double u[5] = {0, 1, 2, 3, 4};
    long cnt[5] = {0};
    const long n = 200000;
    for (long i = 0; i < n; i++) {
        size_t k = keps_expmech(r, u, 5, 2.0, 1.0);
        assert_true(k < 5);
        cnt[k]++;
    }
    double e = exp(1.0), chi = 0;
    for (int i = 0; i < 5; i++) {
        double expct = (double)n * exp((double)i) * (e - 1) / (exp(5.0) - 1);
        chi += ((double)cnt[i] - expct) * ((double)cnt[i] - expct) / expct;
    }
    assert_true(chi < 18.467);
    keps_rng_free(r);
}

#define BIG 100000

/* 100,000 candidates with utilities of magnitude 1e6: u_i = 1e6*((i%7)-3)/3.
 * With eps = 1, du = 1 the top class (i%7 == 6, u = 1e6) has
 * floor((99999-6)/7) + 1 = floor(14284.7) + 1 = 14285 members, and the next class is 333,333
 * utility units lower: weight ratio exp(-166,666), so each top candidate has
 * probability 1/14285 and every other one 0 (by hand). */
static void overflow_safety(void **state)
{
    (void)state;
    double *u = malloc(BIG * sizeof *u), *p = malloc(BIG * sizeof *p);
    assert_non_null(u);
    assert_non_null(p);
    for (int i = 0; i < BIG; i++)
        u[i] = 1e6 * ((i % 7) - 3) / 3.0;
    assert_int_equal(keps_expmech_probs(u, BIG, 1.0, 1.0, p), 0);
    double sum = 0;
    for (int i = 0; i < BIG; i++) {
        assert_false(isnan(p[i]));
        sum += p[i];
        assert_double_near(p[i], i % 7 == 6 ? 1.0 / 14285 : 0.0, 1e-15);
    }
    assert_double_near(sum, 1.0, 1e-9);
    keps_rng *r = keps_rng_new_seeded(42);
    for (int k = 0; k < 200; k++)
        assert_int_equal(keps_expmech(r, u, BIG, 1.0, 1.0) % 7, 6);
    /* Worst case for rejection: one dominant candidate among 100,000
     * (u_i = -1e6 i). Still returns it (and fast: ~n proposals). */
    for (int i = 0; i < BIG; i++)
        u[i] = -1e6 * i;
    for (int k = 0; k < 5; k++)
        assert_int_equal(keps_expmech(r, u, BIG, 1.0, 1.0), 0);
    keps_rng_free(r);
    free(u);
    free(p);
}

/* Bad arguments: no candidates, eps <= 0, du <= 0, NaN or +inf utility;
 * -inf candidates are never selected. */
static void bad_arguments(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(43);
    double u[3] = {0, -INFINITY, 1}, p[3];
    assert_true(keps_expmech(r, u, 0, 1, 1) == (size_t)-1);
    assert_true(keps_expmech(r, u, 3, 0, 1) == (size_t)-1);
    assert_true(keps_expmech(r, u, 3, 1, 0) == (size_t)-1);
    for (int k = 0; k < 1000; k++)
        assert_true(keps_expmech(r, u, 3, 1, 1) != 1);
    assert_int_equal(keps_expmech_probs(u, 3, 1, 1, p), 0);
    assert_true(p[1] == 0);
    u[0] = NAN;
    assert_true(keps_expmech(r, u, 3, 1, 1) == (size_t)-1);
    u[0] = INFINITY;
    assert_int_equal(keps_expmech_probs(u, 3, 1, 1, p), -1);
    keps_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probs_closed_form),
        cmocka_unit_test(frequencies_chi_square),
        cmocka_unit_test(overflow_safety),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
