"""Independent oracle of `keps evaluate` (stdlib only), written from the
documentation, not from src/evaluate.c or src/logreg.c: `keps evaluate
--help`, docs/cli.md ("keps evaluate's attributes.COLUMN", the --split and
--hierarchy rules), docs/spec.md section 10 (the readings keps chose for the
learning task of docs/spec.md 6 / Li's thesis) and docs/experiments.md ("keps
evaluate" in the safela conformance audit, whose lost oracle this
re-creates). check_evaluate.py runs it against keps; the rules are listed in
its docstring.

Pieces:
  - Hierarchy: an ARX hierarchy (one row per leaf, column j = level j).
  - attribute_figures: level, height, generalization, prec,
    suppressed_share, non_original_share, distinct_ratio of one column.
  - Mapper / column_encoding: how a test value is generalized the way the
    release is, and whether a column is standardized numeric or one-hot.
  - fit_binary: L2 logistic regression as scikit-learn's (0.5 |w|^2 + C sum
    log-loss, intercept not penalized) by damped Newton to a gradient norm
    below 1e-10.
  - classify: both models of one `--target` run, the accuracies (as
    intervals when test rows lie within TOL of a decision boundary), the
    majority baseline, the feature count, test_unmatched_share.
The oracle's rules that the mutation test flips are named in MUTATIONS
(all False: the documented rule)."""
import csv, math, re

# Switches that make the oracle deliberately wrong (check_evaluate.py --mutate NAME): proof that the
# comparison can fail. None of them is on in a normal run.
MUTATIONS = {
    "sample_sd": False,            # standardize with the sample sd (n - 1) instead of the population sd
    "penalize_intercept": False,   # put the intercept under the L2 penalty
    "star_always_suppressed": False,  # count '*' as suppressed even when the whole column is '*'
    "raw_test_values": False,      # test values not generalized through the hierarchy (kept raw)
    "baseline_test_majority": False,  # baseline from the test rows' own majority class
    "distinct_without_star": False,   # '*' not counted as a distinct value
    "prec_ignores_suppression": False,  # prec = l/h whatever the suppressed share
}

NUM_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
INTERVAL_RE = re.compile(r"^\[([+-]?\d+(?:\.\d+)?)-([+-]?\d+(?:\.\d+)?)\[$")
TOL = 1e-8          # a test row whose score is this close to a decision boundary may go either way


def is_number(v):
    return v is not None and NUM_RE.match(v) is not None


class Hierarchy:
    """ARX hierarchy: one row per leaf, column j = its value at level j (';'
    separated; the bundled ones and those the checker writes are balanced)."""

    def __init__(self, path):
        with open(path, newline="") as f:
            rows = [r for r in csv.reader(f, delimiter=";") if r]
        self.height = len(rows[0]) - 1
        self.leaf = {r[0]: r for r in rows}
        self.levels = {}
        for r in rows:
            for j, v in enumerate(r):
                self.levels.setdefault(v, set()).add(j)

    def label(self, leaf, level):
        return self.leaf[leaf][level]


def detect_level(rel_vals, hier):
    """The release's level in a column (docs/cli.md: `level` is an integer
    when the release holds values of one level, null when it mixes several).
    '*' cells are suppressed cells, not a level, unless the whole column is
    '*': then it is generalized to the top (the '*' of every ARX hierarchy).
    Returns an int, 'mixed', or 'ambiguous' (values that fit several levels:
    the checker never builds such a release)."""
    vals = set(rel_vals)
    if not vals:
        return "ambiguous"
    if vals == {"*"}:
        return hier.height
    cand = None
    for v in vals - {"*"}:
        lv = hier.levels.get(v, set())
        cand = set(lv) if cand is None else cand & lv
    if not cand:
        return "mixed"
    if len(cand) > 1:
        return "ambiguous"
    return next(iter(cand))


def attribute_figures(orig_vals, rel_vals, hier):
    """Per-attribute figures of one column (keps evaluate --help and docs/cli.md):
    - suppressed_share: '*' cells / release rows, 0 when every cell is '*'
      ("'*' cells count as suppressed unless the whole column is '*'").
    - non_original_share: "the share of cells that are generalized or
      suppressed": release cells whose value is not a value of the original
      column (suppressed '*' and generalized labels alike). Compared as sets,
      not row by row: a release is shuffled and may have lost rows.
    - distinct_ratio: "the ratio of distinct values", distinct release values
      ('*' is one) over distinct original values.
    - level/height with a hierarchy (null without: "level unknown");
      generalization = level/height; prec = docs/spec.md 2's Precision of the column,
      ((n - S) l/h + S)/n with S its suppressed cells; all three null when the
      level is (mixed levels)."""
    n = len(rel_vals)
    stars = sum(1 for v in rel_vals if v == "*")
    allstar = n > 0 and stars == n
    supp = stars if (not allstar or MUTATIONS["star_always_suppressed"]) else 0
    oset = set(orig_vals)
    rset = set(rel_vals)
    if MUTATIONS["distinct_without_star"]:
        rset = rset - {"*"}
    f = {
        "suppressed_share": supp / n if n else 0.0,
        "non_original_share": sum(1 for v in rel_vals if v not in oset) / n if n else 0.0,
        "distinct_ratio": len(rset) / len(oset),
        "level": None, "height": None, "generalization": None, "prec": None,
    }
    if hier is not None:
        f["height"] = hier.height
        lv = detect_level(rel_vals, hier)
        if lv == "ambiguous":
            f["level"] = "ambiguous"
        elif lv != "mixed":
            f["level"] = lv
            g = lv / hier.height
            f["generalization"] = g
            f["prec"] = g if MUTATIONS["prec_ignores_suppression"] else ((n - supp) * g + supp) / n
    return f


