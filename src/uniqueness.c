/* Population uniqueness: Pitman, Zayatz, SNB and Dankar's rule, computed as
 * ARX 3.9.2 does (see include/keps/uniqueness.h and docs/spec.md). The
 * numeric path follows ARX's so that the figures agree to its solver's
 * tolerance: the same equations, the same start values and the same
 * Newton-Raphson loop (accuracy 1e-6, 1000 steps per start, 16 prepared
 * start values), and ARX's digamma/trigamma approximations in the Newton
 * steps. ARX's solver also stops after 100 ms per start and 1 s in all;
 * keps has no clock in its arithmetic, so where ARX gives up on time keps
 * may still find the root. */
#include "keps/uniqueness.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define NR_ACCURACY 1e-6
#define NR_STEPS_PER_START 1000
#define NR_STARTS 16

static const double PI = 3.14159265358979323846;
static const double EULER = 0.57721566490153286060651209008240243104215933593992;
static const double ZETA3 = 1.202056903159594285399738161511449990764986292;

/* ---- digamma and trigamma, the approximations ARX's solver uses ----
 * Minka's Lightspeed recipes: a Taylor term near 0, reflection for negative
 * arguments, the recurrence psi(x) = psi(x+1) - 1/x up to x >= 12, then the
 * asymptotic series. ARX's trigamma recurs only up to x >= 8 but applies its
 * series only from x >= 12: an argument below 12 gets the recurrence terms
 * without the series' tail (below 8), or 0 (from 8 to 12). keps keeps that,
 * because it shapes ARX's Newton steps (only the steps: the equations
 * solved use digamma, which is accurate). */
static double digamma(double x)
{
    if (!isfinite(x))
        return NAN;
    if (x == 0)
        return -INFINITY;
    if (x < 0)
        return digamma(1 - x) + PI / tan(-PI * x);
    if (x <= 1e-6)
        return -EULER - 1 / x + PI * PI / 6 * x;
    double r = 0;
    while (x < 12) {
        r -= 1 / x;
        x += 1;
    }
    double i = 1 / x, i2 = i * i;
    /* ln x - 1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + 1/(240x^8) - 1/(132x^10) */
    r += log(x) - 0.5 * i;
    r -= i2 * (1.0 / 12 - i2 * (1.0 / 120 - i2 * (1.0 / 252 - i2 * (1.0 / 240 - i2 * (1.0 / 132)))));
    return r;
}

static double trigamma_arx(double x)
{
    if (!isfinite(x))
        return NAN;
    if (x == 0)
        return -INFINITY;
    if (x < 0) {
        double s = PI / sin(-PI * x);
        return -trigamma_arx(1 - x) + s * s;
    }
    if (x <= 1e-4)
        return 1 / (x * x) + PI * PI / 6 - 2 * ZETA3 * x;
    double r = 0;
    while (x < 8) {
        r += 1 / (x * x);
        x += 1;
    }
    if (x >= 12) {
        /* 1/x + 1/(2x^2) + 1/(6x^3) - 1/(30x^5) + 1/(42x^7) - 1/(30x^9) + 5/(66x^11) */
        double i2 = 1 / (x * x);
        r += 0.5 * i2 +
             (1 + i2 * (1.0 / 6 + i2 * (-1.0 / 30 + i2 * (1.0 / 42 + i2 * (-1.0 / 30 + i2 * (5.0 / 66)))))) / x;
    }
    return r;
}

/* ---- ARX's two-dimensional Newton-Raphson loop ----
 * eval(ctx, x, y, F, J) sets F (2 values) and J (row-major 2x2 Jacobian).
 * The first try starts at (x0, y0), the next ones at ARX's 16 prepared
 * start values (0, 0.33, 0.66, 0.99 in each coordinate, as ARX accumulates
 * them). After every step: stop altogether once the last prepared value has
 * been taken; start over from the next value when the constraint x >= 0
 * (if asked) fails, the point is NaN, or 1000 steps are done. A point whose
 * |F| components are both <= 1e-6 is the answer; none gives NaN. */
typedef void (*nr_eval)(const void *ctx, double x, double y, double F[2], double J[4]);

