#!/usr/bin/env python3
"""OLA's search time against the number of QIs (the lattice grows as 3^q).

A synthetic table of ROWS rows and 24 integer columns 0-39 (Python's seeded
generator: the data are public test input, not a release), the first q
columns as QIs with ARX-style interval hierarchies of width 20 (three
levels each: value, [0-19]/[20-39], *), k = 2, suppression 5%. Runs
`keps anonymize --algorithm ola` once per q and prints one JSON object per
line: q, nodes, nodes evaluated, k-minimal nodes, the report's search and
total milliseconds, the process's peak RSS (MB).

Usage: bench/ola_qis.py BUILD_DIR [Q ...]   (default q = 8 10 12 13 14 15 16)
"""
import json
import os
import random
import subprocess
import sys
import tempfile

ROWS, COLS, SEED = 500, 24, 2


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    qs = [int(a) for a in sys.argv[2:]] or [8, 10, 12, 13, 14, 15, 16]
    keps = os.path.join(build, "keps")
    gen = random.Random(SEED)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "qis.csv")
        with open(data, "w") as f:
            f.write(",".join("c%d" % i for i in range(COLS)) + "\n")
            for _ in range(ROWS):
                f.write(",".join(str(gen.randrange(0, 40)) for _ in range(COLS)) + "\n")
        for q in qs:
            cmd = [keps, "anonymize", "--algorithm", "ola", "-i", data, "-o", os.path.join(tmp, "out.csv"),
                   "-k", "2", "--suppress", "0.05", "--others", "drop", "--quiet", "--json"]
            for i in range(q):
                cmd += ["--qi", "c%d:interval=20" % i]
            with tempfile.TemporaryFile("w+") as rep:
                child = subprocess.Popen(cmd, stdout=rep, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS
                child.returncode = os.waitstatus_to_exitcode(status)
                if child.returncode:
                    sys.exit("keps failed (exit %d) at q = %d" % (child.returncode, q))
                rep.seek(0)
                out = rep.read()
            r = json.loads(out)
            print(json.dumps({"bench": "ola_qis", "rows": ROWS, "qis": q, "k": 2, "suppress": 0.05,
                              "nodes_total": r["nodes_total"], "nodes_evaluated": r["nodes_evaluated"],
                              "k_minimal": r["k_minimal_nodes"], "search_ms": round(r["timing_ms"]["search"], 1),
                              "total_ms": round(r["timing_ms"]["total"], 1),
                              "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}), flush=True)


if __name__ == "__main__":
    main()
