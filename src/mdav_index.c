/* A k-d tree with deletions for MDAV (see mdav_index.h).
 *
 * Nodes split their records at the median of the widest attribute, in the
 * total order (value, input row): records with equal values are split by
 * row, so duplicates lie in row order from left to right and a query that
 * wants the smallest rows among tied records finds them in few leaves. A
 * leaf keeps its remaining records at the front of its slice of the point
 * array (a removed record is swapped with the leaf's last); every node keeps
 * the bounding box and the smallest row of its remaining records, refitted
 * on the way up from a removal while they change, so the boxes shrink as
 * MDAV eats the data from the outside in.
 *
 * Exactness. A distance is dist_point(row, 1, p, m) on the standardized
 * doubles the scan reads. A node is skipped only when no record in it can
 * change the answer, by bounds computed with the same arithmetic:
 *  - lower bound: the distance from p to the box point nearest to p (p
 *    clamped to the box). For a record a in the box and a box edge e between
 *    p_j and a_j, fl(e - p_j) lies between 0 and fl(a_j - p_j) (rounding is
 *    monotone), so each rounded term and square is at most the record's,
 *    and the sums, added in the same order from 0, are too.
 *  - upper bound: per attribute the larger of the rounded squares
 *    fl(lo_j - p_j)^2 and fl(hi_j - p_j)^2; fl(a_j - p_j) lies between
 *    fl(lo_j - p_j) and fl(hi_j - p_j), so its square is at most the larger.
 * A node is skipped when its bound is strictly worse than the current
 * k-th answer, or equal to it while its smallest row is larger than the
 * answer's (a tie there would lose to the answer's smaller row). */
#include "mdav_index.h"

#include "dist.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEAF 8
/* one pending sibling per level plus two children; depth < 34 (nodes
 * halve, leaves hold at least LEAF/2 records) */
#define STACK 80
#define NONE UINT32_MAX

typedef struct ix_node {
    uint32_t lo, hi;  /* its slice of the point array */
    uint32_t live;    /* remaining records (a leaf's: at lo..lo+live-1) */
    uint32_t child;   /* children child and child+1; 0 for a leaf */
    uint32_t parent;  /* NONE for the root */
    uint32_t minid;   /* smallest remaining row, NONE when empty */
    double maxn;      /* largest squared norm of a remaining record */
} ix_node;

struct mdav_index {
    size_t n, m, nnodes, cap;
    double *pts;      /* [n*m] row-major in tree order */
    uint32_t *id;     /* [n] input row at each position */
    uint32_t *pos;    /* [n] position of each input row */
    uint32_t *leaf;   /* [n] leaf holding each position */
    double *nrm;      /* [n] squared distance of the record at each position to o */
    double *o;        /* [m] the origin of the norms: a recent centroid */
    ix_node *node;
    double *box;      /* [nnodes*2m]: min of each attribute, then max */
    double *scratch;  /* [2m] a leaf's new box */
};

/* (value, row) order on one attribute's column */
static inline int key_less(const double *col, uint32_t a, uint32_t b)
{
    return col[a] < col[b] || (col[a] == col[b] && a < b);
}

/* Rearranges ord[0..n-1] so ord[k] is the k-th in (value, row) order, the
 * ones before it smaller and after it larger (Hoare's FIND; the order is
 * total, so the answer is unique and so is the tree). */
static void select_kth(uint32_t *ord, ptrdiff_t n, ptrdiff_t k, const double *col)
{
    ptrdiff_t l = 0, r = n - 1;
    while (l < r) {
        uint32_t a = ord[l], b = ord[k], c = ord[r];
        uint32_t x = key_less(col, a, b) ? (key_less(col, b, c) ? b : key_less(col, a, c) ? c : a)
                                         : (key_less(col, a, c) ? a : key_less(col, b, c) ? c : b);
        ptrdiff_t i = l, j = r;
        do {
            while (key_less(col, ord[i], x))
                i++;
            while (key_less(col, x, ord[j]))
                j--;
            if (i <= j) {
                uint32_t t = ord[i];
                ord[i++] = ord[j];
                ord[j--] = t;
            }
        } while (i <= j);
        if (j < k)
            l = i;
        if (k < i)
            r = j;
    }
}

