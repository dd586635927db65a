#!/bin/bash
# What the DP commands state about their guarantee (docs/cli.md, "Guarantee
# labels"; docs/spec.md 15): parameters read from the data, columns not
# covered, the refusals that keep a release within its statement, rr's
# --domain, noise -i/-o, and the stated epsilon never above the request.
. "$(dirname "$0")/lib.bash"
H=$src/data/adult
run() { rm -f "$d/o.csv"; "$keps" "$@" >"$d/out" 2>"$d/err"; }

# ---- dpmicro ----------------------------------------------------------------
printf 'x,y\n0.1,5\n0.2,6\n0.3,7\n0.4,8\n' >"$d/x.csv"
run dpmicro -i "$d/x.csv" -o "$d/o.csv" --qi x --qi y -k 2 --epsilon 1 --bounds x=0:1 --others drop --report "$d/r.json" --quiet
t "dpmicro, y without bounds: exit 0" "[ $? -eq 0 ]"
t "dpmicro: data_dependent names the bounds read from the data" "grep -q '\"data_dependent\":\[\"bounds: y\"\]' $d/r.json"
t "dpmicro: model epsilon-DP (data-dependent)" "grep -q '\"model\":\"epsilon-DP (data-dependent)\"' $d/r.json"
t "dpmicro: the warning prints with --quiet" "grep -q 'read from the data, not public: bounds: y' $d/err"
run dpmicro -i "$d/x.csv" -o "$d/o.csv" --qi x --qi y -k 2 --epsilon 1 --bounds x=0:1 --others drop
t "dpmicro: the summary says so" "grep -q 'epsilon-DP (data-dependent)' $d/out"
t "dpmicro: report_note" "grep -q '\"report_note\":\"metrics (SSE' $d/r.json"
run dpmicro -i "$d/x.csv" -o "$d/o.csv" --qi x --qi y -k 2 --epsilon 1 --bounds x=0:1 --bounds y=0:10 --others drop \
  --report "$d/r.json" --quiet
t "dpmicro with public bounds: plain epsilon-DP, no data_dependent item" \
  "grep -q '\"model\":\"epsilon-DP\"' $d/r.json && grep -q '\"data_dependent\":\[\]' $d/r.json && ! grep -q 'not public' $d/err"
# the stated epsilon never exceeds the request: 1 (grid rounding included), the scale drawn a hair above the formula's
eps=$(grep -o '"guarantee":{[^}]*' "$d/r.json" | grep -o '"epsilon":[0-9.e+-]*' | cut -d: -f2)
t "dpmicro: stated epsilon $eps <= 1 and within 1e-9 of it" \
  "awk -v e=$eps 'BEGIN { exit !(e <= 1 && e > 1 - 1e-9) }'"
t "dpmicro: noise_scale_used beside the formula's noise_scale" "grep -q '\"noise_scale_used\":{\"x\":' $d/r.json"
# --keep-order with k > 1: refused (exit 2, why and what to do); k = 1 and --unlink-columns keep it
run dpmicro -i "$d/x.csv" -o "$d/o.csv" --qi x -k 2 --epsilon 1 --bounds x=0:1 --others drop --keep-order
t "dpmicro --keep-order -k 2: exit 2, no output" "[ $? -eq 2 ] && [ ! -e $d/o.csv ] && grep -q 'Drop --keep-order' $d/err"
run dpmicro -i "$d/x.csv" -o "$d/o.csv" --qi x -k 1 --epsilon 1 --bounds x=0:1 --others drop --keep-order
t "dpmicro --keep-order -k 1: allowed" "[ $? -eq 0 ]"
run dpmicro --mode univariate --unlink-columns -i "$d/x.csv" -o "$d/o.csv" --qi x --qi y -k 2 --epsilon 1 \
  --bounds x=0:1 --bounds y=0:10 --others drop --keep-order
t "dpmicro --keep-order --unlink-columns -k 2: allowed" "[ $? -eq 0 ]"

# ---- safela -----------------------------------------------------------------
{ echo 'sex;race;c'; for i in $(seq 60); do echo 'Male;White;a'; done; for i in $(seq 60); do echo 'Female;White;a'; done
  echo 'Male;White;Z'; } >"$d/s.csv"
Q="--qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv"
printf 'command: safela\nremove-suppressed: false\n' >"$d/job.yml"
run safela --job "$d/job.yml" -i "$d/s.csv" -o "$d/o.csv" $Q --sensitive c -k 10 --beta 0.5
t "safela remove-suppressed: false: exit 2, why, where" \
  "[ $? -eq 2 ] && [ ! -e $d/o.csv ] && grep -q 'job.yml:2:1: safela cannot write suppressed rows starred' $d/err"
run safela -i "$d/s.csv" -o "$d/o.csv" $Q --sensitive c -k 10 --beta 1/2 --seed 3 --report "$d/r.json" --quiet \
  --keep-order --remove-suppressed
t "safela --remove-suppressed (the default): exit 0" "[ $? -eq 0 ]"
# the row with c = Z is a class of its own over (sex, race, c): suppressed and removed, never released
t "safela: Z (unique on the raw column c) is not released, no row starred" "! grep -q 'Z' $d/o.csv && ! grep -q '\*' $d/o.csv"
t "safela: the guarantee covers the whole release, nothing data-dependent or uncovered" \
  "grep -q '\"covers\":\"the whole release' $d/r.json && grep -q '\"data_dependent\":\[\],\"not_covered\":\[\]' $d/r.json"
