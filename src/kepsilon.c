/* (k,epsilon)-anonymity: per-class Laplace noise on the epsilon-QIs and the
 * paper's metrics (docs/spec.md 4). See include/keps/kepsilon.h. */
#include "keps/kepsilon.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/accountant.h"
#include "keps/noise.h"
#include "keps/release.h"
#include "partition_internal.h"
#include "release_internal.h"

typedef struct {
    uint64_t key;
    uint32_t row;
} keyrow;

/* Sorts kr[0..n-1] by key, stably (tmp: n scratch entries): an LSD radix
 * sort a byte a pass, skipping the bytes every key shares. The entries come
 * in row order, so equal keys stay in row order, as the class ids need. */
static void sort_keyrow(keyrow *kr, keyrow *tmp, size_t n)
{
    for (int sh = 0; sh < 64 && n > 1; sh += 8) {
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[kr[i].key >> sh & 255]++;
        if (count[kr[0].key >> sh & 255] == n)
            continue;
        for (size_t d = 0, sum = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = sum, sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[kr[i].key >> sh & 255]++] = kr[i];
        memcpy(kr, tmp, n * sizeof *kr);
    }
}

/* One refinement pass: rows with equal (prev[i], key[i]) get one dense id. */
static size_t refine(keyrow *kr, keyrow *tmp, size_t n, const uint32_t *prev, const uint32_t *key,
                     const uint8_t *skip, uint32_t *cls)
{
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        if (!(skip && skip[i]))
            kr[cnt++] = (keyrow){((uint64_t)(prev ? prev[i] : 0) << 32) | (key ? key[i] : 0), (uint32_t)i};
    sort_keyrow(kr, tmp, cnt);
    for (size_t i = 0; i < n; i++)
        cls[i] = KEPS_NONE;
    size_t nc = 0;
    for (size_t r = 0; r < cnt; r++) {
        if (r > 0 && kr[r].key != kr[r - 1].key)
            nc++;
        cls[kr[r].row] = (uint32_t)nc;
    }
    return cnt ? nc + 1 : 0;
}

size_t keps_classes_from_keys(const uint32_t *keys, size_t n, size_t nkeys, const uint8_t *skip, uint32_t *cls)
{
    keyrow *kr = malloc((n ? n : 1) * sizeof *kr), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    uint32_t *prev = malloc((n ? n : 1) * sizeof *prev);
    if (!kr || !tmp || !prev) {
        free(kr);
        free(tmp);
        free(prev);
        return (size_t)-1;
    }
    size_t nc = refine(kr, tmp, n, NULL, NULL, skip, cls);
    for (size_t j = 0; j < nkeys; j++) {
        memcpy(prev, cls, n * sizeof *prev);
        nc = refine(kr, tmp, n, prev, keys + j * n, skip, cls);
    }
    free(kr);
    free(tmp);
    free(prev);
    return nc;
}

