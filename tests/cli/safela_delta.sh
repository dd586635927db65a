#!/bin/bash
# keps privacy delta against an independent exact-rational oracle in Python
# (tests/safela_delta_oracle.py): every case must agree to 1e-9 relative.
set -eu
KEPS=$1; SRC=$2
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; } # ctest: skipped
fail=0
while read -r k beta e want; do
  # an explicit epsilon: epsilon' = 0.5, epsilon = 0.5 + ln E
  eps=(); [ "$e" = - ] || eps=(--epsilon-prime 0.5 --epsilon "$(python3 -c "import math; print(repr(0.5 + math.log($e)))")")
  got=$("$KEPS" privacy delta -k "$k" --beta "$beta" "${eps[@]}" --json | sed 's/.*"result":\([^,]*\),.*/\1/')
  if ! python3 -c "import sys; g,w=float('$got'),float('$want'); sys.exit(0 if abs(g-w)<=1e-9*w else 1)"; then
    echo "k=$k beta=$beta E=$e: keps $got, oracle $want"; fail=1
  fi
done < <(python3 "$SRC/tests/safela_delta_oracle.py")
# min-k is the inverse: the smallest k whose delta is <= the target.
out=$("$KEPS" privacy min-k --delta 2.6e-6 --beta 0.7 --json)
echo "$out" | grep -q '"result":75,' || { echo "min-k: $out (want 75: delta(75)=2.53e-6, delta(74)=3.31e-6)"; fail=1; }
# usage errors exit 2, impossible jobs exit 1
set +e
"$KEPS" privacy delta -k 75 --beta 1.5 2>/dev/null; [ $? -eq 2 ] || { echo "beta 1.5 not rejected"; fail=1; }
"$KEPS" privacy delta -k 75 --beta 0.7 --epsilon 1 --epsilon-prime 0.5 2>/dev/null
[ $? -eq 2 ] || { echo "epsilon below eps' - ln(1-beta) not rejected"; fail=1; }
"$KEPS" privacy min-k --delta 1e-300 --beta 0.7 --max-k 100 2>/dev/null
[ $? -eq 1 ] || { echo "unreachable delta should exit 1"; fail=1; }
exit $fail
