#!/usr/bin/env bash
# Runs every test: the release build's suite, an install into a temporary
# prefix with the C example built against it, the same suite under
# ASan+UBSan, the threaded code under ThreadSanitizer, and short libFuzzer
# runs of each harness. Every stage runs even when an earlier one fails;
# the summary at the end names each stage's result, and the exit status is
# 0 only when all passed.
#
# On a busy machine: ctest's per-test timeout is 300 s times
# KEPS_TIMEOUT_FACTOR (default 4 for the release build, 3 times that under
# the sanitizers, which run about ten times slower; the heavy oracles run a
# sample of their cases there, KEPS_SANITIZED=1). Tests that cannot run here
# (no ../shared data, no python3) are reported as skipped, not passed.
# KEPS_FUZZ_SECONDS sets the length of each fuzz run (default 20).
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
factor=${KEPS_TIMEOUT_FACTOR:-4}
case $factor in '' | *[!0-9]* | 0*) echo "KEPS_TIMEOUT_FACTOR='$factor': give a whole number >= 1" >&2; exit 2 ;; esac
results=()
failed=0

# Test-only packages (SQLite, PostgreSQL, Chromium, R and its packages).
scripts/test_setup.sh
export KEPS_REQUIRE_SQL=1 KEPS_REQUIRE_BROWSER=1 KEPS_REQUIRE_MPI=1

# stage NAME FUNCTION: runs FUNCTION (with set -e inside), records the result.
stage() {
  local name=$1
  shift
  echo "== $name =="
  # not in an if: there bash would ignore set -e inside the stage
  (set -eo pipefail; "$@")
  local rc=$?
  if [ $rc -eq 0 ]; then
    results+=("passed   $name")
  else
    results+=("FAILED   $name (exit $rc; see its output above)")
    failed=1
  fi
}

release() {
  KEPS_TIMEOUT_FACTOR=$factor cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_WERROR=ON >/dev/null
  cmake --build build -j"$jobs"
  (cd build && ctest --output-on-failure -j"$jobs")
}

asan() {
  KEPS_TIMEOUT_FACTOR=$((factor * 3)) cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DKEPS_SANITIZE=ON \
    -DKEPS_WERROR=ON >/dev/null
  cmake --build build-asan -j"$jobs"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     KEPS_SANITIZED=1 ctest --output-on-failure -j"$jobs")
}

tsan() {
  # OLA's shared class cache, the lattice scan, MDAV's pool, record linkage:
  # their unit tests run both thread counts; the CLI runs take the real paths.
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_TSAN=ON -DKEPS_WERROR=ON >/dev/null
  cmake --build build-tsan -j"$jobs" --target keps test_ola test_lattice test_mdav test_rl test_csv_table >/dev/null
  scripts/tsan_runs.sh build-tsan
}

fuzz() {
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DKEPS_FUZZ=ON -DKEPS_WERROR=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzzers
  local f name corpus work bad=0
  for f in build-fuzz/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    corpus=fuzz/corpus/${name#fuzz_}
    work=$(mktemp -d)
    cp -r "$corpus"/. "$work"/ 2>/dev/null || true
    echo "-- $name (${KEPS_FUZZ_SECONDS:-20}s)"
    if ! "$f" -max_total_time="${KEPS_FUZZ_SECONDS:-20}" -max_len=4096 -print_final_stats=0 "$work" >"$work.log" 2>&1; then
      tail -n 40 "$work.log"
      echo "FAIL: $name"
      bad=1
    else
      tail -n 2 "$work.log"
    fi
    rm -rf "$work" "$work.log"
  done
  return $bad
}

stage "release build (warnings are errors)" release
stage "install into a temporary prefix; examples/c built with pkg-config and find_package" scripts/install_check.sh
stage "R package (bindings/R): roxygen2 docs current, R CMD build, R CMD check --no-manual with testthat" scripts/r_check.sh
stage "Python package (bindings/python): pip install offline, pytest against the CLI" scripts/python_check.sh
stage "ASan+UBSan build" asan
stage "ThreadSanitizer: the code that runs on two threads" tsan
stage "fuzz (libFuzzer, short runs)" fuzz

echo
echo "== summary =="
printf '  %s\n' "${results[@]}"
if [ $failed -ne 0 ]; then
  echo "some stages FAILED"
  exit 1
fi
echo "all tests passed"
