/* Re-identification risk benchmark on Adult (or an Adult-like CSV): the
 * first nqi of its nine columns as quasi-identifiers. Times each figure of
 * keps risk separately, then all of them as the command computes them
 * (--max-combination 2, --sampling-fraction 0.01), and the special-unique
 * search for MSU sizes 1..max. One JSON object per line; wall and CPU ms
 * (single-threaded: they agree on an idle machine).
 *
 *   build/bench/bench_risk [CSV [NQI [MAX_MSU_SIZE]]]   (defaults: adult.csv, 9, 9)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"

#include "keps/csv.h"
#include "keps/risk.h"
#include "keps/suda.h"
#include "keps/uniqueness.h"

static const char *const qis[] = {"sex", "age", "race", "marital-status", "education",
                                  "native-country", "workclass", "occupation", "salary-class"};

static void check(keps_status st, const keps_error *err)
{
    if (st) {
        fprintf(stderr, "bench_risk: %s\n", err->msg);
        exit(1);
    }
}

static void line(const char *what, size_t rows, size_t nqi, double t0, double c0, const char *extra)
{
    printf("{\"bench\": \"risk\", \"figure\": \"%s\", \"rows\": %zu, \"qis\": %zu, \"ms\": %.1f, \"cpu_ms\": %.1f%s}\n",
           what, rows, nqi, now_ms() - t0, cpu_ms() - c0, extra);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
    const char *csv = argc > 1 ? argv[1] : path;
    size_t nqi = argc > 2 ? (size_t)atol(argv[2]) : 9, maxk = argc > 3 ? (size_t)atol(argv[3]) : nqi;
    if (nqi < 1 || nqi > 9 || maxk < 1 || maxk > nqi) {
        fprintf(stderr, "bench_risk: NQI in 1..9, MAX_MSU_SIZE in 1..NQI\n");
        return 2;
    }
    keps_table *t;
    keps_error err = {0};
    check(keps_csv_read(csv, NULL, &t, &err), &err);
    size_t cols[9];
    for (size_t i = 0; i < nqi; i++) {
        int c = keps_table_column(t, qis[i]);
        if (c < 0) {
            fprintf(stderr, "bench_risk: %s has no column %s\n", csv, qis[i]);
            return 2;
        }
        cols[i] = (size_t)c;
    }
    char extra[256];
    double t0 = now_ms(), c0 = cpu_ms();
    keps_sample_risk s;
    check(keps_sample_risk_compute(t, cols, nqi, KEPS_SUPPRESSED_EXCLUDE, NULL, NULL, &s, &err), &err);
    snprintf(extra, sizeof extra, ", \"classes\": %zu", s.sizes.classes);
    line("sample_risk", t->nrows, nqi, t0, c0, extra);
    static const double fractions[] = {0.01, 0.3, 0.9};
    for (int i = 0; i < 3; i++) {
        t0 = now_ms(), c0 = cpu_ms();
        keps_uniqueness u;
        check(keps_population_uniqueness(&s.sizes, keps_population_from_fraction(t->nrows, fractions[i]), &u, &err),
              &err);
        snprintf(extra, sizeof extra, ", \"sampling_fraction\": %g, \"dankar\": %.17g, \"model\": \"%s\"",
                 fractions[i], u.share[KEPS_UNIQ_DANKAR], keps_uniq_model_name(u.model));
        line("population_uniqueness", t->nrows, nqi, t0, c0, extra);
    }
    t0 = now_ms(), c0 = cpu_ms();
    keps_individual_risk ir;
    check(keps_individual_risk_compute(t, cols, nqi, NULL, KEPS_SUPPRESSED_EXCLUDE, &ir, &err), &err);
    line("individual_risk", t->nrows, nqi, t0, c0, "");
    for (size_t m = 2; m <= nqi; m += nqi - 2 > 0 ? nqi - 2 : 1) {
        t0 = now_ms(), c0 = cpu_ms();
        keps_attribute_risks a;
        check(keps_attribute_risks_compute(t, cols, nqi, m, NULL, KEPS_SUPPRESSED_EXCLUDE, &a, &err), &err);
        snprintf(extra, sizeof extra, ", \"max_combination\": %zu, \"combinations\": %zu", m, a.n);
        line("attribute_risks", t->nrows, nqi, t0, c0, extra);
        keps_attribute_risks_free(&a);
        if (nqi <= 2)
            break;
    }
    for (size_t k = 1; k <= maxk; k++) {
        t0 = now_ms(), c0 = cpu_ms();
        keps_suda su;
        check(keps_suda_compute(t, cols, nqi, k, KEPS_SUDA_DIS_FRACTION, KEPS_SUPPRESSED_EXCLUDE, &su, &err), &err);
        snprintf(extra, sizeof extra, ", \"max_msu_size\": %zu, \"special_uniques\": %zu, \"total_score\": %.17g", k,
                 su.special_uniques, su.total_score);
        line("suda", t->nrows, nqi, t0, c0, extra);
        keps_suda_free(&su);
    }
    /* everything keps risk -i computes by default (--max-combination 2,
     * --sampling-fraction 0.01), as one run */
    t0 = now_ms(), c0 = cpu_ms();
    {
        keps_sample_risk s2;
        keps_uniqueness u;
        keps_individual_risk ir2;
        keps_attribute_risks a;
        keps_suda su;
        size_t m = nqi < 2 ? nqi : 2;
        check(keps_sample_risk_compute(t, cols, nqi, KEPS_SUPPRESSED_EXCLUDE, NULL, NULL, &s2, &err), &err);
        check(keps_population_uniqueness(&s2.sizes, keps_population_from_fraction(t->nrows, 0.01), &u, &err), &err);
        check(keps_individual_risk_compute(t, cols, nqi, NULL, KEPS_SUPPRESSED_EXCLUDE, &ir2, &err), &err);
        check(keps_attribute_risks_compute(t, cols, nqi, m, NULL, KEPS_SUPPRESSED_EXCLUDE, &a, &err), &err);
        check(keps_suda_compute(t, cols, nqi, m, KEPS_SUDA_DIS_FRACTION, KEPS_SUPPRESSED_EXCLUDE, &su, &err), &err);
        line("all_default", t->nrows, nqi, t0, c0, "");
        keps_sample_risk_free(&s2);
        keps_individual_risk_free(&ir2);
        keps_attribute_risks_free(&a);
        keps_suda_free(&su);
    }
    keps_individual_risk_free(&ir);
    keps_sample_risk_free(&s);
    keps_table_free(t);
    return 0;
}