/* Rows grouped by class: rows of class c are order[start[c] .. start[c+1]). */
static int group_rows(const uint32_t *cls, size_t n, size_t nclasses, uint32_t **order, size_t **start)
{
    *order = malloc((n ? n : 1) * sizeof **order);
    *start = calloc(nclasses + 2, sizeof **start);
    if (!*order || !*start)
        return -1;
    size_t *s = *start;
    for (size_t i = 0; i < n; i++)
        if (cls[i] != KEPS_NONE)
            s[cls[i] + 2]++;
    for (size_t c = 0; c < nclasses; c++)
        s[c + 2] += s[c + 1];
    for (size_t i = 0; i < n; i++)
        if (cls[i] != KEPS_NONE)
            (*order)[s[cls[i] + 1]++] = (uint32_t)i;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* First index with s[p] >= v (strict = 0) or s[p] > v (strict = 1). */
static size_t bound(const double *s, size_t len, double v, int strict)
{
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strict ? s[mid] <= v : s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sorted copies of each class's values of column 0 (m = 1 fast paths). */
static double *sorted_by_class(const double *x, const uint32_t *order, const size_t *start, size_t nclasses)
{
    size_t total = start[nclasses];
    double *s = malloc((total ? total : 1) * sizeof *s);
    if (!s)
        return NULL;
    for (size_t r = 0; r < total; r++)
        s[r] = x[order[r]];
    for (size_t c = 0; c < nclasses; c++)
        qsort(s + start[c], start[c + 1] - start[c], sizeof *s, cmp_double);
    return s;
}

/* m > 1: a class's rows sorted on one coordinate, so that the rows that can
 * matter to a noisy row (closer than its own original, inside its
 * confidence box) are found by a range scan on that coordinate. With the
 * per-class scale the range is about the class's width, but with a large
 * epsilon or a wide class it is a small part of it, and most records link
 * (a full pass over the class each). */
typedef struct vrow {
    double v;
    uint32_t row;
} vrow;

static int cmp_vrow(const void *a, const void *b)
{
    const vrow *p = a, *q = b;
    return p->v < q->v ? -1 : p->v > q->v ? 1 : (p->row > q->row) - (p->row < q->row);
}

/* A coordinate with noise (its distance term bounds the whole distance
 * from below), or 0 if none has any. */
static size_t sort_coord(const double *b, size_t m)
{
    for (size_t j = 0; j < m; j++)
        if (b[j] > 0)
            return j;
    return 0;
}

static void class_index(const double *xj, const uint32_t *rows, size_t len, vrow *idx)
{
    for (size_t r = 0; r < len; r++)
        idx[r] = (vrow){xj[rows[r]], rows[r]};
    qsort(idx, len, sizeof *idx, cmp_vrow);
}

/* [lo, hi] around v holding every x with |v - x| <= w, widened beyond the
 * rounding of the subtraction and of the bounds themselves; the callers
 * test each row of the range exactly, so the widening costs no exactness. */
static void range_of(double v, double w, double *lo, double *hi)
{
    double slack = w * 1e-9 + 4 * fabs(v) * DBL_EPSILON + DBL_MIN;
    *lo = v - w - slack;
    *hi = v + w + slack;
}

/* First p with idx[p].v >= v. */
static size_t vbound(const vrow *idx, size_t len, double v)
{
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (idx[mid].v < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Laplace log-likelihood distance between noisy row i and original row l. */
static double ldist(const double *x, const double *noisy, size_t n, size_t m, const double *b, size_t i, size_t l)
{
    double d = 0;
    for (size_t j = 0; j < m; j++)
        if (b[j] > 0)
            d += fabs(noisy[j * n + i] - x[j * n + l]) / b[j];
    return d;
}

/* Whether an original in idx[] within [lo, hi] on the sorted coordinate
 * lies strictly closer to noisy row i than own. Nearest on that coordinate
 * first, outwards: an unlinked row usually stops after a few. */
static int closer_exists(const double *x, const double *noisy, size_t n, size_t m, const double *b, size_t i,
                         double own, const vrow *idx, size_t len, double v, double lo, double hi)
{
    size_t right = vbound(idx, len, v), left = right; /* left: one past the next to try */
    for (;;) {
        int l_ok = left > 0 && idx[left - 1].v >= lo, r_ok = right < len && idx[right].v <= hi;
        if (!l_ok && !r_ok)
            return 0;
        size_t p = l_ok && (!r_ok || v - idx[left - 1].v <= idx[right].v - v) ? --left : right++;
        if (ldist(x, noisy, n, m, b, i, idx[p].row) < own)
            return 1;
    }
}

/* Records linked, counting only those not flagged in skip (NULL = all);
 * flagged records stay candidates: the attacker still knows their originals. */
static size_t linked_count(const uint32_t *cls, size_t n, size_t nclasses, const double *x, const double *noisy,
                           size_t m, const double *scale, const uint8_t *skip)
{
    uint32_t *order;
    size_t *start;
    size_t linked = 0;
    double *s = NULL;
    vrow *idx = NULL;
    if (group_rows(cls, n, nclasses, &order, &start) || (m == 1 && !(s = sorted_by_class(x, order, start, nclasses))) ||
        (m > 1 && !(idx = malloc((n ? n : 1) * sizeof *idx)))) {
        free(order);
        free(start);
        free(s);
        return (size_t)-1;
    }
    for (size_t c = 0; c < nclasses; c++) {
        size_t a = start[c], e = start[c + 1], len = e - a, jk = 0;
        if (m > 1) {
            jk = sort_coord(scale + c * m, m);
            class_index(x + jk * n, order + a, len, idx);
        }
        for (size_t r = a; r < e; r++) {
            size_t i = order[r];
            if (m == 1) {
                /* the nearest original is next to v in sorted order */
                double v = noisy[i], own = fabs(v - x[i]);
                size_t p = bound(s + a, len, v, 0);
                double d = INFINITY;
                if (p < len)
                    d = fabs(v - s[a + p]);
                if (p > 0 && fabs(v - s[a + p - 1]) < d)
                    d = fabs(v - s[a + p - 1]);
                linked += own <= d && !(skip && skip[i]);
            } else if (!(skip && skip[i])) {
                /* linked unless some original is strictly closer; its term
                 * on coordinate jk alone is then below own as well */
                const double *b = scale + c * m;
                double own = ldist(x, noisy, n, m, b, i, i), lo, hi;
                range_of(noisy[jk * n + i], own * b[jk], &lo, &hi);
                linked += !closer_exists(x, noisy, n, m, b, i, own, idx, len, noisy[jk * n + i], lo, hi);
            }
        }
    }
    free(idx);
    free(s);
    free(order);
    free(start);
    return linked;
}

size_t keps_kepsilon_linked(const uint32_t *cls, size_t n, size_t nclasses, const double *x, const double *noisy,
                            size_t m, const double *scale)
{
    return linked_count(cls, n, nclasses, x, noisy, m, scale, NULL);
}

size_t keps_kepsilon_confident(const uint32_t *cls, size_t n, size_t nclasses, const double *x, const double *noisy,
                               size_t m, const double *scale, double c, size_t k, uint8_t *supp, size_t *records,
                               size_t *classes)
{
    uint32_t *order;
    size_t *start;
    double *s = NULL;
    vrow *idx = NULL;
    if (group_rows(cls, n, nclasses, &order, &start) || (m == 1 && !(s = sorted_by_class(x, order, start, nclasses))) ||
        (m > 1 && !(idx = malloc((n ? n : 1) * sizeof *idx)))) {
        free(order);
        free(start);
        free(s);
        return (size_t)-1;
    }
    memset(supp, 0, n);
    /* half-width factor per coordinate: a box of m independent Laplace
     * coordinates covers with probability c when each covers c^(1/m) */
    double f = -log(1.0 - pow(c, 1.0 / (double)m));
    size_t nrec = 0, ncls = 0, total = 0;
    for (size_t cc = 0; cc < nclasses; cc++) {
        size_t a = start[cc], e = start[cc + 1], len = e - a, kept = len;
        const double *b = scale + cc * m;
        size_t jk = m > 1 ? sort_coord(b, m) : 0;
        if (m > 1)
            class_index(x + jk * n, order + a, len, idx);
        for (size_t r = a; r < e; r++) {
            size_t i = order[r], ell = 0;
            if (m == 1) {
                double rc = f * b[0];
                ell = bound(s + a, len, noisy[i] + rc, 1) - bound(s + a, len, noisy[i] - rc, 0);
            } else {
                /* inside the box only if inside its side on coordinate jk;
                 * only 0, 1..k-1 or >= k matters, so stop at k */
                double lo, hi;
                range_of(noisy[jk * n + i], f * b[jk], &lo, &hi);
                for (size_t p = vbound(idx, len, lo); p < len && idx[p].v <= hi && ell < k; p++) {
                    size_t l = idx[p].row, j = 0;
                    while (j < m && fabs(noisy[j * n + i] - x[j * n + l]) <= f * b[j])
                        j++;
                    ell += j == m;
                }
            }
            if (ell > 0 && ell < k) {
                supp[i] = 1;
                nrec++;
                kept--;
            }
        }
        if (kept < k && kept > 0) {
            ncls++;
            for (size_t r = a; r < e; r++)
                supp[order[r]] = 1;
        }
        for (size_t r = a; r < e; r++)
            total += supp[order[r]];
    }
    free(idx);
    free(s);
    free(order);
    free(start);
    if (records)
        *records = nrec;
    if (classes)
        *classes = ncls;
    return total;
}

void keps_kepsilon_result_free(keps_kepsilon_result *r)
{
    if (!r)
        return;
    free(r->cls);
    free(r->class_size);
    free(r->scale);
    free(r->noisy);
    free(r->mean_scale);
    free(r->expected_are_col);
    free(r->measured_are_col);
    free(r->expected_are_col_before_confident);
    free(r->measured_are_col_before_confident);
    free(r->confident_suppressed);
    free(r->clamped);
    memset(r, 0, sizeof *r);
}

static keps_status check_input(const uint32_t *cls, size_t n, const double *x, size_t m,
                               const keps_kepsilon_params *p, keps_error *err)
{
    if (!(p->epsilon > 0) || !isfinite(p->epsilon))
        return keps_error_set(err, KEPS_EINPUT, "epsilon must be a positive number (got %g)", p->epsilon);
    if (m == 0)
        return keps_error_set(err, KEPS_EINPUT, "(k,epsilon)-anonymity needs at least one noisy column");
    if (!(p->confidence >= 0 && p->confidence < 1))
        return keps_error_set(err, KEPS_EINPUT, "confidence must be in [0, 1) (got %g)", p->confidence);
    /* an unknown scale would silently run as EC */
    if ((unsigned)p->scale > KEPS_KSCALE_DOMAIN)
        return keps_error_set(err, KEPS_EINPUT, "unknown noise scale %d (expected ec, global or domain)",
                              (int)p->scale);
    if (p->scale == KEPS_KSCALE_DOMAIN && (!p->lo || !p->hi))
        return keps_error_set(err, KEPS_EINPUT, "scale 'domain' needs public bounds for every noisy column");
    if (p->clamp && (!p->lo || !p->hi))
        return keps_error_set(err, KEPS_EINPUT, "clamping needs bounds lo and hi (infinite for a column without one)");
    for (size_t j = 0; p->scale == KEPS_KSCALE_GLOBAL && p->diameter && j < m; j++)
        if (!(p->diameter[j] >= 0 && isfinite(p->diameter[j])))
            return keps_error_set(err, KEPS_EINPUT, "noisy column %zu: the given diameter %g is no finite width >= 0",
                                  j + 1, p->diameter[j]);
    for (size_t j = 0; p->clamp && j < m; j++)
        if (isnan(p->lo[j]) || isnan(p->hi[j]) || p->lo[j] > p->hi[j])
            return keps_error_set(err, KEPS_EINPUT, "noisy column %zu: clamp bounds [%g, %g] are no interval", j + 1,
                                  p->lo[j], p->hi[j]);
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < n; i++) {
            double v = x[j * n + i];
            if (cls[i] == KEPS_NONE)
                continue;
            if (!isfinite(v))
                return keps_error_set(err, KEPS_EINPUT, "noisy column %zu, record %zu: not a finite number", j + 1,
                                      i + 1);
            if (p->scale == KEPS_KSCALE_DOMAIN && (v < p->lo[j] || v > p->hi[j]))
                return keps_error_set(err, KEPS_EINPUT,
                                      "noisy column %zu, record %zu: value %g lies outside the bounds [%g, %g]; "
                                      "widen the bounds",
                                      j + 1, i + 1, v, p->lo[j], p->hi[j]);
        }
    return KEPS_OK;
}

/* b_j(C) for every class: m * diam / epsilon, diam per the chosen scale.
 * Also the epsilon the record's noise actually guarantees: the secure
 * Laplace rounds to a grid, which costs a little (keps/noise.h); column j of
 * a class protects a spread diam_j and the record's columns add up. That is
 * computed from diam itself: recovering it as b*epsilon/m can come out one
 * ulp low and lose the grid step, understating the guarantee. Sets
 * r->epsilon_used, never below the requested epsilon: the grid's scale is
 * rounded up to 41 bits, which can leave the computed bound a hair below the
 * request (relative 2^-40 at most; diam 205.9 at epsilon 3 gives
 * 2.999999999999152), and the report states the request then (a weaker
 * claim that still holds; the contract is "never below the request"). */
static keps_status compute_scales(keps_kepsilon_result *r, const double *x, const keps_kepsilon_params *p,
                                  keps_error *err)
{
    size_t n = r->n, m = r->m, nc = r->nclasses;
    double *mn = malloc((nc ? nc : 1) * sizeof *mn), *mx = malloc((nc ? nc : 1) * sizeof *mx);
    double *eps = calloc(nc ? nc : 1, sizeof *eps);
    keps_status st = KEPS_OK;
    if (!mn || !mx || !eps)
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < m && !st; j++) {
        double gmin = INFINITY, gmax = -INFINITY;
        for (size_t c = 0; c < nc; c++) {
            mn[c] = INFINITY;
            mx[c] = -INFINITY;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t c = r->cls[i];
            if (c == KEPS_NONE)
                continue;
            double v = x[j * n + i];
            mn[c] = fmin(mn[c], v);
            mx[c] = fmax(mx[c], v);
            gmin = fmin(gmin, v);
            gmax = fmax(gmax, v);
        }
        if (p->scale == KEPS_KSCALE_GLOBAL && p->diameter)
            gmin = 0, gmax = p->diameter[j];
        double fixed = p->scale == KEPS_KSCALE_GLOBAL   ? gmax - gmin
                       : p->scale == KEPS_KSCALE_DOMAIN ? p->hi[j] - p->lo[j]
                                                        : -1;
        double sum = 0;
        for (size_t c = 0; c < nc && !st; c++) {
            double diam = fixed >= 0 ? fixed : mx[c] - mn[c];
            double b = (double)m * diam / p->epsilon;
            keps_noise_info info;
            if (diam > 0 && keps_laplace_info(b, diam, &info) != 0) /* valid inputs: the job cannot be done */
                st = keps_error_set(err, KEPS_EJOB,
                                    "noisy column %zu: a class spans %g, which needs the Laplace scale %g; "
                                    "scales that are not finite or below 2^-900 cannot be sampled: rescale the "
                                    "column or change epsilon",
                                    j + 1, diam, b);
            else if (diam > 0) /* a record's columns compose sequentially */
                eps[c] = keps_acct_sum(eps[c], info.epsilon);
            r->scale[c * m + j] = b;
            sum += b;
        }
        r->mean_scale[j] = nc ? sum / (double)nc : 0;
    }
    keps_accountant classes; /* disjoint records: parallel composition, the maximum */
    keps_acct_init(&classes);
    for (size_t c = 0; c < nc && !st; c++)
        keps_acct_max(&classes, eps[c], 0);
    r->epsilon_used = fmax(classes.epsilon, p->epsilon);
    free(mn);
    free(mx);
    free(eps);
    return st;
}

/* Expected and measured ARE over the released cells, leaving out the rows
 * flagged in skip (NULL = none). */
static void compute_errors(keps_kepsilon_result *r, const double *x, const uint8_t *skip)
{
    size_t n = r->n, m = r->m;
    r->expected_are = r->measured_are = 0;
    for (size_t j = 0; j < m; j++) {
        double exp_sum = 0, meas_sum = 0;
        size_t cells = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t c = r->cls[i];
            double v = x[j * n + i];
            if (c == KEPS_NONE || v == 0 || (skip && skip[i]))
                continue;
            /* sum_C b |C| / H(C) = sum_C b sum_{i in C} 1/|x_i| */
            exp_sum += r->scale[c * m + j] / fabs(v);
            meas_sum += fabs(r->noisy[j * n + i] - v) / fabs(v);
            cells++;
        }
        r->expected_are_col[j] = cells ? exp_sum / (double)cells : 0;
        r->measured_are_col[j] = cells ? meas_sum / (double)cells : 0;
        r->expected_are += r->expected_are_col[j] / (double)m;
        r->measured_are += r->measured_are_col[j] / (double)m;
    }
}

/* The mechanism: one draw per released record and column at its class's
 * scale (a class of one value needs none). Rows the k-anonymization
 * suppressed get NAN, never their x: a caller writing noisy directly must
 * not release an original value. */
static keps_status draw_noise(keps_kepsilon_result *r, const double *x, keps_rng *rng, keps_error *err)
{
    size_t n = r->n, m = r->m;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0, at = i; j < m; j++, at += n) {
            if (r->cls[i] == KEPS_NONE) {
                r->noisy[at] = NAN;
                continue;
            }
            double b = r->scale[r->cls[i] * m + j];
            r->noisy[at] = b > 0 ? keps_laplace(rng, x[at], b) : x[at];
        }
    /* a finite scale near DBL_MAX can still draw noise that overflows */
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < n; i++)
            if (r->cls[i] != KEPS_NONE && !isfinite(r->noisy[j * n + i]))
                return keps_error_set(err, KEPS_EJOB,
                                      "(k,epsilon)-anonymity noisy column %zu, record %zu came out as %g; keps never "
                                      "releases a number that is not finite (an overflow: rescale the data or use "
                                      "a larger epsilon)",
                                      j + 1, i + 1, r->noisy[j * n + i]);
    return KEPS_OK;
}

