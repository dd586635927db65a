#!/usr/bin/env python3
"""Checks keps-mpi against the single-process keps run (tests/cli/mpi.sh).

  mpi_compare.py report SINGLE.json MPI.json      the same report (counts, node, score, metrics, guarantee,
        parameters, missing values, ...) but for timing, paths and the row-by-row comparison
  mpi_compare.py rows SINGLE.csv SHARD.csv...      the shards together hold the same multiset of rows
  mpi_compare.py noisy COL SINGLE.csv SHARD.csv... the same with column COL (noise) only starred or not
  mpi_compare.py kepsilon SINGLE.json MPI.json     same counts, node, classes, guarantee, scales, expected ARE,
        objective, digits, clamp bounds; with c-confidence its rows within 5 sd of the single run's
  mpi_compare.py clamped COL LO HI DIGITS SHARD...
        every released value of COL lies in [LO, HI] with at most DIGITS decimals, and some on a bound
  mpi_compare.py confident REPORT INPUT HIER_DIR COL WIDTH EPSILON C K SHARD...
        every released value of COL has 0 or >= K originals of its class within -b ln(1 - C), b = WIDTH/EPSILON
        (WIDTH ec: the class's diameter, global: the released rows', or a number: domain's hi - lo)
  mpi_compare.py rr COL INPUT.csv SINGLE.json MPI.json SINGLE.csv SHARD.csv...
        the same guarantee, closed-form levels, p, pt, classes (and OLA's node, objective, metrics, lattice);
        the verified levels to 1e-12 (sums in another record order); changed_rows within 5 sd of N times the
        chance that Ekenstedt et al.'s mechanisms change a value, computed here from INPUT's COL; COL's value
        counts within 5 sd of the single run's; the other columns the same multiset of rows
  mpi_compare.py pairs ID COL SHARD.csv...
        every ID appears twice (two ranks read the same shard); COL differs within at least half the pairs
  mpi_compare.py safela SINGLE.json MPI.json K HIER_DIR SHARD.csv...
        the same guarantee and lattice size; the counts add up, the sample size is within 5 sd of beta N; the
        shards hold output_rows rows, every QI at the reported node's level of its hierarchy, every class >= K
  mpi_compare.py count INPUT.csv... -- COUNTS.csv COL QI...
        the frequency table equals a count of the QI tuples of the inputs read here
  mpi_compare.py spread ID_COLUMN NROWS SHARD.csv...
        every shard holds rows from the first and the second half of the input, out of order
"""
import collections
import csv
import json
import math
import sys


def read(path):
    with open(path, newline="") as f:
        sample = f.readline()
        delim = ";" if sample.count(";") > sample.count(",") else ","
        f.seek(0)
        rows = list(csv.reader(f, delimiter=delim))
    return rows[0], rows[1:]


def run_keys(a, b):
    """What every keps-mpi report says of its input and run as the single run does: the parameters
    (but the paths of the input, the release, the report and the page), seeded, missing values."""
    bad = [k for k in ("seeded", "missing_values") if k not in a or a[k] != b.get(k)]
    pa, pb = ({k: v for k, v in r.get("parameters", {}).items() if k not in ("input", "output", "report", "html")}
              for r in (a, b))
    if pa != pb or "parameters" not in a:
        bad.append(f"parameters: single {pa} mpi {pb}")
    return bad


