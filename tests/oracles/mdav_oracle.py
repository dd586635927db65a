"""Independent classic MDAV (docs/spec.md 3 wording) and insensitive MDAV.

Classic MDAV: standardize with population sd (sdcMicro's Mdav.h weights
1/variance with variance = E[x^2]-E[x]^2, i.e. population too); squared
Euclidean distance; while >= 3k remain: r = farthest from centroid of the
remaining, group r + k-1 nearest; s = farthest from r among the remaining
(after removing r's group), group s + k-1 nearest; 2k..3k-1 left: one group
around the farthest from the centroid, rest one group; k..2k-1: one group.
Ties: tie_near / tie_far choose by row index ('low' = smaller row wins)."""
import math
from common import moments

def standardize(x):
    n, m = len(x), len(x[0])
    mom = [moments(x, j) for j in range(m)]
    z = [[((r[j] - mom[j][0]) / mom[j][1]) if mom[j][1] > 0 else 0.0 for j in range(m)] for r in x]
    return z, mom

def d2(a, b):
    e = 0.0
    for u, v in zip(a, b):
        t = u - v
        e += t * t
    return e

def mdav(x, k, tie_near="low", tie_far="low"):
    n, m = len(x), len(x[0])
    z, mom = standardize(x)
    rem = list(range(n))
    group = [None] * n
    gid = 0

    def centroid(ids):
        c = [0.0] * m
        for i in ids:
            for j in range(m):
                c[j] += z[i][j]
        return [v / len(ids) for v in c]

    def farthest(p, ids):
        best = None
        for i in ids:
            d = d2(z[i], p)
            key = (d, -i) if tie_far == "low" else (d, i)
            if best is None or key > best[0]:
                best = (key, i)
        return best[1]

    def take(c, ids):
        nonlocal gid
        p = z[c]
        ds = sorted(ids, key=lambda i: (d2(z[i], p), i if tie_near == "low" else -i))
        # the record itself is at distance 0 and, with 'low' ties, is first
        # unless a duplicate with a smaller index exists: force c first
        chosen = [c] + [i for i in ds if i != c][: k - 1]
        for i in chosen:
            group[i] = gid
        gid += 1
        s = set(chosen)
        return [i for i in ids if i not in s]

    if k == 1:
        return list(range(n)), mom
    while len(rem) >= 3 * k:
        r = farthest(centroid(rem), rem)
        rem = take(r, rem)
        s = farthest(z[r], rem)
        rem = take(s, rem)
    if len(rem) >= 2 * k:
        r = farthest(centroid(rem), rem)
        rem = take(r, rem)
    if rem:
        for i in rem:
            group[i] = gid
        gid += 1
    return group, mom

def insensitive(x, k, lo=None, hi=None):
    n, m = len(x), len(x[0])
    if lo is None:
        lo = [min(r[j] for r in x) for j in range(m)]
        hi = [max(r[j] for r in x) for j in range(m)]
    def key(i):
        d = 0.0
        for j in range(m):
            w = hi[j] - lo[j]
            if w > 0:
                u = (x[i][j] - lo[j]) / w
                d += u * u
        return (d, tuple(x[i]), i)
    order = sorted(range(n), key=key)
    ng = n // k
    group = [None] * n
    for p, i in enumerate(order):
        group[i] = min(p // k, ng - 1)
    return group, order

def centroids(x, group):
    m = len(x[0])
    acc = {}
    for i, g in enumerate(group):
        a = acc.setdefault(g, [[0.0] * m, 0])
        for j in range(m):
            a[0][j] += x[i][j]
        a[1] += 1
    return {g: [s / c for s in a[0]] for g, (a0, c) in acc.items() for a in [(a0, c)]}

def sse(x, group, mom=None):
    cen = centroids(x, group)
    raw = std = 0.0
    m = len(x[0])
    if mom is None:
        mom = [moments(x, j) for j in range(m)]
    for i, g in enumerate(group):
        for j in range(m):
            d = x[i][j] - cen[g][j]
            raw += d * d
            if mom[j][1] > 0:
                std += (d / mom[j][1]) ** 2
    return raw, std, cen

def partition(group):
    """canonical partition: frozenset of frozensets of row indices"""
    parts = {}
    for i, g in enumerate(group):
        parts.setdefault(g, set()).add(i)
    return frozenset(frozenset(p) for p in parts.values())
