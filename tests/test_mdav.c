/* MDAV and insensitive MDAV: equality with a naive O(n^2) reference written
 * here from docs/spec.md 3, the literature's information loss on the CASC sets, the
 * insensitivity property, hand-computed SSE, and bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/mdav.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "mdav_internal.h"
#include "testutil.h"

/* ---- naive reference MDAV, straight from docs/spec.md 3 ---- */

typedef struct ref {
    size_t n, m, k;
    double *z;
    int *alive;
    size_t nrem;
    uint32_t *group;
    uint32_t gid;
} ref;

static double rd2(const ref *r, size_t a, const double *p)
{
    double d = 0;
    for (size_t j = 0; j < r->m; j++)
        d += (r->z[a * r->m + j] - p[j]) * (r->z[a * r->m + j] - p[j]);
    return d;
}

/* farthest alive record from p; ties: smaller index */
static size_t ref_farthest(const ref *r, const double *p)
{
    size_t best = SIZE_MAX;
    double bd = -1;
    for (size_t i = 0; i < r->n; i++)
        if (r->alive[i] && rd2(r, i, p) > bd) {
            bd = rd2(r, i, p);
            best = i;
        }
    return best;
}

static void ref_centroid(const ref *r, double *c)
{
    for (size_t j = 0; j < r->m; j++) {
        double s = 0;
        for (size_t i = 0; i < r->n; i++)
            if (r->alive[i])
                s += r->z[i * r->m + j];
        c[j] = s / (double)r->nrem;
    }
}

/* c and its k-1 nearest alive others (by distance, then index), one by one */
static void ref_form(ref *r, size_t c)
{
    double p[16];
    memcpy(p, r->z + c * r->m, r->m * sizeof *p);
    r->alive[c] = 0;
    r->group[c] = r->gid;
    r->nrem--;
    for (size_t t = 0; t + 1 < r->k; t++) {
        size_t best = SIZE_MAX;
        double bd = INFINITY;
        for (size_t i = 0; i < r->n; i++)
            if (r->alive[i] && rd2(r, i, p) < bd) {
                bd = rd2(r, i, p);
                best = i;
            }
        r->alive[best] = 0;
        r->group[best] = r->gid;
        r->nrem--;
    }
    r->gid++;
}

static void ref_mdav(const double *x, size_t n, size_t m, size_t k, uint32_t *group)
{
    ref r = {n, m, k, malloc(n * m * sizeof(double)), malloc(n * sizeof(int)), n, group, 0};
    for (size_t j = 0; j < m; j++) {
        double mu = 0, v = 0;
        for (size_t i = 0; i < n; i++)
            mu += x[i * m + j] / (double)n;
        for (size_t i = 0; i < n; i++)
            v += (x[i * m + j] - mu) * (x[i * m + j] - mu) / (double)n;
        for (size_t i = 0; i < n; i++)
            r.z[i * m + j] = v > 0 ? (x[i * m + j] - mu) / sqrt(v) : 0;
    }
    for (size_t i = 0; i < n; i++)
        r.alive[i] = 1;
    double c[16];
    while (r.nrem >= 3 * k) {
        ref_centroid(&r, c);
        size_t a = ref_farthest(&r, c);
        ref_form(&r, a);
        size_t s = ref_farthest(&r, r.z + a * m);
        ref_form(&r, s);
    }
    if (r.nrem >= 2 * k) {
        ref_centroid(&r, c);
        ref_form(&r, ref_farthest(&r, c));
    }
    for (size_t i = 0; i < n; i++)
        if (r.alive[i])
            group[i] = r.gid;
    free(r.z);
    free(r.alive);
}

static double *random_data(keps_rng *g, size_t n, size_t m)
{
    double *x = malloc(n * m * sizeof *x);
    for (size_t i = 0; i < n * m; i++) {
        /* skewed, like money amounts: exp of a uniform */
        x[i] = exp(6.0 * keps_rng_uniform(g));
    }
    return x;
}

