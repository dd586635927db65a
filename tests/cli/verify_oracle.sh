#!/usr/bin/env bash
# keps verify against an independent oracle (tests/verify_oracle.py): 400
# random small releases, every figure (smallest class, distinct and entropy
# l, max EMD equal and ordered), every verdict and the exit code.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "python3 missing (scripts/setup.sh installs it)"; exit 1; }
python3 "$src/tests/verify_oracle.py" "$keps" "$d" 400 >"$d/log"; rc=$?
tail -n 5 "$d/log"
t "verify agrees with the oracle on every case" "[ $rc -eq 0 ]"
finish verify_oracle.sh
