"""Every input gets a clear answer (issue 22): a correct score, or a TypeError/ValueError whose
message starts with the argument's name (and row, column) and says what was expected.

The first tests are the issue's reproducers, one by one. The drop-ins (``turbobleu.nltk``,
``turbobleu.sentence_bleu``/``corpus_bleu``) raise what their originals raise where the originals
accept the argument's type; those cases are at the end and compare with the original.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import turbobleu
import turbobleu.nltk
from turbobleu._engine.validate import MAX_ORDER


def raises_naming(call: Callable[[], Any], error: type, name: str) -> str:
    """The message of ``error`` raised by ``call``, checked to start with ``name``."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert message.startswith(name), f"{message!r} does not start with {name!r}"
    return message


# -- the reproducers ----------------------------------------------------------------------
@pytest.mark.parametrize("hyps", [np.array([[1, 2, 3, 4]]), [[1, 2, 3, 4]]])
def test_a_float_pad_id_is_refused_on_both_paths(hyps: Any) -> None:
    # It was truncated on the list path (1.5 -> 1, dropping id 1) and compared as a float on the
    # array path: an identical pair scored 59.46.
    message = raises_naming(
        lambda: turbobleu.sentence_bleu_batch(hyps, [[[1, 2, 3, 4]]], pad_id=1.5),
        TypeError,
        "pad_id",
    )
    assert "integer" in message


def test_an_integer_pad_id_drops_exactly_that_id_on_both_paths() -> None:
    arr = turbobleu.sentence_bleu_batch(np.array([[1, 2, 3, 4]]), [[[1, 2, 3, 4]]], pad_id=1)
    lst = turbobleu.sentence_bleu_batch([[1, 2, 3, 4]], [[[1, 2, 3, 4]]], pad_id=1)
    assert arr.tolist() == lst.tolist() == [100.00000000000004]


def test_zero_width_arrays_score_as_empty_rows() -> None:
    want = turbobleu.sentence_bleu_batch([[]], [[[1, 2]]])
    got = turbobleu.sentence_bleu_batch(np.zeros((1, 0), np.int64), [[[1, 2]]])
    assert got.tolist() == want.tolist() == [0.0]
    assert turbobleu.ReferenceSets(np.zeros((2, 0), np.int64)).num_groups == 2
    assert turbobleu.self_bleu(np.zeros((2, 0), np.int64)).tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    "pad_id,error",
    [(b"x", TypeError), (2**64, ValueError), (float("nan"), TypeError), (True, TypeError)],
)
def test_bad_pad_ids_name_pad_id(pad_id: Any, error: type) -> None:
    # 2**64 pads Python lists (any int may), not an int64 array, which cannot hold it.
    raises_naming(
        lambda: turbobleu.sentence_bleu_batch(np.array([[1]]), [[[1]]], pad_id=pad_id),
        error,
        "pad_id",
    )


def test_a_flat_id_list_as_hypotheses_names_the_row() -> None:
    message = raises_naming(
        lambda: turbobleu.sentence_bleu_batch([1, 2, 3], [[[1, 2, 3]]]),
        TypeError,
        "hypotheses[0]",
    )
    assert "sequence of token ids" in message and "int" in message


@pytest.mark.parametrize("bad", [None, {1: 2}, {1, 2}, frozenset([1]), 7, (x for x in [1])])
def test_self_bleu_rows_that_are_no_sequence_name_the_row(bad: Any) -> None:
    raises_naming(lambda: turbobleu.self_bleu([bad, [1, 2]]), TypeError, "texts[0]")
    raises_naming(lambda: turbobleu.self_bleu([[1, 2], bad]), TypeError, "texts[1]")


@pytest.mark.parametrize("bad", [None, {1: 2}, {1, 2}])
def test_references_that_are_no_sequence_name_group_and_reference(bad: Any) -> None:
    raises_naming(
        lambda: turbobleu.sentence_bleu_batch([[1]], [[[1], bad]]), TypeError, "references[0][1]"
    )
    raises_naming(lambda: turbobleu.ReferenceSets([[[1]], [bad]]), TypeError, "references[1][0]")


def test_a_ragged_group_names_group() -> None:
    refs = turbobleu.ReferenceSets([[[1]], [[2]]])
    message = raises_naming(lambda: refs.score([[1], [2]], group=[[0], 1]), ValueError, "group")
    assert "(2,)" in message


