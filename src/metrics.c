/* keps: information-loss metrics (definitions in include/keps/metrics.h). */
#include "keps/metrics.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[KEPS_METRIC_COUNT] = {"prec", "loss", "discernibility", "aecs", "entropy", "height"};
static const char *const agg_names[KEPS_AGGREGATE_COUNT] = {"default", "geometric", "arithmetic",
                                                            "sum",     "max",       "rank"};

/* Index of s in tbl[from..n), or -1. */
static int lookup(const char *const *tbl, int from, int n, const char *s)
{
    for (int i = from; i < n; i++)
        if (strcmp(s, tbl[i]) == 0)
            return i;
    return -1;
}

const char *keps_metric_name(keps_metric m)
{
    return (unsigned)m < KEPS_METRIC_COUNT ? names[m] : "?";
}

int keps_metric_parse(const char *s, keps_metric *m)
{
    int i = strcmp(s, "dm") == 0 ? KEPS_METRIC_DM : lookup(names, 0, KEPS_METRIC_COUNT, s);
    if (i >= 0)
        *m = (keps_metric)i;
    return i >= 0 ? 0 : -1;
}

const char *keps_aggregate_name(keps_aggregate a)
{
    return (unsigned)a < KEPS_AGGREGATE_COUNT ? agg_names[a] : "?";
}

int keps_aggregate_parse(const char *s, keps_aggregate *a)
{
    int i = lookup(agg_names, 1, KEPS_AGGREGATE_COUNT, s); /* "default" is no name to give */
    if (i >= 0)
        *a = (keps_aggregate)i;
    return i >= 0 ? 0 : -1;
}

keps_metric_config keps_metric_config_default(keps_metric metric)
{
    keps_metric_config c = {metric, 0.5, 0, KEPS_AGGREGATE_DEFAULT, NULL};
    return c;
}

/* Metrics with a value per QI (ARX's multi-dimensional ones). */
static int per_attribute(keps_metric m)
{
    return m == KEPS_METRIC_PREC || m == KEPS_METRIC_LOSS || m == KEPS_METRIC_ENTROPY || m == KEPS_METRIC_HEIGHT;
}

keps_aggregate keps_metric_config_aggregate(const keps_metric_config *cfg)
{
    if (!per_attribute(cfg->metric))
        return KEPS_AGGREGATE_DEFAULT;
    if (cfg->aggregate != KEPS_AGGREGATE_DEFAULT)
        return cfg->aggregate;
    switch (cfg->metric) {
    case KEPS_METRIC_PREC:
        return KEPS_AGGREGATE_ARITHMETIC;
    case KEPS_METRIC_LOSS:
        return KEPS_AGGREGATE_GEOMETRIC;
    default:
        return KEPS_AGGREGATE_SUM;
    }
}

keps_status keps_metric_config_check(const keps_metric_config *cfg, size_t q, keps_error *err)
{
    keps_metric m = cfg->metric;
    if ((unsigned)m >= KEPS_METRIC_COUNT)
        return keps_error_set(err, KEPS_EINPUT, "unknown metric");
    const char *name = m == KEPS_METRIC_DM ? "dm" : names[m];
    if (!(cfg->gs_factor >= 0 && cfg->gs_factor <= 1))
        return keps_error_set(err, KEPS_EINPUT, "the gs-factor must lie in [0, 1] (0 favours suppression, "
                                                "1 favours generalization, 0.5 weighs both equally)");
    if (cfg->gs_factor != 0.5 && (m == KEPS_METRIC_DM || m == KEPS_METRIC_HEIGHT))
        return keps_error_set(err, KEPS_EINPUT,
                              "%s takes no gs-factor (ARX weighs generalization against suppression only "
                              "for prec, loss, entropy and aecs)",
                              name);
    if (cfg->monotonic && (m == KEPS_METRIC_LOSS || m == KEPS_METRIC_AECS))
        return keps_error_set(err, KEPS_EINPUT,
                              "%s has no monotonic variant (ARX offers one for prec, dm and entropy; height is "
                              "monotonic)",
                              name);
    if ((unsigned)cfg->aggregate >= KEPS_AGGREGATE_COUNT)
        return keps_error_set(err, KEPS_EINPUT, "unknown aggregate function");
    if (!per_attribute(m) && (cfg->aggregate != KEPS_AGGREGATE_DEFAULT || cfg->weights))
        return keps_error_set(err, KEPS_EINPUT,
                              "%s is one number per transformation: it takes no aggregate function and no "
                              "attribute weights (those apply to prec, loss, entropy and height)",
                              name);
    for (size_t i = 0; cfg->weights && i < q; i++)
        if (!(cfg->weights[i] >= 0 && cfg->weights[i] <= DBL_MAX))
            return keps_error_set(err, KEPS_EINPUT,
                                  "the weight of quasi-identifier %zu must be a finite number >= 0", i + 1);
    return KEPS_OK;
}

