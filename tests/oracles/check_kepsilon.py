"""keps kepsilon against kepsilon_oracle.py (docs/spec.md 4, everything recomputed
from the input, the hierarchies and the released noisy values): 56 cases of
the conformance audit on Adult + height and two small tables
(kepsilon/t1.csv, t2.csv: ties, '*', one-value classes) over the three
partitions (ola, mondrian, given), the three scales, several noisy columns,
c-confident suppression and --remove-suppressed. Each case runs keps twice
with the same seed, with and without --confidence (the oracle recomputes
every row's l_i from the release without it), and the oracle on both
reports. KEPS and KEPS_REPO come from the environment; KEPS_ORACLE_FULL=1
adds the six slow Adult cases."""
from sizing import cases  # fewer cases under the sanitizers
import json, os, subprocess, sys, tempfile, time

KEPS, REPO = os.path.abspath(os.environ["KEPS"]), os.path.abspath(os.environ["KEPS_REPO"])
HERE = os.path.dirname(os.path.abspath(__file__))

# Adult cases whose oracle takes 10-130 s in Python (linking over 30k rows):
# run only with KEPS_ORACLE_FULL=1 (the small tables cover the same paths).
SLOW = {"adult_ola_2noisy", "adult_given_2noisy", "adult_mond_2noisy", "adult_ola_k10", "adult_ola_global",
        "adult_ola_domain"}

