"""The batch path's NLTK recipe (C, with the Python recipe for the rows it hands back) against
``nltk.translate.bleu_score.sentence_bleu`` called per sentence: scores compared with ==, errors
and warnings as NLTK gives them."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from conftest import SHARED_DATA, all_corpora, discover_corpora, requires_wmt23
from turbobleu import NLTKRecipe, ReferenceSets, sentence_bleu_batch
from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes import chosen as _recipes_impl

WEIGHTS = st.one_of(
    st.integers(1, 8).map(lambda k: (1 / k,) * k),
    st.lists(st.sampled_from([0.1, 0.25, 0.5, 1, 2, 0.3, 1 / 3]), min_size=1, max_size=8).map(
        tuple
    ),
)
SMOOTHERS = st.builds(
    SmoothingFunction,
    epsilon=st.sampled_from([0.1, 1, 0.5, 2]),
    alpha=st.sampled_from([5, 5.0, 0, 2, 0.5]),
    k=st.sampled_from([5, 5.0, 3, 0.5]),
)


def nltk_scores(hyps, refs, weights, smoothing, auto):
    """NLTK per sentence; an exception type stands for a sentence NLTK raises on."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for h, rs in zip(hyps, refs):
            try:
                out.append(sentence_bleu(rs, h, weights, smoothing, auto))
            except Exception as exc:  # noqa: BLE001 - the type is what is compared
                out.append(type(exc))
    return out


@st.composite
def batch(draw):
    vocab = draw(st.integers(1, 5))
    tok = st.integers(0, vocab - 1)
    n = draw(st.integers(1, 6))
    hyps = [draw(st.lists(tok, max_size=14)) for _ in range(n)]
    refs = [
        [draw(st.lists(tok, max_size=14)) for _ in range(draw(st.integers(1, 4)))] for _ in range(n)
    ]
    return hyps, refs


