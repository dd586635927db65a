#!/usr/bin/env bash
# A newcomer's first hour (issue 27): hierarchy builders and `keps hierarchy
# build`, the missing value in hierarchy files, leading zeros and declared
# types, the decimal comma, output precision, job-file paths, --quiet, and
# the honest train/test flow (keps split, evaluate --test). Expected values
# by hand in the comments; tests/oracles/hierarchy_oracle.py and
# check_digits.py check the builders and the rounding at random.
. "$(dirname "$0")/lib.bash"
A=$src/data/adult
run() { "$keps" "$@" >"$d/stdout" 2>"$d/stderr"; }

# --- keps hierarchy build -------------------------------------------------
printf 'zip;n\n01097;1\n01099;2\n02110;3\n02111;4\n' >"$d/zip.csv"
run hierarchy build -i "$d/zip.csv" --qi 'zip:mask=1,2,3' -o -
t "hierarchy build -o -: exit 0" "[ $? -eq 0 ]"
# 01097 -> 0109* -> 010** -> 01*** -> * (the issue's example), ';' as ARX
t "hierarchy build: the mask rows" "[ \"\$(head -1 $d/stdout)\" = '01097;0109*;010**;01***;*' ] && [ \"\$(sed -n 3p $d/stdout)\" = '02110;0211*;021**;02***;*' ]"
t "hierarchy build -o -: the summary goes to stderr" "grep -q \"hierarchy of 'zip' (mask=1,2,3): 5 levels, 4 values; distinct values per level: 4, 2, 2, 2, 1\" $d/stderr"
run hierarchy build -i "$d/zip.csv" --qi 'zip:mask=1,2,3' -o "$d/zh.csv" -q
t "hierarchy build -q: no summary, the file written" "[ $? -eq 0 ] && [ ! -s $d/stdout ] && [ ! -s $d/stderr ] && [ \$(wc -l <$d/zh.csv) -eq 4 ]"
# the file written gives the release the spec gives on the fly
"$keps" anonymize --algorithm ola -i "$d/zip.csv" -o "$d/a.csv" --qi 'zip:mask=1,2,3' -k 2 --others keep --keep-order -q 2>/dev/null
"$keps" anonymize --algorithm ola -i "$d/zip.csv" -o "$d/b.csv" --qi "zip:$d/zh.csv" -k 2 --others keep --keep-order -q 2>/dev/null
t "a built file anonymizes as its spec (0109*, 0211*)" "cmp -s $d/a.csv $d/b.csv && grep -q '^0109\*;1$' $d/a.csv"
run hierarchy build -i "$d/zip.csv" --qi "zip:$d/zh.csv" -o -
t "hierarchy build of a file: exit 2, asks for a builder" "[ $? -eq 2 ] && grep -q 'expected NAME:BUILDER' $d/stderr"
run hierarchy -i "$d/zip.csv" --qi 'zip:mask=1' -o -
t "hierarchy without 'build': exit 2" "[ $? -eq 2 ] && grep -q \"the action is 'build'\" $d/stderr"
printf 'd\n2020-01-01\n2021-02-29\n' >"$d/dates.csv"
run hierarchy build -i "$d/dates.csv" --qi 'd:date=month,year' -o "$d/dh.csv"
t "a date that does not exist: exit 2 at FILE:3:1, no file" "[ $? -eq 2 ] && grep -q \"dates.csv:3:1: column 'd': '2021-02-29' is not an ISO 8601 date\" $d/stderr && [ ! -e $d/dh.csv ]"
# Adult ages 17..90 with top coding at 80: 80 and above are '>=80' on every level
run hierarchy build -i "$A/adult.csv" --qi 'age:interval=5,10,20,top=80' -o "$d/ah.csv"
t "Adult age with top=80: 90 is >=80, 79 is in [75-80[ [70-80[ [60-80[" "grep -qx '90;>=80;>=80;>=80;\*' $d/ah.csv && grep -qx '79;\[75-80\[;\[70-80\[;\[60-80\[;\*' $d/ah.csv"

