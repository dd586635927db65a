#!/usr/bin/env bash
# keps kepsilon / keps dpmicro end to end: exit codes, every row accounted
# for, report keys of docs/cli.md, no output file on failure.
set -euo pipefail
KEPS=$1
SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; } # ctest: skipped
num() { python3 -c "import json,sys; d=json.load(open('$1')); print(eval('d'+sys.argv[1]))" "$2"; }

A=$SRC/data/adult/adult_height.csv
# kepsilon, classes given by (sex, race): 10 classes on Adult, k = 100; the
# one below 100 (Female/Other, 87 rows) is suppressed within --suppress 0.01
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/k.csv" --qi sex --qi race --noisy height --others keep \
  -k 100 --suppress 0.01 --epsilon 1 --confidence 0.99 --seed 7 --report "$tmp/k.json" --quiet >/dev/null 2>&1
# ... but not beyond it: 87 > floor(0.002 * 30162) = 60, and 87 / 30162 =
# 0.0028845 rounds up to 0.002885
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/k0.csv" --qi sex --qi race --noisy height --others keep \
  -k 100 --suppress 0.002 --epsilon 1 --seed 7 --quiet >/dev/null 2>"$tmp/k0.err" && fail "given over the limit: exit 0"
[ ! -e "$tmp/k0.csv" ] && grep -q 'leaves 87 rows in classes smaller than 100.*--suppress 0.002885' "$tmp/k0.err" ||
  fail "given over the limit: $(cat "$tmp/k0.err")"
in=$(num "$tmp/k.json" '["input_rows"]'); out=$(num "$tmp/k.json" '["output_rows"]')
rel=$(num "$tmp/k.json" '["released_rows"]')
sup=$(num "$tmp/k.json" '["suppressed_rows"]'); uns=$(num "$tmp/k.json" '["unsampled_rows"]')
[ "$in" = 30162 ] || fail "input_rows $in"
[ $((rel + sup + uns)) = "$in" ] || fail "accounting $rel + $sup + $uns != $in"
# every input row is written (suppressed ones starred): header + 30162 rows
[ "$out" = 30162 ] || fail "output_rows $out should count the starred rows written"
[ "$(wc -l < "$tmp/k.csv")" = 30163 ] || fail "rows written"
# starred rows = suppressed rows (the QIs and height of a suppressed row are '*')
stars=$(awk -F';' 'NR > 1 && $10 == "*"' "$tmp/k.csv" | wc -l)
[ "$stars" = "$sup" ] || fail "starred rows $stars != suppressed $sup"
for key in '["metrics"]["expected_are"]' '["metrics"]["measured_are"]' '["metrics"]["linking_risk"]' \
           '["metrics"]["confident_suppressed_rows"]' '["noise_scale"]["height"]' '["guarantee"]["k"]'; do
  num "$tmp/k.json" "$key" >/dev/null || fail "missing $key"
done
[ "$(num "$tmp/k.json" '["guarantee"]["model"]')" = "(k,epsilon)-anonymity" ] || fail model
# --remove-suppressed writes output_rows rows only
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/k2.csv" --qi sex --qi race --noisy height --others keep \
  -k 100 --suppress 0.01 --epsilon 1 --confidence 0.99 --seed 7 --remove-suppressed --report "$tmp/k2.json" --quiet >/dev/null 2>&1
out2=$(num "$tmp/k2.json" '["output_rows"]')
[ "$(wc -l < "$tmp/k2.csv")" = $((out2 + 1)) ] || fail "remove-suppressed rows"
# usage errors: no --noisy (exit 2, no output); domain scale without bounds
set +e
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/bad.csv" --qi sex --others keep -k 5 --epsilon 1 2>/dev/null
[ $? = 2 ] || fail "missing --noisy should exit 2"
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/bad.csv" --qi sex --noisy height --others keep -k 5 \
  --epsilon 1 --scale domain 2>/dev/null
