"""Output precision of the commands that compute numbers (kepsilon noisy
values, dpmicro noisy centroids, MDAV centroids), against Python's decimal
module, from docs/spec.md ("Output precision") and --help:

  - the default is each column's input precision: the most decimals any
    of its cells is written with, digits after the mark minus the exponent
    (computed here from the file's text);
  - a value is the exact result (--digits exact, same seed: rounding draws
    no randomness) rounded to that many decimals, halfway cases to even on
    the exact binary value (Decimal(float).quantize(ROUND_HALF_EVEN)),
    and for dpmicro then clamped into its --bounds again;
  - the report's "digits" says so, and its metrics describe the written
    values: kepsilon's measured_are, MDAV's and dpmicro's sse recomputed
    from the release file;
  - --decimal-comma reads "170,5" and writes computed numbers with ',';
  - kepsilon --clamp puts every released value into --bounds and counts the
    values it moved.
Stdlib only; KEPS and KEPS_REPO from the environment."""
import json, os, random, re, subprocess, sys, tempfile
from decimal import Decimal, ROUND_HALF_EVEN

KEPS = os.environ["KEPS"]
rnd = random.Random(404)
TMP = tempfile.mkdtemp()
bad = 0


def decimals(text, comma=False):
    s = text.replace(",", ".") if comma else text
    m = re.fullmatch(r"[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?", s)
    frac = len(m.group(2) or "")
    ex = int(m.group(3) or 0)
    return max(0, frac - ex)


def rounded(x, d):
    return float(Decimal(x).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_EVEN))


def num(s, comma=False):
    return float(s.replace(",", ".") if comma else s)


