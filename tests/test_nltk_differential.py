"""turbobleu.nltk against the real NLTK on generated inputs: results compared with ``==`` (and their
types: int 0 is not 0.0), exceptions by type and arguments, warnings by category and text.

Each smoothing method (0 to 7, the default ``None`` and user-written callables) is one test. The
generated corpora cover empty hypotheses, hypotheses shorter than the n-gram order, no matches,
segments without references, string hypotheses (characters), mixed hashable tokens (``1``, ``1.0``
and ``True`` are the same token), weights as tuples, lists of tuples, NumPy arrays, Fractions,
negative or empty weights, ``auto_reweigh``, and smoothing parameters (epsilon, alpha, k) that are
ints or floats, zero or negative. Every example checks ``corpus_bleu`` and ``sentence_bleu`` of each
of its sentences.

The default run uses few examples per test; ``TURBOBLEU_LONG_TESTS=1`` runs 100,000 per test (the
acceptance run; about an hour per method on one core).
"""

from __future__ import annotations

import atexit
import math
import os
import sys
import warnings
from collections import Counter
from fractions import Fraction as PlainFraction
from typing import Any, Callable, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

from turbobleu import nltk as tb  # noqa: E402

LONG = os.environ.get("TURBOBLEU_LONG_TESTS", "").strip() not in ("", "0")
# TURBOBLEU_NLTK_EXAMPLES overrides the count (e.g. a few thousand for a quick local hunt).
EXAMPLES = int(os.environ.get("TURBOBLEU_NLTK_EXAMPLES", "0") or 0) or (100_000 if LONG else 120)

# Examples actually run, per test; a long run (or a large TURBOBLEU_NLTK_EXAMPLES) prints them at
# exit as evidence of the count.
RUN_COUNTS: Counter = Counter()
if LONG or EXAMPLES >= 1000:
    atexit.register(lambda: print(f"examples run: {dict(RUN_COUNTS)}", file=sys.__stderr__))


# -- running both and comparing ----------------------------------------------------------------


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Tuple[tuple, list]:
    """What one call did: ``("ok", value)`` or ``("raise", type, args)``, and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: tuple = ("ok", fn(*args, **kwargs))
        except Exception as exc:  # the point is to compare them
            result = ("raise", type(exc), exc.args)
    return result, [(w.category, str(w.message)) for w in caught]


def same_value(a: Any, b: Any) -> bool:
    """Exact equality with types: floats with ``==`` (NaN equal to NaN), lists element-wise."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def assert_same(got: Tuple[tuple, list], want: Tuple[tuple, list], context: str) -> None:
    (g, g_warn), (w, w_warn) = got, want
    assert g[0] == w[0], f"{context}: turbobleu {g!r}, NLTK {w!r}"
    if w[0] == "ok":
        assert same_value(g[1], w[1]), f"{context}: turbobleu {g[1]!r} != NLTK {w[1]!r}"
    else:
        assert g[1] is w[1] and same_value(g[2], w[2]), (
            f"{context}: turbobleu raised {g[1].__name__}{g[2]!r}, NLTK {w[1].__name__}{w[2]!r}"
        )
    assert g_warn == w_warn, f"{context}: warnings differ:\n{g_warn}\n{w_warn}"


# -- generated inputs --------------------------------------------------------------------------

# A small alphabet, so that n-grams match often; a few other hashables, and 1 / 1.0 / True, which
# are one token for NLTK (they are equal and hash alike).
common_tokens = st.sampled_from(["a", "b", "c", "d", "e", "a", "b"])
odd_tokens = st.sampled_from([1, 1.0, True, 2, None, (1, 2), frozenset(), "ab", b"a"])
tokens = st.one_of(common_tokens, common_tokens, common_tokens, odd_tokens)


@st.composite
def _shaped(draw: Any, words: list) -> Any:
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return tuple(words)
    if shape == 1 and all(isinstance(w, str) and len(w) == 1 for w in words):
        return "".join(words)  # a str: a sequence of characters, as NLTK sees it
    if shape == 2 and words and all(isinstance(w, str) for w in words):
        return np.array(words, dtype=str)
    return words


# Strategy objects are built once: building them per draw costs more than the scoring.
sentences = st.lists(tokens, max_size=9).flatmap(_shaped)


def _reference_count(pick: int) -> int:
    return 0 if pick == 0 else 1 + pick % 3  # sometimes none: NLTK raises then


