#!/bin/bash
# The delta table of Li's thesis (2019, Tables 5.1 and 5.5): d(k, beta,
# -ln(1-beta)) for k = 55..85 and beta = 0.60..0.80, next to the thesis's
# printed values (Table 5.1 in units of 1e-5, k 55..80; Table 5.5 in 1e-6,
# k 75..85; where both print a cell they agree).
# Usage: bench/safela_delta_table.sh BUILD_DIR [OUT.csv]
set -euo pipefail
BUILD=${1:-build}; OUT=${2:-safela_delta_table.csv}
declare -A THESIS=(
  [55,0.60]=1.59e-5 [55,0.65]=2.40e-5 [55,0.70]=5.00e-5 [55,0.75]=9.72e-5 [55,0.80]=34.4e-5
  [60,0.60]=0.71e-5 [60,0.65]=1.29e-5 [60,0.70]=3.30e-5 [60,0.75]=9.72e-5 [60,0.80]=13.2e-5
  [65,0.60]=0.32e-5 [65,0.65]=0.80e-5 [65,0.70]=1.12e-5 [65,0.75]=3.09e-5 [65,0.80]=6.73e-5
  [70,0.60]=0.14e-5 [70,0.65]=0.26e-5 [70,0.70]=0.74e-5 [70,0.75]=1.23e-5 [70,0.80]=6.73e-5
  [75,0.60]=0.64e-6 [75,0.65]=1.05e-6 [75,0.70]=2.53e-6 [75,0.75]=12.3e-6 [75,0.80]=38.6e-6
  [80,0.60]=0.29e-6 [80,0.65]=0.65e-6 [80,0.70]=1.68e-6 [80,0.75]=3.93e-6 [80,0.80]=15.1e-6
  [85,0.60]=0.13e-6 [85,0.65]=0.30e-6 [85,0.70]=0.58e-6 [85,0.75]=1.59e-6 [85,0.80]=5.86e-6)
echo "k,beta,gamma,n_min,n_argmax,delta,delta_thesis,ratio" > "$OUT"
for k in 55 60 65 70 75 80 85; do
  for b in 0.60 0.65 0.70 0.75 0.80; do
    js=$("$BUILD/keps" privacy delta -k $k --beta $b --json)
    python3 - "$js" "$k" "$b" "${THESIS[$k,$b]}" >> "$OUT" <<'PY'
import json, sys
r = json.loads(sys.argv[1]); t = float(sys.argv[4])
print("%s,%s,%.6g,%d,%d,%.4g,%.3g,%.3f" % (sys.argv[2], sys.argv[3], r["gamma"], r["n_min"], r["n_argmax"],
      r["delta"], t, r["delta"] / t))
PY
  done
done
echo "wrote $OUT" >&2
