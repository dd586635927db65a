/* Record sampling, categorical sampling, randomized response
 * (see include/keps/sample.h). */
#include "keps/rr.h"
#include "keps/sample.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEN_MAX UINT64_C(1000000000000000000) /* 10^18 */

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Digits of s[0..len) into *v (v <= 10^18); -1 on a non-digit or overflow. */
static int parse_digits(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]) || x > DEN_MAX / 10)
            return -1;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return 0;
}

int keps_parse_probability(const char *s, uint64_t *num, uint64_t *den, keps_error *err)
{
    uint64_t n = 0, d = 1;
    const char *slash = s ? strchr(s, '/') : NULL, *dot = s ? strchr(s, '.') : NULL;
    int bad = !s || !*s;
    if (!bad && slash) {
        bad = slash == s || parse_digits(s, (size_t)(slash - s), &n) != 0 ||
              !slash[1] || parse_digits(slash + 1, strlen(slash + 1), &d) != 0 || d == 0;
    } else if (!bad) {
        /* decimal mantissa, then an optional exponent (1e-6, 2.5E-3) */
        size_t mlen = strcspn(s, "eE");
        long ex = 0;
        if (s[mlen]) {
            const char *e = s + mlen + 1, *dg = e + (*e == '-' || *e == '+');
            char *end;
            ex = strtol(e, &end, 10);
            bad = !isdigit((unsigned char)*dg) || *end || ex < -36 || ex > 36;
        }
        if (dot && (size_t)(dot - s) > mlen)
            bad = 1;
        size_t ilen = dot ? (size_t)(dot - s) : mlen;
        size_t flen = dot ? mlen - ilen - 1 : 0;
        uint64_t ip = 0, fp = 0;
        bad = bad || (ilen == 0 && flen == 0) || flen > 18 || parse_digits(s, ilen, &ip) != 0 ||
              (dot && parse_digits(dot + 1, flen, &fp) != 0);
        for (size_t i = 0; !bad && i < flen; i++)
            d *= 10;
        if (!bad && ip > 1 && ex >= 0)
            bad = 2; /* > 1 */
        if (!bad && ip > (DEN_MAX - fp) / d) /* 1234.5e-4 and the like: n itself must stay <= 10^18 */
            bad = 1;
        n = bad ? 0 : ip * d + fp;
        for (; !bad && ex < 0; ex++) /* the denominator must stay exact */
            bad = d > DEN_MAX / 10 ? 1 : (d *= 10, 0);
        for (; !bad && ex > 0 && n; ex--) /* n > d means > 1 */
            bad = n > d ? 2 : (n *= 10, 0);
    }
    if (!bad && n > d)
        bad = 2;
    if (bad)
        return keps_error_set(err, KEPS_EINPUT,
                              bad == 2 ? "probability '%s' is above 1"
                                       : "probability '%s' is not a number in [0, 1] that keps draws exactly: write "
                                         "a decimal with at most 18 digits after the point (0.7, 1e-6) or a "
                                         "fraction of whole numbers up to 10^18 (7/10)",
                              s ? s : "(null)");
    uint64_t g = gcd_u64(n, d);
    *num = n / g;
    *den = d / g;
    return KEPS_OK;
}

size_t keps_sample_bernoulli(keps_rng *r, size_t n, uint64_t num, uint64_t den, uint8_t *keep)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        keep[i] = (uint8_t)keps_rng_bernoulli_rational(r, num, den);
        kept += keep[i];
    }
    return kept;
}

int keps_sample_bernoulli_str(keps_rng *r, size_t n, const char *beta, uint8_t *keep, size_t *kept,
                              keps_error *err)
{
    uint64_t num, den;
    int rc = keps_parse_probability(beta, &num, &den, err);
    if (rc != KEPS_OK)
        return rc;
    *kept = keps_sample_bernoulli(r, n, num, den, keep);
    return KEPS_OK;
}

int keps_categorical_init(keps_categorical *c, const double *p, uint32_t n, keps_error *err)
{
    c->n = n;
    c->cum = NULL;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(p[i] >= 0) || !isfinite(p[i]))
            return keps_error_set(err, KEPS_EINPUT, "probability %u is %g: must be finite and >= 0", i,
                                  p[i]);
        sum += p[i];
    }
    if (n == 0 || !(sum > 0) || !isfinite(sum))
        return keps_error_set(err, KEPS_EINPUT, "probabilities must not all be 0");
    c->cum = malloc(n * sizeof *c->cum);
    if (!c->cum)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    /* Fixed point: sum <= 2^E, weights scaled by 2^(62-E), so every weight
     * is <= 2^62 and their total < 2^63. A weight >= 2^-9 of the sum has
     * exponent >= E-10 and so scales to an exact integer. */
    int E;
    frexp(sum, &E);
    uint64_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc += (uint64_t)nearbyint(ldexp(p[i], 62 - E));
        c->cum[i] = acc;
    }
    if (acc == 0) {
        free(c->cum);
        c->cum = NULL;
        return keps_error_set(err, KEPS_EINPUT, "probabilities are too small to sample");
    }
    return KEPS_OK;
}