[ $? = 2 ] || fail "domain without bounds should exit 2"
set -e
[ ! -e "$tmp/bad.csv" ] || fail "output left behind on failure"

# Mondrian classes: the released QI tuples are 10-anonymous, every row written
H=$SRC/data/adult
"$KEPS" kepsilon --algorithm mondrian -i "$A" -o "$tmp/m.csv" --qi age --qi sex:$H/adult_hierarchy_sex.csv \
  --qi race:$H/adult_hierarchy_race.csv --qi marital-status:$H/adult_hierarchy_marital-status.csv \
  --noisy height --others keep -k 10 --epsilon 1 --seed 5 --report "$tmp/m.json" --quiet >/dev/null 2>&1
[ "$(wc -l < "$tmp/m.csv")" = 30163 ] || fail "mondrian rows written"
small=$(awk -F';' 'NR > 1 && $10 != "*" { c[$1 FS $2 FS $3 FS $4]++ } END { n = 0; for (t in c) if (c[t] < 10) n++; print n }' "$tmp/m.csv")
[ "$small" = 0 ] || fail "$small released QI tuples with fewer than 10 rows"
[ "$(num "$tmp/m.json" '["output_rows"]')" = 30162 ] || fail "mondrian suppresses nothing without --confidence"

# OLA classes with up to 5% suppression: released tuples 10-anonymous,
# OLA's suppression within the limit, c-confident rows counted apart
"$KEPS" kepsilon --algorithm ola -i "$A" -o "$tmp/o.csv" --qi age:$H/adult_hierarchy_age.csv \
  --qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv \
  --qi marital-status:$H/adult_hierarchy_marital-status.csv --noisy height --others keep -k 10 \
  --suppress 0.05 --epsilon 1 --confidence 0.99 --seed 5 --report "$tmp/o.json" --quiet >/dev/null 2>&1
[ "$(wc -l < "$tmp/o.csv")" = 30163 ] || fail "ola rows written"
small=$(awk -F';' 'NR > 1 && $10 != "*" { c[$1 FS $2 FS $3 FS $4]++ } END { n = 0; for (t in c) if (c[t] < 10) n++; print n }' "$tmp/o.csv")
[ "$small" = 0 ] || fail "ola: $small released QI tuples with fewer than 10 rows"
osup=$(num "$tmp/o.json" '["k_anonymization_suppressed_rows"]')
csup=$(num "$tmp/o.json" '["metrics"]["confident_suppressed_rows"]')
[ "$osup" -le 1508 ] || fail "ola suppressed $osup > floor(0.05*30162)"
[ "$(num "$tmp/o.json" '["suppressed_rows"]')" = $((osup + csup)) ] || fail "ola suppression accounting"
num "$tmp/o.json" '["transformation"]["age"]' >/dev/null || fail "ola transformation"

# dpmicro on CASC
C=$SRC/data/casc/casc.csv
B="--bounds FICA=0:20000 --bounds FEDTAX=0:50000 --bounds INTVAL=0:100000 --bounds POTHVAL=0:200000"
"$KEPS" dpmicro --mode multivariate -i "$C" -o "$tmp/d.csv" --qi FICA --qi FEDTAX --qi INTVAL --qi POTHVAL \
  --others drop -k 10 --epsilon 1 $B --seed 3 --report "$tmp/d.json" --quiet >/dev/null 2>&1
