#!/usr/bin/env bash
# Every output of the commands whose classes come from a partition source
# (kepsilon, rr, safela, anonymize, verify, risk) on Adult and on a small
# fixture, written to DIR: releases byte for byte, reports without their
# timing members (and nodes_evaluated: the parallel scan's count varies
# from run to run). Run with the binary of main and with a branch's, then
# `diff -r`: a refactoring of the partition framework must leave them equal.
#   tests/partition_outputs.sh KEPS DIR
set -u
KEPS=$1; out=$2
SRC=$(cd "$(dirname "$0")/.." && pwd)
H=$SRC/data/adult; A=$H/adult_height.csv; B=$H/adult.csv
mkdir -p "$out"
q4="--qi age:$H/adult_hierarchy_age.csv --qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv
    --qi marital-status:$H/adult_hierarchy_marital-status.csv"
qm="--qi age --qi sex:$H/adult_hierarchy_sex.csv --qi race:$H/adult_hierarchy_race.csv
    --qi marital-status:$H/adult_hierarchy_marital-status.csv"
# small fixture: 12 rows, a class of one, a class of two
fx=$out/fixture.csv
printf 'q;r;s;x\n' >"$fx"
for l in a\;u\;p\;1 a\;u\;p\;2 a\;u\;n\;3 a\;v\;p\;4 a\;v\;n\;5 a\;v\;p\;6 b\;u\;n\;7 b\;u\;p\;8 b\;u\;n\;9 \
         b\;v\;p\;10 c\;u\;n\;11 c\;u\;p\;12; do printf '%s\n' "$l" >>"$fx"; done
printf 'a;ab;*\nb;ab;*\nc;c;*\n' >"$out/hq.csv"
printf 'u;*\nv;*\n' >"$out/hr.csv"
run() { # NAME ARGS...: release, report, stderr and exit code of one run
    local name=$1; shift
    "$KEPS" "$@" -o "$out/$name.csv" --seed 7 --report "$out/$name.raw.json" >"$out/$name.stdout" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    clean "$name"
}
check() { # NAME ARGS...: a command without an output file or seed
    local name=$1; shift
    "$KEPS" "$@" --report "$out/$name.raw.json" >"$out/$name.stdout" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    clean "$name"
}
clean() {
    local name=$1
    if [ -s "$out/$name.raw.json" ]; then
        jq -S 'walk(if type == "object" then with_entries(select(.key | test("time|_ms$|seconds|elapsed|threads|date|created|nodes_evaluated") | not)) else . end)' \
            "$out/$name.raw.json" | sed "s|$out|OUT|g" >"$out/$name.json"
    fi
    rm -f "$out/$name.raw.json"
    sed -i "s|$out|OUT|g" "$out/$name.err" "$out/$name.stdout"
    sed -i '/[0-9] ms\|[0-9]s\b\|seconds/d' "$out/$name.err"
}
for k in 2 5 10 50; do
    run kola$k kepsilon --algorithm ola -i "$A" $q4 --noisy height --others keep -k $k --suppress 0.05 --epsilon 1 --confidence 0.99
    run kola0_$k kepsilon --algorithm ola -i "$A" $q4 --noisy height --others keep -k $k --epsilon 1
    run kmon$k kepsilon --algorithm mondrian -i "$A" $qm --noisy height --others keep -k $k --epsilon 1
    run rrola$k rr --mechanism both -i "$B" $q4 --partition ola -k $k --sensitive occupation --epsilon 2 --t 3 --others keep
    run rrmon$k rr --mechanism both -i "$B" $qm --partition mondrian -k $k --sensitive occupation --epsilon 2 --t 3 --others keep
    run anon$k anonymize --algorithm ola -i "$B" $q4 -k $k --suppress 0.05 --others keep
    run safela$k safela -i "$B" $q4 --sensitive occupation -k $k --beta 0.5 --epsilon 2 --others keep
done
run kgiven kepsilon --algorithm given -i "$A" --qi sex --qi race --noisy height --others keep -k 5 --suppress 0.01 --epsilon 1
run rrgiven rr --mechanism both -i "$B" --qi sex --qi race --sensitive occupation --epsilon 2 --t 3 --others keep
run rrnoqi rr --mechanism ldp -i "$B" --sensitive sex --others drop --epsilon 1
run rrldp rr --mechanism ldp -i "$B" --qi sex --sensitive salary-class --epsilon 1 --others keep
run fk_given kepsilon --algorithm given -i "$fx" --qi q --qi r --noisy x --others keep -k 2 --suppress 0.5 --epsilon 1
run fk_ola kepsilon --algorithm ola -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv --noisy x --others keep -k 2 --suppress 0.2 --epsilon 1
run fk_mon kepsilon --algorithm mondrian -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv --noisy x --others keep -k 2 --epsilon 1
run frr_given rr --mechanism both -i "$fx" --qi q --sensitive s --epsilon 1 --t 2 --others keep
run frr_ola rr --mechanism both -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv --partition ola -k 2 --sensitive s --epsilon 1 --t 2 --others keep
run frr_mon rr --mechanism both -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv --partition mondrian -k 2 --sensitive s --epsilon 1 --t 2 --others keep
run fsafela safela -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv --sensitive s -k 2 --beta 0.5 --epsilon 2 --others keep
run fanon anonymize --algorithm ola -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv -k 2 --suppress 0.2 --others keep
run fanon_drop anonymize --algorithm ola -i "$fx" --qi q:$out/hq.csv --qi r:$out/hr.csv -k 3 --suppress 0.5 --others keep --remove-suppressed
check verify verify -i "$out/anon5.csv" --qi age --qi sex --qi race --qi marital-status -k 5
check risk risk -i "$out/anon5.csv" --qi age --qi sex --qi race --qi marital-status
check risk_class risk -i "$out/anon50.csv" --qi age --qi sex --qi race --qi marital-status --suppressed class \
    --max-combination 3 -o "$out/risk_class.records.csv"
check risk_pop risk -i "$out/anon10.csv" --qi age --qi sex --qi race --population "$out/anon10.csv"
check risk_pop2 risk -i "$fx" --qi q --qi r --population "$fx"
check risk_input risk -i "$B" --qi age --qi sex --qi race --qi education --max-combination 2 -o "$out/risk_input.records.csv"
check verify_l verify -i "$out/anon10.csv" --qi age --qi sex --qi race --qi marital-status -k 10 --sensitive occupation \
    --l-diversity 3 --t-closeness 0.3 --suppressed class
check fverify verify -i "$out/fanon_drop.csv" --qi q --qi r -k 3
check frisk risk -i "$out/fanon.csv" --qi q --qi r -o "$out/frisk.records.csv"
