/* Record linkage and prosecutor risk (see include/keps/risk.h). */
#include "keps/risk.h"

#include "dist.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RL_THREADS 2
#define RL_ORDER_MIN 4096 /* queries below which they are answered in row order */
#define RL_THREAD_MIN 1024 /* queries below which one thread answers them all */

/* ---- record linkage: exact nearest targets with a k-d tree ----
 *
 * Query i contributes 1/|G| if its own target is among its nearest targets
 * G. Let T = d(q_i, own target). If some target is strictly nearer than T,
 * the contribution is 0; otherwise G = the targets at distance exactly T and
 * the contribution is 1/(their multiplicities' sum). So each query is a
 * range search of radius T over the distinct targets that stops at the
 * first target nearer than T, in a k-d tree whose nodes carry the bounding
 * box of their points.
 *
 * Exactness. Every distance is kd_dist: terms t_j = fl(fl(target_j - q_j)
 * * w_j) (w_j = 1/sd_j > 0, values in the data's units), squared and added
 * in the order j = 0..m-1, the arithmetic of tests/test_rl.c's all-pairs
 * oracle. A node is skipped only when its lower bound B is
 * strictly greater than T, B computed with the same arithmetic from the gaps
 * g_j = fl(fl(lo_j - q_j) * w_j) if q_j < lo_j, fl(fl(hi_j - q_j) * w_j) if
 * q_j > hi_j, else 0 (lo/hi: the box's min and max on axis j). For any
 * point p of the box:
 *  - per axis |g_j| <= |t_j(p)|: if q_j < lo_j <= p_j then
 *    0 < lo_j - q_j <= p_j - q_j exactly, and rounding to nearest is
 *    monotone, so 0 <= fl(lo_j - q_j) <= fl(p_j - q_j), and so after the
 *    product with w_j > 0 (monotone again); the mirror image for
 *    q_j > hi_j; 0 is below everything. (No inf - inf here: q_j < lo_j
 *    excludes q_j = +inf and lo_j = -inf.)
 *  - fl(x*x) is nondecreasing in |x|, and fl(a + b) is nondecreasing in a
 *    and in b; both sums start at 0 and add their terms in the same order,
 *    so by induction over j every partial sum of B is <= the same partial
 *    sum of d(p): B <= d(p) (infinities included; a NaN distance, which
 *    needs inf - inf in some t_j, equals nothing and is below nothing, in
 *    the all-pairs scan as here).
 * So a skipped point has d(p) > T or d(p) NaN: it is neither nearer than T
 * nor tied at T, and every target the all-pairs scan counts is counted here.
 * T NaN (the own distance is inf - inf somewhere): the scan's d_own == best
 * is false, contribution 0; so here. The contributions are summed in query
 * order, so RL is bit-identical to the scan's. */

#define KD_LEAF 8   /* points per leaf at most (unless they cannot be split) */
/* The search stack holds at most one pending sibling per level plus two
 * children: halving nu < 2^32 points gives depth < 32. */
#define KD_STACK 64

typedef struct kd_node {
    uint32_t lo, hi; /* its points: rows lo..hi-1 of pts */
    uint32_t child;  /* children at child and child+1; 0 for a leaf */
} kd_node;

typedef struct kd_tree {
    size_t m, nnodes;
    const double *w; /* [m] 1/sd per axis: a term is fl(fl(p_j - q_j) * w_j) */
    double *pts;    /* [nu*m] the distinct targets, row-major, in tree order */
    uint32_t *mult; /* [nu] how many target rows each stands for */
    kd_node *node;
    double *box;    /* [nnodes*2m]: node's min on each axis, then max */
} kd_tree;

/* Rearrange idx[0..n-1] so idx[k] holds the k-th smallest key (key[idx[i]*stride]),
 * smaller-or-equal keys before it and greater-or-equal after (Wirth's FIND,
 * pivot the median of three). Only the balance of the tree rests on it. */
