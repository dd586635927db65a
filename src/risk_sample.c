/* Re-identification risk of a table as ARX 3.9.2 computes it: class-size
 * distribution, prosecutor, journalist and marketer risk, sample uniques
 * (see include/keps/risk.h). */
#include "keps/risk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double band_upper[KEPS_RISK_BANDS] = {
    1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01,  0.02,  0.03,  0.04, 0.05,  0.06,
    0.07, 0.08, 0.09, 0.1,  0.125, 0.143, 0.167, 0.2, 0.25, 0.334, 0.5, 1};

double keps_risk_band_upper(int b)
{
    return b >= 0 && b < KEPS_RISK_BANDS ? band_upper[b] : NAN;
}

int keps_risk_band(double risk)
{
    int b = 0;
    while (b < KEPS_RISK_BANDS - 1 && risk > band_upper[b])
        b++;
    return b;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts sizes[0..n) and folds them into h (counts[i] classes of sizes[i];
 * counts NULL = one each). */
static keps_status fold_sizes(uint32_t *pairs, size_t n, keps_class_sizes *h, keps_error *err)
{
    memset(h, 0, sizeof *h);
    qsort(pairs, n, 2 * sizeof *pairs, cmp_u32);
    h->size = malloc((n ? n : 1) * sizeof *h->size);
    h->count = malloc((n ? n : 1) * sizeof *h->count);
    if (!h->size || !h->count) {
        keps_class_sizes_free(h);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t s = pairs[2 * i], c = pairs[2 * i + 1];
        if (s == 0 || c == 0)
            continue;
        if (h->n && h->size[h->n - 1] == s) {
            h->count[h->n - 1] += c;
        } else {
            h->size[h->n] = s;
            h->count[h->n++] = c;
        }
        h->records += (size_t)s * c;
        h->classes += c;
    }
    return KEPS_OK;
}

keps_status keps_class_sizes_make(const uint32_t *size, const uint32_t *count, size_t n, keps_class_sizes *out,
                                  keps_error *err)
{
    uint32_t *pairs = malloc((n ? n : 1) * 2 * sizeof *pairs);
    if (!pairs) {
        memset(out, 0, sizeof *out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        pairs[2 * i] = size[i], pairs[2 * i + 1] = count ? count[i] : 1;
    keps_status st = fold_sizes(pairs, n, out, err);
    free(pairs);
    return st;
}

keps_status keps_class_sizes_of(const keps_partition *p, keps_class_sizes *out, keps_error *err)
{
    return keps_class_sizes_make(p->count, NULL, p->nclasses, out, err);
}

void keps_class_sizes_free(keps_class_sizes *h)
{
    free(h->size);
    free(h->count);
    memset(h, 0, sizeof *h);
}

/* ---- classes of the population table, looked up by value ---- */

typedef struct pop_index {
    keps_partition ec;
    uint32_t *slot; /* open addressing over the classes' code tuples */
    size_t nslots;
} pop_index;

static uint32_t tuple_hash(const uint32_t *codes, size_t m)
{
    uint32_t h = 2166136261u;
    for (size_t j = 0; j < m; j++) {
        h ^= codes[j];
        h *= 16777619u;
        h ^= h >> 15;
    }
    return h;
}

static keps_status pop_index_build(const keps_table *p, const size_t *pcols, size_t m, pop_index *x, keps_error *err)
{
    memset(x, 0, sizeof *x);
    keps_status st = keps_partition_from_release(p, pcols, m, KEPS_SUPPRESSED_CLASS, NULL, &x->ec, NULL, err);
    if (st)
        return st;
    x->nslots = 16;
    while (x->nslots < 2 * x->ec.nclasses)
        x->nslots *= 2;
    uint32_t *codes = malloc(m * sizeof *codes);
    x->slot = malloc(x->nslots * sizeof *x->slot);
    if (!codes || !x->slot) {
        free(codes);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    memset(x->slot, 0xff, x->nslots * sizeof *x->slot);
    for (size_t c = 0; c < x->ec.nclasses; c++) {
        for (size_t j = 0; j < m; j++)
            codes[j] = p->cols[pcols[j]].codes[x->ec.first_row[c]];
        size_t i = tuple_hash(codes, m) & (x->nslots - 1);
        while (x->slot[i] != KEPS_NONE)
            i = (i + 1) & (x->nslots - 1);
        x->slot[i] = (uint32_t)c;
    }
    free(codes);
    return KEPS_OK;
}

/* Population class of the values of row r of t, or KEPS_NONE. codes: [m] scratch. */
static uint32_t pop_lookup(const pop_index *x, const keps_table *p, const size_t *pcols, const keps_table *t,
                           const size_t *cols, size_t m, size_t r, uint32_t *codes)
{
    for (size_t j = 0; j < m; j++) {
        const char *v = keps_table_str(t, cols[j], r);
        if ((codes[j] = keps_table_lookup(p, pcols[j], v, strlen(v))) == KEPS_NONE)
            return KEPS_NONE;
    }
    size_t i = tuple_hash(codes, m) & (x->nslots - 1);
    for (; x->slot[i] != KEPS_NONE; i = (i + 1) & (x->nslots - 1)) {
        uint32_t c = x->slot[i], r0 = x->ec.first_row[c];
        size_t j = 0;
        while (j < m && p->cols[pcols[j]].codes[r0] == codes[j])
            j++;
        if (j == m)
            return c;
    }
    return KEPS_NONE;
}

static void pop_index_free(pop_index *x)
{
    keps_partition_free(&x->ec);
    free(x->slot);
}

/* Journalist and marketer risk against the population: F_c for each class
 * of ec (t's classes). */
static keps_status against_population(const keps_table *t, const size_t *cols, size_t m, const keps_partition *ec,
                                      const keps_table *p, const size_t *pcols, keps_sample_risk *out,
                                      keps_error *err)
{
    pop_index x;
    keps_status st = pop_index_build(p, pcols, m, &x, err);
    uint32_t *codes = malloc(m * sizeof *codes);
    if (!st && !codes)
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    double min_pop = INFINITY, sum_pop = 0, ratio = 0, at_min = 0;
    for (size_t c = 0; !st && c < ec->nclasses; c++) {
        size_t r = ec->first_row[c];
        uint32_t pc = pop_lookup(&x, p, pcols, t, cols, m, r, codes);
        double F = pc == KEPS_NONE ? 0 : x.ec.count[pc], f = ec->count[c];
        if (F < f) {
            st = keps_table_cell_error(err, t, cols[0], r,
                                       "these quasi-identifier values occur %.0f time%s in %s but %.0f time%s in "
                                       "the population %s: the population must hold every record of the file, "
                                       "generalized the same way",
                                       f, f == 1 ? "" : "s", t->source, F, F == 1 ? "" : "s", p->source);
            break;
        }
        if (F < min_pop)
            min_pop = F, at_min = 0;
        if (F == min_pop)
            at_min += f;
        sum_pop += F;
        ratio += f / F;
    }
    if (!st && ec->nclasses) {
        double n = (double)out->records;
        out->journalist_highest = 1 / min_pop;
        out->journalist_share_at_highest = at_min / n;
        double a1 = (double)ec->nclasses / sum_pop, a2 = ratio / n;
        out->journalist_average = a1 > a2 ? a1 : a2;
        out->marketer_average = ratio / n;
    }
    free(codes);
    pop_index_free(&x);
    return st;
}

keps_status keps_sample_risk_compute(const keps_table *t, const size_t *cols, size_t m, keps_suppressed_mode mode,
                                     const keps_table *population, const size_t *pcols, keps_sample_risk *out,
                                     keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_partition ec;
    keps_status st = keps_partition_from_release(t, cols, m, mode, NULL, &ec, &out->suppressed, err);
    if (st)
        return st;
    out->rows = t->nrows;
    st = keps_class_sizes_of(&ec, &out->sizes, err);
    const keps_class_sizes *h = &out->sizes;
    out->records = h->records;
    if (!st && h->n) {
        double n = (double)h->records;
        uint32_t lo = h->size[0], hi = h->size[h->n - 1];
        out->prosecutor_highest = 1.0 / lo;
        out->prosecutor_share_at_highest = (double)lo * h->count[0] / n;
        out->prosecutor_lowest = 1.0 / hi;
        out->prosecutor_share_at_lowest = (double)hi * h->count[h->n - 1] / n;
        out->prosecutor_average = (double)h->classes / n;
        out->unique_records = lo == 1 ? h->count[0] : 0;
        out->sample_uniques = (double)out->unique_records / n;
        for (size_t i = 0; i < h->n; i++) {
            out->band_share[keps_risk_band(1.0 / h->size[i])] += (double)h->size[i] * h->count[i] / n;
        }
        /* without a population table the file is its own population */
        out->journalist_highest = out->prosecutor_highest;
        out->journalist_average = out->prosecutor_average;
        out->journalist_share_at_highest = out->prosecutor_share_at_highest;
        out->marketer_average = out->prosecutor_average;
    }
    if (!st && population) {
        out->population_table = 1;
        out->population_rows = population->nrows;
        if (h->n)
            st = against_population(t, cols, m, &ec, population, pcols, out, err);
    }
    keps_partition_free(&ec);
    if (st)
        keps_sample_risk_free(out);
    return st;
}

void keps_sample_risk_free(keps_sample_risk *r)
{
    keps_class_sizes_free(&r->sizes);
}

void keps_risk_bands_json(keps_json *j, const char *key, const double *share)
{
    keps_json_array(j, key);
    for (int b = 0; b < KEPS_RISK_BANDS; b++) {
        keps_json_object(j, NULL);
        keps_json_num(j, "above", b ? keps_risk_band_upper(b - 1) : 0);
        keps_json_num(j, "up_to", keps_risk_band_upper(b));
        keps_json_num(j, "records", share[b]);
        keps_json_end(j);
    }
    keps_json_end(j);
}

void keps_sample_risk_json(keps_json *j, const keps_sample_risk *s, const char *population)
{
    keps_json_object(j, "prosecutor");
    keps_json_num(j, "highest", s->prosecutor_highest);
    keps_json_num(j, "average", s->prosecutor_average);
    keps_json_num(j, "share_at_highest", s->prosecutor_share_at_highest);
    keps_json_num(j, "lowest", s->prosecutor_lowest);
    keps_json_num(j, "share_at_lowest", s->prosecutor_share_at_lowest);
    keps_json_end(j);
    keps_json_object(j, "journalist");
    keps_json_num(j, "highest", s->journalist_highest);
    keps_json_num(j, "average", s->journalist_average);
    keps_json_num(j, "share_at_highest", s->journalist_share_at_highest);
    if (s->population_table) {
        keps_json_str(j, "population", population ? population : "");
        keps_json_int(j, "population_rows", (long long)s->population_rows);
    } else {
        keps_json_null(j, "population");
    }
    keps_json_end(j);
    keps_json_object(j, "marketer");
    keps_json_num(j, "average", s->marketer_average);
    keps_json_end(j);
    keps_json_num(j, "sample_uniques", s->sample_uniques);
    keps_json_int(j, "sample_unique_records", (long long)s->unique_records);
    keps_json_object(j, "classes");
    for (size_t i = 0; i < s->sizes.n; i++) {
        char k[16];
        snprintf(k, sizeof k, "%u", (unsigned)s->sizes.size[i]);
        keps_json_int(j, k, (long long)s->sizes.count[i]);
    }
    keps_json_end(j);
    keps_json_int(j, "class_count", (long long)s->sizes.classes);
    keps_risk_bands_json(j, "risk_distribution", s->band_share);
}
