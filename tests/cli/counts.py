"""--counts COL against the expanded rows (tests/cli/counts.sh).

Adult's rows and their frequency table: the table is made here by Python's
own GROUP BY (collections.Counter over the kept columns, rows shuffled),
not by keps. For each case the run on the frequency table must give the
run on the rows: node, score, suppressed records, classes, every metric,
the guarantee (the whole report but its parameters, timings and the input
comparison); its release, a frequency table, must be the GROUP BY of the
expanded release (same multiset of records); released + suppressed =
records. verify and risk on the two releases must agree the same way.
Arguments: keps binary, source tree, scratch directory.
"""
import collections
import csv
import json
import math
import os
import random
import subprocess
import sys

keps, src, tmp = sys.argv[1:4]
A = os.path.join(src, "data", "adult")
QIS = ["age", "sex", "race", "marital-status", "education"]
KEEP = QIS + ["occupation", "salary-class"]
fails = []


def check(name, cond):
    if not cond:
        fails.append(name)
        print("FAIL: " + name)


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter=";", lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def read(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f, delimiter=";"))
    return r[0], r[1:]


def group(rows):
    return collections.Counter(tuple(r) for r in rows)


# the expanded rows and Python's GROUP BY of them, in a shuffled order
head, rows = read(os.path.join(A, "adult.csv"))
idx = [head.index(c) for c in KEEP]
exp = [[r[i] for i in idx] for r in rows]
rng = random.Random(30)
freq = [list(k) + [str(v)] for k, v in group(exp).items()]
rng.shuffle(freq)
EXP, CNT = os.path.join(tmp, "exp.csv"), os.path.join(tmp, "cnt.csv")
write(EXP, KEEP, exp)
write(CNT, KEEP + ["n"], freq)
assert sum(int(r[-1]) for r in freq) == len(exp) and len(freq) < len(exp)


def run(args, check_rc=0):
    p = subprocess.run([keps] + args, capture_output=True, text=True)
    if p.returncode != check_rc:
        print("keps %s: exit %d\n%s" % (" ".join(args), p.returncode, p.stderr))
    return p


def close(a, b):
    """JSON values equal, numbers to 1e-9 relative (sums in another order)."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (math.isfinite(a) and abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return a == b


def strip(rep, drop):
    """A report without what names the files or depends on row order (which
    of several equally bad classes a verdict shows: worst..., smallest)."""
    if isinstance(rep, dict):
        return {k: strip(v, drop) for k, v in rep.items() if k not in drop and not k.startswith("worst")}
    if isinstance(rep, list):
        return [strip(v, drop) for v in rep]
    return rep


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in set(a) | set(b):
            diff(a.get(k), b.get(k), path + "." + k)
    elif not close(a, b):
        print("  %s: expanded %s, counts %s" % (path, str(a)[:120], str(b)[:120]))


ANON_DROP = {"parameters", "timing_ms", "before_after", "frequency_table", "release_table_rows"}
hier = []
for q in QIS:
    hier += ["--qi", "%s:%s/adult_hierarchy_%s.csv" % (q, A, q)]
cases = []
for k in (2, 5, 10):
    for sup in ("0", "0.05"):
        for metric in ("loss", "prec", "entropy"):
            cases.append(["-k", str(k), "--suppress", sup, "--metric", metric])
crit = [["--sensitive", "occupation", "--l-diversity", "3"],
        ["--sensitive", "occupation", "--entropy-l", "2"],
        ["--sensitive", "occupation", "--t-closeness", "0.3"]]
for c in crit:
    for sup in ("0", "0.05"):
        cases.append(["-k", "3", "--suppress", sup] + c)
cases.append(["-k", "5", "--suppress", "0.05", "--remove-suppressed"])
if os.environ.get("KEPS_SANITIZED"):  # under ASan: a third of them, every kind still
    cases = cases[::3] + cases[-1:]

for n, case in enumerate(cases):
    name = " ".join(case)
    base = ["anonymize", "--algorithm", "ola"] + hier + case + ["--others", "keep", "--seed", "1"]
    if "--sensitive" not in case:
        base += ["--insensitive", "occupation"]
    ro, rc = os.path.join(tmp, "e%d.json" % n), os.path.join(tmp, "c%d.json" % n)
    oo, oc = os.path.join(tmp, "e%d.csv" % n), os.path.join(tmp, "c%d.csv" % n)
    p1 = run(base + ["-i", EXP, "-o", oo, "--report", ro])
    p2 = run(base + ["-i", CNT, "-o", oc, "--report", rc, "--counts", "n"])
    if p1.returncode or p2.returncode:
        check(name + ": both runs succeed", False)
        continue
    e, c = json.load(open(ro)), json.load(open(rc))
    same = close(strip(e, ANON_DROP), strip(c, ANON_DROP))
    if not same:
        diff(strip(e, ANON_DROP), strip(c, ANON_DROP))
    check(name + ": the report (node, score, counts, metrics, guarantee) equals the expanded run's", same)
    ft = c.get("frequency_table", {})
    check(name + ": rows_read and records", ft.get("rows_read") == len(freq) and ft.get("records") == len(exp))
    check(name + ": released + suppressed = records",
          c["released_rows"] + c["suppressed_rows"] == len(exp) == c["input_rows"])
    eh, er = read(oo)
    ch, cr = read(oc)
    j = ch.index("n")
    tuples = [tuple(r[:j] + r[j + 1:]) for r in cr]
    check(name + ": the release lists each released tuple once", len(set(tuples)) == len(tuples))
    got = collections.Counter()
    for t, r in zip(tuples, cr):
        got[t] += int(r[j])
    check(name + ": the release is the GROUP BY of the expanded release", got == group(er))
    check(name + ": its counts sum to the records written", sum(got.values()) == c["output_rows"])
    check(name + ": release_table_rows", c.get("release_table_rows") == len(cr))

    # verify and risk on the two releases
    sens = ["--sensitive", "occupation", "--l-diversity", "2", "--t-closeness", "0.9"]
    v = ["verify", "--qi"] + " --qi ".join(QIS).split() + ["-k", "3"] + sens
    p1 = subprocess.run([keps] + v + ["-i", oo, "--json"], capture_output=True, text=True)
    p2 = subprocess.run([keps] + v + ["-i", oc, "--json", "--counts", "n"], capture_output=True, text=True)
    check(name + ": verify's exit code", p1.returncode == p2.returncode and p1.returncode in (0, 1))
    VDROP = {"parameters", "timing_ms", "frequency_table", "smallest"}
    if p1.stdout and p2.stdout:
        a, b = strip(json.loads(p1.stdout), VDROP), strip(json.loads(p2.stdout), VDROP)
        if not close(a, b):
            diff(a, b)
        check(name + ": verify's verdicts and figures", close(a, b))
    if n % 4 == 0:
        r = ["risk", "--qi"] + " --qi ".join(QIS).split()
        ko, kc = os.path.join(tmp, "ke%d.json" % n), os.path.join(tmp, "kc%d.json" % n)
        run(r + ["-i", oo, "--report", ko])
        run(r + ["-i", oc, "--report", kc, "--counts", "n"])
        a, b = strip(json.load(open(ko)), VDROP), strip(json.load(open(kc)), VDROP)
        if not close(a, b):
            diff(a, b)
        check(name + ": risk's figures", close(a, b))

print("counts.py: %d cases, %d failures" % (len(cases), len(fails)))
sys.exit(1 if fails else 0)