rel=$(grep -o '"released_rows":[0-9]*' "$d/r.json" | cut -d: -f2); rem=$(grep -o '"removed_rows":[0-9]*' "$d/r.json" | cut -d: -f2)
sup=$(grep -o '"suppressed_rows":[0-9]*' "$d/r.json" | cut -d: -f2); uns=$(grep -o '"unsampled_rows":[0-9]*' "$d/r.json" | cut -d: -f2)
t "safela: released + suppressed + unsampled = 121, removed = suppressed, rows written = released" \
  "[ \$(($rel + $sup + $uns)) -eq 121 ] && [ $rem -eq $sup ] && [ \$((\$(wc -l <$d/o.csv) - 1)) -eq $rel ]"
# an explicit epsilon is stated as given
run safela -i "$d/s.csv" -o "$d/o.csv" $Q --others drop -k 10 --beta 0.5 --epsilon 1.7 --seed 3 --report "$d/r.json"
t "safela --epsilon 1.7: stated 1.7" "grep -q '\"epsilon\":1.7,' $d/r.json"

# ---- rr --domain ------------------------------------------------------------
{ echo 's,q'; for i in $(seq 30); do echo "A,x"; echo "B,x"; done; echo "Z,y"; } >"$d/r.csv"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --qi q --epsilon 1 --seed 1 --report "$d/r.json" --quiet
t "rr without --domain: data-dependent, named, warned" \
  "grep -q '\"model\":\"epsilon-LDP (data-dependent)\"' $d/r.json && grep -q '\"domain_from_data\":true' $d/r.json && grep -q 'not public: domain' $d/err"
t "rr: the QI is not covered, and said so" "grep -q '\"not_covered\":\[\"q\"\]' $d/r.json && grep -q 'q is released outside the guarantee' $d/err"
t "rr: Def. 8's level is labelled (not DP of the release)" "grep -q 'not epsilon-DP of the release' $d/r.json"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --qi q --epsilon 1 --seed 1 --domain 's=A,B,Z,W' \
  --report "$d/r.json" --quiet
t "rr --domain s=A,B,Z,W: plain epsilon-LDP over 4 categories" \
  "grep -q '\"model\":\"epsilon-LDP\"' $d/r.json && grep -q '\"categories\":4' $d/r.json && grep -q '\"domain_from_data\":false' $d/r.json"
# p for epsilon 1 over n = 4: (e - 1)/(e - 1 + 4) = 0.300480... (by hand)
t "rr --domain: p from the public n = 4" "grep -q '\"p\":0.30048' $d/r.json"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --epsilon 1 --domain s=A,B --others keep
t "rr: a value outside the domain: exit 2 naming file, line, column" \
  "[ $? -eq 2 ] && [ ! -e $d/o.csv ] && grep -q 'r.csv:62:1: .*.Z. is not in the domain of .s. given by --domain s=A,B' $d/err"
printf 'A\n"B"\n  Z  \n' >"$d/dom.txt"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --epsilon 1 --domain "s=@$d/dom.txt" --others keep \
  --report "$d/r.json" --quiet
t "rr --domain s=@FILE (quoted, trimmed as in a CSV): 3 categories" "[ $? -eq 0 ] && grep -q '\"categories\":3' $d/r.json"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --epsilon 1 --domain s=A,B,A,Z --others keep
t "rr --domain listing A twice: exit 2" "[ $? -eq 2 ] && grep -q \"lists 'A' twice\" $d/err"
run rr --mechanism ldp -i "$d/r.csv" -o "$d/o.csv" --sensitive s --epsilon 1 --domain q=x,y --others keep
t "rr --domain of a column that is not --sensitive: exit 2" "[ $? -eq 2 ] && grep -q 'one of the --sensitive columns' $d/err"
printf 'a;b\n<=50K;x\n>50K;y\n' >"$d/eq.csv"
run rr --mechanism ldp -i "$d/eq.csv" -o "$d/o.csv" --sensitive a --epsilon 1 --domain 'a=<=50K,>50K' --others keep
t "rr --domain with '=' in a value" "[ $? -eq 0 ]"
run rr --mechanism tclose -i "$d/r.csv" -o "$d/o.csv" --sensitive s --pt 0.5 --domain s=A,B,Z --others keep \
  --report "$d/r.json" --quiet
t "rr tclose: data-dependent (its distribution) even with --domain" \
  "grep -q '\"model\":\"multiplicative-t-closeness (data-dependent)\"' $d/r.json && grep -q 'distribution (RR-t draws' $d/r.json"

# ---- noise -i / -o ----------------------------------------------------------
printf 'v\n10\n20\n' >"$d/n.csv"
run noise --mechanism geometric --epsilon 1 -i "$d/n.csv" -o "$d/o.csv" --seed 1 --report "$d/r.json"
t "noise -i -o: a release with the header and 2 rows" "[ $? -eq 0 ] && [ \$(wc -l <$d/o.csv) -eq 3 ] && head -1 $d/o.csv | grep -qx v"
t "noise -i: guarantee and accounting" "grep -q '\"model\":\"epsilon-DP\",\"epsilon\":1,' $d/r.json && grep -q '\"input_rows\":2' $d/r.json"
run noise --mechanism laplace --epsilon 1 -i "$d/n.csv" -o "$d/o.csv" --value 3
t "noise -i with --value: exit 2" "[ $? -eq 2 ]"
printf 'v\n10\n\n20\n' >"$d/nm.csv"
run noise --mechanism laplace --epsilon 1 -i "$d/nm.csv" -o "$d/o.csv"
t "noise -i: a missing value is bad input naming its line" "[ $? -eq 2 ] && grep -q 'nm.csv:3:1' $d/err && [ ! -e $d/o.csv ]"
finish dp_guarantees.sh
