#!/usr/bin/env bash
# CLI contract: help for every command with an example for every flag, the
# man page is current, usage errors exit 2, job files reject unknown keys.
set -u
keps=$1; src=$2; fail=0
t() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }

"$keps" help >/tmp/keps_help.$$ ; t "keps help exits 0" '[ $? -eq 0 ]'
for cmd in anonymize kepsilon dpmicro safela rr privacy verify risk evaluate split noise hierarchy audit; do
  t "help lists $cmd" "grep -q '^  $cmd ' /tmp/keps_help.$$"
  out=$("$keps" "$cmd" --help); rc=$?
  t "$cmd --help exits 0" "[ $rc -eq 0 ]"
  t "$cmd --help has usage" "grep -q '^usage: keps $cmd' <<<\"\$out\""
  # every option header (column 3: -x, --name or --name) is followed by help and an example line
  nopt=$(grep -cE '^  (-[a-z], )?--' <<<"$out")
  nex=$(grep -c '^      example: ' <<<"$out")
  t "$cmd: every option has an example ($nopt options, $nex examples)" "[ $nopt -eq $nex ] && [ $nex -gt 3 ]"
  "$keps" help "$cmd" | cmp -s - <(echo "$out"); t "keps help $cmd == $cmd --help" "[ $? -eq 0 ]"
done
rm -f /tmp/keps_help.$$

"$keps" --man | cmp -s - "$src/man/keps.1"
t "man/keps.1 is current (regenerate: keps --man > man/keps.1)" '[ $? -eq 0 ]'

"$keps" nosuchcmd >/dev/null 2>&1; t "unknown command exits 2" '[ $? -eq 2 ]'
"$keps" anonymize --no-such-flag >/dev/null 2>&1; t "unknown flag exits 2" '[ $? -eq 2 ]'
"$keps" >/dev/null 2>&1; t "no command exits 2" '[ $? -eq 2 ]'

job=$(mktemp); printf 'k: 5\nalgoritm: ola\n' >"$job"
msg=$("$keps" anonymize --job "$job" 2>&1 >/dev/null); rc=$?
t "unknown job key exits 2" "[ $rc -eq 2 ]"
t "unknown job key names file:line:col and key" "grep -qF \"$job:2:1: unknown option 'algoritm' for 'keps anonymize'\" <<<\"\$msg\""
printf 'command: nosuch\n' >"$job"
"$keps" --job "$job" >/dev/null 2>&1; t "job with unknown command exits 2" '[ $? -eq 2 ]'
printf 'k: [1, 2]\n' >"$job"
msg=$("$keps" anonymize --job "$job" 2>&1 >/dev/null); rc=$?
t "list for single-valued option exits 2" "[ $rc -eq 2 ] && grep -q 'takes one value' <<<\"\$msg\""
rm -f "$job"

[ $fail -eq 0 ] && echo "help.sh: all passed"
exit $fail
