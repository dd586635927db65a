#!/usr/bin/env bash
# Numbers at the edges: cells beyond the magnitude keps's arithmetic keeps
# finite (1e100), subnormals, hexadecimal; -k read alike by every command;
# randomized response at huge epsilon and p = 1 however reached; safela's
# parameter ranges and an empty release. Expected values by hand, in the
# comments.
. "$(dirname "$0")/lib.bash"
A=$src/data/adult
run() { rm -f "$d/o.csv"; "$keps" "$@" >"$d/stdout" 2>"$d/stderr"; }

# 1. 1.7e308 is finite, but the mean of two of them overflows: the defect
# released "inf" (MDAV) and "-inf" (kepsilon). Now bad input, exit 2, with
# FILE:LINE:COL and the bound, and no output file.
printf 'x\n1.7e308\n1.7e308\n1\n' >"$d/ov.csv"
run anonymize --algorithm mdav -i "$d/ov.csv" -o "$d/o.csv" --columns x -k 3; rc=$?
t "mdav 1.7e308: exit 2, no output" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "mdav 1.7e308: file, line, column and the bound" "grep -q \"ov.csv:2:1: column 'x': '1.7e308' is too large: keps accepts numbers of magnitude up to 1e+100\" $d/stderr"
printf 'g;x\na;1\na;2\na;1.7e308\n' >"$d/ov2.csv"
run kepsilon --algorithm given -i "$d/ov2.csv" -o "$d/o.csv" --qi g --noisy x -k 3 --epsilon 1 --seed 1; rc=$?
t "kepsilon given 1.7e308: exit 2, no output" "[ $rc -eq 2 ] && [ ! -e $d/o.csv ]"
t "kepsilon given 1.7e308: names the cell" "grep -q \"ov2.csv:4:2: column 'x': '1.7e308' is too large\" $d/stderr"
printf 'g;x\n1;1\n2;2\n3;1.7e308\n' >"$d/ov3.csv"
run kepsilon --algorithm mondrian -i "$d/ov3.csv" -o "$d/o.csv" --qi g --noisy x -k 3 --epsilon 1 --seed 1
t "kepsilon mondrian, 1.7e308 noisy: exit 2" "[ $? -eq 2 ] && grep -q 'ov3.csv:4:2: .* is too large' $d/stderr"
run kepsilon --algorithm mondrian -i "$d/ov3.csv" -o "$d/o.csv" --qi x --noisy g -k 3 --epsilon 1 --seed 1
t "kepsilon mondrian, 1.7e308 in the QI: exit 2" "[ $? -eq 2 ] && grep -q 'ov3.csv:4:2: .* is too large' $d/stderr"
# the bound itself is accepted: mean of {1e100, -1e100, 1} = (0 + 1)/3, whose
# shortest exact spelling has 16 digits
printf 'x\n1e100\n-1e100\n1\n' >"$d/b.csv"
run anonymize --algorithm mdav -i "$d/b.csv" -o "$d/o.csv" --columns x -k 3 --quiet --digits exact
t "mdav at +-1e100: exit 0, centroid 1/3" "[ \$(grep -c '^0.3333333333333333\$' $d/o.csv) -eq 3 ]"
# --bounds: the same bound and decimal only
printf 'x\n1\n2\n3\n4\n' >"$d/n.csv"
run dpmicro -i "$d/n.csv" -o "$d/o.csv" --qi x -k 2 --epsilon 1 --bounds x=0:1e101 --seed 1
t "--bounds beyond 1e100: exit 2" "[ $? -eq 2 ] && grep -q 'must lie within' $d/stderr && [ ! -e $d/o.csv ]"
run dpmicro -i "$d/n.csv" -o "$d/o.csv" --qi x -k 2 --epsilon 1 --bounds x=0:0x10 --seed 1
t "--bounds in hex: exit 2" "[ $? -eq 2 ] && grep -q 'hexadecimal' $d/stderr"

