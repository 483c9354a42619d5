"""``import turbobleu`` on CPython with its compiled core missing: one RuntimeWarning that names
the module that failed, the ImportError's text and the fixes; silence when ``TURBOBLEU_IMPL=python``
asks for the pure-Python twin, or on an interpreter where the twin is the design; the scores stay
sacrebleu's.

Each case runs in a fresh interpreter that blocks the compiled modules (a ``None`` entry in
``sys.modules`` for each name of ``compiled_modules.COMPILED``, set before turbobleu is imported),
as an install from the sdist without a C compiler would leave them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest
import sacrebleu

import turbobleu
from conftest import FIXTURE_DATA, read_lines
from turbobleu._engine.compiled_modules import COMPILED

SRC = Path(turbobleu.__file__).resolve().parent.parent
HE_EN = FIXTURE_DATA / "he-en"
HYPS = HE_EN / "hyp.GPT4-5shot.en"
REFS = [HE_EN / "ref.refA.en", HE_EN / "ref.refB.en"]
KERNEL, TOKENIZE = "turbobleu._engine.count._kernel", "turbobleu._engine.text._tokenize"

# The child: blocks the modules named on its stdin, imports turbobleu (the line that the warning
# must point at is IMPORT_LINE), scores the fixture and prints the results as JSON.
CHILD = """\
import json, sys
job = json.load(sys.stdin)
for name in job["block"]:
    sys.modules[name] = None
if job["interpreter"]:
    import types
    sys.implementation = types.SimpleNamespace(**dict(vars(sys.implementation),
                                                      name=job["interpreter"]))
import turbobleu
from turbobleu import batch, cli, significance  # later imports warn no more
from turbobleu._engine import choice
choice.decide()  # deciding again warns no more: once per process, even under -W always
hyps, refs = job["hyps"], job["refs"]
print(json.dumps({
    "implementation": turbobleu.implementation,
    "corpus": turbobleu.corpus_bleu(hyps, refs).score,
    "sentences": [turbobleu.sentence_bleu(h, [r[i] for r in refs]).score
                  for i, h in enumerate(hyps)],
    "chrf": turbobleu.corpus_chrf(hyps, refs).score,
}))
"""
IMPORT_LINE = CHILD.splitlines().index("import turbobleu") + 1
NEEDS_COMPILED = pytest.mark.skipif(
    find_spec(KERNEL) is None or find_spec(TOKENIZE) is None,
    reason="this installation has no compiled modules",
)


def run_child(
    block: Sequence[str],
    impl: Optional[str] = None,
    warning_filter: str = "always::RuntimeWarning",
    interpreter: Optional[str] = None,
) -> subprocess.CompletedProcess:
    """The child, with ``block`` missing, ``TURBOBLEU_IMPL=impl`` (None: unset) and
    ``-W warning_filter`` (``always``: every warning is shown, so that a second one would be)."""
    env: Dict[str, str] = {k: v for k, v in os.environ.items() if k != "TURBOBLEU_IMPL"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    if impl is not None:
        env["TURBOBLEU_IMPL"] = impl
    job = {
        "block": list(block),
        "interpreter": interpreter,
        "hyps": list(read_lines(HYPS)),
        "refs": [list(read_lines(path)) for path in REFS],
    }
    return subprocess.run(
        [sys.executable, "-W", warning_filter, "-c", CHILD],
        env=env,
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_sacrebleu_scores(proc: subprocess.CompletedProcess) -> None:
    """The child ran on the twin and printed sacrebleu's scores."""
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    hyps, refs = list(read_lines(HYPS)), [list(read_lines(path)) for path in REFS]
    assert got["implementation"] == "python"
    assert got["corpus"] == sacrebleu.corpus_bleu(hyps, refs).score
    assert got["sentences"] == [
        sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)
    ]
    assert got["chrf"] == sacrebleu.corpus_chrf(hyps, refs).score


def runtime_warnings(stderr: str) -> List[str]:
    """The first line of each RuntimeWarning the child printed."""
    return [line for line in stderr.splitlines() if ": RuntimeWarning: " in line]


FIRST_LINE = (
    "turbobleu's compiled core is missing: running the pure-Python twin (same scores, slower)."
)


