"""Independent model of `keps safela` (docs/spec.md 6), stdlib only, written from
docs/spec.md sections 2, 6, 8, 9 and the readings of docs/spec.md
section 10, not from keps's C code. Used by check_safela.py.

Everything is computed from the sample (the input rows keps sampled), the
hierarchies and the parameters:
  - the lattice: every vector of levels (l_1..l_q), 0 <= l_i <= h_i (docs/spec.md 2);
  - each node's G = (1/q) sum_i l_i/h_i, S = share of the sample in classes
    (of the sample generalized to the node) smaller than k, and
    u = -(G + f*S) (docs/spec.md 6.2);
  - level interpolation (docs/spec.md 6, thesis 3.3; docs/spec.md 10): a node's level
    is the sum of its coordinates; only even levels are evaluated; an odd node
    gets the mean u of its neighbours one step up or down in one coordinate
    (all of them even), and for the good-node test the mean of their S;
  - the sensitivity f*k/n (docs/spec.md 6.3) and the exponential mechanism's
    probabilities exp(eps'*u/(2*du)) normalized with math.fsum (docs/spec.md 6.4,
    docs/spec.md 9: the 2 in the denominator);
  - the good-node mass: nodes with S < 0.15 and G < 0.6 (docs/spec.md 6);
  - the guarantee: eps = eps' - ln(1-beta) (or the larger --epsilon), gamma,
    n_m and delta = max_{n' >= n_m} sum_{j > gamma n'} Binom(j; n', beta)
    (docs/spec.md 6, docs/spec.md 9 for n_m = ceil(k/gamma - 1); docs/spec.md 10 for the tie
    j = gamma n' and for the penalty below 1/k, where the stated eps' is
    eps' (k + 1/f)/(2k));
  - the expected release (docs/spec.md 6.5, docs/spec.md 1, `keps safela --help`): QIs
    generalized to the node, the other released columns as they stand and
    part of the class key, and the rows of classes of the sample smaller than
    k removed (Li, Qardaji and Su's method).
Plus a chi-square goodness-of-fit p-value (regularized incomplete gamma).
"""
import itertools, math
from stats import gamma_q

STAR = "*"


def read_hierarchy(path):
    """ARX layout: one row per value, column j = label at level j. Returns
    (labels: value -> list of labels, height)."""
    with open(path, newline="") as f:
        lines = [l.rstrip("\r\n") for l in f if l.strip()]
    delim = ";" if lines[0].count(";") >= lines[0].count(",") else ","
    rows = [l.split(delim) for l in lines]
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ValueError("%s: unbalanced hierarchy, not modelled by this oracle" % path)
    return {r[0]: r for r in rows}, widths.pop() - 1


class Lattice:
    """The full-domain lattice of the QIs over a fixed table of input rows.
    Classes are precomputed per node for every distinct QI combination of the
    table, so scoring a sample only sums counts."""

    def __init__(self, qis, hier, table, extras=()):
        """extras: the other released columns, part of every class's key as
        they stand (`keps safela --help`: the guarantee covers the whole
        released tuple, so a record is suppressed when its class over the
        generalized QIs and these columns is smaller than k)."""
        self.qis = qis
        self.extras = tuple(extras)
        self.q = len(qis)
        self.labels = [hier[c][0] for c in qis]
        self.h = [hier[c][1] for c in qis]
        self.nodes = list(itertools.product(*[range(h + 1) for h in self.h]))
        combos = {}
        self.combo_of = {}                      # row id -> combo index
        for rid, row in table.items():
            t = tuple(row[c] for c in qis) + tuple(row[c] for c in self.extras)
            self.combo_of[rid] = combos.setdefault(t, len(combos))
        self.combos = [None] * len(combos)
        for t, i in combos.items():
            self.combos[i] = t
        # class id of every combo at every node
        self.cls = {}
        for node in self.nodes:
            keys = {}
            self.cls[node] = [keys.setdefault(self.key(t, node), len(keys)) for t in self.combos]

    def key(self, combo, node):
        return tuple(self.labels[i][v][l] for i, (v, l) in enumerate(zip(combo, node))) + combo[self.q:]

    def G(self, node):
        return sum(l / h for l, h in zip(node, self.h)) / self.q

    def neighbours(self, node):
        out = []
        for i in range(self.q):
            for step in (-1, 1):
                l = node[i] + step
                if 0 <= l <= self.h[i]:
                    out.append(node[:i] + (l,) + node[i + 1:])
        return out

    def class_sizes(self, sample_counts, node):
        """sample_counts: combo index -> rows of the sample. Returns the list
        of class sizes indexed by class id (0 for classes not in the sample)."""
        cid = self.cls[node]
        sizes = [0] * (max(cid) + 1)
        for i, c in sample_counts.items():
            sizes[cid[i]] += c
        return sizes

    def suppressed(self, sample_counts, node, k):
        return sum(s for s in self.class_sizes(sample_counts, node) if 0 < s < k)

    def counts(self, sample_ids):
        sc = {}
        for rid in sample_ids:
            i = self.combo_of[rid]
            sc[i] = sc.get(i, 0) + 1
        return sc


