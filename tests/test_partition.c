/* Partitions (keps/partition.h) and the criteria's figures on them, against
 * hand computations (comments), Li et al. 2007's worked example and
 * brute force on random tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "keps/partition.h"
#include "keps/rng.h"

#define TOL 1e-12

/* QIs age, zip; sensitive disease (text) and salary (numbers).
 *   class A = rows 1-3  ([20-30[, 476**): disease flu flu cancer,     salary 3 4 5
 *   class B = rows 4-7  ([30-40[, 4790*): flu gastritis cancer gastr., salary 6 11 8 7
 *   class C = rows 8-9  ([40-50[, 476**): cancer cancer,              salary 9 10
 *   row 10 suppressed   (*, *):           flu,                        salary 3 */
static const char *RELEASE = "age,zip,disease,salary\n"
                             "[20-30[,476**,flu,3\n"
                             "[20-30[,476**,flu,4\n"
                             "[20-30[,476**,cancer,5\n"
                             "[30-40[,4790*,flu,6\n"
                             "[30-40[,4790*,gastritis,11\n"
                             "[30-40[,4790*,cancer,8\n"
                             "[30-40[,4790*,gastritis,7\n"
                             "[40-50[,476**,cancer,9\n"
                             "[40-50[,476**,cancer,10\n"
                             "*,*,flu,3\n";

static const size_t QI[] = {0, 1};

/* figures of criterion i for every class of p */
static void figures(const keps_criteria *k, size_t i, const keps_partition *p, double *out)
{
    const uint32_t *vb[4], *cb[4];
    uint32_t nb[4];
    for (size_t c = 0; c < p->nclasses; c++) {
        keps_class_view v;
        keps_partition_view(p, c, vb, cb, nb, &v);
        out[c] = keps_criterion_figure(k, i, &v);
    }
}

/* The last row (every QI '*') left out: classes A=0, B=1, C=2 of sizes 3,
 * 4, 2. Whole table (10 rows, the suppressed one included): disease flu 4,
 * cancer 4, gastritis 2 -> Q = (.4, .4, .2); salary 3..11, m = 9, Q = (.2
 * for 3, .1 each else).
 * disease: distinct A 2, B 3, C 1; exp(H) A 3/2^(2/3) = 1.889882, B 2^1.5,
 *   C 1; equal EMD A (4/15 + 1/15 + 1/5)/2 = 4/15, B (.15 + .15 + .3)/2 =
 *   .3, C (.4 + .6 + .2)/2 = .6.
 * salary (ordered, 1/8 sum of |cumulative p - q| over 3..11):
 *   A {3,4,5}: 4/30, 11/30, 18/30, 15/30, ..., 3/30 -> 2.6/8 = 0.325
 *   B {6,7,8,11}: -.2, -.3, -.4, -.25, -.1, .05, -.05, -.15 -> 1.5/8 = 0.1875
 *   C {9,10}: -.2, -.3, -.4, -.5, -.6, -.7, -.3, .1 -> 3.1/8 = 0.3875
 *   as nominal: A (2/15 + 7/30 x2 + .1 x6)/2 = 0.6, B 0.6, C 0.8 */
