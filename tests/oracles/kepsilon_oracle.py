#!/usr/bin/env python3
"""Independent oracle for `keps kepsilon` (docs/spec.md 4), stdlib only.

usage: oracle.py REPORT.json [--noconf REPORT0.json] [--hier-sep ';']

REPORT.json is the report of a run with --seed N --keep-order; its
"parameters" name the input, the release and every option.  --noconf names
the report of the same command and seed WITHOUT --confidence: its release
holds the noisy values of every classed row (c-confident suppression hides
some), so the oracle can recompute l_i for every row.

Everything is recomputed from the input CSV, the hierarchies, the reported
transformation (OLA) or the released labels (Mondrian), and the released
noisy values.  Prints one line per check: OK/FAIL name  oracle  keps.
"""
import bisect, csv, json, math, sys

TOL = 1e-9
fails = 0


def close(a, b, tol=TOL):
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float) and (math.isinf(a) or math.isinf(b)):
        return False
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def check(name, ours, theirs, tol=TOL):
    global fails
    ok = close(ours, theirs, tol) if isinstance(ours, float) or isinstance(theirs, float) else ours == theirs
    if not ok:
        fails += 1
    print(("OK   " if ok else "FAIL ") + name + "  oracle=" + repr(ours) + "  keps=" + repr(theirs))
    return ok


def info(name, val):
    print("INFO " + name + "  " + repr(val))


def read_csv(path):
    with open(path, newline="") as f:
        text = f.read()
    first = text.split("\n", 1)[0]
    delim = ";" if first.count(";") > first.count(",") else ","
    rows = list(csv.reader(text.splitlines(), delimiter=delim))
    rows = [r for r in rows if r != []]
    return rows[0], rows[1:]


def read_hier(path):
    with open(path, newline="") as f:
        text = f.read()
    first = text.split("\n", 1)[0]
    delim = ";" if first.count(";") >= first.count(",") else ","
    h = {}
    for r in csv.reader(text.splitlines(), delimiter=delim):
        if r:
            h[r[0]] = r
    return h


