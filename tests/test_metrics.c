/* Metrics on a tiny table computed by hand (docs/spec.md 2), then every metric of
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
 * entropy: A -3 * 2 log2(2/6) = 6 log2 3 = 9.509775004326..., floored to
 * 10 decimals as ARX does per QI: 9.5097750043; B -2 * 3 log2(3/6) = 6;
 * height 2 + 1 = 3. */
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
    assert_double_near(v.v[KEPS_METRIC_ENTROPY], 9.5097750043 + 6, 1e-12);
    assert_double_near(v.v[KEPS_METRIC_HEIGHT], 3, 0);
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

/* The variants on node (1,0) of the tiny table (S = 1: r4 = (y, f);
 * A at level 1 of 2, r = 1/2; B at level 0, r = 0), by hand from ARX's
 * definitions (docs/spec.md section 2). gs-factor f: g = 1 if f <= 0.5 else
 * 1 - 2(f - 0.5); s = 2f if f < 0.5 else 1.
 *  prec f=0.25 (g 1, s 0.5): A ((5 * 1/2) + 0.5)/6 = 1/2, B 0.5/6 = 1/12;
 *       arithmetic mean 7/24. f=0.75 (g 0.5, s 1): A (2.5*0.5 + 1)/6 = 0.375,
 *       B 1/6; mean 13/48. Monotonic f=0.75: A 1/2*0.5 = 0.25, B 0; mean 1/8.
 *       max aggregate (f 0.5): max(3.5/6, 1/6) = 7/12.
 *  loss f=0.25: A released r1-r3 (xy, 2/3 each) + r5,r6 (z, 1/3) = 8/3, r4
 *       suppressed costs 2/3 + 0.5*(1 - 2/3) = 5/6: x = 3.5, lo = 6/3 = 2,
 *       (3.5 - 2)/4 = 0.375. B released 5/2, r4 1/2 + 0.5/2 = 3/4: 3.25,
 *       lo 3, 0.25/3 -> 0.0833333333. Geometric mean
 *       sqrt(1.375 * 1.0833333333) - 1. f=0.75: A 0.5*8/3 + 1 = 7/3, lo 1,
 *       (4/3)/5 -> 0.2666666666; B 0.5*2.5 + 1 = 2.25, lo 1.5, 0.75/4.5 ->
 *       0.1666666666. Rank (f 0.5): [0.4166666666, 0.1666666666]; weights
 *       (0.2, 0.1) -> (1, 0.5): sqrt(1.4166666666 * 1.0833333333) - 1.
 *  entropy monotonic: the generalization part only, A 4, B 0: 4.
 *  height with weights (1, 0.25): 1*1 + 0*0.25 = 1.
 *  aecs f=0.25: 6 / (2 classes * s 0.5 + g 1) = 3; f=0.75: 6/(2*1 + 0.5) = 2.4.
 *  dm monotonic (DM*): 3^2 + 1^2 + 2^2 = 14.
 * Node (0,0): entropy f=0.25 (s 0.5): suppressed r3, r4: A both y: 0; B m, f:
 *  -2 log2(1/2) = 2, times s: 1. Total 1. */
static double tiny_objective(tiny *x, int a, int b, const keps_metric_config *cfg, double *out)
{
    int lv[2] = {a, b};
    keps_node_classes c;
    keps_node_classes_init(&c);
    assert_int_equal(keps_lattice_rollup(x->L, x->w, NULL, lv, &c, NULL), KEPS_OK);
    keps_error err = {0};
    keps_metrics *m = keps_metrics_new_objective(x->L, cfg, &err);
    assert_non_null(m);
    double v[2];
    keps_metrics_objective(m, lv, &c, 2, out ? out : v);
    keps_metrics_free(m);
    keps_node_classes_free(&c);
    return out ? out[0] : v[0];
}

static keps_metric_config mcfg(keps_metric m, double gs, int mono, keps_aggregate agg, const double *w)
{
    keps_metric_config c = {m, gs, mono, agg, w};
    return c;
}

