/* Differentially private microaggregation (docs/spec.md 5). See include/keps/dpmicro.h. */
#include "keps/dpmicro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/mdav.h"
#include "keps/noise.h"
#include "keps/release.h"
#include "keps/risk.h"
#include "fp_up.h"
#include "release_internal.h"

double keps_dpmicro_scales(keps_dpm_mode mode, size_t n, size_t m, size_t k, double epsilon, const double *lo,
                           const double *hi, int paper_accounting, double *scale)
{
    double sum = 0, c = k > 1 ? (double)(n / k) : 1.0;
    for (size_t j = 0; j < m; j++)
        sum += hi[j] - lo[j];
    double sens = 0;
    for (size_t j = 0; j < m; j++) {
        double d = hi[j] - lo[j];
        if (paper_accounting)
            scale[j] = d / ((double)k * epsilon);
        else if (mode == KEPS_DPM_UNIVARIATE)
            scale[j] = (double)m * d / ((double)k * epsilon);
        else
            scale[j] = (sens = c * sum / (double)k) / epsilon;
    }
    return mode == KEPS_DPM_MULTIVARIATE ? sens : 0;
}

keps_status keps_dpmicro_data_bounds(const double *x, size_t n, size_t m, size_t j, double *lo, double *hi,
                                     keps_error *err)
{
    if (j >= m || (n > 0 && !x) || !lo || !hi)
        return keps_error_set(err, KEPS_EINPUT, "bounds from the data: attribute %zu of %zu, or no data", j, m);
    double mn = INFINITY, mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double v = x[i * m + j];
        if (!isfinite(v))
            return keps_error_set(err, KEPS_EINPUT, "bounds from the data: row %zu of attribute %zu is not finite",
                                  i, j);
        mn = fmin(mn, v);
        mx = fmax(mx, v);
    }
    double l = fmin(0.0, 1.5 * mn), h = fmax(0.0, 1.5 * mx);
    if (!(l < h))
        return keps_error_set(err, KEPS_EINPUT,
                              "attribute %zu is constant 0: bounds read from it are empty; give public bounds", j);
    *lo = l;
    *hi = h;
    return KEPS_OK;
}

void keps_dpmicro_result_free(keps_dpmicro_result *r)
{
    if (!r)
        return;
    free(r->out);
    free(r->scale);
    free(r->scale_used);
    free(r->epsilon_used);
    memset(r, 0, sizeof *r);
}

