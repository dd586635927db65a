/* (k,epsilon)-anonymity: scales, expected error, linking risk and
 * c-confident suppression against hand computations (comments give them). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/hierarchy.h"
#include "keps/kepsilon.h"
#include "keps/lattice.h"
#include "keps/noise.h"
#include "keps/ola.h"
#include "keps/partition.h"
#include "keps/release.h"
#include "keps/schema.h"
#include "partition_internal.h"
#include "testutil.h"

#define NO KEPS_NONE

static void test_classes_from_keys(void **state)
{
    (void)state;
    /* keys (A,B): (1,5) (1,5) (2,5) (2,5) (1,6), row 5 skipped:
     * three classes {0,1} {2,3} {4}. */
    uint32_t keys[] = {1, 1, 2, 2, 1, 1, /* A */ 5, 5, 5, 5, 6, 5 /* B */};
    uint8_t skip[] = {0, 0, 0, 0, 0, 1};
    uint32_t cls[6];
    size_t nc = keps_classes_from_keys(keys, 6, 2, skip, cls);
    assert_int_equal(nc, 3);
    assert_int_equal(cls[0], cls[1]);
    assert_int_equal(cls[2], cls[3]);
    assert_int_not_equal(cls[0], cls[2]);
    assert_int_not_equal(cls[0], cls[4]);
    assert_int_not_equal(cls[2], cls[4]);
    assert_int_equal(cls[5], NO);
}

/* Two classes C0 = {100,110,120}, C1 = {200,200,240}, one row suppressed
 * upstream (value 1000, ignored everywhere). */
static const uint32_t cls7[] = {7, 7, 7, 3, 3, 3, NO};
static const double x7[] = {100, 110, 120, 200, 200, 240, 1000};

static void run7(keps_kscale scale, const double *lo, const double *hi, keps_kepsilon_result *r)
{
    keps_kepsilon_params p = {.k = 3, .epsilon = 2, .scale = scale, .lo = lo, .hi = hi};
    keps_rng *rng = keps_rng_new_seeded(1);
    keps_error err = {0};
    assert_int_equal(keps_kepsilon_run(cls7, 7, x7, 1, &p, rng, r, &err), KEPS_OK);
    keps_rng_free(rng);
}

static void test_scales_and_expected_error(void **state)
{
    (void)state;
    keps_kepsilon_result r;
    run7(KEPS_KSCALE_EC, NULL, NULL, &r);
    assert_int_equal(r.nclasses, 2);
    assert_int_equal(r.released, 6);
    /* b = diam/eps: C0 20/2 = 10, C1 40/2 = 20 */
    uint32_t c0 = r.cls[0], c1 = r.cls[3];
    assert_double_near(r.scale[c0], 10.0, 1e-12);
    assert_double_near(r.scale[c1], 20.0, 1e-12);
    assert_double_near(r.mean_scale[0], 15.0, 1e-12);
    /* eq. 8: H0 = 3/(1/100+1/110+1/120) = 109.3923, H1 = 3/(2/200+1/240)
     * = 211.7647; (1/2)(20*3/109.3923 + 40*3/211.7647)/6
     * = (0.548485 + 0.566667)/12 = 0.0929293 */
    assert_double_near(r.expected_are, 0.0929293, 1e-6);
    /* the suppressed row is never noised, and never holds its original
     * 1000 either (a caller writing noisy must not release it) */
    assert_true(isnan(r.noisy[6]));
    assert_int_equal(r.cls[6], NO);
    keps_kepsilon_result_free(&r);

    /* global: diam over released rows = 240-100 = 140 -> b = 70 */
    run7(KEPS_KSCALE_GLOBAL, NULL, NULL, &r);
    assert_double_near(r.scale[0], 70.0, 1e-12);
    assert_double_near(r.scale[1], 70.0, 1e-12);
    keps_kepsilon_result_free(&r);

    /* global on a part of the data (keps-mpi's owners): the class C1 alone,
     * with the whole data set's diameter 140 given, gets b = 140/2 = 70 as
     * above, not its own 40/2 = 20; a negative or infinite width is refused */
    {
        static const uint32_t part[] = {3, 3, 3};
        double diam = 140, bad = -1;
        keps_kepsilon_params p = {.k = 3, .epsilon = 2, .scale = KEPS_KSCALE_GLOBAL, .diameter = &diam};
        keps_rng *rng = keps_rng_new_seeded(1);
        keps_error err = {0};
        assert_int_equal(keps_kepsilon_run(part, 3, x7 + 3, 1, &p, rng, &r, &err), KEPS_OK);
        assert_double_near(r.scale[0], 70.0, 1e-12);
        keps_kepsilon_result_free(&r);
        p.diameter = &bad;
        assert_int_equal(keps_kepsilon_run(part, 3, x7 + 3, 1, &p, rng, &r, &err), KEPS_EINPUT);
        keps_rng_free(rng);
    }

    /* domain [0,300]: b = 300/2 = 150; expected error 150*(sum of 1/x)/6
     * = 150*(0.0274242+0.0141667)/6 = 1.039773 */
    double lo = 0, hi = 300;
    run7(KEPS_KSCALE_DOMAIN, &lo, &hi, &r);
    assert_double_near(r.scale[0], 150.0, 1e-12);
    assert_double_near(r.expected_are, 1.039773, 1e-6);
    keps_kepsilon_result_free(&r);
}

