/* Experiment: Soria-Comas et al. 2013, Figures 1 and 2 (SSE and RL on the
 * CASC "Census" data, attributes FICA, FEDTAX, INTVAL, POTHVAL), with keps's
 * sound accounting (docs/spec.md 5) next to the paper's printed one.
 *
 * Writes CSV on stdout: one row per (method, k, epsilon) with the mean and
 * standard deviation over `runs` runs. Methods:
 *   mdav          standard MDAV, no noise (deterministic, 1 run)
 *   imdav         insensitive MDAV, no noise (deterministic, 1 run)
 *   multivariate  keps dpmicro --mode multivariate (epsilon-DP)
 *   univariate    keps dpmicro --mode univariate, rows kept linked (the
 *                 paper's release; not DP for m > 1, see dpmicro.h)
 *   paper         the paper's accounting: per-record noise, scale D_j/(k eps)
 *                 on insensitive MDAV (NOT DP; what the paper plotted)
 * Bounds: the paper's rule, [0, 1.5 * max] per attribute.
 * RL: keps_record_linkage (keps/risk.h; standardized Euclidean), in percent:
 *   rl = the paper's printed formula (for each released record, the nearest
 *   originals G; 1/|G| if its own original is in G), rl_original = docs/spec.md 5's
 *   direction (for each original, the nearest released records).
 * Randomness: keps_rng seeded with SEED (run r uses stream r).
 *
 * Usage: exp_dpmicro CASC.csv [RUNS [SEED]] > out.csv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_common.h"
#include "keps/csv.h"
#include "keps/dpmicro.h"
#include "keps/mdav.h"
#include "keps/risk.h"

#define M 4
static const char *names[M] = {"FICA", "FEDTAX", "INTVAL", "POTHVAL"};
static const size_t ks[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 50, 60, 70, 80, 90, 100};
static const double eps[] = {0.01, 0.1, 1.0, 10.0};

static void row(const char *method, size_t k, double e, size_t runs, unsigned long seed, const double *scale,
                double eps_g, const acc *sse, const acc *rl, const acc *rlo)
{
    printf("%s,%zu,%g,%zu,%lu", method, k, e, runs, seed);
    for (int j = 0; j < M; j++)
        printf(",%.6g", scale ? scale[j] : 0.0);
    printf(",%.6g,%.6e,%.6e,%.6f,%.6f,%.6f,%.6f\n", eps_g, mean(sse), sd(sse), mean(rl), sd(rl), mean(rlo),
           sd(rlo));
}

/* MDAV / insensitive MDAV without noise: release = centroids. */
static void baseline(const char *method, const double *x, size_t n, size_t k, const double *lo, const double *hi)
{
    keps_mdav_result g;
    keps_error err = {0};
    keps_status st = lo ? keps_mdav_insensitive(x, n, M, k, lo, hi, &g, &err) : keps_mdav(x, n, M, k, &g, &err);
    if (st) {
        fprintf(stderr, "%s: %s\n", method, err.msg);
        return;
    }
    double *out = malloc(n * M * sizeof *out);
    for (size_t i = 0; i < n; i++)
        memcpy(out + i * M, g.centroid + g.group[i] * M, M * sizeof *out);
    acc sse = {0}, rl = {0}, rlo = {0};
    add(&sse, g.sse);
    double v = NAN, w = NAN;
    keps_record_linkage(x, out, n, M, KEPS_RL_RELEASED, &v, NULL);
    keps_record_linkage(x, out, n, M, KEPS_RL_ORIGINAL, &w, NULL);
    add(&rl, 100 * v);
    add(&rlo, 100 * w);
    row(method, k, 0, 1, 0, NULL, INFINITY, &sse, &rl, &rlo);
    free(out);
    keps_mdav_result_free(&g);
}

static void noisy(const char *method, keps_dpm_mode mode, int paper, const double *x, size_t n, size_t k, double e,
                  const double *lo, const double *hi, size_t runs, unsigned long seed, keps_rng *root)
{
    keps_dpmicro_params p = {.mode = mode, .k = k, .epsilon = e, .lo = lo, .hi = hi, .paper_accounting = paper};
    acc sse = {0}, rl = {0}, rlo = {0};
    double scale[M] = {0}, eg = 0;
    for (size_t r = 0; r < runs; r++) {
        keps_rng *rng = keps_rng_split(root, r);
        keps_dpmicro_result res;
        keps_error err = {0};
        if (keps_dpmicro_run(x, n, M, &p, rng, &res, &err)) {
            fprintf(stderr, "%s k=%zu: %s\n", method, k, err.msg);
            keps_rng_free(rng);
            return;
        }
        add(&sse, res.sse);
        add(&rl, 100 * res.record_linkage_released);
        add(&rlo, 100 * res.record_linkage);
        memcpy(scale, res.scale, sizeof scale);
        eg = res.epsilon;
        keps_dpmicro_result_free(&res);
        keps_rng_free(rng);
    }
    row(method, k, e, runs, seed, scale, eg, &sse, &rl, &rlo);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: exp_dpmicro CASC.csv [RUNS [SEED]]\n");
        return 2;
    }
    size_t runs = argc > 2 ? strtoul(argv[2], NULL, 10) : 10;
    unsigned long seed = argc > 3 ? strtoul(argv[3], NULL, 10) : 2014;
    keps_table *t;
    keps_error err = {0};
    if (keps_csv_read(argv[1], NULL, &t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    size_t cols[M], n = t->nrows;
    for (int j = 0; j < M; j++) {
        int c = keps_table_column(t, names[j]);
        if (c < 0) {
            fprintf(stderr, "%s: no column %s\n", argv[1], names[j]);
            return 2;
        }
        cols[j] = (size_t)c;
    }
    double *x, lo[M] = {0}, hi[M];
    if (keps_mdav_matrix(t, cols, M, &x, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    for (int j = 0; j < M; j++) {
        double mx = 0;
        for (size_t i = 0; i < n; i++)
            mx = fmax(mx, x[i * M + j]);
        hi[j] = 1.5 * mx; /* the paper's rule */
    }
    keps_rng *root = keps_rng_new_seeded(seed);
    printf("method,k,epsilon,runs,seed,scale_FICA,scale_FEDTAX,scale_INTVAL,scale_POTHVAL,epsilon_guaranteed,"
           "sse_mean,sse_sd,rl_mean,rl_sd,rl_original_mean,rl_original_sd\n");
    for (size_t a = 0; a < sizeof ks / sizeof *ks; a++) {
        size_t k = ks[a];
        if (k > 1) {
            baseline("mdav", x, n, k, NULL, NULL);
            baseline("imdav", x, n, k, lo, hi);
        }
        for (size_t b = 0; b < sizeof eps / sizeof *eps; b++) {
            noisy("multivariate", KEPS_DPM_MULTIVARIATE, 0, x, n, k, eps[b], lo, hi, runs, seed, root);
            noisy("univariate", KEPS_DPM_UNIVARIATE, 0, x, n, k, eps[b], lo, hi, runs, seed, root);
            noisy("paper", KEPS_DPM_MULTIVARIATE, 1, x, n, k, eps[b], lo, hi, runs, seed, root);
        }
        fflush(stdout);
    }
    keps_rng_free(root);
    free(x);
    keps_table_free(t);
    return 0;
}
