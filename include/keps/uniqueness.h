/* keps: population uniqueness estimated from a sample's class sizes.
 *
 * A record is a population unique when no other person in the population
 * shares its quasi-identifier values. From the class-size distribution of a
 * sample of n records drawn from a population of N (sampling fraction
 * f = n / N), four estimates of the number of population uniques, exactly as
 * ARX 3.9.2 computes them (docs/spec.md, "Re-identification risk"):
 *  - Pitman: Pitman's sampling formula (Hoshino 2001), parameters by maximum
 *    likelihood (Newton-Raphson);
 *  - Zayatz (1991): sample uniques times the estimated probability that a
 *    sample unique is a population unique (hypergeometric sampling);
 *  - SNB: the shifted negative binomial model (Chen & McNulty 1998), the
 *    number of population classes by Shlosser's estimator (Haas et al.);
 *  - Dankar: the decision rule of Dankar, El Emam, Neisa, Roffey (2012):
 *    Pitman when f <= 0.1 (Zayatz if Pitman finds nothing), otherwise the
 *    smaller of Zayatz and SNB (Zayatz if SNB finds nothing).
 * Each is also given as a share of the population, uniques / N: the
 * fraction of the population's records estimated to be unique. */
#ifndef KEPS_UNIQUENESS_H
#define KEPS_UNIQUENESS_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/risk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    KEPS_UNIQ_PITMAN = 0,
    KEPS_UNIQ_ZAYATZ = 1,
    KEPS_UNIQ_SNB = 2,
    KEPS_UNIQ_DANKAR = 3,
    KEPS_UNIQ_NONE = 4 /* Dankar's rule picked nothing: the sample has no unique */
} keps_uniq_model;

#define KEPS_UNIQ_MODELS 4

typedef struct keps_uniqueness {
    double population;         /* N */
    double sampling_fraction;  /* records in classes / N */
    size_t sample_uniques;     /* classes of size 1 */
    /* Estimated population uniques per model (index keps_uniq_model), and
     * as a share of N. NaN when the model found no estimate (its solver did
     * not converge, or the estimate left [0, N] or was 0 although the sample
     * has uniques: ARX reports 0 and calls the estimate unavailable). With
     * no sample unique every estimate is 0. */
    double uniques[KEPS_UNIQ_MODELS];
    double share[KEPS_UNIQ_MODELS];
    keps_uniq_model model; /* the model Dankar's rule used for uniques[KEPS_UNIQ_DANKAR] */
} keps_uniqueness;

/* All four estimates for the class sizes h of a sample drawn from a
 * population of `population` records (a whole number, at least h->records
 * and at least 1; KEPS_EINPUT otherwise). An empty h gives every estimate 0. */
keps_status keps_population_uniqueness(const keps_class_sizes *h, double population, keps_uniqueness *out,
                                       keps_error *err);

/* The population size ARX derives from a sampling fraction: rows / fraction
 * rounded to the nearest whole number (fraction in (0, 1]). */
double keps_population_from_fraction(size_t rows, double fraction);

/* "pitman", "zayatz", "snb", "dankar", "none". */
const char *keps_uniq_model_name(keps_uniq_model m);

#ifdef __cplusplus
}
#endif
#endif