static void test_two_columns_split_epsilon(void **state)
{
    (void)state;
    /* one class, columns a = {1,3,5}, b = {10,10,40}; eps = 1, m = 2:
     * b_a = 2*4/1 = 8, b_b = 2*30/1 = 60. */
    uint32_t cls[] = {0, 0, 0};
    double x[] = {1, 3, 5, 10, 10, 40};
    keps_kepsilon_params p = {.k = 3, .epsilon = 1, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(2);
    keps_kepsilon_result r;
    keps_error err = {0};
    assert_int_equal(keps_kepsilon_run(cls, 3, x, 2, &p, rng, &r, &err), KEPS_OK);
    assert_double_near(r.scale[0], 8.0, 1e-12);
    assert_double_near(r.scale[1], 60.0, 1e-12);
    /* expected ARE per column: a: 8*(1+1/3+1/5)/3 = 4.088889;
     * b: 60*(0.1+0.1+0.025)/3 = 4.5; combined mean 4.294444 */
    assert_double_near(r.expected_are_col[0], 4.088889, 1e-6);
    assert_double_near(r.expected_are_col[1], 4.5, 1e-9);
    assert_double_near(r.expected_are, 4.294444, 1e-6);
    /* Guaranteed epsilon with the grid rounding (keps/noise.h: g = 2^(ceil(log2 b) - 40),
     * eps_j = (floor(D_j/g) + 1)/t_j, D_j = b_j*eps/m):
     * a: b = 8, g = 2^-37, t = 2^40, D = 4: (2^39 + 1)/2^40 = 1/2 + 2^-40;
     * b: b = 60, g = 2^-34, t = 60/g = 15*2^36, D = 30: (30*2^34 + 1)/(15*2^36) = 1/2 + 2^-36/15.
     * Sum: 1 + (1 + 16/15)*2^-40 = 1 + (31/15)*2^-40. */
    assert_true(r.epsilon_used >= 1 + 31.0 / 15.0 * 0x1p-40 && r.epsilon_used <= 1 + 31.0 / 15.0 * 0x1p-40 + 4 * 0x1p-52);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

static void test_zero_diameter_means_no_noise(void **state)
{
    (void)state;
    uint32_t cls[] = {0, 0, 0, 1, 1};
    double x[] = {170, 170, 170, 150, 160};
    keps_kepsilon_params p = {.k = 2, .epsilon = 0.5, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(3);
    keps_kepsilon_result r;
    assert_int_equal(keps_kepsilon_run(cls, 5, x, 1, &p, rng, &r, NULL), KEPS_OK);
    for (int i = 0; i < 3; i++)
        assert_true(r.noisy[i] == 170.0);
    /* all three tie with their own original: linked (paper's phi) */
    assert_true(r.linked >= 3);
    /* only class 1 has noise: b = 10/0.5 = 20, g = 2^-35, t = 20/g = 5*2^37, D = 10:
     * (10*2^35 + 1)/(5*2^37) = 1/2 + 2^-37/5; the stated value is rounded up
     * (never understated), so it lies within two ulps above. */
    assert_true(r.epsilon_used >= 0.5 + 0x1p-37 / 5 && r.epsilon_used <= 0.5 + 0x1p-37 / 5 + 2 * 0x1p-53);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

static void test_linking_hand_made(void **state)
{
    (void)state;
    /* class 0 {10,20,30} noisy {12,26,21}: 12 -> 10 own (link); 26 -> 30
     * not own; 21 -> 20 not own. class 1 {50,60} noisy {55,70}: 55 ties
     * 50/60 (link, paper's phi counts ties); 70 -> 60 own (link). 3 links. */
    uint32_t cls[] = {0, 0, 0, 1, 1, NO};
    double x[] = {10, 20, 30, 50, 60, 99};
    double y[] = {12, 26, 21, 55, 70, 99};
    double b[] = {1, 1};
    assert_int_equal(keps_kepsilon_linked(cls, 6, 2, x, y, 1, b), 3);

    /* two columns, one class {(0,0),(10,0),(0,10)}; record 1's noisy value
     * (6,9): with b = (1,1) distances own 4+9 = 13, to (0,10) 6+1 = 7 ->
     * no link; with b = (1,10): own 4+0.9 = 4.9, (0,0) 6.9, (0,10) 6.1 ->
     * link. Records 0 and 2 keep their exact values (always link). */
    uint32_t c3[] = {0, 0, 0};
    double x2[] = {0, 10, 0, /* col 2 */ 0, 0, 10};
    double y2[] = {0, 6, 0, /* col 2 */ 0, 9, 10};
    double b11[] = {1, 1}, b110[] = {1, 10};
    assert_int_equal(keps_kepsilon_linked(c3, 3, 1, x2, y2, 2, b11), 2);
    assert_int_equal(keps_kepsilon_linked(c3, 3, 1, x2, y2, 2, b110), 3);
}

static void test_confident_hand_made(void **state)
{
    (void)state;
    /* c = 0.5, b = 10/ln 2 -> r_c = -b ln(0.5) = 10. k = 2.
     * class 0 {0,5,100,103,200}, noisy {1,50,109,190,215}:
     *   l = |[-9,11]| = 2 (0,5) keep; [40,60] = 0 keep (outlier);
     *   [99,119] = 2 keep; [180,200] = 1 (200) SUPPRESS; [205,225] = 0 keep.
     *   4 left >= k: class stays.
     * class 1 {10,11,50}, noisy {0,11,40.5}:
     *   [-10,10] = 1 SUPPRESS; [1,21] = 2 keep; [30.5,50.5] = 1 SUPPRESS;
     *   1 left < k: the whole class goes.
     * total 1 + 3 = 4 rows; 3 in the record step, 1 class. */
    uint32_t cls[] = {0, 0, 0, 0, 0, 1, 1, 1, NO};
    double x[] = {0, 5, 100, 103, 200, 10, 11, 50, 7};
    double y[] = {1, 50, 109, 190, 215, 0, 11, 40.5, 7};
    double b = 10.0 / log(2.0), sc[] = {b, b};
    uint8_t supp[9];
    size_t rec = 0, ncls = 0;
    size_t total = keps_kepsilon_confident(cls, 9, 2, x, y, 1, sc, 0.5, 2, supp, &rec, &ncls);
    assert_int_equal(total, 4);
    assert_int_equal(rec, 3);
    assert_int_equal(ncls, 1);
    uint8_t want[] = {0, 0, 0, 1, 0, 1, 1, 1, 0};
    assert_memory_equal(supp, want, 9);
}

/* Two noisy columns: a record is counted when it lies in the box of
 * half-widths r_j = -b_j ln(1 - c^(1/m)) around the noisy point, so that
 * the m independent coordinates cover it with probability c together.
 * c = 0.25, m = 2: c^(1/2) = 0.5, r_j = b_j ln 2 = (10, 1) for
 * b = (10, 1)/ln 2. k = 2, one class, x = (0,0), (5,0.5), (50,3):
 *   noisy (1, 0.2):  records 0 and 1 inside (|1|,|0.2|; |4|,|0.3|): l = 2 keep
 *   noisy (6, 2.2):  none inside (second coordinate off by > 1): l = 0 keep
 *   noisy (45, 3.5): record 2 only (|5| <= 10, |0.5| <= 1): l = 1 SUPPRESS
 * 2 left = k: the class stays. (With the one-column radius -b ln(1-c) =
 * (4.15, 0.415) record 2 would fall outside and nothing be suppressed.) */
static void test_confident_two_columns(void **state)
{
    (void)state;
    uint32_t cls[] = {0, 0, 0};
    double x[] = {0, 5, 50, /* col 2 */ 0, 0.5, 3};
    double y[] = {1, 6, 45, /* col 2 */ 0.2, 2.2, 3.5};
    double sc[] = {10 / log(2.0), 1 / log(2.0)};
    uint8_t supp[3];
    size_t rec = 9, ncls = 9;
    assert_int_equal(keps_kepsilon_confident(cls, 3, 1, x, y, 2, sc, 0.25, 2, supp, &rec, &ncls), 1);
    assert_int_equal(rec, 1);
    assert_int_equal(ncls, 0);
    uint8_t want[] = {0, 0, 1};
    assert_memory_equal(supp, want, 3);
}

/* Linking and c-confidence with m > 1 scan a range of one sorted
 * coordinate instead of the whole class; this oracle is docs/spec.md 4's
 * definition over every pair: record i links when no original of its class
 * is strictly closer (sum_j |y_ij - x_lj| / b_j over the columns with
 * b_j > 0) than its own; l_i counts the originals l with |y_ij - x_lj| <=
 * -b_j ln(1 - c^(1/m)) for every j; then records with 0 < l_i < k go, and
 * classes left with 0 < kept < k go whole. Random tables full of ties
 * (integers in small ranges), m = 2 and 3, scales with zeros, 200 rounds. */
static double oracle_dist(const double *x, const double *y, size_t n, size_t m, const double *b, size_t i,
                          size_t l)
{
    double d = 0;
    for (size_t j = 0; j < m; j++)
        if (b[j] > 0)
            d += fabs(y[j * n + i] - x[j * n + l]) / b[j];
    return d;
}

static void oracle_round(keps_rng *g, size_t n, size_t m, size_t nc)
{
    uint32_t cls[64];
    double x[64 * 3], y[64 * 3], sc[8 * 3];
    for (size_t i = 0; i < n; i++)
        cls[i] = keps_rng_below(g, 6) == 0 ? NO : (uint32_t)keps_rng_below(g, nc);
    for (size_t t = 0; t < n * m; t++) {
        x[t] = (double)keps_rng_below(g, 7);
        y[t] = x[t] + (double)keps_rng_below(g, 9) - 4 + (keps_rng_below(g, 2) ? 0.5 : 0);
    }
    for (size_t t = 0; t < nc * m; t++)
        sc[t] = keps_rng_below(g, 4) == 0 ? 0 : 0.5 + (double)keps_rng_below(g, 4);
    size_t want_linked = 0;
    for (size_t i = 0; i < n; i++) {
        if (cls[i] == NO)
            continue;
        const double *b = sc + cls[i] * m;
        double own = oracle_dist(x, y, n, m, b, i, i);
        int link = 1;
        for (size_t l = 0; l < n; l++)
            if (cls[l] == cls[i] && oracle_dist(x, y, n, m, b, i, l) < own)
                link = 0;
        want_linked += link;
    }
    assert_int_equal(keps_kepsilon_linked(cls, n, nc, x, y, m, sc), want_linked);

    double c = 0.3 + 0.1 * (double)keps_rng_below(g, 6), f = -log(1.0 - pow(c, 1.0 / (double)m));
    size_t k = 2 + keps_rng_below(g, 3);
    uint8_t want[64] = {0}, got[64];
    for (size_t i = 0; i < n; i++) {
        if (cls[i] == NO)
            continue;
        size_t ell = 0;
        for (size_t l = 0; l < n; l++) {
            int in = cls[l] == cls[i];
            for (size_t j = 0; j < m && in; j++)
                in = fabs(y[j * n + i] - x[j * n + l]) <= f * sc[cls[i] * m + j];
            ell += in;
        }
        want[i] = ell > 0 && ell < k;
    }
    for (size_t cc = 0; cc < nc; cc++) {
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            kept += cls[i] == cc && !want[i];
        for (size_t i = 0; i < n && kept > 0 && kept < k; i++)
            want[i] |= cls[i] == cc;
    }
    size_t want_total = 0;
    for (size_t i = 0; i < n; i++)
        want_total += want[i];
    assert_int_equal(keps_kepsilon_confident(cls, n, nc, x, y, m, sc, c, k, got, NULL, NULL), want_total);
    assert_memory_equal(got, want, n);
}

static void test_linking_and_confidence_oracle(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(2026);
    assert_non_null(g);
    for (int round = 0; round < 200; round++)
        oracle_round(g, 8 + keps_rng_below(g, 57), 2 + keps_rng_below(g, 2), 1 + keps_rng_below(g, 8));
    keps_rng_free(g);
}

/* The second c-confident step follows docs/spec.md 4's words, "suppress any EC
 * left with fewer than k records": the records left count, including those
 * with l_i = 0 (not suppressed in the first step). The paper's "i.e."
 * formula |ec| - |{i : l_i < k}| < k (Holohan et al. 2017, V-C) also subtracts them,
 * contradicting its own sentence (docs/spec.md section 10).
 * k = 3, c = 0.5, b = 10/ln 2 -> r_c = 10. One class x = {0, 1, 2, 100},
 * noisy {1, 2, 50, 300}:
 *   [-9, 11] holds 0, 1, 2: l = 3 keep;  [-8, 12]: l = 3 keep;
 *   [40, 60]: l = 0 keep (outlier);      [290, 310]: l = 0 keep.
 * First step: nobody (no 0 < l < 3). Left: 4 >= 3, the class stays.
 * (The paper's formula: 4 - 2 = 2 < 3 would suppress all four.) */
static void test_confident_second_step_counts_records_left(void **state)
{
    (void)state;
    uint32_t cls[] = {0, 0, 0, 0};
    double x[] = {0, 1, 2, 100};
    double y[] = {1, 2, 50, 300};
    double sc[] = {10.0 / log(2.0)};
    uint8_t supp[4];
    size_t rec = 9, ncls = 9;
    assert_int_equal(keps_kepsilon_confident(cls, 4, 1, x, y, 1, sc, 0.5, 3, supp, &rec, &ncls), 0);
    assert_int_equal(rec, 0);
    assert_int_equal(ncls, 0);
    uint8_t want[] = {0, 0, 0, 0};
    assert_memory_equal(supp, want, 4);
}

/* Eq. 8 with zero and negative values (docs/spec.md section 10): the
 * harmonic mean is taken over |x| (the paper's own derivation, eq. 6, sums
 * 1/|ec_i|) and a cell with x = 0 (no relative error) is left out of the
 * sums and of the count. Classes A = {0, 2, -4, 6}, B = {5, 5}, one row
 * suppressed upstream (x = 0.5, never read); epsilon 2:
 *   b_A = 10/2 = 5, b_B = 0.
 *   expected = (5 (1/2 + 1/4 + 1/6) + 0 (1/5 + 1/5)) / 5 cells
 *            = 5 * 11/12 / 5 = 11/12 = 0.916667.
 * (A signed harmonic mean would give 5 (1/2 - 1/4 + 1/6)/5 = 5/12; docs/spec.md's
 * letter, H over {0, 2, -4, 6}, an infinite error.) measured = mean over
 * the same 5 cells of |x' - x|/|x|; B's rows are released unchanged. */
static void test_zero_and_negative_values(void **state)
{
    (void)state;
    uint32_t cls[] = {0, 0, 0, 0, 1, 1, NO};
    double x[] = {0, 2, -4, 6, 5, 5, 0.5};
    keps_kepsilon_params p = {.k = 2, .epsilon = 2, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(11);
    keps_kepsilon_result r;
    assert_int_equal(keps_kepsilon_run(cls, 7, x, 1, &p, rng, &r, NULL), KEPS_OK);
    assert_double_near(r.scale[r.cls[0]], 5.0, 1e-15);
    assert_double_near(r.scale[r.cls[4]], 0.0, 0);
    assert_double_near(r.mean_scale[0], 2.5, 1e-15);
    assert_double_near(r.expected_are, 11.0 / 12.0, 1e-12);
    assert_double_near(r.expected_are_col[0], 11.0 / 12.0, 1e-12);
    assert_true(r.noisy[4] == 5.0 && r.noisy[5] == 5.0);
    double meas = (fabs(r.noisy[1] - 2) / 2 + fabs(r.noisy[2] + 4) / 4 + fabs(r.noisy[3] - 6) / 6) / 5;
    assert_double_near(r.measured_are, meas, 1e-12);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

static void test_noise_magnitude(void **state)
{
    (void)state;
    /* one class {100, 200} repeated: b = 100/eps = 100 (eps = 1). E|Z| = b,
     * sd|Z| = b; over 20000 cells the mean |Z| lies within 4 sd/sqrt(20000)
     * = 0.0283 b of b (probability of failing < 1e-4; seeded: deterministic). */
    size_t n = 20000;
    uint32_t *cls = calloc(n, sizeof *cls);
    double *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = i % 2 ? 200 : 100;
    keps_kepsilon_params p = {.k = 2, .epsilon = 1, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(4);
    keps_kepsilon_result r;
    assert_int_equal(keps_kepsilon_run(cls, n, x, 1, &p, rng, &r, NULL), KEPS_OK);
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += fabs(r.noisy[i] - x[i]);
    assert_double_near(s / (double)n, 100.0, 2.83);
    /* expected ARE = 100*(1/100+1/200)/2 = 0.75; measured within 4%. */
    assert_double_near(r.expected_are, 0.75, 1e-12);
    assert_double_near(r.measured_are, 0.75, 0.03);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
    free(cls);
    free(x);
}

static void test_bad_input(void **state)
{
    (void)state;
    uint32_t cls[] = {0, 0};
    double x[] = {1, 500};
    keps_kepsilon_result r;
    keps_error err = {0};
    keps_kepsilon_params p = {.k = 2, .epsilon = 0, .scale = KEPS_KSCALE_EC};
    assert_int_equal(keps_kepsilon_run(cls, 2, x, 1, &p, NULL, &r, &err), KEPS_EINPUT);
    double lo = 0, hi = 300;
    keps_kepsilon_params q = {.k = 2, .epsilon = 1, .scale = KEPS_KSCALE_DOMAIN, .lo = &lo, .hi = &hi};
    assert_int_equal(keps_kepsilon_run(cls, 2, x, 1, &q, NULL, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "outside the bounds"));
}


/* Rows of a partition as keps_kepsilon_run takes them: KEPS_NONE in its
 * suppressed classes. */
static void partition_rows(const keps_partition *p, uint32_t *cls)
{
    for (size_t i = 0; i < p->nrows; i++)
        cls[i] = p->suppressed[p->class_of[i]] ? NO : p->class_of[i];
}

/* A lattice node's classes (keps_partition_from_node) with classes smaller
 * than k suppressed, as kepsilon --algorithm ola takes them. */
static void node_classes(const keps_schema *s, int level, size_t k, uint32_t *cls, size_t *nclasses, size_t *sup)
{
    keps_lattice *L = NULL;
    keps_partition p;
    keps_error err = {0};
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_int_equal(keps_partition_from_node(L, &level, NULL, &p, &err), KEPS_OK);
    assert_int_equal(keps_partition_enforce(&p, NULL, k, NULL, &err), KEPS_OK);
    partition_rows(&p, cls);
    *nclasses = p.nclasses;
    *sup = p.suppressed_rows;
    keps_partition_free(&p);
    keps_lattice_free(L);
}

static void test_node_classes(void **state)
{
    (void)state;
    /* age hierarchy 21,22 -> 20-24, 37 -> 35-39; at level 1: rows
     * {21,22,22} one class (3 rows), {37} one class (1 row). k = 2: the
     *37-row is suppressed. At level 0: classes {21} {22,22} {37}; k = 2
     * suppresses 21 and 37 (2 rows). */
    keps_table *t = table_from_csv("age,h\n21,1\n22,2\n37,3\n22,4\n");
    const char *hcsv = "21;20-24;*\n22;20-24;*\n37;35-39;*\n";
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    uint32_t cls[4];
    size_t sup = 99, nc = 0;
    node_classes(s, 1, 2, cls, &nc, &sup);
    assert_int_equal(nc, 2);
    assert_int_equal(sup, 1);
    assert_int_equal(cls[0], cls[1]);
    assert_int_equal(cls[0], cls[3]);
    assert_int_equal(cls[2], NO);
    node_classes(s, 0, 2, cls, &nc, &sup);
    assert_int_equal(nc, 3);
    assert_int_equal(sup, 2);
    assert_int_equal(cls[0], NO);
    assert_int_equal(cls[2], NO);
    assert_int_equal(cls[1], cls[3]);
    keps_schema_free(s);
    keps_table_free(t);
}

/* A node the lattice cannot map is an error, not a read past the level
 * maps: the hierarchy above has height 2 (levels 0..2), so 3 and -1 are
 * outside. */
static void test_node_classes_bad_node(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,zip\n21,1\n22,2\n");
    const char *hcsv = "21;20-24;*\n22;20-24;*\n";
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    keps_partition p;
    int bad[] = {3, -1};
    for (int b = 0; b < 2; b++) {
        err.code = KEPS_OK;
        assert_int_equal(keps_partition_from_node(L, &bad[b], NULL, &p, &err), KEPS_EINPUT);
        assert_non_null(strstr(err.msg, "out of range"));
    }
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* An unknown scale is refused: it used to run as EC and report success. */
/* One class of n records x under p: keps_kepsilon_run must refuse it
 * (code: KEPS_EINPUT for bad parameters, KEPS_EJOB when valid ones cannot
 * be served) with a message containing msg. */
static void expect_run_refused_with(keps_status code, size_t n, const double *x, keps_kepsilon_params p,
                                    const char *msg)
{
    const uint32_t cls[3] = {0, 0, 0};
    keps_kepsilon_result r;
    keps_error err = {0};
    keps_rng *rng = keps_rng_new_seeded(1);
    assert_true(n <= 3);
    assert_int_equal(keps_kepsilon_run(cls, n, x, 1, &p, rng, &r, &err), code);
    assert_non_null(strstr(err.msg, msg));
    keps_rng_free(rng);
}

static void expect_run_refused(size_t n, const double *x, keps_kepsilon_params p, const char *msg)
{
    expect_run_refused_with(KEPS_EINPUT, n, x, p, msg);
}

static void test_unknown_scale(void **state)
{
    (void)state;
    const double x[] = {1, 2};
    keps_kepsilon_params p = {.k = 2, .epsilon = 1, .scale = (keps_kscale)9};
    expect_run_refused(2, x, p, "unknown noise scale 9");
}

/* Safe by construction: the row the k-anonymization suppressed (x = 1000
 * in cls7/x7) is NAN in noisy, never 1000, and its NAN does not reach the
 * metrics, which are those of the six classed rows. A NAN x for such a row
 * is allowed (it is never read). */
static void test_suppressed_rows_are_nan(void **state)
{
    (void)state;
    keps_kepsilon_result r;
    run7(KEPS_KSCALE_EC, NULL, NULL, &r);
    assert_true(isnan(r.noisy[6]));
    for (size_t i = 0; i < 6; i++)
        assert_true(isfinite(r.noisy[i]));
    assert_true(isfinite(r.measured_are) && isfinite(r.linking_risk));
    keps_kepsilon_result_free(&r);
    double xn[7];
    memcpy(xn, x7, sizeof xn);
    xn[6] = NAN;
    keps_kepsilon_params p = {.k = 3, .epsilon = 2, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(1);
    assert_int_equal(keps_kepsilon_run(cls7, 7, xn, 1, &p, rng, &r, NULL), KEPS_OK);
    assert_true(isnan(r.noisy[6]));
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

/* The stated epsilon is never below the request. Diameter 0.75 at
 * epsilon 0.7: b = 0.75/0.7 = 1.0714..., and b*0.7 rounds to
 * 0.74999999999999989, one ulp below 0.75. A guarantee recomputed from that
 * lost the grid step: floor(D/g) + 1 steps with D/g = 0.75/2^-40 = 3*2^38
 * an integer, so the ulp drops a whole step and the stated epsilon came out
 * 0.69999999999949 < 0.7. */
static void test_epsilon_never_understated(void **state)
{
    (void)state;
    const uint32_t cls[] = {0, 0, 0};
    const double x[] = {1, 1.75, 1.5};
    keps_kepsilon_params p = {.k = 3, .epsilon = 0.7, .scale = KEPS_KSCALE_EC};
    keps_kepsilon_result r;
    keps_rng *rng = keps_rng_new_seeded(1);
    assert_int_equal(keps_kepsilon_run(cls, 3, x, 1, &p, rng, &r, NULL), KEPS_OK);
    assert_true(r.epsilon_used >= 0.7);
    assert_true(r.epsilon_used < 0.7 + 1e-11);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

/* ... nor below the request (kepsilon.h, docs/cli.md), even where the grid
 * bound is. One class {0, 205.9} (Adult-like heights), epsilon 3, m = 1:
 * b = 205.9/3 = 68.633.. = f 2^7 with f = 0.53620.., so g = 2^(7-40) = 2^-33
 * and t = ceil(f 2^41)/2 (the scale rounded UP to 41 bits); the grid steps
 * between neighbours are floor(205.9 2^33) + 1, and steps/t, in exact
 * rational arithmetic (Python fractions), is 2.999999999999152 < 3: the
 * rounded-up scale protects a little more than asked. An independent oracle
 * found the report stating that value as guarantee.epsilon, below
 * epsilon_requested 3; the guarantee states the request instead (a weaker
 * claim, still true). */
static void test_epsilon_never_below_request(void **state)
{
    (void)state;
    const uint32_t cls[] = {0, 0};
    const double x[] = {0, 205.9};
    keps_noise_info info;
    assert_int_equal(keps_laplace_info(205.9 / 3, 205.9, &info), 0);
    assert_double_near(info.epsilon, 2.999999999999152, 1e-15); /* the case occurs */
    keps_kepsilon_params p = {.k = 2, .epsilon = 3, .scale = KEPS_KSCALE_EC};
    keps_kepsilon_result r;
    keps_rng *rng = keps_rng_new_seeded(1);
    assert_int_equal(keps_kepsilon_run(cls, 2, x, 1, &p, rng, &r, NULL), KEPS_OK);
    assert_true(r.epsilon_used == 3.0);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
}

/* A class spanning 2e308 needs a scale of infinity: an error, never a
 * release of NaN. */
static void test_scale_overflow_is_an_error(void **state)
{
    (void)state;
    const double x[] = {1e308, -1e308, 0};
    keps_kepsilon_params p = {.k = 3, .epsilon = 1, .scale = KEPS_KSCALE_EC};
    expect_run_refused_with(KEPS_EJOB, 3, x, p, "Laplace scale"); /* valid data: the job cannot be done */
}

/* A finite scale can still draw noise past DBL_MAX: class {1.7e308, 1, 2}
 * spans 1.7e308, so b = 1.7e308 at epsilon 1. The record at 1.7e308 leaves
 * the doubles when its noise exceeds DBL_MAX - 1.7e308 = 9.7e306, which
 * Laplace(b) does with probability exp(-9.7e306/1.7e308)/2 = 0.47; the
 * others when |noise| > 1.797e308, probability exp(-1.057) = 0.35 each.
 * So a run stays finite with probability about 0.53 * 0.65^2 = 0.22, and
 * twenty runs all do with probability 0.22^20 < 1e-13. Every run must end
 * in finite values or an error, never an inf in the noisy values (the
 * defect released -inf), and some run must hit the error. */
static void test_noise_overflow_is_an_error(void **state)
{
    (void)state;
    const uint32_t cls[] = {0, 0, 0};
    const double x[] = {1.7e308, 1, 2};
    keps_kepsilon_params p = {.k = 3, .epsilon = 1, .scale = KEPS_KSCALE_EC};
    int errors = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        keps_kepsilon_result r;
        keps_error err = {0};
        keps_rng *rng = keps_rng_new_seeded(seed);
        keps_status st = keps_kepsilon_run(cls, 3, x, 1, &p, rng, &r, &err);
        if (st) {
            assert_int_equal(st, KEPS_EJOB);
            assert_non_null(strstr(err.msg, "not finite"));
            errors++;
        } else {
            for (size_t i = 0; i < 3; i++)
                assert_true(isfinite(r.noisy[i]));
            keps_kepsilon_result_free(&r);
        }
        keps_rng_free(rng);
    }
    assert_true(errors > 0);
}

/* With c-confident suppression the metrics describe the rows it keeps: a
 * record it suppresses is not counted as linked, however its noisy value
 * fell. One class {0, 100, 200}, epsilon 1: b = 200, c = 0.5 gives
 * r_c = 200 ln 2 = 138.6, a window of 277 that can never hold all three
 * originals around a value outside [61.4, 138.6]; so records with
 * 0 < l_i < 3 go, and then the class, left below k = 3. Over 20 seeds:
 * linked after = linked before minus the linked rows suppressed (counted
 * here from the before-run), and every fully suppressed run links none. */
static void test_confident_metrics_describe_the_release(void **state)
{
    (void)state;
    const uint32_t cls[] = {0, 0, 0};
    const double x[] = {0, 100, 200};
    keps_kepsilon_params p = {.k = 3, .epsilon = 1, .scale = KEPS_KSCALE_EC, .confidence = 0.5};
    keps_kepsilon_params off = p;
    off.confidence = 0;
    size_t suppressed_linked_runs = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        /* c-confidence draws nothing: the same seed without it gives the
         * same noise, for every row (the run with it withholds its rows) */
        keps_kepsilon_result r, full;
        keps_rng *rng = keps_rng_new_seeded(seed), *twin = keps_rng_new_seeded(seed);
        assert_int_equal(keps_kepsilon_run(cls, 3, x, 1, &p, rng, &r, NULL), KEPS_OK);
        assert_int_equal(keps_kepsilon_run(cls, 3, x, 1, &off, twin, &full, NULL), KEPS_OK);
        size_t before = keps_kepsilon_linked(full.cls, 3, full.nclasses, x, full.noisy, 1, full.scale);
        assert_int_equal(r.linked_before_confident, before);
        assert_double_near(r.measured_are_before_confident, full.measured_are, 0);
        /* the per-column values before it are the run without it */
        assert_double_near(r.measured_are_col_before_confident[0], full.measured_are_col[0], 0);
        assert_double_near(r.expected_are_col_before_confident[0], full.expected_are_col[0], 0);
        size_t kept = 3 - r.confident_suppressed_rows, after = 0;
        for (size_t i = 0; i < 3; i++) {
            /* withheld rows are NAN, the others the twin's noisy values */
            if (r.confident_suppressed[i])
                assert_true(isnan(r.noisy[i]));
            else
                assert_true(r.noisy[i] == full.noisy[i]);
            /* linked by the same rule, one record at a time: own original nearest */
            double own = fabs(full.noisy[i] - x[i]);
            int best = 1;
            for (size_t j = 0; j < 3; j++)
                best &= fabs(full.noisy[i] - x[j]) >= own;
            after += (size_t)(best && !r.confident_suppressed[i]);
        }
        assert_int_equal(r.linked, after);
        assert_true(r.linked <= kept);
        assert_double_near(r.linking_risk, (double)after / 3.0, 1e-15);
        suppressed_linked_runs += r.linked < before;
        keps_kepsilon_result_free(&r);
        keps_kepsilon_result_free(&full);
        keps_rng_free(rng);
        keps_rng_free(twin);
    }
    assert_true(suppressed_linked_runs > 0); /* the case this test is about occurred */
}


/* keps_kepsilon_release on a result built by hand. Input columns id
 * (identifier, dropped), age and sex (QIs), h and w (noisy), note (kept).
 * Row 3 was suppressed by the k-anonymization (cls KEPS_NONE, noisy NAN),
 * row 2 by c-confidence (its noisy values are set to 999.5 here, not NAN,
 * so that a release ignoring the flag would show them). Both rows are '*'
 * in age, sex, h AND w; note is copied. The QIs of the other rows come from
 * the generalized table (whose noisy and note cells, "gx", must not be
 * used), the noisy cells are the exact doubles: 170.70000000000002 is the
 * double after 170.7, so %.15g and %.16g ("170.7") do not read back and
 * %.17g is needed; 0.1 stays "0.1"; 1e21 is "1e+21". */
static const char *const kin = "id,age,sex,h,w,note\np0,21,M,170.7,60,a\np1,22,F,180,70,b\np2,23,M,160,80,c\n"
                               "p3,37,F,150,90,d\np4,38,M,155,95,e\n";

static keps_schema *krel_schema(keps_table *t)
{
    keps_error err = {0};
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_set_role(s, "id", KEPS_ROLE_IDENTIFIER, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 1, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 2, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "h", KEPS_ROLE_NOISY, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "w", KEPS_ROLE_NOISY, &err), KEPS_OK);
    s->others = KEPS_OTHERS_KEEP;
    return s;
}

static void test_release_withheld_rows_are_stars(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(kin);
    keps_schema *s = krel_schema(t);
    keps_table *gen = table_from_csv("age,sex,h,w,note\n20-24,*,gx,gx,gx\n20-24,*,gx,gx,gx\n20-24,*,gx,gx,gx\n"
                                     "35-39,*,gx,gx,gx\n35-39,*,gx,gx,gx\n");
    uint32_t cls[] = {0, 0, 0, NO, 1};
    uint8_t conf[] = {0, 0, 1, 0, 0};
    double noisy[] = {170.70000000000002, 0.1, 999.5, NAN, 1e21, /* w */ 60.5, -3.25, 999.5, NAN, 123456789.123};
    keps_kepsilon_result r = {.n = 5, .m = 2, .nclasses = 2, .cls = cls, .noisy = noisy, .confident_suppressed = conf};
    keps_table *rel = NULL;
    keps_error err = {0};
    assert_int_equal(keps_kepsilon_release(s, &r, gen, 0, &rel, &err), KEPS_OK);
    const char *want[] = {"20-24", "*", "170.70000000000002", "60.5",          "a", /* row 0 */
                          "20-24", "*", "0.1",                "-3.25",         "b", /* row 1 */
                          "*",     "*", "*",                  "*",             "c", /* c-confidence */
                          "*",     "*", "*",                  "*",             "d", /* k-anonymization */
                          "35-39", "*", "1e+21",              "123456789.123", "e"};
    assert_table_cells(rel, 5, 5, want);
    assert_string_equal(rel->cols[0].name, "age");
    keps_table_free(rel);
    /* remove_suppressed: rows 2 and 3 left out, order kept */
    assert_int_equal(keps_kepsilon_release(s, &r, gen, 1, &rel, &err), KEPS_OK);
    const char *kept[] = {"20-24", "*", "170.70000000000002", "60.5",          "a",
                          "20-24", "*", "0.1",                "-3.25",         "b",
                          "35-39", "*", "1e+21",              "123456789.123", "e"};
    assert_table_cells(rel, 3, 5, kept);
    keps_table_free(rel);
    /* no generalized table (classes given by the input): the input's QIs,
     * still '*' for the withheld rows */
    assert_int_equal(keps_kepsilon_release(s, &r, NULL, 0, &rel, &err), KEPS_OK);
    const char *given[] = {"21", "M", "170.70000000000002", "60.5",          "a",
                           "22", "F", "0.1",                "-3.25",         "b",
                           "*",  "*", "*",                  "*",             "c",
                           "*",  "*", "*",                  "*",             "d",
                           "38", "M", "1e+21",              "123456789.123", "e"};
    assert_table_cells(rel, 5, 5, given);
    keps_table_free(rel);
    keps_table_free(gen);
    keps_schema_free(s);
    keps_table_free(t);
}

/* What the release refuses: a result of another shape, a generalized table
 * that is not a release of the schema with every row, a released noisy
 * value that is not finite (KEPS_EJOB; a withheld row's NAN is fine). */
static void test_release_errors(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(kin);
    keps_schema *s = krel_schema(t);
    uint32_t cls[] = {0, 0, 0, NO, 1};
    double noisy[] = {1, 2, 3, NAN, 5, 6, 7, 8, NAN, INFINITY};
    keps_kepsilon_result r = {.n = 5, .m = 2, .nclasses = 2, .cls = cls, .noisy = noisy};
    keps_table *rel = (keps_table *)1;
    keps_error err = {0};
    assert_int_equal(keps_kepsilon_release(s, &r, NULL, 0, &rel, &err), KEPS_EJOB);
    assert_null(rel);
    assert_non_null(strstr(err.msg, "row 5 in column 'w'"));
    noisy[9] = 10;
    keps_table *fewer = table_from_csv("age,sex,h,w,note\n1,2,3,4,5\n");
    assert_int_equal(keps_kepsilon_release(s, &r, fewer, 0, &rel, &err), KEPS_EINPUT);
    keps_table *renamed = table_from_csv("age,sex,h,x,note\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n1,2,3,4,5\n");
    assert_int_equal(keps_kepsilon_release(s, &r, renamed, 0, &rel, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "'x'"));
    r.m = 1;
    assert_int_equal(keps_kepsilon_release(s, &r, NULL, 0, &rel, &err), KEPS_EINPUT);
    r.m = 2;
    assert_int_equal(keps_kepsilon_release(s, &r, NULL, 0, &rel, &err), KEPS_OK);
    keps_table_free(rel);
    keps_table_free(fewer);
    keps_table_free(renamed);
    keps_schema_free(s);
    keps_table_free(t);
}

/* The library flow end to end: OLA's node (level 1 of the age hierarchy,
 * k = 2) gives classes {21,22,22} and the suppressed {37}; noise from
 * keps_kepsilon_run; QI labels from keps_lattice_apply. Row 2 (37) is '*' in
 * age and h (its noise was never drawn); the others carry "20-24" and their
 * noisy value exactly. */
static void test_release_after_ola(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age,h,z\n21,1,a\n22,2,b\n37,3,c\n22,4,d\n");
    const char *hcsv = "21;20-24;*\n22;20-24;*\n37;35-39;*\n";
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(hcsv, strlen(hcsv), "h.csv", ';', &h, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "h", KEPS_ROLE_NOISY, &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "z", KEPS_ROLE_INSENSITIVE, &err), KEPS_OK);
    int level = 1;
    uint32_t cls[4];
    size_t sup, nc;
    node_classes(s, level, 2, cls, &nc, &sup);
    assert_int_equal(nc, 2);
    assert_int_equal(keps_table_numeric(t, 1, &err), KEPS_OK);
    double x[4];
    for (size_t i = 0; i < 4; i++)
        x[i] = keps_table_num(t, 1, i);
    keps_kepsilon_params p = {.k = 2, .epsilon = 1, .scale = KEPS_KSCALE_EC};
    keps_rng *rng = keps_rng_new_seeded(3);
    keps_kepsilon_result r;
    assert_int_equal(keps_kepsilon_run(cls, 4, x, 1, &p, rng, &r, &err), KEPS_OK);
    keps_lattice *L = NULL;
    keps_table *gen = NULL, *rel = NULL;
    keps_counts counts;
    keps_partition part;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_int_equal(keps_partition_from_node(L, &level, NULL, &part, &err), KEPS_OK);
    assert_int_equal(keps_partition_enforce(&part, NULL, 2, NULL, &err), KEPS_OK);
    assert_int_equal(keps_lattice_apply(L, &level, &part, 0, &gen, &counts, &err), KEPS_OK);
    keps_partition_free(&part);
    assert_int_equal(keps_kepsilon_release(s, &r, gen, 0, &rel, &err), KEPS_OK);
    char v[4][32];
    for (size_t i = 0; i < 4; i++)
        keps_format_number(v[i], sizeof v[i], r.noisy[i]);
    const char *want[] = {"20-24", v[0], "a", "20-24", v[1], "b", "*", "*", "c", "20-24", v[3], "d"};
    assert_table_cells(rel, 4, 3, want);
    keps_table_free(rel);
    keps_table_free(gen);
    keps_lattice_free(L);
    keps_kepsilon_result_free(&r);
    keps_rng_free(rng);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_from_keys),     cmocka_unit_test(test_scales_and_expected_error),
        cmocka_unit_test(test_two_columns_split_epsilon), cmocka_unit_test(test_zero_diameter_means_no_noise),
        cmocka_unit_test(test_linking_hand_made),     cmocka_unit_test(test_confident_hand_made),
        cmocka_unit_test(test_confident_two_columns),
        cmocka_unit_test(test_linking_and_confidence_oracle), cmocka_unit_test(test_confident_second_step_counts_records_left),
        cmocka_unit_test(test_zero_and_negative_values),
        cmocka_unit_test(test_noise_magnitude),       cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_node_classes),          cmocka_unit_test(test_node_classes_bad_node),
        cmocka_unit_test(test_unknown_scale),         cmocka_unit_test(test_suppressed_rows_are_nan),
        cmocka_unit_test(test_epsilon_never_understated), cmocka_unit_test(test_epsilon_never_below_request),
        cmocka_unit_test(test_scale_overflow_is_an_error),
        cmocka_unit_test(test_noise_overflow_is_an_error),
        cmocka_unit_test(test_confident_metrics_describe_the_release),
        cmocka_unit_test(test_release_withheld_rows_are_stars), cmocka_unit_test(test_release_errors),
        cmocka_unit_test(test_release_after_ola),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
