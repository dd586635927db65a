#!/usr/bin/env bash
# Many columns: time and peak memory of whole CLI runs on W columns x R rows
# (random digits, header c0..cW-1), for W in the list given. Header
# handling, name lookups and per-column structures must stay linear in W.
# usage: bench/wide_columns.sh [KEPS_BINARY] [ROWS] [W...]
#   (default ./build/keps, 50 rows, W = 10000 25000 50000 100000)
# Prints one JSON object per run.
set -euo pipefail
keps=${1:-./build/keps}; rows=${2:-50}; shift $(( $# > 2 ? 2 : $# ))
widths=("$@"); [ ${#widths[@]} -gt 0 ] || widths=(10000 25000 50000 100000)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
for w in "${widths[@]}"; do
  python3 - "$w" "$rows" >"$d/w.csv" <<'PY'
import random, sys
w, rows = int(sys.argv[1]), int(sys.argv[2])
random.seed(3)
print(",".join(f"c{j}" for j in range(w)))
for _ in range(rows):
    print(",".join(str(random.randint(0, 9)) for _ in range(w)))
PY
  for cmd in "verify -i $d/w.csv --qi c0 -k 2" \
             "anonymize --algorithm mondrian -i $d/w.csv -o $d/o.csv --qi c0 -k 2 --others keep" \
             "risk --original $d/w.csv --release $d/w.csv --qi c0"; do
    name=${cmd%% -*}; name=${name// /_}
    python3 - "$keps" "$w" "$rows" "$name" $cmd <<'PY'
import json, resource, subprocess, sys, time
keps, w, rows, name, args = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
t0 = time.monotonic()
rc = subprocess.run([keps] + args + ["--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
wall = time.monotonic() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"bench": "wide_columns", "command": name, "cols": w, "rows": rows, "exit": rc,
                  "wall_s": round(wall, 3), "max_rss_kb": rss}))
PY
  done
done
