"""turbobleu.aggregate with chrF and TER (``Scorer(metric=...)``): integer rows of any
partitioning, summed in any order, give sacrebleu's corpus score (== on every field, and its
signature); their sentence scores equal sacrebleu's ``sentence_score``. TER's rows carry the
average reference length in 64ths, exact for 1, 2, 4, ... references per segment; other counts
are refused, naming the segment."""

from __future__ import annotations

import functools
import operator
import pickle
from typing import Any, Dict, List, Sequence, Tuple

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import (
    FIXTURE_DATA,
    SHARED_DATA,
    assert_same_score,
    discover_corpora,
    read_lines,
    requires_wmt23,
)
from turbobleu.aggregate import Scorer, Totals

HE_EN = FIXTURE_DATA / "he-en"
ORACLE = {"chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}
OPTION_SETS = [
    ("chrf", {}),
    ("chrf", {"word_order": 2, "lowercase": True}),
    ("chrf", {"whitespace": True, "eps_smoothing": True}),
    ("ter", {}),
    ("ter", {"normalized": True, "no_punct": True}),
    ("ter", {"case_sensitive": True, "asian_support": True, "normalized": True}),
]


def partitioned(scorer: Scorer, hyps: Sequence[str], refs: List[List[Any]], cuts: List[int]):
    """Totals of the partitions between ``cuts``, added last partition first."""
    bounds = list(zip([0] + cuts, cuts + [len(hyps)]))
    parts = [scorer.rows(hyps[a:b], [r[a:b] for r in refs]).totals() for a, b in bounds]
    return functools.reduce(operator.add, reversed(parts), scorer.zero_totals())


def assert_corpus_equal(metric: str, options: Dict[str, Any], got: Any, hyps, refs) -> None:
    oracle = ORACLE[metric](**options)
    want = oracle.corpus_score(hyps, refs)
    assert_same_score(got, want, metric)
    assert str(got.signature) == str(oracle.get_signature())


@pytest.mark.parametrize("metric,options", OPTION_SETS)
def test_partitions_of_the_fixture_sum_to_sacrebleu(metric: str, options: Dict[str, Any]) -> None:
    hyps = read_lines(HE_EN / "hyp.GPT4-5shot.en")
    refs = [read_lines(HE_EN / f"ref.{name}.en") for name in ("refA", "refB")]
    n = len(hyps)
    scorer = pickle.loads(pickle.dumps(Scorer(metric=metric, metric_options=options)))
    for cuts in ([], [0, 1, n // 7, n // 2, n - 1, n]):
        got = scorer.score(partitioned(scorer, hyps, refs, cuts))
        assert got.segments == n and got.skipped == 0
        assert_corpus_equal(metric, options, got, hyps, refs)
    rows = scorer.rows(hyps[:40], [r[:40] for r in refs])
    oracle = ORACLE[metric](**options)
    want = [oracle.sentence_score(h, [a, b]).score for h, a, b in zip(hyps, *refs)][:40]
    assert scorer.sentence_scores(rows).tolist() == want


@requires_wmt23
@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_wmt23_system_in_partitions(metric: str) -> None:
    pair = {c.directory.name: c for c in discover_corpora(SHARED_DATA, "wmt23")}["he-en"]
    hyps = pair.hypotheses(pair.systems[0])[:300]
    refs = [r[:300] for r in pair.reference_streams(pair.references)]
    scorer = Scorer(metric=metric)
    got = scorer.score(partitioned(scorer, hyps, refs, [17, 150, 151]))
    assert_corpus_equal(metric, {}, got, hyps, refs)


words = st.sampled_from(["a", "b", "c", "A", ".", "the", "cat", "猫", "b,", "&amp;", ""])
sentence = st.lists(words, max_size=7).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(sentence, sentence, sentence), min_size=1, max_size=9),
    cuts=st.lists(st.integers(0, 9), max_size=3),
    which=st.sampled_from(OPTION_SETS),
)
def test_generated_partitions(rows: List[Tuple[str, str, str]], cuts, which) -> None:
    metric, options = which
    hyps = [r[0] for r in rows]
    refs = [[r[1] for r in rows], [r[2] for r in rows]]
    cuts = sorted(min(c, len(hyps)) for c in cuts)
    scorer = Scorer(metric=metric, metric_options=options)
    got = scorer.score(partitioned(scorer, hyps, refs, cuts))
    assert_corpus_equal(metric, options, got, hyps, refs)


def test_references_per_row_and_skipped_rows() -> None:
    hyps = ["the cat sat", "a dog", None, "x y z", "hello there"]
    per_row = [["the cat sat on"], ["a dog barks", "a dog barked"], ["b"], ["z y"], []]
    kept = [0, 1, 3]
    for metric in ("chrf", "ter"):
        scorer = Scorer(metric=metric, on_invalid="skip")
        rows = scorer.rows(hyps, per_row, per_row=True)
        assert rows.skipped.tolist() == [False, False, True, False, True]
        got = scorer.score(rows.totals())
        assert (got.segments, got.skipped) == (3, 2)
        oracle = ORACLE[metric]()
        streams = [[per_row[i][k] if k < len(per_row[i]) else None for i in kept] for k in (0, 1)]
        want = oracle.corpus_score([hyps[i] for i in kept], streams)
        assert got.score == want.score
        assert "nrefs:var" in str(got.signature)
        scores = scorer.sentence_scores(rows)
        assert scores[2] != scores[2] and scores[4] != scores[4]  # NaN where skipped
        with pytest.raises(ValueError, match="column 'hypothesis', row 2 of this batch"):
            Scorer(metric=metric).rows(hyps, per_row, per_row=True)


def test_ter_refuses_reference_counts_that_are_not_powers_of_two() -> None:
    scorer = Scorer(metric="ter")
    three = [["a b"], ["a"], ["b"]]
    with pytest.raises(ValueError, match="segment 1 has 3 references: TER summed over"):
        scorer.rows(["a b", "a b"], [["a b"], ["a", "b", "c"]], per_row=True)
    assert scorer.score(scorer.rows(["a b"], three[:2]).totals()).score == 0.0
    chrf = Scorer(metric="chrf")  # chrF's rows are integers whatever the count
    assert chrf.score(chrf.rows(["a b"], three).totals()).score == 100.0


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        ({"metric": "meteor"}, ValueError, "unknown metric 'meteor'"),
        (
            {"metric": "ter", "tokenize": "13a"},
            ValueError,
            "tokenize is not an option of metric='ter'",
        ),
        (
            {"metric": "chrf", "recipe": "nltk"},
            ValueError,
            "recipe is not an option of metric='chrf'",
        ),
        ({"metric_options": {"word_order": 2}}, ValueError, "metric_options is for"),
        ({"metric": "ter", "metric_options": {"beta": 2}}, TypeError, "metric_options for"),
        ({"metric": "chrf", "metric_options": "word_order=2"}, TypeError, "must be a mapping"),
    ],
)
def test_bad_options_are_named(kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        Scorer(**kwargs)


def test_totals_of_another_width_are_refused() -> None:
    scorer = Scorer(metric="ter")
    assert scorer.columns == ["edits", "ref_length_64ths"]
    assert len(Scorer(metric="chrf", metric_options={"word_order": 2}).columns) == 24
    with pytest.raises(ValueError, match="totals have 10 statistics, this scorer needs 2"):
        scorer.score(Totals.zero(4))
    with pytest.raises(ValueError, match="no segment to score"):
        scorer.score(scorer.zero_totals())
    assert "metric='ter'" in repr(scorer)
