"""Independent oracle for `keps verify` (docs/spec.md 7's syntactic checks): on
random small releases, k-anonymity, distinct and entropy l-diversity and
t-closeness (EMD, Li et al. 2007: equal ground distance
0.5 * sum |p_i - q_i| for a nominal column; ordered distance
sum_i |sum_{j<=i} (p_j - q_j)| / (m - 1) over the m distinct values of a
numeric one) recomputed here from the CSV alone, standard library only.
Rules taken from keps verify --help, not from its code: rows whose every
QI is '*' are left out of the classes but count in the whole table's
distribution (all rows '*': one class); the missing token is a value of its
own, except in the ordered EMD, which leaves missing cells out.
Usage: verify_oracle.py KEPS SCRATCH_DIR [CASES]; prints one line per
mismatch and exits 1 if there was any."""
import json, math, os, random, subprocess, sys

keps, scratch = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 300


def dist(vals):
    d = {}
    for v in vals:
        d[v] = d.get(v, 0) + 1
    return {k: c / len(vals) for k, c in d.items()}


def emd_equal(c, whole):
    q, p = dist(c), dist(whole)
    return 0.5 * sum(abs(q.get(v, 0) - p.get(v, 0)) for v in set(p) | set(q))


def emd_ordered(c, whole):
    order = sorted(set(whole))
    if not c or len(order) < 2:
        return 0.0
    q, p = dist(c), dist(whole)
    cum = total = 0.0
    for v in order:
        cum += q.get(v, 0) - p.get(v, 0)
        total += abs(cum)
    return total / (len(order) - 1)


def exp_entropy(c):
    return math.exp(-sum(p * math.log(p) for p in dist(c).values()))


def one_case(seed):
    rnd = random.Random(seed)
    n, nq = rnd.randint(1, 60), rnd.randint(1, 3)
    nominal = ['x', 'y', 'z', 'w'][:rnd.randint(1, 4)]
    rows = []
    for _ in range(n):
        q = [rnd.choice(['a', 'b', '*']) if rnd.uniform(0, 1) < 0.9 else rnd.choice(['c', 'd']) for _ in range(nq)]
        if rnd.uniform(0, 1) < 0.1:
            q = ['*'] * nq
        s2 = '?' if rnd.uniform(0, 1) < 0.1 else rnd.choice(['1', '2', '3', '5', '8', '13', '-2', '0.5'])
        rows.append(q + [rnd.choice(nominal), s2])
    k, l, el, t = rnd.randint(1, 6), rnd.randint(1, 4), rnd.choice([1, 1.5, 2.2, 3]), rnd.choice([0.05, 0.2, 0.5, 1])
    path = os.path.join(scratch, 'in.csv')
    with open(path, 'w') as f:
        f.write(','.join([f'q{i}' for i in range(nq)] + ['s1', 's2']) + '\n')
        f.writelines(','.join(r) + '\n' for r in rows)
    args = [keps, 'verify', '-i', path, '--sensitive', 's1', '--sensitive', 's2', '-k', str(k),
            '--l-diversity', str(l), '--entropy-l', str(el), '--t-closeness', str(t), '--missing', '?', '--json']
    for i in range(nq):
        args += ['--qi', f'q{i}']
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return [('exit', p.returncode, p.stderr.strip())]
    r = json.loads(p.stdout)

    kept = [x for x in rows if any(v != '*' for v in x[:nq])] or rows
    classes = {}
    for x in kept:
        classes.setdefault(tuple(x[:nq]), []).append(x)
    cl = list(classes.values())
    s1 = [[x[nq] for x in c] for c in cl]
    s2 = [[float(x[nq + 1]) for x in c if x[nq + 1] != '?'] for c in cl]
    whole2 = [float(x[nq + 1]) for x in rows if x[nq + 1] != '?']
    want = {
        'min_class': min(len(c) for c in cl),
        'min_distinct_s1': min(len(set(c)) for c in s1),
        'min_distinct_s2': min(len(set(x[nq + 1] for x in c)) for c in cl),
        'min_entropy_l_s1': min(exp_entropy(c) for c in s1),
        'min_entropy_l_s2': min(exp_entropy([x[nq + 1] for x in c]) for c in cl),
        'max_emd_s1': max(emd_equal(c, [x[nq] for x in rows]) for c in s1),
        'max_emd_s2': max(emd_ordered(c, whole2) for c in s2),
    }
    ld, tc = r['l_diversity']['columns'], r['t_closeness']['columns']
    got = {
        'min_class': r['k_anonymity']['min_class'],
        'min_distinct_s1': ld['s1']['min_distinct'], 'min_distinct_s2': ld['s2']['min_distinct'],
        'min_entropy_l_s1': ld['s1']['min_entropy_l'], 'min_entropy_l_s2': ld['s2']['min_entropy_l'],
        'max_emd_s1': tc['s1']['max_emd'], 'max_emd_s2': tc['s2']['max_emd'],
    }
    bad = [(key, got[key], want[key]) for key in want if abs(got[key] - want[key]) > 1e-12]
    holds = {'k_anonymity': want['min_class'] >= k,
             'l_diversity': min(want['min_distinct_s1'], want['min_distinct_s2']) >= l,
             'entropy_l_diversity': min(want['min_entropy_l_s1'], want['min_entropy_l_s2']) >= el - 1e-12,
             't_closeness': max(want['max_emd_s1'], want['max_emd_s2']) <= t + 1e-12}
    holds['all'] = all(holds.values())
    for key, v in holds.items():
        if r['holds'][key] != v:
            bad.append(('holds.' + key, r['holds'][key], v))
    if p.returncode != (0 if holds['all'] else 1):
        bad.append(('exit', p.returncode, 0 if holds['all'] else 1))
    return bad


failures = 0
for seed in range(cases):
    for b in one_case(seed):
        failures += 1
        print(f'case {seed}: {b[0]}: keps {b[1]}, oracle {b[2]}')
print(f'verify oracle: {cases} cases, {failures} mismatches')
sys.exit(1 if failures else 0)
