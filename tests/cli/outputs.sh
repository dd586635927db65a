#!/usr/bin/env bash
# Where output goes, and what may never happen to it: an output that
# names an input, a word without its option, a report that cannot be
# written after the release is committed, stdin read twice, a temporary
# file left by a signal, invalid JSON from non-UTF-8 data, rounded numbers.
. "$(dirname "$0")/lib.bash"
needs_python3
printf 'sex,age\na,1\na,1\na,1\nb,1\nb,1\nc,1\n' >"$d/in.csv"
printf 'a;*\nb;*\nc;*\n' >"$d/sex.csv"
printf '1;*\n' >"$d/age.csv"
cp "$d/in.csv" "$d/in.orig"
run() { "$keps" anonymize --algorithm ola -k 2 --others keep --quiet "$@" >"$d/stdout" 2>"$d/stderr"; }

# an output naming an input: exit 2, the input untouched
run -i "$d/in.csv" -o "$d/in.csv" --qi "sex:$d/sex.csv"; rc=$?
t "-o equal to -i: exit 2" "[ $rc -eq 2 ]"
t "-o equal to -i: the input is untouched" "cmp -s $d/in.csv $d/in.orig"
t "-o equal to -i: says why" "grep -q 'is also an input' $d/stderr"
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --report "$d/sex.csv"; rc=$?
t "--report naming a hierarchy: exit 2, no release" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "--report naming a hierarchy: the hierarchy is untouched" "[ \"\$(cat $d/sex.csv)\" = \"\$(printf 'a;*\nb;*\nc;*')\" ]"
run -i "$d/in.csv" -o "$d/o.csv" --report "$d/o.csv" --qi "sex:$d/sex.csv"; rc=$?
t "-o and --report the same file: exit 2" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
mkdir -p "$d/sub"
run -i "$d/in.csv" -o "$d/o.csv" --report "$d/sub/../o.csv" --qi "sex:$d/sex.csv"; rc=$?
t "-o and --report one new file spelled twice: exit 2" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
(cd "$d" && run -i in.csv -o o.csv --report ./o.csv --qi sex:sex.csv); rc=$?
t "-o o.csv --report ./o.csv: exit 2" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
ln -s "$d/in.csv" "$d/link.csv"
run -i "$d/in.csv" -o "$d/link.csv" --qi "sex:$d/sex.csv"; rc=$?
t "-o a symlink to the input: exit 2" "[ $rc -eq 2 ] && cmp -s $d/in.csv $d/in.orig"

# a word without its option is an error, not a silently dropped QI
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" "age:$d/age.csv"; rc=$?
t "stray argument: exit 2, no output" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "stray argument: named in the message" "grep -q \"unexpected argument 'age:\" $d/stderr"
# an option where a value belongs is not taken as a file name
(cd "$d" && "$keps" anonymize --algorithm ola -k 2 -i in.csv -o o.csv --qi sex:sex.csv --report --json \
    >"$d/stdout" 2>"$d/stderr"); rc=$?
t "--report --json: exit 2, no release, no file '--json'" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ] && [ ! -e $d/--json ]"
t "--report --json: says which option was taken for a value" "grep -q \"the next word is the option '--json'\" $d/stderr"
(cd "$d" && run -i in.csv -o -k --qi sex:sex.csv); t "-o -k: exit 2" "[ $? -eq 2 ] && [ ! -e $d/-k ]"
"$keps" noise --mechanism laplace --value 3 --epsilon -1 2>"$d/stderr"; rc=$?
t "a negative number is a value, not an option" "[ $rc -eq 2 ] && grep -q \"epsilon '-1'\" $d/stderr"
"$keps" privacy delta -k 75 --beta 0.7 >/dev/null 2>&1; t "privacy takes its calculator as a word" "[ $? -eq 0 ]"
"$keps" privacy delta extra -k 75 --beta 0.7 >/dev/null 2>&1; t "privacy: a second word is an error" "[ $? -eq 2 ]"