static void kd_select(uint32_t *idx, ptrdiff_t n, ptrdiff_t k, const double *key, size_t stride)
{
    ptrdiff_t l = 0, r = n - 1;
    while (l < r) {
        double a = key[idx[l] * stride], b = key[idx[k] * stride], c = key[idx[r] * stride];
        double x = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        ptrdiff_t i = l, j = r;
        do {
            while (key[idx[i] * stride] < x)
                i++;
            while (x < key[idx[j] * stride])
                j--;
            if (i <= j) {
                uint32_t tmp = idx[i];
                idx[i++] = idx[j];
                idx[j--] = tmp;
            }
        } while (i <= j);
        if (j < k)
            l = i;
        if (k < i)
            r = j;
    }
}

/* Node v over idx[lo..hi-1] (u column-major, nu rows): its box, then a
 * split at the median of the widest axis. *next: the next free node. */
static void kd_build(kd_tree *t, const double *u, size_t nu, uint32_t *idx, size_t v, uint32_t lo, uint32_t hi,
                     size_t *next)
{
    size_t m = t->m;
    double *bl = t->box + v * 2 * m, *bh = bl + m;
    int axis = -1;
    double widest = 0;
    for (size_t j = 0; j < m; j++) {
        const double *col = u + j * nu;
        double mn = col[idx[lo]], mx = mn;
        for (uint32_t i = lo + 1; i < hi; i++) {
            double x = col[idx[i]];
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
        }
        bl[j] = mn, bh[j] = mx;
        double width = (mx - mn) * t->w[j]; /* in standard deviations */
        if (width > widest) /* NaN (inf - inf) is not wider: no split there */
            widest = width, axis = (int)j;
    }
    t->node[v] = (kd_node){lo, hi, 0};
    if (hi - lo <= KD_LEAF || axis < 0) /* few points, or all equal valued */
        return;
    uint32_t mid = lo + (hi - lo) / 2;
    kd_select(idx + lo, hi - lo, mid - lo, u + (size_t)axis * nu, 1);
    size_t c = *next;
    *next += 2;
    t->node[v].child = (uint32_t)c;
    kd_build(t, u, nu, idx, c, lo, mid, next);
    kd_build(t, u, nu, idx, c + 1, mid, hi, next);
}

/* Order the queries q (row-major, n x m) along a Z-order curve, so that
 * neighbours in space are mostly neighbours in the order and consecutive
 * queries walk the same parts of the tree (in cache): the first <= 4 axes
 * are cut into 2^b cells between the queries' finite min and max, the cell
 * numbers' bits interleaved into a key, the keys radix-sorted (ord, and the
 * scratch key, tmp, tord: [n] each). Only speed depends on it: every
 * query's result is stored at its own index. */
static void query_order(const double *q, size_t n, size_t m, uint32_t *ord, uint64_t *key, uint64_t *tmp,
                        uint32_t *tord)
{
    size_t ma = m < 4 ? m : 4, b = 64 / ma < 21 ? 64 / ma : 21;
    double lo[4], scale[4], top = (double)((1u << b) - 1);
    for (size_t j = 0; j < ma; j++) {
        double mn = INFINITY, mx = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double z = q[i * m + j];
            if (isfinite(z))
                mn = z < mn ? z : mn, mx = z > mx ? z : mx;
        }
        lo[j] = mn;
        scale[j] = mx > mn && isfinite(top / (mx - mn)) ? top / (mx - mn) : 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t cell[4];
        for (size_t j = 0; j < ma; j++) {
            double c = (q[i * m + j] - lo[j]) * scale[j]; /* NaN for inf * 0 */
            cell[j] = c >= top ? (uint32_t)top : c > 0 ? (uint32_t)c : 0;
        }
        uint64_t k = 0;
        for (size_t bit = b; bit-- > 0;)
            for (size_t j = 0; j < ma; j++)
                k = k << 1 | (cell[j] >> bit & 1);
        key[i] = k;
        ord[i] = (uint32_t)i;
    }
    for (int sh = 0; sh < 64; sh += 8) { /* LSD radix sort, a byte a pass */
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[key[i] >> sh & 255]++;
        if (count[key[0] >> sh & 255] == n) /* all share this byte */
            continue;
        for (size_t d = 0, sum = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = sum, sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t d = count[key[i] >> sh & 255]++;
            tmp[d] = key[i], tord[d] = ord[i];
        }
        memcpy(key, tmp, n * sizeof *key);
        memcpy(ord, tord, n * sizeof *ord);
    }
}

