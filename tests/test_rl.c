/* Record linkage (keps_record_linkage) against an all-pairs oracle written
 * here with plain loops: for every query record, the distance to every
 * target row, the nearest ones G counted row by row, 1/|G| if the query's
 * own target is in G (docs/spec.md 5; include/keps/risk.h). The library searches a
 * k-d tree with pruning; the oracle scans everything, so the two agree only
 * if the pruning never loses a target at the minimum distance.
 *
 * The values are compared for exact equality, not within a tolerance: both
 * sides compute each distance with the same arithmetic (IEEE doubles, terms
 * (target_j - query_j)^2 added for j = 0..m-1; the build is ISO C, no
 * fused multiply-add), decide ties by exact equality, and sum the
 * contributions 1/|G| in query order before dividing by n. Any difference,
 * even in the last bit, means a query's G came out differently. For that
 * the oracle standardizes as docs/spec.md 5 says, in the natural order: mean =
 * (sum in row order) / n, population sd = sqrt(sum (x - mean)^2 / n),
 * attributes constant in the original dropped, and each difference
 * standardized, term ((target_j - query_j) * (1/sd_j))^2 (the mean cancels;
 * standardizing values first would split mirror ties by rounding, which
 * tests/oracles/risk_oracle.py, in exact rationals, would catch).
 *
 * The tables (seeded, several hundred): integers in small ranges (ties and
 * duplicate rows everywhere), constant columns, releases equal to the
 * original, perturbed by +-1, replaced by group means (microaggregation),
 * row-shuffled, continuous Gaussian data with Gaussian noise, and releases
 * with huge values whose distances overflow to infinity; m = 1..5 (m = 5
 * takes the library's generic path), n = 1..5000. */
#include <math.h>
#include <string.h>

#include "dist.h"
#include "keps/risk.h"
#include "keps/rng.h"
#include "testutil.h"

/* Copies of the attributes kept (row-major, stride m, kept first) and
 * their weights w = 1/sd; returns how many attributes are kept. */
static size_t oracle_standardize(const double *o, const double *r, size_t n, size_t m, double *zo, double *zr,
                                 double *w)
{
    size_t kept = 0;
    for (size_t j = 0; j < m; j++) {
        double s = 0, v = 0;
        int constant = 1;
        for (size_t i = 0; i < n; i++) {
            s += o[i * m + j];
            if (o[i * m + j] != o[j])
                constant = 0;
        }
        double mu = s / (double)n;
        for (size_t i = 0; i < n; i++)
            v += (o[i * m + j] - mu) * (o[i * m + j] - mu);
        if (constant || !isfinite(v))
            continue;
        double sd = sqrt(v / (double)n);
        if (!(sd > 0))
            continue;
        for (size_t i = 0; i < n; i++) {
            zo[i * m + kept] = o[i * m + j];
            zr[i * m + kept] = r[i * m + j];
        }
        w[kept++] = 1.0 / sd;
    }
    return kept;
}

static const double *oracle_w; /* the weights of the table being checked */

static double sqdist(const double *target, const double *query, size_t kept)
{
    double e = 0;
    for (size_t j = 0; j < kept; j++) {
        double t = (target[j] - query[j]) * oracle_w[j];
        e += t * t;
    }
    return e;
}

/* RL with queries zq and targets zt (rows of stride m). *ties counts the
 * queries linked to a G holding another target value at the same distance
 * as their own (not just copies of it): the cases pruning could get wrong. */
static double oracle_rl(const double *zq, const double *zt, size_t n, size_t m, size_t kept, long *ties)
{
    if (kept == 0) /* nothing tells records apart: all n tie (docs/spec.md 5) */
        return 1.0 / (double)n;
    double sum = 0;
    for (size_t q = 0; q < n; q++) {
        const double *x = zq + q * m;
        double best = INFINITY, count = 0;
        for (size_t t = 0; t < n; t++) {
            double d = sqdist(zt + t * m, x, kept);
            if (d < best)
                best = d, count = 1;
            else if (d == best)
                count += 1;
        }
        double own = sqdist(zt + q * m, x, kept);
        if (own == best) {
            sum += 1.0 / count;
            for (size_t t = 0; t < n; t++)
                if (sqdist(zt + t * m, x, kept) == best && memcmp(zt + t * m, zt + q * m, kept * sizeof(double))) {
                    (*ties)++;
                    break;
                }
        }
    }
    return sum / (double)n;
}