def as_list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def main(argv):
    rep = json.load(open(argv[1]))
    noconf = None
    if "--noconf" in argv:
        noconf = json.load(open(argv[argv.index("--noconf") + 1]))
    P = rep["parameters"]
    algo = P["algorithm"]
    k = int(P["k"])
    eps = float(P["epsilon"])
    scale = P.get("scale", "ec")
    conf = float(P.get("confidence", 0) or 0)
    supp_frac = float(P.get("suppress", 0) or 0)
    removed = P.get("remove-suppressed") in (True, "true")  # a boolean in reports since session 13
    qis = [q.split(":", 1) for q in as_list(P["qi"])]
    qnames = [q[0] for q in qis]
    noisy = as_list(P["noisy"])
    m = len(noisy)
    bounds = {}
    for b in as_list(P.get("bounds")):
        name, rng = b.rsplit("=", 1)
        lo, hi = rng.split(":")
        bounds[name] = (float(lo), float(hi))

    hdr, rows = read_csv(P["input"])
    N = len(rows)
    col = {n: i for i, n in enumerate(hdr)}
    X = [[float(r[col[c]]) for r in rows] for c in noisy]  # X[j][i]

    rhdr, rel = read_csv(P["output"])
    rcol = {n: i for i, n in enumerate(rhdr)}
    # the full release (noisy values of every classed row)
    if noconf is not None:
        fh, full = read_csv(noconf["parameters"]["output"])
        fcol = {n: i for i, n in enumerate(fh)}
    else:
        full, fcol = rel, rcol
    assert len(full) == N, "the reference release must hold every row (no --remove-suppressed)"

    # ---- classes
    if algo == "ola":
        levels = rep["transformation"]
        hiers = {}
        for q in qis:
            if q[1].startswith("interval="):
                ws = [float(w) for w in q[1][len("interval="):].split(",")]
                vals = set(r[col[q[0]]] for r in rows)

                def fmt(v):
                    return str(int(v)) if v == int(v) else repr(v)
                hiers[q[0]] = {v: [v] + ["[%s-%s[" % (fmt(math.floor(float(v) / w) * w), fmt(math.floor(float(v) / w) * w + w))
                                         for w in ws] + ["*"] for v in vals}
            else:
                hiers[q[0]] = read_hier(q[1])
        key = []
        for r in rows:
            t = []
            for q in qnames:
                path = hiers[q][r[col[q]]]
                lv = levels[q]
                t.append(path[lv] if lv < len(path) else path[-1])
            key.append(tuple(t))
    elif algo == "given":
        key = [tuple(r[col[q]] for q in qnames) for r in rows]
    else:  # mondrian: the released labels of the full release (checked >= k below)
        key = [tuple(r[fcol[q]] for q in qnames) for r in full]
    size = {}
    for t in key:
        size[t] = size.get(t, 0) + 1
    if algo == "mondrian":
        # a suppressed-looking row would be all '*'; Mondrian suppresses nothing
        ksup = [False] * N
        check("mondrian: every released class has >= k rows", min(size.values()) >= k, True)
    else:
        ksup = [size[key[i]] < k for i in range(N)]
    nks = sum(ksup)
    check("k_anonymization_suppressed_rows", nks, rep["k_anonymization_suppressed_rows"])
    if algo != "mondrian":
        check("k-anonymization suppression within floor(s*N)", nks <= math.floor(supp_frac * N + 1e-9), True)
    classes = {}
    for i in range(N):
        if not ksup[i]:
            classes.setdefault(key[i], []).append(i)
    C = list(classes.values())
    check("classes", len(C), rep["classes"])

    # ---- labels in the full release
    bad = 0
    for i in range(N):
        r = full[i]
        if ksup[i]:
            bad += any(r[fcol[q]] != "*" for q in qnames) or any(r[fcol[c]] != "*" for c in noisy)
        elif algo in ("ola", "given"):
            bad += tuple(r[fcol[q]] for q in qnames) != key[i]
        other = [h for h in hdr if h not in qnames and h not in noisy]
        bad += any(r[fcol[h]] != rows[i][col[h]] for h in other if h in fcol)
    check("full release: QI labels / '*' / other columns as expected (bad rows)", bad, 0)

    # ---- scales
    rel_rows = [i for i in range(N) if not ksup[i]]
    B = []  # B[c][j]
    for members in C:
        bc = []
        for j in range(m):
            if scale == "ec":
                vals = [X[j][i] for i in members]
                d = max(vals) - min(vals)
            elif scale == "global":
                vals = [X[j][i] for i in rel_rows]
                d = max(vals) - min(vals)
            else:
                lo, hi = bounds[noisy[j]]
                d = hi - lo
            bc.append(m * d / eps)
        B.append(bc)
    if scale == "global":
        for j in range(m):
            allv = X[j]
            info("global diam over ALL input rows vs released rows (" + noisy[j] + ")",
                 (max(allv) - min(allv), max(X[j][i] for i in rel_rows) - min(X[j][i] for i in rel_rows)))
    for j in range(m):
        mean_b = sum(B[c][j] for c in range(len(C))) / len(C) if C else 0.0
        check("noise_scale[" + noisy[j] + "] = mean over classes of m*diam/eps", mean_b, rep["noise_scale"][noisy[j]])

    # ---- noisy values (full release)
    Y = [[None] * N for _ in range(m)]
    for j in range(m):
        for i in range(N):
            if not ksup[i]:
                Y[j][i] = float(full[i][fcol[noisy[j]]])
    cls_of = [None] * N
    for c, members in enumerate(C):
        for i in members:
            cls_of[i] = c
    zero_b_changed = 0
    stdz = []
    for j in range(m):
        for i in rel_rows:
            b = B[cls_of[i]][j]
            z = Y[j][i] - X[j][i]
            if b == 0:
                zero_b_changed += z != 0
            else:
                stdz.append(abs(z) / b)
    check("rows of zero-scale classes released unchanged (changed)", zero_b_changed, 0)
    if stdz:
        mu = sum(stdz) / len(stdz)
        zs = (mu - 1) * math.sqrt(len(stdz))  # |Lap(b)|/b ~ Exp(1): mean 1, sd 1
        check("mean |noise|/b ~ Exp(1): |z| < 5 (z=%.2f, n=%d)" % (zs, len(stdz)), abs(zs) < 5, True)

    # ---- metric functions on a set of kept rows
    def are(kept):
        exp_tot = meas_tot = 0.0
        per = []
        for j in range(m):
            es = ms = 0.0
            cells = 0
            for i in kept:
                v = X[j][i]
                if v == 0:
                    continue
                es += B[cls_of[i]][j] / abs(v)
                ms += abs(Y[j][i] - v) / abs(v)
                cells += 1
            e = es / cells if cells else 0.0
            mm = ms / cells if cells else 0.0
            per.append(e)
            exp_tot += e / m
            meas_tot += mm / m
        return exp_tot, meas_tot, per

    def spec_literal_eq8(kept):
        """(1/eps) sum_EC diam(EC)|EC|/(H(EC) N') per column, H over signed values incl. zeros."""
        out = []
        keptset = set(kept)
        Np = len(kept)
        for j in range(m):
            tot = 0.0
            for c, members in enumerate(C):
                mem = [i for i in members if i in keptset]
                if not mem:
                    continue
                s = 0.0
                for i in mem:
                    s = s + (1.0 / X[j][i] if X[j][i] != 0 else math.inf)
                H = len(mem) / s if s != 0 else math.inf
                d = B[c][j] * eps / m
                tot += 0.0 if d == 0 else d * len(mem) / (H * Np) if H != 0 else math.inf
            out.append(tot / eps)
        return out

    sorted_cache = {}

    def linked(kept_set):
        cnt = 0
        alt = 0
        for c, members in enumerate(C):
            b = B[c]
            for i in members:
                if i not in kept_set:
                    continue
                if m == 1:
                    own = abs(Y[0][i] - X[0][i])
                    if len(members) > 300:
                        sv = sorted_cache.setdefault(c, sorted(X[0][l] for l in members))
                        p = bisect.bisect_left(sv, Y[0][i])
                        near = min(abs(Y[0][i] - sv[q]) for q in (p - 1, p) if 0 <= q < len(sv))
                        cnt += own <= near
                    else:
                        cnt += all(abs(Y[0][i] - X[0][l]) >= own for l in members)
                else:
                    def dl(l):
                        return sum(abs(Y[j][i] - X[j][l]) / b[j] for j in range(m) if b[j] > 0)
                    own = dl(i)
                    cnt += all(dl(l) >= own for l in members)

                    def de(l):
                        return sum((Y[j][i] - X[j][l]) ** 2 for j in range(m))
                    o2 = de(i)
                    alt += all(de(l) >= o2 for l in members)
        return cnt, alt

    M = rep["metrics"]
    before = noconf["metrics"] if noconf is not None else M
    e0, m0, per0 = are(rel_rows)
    check("expected_are (before confident)", e0, before["expected_are"])
    check("measured_are (before confident)", m0, before["measured_are"])
    lit = spec_literal_eq8(rel_rows)
    info("spec-literal eq.8 per column (1/eps, signed H incl. zeros)", lit)
    info("keps reading per column (b_j/|x|, zeros left out)", per0)
    l0, alt0 = linked(set(rel_rows))
    check("linked_rows (before confident)", l0, before["linked_rows"])
    check("linking_risk (before confident) = linked/N", l0 / N, before["linking_risk"])
    if m > 1:
        info("linked with Euclidean distance instead (not keps's reading)", alt0)

    # ---- c-confident suppression
    csup = [False] * N
    if conf > 0:
        f = -math.log(1 - conf ** (1.0 / m))
        nrec = ncls = 0
        paper_cls = 0
        for c, members in enumerate(C):
            b = B[c]
            ells = {}
            if m == 1 and len(members) > 300:
                # same count by bisection on the sorted originals (cross-checked by brute force on small classes)
                sv = sorted(X[0][l] for l in members)
                r = f * b[0]
                for i in members:
                    lo = bisect.bisect_left(sv, Y[0][i] - r)
                    hi = bisect.bisect_right(sv, Y[0][i] + r)
                    # the interval test |y - x| <= r, at the two edges
                    while lo > 0 and abs(Y[0][i] - sv[lo - 1]) <= r:
                        lo -= 1
                    while lo < hi and abs(Y[0][i] - sv[lo]) > r:
                        lo += 1
                    while hi < len(sv) and abs(Y[0][i] - sv[hi]) <= r:
                        hi += 1
                    while hi > lo and abs(Y[0][i] - sv[hi - 1]) > r:
                        hi -= 1
                    ells[i] = hi - lo
            else:
                for i in members:
                    ells[i] = sum(all(abs(Y[j][i] - X[j][l]) <= f * b[j] for j in range(m)) for l in members)
            s1 = [i for i in members if 0 < ells[i] < k]
            for i in s1:
                csup[i] = True
            nrec += len(s1)
            kept = len(members) - len(s1)
            if 0 < kept < k:
                ncls += 1
                for i in members:
                    csup[i] = True
            if len(members) - sum(1 for i in members if ells[i] < k) < k:
                paper_cls += 1
        ncs = sum(csup)
        cs = rep["confident_suppression"]
        check("confident: records (0 < l_i < k)", nrec, cs["records"])
        check("confident: classes left < k", ncls, cs["classes"])
        check("confident_suppressed_rows", ncs, M["confident_suppressed_rows"])
        info("classes the paper's |ec| - |{l_i < k}| < k would suppress", paper_cls)
        # which rows were withheld in the confident release
        star = [all(rel[i][rcol[q]] == "*" for q in qnames) and all(rel[i][rcol[c]] == "*" for c in noisy)
                for i in range(len(rel))] if not removed else None
        if removed:
            keep_idx = [i for i in range(N) if not (ksup[i] or csup[i])]
            check("removed release: rows = kept rows", len(rel), len(keep_idx))
            diff = sum(rel[a] != full[i] for a, i in enumerate(keep_idx)) if len(rel) == len(keep_idx) else -1
            check("removed release: each row equals the full release's row (diffs)", diff, 0)
        if star is not None:
            exp_star = [ksup[i] or csup[i] for i in range(N)]
            check("confident release withholds exactly k-sup + c-sup rows (mismatches)",
                  sum(a != b for a, b in zip(star, exp_star)), 0)
            diff = 0
            for i in range(N):
                if not exp_star[i]:
                    diff += any(rel[i][rcol[c]] != full[i][fcol[c]] for c in noisy)
                else:
                    diff += any(rel[i][rcol[c]] != "*" for c in noisy)
            check("confident release: same noisy values as the seed's full release (diffs)", diff, 0)
        kept = [i for i in rel_rows if not csup[i]]
        e1, m1, _ = are(kept)
        check("expected_are (after confident)", e1, M["expected_are"])
        check("measured_are (after confident)", m1, M["measured_are"])
        l1, _ = linked(set(kept))
        check("linked_rows (after confident)", l1, M["linked_rows"])
        check("linking_risk (after confident)", l1 / N, M["linking_risk"])
        check("expected_are_before_confident", e0, M.get("expected_are_before_confident"))
        check("measured_are_before_confident", m0, M.get("measured_are_before_confident"))
        check("linking_risk_before_confident", l0 / N, M.get("linking_risk_before_confident"))

    # ---- accounting
    nsup = sum(1 for i in range(N) if ksup[i] or csup[i])
    check("input_rows", N, rep["input_rows"])
    check("released_rows", N - nsup, rep["released_rows"])
    check("suppressed_rows", nsup, rep["suppressed_rows"])
    check("released + suppressed = input", rep["released_rows"] + rep["suppressed_rows"], rep["input_rows"])
    check("output_rows = rows in the release file", len(rel), rep["output_rows"])
    check("output_rows", N - nsup if removed else N, rep["output_rows"])
    check("removed_rows", nsup if removed else 0, rep["removed_rows"])
    # guarantee
    g = rep["guarantee"]
    check("guarantee epsilon >= requested and within m*2^-30 relative", eps <= g["epsilon"] <= eps * (1 + m * 2.0 ** -30), True)
    print("FAILS", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
