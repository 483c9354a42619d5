"""A metric is a plug: every registered metric implements the ``Metric`` interface, and a toy
metric defined here (unigram F1, a few lines) plugs into the command line (``-m toy``), the
significance tests and ``PairedTest`` through ``register_metric`` alone, with no edit to
shipped code. (``tests/test_readers_plug.py`` plugs one into ``aggregate`` and the rewards.)"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pytest

import turbobleu
from turbobleu import metric_registry, significance
from turbobleu._metric import Metric, Score, Signature
from turbobleu.cli import main as cli_main

HYPS = ["the cat sat on the mat", "a dog barks", "it is raining today", "hello world"]
HYPS_B = ["the cat is on the mat", "the dog barks", "it rains today", "hello there world"]
REFS = [["the cat is on the mat", "a dog is barking", "it is raining", "hello world"]]


# -- the toy metric: unigram F1 over whitespace tokens, rows [hyp len, ref len, matches] ------
class UnigramF1Score(Score):
    name = "UniF1"

    def __init__(self, score: float) -> None:
        self.score, self._mean, self._ci, self._verbose = score, -1.0, -1.0, ""


class UnigramF1Signature(Signature):
    def __init__(self, nrefs: int) -> None:
        self.info = self.shared_fields(nrefs, None, None)
        self.info.update(tok="space", version="toy")


def f1(row: Sequence[Any]) -> float:
    hyp, ref, match = (float(x) for x in row)
    return 0.0 if hyp + ref == 0 else 100 * 2 * match / (hyp + ref)


class UnigramF1Resampler:
    width = 3

    def rows(self, stats: Any, what: str) -> np.ndarray:
        return np.asarray(stats)

    def corpus_score(self, rows: np.ndarray) -> float:
        return f1(rows.sum(axis=0))

    def scores(self, sums: np.ndarray, arithmetic: str) -> np.ndarray:
        return np.array([f1(row) for row in sums], dtype=np.float64)


class UnigramF1(Metric):
    name = "toy"
    score_type = UnigramF1Score

    def __init__(self, references: Optional[Sequence[Sequence[str]]] = None) -> None:
        self._cache_references(references)

    def _prepare_references(self, references: Any, segments: Optional[int]) -> Tuple[Any, int]:
        return [list(s) for s in references], len(references)

    def _prepared_segments(self, prepared: Any) -> int:
        return len(prepared[0])

    def _row(self, hyp: str, refs: List[str]) -> List[int]:
        words = Counter(hyp.split())
        best = max(refs, key=lambda r: sum((words & Counter(r.split())).values()))
        return [len(hyp.split()), len(best.split()), sum((words & Counter(best.split())).values())]

    def segment_rows(self, hypotheses: Sequence[str], references: Any = None) -> List[List[int]]:
        streams = self._references(references, len(hypotheses))
        return [self._row(h, list(refs)) for h, refs in zip(hypotheses, zip(*streams))]

    def corpus_stats(self, hypotheses: Sequence[str], references: Any = None) -> np.ndarray:
        return np.array(self.segment_rows(hypotheses, references), dtype=np.int64).reshape(-1, 3)

    def sum_rows(self, rows: Sequence[Sequence[int]]) -> List[int]:
        return [sum(c) for c in zip(*rows)]

    def score_row(self, row: Any) -> UnigramF1Score:
        return UnigramF1Score(f1(row))

    def corpus_score(self, hypotheses: Sequence[str], references: Any = None) -> UnigramF1Score:
        return self.score_row(self.sum_rows(self.segment_rows(hypotheses, references)))

    def get_signature(self) -> UnigramF1Signature:
        return UnigramF1Signature(self.num_refs)

    def resampler(self) -> UnigramF1Resampler:
        return UnigramF1Resampler()


@pytest.fixture
def toy() -> Iterator[metric_registry.MetricEntry]:
    entry = metric_registry.register_metric(
        metric_registry.MetricEntry("toy", __name__, "UnigramF1", "toy options")
    )
    yield entry
    metric_registry.unregister_metric("toy")


# -- every registered metric implements the interface ----------------------------------------
@pytest.mark.parametrize("name", metric_registry.metric_names())
def test_registered_metric_implements_the_interface(name: str) -> None:
    entry = metric_registry.get_metric(name)
    cls = entry.metric_class()
    assert issubclass(cls, Metric) and cls.name == name
    metric = cls(references=REFS)
    stats = metric.corpus_stats(HYPS)
    rows = metric.segment_rows(HYPS)
    assert np.asarray(stats).tolist() == rows
    total = metric.sum_rows(rows)
    corpus = metric.corpus_score(HYPS)
    assert isinstance(corpus, cls.score_type)
    assert metric.score_row(total).score == corpus.score == metric.score_of_stats(stats).score
    assert isinstance(metric.get_signature(), Signature)
    resampler = metric.resampler()
    assert resampler.width == np.asarray(stats).shape[1]
    assert resampler.corpus_score(significance._rows(stats, resampler, "stats")) == corpus.score
    assert metric._aggregate_and_compute(metric._extract_corpus_statistics(HYPS, None)).score == (
        corpus.score
    )
    assert entry.higher_is_better == cls.higher_is_better
    with pytest.raises(ValueError, match="references have 4"):
        metric.corpus_stats(HYPS[:3])


def test_registration_is_checked(toy: metric_registry.MetricEntry) -> None:
    with pytest.raises(ValueError, match="registered already"):
        metric_registry.register_metric(toy)
    with pytest.raises(ValueError, match="lowercase identifier"):
        metric_registry.register_metric(metric_registry.MetricEntry("Bad Name", "m", "C", "g"))
    with pytest.raises(TypeError, match="MetricEntry"):
        metric_registry.register_metric("toy")  # type: ignore[arg-type]
    assert metric_registry.make_metric("toy").corpus_score(HYPS, REFS).name == "UniF1"


# -- the toy metric through significance, PairedTest and the command line ---------------------
def test_toy_metric_in_the_significance_tests(toy: metric_registry.MetricEntry) -> None:
    metric = toy.metric_class()(references=REFS)
    stats = [metric.corpus_stats(h) for h in (HYPS, HYPS_B)]
    bs = significance.paired_bootstrap(stats[0], stats[1:], metric, 200)
    assert [r.score for r in bs] == [metric.corpus_score(h).score for h in (HYPS, HYPS_B)]
    assert 0 < bs[1].p_value <= 1 and bs[0].p_value is None
    _, scores = significance.PairedTest(
        [("base", HYPS), ("b", HYPS_B)], {"any": metric, "bleu": turbobleu.BLEU()}, REFS, "bs", 200
    )()
    assert list(scores) == ["System", "UniF1", "BLEU"]
    assert scores["UniF1"] == bs


def _files(tmp_path: Path) -> List[str]:
    paths = []
    for name, lines in (("ref", REFS[0]), ("base", HYPS), ("b", HYPS_B)):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def test_toy_metric_on_the_command_line(
    toy: metric_registry.MetricEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, base, b = _files(tmp_path)
    assert cli_main([ref, "-i", base, "-m", "toy", "-f", "json"]) == 0
    single = json.loads(capsys.readouterr().out)
    want = UnigramF1(references=REFS).corpus_score(HYPS)
    assert single["name"] == "UniF1" and single["score"] == round(want.score, 2)

    assert cli_main([ref, "-i", base, b, "-m", "toy", "bleu", "--paired-bs", "-f", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    metric = UnigramF1(references=REFS)
    stats = [metric.corpus_stats(h) for h in (HYPS, HYPS_B)]
    want_bs = significance.paired_bootstrap(stats[0], stats[1:], metric, 1000)
    assert [row["UniF1"] for row in rows] == [r.as_dict() for r in want_bs]
    assert "BLEU" in rows[0]

    assert cli_main([ref, "-i", base, "-m", "nope"]) != 0
    assert "turbobleu computes bleu, chrf, ter, toy" in capsys.readouterr().err
