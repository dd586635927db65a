"""Privacy calculators (keps privacy ...): each returns a dict with the keys
of the CLI's JSON report ("calculator" names it, "result" is its answer).

>>> keps.privacy.delta(k=75, beta=0.7)["delta"]          # epsilon-safe k-anonymization under sampling
>>> keps.privacy.min_k(delta=1e-6, beta=0.7)["result"]
>>> keps.privacy.rr_epsilon(p=0.6, categories=4)["epsilon"]
>>> keps.privacy.rr_t(pt=0.5, frequencies=[0.2, 0.3, 0.5])["t"]
>>> keps.privacy.implies(from_="ldp", epsilon=1, to="kt", k=5, records=100)

delta and min_k: Li, Qardaji and Su (2012), docs/spec.md section 6;
rr_epsilon, rr_t and implies: Ekenstedt et al. (2022), docs/spec.md
section 7 (where keps corrects the paper's formulas).
"""
import math
from fractions import Fraction

import numpy as np

from . import _commands, _core
from ._errors import InputError

__all__ = ["delta", "min_k", "rr_epsilon", "rr_t", "implies"]

_MAX_CATEGORIES = 512


def _calc(calculator, **kwargs):
    """keps privacy CALCULATOR over the library's command layer: its report."""
    cmd = _commands.catalog()["privacy"]
    pos = next(p for p in cmd["params"].values() if p.flags & _commands.POSITIONAL)
    if isinstance(kwargs.get("frequencies"), (list, tuple, np.ndarray)):
        kwargs["frequencies"] = ",".join(_commands._text(float(f)) for f in kwargs["frequencies"])
    return _commands.run("privacy", **{pos.keyword: calculator}, **kwargs).report


def _number(name, x, lo, hi):
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(f"{name}={x!r}: expected a number in [{lo:.15g}, {hi:.15g}]") from None
    if not lo <= v <= hi:
        raise InputError(f"{name}={x!r}: expected a number in [{lo:.15g}, {hi:.15g}]")
    return v


def _whole(name, x, lo, hi):
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) and not (
            isinstance(x, float) and x.is_integer()):
        raise InputError(f"{name}={x!r}: expected a whole number in [{lo}, {hi}]")
    v = int(x)
    if not lo <= v <= hi:
        raise InputError(f"{name}={x!r}: expected a whole number in [{lo}, {hi}]")
    return v


def _probability(name, x):
    """beta as keps safela reads it: a number or a fraction "7/10"."""
    if x is None:
        raise InputError(f"{name} is required")
    try:
        v = float(Fraction(x)) if isinstance(x, str) else float(x)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InputError(f"{name}={x!r}: expected a probability such as 0.7 or 7/10") from None
    if not 0.0 < v < 1.0:
        raise InputError(f"{name}={x!r}: expected a probability strictly between 0 and 1")
    return v


def _delta_params(beta, epsilon, epsilon_prime):
    beta = _probability("beta", beta)
    epsp = _number("epsilon_prime", epsilon_prime, 0.0, 1.7976931348623157e308)
    eps = _number("epsilon", epsilon, 0.0, 1.7976931348623157e308)
    if eps is not None and epsp is None:
        raise InputError("epsilon needs epsilon_prime too (delta depends on epsilon - epsilon')")
    epsp = epsp or 0.0
    return beta, epsp, eps - epsp if eps is not None else math.nan


def _delta_report(r, k, beta, epsp):
    return {"delta": r["delta"], "log_delta": r["log_delta"], "k": k, "beta": beta,
            "epsilon": epsp + r["epsilon_gap"], "epsilon_prime": epsp, "epsilon_gap": r["epsilon_gap"],
            "gamma": r["gamma"], "n_min": r["n_min"], "n_argmax": r["n_argmax"], "n_last": r["n_last"],
            "capped": r["capped"]}


