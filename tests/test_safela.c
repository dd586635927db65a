/* epsilon-safe lattice anonymization (docs/spec.md 6): node scores, mechanism
 * probabilities and level interpolation on tiny lattices computed by hand;
 * the even-level scan against the full scan; row accounting and the
 * k-anonymity of the release on Adult. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "keps/csv.h"
#include "keps/expmech.h"
#include "keps/safela.h"

static keps_schema *schema_with(keps_table *t, const char *const *specs, size_t n)
{
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    for (size_t i = 0; i < n; i++) {
        if (keps_schema_add_qi(s, t, specs[i], &err))
            fail_msg("%s", err.msg);
    }
    s->others = KEPS_OTHERS_KEEP;
    return s;
}

/* Two QIs of height 1: a in {x,y} -> *, b in {p,q} -> *. Rows (x,p) (x,p)
 * (x,q) (y,p) (y,q) (y,q), k = 2, f = 1. Node id = la + 2 lb.
 *   (0,0): classes 2,1,1,2 -> S = 2/6, G = 0,   u = -1/3
 *   (1,0): (*,p)=3 (*,q)=3 -> S = 0,   G = 1/2, u = -1/2
 *   (0,1): (x,*)=3 (y,*)=3 -> S = 0,   G = 1/2, u = -1/2
 *   (1,1): one class of 6  -> S = 0,   G = 1,   u = -1
 * du = f k / n = 1/3; with eps' = 1 the weights are exp(u / (2/3)) =
 * exp(1.5 u): e^-0.5, e^-0.75, e^-0.75, e^-1.5, normalized. */
