/* Metrics on a tiny table computed by hand (SPEC 2), then every metric of
 * every node of random tables against the naive oracle (tests/ola_oracle.h).
 *
 * Table (n = 6), QI A with hierarchy x,y -> xy -> *, z -> z -> * (3 leaves,
 * height 2), QI B with m,f -> * (2 leaves, height 1):
 *   r1 x m, r2 x m, r3 y m, r4 y f, r5 z f, r6 z f.   k = 2 throughout. */
#include "testutil.h"

#include <math.h>

#include "keps/metrics.h"
#include "keps/ola.h"
#include "ola_oracle.h"

typedef struct tiny {
    keps_table *t;
    keps_schema *s;
    keps_lattice *L;
    keps_metrics *m;
    keps_lattice_work *w;
} tiny;

static void tiny_make(tiny *x)
{
    x->t = table_from_csv("A,B\nx,m\nx,m\ny,m\ny,f\nz,f\nz,f\n");
    x->s = keps_schema_new(x->t);
    keps_error err = {0};
    const char *ha = "x;xy;*\ny;xy;*\nz;z;*\n", *hb = "m;*\nf;*\n";
    keps_hierarchy *h = NULL;
    assert_int_equal(keps_hierarchy_load_buffer(ha, strlen(ha), "a.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(x->s, 0, h, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_load_buffer(hb, strlen(hb), "b.csv", ';', &h, &err), KEPS_OK);
    assert_int_equal(keps_schema_add_qi_hierarchy(x->s, 1, h, &err), KEPS_OK);
    assert_int_equal(keps_lattice_new(x->s, &x->L, &err), KEPS_OK);
    x->m = keps_metrics_new(x->L);
    x->w = keps_lattice_work_new(x->L);
    assert_non_null(x->m);
}

static void tiny_free(tiny *x)
{
    keps_lattice_work_free(x->w);
    keps_metrics_free(x->m);
    keps_lattice_free(x->L);
    keps_schema_free(x->s);
    keps_table_free(x->t);
}

static void tiny_values(tiny *x, int a, int b, keps_metric_values *v)
{
    int lv[2] = {a, b};
    keps_node_classes c;
    keps_node_classes_init(&c);
    assert_int_equal(keps_lattice_rollup(x->L, x->w, NULL, lv, &c, NULL), KEPS_OK);
    keps_metrics_all(x->m, lv, &c, 2, v);
    keps_node_classes_free(&c);
}

/* Node (A=1, B=0): classes (xy,m) = {r1,r2,r3}, (xy,f) = {r4}, (z,f) = {r5,r6};
 * S = 1 (r4).
 *  prec: A ((6-1)*1/2 + 1)/6 = 3.5/6, B ((6-1)*0 + 1)/6 = 1/6; mean = 0.375.
 *  loss: A: shares xy 2/3, z 1/3; released r1-r3 (xy) + r5,r6 (z) = 2 + 2/3,
 *        + S = 11/3; L_A = (11/3 - 6/3)/(6 - 2) = 5/12 -> floor10 0.4166666666.
 *        B: shares 1/2; released 5/2 + 1 = 3.5; L_B = (3.5 - 3)/(6 - 3) = 1/6
 *        -> 0.1666666666. loss = sqrt(1.4166666666 * 1.1666666666) - 1.
 *  discernibility: 3^2 + 2^2 + 6*1 = 19.   aecs: 6/(2 + 1) = 2.
 *  entropy: A: a_x = a_y = a_z = 2, b_xy = 4, b_z = 2:
 *        -(2 log2(2/4) + 2 log2(2/4) + 2 log2(2/2)) = 4; suppressed r4 alone
 *        (c = S = 1) adds 0. B at level 0: b = a, 0; r4 adds 0. Total 4. */
static void test_tiny_node_1_0(void **state)
{
    (void)state;
    tiny x;
    tiny_make(&x);
    keps_metric_values v;
    tiny_values(&x, 1, 0, &v);
    assert_double_near(v.v[KEPS_METRIC_PREC], 0.375, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_LOSS], sqrt(1.4166666666 * 1.1666666666) - 1, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_DM], 19, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_AECS], 2, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_ENTROPY], 4, 1e-12);
    tiny_free(&x);
}

