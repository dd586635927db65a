"""keps rr (randomized response, docs/spec.md 7; Ekenstedt et al. 2022)
against an independent model (rr_oracle.py), written from
docs/spec.md sections 1, 7-10, docs/cli.md and `keps rr --help`, never from src/rr.c. Python standard library only; levels in exact
fractions. One line per case ("OK ..." or "DIFF ..." with the differences
under it), then a summary line; exit 0 only when every case agrees.

What is checked, and the sentence each check comes from:
- The mechanisms (docs/spec.md 7): "RR-LDP (Fig. 4): keep the value with probability
  p, else draw uniformly from all n values"; "RR-t (Fig. 5): keep with
  probability p_t, else draw from the empirical distribution p_y of the
  attribute in the whole data set"; "Both in sequence (RR-t then RR-LDP) as
  the paper's mechanism 2". Several --sensitive columns are one joint value
  (--help); its categories are the product of the columns' value sets
  (Ekenstedt et al. 2022, section VI: "n = 4 not only represent one nominal attribute
  with 4 possible values but also corresponds to 2 binary attributes").
- Statistically (docs/spec.md 8: "Every mechanism states the guarantee it gives, and
  a statistical test checks it"): 7 tables of 60k-100k rows released with
  --keep-order and --seed; the (true -> released) pairs of every (class, true
  value), of every true value, and the number of records kept unchanged are
  tested against the transition matrix by chi-square goodness of fit (cells
  of expected < 5 pooled; a released value of probability 0 fails at once;
  p-values from the regularized incomplete gamma). The classes hold very
  different sensitive distributions, so an RR-t drawing from the class's
  distribution instead of the whole data set's fails. Reject at
  p < 0.001 / (number of tests) (Bonferroni).
- Keep probabilities (--help: "Keep probabilities come from -p/--pt or, as
  the largest that meet them, from --epsilon/--t"): -p/--pt as given;
  --epsilon E: the largest p with ln(1 + n p/(1-p)) <= E (docs/spec.md 7, 9; with one
  category every p is 0-LDP, so p = 1; as a double, the largest below 1 when
  E is so large that p rounds to 1); --t T for tclose/both: the largest p_t
  whose eq. (2) level is <= T, eq. (2) read as Def. 4 on single-value classes
  (docs/spec.md 7 "worst case: an EC holding a single value", docs/spec.md 10);
  --t T for ldp: the largest p whose eps implies T for classes of the
  smallest size (--help, Lemma 1) by Theorem 3 as corrected in docs/spec.md
  10, t = (k + (N-k) e^eps)/N; with --epsilon too, the smaller eps.
- The report (docs/cli.md's report contract and --help): keys, categories,
  classes, smallest class; counts (input = released + suppressed + removed +
  unsampled = the file's rows); changed_rows and kept_fraction against the
  keep-order release; the guarantee (model, models, epsilon, t, k) and the
  closed-form levels: eps-LDP of the mechanism's matrix over every category
  (docs/spec.md 9: "compute levels from the transition matrix"; for ldp also docs/spec.md's
  ln(1 + n p/(1-p)) directly); multiplicative t and (k,t) at
  k = min(smallest class, N-1) (Def. 7 allows k <= N-1): ldp the corrected
  Theorem 3 (Lemma 1 via Lemma 2.1), tclose eq. (2) (docs/spec.md 7), both the
  smaller of the two stages' statements (docs/spec.md is silent; see closed_t);
  (k,eps)-DP as ln of the (N-k, t) level (Theorem 4.1). The verified levels
  from the definitions on this data (Defs. 4, 6, 7 with the worst k-subset
  by sorting, 8) and the utility of eq. (4). Every closed-form level must
  also be >= its verified level, and meet --epsilon/--t.
- The release (docs/spec.md 1, --help): identifiers dropped, --others keep|drop,
  insensitive columns unchanged; QIs unchanged with --partition given (and
  -k refused, exit 1, when the input is not k-anonymous); with --partition
  mondrian exactly as an independent Mondrian (mondrian_oracle.py, the median
  rule docs/spec.md 10 documents), with ola a full-domain node without
  suppression of least loss (metrics_oracle.py's exhaustive scan; loss is
  anonymize's default metric); each sensitive column's released values only
  in that column's input domain; without --keep-order a permutation of the
  expected non-sensitive rows, not in input order ("Output rows are
  shuffled"); --seed and --keep-order warn on stderr even with --quiet; the
  same --seed gives the same release, no --seed fresh ones (docs/spec.md 8).
Cases: a 7-row table whose levels are worked out by hand (hand_case), the
same table under every mechanism and parameter form (also --epsilon 40 and
800, --t 1e9), a single category, a single class, 40 random tables (1-3 QIs,
random hierarchies, 1-2 sensitive columns, three mechanisms, every
parameter form, given/mondrian/ola, --dp-k, roles, ',' and ';', shuffled or
kept order), Adult (first 4000 rows with OLA and Mondrian, occupation alone
and occupation x salary-class; all 30162 rows given by sex x race), 8 usage
errors, 2 seed checks, and the statistical tables. Runs in about 10 s.
KEPS (binary), KEPS_REPO (source tree) and TMPDIR come from the environment."""
from sizing import cases  # fewer cases under the sanitizers
import csv, json, math, os, random, shutil, subprocess, sys, tempfile
from fractions import Fraction as F
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rr_oracle import *
from stats import gamma_q
import mondrian_oracle
from metrics_oracle import Problem

KEPS = os.path.abspath(os.environ["KEPS"])
REPO = os.path.abspath(os.environ["KEPS_REPO"])
SCRATCH = tempfile.mkdtemp(prefix="check_rr.")
ADULT = REPO + "/data/adult/"
bad = 0
ncases = 0

