#!/usr/bin/env bash
# The R package (bindings/R): installs what its checks need from Debian
# (test-only packages, not setup.sh's), checks that the committed Rd files
# and NAMESPACE are what roxygen2 generates from the sources, then runs
# R CMD build and R CMD check --no-manual against the library in BUILD_DIR
# (default ./build, built by the release stage) with its C warnings as
# errors. The testthat suite compares results with the keps CLI in
# BUILD_DIR. Fails on any ERROR or WARNING of the check; NOTEs are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=$(cd "${1:-build}" && pwd)
[ -f "$build/libkeps.a" ] && [ -x "$build/keps" ] || { echo "r_check: no libkeps.a and keps in $build" >&2; exit 1; }

scripts/test_setup.sh # R, testthat, jsonlite, roxygen2, knitr, markdown

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export KEPS_BUILD_DIR=$build KEPS_CLI=$build/keps KEPS_REQUIRE_CLI=1
# -Wcast-function-type: R's routine registration casts to DL_FUNC by design
printf 'CFLAGS = -g -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-cast-function-type -Werror\n' >"$w/Makevars"
export R_MAKEVARS_USER=$w/Makevars

echo "-- R/commands.R is what tools/gen_commands.R makes of the library's catalog; man/ and NAMESPACE roxygen2's"
cp -rL bindings/R "$w/pkg"
mkdir "$w/lib"
(cd "$w/pkg" && ./cleanup && R CMD INSTALL --no-docs -l "$w/lib" . >"$w/gen.log" 2>&1 && ./cleanup &&
   R_LIBS=$w/lib Rscript tools/gen_commands.R >>"$w/gen.log" 2>&1) || { cat "$w/gen.log"; exit 1; }
if ! diff bindings/R/R/commands.R "$w/pkg/R/commands.R"; then
  echo "r_check: R/commands.R differs from the catalog's: run tools/gen_commands.R in bindings/R (see its header)" >&2
  exit 1
fi
(cd "$w/pkg" && Rscript -e 'roxygen2::roxygenise()' >/dev/null 2>"$w/roxygen.log") ||
  { cat "$w/roxygen.log"; exit 1; }
if ! diff -r bindings/R/man "$w/pkg/man" || ! diff bindings/R/NAMESPACE "$w/pkg/NAMESPACE"; then
  echo "r_check: man/ or NAMESPACE differ from roxygen2's output: run roxygen2::roxygenise() in bindings/R" >&2
  exit 1
fi

echo "-- R CMD build"
(cd "$w" && R CMD build "$src/bindings/R" >build.log 2>&1) || { cat "$w/build.log"; exit 1; }
tarball=$(ls "$w"/keps_*.tar.gz)
echo "-- R CMD check --no-manual $(basename "$tarball")"
rc=0
(cd "$w" && R CMD check --no-manual "$tarball" >check.log 2>&1) || rc=$?
log=$w/keps.Rcheck/00check.log
grep -E "^\* checking .*\.\.\. (NOTE|WARNING|ERROR)" -A12 "$log" || true
status=$(grep '^Status:' "$log" || echo "Status: no status line")
echo "$status"
if [ $rc -ne 0 ] || ! grep -qE '^Status: (OK|[0-9]+ NOTEs?)$' "$log"; then
  tail -n 40 "$w/check.log"
  for f in "$w"/keps.Rcheck/tests/*.Rout.fail; do [ -f "$f" ] && tail -n 60 "$f"; done
  echo "r_check: R CMD check found an ERROR or WARNING" >&2
  exit 1
fi
echo "r_check: passed"
