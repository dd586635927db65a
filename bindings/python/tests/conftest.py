"""Shared fixtures: the keps source tree's data and its CLI, against which
the package's results are compared (same inputs, same library)."""
import json
import os
import subprocess
from pathlib import Path

import pytest

TREE = Path(os.environ.get("KEPS_SOURCE_DIR", Path(__file__).resolve().parents[3]))
DATA = TREE / "data"
ADULT = DATA / "adult" / "adult.csv"


REQUIRE = os.environ.get("KEPS_REQUIRE_CLI") == "1"


def missing(what):
    """Skips a test that needs what is missing (the CLI, the tree's data);
    in CI (KEPS_REQUIRE_CLI=1) that is a failure instead."""
    if REQUIRE:
        pytest.fail(f"{what} (KEPS_REQUIRE_CLI=1: the CLI and the source tree's data must be there)")
    pytest.skip(what)


def hierarchy_path(name):
    return DATA / "adult" / f"adult_hierarchy_{name}.csv"


@pytest.fixture(scope="session")
def keps_binary():
    """The keps CLI's path (KEPS_BINARY, default the tree's build/keps)."""
    exe = Path(os.environ.get("KEPS_BINARY", TREE / "build" / "keps"))
    if not exe.exists():
        missing(f"no keps binary at {exe} (set KEPS_BINARY)")
    return exe


@pytest.fixture(scope="session")
def keps_cli(keps_binary):
    """Runs the keps CLI: keps_cli(*args) -> (exit code, stdout, stderr)."""
    exe = keps_binary

    def run(*args, json_out=False):
        p = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True)
        if json_out:
            assert p.returncode == 0, p.stderr
            return json.loads(p.stdout)
        return p.returncode, p.stdout, p.stderr

    return run


@pytest.fixture(scope="session")
def adult_path():
    if not ADULT.exists():
        missing(f"{ADULT} missing")
    return ADULT


def longest_pause(work):
    """Runs work() on another thread while this one ticks every millisecond:
    (this thread's longest pause, work's duration). With the GIL released
    during work the pause stays far below the duration."""
    import threading
    import time

    done, took = threading.Event(), []

    def run():
        t = time.perf_counter()
        work()
        took.append(time.perf_counter() - t)
        done.set()

    th = threading.Thread(target=run)
    last, gap = time.perf_counter(), 0.0
    th.start()
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        time.sleep(0.001)
    th.join()
    return gap, took[0]