/* Squared standardized distance of target p to query q, both in the data's
 * own units: standardizing the difference, not each value, keeps mirror
 * ties exact (a release at the midpoint of two originals is as far from
 * both, fl(a - mid) = fl(mid - b) when both differences are exact, where
 * fl((a - mu)/sd) - fl((mid - mu)/sd) can miss the other side by an ulp). */
static ALWAYS_INLINE double kd_dist(const kd_tree *t, const double *p, const double *q, size_t m)
{
    DIST_NO_FMA
    double e = 0;
    for (size_t j = 0; j < m; j++) {
        double d = (p[j] - q[j]) * t->w[j];
        e += d * d;
    }
    return e;
}

/* Lower bound of d(q, p) over the points p of node v's box (see above). */
static ALWAYS_INLINE double kd_bound(const kd_tree *t, size_t v, const double *q, size_t m)
{
    DIST_NO_FMA
    const double *bl = t->box + v * 2 * m, *bh = bl + m;
    double e = 0;
    for (size_t j = 0; j < m; j++) {
        double g = (q[j] < bl[j] ? bl[j] - q[j] : q[j] > bh[j] ? bh[j] - q[j] : 0) * t->w[j];
        e += g * g;
    }
    return e;
}

/* Query q with its own target at tree row own: 1/|G| or 0 (see above). */
static ALWAYS_INLINE double kd_query(const kd_tree *t, const double *q, size_t own, size_t m)
{
    double T = kd_dist(t, t->pts + own * m, q, m);
    if (isnan(T)) /* the old scan's d_own == best was false */
        return 0;
    double count = 0;
    uint32_t stack[KD_STACK];
    size_t sp = 0;
    stack[sp++] = 0; /* the root: own is in it, so its bound is <= T */
    while (sp > 0) {
        const kd_node *nd = &t->node[stack[--sp]];
        if (nd->child == 0) {
            for (uint32_t p = nd->lo; p < nd->hi; p++) {
                double d = kd_dist(t, t->pts + (size_t)p * m, q, m);
                if (d < T)
                    return 0;
                if (d == T)
                    count += t->mult[p];
            }
            continue;
        }
        /* the nearer child on top: a target nearer than T turns up early */
        double b0 = kd_bound(t, nd->child, q, m), b1 = kd_bound(t, nd->child + 1, q, m);
        int first = b1 < b0; /* 0: child, 1: child+1 is the nearer */
        double bn = first ? b1 : b0, bf = first ? b0 : b1;
        if (!(bf > T))
            stack[sp++] = nd->child + (uint32_t)!first;
        if (!(bn > T))
            stack[sp++] = nd->child + (uint32_t)first;
    }
    return 1.0 / count;
}

typedef struct rl_job {
    const kd_tree *tree;
    const double *q;       /* [n*m] standardized query records, row-major */
    const uint32_t *ord;   /* [n] the order to answer them in */
    const uint32_t *own;   /* [n] tree row of query i's own target */
    double *contrib;       /* [n] */
    size_t lo, hi;
} rl_job;

static void *rl_worker(void *arg)
{
    rl_job *j = arg;
    const kd_tree *t = j->tree;
    for (size_t k = j->lo; k < j->hi; k++) {
        size_t i = j->ord[k];
        const double *q = j->q + i * t->m;
        switch (t->m) { /* constant m lets the compiler unroll the loops */
        case 1: j->contrib[i] = kd_query(t, q, j->own[i], 1); break;
        case 2: j->contrib[i] = kd_query(t, q, j->own[i], 2); break;
        case 3: j->contrib[i] = kd_query(t, q, j->own[i], 3); break;
        case 4: j->contrib[i] = kd_query(t, q, j->own[i], 4); break;
        default: j->contrib[i] = kd_query(t, q, j->own[i], t->m); break;
        }
    }
    return NULL;
}

