#!/usr/bin/env bash
# keps anonymize --algorithm ola on the bundled Adult data: releases are
# checked by an independent awk k-anonymity check (every non-starred QI
# tuple occurs >= k times, starred rows within floor(s*N)), report keys and
# accounting, exit 1 with no output file when no node works.
keps=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
A=$src/data/adult
Q=()
for q in sex age race marital-status education native-country workclass occupation salary-class; do
  Q+=(--qi "$q:$A/adult_hierarchy_$q.csv")
done

# kanon FILE K MAXSTAR: QI columns are the first nine (the input's order),
# ';'-separated like the input (a release keeps the input's separator).
kanon() {
  awk -F';' -v k="$2" -v maxstar="$3" 'NR > 1 {
      key = $1; for (i = 2; i <= 9; i++) key = key ";" $i
      if ($1 == "*") { star++; for (i = 2; i <= 9; i++) if ($i != "*") bad = 1; next }
      n[key]++ }
    END { for (x in n) if (n[x] < k) { print "class of " n[x] ": " x; exit 1 }
          if (bad) { print "partly starred row"; exit 1 }
          if (star > maxstar) { print star " starred > " maxstar; exit 1 } }' "$1"
}

for k in 2 5 10; do
  for s in 0 0.05; do
    "$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/o.csv" "${Q[@]}" -k $k --suppress $s \
      --report "$tmp/r.json" --seed 7 2>/dev/null || bad "k=$k s=$s exit $?"
    max=$(awk -v s=$s 'BEGIN { printf "%d", s * 30162 + 1e-9 }')
    kanon "$tmp/o.csv" $k $max || bad "k=$k s=$s release not k-anonymous"
    [ "$(($(wc -l <"$tmp/o.csv") - 1))" -eq 30162 ] || bad "k=$k s=$s: starred release must keep every row"
    for key in '"method":"ola"' '"input_rows":30162' '"output_rows":30162' '"unsampled_rows":0' \
               '"guarantee":{"model":"k-anonymity","k":'$k '"transformation":{"sex":' '"nodes_total":12960' \
               '"nodes_evaluated":' '"prec":' '"loss":' '"discernibility":' '"aecs":' '"entropy":' '"timing_ms":'; do
      grep -qF "$key" "$tmp/r.json" || bad "k=$k s=$s report lacks $key"
    done
    sup=$(grep -o '"suppressed_rows":[0-9]*' "$tmp/r.json" | cut -d: -f2)
    stars=$(grep -c '^\*;' "$tmp/o.csv")
    [ "$(head -1 "$tmp/o.csv")" = "$(head -1 "$A/adult.csv" | tr -d '\r')" ] || bad "k=$k s=$s header or separator changed"
    [ "$sup" = "$stars" ] || bad "k=$k s=$s suppressed_rows $sup but $stars starred rows"
  done
done

# --remove-suppressed: output + removed = input
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/o.csv" "${Q[@]}" -k 5 --suppress 0.05 \
  --remove-suppressed --json --seed 7 >"$tmp/r.json" 2>/dev/null || bad "remove exit $?"
kanon "$tmp/o.csv" 5 0 || bad "removed release not k-anonymous"
out=$(grep -o '"output_rows":[0-9]*' "$tmp/r.json" | cut -d: -f2)
rem=$(grep -o '"removed_rows":[0-9]*' "$tmp/r.json" | cut -d: -f2)
[ $((out + rem)) -eq 30162 ] || bad "output $out + removed $rem != 30162"
[ "$(($(wc -l <"$tmp/o.csv") - 1))" -eq "$out" ] || bad "output_rows $out differs from the file"
[ "$rem" -gt 0 ] || bad "expected some removed rows at k=5, 5%"

# -o -: the release alone on stdout (the summary goes to stderr)
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o - "${Q[@]}" -k 5 --seed 1 >"$tmp/stdout.csv" 2>"$tmp/err" \
  || bad "-o - exit $?"
