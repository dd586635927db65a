#!/bin/bash
# epsilon-safe LA on Adult (Li's thesis, 2019, 5.1.3-5.1.4): k=75, beta=0.7,
# eps'=0.5, penalty f in {0.01,0.02,0.03} (docs/spec.md 6's units: S a share) and in
# {1,2,3} (the thesis's numbers read with S in percent, see
# docs/experiments.md), 10 seeded runs each; f in {1,2,3} once more with
# level interpolation (thesis 5.2.3). Adult is split deterministically:
# every 5th row is the test set (6,032 rows), the rest (24,130) the input.
# The eight attributes other than salary-class are the QIs; salary-class is
# kept as is and is the classifier's target.
# Usage: bench/safela_experiment.sh BUILD_DIR [OUT.csv]   (writes CSV)
set -euo pipefail
BUILD=${1:-build}; OUT=${2:-safela_experiment.csv}
SRC=$(cd "$(dirname "$0")/.." && pwd)
KEPS=$BUILD/keps
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
awk 'NR==1 || (NR-1)%5!=0' "$SRC/data/adult/adult.csv" > "$TMP/train.csv"
awk 'NR==1 || (NR-1)%5==0' "$SRC/data/adult/adult.csv" > "$TMP/test.csv"
QIS="sex age race marital-status education native-country workclass occupation"
Q=""; H=""
for a in $QIS; do
  Q="$Q --qi $a:$SRC/data/adult/adult_hierarchy_$a.csv"
  H="$H --hierarchy $a:$SRC/data/adult/adult_hierarchy_$a.csv"
done
echo "penalty,interpolate,run,node,good_node_probability,chosen_probability,sample_size,suppressed_rows,output_rows,epsilon,delta,accuracy,accuracy_raw,baseline" > "$OUT"
for cfg in 0.01:none 0.02:none 0.03:none 1:none 2:none 3:none 1:level 2:level 3:level; do
  f=${cfg%%:*}; ip=${cfg##*:}
  for run in $(seq 1 10); do
    "$KEPS" safela -i "$TMP/train.csv" -o "$TMP/rel.csv" $Q --insensitive salary-class -k 75 --beta 0.7 \
      --epsilon-prime 0.5 --penalty $f --interpolate $ip --seed $run --remove-suppressed --quiet --report "$TMP/rep.json" 2>/dev/null >/dev/null
    # an empty release (everything suppressed and removed) has no classifier: NA
    "$KEPS" evaluate --original "$TMP/train.csv" --release "$TMP/rel.csv" --test "$TMP/test.csv" \
      --target salary-class $H --json --quiet > "$TMP/ev.json" 2>/dev/null || echo '{}' > "$TMP/ev.json"
    python3 - "$TMP/rep.json" "$TMP/ev.json" "$f,$ip" "$run" >> "$OUT" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); e = json.load(open(sys.argv[2]))
node = "-".join(str(v) for v in r["transformation"].values())
c = e.get("classifier", {})
print(",".join(str(x) for x in [sys.argv[3], sys.argv[4], node, r["good_node_probability"],
      r["mechanism"]["chosen_probability"], r["sample_size"], r["suppressed_rows"], r["output_rows"],
      r["guarantee"]["epsilon"], r["guarantee"]["delta"], c.get("accuracy", "NA"), c.get("accuracy_original", "NA"),
      c.get("baseline", "NA")]))
PY
  done
done
echo "wrote $OUT" >&2
