#!/usr/bin/env bash
# Hostile and careless inputs fail fast, in small memory, with a message
# that says where and what: NUL bytes, endless fields and lines, huge job
# files, a second YAML document, 100,000 columns; mistyped commands and
# options get a suggestion; an option out of range is named.
. "$(dirname "$0")/lib.bash"
needs_python3
sanitized=${KEPS_SANITIZED:-0} # ASan reserves terabytes of address space: no ulimit -v there
printf 'a,b\n1,x\n2,y\n2,y\n1,x\n' >"$d/in.csv"
# small() runs a command with at most 100 MB of address space
small() { if [ "$sanitized" = 1 ]; then "$@"; else (ulimit -v 100000; "$@"); fi; }

# NUL bytes: refused at once, with file:line:column
small "$keps" verify -i /dev/zero --qi a -k 2 2>"$d/err"; rc=$?
t "-i /dev/zero: exit 2 in small memory" "[ $rc -eq 2 ] && grep -q '/dev/zero:1:1: NUL byte' $d/err"
small "$keps" verify -i - --qi a -k 2 </dev/zero 2>"$d/err"; rc=$?
t "-i - from /dev/zero: exit 2" "[ $rc -eq 2 ] && grep -q 'NUL byte' $d/err"
printf 'a,b\n1,x\n2,y\0z\n' >"$d/nul.csv"
"$keps" verify -i "$d/nul.csv" --qi a -k 1 2>"$d/err"
t "a NUL in line 3, field 2: named there" "[ $? -eq 2 ] && grep -q 'nul.csv:3:2: NUL byte' $d/err"
# a NUL after 3 MiB of a quoted field: the field limit speaks first
{ printf 'a,b\n1,"'; head -c 3000000 /dev/zero | tr '\0' x; printf '\0"\n'; } >"$d/q.csv"
small "$keps" verify -i "$d/q.csv" --qi a -k 1 2>"$d/err"
t "an unclosed 3 MB quoted field: the 1 MiB field limit, at line 2, field 2" \
  "[ $? -eq 2 ] && grep -q 'q.csv:2:2: a field longer than 1 MiB, the limit: .* raise the limit (KEPS_MAX_FIELD in the environment' $d/err"
# an endless line of empty fields: the record limit, in bounded memory (about
# 17 bytes a field: 8 MiB of commas make 8M fields)
if [ "$sanitized" = 1 ]; then
  bash -c "yes , | tr -d '\n' | \"$keps\" verify -i - --qi a -k 1" 2>"$d/err"
else
  (ulimit -v 250000; bash -c "yes , | tr -d '\n' | \"$keps\" verify -i - --qi a -k 1" 2>"$d/err")
fi
t "an endless line: the record limit" "grep -q '<stdin>:1:[0-9]*: a record longer than 8 MiB' $d/err"
# the limits can be moved
{ printf 'a,b\n1,'; head -c 2000 /dev/zero | tr '\0' y; printf '\n'; } >"$d/f.csv"
KEPS_MAX_FIELD=1K "$keps" verify -i "$d/f.csv" --qi a -k 1 2>"$d/err"
t "KEPS_MAX_FIELD=1K: a 2000-byte field is refused" "[ $? -eq 2 ] && grep -q 'longer than 1 KiB' $d/err"
KEPS_MAX_FIELD=2K "$keps" verify -i "$d/f.csv" --qi a -k 1 >/dev/null 2>&1
t "KEPS_MAX_FIELD=2K: it is read" "[ $? -eq 0 ]"
printf 'a,b\n1,x\n2,xyz\n' >"$d/l.csv"
KEPS_MAX_LINE=6 "$keps" verify -i "$d/l.csv" --qi a -k 1 >/dev/null 2>"$d/err"
t "KEPS_MAX_LINE=6: the record '2,xyz' (4 bytes and one per field) fits" "[ $? -eq 0 ]"
KEPS_MAX_LINE=5 "$keps" verify -i "$d/l.csv" --qi a -k 1 2>"$d/err"
t "KEPS_MAX_LINE=5: refused at line 3" "[ $? -eq 2 ] && grep -q 'l.csv:3:2: a record longer than 5 bytes' $d/err"
KEPS_MAX_FIELD=lots "$keps" verify -i "$d/in.csv" --qi a -k 1 2>"$d/err"
t "KEPS_MAX_FIELD=lots: exit 2 naming it" "[ $? -eq 2 ] && grep -q \"KEPS_MAX_FIELD='lots'\" $d/err"
printf '1;any\n2;any\n' >"$d/h.csv"
KEPS_MAX_FIELD=2 "$keps" anonymize --algorithm ola -i "$d/in.csv" -o "$d/o.csv" --qi "a:$d/h.csv" -k 1 --others keep 2>"$d/err"
t "the limits hold for hierarchies too" "[ $? -eq 2 ] && grep -q 'h.csv:1:2: a field longer than 2 bytes' $d/err"

