/* Syntactic privacy models on a released table (models.h). Every loop over
 * rows works on dictionary codes; strings are looked at once per value. */
#include "keps/models.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9

int keps_entropy_l_holds(double min_entropy_l, double l)
{
    return min_entropy_l >= l * (1.0 - TOL);
}

int keps_t_closeness_holds(double max_emd, double t)
{
    return max_emd <= t + TOL * (t > 1.0 ? t : 1.0);
}

double keps_emd_equal(const double *p, const double *q, size_t m)
{
    double s = 0;
    for (size_t i = 0; i < m; i++)
        s += fabs(p[i] - q[i]);
    return s / 2;
}

double keps_emd_ordered(const double *p, const double *q, size_t m)
{
    if (m < 2)
        return 0;
    double cum = 0, s = 0;
    for (size_t i = 0; i < m; i++) {
        cum += p[i] - q[i];
        s += fabs(cum);
    }
    return s / (double)(m - 1);
}

/* ---- equivalence classes ---- */

static uint32_t mix(uint32_t h, uint32_t v)
{
    h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

/* The table is indexed by the low bits, which mix() alone leaves poorly
 * spread for small codes (long probe chains: 200k rows in 40k classes took
 * seconds); murmur3's finalizer spreads every input bit over them. */
static uint32_t finish(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static int same_tuple(const keps_table *t, const size_t *cols, size_t ncols, size_t a, size_t b)
{
    for (size_t j = 0; j < ncols; j++)
        if (t->cols[cols[j]].codes[a] != t->cols[cols[j]].codes[b])
            return 0;
    return 1;
}

/* Rows whose every QI is "*": the star's code per column, or none. */
static int star_codes(const keps_table *t, const size_t *cols, size_t ncols, uint32_t *star)
{
    for (size_t j = 0; j < ncols; j++)
        if ((star[j] = keps_table_lookup(t, cols[j], "*", 1)) == KEPS_NONE)
            return 0;
    return 1;
}

static int is_star_row(const keps_table *t, const size_t *cols, size_t ncols, const uint32_t *star,
                       size_t r)
{
    for (size_t j = 0; j < ncols; j++)
        if (t->cols[cols[j]].codes[r] != star[j])
            return 0;
    return 1;
}

void keps_classes_free(keps_classes *c)
{
    if (!c)
        return;
    free(c->class_of);
    free(c->size);
    free(c->first_row);
    memset(c, 0, sizeof *c);
}

/* Column indices come from the caller: one past the table would read
 * another allocation's codes. */
static keps_status check_columns(const keps_table *t, const size_t *cols, size_t ncols, const char *what,
                                 keps_error *err)
{
    for (size_t j = 0; j < ncols; j++)
        if (cols[j] >= t->ncols)
            return keps_error_set(err, KEPS_EINPUT, "%s column index %zu is out of range: %s has %zu columns", what,
                                  cols[j], t->source, t->ncols);
    return KEPS_OK;
}

keps_status keps_classes_build(const keps_table *t, const size_t *cols, size_t ncols,
                               keps_suppressed_mode mode, keps_classes *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (ncols == 0)
        return keps_error_set(err, KEPS_EINPUT, "no quasi-identifier given: name the QI columns");
    keps_status st = check_columns(t, cols, ncols, "quasi-identifier", err);
    if (st)
        return st;
    if ((unsigned)mode > KEPS_SUPPRESSED_CLASS)
        return keps_error_set(err, KEPS_EINPUT, "unknown suppressed-row mode %d (expected exclude or class)",
                              (int)mode);
    size_t n = t->nrows, nslots = 64;
    while (nslots < 2 * n)
        nslots *= 2;
    uint32_t *star = malloc(ncols * sizeof *star);
    uint32_t *slots = malloc(nslots * sizeof *slots);
    out->nrows = n;
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    out->size = malloc((n ? n : 1) * sizeof *out->size);
    out->first_row = malloc((n ? n : 1) * sizeof *out->first_row);
    if (!star || !slots || !out->class_of || !out->size || !out->first_row) {
        free(star);
        free(slots);
        keps_classes_free(out);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
    }
    memset(slots, 0xff, nslots * sizeof *slots);
    int has_star = star_codes(t, cols, ncols, star);
    size_t nstar = 0;
    for (size_t r = 0; r < n && has_star; r++)
        nstar += (size_t)is_star_row(t, cols, ncols, star, r);
    out->all_star = n > 0 && nstar == n;
    if (out->all_star)
        mode = KEPS_SUPPRESSED_CLASS;
    for (size_t r = 0; r < n; r++) {
        if (has_star && is_star_row(t, cols, ncols, star, r)) {
            out->suppressed++;
            if (mode == KEPS_SUPPRESSED_EXCLUDE) {
                out->class_of[r] = KEPS_NONE;
                continue;
            }
        }
        uint32_t h = 0;
        for (size_t j = 0; j < ncols; j++)
            h = mix(h, t->cols[cols[j]].codes[r]);
        size_t i = finish(h) & (nslots - 1);
        while (slots[i] != KEPS_NONE && !same_tuple(t, cols, ncols, out->first_row[slots[i]], r))
            i = (i + 1) & (nslots - 1);
        if (slots[i] == KEPS_NONE) {
            slots[i] = (uint32_t)out->nclasses;
            out->first_row[out->nclasses] = (uint32_t)r;
            out->size[out->nclasses++] = 0;
        }
        out->class_of[r] = slots[i];
        out->size[slots[i]]++;
    }
    free(star);
    free(slots);
    return KEPS_OK;
}

/* ---- per-class sensitive figures ---- */

/* Rows of each class, contiguous: rows[start[c] .. start[c+1]). */
typedef struct {
    uint32_t *start, *rows;
} class_rows;

static int group_rows(const keps_classes *ec, class_rows *g)
{
    g->start = calloc(ec->nclasses + 1, sizeof *g->start);
    g->rows = malloc((ec->nrows ? ec->nrows : 1) * sizeof *g->rows);
    if (!g->start || !g->rows)
        return -1;
    for (size_t c = 0; c < ec->nclasses; c++)
        g->start[c + 1] = g->start[c] + ec->size[c];
    uint32_t *fill = malloc((ec->nclasses + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, g->start, (ec->nclasses + 1) * sizeof *fill);
    for (size_t r = 0; r < ec->nrows; r++)
        if (ec->class_of[r] != KEPS_NONE)
            g->rows[fill[ec->class_of[r]]++] = (uint32_t)r;
    free(fill);
    return 0;
}

/* The ordered domain: rank of each code among the distinct numbers of the
 * column (equal numbers spelled differently share a rank), the whole
 * table's cumulative distribution G over ranks and its prefix sums S
 * (S[i] = G[0] + ... + G[i-1]). */
typedef struct {
    uint32_t *rank;   /* [nvalues]; KEPS_NONE for the missing token */
    size_t m;
    double *G, *S;    /* [m], [m + 1] */
} ordered_domain;

typedef struct {
    double x;
    uint32_t v;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    double x = ((const keyed *)a)->x, y = ((const keyed *)b)->x;
    return (x > y) - (x < y);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int ordered_domain_build(const keps_table *t, size_t col, ordered_domain *d, size_t *missing)
{
    const keps_column *c = &t->cols[col];
    keyed *order = malloc((c->nvalues + 1) * sizeof *order);
    size_t *count = calloc(c->nvalues + 1, sizeof *count);
    d->rank = malloc((c->nvalues + 1) * sizeof *d->rank);
    d->G = malloc((c->nvalues + 1) * sizeof *d->G);
    d->S = malloc((c->nvalues + 2) * sizeof *d->S);
    if (!order || !count || !d->rank || !d->G || !d->S) {
        free(order);
        free(count);
        return -1;
    }
    size_t nv = 0, total = 0;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        d->rank[v] = KEPS_NONE;
        if (v != c->missing)
            order[nv++] = (keyed){c->num[v], v};
    }
    qsort(order, nv, sizeof *order, cmp_keyed);
    d->m = 0;
    for (size_t i = 0; i < nv; i++) {
        if (i == 0 || order[i].x != order[i - 1].x)
            d->m++;
        d->rank[order[i].v] = (uint32_t)(d->m - 1);
    }
    for (size_t r = 0; r < t->nrows; r++)
        count[c->codes[r]]++;
    *missing = c->missing != KEPS_NONE ? count[c->missing] : 0;
    double *p = calloc(d->m + 1, sizeof *p);
    if (!p) {
        free(order);
        free(count);
        return -1;
    }
    for (uint32_t v = 0; v < c->nvalues; v++)
        if (d->rank[v] != KEPS_NONE) {
            p[d->rank[v]] += (double)count[v];
            total += count[v];
        }
    double cum = 0;
    d->S[0] = 0;
    for (size_t i = 0; i < d->m; i++) {
        cum += p[i] / (double)total;
        d->G[i] = cum;
        d->S[i + 1] = d->S[i] + cum;
    }
    free(p);
    free(order);
    free(count);
    return 0;
}

static void ordered_domain_free(ordered_domain *d)
{
    free(d->rank);
    free(d->G);
    free(d->S);
}

/* sum_{i=a}^{b-1} |c - G[i]| with G nondecreasing: split where G passes c. */
static double segment(const ordered_domain *d, size_t a, size_t b, double c)
{
    if (a >= b)
        return 0;
    size_t lo = a, hi = b; /* first index in [a,b) with G > c */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->G[mid] > c)
            hi = mid;
        else
            lo = mid + 1;
    }
    size_t p = lo;
    return c * (double)(p - a) - (d->S[p] - d->S[a]) + (d->S[b] - d->S[p]) - c * (double)(b - p);
}

/* Ordered EMD of one class: its cumulative distribution is a step function
 * changing only at its own ranks, so the sum over the m-1 cumulative
 * differences costs O(d log m) for d distinct ranks in the class.
 * ranks/cnt: the class's distinct ranks (sorted) and their counts. */
static double emd_ordered_class(const ordered_domain *d, const uint32_t *ranks, const uint32_t *cnt,
                                size_t nr, size_t n)
{
    if (d->m < 2 || n == 0)
        return 0;
    size_t last = d->m - 1; /* both cumulatives are 1 at the last rank */
    double s = segment(d, 0, ranks[0] < last ? ranks[0] : last, 0.0), cum = 0;
    for (size_t k = 0; k < nr; k++) {
        cum += (double)cnt[k] / (double)n;
        size_t a = ranks[k], b = k + 1 < nr ? ranks[k + 1] : last;
        s += segment(d, a < last ? a : last, b < last ? b : last, cum);
    }
    return s / (double)(d->m - 1);
}

/* Scratch for counting the values of one class. */
typedef struct {
    uint32_t *count;   /* [nvalues or m], zero between classes */
    uint32_t *touched; /* values seen in the current class */
    uint32_t *cnt;     /* counts in touched order (ordered path) */
    size_t ntouched;
} counter;

static void count_value(counter *k, uint32_t v)
{
    if (k->count[v]++ == 0)
        k->touched[k->ntouched++] = v;
}

static void counter_reset(counter *k)
{
    for (size_t i = 0; i < k->ntouched; i++)
        k->count[k->touched[i]] = 0;
    k->ntouched = 0;
}

/* Distinct count, exp(entropy) and nominal EMD of a class with n rows whose
 * value counts are in k; q = whole-table probability per code. The EMD sums
 * only the values present: the absent ones contribute q_v each, and
 * sum_absent q = 1 - sum_present q. */
static void nominal_class(const counter *k, size_t n, const double *q, double *entl, double *emd)
{
    double h = 0, s = 0;
    for (size_t i = 0; i < k->ntouched; i++) {
        uint32_t v = k->touched[i];
        double p = (double)k->count[v] / (double)n;
        h -= p * log(p);
        s += fabs(p - q[v]) - q[v];
    }
    *entl = exp(h);
    *emd = (1 + s) / 2;
    if (*emd < 0)
        *emd = 0;
}

static int sens_figures(keps_table *t, const keps_classes *ec, const class_rows *g, size_t col,
                        keps_sensitive_type type, keps_sensitive_figures *f, keps_error *err)
{
    const keps_column *c = &t->cols[col];
    memset(f, 0, sizeof *f);
    f->col = col;
    f->min_distinct_class = f->min_entropy_class = f->max_emd_class = KEPS_NONE;
    f->distinct_values = c->nvalues;
    /* ordered when asked, or when the column is numeric by keps's type rule
     * (keps/table.h: codes such as "02" or "01097" keep it nominal) */
    if (type == KEPS_SENSITIVE_ORDERED ||
        (type == KEPS_SENSITIVE_AUTO && keps_table_infer_type(t, col, NULL, NULL) == KEPS_TYPE_NUMERIC)) {
        keps_status st = keps_table_numeric(t, col, err);
        if (st)
            return st;
        type = KEPS_SENSITIVE_ORDERED;
    } else {
        type = KEPS_SENSITIVE_NOMINAL;
    }
    f->type = type;

    ordered_domain d = {0};
    counter k = {0}, kr = {0};
    double *q = calloc(c->nvalues + 1, sizeof *q);
    k.count = calloc(c->nvalues + 1, sizeof *k.count);
    k.touched = malloc((c->nvalues + 1) * sizeof *k.touched);
    int oom = !q || !k.count || !k.touched;
    if (!oom && type == KEPS_SENSITIVE_ORDERED) {
        oom = ordered_domain_build(t, col, &d, &f->missing_ignored) != 0;
        f->distinct_values = d.m;
        kr.count = calloc(d.m + 1, sizeof *kr.count);
        kr.touched = malloc((d.m + 1) * sizeof *kr.touched);
        kr.cnt = malloc((d.m + 1) * sizeof *kr.cnt);
        oom = oom || !kr.count || !kr.touched || !kr.cnt;
    }
    /* The values l-diversity counts: the strings, or for a numeric column
     * the numbers ("2", "2.0" and "+2" are one value, as for the EMD;
     * missing cells are one more). */
    uint32_t *key = malloc((c->nvalues + 1) * sizeof *key);
    oom = oom || !key;
    for (uint32_t v = 0; !oom && v < c->nvalues; v++)
        key[v] = type != KEPS_SENSITIVE_ORDERED ? v : d.rank[v] != KEPS_NONE ? d.rank[v] : (uint32_t)d.m;
    if (!oom) {
        for (size_t r = 0; r < t->nrows; r++)
            q[key[c->codes[r]]] += 1;
        for (uint32_t v = 0; v < c->nvalues; v++)
            q[v] /= (double)t->nrows;
    }
    for (size_t e = 0; !oom && e < ec->nclasses; e++) {
        size_t n = ec->size[e], nn = 0;
        for (uint32_t i = g->start[e]; i < g->start[e + 1]; i++) {
            uint32_t v = c->codes[g->rows[i]];
            count_value(&k, key[v]);
            if (type == KEPS_SENSITIVE_ORDERED && d.rank[v] != KEPS_NONE) {
                count_value(&kr, d.rank[v]);
                nn++;
            }
        }
        double entl, emd;
        nominal_class(&k, n, q, &entl, &emd);
        if (f->min_distinct_class == KEPS_NONE || k.ntouched < f->min_distinct) {
            f->min_distinct = k.ntouched;
            f->min_distinct_class = (uint32_t)e;
        }
        if (f->min_entropy_class == KEPS_NONE || entl < f->min_entropy_l) {
            f->min_entropy_l = entl;
            f->min_entropy_class = (uint32_t)e;
        }
        if (type == KEPS_SENSITIVE_ORDERED) {
            qsort(kr.touched, kr.ntouched, sizeof *kr.touched, cmp_u32);
            for (size_t i = 0; i < kr.ntouched; i++)
                kr.cnt[i] = kr.count[kr.touched[i]];
            emd = emd_ordered_class(&d, kr.touched, kr.cnt, kr.ntouched, nn);
            if (nn == 0)
                emd = -1; /* only missing cells: no distribution to compare */
            counter_reset(&kr);
        }
        if (emd >= 0 && (f->max_emd_class == KEPS_NONE || emd > f->max_emd)) {
            f->max_emd = emd;
            f->max_emd_class = (uint32_t)e;
        }
        counter_reset(&k);
    }
    free(q);
    free(key);
    free(k.count);
    free(k.touched);
    free(kr.count);
    free(kr.touched);
    free(kr.cnt);
    ordered_domain_free(&d);
    return oom ? keps_error_set(err, KEPS_ENOMEM, "out of memory computing l-diversity / t-closeness") : KEPS_OK;
}

/* Class ids by size, smallest first, stable: a counting sort on sizes. */
static uint32_t *sort_by_size(const keps_classes *ec)
{
    size_t n = ec->nrows;
    uint32_t *pos = calloc(n + 2, sizeof *pos);
    uint32_t *out = malloc((ec->nclasses + 1) * sizeof *out);
    if (!pos || !out) {
        free(pos);
        free(out);
        return NULL;
    }
    for (size_t c = 0; c < ec->nclasses; c++)
        pos[ec->size[c] + 1]++;
    for (size_t s = 1; s <= n + 1; s++)
        pos[s] += pos[s - 1];
    for (size_t c = 0; c < ec->nclasses; c++)
        out[pos[ec->size[c]]++] = (uint32_t)c;
    free(pos);
    return out;
}

void keps_models_free(keps_models *m)
{
    if (!m)
        return;
    keps_classes_free(&m->ec);
    free(m->by_size);
    free(m->sens);
    memset(m, 0, sizeof *m);
}

keps_status keps_models_compute(keps_table *t, const size_t *qi, size_t nqi, const size_t *sens,
                                const keps_sensitive_type *types, size_t nsens,
                                keps_suppressed_mode mode, keps_models *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_columns(t, sens, nsens, "sensitive", err);
    for (size_t i = 0; types && i < nsens && !st; i++)
        if ((unsigned)types[i] > KEPS_SENSITIVE_ORDERED)
            st = keps_error_set(err, KEPS_EINPUT,
                                "sensitive column %zu: unknown type %d (expected auto, nominal or ordered)", i + 1,
                                (int)types[i]);
    if (!st)
        st = keps_classes_build(t, qi, nqi, mode, &out->ec, err);
    if (st)
        return st;
    out->by_size = sort_by_size(&out->ec);
    out->sens = calloc(nsens + 1, sizeof *out->sens);
    class_rows g = {0};
    if (!out->by_size || !out->sens || (nsens && group_rows(&out->ec, &g))) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto done;
    }
    out->min_class = out->ec.nclasses ? out->ec.size[out->by_size[0]] : 0;
    out->nsens = nsens;
    for (size_t i = 0; i < nsens && !st; i++)
        st = sens_figures(t, &out->ec, &g, sens[i], types ? types[i] : KEPS_SENSITIVE_AUTO, &out->sens[i],
                          err);
done:
    free(g.start);
    free(g.rows);
    if (st)
        keps_models_free(out);
    return st;
}

void keps_models_below_k(const keps_models *m, size_t k, size_t *classes, size_t *records)
{
    *classes = *records = 0;
    for (size_t c = 0; c < m->ec.nclasses; c++)
        if (m->ec.size[c] < k) {
            (*classes)++;
            *records += m->ec.size[c];
        }
}
