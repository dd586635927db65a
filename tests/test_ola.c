/* OLA: the chosen node and its score equal an exhaustive scan (naive class
 * counting and metrics from docs/spec.md 2 in tests/ola_oracle.h) on random tables,
 * for every metric and several suppression limits; the k-minimal set is the
 * exhaustive one; released data pass an independent k-anonymity check. */
#include "testutil.h"

#include <math.h>
#include <pthread.h>

#include "keps/csv.h"
#include "keps/ola.h"
#include "keps/progress.h"
#include "ola_oracle.h"

static const double limits[] = {0, 0.05, 0.1, 0.2, 0.5, 1};

/* Exhaustive truth for one instance, k and suppression fraction. */
static void check_instance(tg_inst *x, const keps_lattice *L, size_t k, double s)
{
    long nn = tg_nnodes(x);
    or_node *on = calloc((size_t)nn, sizeof *on);
    size_t lim = (size_t)floor(s * x->n + 1e-9);
    int any = 0;
    for (long id = 0; id < nn; id++) {
        int lv[TG_MAXQ];
        tg_levels(x, id, lv);
        or_eval(x, lv, k, &on[id]);
        any |= on[id].S <= lim;
    }
    for (int mt = 0; mt < 2 * KEPS_METRIC_COUNT; mt++) {
        /* every metric, sequential (threads = 1) and on two threads */
        int m = mt / 2;
        keps_ola_params p = {k, s, (keps_metric)m, 1 + mt % 2};
        keps_ola_result r;
        keps_error err = {0};
        assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
        assert_int_equal(r.found, any);
        assert_int_equal(r.nodes_total, (uint64_t)nn);
        assert_true(r.nodes_evaluated <= (uint64_t)nn);
        assert_int_equal(r.top_suppressed, on[nn - 1].S);
        assert_int_equal(r.suppress_limit, lim);
        if (!any) {
            keps_ola_result_free(&r);
            continue;
        }
        double best = INFINITY;
        for (long id = 0; id < nn; id++)
            if (on[id].S <= lim && on[id].v[m] < best)
                best = on[id].v[m];
        const or_node *c = &on[r.node];
        assert_true(c->S <= lim);
        if (!or_close(c->v[m], best))
            fprintf(stderr, "metric %s: chosen %.12g, optimum %.12g (k=%zu s=%g)\n", keps_metric_name(m),
                    c->v[m], best, k, s);
        assert_true(or_close(c->v[m], best));
        for (int mm = 0; mm < KEPS_METRIC_COUNT; mm++)
            assert_true(or_close(r.metrics.v[mm], c->v[mm]));
        assert_int_equal(r.suppressed, c->S);
        assert_int_equal(r.nclasses, c->big);
        /* k-minimal: feasible with no feasible immediate predecessor */
        size_t nmin = 0;
        for (long id = 0; id < nn; id++) {
            if (on[id].S > lim)
                continue;
            int lv[TG_MAXQ], minimal = 1;
            tg_levels(x, id, lv);
            long stride = 1;
            for (int i = 0; i < x->q; i++) {
                if (lv[i] > 0 && on[id - stride].S <= lim)
                    minimal = 0;
                stride *= x->height[i] + 1;
            }
            if (minimal) {
                int in = 0;
                for (size_t j = 0; j < r.nminimal; j++)
                    in |= r.minimal[j] == (uint64_t)id;
                assert_true(in);
                nmin++;
            }
        }
        assert_int_equal(r.nminimal, nmin);
        keps_ola_result_free(&r);
    }
    free(on);
}

