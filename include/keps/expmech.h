/* keps: the exponential mechanism over a finite candidate set (docs/spec.md 8).
 *
 * Selects candidate i with probability proportional to exp(eps*u[i]/(2*du)).
 *
 * Method: exact rejection sampling with random bits, chosen over Gumbel-max
 * because Gumbel-max needs -log(-log U) of uniform doubles, whose rounding
 * biases exactly the low-probability tails that carry the privacy loss; and
 * chosen over Ilvento's base-2 method because that one changes the base of
 * the mechanism (and hence epsilon) to make weights dyadic, while this keeps
 * base e. Each round proposes i uniformly and accepts it with probability
 * exp(-gamma_i), gamma_i = (u_max - u[i]) * eps/(2*du) >= 0, by the exact
 * Bernoulli(exp(-gamma)) of noise.h. Nothing is exponentiated, so there is no
 * overflow for any number of candidates or utility magnitude (u = 1e6 and
 * n = 100,000 is fine). Expected rounds n / sum_i exp(-gamma_i) <= n; each
 * rejection costs O(1) bits, so even a worst case of 100,000 candidates with
 * one dominant utility is a few milliseconds.
 * Exactness: exact for the gamma_i as computed in double. Each gamma_i has a
 * relative rounding error below 2^-51, so every log-probability differs from
 * the real-number mechanism's by at most ~2^-50 (gamma_i + gamma_max), where
 * gamma_max is the largest exponent that carries weight: below 1e-9 for
 * exponents up to 10^6. The guarantee stated is eps (plus that slack).
 *
 * keps_expmech_probs gives the exact probabilities (log-sum-exp in long
 * double) for reports and tests. */
#ifndef KEPS_EXPMECH_H
#define KEPS_EXPMECH_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the selected index in [0, n), or (size_t)-1 on bad arguments
 * (n == 0, eps <= 0, du <= 0, a non-finite utility). Candidates with
 * u = -INFINITY are never selected (unless all are, which is an error). */
size_t keps_expmech(keps_rng *r, const double *u, size_t n, double eps, double du);
/* Fills p[0..n) with the selection probabilities. 0 or -1 on bad arguments. */
int keps_expmech_probs(const double *u, size_t n, double eps, double du, double *p);
/* Guarantee of one selection: epsilon-DP with epsilon = eps (given |u - u'| <= du). */

#ifdef __cplusplus
}
#endif
#endif
