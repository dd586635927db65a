/* Private: floating-point operations rounded towards +infinity, exactly,
 * in the default rounding mode. A stated privacy level must never be
 * smaller than the true one, and a scale must never be smaller than the
 * sensitivity it covers divided by the budget: these are the roundings
 * that keep both true (as OpenDP's inf_add, inf_mul, inf_div). Each result
 * is the smallest double >= the exact real result (for finite operands). */
#ifndef KEPS_FP_UP_H
#define KEPS_FP_UP_H

#include <math.h>

/* a + b rounded up: TwoSum gives the exact rounding error. */
static inline double keps_add_up(double a, double b)
{
    double s = a + b;
    if (!isfinite(s))
        return s;
    double bb = s - a, err = (a - (s - bb)) + (b - bb);
    return err > 0 ? nextafter(s, INFINITY) : s;
}

/* a * b rounded up: fma gives the exact sign of the error. */
static inline double keps_mul_up(double a, double b)
{
    double p = a * b;
    if (!isfinite(p))
        return p;
    return fma(a, b, -p) > 0 ? nextafter(p, INFINITY) : p;
}

/* a / b rounded up, b > 0: q*b - a < 0 exactly when q < a/b. */
static inline double keps_div_up(double a, double b)
{
    double q = a / b;
    if (!isfinite(q))
        return q;
    return fma(q, b, -a) < 0 ? nextafter(q, INFINITY) : q;
}

/* a - b rounded up (b's sign flipped: exact). */
static inline double keps_sub_up(double a, double b)
{
    return keps_add_up(a, -b);
}

/* a - b rounded down: -((-a) + b) rounded up. */
static inline double keps_sub_down(double a, double b)
{
    return -keps_add_up(-a, b);
}

#endif
