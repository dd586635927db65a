/* keps: Laplace and geometric noise that is safe on real hardware (docs/spec.md 8).
 *
 * Why not textbook Laplace: -b*log(U) on doubles leaves holes and a
 * value-dependent grid in the output, so a single release can reveal the
 * input (Mironov 2012). keps instead releases
 *
 *     out = fl( g*round(value/g) + g*Y ),
 *
 * where g is a power of two (the granularity) and Y is an EXACT two-sided
 * geometric (discrete Laplace) integer: Pr[Y = y] proportional to
 * exp(-|y|/t), t = b/g. Y is drawn from random bits only: |Y| = floor(t*E)
 * with E ~ Exp(1) drawn by von Neumann's comparison method on lazily drawn
 * uniform reals (integer arithmetic, every comparison and the floor exact),
 * a random sign, and "-0" rejected as in Canonne, Kamath and Steinke 2020
 * ("CKS20"), whose Bernoulli(exp(-gamma)) serves keps_bernoulli_exp. There
 * is no logarithm of a uniform double anywhere.
 * The final addition is one IEEE rounding of the exact sum: post-processing.
 *
 * Granularity: g = 2^ceil(log2 b) * 2^-40 (so t = b/g lies in (2^39, 2^40]),
 * chosen from the scale only, never from the value (a value-dependent grid is
 * itself a leak). The scale actually used, t_used = s/2^k, is t rounded UP to
 * a dyadic rational with a 41-bit numerator: at most 2^-39 relative more
 * noise, never less.
 *
 * Epsilon accounting for the rounding: neighbouring values |x - x'| <= D are
 * at most D + g apart after rounding to the grid, i.e. at most
 * m = floor(D/g) + 1 grid steps, and a shift of m steps changes the discrete
 * Laplace log-probability by at most m/t_used. So the guarantee is
 *
 *     epsilon_used = (floor(D/g) + 1) / t_used  <=  (D + g)/b,
 *
 * i.e. D/b times (1 + g/D) with g/D <= 2^-39/epsilon: drawn with the scale
 * b = D/epsilon, the guarantee would exceed the budget by that hair. So
 * callers calibrate the scale instead (keps_laplace_calibrate, as OpenDP
 * calibrates a scale against its privacy map): b is raised until the stated
 * epsilon, rounding included, is at most the budget. A part of a mechanism
 * whose L1 sensitivity S is spread over q noisy coordinates (the centroids
 * of DP microaggregation) costs (floor(S/g) + q)/t_used: each coordinate's
 * rounding adds at most one step (keps_laplace_info_part).
 * keps_laplace_ex() returns these numbers. Caveat stated for completeness:
 * |Y| >= 2^53 (probability < exp(-8000)) would make g*Y inexact. Every
 * stated epsilon is computed rounded up (never below the true value).
 *
 * Plain geometric mechanism for integer counts: value + Y with
 * t_used >= D/epsilon (D/epsilon rounded up, then the same dyadic rounding
 * up, in the sampler and in the statement alike), guarantee D/t_used <=
 * epsilon. */
#ifndef KEPS_NOISE_H
#define KEPS_NOISE_H

#include <stdint.h>

#include "keps/rng.h"
#include "keps/guarantee.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a noisy release guarantees, computed from the parameters used. */
typedef struct keps_noise_info {
    double granularity;   /* g (1 for the geometric mechanism) */
    double scale;         /* Laplace scale actually used, b_used = t_used*g (>= requested) */
    double epsilon;       /* guaranteed epsilon for the given sensitivity */
    double sensitivity;   /* D the guarantee refers to */
} keps_noise_info;

/* Secure Laplace with scale b > 0 (b = D/epsilon). Returns NAN if b is not
 * finite, not positive or below 2^-900 (the grid would leave the normal
 * doubles), or value is not finite. */
double keps_laplace(keps_rng *r, double value, double scale);
/* Same, and fills *info (may be NULL) for sensitivity D > 0. */
double keps_laplace_ex(keps_rng *r, double value, double scale, double sensitivity,
                       keps_noise_info *info);
/* The guarantee keps_laplace would give, without sampling. 0 or -1 (bad args). */
int keps_laplace_info(double scale, double sensitivity, keps_noise_info *info);
/* The same for a part of a mechanism: L1 sensitivity S over `coords` noisy
 * coordinates, each drawn by keps_laplace with this scale:
 * epsilon = (floor(S/g) + coords)/t_used. coords is a whole number in
 * [1, 2^52]; coords = 1 is keps_laplace_info. 0 or -1 (bad args). */
int keps_laplace_info_part(double scale, double sensitivity, double coords, keps_noise_info *info);
/* The Laplace scale to draw with so that keps_laplace_info_part(scale, S,
 * coords) states at most epsilon, the grid rounding included: S/epsilon
 * raised by the rounding slack (about 2^-39 relative per unit of
 * coords*g/S). E.g. S = 1, coords = 1, epsilon = 1 gives a scale a hair
 * above 1 (grid 2^-39), whose stated epsilon is 1 - 2^-40 or so, where the
 * scale 1 itself would state 1 + 2^-40. NAN if no scale the sampler can
 * draw meets the budget (epsilon <= 0 or not finite, a scale beyond
 * the sampler's range). */
double keps_laplace_calibrate(double sensitivity, double coords, double epsilon);

/* Geometric mechanism: value + discrete Laplace with t >= sensitivity/epsilon;
 * saturates at INT64_MIN/INT64_MAX. epsilon > 0, sensitivity >= 1, and
 * sensitivity/epsilon < 2^61; otherwise returns INT64_MIN (never the
 * unnoised value) with info->epsilon = NAN. */
int64_t keps_geometric_mech(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity);
int64_t keps_geometric_mech_ex(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity,
                               keps_noise_info *info);
/* The guarantee keps_geometric_mech would give, without sampling. 0 or -1. */
int keps_geometric_info(double epsilon, int64_t sensitivity, keps_noise_info *info);

/* Building blocks, exact, exposed for other mechanisms and for tests. */

/* Bernoulli(exp(-gamma)) for a double gamma (a dyadic rational, so exact);
 * gamma <= 0 gives 1, gamma = +inf gives 0. */
int keps_bernoulli_exp(keps_rng *r, double gamma);
/* Bernoulli(exp(-num/den)), den > 0, den < 2^62. */
int keps_bernoulli_exp_rational(keps_rng *r, uint64_t num, uint64_t den);
/* Two-sided geometric: Pr[y] proportional to exp(-|y| * 2^shift / s), i.e.
 * scale t = s / 2^shift; s >= 1, s < 2^62, shift <= 62. */
int64_t keps_discrete_laplace(keps_rng *r, uint64_t s, unsigned shift);
/* Represents t > 0 as s/2^shift >= t: t rounded up to 41 significant bits
 * (s = ceil(t) when t >= 2^40), then common factors of two removed (1.5 is
 * 3/2^1). Returns 0, or -1 if t is not finite/positive or >= 2^61. */
int keps_scale_rational(double t, uint64_t *s, unsigned *shift);

/* The guarantee of releases drawn with info (docs/spec.md, "The guarantee
 * value"): epsilon-DP; rows 1: each row of a file is its own query
 * (releases 1), 0: releases independent releases of one value, which
 * compose sequentially (releases * epsilon). */
void keps_noise_guarantee(const keps_noise_info *info, int rows, double releases, keps_guarantee *g);

#ifdef __cplusplus
}
#endif
#endif
