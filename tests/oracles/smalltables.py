"""Shared by risk_measures_oracle.py and suda_oracle.py (standard library
only): a small deterministic generator (the tests must not depend on
Python's), tolerant comparison, and the loop over cases."""
import sys


class Lcg:
    def __init__(self, seed, salt):
        self.s = seed * 2654435761 + salt

    def below(self, n):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) % 2**64
        return (self.s >> 33) % n


def close(a, b, tol=1e-12):
    """Relative agreement; None (JSON null) agrees only with None."""
    if a is None or b is None:
        return a is b
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def main(name, one_case, cases):
    """Runs one_case(seed) for every seed (it returns a list of (what, keps,
    oracle) mismatches), prints them and exits 1 if there were any."""
    failures = 0
    for seed in range(cases):
        for b in one_case(seed):
            failures += 1
            print(f'case {seed}: {b[0]}: keps {b[1]}, oracle {b[2]}')
    print(f'{name}: {cases} cases, {failures} mismatches')
    sys.exit(1 if failures else 0)
