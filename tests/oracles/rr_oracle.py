"""Independent model of `keps rr` (docs/spec.md 7; Ekenstedt et al. 2022),
written from docs/spec.md (sections 7, 9 and 10) and `keps rr --help`, not from
src/rr.c. Standard library only; levels in exact Fractions (keep
probabilities are read as the exact binary fractions of keps's doubles).

Mechanisms on the joint category a = (value of each --sensitive column):
  RR-LDP (Fig. 4):  L = p I + (1-p)/n J          (n = number of categories)
  RR-t   (Fig. 5):  T = p_t I + (1-p_t) 1 f^T    (f = the data's distribution)
  both:  T then L, as the paper's mechanism 2:  M = T L
Levels from the definitions applied to M (docs/spec.md 7, 9: "compute levels from
the transition matrix, not from printed closed forms"):
  Def. 6 eps-LDP:   ln max_z max_{y,y'} M[y][z]/M[y'][z]
  Def. 4 mult. t:   max over classes E and z of Pr_D(z)/Pr_E(z) and inverse,
                    Pr_X(z) = mean over the records of X of M[c_i][z]
  Def. 7 (k,t):     the same over every k-subset; worst = the k records with
                    the highest / lowest M[c_i][z] (docs/spec.md 7)
  Def. 8 (k,eps)-DP: ln of (N-k, t)-closeness (Theorem 4.1, docs/spec.md 7)
  eq. (4) utility:  U = sum_z max_y f(y) M[y][z]
"""
import math
from fractions import Fraction as F

INF = math.inf

# ---------------------------------------------------------------- matrices
def ldp_matrix(n, p):
    p = F(p)
    u = (1 - p) / n
    return [[p + u if y == z else u for z in range(n)] for y in range(n)]

def t_matrix(freq, pt):
    pt = F(pt)
    n = len(freq)
    return [[(pt if y == z else 0) + (1 - pt) * freq[z] for z in range(n)] for y in range(n)]

def compose(A, B):
    n = len(A)
    return [[sum(A[y][j] * B[j][z] for j in range(n)) for z in range(n)] for y in range(n)]

def mechanism_matrix(mech, n, freq, p=None, pt=None):
    if mech == "ldp":
        return ldp_matrix(n, p)
    if mech == "tclose":
        return t_matrix(freq, pt)
    return compose(t_matrix(freq, pt), ldp_matrix(n, p))     # RR-t, then RR-LDP

# ---------------------------------------------------------------- levels
def ratio_t(a, b):
    """smallest t >= 1 with 1/t <= a/b <= t (0/0 -> 1, x/0 -> inf)"""
    if a == b:
        return F(1)
    if a == 0 or b == 0:
        return INF
    return max(a / b, b / a)

def ln(x):
    return INF if x == INF else math.log(x)

def matrix_eps(M, rows):
    """Def. 6 with the inputs restricted to `rows` (all categories: the
    mechanism's level; the categories present: the level on this data)."""
    worst = F(1)
    for z in range(len(M)):
        col = [M[y][z] for y in rows]
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return INF
        worst = max(worst, hi / lo)
    return ln(worst)

def pr_all(M, counts, N):
    n = len(M)
    return [sum(counts[y] * M[y][z] for y in range(n) if counts[y]) / N for z in range(n)]

def verify_mult_t(M, counts, class_counts, N):
    """Def. 4: class_counts = list of per-class category counts."""
    pd = pr_all(M, counts, N)
    worst = F(1)
    for cc in class_counts:
        size = sum(cc)
        pe = pr_all(M, cc, size)
        for z in range(len(M)):
            worst = max(worst, ratio_t(pd[z], pe[z]))
    return worst

def subset_extremes(col, counts, k):
    """mean of the k records with the highest and with the lowest values of
    col[c_i] (records grouped by category)."""
    order = sorted((col[y], counts[y]) for y in range(len(col)) if counts[y])
    def take(seq):
        left, s = k, F(0)
        for v, c in seq:
            m = min(c, left)
            s += m * v
            left -= m
            if not left:
                break
        return s / k
    return take(reversed(order)), take(order)

def verify_kt(M, counts, N, k):
    """Def. 7: (k,t)-closeness, worst k-subset by sorting (docs/spec.md 7)."""
    pd = pr_all(M, counts, N)
    worst = F(1)
    for z in range(len(M)):
        col = [M[y][z] for y in range(len(M))]
        hi, lo = subset_extremes(col, counts, k)
        worst = max(worst, ratio_t(pd[z], hi), ratio_t(pd[z], lo))
    return worst

def verify_kdp(M, counts, N, kdp):
    """Def. 8, removal of kdp records = (N-kdp, t)-closeness, eps = ln t."""
    return ln(verify_kt(M, counts, N, N - kdp))

def single_value_t(M, freq):
    """Def. 4's worst case over classes holding a single value (docs/spec.md 7 on
    eq. (2)): Pr_D = f M, Pr_E = M[y] for every category y the data holds.
    Because Pr_E of any class or subset is a mean of such rows, this bounds
    multiplicative t and (k,t)-closeness for every k on data with
    distribution f."""
    n = len(M)
    pd = [sum(freq[y] * M[y][z] for y in range(n)) for z in range(n)]
    worst = F(1)
    for y in range(n):
        if not freq[y]:
            continue
        for z in range(n):
            worst = max(worst, ratio_t(pd[z], M[y][z]))
    return worst

def thm3_t(eps, k, N):
    """eps-LDP => (k,t)-closeness, t = (k + (N-k) e^eps)/N: docs/spec.md
    section 10's correction of Theorem 3 (equal to Theorem 2 at k = 1)."""
    if eps == INF:
        return INF
    return (k + (N - k) * math.exp(eps)) / N

def utility(M, freq):
    """eq. (4) with the binary gain."""
    n = len(M)
    return sum(max(freq[y] * M[y][z] for y in range(n)) for z in range(n))

# ---------------------------------------------------------------- parameters
def p_from_eps(eps, n):
    """largest p with ln(1 + n p/(1-p)) <= eps (docs/spec.md 7's RR-LDP level).
    One category: L = [[1]] whatever p, its level is 0, so p = 1."""
    if eps == INF or n == 1:
        return 1.0
    # p = (e^eps - 1)/(e^eps - 1 + n) (no overflow: above 700 it rounds to 1 anyway)
    p = math.expm1(eps) / (math.expm1(eps) + n) if eps < 700 else 1.0
    # as a double: the largest whose level is still <= eps (p = 1 has eps = inf)
    while p > 0 and (p == 1 or math.log1p(n * p / (1 - p)) > eps * (1 + 1e-15)):
        p = math.nextafter(p, 0)
    return p

def rrt_level(pt, freq):
    return single_value_t(t_matrix(freq, pt), freq)

def pt_from_t(t, freq):
    """largest p_t whose RR-t level (single-value classes) is <= t: the level
    is max(1 + p_t (1/f_min - 1), 1/(1 - p_t)) over the values present
    (the first ratio: class of a_i, bucket a_i; the second: bucket a_j != a_i,
    only when the data hold two values or more)."""
    fs = [x for x in freq if x]
    fmin = min(fs)
    cands = [1.0]
    if fmin < 1:
        cands.append((t - 1) / float(1 / fmin - 1))
    if len(fs) > 1:
        cands.append(1 - 1 / t)
    return min(cands)

def eps_for_t_ldp(t, k, N):
    """largest eps whose corrected Theorem 3 level (k + (N-k) e^eps)/N is <= t
    (--t with --mechanism ldp, Lemma 1 at the smallest class size k)."""
    return math.log((N * t - k) / (N - k))