# (name, seed, options as the audit ran them)
CASES = [
    ('adult_given_2noisy', 31, {"algorithm": "given", "input": "data/adult/adult_height.csv", "qi": ["sex", "race", "marital-status", "education"], "noisy": ["height", "age"], "k": "5", "epsilon": "4", "confidence": "0.99", "suppress": "0.05", "others": "keep"}),
    ('adult_given_k2', 35, {"algorithm": "given", "input": "data/adult/adult_height.csv", "qi": ["age", "sex", "race", "marital-status"], "noisy": ["height"], "k": "2", "epsilon": "0.5", "confidence": "0.7", "suppress": "0.05", "others": "keep"}),
    ('adult_mond_2noisy', 32, {"algorithm": "mondrian", "input": "data/adult/adult_height.csv", "qi": ["education:data/adult/adult_hierarchy_education.csv", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height", "age"], "k": "20", "epsilon": "2", "confidence": "0.9", "others": "keep"}),
    ('adult_mond_domain_removed', 34, {"algorithm": "mondrian", "input": "data/adult/adult_height.csv", "qi": ["age", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "5", "epsilon": "16", "scale": "domain", "bounds": ["height=120:230"], "confidence": "0.99", "remove-suppressed": "true", "others": "keep"}),
    ('adult_mond_global', 33, {"algorithm": "mondrian", "input": "data/adult/adult_height.csv", "qi": ["age", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "5", "epsilon": "1", "scale": "global", "confidence": "0.99", "others": "keep"}),
    ('adult_mondrian_k10', 11, {"algorithm": "mondrian", "input": "data/adult/adult_height.csv", "qi": ["age", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "10", "epsilon": "2", "confidence": "0.9", "others": "keep"}),
    ('adult_ola_2noisy', 12, {"algorithm": "ola", "input": "data/adult/adult_height.csv", "qi": ["sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height", "age"], "k": "5", "epsilon": "4", "confidence": "0.99", "suppress": "0.05", "others": "keep"}),
    ('adult_ola_domain', 14, {"algorithm": "ola", "input": "data/adult/adult_height.csv", "qi": ["age:data/adult/adult_hierarchy_age.csv", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "20", "epsilon": "8", "scale": "domain", "bounds": ["height=100:250"], "confidence": "0.99", "suppress": "0.05", "others": "keep"}),
    ('adult_ola_global', 13, {"algorithm": "ola", "input": "data/adult/adult_height.csv", "qi": ["age:data/adult/adult_hierarchy_age.csv", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "20", "epsilon": "1", "scale": "global", "confidence": "0.99", "suppress": "0.05", "others": "keep"}),
    ('adult_ola_k10', 7, {"algorithm": "ola", "input": "data/adult/adult_height.csv", "qi": ["age:data/adult/adult_hierarchy_age.csv", "sex:data/adult/adult_hierarchy_sex.csv", "race:data/adult/adult_hierarchy_race.csv", "marital-status:data/adult/adult_hierarchy_marital-status.csv"], "noisy": ["height"], "k": "10", "epsilon": "1", "confidence": "0.99", "suppress": "0.05", "others": "keep"}),
    ('m_t1_domain', 6, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "scale": "domain", "bounds": ["w=-10:1010", "y=-1100:200"], "confidence": "0.5", "suppress": "0.1", "others": "keep"}),
    ('m_t1_given_wy', 2, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "confidence": "0.7", "suppress": "0.1", "others": "keep"}),
    ('m_t1_mond_wy', 4, {"algorithm": "mondrian", "input": "t1.csv", "qi": ["g:h_g.csv", "z:h_z.csv"], "noisy": ["w", "y"], "k": "2", "epsilon": "0.5", "confidence": "0.9", "others": "keep"}),
    ('m_t1_ola_top', 21, {"algorithm": "ola", "input": "t1.csv", "qi": ["g:h_g.csv", "z:h_z.csv"], "noisy": ["w", "y"], "k": "7", "epsilon": "0.5", "confidence": "0.9", "suppress": "0.1", "others": "keep"}),
    ('m_t1_removed', 22, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "confidence": "0.7", "suppress": "0.1", "remove-suppressed": "true", "others": "keep"}),
    ('m_t2_given_domain', 11354, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('m_t2_given_ec', 26374, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('m_t2_given_ec_1', 20315, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('m_t2_given_global', 10696, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('m_t2_given_global_1', 8214, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('m_t2_mondrian_domain', 30962, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "others": "keep"}),
    ('m_t2_mondrian_ec', 24558, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "others": "keep"}),
    ('m_t2_mondrian_ec_1', 9341, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "others": "keep"}),
    ('m_t2_mondrian_global', 4455, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "others": "keep"}),
    ('m_t2_mondrian_global_1', 19718, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "others": "keep"}),
    ('m_t2_ola_domain', 11007, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('m_t2_ola_ec', 14557, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('m_t2_ola_ec_1', 30619, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('m_t2_ola_global', 13975, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('m_t2_ola_global_1', 19995, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('n_t2_given_global_1', 23778, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('n_t2_mondrian_global_1', 558, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "others": "keep"}),
    ('n_t2_ola_global_1', 4632, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('t1_given_domain', 6, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "scale": "domain", "bounds": ["w=-10:1010", "y=-1100:200"], "confidence": "0.5", "suppress": "0.1", "others": "keep"}),
    ('t1_given_global', 5, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "scale": "global", "confidence": "0.5", "suppress": "0.1", "others": "keep"}),
    ('t1_given_removed', 22, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "confidence": "0.7", "suppress": "0.1", "remove-suppressed": "true", "others": "keep"}),
    ('t1_given_w', 1, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w"], "k": "3", "epsilon": "1", "confidence": "0.7", "suppress": "0.1", "others": "keep"}),
    ('t1_given_wy', 2, {"algorithm": "given", "input": "t1.csv", "qi": ["g"], "noisy": ["w", "y"], "k": "3", "epsilon": "1", "confidence": "0.7", "suppress": "0.1", "others": "keep"}),
    ('t1_mond_wy', 4, {"algorithm": "mondrian", "input": "t1.csv", "qi": ["g:h_g.csv", "z:h_z.csv"], "noisy": ["w", "y"], "k": "2", "epsilon": "0.5", "confidence": "0.9", "others": "keep"}),
    ('t1_ola_top', 21, {"algorithm": "ola", "input": "t1.csv", "qi": ["g:h_g.csv", "z:h_z.csv"], "noisy": ["w", "y"], "k": "7", "epsilon": "0.5", "confidence": "0.9", "suppress": "0.1", "others": "keep"}),
    ('t1_ola_wy', 3, {"algorithm": "ola", "input": "t1.csv", "qi": ["g:h_g.csv", "z:h_z.csv"], "noisy": ["w", "y"], "k": "2", "epsilon": "0.5", "confidence": "0.9", "suppress": "0.1", "others": "keep"}),
    ('t2_given_domain_ywyy', 3959, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('t2_given_ec_yw', 12566, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('t2_given_ec_ywyy', 11408, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('t2_given_global_yw', 32706, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('t2_given_global_ywyy', 11615, {"algorithm": "given", "input": "t2.csv", "qi": ["g", "z"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.2", "others": "keep"}),
    ('t2_mondrian_domain_ywyy', 13410, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "others": "keep"}),
    ('t2_mondrian_ec_yw', 24254, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "others": "keep"}),
    ('t2_mondrian_ec_ywyy', 32476, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "others": "keep"}),
    ('t2_mondrian_global_yw', 26210, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "others": "keep"}),
    ('t2_mondrian_global_ywyy', 23810, {"algorithm": "mondrian", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "others": "keep"}),
    ('t2_ola_domain_ywyy', 28251, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "domain", "bounds": ["w=-60:130", "y=-1:250"], "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('t2_ola_ec_yw', 3692, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('t2_ola_ec_ywyy', 24993, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "ec", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('t2_ola_global_yw', 2365, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
    ('t2_ola_global_ywyy', 23523, {"algorithm": "ola", "input": "t2.csv", "qi": ["g:h_g8.csv", "z:h_z3.csv", "a:interval=5,10,20"], "noisy": ["w", "y"], "k": "4", "epsilon": "3", "scale": "global", "confidence": "0.8", "suppress": "0.05", "others": "keep"}),
]


def args_of(params):
    a = []
    for key, v in params.items():
        for x in v if isinstance(v, list) else [v]:
            if x is True or x == "true":
                a.append("--" + key)
            else:
                a += ["--" + key, str(x)]
    return a


def run(cwd, params, seed, d, tag):
    out, rep = os.path.join(d, tag + ".csv"), os.path.join(d, tag + ".json")
    p = subprocess.run([KEPS, "kepsilon"] + args_of(params) + ["-o", out, "--report", rep, "--seed", str(seed),
                                                               "--keep-order", "--quiet"],
                       cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("keps kepsilon exited %d: %s" % (p.returncode, p.stderr.strip()))
    return rep


def main():
    bad = 0
    full = os.environ.get("KEPS_ORACLE_FULL") == "1"
    for name, seed, params in cases(CASES):
        if name in SLOW and not full:
            continue
        t0 = time.time()
        cwd = REPO if params["input"].startswith("data/") else os.path.join(HERE, "kepsilon")
        ref = {k: v for k, v in params.items() if k not in ("confidence", "remove-suppressed")}
        with tempfile.TemporaryDirectory() as d:
            noconf = run(cwd, ref, seed, d, "full")
            out = run(cwd, params, seed, d, "out")
            p = subprocess.run([sys.executable, os.path.join(HERE, "kepsilon_oracle.py"), out, "--noconf", noconf],
                               cwd=cwd, capture_output=True, text=True)
        fails = [l for l in p.stdout.splitlines() if l.startswith("FAIL ")]
        print("%-5s %-28s %4.1f s %d checks%s" % ("OK" if p.returncode == 0 else "DIFF", name, time.time() - t0,
                                          sum(l.startswith(("OK ", "FAIL ")) for l in p.stdout.splitlines()),
                                          "".join("\n   " + l for l in fails[:3]) + (p.stderr.strip()[-300:])))
        bad += p.returncode != 0
    print("discrepancies", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
