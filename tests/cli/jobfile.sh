#!/usr/bin/env bash
# Job files: values apply, flags override them, `keps --job` takes the
# command from the file; and no randomness outside the CSPRNG module.
. "$(dirname "$0")/lib.bash"
# 6 rows: a,a,a,b,b,c. With k=2 and no suppression the bottom node fails
# (c is alone) and sex must be generalized to *; with k=7 nothing works.
printf 'sex,age\na,1\na,1\na,1\nb,1\nb,1\nc,1\n' >"$d/in.csv"
printf 'a;*\nb;*\nc;*\n' >"$d/sex.csv"
printf '1;*\n' >"$d/age.csv"
cat >"$d/job.yml" <<YML
command: anonymize
algorithm: ola
input: $d/in.csv
output: $d/out.csv
qi: ["sex:$d/sex.csv", "age:$d/age.csv"]
k: 7
keep-order: true
quiet: true
YML
"$keps" --job "$d/job.yml" >/dev/null 2>&1; rc=$?
t "k=7 from the job file is impossible: exit 1" "[ $rc -eq 1 ]"
t "no output file after exit 1" "[ ! -e $d/out.csv ]"
"$keps" --job "$d/job.yml" -k 2 --json >"$d/r.json" 2>/dev/null; rc=$?
t "-k 2 on the command line overrides k: 7" "[ $rc -eq 0 ]"
t "the override is what ran (k 2 in the guarantee)" "grep -q '\"guarantee\":{[^}]*\"k\":2' $d/r.json"
t "sex generalized to * by the job's hierarchy" "[ \$(grep -c '^\*,' $d/out.csv) -eq 6 ]"
"$keps" anonymize --job "$d/job.yml" -k 2 --json >/dev/null 2>&1; t "keps CMD --job also works" "[ $? -eq 0 ]"
# The report's parameters keep their types: numbers as spelled (.5 as 0.5,
# which JSON cannot spell), flags as booleans, names as strings.
"$keps" --job "$d/job.yml" -k 2 --suppress .5 --json --seed 007 >"$d/p.json" 2>/dev/null
t "parameters: k is the number 2" "grep -q '\"parameters\":{[^}]*\"k\":2[,}]' $d/p.json"
t "parameters: .5 is the number 0.5" "grep -q '\"parameters\":{[^}]*\"suppress\":0.5[,}]' $d/p.json"
t "parameters: seed 007 is the number 7" "grep -q '\"parameters\":{[^}]*\"seed\":7[,}]' $d/p.json"
t "parameters: keep-order is true" "grep -q '\"parameters\":{[^}]*\"keep-order\":true[,}]' $d/p.json"
t "parameters: the algorithm is a string" "grep -q '\"parameters\":{[^}]*\"algorithm\":\"ola\"' $d/p.json"

# A flag in a job file takes YAML's booleans (yes/no too, stored as true or
# false); any other value, an empty one included, is refused at its line.
sed 's/^keep-order: true$/keep-order: yes/' "$d/job.yml" >"$d/yes.yml"
"$keps" --job "$d/yes.yml" -k 2 --json >"$d/y.json" 2>/dev/null
t "keep-order: yes is true" "grep -q '\"keep-order\":true[,}]' $d/y.json"
sed 's/^keep-order: true$/keep-order:/' "$d/job.yml" >"$d/empty.yml"
rm -f "$d/out.csv"; "$keps" --job "$d/empty.yml" -k 2 >/dev/null 2>"$d/err"; rc=$?
t "keep-order with no value: exit 2 at its line, no output" "[ $rc -eq 2 ] && [ ! -e $d/out.csv ] && grep -q \"empty.yml:7:1: option 'keep-order' is a flag\" $d/err"

# an unquoted interval spec in a flow list splits at its commas: the error
# names the job file's line and says to quote it
cat >"$d/split.yml" <<YML
command: anonymize
algorithm: ola
input: $d/in.csv
output: $d/split.csv
k: 2
others: keep
qi: [age:interval=5,10,20, "sex:$d/sex.csv"]
YML
"$keps" --job "$d/split.yml" >/dev/null 2>"$d/err"; rc=$?
t "split interval spec: exit 2, no output" "[ $rc -eq 2 ] && [ ! -e $d/split.csv ]"
t "split interval spec: names the job line and the fix" "grep -q 'split.yml:7:1: the --qi value .10. came from here; YAML splits' $d/err"

# All randomness goes through src/rng.c (libsodium): no libc generators.
hits=$(grep -rnE --exclude=jobfile.sh '\b(rand|random|drand48|erand48|lrand48|srand|srandom|rand_r|arc4random)[[:space:]]*\(' \
        "$src/src" "$src/include" "$src/tests" "$src/bench" "$src/fuzz" 2>/dev/null | grep -v '^.*: \*' | grep -v 'never rand()' || true)
t "no rand()/random()/drand48() anywhere: $hits" "[ -z \"\$hits\" ]"
finish jobfile.sh
