/* CSPRNG module: reproducibility, ranges, exactness of Bernoulli, unbiased
 * shuffles. Statistical bounds are stated where used. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/rng.h"
#include "testutil.h"

static void seeded_streams_repeat_and_differ(void **state)
{
    (void)state;
    keps_rng *a = keps_rng_new_seeded(42), *b = keps_rng_new_seeded(42), *c = keps_rng_new_seeded(43);
    int same = 1, diff = 0;
    for (int i = 0; i < 2000; i++) { /* crosses several 4 KiB refills */
        uint64_t x = keps_rng_u64(a), y = keps_rng_u64(b), z = keps_rng_u64(c);
        same &= x == y;
        diff |= x != z;
    }
    assert_true(same);
    assert_true(diff);
    assert_true(keps_rng_is_seeded(a));
    keps_rng *s1 = keps_rng_split(a, 1), *s2 = keps_rng_split(a, 2);
    assert_int_not_equal(keps_rng_u64(s1), keps_rng_u64(s2));
    keps_rng *os = keps_rng_new();
    assert_false(keps_rng_is_seeded(os));
    assert_int_not_equal(keps_rng_u64(os), keps_rng_u64(os)); /* 2^-64 chance of a false failure */
    keps_rng_free(a);
    keps_rng_free(b);
    keps_rng_free(c);
    keps_rng_free(s1);
    keps_rng_free(s2);
    keps_rng_free(os);
}

/* Per-process streams (keps-mpi): a seeded root's key gives exactly
 * keps_rng_split's streams; 64 streams of one key, seeded or from OS
 * entropy, are pairwise distinct over their first 4 KiB and in their
 * first word (a shared word would need a 2^-64 coincidence); two runs
 * without a seed get unrelated keys; only the seeded streams say so. */
static void key_streams_are_distinct(void **state)
{
    (void)state;
    enum { R = 64, W = 512 };
    uint8_t key[KEPS_RNG_KEY_BYTES], key2[KEPS_RNG_KEY_BYTES];
    keps_rng *root = keps_rng_new_seeded(5), *os = keps_rng_new();
    assert_int_equal(keps_rng_stream_key(root, key), 1);
    for (uint64_t s = 0; s < 4; s++) {
        keps_rng *a = keps_rng_from_key(key, s, 1), *b = keps_rng_split(root, s);
        for (int i = 0; i < W; i++)
            assert_true(keps_rng_u64(a) == keps_rng_u64(b));
        assert_true(keps_rng_is_seeded(a));
        keps_rng_free(a);
        keps_rng_free(b);
    }
    for (int seeded = 1; seeded >= 0; seeded--) {
        assert_int_equal(keps_rng_stream_key(seeded ? root : os, key), seeded);
        uint64_t *w = malloc((size_t)R * W * sizeof *w);
        assert_non_null(w);
        for (uint64_t s = 0; s < R; s++) {
            keps_rng *a = keps_rng_from_key(key, s, seeded);
            assert_int_equal(keps_rng_is_seeded(a), seeded);
            for (int i = 0; i < W; i++)
                w[s * W + (uint64_t)i] = keps_rng_u64(a);
            keps_rng_free(a);
        }
        for (int a = 0; a < R; a++)
            for (int b = a + 1; b < R; b++) {
                assert_true(memcmp(w + a * W, w + b * W, W * sizeof *w) != 0);
                assert_true(w[a * W] != w[b * W]);
            }
        free(w);
    }
    assert_int_equal(keps_rng_stream_key(os, key2), 0);
    assert_true(memcmp(key, key2, sizeof key) != 0);
    keps_rng_free(root);
    keps_rng_free(os);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The OS-keyed stream: every 4 KiB block is keyed afresh. A key reused
 * across refills (or a block left unfilled) repeats words; among 4,096
 * uniform words a repeat has chance 4096^2 / 2^65 ~ 5e-13. */
static void os_stream_blocks_do_not_repeat(void **state)
{
    (void)state;
    keps_rng *os = keps_rng_new();
    assert_non_null(os);
    enum { N = 4096 }; /* 8 blocks of 512 words */
    uint64_t *w = malloc(N * sizeof *w);
    assert_non_null(w);
    int ones = 0;
    for (int i = 0; i < N; i++) {
        w[i] = keps_rng_u64(os);
        ones += __builtin_popcountll(w[i]);
    }
    /* bits: binomial(262144, 1/2), sd 256; 6 sd bound */
    assert_true(abs(ones - N * 32) < 6 * 256);
    qsort(w, N, sizeof *w, cmp_u64);
    for (int i = 1; i < N; i++)
        assert_true(w[i] != w[i - 1]);
    free(w);
    keps_rng_free(os);
}

static void uniform_has_53_bits_and_range(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(7);
    double sum = 0;
    int low_bit_set = 0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = keps_rng_uniform(r);
        assert_true(u >= 0 && u < 1);
        sum += u;
        /* u * 2^53 is an integer; its lowest bit is set half the time */
        low_bit_set += (int)fmod(ldexp(u, 53), 2.0);
        double o = keps_rng_uniform_open(r);
        assert_true(o > 0 && o < 1);
    }
    /* mean of U(0,1): sd of the mean = sqrt(1/12/n) = 6.45e-4; 5 sd bound */
    assert_double_near(sum / n, 0.5, 5 * sqrt(1.0 / 12 / n));
    /* binomial(n, 1/2): sd = sqrt(n)/2 = 223.6; 5 sd bound */
    assert_true(fabs(low_bit_set - n / 2.0) < 5 * sqrt((double)n) / 2);
    keps_rng_free(r);
}