/* Rows c-confidence suppressed are withheld like the k-anonymization's:
 * NAN, once every metric (which needed their noisy values) is computed. */
/* Output precision and clamping (post-processing of the noisy values,
 * before any metric reads them); moved[] marks the cells the clamp moved. */
static void round_clamp(keps_kepsilon_result *r, const keps_kepsilon_params *p, uint8_t *moved)
{
    for (size_t j = 0; j < r->m; j++)
        for (size_t i = 0; i < r->n; i++) {
            double *v = &r->noisy[j * r->n + i];
            if (r->cls[i] == KEPS_NONE || isnan(*v))
                continue;
            double x = keps_round_decimals(*v, p->digits ? p->digits[j] : -1);
            if (p->clamp && (x < p->lo[j] || x > p->hi[j])) {
                x = x < p->lo[j] ? p->lo[j] : p->hi[j];
                moved[j * r->n + i] = 1;
            }
            *v = x;
        }
}

static void withhold_suppressed(keps_kepsilon_result *r)
{
    for (size_t i = 0; r->confident_suppressed && i < r->n; i++)
        for (size_t j = 0; j < r->m && r->confident_suppressed[i]; j++)
            r->noisy[j * r->n + i] = NAN;
}

keps_status keps_kepsilon_run(const uint32_t *cls, size_t n, const double *x, size_t m,
                              const keps_kepsilon_params *p, keps_rng *rng, keps_kepsilon_result *out,
                              keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_input(cls, n, x, m, p, err);
    if (st)
        return st;
    keps_kepsilon_result *r = out;
    uint8_t *moved = NULL;
    r->n = n;
    r->m = m;
    r->cls = malloc((n ? n : 1) * sizeof *r->cls);
    r->noisy = malloc((n * m > 0 ? n * m : 1) * sizeof *r->noisy);
    r->mean_scale = calloc(m, sizeof *r->mean_scale);
    r->expected_are_col = calloc(m, sizeof *r->expected_are_col);
    r->measured_are_col = calloc(m, sizeof *r->measured_are_col);
    r->expected_are_col_before_confident = calloc(m, sizeof *r->expected_are_col_before_confident);
    r->measured_are_col_before_confident = calloc(m, sizeof *r->measured_are_col_before_confident);
    if (!r->cls || !r->noisy || !r->mean_scale || !r->expected_are_col || !r->measured_are_col ||
        !r->expected_are_col_before_confident || !r->measured_are_col_before_confident)
        goto oom;
    /* dense class ids: one refinement pass over the given ids */
    uint8_t *skip = malloc(n ? n : 1);
    if (!skip)
        goto oom;
    for (size_t i = 0; i < n; i++)
        skip[i] = cls[i] == KEPS_NONE;
    size_t nc = keps_classes_from_keys(cls, n, 1, skip, r->cls);
    free(skip);
    if (nc == (size_t)-1)
        goto oom;
    r->nclasses = nc;
    r->class_size = calloc(nc ? nc : 1, sizeof *r->class_size);
    r->scale = malloc((nc * m > 0 ? nc * m : 1) * sizeof *r->scale);
    if (!r->class_size || !r->scale)
        goto oom;
    for (size_t i = 0; i < n; i++)
        if (r->cls[i] != KEPS_NONE) {
            r->class_size[r->cls[i]]++;
            r->released++;
        }
    if ((st = compute_scales(r, x, p, err)) || (st = draw_noise(r, x, rng, err))) {
        keps_kepsilon_result_free(r);
        return st;
    }
    moved = p->clamp ? calloc(n * m > 0 ? n * m : 1, 1) : NULL;
    if (p->clamp && (!moved || !(r->clamped = calloc(m, sizeof *r->clamped))))
        goto oom;
    round_clamp(r, p, moved);
    compute_errors(r, x, NULL);
    r->linked = keps_kepsilon_linked(r->cls, n, nc, x, r->noisy, m, r->scale);
    if (r->linked == (size_t)-1)
        goto oom;
    r->linking_risk = n ? (double)r->linked / (double)n : 0;
    r->linked_before_confident = r->linked;
    r->linking_risk_before_confident = r->linking_risk;
    r->expected_are_before_confident = r->expected_are;
    r->measured_are_before_confident = r->measured_are;
    memcpy(r->expected_are_col_before_confident, r->expected_are_col, m * sizeof *r->expected_are_col);
    memcpy(r->measured_are_col_before_confident, r->measured_are_col, m * sizeof *r->measured_are_col);
    if (p->confidence > 0) {
        r->confident_suppressed = malloc(n ? n : 1);
        if (!r->confident_suppressed)
            goto oom;
        r->confident_suppressed_rows =
            keps_kepsilon_confident(r->cls, n, nc, x, r->noisy, m, r->scale, p->confidence, p->k,
                                    r->confident_suppressed, &r->confident_suppressed_records,
                                    &r->confident_suppressed_classes);
        if (r->confident_suppressed_rows == (size_t)-1)
            goto oom;
        if (r->confident_suppressed_rows) { /* the metrics describe what is released */
            compute_errors(r, x, r->confident_suppressed);
            r->linked = linked_count(r->cls, n, nc, x, r->noisy, m, r->scale, r->confident_suppressed);
            if (r->linked == (size_t)-1)
                goto oom;
            r->linking_risk = n ? (double)r->linked / (double)n : 0;
        }
    }
    withhold_suppressed(r);
    for (size_t c = 0; moved && c < n * m; c++)
        r->clamped[c / n] += moved[c] && !isnan(r->noisy[c]);
    free(moved);
    return KEPS_OK;
oom:
    free(moved);
    keps_kepsilon_result_free(r);
    return keps_error_set(err, KEPS_ENOMEM, "out of memory");
}