# --- leading zeros are codes ----------------------------------------------
run anonymize --algorithm mondrian -i "$d/zip.csv" -o "$d/o.csv" --qi zip -k 2 --others keep
t "Mondrian on ZIP codes without hierarchy: exit 2 naming 01097's cell and the fixes" "[ $? -eq 2 ] && grep -q \"zip.csv:2:1: column 'zip': '01097' has a leading zero\" $d/stderr && grep -q \"zip:mask=1,2,3\" $d/stderr && grep -q \"'zip:numeric'\" $d/stderr && [ ! -e $d/o.csv ]"
run anonymize --algorithm mondrian -i "$d/zip.csv" -o "$d/o.csv" --qi zip:mask=1,2,3 -k 2 --others keep --keep-order
t "Mondrian with a mask builder keeps the zeros: 0109*" "[ $? -eq 0 ] && [ \$(grep -c '^0109\*;' $d/o.csv) -eq 2 ]"
run anonymize --algorithm mondrian -i "$d/zip.csv" -o "$d/o.csv" --qi zip:numeric -k 2 --others keep --keep-order
t "zip:numeric: split as numbers, [1097-1099] as before" "[ $? -eq 0 ] && [ \$(grep -c '^\[1097-1099\];' $d/o.csv) -eq 2 ]"
run kepsilon --algorithm given -i "$d/zip.csv" -o "$d/o.csv" --qi n --noisy zip -k 1 --epsilon 1 --seed 1
t "a noisy column of codes: exit 2" "[ $? -eq 2 ] && grep -q \"'01097' has a leading zero\" $d/stderr"
run risk --original "$d/zip.csv" --release "$d/zip.csv" --columns zip
t "record linkage on codes: exit 2 naming the cell" "[ $? -eq 2 ] && grep -q \"zip.csv:2:1: column 'zip': '01097' has a leading zero, so the column holds codes\" $d/stderr"
run risk --original "$d/zip.csv" --release "$d/zip.csv" --columns n --json
t "record linkage on numbers: n links every row (risk 1)" "[ $? -eq 0 ] && grep -q '\"record_linkage\":1[,}]' $d/stdout"

# --- the missing value in a hierarchy file ---------------------------------
printf 'age;sex\n30;m\n;f\n35;m\n;m\n' >"$d/miss.csv"
printf '30;[30-40[;*\n35;[30-40[;*\n' >"$d/agh.csv"
run anonymize --algorithm ola -i "$d/miss.csv" -o "$d/o.csv" --qi "age:$d/agh.csv" -k 2 --others keep
t "an empty age without its row: exit 2, the row to add" "[ $? -eq 2 ] && grep -q \"miss.csv:3:1: column 'age': the missing value (the empty field) is not in the hierarchy .*agh.csv; add the row ';;\*'\" $d/stderr"
printf ';;*\n' >>"$d/agh.csv"
run anonymize --algorithm ola -i "$d/miss.csv" -o "$d/o.csv" --qi "age:$d/agh.csv" -k 2 --others keep --keep-order
# two empty ages (one class) and 30, 35 -> [30-40[ at level 1: 2-anonymous
t "with ';;*' the empty ages form their own class" "[ $? -eq 0 ] && [ \$(grep -c '^;' $d/o.csv) -eq 2 ] && [ \$(grep -c '^\[30-40\[;' $d/o.csv) -eq 2 ]"

# --- the decimal comma ------------------------------------------------------
printf 'g;h\na;170,5\na;171,25\nb;180\nb;181,5\n' >"$d/dc.csv"
run anonymize --algorithm mdav -i "$d/dc.csv" -o "$d/o.csv" --qi h -k 2 --others keep --keep-order --decimal-comma
# centroids (170.5+171.25)/2 = 170.875 -> 2 decimals (171,25 has two): 170.88 (170.875 is exact: halfway, to even 8);
# (180+181.5)/2 = 180.75
t "--decimal-comma: MDAV centroids 170,88 and 180,75" "[ $? -eq 0 ] && [ \$(grep -c ';170,88$' $d/o.csv) -eq 2 ] && [ \$(grep -c ';180,75$' $d/o.csv) -eq 2 ]"
printf 'g,h\na,"170,5"\n' >"$d/dcc.csv"
run anonymize --algorithm mdav -i "$d/dcc.csv" -o "$d/o.csv" --qi h -k 1 --others keep --decimal-comma
t "--decimal-comma with ',' as separator: refused, asks for -d" "[ $? -eq 2 ] && grep -q \"field separator of .*dcc.csv is ',' (sniffed from its header)\" $d/stderr"
"$keps" anonymize --algorithm mdav -i - -o "$d/o.csv" --qi h -k 1 --others keep --decimal-comma <"$d/dcc.csv" >/dev/null 2>"$d/stderr"
t "--decimal-comma, ',' separator on stdin: refused after reading" "[ $? -eq 2 ] && grep -q 'field separator of stdin' $d/stderr"
printf 'h\n170,5\n180\n' >"$d/one.csv"
run anonymize --algorithm mdav -i "$d/one.csv" -o "$d/o.csv" --qi h -k 2 -d ';' --decimal-comma
# (170.5 + 180)/2 = 175.25, at the input's one decimal halfway, to even: 175,2
t "one column: -d ';' reads 170,5 (centroid 175,2)" "[ $? -eq 0 ] && [ \$(grep -c '^175,2$' $d/o.csv) -eq 2 ]"