/* method: 1 the scan, 2 the k-d tree (mdav_internal.h) */
static void check_equal_to_reference(keps_rng *g, size_t n, size_t m, size_t k, int threads, int method)
{
    double *x = random_data(g, n, m);
    uint32_t *want = malloc(n * sizeof *want);
    ref_mdav(x, n, m, k, want);
    keps_mdav_threads(threads);
    mdav_set_method(method);
    keps_mdav_result r;
    keps_error err = {0};
    assert_int_equal(keps_mdav(x, n, m, k, &r, &err), KEPS_OK);
    mdav_set_method(0);
    if (k == 1) {
        /* singletons (ids are row numbers, not formation order) */
        for (size_t i = 0; i < n; i++)
            assert_int_equal(r.group[i], i);
        assert_int_equal(r.ngroups, n);
    } else {
        for (size_t i = 0; i < n; i++)
            assert_int_equal(r.group[i], want[i]);
    }
    /* sizes: all k except the last, which holds k..2k-1 */
    for (size_t gi = 0; gi < r.ngroups; gi++) {
        assert_true(r.size[gi] >= k);
        assert_true(gi + 1 == r.ngroups ? r.size[gi] < 2 * k : r.size[gi] == k);
    }
    keps_mdav_result_free(&r);
    keps_mdav_threads(2);
    free(want);
    free(x);
}

static void test_mdav_equals_reference(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(20240611);
    static const size_t cfg[][3] = {{10, 1, 3}, {97, 1, 2}, {300, 2, 3}, {301, 3, 5}, {512, 4, 4},
                                    {200, 13, 7}, {50, 4, 1}, {1000, 4, 5}, {29, 2, 10}};
    for (int method = 1; method <= 2; method++)
        for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++)
            check_equal_to_reference(g, cfg[c][0], cfg[c][1], cfg[c][2], 2, method);
    /* the scan: big enough for both threads to share the scans
     * (PAR_MIN_WORK), and the same result on one thread */
    check_equal_to_reference(g, 6000, 4, 5, 2, 1);
    check_equal_to_reference(g, 6000, 4, 5, 1, 1);
    /* more threads than cores: helpers get preempted mid-task, which
     * exercises the hand-over between consecutive scans */
    check_equal_to_reference(g, 6000, 3, 4, 4, 1);
    check_equal_to_reference(g, 6000, 4, 3, 8, 1);
    check_equal_to_reference(g, 6000, 4, 5, 2, 2);
    keps_rng_free(g);
}

/* Heavily tied integer data: the result must not depend on the thread
 * count (ties are broken by row index, never by array position). */
static void test_mdav_ties_thread_independent(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(7);
    size_t n = 9000, m = 2, k = 4;
    double *x = malloc(n * m * sizeof *x);
    for (size_t i = 0; i < n * m; i++)
        x[i] = (double)keps_rng_below(g, 5);
    keps_mdav_result a, b;
    keps_mdav_threads(1);
    mdav_set_method(1); /* the scan's threads (the tree runs on one) */
    assert_int_equal(keps_mdav(x, n, m, k, &a, NULL), KEPS_OK);
    for (int th = 2; th <= 4; th += 2) {
        keps_mdav_threads(th);
        assert_int_equal(keps_mdav(x, n, m, k, &b, NULL), KEPS_OK);
        assert_memory_equal(a.group, b.group, n * sizeof *a.group);
        if (th == 2)
            keps_mdav_result_free(&b);
    }
    keps_mdav_threads(2);
    mdav_set_method(0);
    size_t total = 0;
    for (size_t gi = 0; gi < a.ngroups; gi++) {
        assert_true(a.size[gi] >= k && a.size[gi] < 2 * k);
        total += a.size[gi];
    }
    assert_int_equal(total, n);
    keps_mdav_result_free(&a);
    keps_mdav_result_free(&b);
    free(x);
    keps_rng_free(g);
}

/* x = 1,2,3,10,11,12 (k = 3, n = 2k): one group around the record farthest
 * from the centroid 6.5. 1 and 12 tie at 5.5; the smaller row (value 1)
 * wins: groups {1,2,3} and {10,11,12}, centroids 2 and 11.
 * SSE raw = 2 * (1 + 0 + 1) = 4. Population variance = 2*(5.5^2+4.5^2+3.5^2)/6
 * = 125.5/6 = 20.91666..., so SSE standardized = 4 / 20.91666... = 0.191235...
 * The second attribute is constant (7): z = 0, centroid 7, no NaN. */
