from sizing import cases  # fewer cases under the sanitizers
import sys, os, tempfile, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from dpmicro_oracle import *
from mdav_oracle import centroids

def run(path, cols, mode, k, eps, seed, bounds=None, extra=()):
    out = tempfile.mktemp(suffix=".csv")
    args = ["dpmicro", "--mode", mode, "-i", path, "-o", out, "-k", str(k), "--epsilon", repr(eps),
            "--seed", str(seed), "--keep-order", "--others", "drop", "--digits", "exact"] + \
        [a for c in cols for a in ("--qi", c)]
    if bounds:
        for c, (l, h) in zip(cols, bounds):
            args += ["--bounds", "%s=%r:%r" % (c, l, h)]
    rep = keps_json(args + list(extra))
    head, rows = read_csv(out)
    os.unlink(out)
    rel = [[float(r[head.index(c)]) for c in cols] for r in rows]
    return rep, rel

def check(path, cols, mode, k, eps, seed, bounds=None, label=""):
    x = numeric_matrix(path, cols)
    n, m = len(x), len(cols)
    if bounds is None:
        lo, hi = zip(*[fallback_bounds(x, j) for j in range(m)])
    else:
        lo, hi = zip(*bounds)
    lo, hi = list(lo), list(hi)
    rep, rel = run(path, cols, mode, k, eps, seed, bounds)
    problems = []
    sc = scales(mode, n, m, k, eps, lo, hi)
    for j, c in enumerate(cols):
        if abs(rep["noise_scale"][c] - sc[j]) > 1e-9 * sc[j]:
            problems.append("scale %s keps %r oracle %r" % (c, rep["noise_scale"][c], sc[j]))
        if rep["bounds"][c] != [lo[j], hi[j]]:
            problems.append("bounds %s keps %r oracle %r" % (c, rep["bounds"][c], [lo[j], hi[j]]))
    # clamping
    for r in rel:
        for j in range(m):
            if not (lo[j] <= r[j] <= hi[j]):
                problems.append("value out of bounds")
    gs, y = groups(mode, x, k, lo, hi)
    # one noisy centroid per cluster: equal within, (a.s.) different across
    noise = []
    for a, g in enumerate(gs):
        attrs = range(m) if mode == "multivariate" else [a]
        val = {}
        for i, gi in enumerate(g):
            v = tuple(rel[i][j] for j in attrs)
            if val.setdefault(gi, v) != v:
                problems.append("cluster %d attr %s: two released values %r %r" % (gi, list(attrs), val[gi], v))
                break
        # the noise: released - true centroid of the clamped data
        if mode == "multivariate":
            cen = centroids(y, g)
        else:
            cen = {gg: [cc[0]] for gg, cc in centroids([[r[a]] for r in y], g).items()}
        for gi, v in val.items():
            for t, j in enumerate(attrs):
                noise.append((j, v[t] - cen[gi][t], v[t] in (lo[j], hi[j])))
        inner = [v for v in val.values() if all(lo[j] < v[t] < hi[j] for t, j in enumerate(attrs))]
        if len(set(inner)) != len(inner):
            problems.append("two clusters share an unclamped noisy value")
    if rep["clusters"] != (len(set(gs[0])) if k > 1 else n):
        problems.append("clusters keps %d oracle %d" % (rep["clusters"], len(set(gs[0]))))
    raw, std = sse(x, rel)
    met = rep["metrics"]
    if abs(met["sse"] - raw) > 1e-9 * raw or abs(met["sse_standardized"] - std) > 1e-9 * std:
        problems.append("sse keps %r/%r oracle %r/%r" % (met["sse"], met["sse_standardized"], raw, std))
    r_o = rl(x, rel, "original"); r_r = rl(x, rel, "released")
    if abs(met["record_linkage"] - r_o) > 1e-12 or abs(met["record_linkage_released"] - r_r) > 1e-12:
        problems.append("RL keps %r/%r oracle %r/%r" % (met["record_linkage"], met["record_linkage_released"], r_o, r_r))
    g = rep["guarantee"]
    print("%-5s %-22s %s k=%-3d eps=%-5g scale=%.6g eps_rep=%s RL=%.4f%%/%.4f%% sse=%.4g %s"
          % ("OK" if not problems else "DIFF", label, mode[:5], k, eps, sc[0], g.get("epsilon", g.get("epsilon_if_unlinked")),
             100 * r_o, 100 * r_r, raw, "; ".join(problems[:4])))
    return not problems, noise, sc, rep

if __name__ == "__main__":
    casc = REPO + "/data/casc/casc.csv"
    four = ["FICA", "FEDTAX", "INTVAL", "POTHVAL"]
    bad = 0
    for mode in ("multivariate", "univariate"):
        for k in cases((1, 2, 10, 100), 2):
            for eps in (0.1, 1, 10):
                ok, *_ = check(casc, four, mode, k, eps, 2014, label="casc4 fallback")
                bad += not ok
        for k in (3, 25):
            ok, *_ = check(casc, four, mode, k, 1.0, 7, bounds=[(0, 10000), (0, 40000), (0, 50000), (0, 150000)],
                           label="casc4 --bounds (clamps)")
            bad += not ok
    print("discrepancies", bad)
    sys.exit(1 if bad else 0)
