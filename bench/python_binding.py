#!/usr/bin/env python3
"""What the Python package (bindings/python) costs over the C library.

Prints one JSON object per line:

  conversion: a 30,162-row Adult DataFrame (pandas' own read of
    data/adult/adult.csv, object columns; and the same frame as
    categoricals) converted into a keps table and the anonymized release
    (OLA, k = 5, 5% suppression, the main job's eight QIs) converted back
    into a DataFrame, median of --repeats runs each; against the C run time
    of that OLA job, the median over --repeats runs of the keps CLI's own
    timing_ms (search: the OLA search alone; total: reading the CSV,
    hierarchies, lattice, search, generalizing and writing the release).
  end to end: keps.anonymize(df) of that job over the command layer, the
    binding's parts (arguments and DataFrame in, report and release out)
    against keps_run itself (medians of --repeats; skipped without the
    command layer).
  noise: keps.noise.laplace on a vector of --noise-n values (median of
    --repeats calls) against a per-value loop that draws each value the way
    diffprivlib's Laplace.randomise does (diffprivlib 0.6, read from its
    source): one Python call per value that checks epsilon, delta,
    sensitivity and the value's type, computes the scale
    sensitivity / (epsilon - log(1 - delta)) and draws four uniforms from
    secrets.SystemRandom for log(1 - u1) cos(pi u2) + log(1 - u3) cos(pi u4)
    (Holohan and Braghin 2021). diffprivlib itself is not in Debian and pip
    cannot fetch it here (no network), so this re-implementation of its call
    path stands in for it (--baseline-n values, one run).

Usage: bench/python_binding.py [--binary build/keps] [--repeats 15]
       [--noise-n 1000000] [--baseline-n 1000000]
Needs the package importable (pip install ./bindings/python, or
PYTHONPATH=bindings/python after `setup.py build_ext --inplace`).
"""
import argparse
import json
import math
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from numbers import Real
from pathlib import Path

import numpy as np
import pandas as pd

import keps
from keps import _frame

TREE = Path(__file__).resolve().parent.parent
ADULT = TREE / "data" / "adult"
QIS = ["sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"]


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def ola_args(out):
    args = ["anonymize", "--algorithm", "ola", "-i", ADULT / "adult.csv", "-o", out, "-k", "5", "--suppress", "0.05",
            "--metric", "loss", "--sensitive", "salary-class", "--json", "--quiet"]
    for q in QIS:
        args += ["--qi", f"{q}:{ADULT / f'adult_hierarchy_{q}.csv'}"]
    return [str(a) for a in args]


def c_times(binary, out, repeats):
    search, total = [], []
    for _ in range(repeats):
        p = subprocess.run([binary, *ola_args(out)], capture_output=True, text=True, check=True)
        t = json.loads(p.stdout)["timing_ms"]
        search.append(t["search"])
        total.append(t["total"])
    return statistics.median(search), statistics.median(total)


def conversion(binary, repeats):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "release.csv")
        search_ms, total_ms = c_times(binary, out, repeats)
        release = _frame.read_table(out)  # the release as the library hands it over
    df = pd.read_csv(ADULT / "adult.csv", sep=";")
    for kind, frame in (("object", df), ("category", df.astype("category"))):
        in_ms = median_ms(lambda: _frame.to_table(frame), repeats)
        out_ms = median_ms(lambda: _frame.from_table(release, like=frame), repeats)
        conv = in_ms + out_ms
        print(json.dumps({"bench": "python_conversion", "rows": len(frame), "columns": frame.shape[1],
                          "dtype": kind, "in_ms": round(in_ms, 2), "out_ms": round(out_ms, 2),
                          "c_search_ms": round(search_ms, 1), "c_total_ms": round(total_ms, 1),
                          "overhead_vs_search": round(conv / search_ms, 4),
                          "overhead_vs_total": round(conv / total_ms, 4), "repeats": repeats}), flush=True)