static void tiny_mechanism(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\nx,p\nx,p\nx,q\ny,p\ny,q\ny,q\n");
    const char *specs[2] = {"a:" , "b:"};
    char sa[512], sb[512];
    snprintf(sa, sizeof sa, "a:%s", temp_file("x;*\ny;*\n"));
    snprintf(sb, sizeof sb, "b:%s", temp_file("p;*\nq;*\n"));
    specs[0] = sa;
    specs[1] = sb;
    keps_schema *s = schema_with(t, specs, 2);
    keps_safela_scores sc;
    assert_int_equal(keps_safela_score(s, NULL, 2, 1.0, 0, 2, &sc, NULL), KEPS_OK);
    assert_int_equal(sc.nnodes, 4);
    assert_int_equal(sc.evaluated, 4);
    const double S[4] = {1.0 / 3, 0, 0, 0}, G[4] = {0, 0.5, 0.5, 1}, U[4] = {-1.0 / 3, -0.5, -0.5, -1};
    for (int i = 0; i < 4; i++) {
        assert_double_near(sc.supp[i], S[i], 1e-15);
        assert_double_near(sc.gen[i], G[i], 1e-15);
        assert_double_near(sc.u[i], U[i], 1e-15);
    }
    double p[4], w[4] = {exp(-0.5), exp(-0.75), exp(-0.75), exp(-1.5)}, z = w[0] + w[1] + w[2] + w[3];
    assert_int_equal(keps_expmech_probs(sc.u, 4, 1.0, 1.0 / 3, p), 0);
    for (int i = 0; i < 4; i++)
        assert_double_near(p[i], w[i] / z, 1e-12);
    /* good nodes: S < 0.15 and G < 0.6 -> (1,0) and (0,1) */
    assert_false(keps_safela_good(&sc, 0));
    assert_true(keps_safela_good(&sc, 1) && keps_safela_good(&sc, 2));
    assert_false(keps_safela_good(&sc, 3));
    keps_safela_scores_free(&sc);
    /* keep mask: rows 0..3 only: (x,p)(x,p)(x,q)(y,p): at (0,0) S = 2/4 */
    uint8_t keep[6] = {1, 1, 1, 1, 0, 0};
    assert_int_equal(keps_safela_score(s, keep, 2, 1.0, 0, 1, &sc, NULL), KEPS_OK);
    assert_int_equal(sc.rows, 4);
    assert_double_near(sc.supp[0], 0.5, 1e-15);
    /* (1,0): (*,p)=3 (*,q)=1 -> 1/4; (0,1): (x,*)=3 (y,*)=1 -> 1/4 */
    assert_double_near(sc.supp[1], 0.25, 1e-15);
    assert_double_near(sc.supp[2], 0.25, 1e-15);
    keps_safela_scores_free(&sc);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Heights (2,1): a: x1,x2 -> x, y1 -> y, then *; b: p,q -> *. Rows
 * (x1,p) (x1,p) (x2,p) (y1,q) (y1,q) (x2,q), k = 2, f = 1, id = la + 3 lb.
 * Exact S: (0,0) 2/6 [x2p, x2q alone]; (1,0) 1/6 [(x,q) alone]; (2,0) 0;
 * (0,1) 0; (1,1) 0; (2,1) 0. G = (la/2 + lb)/2. Exact u = -(G + S):
 * (0,0) -1/3, (1,0) -5/12, (2,0) -1/2, (0,1) -1/2, (1,1) -3/4, (2,1) -1.
 * Even nodes (0,0) (2,0) (1,1) keep theirs; odd nodes get neighbour means:
 *   (1,0): down (0,0), up (2,0) (1,1): (-1/3 - 1/2 - 3/4)/3 = -19/36,
 *          S = (1/3 + 0 + 0)/3 = 1/9
 *   (0,1): down (0,0), up (1,1): (-1/3 - 3/4)/2 = -13/24, S = 1/6
 *   (2,1): down (2,0) (1,1): (-1/2 - 3/4)/2 = -5/8, S = 0 */
static void tiny_interpolation(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\nx1,p\nx1,p\nx2,p\ny1,q\ny1,q\nx2,q\n");
    char sa[512], sb[512];
    snprintf(sa, sizeof sa, "a:%s", temp_file("x1;x;*\nx2;x;*\ny1;y;*\n"));
    snprintf(sb, sizeof sb, "b:%s", temp_file("p;*\nq;*\n"));
    const char *specs[2] = {sa, sb};
    keps_schema *s = schema_with(t, specs, 2);
    keps_safela_scores full, in;
    assert_int_equal(keps_safela_score(s, NULL, 2, 1.0, 0, 2, &full, NULL), KEPS_OK);
    const double U[6] = {-1.0 / 3, -5.0 / 12, -0.5, -0.5, -0.75, -1};
    for (int i = 0; i < 6; i++)
        assert_double_near(full.u[i], U[i], 1e-15);
    assert_int_equal(keps_safela_score(s, NULL, 2, 1.0, 1, 2, &in, NULL), KEPS_OK);
    assert_int_equal(in.evaluated, 3);
    const double UI[6] = {-1.0 / 3, -19.0 / 36, -0.5, -13.0 / 24, -0.75, -5.0 / 8};
    const double SI[6] = {1.0 / 3, 1.0 / 9, 0, 1.0 / 6, 0, 0};
    const uint8_t odd[6] = {0, 1, 0, 1, 0, 1};
    for (int i = 0; i < 6; i++) {
        assert_double_near(in.u[i], UI[i], 1e-15);
        assert_double_near(in.supp[i], SI[i], 1e-15);
        assert_int_equal(in.interpolated[i], odd[i]);
    }
    keps_safela_scores_free(&full);
    keps_safela_scores_free(&in);
    keps_schema_free(s);
    keps_table_free(t);
}

static keps_table *load_adult(void)
{
    keps_table *t;
    keps_error err = {0};
    if (keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err))
        fail_msg("%s", err.msg);
    return t;
}