# 2. 1e-320 is a finite (subnormal) number; the defect called it "not a
# number". Mean of {1e-320, 1, 2} = 3/3 = 1 (1e-320 vanishes in the sum).
printf 'x\n1e-320\n1\n2\n' >"$d/sub.csv"
run anonymize --algorithm mdav -i "$d/sub.csv" -o "$d/o.csv" --columns x -k 3 --quiet
t "a subnormal cell is read: exit 0, centroid 1" "[ \$(grep -c '^1\$' $d/o.csv) -eq 3 ]"
printf 'x\n0x1p-3\n1\n2\n' >"$d/hex.csv"
run anonymize --algorithm mdav -i "$d/hex.csv" -o "$d/o.csv" --columns x -k 3
t "a hex cell: exit 2, the decimal it means (2^-3)" "[ $? -eq 2 ] && grep -q \"hex.csv:2:1: column 'x': '0x1p-3' is hexadecimal.*write 0.125\" $d/stderr"
run noise --mechanism laplace --epsilon 0x1p-3 --sensitivity 1 --value 0 -n 1
t "--epsilon 0x1p-3: exit 2, says hexadecimal" "[ $? -eq 2 ] && grep -q \"epsilon '0x1p-3': hexadecimal numbers are not accepted\" $d/stderr"

# 6. -k: one range, [1, 1e9], everywhere; the defect clamped 1e20 to
# 2^63 - 1 for mondrian and mdav (exit 1).
Q="--qi age:$A/adult_hierarchy_age.csv --others keep"
head -301 "$A/adult.csv" >"$d/a300.csv"
big=99999999999999999999
for cmd in "anonymize --algorithm mondrian --qi age --others keep" \
    "anonymize --algorithm mdav --columns age --others keep" "anonymize --algorithm ola $Q" "safela --beta 0.5 $Q"; do
    run $cmd -i "$d/a300.csv" -o "$d/o.csv" -k $big
    t "$cmd -k 1e20: exit 2, no output" "[ $? -eq 2 ] && [ ! -e $d/o.csv ] && grep -q 'expected a whole number in \[1, 1000000000\]' $d/stderr"
done
run kepsilon --algorithm mondrian -i "$d/ov2.csv" -o "$d/o.csv" --qi g --noisy x -k 1000000001 --epsilon 1
t "kepsilon -k 1e9+1: exit 2" "[ $? -eq 2 ] && grep -q 'in \[1, 1000000000\]' $d/stderr"
run dpmicro -i "$d/n.csv" -o "$d/o.csv" --qi x -k 1000000001 --epsilon 1
t "dpmicro -k 1e9+1: exit 2" "[ $? -eq 2 ] && grep -q 'in \[1, 1000000000\]' $d/stderr"
run verify -i "$d/a300.csv" --qi age -k 1000000001
t "verify -k 1e9+1: exit 2" "[ $? -eq 2 ] && grep -q 'in \[1, 1000000000\]' $d/stderr"
run anonymize --algorithm mondrian --qi age -i "$d/a300.csv" -o "$d/o.csv" --others keep -k 1000000000
t "-k 1e9 is in range: mondrian says k exceeds the records (exit 1)" "[ $? -eq 1 ]"

# 3./4. randomized response. 2 categories, eps = 710: p = 1/(1 + 2e^-710/(1 -
# e^-710)) rounds to 1 (epsilon infinite), so p is the next double down,
# 1 - 2^-53 = 0.9999999999999999 (epsilon 54 ln 2 = 37.43 <= 710); the
# defect computed inf/inf = NaN.
printf 's\na\nb\na\nb\na\nb\n' >"$d/rr.csv"
for e in 710 1e300; do
    run rr --mechanism ldp -i "$d/rr.csv" -o "$d/o.csv" --sensitive s --epsilon $e --report "$d/r.json" --quiet
    t "rr --epsilon $e: exit 0, p = 1 - 2^-53" "[ $? -eq 0 ] && grep -q '\"p\":0.9999999999999999[,}]' $d/r.json"
done
# --t inf keeps every value, as --pt 1 and -p 1 do: each warns, even with --quiet
for how in "tclose --t inf" "tclose --pt 1" "both --pt 1 -p 0.5"; do
    run rr --mechanism $how -i "$d/rr.csv" -o "$d/o.csv" --sensitive s --quiet
    t "rr $how: exit 0 and warns p_t = 1" "[ $? -eq 0 ] && grep -q 'warning: the RR-t stage keeps every value (p_t = 1)' $d/stderr"
done
run rr --mechanism tclose --t 2 -i "$d/rr.csv" -o "$d/o.csv" --sensitive s --quiet
t "rr --t 2: no p_t = 1 warning" "[ $? -eq 0 ] && ! grep -q 'p_t = 1' $d/stderr"