# every report carries timing_ms.total (docs/cli.md's report), also the commands
# that release no data
for args in "privacy delta -k 75 --beta 0.7" "privacy rr-epsilon -p 0.6 -n 4" "noise --mechanism laplace --epsilon 1 --value 1 --seed 1" \
            "audit --mechanism laplace --epsilon 1 --trials 1000 --seed 1" "verify -i $d/in.csv --qi sex -k 2"; do
  "$keps" $args --json >"$d/t.json" 2>/dev/null
  t "timing_ms.total in the report of: $args" "grep -q '\"timing_ms\":{\"total\":[0-9.e-]*}' $d/t.json"
done

# a Mondrian label longer than the 256-byte cell buffer is released whole
# (the class of a and b is their common parent, a 300-character label)
long=$(printf 'x%.0s' $(seq 1 300))
printf 'g;h\na;1\na;2\na;3\na;4\nb;5\nb;6\nb;7\nb;8\n' >"$d/lg.csv"
printf "a;$long;*\nb;$long;*\n" >"$d/lgh.csv"
"$keps" kepsilon --algorithm mondrian -i "$d/lg.csv" -o "$d/lgk.csv" --qi "g:$d/lgh.csv" --noisy h -k 8 --epsilon 1 \
  --seed 1 --quiet >/dev/null 2>&1
t "kepsilon mondrian: a 300-character label is not cut" "[ \"\$(cut -d';' -f1 $d/lgk.csv | sed -n 2p)\" = $long ]"
"$keps" rr --mechanism ldp -i "$d/lg.csv" -o "$d/lgr.csv" --qi "g:$d/lgh.csv" --sensitive h --partition mondrian -k 8 \
  --epsilon 1 --seed 1 --quiet >/dev/null 2>&1
t "rr mondrian: a 300-character label is not cut" "[ \"\$(cut -d';' -f1 $d/lgr.csv | sed -n 2p)\" = $long ]"

# a release nobody keeps is refused, not computed and thrown away
run -i "$d/in.csv" --qi "sex:$d/sex.csv" --report "$d/r.json"; rc=$?
t "no -o: exit 2, no report" "[ $rc -eq 2 ] && [ ! -e $d/r.json ] && grep -q 'output is required' $d/stderr"
run -i "$d/in.csv" -o "" --qi "sex:$d/sex.csv"; t "-o '': exit 2" "[ $? -eq 2 ] && grep -q 'names no file' $d/stderr"
mkdir "$d/dir"
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --report "$d/dir"; rc=$?
t "--report a directory: exit 2, no release" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ] && grep -q 'is a directory' $d/stderr"
run -i "$d/in.csv" -o "$d/dir" --qi "sex:$d/sex.csv"; t "-o a directory: exit 2" "[ $? -eq 2 ] && [ -d $d/dir ]"
run -i - -o "$d/o.csv" --qi sex:- <"$d/in.csv"; rc=$?
t "stdin as data and hierarchy: exit 2" "[ $rc -eq 2 ] && grep -q 'both read stdin' $d/stderr"
# a FIFO (like /dev/null) is written in place, never replaced by a renamed file
mkfifo "$d/fifo"
timeout 20 cat "$d/fifo" >"$d/got" &
run -i "$d/in.csv" -o "$d/fifo" --qi "sex:$d/sex.csv" --keep-order; rc=$?
wait
t "-o a FIFO: written through it, still a FIFO" "[ $rc -eq 0 ] && [ -p $d/fifo ] && [ \$(wc -l <$d/got) -eq 7 ]"

# a report that cannot be written is found before the release is committed
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --report "$d/nodir/r.json"; rc=$?
t "report in a missing directory: exit 2 and no release" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "report in a missing directory: the reason is given" "grep -q 'No such file or directory' $d/stderr"
t "no temporary files left" "[ -z \"\$(ls $d | grep tmp)\" ]"

