/* Shared by the (k,epsilon)-anonymity / DP microaggregation experiment and
 * benchmark programs in bench/ (header-only: each program is one file). */
#ifndef KEPS_BENCH_EXP_COMMON_H
#define KEPS_BENCH_EXP_COMMON_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "keps/kepsilon.h"
#include "keps/mondrian.h"
#include "keps/ola.h"
#include "keps/partition.h"

/* Running mean and sample standard deviation. */
typedef struct {
    double s, ss;
    size_t n;
} acc;

static inline void add(acc *a, double v)
{
    a->s += v;
    a->ss += v * v;
    a->n++;
}
static inline double mean(const acc *a)
{
    return a->n ? a->s / (double)a->n : NAN;
}
static inline double sd(const acc *a)
{
    double m = mean(a), v = a->n > 1 ? (a->ss - (double)a->n * m * m) / (double)(a->n - 1) : 0;
    return v > 0 ? sqrt(v) : 0;
}

/* The paper's Adult k-QIs (age, sex, race, marital-status; ARX hierarchies
 * in dir, age numeric for Mondrian), plus height as a fifth QI when asked
 * (OLA: interval hierarchy 2,4,8,16,32 cm; Mondrian: numeric). */
static inline keps_schema *adult_schema(keps_table *t, const char *dir, int mondrian, int with_height,
                                        keps_error *err)
{
    static const char *qis[] = {"age", "sex", "race", "marital-status"};
    keps_schema *s = keps_schema_new(t);
    char spec[1024];
    for (size_t q = 0; q < 4 && s; q++) {
        if (q == 0 && mondrian)
            snprintf(spec, sizeof spec, "age");
        else
            snprintf(spec, sizeof spec, "%s:%s/adult_hierarchy_%s.csv", qis[q], dir, qis[q]);
        if (keps_schema_add_qi(s, t, spec, err)) {
            keps_schema_free(s);
            return NULL;
        }
    }
    if (s && with_height && keps_schema_add_qi(s, t, mondrian ? "height" : "height:interval=2,4,8,16,32", err)) {
        keps_schema_free(s);
        return NULL;
    }
    return s;
}

/* k-anonymizes with OLA (suppression limit 5%, metric loss) or Mondrian;
 * fills cls (may be NULL) with the classes, KEPS_NONE = suppressed. Returns
 * the rows suppressed, or -1 (error or no OLA solution). */
static inline long kanon_classes(const char *algo, keps_schema *s, keps_table *t, size_t k, uint32_t *cls,
                                 keps_error *err)
{
    if (!strcmp(algo, "mondrian")) {
        keps_mondrian_result r;
        if (keps_mondrian(s, t, k, &r, err))
            return -1;
        if (cls)
            memcpy(cls, r.cls, t->nrows * sizeof *cls);
        keps_mondrian_result_free(&r);
        return 0;
    }
    keps_lattice *L;
    keps_ola_result r;
    keps_ola_params p = {.k = k, .suppress = 0.05, .metric = KEPS_METRIC_LOSS};
    if (keps_lattice_new(s, &L, err))
        return -1;
    long sup = keps_ola_run(L, &p, &r, err) || !r.found ? -1 : (long)r.suppressed;
    keps_partition part;
    if (sup >= 0 && cls) {
        if (keps_partition_from_node(L, r.levels, NULL, &part, err) || keps_partition_enforce(&part, NULL, k, NULL, err))
            sup = -1;
        for (size_t i = 0; sup >= 0 && i < t->nrows; i++)
            cls[i] = part.suppressed[part.class_of[i]] ? KEPS_NONE : part.class_of[i];
        keps_partition_free(&part);
    }
    keps_ola_result_free(&r); /* keps_ola_run zeroes it first */
    keps_lattice_free(L);
    return sup;
}

#endif