static void test_release_figures(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(RELEASE);
    uint8_t skip[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    keps_sensitive_spec sp[3] = {{2, KEPS_SENSITIVE_AUTO, NULL}, {3, KEPS_SENSITIVE_AUTO, NULL},
                                 {3, KEPS_SENSITIVE_NOMINAL, NULL}};
    keps_criterion c[7] = {{KEPS_CRIT_DISTINCT_L, 0, {1, 0}, 0},  {KEPS_CRIT_ENTROPY_L, 0, {1, 0}, 0},
                           {KEPS_CRIT_T_CLOSENESS, 0, {1, 0}, 0}, {KEPS_CRIT_T_CLOSENESS, 1, {1, 0}, 0},
                           {KEPS_CRIT_T_CLOSENESS, 2, {1, 0}, 0}, {KEPS_CRIT_DISTINCT_L, 1, {1, 0}, 0},
                           {KEPS_CRIT_K_ANONYMITY, 0, {3, 0}, 0}};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, sp, 3, c, 7, NULL, &k, &err), KEPS_OK);
    keps_partition p;
    assert_int_equal(keps_partition_from_columns(t, QI, 2, skip, k, &p, &err), KEPS_OK);
    assert_int_equal(p.nclasses, 3);
    assert_int_equal(p.count[0], 3);
    assert_int_equal(p.count[1], 4);
    assert_int_equal(p.count[2], 2);
    assert_int_equal(p.class_of[9], KEPS_NONE);
    assert_int_equal(p.first_row[1], 3);
    double f[3];
    figures(k, 0, &p, f);
    assert_double_near(f[0], 2, 0), assert_double_near(f[1], 3, 0), assert_double_near(f[2], 1, 0);
    figures(k, 1, &p, f);
    assert_double_near(f[0], 3 / pow(2, 2.0 / 3), TOL);
    assert_double_near(f[1], pow(2, 1.5), TOL);
    assert_double_near(f[2], 1, TOL);
    figures(k, 2, &p, f);
    assert_double_near(f[0], 4.0 / 15, TOL), assert_double_near(f[1], 0.3, TOL), assert_double_near(f[2], 0.6, TOL);
    assert_int_equal(keps_criteria_sensitive_type(k, 1), KEPS_SENSITIVE_ORDERED);
    figures(k, 3, &p, f);
    assert_double_near(f[0], 0.325, TOL), assert_double_near(f[1], 0.1875, TOL);
    assert_double_near(f[2], 0.3875, TOL);
    figures(k, 4, &p, f);
    assert_double_near(f[0], 0.6, TOL), assert_double_near(f[1], 0.6, TOL), assert_double_near(f[2], 0.8, TOL);
    figures(k, 5, &p, f); /* numbers, not spellings: A 3, B 4, C 2 */
    assert_double_near(f[0], 3, 0), assert_double_near(f[2], 2, 0);
    /* enforcement: k = 3 suppresses C (2 rows); distinct 1 and t = 1 hold */
    keps_enforce_stats st;
    assert_int_equal(keps_partition_enforce(&p, k, 0, &st, &err), KEPS_OK);
    assert_int_equal(st.rows, 2);
    assert_int_equal(st.classes, 1);
    assert_true(p.suppressed[2] && !p.suppressed[0] && !p.suppressed[1]);
    keps_partition_free(&p);
    keps_criteria_free(k);
    keps_table_free(t);
}

/* Missing cells of a numeric column: left out of the ordered EMD, a value
 * of their own for l-diversity. Values 1, 2, 3 (Q = 1/3 each), 2 missing.
 *   A {1, ?}: P = (1, 0, 0): cumulative 2/3, 1/3, 0 -> 1/2 = 0.5
 *   B {2, 3}: (0, .5, .5): -1/3, -1/6 -> 0.25
 *   C {?}: no distribution: 0. Distinct A 2, B 2, C 1. */
static void test_missing_ordered(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q,s\na,1\na,\nb,2\nb,3\nc,\n");
    size_t qi = 0;
    keps_sensitive_spec sp = {1, KEPS_SENSITIVE_AUTO, NULL};
    keps_criterion c[2] = {{KEPS_CRIT_T_CLOSENESS, 0, {1, 0}, 0}, {KEPS_CRIT_DISTINCT_L, 0, {1, 0}, 0}};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, &sp, 1, c, 2, NULL, &k, &err), KEPS_OK);
    assert_int_equal(keps_criteria_sensitive_type(k, 0), KEPS_SENSITIVE_ORDERED);
    assert_int_equal(keps_criteria_nvalues(k, 0), 4); /* 1, 2, 3 and the missing token */
    keps_partition p;
    assert_int_equal(keps_partition_from_columns(t, &qi, 1, NULL, k, &p, &err), KEPS_OK);
    double f[3];
    figures(k, 0, &p, f);
    assert_double_near(f[0], 0.5, TOL), assert_double_near(f[1], 0.25, TOL), assert_double_near(f[2], 0, TOL);
    figures(k, 1, &p, f);
    assert_double_near(f[0], 2, 0), assert_double_near(f[1], 2, 0), assert_double_near(f[2], 1, 0);
    keps_partition_free(&p);
    keps_criteria_free(k);
    keps_table_free(t);
}

