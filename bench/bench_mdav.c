/* MDAV benchmark: CASC census data (4 attributes FICA, FEDTAX, INTVAL,
 * POTHVAL, and all 13) for k in {3,5,10,25,100}, standard and insensitive
 * MDAV (with the record linkage RL of each release, docs/spec.md 5; -1 = not
 * computed); then synthetic_rows x 4 synthetic values (lognormal, uniform,
 * normal; default 100,000 rows) with k = 5: standard MDAV as keps_mdav
 * chooses (the k-d tree for these), on 1 and 2 threads, and insensitive
 * MDAV. With "scan" as third argument the scan path runs on the same data
 * too ("method": "scan") and "same_groups" says whether its groups equal
 * the tree's. One JSON object per line.
 *
 *   build/bench/bench_mdav [casc.csv] [synthetic_rows] [scan]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"

#include "keps/csv.h"
#include "keps/mdav.h"
#include "keps/risk.h"
#include "keps/rng.h"
#include "mdav_internal.h"

static uint32_t *tree_groups; /* the last tree run's groups, to compare the scan's with */

static void run(const char *data, const double *x, size_t n, size_t m, size_t k, int insensitive, int threads,
                int method)
{
    keps_mdav_threads(threads);
    mdav_set_method(method);
    keps_mdav_result r;
    keps_error err = {0};
    double t0 = now_ms(), c0 = cpu_ms();
    keps_status st = insensitive ? keps_mdav_insensitive(x, n, m, k, NULL, NULL, &r, &err)
                                 : keps_mdav(x, n, m, k, &r, &err);
    double ms = now_ms() - t0, cms = cpu_ms() - c0;
    if (st) {
        fprintf(stderr, "bench_mdav: %s\n", err.msg);
        exit(1);
    }
    /* record linkage of the release (docs/spec.md 5 direction), small sets only */
    double rl = -1;
    if (n <= 20000) {
        double *rel = malloc(n * m * sizeof *rel);
        for (size_t i = 0; i < n; i++)
            memcpy(rel + i * m, r.centroid + (size_t)r.group[i] * m, m * sizeof *rel);
        keps_record_linkage(x, rel, n, m, KEPS_RL_ORIGINAL, &rl, NULL);
        free(rel);
    }
    const char *how = insensitive ? "sort" : method == 1 ? "scan" : method == 2 ? "tree" : "auto";
    char same[32] = "";
    if (method == 1 && tree_groups)
        snprintf(same, sizeof same, ", \"same_groups\": %s",
                 memcmp(tree_groups, r.group, n * sizeof *r.group) ? "false" : "true");
    else if (method == 2) {
        free(tree_groups);
        if ((tree_groups = malloc(n * sizeof *tree_groups)))
            memcpy(tree_groups, r.group, n * sizeof *tree_groups);
    }
    printf("{\"bench\": \"mdav\", \"data\": \"%s\", \"rows\": %zu, \"attributes\": %zu, \"k\": %zu, "
           "\"variant\": \"%s\", \"method\": \"%s\", \"threads\": %d, \"groups\": %zu, \"ms\": %.1f, "
           "\"cpu_ms\": %.1f, \"sse\": %.6g, \"sse_standardized\": %.6g, \"record_linkage\": %.6g%s}\n",
           data, n, m, k, insensitive ? "insensitive" : "mdav", how, threads, r.ngroups, ms, cms, r.sse,
           r.sse_standardized, rl, same);
    fflush(stdout);
    keps_mdav_result_free(&r);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : KEPS_SOURCE_DIR "/data/casc/casc.csv";
    size_t nsyn = argc > 2 ? (size_t)atol(argv[2]) : 100000;
    int with_scan = argc > 3 && strcmp(argv[3], "scan") == 0;
    keps_table *t;
    keps_error err = {0};
    if (keps_csv_read(path, NULL, &t, &err)) {
        fprintf(stderr, "bench_mdav: %s\n", err.msg);
        return 1;
    }
    const char *four[] = {"FICA", "FEDTAX", "INTVAL", "POTHVAL"};
    size_t cols4[4], cols13[64];
    for (int j = 0; j < 4; j++)
        cols4[j] = (size_t)keps_table_column(t, four[j]);
    for (size_t j = 0; j < t->ncols && j < 64; j++)
        cols13[j] = j;
    double *x4, *x13;
    if (keps_mdav_matrix(t, cols4, 4, &x4, &err) || keps_mdav_matrix(t, cols13, t->ncols, &x13, &err)) {
        fprintf(stderr, "bench_mdav: %s\n", err.msg);
        return 1;
    }
    static const size_t ks[] = {3, 5, 10, 25, 100};
    for (int v = 0; v < 2; v++)
        for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
            run("casc4", x4, t->nrows, 4, ks[i], v, 2, 0);
            run("casc13", x13, t->nrows, t->ncols, ks[i], v, 2, 0);
        }
    /* synthetic: exp(N(8, 1.5^2)), U(0, 1), N(0, 1) per attribute (Box-Muller) */
    static const char *kinds[] = {"lognormal", "uniform", "normal"};
    keps_rng *g = keps_rng_new_seeded(1);
    double *s = malloc(nsyn * 4 * sizeof *s);
    for (int kind = 0; kind < 3; kind++) {
        for (size_t i = 0; i < nsyn * 4; i++) {
            double u1 = keps_rng_uniform_open(g), u2 = keps_rng_uniform(g);
            double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
            s[i] = kind == 0 ? exp(8.0 + 1.5 * z) : kind == 1 ? u2 : z;
        }
        run(kinds[kind], s, nsyn, 4, 5, 0, 2, 2);
        run(kinds[kind], s, nsyn, 4, 5, 0, 1, 2);
        if (with_scan)
            run(kinds[kind], s, nsyn, 4, 5, 0, 2, 1);
        run(kinds[kind], s, nsyn, 4, 5, 1, 1, 0);
    }
    free(s);
    free(tree_groups);
    keps_rng_free(g);
    free(x4);
    free(x13);
    keps_table_free(t);
    return 0;
}