/* The attributes that carry distance (sd > 0 in the original), copied to
 * zo, zr (row-major, stride m, kept attributes first) with w[kept] = 1/sd:
 * the standardization is applied to each difference (kd_dist), so the
 * mean, which cancels there, is not subtracted. Returns the kept count. */
static size_t standardize(const double *orig, const double *rel, size_t n, size_t m, double *zo, double *zr,
                          double *w)
{
    size_t kept = 0;
    for (size_t j = 0; j < m; j++) {
        double mu, sd;
        column_moments(orig, n, m, j, &mu, &sd);
        if (!(sd > 0))
            continue;
        for (size_t i = 0; i < n; i++) {
            zo[i * m + kept] = orig[i * m + j];
            zr[i * m + kept] = rel[i * m + j];
        }
        w[kept++] = 1.0 / sd;
    }
    return kept;
}

/* Hash of a row's bytes (splitmix64's finalizer over each word). */
static uint64_t row_hash(const double *row, size_t m)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (size_t j = 0; j < m; j++) {
        uint64_t w;
        memcpy(&w, row + j, sizeof w);
        h ^= w;
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9u;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBu;
        h ^= h >> 31;
    }
    return h;
}

/* The distinct target rows (byte-wise; an open-addressing hash table of
 * cap >= 2n slots): u column-major [m*nu] in order of first occurrence,
 * mult[v] their counts, of[i] = the distinct row of target row i. first and
 * slot are scratch ([n] and [cap]). Returns nu. The order of the distinct
 * rows does not matter: a query's result depends only on their values and
 * counts. */
static size_t distinct_targets(const double *t, size_t n, size_t m, uint32_t *first, uint32_t *slot, size_t cap,
                               double *u, uint32_t *mult, uint32_t *of)
{
    memset(slot, 0xff, cap * sizeof *slot);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++) {
        const double *row = t + i * m;
        size_t s = (size_t)row_hash(row, m) & (cap - 1);
        while (slot[s] != UINT32_MAX && memcmp(t + (size_t)first[slot[s]] * m, row, m * sizeof *row) != 0)
            s = (s + 1) & (cap - 1);
        if (slot[s] == UINT32_MAX) {
            slot[s] = (uint32_t)nu;
            first[nu] = (uint32_t)i;
            mult[nu++] = 0;
        }
        mult[slot[s]]++;
        of[i] = slot[s];
    }
    for (size_t v = 0; v < nu; v++)
        for (size_t a = 0; a < m; a++)
            u[a * nu + v] = t[(size_t)first[v] * m + a];
    return nu;
}

