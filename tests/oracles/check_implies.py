"""keps privacy implies (docs/spec.md 7, Ekenstedt et al. 2022 Theorems 2-4, with the corrected
Theorem 3) against calc_oracle.py, including a brute force of Theorem 3's
worst case and the refusals that name a theorem. KEPS: the binary
(environment)."""
import json, math, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calc_oracle import *
KEPS = os.environ['KEPS']
def keps(args):
    p = subprocess.run([KEPS, 'privacy', 'implies'] + args + ['--json'], capture_output=True, text=True)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else p.stderr.strip())
bad = 0
def chk(desc, args, want, want_k=None):
    global bad
    rc, r = keps(args)
    if isinstance(want, str):  # expected refusal naming a theorem
        ok = rc == 1 and want in r
        print(f"{desc}: rc {rc} {'OK' if ok else 'MISMATCH'} :: {r if rc else r['result']}"[:300])
    else:
        got = r['result'] if rc == 0 else None
        ok = rc == 0 and abs(got - want) <= 1e-12 * max(1, abs(want)) and (want_k is None or r.get('to_k') == want_k)
        print(f"{desc}: keps {got} (k {r.get('to_k') if rc == 0 else '-'}) oracle {want:.15g} (k {want_k}) rule {r.get('rule') if rc == 0 else r} {'OK' if ok else 'MISMATCH'}")
    bad += not ok
N = 100
# brute-force check of the corrected Theorem 3 (worst case over records at q or e^eps q) vs printed
print("== Theorem 3 worst case (brute force over extreme configurations) vs corrected and printed forms")
for eps in [0.1, 0.7191, 1.0, 3.0]:
    for k in [1, 2, 5, 50, 99]:
        bf = worst_kt_under_ldp(eps, k, N)
        print(f"eps={eps} k={k}: brute {bf:.12g} corrected {thm3_attained(eps,k,N):.12g} printed {thm3_printed(eps,k,N):.12g} thm2(k=1) {thm2_ldp_to_1t(eps,N):.12g}")
