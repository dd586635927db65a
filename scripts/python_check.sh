#!/usr/bin/env bash
# The Python package (bindings/python): installs what it needs from Debian
# (test-only packages, not setup.sh's), then `pip install ./bindings/python`
# offline into a virtual environment over Debian's python3 (its pandas,
# numpy, setuptools, wheel), against the library in BUILD_DIR (default
# ./build, built by the release stage), and runs the pytest suite there
# against the keps CLI of BUILD_DIR. A second install builds against an
# installed keps found by pkg-config (a temporary prefix) and runs the
# suite's quick part. Fails on any failed test or compiler warning in
# the extension; tests that need the CLI or the data fail instead of
# skipping (KEPS_REQUIRE_CLI=1).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=$(cd "${1:-build}" && pwd)
[ -f "$build/libkeps.a" ] && [ -x "$build/keps" ] || { echo "python_check: no libkeps.a and keps in $build" >&2; exit 1; }
py=${KEPS_PYTHON:-/usr/bin/python3} # Debian's: its packages below

pkgs=(python3-dev python3-venv python3-pip python3-setuptools python3-wheel python3-numpy python3-pandas
      python3-pytest python3-tqdm)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 # offline, nothing kept
export KEPS_SOURCE_DIR=$src KEPS_BINARY=$build/keps KEPS_REQUIRE_CLI=1 PYTHONDONTWRITEBYTECODE=1
# the suite runs from a copy of tests/ so that the source directory's keps/ cannot shadow the install
cp -r bindings/python/tests "$w/tests"

echo "-- pip install ./bindings/python (against $build)"
"$py" -m venv --system-site-packages "$w/venv"
rm -rf bindings/python/build # a stale in-tree build would be reused
KEPS_BUILD_DIR=$build CFLAGS="-Werror" "$w/venv/bin/pip" install --no-build-isolation -q ./bindings/python
echo "-- pytest"
(cd "$w/tests" && "$w/venv/bin/python" -m pytest -q -p no:cacheprovider -rs .)

echo "-- pip install against an installed keps (pkg-config)"
cmake -S . -B "$w/lib" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEPS_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$w/prefix" \
  >/dev/null
cmake --build "$w/lib" -j"$(nproc)" --target keps keps_static keps_shared >/dev/null
cmake --install "$w/lib" >/dev/null
pc=$(find "$w/prefix" -name keps.pc | head -1)
[ -n "$pc" ] || { echo "python_check: cmake --install wrote no keps.pc" >&2; exit 1; }
"$py" -m venv --system-site-packages "$w/venv-pc"
rm -rf bindings/python/build
PKG_CONFIG_PATH=$(dirname "$pc") KEPS_PKGCONFIG=1 CFLAGS="-Werror" \
  "$w/venv-pc/bin/pip" install --no-build-isolation -q ./bindings/python
rm -rf bindings/python/build
(cd "$w/tests" && "$w/venv-pc/bin/python" -m pytest -q -p no:cacheprovider test_frame.py test_noise.py)
echo "python_check: passed"
