#!/usr/bin/env python3
"""Independent oracle for `keps privacy delta` (docs/spec.md 6), in exact rational
arithmetic: delta = max_{n >= n_min} P[Bin(n, beta) >= gamma n], with
gamma = beta (2 - beta) (the default epsilon = epsilon' - ln(1 - beta)),
n_min = ceil(k/gamma - 1), beta taken as the exact decimal it is written as.
The tail includes j = gamma n when gamma n is an integer (keps's documented
tie rule). The scan over n runs until the exact Chernoff bound
exp(-n KL(gamma||beta)) is below 1e-3 of the maximum found: a different
stopping rule from keps's on purpose.

Cases with an explicit epsilon (docs/spec.md 6: gamma = (e^g - 1 + beta)/e^g with
g = epsilon - epsilon') take g = ln E for an integer E, so that gamma =
1 - (1 - beta)/E stays rational.

Prints one line per case: k beta E delta(float, 17 digits), E = "-" for the
default epsilon."""
import math
import sys
from fractions import Fraction

CASES = [(2, "0.5"), (5, "0.3"), (20, "0.5"), (55, "0.6"), (55, "0.75"), (74, "0.7"), (75, "0.7"),
         (75, "0.75"), (75, "0.8"), (80, "0.65"), (150, "0.95"), (40, "0.9")]
# (k, beta, E): epsilon - epsilon' = ln E >= -ln(1 - beta)
GAP_CASES = [(75, "0.7", 4), (20, "0.5", 3), (55, "0.75", 10), (5, "0.3", 2), (150, "0.9", 12)]


def ceil_frac(x):
    return -((-x.numerator) // x.denominator)


def tail(a, n, b):
    q = 1 - b
    return sum(math.comb(n, j) * b ** j * q ** (n - j) for j in range(a, n + 1))


def delta(k, beta, e=None):
    b = Fraction(beta)
    g = b * (2 - b) if e is None else 1 - (1 - b) / e
    nmin = max(1, ceil_frac(Fraction(k) / g - 1))
    gf, bf = float(g), float(b)
    kl = gf * math.log(gf / bf) + (1 - gf) * math.log((1 - gf) / (1 - bf))
    best = Fraction(0)
    n = nmin
    while True:
        t = tail(ceil_frac(g * n), n, b)
        best = max(best, t)
        if best > 0 and -n * kl < math.log(float(best)) - math.log(1e3):
            return best
        n += 1


if __name__ == "__main__":
    for k, beta in CASES:
        print(k, beta, "-", "%.17g" % float(delta(k, beta)))
    for k, beta, e in GAP_CASES:
        print(k, beta, e, "%.17g" % float(delta(k, beta, e)))
    sys.exit(0)
