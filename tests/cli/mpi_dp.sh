#!/usr/bin/env bash
# keps-mpi's DP commands against keps on one process (docs/scale.md):
# kepsilon on Adult with heights, in shards and as one file cut in byte
# ranges, at -np 1, 2 and 4, with each flag of keps kepsilon's: the same node,
# objective, classes, counts, noise scales, expected ARE and guarantee as
# `keps kepsilon` (sums over classes in another order agree to 1e-12), the
# same multiset of rows but for the noisy column, starred exactly where the
# single run stars it (with c-confidence, whose withheld rows depend on the
# noise: every released value c-confident in its class, checked from the
# input); with --seed the shards are
# the same from one run to the next at the same -np. safela: the same
# guarantee, counts that add up, a sample size within 5 sd of beta N, and
# every released class of k rows at the node reported. rr (ldp, tclose,
# both; classes given or OLA's; categories from the data or --domain): the
# same guarantee, levels and node, the changed values and the released
# values' counts within binomial bounds, a cell outside --domain named by
# its shard, and two ranks reading the same shard draw differently. Skipped (exit 77)
# without keps-mpi and mpirun, unless KEPS_REQUIRE_MPI=1.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi_lib.bash"

A=$src/data/adult
H=$A/adult_hierarchy
qi=(--qi "sex:${H}_sex.csv" --qi "age:${H}_age.csv" --qi "race:${H}_race.csv"
    --qi "marital-status:${H}_marital-status.csv")
mkdir -p "$d/parts" "$d/out" "$d/again"
head -n 1 "$A/adult_height.csv" >"$d/head"
tail -n +2 "$A/adult_height.csv" >"$d/body"
split -n l/3 -d "$d/body" "$d/b"
for f in "$d"/b0*; do cat "$d/head" "$f" >"$d/parts/p${f##*/b}.csv"; done

# kepsilon: ec (the paper's), global and domain scales, with and without
# removing the suppressed rows, and each flag of keps kepsilon's (--bounds,
# --clamp, --digits, --confidence, the objective: --metric, --gs-factor,
# --monotonic, --aggregate, --weight, --threads); under the sanitizers two
# cases and -np 1, 2. A case: K SCALE keep|remove [FLAG...]
cases=("10 ec keep" "5 global remove --clamp --bounds height=100:250 --digits 0"
       "10 domain keep --bounds height=100:250 --metric entropy --monotonic --threads 1"
       "5 ec keep --metric prec --gs-factor 0.3 --aggregate rank --weight age=1 --weight sex=0.1 --digits exact"
       "10 ec remove --confidence 0.9")