static void test_tiny_variants(void **state)
{
    (void)state;
    tiny x;
    tiny_make(&x);
    keps_metric_config c = mcfg(KEPS_METRIC_PREC, 0.25, 0, 0, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 7.0 / 24, 1e-15);
    c.gs_factor = 0.75;
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 13.0 / 48, 1e-15);
    c.monotonic = 1;
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 1.0 / 8, 1e-15);
    c = mcfg(KEPS_METRIC_PREC, 0.5, 0, KEPS_AGGREGATE_MAX, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 7.0 / 12, 1e-15);
    c = mcfg(KEPS_METRIC_LOSS, 0.25, 0, 0, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), sqrt(1.375 * 1.0833333333) - 1, 1e-15);
    c.gs_factor = 0.75;
    c.aggregate = KEPS_AGGREGATE_SUM;
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 0.2666666666 + 0.1666666666, 1e-15);
    c = mcfg(KEPS_METRIC_LOSS, 0.5, 0, KEPS_AGGREGATE_RANK, NULL);
    double v[2];
    tiny_objective(&x, 1, 0, &c, v);
    assert_double_near(v[0], 0.4166666666, 1e-15);
    assert_double_near(v[1], 0.1666666666, 1e-15);
    const double w[2] = {0.2, 0.1};
    c = mcfg(KEPS_METRIC_LOSS, 0.5, 0, 0, w);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), sqrt(1.4166666666 * 1.0833333333) - 1, 1e-15);
    c = mcfg(KEPS_METRIC_ENTROPY, 0.5, 1, 0, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 4, 1e-15);
    c = mcfg(KEPS_METRIC_ENTROPY, 0.25, 0, 0, NULL);
    assert_double_near(tiny_objective(&x, 0, 0, &c, NULL), 1, 1e-15);
    const double wh[2] = {1, 0.25};
    c = mcfg(KEPS_METRIC_HEIGHT, 0.5, 0, 0, wh);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 1, 0);
    assert_double_near(tiny_objective(&x, 2, 1, &c, NULL), 2.25, 0);
    c = mcfg(KEPS_METRIC_AECS, 0.25, 0, 0, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 3, 1e-15);
    c.gs_factor = 0.75;
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 2.4, 1e-15);
    c = mcfg(KEPS_METRIC_DM, 0.5, 1, 0, NULL);
    assert_double_near(tiny_objective(&x, 1, 0, &c, NULL), 14, 0);
    tiny_free(&x);
}