# --report - is stdout; with -o - both cannot have it
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --report -; rc=$?
t "--report -: JSON on stdout" "[ $rc -eq 0 ] && python3 -m json.tool $d/stdout >/dev/null && [ ! -e $d/- ]"
rm -f "$d/o.csv"
run -i "$d/in.csv" -o - --qi "sex:$d/sex.csv" --report -; rc=$?
t "-o - and --report -: exit 2" "[ $rc -eq 2 ]"

# stdin can be read once
"$keps" risk --original - --release - --qi sex <"$d/in.csv" >/dev/null 2>"$d/stderr"; rc=$?
t "two inputs from stdin: exit 2" "[ $rc -eq 2 ] && grep -q 'both read stdin' $d/stderr"

# a job file's value error names the file, line and column; a job for
# another command is refused
printf 'command: anonymize\nalgorithm: ola\nk: "zero"\n' >"$d/job.yml"
"$keps" anonymize --job "$d/job.yml" -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --others keep 2>"$d/stderr"
t "job value error: exit 2 with file:line:col" "[ $? -eq 2 ] && grep -q -- 'job.yml:3:1: -k .zero.' $d/stderr"
printf 'command: kepsilon\n' >"$d/job2.yml"
"$keps" anonymize --job "$d/job2.yml" 2>"$d/stderr"
t "job for another command: exit 2" "[ $? -eq 2 ] && grep -q \"this job is for 'keps kepsilon'\" $d/stderr"

# results that cannot reach stdout are an error
if [ -w /dev/full ]; then
  "$keps" privacy delta -k 75 --beta 0.7 --json >/dev/full 2>/dev/null
  t "stdout full: exit 3 (an I/O failure)" "[ $? -eq 3 ]"
fi

# --seed warns even when no draw follows (--keep-order, nothing shuffled)
run -i "$d/in.csv" -o "$d/o.csv" --qi "sex:$d/sex.csv" --seed 3 --keep-order; rc=$?
t "--seed warns on stderr even with --quiet --keep-order" "[ $rc -eq 0 ] && grep -q 'NOT private' $d/stderr"
rm -f "$d/o.csv"

# non-UTF-8 data still gives valid JSON (a stray byte is read as Latin-1)
printf 'a,b\n\xff\xfe,1\n\xff\xfe,2\nh\xc3\xa9,3\n' >"$d/latin.csv"
"$keps" verify -i "$d/latin.csv" --qi a -k 1 --json >"$d/v.json" 2>/dev/null
t "non-UTF-8 input: valid JSON" "python3 -m json.tool $d/v.json >/dev/null"
t "non-UTF-8 input: bytes as code points, UTF-8 kept" \
  "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=json.dumps(d, ensure_ascii=False); assert \"\xff\xfe\" in s and \"h\xe9\" in s' $d/v.json"

# released numbers are written exactly: a class of diameter 0 gets no
# noise and keeps 0.12345678901234 (printed with 10 digits it became
# 0.123456789)
printf 'g,x\nb,0.12345678901234\nb,0.12345678901234\nb,0.12345678901234\n' >"$d/exact.csv"
"$keps" kepsilon --algorithm given -i "$d/exact.csv" -o "$d/e.csv" --qi g --noisy x -k 3 --epsilon 1 --seed 1 \
  --quiet >/dev/null 2>&1
t "kepsilon writes numbers exactly" "[ \$(grep -c '^b,0.12345678901234\$' $d/e.csv) -eq 3 ]"

# dpmicro names the columns its guarantee does not cover
printf 'a,b,s\n1,10,x\n2,20,y\n3,-5,z\n4,40,w\n5,50,v\n' >"$d/dp.csv"
"$keps" dpmicro -i "$d/dp.csv" -o "$d/dpo.csv" --qi a --sensitive s --insensitive b -k 2 --epsilon 1 \
  --bounds a=0:10 --quiet --json >"$d/dp.json" 2>"$d/stderr"
t "dpmicro: not_covered lists b and s" "grep -q '\"not_covered\":\[\"b\",\"s\"\]' $d/dp.json"
t "dpmicro: the warning prints even with --quiet" "grep -q 'are released outside the guarantee' $d/stderr"

