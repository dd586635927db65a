"""Independent oracle for keps's privacy criteria and its lattice search
under them, written from the definitions (the papers, and ARX 3.9.2's
rules where ARX decides: its suppression rule, its forms of the tests),
standard library only. Figures are exact (fractions) where they can be; a
figure within 1e-9 (relative, at least absolute) of its bound counts as
equal to it and the paper's (in)equality decides, as docs/spec.md
(section 16) specifies.

Rules (ARX 3.9.2, HashGroupify.isPrivacyModelFulfilled and analyze*):
- count = released rows of a class (the research subset's), pcount = all
  its rows; a class without released rows is never suppressed, and if no
  minimal class size applies and delta-presence fails on it (its delta is
  0) the node is infeasible;
- minimal class size = max of k, ceil(l) (distinct, entropy) and l
  (recursive); a smaller class is suppressed; so is a class failing any
  per-class criterion;
- then the sample-based criteria (average risk, sample uniqueness) on the
  classes left that are not fully generalized ('*' in every QI): the
  fewest of them, smallest first (ties: the class's own information loss
  under the Loss metric, ARX's MetricMDNMLoss per entry, then the first
  row), suppressed so that every one holds;
- a node is feasible iff the suppressed released rows are at most
  floor(s * released rows) and it is not blocked (and (k,t)-closeness,
  which depends on the sensitive values only, holds)."""
import math
from fractions import Fraction as Fr
from decimal import Decimal, getcontext

getcontext().prec = 50
GAMMA = Decimal('0.57721566490153286060651209008240243104215933593992')
TOL = 1e-9


class Ambiguous(Exception):
    """Kept for the driver; the tolerance rule leaves nothing ambiguous."""


def le(x, b):
    x, b = float(x), float(b)
    return x <= b + TOL * max(1.0, abs(b))


def lt(x, b):
    x, b = float(x), float(b)
    return x < b - TOL * max(1.0, abs(b))