def main():
    mode = sys.argv[1]
    if mode == "report":
        # the whole report but the run's own: its timing, keps-mpi's mpi member, the
        # comparison of the release with the input row by row (not made across ranks)
        # and the paths of the input, the release and the report
        a, b = (json.load(open(p)) for p in sys.argv[2:4])
        own = {"timing_ms", "mpi", "before_after"}
        bad = [k for k in sorted(set(a) | set(b)) if k not in own and k != "parameters" and a.get(k) != b.get(k)]
        bad += run_keys(a, b)
        if "before_after" in b or b.get("mpi", {}).get("not_in_report") != "before_after":
            bad.append("mpi.not_in_report")
        for k in bad:
            print(f"{k}: single {a.get(k)!r} mpi {b.get(k)!r}")
        return 1 if bad else 0
    if mode == "kepsilon":
        a, b = (json.load(open(p)) for p in sys.argv[2:4])
        exact = ["input_rows", "unsampled_rows", "k_anonymization_suppressed_rows", "guarantee", "transformation",
                 "classes", "scale", "noise_scale_formula", "digits", "noiseless_rows", "objective", "score",
                 "k_anonymization_metrics"]  # nodes_evaluated: a search statistic that varies with threads
        conf = a.get("confident_suppression")
        if not conf:  # without c-confidence the counts do not depend on the noise
            exact += ["output_rows", "released_rows", "suppressed_rows", "removed_rows"]
        bad = [k for k in exact if k not in a or a.get(k) != b.get(k)] + run_keys(a, b)
        # sums over classes in another order: equal up to rounding
        close = lambda x, y: abs(x - y) <= 1e-12 * max(abs(x), abs(y), 1e-300)
        for k in ["noise_scale"] + ([] if conf else ["expected_are_per_column"]):
            if set(a[k]) != set(b.get(k, {})) or not all(close(a[k][c], b[k][c]) for c in a[k]):
                bad.append(k)
        # the ARE before any noise-dependent suppression
        are = "expected_are_before_confident" if conf else "expected_are"
        if not close(a["metrics"][are], b["metrics"].get(are, math.inf)):
            bad.append("metrics." + are)
        # --clamp: the same public bounds (the rows clamped depend on the noise)
        bounds = lambda r: {c: v["bounds"] for c, v in r.get("clamp", {}).items()}
        if "clamp" in a and bounds(a) != bounds(b) or ("clamp" in a) != ("clamp" in b):
            bad.append("clamp")
        for c in set(a.get("clamp", {})) & set(b.get("clamp", {})):  # rows clamped: within 5 sd
            x, y = a["clamp"][c]["clamped_rows"], b["clamp"][c]["clamped_rows"]
            if abs(x - y) > 5 * math.sqrt(x + y) + 5:
                bad.append(f"clamped rows of {c}: {y} vs {x}")
        if conf:  # c-confidence: the same c; counts that add up; rows within 5 sd of the single run's
            bc = b.get("confident_suppression") or {}
            if bc.get("confidence") != conf["confidence"] or b["metrics"]["confident_suppressed_rows"] != bc["rows"]:
                bad.append("confident_suppression")
            elif b["suppressed_rows"] != b["k_anonymization_suppressed_rows"] + bc["rows"] or \
                    b["released_rows"] + b["suppressed_rows"] != b["input_rows"]:
                bad.append("counts")
            elif abs(conf["rows"] - bc["rows"]) > 5 * math.sqrt(conf["rows"] + bc["rows"]) + 5:
                bad.append(f"confident rows {bc['rows']} vs {conf['rows']}")
        for k in bad:
            print(f"{k}: single {a.get(k)!r} mpi {b.get(k)!r}")
        return 1 if bad else 0
    if mode == "clamped":
        # every released value of COL within [LO, HI] with at most DIGITS decimals, some on a bound
        col, lo, hi, digits, shards = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6:]
        vals = []
        for p in shards:
            h, rs = read(p)
            vals += [r[h.index(col)] for r in rs if r[h.index(col)] != "*"]
        bad = [v for v in vals if not lo <= float(v) <= hi or len(v.partition(".")[2]) > digits]
        if bad or not vals or not any(float(v) in (lo, hi) for v in vals):
            print(f"clamped: {len(bad)} of {len(vals)} values outside [{lo}, {hi}] or with more decimals, e.g. {bad[:3]}")
            return 1
        return 0
    if mode == "confident":
        # Holohan et al.'s c-confident k-anonymity checked on the release: each
        # class (the input's rows generalized to the reported node, classes
        # below k suppressed) has scale b = width/epsilon (one noisy column;
        # WIDTH: ec = the class's diameter, global = the released rows', or
        # the number hi - lo of scale domain); every released noisy value v
        # has 0 or at least k originals of its class within -b ln(1 - c), and
        # every class keeps 0 or >= k rows
        report, inp, hdir, col, width, eps, c, k = sys.argv[2:10]
        shards, eps, c, k = sys.argv[10:], float(eps), float(c), int(k)
        rep = json.load(open(report))
        levels = rep["transformation"]
        h, rows = read(inp)
        gen = {}
        for q, level in levels.items():
            gen[q] = {r[0]: r[level] for r in csv.reader(open(f"{hdir}/adult_hierarchy_{q}.csv"), delimiter=";")}
        key = lambda r, h: tuple(gen[q][r[h.index(q)]] for q in levels)
        orig = collections.defaultdict(list)
        for r in rows:
            orig[key(r, h)].append(float(r[h.index(col)]))
        orig = {g: xs for g, xs in orig.items() if len(xs) >= k}
        every = [x for xs in orig.values() for x in xs]
        diam = lambda xs: max(xs) - min(xs) if width == "ec" else \
            max(every) - min(every) if width == "global" else float(width)
        rel, stars = collections.defaultdict(list), 0
        for p in shards:
            hs, rs = read(p)
            for r in rs:
                if r[hs.index(col)] == "*":
                    stars += 1
                else:
                    rel[tuple(r[hs.index(q)] for q in levels)].append(float(r[hs.index(col)]))
        bad = []
        if stars != rep["suppressed_rows"] - rep["removed_rows"]:
            bad.append(f"{stars} starred rows, report {rep['suppressed_rows']} suppressed")
        for g, vs in rel.items():
            xs = orig.get(g)
            if xs is None or len(vs) < k:
                bad.append(f"class {g}: {len(vs)} rows released")
                continue
            rc = -diam(xs) / eps * math.log(1 - c)
            near = [sum(abs(v - x) <= rc for x in xs) for v in vs]
            if any(0 < l < k for l in near):
                bad.append(f"class {g}: a released value with 0 < l < k")
        for x in bad[:5]:
            print("confident:", x)
        return 1 if bad else 0
    if mode == "rr":
        col, inp, (a, b), single, shards = (sys.argv[2], sys.argv[3], (json.load(open(p)) for p in sys.argv[4:6]),
                                            sys.argv[6], sys.argv[7:])
        keys = ["input_rows", "output_rows", "released_rows", "suppressed_rows", "removed_rows", "unsampled_rows",
                "mechanism", "categories", "partition", "classes", "smallest_class", "p", "pt", "guarantee",
                "closed_form", "transformation", "objective", "score", "k_anonymization_metrics", "lattice"]
        bad = [k for k in keys if a.get(k) != b.get(k)] + run_keys(a, b)
        close = lambda x, y: abs(x - y) <= 1e-12 * max(abs(x), abs(y), 1e-300)
        def same(x, y):
            if isinstance(x, dict):
                return isinstance(y, dict) and x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
            if isinstance(x, float) or isinstance(y, float):
                return isinstance(y, (int, float)) and close(float(x), float(y))
            return x == y
        if not same(a["verified"], b.get("verified")):
            bad.append(f"verified: single {a['verified']} mpi {b.get('verified')}")
        if not close(a["metrics"]["utility_binary_gain"], b["metrics"]["utility_binary_gain"]):
            bad.append("utility")
        # the chance of a changed value, from the mechanisms' definitions (Ekenstedt et al., Figs. 4, 5):
        # RR-t keeps y with p_t, else draws the data's distribution f; RR-LDP keeps with p, else one of
        # the n categories uniformly; both: RR-t, then RR-LDP
        h, rows = read(inp)
        f = collections.Counter(r[h.index(col)] for r in rows)
        N, n, mech = b["input_rows"], b["categories"], b["mechanism"]
        p, pt = b.get("p", 1.0), b.get("pt", 1.0)
        if mech == "ldp":
            pt = 1.0
        if mech == "tclose":
            p = 1.0
        stay = 0.0  # Pr(output = input)
        for y, c in f.items():
            fy = c / N
            t_same = pt + (1 - pt) * fy  # after RR-t: still y
            stay += fy * (t_same * (p + (1 - p) / n) + (1 - t_same) * (1 - p) / n)
        q = 1 - stay
        if abs(b["changed_rows"] - N * q) > 5 * math.sqrt(N * q * (1 - q)) + 1:
            bad.append(f"changed_rows {b['changed_rows']} vs {N * q:.0f} expected")
        h0, r0 = read(single)
        r1 = []
        for s in shards:
            h1, rs = read(s)
            r1 += rs
        j = h0.index(col)
        c0, c1 = collections.Counter(r[j] for r in r0), collections.Counter(r[j] for r in r1)
        for v in set(c0) | set(c1):  # two independent draws of the same binomial: sd sqrt(2 N pi (1 - pi))
            pi = c0[v] / N
            if abs(c0[v] - c1[v]) > 5 * math.sqrt(2 * N * pi * (1 - pi)) + 2:
                bad.append(f"{col}={v}: {c0[v]} vs {c1[v]}")
        rest = lambda rows: collections.Counter(tuple(r[:j] + r[j + 1:]) for r in rows)
        if h0 != h1 or rest(r0) != rest(r1):
            bad.append("the other columns differ")
        for x in bad:
            print("rr:", x)
        return 1 if bad else 0
    if mode == "pairs":
        idc, col, shards = sys.argv[2], sys.argv[3], sys.argv[4:]
        seen = collections.defaultdict(list)
        for s in shards:
            h, rs = read(s)
            for r in rs:
                seen[r[h.index(idc)]].append(r[h.index(col)])
        if any(len(v) != 2 for v in seen.values()):
            print("pairs: an id is not there twice")
            return 1
        differ = sum(v[0] != v[1] for v in seen.values())
        if differ < len(seen) / 2:
            print(f"pairs: only {differ} of {len(seen)} pairs differ: two ranks drew the same stream?")
            return 1
        return 0
    if mode == "safela":
        a, b = (json.load(open(p)) for p in sys.argv[2:4])
        k, hdir, shards = int(sys.argv[4]), sys.argv[5], sys.argv[6:]
        bad = [x for x in ["input_rows", "guarantee"] if a[x] != b[x]] + run_keys(a, b)
        if a["mechanism"]["nodes"] != b["mechanism"]["nodes"]:
            bad.append("mechanism.nodes")
        n, beta = b["input_rows"], b["guarantee"]["beta"]
        if b["released_rows"] + b["suppressed_rows"] + b["unsampled_rows"] != n or \
                b["sample_size"] != n - b["unsampled_rows"] or b["output_rows"] != b["released_rows"]:
            bad.append("counts")
        if abs(b["sample_size"] - beta * n) > 5 * math.sqrt(n * beta * (1 - beta)):
            bad.append("sample_size")
        rows, h = [], None
        for p in shards:
            h, rs = read(p)
            rows += rs
        if len(rows) != b["output_rows"]:
            bad.append(f"shards hold {len(rows)} rows")
        for q, level in b["transformation"].items():  # labels at the node's level (the hierarchy's column)
            hier = [r for r in csv.reader(open(f"{hdir}/adult_hierarchy_{q}.csv"), delimiter=";")]
            labels = {r[level] for r in hier}
            j = h.index(q)
            if any(r[j] not in labels for r in rows):
                bad.append(f"{q} not at level {level}")
        small = [c for c, m in collections.Counter(map(tuple, rows)).items() if m < k]
        if small:
            bad.append(f"{len(small)} classes below k")
        for x in bad:
            print("safela:", x)
        return 1 if bad else 0
    if mode == "noisy":
        col, single, shards = sys.argv[2], sys.argv[3], sys.argv[4:]
        def rows(paths):
            got = collections.Counter()
            for p in paths:
                h, rs = read(p)
                j = h.index(col)
                got.update(tuple(r[:j] + r[j + 1:] + [r[j] == "*"]) for r in rs)
                for r in rs:  # a released noisy value is a finite number
                    if r[j] != "*" and not math.isfinite(float(r[j])):
                        raise SystemExit(f"{p}: {col} = {r[j]}")
            return h, got
        (h0, want), (h1, got) = rows([single]), rows(shards)
        if h0 != h1 or want != got:
            print("rows differ:", sum((got - want).values()), "extra,", sum((want - got).values()), "missing")
            return 1
        return 0
    if mode == "rows":
        h0, ref = read(sys.argv[2])
        got = collections.Counter()
        for p in sys.argv[3:]:
            h, rows = read(p)
            if h != h0:
                print(f"{p}: header {h} != {h0}")
                return 1
            got.update(map(tuple, rows))
        ok = got == collections.Counter(map(tuple, ref))
        if not ok:
            print("rows differ:", sum((got - collections.Counter(map(tuple, ref))).values()), "extra,",
                  sum((collections.Counter(map(tuple, ref)) - got).values()), "missing")
        return 0 if ok else 1
    if mode == "count":
        i = sys.argv.index("--")
        inputs, (counts, col, *qis) = sys.argv[2:i], sys.argv[i + 1:]
        want = collections.Counter()
        for p in inputs:
            h, rows = read(p)
            idx = [h.index(q) for q in qis]
            want.update(tuple(r[j] for j in idx) for r in rows)
        h, rows = read(counts)
        if h != qis + [col]:
            print("header", h)
            return 1
        got = {tuple(r[:-1]): int(r[-1]) for r in rows}
        if len(got) != len(rows) or got != dict(want):
            print("frequency table differs:", len(got), "tuples vs", len(want))
            return 1
        return 0
    if mode == "spread":
        col, n = sys.argv[2], int(sys.argv[3])
        for p in sys.argv[4:]:
            h, rows = read(p)
            ids = [int(r[h.index(col)]) for r in rows]
            if not any(i < n // 2 for i in ids) or not any(i >= n // 2 for i in ids) or ids == sorted(ids):
                print(f"{p}: rows from one half only, or in input order")
                return 1
        return 0
    raise SystemExit("unknown mode")


sys.exit(main())
