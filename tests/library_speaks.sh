#!/usr/bin/env bash
# The library speaks of parameters, never of the CLI's flags, and reads no
# environment (the CLI maps flags and KEPS_* variables onto parameters):
# libkeps.so imports no getenv, and no string literal in src/*.c or
# src/command/*.c names a flag ("--beta", "(-k)", "-o.", "--%s"): messages,
# help texts and usage lines write {name} markup, which the caller's spell
# hook renders, and report values name the parameter ("epsilon"). Comments
# may name flags; messages may not. The one exception is the keps
# executable's own command line that audit's neighbours parameter spawns,
# each flag marked ARGV("--seed") (src/command/audit_neighbours.c).
set -u
lib=$1; src=$2
fail=0
ls "$src"/src/*.c "$src"/src/command/*.c >/dev/null || { echo "FAIL: no sources under $src/src"; exit 1; }
env=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep -E '^(secure_)?getenv(@|$)')
if [ -n "$env" ]; then echo "FAIL: libkeps.so reads the environment: $env"; fail=1; fi
# string literals of the library's sources, comments removed (gcc -fpreprocessed
# keeps the literals and drops the comments)
flags=$(for f in "$src"/src/*.c "$src"/src/command/*.c; do
  gcc -fpreprocessed -dD -E -P "$f" 2>/dev/null | grep -v 'ARGV(' | grep -oE '"([^"\\]|\\.)*"' |
    grep -E '(^"|[ (\[/|])--?([a-z][a-z-]*|%s)([] ,:;.)=/|]|")' | grep -vE '^"(-|--|-inf|-nan)"$' |
    sed "s|^|${f#"$src"/}: |"
done)
if [ -n "$flags" ]; then echo "FAIL: library messages name CLI flags:"; echo "$flags"; fail=1; fi
[ $fail = 0 ] && echo "ok: no getenv in libkeps.so, no flag in the library's strings"
exit $fail
