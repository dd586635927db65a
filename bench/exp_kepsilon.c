/* Experiment: Holohan et al. 2017, Figures 3-6 on Adult + synthetic height
 * (data/adult/adult_height.csv): k-QIs age, sex, race, marital-status
 * (ARX hierarchies; Mondrian treats age as numeric), epsilon-QI height.
 * For each algorithm and k the classes are computed once (OLA: suppression
 * limit 5%, metric loss), then for each epsilon `runs` noisy releases give
 * the mean measured ARE, linking risk and 99%-confident suppression.
 *
 * CSV on stdout, one row per (algorithm, k, epsilon):
 *   classes, kanon_suppressed_pct (OLA's suppression), expected_are (eq. 8,
 *   scale ec), expected_are_global (scale global: the Fig. 2 baseline),
 *   measured_are mean/sd, linking_risk_pct mean/sd, confident_suppressed_pct
 *   mean/sd (c = 0.99, % of all records), runs, seed.
 * Randomness: keps_rng seeded with SEED, one split stream per run.
 *
 * Usage: exp_kepsilon ola|mondrian ADULT_HEIGHT.csv HIERARCHY_DIR [RUNS [SEED]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_common.h"
#include "keps/csv.h"

static const size_t ks[] = {2, 5, 10, 20, 50, 100};
static const double eps[] = {0.05, 0.5, 1, 2, 4, 8, 16};

static void point(const char *algo, size_t k, double e, const uint32_t *cls, long sup, const double *h, size_t n,
                  size_t runs, unsigned long seed, keps_rng *root)
{
    keps_kepsilon_params p = {.k = k, .epsilon = e, .scale = KEPS_KSCALE_GLOBAL, .confidence = 0.99};
    keps_kepsilon_result r;
    acc are = {0}, link = {0}, conf = {0};
    double exp_ec = 0, exp_global, nclasses = 0;
    keps_rng *g = keps_rng_split(root, 1000000);
    keps_kepsilon_run(cls, n, h, 1, &p, g, &r, NULL);
    exp_global = r.expected_are_before_confident; /* the paper's figures: before c-confidence */
    keps_kepsilon_result_free(&r);
    keps_rng_free(g);
    p.scale = KEPS_KSCALE_EC;
    for (size_t i = 0; i < runs; i++) {
        keps_rng *rng = keps_rng_split(root, i);
        if (keps_kepsilon_run(cls, n, h, 1, &p, rng, &r, NULL) == KEPS_OK) {
            exp_ec = r.expected_are_before_confident;
            nclasses = (double)r.nclasses;
            add(&are, r.measured_are_before_confident);
            add(&link, 100.0 * r.linking_risk_before_confident);
            add(&conf, 100.0 * (double)r.confident_suppressed_rows / (double)n);
            keps_kepsilon_result_free(&r);
        }
        keps_rng_free(rng);
    }
    printf("%s,%zu,%g,%.0f,%.4f,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f,%.4f,%zu,%lu\n", algo, k, e, nclasses,
           100.0 * (double)sup / (double)n, exp_ec, exp_global, mean(&are), sd(&are), mean(&link), sd(&link),
           mean(&conf), sd(&conf), runs, seed);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: exp_kepsilon ola|mondrian ADULT_HEIGHT.csv HIERARCHY_DIR [RUNS [SEED]]\n");
        return 2;
    }
    const char *algo = argv[1];
    size_t runs = argc > 4 ? strtoul(argv[4], NULL, 10) : 30;
    unsigned long seed = argc > 5 ? strtoul(argv[5], NULL, 10) : 2017;
    keps_table *t;
    keps_error err = {0};
    keps_schema *s;
    if (keps_csv_read(argv[2], NULL, &t, &err) || !(s = adult_schema(t, argv[3], !strcmp(algo, "mondrian"), 0, &err))) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int hc = keps_table_column(t, "height");
    if (hc < 0 || keps_table_numeric(t, (size_t)hc, &err)) {
        fprintf(stderr, "%s: need a numeric height column\n", argv[2]);
        return 2;
    }
    size_t n = t->nrows;
    double *h = malloc(n * sizeof *h);
    uint32_t *cls = malloc(n * sizeof *cls);
    for (size_t i = 0; i < n; i++)
        h[i] = keps_table_num(t, (size_t)hc, i);
    keps_rng *root = keps_rng_new_seeded(seed);
    printf("algorithm,k,epsilon,classes,kanon_suppressed_pct,expected_are,expected_are_global,measured_are,"
           "measured_are_sd,linking_risk_pct,linking_risk_pct_sd,confident_suppressed_pct,"
           "confident_suppressed_pct_sd,runs,seed\n");
    for (size_t a = 0; a < sizeof ks / sizeof *ks; a++) {
        long sup = kanon_classes(algo, s, t, ks[a], cls, &err);
        if (sup < 0) {
            fprintf(stderr, "%s k=%zu: %s\n", algo, ks[a], err.msg[0] ? err.msg : "no solution");
            continue;
        }
        for (size_t b = 0; b < sizeof eps / sizeof *eps; b++)
            point(algo, ks[a], eps[b], cls, sup, h, n, runs, seed, root);
        fflush(stdout);
    }
    keps_rng_free(root);
    free(h);
    free(cls);
    keps_schema_free(s);
    keps_table_free(t);
    return 0;
}
