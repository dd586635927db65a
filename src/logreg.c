/* L2-regularized logistic regression by Newton's method (see logreg.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/logreg.h"

#define MAX_NEWTON 100
#define STEP_TOL 1e-9

double keps_logreg_margin(const double *w, size_t nfeat, const uint32_t *idx, const double *val, size_t nnz)
{
    double z = w[nfeat];
    for (size_t e = 0; e < nnz; e++)
        z += w[idx[e]] * val[e];
    return z;
}

/* log(1 + exp(-m)) without overflow. */
static double log1pexp_neg(double m)
{
    return m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m));
}

static double objective(const keps_sparse *x, const uint8_t *y, double c, const double *w)
{
    double j = 0;
    for (size_t f = 0; f < x->nfeat; f++)
        j += 0.5 * w[f] * w[f];
    for (size_t i = 0; i < x->nrows; i++) {
        size_t s = x->start[i];
        double m = keps_logreg_margin(w, x->nfeat, x->idx + s, x->val + s, x->start[i + 1] - s);
        j += c * log1pexp_neg(y[i] ? m : -m);
    }
    return j;
}

/* In-place Cholesky of the SPD matrix a (d x d, row-major, lower part
 * used), then solves a x = b into b. Returns 0, or -1 if not SPD. */
static int cholesky_solve(double *a, double *b, size_t d)
{
    for (size_t j = 0; j < d; j++) {
        double s = a[j * d + j];
        for (size_t k = 0; k < j; k++)
            s -= a[j * d + k] * a[j * d + k];
        if (!(s > 0))
            return -1;
        double l = sqrt(s);
        a[j * d + j] = l;
        for (size_t i = j + 1; i < d; i++) {
            double t = a[i * d + j];
            for (size_t k = 0; k < j; k++)
                t -= a[i * d + k] * a[j * d + k];
            a[i * d + j] = t / l;
        }
    }
    for (size_t i = 0; i < d; i++) { /* L z = b */
        double t = b[i];
        for (size_t k = 0; k < i; k++)
            t -= a[i * d + k] * b[k];
        b[i] = t / a[i * d + i];
    }
    for (size_t i = d; i-- > 0;) { /* L^T x = z */
        double t = b[i];
        for (size_t k = i + 1; k < d; k++)
            t -= a[k * d + i] * b[k];
        b[i] = t / a[i * d + i];
    }
    return 0;
}

/* Gradient g and Hessian h (lower triangle) of J at w. The intercept is
 * feature d-1 = nfeat, with an implicit value 1 in every row. */
static void grad_hess(const keps_sparse *x, const uint8_t *y, double c, const double *w, double *g, double *h)
{
    size_t nf = x->nfeat, d = nf + 1;
    memset(h, 0, d * d * sizeof *h);
    for (size_t f = 0; f < nf; f++) {
        g[f] = w[f];
        h[f * d + f] = 1.0;
    }
    g[nf] = 0;
    h[nf * d + nf] = 1e-12; /* keeps the solve defined when one class is absent */
    for (size_t i = 0; i < x->nrows; i++) {
        size_t s = x->start[i], nnz = x->start[i + 1] - s;
        const uint32_t *ix = x->idx + s;
        const double *v = x->val + s;
        double m = keps_logreg_margin(w, nf, ix, v, nnz);
        double p = 1.0 / (1.0 + exp(-m));
        double r = c * (p - (y[i] ? 1.0 : 0.0)), q = c * p * (1.0 - p);
        g[nf] += r;
        h[nf * d + nf] += q;
        for (size_t a = 0; a < nnz; a++) {
            size_t fa = ix[a];
            g[fa] += r * v[a];
            h[nf * d + fa] += q * v[a];
            for (size_t b = 0; b < nnz; b++) {
                size_t fb = ix[b];
                if (fb <= fa)
                    h[fa * d + fb] += q * v[a] * v[b];
            }
        }
    }
}

keps_status keps_logreg_fit(const keps_sparse *x, const uint8_t *y, double c, double *w, keps_error *err)
{
    size_t d = x->nfeat + 1;
    if (x->nfeat > KEPS_LOGREG_MAX_FEATURES)
        return keps_error_set(err, KEPS_EINPUT,
                              "%zu features after one-hot encoding (at most %d): leave out high-cardinality "
                              "columns (ignore them)",
                              x->nfeat, KEPS_LOGREG_MAX_FEATURES);
    double *h = malloc(d * d * sizeof *h), *g = malloc(d * sizeof *g), *wn = malloc(d * sizeof *wn);
    keps_status st = KEPS_OK;
    if (!h || !g || !wn) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory for a %zu-feature logistic regression", d);
        goto out;
    }
    memset(w, 0, d * sizeof *w);
    double jw = objective(x, y, c, w);
    for (int it = 0; it < MAX_NEWTON; it++) {
        grad_hess(x, y, c, w, g, h);
        if (cholesky_solve(h, g, d)) {
            /* One-hot columns are collinear with the intercept; only the
             * L2 term (weight 1/C against the data's C) keeps H definite. */
            st = keps_error_set(err, KEPS_EINPUT,
                                "logistic regression: singular Hessian with C = %g: too little regularization for "
                                "these features; choose a smaller C (the default is 1)",
                                c);
            goto out;
        }
        /* Newton direction is -g; halve the step until J decreases. */
        double t = 1.0, jn = jw, maxstep = 0;
        for (int ls = 0; ls < 40; ls++, t *= 0.5) {
            for (size_t f = 0; f < d; f++)
                wn[f] = w[f] - t * g[f];
            jn = objective(x, y, c, wn);
            if (jn <= jw)
                break;
        }
        for (size_t f = 0; f < d; f++) {
            maxstep = fmax(maxstep, fabs(wn[f] - w[f]));
            w[f] = wn[f];
        }
        double dec = jw - jn;
        jw = jn;
        if (maxstep < STEP_TOL || dec <= 1e-14 * fabs(jw))
            break;
    }
out:
    free(h);
    free(g);
    free(wn);
    return st;
}
