"""DataFrames to keps tables and back.

The reference for what a table must hold is keps's own CSV reader: a frame
pandas read from a file must become the table keps reads from that file
(same dictionaries in the same order, same codes). Cell texts of the mixed
frame are written out by hand below."""
import numpy as np
import pandas as pd
import pytest

import keps
from keps import _frame

from conftest import DATA, missing


def cells(tbl):
    """The table's cells as text, column by column."""
    out = {}
    for j, name in enumerate(tbl.names):
        codes, values, _ = tbl.column(j)
        out[name] = [values[c] for c in np.frombuffer(codes, dtype=np.uint32)]
    return out


def assert_same_tables(a, b):
    assert a.names == b.names
    assert a.nrows == b.nrows
    for j in range(len(a.names)):
        ca, va, ma = a.column(j)
        cb, vb, mb = b.column(j)
        assert va == vb, a.names[j]
        assert ca == cb, a.names[j]
        assert ma == mb, a.names[j]


@pytest.mark.parametrize("name", ["adult/adult.csv", "adult/adult_height.csv", "casc/casc.csv"])
def test_pandas_frame_is_the_table_keps_reads(name):
    path = DATA / name
    if not path.exists():
        missing(f"{path} missing")
    sep = open(path, encoding="utf-8").readline()
    sep = ";" if ";" in sep else ","
    df = pd.read_csv(path, sep=sep, keep_default_na=False, na_values=[""], dtype=None)
    assert_same_tables(_frame.to_table(df), _frame.read_table(path))


def test_categorical_frame_is_the_same_table(adult_path):
    df = pd.read_csv(adult_path, sep=";").astype("category")
    assert_same_tables(_frame.to_table(df), _frame.read_table(adult_path))


MIXED = {
    "cat": pd.Categorical(["b", "a", None, "b", "Zürich"], categories=["a", "b", "Zürich", "unused"]),
    "int": [1, 2, 3, 40, -5],
    "intna": pd.array([1, None, 3, 4, 5], dtype="Int64"),
    "flt": [0.5, np.nan, 170.5, 1e-5, -2.25],
    "whole": [39.0, np.nan, 40.0, 1.0, 2.0],
    "txt": ["東京", None, "", "a,b", "naïve 😀"],
    "date": pd.to_datetime(["2020-03-15", None, "2021-01-01", "1999-12-31", "2020-03-15"]),
    "flag": [True, False, True, True, False],
    "mixed": [1, "x", 2.5, None, pd.NA],
}

# By hand: numbers as the CSV reader would read them back (whole ones
# without a point, others shortest), missing values as the empty field.
MIXED_CELLS = {
    "cat": ["b", "a", "", "b", "Zürich"],
    "int": ["1", "2", "3", "40", "-5"],
    "intna": ["1", "", "3", "4", "5"],
    "flt": ["0.5", "", "170.5", "1e-05", "-2.25"],
    "whole": ["39", "", "40", "1", "2"],
    "txt": ["東京", "", "", "a,b", "naïve 😀"],
    "date": ["2020-03-15", "", "2021-01-01", "1999-12-31", "2020-03-15"],
    "flag": ["True", "False", "True", "True", "False"],
    "mixed": ["1", "x", "2.5", "", ""],
}


def test_mixed_frame_cells():
    tbl = _frame.to_table(pd.DataFrame(MIXED))
    assert cells(tbl) == MIXED_CELLS
    # dictionaries in order of first occurrence, as the CSV reader builds them
    _, values, miss = tbl.column(0)
    assert values == ["b", "a", "", "Zürich"]
    assert miss == 2


def test_mixed_frame_round_trip():
    df = pd.DataFrame(MIXED)
    back = keps.to_keps(df)
    assert list(back.columns) == list(df.columns)
    assert isinstance(back["cat"].dtype, pd.CategoricalDtype)
    assert back["cat"].tolist()[:2] == ["b", "a"] and pd.isna(back["cat"][2]) and back["cat"][4] == "Zürich"
    assert back["int"].dtype == np.int64 and back["int"].tolist() == [1, 2, 3, 40, -5]
    np.testing.assert_array_equal(back["intna"].to_numpy(), [1, np.nan, 3, 4, 5])
    np.testing.assert_array_equal(back["flt"].to_numpy(), df["flt"].to_numpy())
    np.testing.assert_array_equal(back["whole"].to_numpy(), df["whole"].to_numpy())
    # the empty string is the missing token, as an empty CSV field is
    assert back["txt"].tolist()[0] == "東京" and back["txt"].isna().tolist() == [False, True, True, False, False]
    assert back["txt"][4] == "naïve 😀"
    assert back["date"].tolist()[0] == "2020-03-15"
    assert back["flag"].dtype == bool and back["flag"].tolist() == MIXED["flag"]


def test_codes_are_not_numbers():
    # keps's column types: a leading zero makes codes (docs/spec.md, section 1)
    df = pd.DataFrame({"zip": ["01097", "02110", "10115"], "n": ["1", "2", "3"]})
    back = keps.to_keps(df)
    assert back["zip"].tolist() == ["01097", "02110", "10115"]
    # text stays text even when keps could read it as numbers: the caller said so
    assert back["n"].tolist() == ["1", "2", "3"]


def test_missing_token():
    df = pd.DataFrame({"a": ["x", None, "NA", ""]})
    tbl = _frame.to_table(df, missing="NA")
    assert cells(tbl)["a"] == ["x", "NA", "NA", ""]
    assert tbl.column(0)[2] == 1


def test_read_csv_matches_pandas(adult_path):
    ours = keps.read_csv(adult_path)
    theirs = pd.read_csv(adult_path, sep=";")
    pd.testing.assert_frame_equal(ours, theirs)


@pytest.mark.parametrize("df, words", [
    (pd.DataFrame([[1, 2]], columns=["a", "a"]), "duplicate header name 'a'"),
    (pd.DataFrame({"": [1]}), "has an empty name"),
    (pd.DataFrame({"t": ["ok", "a\0b"]}), "NUL character"),
    (pd.DataFrame({"t": ["\ud800"]}), "not valid Unicode"),
    (pd.DataFrame(index=[0, 1]), "no columns"),
])
def test_bad_frames(df, words):
    with pytest.raises(keps.InputError, match=words) as e:
        _frame.to_table(df)
    assert e.value.exit_code == 2


def test_nul_error_names_row_and_column():
    with pytest.raises(keps.InputError) as e:
        _frame.to_table(pd.DataFrame({"a": [1, 2, 3], "t": ["ok", "ok", "a\0b"]}))
    # rows counted from 1 in a DataFrame: row 3, column 2
    assert str(e.value).startswith("<DataFrame>:3:2: column 't'")


def test_bad_csv_errors(tmp_path):
    p = tmp_path / "ragged.csv"
    p.write_text("a,b\n1,2\n3\n")
    with pytest.raises(keps.InputError, match=r"ragged\.csv:3"):
        keps.read_csv(p)
    with pytest.raises(keps.InputError, match="cannot open"):
        keps.read_csv(tmp_path / "missing.csv")


def test_io_failure_is_a_resource_error():
    # reading /proc/self/mem at offset 0 fails with EIO on Linux: exit code 3
    with pytest.raises(keps.ResourceError) as e:
        keps.read_csv("/proc/self/mem")
    assert e.value.exit_code == 3 and "Input/output error" in str(e.value)
    assert isinstance(e.value, OSError)