/* ---------------------------------------------------------------- release */

typedef struct keps_rel {
    const keps_kepsilon_result *r;
    const keps_table *t, *gen;
    const int *rel_of; /* [ncols] column of gen, or -1 */
    const int *qi_of;  /* [ncols] 1 for a QI column */
    const int *nz_of;  /* [ncols] noisy index or -1 */
    char (*buf)[32];   /* [m] one per noisy column: a row's cells coexist */
} keps_rel;

static int withheld(const keps_kepsilon_result *r, size_t row)
{
    return r->cls[row] == KEPS_NONE || (r->confident_suppressed && r->confident_suppressed[row]);
}

static const char *keps_cell(void *ctx, size_t row, size_t col)
{
    keps_rel *c = ctx;
    int q = c->qi_of[col], a = c->nz_of[col];
    if (!q && a < 0)
        return NULL;
    if (withheld(c->r, row)) /* never a label, never a number (noisy is NAN there) */
        return "*";
    if (q)
        return c->gen ? keps_table_str(c->gen, (size_t)c->rel_of[col], row) : NULL;
    keps_format_number_in(c->buf[a], sizeof c->buf[a], c->r->noisy[(size_t)a * c->r->n + row], c->t);
    return c->buf[a];
}

keps_status keps_kepsilon_release(const keps_schema *s, const keps_kepsilon_result *r, const keps_table *generalized,
                                  int remove_suppressed, keps_table **release, keps_error *err)
{
    *release = NULL;
    const keps_table *t = s->t;
    size_t n = t->nrows, ncols = t->ncols, m = s->nnoisy;
    if (r->n != n || r->m != m)
        return keps_error_set(err, KEPS_EINPUT,
                              "kepsilon release: the result has %zu rows and %zu noisy columns, the schema %zu "
                              "rows and %zu noisy columns",
                              r->n, r->m, n, m);
    int *cols = malloc((3 * ncols + 1) * sizeof *cols);
    char(*buf)[32] = malloc((m ? m : 1) * sizeof *buf);
    uint8_t *skip = remove_suppressed ? malloc(n ? n : 1) : NULL;
    keps_status st = cols && buf && (skip || !remove_suppressed) ? KEPS_OK
                                                                 : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_release_columns(s, generalized, cols, err);
    keps_rel c = {r, t, generalized, cols, cols + ncols, cols + 2 * ncols, buf};
    for (size_t j = 0; j < ncols && !st; j++) {
        cols[ncols + j] = 0;
        cols[2 * ncols + j] = -1;
    }
    for (size_t q = 0; q < s->nqi && !st; q++)
        cols[ncols + s->qi[q].col] = 1;
    for (size_t a = 0; a < m && !st; a++)
        cols[2 * ncols + s->noisy[a]] = (int)a;
    for (size_t i = 0; i < n && !st; i++) {
        int w = withheld(r, i);
        if (skip)
            skip[i] = (uint8_t)w;
        for (size_t a = 0; a < m && !w && !st; a++)
            if (!isfinite(r->noisy[a * n + i]))
                st = keps_error_set(err, KEPS_EJOB,
                                    "kepsilon release: the noisy value of row %zu in column '%s' is %g; keps "
                                    "never releases a number that is not finite",
                                    i + 1, t->cols[s->noisy[a]].name, r->noisy[a * n + i]);
    }
    if (!st)
        st = keps_release_build_rows(s, skip, keps_cell, &c, release, err);
    free(cols);
    free(buf);
    free(skip);
    return st;
}