static void below_is_unbiased(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(9);
    /* n = 3: chi-square over 3 cells with 2 df; 13.8 is the 0.999 quantile */
    size_t cnt[3] = {0};
    const int n = 90000;
    for (int i = 0; i < n; i++) {
        uint64_t v = keps_rng_below(r, 3);
        assert_true(v < 3);
        cnt[v]++;
    }
    double chi = 0;
    for (int k = 0; k < 3; k++)
        chi += pow((double)cnt[k] - n / 3.0, 2) / (n / 3.0);
    assert_true(chi < 13.8);
    assert_int_equal(keps_rng_below(r, 1), 0);
    /* a huge bound still lands inside */
    for (int i = 0; i < 1000; i++)
        assert_true(keps_rng_below(r, (1ull << 63) + 5) < (1ull << 63) + 5);
    keps_rng_free(r);
}

static void bernoulli_exact_edges_and_frequency(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(11);
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(keps_rng_bernoulli(r, 0.0), 0);
        assert_int_equal(keps_rng_bernoulli(r, 1.0), 1);
        assert_int_equal(keps_rng_bernoulli(r, -3), 0);
        assert_int_equal(keps_rng_bernoulli(r, NAN), 0);
        /* the smallest subnormal: Pr = 4.9e-324, never seen in 1000 draws */
        assert_int_equal(keps_rng_bernoulli(r, 4.9e-324), 0);
    }
    const double ps[] = {0.5, 0.1, 0.7, 1.0 / 3};
    const int n = 200000;
    for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
        int hits = 0, hr = 0;
        for (int i = 0; i < n; i++) {
            hits += keps_rng_bernoulli(r, ps[k]);
            hr += keps_rng_bernoulli_rational(r, 7, 10);
        }
        double sd = sqrt(n * ps[k] * (1 - ps[k]));
        assert_true(fabs(hits - n * ps[k]) < 5 * sd); /* 5 sd of Binomial(n, p) */
        assert_true(fabs(hr - n * 0.7) < 5 * sqrt(n * 0.21));
    }
    keps_rng_free(r);
}

static void shuffle_is_uniform_over_permutations(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(13);
    /* all 6 permutations of 3 items: chi-square with 5 df, 0.999 quantile 20.5 */
    size_t cnt[6] = {0};
    const int n = 60000;
    for (int i = 0; i < n; i++) {
        uint32_t a[3] = {0, 1, 2};
        keps_rng_shuffle_u32(r, a, 3);
        int code = (int)(a[0] * 2 + (a[1] > a[2])); /* a[0] and the order of the rest */
        cnt[code]++;
    }
    double chi = 0;
    for (int k = 0; k < 6; k++)
        chi += pow((double)cnt[k] - n / 6.0, 2) / (n / 6.0);
    assert_true(chi < 20.5);
    uint32_t *p = keps_rng_permutation(r, 1000);
    uint8_t seen[1000] = {0};
    for (int i = 0; i < 1000; i++) {
        assert_true(p[i] < 1000);
        assert_false(seen[p[i]]);
        seen[p[i]] = 1;
    }
    free(p);
    keps_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seeded_streams_repeat_and_differ),
        cmocka_unit_test(key_streams_are_distinct),
        cmocka_unit_test(os_stream_blocks_do_not_repeat),
        cmocka_unit_test(uniform_has_53_bits_and_range),
        cmocka_unit_test(below_is_unbiased),
        cmocka_unit_test(bernoulli_exact_edges_and_frequency),
        cmocka_unit_test(shuffle_is_uniform_over_permutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
