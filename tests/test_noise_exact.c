/* The discrete Laplace sampler's exact paths, which a normal run reaches
 * too rarely to test statistically: ties between lazy uniforms (2^-16 per
 * comparison) and the carry of floor(s*U0) (about s/2^64 per sample).
 *
 * This file compiles src/noise.c itself with LAZY_FIRST = 2, so that one
 * comparison in four ties on the first bits and goes through the lazy
 * path; the distribution must still be the exact two-sided geometric.
 * The static helpers are then called directly on constructed uniforms and
 * checked against 128-bit arithmetic done here. */
#define LAZY_FIRST 2
#include "../src/noise.c"

#include "testutil.h"

/* Two-sided geometric with t = s/2^shift: Pr[Y = y] = (1-q)/(1+q) q^|y|,
 * q = exp(-1/t). Chi-square over y in [-B, B] plus the two tails, 2B + 2
 * degrees of freedom. */
static double chi2_discrete_laplace(uint64_t seed, uint64_t s, unsigned shift, int n, int B)
{
    keps_rng *r = keps_rng_new_seeded(seed);
    long *cnt = calloc((size_t)(2 * B + 3), sizeof *cnt); /* [0] < -B, [2B+2] > B */
    for (int i = 0; i < n; i++) {
        int64_t y = keps_discrete_laplace(r, s, shift);
        size_t bin = y < -B ? 0 : y > B ? (size_t)(2 * B + 2) : (size_t)(y + B + 1);
        cnt[bin]++;
    }
    double t = (double)s / ldexp(1.0, (int)shift), q = exp(-1 / t), c = (1 - q) / (1 + q);
    double tail = c * pow(q, B + 1) / (1 - q); /* Pr[Y > B] = Pr[Y < -B] */
    double chi2 = 0;
    for (int b = 0; b < 2 * B + 3; b++) {
        double p = b == 0 || b == 2 * B + 2 ? tail : c * pow(q, fabs((double)(b - B - 1)));
        double e = p * n;
        chi2 += (cnt[b] - e) * (cnt[b] - e) / e;
    }
    free(cnt);
    keps_rng_free(r);
    return chi2;
}

/* With ties forced through the lazy path the distribution is unchanged.
 * Critical values: chi-square with 22 df exceeds 55.0 with probability
 * 1e-4 (and with 14 df exceeds 41.0 likewise); the seeds are fixed. A
 * sampler that resolved ties by a fair coin instead of the digits would
 * shift mass measurably: Pr[0] alone moves by ~1% of itself here. */
static void tie_path_distribution(void **state)
{
    (void)state;
    double c1 = chi2_discrete_laplace(7, 3, 0, 400000, 10);  /* t = 3 */
    double c2 = chi2_discrete_laplace(8, 5, 1, 400000, 6);   /* t = 2.5 */
    double c3 = chi2_discrete_laplace(9, 1, 0, 400000, 6);   /* t = 1 */
    print_message("chi2 %.1f %.1f %.1f\n", c1, c2, c3);
    assert_true(c1 < 55.0);
    assert_true(c2 < 41.0);
    assert_true(c3 < 41.0);
}

/* The contract allows s up to 2^62: with s = 2^61 + 1 and shift 60 (t just
 * above 2) the product s*j passes 2^63 at j = 4, a common enough draw.
 * The distribution must still be the exact two-sided geometric: a 64-bit
 * product saturated there and capped |Y| at 7 (Pr[|Y| > 10] observed 0,
 * expected 0.005). Bins up to |y| = 10 so that the cap shows: 22 df,
 * critical value 55.0 at 1e-4. */
static void large_s_distribution(void **state)
{
    (void)state;
    double c = chi2_discrete_laplace(10, (UINT64_C(1) << 61) + 1, 60, 400000, 10);
    print_message("chi2 large s %.1f\n", c);
    assert_true(c < 55.0);
}

/* floor(s*(w + e/2^64)/2^64) with e the first digit word past w, computed
 * as floor((s*w*2^64 + s*e) / 2^128) in 192-bit arithmetic. */
static uint64_t floor_ref(uint64_t s, uint64_t w, uint64_t e)
{
    unsigned __int128 a = (unsigned __int128)s * w; /* times 2^64 */
    unsigned __int128 b = (unsigned __int128)s * e; /* times 1 */
    /* (a*2^64 + b) >> 128 = (a + (b >> 64)) >> 64 (carry-free split) */
    unsigned __int128 mid = (a & UINT64_MAX) + (b >> 64);
    return (uint64_t)(a >> 64) + (uint64_t)(mid >> 64);
}

/* A uniform with all 64 first bits w drawn and next extra digits held. */
static void drawn(lazy_u *u, uint64_t w, size_t next)
{
    u->ext = u->inl;
    u->cap = LAZY_INLINE;
    u->w = w;
    u->n = 64;
    u->next = next;
}