# ... however many and however long their names: 12 uncovered columns of 100
# characters (1,200+ characters of names; the list was cut at 512)
lnames=$(for i in $(seq 10 21); do printf ',c%s%s' $i "$(printf 'y%.0s' $(seq 1 97))"; done)
lvals=$(for i in $(seq 10 21); do printf ',v'; done)
{ echo "a$lnames"; for i in 1 2 3 4 5; do echo "$i$lvals"; done; } >"$d/dpl.csv"
"$keps" dpmicro -i "$d/dpl.csv" -o "$d/dplo.csv" --qi a -k 2 --epsilon 1 --bounds a=0:10 --quiet \
  --others keep >/dev/null 2>"$d/stderr"
t "dpmicro: the warning names the last of 12 long uncovered columns" \
  "grep -q 'c20y*, c21y* are released outside the guarantee' $d/stderr"
# without --others the error lists the names that fit whole, then how many more
"$keps" dpmicro -i "$d/dpl.csv" -o "$d/dplo.csv" --qi a -k 2 --epsilon 1 --bounds a=0:10 --quiet 2>"$d/stderr"
t "no role: 5 whole names of 100 characters, then 'and 7 more'" \
  "[ $? -eq 2 ] && grep -q 'have no role: c10y*, c11y*, c12y*, c13y*, c14y* and 7 more; give each' $d/stderr"
# one name longer than the message can hold: said so, not cut
printf 'a,%s\n1,2\n3,4\n' "$(printf 'w%.0s' $(seq 1 700))" >"$d/l700.csv"
"$keps" anonymize --algorithm mdav -i "$d/l700.csv" -o "$d/l700o.csv" --qi a -k 2 --quiet 2>"$d/stderr"
t "no role: a 700-character name is not cut" \
  "[ $? -eq 2 ] && grep -q '1 column has no role: its name is too long to list here; give' $d/stderr"

# a signal while the release is written leaves no temporary file
python3 - "$d/big.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("sex,age\n")
    f.write("a,1\nb,1\nc,1\n" * 400000)
PY
"$keps" anonymize --algorithm ola -i "$d/big.csv" -o "$d/big-out.csv" --qi "sex:$d/sex.csv" -k 2 --others keep \
  --quiet & pid=$!
seen=0 # the release's temporary file is open (unnamed with O_TMPFILE: "DIR/#INODE (deleted)")
for _ in $(seq 1 2000); do
  ls -l "/proc/$pid/fd" 2>/dev/null | grep -q -e "$d/#" -e 'big-out.csv.keps-.*tmp' && { seen=1; break; }
  sleep 0.002
done
kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; rc=$?
if [ $seen = 1 ]; then
  t "SIGTERM while writing: killed by the signal" "[ $rc -eq 143 ]"
  t "SIGTERM while writing: no temporary file and no output left" \
    "[ -z \"\$(ls $d | grep 'big-out.csv')\" ]"
else
  echo "SKIP: the release was written before the signal could be sent"
fi

# an input without records is bad input for every releasing command
printf 'sex,age\n' >"$d/hdr.csv"
for alg in ola mondrian; do
  "$keps" anonymize --algorithm $alg -i "$d/hdr.csv" -o "$d/h.csv" --qi "sex:$d/sex.csv" -k 2 --others keep 2>"$d/stderr"
  t "$alg on a header-only input: exit 2, no output" "[ $? -eq 2 ] && [ ! -e $d/h.csv ] && grep -q 'no records' $d/stderr"
done
"$keps" dpmicro -i "$d/hdr.csv" -o "$d/h.csv" --qi age -k 2 --epsilon 1 --bounds age=0:9 --others keep 2>/dev/null
t "dpmicro on a header-only input: exit 2" "[ $? -eq 2 ] && [ ! -e $d/h.csv ]"

# privacy, noise and audit take --report too (a common flag)
"$keps" privacy delta -k 75 --beta 0.7 --report "$d/pd.json" >/dev/null 2>&1
t "privacy --report writes JSON" "python3 -m json.tool $d/pd.json >/dev/null"

finish outputs.sh
