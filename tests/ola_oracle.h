/* Naive metric computation on tg_inst ground truth (tests/ola_testgen.h),
 * written from ARX 3.9.2's definitions (docs/spec.md section 2) without the
 * library's tables: row by row, per attribute, then aggregated. The oracle
 * for test_ola.c and test_metrics.c. */
#ifndef KEPS_OLA_ORACLE_H
#define KEPS_OLA_ORACLE_H

#include <float.h>
#include <math.h>

#include "keps/metrics.h"
#include "ola_testgen.h"

/* Classes of a node for k. */
typedef struct or_classes {
    int cls[TG_MAXN], size[TG_MAXN];
    size_t S;   /* rows in classes < k */
    size_t big; /* classes of size >= k */
    size_t all; /* every class */
} or_classes;

static void or_classes_at(const tg_inst *x, const int *lv, size_t k, or_classes *c)
{
    tg_classes(x, lv, c->cls, c->size);
    c->S = c->big = c->all = 0;
    for (int r = 0; r < x->n; r++) {
        c->S += (size_t)c->size[r] < k;
        if (c->cls[r] == r) {
            c->all++;
            c->big += (size_t)c->size[r] >= k;
        }
    }
}

/* A quality model as ARX configures it. */
typedef struct or_cfg {
    keps_metric metric;
    double gs, g, s; /* gs-factor; generalization and suppression factors */
    int mono;
    int agg;            /* keps_aggregate, the default resolved */
    double w[TG_MAXQ];  /* normalized weights */
} or_cfg;

/* raw_w NULL: ARX's default weight 0.5 for every QI. */
static void or_cfg_make(or_cfg *c, int q, keps_metric m, double gs, int mono, int agg, const double *raw_w)
{
    c->metric = m;
    c->gs = gs;
    /* ARX Metric(): sFactor = gs < 0.5 ? 2gs : 1, gFactor = gs <= 0.5 ? 1 : 1 - 2(gs - 0.5) */
    c->s = gs < 0.5 ? 2 * gs : 1;
    c->g = gs <= 0.5 ? 1 : 1 - 2 * (gs - 0.5);
    c->mono = mono;
    if (agg == KEPS_AGGREGATE_DEFAULT) /* __MetricV2's factories */
        agg = m == KEPS_METRIC_PREC ? KEPS_AGGREGATE_ARITHMETIC
              : m == KEPS_METRIC_LOSS ? KEPS_AGGREGATE_GEOMETRIC
                                      : KEPS_AGGREGATE_SUM;
    c->agg = agg;
    double max = 0;
    for (int i = 0; i < q; i++)
        max = fmax(max, raw_w ? raw_w[i] : 0.5);
    for (int i = 0; i < q; i++)
        c->w[i] = max == 0 ? 1 : (raw_w ? raw_w[i] : 0.5) / max;
}

static double or_floor10(double x)
{
    return floor(x * 1e10) / 1e10;
}

/* Value of QI i at level l (prec, loss, entropy, height). */
static double or_attr(const tg_inst *x, const int *lv, size_t k, const or_classes *cl, const or_cfg *c, int i)
{
    double n = x->n, S = (double)cl->S;
    int l = lv[i];
    switch (c->metric) {
    case KEPS_METRIC_PREC: {
        double r = x->height[i] ? (double)l / x->height[i] : 0;
        return c->mono ? r * c->g : ((n - S) * r * c->g + S * c->s) / n;
    }
    case KEPS_METRIC_LOSS: {
        /* each row: released g*share, suppressed 1 (s = 1) or share + s(1 - share) */
        double dom = x->dom[i], agg = 0;
        for (int r = 0; r < x->n; r++) {
            int grp = x->group[i][l][x->val[r][i]], leaves = 0;
            for (int v = 0; v < x->dom[i]; v++)
                leaves += x->group[i][l][v] == grp;
            double share = leaves / dom;
            if ((size_t)cl->size[r] >= k)
                agg += c->g * share;
            else
                agg += c->s == 1 ? 1 : share + c->s * (1 - share);
        }
        double lo = c->g * n / dom;
        if (!(n - lo > 0))
            return 0;
        double li = (agg - lo) / (n - lo);
        return or_floor10(li > 0 ? li : 0);
    }
    case KEPS_METRIC_ENTROPY: {
        /* over input values v (a_v rows), b = rows in v's group */
        double gen = 0, sup = 0;
        for (int v = 0; v < x->dom[i]; v++) {
            double a = 0, b = 0;
            for (int r = 0; r < x->n; r++) {
                a += x->val[r][i] == v;
                b += x->group[i][l][x->val[r][i]] == x->group[i][l][v];
            }
            if (a > 0)
                gen -= a * log2(a / b);
        }
        /* suppressed rows: per generalized value g, c_g */
        for (int gv = 0; gv < x->ngroups[i][l] && !c->mono; gv++) {
            double cg = 0;
            for (int r = 0; r < x->n; r++)
                cg += (size_t)cl->size[r] < k && x->group[i][l][x->val[r][i]] == gv;
            if (cg > 0)
                sup -= cg * log2(cg / S);
        }
        return or_floor10(c->g * gen + c->s * sup);
    }
    default: /* height */
        return l;
    }
}