static keps_status check(const double *x, size_t n, size_t m, const keps_dpmicro_params *p, keps_error *err)
{
    /* an unknown mode would be scaled as one mode and accounted as the other */
    if ((unsigned)p->mode > KEPS_DPM_UNIVARIATE)
        return keps_error_set(err, KEPS_EINPUT,
                              "unknown DP microaggregation mode %d (expected multivariate or univariate)",
                              (int)p->mode);
    if (p->k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1");
    if (!(p->epsilon > 0) || !isfinite(p->epsilon))
        return keps_error_set(err, KEPS_EINPUT, "epsilon must be a positive number (got %g)", p->epsilon);
    if (m == 0)
        return keps_error_set(err, KEPS_EINPUT, "DP microaggregation needs at least one numeric attribute");
    if (!p->lo || !p->hi)
        return keps_error_set(err, KEPS_EINPUT, "DP microaggregation needs public bounds [lo, hi] per attribute");
    for (size_t j = 0; j < m; j++)
        if (!isfinite(p->lo[j]) || !isfinite(p->hi[j]) || !(p->lo[j] < p->hi[j]))
            return keps_error_set(err, KEPS_EINPUT, "attribute %zu: bounds [%g, %g] need finite lo < hi", j + 1,
                                  p->lo[j], p->hi[j]);
    for (size_t i = 0; i < n * m; i++)
        if (!isfinite(x[i]))
            return keps_error_set(err, KEPS_EINPUT, "record %zu, attribute %zu: not a finite number", i / m + 1,
                                  i % m + 1);
    if (n < p->k)
        return keps_error_set(err, KEPS_EJOB, "%zu records cannot form a cluster of k = %zu", n, p->k);
    return KEPS_OK;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Noisy centroids of one grouping (columns cols[0..mm) of the clamped data
 * y, row-major n x m): noise once per group and column, or once per record
 * with the paper's accounting. Writes out[i*m + col]. */
static keps_status release_groups(const keps_mdav_result *g, const size_t *cols, size_t mm, size_t m,
                                  const keps_dpmicro_params *p, const double *scale, keps_rng *rng, double *out)
{
    double *noisy = malloc((g->ngroups * mm > 0 ? g->ngroups * mm : 1) * sizeof *noisy);
    if (!noisy)
        return KEPS_ENOMEM;
    for (size_t c = 0; c < g->ngroups; c++)
        for (size_t a = 0; a < mm; a++)
            noisy[c * mm + a] = keps_laplace(rng, g->centroid[c * g->m + a], scale[cols[a]]);
    for (size_t i = 0; i < g->n; i++)
        for (size_t a = 0; a < mm; a++) {
            size_t j = cols[a];
            double v = p->paper_accounting ? keps_laplace(rng, g->centroid[g->group[i] * g->m + a], scale[j])
                                           : noisy[g->group[i] * mm + a];
            out[i * m + j] = clampd(v, p->lo[j], p->hi[j]);
        }
    free(noisy);
    return KEPS_OK;
}

/* Grouping of the clamped data: insensitive MDAV, or singletons for k = 1. */
static keps_status group(const double *y, size_t n, size_t m, const keps_dpmicro_params *p, const double *lo,
                         const double *hi, keps_mdav_result *g, keps_error *err)
{
    if (p->k > 1)
        return keps_mdav_insensitive(y, n, m, p->k, lo, hi, g, err);
    memset(g, 0, sizeof *g);
    g->n = n;
    g->m = m;
    g->k = 1;
    g->ngroups = n;
    g->group = malloc(n * sizeof *g->group);
    g->centroid = malloc(n * m * sizeof *g->centroid);
    if (!g->group || !g->centroid) {
        keps_mdav_result_free(g);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        g->group[i] = (uint32_t)i;
    memcpy(g->centroid, y, n * m * sizeof *y);
    return KEPS_OK;
}

static keps_status run_mode(const double *y, size_t n, size_t m, const keps_dpmicro_params *p, keps_rng *rng,
                            keps_dpmicro_result *r, keps_error *err)
{
    keps_mdav_result g;
    keps_status st;
    if (p->mode == KEPS_DPM_MULTIVARIATE) {
        size_t *cols = malloc(m * sizeof *cols);
        if (!cols)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        for (size_t j = 0; j < m; j++)
            cols[j] = j;
        st = group(y, n, m, p, p->lo, p->hi, &g, err);
        if (!st) {
            r->nclusters = g.ngroups;
            st = release_groups(&g, cols, m, m, p, r->scale_used, rng, r->out);
            keps_mdav_result_free(&g);
        }
        free(cols);
        return st == KEPS_ENOMEM ? keps_error_set(err, st, "out of memory") : st;
    }
    double *col = malloc(n * sizeof *col);
    if (!col)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    st = KEPS_OK;
    for (size_t j = 0; j < m && !st; j++) {
        keps_mdav_column(y, n, m, j, col);
        st = group(col, n, 1, p, p->lo + j, p->hi + j, &g, err);
        if (st)
            break;
        r->nclusters = g.ngroups;
        st = release_groups(&g, &j, 1, m, p, r->scale_used, rng, r->out);
        keps_mdav_result_free(&g);
        if (st)
            st = keps_error_set(err, st, "out of memory");
    }
    free(col);
    return st;
}

/* One part of the guarantee: L1 sensitivity *sens over *coords noisy
 * coordinates (keps_laplace_info_part), every bound rounded up. Multivariate
 * is one part: S = c sum D_j / k over c*m coordinates (k = 1: sum D_j over
 * the m coordinates of one record). Univariate has one part per attribute,
 * S = D_j/k over c coordinates (k = 1: D_j over one). */
static void part(const keps_dpmicro_params *p, size_t n, size_t m, size_t j, double *sens, double *coords)
{
    double c = p->k > 1 ? (double)(n / p->k) : 1.0;
    if (p->mode == KEPS_DPM_MULTIVARIATE) {
        double sum = 0;
        for (size_t a = 0; a < m; a++)
            sum = keps_add_up(sum, keps_sub_up(p->hi[a], p->lo[a]));
        *sens = p->k > 1 ? keps_div_up(keps_mul_up(c, sum), (double)p->k) : sum;
        *coords = c * (double)m;
    } else {
        double d = keps_sub_up(p->hi[j], p->lo[j]);
        *sens = p->k > 1 ? keps_div_up(d, (double)p->k) : d;
        *coords = c;
    }
}

/* The scales drawn with and the epsilon they guarantee, the grid rounding
 * included (keps/noise.h): each part's scale is calibrated so that its
 * stated epsilon is at most its budget, so the whole never exceeds
 * p->epsilon. Multivariate: one part with the whole budget (every
 * epsilon_used[j] is that one guarantee). Univariate: m parts of
 * epsilon/m each, rounded down, composed sequentially (the sum, rounded up;
 * should that land an ulp above the budget, the shares shrink and the
 * calibration runs again). The paper's accounting draws with its own
 * scales and states what they would cost, not a guarantee.
 * Returns 0, or -1 when the sampler cannot draw a scale that meets the
 * budget (NAN scales). */
static int calibrate(const keps_dpmicro_params *p, size_t n, size_t m, keps_dpmicro_result *r)
{
    double budget = p->mode == KEPS_DPM_MULTIVARIATE ? p->epsilon : p->epsilon / (double)m;
    if (p->mode != KEPS_DPM_MULTIVARIATE && fma(budget, (double)m, -p->epsilon) > 0)
        budget = nextafter(budget, 0); /* m shares of at most epsilon in all */
    for (int tries = 0; tries < 64; tries++) {
        double total = 0;
        for (size_t j = 0; j < m; j++) {
            double sens, coords;
            keps_noise_info info;
            part(p, n, m, j, &sens, &coords);
            r->scale_used[j] = p->paper_accounting ? r->scale[j] : keps_laplace_calibrate(sens, coords, budget);
            if (isnan(r->scale_used[j]) || keps_laplace_info_part(r->scale_used[j], sens, coords, &info) != 0)
                return -1;
            r->epsilon_used[j] = info.epsilon;
            total = p->mode == KEPS_DPM_MULTIVARIATE ? info.epsilon : keps_add_up(total, info.epsilon);
        }
        r->epsilon = total;
        if (p->paper_accounting || total <= p->epsilon)
            return 0;
        budget = budget * (1 - 0x1p-50);
    }
    return -1;
}

keps_status keps_dpmicro_run(const double *x, size_t n, size_t m, const keps_dpmicro_params *p, keps_rng *rng,
                             keps_dpmicro_result *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check(x, n, m, p, err);
    if (st)
        return st;
    keps_dpmicro_result *r = out;
    r->n = n;
    r->m = m;
    r->k = p->k;
    r->out = malloc(n * m * sizeof *r->out);
    r->scale = malloc(m * sizeof *r->scale);
    r->scale_used = malloc(m * sizeof *r->scale_used);
    r->epsilon_used = malloc(m * sizeof *r->epsilon_used);
    double *y = malloc(n * m * sizeof *y);
    if (!r->out || !r->scale || !r->scale_used || !r->epsilon_used || !y) {
        free(y);
        keps_dpmicro_result_free(r);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    /* the sensitivity rests on the domain: clamp the inputs into it */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) {
            double v = x[i * m + j], c = clampd(v, p->lo[j], p->hi[j]);
            r->clamped_inputs += c != v;
            y[i * m + j] = c;
        }
    r->sensitivity = keps_dpmicro_scales(p->mode, n, m, p->k, p->epsilon, p->lo, p->hi, p->paper_accounting,
                                         r->scale);
    if (calibrate(p, n, m, r) != 0)
        st = keps_error_set(err, KEPS_EJOB, /* valid inputs: the job cannot be done */
                            "epsilon %g gives Laplace scales (%g for the first attribute) that the sampler cannot "
                            "draw (it needs a finite scale of at least 2^-900); choose a moderate epsilon",
                            p->epsilon, r->scale[0]);
    if (!st)
        st = run_mode(y, n, m, p, rng, r, err);
    for (size_t j = 0; !st && p->digits && j < m; j++) /* output precision (post-processing) */
        keps_round_clamp(r->out + j, n, m, p->digits[j], p->lo[j], p->hi[j]);
    /* clamping keeps noisy centroids finite; this stays in case it ever does not */
    if (!st)
        st = keps_release_check_finite(r->out, n * m, "DP microaggregation output", err);
    free(y);
    if (st) {
        keps_dpmicro_result_free(r);
        return st;
    }
    for (size_t j = 0; j < m; j++) {
        double mu = 0, var = 0, e = 0;
        for (size_t i = 0; i < n; i++)
            mu += x[i * m + j] / (double)n;
        for (size_t i = 0; i < n; i++) {
            double d = x[i * m + j] - r->out[i * m + j];
            var += (x[i * m + j] - mu) * (x[i * m + j] - mu) / (double)n;
            e += d * d;
        }
        r->sse += e;
        r->sse_standardized += var > 0 ? e / var : 0;
    }
    if (keps_record_linkage(x, r->out, n, m, KEPS_RL_ORIGINAL, &r->record_linkage, NULL))
        r->record_linkage = NAN;
    if (keps_record_linkage(x, r->out, n, m, KEPS_RL_RELEASED, &r->record_linkage_released, NULL))
        r->record_linkage_released = NAN;
    /* the paper's per-copy noise has no finite epsilon we can state */
    if (p->paper_accounting)
        r->epsilon = INFINITY;
    /* univariate rows pair attribute-wise groups chosen by the data, unless
     * every group is one record (k = 1: the pairing is the record itself) */
    r->row_linked_dp = !p->paper_accounting && (p->mode == KEPS_DPM_MULTIVARIATE || m == 1 || p->k == 1);
    return KEPS_OK;
}

keps_status keps_dpmicro_unlink(keps_rng *rng, double *out, size_t n, size_t m)
{
    double *col = malloc((n ? n : 1) * sizeof *col);
    if (!col)
        return KEPS_ENOMEM;
    for (size_t j = 0; j < m; j++) {
        uint32_t *perm = keps_rng_permutation(rng, n);
        if (!perm) {
            free(col);
            return KEPS_ENOMEM;
        }
        for (size_t i = 0; i < n; i++)
            col[i] = out[perm[i] * m + j];
        for (size_t i = 0; i < n; i++)
            out[i * m + j] = col[i];
        free(perm);
    }
    free(col);
    return KEPS_OK;
}


/* One 32-byte buffer per attribute: a row's cells must coexist until the
 * row is appended (keps_release_build). */
typedef struct dpm_rel {
    const keps_dpmicro_result *r;
    const keps_table *t;
    int *attr_of;    /* [ncols] attribute index or -1 */
    char (*buf)[32]; /* [m] */
} dpm_rel;

static const char *dpm_cell(void *ctx, size_t row, size_t col)
{
    dpm_rel *c = ctx;
    int a = c->attr_of[col];
    if (a < 0)
        return NULL;
    keps_format_number_in(c->buf[a], sizeof c->buf[a], c->r->out[row * c->r->m + (size_t)a], c->t);
    return c->buf[a];
}

keps_status keps_dpmicro_release(const keps_schema *s, const size_t *cols, const keps_dpmicro_result *r,
                                 keps_table **release, keps_error *err)
{
    *release = NULL;
    size_t ncols = s->t->ncols;
    dpm_rel c = {r, s->t, malloc((ncols ? ncols : 1) * sizeof(int)), malloc((r->m ? r->m : 1) * sizeof *c.buf)};
    keps_status st = c.attr_of && c.buf ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_release_attr_columns(s, cols, r->n, r->m, c.attr_of, "dpmicro release", err);
    if (!st) /* keps_dpmicro_run checks; never release inf */
        st = keps_release_check_finite(r->out, r->n * r->m, "DP microaggregation output", err);
    if (!st)
        st = keps_release_build(s, dpm_cell, &c, release, err);
    free(c.attr_of);
    free(c.buf);
    return st;
}
