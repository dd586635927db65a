/* Strict multidimensional Mondrian (see include/keps/mondrian.h).
 *
 * Partitions are ranges [lo, hi) of one permutation of the rows; a split
 * reorders its range in place and pushes the parts on an explicit stack.
 * Numeric values are gathered into one double array per QI; categorical
 * QIs work on the hierarchy codes map[level][column code]. */
#include "keps/mondrian.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/progress.h"
#include "keps/release.h"

typedef struct qinfo {
    int numeric;
    double *v;            /* numeric: [n] value per row */
    double dmin, drange;  /* numeric: data set min and max - min */
    const uint32_t *codes;/* categorical: column codes per row */
    uint32_t **map;       /* categorical: [level][column code] -> level code */
    int height;
    uint32_t **leaves;    /* categorical: [level][node] hierarchy rows under node */
    double nleaves;       /* hierarchy rows */
    uint32_t *count;      /* categorical: scratch counters at the widest level */
} qinfo;

typedef struct part {
    uint32_t lo, hi;
} part;

/* Privacy criteria on the parts of a cut (besides the size): each
 * sensitive column's value per row, and a histogram built per part. */
typedef struct critctx {
    const keps_criteria *crit;
    size_t ns;
    uint32_t **vals;     /* [ns][n] value of each row */
    uint32_t **cnt;      /* [ns][m] counters, zero between parts */
    uint32_t **tv, **tc; /* [ns][m] the part's values (increasing) and counts */
    uint32_t *nv;        /* [ns] */
} critctx;

typedef struct mond {
    size_t n, nqi, k;
    critctx *cc;         /* NULL: k-anonymity only */
    qinfo *q;
    uint32_t *perm, *tmp;
    double *buf;
    keps_mondrian_extent *ext;  /* [nqi] extent of the partition at hand */
    int *order;                 /* [nqi] QIs by decreasing width */
    part *stack;
    size_t nstack, capstack;
    keps_mondrian_result *out;
    size_t capcls;
} mond;

/* ---- extents ---- */

static uint32_t cat_code(const qinfo *q, int level, uint32_t row)
{
    return q->map[level][q->codes[row]];
}

/* Lowest level at which every record of the range shares one node. A
 * hierarchy whose top level holds several values gets a virtual root
 * (level height+1, released as "*", covering every leaf). */
static void cat_extent(const qinfo *q, const uint32_t *perm, uint32_t lo, uint32_t hi, keps_mondrian_extent *e)
{
    e->lo = e->hi = 0;
    for (int l = 0; l <= q->height; l++) {
        uint32_t c = cat_code(q, l, perm[lo]);
        uint32_t i = lo + 1;
        while (i < hi && cat_code(q, l, perm[i]) == c)
            i++;
        if (i == hi) {
            e->level = l;
            e->node = c;
            /* Xu et al. 2006: card(u)/|A|, 0 for a single value */
            e->width = q->leaves[l][c] > 1 ? q->leaves[l][c] / q->nleaves : 0.0;
            return;
        }
    }
    e->level = q->height + 1;
    e->node = 0;
    e->width = 1.0;
}

static void num_extent(const qinfo *q, const uint32_t *perm, uint32_t lo, uint32_t hi, keps_mondrian_extent *e)
{
    double mn = q->v[perm[lo]], mx = mn;
    for (uint32_t i = lo + 1; i < hi; i++) {
        double x = q->v[perm[i]];
        mn = x < mn ? x : mn;
        mx = x > mx ? x : mx;
    }
    e->lo = mn;
    e->hi = mx;
    e->level = -1;
    e->node = 0;
    e->width = q->drange > 0 ? (mx - mn) / q->drange : 0.0;
}

/* ---- numeric cut ---- */

