"""A metric added with ``register_metric`` runs through ``turbobleu.aggregate.Scorer`` and the
reward class with no edit to turbobleu: the readers take every metric by the same protocol."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, List, Optional, Sequence

import numpy as np
import pytest

from turbobleu._metric import Metric
from turbobleu.aggregate import Scorer
from turbobleu.metric_registry import MetricEntry, register_metric, unregister_metric
from turbobleu.rewards import BLEUReward

NAME = "unigram_f1"


def _row(hyp: str, refs: Sequence[Optional[str]]) -> List[int]:
    """[matches, hyp words, ref words] against the best-matching reference."""
    words = Counter(hyp.split())
    best = [0, sum(words.values()), 0]
    for ref in refs:
        if ref is None:
            continue
        ref_words = Counter(ref.split())
        row = [sum((words & ref_words).values()), sum(words.values()), sum(ref_words.values())]
        if best[2] == 0 or row[0] > best[0]:
            best = row
    return best


def _f1(matches: int, hyp_len: int, ref_len: int) -> float:
    total = hyp_len + ref_len
    return 100.0 * 2 * matches / total if total else 0.0


class F1Score:
    """The toy metric's score object (the readers add segments, skipped and signature)."""

    def __init__(self, score: float) -> None:
        self.score = score


class UnigramF1(Metric):
    """A toy metric: unigram F1 (0-100), for this test only."""

    name = NAME
    score_type = F1Score

    def __init__(self, references: Any = None) -> None:
        self.num_refs = 0
        self._cache_references(references)

    def get_signature(self) -> Any:
        return f"unigram_f1|nrefs:{self.num_refs}"

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> F1Score:
        return F1Score(_f1(*_row(hypothesis, references)))

    def sentence_scores(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        rows = self.additive_rows(list(hypotheses), references)
        return self.sentence_scores_additive(np.asarray(rows))

    def additive_columns(self) -> List[str]:
        return ["matches", "hyp_len", "ref_len"]

    def additive_rows(self, hyps: List[str], streams: List[List[Any]]) -> List[List[int]]:
        return [_row(h, [s[i] for s in streams]) for i, h in enumerate(hyps)]

    def score_additive(self, sums: Sequence[int]) -> F1Score:
        return F1Score(_f1(*sums))

    def sentence_scores_additive(self, rows: np.ndarray) -> np.ndarray:
        return np.array([_f1(*map(int, r)) for r in rows], dtype=np.float64)


@pytest.fixture
def registered() -> Iterator[None]:
    register_metric(MetricEntry(NAME, __name__, "UnigramF1", "unigram F1 options"))
    try:
        yield
    finally:
        unregister_metric(NAME)


HYPS = ["the cat sat", "a dog barks loudly", "hello"]
REFS = [["the cat sat down", "a dog barks", "goodbye"], ["a cat", "the dog barked", "hi"]]


def test_scorer_rows_totals_and_score(registered: None) -> None:
    scorer = Scorer(metric=NAME)
    assert scorer.columns == ["matches", "hyp_len", "ref_len"]
    rows = scorer.rows(HYPS, REFS)
    # row 0: "the cat sat" vs "the cat sat down" (3 matches) beats "a cat" (1)
    assert rows.stats.tolist() == [[3, 3, 4], [3, 4, 3], [0, 1, 1]]
    parts = [
        scorer.rows(HYPS[:1], [r[:1] for r in REFS]),
        scorer.rows(HYPS[1:], [r[1:] for r in REFS]),
    ]
    totals = parts[1].totals() + parts[0].totals()
    assert totals == rows.totals()
    assert totals.sums == [6, 8, 8]
    result = scorer.score(totals)
    assert result.score == 100.0 * 12 / 16
    assert (result.segments, result.skipped) == (3, 0)
    assert result.signature == "unigram_f1|nrefs:2"
    assert scorer.sentence_scores(rows).tolist() == [100.0 * 6 / 7, 100.0 * 6 / 7, 0.0]
    assert f"metric={NAME!r}" in repr(scorer)


def test_scorer_refuses_bleu_options(registered: None) -> None:
    with pytest.raises(ValueError, match=f"tokenize is not an option of metric={NAME!r}"):
        Scorer(metric=NAME, tokenize="13a")


def test_reward(registered: None) -> None:
    refs = [[a, b] for a, b in zip(*REFS)]
    batch = BLEUReward(metric=NAME).score(HYPS + ["x"], refs + [None])
    assert batch.rewards() == [6 / 7, 6 / 7, 0.0, None]
    assert BLEUReward(metric=NAME, scale=100).rewards(HYPS[:1], refs[:1]) == [100.0 * 6 / 7]
    with pytest.raises(ValueError, match=f"pad_id is not an option of metric={NAME!r}"):
        BLEUReward(metric=NAME, pad_id=0)