[ "$(wc -l <"$tmp/stdout.csv")" -eq 30163 ] || bad "-o -: stdout is not just the release"
grep -q "5-anonymous node" "$tmp/err" || bad "-o -: summary not on stderr"

# dm metric name accepted; unknown metric is a usage error
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/o.csv" "${Q[@]}" -k 5 --metric dm --seed 1 \
  >/dev/null 2>&1 || bad "--metric dm exit $?"
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/x.csv" "${Q[@]}" -k 5 --metric foo >/dev/null 2>&1
[ $? -eq 2 ] || bad "--metric foo should exit 2"

# impossible: k above N; exit 1, no file, whatever --suppress (even 1, which
# would release nothing but stars), as Mondrian and MDAV
for s in 0 0.5 1; do
  "$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/none.csv" "${Q[@]}" -k 40000 --suppress $s 2>"$tmp/err"
  [ $? -eq 1 ] || bad "k=40000 --suppress $s should exit 1"
  [ -e "$tmp/none.csv" ] && bad "output left behind on exit 1"
  grep -q "k = 40000 is larger than the number of records (30162)" "$tmp/err" || bad "k > N: $(cat "$tmp/err")"
done

# a QI without hierarchy is a usage error naming it
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/x.csv" --qi age --others keep -k 5 2>"$tmp/err"
[ $? -eq 2 ] || bad "QI without hierarchy should exit 2"
grep -q "'age' has no hierarchy" "$tmp/err" || bad "message: $(cat "$tmp/err")"

# options of another algorithm: a column role (--columns) or another method
# (--insensitive-mdav) is refused before any output; what cannot change the
# release (--suppress, --metric, --remove-suppressed) gets a note
"$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$tmp/f.csv" --qi "sex:$A/adult_hierarchy_sex.csv" \
  --columns age --others keep -k 5 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/f.csv" ] || bad "ola --columns should exit 2 without output (age would be released raw)"
grep -q -- "--columns applies to --algorithm mdav only, not ola" "$tmp/err" || bad "message: $(cat "$tmp/err")"
"$keps" anonymize --algorithm mondrian -i "$A/adult.csv" -o "$tmp/f.csv" --qi age --insensitive-mdav --others drop \
  -k 5 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/f.csv" ] || bad "mondrian --insensitive-mdav should exit 2"
"$keps" anonymize --algorithm mdav -i "$A/adult.csv" -o "$tmp/f.csv" --qi age --metric prec --suppress 0.1 \
  --others drop -k 5 --seed 1 2>"$tmp/err" >/dev/null
[ $? -eq 0 ] || bad "mdav --metric --suppress should run"
grep -q -- "note: --suppress applies to --algorithm ola only and is ignored" "$tmp/err" &&
  grep -q -- "note: --metric applies to --algorithm ola only" "$tmp/err" || bad "notes: $(cat "$tmp/err")"
"$keps" anonymize --algorithm mondrian -i "$A/adult.csv" -o "$tmp/f.csv" --qi age --suppress 0 --others drop -k 5 \
  --seed 1 2>"$tmp/err" >/dev/null
! grep -q "note:" "$tmp/err" || bad "--suppress 0 asks for nothing, no note: $(cat "$tmp/err")"

# QI names near their 255-character limit: the text summary must hold them
# (eight 250-character names overran its buffer: heap corruption, abort)
LQ=() hdr=""
for ch in a b c d e f g h; do
  n=$(printf '%250s' '' | tr ' ' $ch)
  LQ+=(--qi "$n:interval=5")
  hdr+="${hdr:+,}$n"
done
awk -v h="$hdr" 'BEGIN { print h
  for (r = 0; r < 40; r++) { l = ""; for (i = 0; i < 8; i++) l = l (i ? "," : "") (10 + (r * (i + 3)) % 17); print l } }' \
  >"$tmp/long.csv"
"$keps" anonymize --algorithm ola -i "$tmp/long.csv" -o "$tmp/long-o.csv" "${LQ[@]}" -k 2 --suppress 0.5 \
  >"$tmp/sum" 2>&1 || bad "long QI names exit $?"
