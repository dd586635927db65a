# Shared by the tests/cli scripts that source it (not a test itself: ctest
# runs *.sh). Arguments of the script: the keps binary, the source tree.
# t NAME 'CONDITION' records a failure; $d is a scratch directory removed
# on exit; finish prints the verdict and exits with it; skip WHY ends a
# test that cannot run here with exit 77, which ctest reports as skipped
# (SKIP_RETURN_CODE in tests/CMakeLists.txt), never as passed.
set -u
keps=$1; src=$2; fail=0
t() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
finish() { [ $fail -eq 0 ] && echo "$1: all passed"; exit $fail; }
skip() { echo "SKIP: $1"; exit 77; }
needs_python3() { command -v python3 >/dev/null || skip "python3 missing (scripts/setup.sh installs it)"; }