static void swapd(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* k-th smallest of a[0..n-1] (reorders a): iterative quickselect with a
 * median-of-three pivot and three-way partitioning (many equal values, as
 * in ages, stay linear). */
static double select_kth(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* the answer lies in a[lo..hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        double x = a[lo], y = a[mid], z = a[hi - 1];
        double pv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        /* a[lo..lt) < pv, a[lt..i) == pv, a[gt..hi) > pv */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (a[i] < pv)
                swapd(&a[lt++], &a[i++]);
            else if (a[i] > pv)
                swapd(&a[i], &a[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pv;
    }
    return a[lo];
}

/* ---- privacy criteria on a part ---- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Does the part rows[0..n) satisfy the criteria (the size first)? */
static int part_ok(const mond *m, const uint32_t *rows, size_t n)
{
    if (n < m->k)
        return 0;
    critctx *c = m->cc;
    if (!c)
        return 1;
    for (size_t s = 0; s < c->ns; s++) {
        uint32_t *cnt = c->cnt[s], *tv = c->tv[s], nt = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = c->vals[s][rows[i]];
            if (v == KEPS_NONE)
                continue;
            if (!cnt[v]++)
                tv[nt++] = v;
        }
        qsort(tv, nt, sizeof *tv, cmp_u32);
        for (uint32_t i = 0; i < nt; i++) {
            c->tc[s][i] = cnt[tv[i]];
            cnt[tv[i]] = 0;
        }
        c->nv[s] = nt;
    }
    keps_class_view v = {(uint32_t)n, (uint32_t)n, (const uint32_t *const *)c->tv, (const uint32_t *const *)c->tc,
                         c->nv};
    return keps_criteria_check_class(c->crit, &v) == 0;
}

/* Both sides of a numeric cut (x <= t, or x < t with strict) pass: the
 * range is copied to tmp, left part first. */
static int num_sides_ok(mond *m, const qinfo *q, uint32_t lo, uint32_t hi, double t, int strict)
{
    if (!m->cc)
        return 1;
    uint32_t a = lo, b = hi;
    for (uint32_t i = lo; i < hi; i++) {
        double x = q->v[m->perm[i]];
        if (strict ? x < t : x <= t)
            m->tmp[a++] = m->perm[i];
        else
            m->tmp[--b] = m->perm[i];
    }
    return part_ok(m, m->tmp + lo, a - lo) && part_ok(m, m->tmp + a, hi - a);
}

/* Finds the cut of a numeric QI: on success *t and *strict say "left =
 * x <= t" (strict 0) or "x < t" (strict 1). */
static int num_cut(mond *m, const qinfo *q, uint32_t lo, uint32_t hi, double *t, int *strict)
{
    size_t n = hi - lo;
    if (n < 2 * m->k)
        return 0;
    for (size_t i = 0; i < n; i++)
        m->buf[i] = q->v[m->perm[lo + i]];
    double v = select_kth(m->buf, n, (n - 1) / 2);
    size_t lt = 0, le = 0;
    for (size_t i = 0; i < n; i++) {
        lt += m->buf[i] < v;
        le += m->buf[i] <= v;
    }
    int ok_le = le >= m->k && n - le >= m->k, ok_lt = lt >= m->k && n - lt >= m->k;
    ok_le = ok_le && num_sides_ok(m, q, lo, hi, v, 0);
    ok_lt = ok_lt && num_sides_ok(m, q, lo, hi, v, 1);
    if (!ok_le && !ok_lt)
        return 0;
    /* balance: distance of the left size from n/2 (2x to stay integral) */
    size_t dle = le * 2 > n ? le * 2 - n : n - le * 2, dlt = lt * 2 > n ? lt * 2 - n : n - lt * 2;
    *t = v;
    *strict = !ok_le || (ok_lt && dlt < dle);
    return 1;
}

static uint32_t num_split(mond *m, const qinfo *q, uint32_t lo, uint32_t hi, double t, int strict)
{
    uint32_t i = lo, j = hi;
    while (i < j) {
        double x = q->v[m->perm[i]];
        if (strict ? x < t : x <= t) {
            i++;
        } else {
            uint32_t s = m->perm[i];
            m->perm[i] = m->perm[--j];
            m->perm[j] = s;
        }
    }
    return i;
}

/* ---- categorical cut ---- */

/* Children of the covering node at level l: allowed iff every non-empty
 * child group has >= k records. Leaves the counts in q->count (cleared by
 * the caller through cat_clear). */
static int cat_cut(const mond *m, const qinfo *q, uint32_t lo, uint32_t hi, int l)
{
    if (l == 0 || hi - lo < 2 * m->k)
        return 0;
    for (uint32_t i = lo; i < hi; i++)
        q->count[cat_code(q, l - 1, m->perm[i])]++;
    int ok = 1;
    for (uint32_t i = lo; i < hi && ok; i++)
        ok = q->count[cat_code(q, l - 1, m->perm[i])] >= m->k;
    /* the criteria on every child group: each gathered into tmp in turn
     * (a group's first row in the range marks it) */
    for (uint32_t i = lo; i < hi && ok && m->cc; i++) {
        uint32_t c = cat_code(q, l - 1, m->perm[i]), first = 1, n = 0;
        for (uint32_t j = lo; j < i && first; j++)
            first = cat_code(q, l - 1, m->perm[j]) != c;
        if (!first)
            continue;
        for (uint32_t j = i; j < hi; j++)
            if (cat_code(q, l - 1, m->perm[j]) == c)
                m->tmp[lo + n++] = m->perm[j];
        ok = part_ok(m, m->tmp + lo, n);
    }
    return ok;
}

static void cat_clear(const mond *m, const qinfo *q, uint32_t lo, uint32_t hi, int l)
{
    for (uint32_t i = lo; i < hi; i++)
        q->count[cat_code(q, l - 1, m->perm[i])] = 0;
}

static int push(mond *m, uint32_t lo, uint32_t hi)
{
    if (m->nstack == m->capstack) {
        size_t c = m->capstack ? 2 * m->capstack : 64;
        part *p = realloc(m->stack, c * sizeof *p);
        if (!p)
            return -1;
        m->stack = p;
        m->capstack = c;
    }
    m->stack[m->nstack++] = (part){lo, hi};
    return 0;
}

/* Splits [lo,hi) into its child groups (counting sort by child code) and
 * pushes each one. */
static int cat_split(mond *m, const qinfo *q, uint32_t lo, uint32_t hi, int l)
{
    /* turn counts into start offsets in first-seen order */
    uint32_t off = lo;
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t c = cat_code(q, l - 1, m->perm[i]), cnt = q->count[c];
        if (cnt & 0x80000000u)
            continue;
        if (push(m, off, off + cnt))
            return -1;
        q->count[c] = off | 0x80000000u;
        off += cnt;
    }
    for (uint32_t i = lo; i < hi; i++) {
        uint32_t c = cat_code(q, l - 1, m->perm[i]);
        m->tmp[(q->count[c]++) & 0x7FFFFFFFu] = m->perm[i];
    }
    memcpy(m->perm + lo, m->tmp + lo, (hi - lo) * sizeof *m->perm);
    cat_clear(m, q, lo, hi, l);
    return 0;
}

/* ---- the loop ---- */

static int emit(mond *m, uint32_t lo, uint32_t hi)
{
    keps_mondrian_result *r = m->out;
    if (r->nclasses == m->capcls) {
        size_t c = m->capcls ? 2 * m->capcls : 256;
        uint32_t *sz = realloc(r->size, c * sizeof *sz);
        if (sz)
            r->size = sz;
        keps_mondrian_extent *e = realloc(r->extent, c * m->nqi * sizeof *e);
        if (e)
            r->extent = e;
        if (!sz || !e)
            return -1;
        m->capcls = c;
    }
    uint32_t id = (uint32_t)r->nclasses++;
    r->size[id] = hi - lo;
    memcpy(r->extent + (size_t)id * m->nqi, m->ext, m->nqi * sizeof *m->ext);
    for (uint32_t i = lo; i < hi; i++)
        r->cls[m->perm[i]] = id;
    return 0;
}

/* QIs by decreasing normalized width (insertion sort; ties: earlier QI). */
static void sort_dims(mond *m)
{
    for (size_t a = 0; a < m->nqi; a++) {
        int d = (int)a;
        size_t b = a;
        while (b > 0 && m->ext[m->order[b - 1]].width < m->ext[d].width) {
            m->order[b] = m->order[b - 1];
            b--;
        }
        m->order[b] = d;
    }
}

/* Returns 1 if [lo,hi) was split (parts pushed), 0 if it is final, -1 OOM. */
static int try_split(mond *m, uint32_t lo, uint32_t hi)
{
    for (size_t a = 0; a < m->nqi; a++) {
        const keps_mondrian_extent *e = &m->ext[m->order[a]];
        const qinfo *q = &m->q[m->order[a]];
        if (e->width <= 0)
            break; /* no spread left on this or any narrower QI */
        if (q->numeric) {
            double t;
            int strict;
            if (!num_cut(m, q, lo, hi, &t, &strict))
                continue;
            uint32_t mid = num_split(m, q, lo, hi, t, strict);
            return push(m, lo, mid) || push(m, mid, hi) ? -1 : 1;
        }
        int ok = cat_cut(m, q, lo, hi, e->level);
        if (ok)
            return cat_split(m, q, lo, hi, e->level) ? -1 : 1;
        if (e->level > 0)
            cat_clear(m, q, lo, hi, e->level);
    }
    return 0;
}

/* 0, -1 out of memory, -2 cancelled by the caller's progress hook (it
 * hears of the cut every 256 partitions: a hook that costs a call into
 * Python stays unmeasurable). */
static int run(mond *m)
{
    if (push(m, 0, (uint32_t)m->n))
        return -1;
    size_t parts = 0, done = 0; /* partitions taken, rows in final classes */
    while (m->nstack) {
        part p = m->stack[--m->nstack];
        if ((++parts & 255) == 0 && keps_progress("mondrian", (double)done, (double)m->n))
            return -2;
        for (size_t j = 0; j < m->nqi; j++) {
            if (m->q[j].numeric)
                num_extent(&m->q[j], m->perm, p.lo, p.hi, &m->ext[j]);
            else
                cat_extent(&m->q[j], m->perm, p.lo, p.hi, &m->ext[j]);
        }
        sort_dims(m);
        int rc = try_split(m, p.lo, p.hi);
        if (rc < 0 || (rc == 0 && emit(m, p.lo, p.hi)))
            return -1;
        if (rc == 0)
            done += p.hi - p.lo;
    }
    return 0;
}

/* ---- setup ---- */

static keps_status prepare_qi(const keps_schema *s, keps_table *t, size_t j, qinfo *q, keps_error *err)
{
    const keps_qi *qi = &s->qi[j];
    const keps_column *c = &t->cols[qi->col];
    size_t n = t->nrows;
    if (!qi->h) {
        char use[600];
        snprintf(use, sizeof use,
                 "Mondrian splits a quasi-identifier without a hierarchy as numbers: give '%.100s' a hierarchy "
                 "(a file, or a builder such as '%.100s:mask=1,2,3' or '%.100s:order=2,4') if it is categorical",
                 c->name, c->name, c->name);
        keps_status st = keps_schema_numeric(s, t, qi->col, use, err);
        if (st == KEPS_EINPUT && err && s->type[qi->col] == KEPS_TYPE_NUMERIC) {
            /* a declared column whose cell does not parse: why a number was expected */
            size_t used = strlen(err->msg);
            snprintf(err->msg + used, sizeof err->msg - used, "; %s", use);
        }
        if (st)
            return st;
        if (c->missing != KEPS_NONE && c->missing_count > 0)
            return keps_table_cell_error(err, t, qi->col, c->first_row[c->missing],
                                         "missing value in a numeric quasi-identifier; Mondrian needs a number "
                                         "in every cell (or give the column a hierarchy)");
        q->numeric = 1;
        q->v = malloc((n ? n : 1) * sizeof *q->v);
        if (!q->v)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        double mn = INFINITY, mx = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            q->v[i] = c->num[c->codes[i]];
            mn = fmin(mn, q->v[i]);
            mx = fmax(mx, q->v[i]);
        }
        q->dmin = mn;
        q->drange = n ? mx - mn : 0;
        return KEPS_OK;
    }
    q->codes = c->codes;
    q->map = qi->map;
    q->height = qi->height;
    q->nleaves = (double)keps_hierarchy_leaves(qi->h);
    q->leaves = calloc((size_t)q->height + 1, sizeof *q->leaves);
    q->count = calloc(keps_hierarchy_size(qi->h, 0) + 1, sizeof *q->count);
    if (!q->leaves || !q->count)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (int l = 0; l <= q->height; l++)
        if (!(q->leaves[l] = keps_hierarchy_leaf_counts(qi->h, l)))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    return KEPS_OK;
}