grep -q "$n=[0-9]*/[0-9]*\$" "$tmp/sum" && grep -q "nodes evaluated$" "$tmp/sum" || bad "long QI names: summary $(head -c 300 "$tmp/sum")"
# a QI whose name holds ': ' (survey headers) or exceeds 255 characters
printf 'Q1: age,b\n1,x\n1,x\n2,y\n2,y\n' >"$tmp/colon.csv"
printf '1;*\n2;*\n' >"$tmp/colon-h.csv"
"$keps" anonymize --algorithm ola -i "$tmp/colon.csv" -o "$tmp/colon-o.csv" --qi "Q1: age:$tmp/colon-h.csv" -k 2 \
  --others keep --keep-order >"$tmp/sum" 2>&1 || bad "--qi 'Q1: age:H' exit $?: $(cat "$tmp/sum")"
grep -q "Q1: age=0/1" "$tmp/sum" || bad "--qi 'Q1: age:H': $(cat "$tmp/sum")"
"$keps" evaluate --original "$tmp/colon.csv" --release "$tmp/colon-o.csv" --hierarchy "Q1: age:$tmp/colon-h.csv" \
  --json >"$tmp/ev.json" 2>"$tmp/err" || bad "evaluate --hierarchy 'Q1: age:H' exit $?: $(cat "$tmp/err")"
grep -q '"Q1: age":{"level":0,"height":1' "$tmp/ev.json" || bad "evaluate 'Q1: age' level: $(cat "$tmp/ev.json")"
n300=$(printf '%300s' '' | tr ' ' q)
sed "1s/.*/$n300,b/" "$tmp/colon.csv" >"$tmp/n300.csv"
"$keps" anonymize --algorithm ola -i "$tmp/n300.csv" -o "$tmp/n300-o.csv" --qi "$n300:$tmp/colon-h.csv" -k 2 \
  --others keep >"$tmp/sum" 2>&1 || bad "a 300-character QI name exit $?: $(head -c 300 "$tmp/sum")"
# a lattice of 10M nodes or more gets a note on what it costs: 15 QIs with
# 3 levels each (interval=20 on values 0-39) make 3^15 = 14,348,907 nodes,
# 14 make 4,782,969 (no note); k = 1 keeps the search short
printf 'c0,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14\n' >"$tmp/q15.csv"
printf '1,2,3,4,5,6,7,8,9,10,11,12,13,14,35\n3,25,3,4,5,6,7,8,9,10,11,12,13,14,15\n' >>"$tmp/q15.csv"
q15=""; for i in $(seq 0 14); do q15="$q15 --qi c$i:interval=20"; done
"$keps" anonymize --algorithm ola -i "$tmp/q15.csv" -o "$tmp/q15-o.csv" $q15 -k 1 >"$tmp/sum" 2>&1 ||
  bad "15 QIs exit $?: $(head -c 300 "$tmp/sum")"
# 4 bytes per node: 14,348,907 x 4 = 57.4 MB
grep -q "note: the generalization lattice has 14348907 nodes (15 QIs).*expect up to about 57 MB (" "$tmp/sum" ||
  bad "15 QIs: no lattice note, or not 57 MB: $(head -c 300 "$tmp/sum")"
"$keps" anonymize --algorithm ola -i "$tmp/q15.csv" -o "$tmp/q15-o.csv" $q15 -k 1 --quiet >"$tmp/sum" 2>&1
grep -q "note:" "$tmp/sum" && bad "15 QIs --quiet: the note printed"
"$keps" anonymize --algorithm ola -i "$tmp/q15.csv" -o "$tmp/q15-o.csv" ${q15% --qi c14:interval=20} --others drop \
  -k 1 >"$tmp/sum" 2>&1 || bad "14 QIs exit $?"
grep -q "note: the generalization lattice" "$tmp/sum" && bad "14 QIs (4.8M nodes): a lattice note"
exit $fail
