"""turbobleu.evaluate against Hugging Face evaluate's BLEU, re-derived here.

The ``evaluate`` package cannot serve as the oracle: its wheel does not contain the BLEU metric,
which ``evaluate.load("bleu")`` downloads from the Hub together with tensorflow/nmt's ``bleu.py``
(tests never download). So the oracle below is written from tensorflow/nmt's published
``compute_bleu`` (master: smoothing on every order, shortest reference, builtin ``sum``, no
zero-length guard) and evaluate's tokenizer, which is sacrebleu's ``Tokenizer13a`` followed by
``str.split()`` (sacrebleu, a test dependency, is used for it; note that evaluate does not
``rstrip`` lines the way sacrebleu's BLEU does).
"""

from __future__ import annotations

import collections
import math
from typing import Any, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import LONG_TESTS, same_typed, system_cases
from turbobleu import evaluate as tbe

sacrebleu_13a = pytest.importorskip("sacrebleu.tokenizers.tokenizer_13a")
_SACRE_13A = sacrebleu_13a.Tokenizer13a()


def oracle_tokenize(line: str) -> List[str]:
    return _SACRE_13A(line).split()


def _grams(segment: Any, max_order: int) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for n in range(1, max_order + 1):
        for i in range(len(segment) - n + 1):
            counts[tuple(segment[i : i + n])] += 1
    return counts


def oracle_compute_bleu(reference_corpus, translation_corpus, max_order=4, smooth=False):
    """tensorflow/nmt compute_bleu, from its published behaviour."""
    matches = [0] * max_order
    possible = [0] * max_order
    ref_len = trans_len = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        ref_len += min(len(r) for r in references)
        trans_len += len(translation)
        merged: collections.Counter = collections.Counter()
        for reference in references:
            merged |= _grams(reference, max_order)
        overlap = _grams(translation, max_order) & merged
        for gram, c in overlap.items():
            matches[len(gram) - 1] += c
        for n in range(1, max_order + 1):
            if len(translation) - n + 1 > 0:
                possible[n - 1] += len(translation) - n + 1
    precisions = []
    for i in range(max_order):
        if smooth:
            precisions.append((matches[i] + 1.0) / (possible[i] + 1.0))
        else:
            precisions.append(float(matches[i]) / possible[i] if possible[i] > 0 else 0.0)
    geo_mean = (
        math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
        if min(precisions) > 0
        else 0
    )
    ratio = float(trans_len) / ref_len
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return (geo_mean * bp, precisions, bp, ratio, trans_len, ref_len)


def oracle_compute(predictions, references, max_order=4, smooth=False):
    if isinstance(references[0], str):
        references = [[r] for r in references]
    refs = [[oracle_tokenize(r) for r in group] for group in references]
    preds = [oracle_tokenize(p) for p in predictions]
    bleu, precisions, bp, ratio, t, r = oracle_compute_bleu(refs, preds, max_order, smooth)
    return {
        "bleu": bleu,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": t,
        "reference_length": r,
    }


def outcome(fn, *args, **kwargs):
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # compared below
        return ("raise", type(exc), str(exc))


# -- examples ------------------------------------------------------------------------------------


def test_readme_example() -> None:
    predictions = ["hello there general kenobi", "foo bar foobar"]
    references = [["hello there general kenobi", "hello there!"], ["foo bar foobar"]]
    want = {
        "bleu": 1.0,
        "precisions": [1.0, 1.0, 1.0, 1.0],
        "brevity_penalty": 1.0,
        "length_ratio": 1.1666666666666667,
        "translation_length": 7,
        "reference_length": 6,
    }
    assert same_typed(tbe.compute(predictions, references), want)
    assert same_typed(
        tbe.load("bleu").compute(predictions=predictions, references=references), want
    )


def test_one_string_per_prediction_and_add_batch() -> None:
    preds = ["the cat sat on the mat", "a dog"]
    assert same_typed(
        tbe.compute(preds, ["the cat is on the mat", "a dog barks"]),
        oracle_compute(preds, [["the cat is on the mat"], ["a dog barks"]]),
    )
    metric = tbe.load("bleu")
    metric.add_batch(predictions=preds[:1], references=[["the cat is on the mat"]])
    metric.add(prediction="a dog", reference=["a dog barks", "the dog"])
    got = metric.compute(max_order=2)
    want = oracle_compute(preds, [["the cat is on the mat"], ["a dog barks", "the dog"]], 2)
    assert same_typed(got, want)
    with pytest.raises(ValueError, match="nothing to score"):
        metric.compute()  # the collected inputs were consumed


def test_smooth_applies_to_unigrams_too_and_shortest_reference_is_used() -> None:
    preds, refs = ["a b c"], [["a b c d e f", "a x"]]
    got = tbe.compute(preds, refs, smooth=True)
    assert got["precisions"][0] == (3 + 1.0) / (3 + 1.0)
    assert got["reference_length"] == 2  # the shortest reference (the closest would be 2 too)
    assert same_typed(got, oracle_compute(preds, refs, smooth=True))
    longer = tbe.compute(["a b c d e"], [["a b c d e f", "a x"]])
    assert longer["reference_length"] == 2  # shortest, not the closest (6)


def test_zero_reference_length_raises_zero_division_like_nmt() -> None:
    with pytest.raises(ZeroDivisionError):
        tbe.compute(["a b"], [[""]])
    with pytest.raises(ZeroDivisionError):
        tbe.compute([""], [["a"]])  # ratio 0: 1. / ratio