/* The objective: out[q] (rank: weighted values, sorted descending) or
 * out[0]; returns its length. */
static int or_score(const tg_inst *x, const int *lv, size_t k, const or_classes *cl, const or_cfg *c, double *out)
{
    double n = x->n;
    if (c->metric == KEPS_METRIC_DM) {
        double dm = 0;
        for (int r = 0; r < x->n; r++) /* each row of a class adds |EC|: sum = |EC|^2 */
            dm += c->mono || (size_t)cl->size[r] >= k ? cl->size[r] : n;
        out[0] = dm;
        return 1;
    }
    if (c->metric == KEPS_METRIC_AECS) {
        /* ARX's AECS swaps the factors: classes times s, the suppressed group g */
        double den = (double)cl->big * c->s + (cl->S > 0 ? c->g : 0);
        out[0] = den > 0 ? n / den : INFINITY;
        return 1;
    }
    double v[TG_MAXQ];
    int q = x->q;
    for (int i = 0; i < q; i++)
        v[i] = or_attr(x, lv, k, cl, c, i) * c->w[i];
    double r = 0;
    switch (c->agg) {
    case KEPS_AGGREGATE_GEOMETRIC:
        for (int i = 0; i < q; i++)
            r += log1p(v[i]);
        out[0] = q ? expm1(r / q) : 0;
        return 1;
    case KEPS_AGGREGATE_ARITHMETIC:
        for (int i = 0; i < q; i++)
            r += v[i];
        out[0] = q ? r / q : 0;
        return 1;
    case KEPS_AGGREGATE_MAX:
        for (int i = 0; i < q; i++)
            r = v[i] > r ? v[i] : r;
        out[0] = r;
        return 1;
    case KEPS_AGGREGATE_RANK:
        for (int i = 0; i < q; i++) { /* insertion sort, descending */
            int j = i;
            for (; j > 0 && out[j - 1] < v[i]; j--)
                out[j] = out[j - 1];
            out[j] = v[i];
        }
        return q;
    default:
        for (int i = 0; i < q; i++)
            r += v[i];
        out[0] = r;
        return 1;
    }
}

/* Relative-or-absolute closeness for metric values. */
static int or_close(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-9 * (1 + fabs(a) + fabs(b));
}

/* Lexicographic comparison where values within or_close are equal. */
static inline int or_cmp_tol(const double *a, const double *b, int len)
{
    for (int i = 0; i < len; i++)
        if (!or_close(a[i], b[i]))
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Every metric with ARX's defaults. */
typedef struct or_node {
    size_t S;        /* rows in classes < k */
    size_t big;      /* classes of size >= k */
    double v[KEPS_METRIC_COUNT];
} or_node;

static void or_eval(const tg_inst *x, const int *lv, size_t k, or_node *o)
{
    or_classes cl;
    or_classes_at(x, lv, k, &cl);
    o->S = cl.S;
    o->big = cl.big;
    for (int m = 0; m < KEPS_METRIC_COUNT; m++) {
        or_cfg c;
        double out[TG_MAXQ];
        or_cfg_make(&c, x->q, (keps_metric)m, 0.5, 0, KEPS_AGGREGATE_DEFAULT, NULL);
        or_score(x, lv, k, &cl, &c, out);
        o->v[m] = out[0];
    }
}

#endif
