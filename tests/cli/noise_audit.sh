#!/bin/bash
# keps noise and keps audit at the command line: output shape, exit codes.
# Args: keps binary, source dir.
set -u
KEPS=$1
fail() { echo "FAIL: $*"; exit 1; }

# 5 Laplace releases, one per line, each a number.
out=$("$KEPS" noise --mechanism laplace --epsilon 1 --sensitivity 1 --value 42 -n 5 --seed 3 2>/dev/null) || fail "noise laplace rc"
[ "$(echo "$out" | wc -l)" -eq 5 ] || fail "noise laplace: expected 5 lines, got: $out"
echo "$out" | grep -qvE '^-?[0-9.e+-]+$' && fail "noise laplace: non-numeric line: $out"

# Geometric: whole numbers; JSON carries the guarantee. epsilon 0.5 with
# sensitivity 1 is scale 2 (dyadic), so each release is exactly 0.5-DP and
# the three releases of the same value compose to 3 x 0.5 = 1.5.
out=$("$KEPS" noise --mechanism geometric --epsilon 0.5 --value 7 -n 3 --seed 3 2>/dev/null) || fail "noise geometric rc"
echo "$out" | grep -qvE '^-?[0-9]+$' && fail "noise geometric: non-integer line: $out"
js=$("$KEPS" noise --mechanism geometric --epsilon 0.5 --value 7 -n 3 --seed 3 --json 2>/dev/null) || fail "noise json rc"
echo "$js" | grep -q '"guarantee":{"model":"epsilon-DP","epsilon":1.5,' || fail "noise json guarantee: $js"
echo "$js" | grep -q '"noise_scale":2,' || fail "noise json scale: $js"
js=$("$KEPS" noise --mechanism laplace --epsilon 1 --value 7 -n 1 --seed 3 --json 2>/dev/null) || fail "noise json rc"
# The scale is calibrated so that the stated epsilon, grid rounding included,
# is at most 1 (by hand): b = S/eps = 1 has g = 2^-40, t = 2^40 and states
# (floor(1/g) + 1)/t = 1 + 2^-40 > 1; t must reach 2^40 + 1, i.e. b = 1 + 2^-40,
# which lies in the next grid g = 2^-39 (t = 2^39 + 1/2 states (2^39 + 1)/(2^39
# + 1/2) > 1); there t = 2^39 + 1, b = 1 + 2^-39 = 1.000000000001819 states
# exactly (2^39 + 1)/(2^39 + 1) = 1.
echo "$js" | grep -q '"granularity":1.8189894035458565e-12' || fail "noise json granularity: $js"
echo "$js" | grep -q '"guarantee":{"model":"epsilon-DP","epsilon":1,' || fail "noise json epsilon <= 1: $js"
echo "$js" | grep -q '"noise_scale":1.000000000001819,' || fail "noise json calibrated scale: $js"

# --report keeps the releases printed (3 whole numbers), and with --report -
# stdout holds the JSON alone (the lines go to stderr).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$("$KEPS" noise --mechanism geometric --epsilon 0.5 --value 7 -n 3 --seed 3 --report "$tmp/n.json" 2>/dev/null) ||
  fail "noise --report rc"
rel=$(grep -o '"releases":\[[^]]*\]' "$tmp/n.json" | tr -dc '0-9,-' | tr ',' '\n')
[ "$rel" = "$out" ] && [ "$(echo "$out" | wc -l)" -eq 3 ] || fail "noise --report releases '$rel' != printed '$out'"
out=$("$KEPS" noise --mechanism geometric --epsilon 0.5 --value 7 -n 3 --seed 3 --report - 2>/dev/null)
[ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q '^{.*"releases":\[-\?[0-9]*,' ||
  fail "noise --report -: stdout should be the JSON alone: $out"

# Bad usage exits 2.
"$KEPS" noise --mechanism gauss --epsilon 1 --value 1 >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad mechanism not rc 2"
"$KEPS" noise --mechanism geometric --epsilon 1 --value 1.5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "fractional geometric value not rc 2"
"$KEPS" noise --mechanism laplace --epsilon 0 --value 1 >/dev/null 2>&1; [ $? -eq 2 ] || fail "epsilon 0 not rc 2"

# Audits: honest mechanisms exit 0, the broken Laplace (half scale) exits 1.
for m in laplace geometric rr expmech; do
  "$KEPS" audit --mechanism $m --trials 50000 --seed 5 >/dev/null 2>&1 || fail "audit $m flagged an honest mechanism"
done
"$KEPS" audit --mechanism laplace --scale-factor 0.5 --trials 50000 --seed 5 >/dev/null 2>&1
[ $? -eq 1 ] || fail "audit did not catch the halved Laplace scale"
# a violation is exit 1, which leaves no output file (docs/cli.md): no --report
"$KEPS" audit --mechanism laplace --scale-factor 0.5 --trials 50000 --seed 5 --report "$tmp/a.json" >/dev/null 2>&1
[ $? -eq 1 ] && [ ! -e "$tmp/a.json" ] || fail "audit violation: exit 1 must leave no --report file"
"$KEPS" audit --mechanism laplace --trials 50000 --seed 5 --report "$tmp/a.json" >/dev/null 2>&1 &&
  grep -q '"violation":false' "$tmp/a.json" || fail "audit without violation: --report written"
js=$("$KEPS" audit --mechanism rr --matrix '0.75,0.25;0.25,0.75' --trials 20000 --seed 5 --json 2>/dev/null) || fail "audit rr matrix"
# claimed epsilon = ln 3 = 1.0986122886681098 (the weights 3/4, 1/4 are exact), rounded up by an ulp
echo "$js" | grep -q '"epsilon_claimed":1.09861228866811,' || fail "audit rr claim: $js"
"$KEPS" audit --mechanism rr --matrix '0.7,0.3;0.3' --seed 5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad matrix not rc 2"
# an option of another mechanism would be ignored: refused
"$KEPS" audit --mechanism rr --epsilon 1 --seed 5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "rr --epsilon not rc 2"
"$KEPS" audit --mechanism laplace -p 0.6 --seed 5 >/dev/null 2>&1; [ $? -eq 2 ] || fail "laplace -p not rc 2"
"$KEPS" audit --mechanism rr --matrix '0.7,0.3;0.3,0.7' -p 0.5 --seed 5 >/dev/null 2>&1
[ $? -eq 2 ] || fail "--matrix with -p not rc 2"
"$KEPS" audit --mechanism geometric --scale-factor 2 --seed 5 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--scale-factor applies to --mechanism laplace only, not geometric" "$tmp/err" ||
  fail "geometric --scale-factor: $(cat "$tmp/err")"
# --bins only shapes the estimate; rr's outputs are categories, one bin each: a note
"$KEPS" audit --mechanism rr --bins 10 --trials 2000 --seed 5 >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && grep -q -- "note: --bins applies to --mechanism laplace or geometric only and is ignored" "$tmp/err" ||
  fail "rr --bins note: $(cat "$tmp/err")"
echo OK
