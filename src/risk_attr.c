/* Risk per combination of quasi-identifiers (distinction, separation,
 * sample uniques, individual risk) and the individual risk of every record
 * (Benedetti & Franconi, as sdcMicro computes it). See include/keps/risk.h. */
#include "keps/risk.h"

#include "keps/progress.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t keps_combinations(size_t m, size_t max_size)
{
    size_t total = 0, c = 1; /* c = C(m, k) */
    for (size_t k = 1; k <= max_size && k <= m; k++) {
        /* C(m,k) = C(m,k-1) * (m-k+1) / k, exact in this order */
        if (c > SIZE_MAX / (m - k + 1))
            return SIZE_MAX;
        c = c * (m - k + 1) / k;
        if (total > SIZE_MAX - c)
            return SIZE_MAX;
        total += c;
    }
    return total;
}

/* Risk of a record in a class of f records whose weights sum to F
 * (sdcMicro's indivRisk, method "approx"; no weights: F = f). */
static double bf_risk(double f, double F)
{
    if (f == F)
        return 1 / f;
    double p = f / F, o = p / (1 - p);
    if (f == 1)
        return o * log(1 / p);
    if (f == 2)
        return o - o * o * log(1 / p);
    return p / (f - (1 - p));
}

static keps_status check_weights(const keps_table *t, const double *w, keps_error *err)
{
    for (size_t r = 0; w && r < t->nrows; r++)
        if (!(w[r] > 0) || !isfinite(w[r]))
            return keps_error_at(err, KEPS_EINPUT, t->source, t->row_line ? t->row_line[r] : 0, 0,
                                 "sampling weight %g of row %zu: weights must be positive finite numbers", w[r],
                                 r + 1);
    return KEPS_OK;
}

/* Per-class individual risk on classes ec: risk[c]. */
static keps_status class_risks(const keps_partition *ec, const double *w, double **risk, keps_error *err)
{
    double *F = calloc(ec->nclasses + 1, sizeof *F);
    if (!F)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (w) {
        for (size_t r = 0; r < ec->nrows; r++)
            if (ec->class_of[r] != KEPS_NONE)
                F[ec->class_of[r]] += w[r];
    }
    for (size_t c = 0; c < ec->nclasses; c++)
        F[c] = bf_risk(ec->count[c], w ? F[c] : ec->count[c]);
    *risk = F;
    return KEPS_OK;
}

keps_status keps_individual_risk_compute(const keps_table *t, const size_t *cols, size_t m, const double *weights,
                                         keps_suppressed_mode mode, keps_individual_risk *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_weights(t, weights, err);
    if (st)
        return st;
    keps_partition ec;
    if ((st = keps_partition_from_release(t, cols, m, mode, NULL, &ec, NULL, err)))
        return st;
    double *cr = NULL;
    st = class_risks(&ec, weights, &cr, err);
    out->rows = t->nrows;
    out->weighted = weights != NULL;
    out->risk = malloc((t->nrows ? t->nrows : 1) * sizeof *out->risk);
    if (!st && !out->risk)
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t r = 0; !st && r < t->nrows; r++) {
        uint32_t c = ec.class_of[r];
        out->risk[r] = c == KEPS_NONE ? NAN : cr[c];
        if (c == KEPS_NONE)
            continue;
        out->records++;
        out->sum += cr[c];
        out->highest = cr[c] > out->highest ? cr[c] : out->highest;
    }
    out->mean = out->records ? out->sum / (double)out->records : 0;
    free(cr);
    keps_partition_free(&ec);
    if (st)
        keps_individual_risk_free(out);
    return st;
}

void keps_individual_risk_free(keps_individual_risk *r)
{
    free(r->risk);
    r->risk = NULL;
}

/* Figures of one combination: the columns cols[pos[0..k)]. */
static keps_status one_combination(const keps_table *t, const size_t *cols, const double *w,
                                   keps_suppressed_mode mode, size_t *sel, keps_combination_risk *c, keps_error *err)
{
    for (size_t j = 0; j < c->size; j++)
        sel[j] = cols[c->pos[j]];
    keps_partition ec;
    keps_status st = keps_partition_from_release(t, sel, c->size, mode, NULL, &ec, NULL, err);
    if (st)
        return st;
    double *cr = NULL;
    st = class_risks(&ec, w, &cr, err);
    double n = 0, same_pairs = 0;
    for (size_t k = 0; !st && k < ec.nclasses; k++) {
        double f = ec.count[k];
        n += f;
        same_pairs += f * (f - 1) / 2;
        c->uniques += ec.count[k] == 1;
        c->risk_sum += f * cr[k];
    }
    c->records = (size_t)n;
    c->classes = ec.nclasses;
    c->distinction = n > 0 ? (double)ec.nclasses / n : 0;
    double pairs = n * (n - 1) / 2;
    c->separation = pairs > 0 ? (pairs - same_pairs) / pairs : 0;
    c->risk_mean = n > 0 ? c->risk_sum / n : 0;
    free(cr);
    keps_partition_free(&ec);
    return st;
}

keps_status keps_attribute_risks_compute(const keps_table *t, const size_t *cols, size_t m, size_t max_size,
                                         const double *weights, keps_suppressed_mode mode,
                                         keps_attribute_risks *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (m == 0 || max_size == 0 || max_size > m)
        return keps_error_set(err, KEPS_EINPUT,
                              "combination size %zu of %zu quasi-identifiers: expected 1 to the number of them",
                              max_size, m);
    keps_status st = check_weights(t, weights, err);
    if (st)
        return st;
    size_t n = keps_combinations(m, max_size);
    if (n > (size_t)1 << 24)
        return keps_error_set(err, KEPS_EINPUT,
                              "%zu quasi-identifiers have more than 16 million combinations of up to %zu: give a "
                              "smaller combination size",
                              m, max_size);
    size_t npos = 0; /* sum over sizes k of k * C(m,k) */
    for (size_t k = 1, c = 1; k <= max_size; k++) {
        c = c * (m - k + 1) / k;
        npos += k * c;
    }
    out->c = calloc(n, sizeof *out->c);
    out->posbuf = malloc(npos * sizeof *out->posbuf);
    size_t *sel = malloc(m * sizeof *sel), *idx = malloc(m * sizeof *idx);
    if (!out->c || !out->posbuf || !sel || !idx) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto done;
    }
    size_t *p = out->posbuf;
    for (size_t k = 1; k <= max_size && !st; k++) {
        for (size_t j = 0; j < k; j++) /* first k-subset in lexicographic order */
            idx[j] = j;
        for (;;) {
            keps_combination_risk *c = &out->c[out->n++];
            memcpy(p, idx, k * sizeof *p);
            c->size = k;
            c->pos = p;
            p += k;
            if ((st = one_combination(t, cols, weights, mode, sel, c, err)))
                break;
            keps_progress("attribute combinations", (double)out->n, (double)n);
            size_t j = k; /* next: the rightmost position that can move */
            while (j > 0 && idx[j - 1] == m - k + j - 1)
                j--;
            if (j == 0)
                break;
            idx[j - 1]++;
            for (size_t l = j; l < k; l++)
                idx[l] = idx[l - 1] + 1;
        }
    }
done:
    free(sel);
    free(idx);
    if (st)
        keps_attribute_risks_free(out);
    return st;
}

void keps_attribute_risks_free(keps_attribute_risks *a)
{
    free(a->c);
    free(a->posbuf);
    memset(a, 0, sizeof *a);
}
