import sys, os, tempfile, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from mdav_oracle import *

def keps_groups(path, cols, k, insens=False, extra=()):
    out = tempfile.mktemp(suffix=".csv")
    args = ["anonymize", "--algorithm", "mdav", "-i", path, "-o", out, "-k", str(k),
            "--keep-order", "--others", "drop", "--seed", "1", "--digits", "exact"] + [a for c in cols for a in ("--columns", c)]
    if insens:
        args.append("--insensitive-mdav")
    rep = keps_json(args + list(extra))
    head, rows = read_csv(out)
    idx = [head.index(c) for c in cols]
    vals = [tuple(float(r[i]) for i in idx) for r in rows]
    os.unlink(out)
    # group = identical released centroid tuples
    ids = {}
    g = [ids.setdefault(v, len(ids)) for v in vals]
    return g, vals, rep

def compare(path, cols, k, insens=False, label=""):
    x = numeric_matrix(path, cols)
    if insens:
        og, _ = insensitive(x, k)
        mom = [moments(x, j) for j in range(len(cols))]
    else:
        og, mom = mdav(x, k)
    raw, std, cen = sse(x, og, mom)
    kg, kv, rep = keps_groups(path, cols, k, insens)
    cid = {}
    ogm = [cid.setdefault(tuple(cen[g]), len(cid)) for g in og]  # groups with equal centroids merge in the release
    same_part = partition(ogm) == partition(kg)
    # centroid values row by row
    maxdiff = 0.0
    for i, g in enumerate(og):
        for j in range(len(cols)):
            a, b = cen[g][j], kv[i][j]
            maxdiff = max(maxdiff, abs(a - b) / max(1.0, abs(a)))
    met = rep["metrics"]
    ok = same_part and maxdiff < 1e-12 and abs(met["sse"] - raw) <= 1e-9 * max(1, raw) \
        and abs(met["sse_standardized"] - std) <= 1e-9 * max(1, std) and met["groups"] == len(set(og))
    print("%-6s %-28s k=%-4d %s part=%s maxrel=%.2e sse keps=%.10g oracle=%.10g std keps=%.10g oracle=%.10g groups=%d/%d"
          % ("OK" if ok else "DIFF", label, k, "imdav" if insens else "mdav ", same_part, maxdiff,
             met["sse"], raw, met["sse_standardized"], std, met["groups"], len(set(og))))
    return ok

if __name__ == "__main__":
    casc = REPO + "/data/casc/casc.csv"
    allc = "AFNLWGT,AGI,EMCONTRB,FEDTAX,PTOTVAL,STATETAX,TAXINC,POTHVAL,INTVAL,PEARNVAL,FICA,WSALVAL,ERNVAL".split(",")
    four = ["FICA", "FEDTAX", "INTVAL", "POTHVAL"]
    bad = 0
    for insens in (False, True):
        for k in (2, 3, 4, 5, 7, 10, 25, 100):
            bad += not compare(casc, allc, k, insens, "casc13")
            bad += not compare(casc, four, k, insens, "casc4")
    print("discrepancies", bad)
    sys.exit(1 if bad else 0)
