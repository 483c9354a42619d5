"""Bad input gets a clear exception of the documented type whose message names the argument.

Where sacrebleu fails silently (it truncates streams of different lengths with ``zip``) turbobleu
raises a ValueError; where sacrebleu crashes deep inside (a segment with only None references)
turbobleu names the segment.
"""

from __future__ import annotations

import re

import pytest

import turbobleu
from turbobleu._engine import choice as _choice

HYPS = ["the cat sat", "a dog ran"]
REFS = [["the cat sat .", "a dog ran ."]]


def _corpus_entry_points():
    """Every public way to score a corpus, as callables taking (hypotheses, references)."""
    return [
        pytest.param(lambda h, r: turbobleu.corpus_bleu(h, r), id="corpus_bleu"),
        pytest.param(lambda h, r: turbobleu.raw_corpus_bleu(h, r), id="raw_corpus_bleu"),
        pytest.param(lambda h, r: turbobleu.BLEU().corpus_score(h, r), id="BLEU.corpus_score"),
        pytest.param(lambda h, r: turbobleu.BLEU().corpus_stats(h, r), id="BLEU.corpus_stats"),
        pytest.param(
            lambda h, r: turbobleu.BLEU().sentence_scores(h, r), id="BLEU.sentence_scores"
        ),
        pytest.param(
            lambda h, r: turbobleu.BLEU(references=r).corpus_score(h),
            id="BLEU(references=).corpus_score",
        ),
    ]


CORPUS = _corpus_entry_points()


# -- lengths and types -------------------------------------------------------------------------
# (hypotheses, references, exception, message) of each bad corpus input, id'd by what is wrong.
BAD_CORPUS_INPUTS = [
    pytest.param(
        HYPS[:1],
        REFS,
        ValueError,
        r"hypotheses has 1 segments?.*2|2 segments.*hypotheses has 1",
        id="fewer_hypotheses_than_references",
    ),
    pytest.param(
        HYPS + ["extra"],
        REFS,
        ValueError,
        r"hypotheses has 3|3 segments",
        id="more_hypotheses_than_references",
    ),
    pytest.param(
        HYPS,
        [REFS[0], REFS[0][:1]],
        ValueError,
        r"references\[1\] has 1 segments|different lengths",
        id="reference_streams_of_different_lengths",
    ),
    pytest.param(
        ["fine", 7],
        REFS,
        TypeError,
        r"hypotheses\[1\] must be a str, got int",
        id="non_string_hypothesis",
    ),
    pytest.param(
        [None, "fine"],
        REFS,
        TypeError,
        r"hypotheses\[0\] must be a str, got NoneType",
        id="none_hypothesis",
    ),
    pytest.param(
        HYPS,
        [["fine", b"bytes"]],
        TypeError,
        r"references\[0\]\[1\] must be a str or None, got bytes",
        id="non_string_reference",
    ),
    pytest.param(
        "the cat sat",
        [["the cat sat"] * 11],
        TypeError,
        r"hypotheses must be a sequence of strings.*got str",
        id="string_as_hypotheses",
    ),
    pytest.param(
        HYPS,
        "the cat sat .",
        TypeError,
        r"references must be a sequence of reference streams.*got str",
        id="string_as_references",
    ),
    # A single stream passed without the outer list: sacrebleu would zip it letter by letter.
    pytest.param(
        HYPS,
        REFS[0],
        TypeError,
        r"references\[0\] must be a sequence of strings.*got str",
        id="flat_list_of_strings_as_references",
    ),
    pytest.param(
        HYPS,
        [["the cat", None], ["a cat", None]],
        ValueError,
        r"segment 1 has a non-empty hypothesis but no reference",
        id="segment_with_only_none_references",
    ),
]


@pytest.mark.parametrize("hyps, refs, error, message", BAD_CORPUS_INPUTS)
@pytest.mark.parametrize("score", CORPUS)
def test_bad_corpus_input(score, hyps, refs, error, message: str) -> None:
    with pytest.raises(error, match=message):
        score(hyps, refs)


@pytest.mark.parametrize("score", CORPUS)
def test_generator_as_hypotheses(score) -> None:
    with pytest.raises(TypeError, match=r"hypotheses must be a sequence.*got generator"):
        score((h for h in HYPS), REFS)


@pytest.mark.parametrize("score", CORPUS)
def test_empty_inputs(score) -> None:
    with pytest.raises(ValueError, match=r"hypotheses is empty"):
        score([], REFS)
    # like sacrebleu, an empty references argument falls back to the cached references (if any)
    with pytest.raises(ValueError, match=r"references( is empty|: none given)"):
        score(HYPS, [])


def test_no_references_and_none_cached() -> None:
    with pytest.raises(ValueError, match=r"references: none given and none cached"):
        turbobleu.BLEU().corpus_score(HYPS)