/* Li, Li, Venkatasubramanian 2007, section 4: salaries 3k..11k uniform, P1
 * = {3k, 4k, 5k} -> 0.375, P2 = {6k, 8k, 11k} -> 1/6 (ordered); P1 under the
 * equal distance: (6/9 + 6/9)/2 = 2/3. Classes P1, P2, and the rest {7k,
 * 9k, 10k}. */
static void test_li_example(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("c,s\n1,3\n1,4\n1,5\n2,6\n2,8\n2,11\n3,7\n3,9\n3,10\n");
    size_t qi = 0;
    keps_sensitive_spec sp[2] = {{1, KEPS_SENSITIVE_ORDERED, NULL}, {1, KEPS_SENSITIVE_NOMINAL, NULL}};
    keps_criterion c[2] = {{KEPS_CRIT_T_CLOSENESS, 0, {1, 0}, 0}, {KEPS_CRIT_T_CLOSENESS, 1, {1, 0}, 0}};
    keps_criteria *k = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, sp, 2, c, 2, NULL, &k, &err), KEPS_OK);
    keps_partition p;
    assert_int_equal(keps_partition_from_columns(t, &qi, 1, NULL, k, &p, &err), KEPS_OK);
    double f[3];
    figures(k, 0, &p, f);
    assert_double_near(f[0], 0.375, TOL), assert_double_near(f[1], 1.0 / 6, TOL);
    figures(k, 1, &p, f);
    assert_double_near(f[0], 2.0 / 3, TOL);
    keps_partition_free(&p);
    keps_criteria_free(k);
    keps_table_free(t);
}

/* A lattice node's partition equals the partition of its release by the
 * released values; a research subset counts released rows in count and all
 * rows in pcount; apply releases the subset only. Rows: a 1, 1, 2, 3; the
 * hierarchy 1, 2 -> A, 3 -> B. Subset rows 0 and 3. Node 1: classes A (3
 * rows, 1 released) and B (1 row, released). */
static void test_node_subset_apply(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,s\n1,x\n1,y\n2,x\n3,y\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    const char *h = temp_file("1;A;*\n2;A;*\n3;B;*\n");
    char spec[512];
    snprintf(spec, sizeof spec, "a:%s", h);
    assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    s->others = KEPS_OTHERS_KEEP;
    uint8_t sub[4] = {1, 0, 0, 1};
    keps_criterion c = {KEPS_CRIT_DELTA_PRESENCE, 0, {0, 0.5}, 0};
    keps_criteria *k = NULL;
    assert_int_equal(keps_criteria_new(t, NULL, 0, &c, 1, sub, &k, &err), KEPS_OK);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new_ex(s, sub, NULL, NULL, 0, &L, &err), KEPS_OK);
    assert_int_equal(L->nreleased, 2);
    int lv = 1;
    keps_partition p;
    assert_int_equal(keps_partition_from_node(L, &lv, k, &p, &err), KEPS_OK);
    assert_int_equal(p.nclasses, 2);
    assert_int_equal(p.count[0], 1), assert_int_equal(p.pcount[0], 3);
    assert_int_equal(p.count[1], 1), assert_int_equal(p.pcount[1], 1);
    /* delta-presence [0, .5]: A 1/3 holds, B 1/1 fails */
    keps_enforce_stats st;
    assert_int_equal(keps_partition_enforce(&p, k, 0, &st, &err), KEPS_OK);
    assert_int_equal(st.rows, 1);
    assert_true(!p.suppressed[0] && p.suppressed[1]);
    keps_table *rel = NULL;
    keps_counts n;
    assert_int_equal(keps_lattice_apply(L, &lv, &p, 0, &rel, &n, &err), KEPS_OK);
    assert_int_equal(n.input_rows, 4), assert_int_equal(n.unsampled_rows, 2);
    assert_int_equal(n.suppressed_rows, 1), assert_int_equal(n.output_rows, 2);
    const char *want[] = {"A", "x", "*", "y"};
    assert_table_cells(rel, 2, 2, want);
    keps_table_free(rel);
    keps_partition_free(&p);
    keps_lattice_free(L);
    keps_criteria_free(k);
    keps_schema_free(s);
    keps_table_free(t);
}

