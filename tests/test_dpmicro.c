/* DP microaggregation: scales against hand computations, one noisy
 * centroid per cluster, clamping, and the row-linkage leak of univariate
 * mode with m > 1 (deterministic counterexample). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/audit.h"
#include "keps/dpmicro.h"
#include "keps/schema.h"
#include "testutil.h"

static const double lo2[] = {0, 0}, hi2[] = {100, 50};

static void test_scales(void **state)
{
    (void)state;
    double b[2];
    /* n = 10, k = 3, eps = 1, D = (100, 50): c = floor(10/3) = 3,
     * L1 sensitivity 3*(100+50)/3 = 150, b = 150 for every coordinate. */
    double s = keps_dpmicro_scales(KEPS_DPM_MULTIVARIATE, 10, 2, 3, 1.0, lo2, hi2, 0, b);
    assert_double_near(s, 150.0, 1e-12);
    assert_double_near(b[0], 150.0, 1e-12);
    assert_double_near(b[1], 150.0, 1e-12);
    /* univariate: b_j = m D_j/(k eps) = 2*100/3, 2*50/3 */
    keps_dpmicro_scales(KEPS_DPM_UNIVARIATE, 10, 2, 3, 1.0, lo2, hi2, 0, b);
    assert_double_near(b[0], 200.0 / 3, 1e-12);
    assert_double_near(b[1], 100.0 / 3, 1e-12);
    /* k = 1, plain per-record Laplace: multivariate (100+50)/eps = 150 per
     * coordinate at eps = 1; univariate m D_j / eps = 200, 100 */
    keps_dpmicro_scales(KEPS_DPM_MULTIVARIATE, 10, 2, 1, 1.0, lo2, hi2, 0, b);
    assert_double_near(b[0], 150.0, 1e-12);
    keps_dpmicro_scales(KEPS_DPM_UNIVARIATE, 10, 2, 1, 1.0, lo2, hi2, 0, b);
    assert_double_near(b[0], 200.0, 1e-12);
    assert_double_near(b[1], 100.0, 1e-12);
    /* multivariate, N = 1080, k = 10, eps = 2, one attribute D = 1000:
     * c = 108, sensitivity 108*1000/10 = 10800, b = 5400 */
    double l1 = 0, h1 = 1000;
    assert_double_near(keps_dpmicro_scales(KEPS_DPM_MULTIVARIATE, 1080, 1, 10, 2.0, &l1, &h1, 0, b), 10800.0, 1e-9);
    assert_double_near(b[0], 5400.0, 1e-9);
    /* the paper's printed scale D_j/(k eps) = 1000/20 = 50 */
    keps_dpmicro_scales(KEPS_DPM_MULTIVARIATE, 1080, 1, 10, 2.0, &l1, &h1, 1, b);
    assert_double_near(b[0], 50.0, 1e-12);
}

static size_t distinct_rows(const double *out, size_t n, size_t m)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = 0;
        while (l < i && memcmp(out + l * m, out + i * m, m * sizeof *out) != 0)
            l++;
        d += l == i;
    }
    return d;
}