def run(args):
    p = subprocess.run([KEPS] + args + ["--json", "--quiet"], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("keps %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return json.loads(p.stdout)


def read(path, sep):
    with open(path) as f:
        rows = [line.rstrip("\n").split(sep) for line in f]
    return rows[0], rows[1:]


def report(ok, label, detail=""):
    global bad
    if not ok:
        bad += 1
    print("%-4s %s %s" % ("OK" if ok else "DIFF", label, detail))


def data(n, comma):
    """g (class), h (1 or 2 decimals), w (whole numbers), in one file."""
    sep = ";"
    path = os.path.join(TMP, "d%d%s.csv" % (n, "c" if comma else ""))
    rows = []
    for i in range(n):
        h = "%.*f" % (rnd.choice([1, 1, 2]), rnd.uniform(150, 200))
        rows.append([rnd.choice("abc"), h.replace(".", ",") if comma else h, str(rnd.randint(40, 120))])
    with open(path, "w") as f:
        f.write("g;h;w\n" + "".join(sep.join(r) + "\n" for r in rows))
    return path, rows


def check_kepsilon(n, comma, seed):
    path, rows = data(n, comma)
    base = ["kepsilon", "--algorithm", "given", "-i", path, "--qi", "g", "--noisy", "h", "--noisy", "w", "-k", "2",
            "--seed", str(seed), "--keep-order"]
    if comma:
        base.append("--decimal-comma")
    out_e, out_d = os.path.join(TMP, "ke.csv"), os.path.join(TMP, "kd.csv")
    run(base + ["-o", out_e, "--digits", "exact", "--epsilon", "0.5"])
    rep = run(base + ["-o", out_d, "--epsilon", "0.5"])
    _, ex = read(out_e, ";")
    _, de = read(out_d, ";")
    dig = {"h": max(decimals(r[1], comma) for r in rows), "w": 0}
    ok = rep.get("digits") == dig
    mism = 0
    are_sum, are_n = 0.0, 0
    for r, e, d in zip(rows, ex, de):
        for j, c in ((1, "h"), (2, "w")):
            if e[j] == "*":
                mism += d[j] != "*"
                continue
            if comma and ("." in d[j] or "." in e[j]):
                mism += 1
            want = rounded(num(e[j], comma), dig[c])
            mism += num(d[j], comma) != want or decimals(d[j], comma) > dig[c]
            x = num(r[j], comma)
            if x != 0:
                are_sum += abs(num(d[j], comma) - x) / abs(x)
                are_n += 1
    are = are_sum / are_n  # the measured ARE of the written values (spec 4: mean over columns of per-column
    # means; here both columns have n cells, so the pooled mean is the same)
    ok = ok and mism == 0 and abs(rep["metrics"]["measured_are"] - are) <= 1e-9 * max(1, are)
    report(ok, "kepsilon n=%d comma=%d seed=%d" % (n, comma, seed),
           "digits %s mismatches %d measured_are keps %.12g oracle %.12g" % (rep.get("digits"), mism,
                                                                            rep["metrics"]["measured_are"], are))
    # --clamp: every written value inside the bounds; the count is the values moved onto a bound
    clo, chi = 165, 185
    rep = run(base + ["-o", out_d, "--epsilon", "0.05", "--clamp", "--bounds", "h=150:200", "--bounds",
                      "w=%d:%d" % (clo - 130, chi - 60)])
    _, cl = read(out_d, ";")
    inside = all(150 <= num(r[1], comma) <= 200 and clo - 130 <= num(r[2], comma) <= chi - 60
                 for r in cl if r[1] != "*")
    moved = sum(1 for r in cl if r[2] != "*" and num(r[2], comma) in (clo - 130, chi - 60))
    got = rep["clamp"]["w"]["clamped_rows"]
    report(inside and got <= moved and got > 0, "kepsilon --clamp n=%d" % n,
           "inside %s clamped_rows %d at a bound %d" % (inside, got, moved))


def check_mdav(n, seed):
    path, rows = data(n, False)
    base = ["anonymize", "--algorithm", "mdav", "-i", path, "--qi", "h", "--qi", "w", "-k", "3", "--keep-order",
            "--others", "drop"]
    out_e, out_d = os.path.join(TMP, "me.csv"), os.path.join(TMP, "md.csv")
    run(base + ["-o", out_e, "--digits", "exact"])
    rep = run(base + ["-o", out_d])
    _, ex = read(out_e, ";")
    _, de = read(out_d, ";")
    dig = {"h": max(decimals(r[1]) for r in rows), "w": 0}
    mism = sum(float(d[j]) != rounded(float(e[j]), dig[c]) for e, d in zip(ex, de) for j, c in ((0, "h"), (1, "w")))
    sse = sum((float(r[1]) - float(d[0])) ** 2 + (float(r[2]) - float(d[1])) ** 2 for r, d in zip(rows, de))
    ok = rep.get("digits") == dig and mism == 0 and abs(rep["metrics"]["sse"] - sse) <= 1e-9 * max(1, sse)
    report(ok, "mdav n=%d" % n, "mismatches %d sse keps %.12g oracle %.12g" % (mism, rep["metrics"]["sse"], sse))


def check_dpmicro(n, seed, digits):
    path, rows = data(n, False)
    lo, hi = "140.05", "210.05"  # more decimals than the data: rounding may leave them, the clamp restores
    base = ["dpmicro", "-i", path, "--qi", "h", "--qi", "w", "-k", "3", "--epsilon", "2", "--bounds",
            "h=%s:%s" % (lo, hi), "--bounds", "w=0:200", "--seed", str(seed), "--keep-order", "--others", "drop"]
    out_e, out_d = os.path.join(TMP, "de.csv"), os.path.join(TMP, "dd.csv")
    run(base + ["-o", out_e, "--digits", "exact"])
    rep = run(base + ["-o", out_d] + (["--digits", str(digits)] if digits is not None else []))
    _, ex = read(out_e, ";")
    _, de = read(out_d, ";")
    d0 = {"h": max(decimals(r[1]) for r in rows) if digits is None else digits, "w": 0 if digits is None else digits}
    bounds = {"h": (float(lo), float(hi)), "w": (0.0, 200.0)}
    mism = 0
    for e, d in zip(ex, de):
        for j, c in ((0, "h"), (1, "w")):
            want = min(max(rounded(float(e[j]), d0[c]), bounds[c][0]), bounds[c][1])
            mism += float(d[j]) != want
    sse = sum((float(r[1]) - float(d[0])) ** 2 + (float(r[2]) - float(d[1])) ** 2 for r, d in zip(rows, de))
    ok = rep.get("digits") == d0 and mism == 0 and abs(rep["metrics"]["sse"] - sse) <= 1e-9 * max(1, sse)
    report(ok, "dpmicro n=%d digits=%s" % (n, digits),
           "mismatches %d sse keps %.12g oracle %.12g" % (mism, rep["metrics"]["sse"], sse))


if __name__ == "__main__":
    for i, n in enumerate((12, 40, 200)):
        check_kepsilon(n, False, i + 1)
        check_kepsilon(n, True, i + 11)
        check_mdav(n, i)
        check_dpmicro(n, i + 21, None)
        check_dpmicro(n, i + 31, 1)
    print("discrepancies", bad)
    sys.exit(1 if bad else 0)
