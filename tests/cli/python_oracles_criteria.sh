#!/usr/bin/env bash
# keps against independent oracles in Python (tests/oracles/), the privacy
# criteria (its own script: the other oracle scripts use most of their time):
#   check_criteria.py  the lattice search under privacy criteria on 300
#                      random tables (every criterion, research subsets,
#                      suppression, non-monotone criteria, every metric):
#                      the node against an exhaustive scan
#                      (criteria_oracle.py, metrics_oracle.py)
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/oracles.bash"
run_oracles criteria
finish python_oracles_criteria.sh
