/* Naive metric computation on tg_inst ground truth (tests/ola_testgen.h),
 * written from SPEC 2 without the library's tables: the oracle for
 * test_ola.c and test_metrics.c. */
#ifndef KEPS_OLA_ORACLE_H
#define KEPS_OLA_ORACLE_H

#include <math.h>

#include "keps/metrics.h"
#include "ola_testgen.h"

typedef struct or_node {
    size_t S;        /* rows in classes < k */
    size_t big;      /* classes of size >= k */
    double v[KEPS_METRIC_COUNT];
} or_node;

static double or_floor10(double x)
{
    return floor(x * 1e10) / 1e10;
}

static void or_eval(const tg_inst *x, const int *lv, size_t k, or_node *o)
{
    int cls[TG_MAXN], size[TG_MAXN];
    tg_classes(x, lv, cls, size);
    double n = x->n;
    size_t S = 0, big = 0;
    double dm = 0;
    for (int r = 0; r < x->n; r++) {
        if ((size_t)size[r] < k) {
            S++;
            dm += n; /* n per suppressed row */
        } else {
            dm += size[r]; /* each row of a class adds |EC|: sum = |EC|^2 */
        }
        if (cls[r] == r && (size_t)size[r] >= k)
            big++;
    }
    o->S = S;
    o->big = big;
    o->v[KEPS_METRIC_DM] = dm;
    o->v[KEPS_METRIC_AECS] = n / (double)(big + (S > 0));
    double prec = 0, lprod = 1, ent = 0;
    for (int i = 0; i < x->q; i++) {
        int l = lv[i];
        double g = x->height[i] ? (double)l / x->height[i] : 0;
        prec += ((n - S) * g + S) / n;
        /* loss */
        double dom = x->dom[i], agg = S;
        for (int r = 0; r < x->n; r++) {
            if ((size_t)size[r] < k)
                continue;
            int grp = x->group[i][l][x->val[r][i]], leaves = 0;
            for (int v = 0; v < x->dom[i]; v++)
                leaves += x->group[i][l][v] == grp;
            agg += leaves / dom;
        }
        double li = 0;
        if (n - n / dom > 0) {
            li = (agg - n / dom) / (n - n / dom);
            li = or_floor10(li > 0 ? li : 0);
        }
        lprod *= pow(1 + li, 1.0 / x->q);
        /* entropy: over input values v (a_v rows), b = rows in v's group */
        for (int v = 0; v < x->dom[i]; v++) {
            double a = 0, b = 0;
            for (int r = 0; r < x->n; r++) {
                a += x->val[r][i] == v;
                b += x->group[i][l][x->val[r][i]] == x->group[i][l][v];
            }
            if (a > 0)
                ent -= a * log2(a / b);
        }
        /* suppressed rows: per generalized value g, c_g */
        for (int gv = 0; gv < x->ngroups[i][l]; gv++) {
            double cg = 0;
            for (int r = 0; r < x->n; r++)
                cg += (size_t)size[r] < k && x->group[i][l][x->val[r][i]] == gv;
            if (cg > 0)
                ent -= cg * log2(cg / (double)S);
        }
    }
    o->v[KEPS_METRIC_PREC] = prec / x->q;
    o->v[KEPS_METRIC_LOSS] = lprod - 1;
    o->v[KEPS_METRIC_ENTROPY] = ent;
}

/* Relative-or-absolute closeness for metric values. */
static int or_close(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1 + fabs(a) + fabs(b));
}

#endif
