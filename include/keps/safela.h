/* keps: epsilon-safe lattice anonymization (docs/spec.md 6; Li, Qardaji, Su 2012;
 * Li 2019, thesis) and its privacy calculator.
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
#include "keps/guarantee.h"

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


/* ------------------------------------------------------------ mechanism */

/* Scores of every lattice node over a set of rows: node ids as lattice.h
 * (mixed radix, stride_0 = 1). */
typedef struct keps_safela_scores {
    uint64_t nnodes;
    size_t q;
    int *height;          /* [q] */
    size_t rows;          /* n: rows scored */
    double *gen;          /* [nnodes] G = (1/q) sum l_i/h_i */
    double *supp;         /* [nnodes] S = share of rows in classes < k (interpolated nodes: see below) */
    double *u;            /* [nnodes] -(G + f S) */
    uint8_t *interpolated;/* [nnodes] 1 for odd-level nodes under level interpolation */
    uint64_t evaluated;   /* nodes whose classes were counted */
} keps_safela_scores;

/* Scores every node over the rows with keep[r] != 0 (keep NULL: all rows).
 * interpolate: only nodes with an even level sum are evaluated; an odd node
 * gets the mean u (and the mean S, used for the good-node share only) of its
 * neighbours one level up and one level down (thesis 3.3). Uses nthreads
 * threads (<= 0: 2). */
keps_status keps_safela_score(const keps_schema *s, const uint8_t *keep, size_t k, double penalty, int interpolate,
                              int nthreads, keps_safela_scores *sc, keps_error *err);
void keps_safela_scores_free(keps_safela_scores *sc);

/* "Good" node (thesis 4.2.1): S < 0.15 and G < 0.6. */
int keps_safela_good(const keps_safela_scores *sc, uint64_t id);

typedef struct keps_safela_params {
    size_t k;
    const char *beta;        /* sampling probability as written ("0.7", "7/10"): sampled exactly */
    double epsilon_prime;    /* of the exponential mechanism */
    double epsilon;          /* NaN: eps' - ln(1 - beta); else >= that */
    double penalty;          /* f */
    int interpolate;         /* level-based interpolation */
    int nthreads;            /* <= 0: 2 */
    const uint8_t *sample;   /* NULL: keps_safela_run draws the Bernoulli(beta) sample itself.
                                Else sample[i] != 0 marks the rows the caller drew, each
                                independently with probability beta by keps_sample_bernoulli
                                (a run over several processes: keps-mpi); the guarantee
                                assumes exactly that draw */
} keps_safela_params;

typedef struct keps_safela_result {
    keps_table *release;     /* released columns of the sampled rows, generalized; owned by
                                the result: keps_safela_result_free frees it (do not free it,
                                or set it to NULL after taking it) */
    int *levels;             /* [q] the chosen node */
    uint64_t node, nnodes, evaluated;
    double utility, gen, supp; /* of the chosen node */
    double probability;      /* its selection probability */
    double good_node_probability;
    double sensitivity;      /* f k / n */
    double epsilon_prime_effective; /* what the node choice costs: eps' * max(1, (k + 1/f)/(2k))
                                       (the sample size moves with the data; > eps' only if f < 1/k) */
    double epsilon, beta;
    keps_delta_result delta;
    keps_counts counts;      /* input = output + removed + unsampled */
    size_t sample_size;
    double ms_sample, ms_scan, ms_select, ms_release;
    /* Every node's figures on the sample (for a report: they are read from
     * the data, the curator's, not for publication): scores, and the
     * selection probability of each node by id. */
    keps_safela_scores scores;
    double *probabilities; /* [scores.nnodes] */
} keps_safela_result;

/* The whole mechanism (docs/spec.md 6) on s's table. */
keps_status keps_safela_run(const keps_schema *s, const keps_safela_params *p, keps_rng *rng,
                            keps_safela_result *r, keps_error *err);
void keps_safela_result_free(keps_safela_result *r);

/* The guarantee of a run (Li, Qardaji, Su 2012): (beta,epsilon,delta)-DPS
 * over the whole release; the composition steps are the node choice and
 * the sampled k-threshold release. */
void keps_safela_guarantee(const keps_safela_params *p, const keps_safela_result *r, keps_guarantee *g);

#ifdef __cplusplus
}
#endif

#endif
