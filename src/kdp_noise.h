/* TEMPORARY shim until the dp branch's include/keps/noise.h is merged:
 * keps_laplace(rng, value, scale) = value + Laplace(scale). This textbook
 * inverse-CDF version is NOT the secure grid sampler SPEC 8 asks for; it only
 * lets kepsilon/dpmicro build and be tested before the merge. */
#ifndef KEPS_KDP_NOISE_H
#define KEPS_KDP_NOISE_H
#include <math.h>

#include "keps/rng.h"

static inline double keps_laplace(keps_rng *rng, double value, double scale)
{
    double e = -log(keps_rng_uniform_open(rng));
    return keps_rng_bit(rng) ? value + scale * e : value - scale * e;
}
#endif