/* An objective, resolved: ARX's generalization and suppression factors
 * and the normalized weights. */
typedef struct objective {
    keps_metric metric;
    int monotonic;
    keps_aggregate agg; /* never DEFAULT for per-attribute metrics */
    double gs, g, s;
    const double *w; /* [q] */
} objective;

static void objective_set(objective *ob, const keps_metric_config *cfg, const double *w)
{
    ob->metric = cfg->metric;
    ob->monotonic = cfg->monotonic;
    ob->agg = keps_metric_config_aggregate(cfg);
    ob->gs = cfg->gs_factor;
    ob->g = cfg->gs_factor <= 0.5 ? 1.0 : 1.0 - 2.0 * (cfg->gs_factor - 0.5);
    ob->s = cfg->gs_factor < 0.5 ? 2.0 * cfg->gs_factor : 1.0;
    ob->w = w;
}

/* Per QI i and level l (index off[i] + l). */
struct keps_metrics {
    const keps_lattice *L;
    size_t *off;          /* [q] */
    double **leaves;      /* [off+l][level code] hierarchy rows under the value (share
                             times |dom_i|: a whole number, so Loss sums exactly) */
    double *leaves_all;   /* [off+l] sum over all rows of leaves (generalization part of Loss) */
    double *ent_gen;      /* [off+l] -sum_v a_v log2(a_v/b_g(v)) */
    double *dom;          /* [q] |dom_i| = hierarchy rows */
    uint32_t *scratch;    /* per-value counts of suppressed rows (entropy) */
    uint32_t *touched;
    size_t scratch_len;
    uint32_t *small;      /* indices of the classes smaller than k (loss) */
    size_t small_cap;
    double *sup;          /* [q] leaves of the suppressed rows (loss) */
    const double **qsh;   /* [q] leaves table at the node's level (loss) */
    const uint32_t **qmap; /* [q] map at the node's level (loss) */
    double *attr;         /* [q] per-attribute values */
    double *ones;         /* [q] the default weights, normalized */
    double *w;            /* [q] the objective's weights, normalized */
    objective ob;
};

void keps_metrics_free(keps_metrics *m)
{
    if (!m)
        return;
    if (m->leaves && m->off) {
        size_t tot = m->off[m->L->q - 1] + (size_t)m->L->height[m->L->q - 1] + 1;
        for (size_t j = 0; j < tot; j++)
            free(m->leaves[j]);
    }
    free(m->leaves);
    free(m->off);
    free(m->leaves_all);
    free(m->ent_gen);
    free(m->dom);
    free(m->scratch);
    free(m->touched);
    free(m->small);
    free(m->sup);
    free(m->qsh);
    free(m->qmap);
    free(m->attr);
    free(m->ones);
    free(m->w);
    free(m);
}

