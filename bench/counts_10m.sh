#!/bin/bash
# OLA end to end on 10M Adult-like rows against the same data as a
# frequency table through --counts (docs/benchmarks.md, "Frequency tables").
# Run from the source tree after building; files go to /tmp/counts-bench.
# The frequency table is made by sqlite3's GROUP BY, as a warehouse would.
set -e
B=/tmp/counts-bench
mkdir -p $B
[ -e $B/adult10m.csv ] || ./build/bench/gen_adult 10000000 $B/adult10m.csv 7
[ -e $B/adult10m_counts.csv ] || sqlite3 :memory: <<SQL
.mode csv
.separator ;
.import $B/adult10m.csv a
.headers on
.output $B/adult10m_counts.csv
SELECT "sex","age","race","marital-status","education","native-country","workclass","occupation","salary-class",
       COUNT(*) AS n FROM a
GROUP BY "sex","age","race","marital-status","education","native-country","workclass","occupation","salary-class";
SQL
set +e
A=data/adult
Q=""
for q in sex age race marital-status education native-country workclass occupation salary-class; do Q="$Q --qi $q:$A/adult_hierarchy_$q.csv"; done
for S in 0 0.05; do
  for mode in expanded counts; do
    if [ $mode = expanded ]; then in=$B/adult10m.csv; extra=""; else in=$B/adult10m_counts.csv; extra="--counts n"; fi
    /usr/bin/time -v ./build/keps anonymize --algorithm ola -i $in -o $B/out_${mode}_$S.csv $Q -k 5 --suppress $S $extra --report $B/r_${mode}_$S.json --seed 1 > $B/sum_${mode}_$S.txt 2> $B/time_${mode}_$S.txt
    echo "$mode $S rc=$? $(grep -E 'Elapsed|Maximum resident' $B/time_${mode}_$S.txt | tr '\n' ' ') load $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
