"""turbobleu.aggregate: statistics rows of any partitioning sum to the single-process corpus score
(the core that the Spark, Ray and torch.distributed modules share; no engine needed here)."""

from __future__ import annotations

import pickle
from typing import List, Sequence, Tuple

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu

import turbobleu
from conftest import FIXTURE_DATA, assert_same_score, read_lines
from turbobleu import metric_registry, significance
from turbobleu.aggregate import Rows, Scorer, Totals, stat_columns

HE_EN = FIXTURE_DATA / "he-en"


def fixture_corpus() -> Tuple[List[str], List[str], List[List[str]]]:
    """Two systems and both references of the he-en fixture."""
    refs = [read_lines(HE_EN / f"ref.{name}.en") for name in ("refA", "refB")]
    return read_lines(HE_EN / "hyp.GPT4-5shot.en"), read_lines(HE_EN / "hyp.NLLB_Greedy.en"), refs


def uneven_bounds(n: int) -> List[Tuple[int, int]]:
    """Partitions of very different sizes, empty ones included."""
    cuts = sorted([0, 0, 1, 1, n // 7, n // 7, n // 2, n - 1, n])
    return list(zip(cuts[:-1], cuts[1:])) + [(n, n)]


def partitioned_totals(scorer: Scorer, hyps: Sequence[str], refs: List[List[str]]) -> Totals:
    parts = [
        scorer.rows(hyps[a:b], [r[a:b] for r in refs]).totals() for a, b in uneven_bounds(len(hyps))
    ]
    return Totals.sum(reversed(parts), scorer.max_order)  # any order of partitions


@pytest.mark.parametrize("tokenize", ["13a", "zh", "char", "intl"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_partitions_sum_to_sacrebleu(tokenize: str, lowercase: bool) -> None:
    hyps, _, refs = fixture_corpus()
    scorer = pickle.loads(pickle.dumps(Scorer(tokenize=tokenize, lowercase=lowercase)))
    got = scorer.score(partitioned_totals(scorer, hyps, refs))
    want = sacrebleu.corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
    assert_same_score(got, want)
    assert got == got and got.segments == len(hyps) and got.skipped == 0
    oracle = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase)
    oracle.corpus_score(hyps, refs)
    assert str(got.signature) == str(oracle.get_signature())
    assert_same_score(
        got, turbobleu.corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
    )


def test_smoothing_options_and_per_row_references() -> None:
    hyps, _, refs = fixture_corpus()
    per_row = [list(r) for r in zip(*refs)]
    per_row[3] = per_row[3][:1]  # rows with fewer references: sacrebleu's None
    streams = [refs[0], [r[1] if len(r) > 1 else None for r in per_row]]
    for options in (
        {"smooth_method": "floor", "smooth_value": 0.2, "effective_order": True},
        {"smooth_method": "add-k", "smooth_value": 2},
        {"smooth_method": "none", "max_ngram_order": 3},
    ):
        scorer = Scorer(**options)
        rows = scorer.rows(hyps, per_row, per_row=True)
        got = scorer.score(rows.totals())
        oracle = sacrebleu.BLEU(**options)
        assert_same_score(got, oracle.corpus_score(hyps, streams))
        assert str(got.signature) == str(oracle.get_signature()), got.signature
        assert got.signature.info["nrefs"] == "var"


def test_sentence_scores_equal_sacrebleu_sentence_bleu() -> None:
    hyps, _, refs = fixture_corpus()
    scorer = Scorer(effective_order=True)
    scores = scorer.sentence_scores(scorer.rows(hyps, refs))
    want = [sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert scores.tolist() == want


@pytest.mark.parametrize("method", [None, 1, 2, 3, 4])
def test_nltk_recipe_partitions(method) -> None:
    hyps, _, refs = fixture_corpus()
    scorer = Scorer("nltk", smoothing_function=method, lowercase=True)
    got = scorer.score(partitioned_totals(scorer, hyps, refs))
    smoothing = (
        None if method is None else getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    )
    want = nltk_bleu.corpus_bleu(
        [[r.lower().split() for r in group] for group in zip(*refs)],
        [h.lower().split() for h in hyps],
        smoothing_function=smoothing,
    )
    assert got.score == want and got.segments == len(hyps)


def test_nltk_sentence_scores() -> None:
    hyps, _, refs = fixture_corpus()
    scorer = Scorer("nltk", smoothing_function=7)
    scores = scorer.sentence_scores(scorer.rows(hyps[:40], [r[:40] for r in refs]))
    smoothing = nltk_bleu.SmoothingFunction().method7
    want = [
        nltk_bleu.sentence_bleu(
            [r[i].split() for r in refs], h.split(), smoothing_function=smoothing
        )
        for i, h in enumerate(hyps[:40])
    ]
    assert scores.tolist() == want


def test_nltk_order_dependent_methods_refused_for_corpus() -> None:
    scorer = Scorer("nltk", smoothing_function=5)
    totals = scorer.rows(["a b c"], [["a b c"]]).totals()
    with pytest.raises(ValueError, match="method5 reads the last sentence"):
        scorer.score(totals)


def test_bad_rows_name_column_and_row() -> None:
    scorer = Scorer()
    with pytest.raises(ValueError, match=r"column 'hyp', row 'id-2': the hypothesis is null"):
        scorer.rows(["a", None], [["a", "b"]], hypothesis_column="hyp", keys=["id-1", "id-2"])
    with pytest.raises(ValueError, match=r"column 'ref', row 1 of this batch: the reference is a"):
        scorer.rows(["a", "b"], [["a", 3]], reference_columns=["ref"])
    with pytest.raises(ValueError, match=r"column 'refs', row 0 of this batch: there is no ref"):
        scorer.rows(["a"], [[]], per_row=True, reference_columns=["refs"])
    with pytest.raises(ValueError, match="reference is null"):
        scorer.rows(["a"], [[float("nan")]])
    with pytest.raises(ValueError, match="no segment to score"):
        scorer.score(Totals.zero(4))


def test_skipped_rows_are_counted_not_lost() -> None:
    scorer = Scorer(on_invalid="skip")
    hyps = ["the cat sat", None, "a dog", "on the mat", 7]
    refs = [["the cat sat down", "x", "a dog ran", None, "y"]]
    rows = scorer.rows(hyps, refs)
    assert rows.skipped.tolist() == [False, True, False, True, True]
    totals = rows.totals()
    assert (totals.segments, totals.skipped) == (2, 3)
    got = scorer.score(totals)
    want = sacrebleu.corpus_bleu(["the cat sat", "a dog"], [["the cat sat down", "a dog ran"]])
    assert_same_score(got, want)
    assert (got.segments, got.skipped) == (2, 3)
    assert np.isnan(scorer.sentence_scores(rows)[[1, 3, 4]]).all()
    assert len(scorer.statistics(rows)) == 2


def test_totals_add_and_check_width() -> None:
    a = Totals([1] * 10, 2, 1, 1, 0)
    b = Totals([2] * 10, 3, 2, 2, 1)
    assert a + b == Totals([3] * 10, 5, 1, 2, 1)
    assert Totals.zero(4) + a == a
    with pytest.raises(ValueError, match="cannot add totals"):
        a + Totals.zero(3)
    assert stat_columns(2) == [
        "sys_len",
        "ref_len",
        "matches_1",
        "matches_2",
        "totals_1",
        "totals_2",
    ]
    with pytest.raises(ValueError, match="recipe must be"):
        Scorer("bleurt")


@pytest.mark.parametrize("metric_name", metric_registry.metric_names())
def test_partition_rows_feed_significance(metric_name: str) -> None:
    """Per-segment rows gathered from partitions give the single-process significance results,
    for every registered metric (TER's rows carry lengths in 64ths: ``statistics`` undoes it)."""
    base, other, refs = fixture_corpus()
    scorer = Scorer(metric=metric_name)
    metric = metric_registry.make_metric(metric_name)

    def gathered(hyps: List[str]):
        parts = [
            scorer.rows(hyps[a:b], [r[a:b] for r in refs]) for a, b in uneven_bounds(len(hyps))
        ]
        return scorer.statistics(Rows.concat(parts))

    single = [metric.corpus_stats(h, refs) for h in (base, other)]
    gathered_base = gathered(base)
    assert np.array_equal(np.asarray(gathered_base), np.asarray(single[0]))
    for test in (significance.paired_bootstrap, significance.paired_approximate_randomization):
        want = test(single[0], [single[1]], metric, n_samples=200, seed=12345)
        got = test(gathered_base, [gathered(other)], scorer.metric, n_samples=200, seed=12345)
        assert [r.as_dict() for r in got] == [r.as_dict() for r in want]


def test_rows_concat_checks_and_old_bleu_stats() -> None:
    scorer = Scorer()
    rows = scorer.rows(["a b c", "d e"], [["a b c", "d"]])
    with pytest.raises(ValueError, match="at least one batch"):
        Rows.concat([])
    chrf_rows = Scorer(metric="chrf").rows(["a b"], [["a b"]])
    with pytest.raises(ValueError, match="cannot join rows of"):
        Rows.concat([rows, chrf_rows])
    with pytest.warns(DeprecationWarning, match="Scorer.statistics"):
        old = rows.bleu_stats()
    assert np.array_equal(np.asarray(old.array), np.asarray(scorer.statistics(rows).array))