static void test_oracle_random(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(31);
    for (int it = 0; it < 250; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, 40);
        size_t k = 1 + keps_rng_below(rng, 6);
        if (it % 3 == 0)
            L->packed = 0; /* hashed keys, as for huge domains */
        for (size_t j = 0; j < sizeof limits / sizeof *limits; j++)
            check_instance(&x, L, k, limits[j]);
        keps_lattice_free(L);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

/* Every quality model ARX offers (metric x aggregate x gs-factor x weights
 * x monotonic) as OLA's objective on random tables, with and without
 * suppression: the chosen node satisfies the limit, no feasible node beats
 * it under the oracle's score (tests/ola_oracle.h, lexicographic for rank,
 * values within rounding taken as equal), and the reported score and
 * per-attribute values are the oracle's there. */
static const double gs_factors[] = {0, 0.3, 0.5, 0.7, 1};

typedef struct variant_ctx {
    tg_inst *x;
    const keps_lattice *L;
    size_t k, lim;
    long nn;
    const or_classes *cl;
    int runs;
} variant_ctx;

static void check_variant(variant_ctx *v, const keps_metric_config *c, int threads)
{
    tg_inst *x = v->x;
    or_cfg oc;
    or_cfg_make(&oc, x->q, c->metric, c->gs_factor, c->monotonic, c->aggregate, c->weights);
    keps_ola_params p = {v->k, (double)v->lim / x->n, c->metric, threads};
    keps_ola_result r;
    keps_error err = {0};
    assert_int_equal(keps_ola_run_objective(v->L, &p, c, &r, &err), KEPS_OK);
    v->runs++;
    int any = 0;
    for (long id = 0; id < v->nn; id++)
        any |= v->cl[id].S <= v->lim;
    assert_int_equal(r.found, any);
    if (!any) {
        keps_ola_result_free(&r);
        return;
    }
    assert_int_equal(r.suppress_limit, v->lim);
    assert_true(v->cl[r.node].S <= v->lim);
    /* the search's statistics: every node tagged by the end of the Kmin
     * phase; counts only grow; two threads share that phase's evaluations */
    const keps_ola_stats *st = &r.stats;
    assert_true(st->nodes_tagged == r.nodes_total);
    assert_true(st->kmin_evaluated >= 1 && st->kmin_evaluated <= st->evaluated);
    assert_true(st->evaluated <= r.nodes_evaluated && st->classes_made <= st->rolled_up);
    if (threads == 1)
        assert_true(st->thread_evaluated[0] == 0 && st->thread_evaluated[1] == 0);
    else
        assert_true(st->thread_evaluated[0] + st->thread_evaluated[1] <= st->kmin_evaluated);
    double chosen[TG_MAXQ], other[TG_MAXQ];
    int len = or_score(x, r.levels, v->k, &v->cl[r.node], &oc, chosen);
    assert_int_equal(r.score_len, (size_t)len);
    if (or_cmp_tol(r.score, chosen, len) != 0)
        fprintf(stderr, "%s gs %g mono %d agg %d: score %.15g, oracle %.15g\n", keps_metric_name(c->metric),
                c->gs_factor, c->monotonic, c->aggregate, r.score[0], chosen[0]);
    assert_int_equal(or_cmp_tol(r.score, chosen, len), 0);
    assert_true((r.attributes != NULL) == (c->metric != KEPS_METRIC_DM && c->metric != KEPS_METRIC_AECS));
    for (int i = 0; r.attributes && i < x->q; i++)
        assert_true(or_close(r.attributes[i], or_attr(x, r.levels, v->k, &v->cl[r.node], &oc, i)));
    for (long id = 0; id < v->nn; id++) {
        if (v->cl[id].S > v->lim)
            continue;
        int lv[TG_MAXQ];
        tg_levels(x, id, lv);
        or_score(x, lv, v->k, &v->cl[id], &oc, other);
        if (or_cmp_tol(other, chosen, len) < 0) {
            fprintf(stderr, "%s gs %g mono %d agg %d weights %d k %zu limit %zu: node %ld (%.15g) beats %llu (%.15g)\n",
                    keps_metric_name(c->metric), c->gs_factor, c->monotonic, c->aggregate, c->weights != NULL, v->k,
                    v->lim, id, other[0], (unsigned long long)r.node, chosen[0]);
            fail();
        }
    }
    keps_ola_result_free(&r);
}

static void test_oracle_variants(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(57);
    int iters = getenv("KEPS_SANITIZED") ? 8 : 50, runs = 0;
    for (int it = 0; it < iters; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, 40);
        variant_ctx v = {&x, L, 1 + keps_rng_below(rng, 5), 0, tg_nnodes(&x), NULL, 0};
        or_classes *cl = calloc((size_t)v.nn, sizeof *cl);
        double raw[TG_MAXQ];
        for (int i = 0; i < x.q; i++)
            raw[i] = (double)keps_rng_below(rng, 5) / 4; /* 0, 0.25, ..., 1: ties and zeros too */
        for (int lim_pass = 0; lim_pass < 2; lim_pass++) {
            /* no suppression, then up to a random share of the rows */
            v.lim = lim_pass ? (size_t)floor(limits[1 + keps_rng_below(rng, 5)] * x.n + 1e-9) : 0;
            for (long id = 0; id < v.nn; id++) {
                int lv[TG_MAXQ];
                tg_levels(&x, id, lv);
                or_classes_at(&x, lv, v.k, &cl[id]);
            }
            v.cl = cl;
            for (int m = 0; m < KEPS_METRIC_COUNT; m++)
                for (int agg = 0; agg < KEPS_AGGREGATE_COUNT; agg++)
                    for (size_t g = 0; g < sizeof gs_factors / sizeof *gs_factors; g++)
                        for (int w = 0; w < 2; w++)
                            for (int mono = 0; mono < 2; mono++) {
                                keps_metric_config c = {(keps_metric)m, gs_factors[g], mono, (keps_aggregate)agg,
                                                        w ? raw : NULL};
                                if (keps_metric_config_check(&c, (size_t)x.q, NULL))
                                    continue; /* what ARX does not offer */
                                check_variant(&v, &c, 1 + (v.runs & 1));
                            }
        }
        runs += v.runs;
        free(cl);
        keps_lattice_free(L);
        tg_free(&x);
    }
    /* the combinations ARX offers: prec 6*5*2*2, loss 6*5*2, entropy 6*5*2*2,
     * height 6*2*2, dm 2, aecs 5 = 331, per instance and limit */
    assert_int_equal(runs, iters * 2 * 331);
    keps_rng_free(rng);
}