static void nr_solve(nr_eval eval, const void *ctx, int x_nonneg, double x0, double y0, double *xo, double *yo)
{
    double start[NR_STARTS][2];
    int ns = 0;
    for (double a = 0; a < 1; a += 0.33)
        for (double b = 0; b < 1; b += 0.33)
            start[ns][0] = a, start[ns++][1] = b;
    const long total = (long)(NR_STARTS + 1) * NR_STEPS_PER_START;
    long steps = 0;
    int next = 0, first = 1;
    while (steps <= total) {
        double x = x0, y = y0;
        if (!first)
            x = start[next][0], y = start[next][1], next++;
        first = 0;
        int tries = 0;
        for (;;) {
            double F[2], J[4];
            steps++;
            eval(ctx, x, y, F, J);
            if (fabs(F[0]) <= NR_ACCURACY && fabs(F[1]) <= NR_ACCURACY) {
                *xo = x, *yo = y;
                return;
            }
            double s = 1.0 / (J[0] * J[3] - J[1] * J[2]);
            double i00 = J[3] * s, i01 = -J[1] * s, i10 = -J[2] * s, i11 = J[0] * s;
            double dx = i00 * F[0] + i01 * F[1], dy = i10 * F[0] + i11 * F[1];
            x -= dx;
            y -= dy;
            if (next == NR_STARTS)
                goto fail;
            if (x_nonneg && !(x >= 0))
                break;
            if (isnan(x) || isnan(y) || tries++ >= NR_STEPS_PER_START)
                break;
        }
    }
fail:
    *xo = *yo = NAN;
}

/* ---- Pitman (Hoshino 2001): log-likelihood of theta (x), alpha (y) ----
 * With u classes of n records and c_s classes of size s:
 *   dL/dtheta = sum_{i<u} 1/(theta + i alpha) - sum_{i<n} 1/(theta + i)
 *   dL/dalpha = sum_{i<u} i/(theta + i alpha) - sum_s c_s sum_{j<s} 1/(j - alpha)
 * solved for 0 in closed form (digamma) or by the sums themselves. */
typedef struct {
    const keps_class_sizes *h;
    double u, n;
} pitman_ctx;

static void pitman_closed(const void *vctx, double t, double a, double F[2], double J[4])
{
    const pitman_ctx *p = vctx;
    double u1 = p->u - 1, c = t / a;
    double psi_u = digamma(u1 + c + 1), psi_1 = digamma(c + 1);
    double tri_u = trigamma_arx((a + t + a * u1) / a), tri_1 = trigamma_arx(c + 1);
    double a2 = a * a, dpsi = psi_u - psi_1;
    double o1 = dpsi / a;                                   /* sum 1/(t + i a) */
    double o3 = (a * u1 - t * dpsi) / a2;                   /* sum i/(t + i a) */
    double o2 = digamma(p->n + t) - digamma(t + 1);         /* sum_{i<n} 1/(t + i) */
    double d1 = (tri_1 - tri_u) / a2;                       /* sum 1/(t + i a)^2 */
    double d5 = (a * dpsi + t * (tri_u - tri_1)) / (a2 * a); /* sum i/(t + i a)^2 */
    double d3 = (a2 * u1 + t * t * (tri_1 - tri_u) - 2 * a * t * dpsi) / (a2 * a2); /* sum i^2/(...)^2 */
    double d2 = trigamma_arx(t + 1) - trigamma_arx(p->n + t);
    double o4 = 0, d4 = 0, psi1a = digamma(1 - a), tri1a = trigamma_arx(1 - a);
    for (size_t i = 0; i < p->h->n; i++) {
        double s = p->h->size[i], cnt = p->h->count[i];
        if (s != 1) {
            o4 += cnt * (digamma(s - a) - psi1a);
            d4 += cnt * (tri1a - trigamma_arx(s - a));
        }
    }
    F[0] = o1 - o2, F[1] = o3 - o4;
    J[0] = d2 - d1, J[1] = -d5, J[2] = -d5, J[3] = -d3 - d4;
}

static void pitman_sums(const pitman_ctx *p, double t, double a, double F[2], double J[4])
{
    double o1 = 0, o2 = 0, o3 = 0, o4 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0;
    for (long i = 1; i < p->u; i++) {
        double v = t + i * a, r = 1 / v, r2 = 1 / (v * v);
        d1 += r2;
        d5 += i * r2;
        d3 += i * (i * r2);
        o1 += r;
        o3 += i * r;
    }
    for (size_t k = 0; k < p->h->n; k++) {
        uint32_t s = p->h->size[k];
        if (s == 1)
            continue;
        double q1 = 0, q2 = 0;
        for (uint32_t j = 1; j < s; j++) {
            double v = j - a;
            q1 += 1 / (v * v);
            q2 += 1 / v;
        }
        d4 += p->h->count[k] * q1;
        o4 += p->h->count[k] * q2;
    }
    for (long i = 1; i < p->n; i++) {
        double v = t + i;
        d2 += 1 / (v * v);
        o2 += 1 / v;
    }
    F[0] = o1 - o2, F[1] = o3 - o4;
    if (J)
        J[0] = d2 - d1, J[1] = -d5, J[2] = -d5, J[3] = -d3 - d4;
}

static void pitman_iterative(const void *vctx, double t, double a, double F[2], double J[4])
{
    pitman_sums(vctx, t, a, F, J);
}

