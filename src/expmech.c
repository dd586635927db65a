/* Exponential mechanism: exact rejection sampling (see include/keps/expmech.h). */
#include "keps/expmech.h"

#include <math.h>

#include "keps/noise.h"

/* Largest finite utility; -1 if the arguments are unusable. */
static int check(const double *u, size_t n, double eps, double du, double *umax)
{
    if (!u || n == 0 || !(eps > 0) || !isfinite(eps) || !(du > 0) || !isfinite(du))
        return -1;
    double m = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (isnan(u[i]) || u[i] == INFINITY)
            return -1;
        if (u[i] > m)
            m = u[i];
    }
    if (m == -INFINITY)
        return -1;
    *umax = m;
    return 0;
}

size_t keps_expmech(keps_rng *r, const double *u, size_t n, double eps, double du)
{
    double umax;
    if (check(u, n, eps, du, &umax) != 0)
        return (size_t)-1;
    double c = eps / (2 * du);
    /* Propose uniformly, accept with exp(-gamma_i): Pr[i] proportional to
     * exp(-gamma_i) = exp(c*(u_i - u_max)), the mechanism's weights. */
    for (;;) {
        size_t i = (size_t)keps_rng_below(r, n);
        if (u[i] == -INFINITY)
            continue;
        if (keps_bernoulli_exp(r, (umax - u[i]) * c))
            return i;
    }
}

int keps_expmech_probs(const double *u, size_t n, double eps, double du, double *p)
{
    double umax;
    if (check(u, n, eps, du, &umax) != 0)
        return -1;
    long double c = (long double)eps / (2.0L * du), sum = 0;
    /* log-sum-exp: every exponent is <= 0, the largest is 0, so no overflow
     * and the sum is >= 1. */
    for (size_t i = 0; i < n; i++)
        sum += expl(c * ((long double)u[i] - umax));
    for (size_t i = 0; i < n; i++)
        p[i] = (double)(expl(c * ((long double)u[i] - umax)) / sum);
    return 0;
}
