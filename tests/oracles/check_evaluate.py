"""keps evaluate (information loss per attribute, classifier accuracy of a
release) against an independent oracle (evaluate_oracle.py), end to end, as
a user runs it. Written from the documentation only (not src/evaluate.c or
src/logreg.c): `keps evaluate --help`, docs/cli.md ("keps evaluate's
attributes.COLUMN", "--split F must hold out ...", "--hierarchy NAME:FILE is
checked like every other command's hierarchy", the empty-release rule),
docs/spec.md 6 ("accuracy of a logistic regression trained on the release (one-hot
categorical, standardized numeric) and tested on held-out raw data"),
docs/spec.md section 10 (the readings keps chose) and docs/experiments.md
("keps evaluate" in the safela conformance audit, whose lost oracle this
re-creates).

Data: Adult (data/adult/adult.csv, ';'), rows 1-3,000 as --original and
rows 3,001-4,000 as --test; the same slices of data/adult/adult_height.csv
for a float numeric column; the bundled hierarchies; small hand-made tables
whose figures are worked out by hand in the comments (checked against keps
AND against the oracle, so a wrong oracle rule shows up there too).
Releases: made here in Python (random levels per column through the
hierarchies, '*' rows, columns '*' in every row, levels mixed in a column,
age as `[lo-hi[` intervals without a hierarchy, removed and shuffled rows)
and made by keps (`anonymize --algorithm ola` with starred and with removed
suppressed rows, with `age:interval=5,10,20`; `safela --seed 3`).

Checked per column of the release (tolerance 1e-12), from their
documented definitions ("Per attribute: the generalization level (with
--hierarchy; 'unknown' without one), the share of cells holding a value
the original column never holds (generalized or suppressed), the share of
'*' cells (suppressed, unless the whole column is '*'), and the ratio of
distinct values"; docs/cli.md: level and
height integers when the release holds values of one level, null without a
hierarchy, level alone null when levels are mixed, generalization and prec
null whenever level is; suppressed_share counts '*' cells with or without
a hierarchy except in a column '*' in every row):
  level, height, generalization = level/height, prec = docs/spec.md 2's Precision
  of the column ((n-S) l/h + S)/n, suppressed_share = S/n,
  non_original_share (cells holding no value of the original column,
  compared by value, as --help and docs/cli.md say),
  distinct_ratio (distinct release values, '*' included, over distinct
  original values); original_rows, release_rows.
With --target and --test FILE (the classifier, "L2-regularized logistic
regression (one-hot for categorical columns, generalized values included;
standardized numeric columns; one-vs-rest for more than two classes) on the
release and on the original training rows, tests both on held-out original
rows generalized the way the release is, and reports both accuracies and the
majority-class baseline"; scikit-learn's model, C = --C, intercept not
penalized, "default 1.0, as scikit-learn"):
  accuracy, accuracy_original (exact, as a count of test rows; a row whose
  winning score is within TOL = 1e-8 of a decision boundary may go either
  way and is reported as ambiguous), baseline and majority_class (the
  release's majority class; its share of the test rows), features (one per
  numeric column, one per distinct training value of a one-hot column),
  classes, train_rows, original_train_rows, test_rows, each feature column's
  type (numeric / categorical) and test_unmatched_share (docs/cli.md), and
  that non-feature columns (target, --ignore) have neither, nor has any
  column without --target ("With --target, each feature column has").
Readings of docs/spec.md 10 the oracle follows: a column is standardized
numeric only when every release value and every test value is a number
(a numeric column with starred cells is one-hot, '*' one of its values);
population sd; one-vs-rest; test values take the hierarchy's label at the
release's level first. Without a hierarchy a test value is kept when the
release holds it, else put in the release's `[lo-hi[` interval
(docs/experiments.md), else it matches nothing (all-zero one-hot).
With --split F --seed S (keps's seeded permutation is not reproduced):
two runs with one seed give the same report; accuracies and baseline in
[0,1] and multiples of 1/test_rows; test_rows = round(F n) (docs/cli.md),
original_train_rows = n - test_rows, train_rows, features, classes and
majority_class exactly; the per-attribute figures as without --target.
Errors (exit codes of --help: 1 the job could not be done, 2 bad input):
--split leaving no test row or no training row (2, docs/cli.md), an
original or --test value missing from a hierarchy (2), a release value at
no level (2), an empty release with --target (1, docs/cli.md).

`--mutate NAME` (or KEPS_EVALUATE_MUTATE=NAME) turns on one wrong rule of
evaluate_oracle.MUTATIONS to prove the comparison can fail.
KEPS (binary) and KEPS_REPO (source tree) come from the environment; exit 0
when keps agrees on every case."""
import json, math, os, random, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import KEPS, REPO, read_csv
import evaluate_oracle as eo
from evaluate_oracle import Hierarchy, attribute_figures, classify

ADULT = os.path.join(REPO, "data", "adult")
HIER = os.path.join(ADULT, "adult_hierarchy_%s.csv")
HCOLS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation",
         "salary-class"]
FTOL = 1e-12


class Diff:
    def __init__(self):
        self.problems = []

    def eq(self, what, keps, oracle):
        if keps != oracle or type(keps) is bool:
            self.problems.append("%s keps %r oracle %r" % (what, keps, oracle))

    def close(self, what, keps, oracle, tol=FTOL):
        if oracle is None:
            if keps is not None:
                self.problems.append("%s keps %r oracle null" % (what, keps))
            return
        if not isinstance(keps, (int, float)) or isinstance(keps, bool) or abs(keps - oracle) > tol * max(
                1.0, abs(oracle)):
            self.problems.append("%s keps %r oracle %r" % (what, keps, oracle))


