#!/usr/bin/env bash
# The R package's overhead over the C library (issue 28: under 20% of the C
# run time of OLA k=5 with 5% suppression on Adult): installs bindings/R
# against BUILD_DIR's libkeps into a temporary library, then runs
# bench/r_overhead.R, which prints one JSON object per line.
# Usage: bench/r_overhead.sh [BUILD_DIR] [RUNS]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$SRC/build}" && pwd)
RUNS=${2:-11}
[ -x "$BUILD/bench/bench_ola" ] && [ -x "$BUILD/keps" ] || { echo "r_overhead: build keps and its benchmarks in $BUILD first" >&2; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cp -rL "$SRC/bindings/R" "$T/pkg"
(cd "$T/pkg" && ./cleanup)
KEPS_BUILD_DIR=$BUILD R CMD INSTALL --no-docs --no-multiarch -l "$T" "$T/pkg" >"$T/install.log" 2>&1 ||
  { cat "$T/install.log" >&2; exit 1; }
R_LIBS=$T Rscript "$SRC/bench/r_overhead.R" "$BUILD" "$RUNS"
