#!/usr/bin/env bash
# keps evaluate and keps risk on tiny hand-made files: suppressed cells and
# unknown levels without a hierarchy, the warning when the test rows cannot
# be generalized, hierarchy values checked like every other command's,
# splits that leave a side empty, empty releases and originals, and what
# record linkage says about a missing cell. Expected values are worked out
# by hand in the comments.
. "$(dirname "$0")/lib.bash"
needs_python3
ev() { "$keps" evaluate "$@" >"$d/stdout" 2>"$d/stderr"; }
rk() { "$keps" risk "$@" >"$d/stdout" 2>"$d/stderr"; }
# json EXPR: a Python expression over the report j (stdout) is true
json() { python3 -c "import json,sys; j=json.load(open('$d/stdout')); sys.exit(0 if ($1) else 1)" 2>/dev/null; }

printf 'age,sex,cls\n25,M,no\n30,F,no\n35,M,no\n45,F,yes\n50,M,yes\n55,F,no\n' >"$d/orig.csv"
# release of orig: age generalized to level 1 of h.csv, the last row fully
# suppressed (every QI '*')
printf 'age,sex,cls\n20-39,M,no\n20-39,F,no\n20-39,M,no\n40-59,F,yes\n40-59,M,yes\n*,*,no\n' >"$d/rel.csv"
for a in 22 25 28 30 33 35; do echo "$a;20-39;*"; done >"$d/h.csv"
for a in 44 45 50 55; do echo "$a;40-59;*"; done >>"$d/h.csv"

