"""Oracle for the risk measures of `keps risk -i` on random small tables,
standard library only, written from the definitions (ARX 3.9.2's risk
models and sdcMicro's indivRisk as docs/spec.md section 13 states them),
not from keps's code. Exact rational arithmetic where the figure is a ratio
of counts.
  classes: records with equal QI values; rows whose every QI is '*' left out
    (every row '*': one class of all).
  prosecutor: highest 1/min f, average classes/n, share_at_highest = records
    in the smallest classes / n, lowest 1/max f and its share.
  journalist / marketer against a population table P (a superset): F_c =
    rows of P with c's values (P's '*' rows count); highest 1/min F_c,
    average max(classes / sum F_c, sum (f_c/F_c) / n), marketer
    sum (f_c/F_c) / n; without P they equal prosecutor's (marketer = average).
  sample uniques: records in classes of 1 / n; classes: size -> count.
  attributes: for each combination of 1..M QIs (rows '*' on all of its QIs
    left out): distinction = classes/n, separation = 1 - sum C(f,2)/C(n,2),
    sample uniques, mean individual risk.
  individual risk (Benedetti-Franconi, sdcMicro "approx"), per record with
    p = f/F_w (F_w: the class's weight sum): f == F_w: 1/f; f = 1:
    p/(1-p) log(1/p); f = 2: p/(1-p) - (p/(1-p))^2 log(1/p); else
    p/(f - (1-p)); 1/f without weights.
  Zayatz (1991): c1 * [(c1/u) h(1) / sum_s (c_s/u) h(s)] / (n/N), h(s) the
    hypergeometric P(X = 1) of a class of s among N when n are drawn, from
    exact binomial coefficients; shares are uniques / N. Dankar's rule:
    f <= 0.1 -> Pitman (Zayatz if Pitman has none), else the smaller of
    Zayatz and SNB (Zayatz if SNB has none): checked against keps's own
    Pitman and SNB figures (their solvers are checked against ARX in
    tests/test_risk_arx.c).
Usage: risk_measures_oracle.py KEPS SCRATCH_DIR [CASES]; exits 1 on any mismatch."""
import csv, itertools, json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smalltables import Lcg, close, main  # noqa: E402
from fractions import Fraction as Fr

keps, scratch = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 300



def classes_of(rows, S, drop_star=True):
    live = [r for r in range(len(rows)) if not drop_star or any(rows[r][a] != '*' for a in S)]
    if drop_star and not live:
        live = list(range(len(rows)))
    cls = {}
    for r in live:
        cls.setdefault(tuple(rows[r][a] for a in S), []).append(r)
    return cls


def bf(f, F):
    if f == F:
        return 1 / f
    p = f / F
    o = p / (1 - p)
    if f == 1:
        return o * math.log(1 / p)
    if f == 2:
        return o - o * o * math.log(1 / p)
    return p / (f - (1 - p))


def zayatz_share(hist, n, N):
    u = sum(hist.values())
    c1 = hist.get(1, 0)

    def h(s):
        return Fr(s * math.comb(N - s, n - 1), math.comb(N, n))
    uniq = Fr(c1, u) * h(1) / sum(Fr(c, u) * h(s) for s, c in hist.items())
    return float(c1 * uniq / Fr(n, N) / N)



