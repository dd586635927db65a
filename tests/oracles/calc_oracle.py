#!/usr/bin/env python3
"""Independent oracle for keps's calculators (docs/spec.md 6 and 7). stdlib only.

delta: exact binomial tails with Python integers (beta as an exact decimal),
both tie rules (docs/spec.md's strict j > gamma n, keps's j >= gamma n) and both
starting points (docs/spec.md/Li: n_min = ceil(k/gamma - 1); thesis eq. 3.8: ceil(k/gamma)).
Large n: log-space with lgamma + fsum.
RR: levels straight from the definitions on the transition matrix, in Fractions.
"""
import math
from fractions import Fraction as F


def ceil_frac(x):
    return -((-x.numerator) // x.denominator)


def log_int(x):
    """natural log of a positive Python int (any size)"""
    return math.log(x)


def tail_exact_log(a, n, B, D):
    """log P[Bin(n, B/D) >= a], exact big-int sum then log."""
    if a > n:
        return -math.inf
    a = max(a, 0)
    C = D - B
    # sum_{j=a}^n C(n,j) B^j C^(n-j)
    c = math.comb(n, a)
    s = 0
    bj = B ** a
    cj = C ** (n - a)
    for j in range(a, n + 1):
        s += c * bj * cj
        if j < n:
            c = c * (n - j) // (j + 1)
            bj *= B
            cj //= C if C != 0 else 1
    if s == 0:
        return -math.inf
    return math.log(s) - n * math.log(D)


def tail_log_space(a, n, b):
    """log P[Bin(n,b) >= a] in log space (for large n): lgamma terms, log-sum-exp."""
    if a > n:
        return -math.inf
    lb, lq = math.log(b), math.log1p(-b)
    lgn = math.lgamma(n + 1)
    terms = []
    for j in range(a, n + 1):
        t = lgn - math.lgamma(j + 1) - math.lgamma(n - j + 1) + j * lb + (n - j) * lq
        terms.append(t)
        if len(terms) > 50 and t < terms[0] - 60:
            break
    m = max(terms)
    return m + math.log(math.fsum(math.exp(t - m) for t in terms))


def delta(k, beta, E=None, strict=False, thesis_start=False, logspace=False, margin=1e-6):
    """d(k, beta, eps - eps'); E = e^(eps-eps') as a Fraction (None: default 1/(1-beta)).
    Returns (delta_log, n_min, n_argmax, gamma)."""
    b = F(beta)
    if E is None:
        g = b * (2 - b)
    else:
        g = (E - 1 + b) / E
    x = F(k) / g
    nmin = ceil_frac(x) if thesis_start else ceil_frac(x - 1)
    nmin = max(nmin, 1)
    gf, bf = float(g), float(b)
    kl = gf * math.log(gf / bf) + ((1 - gf) * math.log((1 - gf) / (1 - bf)) if gf < 1 else 0.0)
    best, arg = -math.inf, nmin
    n = nmin
    while True:
        gn = g * n
        if strict:
            a = gn.numerator // gn.denominator + 1  # smallest j > gamma n
        else:
            a = ceil_frac(gn)  # smallest j >= gamma n
        if logspace:
            lt = tail_log_space(a, n, bf)
        else:
            lt = tail_exact_log(a, n, b.numerator, b.denominator)
        if lt > best:
            best, arg = lt, n
        # every later tail <= exp(-n' KL) < exp(-n KL); stop with a margin
        if best > -math.inf and -n * kl < best + math.log(margin):
            break
        n += 1
    return best, nmin, arg, g


def min_k(target, beta, E=None, kmax=100000, **kw):
    lt = math.log(target)
    lo, hi = 0, kmax
    if delta(kmax, beta, E, **kw)[0] > lt:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if delta(mid, beta, E, **kw)[0] <= lt:
            hi = mid
        else:
            lo = mid
    return hi


# ---------------------------------------------------------------- RR (docs/spec.md 7)

def ldp_matrix(n, p):
    p = F(p)
    return [[(1 - p) / n + (p if y == z else 0) for z in range(n)] for y in range(n)]


def t_matrix(freq, pt):
    pt = F(pt)
    n = len(freq)
    return [[(1 - pt) * freq[z] + (pt if y == z else 0) for z in range(n)] for y in range(n)]


def compose(A, B):
    n = len(A)
    return [[sum(A[y][w] * B[w][z] for w in range(n)) for z in range(n)] for y in range(n)]


def matrix_eps(M):
    """eps-LDP of the matrix over all inputs: ln max_z max_y M/min_y M"""
    worst = F(1)
    for z in range(len(M)):
        col = [M[y][z] for y in range(len(M))]
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return math.inf
        worst = max(worst, hi / lo)
    return math.log(worst)


def ratio(a, b):
    if a == 0 and b == 0:
        return F(1)
    if a == 0 or b == 0:
        return math.inf
    return max(a / b, b / a)


def mult_t_single_value_classes(M, freq):
    """Def. 4 where the worst class holds one value a_i (eq. (2) meaning): data with
    frequencies freq; Pr_D(z) = sum_y f_y M[y][z]."""
    n = len(M)
    pd = [sum(freq[y] * M[y][z] for y in range(n)) for z in range(n)]
    t = F(1)
    for i in range(n):
        if freq[i] == 0:
            continue
        for z in range(n):
            r = ratio(pd[z], M[i][z])
            t = math.inf if (r == math.inf or t == math.inf) else max(t, r)
    return t


def utility(M, freq):
    n = len(M)
    return sum(max(freq[y] * M[y][z] for y in range(n)) for z in range(n))


# Implication formulas (docs/spec.md 7 as corrected in docs/spec.md 10)
def thm2_ldp_to_1t(eps, N):
    return (math.exp(eps) * (N - 1) + 1) / N


def thm3_printed(eps, k, N):
    return (k / N) * (1 + (N - k - 1) * math.exp(eps) / k)


def thm3_attained(eps, k, N):
    return (k + (N - k) * math.exp(eps)) / N


def worst_kt_under_ldp(eps, k, N):
    """brute force: records' probabilities in {q, e^eps q} (extremes); the (k,t) level
    is max over configurations of max over k-subsets. Extremes suffice (ratios are
    monotone in each probability)."""
    a = math.exp(eps)
    best = 1.0
    for m in range(N + 1):  # m records at a*q, N-m at q
        tot = m * a + (N - m)
        pd = tot / N
        # lowest k-subset: as many q's as possible
        lo_q = min(k, N - m)
        lo = (lo_q + (k - lo_q) * a) / k
        hi_a = min(k, m)
        hi = (hi_a * a + (k - hi_a)) / k
        best = max(best, pd / lo, hi / pd)
    return best