[ "$(wc -l < "$tmp/d.csv")" = 1081 ] || fail "dpmicro rows"
[ "$(head -1 "$tmp/d.csv")" = "FEDTAX,POTHVAL,INTVAL,FICA" ] || fail "dpmicro columns"
[ "$(num "$tmp/d.json" '["guarantee"]["model"]')" = "epsilon-DP" ] || fail "dpmicro model"
[ "$(num "$tmp/d.json" '["guarantee"]["bounds_from_data"]')" = False ] || fail "bounds_from_data"
# c = 108 clusters, sensitivity 108*(20000+50000+100000+200000)/10 = 3996000
[ "$(num "$tmp/d.json" '["sensitivity_l1"]')" = 3996000 ] || fail "sensitivity"
[ "$(num "$tmp/d.json" '["noise_scale"]["FICA"]')" = 3996000 ] || fail "scale"
# 108 clusters -> at most 108 distinct released rows
[ "$(tail -n +2 "$tmp/d.csv" | sort -u | wc -l)" -le 108 ] || fail "shared centroids"
# without bounds: data-derived, flagged
"$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u.csv" --qi FICA --others drop -k 5 --epsilon 1 \
  --seed 3 --report "$tmp/u.json" >/dev/null 2>"$tmp/u.err"
grep -q "weaken" "$tmp/u.err" || fail "no data-bounds warning"
[ "$(num "$tmp/u.json" '["guarantee"]["bounds_from_data"]')" = True ] || fail "bounds_from_data flag"
# univariate: one sensitivity per column, D_j/k (docs/spec.md 5: the centroids of
# attribute j move by at most D_j/k in all): FICA 10000/10 = 1000, AGI
# 200000/10 = 20000; scale m*D_j/(k eps) = 2*1000, 2*20000. No single L1
# figure: sensitivity_l1 is null.
"$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/us.csv" --qi FICA --qi AGI --bounds FICA=0:10000 \
  --bounds AGI=0:200000 -k 10 --epsilon 1 --others drop --seed 3 --report "$tmp/us.json" >/dev/null 2>&1
[ "$(num "$tmp/us.json" '["sensitivity_l1_per_column"]["FICA"]')" = 1000 ] &&
  [ "$(num "$tmp/us.json" '["sensitivity_l1_per_column"]["AGI"]')" = 20000 ] &&
  [ "$(num "$tmp/us.json" '["sensitivity_l1"]')" = None ] &&
  [ "$(num "$tmp/us.json" '["noise_scale"]["AGI"]')" = 40000 ] || fail "univariate sensitivity per column"
# univariate with 2 columns: rows not DP unless unlinked
"$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u2.csv" --qi FICA --qi FEDTAX --others drop -k 5 \
  --epsilon 1 --bounds FICA=0:20000 --bounds FEDTAX=0:50000 --seed 3 --report "$tmp/u2.json" --quiet >/dev/null 2>&1
[ "$(num "$tmp/u2.json" '["guarantee"]["model"]')" = "heuristic, not DP" ] || fail "univariate rows model"
# the text summary states the same guarantee as the report, never a bare epsilon
sum=$("$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u2.csv" --qi FICA --qi FEDTAX --others drop -k 5 \
  --epsilon 1 --bounds FICA=0:20000 --bounds FEDTAX=0:50000 --seed 3 2>/dev/null)
case "$sum" in *"heuristic, not DP"*) ;; *) fail "univariate summary hides the heuristic: $sum" ;; esac
sum=$("$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u2.csv" --qi FICA --others drop -k 5 --epsilon 1 \
  --bounds FICA=0:20000 --paper-accounting --seed 3 --quiet 2>&1)
case "$sum" in *"warning: --paper-accounting"*"no DP guarantee"*) ;; *) fail "paper accounting unannounced: $sum" ;; esac
"$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u2.csv" --qi FICA --others drop -k 5 --epsilon 1 \
  --bounds FICA=0:20000 --paper-accounting --seed 3 --report "$tmp/pa.json" --quiet >/dev/null 2>&1
[ "$(num "$tmp/pa.json" '["guarantee"]["model"]')" = "heuristic, not DP" ] || fail "paper accounting model"
"$KEPS" dpmicro --mode univariate -i "$C" -o "$tmp/u3.csv" --qi FICA --qi FEDTAX --others drop -k 5 \
  --epsilon 1 --bounds FICA=0:20000 --bounds FEDTAX=0:50000 --unlink-columns --seed 3 --report "$tmp/u3.json" \
  --quiet >/dev/null 2>&1
