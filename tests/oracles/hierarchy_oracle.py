"""keps hierarchy build against an independent Python implementation of the
builders as docs/spec.md ("Hierarchy builders") and keps hierarchy --help
describe them, written from those texts and from ARX's builders' published
behaviour, not from keps's code:

  interval=W1,...[,bottom=B][,top=T]  [lo-hi[ with lo = floor(v/w)*w in exact
      decimals (Python's decimal module), cut at B and T; "<B" below B and
      ">=T" from T on, on every level
  mask=C1,...   ARX's redaction: pad on the right with '*' to the longest
      value (in characters), keep all but the last C characters, '*' them
  order=R1,...  runs of R consecutive values of the sorted distinct values
      (numbers by value when the column is numeric by keps's type rule,
      else by code point), labelled "[first, last]"
  date=U1,...   ISO dates by day, month, quarter, year, decade, century
      (Python's datetime decides which dates exist), bottom/top as dates
  bottom=B,top=T alone: coded values, the rest as they are

Every hierarchy ends at '*', the missing value (the empty cell) stays itself
below it, and rows are sorted as the builder orders the values, missing
last. Also: invalid dates are refused with FILE:LINE:COLUMN.

usage: hierarchy_oracle.py KEPS WORKDIR [CASES]"""
import csv, datetime, os, random, re, subprocess, sys
from decimal import Decimal, ROUND_FLOOR

KEPS, WORK = sys.argv[1], sys.argv[2]
CASES = int(sys.argv[3]) if len(sys.argv) > 3 else 300
if os.environ.get("KEPS_SANITIZED"):  # the ASan suite: fewer keps runs, the same kinds of case
    CASES = min(CASES, 100)
rnd = random.Random(20271)


def fmt(d, comma=False):
    """A Decimal as keps writes a label's number: plain, no trailing zeros."""
    if d == 0:
        s = "0"
    else:
        s = format(d.normalize(), "f")
    return s.replace(".", ",") if comma else s


def is_numeric(values, comma=False):
    """keps's type rule (docs/spec.md, section 1)."""
    seen = False
    for s in values:
        if s == "":
            continue
        t = s
        if comma:
            if "." in s:
                return False
            t = s.replace(",", ".")
        if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", t):
            return False
        x = float(t)
        if abs(x) > 1e100:
            return False
        if re.match(r"[+-]?0\d", s):
            return False
        if re.fullmatch(r"[+-]?\d+", s) and int(s) != int(x):
            return False
        seen = True
    return seen


# ---------------------------------------------------------------- builders

def interval_rows(vals, widths, bottom, top, comma):
    out = {}
    for s in vals:
        v = Decimal(s.replace(",", ".") if comma else s)
        row = [s]
        for w in widths:
            if bottom is not None and v < bottom:
                row.append("<" + fmt(bottom, comma))
            elif top is not None and v >= top:
                row.append(">=" + fmt(top, comma))
            else:
                lo = (v / w).to_integral_value(rounding=ROUND_FLOOR) * w
                hi = lo + w
                if bottom is not None and lo < bottom:
                    lo = bottom
                if top is not None and hi > top:
                    hi = top
                row.append("[%s-%s[" % (fmt(lo, comma), fmt(hi, comma)))
        out[s] = row
    return out


def coding_rows(vals, bottom, top, comma):
    out = {}
    for s in vals:
        v = Decimal(s.replace(",", ".") if comma else s)
        if bottom is not None and v < bottom:
            out[s] = [s, "<" + fmt(bottom, comma)]
        elif top is not None and v >= top:
            out[s] = [s, ">=" + fmt(top, comma)]
        else:
            out[s] = [s, s]
    return out


def mask_rows(vals, counts):
    L = max(len(v) for v in vals)
    out = {}
    for v in vals:
        padded = v + "*" * (L - len(v))
        out[v] = [v] + [padded[:L - c] + "*" * c for c in counts]
    return out


def order_key(numeric, comma):
    if numeric:
        return lambda s: (float(s.replace(",", ".") if comma else s), s.encode())
    return lambda s: s.encode()


def order_rows(vals, runs, numeric, comma):
    srt = sorted(vals, key=order_key(numeric, comma))
    out = {}
    for i, v in enumerate(srt):
        row = [v]
        for r in runs:
            first = i // r * r
            last = min(first + r, len(srt)) - 1
            row.append("[%s, %s]" % (srt[first], srt[last]))
        out[v] = row
    return out, srt


