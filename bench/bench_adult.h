/* Loading Adult (or an Adult-like CSV) with its nine ARX hierarchies, for
 * the lattice/OLA benchmarks. */
#ifndef KEPS_BENCH_ADULT_H
#define KEPS_BENCH_ADULT_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/schema.h"

static const char *const adult_qis[] = {"sex", "age", "race", "marital-status", "education",
                                        "native-country", "workclass", "occupation", "salary-class"};
#define ADULT_NQI 9

static double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of the whole process (every thread), ms. */
static inline double bench_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Loads csv (NULL = bundled adult.csv) and binds the bundled hierarchies of
 * the first nqi QIs. Exits on error. */
static void bench_load_adult(const char *csv, size_t nqi, keps_table **t, keps_schema **s)
{
    keps_error err = {0};
    char path[4096];
    if (!csv) {
        snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
        csv = path;
    }
    if (keps_csv_read(csv, NULL, t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    *s = keps_schema_new(*t);
    for (size_t i = 0; i < nqi; i++) {
        char spec[4096];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", adult_qis[i], KEPS_SOURCE_DIR,
                 adult_qis[i]);
        if (keps_schema_add_qi(*s, *t, spec, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            exit(2);
        }
    }
}

/* An Adult-like data set, its schema and lattice, with timings. */
typedef struct bench_data {
    keps_table *t;
    keps_schema *s;
    keps_lattice *L;
    double load_ms, lattice_ms;
} bench_data;

/* Loads csv (NULL = bundled Adult) with all nine QIs; exits on error. */
static void bench_setup(const char *csv, bench_data *d)
{
    keps_error err = {0};
    double t0 = bench_now_ms();
    bench_load_adult(csv, ADULT_NQI, &d->t, &d->s);
    double t1 = bench_now_ms();
    if (keps_lattice_new(d->s, &d->L, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    d->load_ms = t1 - t0;
    d->lattice_ms = bench_now_ms() - t1;
}

static void bench_teardown(bench_data *d)
{
    keps_lattice_free(d->L);
    keps_schema_free(d->s);
    keps_table_free(d->t);
}

#endif
