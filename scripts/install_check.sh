#!/usr/bin/env bash
# Packaging check: installs keps (library only, no cmocka needed) into a
# temporary prefix, then builds examples/c/anonymize.c against the installed
# library twice, with pkg-config and with CMake's find_package(keps), and
# runs both on the bundled Adult data; the installed `keps verify` checks
# that each release is k-anonymous.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cmake -S . -B "$w/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$w/prefix" \
  >/dev/null
cmake --build "$w/build" -j"$(nproc)" --target keps keps_static keps_shared >/dev/null
cmake --install "$w/build" >/dev/null
libdir=$(dirname "$(find "$w/prefix" -name keps.pc | head -1)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig" LD_LIBRARY_PATH="$libdir"
echo "-- pkg-config: $(pkg-config --modversion keps), $(pkg-config --libs keps)"
${CC:-cc} -Wall -Wextra -Werror examples/c/anonymize.c $(pkg-config --cflags --libs keps) -o "$w/anonymize-pc"
echo "-- find_package(keps)"
cmake -S examples/c -B "$w/example" -DCMAKE_PREFIX_PATH="$w/prefix" >/dev/null
cmake --build "$w/example" >/dev/null
A=$src/data/adult
for exe in "$w/anonymize-pc" "$w/example/anonymize"; do
  echo "-- $(basename "$exe"): 5-anonymity of Adult by age and sex"
  "$exe" "$A/adult.csv" "$w/out.csv" 5 0.05 "age:$A/adult_hierarchy_age.csv" "sex:$A/adult_hierarchy_sex.csv"
  "$w/prefix/bin/keps" verify -i "$w/out.csv" --qi age --qi sex -k 5 >/dev/null
  [ "$(wc -l <"$w/out.csv")" -eq 30163 ] # header + every row (suppressed ones starred)
  rm "$w/out.csv"
done
echo "-- run (keps_run): Mondrian 5-anonymity of Adult by age and sex, as keps anonymize"
${CC:-cc} -Wall -Wextra -Werror examples/c/run.c $(pkg-config --cflags --libs keps) -o "$w/run-pc"
for exe in "$w/run-pc" "$w/example/run"; do
  "$exe" "$A/adult.csv" "$w/out.csv" 5 age "sex:$A/adult_hierarchy_sex.csv" >"$w/report.json"
  "$w/prefix/bin/keps" verify -i "$w/out.csv" --qi age --qi sex -k 5 >/dev/null
  grep -q '"method":"mondrian"' "$w/report.json"
  [ "$(wc -l <"$w/out.csv")" -eq 30163 ]
  rm "$w/out.csv"
done
echo "install check: passed"