/* Node (0,0): classes (x,m) 2, (y,m) 1, (y,f) 1, (z,f) 2; S = 2 (r3, r4).
 *  prec: each QI (0 + 2)/6 = 1/3.
 *  loss: A: 4 released * 1/3 + 2 = 10/3; (10/3 - 2)/4 = 1/3 -> 0.3333333333;
 *        B: 4 * 1/2 + 2 = 4; (4 - 3)/3 -> 0.3333333333; loss = 0.3333333333.
 *  discernibility: 4 + 4 + 2*6 = 20.   aecs: 6/(2 + 1) = 2.
 *  entropy: level 0 parts are 0; suppressed: A both y -> 2 log2(2/2) = 0;
 *        B m and f -> -(log2(1/2) + log2(1/2)) = 2. Total 2. */
static void test_tiny_node_0_0(void **state)
{
    (void)state;
    tiny x;
    tiny_make(&x);
    keps_metric_values v;
    tiny_values(&x, 0, 0, &v);
    assert_double_near(v.v[KEPS_METRIC_PREC], 1.0 / 3, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_LOSS], 0.3333333333, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_DM], 20, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_AECS], 2, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_ENTROPY], 2, 1e-12);
    tiny_free(&x);
}

/* Top (2,1): one class of 6, S = 0. prec 1; loss: A (6 - 2)/4 = 1, B
 * (6 - 3)/3 = 1, sqrt(2*2) - 1 = 1; discernibility 36; aecs 6;
 * entropy: A -3 * 2 log2(2/6) = 6 log2 3, B -2 * 3 log2(3/6) = 6. */
static void test_tiny_top(void **state)
{
    (void)state;
    tiny x;
    tiny_make(&x);
    keps_metric_values v;
    tiny_values(&x, 2, 1, &v);
    assert_double_near(v.v[KEPS_METRIC_PREC], 1, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_LOSS], 1, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_DM], 36, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_AECS], 6, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_ENTROPY], 6 * log2(3) + 6, 1e-12);
    tiny_free(&x);
}

/* OLA on the tiny table, k = 2, no suppression: feasible nodes are (2,0),
 * (0,1), (1,1), (2,1); k-minimal (2,0) and (0,1). Entropy: (0,1) scores
 * 0 + 6 (B: -2 * 3 log2(3/6)) = 6 < (2,0)'s 6 log2 3; discernibility (0,1)
 * 3 * 2^2 = 12 < (2,0) 2 * 3^2 = 18. With 1 row suppressible (s = 1/6),
 * (1,0) (S = 1) scores loss 0.2856 < 0.4142 = sqrt(2) - 1 at (0,1)/(2,0). */
static void test_tiny_ola(void **state)
{
    (void)state;
    tiny x;
    tiny_make(&x);
    keps_error err = {0};
    keps_ola_result r;
    keps_ola_params p = {2, 0, KEPS_METRIC_ENTROPY, 0};
    assert_int_equal(keps_ola_run(x.L, &p, &r, &err), KEPS_OK);
    assert_int_equal(r.nminimal, 2);
    assert_int_equal(r.levels[0], 0);
    assert_int_equal(r.levels[1], 1);
    assert_double_near(r.metrics.v[KEPS_METRIC_ENTROPY], 6, 1e-12);
    keps_ola_result_free(&r);
    p.metric = KEPS_METRIC_DM;
    assert_int_equal(keps_ola_run(x.L, &p, &r, &err), KEPS_OK);
    assert_int_equal(r.levels[0], 0);
    assert_double_near(r.metrics.v[KEPS_METRIC_DM], 12, 1e-12);
    keps_ola_result_free(&r);
    p.metric = KEPS_METRIC_LOSS;
    p.suppress = 1.0 / 6;
    assert_int_equal(keps_ola_run(x.L, &p, &r, &err), KEPS_OK);
    assert_int_equal(r.levels[0], 1);
    assert_int_equal(r.levels[1], 0);
    assert_int_equal(r.suppressed, 1);
    assert_double_near(r.metrics.v[KEPS_METRIC_LOSS], sqrt(1.4166666666 * 1.1666666666) - 1, 1e-12);
    keps_ola_result_free(&r);
    tiny_free(&x);
}

