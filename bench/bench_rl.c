/* Record linkage benchmark (keps_record_linkage, both directions) on
 * synthetic data shaped like the dpmicro benchmark's: attribute a = a
 * uniform integer 17..90, b = N(170, 10^2) rounded to one decimal. Three
 * releases: the original itself, the original plus N(0, 5^2) noise on
 * both attributes (every released row distinct), and the means of
 * consecutive groups of 10 rows after sorting on (a, b) (n/10 distinct
 * rows, as microaggregation releases). Wall and CPU time (2 threads) per
 * call, and RL, one JSON object per line. Sizes: the arguments (default
 * 1000 10000 100000).
 *
 *   build/bench/bench_rl [rows ...]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

#include "keps/risk.h"
#include "keps/rng.h"

static double gauss(keps_rng *g)
{
    double u1 = keps_rng_uniform_open(g), u2 = keps_rng_uniform(g);
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static int cmp_row(const void *x, const void *y)
{
    const double *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

static void run(const char *release, const double *o, const double *r, size_t n)
{
    for (int dir = 0; dir < 2; dir++) {
        double rl, t0 = now_ms(), c0 = cpu_ms();
        keps_error err = {0};
        if (keps_record_linkage(o, r, n, 2, dir ? KEPS_RL_RELEASED : KEPS_RL_ORIGINAL, &rl, &err)) {
            fprintf(stderr, "bench_rl: %s\n", err.msg);
            exit(1);
        }
        printf("{\"bench\": \"record_linkage\", \"release\": \"%s\", \"rows\": %zu, \"attributes\": 2, "
               "\"direction\": \"%s\", \"ms\": %.1f, \"cpu_ms\": %.1f, \"record_linkage\": %.17g}\n",
               release, n, dir ? "released" : "original", now_ms() - t0, cpu_ms() - c0, rl);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    static const size_t defaults[] = {1000, 10000, 100000};
    size_t nsizes = argc > 1 ? (size_t)argc - 1 : 3;
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = argc > 1 ? (size_t)atol(argv[s + 1]) : defaults[s];
        keps_rng *g = keps_rng_new_seeded(1);
        double *o = malloc(n * 2 * sizeof *o), *r = malloc(n * 2 * sizeof *r);
        if (!o || !r || n == 0) {
            fprintf(stderr, "bench_rl: bad size %zu\n", n);
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            o[2 * i] = 17 + (double)keps_rng_below(g, 74);
            o[2 * i + 1] = round((170 + 10 * gauss(g)) * 10) / 10;
        }
        run("identity", o, o, n);
        for (size_t i = 0; i < 2 * n; i++)
            r[i] = o[i] + 5 * gauss(g);
        run("noisy", o, r, n);
        /* group means of the sorted rows; the original sorted the same way
         * so row i of r releases row i of o */
        qsort(o, n, 2 * sizeof *o, cmp_row);
        for (size_t g0 = 0; g0 < n; g0 += 10) {
            size_t g1 = g0 + 10 < n ? g0 + 10 : n;
            for (int j = 0; j < 2; j++) {
                double sum = 0;
                for (size_t i = g0; i < g1; i++)
                    sum += o[2 * i + j];
                for (size_t i = g0; i < g1; i++)
                    r[2 * i + j] = sum / (double)(g1 - g0);
            }
        }
        run("groups10", o, r, n);
        free(o);
        free(r);
        keps_rng_free(g);
    }
    return 0;
}