static double count_of(const keps_class_sizes *h, uint32_t size)
{
    for (size_t i = 0; i < h->n && h->size[i] <= size; i++)
        if (h->size[i] == size)
            return h->count[i];
    return 0;
}

static double pitman(const keps_class_sizes *h, double N)
{
    pitman_ctx p = {h, (double)h->classes, (double)h->records};
    double c1 = count_of(h, 1), c2 = count_of(h, 2), u = p.u, n = p.n;
    if (c2 == 0)
        c2 = 1;
    /* Hoshino's moment estimates as the start */
    double c = c1 * (c1 - 1) / c2;
    double t0 = (n * u * c - c1 * (n - 1) * (2 * u + c)) / (2 * c1 * u + c1 * c - n * c);
    double a0 = (t0 * (c1 - n) + (n - 1) * c1) / (n * u);
    double t, a;
    nr_solve(pitman_closed, &p, 1, t0, a0, &t, &a);
    int redo = isnan(t) || isnan(a);
    if (!redo) { /* the closed form's root must hold for the sums too */
        double F[2];
        pitman_sums(&p, t, a, F, NULL);
        redo = isnan(F[0]) || isnan(F[1]) || fabs(F[0]) > NR_ACCURACY || fabs(F[1]) > NR_ACCURACY;
    }
    if (redo)
        nr_solve(pitman_iterative, &p, 1, t0, a0, &t, &a);
    if (isnan(t) || isnan(a) || a == 0)
        return NAN;
    /* uniques = Gamma(theta + 1) / Gamma(theta + alpha) * N^alpha, by logs
     * and directly; the larger of those within [0, N] */
    double v1 = exp(lgamma(t + 1) - lgamma(t + a)) * pow(N, a);
    double v2 = tgamma(t + 1) / tgamma(t + a) * pow(N, a);
    v1 = v1 >= 0 && v1 <= N ? v1 : NAN;
    v2 = v2 >= 0 && v2 <= N ? v2 : NAN;
    if (isnan(v1))
        return v2;
    if (isnan(v2))
        return v1;
    return v1 > v2 ? v1 : v2;
}

/* ---- Zayatz (1991) ----
 * P_s = P(X = 1) for X hypergeometric: a sample of n from N holding a class
 * of s. uniqueness = (c_1/u) P_1 / sum_s (c_s/u) P_s, the probability that
 * a sample unique is a population unique; uniques = c_1 * uniqueness / f.
 * ARX's hypergeometric takes N and n as 32-bit integers and caps them at
 * 2^31 - 1; keps does the same (it changes the figures only for
 * populations beyond 2.1 billion). P_s / P_1 = s * prod_{j=1}^{s-1}
 * (N - n - j + 1)/(N - j), summed in logs. */
static double zayatz(const keps_class_sizes *h, double N)
{
    double Nz = N > INT_MAX ? INT_MAX : N, nz = h->records > INT_MAX ? INT_MAX : (double)h->records;
    double u = (double)h->classes, c1 = count_of(h, 1), p1 = nz / Nz, logr = 0, sum = 0;
    uint32_t at = 1; /* logr = log(P_at / (at * P_1)) */
    for (size_t i = 0; i < h->n; i++) {
        uint32_t s = h->size[i];
        for (; at < s; at++) {
            double num = Nz - nz - at + 1;
            logr = num > 0 ? logr + log1p(-(nz - 1) / (Nz - at)) : -INFINITY;
        }
        double ps = s * exp(logr) * p1;
        sum += h->count[i] / u * ps;
    }
    double uniqueness = c1 / u * p1 / sum;
    return c1 * uniqueness / ((double)h->records / N);
}

/* ---- SNB (Chen & McNulty 1998) ----
 * K, the population's non-empty classes, by ARX's form of Shlosser's
 * estimator: K = u + c_1 * A/B * (C/D)^2 with, over the sizes i (c_i
 * classes each),
 *   A = sum i f^2 (1 - f^2)^(i-1) c_i        B = sum ((1-f)^i c_i (1+f)^i - 1)
 *   C = sum (1-f)^i c_i                      D = sum i f (1-f)^(i-1) c_i
 * (ARX subtracts the 1 in B once per size, not once per class as
 * sum (1-f)^i ((1+f)^i - 1) c_i would.) Then alpha (x) and beta (y) solve
 *   K f (b/q)^a (a d/q + 1) = c_1,
 *   K a b^a f^2 (1-b)/2 q^(a+2) (2 - (1-a) d) = c_2,
 * with d = (1-f)(1-b), q = 1 - d, and uniques = K b^a. ARX's Newton steps
 * use for the second equation the derivative of the form with q^-(a+2)
 * (the published one); keps takes the same steps. */
typedef struct {
    double K, f, c1, c2;
} snb_ctx;

