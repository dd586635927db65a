#!/usr/bin/env bash
# keps anonymize --algorithm ola with ARX's quality-model options (--metric
# height, --gs-factor, --monotonic, --aggregate, --weight) on a 6-row table
# worked out by hand, the report's objective/score keys, what ARX does not
# offer refused with exit 2, job files, kepsilon, and the note for mondrian.
#
# Table (k = 2): QI A with hierarchy x,y -> xy -> *, z -> z -> * (3 leaves,
# height 2), QI B with m,f -> * (2 leaves, height 1):
#   r1 x m, r2 x m, r3 y m, r4 y f, r5 z f, r6 z f.
# With one row suppressible (--suppress 0.17: floor(1.02) = 1) the feasible
# nodes are (1,0) (r4 alone: S = 1), (0,1), (2,0), (1,1), (2,1); with two
# (0.34), also (0,0) (r3, r4: S = 2).
# Loss per QI (ARX, gs-factor 0.5): (1,0): A: released xy 3 * 2/3 + z 2 * 1/3
#   = 8/3, + S = 11/3, (11/3 - 2)/(6 - 2) = 5/12 -> 0.4166666666; B: 5/2 + 1 =
#   3.5, (3.5 - 3)/3 -> 0.1666666666. (0,1): A 0, B 1. (2,0): A 1, B 0.
#   (1,1), (2,1): A >= 5/12, B 1. Rank (largest first, lexicographic): (1,0)
#   [0.4166666666, 0.1666666666] beats [1, ...].
# gs-factor 1 (only suppression costs, g = 0): loss = S/n: every node with
#   S = 0 scores [0, 0]; gs-factor 0 (g = 1, s = 0: a suppressed row costs its
#   share): (1,0): A all rows' shares 10/3, (10/3 - 2)/4 -> 0.3333333333; B
#   (3 - 3)/3 = 0: [0.3333333333, 0] beats (0,1), (2,0) at [1, 0].
# --weight A=0 (B keeps 0.5; divided by the largest: A 0, B 1): (2,0) scores
#   [0, 0] (A's 1 weighs 0), below (1,0)'s [0.1666666666, 0].
# height (sum of levels): (1,0) and (0,1) tie at 1; with --weight A=1
#   --weight B=0.25, (0,1) scores 0.25 and (1,0) 1.
# dm with two rows suppressible: (0,0) classes 2,1,1,2: DM = 4 + 4 + 6*2 = 20,
#   (0,1) three classes of 2: 12 (the optimum); --monotonic (DM*): (0,0)
#   4 + 1 + 1 + 4 = 10 wins.
. "$(dirname "$0")/lib.bash"
printf 'A,B\nx,m\nx,m\ny,m\ny,f\nz,f\nz,f\n' >"$d/in.csv"
printf 'x;xy;*\ny;xy;*\nz;z;*\n' >"$d/a.csv"
printf 'm;*\nf;*\n' >"$d/b.csv"
val() {
    python3 -c 'import functools, json, sys
print(json.dumps(functools.reduce(lambda v, k: v[k], sys.argv[2].split("."), json.load(open(sys.argv[1])))))' "$d/r.json" "$1"
}
ola() {
    "$keps" anonymize --algorithm ola -i "$d/in.csv" -o "$d/out.csv" --qi A:"$d/a.csv" --qi B:"$d/b.csv" -k 2 \
        --report "$d/r.json" --seed 1 "$@" >"$d/stdout" 2>"$d/stderr"
}
node() { echo "$(val transformation.A),$(val transformation.B)"; }

ola --suppress 0.17 --aggregate rank
t "rank: exit 0" "[ $? -eq 0 ]"
t "rank: node (1,0)" '[ "$(node)" = "1,0" ]'
t "rank: score is the sorted list" '[ "$(val score)" = "[0.4166666666, 0.1666666666]" ]'
t "rank: per-QI values" '[ "$(val score_attributes)" = "{\"A\": 0.4166666666, \"B\": 0.1666666666}" ]'
t "rank: objective" '[ "$(val objective)" = "{\"metric\": \"loss\", \"gs_factor\": 0.5, \"monotonic\": false, \"aggregate\": \"rank\", \"weights\": {\"A\": 1, \"B\": 1}}" ]'
t "rank: summary names the model and the list" 'grep -q "loss, gs-factor 0.5, rank: \[0.416667, 0.166667\]" "$d/stdout"'

