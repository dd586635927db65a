/* All-node evaluation of epsilon-safe LA (docs/spec.md 6): keps_safela_score over a
 * beta = 0.7 Bernoulli sample, full scan and level interpolation, 1 and 2
 * threads; plus one whole keps_safela_run. One JSON object per line.
 * Usage: bench_safela [adult [NQI [REPS [THREADS [INTERP]]]]]   Adult, the first NQI of its 9 QIs (all 9: 12,960 nodes)
 *        bench_safela cup DIR [REPS [THREADS [INTERP]]]          DIR/cup.csv with its 8 hierarchies (45,000 nodes)
 * REPS: repetitions, the best time is reported (default 5). THREADS (1 or 2)
 * and INTERP (0 full scan, 1 level interpolation) run only that scan and
 * skip the whole-run line; cpu_ms is the process's CPU time of the best rep. */
#include <math.h>
#include <string.h>

/* bench_adult.h has setup helpers this benchmark does not use */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "bench_adult.h"
#include "keps/safela.h"
#include "keps/sample.h"

static const char *const cup_qis[] = {"ZIP", "AGE", "GENDER", "INCOME", "STATE", "RAMNTALL", "NGIFTALL", "MINRAMNT"};

static void load_cup(const char *dir, keps_table **t, keps_schema **s)
{
    keps_error err = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/cup.csv", dir);
    if (keps_csv_read(path, NULL, t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    *s = keps_schema_new(*t);
    for (size_t i = 0; i < 8; i++) {
        char spec[4096];
        snprintf(spec, sizeof spec, "%s:%s/cup_hierarchy_%s.csv", cup_qis[i], dir, cup_qis[i]);
        if (keps_schema_add_qi(*s, *t, spec, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    int cup = argc > 2 && strcmp(argv[1], "cup") == 0;
    int nqi = !cup && argc > 2 ? atoi(argv[2]) : ADULT_NQI;
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    if (reps < 1)
        reps = 1;
    int only_threads = argc > 4 ? atoi(argv[4]) : 0, only_interp = argc > 5 ? atoi(argv[5]) : -1;
    if (nqi < 1 || nqi > ADULT_NQI)
        nqi = ADULT_NQI;
    keps_table *t;
    keps_schema *s;
    if (cup)
        load_cup(argv[2], &t, &s);
    else
        bench_load_adult(NULL, (size_t)nqi, &t, &s);
    keps_rng *rng = keps_rng_new_seeded(1);
    uint8_t *keep = malloc(t->nrows);
    size_t n = keps_sample_bernoulli(rng, t->nrows, 7, 10, keep);
    keps_error err = {0};
    for (int interp = 0; interp <= 1; interp++)
        for (int threads = 1; threads <= 2; threads++) {
            if ((only_threads && threads != only_threads) || (only_interp >= 0 && interp != only_interp))
                continue;
            double best = INFINITY, best_cpu = 0;
            keps_safela_scores sc;
            for (int r = 0; r < reps; r++) {
                double a = bench_now_ms(), ca = bench_cpu_ms();
                if (keps_safela_score(s, keep, 75, 2.0, interp, threads, &sc, &err)) {
                    fprintf(stderr, "%s\n", err.msg);
                    return 2;
                }
                double b = bench_now_ms();
                if (b - a < best) {
                    best = b - a;
                    best_cpu = bench_cpu_ms() - ca;
                }
                if (r + 1 < reps)
                    keps_safela_scores_free(&sc);
            }
            printf("{\"bench\":\"safela_score\",\"data\":\"%s\",\"qis\":%zu,\"rows\":%zu,\"sample\":%zu,\"k\":75,"
                   "\"interpolate\":%s,\"threads\":%d,\"nodes\":%llu,\"evaluated\":%llu,\"best_ms\":%.1f,"
                   "\"cpu_ms\":%.1f,\"reps\":%d}\n",
                   cup ? "cup" : "adult", s->nqi, t->nrows, n, interp ? "\"level\"" : "\"none\"", threads,
                   (unsigned long long)sc.nnodes, (unsigned long long)sc.evaluated, best, best_cpu, reps);
            keps_safela_scores_free(&sc);
        }
    if (only_threads || only_interp >= 0)
        goto out;
    keps_safela_params p = {.k = 75, .beta = "0.7", .epsilon_prime = 0.5, .epsilon = NAN, .penalty = 2.0};
    keps_safela_result r;
    double a = bench_now_ms();
    if (keps_safela_run(s, &p, rng, &r, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    printf("{\"bench\":\"safela_run\",\"data\":\"%s\",\"rows\":%zu,\"total_ms\":%.1f,\"sample_ms\":%.1f,"
           "\"scan_ms\":%.1f,\"select_ms\":%.1f,\"release_ms\":%.1f}\n",
           cup ? "cup" : "adult", t->nrows, bench_now_ms() - a, r.ms_sample, r.ms_scan, r.ms_select, r.ms_release);
    keps_safela_result_free(&r);
out:
    free(keep);
    keps_rng_free(rng);
    keps_schema_free(s);
    keps_table_free(t);
    return 0;
}