@pytest.mark.parametrize(
    "group,error", [([0.0, 1.0], TypeError), ([0, 2], ValueError), ([0, 2**70], ValueError)]
)
def test_bad_group_indices_name_group(group: Any, error: type) -> None:
    refs = turbobleu.ReferenceSets([[[1]], [[2]]])
    raises_naming(lambda: refs.score([[1], [2]], group=group), error, "group")


def test_a_numpy_array_as_corpus_references_names_references() -> None:
    message = raises_naming(
        lambda: turbobleu.corpus_bleu(["a b"], np.array([1, 2])), TypeError, "references"
    )
    assert "ndarray" in message


def test_a_huge_max_order_is_a_value_error_with_the_range() -> None:
    message = raises_naming(
        lambda: turbobleu.ReferenceSets([[[1]]], max_order=2**31), ValueError, "max_order"
    )
    assert f"1..{MAX_ORDER}" in message
    message = raises_naming(
        lambda: turbobleu.BLEU(max_ngram_order=2**30 - 1, effective_order=True),
        ValueError,
        "max_ngram_order",
    )
    assert f"1..{MAX_ORDER}" in message
    raises_naming(
        lambda: turbobleu.SacreBLEURecipe(max_order=MAX_ORDER + 1), ValueError, "max_order"
    )
    raises_naming(
        lambda: turbobleu.NLTKRecipe(weights=[0.001] * (MAX_ORDER + 1)),
        ValueError,
        "len(weights)",
    )


def test_the_largest_order_is_accepted_and_matches_sacrebleu() -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    hyp, refs = "a b c d e", ["a b c d f"]
    want = sacrebleu.metrics.BLEU(max_ngram_order=MAX_ORDER, effective_order=True)
    got = turbobleu.BLEU(max_ngram_order=MAX_ORDER, effective_order=True)
    assert got.sentence_score(hyp, refs).score == want.sentence_score(hyp, refs).score


# -- valid shapes accepted --------------------------------------------------------------------
ROWS = np.array([[1, 2, 3, 4, 5, 6], [3, 4, 5, 6, 7, 8]])
REFS = [[[1, 3, 5]], [[3, 5, 7]]]


@pytest.mark.parametrize(
    "hyps",
    [
        ROWS[:, ::2],  # non-contiguous
        np.asfortranarray(ROWS[:, ::2]),
        ROWS[:, ::2].astype(">i4"),  # big-endian
        ROWS[:, ::2].astype(np.uint8),
        ROWS[:, ::2].astype(np.int16),
        ROWS[:, ::2].astype(np.uint64),
        list(ROWS[:, ::2]),  # 1-D views, each non-contiguous
        [range(1, 6, 2), (3, 5, 7)],
    ],
    ids=["strided", "fortran", "big-endian", "uint8", "int16", "uint64", "views", "range-tuple"],
)
def test_every_integer_layout_scores_as_the_lists(hyps: Any) -> None:
    want = turbobleu.sentence_bleu_batch([[1, 3, 5], [3, 5, 7]], REFS)
    assert turbobleu.sentence_bleu_batch(hyps, REFS).tolist() == want.tolist()
    stacked = np.stack([ROWS, ROWS], axis=1)[:, :, ::2]  # 3-D references, non-contiguous
    assert turbobleu.sentence_bleu_batch(hyps, stacked).tolist() == [100.00000000000004] * 2


def test_empty_rows_and_zero_width_3d_references_are_accepted() -> None:
    assert turbobleu.sentence_bleu_batch([[], [1]], [[[]], [[1]]]).tolist()[0] == 0.0
    assert turbobleu.sentence_bleu_batch(ROWS, np.zeros((2, 2, 0), np.int32)).tolist() == [0, 0]


# -- ids and sizes are never truncated or wrapped ----------------------------------------------
@pytest.mark.parametrize(
    "hyps,error,name",
    [
        (np.array([[2**64 - 1]], np.uint64), ValueError, "hypotheses"),
        (np.array([[-1]], np.int8), ValueError, "hypotheses"),
        (np.array([[1.0]]), TypeError, "hypotheses"),
        ([[2**31]], ValueError, "hypotheses[0][0]"),
        ([[1, -5]], ValueError, "hypotheses[0][1]"),
        ([[1, 1.0]], TypeError, "hypotheses[0][1]"),
        ([[1, "a"]], TypeError, "hypotheses"),
    ],
)
def test_ids_out_of_range_or_not_integers_are_refused(hyps: Any, error: type, name: str) -> None:
    raises_naming(lambda: turbobleu.sentence_bleu_batch(hyps, [[[1]]]), error, name)


