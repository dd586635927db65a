"""How many cases an oracle runs: every one in a release build, a sample
under the sanitizers (KEPS_SANITIZED=1 in scripts/test.sh's ASan stage, where
keps runs about ten times slower and the point is to run its C code under
ASan and UBSan, not to repeat every case), so that no test outgrows its
timeout on a busy machine."""
import os

SANITIZED = os.environ.get("KEPS_SANITIZED") == "1"


def cases(seq, every=3):
    """seq, or under the sanitizers every `every`-th item of it (the first
    always)."""
    seq = list(seq)
    return seq[::every] if SANITIZED else seq