class Mapper:
    """How a test value of one column is generalized the way the release is
    (keps evaluate --help "tests ... on held-out original rows generalized
    the way the release is"; docs/experiments.md: "test values mapped to the
    release's level through the hierarchy (without one: kept when the
    release holds them, else put in the release's [lo-hi[ interval)";
    docs/spec.md 10: the hierarchy's label at the release's level comes
    first, even when the raw value is itself a release value). Returns None
    for a value that matches nothing (docs/cli.md test_unmatched_share)."""

    def __init__(self, rel_vals, hier=None, level=None):
        self.values = set(rel_vals)
        self.hier, self.level = hier, level
        self.intervals = []
        for v in self.values:
            m = INTERVAL_RE.match(v)
            if m:
                self.intervals.append((float(m.group(1)), float(m.group(2)), v))

    def __call__(self, v):
        if self.hier is not None and not MUTATIONS["raw_test_values"]:
            return self.hier.label(v, self.level)
        if v in self.values:
            return v
        if is_number(v):
            x = float(v)
            hits = [lab for lo, hi, lab in self.intervals if lo <= x < hi]
            if len(hits) == 1:
                return hits[0]
        return None


def column_encoding(train_vals, test_mapped):
    """docs/spec.md 10: "A column is standardized numeric only when every
    release value (and every test value) is a number"; else one-hot over the
    training values ('*' and generalized labels included). Numeric: mean and
    population sd of the training column ("as scikit-learn's
    StandardScaler"; sd 0 -> scale 1, whose weight is 0 anyway).
    Returns ('numeric', mean, sd) or ('onehot', sorted vocabulary)."""
    if all(is_number(v) for v in train_vals) and all(is_number(v) for v in test_mapped):
        xs = [float(v) for v in train_vals]
        n = len(xs)
        mu = math.fsum(xs) / n
        ss = math.fsum((x - mu) ** 2 for x in xs)
        if MUTATIONS["sample_sd"]:
            sd = math.sqrt(ss / (n - 1)) if n > 1 else 0.0
        else:
            sd = math.sqrt(ss / n)
        return ("numeric", mu, sd if sd > 0 else 1.0)
    return ("onehot", sorted(set(train_vals)))


def build(train_rows, test_rows, encs):
    """Sparse rows: (index tuple, value tuple) with index 0 the intercept.
    train_rows/test_rows: lists of per-feature values (test ones already
    mapped; None = unmatched). Returns train patterns, test patterns, d."""
    offs, d = [], 1
    for e in encs:
        offs.append(d)
        d += 1 if e[0] == "numeric" else len(e[1])
    index = [({v: i for i, v in enumerate(e[1])} if e[0] == "onehot" else None) for e in encs]

    def row(vals):
        idx, xv = [0], [1.0]
        for j, (e, v) in enumerate(zip(encs, vals)):
            if e[0] == "numeric":
                x = (float(v) - e[1]) / e[2]
                if x != 0.0:
                    idx.append(offs[j])
                    xv.append(x)
            else:
                k = index[j].get(v)
                if k is not None:
                    idx.append(offs[j] + k)
                    xv.append(1.0)
        return tuple(idx), tuple(xv)

    return [row(r) for r in train_rows], [row(r) for r in test_rows], d


def _chol_solve(H, b):
    n = len(H)
    L = [r[:] for r in H]
    for j in range(n):
        Lj = L[j]
        s = Lj[j] - math.fsum(Lj[k] * Lj[k] for k in range(j))
        if s <= 0:
            raise ArithmeticError("Hessian not positive definite")
        r = math.sqrt(s)
        Lj[j] = r
        for i in range(j + 1, n):
            Li = L[i]
            Li[j] = (Li[j] - sum(Li[k] * Lj[k] for k in range(j))) / r
    y = [0.0] * n
    for i in range(n):
        Li = L[i]
        y[i] = (b[i] - sum(Li[k] * y[k] for k in range(i))) / Li[i]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - sum(L[k][i] * x[k] for k in range(i + 1, n))) / L[i][i]
    return x