# --- output precision ------------------------------------------------------
# heights with one decimal: the default writes at most one (the issue's
# 172.38461538461539 had 14); --digits 0 whole numbers
run kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 1 --others keep --seed 1 --json
t "kepsilon default digits: one decimal at most (the input's), reported" "[ $? -eq 0 ] && ! cut -d';' -f10 $d/o.csv | tail -n +2 | grep -q '\.[0-9][0-9]' && grep -q '\"digits\":{\"height\":1}' $d/stdout"
run kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 1 --others keep --seed 1 --digits 0 --json
t "kepsilon --digits 0: whole numbers, reported" "[ $? -eq 0 ] && ! cut -d';' -f10 $d/o.csv | tail -n +2 | grep -q '\.' && grep -q '\"digits\":{\"height\":0}' $d/stdout"
run kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 1 --others keep --digits x
t "--digits x: exit 2" "[ $? -eq 2 ] && grep -q \"expected a whole number of decimals in \[0, 340\] or 'exact'\" $d/stderr"
run kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 1 --others keep --clamp
t "--clamp without --bounds: exit 2" "[ $? -eq 2 ] && grep -q 'clamp needs --bounds' $d/stderr"
run kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 0.01 --others keep --clamp --bounds height=100:250 --json --seed 2
t "--clamp --bounds height=100:250: every value inside" "[ $? -eq 0 ] && cut -d';' -f10 $d/o.csv | tail -n +2 | awk '\$1 < 100 || \$1 > 250 { bad = 1 } END { exit bad }' && grep -q '\"clamp\":{\"height\":{\"bounds\":\[100,250\],\"clamped_rows\":' $d/stdout"
run anonymize --algorithm ola -i "$d/zip.csv" -o "$d/o.csv" --qi zip:mask=1 -k 2 --others keep --digits 2
t "--digits with ola: a note, ignored" "[ $? -eq 0 ] && grep -q 'note: --digits applies to --algorithm mdav only' $d/stderr"

# --- job files: paths relative to the file ----------------------------------
mkdir -p "$d/job/sub" "$d/elsewhere"
cp "$d/zip.csv" "$d/job/zip.csv"
cp "$d/zh.csv" "$d/job/sub/zh.csv"
cat >"$d/job/run.yml" <<'YML'
command: anonymize
algorithm: ola
input: zip.csv
output: out/rel.csv
report: out/rel.json
qi: ["zip:sub/zh.csv"]
k: 2
others: keep
keep-order: true
quiet: true
YML
mkdir -p "$d/job/out"
(cd "$d/elsewhere" && "$keps" --job ../job/run.yml >"$d/stdout" 2>"$d/stderr")
t "job paths resolve against the job file's directory" "[ $? -eq 0 ] && [ -s $d/job/out/rel.csv ] && [ -s $d/job/out/rel.json ] && grep -q '^0109\*;' $d/job/out/rel.csv"
t "-q: nothing on stdout" "[ ! -s $d/stdout ]"
cp "$d/zip.csv" "$d/elsewhere/mine.csv"
(cd "$d/elsewhere" && "$keps" --job ../job/run.yml -i mine.csv -o here.csv >/dev/null 2>&1)
t "command-line paths stay relative to the current directory" "[ $? -eq 0 ] && [ -s $d/elsewhere/here.csv ]"
sed 's#zip:sub/zh.csv#zip:sub/none.csv#' "$d/job/run.yml" >"$d/job/bad.yml"
(cd "$d/elsewhere" && "$keps" --job ../job/bad.yml >/dev/null 2>"$d/stderr")
t "a missing hierarchy names the resolved path" "[ $? -eq 2 ] && grep -q 'job/sub/none.csv' $d/stderr"