/* Independent check of a release (input order): every row not starred has a
 * QI tuple shared by >= k released rows, its QI labels are the ground-truth
 * generalization of its input values, and the counts add up. */
static void check_release(const tg_inst *x, const keps_table *rel, const int *lv, size_t k, int removed,
                          size_t lim)
{
    size_t starred = 0;
    /* rows of rel correspond to input rows in order, skipping removed ones:
     * recover the mapping through the "other" column (value r<row>) */
    int other = keps_table_column(rel, "other");
    assert_true(other >= 0);
    for (size_t a = 0; a < rel->nrows; a++) {
        int row = atoi(keps_table_str(rel, (size_t)other, a) + 1);
        int star = strcmp(keps_table_str(rel, 0, a), "*") == 0;
        if (star) {
            starred++;
            for (int i = 0; i < x->q; i++)
                assert_string_equal(keps_table_str(rel, (size_t)i, a), "*");
            continue;
        }
        size_t same = 0;
        for (int i = 0; i < x->q; i++) {
            char lab[32];
            tg_label(lab, sizeof lab, i, lv[i], x->group[i][lv[i]][x->val[row][i]]);
            assert_string_equal(keps_table_str(rel, (size_t)i, a), lab);
        }
        for (size_t b = 0; b < rel->nrows; b++) {
            int eq = 1;
            for (int i = 0; i < x->q && eq; i++)
                eq = strcmp(keps_table_str(rel, (size_t)i, a), keps_table_str(rel, (size_t)i, b)) == 0;
            same += (size_t)eq;
        }
        assert_true(same >= k);
    }
    if (removed) {
        assert_int_equal(starred, 0);
        assert_true((size_t)x->n - rel->nrows <= lim);
    } else {
        assert_int_equal(rel->nrows, (size_t)x->n);
        assert_true(starred <= lim);
    }
}

static void test_apply_is_k_anonymous(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(32);
    int checked = 0;
    for (int it = 0; it < 200; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, TG_MAXN);
        keps_error err = {0};
        size_t k = 2 + keps_rng_below(rng, 4);
        double s = limits[keps_rng_below(rng, 4)];
        keps_ola_params p = {k, s, (keps_metric)keps_rng_below(rng, KEPS_METRIC_COUNT), 0};
        keps_ola_result r;
        assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
        if (r.found) {
            for (int rem = 0; rem <= 1; rem++) {
                keps_table *rel = NULL;
                keps_counts cnt;
                assert_int_equal(apply_k(L, r.levels, k, rem, &rel, &cnt, &err), KEPS_OK);
                check_release(&x, rel, r.levels, k, rem, r.suppress_limit);
                assert_int_equal(cnt.input_rows, (size_t)x.n);
                assert_int_equal(cnt.suppressed_rows, r.suppressed);
                assert_int_equal(cnt.output_rows, rel->nrows);
                assert_int_equal(cnt.input_rows, cnt.output_rows + cnt.removed_rows + cnt.unsampled_rows);
                keps_table_free(rel);
            }
            checked++;
        }
        keps_ola_result_free(&r);
        keps_lattice_free(L);
        tg_free(&x);
    }
    assert_true(checked > 50);
    keps_rng_free(rng);
}