static void test_mdav_sse_hand(void **state)
{
    (void)state;
    double x[] = {1, 7, 2, 7, 3, 7, 10, 7, 11, 7, 12, 7};
    keps_mdav_result r;
    assert_int_equal(keps_mdav(x, 6, 2, 3, &r, NULL), KEPS_OK);
    assert_int_equal(r.ngroups, 2);
    uint32_t want[] = {0, 0, 0, 1, 1, 1};
    assert_memory_equal(r.group, want, sizeof want);
    assert_double_near(r.centroid[0], 2.0, 1e-12);
    assert_double_near(r.centroid[1], 7.0, 0);
    assert_double_near(r.centroid[2], 11.0, 1e-12);
    assert_double_near(r.centroid[3], 7.0, 0);
    assert_double_near(r.sse, 4.0, 1e-12);
    assert_double_near(r.sse_standardized, 4.0 / (125.5 / 6.0), 1e-12);
    assert_double_near(r.sd[1], 0.0, 0);
    keps_mdav_result_free(&r);
}

/* The microaggregation literature's MDAV figures for the CASC reference
 * sets, IL = 100 * SSE / SST on standardized attributes (SST = n * m with
 * the population sd), printed to 2 decimals (e.g. Domingo-Ferrer & Torra
 * 2005, Data Min. Knowl. Discov. 11:195-212, and many later papers):
 * Census (1,080 x 13) and Tarragona (834 x 13), all attributes. */
static void test_mdav_published_il(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double il[4]; /* k = 3, 4, 5, 10 */
    } sets[] = {{"data/casc/casc.csv", {5.69, 7.49, 9.09, 14.16}},
                {"data/casc/tarragona.csv", {16.93, 19.55, 22.46, 33.19}}};
    static const size_t ks[] = {3, 4, 5, 10};
    for (size_t d = 0; d < 2; d++) {
        keps_table *t;
        keps_error err = {0};
        assert_int_equal(keps_csv_read(src_path(sets[d].file), NULL, &t, &err), KEPS_OK);
        size_t m = t->ncols, cols[13];
        assert_int_equal(m, 13);
        for (size_t j = 0; j < m; j++)
            cols[j] = j;
        double *x;
        assert_int_equal(keps_mdav_matrix(t, cols, m, &x, &err), KEPS_OK);
        for (size_t i = 0; i < 4; i++) {
            keps_mdav_result r;
            assert_int_equal(keps_mdav(x, t->nrows, m, ks[i], &r, NULL), KEPS_OK);
            double il = 100.0 * r.sse_standardized / ((double)t->nrows * (double)m);
            assert_double_near(il, sets[d].il[i], 0.005);
            keps_mdav_result_free(&r);
        }
        free(x);
        keps_table_free(t);
    }
}

/* A constant column alone: one group per block, centroids equal the
 * constant, SSEs 0 (not NaN). */
static void test_mdav_constant_column(void **state)
{
    (void)state;
    double x[10];
    for (int i = 0; i < 10; i++)
        x[i] = 42.5;
    keps_mdav_result r;
    assert_int_equal(keps_mdav(x, 10, 1, 3, &r, NULL), KEPS_OK);
    for (size_t gi = 0; gi < r.ngroups; gi++)
        assert_double_near(r.centroid[gi], 42.5, 0);
    assert_false(isnan(r.sse) || isnan(r.sse_standardized));
    assert_double_near(r.sse, 0, 0);
    assert_double_near(r.sse_standardized, 0, 0);
    keps_mdav_result_free(&r);
    assert_int_equal(keps_mdav_insensitive(x, 10, 1, 3, NULL, NULL, &r, NULL), KEPS_OK);
    assert_double_near(r.centroid[0], 42.5, 0);
    assert_double_near(r.sse_standardized, 0, 0);
    keps_mdav_result_free(&r);
}

/* A small spread on a large offset is not a constant: 10^13 + 0..11
 * (sd 3.45, below 10^-12 of the mean) with k = 3 groups {0,1,2}, {3,4,5},
 * {6,7,8}, {9,10,11}: each group's SSE is 1 + 0 + 1 = 2, total 8, and the
 * centroids are 10^13 + 1, + 4, + 7, + 10. (A relative cut-off once took
 * the column for a constant and grouped by row order only.) */
