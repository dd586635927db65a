"""Progress from the library's long loops reaches a callable (or tqdm), and
an exception raised there comes out of the call."""
import pytest

import keps
from keps import _progress


def test_callable_gets_the_readers_progress(adult_path):
    calls = []
    df = keps.read_csv(adult_path, progress=lambda what, done, total: calls.append((what, done, total)))
    assert len(df) == 30162
    # the reader reports before each 1 MiB chunk past the first: done grows, total is the file's size
    assert calls and all(w == "reading" and 0 < d < t for w, d, t in calls)
    assert {t for _, _, t in calls} == {adult_path.stat().st_size}
    assert [d for _, d, _ in calls] == sorted(d for _, d, _ in calls)


def test_exception_in_callback_propagates(adult_path):
    def stop(what, done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        keps.read_csv(adult_path, progress=stop)
    # the next call is not affected
    assert len(keps.read_csv(adult_path, progress=False)) == 30162


def test_tqdm_bar(adult_path):
    pytest.importorskip("tqdm")
    assert len(keps.read_csv(adult_path, progress=True)) == 30162


def test_true_without_tqdm(adult_path, monkeypatch):
    monkeypatch.setattr(_progress, "_tqdm", lambda: None)
    with pytest.raises(ImportError, match="tqdm"):
        keps.read_csv(adult_path, progress=True)
    assert len(keps.read_csv(adult_path)) == 30162  # the default draws nothing then
