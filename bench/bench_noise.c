/* Samples per second of each DP sampler (one core, seeded ChaCha20 rng).
 * Prints one JSON object per line. Usage: bench_noise [samples] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "keps/expmech.h"
#include "keps/noise.h"
#include "keps/rng.h"
#include "keps/sample.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: robust on a shared machine */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void report(const char *name, const char *params, double n, double secs, double check)
{
    printf("{\"bench\": \"%s\", %s, \"samples\": %.0f, \"seconds\": %.4f, "
           "\"samples_per_second\": %.0f, \"mean\": %.6g}\n",
           name, params, n, secs, n / secs, check);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    keps_rng *r = keps_rng_new_seeded(1);
    double t0, acc;

    t0 = now_s();
    acc = 0;
    for (long i = 0; i < n; i++)
        acc += keps_rng_u64(r) >> 11;
    report("rng_u64", "\"params\": {}", (double)n, now_s() - t0, acc / (double)n);

    double scales[] = {1.0, 1000.0};
    for (int k = 0; k < 2; k++) {
        char p[64];
        snprintf(p, sizeof p, "\"params\": {\"scale\": %g}", scales[k]);
        t0 = now_s();
        acc = 0;
        for (long i = 0; i < n; i++)
            acc += keps_laplace(r, 100.0, scales[k]);
        report("laplace", p, (double)n, now_s() - t0, acc / (double)n);
    }

    double eps[] = {1.0, 0.1};
    for (int k = 0; k < 2; k++) {
        char p[64];
        snprintf(p, sizeof p, "\"params\": {\"epsilon\": %g, \"sensitivity\": 1}", eps[k]);
        t0 = now_s();
        acc = 0;
        for (long i = 0; i < n; i++)
            acc += (double)keps_geometric_mech(r, 100, eps[k], 1);
        report("geometric", p, (double)n, now_s() - t0, acc / (double)n);
    }

    t0 = now_s();
    acc = 0;
    for (long i = 0; i < n; i++)
        acc += keps_rng_bernoulli_rational(r, 7, 10);
    report("bernoulli_rational", "\"params\": {\"beta\": \"7/10\"}", (double)n, now_s() - t0, acc / (double)n);

    {
        double m[16];
        keps_transition_keep(0.6, 4, m);
        keps_rr_sampler rr;
        keps_rr_sampler_init(&rr, m, 4, NULL);
        t0 = now_s();
        acc = 0;
        for (long i = 0; i < n; i++)
            acc += keps_rr_sampler_apply(r, &rr, (uint32_t)(i & 3));
        report("rr", "\"params\": {\"categories\": 4, \"p\": 0.6}", (double)n, now_s() - t0, acc / (double)n);
        keps_rr_sampler_free(&rr);
    }

    /* Exponential mechanism: selections per second for a large candidate set
     * (the safela use: ~45,000 lattice nodes), flat and peaked utilities. */
    size_t nc = 45000;
    double *u = malloc(nc * sizeof *u);
    for (int peaked = 0; peaked < 2; peaked++) {
        for (size_t i = 0; i < nc; i++)
            u[i] = peaked ? -(double)i : (double)(i % 100) / 100.0;
        long reps = 2000;
        char p[128];
        snprintf(p, sizeof p, "\"params\": {\"candidates\": %zu, \"utilities\": \"%s\", \"epsilon\": 1}", nc,
                 peaked ? "-i (one dominant)" : "(i mod 100)/100");
        t0 = now_s();
        acc = 0;
        for (long i = 0; i < reps; i++)
            acc += (double)keps_expmech(r, u, nc, 1.0, 1.0);
        report("expmech", p, (double)reps, now_s() - t0, acc / (double)reps);
    }
    free(u);
    keps_rng_free(r);
    return 0;
}
