#!/usr/bin/env python3
"""A stand-in for the keps binary of commit bbe32af (before issue 25), for
`keps audit --neighbours ... --binary tests/audit/old_keps.py`: it releases
the four cases the way that keps did, so that CI keeps a regression test of
the auditor without building the old code. Deterministic in --seed (Python's
Mersenne Twister: a test emulation, never a release). It takes the flags the
auditor passes (-i, -o, --report, --quiet, --seed) and those of the four
designed pairs, and states the guarantee the old reports stated.

  dpmicro --qi X -k K --epsilon E --bounds X=LO:HI --keep-order
      one column: insensitive microaggregation (sort, blocks of k, the last
      k..2k-1), one Laplace draw per block's centroid, scale
      floor(N/k) (HI-LO)/(k E), clamped, rows in input order (the leak: rows
      that share a centroid show the data's blocks). Claim: epsilon-DP, E.
  safela --qi A:H1 --qi B:H2 -k K --beta B [--sensitive C]
      Bernoulli(beta) sample; the exponential mechanism over the lattice of
      the two QIs (u = -(G + 2 S), sensitivity 2 k/n, epsilon' 0.5);
      rows of classes below k written with '*' in every QI (leak 2) and
      the --sensitive column raw, outside the classes (leak 3). Claim:
      (beta,epsilon,delta)-DPS with epsilon 0.5 - ln(1 - beta) (delta is
      not recomputed: the old reports' tiny delta does not change a
      one-sided event's verdict, so 1e-4 stands in).
  rr --mechanism ldp --sensitive S --epsilon E
      the categories are the values the data holds (leak 4): keep with p =
      (e^E - 1)/(e^E - 1 + n), else uniform over them. Claim: epsilon-LDP, E.
"""
import json, math, random, sys


def opts(argv):
    o, i = {"qi": [], "flags": set()}, 0
    while i < len(argv):
        a = argv[i]
        if a in ("--keep-order", "--quiet"):
            o["flags"].add(a)
            i += 1
        elif a == "--qi":
            o["qi"].append(argv[i + 1])
            i += 2
        else:
            o[a.lstrip("-")] = argv[i + 1]
            i += 2
    return o


def read_csv(path):
    with open(path) as f:
        lines = [l.rstrip("\r\n") for l in f if l.strip()]
    d = ";" if lines[0].count(";") > lines[0].count(",") else ","
    return d, lines[0].split(d), [l.split(d) for l in lines[1:]]


def write(o, d, head, rows, guarantee):
    with open(o["o"], "w") as f:
        f.write(d.join(head) + "\n")
        for r in rows:
            f.write(d.join(r) + "\n")
    with open(o["report"], "w") as f:
        json.dump({"guarantee": guarantee}, f)


def laplace(rnd, b):
    return rnd.expovariate(1 / b) * (1 if rnd.uniform(0, 1) < 0.5 else -1)


def dpmicro(o, rnd):
    d, head, rows = read_csv(o["i"])
    col = head.index(o["qi"][0])
    lo, hi = map(float, o["bounds"].split("=", 1)[1].split(":"))
    k, eps, n = int(o["k"]), float(o["epsilon"]), len(rows)
    x = [min(max(float(r[col]), lo), hi) for r in rows]
    order = sorted(range(n), key=lambda i: (x[i] - lo, i))
    groups, c = [], n // k
    for g in range(c):
        groups.append(order[g * k:(g + 1) * k] if g < c - 1 else order[g * k:])
    scale = c * (hi - lo) / (k * eps)
    out = [None] * n
    for g in groups:
        v = min(max(sum(x[i] for i in g) / len(g) + laplace(rnd, scale), lo), hi)
        for i in g:
            out[i] = repr(v)
    write(o, d, [head[col]], [[v] for v in out], {"model": "epsilon-DP", "epsilon": eps, "not_covered": []})


def hierarchy(path):
    with open(path) as f:
        return {r[0]: r for r in (l.rstrip("\n").split(";") for l in f if l.strip())}


def safela(o, rnd):
    d, head, rows = read_csv(o["i"])
    qis = [q.split(":", 1) for q in o["qi"]]
    hs = [hierarchy(p) for _, p in qis]
    qc = [head.index(q) for q, _ in qis]
    k, beta = int(o["k"]), float(o["beta"])
    sample = [r for r in rows if rnd.uniform(0, 1) < beta]
    n = len(sample)
    heights = [len(next(iter(h.values()))) - 1 for h in hs]
    nodes = [(a, b) for a in range(heights[0] + 1) for b in range(heights[1] + 1)]

    def classes(node):
        cnt = {}
        for r in sample:
            key = tuple(hs[j][r[qc[j]]][node[j]] for j in range(2))
            cnt[key] = cnt.get(key, 0) + 1
        return cnt

    u = []
    for node in nodes:
        cnt = classes(node)
        S = sum(c for c in cnt.values() if c < k) / n
        G = sum(l / h for l, h in zip(node, heights)) / 2
        u.append(-(G + 2 * S))
    w = [math.exp(0.5 * x / (2 * 2 * k / n)) for x in u]
    t, acc = rnd.uniform(0, 1) * sum(w), 0
    node = nodes[-1]
    for nd, x in zip(nodes, w):
        acc += x
        if t < acc:
            node = nd
            break
    cnt = classes(node)
    sens = [head.index(s) for s in [o["sensitive"]]] if "sensitive" in o else []
    out = []
    for r in sample:
        key = tuple(hs[j][r[qc[j]]][node[j]] for j in range(2))
        row = ["*" if cnt[key] < k else key[j] for j in range(2)] + [r[c] for c in sens]
        out.append(row)
    rnd.shuffle(out)
    write(o, d, [head[c] for c in qc + sens], out,
          {"model": "(beta,epsilon,delta)-DPS", "epsilon": 0.5 - math.log(1 - beta), "delta": 1e-4})


def rr(o, rnd):
    d, head, rows = read_csv(o["i"])
    col = head.index(o["sensitive"])
    dom = sorted({r[col] for r in rows})
    e = math.exp(float(o["epsilon"]))
    p = (e - 1) / (e - 1 + len(dom))
    out = [[r[col] if rnd.uniform(0, 1) < p else rnd.choice(dom)] for r in rows]
    rnd.shuffle(out)
    write(o, d, [head[col]], out, {"model": "epsilon-LDP", "epsilon": float(o["epsilon"]), "not_covered": []})


if __name__ == "__main__":
    cmd, o = sys.argv[1], opts(sys.argv[2:])
    rnd = random.Random(int(o.get("seed", "0")))
    {"dpmicro": dpmicro, "safela": safela, "rr": rr}[cmd](o, rnd)
