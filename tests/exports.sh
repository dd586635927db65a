#!/usr/bin/env bash
# libkeps.so exports its API and nothing else: every defined dynamic symbol
# is declared in include/keps/ (internals shared between source files are
# KEPS_INTERNAL, src/internal.h).
set -u
lib=$1; src=$2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u)
declared=$(cat "$src"/include/keps/*.h | grep -oE '\bkeps_[a-z0-9_]+\b' | sort -u)
n=$(wc -l <<<"$exported")
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
if [ "$n" -lt 100 ]; then echo "FAIL: only $n exported symbols (is $lib the library?)"; exit 1; fi
if [ -n "$extra" ]; then echo "FAIL: exported but not declared in include/keps/:"; echo "$extra"; exit 1; fi
# Front-end matters stay out of the library: exit codes are the CLI's
# (src/cli/exit_code.h), not a libkeps call.
for gone in keps_exit_code; do
  if grep -qx "$gone" <<<"$exported"; then echo "FAIL: $lib exports $gone (a front-end's, not the library's)"; exit 1; fi
done
echo "ok: $n exported symbols, all declared in include/keps/"
