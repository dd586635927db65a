"""keps.noise: the same draws as the CLI under the same seed, the grid, the
Laplace distribution's moments and tail (closed forms: variance 2 b^2,
Pr[|X - v| > x] = exp(-x / b)), warnings, errors, and the GIL."""
import math
import warnings

import numpy as np
import pytest

import keps
from keps import noise

from conftest import longest_pause


def cli_values(keps_cli, *args):
    rc, out, err = keps_cli("noise", *args)
    assert rc == 0, err
    return [float(x) for x in out.split()]


def test_laplace_equals_cli(keps_cli):
    want = cli_values(keps_cli, "--mechanism", "laplace", "--epsilon", "0.5", "--sensitivity", "2", "--value", "42",
                      "-n", "50", "--seed", "7")
    with pytest.warns(keps.PrivacyWarning, match="NOT private"):
        got, g = noise.laplace(np.full(50, 42.0), epsilon=0.5, sensitivity=2, seed=7)
    assert got.tolist() == want
    rep = keps_cli("noise", "--mechanism", "laplace", "--epsilon", "0.5", "--sensitivity", "2", "--value", "42",
                   "--json", json_out=True)
    assert g["epsilon"] == rep["guarantee"]["epsilon"]
    assert g["granularity"] == rep["granularity"] and g["noise_scale"] == rep["noise_scale"]
    assert g["epsilon"] <= 0.5  # the scale is calibrated: the grid's rounding stays inside the budget


def test_geometric_equals_cli(keps_cli):
    want = cli_values(keps_cli, "--mechanism", "geometric", "--epsilon", "0.5", "--sensitivity", "2", "--value",
                      "10", "-n", "50", "--seed", "3")
    with pytest.warns(keps.PrivacyWarning):
        got, g = noise.geometric(np.full(50, 10), epsilon=0.5, sensitivity=2, seed=3)
    assert got.dtype == np.int64 and got.tolist() == want
    assert g["epsilon"] <= 0.5


def test_laplace_grid_and_distribution():
    b = 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", keps.PrivacyWarning)
        y, g = noise.laplace(np.full(200_000, 100.0), epsilon=0.5, sensitivity=1.0, seed=11)
    step = g["granularity"]
    # g = 2^ceil(log2 b) * 2^-40; b = 2 raised by the calibration's hair (so that
    # (floor(1/g) + 1) g/b <= 0.5) has ceil(log2 b) = 2: g = 2^-38. Every output is on that grid
    assert 2.0 < g["noise_scale"] < 2.0 * (1 + 2.0**-30) and g["epsilon"] <= 0.5
    assert step == 2.0**-38
    assert np.all(np.floor(y / step) == y / step)
    d = y - 100.0
    n = len(d)
    assert abs(d.mean()) < 5 * math.sqrt(2) * b / math.sqrt(n)
    assert abs(d.var() / (2 * b * b) - 1) < 0.03
    tail = np.mean(np.abs(d) > b * math.log(20))  # exp(-ln 20) = 0.05
    assert abs(tail - 0.05) < 5 * math.sqrt(0.05 * 0.95 / n)


def test_unseeded_draws_differ_and_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a, _ = noise.laplace(np.zeros(8), 1.0)
        b, _ = noise.laplace(np.zeros(8), 1.0)
    assert not np.array_equal(a, b)


def test_shapes_and_scalars():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", keps.PrivacyWarning)
        y, _ = noise.laplace(np.zeros((3, 4)), 1.0, seed=1)
        z, _ = noise.laplace(5, 1.0, seed=1)
    assert y.shape == (3, 4)
    assert isinstance(z, float) and math.isfinite(z)


@pytest.mark.parametrize("call, words", [
    (lambda: noise.laplace([1.0, np.nan], 1.0), r"values\[1\] = nan"),
    (lambda: noise.laplace([1.0], 0), "epsilon=0"),
    (lambda: noise.laplace([1.0], 1.0, sensitivity=-1), "sensitivity=-1"),
    (lambda: noise.laplace([1.0], 1.0, seed=-1), "seed=-1"),
    (lambda: noise.geometric([1.5], 1.0), "whole"),
    (lambda: noise.geometric([1], 1.0, sensitivity=0.5), "sensitivity=0.5"),
    (lambda: noise.geometric([2**62], 1.0), "below 2\\^62"),
    (lambda: noise.geometric(np.array([2**63], dtype=np.uint64), 1.0), "below 2\\^62"),
])
def test_errors(call, words):
    with pytest.raises(keps.InputError, match=words):
        call()


def test_gil_released_during_noise():
    """Another thread keeps running while 10^7 values are noised: its longest
    pause is far shorter than the call (with the GIL held it would span it)."""
    x = np.zeros(10_000_000)
    gap, took = longest_pause(lambda: noise.laplace(x, 1.0))
    if took < 0.2:
        pytest.skip("the call was too quick to tell")
    assert gap < took / 2, (gap, took)