# job files: 1 MiB at most, text, one document
small "$keps" --job /dev/zero 2>"$d/err"
t "--job /dev/zero: exit 2 in small memory" "[ $? -eq 2 ] && grep -q '/dev/zero:1:1: NUL byte' $d/err"
small "$keps" verify --job /dev/urandom 2>"$d/err"
t "--job /dev/urandom: exit 2" "[ $? -eq 2 ]"
{ echo 'command: verify'; head -c 1100000 /dev/zero | tr '\0' '#'; } >"$d/big.yml"
small "$keps" --job "$d/big.yml" 2>"$d/err"
t "a job file over 1 MiB: exit 2, says so" "[ $? -eq 2 ] && grep -q 'larger than 1 MiB' $d/err"
printf 'command: verify\ninput: %s\nqi: a\nk: 2\n---\nk: 3\n' "$d/in.csv" >"$d/two.yml"
"$keps" --job "$d/two.yml" 2>"$d/err"
t "a second YAML document: its own message at its line" \
  "[ $? -eq 2 ] && grep -q \"two.yml:5:1: a second YAML document ('---')\" $d/err"
# 60,000 distinct keys (900 KB): refused for the first unknown key, at once
python3 -c "
print('command: verify')
for i in range(60000): print(f'key{i}: {i}')" >"$d/keys.yml"
"$keps" --job "$d/keys.yml" 2>"$d/err"
t "60,000 keys: exit 2 naming the first" "[ $? -eq 2 ] && grep -q \"keys.yml:2:1: unknown option 'key0'\" $d/err"
printf 'command: verify\nk: 2\nqi: a\nk: 3\n' >"$d/dup.yml"
"$keps" --job "$d/dup.yml" 2>"$d/err"
t "a key given twice: named at its second place" "[ $? -eq 2 ] && grep -q 'dup.yml:4:1: this option is given twice' $d/err"

# 100,000 columns: linear header handling (the duplicate check compared
# every pair); a duplicate far apart is still found, naming both columns
python3 -c "
print(','.join(f'c{j}' for j in range(100000)) + ',c5')
print(','.join('1' for j in range(100001)))" >"$d/wide-dup.csv"
"$keps" verify -i "$d/wide-dup.csv" --qi c0 -k 1 2>"$d/err"
t "100,001 columns, c5 twice: column 100001, also column 6" \
  "[ $? -eq 2 ] && grep -q \"wide-dup.csv:1:100001: duplicate header name 'c5' (also column 6)\" $d/err"
# ... and 100,000 columns x 50 rows fit in 400 MB (975 MB before; a memory
# limit, so not under ASan)
if [ "$sanitized" != 1 ]; then
  python3 -c "
import random
random.seed(3)
print(','.join(f'c{j}' for j in range(100000)))
for i in range(50): print(','.join(str(random.randint(0, 9)) for j in range(100000)))" >"$d/wide.csv"
  (ulimit -v 400000; "$keps" verify -i "$d/wide.csv" --qi c0 -k 1 >/dev/null 2>&1)
  t "100,000 columns x 50 rows: verify in 400 MB" "[ $? -eq 0 ]"
fi
rm -f "$d/wide.csv" "$d/wide-dup.csv"