static void test_shared_centroid_and_guarantee(void **state)
{
    (void)state;
    double x[20];
    for (int i = 0; i < 10; i++) {
        x[2 * i] = 10.0 * i;
        x[2 * i + 1] = 5.0 * i;
    }
    /* eps = 100 (b = 1.5): clamping never merges two clusters' values */
    keps_dpmicro_params p = {.mode = KEPS_DPM_MULTIVARIATE, .k = 3, .epsilon = 100, .lo = lo2, .hi = hi2};
    keps_rng *rng = keps_rng_new_seeded(9);
    keps_dpmicro_result r;
    keps_error err = {0};
    assert_int_equal(keps_dpmicro_run(x, 10, 2, &p, rng, &r, &err), KEPS_OK);
    /* 3 clusters (3, 3, 4 records): every record of a cluster gets the same
     * noisy centroid, so exactly 3 distinct rows (noise is continuous) */
    assert_int_equal(r.nclusters, 3);
    assert_int_equal(distinct_rows(r.out, 10, 2), 3);
    /* The formula's scale b = 3 * 150 / (3 * 100) = 1.5 would state 100
     * plus the grid rounding (floor(S/g) + 6)/t: above the request. The
     * scale drawn with is calibrated up by that slack (g = 2^-39, six
     * coordinates: 6 g / 150 ~ 7e-14 relative), so the guarantee is at most
     * 100 and within 1e-6 of it. */
    assert_double_near(r.scale[0], 1.5, 1e-12);
    assert_true(r.scale_used[0] >= 1.5 && r.scale_used[0] <= 1.5 * (1 + 1e-11));
    assert_double_near(r.epsilon, 100.0, 1e-6);
    assert_true(r.epsilon <= 100.0);
    assert_true(r.row_linked_dp);
    for (int i = 0; i < 10; i++) {
        assert_true(r.out[2 * i] >= 0 && r.out[2 * i] <= 100);
        assert_true(r.out[2 * i + 1] >= 0 && r.out[2 * i + 1] <= 50);
    }
    keps_dpmicro_result_free(&r);
    /* with the paper's accounting each record draws its own noise */
    p.paper_accounting = 1;
    assert_int_equal(keps_dpmicro_run(x, 10, 2, &p, rng, &r, &err), KEPS_OK);
    assert_int_equal(distinct_rows(r.out, 10, 2), 10);
    assert_false(r.row_linked_dp);
    assert_true(isinf(r.epsilon));
    keps_dpmicro_result_free(&r);
    keps_rng_free(rng);
}

/* k = 1 is plain per-record Laplace: every record is its own cluster and
 * keeps its own (noisy) values. Scales by hand, D = (100, 50), eps = 1000:
 * multivariate b = (100 + 50)/1000 = 0.15 per coordinate; univariate
 * b_j = m D_j/eps = 0.2 and 0.1. |Lap(0.2)| > 5 has probability e^-25,
 * so every released value lies within 5 of its input. The identity
 * grouping pairs each row with its own record whatever the data, so the
 * row-linked release is eps-DP in both modes. */
static void test_k1_per_record(void **state)
{
    (void)state;
    double x[10];
    for (int i = 0; i < 5; i++) {
        x[2 * i] = 20.0 * i + 10;
        x[2 * i + 1] = 10.0 * i + 5;
    }
    keps_rng *rng = keps_rng_new_seeded(12);
    keps_error err = {0};
    const double want[2][2] = {{0.15, 0.15}, {0.2, 0.1}};
    for (int mode = 0; mode < 2; mode++) {
        keps_dpmicro_params p = {.mode = mode ? KEPS_DPM_UNIVARIATE : KEPS_DPM_MULTIVARIATE,
                                 .k = 1, .epsilon = 1000, .lo = lo2, .hi = hi2};
        keps_dpmicro_result r;
        assert_int_equal(keps_dpmicro_run(x, 5, 2, &p, rng, &r, &err), KEPS_OK);
        assert_int_equal(r.nclusters, 5);
        assert_double_near(r.scale[0], want[mode][0], 1e-12);
        assert_double_near(r.scale[1], want[mode][1], 1e-12);
        for (int i = 0; i < 10; i++)
            assert_true(fabs(r.out[i] - x[i]) < 5);
        assert_int_equal(distinct_rows(r.out, 5, 2), 5);
        /* the scale drawn with is calibrated so that the grid's step keeps
         * the guarantee at most the request: within 1e-6 relative below */
        assert_double_near(r.epsilon, 1000.0, 1e-3);
        assert_true(r.epsilon <= 1000.0);
        assert_true(r.row_linked_dp);
        keps_dpmicro_result_free(&r);
    }
    keps_rng_free(rng);
}