static void test_mdav_large_offset(void **state)
{
    (void)state;
    double x[12];
    for (int i = 0; i < 12; i++)
        x[i] = 1e13 + (double)(11 - i); /* reversed: row order is not the answer */
    keps_mdav_result r;
    assert_int_equal(keps_mdav(x, 12, 1, 3, &r, NULL), KEPS_OK);
    assert_double_near(r.sse, 8, 0);
    assert_int_equal(r.ngroups, 4);
    for (int i = 0; i < 12; i++)
        assert_double_near(r.centroid[r.group[i]], 1e13 + (double)((11 - i) / 3 * 3 + 1), 0);
    keps_mdav_result_free(&r);
}

static void test_mdav_bad_input(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4};
    keps_mdav_result r;
    keps_error err = {0};
    assert_int_equal(keps_mdav(x, 4, 1, 0, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "at least 1"));
    assert_int_equal(keps_mdav(x, 4, 1, 5, &r, &err), KEPS_EJOB);
    assert_non_null(strstr(err.msg, "larger than the number of records"));
    assert_int_equal(keps_mdav_insensitive(x, 4, 1, 5, NULL, NULL, &r, &err), KEPS_EJOB);
    assert_int_equal(keps_mdav(x, 0, 1, 1, &r, &err), KEPS_EJOB);
    x[2] = NAN;
    assert_int_equal(keps_mdav(x, 4, 1, 2, &r, &err), KEPS_EINPUT);
    x[2] = 3;
    double lo = 5, hi = 1;
    assert_int_equal(keps_mdav_insensitive(x, 4, 1, 2, &lo, &hi, &r, &err), KEPS_EINPUT);
    /* k = n: one group */
    assert_int_equal(keps_mdav(x, 4, 1, 4, &r, &err), KEPS_OK);
    assert_int_equal(r.ngroups, 1);
    assert_double_near(r.centroid[0], 2.5, 1e-15);
    keps_mdav_result_free(&r);
}

/* A library caller's finite values whose centroid overflows: the sum
 * 1.7e308 + 1.7e308 = 3.4e308 exceeds DBL_MAX = 1.797e308, so the mean of
 * {1.7e308, 1.7e308, 1} comes out inf. An error, never an inf centroid
 * (the CLI never gets here: it refuses cells beyond 1e100). Both variants;
 * k = 1 keeps each record and its centroid (1.7e308) finite. */
static void test_mdav_overflow_is_an_error(void **state)
{
    (void)state;
    double x[] = {1.7e308, 1.7e308, 1};
    keps_mdav_result r;
    keps_error err = {0};
    assert_int_equal(keps_mdav(x, 3, 1, 3, &r, &err), KEPS_EJOB);
    assert_non_null(strstr(err.msg, "not finite"));
    assert_null(r.centroid);
    assert_int_equal(keps_mdav_insensitive(x, 3, 1, 3, NULL, NULL, &r, &err), KEPS_EJOB);
    assert_int_equal(keps_mdav(x, 3, 1, 1, &r, &err), KEPS_OK);
    assert_true(r.centroid[0] == 1.7e308);
    keps_mdav_result_free(&r);
}