def one_case(seed):
    g = Lcg(seed, 11)
    n, m = 1 + g.below(40), 1 + g.below(4)
    M = 1 + g.below(m)
    vals = [1 + g.below(5) for _ in range(m)]
    rows = [[str(g.below(vals[a])) for a in range(m)] for _ in range(n)]
    for r in range(n):
        if g.below(10) == 0:
            rows[r] = ['*'] * m
        elif g.below(12) == 0:
            rows[r][g.below(m)] = '*'
    weights = [1 + g.below(50) / 4 for _ in range(n)] if g.below(2) else None
    pop = None
    if g.below(3) == 0:  # a superset: the rows plus others
        pop = [list(r) for r in rows] + [[str(g.below(vals[a])) for a in range(m)] for _ in range(g.below(30))]
    hdr = ['q%d' % a for a in range(m)]
    path, ppath, out = (os.path.join(scratch, x) for x in ('t.csv', 'p.csv', 'rec.csv'))
    with open(path, 'w') as fh:
        fh.write(','.join(hdr + ['w']) + '\n')
        fh.writelines(','.join(rows[r] + [repr(weights[r]) if weights else '1']) + '\n' for r in range(n))
    args = [keps, 'risk', '-i', path, '--json', '--max-combination', str(M), '-o', out]
    args += sum((['--qi', q] for q in hdr), [])
    if weights:
        args += ['--weights', 'w']
    if pop:
        with open(ppath, 'w') as fh:
            fh.write(','.join(hdr) + '\n')
            fh.writelines(','.join(r) + '\n' for r in pop)
        args += ['--population', ppath]
    N = None
    choice = g.below(3)
    if choice == 1:
        N = n + g.below(5 * n + 1)
        args += ['--population-size', str(N)]
    elif choice == 2:
        frac = [0.05, 0.1, 0.3, 0.9, 1.0][g.below(5)]
        args += ['--sampling-fraction', repr(frac)]
        N = int(math.floor(n / frac + 0.5))
    elif pop:
        N = len(pop)
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        return [('exit', p.returncode, p.stderr.strip())]
    j = json.loads(p.stdout)
    rec = list(csv.DictReader(open(out)))
    bad = []

    def want(key, got, exp, tol=1e-12):
        if not close(got, exp, tol):
            bad.append((key, got, exp))

    S = tuple(range(m))
    cls = classes_of(rows, S)
    sizes = [len(v) for v in cls.values()]
    nrec = sum(sizes)
    hist = {}
    for s in sizes:
        hist[s] = hist.get(s, 0) + 1
    if {int(k): v for k, v in j['classes'].items()} != hist:
        bad.append(('classes', j['classes'], hist))
    lo, hi = min(sizes), max(sizes)
    want('prosecutor.highest', j['prosecutor']['highest'], 1 / lo)
    want('prosecutor.average', j['prosecutor']['average'], float(Fr(len(sizes), nrec)))
    want('prosecutor.share_at_highest', j['prosecutor']['share_at_highest'],
         float(Fr(sum(s for s in sizes if s == lo), nrec)))
    want('prosecutor.lowest', j['prosecutor']['lowest'], 1 / hi)
    want('prosecutor.share_at_lowest', j['prosecutor']['share_at_lowest'],
         float(Fr(sum(s for s in sizes if s == hi), nrec)))
    want('sample_uniques', j['sample_uniques'], float(Fr(hist.get(1, 0), nrec)))
    if pop:
        F = {key: sum(1 for r in pop if tuple(r) == key) for key in cls}
        mn = min(F.values())
        want('journalist.highest', j['journalist']['highest'], 1 / mn)
        a1 = Fr(len(cls), sum(F.values()))
        a2 = sum(Fr(len(v), F[k]) for k, v in cls.items()) / nrec
        want('journalist.average', j['journalist']['average'], float(max(a1, a2)))
        want('journalist.share_at_highest', j['journalist']['share_at_highest'],
             float(Fr(sum(len(v) for k, v in cls.items() if F[k] == mn), nrec)))
        want('marketer.average', j['marketer']['average'], float(a2))
    else:
        want('journalist.highest', j['journalist']['highest'], 1 / lo)
        want('journalist.average', j['journalist']['average'], float(Fr(len(sizes), nrec)))
        want('marketer.average', j['marketer']['average'], float(Fr(len(sizes), nrec)))
    # individual risk, per record and summed
    risk = {}
    for v in cls.values():
        Fw = sum(weights[r] for r in v) if weights else len(v)
        for r in v:
            risk[r] = bf(len(v), Fw)
    for r in range(n):
        got = rec[r]['individual_risk']
        if r not in risk:
            if got != '':
                bad.append(('row %d left out' % (r + 1), got, ''))
        elif not close(float(got), risk[r], 1e-12):
            bad.append(('row %d individual risk' % (r + 1), got, risk[r]))
    want('individual_risk.expected_reidentifications', j['individual_risk']['expected_reidentifications'],
         sum(risk.values()), 1e-12)
    # attributes, in keps's order: by size, then lexicographic
    combos = [c for k in range(1, M + 1) for c in itertools.combinations(range(m), k)]
    if len(combos) != len(j['attributes']):
        bad.append(('attributes', len(j['attributes']), len(combos)))
    for c, a in zip(combos, j['attributes']):
        if a['qis'] != [hdr[x] for x in c]:
            bad.append(('attribute order', a['qis'], [hdr[x] for x in c]))
            continue
        cc = classes_of(rows, c)
        nn = sum(len(v) for v in cc.values())
        want('distinction %s' % (c,), a['distinction'], float(Fr(len(cc), nn)))
        pairs = Fr(nn * (nn - 1), 2)
        same = sum(Fr(len(v) * (len(v) - 1), 2) for v in cc.values())
        want('separation %s' % (c,), a['separation'], float((pairs - same) / pairs) if pairs else 0.0)
        want('uniques %s' % (c,), a['sample_uniques'], float(Fr(sum(len(v) == 1 for v in cc.values()), nn)))
        rs = 0.0
        for v in cc.values():
            Fw = sum(weights[r] for r in v) if weights else len(v)
            rs += len(v) * bf(len(v), Fw)
        want('individual risk %s' % (c,), a['individual_risk'], rs / nn, 1e-12)
    # population uniqueness
    pu = j['population_uniques']
    if N is None:
        if pu is not None:
            bad.append(('population_uniques', pu, None))
        return bad
    if pu['population_size'] != N:
        bad.append(('population_size', pu['population_size'], N))
    if hist.get(1, 0) == 0:
        for k in ('pitman', 'zayatz', 'snb', 'dankar'):
            want(k, pu[k], 0.0)
        if pu['model'] is not None:
            bad.append(('model', pu['model'], None))
        return bad
    want('zayatz', pu['zayatz'], zayatz_share(hist, nrec, N), 1e-9)
    f = nrec / N
    if f <= 0.1:
        model = 'pitman' if pu['pitman'] is not None else 'zayatz'
    elif pu['snb'] is not None:
        model = 'zayatz' if pu['zayatz'] is not None and pu['zayatz'] < pu['snb'] else 'snb'
    else:
        model = 'zayatz'
    if pu['model'] != model or not close(pu['dankar'], pu[model]):
        bad.append(('dankar', (pu['model'], pu['dankar']), (model, pu[model])))
    return bad


main('risk measures oracle', one_case, cases)
