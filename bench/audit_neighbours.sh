#!/bin/bash
# Throughput of the end-to-end auditor (keps audit --neighbours) on the four
# designed pairs of issue 25 with the keps under test: wall time per audit
# of RUNS runs per input, J at a time. Prints CSV:
# case,runs_per_input,jobs,seconds,runs_per_second,events,verdict
# Usage: bench/audit_neighbours.sh BUILD_DIR [RUNS] [JOBS]
set -euo pipefail
BUILD=${1:-build}; RUNS=${2:-1000}; JOBS=${3:-2}
SRC=$(cd "$(dirname "$0")/.." && pwd)
KEPS=$BUILD/keps
H=$SRC/data/adult
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
. "$SRC/tests/audit/pairs.sh" # the designed pairs of issue 25
audit_pairs "$T"
Q="--qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv"
echo "case,runs_per_input,jobs,seconds,runs_per_second,events,verdict"
one() { # NAME A B ARGS...
  local name=$1 a=$2 b=$3; shift 3
  local t0 t1
  t0=$(date +%s.%N)
  "$KEPS" audit --neighbours "$T/$a" "$T/$b" --runs "$RUNS" -j "$JOBS" --seed 1 --json --quiet -- "$@" >"$T/r.json" 2>/dev/null || true
  t1=$(date +%s.%N)
  python3 - "$T/r.json" "$name" "$RUNS" "$JOBS" "$t0" "$t1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["audit"]
s = float(sys.argv[6]) - float(sys.argv[5])
print("%s,%s,%s,%.2f,%.1f,%d,%s" % (sys.argv[2], sys.argv[3], sys.argv[4], s, 2 * int(sys.argv[3]) / s,
                                    a["events_tested"], "VIOLATION" if a["violation"] else "none"))
PY
}
one dpmicro d1.csv d2.csv dpmicro --qi x -k 2 --epsilon 1 --bounds x=0:1
one safela_star s1.csv s2.csv safela $Q -k 40 --beta 0.5
one safela_raw r1.csv r2.csv safela $Q --sensitive c -k 40 --beta 0.5
one rr_domain q1.csv q2.csv rr --mechanism ldp --sensitive s --epsilon 1 --domain s=A,B,Z
