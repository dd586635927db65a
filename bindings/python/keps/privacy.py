"""Privacy calculators (keps privacy ...) over the library's command layer:
each returns the CLI's JSON report as a dict ("calculator" names it,
"result" is its answer).

>>> keps.privacy.delta(k=75, beta=0.7)["delta"]          # epsilon-safe k-anonymization under sampling
>>> keps.privacy.min_k(delta=1e-6, beta=0.7)["result"]
>>> keps.privacy.rr_epsilon(p=0.6, categories=4)["epsilon"]
>>> keps.privacy.rr_t(pt=0.5, frequencies=[0.2, 0.3, 0.5])["t"]
>>> keps.privacy.implies(from_="ldp", epsilon=1, to="kt", k=5, records=100)

delta and min_k: Li, Qardaji and Su (2012), docs/spec.md section 6;
rr_epsilon, rr_t and implies: Ekenstedt et al. (2022), docs/spec.md
section 7 (where keps corrects the paper's formulas). Bad parameters raise
keps.InputError, a direction the paper proves impossible keps.JobError
naming the theorem, with the library's message.
"""
import numpy as np

from . import _commands

__all__ = ["delta", "min_k", "rr_epsilon", "rr_t", "implies"]


def _calc(calculator, **kwargs):
    """keps privacy CALCULATOR: its report."""
    cmd = _commands.catalog()["privacy"]
    pos = next(p for p in cmd["params"].values() if p.flags & _commands.POSITIONAL)
    if isinstance(kwargs.get("frequencies"), (list, tuple, np.ndarray)):
        kwargs["frequencies"] = ",".join(_commands._text(float(f)) for f in kwargs["frequencies"])
    return _commands.run("privacy", **{pos.keyword: calculator}, **kwargs).report


def delta(k, beta, *, epsilon=None, epsilon_prime=None):
    """delta of epsilon-safe k-anonymization under sampling with probability
    beta (a number or a fraction "7/10"): (beta, epsilon, delta)-DP with
    epsilon = epsilon' - ln(1 - beta) unless epsilon (and epsilon_prime)
    are given."""
    return _calc("delta", k=k, beta=beta, epsilon=epsilon, epsilon_prime=epsilon_prime)


def min_k(delta, beta, *, epsilon=None, epsilon_prime=None, max_k=None):
    """The smallest k (up to max_k) whose delta is at most the target delta."""
    return _calc("min-k", delta=delta, beta=beta, epsilon=epsilon, epsilon_prime=epsilon_prime, max_k=max_k)


def rr_epsilon(*, p=None, categories=None, epsilon=None):
    """Randomized response keeping the true value with probability p, else a
    uniform one of n categories: its epsilon-LDP, ln(1 + n p/(1 - p)); or,
    given epsilon instead of p, the largest such p."""
    return _calc("rr-epsilon", p=p, categories=categories, epsilon=epsilon)


def rr_t(*, pt=None, t=None, frequencies=None, categories=None, p=None):
    """RR-t (keep with probability p_t, else a value drawn from the data's
    distribution): its multiplicative t-closeness level over the distribution
    frequencies (probabilities or counts; or categories uniform ones); or,
    given t instead of pt, the largest p_t. p is pt's other name."""
    return _calc("rr-t", pt=pt, t=t, frequencies=frequencies, categories=categories, p=p)


def implies(from_, to, *, epsilon=None, t=None, k=None, to_k=None, records=None):
    """Translates between epsilon-LDP (ldp), multiplicative t-closeness with
    classes of at least k records (tclose), (k,t)-closeness (kt) and
    (k,epsilon)-DP (kdp) by Ekenstedt et al.'s theorems. The source's level
    is epsilon (ldp, kdp) or t (tclose, kt); k is the source's group size
    (the target's when the source is ldp), to_k the target's."""
    return _calc("implies", from_=from_, to=to, epsilon=epsilon, t=t, k=k, to_k=to_k, records=records)