def score(lat, sample_ids, k, f, eps_prime, interpolate="none"):
    """Every node's G, S, u, evaluated flag, S used by the good-node test,
    probability and good flag, plus the sensitivity. eps_prime is the eps'
    the user asked for: the weights use it (docs/spec.md 6.4); docs/spec.md 10 only
    states a larger eps' in the guarantee when f < 1/k."""
    n = len(sample_ids)
    sc = lat.counts(sample_ids)
    res = {}
    for node in lat.nodes:
        ev = interpolate == "none" or sum(node) % 2 == 0
        d = {"G": lat.G(node), "evaluated": ev}
        if ev:
            d["S"] = lat.suppressed(sc, node, k) / n
            d["u"] = -(d["G"] + f * d["S"])
            d["S_good"] = d["S"]
        res[node] = d
    if interpolate == "level":
        for node, d in res.items():
            if d["evaluated"]:
                continue
            nb = lat.neighbours(node)
            assert nb and all(res[m]["evaluated"] for m in nb), "odd node with an odd neighbour"
            d["u"] = math.fsum(res[m]["u"] for m in nb) / len(nb)
            d["S_good"] = math.fsum(res[m]["S"] for m in nb) / len(nb)
    du = f * k / n
    a = {node: eps_prime * d["u"] / (2 * du) for node, d in res.items()}
    top = max(a.values())
    w = {node: math.exp(x - top) for node, x in a.items()}
    z = math.fsum(w.values())
    for node, d in res.items():
        d["p"] = w[node] / z
        d["good"] = d["S_good"] < 0.15 and d["G"] < 0.6
    good = math.fsum(d["p"] for d in res.values() if d["good"])
    span = max(abs(x) for x in a.values())      # for the float tolerance
    return {"nodes": res, "sensitivity": du, "good": good, "span": span,
            "evaluated": sum(d["evaluated"] for d in res.values()), "counts": sc}


def release_qis(lat, sizes, node, k, row):
    """The released QI values of one sampled input row at node (sizes: the
    sample's class sizes at node), or None when its class is smaller than k
    (suppressed: every QI '*')."""
    if sizes[lat.cls[node][lat.combo_of[row["id"]]]] < k:
        return None
    return [lat.labels[i][row[c]][node[i]] for i, c in enumerate(lat.qis)]


# ---- guarantee ----------------------------------------------------------

def stated_eps_prime(eps_prime, f, k):
    """docs/spec.md 10: for f < 1/k the node choice costs eps' (k + 1/f)/(2k)."""
    return eps_prime * (k + 1 / f) / (2 * k) if f < 1 / k else eps_prime


def guarantee(k, beta, eps_prime_stated, eps=None):
    """eps, gamma, the candidate n_m values (two when k c/(1-c) lies within
    1e-9 of an integer: floating point may round either way) and a function
    delta(n_m)."""
    if eps is None:
        eps = eps_prime_stated - math.log(1 - beta)
    d = eps - eps_prime_stated
    gamma = (math.exp(d) - 1 + beta) / math.exp(d)
    c = (1 - beta) * math.exp(-d)                 # 1 - gamma, taken on its own
    x = k * c / (1 - c)
    nm = {k - 1 + math.ceil(x)}
    if abs(x - round(x)) < 1e-9:
        nm |= {k - 1 + round(x), k + round(x)}
    return eps, gamma, sorted(nm)


def log_binom_pmf(j, n, lb, l1b):
    return math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1) + j * lb + (n - j) * l1b


def tail(n, gamma, beta):
    """sum_{j > gamma n}^{n} Binom(j; n, beta); j = gamma n is included when
    gamma n is an integer to 1e-13 relative (docs/spec.md 10)."""
    g = gamma * n
    r = round(g)
    j0 = r if abs(g - r) <= 1e-13 * max(g, 1.0) else math.floor(g) + 1
    if j0 > n:
        return 0.0
    lb, l1b = math.log(beta), math.log1p(-beta)
    terms = []
    for j in range(j0, n + 1):              # terms fall geometrically past beta n
        t = math.exp(log_binom_pmf(j, n, lb, l1b))
        terms.append(t)
        if t < 1e-22 * terms[0] and j > j0 + 5:
            break
    return math.fsum(terms)


def delta(gamma, beta, n_m):
    """max over n' >= n_m of tail(n'); the scan stops once the Chernoff bound
    exp(-n' D(gamma || beta)), decreasing in n', falls below the best tail."""
    D = gamma * math.log(gamma / beta) + (1 - gamma) * math.log((1 - gamma) / (1 - beta))
    best, n = 0.0, max(n_m, 1)
    while True:
        best = max(best, tail(n, gamma, beta))
        n += 1
        if math.exp(-n * D) < best * (1 - 1e-12) or n > n_m + 10 ** 6:
            return best


# ---- chi-square -----------------------------------------------------------

def chi_square(observed, expected, min_expected=5.0):
    """Pearson statistic with cells of expected count < min_expected pooled
    (in increasing order of expectation until the pool reaches it; a pool left
    short joins the smallest kept cell). Returns (chi2, dof, p, cells)."""
    cells = sorted(expected, key=lambda c: expected[c])
    pooled, pool_o, pool_e = [], 0.0, 0.0
    for c in cells:
        if expected[c] >= min_expected:
            pooled.append((observed.get(c, 0), expected[c]))
        else:
            pool_o += observed.get(c, 0)
            pool_e += expected[c]
            if pool_e >= min_expected:
                pooled.append((pool_o, pool_e))
                pool_o = pool_e = 0.0
    if pool_e > 0:
        if pooled:
            pooled.sort(key=lambda oe: oe[1])
            o, e = pooled[0]
            pooled[0] = (o + pool_o, e + pool_e)
        else:
            pooled.append((pool_o, pool_e))
    chi2 = math.fsum((o - e) ** 2 / e for o, e in pooled)
    dof = len(pooled) - 1
    return chi2, dof, (gamma_q(dof / 2, chi2 / 2) if dof > 0 else 1.0), len(pooled)
