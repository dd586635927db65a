/* Record sampling, categorical sampling, randomized response, accountant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/accountant.h"
#include "keps/rr.h"
#include "keps/sample.h"
#include "testutil.h"

static void parse_probability(void **state)
{
    (void)state;
    uint64_t n, d;
    assert_int_equal(keps_parse_probability("0.7", &n, &d, NULL), 0);
    assert_true(n == 7 && d == 10);
    assert_int_equal(keps_parse_probability("0.25", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 4);
    assert_int_equal(keps_parse_probability(".5", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 2);
    assert_int_equal(keps_parse_probability("1", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 1);
    assert_int_equal(keps_parse_probability("0", &n, &d, NULL), 0);
    assert_true(n == 0 && d == 1);
    assert_int_equal(keps_parse_probability("14/20", &n, &d, NULL), 0);
    assert_true(n == 7 && d == 10);
    assert_int_equal(keps_parse_probability("1.000", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 1);
    /* exponents, exact: 1e-6 = 1/10^6, 2.5E-3 = 25/10^4 = 1/400, 5e-1 = 1/2,
     * 0.05e+1 = 5/100 * 10 = 1/2, 1e-18 (the finest denominator), 0e5 = 0 */
    assert_int_equal(keps_parse_probability("1e-6", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 1000000);
    assert_int_equal(keps_parse_probability("2.5E-3", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 400);
    assert_int_equal(keps_parse_probability("5e-1", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 2);
    assert_int_equal(keps_parse_probability("0.05e+1", &n, &d, NULL), 0);
    assert_true(n == 1 && d == 2);
    assert_int_equal(keps_parse_probability("1e-18", &n, &d, NULL), 0);
    assert_true(n == 1 && d == UINT64_C(1000000000000000000));
    assert_int_equal(keps_parse_probability("1234.5e-4", &n, &d, NULL), 0); /* 12345/10^5 */
    assert_true(n == 2469 && d == 20000);
    assert_int_equal(keps_parse_probability("0e5", &n, &d, NULL), 0);
    assert_true(n == 0);
    keps_error err = {0};
    /* 1e-19 needs a denominator above 10^18; 2e0 and 0.5e1 exceed 1 */
    const char *bad[] = {"1.5", "-0.1", "abc", "", "0.7x", "1/0", "3/2", ".", "0.1234567890123456789", "2",
                         "1e-19", "2e0", "0.5e1", "1e", "1e+", "1e 6", "1e-6x", "e-6", "1e-6.5",
                         /* 0.99...9 with 21 digits: the numerator 9999999999999.99999999 * 10^8
                          * would overflow 64 bits; the denominator 10^21 is beyond 10^18 anyway */
                         "9999999999999.99999999e-13"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(keps_parse_probability(bad[i], &n, &d, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "decimal"));
}

/* beta = "0.7" exactly 7/10: over n = 1e6 records the count is
 * Binomial(1e6, 0.7): sd sqrt(1e6*0.21) = 458.3; allow 5 sd = 2291. */
static void bernoulli_exact_frequency(void **state)
{
    (void)state;
    const size_t n = 1000000;
    uint8_t *keep = malloc(n);
    keps_rng *r = keps_rng_new_seeded(51);
    size_t kept = 0;
    assert_int_equal(keps_sample_bernoulli_str(r, n, "0.7", keep, &kept, NULL), 0);
    size_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += keep[i];
    assert_true(sum == kept);
    assert_true(fabs((double)kept - 700000.0) < 5 * sqrt(1e6 * 0.21));
    assert_int_equal(keps_sample_bernoulli(r, 1000, 0, 1, keep), 0);
    assert_int_equal(keps_sample_bernoulli(r, 1000, 1, 1, keep), 1000);
    assert_int_equal(keps_sample_bernoulli_str(r, 10, "x", keep, &kept, NULL), KEPS_EINPUT);
    keps_rng_free(r);
    free(keep);
}

/* Chi-square, df = n - 1, critical values at alpha = 0.001: df 3: 16.266. */
static double chi_square(const long *cnt, const double *p, int k, long n)
{
    double chi = 0;
    for (int i = 0; i < k; i++) {
        double e = p[i] * (double)n;
        chi += ((double)cnt[i] - e) * ((double)cnt[i] - e) / e;
    }
    return chi;
}

static void categorical_frequencies(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(52);
    double p[4] = {0.5, 0.25, 0.125, 0.125};
    keps_categorical c;
    assert_int_equal(keps_categorical_init(&c, p, 4, NULL), 0);
    long cnt[4] = {0};
    const long n = 400000;
    for (long i = 0; i < n; i++)
        cnt[keps_categorical_draw(r, &c)]++;
    assert_true(chi_square(cnt, p, 4, n) < 16.266);
    keps_categorical_free(&c);
    /* Unnormalized weights and a zero weight. */
    double w[3] = {2, 0, 6};
    for (int i = 0; i < 1000; i++)
        assert_true(keps_sample_categorical(r, w, 3) != 1);
    double z[2] = {0, 0}, neg[2] = {1, -1};
    assert_int_equal(keps_sample_categorical(r, z, 2), 2);
    assert_int_equal(keps_sample_categorical(r, neg, 2), 2);
    keps_rng_free(r);
}

/* Keep-or-uniform RR with p = 0.6 over n = 4: P[y|x] = 0.4/4 + 0.6[x==y],
 * i.e. 0.7 on the diagonal and 0.1 elsewhere, so epsilon = ln(0.7/0.1) =
 * ln 7 (by hand). Frequencies of row 2 by chi-square (df 3, 16.266). */
static void randomized_response(void **state)
{
    (void)state;
    double m[16];
    keps_transition_keep(0.6, 4, m);
    assert_double_near(m[0], 0.7, 1e-15);
    assert_double_near(m[1], 0.1, 1e-15);
    keps_rr_sampler rr;
    assert_int_equal(keps_rr_sampler_init(&rr, m, 4, NULL), 0);
    assert_double_near(rr.epsilon, log(7.0), 1e-12);
    keps_rng *r = keps_rng_new_seeded(53);
    long cnt[4] = {0};
    const long n = 400000;
    for (long i = 0; i < n; i++)
        cnt[keps_rr_sampler_apply(r, &rr, 2)]++;
    double p[4] = {0.1, 0.1, 0.7, 0.1};
    assert_true(chi_square(cnt, p, 4, n) < 16.266);
    for (int i = 0; i < 1000; i++)
        assert_true(keps_rr_sample(r, m, 4, 3) < 4);
    assert_int_equal(keps_rr_sample(r, m, 4, 4), 4);
    keps_rr_sampler_free(&rr);
    /* A row not summing to 1 is refused; a zero next to a positive entry in
     * a column means no finite epsilon. */
    double badm[4] = {0.5, 0.4, 0.5, 0.5};
    keps_error err = {0};
    assert_int_equal(keps_rr_sampler_init(&rr, badm, 2, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "row 0"));
    double zero[4] = {1, 0, 0.5, 0.5};
    assert_true(isinf(keps_transition_epsilon(zero, 2)));
    keps_rng_free(r);
}

/* Sequential steps add; disjoint parts cost their maximum. By hand:
 * 0.5 + 0.3 + max(1.0, 0.4) = 1.8; delta 0 + 0 + max(1e-6, 1e-5) = 1e-5. */
/* The sampler states the epsilon of the weights it draws with. Keep-or-
 * uniform over n = 400 with p for epsilon 50 (p = 1 - 1.1e-16 in doubles:
 * the matrix itself has epsilon ln(1 + 400 p/(1-p)) = 42.73): its off-
 * diagonal entries, 2.8e-19, are 1 or 2 units of the 62-bit fixed point,
 * and the ratios drawn reach ~43. The stated epsilon is recomputed here
 * from the weights in double (each P = w/W) and must cover them. */
static void sampler_epsilon_of_weights(void **state)
{
    (void)state;
    const uint32_t n = 400;
    double *m = malloc((size_t)n * n * sizeof *m);
    assert_non_null(m);
    double p = keps_rr_ldp_p(50, n); /* keps rr --epsilon 50 */
    keps_transition_keep(p, n, m);
    double matrix_eps = keps_transition_epsilon(m, n);
    assert_double_near(matrix_eps, 42.73, 0.01);
    keps_rr_sampler rr;
    assert_int_equal(keps_rr_sampler_init(&rr, m, n, NULL), 0);
    double worst = 0;
    for (uint32_t y = 0; y < n; y++) {
        double lo = INFINITY, hi = 0;
        for (uint32_t x = 0; x < n; x++) {
            const uint64_t *cum = rr.rows[x].cum;
            double v = (double)(cum[y] - (y ? cum[y - 1] : 0)) / (double)cum[n - 1];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        worst = log(hi / lo) > worst ? log(hi / lo) : worst;
    }
    assert_true(worst > matrix_eps + 0.1); /* the weights lose bits: more than the matrix */
    assert_true(rr.epsilon >= worst * (1 - 1e-12));
    assert_double_near(rr.epsilon, worst, 1e-9);
    keps_rr_sampler_free(&rr);
    free(m);
}

static void accountant(void **state)
{
    (void)state;
    keps_accountant a, parts[2];
    keps_acct_init(&a);
    keps_acct_add(&a, "counts", 0.5, 0);
    keps_acct_add(&a, "means", 0.3, 0);
    keps_acct_init(&parts[0]);
    keps_acct_init(&parts[1]);
    keps_acct_add(&parts[0], "cluster 1", 1.0, 1e-6);
    keps_acct_add(&parts[1], "cluster 2", 0.4, 1e-5);
    keps_acct_add_parallel(&a, "clusters", parts, 2);
    assert_double_near(a.epsilon, 1.8, 1e-12);
    assert_double_near(a.delta, 1e-5, 1e-18);
    assert_int_equal(a.nsteps, 3);
    keps_json j;
    keps_json_init(&j);
    keps_acct_json(&a, &j, NULL);
    assert_non_null(strstr(keps_json_text(&j), "\"label\":\"clusters\""));
    keps_json_free(&j);
    keps_accountant g;
    keps_acct_init(&g);
    keps_acct_max(&g, 0.2, 0);
    keps_acct_max(&g, 0.7, 1e-9);
    keps_acct_max(&g, 0.1, 0);
    assert_double_near(g.epsilon, 0.7, 0);
    assert_double_near(g.delta, 1e-9, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_probability),
        cmocka_unit_test(bernoulli_exact_frequency),
        cmocka_unit_test(categorical_frequencies),
        cmocka_unit_test(randomized_response),
        cmocka_unit_test(sampler_epsilon_of_weights),
        cmocka_unit_test(accountant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
