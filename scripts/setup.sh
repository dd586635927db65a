#!/usr/bin/env bash
# Installs what keps needs to build and test on Debian (run as root) and
# configures + builds the release build in ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(build-essential cmake pkg-config libcsv-dev libyaml-dev libsodium-dev libjansson-dev libcmocka-dev
      clang valgrind python3)
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
updated=0
apt_install() { # PACKAGE...: those not installed yet
  local missing=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "setup: installing ${missing[*]}" >&2
  [ $updated = 1 ] || { $SUDO apt-get update -qq; updated=1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
}
apt_install "${pkgs[@]}"
# keps-mpi (the pipeline on a cluster) is built when MPI is found: Open MPI.
apt_install libopenmpi-dev openmpi-bin
# The fuzzers need clang's libFuzzer runtime: in Debian it comes with the
# compiler-rt package of the clang version that "clang" depends on
# (libclang-rt-N-dev since clang 14; older ones ship it in
# libclang-common-N-dev, which clang already pulls in).
fuzz_links() {
  echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n; }' |
    clang -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1
}
if ! fuzz_links; then
  v=$(clang -dumpversion | cut -d. -f1)
  [ $updated = 1 ] || { $SUDO apt-get update -qq; updated=1; }
  if apt-cache show "libclang-rt-$v-dev" >/dev/null 2>&1; then
    apt_install "libclang-rt-$v-dev"
  else
    echo "setup: no libclang-rt-$v-dev for clang $v; the fuzz stage of scripts/test.sh needs libFuzzer" >&2
  fi
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built ./build/keps" >&2