static keps_status linkage(const double *q, const double *t, const double *w, size_t n, size_t m, double *rl,
                           keps_error *err)
{
    size_t maxnodes = 4 * n / KD_LEAF + 1; /* leaves hold >= KD_LEAF/2 points each */
    size_t cap = 2;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *of = malloc(n * sizeof *of), *mult = malloc(n * sizeof *mult), *idx = malloc(n * sizeof *idx);
    uint32_t *slot = malloc(cap * sizeof *slot);
    double *u = malloc(n * m * sizeof *u), *contrib = malloc(n * sizeof *contrib);
    kd_tree tr = {m, 0, w, malloc(n * m * sizeof(double)), malloc(n * sizeof(uint32_t)),
                  malloc(maxnodes * sizeof(kd_node)), malloc(maxnodes * 2 * m * sizeof(double))};
    keps_status st = KEPS_OK;
    if (!of || !mult || !idx || !slot || !u || !contrib || !tr.pts || !tr.mult || !tr.node || !tr.box) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto done;
    }
    size_t nu = distinct_targets(t, n, m, idx, slot, cap, u, mult, of);
    for (size_t v = 0; v < nu; v++)
        idx[v] = (uint32_t)v;
    tr.nnodes = 1;
    kd_build(&tr, u, nu, idx, 0, 0, (uint32_t)nu, &tr.nnodes);
    /* the targets in tree order; then of[] is mapped to tree rows (mult,
     * copied, is reused as distinct row -> tree row) */
    for (size_t p = 0; p < nu; p++) {
        for (size_t a = 0; a < m; a++)
            tr.pts[p * m + a] = u[a * nu + idx[p]];
        tr.mult[p] = mult[idx[p]];
    }
    for (size_t p = 0; p < nu; p++)
        mult[idx[p]] = (uint32_t)p;
    for (size_t i = 0; i < n; i++)
        of[i] = mult[of[i]];
    /* idx, free again: the query order; below RL_ORDER_MIN queries the
     * tree is in cache anyway */
    uint64_t *key = NULL, *tmp = NULL;
    uint32_t *tord = NULL;
    if (n >= RL_ORDER_MIN) {
        key = malloc(n * sizeof *key), tmp = malloc(n * sizeof *tmp);
        tord = malloc(n * sizeof *tord);
    }
    if (key && tmp && tord) {
        query_order(q, n, m, idx, key, tmp, tord);
    } else {
        for (size_t i = 0; i < n; i++)
            idx[i] = (uint32_t)i;
    }
    free(key), free(tmp), free(tord);
    /* a thread costs more than a few hundred small queries (dpmicro's audit
     * runs this on 16 records a million times) */
    int nth = n >= RL_THREAD_MIN ? RL_THREADS : 1;
    rl_job jobs[RL_THREADS];
    pthread_t th[RL_THREADS];
    int started[RL_THREADS] = {0};
    for (int k = 0; k < nth; k++) {
        jobs[k] = (rl_job){&tr, q, idx, of, contrib, n * (size_t)k / (size_t)nth, n * (size_t)(k + 1) / (size_t)nth};
        if (k > 0)
            started[k] = pthread_create(&th[k], NULL, rl_worker, &jobs[k]) == 0;
    }
    rl_worker(&jobs[0]);
    for (int k = 1; k < nth; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            rl_worker(&jobs[k]);
    }
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += contrib[i];
    *rl = s / (double)n;
done:
    free(of), free(mult), free(idx), free(slot), free(u), free(contrib);
    free(tr.pts), free(tr.mult), free(tr.node), free(tr.box);
    return st;
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
    double *zo = malloc(n * m * sizeof *zo), *zr = malloc(n * m * sizeof *zr), *w = malloc(m * sizeof *w);
    if (!zo || !zr || !w) {
        free(zo), free(zr), free(w);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    size_t kept = standardize(orig, rel, n, m, zo, zr, w);
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
        st = dir == KEPS_RL_ORIGINAL ? linkage(zo, zr, w, n, kept, rl, err) : linkage(zr, zo, w, n, kept, rl, err);
    free(zo);
    free(zr);
    free(w);
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
    keps_partition ec;
    keps_status st = keps_partition_from_release(t, cols, m, mode, NULL, &ec, &out->suppressed, err);
    if (st)
        return st;
    size_t smallest = SIZE_MAX, in_small[3] = {0, 0, 0};
    out->all_star = t->nrows > 0 && out->suppressed == t->nrows;
    out->classes = ec.nclasses;
    for (size_t c = 0; c < ec.nclasses; c++) {
        size_t sz = ec.count[c];
        out->records += sz;
        smallest = sz < smallest ? sz : smallest;
        for (int b = 0; b < 3; b++)
            in_small[b] += sz < lim[b] ? sz : 0;
    }
    keps_partition_free(&ec);
    if (out->records == 0) /* every row suppressed */
        return KEPS_OK;
    out->max = 1.0 / (double)smallest;
    out->avg = (double)out->classes / (double)out->records; /* sum over records of 1/|EC| = classes */
    for (int b = 0; b < 3; b++)
        out->below[b] = (double)in_small[b] / (double)out->records;
    return KEPS_OK;
}