/* MDAV and Mondrian as partition sources. MDAV at k = 2 on the points 0,
 * 1, 10, 11 (one attribute): the farthest from the mean 5.5 is 0 (ties go
 * to the first), grouped with its nearest 1; 10 and 11 are the rest: groups
 * {0, 1}, {10, 11}, two rows each. Mondrian at k = 2 on the same column as
 * a numeric QI cuts at the median into the same two halves. With l = 2
 * distinct diversity of s (x, y, x, x), the second class (x, x) fails. */
static void test_method_sources(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,s\n0,x\n1,y\n10,x\n11,x\n");
    keps_error err = {0};
    keps_sensitive_spec sp = {1, KEPS_SENSITIVE_NOMINAL, NULL};
    keps_criterion c = {KEPS_CRIT_DISTINCT_L, 0, {2, 0}, 0};
    keps_criteria *k = NULL;
    assert_int_equal(keps_criteria_new(t, &sp, 1, &c, 1, NULL, &k, &err), KEPS_OK);
    double x[4] = {0, 1, 10, 11};
    keps_mdav_result m;
    assert_int_equal(keps_mdav(x, 4, 1, 2, &m, &err), KEPS_OK);
    keps_partition p;
    assert_int_equal(keps_partition_from_mdav(t, &m, k, &p, &err), KEPS_OK);
    assert_int_equal(p.nclasses, 2);
    assert_int_equal(p.class_of[0], p.class_of[1]);
    assert_int_equal(p.class_of[2], p.class_of[3]);
    assert_true(p.class_of[0] != p.class_of[2]);
    assert_int_equal(p.count[0], 2), assert_int_equal(p.count[1], 2);
    assert_int_equal(keps_partition_enforce(&p, k, 0, NULL, &err), KEPS_OK);
    assert_int_equal(p.suppressed_rows, 2);
    assert_true(!p.suppressed[p.class_of[0]] && p.suppressed[p.class_of[2]]);
    keps_partition_free(&p);
    m.n = 3; /* a result of another table */
    assert_int_equal(keps_partition_from_mdav(t, &m, NULL, &p, &err), KEPS_EINPUT);
    m.n = 4;
    keps_mdav_result_free(&m);

    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi(s, t, "a", &err), KEPS_OK);
    keps_mondrian_result mr;
    assert_int_equal(keps_mondrian(s, t, 2, &mr, &err), KEPS_OK);
    assert_int_equal(keps_partition_from_mondrian(t, &mr, NULL, &p, &err), KEPS_OK);
    assert_int_equal(p.nclasses, 2);
    assert_int_equal(p.class_of[0], p.class_of[1]);
    assert_int_equal(p.class_of[2], p.class_of[3]);
    assert_true(p.class_of[0] != p.class_of[2]);
    assert_int_equal(keps_partition_enforce(&p, NULL, 2, NULL, &err), KEPS_OK);
    assert_int_equal(p.suppressed_rows, 0);
    keps_partition_free(&p);
    keps_mondrian_result_free(&mr);
    keps_schema_free(s);
    keps_criteria_free(k);
    keps_table_free(t);
}

/* A release read back: rows 3 and 5 are '*' in both QIs, row 4 only in
 * one. Excluded: classes {0, 2} (a,x), {1} (b,x), {3} (*,x); rows 4 and 5
 * in none, 2 star rows. As a class: the same plus {4, 5}. When every row is
 * '*', one class in either mode. */
