/* A cancel from the progress hook (keps/progress.h) stops a search from
 * inside its loop, not only between a command's steps: OLA's search, the
 * lattice scan, the criteria search, Mondrian's cuts and MDAV's groups each
 * return KEPS_ECANCEL when the hook asks on its first report of that loop
 * (before, each ran to the end and returned KEPS_OK with a result), and the
 * hook hears nothing more (one call). Through keps_run the command then
 * returns KEPS_ECANCEL with no output at all (no release, no report, no
 * other output for the caller to write). */
#include "testutil.h"

#include <string.h>

#include "keps/command.h"
#include "keps/criteria.h"
#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/mdav.h"
#include "keps/mondrian.h"
#include "keps/ola.h"
#include "keps/progress.h"
#include "keps/schema.h"
#include "keps/search.h"

/* Cancels on the first report whose label is `loop`; counts the reports
 * of that label and of any other. */
typedef struct hook {
    const char *loop;
    int mine, others;
} hook;

static int cancel_in(void *ud, const char *what, double done, double total)
{
    (void)done;
    (void)total;
    hook *h = ud;
    if (strcmp(what, h->loop) != 0) {
        h->others++;
        return 0;
    }
    h->mine++;
    return 1;
}

static void adult_free(keps_lattice *L, keps_table *t, keps_schema *s)
{
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
}

/* Installs h for the calling thread around one call. */
#define WITH_HOOK(h, call)                                                                                          \
    do {                                                                                                            \
        void *prev_ud;                                                                                              \
        keps_progress_cb prev = keps_progress_push(cancel_in, &(h), &prev_ud);                                     \
        call;                                                                                                       \
        assert_int_equal(keps_progress_pop(prev, prev_ud), 1);                                                      \
    } while (0)

static void test_ola(void **state)
{
    (void)state;
    keps_table *t;
    keps_schema *s;
    keps_lattice *L = adult_lattice(9, &t, &s);
    /* sequential: with more threads on a loaded machine the others can take
     * every middle node before the caller's thread reports once */
    {
        keps_ola_params p = {5, 0.05, KEPS_METRIC_LOSS, 1};
        keps_ola_result r;
        keps_error err = {0};
        hook h = {"OLA search", 0, 0};
        keps_status st;
        WITH_HOOK(h, st = keps_ola_run(L, &p, &r, &err));
        assert_int_equal(st, KEPS_ECANCEL);
        assert_int_equal(h.mine, 1);
        assert_false(r.found);
        keps_ola_result_free(&r);
    }
    adult_free(L, t, s);
}

static int count_nodes(const keps_node_info *ni, int thread, void *ud)
{
    (void)ni;
    (void)thread;
    __atomic_add_fetch((uint64_t *)ud, 1, __ATOMIC_RELAXED);
    return 0;
}

static void test_lattice_scan(void **state)
{
    (void)state;
    keps_table *t;
    keps_schema *s;
    keps_lattice *L = adult_lattice(6, &t, &s);
    uint64_t visited = 0;
    keps_error err = {0};
    hook h = {"lattice scan", 0, 0};
    keps_status st;
    WITH_HOOK(h, st = keps_lattice_scan(L, 5, count_nodes, &visited, 1, &err));
    assert_int_equal(st, KEPS_ECANCEL);
    assert_int_equal(h.mine, 1);
    assert_true(visited < L->nnodes); /* it stopped before the end */
    adult_free(L, t, s);
}

static void test_criteria_search(void **state)
{
    (void)state;
    keps_table *t;
    keps_schema *s;
    keps_lattice *L = adult_lattice(9, &t, &s);
    keps_criterion k5 = {KEPS_CRIT_K_ANONYMITY, 0, {5, 0, 0}, 0};
    keps_criteria *crit = NULL;
    keps_error err = {0};
    assert_int_equal(keps_criteria_new(t, NULL, 0, &k5, 1, NULL, &crit, &err), KEPS_OK);
    keps_search_params p = {crit, 0.05, KEPS_METRIC_LOSS, NULL};
    keps_search_result r;
    hook h = {"lattice search", 0, 0};
    keps_status st;
    WITH_HOOK(h, st = keps_search_run(L, &p, &r, &err));
    assert_int_equal(st, KEPS_ECANCEL);
    assert_int_equal(h.mine, 1);
    keps_search_result_free(&r);
    keps_criteria_free(crit);
    adult_free(L, t, s);
}

