"""Independent oracle for the report sections the HTML page draws, recomputed
here from the CSV files and hierarchies alone (standard library only;
definitions from docs/cli.md and keps risk --help, not from keps's code):
  - lattice (anonymize --algorithm ola): every node drawn, its rows in
    classes smaller than k, anonymous (those rows <= floor(suppress * n)),
    its precision score (Sweeney's prec with suppression: mean over QIs of
    ((n - S) l_i/h_i + S) / n), the frontier (anonymous nodes with no
    anonymous node one level below), the chosen node; a lattice of at most
    500 nodes whole, a larger one as its frontier and the chosen node;
  - lattice (safela): every node's G, utility and selection probability
    by the exponential mechanism, the chosen node's;
  - before_after.risk: class sizes of the input and of the release on the
    QIs (rows '*' in every QI left out), highest/average prosecutor risk,
    share at the highest, sample uniques;
  - before_after.distributions: each changed attribute's most frequent 12
    values (ties by value) with the rest as other, or 20 equal-width bins
    over both sides' range for numbers;
  - before_after.suppressed_values: per QI value, its records and those
    suppressed (release in input order: --keep-order).
Env: KEPS (binary), KEPS_REPO (source tree), TMPDIR. Exit 1 on a mismatch."""
import csv
import itertools
import json
import os
import subprocess
import sys
from collections import Counter

keps, repo = os.environ['KEPS'], os.environ['KEPS_REPO']
tmp = os.environ.get('TMPDIR', '/tmp')
adult = os.path.join(repo, 'data/adult/adult.csv')
hier = os.path.join(repo, 'data/adult/adult_hierarchy_%s.csv')
bad = 0


def fail(msg):
    global bad
    bad += 1
    print('MISMATCH:', msg)


def close(a, b):
    return a == b or (a is not None and b is not None and abs(a - b) <= 1e-12 * max(1, abs(b)))


def read(path, delim=','):
    with open(path, newline='') as f:
        r = list(csv.reader(f, delimiter=delim))
    return r[0], r[1:]


def hierarchy(name):
    with open(hier % name, newline='') as f:
        rows = [r for r in csv.reader(f, delimiter=';') if r]
    depth = max(len(r) for r in rows)
    # a short row (unbalanced tree) keeps its leaf on the levels it lacks
    return {r[0]: [r[min(l, len(r) - 1)] if l < len(r) - 1 else r[-1] for l in range(depth)] for r in rows}, depth - 1


def run(args):
    p = subprocess.run([keps] + args, capture_output=True, text=True)
    if p.returncode != 0:
        fail('keps %s exited %d: %s' % (' '.join(args), p.returncode, p.stderr[-400:]))
        return None
    return json.loads(p.stdout)


def risk_of(rows, cols):
    cls = Counter(tuple(r[c] for c in cols) for r in rows if not all(r[c] == '*' for c in cols))
    n = sum(cls.values())
    sizes = Counter(cls.values())
    lo = min(sizes) if sizes else 0
    return {'records': n, 'class_sizes': sorted([s, c] for s, c in sizes.items()),
            'highest': 1 / lo if lo else 0, 'share_at_highest': lo * sizes[lo] / n if n else 0,
            'average': len(cls) / n if n else 0, 'sample_uniques': sizes.get(1, 0) / n if n else 0}


def check_risk(tag, got, want):
    if got['records'] != want['records'] or got['class_sizes'] != want['class_sizes']:
        fail('%s: classes %s/%s, want %s/%s' % (tag, got['records'], got['class_sizes'], want['records'],
                                                 want['class_sizes']))
    for k in ('highest', 'share_at_highest', 'average'):
        if not close(got['prosecutor'][k], want[k]):
            fail('%s: prosecutor %s %r, want %r' % (tag, k, got['prosecutor'][k], want[k]))
    if not close(got['sample_uniques'], want['sample_uniques']):
        fail('%s: sample uniques %r, want %r' % (tag, got['sample_uniques'], want['sample_uniques']))


def number(v):
    try:
        x = float(v)
        return x if x == x and abs(x) != float('inf') else None
    except ValueError:
        return None