def test_custom_tokenizer_and_max_order() -> None:
    preds, refs = ["The Cat sat", "x y z w"], [["the cat sat down"], ["x y z", "w"]]
    got = tbe.compute(preds, refs, tokenizer=lambda s: s.lower().split(), max_order=3)
    want = oracle_compute_bleu(
        [[r.lower().split() for r in g] for g in refs], [p.lower().split() for p in preds], 3
    )
    assert same_typed(got["bleu"], want[0]) and same_typed(got["precisions"], want[1])


def test_input_errors() -> None:
    with pytest.raises(ValueError, match="one entry per prediction"):
        tbe.compute(["a"], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"predictions\[0\] must be a str"):
        tbe.compute([["a"]], [["a"]])
    with pytest.raises(ValueError, match="empty"):
        tbe.compute([], [])
    with pytest.raises(ValueError, match=r"references\[0\] is empty"):
        tbe.compute(["a"], [[]])
    with pytest.raises(
        ValueError,
        match=r"provides the \['bleu', 'chrf', 'google_bleu', 'sacrebleu', 'ter'\] metrics",
    ):
        tbe.load("rouge")


# -- generated inputs ----------------------------------------------------------------------------

# Text built from the pieces 13a reacts to: entities (also ones that only appear after the first
# unescaping), <skipped>, hyphenated line breaks, digits around . , -, symbols, Unicode spaces.
pieces = st.sampled_from(
    [
        "the",
        "cat",
        "sat",
        "mat",
        "a",
        "1",
        "2",
        ".",
        ",",
        "-",
        "5.5",
        "3,000",
        "x-y",
        "&amp;",
        "&quot;",
        "&lt;",
        "&gt;",
        "&amp;lt;",
        "&amp;quot;",
        "<skipped>",
        "<skip",
        "ped>",
        "-\n",
        "\n",
        " ",
        " ",
        " ",
        "\t",
        "\u3000",
        "\xa0",
        "!",
        "?",
        "'",
        "(",
        ")",
        "$",
        "é",
        "日本",
    ]
)
lines = st.lists(pieces, max_size=14).map("".join)


@settings(max_examples=300)
@given(line=lines)
def test_tokenizer_matches_evaluates_13a(line: str) -> None:
    assert tbe.Tokenizer13a()(line) == oracle_tokenize(line)


@settings(max_examples=300)
@given(groups=st.lists(st.lists(lines, max_size=4), min_size=1, max_size=3))
def test_tokenized_groups_are_evaluates_13a(groups: List[List[str]]) -> None:
    """The ids of every line stand for evaluate's tokens: one token per id, one id per token."""
    done, n_ids = tbe._tokenize_13a_groups(groups)
    token_of: dict = {}
    for (ids, offsets), lines_of_group in zip(done, groups):
        assert len(offsets) == len(lines_of_group) + 1
        for i, line in enumerate(lines_of_group):
            want = oracle_tokenize(line)
            got = ids[offsets[i] : offsets[i + 1]].tolist()
            assert len(got) == len(want), (line, got, want)
            for token_id, token in zip(got, want):
                assert token_of.setdefault(token_id, token) == token, line
    assert len(set(token_of.values())) == len(token_of)
    assert all(0 <= token_id < n_ids for token_id in token_of)


@settings(max_examples=150)
@given(
    data=st.lists(
        st.tuples(lines, st.lists(lines, min_size=1, max_size=3)), min_size=1, max_size=5
    ),
    max_order=st.integers(1, 6),
    smooth=st.booleans(),
    single=st.booleans(),
)
def test_compute_matches_the_oracle(data, max_order: int, smooth: bool, single: bool) -> None:
    predictions = [p for p, _ in data]
    references: List[Any] = [refs[0] for _, refs in data] if single else [refs for _, refs in data]
    got = outcome(tbe.compute, predictions, references, max_order=max_order, smooth=smooth)
    want = outcome(oracle_compute, predictions, references, max_order, smooth)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert same_typed(got[1], want[1]), (got, want)
    else:
        assert got[1] is want[1], (got, want)


tokens = st.sampled_from(["a", "b", "c", "d", 1, 1.0, (2,)])
segments = st.lists(tokens, max_size=8)


@settings(max_examples=200)
@given(
    corpus=st.lists(st.tuples(st.lists(segments, max_size=3), segments), max_size=4),
    max_order=st.integers(0, 5),
    smooth=st.booleans(),
)
def test_compute_bleu_on_tokens_matches_the_oracle(corpus, max_order: int, smooth: bool) -> None:
    refs = [r for r, _ in corpus]
    hyps = [h for _, h in corpus]
    got = outcome(tbe.compute_bleu, refs, hyps, max_order, smooth)
    want = outcome(oracle_compute_bleu, refs, hyps, max_order, smooth)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert same_typed(got[1], want[1]), (got, want)
    else:
        assert got[1:] == want[1:], (got, want)


# -- real data -----------------------------------------------------------------------------------


# The fixture's systems and one system per WMT23 pair (every system with TURBOBLEU_LONG_TESTS=1:
# the oracle is slow).
@pytest.mark.parametrize("corpus,system", system_cases(LONG_TESTS))
def test_every_system_matches_the_oracle(corpus, system) -> None:
    hyps = corpus.hypotheses(system)
    streams = corpus.reference_streams(corpus.references)
    references = [list(group) for group in zip(*streams)]
    got = tbe.compute(hyps, references)
    assert same_typed(got, oracle_compute(hyps, references)), corpus.name
    if corpus.source == "fixture":
        got = tbe.compute(hyps, references, max_order=2, smooth=True)
        assert same_typed(got, oracle_compute(hyps, references, 2, True)), corpus.name
