/* Empirical privacy-loss auditor with Clopper-Pearson bounds
 * (see include/keps/audit.h). */
#include "keps/audit.h"
#include "keps/progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/expmech.h"
#include "keps/noise.h"

/* ---- regularized incomplete beta and its inverse ---- */

/* Continued fraction of I_x(a, b) (modified Lentz), valid and fast for
 * x < (a+1)/(a+b+2). Terms: d_{2m+1} = -(a+m)(a+b+m)x/((a+2m)(a+2m+1)),
 * d_{2m} = m(b-m)x/((a+2m-1)(a+2m)). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 100000; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        d = fabs(d) < tiny ? 1 / tiny : 1 / d;
        c = fabs(c) < tiny ? tiny : c;
        double delta = d * c;
        h *= delta;
        if (fabs(delta - 1) < 1e-15)
            break;
    }
    return h;
}

double keps_betainc(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    /* x^a (1-x)^b / (a B(a,b)) in logs: no overflow for a, b ~ 1e6 */
    double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lfront) * beta_cf(a, b, x) / a;
    return 1 - exp(lfront) * beta_cf(b, a, 1 - x) / b; /* I_x(a,b) = 1 - I_{1-x}(b,a) */
}

double keps_beta_quantile(double p, double a, double b)
{
    double lo = 0, hi = 1;
    if (p <= 0)
        return 0;
    if (p >= 1)
        return 1;
    /* I_x is increasing in x: bisect to double resolution. */
    for (int i = 0; i < 200 && hi - lo > 1e-16 * (lo > 1e-300 ? lo : 1e-300); i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        if (keps_betainc(a, b, mid) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

void keps_clopper_pearson(size_t k, size_t n, double alpha, double *lo, double *hi)
{
    /* lo = Beta(alpha; k, n-k+1) quantile, hi = Beta(1-alpha; k+1, n-k) quantile. */
    *lo = k == 0 ? 0 : keps_beta_quantile(alpha, (double)k, (double)(n - k + 1));
    *hi = k >= n ? 1 : keps_beta_quantile(1 - alpha, (double)(k + 1), (double)(n - k));
}

/* ---- the audit ---- */

void keps_audit_defaults(keps_audit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->trials = 100000;
    o->bins = 20;
    o->alpha = 0.05;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Number of edges <= x: the bin of x (edges sorted, bins [e_{i-1}, e_i)). */
static size_t bin_of(const double *edges, size_t nedges, double x)
{
    size_t lo = 0, hi = nedges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (edges[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Edges from the sorted pooled outputs: discrete mode keeps every distinct
 * value as its own bin [v, v) (bin_of gives index+1; edges shifted below),
 * continuous mode takes the bins-quantiles and drops repeats. */
static size_t make_edges(const double *sorted, size_t n, const keps_audit_opts *o, double *edges)
{
    size_t ne = 0;
    if (o->discrete) {
        for (size_t i = 0; i < n; i++)
            if (ne == 0 || sorted[i] != edges[ne - 1])
                edges[ne++] = sorted[i];
        return ne;
    }
    for (size_t j = 1; j < o->bins; j++) {
        double e = sorted[j * n / o->bins];
        if (ne == 0 || e != edges[ne - 1])
            edges[ne++] = e;
    }
    return ne;
}

/* Bounds for ln(Pr_A[bin]/Pr_B[bin]) from counts ca, cb (dir 1: the
 * reverse ratio, counts swapped by the caller); keeps the largest lower
 * bound in res. */
static void consider(keps_audit_result *res, int *seen, size_t bin, int dir, size_t ca, size_t cb,
                     size_t n, double alpha, const double *edges, size_t ne, int discrete)
{
    double loa, hia, lob, hib;
    keps_clopper_pearson(ca, n, alpha, &loa, &hia);
    keps_clopper_pearson(cb, n, alpha, &lob, &hib);
    double lower = log(loa / hib), upper = log(hia / lob);
    double hat = ca == 0 ? -INFINITY : cb == 0 ? INFINITY : log((double)ca / (double)cb);
    if (isfinite(hat) && hat > res->epsilon_hat)
        res->epsilon_hat = hat;
    res->one_sided_bins += dir == 0 && (ca == 0) != (cb == 0); /* counted once per bin */
    if (!*seen || lower > res->epsilon_lower) {
        *seen = 1;
        res->epsilon_lower = lower;
        res->epsilon_upper = upper;
        res->worst_bin = bin;
        res->worst_direction = dir;
        res->worst_hat = hat;
        res->worst_count_a = dir ? cb : ca;
        res->worst_count_b = dir ? ca : cb;
        if (discrete) {
            res->worst_lo = res->worst_hi = edges[bin];
        } else {
            res->worst_lo = bin == 0 ? -INFINITY : edges[bin - 1];
            res->worst_hi = bin == ne ? INFINITY : edges[bin];
        }
    }
}

int keps_audit_run(keps_rng *r, keps_audit_fn fn, void *ctx, const keps_audit_opts *o,
                   keps_audit_result *res, keps_error *err)
{
    size_t n = o->trials;
    memset(res, 0, sizeof *res);
    if (n < 10 || (!o->discrete && o->bins < 2) || !(o->alpha > 0 && o->alpha < 1) || !(o->epsilon >= 0))
        return keps_error_set(err, KEPS_EINPUT,
                              "audit needs trials >= 10, bins >= 2, 0 < alpha < 1 and a claimed epsilon >= 0");
    double *out = malloc(2 * n * sizeof *out), *sorted = malloc(2 * n * sizeof *sorted);
    double *edges = malloc(2 * n * sizeof *edges);
    size_t *count = NULL;
    int rc = KEPS_OK;
    if (!out || !sorted || !edges) {
        rc = keps_error_set(err, KEPS_ENOMEM, "out of memory for %zu audit trials", n);
        goto done;
    }
    for (size_t i = 0; i < 2 * n; i++) {
        int which = i >= n;
        if ((i & 0xffff) == 0)
            keps_progress("audit", (double)i, (double)(2 * n));
        if (fn(ctx, r, which, &out[i]) != 0 || isnan(out[i])) {
            rc = keps_error_set(err, KEPS_EJOB, "the audited mechanism failed on input %c", which ? 'B' : 'A');
            goto done;
        }
    }
    memcpy(sorted, out, 2 * n * sizeof *out);
    qsort(sorted, 2 * n, sizeof *sorted, cmp_double);
    size_t ne = make_edges(sorted, 2 * n, o, edges);
    size_t nbins = o->discrete ? ne : ne + 1;
    count = calloc(2 * nbins, sizeof *count);
    if (!count) {
        rc = keps_error_set(err, KEPS_ENOMEM, "out of memory for %zu audit bins", nbins);
        goto done;
    }
    for (size_t i = 0; i < 2 * n; i++) {
        size_t b = bin_of(edges, ne, out[i]);
        if (o->discrete)
            b--; /* value edges[b-1] == out[i] */
        count[2 * b + (i >= n)]++;
    }
    /* 4 one-sided bounds per bin (lo and hi for each side): Bonferroni. */
    double alpha = o->alpha / (4.0 * (double)nbins);
    int seen = 0;
    for (size_t b = 0; b < nbins; b++) {
        consider(res, &seen, b, 0, count[2 * b], count[2 * b + 1], n, alpha, edges, ne, o->discrete);
        consider(res, &seen, b, 1, count[2 * b + 1], count[2 * b], n, alpha, edges, ne, o->discrete);
    }
    res->bins = nbins;
    res->trials = n;
    res->epsilon_claimed = o->epsilon;
    res->violation = res->epsilon_lower > o->epsilon;
done:
    free(out);
    free(sorted);
    free(edges);
    free(count);
    return rc;
}

void keps_audit_json(const keps_audit_result *res, keps_json *j, const char *key)
{
    keps_json_object(j, key);
    keps_json_num(j, "epsilon_claimed", res->epsilon_claimed);
    keps_json_num(j, "epsilon_hat", res->epsilon_hat);
    keps_json_num(j, "epsilon_lower", res->epsilon_lower);
    keps_json_num(j, "epsilon_upper", res->epsilon_upper);
    keps_json_bool(j, "violation", res->violation);
    keps_json_int(j, "trials", (long long)res->trials);
    keps_json_int(j, "bins", (long long)res->bins);
    keps_json_int(j, "one_sided_bins", (long long)res->one_sided_bins);
    keps_json_object(j, "worst_bin");
    keps_json_int(j, "index", (long long)res->worst_bin);
    keps_json_num(j, "lo", res->worst_lo);
    keps_json_num(j, "hi", res->worst_hi);
    keps_json_str(j, "direction", res->worst_direction ? "ln(B/A)" : "ln(A/B)");
    keps_json_num(j, "epsilon_hat", res->worst_hat); /* null when infinite */
    keps_json_int(j, "count_a", (long long)res->worst_count_a);
    keps_json_int(j, "count_b", (long long)res->worst_count_b);
    keps_json_end(j);
    keps_json_end(j);
}

/* ---- built-in mechanisms ---- */

int keps_audit_laplace_fn(void *ctx, keps_rng *r, int which, double *out)
{
    keps_audit_laplace *m = ctx;
    double f = m->scale_factor > 0 ? m->scale_factor : 1;
    *out = keps_laplace(r, which ? m->value_b : m->value_a, m->scale * f);
    return isnan(*out);
}

int keps_audit_geometric_fn(void *ctx, keps_rng *r, int which, double *out)
{
    keps_audit_geometric *m = ctx;
    int64_t y = keps_geometric_mech(r, which ? m->value_b : m->value_a, m->epsilon, m->sensitivity);
    *out = (double)y;
    return y == INT64_MIN; /* bad parameters */
}

int keps_audit_rr_fn(void *ctx, keps_rng *r, int which, double *out)
{
    keps_audit_rr *m = ctx;
    *out = keps_rr_sampler_apply(r, m->rr, which ? m->value_b : m->value_a);
    return 0;
}

int keps_audit_expmech_fn(void *ctx, keps_rng *r, int which, double *out)
{
    keps_audit_expmech *m = ctx;
    size_t i = keps_expmech(r, which ? m->u_b : m->u_a, m->n, m->epsilon, m->sensitivity);
    *out = (double)i;
    return i == (size_t)-1;
}
