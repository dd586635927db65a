#!/usr/bin/env bash
# keps risk against an independent oracle in exact rational arithmetic
# (tests/risk_oracle.py): 400 random releases of group means (exact ties
# everywhere), record linkage in both directions, prosecutor risk figures.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "python3 missing (scripts/setup.sh installs it)"; exit 1; }
python3 "$src/tests/risk_oracle.py" "$keps" "$d" 400 >"$d/log"; rc=$?
tail -n 5 "$d/log"
t "risk agrees with the oracle on every case" "[ $rc -eq 0 ]"
finish risk_oracle.sh