static void snb_eval(const void *vctx, double a, double b, double F[2], double J[4])
{
    const snb_ctx *s = vctx;
    double f = s->f, K = s->K, d = (1 - f) * (1 - b), q = 1 - d;
    double A = pow(b / q, a), B = a * d / q + 1;
    F[0] = K * f * A * B - s->c1;
    F[1] = K * a * pow(b, a) * (f * f) * (1 - b) / 2 * pow(q, a + 2) * (2 - (1 - a) * d) - s->c2;
    /* row 1: the derivatives of the first equation */
    double lbq = log(b / q);
    J[0] = K * f * (A * lbq * B + A * d / q);
    double dA = a * pow(b / q, a - 1) * (q - b * (1 - f)) / (q * q), dB = -a * (1 - f) / (q * q);
    J[1] = K * f * (dA * B + A * dB);
    /* row 2: of g = C a b^a (1-b) q^-(a+2) E, C = K f^2/2, E = 2 - (1-a) d */
    double C = K * f * f / 2, E = 2 - (1 - a) * d, ba = pow(b, a), qm = pow(q, -(a + 2));
    J[2] = C * (1 - b) * ba * qm * (E + a * E * log(b) - a * E * log(q) + a * d);
    J[3] = C * a *
           (a * pow(b, a - 1) * (1 - b) * qm * E - ba * qm * E -
            ba * (1 - b) * (a + 2) * (1 - f) * pow(q, -(a + 3)) * E + ba * (1 - b) * qm * (1 - a) * (1 - f));
}

static double snb(const keps_class_sizes *h, double N)
{
    double f = (double)h->records / N, f2 = f * f, u = (double)h->classes, c1 = count_of(h, 1);
    double A = 0, B = 0, C = 0, D = 0;
    for (size_t k = 0; k < h->n; k++) {
        double i = h->size[k], ci = h->count[k], g = pow(1 - f, i) * ci;
        A += i * f2 * pow(1 - f2, i - 1) * ci;
        B += g * pow(1 + f, i) - 1;
        C += g;
        D += i * f * pow(1 - f, i - 1) * ci;
    }
    snb_ctx s = {u + c1 * (A / B) * (C / D) * (C / D), f, c1, count_of(h, 2)};
    double a, b;
    nr_solve(snb_eval, &s, 0, 1, 1, &a, &b);
    return s.K * pow(b, a);
}

/* ---- the estimates and Dankar's rule ---- */

static int valid(double v)
{
    return !isnan(v) && v != 0;
}

double keps_population_from_fraction(size_t rows, double fraction)
{
    return floor((double)rows / fraction + 0.5);
}

const char *keps_uniq_model_name(keps_uniq_model m)
{
    static const char *const names[] = {"pitman", "zayatz", "snb", "dankar", "none"};
    return (unsigned)m <= KEPS_UNIQ_NONE ? names[m] : "?";
}

keps_status keps_population_uniqueness(const keps_class_sizes *h, double population, keps_uniqueness *out,
                                       keps_error *err)
{
    memset(out, 0, sizeof *out);
    out->model = KEPS_UNIQ_NONE;
    if (!(population >= 1) || population != floor(population) || population > 9007199254740992.0)
        return keps_error_set(err, KEPS_EINPUT,
                              "population size %g: expected a whole number of records from 1 to 2^53", population);
    if (population < (double)h->records)
        return keps_error_set(err, KEPS_EINPUT,
                              "population size %.0f is smaller than the sample's %zu records: the population "
                              "holds the sample",
                              population, h->records);
    out->population = population;
    out->sampling_fraction = (double)h->records / population;
    out->sample_uniques = (size_t)count_of(h, 1);
    if (out->sample_uniques == 0) /* no sample unique: no population unique either */
        return KEPS_OK;
    double v[KEPS_UNIQ_MODELS];
    v[KEPS_UNIQ_PITMAN] = pitman(h, population);
    v[KEPS_UNIQ_ZAYATZ] = zayatz(h, population);
    v[KEPS_UNIQ_SNB] = snb(h, population);
    if (out->sampling_fraction <= 0.1) {
        out->model = valid(v[KEPS_UNIQ_PITMAN]) ? KEPS_UNIQ_PITMAN : KEPS_UNIQ_ZAYATZ;
    } else if (valid(v[KEPS_UNIQ_SNB])) {
        out->model = v[KEPS_UNIQ_ZAYATZ] < v[KEPS_UNIQ_SNB] ? KEPS_UNIQ_ZAYATZ : KEPS_UNIQ_SNB;
    } else {
        out->model = KEPS_UNIQ_ZAYATZ;
    }
    v[KEPS_UNIQ_DANKAR] = v[out->model];
    for (int m = 0; m < KEPS_UNIQ_MODELS; m++) {
        out->uniques[m] = valid(v[m]) ? v[m] : NAN;
        out->share[m] = out->uniques[m] / population;
    }
    return KEPS_OK;
}