[ "$(num "$tmp/u3.json" '["guarantee"]["model"]')" = "epsilon-DP" ] || fail "unlinked model"
set +e
"$KEPS" dpmicro -i "$C" -o "$tmp/bad2.csv" --qi FICA --others drop -k 2000 --epsilon 1 --bounds FICA=0:1 2>/dev/null
[ $? = 1 ] || fail "k > N should exit 1"
"$KEPS" dpmicro -i "$C" -o "$tmp/bad2.csv" --qi FICA --others drop -k 5 --epsilon 1 --bounds FICA=5:1 2>/dev/null
[ $? = 2 ] || fail "bad bounds should exit 2"
set -e
[ ! -e "$tmp/bad2.csv" ] || fail "output left behind"

# Options of another mode (docs/cli.md): refused before any output when
# ignoring them would release something else or misstate the method, else
# one note. --bounds without --scale domain: the noise would come from the
# data while the report's parameters list public bounds.
set +e
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/mb.csv" --qi sex --noisy height --others drop -k 10 \
  --epsilon 1 --bounds height=100:250 --seed 1 --report "$tmp/mb.json" >/dev/null 2>"$tmp/mb.err"
[ $? = 2 ] && [ ! -e "$tmp/mb.csv" ] && [ ! -e "$tmp/mb.json" ] || fail "kepsilon --bounds with scale ec should exit 2"
grep -q -- "--bounds applies to --scale domain only, not ec:.*add --scale domain" "$tmp/mb.err" ||
  fail "kepsilon --bounds message: $(cat "$tmp/mb.err")"
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/mb.csv" --qi sex --noisy height --others drop -k 10 \
  --epsilon 1 --bounds height=100:250 --scale global --seed 1 >/dev/null 2>"$tmp/mb.err"
[ $? = 2 ] && grep -q -- "not global" "$tmp/mb.err" || fail "kepsilon --bounds with scale global should exit 2"
# the same from a job file: the message points at the file's line
printf 'command: kepsilon\nalgorithm: given\nqi: [sex]\nnoisy: [height]\nothers: drop\nk: 10\nepsilon: 1\nbounds: [height=100:250]\n' \
  > "$tmp/mb.yml"
"$KEPS" --job "$tmp/mb.yml" -i "$A" -o "$tmp/mb.csv" --seed 1 >/dev/null 2>"$tmp/mb.err"
[ $? = 2 ] && [ ! -e "$tmp/mb.csv" ] && grep -q "mb.yml:8:1: --bounds applies to --scale domain only" "$tmp/mb.err" ||
  fail "job file --bounds: $(cat "$tmp/mb.err")"
# with --scale domain the bounds are used: b = m (hi - lo) / epsilon = 1 * 150 / 1
"$KEPS" --job "$tmp/mb.yml" -i "$A" -o "$tmp/mb.csv" --scale domain --seed 1 --report "$tmp/mb.json" --quiet \
  >/dev/null 2>&1 || fail "kepsilon --scale domain --bounds should run"
[ "$(num "$tmp/mb.json" '["noise_scale"]["height"]')" = 150 ] || fail "domain noise scale should be 150"
# --metric (OLA's) and --suppress with mondrian cannot change the release: notes, silenced by --quiet
"$KEPS" kepsilon --algorithm mondrian -i "$A" -o "$tmp/mn.csv" --qi age --noisy height --others drop -k 10 \
  --epsilon 1 --metric prec --suppress 0.1 --seed 1 >/dev/null 2>"$tmp/mn.err"
[ $? = 0 ] && grep -q -- "note: --metric applies to --algorithm ola only and is ignored" "$tmp/mn.err" &&
  grep -q -- "note: --suppress applies to --algorithm ola or given only and is ignored" "$tmp/mn.err" ||
  fail "kepsilon mondrian notes: $(cat "$tmp/mn.err")"
