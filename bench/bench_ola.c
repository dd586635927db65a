/* OLA on Adult (or an Adult-like CSV) with all nine hierarchies:
 * k in {2, 5, 10, 50, 100} x suppression {0, 0.05}, metric loss (or argv[3]).
 * Usage: bench_ola [CSV|- [K|0 [METRIC [THREADS]]]]. One JSON object per line: time of
 * each phase (search_cpu_ms: CPU time of the search, all threads), nodes evaluated, chosen node, every metric. */
#include <string.h>

#include "bench_adult.h"
#include "keps/ola.h"
#include "keps/partition.h"

static int threads;

static void run_one(const keps_lattice *L, size_t k, double s, keps_metric metric, double load_ms,
                    double lattice_ms)
{
    keps_error err = {0};
    keps_ola_params p = {k, s, metric, threads};
    keps_ola_result r;
    double a = bench_now_ms(), ca = bench_cpu_ms();
    if (keps_ola_run(L, &p, &r, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    double b = bench_now_ms(), search_cpu = bench_cpu_ms() - ca;
    double apply_ms = 0;
    if (r.found) {
        keps_table *rel = NULL;
        keps_counts cnt;
        keps_partition part;
        if (keps_partition_from_node(L, r.levels, NULL, &part, &err) ||
            keps_partition_enforce(&part, NULL, k, NULL, &err) ||
            keps_lattice_apply(L, r.levels, &part, 0, &rel, &cnt, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(2);
        }
        keps_partition_free(&part);
        apply_ms = bench_now_ms() - b;
        keps_table_free(rel);
    }
    printf("{\"bench\":\"ola\",\"rows\":%zu,\"k\":%zu,\"suppress\":%g,\"metric\":\"%s\",\"threads\":%d,\"found\":%d,"
           "\"load_ms\":%.1f,\"lattice_ms\":%.1f,\"search_ms\":%.1f,\"search_cpu_ms\":%.1f,\"apply_ms\":%.1f,"
           "\"nodes_total\":%llu,\"nodes_evaluated\":%llu,\"k_minimal\":%zu,\"node\":[",
           L->nrows, k, s, keps_metric_name(metric), threads ? threads : 2, r.found, load_ms, lattice_ms, b - a, search_cpu, apply_ms,
           (unsigned long long)r.nodes_total, (unsigned long long)r.nodes_evaluated, r.nminimal);
    for (size_t i = 0; r.found && i < L->q; i++)
        printf("%s%d", i ? "," : "", r.levels[i]);
    printf("],\"suppressed\":%zu", r.suppressed);
    for (int m = 0; r.found && m < KEPS_METRIC_COUNT; m++)
        printf(",\"%s\":%.10g", keps_metric_name((keps_metric)m), r.metrics.v[m]);
    printf("}\n");
    fflush(stdout);
    keps_ola_result_free(&r);
}

int main(int argc, char **argv)
{
    const char *csv = argc > 1 && strcmp(argv[1], "-") ? argv[1] : NULL;
    size_t only_k = argc > 2 ? (size_t)atol(argv[2]) : 0;
    threads = argc > 4 ? atoi(argv[4]) : 0;
    keps_metric metric = KEPS_METRIC_LOSS;
    if (argc > 3 && keps_metric_parse(argv[3], &metric)) {
        fprintf(stderr, "unknown metric %s\n", argv[3]);
        return 2;
    }
    bench_data d;
    bench_setup(csv, &d);
    static const size_t ks[] = {2, 5, 10, 50, 100};
    static const double ss[] = {0, 0.05};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        for (size_t j = 0; j < 2; j++)
            if (!only_k || ks[i] == only_k)
                run_one(d.L, ks[i], ss[j], metric, d.load_ms, d.lattice_ms);
    bench_teardown(&d);
    return 0;
}
