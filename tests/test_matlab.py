"""turbobleu.matlab.bleu_evaluation_score: MATLAB's documented examples (seed 003) and edge
cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from turbobleu.matlab import bleu_evaluation_score

# MATLAB's tokenizedDocument splits the final period off: 10 tokens each.
SUMMARY = "The fast brown fox jumped over the lazy dog .".split()
REFERENCES = [
    "The quick brown animal jumped over the lazy dog .".split(),
    "The quick brown fox jumped over the lazy dog .".split(),
]


def test_seed_003_default_weights_give_0_7825() -> None:
    score = bleu_evaluation_score(SUMMARY, REFERENCES)
    assert round(score, 4) == 0.7825
    # p = 9/10, 7/9, 6/8, 5/7 and BP = 1: the fourth root of 0.375.
    assert score == 0.7825422900366437
    assert math.isclose(score, 0.375**0.25, rel_tol=1e-15)


def test_seed_003_unigrams_and_bigrams_give_0_8367() -> None:
    score = bleu_evaluation_score(SUMMARY, REFERENCES, ngram_weights=[0.5, 0.5])
    assert round(score, 4) == 0.8367
    assert score == 0.8366600265340756


def test_weights_are_normalised() -> None:
    assert bleu_evaluation_score(SUMMARY, REFERENCES, [1, 1]) == bleu_evaluation_score(
        SUMMARY, REFERENCES, (0.5, 0.5)
    )
    assert bleu_evaluation_score(
        SUMMARY, REFERENCES, np.array([2.0, 2.0, 2.0, 2.0])
    ) == bleu_evaluation_score(SUMMARY, REFERENCES)


def test_matches_nltk_where_the_two_agree() -> None:
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    for weights in ((0.25,) * 4, (0.5, 0.5), (1 / 3,) * 3):
        assert bleu_evaluation_score(SUMMARY, REFERENCES, weights) == nltk_bleu.sentence_bleu(
            REFERENCES, SUMMARY, weights
        )


def test_identical_candidate_scores_one() -> None:
    assert bleu_evaluation_score(REFERENCES[1], REFERENCES) == 1.0


def test_candidate_shorter_than_the_number_of_weights_scores_zero() -> None:
    assert bleu_evaluation_score(["The", "fast", "fox"], REFERENCES) == 0.0
    assert bleu_evaluation_score(["The", "quick", "fox"], REFERENCES, [0.5, 0.5]) > 0
    assert bleu_evaluation_score([], REFERENCES) == 0.0


def test_all_empty_is_nan() -> None:
    assert math.isnan(bleu_evaluation_score([], [[]]))
    assert math.isnan(bleu_evaluation_score([], []))  # [] is one document without words
    assert math.isnan(bleu_evaluation_score([], [[], []]))


def test_zero_precision_scores_zero_and_zero_weight_ignores_it() -> None:
    cand = "a b c d".split()
    refs = ["a b x c d".split()]
    assert bleu_evaluation_score(cand, refs, [1, 1, 1]) == 0.0  # no trigram matches
    assert bleu_evaluation_score(cand, refs, [1, 1, 0]) == bleu_evaluation_score(cand, refs, [1, 1])


def test_single_reference_as_a_word_vector_and_brevity_penalty() -> None:
    cand = "the cat sat".split()
    one_doc = "the cat sat on the mat".split()
    assert bleu_evaluation_score(cand, one_doc, [1]) == bleu_evaluation_score(cand, [one_doc], [1])
    assert bleu_evaluation_score(cand, one_doc, [1]) == math.exp(1 - 6 / 3)
    # Closest reference length; on a tie the shorter one (4 and 2 are both 1 away from 3).
    assert bleu_evaluation_score(cand, [cand + ["x"], cand[:2]], [1]) == 1.0


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(TypeError, match="candidate must be a sequence of word tokens"):
        bleu_evaluation_score("The fast brown fox", REFERENCES)
    with pytest.raises(TypeError, match="references mixes words and documents"):
        bleu_evaluation_score(SUMMARY, ["The", ["quick"]])
    with pytest.raises(ValueError, match="finite and non-negative"):
        bleu_evaluation_score(SUMMARY, REFERENCES, [0.5, -0.5])
    with pytest.raises(ValueError, match="finite and non-negative"):
        bleu_evaluation_score(SUMMARY, REFERENCES, [0.5, float("nan")])
    with pytest.raises(ValueError, match="empty"):
        bleu_evaluation_score(SUMMARY, REFERENCES, [])
    with pytest.raises(ValueError, match="all zero"):
        bleu_evaluation_score(SUMMARY, REFERENCES, [0, 0])
    with pytest.raises(TypeError, match="real numbers"):
        bleu_evaluation_score(SUMMARY, REFERENCES, ["a", "b"])
    with pytest.raises(TypeError, match="hashable"):
        bleu_evaluation_score([["x"], ["y"]], [[["x"], ["y"]]], [1])
