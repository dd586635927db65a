#!/usr/bin/env bash
# Runs every test: the release build's suite, the same suite under
# ASan+UBSan, the threaded code under ThreadSanitizer, and short libFuzzer
# runs of each harness.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# The --emit-sql test runs its scripts in SQLite and a throwaway PostgreSQL
# cluster: test-only packages, installed here rather than by setup.sh.
sqlpkgs=()
for p in sqlite3 postgresql; do dpkg -s "$p" >/dev/null 2>&1 || sqlpkgs+=("$p"); done
if [ ${#sqlpkgs[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${sqlpkgs[@]}" >/dev/null
fi
export KEPS_REQUIRE_SQL=1

echo "== release build (warnings are errors) =="
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== ASan+UBSan build =="
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DKEPS_SANITIZE=ON -DKEPS_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
   KEPS_SANITIZED=1 ctest --output-on-failure -j"$jobs")

echo "== ThreadSanitizer: the code that runs on two threads =="
# OLA's shared class cache, the lattice scan, MDAV's pool, record linkage:
# their unit tests run both thread counts; the CLI runs take the real paths.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_TSAN=ON -DKEPS_WERROR=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target keps test_ola test_lattice test_mdav test_rl test_csv_table >/dev/null
scripts/tsan_runs.sh build-tsan

echo "== fuzz (libFuzzer, short runs) =="
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DKEPS_FUZZ=ON -DKEPS_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzzers
for f in build-fuzz/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  name=$(basename "$f")
  corpus=fuzz/corpus/${name#fuzz_}
  work=$(mktemp -d)
  cp -r "$corpus"/. "$work"/ 2>/dev/null || true
  echo "-- $name (${KEPS_FUZZ_SECONDS:-20}s)"
  "$f" -max_total_time="${KEPS_FUZZ_SECONDS:-20}" -max_len=4096 -print_final_stats=0 "$work" 2>&1 | tail -n 2
  rm -rf "$work"
done
echo "all tests passed"
