"""pandas DataFrames to libkeps tables and back, column by column.

keps holds every column dictionary-encoded: each distinct string once and
one 32-bit code per row. A DataFrame is converted without a Python call per
cell: categoricals hand over their codes and categories, numeric and date
columns are factorized by pandas and only their distinct values formatted,
and object (string) columns go to C as arrays of object pointers, where
each distinct object is converted once (pandas shares one object per
distinct string it reads). Missing values (NaN, None, pd.NA, NaT) become the
table's missing token ("" unless given), as an empty CSV field does.

Numbers are written as the CSV reader would read them back: whole numbers
without a decimal point (a float column whose values are all whole, as an
integer column with missing values becomes in pandas, too), others in the
shortest form that reads back to the same double. keps's rules then decide
which columns are numeric (docs/spec.md, section 1), as for a CSV file.
"""
import datetime
import os

import numpy as np
import pandas as pd

from . import _core

_NA = (pd.NA, pd.NaT)
_MAX_EXACT = 2.0**53


def _format_float(x):
    if x != x:
        return None
    if x == int(x) if abs(x) < _MAX_EXACT else False:
        return str(int(x))
    return repr(float(x))


def _format_scalar(x):
    """A non-str cell of an object column as keps text; None if missing."""
    if isinstance(x, bool) or isinstance(x, np.bool_):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return _format_float(float(x))
    if isinstance(x, bytes):
        return x.decode("utf-8")
    if isinstance(x, (datetime.date, np.datetime64)):
        if pd.isna(x):
            return None
        ts = pd.Timestamp(x)
        return ts.strftime("%Y-%m-%d" if ts == ts.normalize() else "%Y-%m-%d %H:%M:%S")
    try:
        if pd.isna(x):
            return None
    except (TypeError, ValueError):
        pass
    return str(x)


def _format_values(u):
    """The distinct values u (an Index or array, no missing ones) as keps text."""
    u = pd.Index(u)
    kind = u.dtype.kind
    if kind in "iu":
        return u.astype(str).tolist() if u.dtype != object else [str(int(x)) for x in u]
    if kind == "f":
        f = u.to_numpy(dtype=float)
        finite = np.isfinite(f)
        whole = finite & (np.abs(f) < _MAX_EXACT)
        if whole.all() and np.array_equal(f, np.floor(f)):
            return f.astype(np.int64).astype(str).tolist()
        # numpy writes the shortest text that reads back to the same double
        return [s for s in f.astype(str)]
    if kind == "b":
        return [str(bool(x)) for x in u]
    if kind == "M":
        u = pd.DatetimeIndex(u)
        if u.tz is not None:
            u = u.tz_localize(None)
        whole_days = (u == u.normalize()).all()
        return list(u.strftime("%Y-%m-%d" if whole_days else "%Y-%m-%d %H:%M:%S"))
    return [x if isinstance(x, str) else _format_scalar(x) for x in u]


def _encode(s):
    """One column for _core.table_from_columns: (int32 codes, values) or an
    object array."""
    dt = s.dtype
    if isinstance(dt, pd.CategoricalDtype):
        codes = np.ascontiguousarray(s.cat.codes.to_numpy(), dtype=np.int32)
        return codes, _format_values(s.cat.categories)
    if dt.kind in "iufbM":
        codes, uniques = pd.factorize(s, sort=False)
        return np.ascontiguousarray(codes, dtype=np.int32), _format_values(uniques)
    arr = s.to_numpy(dtype=object)
    return np.ascontiguousarray(arr)


def is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


def read_table(path, *, delimiter=None, missing=None, decimal_comma=False, progress=None):
    """A CSV file read by libkeps's own reader (the CLI's)."""
    from ._progress import progress_callback

    with progress_callback(progress) as cb:
        return _core.read_csv(os.fspath(path), delimiter or "\0", missing, bool(decimal_comma), cb)


def to_table(data, *, missing=None, source="<DataFrame>", delimiter=None, decimal_comma=False, progress=None):
    """A libkeps table from a DataFrame (or anything pd.DataFrame takes), or
    from a CSV file when data is a path."""
    if is_path(data):
        return read_table(data, delimiter=delimiter, missing=missing, decimal_comma=decimal_comma, progress=progress)
    df = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    names = [str(c) for c in df.columns]
    cols = [_encode(df.iloc[:, j]) for j in range(df.shape[1])]
    return _core.table_from_columns(names, cols, len(df), missing if missing is not None else "", source, 1, _NA,
                                    _format_scalar)


def _numeric_column(tbl, j, codes, like):
    num = tbl.numeric(j)
    if num is None:
        return None
    col = np.frombuffer(num, dtype=np.float64).take(codes)
    # integers stay integers: those of an integer column, and a file's
    # column written as whole numbers (as pandas reads it), if none is missing
    whole = like.kind in "iu" if like is not None else tbl.decimals(j) == 0
    if whole and np.all(np.abs(col) < _MAX_EXACT) and np.array_equal(col, np.floor(col)):
        return col.astype(np.int64)
    return col


def column_from_table(tbl, j, like=None, order=None):
    """Column j of a table as a numpy array or a Categorical.

    like: the dtype the column had going in (None: it came from a file).
    order: the rows to take, in that order (a uint32 array), or None.
    Numeric when keps reads it as numbers and it was numeric going in (or
    came from a file); categorical when it was; otherwise strings, with
    NaN for the missing value."""
    codes_b, values, miss = tbl.column(j)
    codes = np.frombuffer(codes_b, dtype=np.uint32)
    if order is not None:
        codes = codes.take(order)
    numeric_in = like is None or (not isinstance(like, pd.CategoricalDtype) and like.kind in "iufb")
    if numeric_in:
        col = _numeric_column(tbl, j, codes, like)
        if col is not None:
            return col
    if numeric_in and like is not None and like.kind == "b" and miss < 0 and set(values) <= {"True", "False"}:
        return np.array([v == "True" for v in values], dtype=bool).take(codes)  # still a bool column
    if isinstance(like, pd.CategoricalDtype):
        c = codes.astype(np.int32)
        if miss >= 0:
            del values[miss]
            c = np.where(c == miss, -1, c - (c > miss))
        return pd.Categorical.from_codes(c, categories=pd.Index(values, dtype=object))
    vals = np.array(values + [None], dtype=object)[:-1]  # 1-d even when values are sequences
    if miss >= 0:
        vals[miss] = np.nan
    return vals.take(codes)


def from_table(tbl, like=None, order=None):
    """A DataFrame of a table's rows. like: the input DataFrame (or a dict of
    name -> dtype) whose column types the result follows where it can;
    order: the rows in the order to give them (uint32 array), or None."""
    dtypes = like.dtypes.items() if isinstance(like, pd.DataFrame) else (like or {}).items()
    dtypes = {str(k): v for k, v in dtypes}
    names = tbl.names
    data = {}
    for j, name in enumerate(names):
        data[name] = column_from_table(tbl, j, dtypes.get(name) if like is not None else None, order)
    return pd.DataFrame(data, columns=names, copy=False)
