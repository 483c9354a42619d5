"""pad_id is an integer (checked at every token-id entry point, never truncated or compared as a
float), and zero-width arrays are valid input, scored as their list form is (issue 22).

pad_id may be any value its input can hold (issue 32): any int for Python lists, a value of the
dtype for arrays (0xFFFFFFFF in uint32, 2**64-1 in uint64, negatives in signed arrays); the ids
left after dropping it must be in the kernel's 0..2**31-1."""

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


# Pads at the edges of their dtype: valid wherever the input's dtype can hold them (issue 32).
EDGE_PADS = [
    (np.uint32, 0xFFFFFFFF),
    (np.uint64, 2**64 - 1),
    (np.uint16, 0xFFFF),
    (np.int64, -1),
    (np.int64, 2**63 - 1),
    (np.int64, -(2**63)),
    (np.int32, -(2**31)),
    (np.int8, -128),
]
ROWS = [[5, 6, 7, 8], [6, 7], [], [5, 5, 6, 7, 8, 9]]
REFS = [[[5, 6, 7, 8]], [[6, 7, 8], [7]], [[5]], [[5, 6, 7, 8, 9]]]


def padded(rows: list, dtype: Any, pad: int, extra: int = 2) -> np.ndarray:
    """``rows`` right-padded with ``pad`` to a common width (``extra`` more than the longest)."""
    arr = np.full((len(rows), max(map(len, rows)) + extra), pad, dtype=dtype)
    for i, row in enumerate(rows):
        arr[i, : len(row)] = row
    return arr


@pytest.mark.parametrize("dtype,pad", EDGE_PADS, ids=lambda v: str(v))
def test_a_pad_id_the_dtype_holds_scores_as_the_unpadded_rows(dtype: Any, pad: int) -> None:
    hyps = padded(ROWS, dtype, pad)
    refs = np.stack([padded([r[0] for r in REFS], dtype, pad, 1)], axis=1)  # rows x 1 x width
    want = turbobleu.sentence_bleu_batch(ROWS, REFS).tolist()
    one_ref = [[r[0]] for r in REFS]
    want_one = turbobleu.sentence_bleu_batch(ROWS, one_ref).tolist()
    # As a 2-D array, a list of 1-D arrays, Python lists and against 3-D array references.
    got = turbobleu.sentence_bleu_batch(hyps, REFS, pad_id=pad).tolist()
    assert got == want
    assert turbobleu.sentence_bleu_batch(list(hyps), REFS, pad_id=pad).tolist() == want
    assert turbobleu.sentence_bleu_batch(hyps.tolist(), REFS, pad_id=pad).tolist() == want
    assert turbobleu.sentence_bleu_batch(hyps, refs, pad_id=pad).tolist() == want_one
    prepared = turbobleu.ReferenceSets(refs, pad_id=pad)
    assert prepared.score(hyps, pad_id=pad).tolist() == want_one
    assert prepared.score(hyps.tolist(), pad_id=pad).tolist() == want_one
    want_self = turbobleu.self_bleu(ROWS).tolist()
    assert turbobleu.self_bleu(hyps, pad_id=pad).tolist() == want_self
    want_pairs = turbobleu.pairwise_bleu(ROWS).tolist()
    assert turbobleu.pairwise_bleu(hyps, pad_id=pad).tolist() == want_pairs


@pytest.mark.parametrize("pad", [2**31, -(2**31) - 1, 2**64, 2**64 - 1, -(2**70)])
def test_any_int_pads_python_lists(pad: int) -> None:
    rows = [row + [pad] * (i % 3) for i, row in enumerate(ROWS)]
    want = turbobleu.sentence_bleu_batch(ROWS, REFS).tolist()
    assert turbobleu.sentence_bleu_batch(rows, REFS, pad_id=pad).tolist() == want
    refs = [[ref + [pad] for ref in group] for group in REFS]
    assert turbobleu.sentence_bleu_batch(rows, refs, pad_id=pad).tolist() == want
    assert turbobleu.ReferenceSets(refs, pad_id=pad).score(rows, pad_id=pad).tolist() == want
    assert turbobleu.self_bleu(rows, pad_id=pad).tolist() == turbobleu.self_bleu(ROWS).tolist()


@pytest.mark.parametrize(
    "dtype,pad", [(np.int32, 2**31), (np.uint32, -1), (np.int64, 2**64), (np.uint8, 256)]
)
def test_a_pad_id_the_dtype_cannot_hold_is_refused_naming_it(dtype: Any, pad: int) -> None:
    hyps = padded(ROWS, dtype, 1)
    info = np.iinfo(dtype)
    message = (
        rf"^pad_id must be a value that the dtype of hypotheses \({np.dtype(dtype)}\) can hold, "
        rf"in {info.min}\.\.{info.max}, got {pad}$"
    )
    with pytest.raises(ValueError, match=message):
        turbobleu.sentence_bleu_batch(hyps, REFS, pad_id=pad)
    with pytest.raises(ValueError, match=message.replace("hypotheses", "texts")):
        turbobleu.self_bleu(hyps, pad_id=pad)


def test_ids_left_after_the_padding_must_be_in_the_kernel_range() -> None:
    big = np.array([[5, 0xFFFFFFFE, 0xFFFFFFFF]], dtype=np.uint32)
    rule = r"the ids left after dropping pad_id=4294967295 must be integers in 0\.\.2\*\*31-1"
    with pytest.raises(ValueError, match="^hypotheses holds the id 4294967294: " + rule):
        turbobleu.sentence_bleu_batch(big, [[[5]]], pad_id=0xFFFFFFFF)
    with pytest.raises(ValueError, match=r"^hypotheses\[0\]\[1\] = 4294967294: " + rule):
        turbobleu.sentence_bleu_batch(big.tolist(), [[[5]]], pad_id=0xFFFFFFFF)
    negative = np.array([[5, -3, -1]], dtype=np.int64)
    with pytest.raises(ValueError, match="^hypotheses holds the negative id -3: the ids left"):
        turbobleu.sentence_bleu_batch(negative, [[[5]]], pad_id=-1)


def test_mixed_dtype_vectors_drop_padding_in_their_own_dtype() -> None:
    # Concatenated, uint64 and int8 become float64 (refused as not integers); an empty row's
    # np.array([]) is float64 too.
    want = turbobleu.sentence_bleu_batch([[5, 6, 7, 8], [6, 7], []], REFS[:3]).tolist()
    rows = [np.array([5, 6, 7, 8], np.uint64), np.array([6, 7], np.int8), np.array([])]
    assert turbobleu.sentence_bleu_batch(rows, REFS[:3]).tolist() == want
    pad = 0xFFFF
    rows = [np.array([5, 6, 7, 8, pad], np.uint64), np.array([6, 7, pad], np.uint16), rows[2]]
    assert turbobleu.sentence_bleu_batch(rows, REFS[:3], pad_id=pad).tolist() == want
    rows = [np.array([5, 2**64 - 1], np.uint64), np.array([6, 7, 255], np.uint8)]
    with pytest.raises(ValueError, match=r"^hypotheses\[0\] holds the id 18446744073709551615"):
        turbobleu.sentence_bleu_batch(rows, REFS[:2], pad_id=255)


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