"$KEPS" kepsilon --algorithm mondrian -i "$A" -o "$tmp/mn.csv" --qi age --noisy height --others drop -k 10 \
  --epsilon 1 --metric prec --suppress 0.1 --seed 1 --quiet >/dev/null 2>"$tmp/mn.err"
! grep -q "note:" "$tmp/mn.err" || fail "--quiet should silence the notes"
"$KEPS" kepsilon --algorithm mondrian -i "$A" -o "$tmp/mn.csv" --qi age --noisy height --others drop -k 10 \
  --epsilon 1 --suppress 0 --seed 1 >/dev/null 2>"$tmp/mn.err"
! grep -q "note:" "$tmp/mn.err" || fail "--suppress 0 asks for nothing: $(cat "$tmp/mn.err")"
# given groups the --qi values as they stand: a hierarchy is unused, and said so
"$KEPS" kepsilon --algorithm given -i "$A" -o "$tmp/mn.csv" --qi sex:$H/adult_hierarchy_sex.csv --noisy height \
  --others drop -k 10 --epsilon 1 --seed 1 >/dev/null 2>"$tmp/mn.err"
[ $? = 0 ] && grep -q "note: the hierarchy of --qi sex is not used: with --algorithm given" "$tmp/mn.err" ||
  fail "given hierarchy note: $(cat "$tmp/mn.err")"
# dpmicro --unlink-columns belongs to univariate: with multivariate (the
# default) it would shuffle the columns of rows that are DP as they stand
"$KEPS" dpmicro -i "$C" -o "$tmp/ul.csv" --qi FICA --qi FEDTAX --others drop -k 5 --epsilon 1 \
  --bounds FICA=0:20000 --bounds FEDTAX=0:50000 --unlink-columns --seed 3 --report "$tmp/ul.json" >/dev/null 2>"$tmp/ul.err"
[ $? = 2 ] && [ ! -e "$tmp/ul.csv" ] && [ ! -e "$tmp/ul.json" ] || fail "multivariate --unlink-columns should exit 2"
grep -q -- "--unlink-columns applies to --mode univariate only, not multivariate" "$tmp/ul.err" ||
  fail "unlink message: $(cat "$tmp/ul.err")"
printf 'command: dpmicro\nqi: [FICA]\nothers: drop\nk: 5\nepsilon: 1\nbounds: [FICA=0:20000]\nunlink-columns: true\n' \
  > "$tmp/ul.yml"
"$KEPS" --job "$tmp/ul.yml" -i "$C" -o "$tmp/ul.csv" --seed 3 >/dev/null 2>"$tmp/ul.err"
[ $? = 2 ] && [ ! -e "$tmp/ul.csv" ] && grep -q "ul.yml:7:1: --unlink-columns applies" "$tmp/ul.err" ||
  fail "job file unlink: $(cat "$tmp/ul.err")"
sed -i 's/unlink-columns: true/unlink-columns: false/' "$tmp/ul.yml" # asks for nothing: runs
"$KEPS" --job "$tmp/ul.yml" -i "$C" -o "$tmp/ul.csv" --seed 3 --quiet >/dev/null 2>&1 || fail "unlink-columns: false"
rm -f "$tmp/ul.csv"
# a --qi hierarchy would be unused (the column becomes noisy centroids): refused, as mdav does
"$KEPS" dpmicro -i "$C" -o "$tmp/ul.csv" --qi FICA:interval=1000 --others drop -k 5 --epsilon 1 \
  --bounds FICA=0:20000 --seed 3 >/dev/null 2>"$tmp/ul.err"
[ $? = 2 ] && [ ! -e "$tmp/ul.csv" ] && grep -q "'FICA' has a hierarchy" "$tmp/ul.err" ||
  fail "dpmicro hierarchy: $(cat "$tmp/ul.err")"
set -e
echo ok
