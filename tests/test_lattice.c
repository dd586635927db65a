/* Lattice: node ids, roll-up evaluation and the full scan, checked against
 * a naive O(n^2) class count on random tables (tests/ola_testgen.h). */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/schema.h"
#include "ola_testgen.h"

/* Per-node results collected by the scan callback (ids are distinct, so
 * threads never write the same slot). */
typedef struct scan_rec {
    int visits;
    size_t nclasses, suppressed, small;
    size_t sizes_sum;      /* Σ class sizes = n */
    size_t sizes_sq;       /* Σ size², to compare size multisets cheaply */
} scan_rec;

static int collect(const keps_node_info *ni, int thread, void *ud)
{
    scan_rec *r = (scan_rec *)ud + ni->id;
    r->visits++;
    r->nclasses = ni->nclasses;
    r->suppressed = ni->suppressed;
    r->small = ni->small_classes;
    r->sizes_sum = r->sizes_sq = 0;
    for (size_t c = 0; c < ni->classes->n; c++) {
        r->sizes_sum += ni->classes->count[c];
        r->sizes_sq += (size_t)ni->classes->count[c] * ni->classes->count[c];
    }
    (void)thread;
    return 0;
}

static void test_ids(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(11);
    for (int it = 0; it < 50; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, 20);
        assert_int_equal(L->nnodes, (uint64_t)tg_nnodes(&x));
        for (long id = 0; id < tg_nnodes(&x); id++) {
            int a[TG_MAXQ], b[TG_MAXQ];
            tg_levels(&x, id, a);
            keps_lattice_levels(L, (uint64_t)id, b);
            for (int i = 0; i < x.q; i++)
                assert_int_equal(a[i], b[i]);
            assert_int_equal(keps_lattice_id(L, a), (uint64_t)id);
        }
        keps_lattice_free(L);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

/* Every node visited once (the even scan: every node with an even level sum
 * once, no other); classes, sizes and suppression equal the naive count. */
static void test_scan_oracle(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(12);
    for (int it = 0; it < 300; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, TG_MAXN);
        size_t k = 1 + keps_rng_below(rng, 5);
        keps_error err = {0};
        long nn = tg_nnodes(&x);
        /* every other instance: generalized keys hashed and compared
         * instead of packed (the path for huge domains, tested below too) */
        if (it % 2)
            L->packed = 0;
        for (int run = 0; run < 6; run++) {
            int threads = 1 + run % 3, even = run >= 3;
            scan_rec *rec = calloc((size_t)nn, sizeof *rec);
            assert_int_equal((even ? keps_lattice_scan_even : keps_lattice_scan)(L, k, collect, rec, threads, &err),
                             KEPS_OK);
            for (long id = 0; id < nn; id++) {
                int lv[TG_MAXQ], cls[TG_MAXN], size[TG_MAXN], sum = 0;
                tg_levels(&x, id, lv);
                for (int i = 0; i < x.q; i++)
                    sum += lv[i];
                if (even && sum % 2) {
                    assert_int_equal(rec[id].visits, 0);
                    continue;
                }
                tg_classes(&x, lv, cls, size);
                size_t ncl = 0, sup = 0, small = 0, sq = 0;
                for (int r = 0; r < x.n; r++) {
                    if (cls[r] == r) {
                        ncl++;
                        sq += (size_t)size[r] * (size_t)size[r];
                        small += (size_t)size[r] < k;
                    }
                    sup += (size_t)size[r] < k;
                }
                assert_int_equal(rec[id].visits, 1);
                assert_int_equal(rec[id].nclasses, ncl);
                assert_int_equal(rec[id].suppressed, sup);
                assert_int_equal(rec[id].small, small);
                assert_int_equal(rec[id].sizes_sum, (size_t)x.n);
                assert_int_equal(rec[id].sizes_sq, sq);
            }
            free(rec);
        }
        keps_lattice_free(L);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

/* Rolling up from a finer node gives the same partition as from the bottom,
 * and assign[] maps each bottom class into the class holding its rows. */
static void test_rollup_from_finer(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(13);
    for (int it = 0; it < 200; it++) {
        tg_inst x;
        keps_lattice *L = tg_make_lattice(&x, rng, TG_MAXQ, TG_MAXN);
        keps_lattice_work *w = keps_lattice_work_new(L);
        int lo[TG_MAXQ], hi[TG_MAXQ];
        for (int i = 0; i < x.q; i++) {
            hi[i] = (int)keps_rng_below(rng, (uint64_t)x.height[i] + 1);
            lo[i] = (int)keps_rng_below(rng, (uint64_t)hi[i] + 1);
        }
        keps_node_classes a, b;
        keps_node_classes_init(&a);
        keps_node_classes_init(&b);
        uint32_t *asg_a = calloc(L->bottom.n, sizeof *asg_a);
        uint32_t *asg_b = calloc(a.n + L->bottom.n, sizeof *asg_b);
        assert_int_equal(keps_lattice_rollup(L, w, NULL, lo, &a, asg_a), KEPS_OK);
        assert_int_equal(keps_lattice_rollup(L, w, &a, hi, &b, asg_b), KEPS_OK);
        int cls[TG_MAXN], size[TG_MAXN];
        tg_classes(&x, hi, cls, size);
        for (int r = 0; r < x.n; r++) {
            uint32_t c = asg_b[asg_a[L->row_class[r]]];
            assert_int_equal(b.count[c], (uint32_t)size[r]);
            for (int p = 0; p < x.n; p++)
                assert_int_equal(asg_b[asg_a[L->row_class[p]]] == c, cls[p] == cls[r]);
        }
        free(asg_a);
        free(asg_b);
        keps_node_classes_free(&a);
        keps_node_classes_free(&b);
        keps_lattice_work_free(w);
        keps_lattice_free(L);
        tg_free(&x);
    }
    keps_rng_free(rng);
}

/* Roll-ups that change exactly two QIs of six (the incremental two-QI loop
 * in src/lattice.c; the random tables above have at most four QIs, where
 * two changes already take the recomputing path). Classes are checked
 * against a naive O(n^2) comparison of the rows' generalized codes read
 * from the schema's maps. */
static void test_rollup_two_qis(void **state)
{
    (void)state;
    enum { Q = 6, N = 200 };
    keps_rng *rng = keps_rng_new_seeded(29);
    char csv[8192];
    size_t len = 0;
    for (int i = 0; i < Q; i++)
        len += (size_t)snprintf(csv + len, sizeof csv - len, "%sc%d", i ? "," : "", i);
    for (int r = 0; r < N; r++) {
        csv[len++] = '\n';
        for (int i = 0; i < Q; i++) /* 12 values: widths 2 and 4 merge them */
            len += (size_t)snprintf(csv + len, sizeof csv - len, "%s%d", i ? "," : "",
                                    (int)keps_rng_below(rng, 12));
    }
    keps_table *t = NULL;
    keps_error err = {0};
    assert_int_equal(keps_csv_read_buffer(csv, len, "two.csv", NULL, &t, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    for (int i = 0; i < Q; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "c%d:interval=2,4", i);
        assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    }
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_true(L->packed);
    keps_lattice_work *w = keps_lattice_work_new(L);
    uint32_t *asg_a = calloc(L->bottom.n, sizeof *asg_a), *asg_b = calloc(L->bottom.n, sizeof *asg_b);
    for (int it = 0; it < 100; it++) {
        int lo[Q], hi[Q];
        for (int i = 0; i < Q; i++)
            hi[i] = 1 + (int)keps_rng_below(rng, (uint64_t)s->qi[i].height);
        size_t a = keps_rng_below(rng, Q), b = (a + 1 + keps_rng_below(rng, Q - 1)) % Q;
        memcpy(lo, hi, sizeof lo);
        lo[a] = (int)keps_rng_below(rng, (uint64_t)hi[a]);
        lo[b] = (int)keps_rng_below(rng, (uint64_t)hi[b]);
        keps_node_classes ca, cb;
        keps_node_classes_init(&ca);
        keps_node_classes_init(&cb);
        assert_int_equal(keps_lattice_rollup(L, w, NULL, lo, &ca, asg_a), KEPS_OK);
        assert_int_equal(keps_lattice_rollup(L, w, &ca, hi, &cb, asg_b), KEPS_OK);
        size_t total = 0;
        for (size_t c = 0; c < cb.n; c++)
            total += cb.count[c];
        assert_int_equal(total, N);
        for (int r = 0; r < N; r++) {
            uint32_t cr = asg_b[asg_a[L->row_class[r]]];
            size_t size = 0;
            for (int p = 0; p < N; p++) {
                int same = 1;
                for (int i = 0; i < Q && same; i++) {
                    const uint32_t *code = t->cols[s->qi[i].col].codes;
                    same = s->qi[i].map[hi[i]][code[r]] == s->qi[i].map[hi[i]][code[p]];
                }
                assert_int_equal(asg_b[asg_a[L->row_class[p]]] == cr, same);
                size += (size_t)same;
            }
            assert_int_equal(cb.count[cr], size);
        }
        keps_node_classes_free(&ca);
        keps_node_classes_free(&cb);
    }
    free(asg_a);
    free(asg_b);
    keps_lattice_work_free(w);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    keps_rng_free(rng);
}

/* Eight QIs of 300 values each: 300^8 > 2^64, so keys cannot be packed.
 * The bottom must hold one class per distinct row, the top one class, and
 * the node with every QI at level 1 (value / 100) the distinct rows of the
 * coarsened data (counted here by a plain O(n^2) comparison). */
static void test_unpacked_keys(void **state)
{
    (void)state;
    enum { Q = 8, D = 300, N = 400 };
    keps_rng *rng = keps_rng_new_seeded(15);
    static int val[N][Q];
    char *csv = malloc(N * Q * 8 + 256);
    size_t o = 0;
    for (int i = 0; i < Q; i++)
        o += (size_t)sprintf(csv + o, "%sc%d", i ? "," : "", i);
    o += (size_t)sprintf(csv + o, "\n");
    for (int r = 0; r < N; r++) {
        int dup = r > 0 && keps_rng_below(rng, 4) == 0; /* some repeated rows */
        for (int i = 0; i < Q; i++) {
            val[r][i] = dup ? val[r - 1][i] : (int)keps_rng_below(rng, D);
            o += (size_t)sprintf(csv + o, "%s%d", i ? "," : "", val[r][i]);
        }
        o += (size_t)sprintf(csv + o, "\n");
    }
    keps_table *t = table_from_csv(csv);
    free(csv);
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    char *h = malloc(D * 32);
    size_t ho = 0;
    for (int v = 0; v < D; v++)
        ho += (size_t)sprintf(h + ho, "%d;g%d;*\n", v, v / 100);
    for (int i = 0; i < Q; i++) {
        keps_hierarchy *hh = NULL;
        assert_int_equal(keps_hierarchy_load_buffer(h, ho, "h.csv", ';', &hh, &err), KEPS_OK);
        assert_int_equal(keps_schema_add_qi_hierarchy(s, (size_t)i, hh, &err), KEPS_OK);
    }
    free(h);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_int_equal(L->packed, 0);
    size_t distinct = 0, coarse = 0;
    for (int r = 0; r < N; r++) {
        int first = 1, cfirst = 1;
        for (int p = 0; p < r; p++) {
            int same = 1, csame = 1;
            for (int i = 0; i < Q; i++) {
                same &= val[r][i] == val[p][i];
                csame &= val[r][i] / 100 == val[p][i] / 100;
            }
            first &= !same;
            cfirst &= !csame;
        }
        distinct += (size_t)first;
        coarse += (size_t)cfirst;
    }
    assert_true(distinct < N);
    assert_int_equal(L->bottom.n, distinct);
    keps_lattice_work *w = keps_lattice_work_new(L);
    keps_node_classes c, d;
    keps_node_classes_init(&c);
    keps_node_classes_init(&d);
    int one[Q], top[Q];
    for (int i = 0; i < Q; i++) {
        one[i] = 1;
        top[i] = 2;
    }
    assert_int_equal(keps_lattice_rollup(L, w, NULL, one, &c, NULL), KEPS_OK);
    assert_int_equal(c.n, coarse);
    assert_int_equal(keps_lattice_rollup(L, w, &c, top, &d, NULL), KEPS_OK);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.count[0], N);
    keps_node_classes_free(&c);
    keps_node_classes_free(&d);
    keps_lattice_work_free(w);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    keps_rng_free(rng);
}

static void test_no_hierarchy_is_error(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\n1,2\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    assert_int_equal(keps_schema_add_qi(s, t, "a", &err), KEPS_OK);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_EINPUT);
    assert_null(L);
    assert_non_null(strstr(err.msg, "'a' has no hierarchy"));
    keps_schema_free(s);
    keps_table_free(t);
}

static int stop_after_10(const keps_node_info *ni, int thread, void *ud)
{
    (void)ni;
    (void)thread;
    int *n = ud;
    return __atomic_add_fetch(n, 1, __ATOMIC_SEQ_CST) >= 10;
}

static void test_scan_stop(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(14);
    tg_inst x;
    do {
        tg_make(&x, rng, TG_MAXQ, 30);
        if (tg_nnodes(&x) >= 20)
            break;
        tg_free(&x);
    } while (1);
    keps_lattice *L = NULL;
    keps_error err = {0};
    assert_int_equal(keps_lattice_new(x.s, &L, &err), KEPS_OK);
    int n = 0;
    assert_int_equal(keps_lattice_scan(L, 2, stop_after_10, &n, 1, &err), KEPS_EJOB);
    assert_int_equal(n, 10);
    keps_lattice_free(L);
    tg_free(&x);
    keps_rng_free(rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_scan_oracle),
        cmocka_unit_test(test_rollup_from_finer),
        cmocka_unit_test(test_rollup_two_qis),
        cmocka_unit_test(test_unpacked_keys),
        cmocka_unit_test(test_no_hierarchy_is_error),
        cmocka_unit_test(test_scan_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
