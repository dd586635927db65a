#!/usr/bin/env bash
# keps risk -i on any table: ARX 3.9.2's figures for a release of Adult and
# for ARX's research subset against adult.csv through the command line, the
# independent oracles (measures, and brute-force minimal sample uniques with
# SUDA and DIS scores), the per-record output, and every usage error.
. "$(dirname "$0")/lib.bash"
cd "$src" || exit 1
rk() { "$keps" risk "$@" >"$d/stdout" 2>"$d/stderr"; }
# json EXPR: a Python expression over the report j (stdout) is true
json() { python3 -c "import json,sys; j=json.load(open('$d/stdout')); sys.exit(0 if ($1) else 1)" 2>/dev/null; }
# near A B [TOL]: relative agreement (Python expression values)
near() { echo "abs(($1) - ($2)) <= ${3:-1e-12} * max(abs($2), 1e-300)"; }
Q9="--qi sex --qi age --qi race --qi marital-status --qi education --qi native-country --qi workclass --qi occupation --qi salary-class"

# 1. The README's main job releases Adult 5-anonymous by OLA (8 QIs, 552 rows
#    suppressed); analysed on all 9 columns the suppressed rows keep their
#    salary-class and form classes of their own (ARX's rule: suppressed means
#    '*' in every QI). ARX's figures for that release, from
#      arx risk --data k5.csv --qi sex,age,race,marital-status,education,native-country,workclass,
#        occupation,salary-class --sampling-fraction 0.05
#    (the ARX 3.9.2 harness of tests/test_risk_arx.c): 395 classes of 30162 records; prosecutor
#    highest 1, average 0.013095948544526224, share at highest 0.0011272462038326371;
#    Pitman 7.480640561461449e-09 (Dankar: Pitman), Zayatz 2.4444101775298406e-05, SNB unavailable;
#    at --sampling-fraction 0.5: Pitman 2.5092178113792293e-06, Zayatz 0.00038903737769501687 (Dankar:
#    Zayatz).
"$keps" --job examples/adult-ola.yml --output "$d/k5.csv" --report "$d/k5.json" --quiet >/dev/null 2>&1
t "the README job releases Adult" "[ -s $d/k5.csv ]"
rk -i "$d/k5.csv" $Q9 --sampling-fraction 0.05 --json
t "release: exit 0" "[ $? -eq 0 ]"
t "release: ARX's classes and prosecutor risk" \
  "json 'j[\"class_count\"] == 395 and j[\"records\"] == 30162 and j[\"prosecutor\"][\"highest\"] == 1
        and $(near 'j["prosecutor"]["average"]' 0.013095948544526224)
        and $(near 'j["prosecutor"]["share_at_highest"]' 0.0011272462038326371)'"