def _softplus(z):
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


def _sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def fit_binary(pats, d, C, gtol=1e-10, maxit=300):
    """min_theta 0.5 sum_{j>=1} theta_j^2 + C sum_i [n_i softplus(z_i) - pos_i z_i],
    z_i = x_i . theta, x_i[0] = 1 the intercept, not penalized (scikit-learn's
    LogisticRegression with lbfgs; docs/experiments.md "intercept not
    penalized, C = 1"). pats: (idx, vals, n, pos) with n rows of which pos
    are positive. Damped Newton (backtracking Armijo line search) until the
    gradient's max norm is below gtol. Returns (theta, gradient max norm,
    size of the last Newton step: the coefficients' remaining error)."""
    pen0 = 1.0 if MUTATIONS["penalize_intercept"] else 0.0
    th = [0.0] * d

    def evaluate(th, hess):
        F = [0.5 * pen0 * th[0] * th[0], 0.5 * math.fsum(t * t for t in th[1:])]
        g = [[] for _ in range(d)]
        H = [[0.0] * d for _ in range(d)] if hess else None
        for idx, xv, n, pos in pats:
            z = math.fsum(th[i] * x for i, x in zip(idx, xv))
            F.append(C * (n * _softplus(z) - pos * z))
            p = _sigmoid(z)
            r = C * (n * p - pos)
            for i, x in zip(idx, xv):
                g[i].append(r * x)
            if hess:
                w = C * n * p * (1.0 - p)
                for a, ia in enumerate(idx):
                    Ha = H[ia]
                    wa = w * xv[a]
                    for b in range(len(idx)):
                        Ha[idx[b]] += wa * xv[b]
        grad = [math.fsum(g[i]) for i in range(d)]
        grad[0] += pen0 * th[0]
        for i in range(1, d):
            grad[i] += th[i]
        if hess:
            H[0][0] += pen0
            for i in range(1, d):
                H[i][i] += 1.0
        return math.fsum(F), grad, H

    F, g, H = evaluate(th, True)
    step = float("inf")
    for _ in range(maxit):
        gn = max(abs(x) for x in g)
        if gn < gtol:
            break
        delta = _chol_solve(H, [-x for x in g])
        step = max(abs(x) for x in delta)
        gd = math.fsum(a * b for a, b in zip(g, delta))
        t = 1.0
        while True:
            cand = [a + t * b for a, b in zip(th, delta)]
            F2, g2, H2 = evaluate(cand, True)
            # Armijo; near the optimum the decrease is below F's rounding: take the full step when it
            # shrinks the gradient
            if F2 <= F + 1e-4 * t * gd or (-gd < 1e-12 * (1 + abs(F)) and max(abs(x) for x in g2) < gn):
                break
            t *= 0.5
            if t < 1e-12:
                return th, gn, step
        th, F, g, H = cand, F2, g2, H2
        if step * t < 1e-15 * (1 + max(abs(x) for x in th)):
            break
    gn = max(abs(x) for x in g)
    step = max(abs(x) for x in _chol_solve(H, [-x for x in g]))      # the next Newton step: the remaining error
    return th, gn, step


def fit_predict(train_x, train_y, test_x, d, C):
    """Fits on the training rows (scikit-learn's binary model for two
    classes, one-vs-rest for more: --help "one-vs-rest for more than two
    classes", docs/spec.md 10) and predicts the test rows. Returns (classes,
    per test row the list of classes it may get: one, or several when the
    winning scores lie within TOL, worst gradient norm, worst step, the
    smallest margin of a decided row)."""
    classes = sorted(set(train_y))
    groups = {}
    for x, y in zip(train_x, train_y):
        groups.setdefault(x, {}).setdefault(y, 0)
        groups[x][y] += 1
    plist = [(x[0], x[1], sum(c.values()), c) for x, c in groups.items()]
    worst_g = worst_s = 0.0
    if len(classes) == 1:
        return classes, [[classes[0]] for _ in test_x], 0.0, 0.0, float("inf")
    targets = classes[1:] if len(classes) == 2 else classes
    models = []
    for cl in targets:
        pats = [(i, v, n, c.get(cl, 0)) for i, v, n, c in plist]
        th, gn, st = fit_binary(pats, d, C)
        worst_g, worst_s = max(worst_g, gn), max(worst_s, st)
        models.append(th)
    out, margin = [], float("inf")
    for idx, xv in test_x:
        scores = [sum(th[i] * x for i, x in zip(idx, xv)) for th in models]
        if len(classes) == 2:
            s = scores[0]
            if abs(s) > TOL:
                margin = min(margin, abs(s))
            out.append([classes[1]] if s > TOL else [classes[0]] if s < -TOL else list(classes))
        else:
            top = max(scores)
            out.append([c for c, s in zip(classes, scores) if s >= top - TOL])
            if len(out[-1]) == 1:
                margin = min(margin, top - max(s for s in scores if s < top - TOL))
    return classes, out, worst_g, worst_s, margin


