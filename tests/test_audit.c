/* The privacy-loss auditor: its statistics (incomplete beta, Clopper-
 * Pearson) against closed forms, and fast audits of the built-in
 * mechanisms: honest ones pass, a Laplace with half the scale is caught. */
#include <math.h>
#include <stdlib.h>

#include "keps/audit.h"
#include "keps/noise.h"
#include "testutil.h"

/* Closed forms: I_x(1,1) = x, I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b,
 * I_{1/2}(a,a) = 1/2 (symmetry), I_x(2,2) = 3x^2 - 2x^3. */
static void incomplete_beta(void **state)
{
    (void)state;
    assert_double_near(keps_betainc(1, 1, 0.3), 0.3, 1e-13);
    assert_double_near(keps_betainc(3, 1, 0.6), pow(0.6, 3), 1e-13);
    assert_double_near(keps_betainc(1, 5, 0.2), 1 - pow(0.8, 5), 1e-13);
    assert_double_near(keps_betainc(50000, 50000, 0.5), 0.5, 1e-9);
    assert_double_near(keps_betainc(2, 2, 0.9), 3 * 0.81 - 2 * 0.729, 1e-13);
    assert_double_near(keps_betainc(2, 2, 0), 0, 0);
    assert_double_near(keps_betainc(2, 2, 1), 1, 0);
    /* quantile: Beta(2,1) has CDF x^2, so the 0.25 quantile is 0.5 */
    assert_double_near(keps_beta_quantile(0.25, 2, 1), 0.5, 1e-12);
}

/* k = 0 of n = 10: hi solves 1-(1-x)^10 = 1-alpha, x = 1 - alpha^(1/10);
 * k = n = 10: lo = alpha^(1/10) (by hand, alpha = 0.05). */
static void clopper_pearson(void **state)
{
    (void)state;
    double lo, hi;
    keps_clopper_pearson(0, 10, 0.05, &lo, &hi);
    assert_true(lo == 0);
    assert_double_near(hi, 1 - pow(0.05, 0.1), 1e-10);
    keps_clopper_pearson(10, 10, 0.05, &lo, &hi);
    assert_double_near(lo, pow(0.05, 0.1), 1e-10);
    assert_true(hi == 1);
    /* k = 500 of 1000: normal approximation 0.5 -+ 1.645*sqrt(0.25/1000)
     * = 0.474, 0.526; exact bounds are within 0.001 of these. */
    keps_clopper_pearson(500, 1000, 0.05, &lo, &hi);
    assert_double_near(lo, 0.5 - 1.645 * sqrt(0.25 / 1000), 1e-3);
    assert_double_near(hi, 0.5 + 1.645 * sqrt(0.25 / 1000), 1e-3);
}

/* Each audit: 100,000 trials per input (well under a second). An honest
 * mechanism is flagged with probability <= alpha = 0.05 by construction;
 * the seeds are fixed. */
static keps_audit_opts opts(double eps, int discrete)
{
    keps_audit_opts o;
    keps_audit_defaults(&o);
    o.epsilon = eps;
    o.discrete = discrete;
    return o;
}

/* Laplace b = 1 on inputs 0 and 1 (D = 1): true loss 1 in both tails. */
static void audit_laplace_pass(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(61);
    keps_audit_laplace m = {0.0, 1.0, 1.0, 1.0};
    keps_noise_info info;
    keps_laplace_info(1.0, 1.0, &info);
    keps_audit_opts o = opts(info.epsilon, 0);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, keps_audit_laplace_fn, &m, &o, &res, NULL), 0);
    assert_false(res.violation);
    /* the tails show the full loss: the estimate is near 1, and the
     * interval of the worst bin contains it */
    assert_true(res.epsilon_hat > 0.9 && res.epsilon_hat < 1.2);
    assert_true(res.epsilon_lower < 1 && res.epsilon_upper > 0.9);
    keps_rng_free(r);
}

/* The deliberately broken mechanism: scale halved, so the true loss is 2
 * while 1 is claimed. The tail bins hold ~15k/2k samples: the lower bound
 * lands near 1.9, far above 1. */
static void audit_laplace_broken_caught(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(62);
    keps_audit_laplace m = {0.0, 1.0, 1.0, 0.5};
    keps_audit_opts o = opts(1.0, 0);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, keps_audit_laplace_fn, &m, &o, &res, NULL), 0);
    assert_true(res.violation);
    assert_true(res.epsilon_lower > 1.5);
    keps_rng_free(r);
}

static void audit_geometric_pass(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(63);
    keps_audit_geometric m = {10, 11, 1, 1.0};
    keps_audit_opts o = opts(1.0, 0);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, keps_audit_geometric_fn, &m, &o, &res, NULL), 0);
    assert_false(res.violation);
    assert_true(res.epsilon_hat > 0.9);
    /* and the same claim for epsilon 2 noise on sensitivity 1 inputs
     * two apart (true loss 4 > claimed 2) is caught */
    keps_audit_geometric bad = {10, 12, 1, 2.0};
    o = opts(2.0, 0);
    assert_int_equal(keps_audit_run(r, keps_audit_geometric_fn, &bad, &o, &res, NULL), 0);
    assert_true(res.violation);
    keps_rng_free(r);
}