def parse_date(s):
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?", s)
    if not m:
        return None
    y, mo, d, h, mi, se = (int(g) if g else 0 for g in m.groups())
    try:
        return datetime.datetime(y, mo, d, h, mi, se)
    except ValueError:
        return None


def date_label(t, unit):
    if unit == "day":
        return "%04d-%02d-%02d" % (t.year, t.month, t.day)
    if unit == "month":
        return "%04d-%02d" % (t.year, t.month)
    if unit == "quarter":
        return "%04d-Q%d" % (t.year, (t.month - 1) // 3 + 1)
    if unit == "year":
        return "%04d" % t.year
    span = 10 if unit == "decade" else 100
    lo = t.year // span * span
    return "[%d, %d[" % (lo, lo + span)


def date_rows(vals, units, bottom, top):
    out = {}
    for s in vals:
        t = parse_date(s)
        if bottom is not None and t < parse_date(bottom):
            out[s] = [s] + ["<" + bottom] * len(units)
        elif top is not None and t >= parse_date(top):
            out[s] = [s] + [">=" + top] * len(units)
        else:
            out[s] = [s] + [date_label(t, u) for u in units]
    return out


# ---------------------------------------------------------------- cases

def rand_decimal(dec, lo, hi):
    x = Decimal(rnd.randint(lo * 10 ** dec, hi * 10 ** dec)) / (10 ** dec)
    return format(x, "f")


def case_interval():
    dec = rnd.choice([0, 0, 1, 2])
    comma = rnd.uniform(0, 1) < 0.25
    vals = [rand_decimal(dec, -50, 150) for _ in range(rnd.randint(3, 40))]
    w = Decimal(rnd.choice(["1", "2", "5", "0.5", "0.1", "0.25", "3", "10"]))
    widths = [w]
    for _ in range(rnd.randint(0, 3)):
        widths.append(widths[-1] * rnd.choice([2, 3, 5]))
    bottom = Decimal(rand_decimal(rnd.choice([0, 1]), -40, 40)) if rnd.uniform(0, 1) < 0.4 else None
    top = Decimal(rand_decimal(rnd.choice([0, 1]), 60, 140)) if rnd.uniform(0, 1) < 0.4 else None
    spec = "interval=" + ",".join(format(x, "f") for x in widths)
    if bottom is not None:
        spec += ",bottom=" + format(bottom, "f")
    if top is not None:
        spec += ",top=" + format(top, "f")
    if comma:
        vals = [v.replace(".", ",") for v in vals]
    rows = interval_rows(set(vals), widths, bottom, top, comma)
    srt = sorted(set(vals), key=order_key(True, comma))
    return vals, spec, rows, srt, comma


def case_coding():
    vals = [str(rnd.randint(0, 100)) for _ in range(rnd.randint(3, 30))]
    bottom = Decimal(rnd.randint(0, 40)) if rnd.uniform(0, 1) < 0.7 else None
    top = Decimal(rnd.randint(50, 100)) if bottom is None or rnd.uniform(0, 1) < 0.5 else None
    parts = []
    if bottom is not None:
        parts.append("bottom=%s" % bottom)
    if top is not None:
        parts.append("top=%s" % top)
    rows = coding_rows(set(vals), bottom, top, False)
    return vals, ",".join(parts), rows, sorted(set(vals), key=order_key(True, False)), False


def case_mask():
    alphabet = "0123456789" * 3 + "ABCxyz\u00e9\u00fc"
    vals = []
    for _ in range(rnd.randint(3, 30)):
        n = rnd.choice([5, 5, 5, 4, 3, 6])
        vals.append("".join(rnd.choice(alphabet) for _ in range(n)))
    L = max(len(v) for v in vals)
    counts = sorted(rnd.sample(range(1, L), rnd.randint(1, min(4, L - 1))))
    rows = mask_rows(set(vals), counts)
    return vals, "mask=" + ",".join(map(str, counts)), rows, sorted(set(vals), key=lambda s: s.encode()), False


def case_order():
    kind = rnd.choice(["int", "code", "word"])
    if kind == "int":
        vals = [str(rnd.randint(-20, 200)) for _ in range(rnd.randint(3, 40))]
    elif kind == "code":
        vals = ["%03d" % rnd.randint(0, 150) for _ in range(rnd.randint(3, 40))]
    else:
        vals = [rnd.choice(["HS-grad", "Bachelors", "Masters", "Doctorate", "9th", "10th", "Some-college",
                            "\u00c4rzte", "Zahn", "apple"]) for _ in range(rnd.randint(3, 20))]
    runs = [rnd.choice([2, 3])]
    for _ in range(rnd.randint(0, 2)):
        runs.append(runs[-1] * rnd.choice([2, 3]))
    numeric = is_numeric(vals)
    rows, srt = order_rows(set(vals), runs, numeric, False)
    return vals, "order=" + ",".join(map(str, runs)), rows, srt, False


UNITS = ["day", "month", "quarter", "year", "decade", "century"]


def rand_date():
    t = datetime.datetime(1890, 1, 1) + datetime.timedelta(seconds=rnd.randint(0, 150 * 365 * 86400))
    form = rnd.choice(["d", "d", "T", " ", "Tm"])
    if form == "d":
        return t.strftime("%Y-%m-%d")
    if form == "Tm":
        return t.strftime("%Y-%m-%dT%H:%M")
    return t.strftime("%Y-%m-%d" + form + "%H:%M:%S")


def case_date():
    vals = [rand_date() for _ in range(rnd.randint(3, 30))]
    vals += rnd.sample(["2000-02-29", "2020-02-29", "1996-02-29T12:00"], rnd.randint(0, 2))
    units = sorted(rnd.sample(UNITS, rnd.randint(1, 4)), key=UNITS.index)
    bottom = rand_date()[:10] if rnd.uniform(0, 1) < 0.3 else None
    top = rand_date()[:10] if rnd.uniform(0, 1) < 0.3 else None
    if bottom and top and parse_date(bottom) >= parse_date(top):
        bottom, top = None, top
    spec = "date=" + ",".join(units) + (",bottom=" + bottom if bottom else "") + (",top=" + top if top else "")
    rows = date_rows(set(vals), units, bottom, top)
    srt = sorted(set(vals), key=lambda s: (parse_date(s), s.encode()))
    return vals, spec, rows, srt, False


def run_case(i, make):
    vals, spec, rows, srt, comma = make()
    missing = rnd.uniform(0, 1) < 0.3
    cells = list(vals)
    if missing:
        cells.insert(rnd.randrange(len(cells) + 1), "")
    path = os.path.join(WORK, "h%d.csv" % i)
    sep = ";" if comma or rnd.uniform(0, 1) < 0.5 else ","
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter=sep, lineterminator="\n")
        w.writerow(["id", "c"])
        for k, v in enumerate(cells):
            w.writerow([k, v])
    args = [KEPS, "hierarchy", "build", "-i", path, "--qi", "c:" + spec, "-o", "-"]
    if comma:
        args.append("--decimal-comma")
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        return "exit %d: %s" % (p.returncode, p.stderr.strip()[:300]), args
    got = list(csv.reader(p.stdout.splitlines(), delimiter=";"))
    want = [rows[v] + ["*"] for v in srt]
    if missing:
        want.append([""] * (len(want[0]) - 1) + ["*"])
    if got != want:
        for g, w_ in zip(got, want):
            if g != w_:
                return "first difference: keps %r, oracle %r" % (g, w_), args
        return "%d rows from keps, %d from the oracle" % (len(got), len(want)), args
    return None, args


