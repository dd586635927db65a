/* OLA on the bundled Adult with all nine QIs (12,960 nodes) against an
 * exhaustive oracle: every node's classes from keps_lattice_scan, the
 * nodes within the suppression limit filtered here, and the smallest value
 * of each metric taken over them. OLA's answer must be that value (and that
 * node, when no other node ties), for every metric, k in {2, 10, 100} and
 * suppression 0, 1 % and 5 %: the search (binary search with predictive
 * tagging, bounds, the global optimum over non-monotone metrics with
 * suppression; k = 10 only under the sanitizers) is checked on real data, not only on tests/test_ola.c's
 * small random tables. The metric values themselves are the library's on
 * both sides; tests/test_arx_parity.c checks them against ARX's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/metrics.h"
#include "keps/ola.h"
#include "keps/schema.h"
#include "testutil.h"

typedef struct node_rec {
    uint64_t id;
    size_t suppressed;
    keps_metric_values v;
} node_rec;

typedef struct scan_state {
    node_rec *rec;
    size_t n;
    keps_metrics *m;
    size_t k;
} scan_state;

static int record(const keps_node_info *ni, int thread, void *ud)
{
    (void)thread;
    scan_state *s = ud;
    node_rec *r = &s->rec[s->n++];
    r->id = ni->id;
    r->suppressed = ni->suppressed;
    keps_metrics_all(s->m, ni->levels, ni->classes, s->k, &r->v);
    return 0;
}

static void test_ola_adult_exhaustive(void **state)
{
    (void)state;
    static const char *const qi[] = {"sex",       "age",            "race",      "marital-status", "education",
                                     "native-country", "workclass", "occupation", "salary-class"};
    char path[4096];
    keps_error err = {0};
    keps_table *t = NULL;
    snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
    assert_int_equal(keps_csv_read(path, NULL, &t, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    for (size_t i = 0; i < 9; i++) {
        snprintf(path, sizeof path, "%s:%s/data/adult/adult_hierarchy_%s.csv", qi[i], KEPS_SOURCE_DIR, qi[i]);
        assert_int_equal(keps_schema_add_qi(s, t, path, &err), KEPS_OK);
    }
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_int_equal(L->nnodes, 12960);
    scan_state st = {malloc(L->nnodes * sizeof *st.rec), 0, keps_metrics_new(L), 0};
    assert_non_null(st.rec);
    static const size_t ks[] = {2, 10, 100};
    static const double sup[] = {0, 0.01, 0.05};
    /* Under the sanitizers (about ten times slower) k = 10 only: its scan
     * and searches run every code path; the release build runs all. */
    const char *san = getenv("KEPS_SANITIZED");
    int sanitized = san && strcmp(san, "1") == 0;
    for (size_t a = 0; a < 3; a++) {
        if (sanitized && ks[a] != 10)
            continue;
        st.k = ks[a];
        st.n = 0;
        assert_int_equal(keps_lattice_scan(L, st.k, record, &st, 1, &err), KEPS_OK); /* 1 thread: one metrics */
        assert_int_equal(st.n, 12960);
        for (size_t b = 0; b < 3; b++) {
            size_t limit = (size_t)floor(sup[b] * (double)L->nrows);
            for (int m = 0; m < KEPS_METRIC_COUNT; m++) {
                double best = INFINITY;
                uint64_t best_id = 0;
                int ties = 0;
                for (size_t i = 0; i < st.n; i++) {
                    if (st.rec[i].suppressed > limit)
                        continue;
                    double v = st.rec[i].v.v[m];
                    if (v < best)
                        best = v, best_id = st.rec[i].id, ties = 1;
                    else if (v == best)
                        ties++;
                }
                keps_ola_params p = {.k = st.k, .suppress = sup[b], .metric = (keps_metric)m};
                keps_ola_result res;
                memset(&res, 0, sizeof res);
                assert_int_equal(keps_ola_run(L, &p, &res, &err), KEPS_OK);
                assert_true(res.found); /* the top node fits every case here */
                if (res.metrics.v[m] != best || (ties == 1 && res.node != best_id))
                    fail_msg("k %zu, suppression %g, %s: OLA %.17g at node %llu, exhaustive %.17g at %llu (%d ties)",
                             st.k, sup[b], keps_metric_name((keps_metric)m), res.metrics.v[m],
                             (unsigned long long)res.node, best, (unsigned long long)best_id, ties);
                keps_ola_result_free(&res);
            }
        }
    }
    keps_metrics_free(st.m);
    free(st.rec);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ola_adult_exhaustive)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