static double gauss(keps_rng *g)
{
    double u1 = keps_rng_uniform_open(g), u2 = keps_rng_uniform(g);
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

enum { KIND_INT, KIND_GROUPS, KIND_SHUFFLED, KIND_GAUSS, KIND_HUGE, KINDS };

/* One random original o and release r (n x m) of the given kind. */
static void make_table(keps_rng *g, int kind, size_t n, size_t m, double *o, double *r)
{
    static const int ranges[] = {1, 2, 3, 4, 6, 11};
    for (size_t j = 0; j < m; j++) {
        int range = ranges[keps_rng_below(g, 6)]; /* 1: a constant column */
        double scale = kind == KIND_GAUSS ? 0.1 + 10 * keps_rng_uniform(g) : 1;
        for (size_t i = 0; i < n; i++)
            o[i * m + j] = kind == KIND_GAUSS ? 50 + scale * gauss(g) : (double)keps_rng_below(g, (uint64_t)range) - 1;
    }
    memcpy(r, o, n * m * sizeof *r);
    int noisy = keps_rng_below(g, 3) != 0; /* else the release is the original */
    if (kind == KIND_INT && noisy) {
        for (size_t i = 0; i < n * m; i++)
            r[i] += (double)keps_rng_below(g, 3) - 1;
    } else if (kind == KIND_GROUPS) {
        /* consecutive groups of k rows released as their mean */
        size_t k = 1 + (size_t)keps_rng_below(g, 6);
        for (size_t g0 = 0; g0 < n; g0 += k) {
            size_t g1 = g0 + k < n ? g0 + k : n;
            for (size_t j = 0; j < m; j++) {
                double s = 0;
                for (size_t i = g0; i < g1; i++)
                    s += o[i * m + j];
                for (size_t i = g0; i < g1; i++)
                    r[i * m + j] = s / (double)(g1 - g0);
            }
        }
    } else if (kind == KIND_SHUFFLED) {
        uint32_t *perm = keps_rng_permutation(g, n);
        for (size_t i = 0; i < n; i++)
            memcpy(r + i * m, o + (size_t)perm[i] * m, m * sizeof *r);
        free(perm);
    } else if (kind == KIND_GAUSS && noisy) {
        for (size_t i = 0; i < n * m; i++)
            r[i] += gauss(g) * (keps_rng_bit(g) ? 0.5 : 5);
    } else if (kind == KIND_HUGE) {
        /* a few released values at +-1e308: their z-scores are infinite
         * or their squares overflow, so some distances are +inf */
        for (size_t i = 0; i < n * m; i++)
            if (keps_rng_below(g, 8) == 0)
                r[i] = keps_rng_bit(g) ? 1e308 : -1e308;
    }
}

static void check(const double *o, const double *r, size_t n, size_t m, long *ties, const char *what)
{
    double *zo = malloc(n * m * sizeof *zo), *zr = malloc(n * m * sizeof *zr);
    assert_non_null(zo);
    assert_non_null(zr);
    double w[8];
    assert_true(m <= 8);
    size_t kept = oracle_standardize(o, r, n, m, zo, zr, w);
    oracle_w = w;
    double want[2] = {oracle_rl(zo, zr, n, m, kept, ties), oracle_rl(zr, zo, n, m, kept, ties)};
    for (int dir = 0; dir < 2; dir++) {
        double got;
        keps_error err = {0};
        assert_int_equal(keps_record_linkage(o, r, n, m, dir ? KEPS_RL_RELEASED : KEPS_RL_ORIGINAL, &got, &err),
                         KEPS_OK);
        if (got != want[dir])
            fail_msg("%s, n %zu, m %zu, direction %d: RL %.17g, oracle %.17g", what, n, m, dir, got, want[dir]);
    }
    free(zo);
    free(zr);
}

static void test_record_linkage_oracle(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(20261121);
    double *o = malloc(5000 * 5 * sizeof *o), *r = malloc(5000 * 5 * sizeof *r);
    assert_non_null(o);
    assert_non_null(r);
    long ties = 0;
    static const char *names[KINDS] = {"integers", "group means", "shuffled", "gaussian", "huge"};
    for (int c = 0; c < 400; c++) {
        int kind = c % KINDS;
        size_t m = 1 + (size_t)keps_rng_below(g, 5);
        /* mostly small (a few k-d tree levels), some up to 3000 rows, two
         * above 4096 (queries answered in Z-order) */
        size_t n = c % 200 == 100 ? 4100 + (size_t)keps_rng_below(g, 900)
                 : c % 40 == 0 ? 2000 + (size_t)keps_rng_below(g, 1001)
                 : c % 8 == 0 ? 200 + (size_t)keps_rng_below(g, 600)
                              : 1 + (size_t)keps_rng_below(g, 80);
        make_table(g, kind, n, m, o, r);
        check(o, r, n, m, &ties, names[kind]);
    }
    /* the test must have met exact ties between different targets */
    assert_true(ties > 1000);
    keps_rng_free(g);
    free(o);
    free(r);
}

/* Hand-made ties the tree has to find in different subtrees. One attribute
 * x = -4..4 twice each (differences of small integers are exact, so 0 is
 * exactly as far from -1 as from +1); the release moves the two 0s to -1 and +1, so an original 0
 * is equally far from the three released -1s and the three released +1s:
 * G = 6 rows, own in it, 1/6 each. A second table holds -0.0 and +0.0,
 * different bytes (two distinct targets) at distance 0 from each other:
 * they tie. A third: a 3 x 3 grid whose centre is released at a corner. */
static void test_record_linkage_oracle_hand(void **state)
{
    (void)state;
    long ties = 0;
    double o[18], r[18];
    for (int i = 0; i < 18; i++)
        o[i] = r[i] = (double)(i / 2) - 4;
    r[8] = -1, r[9] = 1; /* the two 0s released at -1 and +1 */
    check(o, r, 18, 1, &ties, "hand");
    assert_true(ties > 0);
    double z[8] = {-1, 1, -0.0, 0.0, 0.0, -0.0, 1, -1};
    check(z, z, 8, 1, &ties, "signed zeros");
    double gx[18], gr[18];
    for (int i = 0; i < 9; i++)
        gx[2 * i] = gr[2 * i] = (double)(i % 3), gx[2 * i + 1] = gr[2 * i + 1] = (double)(i / 3);
    gr[8] = 0, gr[9] = 0;
    check(gx, gr, 9, 2, &ties, "grid");
}

/* The two distance kernels of dist.h agree to the bit: dist_block (two
 * records per vector lane, MDAV's scan) and dist_point (one record, its
 * scalar tail). Random Gaussian
 * values of mixed magnitudes, m = 1..9, blocks of 1..37 records (so the
 * vector part and the scalar tail both run). */
static void test_dist_block_matches_dist_point(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(7);
    double z[9 * 37], p[9], d[37];
    for (int c = 0; c < 2000; c++) {
        size_t m = 1 + (size_t)keps_rng_below(g, 9), nb = 1 + (size_t)keps_rng_below(g, 37);
        for (size_t i = 0; i < m * nb; i++)
            z[i] = gauss(g) * pow(10, (double)keps_rng_below(g, 7) - 3);
        for (size_t j = 0; j < m; j++)
            p[j] = gauss(g) * pow(10, (double)keps_rng_below(g, 7) - 3);
        dist_block(z, nb, p, m, nb, d);
        for (size_t i = 0; i < nb; i++) {
            double e = dist_point(z + i, nb, p, m);
            if (memcmp(&e, &d[i], sizeof e) != 0)
                fail_msg("m %zu, record %zu of %zu: dist_block %.17g, dist_point %.17g", m, i, nb, d[i], e);
        }
    }
    keps_rng_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_linkage_oracle),
        cmocka_unit_test(test_record_linkage_oracle_hand),
        cmocka_unit_test(test_dist_block_matches_dist_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
