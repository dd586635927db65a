/* The search on a frequency table (keps_lattice_new_weighted) against the
 * search on the expanded rows: same node, score, suppressed records,
 * classes, k-minimal nodes and every metric, on random tables with random
 * hierarchies (every metric, several k and suppression limits) and on
 * Adult's eight QIs. The frequency tables are made here by a plain scan
 * over the rows (an oracle independent of the lattice's grouping), listed
 * in reverse order of first appearance so that no order is shared. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "keps/csv.h"
#include "keps/ola.h"
#include "ola_testgen.h"

static keps_hierarchy *copy_h(const keps_hierarchy *h)
{
    size_t n = h->levels->nrows, *rows = malloc(n * sizeof *rows);
    for (size_t r = 0; r < n; r++)
        rows[r] = r;
    keps_error err = {0};
    keps_table *t = keps_table_rows(h->levels, rows, n, &err);
    free(rows);
    keps_hierarchy *c = NULL;
    assert_int_equal(keps_hierarchy_from_table(t, &c, &err), KEPS_OK);
    return c;
}

/* The distinct tuples of s's QIs with their row counts: a table of the QI
 * columns, rows in reverse first appearance, and the schema over it. */
static void frequency_table(const keps_schema *s, keps_table **W, keps_schema **SW, uint32_t **weight)
{
    const keps_table *t = s->t;
    size_t q = s->nqi, nd = 0;
    size_t *first = malloc(t->nrows * sizeof *first);
    uint32_t *cnt = calloc(t->nrows, sizeof *cnt);
    for (size_t r = 0; r < t->nrows; r++) {
        size_t d = 0;
        for (; d < nd; d++) {
            int same = 1;
            for (size_t i = 0; i < q && same; i++)
                same = t->cols[s->qi[i].col].codes[r] == t->cols[s->qi[i].col].codes[first[d]];
            if (same)
                break;
        }
        if (d == nd)
            first[nd++] = r;
        cnt[d]++;
    }
    const char **names = calloc(q, sizeof *names), **f = calloc(q, sizeof *f);
    for (size_t i = 0; i < q; i++)
        names[i] = t->cols[s->qi[i].col].name;
    keps_error err = {0};
    *W = keps_table_new(q, names, t->missing_token, "weighted", &err);
    *weight = malloc(nd * sizeof **weight);
    for (size_t k = 0; k < nd; k++) {
        size_t d = nd - 1 - k;
        for (size_t i = 0; i < q; i++)
            f[i] = keps_table_str(t, s->qi[i].col, first[d]);
        assert_int_equal(keps_table_append(*W, f, NULL, 0, &err), KEPS_OK);
        (*weight)[k] = cnt[d];
    }
    *SW = keps_schema_new(*W);
    for (size_t i = 0; i < q; i++)
        assert_int_equal(keps_schema_add_qi_hierarchy(*SW, i, copy_h(s->qi[i].h), &err), KEPS_OK);
    free(first), free(cnt), free(names), free(f);
}