def check_distributions(tag, ba, head, rows, rhead, rrows, attrs):
    for a in attrs:
        x = [r[head.index(a)] for r in rows]
        y = [r[rhead.index(a)] for r in rrows]
        cx, cy = Counter(x), Counter(y)
        if cx == cy:
            if a not in ba['unchanged']:
                fail('%s: %s unchanged but not listed' % (tag, a))
            continue
        got = ba['distributions'].get(a)
        if got is None:
            fail('%s: %s changed but has no distribution' % (tag, a))
            continue
        nx = [number(v) for v in x if v not in ('*', '')]
        ny = [number(v) for v in y if v not in ('*', '')]
        numx, numy = nx and None not in nx, ny and None not in ny
        for side, vals, c, isnum, other in (('input', x, cx, numx, ny), ('release', y, cy, numy, nx)):
            g = got[side]
            if g['distinct'] != len(c):
                fail('%s: %s %s distinct %s, want %d' % (tag, a, side, g['distinct'], len(c)))
            if isnum:
                own = [number(v) for v in vals if v not in ('*', '')]
                both = own + (other if (numx and numy) else [])
                lo, hi = min(both), max(both)
                w = (hi - lo) / 20 if hi > lo else 0
                counts = [0] * (20 if hi > lo else 1)
                for v in own:
                    b = int((v - lo) / w) if w else 0
                    counts[min(b, len(counts) - 1)] += 1
                if g['counts'] != counts or not close(g['bins'][0], lo) or not close(g['bins'][-1], hi):
                    fail('%s: %s %s histogram %s %s, want %s over [%s, %s]' %
                         (tag, a, side, g['bins'][:2], g['counts'], counts, lo, hi))
            else:
                ranked = sorted(c.items(), key=lambda kv: (-kv[1], kv[0].encode()))
                want = [[v, n] for v, n in ranked[:12]]
                if g['values'] != want or g['other'] != sum(n for _, n in ranked[12:]):
                    fail('%s: %s %s values %s other %s, want %s other %s' %
                         (tag, a, side, g['values'][:3], g['other'], want[:3], sum(n for _, n in ranked[12:])))


def check_suppressed(tag, ba, head, rows, rhead, rrows, qis):
    sup = [all(rr[rhead.index(q)] == '*' for q in qis) for rr in rrows]
    if not any(sup):
        if 'suppressed_values' in ba:
            fail('%s: suppressed_values without suppression' % tag)
        return
    for q in qis:
        tot, s = Counter(), Counter()
        for r, su in zip(rows, sup):
            tot[r[head.index(q)]] += 1
            s[r[head.index(q)]] += su
        ranked = sorted(((v, n) for v, n in s.items() if n), key=lambda kv: (-kv[1], kv[0].encode()))
        want = [[v, tot[v], n] for v, n in ranked[:12]]
        got = ba['suppressed_values'][q]
        other = [sum(tot.values()) - sum(t for _, t, _ in want), sum(n for _, n in ranked[12:])]
        if got['values'] != want or got['other'] != other:
            fail('%s: suppressed %s %s %s, want %s %s' % (tag, q, got['values'][:3], got['other'], want[:3], other))


def check_lattice(tag, rep, head, rows, qis, k, suppress):
    hs = [hierarchy(q) for q in qis]
    cols = [head.index(q) for q in qis]
    n, limit = len(rows), int(suppress * len(rows) + 1e-9)
    nodes = {}
    for lv in itertools.product(*[range(h + 1) for _, h in hs]):
        cls = Counter(tuple(hs[i][0][r[c]][lv[i]] for i, c in enumerate(cols)) for r in rows)
        S = sum(m for m in cls.values() if m < k)
        prec = sum(((n - S) * lv[i] / hs[i][1] if hs[i][1] else 0) + S for i in range(len(qis))) / len(qis) / n
        nodes[lv] = (S, S <= limit, prec)
    frontier = {lv for lv, (_, an, _) in nodes.items() if an and not any(
        nodes.get(lv[:i] + (lv[i] - 1,) + lv[i + 1:], (0, False))[1] for i in range(len(lv)) if lv[i])}
    L = rep['lattice']
    chosen = tuple(L['chosen'])
    best = min(p for _, a, p in nodes.values() if a)
    if not nodes[chosen][1] or not close(nodes[chosen][2], best):
        fail('%s: chosen %s is not an optimum (prec %s, best %s)' % (tag, chosen, nodes[chosen][2], best))
    whole = len(nodes) <= 500
    if L['drawn'] != ('all' if whole else 'frontier') or L['nodes_total'] != len(nodes):
        fail('%s: drawn %s of %s nodes' % (tag, L['drawn'], L['nodes_total']))
    want = set(nodes) if whole else frontier | {chosen}
    got = {tuple(v['levels']) for v in L['nodes']}
    if got != want:
        fail('%s: %d nodes drawn, want %d (%s)' % (tag, len(got), len(want), sorted(got ^ want)[:3]))
    for v in L['nodes']:
        lv = tuple(v['levels'])
        if lv not in nodes:
            continue
        S, an, prec = nodes[lv]
        if v['suppressed'] != S or v['anonymous'] != an or v['frontier'] != (lv in frontier) or \
                not close(v.get('score'), prec if an else None):
            fail('%s: node %s: %s, want suppressed %d anonymous %s frontier %s prec %s' %
                 (tag, lv, v, S, an, lv in frontier, prec))


