#!/usr/bin/env bash
# Output paths and files (keps/outfile.h): paths resolved before choosing
# between writing in place and replacing (/dev/stdout, links to descriptors
# and devices, links to files), two outputs on one stream refused, the
# replaced file's mode, owner and group kept, concurrent runs never pairing
# one's release with another's report, a killed run leaving no temporary
# file that a later run does not remove.
. "$(dirname "$0")/lib.bash"
needs_python3
printf 'sex,age\na,1\na,1\na,1\nb,1\nb,1\nc,1\n' >"$d/in.csv"
printf 'a;*\nb;*\nc;*\n' >"$d/sex.csv"
run() { "$keps" anonymize --algorithm ola -k 2 --others keep --keep-order -i "$d/in.csv" --qi "sex:$d/sex.csv" "$@"; }
# the release, as written to an ordinary file
run -o "$d/want.csv" >/dev/null 2>&1
t "reference release: 7 lines" "[ \$(wc -l <$d/want.csv) -eq 7 ]"
only_ours() { ls -A "$d" | grep -v -e '^in.csv$' -e '^sex.csv$' -e '^want.csv$' "$@"; }

# a link to this process's stdout is stdout: into a pipe the release comes
# alone (the summary goes to stderr), into a file the release lands there,
# and the link stays a link
ln -s /proc/self/fd/1 "$d/so"
run -o "$d/so" 2>"$d/err" | cat >"$d/got"
t "-o LINK-TO-STDOUT into a pipe: the release alone" "cmp -s $d/got $d/want.csv"
t "-o LINK-TO-STDOUT: the summary on stderr" "grep -q '2-anonymous' $d/err"
run -o "$d/so" >"$d/got" 2>/dev/null
t "-o LINK-TO-STDOUT into a file: the release there" "cmp -s $d/got $d/want.csv"
t "-o LINK-TO-STDOUT: still a link, nothing beside it" "[ -L $d/so ] && [ -z \"\$(only_ours -e '^so$' -e '^got$' -e '^err$')\" ]"
run -o /dev/stdout 2>/dev/null | cat >"$d/got"
t "-o /dev/stdout into a pipe: the release alone" "cmp -s $d/got $d/want.csv"
run -o /dev/stdout >"$d/got" 2>/dev/null
t "-o /dev/stdout into a file: the release there" "cmp -s $d/got $d/want.csv"
t "-o /dev/stdout: /dev/stdout untouched, no file beside it" \
  "[ -L /dev/stdout ] || [ -c /dev/stdout ]; [ -z \"\$(ls -A /dev | grep -e '^stdout.' -e keps)\" ]"
run -o /dev/stderr 2>"$d/got" >/dev/null
t "-o /dev/stderr: the release on stderr" "grep -v '^keps anonymize: ' $d/got | cmp -s - $d/want.csv"
# two outputs on one stream are refused, however spelled
for pair in "- /dev/stdout" "/dev/stdout -" "$d/so -" "- $d/so" "/proc/self/fd/1 /dev/stdout"; do
  set -- $pair
  run -o "$1" --report "$2" >"$d/got" 2>"$d/err"; rc=$?
  t "-o $1 --report $2: exit 2, nothing written" "[ $rc -eq 2 ] && [ ! -s $d/got ] && [ -L $d/so ]"
  t "-o $1 --report $2: says both write to standard output" "grep -q 'both write to standard output' $d/err"
done
ln -s so "$d/so2"
run -o "$d/so" --report "$d/so2" >"$d/got" 2>"$d/err"
t "two links to stdout: exit 2" "[ $? -eq 2 ] && [ ! -s $d/got ]"
rm -f "$d/so2"
run -o /dev/null --report /dev/null >/dev/null 2>&1
t "-o /dev/null --report /dev/null: the null device takes both" "[ $? -eq 0 ]"
# a link to a device is written through; a link to a file stays a link
ln -s /dev/null "$d/nul"
run -o "$d/nul" >/dev/null 2>&1
t "-o LINK-TO-/dev/null: exit 0, still a link, no file beside it" \
  "[ $? -eq 0 ] && [ -L $d/nul ] && [ -z \"\$(only_ours -e '^so$' -e '^got$' -e '^err$' -e '^nul$')\" ]"
rm -f "$d/nul" "$d/so" "$d/got" "$d/err"
echo OLD >"$d/real.csv"
ln -s real.csv "$d/link.csv"
run -o "$d/link.csv" >/dev/null 2>&1
t "-o LINK-TO-FILE: the link stays, its target gets the release" "[ -L $d/link.csv ] && cmp -s $d/real.csv $d/want.csv"
rm -f "$d/link.csv" "$d/real.csv"
ln -s new.csv "$d/dangling.csv"
run -o "$d/dangling.csv" >/dev/null 2>&1
t "-o a dangling link: its target is created" "[ -L $d/dangling.csv ] && cmp -s $d/new.csv $d/want.csv"
rm -f "$d/dangling.csv" "$d/new.csv"
run -o /dev/stdot >/dev/null 2>"$d/err"
t "-o /dev/stdot (a typo): exit 2, no file made in /dev" "[ $? -eq 2 ] && [ ! -e /dev/stdot ] && grep -q 'No such device' $d/err"
rm -f "$d/err"
# the null device keeps being a device (as root a rename would replace it)
t "/dev/null is still a character device" "[ -c /dev/null ]"