ola --suppress 0.17 --aggregate rank --gs-factor 1
t "gs 1: a node without suppression, [0, 0]" '[ "$(val score)" = "[0, 0]" ] && [ "$(val suppressed_rows)" = 0 ]'
ola --suppress 0.17 --aggregate rank --gs-factor 0
t "gs 0: (1,0) at [0.3333333333, 0]" '[ "$(node)" = "1,0" ] && [ "$(val score)" = "[0.3333333333, 0]" ]'
ola --suppress 0.17 --aggregate rank --weight A=0
t "weight A=0: (2,0) at [0, 0]" '[ "$(node)" = "2,0" ] && [ "$(val score)" = "[0, 0]" ]'
t "weight A=0: weights as applied" '[ "$(val objective.weights)" = "{\"A\": 0, \"B\": 1}" ]'
ola --suppress 0.17 --metric height --weight A=1 --weight B=0.25
t "height weighted: (0,1) at 0.25" '[ "$(node)" = "0,1" ] && [ "$(val score)" = 0.25 ]'
t "height: monotonic, no gs-factor in the summary" '[ "$(val objective.monotonic)" = true ] && ! grep -q gs-factor "$d/stdout"'
ola --suppress 0.34 --metric dm
t "dm: (0,1) at 12" '[ "$(node)" = "0,1" ] && [ "$(val score)" = 12 ] && [ "$(val objective.aggregate)" = null ]'
ola --suppress 0.34 --metric dm --monotonic
t "DM*: (0,0) at 10" '[ "$(node)" = "0,0" ] && [ "$(val score)" = 10 ] && [ "$(val objective.monotonic)" = true ]'
t "dm: no per-QI values" '! grep -q score_attributes "$d/r.json"'

# what ARX does not offer: exit 2, a message naming the flag and the fix
err() { rm -f "$d/out.csv"; ola --suppress 0.17 "$@"; [ $? -eq 2 ] && [ ! -e "$d/out.csv" ]; }
t "gs-factor with dm refused" 'err --metric dm --gs-factor 0.3 && grep -q -- "--gs-factor: --metric dm weighs no suppression" "$d/stderr"'
t "gs-factor with height refused" 'err --metric height --gs-factor 0.3'
t "gs-factor out of [0, 1] refused" 'err --gs-factor 1.5'
t "monotonic loss refused" 'err --monotonic && grep -q "no monotonic loss" "$d/stderr"'
t "monotonic aecs refused" 'err --metric aecs --monotonic'
t "aggregate with aecs refused" 'err --metric aecs --aggregate sum && grep -q -- "--aggregate: --metric aecs is one number" "$d/stderr"'
t "weight with dm refused" 'err --metric dm --weight A=1'
t "unknown aggregate refused" 'err --aggregate median && grep -q "expected geometric, arithmetic, sum, max or rank" "$d/stderr"'
t "weight of a non-QI refused, the QIs listed" 'err --weight C=1 && grep -q "'"'"'C'"'"' is not a --qi column; the quasi-identifiers are: A, B" "$d/stderr"'
t "negative weight refused" 'err --weight A=-1 && grep -q "must be a number >= 0" "$d/stderr"'
t "weight without = refused" 'err --weight A && grep -q "expected NAME=W" "$d/stderr"'
t "unknown metric refused" 'err --metric ncp && grep -q "expected prec, loss, dm, aecs, entropy or height" "$d/stderr"'

# job file: the same options
cat >"$d/job.yml" <<EOF
command: anonymize
algorithm: ola
input: $d/in.csv
output: $d/out.csv
qi: ["A:$d/a.csv", "B:$d/b.csv"]
k: 2
suppress: 0.17
aggregate: rank
gs-factor: 0
weight: [A=1, B=0.5]
report: $d/r.json
EOF
"$keps" --job "$d/job.yml" >/dev/null 2>&1
t "job file: exit 0, gs 0 rank (1,0)" '[ $? -eq 0 ] && [ "$(node)" = "1,0" ] && [ "$(val score)" = "[0.3333333333, 0]" ]'
sed -i 's/^suppress: 0.17/suppress: 0.34/; s/^aggregate: rank/metric: dm\nmonotonic: true/; /^gs-factor/d; /^weight/d' "$d/job.yml"
"$keps" --job "$d/job.yml" >/dev/null 2>&1
t "job file: monotonic: true gives DM*, (0,0) at 10" '[ $? -eq 0 ] && [ "$(node)" = "0,0" ] && [ "$(val score)" = 10 ]'

# kepsilon's OLA takes the same options and reports the objective
printf 'A,B,C\nx,m,1\nx,m,2\ny,m,3\ny,f,4\nz,f,5\nz,f,6\n' >"$d/in3.csv"
"$keps" kepsilon --algorithm ola -i "$d/in3.csv" -o "$d/out.csv" --qi A:"$d/a.csv" --qi B:"$d/b.csv" --noisy C \
    -k 2 --epsilon 1 --suppress 0.17 --aggregate rank --weight A=0 --seed 1 --report "$d/r.json" >/dev/null 2>&1
t "kepsilon ola: exit 0, (2,0) at [0, 0]" '[ $? -eq 0 ] && [ "$(node)" = "2,0" ] && [ "$(val score)" = "[0, 0]" ]'

# mondrian picks no node by a metric: a note, the release unchanged
"$keps" anonymize --algorithm mondrian -i "$d/in.csv" -o "$d/out.csv" --qi A:"$d/a.csv" --qi B:"$d/b.csv" -k 2 \
    --others keep --gs-factor 0.3 --aggregate rank --seed 1 >/dev/null 2>"$d/stderr"
t "mondrian: --gs-factor and --aggregate get a note" \
  '[ $? -eq 0 ] && grep -q "note: --gs-factor applies to --algorithm ola only" "$d/stderr" && grep -q "note: --aggregate" "$d/stderr"'
finish ola_objective.sh
