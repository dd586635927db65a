/* Experiment: what keps_audit can detect. Laplace with claimed epsilon 1
 * (b = 1, neighbours 0 and 1) whose scale is multiplied by f, so the true
 * epsilon is 1/f; for several trial counts and seeds, does the audit flag a
 * violation, and how close is its lower bound to the truth?
 * Usage: bench_audit_power [out.csv [RUNS]]   (prints the same rows as JSON lines)
 * RUNS: runs per (factor, trials) point, at seeds 1..RUNS (default 3; the
 * rows of seeds 1..n are the same whatever RUNS >= n is). One run of all 18
 * points takes about 3 s on one core, mostly the 10^6-trial audits:
 * docs/experiments.md uses RUNS = 50 (about 2.5 min). */
#include <stdio.h>
#include <stdlib.h>

#include "keps/audit.h"
#include "keps/noise.h"

int main(int argc, char **argv)
{
    uint64_t runs = 3;
    if (argc > 2) {
        char *end;
        unsigned long long v = strtoull(argv[2], &end, 10);
        if (*argv[2] == '\0' || *end != '\0' || v == 0 || v > 100000) {
            fprintf(stderr, "bench_audit_power: RUNS must be an integer in 1..100000\n");
            return 2;
        }
        runs = v;
    }
    FILE *csv = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !csv) {
        perror(argv[1]);
        return 2;
    }
    if (csv)
        fprintf(csv, "scale_factor,true_epsilon,claimed_epsilon,trials,seed,epsilon_hat,epsilon_lower,"
                     "epsilon_upper,violation\n");
    const double factors[] = {1.0, 0.95, 0.9, 0.8, 0.67, 0.5};
    const size_t trials[] = {10000, 100000, 1000000};
    for (size_t fi = 0; fi < sizeof factors / sizeof *factors; fi++) {
        for (size_t ti = 0; ti < 3; ti++) {
            for (uint64_t seed = 1; seed <= runs; seed++) {
                keps_rng *r = keps_rng_new_seeded(seed);
                keps_audit_laplace m = {0.0, 1.0, 1.0, factors[fi]};
                keps_audit_opts o;
                keps_audit_defaults(&o);
                o.epsilon = 1.0;
                o.trials = trials[ti];
                keps_audit_result res;
                if (keps_audit_run(r, keps_audit_laplace_fn, &m, &o, &res, NULL) != 0)
                    return 1;
                printf("{\"bench\": \"audit_power\", \"scale_factor\": %g, \"true_epsilon\": %.4f, \"trials\": %zu, "
                       "\"seed\": %llu, \"epsilon_hat\": %.4f, \"epsilon_lower\": %.4f, \"epsilon_upper\": %.4f, "
                       "\"violation\": %d}\n",
                       factors[fi], 1 / factors[fi], trials[ti], (unsigned long long)seed, res.epsilon_hat,
                       res.epsilon_lower, res.epsilon_upper, res.violation);
                if (csv)
                    fprintf(csv, "%g,%.6f,1,%zu,%llu,%.6f,%.6f,%.6f,%d\n", factors[fi], 1 / factors[fi], trials[ti],
                            (unsigned long long)seed, res.epsilon_hat, res.epsilon_lower, res.epsilon_upper,
                            res.violation);
                keps_rng_free(r);
            }
        }
    }
    if (csv)
        fclose(csv);
    return 0;
}
