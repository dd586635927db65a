"""Progress of long library calls.

The library reports progress from its long loops (reading, the lattice
scan, MDAV, audits); keps._core hands it to a Python callable at most ten
times a second, on the calling thread, as ``callable(what, done, total)``.

progress=None (the default) shows a tqdm bar when tqdm is installed, only
for work that runs longer than a second (as the CLI does on a terminal);
progress=False shows nothing; progress=True insists on a bar (tqdm
required); a callable receives the calls itself.
"""
import contextlib

__all__ = ["progress_callback"]


class _TqdmBars:
    """One tqdm bar per stage ("reading", "OLA search", ...)."""

    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._what = None

    def __call__(self, what, done, total):
        if what != self._what:
            self.close()
            self._what = what
            self._bar = self._tqdm(total=total, desc=what, delay=1.0, leave=False, unit="")
        if self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)  # not refresh(): that would draw before the delay

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


@contextlib.contextmanager
def progress_callback(progress):
    """The callable for one library call (or None), closed afterwards."""
    if progress is False:
        yield None
        return
    if callable(progress) and progress is not True:
        yield progress
        return
    tqdm = _tqdm()
    if tqdm is None:
        if progress is True:
            raise ImportError("progress=True draws a tqdm bar: install tqdm (Debian: python3-tqdm)")
        yield None
        return
    bars = _TqdmBars(tqdm)
    try:
        yield bars
    finally:
        bars.close()
