/* keps: epsilon-safe lattice anonymization (SPEC 6; Li, Qardaji, Su 2012;
 * thesis, seed 004) and its privacy calculator.
 *
 * The mechanism: keep every record with probability beta (Bernoulli
 * sampling); over the sample (n records) score every node of the full-domain
 * lattice with u = -(G + f*S), G = (1/q) sum_i l_i/h_i, S = share of sampled
 * records in classes smaller than k; pick a node with the exponential
 * mechanism (sensitivity f*k/n, weight exp(eps' u / (2 du))); generalize the
 * sample to it and suppress classes smaller than k.
 *
 * Guarantee: (beta, eps, delta)-DP under sampling with eps = eps' - ln(1-beta)
 * (or any larger eps) and delta = d(k, beta, eps - eps') below. */
#ifndef KEPS_SAFELA_H
#define KEPS_SAFELA_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- delta */

/* delta = d(k, beta, eps - eps') = max_{n >= n_min} P[Bin(n, beta) > gamma n],
 * gamma = (e^g - 1 + beta) / e^g with g = eps - eps', n_min = ceil(k/gamma - 1).
 * Ties: when gamma*n is an integer (up to floating-point error) the term
 * j = gamma*n is included. That can only raise delta (the stated guarantee
 * stays valid), it is exact for every n where gamma*n is not an integer, and
 * it reproduces the thesis's delta tables (Tables 5.1, 5.5), which were
 * computed in floating point where gamma*n landed just below the integer. */
typedef struct keps_delta_result {
    double delta;      /* the maximum tail probability (upper bound if capped) */
    double log_delta;  /* natural log of delta (finite even when delta underflows) */
    double gamma;
    double eps_gap;    /* eps - eps' used */
    long n_min;        /* ceil(k/gamma - 1) */
    long n_argmax;     /* the n attaining the maximum */
    long n_last;       /* last n evaluated (the stopping rule fired after it) */
    int capped;        /* 1: search stopped by the cap; delta is the Chernoff bound there */
} keps_delta_result;

/* eps - eps' for the default eps = eps' - ln(1 - beta): -ln(1 - beta). */
double keps_safela_default_gap(double beta);

/* Computes d(k, beta, gap). gap = eps - eps' must be >= -ln(1-beta)
 * (the theorem's condition); pass a NaN for the default -ln(1-beta).
 * k >= 1, 0 < beta < 1. */
keps_status keps_safela_delta(long k, double beta, double gap, keps_delta_result *r, keps_error *err);

/* Smallest k in [1, max_k] with d(k, beta, gap) <= target (delta is
 * non-increasing in k because n_min is non-decreasing). KEPS_EJOB if even
 * max_k does not reach the target. r receives the delta of the k found. */
keps_status keps_safela_min_k(double target, double beta, double gap, long max_k, long *k,
                              keps_delta_result *r, keps_error *err);

/* log of the binomial pmf f(j; n, p), accurate to a few ulps for n up to
 * 10^9 (Loader's saddle-point form; no lgamma cancellation). */
double keps_log_binom_pmf(long j, long n, double p);

/* log P[Bin(n, p) >= a], summed in log space from a upwards; -inf if a > n.
 * Requires a >= n*p (upper tail: the terms decrease from a on). */
double keps_log_binom_upper_tail(long a, long n, double p);

#ifdef __cplusplus
}
#endif

#endif