static void test_mdav_matrix_errors(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\n1,2\n3,x\n5,6\n");
    size_t cols[] = {0, 1};
    double *x = NULL;
    keps_error err = {0};
    assert_int_equal(keps_mdav_matrix(t, cols, 2, &x, &err), KEPS_EINPUT);
    /* row 2 of data = line 3, column b = 2 */
    assert_non_null(strstr(err.msg, "test.csv:3:2"));
    assert_null(x);
    keps_table_free(t);
    t = table_from_csv("a,b\n1,2\n3,\n5,6\n");
    assert_int_equal(keps_mdav_matrix(t, cols, 2, &x, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:3:2"));
    assert_non_null(strstr(err.msg, "missing"));
    keps_table_free(t);
    t = table_from_csv("a,b\n1,2\n3,4\n");
    assert_int_equal(keps_mdav_matrix(t, cols, 2, &x, &err), KEPS_OK);
    double want[] = {1, 2, 3, 4};
    assert_memory_equal(x, want, sizeof want);
    free(x);
    keps_table_free(t);
}

/* ---- insensitive MDAV ---- */

/* Distance of a record to the lower corner on domain-normalized values. */
static double corner_key(const double *row, size_t m, const double *lo, const double *hi)
{
    double d = 0;
    for (size_t j = 0; j < m; j++) {
        double u = (row[j] - lo[j]) / (hi[j] - lo[j]);
        d += u * u;
    }
    return d;
}

/* Independent check: block sizes k (last k..2k-1) and every record of an
 * earlier block is no farther from R than any record of a later block. */
static void check_blocks(const double *x, size_t n, size_t m, size_t k, const double *lo, const double *hi,
                         const keps_mdav_result *r)
{
    assert_int_equal(r->ngroups, n / k);
    for (size_t gi = 0; gi < r->ngroups; gi++)
        assert_int_equal(r->size[gi], gi + 1 < r->ngroups ? k : k + n % k);
    double *gmax = calloc(r->ngroups, sizeof *gmax), *gmin = malloc(r->ngroups * sizeof *gmin);
    for (size_t gi = 0; gi < r->ngroups; gi++)
        gmin[gi] = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double d = corner_key(x + i * m, m, lo, hi);
        gmax[r->group[i]] = fmax(gmax[r->group[i]], d);
        gmin[r->group[i]] = fmin(gmin[r->group[i]], d);
    }
    for (size_t gi = 1; gi < r->ngroups; gi++)
        assert_true(gmax[gi - 1] <= gmin[gi]);
    free(gmax);
    free(gmin);
}

/* Replacing one record (row i gets a new value: a different individual)
 * changes every group by at most one record: at most one old member leaves
 * and at most one new member joins. Row identity: the replaced row counts as
 * a new record. Checked over many random replacements, with and without
 * ties (integer data). */
static void insensitivity_run(keps_rng *g, size_t n, size_t m, size_t k, int integer)
{
    double lo[4] = {0, 0, 0, 0}, hi[4] = {100, 50, 10, 1000};
    double *x = malloc(n * m * sizeof *x), *y = malloc(n * m * sizeof *y);
    for (size_t i = 0; i < n * m; i++) {
        double u = keps_rng_uniform(g) * hi[i % m];
        x[i] = integer ? floor(u / 10) : u;
    }
    keps_mdav_result a;
    assert_int_equal(keps_mdav_insensitive(x, n, m, k, lo, hi, &a, NULL), KEPS_OK);
    check_blocks(x, n, m, k, lo, hi, &a);
    int *leave = malloc(a.ngroups * sizeof *leave), *join = malloc(a.ngroups * sizeof *join);
    for (int trial = 0; trial < 200; trial++) {
        memcpy(y, x, n * m * sizeof *x);
        size_t i = keps_rng_below(g, n);
        for (size_t j = 0; j < m; j++) {
            double u = keps_rng_uniform(g) * hi[j];
            y[i * m + j] = integer ? floor(u / 10) : u;
        }
        keps_mdav_result b;
        assert_int_equal(keps_mdav_insensitive(y, n, m, k, lo, hi, &b, NULL), KEPS_OK);
        assert_int_equal(a.ngroups, b.ngroups);
        memset(leave, 0, a.ngroups * sizeof *leave);
        memset(join, 0, a.ngroups * sizeof *join);
        for (size_t r = 0; r < n; r++) {
            if (r == i) { /* the old individual left a.group, the new one joined b.group */
                leave[a.group[r]]++;
                join[b.group[r]]++;
            } else if (a.group[r] != b.group[r]) {
                leave[a.group[r]]++;
                join[b.group[r]]++;
            }
        }
        for (size_t gi = 0; gi < a.ngroups; gi++) {
            assert_true(leave[gi] <= 1);
            assert_true(join[gi] <= 1);
        }
        keps_mdav_result_free(&b);
    }
    free(leave);
    free(join);
    keps_mdav_result_free(&a);
    free(x);
    free(y);
}

static void test_insensitive_property(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(99);
    insensitivity_run(g, 103, 4, 5, 0);
    insensitivity_run(g, 60, 1, 3, 0);
    insensitivity_run(g, 97, 2, 7, 1);
    insensitivity_run(g, 40, 1, 4, 1);
    keps_rng_free(g);
}

/* x = 5,1,4,2,3,9 in [0,10], k = 2: order 1,2,3,4,5,9 -> blocks
 * {1,2} {3,4} {5,9}: rows {1,3} {4,2} {0,5}; centroids 1.5, 3.5, 7.
 * SSE raw = 4*0.25 + 2*4 = 9. Ties: 2-D points (1,0) and (0,1) are equally
 * far from R = (0,0); the lexicographic order puts (0,1) first. */
static void test_insensitive_hand(void **state)
{
    (void)state;
    double x[] = {5, 1, 4, 2, 3, 9}, lo = 0, hi = 10;
    keps_mdav_result r;
    assert_int_equal(keps_mdav_insensitive(x, 6, 1, 2, &lo, &hi, &r, NULL), KEPS_OK);
    uint32_t want[] = {2, 0, 1, 0, 1, 2};
    assert_memory_equal(r.group, want, sizeof want);
    assert_double_near(r.centroid[0], 1.5, 1e-15);
    assert_double_near(r.centroid[1], 3.5, 1e-15);
    assert_double_near(r.centroid[2], 7.0, 1e-15);
    assert_double_near(r.sse, 9.0, 1e-12);
    keps_mdav_result_free(&r);
    double y[] = {1, 0, 0, 1, 5, 5, 6, 6}, lo2[] = {0, 0}, hi2[] = {10, 10};
    assert_int_equal(keps_mdav_insensitive(y, 4, 2, 1, lo2, hi2, &r, NULL), KEPS_OK);
    uint32_t want2[] = {1, 0, 2, 3};
    assert_memory_equal(r.group, want2, sizeof want2);
    keps_mdav_result_free(&r);
}


/* Without bounds (anonymize --insensitive-mdav) the domain is the data's
 * min/max: a in [0, 10], b in [100, 101], u = (a/10, b - 100).
 * A = (0, 101): u = (0, 1), d = 1; B = (10, 100): (1, 0), d = 1;
 * C = (5, 100.5): (0.5, 0.5), d = 0.5; D = (2, 100): (0.2, 0), d = 0.04.
 * Order D, C, then A and B tie at 1: lexicographically (0, 101) < (10, 100),
 * so A before B. k = 1 numbers the blocks in that order: D 0, C 1, A 2, B 3.
 * (Raw Euclidean distance to (0, 100) would give A 1, D 4, C 25.25, B 100:
 * order A, D, C, B.) k = 2: blocks {D, C} and {A, B}, centroids (3.5,
 * 100.25) and (5, 100.5); SSE raw = 1.5^2*2 + 0.25^2*2 + 5^2*2 + 0.5^2*2 =
 * 4.5 + 0.125 + 50 + 0.5 = 55.125. */
static void test_insensitive_data_domain(void **state)
{
    (void)state;
    double x[] = {0, 101, 10, 100, 5, 100.5, 2, 100}; /* rows A, B, C, D */
    keps_mdav_result r;
    assert_int_equal(keps_mdav_insensitive(x, 4, 2, 1, NULL, NULL, &r, NULL), KEPS_OK);
    uint32_t want1[] = {2, 3, 1, 0};
    assert_memory_equal(r.group, want1, sizeof want1);
    keps_mdav_result_free(&r);
    assert_int_equal(keps_mdav_insensitive(x, 4, 2, 2, NULL, NULL, &r, NULL), KEPS_OK);
    uint32_t want2[] = {1, 1, 0, 0};
    assert_memory_equal(r.group, want2, sizeof want2);
    assert_double_near(r.centroid[0], 3.5, 1e-15);
    assert_double_near(r.centroid[1], 100.25, 1e-13);
    assert_double_near(r.centroid[2], 5.0, 1e-15);
    assert_double_near(r.centroid[3], 100.5, 1e-13);
    assert_double_near(r.sse, 55.125, 1e-10);
    keps_mdav_result_free(&r);
}

/* keps_mdav_release: a = 1,2,3 | 10,11,12 and b = 1,1,2 | 7,8,9 form two
 * obvious groups of k = 3 (rows 0-2, rows 3-5). Centroids a: 2, 11; b:
 * 4/3 and 8. 4/3 needs all 17 digits ("1.3333333333333333"; %.16g gives
 * 1.333333333333333, another double). id (identifier) is dropped, note
 * copied, every row released. */
static void test_mdav_release_cells(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("id,a,b,note\np0,1,1,u\np1,2,1,v\np2,3,2,w\np3,10,7,x\np4,11,8,y\np5,12,9,z\n");
    keps_error err = {0};
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_set_role(s, "id", KEPS_ROLE_IDENTIFIER, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 1, NULL, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 2, NULL, &err), KEPS_OK);
    s->others = KEPS_OTHERS_KEEP;
    size_t cols[] = {1, 2};
    double *x = NULL;
    assert_int_equal(keps_mdav_matrix(t, cols, 2, &x, &err), KEPS_OK);
    keps_mdav_result r;
    assert_int_equal(keps_mdav(x, 6, 2, 3, &r, &err), KEPS_OK);
    assert_int_equal(r.ngroups, 2);
    keps_table *rel = NULL;
    const char *want[] = {"2",  "1.3333333333333333", "u", "2",  "1.3333333333333333", "v",
                          "2",  "1.3333333333333333", "w", "11", "8",                  "x",
                          "11", "8",                  "y", "11", "8",                  "z"};
    assert_int_equal(keps_mdav_release(s, NULL, &r, &rel, &err), KEPS_OK); /* the schema's QIs */
    assert_table_cells(rel, 6, 3, want);
    keps_table_free(rel);
    assert_int_equal(keps_mdav_release(s, cols, &r, &rel, &err), KEPS_OK);
    assert_table_cells(rel, 6, 3, want);
    keps_table_free(rel);
    /* the columns in the other order put b's centroids under a */
    size_t swapped[] = {2, 1};
    assert_int_equal(keps_mdav_release(s, swapped, &r, &rel, &err), KEPS_OK);
    assert_string_equal(keps_table_str(rel, 0, 0), "1.3333333333333333");
    assert_string_equal(keps_table_str(rel, 1, 5), "11");
    keps_table_free(rel);
    /* errors: a repeated or unknown column, m != nqi without cols */
    size_t twice[] = {1, 1}, outside[] = {1, 9};
    rel = (keps_table *)1;
    assert_int_equal(keps_mdav_release(s, twice, &r, &rel, &err), KEPS_EINPUT);
    assert_null(rel);
    assert_int_equal(keps_mdav_release(s, outside, &r, &rel, &err), KEPS_EINPUT);
    r.m = 1;
    assert_int_equal(keps_mdav_release(s, NULL, &r, &rel, &err), KEPS_EINPUT);
    r.m = 2;
    keps_mdav_result_free(&r);
    free(x);
    keps_schema_free(s);
    keps_table_free(t);
}