/* ARX's log2: ln(x) / ln(2), with ln(2) as a double (Java's Math.log(2)). */
static double arx_log2(double x)
{
    return log(x) / 0.6931471805599453;
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
        m->leaves[j] = malloc((card ? card : 1) * sizeof **m->leaves);
        double *b = calloc(card ? card : 1, sizeof *b);
        if (!leaves || !m->leaves[j] || !b) {
            free(leaves);
            free(b);
            return -1;
        }
        for (uint32_t g = 0; g < card; g++)
            m->leaves[j][g] = leaves[g];
        free(leaves);
        const uint32_t *map = L->map[i][l];
        double sa = 0;
        for (uint32_t v = 0; v < nv; v++) {
            b[map[v]] += a[v];
            sa += a[v] * m->leaves[j][map[v]];
        }
        /* over the values in order of first appearance, as ARX's dictionary */
        double e = 0;
        for (uint32_t v = 0; v < nv; v++)
            if (a[v])
                e -= a[v] * arx_log2(a[v] / b[map[v]]);
        m->leaves_all[j] = sa;
        m->ent_gen[j] = e;
        free(b);
    }
    return 0;
}

/* ARX's weights: divided by their maximum; all 1 when every weight is 0. */
void keps_metric_config_weights(const keps_metric_config *cfg, size_t q, double *w)
{
    double max = 0;
    for (size_t i = 0; i < q; i++) {
        w[i] = cfg->weights ? cfg->weights[i] : 0.5;
        if (w[i] > max)
            max = w[i];
    }
    for (size_t i = 0; i < q; i++)
        w[i] = max == 0 ? 1.0 : w[i] / max;
}

keps_metrics *keps_metrics_new_objective(const keps_lattice *L, const keps_metric_config *cfg, keps_error *err)
{
    if (keps_metric_config_check(cfg, L->q, err))
        return NULL;
    keps_metrics *m = calloc(1, sizeof *m);
    if (!m)
        goto fail;
    m->L = L;
    size_t q = L->q, tot = 0, maxcard = 1, q1 = q ? q : 1;
    m->off = calloc(q1, sizeof *m->off);
    m->dom = calloc(q1, sizeof *m->dom);
    if (!m->off || !m->dom)
        goto fail;
    for (size_t i = 0; i < q; i++) {
        m->off[i] = tot;
        tot += (size_t)L->height[i] + 1;
        for (int l = 0; l <= L->height[i]; l++)
            if (L->card[i][l] > maxcard)
                maxcard = L->card[i][l];
    }
    m->leaves = calloc(tot ? tot : 1, sizeof *m->leaves);
    m->leaves_all = calloc(tot ? tot : 1, sizeof *m->leaves_all);
    m->ent_gen = calloc(tot ? tot : 1, sizeof *m->ent_gen);
    m->scratch = calloc(maxcard, sizeof *m->scratch);
    m->touched = calloc(maxcard, sizeof *m->touched);
    m->scratch_len = maxcard;
    m->sup = calloc(q1, sizeof *m->sup);
    m->qsh = calloc(q1, sizeof *m->qsh);
    m->qmap = calloc(q1, sizeof *m->qmap);
    m->attr = calloc(q1, sizeof *m->attr);
    m->ones = calloc(q1, sizeof *m->ones);
    m->w = calloc(q1, sizeof *m->w);
    if (!m->leaves || !m->leaves_all || !m->ent_gen || !m->scratch || !m->touched || !m->sup || !m->qsh ||
        !m->qmap || !m->attr || !m->ones || !m->w)
        goto fail;
    keps_metric_config dflt = keps_metric_config_default(cfg->metric);
    keps_metric_config_weights(&dflt, q, m->ones);
    keps_metric_config_weights(cfg, q, m->w);
    objective_set(&m->ob, cfg, m->w);
    for (size_t i = 0; i < q; i++) {
        const keps_column *col = &L->s->t->cols[L->s->qi[i].col];
        uint32_t *a = calloc(col->nvalues ? col->nvalues : 1, sizeof *a);
        if (!a)
            goto fail;
        for (size_t b = 0; b < L->bottom.n; b++) /* released rows per value (a research subset's) */
            a[L->bottom.rep[b * q + i]] += L->bottom.count[b];
        int rc = precompute_qi(m, i, a, col->nvalues);
        free(a);
        if (rc)
            goto fail;
    }
    return m;
fail:
    keps_metrics_free(m);
    keps_error_set(err, KEPS_ENOMEM, "out of memory for the metric tables");
    return NULL;
}

