/* The lattice search (keps/search.h) on Adult: the 20 k-anonymity
 * configurations (k in {2, 5, 10, 50, 100} x suppression {0, 0.05} x metric
 * {loss, prec}) with all nine QIs, and with a criterion on a sensitive
 * column added (8 QIs, occupation sensitive; k 2, 5, 10, loss and prec:
 * none, distinct 2-diversity, t-closeness 0.2 equal distance, Shannon
 * entropy 3-diversity, recursive (4,3)-diversity).
 * Usage: bench_search [kanon|criteria|all [REPS [LABEL]]] (LABEL: only the
 * configurations whose label contains it, e.g. entropy). One JSON object
 * per line: search wall and CPU time (best of REPS), nodes evaluated, node, score. */
#include <math.h>
#include <string.h>

#include "bench_adult.h"
#include "keps/search.h"

static int reps = 3;
static const char *only; /* run only the configurations whose label contains it */

static void run_one(const char *set, keps_table *t, const keps_lattice *L, const keps_criterion *c, size_t nc,
                    const keps_sensitive_spec *sp, size_t ns, double s, keps_metric metric, const char *label)
{
    keps_error err = {0};
    keps_criteria *k = NULL;
    if (only && !strstr(label, only))
        return;
    if (keps_criteria_new(t, sp, ns, c, nc, NULL, &k, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    keps_search_params p = {k, s, metric, NULL};
    double best = 1e300, best_cpu = 1e300;
    keps_search_result r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < reps; i++) {
        keps_search_result_free(&r);
        double a = bench_now_ms(), ca = bench_cpu_ms();
        if (keps_search_run(L, &p, &r, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(2);
        }
        double w = bench_now_ms() - a, cpu = bench_cpu_ms() - ca;
        if (w < best)
            best = w;
        if (cpu < best_cpu)
            best_cpu = cpu;
    }
    printf("{\"bench\":\"search\",\"set\":\"%s\",\"criteria\":\"%s\",\"suppress\":%g,\"metric\":\"%s\",\"found\":%d,"
           "\"search_ms\":%.2f,\"search_cpu_ms\":%.2f,\"nodes_evaluated\":%llu,\"nodes_total\":%llu,\"node\":[",
           set, label, s, keps_metric_name(metric), r.found, best, best_cpu, (unsigned long long)r.nodes_evaluated,
           (unsigned long long)r.nodes_total);
    for (size_t i = 0; r.found && i < L->q; i++)
        printf("%s%d", i ? "," : "", r.levels[i]);
    printf("],\"score\":%.10g,\"suppressed\":%zu}\n", r.found ? r.score[0] : NAN, r.suppressed);
    fflush(stdout);
    keps_search_result_free(&r);
    keps_criteria_free(k);
}

/* The 9-QI lattice, k-anonymity only. */
static void kanon(void)
{
    bench_data d;
    bench_setup(NULL, &d);
    static const size_t ks[] = {2, 5, 10, 50, 100};
    static const keps_metric ms[] = {KEPS_METRIC_LOSS, KEPS_METRIC_PREC};
    for (size_t mi = 0; mi < 2; mi++)
        for (size_t i = 0; i < 5; i++)
            for (int j = 0; j < 2; j++) {
                keps_criterion c = {KEPS_CRIT_K_ANONYMITY, 0, {(double)ks[i], 0}, 0};
                char label[32];
                snprintf(label, sizeof label, "k=%zu", ks[i]);
                run_one("adult9", d.t, d.L, &c, 1, NULL, 0, j ? 0.05 : 0, ms[mi], label);
            }
    bench_teardown(&d);
}

/* 8 QIs, occupation sensitive: the lattice carries its histograms. */
static void criteria(void)
{
    keps_table *t;
    keps_schema *s;
    keps_error err = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
    if (keps_csv_read(path, NULL, &t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    s = keps_schema_new(t);
    for (size_t i = 0; i < ADULT_NQI; i++) {
        if (!strcmp(adult_qis[i], "occupation")) /* the sensitive column, as in ARX's tests */
            continue;
        char spec[4096];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", adult_qis[i], KEPS_SOURCE_DIR,
                 adult_qis[i]);
        if (keps_schema_add_qi(s, t, spec, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(2);
        }
    }
    int occ = keps_table_column(t, "occupation");
    keps_sensitive_spec sp = {(size_t)occ, KEPS_SENSITIVE_NOMINAL, NULL};
    keps_criterion probe = {KEPS_CRIT_DISTINCT_L, 0, {1, 0}, 0};
    keps_criteria *k = NULL;
    if (occ < 0 || keps_criteria_new(t, &sp, 1, &probe, 1, NULL, &k, &err)) {
        fprintf(stderr, "occupation: %s\n", err.msg);
        exit(2);
    }
    size_t m = keps_criteria_nvalues(k, 0), n = t->nrows;
    uint32_t *codes = malloc(n * sizeof *codes);
    for (size_t r = 0; r < n; r++)
        codes[r] = keps_criteria_value(k, 0, t->cols[occ].codes[r]);
    keps_criteria_free(k);
    const uint32_t *cp[1] = {codes};
    keps_lattice *L = NULL, *L0 = NULL; /* with occupation's histograms, and without (k alone) */
    if (keps_lattice_new_ex(s, NULL, cp, &m, 1, &L, &err) || keps_lattice_new(s, &L0, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    static const size_t ks[] = {2, 5, 10};
    static const keps_metric ms[] = {KEPS_METRIC_LOSS, KEPS_METRIC_PREC};
    for (size_t mi = 0; mi < 2; mi++) {
        for (size_t i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++) {
                double sup = j ? 0.05 : 0;
                keps_criterion c[5] = {{KEPS_CRIT_K_ANONYMITY, 0, {(double)ks[i], 0}, 0},
                                       {KEPS_CRIT_DISTINCT_L, 0, {2, 0}, 0},
                                       {KEPS_CRIT_T_CLOSENESS, 0, {0.2, 0}, 0},
                                       {KEPS_CRIT_ENTROPY_L, 0, {3, 0}, KEPS_ENTROPY_SHANNON},
                                       {KEPS_CRIT_RECURSIVE_CL, 0, {4, 3}, 0}};
                char label[64];
                snprintf(label, sizeof label, "k=%zu", ks[i]);
                run_one("adult8", t, L0, c, 1, NULL, 0, sup, ms[mi], label);
                snprintf(label, sizeof label, "k=%zu+distinct-2", ks[i]);
                run_one("adult8", t, L, c, 2, &sp, 1, sup, ms[mi], label);
                keps_criterion kt[2] = {c[0], c[2]};
                snprintf(label, sizeof label, "k=%zu+t=0.2", ks[i]);
                run_one("adult8", t, L, kt, 2, &sp, 1, sup, ms[mi], label);
                keps_criterion ke[2] = {c[0], c[3]}, kr[2] = {c[0], c[4]};
                snprintf(label, sizeof label, "k=%zu+entropy-3", ks[i]);
                run_one("adult8", t, L, ke, 2, &sp, 1, sup, ms[mi], label);
                snprintf(label, sizeof label, "k=%zu+recursive-(4,3)", ks[i]);
                run_one("adult8", t, L, kr, 2, &sp, 1, sup, ms[mi], label);
            }
    }
    keps_lattice_free(L);
    keps_lattice_free(L0);
    free(codes);
    keps_schema_free(s);
    keps_table_free(t);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    reps = argc > 2 ? atoi(argv[2]) : 3;
    only = argc > 3 ? argv[3] : NULL;
    if (!strcmp(what, "kanon") || !strcmp(what, "all"))
        kanon();
    if (!strcmp(what, "criteria") || !strcmp(what, "all"))
        criteria();
    return 0;
}
