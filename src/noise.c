/* Secure Laplace and geometric noise: exact discrete Laplace on a
 * power-of-two grid (see include/keps/noise.h for the accounting). */
#include "keps/noise.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rng_internal.h"

#define GRAN_BITS 40 /* t = b/g in (2^39, 2^40]: Google's library uses 2^40 too */

/* Fair bits drawn 64 at a time from the rng: the samplers below use a few
 * bits per decision, and a call into rng.c per bit would dominate. Unused
 * bits are dropped, which cannot bias anything. */
typedef struct bitsrc {
    keps_rng *r;
    uint64_t w;
    int n;
} bitsrc;

static inline int next_bit(bitsrc *b)
{
    if (b->n == 0) {
        b->w = keps_rng_next_(b->r);
        b->n = 64;
    }
    int x = (int)(b->w & 1);
    b->w >>= 1;
    b->n--;
    return x;
}

/* m fair bits, 1 <= m <= 63. Leftover bits are spliced with the next
 * word rather than dropped: the CSPRNG is a large share of the cost. */
static inline uint64_t next_bits(bitsrc *b, int m)
{
    if (b->n < m) {
        uint64_t low = b->w, w = keps_rng_next_(b->r);
        int have = b->n, need = m - have; /* 1 <= need <= 63 */
        uint64_t x = low | ((w & ((UINT64_C(1) << need) - 1)) << have);
        b->w = w >> need;
        b->n = 64 - need;
        return x;
    }
    uint64_t x = b->w & ((UINT64_C(1) << m) - 1);
    b->w >>= m;
    b->n -= m;
    return x;
}

#define CHUNK 8 /* bits per comparison step in bern_frac */

/* Bernoulli(num/den), 0 <= num, 0 < den < 2^63: compares a lazily drawn
 * uniform real W with num/den, CHUNK bits at a time. With w the next bits,
 * W lies in [w, w+1)/2^CHUNK: decided unless num/den falls inside that cell
 * (probability 2^-CHUNK), in which case the comparison continues exactly on
 * the remainder. One branch per decision instead of one per bit. */
static inline __attribute__((always_inline)) int bern_frac(bitsrc *b, uint64_t num, uint64_t den)
{
    if (num >= den)
        return 1;
    if (den < (UINT64_C(1) << (64 - CHUNK))) { /* the usual case: 64-bit products suffice */
        for (;;) {
            uint64_t lhs = next_bits(b, CHUNK) * den, rhs = num << CHUNK;
            if (lhs + den <= rhs) /* <= 2^CHUNK den: no overflow */
                return 1;
            if (lhs >= rhs)
                return 0;
            num = rhs - lhs;
        }
    }
    for (;;) {
        unsigned __int128 lhs = (unsigned __int128)next_bits(b, CHUNK) * den;
        unsigned __int128 rhs = (unsigned __int128)num << CHUNK;
        if (lhs + den <= rhs)
            return 1; /* (w+1)/2^CHUNK <= num/den */
        if (lhs >= rhs)
            return 0; /* w/2^CHUNK >= num/den */
        num = (uint64_t)(rhs - lhs); /* < den: the position of num/den inside the cell */
    }
}

/* Bernoulli(gamma/k) for gamma = num/den <= 1: one lazy comparison when
 * den*k < 2^63, else Bernoulli(gamma) AND Bernoulli(1/k) (independent). */
static inline __attribute__((always_inline)) int bern_frac_div(bitsrc *b, uint64_t num, uint64_t den, uint64_t k)
{
    uint64_t dk;
    if (!__builtin_mul_overflow(den, k, &dk) && dk < (UINT64_C(1) << 63))
        return bern_frac(b, num, dk);
    return bern_frac(b, num, den) && bern_frac(b, 1, k);
}

/* CKS20 Algorithm 1: Bernoulli(exp(-gamma)) for gamma = num/den in [0, 1].
 * K counts successes of Bernoulli(gamma/K); Pr[K odd at the first failure]
 * = sum_k (-gamma)^k/k! = exp(-gamma). */
static inline __attribute__((always_inline)) int bern_exp_le1(bitsrc *b, uint64_t num, uint64_t den)
{
    uint64_t k = 1;
    while (bern_frac_div(b, num, den, k))
        k++;
    return (int)(k & 1);
}

