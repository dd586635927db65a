/* delta of epsilon-safe k-anonymization under sampling (SPEC 6).
 * Oracles: a hand computation, the thesis's Tables 5.1/5.5 (seed 004), exact
 * closed forms for the binomial pmf, Chernoff bounds. The exact-rational
 * Python oracle is tests/cli/safela_delta.sh. */
#include <math.h>

#include "testutil.h"
#include "keps/safela.h"

/* k = 2, beta = 1/2: gamma = beta(2-beta) = 3/4, n_min = ceil(2/(3/4) - 1) = 2.
 * n=2: j > 1.5 -> j=2: 1/4.  n=3: j > 2.25 -> j=3: 1/8.
 * n=4: gamma n = 3 is an integer, tie included: j >= 3: (4+1)/16 = 5/16.
 * n=5: j > 3.75: (5+1)/32.  n=6: j > 4.5: (6+1)/64.  n=8: j >= 6: 37/256.
 * Later n only decrease (Chernoff), so delta = 5/16 at n = 4. */
static void hand_case(void **state)
{
    (void)state;
    keps_delta_result r;
    assert_int_equal(keps_safela_delta(2, 0.5, NAN, &r, NULL), KEPS_OK);
    assert_int_equal(r.n_min, 2);
    assert_double_near(r.gamma, 0.75, 1e-15);
    assert_double_near(r.delta, 5.0 / 16, 1e-14);
    assert_int_equal(r.n_argmax, 4);
    assert_false(r.capped);
}

/* Thesis Table 5.1 (x 1e-5) and Table 5.5 (x 1e-6), printed to 2-3 digits;
 * all 35 cells. Cells that look copied from a neighbour (55/60 at beta 0.75
 * both 9.72e-5, 70/75 at 0.75 both 1.23e-5, 65/70 at 0.8 both 6.73e-5) are
 * real: the maximum sits at the same n (64, 80, 75) where gamma n is an
 * integer, which is also why these cells need the tie rule of safela.h
 * (with a strict j > gamma n, 55/0.75 would be 7.74e-5). */
static void thesis_table(void **state)
{
    (void)state;
    static const struct {
        long k;
        double beta, delta;
    } t[] = {
        {55, 0.60, 1.59e-5}, {55, 0.65, 2.40e-5}, {55, 0.70, 5.00e-5}, {55, 0.75, 9.72e-5}, {55, 0.80, 34.4e-5},
        {60, 0.60, 0.71e-5}, {60, 0.65, 1.29e-5}, {60, 0.70, 3.30e-5}, {60, 0.75, 9.72e-5}, {60, 0.80, 13.2e-5},
        {65, 0.60, 0.32e-5}, {65, 0.65, 0.80e-5}, {65, 0.70, 1.12e-5}, {65, 0.75, 3.09e-5}, {65, 0.80, 6.73e-5},
        {70, 0.60, 0.14e-5}, {70, 0.65, 0.26e-5}, {70, 0.70, 0.74e-5}, {70, 0.75, 1.23e-5}, {70, 0.80, 6.73e-5},
        {75, 0.60, 0.64e-6}, {75, 0.65, 1.05e-6}, {75, 0.70, 2.53e-6}, {75, 0.75, 12.3e-6}, {75, 0.80, 38.6e-6},
        {80, 0.60, 0.29e-6}, {80, 0.65, 0.65e-6}, {80, 0.70, 1.68e-6}, {80, 0.75, 3.93e-6}, {80, 0.80, 15.1e-6},
        {85, 0.60, 0.13e-6}, {85, 0.65, 0.30e-6}, {85, 0.70, 0.58e-6}, {85, 0.75, 1.59e-6}, {85, 0.80, 5.86e-6},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        keps_delta_result r;
        assert_int_equal(keps_safela_delta(t[i].k, t[i].beta, NAN, &r, NULL), KEPS_OK);
        /* 3 printed digits (two for 0.xx entries): 5% covers the rounding */
        double rel = fabs(r.delta - t[i].delta) / t[i].delta;
        if (rel > 0.05)
            fail_msg("k=%ld beta=%.2f: %.4g, thesis %.3g", t[i].k, t[i].beta, r.delta, t[i].delta);
    }
}

