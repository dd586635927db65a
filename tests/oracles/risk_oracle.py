"""Independent oracle for `keps risk` on random small releases, standard
library only. Rules taken from keps risk --help, not from its code:
record linkage: both files standardized with the original's mean and
standard deviation; for each original record i, G = the released records
nearest to it (Euclidean, exact ties kept); it scores 1/|G| if release row i
is in G; record_linkage is the mean score (--linkage-direction released
swaps the roles). Prosecutor risk: classes = identical released --qi values,
rows whose every --qi value is '*' left out; prosecutor_max / _avg = max /
mean over records in classes of 1/|class|; records_in_classes_below[t] =
share of those records in classes smaller than t; every row '*': one class.
Releases are group means of 1 to 4 rows, so exact ties are common (copies,
and a mean of two rows is as far from both); the oracle decides them in
exact rational arithmetic.
Usage: risk_oracle.py KEPS SCRATCH_DIR [CASES]; exits 1 on any mismatch."""
import json, os, subprocess, sys
from fractions import Fraction as F

keps, scratch = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 200


class Lcg:
    """Small deterministic generator (the test must not depend on Python's)."""
    def __init__(self, seed):
        self.s = seed * 2654435761 + 1

    def below(self, n):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % 2**64
        return (self.s >> 33) % n


def rl(a_rows, b_rows, orig, cols):
    """Mean over a_rows of 1/|G| when b_rows[i] is in G, the nearest b_rows,
    in exact rational arithmetic on the values as written (each float read
    exactly): squared standardized distance sum_c (a_c - b_c)^2 / var_c,
    var_c the original's variance (its n or n - 1 divisor scales every
    distance alike and moves no tie)."""
    n = len(orig)
    m = [sum(F(r[c]) for r in orig) / n for c in range(cols)]
    var = [sum((F(r[c]) - m[c]) ** 2 for r in orig) / n or F(1) for c in range(cols)]
    score = F(0)
    for i, a in enumerate(a_rows):
        d = [sum((F(a[c]) - F(b[c])) ** 2 / var[c] for c in range(cols)) for b in b_rows]
        best = min(d)
        g = [j for j, x in enumerate(d) if x == best]
        if i in g:
            score += F(1, len(g))
    return float(score / len(a_rows))


def one_case(seed):
    g = Lcg(seed)
    n, cols = 2 + g.below(40), 1 + g.below(3)
    orig = [[g.below(50) * 10 + g.below(3) for _ in range(cols)] for _ in range(n)]
    # release: group means of random groups of 1..4 rows (ties among identical rows)
    rel, i = [None] * n, 0
    order = sorted(range(n), key=lambda _: g.below(1 << 30))
    while i < n:
        grp = order[i:i + 1 + g.below(4)]
        mean = [sum(orig[r][c] for r in grp) / len(grp) for c in range(cols)]
        for r in grp:
            rel[r] = mean
        i += len(grp)
    # a QI label per row: the group mean rounded, '*' for some rows
    qi = ['*' if g.below(8) == 0 else str(int(rel[r][0]) // 20) for r in range(n)]
    hdr = [f'c{c}' for c in range(cols)]
    po, pr = os.path.join(scratch, 'o.csv'), os.path.join(scratch, 'r.csv')
    fmt = lambda v: repr(float(v))
    with open(po, 'w') as f:
        f.write(','.join(hdr + ['q']) + '\n')
        f.writelines(','.join([fmt(v) for v in orig[r]] + ['x']) + '\n' for r in range(n))
    with open(pr, 'w') as f:
        f.write(','.join(hdr + ['q']) + '\n')
        f.writelines(','.join([fmt(v) for v in rel[r]] + [qi[r]]) + '\n' for r in range(n))
    bad = []
    for direction in ('original', 'released'):
        args = [keps, 'risk', '--original', po, '--release', pr, '--qi', 'q', '--json',
                '--linkage-direction', direction]
        for c in hdr:
            args += ['--columns', c]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            return [('exit', p.returncode, p.stderr.strip())]
        got = json.loads(p.stdout)['metrics']
        want_rl = rl(orig, rel, orig, cols) if direction == 'original' else rl(rel, orig, orig, cols)
        if abs(got['record_linkage'] - want_rl) > 1e-12:
            bad.append((direction + ' record_linkage', got['record_linkage'], want_rl))
    classes = {}
    for r in range(n):
        if qi[r] != '*':
            classes[qi[r]] = classes.get(qi[r], 0) + 1
    suppressed = n - sum(classes.values())
    if not classes:  # every row '*': one class (keps risk --help)
        classes = {'*': n}
    recs = sum(classes.values())
    want = {'suppressed_rows': suppressed, 'records_in_classes': recs, 'classes': len(classes)}
    if recs:
        want['prosecutor_max'] = max(1 / s for s in classes.values())
        want['prosecutor_avg'] = len(classes) / recs
        for t in (2, 5, 10):
            want['below_%d' % t] = sum(s for s in classes.values() if s < t) / recs
    got['below_2'], got['below_5'], got['below_10'] = (got['records_in_classes_below'][str(t)] for t in (2, 5, 10))
    for k, v in want.items():
        if abs(got[k] - v) > 1e-12:
            bad.append((k, got[k], v))
    return bad


failures = 0
for seed in range(cases):
    for b in one_case(seed):
        failures += 1
        print(f'case {seed}: {b[0]}: keps {b[1]}, oracle {b[2]}')
print(f'risk oracle: {cases} cases, {failures} mismatches')
sys.exit(1 if failures else 0)
