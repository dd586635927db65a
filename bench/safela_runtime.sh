#!/bin/bash
# Run time of the all-node evaluation of epsilon-safe LA with and without
# level interpolation (thesis Table 5.3): Adult with its first 4, 6, 8 and 9
# QIs (k = 75 over a beta = 0.7 sample), 1 and 2 threads, best of REPS (wall
# time, and the process CPU time of that run); with
# a cup directory also cup's 45,000-node lattice.
# Usage: bench/safela_runtime.sh BUILD_DIR [OUT.csv] [CUP_DIR] [REPS]
set -euo pipefail
BUILD=${1:-build}; OUT=${2:-safela_runtime.csv}; CUP=${3:-}; REPS=${4:-5}
echo "data,qis,nodes,evaluated,interpolate,threads,best_ms,cpu_ms" > "$OUT"
to_csv() {
  python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["bench"] == "safela_score":
        print("%s,%d,%d,%d,%s,%d,%.1f,%.1f" % (r["data"], r["qis"], r["nodes"], r["evaluated"], r["interpolate"],
              r["threads"], r["best_ms"], r["cpu_ms"]))'
}
for q in 4 6 8 9; do "$BUILD/bench/bench_safela" adult $q "$REPS" | to_csv >> "$OUT"; done
if [ -n "$CUP" ]; then "$BUILD/bench/bench_safela" cup "$CUP" 2 | to_csv >> "$OUT"; fi
echo "wrote $OUT" >&2
