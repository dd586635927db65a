#!/usr/bin/env bash
# keps verify end to end: figures (hand-computed below), exit codes 0/1/2.
# usage: verify.sh KEPS_BINARY SOURCE_DIR
set -u
KEPS=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

# Release (';'-separated, to exercise sniffing): QIs age, zip.
#   class A ([20-30[,476**): disease flu flu cancer,        salary 3 4 5     (size 3)
#   class B ([30-40[,4790*): flu gastritis cancer gastritis, salary 6 11 8 7 (size 4)
#   class C ([40-50[,476**): cancer cancer,                 salary 9 10      (size 2)
#   suppressed (*,*):        flu,                           salary 3
# k: 3 classes (suppressed row excluded), min 2 (C); k=3 -> C below: 1 class, 2 rows.
# disease: Q = (flu .4, cancer .4, gastritis .2)
#   distinct A 2, B 3, C 1 -> min 1 (C)
#   exp(H): A 3/2^(2/3) = 1.889882, B 2^1.5 = 2.828427, C 1 -> min 1 (C)
#   equal EMD: A (4/15+1/15+1/5)/2 = 0.266667, B (.15+.15+.3)/2 = 0.3, C (.4+.6+.2)/2 = 0.6 -> max 0.6
# salary (ordered over 3..11, m = 9, Q = (.2, .1 x8)):
#   A cumulative 4/30,11/30,18/30,15/30,12/30,9/30,6/30,3/30 -> 2.6/8 = 0.325
#   B cumulative -.2,-.3,-.4,-.25,-.1,.05,-.05,-.15        -> 1.5/8 = 0.1875
#   C cumulative -.2,-.3,-.4,-.5,-.6,-.7,-.3,.1            -> 3.1/8 = 0.3875 -> max
#   as nominal: A .6, B .6, C (.2+.1x6+.4x2)/2 = 0.8 -> max 0.8
# --suppressed class: 4 classes, min 1 (the '*' row).
cat >"$TMP/rel.csv" <<'EOF'
age;zip;disease;salary
[20-30[;476**;flu;3
[20-30[;476**;flu;4
[20-30[;476**;cancer;5
[30-40[;4790*;flu;6
[30-40[;4790*;gastritis;11
[30-40[;4790*;cancer;8
[30-40[;4790*;gastritis;7
[40-50[;476**;cancer;9
[40-50[;476**;cancer;10
*;*;flu;3
EOF

# run EXPECTED_RC ARGS... : runs keps verify, keeps stdout in $OUT
run() {
    local want=$1
    shift
    OUT=$("$KEPS" verify -i "$TMP/rel.csv" "$@" 2>"$TMP/err")
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: keps verify $* exited $rc, expected $want"; cat "$TMP/err"; fails=$((fails + 1))
    fi
}
has() { # has TEXT : stdout of the last run contains TEXT
    if ! grep -qF -- "$1" <<<"$OUT"; then
        echo "FAIL: output lacks '$1'"; echo "$OUT"; fails=$((fails + 1))
    fi
}
near() { # near PREFIX VALUE : the number right after PREFIX is within 1e-9 of VALUE
    local got
    got=$(awk -v p="$1" '{ i = index($0, p); if (i) { s = substr($0, i + length(p));
        match(s, /^[-0-9.eE+]+/); print substr(s, 1, RLENGTH); exit } }' <<<"$OUT")
    if [ -z "$got" ] || ! awk -v a="$got" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'; then
        echo "FAIL: '$1' is '$got', expected $2"; fails=$((fails + 1))
    fi
}
err_has() {
    if ! grep -qF -- "$1" "$TMP/err"; then
        echo "FAIL: stderr lacks '$1'"; cat "$TMP/err"; fails=$((fails + 1))
    fi
}

QI=(--qi age --qi zip:data/adult/ignored_hierarchy.csv)

# every property holds: exit 0
run 0 "${QI[@]}" -k 2 --sensitive disease --sensitive salary --l-diversity 1 --entropy-l 1 --t-closeness 0.6 --json
has '"min_class":2'
has '"classes":3'
has '"classes_below_k":0'
has '"suppressed_rows":1'
has '"smallest":[{"size":2,"qi":{"age":"[40-50[","zip":"476**"}},{"size":3,'
has '"disease":{"distinct_values":3,"min_distinct":1,"min_entropy_l":1,'
has '"salary":{"distinct_values":9,"min_distinct":2,"min_entropy_l":2,'
near '"ground_distance":"equal","max_emd":' 0.6
near '"ground_distance":"ordered","max_emd":' 0.3875
has '"holds":{"k_anonymity":true,"l_diversity":true,"entropy_l_diversity":true,"t_closeness":true,"all":true}'

# k-anonymity fails at k=3: 1 class (C, 2 rows) below
run 1 "${QI[@]}" -k 3 --json
has '"classes_below_k":1,"records_below_k":2'
has '"holds":{"k_anonymity":false,"all":false}'
run 1 "${QI[@]}" -k 3
has 'FAILS (k=3)'
has 'smallest: size 2: age=[40-50[, zip=476**'

# distinct l-diversity fails (min 1 < 2), worst class C
run 1 "${QI[@]}" --sensitive disease --l-diversity 2
has "'disease' distinct: min 1 distinct values in a class  -> FAILS (l=2); worst class size 2: age=[40-50[, zip=476**"
# salary alone: min 2 distinct -> holds
run 0 "${QI[@]}" --sensitive salary --l-diversity 2

# entropy l-diversity: salary min exp(H) = 2 holds at 2, fails at 2.1
run 0 "${QI[@]}" --sensitive salary --entropy-l 2
run 1 "${QI[@]}" --sensitive salary --entropy-l 2.1 --json
has '"worst_entropy":{"size":2,"qi":{"age":"[40-50[","zip":"476**"},"entropy_l":2}'
has '"entropy_l_diversity":false'

# t-closeness: disease max 0.6 (fails at 0.5); salary ordered 0.3875, nominal 0.8
run 1 "${QI[@]}" --sensitive disease --t-closeness 0.5
has "'disease' (equal ground distance): max EMD 0.6  -> FAILS (t=0.5); worst class size 2: age=[40-50[, zip=476**"
run 0 "${QI[@]}" --sensitive salary --t-closeness 0.3875
run 1 "${QI[@]}" --sensitive salary --t-closeness 0.38
run 1 "${QI[@]}" --sensitive salary --sensitive-type salary=nominal --t-closeness 0.7 --json
near '"ground_distance":"equal","max_emd":' 0.8

# suppressed row as a class: min class 1
run 1 "${QI[@]}" -k 2 --suppressed class --json
has '"min_class":1,"classes":4'

# every row '*': a release generalized to the top looks the same as one
# with every row suppressed; the rows are checked as one class (2 rows,
# values x and y), never passed vacuously: k = 5 fails, distinct 2 holds,
# distinct 3 fails
printf 'a,b,s\n*,*,x\n*,*,y\n' >"$TMP/allsup.csv"
OUT=$("$KEPS" verify -i "$TMP/allsup.csv" --qi a --qi b -k 5 --sensitive s --l-diversity 2 --json 2>"$TMP/err")
[ $? = 1 ] || { echo "FAIL: all-star release, k = 5 must fail"; fails=$((fails + 1)); }
has '"min_class":2,"classes":1'
has '"suppressed_rows":2,"suppressed":"class"'
OUT=$("$KEPS" verify -i "$TMP/allsup.csv" --qi a --qi b -k 2 --sensitive s --l-diversity 2 --json 2>"$TMP/err")
[ $? = 0 ] || { echo "FAIL: all-star release, k = 2 and distinct 2 hold"; fails=$((fails + 1)); }
OUT=$("$KEPS" verify -i "$TMP/allsup.csv" --qi a --qi b --sensitive s --l-diversity 3 --json 2>"$TMP/err")
[ $? = 1 ] || { echo "FAIL: all-star release, distinct 3 must fail"; fails=$((fails + 1)); }

# a numeric sensitive column counts numbers, not spellings: "2", "2.0" and
# "+2" are one value (distinct 1, exp(H) = 1), as for the ordered EMD
printf 'q,s\na,2\na,2.0\na,+2\nb,1\nb,3\n' >"$TMP/spell.csv"
OUT=$("$KEPS" verify -i "$TMP/spell.csv" --qi q --sensitive s --l-diversity 2 --json 2>"$TMP/err")
[ $? = 1 ] || { echo "FAIL: '2', '2.0', '+2' must count as one value"; fails=$((fails + 1)); }
has '"min_distinct":1'
# but "02" has a leading zero: the column holds codes (docs/spec.md 1), so
# class a holds three values 2, 2.0, 02 and class b two: distinct 2 holds,
# and the column has 5 distinct values (as numbers it would have 3)
printf 'q,s\na,2\na,2.0\na,02\nb,1\nb,3\n' >"$TMP/code.csv"
OUT=$("$KEPS" verify -i "$TMP/code.csv" --qi q --sensitive s --l-diversity 2 --json 2>"$TMP/err")
[ $? = 0 ] || { echo "FAIL: '02' makes the column nominal: distinct 2 holds"; fails=$((fails + 1)); }
has '"min_distinct":2'
has '"distinct_values":5'
has '"ground_distance":"equal"'
# declared ordered, the codes are read as numbers again: one value in a
OUT=$("$KEPS" verify -i "$TMP/code.csv" --qi q --sensitive s --l-diversity 2 --sensitive-type s=ordered --json 2>"$TMP/err")
[ $? = 1 ] || { echo "FAIL: s=ordered reads '02' as 2: distinct 1"; fails=$((fails + 1)); }
has '"min_distinct":1'

# bad input: exit 2 with a message naming the problem
run 2 --qi nosuch
err_has "--qi 'nosuch': "
err_has "rel.csv has no column 'nosuch'; its columns are: "
run 2 "${QI[@]}" --t-closeness 0.2
err_has "needs a --sensitive"
# ordered text sorts by bytes (ARX orders a string column so): cancer <
# flu < gastritis, Q = (.4, .4, .2). A (1/3, 2/3, 0): cumulative -.0667,
# .2, 0 -> .2667/2 = .1333; B (.25, .25, .5): .45/2 = .225; C (1, 0, 0): .6,
# .2 -> .8/2 = 0.4 (max)
run 0 "${QI[@]}" --sensitive disease --sensitive-type disease=ordered --t-closeness 0.4 --json
near '"ground_distance":"ordered","max_emd":' 0.4
run 1 "${QI[@]}" --sensitive disease --sensitive-type disease=ordered --t-closeness 0.39
run 2 "${QI[@]}" --t-closeness 1.5 --sensitive disease
run 2 "${QI[@]}" --sensitive disease --sensitive-type disease=weird
err_has "expected NAME=nominal, NAME=ordered or NAME=hierarchical"
printf 'a,b\n1,2\n3\n' >"$TMP/ragged.csv"
OUT=$("$KEPS" verify -i "$TMP/ragged.csv" --qi a 2>"$TMP/err"); rc=$?
[ "$rc" = 2 ] || { echo "FAIL: ragged input exited $rc"; fails=$((fails + 1)); }
err_has "ragged.csv:3:"

# no property asked for: exit 0 with the figures, and the text does not
# claim that anything holds
run 0 "${QI[@]}"
echo "$OUT" | grep -qF "result: no property asked for" || { echo "FAIL: no-property result: $OUT"; fails=$((fails + 1)); }
# --report writes the same JSON to a file
run 0 "${QI[@]}" -k 2 --report "$TMP/r.json"
grep -qF '"method":"verify"' "$TMP/r.json" || { echo "FAIL: report file"; fails=$((fails + 1)); }
# a failed check (k = 3: class C has 2 rows) is exit 1, and exit 1 leaves no
# output file (docs/cli.md); the result is still printed, here as JSON
run 1 "${QI[@]}" -k 3 --report "$TMP/r1.json" --json
[ ! -e "$TMP/r1.json" ] || { echo "FAIL: report file written on exit 1"; fails=$((fails + 1)); }
echo "$OUT" | grep -qF '"k_anonymity":false' || { echo "FAIL: exit 1 JSON on stdout: $OUT"; fails=$((fails + 1)); }
err_has "r1.json not written: the check failed (exit 1)"
# an earlier file of that name is left as it was
echo old >"$TMP/r1.json"
run 1 "${QI[@]}" -k 3 --report "$TMP/r1.json"
[ "$(cat "$TMP/r1.json")" = old ] || { echo "FAIL: exit 1 touched an existing report"; fails=$((fails + 1)); }
# --report - is stdout, not a file: the report is printed there on exit 1 too
run 1 "${QI[@]}" -k 3 --report -
echo "$OUT" | grep -qF '"method":"verify"' || { echo "FAIL: --report - on exit 1: $OUT"; fails=$((fails + 1)); }

if [ "$fails" -ne 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "verify.sh: all passed"
