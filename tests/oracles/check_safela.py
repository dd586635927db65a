"""keps safela (epsilon-safe lattice anonymization, docs/spec.md 6) against an
independent oracle (safela_oracle.py), end to end, as a user runs it.

Re-creates the end-to-end part of the audit in docs/experiments.md
("Conformance audit of keps safela"). Data: the first ROWS rows of
data/adult/adult.csv with a row number prepended as column `id`, the bundled
hierarchies data/adult/adult_hierarchy_*.csv. A release names no row (every
released column is part of the class key, so a raw `id` would suppress every
row), so each seeded run is paired with a companion run of the same seed,
`-k 1 --insensitive id --others keep --keep-order`, which suppresses nothing:
its `id` column lists exactly the sampled rows. This rests on one reading of
keps, stated here because the oracle cannot check it directly: the Bernoulli
sample is the first draw from the seeded stream (before the node choice), so
it does not depend on -k or the columns; a wrong sample would show as
disagreements in every figure below. The run itself passes `--others drop`,
its case's --sensitive/--insensitive columns (kept raw, in the class key),
`--keep-order --seed S` (two cases without --keep-order, whose rows must then
be shuffled, docs/spec.md 1), so its rows are the sampled rows of classes of at least
k, in input order, generalized.

For each seeded run the oracle recomputes, from that sample, and compares
with the report (float tolerance 1e-12 relative; a probability may differ by
1e-15 times the largest exponent eps' u / (2 du), the rounding of u scaled up):
  - every node's G = (1/q) sum l_i/h_i, S (share of the sample in classes
    smaller than k), u = -(G + f S) (docs/spec.md 6.2), and under --interpolate level
    the mean u of the neighbours for an odd node (docs/spec.md 6 "a node on an odd
    level gets the mean utility of its parents and children", docs/spec.md 10
    for neighbours = one step in one coordinate, and for the good-node test of
    an odd node = the mean of its neighbours' S);
  - mechanism.sensitivity = f k / n (docs/spec.md 6.3), the probabilities
    exp(eps' u / (2 du)) normalized with math.fsum (docs/spec.md 6.4, docs/spec.md 9),
    chosen_probability, chosen_utility = metrics.utility (the interpolated u
    for an odd node, docs/spec.md 10), nodes = prod (h_i + 1),
    nodes_evaluated (the even nodes under level), penalty, interpolate;
  - good_node_probability (report and metrics): the mass of the nodes with
    S < 0.15 and G < 0.6 (docs/spec.md 6 "the probability mass of good nodes");
  - metrics.generalization = G of the chosen node, metrics.suppression =
    suppressed / n, metrics.prec = docs/spec.md 2's Precision over the sample;
  - the guarantee: model (beta,epsilon,delta)-DPS, beta, k, epsilon =
    eps' - ln(1 - beta) or the given --epsilon (docs/spec.md 6), gamma, n_min =
    ceil(k/gamma - 1) (docs/spec.md 9), delta = max_{n' >= n_m} sum_{j > gamma n'}
    Binom(j; n', beta) (recomputed here, tolerance 1e-9: delta has its own
    oracle), log_delta; for f < 1/k the stated eps' is eps' (k + 1/f)/(2k)
    and the request is reported as epsilon_prime_requested (docs/spec.md 10);
  - the release row by row (docs/spec.md 6.5, docs/spec.md 1, `keps safela --help`): the
    header, QI cells generalized to the reported node through the
    hierarchies, the case's other columns as in the input, the rows of
    classes (over the generalized QIs and those columns) smaller than k
    removed, the others in input order (or, shuffled, as a multiset);
  - the accounting (docs/spec.md 1 "every input row is accounted for"): input_rows =
    output_rows + removed_rows + unsampled_rows, released + suppressed =
    sample_size, suppressed_rows = removed_rows = the oracle's count.
Then a chi-square goodness-of-fit of the chosen node over CHI_SEEDS seeds
of one case (every run also checked exactly): expected count of a node = the
sum over runs of that run's own probability (each run has its own sample);
cells with expected < 5 pooled; the counts are sums of non-identical
Bernoullis, whose variance is at most the multinomial's, so the test is
conservative; reject at p < 0.001. The same runs give a z-test aimed at the
mechanism's temperature eps'/(2 du): the sum of the chosen nodes' u against
the sum of each run's E[u] over the sum of Var[u] (reject at p < 0.001,
|z| > 3.29), and a z-test of the total sample size against beta * rows
(docs/spec.md 6.1 Bernoulli sampling; reject at |z| > 4.5).

KEPS (binary) and KEPS_REPO (source tree) come from the environment; exit 0
when keps agrees on every run. KEPS_SAFELA_CHI_SEEDS overrides the number of
chi-square seeds."""
from sizing import cases  # fewer cases under the sanitizers
import itertools, json, math, os, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import KEPS, REPO, read_csv
from safela_oracle import (Lattice, read_hierarchy, score, release_qis, stated_eps_prime, guarantee, delta,
                           chi_square)

