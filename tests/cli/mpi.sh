#!/usr/bin/env bash
# keps-mpi against keps on one process (docs/scale.md): Adult in shards and
# as one file cut in byte ranges at -np 1, 2 and 4 gives the same node,
# score, counts and metrics as `keps anonymize`, and the output shards
# together hold the same multiset of rows; the frequency table of `count`
# equals a count made here in Python; rows leave their input rank at
# random; a quoted line break in byte-range mode and a value missing from
# a hierarchy on one rank fail every rank with the file and line, leaving
# no output. Skipped (exit 77) without keps-mpi and mpirun, unless
# KEPS_REQUIRE_MPI=1 (scripts/test.sh installs Open MPI).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/mpi_lib.bash"

A=$src/data/adult
H=$A/adult_hierarchy
qi=(--qi "sex:${H}_sex.csv" --qi "age:interval=5,10,20" --qi "race:${H}_race.csv"
    --qi "marital-status:${H}_marital-status.csv" --qi "education:${H}_education.csv"
    --qi "native-country:${H}_native-country.csv" --qi "workclass:${H}_workclass.csv"
    --qi "occupation:${H}_occupation.csv")
mkdir -p "$d/parts" "$d/out"
head -n 1 "$A/adult.csv" >"$d/head"
tail -n +2 "$A/adult.csv" >"$d/body"
split -n l/5 -d "$d/body" "$d/b"
for f in "$d"/b0*; do cat "$d/head" "$f" >"$d/parts/p${f##*/b}.csv"; done

