"""The source tree passes its linters and type checker: ruff (lint and format) over the Python
files, mypy over the package, cython-lint over the Cython files. Configuration: pyproject.toml.

These read the repository's files, so they skip where the suite runs without them (a wheel's
test run from the sdist has no src/ tree) or where a tool is not installed (``pip install
'.[checks]'`` installs them all)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from conftest import checks_the_repository

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "turbobleu"
PYTHON_TREES = ["src", "tests", "bench", "scripts"]

pytestmark = [
    pytest.mark.skipif(not SRC.is_dir(), reason="no src/ tree next to the tests"),
    checks_the_repository,
]


def _run(args: List[str]) -> subprocess.CompletedProcess:
    # The tools' own helpers (cython-lint runs pycodestyle) are found beside this interpreter,
    # also when its virtualenv is not activated.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = dict(os.environ, PATH=path)
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _tool(module: str) -> List[str]:
    pytest.importorskip(module, reason=f"{module} is not installed (pip install '.[checks]')")
    return [sys.executable, "-m", module]


def _program(name: str) -> str:
    """The program ``name`` beside this interpreter (its virtualenv), else on PATH; or skip."""
    here = shutil.which(name, path=str(Path(sys.executable).parent))
    found = here or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install '.[checks]')")
    return found


def test_ruff_lint() -> None:
    proc = _run([_program("ruff"), "check", *PYTHON_TREES])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    proc = _run([_program("ruff"), "format", "--check", *PYTHON_TREES])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_over_the_package() -> None:
    proc = _run([*_tool("mypy"), "--no-color-output"])  # files and options: pyproject.toml
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cython_lint() -> None:
    lint = _program("cython-lint")
    sources = sorted(
        str(p.relative_to(ROOT)) for p in SRC.rglob("*.p[xy][xd]") if p.suffix in (".pyx", ".pxd")
    )
    assert sources, "no Cython sources found"
    proc = _run([lint, *sources])
    assert proc.returncode == 0, proc.stdout + proc.stderr