static void test_release_source(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("q,r\na,x\nb,x\na,x\n*,x\n*,*\n*,*\n");
    const size_t cols[] = {0, 1};
    keps_error err = {0};
    keps_partition p;
    size_t star = 99;
    assert_int_equal(keps_partition_from_release(t, cols, 2, KEPS_SUPPRESSED_EXCLUDE, NULL, &p, &star, &err), KEPS_OK);
    assert_int_equal(star, 2);
    assert_int_equal(p.nclasses, 3);
    assert_int_equal(p.class_of[0], p.class_of[2]);
    assert_int_equal(p.count[p.class_of[0]], 2);
    assert_int_equal(p.class_of[4], KEPS_NONE), assert_int_equal(p.class_of[5], KEPS_NONE);
    keps_partition_free(&p);
    assert_int_equal(keps_partition_from_release(t, cols, 2, KEPS_SUPPRESSED_CLASS, NULL, &p, &star, &err), KEPS_OK);
    assert_int_equal(p.nclasses, 4);
    assert_int_equal(p.class_of[4], p.class_of[5]);
    assert_int_equal(p.count[p.class_of[4]], 2);
    keps_partition_free(&p);
    assert_int_equal(keps_partition_from_release(t, cols, 2, (keps_suppressed_mode)7, NULL, &p, &star, &err),
                     KEPS_EINPUT);
    keps_table_free(t);
    t = table_from_csv("q,r\n*,*\n*,*\n");
    assert_int_equal(keps_partition_from_release(t, cols, 2, KEPS_SUPPRESSED_EXCLUDE, NULL, &p, &star, &err), KEPS_OK);
    assert_int_equal(star, 2);
    assert_int_equal(p.nclasses, 1);
    assert_int_equal(p.count[0], 2);
    keps_partition_free(&p);
    keps_table_free(t);
}

/* Population counts of a release: the release's classes (level 1: A, B)
 * counted in a population of 5 rows (1, 1, 2, 3, 3): A 3, B 2. */
static void test_population(void **state)
{
    (void)state;
    keps_table *rel = table_from_csv("a,s\nA,x\nA,y\nB,y\n");
    keps_table *pop = table_from_csv("a,s\n1,x\n1,y\n2,x\n3,y\n3,x\n");
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    const char *txt = "1;A;*\n2;A;*\n3;B;*\n";
    assert_int_equal(keps_hierarchy_load_buffer(txt, strlen(txt), "h.csv", ';', &h, &err), KEPS_OK);
    size_t col = 0;
    keps_partition p;
    assert_int_equal(keps_partition_from_columns(rel, &col, 1, NULL, NULL, &p, &err), KEPS_OK);
    const keps_hierarchy *hh = h;
    assert_int_equal(keps_partition_population(&p, rel, &col, pop, &col, &hh, 1, &err), KEPS_OK);
    assert_int_equal(p.pcount[0], 3);
    assert_int_equal(p.pcount[1], 2);
    keps_partition_free(&p);
    /* a release mixing levels (a leaf beside a level-1 label) is refused */
    keps_table *mixed = table_from_csv("a,s\nA,x\n3,y\n");
    assert_int_equal(keps_partition_from_columns(mixed, &col, 1, NULL, NULL, &p, &err), KEPS_OK);
    assert_int_equal(keps_partition_population(&p, mixed, &col, pop, &col, &hh, 1, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "one level"));
    keps_partition_free(&p);
    keps_table_free(mixed);
    keps_hierarchy_free(h);
    keps_table_free(rel);
    keps_table_free(pop);
}

/* Random tables: classes against pairwise comparison of the QI strings,
 * counts and histograms against direct counting. */
