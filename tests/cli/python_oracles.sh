#!/usr/bin/env bash
# keps against independent oracles in Python (tests/oracles/, standard
# library only, each written from docs/spec.md and the commands' help, not from
# keps's code); the slower ones are in python_oracles_anon.sh.
#   verify_oracle.py  400 random releases: smallest class, distinct and
#                     entropy l, equal and ordered EMD, verdicts, exit code
#   risk_oracle.py    400 tie-rich releases: record linkage both ways in
#                     exact rationals, prosecutor figures
#   check_mdav.py     MDAV and insensitive MDAV on CASC (13 and 4 columns,
#                     k = 2..100): groups, centroids, SSE
#   check_dpmicro.py  dpmicro both modes on CASC: clusters, scales, noise
#                     with the seed's draws, clamping, SSE, RL
#   check_rr_calc.py  privacy rr-epsilon / rr-t and inverses, from the
#                     transition matrices in exact fractions
#   check_implies.py  privacy implies (Theorems 2-4), refusals included
#   check_rr.py       rr releases (80 cases): keep probabilities, closed and
#                     verified levels in exact fractions, the release, and
#                     chi-square tests of the randomization (rr_oracle.py)
#   check_evaluate.py evaluate (42 cases): every per-attribute figure, and the
#                     classifier by its own Newton-fitted logistic regression
#                     (accuracies, baseline, features), errors and exit codes
#   hierarchy_oracle.py  400 random hierarchy builds (interval with bottom/top
#                     coding in exact decimals, mask, order, ISO dates, coding
#                     alone), every row, and refused dates at FILE:LINE:COL
#   check_digits.py   output precision of kepsilon, dpmicro and MDAV against
#                     Python's decimal module, metrics of the written values,
#                     the decimal comma and kepsilon --clamp
#   check_report_sections.py  the sections the HTML report draws: OLA's
#                     lattice node by node (whole and as its frontier), risk
#                     before and after, distributions, suppressed values
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/oracles.bash"
run_oracles verify risk mdav dpmicro rr_calc implies rr evaluate hierarchy digits report_sections
finish python_oracles.sh
