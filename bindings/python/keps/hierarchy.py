"""Generalization hierarchies: loading, checking and building them.

A hierarchy is a DataFrame in ARX's layout: one row per original value
(the leaf, column 0), column j the value at level j, the last column the
top (usually "*"). keps accepts a hierarchy as such a DataFrame, as a dict
{leaf: [level1, level2, ..., top]}, or as the path of an ARX CSV file.
Rows may be the leaf-to-root paths of an unbalanced tree that all end at
one root: a shorter row keeps its leaf on the levels it lacks (in a
DataFrame, a row ending in missing cells is such a path).

The builders make one from a column's own values, ARX's builders' way
(docs/spec.md, section 1, "Hierarchy builders"):

>>> keps.hierarchy.interval(df["age"], [5, 10, 20], top=90)   # [20-25[, [20-30[, [20-40[, *
>>> keps.hierarchy.mask(df["zip"], [1, 2, 3])                  # 0109*, 010**, 01***, *
>>> keps.hierarchy.order(df["education"], [2, 4])              # runs of sorted values
>>> keps.hierarchy.date(df["admitted"], ["month", "year", "decade"])
"""
import numpy as np
import pandas as pd

from . import _core, _frame
from ._progress import progress_callback

__all__ = ["load", "validate", "build", "interval", "mask", "order", "date", "coding"]


def _frame_of(h, like=None):
    """A validated _core.Hierarchy as a DataFrame with columns 0..height;
    level 0 follows like (the data's dtype) where its values allow."""
    tbl = h.levels
    cols = {}
    for j in range(len(tbl.names)):
        cols[j] = _frame.column_from_table(tbl, j, like if j == 0 else np.dtype(object))
    return pd.DataFrame(cols)


def _rows_of_dict(d):
    """{leaf: [level1, ..., top]} as rows [leaf, level1, ..., top]; a shorter
    path repeats its leaf on the lowest levels (keps's tree paths)."""
    rows = []
    for leaf, up in d.items():
        up = [up] if isinstance(up, str) or not hasattr(up, "__iter__") else list(up)
        rows.append([leaf] + up)
    width = max((len(r) for r in rows), default=0)
    return [[r[0]] * (width - len(r)) + r for r in rows]


def _rows_of_frame(df):
    """Rows that end in missing cells are short tree paths: shift them right,
    repeating the leaf."""
    df = df.reset_index(drop=True)
    tail = df.isna().to_numpy()
    short = tail[:, -1] & ~tail[:, 0] if df.shape[1] > 1 else np.zeros(len(df), bool)
    if not short.any():
        return df
    rows = df.astype(object).to_numpy().tolist()
    for i in np.flatnonzero(short):
        r = rows[i]
        n = len(r)
        while n > 1 and pd.isna(r[n - 1]):
            n -= 1
        rows[i] = [r[0]] * (len(r) - n) + r[:n]
    return pd.DataFrame(rows)


def table(h, *, name="<hierarchy>", delimiter=None):
    """A hierarchy (DataFrame, dict or path) as an unvalidated _core.Table,
    or as the path itself (keps reads files with its own reader)."""
    if _frame.is_path(h):
        return h
    if isinstance(h, dict):
        df = pd.DataFrame(_rows_of_dict(h))
    elif isinstance(h, pd.DataFrame):
        df = _rows_of_frame(h)
    else:
        raise TypeError(f"a hierarchy is a DataFrame, a dict {{leaf: [level1, ...]}} or a path, not "
                        f"{type(h).__name__}")
    df.columns = [str(j) for j in range(df.shape[1])]
    return _frame.to_table(df, source=name)


def _validated(h, name="<hierarchy>", delimiter=None):
    t = table(h, name=name)
    if _frame.is_path(t):
        return _core.hierarchy_load(t, delimiter or "\0")
    return _core.hierarchy_from_table(t)


def load(path, *, delimiter=None):
    """Reads and validates an ARX hierarchy file (no header; delimiter
    sniffed from the first row unless given) as a DataFrame."""
    return _frame_of(_validated(path, delimiter=delimiter))


def validate(h, *, name="<hierarchy>"):
    """Checks a hierarchy (unique leaves; values merged at one level stay
    merged above; no empty cell but the missing value's) and returns it as
    keps reads it, a DataFrame with columns 0..height. Raises InputError
    naming the row and level of the first problem."""
    return _frame_of(_validated(h, name=name))


def _series(data):
    if isinstance(data, pd.Series):
        return data
    if isinstance(data, pd.DataFrame):
        if data.shape[1] != 1:
            raise TypeError("give the builder one column (a Series), not a DataFrame of "
                            f"{data.shape[1]} columns")
        return data.iloc[:, 0]
    return pd.Series(np.asarray(data))


def _spec_list(values):
    if isinstance(values, (str, int, float)):
        values = [values]
    return ",".join(_frame._format_scalar(v) if not isinstance(v, str) else v for v in values)


def build(data, spec, *, progress=None):
    """Builds a hierarchy from a column's values by a builder spec, the text
    after "NAME:" in the CLI's --qi ("interval=5,10,20,top=90", "mask=1,2,3",
    "order=2,4", "date=month,year,decade", "bottom=18"); a DataFrame."""
    s = _series(data)
    name = str(s.name) if s.name is not None else "value"
    tbl = _frame.to_table(pd.DataFrame({name: s}))
    with progress_callback(progress) as cb:
        h = _core.hierarchy_build(tbl, 0, spec, cb)
    return _frame_of(h, like=s.dtype)


def _coding(bottom, top):
    parts = []
    if bottom is not None:
        parts.append("bottom=" + _spec_list([bottom]))
    if top is not None:
        parts.append("top=" + _spec_list([top]))
    return parts


def interval(data, widths, *, bottom=None, top=None):
    """Intervals [lo-hi[ of each width (each a multiple of the previous, so
    that intervals nest), then "*"; values below bottom become "<bottom",
    at or above top ">=top" on every level."""
    return build(data, ",".join(["interval=" + _spec_list(widths)] + _coding(bottom, top)))


def mask(data, counts):
    """Characters replaced by "*" from the right: level i masks counts[i]
    characters (increasing), then "*". Values are first padded with "*" to
    the longest value's length, as ARX's redaction builder does."""
    return build(data, "mask=" + _spec_list(counts))


def order(data, runs):
    """Runs of that many consecutive sorted values, "[first, last]" (each run
    length >= 2 and a multiple of the previous); numbers sort by value,
    text by code point."""
    return build(data, "order=" + _spec_list(runs))


def date(data, units, *, bottom=None, top=None):
    """ISO dates (YYYY-MM-DD, optionally with a time) by units coarser at
    every level: day, month, quarter, year, decade, century."""
    return build(data, ",".join(["date=" + _spec_list(units)] + _coding(bottom, top)))


def coding(data, *, bottom=None, top=None):
    """Bottom and top coding alone: values below bottom become "<bottom",
    those at or above top ">=top", the rest stay as they are."""
    if bottom is None and top is None:
        raise TypeError("coding() needs bottom=, top= or both")
    return build(data, ",".join(_coding(bottom, top)))
