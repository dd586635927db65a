/* Random small tables with random consistent hierarchies, for the lattice,
 * OLA and metric oracles (included by test_lattice.c, test_ola.c,
 * test_metrics.c). The generator keeps its own ground truth (group[i][l][v]
 * = level-l group of value v of QI i), independent of keps's maps. */
#ifndef KEPS_OLA_TESTGEN_H
#define KEPS_OLA_TESTGEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/hierarchy.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/table.h"
#include "testutil.h"

#define TG_MAXQ 4
#define TG_MAXD 8
#define TG_MAXH 4
#define TG_MAXN 80

typedef struct tg_inst {
    int q, n;
    int dom[TG_MAXQ];                      /* hierarchy leaves per QI */
    int height[TG_MAXQ];
    int group[TG_MAXQ][TG_MAXH + 1][TG_MAXD]; /* ground truth generalization */
    int ngroups[TG_MAXQ][TG_MAXH + 1];
    int val[TG_MAXN][TG_MAXQ];             /* row values (leaf index) */
    keps_table *t;
    keps_schema *s;
} tg_inst;

/* Label of group g at level l of QI i. Level 0 is the value "v<g>". */
static void tg_label(char *buf, size_t len, int i, int l, int g)
{
    if (l == 0)
        snprintf(buf, len, "v%d_%d", i, g);
    else
        snprintf(buf, len, "q%dl%dg%d", i, l, g);
}

static void tg_make(tg_inst *x, keps_rng *rng, int maxq, int maxn)
{
    memset(x, 0, sizeof *x);
    x->q = 1 + (int)keps_rng_below(rng, (uint64_t)maxq);
    x->n = 1 + (int)keps_rng_below(rng, (uint64_t)maxn);
    for (int i = 0; i < x->q; i++) {
        x->dom[i] = 1 + (int)keps_rng_below(rng, TG_MAXD);
        x->height[i] = (int)keps_rng_below(rng, TG_MAXH + 1);
        x->ngroups[i][0] = x->dom[i];
        for (int v = 0; v < x->dom[i]; v++)
            x->group[i][0][v] = v;
        for (int l = 1; l <= x->height[i]; l++) {
            /* each level-(l-1) group goes to one of m random parents; parent
             * ids renumbered densely so every group exists */
            int prev = x->ngroups[i][l - 1];
            int m = 1 + (int)keps_rng_below(rng, (uint64_t)prev);
            int parent[TG_MAXD], remap[TG_MAXD];
            for (int g = 0; g < prev; g++)
                parent[g] = (int)keps_rng_below(rng, (uint64_t)m);
            for (int g = 0; g < m; g++)
                remap[g] = -1;
            int next = 0;
            for (int g = 0; g < prev; g++)
                if (remap[parent[g]] < 0)
                    remap[parent[g]] = next++;
            x->ngroups[i][l] = next;
            for (int v = 0; v < x->dom[i]; v++)
                x->group[i][l][v] = remap[parent[x->group[i][l - 1][v]]];
        }
    }
    /* skewed values: half the time the value is drawn from a small range */
    for (int r = 0; r < x->n; r++)
        for (int i = 0; i < x->q; i++) {
            int d = x->dom[i];
            if (keps_rng_bit(rng) && d > 2)
                d = 2;
            x->val[r][i] = (int)keps_rng_below(rng, (uint64_t)d);
        }
    /* table: columns c0..c{q-1} plus one insensitive column */
    char csv[TG_MAXN * 64 + 256];
    size_t o = 0;
    for (int i = 0; i < x->q; i++)
        o += (size_t)snprintf(csv + o, sizeof csv - o, "c%d,", i);
    o += (size_t)snprintf(csv + o, sizeof csv - o, "other\n");
    for (int r = 0; r < x->n; r++) {
        for (int i = 0; i < x->q; i++) {
            char lab[32];
            tg_label(lab, sizeof lab, i, 0, x->val[r][i]);
            o += (size_t)snprintf(csv + o, sizeof csv - o, "%s,", lab);
        }
        o += (size_t)snprintf(csv + o, sizeof csv - o, "r%d\n", r);
    }
    x->t = table_from_csv(csv);
    x->s = keps_schema_new(x->t);
    assert_non_null(x->s);
    for (int i = 0; i < x->q; i++) {
        char h[TG_MAXD * (TG_MAXH + 1) * 24];
        size_t ho = 0;
        for (int v = 0; v < x->dom[i]; v++) {
            for (int l = 0; l <= x->height[i]; l++) {
                char lab[32];
                tg_label(lab, sizeof lab, i, l, x->group[i][l][v]);
                ho += (size_t)snprintf(h + ho, sizeof h - ho, "%s%s", l ? ";" : "", lab);
            }
            ho += (size_t)snprintf(h + ho, sizeof h - ho, "\n");
        }
        keps_hierarchy *hh = NULL;
        keps_error err = {0};
        keps_status st = keps_hierarchy_load_buffer(h, ho, "tg.csv", ';', &hh, &err);
        if (st)
            fprintf(stderr, "tg hierarchy: %s\n%s", err.msg, h);
        assert_int_equal(st, KEPS_OK);
        st = keps_schema_add_qi_hierarchy(x->s, (size_t)i, hh, &err);
        if (st)
            fprintf(stderr, "tg qi: %s\n", err.msg);
        assert_int_equal(st, KEPS_OK);
    }
    keps_error err = {0};
    assert_int_equal(keps_schema_set_role(x->s, "other", KEPS_ROLE_INSENSITIVE, &err), KEPS_OK);
}

static void tg_free(tg_inst *x)
{
    keps_schema_free(x->s);
    keps_table_free(x->t);
}

/* tg_make plus the instance's lattice (fails the test on error). */
#include "keps/lattice.h"
static keps_lattice *tg_make_lattice(tg_inst *x, keps_rng *rng, int maxq, int maxn)
{
    tg_make(x, rng, maxq, maxn);
    keps_lattice *L = NULL;
    keps_error err = {0};
    assert_int_equal(keps_lattice_new(x->s, &L, &err), KEPS_OK);
    return L;
}

/* Naive classes at a node: cls[r] = smallest row index with the same
 * generalized tuple; size[r] = class size of row r. O(n^2 q). */
static void tg_classes(const tg_inst *x, const int *lv, int *cls, int *size)
{
    for (int r = 0; r < x->n; r++) {
        cls[r] = r;
        for (int p = 0; p < r; p++) {
            int same = 1;
            for (int i = 0; i < x->q && same; i++)
                same = x->group[i][lv[i]][x->val[r][i]] == x->group[i][lv[i]][x->val[p][i]];
            if (same) {
                cls[r] = cls[p];
                break;
            }
        }
    }
    for (int r = 0; r < x->n; r++) {
        size[r] = 0;
        for (int p = 0; p < x->n; p++)
            size[r] += cls[p] == cls[r];
    }
}

/* Mixed-radix node enumeration (same convention as the header documents:
 * coordinate 0 varies fastest). */
static long tg_nnodes(const tg_inst *x)
{
    long n = 1;
    for (int i = 0; i < x->q; i++)
        n *= x->height[i] + 1;
    return n;
}
static void tg_levels(const tg_inst *x, long id, int *lv)
{
    for (int i = 0; i < x->q; i++) {
        lv[i] = (int)(id % (x->height[i] + 1));
        id /= x->height[i] + 1;
    }
}

#endif