ROWS = 3000
HIER = os.path.join(REPO, "data", "adult", "adult_hierarchy_%s.csv")
DEFAULT_EPS_PRIME, DEFAULT_PENALTY = 0.5, 2.0       # `keps safela --help`

A = ["age", "education", "marital-status"]
B = ["sex", "age", "race", "education"]
C = ["workclass", "occupation", "native-country", "age"]
D = ["marital-status", "salary-class", "education"]
# name, QIs, k, beta, eps' (None: default), f (None: default), interpolate (None: default),
# extra options (--sensitive/--insensitive columns are released raw, in the class key), seeds
SAL = ["--sensitive", "salary-class"]
CASES = [
    ("age_defaults_level", ["age"], 40, 0.9, None, None, "level", [], [1, 2]),
    ("age_sex_level_oddtop", ["age", "sex"], 40, 0.9, 0.5, 2, "level", SAL, [3]),
    ("A_none", A, 10, 0.7, 0.5, 2, "none", [], [4, 5]),
    ("A_level", A, 10, 0.7, 0.5, 2, "level", SAL, [6, 7]),
    ("A_level_removed", A, 10, 0.7, 0.5, 2, "level", ["--remove-suppressed"], [8, 9]),
    ("B_none_default_interp", B, 5, 0.7, 0.05, 0.3, None, SAL, [10]),
    ("B_level_1thread", B, 5, 0.6, 0.05, 0.3, "level", ["--threads", "1"], [11]),
    ("C_level", C, 25, 0.5, 1, 1, "level", ["--insensitive", "sex", "--sensitive", "race"], [12]),
    ("C_none_removed", C, 25, 0.5, 1, 1, "none", ["--remove-suppressed"], [13]),
    ("D_f_below_1/k_level", D, 3, 0.2, 0.0002, 0.01, "level", [], [14, 15]),
    ("D_f_below_1/k_epsilon", D, 3, 0.2, 0.001, 0.1, "none", ["--epsilon", "4"], [16]),
    ("race_h1_level_removed", ["race"], 100, 0.3, 2, 1, "level", ["--remove-suppressed"] + SAL, [17]),
    ("k1", ["education", "sex"], 1, 0.6, 0.002, 1, "none", ["--insensitive", "age"], [18]),
    ("k_above_n_all_suppressed", ["occupation", "sex"], 2500, 0.5, 0.5, 2, "none", [], [19]),
    ("peaked_eps50", A + ["sex"], 2, 0.8, 50, 1, "none", [], [20]),
    ("huge_exponent_eps5000", ["education", "workclass"], 4, 0.8, 5000, 1, "level", SAL, [21]),
    ("epsilon_given_level", ["education", "workclass"], 20, 0.4, 0.3, 3, "level", ["--epsilon", "2.5"], [22]),
    ("small_beta", ["age", "marital-status"], 8, 0.05, 0.8, 2, "none", [], [23]),
    # five QIs: nodes with G = 3/5 exactly (l/h in {0, 1/4, 1/2, 1}) are not good (G < 0.6 is strict)
    ("five_qis_G_0.6_boundary", ["sex", "race", "salary-class", "age", "marital-status"], 30, 0.7, 0.3, 2, "none",
     [], [24]),
    # beta 1/2, k 3: gamma = 3/4, delta attained at n' = 4 where gamma n' = 3 (the tie of docs/spec.md 10)
    ("delta_tie_beta0.5_k3", ["sex", "race"], 3, 0.5, 0.02, 1, "level", [], [25]),
    # without --keep-order (--shuffled is the oracle's marker, not a keps flag): the rows are compared as a multiset
    ("B_shuffled", B, 5, 0.7, 0.05, 0.3, "none", ["--shuffled"] + SAL, [26]),
    ("A_shuffled_removed", A, 10, 0.7, 0.5, 2, "level", ["--shuffled", "--remove-suppressed"], [27]),
]
# chi-square case: small eps' so that the node choice is spread over many nodes
CHI_CASE = ("chi_A_eps0.05", A, 10, 0.7, 0.05, 2, "none", [], None)
CHI_SEEDS = int(os.environ.get("KEPS_SAFELA_CHI_SEEDS", "400"))


