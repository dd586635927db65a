#!/usr/bin/env bash
# Docs stand alone: no reference a reader of the repository cannot follow
# ("seed 003", "SPEC 4", a seeds/ folder, the original spec SPEC.md) in the
# docs, README, public headers, library sources (the command layer's help
# texts included), the CLI, the man page, tests and benchmarks. Methods are
# named by their papers (docs/spec.md, References).
set -u
src=$2
cd "$src" || exit 1
hits=$(grep -rnE '\b[Ss]eeds? 00[0-4]\b|\bSPEC [0-9]|\bSPEC(\.md|'"'"'s)\b|\bseeds/|/work/shared' \
  README.md docs/*.md include/keps src/*.c src/*.h src/command src/cli man/keps.1 tests/*.c tests/*.py tests/oracles tests/cli bench 2>/dev/null)
if [ -n "$hits" ]; then echo "FAIL: references the repository does not hold:"; echo "$hits"; exit 1; fi
grep -q '^## References' docs/spec.md || { echo "FAIL: docs/spec.md has no References section"; exit 1; }
echo "ok: docs, headers, sources and tests cite papers and docs/spec.md sections only"
