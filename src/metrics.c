/* keps: information-loss metrics (definitions in include/keps/metrics.h). */
#include "keps/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[KEPS_METRIC_COUNT] = {"prec", "loss", "discernibility", "aecs", "entropy"};

const char *keps_metric_name(keps_metric m)
{
    return (unsigned)m < KEPS_METRIC_COUNT ? names[m] : "?";
}

int keps_metric_parse(const char *s, keps_metric *m)
{
    for (int i = 0; i < KEPS_METRIC_COUNT; i++)
        if (strcmp(s, names[i]) == 0) {
            *m = (keps_metric)i;
            return 0;
        }
    if (strcmp(s, "dm") == 0) {
        *m = KEPS_METRIC_DM;
        return 0;
    }
    return -1;
}

/* Per QI i and level l (index off[i] + l). */
struct keps_metrics {
    const keps_lattice *L;
    size_t *off;          /* [q] */
    double **share;       /* [off+l][level code] hierarchy rows under the value / |dom_i| */
    double *share_all;    /* [off+l] sum over all rows of share (generalization part of Loss) */
    double *ent_gen;      /* [off+l] -sum_v a_v log2(a_v/b_g(v)) */
    double *dom;          /* [q] |dom_i| = hierarchy rows */
    uint32_t *scratch;    /* per-value counts of suppressed rows (entropy) */
    uint32_t *touched;
    size_t scratch_len;
    uint32_t *small;      /* indices of the classes smaller than k (loss) */
    size_t small_cap;
    double *sup;          /* [q] (loss) */
    const double **qsh;   /* [q] share table at the node's level (loss) */
    const uint32_t **qmap; /* [q] map at the node's level (loss) */
};

void keps_metrics_free(keps_metrics *m)
{
    if (!m)
        return;
    if (m->share && m->off) {
        size_t tot = m->off[m->L->q - 1] + (size_t)m->L->height[m->L->q - 1] + 1;
        for (size_t j = 0; j < tot; j++)
            free(m->share[j]);
    }
    free(m->share);
    free(m->off);
    free(m->share_all);
    free(m->ent_gen);
    free(m->dom);
    free(m->scratch);
    free(m->touched);
    free(m->small);
    free(m->sup);
    free(m->qsh);
    free(m->qmap);
    free(m);
}

/* Fills the tables of QI i; a[v] = rows with column code v (nv codes). */
static int precompute_qi(keps_metrics *m, size_t i, const uint32_t *a, uint32_t nv)
{
    const keps_lattice *L = m->L;
    const keps_hierarchy *h = L->s->qi[i].h;
    m->dom[i] = (double)keps_hierarchy_leaves(h);
    for (int l = 0; l <= L->height[i]; l++) {
        size_t j = m->off[i] + (size_t)l;
        uint32_t card = L->card[i][l];
        uint32_t *leaves = keps_hierarchy_leaf_counts(h, l);
        m->share[j] = malloc((card ? card : 1) * sizeof **m->share);
        double *b = calloc(card ? card : 1, sizeof *b);
        if (!leaves || !m->share[j] || !b) {
            free(leaves);
            free(b);
            return -1;
        }
        for (uint32_t g = 0; g < card; g++)
            m->share[j][g] = leaves[g] / m->dom[i];
        free(leaves);
        const uint32_t *map = L->map[i][l];
        double sa = 0;
        for (uint32_t v = 0; v < nv; v++) {
            b[map[v]] += a[v];
            sa += a[v] * m->share[j][map[v]];
        }
        double e = 0;
        for (uint32_t v = 0; v < nv; v++)
            if (a[v])
                e -= a[v] * log2(a[v] / b[map[v]]);
        m->share_all[j] = sa;
        m->ent_gen[j] = e;
        free(b);
    }
    return 0;
}