# a replaced file keeps its mode (and owner and group); a new one gets the umask
run -o "$d/o.csv" --report "$d/r.json" >/dev/null 2>&1
chmod 600 "$d/o.csv"; chmod 640 "$d/r.json"
if [ "$(id -u)" = 0 ]; then chown 1234:5678 "$d/o.csv"; fi
run -o "$d/o.csv" --report "$d/r.json" >/dev/null 2>&1
t "rerun over a 0600 release: still 0600" "[ \$(stat -c %a $d/o.csv) = 600 ] && cmp -s $d/o.csv $d/want.csv"
t "rerun over a 0640 report: still 0640" "[ \$(stat -c %a $d/r.json) = 640 ]"
if [ "$(id -u)" = 0 ]; then
  t "rerun as root: owner and group kept" "[ \"\$(stat -c %u:%g $d/o.csv)\" = 1234:5678 ]"
fi
rm -f "$d/o.csv" "$d/r.json"
(umask 077 && run -o "$d/o.csv" >/dev/null 2>&1)
t "a new file under umask 077: 0600" "[ \$(stat -c %a $d/o.csv) = 600 ]"
(umask 022 && run -o "$d/o2.csv" >/dev/null 2>&1)
t "a new file under umask 022: 0644" "[ \$(stat -c %a $d/o2.csv) = 644 ]"
rm -f "$d/o.csv" "$d/o2.csv"
t "no temporary or lock file is left" "[ -z \"\$(only_ours)\" ]"

# concurrent runs writing the same -o and --report: each report sits beside
# its own release (the releases of k = 2 and k = 50 differ; each is
# compared with a lone run's)
python3 -c "
import random
random.seed(1)
print('age,sex,x')
for i in range(300): print(f'{random.randint(20,80)},{random.choice(\"mf\")},{i}')
" >"$d/c.csv"
crun() {
  "$keps" anonymize --algorithm ola -i "$d/c.csv" --qi 'age:interval=5,10,20,40' -k "$1" --others keep --keep-order \
    -o "$2" ${3:+--report "$3"} >/dev/null 2>&1
}
crun 2 "$d/A.csv"; crun 50 "$d/B.csv"
t "k = 2 and k = 50 give different releases" "! cmp -s $d/A.csv $d/B.csv"
pairs=250; [ "${KEPS_SANITIZED:-0}" = 1 ] && pairs=60
bad=0
for _ in $(seq 1 $pairs); do
  crun 2 "$d/o.csv" "$d/r.json" & crun 50 "$d/o.csv" "$d/r.json" &
  crun 2 "$d/o.csv" "$d/r.json" & crun 50 "$d/o.csv" "$d/r.json" &
  wait
  if cmp -s "$d/o.csv" "$d/A.csv"; then grep -q '"k":2,' "$d/r.json" || bad=$((bad + 1))
  elif cmp -s "$d/o.csv" "$d/B.csv"; then grep -q '"k":50,' "$d/r.json" || bad=$((bad + 1))
  else bad=$((bad + 1)); fi
done
t "$pairs rounds of 4 concurrent runs: every report beside its own release ($bad not)" "[ $bad -eq 0 ]"
t "concurrent runs leave no temporary or lock file" "[ -z \"\$(ls -A $d | grep -e keps -e tmp)\" ]"

# SIGKILL while the release is written: no partial release, and no
# temporary file that outlives the next run (with O_TMPFILE there is none
# at all; tests/test_outfile.c covers named temporary files)
python3 -c "
import sys
sys.stdout.write('sex,age\n' + 'a,1\nb,1\nc,1\n' * 400000)" >"$d/big.csv"
writing() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q -e "$d/#" -e 'big-out.csv.tmp' -e 'big-out.csv.keps-.*tmp'; }
killed=0
for _ in 1 2 3; do
  "$keps" anonymize --algorithm ola -i "$d/big.csv" -o "$d/big-out.csv" --report "$d/big.json" --qi "sex:$d/sex.csv" \
    -k 2 --others keep --quiet >/dev/null 2>&1 & pid=$!
  for _ in $(seq 1 4000); do writing $pid && break; kill -0 $pid 2>/dev/null || break; sleep 0.002; done
  if writing $pid; then kill -KILL $pid; killed=1; fi
  wait $pid 2>/dev/null
  [ $killed = 1 ] && break
done
if [ $killed = 1 ]; then
  # the kill lands while the rows are written (nothing is left: the file is
  # unnamed), or, rarely, in the commit's instant between linking and the
  # two renames: then a complete release at most, and named leftovers
  t "SIGKILL while writing: no partial release" \
    "[ ! -e $d/big-out.csv ] || [ \$(wc -l <$d/big-out.csv) -eq 1200001 ]"
  t "SIGKILL while writing: a report only beside its release" "[ ! -e $d/big.json ] || [ -e $d/big-out.csv ]"
  "$keps" anonymize --algorithm ola -i "$d/in.csv" -o "$d/big-out.csv" --report "$d/big.json" --qi "sex:$d/sex.csv" \
    -k 2 --others keep --quiet >/dev/null 2>&1
  t "the next run: its output and nothing else" "[ \"\$(ls -A $d | grep big | tr '\n' ' ')\" = 'big-out.csv big.csv big.json ' ]"
else
  echo "SKIP: the release was written before SIGKILL could be sent"
fi

finish output_files.sh
