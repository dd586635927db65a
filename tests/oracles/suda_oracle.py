"""Brute-force oracle for the special uniques of `keps risk` (its suda2
figures and the per-record scores of -o), standard library only, written
from the definitions (Elliot et al. 2002, SUDA; sdcMicro's suda2 as its
manual and docs/spec.md describe it), not from keps's code:
  - a minimal sample unique (MSU) of record r is a set S of 1..M attributes
    on which r's values occur in no other record, while on every proper
    subset of S they occur in some other record; every subset of every row
    is tried;
  - SUDA score of r: sum over its MSUs of (m - |S|)!, m = number of QIs;
  - DIS score: U = records unique on all m attributes, P = records in
    classes of exactly 2, f = DIS fraction, Q = 1 + (8 - m)/20, all four and
    dis = U f / (U f + P (1 - f)) and U/dis - U in single precision (as
    sdcMicro's C++); DIS_r = 1/(1 + (U/dis - U)/(score_r^Q * sum_s
    score_s^-Q)) over records with a score, 0 without;
  - attribute contribution: 100 * (sum of the weights of the MSUs holding
    the attribute) / (total score).
Rows whose every QI is '*' are left out. Tables are random and small (1 to
30 rows, 1 to 5 attributes of 1 to 4 values), often with duplicates.
Usage: suda_oracle.py KEPS SCRATCH_DIR [CASES]; exits 1 on any mismatch."""
import csv, itertools, json, math, os, struct, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smalltables import Lcg, close, main  # noqa: E402

keps, scratch = sys.argv[1], sys.argv[2]
cases = int(sys.argv[3]) if len(sys.argv) > 3 else 300


def f32(x):
    """x rounded to single precision (float arithmetic of sdcMicro's C++)."""
    return struct.unpack('f', struct.pack('f', x))[0]



def suda(rows, m, M, frac):
    n = len(rows)
    live = [i for i in range(n) if any(v != '*' for v in rows[i])]
    if not live:  # every row '*': one class of them all (keps risk --help)
        live = list(range(n))

    def count(S, r):
        return sum(1 for i in live if all(rows[i][a] == rows[r][a] for a in S))

    msus = {i: [] for i in live}
    for r in live:
        if len(live) < 2:
            break
        for k in range(1, M + 1):
            for S in itertools.combinations(range(m), k):
                if count(S, r) != 1:
                    continue
                if all(count(T, r) > 1 for T in itertools.combinations(S, k - 1)) if k > 1 else True:
                    msus[r].append(S)
    w = lambda k: math.factorial(m - k)
    score = {r: sum(w(len(S)) for S in msus[r]) for r in live}
    full = {}
    for r in live:
        full[tuple(rows[r])] = full.get(tuple(rows[r]), 0) + 1
    U = sum(1 for c in full.values() if c == 1)
    P = sum(2 for c in full.values() if c == 2)
    f = f32(frac)
    Uf, Pf = f32(U), f32(P)
    dis = f32(f32(Uf * f) / f32(f32(Uf * f) + f32(Pf * f32(1 - f)))) if U else 0.0
    excess = f32(f32(Uf / dis) - Uf) if U else 0.0
    Q = f32(1 + f32(f32(8 - m) / 20))
    adj = 0.0
    for r in range(n):
        if score.get(r, 0):
            adj += 1.0 / score[r] ** Q
    DIS = {r: (1.0 / (1.0 + excess / (score[r] ** Q * adj)) if score[r] else 0.0) for r in live}
    total = sum(score.values())
    contrib = [100 * sum(w(len(S)) for r in live for S in msus[r] if a in S) / total if total else 0
               for a in range(m)]
    per_comb = {}
    for r in live:
        for S in msus[r]:
            per_comb[S] = per_comb.get(S, 0) + 1
    return live, msus, score, DIS, contrib, per_comb, U, P



def one_case(seed):
    g = Lcg(seed, 7)
    n, m = 1 + g.below(30), 1 + g.below(5)
    M = 1 + g.below(m)
    vals = [1 + g.below(4) for _ in range(m)]
    rows = [[str(g.below(vals[a])) for a in range(m)] for _ in range(n)]
    for r in range(n):
        if g.below(12) == 0:
            rows[r] = ['*'] * m
        elif n > 2 and g.below(4) == 0:
            rows[r] = list(rows[g.below(r + 1)])  # duplicates are common
    frac = [0.01, 0.1, 0.5, 1.0][g.below(4)]
    path = os.path.join(scratch, 's.csv')
    with open(path, 'w') as fh:
        fh.write(','.join('q%d' % a for a in range(m)) + '\n')
        fh.writelines(','.join(r) + '\n' for r in rows)
    out = os.path.join(scratch, 'rec.csv')
    args = [keps, 'risk', '-i', path, '--json', '--max-combination', str(M), '--dis-fraction', repr(frac),
            '-o', out] + sum((['--qi', 'q%d' % a] for a in range(m)), [])
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        return [('exit', p.returncode, p.stderr.strip())]
    j = json.loads(p.stdout)['suda2']
    rec = list(csv.DictReader(open(out)))
    live, msus, score, DIS, contrib, per_comb, U, P = suda(rows, m, M, frac)
    bad = []
    for r in range(n):
        got = rec[r]
        if r not in live:
            if got['suda_score'] != '':
                bad.append(('row %d left out' % (r + 1), got['suda_score'], ''))
            continue
        if float(got['suda_score']) != score[r]:
            bad.append(('row %d score' % (r + 1), got['suda_score'], score[r]))
        if int(got['msus']) != len(msus[r]):
            bad.append(('row %d msus' % (r + 1), got['msus'], len(msus[r])))
        if not close(float(got['dis_score']), DIS[r]):
            bad.append(('row %d dis' % (r + 1), got['dis_score'], DIS[r]))
    if j['full_uniques'] != U or j['pair_records'] != P:
        bad.append(('U, P', (j['full_uniques'], j['pair_records']), (U, P)))
    if j['special_uniques'] != sum(1 for r in live if msus[r]):
        bad.append(('special_uniques', j['special_uniques'], sum(1 for r in live if msus[r])))
    for k in range(1, M + 1):
        want = sum(1 for r in live for S in msus[r] if len(S) == k)
        if j['msus'][str(k)] != want:
            bad.append(('msus of size %d' % k, j['msus'][str(k)], want))
    for a in range(m):
        if not close(j['attribute_contributions']['q%d' % a], contrib[a], 1e-9):
            bad.append(('contribution q%d' % a, j['attribute_contributions']['q%d' % a], contrib[a]))
    for c in json.loads(p.stdout)['attributes']:
        S = tuple(int(q[1:]) for q in c['qis'])
        if c['msus'] != per_comb.get(S, 0):
            bad.append(('msus of %s' % (c['qis'],), c['msus'], per_comb.get(S, 0)))
    return bad


main('suda oracle', one_case, cases)