/* 3 rows, k = 5: even the top node has one class of 3 < 5 rows, so only
 * suppressing all 3 rows (fraction 1) works. */
static void test_no_solution(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a\nx\ny\nx\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    keps_hierarchy *h = NULL;
    const char *hc = "x;*\ny;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(hc, strlen(hc), "h.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    keps_ola_params p = {5, 0.5, KEPS_METRIC_LOSS, 0};
    keps_ola_result r;
    assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
    assert_int_equal(r.found, 0);
    assert_int_equal(r.top_suppressed, 3);
    keps_ola_result_free(&r);
    p.suppress = 1;
    assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
    assert_int_equal(r.found, 1);
    assert_int_equal(r.suppressed, 3);
    keps_ola_result_free(&r);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Adult, nine QIs: OLA's optimum equals the minimum over an exhaustive scan
 * of all 12,960 nodes (scored with keps_metrics; the search is what is under
 * test here, the metric code is checked against the naive oracle above). */
typedef struct adult_scan {
    keps_metrics *m[2]; /* one per scan thread (metrics hold scratch) */
    size_t k, lim;
    keps_metric metric;
    double best[2];
    size_t feasible[2];
} adult_scan;

static int adult_cb(const keps_node_info *ni, int thread, void *ud)
{
    adult_scan *a = ud;
    if (ni->suppressed > a->lim)
        return 0;
    a->feasible[thread]++;
    double v = keps_metrics_score(a->m[thread], a->metric, ni->levels, ni->classes, a->k);
    if (v < a->best[thread])
        a->best[thread] = v;
    return 0;
}

/* Adult with the bundled hierarchies of its first nq QIs (in this order). */
static void test_adult_exhaustive(void **state)
{
    (void)state;
    keps_table *t = NULL;
    keps_schema *s = NULL;
    keps_error err = {0};
    keps_lattice *L = adult_lattice(9, &t, &s);
    assert_int_equal(L->nnodes, 12960);
    const struct {
        size_t k;
        double s;
        keps_metric m;
    } cases[] = {{2, 0, KEPS_METRIC_LOSS}, {5, 0, KEPS_METRIC_LOSS}, {5, 0.05, KEPS_METRIC_LOSS},
                 {10, 0.05, KEPS_METRIC_ENTROPY}, {50, 0.05, KEPS_METRIC_DM}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        adult_scan a = {{keps_metrics_new(L), keps_metrics_new(L)}, cases[c].k,
                        (size_t)floor(cases[c].s * 30162 + 1e-9), cases[c].m, {INFINITY, INFINITY}, {0, 0}};
        assert_int_equal(keps_lattice_scan(L, a.k, adult_cb, &a, 2, &err), KEPS_OK);
        double best = a.best[0] < a.best[1] ? a.best[0] : a.best[1];
        keps_ola_params p = {cases[c].k, cases[c].s, cases[c].m, (int)(1 + c % 2)};
        keps_ola_result r;
        assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
        assert_true(r.found);
        assert_true(a.feasible[0] + a.feasible[1] > 0);
        assert_true(r.suppressed <= a.lim);
        assert_true(or_close(r.metrics.v[cases[c].m], best));
        assert_true(r.nodes_evaluated < r.nodes_total);
        keps_ola_result_free(&r);
        keps_metrics_free(a.m[0]);
        keps_metrics_free(a.m[1]);
    }
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Progress: the search reports the larger of its position in the top-level
 * loop over the middle level and 1 - ln(untagged + 1) / ln(nodes + 1), as a
 * share of 1; calls come from the caller's thread only, in order, and stop
 * short of the total. With one thread the first call comes before the first
 * middle node is evaluated, when only the top node is tagged (its up-cone is
 * itself): position 0, untagged = nodes - 1, so the share is
 * 1 - ln(nodes) / ln(nodes + 1) (nodes counted here by hand as the product
 * of height + 1). */
typedef struct seen_progress {
    int calls, in_order, named;
    double first, last, total;
    pthread_t caller;
    int other_thread;
} seen_progress;

static void progress_cb(const char *what, double done, double total, void *ud)
{
    seen_progress *sp = ud;
    sp->named &= strcmp(what, "OLA search") == 0;
    sp->in_order &= done >= sp->last && done < total;
    sp->other_thread |= !pthread_equal(pthread_self(), sp->caller);
    if (!sp->calls)
        sp->first = done;
    sp->last = done;
    sp->total = total;
    sp->calls++;
}

static void test_progress(void **state)
{
    (void)state;
    keps_error err = {0};
    keps_table *t = NULL;
    keps_schema *s = NULL;
    keps_lattice *L = adult_lattice(5, &t, &s);
    double nodes = 1;
    for (size_t i = 0; i < L->q; i++)
        nodes *= L->height[i] + 1;
    for (int threads = 1; threads <= 2; threads++) {
        seen_progress sp = {0, 1, 1, 0, 0, 0, pthread_self(), 0};
        keps_progress_hook(progress_cb, &sp);
        keps_ola_params p = {5, 0.05, KEPS_METRIC_LOSS, threads};
        keps_ola_result r;
        assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
        keps_progress_hook(NULL, NULL);
        assert_true(r.found);
        /* With two threads on a loaded machine the worker can take every
         * middle node before the caller gets a core; the caller then has
         * nothing to report. */
        if (threads == 1) {
            assert_true(sp.calls > 1);
            assert_true(fabs(sp.first - (1 - log(nodes) / log(nodes + 1))) < 1e-12);
            assert_true(sp.last > sp.first);
        }
        assert_true(sp.named);
        assert_true(sp.in_order);
        assert_false(sp.other_thread);
        if (sp.calls)
            assert_true(sp.total == 1);
        keps_ola_result_free(&r);
    }
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* OLA's search on 1, 2, 3 and 5 threads (issue 27: it honours the threads
 * parameter) finds the same node with the same score, suppressed rows,
 * classes and metrics on Adult (9 QIs, k = 5, 5%): the threads share the
 * tags, and the optimum is read from the tags alone. */
static void test_threads_same_result(void **state)
{
    (void)state;
    keps_error err = {0};
    keps_table *t = NULL;
    keps_schema *s = NULL;
    keps_lattice *L = adult_lattice(9, &t, &s);
    keps_ola_result one;
    keps_ola_params p1 = {5, 0.05, KEPS_METRIC_LOSS, 1};
    assert_int_equal(keps_ola_run(L, &p1, &one, &err), KEPS_OK);
    assert_true(one.found);
    assert_int_equal(one.stats.thread_evaluated[1], 0); /* sequential: no other thread */
    static const int counts[] = {2, 3, 5};
    for (size_t c = 0; c < 3; c++) {
        keps_ola_params p = {5, 0.05, KEPS_METRIC_LOSS, counts[c]};
        keps_ola_result r;
        assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
        assert_true(r.found);
        assert_true(r.node == one.node);
        assert_int_equal(r.score_len, one.score_len);
        for (size_t i = 0; i < r.score_len; i++)
            assert_true(r.score[i] == one.score[i]);
        assert_int_equal(r.suppressed, one.suppressed);
        assert_int_equal(r.nclasses, one.nclasses);
        assert_memory_equal(&r.metrics, &one.metrics, sizeof r.metrics);
        assert_int_equal(r.nminimal, one.nminimal);
        assert_memory_equal(r.minimal, one.minimal, r.nminimal * sizeof *r.minimal);
        keps_ola_result_free(&r);
    }
    keps_ola_result_free(&one);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_random),
        cmocka_unit_test(test_threads_same_result),
        cmocka_unit_test(test_apply_is_k_anonymous),
        cmocka_unit_test(test_no_solution),
        cmocka_unit_test(test_adult_exhaustive),
        cmocka_unit_test(test_oracle_variants),
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
