"""Differentially private noise for numpy arrays, keps's secure way.

Textbook Laplace noise, -b*log(U) in floating point, leaves holes and a
value-dependent grid in its output, so one release can reveal the input
(Mironov 2012). keps instead rounds each value to a power-of-two grid g
chosen from the scale alone and adds g times an exact two-sided geometric
(discrete Laplace) variable drawn from random bits (no logarithm of a
uniform double anywhere); the guarantee accounts for the rounding
(docs/spec.md, section 8). All randomness is libkeps's CSPRNG (libsodium).

>>> noisy, g = keps.noise.laplace(values, epsilon=1.0, sensitivity=1.0)
>>> g["epsilon"]          # what the release guarantees, per value
"""
import warnings

import numpy as np

from . import _commands, _core
from ._errors import InputError, PrivacyWarning

__all__ = ["laplace", "geometric", "laplace_guarantee", "geometric_guarantee", "run"]

# keps noise itself (a value, -n draws, or every row of a column of a file or DataFrame:
# run(df, column="income", epsilon=1, sensitivity=..., output=True)) over the command layer;
# laplace() and geometric() are the fast path for numpy arrays.
run = _commands.make("noise")
run.__name__ = run.__qualname__ = "run"
run.__module__ = "keps.noise"

_EPS_RANGE = (1e-300, 1e300)


def _positive(name, x, lo=1e-300, hi=1e300):
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise InputError(f"{name}={x!r}: expected a number") from None
    if not lo <= v <= hi:
        raise InputError(f"{name}={x!r}: expected a number from {lo:g} to {hi:g}")
    return v


def seed_warning(seed, what):
    """The CLI's --seed warning, as a PrivacyWarning; checks the seed."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise InputError(f"seed={seed!r}: expected a whole number from 0 to 2^63 - 1")
    warnings.warn(f"keps {what}: seed={seed} makes the randomness reproducible; the output is NOT private. "
                  "Use it for tests and experiments only.", PrivacyWarning, stacklevel=3)
    return int(seed)


def _guarantee(info, mechanism):
    g, scale, eps, sens = info
    return {"model": "epsilon-DP", "mechanism": mechanism, "epsilon": eps, "sensitivity": sens,
            "granularity": g, "noise_scale": scale}


def laplace_guarantee(epsilon, sensitivity=1.0):
    """What laplace() guarantees for these parameters, without drawing:
    the epsilon per value including the grid rounding, (floor(D/g) + 1)/(b/g),
    at most the requested one (the scale b is sensitivity/epsilon raised by
    the rounding's hair, as the CLI calibrates it), the granularity g and
    the noise scale b actually used."""
    return _laplace_plan(epsilon, sensitivity)[1]


def _laplace_plan(epsilon, sensitivity):
    """(the scale to draw with, the guarantee it gives)."""
    eps = _positive("epsilon", epsilon)
    sens = _positive("sensitivity", sensitivity)
    scale = _core.laplace_calibrate(sens, 1.0, eps)
    info = None if scale != scale else _core.laplace_info(scale, sens)
    if info is None:
        raise InputError(f"noise scale sensitivity/epsilon = {sens / eps:g} is out of range")
    return scale, _guarantee(info, "laplace")


def laplace(values, epsilon, sensitivity=1.0, *, seed=None):
    """Each value plus secure Laplace noise of scale sensitivity/epsilon.

    values: a number or an array of finite numbers (any shape).
    Returns (noisy values as float64 of the same shape, the guarantee as a
    dict: epsilon per value, at most the requested one, sensitivity,
    granularity, noise_scale). Each
    value is released with epsilon-DP for neighbours that differ by at most
    sensitivity in that value; releasing several values about the same
    person adds their epsilons (sequential composition).
    seed: reproducible noise for tests, and then NOT private (a
    PrivacyWarning says so)."""
    scale, g = _laplace_plan(epsilon, sensitivity)
    seed = seed_warning(seed, "noise")
    a = np.asarray(values, dtype=np.float64)
    x = np.ascontiguousarray(a).reshape(-1)
    out = np.empty_like(x)
    bad = _core.noise(0, x, out, scale, 0, seed)
    if bad >= 0:
        where = tuple(int(i) for i in np.unravel_index(bad, a.shape)) if a.ndim > 1 else bad
        raise InputError(f"values[{where}] = {x[bad]!r}: noise needs finite values; drop or impute missing "
                         "ones first")
    return (float(out[0]) if a.ndim == 0 else out.reshape(a.shape)), g


def geometric_guarantee(epsilon, sensitivity=1):
    """What geometric() guarantees: epsilon = sensitivity/t with the scale t
    rounded up (never above the requested epsilon)."""
    eps = _positive("epsilon", epsilon)
    sens = _whole("sensitivity", sensitivity, 1)
    info = _core.geometric_info(eps, sens)
    if info is None:
        raise InputError(f"noise scale sensitivity/epsilon = {sens / eps:g} is out of range")
    return _guarantee(info, "geometric")


def _whole(name, x, lo):
    try:
        v = int(x)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{name}={x!r}: expected a whole number") from None
    if v != x or not lo <= v < 2**62:
        raise InputError(f"{name}={x!r}: expected a whole number from {lo} to 2^62 - 1")
    return v


def geometric(values, epsilon, sensitivity=1, *, seed=None):
    """Each whole number plus two-sided geometric noise with scale >=
    sensitivity/epsilon (the geometric mechanism, for counts).

    values: whole numbers of magnitude below 2^62. Returns (int64 array of
    the same shape, the guarantee as a dict). seed: as in laplace()."""
    g = geometric_guarantee(epsilon, sensitivity)
    seed = seed_warning(seed, "noise")
    a = np.asarray(values)
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.array_equal(a, np.floor(a)):
            raise InputError("geometric noise releases whole numbers: the values must be whole")
        if np.any(np.abs(a) >= 2.0**62):
            raise InputError("geometric noise takes whole numbers of magnitude below 2^62")
    elif a.dtype.kind not in "iub":
        raise InputError(f"geometric noise releases whole numbers, not {a.dtype}")
    elif a.dtype.kind == "u" and a.size and a.max() >= 2**62:
        raise InputError("geometric noise takes whole numbers of magnitude below 2^62")
    x = np.ascontiguousarray(a, dtype=np.int64).reshape(-1)
    out = np.empty_like(x)
    bad = _core.noise(1, x, out, float(epsilon), int(sensitivity), seed)
    if bad >= 0:
        raise InputError(f"values[{bad}] = {x[bad]}: geometric noise takes whole numbers of magnitude below 2^62")
    return (int(out[0]) if a.ndim == 0 else out.reshape(a.shape)), g
