#!/usr/bin/env bash
# keps kepsilon end to end on a 7-row hand-made table: every scale's
# per-class Laplace scales, noise_scale, eq. 8 with zeros, negative values
# and two noisy columns, the rows the k-anonymization suppresses, the row
# accounting. Expected values are worked out by hand in the comments (an
# independent Python oracle agreed with keps on these and on Adult; see
# docs/experiments.md, the (k,ε) section).
. "$(dirname "$0")/lib.bash"
needs_python3
# val KEY.KEY: a number of the report; approx A EXPR: A equals the Python
# expression EXPR to 1e-9 (relative)
val() {
    python3 -c 'import functools, json, sys
print(repr(functools.reduce(lambda v, k: v[k], sys.argv[2].split("."), json.load(open(sys.argv[1])))))' "$d/r.json" "$1"
}
approx() { python3 -c 'import sys; a, b = float(sys.argv[1]), eval(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * max(1, abs(b)))' "$1" "$2"; }

# classes by g (--algorithm given, k = 2): A = rows 1-4, B = rows 5-6,
# C = row 7 alone, suppressed (floor(0.15 * 7) = 1 row allowed).
printf 'g,w,y\nA,0,1\nA,2,1\nA,-4,1\nA,6,3\nB,5,7\nB,5,7\nC,50,9\n' >"$d/in.csv"
ke() {
    "$keps" kepsilon --algorithm given -i "$d/in.csv" -o "$d/out.csv" --qi g --noisy w --noisy y -k 2 \
        --suppress 0.15 --epsilon 2 --seed 3 --keep-order --report "$d/r.json" "$@" >/dev/null 2>"$d/stderr"
}

# 1. scale ec, m = 2 (b_j = m diam_j / eps = diam_j):
#    b_w(A) = 10, b_y(A) = 2, b_w(B) = b_y(B) = 0.
#    noise_scale = mean over the 2 classes: w 5, y 1.
#    eq. 8 per column over released cells with x != 0 (b / |x| summed):
#      w: cells 2, -4, 6 (the 0 left out), 5, 5 -> 10 (1/2 + 1/4 + 1/6) / 5 = 11/6 = 1.833333
#      y: cells 1, 1, 1, 3, 7, 7              -> 2 (3 + 1/3) / 6 = 10/9 = 1.111111
#      expected_are = mean over columns = (11/6 + 10/9) / 2 = 53/36 = 1.472222
ke
t "ec: exit 0" "[ $? -eq 0 ]"
t "ec: noise_scale w = 5, y = 1" 'approx $(val noise_scale.w) 5 && approx $(val noise_scale.y) 1'
t "ec: expected_are per column 11/6, 10/9" \
  'approx $(val expected_are_per_column.w) 11/6 && approx $(val expected_are_per_column.y) 10/9'
t "ec: expected_are = 53/36" 'approx $(val metrics.expected_are) 53/36'
# accounting: 7 = 6 released + 1 suppressed (C), all 7 written
t "ec: accounting" '[ "$(val input_rows) $(val released_rows) $(val suppressed_rows) $(val k_anonymization_suppressed_rows) $(val output_rows) $(val classes)" = "7 6 1 1 7 2" ]'
# B has diameter 0 in both columns: released unchanged; C is '*' everywhere
t "ec: class B released unchanged" "[ \"\$(sed -n '6,7p' $d/out.csv | tr '\n' ' ')\" = 'B,5,7 B,5,7 ' ]"
t "ec: suppressed row C starred" "[ \"\$(sed -n 8p $d/out.csv)\" = '*,*,*' ]"
# B's 2 rows are the released rows without noise, on w and on y (A's
# diameters are 10 and 2; C is suppressed): a warning names each column
t "ec: noiseless_rows w = 2, y = 2" '[ "$(val noiseless_rows.w) $(val noiseless_rows.y)" = "2 2" ]'
t "ec: warning about the rows without noise" "grep -q '2 released rows get no noise on w' $d/stderr"
# B's two rows tie with their own originals (paper's phi): both link
t "ec: linked_rows >= 2, risk = linked / 7" \
  'l=$(val metrics.linked_rows); [ $l -ge 2 ] && approx $(val metrics.linking_risk) $l/7'

# 2. scale global: diameters over the 6 released rows (C's 50 and 9 do not
#    count): w 6 - (-4) = 10, y 7 - 1 = 6 -> b_w = 10, b_y = 6 in every class.
#    eq. 8: w 10 (1/2 + 1/4 + 1/6 + 1/5 + 1/5) / 5 = 2.233333
#           y 6 (3 + 1/3 + 2/7) / 6 = 3.619048; mean 2.926190
ke --scale global
t "global: exit 0" "[ $? -eq 0 ]"
t "global: no row without noise" '[ "$(val noiseless_rows.w) $(val noiseless_rows.y)" = "0 0" ] && ! grep -q "no noise" '"$d/stderr"
t "global: noise_scale w = 10, y = 6" 'approx $(val noise_scale.w) 10 && approx $(val noise_scale.y) 6'
t "global: expected_are" 'approx $(val metrics.expected_are) "(10 * (1/2 + 1/4 + 1/6 + 2/5) / 5 + 6 * (3 + 1/3 + 2/7) / 6) / 2"'

# 3. scale domain, bounds w = -10:10, y = 0:10: b_w = 2 * 20 / 2 = 20,
#    b_y = 2 * 10 / 2 = 10. C's w = 50 lies outside the bounds but C is
#    suppressed, so its value is never read (no error).
ke --scale domain --bounds w=-10:10 --bounds y=0:10
t "domain: exit 0 (suppressed out-of-bounds row never read)" "[ $? -eq 0 ]"
t "domain: noise_scale w = 20, y = 10" 'approx $(val noise_scale.w) 20 && approx $(val noise_scale.y) 10'
t "domain: expected_are" 'approx $(val metrics.expected_are) "(20 * (1/2 + 1/4 + 1/6 + 2/5) / 5 + 10 * (3 + 1/3 + 2/7) / 6) / 2"'
# 4. a released value outside the bounds is refused (exit 2, no output),
#    named by file:line:column: w = 6 (row A,6,3) is line 5, field 2.
rm -f "$d/out.csv"
ke --scale domain --bounds w=-10:5 --bounds y=0:10
t "domain: out-of-bounds value exits 2" "[ $? -eq 2 ] && [ ! -e $d/out.csv ]"
t "domain: out-of-bounds value named by file:line:column" \
  "grep -q \"in.csv:5:2: column 'w': 6 lies outside --bounds w=-10:5\" $d/stderr"

finish kepsilon_hand
