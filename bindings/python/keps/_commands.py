"""Every keps command as a Python function, over the library's command layer
(keps/command.h: keps_run and its parameter catalog), not over the CLI.

A command's parameters are the CLI's long options with underscores for
dashes (``suppress``, ``keep_order``, ``l_diversity``; ``from_`` for
``--from``). A value is a string, a number, a bool (flags), a list (a
repeatable parameter), a DataFrame or a path (a parameter naming an input
file); ``qi`` also takes a dict {column: hierarchy}, the hierarchy a path, a
builder spec ("interval=5,10,20"), a DataFrame or a dict. The data is the
first argument (a DataFrame or a path). Each call returns a Result: the
release as a DataFrame (or None), the report as a dict with the keys of the
CLI's JSON report, the summary the CLI prints, and the other outputs.

Messages: warnings that weaken privacy (seed=, rows kept in order, bounds
read from the data) are keps.PrivacyWarning, other warnings
keps.KepsWarning, notes go to the "keps" logger. Errors raise
keps.InputError / JobError / ResourceError with the library's message,
parameters spelled as Python keywords.
"""
import difflib
import functools
import inspect
import json
import logging
import numbers
import os
import warnings

import numpy as np
import pandas as pd

from . import _core, _frame
from ._errors import KepsWarning, PrivacyWarning
from ._progress import progress_callback

__all__ = ["Result", "run", "catalog", "COMMANDS"]

# keps/command.h's parameter flags
REPEAT, NUMBER, PATH, OUTPUT, POSITIONAL, REST, COMMON, RELEASE = 1, 2, 4, 8, 16, 32, 64, 128
# The commands that are package functions (privacy's calculators are keps.privacy.*).
COMMANDS = ("anonymize", "kepsilon", "dpmicro", "safela", "rr", "verify", "risk", "evaluate", "split", "audit")

# A release (the parameter flagged RELEASE: anonymize's output, ...) always comes back, as
# Result.release; other outputs (risk's per-record table, split's test part, a SQL script)
# are asked for with NAME=True and come back in Result.outputs.
_log = logging.getLogger("keps")


class Param:
    __slots__ = ("name", "short", "metavar", "flags", "help", "example")

    def __init__(self, name, short, metavar, flags, help, example):
        self.name, self.short, self.metavar, self.flags = name, short, metavar, flags
        self.help, self.example = help, example

    @property
    def keyword(self):
        return keyword(self.name)

    @property
    def is_flag(self):
        return self.metavar is None


def keyword(name):
    """A parameter's Python spelling: dashes as underscores, a trailing
    underscore for a Python keyword (the library's spell callback agrees)."""
    k = name.replace("-", "_")
    return k + "_" if k in ("from", "in", "is", "as", "if", "or", "and", "not", "for", "with", "global", "lambda",
                            "class", "def", "return", "import", "pass") else k


@functools.lru_cache(maxsize=None)
def catalog():
    """{command: {"summary", "usage", "description", "example", "params": {name: Param}}}
    from the library's catalog (keps_commands)."""
    if not _core.HAS_COMMANDS:
        raise ImportError("this keps library has no command layer (keps/command.h): rebuild the package against a "
                          "newer keps")
    out = {}
    for c in _core.catalog():
        params = {p[0]: Param(*p) for p in c["params"]}
        out[c["name"]] = dict(c, params=params)
    return out


def render(text):
    """Help text with {name} markup as Python keywords."""
    import re

    return re.sub(r"\{([a-z0-9-]+)\}", lambda m: keyword(m.group(1)), text or "")


class Result(tuple):
    """(release, report) with the rest as attributes: release is a DataFrame
    or None, report a dict (the CLI's JSON report), summary the text the CLI
    prints, outputs {parameter: DataFrame or text} for the other outputs
    asked for, messages [(kind, text)], finding True when a check failed
    (verify, audit), printed what the CLI prints as its output (noise)."""

    def __new__(cls, release, report, **rest):
        self = super().__new__(cls, (release, report))
        self.__dict__.update(rest)
        return self

    release = property(lambda self: self[0])
    report = property(lambda self: self[1])

    def __repr__(self):
        rel = "None" if self.release is None else f"<DataFrame {self.release.shape[0]} x {self.release.shape[1]}>"
        return f"Result(release={rel}, report=<{len(self.report or {})} keys>, finding={self.finding})"


def _text(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Number):
        return _frame._format_scalar(v)
    if isinstance(v, (bytes, os.PathLike)):
        return os.fsdecode(v)
    return str(v)


