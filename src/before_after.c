/* A release compared with its input, for the report (keps/before_after.h).
 * Works on the tables' dictionary codes: one pass over the rows per column
 * counts every value, the rest is per distinct value. */
#include "keps/before_after.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keps/risk.h"

/* Value counts of one column: count[code] over the rows. */
static size_t *value_counts(const keps_table *t, size_t col)
{
    const keps_column *c = &t->cols[col];
    size_t *n = calloc(c->nvalues ? c->nvalues : 1, sizeof *n);
    if (n)
        for (size_t r = 0; r < t->nrows; r++)
            n[c->codes[r]]++;
    return n;
}

/* Is a value left out of a histogram ('*' or the missing token)? */
static int blank(const keps_table *t, size_t col, uint32_t code)
{
    return code == t->cols[col].missing || strcmp(t->cols[col].values[code], "*") == 0;
}

/* num[code] = the value as a number (NaN for a blank one); 0 when some
 * value that occurs is neither a number nor blank. */
static int numeric(const keps_table *t, size_t col, const size_t *count, double *num)
{
    const keps_column *c = &t->cols[col];
    int any = 0;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        num[v] = NAN;
        if (!count[v] || blank(t, col, v))
            continue;
        if (keps_parse_number(c->values[v], &num[v]) != KEPS_NUM_OK)
            return 0;
        any = 1;
    }
    return any;
}

typedef struct side {
    const keps_table *t;
    size_t col;
    size_t *count; /* [nvalues] */
    double *num;   /* [nvalues], NULL unless numeric */
    size_t distinct;
} side;

static void side_free(side *s)
{
    free(s->count);
    free(s->num);
}

static keps_status side_init(side *s, const keps_table *t, size_t col)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->col = col;
    uint32_t nv = t->cols[col].nvalues;
    s->count = value_counts(t, col);
    s->num = malloc((nv ? nv : 1) * sizeof *s->num);
    if (!s->count || !s->num)
        return KEPS_ENOMEM;
    for (uint32_t v = 0; v < nv; v++)
        s->distinct += s->count[v] > 0;
    if (!numeric(t, col, s->count, s->num)) {
        free(s->num);
        s->num = NULL;
    }
    return KEPS_OK;
}

/* Same multiset of values on both sides? */
static int same_counts(const side *a, const side *b)
{
    if (a->distinct != b->distinct)
        return 0;
    const keps_column *ca = &a->t->cols[a->col];
    for (uint32_t v = 0; v < ca->nvalues; v++) {
        if (!a->count[v])
            continue;
        uint32_t w = keps_table_lookup(b->t, b->col, ca->values[v], strlen(ca->values[v]));
        if (w == KEPS_NONE || b->count[w] != a->count[v])
            return 0;
    }
    return 1;
}

/* A value and its count, for ranking. */
typedef struct ranked {
    size_t n;
    uint32_t v;
    const char *s;
} ranked;

static int by_count(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return strcmp(a->s, b->s);
}

/* The values of column c with count[v] > 0, most frequent first (ties: by
 * value); *n of them. NULL when out of memory. */
static ranked *rank(const keps_column *c, const size_t *count, size_t *n)
{
    ranked *r = malloc((c->nvalues ? c->nvalues : 1) * sizeof *r);
    *n = 0;
    if (!r)
        return NULL;
    for (uint32_t v = 0; v < c->nvalues; v++)
        if (count[v])
            r[(*n)++] = (ranked){count[v], v, c->values[v]};
    qsort(r, *n, sizeof *r, by_count);
    return r;
}

