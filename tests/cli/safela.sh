#!/bin/bash
# keps safela / evaluate end to end on the bundled Adult: report keys of
# docs/cli.md, row accounting, exit codes and no output file on failure.
set -u
KEPS=$1; SRC=$2
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; } # ctest: skipped
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
Q=""
for a in sex age race marital-status; do Q="$Q --qi $a:$SRC/data/adult/adult_hierarchy_$a.csv"; done
"$KEPS" safela -i "$SRC/data/adult/adult.csv" -o "$T/out.csv" $Q --others keep -k 20 --beta 0.7 \
  --epsilon-prime 0.5 --penalty 2 --seed 3 --interpolate level --report "$T/r.json" --quiet 2>/dev/null >/dev/null
rc=$?; [ $rc -eq 0 ] || { echo "safela exit $rc"; fail=1; }
python3 - "$T/r.json" "$T/out.csv" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
for key in ["input_rows", "output_rows", "suppressed_rows", "unsampled_rows", "sample_size", "guarantee",
            "transformation", "metrics", "timing_ms", "good_node_probability"]:
    assert key in r, key
g = r["guarantee"]
assert g["model"] == "(beta,epsilon,delta)-DPS", g
assert abs(g["beta"] - 0.7) < 1e-15
# epsilon = eps' - ln(1 - beta) = 0.5 + ln(10/3)
assert abs(g["epsilon"] - 1.7039728043259361) < 1e-12, g
# delta(k=20, beta=0.7) = P[Bin(23, 0.7) >= 21] (n_min = 21, maximum at n = 23) from an exact
# big-integer oracle (tests/safela_delta_oracle.py style): 0.015689553322099366
assert abs(g["delta"] - 0.015689553322099366) <= 1e-9 * 0.0157, g
assert r["input_rows"] == 30162
assert r["input_rows"] == r["output_rows"] + r.get("removed_rows", 0) + r["unsampled_rows"], r
assert r["sample_size"] == r["input_rows"] - r["unsampled_rows"]
assert 0 <= r["good_node_probability"] <= 1
assert "good_node_probability" in r["metrics"]
assert set(r["transformation"]) == {"sex", "age", "race", "marital-status"}
rows = sum(1 for _ in open(sys.argv[2])) - 1
assert rows == r["output_rows"], (rows, r["output_rows"])
PY
# an explicit epsilon: epsilon - epsilon' = ln 3, so gamma = 1 - (1 - beta)/3 = 5/6 at beta 0.5;
# delta(k = 20) = 7.7193975448608398e-4 from tests/safela_delta_oracle.py (exact rationals)
"$KEPS" safela -i "$SRC/data/adult/adult.csv" -o "$T/out2.csv" $Q --others keep -k 20 --beta 0.5 \
  --epsilon-prime 0.5 --epsilon 1.5986122886681098 --seed 4 --report "$T/r2.json" --quiet 2>/dev/null >/dev/null
rc=$?; [ $rc -eq 0 ] || { echo "safela --epsilon exit $rc"; fail=1; }
python3 - "$T/r2.json" <<'PY' || fail=1
import json, sys
g = json.load(open(sys.argv[1]))["guarantee"]
assert abs(g["epsilon"] - 1.5986122886681098) < 1e-12, g
assert abs(g["delta"] - 7.7193975448608398e-4) <= 1e-9 * 7.72e-4, g
PY
# the release evaluates: accuracy, baseline and per-attribute loss in the report
"$KEPS" evaluate --original "$SRC/data/adult/adult.csv" --release "$T/out.csv" --target salary-class \
  --split 0.2 --seed 1 --hierarchy age:$SRC/data/adult/adult_hierarchy_age.csv --json 2>/dev/null > "$T/e.json"
python3 - "$T/e.json" <<'PY' || fail=1
import json, sys
e = json.load(open(sys.argv[1]))
c = e["classifier"]
assert 0 < c["accuracy"] <= 1 and 0 < c["baseline"] <= 1 and 0 < c["accuracy_original"] <= 1, c
assert c["test_rows"] == round(0.2 * 30162), c
assert "age" in e["attributes"] and "level" in e["attributes"]["age"]
PY
# bad usage: exit 2 and no output file
"$KEPS" safela -i "$SRC/data/adult/adult.csv" -o "$T/bad.csv" $Q --others keep -k 20 --beta 1 --seed 1 \
  2>/dev/null >/dev/null
rc=$?; [ $rc -eq 2 ] || { echo "beta 1: exit $rc, want 2"; fail=1; }
[ ! -e "$T/bad.csv" ] || { echo "output left behind after a failure"; fail=1; }
"$KEPS" safela -i "$SRC/data/adult/adult.csv" -o "$T/bad.csv" $Q --others keep -k 20 --beta 0.7 \
  --interpolate cubic --seed 1 2>/dev/null >/dev/null
rc=$?; [ $rc -eq 2 ] || { echo "--interpolate cubic: exit $rc, want 2"; fail=1; }
"$KEPS" safela -i "$SRC/data/adult/adult.csv" -o "$T/inf.csv" $Q --others keep -k 20 --beta 0.7 --epsilon inf \
  --seed 1 2>/dev/null >/dev/null
rc=$?; [ $rc -eq 2 ] && [ ! -e "$T/inf.csv" ] || { echo "--epsilon inf: exit $rc, want 2 and no output"; fail=1; }
"$KEPS" safela --help | grep -q -- "--penalty" || { echo "help lacks --penalty"; fail=1; }
# four 300-character QI names: the summary still ends with the guarantee
# (a 1,024-byte buffer cut it off after the names)
LQ=() hdr=""
for ch in a b c d; do
  n=$(printf '%300s' '' | tr ' ' $ch)
  LQ+=(--qi "$n:interval=10")
  hdr+="${hdr:+,}$n"
done
awk -v h="$hdr" 'BEGIN { print h; for (r = 0; r < 60; r++) print (20 + r % 37) "," (30 + r % 11) "," (40 + r % 7) "," r }' \
  >"$T/long.csv"
"$KEPS" safela -i "$T/long.csv" -o "$T/long-o.csv" "${LQ[@]}" -k 2 --beta 0.5 --seed 1 2>/dev/null >"$T/sum"
grep -q -- "-DPS over the whole release; 0 rows written" "$T/sum" || { echo "long QI names: no guarantee line: $(tail -c 200 "$T/sum")"; fail=1; }
exit $fail