keps_metrics *keps_metrics_new(const keps_lattice *L)
{
    keps_metric_config cfg = keps_metric_config_default(KEPS_METRIC_LOSS);
    return keps_metrics_new_objective(L, &cfg, NULL);
}

/* ARX rounds Loss and entropy per attribute down to 10 decimals. */
static double floor10(double x)
{
    return floor(x * 1e10) / 1e10;
}

/* ---- per-attribute values ---------------------------------------------- */

/* Precision of QI i: ARX's ((unsuppressed * l/h) * g + suppressed * s) / n. */
static double prec_attr(const keps_metrics *m, const objective *ob, size_t i, int level, double S)
{
    const keps_lattice *L = m->L;
    double r = L->height[i] ? (double)level / (double)L->height[i] : 0;
    if (ob->monotonic)
        return r * ob->g;
    double n = (double)L->nreleased;
    return (((n - S) * r) * ob->g + S * ob->s) / n;
}

/* Loss of QI i: ARX's (x - g*n/|dom|) / (n - g*n/|dom|), here times |dom|
 * above and below: X = x*|dom| = g * (all rows' leaves) + extra, extra >= 0
 * the suppressed rows' cost beyond g times their leaves. With ARX's default
 * factors every term is a whole number and the quotient is rounded once
 * (ARX sums shares in floating point, which can put a value a hair below a
 * 10-decimal step, e.g. 0.375 -> 0.3749999999). Written as a sum with
 * extra >= 0 so that the value never drops below the extra-free bound in
 * floating point either (keps_metrics_objective_bound relies on it). */
static double loss_attr(const keps_metrics *m, const objective *ob, size_t i, int level, double extra)
{
    double n = (double)m->L->nreleased, dom = m->dom[i], lo = ob->g * n, hi = n * dom;
    if (!(hi - lo > 0))
        return 0; /* ARX: 0/0 is NaN, which it clamps to 0 */
    double x = ob->g * m->leaves_all[m->off[i] + (size_t)level] + extra;
    double v = (x - lo) / (hi - lo);
    return floor10(v >= 0 ? v : 0);
}

/* Suppressed rows' leaves per QI into m->sup. The classes smaller than k
 * are listed once, then summed per QI in class order. Each small class's
 * codes are read once for all QIs: the representatives lie at random in the
 * bottom's table, and a pass per QI missed the cache q times per class. */