keps_metrics *keps_metrics_new(const keps_lattice *L)
{
    keps_metrics *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->L = L;
    size_t q = L->q, tot = 0, maxcard = 1;
    m->off = calloc(q, sizeof *m->off);
    m->dom = calloc(q, sizeof *m->dom);
    if (!m->off || !m->dom)
        goto fail;
    for (size_t i = 0; i < q; i++) {
        m->off[i] = tot;
        tot += (size_t)L->height[i] + 1;
        for (int l = 0; l <= L->height[i]; l++)
            if (L->card[i][l] > maxcard)
                maxcard = L->card[i][l];
    }
    m->share = calloc(tot, sizeof *m->share);
    m->share_all = calloc(tot, sizeof *m->share_all);
    m->ent_gen = calloc(tot, sizeof *m->ent_gen);
    m->scratch = calloc(maxcard, sizeof *m->scratch);
    m->touched = calloc(maxcard, sizeof *m->touched);
    m->scratch_len = maxcard;
    m->sup = calloc(q ? q : 1, sizeof *m->sup);
    m->qsh = calloc(q ? q : 1, sizeof *m->qsh);
    m->qmap = calloc(q ? q : 1, sizeof *m->qmap);
    if (!m->share || !m->share_all || !m->ent_gen || !m->scratch || !m->touched || !m->sup || !m->qsh || !m->qmap)
        goto fail;
    for (size_t i = 0; i < q; i++) {
        const keps_column *col = &L->s->t->cols[L->s->qi[i].col];
        uint32_t *a = calloc(col->nvalues ? col->nvalues : 1, sizeof *a);
        if (!a)
            goto fail;
        for (size_t r = 0; r < L->nrows; r++)
            a[col->codes[r]]++;
        int rc = precompute_qi(m, i, a, col->nvalues);
        free(a);
        if (rc)
            goto fail;
    }
    return m;
fail:
    keps_metrics_free(m);
    return NULL;
}

/* ARX rounds Loss per attribute down to 10 decimals. */
static double floor10(double x)
{
    return floor(x * 1e10) / 1e10;
}

/* L_i from the summed shares (released rows' shares + suppressed rows). */
static double loss_attr(const keps_metrics *m, size_t i, double agg)
{
    double n = (double)m->L->nrows, lo = n / m->dom[i];
    if (!(n - lo > 0))
        return 0;
    double v = (agg - lo) / (n - lo);
    return floor10(v > 0 ? v : 0);
}

static double geo_mean(const double *l, size_t q)
{
    double p = 1;
    for (size_t i = 0; i < q; i++)
        p *= pow(1 + l[i], 1.0 / (double)q);
    return p - 1;
}

static double prec_of(const keps_metrics *m, const int *levels, double S)
{
    const keps_lattice *L = m->L;
    double n = (double)L->nrows, sum = 0;
    if (n == 0 || L->q == 0)
        return 0;
    for (size_t i = 0; i < L->q; i++) {
        double g = L->height[i] ? (double)levels[i] / L->height[i] : 0;
        sum += ((n - S) * g + S) / n;
    }
    return sum / (double)L->q;
}

/* Loss: released shares = all rows' shares - the suppressed rows' shares. */
/* sup[i]: share of QI i's generalized values held by suppressed rows (NULL: none). */
static double loss_geo(const keps_metrics *m, const int *levels, const double *sup, double S)
{
    const keps_lattice *L = m->L;
    double l[64], *lp = L->q <= 64 ? l : malloc(L->q * sizeof *lp);
    if (!lp)
        return NAN;
    for (size_t i = 0; i < L->q; i++) {
        size_t j = m->off[i] + (size_t)levels[i];
        /* every row suppressed: no released share, exactly (the difference
         * below would leave rounding dust that floor10 turns into -1e-10) */
        double released = S >= (double)L->nrows ? 0 : m->share_all[j] - (sup ? sup[i] : 0);
        lp[i] = loss_attr(m, i, released + S);
    }
    double r = geo_mean(lp, L->q);
    if (lp != l)
        free(lp);
    return r;
}

/* The classes smaller than k are listed once, then summed per QI in class
 * order (the same sums as a pass over every class that skips the rest).
 * Each small class's codes are read once for all QIs: the representatives
 * lie at random in the bottom's table, and a pass per QI missed the cache
 * q times per class. */