static void test_clamping_and_errors(void **state)
{
    (void)state;
    /* values -5 and 120 lie outside [0,100]: both clamped (2 cells) */
    double x[] = {-5, 50, 120, 60};
    double lo = 0, hi = 100;
    keps_dpmicro_params p = {.mode = KEPS_DPM_UNIVARIATE, .k = 2, .epsilon = 1, .lo = &lo, .hi = &hi};
    keps_rng *rng = keps_rng_new_seeded(10);
    keps_dpmicro_result r;
    keps_error err = {0};
    assert_int_equal(keps_dpmicro_run(x, 4, 1, &p, rng, &r, &err), KEPS_OK);
    assert_int_equal(r.clamped_inputs, 2);
    /* SSE is against the unclamped input; standardized by the input's
     * population sd: x = (-5,50,120,60), mean 56.25, var = (61.25^2 +
     * 6.25^2 + 63.75^2 + 3.75^2)/4 = (3751.5625 + 39.0625 + 4064.0625 +
     * 14.0625)/4 = 1967.1875 */
    double e = 0;
    for (int i = 0; i < 4; i++)
        e += (x[i] - r.out[i]) * (x[i] - r.out[i]);
    assert_double_near(r.sse, e, 1e-9 * e);
    assert_double_near(r.sse_standardized, e / 1967.1875, 1e-9 * e);
    assert_int_equal(r.nclusters, 2);
    /* univariate m = 1: b = D/(k eps) = 50, epsilon 1, row-linked DP */
    assert_double_near(r.scale[0], 50.0, 1e-12);
    assert_true(r.row_linked_dp);
    keps_dpmicro_result_free(&r);
    p.k = 5;
    assert_int_equal(keps_dpmicro_run(x, 4, 1, &p, rng, &r, &err), KEPS_EJOB);
    p.k = 2;
    p.hi = &lo;
    assert_int_equal(keps_dpmicro_run(x, 4, 1, &p, rng, &r, &err), KEPS_EINPUT);
    /* epsilon 1e299 asks for b = 100/(2e299) = 5e-298, below the sampler's
     * 2^-900 ~ 1.2e-271: the job cannot be done (exit 1), never a release of NaN */
    p.hi = &hi;
    p.epsilon = 1e299;
    assert_int_equal(keps_dpmicro_run(x, 4, 1, &p, rng, &r, &err), KEPS_EJOB);
    assert_non_null(strstr(err.msg, "Laplace scale"));
    keps_rng_free(rng);
}

static void test_univariate_rows_leak(void **state)
{
    (void)state;
    /* A = (6,6),(7,7),(13,13),(14,14); B replaces (14,14) by (14,5). k = 2,
     * domain [0,20], eps = 100 (b = 0.2: no clamping ever merges values;
     * the leak does not depend on eps).
     * A: both attributes group {r0,r1},{r2,r3}: rows pair up -> 2 distinct
     * rows. B: attribute 2 sorts 5,6,7,13 -> {r3,r0},{r1,r2}: the four rows
     * combine different groups -> 4 distinct rows, whatever the noise. So
     * the row-linked univariate release is not DP; the result says so. */
    double a[] = {6, 6, 7, 7, 13, 13, 14, 14}, b[] = {6, 6, 7, 7, 13, 13, 14, 5};
    double lo[] = {0, 0}, hi[] = {20, 20};
    keps_dpmicro_params p = {.mode = KEPS_DPM_UNIVARIATE, .k = 2, .epsilon = 100, .lo = lo, .hi = hi};
    keps_rng *rng = keps_rng_new_seeded(11);
    keps_dpmicro_result r;
    assert_int_equal(keps_dpmicro_run(a, 4, 2, &p, rng, &r, NULL), KEPS_OK);
    assert_int_equal(distinct_rows(r.out, 4, 2), 2);
    assert_false(r.row_linked_dp);
    keps_dpmicro_result_free(&r);
    assert_int_equal(keps_dpmicro_run(b, 4, 2, &p, rng, &r, NULL), KEPS_OK);
    assert_int_equal(distinct_rows(r.out, 4, 2), 4);
    keps_dpmicro_result_free(&r);
    keps_rng_free(rng);
}


/* Neighbours for the audit: one record replaced (0 -> 80), domain [0,80],
 * k = 8, n = 16, m = 1. A = {0, 30 x7, 50 x8}, B = {30 x7, 50 x8, 80}:
 * centroids (26.25, 50) -> (32.5, 53.75); the mean of the released values
 * moves by 5. */
typedef struct {
    keps_dpmicro_params p;
    double a[16], b[16];
} audit_ctx;

