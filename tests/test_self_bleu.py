"""Self-BLEU (each text against all the others) against its definition computed with NLTK's and
sacrebleu's sentence_bleu, one text at a time."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from conftest import all_corpora
from turbobleu import NLTKRecipe, SacreBLEURecipe, self_bleu


def nltk_self_bleu(tokens, weights=(0.25,) * 4, smoothing=None):
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, hyp in enumerate(tokens):
            others = tokens[:i] + tokens[i + 1 :]
            out.append(sentence_bleu(others, hyp, weights, smoothing))
    return out


def sacre_self_bleu(lines, **kwargs):
    return [
        sacrebleu.sentence_bleu(h, lines[:i] + lines[i + 1 :], **kwargs).score
        for i, h in enumerate(lines)
    ]


@given(
    texts=st.lists(st.lists(st.integers(0, 4), max_size=10), min_size=2, max_size=7),
    order=st.integers(1, 6),
    method=st.sampled_from([0, 1, 2, 3, 4, 5, 7]),
)
def test_ids_equal_nltk_definition(texts, order, method):
    weights = (1 / order,) * order
    fn = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = self_bleu(texts, NLTKRecipe(weights, fn), threads=1)
    assert got.tolist() == nltk_self_bleu(texts, weights, fn)


@given(
    texts=st.lists(st.lists(st.integers(0, 4), max_size=10), min_size=2, max_size=7),
    order=st.integers(1, 8),
    eff=st.booleans(),
)
def test_ids_equal_sacrebleu_definition(texts, order, eff):
    lines = [" ".join(map(str, t)) for t in texts]
    got = self_bleu(texts, SacreBLEURecipe(effective_order=eff, max_order=order), threads=1)
    want = (
        sacre_self_bleu(lines, tokenize="none", use_effective_order=eff)
        if order == 4
        else [
            sacrebleu.BLEU(tokenize="none", effective_order=eff, max_ngram_order=order)
            .sentence_score(h, lines[:i] + lines[i + 1 :])
            .score
            for i, h in enumerate(lines)
        ]
    )
    assert got.tolist() == want


def test_strings_and_ties():
    """Duplicates (a text's twin is among its references), equal lengths, an empty text."""
    lines = ["the cat sat", "the cat sat", "a dog ran off", "the cat", "", "dog ran"]
    assert self_bleu(lines, threads=1).tolist() == sacre_self_bleu(lines)
    tokens = [line.split() for line in lines]
    texygen = NLTKRecipe((1 / 3,) * 3, SmoothingFunction().method1)
    want = nltk_self_bleu(tokens, (1 / 3,) * 3, SmoothingFunction().method1)
    assert self_bleu(lines, texygen, threads=1).tolist() == want  # whitespace tokens
    assert self_bleu(tokens, texygen, threads=1).tolist() == want  # pre-tokenized


@pytest.mark.parametrize("mask", [0, 3])
def test_hash_collisions_change_nothing(mask):
    rng = np.random.default_rng(0)
    texts = rng.integers(0, 6, size=(12, 9))
    a = self_bleu(texts, threads=1, return_stats=True)
    b = self_bleu(texts, threads=1, return_stats=True, _hash_mask=mask)
    assert np.array_equal(a[1], b[1]) and a[0].tolist() == b[0].tolist()


def test_real_text():
    corpus = next(c for c in all_corpora() if c.source == "fixture")
    lines = corpus.hypotheses(corpus.systems[0])[:60]
    assert self_bleu(lines, threads=2).tolist() == sacre_self_bleu(lines)
    tokens = [line.split() for line in lines]
    with pytest.warns(UserWarning, match="0 counts of"):  # NLTK's method0 warning
        got = self_bleu(lines, "nltk", threads=2)
    assert got.tolist() == nltk_self_bleu(tokens)


def test_padded_array_and_errors():
    arr = np.array([[1, 2, 3, 0], [1, 2, 0, 0], [3, 3, 3, 3]])
    want = self_bleu([[1, 2, 3], [1, 2], [3, 3, 3, 3]], threads=1)
    assert self_bleu(arr, pad_id=0, threads=1).tolist() == want.tolist()
    with pytest.raises(ValueError, match="at least 2 texts"):
        self_bleu(["only one"])
    with pytest.raises(ValueError, match=r"texts\[0\]\[1\] = -3"):
        self_bleu([[1, -3], [2]])