print("== paper example: t0=2, N=100, k=5 -> eps_t 'results in 0.7'")
print("  corrected: ln(195/95) =", math.log(195/95), " printed: ln(195/94) =", math.log(195/94))
print("== implications: every from/to pair")
e = 0.7
chk("ldp->ldp", ['--from', 'ldp', '--epsilon', str(e), '--to', 'ldp'], e)
chk("ldp->kt k=1 (Thm 2)", ['--from', 'ldp', '--epsilon', str(e), '--to', 'kt', '-k', '1', '--records', str(N)], thm2_ldp_to_1t(e, N), 1)
chk("ldp->kt k=5 (Thm 3 corrected)", ['--from', 'ldp', '--epsilon', str(e), '--to', 'kt', '-k', '5', '--records', str(N)], thm3_attained(e, 5, N), 5)
chk("ldp->kt k=99", ['--from', 'ldp', '--epsilon', str(e), '--to', 'kt', '-k', '99', '--records', str(N)], thm3_attained(e, 99, N), 99)
chk("ldp->tclose k=5 (Lemma 1)", ['--from', 'ldp', '--epsilon', str(e), '--to', 'tclose', '-k', '5', '--records', str(N)], thm3_attained(e, 5, N), 5)
chk("ldp->kdp k=3 N=10 (Thm3+4.1)", ['--from', 'ldp', '--epsilon', str(math.log(2)), '--to', 'kdp', '-k', '3', '--records', '10'], math.log(1.3), 3)
chk("ldp->kdp k=1 N=100", ['--from', 'ldp', '--epsilon', '1', '--to', 'kdp', '-k', '1', '--records', str(N)], math.log(thm3_attained(1, 99, N)), 1)
chk("ldp eps=0 ->kt", ['--from', 'ldp', '--epsilon', '0', '--to', 'kt', '-k', '5', '--records', str(N)], 1.0, 5)
chk("kt k=1 t=2 ->ldp (Thm 2)", ['--from', 'kt', '-k', '1', '--t', '2', '--to', 'ldp'], math.log(4))
chk("kt k=1 t=1 ->ldp", ['--from', 'kt', '-k', '1', '--t', '1', '--to', 'ldp'], 0.0)
chk("kt k=2 ->ldp (Thm 3 / Table VI)", ['--from', 'kt', '-k', '2', '--t', '2', '--to', 'ldp', '--records', str(N)], 'Theorem 3')
chk("kt k=5 ->kdp (Thm 4.1)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'kdp', '--records', str(N)], math.log(2), 95)
chk("kt k=5 ->kdp to-k 90 (Thm 4.1 + Lemma 3.1)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'kdp', '--to-k', '90', '--records', str(N)], math.log(2), 90)
chk("kt k=5 ->kdp to-k 96 (Thm 4.2)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'kdp', '--to-k', '96', '--records', str(N)], 'Theorem 4.2')
chk("kt k=5 ->kt to-k 8 (Lemma 2.1)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'kt', '--to-k', '8'], 2.0, 8)
chk("kt k=5 ->kt to-k 4 (Lemma 2.2)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'kt', '--to-k', '4'], 'Lemma 2.2')
chk("kt k=5 ->tclose (Lemma 2.3)", ['--from', 'kt', '-k', '5', '--t', '2', '--to', 'tclose'], 2.0, 5)
chk("tclose ->ldp (Thm 1)", ['--from', 'tclose', '-k', '5', '--t', '2', '--to', 'ldp'], 'Theorem 1')
chk("tclose ->kt (Lemma 2.3)", ['--from', 'tclose', '-k', '5', '--t', '2', '--to', 'kt', '--records', str(N)], 'Lemma 2.3')
chk("tclose ->kdp (Thm 5)", ['--from', 'tclose', '-k', '5', '--t', '2', '--to', 'kdp', '--records', str(N)], 'Theorem 5')
chk("tclose ->tclose", ['--from', 'tclose', '-k', '5', '--t', '2', '--to', 'tclose'], 2.0, 5)
chk("kdp k=95 ->kt (Thm 4.1)", ['--from', 'kdp', '-k', '95', '--epsilon', str(math.log(2)), '--to', 'kt', '--records', str(N)], 2.0, 5)
chk("kdp k=99 ->ldp (Thm 4.1 + Thm 2)", ['--from', 'kdp', '-k', '99', '--epsilon', '0.5', '--to', 'ldp', '--records', str(N)], 1.0)
chk("kdp k=95 ->ldp (Thm 4.1 + Thm 3)", ['--from', 'kdp', '-k', '95', '--epsilon', '0.5', '--to', 'ldp', '--records', str(N)], 'Theorem 3')
chk("kdp k=1 ->kdp to-k 1", ['--from', 'kdp', '-k', '1', '--epsilon', '0.5', '--to', 'kdp', '--records', str(N)], 0.5, 1)
chk("kdp k=5 ->kdp to-k 6 (Lemma 3.2)", ['--from', 'kdp', '-k', '5', '--epsilon', '0.5', '--to', 'kdp', '--to-k', '6', '--records', str(N)], 'Lemma 3.2')
chk("kdp k=5 ->kdp to-k 3 (Lemma 3.1)", ['--from', 'kdp', '-k', '5', '--epsilon', '0.5', '--to', 'kdp', '--to-k', '3', '--records', str(N)], 0.5, 3)
chk("kdp k=1 ->tclose (Thm4.1 + Lemma 2.3)", ['--from', 'kdp', '-k', '1', '--epsilon', '0.5', '--to', 'tclose', '--records', str(N)], math.exp(0.5), 99)
# N = 1 or 2 edge cases
chk("ldp->kt N=2 k=1", ['--from', 'ldp', '--epsilon', '1', '--to', 'kt', '-k', '1', '--records', '2'], (1 + math.e) / 2, 1)
rc, r = keps(['--from', 'ldp', '--epsilon', '1', '--to', 'kt', '-k', '1', '--records', '1']); print("ldp->kt N=1: rc", rc, r[:160] if rc else r)
rc, r = keps(['--from', 'ldp', '--epsilon', '1', '--to', 'kt', '-k', '5', '--records', '5']); print("ldp->kt k=N: rc", rc, r[:160] if rc else r)
rc, r = keps(['--from', 'ldp', '--epsilon', '1', '--to', 'kt', '-k', '5']); print("ldp->kt no N: rc", rc, r[:160] if rc else r)
print("bad", bad)
sys.exit(1 if bad else 0)
