/* Secure Laplace and geometric noise: exact discrete Laplace on a
 * power-of-two grid (see include/keps/noise.h for the accounting). */
#include "keps/noise.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "fp_up.h"
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

/* ---- the discrete Laplace sampler ----------------------------------------
 * |Y| is floor(t*E) for E ~ Exp(1): Pr[floor(t*E) = y] = exp(-y/t)(1 -
 * exp(-1/t)), the one-sided geometric. E is drawn exactly by von Neumann's
 * method (1951), which needs only comparisons of uniform reals: draw U0,
 * then U1, U2, ... while they keep falling; if the run below U0 has even
 * length (probability exp(-U0) given U0), E = j + U0, else j += 1 and
 * start again. That is ~2.7 comparisons per sample, each decided by the
 * first 16 bits with probability 1 - 2^-16, where the CKS20 construction
 * (Bernoulli(exp(-U/s)) proposals and a chain of Bernoulli(exp(-S/s)))
 * needed ~5.4 data-dependent decisions. The uniforms are lazy: their digits
 * are drawn only as far as a comparison or floor(s*U0) needs them, so
 * every comparison and the floor are exact. */

#ifndef LAZY_FIRST /* tests/test_noise_exact.c shrinks it to exercise the tie path */
#define LAZY_FIRST 16 /* bits a fresh uniform starts with */
#endif
#define LAZY_INLINE 4 /* words past the first kept without the heap */

/* A uniform real in [0, 1): the top n bits of w are drawn (n = LAZY_FIRST
 * or 64); past them, the words ext[0..next) (only after 64 equal bits,
 * probability 2^-64 per comparison). */
typedef struct lazy_u {
    uint64_t w;
    int n;
    size_t next, cap;
    uint64_t *ext;
    uint64_t inl[LAZY_INLINE];
} lazy_u;

static inline uint64_t draw64(bitsrc *b)
{
    return next_bits(b, 32) << 32 | next_bits(b, 32);
}

static inline void lazy_fresh(bitsrc *b, lazy_u *u, int n)
{
    u->w = n == 64 ? draw64(b) : next_bits(b, n) << (64 - n);
    u->n = n;
    u->next = 0;
    u->cap = LAZY_INLINE;
    u->ext = u->inl; /* any heap words were freed by lazy_drop */
}

static void lazy_drop(lazy_u *u)
{
    if (u->ext != u->inl)
        free(u->ext);
    u->ext = u->inl;
    u->next = 0;
    u->cap = LAZY_INLINE;
}

/* Word j past the first, drawn now if no comparison needed it before.
 * Reaching the heap takes 64 * (LAZY_INLINE + 1) equal bits (probability
 * 2^-320); failing to allocate there is not recoverable inside a sampler
 * that must not return a biased value, so it aborts. */
static uint64_t lazy_word(bitsrc *b, lazy_u *u, size_t j)
{
    while (u->next <= j) {
        if (u->next == u->cap) {
            size_t cap = 2 * u->cap;
            uint64_t *e = malloc(cap * sizeof *e);
            if (!e)
                abort();
            memcpy(e, u->ext, u->next * sizeof *e);
            if (u->ext != u->inl)
                free(u->ext);
            u->ext = e;
            u->cap = cap;
        }
        u->ext[u->next++] = draw64(b);
    }
    return u->ext[j];
}

static void lazy_full(bitsrc *b, lazy_u *u)
{
    if (u->n < 64) {
        u->w |= next_bits(b, 64 - u->n);
        u->n = 64;
    }
}

/* Is x < y? Two independent uniforms are never equal: the digits are
 * drawn until they differ. */
static int lazy_less_slow(bitsrc *b, lazy_u *x, lazy_u *y)
{
    lazy_full(b, x);
    lazy_full(b, y);
    if (x->w != y->w)
        return x->w < y->w;
    for (size_t j = 0;; j++) {
        uint64_t a = lazy_word(b, x, j), c = lazy_word(b, y, j);
        if (a != c)
            return a < c;
    }
}

static inline int lazy_less(bitsrc *b, lazy_u *x, lazy_u *y)
{
    int m = x->n < y->n ? x->n : y->n; /* both drawn this far */
    uint64_t mask = m >= 64 ? ~UINT64_C(0) : ~(~UINT64_C(0) >> m);
    uint64_t a = x->w & mask, c = y->w & mask;
    if (__builtin_expect(a != c, 1))
        return a < c;
    return lazy_less_slow(b, x, y);
}