static void test_random_classes(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(7);
    for (int round = 0; round < 20; round++) {
        size_t n = 20 + keps_rng_below(rng, 200);
        char *csv = malloc(64 + n * 32), *o = csv;
        o += sprintf(o, "a,b,s\n");
        int da = 1 + (int)keps_rng_below(rng, 5), db = 1 + (int)keps_rng_below(rng, 4),
            ds = 1 + (int)keps_rng_below(rng, 6);
        for (size_t r = 0; r < n; r++)
            o += sprintf(o, "%d,x%d,v%d\n", (int)keps_rng_below(rng, (uint64_t)da), (int)keps_rng_below(rng, (uint64_t)db),
                         (int)keps_rng_below(rng, (uint64_t)ds));
        keps_table *t = table_from_csv(csv);
        free(csv);
        keps_sensitive_spec sp = {2, KEPS_SENSITIVE_NOMINAL, NULL};
        keps_criterion c = {KEPS_CRIT_DISTINCT_L, 0, {1, 0}, 0};
        keps_criteria *k = NULL;
        keps_error err = {0};
        assert_int_equal(keps_criteria_new(t, &sp, 1, &c, 1, NULL, &k, &err), KEPS_OK);
        keps_partition p;
        size_t qi[2] = {0, 1};
        assert_int_equal(keps_partition_from_columns(t, qi, 2, NULL, k, &p, &err), KEPS_OK);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++) {
                int eq = !strcmp(keps_table_str(t, 0, i), keps_table_str(t, 0, j)) &&
                         !strcmp(keps_table_str(t, 1, i), keps_table_str(t, 1, j));
                assert_int_equal(p.class_of[i] == p.class_of[j], eq);
            }
        for (size_t x = 0; x < p.nclasses; x++) {
            uint32_t cnt = 0, first = KEPS_NONE;
            for (size_t r = 0; r < n; r++)
                if (p.class_of[r] == x) {
                    cnt++;
                    if (first == KEPS_NONE)
                        first = (uint32_t)r;
                }
            assert_int_equal(p.count[x], cnt);
            assert_int_equal(p.first_row[x], first);
            const keps_class_hist *h = &p.hist[0];
            uint32_t tot = 0;
            for (uint32_t e = h->off[x]; e < h->off[x + 1]; e++) {
                uint32_t want = 0;
                for (size_t r = 0; r < n; r++)
                    want += p.class_of[r] == x && t->cols[2].codes[r] == h->val[e];
                assert_int_equal(h->cnt[e], want);
                assert_true(e == h->off[x] || h->val[e] > h->val[e - 1]);
                tot += h->cnt[e];
            }
            assert_int_equal(tot, cnt);
        }
        keps_partition_free(&p);
        keps_criteria_free(k);
        keps_table_free(t);
    }
    keps_rng_free(rng);
}

/* Histograms rolled up through the lattice (dense sums for few values,
 * sorted lists for many: 6 and 100 values) against direct counting, for
 * every node of a two-QI lattice, from the bottom (the node's partition)
 * and from each node below it (sizes first, histograms added after). */