int keps_bernoulli_exp_rational(keps_rng *r, uint64_t num, uint64_t den)
{
    bitsrc b = {r, 0, 0};
    /* exp(-gamma) = exp(-1)^floor(gamma) * exp(-frac(gamma)) */
    for (uint64_t i = num / den; i > 0; i--)
        if (!bern_exp_le1(&b, 1, 1))
            return 0;
    return bern_exp_le1(&b, num % den, den);
}

int keps_bernoulli_exp(keps_rng *r, double gamma)
{
    if (!(gamma > 0))
        return 1; /* gamma <= 0: exp(-gamma) >= 1 (NaN also lands here) */
    if (isinf(gamma))
        return 0; /* exp(-inf) = 0 */
    double whole = floor(gamma), frac = gamma - whole; /* both exact */
    /* floor(gamma) >= 2^63 would need 2^63 successes of probability 1/e. */
    uint64_t n = whole >= 0x1p63 ? UINT64_MAX : (uint64_t)whole;
    bitsrc b = {r, 0, 0};
    for (; n > 0; n--)
        if (!bern_exp_le1(&b, 1, 1))
            return 0;
    /* Algorithm 1 with Bernoulli(frac/K) = Bernoulli(frac) AND Bernoulli(1/K);
     * keps_rng_bernoulli is exact for a double. */
    uint64_t k = 1;
    while (keps_rng_bernoulli(r, frac) && (k == 1 || bern_frac(&b, 1, k)))
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
    uint64_t S = UINT64_C(1) << m;
    bitsrc b = {r, 0, 0};
    for (;;) {
        uint64_t u = m ? next_bits(&b, (int)m) : 0;
        if (!bern_exp_le1(&b, u, s))
            continue;
        uint64_t v = 0;
        while (bern_exp_le1(&b, S, s))
            v++;
        /* v >= 2^(63-m) has probability < exp(-2^(62-m)): saturate. */
        uint64_t x = v >= (UINT64_C(1) << (63 - m)) ? UINT64_MAX >> 1 : u + (v << m);
        uint64_t y = x >> shift;
        int neg = next_bit(&b);
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
    /* Same value with the smallest numerator (t = 10 is 10/1, not
     * 10*2^36/2^36): fewer random bits per sample, same distribution. */
    unsigned tz = (unsigned)__builtin_ctzll(*s); /* s >= 1 */
    if (tz > *shift)
        tz = *shift;
    *s >>= tz;
    *shift -= tz;
    return 0;
}

/* 2^k, built from the bits when it is a normal double (ldexp is a libm
 * call and shows up in the profile). */
static double pow2(int k)
{
    if (k < -1022 || k > 1023)
        return ldexp(1.0, k);
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* The grid and the discrete scale for Laplace scale b (finite, > 0):
 * g = 2^(ceil(log2 b) - 40), returned as its exponent *gk, and t = b/g as
 * s/2^shift rounded up -- the same numbers keps_scale_rational(b/g) gives,
 * computed from b's mantissa with integer operations. */
static void laplace_grid(double b, int *gk, uint64_t *s, unsigned *shift)
{
    /* b = f*2^e with f = (2^52 + mant)/2^53 in [1/2, 1): b is normal here
     * (callers reject b < 2^-900), so the fields give f and e exactly
     * without frexp/ceil/ldexp calls in the hot path. */
    uint64_t bits;
    memcpy(&bits, &b, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1022;
    uint64_t mant = bits & ((UINT64_C(1) << 52) - 1);
    if (mant == 0) { /* b = 2^(e-1): t = 2^40 exactly */
        *gk = e - 1 - GRAN_BITS;
        *s = UINT64_C(1) << GRAN_BITS;
        *shift = 0;
    } else { /* t = f*2^40 in (2^39, 2^40): t*2 = (2^52 + mant)/2^12, rounded up */
        *gk = e - GRAN_BITS;
        *s = ((UINT64_C(1) << 52) + mant + ((UINT64_C(1) << (52 - GRAN_BITS)) - 1)) >> (52 - GRAN_BITS);
        *shift = 1;
    }
}

/* a/b rounded up (a, b > 0): stated guarantees never understate. fma
 * gives the exact sign of q*b - a. */
static double div_up(double a, double b)
{
    double q = a / b;
    return fma(q, b, -a) < 0 ? nextafter(q, INFINITY) : q;
}

static int laplace_plan(double b, double sens, keps_noise_info *info, int *gk, uint64_t *s,
                        unsigned *shift)
{
    if (!(b > 0) || !isfinite(b) || !(sens > 0) || !isfinite(sens) || b < 0x1p-900)
        return -1;
    laplace_grid(b, gk, s, shift);
    double g = pow2(*gk);
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
    int gk;
    uint64_t s;
    unsigned shift;
    return laplace_plan(scale, sensitivity, info, &gk, &s, &shift);
}

/* x rounded to the nearest integer, ties to even (as rint in the default
 * rounding mode). Below 2^51, adding and subtracting 1.5*2^52 rounds
 * exactly in SSE arithmetic; nearbyint saved and restored the FP
 * environment on every call and was a tenth of a Laplace sample. */
static inline double round_even(double x)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 /* not x87 extended precision */
    const double c = 0x1.8p52;
    if (fabs(x) < 0x1p51)
        return x >= 0 ? (x + c) - c : -((-x + c) - c);
#endif
    return rint(x);
}

/* value rounded to the grid 2^gk, plus 2^gk * discrete Laplace(s/2^shift). */
static double laplace_on_grid(keps_rng *r, double value, int gk, uint64_t s, unsigned shift)
{
    double g = pow2(gk);
    /* Round to the grid (exact: scaling by a power of two, then rint); values
     * >= 2^53 g are grid multiples already. */
    double base = fabs(value) >= pow2(gk + 53) ? value : g * round_even(value * pow2(-gk));
    int64_t y = keps_discrete_laplace(r, s, shift);
    /* g*y is exact for |y| < 2^53; one IEEE rounding of the exact sum. */
    return base + g * (double)y;
}

double keps_laplace_ex(keps_rng *r, double value, double scale, double sensitivity,
                       keps_noise_info *info)
{
    keps_noise_info tmp;
    int gk;
    uint64_t s;
    unsigned shift;
    if (!info)
        info = &tmp;
    if (!isfinite(value) || laplace_plan(scale, sensitivity, info, &gk, &s, &shift) != 0)
        return NAN;
    return laplace_on_grid(r, value, gk, s, shift);
}

double keps_laplace(keps_rng *r, double value, double scale)
{
    /* Hot path: the guarantee is not computed, only the grid. */
    int gk;
    uint64_t s;
    unsigned shift;
    if (!isfinite(value) || !(scale > 0) || !isfinite(scale) || scale < 0x1p-900)
        return NAN;
    laplace_grid(scale, &gk, &s, &shift);
    return laplace_on_grid(r, value, gk, s, shift);
}

static int geometric_plan(double epsilon, int64_t sensitivity, keps_noise_info *info, uint64_t *s,
                          unsigned *shift)
{
    keps_noise_info tmp;
    if (!info)
        info = &tmp;
    if (!(epsilon > 0) || sensitivity < 1 ||
        keps_scale_rational((double)sensitivity / epsilon, s, shift) != 0) {
        info->epsilon = NAN;
        return -1;
    }
    double t_used = ldexp((double)*s, -(int)*shift);
    info->granularity = 1;
    info->scale = t_used;
    info->sensitivity = (double)sensitivity;
    info->epsilon = div_up((double)sensitivity, t_used);
    return 0;
}

int keps_geometric_info(double epsilon, int64_t sensitivity, keps_noise_info *info)
{
    uint64_t s;
    unsigned shift;
    return geometric_plan(epsilon, sensitivity, info, &s, &shift);
}

/* value + discrete Laplace(s/2^shift), saturating. */
static int64_t add_geometric(keps_rng *r, int64_t value, uint64_t s, unsigned shift)
{
    int64_t y = keps_discrete_laplace(r, s, shift);
    if (y > 0 && value > INT64_MAX - y)
        return INT64_MAX;
    if (y < 0 && value < INT64_MIN - y)
        return INT64_MIN;
    return value + y;
}

int64_t keps_geometric_mech_ex(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity,
                               keps_noise_info *info)
{
    uint64_t s;
    unsigned shift;
    if (geometric_plan(epsilon, sensitivity, info, &s, &shift) != 0)
        return INT64_MIN; /* never the unnoised value */
    return add_geometric(r, value, s, shift);
}

int64_t keps_geometric_mech(keps_rng *r, int64_t value, double epsilon, int64_t sensitivity)
{
    /* Hot path: only the scale, not the stated guarantee. */
    uint64_t s;
    unsigned shift;
    if (!(epsilon > 0) || sensitivity < 1 ||
        keps_scale_rational((double)sensitivity / epsilon, &s, &shift) != 0)
        return INT64_MIN;
    return add_geometric(r, value, s, shift);
}
