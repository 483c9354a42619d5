"""TER on every WMT23 system against sacrebleu 2.6.0's answers, stored once by
``scripts/ter_reference_answers.py`` in ``tests/fixtures/ter/`` (sacrebleu needs minutes per
option set; the answers never change for the same files): per segment ``[edits, average
reference length]`` compared with ``==``, then the corpus score, edits and reference length.

With TURBOBLEU_TEST_FULL=1 and the compiled build (CI's full-matrix run) every segment of
every system is compared; otherwise the first ``TWIN_SEGMENTS`` of each: always for the
pure-Python twin, which runs at about sacrebleu's speed (the whole matrix would take it hours),
25 segments with TURBOBLEU_TEST_FULL=1 (a local run before a release) and 8 without (the twin: 2 of
the paragraph-level pairs, whose segments are paragraphs of 100-300 words).
A system whose files differ from the ones the answers were computed on (sha256) is skipped,
saying so.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any, Dict, List

import pytest

from conftest import FULL_MATRIX, IMPLEMENTATION, SHARED_DATA, TESTS_DIR, read_lines, requires_wmt23
from turbobleu.ter import TER

ANSWERS = TESTS_DIR / "fixtures" / "ter"
TWIN_SEGMENTS = 25 if FULL_MATRIX else 8
TWIN_PARAGRAPHS = 25 if FULL_MATRIX else 2
PARAGRAPH_PAIRS = ("en-de/", "de-en/")
EVERY_SEGMENT = FULL_MATRIX and IMPLEMENTATION == "cython"


def _answers() -> List[Any]:
    cases = []
    for path in sorted(ANSWERS.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        option_set = path.name.split(".")[0]
        for system, answer in data["systems"].items():
            cases.append(pytest.param(data["options"], answer, id=f"{option_set}-{system}"))
    return cases


CASES = _answers()


def test_every_option_set_has_answers() -> None:
    """The five option sets of the TER issue are stored (defaults, normalized, no_punct,
    case_sensitive, normalized + asian_support), for every system."""
    names = {p.name.split(".")[0] for p in ANSWERS.glob("*.json.gz")}
    assert "defaults" in names, f"no stored answers in {ANSWERS}"
    assert len(CASES) >= 32 * len(names) - 32


@requires_wmt23
@pytest.mark.parametrize("options,answer", CASES)
def test_wmt23_system_equals_sacrebleu(options: Dict[str, bool], answer: Dict[str, Any]) -> None:
    paths = [SHARED_DATA / name for name in answer["files"]]
    digest = hashlib.sha256()
    for p in paths:
        if not p.is_file():
            pytest.skip(f"{p} is absent")
        digest.update(p.read_bytes())
    if digest.hexdigest() != answer["sha256"]:
        pytest.skip(f"{paths[0].parent} changed since the answers were computed: rerun the script")
    paragraphs = answer["files"][0].startswith(PARAGRAPH_PAIRS)
    cut = TWIN_PARAGRAPHS if paragraphs and IMPLEMENTATION == "python" else TWIN_SEGMENTS
    segments = answer["segments"] if EVERY_SEGMENT else min(answer["segments"], cut)
    hyps = read_lines(paths[0])[:segments]
    refs = [read_lines(p)[:segments] for p in paths[1:]]
    want = answer["stats"][:segments]

    metric = TER(**options)
    got = metric._extract_corpus_statistics(hyps, refs)
    mismatched = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not mismatched, (
        f"{len(mismatched)} segments differ, first {mismatched[0]}: "
        f"turbobleu {got[mismatched[0]]} != sacrebleu {want[mismatched[0]]}"
    )
    assert len(got) == len(want)
    if segments == answer["segments"]:
        score = metric.corpus_score(hyps, refs)
        assert (score.score, score.num_edits, score.ref_length) == (
            answer["score"],
            answer["num_edits"],
            answer["ref_length"],
        )


def test_answers_cover_paragraph_pairs_on_200_segments() -> None:
    for case in CASES:
        answer = case.values[1]
        if answer["files"][0].startswith(PARAGRAPH_PAIRS):
            assert answer["segments"] == 200
        assert len(answer["stats"]) == answer["segments"]
