"""BLEUStats: the container of per-segment integer statistics.

Rows add up: statistics of a partition of a corpus, merged, are the statistics of the corpus, and
the score of their total is the corpus score.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import turbobleu
from conftest import FIXTURE_DATA, assert_same_score, read_lines
from turbobleu import BLEUStats

HE_EN = FIXTURE_DATA / "he-en"
HYPS = read_lines(HE_EN / "hyp.GPT4-5shot.en")
REFS = [read_lines(HE_EN / "ref.refA.en"), read_lines(HE_EN / "ref.refB.en")]


def corpus_stats(order: int = 4, start: int = 0, stop: int = len(HYPS)) -> BLEUStats:
    return turbobleu.BLEU(max_ngram_order=order).corpus_stats(
        HYPS[start:stop], [r[start:stop] for r in REFS]
    )


def test_shape_and_rows() -> None:
    stats = corpus_stats()
    assert len(stats) == 60 and stats.max_order == 4
    rows = stats.rows()
    assert len(rows) == 60 and all(len(r) == 10 for r in rows)
    assert all(type(x) is int for r in rows for x in r)
    assert stats.array.shape == (60, 10) and stats.array.dtype == np.int64
    assert stats.array.tolist() == rows


def test_total_is_the_column_sums_as_python_ints() -> None:
    stats = corpus_stats()
    total = stats.total()
    assert all(type(x) is int for x in total)
    assert total == [sum(col) for col in zip(*stats.rows())]
    assert BLEUStats.empty(3).total() == [0] * 8


def test_array_view_is_read_only_and_shares_the_rows() -> None:
    stats = corpus_stats()
    view = stats.array
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0, 0] = 99
    assert np.shares_memory(view, stats.array)


@given(cut=st.integers(1, len(HYPS) - 1), order=st.integers(1, 8))
@settings(max_examples=25)
def test_partitions_merge_to_the_corpus(cut: int, order: int) -> None:
    whole = corpus_stats(order)
    left, right = corpus_stats(order, 0, cut), corpus_stats(order, cut)
    assert left + right == whole
    assert BLEUStats.merge([left, right]) == whole
    assert BLEUStats.merge([left[: cut // 2], left[cut // 2 :], right]) == whole
    assert [a + b for a, b in zip(left.total(), right.total())] == whole.total()


def test_score_of_merged_partitions_is_the_corpus_score() -> None:
    metric = turbobleu.BLEU()
    parts = [corpus_stats(4, lo, lo + 20) for lo in range(0, 60, 20)]
    merged = BLEUStats.merge(parts)
    want = metric.corpus_score(HYPS, REFS)
    got = metric.score_stats(merged)
    assert_same_score(got, want, "merged partitions")


def test_indexing_keeps_a_container() -> None:
    stats = corpus_stats()
    one = stats[5]
    assert isinstance(one, BLEUStats) and len(one) == 1 and one.rows() == [stats.rows()[5]]
    assert stats[-1].rows() == [stats.rows()[-1]]
    assert stats[10:20].rows() == stats.rows()[10:20]
    assert stats[::7].rows() == stats.rows()[::7]
    picked = stats[np.array([3, 3, 0])]
    assert picked.rows() == [stats.rows()[3], stats.rows()[3], stats.rows()[0]]
    assert stats[np.arange(60) % 2 == 0].rows() == stats.rows()[::2]
    assert len(stats[5:5]) == 0 and stats[5:5].max_order == 4


def test_merge_rules() -> None:
    with pytest.raises(ValueError, match="at least one"):
        BLEUStats.merge([])
    with pytest.raises(ValueError, match="different max orders"):
        corpus_stats(4) + corpus_stats(3)
    empty = BLEUStats.empty(4)
    assert len(empty) == 0 and empty + corpus_stats() == corpus_stats()


def test_construction_checks_the_shape() -> None:
    BLEUStats([[1, 2, 3, 4]], 1)
    BLEUStats(np.zeros((0, 6), dtype=np.int32), 2)
    for rows, order in (([[1, 2, 3]], 1), ([1, 2, 3, 4], 1), (np.zeros((2, 10)), 3)):
        with pytest.raises(ValueError, match="rows must have shape"):
            BLEUStats(rows, order)


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol: int) -> None:
    stats = corpus_stats(6)
    back = pickle.loads(pickle.dumps(stats, protocol=protocol))
    assert back == stats and back.max_order == 6 and back.rows() == stats.rows()
    assert turbobleu.BLEU(max_ngram_order=6).score_stats(back).score == (
        turbobleu.BLEU(max_ngram_order=6).score_stats(stats).score
    )


def test_equality() -> None:
    assert corpus_stats() == corpus_stats()
    assert corpus_stats() != corpus_stats(5)
    assert corpus_stats() != corpus_stats(4, 0, 59)
    assert corpus_stats() != corpus_stats().rows()
    assert "segments=60" in repr(corpus_stats()) and "max_order=4" in repr(corpus_stats())


def test_sacrebleu_internal_names_give_the_same_numbers() -> None:
    """``_extract_corpus_statistics`` and ``_aggregate_and_compute``, which sacrebleu's significance
    code calls, agree with corpus_stats and corpus_score."""
    metric = turbobleu.BLEU()
    rows = metric._extract_corpus_statistics(HYPS, REFS)
    assert rows == corpus_stats().rows()
    assert metric._aggregate_and_compute(rows).score == metric.corpus_score(HYPS, REFS).score
    assert (
        metric._compute_score_from_stats(corpus_stats().total()).score
        == metric.corpus_score(HYPS, REFS).score
    )
