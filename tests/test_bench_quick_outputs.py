"""Smoke runs of the benchmarks write where git ignores: every bench script with ``--quick``
parses its quick options into result files under bench/results/quick/ (or wherever --out-dir
says), which .gitignore covers, while the files of a full run stay visible to git."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, List

import pytest

from conftest import REPO_ROOT, checks_the_repository

BENCH = REPO_ROOT / "bench"
# The scripts with a --quick option: their own, or benchlib.add_results_options(..., quick=...).
QUICK_SCRIPTS = sorted(
    p.name
    for p in BENCH.glob("bench_*.py")
    if any(k in p.read_text(encoding="utf-8") for k in ('"--quick"', "quick="))
)

pytestmark = [
    pytest.mark.skipif(not (REPO_ROOT / ".git").exists(), reason="not a git checkout"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    checks_the_repository,
]


def _bench_module(name: str) -> ModuleType:
    """bench/<name> imported as a module (it finds benchlib beside it)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"_bench_{Path(name).stem}", BENCH / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up while defined)
    spec.loader.exec_module(module)
    return module


def _written(name: str, argv: List[str]) -> List[Path]:
    """The result files that bench/<name> run with ``argv`` would write."""
    module = _bench_module(name)
    assert hasattr(module, "parse_args"), f"bench/{name} has --quick but no parse_args(argv)"
    args: Any = module.parse_args(argv)
    benchlib = sys.modules["benchlib"]
    return list(benchlib.result_paths(args.name, benchlib.results_dir(args)))


def _ignored(path: Path) -> bool:
    done = subprocess.run(
        ["git", "check-ignore", "--quiet", "--no-index", str(path)], cwd=REPO_ROOT, check=False
    )
    assert done.returncode in (0, 1), f"git check-ignore failed on {path}"
    return done.returncode == 0


def test_the_quick_scripts_are_found() -> None:
    assert {"bench_sacrebleu.py", "bench_significance.py", "bench_paired_test.py"} <= set(
        QUICK_SCRIPTS
    )
    for name in QUICK_SCRIPTS:
        assert _bench_module(name).parse_args(["--quick"]).quick, name


@pytest.mark.parametrize("script", QUICK_SCRIPTS)
def test_quick_run_writes_only_ignored_files(script: str) -> None:
    quick = _written(script, ["--quick"])
    assert quick, f"bench/{script} --quick writes no result file?"
    for path in quick:
        assert _ignored(path), f"bench/{script} --quick writes {path}, which git does not ignore"
    for path in _written(script, []):  # a full run's files are results to commit
        assert not _ignored(path), f"bench/{script} writes {path}, which git ignores"
