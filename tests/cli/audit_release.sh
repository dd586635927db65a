#!/bin/bash
# keps audit --neighbours: the end-to-end auditor on every DP command, with
# designed neighbouring pairs (the four leaks of issue 25 among them). The
# keps under test must pass each audit against the guarantee its report
# states; a false claim and the old releases (tests/audit/old_keps.py, an
# emulation of commit bbe32af) must be flagged. Seeds are fixed, so each
# verdict is deterministic. Runs per input: 300 (60 under the sanitizers).
. "$(dirname "$0")/lib.bash"
H=$src/data/adult
runs=300
[ -n "${KEPS_SANITIZED:-}" ] && runs=60
audit() { "$keps" audit --runs "$runs" --seed 7 "$@" >"$d/out" 2>"$d/err"; }
verdict() { grep -E 'VIOLATION|no violation' "$d/out" | head -1; }

# ---- the designed pairs (tests/audit/pairs.sh) ----------------------------
. "$src/tests/audit/pairs.sh"
audit_pairs "$d"
Q="--qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv"

# ---- the keps under test passes, against its own reports' claims -------
check() { # NAME PAIR_A PAIR_B COMMAND...
  local name=$1 a=$2 b=$3; shift 3
  audit --neighbours "$d/$a" "$d/$b" -- "$@"; rc=$?
  t "$name: no violation (exit $rc, $(verdict); $(head -c 300 "$d/err"))" "[ $rc -eq 0 ]"
}
check "dpmicro multivariate (leak 1's pair, rows shuffled)" d1.csv d2.csv dpmicro --qi x -k 2 --epsilon 1 --bounds x=0:1
check "dpmicro univariate --unlink-columns" u1.csv u2.csv dpmicro --mode univariate --unlink-columns --qi x --qi y \
  -k 2 --epsilon 2 --bounds x=0:1 --bounds y=0:1
check "dpmicro k = 1 --keep-order" d1.csv d2.csv dpmicro --qi x -k 1 --epsilon 1 --bounds x=0:1 --keep-order
check "safela (leak 2's pair: suppressed rows removed)" s1.csv s2.csv safela $Q -k 40 --beta 0.5
check "safela (leak 3's pair: c in the class key)" r1.csv r2.csv safela $Q --sensitive c -k 40 --beta 0.5
check "rr ldp --domain (leak 4's pair)" q1.csv q2.csv rr --mechanism ldp --sensitive s --epsilon 1 --domain s=A,B,Z
check "rr both --domain" q1.csv q2.csv rr --mechanism both --pt 0.5 --epsilon 1 --sensitive s --domain s=A,B,Z
check "noise laplace -i" n1.csv n2.csv noise --mechanism laplace --epsilon 1 --sensitivity 1
check "noise geometric -i" n1.csv n2.csv noise --mechanism geometric --epsilon 1 --sensitivity 1
# RR-t states multiplicative t-closeness (its epsilon is its matrix's, data-dependent): audited against
# that epsilon on a pair that only moves one record between two common values
eps=$("$keps" rr --mechanism tclose --pt 0.5 -i "$d/t1.csv" -o /dev/null --sensitive s --domain s=A,B --json --quiet \
  2>/dev/null | grep -o '"epsilon":[0-9.e+-]*' | head -1 | cut -d: -f2)
audit --neighbours "$d/t1.csv" "$d/t2.csv" -- rr --mechanism tclose --pt 0.5 --sensitive s --domain s=A,B; rc=$?
t "rr tclose: no DP claim in its report, the audit asks for one (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'give the claim to test with --epsilon' $d/err"
audit --neighbours "$d/t1.csv" "$d/t2.csv" --epsilon "$eps" -- rr --mechanism tclose --pt 0.5 --sensitive s --domain s=A,B
t "rr tclose with --epsilon $eps: no violation ($(verdict))" "[ $? -eq 0 ]"

# ---- what the keps under test still leaks is labelled, and the audit says so
# rr without --domain: the categories come from the data (data-dependent model); 'Z' shows up for D only
audit --neighbours "$d/q1.csv" "$d/q2.csv" -- rr --mechanism ldp --sensitive s --epsilon 1; rc=$?
t "rr without --domain: flagged (exit $rc)" "[ $rc -eq 1 ] && grep -q 'claim: epsilon-LDP (data-dependent)' $d/out"
t "rr without --domain: 'Z' held on one input only, listed" \
  "grep -q 'EVENTS THAT HELD ON ONE INPUT ONLY' $d/out && grep -q \"column 's' holds 'Z'\" $d/out"
