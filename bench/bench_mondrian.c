/* Mondrian benchmark: Adult (age numeric, the other 8 QIs by their ARX
 * hierarchies) for k in {2,5,10,50,100}; then synthetic rows drawn
 * independently from Adult's column marginals (seeded keps_rng) for
 * k in {5, 100}. One JSON object per line.
 *
 *   build/bench/bench_mondrian [synthetic_rows (default 1000000)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"

#include "keps/csv.h"
#include "keps/mondrian.h"
#include "keps/rng.h"
#include "keps/schema.h"

static const char *hier_qis[] = {"sex",       "race",       "marital-status", "education",
                                 "native-country", "workclass", "occupation", "salary-class"};

static keps_schema *schema(keps_table *t)
{
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    if (keps_schema_add_qi(s, t, "age", &err))
        goto fail;
    for (size_t i = 0; i < sizeof hier_qis / sizeof *hier_qis; i++) {
        char spec[1024];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", hier_qis[i], KEPS_SOURCE_DIR,
                 hier_qis[i]);
        if (keps_schema_add_qi(s, t, spec, &err))
            goto fail;
    }
    return s;
fail:
    fprintf(stderr, "bench_mondrian: %s\n", err.msg);
    exit(1);
}

static void run(const char *data, keps_table *t, const keps_schema *s, size_t k)
{
    keps_mondrian_result r;
    keps_error err = {0};
    double t0 = now_ms(), c0 = cpu_ms();
    if (keps_mondrian(s, t, k, &r, &err)) {
        fprintf(stderr, "bench_mondrian: %s\n", err.msg);
        exit(1);
    }
    double ms = now_ms() - t0, cms = cpu_ms() - c0;
    printf("{\"bench\": \"mondrian\", \"data\": \"%s\", \"rows\": %zu, \"qis\": %zu, \"k\": %zu, \"ms\": %.1f, \"cpu_ms\": %.1f, "
           "\"classes\": %zu, \"ncp\": %.6f, \"discernibility\": %.6g}\n",
           data, t->nrows, s->nqi, k, ms, cms, r.nclasses, r.ncp, r.discernibility);
    fflush(stdout);
    keps_mondrian_result_free(&r);
}

/* n rows, each cell drawn from the same column of a random Adult row
 * (independent marginals). */
static keps_table *synthetic(const keps_table *a, size_t n)
{
    const char **names = malloc(a->ncols * sizeof *names);
    for (size_t j = 0; j < a->ncols; j++)
        names[j] = a->cols[j].name;
    keps_error err = {0};
    keps_table *t = keps_table_new(a->ncols, names, NULL, "<synthetic>", &err);
    keps_rng *g = keps_rng_new_seeded(2006);
    const char **f = malloc(a->ncols * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < a->ncols; j++)
            f[j] = keps_table_str(a, j, keps_rng_below(g, a->nrows));
        if (keps_table_append(t, f, NULL, 0, &err)) {
            fprintf(stderr, "bench_mondrian: %s\n", err.msg);
            exit(1);
        }
    }
    keps_rng_free(g);
    free(f);
    free(names);
    return t;
}

int main(int argc, char **argv)
{
    size_t nsyn = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
    keps_table *t;
    keps_error err = {0};
    if (keps_csv_read(KEPS_SOURCE_DIR "/data/adult/adult.csv", NULL, &t, &err)) {
        fprintf(stderr, "bench_mondrian: %s\n", err.msg);
        return 1;
    }
    keps_schema *s = schema(t);
    static const size_t ks[] = {2, 5, 10, 50, 100};
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        run("adult", t, s, ks[i]);
    double t0 = now_ms();
    keps_table *syn = synthetic(t, nsyn);
    fprintf(stderr, "bench_mondrian: %zu synthetic rows built in %.0f ms\n", nsyn, now_ms() - t0);
    keps_schema *ss = schema(syn);
    run("adult-marginals", syn, ss, 5);
    run("adult-marginals", syn, ss, 100);
    keps_schema_free(ss);
    keps_table_free(syn);
    keps_schema_free(s);
    keps_table_free(t);
    return 0;
}
