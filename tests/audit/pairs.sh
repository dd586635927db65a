# The designed neighbouring pairs of issue 25, written into directory $1
# (sourced by tests/cli/audit_release.sh and bench/audit_neighbours.sh):
#   d1/d2  dpmicro: x = 0.1 .. 0.4, row 1 = 0.9 in d2 (leak 1)
#   s1/s2  safela: 150 Male;White, 149 Female;White, s1 with one
#          Female;Amer-Indian-Eskimo more (leak 2)
#   r1/r2  safela: the same with a column c, r1 with Male;White;Z more (leak 3)
#   q1/q2  rr: 199 records of A/B, then Z (q1) or A (q2) (leak 4)
#   t1/t2  rr: 61 records of A/B, then A (t1) or B (t2): only common values
#   n1/n2  noise -i: the values 0 and 1
#   u1/u2  dpmicro univariate: two columns, d2 moves one record between blocks
audit_pairs() {
  local p=$1
  printf 'x\n0.1\n0.2\n0.3\n0.4\n' >"$p/d1.csv"; printf 'x\n0.9\n0.2\n0.3\n0.4\n' >"$p/d2.csv"
  printf 'x,y\n0.1,0.4\n0.2,0.3\n0.3,0.2\n0.4,0.1\n' >"$p/u1.csv"; printf 'x,y\n0.35,0.4\n0.2,0.3\n0.3,0.2\n0.4,0.1\n' >"$p/u2.csv"
  { echo 'sex;race'; for i in $(seq 150); do echo 'Male;White'; done; for i in $(seq 149); do echo 'Female;White'; done; } >"$p/s2.csv"
  { cat "$p/s2.csv"; echo 'Female;Amer-Indian-Eskimo'; } >"$p/s1.csv"
  { echo 'sex;race;c'; for i in $(seq 150); do echo 'Male;White;a'; done; for i in $(seq 149); do echo 'Female;White;a'; done; } >"$p/r2.csv"
  { cat "$p/r2.csv"; echo 'Male;White;Z'; } >"$p/r1.csv"
  { echo s; for i in $(seq 199); do [ $((i % 3)) -eq 0 ] && echo B || echo A; done; } >"$p/q0.csv"
  { cat "$p/q0.csv"; echo Z; } >"$p/q1.csv"; { cat "$p/q0.csv"; echo A; } >"$p/q2.csv"
  { head -61 "$p/q0.csv"; echo A; } >"$p/t1.csv"; { head -61 "$p/q0.csv"; echo B; } >"$p/t2.csv"
  printf 'v\n0\n' >"$p/n1.csv"; printf 'v\n1\n' >"$p/n2.csv"
}