def accuracy_range(pred, truth):
    """(lowest, highest) number of correct test rows over the ambiguous choices, and the ambiguous count."""
    sure = sum(1 for p, y in zip(pred, truth) if p == [y])
    amb = sum(1 for p in pred if len(p) > 1)
    maybe = sum(1 for p, y in zip(pred, truth) if len(p) > 1 and y in p)
    return sure, sure + maybe, amb


def classify(orig_head, orig_rows, rel_head, rel_rows, test_rows, target, hiers, ignore, C):
    """Both models of one --target run with --test. hiers: column -> Hierarchy.
    Features: the release's columns except the target and --ignore. The
    release model: trained on the release, test values mapped the way the
    release is (Mapper). The raw model: trained on the original rows, test
    values as they are (the original is level 0). Baseline: the share of
    test rows of the release's majority class (the thesis's baseline "simply
    predicts" one class for all; the training set's majority, as
    scikit-learn's DummyClassifier)."""
    feats = [c for c in rel_head if c != target and c not in ignore]
    ri = {c: rel_head.index(c) for c in rel_head}
    oi = {c: orig_head.index(c) for c in orig_head}
    res = {"unmatched": {}, "types": {}}
    # release model
    encs, trn, tst = [], [[] for _ in rel_rows], [[] for _ in test_rows]
    for c in feats:
        rv = [r[ri[c]] for r in rel_rows]
        h = hiers.get(c)
        lv = detect_level(rv, h) if h is not None else None
        if h is not None and not isinstance(lv, int):
            raise ValueError("column %s: release at no single level, the test mapping is undefined" % c)
        mp = Mapper(rv, h, lv)
        raw_t = [r[oi[c]] for r in test_rows]
        mt = [mp(v) for v in raw_t]
        # a number is standardized as it is (mapped through the hierarchy when there is one)
        enc = column_encoding(rv, [m if h is not None else v for m, v in zip(mt, raw_t)])
        encs.append(enc)
        res["types"][c] = "numeric" if enc[0] == "numeric" else "categorical"
        if enc[0] == "numeric":
            res["unmatched"][c] = 0.0
            tv = [m if h is not None else v for m, v in zip(mt, raw_t)]
        else:
            vocab = set(enc[1])
            res["unmatched"][c] = sum(1 for m in mt if m not in vocab) / len(mt)
            tv = mt
        for k, v in enumerate(rv):
            trn[k].append(v)
        for k, v in enumerate(tv):
            tst[k].append(v)
    trx, tsx, d = build(trn, tst, encs)
    res["features"] = d - 1
    ry = [r[ri[target]] for r in rel_rows]
    ty = [r[oi[target]] for r in test_rows]
    classes, pred, g1, s1, m1 = fit_predict(trx, ry, tsx, d, C)
    res["classes"] = len(classes)
    res["accuracy"] = accuracy_range(pred, ty)
    cnt = {}
    for y in ry:
        cnt[y] = cnt.get(y, 0) + 1
    top = max(cnt.values())
    res["majority"] = sorted(c for c, n in cnt.items() if n == top)
    if MUTATIONS["baseline_test_majority"]:
        tc = {}
        for y in ty:
            tc[y] = tc.get(y, 0) + 1
        res["majority"] = [max(tc, key=tc.get)]
    res["baseline"] = sorted(sum(1 for y in ty if y == m) / len(ty) for m in res["majority"])
    # raw model: the original rows, the same feature columns, raw test values
    encs, trn, tst = [], [[] for _ in orig_rows], [[] for _ in test_rows]
    for c in feats:
        ov = [r[oi[c]] for r in orig_rows]
        raw_t = [r[oi[c]] for r in test_rows]
        enc = column_encoding(ov, raw_t)
        encs.append(enc)
        for k, v in enumerate(ov):
            trn[k].append(v)
        for k, v in enumerate(raw_t):
            tst[k].append(v)
    trx, tsx, d = build(trn, tst, encs)
    oy = [r[oi[target]] for r in orig_rows]
    _, pred, g2, s2, m2 = fit_predict(trx, oy, tsx, d, C)
    res["accuracy_original"] = accuracy_range(pred, ty)
    res["test_rows"] = len(test_rows)
    res["train_rows"] = len(rel_rows)
    res["original_train_rows"] = len(orig_rows)
    res["grad"] = max(g1, g2)
    res["step"] = max(s1, s2)
    res["margin"] = min(m1, m2)
    return res
