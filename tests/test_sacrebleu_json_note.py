"""The docs' note on sacrebleu's command line failing to print ``--paired-bs`` results as JSON
names exactly the metrics where it fails, and the NumPy it fails under: sacrebleu 2.6.0's chrF
and TER means and confidence intervals are NumPy float32 values, which ``json`` refuses under
NumPy 2; NumPy 1's value-based casting makes them float64, which it prints (measured with
``numpy<2`` and sacrebleu 2.6.0 on CPython 3.11: all three metrics print).

sacrebleu's own command line runs here (``python -m sacrebleu``), on the fixture excerpt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Set

import numpy as np
import pytest

from conftest import FIXTURE_DATA

pytest.importorskip("sacrebleu")

DOCS = Path(__file__).resolve().parent.parent / "docs"
HE_EN = FIXTURE_DATA / "he-en"
NUMPY_2 = int(np.__version__.split(".")[0]) >= 2
# What each page says (whitespace aside), and the metrics it names.
NOTES = {
    "command-line.md": "Under NumPy 2, sacrebleu 2.6.0 fails to print chrF's and TER's "
    "`--paired-bs` results as JSON",
    "migrating/sacrebleu.md": "prints chrF's and TER's `--paired-bs` results as JSON, which "
    "sacrebleu 2.6.0 fails to do under NumPy 2",
}
NAMED = {"chrf", "ter"}


def _failing_metrics() -> Set[str]:
    """The metrics whose ``--paired-bs -f json`` sacrebleu's command line fails to print."""
    failing = set()
    for metric in ("bleu", "chrf", "ter"):
        done = subprocess.run(
            [sys.executable, "-m", "sacrebleu", "ref.refA.en", "-i", "hyp.GPT4-5shot.en"]
            + ["hyp.NLLB_Greedy.en", "-m", metric, "--paired-bs", "-pbsn", "50", "-f", "json"],
            cwd=HE_EN,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            assert "Object of type float32 is not JSON serializable" in done.stderr, done.stderr
            failing.add(metric)
    return failing


def test_the_docs_name_the_metrics_and_the_numpy() -> None:
    for page, note in NOTES.items():
        text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
        assert note in text, page


def test_sacrebleu_fails_where_the_note_says() -> None:
    assert _failing_metrics() == (NAMED if NUMPY_2 else set())
