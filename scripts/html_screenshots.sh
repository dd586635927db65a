#!/usr/bin/env bash
# Regenerates docs/html/*.png: one screenshot per README example's HTML
# report, as headless Chromium shows it (the pages of tests/html/reports.sh,
# checked by tests/html/check_pages.py before each screenshot).
#   scripts/html_screenshots.sh [KEPS]   (default ./build/keps)
set -euo pipefail
cd "$(dirname "$0")/.."
keps=${1:-build/keps}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
bash tests/html/reports.sh "$keps" . "$work"
mkdir -p docs/html
rm -f docs/html/*.png
python3 tests/html/check_pages.py "$work" --screenshots docs/html
