#!/usr/bin/env python3
"""Whole `keps anonymize --algorithm ola` processes on Adult, the 20
k-anonymity configurations of issue 26 (k 2, 5, 10, 50, 100; suppression 0
and 5%; metric loss and prec; all nine QIs), optionally with a criterion on
a sensitive column added (the same runs with 8 QIs, occupation sensitive).

Each configuration runs ROUNDS times, the binaries interleaved (one run of
each per round); a run writes its release to a temporary file, no report,
--quiet (a report adds the lattice view's k-minimal nodes, see
docs/benchmarks.md). Prints one JSON object per line: binary, k, suppress,
metric, criterion, median wall ms and median CPU ms (user + system of the
child) over the rounds.

Usage: bench/adult_kanon_cli.py [--rounds N] [--criteria] KEPS [KEPS ...]
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

QIS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation",
       "salary-class"]
CRITERIA = [[], ["--l-diversity", "2"], ["--t-closeness", "0.2"], ["--entropy-l", "3"],
            ["--recursive-l", "4,3"]]


def run(keps, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run([keps] + args, check=True, stdout=subprocess.DEVNULL)
    wall = (time.monotonic() - t0) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3
    return wall, cpu


def main():
    argv = sys.argv[1:]
    rounds, with_criteria = 5, False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--rounds":
            rounds = int(argv[1])
            argv = argv[2:]
        elif argv[0] == "--criteria":
            with_criteria = True
            argv = argv[1:]
        else:
            sys.exit(__doc__)
    if not argv:
        sys.exit(__doc__)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    adult = os.path.join(src, "data", "adult")
    crits = CRITERIA if with_criteria else [[]]
    with tempfile.TemporaryDirectory() as tmp:
        for crit in crits:
            qis = [q for q in QIS if not (with_criteria and q == "occupation")]
            base = ["anonymize", "--algorithm", "ola", "-i", os.path.join(adult, "adult.csv"),
                    "-o", os.path.join(tmp, "o.csv"), "--others", "keep", "--quiet"]
            for q in qis:
                base += ["--qi", "%s:%s" % (q, os.path.join(adult, "adult_hierarchy_%s.csv" % q))]
            if with_criteria:
                base += ["--sensitive", "occupation"] + crit
            for metric in ("loss", "prec"):
                for s in (0, 0.05):
                    for k in (2, 5, 10, 50, 100):
                        args = base + ["-k", str(k), "--suppress", str(s), "--metric", metric]
                        times = {b: [] for b in argv}
                        for _ in range(rounds):
                            for b in argv:
                                times[b].append(run(b, args))
                        for b in argv:
                            print(json.dumps({
                                "bench": "adult_kanon_cli", "binary": b, "k": k, "suppress": s, "metric": metric,
                                "criterion": " ".join(crit) or None, "qis": len(qis),
                                "wall_ms": round(statistics.median(w for w, _ in times[b]), 1),
                                "cpu_ms": round(statistics.median(c for _, c in times[b]), 1)}), flush=True)


if __name__ == "__main__":
    main()
