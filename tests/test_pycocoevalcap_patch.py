"""turbobleu.patch("pycocoevalcap"): code that reaches pycocoevalcap's Bleu through its module, or
through the name ``pycocoevalcap.eval`` (COCOEvalCap) imported, gets turbobleu's class and
pycocoevalcap's numbers; unpatch restores the original everywhere, also in ``pycocoevalcap.eval``
when that module was first imported while the patch was on (checked in a fresh interpreter)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pycocoevalcap_support import caption_set, captured

bleu_module = pytest.importorskip(
    "pycocoevalcap.bleu.bleu", reason="pycocoevalcap is not installed (pip install pycocoevalcap)"
)

import turbobleu  # noqa: E402
from conftest import unpatched_around_each_test  # noqa: E402
from turbobleu import patching  # noqa: E402
from turbobleu import pycocoevalcap as tb  # noqa: E402

ORIGINAL = bleu_module.Bleu
SRC = Path(turbobleu.__file__).resolve().parent.parent


always_unpatched = unpatched_around_each_test("pycocoevalcap", before=True)


def test_patch_replaces_bleu_in_both_modules_and_unpatch_restores() -> None:
    evaluation = pytest.importorskip("pycocoevalcap.eval")
    assert evaluation.Bleu is ORIGINAL
    assert "pycocoevalcap" in turbobleu.patching.available_patches()
    turbobleu.patch("pycocoevalcap")
    assert patching.is_patched("pycocoevalcap")
    assert bleu_module.Bleu is tb.Bleu and evaluation.Bleu is tb.Bleu
    turbobleu.patch("pycocoevalcap")  # idempotent
    turbobleu.unpatch("pycocoevalcap")
    assert bleu_module.Bleu is ORIGINAL and evaluation.Bleu is ORIGINAL
    assert not patching.is_patched("pycocoevalcap")


def test_patched_code_gets_pycocoevalcap_numbers_and_printout() -> None:
    gts, res = caption_set(500, 5, seed=4)
    want = captured(lambda: bleu_module.Bleu(4).compute_score(gts, res))
    with turbobleu.patched("pycocoevalcap"):
        scorer = bleu_module.Bleu(4)  # as a caller that looks the class up at call time
        assert isinstance(scorer, tb.Bleu)
        got = captured(lambda: scorer.compute_score(gts, res))
    assert got == want
    assert bleu_module.Bleu is ORIGINAL


def test_eval_imported_while_patched_is_restored_too() -> None:
    pytest.importorskip("pycocoevalcap.eval")  # (needs only Python to import; Java is for scoring)
    code = textwrap.dedent(
        """
        import turbobleu
        import pycocoevalcap.bleu.bleu as bleu_module
        original = bleu_module.Bleu
        turbobleu.patch("pycocoevalcap")
        import pycocoevalcap.eval as evaluation   # COCOEvalCap's module, first imported now
        from turbobleu.pycocoevalcap import Bleu
        assert evaluation.Bleu is Bleu, evaluation.Bleu
        gts = {1: ["a man riding a wave on a surfboard", "a surfer on a wave"]}
        res = {1: ["a man riding a surfboard on a wave"]}
        patched = evaluation.Bleu(4).compute_score(gts, res, verbose=0)
        turbobleu.unpatch("pycocoevalcap")
        assert bleu_module.Bleu is original and evaluation.Bleu is original, evaluation.Bleu
        assert evaluation.Bleu(4).compute_score(gts, res, verbose=0) == patched
        print("ok")
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
