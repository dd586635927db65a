/* Samples per second of each DP sampler (one core, seeded ChaCha20 rng).
 * Prints one JSON object per line. Usage: bench_noise [samples [reps]]
 *
 * Each sampler runs `reps` times (default 5) on samples/reps draws; the
 * rate reported is the best run's ("samples_per_second"), with the median
 * beside it: the 2-core VM shares its cores, and a neighbour's burst only
 * ever slows a run down. Times are CPU time of the process. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "keps/expmech.h"
#include "keps/noise.h"
#include "keps/rng.h"
#include "keps/rr.h"
#include "keps/sample.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct job {
    keps_rng *r;
    double x;           /* the sampler's parameter */
    const double *u;    /* expmech utilities */
    size_t nu;
    keps_rr_sampler *rr;
} job;

static double run_u64(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += (double)(keps_rng_u64(j->r) >> 11);
    return acc;
}

static double run_laplace(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += keps_laplace(j->r, 100.0, j->x);
    return acc;
}

static double run_geometric(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += (double)keps_geometric_mech(j->r, 100, j->x, 1);
    return acc;
}

static double run_bernoulli(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += keps_rng_bernoulli_rational(j->r, 7, 10);
    return acc;
}

static double run_rr(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += keps_rr_sampler_apply(j->r, j->rr, (uint32_t)(i & 3));
    return acc;
}

static double run_expmech(job *j, long n)
{
    double acc = 0;
    for (long i = 0; i < n; i++)
        acc += (double)keps_expmech(j->r, j->u, j->nu, 1.0, 1.0);
    return acc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void bench(const char *name, const char *params, double (*fn)(job *, long), job *j, long n, int reps)
{
    long per = n / reps > 0 ? n / reps : 1;
    double rate[64], acc = 0;
    for (int k = 0; k < reps; k++) {
        double t0 = now_s();
        acc += fn(j, per);
        rate[k] = (double)per / (now_s() - t0);
    }
    qsort(rate, (size_t)reps, sizeof *rate, cmp_double);
    printf("{\"bench\": \"%s\", \"params\": {%s}, \"samples\": %ld, \"reps\": %d, "
           "\"samples_per_second\": %.0f, \"median_samples_per_second\": %.0f, \"mean\": %.6g}\n",
           name, params, per * reps, reps, rate[reps - 1], rate[reps / 2], acc / (double)(per * reps));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (reps < 1 || reps > 64)
        reps = 5;
    job j = {keps_rng_new_seeded(1), 0, NULL, 0, NULL};
    char p[160];

    bench("rng_u64", "", run_u64, &j, n, reps);

    double scales[] = {1.0, 1000.0};
    for (int k = 0; k < 2; k++) {
        j.x = scales[k];
        snprintf(p, sizeof p, "\"scale\": %g", scales[k]);
        bench("laplace", p, run_laplace, &j, n, reps);
    }

    double eps[] = {1.0, 0.1};
    for (int k = 0; k < 2; k++) {
        j.x = eps[k];
        snprintf(p, sizeof p, "\"epsilon\": %g, \"sensitivity\": 1", eps[k]);
        bench("geometric", p, run_geometric, &j, n, reps);
    }

    bench("bernoulli_rational", "\"beta\": \"7/10\"", run_bernoulli, &j, n, reps);

    double m[16];
    keps_transition_keep(0.6, 4, m);
    keps_rr_sampler rr;
    keps_rr_sampler_init(&rr, m, 4, NULL);
    j.rr = &rr;
    bench("rr", "\"categories\": 4, \"p\": 0.6", run_rr, &j, n, reps);
    keps_rr_sampler_free(&rr);

    /* Exponential mechanism: selections per second for a large candidate set
     * (the safela use: ~45,000 lattice nodes), flat and peaked utilities. */
    size_t nc = 45000;
    double *u = malloc(nc * sizeof *u);
    j.u = u;
    j.nu = nc;
    for (int peaked = 0; peaked < 2; peaked++) {
        for (size_t i = 0; i < nc; i++)
            u[i] = peaked ? -(double)i : (double)(i % 100) / 100.0;
        snprintf(p, sizeof p, "\"candidates\": %zu, \"utilities\": \"%s\", \"epsilon\": 1", nc,
                 peaked ? "-i (one dominant)" : "(i mod 100)/100");
        bench("expmech", p, run_expmech, &j, 2000, reps);
    }
    free(u);
    keps_rng_free(j.r);
    return 0;
}