reference_lists = (
    st.integers(0, 24)
    .map(_reference_count)
    .flatmap(lambda n: st.lists(sentences, min_size=n, max_size=n))
)


def _corpus_size(pick: int) -> int:
    return 0 if pick == 0 else 1 + pick % 4


corpora = (
    st.integers(0, 30)
    .map(_corpus_size)
    .flatmap(
        lambda n: st.tuples(
            st.lists(reference_lists, min_size=n, max_size=n),
            st.lists(sentences, min_size=n, max_size=n),
        )
    )
)

weight_numbers = st.one_of(st.floats(0, 1), st.floats(-2, 3), st.sampled_from([0.0, 0.25, 1.0]))


def _vector_of(length: int) -> st.SearchStrategy:
    return st.one_of(
        st.just((0.25, 0.25, 0.25, 0.25)),  # the tuple auto_reweigh looks for
        st.just((1 / length,) * length),
        st.lists(weight_numbers, min_size=length, max_size=length).map(tuple),
        st.just(tuple(PlainFraction(1, length) for _ in range(length))),
        st.lists(st.integers(0, 2), min_size=length, max_size=length).map(tuple),
        # A float first and something else after it (the fast path keys on the first item).
        st.tuples(
            st.floats(0, 1),
            st.lists(
                st.sampled_from([PlainFraction(1, 3), 2, np.float64(0.5), 0.25, "x", None]),
                min_size=length - 1,
                max_size=length - 1,
            ),
        ).map(lambda t: (t[0],) + tuple(t[1])),
    )


weight_vectors = st.integers(1, 6).flatmap(_vector_of)

weights_arguments = st.one_of(
    weight_vectors,
    weight_vectors,
    st.lists(weight_vectors, min_size=1, max_size=3),
    st.integers(1, 6)
    .flatmap(lambda n: st.lists(weight_numbers, min_size=n, max_size=n))
    .map(lambda v: np.array(v, dtype=float)),
    st.tuples(st.integers(1, 3), st.integers(1, 5)).map(lambda shape: np.full(shape, 1 / shape[1])),
    st.just([0.25, 0.25, 0.25, 0.25]),  # a list: never equal to the tuple auto_reweigh wants
    st.just(()),
    st.just([(1 / 2,) * 2, (1 / 3,) * 3, (1 / 4,) * 4]),
    st.just((0.25, 0.25, 0.25, 0.25)),
)

smoothing_parameters = st.fixed_dictionaries(
    {
        "epsilon": st.one_of(st.just(0.1), st.floats(0, 2), st.integers(0, 3)),
        "alpha": st.one_of(st.just(5), st.integers(-2, 7), st.floats(0, 6)),
        "k": st.one_of(st.just(5), st.integers(0, 6), st.floats(0.5, 8)),
    }
)


def run_both(
    refs: list,
    hyps: list,
    weights: Any,
    auto_reweigh: bool,
    make_smoothing: Callable[[Any], Any],
    given_weights: bool = True,
) -> None:
    """corpus_bleu on the corpus and sentence_bleu on each sentence, turbobleu vs NLTK."""

    def kwargs(module: Any) -> dict:
        out = {"smoothing_function": make_smoothing(module), "auto_reweigh": auto_reweigh}
        if given_weights:
            out["weights"] = weights
        return out

    context = f"refs={refs!r} hyps={hyps!r} weights={weights!r} auto_reweigh={auto_reweigh}"
    assert_same(
        outcome(tb.corpus_bleu, refs, hyps, **kwargs(tb)),
        outcome(nltk_bleu.corpus_bleu, refs, hyps, **kwargs(nltk_bleu)),
        "corpus_bleu " + context,
    )
    for r, h in zip(refs, hyps):
        assert_same(
            outcome(tb.sentence_bleu, r, h, **kwargs(tb)),
            outcome(nltk_bleu.sentence_bleu, r, h, **kwargs(nltk_bleu)),
            f"sentence_bleu refs={r!r} hyp={h!r} weights={weights!r}",
        )


