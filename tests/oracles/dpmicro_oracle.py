"""Independent checks of keps dpmicro (docs/spec.md 5 with section 9 corrections)."""
import math
from mdav_oracle import insensitive
from common import moments

def fallback_bounds(x, j):
    mn = min(r[j] for r in x); mx = max(r[j] for r in x)
    return min(0.0, 1.5 * mn), max(0.0, 1.5 * mx)

def scales(mode, n, m, k, eps, lo, hi):
    D = [h - l for l, h in zip(lo, hi)]
    if mode == "multivariate":
        if k == 1:
            return [sum(D) / eps] * m
        c = n // k
        return [c * sum(D) / (k * eps)] * m
    if k == 1:
        return [m * d / eps for d in D]
    return [m * d / (k * eps) for d in D]

def groups(mode, x, k, lo, hi):
    """cluster id per row (multivariate) or per (row, attribute) (univariate)"""
    n, m = len(x), len(x[0])
    y = [[min(max(v, lo[j]), hi[j]) for j, v in enumerate(r)] for r in x]
    if mode == "multivariate":
        if k == 1:
            return [list(range(n))] * 1, y
        g, _ = insensitive(y, k, lo, hi)
        return [g], y
    out = []
    for j in range(m):
        col = [[r[j]] for r in y]
        if k == 1:
            out.append(list(range(n)))
        else:
            g, _ = insensitive(col, k, [lo[j]], [hi[j]])
            out.append(g)
    return out, y

def sse(x, rel):
    m = len(x[0]); raw = std = 0.0
    mom = [moments(x, j) for j in range(m)]
    for j in range(m):
        e = sum((a[j] - b[j]) ** 2 for a, b in zip(x, rel))
        raw += e
        if mom[j][1] > 0:
            std += e / mom[j][1] ** 2
    return raw, std

def rl(orig, rel, direction="original", standardize=True):
    """RL fraction. direction 'original': for each original x_i, G = released
    records nearest to x_i; contributes 1/|G| if rel_i in G. 'released': for
    each released record, G = originals nearest; 1/|G| if orig_i in G."""
    n, m = len(orig), len(orig[0])
    if standardize:
        mom = [moments(orig, j) for j in range(m)]
        keep = [j for j in range(m) if mom[j][1] > 0]
        zo = [[(r[j] - mom[j][0]) / mom[j][1] for j in keep] for r in orig]
        zr = [[(r[j] - mom[j][0]) / mom[j][1] for j in keep] for r in rel]
    else:
        zo, zr = orig, rel
    q, t = (zo, zr) if direction == "original" else (zr, zo)
    # distinct targets with multiplicity
    distinct = {}
    for i, r in enumerate(t):
        distinct.setdefault(tuple(r), []).append(i)
    keys = list(distinct)
    tot = 0.0
    for i, qi in enumerate(q):
        best = None; cnt = 0; own = tuple(t[i])
        for key in keys:
            d = 0.0
            for a, b in zip(qi, key):
                d += (a - b) * (a - b)
            if best is None or d < best:
                best, cnt, bestset = d, len(distinct[key]), {key}
            elif d == best:
                cnt += len(distinct[key]); bestset.add(key)
        if own in bestset:
            tot += 1.0 / cnt
    return tot / n
