#!/usr/bin/env bash
# Runs the multithreaded code of a ThreadSanitizer build (cmake
# -DKEPS_TSAN=ON): the unit tests that exercise one and two threads, then
# the CLI on the bundled Adult data, where each threaded path runs at full
# size (OLA's two search threads sharing one class cache, the lattice scan
# of safela, MDAV's scan pool on 30,162 rows, record linkage's two query
# threads; test_csv_table reads files in two pieces on two threads). Any
# data race report fails the run.
# Usage: scripts/tsan_runs.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:?usage: scripts/tsan_runs.sh BUILD_DIR}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
export KEPS_SANITIZED=1 # the unit tests' smaller sizes, as under ASan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in test_ola test_lattice test_mdav test_rl test_csv_table; do
  echo "-- $t"
  "$b/tests/$t" >"$tmp/$t.log" 2>&1 || { tail -n 40 "$tmp/$t.log"; exit 1; }
done

qi=()
for c in sex age race marital-status education native-country workclass occupation salary-class; do
  qi+=(--qi "$c:data/adult/adult_hierarchy_$c.csv")
done
run() { # NAME ARGS...: keps ARGS, its stderr shown only on failure
  local name=$1
  shift
  echo "-- keps $name"
  "$b/keps" "$@" --quiet >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
}
# with a report: OLA's enumeration runs for its lattice view (without one
# the single-threaded exact search alone chooses the node)
run "anonymize ola, 5% suppression" anonymize --algorithm ola -i data/adult/adult.csv -o "$tmp/ola.csv" \
  "${qi[@]}" -k 2 --suppress 0.05 --report "$tmp/ola.json"
run "safela" safela -i data/adult/adult.csv -o "$tmp/safela.csv" "${qi[@]}" -k 10 --beta 0.7 --seed 1
run "anonymize mdav" anonymize --algorithm mdav -i data/adult/adult.csv -o "$tmp/mdav.csv" --qi age -k 5 \
  --others keep --keep-order
run "risk (record linkage)" risk --original data/adult/adult.csv --release "$tmp/mdav.csv" --qi age
echo "ThreadSanitizer: no data race"
