"""pad_id is an integer (checked at every token-id entry point, never truncated or compared as a
float), and zero-width arrays are valid input, scored as their list form is (issue 22)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import turbobleu

ENTRY_POINTS = {
    "batch, array": lambda pad: turbobleu.sentence_bleu_batch(
        np.array([[1, 2, 3, 4]]), [[[1, 2, 3, 4]]], pad_id=pad
    ),
    "batch, lists": lambda pad: turbobleu.sentence_bleu_batch(
        [[1, 2, 3, 4]], [[[1, 2, 3, 4]]], pad_id=pad
    ),
    "ReferenceSets": lambda pad: turbobleu.ReferenceSets([[[1, 2]]], pad_id=pad),
    "ReferenceSets.score": lambda pad: turbobleu.ReferenceSets([[[1, 2]]]).score(
        [[1, 2]], pad_id=pad
    ),
    "self_bleu": lambda pad: turbobleu.self_bleu([[1, 2], [1, 2]], pad_id=pad),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("pad", [1.5, 1.0, float("nan"), b"x", "1", True, [1]])
def test_a_pad_id_that_is_not_an_integer_is_a_type_error_naming_it(entry: str, pad: Any) -> None:
    with pytest.raises(TypeError, match="pad_id must be an integer or None, got"):
        ENTRY_POINTS[entry](pad)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("pad", [2**31, -(2**31) - 1, 2**64])
def test_a_pad_id_outside_int32_is_a_value_error_naming_it(entry: str, pad: int) -> None:
    with pytest.raises(ValueError, match=r"pad_id must be an integer in -2\*\*31\.\.2\*\*31-1"):
        ENTRY_POINTS[entry](pad)


@pytest.mark.parametrize("pad", [0, np.int64(0), np.int32(0), np.uint8(0)])
def test_integer_pad_ids_of_any_type_drop_the_same_ids(pad: Any) -> None:
    hyp, ref = [[7, 8, 9, 10, 0, 0]], [[[7, 8, 9, 10, 0]]]
    want = turbobleu.sentence_bleu_batch([[7, 8, 9, 10]], [[[7, 8, 9, 10]]])
    assert turbobleu.sentence_bleu_batch(hyp, ref, pad_id=pad).tolist() == want.tolist()
    got = turbobleu.sentence_bleu_batch(np.array(hyp), np.array(ref), pad_id=pad)
    assert got.tolist() == want.tolist()


def test_a_negative_pad_id_drops_padding_on_both_paths() -> None:
    hyp = [[5, 6, 7, 8, -100, -100]]
    want = turbobleu.sentence_bleu_batch([[5, 6, 7, 8]], [[[5, 6, 7, 8]]]).tolist()
    assert turbobleu.sentence_bleu_batch(hyp, [[[5, 6, 7, 8]]], pad_id=-100).tolist() == want
    got = turbobleu.sentence_bleu_batch(np.array(hyp), [[[5, 6, 7, 8]]], pad_id=-100)
    assert got.tolist() == want


ZERO_WIDTH: dict = {
    "hypotheses (1, 0)": (
        lambda: turbobleu.sentence_bleu_batch(np.zeros((1, 0), np.int64), [[[1, 2]]]),
        lambda: turbobleu.sentence_bleu_batch([[]], [[[1, 2]]]),
    ),
    "references (1, 2, 0)": (
        lambda: turbobleu.sentence_bleu_batch([[1, 2]], np.zeros((1, 2, 0), np.int32)),
        lambda: turbobleu.sentence_bleu_batch([[1, 2]], [[[], []]]),
    ),
    "ReferenceSets (2, 0)": (
        lambda: turbobleu.ReferenceSets(np.zeros((2, 0), np.int64)).score([[1], [2]]),
        lambda: turbobleu.ReferenceSets([[[]], [[]]]).score([[1], [2]]),
    ),
    "self_bleu (2, 0)": (
        lambda: turbobleu.self_bleu(np.zeros((2, 0), np.int64)),
        lambda: turbobleu.self_bleu([[], []]),
    ),
}


@pytest.mark.parametrize("case", sorted(ZERO_WIDTH))
def test_zero_width_arrays_score_as_their_list_form(case: str) -> None:
    as_array: Callable[[], Any]
    as_array, as_lists = ZERO_WIDTH[case]
    assert as_array().tolist() == as_lists().tolist()


def test_unpadded_ids_score_as_sacrebleu_does() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    got = turbobleu.sentence_bleu_batch([[7, 8, 9, 10]], [[[7, 8, 9, 10]]])
    assert got.tolist() == [sacrebleu.sentence_bleu("7 8 9 10", ["7 8 9 10"]).score]


def test_an_empty_hypothesis_scores_as_sacrebleu_does() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    got = turbobleu.sentence_bleu_batch(np.zeros((1, 0), np.int64), [[[1, 2]]])
    assert got.tolist() == [sacrebleu.sentence_bleu("", ["1 2"]).score]