# --- --quiet silences the summary in every command --------------------------
q() { "$keps" "$@" -q >"$d/stdout" 2>/dev/null; }
q anonymize --algorithm ola -i "$d/zip.csv" -o "$d/o.csv" --qi zip:mask=1 -k 2 --others keep; t "-q anonymize" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q kepsilon --algorithm given -i "$A/adult_height.csv" -o "$d/o.csv" --qi sex --noisy height -k 2 --epsilon 1 --others keep; t "-q kepsilon" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q dpmicro -i "$d/zip.csv" -o "$d/o.csv" --qi n -k 2 --epsilon 1 --bounds n=0:5 --others keep; t "-q dpmicro" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q safela -i "$d/zip.csv" -o "$d/o.csv" --qi zip:mask=1 -k 1 --beta 0.9 --others keep; t "-q safela" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q rr --mechanism ldp -i "$d/zip.csv" -o "$d/o.csv" --sensitive zip --epsilon 1 --others keep; t "-q rr" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q privacy delta -k 75 --beta 0.7; t "-q privacy" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q verify -i "$d/zip.csv" --qi n -k 1; t "-q verify" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q risk --original "$d/zip.csv" --release "$d/zip.csv" --qi n; t "-q risk" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q evaluate --original "$d/zip.csv" --release "$d/zip.csv"; t "-q evaluate" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q audit --mechanism laplace --epsilon 1 --trials 1000; t "-q audit" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
q split -i "$d/zip.csv" -o "$d/tr.csv" --test-output "$d/te.csv"; t "-q split" "[ $? -eq 0 ] && [ ! -s $d/stdout ]"
"$keps" privacy delta -k 75 --beta 0.7 -q --json >"$d/stdout" 2>/dev/null
t "-q --json still prints the JSON asked for" "grep -q '\"result\"' $d/stdout"

# --- an honest evaluation: keps split, anonymize the training part, --test ---
run split -i "$A/adult.csv" -o "$d/train.csv" --test-output "$d/test.csv" --fraction 0.2
# round(0.2 x 30162) = round(6032.4) = 6032 test rows, 24130 training rows
t "split: 6032 test and 24130 training rows (+ headers)" "[ $? -eq 0 ] && [ \$(wc -l <$d/test.csv) -eq 6033 ] && [ \$(wc -l <$d/train.csv) -eq 24131 ]"
tr -d '\r' <"$A/adult.csv" >"$d/adult_lf.csv" # the parts end lines with LF
t "split: the two parts hold exactly the input's rows" "cmp -s <(tail -n +2 $d/adult_lf.csv | sort) <(tail -q -n +2 $d/train.csv $d/test.csv | sort)"
t "split: both keep the header" "[ \"\$(head -1 $d/test.csv)\" = \"\$(head -1 $d/adult_lf.csv)\" ] && [ \"\$(head -1 $d/train.csv)\" = \"\$(head -1 $d/adult_lf.csv)\" ]"
run split -i "$A/adult.csv" -o "$d/x.csv" --test-output "$d/x.csv"
t "split: one file for both outputs: exit 2" "[ $? -eq 2 ]"
"$keps" anonymize --algorithm ola -i "$d/train.csv" -o "$d/rel.csv" -k 5 --qi "age:$A/adult_hierarchy_age.csv" --qi "sex:$A/adult_hierarchy_sex.csv" --others keep -q 2>/dev/null
run evaluate --original "$d/train.csv" --release "$d/rel.csv" --target salary-class
t "evaluate --target without --test or --split: exit 2, points to keps split" "[ $? -eq 2 ] && grep -q 'keps split -i DATA.csv -o train.csv --test-output test.csv' $d/stderr"
run evaluate --original "$d/train.csv" --release "$d/rel.csv" --target salary-class --test "$d/test.csv" --json
t "evaluate --test: 6032 test rows from the test file" "[ $? -eq 0 ] && grep -q '\"test_rows\":6032' $d/stdout && grep -q '\"test_rows_from\":{\"source\":\"test file\"' $d/stdout"
run evaluate --original "$d/train.csv" --release "$d/rel.csv" --target salary-class --split 0.2 --json -q
t "evaluate --split: a warning even with -q, and the report says how" "[ $? -eq 0 ] && grep -q 'warning: --split tests on rows of --original' $d/stderr && grep -q '\"source\":\"split of the original\",\"fraction\":0.2' $d/stdout"
finish usability.sh