static void test_rollup_histograms(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(3);
    const char *ha = temp_file("0;0;*\n1;0;*\n2;1;*\n3;1;*\n4;2;*\n5;2;*\n6;3;*\n7;3;*\n");
    const char *hb = temp_file("0;0;*\n1;1;*\n2;2;*\n3;0;*\n4;1;*\n5;2;*\n");
    for (int round = 0; round < 6; round++) {
        size_t n = 50 + keps_rng_below(rng, 400), ds = round % 2 ? 100 : 6;
        char *csv = malloc(64 + n * 32), *o = csv;
        o += sprintf(o, "a,b,s\n");
        for (size_t r = 0; r < n; r++)
            o += sprintf(o, "%d,%d,v%d\n", (int)keps_rng_below(rng, 8), (int)keps_rng_below(rng, 6),
                         (int)keps_rng_below(rng, (uint64_t)ds));
        keps_table *t = table_from_csv(csv);
        free(csv);
        keps_schema *sch = keps_schema_new(t);
        keps_error err = {0};
        char spec[512];
        snprintf(spec, sizeof spec, "a:%s", ha);
        assert_int_equal(keps_schema_add_qi(sch, t, spec, &err), KEPS_OK);
        snprintf(spec, sizeof spec, "b:%s", hb);
        assert_int_equal(keps_schema_add_qi(sch, t, spec, &err), KEPS_OK);
        keps_sensitive_spec sp = {2, KEPS_SENSITIVE_NOMINAL, NULL};
        keps_criterion c = {KEPS_CRIT_DISTINCT_L, 0, {1, 0}, 0};
        keps_criteria *k = NULL;
        assert_int_equal(keps_criteria_new(t, &sp, 1, &c, 1, NULL, &k, &err), KEPS_OK);
        size_t m = keps_criteria_nvalues(k, 0);
        uint32_t *codes = malloc(n * sizeof *codes);
        for (size_t r = 0; r < n; r++)
            codes[r] = keps_criteria_value(k, 0, t->cols[2].codes[r]);
        const uint32_t *cp[1] = {codes};
        keps_lattice *L = NULL;
        assert_int_equal(keps_lattice_new_ex(sch, NULL, cp, &m, 1, &L, &err), KEPS_OK);
        keps_lattice_work *w = keps_lattice_work_new(L);
        assert_non_null(w);
        for (int la = 0; la <= 2; la++)
            for (int lb = 0; lb <= 2; lb++) {
                int lv[2] = {la, lb};
                keps_partition p;
                assert_int_equal(keps_partition_from_node(L, lv, k, &p, &err), KEPS_OK);
                /* direct: rows in a class share their generalized values */
                for (size_t x = 0; x < p.nclasses; x++) {
                    uint32_t *want = calloc(m, sizeof *want);
                    for (size_t r = 0; r < n; r++)
                        if (p.class_of[r] == x)
                            want[codes[r]]++;
                    const keps_class_hist *h = &p.hist[0];
                    uint32_t e = h->off[x];
                    for (uint32_t v = 0; v < m; v++)
                        if (want[v]) {
                            assert_true(e < h->off[x + 1]);
                            assert_int_equal(h->val[e], v);
                            assert_int_equal(h->cnt[e], want[v]);
                            e++;
                        }
                    assert_int_equal(e, h->off[x + 1]);
                    free(want);
                }
                /* from every node below: the same histograms per class
                 * (classes matched by their bottom representative) */
                for (int fa = 0; fa <= la; fa++)
                    for (int fb = 0; fb <= lb; fb++) {
                        int fl[2] = {fa, fb};
                        keps_node_classes from, out;
                        keps_node_classes_init(&from);
                        keps_node_classes_init(&out);
                        assert_int_equal(keps_lattice_rollup(L, w, NULL, fl, &from, NULL), KEPS_OK);
                        /* the sizes first, the histograms added after (the search's lazy path) */
                        uint32_t *as = malloc((from.n + 1) * sizeof *as);
                        assert_int_equal(keps_lattice_rollup_keys(L, w, &from, lv, &out, as), KEPS_OK);
                        assert_int_equal(out.no_hist, 1);
                        assert_int_equal(keps_lattice_rollup_hist(L, w, &from, &out, as), KEPS_OK);
                        assert_int_equal(out.no_hist, 0);
                        free(as);
                        assert_int_equal(out.n, p.nclasses);
                        for (size_t x = 0; x < out.n; x++) {
                            size_t r = 0;
                            while (L->row_class[r] != out.bot[x])
                                r++;
                            uint32_t px = p.class_of[r];
                            const keps_class_hist *a = &out.hist[0], *b = &p.hist[0];
                            assert_int_equal(out.count[x], p.count[px]);
                            assert_int_equal(a->off[x + 1] - a->off[x], b->off[px + 1] - b->off[px]);
                            for (uint32_t e = 0; e < a->off[x + 1] - a->off[x]; e++) {
                                assert_int_equal(a->val[a->off[x] + e], b->val[b->off[px] + e]);
                                assert_int_equal(a->cnt[a->off[x] + e], b->cnt[b->off[px] + e]);
                            }
                        }
                        keps_node_classes_free(&from);
                        keps_node_classes_free(&out);
                    }
                keps_partition_free(&p);
            }
        keps_lattice_work_free(w);
        keps_lattice_free(L);
        free(codes);
        keps_criteria_free(k);
        keps_schema_free(sch);
        keps_table_free(t);
    }
    keps_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_figures), cmocka_unit_test(test_missing_ordered),
        cmocka_unit_test(test_li_example),      cmocka_unit_test(test_node_subset_apply),
        cmocka_unit_test(test_population),      cmocka_unit_test(test_random_classes),
        cmocka_unit_test(test_rollup_histograms), cmocka_unit_test(test_method_sources),
        cmocka_unit_test(test_release_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
