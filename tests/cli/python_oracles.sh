#!/usr/bin/env bash
# keps against independent oracles in Python (standard library only), 400
# random cases each: tests/verify_oracle.py (smallest class, distinct and
# entropy l, equal and ordered EMD, verdicts, exit code) and
# tests/risk_oracle.py (record linkage both ways in exact rationals on
# tie-rich releases, prosecutor figures).
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "python3 missing (scripts/setup.sh installs it)"; exit 1; }
for oracle in verify risk; do
    mkdir -p "$d/$oracle"
    python3 "$src/tests/${oracle}_oracle.py" "$keps" "$d/$oracle" 400 >"$d/$oracle.log"; rc=$?
    tail -n 5 "$d/$oracle.log"
    t "$oracle agrees with its oracle on every case" "[ $rc -eq 0 ]"
done
finish python_oracles.sh
