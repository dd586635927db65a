"""Builds keps's Python package: the extension keps._core over libkeps.

Where libkeps comes from, first match wins:
  1. KEPS_BUILD_DIR=DIR: a CMake build directory of the keps source tree
     (its libkeps.a is linked in; headers from the tree's include/);
  2. KEPS_PKGCONFIG=1: an installed keps found by pkg-config (keps.pc,
     installed by `cmake --install`; PKG_CONFIG_PATH for a prefix);
  3. the source tree this directory sits in, when ../../build/libkeps.a
     exists (./scripts/setup.sh builds it);
  4. pkg-config again.
Offline on Debian: `pip install ./bindings/python` with Debian's
python3-setuptools and python3-wheel (no pyproject.toml, so pip builds
without fetching a build environment).
"""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
TREE = HERE.parent.parent


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        msg = getattr(e, "stderr", "") or str(e)
        raise SystemExit(f"keps: pkg-config {' '.join(args)} failed: {msg.strip()}\n"
                         "Build keps first (./scripts/setup.sh) or install it (cmake --install build) and set "
                         "PKG_CONFIG_PATH to the directory holding keps.pc, or set KEPS_BUILD_DIR.")
    return shlex.split(out)


def from_build_dir(build):
    build = Path(build).resolve()
    lib = build / "libkeps.a"
    include = TREE / "include"
    if not lib.exists():
        raise SystemExit(f"keps: {lib} does not exist: build keps there first "
                         "(cmake -S . -B build && cmake --build build)")
    if not (include / "keps" / "table.h").exists():
        raise SystemExit(f"keps: {include} holds no keps headers: KEPS_BUILD_DIR must be a build of this tree")
    deps = pkg_config("--libs", "libsodium", "yaml-0.1", "jansson")
    return dict(include_dirs=[str(include)], extra_objects=[str(lib)],
                extra_link_args=deps + ["-lcsv", "-pthread", "-lm"]), version_from_tree()


def from_pkgconfig():
    flags = pkg_config("--cflags", "--libs", "keps")
    libdir = pkg_config("--variable=libdir", "keps")
    return dict(extra_compile_args=[f for f in flags if f.startswith("-I")],
                extra_link_args=[f for f in flags if not f.startswith("-I")],
                runtime_library_dirs=libdir), pkg_config("--modversion", "keps")[0]


def version_from_tree():
    m = re.search(r"project\(keps VERSION ([0-9.]+)", (TREE / "CMakeLists.txt").read_text())
    return m.group(1) if m else "0"


def library():
    if os.environ.get("KEPS_BUILD_DIR"):
        return from_build_dir(os.environ["KEPS_BUILD_DIR"])
    if os.environ.get("KEPS_PKGCONFIG") == "1":
        return from_pkgconfig()
    if (TREE / "build" / "libkeps.a").exists() and (TREE / "include" / "keps").is_dir():
        return from_build_dir(TREE / "build")
    return from_pkgconfig()


# Only a build needs the library; `setup.py --version` and friends do not.
if any(a.startswith(("build", "bdist", "install", "develop", "editable")) for a in sys.argv[1:]):
    link, version = library()
else:
    link, version = {}, version_from_tree() if (TREE / "CMakeLists.txt").exists() else "0"

link.setdefault("extra_compile_args", [])
link["extra_compile_args"] += ["-Wall", "-Wextra"]

setup(
    name="keps",
    version=version,
    description="Publish personal microdata safely: k-anonymity and differential privacy (libkeps for pandas)",
    long_description=(HERE / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    packages=["keps"],
    package_data={"keps": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("keps._core", ["keps/_core.c"], **link)],
    python_requires=">=3.9",
    install_requires=["numpy", "pandas"],
    extras_require={"progress": ["tqdm"], "test": ["pytest"]},
    zip_safe=False,
)
