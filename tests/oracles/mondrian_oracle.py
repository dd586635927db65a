"""Independent strict multidimensional Mondrian (docs/spec.md 3; LeFevre et al. 2006).
numeric QI: normalized width (max-min)/(data max-min); cut at the median.
  median rule 'lefevre': v = lower median (sorted[(n-1)//2]); lhs = x <= v,
  rhs = x > v; allowed iff both >= k. rule 'keps' additionally considers
  x < v and takes the more balanced allowed one (keps documents this).
categorical QI (ARX hierarchy): covering node = lowest level at which all
  records share one value; width = leaves(node)/leaves (0 if one leaf);
  cut = the children of the node (values one level down), allowed iff every
  non-empty child has >= k.
Dimension: widest first (ties: earlier QI); if not allowable, the next."""
import sys
sys.setrecursionlimit(100000)

def load_hierarchy(path):
    rows = [l.rstrip("\r\n").split(";") for l in open(path, encoding="utf-8") if l.strip()]
    H = len(rows[0]) - 1
    assert all(len(r) == H + 1 for r in rows), "balanced only"
    maps = [{r[0]: r[l] for r in rows} for l in range(H + 1)]
    # leaves under each node at each level
    leaves = [{} for _ in range(H + 1)]
    for r in rows:
        for l in range(H + 1):
            leaves[l][r[l]] = leaves[l].get(r[l], 0) + 1
    return {"H": H, "map": maps, "leaves": leaves, "nleaves": len(rows)}

class QI:
    def __init__(self, name, values, hier=None):
        self.name, self.h = name, hier
        if hier is None:
            self.v = [float(x) for x in values]
            self.dmin, self.dmax = min(self.v), max(self.v)
        else:
            self.raw = values

def extent(q, ids):
    if q.h is None:
        vs = [q.v[i] for i in ids]
        lo, hi = min(vs), max(vs)
        rng = q.dmax - q.dmin
        return {"lo": lo, "hi": hi, "w": (hi - lo) / rng if rng > 0 else 0.0}
    h = q.h
    for l in range(h["H"] + 1):
        s = {h["map"][l][q.raw[i]] for i in ids}
        if len(s) == 1:
            node = s.pop()
            c = h["leaves"][l][node]
            return {"level": l, "node": node, "w": c / h["nleaves"] if c > 1 else 0.0}
    return {"level": h["H"] + 1, "node": "*", "w": 1.0}   # virtual root

def num_cut(q, ids, k, rule):
    n = len(ids)
    vs = sorted(q.v[i] for i in ids)
    v = vs[(n - 1) // 2]
    le = sum(1 for x in vs if x <= v)
    lt = sum(1 for x in vs if x < v)
    ok_le = le >= k and n - le >= k
    ok_lt = lt >= k and n - lt >= k
    if rule == "lefevre":
        if not ok_le:
            return None
        return ([i for i in ids if q.v[i] <= v], [i for i in ids if q.v[i] > v])
    if not ok_le and not ok_lt:
        return None
    strict = (not ok_le) or (ok_lt and abs(2 * lt - n) < abs(2 * le - n))
    if strict:
        return ([i for i in ids if q.v[i] < v], [i for i in ids if q.v[i] >= v])
    return ([i for i in ids if q.v[i] <= v], [i for i in ids if q.v[i] > v])

def cat_cut(q, ids, k, e):
    l = e["level"]
    if l == 0:
        return None
    groups = {}
    for i in ids:
        groups.setdefault(q.h["map"][l - 1][q.raw[i]], []).append(i)
    if any(len(g) < k for g in groups.values()):
        return None
    return list(groups.values())

def mondrian(qis, n, k, rule="keps"):
    classes = []
    stack = [list(range(n))]
    while stack:
        ids = stack.pop()
        ext = [extent(q, ids) for q in qis]
        order = sorted(range(len(qis)), key=lambda j: (-ext[j]["w"], j))
        parts = None
        for j in order:
            if ext[j]["w"] <= 0:
                break
            q = qis[j]
            parts = num_cut(q, ids, k, rule) if q.h is None else cat_cut(q, ids, k, ext[j])
            if parts:
                break
        if parts:
            stack.extend(parts)
        else:
            classes.append((ids, ext))
    return classes

def metrics(classes, n, nq):
    ncp = sum(len(ids) * sum(e["w"] for e in ext) for ids, ext in classes) / (n * nq)
    dm = sum(len(ids) ** 2 for ids, _ in classes)
    return ncp, dm

def label(q, e):
    if q.h is None:
        def f(x):
            return repr(x) if x != int(x) else str(int(x))
        return f(e["lo"]) if e["lo"] == e["hi"] else "[%s-%s]" % (f(e["lo"]), f(e["hi"]))
    return e["node"]