/* What ARX does not offer is refused, with a reason. */
static void test_config_check(void **state)
{
    (void)state;
    keps_error err = {0};
    const double bad[2] = {1, -1}, inf[2] = {1, INFINITY}, ok[2] = {0, 0};
    struct {
        keps_metric_config c;
        keps_status want;
    } cases[] = {
        {mcfg(KEPS_METRIC_LOSS, 0.3, 0, KEPS_AGGREGATE_RANK, ok), KEPS_OK},
        {mcfg(KEPS_METRIC_LOSS, 0.5, 1, 0, NULL), KEPS_EINPUT},    /* no monotonic loss */
        {mcfg(KEPS_METRIC_AECS, 0.5, 1, 0, NULL), KEPS_EINPUT},    /* nor aecs */
        {mcfg(KEPS_METRIC_DM, 0.3, 0, 0, NULL), KEPS_EINPUT},      /* dm takes no gs-factor */
        {mcfg(KEPS_METRIC_HEIGHT, 0.3, 0, 0, NULL), KEPS_EINPUT},  /* nor height */
        {mcfg(KEPS_METRIC_DM, 0.5, 0, KEPS_AGGREGATE_SUM, NULL), KEPS_EINPUT}, /* nor an aggregate */
        {mcfg(KEPS_METRIC_AECS, 0.5, 0, 0, ok), KEPS_EINPUT},      /* nor weights */
        {mcfg(KEPS_METRIC_PREC, 1.5, 0, 0, NULL), KEPS_EINPUT},
        {mcfg(KEPS_METRIC_PREC, NAN, 0, 0, NULL), KEPS_EINPUT},
        {mcfg(KEPS_METRIC_PREC, 0.5, 0, 0, bad), KEPS_EINPUT},
        {mcfg(KEPS_METRIC_PREC, 0.5, 0, 0, inf), KEPS_EINPUT},
        {mcfg(KEPS_METRIC_HEIGHT, 0.5, 1, KEPS_AGGREGATE_MAX, ok), KEPS_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        err.msg[0] = 0;
        assert_int_equal(keps_metric_config_check(&cases[i].c, 2, &err), cases[i].want);
        assert_true((cases[i].want == KEPS_OK) == (err.msg[0] == 0));
    }
    keps_aggregate a;
    assert_int_equal(keps_aggregate_parse("rank", &a), 0);
    assert_int_equal(a, KEPS_AGGREGATE_RANK);
    assert_int_equal(keps_aggregate_parse("default", &a), -1);
    assert_string_equal(keps_aggregate_name(KEPS_AGGREGATE_GEOMETRIC), "geometric");
    keps_metric_config d = keps_metric_config_default(KEPS_METRIC_ENTROPY);
    assert_int_equal(keps_metric_config_aggregate(&d), KEPS_AGGREGATE_SUM);
}

/* A random quality model that ARX offers. */
static keps_metric_config random_config(keps_rng *rng, int q, double *w)
{
    static const double gs[] = {0, 0.1, 0.3, 0.5, 0.5, 0.66, 0.9, 1};
    keps_metric_config c = keps_metric_config_default((keps_metric)keps_rng_below(rng, KEPS_METRIC_COUNT));
    if (c.metric != KEPS_METRIC_DM && c.metric != KEPS_METRIC_HEIGHT)
        c.gs_factor = gs[keps_rng_below(rng, 8)];
    if (c.metric != KEPS_METRIC_LOSS && c.metric != KEPS_METRIC_AECS)
        c.monotonic = (int)keps_rng_bit(rng);
    if (c.metric != KEPS_METRIC_DM && c.metric != KEPS_METRIC_AECS) {
        c.aggregate = (keps_aggregate)keps_rng_below(rng, KEPS_AGGREGATE_COUNT);
        if (keps_rng_bit(rng)) {
            for (int i = 0; i < q; i++)
                w[i] = keps_rng_below(rng, 4) ? (double)keps_rng_below(rng, 11) / 10 : 0;
            c.weights = w;
        }
    }
    return c;
}

static void oracle_config(or_cfg *o, const keps_metric_config *c, int q)
{
    or_cfg_make(o, q, c->metric, c->gs_factor, c->monotonic, c->aggregate, c->weights);
}

static const double limit_share[] = {0, 0.05, 0.1, 0.2, 0.5, 1};

/* Every metric (ARX's defaults) and random variants at every node of random
 * tables equal the naive oracle, and each bound (with and without classes)
 * compares at most equal to the score of the node and of every node above
 * it that suppresses at most the limit. */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(41);
    int iters = getenv("KEPS_SANITIZED") ? 40 : 150;
    for (int it = 0; it < iters; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, 50);
        keps_metrics *m = keps_metrics_new(L);
        keps_lattice_work *w = keps_lattice_work_new(L);
        size_t k = 1 + keps_rng_below(rng, 5);
        size_t lim = (size_t)floor(limit_share[keps_rng_below(rng, 6)] * x.n + 1e-9);
        long nn = tg_nnodes(&x);
        or_classes *ocl = calloc((size_t)nn, sizeof *ocl);
        keps_node_classes *cls = calloc((size_t)nn, sizeof *cls);
        for (long id = 0; id < nn; id++) {
            int lv[TG_MAXQ];
            tg_levels(&x, id, lv);
            or_classes_at(&x, lv, k, &ocl[id]);
            keps_node_classes_init(&cls[id]);
            assert_int_equal(keps_lattice_rollup(L, w, NULL, lv, &cls[id], NULL), KEPS_OK);
            or_node on;
            or_eval(&x, lv, k, &on);
            keps_metric_values v;
            keps_metrics_all(m, lv, &cls[id], k, &v);
            for (int j = 0; j < KEPS_METRIC_COUNT; j++) {
                if (!or_close(v.v[j], on.v[j]))
                    fprintf(stderr, "%s: %.15g vs oracle %.15g\n", keps_metric_name(j), v.v[j], on.v[j]);
                assert_true(or_close(v.v[j], on.v[j]));
            }
        }
        for (int t = 0; t < 6; t++) {
            double raw[TG_MAXQ];
            keps_metric_config c = random_config(rng, x.q, raw);
            or_cfg oc;
            oracle_config(&oc, &c, x.q);
            keps_error err = {0};
            keps_metrics *mo = keps_metrics_new_objective(L, &c, &err);
            assert_non_null(mo);
            size_t len = keps_metrics_score_len(mo);
            double *sc = calloc((size_t)nn * TG_MAXQ, sizeof *sc), *bd = calloc((size_t)nn * 2 * TG_MAXQ, sizeof *bd);
            for (long id = 0; id < nn; id++) {
                int lv[TG_MAXQ];
                tg_levels(&x, id, lv);
                double want[TG_MAXQ];
                assert_int_equal(or_score(&x, lv, k, &ocl[id], &oc, want), (int)len);
                keps_metrics_objective(mo, lv, &cls[id], k, sc + id * TG_MAXQ);
                if (or_cmp_tol(sc + id * TG_MAXQ, want, (int)len) != 0)
                    fprintf(stderr, "%s gs %g mono %d agg %d: %.15g vs oracle %.15g\n", keps_metric_name(c.metric),
                            c.gs_factor, c.monotonic, c.aggregate, sc[id * TG_MAXQ], want[0]);
                assert_int_equal(or_cmp_tol(sc + id * TG_MAXQ, want, (int)len), 0);
                keps_metrics_objective_bound(mo, lv, NULL, k, lim, bd + id * 2 * TG_MAXQ);
                keps_metrics_objective_bound(mo, lv, &cls[id], k, lim, bd + (id * 2 + 1) * TG_MAXQ);
            }
            for (long a = 0; a < nn; a++)
                for (long b = 0; b < nn; b++) {
                    int la[TG_MAXQ], lb[TG_MAXQ], le = 1;
                    tg_levels(&x, a, la);
                    tg_levels(&x, b, lb);
                    for (int i = 0; i < x.q; i++)
                        le &= la[i] <= lb[i];
                    if (!le || ocl[b].S > lim)
                        continue;
                    for (int j = 0; j < 2; j++) /* exact: the search prunes on >= */
                        assert_true(keps_score_cmp(bd + (a * 2 + j) * TG_MAXQ, sc + b * TG_MAXQ, len) <= 0);
                }
            free(sc);
            free(bd);
            keps_metrics_free(mo);
        }
        for (long id = 0; id < nn; id++)
            keps_node_classes_free(&cls[id]);
        free(cls);
        free(ocl);
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
        cmocka_unit_test(test_tiny_variants), cmocka_unit_test(test_config_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