def check(hyps, refs, weights, smoothing, auto):
    if smoothing.__name__ == "method6" and len(weights) < 3:
        # NLTK raises IndexError on any sentence with a unigram match: refused up front.
        with pytest.raises(ValueError, match="method6 needs at least 3 weights"):
            NLTKRecipe(weights, smoothing, auto)
        return
    want = nltk_scores(hyps, refs, weights, smoothing, auto)
    rec = NLTKRecipe(weights, smoothing, auto)
    if any(isinstance(w, type) for w in want):
        bad = next(i for i, w in enumerate(want) if isinstance(w, type))
        with pytest.raises(ValueError, match=rf"hypotheses\[{bad}\]: NLTK's sentence_bleu"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sentence_bleu_batch(hyps, refs, rec, threads=1)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sentence_bleu_batch(hyps, refs, rec, threads=1)
        prepared = ReferenceSets(refs, max_order=rec.orders, threads=1)
        got2 = prepared.score(hyps, rec, threads=1)
    assert got.tolist() == want
    assert got2.tolist() == want


@given(
    data=batch(), weights=WEIGHTS, smoother=SMOOTHERS, method=st.integers(0, 7), auto=st.booleans()
)
def test_generated_batches_equal_nltk(data, weights, smoother, method, auto):
    hyps, refs = data
    check(hyps, refs, weights, getattr(smoother, f"method{method}"), auto)


@given(data=batch(), method=st.integers(0, 7))
def test_default_weights_auto_reweigh(data, method):
    hyps, refs = data
    check(
        hyps, refs, (0.25, 0.25, 0.25, 0.25), getattr(SmoothingFunction(), f"method{method}"), True
    )


def test_docstring_values():
    """The values the NLTK docstrings and the behaviour notes quote."""
    h1 = (
        "It is a guide to action which ensures that the military always obeys the commands "
        "of the party"
    ).split()
    r1 = (
        "It is a guide to action that ensures that the military will forever heed Party commands"
    ).split()
    r2 = (
        "It is the guiding principle which guarantees the military forces always being under "
        "the command of the Party"
    ).split()
    r3 = (
        "It is the practical guide for the army always to heed the directions of the party"
    ).split()
    sf = SmoothingFunction()
    for m in range(8):
        fn = getattr(sf, f"method{m}")
        assert sentence_bleu_batch(
            [h1], [[r1]], NLTKRecipe(smoothing_function=fn), tokenize=None, threads=1
        )[0] == sentence_bleu([r1], h1, smoothing_function=fn)
    assert sentence_bleu_batch([h1], [[r1, r2, r3]], "nltk", threads=1)[0] == 0.5045666840058485


def test_method0_warns_once_per_zero_order():
    with pytest.warns(UserWarning) as record:
        sentence_bleu_batch(
            [[1, 2, 3, 4], [1, 2, 9, 8]], [[[1, 2, 5, 6]], [[1, 2, 7]]], "nltk", threads=1
        )
    messages = sorted(str(w.message) for w in record)
    assert len(messages) == 2
    assert "0 counts of 3-gram overlaps" in messages[0] and "of 4-gram" in messages[1]


def test_method6_needs_a_trigram_match():
    rec = NLTKRecipe(smoothing_function=SmoothingFunction().method6)
    assert sentence_bleu_batch([[1, 2, 3, 4]], [[[1, 2, 3, 5]]], rec, threads=1)[
        0
    ] == sentence_bleu([[1, 2, 3, 5]], [1, 2, 3, 4], smoothing_function=SmoothingFunction().method6)
    with pytest.raises(ValueError, match=r"hypotheses\[1\]: .*method6 raises AssertionError"):
        sentence_bleu_batch([[1, 2, 3], [1, 2, 4]], [[[1, 2, 3]], [[1, 2, 3]]], rec, threads=1)
    with pytest.raises(ValueError, match="method6 needs at least 3 weights"):
        NLTKRecipe((0.5, 0.5), 6)


def test_big_rationals_fall_back_exactly():
    """Method6 with an int alpha squares fractions order after order: their terms outgrow int64
    at high orders, and those rows go through the Python recipe."""
    rng = np.random.default_rng(5)
    hyps = [rng.integers(0, 3, 60).tolist() for _ in range(20)]
    refs = [[rng.integers(0, 3, 60).tolist() for _ in range(2)] for _ in range(20)]
    weights = (1 / 8,) * 8
    for alpha in (5, 7.5):
        sf = SmoothingFunction(alpha=alpha)
        want = nltk_scores(hyps, refs, weights, sf.method6, False)
        rec = NLTKRecipe(weights, sf.method6)
        got, rows = sentence_bleu_batch(hyps, refs, rec, threads=1, return_stats=True)
        assert got.tolist() == want
        status = np.zeros(len(rows), dtype=np.uint8)
        _recipes_impl.nltk_scores().nltk_sentence_scores(
            rows,
            8,
            rec._weights,
            6,
            0.1,
            alpha,
            5.0,
            False,
            np.zeros(len(rows)),
            status,
            np.zeros(8, np.uint8),
        )
        if _choice.implementation == "cython" and isinstance(alpha, int):
            assert status.any(), "expected rows handed back to the Python recipe"


def test_smoothing_arguments():
    sf = SmoothingFunction(epsilon=0.3)
    assert NLTKRecipe(smoothing_function=sf.method1).epsilon == 0.3
    assert NLTKRecipe(smoothing_function="method3").method == 3
    assert NLTKRecipe(smoothing_function=4, k=7).k == 7
    with pytest.raises(TypeError, match="custom function"):
        NLTKRecipe(smoothing_function=lambda p_n, **kw: p_n)
    with pytest.raises(ValueError, match="0..7"):
        NLTKRecipe(smoothing_function=8)
    with pytest.raises(ValueError, match="weights is empty"):
        NLTKRecipe(())
    with pytest.raises(TypeError, match=r"weights\[1\] must be an int or a float"):
        NLTKRecipe((0.5, "x"))
    with pytest.raises(ValueError, match="finite"):
        NLTKRecipe((0.5, float("inf")))


def test_real_text_equals_nltk():
    """Fixture text (whitespace tokens, the NLTK recipe's default) against NLTK, methods 0-7."""
    corpus = next(c for c in all_corpora() if c.source == "fixture")
    hyps = corpus.hypotheses(corpus.systems[0])[:120]
    streams = corpus.reference_streams(corpus.references[:2])
    refs = [[s[i] for s in streams] for i in range(len(hyps))]
    sf = SmoothingFunction()
    for m in range(8):
        fn = getattr(sf, f"method{m}")
        want = nltk_scores(
            [h.split() for h in hyps],
            [[r.split() for r in rs] for rs in refs],
            (0.25,) * 4,
            fn,
            False,
        )
        if any(isinstance(w, type) for w in want):
            continue  # method6 raises on some segments; covered above
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sentence_bleu_batch(hyps, refs, NLTKRecipe(smoothing_function=fn), threads=2)
        assert got.tolist() == want, m


@requires_wmt23
@pytest.mark.parametrize(
    "corpus", [pytest.param(c, id=c.name) for c in discover_corpora(SHARED_DATA, "wmt23")]
)
def test_wmt23_text_equals_nltk(corpus):
    """WMT23 segments (whitespace tokens; two references where the pair has them) against NLTK,
    every smoothing method NLTK does not raise on."""
    hyps = corpus.hypotheses(corpus.systems[-1])[:100]
    streams = corpus.reference_streams(corpus.references[:2])
    refs = [[s[i] for s in streams] for i in range(len(hyps))]
    tokens_h = [h.split() for h in hyps]
    tokens_r = [[r.split() for r in rs] for rs in refs]
    sf = SmoothingFunction()
    prepared = ReferenceSets(refs, max_order=5, tokenize="none", threads=2)
    for m in range(8):
        fn = getattr(sf, f"method{m}")
        want = nltk_scores(tokens_h, tokens_r, (0.25,) * 4, fn, False)
        if any(isinstance(w, type) for w in want):
            continue  # method6 raises on segments without a trigram match (tested above)
        rec = NLTKRecipe(smoothing_function=fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sentence_bleu_batch(hyps, refs, rec, threads=2)
            again = prepared.score(hyps, rec, threads=2)
        assert got.tolist() == want, m
        assert again.tolist() == want, m


# -- the exact arithmetic the C recipe is built on ---------------------------------------------
@given(num=st.integers(-(2**62), 2**62), den=st.integers(1, 2**62))
def test_rational_to_double_rounds_once(num, den):
    assert _recipes_impl.nltk_scores().rat_to_double_of(num, den) == num / den


@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
        max_size=12,
    )
)
def test_exact_sum_equals_fsum(values):
    assert _recipes_impl.nltk_scores().exact_sum_of(values) == math.fsum(values)


def test_exact_sum_hard_cases():
    for values in (
        [1e16, 1.0, 1e-16],
        [0.1] * 10,
        [1e308, -1e308, 1.0],
        [2.0**53, 1.0, 2.0**-60],
        [1.0, 2.0**-53, 2.0**-106],
        [-0.0],
        [],
    ):
        assert _recipes_impl.nltk_scores().exact_sum_of(values) == math.fsum(values)
    assert Fraction(_recipes_impl.nltk_scores().rat_to_double_of(2**62 - 1, 3)) == Fraction(
        (2**62 - 1) / 3
    )