static void build(mdav_index *ix, const double *z, uint32_t *ord, uint32_t v, uint32_t lo, uint32_t hi,
                  uint32_t parent)
{
    size_t m = ix->m, n = ix->n;
    ix_node *nd = &ix->node[v];
    *nd = (ix_node){lo, hi, hi - lo, 0, parent, NONE, 0};
    for (uint32_t i = lo; i < hi; i++)
        nd->minid = ord[i] < nd->minid ? ord[i] : nd->minid;
    size_t axis = 0;
    double widest = -1;
    double *bl = ix->box + (size_t)v * 2 * m, *bh = bl + m;
    for (size_t j = 0; j < m; j++) {
        const double *col = z + j * n;
        double mn = col[ord[lo]], mx = mn;
        for (uint32_t i = lo + 1; i < hi; i++) {
            double x = col[ord[i]];
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
        }
        bl[j] = mn;
        bh[j] = mx;
        if (mx - mn > widest) {
            widest = mx - mn;
            axis = j;
        }
    }
    if (hi - lo <= LEAF) {
        for (uint32_t i = lo; i < hi; i++)
            ix->leaf[i] = v;
        return;
    }
    /* all equal valued: widest = 0 and the split is by row alone */
    uint32_t mid = lo + (hi - lo) / 2;
    select_kth(ord + lo, hi - lo, mid - lo, z + axis * n);
    uint32_t c = (uint32_t)ix->nnodes;
    ix->nnodes += 2;
    ix->node[v].child = c;
    build(ix, z, ord, c, lo, mid, v);
    build(ix, z, ord, c + 1, mid, hi, v);
}

static inline double max_d(double a, double b)
{
    return a > b ? a : b;
}

static inline double sqnorm(const double *a, const double *o, size_t m)
{
    double e = 0;
    for (size_t j = 0; j < m; j++)
        e += (a[j] - o[j]) * (a[j] - o[j]);
    return e;
}

