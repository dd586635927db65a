"""keps.audit(neighbours=...): the whole-command audit from Python. The
audited runs are subprocesses of a keps executable (binary=), since a
Python process has no keps CLI of its own."""
import warnings

import pytest

import keps

# Two inputs that differ in one record's sensitive value x (row 4: b -> a).
A = "x,y\na,1\nb,2\na,3\nb,4\n"
B = "x,y\na,1\nb,2\na,3\na,4\n"
# Randomized response on x over the public domain {a, b} at epsilon = 3:
# keep with p = (e^3 - 1)/(e^3 + 1) and draw uniformly otherwise, so a
# record's released value is a with probability (1+p)/2 = e^3/(1+e^3) =
# 0.9526 if it was a, 0.0474 if it was b: the privacy loss of that event is
# exactly ln(0.9526/0.0474) = 3.
RR = ["rr", "--mechanism", "ldp", "--sensitive", "x", "--qi", "y", "--epsilon", "3", "--domain", "x=a,b"]


@pytest.fixture
def pair(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text(A)
    b.write_text(B)
    return str(a), str(b)


def audit(pair, binary, claim):
    a, b = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", keps.PrivacyWarning)
        return keps.audit(neighbours=a, second=b, command=RR, binary=str(binary), runs=300, seed=1,
                          epsilon=claim, progress=False)


def test_a_claim_far_below_the_mechanism_is_a_violation(pair, keps_binary):
    # 300 runs per input give a Clopper-Pearson lower bound on the loss of
    # about 1 (the event's counts ~285 vs ~14): far above a claim of 0.05.
    r = audit(pair, keps_binary, 0.05)
    assert r.finding
    assert r.report["audit"]["violation"] is True
    assert 0.05 < r.report["audit"]["epsilon_lower"] <= 3


def test_the_true_epsilon_is_not_a_violation(pair, keps_binary):
    r = audit(pair, keps_binary, 3)
    assert not r.finding
    assert r.report["audit"]["violation"] is False
    assert r.report["audit"]["epsilon_lower"] <= 3


def test_without_a_binary_the_error_says_what_to_give(pair):
    a, b = pair
    with pytest.raises(keps.InputError, match="binary"):
        keps.audit(neighbours=a, second=b, command=RR, runs=30, seed=1, epsilon=1, progress=False)
