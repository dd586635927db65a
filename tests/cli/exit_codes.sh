#!/usr/bin/env bash
# Exit codes (docs/cli.md): 1 the job cannot be done with valid inputs, 2
# bad usage or input, 3 an I/O or resource failure (a full disk, a
# read-only file system, out of memory); no output left behind on 1, 2, 3.
. "$(dirname "$0")/lib.bash"
needs_python3
sanitized=${KEPS_SANITIZED:-0}
printf 'sex,age\na,1\na,2\na,3\nb,4\nb,5\nc,6\n' >"$d/in.csv"
printf 'a;*\nb;*\nc;*\n' >"$d/sex.csv"
python3 -c "
import sys
sys.stdout.write('sex,age\n' + 'a,1\nb,1\nc,1\n' * 100000)" >"$d/big.csv"
run() { "$keps" anonymize --algorithm ola -k 2 --others keep --quiet --qi "sex:$d/sex.csv" "$@"; }

# 1: valid inputs whose noise overflows at an extreme epsilon
printf 'g,h\na,0\na,1e90\nb,1\nb,2\n' >"$d/wide.csv"
"$keps" kepsilon --algorithm given -i "$d/wide.csv" -o "$d/o.csv" --qi g --noisy h -k 2 --epsilon 1e-300 --seed 1 \
  2>"$d/err"
t "kepsilon --epsilon 1e-300 (a class spans 1e90): exit 1, no output" "[ $? -eq 1 ] && [ ! -e $d/o.csv ]"
t "kepsilon --epsilon 1e-300: says the scale cannot be sampled" "grep -q 'Laplace scale' $d/err"
"$keps" dpmicro -i "$d/in.csv" -o "$d/o.csv" --qi age -k 2 --epsilon 1e300 --bounds age=0:10 --others keep --seed 1 \
  2>"$d/err"
t "dpmicro --epsilon 1e300: exit 1, no output" "[ $? -eq 1 ] && [ ! -e $d/o.csv ] && grep -q 'Laplace scale' $d/err"

# 2: the paths given are wrong
run -i "$d/missing.csv" -o "$d/o.csv" 2>/dev/null
t "a missing input: exit 2" "[ $? -eq 2 ]"
run -i "$d" -o "$d/o.csv" 2>/dev/null
t "a directory as input: exit 2" "[ $? -eq 2 ]"
run -i "$d/in.csv" -o "$d/nodir/o.csv" 2>"$d/err"
t "an output in a missing directory: exit 2 before any work" "[ $? -eq 2 ] && grep -q 'No such file or directory' $d/err"

# 3: a full device, a full file system, a read-only file system
run -i "$d/big.csv" -o /dev/full 2>"$d/err"
t "-o /dev/full: exit 3" "[ $? -eq 3 ] && grep -q 'No space left on device' $d/err"
run -i "$d/in.csv" -o "$d/o.csv" --report /dev/full 2>"$d/err"
t "--report /dev/full: exit 3" "[ $? -eq 3 ]"
"$keps" privacy delta -k 75 --beta 0.7 --json >/dev/full 2>/dev/null
t "stdout on /dev/full: exit 3" "[ $? -eq 3 ]"
# a small file system of our own (a mount namespace; skipped where none can be made)
if unshare -rm true 2>/dev/null; then
  mkdir "$d/small" "$d/ro"
  unshare -rm bash -c "
    mount -t tmpfs -o size=256k tmpfs '$d/small' && mount -t tmpfs -o size=1m,ro tmpfs '$d/ro' || exit 99
    echo OLD >'$d/small/o.csv'
    '$keps' anonymize --algorithm ola -k 2 --others keep --quiet --qi 'sex:$d/sex.csv' -i '$d/big.csv' \
      -o '$d/small/o.csv' --report '$d/small/r.json' 2>'$d/err-full'; echo \$? >'$d/rc-full'
    ls -A '$d/small' >'$d/ls-full'; cat '$d/small/o.csv' >'$d/old-full'
    '$keps' anonymize --algorithm ola -k 2 --others keep --quiet --qi 'sex:$d/sex.csv' -i '$d/in.csv' \
      -o '$d/ro/o.csv' 2>'$d/err-ro'; echo \$? >'$d/rc-ro'
    '$keps' anonymize --algorithm ola -k 2 --others keep --quiet --qi 'sex:$d/sex.csv' -i '$d/in.csv' \
      -o '$d/o.csv' --report '$d/ro/r.json' 2>'$d/err-ro2'; echo \$? >'$d/rc-ro2'"
  if [ $? -eq 99 ]; then
    echo "SKIP: cannot mount a tmpfs here"
  else
    t "a full file system: exit 3" "[ \$(cat $d/rc-full) -eq 3 ] && grep -q 'No space left on device' $d/err-full"
    t "a full file system: the old release stays, nothing else" "[ \"\$(cat $d/ls-full)\" = o.csv ] && [ \"\$(cat $d/old-full)\" = OLD ]"
    t "-o on a read-only file system: exit 3 before any work" \
      "[ \$(cat $d/rc-ro) -eq 3 ] && grep -q 'Read-only file system' $d/err-ro"
    t "--report on a read-only file system: exit 3, no release" "[ \$(cat $d/rc-ro2) -eq 3 ] && [ ! -e $d/o.csv ]"
  fi
else
  echo "SKIP: no mount namespace (unshare -rm) for a small or read-only file system"
fi

# 3: out of memory (a 60 MB address space; ASan cannot run under a limit)
if [ "$sanitized" = 1 ]; then
  echo "SKIP: out of memory under ASan"
else
  python3 -c "
import sys
sys.stdout.write('x,y\n' + ''.join(f'{i},{i % 7}\n' for i in range(1000000)))" >"$d/many.csv"
  (ulimit -v 60000; "$keps" anonymize --algorithm mondrian -i "$d/many.csv" -o "$d/o.csv" --qi x --qi y -k 5 \
     --others keep --quiet 2>"$d/err")
  t "out of memory: exit 3, no output" "[ $? -eq 3 ] && [ ! -e $d/o.csv ] && grep -q 'out of memory' $d/err"
  (ulimit -v 60000; "$keps" verify -i "$d/many.csv" --qi x -k 2 2>"$d/err")
  t "out of memory in verify: exit 3" "[ $? -eq 3 ]"
fi

t "no temporary or lock file is left" "[ -z \"\$(ls -A $d | grep -e keps -e tmp)\" ]"
finish exit_codes.sh