# dpmicro --keep-order with k > 1 is refused by the command: the audit cannot run it (exit 2, its message);
# seeded runs (tests) take it but state no DP, and audited against epsilon 1 the leak shows
"$keps" audit --runs 20 --neighbours "$d/d1.csv" "$d/d2.csv" -- dpmicro --qi x -k 2 --epsilon 1 --bounds x=0:1 \
  --keep-order >"$d/out" 2>"$d/err"; rc=$?
t "dpmicro --keep-order -k 2: the run is refused (exit $rc)" "[ $rc -eq 2 ] && grep -q 'keep-order with -k 2 would release' $d/err"
audit --neighbours "$d/d1.csv" "$d/d2.csv" -- dpmicro --qi x -k 2 --epsilon 1 --bounds x=0:1 --keep-order; rc=$?
t "dpmicro --keep-order -k 2, seeded: no DP stated (exit $rc)" "[ $rc -eq 2 ] && grep -q \"state 'heuristic, not DP'\" $d/err"
audit --neighbours "$d/d1.csv" "$d/d2.csv" --epsilon 1 -- dpmicro --qi x -k 2 --epsilon 1 --bounds x=0:1 --keep-order
t "dpmicro --keep-order -k 2, seeded, against epsilon 1: flagged ($(verdict))" \
  "grep -q '^VIOLATION' $d/out && grep -q \"equal rows among rows 1-4 is '0 0 1 1'\" $d/out"
# a false claim is caught: Laplace at epsilon 1 audited as epsilon 0.3 (300 runs even under the
# sanitizers: 60 lack the power, and noise runs are quick)
"$keps" audit --runs 300 --seed 7 --neighbours "$d/n1.csv" "$d/n2.csv" --epsilon 0.3 -- noise --mechanism laplace \
  --epsilon 1 --sensitivity 1 >"$d/out" 2>"$d/err"
t "noise laplace epsilon 1 against a claim of 0.3: flagged (exit $?)" "grep -q '^VIOLATION' $d/out"

# ---- the old releases are flagged: the emulation of commit bbe32af -------
# (one leak by the CLI path, --binary and the old report; all four are in
# tests/test_audit_release.c, in memory)
if command -v python3 >/dev/null; then
  "$keps" audit --runs 60 --seed 7 --json --binary "$src/tests/audit/old_keps.py" --neighbours "$d/q1.csv" "$d/q2.csv" \
    -- rr --mechanism ldp --sensitive s --epsilon 1 >"$d/old.json" 2>"$d/err"; rc=$?
  t "old rr (domain from the data): flagged, exit $rc" "[ $rc -eq 1 ] && grep -q '\"violation\":true' $d/old.json"
  t "old rr: one-sided events reported" "grep -q '\"one_sided_significant\":[1-9]' $d/old.json"
fi

# ---- usage ---------------------------------------------------------------
"$keps" audit --neighbours "$d/d1.csv" "$d/d2.csv" -- dpmicro --qi x -k 2 -i "$d/d1.csv" >/dev/null 2>"$d/err"
t "-i after '--': exit 2" "[ $? -eq 2 ] && grep -q \"the auditor gives every run its own -i\" $d/err"
"$keps" audit --neighbours "$d/d1.csv" -- dpmicro --qi x >/dev/null 2>"$d/err"
t "one file: exit 2" "[ $? -eq 2 ] && grep -q 'takes two files' $d/err"
"$keps" audit --neighbours "$d/d1.csv" "$d/d2.csv" >/dev/null 2>"$d/err"
t "no command: exit 2" "[ $? -eq 2 ] && grep -q \"name the command to audit after '--'\" $d/err"
"$keps" audit --mechanism laplace --neighbours "$d/d1.csv" "$d/d2.csv" -- noise >/dev/null 2>"$d/err"
t "--mechanism with --neighbours: exit 2" "[ $? -eq 2 ] && grep -q 'belongs to the audit of one --mechanism' $d/err"
"$keps" audit --mechanism laplace --runs 10 >/dev/null 2>"$d/err"
t "--runs without --neighbours: exit 2" "[ $? -eq 2 ] && grep -q 'belongs to the end-to-end audit' $d/err"
finish audit_release.sh
