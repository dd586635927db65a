/* The delta of epsilon-safe k-anonymization under sampling (docs/spec.md 6):
 * delta = max_{n >= n_min} P[Bin(n, beta) > gamma n], all in log space. */
#include <float.h>
#include <math.h>

#include "keps/safela.h"

#define LN_2PI 1.837877066409345483560659472811

/* Where gamma*n or k/gamma - 1 is "an integer": gamma = beta(2 - beta) is
 * within a few ulps of the exact decimal value and gamma*n within a few more
 * (about 1e-15 relative), so a relative tolerance of 1e-13 (450 ulps) catches
 * every tie the exact rationals have (the thesis's tables need them) while a
 * real fractional part of a decimal beta's gamma*n (a multiple of 1e-4 for two
 * decimals) stays clear of it for every n keps searches (gamma*n ~ k <= 1e8).
 * Counting a tie is the conservative side (see safela.h). The tolerance was
 * 1e-9: at k = 1e8 that is 0.1 absolute, which turned gamma*n = 100000000.1
 * into a tie and overstated delta by a factor e^0.52 (tests/test_safela_delta.c,
 * huge_k_no_false_tie). */
#define TIE_TOL 1e-13

/* Search cap: at most this many n beyond n_min (each costs a few dozen
 * flops); beyond it delta is replaced by the Chernoff bound (still valid). */
#define N_SEARCH_CAP 10000000L