# 5. safela --epsilon-prime and --penalty: one range, its check, its message
for v in 0 -1 inf 1e301; do
    for opt in epsilon-prime penalty; do
        run safela -i "$d/a300.csv" -o "$d/o.csv" $Q -k 5 --beta 0.5 --$opt $v
        t "safela --$opt $v: exit 2, the range" "[ $? -eq 2 ] && grep -q \"$opt '$v': expected a number in \[1e-300, 1e+300\]\" $d/stderr"
    done
done

# 7. k above the sample size: every sampled row suppressed, exit 0 with a
# warning (even with --quiet); the accounting stays exact: released 0,
# suppressed = removed = sample, input 300 = suppressed + unsampled, and
# nothing written but the header (suppressed rows are removed).
run safela -i "$d/a300.csv" -o "$d/o.csv" $Q -k 100000 --beta 0.5 --report "$d/r.json" --quiet
t "safela -k 100000: exit 0 and warns" "[ $? -eq 0 ] && grep -q 'warning: k = 100000 exceeds the sample size' $d/stderr"
num() { grep -o "\"$1\":[0-9]*" "$d/r.json" | cut -d: -f2; }
t "safela -k 100000: nothing released, accounting exact" \
  "[ \$(num released_rows) -eq 0 ] && [ \$(num suppressed_rows) -eq \$(num sample_size) ] && [ \$((\$(num suppressed_rows) + \$(num unsampled_rows))) -eq 300 ] && [ \$(num removed_rows) -eq \$(num suppressed_rows) ] && [ \$(num output_rows) -eq 0 ] && [ \$(wc -l <$d/o.csv) -eq 1 ]"
# (--others drop: with every column kept, each of the 300 rows is a class of
# its own over the released tuple and nothing is released at k = 5)
run safela -i "$d/a300.csv" -o "$d/o.csv" --qi age:$A/adult_hierarchy_age.csv --others drop -k 5 --beta 0.5 --quiet
t "safela -k 5: no such warning" "[ $? -eq 0 ] && ! grep -q 'no row is released' $d/stderr"
# 8. Values a range cannot hold: an infinite epsilon leaves delta's gap
# eps - eps' undefined (inf - inf ran with the default gap before), C = 0
# was read as the default 1, and a bad --seed must stop even a run that
# draws nothing (OLA with --keep-order exited 0 after printing the error).
for o in "--epsilon inf --epsilon-prime 1" "--epsilon 2 --epsilon-prime inf"; do
    run privacy delta -k 75 --beta 0.7 $o
    t "privacy delta $o: exit 2, finite asked" "[ $? -eq 2 ] && grep -q \"'inf': expected a finite number >= 0\" $d/stderr"
done
printf 'a,y\n1,p\n2,q\n1,p\n2,q\n' >"$d/ev.csv"
run evaluate --original "$d/ev.csv" --release "$d/ev.csv" --target y --C 0
t "evaluate --C 0: exit 2, above 0 asked" "[ $? -eq 2 ] && grep -q \"C '0': expected a finite number above 0\" $d/stderr"
printf '1;*\n2;*\n' >"$d/ah.csv"
run anonymize --algorithm ola -i "$d/ev.csv" -o "$d/o8.csv" --qi a:"$d/ah.csv" --others keep -k 2 --keep-order --seed x
t "OLA --keep-order --seed x: exit 2, no output" "[ $? -eq 2 ] && [ ! -e $d/o8.csv ] && grep -q \"seed 'x'\" $d/stderr"
# Mondrian reads a QI without a hierarchy as numbers: the error says so
run anonymize --algorithm mondrian -i "$d/a300.csv" -o "$d/o.csv" --qi age --qi race -k 5 --others keep
t "mondrian categorical QI without hierarchy: exit 2, says to give a hierarchy" "[ $? -eq 2 ] && grep -q \"column 'race': 'White' is not a number.*give 'race' a hierarchy\" $d/stderr"
# A file without its header row: the error says the header seems missing
tail -n +2 "$d/a300.csv" >"$d/nohdr.csv"
run anonymize --algorithm ola -i "$d/nohdr.csv" -o "$d/o.csv" --qi age:"$A/adult_hierarchy_age.csv" -k 2 --others keep
t "no header row: exit 2, says so" "[ $? -eq 2 ] && grep -q \"suggests the file has no header row\" $d/stderr"
finish numeric