# did you mean
"$keps" anonymise 2>"$d/err"
t "keps anonymise: exit 2, did you mean 'anonymize'" "[ $? -eq 2 ] && grep -q \"(did you mean 'anonymize'?)\" $d/err"
"$keps" help verfy 2>"$d/err"
t "keps help verfy: did you mean 'verify'" "[ $? -eq 2 ] && grep -q \"(did you mean 'verify'?)\" $d/err"
"$keps" xyzzy 2>"$d/err"
t "keps xyzzy: no suggestion" "[ $? -eq 2 ] && ! grep -q 'did you mean' $d/err"
"$keps" anonymize --algoritm ola 2>"$d/err"
t "--algoritm: did you mean --algorithm" "[ $? -eq 2 ] && grep -q 'did you mean --algorithm?' $d/err"
"$keps" verify --supress=0.1 2>"$d/err"
t "--supress=0.1 (verify has no --suppress): no suggestion of another command's option" "[ $? -eq 2 ] && ! grep -q 'did you mean' $d/err"
"$keps" anonymize --supress=0.1 2>"$d/err"
t "--supress=0.1: did you mean --suppress" "[ $? -eq 2 ] && grep -q 'did you mean --suppress?' $d/err"
"$keps" anonymize --in x 2>"$d/err"
t "--in: ambiguous, the candidates named" "[ $? -eq 2 ] && grep -q \"option '--in' is ambiguous (--input, \" $d/err"
printf 'command: verify\nqii: a\n' >"$d/typo.yml"
"$keps" --job "$d/typo.yml" 2>"$d/err"
t "a job key qii: did you mean 'qi'" "[ $? -eq 2 ] && grep -q \"typo.yml:2:1: unknown option 'qii' for 'keps verify' (did you mean 'qi'?)\" $d/err"
printf 'command: anonymise\n' >"$d/cmd.yml"
"$keps" --job "$d/cmd.yml" 2>"$d/err"
t "command: anonymise in a job: did you mean" "[ $? -eq 2 ] && grep -q \"cmd.yml: no command 'anonymise' (did you mean 'anonymize'?)\" $d/err"

# a numeric option out of range names the option
"$keps" safela -i "$d/in.csv" -o "$d/o.csv" --qi a -k 2 --beta 1e-300 --others keep 2>"$d/err"
t "safela --beta 1e-300: exit 2 naming --beta" "[ $? -eq 2 ] && grep -q -- \"--beta: probability '1e-300'\" $d/err"
"$keps" privacy delta -k 5 --beta 2 2>"$d/err"
t "privacy delta --beta 2: above 1, naming --beta" "[ $? -eq 2 ] && grep -q -- \"--beta: probability '2' is above 1\" $d/err"
"$keps" safela -i "$d/in.csv" -o "$d/o.csv" --qi a -k 2 --beta 1 --others keep 2>"$d/err"
t "safela --beta 1: strictly below 1" "[ $? -eq 2 ] && grep -q -- '--beta 1: expected a probability strictly between 0 and 1' $d/err"
printf 'command: safela\nbeta: 1e-300\n' >"$d/beta.yml"
"$keps" --job "$d/beta.yml" -i "$d/in.csv" -o "$d/o.csv" --qi a -k 2 --others keep 2>"$d/err"
t "beta from a job file: its place named" "[ $? -eq 2 ] && grep -q -- 'beta.yml:2:1: --beta' $d/err"
"$keps" kepsilon --algorithm given -i "$d/in.csv" -o "$d/o.csv" --qi b --noisy a -k 2 --epsilon 1e-400 2>"$d/err"
t "--epsilon 1e-400: exit 2 naming --epsilon" "[ $? -eq 2 ] && grep -q -- \"--epsilon '1e-400'\" $d/err"

# OLA, k above the row count: exit 1 even with --suppress 1 (it released
# every row suppressed, silently), as Mondrian and MDAV
printf '1;*\n2;*\n' >"$d/ah.csv"
for s in 0 1; do
  "$keps" anonymize --algorithm ola -i "$d/in.csv" -o "$d/o.csv" --qi "a:$d/ah.csv" -k 5 --suppress $s --others keep 2>"$d/err"
  t "ola -k 5 on 4 rows --suppress $s: exit 1, no output" "[ $? -eq 1 ] && [ ! -e $d/o.csv ]"
  t "ola -k 5 on 4 rows --suppress $s: says k exceeds the records" "grep -q 'k = 5 is larger than the number of records (4)' $d/err"
done
"$keps" anonymize --algorithm mondrian -i "$d/in.csv" -o "$d/o.csv" --qi a -k 5 --others keep 2>/dev/null
t "mondrian -k 5 on 4 rows: exit 1" "[ $? -eq 1 ]"
printf 'a,b,h\n1,x,1\n2,y,2\n2,y,3\n1,x,4\n' >"$d/kh.csv"
"$keps" kepsilon --algorithm ola -i "$d/kh.csv" -o "$d/o.csv" --qi "a:$d/ah.csv" --noisy h -k 5 --suppress 1 --epsilon 1 \
  --others keep 2>/dev/null
t "kepsilon ola -k 5 on 4 rows: exit 1" "[ $? -eq 1 ]"

finish limits.sh