@pytest.mark.parametrize(
    "block, failed",
    [
        pytest.param(COMPILED, KERNEL, id="all-compiled-modules"),
        # Only meaningful where the other compiled modules are installed: in a pure install
        # the kernel is missing too, and the warning rightly names it first.
        pytest.param([TOKENIZE], TOKENIZE, id="the-tokenizer-only", marks=NEEDS_COMPILED),
    ],
)
def test_one_warning_names_the_module_the_error_and_the_fixes(
    block: Sequence[str], failed: str
) -> None:
    proc = run_child(block)
    assert_sacrebleu_scores(proc)
    warnings = runtime_warnings(proc.stderr)
    assert len(warnings) == 1, proc.stderr
    where, _, first = warnings[0].partition(": RuntimeWarning: ")
    assert where == f"<string>:{IMPORT_LINE}"  # the importer's line, not turbobleu's
    # A short first line, then one line each: the cause, the fix (with its command), the choice.
    assert first == FIRST_LINE
    lines = proc.stderr.splitlines()
    if sys.version_info >= (3, 13):  # linecache now knows `-c` code: the source line follows
        assert lines.pop() == "  import turbobleu", proc.stderr
    assert lines[0] == warnings[0] and lines[1:] == [
        f"Cause: importing {failed} failed (import of {failed} halted; None in sys.modules).",
        "Fix: install a compiled wheel, or install a C compiler and reinstall turbobleu:",
        "  pip install --force-reinstall --no-cache-dir turbobleu  (in a checkout: pip install .)",
        "To use the twin on purpose, without this warning: set TURBOBLEU_IMPL=python.",
    ]
    assert max(len(line) for line in lines[2:]) <= 100


def test_the_default_filters_show_it_too() -> None:
    """Without ``-W``: Python's default filters show a RuntimeWarning (once)."""
    proc = run_child(COMPILED, warning_filter="default")
    assert_sacrebleu_scores(proc)
    assert len(runtime_warnings(proc.stderr)) == 1, proc.stderr


def test_an_error_filter_makes_the_import_fail() -> None:
    """What the wheel check relies on: ``-W error::RuntimeWarning`` turns it into a failure."""
    proc = run_child(COMPILED, warning_filter="error::RuntimeWarning")
    assert proc.returncode != 0
    assert "RuntimeWarning: turbobleu's compiled core is missing" in proc.stderr


@pytest.mark.parametrize(
    "impl, interpreter",
    [("python", None), ("PYTHON ", None), (None, "pypy")],
    ids=["TURBOBLEU_IMPL=python", "TURBOBLEU_IMPL=PYTHON-spaced", "not-CPython"],
)
def test_silent_when_the_twin_is_chosen_or_by_design(
    impl: Optional[str], interpreter: Optional[str]
) -> None:
    proc = run_child(COMPILED, impl=impl, interpreter=interpreter)
    assert_sacrebleu_scores(proc)
    assert proc.stderr == ""


def test_a_cython_request_still_fails_with_its_own_error() -> None:
    proc = run_child(COMPILED, impl="cython")
    assert proc.returncode != 0
    assert "TURBOBLEU_IMPL=cython but the compiled extension is missing" in proc.stderr
    assert runtime_warnings(proc.stderr) == []


@NEEDS_COMPILED
def test_silent_with_the_compiled_core_present() -> None:
    proc = run_child([], warning_filter="error")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["implementation"] == "cython"
    assert proc.stderr == ""


# The command, as its console script (a __main__ file named turbobleu) or as python -m turbobleu,
# with the compiled modules blocked before turbobleu is imported.
SCRIPT = """\
import sys
for name in {block!r}:
    sys.modules[name] = None
from turbobleu.cli import console_main
sys.exit(console_main())
"""
RUN_MODULE = """\
import runpy, sys
for name in {block!r}:
    sys.modules[name] = None
sys.argv = ["turbobleu"] + sys.argv[1:]
runpy.run_module("turbobleu", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("form", ["console-script", "python-m"])
@pytest.mark.parametrize("asked", [False, True])
def test_the_command_warns_only_when_asked(tmp_path: Path, form: str, asked: bool) -> None:
    """A command run many times would repeat the warning on every call: it gives it only with
    TURBOBLEU_WARN_MISSING_CORE=1 (once). Its scores are sacrebleu's either way."""
    if form == "console-script":
        script = tmp_path / "turbobleu"
        script.write_text(SCRIPT.format(block=list(COMPILED)), encoding="utf-8")
        command = [sys.executable, str(script)]
    else:
        command = [sys.executable, "-c", RUN_MODULE.format(block=list(COMPILED))]
    env = {k: v for k, v in os.environ.items() if k not in ("TURBOBLEU_IMPL", "PYTHONWARNINGS")}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    env.pop("TURBOBLEU_WARN_MISSING_CORE", None)
    if asked:
        env["TURBOBLEU_WARN_MISSING_CORE"] = "1"
    proc = subprocess.run(
        [*command, str(REFS[0]), "-i", str(HYPS), "-b"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    hyps, refs = list(read_lines(HYPS)), [list(read_lines(REFS[0]))]
    assert proc.stdout.strip() == f"{sacrebleu.corpus_bleu(hyps, refs).score:.1f}"
    if asked:
        assert len(runtime_warnings(proc.stderr)) == 1, proc.stderr
        assert runtime_warnings(proc.stderr)[0].endswith(FIRST_LINE)
    else:
        assert proc.stderr == ""