/* RR p = 0.6 over 4 categories, true values 0 and 1: output 0 has ratio
 * 0.7/0.1 = 7 exactly, so the claim ln 7 is tight; claiming ln 7 - 0.3 is
 * caught. */
static void audit_rr(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(64);
    double mat[16];
    keps_transition_keep(0.6, 4, mat);
    keps_rr_sampler rr;
    assert_int_equal(keps_rr_sampler_init(&rr, mat, 4, NULL), 0);
    keps_audit_rr m = {&rr, 0, 1};
    keps_audit_opts o = opts(rr.epsilon, 1);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, keps_audit_rr_fn, &m, &o, &res, NULL), 0);
    assert_false(res.violation);
    assert_int_equal(res.bins, 4);
    assert_true(res.epsilon_lower < log(7.0) && res.epsilon_upper > log(7.0));
    o.epsilon = log(7.0) - 0.3;
    assert_int_equal(keps_audit_run(r, keps_audit_rr_fn, &m, &o, &res, NULL), 0);
    assert_true(res.violation);
    keps_rr_sampler_free(&rr);
    keps_rng_free(r);
}

/* Exponential mechanism eps = 1, D = 1, n = 20, A = (1,0,..,0), B =
 * (0,1,..,1): Pr_A[0]/Pr_B[0] = e^{1/2} (1 + 19 e^{1/2})/(e^{1/2} + 19)
 * = 2.581 (loss 0.948 < 1): passes; claiming 0.5 is caught. */
static void audit_expmech(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(65);
    double ua[20] = {1}, ub[20] = {0};
    for (int i = 1; i < 20; i++)
        ub[i] = 1;
    keps_audit_expmech m = {ua, ub, 20, 1.0, 1.0};
    keps_audit_opts o = opts(1.0, 1);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, keps_audit_expmech_fn, &m, &o, &res, NULL), 0);
    assert_false(res.violation);
    double h = exp(0.5), loss = log(h * (1 + 19 * h) / (h + 19));
    assert_true(res.epsilon_lower < loss && res.epsilon_upper > loss);
    o.epsilon = 0.5;
    assert_int_equal(keps_audit_run(r, keps_audit_expmech_fn, &m, &o, &res, NULL), 0);
    assert_true(res.violation);
    keps_rng_free(r);
}

/* A mechanism that reveals its input (A always outputs 0, B always 1):
 * both bins hold outputs of one input only, so no finite ratio exists
 * (epsilon_hat stays 0), both bins are one-sided, and the worst bin's own
 * estimate is infinite. Its lower bound is ln(lo/hi) with the
 * Clopper-Pearson bounds of 100000/100000 and 0/100000 at alpha/8 (2
 * bins, 4 bounds each): lo = (alpha/8)^(1/n), hi = 1 - (alpha/8)^(1/n). */
static int reveal_fn(void *ctx, keps_rng *r, int which, double *out)
{
    (void)ctx;
    (void)r;
    *out = which;
    return 0;
}

static void audit_one_sided(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(67);
    keps_audit_opts o = opts(1.0, 1);
    keps_audit_result res;
    assert_int_equal(keps_audit_run(r, reveal_fn, NULL, &o, &res, NULL), 0);
    assert_int_equal(res.bins, 2);
    assert_int_equal(res.one_sided_bins, 2);
    assert_true(res.epsilon_hat == 0);
    assert_true(isinf(res.worst_hat) && res.worst_hat > 0);
    double a = pow(0.05 / 8, 1e-5);
    assert_double_near(res.epsilon_lower, log(a / (1 - a)), 1e-6);
    assert_true(res.violation);
    keps_rng_free(r);
}

static int failing_fn(void *ctx, keps_rng *r, int which, double *out)
{
    (void)ctx;
    (void)r;
    *out = 0;
    return which; /* fails on input B */
}

static void audit_errors(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(66);
    keps_audit_opts o = opts(1.0, 0);
    keps_audit_result res;
    keps_error err = {0};
    assert_int_equal(keps_audit_run(r, failing_fn, NULL, &o, &res, &err), KEPS_EJOB);
    o.trials = 5;
    assert_int_equal(keps_audit_run(r, failing_fn, NULL, &o, &res, &err), KEPS_EINPUT);
    keps_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(incomplete_beta),
        cmocka_unit_test(clopper_pearson),
        cmocka_unit_test(audit_laplace_pass),
        cmocka_unit_test(audit_laplace_broken_caught),
        cmocka_unit_test(audit_geometric_pass),
        cmocka_unit_test(audit_rr),
        cmocka_unit_test(audit_expmech),
        cmocka_unit_test(audit_one_sided),
        cmocka_unit_test(audit_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