# -- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", range(8), ids=[f"method{i}" for i in range(8)])
@settings(max_examples=EXAMPLES)
@given(
    corpus=corpora,
    weights=weights_arguments,
    auto_reweigh=st.booleans(),
    params=smoothing_parameters,
    default_weights=st.integers(0, 5),
)
def test_builtin_smoothing_matches_nltk(
    method: int,
    corpus: Tuple[list, list],
    weights: Any,
    auto_reweigh: bool,
    params: dict,
    default_weights: int,
) -> None:
    refs, hyps = corpus
    RUN_COUNTS[f"method{method}"] += 1

    def smoothing(module: Any) -> Any:
        return getattr(module.SmoothingFunction(**params), f"method{method}")

    run_both(refs, hyps, weights, auto_reweigh, smoothing, given_weights=default_weights != 0)


@settings(max_examples=EXAMPLES)
@given(
    corpus=corpora,
    weights=weights_arguments,
    auto_reweigh=st.booleans(),
    falsy=st.sampled_from([None, 0, False, ""]),
)
def test_default_smoothing_matches_nltk(
    corpus: Tuple[list, list], weights: Any, auto_reweigh: bool, falsy: Any
) -> None:
    refs, hyps = corpus
    RUN_COUNTS["default"] += 1
    run_both(refs, hyps, weights, auto_reweigh, lambda module: falsy)


class Recorder:
    """A user-written smoothing function: records what it is given, then smooths its own way."""

    def __init__(self, module: Any, style: int) -> None:
        self.module = module
        self.style = style
        self.calls: List[tuple] = []

    def __call__(
        self,
        p_n: list,
        references: Any = None,
        hypothesis: Any = None,
        hyp_len: Any = None,
        **extra: Any,
    ) -> list:
        self.calls.append(
            (
                [type(p).__name__ for p in p_n],
                [(p.numerator, p.denominator, float(p), p > 0) for p in p_n],
                repr(references),
                repr(hypothesis),
                hyp_len,
                sorted(extra),
            )
        )
        if self.style == 0:
            return p_n  # the Fractions themselves reach the final step
        if self.style == 1:
            return [(p.numerator + 1) / (p.denominator + 1) for p in p_n]
        if self.style == 2:
            return [p + PlainFraction(1, 3) for p in p_n]
        # Compose with the library's own method4, as users do.
        return self.module.SmoothingFunction().method4(p_n, references, hypothesis, hyp_len)


@settings(max_examples=EXAMPLES)
@given(
    corpus=corpora, weights=weights_arguments, auto_reweigh=st.booleans(), style=st.integers(0, 3)
)
def test_custom_smoothing_callable_gets_what_nltk_passes(
    corpus: Tuple[list, list], weights: Any, auto_reweigh: bool, style: int
) -> None:
    refs, hyps = corpus
    RUN_COUNTS["custom"] += 1
    ours, theirs = Recorder(tb, style), Recorder(nltk_bleu, style)
    assert_same(
        outcome(tb.corpus_bleu, refs, hyps, weights, ours, auto_reweigh),
        outcome(nltk_bleu.corpus_bleu, refs, hyps, weights, theirs, auto_reweigh),
        f"corpus_bleu refs={refs!r} hyps={hyps!r} weights={weights!r}",
    )
    assert ours.calls == theirs.calls


@settings(max_examples=max(EXAMPLES // 10, 50))
@given(refs=reference_lists, hyp=sentences, n=st.integers(1, 6))
def test_modified_precision_and_lengths_match_nltk(refs: list, hyp: Any, n: int) -> None:
    got, want = (
        outcome(tb.modified_precision, refs, hyp, n),
        outcome(nltk_bleu.modified_precision, refs, hyp, n),
    )
    assert got[0][0] == want[0][0]
    if want[0][0] == "ok":
        g, w = got[0][1], want[0][1]
        assert (g.numerator, g.denominator, float(g)) == (w.numerator, w.denominator, float(w))
        assert type(g.numerator) is type(w.numerator)
    else:
        assert got[0][1:] == want[0][1:]
    for hyp_len in (0, 1, 3, 7):
        assert_same(
            outcome(tb.closest_ref_length, refs, hyp_len),
            outcome(nltk_bleu.closest_ref_length, refs, hyp_len),
            f"refs={refs!r}",
        )


@settings(max_examples=max(EXAMPLES // 10, 50))
@given(r=st.integers(0, 50), c=st.integers(0, 50))
def test_brevity_penalty_matches_nltk(r: int, c: int) -> None:
    assert same_value(tb.brevity_penalty(r, c), nltk_bleu.brevity_penalty(r, c))