/* floor(s * u0) for s < 2^62: from the first word unless s*u0 lies within
 * s*2^-64 of an integer (probability < 2^-22 for s < 2^42), then decided by
 * the digits after it against the rational boundary. */
static uint64_t lazy_floor_mul(bitsrc *b, lazy_u *u, uint64_t s)
{
    unsigned __int128 p = (unsigned __int128)s * u->w;
    uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p;
    if (lo <= UINT64_MAX - s + 1) /* lo + s <= 2^64 (s >= 1): the tail cannot carry */
        return hi;
    /* carry iff the tail F (uniform in [0,1)) satisfies s*F >= c, c = 2^64 - lo, 0 < c < s */
    uint64_t c = (uint64_t)0 - lo;
    for (size_t j = 0; j < u->next; j++) { /* digits drawn already by comparisons */
        unsigned __int128 num = (unsigned __int128)c << 64;
        uint64_t digit = (uint64_t)(num / s), rem = (uint64_t)(num % s);
        if (u->ext[j] != digit)
            return hi + (u->ext[j] > digit);
        c = rem; /* F = digit/2^64 + F'/2^64 with F' compared against rem/s */
        if (c == 0)
            return hi + 1; /* F' >= 0 always */
    }
    return hi + !bern_frac(b, c, s); /* fresh digits: carry iff F >= c/s */
}

/* The falling run after u0 from the comparison where prev (the run's last
 * uniform: u0 itself, or one with n bits w) and the fresh cur (w, n) tied
 * on their common bits: the same loop on lazy uniforms, drawing digits as
 * needed; u0 keeps any digits it gains, for the floor. */
static unsigned vn_run_slow(bitsrc *b, lazy_u *u0, unsigned run, uint64_t pw, int pn, uint64_t cw, int cn)
{
    lazy_u P, Q, *prev = u0, *cur = &Q, *spare = &P;
    P.ext = P.inl, P.next = 0;
    Q.ext = Q.inl, Q.next = 0, Q.cap = LAZY_INLINE, Q.w = cw, Q.n = cn;
    if (run > 0) {
        P.w = pw, P.n = pn, P.cap = LAZY_INLINE;
        prev = &P;
        spare = NULL;
    }
    for (;;) {
        if (!lazy_less(b, cur, prev))
            break;
        run++;
        lazy_u *t = prev == u0 ? spare : prev; /* never overwrite u0 */
        lazy_drop(t);
        prev = cur;
        cur = t;
        lazy_fresh(b, cur, LAZY_FIRST);
    }
    lazy_drop(&P);
    lazy_drop(&Q);
    return run;
}

/* Length of the falling run u0 > u1 > u2 > ... Each u_i starts with 16
 * bits, which decide the comparison unless they equal prev's first 16;
 * only then do the lazy uniforms of vn_run_slow take over. */
static inline unsigned vn_run(bitsrc *b, lazy_u *u0)
{
    const uint64_t top = ~(~UINT64_C(0) >> LAZY_FIRST);
    uint64_t pw = u0->w;
    int pn = 64;
    unsigned run = 0;
    for (;;) {
        uint64_t cw = next_bits(b, LAZY_FIRST) << (64 - LAZY_FIRST), pt = pw & top;
        if (__builtin_expect(cw == pt, 0))
            return vn_run_slow(b, u0, run, pw, pn, cw, LAZY_FIRST);
        if (cw > pt)
            return run;
        run++;
        pw = cw;
        pn = LAZY_FIRST;
    }
}