/* ---- the k-d tree path against the scan ----
 *
 * keps_mdav answers MDAV's queries by scanning every remaining record or
 * by a k-d tree with deletions (mdav_index.c); the groups must be the same,
 * ties included (farthest and nearest both prefer the smaller row), and the
 * centroid the scan's own rounded sum. The data sets are made of ties:
 * duplicates, small integers, constant columns, values mirrored about the
 * mean (exact ties in the distance to the centroid, decided by rounding). */

enum { D_CONT, D_INT, D_INT_CONST, D_DUPS, D_MIRROR, D_GRID, D_NKINDS };

static double *tie_data(keps_rng *g, int kind, size_t n, size_t m)
{
    double *x = malloc(n * m * sizeof *x);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) {
            double *v = &x[i * m + j];
            switch (kind) {
            case D_CONT: *v = exp(6.0 * keps_rng_uniform(g)); break;
            case D_INT: *v = (double)keps_rng_below(g, 5); break;
            case D_INT_CONST: *v = j == 1 ? 7.0 : (double)keps_rng_below(g, 12); break;
            case D_DUPS: /* a third of the rows repeat an earlier row */
                *v = i > 0 && keps_rng_below(g, 3) == 0 && j == 0 ? NAN : exp(3.0 * keps_rng_uniform(g));
                break;
            case D_MIRROR: /* +-v pairs with small integers: the centroid sits on a bisector */
                *v = i % 2 ? -x[(i - 1) * m + j] : (double)keps_rng_below(g, 4);
                break;
            default: /* a coarse grid of decimal fractions */
                *v = 0.1 * (double)keps_rng_below(g, 7) + (j == 0 ? 1e6 : 0);
                break;
            }
        }
    if (kind == D_DUPS)
        for (size_t i = 1; i < n; i++)
            if (isnan(x[i * m]))
                memcpy(x + i * m, x + keps_rng_below(g, i) * m, m * sizeof *x);
    return x;
}

