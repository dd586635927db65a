/* Run time of (k,epsilon)-anonymity against k-anonymity with height as one
 * more generalized quasi-identifier (Holohan et al. 2017, Figs 7 and 8), on
 * data/adult/adult_height.csv. One JSON object per line:
 *   {"bench":"kepsilon_vs_kanon","algorithm":..,"k":..,"kanon_ms":..,
 *    "kepsilon_ms":..,"kanon4_ms":..,"noise_ms":..,"speedup":..,"reps":..}
 * (kanon4_ms + noise_ms = kepsilon_ms: its two parts, medians apart)
 * kanon: the k-anonymization of age, sex, race, marital-status AND height
 *   (OLA: height with the interval hierarchy 2,4,8,16,32 cm; Mondrian:
 *   height numeric).
 * kepsilon: the k-anonymization of the four QIs, then keps_kepsilon_run on
 *   height (epsilon 1, scale ec, no confidence).
 * Both exclude reading the CSV and building the schema. Times are process
 * CPU milliseconds (all threads), median of REPS runs.
 * Usage: bench_kepsilon [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exp_common.h"
#include "keps/csv.h"

/* Process CPU time (all threads): less disturbed than wall time on the
 * shared machine, and what the work costs. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    static const size_t ks[] = {2, 5, 10, 20, 50, 100};
    static const char *algos[] = {"ola", "mondrian"};
    char path[1024];
    snprintf(path, sizeof path, "%s/data/adult/adult_height.csv", KEPS_SOURCE_DIR);
    keps_table *t;
    keps_error err = {0};
    if (keps_csv_read(path, NULL, &t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int hc = keps_table_column(t, "height");
    keps_table_numeric(t, (size_t)hc, &err);
    size_t n = t->nrows;
    double *h = malloc(n * sizeof *h), *ta = malloc((size_t)reps * sizeof *ta), *tb = malloc((size_t)reps * sizeof *tb);
    double *tc = malloc((size_t)reps * sizeof *tc), *td = malloc((size_t)reps * sizeof *td);
    uint32_t *cls = malloc(n * sizeof *cls);
    for (size_t i = 0; i < n; i++)
        h[i] = keps_table_num(t, (size_t)hc, i);
    keps_rng *rng = keps_rng_new_seeded(7);
    for (int a = 0; a < 2; a++) {
        int mond = a == 1;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/data/adult", KEPS_SOURCE_DIR);
        keps_schema *s5 = adult_schema(t, dir, mond, 1, &err), *s4 = adult_schema(t, dir, mond, 0, &err);
        if (!s5 || !s4)
            return 2;
        for (size_t b = 0; b < sizeof ks / sizeof *ks; b++) {
            int ok = 1;
            for (int r = 0; r < reps && ok; r++) {
                double t0 = now_ms();
                ok = kanon_classes(algos[a], s5, t, ks[b], NULL, &err) >= 0;
                double t1 = now_ms();
                ok = ok && kanon_classes(algos[a], s4, t, ks[b], cls, &err) >= 0;
                double t15 = now_ms();
                keps_kepsilon_params p = {.k = ks[b], .epsilon = 1, .scale = KEPS_KSCALE_EC};
                keps_kepsilon_result res;
                ok = ok && keps_kepsilon_run(cls, n, h, 1, &p, rng, &res, NULL) == KEPS_OK;
                double t2 = now_ms();
                if (ok)
                    keps_kepsilon_result_free(&res);
                ta[r] = t1 - t0;
                tb[r] = t2 - t1;
                tc[r] = t15 - t1;
                td[r] = t2 - t15;
            }
            if (!ok) {
                printf("{\"bench\":\"kepsilon_vs_kanon\",\"algorithm\":\"%s\",\"k\":%zu,\"error\":\"no solution\"}\n",
                       algos[a], ks[b]);
                continue;
            }
            qsort(ta, (size_t)reps, sizeof *ta, cmpd);
            qsort(tb, (size_t)reps, sizeof *tb, cmpd);
            qsort(tc, (size_t)reps, sizeof *tc, cmpd);
            qsort(td, (size_t)reps, sizeof *td, cmpd);
            double ma = ta[reps / 2], mb = tb[reps / 2];
            printf("{\"bench\":\"kepsilon_vs_kanon\",\"algorithm\":\"%s\",\"k\":%zu,\"kanon_ms\":%.3f,"
                   "\"kepsilon_ms\":%.3f,\"kanon4_ms\":%.3f,\"noise_ms\":%.3f,\"speedup\":%.2f,\"reps\":%d}\n",
                   algos[a], ks[b], ma, mb, tc[reps / 2], td[reps / 2], ma / mb, reps);
            fflush(stdout);
        }
        keps_schema_free(s5);
        keps_schema_free(s4);
    }
    keps_rng_free(rng);
    free(h);
    free(ta);
    free(tb);
    free(tc);
    free(td);
    free(cls);
    keps_table_free(t);
    return 0;
}