static int dpmicro_mean(void *vctx, keps_rng *rng, int which, double *out)
{
    audit_ctx *ctx = vctx;
    keps_dpmicro_result r;
    if (keps_dpmicro_run(which ? ctx->b : ctx->a, 16, 1, &ctx->p, rng, &r, NULL))
        return 1;
    double s = 0;
    for (int i = 0; i < 16; i++)
        s += r.out[i];
    *out = s / 16;
    keps_dpmicro_result_free(&r);
    return 0;
}

static void audit_setup(audit_ctx *ctx, int paper)
{
    static const double lo = 0, hi = 80;
    memset(ctx, 0, sizeof *ctx);
    ctx->p = (keps_dpmicro_params){.mode = KEPS_DPM_MULTIVARIATE, .k = 8, .epsilon = 1, .lo = &lo, .hi = &hi,
                                   .paper_accounting = paper};
    ctx->a[0] = 0;
    for (int i = 1; i < 8; i++)
        ctx->a[i] = ctx->b[i - 1] = 30;
    for (int i = 8; i < 16; i++)
        ctx->a[i] = ctx->b[i - 1] = 50;
    ctx->b[15] = 80;
}

static keps_audit_result run_audit(int paper, uint64_t seed)
{
    audit_ctx ctx;
    audit_setup(&ctx, paper);
    keps_audit_opts o;
    keps_audit_defaults(&o);
    o.epsilon = 1;
    o.trials = 40000;
    keps_audit_result res;
    keps_rng *rng = keps_rng_new_seeded(seed);
    assert_int_equal(keps_audit_run(rng, dpmicro_mean, &ctx, &o, &res, NULL), 0);
    keps_rng_free(rng);
    print_message("%s accounting: eps_hat %g, lower bound %g\n", paper ? "paper" : "sound", res.epsilon_hat,
                  res.epsilon_lower);
    return res;
}

static void test_audit_sound_passes(void **state)
{
    (void)state;
    /* sound scale: c = 2, b = 2*80/8 = 20 per centroid. The auditor's
     * lower bound exceeds the claimed epsilon = 1 with probability <= alpha
     * = 0.05 if the mechanism is 1-DP; the seeded run is deterministic. */
    assert_false(run_audit(0, 21).violation);
}

static void test_audit_paper_accounting_fails(void **state)
{
    (void)state;
    /* control, so the audit above can fail: the paper's per-record noise
     * Lap(80/8 = 10) averaged over 16 copies has sd sqrt(2)*10/4 = 3.5
     * against a shift of 5; the log-ratio in the outer quantile bins is
     * about 2 > 1, which the auditor must flag. */
    assert_true(run_audit(1, 22).violation);
}


/* keps_dpmicro_release on a result built by hand: columns f and g carry
 * out[i*2 + 0] and out[i*2 + 1] as exact doubles (0.30000000000000004 is
 * 0.1 + 0.2, not 0.3; -0 prints "-0"), s (sensitive) and note (kept) are
 * copied, id is dropped. Every row is released, in input order. */