for case in "5 0.02" "10 0"; do
  set -- $case
  "$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$d/single.csv" "${qi[@]}" --sensitive salary-class \
    -k "$1" --suppress "$2" --report "$d/single.json" --seed 1 --quiet 2>/dev/null
  for np in 1 2 4; do
    for input in "$d/parts/p*.csv" "$A/adult.csv"; do
      rm -f "$d"/out/*
      run "$np" anonymize --algorithm ola -i "$input" -o "$d/out/part-%r.csv" "${qi[@]}" --sensitive salary-class \
        -k "$1" --suppress "$2" --report "$d/mpi.json" --seed 1 --quiet 2>"$d/err"
      t "k=$1 np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
      t "k=$1 np=$np $input: report as the single run" 'cmp_py report "$d/single.json" "$d/mpi.json"'
      t "k=$1 np=$np $input: $np shards" '[ $(ls "$d"/out | wc -l) -eq $np ]'
      t "k=$1 np=$np $input: same rows" 'cmp_py rows "$d/single.csv" "$d"/out/part-*.csv'
    done
  done
done
# the privacy criteria and quality models of keps anonymize: rank 0 searches
# the merged frequency table of the QIs and the sensitive column, and the
# whole report (guarantee, node, score, metrics, parameters) and the rows
# are the single run's. -k 30000 lands on the top node, whose one class
# (every QI '*') is released: the case a '*' row does not mean suppressed.
cases=("-k 5 --suppress 0.02 --l-diversity 2 -m prec"
       "-k 5 --suppress 0.05 --t-closeness 0.2 --remove-suppressed"
       "-k 4 --k-map 4 --population-size 100000 --suppress 0.05 --weight age=2 --aggregate sum"
       "-k 3 --suppress 0.04 --recursive-l 4,2 -m loss"
       "-k 30000 --suppress 0.01")
nps=(2 4)
[ "${KEPS_SANITIZED:-0}" = 1 ] && { cases=("${cases[0]}" "${cases[4]}"); nps=(2); }
i=0
for c in "${cases[@]}"; do
  read -ra x <<<"$c"
  "$keps" anonymize --algorithm ola -i "$A/adult.csv" -o "$d/single.csv" "${qi[@]}" --sensitive salary-class \
    "${x[@]}" --report "$d/single.json" --seed 1 --quiet 2>/dev/null
  for np in "${nps[@]}"; do
    input=$([ $((i % 2)) = 0 ] && echo "$d/parts/p*.csv" || echo "$A/adult.csv")
    i=$((i + 1))
    rm -f "$d"/out/*
    run "$np" anonymize --algorithm ola -i "$input" -o "$d/out/part-%r.csv" "${qi[@]}" --sensitive salary-class \
      "${x[@]}" --report "$d/mpi.json" --seed 1 --quiet 2>"$d/err"
    t "$c np=$np: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
    t "$c np=$np: report as the single run" 'cmp_py report "$d/single.json" "$d/mpi.json"'
    t "$c np=$np: same rows" 'cmp_py rows "$d/single.csv" "$d"/out/part-*.csv'
  done
done
# no node: the single run's message and exit code, no output
rm -f "$d"/out/*
run 2 anonymize --algorithm ola -i "$d/parts/p*.csv" -o "$d/out/part-%r.csv" "${qi[@]}" --sensitive salary-class \
  -k 3 --suppress 0.1 --entropy-l 2 --quiet 2>"$d/err"
rc=$?
t "infeasible: exit 1 as keps" '[ $rc -eq 1 ]'
t "infeasible: why" 'grep -q "no node satisfies k-anonymity k=3, entropy-l-diversity l=2" "$d/err"'
t "infeasible: no output" '[ -z "$(ls "$d/out")" ]'
# -i several times, --json on stdout, --html; flags that need the rows in one place refused
rm -f "$d"/out/*
run 2 anonymize --algorithm ola -i "$d/parts/p00.csv" -i "$d/parts/p01.csv" --input="$d/parts/p02.csv" \
  -i "$d/parts/p03.csv" -i "$d/parts/p04.csv" -o "$d/out/part-%r.csv" "${qi[@]}" --sensitive salary-class -k 5 \
  --suppress 0.02 --seed 1 --json --report "$d/mpi.json" --html "$d/mpi.html" >"$d/stdout" 2>"$d/err"
t "five -i, --json, --html: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
t "--json prints the report" 'python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))" "$d/stdout" "$d/mpi.json"'
t "--html writes the page" 'grep -q "<html" "$d/mpi.html" && grep -q "keps-mpi\|ola" "$d/mpi.html"'
t "--json: five files read" 'python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"mpi\"][\"input_files\"] != 5)" "$d/mpi.json"'
run 1 anonymize --algorithm ola -i "$A/adult.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 --keep-order 2>"$d/err"
t "--keep-order refused" '[ $? -eq 2 ] && grep -q "keep-order is not taken: the rows are shuffled" "$d/err"'
run 1 anonymize --algorithm ola -i "$A/adult.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 --l-diversty 2 2>"$d/err"
t "a misspelt flag: the CLI's message" '[ $? -eq 2 ] && grep -q "unknown option .--l-diversty." "$d/err"'

# a job file, as keps reads it
printf 'algorithm: ola\nqi:\n  - sex:%s_sex.csv\n  - age:interval=5,10,20\nsensitive: salary-class\nothers: drop\nk: 5\nl-diversity: 2\nsuppress: 0.02\n' "$H" >"$d/job.yml"
"$keps" anonymize --job "$d/job.yml" -i "$A/adult.csv" -o "$d/single.csv" --report "$d/single.json" --seed 1 --quiet 2>/dev/null
rm -f "$d"/out/*
run 2 anonymize --job "$d/job.yml" -i "$A/adult.csv" -o "$d/out/part-%r.csv" --report "$d/mpi.json" --seed 1 --quiet 2>"$d/err"
t "--job: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
t "--job: report as the single run" 'cmp_py report "$d/single.json" "$d/mpi.json"'

# missing values: counted over every rank's rows, as the single run counts them
python3 - "$d/miss.csv" <<'PY'
import random, sys
random.seed(3)
with open(sys.argv[1], "w") as f:
    f.write("a,b,note\n")
    for i in range(3000):
        f.write(f"{random.randrange(6)},{random.randrange(4)},{'?' if i % 7 == 0 else random.randrange(9)}\n")
PY
"$keps" anonymize --algorithm ola -i "$d/miss.csv" -o "$d/single.csv" --qi a:interval=2,6 --qi b:interval=2 \
  --insensitive note --missing '?' -k 40 --suppress 0.1 --report "$d/single.json" --seed 1 --quiet 2>/dev/null
rm -f "$d"/out/*
run 3 anonymize --algorithm ola -i "$d/miss.csv" -o "$d/out/part-%r.csv" --qi a:interval=2,6 --qi b:interval=2 \
  --insensitive note --missing '?' -k 40 --suppress 0.1 --report "$d/mpi.json" --seed 1 --quiet 2>"$d/err"
t "missing values: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
t "missing values: 429 counted (every 7th of 3000 rows, i = 0, 7, ..., 2996), as the single run" 'cmp_py report "$d/single.json" "$d/mpi.json" && python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"missing_values\"] != {\"note\": 429})" "$d/mpi.json"'
t "missing values: same rows" 'cmp_py rows "$d/single.csv" "$d"/out/part-*.csv'

t "byte ranges named in the report" 'python3 -c "import json,sys; sys.exit(json.load(open(\"$d/mpi.json\"))[\"mpi\"][\"input\"] != \"byte ranges\")"'
t "the reduction sent bytes" 'python3 -c "import json,sys; sys.exit(json.load(open(\"$d/mpi.json\"))[\"mpi\"][\"bytes_sent\"][\"merge\"] <= 0)"'

# count: the merged frequency table against a count of the inputs read in Python
for np in 1 3; do
  run "$np" count -i "$d/parts/p*.csv" --qi sex --qi age --qi race --counts n -o "$d/counts.csv" --quiet
  t "count np=$np" 'cmp_py count "$d"/parts/p*.csv -- "$d/counts.csv" n sex age race'
done

# the shuffle: every shard holds rows of both halves of the input, out of order
python3 - "$d/ids.csv" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    f.write("id,a,b\n")
    for i in range(4000):
        f.write(f"{i},{random.randrange(4)},{random.randrange(3)}\n")
PY
printf 'a\n0\n1\n2\n3\n' >/dev/null
rm -f "$d"/out/*
run 2 anonymize --algorithm ola -i "$d/ids.csv" -o "$d/out/s-%r.csv" --qi a:interval=2 --qi b:interval=3 \
  --insensitive id -k 2 --quiet 2>"$d/err"
t "shuffle run" '[ $? -eq 0 ] || cat "$d/err"'
t "rows leave their rank at random" 'cmp_py spread id 4000 "$d"/out/s-*.csv'

# a quoted line break cannot be cut safely: refused with its line, no output
{ cat "$d/ids.csv"; printf '4000,"1\n2",0\n'; } >"$d/quoted.csv"
rm -f "$d"/out/*
run 2 anonymize --algorithm ola -i "$d/quoted.csv" -o "$d/out/q-%r.csv" --qi a:interval=2 --qi b:interval=3 \
  --insensitive id -k 2 --quiet 2>"$d/err"
rc=$?
t "quoted line break: exit 2" '[ $rc -eq 2 ]'
t "quoted line break: file and line named" 'grep -q "quoted.csv:4002: a quoted field holds a line break" "$d/err"'
t "quoted line break: no output" '[ -z "$(ls "$d/out")" ]'

# a value missing from a hierarchy in the last shard: every rank fails, nothing written
sed 's/^Male;/Mle;/' "$d/parts/p04.csv" >"$d/bad.csv"
mkdir -p "$d/badparts"
cp "$d"/parts/p0[0-3].csv "$d/badparts/"; cp "$d/bad.csv" "$d/badparts/p9bad.csv"
run 2 anonymize --algorithm ola -i "$d/badparts/*.csv" -o "$d/out/b-%r.csv" "${qi[@]}" --sensitive salary-class \
  -k 5 --quiet 2>"$d/err"
rc=$?
t "missing hierarchy value: exit 2" '[ $rc -eq 2 ]'
t "missing hierarchy value: named" 'grep -q "p9bad.csv:$(grep -n "^Mle;" "$d/bad.csv" | head -1 | cut -d: -f1):1: column .sex.: value .Mle." "$d/err"'
t "missing hierarchy value: no output" '[ -z "$(ls "$d/out")" ]'

# shards of another layout on another rank: refused before any collective
# step that depends on the columns (no rank waits for the others forever)
mkdir -p "$d/mixed"
cp "$d/parts/p00.csv" "$d/mixed/p00.csv"
awk -F';' 'BEGIN { OFS=";" } { t = $1; $1 = $2; $2 = t; print }' "$d/parts/p01.csv" >"$d/mixed/p01.csv"
rm -f "$d"/out/*
run 2 anonymize --algorithm ola -i "$d/mixed/p*.csv" -o "$d/out/m-%r.csv" "${qi[@]}" --sensitive salary-class \
  -k 5 --quiet 2>"$d/err"
rc=$?
t "other header on rank 1: exit 2" '[ $rc -eq 2 ]'
t "other header on rank 1: named" 'grep -q "p01.csv:1: its header differs from the first shard" "$d/err"'
t "other header on rank 1: no output" '[ -z "$(ls "$d/out")" ]'

# 2M generated Adult-like rows (bench/gen_adult), one file in byte ranges and
# in four shards: the single run's report and multiset of rows at -np 1, 2, 4.
# Not under the sanitizers (minutes there); rows compared by sort.
gen=$(dirname "$keps")/bench/gen_adult
if [ -x "$gen" ] && [ "${KEPS_SANITIZED:-0}" != 1 ]; then
  "$gen" 2000000 "$d/big.csv" 7
  qi6=()
  for c in sex age race marital-status education workclass; do qi6+=(--qi "$c:${H}_$c.csv"); done
  mkdir -p "$d/bigparts"
  head -n 1 "$d/big.csv" >"$d/bighead"
  tail -n +2 "$d/big.csv" >"$d/bigbody" && split -n l/4 -d "$d/bigbody" "$d/bigb" && rm "$d/bigbody"
  for f in "$d"/bigb0*; do cat "$d/bighead" "$f" >"$d/bigparts/p${f##*/bigb}.csv" && rm "$f"; done
  "$keps" anonymize --algorithm ola -i "$d/big.csv" -o "$d/bigsingle.csv" "${qi6[@]}" --others keep -k 5 \
    --suppress 0.02 --report "$d/bigsingle.json" --seed 1 --quiet 2>/dev/null
  tail -n +2 "$d/bigsingle.csv" | LC_ALL=C sort >"$d/bigsingle.sorted"
  for np in 1 2 4; do
    for input in "$d/big.csv" "$d/bigparts/p*.csv"; do
      rm -f "$d"/out/*
      run "$np" anonymize --algorithm ola -i "$input" -o "$d/out/part-%r.csv" "${qi6[@]}" --others keep -k 5 \
        --suppress 0.02 --report "$d/mpi.json" --seed 1 --quiet 2>"$d/err"
      t "2M np=$np $input: exit 0" '[ $? -eq 0 ] || cat "$d/err"'
      t "2M np=$np $input: report as the single run" 'cmp_py report "$d/bigsingle.json" "$d/mpi.json"'
      t "2M np=$np $input: same rows" \
        'for f in "$d"/out/part-*.csv; do tail -n +2 "$f"; done | LC_ALL=C sort | cmp -s - "$d/bigsingle.sorted"'
    done
  done
  rm -rf "$d/big.csv" "$d/bigparts" "$d/bigsingle.csv" "$d/bigsingle.sorted" "$d"/out/*
fi

# usage errors
t "several ranks need %r" '! run 2 anonymize --algorithm ola -i "$A/adult.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 --others keep 2>"$d/err" && grep -q "has no %r" "$d/err"'
t "mondrian refused" '! run 1 anonymize --algorithm mondrian -i "$A/adult.csv" -o "$d/out/x.csv" "${qi[@]}" -k 5 2>"$d/err" && grep -q "keps-mpi anonymizes by ola" "$d/err"'
finish mpi.sh