def prepare(d):
    head, rows = read_csv(os.path.join(REPO, "data", "adult", "adult.csv"))
    rows = rows[:ROWS]
    path = os.path.join(d, "adult%d_id.csv" % ROWS)
    with open(path, "w") as f:
        f.write(";".join(["id"] + head) + "\n")
        for i, r in enumerate(rows, 1):
            f.write(";".join([str(i)] + r) + "\n")
    header = ["id"] + head
    table = {i: dict(zip(header, [str(i)] + r)) for i, r in enumerate(rows, 1)}
    for i, r in enumerate(rows, 1):
        table[i]["id"] = i
        table[i]["_row"] = [str(i)] + r           # the input row as released when nothing changes
    return path, header, table


def extras_of(case):
    """the case's raw released columns: the values of --sensitive/--insensitive"""
    ex = case[7]
    return [ex[i + 1] for i, a in enumerate(ex) if a in ("--sensitive", "--insensitive")]


def keps_json_run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("keps safela exited %d: %s\n  %s" % (p.returncode, p.stderr.strip(), " ".join(args)))
    return json.loads(p.stdout), p.stderr


def run(inp, d, case, seed):
    """The case's run and its companion (same seed, -k 1, every column kept
    with the ids): the report, header and rows of the run, and the sample."""
    name, qis, k, beta, ep, f, interp, extra, _ = case
    out, out1 = os.path.join(d, "rel.csv"), os.path.join(d, "sample.csv")
    qargs = []
    for c in qis:
        qargs += ["--qi", "%s:%s" % (c, HIER % c)]
    args = [KEPS, "safela", "-i", inp, "-o", out, "--others", "drop"]
    if "--shuffled" not in extra:
        args.append("--keep-order")
    args += ["--seed", str(seed), "--quiet", "--report", "-", "-k", str(k), "--beta", repr(beta)] + qargs
    if ep is not None:
        args += ["--epsilon-prime", repr(ep)]
    if f is not None:
        args += ["--penalty", repr(f)]
    if interp is not None:
        args += ["--interpolate", interp]
    args += [a for a in extra if a != "--shuffled"]
    rep, err = keps_json_run(args)
    comp = [KEPS, "safela", "-i", inp, "-o", out1, "--insensitive", "id", "--others", "keep", "--keep-order",
            "--seed", str(seed), "--quiet", "--report", "-", "-k", "1", "--beta", repr(beta)] + qargs
    rep1, _ = keps_json_run(comp)
    head1, rows1 = read_csv(out1)
    sample = [int(r[0]) for r in rows1]
    if rep1.get("sample_size") != len(sample) or rep1.get("suppressed_rows") != 0:
        raise RuntimeError("companion run: sample_size %r, %d rows, %r suppressed" %
                           (rep1.get("sample_size"), len(sample), rep1.get("suppressed_rows")))
    head, rows = read_csv(out)
    return rep, head, rows, sample, " ".join(args), err