mdav_index *mdav_index_new(const double *z, size_t n, size_t m)
{
    mdav_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->n = n;
    ix->m = m;
    /* leaves hold more than LEAF/2 records when n > LEAF: at most n/4 + 1
     * leaves, 2 * leaves - 1 nodes */
    ix->cap = 2 * (n / (LEAF / 2) + 1);
    ix->pts = malloc((n ? n : 1) * m * sizeof *ix->pts);
    ix->id = malloc((n ? n : 1) * sizeof *ix->id);
    ix->pos = malloc((n ? n : 1) * sizeof *ix->pos);
    ix->leaf = malloc((n ? n : 1) * sizeof *ix->leaf);
    ix->nrm = malloc((n ? n : 1) * sizeof *ix->nrm);
    ix->o = calloc(m, sizeof *ix->o);
    ix->node = malloc(ix->cap * sizeof *ix->node);
    ix->box = malloc(ix->cap * 2 * m * sizeof *ix->box);
    ix->scratch = malloc(2 * m * sizeof *ix->scratch);
    if (!ix->pts || !ix->id || !ix->pos || !ix->leaf || !ix->nrm || !ix->o || !ix->node || !ix->box || !ix->scratch) {
        mdav_index_free(ix);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        ix->id[i] = (uint32_t)i;
    ix->nnodes = 1;
    if (n == 0)
        ix->node[0] = (ix_node){0, 0, 0, 0, NONE, NONE, 0};
    else
        build(ix, z, ix->id, 0, 0, (uint32_t)n, NONE);
    for (size_t p = 0; p < n; p++) {
        ix->pos[ix->id[p]] = (uint32_t)p;
        for (size_t j = 0; j < m; j++)
            ix->pts[p * m + j] = z[j * n + ix->id[p]];
    }
    mdav_index_recenter(ix, ix->o);
    return ix;
}

void mdav_index_free(mdav_index *ix)
{
    if (!ix)
        return;
    free(ix->pts);
    free(ix->id);
    free(ix->pos);
    free(ix->leaf);
    free(ix->nrm);
    free(ix->o);
    free(ix->node);
    free(ix->box);
    free(ix->scratch);
    free(ix);
}

void mdav_index_recenter(mdav_index *ix, const double *o)
{
    size_t m = ix->m;
    memcpy(ix->o, o, m * sizeof *o);
    /* children are numbered after their parent */
    for (size_t v = ix->nnodes; v-- > 0;) {
        ix_node *nd = &ix->node[v];
        nd->maxn = 0;
        if (nd->child) {
            const ix_node *a = &ix->node[nd->child], *b = a + 1;
            nd->maxn = max_d(a->live ? a->maxn : 0, b->live ? b->maxn : 0);
            continue;
        }
        for (uint32_t i = nd->lo; i < nd->lo + nd->live; i++) {
            ix->nrm[i] = sqnorm(ix->pts + (size_t)i * m, o, m);
            nd->maxn = max_d(nd->maxn, ix->nrm[i]);
        }
    }
}

size_t mdav_index_live(const mdav_index *ix)
{
    return ix->node[0].live;
}

void mdav_index_point(const mdav_index *ix, uint32_t id, double *p)
{
    memcpy(p, ix->pts + (size_t)ix->pos[id] * ix->m, ix->m * sizeof *p);
}

/* ---- removal ---- */

static int store_box(double *bl, const double *nl, size_t m2)
{
    int changed = memcmp(bl, nl, m2 * sizeof *bl) != 0;
    if (changed)
        memcpy(bl, nl, m2 * sizeof *bl);
    return changed;
}

/* Recomputes a leaf's box and smallest row from its remaining records;
 * returns whether anything changed. */
static int refit_leaf(mdav_index *ix, uint32_t v)
{
    size_t m = ix->m;
    ix_node *nd = &ix->node[v];
    uint32_t minid = NONE;
    double *nl = ix->scratch, maxn = 0;
    for (uint32_t i = nd->lo; i < nd->lo + nd->live; i++) {
        const double *row = ix->pts + (size_t)i * m;
        minid = ix->id[i] < minid ? ix->id[i] : minid;
        maxn = max_d(maxn, ix->nrm[i]);
        for (size_t j = 0; j < m; j++) {
            if (i == nd->lo || row[j] < nl[j])
                nl[j] = row[j];
            if (i == nd->lo || row[j] > nl[m + j])
                nl[m + j] = row[j];
        }
    }
    int changed = minid != nd->minid || maxn != nd->maxn || nd->live == 0;
    nd->minid = minid;
    nd->maxn = maxn;
    if (nd->live > 0)
        changed |= store_box(ix->box + (size_t)v * 2 * m, nl, 2 * m);
    return changed;
}

/* An inner node's box and smallest row from its children's. */
static int refit_inner(mdav_index *ix, uint32_t v)
{
    size_t m = ix->m;
    ix_node *nd = &ix->node[v];
    const ix_node *a = &ix->node[nd->child], *b = a + 1;
    uint32_t minid = a->minid < b->minid ? a->minid : b->minid;
    double maxn = max_d(a->live ? a->maxn : 0, b->live ? b->maxn : 0);
    int changed = minid != nd->minid || maxn != nd->maxn || nd->live == 0;
    nd->minid = minid;
    nd->maxn = maxn;
    if (nd->live == 0)
        return changed;
    double *bl = ix->box + (size_t)v * 2 * m;
    const double *al = ix->box + (size_t)nd->child * 2 * m, *blc = al + 2 * m;
    if (a->live == 0 || b->live == 0) /* one child left: its box */
        return store_box(bl, a->live ? al : blc, 2 * m) | changed;
    for (size_t j = 0; j < m; j++) {
        double lo = al[j] < blc[j] ? al[j] : blc[j], hi = al[m + j] > blc[m + j] ? al[m + j] : blc[m + j];
        if (lo != bl[j] || hi != bl[m + j]) {
            bl[j] = lo;
            bl[m + j] = hi;
            changed = 1;
        }
    }
    return changed;
}

void mdav_index_remove(mdav_index *ix, uint32_t id)
{
    size_t m = ix->m;
    uint32_t p = ix->pos[id], v = ix->leaf[p];
    ix_node *nd = &ix->node[v];
    uint32_t last = nd->lo + nd->live - 1;
    if (p != last) {
        double *a = ix->pts + (size_t)p * m, *b = ix->pts + (size_t)last * m;
        for (size_t j = 0; j < m; j++) {
            double t = a[j];
            a[j] = b[j];
            b[j] = t;
        }
        double tn = ix->nrm[p];
        ix->nrm[p] = ix->nrm[last];
        ix->nrm[last] = tn;
        uint32_t other = ix->id[last];
        ix->id[p] = other;
        ix->id[last] = id;
        ix->pos[other] = p;
        ix->pos[id] = last;
    }
    nd->live--;
    int changed = refit_leaf(ix, v);
    for (uint32_t u = nd->parent; u != NONE; u = ix->node[u].parent) {
        ix->node[u].live--;
        if (changed)
            changed = refit_inner(ix, u);
    }
}

/* ---- bounds and queries ---- */

static ALWAYS_INLINE double box_lower(const double *bl, const double *p, size_t m)
{
    DIST_NO_FMA
    double e = 0;
    for (size_t j = 0; j < m; j++) {
        double a = p[j] < bl[j] ? bl[j] : p[j] > bl[m + j] ? bl[m + j] : p[j];
        double t = a - p[j];
        e += t * t;
    }
    return e;
}

/* The farthest query's bound: the smaller of the box's (upper bound above) and a bound from the
 * expansion |a - p|^2 = |a|^2 - 2 a.p + |p|^2 with the node's largest
 * squared norm and the box's largest -2 a.p (tight where the box's corner
 * is not: boxes around a centroid near the origin, in any dimension). That
 * one is computed in another order, so it is inflated past any rounding:
 * every term is at most maxn + la + pn in magnitude, and the exact value,
 * its rounded evaluation and the rounded distance of any record of the node
 * differ by less than 16 (m + 6) u times that (u = 2^-53), plus a few
 * subnormal units for underflow. */
static ALWAYS_INLINE double far_bound(const double *bl, double maxn, const double *p, const double *o,
                                      double pn, size_t m)
{
    DIST_NO_FMA
    double e = 0, l = 0, la = 0;
    for (size_t j = 0; j < m; j++) {
        double t1 = bl[j] - p[j], t2 = bl[m + j] - p[j];
        double s1 = t1 * t1, s2 = t2 * t2;
        e += s1 > s2 ? s1 : s2;
        double po = -2 * (p[j] - o[j]);
        double a = po * (bl[j] - o[j]), b = po * (bl[m + j] - o[j]);
        l += a > b ? a : b;
        la += fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    }
    double k = 16 * ((double)m + 6) * (DBL_EPSILON / 2);
    double nb = (maxn + l + pn) + k * (maxn + la + pn) + (4 * (double)m + 4) * DBL_TRUE_MIN;
    return nb < e ? nb : e;
}

static inline int same_row(const double *a, const double *b, size_t m)
{
    for (size_t j = 0; j < m; j++)
        if (a[j] != b[j])
            return 0;
    return 1;
}

typedef struct frame {
    uint32_t v;
    double b;
} frame;

/* may node v (bound b, smallest row minid) hold a record nearer than the
 * heap's worst? */
static inline int near_worth(const cand *h, size_t nh, size_t kk, double b, uint32_t minid)
{
    return nh < kk || b < h[0].d || (b == h[0].d && minid < h[0].idx);
}

static ALWAYS_INLINE size_t nearest_m(const mdav_index *ix, const double *p, size_t kk, cand *h, size_t m)
{
    size_t nh = 0;
    frame st[STACK];
    int sp = 0;
    if (ix->node[0].live == 0 || kk == 0)
        return 0;
    st[sp++] = (frame){0, box_lower(ix->box, p, m)};
    while (sp > 0) {
        frame f = st[--sp];
        const ix_node *nd = &ix->node[f.v];
        if (!near_worth(h, nh, kk, f.b, nd->minid))
            continue;
        if (!nd->child) {
            for (uint32_t i = nd->lo; i < nd->lo + nd->live; i++) {
                double d = dist_point(ix->pts + (size_t)i * m, 1, p, m);
                if (nh < kk || nearer(d, ix->id[i], h[0].d, h[0].idx))
                    heap_push(h, &nh, kk, (cand){d, ix->id[i], i});
            }
            continue;
        }
        uint32_t c = nd->child;
        const ix_node *a = &ix->node[c], *b = a + 1;
        double ba = a->live ? box_lower(ix->box + (size_t)c * 2 * m, p, m) : INFINITY;
        double bb = b->live ? box_lower(ix->box + (size_t)(c + 1) * 2 * m, p, m) : INFINITY;
        /* push the worse child first: the better is searched first */
        int a_first = ba < bb || (ba == bb && a->minid < b->minid);
        frame fa = {c, ba}, fb = {c + 1, bb};
        frame first = a_first ? fa : fb, second = a_first ? fb : fa;
        if (ix->node[second.v].live && near_worth(h, nh, kk, second.b, ix->node[second.v].minid))
            st[sp++] = second;
        if (ix->node[first.v].live && near_worth(h, nh, kk, first.b, ix->node[first.v].minid))
            st[sp++] = first;
    }
    return nh;
}

static int cmp_near(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    return nearer(x->d, x->idx, y->d, y->idx) ? -1 : nearer(y->d, y->idx, x->d, x->idx) ? 1 : 0;
}

size_t mdav_index_nearest(const mdav_index *ix, const double *p, size_t kk, cand *out)
{
    size_t nh;
    switch (ix->m) {
    case 1: nh = nearest_m(ix, p, kk, out, 1); break;
    case 2: nh = nearest_m(ix, p, kk, out, 2); break;
    case 3: nh = nearest_m(ix, p, kk, out, 3); break;
    case 4: nh = nearest_m(ix, p, kk, out, 4); break;
    default: nh = nearest_m(ix, p, kk, out, ix->m); break;
    }
    qsort(out, nh, sizeof *out, cmp_near);
    return nh;
}

typedef struct far_state {
    cand best;
    const double *row; /* the best record's coordinates */
    double slack, second;
} far_state;

/* may node v hold a record farther than the best, or (slack > 0) within
 * slack of it? */
static inline int far_worth(const far_state *s, double b, uint32_t minid)
{
    return b > s->best.d || (b == s->best.d && minid < s->best.idx) ||
           (s->slack > 0 && b >= s->best.d - s->slack);
}

static ALWAYS_INLINE void far_leaf(const mdav_index *ix, const ix_node *nd, const double *p, far_state *s,
                                   size_t m)
{
    for (uint32_t i = nd->lo; i < nd->lo + nd->live; i++) {
        const double *row = ix->pts + (size_t)i * m;
        double d = dist_point(row, 1, p, m);
        if (farther(d, ix->id[i], s->best.d, s->best.idx)) {
            if (s->slack > 0 && s->row && !same_row(row, s->row, m) && s->best.d > s->second)
                s->second = s->best.d;
            s->best = (cand){d, ix->id[i], i};
            s->row = row;
        } else if (s->slack > 0 && d >= s->best.d - s->slack && d > s->second && !same_row(row, s->row, m)) {
            s->second = d;
        }
    }
}

static ALWAYS_INLINE cand farthest_m(const mdav_index *ix, const double *p, double slack, double *second,
                                     size_t m)
{
    far_state s = {{-1.0, NONE, 0}, NULL, slack, -INFINITY};
    double pn = sqnorm(p, ix->o, m);
    frame st[STACK];
    int sp = 0;
    if (ix->node[0].live > 0)
        st[sp++] = (frame){0, far_bound(ix->box, ix->node[0].maxn, p, ix->o, pn, m)};
    while (sp > 0) {
        frame f = st[--sp];
        const ix_node *nd = &ix->node[f.v];
        if (!far_worth(&s, f.b, nd->minid))
            continue;
        if (!nd->child) {
            far_leaf(ix, nd, p, &s, m);
            continue;
        }
        uint32_t c = nd->child;
        const ix_node *a = &ix->node[c], *b = a + 1;
        double ba = a->live ? far_bound(ix->box + (size_t)c * 2 * m, a->maxn, p, ix->o, pn, m) : -INFINITY;
        double bb = b->live ? far_bound(ix->box + (size_t)(c + 1) * 2 * m, b->maxn, p, ix->o, pn, m) : -INFINITY;
        int a_first = ba > bb || (ba == bb && a->minid < b->minid);
        frame fa = {c, ba}, fb = {c + 1, bb};
        frame first = a_first ? fa : fb, second_f = a_first ? fb : fa;
        if (ix->node[second_f.v].live && far_worth(&s, second_f.b, ix->node[second_f.v].minid))
            st[sp++] = second_f;
        if (ix->node[first.v].live && far_worth(&s, first.b, ix->node[first.v].minid))
            st[sp++] = first;
    }
    if (second)
        *second = s.second;
    return s.best;
}

cand mdav_index_farthest(const mdav_index *ix, const double *p, double slack, double *second)
{
    switch (ix->m) {
    case 1: return farthest_m(ix, p, slack, second, 1);
    case 2: return farthest_m(ix, p, slack, second, 2);
    case 3: return farthest_m(ix, p, slack, second, 3);
    case 4: return farthest_m(ix, p, slack, second, 4);
    default: return farthest_m(ix, p, slack, second, ix->m);
    }
}

double mdav_index_reach(const mdav_index *ix, const double *p)
{
    return ix->node[0].live ? far_bound(ix->box, ix->node[0].maxn, p, ix->o, sqnorm(p, ix->o, ix->m), ix->m) : 0;
}

void mdav_index_sums(const mdav_index *ix, long double *sum, long double *abs)
{
    size_t m = ix->m;
    for (size_t j = 0; j < m; j++)
        sum[j] = abs[j] = 0;
    for (size_t v = 0; v < ix->nnodes; v++) {
        const ix_node *nd = &ix->node[v];
        if (nd->child)
            continue;
        for (uint32_t i = nd->lo; i < nd->lo + nd->live; i++)
            for (size_t j = 0; j < m; j++) {
                long double x = ix->pts[(size_t)i * m + j];
                sum[j] += x;
                abs[j] += fabsl(x);
            }
    }
}