static void free_qinfo(qinfo *q, size_t nqi)
{
    for (size_t j = 0; q && j < nqi; j++) {
        free(q[j].v);
        for (int l = 0; q[j].leaves && l <= q[j].height; l++)
            free(q[j].leaves[l]);
        free(q[j].leaves);
        free(q[j].count);
    }
    free(q);
}

static void finish_metrics(keps_mondrian_result *r)
{
    double pen = 0, dm = 0;
    for (size_t c = 0; c < r->nclasses; c++) {
        double w = 0;
        for (size_t j = 0; j < r->nqi; j++)
            w += r->extent[c * r->nqi + j].width;
        pen += w * r->size[c];
        dm += (double)r->size[c] * r->size[c];
    }
    r->ncp = r->n && r->nqi ? pen / ((double)r->n * (double)r->nqi) : 0;
    r->discernibility = dm;
}

static void critctx_free(critctx *c)
{
    if (!c)
        return;
    for (size_t s = 0; s < c->ns; s++) {
        if (c->vals)
            free(c->vals[s]);
        if (c->cnt)
            free(c->cnt[s]);
        if (c->tv)
            free(c->tv[s]);
        if (c->tc)
            free(c->tc[s]);
    }
    free(c->vals);
    free(c->cnt);
    free(c->tv);
    free(c->tc);
    free(c->nv);
    free(c);
}