def end_to_end(repeats):
    """keps.anonymize(df) of the OLA job over the command layer, in its
    parts: the binding's (arguments and the DataFrame in; the report parsed
    and the release out as a DataFrame in the drawn row order) against
    keps_run itself (everything the library does, report sections included;
    the report's timing_ms.total stops before those)."""
    if not keps._core.HAS_COMMANDS:
        print(json.dumps({"bench": "python_end_to_end", "skipped": "the library has no command layer"}), flush=True)
        return
    from keps import _commands

    df = pd.read_csv(ADULT / "adult.csv", sep=";")
    kw = dict(algorithm="ola", qi={q: str(ADULT / f"adult_hierarchy_{q}.csv") for q in QIS}, k=5, suppress=0.05,
              metric="loss", sensitive="salary-class")
    ins, runs, outs = [], [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        a = _commands._build_args("anonymize", df, kw)
        t1 = time.perf_counter()
        res, _ = keps._core.run("anonymize", a.params, a.tables, a.hierarchies, None, False, "")
        t2 = time.perf_counter()
        json.loads(res["report"])
        _commands._frame_of(res["release"], res["order"], df)
        t3 = time.perf_counter()
        ins.append((t1 - t0) * 1e3)
        runs.append((t2 - t1) * 1e3)
        outs.append((t3 - t2) * 1e3)
    i, r, o = statistics.median(ins), statistics.median(runs), statistics.median(outs)
    print(json.dumps({"bench": "python_end_to_end", "rows": len(df), "in_ms": round(i, 2), "keps_run_ms": round(r, 1),
                      "out_ms": round(o, 2), "overhead": round((i + o) / r, 4), "repeats": repeats}), flush=True)


class PerValueLaplace:
    """diffprivlib's Laplace call path, re-implemented: one call per value."""

    def __init__(self, epsilon, delta, sensitivity):
        self.epsilon, self.delta, self.sensitivity = epsilon, delta, sensitivity
        # the baseline's own generator, as diffprivlib's (keps's randomness is src/rng.c's)
        self._uniform = secrets.SystemRandom().random

    def _check(self, value):
        if not isinstance(self.epsilon, Real) or not isinstance(self.delta, Real):
            raise TypeError("epsilon and delta must be numbers")
        if self.epsilon < 0 or not 0 <= self.delta <= 1 or self.epsilon + self.delta == 0:
            raise ValueError("bad epsilon or delta")
        if not isinstance(self.sensitivity, Real) or self.sensitivity < 0:
            raise ValueError("bad sensitivity")
        if not isinstance(value, Real):
            raise TypeError("the value must be a number")

    def randomise(self, value):
        self._check(value)
        scale = self.sensitivity / (self.epsilon - np.log(1 - self.delta))
        u1, u2, u3, u4 = self._uniform(), self._uniform(), self._uniform(), self._uniform()
        return value - scale * (np.log(1 - u1) * np.cos(np.pi * u2) + np.log(1 - u3) * np.cos(np.pi * u4))


def noise(n, baseline_n, repeats):
    x = np.full(n, 100.0)
    keps_ms = median_ms(lambda: keps.noise.laplace(x, epsilon=1.0, sensitivity=1.0), repeats)
    mech = PerValueLaplace(1.0, 0.0, 1.0)
    values = [100.0] * baseline_n
    t = time.perf_counter()
    y = [mech.randomise(v) for v in values]
    base_ms = (time.perf_counter() - t) * 1e3
    assert len(y) == baseline_n and all(math.isfinite(v) for v in y[:1000])
    keps_ns = keps_ms * 1e6 / n
    base_ns = base_ms * 1e6 / baseline_n
    print(json.dumps({"bench": "python_noise", "keps_values": n, "keps_ms": round(keps_ms, 1),
                      "keps_ns_per_value": round(keps_ns, 1), "baseline": "diffprivlib Laplace.randomise call path "
                      "(re-implemented; one Python call per value)", "baseline_values": baseline_n,
                      "baseline_ms": round(base_ms, 1), "baseline_ns_per_value": round(base_ns, 1),
                      "speedup": round(base_ns / keps_ns, 1), "repeats": repeats}), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default=str(TREE / "build" / "keps"))
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--noise-n", type=int, default=1_000_000)
    ap.add_argument("--baseline-n", type=int, default=1_000_000)
    a = ap.parse_args()
    print(json.dumps({"bench": "python_env", "python": sys.version.split()[0], "numpy": np.__version__,
                      "pandas": pd.__version__, "keps": keps.__version__}), flush=True)
    conversion(a.binary, a.repeats)
    end_to_end(a.repeats)
    noise(a.noise_n, a.baseline_n, a.repeats)


if __name__ == "__main__":
    main()
