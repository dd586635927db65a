#!/usr/bin/env bash
# keps against independent oracles in Python (tests/oracles/, standard
# library only, each written from SPEC and the commands' help, not from
# keps's code):
#   verify_oracle.py  400 random releases: smallest class, distinct and
#                     entropy l, equal and ordered EMD, verdicts, exit code
#   risk_oracle.py    400 tie-rich releases: record linkage both ways in
#                     exact rationals, prosecutor figures
#   check_mdav.py     MDAV and insensitive MDAV on CASC (13 and 4 columns,
#                     k = 2..100): groups, centroids, SSE
#   check_mondrian.py strict Mondrian on Adult (8 QIs, categorical and
#                     numeric age, k = 2..100): every row's labels, NCP, DM
#   check_dpmicro.py  dpmicro both modes on CASC: clusters, scales, noise
#                     with the seed's draws, clamping, SSE, RL
#   check_rr_calc.py  privacy rr-epsilon / rr-t and inverses, from the
#                     transition matrices in exact fractions
#   check_implies.py  privacy implies (Theorems 2-4), refusals included
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "python3 missing (scripts/setup.sh installs it)"; exit 1; }
o="$src/tests/oracles"
export KEPS="$keps" KEPS_REPO="$src" TMPDIR="$d"
for oracle in verify risk; do
    mkdir -p "$d/$oracle"
    python3 "$o/${oracle}_oracle.py" "$keps" "$d/$oracle" 400 >"$d/$oracle.log"; rc=$?
    tail -n 3 "$d/$oracle.log"
    t "$oracle agrees with its oracle on every case" "[ $rc -eq 0 ]"
done
for check in mdav mondrian dpmicro rr_calc implies; do
    python3 "$o/check_$check.py" >"$d/$check.log" 2>&1; rc=$?
    grep -v '^OK' "$d/$check.log" | tail -n 5
    t "$check agrees with its oracle on every case" "[ $rc -eq 0 ]"
done
finish python_oracles.sh