/* The criteria Mondrian can apply: those with a per-class test on the
 * released rows alone. */
static keps_status critctx_new(const keps_criteria *crit, const keps_table *t, critctx **out, keps_error *err)
{
    *out = NULL;
    for (size_t i = 0; i < keps_criteria_count(crit); i++) {
        keps_criterion_kind k = keps_criteria_get(crit, i)->kind;
        if (keps_criterion_needs_subset(keps_criteria_get(crit, i)) || keps_criterion_sample_based(k))
            return keps_error_set(err, KEPS_EINPUT,
                                  "Mondrian takes the criteria a class can be checked on by itself; %s is not one "
                                  "(use the lattice search)",
                                  keps_criterion_name(k));
    }
    critctx *c = calloc(1, sizeof *c);
    size_t ns = keps_criteria_nsens(crit), n = t->nrows;
    if (!c)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    c->crit = crit;
    c->ns = ns;
    c->vals = calloc(ns + 1, sizeof *c->vals);
    c->cnt = calloc(ns + 1, sizeof *c->cnt);
    c->tv = calloc(ns + 1, sizeof *c->tv);
    c->tc = calloc(ns + 1, sizeof *c->tc);
    c->nv = calloc(ns + 1, sizeof *c->nv);
    int oom = !c->vals || !c->cnt || !c->tv || !c->tc || !c->nv;
    for (size_t s = 0; s < ns && !oom; s++) {
        size_t m = keps_criteria_nvalues(crit, s);
        const uint32_t *codes = t->cols[keps_criteria_sensitive(crit, s)->col].codes;
        c->vals[s] = malloc((n + 1) * sizeof **c->vals);
        c->cnt[s] = calloc(m + 1, sizeof **c->cnt);
        c->tv[s] = malloc((m + 1) * sizeof **c->tv);
        c->tc[s] = malloc((m + 1) * sizeof **c->tc);
        oom = !c->vals[s] || !c->cnt[s] || !c->tv[s] || !c->tc[s];
        for (size_t r = 0; r < n && !oom; r++)
            c->vals[s][r] = keps_criteria_value(crit, s, codes[r]);
    }
    if (oom) {
        critctx_free(c);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    *out = c;
    return KEPS_OK;
}

keps_status keps_mondrian(const keps_schema *s, keps_table *t, size_t k, keps_mondrian_result *out,
                          keps_error *err)
{
    return keps_mondrian_criteria(s, t, k, NULL, out, err);
}

keps_status keps_mondrian_criteria(const keps_schema *s, keps_table *t, size_t k, const keps_criteria *crit,
                                   keps_mondrian_result *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = t->nrows, nqi = s->nqi;
    if (crit && keps_criteria_min_class_size(crit) > k)
        k = keps_criteria_min_class_size(crit);
    if (t != s->t)
        return keps_error_set(err, KEPS_EINPUT, "keps_mondrian: the table must be the schema's table");
    if (k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k must be at least 1 (got %zu)", k);
    if (nqi == 0)
        return keps_error_set(err, KEPS_EINPUT, "Mondrian needs at least one quasi-identifier");
    if (n < k)
        return keps_error_set(err, KEPS_EJOB,
                              "k = %zu is larger than the number of records (%zu): no partition can hold k "
                              "records; lower k",
                              k, n);
    if (n >= UINT32_MAX / 2)
        return keps_error_set(err, KEPS_EINPUT, "too many records for Mondrian (%zu)", n);
    mond m = {.n = n, .nqi = nqi, .k = k, .out = out};
    out->n = n;
    out->nqi = nqi;
    out->k = k;
    m.q = calloc(nqi, sizeof *m.q);
    keps_status st = m.q ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < nqi && !st; j++)
        st = prepare_qi(s, t, j, &m.q[j], err);
    if (!st) {
        m.perm = malloc(n * sizeof *m.perm);
        m.tmp = malloc(n * sizeof *m.tmp);
        m.buf = malloc(n * sizeof *m.buf);
        m.ext = calloc(nqi, sizeof *m.ext);
        m.order = calloc(nqi, sizeof *m.order);
        out->cls = malloc(n * sizeof *out->cls);
        if (!m.perm || !m.tmp || !m.buf || !m.ext || !m.order || !out->cls)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; crit && !st && i < keps_criteria_count(crit); i++)
        if (keps_criteria_get(crit, i)->kind == KEPS_CRIT_KT_CLOSENESS && !keps_criterion_kt_holds(crit, i))
            st = keps_error_set(err, KEPS_EJOB, "(k,t)-closeness fails on the released sensitive values whatever the "
                                "partition: raise its t or lower its k");
    if (!st && crit)
        st = critctx_new(crit, t, &m.cc, err);
    if (!st) {
        int run_rc;
        for (size_t i = 0; i < n; i++)
            m.perm[i] = (uint32_t)i;
        if (m.cc && !part_ok(&m, m.perm, n))
            st = keps_error_set(err, KEPS_EJOB,
                                "no partition satisfies the criteria: even all %zu records together fail them; relax "
                                "them",
                                n);
        else if ((run_rc = run(&m)) != 0)
            st = run_rc == -2 ? keps_error_set(err, KEPS_ECANCEL, "cancelled")
                              : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    critctx_free(m.cc);
    free_qinfo(m.q, nqi);
    free(m.perm);
    free(m.tmp);
    free(m.buf);
    free(m.ext);
    free(m.order);
    free(m.stack);
    if (st) {
        keps_mondrian_result_free(out);
        return st;
    }
    finish_metrics(out);
    return KEPS_OK;
}

void keps_mondrian_result_free(keps_mondrian_result *r)
{
    if (!r)
        return;
    free(r->cls);
    free(r->size);
    free(r->extent);
    memset(r, 0, sizeof *r);
}

int keps_mondrian_label(const keps_schema *s, const keps_mondrian_result *r, size_t c, size_t q, char *buf,
                        size_t len)
{
    const keps_mondrian_extent *e = &r->extent[c * r->nqi + q];
    if (e->level > s->qi[q].height)
        return snprintf(buf, len, "*");
    if (e->level >= 0)
        return snprintf(buf, len, "%s", keps_hierarchy_label(s->qi[q].h, e->level, e->node));
    /* numbers go through full buffers first: keps_format_number into a
     * short buf could stop at a shorter precision and miscount */
    char lo[32], hi[32];
    keps_format_number_in(lo, sizeof lo, e->lo, s->t);
    if (e->lo == e->hi)
        return snprintf(buf, len, "%s", lo);
    keps_format_number_in(hi, sizeof hi, e->hi, s->t);
    return snprintf(buf, len, "[%s-%s]", lo, hi);
}

/* A label in its own allocation: a hierarchy label has no length limit, so
 * no fixed buffer holds every one. */
static char *label_dup(const keps_schema *s, const keps_mondrian_result *r, size_t c, size_t q)
{
    size_t need = (size_t)keps_mondrian_label(s, r, c, q, NULL, 0) + 1;
    char *l = malloc(need);
    if (l)
        keps_mondrian_label(s, r, c, q, l, need);
    return l;
}

/* Release: every class's labels are formatted once. */
typedef struct rel_ctx {
    const keps_mondrian_result *r;
    int *qi_of_col;    /* [ncols] QI index or -1 */
    char **label;      /* [nclasses * nqi] */
} rel_ctx;

static const char *rel_cell(void *ctx, size_t row, size_t col)
{
    rel_ctx *c = ctx;
    int q = c->qi_of_col[col];
    return q < 0 ? NULL : c->label[(size_t)c->r->cls[row] * c->r->nqi + (size_t)q];
}

keps_status keps_mondrian_release(const keps_schema *s, const keps_mondrian_result *r, keps_table **release,
                                  keps_error *err)
{
    *release = NULL;
    size_t ncols = s->t->ncols, nl = r->nclasses * r->nqi;
    rel_ctx c = {r, malloc(ncols * sizeof(int)), calloc(nl ? nl : 1, sizeof(char *))};
    keps_status st = c.qi_of_col && c.label ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < ncols && !st; j++)
        c.qi_of_col[j] = -1;
    for (size_t q = 0; q < r->nqi && !st; q++)
        c.qi_of_col[s->qi[q].col] = (int)q;
    for (size_t i = 0; i < nl && !st; i++)
        if (!(c.label[i] = label_dup(s, r, i / r->nqi, i % r->nqi)))
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_release_build(s, rel_cell, &c, release, err);
    for (size_t i = 0; c.label && i < nl; i++)
        free(c.label[i]);
    free(c.label);
    free(c.qi_of_col);
    return st;
}