int64_t keps_discrete_laplace(keps_rng *r, uint64_t s, unsigned shift)
{
    if (s == 0)
        s = 1;
    bitsrc b = {r, 0, 0};
    lazy_u u0;
    u0.ext = u0.inl;
    u0.next = 0;
    for (;;) {
        uint64_t j = 0; /* rounds of von Neumann's method rejected */
        for (;;) {
            lazy_fresh(&b, &u0, 64);
            if (!(vn_run(&b, &u0) & 1))
                break;
            lazy_drop(&u0);
            j++;
        }
        /* X = floor(s*(j + U0)) = s*j + floor(s*U0), in 128 bits: with s near
         * 2^62 the 64-bit product overflows at j = 2, which is common */
        uint64_t f = lazy_floor_mul(&b, &u0, s);
        lazy_drop(&u0);
        unsigned __int128 x = (unsigned __int128)s * j + f;
        /* floor(floor(s*E)/2^shift) = floor(t*E), t = s/2^shift; |Y| saturates
         * at 2^63 - 1 (t*E beyond it) */
        unsigned __int128 y128 = x >> shift;
        uint64_t y = y128 > (UINT64_MAX >> 1) ? UINT64_MAX >> 1 : (uint64_t)y128;
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

/* What a Laplace part costs on the grid: a part whose L1 sensitivity S is
 * spread over q coordinates moves each coordinate by D_i (sum D_i <= S);
 * rounded to the grid a coordinate moves by at most floor(D_i/g) + 1 steps,
 * and as steps are whole numbers the q coordinates move by at most
 * floor(S/g) + q in all; each step costs 1/t_used. q = 1 is one value. */
static double grid_epsilon(double sens, double q, double g, double t_used)
{
    return keps_div_up(keps_add_up(floor(sens / g), q), t_used);
}

static int laplace_plan(double b, double sens, double q, keps_noise_info *info, int *gk, uint64_t *s,
                        unsigned *shift)
{
    if (!(b > 0) || !isfinite(b) || !(sens > 0) || !isfinite(sens) || b < 0x1p-900 || !(q >= 1) ||
        !(q <= 0x1p52) || q != floor(q))
        return -1;
    laplace_grid(b, gk, s, shift);
    double g = pow2(*gk);
    double t_used = ldexp((double)*s, -(int)*shift);
    info->granularity = g;
    info->scale = t_used * g;
    info->sensitivity = sens;
    info->epsilon = grid_epsilon(sens, q, g, t_used);
    return 0;
}

int keps_laplace_info_part(double scale, double sensitivity, double coords, keps_noise_info *info)
{
    int gk;
    uint64_t s;
    unsigned shift;
    return laplace_plan(scale, sensitivity, coords, info, &gk, &s, &shift);
}

/* OpenDP calibrates a scale by searching it against the privacy map (its
 * map rounded up); here the search is closed-form. For the grid g that a
 * scale b gives, the map is (floor(S/g) + q)/t_used, and t_used >= b/g, so
 * the scale g * T with T = (floor(S/g) + q)/epsilon rounded up meets the
 * budget, unless g * T lies in a coarser grid (g doubles once b crosses a
 * power of two): then the same step again from there. Scales only grow,
 * and the grid settles within a step or two; the guard stops the loop
 * whatever floating point does. */
double keps_laplace_calibrate(double sensitivity, double coords, double epsilon)
{
    keps_noise_info info;
    if (!(epsilon > 0) || !isfinite(epsilon))
        return NAN;
    double b = keps_div_up(sensitivity, epsilon);
    for (int i = 0; i < 64; i++) {
        if (keps_laplace_info_part(b, sensitivity, coords, &info) != 0)
            return NAN;
        if (info.epsilon <= epsilon)
            return b;
        double g = info.granularity;
        double need = keps_mul_up(keps_div_up(keps_add_up(floor(sensitivity / g), coords), epsilon), g);
        b = need > b ? need : nextafter(b, INFINITY);
    }
    return NAN;
}

int keps_laplace_info(double scale, double sensitivity, keps_noise_info *info)
{
    int gk;
    uint64_t s;
    unsigned shift;
    return laplace_plan(scale, sensitivity, 1, info, &gk, &s, &shift);
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
    if (!isfinite(value) || laplace_plan(scale, sensitivity, 1, info, &gk, &s, &shift) != 0)
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

/* t >= S/epsilon exactly: S/epsilon rounded to nearest can fall an ulp
 * short, and then the true epsilon would exceed the stated one and the
 * request. The sampler and the stated guarantee use this one scale. */
static int geometric_scale(double epsilon, int64_t sensitivity, uint64_t *s, unsigned *shift)
{
    if (!(epsilon > 0) || sensitivity < 1 || !isfinite(epsilon))
        return -1;
    return keps_scale_rational(keps_div_up((double)sensitivity, epsilon), s, shift);
}

static int geometric_plan(double epsilon, int64_t sensitivity, keps_noise_info *info, uint64_t *s,
                          unsigned *shift)
{
    keps_noise_info tmp;
    if (!info)
        info = &tmp;
    if (geometric_scale(epsilon, sensitivity, s, shift) != 0) {
        info->epsilon = NAN;
        return -1;
    }
    double t_used = ldexp((double)*s, -(int)*shift);
    info->granularity = 1;
    info->scale = t_used;
    info->sensitivity = (double)sensitivity;
    info->epsilon = keps_div_up((double)sensitivity, t_used);
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
    if (geometric_scale(epsilon, sensitivity, &s, &shift) != 0)
        return INT64_MIN;
    return add_geometric(r, value, s, shift);
}
