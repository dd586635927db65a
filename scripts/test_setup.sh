#!/usr/bin/env bash
# Installs the Debian packages that only the tests need (run as root or
# with sudo; scripts/setup.sh installs what keps needs to build):
#  - the --emit-sql test runs its scripts in SQLite and a throwaway
#    PostgreSQL cluster, the HTML report's test loads pages in Chromium;
#  - the R package (bindings/R, scripts/r_check.sh): R, testthat, jsonlite
#    (the reports as lists), roxygen2 (its docs are checked current), knitr
#    and markdown (its vignette).
# Installs only what is missing; does nothing when all are there.
set -euo pipefail
pkgs=(sqlite3 postgresql chromium
      r-base-dev r-cran-testthat r-cran-jsonlite r-cran-roxygen2 r-cran-knitr r-cran-markdown)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -gt 0 ] || exit 0
echo "test_setup: installing ${missing[*]}" >&2
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