t "release: ARX's population uniques at f = 0.05" \
  "json '$(near 'j["population_uniques"]["pitman"]' 7.480640561461449e-09 3e-11)
        and $(near 'j["population_uniques"]["zayatz"]' 2.4444101775298406e-05 3e-11)
        and j[\"population_uniques\"][\"snb\"] is None and j[\"population_uniques\"][\"model\"] == \"pitman\"
        and j[\"population_uniques\"][\"dankar\"] == j[\"population_uniques\"][\"pitman\"]'"
rk -i "$d/k5.csv" $Q9 --sampling-fraction 0.5 --json
t "release: ARX's population uniques at f = 0.5 (Dankar: Zayatz)" \
  "json '$(near 'j["population_uniques"]["pitman"]' 2.5092178113792293e-06 3e-11)
        and $(near 'j["population_uniques"]["zayatz"]' 0.00038903737769501687 3e-11)
        and j[\"population_uniques\"][\"model\"] == \"zayatz\"'"
# on its 8 QIs the release is 5-anonymous: no unique, every estimate 0 (ARX: 0, model DANKAR)
rk -i "$d/k5.csv" --qi sex --qi age --qi race --qi marital-status --qi education --qi native-country \
  --qi workclass --qi occupation --sampling-fraction 0.01 --json
t "release on its QIs: highest 1/5, 552 suppressed left out, no unique" \
  "json 'j[\"prosecutor\"][\"highest\"] == 0.2 and j[\"suppressed_rows\"] == 552 and j[\"records\"] == 29610
        and j[\"population_uniques\"][\"pitman\"] == 0 and j[\"population_uniques\"][\"model\"] is None
        and j[\"suda2\"][\"special_uniques\"] == 0'"

# 2. ARX's research subset against adult.csv as the population table; the
#    population size defaults to its rows (30162). ARX (--population-size 30162
#    --population-table data/adult/adult.csv, 4 QIs): journalist highest 1,
#    average 0.05839672612680962, marketer 0.05839672612680962, Pitman
#    0.025363779701573698 (Dankar: Pitman).
rk -i data/adult/adult_subset.csv --population data/adult/adult.csv --qi sex --qi age --qi race \
  --qi marital-status --json
t "subset: ARX's journalist and marketer risk against the population table" \
  "json 'j[\"journalist\"][\"highest\"] == 1 and $(near 'j["journalist"]["average"]' 0.05839672612680962)
        and $(near 'j["marketer"]["average"]' 0.05839672612680962)
        and j[\"population_uniques\"][\"population_size\"] == 30162
        and $(near 'j["population_uniques"]["pitman"]' 0.025363779701573698 3e-11)'"
# a table that is not part of the population: the first record missing there
printf 'sex;age;race;marital-status\nMale;17;Other;Widowed\n' >"$d/alien.csv"
rk -i "$d/alien.csv" --population data/adult/adult.csv --qi sex --qi age --qi race --qi marital-status
t "a record the population lacks: exit 2 naming its line" \
  "[ $? -eq 2 ] && grep -q 'alien.csv:2:1:.*occur 1 time in .* but 0 times in the population' $d/stderr"

# 2b. Individual risk with sampling weights against sdcMicro's own indivRisk
#    (R/indivRisk.R of sdcMicro 5.8.1, run on R 4.2.2 with f_k and F_k from base
#    R's ave() over the 5 keys): Adult with the synthetic weight 1 + (7919 i mod 13)/3
#    of row i (from 0); sdcMicro: sum of the risks 3143.1572360543159, every
#    record's risk within 7e-16 of keps's.
python3 -c "
rows=[l.rstrip('\r\n').split(';') for l in open('data/adult/adult.csv')]
with open('$d/adultw.csv','w') as f:
    f.write(';'.join(rows[0]+['w'])+'\n')
    for i,r in enumerate(rows[1:]): f.write(';'.join(r+[repr(1+(i*7919)%13/3)])+'\n')"
rk -i "$d/adultw.csv" --qi sex --qi age --qi race --qi marital-status --qi education --weights w --json
t "weights: sdcMicro's expected re-identifications" \
  "json '$(near 'j["individual_risk"]["expected_reidentifications"]' 3143.1572360543159 1e-13)
        and j[\"individual_risk\"][\"weights\"] == \"w\"'"

# 3. Independent oracles on random small tables (fewer cases under sanitizers).
n=300; [ -n "${KEPS_SANITIZED:-}" ] && n=40
for o in risk_measures suda; do
  mkdir -p "$d/$o"
  python3 tests/oracles/${o}_oracle.py "$keps" "$d/$o" $n >"$d/$o.log" 2>&1; rc=$?
  tail -n 3 "$d/$o.log" | grep -v '^OK'
  t "$o oracle agrees on $n tables" "[ $rc -eq 0 ]"
done

# 4. The per-record output (-o): one row per input row in input order; the
#    SDC guidelines' example, SUDA scores 0 0 6 0 12 0 6 10 0 0 (sdcMicro).
printf 'Residence,Gender,Education,Labor\nUrban,Female,Secondary incomplete,Employed\nUrban,Female,Secondary incomplete,Employed\nUrban,Female,Primary incomplete,Non-LF\nUrban,Male,Secondary complete,Employed\nRural,Female,Secondary complete,Unemployed\nUrban,Male,Secondary complete,Employed\nUrban,Female,Primary complete,Non-LF\nUrban,Male,Post-secondary,Unemployed\nUrban,Female,Secondary incomplete,Non-LF\nUrban,Female,Secondary incomplete,Non-LF\n' >"$d/guide.csv"
rk -i "$d/guide.csv" --qi Residence --qi Gender --qi Education --qi Labor --max-combination 4 -o "$d/rec.csv"
t "-o: exit 0, header and 10 rows" "[ $? -eq 0 ] && [ \$(wc -l <$d/rec.csv) -eq 11 ] && head -1 $d/rec.csv | grep -q '^row,line,class_size,prosecutor,individual_risk,suda_score,dis_score,msus$'"
t "-o: sdcMicro's SUDA scores" "[ \"\$(cut -d, -f6 $d/rec.csv | tail -n +2 | tr '\n' ' ')\" = '0 0 6 0 12 0 6 10 0 0 ' ]"
rk -i "$d/guide.csv" --qi Residence -o "$d/guide.csv"
t "-o naming the input: exit 2, input intact" "[ $? -eq 2 ] && [ \$(wc -l <$d/guide.csv) -eq 11 ]"

# 5. The old trick --original X --release X still works and agrees with -i.
rk --original data/adult/adult.csv --release data/adult/adult.csv --qi sex --qi age --json
cp "$d/stdout" "$d/old.json"
rk -i data/adult/adult.csv --qi sex --qi age --json
t "--original X --release X and -i X: same prosecutor figures" \
  "python3 -c \"import json; a=json.load(open('$d/old.json')); b=json.load(open('$d/stdout'));
import sys; sys.exit(0 if a['prosecutor']==b['prosecutor'] and a['metrics']['prosecutor_max']==b['prosecutor']['highest'] else 1)\""
t "-i: no record linkage keys" "json '\"record_linkage\" not in j[\"metrics\"]'"

# 6. Usage errors: exit 2 with a message saying what to do.
bad() { rk "$@"; [ $? -eq 2 ] && grep -q -e "$msg" "$d/stderr"; }
msg='--qi is required'; t "no --qi" "bad -i data/adult/adult.csv"
msg='give the table once'; t "-i and --release" "bad -i data/adult/adult.csv --release data/adult/adult.csv --qi sex"
msg='name the table to analyse'; t "no table" "bad --qi sex"
msg='give the release as --release'; t "--original with -i" "bad -i data/adult/adult.csv --original data/adult/adult.csv --qi sex"
msg='there are only 2 quasi-identifiers'; t "--max-combination above the QIs" "bad -i data/adult/adult.csv --qi sex --qi age --max-combination 3"
msg='not both'; t "--population-size and --sampling-fraction" "bad -i data/adult/adult.csv --qi sex --population-size 100000 --sampling-fraction 0.1"
msg='smaller than'; t "population below the rows" "bad -i data/adult/adult.csv --qi sex --population-size 1000"
msg='need --original'; t "--columns without --original" "bad -i data/adult/adult.csv --qi sex --columns age"
msg="has no column 'nosuch'"; t "unknown --qi" "bad -i data/adult/adult.csv --qi nosuch"
msg='is also a --qi'; t "--weights that is a QI" "bad -i data/adult/adult.csv --qi age --weights age"
msg='adult.csv:2:1: .*not a number'; t "non-numeric --weights" "bad -i data/adult/adult.csv --qi age --weights sex"
printf 'q,w\na,1\nb,0\n' >"$d/w0.csv"
msg='w0.csv:3:2: .*weights must be positive'; t "--weights 0" "bad -i $d/w0.csv --qi q --weights w"
printf 'q,w\na,1\nb,\n' >"$d/wm.csv"
msg='wm.csv:3:2: .*missing sampling weight'; t "missing weight" "bad -i $d/wm.csv --qi q --weights w"
msg='given twice'; t "a QI twice" "bad -i data/adult/adult.csv --qi sex --qi sex"

# 7. An empty table: every risk 0, nothing to estimate.
printf 'a,b\n' >"$d/empty.csv"
rk -i "$d/empty.csv" --qi a --qi b --sampling-fraction 0.5 --json
t "empty table: exit 0, risks 0" "[ $? -eq 0 ] && json 'j[\"prosecutor\"][\"highest\"] == 0 and j[\"records\"] == 0 and j[\"population_uniques\"] is None'"
finish risk
