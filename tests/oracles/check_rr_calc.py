"""keps privacy rr-epsilon / rr-t and their inverses against calc_oracle.py
(levels from the definitions on the transition matrices, exact Fractions).
JSON cannot carry infinity: keps writes null for an infinite level (p = 1),
read here as inf. KEPS: the binary (environment)."""
from sizing import cases  # fewer cases under the sanitizers
import json, math, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calc_oracle import *
from fractions import Fraction as F
KEPS = os.environ['KEPS']
def keps(args):
    p = subprocess.run([KEPS, 'privacy'] + args + ['--json'], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else p.stderr.strip())
def close(a, b, tol=1e-12):
    if a is None:  # keps's JSON null: an infinite level
        a = math.inf
    if a == math.inf or b == math.inf or b is None: return a == b
    return abs(a - b) <= tol * max(1, abs(b))
bad = 0
print("== rr-epsilon: keps vs eps of the Fig. 4 matrix (exact) vs printed eq.(1) with n for N")
for n in cases([1, 2, 3, 4, 6, 10, 512], 2):
    for p in ['0', '0.1', '0.25', '0.5', '0.6', '0.9', '0.999', '1']:
        M = ldp_matrix(n, F(p))
        o = matrix_eps(M)
        rc, r = keps(['rr-epsilon', '-p', p, '-n', str(n)])
        g = r['result'] if rc == 0 else ('rc%d' % rc)
        ok = rc == 0 and close(g, o)
        bad += not ok
        pr = math.log(1 + float(p) / (n * (1 - float(p)))) if float(p) < 1 else math.inf
        if not ok or n in (1, 2, 4):
            print(f"n={n} p={p}: oracle {o:.12g} keps {g} printed-eq1 {pr:.6g} {'OK' if ok else 'MISMATCH'}")
print("== rr-epsilon inverse (--epsilon -> largest p): p from oracle eps must be <= eps, next p up must exceed")
for n in [1, 2, 5]:
    for e in ['0', '0.1', '0.7191', '1', '5', '40', '800']:
        rc, r = keps(['rr-epsilon', '--epsilon', e, '-n', str(n)])
        p = r['result']
        ow = (math.expm1(float(e)) / (math.expm1(float(e)) + n)) if n > 1 and float(e) < 700 else 1.0
        ok = rc == 0 and abs(p - ow) <= 1e-15 + 4e-16 * ow or (n > 1 and float(e) >= 38 and p == 1 - 2**-53)
        bad += not ok
        print(f"n={n} eps={e}: keps p {p!r} closed form {ow!r} {'OK' if ok else 'CHECK'}")
print("== rr-t: keps vs Def. 4 on single-value classes of the Fig. 5 matrix (exact)")
for freq in [[F(1,4), F(3,4)], [F(1,2), F(1,2)], [F(1,5), F(3,10), F(1,2)], [F(1)], [F(1,4)]*4, [F(0), F(1,3), F(2,3)], [F(1,100), F(99,100)]]:
    for pt in ['0', '0.2', '0.5', '0.9', '1']:
        M = t_matrix(freq, F(pt))
        o = mult_t_single_value_classes(M, freq)
        o = float(o) if o != math.inf else o
        rc, r = keps(['rr-t', '--pt', pt, '--frequencies', ','.join(str(float(x)) for x in freq)])
        g = r['result'] if rc == 0 else ('rc%d' % rc)
        ok = rc == 0 and close(g, o)
        bad += not ok
        print(f"f={[str(x) for x in freq]} pt={pt}: oracle {o} keps {g} {'OK' if ok else 'MISMATCH'}")
print("== rr-t inverse: --t T -> largest p_t: its level <= T and (p_t + 1e-9) level > T")
for freq in [[F(1,4), F(3,4)], [F(1,2), F(1,2)], [F(1,5), F(3,10), F(1,2)]]:
    for t in ['1', '1.5', '2', '2.5', '10']:
        rc, r = keps(['rr-t', '--t', t, '--frequencies', ','.join(str(float(x)) for x in freq)])
        pt = r['result']
        lvl = float(mult_t_single_value_classes(t_matrix(freq, F(pt)), freq))
        up = mult_t_single_value_classes(t_matrix(freq, min(F(1), F(pt) + F(1, 10**9))), freq)
        ok = lvl <= float(t) * (1 + 1e-15) and (up > F(t) or pt == 1.0)
        bad += not ok
        print(f"f={[str(x) for x in freq]} t={t}: keps p_t {pt:.12g} level {lvl:.12g} {'OK' if ok else 'CHECK'}")
print("bad", bad)
sys.exit(1 if bad else 0)