static void floor_mul_carry(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(3);
    bitsrc b = {r, 0, 0};
    /* s*w mod 2^64 within s of 2^64: w = ceil(k*2^64/s) - 1 for a few k. */
    uint64_t ss[] = {3, 1000003, (UINT64_C(1) << 41) + 12345, (UINT64_C(1) << 61) + 7};
    for (size_t i = 0; i < sizeof ss / sizeof *ss; i++) {
        uint64_t s = ss[i];
        for (uint64_t k = 1; k <= 4; k *= 2) { /* s odd: never divides k*2^64 */
            unsigned __int128 num = (unsigned __int128)k << 64;
            uint64_t w = (uint64_t)((num + s - 1) / s) - 1; /* s*w just below k*2^64 */
            unsigned __int128 p = (unsigned __int128)s * w;
            assert_true((uint64_t)p > UINT64_MAX - s + 1); /* the carry case */
            /* the boundary digit: F crosses at c/s, c = 2^64 - lo */
            uint64_t c = (uint64_t)0 - (uint64_t)p;
            uint64_t digit = (uint64_t)(((unsigned __int128)c << 64) / s);
            uint64_t probes[] = {0, digit ? digit - 1 : 0, digit + 1, UINT64_MAX};
            for (size_t j = 0; j < 4; j++) {
                if (probes[j] == digit)
                    continue; /* decided by later digits: not a fixed answer */
                lazy_u u;
                drawn(&u, w, 1);
                u.inl[0] = probes[j];
                assert_true(lazy_floor_mul(&b, &u, s) == floor_ref(s, w, probes[j]));
            }
            /* no carry possible: w one less moves lo away by s */
            lazy_u v;
            drawn(&v, w - 1, 0);
            assert_true(lazy_floor_mul(&b, &v, s) == (uint64_t)(((unsigned __int128)s * (w - 1)) >> 64));
        }
    }
    /* Fresh tail digits: the carry happens with probability 1 - c/s. For
     * s = 3, w = ceil(2^64/3) - 1 = 6148914691236517205, s*w = 2^64 - 1, so
     * c = 1 and the carry probability is 2/3. 5 standard errors of 30,000
     * draws: 0.0136. */
    uint64_t w = UINT64_C(6148914691236517205);
    long carry = 0;
    for (int i = 0; i < 30000; i++) {
        lazy_u u;
        drawn(&u, w, 0);
        carry += lazy_floor_mul(&b, &u, 3) == 1;
    }
    assert_true(fabs(carry / 30000.0 - 2.0 / 3) < 0.0136);
    keps_rng_free(r);
}

/* Comparisons that the first 64 bits cannot decide read the next words,
 * drawn once and kept: the same uniform compared twice gives one answer. */
static void lazy_compare_ext(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(4);
    bitsrc b = {r, 0, 0};
    lazy_u x, y;
    x.ext = x.inl, x.cap = LAZY_INLINE, x.w = 42, x.n = 64, x.next = 2;
    x.inl[0] = 7, x.inl[1] = 9;
    y.ext = y.inl, y.cap = LAZY_INLINE, y.w = 42, y.n = 64, y.next = 2;
    y.inl[0] = 7, y.inl[1] = 10;
    assert_true(lazy_less(&b, &x, &y));
    assert_false(lazy_less(&b, &y, &x));
    /* y with one word only: its second word is drawn on demand and kept */
    y.next = 1;
    int first = lazy_less(&b, &x, &y);
    assert_int_equal((int)y.next, 2);
    assert_true(y.inl[1] != 9); /* the drawn word (fixed seed) decides: x's is 9 */
    assert_int_equal(first, (int)(9 < y.inl[1]));
    assert_int_equal(lazy_less(&b, &x, &y), first);
    /* equal prefixes of different lengths: 16 known bits against 64 */
    lazy_u z;
    z.ext = z.inl, z.cap = LAZY_INLINE, z.w = UINT64_C(0xABCD) << 48, z.n = 16, z.next = 0;
    lazy_u u;
    drawn(&u, (UINT64_C(0xABCD) << 48) | 5, 0);
    int zl = lazy_less(&b, &z, &u);
    assert_int_equal(z.n, 64); /* filled to compare */
    assert_true(z.w >> 48 == 0xABCD && z.w != u.w); /* kept its 16 bits; the fill decides (fixed seed) */
    assert_int_equal(zl, (int)(z.w < u.w));
    keps_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tie_path_distribution),
        cmocka_unit_test(large_s_distribution),
        cmocka_unit_test(floor_mul_carry),
        cmocka_unit_test(lazy_compare_ext),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