def ola_case(tag, rows_in, qis, k, suppress):
    head, rows = read(adult, ';')
    rows = rows[:rows_in]
    path = os.path.join(tmp, tag + '.csv')
    with open(path, 'w', newline='') as f:
        csv.writer(f, delimiter=';', lineterminator='\n').writerows([head] + rows)
    out = os.path.join(tmp, tag + '-out.csv')
    rep = run(['anonymize', '--algorithm', 'ola', '-i', path, '-o', out, '-k', str(k), '--suppress', str(suppress),
               '--metric', 'prec', '--others', 'keep', '--sensitive', 'salary-class', '--keep-order', '--report', '-'] +
              [a for q in qis for a in ('--qi', '%s:%s' % (q, hier % q))])
    if rep is None:
        return
    rhead, rrows = read(out, ';')  # the release keeps the input's separator
    ba = rep['before_after']
    cols = [head.index(q) for q in qis]
    check_risk(tag + ' input', ba['risk']['input'], risk_of(rows, cols))
    check_risk(tag + ' release', ba['risk']['release'], risk_of(rrows, [rhead.index(q) for q in qis]))
    check_distributions(tag, ba, head, rows, rhead, rrows, qis + ['salary-class'])
    check_suppressed(tag, ba, head, rows, rhead, rrows, qis)
    check_lattice(tag, rep, head, rows, qis, k, suppress)


def mdav_case():
    casc = os.path.join(repo, 'data/casc/casc.csv')
    out = os.path.join(tmp, 'mdav-out.csv')
    cols = ['FICA', 'FEDTAX', 'INTVAL', 'POTHVAL']
    rep = run(['anonymize', '--algorithm', 'mdav', '-i', casc, '-o', out, '-k', '5', '--others', 'keep',
               '--keep-order', '--report', '-'] + [a for c in cols for a in ('--columns', c)])
    if rep is None:
        return
    head, rows = read(casc)
    rhead, rrows = read(out)
    ba = rep['before_after']
    check_risk('mdav input', ba['risk']['input'], risk_of(rows, [head.index(c) for c in cols]))
    check_risk('mdav release', ba['risk']['release'], risk_of(rrows, [rhead.index(c) for c in cols]))
    check_distributions('mdav', ba, head, rows, rhead, rrows, cols)


def safela_case():
    """safela's lattice: each node's G from its levels, the utility -(G + f S),
    the exponential mechanism's probabilities exp(e' u / (2 du)) normalized,
    with du = f k / n (mechanism.sensitivity), summing to 1; the chosen node's
    as mechanism.chosen_probability; good = S < 0.15 and G < 0.6."""
    import math
    qis = ['age', 'education']
    f, k, eps1 = 2.0, 75, 0.5
    rep = run(['safela', '-i', adult, '-o', os.path.join(tmp, 'safela.csv'), '-k', str(k), '--beta', '0.7',
               '--epsilon-prime', str(eps1), '--penalty', str(f), '--others', 'keep', '--report', '-'] +
              [a for q in qis for a in ('--qi', '%s:%s' % (q, hier % q))])
    if rep is None:
        return
    L, m = rep['lattice'], rep['mechanism']
    hs = [hierarchy(q)[1] for q in qis]
    if L['heights'] != hs or L['nodes_total'] != (hs[0] + 1) * (hs[1] + 1) or len(L['nodes']) != L['nodes_total']:
        fail('safela: lattice %s' % {x: L[x] for x in ('heights', 'nodes_total')})
        return
    du = m['sensitivity']
    if not close(du, f * k / rep['sample_size']):
        fail('safela: sensitivity %r, want f k / n = %r' % (du, f * k / rep['sample_size']))
    z = sum(math.exp(eps1 * v['score'] / (2 * du)) for v in L['nodes'])
    for v in L['nodes']:
        G = sum(l / h for l, h in zip(v['levels'], hs)) / len(hs)
        p = math.exp(eps1 * v['score'] / (2 * du)) / z
        if not close(v['generalization'], G) or not close(v['score'], -(G + f * v['suppression'])) or \
                abs(v['probability'] - p) > 1e-12 or v['good'] != (v['suppression'] < 0.15 and G < 0.6):
            fail('safela: node %s: %s, want G %r probability %r' % (v['levels'], v, G, p))
        if v['levels'] == L['chosen'] and abs(v['probability'] - m['chosen_probability']) > 1e-15:
            fail('safela: chosen probability %r, mechanism says %r' % (v['probability'], m['chosen_probability']))
    if L['chosen'] != [rep['transformation'][q] for q in qis]:
        fail('safela: chosen %s, transformation %s' % (L['chosen'], rep['transformation']))


ola_case('ola-small', 3000, ['sex', 'age', 'race'], 5, 0.02)           # 20 nodes: drawn whole
# 1296 nodes: the frontier and the chosen node
ola_case('ola-frontier', 1500, ['sex', 'race', 'marital-status', 'education', 'native-country', 'workclass',
                                'occupation'], 3, 0.01)
mdav_case()
safela_case()
print('report sections: %d mismatches' % bad)
sys.exit(1 if bad else 0)
