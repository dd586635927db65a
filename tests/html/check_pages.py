#!/usr/bin/env python3
"""Loads every page tests/html/reports.sh wrote in headless Chromium and
checks what a reviewer would see:
  - the page loads with no console message at all (no error, no blocked
    load: its Content-Security-Policy forbids every network request, so one
    would show up here), and its script ran to the end (data-rendered);
  - every chart the report's data calls for is present and non-empty: a
    <figure class="chart" data-chart=NAME> holding at least one drawn mark
    (a rect of positive width and height, or a circle of positive radius);
  - the page names no network resource (src/href to http(s), url(), @import).
With --screenshots DIR it also saves one full-page PNG per report there.
    check_pages.py PAGES_DIR [--screenshots DIR]
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The charts each README example must show (a name ending in '*' is a
# prefix: one chart per attribute). Pages may show more.
RISK = ['risk-class-sizes', 'risk-prosecutor', 'risk-highest']   # before_after: input vs release
DIST = ['dist-input-*', 'dist-release-*']
LATTICE = ['lattice', 'lattice-scores']
EXPECT = {
    'anonymize-ola-job': ['rows', 'generalization', 'information-loss'] + LATTICE + RISK + DIST + ['suppressed-*'],
    'anonymize-ola': ['rows', 'generalization', 'information-loss'] + LATTICE + RISK + DIST + ['suppressed-*'],
    'anonymize-mondrian': ['rows'] + RISK + DIST,
    'anonymize-mdav': ['rows', 'group-sizes'] + RISK + DIST,
    'verify': ['verify-smallest'],
    'kepsilon': ['rows', 'generalization', 'noise-scale'] + LATTICE + RISK + DIST + ['suppressed-*'],
    'dpmicro': ['rows', 'noise-scale'] + RISK + DIST,
    'risk-linkage': ['risk-class-sizes'],
    'risk': ['risk-class-sizes', 'risk-prosecutor', 'population-uniques', 'individual-risk', 'attribute-risk',
             'suda-dis', 'suda-contributions'],
    'safela': ['rows', 'generalization'] + LATTICE + RISK + DIST,
    'evaluate': ['classifier', 'evaluate-attributes'],
    'rr': ['rows', 'rr-levels'] + RISK + DIST,
    'privacy-delta': [],
    'privacy-min-k': [],
    'privacy-rr-epsilon': [],
    'privacy-implies': [],
    'noise': ['noise-releases'],
    'audit': ['audit-epsilon'],
}

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--hide-scrollbars', '--enable-logging=stderr', '--v=0']
WIDTH = 1100


def chromium():
    for c in ('chromium', 'chromium-browser'):
        p = shutil.which(c)
        if p:
            return p
    return None


class Dom(html.parser.HTMLParser):
    """Charts and their marks in the DOM Chromium dumps after the script ran."""

    def __init__(self):
        super().__init__()
        self.root = {}
        self.charts = {}   # name -> drawn marks
        self.stack = []    # open figure.chart names, innermost last, with depth
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'html':
            self.root = a
        self.depth += 1
        if tag == 'figure' and 'chart' in (a.get('class') or '').split():
            name = a.get('data-chart', '')
            self.charts.setdefault(name, 0)
            self.stack.append((name, self.depth))
        elif self.stack and 'mark' in (a.get('class') or '').split():
            def pos(k):
                try:
                    return float(a.get(k, '0')) > 0
                except ValueError:
                    return False
            if (tag == 'rect' and pos('width') and pos('height')) or (tag == 'circle' and pos('r')):
                self.charts[self.stack[-1][0]] += 1

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1][1] == self.depth and tag == 'figure':
            self.stack.pop()
        self.depth -= 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.depth -= 1


def run(browser, args, url, profile):
    # No short timeout: a loaded machine may be slow; an hour only stops a hang.
    return subprocess.run([browser] + FLAGS + ['--user-data-dir=' + profile] + args + [url],
                          capture_output=True, text=True, timeout=3600)


def check(browser, path, shots):
    name = os.path.basename(path)[:-len('.html')]
    errors = []
    text = open(path, encoding='utf-8').read()
    if re.search(r'''(src|href)\s*=\s*["']?\s*(https?:)?//''', text, re.I) or re.search(r'url\(|@import', text):
        errors.append('the page names a network resource')
    with tempfile.TemporaryDirectory() as profile:
        r = run(browser, ['--dump-dom', '--window-size=%d,1200' % WIDTH], 'file://' + os.path.abspath(path), profile)
    console = [ln for ln in r.stderr.splitlines() if ':CONSOLE' in ln]
    if r.returncode != 0:
        errors.append('chromium exited %d: %s' % (r.returncode, r.stderr[-500:]))
    errors += ['console: ' + ln for ln in console]
    dom = Dom()
    dom.feed(r.stdout)
    if dom.root.get('data-rendered') != 'yes':
        errors.append('the script did not run to the end (no data-rendered)')
    if dom.root.get('data-section-error'):
        errors.append('a section could not be drawn: ' + dom.root['data-section-error'])
    for want in EXPECT.get(name, []):
        got = [c for c in dom.charts if (c.startswith(want[:-1]) if want.endswith('*') else c == want)]
        if not got:
            errors.append('chart %s missing' % want)
    for c, marks in dom.charts.items():
        if marks == 0:
            errors.append('chart %s is empty' % c)
    if name not in EXPECT:
        errors.append('no expectation for this page (add it to EXPECT)')
    if shots and not errors:
        height = min(int(dom.root.get('data-height', '2000')) + 20, 12000)
        png = os.path.join(shots, name + '.png')
        with tempfile.TemporaryDirectory() as profile:
            s = run(browser, ['--screenshot=' + png, '--window-size=%d,%d' % (WIDTH, height)],
                    'file://' + os.path.abspath(path), profile)
        if s.returncode != 0 or not os.path.getsize(png):
            errors.append('no screenshot')
    return name, sorted(dom.charts), errors


def main():
    pages_dir = sys.argv[1]
    shots = sys.argv[sys.argv.index('--screenshots') + 1] if '--screenshots' in sys.argv else None
    browser = chromium()
    if not browser:
        print('check_pages.py: no chromium found (apt-get install chromium)')
        return 2
    pages = sorted(os.path.join(pages_dir, f) for f in os.listdir(pages_dir)
                   if f.endswith('.html') and not f.endswith('.report.html'))
    failed = 0
    for p in pages:
        name, charts, errors = check(browser, p, shots)
        print('%-20s %2d charts %s' % (name, len(charts), 'ok' if not errors else 'FAILED'))
        for e in errors:
            print('    ' + e)
        failed += bool(errors)
    missing = set(EXPECT) - {os.path.basename(p)[:-5] for p in pages}
    for m in sorted(missing):
        print('%-20s missing page' % m)
    failed += len(missing)
    print('%d passed, %d failed' % (len(pages) - failed + len(missing), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