static void test_names(void **state)
{
    (void)state;
    keps_metric m;
    assert_int_equal(keps_metric_parse("dm", &m), 0);
    assert_int_equal(m, KEPS_METRIC_DM);
    assert_int_equal(keps_metric_parse("discernibility", &m), 0);
    assert_int_equal(m, KEPS_METRIC_DM);
    assert_int_equal(keps_metric_parse("loss", &m), 0);
    assert_int_equal(m, KEPS_METRIC_LOSS);
    assert_int_equal(keps_metric_parse("Loss", &m), -1);
    assert_string_equal(keps_metric_name(KEPS_METRIC_ENTROPY), "entropy");
    assert_string_equal(keps_metric_name(KEPS_METRIC_PREC), "prec");
    assert_string_equal(keps_metric_name(KEPS_METRIC_AECS), "aecs");
}

/* Every metric at every node of random tables equals the naive oracle,
 * and each bound is a lower bound for the node and all nodes above it. */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(41);
    for (int it = 0; it < 150; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, 50);
        keps_metrics *m = keps_metrics_new(L);
        keps_lattice_work *w = keps_lattice_work_new(L);
        size_t k = 1 + keps_rng_below(rng, 5);
        long nn = tg_nnodes(&x);
        or_node *on = calloc((size_t)nn, sizeof *on);
        double(*bound)[KEPS_METRIC_COUNT] = calloc((size_t)nn, sizeof *bound);
        for (long id = 0; id < nn; id++) {
            int lv[TG_MAXQ];
            tg_levels(&x, id, lv);
            or_eval(&x, lv, k, &on[id]);
            keps_node_classes c;
            keps_node_classes_init(&c);
            assert_int_equal(keps_lattice_rollup(L, w, NULL, lv, &c, NULL), KEPS_OK);
            keps_metric_values v;
            keps_metrics_all(m, lv, &c, k, &v);
            for (int j = 0; j < KEPS_METRIC_COUNT; j++) {
                if (!or_close(v.v[j], on[id].v[j]))
                    fprintf(stderr, "%s: %.15g vs oracle %.15g\n", keps_metric_name(j), v.v[j], on[id].v[j]);
                assert_true(or_close(v.v[j], on[id].v[j]));
                double b0 = keps_metrics_bound(m, (keps_metric)j, lv, NULL);
                double b1 = keps_metrics_bound(m, (keps_metric)j, lv, &c);
                bound[id][j] = b0 > b1 ? b0 : b1;
            }
            keps_node_classes_free(&c);
        }
        for (long a = 0; a < nn; a++)
            for (long b = 0; b < nn; b++) {
                int la[TG_MAXQ], lb[TG_MAXQ], le = 1;
                tg_levels(&x, a, la);
                tg_levels(&x, b, lb);
                for (int i = 0; i < x.q; i++)
                    le &= la[i] <= lb[i];
                if (le)
                    for (int j = 0; j < KEPS_METRIC_COUNT; j++)
                        assert_true(bound[a][j] <= on[b].v[j] + 1e-9 * (1 + fabs(on[b].v[j])));
            }
        free(on);
        free(bound);
        keps_lattice_work_free(w);
        keps_metrics_free(m);
        keps_lattice_free(L);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_node_1_0), cmocka_unit_test(test_tiny_node_0_0),
        cmocka_unit_test(test_tiny_top),      cmocka_unit_test(test_tiny_ola),
        cmocka_unit_test(test_names),         cmocka_unit_test(test_random_vs_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