def write_csv(path, head, rows, delim=";"):
    with open(path, "w") as f:
        for r in [head] + rows:
            f.write(delim.join(r) + "\n")


def run_eval(args):
    """keps evaluate ARGS --json --quiet: (exit code, report or None, stderr, command line)."""
    cmd = [KEPS, "evaluate"] + args + ["--json", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    rep = None
    if p.returncode == 0:
        try:
            rep = json.loads(p.stdout)
        except ValueError:
            pass
    return p.returncode, rep, p.stderr.strip(), " ".join(cmd)


def hier_args(cols, paths):
    out = []
    for c in cols:
        out += ["--hierarchy", "%s:%s" % (c, paths[c])]
    return out


def check_attributes(dif, rep, ohead, orows, rhead, rrows, hiers, features=None, oracle_unmatched=None,
                     types=None):
    """Per-attribute figures of every release column; with --target also
    type and test_unmatched_share of the feature columns."""
    attrs = rep.get("attributes", {})
    dif.eq("attribute columns", sorted(attrs), sorted(rhead))
    dif.eq("original_rows", rep.get("original_rows"), len(orows))
    dif.eq("release_rows", rep.get("release_rows"), len(rrows))
    for c in rhead:
        a = attrs.get(c, {})
        ov = [r[ohead.index(c)] for r in orows]
        rv = [r[rhead.index(c)] for r in rrows]
        f = attribute_figures(ov, rv, hiers.get(c))
        for key in ("suppressed_share", "non_original_share", "distinct_ratio"):
            dif.close("%s.%s" % (c, key), a.get(key), f[key])
        if f["level"] == "ambiguous":
            dif.problems.append("%s: the checker built a release whose level is ambiguous" % c)
            continue
        dif.eq("%s.level" % c, a.get("level"), f["level"])
        dif.eq("%s.height" % c, a.get("height"), f["height"])
        dif.close("%s.generalization" % c, a.get("generalization"), f["generalization"])
        dif.close("%s.prec" % c, a.get("prec"), f["prec"])
        if features is not None:
            if c in features:
                dif.close("%s.test_unmatched_share" % c, a.get("test_unmatched_share"), oracle_unmatched[c])
                dif.eq("%s.type" % c, a.get("type"), types[c])
            else:
                for key in ("test_unmatched_share", "type"):   # docs/cli.md: "each feature column has"
                    if key in a:
                        dif.problems.append("%s: not a feature, yet %s %r" % (c, key, a[key]))
        elif "classifier" not in rep and "type" in a:
            dif.problems.append("%s: no classifier, yet type %r" % (c, a["type"]))
    return len(rhead)


def count_of(share, n):
    """A share of n rows as a whole count (None when it is not one)."""
    if not isinstance(share, (int, float)) or isinstance(share, bool):
        return None
    k = round(share * n)
    return k if abs(share - k / n) <= 1e-12 else None


def check_classifier(dif, cl, res):
    n = res["test_rows"]
    info = []
    for key, rkey in (("accuracy", "accuracy"), ("accuracy_original", "accuracy_original")):
        lo, hi, amb = res[rkey]
        k = count_of(cl.get(key), n)
        if k is None or not lo <= k <= hi:
            want = "%d/%d" % (lo, n) if lo == hi else "%d..%d of %d" % (lo, hi, n)
            dif.problems.append("classifier.%s keps %r oracle %s (= %.6f)" % (key, cl.get(key), want, lo / n))
        if amb:
            info.append("%s: %d test rows within %g of a boundary, either class accepted" % (key, amb, eo.TOL))
    if not any(cl.get("baseline") is not None and abs(cl["baseline"] - b) <= FTOL for b in res["baseline"]):
        dif.problems.append("classifier.baseline keps %r oracle %r" % (cl.get("baseline"), res["baseline"]))
    if cl.get("majority_class") not in res["majority"]:
        dif.problems.append("classifier.majority_class keps %r oracle %r" % (cl.get("majority_class"),
                                                                               res["majority"]))
    if len(res["majority"]) > 1:
        info.append("majority classes tie: %s, either accepted" % res["majority"])
    for key in ("features", "classes", "train_rows", "original_train_rows", "test_rows"):
        dif.eq("classifier.%s" % key, cl.get(key), res[key])
    if res["step"] > 1e-9:
        dif.problems.append("oracle did not converge: gradient %.3g, last step %.3g" % (res["grad"], res["step"]))
    return info


class Ctx:
    def __init__(self, d):
        self.d = d
        self.bad = 0
        self.cases = 0
        self.figures = 0
        self.hier = {}

    def h(self, path):
        if path not in self.hier:
            self.hier[path] = Hierarchy(path)
        return self.hier[path]

    def report(self, name, dif, extra="", cmd="", info=()):
        self.cases += 1
        ok = not dif.problems
        self.bad += not ok
        lines = ["   " + p for p in dif.problems[:8]]
        if len(dif.problems) > 8:
            lines.append("   ... %d more" % (len(dif.problems) - 8))
        lines += ["   note: " + i for i in info]
        if not ok and cmd:
            lines.append("   " + cmd)
        print("%-5s %-44s %s%s" % ("OK" if ok else "DIFF", name, extra, "".join("\n" + l for l in lines)))


def figures_case(ctx, name, ohead, orows, rhead, rrows, hcols, paths, hand=None):
    """Figures only (no --target). hcols: columns given a --hierarchy.
    hand: {column: {key: value}} worked out by hand; compared with keps and
    with the oracle."""
    dif = Diff()
    o = os.path.join(ctx.d, "orig.csv")
    r = os.path.join(ctx.d, "rel.csv")
    write_csv(o, ohead, orows)
    write_csv(r, rhead, rrows)
    rc, rep, err, cmd = run_eval(["--original", o, "--release", r] + hier_args(hcols, paths))
    if rc != 0 or rep is None:
        dif.problems.append("keps exited %d: %s" % (rc, err))
    else:
        hiers = {c: ctx.h(paths[c]) for c in hcols}
        ctx.figures += 7 * check_attributes(dif, rep, ohead, orows, rhead, rrows, hiers)
        for c, kv in (hand or {}).items():
            f = attribute_figures([x[ohead.index(c)] for x in orows], [x[rhead.index(c)] for x in rrows],
                                  hiers.get(c))
            for key, v in kv.items():
                got = rep["attributes"].get(c, {}).get(key)
                if not (got == v or (isinstance(v, float) and isinstance(got, (int, float)) and abs(got - v) < 1e-12)):
                    dif.problems.append("hand %s.%s keps %r hand %r" % (c, key, got, v))
                if not (f[key] == v or (isinstance(v, float) and f[key] is not None and abs(f[key] - v) < 1e-12)):
                    dif.problems.append("hand %s.%s oracle %r hand %r (oracle wrong)" % (c, key, f[key], v))
    ctx.report(name, dif, "rows %d/%d, %d hierarchies" % (len(orows), len(rrows), len(hcols)), cmd)
    return dif


def classifier_case(ctx, name, ohead, orows, rhead, rrows, trows, target, hcols, paths, ignore=(), C=None,
                    hand=None, files=None):
    """--target with --test: both accuracies, baseline, features, the figures.
    hand: {classifier key: value} worked out by hand (accuracy as a count
    'k/n' string or a float)."""
    dif = Diff()
    if files:
        o, r, t = files
    else:
        o, r, t = (os.path.join(ctx.d, x) for x in ("orig.csv", "rel.csv", "test.csv"))
        write_csv(o, ohead, orows)
        write_csv(r, rhead, rrows)
        write_csv(t, ohead, trows)
    args = ["--original", o, "--release", r, "--target", target, "--test", t] + hier_args(hcols, paths)
    for c in ignore:
        args += ["--ignore", c]
    if C is not None:
        args += ["--C", repr(C)]
    rc, rep, err, cmd = run_eval(args)
    info = []
    extra = ""
    if rc != 0 or rep is None:
        dif.problems.append("keps exited %d: %s" % (rc, err))
    else:
        hiers = {c: ctx.h(paths[c]) for c in hcols}
        res = classify(ohead, orows, rhead, rrows, trows, target, hiers, set(ignore), 1.0 if C is None else C)
        feats = [c for c in rhead if c != target and c not in ignore]
        ctx.figures += 7 * check_attributes(dif, rep, ohead, orows, rhead, rrows, hiers, feats, res["unmatched"],
                                            res["types"])
        cl = rep.get("classifier", {})
        info = check_classifier(dif, cl, res)
        for key, v in (hand or {}).items():
            got = cl.get(key)
            if not (got == v or (isinstance(v, float) and isinstance(got, (int, float)) and abs(got - v) < 1e-12)):
                dif.problems.append("hand classifier.%s keps %r hand %r" % (key, got, v))
            mine = {"accuracy": res["accuracy"], "accuracy_original": res["accuracy_original"]}.get(key)
            if mine is not None and isinstance(v, float) and not mine[0] <= v * res["test_rows"] + 1e-9 <= mine[1] + 2e-9:
                dif.problems.append("hand classifier.%s oracle %r hand %r (oracle wrong)" % (key, mine, v))
            if key == "baseline" and not any(abs(b - v) < 1e-12 for b in res["baseline"]):
                dif.problems.append("hand baseline oracle %r hand %r (oracle wrong)" % (res["baseline"], v))
            if key == "features" and res["features"] != v:
                dif.problems.append("hand features oracle %r hand %r (oracle wrong)" % (res["features"], v))
        extra = "C=%-4g acc %.4f raw %.4f base %.4f feat %d cls %d test %d (grad %.0e, margin %.1e)" % (
            1.0 if C is None else C, cl.get("accuracy", -1), cl.get("accuracy_original", -1),
            cl.get("baseline", -1), cl.get("features", -1), cl.get("classes", -1), res["test_rows"], res["grad"],
            res["margin"])
    ctx.report(name, dif, extra, cmd, info)
    return rep


# ---------------------------------------------------------------------------------------------- releases

def generalize(rows, head, spec, rnd, hiers, star_frac=0.0, remove_frac=0.0, qis=None, shuffle=True):
    """A release made here. spec: column -> level (int, through the bundled
    hierarchy), ('interval', w) for `[lo-hi[` of width w, ('mixed', l1, l2)
    for a per-cell random choice. star_frac of the rows get '*' in every
    column of qis (default: the columns of spec); remove_frac of the rows
    are dropped; the rows are shuffled."""
    qis = list(spec) if qis is None else qis
    out = []
    for r in rows:
        if remove_frac and rnd.uniform(0, 1) < remove_frac:
            continue
        r = list(r)
        for c, s in spec.items():
            j = head.index(c)
            if isinstance(s, int):
                r[j] = hiers[c].label(r[j], s)
            elif s[0] == "interval":
                lo = (int(r[j]) // s[1]) * s[1]
                r[j] = "[%d-%d[" % (lo, lo + s[1])
            elif s[0] == "mixed":
                r[j] = hiers[c].label(r[j], rnd.choice(s[1:]))
        if star_frac and rnd.uniform(0, 1) < star_frac:
            for c in qis:
                r[head.index(c)] = "*"
        out.append(r)
    if shuffle:
        rnd.shuffle(out)
    return out


def keps_release(ctx, name, args):
    out = os.path.join(ctx.d, name + ".csv")
    p = subprocess.run([KEPS] + args + ["-o", out, "--quiet", "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("keps %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr))
    head, rows = read_csv(out)
    return out, head, rows, json.loads(p.stdout)


def main():
    mut = os.environ.get("KEPS_EVALUATE_MUTATE")
    if "--mutate" in sys.argv:
        mut = sys.argv[sys.argv.index("--mutate") + 1]
    if mut:
        if mut not in eo.MUTATIONS:
            sys.exit("unknown mutation %r; one of %s" % (mut, ", ".join(eo.MUTATIONS)))
        eo.MUTATIONS[mut] = True
        print("MUTATION %s: the oracle is deliberately wrong, DIFF lines are expected" % mut)
    t0 = time.time()
    with tempfile.TemporaryDirectory() as d:
        ctx = Ctx(d)
        paths = {c: HIER % c for c in HCOLS}
        hand_cases(ctx)
        head, allrows = read_csv(os.path.join(ADULT, "adult.csv"))
        orows, trows = allrows[:3000], allrows[3000:4000]
        o, t = os.path.join(d, "o3000.csv"), os.path.join(d, "t1000.csv")
        write_csv(o, head, orows)
        write_csv(t, head, trows)
        hiers = {c: ctx.h(paths[c]) for c in HCOLS}

        # ---- releases made here: figures only
        for seed in (1, 2, 3, 4, 5, 6):
            rnd = random.Random(seed)
            spec = {}
            for c in rnd.sample(HCOLS, rnd.randrange(2, 8)):
                spec[c] = rnd.randrange(0, hiers[c].height + 1)
            if seed % 3 == 0:
                spec["age"] = ("interval", rnd.choice([5, 10, 20]))
            if seed % 2 == 0:
                c = rnd.choice([x for x in HCOLS if x != "age" and hiers[x].height >= 2 and x not in spec]
                               or ["education"])
                spec[c] = ("mixed", 0, 1)
            star = rnd.choice([0.0, 0.03, 0.3])
            remove = rnd.choice([0.0, 0.1])
            rrows = generalize(orows, head, spec, rnd, hiers, star, remove)
            hcols = [c for c in HCOLS if not (c == "age" and isinstance(spec.get(c), tuple))]
            hcols = rnd.sample(hcols, len(hcols) - (seed % 3))      # some columns without --hierarchy
            figures_case(ctx, "py%d figures %s" % (seed, ",".join(
                "%s=%s" % (c[:4], s if isinstance(s, int) else s[0][:3]) for c, s in spec.items())),
                         head, orows, head, rrows, hcols, paths)

        # ---- releases made by keps
        qi4 = ["age", "education", "marital-status", "sex"]
        qargs = [a for c in qi4 for a in ("--qi", "%s:%s" % (c, paths[c]))]
        kola, kh, krows, krep = keps_release(ctx, "kola", ["anonymize", "--algorithm", "ola", "-i", o, "-k", "5",
                                                          "--suppress", "0.05", "--others", "keep"] + qargs)
        kolr, krh, krrows, _ = keps_release(ctx, "kolr", ["anonymize", "--algorithm", "ola", "-i", o, "-k", "5",
                                                         "--suppress", "0.05", "--others", "keep",
                                                         "--remove-suppressed"] + qargs)
        ksaf, ksh, ksrows, _ = keps_release(ctx, "ksaf", ["safela", "-i", o, "-k", "10", "--beta", "0.7",
                                                         "--seed", "3", "--others", "keep"] + qargs)
        kint, kih, kirows, _ = keps_release(ctx, "kint", ["anonymize", "--algorithm", "ola", "-i", o, "-k", "10",
                                                         "--suppress", "0.02", "--others", "keep",
                                                         "--qi", "age:interval=5,10,20",
                                                         "--qi", "sex:" + paths["sex"],
                                                         "--qi", "education:" + paths["education"]])
        hq = qi4 + ["workclass"]        # workclass: level 0
        print("      keps releases: ola k=5 %s (%d starred rows), removed: %d rows, safela seed 3: %d rows, "
              "interval ola: %s" % (krep.get("transformation"), krep.get("suppressed_rows", -1), len(krrows),
                                    len(ksrows), sorted(set(r[kih.index("age")] for r in kirows))[:3]))
        sal = "salary-class"
        classifier_case(ctx, "kola salary C=1", head, orows, kh, krows, trows, sal, hq, paths,
                        files=(o, kola, t))
        classifier_case(ctx, "kola salary C=0.05", head, orows, kh, krows, trows, sal, hq, paths, C=0.05,
                        files=(o, kola, t))
        classifier_case(ctx, "kola salary C=100", head, orows, kh, krows, trows, sal, hq, paths, C=100.0,
                        files=(o, kola, t))
        classifier_case(ctx, "kola race 5 classes --ignore native-country", head, orows, kh, krows, trows,
                        "race", hq, paths, ignore=["native-country"], files=(o, kola, t))
        classifier_case(ctx, "kola-removed salary", head, orows, krh, krrows, trows, sal, hq, paths,
                        files=(o, kolr, t))
        classifier_case(ctx, "safela seed 3 salary --ignore occupation", head, orows, ksh, ksrows, trows, sal,
                        hq, paths, ignore=["occupation"], files=(o, ksaf, t))
        classifier_case(ctx, "ola age:interval salary (no age hierarchy)", head, orows, kih, kirows, trows, sal,
                        ["sex", "education"], paths, files=(o, kint, t))

        # ---- classifier on releases made here
        rnd = random.Random(11)
        # R3-like: age kept at level 0 but starred rows: age one-hot ('*' is not a number, docs/spec.md 10)
        spec = {"age": 0, "education": 2, "marital-status": 1, "sex": 0}
        rr = generalize(orows, head, spec, rnd, hiers, 0.3)
        classifier_case(ctx, "py age level 0 + '*' rows (one-hot) salary", head, orows, head, rr, trows, sal,
                        list(spec), paths)
        # age numeric (no '*' in it): standardized; others generalized, a column '*' in every row
        spec = {"education": 1, "occupation": 1, "native-country": 2, "workclass": 1}
        rr = generalize(orows, head, spec, rnd, hiers, 0.05, 0.05, qis=["education", "occupation"])
        classifier_case(ctx, "py age numeric, native-country all '*' race C=100", head, orows, head, rr, trows,
                        "race", list(spec) + ["age"], paths, C=100.0)
        # age as [lo-hi[ intervals without a hierarchy, random levels elsewhere, rows removed
        spec = {"age": ("interval", 10), "marital-status": 1, "education": 1, "race": 1}
        rr = generalize(orows, head, spec, rnd, hiers, 0.1, 0.1, qis=["marital-status", "education"])
        classifier_case(ctx, "py age [lo-hi[ no hierarchy salary C=0.05", head, orows, head, rr, trows, sal,
                        ["marital-status", "education", "race"], paths, C=0.05)
        # the same without any --hierarchy: generalized labels match nothing (test_unmatched_share)
        classifier_case(ctx, "py same, no --hierarchy at all", head, orows, head, rr, trows, sal, [], paths,
                        ignore=["native-country"])
        # float numeric column: adult_height.csv, height kept, age intervals of 5
        hh, hrows = read_csv(os.path.join(ADULT, "adult_height.csv"))
        spec = {"age": ("interval", 5), "occupation": 1, "workclass": 1}
        rr = generalize(hrows[:3000], hh, spec, rnd, hiers, 0.02, qis=["age", "occupation"])
        classifier_case(ctx, "py height numeric (float) salary", hh, hrows[:3000], hh, rr, hrows[3000:4000], sal,
                        ["occupation", "workclass"], paths, ignore=["native-country"])

        split_cases(ctx, o, kola, head, orows, kh, krows, hq, paths)
        error_cases(ctx, o, t, head, orows, paths)
        print("discrepancies %d of %d cases (%d per-attribute figures compared) in %.1f s%s"
              % (ctx.bad, ctx.cases, ctx.figures, time.time() - t0, " [mutation %s]" % mut if mut else ""))
        return 1 if ctx.bad else 0


def hand_cases(ctx):
    """Small tables; the expected figures are worked out by hand."""
    d = ctx.d
    H = os.path.join(d, "h.csv")
    with open(H, "w") as f:
        for a in (22, 25, 28, 30, 33, 35):
            f.write("%d;20-39;*\n" % a)
        for a in (44, 45, 50, 55):
            f.write("%d;40-59;*\n" % a)
    paths = {"age": H}
    oh = ["age", "sex", "cls"]
    orows = [r.split(",") for r in ("25,M,no", "30,F,no", "35,M,no", "45,F,yes", "50,M,yes", "55,F,no")]
    rel = [r.split(",") for r in ("20-39,M,no", "20-39,F,no", "20-39,M,no", "40-59,F,yes", "40-59,M,yes", "*,*,no")]
    # age: level 1 of 2 (20-39, 40-59 are level-1 labels; the '*' row is suppressed, not level 2);
    #   generalization 1/2; 1 '*' of 6 -> suppressed 1/6; prec = (5 * 1/2 + 1)/6 = 7/12; every cell
    #   is a label or '*', none an original age -> non-original 1; distinct {20-39, 40-59, *} = 3 of 6
    #   original ages -> 1/2.
    # sex: no hierarchy -> level/height/generalization/prec null; 1 '*' -> suppressed 1/6 and
    #   non-original 1/6; distinct {M, F, *} = 3 over {M, F} = 2 -> 3/2.
    # cls: untouched: 0, 0, distinct 2/2 = 1.
    figures_case(ctx, "hand 6 rows, level 1 + '*' row", oh, orows, oh, rel, ["age"], paths, hand={
        "age": {"level": 1, "height": 2, "generalization": 0.5, "prec": 7 / 12, "suppressed_share": 1 / 6,
                "non_original_share": 1.0, "distinct_ratio": 0.5},
        "sex": {"level": None, "height": None, "generalization": None, "prec": None,
                "suppressed_share": 1 / 6, "non_original_share": 1 / 6, "distinct_ratio": 1.5},
        "cls": {"suppressed_share": 0.0, "non_original_share": 0.0, "distinct_ratio": 1.0}})
    # the same without the hierarchy: age level unknown (null), the '*' still suppressed (docs/cli.md)
    figures_case(ctx, "hand 6 rows, no hierarchy", oh, orows, oh, rel, [], paths, hand={
        "age": {"level": None, "height": None, "prec": None, "suppressed_share": 1 / 6}})
    # age '*' in every row: generalized to the top, not suppressed: level 2/2, generalization 1,
    #   suppressed 0, prec = (6 * 1 + 0)/6 = 1, non-original 1, distinct 1/6; without a hierarchy the
    #   share is 0 as well (docs/cli.md: "except in a column that is '*' in every row").
    star = [["*"] + r[1:] for r in orows]
    figures_case(ctx, "hand age '*' in every row", oh, orows, oh, star, ["age"], paths, hand={
        "age": {"level": 2, "height": 2, "generalization": 1.0, "prec": 1.0, "suppressed_share": 0.0,
                "non_original_share": 1.0, "distinct_ratio": 1 / 6}})
    figures_case(ctx, "hand age '*' in every row, no hierarchy", oh, orows, oh, star, [], paths, hand={
        "age": {"level": None, "suppressed_share": 0.0, "non_original_share": 1.0}})
    # mixed: row 2 keeps its leaf 30 -> levels 0 and 1: level null, height 2, generalization and prec
    #   null; 1 '*' -> 1/6; non-original: 20-39 x2, 40-59 x2, '*' = 5/6 (30 is an original age);
    #   distinct {20-39, 30, 40-59, *} = 4/6.
    mixed = [list(r) for r in rel]
    mixed[1][0] = "30"
    figures_case(ctx, "hand mixed levels", oh, orows, oh, mixed, ["age"], paths, hand={
        "age": {"level": None, "height": 2, "generalization": None, "prec": None, "suppressed_share": 1 / 6,
                "non_original_share": 5 / 6, "distinct_ratio": 4 / 6}})
    # rows removed (--remove-suppressed style): 4 release rows at level 1, no '*': prec = 1/2,
    #   suppressed 0, distinct {20-39, 40-59} = 2/6.
    figures_case(ctx, "hand removed rows", oh, orows, oh, rel[1:5], ["age"], paths, hand={
        "age": {"level": 1, "prec": 0.5, "suppressed_share": 0.0, "distinct_ratio": 2 / 6}})

    # Classifier on age alone (--ignore sex), the release's first 5 rows (3 'no' in 20-39, 2 'yes' in
    # 40-59). Test: 22 no, 33 no, 44 yes, 55 yes, 28 no.
    # (a) no hierarchy: no raw age is a release value or in a [lo-hi[ interval: every test row has
    #   all-zero features and gets sign(b). At the optimum (one-hot w1, w2, intercept b): w1 = -3 p_A,
    #   w2 = 2 (1 - p_B) and sum(p - y) = 0 give 3 p_A = 2 (1 - p_B) = q, so 3 sigma(b - q) =
    #   2 sigma(-b - q), b - q < -b - q, b < 0: every test row 'no': accuracy 3/5 = baseline ('no',
    #   3 of 5 release rows); age unmatched 1; features 2.
    test = [r.split(",") for r in ("22,M,no", "33,F,no", "44,M,yes", "55,F,yes", "28,M,no")]
    classifier_case(ctx, "hand unmatched ages -> sign(b)", oh, orows, oh, rel[:5], test, "cls", [], paths,
                    ignore=["sex"], hand={"accuracy": 0.6, "baseline": 0.6, "majority_class": "no", "features": 2,
                                          "classes": 2})
    # (b) with h.csv the test ages map to 20-39 / 40-59: with the optimum above, z_A = b - q < 0 ('no');
    #   z_B = b + q > 0, else p_B <= 1/2, q >= 1, p_A >= 1/3, b >= q - ln 2 > 0, contradicting b < 0:
    #   every test row right, accuracy 1; unmatched 0.
    classifier_case(ctx, "hand ages through the hierarchy", oh, orows, oh, rel[:5], test, "cls", ["age"], paths,
                    ignore=["sex"], hand={"accuracy": 1.0, "baseline": 0.6, "features": 2})
    # Majority baseline = the release's majority class, not the test's or the original's: release 3 yes,
    #   2 no (original 4 no, 2 yes); test 2 yes of 5 -> baseline 2/5, majority 'yes'.
    relm = [r.split(",") for r in ("25,M,yes", "30,F,yes", "35,M,yes", "45,F,no", "50,M,no")]
    classifier_case(ctx, "hand baseline from the release's majority", oh, orows, oh, relm, test, "cls", [],
                    paths, hand={"baseline": 0.4, "majority_class": "yes", "train_rows": 5,
                                 "original_train_rows": 6})

    # Population sd (docs/experiments.md): x = 1, 2, 3, 4, 10 labelled n y n y y: the boundary is
    #   x = 1.6666 with the population sd and 1.4246 with the sample sd (w > 0: larger x, 'y').
    #   Test 1.5456 n, 1.3 n, 2.5 y: all right with the population sd (3/3), 1.5456 wrong with the sample
    #   sd (2/3). Baseline: release majority 'y' (3 of 5), 1 of 3 test rows. One numeric feature.
    xh = ["x", "cls"]
    xo = [["1", "n"], ["2", "y"], ["3", "n"], ["4", "y"], ["10", "y"]]
    xt = [["1.5456", "n"], ["1.3", "n"], ["2.5", "y"]]
    classifier_case(ctx, "hand population sd (boundary 1.6666)", xh, xo, xh, xo, xt, "cls", [], {},
                    hand={"accuracy": 1.0, "accuracy_original": 1.0, "baseline": 1 / 3, "features": 1})

    # A level-1 label spelling another leaf (docs/spec.md 10: a -> x, b -> a). Original v: a a b b c d,
    #   class P P Q Q Q Q; release at level 1: x x a a y y. One-hot w_x, w_a, w_y (a and y symmetric,
    #   p_a = p_y = p): w_x = 2 (1 - p_x) = 4 p, w_a = w_y = -2 p. If z_x <= 0, p_x <= 1/2, p >= 1/4,
    #   z_a = b - 2p >= -ln 3, so z_x = b + 4p >= 6p - ln 3 > 0: contradiction, x -> P. w_x < 2 gives
    #   p < 1/2, z_a < 0: a -> Q. Test a P, b Q, c Q: mapped x, a, y -> P, Q, Q: accuracy 1 (raw 'a'
    #   kept as the release's 'a' would give Q: 2/3). Level 1 of 2 ('a' is at levels 0 and 1, x and y
    #   at 1 only).
    hs = os.path.join(d, "hs.csv")
    with open(hs, "w") as f:
        f.write("a;x;*\nb;a;*\nc;y;*\nd;y;*\n")
    vh = ["v", "cls"]
    vo = [["a", "P"], ["a", "P"], ["b", "Q"], ["b", "Q"], ["c", "Q"], ["d", "Q"]]
    vr = [["x", "P"], ["x", "P"], ["a", "Q"], ["a", "Q"], ["y", "Q"], ["y", "Q"]]
    vt = [["a", "P"], ["b", "Q"], ["c", "Q"]]
    classifier_case(ctx, "hand hierarchy label shadows a leaf", vh, vo, vh, vr, vt, "cls", ["v"], {"v": hs},
                    hand={"accuracy": 1.0, "features": 3})
    # non_original_share there: every cell of v is a level-1 label, but 'a' spells an original value,
    #   and the share counts cells "holding a value the original column never holds": 4/6, not 6/6.
    # One-vs-rest, 3 classes: u -> A, v -> B, w -> C (3 rows each, symmetric). Each binary model puts
    #   its own value above the others: u A, v B, w C right. An unmatched value z: every model's score
    #   is its intercept, equal by symmetry: a tie, any class accepted (accuracy 3/4 or 1). Majority: a
    #   three-way tie, any accepted (baseline 2/4 for A, 1/4 for B or C).
    ch = ["v", "cls"]
    co = [[v, c] for v, c in (("u", "A"), ("v", "B"), ("w", "C")) for _ in range(3)]
    ct = [["u", "A"], ["v", "B"], ["w", "C"], ["z", "A"]]
    classifier_case(ctx, "hand one-vs-rest 3 classes, tie", ch, co, ch, co, ct, "cls", [], {},
                    hand={"features": 3, "classes": 3})
    # Numeric labels through a hierarchy (ages -> decades 20, 30, 40 at level 1): every release and
    #   mapped test value is a number, so the column is standardized numeric (docs/spec.md 10), one
    #   feature. Classes y n y by decade (3 rows each): the data are symmetric about 30, so w = 0 and
    #   b = logit-ish of 6/9 > 0: every row 'y'. Test 25 y, 35 n, 45 y: 2/3 (one-hot would give 1).
    hd = os.path.join(d, "hd.csv")
    with open(hd, "w") as f:
        for a in list(range(21, 30)) + list(range(31, 40)) + list(range(41, 50)):
            f.write("%d;%d;*\n" % (a, a // 10 * 10))
    dh = ["age", "cls"]
    do = [[str(a), c] for a, c in ((21, "y"), (23, "y"), (27, "y"), (31, "n"), (34, "n"), (38, "n"),
                                   (42, "y"), (45, "y"), (49, "y"))]
    dr = [[str(int(a) // 10 * 10), c] for a, c in do]
    dt = [["25", "y"], ["35", "n"], ["45", "y"]]
    classifier_case(ctx, "hand numeric labels (decades) standardized", dh, do, dh, dr, dt, "cls", ["age"],
                    {"age": hd}, hand={"accuracy": 2 / 3, "features": 1, "baseline": 2 / 3})


def split_cases(ctx, o, rel, head, orows, rh, rrows, hcols, paths):
    """--split F --seed S: internal consistency only (keps's seeded permutation is its own)."""
    hiers = {c: ctx.h(paths[c]) for c in hcols}
    n = len(orows)
    for frac, seed in (("0.25", "5"), ("0.2", "6"), ("0.1", "7")):
        dif = Diff()
        args = ["--original", o, "--release", rel, "--target", "salary-class", "--seed", seed] + \
            hier_args(hcols, paths)
        if frac:
            args += ["--split", frac]
        rc1, r1, e1, cmd = run_eval(args)
        rc2, r2, e2, _ = run_eval(args)
        if rc1 or rc2 or r1 is None or r2 is None:
            dif.problems.append("keps exited %d/%d: %s %s" % (rc1, rc2, e1, e2))
            ctx.report("split %s seed %s" % (frac, seed), dif, "", cmd)
            continue
        for r in (r1, r2):
            r.pop("timing_ms", None)
        if r1 != r2:
            dif.problems.append("two runs with --seed %s differ" % seed)
        cl = r1.get("classifier", {})
        f = float(frac)
        nt = int(math.floor(f * n + 0.5))
        dif.eq("test_rows", cl.get("test_rows"), nt)
        dif.eq("original_train_rows", cl.get("original_train_rows"), n - nt)
        dif.eq("train_rows (the whole release)", cl.get("train_rows"), len(rrows))
        for key in ("accuracy", "accuracy_original", "baseline"):
            v = cl.get(key)
            if not isinstance(v, (int, float)) or not 0 <= v <= 1 or count_of(v, nt) is None:
                dif.problems.append("%s %r not a share of %d test rows" % (key, v, nt))
        # what depends on the release only: features (every original value is a number in age, the
        # test rows are original rows), classes, majority class
        feats = [c for c in rh if c != "salary-class"]
        nf = 0
        for c in feats:
            rv = [r[rh.index(c)] for r in rrows]
            nf += 1 if all(eo.is_number(v) for v in rv) else len(set(rv))
        dif.eq("features", cl.get("features"), nf)
        ys = [r[rh.index("salary-class")] for r in rrows]
        dif.eq("classes", cl.get("classes"), len(set(ys)))
        dif.eq("majority_class", cl.get("majority_class"), max(set(ys), key=ys.count))
        # the figures do not depend on the split
        check_attributes(dif, r1, head, orows, rh, rrows, hiers)
        ctx.report("split %s seed %s (consistency)" % (frac or "default", seed), dif,
                   "test %s acc %.4f raw %.4f base %.4f" % (cl.get("test_rows"), cl.get("accuracy", -1),
                                                           cl.get("accuracy_original", -1), cl.get("baseline", -1)),
                   cmd)
    # another seed: still consistent (a different permutation is likely but not required)


def error_cases(ctx, o, t, head, orows, paths):
    d = ctx.d
    n = len(orows)
    agehole = os.path.join(d, "age_hole.csv")
    with open(paths["age"]) as f, open(agehole, "w") as g:
        g.writelines(l for l in f if not l.startswith("39;"))      # row 1 of the original has age 39
    def with_cell(src, name, line, col, value):
        """a copy of src with one cell (file line, column name) replaced"""
        path = os.path.join(d, name)
        with open(src) as f:
            lines = f.read().splitlines()
        parts = lines[line].split(";")
        parts[head.index(col)] = value
        lines[line] = ";".join(parts)
        with open(path, "w") as g:
            g.write("\n".join(lines) + "\n")
        return path
    testbad = with_cell(t, "t_bad.csv", 1, "native-country", "Atlantis")
    relbad = with_cell(o, "r_bad.csv", 2, "education", "Kindergarten")
    empty = os.path.join(d, "r_empty.csv")
    with open(empty, "w") as g:
        g.write(";".join(head) + "\n")
    nc = "native-country:" + paths["native-country"]
    cases = [
        # round(0.0001 x 3000) = 0 test rows; round(0.9999 x 3000) = 3000 -> 0 training rows (docs/cli.md)
        ("split leaves no test row", ["--original", o, "--release", o, "--target", "salary-class", "--split", "0.0001",
                                      "--seed", "1"], 2, "holds out 0 test rows"),
        ("split leaves no training row", ["--original", o, "--release", o, "--target", "salary-class", "--split",
                                          "0.9999", "--seed", "1"], 2, "leaves 0 training rows"),
        ("smallest split that works (1 test row)", ["--original", o, "--release", o, "--target", "salary-class",
                                                    "--split", repr(1.2 / n), "--seed", "1"], 0, None),
        ("original value not in the hierarchy", ["--original", o, "--release", o, "--hierarchy", "age:" + agehole],
         2, "value '39' is not in the hierarchy"),
        ("test value not in the hierarchy", ["--original", o, "--release", o, "--target", "salary-class", "--test",
                                             testbad, "--hierarchy", nc], 2, "Atlantis"),
        ("release value at no level", ["--original", o, "--release", relbad, "--hierarchy",
                                       "education:" + paths["education"]], 2, "Kindergarten"),
        ("empty release with --target", ["--original", o, "--release", empty, "--target", "salary-class", "--test",
                                         t], 1, None),
        ("empty release without --target", ["--original", o, "--release", empty], 0, None),
        # --help: --target needs --test or --split (a default split would test on rows of the release)
        ("--target without --test or --split", ["--original", o, "--release", o, "--target", "salary-class"], 2,
         "keps split"),
    ]
    for name, args, want, text in cases:
        dif = Diff()
        p = subprocess.run([KEPS, "evaluate"] + args + ["--quiet"], capture_output=True, text=True)
        dif.eq("exit code", p.returncode, want)
        if text and text not in p.stderr:
            dif.problems.append("stderr lacks %r: %s" % (text, p.stderr.strip()[:200]))
        ctx.report("error: " + name, dif, "exit %d" % p.returncode, "keps evaluate " + " ".join(args))


if __name__ == "__main__":
    sys.exit(main())