nps="1 2 4"
if [ "${KEPS_SANITIZED:-0}" = 1 ]; then cases=("10 ec keep" "10 domain keep --bounds height=100:250 --confidence 0.9"); nps="1 2"; fi
for case in "${cases[@]}"; do
  set -- $case
  k=$1 scale=$2 rs=() width=$2
  [ "$scale" = domain ] && width=150 # --bounds height=100:250
  [ "$3" = remove ] && rs=(--remove-suppressed)
  shift 3
  args=(--algorithm ola "${qi[@]}" --noisy height --others keep -k "$k" --suppress 0.05 --epsilon 1 --scale "$scale"
        "${rs[@]}" "$@" --seed 3 --quiet)
  "$keps" kepsilon -i "$A/adult_height.csv" -o "$d/single.csv" "${args[@]}" --report "$d/single.json" 2>/dev/null
  for np in $nps; do
    for input in "$d/parts/p*.csv" "$A/adult_height.csv"; do
      rm -f "$d"/out/*
      run "$np" kepsilon -i "$input" -o "$d/out/part-%r.csv" "${args[@]}" --report "$d/mpi.json" 2>"$d/err"
      t "kepsilon $case np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
      t "kepsilon $case np=$np $input: report as the single run" 'cmp_py kepsilon "$d/single.json" "$d/mpi.json"'
      if [[ $case = *confidence* ]]; then # the rows c-confidence withholds depend on the noise
        t "kepsilon $case np=$np $input: c-confident classes" \
          'cmp_py confident "$d/mpi.json" "$A/adult_height.csv" "$A" height "$width" 1 0.9 "$k" "$d"/out/part-*.csv'
      else
        t "kepsilon $case np=$np $input: same rows but height" 'cmp_py noisy height "$d/single.csv" "$d"/out/part-*.csv'
      fi
    done
    rm -f "$d"/again/*
    run "$np" kepsilon -i "$input" -o "$d/again/part-%r.csv" "${args[@]}" 2>/dev/null
    t "kepsilon $case np=$np: --seed reproduces the shards" \
      '(for r in $(seq 0 $((np - 1))); do cmp -s "$d/out/part-$r.csv" "$d/again/part-$r.csv" || exit 1; done)'
  done
  # --scale domain is data-independent: b = m (hi - lo) / epsilon = 1 * (250 - 100) / 1 = 150 in every class
  [ "$scale" = domain ] && t "kepsilon $case: the domain scale is 150" \
    'python3 -c "import json,sys; sys.exit(json.load(open(\"$d/mpi.json\"))[\"noise_scale\"] != {\"height\": 150})"'
  # --digits 0 --clamp: every released height a whole number within 100..250, some on a bound
  [[ $case = *"--digits 0"* ]] && t "kepsilon $case: heights whole and clamped" \
    'cmp_py clamped height 100 250 0 "$d"/out/part-*.csv'
done
t "kepsilon: the class routing's bytes in the report" \
  'python3 -c "import json,sys; sys.exit(json.load(open(\"$d/mpi.json\"))[\"mpi\"][\"bytes_sent\"][\"classes\"] <= 0)"'
# without --seed each run has a fresh key: two runs draw other noise
plain=(--algorithm ola "${qi[@]}" --noisy height --others keep -k 10 --epsilon 1 --quiet)
rm -f "$d"/out/* "$d"/again/*
run 2 kepsilon -i "$d/parts/p*.csv" -o "$d/out/u-%r.csv" "${plain[@]}" 2>"$d/err"
t "kepsilon without --seed: exit 0, no seed warning" '[ $? -eq 0 ] && ! grep -q "NOT private" "$d/err"'
run 2 kepsilon -i "$d/parts/p*.csv" -o "$d/again/u-%r.csv" "${plain[@]}" 2>/dev/null
t "kepsilon without --seed: another draw" \
  '! cmp -s <(cat "$d"/out/u-*.csv | LC_ALL=C sort) <(cat "$d"/again/u-*.csv | LC_ALL=C sort)'

# safela: the sample is each rank's own draw, so the release differs from
# the single run's; the guarantee (beta, epsilon, delta, ...) is the same, the
# counts add up, every released class has k rows at the node reported, and
# --seed reproduces the shards at the same -np
sargs=(--qi "age:${H}_age.csv" --qi "education:${H}_education.csv" --insensitive salary-class --others drop -k 75
       --beta 0.7 --epsilon-prime 0.5 --penalty 2 --seed 5 --quiet)
"$keps" safela -i "$A/adult.csv" -o "$d/single.csv" "${sargs[@]}" --report "$d/single.json" 2>/dev/null
for np in $nps; do
  for input in "$d/parts/p*.csv" "$A/adult.csv"; do
    rm -f "$d"/out/* "$d"/again/*
    run "$np" safela -i "$input" -o "$d/out/part-%r.csv" "${sargs[@]}" --report "$d/mpi.json" 2>"$d/err"
    t "safela np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
    t "safela np=$np $input: guarantee, counts, classes" \
      'cmp_py safela "$d/single.json" "$d/mpi.json" 75 "$A" "$d"/out/part-*.csv'
    run "$np" safela -i "$input" -o "$d/again/part-%r.csv" "${sargs[@]}" 2>/dev/null
    t "safela np=$np $input: --seed reproduces the shards" \
      '(for r in $(seq 0 $((np - 1))); do cmp -s "$d/out/part-$r.csv" "$d/again/part-$r.csv" || exit 1; done)'
  done
done
t "safela without --beta refused" \
  '! run 1 safela -i "$A/adult.csv" -o "$d/out/x.csv" --qi "age:${H}_age.csv" -k 5 2>"$d/err" && grep -q "beta is required" "$d/err"'
t "safela --suppress refused" \
  '! run 1 safela -i "$A/adult.csv" -o "$d/out/x.csv" --qi "age:${H}_age.csv" -k 5 --beta 0.5 --suppress 0.1 2>"$d/err" && grep -q "unknown option .--suppress." "$d/err"'

# rr --mechanism ldp: the single run's guarantee, levels and p; the number
# of changed values and the released column's counts within 5 sd of the
# single run's; every other column the same multiset of rows
rargs=(--mechanism ldp --sensitive salary-class --qi sex --qi race --epsilon 1 --others keep --seed 2 --quiet)
"$keps" rr -i "$A/adult_height.csv" -o "$d/single.csv" "${rargs[@]}" --report "$d/single.json" 2>/dev/null
for np in $nps; do
  for input in "$d/parts/p*.csv" "$A/adult_height.csv"; do
    rm -f "$d"/out/* "$d"/again/*
    run "$np" rr -i "$input" -o "$d/out/part-%r.csv" "${rargs[@]}" --report "$d/mpi.json" 2>"$d/err"
    t "rr np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
    t "rr np=$np $input: as the single run" \
      'cmp_py rr salary-class "$A/adult_height.csv" "$d/single.json" "$d/mpi.json" "$d/single.csv" "$d"/out/part-*.csv'
    run "$np" rr -i "$input" -o "$d/again/part-%r.csv" "${rargs[@]}" 2>/dev/null
    t "rr np=$np $input: --seed reproduces the shards" \
      '(for r in $(seq 0 $((np - 1))); do cmp -s "$d/out/part-$r.csv" "$d/again/part-$r.csv" || exit 1; done)'
  done
done
t "rr: the data-dependent domain said" 'grep -q "reads from the data: domain" "$d/err"'

# the ranks' streams are distinct: two ranks reading the same shard
# randomize each record independently (the same stream would give every
# record the same output twice); seeded, and without a seed
python3 - "$d/twin/a.csv" <<'PY'
import os, random, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
random.seed(11)
with open(sys.argv[1], "w") as f:
    f.write("id,s\n")
    for i in range(2000):
        f.write(f"{i},{random.randrange(4)}\n")
PY
cp "$d/twin/a.csv" "$d/twin/b.csv"
for seed in "--seed 9" ""; do
  rm -f "$d"/out/*
  run 2 rr --mechanism ldp -i "$d/twin/*.csv" -o "$d/out/tw-%r.csv" --sensitive s --insensitive id -p 0.2 $seed \
    --quiet 2>"$d/err"
  t "rr twins ${seed:-unseeded}: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
  t "rr twins ${seed:-unseeded}: the two ranks' draws differ" 'cmp_py pairs id s "$d"/out/tw-*.csv'
done

# rr --mechanism tclose and both, --partition ola, --domain: the single
# run's guarantee, levels, probabilities and OLA's node on Adult sorted by
# salary-class and cut in shards (the first ones hold '<=50K' only, so a
# rank whose RR-t drew from its own records instead of the whole data's
# would release far other counts) and as that one file cut in byte ranges
mkdir -p "$d/sorted"
python3 - "$A/adult.csv" "$d/sorted" <<'PY'
import sys
lines = open(sys.argv[1], newline="").read().splitlines(keepends=True)
head, body = lines[0], sorted(lines[1:], key=lambda l: l.rstrip("\r\n").split(";")[-1])
open(f"{sys.argv[2]}/all.csv", "w", newline="").write(head + "".join(body))
for i in range(3):
    part = body[i * len(body) // 3:(i + 1) * len(body) // 3]
    open(f"{sys.argv[2]}/s{i}.csv", "w", newline="").write(head + "".join(part))
PY
dom=(--domain 'salary-class=<=50K,>50K,unknown')
rcases=("tclose --t 2 --qi sex --qi race"
        "both --pt 0.5 --epsilon 1 --partition ola -k 5 --qi sex:${H}_sex.csv --qi age:${H}_age.csv --qi race:${H}_race.csv"
        "ldp --epsilon 1 --qi sex ${dom[*]}")
inputs=("$d/sorted/s*.csv" "$d/sorted/all.csv")
if [ "${KEPS_SANITIZED:-0}" = 1 ]; then inputs=("$d/sorted/s*.csv"); fi
for case in "${rcases[@]}"; do
  # the domain's value holds no blank: word splitting gives the flags
  rargs=(--mechanism $case --sensitive salary-class --others keep --seed 4 --quiet)
  "$keps" rr -i "$d/sorted/all.csv" -o "$d/single.csv" "${rargs[@]}" --report "$d/single.json" 2>/dev/null
  for np in $nps; do
    for input in "${inputs[@]}"; do
      rm -f "$d"/out/*
      run "$np" rr -i "$input" -o "$d/out/part-%r.csv" "${rargs[@]}" --report "$d/mpi.json" 2>"$d/err"
      t "rr $case np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
      t "rr $case np=$np $input: as the single run" \
        'cmp_py rr salary-class "$d/sorted/all.csv" "$d/single.json" "$d/mpi.json" "$d/single.csv" "$d"/out/part-*.csv'
    done
  done
done
# the last case: a declared domain, so epsilon-LDP without data-dependent parameters, over its 3 categories
t "rr --domain: the guarantee reads nothing from the data" \
  'python3 -c "import json,sys; g=json.load(open(sys.argv[1])); sys.exit(not (g[\"guarantee\"][\"model\"] == \"epsilon-LDP\" and not g[\"guarantee\"].get(\"data_dependent\") and g[\"categories\"] == 3))" "$d/mpi.json"'
t "rr --domain: no data-dependent warning" '! grep -q "reads from the data" "$d/err"'
# a cell outside the declared domain: exit 2 naming its own shard, line and column; no shard written
cp "$d/sorted/s0.csv" "$d/sorted/s1.csv" "$d/sorted/s2.csv" "$d/twin/"
python3 - "$d/twin/s2.csv" <<'PY'
import sys
p = sys.argv[1]
lines = open(p, newline="").read().split("\n")
lines[4] = lines[4].replace(">50K", "weird").replace("<=50K", "weird")
open(p, "w", newline="").write("\n".join(lines))
PY
for np in 1 2; do
  rm -f "$d"/out/*
  run "$np" rr --mechanism ldp -i "$d/twin/s*.csv" -o "$d/out/part-%r.csv" --sensitive salary-class --epsilon 1 \
    "${dom[@]}" --others keep --quiet 2>"$d/err"
  t "rr np=$np: a value outside --domain: exit 2, its shard, line and column named, no shard written" \
    '[ $? -eq 2 ] && grep -q "twin/s2.csv:5:9: .*.weird. is not in the domain of .salary-class." "$d/err" && [ -z "$(ls "$d/out")" ]'
done
t "rr --partition mondrian refused, saying why" \
  '! run 1 rr --mechanism ldp -i "$A/adult.csv" -o "$d/out/x.csv" --sensitive salary-class --qi sex --epsilon 1 --partition mondrian -k 5 2>"$d/err" && grep -q "keps-mpi has no Mondrian" "$d/err"'

# usage errors, as keps kepsilon says them; what keps-mpi cannot honour is
# refused with the reason; nothing runs
t "kepsilon --scale domain without --bounds refused" \
  '! run 2 kepsilon -i "$A/adult_height.csv" -o "$d/out/x-%r.csv" "${plain[@]}" --scale domain 2>"$d/err" && grep -q "scale domain needs --bounds height=LO:HI" "$d/err"'
t "kepsilon --bounds without --scale domain refused" \
  '! run 1 kepsilon -i "$A/adult_height.csv" -o "$d/out/x.csv" "${plain[@]}" --bounds height=1:2 2>"$d/err" && grep -q "bounds applies to --scale domain only" "$d/err"'
t "kepsilon --weight of no QI refused" \
  '! run 1 kepsilon -i "$A/adult_height.csv" -o "$d/out/x.csv" "${plain[@]}" --weight height=1 2>"$d/err" && grep -q "height.* is not a --qi column" "$d/err"'
t "kepsilon --metric dm --gs-factor refused" \
  '! run 1 kepsilon -i "$A/adult_height.csv" -o "$d/out/x.csv" "${plain[@]}" --metric dm --gs-factor 0.2 2>"$d/err" && grep -q "metric dm weighs no suppression" "$d/err"'
t "kepsilon --scale domain: a value outside the bounds named by its shard" \
  '! run 2 kepsilon -i "$d/parts/p*.csv" -o "$d/out/x-%r.csv" "${plain[@]}" --scale domain --bounds height=150:250 2>"$d/err" && grep -q "p01.csv:[0-9]*:10: column .height.: .* lies outside --bounds height=150:250" "$d/err"'
t "kepsilon --keep-order refused with the reason" \
  '! run 1 kepsilon -i "$A/adult_height.csv" -o "$d/out/x.csv" "${plain[@]}" --keep-order 2>"$d/err" && grep -q "keep-order is not taken: the rows are shuffled" "$d/err"'
t "anonymize --keep-order refused with the reason" \
  '! run 1 anonymize --algorithm ola -i "$A/adult_height.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 --keep-order 2>"$d/err" && grep -q "anonymize: --keep-order is not taken: .*run keps anonymize on one machine" "$d/err"'
t "anonymize --confidence refused" \
  '! run 1 anonymize --algorithm ola -i "$A/adult_height.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 --confidence 0.9 2>"$d/err" && grep -q "unknown option .--confidence." "$d/err"'
t "kepsilon without --noisy refused" \
  '! run 1 kepsilon -i "$A/adult_height.csv" -o "$d/out/x.csv" --algorithm ola "${qi[@]}" -k 5 --epsilon 1 2>"$d/err" && grep -q "noisy is required" "$d/err"'
t "no output after the refusals" '! ls "$d"/out/x* 2>/dev/null'
finish mpi_dp.sh
