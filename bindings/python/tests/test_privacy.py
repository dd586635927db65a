"""keps.privacy: delta against the repository's exact-rational oracle
(tests/safela_delta_oracle.py), the RR formulas worked by hand, and every
calculator's dict against the CLI's JSON report (same keys, same values)."""
import importlib.util
import math

import pytest

import keps
from keps import privacy

from conftest import TREE, missing


def oracle():
    path = TREE / "tests" / "safela_delta_oracle.py"
    if not path.exists():
        missing(f"{path} missing")
    spec = importlib.util.spec_from_file_location("safela_delta_oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_delta_against_exact_oracle():
    o = oracle()
    for k, beta in o.CASES[:6]:
        want = float(o.delta(k, beta))
        got = privacy.delta(k, beta)["delta"]
        assert abs(got - want) <= 1e-9 * want, (k, beta, got, want)
    k, beta, e = o.GAP_CASES[0]  # epsilon - epsilon' = ln E
    want = float(o.delta(k, beta, e))
    got = privacy.delta(k, beta, epsilon=0.5 + math.log(e), epsilon_prime=0.5)["delta"]
    assert abs(got - want) <= 1e-9 * want


def test_min_k():
    # delta(75) = 2.53e-6 <= 2.6e-6 < delta(74) = 3.31e-6 (tests/cli/safela_delta.sh)
    assert privacy.min_k(2.6e-6, 0.7)["result"] == 75
    with pytest.raises(keps.JobError) as e:
        privacy.min_k(1e-300, 0.7, max_k=100)
    assert e.value.exit_code == 1


def test_rr_by_hand():
    # ln(1 + n p/(1-p)) = ln(1 + 4 * 0.6/0.4) = ln 7
    assert privacy.rr_epsilon(p=0.6, categories=4)["epsilon"] == pytest.approx(math.log(7), rel=1e-15)
    # inverse: p = (e^eps - 1)/(e^eps - 1 + n) = 6/10
    assert privacy.rr_epsilon(epsilon=math.log(7), categories=4)["p"] == pytest.approx(0.6, rel=1e-12)
    # max(1 + 0.5 (1/0.2 - 1), 1/(1 - 0.5)) = max(3, 2)
    assert privacy.rr_t(pt=0.5, frequencies=[2, 3, 5])["t"] == pytest.approx(3.0, rel=1e-15)
    # (k + (N-k) e^eps)/N = (5 + 95 e)/100
    r = privacy.implies("ldp", "kt", epsilon=1, k=5, records=100)
    assert r["result"] == pytest.approx((5 + 95 * math.e) / 100, rel=1e-15)


CASES = [
    (("delta", "-k", 75, "--beta", 0.7), lambda: privacy.delta(75, 0.7)),
    (("delta", "-k", 20, "--beta", "7/10", "--epsilon", 2, "--epsilon-prime", 0.5),
     lambda: privacy.delta(20, "7/10", epsilon=2, epsilon_prime=0.5)),
    (("min-k", "--delta", 1e-6, "--beta", 0.7), lambda: privacy.min_k(1e-6, 0.7)),
    (("rr-epsilon", "-p", 0.6, "-n", 4), lambda: privacy.rr_epsilon(p=0.6, categories=4)),
    (("rr-epsilon", "--epsilon", 1, "-n", 4), lambda: privacy.rr_epsilon(epsilon=1, categories=4)),
    (("rr-t", "--pt", 0.5, "--frequencies", "0.2,0.3,0.5"), lambda: privacy.rr_t(pt=0.5, frequencies=[.2, .3, .5])),
    (("rr-t", "--t", 2, "-n", 4), lambda: privacy.rr_t(t=2, categories=4)),
    (("implies", "--from", "ldp", "--epsilon", 1, "--to", "kt", "-k", 5, "--records", 100),
     lambda: privacy.implies("ldp", "kt", epsilon=1, k=5, records=100)),
    (("implies", "--from", "kt", "--t", 2, "-k", 5, "--to", "tclose"),
     lambda: privacy.implies("kt", "tclose", t=2, k=5)),
]


@pytest.mark.parametrize("args, call", CASES, ids=[c[0][0] + str(i) for i, c in enumerate(CASES)])
def test_equals_cli_report(keps_cli, args, call):
    want = keps_cli("privacy", *args, "--json", json_out=True)
    want.pop("timing_ms")
    got = call()
    got.pop("timing_ms", None)  # over the command layer the report has the run's timing too
    assert got == want


def test_errors_match_cli_exit_codes(keps_cli):
    rc, _, _ = keps_cli("privacy", "implies", "--from", "tclose", "--t", 2, "-k", 5, "--to", "ldp")
    with pytest.raises(keps.JobError, match="Theorem 1") as e:
        privacy.implies("tclose", "ldp", t=2, k=5)
    assert rc == e.value.exit_code == 1
    for call in (lambda: privacy.delta(75, 1.5), lambda: privacy.rr_epsilon(p=0.6, epsilon=1, categories=4),
                 lambda: privacy.delta(75, 0.7, epsilon=1), lambda: privacy.rr_t(pt=0.5),
                 lambda: privacy.implies("kt", "ldp", t=2), lambda: privacy.implies("x", "ldp", t=2)):
        with pytest.raises(keps.InputError):
            call()
