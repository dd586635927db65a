/* Secure Laplace and geometric noise: exact discrete Laplace on a
 * power-of-two grid (see include/keps/noise.h for the accounting). */
#include "keps/noise.h"

#include <math.h>
#include <stdint.h>

#define GRAN_BITS 40 /* t = b/g in (2^39, 2^40]: Google's library uses 2^40 too */

/* Bernoulli(num/den), 0 <= num, 0 < den < 2^63: compares lazily drawn fair
 * bits with the binary expansion of num/den (2 bits on average). */
static int bern_frac(keps_rng *r, uint64_t num, uint64_t den)
{
    if (num >= den)
        return 1;
    for (;;) {
        num <<= 1; /* num < den < 2^63: no overflow */
        int pb = num >= den;
        if (pb)
            num -= den;
        int ub = keps_rng_bit(r);
        if (ub != pb)
            return ub < pb;
        if (num == 0)
            return 0;
    }
}

/* Bernoulli(gamma/k) for gamma = num/den <= 1: one lazy comparison when
 * den*k fits, else Bernoulli(gamma) AND Bernoulli(1/k) (independent). */
static int bern_frac_div(keps_rng *r, uint64_t num, uint64_t den, uint64_t k)
{
    if (den <= (UINT64_C(1) << 62) / k)
        return bern_frac(r, num, den * k);
    return bern_frac(r, num, den) && bern_frac(r, 1, k);
}

/* CKS20 Algorithm 1: Bernoulli(exp(-gamma)) for gamma = num/den in [0, 1].
 * K counts successes of Bernoulli(gamma/K); Pr[K odd at the first failure]
 * = sum_k (-gamma)^k/k! = exp(-gamma). */
static int bern_exp_le1(keps_rng *r, uint64_t num, uint64_t den)
{
    uint64_t k = 1;
    while (bern_frac_div(r, num, den, k))
        k++;
    return (int)(k & 1);
}

int keps_bernoulli_exp_rational(keps_rng *r, uint64_t num, uint64_t den)
{
    /* exp(-gamma) = exp(-1)^floor(gamma) * exp(-frac(gamma)) */
    for (uint64_t i = num / den; i > 0; i--)
        if (!bern_exp_le1(r, 1, 1))
            return 0;
    return bern_exp_le1(r, num % den, den);
}

int keps_bernoulli_exp(keps_rng *r, double gamma)
{
    if (!(gamma > 0))
        return 1; /* gamma = 0 (NaN treated as 0 is never passed by keps) */
    double whole = floor(gamma), frac = gamma - whole; /* both exact */
    /* floor(gamma) >= 2^63 would need 2^63 successes of probability 1/e. */
    uint64_t n = whole >= 0x1p63 ? UINT64_MAX : (uint64_t)whole;
    for (; n > 0; n--)
        if (!bern_exp_le1(r, 1, 1))
            return 0;
    /* Algorithm 1 with Bernoulli(frac/K) = Bernoulli(frac) AND Bernoulli(1/K);
     * keps_rng_bernoulli is exact for a double. */
    uint64_t k = 1;
    while (keps_rng_bernoulli(r, frac) && (k == 1 || bern_frac(r, 1, k)))
        k++;
    return (int)(k & 1);
}

int64_t keps_discrete_laplace(keps_rng *r, uint64_t s, unsigned shift)
{
    if (s == 0)
        s = 1;
    /* X = U + S*V has Pr[X = x] proportional to exp(-x/s) when U in [0, S)
     * is uniform accepted with Bernoulli(exp(-U/s)) and V counts successes of
     * Bernoulli(exp(-S/s)). S = largest power of two <= s, so U is a masked
     * word (no rejection) and S/s is in (1/2, 1]. Then Y = X >> shift has
     * Pr[Y = y] proportional to exp(-y/t), t = s/2^shift. */
    unsigned m = 63u - (unsigned)__builtin_clzll(s);
    uint64_t S = UINT64_C(1) << m, mask = S - 1;
    for (;;) {
        uint64_t u = keps_rng_u64(r) & mask;
        if (!bern_exp_le1(r, u, s))
            continue;
        uint64_t v = 0;
        while (bern_exp_le1(r, S, s))
            v++;
        /* v >= 2^(63-m) has probability < exp(-2^(62-m)): saturate. */
        uint64_t x = v >= (UINT64_C(1) << (63 - m)) ? UINT64_MAX >> 1 : u + (v << m);
        uint64_t y = x >> shift;
        int neg = keps_rng_bit(r);
        if (neg && y == 0)
            continue; /* -0 and +0 would count zero twice */
        return neg ? -(int64_t)y : (int64_t)y;
    }
}

