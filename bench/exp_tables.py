#!/usr/bin/env python3
"""Markdown tables for docs/experiments.md from the experiment CSVs.
Usage: bench/exp_tables.py dpmicro bench/out/dpmicro_casc.csv
       bench/exp_tables.py kepsilon bench/out/kepsilon_ola.csv bench/out/kepsilon_mondrian.csv"""
import csv
import sys


def dpmicro(path):
    rows = list(csv.DictReader(open(path)))
    ks = [1, 2, 5, 10, 25, 50, 100]
    def get(m, k, e):
        for r in rows:
            if r["method"] == m and int(r["k"]) == k and (e is None or float(r["epsilon"]) == e):
                return r
        return None
    for metric, title, fmt in (("sse_mean", "SSE (raw units, mean)", "{:.2e}"),
                               ("rl_mean", "RL (%, mean; the paper's formula: nearest originals of each released record)", "{:.2f}"),
                               ("rl_original_mean", "RL (%, mean; docs/spec.md section 5 direction: nearest released records of each original)", "{:.2f}")):
        print(f"\n{title}\n")
        print("| method | epsilon | " + " | ".join(f"k={k}" for k in ks) + " |")
        print("|---|---|" + "---|" * len(ks))
        for m in ("multivariate", "univariate", "paper"):
            for e in (0.01, 0.1, 1.0, 10.0):
                cells = [fmt.format(float(get(m, k, e)[metric])) for k in ks]
                print(f"| {m} | {e:g} | " + " | ".join(cells) + " |")
        for m in ("mdav", "imdav"):
            cells = [fmt.format(float(get(m, k, None)[metric])) if get(m, k, None) else "–" for k in ks]
            print(f"| {m} (no noise) | – | " + " | ".join(cells) + " |")


def kepsilon(paths):
    rows = []
    for p in paths:
        rows += list(csv.DictReader(open(p)))
    algos = sorted({r["algorithm"] for r in rows})
    ks = sorted({int(r["k"]) for r in rows})
    epss = sorted({float(r["epsilon"]) for r in rows})
    def get(a, k, e):
        for r in rows:
            if r["algorithm"] == a and int(r["k"]) == k and float(r["epsilon"]) == e:
                return r
    for metric, title, fmt in (("measured_are", "Measured average relative error (mean)", "{:.4f}"),
                               ("expected_are", "Expected average relative error (eq. 8)", "{:.4f}"),
                               ("linking_risk_pct", "Linking risk (% of records, mean)", "{:.2f}"),
                               ("confident_suppressed_pct", "99%-confident suppression (% of records, mean)", "{:.2f}")):
        print(f"\n{title}\n")
        print("| algorithm | epsilon | " + " | ".join(f"k={k}" for k in ks) + " |")
        print("|---|---|" + "---|" * len(ks))
        for a in algos:
            for e in epss:
                cells = [fmt.format(float(get(a, k, e)[metric])) if get(a, k, e) else "–" for k in ks]
                print(f"| {a} | {e:g} | " + " | ".join(cells) + " |")
    print("\nk-anonymization: classes and suppression (% of records)\n")
    print("| algorithm | " + " | ".join(f"k={k}" for k in ks) + " |")
    print("|---|" + "---|" * len(ks))
    for a in algos:
        cells = [f"{get(a, k, epss[0])['classes']} / {float(get(a, k, epss[0])['kanon_suppressed_pct']):.2f}%"
                 if get(a, k, epss[0]) else "–" for k in ks]
        print(f"| {a} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if sys.argv[1] == "dpmicro":
        dpmicro(sys.argv[2])
    else:
        kepsilon(sys.argv[2:])
