#!/bin/sh
# Regenerates the utility comparison of Ekenstedt et al. 2022
# Figures 6 and 7, as CSV (docs/experiments.md, "Randomized response").
# usage: bench/rr_utility.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, bench/results)
# Deterministic: no randomness is involved (utilities and levels are computed
# exactly from the transition matrices).
set -euo pipefail
build=${1:-build}
out=${2:-bench/results}
cmake --build "$build" --target bench_rr_utility -j2 >/dev/null
mkdir -p "$out"
"$build/bench/bench_rr_utility" fig7 --csv >"$out/rr_fig7.csv"
"$build/bench/bench_rr_utility" fig6 --csv >"$out/rr_fig6.csv"
echo "wrote $out/rr_fig7.csv $out/rr_fig6.csv"
