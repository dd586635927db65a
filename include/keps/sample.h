/* keps: record sampling, categorical sampling and randomized response (docs/spec.md 8).
 * All randomness through keps_rng; exact wherever the probability is given
 * exactly (decimals, rationals, dyadic doubles). */
#ifndef KEPS_SAMPLE_H
#define KEPS_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses a probability written as a decimal ("0.7", ".25", "1", "0"), with
 * an optional exponent ("1e-6", "2.5E-3"), or a fraction ("7/10") into
 * num/den (reduced) with 0 <= num <= den <= 10^18: the value exactly, so
 * 1e-19 is refused rather than rounded.
 * Returns 0, or KEPS_EINPUT with a message saying what is wrong. */
int keps_parse_probability(const char *s, uint64_t *num, uint64_t *den, keps_error *err);

/* Bernoulli record sampling: keep[i] = 1 with probability exactly num/den,
 * independently for i < n. Returns the number kept. */
size_t keps_sample_bernoulli(keps_rng *r, size_t n, uint64_t num, uint64_t den, uint8_t *keep);
/* Same with beta as a decimal/fraction string (exact): KEPS_EINPUT on a bad
 * string; *kept gets the count. */
int keps_sample_bernoulli_str(keps_rng *r, size_t n, const char *beta, uint8_t *keep, size_t *kept,
                              keps_error *err);

/* Categorical sampling from weights p[0..n) (>= 0, not all 0, need not sum
 * to 1). Weights are fixed-point with 62 bits relative to their sum (exact
 * for every weight >= 2^-9 of the sum, which covers RR matrices); then an
 * exact uniform integer picks the category. */
typedef struct keps_categorical {
    uint32_t n;
    uint64_t *cum;  /* cum[i] = sum of integer weights 0..i */
} keps_categorical;
int keps_categorical_init(keps_categorical *c, const double *p, uint32_t n, keps_error *err);
uint32_t keps_categorical_draw(keps_rng *r, const keps_categorical *c);
void keps_categorical_free(keps_categorical *c);
/* One-shot (builds and frees a table: use keps_categorical for many draws);
 * returns n on bad weights. */
uint32_t keps_sample_categorical(keps_rng *r, const double *p, uint32_t n);

/* The keep-or-uniform matrix of Ekenstedt et al.: P[y|x] = p*[x==y] + (1-p)/n.
 * m has n*n entries. */
void keps_transition_keep(double p, uint32_t n, double *m);

#ifdef __cplusplus
}
#endif
#endif