uint32_t keps_categorical_draw(keps_rng *r, const keps_categorical *c)
{
    uint64_t x = keps_rng_below(r, c->cum[c->n - 1]);
    uint32_t lo = 0, hi = c->n - 1; /* first i with cum[i] > x */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void keps_categorical_free(keps_categorical *c)
{
    free(c->cum);
    c->cum = NULL;
}

uint32_t keps_sample_categorical(keps_rng *r, const double *p, uint32_t n)
{
    keps_categorical c;
    if (keps_categorical_init(&c, p, n, NULL) != KEPS_OK)
        return n;
    uint32_t v = keps_categorical_draw(r, &c);
    keps_categorical_free(&c);
    return v;
}

double keps_transition_epsilon(const double *m, uint32_t n)
{
    double eps = 0;
    for (uint32_t y = 0; y < n; y++) {
        double lo = INFINITY, hi = 0;
        for (uint32_t x = 0; x < n; x++) {
            double v = m[(size_t)x * n + y];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (hi == 0)
            continue; /* output y never happens */
        if (lo == 0)
            return INFINITY;
        double e = log(hi / lo);
        eps = e > eps ? e : eps;
    }
    return eps;
}

void keps_transition_keep(double p, uint32_t n, double *m)
{
    for (uint32_t x = 0; x < n; x++)
        for (uint32_t y = 0; y < n; y++)
            m[(size_t)x * n + y] = (1 - p) / n + (x == y ? p : 0);
}

void keps_rr_sampler_free(keps_rr_sampler *rr)
{
    if (rr->rows)
        for (uint32_t x = 0; x < rr->n; x++)
            keps_categorical_free(&rr->rows[x]);
    free(rr->rows);
    rr->rows = NULL;
}

/* The epsilon-LDP of what the sampler draws: its fixed-point weights, not
 * the matrix. A weight far below 2^-9 of its row keeps few bits (n = 400,
 * epsilon 50: an off-diagonal entry of 2.8e-19 becomes 1 or 2 units of
 * 2^-62), so the sampled ratios can exceed the matrix's (42.98 against
 * 42.73). P[y|x] = w_xy / W_x exactly; the logs are taken in long double
 * (the weights are below 2^63, exact there) and the result is rounded up. */
static double sampled_epsilon(const keps_rr_sampler *rr)
{
    long double eps = 0;
    for (uint32_t y = 0; y < rr->n; y++) {
        long double lo = INFINITY, hi = -INFINITY;
        int any = 0, zero = 0;
        for (uint32_t x = 0; x < rr->n; x++) {
            const uint64_t *cum = rr->rows[x].cum;
            uint64_t w = cum[y] - (y ? cum[y - 1] : 0), W = cum[rr->n - 1];
            if (!w) {
                zero = 1;
                continue;
            }
            any = 1;
            long double l = logl((long double)w) - logl((long double)W);
            lo = l < lo ? l : lo;
            hi = l > hi ? l : hi;
        }
        if (!any)
            continue; /* output y never happens */
        if (zero)
            return INFINITY;
        eps = hi - lo > eps ? hi - lo : eps;
    }
    double e = (double)eps;
    return e > 0 ? nextafter(e, INFINITY) : e;
}

int keps_rr_sampler_init(keps_rr_sampler *rr, const double *matrix, uint32_t n, keps_error *err)
{
    rr->n = n;
    rr->rows = n ? calloc(n, sizeof *rr->rows) : NULL;
    if (!rr->rows)
        return keps_error_set(err, n ? KEPS_ENOMEM : KEPS_EINPUT,
                              n ? "out of memory" : "randomized response needs at least one category");
    for (uint32_t x = 0; x < n; x++) {
        double sum = 0;
        for (uint32_t y = 0; y < n; y++)
            sum += matrix[(size_t)x * n + y];
        if (!(fabs(sum - 1) <= 1e-9)) {
            keps_rr_sampler_free(rr);
            return keps_error_set(err, KEPS_EINPUT,
                                  "row %u of the transition matrix sums to %.17g, not 1", x, sum);
        }
        int rc = keps_categorical_init(&rr->rows[x], matrix + (size_t)x * n, n, err);
        if (rc != KEPS_OK) {
            keps_rr_sampler_free(rr);
            return rc;
        }
    }
    rr->epsilon = sampled_epsilon(rr);
    return KEPS_OK;
}

uint32_t keps_rr_sampler_apply(keps_rng *r, const keps_rr_sampler *rr, uint32_t value)
{
    return keps_categorical_draw(r, &rr->rows[value]);
}

uint32_t keps_rr_sample(keps_rng *r, const double *matrix, uint32_t n, uint32_t value)
{
    if (value >= n)
        return n;
    return keps_sample_categorical(r, matrix + (size_t)value * n, n);
}
