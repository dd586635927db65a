#!/usr/bin/env bash
# Soria-Comas et al. 2013 Figs 1-2 on CASC: SSE and RL for keps dpmicro
# (multivariate, univariate), the paper's accounting, and MDAV / insensitive
# MDAV without noise. 10 runs per noisy point, seed 2014.
# Usage: bench/exp_dpmicro.sh [BUILD_DIR] [RUNS] [SEED]  -> bench/out/dpmicro_casc.csv
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-10}
seed=${3:-2014}
cmake --build "$build" --target exp_dpmicro -j2 >/dev/null
mkdir -p bench/out
"$build/bench/exp_dpmicro" data/casc/casc.csv "$runs" "$seed" > bench/out/dpmicro_casc.csv
echo "wrote bench/out/dpmicro_casc.csv ($runs runs, seed $seed)"
