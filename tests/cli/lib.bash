# Shared by the tests/cli scripts that source it (not a test itself: ctest
# runs *.sh). Arguments of the script: the keps binary, the source tree.
# t NAME 'CONDITION' records a failure; $d is a scratch directory removed
# on exit; finish prints the verdict and exits with it.
set -u
keps=$1; src=$2; fail=0
t() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
finish() { [ $fail -eq 0 ] && echo "$1: all passed"; exit $fail; }