# -- sentence_bleu ---------------------------------------------------------------------------
SENTENCE = [
    pytest.param(lambda h, r: turbobleu.sentence_bleu(h, r), id="sentence_bleu"),
    pytest.param(
        lambda h, r: turbobleu.BLEU(effective_order=True).sentence_score(h, r),
        id="BLEU.sentence_score",
    ),
]


@pytest.mark.parametrize("score", SENTENCE)
def test_sentence_bad_arguments(score) -> None:
    with pytest.raises(TypeError, match=r"hypothesis must be a str, got list"):
        score(["the cat"], ["the cat"])
    with pytest.raises(TypeError, match=r"hypothesis must be a str, got NoneType"):
        score(None, ["the cat"])
    with pytest.raises(
        TypeError,
        match=r"references must be a sequence of reference strings"
        r".*got str",
    ):
        score("the cat", "the cat")
    with pytest.raises(TypeError, match=r"references\[1\] must be a str or None, got int"):
        score("the cat", ["the cat", 3])
    with pytest.raises(ValueError, match=r"references is empty"):
        score("the cat", [])
    with pytest.raises(ValueError, match=r"reference.*None"):
        score("the cat", [None, None])


# -- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("order", [0, -1, -100])
def test_max_order_below_one(order: int) -> None:
    with pytest.raises(
        ValueError, match=rf"max_ngram_order must be an integer in 1..256, got {order}"
    ):
        turbobleu.BLEU(max_ngram_order=order)


@pytest.mark.parametrize("order", [2.0, "4", True, None])
def test_max_order_not_an_integer(order) -> None:
    with pytest.raises((TypeError, ValueError), match=r"max_ngram_order"):
        turbobleu.BLEU(max_ngram_order=order)


def assert_option_rejected(option: str, value: object, message: str, pattern: str) -> None:
    """``BLEU(option=value)`` raises a ValueError saying ``message``; ``corpus_bleu`` and
    ``sentence_bleu`` with that option raise one matching ``pattern``."""
    with pytest.raises(ValueError, match=re.escape(message)):
        turbobleu.BLEU(**{option: value})
    with pytest.raises(ValueError, match=pattern):
        turbobleu.corpus_bleu(HYPS, REFS, **{option: value})
    with pytest.raises(ValueError, match=pattern):
        turbobleu.sentence_bleu(HYPS[0], [REFS[0][0]], **{option: value})


@pytest.mark.parametrize("name", ["13b", "13A", "", "moses", "intl ", "zh-cn"])
def test_unknown_tokenizer(name: str) -> None:
    assert_option_rejected("tokenize", name, f"unknown tokenize={name!r}", r"unknown tokenize=")
    with pytest.raises(ValueError, match=r"unknown tokenize="):
        turbobleu.get_tokenizer(name)


def test_sacrebleu_tokenizer_not_provided_yet_is_named() -> None:
    available = set(turbobleu.available_tokenizers())
    assert {"13a", "none"} <= available <= set(turbobleu.BLEU.TOKENIZERS)
    for name in set(turbobleu.BLEU.TOKENIZERS) - set(turbobleu.available_tokenizers()):
        with pytest.raises(ValueError, match=re.escape(f"tokenize={name!r}")):
            turbobleu.BLEU(tokenize=name)


def test_tokenizer_name_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match=r"tokenize must be a tokenizer name \(str\), got int"):
        turbobleu.BLEU(tokenize=13)


@pytest.mark.parametrize("method", ["expo", "Exp", "add_k", "", None, "floor "])
def test_unknown_smoothing(method) -> None:
    message = f"unknown smooth_method={method!r}"
    assert_option_rejected("smooth_method", method, message, r"smooth_method")


@pytest.mark.parametrize("value", ["0.1", [1], True])
def test_smoothing_value_of_the_wrong_type(value) -> None:
    with pytest.raises(TypeError, match=r"smooth_value must be a number or None"):
        turbobleu.BLEU(smooth_method="floor", smooth_value=value)


def test_signature_before_any_scoring() -> None:
    with pytest.raises(ValueError, match=r"Number of references unknown"):
        turbobleu.BLEU().get_signature()


def test_unknown_implementation_choice(monkeypatch) -> None:
    monkeypatch.setenv("TURBOBLEU_IMPL", "fastest")
    with pytest.raises(ImportError, match=r"TURBOBLEU_IMPL must be one of"):
        _choice.decide()


@pytest.mark.parametrize("metric", [turbobleu.BLEU, turbobleu.CHRF], ids=["BLEU", "CHRF"])
def test_references_argument_is_checked_alike_by_bleu_and_chrf(metric) -> None:
    """Both metrics check the outer ``references`` argument with the same messages."""
    with pytest.raises(
        TypeError,
        match=r"^references must be a sequence of reference streams \(lists of strings\), got str$",
    ):
        metric(references="the cat sat .")
    with pytest.raises(
        ValueError, match=r"^references is empty: give at least one reference stream$"
    ):
        metric(references=[])
