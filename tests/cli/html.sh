#!/usr/bin/env bash
# The HTML report: keps report and --html on every command that writes a
# report (the README's examples, tests/html/reports.sh, which also checks
# that --html and keps report give the same page), their errors, and every
# page in headless Chromium (tests/html/check_pages.py: no console message,
# each chart present and drawn). Chromium is installed by scripts/test.sh;
# without it the browser part is skipped unless KEPS_REQUIRE_BROWSER=1. It
# is skipped under the sanitizers (KEPS_SANITIZED), where the pages are the
# same.
. "$(dirname "$0")/lib.bash"
cd "$src"

mkdir -p "$d/pages"
t "the README's examples give one page each, --html = keps report" \
  "bash tests/html/reports.sh '$keps' . '$d/pages' >'$d/reports.log' 2>&1 || { cat '$d/reports.log'; false; }"

# keps report: stdin and stdout, and a page that ends with the document
t "keps report - -o - reads stdin, writes stdout" \
  "'$keps' report - -o - <'$d/pages/risk.json' >'$d/stdout.html' && cmp -s '$d/stdout.html' '$d/pages/risk.html'"
t "the page is one HTML document" "head -c 15 '$d/stdout.html' | grep -q '<!DOCTYPE html>' && tail -n 1 '$d/stdout.html' | grep -q '</html>'"
# the same report reformatted (other spacing, key spacing, escapes) gives the same page
python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2],'w'), indent=3, ensure_ascii=True)" \
  "$d/pages/anonymize-ola.json" "$d/pretty.json"
t "a reformatted report gives the same page" \
  "'$keps' report '$d/pretty.json' -o '$d/pretty.html' && cmp -s '$d/pretty.html' '$d/pages/anonymize-ola.html'"

# errors: exit 2, a message naming the file, no output left
printf '{"method": "ola",\n "k": 5,,\n}\n' >"$d/bad.json"
"$keps" report "$d/bad.json" -o "$d/bad.html" 2>"$d/err"; rc=$?
t "a broken report is exit 2" "[ $rc -eq 2 ]"
t "... naming its line and column" "grep -q 'bad.json:2:' '$d/err'"
t "... leaving no page" "[ ! -e '$d/bad.html' ]"
"$keps" report "$src/data/adult/adult.csv" -o "$d/csv.html" 2>"$d/err"; rc=$?
t "a CSV given as a report is exit 2" "[ $rc -eq 2 ] && grep -q 'not a JSON report' '$d/err' && [ ! -e '$d/csv.html' ]"
echo '[1, 2]' | "$keps" report - -o "$d/arr.html" 2>"$d/err"; rc=$?
t "a JSON array is not a report" "[ $rc -eq 2 ] && grep -q 'not a keps report' '$d/err'"
"$keps" report "$d/none.json" -o "$d/none.html" 2>"$d/err"; rc=$?
t "a missing report is exit 2" "[ $rc -eq 2 ] && grep -q 'none.json' '$d/err'"
"$keps" report "$d/pages/risk.json" 2>"$d/err"; rc=$?
t "-o is required" "[ $rc -eq 2 ] && grep -q -- '-o is required' '$d/err'"
"$keps" report "$d/pages/risk.json" -o "$d/pages/risk.json" 2>"$d/err"; rc=$?
t "-o may not be the report" "[ $rc -eq 2 ] && grep -q 'the report itself' '$d/err'"
"$keps" report -o "$d/x.html" 2>"$d/err"; rc=$?
t "a report is required" "[ $rc -eq 2 ] && [ ! -e '$d/x.html' ]"
echo 'old page' >"$d/keep.html"
"$keps" report "$d/bad.json" -o "$d/keep.html" 2>/dev/null
t "a failed run leaves an earlier page as it was" "grep -q 'old page' '$d/keep.html'"

# --html on commands: conflicts refused before any work, a failed run leaves nothing
a=data/adult
"$keps" anonymize --algorithm ola -i $a/adult.csv -o "$d/r.csv" -k 5 --qi sex:$a/adult_hierarchy_sex.csv \
  --others keep --html "$d/r.csv" 2>"$d/err"; rc=$?
t "--html and -o on one file is exit 2" "[ $rc -eq 2 ] && grep -q -- '--output and --html' '$d/err' && [ ! -e '$d/r.csv' ]"
"$keps" anonymize --algorithm ola -i $a/adult.csv -o - -k 5 --qi sex:$a/adult_hierarchy_sex.csv \
  --others keep --html - >"$d/stdout" 2>"$d/err"; rc=$?
t "--html - and -o - are exit 2" "[ $rc -eq 2 ] && grep -q 'both write to standard output' '$d/err'"
"$keps" anonymize --algorithm ola -i $a/adult.csv -o "$d/r.csv" -k 5 --qi sex:$a/adult_hierarchy_sex.csv \
  --others keep --html "$d/nodir/r.html" 2>"$d/err"; rc=$?
t "--html into a missing directory is exit 2 before any work" "[ $rc -eq 2 ] && [ ! -e '$d/r.csv' ]"
"$keps" anonymize --algorithm ola -i $a/adult.csv -o "$d/r.csv" -k 99999 --qi sex:$a/adult_hierarchy_sex.csv \
  --others keep --html "$d/r.html" --report "$d/r.json" 2>/dev/null; rc=$?
t "exit 1 leaves neither release, report nor page" "[ $rc -eq 1 ] && [ ! -e '$d/r.csv' ] && [ ! -e '$d/r.json' ] && [ ! -e '$d/r.html' ]"
"$keps" anonymize --algorithm ola -i $a/adult.csv -o "$d/r.csv" -k 5 --qi sex:$a/adult_hierarchy_sex.csv \
  --others keep --html - --quiet >"$d/r.html" 2>/dev/null; rc=$?
t "--html - writes the page on stdout" "[ $rc -eq 0 ] && grep -q '<title>keps report: ola</title>' '$d/r.html' && [ -s '$d/r.csv' ]"
t "keps --help lists report" "'$keps' help | grep -q '^  report '"
t "--html is in every reporting command's help" \
  "for c in anonymize kepsilon dpmicro safela rr verify risk evaluate noise audit privacy; do '$keps' \$c --help | grep -q -- '--html FILE' || exit 1; done"

if [ -n "${KEPS_SANITIZED:-}" ]; then
  echo "html: the browser check is left to the release suite (KEPS_SANITIZED)"
elif command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
  t "every page loads in Chromium without a console message, every chart drawn" \
    "python3 tests/html/check_pages.py '$d/pages' >'$d/browser.log' 2>&1; rc=\$?; cat '$d/browser.log'; [ \$rc -eq 0 ]"
elif [ "${KEPS_REQUIRE_BROWSER:-0}" = 1 ]; then
  t "chromium is installed (KEPS_REQUIRE_BROWSER=1)" "false"
else
  echo "html: no chromium: the browser check is skipped (scripts/test.sh installs it)"
fi
finish html
