"""``significance.PairedTest`` with BLEU, chrF, chrF++ and TER together, against sacrebleu
2.6.0's ``PairedTest`` on the same systems: the columns (keys and their order), every
``Result`` field (``==``, and the same types) and every ``repr(Result)``, for paired bootstrap
and approximate randomization, with and without AR intervals.

The fixture pair always runs, and WMT23's he-en
when ``../shared/data`` is present: 4 systems, the first 300 lines of each file
(TURBOBLEU_PAIRED_LINES sets another count).
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

import pytest

import turbobleu
from conftest import IMPLEMENTATION, all_corpora
from turbobleu import significance

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu import significance as sb_significance  # noqa: E402

# Lines per system (sacrebleu's tests are Python loops, its TER slow: every line of a WMT23
# pair takes it minutes; bench/bench_paired_test.py checks whole systems).
# The twin's TER is a Python search: it takes 60 lines.
LINES = int(os.environ.get("TURBOBLEU_PAIRED_LINES", "300" if IMPLEMENTATION == "cython" else "60"))


def _systems(corpus: Any) -> Tuple[List[Tuple[str, List[str]]], List[List[str]]]:
    names = list(corpus.systems[:4])
    named = [(name, corpus.hypotheses(name)[:LINES]) for name in names]
    refs = [stream[:LINES] for stream in corpus.reference_streams(corpus.references[:1])]
    return named, refs


def _metrics(lib: Any) -> Dict[str, Any]:
    # keys that are not the score names: sacrebleu ignores them, and so must we
    return {
        "b": lib.BLEU(),
        "c": lib.CHRF(),
        "c++": lib.CHRF(word_order=2),
        "t": lib.TER(),
    }


CORPORA = [c for c in all_corpora() if len(c.systems) >= 2]
# The fixture's he-en and WMT23's he-en (if present), in the full matrix too: every pair takes
# the same code paths, and sacrebleu's side costs about 12 s of CPU per pair and case.
CHOSEN = (
    [c for c in CORPORA if c.name == "fixture/he-en"][:1]
    + [
        c
        for c in CORPORA
        if c.name == "wmt23/he-en"  # sentences (de-en's are paragraphs: slow TER)
    ][:1]
)
CASES = [("bs", 1000, -1), ("ar", 1000, -1), ("ar", 200, 100)]


@pytest.mark.parametrize("test_type,n_samples,n_conf", CASES)
@pytest.mark.parametrize("corpus", CHOSEN, ids=str)
def test_mixed_metrics_equal_sacrebleus(
    corpus: Any, test_type: str, n_samples: int, n_conf: int
) -> None:
    named, refs = _systems(corpus)
    ours_sigs, ours = significance.PairedTest(
        named, _metrics(turbobleu), refs, test_type, n_samples, n_conf
    )()
    theirs_sigs, theirs = sb_significance.PairedTest(
        named, _metrics(sacrebleu), refs, test_type, n_samples, n_conf
    )()
    assert list(ours) == list(theirs) == ["System", "BLEU", "chrF2", "chrF2++", "TER"]
    assert list(ours_sigs) == list(theirs_sigs)
    for key in ours_sigs:
        assert ours_sigs[key].format() == theirs_sigs[key].format()
    assert ours["System"] == theirs["System"]
    for key in list(ours)[1:]:
        assert len(ours[key]) == len(theirs[key]), key
        for mine, want in zip(ours[key], theirs[key]):
            assert vars(mine) == vars(want), key
            assert [type(v) for v in vars(mine).values()] == [
                type(v) for v in vars(want).values()
            ], key
            assert repr(mine) == repr(want)


def test_same_score_name_shares_a_column_last_wins() -> None:
    corpus = CORPORA[0]
    named, refs = _systems(corpus)
    metrics = {"first": turbobleu.BLEU(), "second": turbobleu.BLEU(lowercase=True)}
    sigs, scores = significance.PairedTest(named, metrics, refs, "bs", 100)()
    assert list(scores) == ["System", "BLEU"]
    assert "case:lc" in sigs["BLEU"].format()
    _, alone = significance.PairedTest(
        named, {"x": turbobleu.BLEU(lowercase=True)}, refs, "bs", 100
    )()
    assert scores["BLEU"] == alone["BLEU"]