static void test_mondrian(void **state)
{
    (void)state;
    keps_error err = {0};
    keps_table *t;
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    keps_schema *s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi(s, t, "age", &err), KEPS_OK); /* numeric, and 8 with hierarchies: */
    static const char *const q[] = {"sex", "race", "marital-status", "education", "native-country",
                                    "workclass", "occupation", "salary-class"};
    for (size_t i = 0; i < 8; i++) { /* thousands of cuts at k = 2, far more than 256 */
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", q[i], KEPS_SOURCE_DIR, q[i]);
        assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    }
    keps_mondrian_result r;
    hook h = {"mondrian", 0, 0};
    keps_status st;
    WITH_HOOK(h, st = keps_mondrian(s, t, 2, &r, &err));
    assert_int_equal(st, KEPS_ECANCEL);
    assert_int_equal(h.mine, 1);
    keps_schema_free(s);
    keps_table_free(t);
}

static void test_mdav(void **state)
{
    (void)state;
    size_t n = 20000, m = 2;
    double *x = malloc(n * m * sizeof *x);
    uint64_t z = 88172645463325252ull; /* xorshift64: any spread of points will do */
    for (size_t i = 0; i < n * m; i++) {
        z ^= z << 13, z ^= z >> 7, z ^= z << 17;
        x[i] = (double)(z >> 11) / 9007199254740992.0;
    }
    for (int tree = 0; tree < 2; tree++) { /* m = 2 takes the k-d tree for large n; 3000 rows the scan */
        size_t nn = tree ? n : 3000;
        keps_mdav_result r;
        keps_error err = {0};
        hook h = {"mdav", 0, 0};
        keps_status st;
        WITH_HOOK(h, st = keps_mdav(x, nn, m, 3, &r, &err));
        assert_int_equal(st, KEPS_ECANCEL);
        assert_int_equal(h.mine, 1);
    }
    free(x);
}

static int cancel_run(void *ud, const char *what, double done, double total)
{
    return cancel_in(ud, what, done, total);
}

static void test_run_writes_nothing(void **state)
{
    (void)state;
    static const char *const q[] = {"sex", "age", "race", "marital-status", "education"};
    keps_args *a = keps_args_new();
    keps_args_add(a, "input", src_path("data/adult/adult.csv"), NULL);
    keps_args_add(a, "algorithm", "ola", NULL);
    for (size_t i = 0; i < 5; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", q[i], KEPS_SOURCE_DIR, q[i]);
        keps_args_add(a, "qi", spec, NULL);
    }
    keps_args_add(a, "k", "5", NULL);
    keps_args_add(a, "suppress", "0.05", NULL);
    keps_args_add(a, "others", "keep", NULL);
    keps_args_add(a, "output", "-", NULL);
    keps_args_add(a, "emit-sql", "release.sql", NULL);
    hook h = {"OLA search", 0, 0};
    keps_host host = {.progress = cancel_run, .ud = &h, .quiet = 1};
    keps_result r;
    keps_error err;
    assert_int_equal(keps_run("anonymize", a, &host, &r, &err), KEPS_ECANCEL);
    assert_int_equal(h.mine, 1);
    assert_int_equal(err.code, KEPS_ECANCEL);
    assert_null(r.release);
    assert_null(r.report);
    assert_null(r.summary);
    assert_int_equal(r.noutputs, 0);
    keps_result_free(&r);
    keps_args_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ola),      cmocka_unit_test(test_lattice_scan), cmocka_unit_test(test_criteria_search),
        cmocka_unit_test(test_mondrian), cmocka_unit_test(test_mdav),         cmocka_unit_test(test_run_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
