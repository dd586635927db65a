#!/usr/bin/env bash
# keps-mpi's per-phase costs (docs/scale.md): runs keps-mpi anonymize on
# FILE at each rank count and prints one JSON line per run with the
# report's mpi section (per-phase wall times, maxima over ranks; bytes sent
# per phase, all ranks; peak RSS of the largest rank) and the whole run's
# wall time. The input is one file cut in byte ranges, the nine Adult QIs,
# k = 5, no suppression (the search itself is the single-machine one).
# Flags after `--` replace that criterion: the first eight QIs, then the
# flags (e.g. -- --sensitive salary-class -k 5 --l-diversity 2 --suppress 0.02).
#   bench/mpi_scale.sh BUILD_DIR FILE NP... [-- FLAGS...] (e.g. build /tmp/adult10m.csv 1 2 4)
set -euo pipefail
build=$1 file=$2
shift 2
nps=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do nps+=("$1"); shift; done
[ $# -gt 0 ] && shift
src=$(cd "$(dirname "$0")/.." && pwd)
H=$src/data/adult/adult_hierarchy
qi=()
cols=(sex age race marital-status education native-country workclass occupation)
[ $# -eq 0 ] && cols+=(salary-class)
for c in "${cols[@]}"; do
  qi+=(--qi "$c:${H}_$c.csv")
done
flags=("$@")
[ $# -eq 0 ] && flags=(-k 5)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for np in "${nps[@]}"; do
  start=$(date +%s.%N)
  mpirun --allow-run-as-root --oversubscribe -np "$np" "$build/keps-mpi" anonymize --algorithm ola -i "$file" \
    -o "$out/part-%r.csv" "${qi[@]}" "${flags[@]}" --report "$out/r.json" --quiet
  end=$(date +%s.%N)
  python3 - "$out/r.json" "$np" "$start" "$end" "$file" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
m = r["mpi"]
print(json.dumps({"file": sys.argv[5], "ranks": int(sys.argv[2]), "rows": r["input_rows"],
                  "wall_s": round(float(sys.argv[4]) - float(sys.argv[3]), 2),
                  "max_rss_mb_per_rank": round(m["max_rss_kb_per_rank"] / 1024),
                  "distinct_tuples": m.get("distinct_tuples"),
                  "phase_ms": {k: round(v) for k, v in m["timing_ms_max_over_ranks"].items()},
                  "bytes_sent": m["bytes_sent"], "transformation": r["transformation"]}))
PY
  rm -f "$out"/part-*.csv
done
