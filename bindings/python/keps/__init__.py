"""keps: publish personal microdata safely, from pandas.

A CPython extension over libkeps (no subprocess): k-anonymity (OLA,
Mondrian, MDAV), differential privacy and the published methods combining
them. DataFrames go in and come out; every release comes with a report
(a dict with the keys of the CLI's JSON report) stating the guarantee it
gives, computed from the parameters actually used.

Errors raise keps.InputError (bad usage or input; the CLI's exit code 2),
keps.JobError (the job cannot be done; exit 1) or keps.ResourceError (I/O
or resources; exit 3), carrying the library's message. Warnings that
weaken privacy (seed=, ...) are keps.PrivacyWarning.
"""
from . import _core
from ._errors import InputError, JobError, KepsError, KepsWarning, PrivacyWarning, ResourceError

_core._init(InputError, JobError, ResourceError)

from . import hierarchy, noise, privacy  # noqa: E402
from ._commands import COMMANDS as _COMMANDS, Result, make as _make  # noqa: E402
from ._frame import from_table as _from_table, to_table as _to_table  # noqa: E402

# keps.anonymize, keps.verify, ...: the CLI's commands over the library's command layer
anonymize, kepsilon, dpmicro, safela, rr, verify, risk, evaluate, split, audit = map(_make, _COMMANDS)

__version__ = _core.version()

__all__ = ["InputError", "JobError", "KepsError", "KepsWarning", "PrivacyWarning", "ResourceError", "Result",
           "anonymize", "kepsilon", "dpmicro", "safela", "rr", "verify", "risk", "evaluate", "split", "audit",
           "hierarchy", "noise", "privacy", "read_csv", "to_keps", "__version__"]


def read_csv(path, *, delimiter=None, missing=None, decimal_comma=False, progress=None):
    """Reads a CSV file with keps's own reader (the CLI's: delimiter sniffed
    from the header, quoted fields, errors naming line and column) into a
    DataFrame. Numeric columns (by keps's rules: ZIP codes with a leading
    zero stay text) become float64 or int64; the missing token (default the
    empty field) becomes NaN."""
    tbl = _to_table(path, delimiter=delimiter, missing=missing, decimal_comma=decimal_comma, progress=progress)
    return _from_table(tbl)


def to_keps(df, *, missing=None):
    """The DataFrame as keps reads it: every column through keps's table and
    back (categoricals stay categorical, numbers numeric where keps reads
    them as numbers, missing values NaN). Useful to see what keps will see."""
    return _from_table(_to_table(df, missing=missing), like=df)