def delta(k, beta, *, epsilon=None, epsilon_prime=None):
    """delta of epsilon-safe k-anonymization under sampling with probability
    beta: (beta, epsilon, delta)-DP with epsilon = epsilon' - ln(1 - beta)
    unless epsilon (and epsilon_prime) are given."""
    if _core.HAS_COMMANDS:
        return _calc("delta", k=k, beta=beta, epsilon=epsilon, epsilon_prime=epsilon_prime)
    k = _whole("k", k, 1, 100_000_000)
    beta, epsp, gap = _delta_params(beta, epsilon, epsilon_prime)
    r = _core.safela_delta(k, beta, gap)
    return {"calculator": "delta", "result": r["delta"], **_delta_report(r, k, beta, epsp)}


def min_k(delta, beta, *, epsilon=None, epsilon_prime=None, max_k=100_000):
    """The smallest k (up to max_k) whose delta is at most the target delta."""
    if _core.HAS_COMMANDS:
        return _calc("min-k", delta=delta, beta=beta, epsilon=epsilon, epsilon_prime=epsilon_prime, max_k=max_k)
    target = _number("delta", delta, 0.0, 1.0)
    if target is None:
        raise InputError("delta is required: the target delta")
    max_k = _whole("max_k", max_k, 1, 100_000_000)
    beta, epsp, gap = _delta_params(beta, epsilon, epsilon_prime)
    k, r = _core.safela_min_k(target, beta, gap, max_k)
    return {"calculator": "min-k", "result": k, "target_delta": target, **_delta_report(r, k, beta, epsp)}


def rr_epsilon(*, p=None, categories=None, epsilon=None):
    """Randomized response keeping the true value with probability p, else a
    uniform one of n categories: its epsilon-LDP, ln(1 + n p/(1 - p)); or,
    given epsilon instead of p, the largest such p."""
    if _core.HAS_COMMANDS:
        return _calc("rr-epsilon", p=p, categories=categories, epsilon=epsilon)
    p = _number("p", p, 0.0, 1.0)
    eps = _number("epsilon", epsilon, 0.0, math.inf)
    n = _whole("categories", categories, 1, _MAX_CATEGORIES * 1000)
    if n is None:
        raise InputError("rr_epsilon needs the number of categories, e.g. p=0.6, categories=4")
    if (p is None) == (eps is None):
        raise InputError("rr_epsilon takes either p (gives epsilon) or epsilon (gives the largest p)")
    given_p = p is not None
    if given_p:
        eps = _core.rr_ldp(0, p, n)
    else:
        p = _core.rr_ldp(1, eps, n)
    ratio = 1.0 if n <= 1 else math.inf if p >= 1.0 else 1.0 + n * p / (1.0 - p)
    return {"calculator": "rr-epsilon", "result": eps if given_p else p, "epsilon": eps, "p": p, "categories": n, "keep_ratio": ratio,
            "formula": "epsilon = ln(1 + n p / (1 - p)) (RR-LDP, Fig. 4; SPEC 9 corrects eq. (1))"}