/* The pmf at n = 10^7 against closed forms: the central term of
 * Bin(n, 1/2) is sqrt(2/(pi n)) (1 - 1/(4n) + ...); f(0; n, p) = (1-p)^n. */
static void pmf_large_n(void **state)
{
    (void)state;
    double n = 1e7;
    double want = 0.5 * log(2.0 / (3.14159265358979323846 * n)) + log1p(-1.0 / (4 * n));
    assert_double_near(keps_log_binom_pmf(5000000, 10000000, 0.5), want, 1e-12);
    assert_double_near(keps_log_binom_pmf(0, 10000000, 0.3), 1e7 * log(0.7), 1e-6);
    /* f(1; n, p) = n p (1-p)^(n-1) */
    assert_double_near(keps_log_binom_pmf(1, 10000000, 0.3), log(1e7 * 0.3) + 9999999 * log(0.7), 1e-6);
    /* small n exactly: C(10,3) 0.3^3 0.7^7 */
    assert_double_near(exp(keps_log_binom_pmf(3, 10, 0.3)), 120 * 0.027 * 0.0823543, 1e-15);
}

/* k = 10,000: delta underflows a double but its log stays finite and sits
 * between the first tail term at n_min and the Chernoff bound at n_min. */
static void no_underflow(void **state)
{
    (void)state;
    keps_delta_result r;
    assert_int_equal(keps_safela_delta(10000, 0.7, NAN, &r, NULL), KEPS_OK);
    double g = 0.91, b = 0.7;
    double kl = g * log(g / b) + (1 - g) * log((1 - g) / (1 - b));
    assert_int_equal(r.n_min, 10989); /* ceil(10000/0.91 - 1) = ceil(10987.9) */
    assert_true(isfinite(r.log_delta));
    assert_true(r.log_delta <= -(double)r.n_min * kl + 1e-9);
    long a = (long)ceil(g * 10989);
    assert_true(r.log_delta >= keps_log_binom_pmf(a, 10989, b));
    assert_false(r.capped);
}

/* min-k inverts delta: delta(min_k) <= target < delta(min_k - 1). */
static void min_k_inverse(void **state)
{
    (void)state;
    long k;
    keps_delta_result r, prev;
    assert_int_equal(keps_safela_min_k(3.32e-5, 0.7, NAN, 100000, &k, &r, NULL), KEPS_OK);
    assert_true(r.delta <= 3.32e-5);
    assert_int_equal(keps_safela_delta(k - 1, 0.7, NAN, &prev, NULL), KEPS_OK);
    assert_true(prev.delta > 3.32e-5);
    /* thesis Table 5.1: k = 60 gives 3.30e-5 <= 1/|D| = 3.32e-5, k = 55 gives 5.00e-5 */
    assert_in_range(k, 56, 60);
    assert_int_equal(keps_safela_min_k(1e-300, 0.7, NAN, 50, &k, &r, NULL), KEPS_EJOB);
}

/* A larger epsilon than the default gives a larger gamma, hence a smaller
 * delta; an epsilon below eps' - ln(1-beta) is refused. */
static void custom_epsilon(void **state)
{
    (void)state;
    keps_delta_result d0, d1;
    assert_int_equal(keps_safela_delta(75, 0.7, NAN, &d0, NULL), KEPS_OK);
    assert_int_equal(keps_safela_delta(75, 0.7, 2.0, &d1, NULL), KEPS_OK);
    /* gamma = 1 - 0.3 e^-2 */
    assert_double_near(d1.gamma, 1 - 0.3 * exp(-2.0), 1e-15);
    assert_true(d1.delta < d0.delta);
    assert_int_equal(keps_safela_delta(75, 0.7, 1.0, &d1, NULL), KEPS_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_case),    cmocka_unit_test(thesis_table),  cmocka_unit_test(pmf_large_n),
        cmocka_unit_test(no_underflow), cmocka_unit_test(min_k_inverse), cmocka_unit_test(custom_epsilon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
