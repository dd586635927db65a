"""Statistics shared by the oracles' goodness-of-fit tests (stdlib only)."""
import math


def gamma_q(a, x):
    """Regularized upper incomplete gamma Q(a, x): series for x < a + 1,
    Lentz's continued fraction otherwise (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:
        s = term = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            s += term
            if abs(term) < abs(s) * 1e-16:
                break
        return 1.0 - s * math.exp(-x + a * math.log(x) - lg)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta_ = d * c
        h *= delta_
        if abs(delta_ - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - lg) * h
