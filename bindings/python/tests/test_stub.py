"""keps/__init__.pyi is what tools/gen_stub.py writes from the library's
catalog (regenerate it after the catalog changes), parses as Python, and
names every catalog parameter of every command."""
import ast
import importlib.util

import pytest

import keps
from keps import _commands

from conftest import TREE

PKG = TREE / "bindings" / "python"  # the source tree's package (CI runs a copy of tests/)


def test_stub_is_current():
    if not keps._core.HAS_COMMANDS:
        pytest.skip("the library has no command layer yet")
    spec = importlib.util.spec_from_file_location("gen_stub", PKG / "tools" / "gen_stub.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    want = gen.stub()
    have = (PKG / "keps" / "__init__.pyi").read_text(encoding="utf-8")
    assert have == want, "keps/__init__.pyi is stale: run tools/gen_stub.py"
    tree = ast.parse(have)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for command in _commands.COMMANDS:
        names = {a.arg for a in funcs[command].args.kwonlyargs}
        for p in _commands.catalog()[command]["params"].values():
            if not _commands._hidden(command, p):
                assert p.keyword in names, (command, p.name)