class Diff:
    def __init__(self):
        self.problems = []

    def eq(self, what, keps, oracle):
        if keps != oracle:
            self.problems.append("%s keps %r oracle %r" % (what, keps, oracle))

    def close(self, what, keps, oracle, rel=1e-12):
        if not isinstance(keps, (int, float)) or isinstance(keps, bool) or \
                not (keps == oracle or abs(keps - oracle) <= rel * max(abs(keps), abs(oracle))):
            self.problems.append("%s keps %r oracle %r" % (what, keps, oracle))


_delta_cache = {}


def check_run(case, lat, table, header, rep, head, rows, sample, dif):
    """Compare one report and release with the oracle; returns the oracle's
    score (for the chi-square) and the chosen node."""
    name, qis, k, beta, ep, f, interp, extra, _ = case
    ep = DEFAULT_EPS_PRIME if ep is None else ep
    f = DEFAULT_PENALTY if f is None else f
    interp = "none" if interp is None else interp
    n = len(sample)
    sc = score(lat, sample, k, f, ep, interp)
    ptol = max(1e-12, 1e-15 * sc["span"])
    tr = rep.get("transformation", {})
    dif.eq("transformation QIs", sorted(tr), sorted(qis))
    node = tuple(tr.get(c) for c in qis)
    if node not in sc["nodes"]:
        dif.problems.append("node %r not in the lattice" % (node,))
        return sc, None
    nd = sc["nodes"][node]
    m, met = rep.get("mechanism", {}), rep.get("metrics", {})
    # mechanism (docs/spec.md 6.2-6.4)
    dif.close("mechanism.penalty", m.get("penalty"), f)
    dif.eq("mechanism.interpolate", m.get("interpolate"), interp)
    dif.eq("mechanism.nodes", m.get("nodes"), len(lat.nodes))
    dif.eq("mechanism.nodes_evaluated", m.get("nodes_evaluated"), sc["evaluated"])
    dif.close("mechanism.sensitivity", m.get("sensitivity"), sc["sensitivity"])
    dif.close("mechanism.chosen_utility", m.get("chosen_utility"), nd["u"])
    dif.close("metrics.utility", met.get("utility"), nd["u"])
    dif.close("mechanism.chosen_probability", m.get("chosen_probability"), nd["p"], ptol)
    dif.close("good_node_probability", rep.get("good_node_probability"), sc["good"], ptol)
    dif.close("metrics.good_node_probability", met.get("good_node_probability"), sc["good"], ptol)
    if nd["p"] == 0:
        dif.problems.append("chose node %r of probability 0" % (node,))
    # the release (docs/spec.md 6.5, docs/spec.md 1): QIs generalized, extras raw, classes < k removed
    sizes = lat.class_sizes(sc["counts"], node)
    supp = [rid for rid in sample if sizes[lat.cls[node][lat.combo_of[rid]]] < k]
    S = len(supp)
    cols = [c for c in header if c in qis or c in lat.extras]
    dif.eq("header", head, cols)
    want = []
    for rid in sample:                      # input order
        qv = release_qis(lat, sizes, node, k, table[rid])
        if qv is None:
            continue
        gen = dict(zip(qis, qv))
        want.append([gen[c] if c in gen else table[rid][c] for c in cols])
    got = rows
    if "--shuffled" in extra:
        # docs/spec.md 1: output rows are shuffled (hundreds of distinct rows: in input order by chance ~never)
        if len(want) > 50 and len({tuple(r) for r in want}) > 5 and got == want:
            dif.problems.append("rows in input order without --keep-order")
        got, want = sorted(got), sorted(want)
    if got != want:
        bad = sum(a != b for a, b in zip(got, want)) + abs(len(got) - len(want))
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        dif.problems.append("release: %d rows, oracle %d; %d differ, first at row %d: keps %r oracle %r"
                            % (len(got), len(want), bad, first + 1, got[first] if first < len(got) else None,
                               want[first] if first < len(want) else None))
    # accounting (docs/spec.md 1)
    dif.eq("input_rows", rep.get("input_rows"), ROWS)
    dif.eq("sample_size", rep.get("sample_size"), n)
    dif.eq("unsampled_rows", rep.get("unsampled_rows"), ROWS - n)
    dif.eq("suppressed_rows", rep.get("suppressed_rows"), S)
    dif.eq("released_rows", rep.get("released_rows"), n - S)
    dif.eq("removed_rows", rep.get("removed_rows"), S)
    dif.eq("output_rows", rep.get("output_rows"), len(rows))
    dif.eq("output_rows (oracle)", rep.get("output_rows"), n - S)
    if None not in (rep.get("output_rows"), rep.get("removed_rows"), rep.get("unsampled_rows")):
        dif.eq("input = output + removed + unsampled", rep["output_rows"] + rep["removed_rows"] +
               rep["unsampled_rows"], rep.get("input_rows"))
    # metrics of the chosen node
    dif.close("metrics.generalization", met.get("generalization"), nd["G"])
    dif.close("metrics.suppression", met.get("suppression"), S / n)
    prec = math.fsum(((n - S) * l / h + S) / n for l, h in zip(node, lat.h)) / len(qis)
    dif.close("metrics.prec", met.get("prec"), prec)
    # the guarantee (docs/spec.md 6, docs/spec.md 9, docs/spec.md 10)
    g = rep.get("guarantee", {})
    eps_given = float(extra[extra.index("--epsilon") + 1]) if "--epsilon" in extra else None
    eps1 = stated_eps_prime(ep, f, k)
    dif.eq("guarantee.model", g.get("model"), "(beta,epsilon,delta)-DPS")
    dif.eq("guarantee.not_covered", g.get("not_covered"), [])
    dif.eq("guarantee.data_dependent", g.get("data_dependent"), [])
    dif.close("guarantee.beta", g.get("beta"), beta)
    dif.eq("guarantee.k", g.get("k"), k)
    dif.close("guarantee.epsilon_prime", g.get("epsilon_prime"), eps1)
    if f < 1 / k:
        dif.close("guarantee.epsilon_prime_requested", g.get("epsilon_prime_requested"), ep)
    eps, gamma, nms = guarantee(k, beta, eps1, eps_given)
    dif.close("guarantee.epsilon", g.get("epsilon"), eps)
    dif.close("guarantee.gamma", g.get("gamma"), gamma)
    if g.get("n_min") not in nms:
        dif.problems.append("guarantee.n_min keps %r oracle %r" % (g.get("n_min"), nms))
    nm = g.get("n_min") if g.get("n_min") in nms else nms[0]
    key = (k, beta, eps1, eps, nm)
    if key not in _delta_cache:
        _delta_cache[key] = delta(gamma, beta, nm)
    dl = _delta_cache[key]
    dif.close("guarantee.delta", g.get("delta"), dl, 1e-9)
    if g.get("log_delta") is None or abs(g["log_delta"] - math.log(dl)) > 1e-9:
        dif.problems.append("guarantee.log_delta keps %r oracle %r" % (g.get("log_delta"), math.log(dl)))
    return sc, node