@pytest.mark.parametrize(
    "lengths,error",
    [
        ([[1], 2], ValueError),
        ([1.0, 2.0], TypeError),
        ([2**70, 1], ValueError),
        ([7, 1], ValueError),
    ],
)
def test_bad_lengths_name_the_argument(lengths: Any, error: type) -> None:
    raises_naming(
        lambda: turbobleu.sentence_bleu_batch(ROWS, REFS, hyp_lengths=lengths),
        error,
        "hyp_lengths",
    )
    raises_naming(lambda: turbobleu.self_bleu(ROWS, lengths=lengths), error, "lengths (of texts)")


@pytest.mark.parametrize(
    "call,error,name",
    [
        (lambda: turbobleu.sentence_bleu_batch(None, [[[1]]]), TypeError, "hypotheses"),
        (lambda: turbobleu.sentence_bleu_batch(5, [[[1]]]), TypeError, "hypotheses"),
        (lambda: turbobleu.sentence_bleu_batch([[1]], [{1: 2}]), TypeError, "references[0]"),
        (lambda: turbobleu.sentence_bleu_batch([[1]], [[[1]]], threads=0), ValueError, "threads"),
        (lambda: turbobleu.sentence_bleu_batch([[1], [2]], [[[1]]]), ValueError, "hypotheses"),
        (lambda: turbobleu.sentence_bleu_batch([[1]], [[]]), ValueError, "references[0]"),
        (
            lambda: turbobleu.ReferenceSets([[[1]]]).score([[1]], group_size=0),
            ValueError,
            "group_size",
        ),
        (lambda: turbobleu.ReferenceSets(np.zeros((0, 3), np.int64)), ValueError, "references"),
        (lambda: turbobleu.self_bleu([[1]]), ValueError, "self_bleu"),
        (lambda: turbobleu.sentence_bleu(None, ["a"]), TypeError, "hypothesis"),
        (lambda: turbobleu.sentence_bleu("a", "a"), TypeError, "references"),
        (lambda: turbobleu.corpus_bleu(np.array(["a"]), [["a"]]), TypeError, "hypotheses"),
        (lambda: turbobleu.corpus_bleu(["a"], [[1]]), TypeError, "references[0][0]"),
        (lambda: turbobleu.corpus_bleu(["a"], [{0: "a"}]), TypeError, "references[0]"),
        (lambda: turbobleu.corpus_bleu([1], [["a"]]), TypeError, "hypotheses[0]"),
        (lambda: turbobleu.corpus_bleu(["a", "b"], [["a"]]), ValueError, "references[0]"),
    ],
)
def test_malformed_calls_name_the_argument(call: Callable[[], Any], error: type, name: str) -> None:
    raises_naming(call, error, name)


# -- drop-ins: the original's exception where the original accepts the argument's type -------
def test_nltk_method6_raises_nltks_assertion_error() -> None:
    """NLTK's method6 asserts a non-zero bigram precision: the drop-in raises the same
    AssertionError (not a ValueError), as code written for NLTK expects."""
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    refs, hyp = [["a", "b", "c", "d"]], ["a", "y", "c", "w"]
    with pytest.raises(AssertionError) as original:
        nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=nltk_bleu.SmoothingFunction().method6)
    with pytest.raises(AssertionError) as ours:
        turbobleu.nltk.sentence_bleu(
            refs, hyp, smoothing_function=turbobleu.nltk.SmoothingFunction().method6
        )
    assert str(ours.value) == str(original.value)


def test_the_batch_nltk_recipe_names_the_row_for_method6() -> None:
    """The batch API (no NLTK original) answers the same case with a ValueError naming the row."""
    recipe = turbobleu.NLTKRecipe(smoothing_function=6)
    message = raises_naming(
        lambda: turbobleu.sentence_bleu_batch([[1, 9, 3, 8]], [[[1, 2, 3, 4]]], recipe),
        ValueError,
        "hypotheses[0]",
    )
    assert re.search("AssertionError", message)


@pytest.mark.parametrize(
    "args", [([["a", "b"]], None), (None, ["a"]), ([["a", "b"]], ["a"], (0.5, "a"))]
)
def test_nltk_drop_in_raises_what_nltk_raises(args: Any) -> None:
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    with pytest.raises(Exception) as original:
        nltk_bleu.sentence_bleu(*args)
    with pytest.raises(type(original.value)):
        turbobleu.nltk.sentence_bleu(*args)
