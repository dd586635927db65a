"""docs/python.md runs as written: its Python blocks execute in order in one
namespace from the repository root, and a block followed by a text block
prints exactly that text."""
import contextlib
import io
import re
import warnings


import keps
from keps import _commands

from conftest import TREE, missing

DOC = TREE / "docs" / "python.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```\n", re.S | re.M)


def blocks():
    if not DOC.exists():
        missing(f"{DOC} missing")
    found = [(m.group(1), m.group(2)) for m in BLOCK.finditer(DOC.read_text(encoding="utf-8"))]
    out = []
    for i, (lang, code) in enumerate(found):
        if lang == "python":
            want = found[i + 1][1] if i + 1 < len(found) and found[i + 1][0] == "text" else None
            out.append((code, want))
    return out


def needs_commands(code):
    return any(f"keps.{c}(" in code for c in _commands.COMMANDS)


def test_tutorial_runs_as_written(monkeypatch):
    code_blocks = blocks()
    assert len(code_blocks) >= 6
    monkeypatch.chdir(TREE)
    ns = {"__name__": "tutorial"}
    for n, (code, want) in enumerate(code_blocks, 1):
        if needs_commands(code) and not keps._core.HAS_COMMANDS:
            continue  # the library's command layer is not in this build
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("error")  # the tutorial must not warn (no seed=)
            exec(compile(code, f"{DOC.name} block {n}", "exec"), ns)
        if want is not None:
            assert buf.getvalue() == want, f"block {n} printed:\n{buf.getvalue()}"


def test_readme_one_liner_runs(monkeypatch, capsys):
    readme = TREE / "README.md"
    if not readme.exists():
        missing(f"{readme} missing")
    lines = re.findall(r"^\s+\.venv/bin/python -c '(.*)'$", readme.read_text(encoding="utf-8"), re.M)
    assert len(lines) == 1
    if needs_commands(lines[0]) and not keps._core.HAS_COMMANDS:
        return
    monkeypatch.chdir(TREE)
    exec(compile(lines[0], "README.md one-liner", "exec"), {"__name__": "readme"})
    assert "k-anonymity" in capsys.readouterr().out