def seeded(inp, d, case, seed, lat, table, header):
    """One seed of a case (the run and its companion). Returns (problems,
    oracle score, chosen node, sample size, command line)."""
    dif = Diff()
    try:
        rep, head, rows, sample, cmd, err = run(inp, d, case, seed)
    except (RuntimeError, ValueError) as e:          # keps failed or printed no JSON: one discrepancy
        return [str(e)], {"nodes": {}, "good": float("nan")}, None, 0, ""
    if "--seed" not in err:                           # docs/spec.md 8: said on stderr, even with --quiet
        dif.problems.append("no --seed warning on stderr")
    sc, node = check_run(case, lat, table, header, rep, head, rows, sample, dif)
    return dif.problems, sc, node, len(sample), cmd


def main():
    t0 = time.time()
    bad = runs = 0
    hier = {}
    with tempfile.TemporaryDirectory() as d:
        inp, header, table = prepare(d)
        lattices = {}

        def lattice(case):
            qis, ex = case[1], extras_of(case)
            for c in qis:
                if c not in hier:
                    hier[c] = read_hierarchy(HIER % c)
            if (tuple(qis), tuple(ex)) not in lattices:
                lattices[tuple(qis), tuple(ex)] = Lattice(qis, hier, table, ex)
            return lattices[tuple(qis), tuple(ex)]

        for case in cases(CASES):
            lat = lattice(case)
            for seed in case[8]:
                probs, sc, node, n, cmd = seeded(inp, d, case, seed, lat, table, header)
                runs += 1
                nd = sc["nodes"].get(node, {})
                print("%-5s %-26s seed %-3d n=%-5d nodes=%-4d node=%s p=%.6g good=%.6g%s"
                      % ("OK" if not probs else "DIFF", case[0], seed, n, len(lat.nodes), node, nd.get("p", -1),
                         sc["good"], "".join("\n   " + p for p in probs[:6]) + ("\n   " + cmd if probs else "")))
                bad += bool(probs)
        # chi-square of the chosen node over many seeds of one case
        case = CHI_CASE
        lat = lattice(case)
        obs, exp, nbad, total_n = {}, {}, 0, 0
        u_sum, u_mean, u_var = [], [], []
        for seed in range(1, CHI_SEEDS + 1):
            probs, sc, node, n, cmd = seeded(inp, d, case, 1000 + seed, lat, table, header)
            runs += 1
            total_n += n
            if probs:
                nbad += 1
                print("DIFF  %-26s seed %d%s\n   %s" % (case[0], 1000 + seed, "".join("\n   " + p for p in probs[:6]),
                                                       cmd))
            obs[node] = obs.get(node, 0) + 1
            for nn, dd in sc["nodes"].items():
                exp[nn] = exp.get(nn, 0.0) + dd["p"]
            if node in sc["nodes"]:
                e = math.fsum(dd["p"] * dd["u"] for dd in sc["nodes"].values())
                u_sum.append(sc["nodes"][node]["u"])
                u_mean.append(e)
                u_var.append(math.fsum(dd["p"] * (dd["u"] - e) ** 2 for dd in sc["nodes"].values()))
        bad += nbad
        chi2, dof, p, cells = chi_square(obs, exp)
        ok = p >= 1e-3
        print("%-5s %-26s seeds 1001-%d: %d runs %s, chi-square %.2f on %d dof (%d cells), p = %.4g"
              % ("OK" if ok else "DIFF", case[0], 1000 + CHI_SEEDS, CHI_SEEDS,
                 "all exact" if not nbad else "%d differ" % nbad, chi2, dof, cells, p))
        bad += not ok
        # the same runs, a test aimed at the mechanism's temperature (eps'/(2 du) off by a factor shifts the
        # chosen nodes' utility): z = (sum of the chosen u - sum of E[u]) / sqrt(sum of Var[u]), normal by the
        # CLT over independent runs; reject at p < 0.001 two-sided (|z| > 3.29)
        var = math.fsum(u_var)
        z = (math.fsum(u_sum) - math.fsum(u_mean)) / math.sqrt(var) if var > 0 else float("inf")
        print("%-5s %-26s mean chosen utility %.6f, expected %.6f: z = %.2f"
              % ("OK" if abs(z) <= 3.29 else "DIFF", case[0], math.fsum(u_sum) / max(len(u_sum), 1),
                 math.fsum(u_mean) / max(len(u_mean), 1), z))
        bad += abs(z) > 3.29
        # docs/spec.md 6.1 Bernoulli sampling: total sample size ~ Binomial(runs * ROWS, beta)
        beta, N = case[3], CHI_SEEDS * ROWS
        z = (total_n - beta * N) / math.sqrt(N * beta * (1 - beta))
        print("%-5s %-26s sampled %d of %d rows (beta %.2f): z = %.2f"
              % ("OK" if abs(z) <= 4.5 else "DIFF", "sample size", total_n, N, beta, z))
        bad += abs(z) > 4.5
    print("discrepancies %d of %d runs (+ chi-square, utility z, sample size) in %.1f s" % (bad, runs, time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