static double loss_of(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k, double S)
{
    const keps_lattice *L = m->L;
    if (!c || S <= 0)
        return loss_geo(m, levels, NULL, S);
    if (m->small_cap < c->n) {
        uint32_t *p = realloc(m->small, c->n * sizeof *p);
        if (p)
            m->small = p;
        if (!p)
            return NAN;
        m->small_cap = c->n;
    }
    size_t ns = 0;
    for (size_t e = 0; e < c->n; e++) {
        m->small[ns] = (uint32_t)e;
        ns += c->count[e] < k;
    }
    const size_t q = L->q;
    for (size_t i = 0; i < q; i++) {
        m->sup[i] = 0;
        m->qsh[i] = m->share[m->off[i] + (size_t)levels[i]];
        m->qmap[i] = L->map[i][levels[i]];
    }
    for (size_t x = 0; x < ns; x++) {
        if (x + 8 < ns)
            __builtin_prefetch(keps_node_classes_rep(L, c, m->small[x + 8]));
        uint32_t e = m->small[x];
        const uint32_t *rep = keps_node_classes_rep(L, c, e);
        double cnt = c->count[e];
        for (size_t i = 0; i < q; i++)
            m->sup[i] += cnt * m->qsh[i][m->qmap[i][rep[i]]];
    }
    return loss_geo(m, levels, m->sup, S);
}

/* Entropy: the precomputed generalization part plus the entropy of the
 * suppressed rows' generalized values, per QI. */
static double entropy_of(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k, double S)
{
    const keps_lattice *L = m->L;
    double e = 0;
    for (size_t i = 0; i < L->q; i++) {
        e += m->ent_gen[m->off[i] + (size_t)levels[i]];
        if (!c || S <= 0)
            continue;
        const uint32_t *map = L->map[i][levels[i]];
        size_t nt = 0;
        for (size_t x = 0; x < c->n; x++)
            if (c->count[x] < k) {
                uint32_t g = map[keps_node_classes_rep(L, c, x)[i]];
                if (m->scratch[g] == 0)
                    m->touched[nt++] = g;
                m->scratch[g] += c->count[x];
            }
        for (size_t t = 0; t < nt; t++) {
            double cg = m->scratch[m->touched[t]];
            e -= cg * log2(cg / S);
            m->scratch[m->touched[t]] = 0;
        }
    }
    return e;
}

static double dm_of(const keps_metrics *m, const keps_node_classes *c, size_t k)
{
    double n = (double)m->L->nrows, d = 0;
    for (size_t x = 0; x < c->n; x++) {
        double s = c->count[x];
        d += c->count[x] >= k ? s * s : n * s;
    }
    return d;
}

static double aecs_of(const keps_metrics *m, const keps_node_classes *c, size_t k)
{
    size_t small = 0;
    size_t S = keps_node_classes_suppressed(c, k, &small);
    double denom = (double)(c->n - small) + (S > 0);
    return denom > 0 ? (double)m->L->nrows / denom : 0;
}

double keps_metrics_score(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c,
                          size_t k)
{
    double S = (double)keps_node_classes_suppressed(c, k, NULL);
    switch (which) {
    case KEPS_METRIC_PREC:
        return prec_of(m, levels, S);
    case KEPS_METRIC_LOSS:
        return loss_of(m, levels, c, k, S);
    case KEPS_METRIC_DM:
        return dm_of(m, c, k);
    case KEPS_METRIC_AECS:
        return aecs_of(m, c, k);
    case KEPS_METRIC_ENTROPY:
        return entropy_of(m, levels, c, k, S);
    default:
        return NAN;
    }
}

void keps_metrics_all(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                      keps_metric_values *out)
{
    for (int i = 0; i < KEPS_METRIC_COUNT; i++)
        out->v[i] = keps_metrics_score(m, (keps_metric)i, levels, c, k);
}

double keps_metrics_bound(const keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c)
{
    const keps_lattice *L = m->L;
    switch (which) {
    case KEPS_METRIC_PREC:
        return prec_of(m, levels, 0);
    case KEPS_METRIC_LOSS:
        return loss_geo(m, levels, NULL, 0);
    case KEPS_METRIC_ENTROPY: {
        double e = 0;
        for (size_t i = 0; i < L->q; i++)
            e += m->ent_gen[m->off[i] + (size_t)levels[i]];
        return e;
    }
    case KEPS_METRIC_DM: {
        if (!c)
            return 0;
        double d = 0;
        for (size_t x = 0; x < c->n; x++)
            d += (double)c->count[x] * c->count[x];
        return d;
    }
    case KEPS_METRIC_AECS:
        return c && c->n ? (double)L->nrows / (double)c->n : 0;
    default:
        return 0;
    }
}
