#!/usr/bin/env bash
# The CSV reader end to end: error positions are LINE:FIELD with the line
# grep -n shows (LF, CRLF, stray CRs), blank lines follow one rule (a record
# with one empty field, except a blank last line), a hierarchy with a
# header row is refused. Expected lines and fields are computed from the
# test files with grep/awk, not taken from keps.
. "$(dirname "$0")/lib.bash"
v() { "$keps" verify "$@" >"$d/stdout" 2>"$d/stderr"; }

# a stray quote: its field number, from awk on the file itself
printf 'aaaa;bbbb;cccc\n1111;2222;33"x\n' >"$d/u2.csv"
line=$(grep -n '"' "$d/u2.csv" | cut -d: -f1)
field=$(awk -F';' '/"/ { for (i = 1; i <= NF; i++) if (index($i, "\"")) { print i; exit } }' "$d/u2.csv")
v -i "$d/u2.csv" --qi aaaa; rc=$?
t "bad quote: exit 2" "[ $rc -eq 2 ]"
t "bad quote: LINE:FIELD ($line:$field)" "grep -q 'u2.csv:$line:$field: malformed quotes in field $field' $d/stderr"

# stray CRs: the ragged row's line as grep -n counts it, LF and CRLF files
printf 'a;b;c\n1;2;3\r\r\n4;5;6\n7;8\n' >"$d/x.csv"
printf 'a;b;c\r\n1;2;3\r\r\n4;5;6\r\r\r\n7;8\r\n' >"$d/y.csv"
for f in x y; do
  line=$(grep -n '^7;8' "$d/$f.csv" | cut -d: -f1)
  v -i "$d/$f.csv" --qi a; rc=$?
  t "$f.csv: exit 2" "[ $rc -eq 2 ]"
  t "$f.csv: the ragged row is line $line (grep -n), field 3" "grep -q '$f.csv:$line:3: row has 2 fields' $d/stderr"
done

# blank lines
printf 'a;b\n1;2\n   \n3;4\n' >"$d/b.csv"
line=$(grep -n '^ *$' "$d/b.csv" | head -1 | cut -d: -f1)
"$keps" anonymize --algorithm mondrian -i "$d/b.csv" -o "$d/o.csv" -k 1 --qi a --others keep --quiet >/dev/null 2>"$d/stderr"; rc=$?
t "blank line, two columns: exit 2" "[ $rc -eq 2 ]"
t "blank line, two columns: ragged row at line $line, field 2" "grep -q 'b.csv:$line:2: blank line' $d/stderr"
t "blank line, two columns: no output" "[ ! -e $d/o.csv ]"
printf 'a\n1\n\n3\n\n' >"$d/s.csv"
v -i "$d/s.csv" --qi a --json; rc=$?
t "blank lines, one column: the inner one is a missing value, the last none" \
  "[ $rc -eq 0 ] && grep -q '\"missing_values\":{\"a\":1}' $d/stdout && grep -q '\"input_rows\":3' $d/stdout"
printf 'a;b\r\n1;2\r\n3;4\r\n\r\n' >"$d/e.csv"
v -i "$d/e.csv" --qi a --json; rc=$?
t "a blank last line is no record" "[ $rc -eq 0 ] && grep -q '\"input_rows\":2' $d/stdout"

# a hierarchy with a header row
printf 'age,x\n1,a\n2,b\n5,c\n1,d\n' >"$d/data.csv"
printf '1;0-4;*\n2;0-4;*\n5;5-9;*\n' >"$d/h.csv"
{ printf 'age;l1;l2\n'; cat "$d/h.csv"; } >"$d/hh.csv"
"$keps" anonymize --algorithm ola -i "$d/data.csv" -o "$d/o.csv" -k 2 --qi "age:$d/hh.csv" --others keep --quiet >/dev/null 2>"$d/stderr"; rc=$?
t "hierarchy header: exit 2, no output" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "hierarchy header: HIERARCHY:1:1 says so" "grep -q 'hh.csv:1:1: the first row looks like a header' $d/stderr"
"$keps" anonymize --algorithm ola -i "$d/data.csv" -o "$d/o.csv" -k 2 --qi "age:$d/h.csv" --others keep --quiet >/dev/null 2>"$d/stderr"; rc=$?
t "the same hierarchy without its header loads" "[ $rc -eq 0 ] && [ -s $d/o.csv ]"
finish reader
