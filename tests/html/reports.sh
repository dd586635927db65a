#!/usr/bin/env bash
# Runs the README's examples, each with --report and --html, into OUT:
# OUT/NAME.json (the report), OUT/NAME.html (the page --html wrote) and
# OUT/NAME.report.html (the page `keps report` draws from NAME.json), and
# checks that the two pages are the same file.
#   tests/html/reports.sh KEPS SOURCE_DIR OUT
set -euo pipefail
keps=$(realpath "$1"); src=$2; out=$(realpath "$3")
cd "$src"
run() { # NAME ARGS...
  local name=$1; shift
  local rc=0
  "$keps" "$@" --report - --html "$out/$name.html" >"$out/$name.json" 2>"$out/$name.err" || rc=$?
  if [ "$rc" -eq 1 ]; then
    # A failed check (exit 1) writes no file: one run prints the page on
    # stdout (--html -) and the report as JSON on stderr (--json).
    rc=0
    "$keps" "$@" --json --html - >"$out/$name.html" 2>"$out/$name.err" || rc=$?
    [ "$rc" -eq 1 ] && rc=0
    grep '^{' "$out/$name.err" | tail -n 1 >"$out/$name.json"
  fi
  if [ "$rc" -ne 0 ]; then echo "FAIL: $name exited $rc:"; cat "$out/$name.err"; exit 1; fi
  "$keps" report "$out/$name.json" -o "$out/$name.report.html"
  cmp "$out/$name.html" "$out/$name.report.html" || { echo "FAIL: $name: --html and keps report differ"; exit 1; }
}
a=data/adult; h=$a/adult_hierarchy
# The README's examples that write a report, in its order, as the README
# gives them (outputs into $out; keps hierarchy build and keps split write
# no report).
run anonymize-ola-job --job examples/adult-ola.yml -o "$out/adult-k5.csv"
run anonymize-ola anonymize --algorithm ola -i $a/adult.csv -o "$out/out.csv" -k 10 --suppress 0.05 \
  --qi 'age:interval=5,10,20' --qi sex:${h}_sex.csv --others keep
run anonymize-mondrian --job examples/adult-mondrian.yml -o "$out/mondrian.csv"
run anonymize-mdav --job examples/casc-mdav.yml -o "$out/mdav.csv"
run verify verify -i "$out/out.csv" --qi age --qi sex -k 10 --sensitive salary-class --l-diversity 2 --t-closeness 0.3
run kepsilon kepsilon --algorithm ola -i $a/adult_height.csv -o "$out/ke.csv" -k 10 --suppress 0.05 \
  --epsilon 1 --confidence 0.99 --noisy height --clamp --bounds height=100:250 --others keep \
  --qi age:${h}_age.csv --qi sex:${h}_sex.csv --qi race:${h}_race.csv --qi marital-status:${h}_marital-status.csv
run dpmicro dpmicro --mode multivariate -i data/casc/casc.csv -o "$out/rel.csv" -k 50 --epsilon 1 \
  --qi FICA --qi FEDTAX --qi INTVAL --qi POTHVAL --others drop \
  --bounds FICA=0:10000 --bounds FEDTAX=0:40000 --bounds INTVAL=0:50000 --bounds POTHVAL=0:150000
# Record linkage pairs the release's rows with the original's by position: a
# seeded run keeps the order (dpmicro refuses --keep-order with -k > 1
# otherwise; such a release is not private, and says so).
"$keps" dpmicro --mode multivariate -i data/casc/casc.csv -o "$out/rel-ordered.csv" -k 50 --epsilon 1 \
  --keep-order --seed 1 --qi FICA --qi FEDTAX --qi INTVAL --qi POTHVAL --others drop \
  --bounds FICA=0:10000 --bounds FEDTAX=0:40000 --bounds INTVAL=0:50000 --bounds POTHVAL=0:150000 2>/dev/null
run risk-linkage risk --original data/casc/casc.csv --release "$out/rel-ordered.csv" --columns FICA --columns FEDTAX
run risk risk -i $a/adult.csv --qi sex --qi age --qi race --qi marital-status --qi education \
  --sampling-fraction 0.01 --max-combination 2 -o "$out/record-risks.csv"
"$keps" split -i $a/adult.csv -o "$out/train.csv" --test-output "$out/test.csv" --fraction 0.2 >/dev/null 2>&1
run safela safela -i "$out/train.csv" -o "$out/safela.csv" -k 75 --beta 0.7 --epsilon-prime 0.5 --penalty 2 \
  --qi age:${h}_age.csv --qi education:${h}_education.csv --insensitive salary-class --others drop
run evaluate evaluate --original "$out/train.csv" --release "$out/safela.csv" --test "$out/test.csv" \
  --target salary-class --hierarchy age:${h}_age.csv --hierarchy education:${h}_education.csv
run rr rr --mechanism ldp -i $a/adult.csv -o "$out/rr.csv" --sensitive salary-class --qi sex --qi race \
  --domain 'salary-class=<=50K,>50K' --epsilon 1 --others keep
run privacy-delta privacy delta -k 75 --beta 0.7
run privacy-min-k privacy min-k --delta 1e-6 --beta 0.7
run privacy-rr-epsilon privacy rr-epsilon -p 0.6 -n 4
run privacy-implies privacy implies --from ldp --epsilon 1 --to kt -k 5 --records 100
run noise noise --mechanism laplace --epsilon 1 --sensitivity 1 --value 42 -n 5
run audit audit --mechanism laplace --epsilon 1 --trials 200000
echo "reports.sh: $(ls "$out"/*.report.html | wc -l) reports, each page the same from --html and keps report"
