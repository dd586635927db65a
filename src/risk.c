/* Record linkage and prosecutor risk (see include/keps/risk.h). */
#include "keps/risk.h"

#include "dist.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RL_THREADS 2

/* A row of a row-major matrix, for sorting without a global context. */
typedef struct rowref {
    const double *row;
    uint32_t m, idx;
} rowref;

static int cmp_rowref(const void *a, const void *b)
{
    const rowref *x = a, *y = b;
    for (uint32_t j = 0; j < x->m; j++)
        if (x->row[j] != y->row[j])
            return x->row[j] < y->row[j] ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

typedef struct rl_job {
    const double *q;       /* [n*m] standardized query records, row-major */
    const double *u;       /* [m*nu] distinct standardized targets, column-major */
    const uint32_t *mult;  /* [nu] how many target rows each distinct one stands for */
    const uint32_t *of;    /* [n] distinct target of target row i */
    size_t n, m, nu;
    double *contrib;       /* [n] */
    size_t lo, hi;
} rl_job;

#define RL_BLOCK 256

/* Query i's contribution: 1/|G| if its own target is among the nearest. */
static ALWAYS_INLINE double rl_query(const rl_job *j, size_t i, size_t m)
{
    double dbuf[RL_BLOCK];
    const double *qi = j->q + i * m;
    size_t own = j->of[i];
    double best = INFINITY, d_own = INFINITY, count = 0;
    for (size_t b0 = 0; b0 < j->nu; b0 += RL_BLOCK) {
        size_t nb = j->nu - b0 < RL_BLOCK ? j->nu - b0 : RL_BLOCK;
        dist_block(j->u + b0, j->nu, qi, m, nb, dbuf);
        const uint32_t *mult = j->mult + b0;
        for (size_t t = 0; t < nb; t++) {
            double d = dbuf[t];
            if (d < best) {
                best = d;
                count = mult[t];
            } else if (d == best) {
                count += mult[t];
            }
        }
        if (own >= b0 && own < b0 + nb)
            d_own = dbuf[own - b0];
    }
    return d_own == best ? 1.0 / count : 0.0;
}

static void *rl_worker(void *arg)
{
    rl_job *j = arg;
    for (size_t i = j->lo; i < j->hi; i++) {
        switch (j->m) { /* constant m lets the compiler unroll the kernel */
        case 1: j->contrib[i] = rl_query(j, i, 1); break;
        case 2: j->contrib[i] = rl_query(j, i, 2); break;
        case 3: j->contrib[i] = rl_query(j, i, 3); break;
        case 4: j->contrib[i] = rl_query(j, i, 4); break;
        default: j->contrib[i] = rl_query(j, i, j->m); break;
        }
    }
    return NULL;
}

/* z = (x - mean) / sd with the original's moments; attributes with sd = 0
 * are dropped (they carry no distance). Returns the kept attribute count. */
static size_t standardize(const double *orig, const double *rel, size_t n, size_t m, double *zo, double *zr)
{
    size_t kept = 0;
    for (size_t j = 0; j < m; j++) {
        double mu, sd;
        column_moments(orig, n, m, j, &mu, &sd);
        if (!(sd > 0))
            continue;
        for (size_t i = 0; i < n; i++) {
            zo[i * m + kept] = (orig[i * m + j] - mu) / sd;
            zr[i * m + kept] = (rel[i * m + j] - mu) / sd;
        }
        kept++;
    }
    return kept;
}

static keps_status linkage(const double *q, const double *t, size_t n, size_t m, double *rl, keps_error *err)
{
    rowref *r = malloc(n * sizeof *r);
    uint32_t *of = malloc(n * sizeof *of), *mult = malloc(n * sizeof *mult);
    double *u = malloc(n * m * sizeof *u), *contrib = malloc(n * sizeof *contrib);
    if (!r || !of || !mult || !u || !contrib) {
        free(r), free(of), free(mult), free(u), free(contrib);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        r[i] = (rowref){t + i * m, (uint32_t)m, (uint32_t)i};
    qsort(r, n, sizeof *r, cmp_rowref);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || memcmp(r[i].row, r[i - 1].row, m * sizeof(double)) != 0)
            mult[nu++] = 0;
        mult[nu - 1]++;
        of[r[i].idx] = (uint32_t)(nu - 1);
    }
    /* the distinct targets, column-major for the kernel */
    for (size_t i = 0, v = 0; i < n; i++) {
        if (i > 0 && memcmp(r[i].row, r[i - 1].row, m * sizeof(double)) == 0)
            continue;
        for (size_t a = 0; a < m; a++)
            u[a * nu + v] = r[i].row[a];
        v++;
    }
    rl_job jobs[RL_THREADS];
    pthread_t th[RL_THREADS];
    int started[RL_THREADS] = {0};
    for (int k = 0; k < RL_THREADS; k++) {
        jobs[k] = (rl_job){q, u, mult, of, n, m, nu, contrib, n * (size_t)k / RL_THREADS,
                           n * (size_t)(k + 1) / RL_THREADS};
        if (k > 0)
            started[k] = pthread_create(&th[k], NULL, rl_worker, &jobs[k]) == 0;
    }
    rl_worker(&jobs[0]);
    for (int k = 1; k < RL_THREADS; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            rl_worker(&jobs[k]);
    }
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += contrib[i];
    *rl = s / (double)n;
    free(r), free(of), free(mult), free(u), free(contrib);
    return KEPS_OK;
}