static int close_to(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static void same_search(const keps_lattice *A, const keps_lattice *B, size_t k, double sup, keps_metric m)
{
    keps_ola_params p = {.k = k, .suppress = sup, .metric = m, .threads = 1};
    keps_ola_result ra = {0}, rb = {0};
    keps_error err = {0};
    assert_int_equal(keps_ola_run(A, &p, &ra, &err), KEPS_OK);
    assert_int_equal(keps_ola_run(B, &p, &rb, &err), KEPS_OK);
    assert_int_equal(ra.found, rb.found);
    assert_int_equal(ra.suppress_limit, rb.suppress_limit);
    assert_int_equal(ra.top_suppressed, rb.top_suppressed);
    assert_int_equal(ra.nminimal, rb.nminimal);
    if (ra.found) {
        assert_int_equal(ra.node, rb.node);
        assert_int_equal(ra.suppressed, rb.suppressed);
        assert_int_equal(ra.nclasses, rb.nclasses);
        assert_int_equal(ra.score_len, rb.score_len);
        for (size_t i = 0; i < ra.score_len; i++)
            assert_true(close_to(ra.score[i], rb.score[i]));
        for (int x = 0; x < KEPS_METRIC_COUNT; x++)
            if (!close_to(ra.metrics.v[x], rb.metrics.v[x])) {
                fprintf(stderr, "metric %s: expanded %.17g weighted %.17g\n", keps_metric_name((keps_metric)x),
                        ra.metrics.v[x], rb.metrics.v[x]);
                fail();
            }
        keps_table *rel = NULL;
        keps_counts ca = {0}, cb = {0};
        assert_int_equal(apply_k(A, ra.levels, k, 0, &rel, &ca, &err), KEPS_OK);
        keps_table_free(rel);
        assert_int_equal(apply_k(B, rb.levels, k, 1, &rel, &cb, &err), KEPS_OK);
        keps_table_free(rel);
        assert_int_equal(ca.input_rows, cb.input_rows);
        assert_int_equal(ca.suppressed_rows, cb.suppressed_rows);
        assert_int_equal(cb.output_rows, cb.input_rows - cb.suppressed_rows);
    }
    keps_ola_result_free(&ra);
    keps_ola_result_free(&rb);
}

static void test_random(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(30);
    int cases = getenv("KEPS_SANITIZED") ? 60 : 300;
    for (int c = 0; c < cases; c++) {
        tg_inst x;
        keps_lattice *A = tg_make_lattice(&x, rng, TG_MAXQ, TG_MAXN), *B = NULL;
        keps_table *W;
        keps_schema *SW;
        uint32_t *w;
        frequency_table(x.s, &W, &SW, &w);
        keps_error err = {0};
        assert_int_equal(keps_lattice_new_weighted(SW, w, &B, &err), KEPS_OK);
        assert_int_equal(A->nrows, B->nrows);
        assert_int_equal(A->bottom.n, B->bottom.n);
        static const size_t ks[] = {1, 2, 3, 5};
        static const double sups[] = {0, 0.1, 0.3};
        for (int m = 0; m < KEPS_METRIC_COUNT; m++)
            for (size_t a = 0; a < 4; a++)
                for (size_t b = 0; b < 3; b++)
                    same_search(A, B, ks[a], sups[b], (keps_metric)m);
        keps_lattice_free(A);
        keps_lattice_free(B);
        keps_schema_free(SW);
        keps_table_free(W);
        free(w);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

static void test_adult(void **state)
{
    (void)state;
    static const char *qis[] = {"sex", "age", "race", "marital-status", "education", "native-country",
                                "workclass", "occupation"};
    keps_table *t = NULL;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    for (size_t i = 0; i < 8; i++) {
        char spec[256];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", qis[i], KEPS_SOURCE_DIR, qis[i]);
        assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    }
    keps_lattice *A = NULL, *B = NULL;
    assert_int_equal(keps_lattice_new(s, &A, &err), KEPS_OK);
    keps_table *W;
    keps_schema *SW;
    uint32_t *w;
    frequency_table(s, &W, &SW, &w);
    assert_int_equal(keps_lattice_new_weighted(SW, w, &B, &err), KEPS_OK);
    assert_int_equal(B->nrows, 30162);
    assert_true(W->nrows < 30162);
    same_search(A, B, 5, 0.02, KEPS_METRIC_LOSS);
    same_search(A, B, 10, 0.05, KEPS_METRIC_ENTROPY);
    same_search(A, B, 2, 0, KEPS_METRIC_DM);
    keps_lattice_free(A);
    keps_lattice_free(B);
    keps_schema_free(SW);
    keps_schema_free(s);
    keps_table_free(W);
    keps_table_free(t);
    free(w);
}

/* Records beyond 32-bit class sizes are refused, not wrapped. */
static void test_too_many(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a\nx\ny\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    assert_int_equal(keps_schema_add_qi(s, t, "a", &err), KEPS_OK);
    keps_hierarchy *h = NULL;
    assert_int_equal(keps_hierarchy_load_buffer("x;*\ny;*\n", 8, "h", ';', &h, &err), KEPS_OK);
    keps_schema_free(s);
    s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi_hierarchy(s, 0, h, &err), KEPS_OK);
    uint32_t w[2] = {UINT32_MAX, 1};
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new_weighted(s, w, &L, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "4294967296 records"));
    w[0] = UINT32_MAX - 1;
    assert_int_equal(keps_lattice_new_weighted(s, w, &L, &err), KEPS_OK);
    assert_int_equal(L->nrows, (size_t)UINT32_MAX);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    (void)tg_classes, (void)tg_nnodes, (void)tg_levels; /* the generator's other helpers */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_adult),
        cmocka_unit_test(test_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