static void test_release_cells(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("id,f,s,g,note\np0,1,x,10,a\np1,2,y,20,b\np2,3,z,30,c\n");
    keps_error err = {0};
    keps_schema *sc = keps_schema_new(t);
    assert_int_equal(keps_schema_set_role(sc, "id", KEPS_ROLE_IDENTIFIER, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(sc, 1, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(sc, 3, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(sc, "s", KEPS_ROLE_SENSITIVE, &err), KEPS_OK);
    sc->others = KEPS_OTHERS_KEEP;
    double out[] = {0.1 + 0.2, 12.5, 2.5, -0.0, 1e-7, 99};
    keps_dpmicro_result r = {.n = 3, .m = 2, .k = 1, .out = out};
    keps_table *rel = NULL;
    assert_int_equal(keps_dpmicro_release(sc, NULL, &r, &rel, &err), KEPS_OK);
    const char *want[] = {"0.30000000000000004", "x", "12.5", "a", "2.5", "y", "-0", "b", "1e-07", "z", "99", "c"};
    assert_table_cells(rel, 3, 4, want);
    keps_table_free(rel);
    /* explicit columns, the other way round: f gets attribute 1 */
    size_t cols[] = {3, 1};
    assert_int_equal(keps_dpmicro_release(sc, cols, &r, &rel, &err), KEPS_OK);
    assert_string_equal(keps_table_str(rel, 0, 0), "12.5");
    assert_string_equal(keps_table_str(rel, 2, 0), "0.30000000000000004");
    keps_table_free(rel);
    /* a value that is not finite is never released; rows must match */
    out[5] = INFINITY;
    rel = (keps_table *)1;
    assert_int_equal(keps_dpmicro_release(sc, NULL, &r, &rel, &err), KEPS_EJOB);
    assert_null(rel);
    out[5] = 99;
    r.n = 2;
    assert_int_equal(keps_dpmicro_release(sc, NULL, &r, &rel, &err), KEPS_EINPUT);
    keps_schema_free(sc);
    keps_table_free(t);
}

/* keps_dpmicro_data_bounds: [min(0, 1.5*min), max(0, 1.5*max)] of one
 * attribute of a row-major matrix, values worked by hand. */
static void test_data_bounds(void **state)
{
    (void)state;
    keps_error err = {0};
    double lo = 42, hi = 42;
    /* {-2, 4}: [1.5*-2, 1.5*4] = [-3, 6] */
    double a[] = {-2, 4};
    assert_int_equal(keps_dpmicro_data_bounds(a, 2, 1, 0, &lo, &hi, &err), KEPS_OK);
    assert_true(lo == -3.0 && hi == 6.0);
    /* 2 x 2 row-major {1,-2; 3,4}: attribute 0 = {1, 3} -> [0, 4.5] (0, not 1.5),
     * attribute 1 = {-2, 4} -> [-3, 6] */
    double x[] = {1, -2, 3, 4};
    assert_int_equal(keps_dpmicro_data_bounds(x, 2, 2, 0, &lo, &hi, &err), KEPS_OK);
    assert_true(lo == 0.0 && hi == 4.5);
    assert_int_equal(keps_dpmicro_data_bounds(x, 2, 2, 1, &lo, &hi, &err), KEPS_OK);
    assert_true(lo == -3.0 && hi == 6.0);
    /* negative only {-1, -5}: [-7.5, 0] (0, not -1.5) */
    double neg[] = {-1, -5};
    assert_int_equal(keps_dpmicro_data_bounds(neg, 2, 1, 0, &lo, &hi, &err), KEPS_OK);
    assert_true(lo == -7.5 && hi == 0.0);
    /* all zeros: [0, 0] is empty, refused, bounds untouched */
    double z[] = {5, 0, 6, 0, 7, 0};
    lo = hi = 42;
    assert_int_equal(keps_dpmicro_data_bounds(z, 3, 2, 1, &lo, &hi, &err), KEPS_EINPUT);
    assert_true(lo == 42 && hi == 42);
    assert_non_null(strstr(err.msg, "constant 0"));
    assert_int_equal(keps_dpmicro_data_bounds(z, 3, 2, 0, &lo, &hi, &err), KEPS_OK); /* {5,6,7} */
    assert_true(lo == 0.0 && hi == 10.5);
    /* no rows, a bad attribute, a value that is not finite */
    assert_int_equal(keps_dpmicro_data_bounds(NULL, 0, 1, 0, &lo, &hi, &err), KEPS_EINPUT);
    assert_int_equal(keps_dpmicro_data_bounds(x, 2, 2, 2, &lo, &hi, &err), KEPS_EINPUT);
    double bad[] = {1, NAN};
    assert_int_equal(keps_dpmicro_data_bounds(bad, 2, 1, 0, &lo, &hi, &err), KEPS_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scales),
        cmocka_unit_test(test_shared_centroid_and_guarantee),
        cmocka_unit_test(test_k1_per_record),
        cmocka_unit_test(test_clamping_and_errors),
        cmocka_unit_test(test_univariate_rows_leak),
        cmocka_unit_test(test_audit_sound_passes),
        cmocka_unit_test(test_audit_paper_accounting_fails),
        cmocka_unit_test(test_release_cells),
        cmocka_unit_test(test_data_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