keps_status keps_record_linkage(const double *orig, const double *rel, size_t n, size_t m,
                                keps_rl_direction dir, double *rl, keps_error *err)
{
    *rl = 0;
    /* an unknown direction would silently run the paper's */
    if ((unsigned)dir > KEPS_RL_RELEASED)
        return keps_error_set(err, KEPS_EINPUT, "unknown record-linkage direction %d (expected original or released)",
                              (int)dir);
    if (n == 0 || m == 0)
        return keps_error_set(err, KEPS_EINPUT, "record linkage needs at least one record and one attribute");
    if (n >= UINT32_MAX)
        return keps_error_set(err, KEPS_EINPUT, "too many records for record linkage (%zu)", n);
    for (size_t i = 0; i < n * m; i++)
        if (!isfinite(orig[i]) || !isfinite(rel[i]))
            return keps_error_set(err, KEPS_EINPUT, "record %zu, attribute %zu is not a finite number", i / m + 1,
                                  i % m + 1);
    double *zo = malloc(n * m * sizeof *zo), *zr = malloc(n * m * sizeof *zr);
    if (!zo || !zr) {
        free(zo), free(zr);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    size_t kept = standardize(orig, rel, n, m, zo, zr);
    keps_status st = KEPS_OK;
    if (kept == 0) {
        /* every attribute constant: all records tie, |G| = n */
        *rl = 1.0 / (double)n;
    } else if (kept < m) {
        /* compact the rows to the kept attributes */
        for (size_t i = 0; i < n; i++) {
            memmove(zo + i * kept, zo + i * m, kept * sizeof *zo);
            memmove(zr + i * kept, zr + i * m, kept * sizeof *zr);
        }
    }
    if (kept > 0)
        st = dir == KEPS_RL_ORIGINAL ? linkage(zo, zr, n, kept, rl, err) : linkage(zr, zo, n, kept, rl, err);
    free(zo);
    free(zr);
    return st;
}

/* ---- prosecutor risk ---- */

keps_status keps_prosecutor_risk(const keps_table *t, const size_t *cols, size_t m, keps_suppressed_mode mode,
                                 keps_prosecutor *out, keps_error *err)
{
    static const size_t lim[3] = {2, 5, 10};
    memset(out, 0, sizeof *out);
    if (t->nrows == 0)
        return KEPS_OK;
    if (m == 0) { /* nothing released on the QIs: one class of everyone */
        out->records = t->nrows;
        out->classes = 1;
        out->max = out->avg = 1.0 / (double)t->nrows;
        for (int b = 0; b < 3; b++)
            out->below[b] = t->nrows < lim[b];
        return KEPS_OK;
    }
    keps_classes ec;
    keps_status st = keps_classes_build(t, cols, m, mode, &ec, err);
    if (st)
        return st;
    size_t smallest = SIZE_MAX, in_small[3] = {0, 0, 0};
    out->suppressed = ec.suppressed;
    out->all_star = ec.all_star;
    out->classes = ec.nclasses;
    for (size_t c = 0; c < ec.nclasses; c++) {
        size_t sz = ec.size[c];
        out->records += sz;
        smallest = sz < smallest ? sz : smallest;
        for (int b = 0; b < 3; b++)
            in_small[b] += sz < lim[b] ? sz : 0;
    }
    keps_classes_free(&ec);
    if (out->records == 0) /* every row suppressed */
        return KEPS_OK;
    out->max = 1.0 / (double)smallest;
    out->avg = (double)out->classes / (double)out->records; /* sum over records of 1/|EC| = classes */
    for (int b = 0; b < 3; b++)
        out->below[b] = (double)in_small[b] / (double)out->records;
    return KEPS_OK;
}
