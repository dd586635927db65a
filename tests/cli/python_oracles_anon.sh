#!/usr/bin/env bash
# keps against independent oracles in Python (tests/oracles/), the longer
# half (see python_oracles.sh for the rest):
#   check_mondrian.py  strict Mondrian on Adult (8 QIs, categorical and
#                      numeric age, k = 2..100): every row's labels, NCP, DM
#   check_kepsilon.py  kepsilon: 50 cases over the partitions, scales, noisy
#                      columns, c-confident suppression (every figure)
#   check_ola.py       OLA on 60 random tables, hierarchies and quality
#                      models (metric, gs-factor, monotonic, aggregate,
#                      weights): the chosen node against an exhaustive scan,
#                      score and every metric recomputed (metrics_oracle.py)
#   check_safela.py    safela: 27 runs on 3,000 Adult rows (every node's
#                      score, the mechanism's probabilities, delta, the
#                      release cell by cell, the counts) and a chi-square of
#                      the chosen node over 400 seeds (safela_oracle.py)
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/oracles.bash"
run_oracles mondrian kepsilon ola safela
finish python_oracles_anon.sh
