"""Type information ships with turbobleu and is right.

- a user's file that calls the public API passes ``mypy --strict`` (and a misuse fails it, which
  shows mypy really read turbobleu's types rather than treating the package as untyped);
- the stubs of the compiled modules match the modules (``mypy.stubtest``);
- ``py.typed`` and the stubs sit in the installed package.

mypy runs in a subprocess of this interpreter, so it checks whichever turbobleu this interpreter
imports: the installed wheel when the suite runs against one. Skipped when mypy is not installed.
"""

from __future__ import annotations

import importlib.util
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import turbobleu
from conftest import checks_the_repository
from turbobleu._engine.compiled_modules import COMPILED as ALL_COMPILED

HERE = Path(__file__).resolve().parent
USAGE = HERE / "public_api_usage.py"
ALLOWLIST = HERE / "stubtest_allowlist.txt"
PACKAGE = Path(turbobleu.__file__).resolve().parent
# (the package-relative names of the compiled modules, from their one list)
COMPILED = tuple(m[len("turbobleu.") :] for m in ALL_COMPILED)

# Misuses, each with the error mypy must report for it (a line of this text = a line of the file).
MISUSE = """\
import turbobleu
turbobleu.corpus_bleu(["a"], [["a"]], smooth_method=3)
n: int = turbobleu.sentence_bleu("a", ["a"]).score
turbobleu.BLEU(max_ngram_order="4")
"""
MISUSE_ERRORS = {
    2: 'Argument "smooth_method" to "corpus_bleu" has incompatible type "int"; expected "str"',
    3: 'Incompatible types in assignment (expression has type "float", variable has type "int")',
    4: 'Argument "max_ngram_order" to "BLEU" has incompatible type "str"; expected "int"',
}


def run_mypy(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@checks_the_repository
def test_user_code_passes_mypy_strict_and_misuse_fails(tmp_path: Path) -> None:
    misuse = tmp_path / "misuse.py"
    misuse.write_text(MISUSE, encoding="utf-8")
    # cwd is a scratch folder so that no repository config and no src/ tree are picked up.
    proc = run_mypy(
        [
            "mypy",
            "--strict",
            "--no-color-output",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(USAGE),
            str(misuse),
        ],
        tmp_path,
    )
    out = proc.stdout + proc.stderr
    errors = [line for line in out.splitlines() if ": error: " in line]
    assert not [e for e in errors if USAGE.name in e], out
    reported = {
        int(e.split(":")[1]): e.split(": error: ", 1)[1]
        for e in errors
        if e.startswith(str(misuse)) or e.startswith("misuse.py")
    }
    for line, message in MISUSE_ERRORS.items():
        assert message in reported.get(line, ""), out
    assert proc.returncode == 1, out


@pytest.mark.skipif(
    sys.version_info < (3, 11) and importlib.util.find_spec("typing_extensions") is None,
    reason="the usage file needs typing_extensions before Python 3.11",
)
def test_user_code_runs() -> None:
    runpy.run_path(str(USAGE), run_name="__main__")


@checks_the_repository
def test_compiled_stubs_match_the_compiled_modules(tmp_path: Path) -> None:
    missing = [m for m in COMPILED if importlib.util.find_spec(f"turbobleu.{m}") is None]
    if missing:
        pytest.skip(f"turbobleu is installed without its compiled modules {missing}")
    help_text = run_mypy(["mypy.stubtest", "--help"], tmp_path).stdout
    # Cython extension types cannot be subclassed (PEP 800 "disjoint bases"); the stubs leave that
    # unsaid, which older mypy releases (without this flag) do not check anyway.
    flags = ["--ignore-disjoint-bases"] if "--ignore-disjoint-bases" in help_text else []
    empty_config = tmp_path / "mypy.ini"  # so that no repository config is picked up
    empty_config.write_text("[mypy]\n", encoding="utf-8")
    proc = run_mypy(
        [
            "mypy.stubtest",
            "--concise",
            *flags,
            "--ignore-unused-allowlist",
            "--allowlist",
            str(ALLOWLIST),
            "--mypy-config-file",
            str(empty_config),
            *[f"turbobleu.{m}" for m in COMPILED],
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@checks_the_repository
def test_type_information_is_installed() -> None:
    assert (PACKAGE / "py.typed").is_file()
    for module in COMPILED:
        assert (PACKAGE / (module.replace(".", "/") + ".pyi")).is_file(), module