static size_t tree_vs_scan(keps_rng *g, int kind, size_t n, size_t m, size_t k, int threads)
{
    double *x = tie_data(g, kind, n, m);
    keps_mdav_result a, b;
    keps_mdav_threads(threads);
    mdav_set_method(1);
    assert_int_equal(keps_mdav(x, n, m, k, &a, NULL), KEPS_OK);
    mdav_set_method(2);
    assert_int_equal(keps_mdav(x, n, m, k, &b, NULL), KEPS_OK);
    size_t fb = mdav_last_fallbacks();
    mdav_set_method(0);
    keps_mdav_threads(2);
    assert_int_equal(a.ngroups, b.ngroups);
    for (size_t i = 0; i < n; i++)
        if (a.group[i] != b.group[i])
            fail_msg("kind %d n %zu m %zu k %zu: row %zu in group %u by the scan, %u by the tree", kind, n, m, k,
                     i, a.group[i], b.group[i]);
    keps_mdav_result_free(&a);
    keps_mdav_result_free(&b);
    free(x);
    return fb;
}

static void test_mdav_tree_equals_scan(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(30);
    static const size_t ms[] = {1, 2, 3, 4, 5, 7, 13};
    static const size_t ks[] = {2, 3, 4, 5, 7, 10, 25};
    int sanitized = getenv("KEPS_SANITIZED") != NULL;
    size_t cases = 0, fallbacks[D_NKINDS] = {0};
    for (int kind = 0; kind < D_NKINDS; kind++)
        for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
            for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
                size_t k = ks[ki], m = ms[mi];
                /* sizes around the round boundaries (2k, 3k) and larger */
                size_t sizes[] = {k, 2 * k, 3 * k - 1, 3 * k, 5 * k + 1, 97 + keps_rng_below(g, 300),
                                  sanitized ? 600 : 1500 + keps_rng_below(g, 1500)};
                for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                    fallbacks[kind] += tree_vs_scan(g, kind, sizes[si], m, k, 1 + (int)(si % 2));
                    cases++;
                }
            }
    /* larger sets, where the tree is deep and the scan uses both threads */
    for (int kind = 0; kind < D_NKINDS; kind++) {
        fallbacks[kind] += tree_vs_scan(g, kind, sanitized ? 3000 : 20000, 4, 5, 2);
        fallbacks[kind] += tree_vs_scan(g, kind, sanitized ? 2000 : 12000, 2, 3, 2);
    }
    /* the tie-heavy sets do reach the recomputed sum; random reals not */
    assert_true(fallbacks[D_MIRROR] > 0 && fallbacks[D_INT] > 0);
    assert_int_equal(fallbacks[D_CONT], 0);
    print_message("tree = scan on %zu data sets; recomputed centroid sums: %zu %zu %zu %zu %zu %zu\n", cases,
                  fallbacks[0], fallbacks[1], fallbacks[2], fallbacks[3], fallbacks[4], fallbacks[5]);
    keps_rng_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mdav_equals_reference),  cmocka_unit_test(test_mdav_ties_thread_independent),
        cmocka_unit_test(test_mdav_sse_hand),          cmocka_unit_test(test_mdav_published_il),
        cmocka_unit_test(test_mdav_constant_column),
        cmocka_unit_test(test_mdav_large_offset),
        cmocka_unit_test(test_mdav_bad_input),         cmocka_unit_test(test_mdav_matrix_errors),
        cmocka_unit_test(test_mdav_overflow_is_an_error),
        cmocka_unit_test(test_insensitive_property),   cmocka_unit_test(test_insensitive_hand),
        cmocka_unit_test(test_insensitive_data_domain),
        cmocka_unit_test(test_mdav_release_cells),
        cmocka_unit_test(test_mdav_tree_equals_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
