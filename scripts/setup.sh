#!/usr/bin/env bash
# Installs what keps needs to build and test on Debian (run as root) and
# configures + builds the release build in ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(build-essential cmake pkg-config libcsv-dev libyaml-dev libsodium-dev libcmocka-dev
      clang libclang-rt-14-dev valgrind python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "setup: built ./build/keps" >&2
