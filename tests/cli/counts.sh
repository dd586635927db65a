#!/usr/bin/env bash
# --counts COL: a frequency table gives the expanded rows' results
# (tests/cli/counts.py: Adult against Python's GROUP BY of it, anonymize,
# verify and risk), and bad counts are input errors naming the cell.
. "$(dirname "$0")/lib.bash"
needs_python3
python3 "$src/tests/cli/counts.py" "$keps" "$src" "$d" >"$d/py.out" 2>&1
t "the frequency table's runs equal the expanded rows' (counts.py)" '[ $? -eq 0 ] || { cat "$d/py.out"; false; }'

A=$src/data/adult
ola=(anonymize --algorithm ola --qi "age:$A/adult_hierarchy_age.csv" --qi "sex:$A/adult_hierarchy_sex.csv" -k 2
     --counts n)
bad() { # bad NAME VALUE LINE: the count VALUE on line LINE is refused, nothing written
  printf 'age;sex;n\n39;Male;3\n50;Female;%s\n' "$2" >"$d/b.csv"
  "$keps" "${ola[@]}" -i "$d/b.csv" -o "$d/b.out" 2>"$d/err"
  t "$1 ('$2') is refused naming file, line and column" \
    '[ $? -eq 2 ] && grep -q "b.csv:3:3" "$d/err" && grep -q "column .n." "$d/err" && [ ! -e "$d/b.out" ]'
}
bad "a zero count" 0
bad "a negative count" -3
bad "a fraction" 1.5
bad "a non-number" x
bad "a missing count" ""
bad "an exponent" 1e3
bad "a count above 2^32-1" 4294967296
bad "counts summing above 2^32-1" 4294967294
printf 'age;sex;n\n39;Male;3\n50;Female;2\n' >"$d/g.csv"
"$keps" "${ola[@]}" -i "$d/g.csv" -o "$d/g.out" --subset "$d/g.csv" --delta-presence 0,1 2>"$d/err"
t "--counts with --subset is refused" '[ $? -eq 2 ] && grep -q "subset" "$d/err" && [ ! -e "$d/g.out" ]'
"$keps" "${ola[@]}" -i "$d/g.csv" -o "$d/g.out" --emit-sql "$d/g.sql" 2>"$d/err"
t "--counts with --emit-sql is refused" '[ $? -eq 2 ] && grep -q "emit-sql" "$d/err" && [ ! -e "$d/g.sql" ]'
"$keps" anonymize --algorithm mondrian -i "$d/g.csv" -o "$d/g.out" --qi age -k 2 --counts n 2>"$d/err"
t "--counts with mondrian is refused" '[ $? -eq 2 ] && grep -q "counts" "$d/err" && [ ! -e "$d/g.out" ]'
"$keps" "${ola[@]}" -i "$d/g.csv" -o "$d/g.out" --counts m 2>"$d/err"
t "an unknown counts column is refused" '[ $? -eq 2 ] && grep -q "counts" "$d/err" && [ ! -e "$d/g.out" ]'
"$keps" "${ola[@]}" -i "$d/g.csv" -o "$d/g.out" --sensitive n --l-diversity 2 2>"$d/err"
t "the counts column as a sensitive column is refused" '[ $? -eq 2 ] && grep -q "counts column" "$d/err"'
# hand check: 3 Males of 39 and 2 Females of 50; k=2 holds at the bottom
# node, so the release is the input itself, the counts kept
"$keps" "${ola[@]}" -i "$d/g.csv" -o "$d/g.out" --report "$d/g.json" 2>"$d/err"
t "a 2-anonymous table of 5 records in 2 rows is released as it is" \
  '[ "$(sort "$d/g.out" | tr "\n" " ")" = "39;Male;3 50;Female;2 age;sex;n " ] &&
   grep -q "\"records\": *5" "$d/g.json" && grep -q "\"rows_read\": *2" "$d/g.json"'
# missing values are counted in records: rows 1 and 3 miss 'note' and stand
# for 10 + 7 = 17 of the 22 records (the report said 2, the rows, before)
printf 'a,b,note,n\n1,2,?,10\n1,3,x,5\n2,2,?,7\n' >"$d/fm.csv"
"$keps" anonymize --algorithm ola -i "$d/fm.csv" --counts n --qi a:interval=2 --qi b:interval=2 --insensitive note \
  --missing '?' -k 1 -o "$d/fm.out" --report "$d/fm.json" --quiet 2>"$d/err"
t "missing values of a frequency table count records" \
  'python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"missing_values\"] != {\"note\": 17})" "$d/fm.json"'
finish counts.sh
