"""Integer arguments given as NumPy integers (what indexing or summing an integer array gives:
``group_size=counts[0]``, ``threads=np.int64(4)``) are the same integers: the same results as
Python ints, not a refusal. NumPy bools, floats and 1-D arrays are still refused, naming the
argument. A ``group_size`` that does not give every reference group its samples (however
large) is refused with our words, where it used to overflow with an error that named nothing.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import turbobleu

H = [[1, 2, 3, 4], [2, 3], [5, 6, 7]]
R = [[[1, 2, 3]], [[2, 3, 4], [3]], [[5, 6, 7, 8]]]
TEXTS = ["the cat sat on the mat", "a cat sat", "on the mat"]
INTEGER_KINDS = [np.int64, np.int32, np.uint8, np.array]  # (np.array(n): a 0-d array)


def _plain(value: Any) -> Any:
    return value.tolist() if isinstance(value, np.ndarray) else value


# (argument, a valid Python int, the call with that argument's value)
CALLS: List[Tuple[str, int, Callable[[Any], Any]]] = [
    ("threads", 2, lambda v: turbobleu.sentence_bleu_batch(H, R, threads=v)),
    ("threads", 1, lambda v: turbobleu.self_bleu(H, threads=v)),
    ("threads", 2, lambda v: turbobleu.pairwise_bleu(H, threads=v)),
    ("threads", 1, lambda v: turbobleu.ReferenceSets(R, threads=v).score(H, threads=v)),
    ("max_order", 5, lambda v: turbobleu.ReferenceSets(R, max_order=v).score(H)),
    ("max_order", 2, lambda v: turbobleu.ReferenceSets(R).stats(H, max_order=v)),
    ("max_order", 3, lambda v: turbobleu.sentence_bleu_batch(H, R, turbobleu.SacreBLEURecipe(
        max_order=v))),
    ("max_ngram_order", 2, lambda v: turbobleu.BLEU(max_ngram_order=v).corpus_score(
        TEXTS, [TEXTS]).score),
    ("group_size", 3, lambda v: turbobleu.ReferenceSets(R[:1]).score(H, group_size=v)),
    ("block_rows", 2, lambda v: [b[2].tolist() for b in turbobleu.PairwiseBLEU(H).blocks(v)]),
    ("block_cols", 1, lambda v: [b[2].tolist() for b in turbobleu.PairwiseBLEU(H).blocks(2, v)]),
]  # fmt: skip


@pytest.mark.parametrize("kind", INTEGER_KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize("name, value, call", CALLS, ids=[c[0] for c in CALLS])
def test_a_numpy_integer_is_the_same_integer(
    name: str, value: int, call: Callable[[Any], Any], kind: Callable[[int], Any]
) -> None:
    assert _plain(call(kind(value))) == _plain(call(value))


@pytest.mark.parametrize("bad", [np.True_, np.float64(2.0), np.array([2]), np.array(2.5)])
@pytest.mark.parametrize("name, value, call", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_values_that_are_not_one_integer_are_refused(
    name: str, value: int, call: Callable[[Any], Any], bad: Any
) -> None:
    with pytest.raises((TypeError, ValueError), match=name):
        call(bad)


def test_a_group_size_of_the_whole_batch_puts_every_hypothesis_in_group_zero() -> None:
    prepared = turbobleu.ReferenceSets(R[:1])
    want = turbobleu.sentence_bleu_batch(H, [R[0]] * len(H)).tolist()
    assert prepared.score(H, group_size=3).tolist() == want
    assert prepared.score(H, group=[0, 0, 0]).tolist() == want


@pytest.mark.parametrize("size", [2, 4, 2**63, 10**30])
def test_a_group_size_that_misses_the_groups_is_refused(size: int) -> None:
    prepared = turbobleu.ReferenceSets(R[:1])
    with pytest.raises(ValueError, match=f"group_size={size} needs {size} hypotheses"):
        prepared.score(H, group_size=size)