static keps_status top_values(keps_json *j, const side *s, size_t top)
{
    size_t n;
    ranked *r = rank(&s->t->cols[s->col], s->count, &n);
    if (!r)
        return KEPS_ENOMEM;
    keps_json_array(j, "values");
    size_t other = 0;
    for (size_t i = 0; i < n; i++) {
        if (i >= top) {
            other += r[i].n;
            continue;
        }
        keps_json_array(j, NULL);
        keps_json_str(j, NULL, r[i].s);
        keps_json_int(j, NULL, (long long)r[i].n);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_int(j, "other", (long long)other);
    keps_json_int(j, "other_values", (long long)(n > top ? n - top : 0));
    free(r);
    return KEPS_OK;
}

/* Range of a numeric side's values. */
static void range(const side *s, double *lo, double *hi)
{
    for (uint32_t v = 0; v < s->t->cols[s->col].nvalues; v++)
        if (s->count[v] && !isnan(s->num[v])) {
            *lo = fmin(*lo, s->num[v]);
            *hi = fmax(*hi, s->num[v]);
        }
}

static void histogram(keps_json *j, const side *s, double lo, double hi, size_t bins)
{
    if (!(hi > lo))
        bins = 1;
    size_t cnt[256] = {0}, missing = 0;
    double w = (hi - lo) / (double)bins;
    for (uint32_t v = 0; v < s->t->cols[s->col].nvalues; v++) {
        if (!s->count[v])
            continue;
        if (isnan(s->num[v])) {
            missing += s->count[v];
            continue;
        }
        size_t b = bins == 1 ? 0 : (size_t)((s->num[v] - lo) / w);
        cnt[b < bins ? b : bins - 1] += s->count[v];
    }
    keps_json_array(j, "bins");
    for (size_t b = 0; b <= bins; b++)
        keps_json_num(j, NULL, b == bins ? (bins == 1 ? hi : hi) : lo + w * (double)b);
    keps_json_end(j);
    keps_json_array(j, "counts");
    for (size_t b = 0; b < bins; b++)
        keps_json_int(j, NULL, (long long)cnt[b]);
    keps_json_end(j);
    keps_json_int(j, "missing", (long long)missing);
}

static keps_status write_side(keps_json *j, const char *key, const side *s, int shared, double lo, double hi,
                              const keps_before_after_opts *o)
{
    keps_json_object(j, key);
    keps_json_int(j, "distinct", (long long)s->distinct);
    keps_status st = KEPS_OK;
    if (s->num) {
        double a = INFINITY, b = -INFINITY;
        if (shared) {
            a = lo;
            b = hi;
        } else {
            range(s, &a, &b);
        }
        histogram(j, s, a, b, o->bins);
    } else {
        st = top_values(j, s, o->top_values);
    }
    keps_json_end(j);
    return st;
}

static keps_status distributions(keps_json *j, const keps_table *in, const keps_table *rel, const char *const *attr,
                                 size_t nattr, const keps_before_after_opts *o)
{
    keps_status st = KEPS_OK;
    size_t shown = 0, left_off = 0;
    /* Unchanged attributes are listed after the changed ones. */
    char *unchanged = calloc(nattr ? nattr : 1, 1);
    if (!unchanged)
        return KEPS_ENOMEM;
    keps_json_object(j, "distributions");
    for (size_t a = 0; a < nattr && !st; a++) {
        int ci = keps_table_column(in, attr[a]), cr = keps_table_column(rel, attr[a]);
        if (ci < 0 || cr < 0)
            continue;
        side x, y;
        keps_status s1 = side_init(&x, in, (size_t)ci), s2 = side_init(&y, rel, (size_t)cr);
        if (s1 || s2)
            st = KEPS_ENOMEM;
        else if (same_counts(&x, &y))
            unchanged[a] = 1;
        else if (shown == o->max_columns)
            left_off++;
        else {
            shown++;
            double lo = INFINITY, hi = -INFINITY;
            int shared = x.num && y.num;
            if (shared) {
                range(&x, &lo, &hi);
                range(&y, &lo, &hi);
            }
            keps_json_object(j, attr[a]);
            st = write_side(j, "input", &x, shared, lo, hi, o);
            if (!st)
                st = write_side(j, "release", &y, shared, lo, hi, o);
            keps_json_end(j);
        }
        side_free(&x);
        side_free(&y);
    }
    keps_json_end(j);
    keps_json_array(j, "unchanged");
    for (size_t a = 0; a < nattr; a++)
        if (unchanged[a])
            keps_json_str(j, NULL, attr[a]);
    keps_json_end(j);
    keps_json_int(j, "columns_left_off", (long long)left_off);
    free(unchanged);
    return st;
}

static keps_status risk_side(keps_json *j, const char *key, const keps_table *t, const char *const *qi, size_t nqi,
                             keps_error *err)
{
    size_t *cols = malloc((nqi ? nqi : 1) * sizeof *cols);
    if (!cols)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; i < nqi; i++)
        cols[i] = (size_t)keps_table_column(t, qi[i]);
    keps_sample_risk r;
    keps_status st = keps_sample_risk_compute(t, cols, nqi, KEPS_SUPPRESSED_EXCLUDE, NULL, NULL, &r, err);
    free(cols);
    if (st)
        return st;
    /* keps risk's measures under names of their own: a report's top-level
     * keys (classes, suppressed_rows) stay unique in its text */
    const keps_class_sizes *h = &r.sizes;
    keps_json_object(j, key);
    keps_json_int(j, "records", (long long)r.records);
    keps_json_int(j, "suppressed", (long long)r.suppressed);
    keps_json_object(j, "prosecutor");
    keps_json_num(j, "highest", r.prosecutor_highest);
    keps_json_num(j, "average", r.prosecutor_average);
    keps_json_num(j, "share_at_highest", r.prosecutor_share_at_highest);
    keps_json_end(j);
    keps_json_num(j, "sample_uniques", r.sample_uniques);
    keps_json_int(j, "class_count", (long long)h->classes);
    keps_json_array(j, "class_sizes"); /* [size, classes of that size] */
    for (size_t i = 0; i < h->n; i++) {
        keps_json_array(j, NULL);
        keps_json_int(j, NULL, (long long)h->size[i]);
        keps_json_int(j, NULL, (long long)h->count[i]);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_risk_bands_json(j, "risk_distribution", r.band_share);
    keps_json_end(j);
    keps_sample_risk_free(&r);
    return KEPS_OK;
}

/* row[r] = the release row of input row r, or SIZE_MAX when the release
 * lacks it; NULL when the rows cannot be matched. */
static size_t *match_rows(const keps_table *in, const keps_table *rel)
{
    size_t *row = malloc((in->nrows ? in->nrows : 1) * sizeof *row);
    if (!row)
        return NULL;
    if (in->nrows == rel->nrows) {
        for (size_t r = 0; r < in->nrows; r++)
            row[r] = r;
        return row;
    }
    if (!in->row_line || !rel->row_line || rel->nrows > in->nrows) {
        free(row);
        return NULL;
    }
    /* Both in input order: walk them together by line. */
    size_t k = 0;
    for (size_t r = 0; r < in->nrows; r++) {
        row[r] = SIZE_MAX;
        if (k < rel->nrows && rel->row_line[k] && rel->row_line[k] == in->row_line[r])
            row[r] = k++;
    }
    if (k != rel->nrows) { /* some release row matched no input row */
        free(row);
        return NULL;
    }
    return row;
}

/* One QI: its values with suppressed records, most suppressed first, as
 * [value, records, suppressed] (records: the offered ones, all when
 * offered is NULL); the rest summed as other: [records, suppressed]. */
static keps_status suppressed_by_value(keps_json *j, const keps_table *in, size_t col, const char *name,
                                       const uint8_t *sup, const uint8_t *offered, size_t top)
{
    uint32_t nv = in->cols[col].nvalues;
    size_t *nsup = calloc(nv ? nv : 1, sizeof *nsup), *total = calloc(nv ? nv : 1, sizeof *total), n = 0;
    size_t other_rec = 0, other_sup = 0;
    ranked *r = NULL;
    if (nsup && total) {
        for (size_t row = 0; row < in->nrows; row++) {
            int on = !offered || offered[row];
            nsup[in->cols[col].codes[row]] += sup[row];
            total[in->cols[col].codes[row]] += (size_t)on;
            other_rec += (size_t)on;
        }
        r = rank(&in->cols[col], nsup, &n);
    }
    if (!r) {
        free(nsup);
        free(total);
        return KEPS_ENOMEM;
    }
    keps_json_object(j, name);
    keps_json_array(j, "values");
    for (size_t k = 0; k < n; k++) {
        if (k >= top) {
            other_sup += r[k].n;
            continue;
        }
        other_rec -= total[r[k].v];
        keps_json_array(j, NULL);
        keps_json_str(j, NULL, r[k].s);
        keps_json_int(j, NULL, (long long)total[r[k].v]);
        keps_json_int(j, NULL, (long long)r[k].n);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_array(j, "other");
    keps_json_int(j, NULL, (long long)other_rec);
    keps_json_int(j, NULL, (long long)other_sup);
    keps_json_end(j);
    keps_json_end(j);
    free(r);
    free(nsup);
    free(total);
    return KEPS_OK;
}

static keps_status suppressed_values(keps_json *j, const keps_table *in, const keps_table *rel, const char *const *qi,
                                     size_t nqi, const keps_before_after_opts *o)
{
    size_t *row = match_rows(in, rel);
    if (!row)
        return KEPS_OK; /* rows cannot be matched: the section is left out */
    size_t *rc = malloc((nqi ? nqi : 1) * sizeof *rc);
    uint8_t *sup = calloc(in->nrows ? in->nrows : 1, 1);
    size_t nsup = 0;
    keps_status st = rc && sup ? KEPS_OK : KEPS_ENOMEM;
    for (size_t i = 0; i < nqi && !st; i++)
        rc[i] = (size_t)keps_table_column(rel, qi[i]);
    for (size_t r = 0; r < in->nrows && !st; r++) {
        int s = !o->offered || o->offered[r]; /* an offered row the release lacks was removed */
        if (s && row[r] != SIZE_MAX)
            for (size_t i = 0; i < nqi && s; i++)
                s = strcmp(keps_table_str(rel, rc[i], row[r]), "*") == 0;
        sup[r] = (uint8_t)s;
        nsup += (size_t)s;
    }
    if (!st && nsup) {
        keps_json_object(j, "suppressed_values");
        for (size_t i = 0; i < nqi && !st; i++)
            st = suppressed_by_value(j, in, (size_t)keps_table_column(in, qi[i]), qi[i], sup, o->offered,
                                     o->top_values);
        keps_json_end(j);
    }
    free(rc);
    free(sup);
    free(row);
    return st;
}

keps_status keps_before_after_json(keps_json *j, const char *key, const keps_table *input, const keps_table *release,
                                   const char *const *qi, size_t nqi, const char *const *attr, size_t nattr,
                                   const keps_before_after_opts *opts, keps_error *err)
{
    keps_before_after_opts o = {12, 20, 24, NULL};
    if (opts) {
        o.offered = opts->offered;
        if (opts->top_values)
            o.top_values = opts->top_values;
        if (opts->bins)
            o.bins = opts->bins < 256 ? opts->bins : 256;
        if (opts->max_columns)
            o.max_columns = opts->max_columns;
    }
    /* The QIs both tables hold. */
    const char **q = malloc((nqi ? nqi : 1) * sizeof *q);
    if (!q)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    size_t m = 0;
    for (size_t i = 0; i < nqi; i++)
        if (keps_table_column(input, qi[i]) >= 0 && keps_table_column(release, qi[i]) >= 0)
            q[m++] = qi[i];
    keps_status st = KEPS_OK;
    keps_json_object(j, key);
    keps_json_array(j, "qis");
    for (size_t i = 0; i < m; i++)
        keps_json_str(j, NULL, q[i]);
    keps_json_end(j);
    if (m) {
        keps_json_object(j, "risk");
        st = risk_side(j, "input", input, q, m, err);
        if (!st)
            st = risk_side(j, "release", release, q, m, err);
        keps_json_end(j);
    }
    if (!st)
        st = distributions(j, input, release, attr, nattr, &o);
    if (!st && m)
        st = suppressed_values(j, input, release, q, m, &o);
    keps_json_end(j);
    free(q);
    if (st == KEPS_ENOMEM)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory comparing the release with its input");
    return st;
}