def rr_t(*, pt=None, t=None, frequencies=None, categories=None, p=None):
    """RR-t (keep with probability p_t, else a value drawn from the data's
    distribution): its multiplicative t-closeness level over the distribution
    frequencies (probabilities or counts; or categories uniform ones); or,
    given t instead of pt, the largest p_t. p is pt's other name."""
    if _core.HAS_COMMANDS:
        return _calc("rr-t", pt=pt, t=t, frequencies=frequencies, categories=categories, p=p)
    if pt is not None and p is not None:
        raise InputError("rr_t: p and pt both give the keep probability p_t; give one")
    pt = _number("pt", pt if pt is not None else p, 0.0, 1.0)
    t = _number("t", t, 1.0, math.inf)
    if (pt is None) == (t is None):
        raise InputError("rr_t takes either pt (gives t) or t (gives the largest p_t)")
    n = _whole("categories", categories, 1, _MAX_CATEGORIES)
    if frequencies is None:
        if n is None:
            raise InputError("rr_t needs the distribution: frequencies=[0.2, 0.3, 0.5] or categories=N (uniform)")
        f = np.ones(n)
    else:
        f = np.asarray(frequencies, dtype=float).reshape(-1)
        if f.size == 0 or not np.all(np.isfinite(f)) or (f < 0).any():
            raise InputError(f"frequencies={frequencies!r}: expected non-negative numbers")
        if not f.sum() > 0:
            raise InputError(f"frequencies={frequencies!r}: at least one value must be positive")
    f = np.ascontiguousarray(f / f.sum())
    given_pt = pt is not None
    if given_pt:
        t = _core.rr_t(0, pt, f)
    else:
        pt = _core.rr_t(1, t, f)
    fmin = float(f[f > 0].min())
    return {"calculator": "rr-t", "result": t if given_pt else pt, "t": t, "pt": pt, "frequencies": f.tolist(), "min_frequency": fmin,
            "same_value_ratio": 1.0 + pt * (1.0 / fmin - 1.0),
            "other_value_ratio": math.inf if pt >= 1.0 else 1.0 / (1.0 - pt),
            "formula": "t = max(1 + p_t (1/f_min - 1), 1/(1 - p_t)): an equivalence class holding one value "
                       "(eq. (2))"}


_MODELS = ("ldp", "tclose", "kt", "kdp")
_BIG = 2**63 - 1


def _level_key(model):
    return "epsilon" if model in ("ldp", "kdp") else "t"


def implies(from_, to, *, epsilon=None, t=None, k=None, to_k=None, records=None):
    """Translates between epsilon-LDP (ldp), multiplicative t-closeness with
    classes of at least k records (tclose), (k,t)-closeness (kt) and
    (k,epsilon)-DP (kdp) by Ekenstedt et al.'s theorems. The source's level
    is epsilon (ldp, kdp) or t (tclose, kt); k is the source's group size
    (the target's when the source is ldp), to_k the target's. A direction the
    paper proves impossible raises JobError naming the theorem."""
    if _core.HAS_COMMANDS:
        return _calc("implies", from_=from_, to=to, epsilon=epsilon, t=t, k=k, to_k=to_k, records=records)
    if from_ not in _MODELS:
        raise InputError("from_ must be ldp, tclose, kt or kdp (ldp = epsilon-LDP, tclose = multiplicative "
                         "t-closeness, kt = (k,t)-closeness, kdp = (k,epsilon)-DP)")
    if to not in _MODELS:
        raise InputError("to must be ldp, tclose, kt or kdp")
    lk = _level_key(from_)
    level = _number("t", t, 1.0, math.inf) if lk == "t" else _number("epsilon", epsilon, 0.0, math.inf)
    if level is None:
        raise InputError(f"from_={from_!r} needs its level {lk}")
    k = _whole("k", k, 1, _BIG)
    to_k = _whole("to_k", to_k, 1, _BIG)
    n = _whole("records", records, 1, _BIG)
    src_k = 0
    if from_ == "ldp":
        if k and to_k:
            raise InputError(f"from_='ldp' has no group size, so k={k} and to_k={to_k} both give the target's; "
                             "give one")
        to_k = to_k or k
    else:
        src_k = k or 0
        if from_ in ("kt", "kdp") and not k:
            raise InputError(f"from_={from_!r} needs its group size k")
    imp = _core.rr_implies(from_, level, src_k, to, to_k or 0, n or 0)
    out = {"calculator": "implies", "result": imp["level"], "from": from_, "to": to, lk: level}
    if k:
        out["k"] = k
    if n:
        out["records"] = n
    implied = {"model": imp["model"], _level_key(to): imp["level"]}
    if to != "ldp":
        implied["k"] = imp["k"]
    out["implied"] = implied
    if to != "ldp":
        out["to_k"] = imp["k"]
    out["rule"] = imp["rule"]
    out["holds_when"] = imp["holds_when"]
    return out
