"""keps anonymize --algorithm ola under privacy criteria against an
exhaustive oracle (criteria_oracle.py for the criteria and ARX's
suppression rule, metrics_oracle.py for the metrics) on random small
tables: 2-4 QIs with random hierarchies, 1-2 sensitive columns (nominal,
numeric/ordered, or with a hierarchy), sometimes a research subset, 1-3
random criteria among all of keps's, a random suppression limit and
metric. For every case the oracle evaluates every node and checks that
keps's node is feasible, that its score is the least over the feasible
nodes, its suppressed rows and metrics; or that keps exits 1 when no node
is feasible. Cases where a class lies within 1e-9 of a bound (floating
point may decide either way) are skipped and counted. KEPS: the binary;
CASES (default 300) seeds from 0."""
import itertools, json, math, os, random, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import mkhier
from metrics_oracle import Problem, load_hier, cmp_tol, random_model
import criteria_oracle as co

KEPS = os.path.abspath(os.environ["KEPS"])
SCRATCH = tempfile.mkdtemp()


NONMONO = ['entropy', 'recursive', 't', 'beta', 'delta-disclosure', 'mult-t']


def pick_criteria(rnd, N, sens_names, subset, nonmono=False):
    out = []
    kinds = ['k', 'distinct', 'entropy', 'recursive', 't', 'beta', 'delta-disclosure', 'mult-t',
             'average-risk', 'sample-uniqueness', 'kt']
    if subset:
        kinds += ['delta-presence', 'k-map', 'delta-presence']
    if nonmono:  # one criterion that suppression makes non-monotone, alone
        kinds = NONMONO + (['delta-presence'] if subset else [])
    est = rnd.choice(['shannon', 'grassberger'])
    beta = rnd.choice(['beta', 'beta-enhanced'])
    for kind in rnd.sample(kinds, 1 if nonmono else rnd.randint(1, 3)):
        s = rnd.randrange(len(sens_names))
        c = {'kind': kind, 'sens': s}
        if kind == 'k':
            c['a'] = rnd.randint(1, 5)
        elif kind == 'distinct':
            c['a'] = rnd.randint(1, 3)
        elif kind == 'entropy':
            c['a'], c['est'] = rnd.choice([1.3, 1.7, 2.3, 2.9]), est
        elif kind == 'recursive':
            c['a'], c['b'] = rnd.choice([1.5, 2, 3]), rnd.choice([2, 3])
        elif kind == 't':
            c['a'] = round(rnd.uniform(0.05, 0.6), 3) + 0.000123
        elif kind == 'beta':
            c['kind'], c['a'] = beta, round(rnd.uniform(0.3, 3), 3) + 0.000123
        elif kind == 'delta-disclosure':
            c['a'] = round(rnd.uniform(0.3, 2), 3) + 0.000123
        elif kind == 'mult-t':
            c['a'] = round(rnd.uniform(1.2, 4), 3) + 0.000123
        elif kind == 'kt':
            c['a'], c['b'] = rnd.randint(max(1, N // 2), max(1, N - 1)), round(rnd.uniform(1.1, 3), 3) + 0.000123
        elif kind == 'delta-presence':
            c['a'] = rnd.choice([0, round(rnd.uniform(0, 0.3), 3) + 0.000123])
            c['b'] = round(rnd.uniform(0.4, 1), 3) - 0.000123
        elif kind == 'k-map':
            c['a'] = rnd.randint(1, 6)
        elif kind == 'average-risk':
            c['a'] = round(rnd.uniform(0.05, 0.6), 3) + 0.000123
        else:
            c['a'] = round(rnd.uniform(0, 0.3), 3) + 0.000123
        # one delta-presence, k-map, risk criterion each (keps's flags take one)
        if kind in ('delta-presence', 'k-map', 'average-risk', 'sample-uniqueness') and \
                any(o['kind'] == kind for o in out):
            continue
        out.append(c)
    return out


FLAG = {'k': '-k', 'distinct': '--l-diversity', 'entropy': '--entropy-l', 'recursive': '--recursive-l',
        't': '--t-closeness', 'beta': '--beta-likeness', 'beta-enhanced': '--beta-likeness',
        'delta-disclosure': '--delta-disclosure', 'mult-t': '--multiplicative-t', 'kt': '--kt-closeness',
        'delta-presence': '--delta-presence', 'k-map': '--k-map', 'average-risk': '--average-risk',
        'sample-uniqueness': '--sample-uniqueness'}
NAMED = {'distinct', 'entropy', 'recursive', 't', 'beta', 'beta-enhanced', 'delta-disclosure', 'mult-t', 'kt'}


def flags(criteria, sens_names):
    a = []
    for c in criteria:
        kind = c['kind']
        v = repr(c['a'])
        if kind in ('recursive', 'kt', 'delta-presence'):
            v = '%r,%r' % (c['a'], c['b'])
        if kind in NAMED:
            v = '%s=%s' % (sens_names[c['sens']], v)
        a += [FLAG[kind], v]
        if kind == 'entropy':
            a += ['--entropy-estimator', c['est']]
        if kind == 'beta-enhanced':
            a += ['--beta-likeness-variant', 'enhanced']
    return a


def make_case(seed):
    """Odd seeds: one non-monotone criterion under suppression, more rows
    (generalizing can then suppress more, which the search must handle)."""
    rnd = random.Random(seed)
    nonmono = seed % 2 == 1
    d = SCRATCH
    q, N = rnd.randint(2, 4), rnd.randint(60, 200) if nonmono else rnd.randint(20, 120)
    qis, cols = [], []
    for i in range(q):
        nl, h = rnd.randint(2, 8), rnd.randint(1, 3)
        vals = mkhier(f'{d}/h{i}.csv', nl, h, rnd)
        cols.append(vals[:rnd.randint(1, nl)])
        qis.append(f'c{i}:{d}/h{i}.csv')
    ns = rnd.randint(1, 2)
    sens = []
    for j in range(ns):
        kind = rnd.choice(['nominal', 'ordered', 'hierarchical'])
        if kind == 'nominal':
            vals = list('abcde')[:rnd.randint(2, 5)]
        elif kind == 'ordered':
            vals = [str(x) for x in rnd.sample(range(1, 30), rnd.randint(2, 6))]
        else:
            vals = mkhier(f'{d}/s{j}.csv', rnd.randint(3, 7), rnd.randint(1, 3), rnd)
        w = [rnd.uniform(0.2, 3) for _ in vals]
        sens.append((kind, vals, w))
    rows = []
    for _ in range(N):
        r = [rnd.choice(cols[i]) for i in range(q)]
        for kind, vals, w in sens:
            r.append(rnd.choices(vals, w)[0])
        rows.append(r)
    names = [f'c{i}' for i in range(q)] + [f's{j}' for j in range(ns)]
    with open(f'{d}/data.csv', 'w') as f:
        f.write(';'.join(names) + '\n')
        for r in rows:
            f.write(';'.join(r) + '\n')
    subset = None
    if rnd.uniform(0, 1) < 0.3:
        pr = rnd.uniform(0.3, 0.8)
        subset = [i for i in range(N) if rnd.uniform(0, 1) < pr] or [0]
        with open(f'{d}/subset.csv', 'w') as f:
            f.write(';'.join(names) + '\n')
            for i in rnd.sample(subset, len(subset)):
                f.write(';'.join(rows[i]) + '\n')
    sens_names = [f's{j}' for j in range(ns)]
    criteria = pick_criteria(rnd, len(subset) if subset else N, sens_names, subset is not None, nonmono)
    s = rnd.choice([0.05, 0.1, 0.2, 0.3] if nonmono else [0, 0, 0.05, 0.1, 0.3, 0.6])
    if nonmono and rnd.uniform(0, 1) < 0.3:
        # precision with a gs-factor below 0.5 falls as suppression grows: a
        # class bound assuming that the nodes above suppress no more rows
        # (true for monotone criteria only) would prune the optimum
        gs = rnd.choice([0, 0.1, 0.25])
        cfg, mflags = {'metric': 'prec', 'gs': gs}, ['--metric', 'prec', '--gs-factor', str(gs)]
    elif rnd.uniform(0, 1) < 0.5:  # a quality model with ARX's options
        cfg, mflags = random_model(rnd, q)
    else:
        metric = rnd.choice(['prec', 'loss', 'dm', 'aecs', 'entropy'])
        cfg, mflags = {'metric': metric}, ['--metric', metric]
    return dict(q=q, N=N, qis=qis, rows=rows, sens=sens, subset=subset, criteria=criteria, s=s, cfg=cfg,
                mflags=mflags, sens_names=sens_names)


def oracle(case):
    d = SCRATCH
    q, rows = case['q'], case['rows']
    released = case['subset'] if case['subset'] is not None else list(range(len(rows)))
    relset = set(released)
    hiers = [load_hier(f'{d}/h{i}.csv') for i in range(q)]
    gen = [{r[0]: r for r in h} for h in hiers]
    heights = [len(h[0]) - 1 for h in hiers]
    sens = []
    for j, (kind, vals, w) in enumerate(case['sens']):
        col = [r[q + j] for r in rows]
        hier = load_hier(f'{d}/s{j}.csv') if kind == 'hierarchical' else None
        sens.append(co.Sensitive(col, released, kind, hier))
    crit = case['criteria']
    for c in crit:
        if c['kind'] == 'kt' and not co.kt_holds(c, sens):
            return None, []
    P = Problem(f'{d}/data.csv', ';', 1, case['s'], case['qis'], released=released)
    cfg = case['cfg']
    best, feas = None, {}
    for node in itertools.product(*[range(h + 1) for h in heights]):
        cls = {}
        for i, r in enumerate(rows):
            k = tuple(gen[a][r[a]][node[a]] for a in range(q))
            c = cls.get(k)
            if c is None:
                c = cls[k] = {'count': 0, 'pcount': 0, 'hist': [{} for _ in sens], 'first': i,
                              'full': all(x == '*' for x in k), 'key': k}
            c['pcount'] += 1
            if i in relset:
                c['count'] += 1
                for j in range(len(sens)):
                    v = r[q + j]
                    c['hist'][j][v] = c['hist'][j].get(v, 0) + 1
        lst = list(cls.values())
        if cfg['metric'] == 'loss':  # ARX orders equal-size classes by their own Loss
            for c in lst:
                p = 1.0
                for a in range(q):
                    p *= (c['count'] * P.share[a][node[a]][c['key'][a]] + 1) ** (1.0 / q)
                c['tie'] = p - 1
        sup, srows, blocked = co.enforce(crit, sens, lst)
        if blocked or srows > P.limit:
            continue
        d_, s_ = {c['key']: c['count'] for c in lst}, {c['key'] for c, x in zip(lst, sup) if x}
        m = P.metrics(node, d_, s_)
        sc = P.objective(node, cfg, d_, s_)
        feas[node] = (m, srows, sc)
        if best is None or cmp_tol(sc, best) < 0:
            best = sc
    return best, feas


def run(seed):
    case = make_case(seed)
    d = SCRATCH
    args = [KEPS, 'anonymize', '--algorithm', 'ola', '-i', f'{d}/data.csv', '-o', f'{d}/out.csv', '--others', 'keep',
            '--suppress', str(case['s']), '--json', '--quiet', '--keep-order'] + case['mflags']
    for x in case['qis']:
        args += ['--qi', x]
    for j, (kind, vals, w) in enumerate(case['sens']):
        args += ['--sensitive', f's{j}:{d}/s{j}.csv' if kind == 'hierarchical' else f's{j}']
    if case['subset'] is not None:
        args += ['--subset', f'{d}/subset.csv']
    args += flags(case['criteria'], case['sens_names'])
    try:
        best, feas = oracle(case)
    except co.Ambiguous:
        return 'skip'
    p = subprocess.run(args, capture_output=True, text=True)
    what = 'seed %d %s s=%g %s:' % (seed, json.dumps(case['criteria']), case['s'], ' '.join(case['mflags']))
    if best is None:
        if p.returncode != 1:
            print(what, 'nothing feasible, keps exit', p.returncode, p.stderr[:300])
            return 'bad'
        return 'ok'
    if p.returncode != 0:
        print(what, 'keps exit', p.returncode, 'oracle best', best, p.stderr[:300])
        return 'bad'
    j = json.loads(p.stdout)
    node = tuple(j['transformation'][f'c{i}'] for i in range(case['q']))
    if node not in feas:
        print(what, 'keps node', node, 'infeasible for the oracle')
        return 'bad'
    m, srows, mine = feas[node]
    ok = True
    got = j['score'] if isinstance(j['score'], list) else [j['score']]
    got = [math.inf if x is None else x for x in got]
    if len(got) != len(mine) or cmp_tol(got, mine) != 0 or cmp_tol(mine, best) != 0:
        print(what, 'keps score', got, 'at', node, 'oracle there', mine, 'oracle best', best)
        ok = False
    if j['suppressed_rows'] != srows:
        print(what, 'suppressed', j['suppressed_rows'], 'oracle', srows, 'at', node)
        ok = False
    for kk in ['prec', 'loss', 'discernibility', 'aecs', 'entropy']:
        if abs(j['metrics'][kk] - m[kk]) > 1e-9 * max(1, abs(m[kk])):
            print(what, 'metric', kk, j['metrics'][kk], 'oracle', m[kk], 'at', node)
            ok = False
    return 'ok' if ok else 'bad'


if __name__ == '__main__':
    counts = {'ok': 0, 'bad': 0, 'skip': 0}
    for seed in range(int(os.environ.get('CASES', '60' if os.environ.get('KEPS_SANITIZED') else '300'))):
        counts[run(seed)] += 1
    print('cases', counts)
    sys.exit(1 if counts['bad'] or counts['skip'] > counts['ok'] // 5 else 0)