def grassberger(n):
    """G_n: G_1 = -gamma - ln 2, G_2m+1 = G_2m = G_1 + sum_{j<=m} 2/(2j-1)
    (exactly, then rounded); above 100 the digamma expansion ARX uses."""
    if n <= 100:
        s = sum(Fr(2, 2 * j - 1) for j in range(1, n // 2 + 1))
        return float(-GAMMA - Decimal(2).ln() + Decimal(s.numerator) / Decimal(s.denominator))
    e = n - n % 2
    m = 1.0 / ((e / 2) * (e / 2))
    return math.log(e) + m * (1 / 24 - m * (7 / 960 - m * 31 / 8064))


def psi(est, n):
    return grassberger(n) if est == 'grassberger' else math.log(n)


class Sensitive:
    """A sensitive column: values of the released rows (q), its kind of
    ground distance, the order of its values (all rows), a hierarchy."""

    def __init__(self, values_all, released_idx, kind, hier=None):
        self.kind = kind
        rel = [values_all[i] for i in released_idx]
        self.N = len(rel)
        self.g = {}
        for v in rel:
            self.g[v] = self.g.get(v, 0) + 1
        self.q = {v: Fr(c, self.N) for v, c in self.g.items()}
        dom = sorted(set(values_all), key=self.key)
        self.order = dom
        self.hier = hier  # rows: [leaf, l1, ..., top]

    @staticmethod
    def key(v):
        try:
            return (0, float(v), '')
        except ValueError:
            return (1, 0.0, v)


def emd_hier(sens, hist, n):
    """Li et al.'s hierarchical EMD: every inner node N moves min(pos, neg)
    of its children's extra mass at cost level(N)/H, extra(child) = sum over
    its leaves of q - p."""
    rows = sens.hier
    H = len(rows[0]) - 1
    p = {v: Fr(c, n) for v, c in hist.items()}
    # extra per (level, label)
    extra = {}
    for r in rows:
        leaf = r[0]
        e = sens.q.get(leaf, Fr(0)) - p.get(leaf, Fr(0))
        for l in range(H + 1):
            extra[(l, r[l])] = extra.get((l, r[l]), Fr(0)) + e
    cost = Fr(0)
    for l in range(1, H + 1):
        for lab in {r[l] for r in rows}:
            kids = {(l - 1, r[l - 1]) for r in rows if r[l] == lab}
            pos = sum((extra[c] for c in kids if extra[c] > 0), Fr(0))
            neg = sum((-extra[c] for c in kids if extra[c] < 0), Fr(0))
            cost += Fr(l, H) * min(pos, neg)
    return cost


def check_class(crit, sens, cls):
    """Does the class (dict count, pcount, hist[s]) pass criterion crit?
    Raises Ambiguous near a bound."""
    kind, s, a, b = crit['kind'], crit.get('sens'), crit.get('a'), crit.get('b')
    count = cls['count']
    if kind == 'k':
        return count >= a
    if kind == 'k-map':
        return cls['pcount'] >= a
    if kind == 'delta-presence':
        d = Fr(0) if count == 0 else Fr(count, cls['pcount'])
        return le(a, d) and le(d, b)
    hist = cls['hist'][s]
    n = sum(hist.values())
    S = sens[s]
    if kind == 'distinct':
        return len(hist) >= a
    if kind == 'entropy':
        if len(hist) < math.ceil(a):
            return False
        est = crit.get('est', 'shannon')
        lim = n * (psi(est, n) - math.log(a))
        tot = sum(c * psi(est, c) for c in hist.values())
        return le(tot, lim)
    if kind == 'recursive':
        l = int(b)
        if len(hist) < l:
            return False
        f = sorted(hist.values())
        return lt(f[-1], Fr(a) * sum(f[:len(f) - l + 1]))
    if kind == 't':
        if S.kind == 'ordered':
            m = len(S.order)
            if m < 2:
                return True
            cum = Fr(0)
            tot = Fr(0)
            for v in S.order:
                cum += Fr(hist.get(v, 0), n) - S.q.get(v, Fr(0))
                tot += abs(cum)
            emd = tot / (m - 1)
        elif S.kind == 'hierarchical':
            emd = emd_hier(S, hist, n)
        else:
            emd = sum(abs(Fr(hist.get(v, 0), n) - S.q.get(v, Fr(0))) for v in set(hist) | set(S.q)) / 2
        return le(emd, a)
    if kind in ('beta', 'beta-enhanced'):
        for v, c in hist.items():
            q = S.q[v]
            x = (Fr(c, n) - q) / q
            bound = min(a, -math.log(q)) if kind == 'beta-enhanced' else a
            if not le(x, bound):
                return False
        return True
    if kind == 'delta-disclosure':
        for v, c in hist.items():
            x = abs(math.log2(Fr(c, n) / S.q[v]))
            if not lt(x, a):
                return False
        return True
    if kind == 'mult-t':
        for v in S.q:
            if v not in hist:
                return False
            p = Fr(hist[v], n)
            r = max(S.q[v] / p, p / S.q[v])
            if not le(r, a):
                return False
        return True
    return True  # sample-based and whole-release ones pass class by class


def kt_holds(crit, sens):
    """(k,t)-closeness of the released values: every k-subset, both ways."""
    S = sens[crit['sens']]
    k, t, N = min(int(crit['a']), S.N), crit['b'], S.N
    worst = Fr(1)
    for v, g in S.g.items():
        q = Fr(g, N)
        most = Fr(min(g, k), k)
        least = Fr(k - (N - g), k)
        if least <= 0:
            return False
        worst = max(worst, most / q, q / least)
    return le(worst, t)


def min_size(criteria):
    m = 0
    for c in criteria:
        if c['kind'] in ('k', 'distinct', 'entropy'):
            m = max(m, math.ceil(c['a']))
        if c['kind'] == 'recursive':
            m = max(m, int(c['b']))
    return m


def sample_holds(crit, sizes):
    rows = sum(sizes)
    if rows == 0:
        return True
    if crit['kind'] == 'average-risk':
        x = Fr(len(sizes), rows)
    else:
        x = Fr(sum(1 for z in sizes if z == 1), rows)
    return le(x, crit['a'])


def enforce(criteria, sens, classes):
    """classes: list of dicts (count, pcount, hist, first, full). Returns
    (suppressed flags, suppressed rows, blocked)."""
    ms = min_size(criteria)
    dp = [c for c in criteria if c['kind'] == 'delta-presence']
    sup = [False] * len(classes)
    blocked = False
    for i, cl in enumerate(classes):
        if cl['count'] == 0:
            if ms == 0 and dp and dp[0]['a'] > 0:
                blocked = True
            continue
        if cl['count'] < ms:
            sup[i] = True
            continue
        for c in criteria:
            if not check_class(c, sens, cl):
                sup[i] = True
                break
    samples = [c for c in criteria if c['kind'] in ('average-risk', 'sample-uniqueness')]
    if samples:
        elig = sorted((cl['count'], cl.get('tie', 0), cl['first'], i) for i, cl in enumerate(classes)
                      if not sup[i] and cl['count'] > 0 and not cl['full'])
        need = 0
        for c in samples:
            p = 0
            while not sample_holds(c, [e[0] for e in elig[p:]]):
                p += 1
            need = max(need, p)
        for e in elig[:need]:
            sup[e[3]] = True
    rows = sum(cl['count'] for i, cl in enumerate(classes) if sup[i])
    return sup, rows, blocked