static int suppressed_shares(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k)
{
    const keps_lattice *L = m->L;
    if (m->small_cap < c->n) {
        uint32_t *p = realloc(m->small, c->n * sizeof *p);
        if (!p)
            return -1;
        m->small = p;
        m->small_cap = c->n;
    }
    size_t ns = 0;
    for (size_t e = 0; e < c->n; e++) {
        m->small[ns] = (uint32_t)e;
        ns += keps_node_class_suppressed(c, e, k);
    }
    const size_t q = L->q;
    for (size_t i = 0; i < q; i++) {
        m->sup[i] = 0;
        m->qsh[i] = m->leaves[m->off[i] + (size_t)levels[i]];
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
    return 0;
}

/* Per QI, in units of 1/|dom|: a suppressed row costs |dom| (s = 1) or
 * leaves + s*(|dom| - leaves) (s < 1, where g = 1), a released one g*leaves. */
static int loss_attrs(keps_metrics *m, const objective *ob, const int *levels, const keps_node_classes *c,
                      size_t k, double S, double *v)
{
    const keps_lattice *L = m->L;
    double n = (double)L->nreleased;
    if (S > 0 && S < n && suppressed_shares(m, levels, c, k))
        return -1;
    for (size_t i = 0; i < L->q; i++) {
        double extra = 0, dom = m->dom[i];
        if (S > 0) {
            /* every row suppressed: their leaves are all rows' leaves */
            double sup = S >= n ? m->leaves_all[m->off[i] + (size_t)levels[i]] : m->sup[i];
            extra = ob->s == 1 ? dom * S - ob->g * sup : ob->s * (dom * S - sup);
        }
        v[i] = loss_attr(m, ob, i, levels[i], extra > 0 ? extra : 0);
    }
    return 0;
}

/* -sum_g c_g log2(c_g/S) over the level values g of the suppressed rows,
 * each term times s, summed into e (ARX adds them one by one). */
static double entropy_suppressed(keps_metrics *m, const objective *ob, size_t i, int level,
                                 const keps_node_classes *c, size_t k, double S, double e)
{
    const keps_lattice *L = m->L;
    const uint32_t *map = L->map[i][level];
    size_t nt = 0;
    for (size_t x = 0; x < c->n; x++)
        if (keps_node_class_suppressed(c, x, k)) {
            uint32_t g = map[keps_node_classes_rep(L, c, x)[i]];
            if (m->scratch[g] == 0)
                m->touched[nt++] = g;
            m->scratch[g] += c->count[x];
        }
    for (size_t t = 0; t < nt; t++) {
        double cg = m->scratch[m->touched[t]];
        e += -(cg * arx_log2(cg / S) * ob->s);
        m->scratch[m->touched[t]] = 0;
    }
    return e;
}

/* v[q] of a per-attribute metric; c may be NULL when S = 0 is meant. */
static int attrs(keps_metrics *m, const objective *ob, const int *levels, const keps_node_classes *c, size_t k,
                 double *v)
{
    const keps_lattice *L = m->L;
    double S = c ? (double)keps_node_classes_suppressed(c, k, NULL) : 0;
    switch (ob->metric) {
    case KEPS_METRIC_PREC:
        for (size_t i = 0; i < L->q; i++)
            v[i] = prec_attr(m, ob, i, levels[i], S);
        return 0;
    case KEPS_METRIC_LOSS:
        return loss_attrs(m, ob, levels, c, k, S, v);
    case KEPS_METRIC_ENTROPY:
        for (size_t i = 0; i < L->q; i++) {
            double e = ob->g * m->ent_gen[m->off[i] + (size_t)levels[i]];
            if (!ob->monotonic && S > 0)
                e = entropy_suppressed(m, ob, i, levels[i], c, k, S, e);
            v[i] = floor10(e);
        }
        return 0;
    case KEPS_METRIC_HEIGHT:
        for (size_t i = 0; i < L->q; i++)
            v[i] = levels[i];
        return 0;
    default:
        return -1;
    }
}

/* ---- aggregation ------------------------------------------------------- */

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* ARX's aggregate functions over v[q] with weights w; out[1], or out[q]
 * for rank. */
static void aggregate(keps_aggregate agg, const double *v, const double *w, size_t q, double *out)
{
    double r;
    switch (agg) {
    case KEPS_AGGREGATE_GEOMETRIC:
        r = 1;
        for (size_t i = 0; i < q; i++)
            r *= pow(v[i] * w[i] + 1.0, 1.0 / (double)q);
        out[0] = r - 1;
        return;
    case KEPS_AGGREGATE_ARITHMETIC:
        r = 0;
        for (size_t i = 0; i < q; i++)
            r += (v[i] / (double)q) * w[i];
        out[0] = r;
        return;
    case KEPS_AGGREGATE_MAX:
        r = 0;
        for (size_t i = 0; i < q; i++)
            r = fmax(r, v[i] * w[i]);
        out[0] = r;
        return;
    case KEPS_AGGREGATE_RANK:
        for (size_t i = 0; i < q; i++)
            out[i] = v[i] * w[i];
        qsort(out, q, sizeof *out, cmp_desc);
        return;
    default: /* SUM */
        r = 0;
        for (size_t i = 0; i < q; i++)
            r += v[i] * w[i];
        out[0] = isfinite(r) ? r : DBL_MAX;
        return;
    }
}

/* ---- single-dimensional metrics ---------------------------------------- */

static double dm_of(const keps_metrics *m, const objective *ob, const keps_node_classes *c, size_t k)
{
    double n = (double)m->L->nreleased, d = 0;
    for (size_t x = 0; x < c->n; x++) {
        double s = c->count[x];
        d += ob->monotonic || !keps_node_class_suppressed(c, x, k) ? s * s : n * s;
    }
    return d;
}

/* n / (C * s + (suppressed ? g : 0)): ARX swaps the factors for AECS. */
static double aecs_of(const keps_metrics *m, const objective *ob, size_t classes, int suppressed)
{
    double denom = (double)classes * ob->s;
    if (suppressed)
        denom += 1 * ob->g;
    double n = (double)m->L->nreleased;
    return denom > 0 ? n / denom : n > 0 ? INFINITY : 0;
}

/* ---- scores and bounds ------------------------------------------------- */

static size_t score_len(const keps_metrics *m, const objective *ob)
{
    return ob->agg == KEPS_AGGREGATE_RANK ? m->L->q : 1;
}

static void score(keps_metrics *m, const objective *ob, const int *levels, const keps_node_classes *c, size_t k,
                  double *out)
{
    switch (ob->metric) {
    case KEPS_METRIC_DM:
        out[0] = dm_of(m, ob, c, k);
        return;
    case KEPS_METRIC_AECS: {
        size_t small = 0, empty = 0;
        size_t S = keps_node_classes_suppressed(c, k, &small);
        for (size_t x = 0; c->pcount && x < c->n; x++) /* population-only classes (a research subset) are no group */
            empty += c->count[x] == 0 && !keps_node_class_suppressed(c, x, k);
        out[0] = aecs_of(m, ob, c->n - small - empty, S > 0);
        return;
    }
    default:
        if (attrs(m, ob, levels, c, k, m->attr)) {
            for (size_t i = 0; i < score_len(m, ob); i++)
                out[i] = NAN;
            return;
        }
        aggregate(ob->agg, m->attr, ob->w, m->L->q, out);
    }
}

/* A hair below x: for bounds whose value may be reached by another
 * floating-point path (then it could land an ulp or so lower). */
static double below(double x)
{
    return x - fabs(x) * 1e-12;
}

/* Lower bound, for every node at or above levels with at most limit rows
 * in classes smaller than k (k = 0: the node's own S is not known).
 * Per-attribute metrics: v_i at the node never decreases with
 * generalization except through suppression, and all aggregates are
 * monotone in each v_i (weights >= 0), rank too (the j-th largest of a
 * vector is monotone in each entry). */
static void bound(keps_metrics *m, const objective *ob, const int *levels, const keps_node_classes *c, size_t k,
                  size_t limit, double *out)
{
    const keps_lattice *L = m->L;
    size_t smax = limit; /* suppressed rows of the nodes above: at most this */
    if (c && k > 0) {
        size_t S = keps_node_classes_suppressed(c, k, NULL); /* S only falls with generalization */
        if (S < smax)
            smax = S;
    }
    switch (ob->metric) {
    case KEPS_METRIC_DM: {
        /* sum |EC|^2 over all classes grows as classes merge, and a
         * suppressed row adds n >= its class size */
        double d = 0;
        for (size_t x = 0; c && x < c->n; x++)
            d += (double)c->count[x] * c->count[x];
        out[0] = d;
        return;
    }
    case KEPS_METRIC_AECS: {
        /* classes only merge: C' + [S' > 0] ... at most C*s + max(0, g - s)
         * for C the node's classes (a suppressed class leaves C') */
        if (!c) {
            out[0] = 0;
            return;
        }
        if (smax == 0) {
            out[0] = aecs_of(m, ob, c->n, 0);
            return;
        }
        double n = (double)L->nreleased, denom = (double)c->n * ob->s + fmax(0, ob->g - ob->s);
        out[0] = denom > 0 ? below(n / denom) : n > 0 ? INFINITY : 0;
        return;
    }
    case KEPS_METRIC_PREC:
        for (size_t i = 0; i < L->q; i++) {
            double v0 = prec_attr(m, ob, i, levels[i], 0);
            if (ob->monotonic || smax == 0) {
                m->attr[i] = v0;
                continue;
            }
            /* linear in S: the least at S = 0 or at S = smax (with s < g l/h,
             * suppressing rows lowers precision) */
            double vs = prec_attr(m, ob, i, levels[i], (double)smax);
            m->attr[i] = vs < v0 ? below(vs) : ob->gs == 0.5 ? v0 : below(v0);
        }
        break;
    case KEPS_METRIC_LOSS:
        /* every row costs at least g times its leaves (which only grow with
         * generalization); that is the value with nothing suppressed */
        for (size_t i = 0; i < L->q; i++)
            m->attr[i] = loss_attr(m, ob, i, levels[i], 0);
        break;
    case KEPS_METRIC_ENTROPY:
        /* the suppressed rows' term is >= 0 */
        attrs(m, ob, levels, NULL, 1, m->attr);
        break;
    default: /* height */
        attrs(m, ob, levels, NULL, 1, m->attr);
        break;
    }
    aggregate(ob->agg, m->attr, ob->w, L->q, out);
}

size_t keps_metrics_score_len(const keps_metrics *m)
{
    return score_len(m, &m->ob);
}

void keps_metrics_objective(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k, double *out)
{
    score(m, &m->ob, levels, c, k, out);
}

int keps_metrics_attributes(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                            double *out)
{
    if (!per_attribute(m->ob.metric))
        return -1;
    return attrs(m, &m->ob, levels, c, k, out);
}

void keps_metrics_objective_bound(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                                  size_t limit, double *out)
{
    bound(m, &m->ob, levels, c, k, limit, out);
}

int keps_score_cmp(const double *a, const double *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* ---- ARX's defaults, one metric at a time ------------------------------ */

static void default_objective(const keps_metrics *m, keps_metric which, objective *ob)
{
    keps_metric_config cfg = keps_metric_config_default(which);
    objective_set(ob, &cfg, m->ones);
}

double keps_metrics_score(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c,
                          size_t k)
{
    if ((unsigned)which >= KEPS_METRIC_COUNT)
        return NAN;
    objective ob;
    default_objective(m, which, &ob);
    double out;
    score(m, &ob, levels, c, k, &out); /* defaults never rank: one value */
    return out;
}

void keps_metrics_all(keps_metrics *m, const int *levels, const keps_node_classes *c, size_t k,
                      keps_metric_values *out)
{
    for (int i = 0; i < KEPS_METRIC_COUNT; i++)
        out->v[i] = keps_metrics_score(m, (keps_metric)i, levels, c, k);
}

double keps_metrics_bound(keps_metrics *m, keps_metric which, const int *levels, const keps_node_classes *c)
{
    if ((unsigned)which >= KEPS_METRIC_COUNT)
        return 0;
    objective ob;
    default_objective(m, which, &ob);
    double out;
    bound(m, &ob, levels, c, 0, m->L->nreleased, &out);
    return out;
}

double keps_metrics_class_key(const keps_metrics *m, keps_metric which, const int *levels, const uint32_t *rep,
                              uint32_t count)
{
    if (which != KEPS_METRIC_LOSS)
        return 0;
    const keps_lattice *L = m->L;
    double p = 1;
    for (size_t i = 0; i < L->q; i++) {
        size_t j = m->off[i] + (size_t)levels[i];
        double share = (double)m->leaves[j][L->map[i][levels[i]][rep[i]]] / m->dom[i];
        p *= pow((double)count * share + 1.0, 1.0 / (double)L->q);
    }
    return p - 1;
}
