"""The batch API's errors for inputs of the wrong form: hypotheses must come in the form of their
references (ids, strings or token strings), lists must be lists, ``lengths=`` is for arrays."""

from __future__ import annotations

import numpy as np
import pytest

from turbobleu.batch import ReferenceSets, sentence_bleu_batch
from turbobleu.pairwise import PairwiseBLEU

TEXT_REFS = [["the cat sat"], ["a dog ran"]]
ID_REFS = [[[1, 2, 3]], [[4, 5, 6]]]


@pytest.mark.parametrize(
    "hypotheses, references, message",
    [
        ([[1, 2], [4]], TEXT_REFS, "hypotheses are token ids but the references are strings"),
        (
            np.array([[1, 2], [4, 5]]),
            TEXT_REFS,
            "hypotheses are token ids but the references are strings",
        ),
        (["the cat", "a dog"], ID_REFS, "hypotheses are strings but the references are token ids"),
        (
            [["the", "cat"], ["a"]],
            ID_REFS,
            "hypotheses are lists of token strings but the references are token ids",
        ),
        (
            ["the cat", "a dog"],
            [[["the", "cat"]], [["a", "dog"]]],
            "hypotheses are strings but the references are lists of token strings",
        ),
    ],
)
def test_hypotheses_in_another_form_than_their_references(hypotheses, references, message):
    with pytest.raises(TypeError, match=f"^{message}.*: give both in the same form$"):
        sentence_bleu_batch(hypotheses, references)


def test_hypotheses_without_any_id_pass_whatever_the_references() -> None:
    # No token at all: nothing says which form they are in, so no form error.
    scores = sentence_bleu_batch([[], []], TEXT_REFS)
    assert scores.tolist() == [0.0, 0.0]


def test_pairwise_ids_against_text_references() -> None:
    with pytest.raises(TypeError, match="are token ids but the references are strings"):
        PairwiseBLEU([[1, 2]], ["the cat"])


def test_lengths_apply_to_arrays_only() -> None:
    with pytest.raises(ValueError, match=r"^hyp_lengths applies to arrays .*\(hypotheses is"):
        sentence_bleu_batch([[1, 2]], [[[1, 2]]], hyp_lengths=[2])
    with pytest.raises(ValueError, match=r"^ref_lengths applies to arrays .*\(references is"):
        sentence_bleu_batch([[1, 2]], [[[1, 2]]], ref_lengths=[2])


@pytest.mark.parametrize("bad", ["a string", 42])
def test_inputs_that_are_not_lists(bad) -> None:
    with pytest.raises(
        TypeError, match=r"^hypotheses must be a list of sequences, a 2-D array or a tensor, got"
    ):
        sentence_bleu_batch(bad, [[[1, 2]]])
    with pytest.raises(
        TypeError, match=r"^references must be a list of reference lists, an array or a tensor"
    ):
        ReferenceSets(bad)