int keps_scale_rational(double t, uint64_t *s, unsigned *shift)
{
    if (!(t > 0) || !isfinite(t) || t >= 0x1p61)
        return -1;
    if (t >= 0x1p40) {
        *s = (uint64_t)ceil(t);
        *shift = 0;
        return 0;
    }
    int e = ilogb(t); /* 2^e <= t < 2^(e+1) */
    int k = 40 - e;   /* t*2^k in [2^40, 2^41) */
    if (k > 62)
        k = 62;
    double st = ceil(ldexp(t, k)); /* exact scaling, rounded UP: more noise */
    *s = st < 1 ? 1 : (uint64_t)st;
    *shift = (unsigned)k;
    return 0;
}

/* Granularity from the scale only: 2^(ceil(log2 b) - 40). */
static double granularity(double b)
{
    int e;
    double f = frexp(b, &e); /* b = f*2^e, f in [1/2, 1) */
    if (f == 0.5)
        e--; /* b is a power of two: ceil(log2 b) = e - 1 */
    return ldexp(1.0, e - GRAN_BITS);
}

/* a/b rounded up to the next double: stated guarantees never understate. */
static double div_up(double a, double b)
{
    return nextafter(a / b, INFINITY);
}

static int laplace_plan(double b, double sens, keps_noise_info *info, uint64_t *s, unsigned *shift)
{
    if (!(b > 0) || !isfinite(b) || !(sens > 0) || !isfinite(sens))
        return -1;
    double g = granularity(b);
    if (!(g > 0) || keps_scale_rational(b / g, s, shift) != 0)
        return -1;
    double t_used = ldexp((double)*s, -(int)*shift);
    double steps = floor(sens / g) + 1; /* grid steps between rounded neighbours */
    info->granularity = g;
    info->scale = t_used * g;
    info->sensitivity = sens;
    info->epsilon = div_up(steps, t_used);
    return 0;
}

int keps_laplace_info(double scale, double sensitivity, keps_noise_info *info)
{
    uint64_t s;
    unsigned shift;
    return laplace_plan(scale, sensitivity, info, &s, &shift);
}

double keps_laplace_ex(keps_rng *r, double value, double scale, double sensitivity,
                       keps_noise_info *info)
{
    keps_noise_info tmp;
    uint64_t s;
    unsigned shift;
    if (!info)
        info = &tmp;
    if (!isfinite(value) || laplace_plan(scale, sensitivity, info, &s, &shift) != 0)
        return NAN;
    double g = info->granularity;
    /* Round to the grid (exact: scaling by a power of two, then rint); values
     * >= 2^53 g are grid multiples already. */
    double base = fabs(value) >= ldexp(g, 53) ? value : g * nearbyint(value / g);
    int64_t y = keps_discrete_laplace(r, s, shift);
    /* g*y is exact for |y| < 2^53; one IEEE rounding of the exact sum. */
    return base + g * (double)y;
}

double keps_laplace(keps_rng *r, double value, double scale)
{
    /* The sensitivity only enters the stated guarantee, not the sample. */
    return keps_laplace_ex(r, value, scale, scale, NULL);
}

int64_t keps_geometric_mech_ex(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity,
                               keps_noise_info *info)
{
    keps_noise_info tmp;
    if (!info)
        info = &tmp;
    uint64_t s;
    unsigned shift;
    if (!(epsilon > 0) || sensitivity < 1 ||
        keps_scale_rational((double)sensitivity / epsilon, &s, &shift) != 0) {
        info->epsilon = NAN;
        return INT64_MIN; /* never the unnoised value */
    }
    double t_used = ldexp((double)s, -(int)shift);
    info->granularity = 1;
    info->scale = t_used;
    info->sensitivity = (double)sensitivity;
    info->epsilon = div_up((double)sensitivity, t_used);
    int64_t y = keps_discrete_laplace(r, s, shift);
    if (y > 0 && value > INT64_MAX - y)
        return INT64_MAX;
    if (y < 0 && value < INT64_MIN - y)
        return INT64_MIN;
    return value + y;
}

int64_t keps_geometric_mech(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity)
{
    return keps_geometric_mech_ex(r, value, epsilon, sensitivity, NULL);
}
