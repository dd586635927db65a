#!/usr/bin/env bash
# Holohan et al. 2017 Figs 3-6 on Adult + synthetic height: ARE, linking
# risk, 99%-confident suppression for OLA and Mondrian, k in
# {2,5,10,20,50,100}, eps in {0.05,0.5,1,2,4,8,16}, 30 runs each, seed 2017.
# Usage: bench/exp_kepsilon.sh [BUILD_DIR] [RUNS] [SEED]
#   -> bench/out/kepsilon_ola.csv, bench/out/kepsilon_mondrian.csv
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-30}
seed=${3:-2017}
cmake --build "$build" --target exp_kepsilon -j2 >/dev/null
mkdir -p bench/out
for a in ola mondrian; do
  "$build/bench/exp_kepsilon" "$a" data/adult/adult_height.csv data/adult "$runs" "$seed" > "bench/out/kepsilon_$a.csv"
  echo "wrote bench/out/kepsilon_$a.csv ($runs runs, seed $seed)"
done