def _unknown(command, key, params):
    names = sorted(p.keyword for p in params.values() if not _hidden(command, p))
    close = difflib.get_close_matches(key, names, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f"; it takes {', '.join(names)}"
    return TypeError(f"keps.{command}() got an unexpected keyword argument '{key}'{hint}")


class _Args:
    """The keps_args of one call: (name, text) pairs, in-memory tables and
    in-memory hierarchies."""

    def __init__(self):
        self.params, self.tables, self.hierarchies, self.likes = [], [], [], {}

    def add(self, name, value):
        self.params.append((name, _text(value)))

    def table(self, name, df):
        self.tables.append((name, _frame.to_table(df, source=f"<{keyword(name)}>")))
        self.likes[name] = df

    def hierarchy(self, column, h):
        """A hierarchy given as a DataFrame or dict, in memory (keps_args_hierarchy)."""
        from . import hierarchy

        self.hierarchies.append((str(column), hierarchy.table(h, name=f"<qi {column}>")))


def _qi_values(args, value):
    if not isinstance(value, dict):
        return value if isinstance(value, (list, tuple)) else [value]
    out = []
    for col, h in value.items():
        if h is None:
            out.append(str(col))
        elif isinstance(h, (str, os.PathLike)):
            out.append(f"{col}:{os.fspath(h)}")
        else:
            args.hierarchy(col, h)
    return out


def _build_args(command, data, kwargs):
    params = catalog()[command]["params"]
    by_kw = {p.keyword: p for p in params.values()}
    args = _Args()
    _fill(command, params, by_kw, args, data, kwargs)
    return args


def _fill(command, params, by_kw, args, data, kwargs):
    if data is not None:
        kwargs = dict(kwargs, input=data)
    for key, value in kwargs.items():
        p = by_kw.get(key)
        if p is None or _hidden(command, p) and p.name != "input":
            raise _unknown(command, key, params)
        if value is None or (p.is_flag and value is False):
            continue
        if is_output(p):
            if value is not True:
                raise TypeError(f"keps.{command}(): {key}=True asks for that output (it comes back in the "
                                f"result's outputs); write files from there")
            args.add(p.name, f"<{keyword(p.name)}>")  # keps_run writes no file: a name apart for each
            continue
        values = _qi_values(args, value) if p.name == "qi" else (
            list(value) if p.flags & (REPEAT | REST) and isinstance(value, (list, tuple)) else [value])
        for v in values:
            if isinstance(v, pd.DataFrame):  # in memory, as if the parameter named its file
                args.table(p.name, v)
            else:
                args.add(p.name, v)
    for p in params.values():
        if p.flags & RELEASE:  # the release always comes back
            args.add(p.name, f"<{keyword(p.name)}>")


def _frame_of(tbl, order, like):
    if tbl is None:
        return None
    return _frame.from_table(tbl, like=like, order=None if order is None else np.frombuffer(order, dtype=np.uint32))


def _tell(messages):
    for kind, text in messages:
        if kind == 2:
            warnings.warn(text, PrivacyWarning, stacklevel=4)
        elif kind == 1:
            warnings.warn(text, KepsWarning, stacklevel=4)
        else:
            _log.info(text)


def run(command, data=None, /, *, progress=None, quiet=False, **kwargs):
    """Runs keps command `command` (as the CLI's `keps COMMAND`) on data (a
    DataFrame or a path) with the given parameters; returns a Result.
    `command` and `data` are positional-only, so that a parameter of the
    same name (audit's `command`: the words of the audited run) passes
    through kwargs."""
    if command not in catalog():
        raise ValueError(f"no keps command {command!r}; there are {', '.join(catalog())}")
    args = _build_args(command, data, kwargs)
    with progress_callback(progress) as cb:
        try:
            res, messages = _core.run(command, args.params, args.tables, args.hierarchies, cb, bool(quiet),
                                      str(kwargs.get("missing") or ""))
        except Exception as e:
            _tell(getattr(e, "messages", ()))
            raise
    _tell(messages)
    like = args.likes.get("input")
    outputs = {}
    for param, tbl, order, text in res["outputs"]:
        outputs[keyword(param)] = text if tbl is None else _frame_of(tbl, order, None)
    report = json.loads(res["report"]) if res["report"] else None
    return Result(_frame_of(res["release"], res["order"], like), report, summary=res["summary"], outputs=outputs,
                  messages=messages, finding=res["finding"], printed=res["printed"])


def is_output(p):
    """Is p a file the command's result is written to (asked for with True)?"""
    return bool(p.flags & OUTPUT)


def _hidden(command, p):
    """Parameters a Python call does not take: the front-end's own (json,
    quiet, job, help), the input (the data argument), the report (always
    returned) and a release's output (always returned)."""
    return p.flags & (COMMON | RELEASE) or p.name in ("input", "report")


def _signature(command):
    params = catalog()[command]["params"]
    ps = []
    if "input" in params:
        ps.append(inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))
    for p in params.values():
        if _hidden(command, p):
            continue
        ps.append(inspect.Parameter(p.keyword, inspect.Parameter.KEYWORD_ONLY, default=None))
    ps.append(inspect.Parameter("progress", inspect.Parameter.KEYWORD_ONLY, default=None))
    ps.append(inspect.Parameter("quiet", inspect.Parameter.KEYWORD_ONLY, default=False))
    return inspect.Signature(ps)


def docstring(command):
    """The function's help from the catalog: summary, description and one
    line per parameter with an example."""
    c = catalog()[command]
    lines = [render(c["summary"]), "", render(c["description"]).strip(), "", "Parameters:"]
    for p in c["params"].values():
        if _hidden(command, p):
            continue
        ex = (p.example or "").split("\n")[0]
        if is_output(p):  # asked for with True; it comes back in Result.outputs
            ex = "True"
        lines.append(f"  {p.keyword}: {render(p.help)}" + (f" (e.g. {ex})" if ex and not p.is_flag else ""))
    return "\n".join(lines)


def make(command):
    """The package function for a command."""

    def f(data=None, *, progress=None, quiet=False, **kwargs):
        return run(command, data, progress=progress, quiet=quiet, **kwargs)

    f.__name__ = f.__qualname__ = command
    f.__module__ = "keps"
    if _core.HAS_COMMANDS and command in catalog():
        f.__signature__ = _signature(command)
        f.__doc__ = docstring(command)
    return f