/* Stirling-series error: log(n!) - [(n+1/2) log n - n + log sqrt(2 pi)]. */
static double stirlerr(double n)
{
    if (n <= 15.0)
        return lgamma(n + 1.0) - (n + 0.5) * log(n) + n - 0.5 * LN_2PI;
    double nn = n * n;
    const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
    if (n > 500)
        return (s0 - s1 / nn) / n;
    if (n > 80)
        return (s0 - (s1 - s2 / nn) / nn) / n;
    if (n > 35)
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/* x log(x/np) + np - x without cancellation (Loader 2000). */
static double bd0(double x, double np)
{
    if (fabs(x - np) < 0.1 * (x + np)) {
        double v = (x - np) / (x + np), s = (x - np) * v, ej = 2 * x * v;
        v *= v;
        for (int j = 1; j < 1000; j++) {
            ej *= v;
            double s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                return s1;
            s = s1;
        }
        return s;
    }
    return x * log(x / np) + np - x;
}

double keps_log_binom_pmf(long j, long n, double p)
{
    if (j < 0 || j > n)
        return -INFINITY;
    double q = 1.0 - p;
    if (j == 0)
        return (double)n * log1p(-p);
    if (j == n)
        return (double)n * log(p);
    double x = (double)j, nd = (double)n;
    double lc = stirlerr(nd) - stirlerr(x) - stirlerr(nd - x) - bd0(x, nd * p) - bd0(nd - x, nd * q);
    double lf = LN_2PI + log(x) + log1p(-x / nd);
    return lc - 0.5 * lf;
}

double keps_log_binom_upper_tail(long a, long n, double p)
{
    if (a < 0)
        a = 0;
    if (a > n)
        return -INFINITY;
    double odds = p / (1.0 - p);
    /* Terms relative to the first: t_{j+1}/t_j = (n-j)/(j+1) * odds, which
     * decreases in j and is < 1 from a >= np on, so after term j the rest is
     * at most t_j * r/(1-r) (geometric bound): stop when that is below 1e-17
     * of the sum. */
    double s = 1.0, cur = 1.0;
    for (long j = a; j < n; j++) {
        double r = (double)(n - j) / (double)(j + 1) * odds;
        cur *= r;
        s += cur;
        double rn = (double)(n - j - 1) / (double)(j + 2) * odds;
        if (cur == 0.0 || (rn < 1.0 && cur * rn / (1.0 - rn) < 1e-17 * s))
            break;
    }
    return keps_log_binom_pmf(a, n, p) + log(s);
}

double keps_safela_default_gap(double beta)
{
    return -log1p(-beta);
}

/* Rounds x >= 0 up to an integer, treating values within TIE_TOL (relative
 * to x: the rounding error of x is relative) of an integer as that integer.
 * A tiny positive x is no tie with 0: it has a tiny error too. */
static long ceil_tol(double x)
{
    double m = nearbyint(x);
    if (fabs(x - m) <= TIE_TOL * fabs(x))
        return (long)m;
    return (long)ceil(x);
}

/* First j of the tail "j > gamma n", with a tie (gamma n integer) included. */
static long tail_start(double gamma, long n)
{
    return ceil_tol(gamma * (double)n);
}

/* Kullback-Leibler divergence D(g || b) of Bernoulli distributions. */
static double kl_bern(double g, double b)
{
    double d = g * log(g / b);
    if (g < 1.0)
        d += (1.0 - g) * log((1.0 - g) / (1.0 - b));
    return d;
}

keps_status keps_safela_delta(long k, double beta, double gap, keps_delta_result *r, keps_error *err)
{
    if (k < 1)
        return keps_error_set(err, KEPS_EINPUT, "k = %ld: k must be at least 1", k);
    if (!(beta > 0.0 && beta < 1.0))
        return keps_error_set(err, KEPS_EINPUT, "beta = %g: the sampling probability must be in (0, 1)", beta);
    double dgap = keps_safela_default_gap(beta);
    double gamma, c; /* c = 1 - gamma, computed on its own: gamma rounds to 1 when c < 1e-16 */
    if (isnan(gap)) {
        gap = dgap;
        gamma = beta * (2.0 - beta); /* (1/(1-b) - 1 + b)(1-b), exact form */
        c = (1.0 - beta) * (1.0 - beta);
    } else {
        if (!(gap >= dgap * (1.0 - 1e-12)))
            return keps_error_set(err, KEPS_EINPUT,
                                  "epsilon - epsilon' = %.10g is below -ln(1-beta) = %.10g: the guarantee needs "
                                  "epsilon >= epsilon' - ln(1-beta); raise epsilon or lower beta",
                                  gap, dgap);
        c = (1.0 - beta) * exp(-gap);
        gamma = 1.0 - c;
    }
    r->gamma = gamma;
    r->eps_gap = gap;
    r->capped = 0;
    /* n_min = ceil(k/gamma - 1) = (k - 1) + ceil(k c/(1 - c)): the excess over
     * k - 1 from c keeps its digits when gamma is within an ulp of 1 (e.g.
     * eps - eps' = 50 at beta 0.7: c = 6e-23, k/gamma - 1 = k - 1 + 4e-21,
     * n_min = k; k/gamma - 1 in doubles is k - 1 exactly) */
    long nmin = (k - 1) + ceil_tol((double)k * c / (1.0 - c));
    if (nmin < 1)
        nmin = 1;
    r->n_min = nmin;
    /* Stopping rule. For every n, P[Bin(n,b) >= a] <= exp(-n D(a/n || b))
     * when a/n >= b (Chernoff-Hoeffding), and a(n) >= gamma n up to the tie
     * tolerance, so each tail from n on is at most exp(-n D(gamma' || b))
     * with gamma' = gamma (1 - TIE_TOL); that bound decreases in n. Once it
     * is at or below the largest tail seen, no later n can beat it: stop.
     * The tail itself decays like exp(-n D)/sqrt(n), so the maximum sits in
     * the first few sawtooth periods after n_min (the floor in gamma n makes
     * the tail jump up whenever gamma n crosses an integer) and the rule
     * fires within about (ln n_min / 2 + 3) / D steps. */
    double dkl = kl_bern(gamma * (1.0 - TIE_TOL), beta);
    double best = -INFINITY;
    long arg = nmin, n = nmin;
    for (;; n++) {
        double lt = keps_log_binom_upper_tail(tail_start(gamma, n), n, beta);
        if (lt > best) {
            best = lt;
            arg = n;
        }
        double bound = -(double)n * dkl;
        if (best > -INFINITY && bound <= best)
            break;
        if (n - nmin >= N_SEARCH_CAP) {
            /* every later tail is <= exp(bound); report the larger */
            if (bound > best) {
                best = bound;
                r->capped = 1;
            }
            break;
        }
    }
    r->n_last = n;
    r->n_argmax = arg;
    r->log_delta = best;
    r->delta = exp(best);
    return KEPS_OK;
}

keps_status keps_safela_min_k(double target, double beta, double gap, long max_k, long *k,
                              keps_delta_result *r, keps_error *err)
{
    if (!(target > 0.0 && target < 1.0))
        return keps_error_set(err, KEPS_EINPUT, "delta = %g: the target must be in (0, 1)", target);
    if (max_k < 1)
        return keps_error_set(err, KEPS_EINPUT, "max k = %ld: must be at least 1", max_k);
    keps_delta_result tmp;
    keps_status st = keps_safela_delta(max_k, beta, gap, &tmp, err);
    if (st)
        return st;
    if (tmp.delta > target)
        return keps_error_set(err, KEPS_EJOB,
                              "no k up to %ld reaches delta <= %g (k = %ld gives %.4g); raise the largest k "
                              "searched or lower beta",
                              max_k, target, max_k, tmp.delta);
    /* invariant: delta(hi) <= target; delta(lo) > target or lo == 0 */
    long lo = 0, hi = max_k;
    *r = tmp;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if ((st = keps_safela_delta(mid, beta, gap, &tmp, err)))
            return st;
        if (tmp.delta <= target) {
            hi = mid;
            *r = tmp;
        } else {
            lo = mid;
        }
    }
    *k = hi;
    return KEPS_OK;
}