def refusals():
    """Dates that do not exist, or other layouts: exit 2 at FILE:LINE:COLUMN."""
    bad = 0
    for k, s in enumerate(["2019-02-29", "1900-02-29", "2021-04-31", "31/12/2020", "2020-1-05", "2020-01-01T24:00",
                           "2020-01-01T10:00+01:00", "20200101"]):
        path = os.path.join(WORK, "bad%d.csv" % k)
        with open(path, "w") as f:
            f.write("x;d\n1;2020-01-01\n2;%s\n" % s)
        p = subprocess.run([KEPS, "hierarchy", "build", "-i", path, "--qi", "d:date=year", "-o", "-"],
                           capture_output=True, text=True)
        want = "%s:3:2: column 'd': '%s' is not an ISO 8601 date" % (path, s)
        if p.returncode != 2 or want not in p.stderr or p.stdout:
            bad += 1
            print("DIFF  refusal of %r: exit %d, %s" % (s, p.returncode, p.stderr.strip()[:200]))
    return bad


def main():
    makers = [case_interval, case_coding, case_mask, case_order, case_date]
    bad = 0
    for i in range(CASES):
        make = makers[i % len(makers)]
        problem, args = run_case(i, make)
        if problem:
            bad += 1
            print("DIFF  %s: %s\n   %s" % (make.__name__, problem, " ".join(args)))
    bad += refusals()
    print("hierarchy oracle: %d cases, %d mismatches" % (CASES, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
