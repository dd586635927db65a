"""Hierarchies: loading, validation and the builders. Expected labels are
worked out by hand from the builders' definitions (docs/spec.md, section 1,
"Hierarchy builders"; ARX's labels); the Adult interval hierarchy is also
compared with what `keps hierarchy build` writes."""

import numpy as np
import pandas as pd
import pytest

import keps
from keps import hierarchy as H

from conftest import hierarchy_path, missing


def rows(df):
    return df.astype(str).values.tolist()


def test_interval_by_hand():
    h = H.interval(pd.Series([17, 39, 85], name="age"), [5, 10, 20], top=80)
    # 17: [15-20[ in fives, [10-20[ in tens, [0-20[ in twenties; 85 >= 80 is top-coded
    assert rows(h) == [["17", "[15-20[", "[10-20[", "[0-20[", "*"],
                       ["39", "[35-40[", "[30-40[", "[20-40[", "*"],
                       ["85", ">=80", ">=80", ">=80", "*"]]
    assert h[0].dtype == np.int64  # the leaves keep the data's type


def test_interval_bottom_cuts_the_interval():
    # bottom=18: values below become "<18", and the interval holding 18 starts there
    h = H.interval([15, 19, 25], [10], bottom=18)
    assert rows(h) == [["15", "<18", "*"], ["19", "[18-20[", "*"], ["25", "[20-30[", "*"]]


def test_mask_order_date_coding_by_hand():
    assert rows(H.mask(["01097", "02110"], [1, 2, 3])) == [["01097", "0109*", "010**", "01***", "*"],
                                                          ["02110", "0211*", "021**", "02***", "*"]]
    # runs of 2 then 4 sorted values; numbers sort by value (10 after 9)
    assert rows(H.order([10, 9, 1, 2], [2, 4])) == [["1", "[1, 2]", "[1, 10]", "*"],
                                                    ["2", "[1, 2]", "[1, 10]", "*"],
                                                    ["9", "[9, 10]", "[1, 10]", "*"],
                                                    ["10", "[9, 10]", "[1, 10]", "*"]]
    d = H.date(pd.to_datetime(pd.Series(["2020-03-15", "2021-07-01"])), ["month", "year", "decade"])
    assert rows(d) == [["2020-03-15", "2020-03", "2020", "[2020, 2030[", "*"],
                       ["2021-07-01", "2021-07", "2021", "[2020, 2030[", "*"]]
    assert rows(H.coding([10, 20, 95], bottom=18, top=90)) == [["10", "<18", "*"], ["20", "20", "*"],
                                                              ["95", ">=90", "*"]]


def test_builder_errors():
    with pytest.raises(keps.InputError, match="multiple"):
        H.interval([1, 2, 3], [5, 7])
    with pytest.raises(keps.InputError, match=r"<DataFrame>:3:1: column 'age'"):
        H.interval(pd.Series([20, 30, "old"], name="age"), [10])
    with pytest.raises(TypeError):
        H.coding([1, 2])


def test_adult_interval_equals_the_cli(keps_cli, adult_path, tmp_path):
    out = tmp_path / "age.csv"
    rc, _, err = keps_cli("hierarchy", "build", "-i", adult_path, "--qi", "age:interval=5,10,20,top=80", "-o", out)
    assert rc == 0, err
    cli = pd.read_csv(out, sep=";", header=None)
    ours = H.interval(keps.read_csv(adult_path)["age"], [5, 10, 20], top=80)
    pd.testing.assert_frame_equal(ours, cli)


@pytest.mark.parametrize("name", ["age", "marital-status", "education"])
def test_load_equals_the_file(name):
    p = hierarchy_path(name)
    if not p.exists():
        missing(f"{p} missing")
    ours = H.load(p)
    theirs = pd.read_csv(p, sep=";", header=None, keep_default_na=False)
    assert rows(ours) == rows(theirs)


def test_dict_and_frame_hierarchies():
    want = [["a", "x", "*"], ["b", "x", "*"], ["c", "y", "*"]]
    assert rows(H.validate({"a": ["x", "*"], "b": ["x", "*"], "c": ["y", "*"]})) == want
    assert rows(H.validate(pd.DataFrame(want))) == want
    # leaf-to-root paths of an unbalanced tree: the short one keeps its leaf on the level it lacks
    tree = [["Never-married", "Never-married", "*"], ["Divorced", "leave", "*"]]
    assert rows(H.validate({"Never-married": ["*"], "Divorced": ["leave", "*"]})) == tree
    assert rows(H.validate(pd.DataFrame([["Never-married", "*", None], ["Divorced", "leave", "*"]]))) == tree


def test_invalid_hierarchies():
    # b and a merge at level 1 ("x") but split at level 2: not a hierarchy
    with pytest.raises(keps.InputError, match="<hierarchy>:2"):
        H.validate({"a": ["x", "*"], "b": ["x", "**"]})
    with pytest.raises(keps.InputError, match="exactly one row"):
        H.validate(pd.DataFrame([["a", "*"], ["a", "*"]]))
    with pytest.raises(TypeError):
        H.validate([["a", "*"]])
    with pytest.raises(keps.InputError, match="cannot open"):
        H.load("/nonexistent/h.csv")