static keps_schema *adult_schema(keps_table *t, size_t nqi)
{
    static const char *const q[] = {"sex", "age", "race", "marital-status", "education", "workclass"};
    char specs[6][600];
    const char *sp[6];
    for (size_t i = 0; i < nqi; i++) {
        char rel[200];
        snprintf(rel, sizeof rel, "data/adult/adult_hierarchy_%s.csv", q[i]);
        snprintf(specs[i], sizeof specs[i], "%s:%s", q[i], src_path(rel));
        sp[i] = specs[i];
    }
    return schema_with(t, sp, nqi);
}

/* The even-level scan must give exactly the full scan's S on every even
 * node (the full scan is checked against brute force in test_lattice). */
static void even_scan_matches_full(void **state)
{
    (void)state;
    keps_table *t = load_adult();
    keps_schema *s = adult_schema(t, 6);
    keps_safela_scores full, in;
    assert_int_equal(keps_safela_score(s, NULL, 10, 0.5, 0, 2, &full, NULL), KEPS_OK);
    assert_int_equal(keps_safela_score(s, NULL, 10, 0.5, 1, 2, &in, NULL), KEPS_OK);
    uint64_t even = 0;
    for (uint64_t id = 0; id < full.nnodes; id++)
        if (!in.interpolated[id]) {
            even++;
            assert_double_near(in.supp[id], full.supp[id], 0);
            assert_double_near(in.u[id], full.u[id], 0);
        }
    assert_int_equal(in.evaluated, even);
    /* 2*5*2*3*4*3 = 720 nodes; level sums split them evenly (a factor of
     * height 1, sex, pairs every node with one of the other parity) */
    assert_int_equal(full.nnodes, 720);
    assert_int_equal(even, 360);
    keps_safela_scores_free(&full);
    keps_safela_scores_free(&in);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Accounting and k-anonymity of the release: input = output + removed +
 * unsampled; the sample size is Binomial(30162, 0.7) (mean 21113.4, sd
 * 79.6: the +-600 window is 7.5 sd, failure odds < 1e-13 for any seed);
 * suppressed rows are removed (none is starred) and every released tuple,
 * the 4 QIs and the kept columns together, is shared by >= k rows. */
static void accounting(void **state)
{
    (void)state;
    keps_table *t = load_adult();
    keps_schema *s = adult_schema(t, 4);
    keps_rng *rng = keps_rng_new_seeded(11);
    keps_safela_params p = {.k = 20, .beta = "0.7", .epsilon_prime = 0.5, .epsilon = NAN, .penalty = 2.0};
    keps_safela_result r;
    keps_error err = {0};
    assert_int_equal(keps_safela_run(s, &p, rng, &r, &err), KEPS_OK);
    assert_int_equal(r.counts.input_rows, t->nrows);
    assert_int_equal(r.counts.input_rows, r.counts.output_rows + r.counts.removed_rows + r.counts.unsampled_rows);
    assert_int_equal(r.sample_size, r.counts.input_rows - r.counts.unsampled_rows);
    assert_in_range(r.sample_size, 21113 - 600, 21113 + 600);
    assert_int_equal(r.counts.removed_rows, r.counts.suppressed_rows);
    /* eps' - ln(1 - beta), rounded up */
    assert_double_near(r.epsilon, 0.5 - log(0.3), 1e-12);
    assert_true(r.epsilon >= 0.5 - log(0.3));
    const keps_table *rel = r.release;
    size_t ncols = rel->ncols;
    int top = 1; /* at the top node every QI is '*' */
    for (size_t c = 0; c < 4; c++)
        top = top && r.levels[c] == s->qi[c].height;
    for (size_t i = 0; i < rel->nrows; i++) {
        int star = !top;
        for (size_t c = 0; c < 4 && star; c++)
            star = strcmp(keps_table_str(rel, c, i), "*") == 0;
        assert_false(star); /* no starred (suppressed) row below the top */
        size_t same = 0;
        for (size_t j = 0; j < rel->nrows && same < 20; j++) {
            int eq = 1;
            for (size_t c = 0; c < ncols && eq; c++)
                eq = rel->cols[c].codes[i] == rel->cols[c].codes[j];
            same += eq;
        }
        assert_true(same >= 20);
    }
    keps_safela_result_free(&r);
    keps_rng_free(rng);
    keps_schema_free(s);
    keps_table_free(t);
}

/* docs/spec.md 6's du = f k / n assumes the sample size fixed, but a neighbour
 * adds a record to the sample. X = 20 distinct values v0..v19 (hierarchy
 * v_i -> *), X' = X plus a second v0; k = 2, f = 0.1, eps' = 1.
 *   X  (n = 20): bottom S = 1 (all singletons), u = -0.1; top u = -1.
 *      du = 0.1*2/20 = 0.01, exponents u/(2 du): -5 and -50.
 *   X' (n = 21): bottom S = 19/21, u = -0.1*19/21; top u = -1.
 *      du = 0.2/21, exponents 52.5 u: -4.75 and -52.5.
 * Pr[top]: e^-50/(e^-5 + e^-50) vs e^-52.5/(e^-4.75 + e^-52.5), a log
 * ratio of 2.5 + 0.25 = 2.75 (up to e^-45 terms): more than eps' = 1. The
 * bound eps' (k + 1/f)/(2k) = (2 + 10)/4 = 3 covers it, and keps_safela_run
 * states that, with epsilon = 3 - ln(1 - beta). */
static void small_penalty_accounting(void **state)
{
    (void)state;
    char csv[1024] = "a\n", hier[1024] = "", spec[600];
    for (int i = 0; i < 20; i++) {
        char b[32];
        snprintf(b, sizeof b, "v%d\n", i);
        strcat(csv, b);
        snprintf(b, sizeof b, "v%d;*\n", i);
        strcat(hier, b);
    }
    strcat(csv, "v0\n");
    keps_table *t = table_from_csv(csv);
    snprintf(spec, sizeof spec, "a:%s", temp_file(hier));
    const char *specs[1] = {spec};
    keps_schema *s = schema_with(t, specs, 1);
    uint8_t keep[21];
    memset(keep, 1, sizeof keep);
    keep[20] = 0;
    keps_safela_scores A, B;
    assert_int_equal(keps_safela_score(s, keep, 2, 0.1, 0, 1, &A, NULL), KEPS_OK);
    keep[20] = 1;
    assert_int_equal(keps_safela_score(s, keep, 2, 0.1, 0, 1, &B, NULL), KEPS_OK);
    double pa[2], pb[2];
    assert_int_equal(keps_expmech_probs(A.u, 2, 1.0, 0.1 * 2 / 20.0, pa), 0);
    assert_int_equal(keps_expmech_probs(B.u, 2, 1.0, 0.1 * 2 / 21.0, pb), 0);
    double loss = fmax(fabs(log(pa[0] / pb[0])), fabs(log(pa[1] / pb[1])));
    assert_double_near(loss, 2.75, 1e-9);
    keps_safela_scores_free(&A);
    keps_safela_scores_free(&B);
    keps_safela_params p = {.k = 2, .beta = "1/2", .epsilon_prime = 1.0, .epsilon = NAN, .penalty = 0.1};
    keps_safela_result r;
    keps_rng *rng = keps_rng_new_seeded(4);
    assert_int_equal(keps_safela_run(s, &p, rng, &r, NULL), KEPS_OK);
    assert_double_near(r.epsilon_prime_effective, 3.0, 1e-15);
    assert_double_near(r.epsilon, 3.0 + log(2.0), 1e-12);
    keps_safela_result_free(&r);
    /* f >= 1/k: docs/spec.md's eps' stands */
    p.penalty = 0.5;
    assert_int_equal(keps_safela_run(s, &p, rng, &r, NULL), KEPS_OK);
    assert_double_near(r.epsilon_prime_effective, 1.0, 0);
    keps_safela_result_free(&r);
    keps_rng_free(rng);
    keps_schema_free(s);
    keps_table_free(t);
}

/* The stated guarantee and good_node_probability of keps_safela_run, by
 * hand. Every row is (x,p), hierarchies x -> *, p -> *: whatever the sample
 * (n rows, n >= k), each node has one class of n rows, so S = 0 and u = -G
 * with G = 0, 1/2, 1/2, 1 (node id = la + 2 lb). du = f k/n, so the weights
 * are exp(eps' u n/(2 f k)) = exp(-G c), c = eps' n/(2 f k); the good nodes
 * (S < 0.15, G < 0.6) are the first three:
 *   P(good) = (1 + 2 e^(-c/2)) / (1 + 2 e^(-c/2) + e^(-c)).
 * Level interpolation gives the odd nodes (1,0), (0,1) the mean of (0,0) and
 * (1,1), -1/2: their real u, so the same P(good).
 * Case 1, the thesis's parameters (5.1.2-5.1.3): k = 75, beta = 0.7, eps' = 0.5,
 * f = 2 on 200 rows: eps = eps' - ln(1 - beta) = 0.5 + ln(10/3) = 1.7039728 (the
 * thesis: "~ 1.70", Table 5.6: 1.704) and delta = d(75, 0.7) = 2.5279e-6
 * (Table 5.5: 2.53e-6; test_safela_delta.c). n ~ Bin(200, 0.7): n >= 75 fails
 * with probability < 1e-40.
 * Case 2: k = 2, beta = 1/2, eps' = 1, f = 1: eps = 1 + ln 2, delta = 5/16
 * (test_safela_delta.c, hand_case). */
static void guarantee_and_good_nodes(void **state)
{
    (void)state;
    char buf[200 * 4 + 8] = "a,b\n";
    for (int i = 0; i < 200; i++)
        strcat(buf, "x,p\n");
    keps_table *t = table_from_csv(buf);
    char sa[512], sb[512];
    snprintf(sa, sizeof sa, "a:%s", temp_file("x;*\n"));
    snprintf(sb, sizeof sb, "b:%s", temp_file("p;*\n"));
    const char *specs[2] = {sa, sb};
    keps_schema *s = schema_with(t, specs, 2);
    keps_rng *rng = keps_rng_new_seeded(5);
    const struct {
        size_t k;
        const char *beta;
        double eps_prime, penalty, epsilon, delta;
    } c[] = {
        {75, "0.7", 0.5, 2.0, 0.5 + log(10.0 / 3.0), 2.5279e-6},
        {2, "1/2", 1.0, 1.0, 1.0 + log(2.0), 5.0 / 16},
    };
    for (size_t i = 0; i < 2; i++)
        for (int interp = 0; interp <= 1; interp++) {
            keps_safela_params p = {.k = c[i].k, .beta = c[i].beta, .epsilon_prime = c[i].eps_prime,
                                    .epsilon = NAN, .penalty = c[i].penalty, .interpolate = interp};
            keps_safela_result r;
            keps_error err = {0};
            assert_int_equal(keps_safela_run(s, &p, rng, &r, &err), KEPS_OK);
            assert_true(r.sample_size >= c[i].k);
            assert_double_near(r.epsilon, c[i].epsilon, 1e-12);
            assert_double_near(r.delta.delta, c[i].delta, c[i].delta * (i == 0 ? 1e-4 : 1e-12));
            assert_double_near(r.epsilon_prime_effective, c[i].eps_prime, 0);
            double cc = c[i].eps_prime * (double)r.sample_size / (2 * c[i].penalty * (double)c[i].k);
            double good = 1 + 2 * exp(-cc / 2), want = good / (good + exp(-cc));
            assert_double_near(r.good_node_probability, want, 1e-12);
            keps_safela_result_free(&r);
        }
    keps_rng_free(rng);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiny_mechanism),
        cmocka_unit_test(tiny_interpolation),
        cmocka_unit_test(even_scan_matches_full),
        cmocka_unit_test(accounting),
        cmocka_unit_test(small_penalty_accounting),
        cmocka_unit_test(guarantee_and_good_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