# ------------------------------------------------------------------ helpers
def write_csv(path, header, rows, delim=","):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter=delim, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)

def read_csv(path, delim):
    with open(path, newline="") as f:
        r = list(csv.reader(f, delimiter=delim))
    return r[0], r[1:]

def num(x):
    """keps's JSON null stands for an infinite level"""
    return INF if x is None else x

def close(a, b, tol=1e-9):
    a, b = num(a), float(b) if b != INF else INF
    if a == INF or b == INF:
        return a == b
    return abs(a - b) <= tol * max(1.0, abs(b))

def run_rr(args):
    p = subprocess.run([KEPS, "rr"] + args + ["--json", "--quiet"], capture_output=True, text=True)
    rep = json.loads(p.stdout) if p.returncode == 0 else None
    return p.returncode, rep, p.stderr

def mkhier(path, leaves, height, rnd):
    """random balanced ARX hierarchy (';'), level `height` = '*'"""
    rows = [[v] for v in leaves]
    cur = list(range(len(leaves)))
    ng = len(leaves)
    for l in range(1, height + 1):
        if l == height:
            lab = {g: "*" for g in set(cur)}
            cur = [0] * len(leaves)
        else:
            ng = max(1, ng // 2)
            mp = {g: rnd.randrange(ng) for g in sorted(set(cur))}
            cur = [mp[g] for g in cur]
            lab = {g: "L%d_%d" % (l, g) for g in set(cur)}
        for i in range(len(leaves)):
            rows[i].append(lab[cur[i]])
    with open(path, "w") as f:
        for r in rows:
            f.write(";".join(r) + "\n")

# ------------------------------------------------------------------ model of one run
class Job:
    """one keps rr run: input table and options, as the oracle sees them"""
    def __init__(self, name, path, delim, header, rows, mech, sens, qis, params, partition="given", k=None,
                 dp_k=None, identifiers=(), insensitive=(), others="keep", keep_order=True, seed=1, domains=None):
        self.__dict__.update(locals())
        del self.__dict__["self"]

    def args(self):
        a = ["--mechanism", self.mech, "-i", self.path, "-o", self.out, "--seed", str(self.seed),
             "--others", self.others]
        for s in self.sens:
            a += ["--sensitive", s]
        for q, h in self.qis:
            a += ["--qi", q + (":" + h if h else "")]
        for opt, v in self.params:
            a += [opt, v]
        if self.partition != "given":
            a += ["--partition", self.partition]
        if self.k is not None:
            a += ["-k", str(self.k)]
        if self.dp_k is not None:
            a += ["--dp-k", str(self.dp_k)]
        for c in self.identifiers:
            a += ["--identifier", c]
        for c in self.insensitive:
            a += ["--insensitive", c]
        if self.keep_order:
            a += ["--keep-order"]
        for c, vals in sorted((self.domains or {}).items()):   # --help: one CSV record after COL=
            a += ["--domain", "%s=%s" % (c, ",".join(vals))]
        return a

def expected_partition(job, problems):
    """released QI tuple of every input row (None where the oracle defers to
    the checks below: only ola needs keps's node, which is then checked)."""
    h = job.header
    qn = [q for q, _ in job.qis]
    raw = [tuple(r[h.index(q)] for q in qn) for r in job.rows]
    if job.partition == "given":
        return raw
    if job.partition == "mondrian":
        qis = []
        for q, hp in job.qis:
            col = [r[h.index(q)] for r in job.rows]
            qis.append(mondrian_oracle.QI(q, col, mondrian_oracle.load_hierarchy(hp) if hp else None))
        lab = [None] * len(job.rows)
        for ids, ext in mondrian_oracle.mondrian(qis, len(job.rows), job.k, "keps"):
            t = tuple(mondrian_oracle.label(q, e) for q, e in zip(qis, ext))
            for i in ids:
                lab[i] = t
        return lab
    # ola: every node without suppression, least loss (keps anonymize's default metric, as ARX)
    P = Problem(job.path, job.delim, job.k, 0.0, ["%s:%s" % (q, hp) for q, hp in job.qis])
    scan = P.scan("loss")
    node = tuple(job.rep.get("transformation", {}).get(q, -1) for q in qn)
    if not scan:
        problems.append("ola: the oracle finds no node without suppression")
        return raw
    if any(not (0 <= node[i] <= P.height[i]) for i in range(len(qn))):
        problems.append("ola: transformation %r" % (node,))
        return raw
    m = P.metrics(node)
    if m["S"] != 0:
        problems.append("ola: node %r leaves %d records in classes < k" % (node, m["S"]))
    if m["loss"] > scan[0][0] + 1e-12:
        problems.append("ola: node %r loss %.12g, oracle optimum %.12g at %r" % (node, m["loss"], scan[0][0],
                                                                                 scan[0][1]))
    km = job.rep.get("k_anonymization_metrics", {})
    if "loss" in km and not close(km["loss"], m["loss"], 1e-9):
        problems.append("ola: reported loss %r, oracle %r" % (km["loss"], m["loss"]))
    return [tuple(P.gen[i][t[i]][node[i]] for i in range(len(qn))) for t in raw]

def closed_t(mech, M, freq, pt, eps_m, k, N):
    """closed-form multiplicative / (k,t) level at group size k.
    ldp: Lemma 1 through the corrected Theorem 3 (docs/spec.md 10).
    tclose: eq. (2) read as Def. 4 on single-value classes (docs/spec.md 7,
    docs/spec.md 10).
    both: docs/spec.md is silent. Reading used (keps's): the smaller of the two
    statements the stages give, RR-t's eq. (2) level at p_t (the RR-LDP
    stage is post-processing, which keeps Def. 4's ratios within [1/t, t])
    and the corrected Theorem 3 of the composed matrix's eps. Both are sound
    bounds; soundness against the verified levels is checked separately."""
    if mech == "ldp":
        return thm3_t(eps_m, k, N)
    rrt = rrt_level(pt, freq)
    return min(float(rrt), thm3_t(eps_m, k, N))

def check_job(job):
    """run keps, recompute everything, return the list of disagreements (an
    exception in the comparison is one too, so that the other cases still run)"""
    global ncases
    ncases += 1
    try:
        return check_job1(job)
    except Exception as e:
        return ["error while comparing: %s: %s" % (type(e).__name__, e)], job.__dict__.get("rep")

def check_job1(job):
    job.out = os.path.join(SCRATCH, job.name + ".out.csv")
    rc, rep, err = run_rr(job.args())
    if rc != 0:
        return ["keps exit %d: %s" % (rc, err.strip()[:300])], None
    job.rep = rep
    P = []
    # docs/spec.md 8 / --help: --seed and --keep-order weaken the guarantee and say so, even with --quiet
    if "--seed" not in err:
        P.append("no --seed warning on stderr")
    if job.keep_order and "--keep-order" not in err:
        P.append("no --keep-order warning on stderr")
    for key in ("keps_version", "method", "parameters", "input_rows", "output_rows", "suppressed_rows",
                "unsampled_rows", "guarantee", "timing_ms"):      # docs/cli.md's report contract
        if key not in rep:
            P.append("report lacks %r" % key)
    if rep.get("method") != "rr":
        P.append("method %r" % rep.get("method"))
    h, N = job.header, len(job.rows)
    # ---- categories: joint values over the product of the columns' value sets
    si = [h.index(s) for s in job.sens]
    # --domain: the public domain replaces the values the data holds (--help)
    pub = job.domains or {}
    doms = [sorted({r[i] for r in job.rows} | set(pub.get(s, ()))) for s, i in zip(job.sens, si)]
    cats = [()]
    for d in doms:
        cats = [c + (v,) for c in cats for v in d]
    cid = {c: j for j, c in enumerate(cats)}
    n = len(cats)
    truth = [cid[tuple(r[i] for i in si)] for r in job.rows]
    counts = [0] * n
    for y in truth:
        counts[y] += 1
    freq = [F(c, N) for c in counts]
    # ---- release
    oh, orows = read_csv(job.out, job.delim)
    drop = set(job.identifiers)
    roles = set(job.sens) | {q for q, _ in job.qis} | set(job.insensitive) | set(job.identifiers)
    if job.others == "drop":
        drop |= {c for c in h if c not in roles}
    want_h = [c for c in h if c not in drop]
    if oh != want_h:
        P.append("header %r, expected %r" % (oh, want_h))
        return P, rep
    if len(orows) != N:
        P.append("release has %d rows, input %d" % (len(orows), N))
        return P, rep
    gen = expected_partition(job, P)
    qn = [q for q, _ in job.qis]
    keepc = [c for c in want_h if c not in job.sens and c not in qn]
    def nonsens(r, hh):
        return tuple(r[hh.index(c)] for c in keepc)
    rel_q = [tuple(r[oh.index(q)] for q in qn) for r in orows]
    for j, s in enumerate(job.sens):
        bad_vals = {r[oh.index(s)] for r in orows} - set(doms[j])
        if bad_vals:
            P.append("sensitive %s released outside its domain: %r" % (s, sorted(bad_vals)[:5]))
    if job.keep_order:
        for i, r in enumerate(orows):
            if rel_q[i] != gen[i]:
                P.append("row %d QIs %r, expected %r" % (i + 1, rel_q[i], gen[i]))
                break
            if nonsens(r, oh) != nonsens(job.rows[i], h):
                P.append("row %d non-sensitive cells changed" % (i + 1))
                break
        released = [cid.get(tuple(r[oh.index(s)] for s in job.sens)) for r in orows]
        changed = sum(1 for a, b in zip(truth, released) if a != b)
        if rep.get("changed_rows") != changed:
            P.append("changed_rows %r, release shows %d" % (rep.get("changed_rows"), changed))
        if not close(rep["metrics"]["kept_fraction"], 1 - changed / N, 1e-12):
            P.append("kept_fraction %r, release shows %r" % (rep["metrics"]["kept_fraction"], 1 - changed / N))
    else:
        released = None
        a = sorted(g + nonsens(r, h) for g, r in zip(gen, job.rows))
        b = sorted(q + nonsens(r, oh) for q, r in zip(rel_q, orows))
        if a != b:
            P.append("shuffled release is not a permutation of the expected non-sensitive rows")
        # docs/spec.md 1: "Output rows are shuffled with the CSPRNG before writing"
        seq_in = [g + nonsens(r, h) for g, r in zip(gen, job.rows)]
        seq_out = [q + nonsens(r, oh) for q, r in zip(rel_q, orows)]
        if len(set(seq_in)) > 3 and N >= 12 and seq_in == seq_out:
            P.append("rows written in input order without --keep-order")
    # ---- classes (released QI tuples)
    cls = {}
    for i, g in enumerate(gen):
        cls.setdefault(g, [0] * n)[truth[i]] += 1
    sizes = [sum(c) for c in cls.values()]
    kmin = min(sizes)
    if job.partition != "given" and kmin < job.k:
        P.append("partition has a class of %d < k = %d" % (kmin, job.k))
    for key, want in (("input_rows", N), ("output_rows", N), ("released_rows", N), ("categories", n),
                      ("classes", len(cls)), ("smallest_class", kmin), ("mechanism", job.mech),
                      ("partition", job.partition)):
        if rep.get(key) != want:
            P.append("%s %r, oracle %r" % (key, rep.get(key), want))
    acc = sum(rep.get(x, 0) for x in ("released_rows", "suppressed_rows", "removed_rows", "unsampled_rows"))
    if acc != rep.get("input_rows"):
        P.append("input_rows %r != released + suppressed + removed + unsampled %r" % (rep.get("input_rows"), acc))
    # ---- keep probabilities
    opts = dict(job.params)
    kt_k = min(kmin, N - 1)
    p = pt = None
    if job.mech != "tclose":
        if "-p" in opts:
            p = float(opts["-p"])
        else:
            e = float(opts["--epsilon"]) if "--epsilon" in opts else INF
            if job.mech == "ldp" and "--t" in opts:
                e = min(e, eps_for_t_ldp(float(opts["--t"]), kt_k, N))
            p = p_from_eps(e, n)
        if not close(rep.get("p"), p, 1e-12):
            P.append("p %r, oracle %r" % (rep.get("p"), p))
    if job.mech != "ldp":
        if "--pt" in opts:
            pt = float(opts["--pt"])
        else:
            pt = pt_from_t(float(opts["--t"]), freq)
            if not rrt_level(F(rep["pt"]), freq) <= F(opts["--t"]) * (1 + F(1, 10**12)):
                P.append("pt %r exceeds --t %s" % (rep["pt"], opts["--t"]))
        if not close(rep.get("pt"), pt, 1e-9):
            P.append("pt %r, oracle %r" % (rep.get("pt"), pt))
    # the levels are taken at keps's own p, p_t (checked above), so that a
    # difference in one parameter is reported once
    kp = F(rep["p"]) if p is not None else None
    kpt = F(rep["pt"]) if pt is not None else None
    M = mechanism_matrix(job.mech, n, freq, kp, kpt)
    eps_m = matrix_eps(M, range(n))
    if job.mech == "ldp":
        # docs/spec.md 7: eps = ln(1 + n p/(1-p)); with one category L = [[1]], eps = 0
        spec = 0.0 if n == 1 else INF if kp == 1 else math.log(1 + n * kp / (1 - kp))
        if not close(eps_m, spec, 1e-12):
            P.append("oracle self-check: matrix eps %r vs docs/spec.md's formula %r" % (eps_m, spec))
    ct = closed_t(job.mech, M, freq, kpt, eps_m, kt_k, N)
    kdp = job.dp_k or 1
    ckdp = ln(closed_t(job.mech, M, freq, kpt, eps_m, N - kdp, N))
    cf, vf, g = rep["closed_form"], rep["verified"], rep["guarantee"]
    present = [y for y in range(n) if counts[y]]
    v_eps = matrix_eps(M, present)
    v_mt = verify_mult_t(M, counts, list(cls.values()), N)
    v_kt = verify_kt(M, counts, N, kt_k)
    v_kdp = verify_kdp(M, counts, N, kdp)
    U = utility(M, freq)
    # docs/cli.md "Guarantee labels": a parameter read from the data (a domain not given by --domain,
    # RR-t's distribution, p chosen from --t and the class sizes) makes the model "(data-dependent)"
    dd = (any(s not in pub for s in job.sens) or job.mech != "ldp" or
          (job.mech == "ldp" and "--t" in dict(job.params) and "-p" not in dict(job.params)))
    sfx = " (data-dependent)" if dd else ""
    model = ("multiplicative-t-closeness" if job.mech == "tclose" else "epsilon-LDP") + sfx
    models = {"ldp": ["epsilon-LDP", "multiplicative-t-closeness"], "tclose": ["multiplicative-t-closeness"],
              "both": ["epsilon-LDP", "multiplicative-t-closeness"]}[job.mech]
    models = [m + sfx for m in models]
    if bool(g.get("data_dependent")) != dd:
        P.append("guarantee.data_dependent %r, oracle expects %s" % (g.get("data_dependent"), "items" if dd else "[]"))
    if g.get("domain_from_data") != any(s not in pub for s in job.sens):
        P.append("guarantee.domain_from_data %r" % g.get("domain_from_data"))
    if sorted(g.get("models", [])) != sorted(models):
        P.append("guarantee.models %r, oracle %r" % (g.get("models"), models))
    expect = [("guarantee.model", g.get("model"), model), ("guarantee.k", g.get("k"), kmin),
              ("closed kt k", cf["kt_closeness"]["k"], kt_k), ("verified kt k", vf["kt_closeness"]["k"], kt_k),
              ("closed kdp k", cf["k_epsilon_dp"]["k"], kdp), ("verified kdp k", vf["k_epsilon_dp"]["k"], kdp)]
    for what, a, b in expect:
        if a != b:
            P.append("%s %r, oracle %r" % (what, a, b))
    levels = [("guarantee.epsilon", g.get("epsilon"), eps_m), ("guarantee.t", g.get("t"), ct),
              ("closed eps-LDP", cf["epsilon_ldp"], eps_m), ("closed mult t", cf["multiplicative_t"], ct),
              ("closed (k,t)", cf["kt_closeness"]["t"], ct), ("closed (k,eps)-DP", cf["k_epsilon_dp"]["epsilon"], ckdp),
              ("verified eps-LDP", vf["epsilon_ldp"], v_eps), ("verified mult t", vf["multiplicative_t"], v_mt),
              ("verified (k,t)", vf["kt_closeness"]["t"], v_kt), ("verified (k,eps)-DP", vf["k_epsilon_dp"]["epsilon"], v_kdp),
              ("utility", rep["metrics"]["utility_binary_gain"], U)]
    for what, a, b in levels:
        if not close(a, b):
            P.append("%s %r, oracle %r" % (what, a, float(b) if b != INF else b))
    # soundness: a stated level is never below the level verified on the data
    for what, a, b in (("eps-LDP", cf["epsilon_ldp"], vf["epsilon_ldp"]), ("mult t", cf["multiplicative_t"], vf["multiplicative_t"]),
                       ("(k,t)", cf["kt_closeness"]["t"], vf["kt_closeness"]["t"]),
                       ("(k,eps)-DP", cf["k_epsilon_dp"]["epsilon"], vf["k_epsilon_dp"]["epsilon"])):
        if num(a) < num(b) * (1 - 1e-12) - 1e-15:
            P.append("closed %s %r below verified %r" % (what, a, b))
    # targets met
    if "--epsilon" in opts and not num(rep["closed_form"]["epsilon_ldp"]) <= float(opts["--epsilon"]) * (1 + 1e-12):
        P.append("closed eps %r above --epsilon %s" % (cf["epsilon_ldp"], opts["--epsilon"]))
    if "--t" in opts and not num(cf["multiplicative_t"]) <= float(opts["--t"]) * (1 + 1e-12):
        P.append("closed t %r above --t %s" % (cf["multiplicative_t"], opts["--t"]))
    job.truth, job.released, job.cats, job.cls_of = truth, released, cats, gen
    job.M, job.counts, job.cls_counts, job.kp, job.kpt = M, counts, cls, kp, kpt
    return P, rep

def report(job, P, extra=""):
    global bad
    rep = job.__dict__.get("rep")
    info = ""
    if rep:
        info = "n=%s classes=%s k=%s p=%s pt=%s eps=%.4g t=%.4g" % (
            rep.get("categories"), rep.get("classes"), rep.get("smallest_class"), rep.get("p"), rep.get("pt"),
            num(rep["guarantee"].get("epsilon")), num(rep["guarantee"].get("t")))
    if P:
        bad += 1
        print("DIFF %-28s %-6s %s %s" % (job.name, job.mech, info, extra))
        for x in P[:6]:
            print("     " + x)
    else:
        print("OK   %-28s %-6s %s %s" % (job.name, job.mech, info, extra))

# ------------------------------------------------------------------ hand-computed case
def hand_case():
    """7 records, 2 classes; dis: flu 4, cold 2, hiv 1 (f = 4/7, 2/7, 1/7).
    both, p = 1/2, p_t = 2/5: M = T L = (1/2) T + (1/6) J (rows of T sum to 1),
    M[y][z] = (1/5)[y = z] + (3/10) f_z + 1/6. The largest column ratio is at
    z = hiv: (1/5 + 3/70 + 1/6)/(3/70 + 1/6) = 86/44 = 43/22, so
    eps = ln(43/22); t = (3 + 4 * 43/22)/7 = 17/11 (corrected Theorem 3,
    k = 3, N = 7; RR-t alone would state max(1 + (2/5) 6, 1/(3/5)) = 17/5);
    (1,eps)-DP = ln((6 + 43/22)/7) = ln(25/22); U = sum_z max_y f_y M[y][z] =
    (4/7)(113/210 + 36/210 + 44/210) = 4/7."""
    path = os.path.join(SCRATCH, "hand.csv")
    header = ["zip", "sex", "dis"]
    rows = [["a", "m", "flu"], ["a", "m", "flu"], ["a", "m", "cold"], ["b", "f", "hiv"], ["b", "f", "flu"],
            ["b", "f", "flu"], ["b", "f", "cold"]]
    write_csv(path, header, rows)
    job = Job("hand_both", path, ",", header, rows, "both", ["dis"], [("zip", None), ("sex", None)],
              [("-p", "0.5"), ("--pt", "0.4")], k=3)
    P, rep = check_job(job)
    if rep:
        g, cf = rep["guarantee"], rep["closed_form"]
        for what, a, b in (("eps", g["epsilon"], math.log(43 / 22)), ("t", g["t"], 17 / 11),
                           ("(1,eps)-DP", cf["k_epsilon_dp"]["epsilon"], math.log(25 / 22)),
                           ("U", rep["metrics"]["utility_binary_gain"], 4 / 7)):
            if not close(a, b, 1e-12):
                P.append("hand value %s: keps %r, by hand %r" % (what, a, b))
    report(job, P)
    # the same table, each mechanism and target form
    for name, mech, params in (("hand_ldp_p", "ldp", [("-p", "0.5")]),
                               ("hand_ldp_eps", "ldp", [("--epsilon", "1")]),
                               ("hand_ldp_t", "ldp", [("--t", "1.5")]),
                               ("hand_ldp_eps_t", "ldp", [("--epsilon", "1"), ("--t", "1.5")]),
                               ("hand_tclose_pt", "tclose", [("--pt", "0.4")]),
                               ("hand_tclose_t", "tclose", [("--t", "2")]),
                               ("hand_both_eps_t", "both", [("--epsilon", "1"), ("--t", "2")]),
                               ("hand_ldp_eps40", "ldp", [("--epsilon", "40")]),
                               ("hand_both_eps800", "both", [("--epsilon", "800"), ("--pt", "0.5")]),
                               ("hand_tclose_t_huge", "tclose", [("--t", "1e9")])):
        job = Job(name, path, ",", header, rows, mech, ["dis"], [("zip", None), ("sex", None)], params, dp_k=2)
        P, rep = check_job(job)
        report(job, P)
    # a single category: every p gives a 0-LDP (identity) matrix
    path = os.path.join(SCRATCH, "onevalue.csv")
    header = ["q", "s"]
    rows = [["a", "x"], ["a", "x"], ["b", "x"], ["b", "x"]]
    write_csv(path, header, rows)
    for name, mech, params in (("one_value_ldp_eps", "ldp", [("--epsilon", "1")]),
                               ("one_value_tclose_t", "tclose", [("--t", "2")]),
                               ("one_value_both_p", "both", [("-p", "0.3"), ("--pt", "0.3")])):
        job = Job(name, path, ",", header, rows, mech, ["s"], [("q", None)], params)
        P, rep = check_job(job)
        report(job, P)
    # one class holding every record: Def. 7 needs k <= N - 1, so the (k,t)
    # levels are taken at k = N - 1 (multiplicative t is then trivially 1)
    path = os.path.join(SCRATCH, "oneclass.csv")
    header = ["q", "s"]
    rows = [["a", "x"], ["a", "y"], ["a", "x"], ["a", "z"], ["a", "x"]]
    write_csv(path, header, rows)
    for name, mech, params in (("one_class_ldp_t", "ldp", [("--t", "1.5")]),
                               ("one_class_both", "both", [("-p", "0.5"), ("--pt", "0.5")]),
                               ("one_class_tclose_t", "tclose", [("--t", "2")])):
        job = Job(name, path, ",", header, rows, mech, ["s"], [("q", None)], params, k=5, dp_k=4)
        P, rep = check_job(job)
        report(job, P)

# ------------------------------------------------------------------ random small tables
def random_case(seed):
    rnd = random.Random(seed)
    d = os.path.join(SCRATCH, "r%d" % seed)
    os.makedirs(d, exist_ok=True)
    partition = rnd.choice(["given", "given", "mondrian", "ola"])
    mech = rnd.choice(["ldp", "tclose", "both"])
    nq = rnd.randint(1, 3)
    qis, qvals = [], []
    for j in range(nq):
        nl = rnd.randint(2, 6)
        leaves = ["q%d_%d" % (j, i) for i in range(nl)]
        numeric = partition == "mondrian" and rnd.uniform(0, 1) < 0.3
        if numeric:
            leaves = [str(10 * i + rnd.randint(0, 9)) for i in range(nl)]
            qis.append(("Q%d" % j, None))
        elif partition == "given" and rnd.uniform(0, 1) < 0.6:
            qis.append(("Q%d" % j, None))
        else:
            hp = os.path.join(d, "h%d.csv" % j)
            mkhier(hp, leaves, rnd.randint(1, 3), rnd)
            qis.append(("Q%d" % j, hp))
        qvals.append(leaves)
    nsens = 1 if rnd.uniform(0, 1) < 0.7 else 2
    sdom = [["s%d_%d" % (j, i) for i in range(rnd.randint(2, 4 if nsens == 2 else 6))] for j in range(nsens)]
    N = rnd.randint(12, 160)
    rows = []
    if partition == "given":          # a k-anonymous input: blocks of >= kk equal QI tuples
        kk = rnd.randint(1, 6)
        tuples = list({tuple(rnd.choice(v) for v in qvals) for _ in range(8)})
        while len(rows) < N:
            t = rnd.choice(tuples)
            w = [[rnd.uniform(0, 1) ** 3 + 0.01 for _ in dd] for dd in sdom]   # per-class distributions differ
            for _ in range(rnd.randint(kk, kk + 5)):
                rows.append(list(t) + [rnd.choices(dd, ww)[0] for dd, ww in zip(sdom, w)])
        N = len(rows)
    else:
        for _ in range(N):
            rows.append([rnd.choice(v) for v in qvals] + [rnd.choice(dd) for dd in sdom])
    for r in rows:
        r += ["id%d" % rnd.randrange(10**6), "i%d" % rnd.randint(0, 3), "o%d" % rnd.randint(0, 3)]
    header = [q for q, _ in qis] + ["S%d" % j for j in range(nsens)] + ["ident", "ins", "other"]
    order = list(range(len(header)))
    rnd.shuffle(order)
    header = [header[i] for i in order]
    rows = [[r[i] for i in order] for r in rows]
    delim = rnd.choice([",", ";"])
    path = os.path.join(d, "in.csv")
    write_csv(path, header, rows, delim)
    # parameters in every form the mechanism takes
    pv = lambda: rnd.choice(["0", "0.05", "0.3", "0.5", "0.8", "0.95", "1"])
    params = []
    if mech in ("ldp", "both"):
        form = rnd.choice(["p", "eps", "t", "eps_t"] if mech == "ldp" else ["p", "eps"])
        if form == "p":
            params.append(("-p", pv()))
        if "eps" in form:
            params.append(("--epsilon", rnd.choice(["0.1", "0.5", "1", "2", "5"])))
        if form in ("t", "eps_t"):
            params.append(("--t", rnd.choice(["1.05", "1.5", "2", "4"])))
    if mech in ("tclose", "both"):
        if rnd.uniform(0, 1) < 0.5:
            params.append(("--pt", pv()))
        else:
            params.append(("--t", rnd.choice(["1.05", "1.5", "2", "4", "10"])))
    k = None
    if partition != "given":
        k = rnd.randint(1, max(1, N // 6))
    elif rnd.uniform(0, 1) < 0.5:
        k = kk
    dp_k = rnd.choice([None, 1, rnd.randint(1, N - 1)])
    domains = None
    if rnd.uniform(0, 1) < 0.5:       # a public domain: the column's values, sometimes one the data lacks
        domains = {"S%d" % j: sdom[j] + (["s%d_x" % j] if rnd.uniform(0, 1) < 0.5 else []) for j in range(nsens)}
    job = Job("rand%02d_%s" % (seed, partition), path, delim, header, rows, mech,
              ["S%d" % j for j in range(nsens)], qis, params, partition=partition, k=k, dp_k=dp_k,
              identifiers=["ident"], insensitive=["ins"], others=rnd.choice(["keep", "drop"]),
              keep_order=rnd.uniform(0, 1) < 0.85, seed=seed, domains=domains)
    P, rep = check_job(job)
    report(job, P, "N=%d %s%s%s --others %s%s" % (N, " ".join(a + " " + b for a, b in params),
                                            " -k %d" % k if k else "", "" if job.keep_order else " shuffled",
                                            job.others, " --domain" if domains else ""))

# ------------------------------------------------------------------ Adult
def adult_cases():
    head, rows = read_csv(ADULT + "adult.csv", ";")
    rows = rows[:4000]
    path = os.path.join(SCRATCH, "adult4000.csv")
    write_csv(path, head, rows, ";")
    H = lambda c: (c, ADULT + "adult_hierarchy_%s.csv" % c)
    for name, mech, part, qis, sens, params, k in (
            ("adult_ola_occ", "ldp", "ola", [H("sex"), H("age"), H("race"), H("marital-status")],
             ["occupation"], [("--epsilon", "1")], 5),
            ("adult_ola_joint_both", "both", "ola", [H("sex"), H("age"), H("race")],
             ["occupation", "salary-class"], [("--epsilon", "2"), ("--t", "3")], 10),
            ("adult_mond_tclose", "tclose", "mondrian", [("age", None), H("sex"), H("race"), H("education")],
             ["occupation"], [("--t", "2")], 5),
            ("adult_mond_ldp_t", "ldp", "mondrian", [("age", None), H("sex"), H("marital-status")],
             ["occupation"], [("--t", "2")], 20)):
        job = Job(name, path, ";", head, rows, mech, sens, qis, params, partition=part, k=k, dp_k=3, seed=11)
        P, rep = check_job(job)
        report(job, P)
    # all of Adult, classes as given by sex x race (the --help example's shape)
    head, rows = read_csv(ADULT + "adult.csv", ";")
    job = Job("adult_full_given_both", ADULT + "adult.csv", ";", head, rows, "both", ["salary-class"],
              [("sex", None), ("race", None)], [("--epsilon", "1"), ("--pt", "0.5")], dp_k=100, seed=12)
    P, rep = check_job(job)
    report(job, P)

# ------------------------------------------------------------------ usage errors
def usage_cases():
    global bad, ncases
    path = os.path.join(SCRATCH, "hand.csv")
    base = ["-i", path, "--sensitive", "dis", "--qi", "zip", "--qi", "sex", "--seed", "1"]
    for name, args, want in (
            ("not k-anonymous", ["--mechanism", "ldp", "-p", "0.5", "-k", "4"], 1),
            ("k-anonymous", ["--mechanism", "ldp", "-p", "0.5", "-k", "3"], 0),
            ("ldp with --pt", ["--mechanism", "ldp", "-p", "0.5", "--pt", "0.5"], 2),
            ("tclose with -p", ["--mechanism", "tclose", "-p", "0.5"], 2),
            ("both without RR-t", ["--mechanism", "both", "-p", "0.5"], 2),
            ("--pt and --t", ["--mechanism", "both", "-p", "0.5", "--pt", "0.3", "--t", "2"], 2),
            ("ldp -p and --t", ["--mechanism", "ldp", "-p", "0.5", "--t", "2"], 2),
            ("--dp-k = N", ["--mechanism", "ldp", "-p", "0.5", "--dp-k", "7"], 2)):
        ncases += 1
        out = os.path.join(SCRATCH, "usage.csv")
        if os.path.exists(out):
            os.unlink(out)
        p = subprocess.run([KEPS, "rr", "-o", out] + base + args + ["--quiet"], capture_output=True, text=True)
        ok = p.returncode == want and (want == 0) == os.path.exists(out)
        bad += not ok
        print("%s usage %-22s exit %d (expected %d)%s" % ("OK  " if ok else "DIFF", name, p.returncode, want,
                                                          "" if ok else ": " + p.stderr.strip()[:200]))

def seed_cases():
    """docs/spec.md 8: --seed gives a reproducible stream; without it the CSPRNG
    (OS entropy) gives a fresh one."""
    global bad, ncases
    rnd = random.Random(8)
    path = os.path.join(SCRATCH, "seed.csv")
    rows = [["g%d" % (i % 4), "v%d" % rnd.randrange(5)] for i in range(2000)]
    write_csv(path, ["q", "s"], rows)
    outs = []
    for seed in (["--seed", "9"], ["--seed", "9"], [], []):
        out = os.path.join(SCRATCH, "seed%d.csv" % len(outs))
        subprocess.run([KEPS, "rr", "-m", "both", "-i", path, "-o", out, "--sensitive", "s", "--qi", "q", "-p", "0.5",
                        "--pt", "0.5", "--quiet"] + seed, capture_output=True, text=True)
        outs.append(open(out).read() if os.path.exists(out) else None)
    for name, ok in (("same --seed, same release", outs[0] is not None and outs[0] == outs[1]),
                     ("no --seed, fresh releases", None not in outs[2:] and outs[2] != outs[3]
                      and outs[2] != outs[0])):
        ncases += 1
        bad += not ok
        print("%s seed  %s" % ("OK  " if ok else "DIFF", name))

# ------------------------------------------------------------------ statistics
def chi2_test(obs, prob):
    """goodness of fit of counts obs to probabilities prob; cells of expected
    < 5 pooled (smallest first); returns (p-value, df). A count where the
    probability is 0 gives p = 0."""
    tot = sum(obs)
    cells = []
    for o, q in zip(obs, prob):
        if q == 0:
            if o:
                return 0.0, 0
            continue
        cells.append([tot * float(q), o])
    cells.sort()
    pooled = []
    acc = [0.0, 0]
    for e, o in cells:
        if e < 5:
            acc[0] += e
            acc[1] += o
        else:
            pooled.append([e, o])
    if acc[0] > 0:
        if acc[0] < 5 and pooled:
            pooled[0][0] += acc[0]
            pooled[0][1] += acc[1]
        else:
            pooled.append(acc)
    if len(pooled) < 2:
        return 1.0, 0
    x2 = sum((o - e) ** 2 / e for e, o in pooled)
    df = len(pooled) - 1
    return gamma_q(df / 2.0, x2 / 2.0), df

def expected_row(job, y, c):
    """docs/spec.md 7: every record goes through the same matrix, built with the
    whole data set's distribution (not its class's): row y of job.M"""
    return job.M[y]

STATS = []     # (label, p-value, df) of every test; judged together at the end

def stat_case(name, mech, params, seed, N, nvals, nclasses, nsens=1, partition="given"):
    rnd = random.Random(seed)
    doms = [["v%d_%d" % (j, i) for i in range(nvals[j])] for j in range(nsens)]
    rows = []
    per = N // nclasses
    for c in range(nclasses):
        # each class its own, quite different, distribution (some values rare or absent)
        ws = [[(rnd.uniform(0, 1) ** 4) if rnd.uniform(0, 1) < 0.8 else 0.0 for _ in d] for d in doms]
        for w in ws:
            w[c % len(w)] += 0.5
        for _ in range(per):
            rows.append(["g%d" % c, "x%d" % rnd.randint(0, 2)] + [rnd.choices(d, w)[0] for d, w in zip(doms, ws)])
    header = ["grp", "ins"] + ["S%d" % j for j in range(nsens)]
    path = os.path.join(SCRATCH, name + ".csv")
    write_csv(path, header, rows)
    job = Job(name, path, ",", header, rows, mech, ["S%d" % j for j in range(nsens)], [("grp", None)], params,
              insensitive=["ins"], seed=seed)
    P, rep = check_job(job)
    if not P:
        n = len(job.cats)
        tab = {}
        for y, z, g in zip(job.truth, job.released, job.cls_of):
            tab.setdefault((g, y), [0] * n)[z] += 1
        tests = 0
        byval = {}
        for (g, y), obs in sorted(tab.items()):
            pv, df = chi2_test(obs, expected_row(job, y, g))
            STATS.append(("%s class %s true %s" % (name, g[0], "/".join(job.cats[y])), pv, df))
            tests += 1
            acc = byval.setdefault(y, [0] * n)
            for z in range(n):
                acc[z] += obs[z]
        for y, obs in sorted(byval.items()):
            pv, df = chi2_test(obs, job.M[y])
            STATS.append(("%s all classes true %s" % (name, "/".join(job.cats[y])), pv, df))
            tests += 1
        # all records: the number released unchanged against sum_y count_y M[y][y]
        # (a sum of independent Bernoulli trials; the binomial variance used by
        # the df-1 chi-square is an upper bound on its variance: conservative)
        kept = sum(1 for y, z in zip(job.truth, job.released) if y == z)
        ek = sum(F(c) * expected_row(job, y, None)[y] for y, c in enumerate(job.counts)) / len(rows)
        pv, df = chi2_test([kept, len(rows) - kept], [ek, 1 - ek])
        STATS.append(("%s records kept unchanged (%d)" % (name, kept), pv, df))
        tests += 1
        low = min(s[1] for s in STATS[-tests:])
        report(job, P, "N=%d tests=%d min p=%.3g" % (len(rows), tests, low))
    else:
        report(job, P)

def stats_cases():
    stat_case("stat_ldp", "ldp", [("-p", "0.4")], 101, 100000, [5], 4)
    stat_case("stat_tclose", "tclose", [("--pt", "0.3")], 102, 100000, [5], 4)
    stat_case("stat_both", "both", [("-p", "0.5"), ("--pt", "0.3")], 103, 100000, [5], 4)
    stat_case("stat_ldp_eps_n8", "ldp", [("--epsilon", "2")], 104, 80000, [8], 4)
    stat_case("stat_tclose_joint", "tclose", [("--pt", "0.5")], 105, 60000, [3, 2], 3, nsens=2)
    stat_case("stat_both_t", "both", [("--epsilon", "1"), ("--t", "8")], 107, 60000, [4], 3)
    stat_case("stat_both_joint_p0", "both", [("-p", "0.6"), ("--pt", "0")], 106, 60000, [3, 2], 3, nsens=2)

def judge_stats():
    global bad
    m = len(STATS)
    if not m:
        return
    alpha = 0.001 / m
    worst = min(STATS, key=lambda s: s[1])
    fails = [s for s in STATS if s[1] < alpha]
    for lab, pv, df in fails:
        print("DIFF chi-square %s: p = %.3g (df %d) < %.3g" % (lab, pv, df, alpha))
    bad += bool(fails)
    print("%s chi-square: %d tests, Bonferroni threshold %.3g, smallest p %.3g (%s)"
          % ("OK  " if not fails else "DIFF", m, alpha, worst[1], worst[0]))

if __name__ == "__main__":
    hand_case()
    for seed in cases(range(40)):
        random_case(seed)
    adult_cases()
    usage_cases()
    seed_cases()
    stats_cases()
    judge_stats()
    print("rr: %d cases, %d disagreements" % (ncases + 1, bad))
    if not bad:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    sys.exit(1 if bad else 0)