# 1. '*' cells are suppressed with or without a hierarchy: 1 of 6 cells in
#    age and in sex -> 1/6 = 0.167; cls has none. Without a hierarchy the
#    level is unknown (JSON null), with h.csv it is 1 of 2.
ev --original "$d/orig.csv" --release "$d/rel.csv"
t "no hierarchy: exit 0" "[ $? -eq 0 ]"
t "no hierarchy: sex suppressed 1/6" "grep -q '^  sex .*suppressed 0.167' $d/stdout"
t "no hierarchy: age suppressed 1/6" "grep -q '^  age .*suppressed 0.167' $d/stdout"
t "no hierarchy: level unknown, not -1/-1" "grep -q '^  age  *level unknown ' $d/stdout && ! grep -q -- '-1' $d/stdout"
ev --original "$d/orig.csv" --release "$d/rel.csv" --json
t "no hierarchy (JSON): level and height null, suppressed 1/6" \
  "json 'j[\"attributes\"][\"age\"][\"level\"] is None and j[\"attributes\"][\"age\"][\"height\"] is None
        and abs(j[\"attributes\"][\"sex\"][\"suppressed_share\"] - 1/6) < 1e-12'"
ev --original "$d/orig.csv" --release "$d/rel.csv" --hierarchy "age:$d/h.csv" --json
t "hierarchy: level 1 of 2, suppressed 1/6" \
  "json 'j[\"attributes\"][\"age\"][\"level\"] == 1 and j[\"attributes\"][\"age\"][\"height\"] == 2
        and abs(j[\"attributes\"][\"age\"][\"suppressed_share\"] - 1/6) < 1e-12'"

# a release holding a leaf (25) and a level-1 label (20-39) is at no single
# level: 'mixed', level null with height 2
sed 's/^20-39,F,no$/25,F,no/' "$d/rel.csv" >"$d/relmix.csv"
ev --original "$d/orig.csv" --release "$d/relmix.csv" --hierarchy "age:$d/h.csv"
t "mixed levels: text says mixed/2" "grep -q '^  age  *level mixed/2 ' $d/stdout"

# 1b. The classifier on age alone (--ignore sex). Release rows 1-5: 3 'no'
#    in 20-39, 2 'yes' in 40-59. Raw test ages match no release label
#    without a hierarchy, so every test row has all-zero features and the
#    model predicts sign(b). At the optimum (one-hot w1, w2, intercept b,
#    C = 1): w1 = -3 p_A, w2 = 2 (1 - p_B), and sum(p - y) = 0 gives
#    3 p_A = 2 (1 - p_B) = q, so sigma(b - q) * 3 = sigma(-b - q) * 2, hence
#    b - q < -b - q, b < 0: every test row is 'no'. Test: 3 no of 5, so
#    accuracy = baseline = 3/5, and age's test_unmatched_share is 1.
head -6 "$d/rel.csv" >"$d/rel5.csv"
printf 'age,sex,cls\n22,M,no\n33,F,no\n44,M,yes\n55,F,yes\n28,M,no\n' >"$d/test.csv"
ev --original "$d/orig.csv" --release "$d/rel5.csv" --target cls --test "$d/test.csv" --ignore sex --json
t "unmatched: accuracy = baseline = 3/5, age unmatched 1" \
  "json 'j[\"classifier\"][\"accuracy\"] == 0.6 and j[\"classifier\"][\"baseline\"] == 0.6
        and j[\"attributes\"][\"age\"][\"test_unmatched_share\"] == 1'"
t "unmatched: a warning names age and asks for --hierarchy" \
  "grep -q 'warning: the accuracy equals the majority baseline.*age (100%).*--hierarchy' $d/stderr"
# with h.csv every test age is a leaf mapped to a release label: nothing unmatched, no warning
ev --original "$d/orig.csv" --release "$d/rel5.csv" --target cls --test "$d/test.csv" --ignore sex \
  --hierarchy "age:$d/h.csv" --json
t "hierarchy: age unmatched 0, no warning" \
  "json 'j[\"attributes\"][\"age\"][\"test_unmatched_share\"] == 0' && ! grep -q warning $d/stderr"

# 2. A value missing from the hierarchy is exit 2 naming the cell, as in
#    anonymize: 30 is on line 3, column 1 of orig.csv.
grep -v '^30;' "$d/h.csv" >"$d/h30.csv"
ev --original "$d/orig.csv" --release "$d/rel.csv" --hierarchy "age:$d/h30.csv"
t "original value not in the hierarchy: exit 2 with FILE:LINE:COL" \
  "[ $? -eq 2 ] && grep -q \"orig.csv:3:1: column 'age': value '30' is not in the hierarchy\" $d/stderr"
"$keps" anonymize --algorithm ola -i "$d/orig.csv" -o "$d/x.csv" -k 2 --qi "age:$d/h30.csv" --others keep \
  2>"$d/anon.err" >/dev/null
t "the same message as anonymize" "grep -qF \"\$(sed 's/^keps anonymize: //' $d/anon.err)\" $d/stderr"
# a release label at no level: 60-79 on line 7, column 1 of relx.csv
sed 's/^\*,\*,no$/60-79,M,no/' "$d/rel.csv" >"$d/relx.csv"
ev --original "$d/orig.csv" --release "$d/relx.csv" --hierarchy "age:$d/h.csv"
t "release value at no level: exit 2 with FILE:LINE:COL" \
  "[ $? -eq 2 ] && grep -q \"relx.csv:7:1: column 'age': value '60-79' is at no level\" $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --hierarchy "agee:$d/h.csv"
t "hierarchy for a column the original lacks: exit 2" "[ $? -eq 2 ] && grep -q \"column 'agee'\" $d/stderr"
cut -d, -f1,2 "$d/rel.csv" >"$d/rel2.csv"
ev --original "$d/orig.csv" --release "$d/rel2.csv" --target cls --split 0.5 --seed 1
t "target the release lacks: exit 2 naming the file and its columns" \
  "[ $? -eq 2 ] && grep -q \"rel2.csv has no column 'cls'; its columns are: age, sex\" $d/stderr"

# 3. Splits of 6 rows: round(0.01 x 6) = 0 test rows; round(0.95 x 6) = 6,
#    leaving 0 training rows. What works: 1/6 = 0.167 to 5/6 = 0.833.
ev --original "$d/orig.csv" --release "$d/rel.csv" --target cls --split 0.01 --seed 1
t "split with 0 test rows: exit 2 with the counts and the range" \
  "[ $? -eq 2 ] && grep -q 'holds out 0 test rows and leaves 6 training rows.*0.167 (1 test row) to 0.833 (1 training row)' $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --target cls --split 0.95 --seed 1
t "split with 0 training rows: exit 2" "[ $? -eq 2 ] && grep -q 'holds out 6 test rows and leaves 0 training rows' $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --target cls --split 0.167 --seed 1
t "split 0.167 (1 test row): exit 0" "[ $? -eq 0 ] && grep -q ', 1 test rows' $d/stdout"

# 4. Empty release: accepted, nothing to link or single out (risk 0);
#    an empty original is bad input, for risk and evaluate.
printf 'age,sex,cls\n' >"$d/empty.csv"
rk --original "$d/orig.csv" --release "$d/empty.csv" --qi age --json
t "risk, empty release: exit 0, every risk 0" \
  "[ $? -eq 0 ] && json 'j[\"metrics\"][\"record_linkage\"] == 0 and j[\"metrics\"][\"prosecutor_max\"] == 0'"
rk --original "$d/empty.csv" --release "$d/empty.csv" --qi age
t "risk, empty original: exit 2 naming it" "[ $? -eq 2 ] && grep -q 'empty.csv: no records after the header' $d/stderr"
ev --original "$d/empty.csv" --release "$d/rel.csv"
t "evaluate, empty original: exit 2" "[ $? -eq 2 ] && grep -q 'empty.csv: no records after the header' $d/stderr"
ev --original "$d/orig.csv" --release "$d/empty.csv"
t "evaluate, empty release: exit 0" "[ $? -eq 0 ]"

# 5. A missing cell in a compared column: what record linkage needs and how
#    to fix it, not microaggregation. The empty cell is line 3, column 1.
printf 'x,y\n1,2\n3,4\n5,7\n' >"$d/n.csv"
printf 'x,y\n1,2\n,4\n5,7\n' >"$d/nmiss.csv"
rk --original "$d/n.csv" --release "$d/nmiss.csv" --columns x
t "risk, missing cell: exit 2, FILE:LINE:COL, says what record linkage needs" \
  "[ $? -eq 2 ] && grep -q \"nmiss.csv:3:1: column 'x': missing value.*record linkage.*--columns\" $d/stderr \
   && ! grep -q microaggregation $d/stderr"
rk --original "$d/n.csv" --release "$d/nmiss.csv"
t "risk, missing cell in a default column: linkage skipped with the reason" \
  "[ $? -eq 0 ] && grep -q 'not computed.*record linkage measures distances' $d/stdout"
ev --original "$d/orig.csv" --release "$d/orig.csv" --hierarchy "age:$d/h.csv" --hierarchy "age:$d/h.csv"
t "evaluate, two hierarchies for one column: exit 2" "[ $? -eq 2 ] && grep -q 'two hierarchies for column' $d/stderr"

# 6. The classifier's options without --target train and test nothing: one
#    note each (--quiet silences them), and the --test file is not read (a
#    file that does not exist is no error then). --split 0 asks for nothing.
ev --original "$d/orig.csv" --release "$d/rel.csv" --test "$d/absent.csv" --C 0.5 --ignore sex
t "evaluate, classifier options without --target: exit 0, a note each" \
  "[ $? -eq 0 ] && grep -q 'note: --test applies to --target only and is ignored' $d/stderr \
   && grep -q 'note: --C applies to --target only' $d/stderr && grep -q 'note: --ignore applies to --target only' $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --split 0.5 --quiet
t "evaluate, --quiet silences the note" "[ $? -eq 0 ] && ! grep -q note: $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --split 0
t "evaluate, --split 0 asks for nothing: no note" "[ $? -eq 0 ] && ! grep -q note: $d/stderr"
# evaluate releases nothing: its --seed gets a note (silenced by --quiet),
# not the "output is NOT private" warning of the releasing commands.
ev --original "$d/orig.csv" --release "$d/rel.csv" --seed 4
t "evaluate --seed: a note, not the not-private warning" "[ $? -eq 0 ] && grep -q 'note: --seed 4 makes the run reproducible; evaluate releases no data' $d/stderr && ! grep -q 'NOT private' $d/stderr"
ev --original "$d/orig.csv" --release "$d/rel.csv" --seed 4 --quiet
t "evaluate --seed --quiet: silent" "[ $? -eq 0 ] && [ ! -s $d/stderr ]"
# the text summary is whole however many and long the names: 40 columns of
# 120 characters make ~7,600 characters of attribute lines (it was cut at
# 4 KB, losing the last lines and the note on unknown levels)
lnames=$(for i in $(seq 10 49); do printf ',c%s%s' $i "$(printf 'z%.0s' $(seq 1 117))"; done)
{ echo "${lnames#,}"; for r in 1 2 3; do for i in $(seq 10 49); do printf '%s' "${i:+,}$r"; done | cut -c2-; done; } \
  >"$d/long.csv"
ev --original "$d/long.csv" --release "$d/long.csv"
t "evaluate: 40 long names, the last attribute's line and the unknown-level note" \
  "[ $? -eq 0 ] && grep -q '^  c49z* level unknown' $d/stdout && grep -q '^level unknown: no --hierarchy' $d/stdout"
finish evaluate_risk
