/* Speed of randomized response (keps/rr.h): matrix construction, per-record
 * sampling and the four exact verifiers, on N records with n categories
 * (values spread over the categories, classes of 5 consecutive records).
 * One core, seeded rng. Prints one JSON object per line.
 * Usage: bench_rr [N]   (default 1000000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "keps/rr.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t N = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
    uint32_t *v = malloc(N * sizeof *v), *cls = malloc(N * sizeof *cls), *out = malloc(N * sizeof *out);
    keps_rng *rng = keps_rng_new_seeded(1);
    if (!v || !cls || !out || !rng)
        return 1;
    static const size_t ns[] = {2, 16, 128, 512};
    for (size_t a = 0; a < 4; a++) {
        size_t n = ns[a];
        for (size_t i = 0; i < N; i++) {
            v[i] = (uint32_t)((i * 7919u) % n);
            cls[i] = (uint32_t)(i / 5);
        }
        double *f = malloc(n * sizeof *f);
        keps_rr_frequencies(v, N, n, f);
        keps_rr_params par = {KEPS_RR_BOTH, 0.5, 0.5};
        keps_rr_matrix M;
        double t0 = now_s();
        if (keps_rr_matrix_for(&par, n, f, &M, NULL))
            return 1;
        double t1 = now_s();
        if (keps_rr_randomize(&M, v, N, rng, out, NULL))
            return 1;
        double t2 = now_s();
        keps_rr_levels ver;
        keps_rr_verified_levels(&M, v, cls, N, (N + 4) / 5, 5, 1, &ver);
        double t3 = now_s();
        if (keps_rr_apply(&par, n, v, N, rng, out, NULL)) /* the exact draw keps rr uses */
            return 1;
        double t4 = now_s();
        printf("{\"bench\": \"rr\", \"records\": %zu, \"categories\": %zu, \"mechanism\": \"both\", "
               "\"matrix_seconds\": %.4f, \"sample_seconds\": %.4f, \"records_per_second\": %.0f, "
               "\"exact_records_per_second\": %.0f, \"verify_seconds\": %.4f, \"verified_t\": %.6g}\n",
               N, n, t1 - t0, t2 - t1, (double)N / (t2 - t1), (double)N / (t4 - t3), t3 - t2, ver.mult_t);
        fflush(stdout);
        keps_rr_matrix_free(&M);
        free(f);
    }
    keps_rng_free(rng);
    free(v);
    free(cls);
    free(out);
    return 0;
}
