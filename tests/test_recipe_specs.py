"""Each mirrored library's recipe is specified once, in Python (``_engine/recipes``); the compiled
versions hard-code some of its constants in C, so they are compared with the specification here
(with ``==``), and the one options type is checked where each API takes it."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from conftest import compiled_module
from turbobleu import BLEU, SacreBLEURecipe
from turbobleu._engine.recipes.sacrebleu import (
    LOG_ZERO,
    SMOOTH_DEFAULTS,
    SacreBLEUOptions,
    sacrebleu_score_of_row,
)
from turbobleu.significance import Recipe

COMPILED = compiled_module("recipes._sacrebleu_scores")
needs_compiled = pytest.mark.skipif(COMPILED is None, reason="compiled extension not built")
NEUMAIER = sys.version_info >= (3, 12)

# rows [sys_len, ref_len, correct_1..4, total_1..4] with zero counts at several orders
ROWS = np.array(
    [
        [9, 11, 5, 3, 0, 0, 9, 8, 7, 6],
        [4, 3, 2, 0, 0, 0, 4, 3, 2, 1],
        [6, 6, 4, 2, 1, 0, 6, 5, 4, 3],
        [2, 5, 1, 0, 0, 0, 2, 1, 0, 0],
        [5, 5, 0, 0, 0, 0, 5, 4, 3, 2],
    ],
    dtype=np.int64,
)


@needs_compiled
@pytest.mark.parametrize("method", list(SMOOTH_DEFAULTS))
@pytest.mark.parametrize("effective", [False, True])
def test_compiled_smoothing_defaults_are_the_specs(method: str, effective: bool) -> None:
    """The C recipe fills in its own default smoothing value; it must be SMOOTH_DEFAULTS'."""
    out = np.empty(len(ROWS))
    COMPILED.sacrebleu_sentence_scores(ROWS, 4, method, None, effective, NEUMAIER, out)
    explicit = np.empty(len(ROWS))
    COMPILED.sacrebleu_sentence_scores(
        ROWS, 4, method, SMOOTH_DEFAULTS[method], effective, NEUMAIER, explicit
    )
    want = [sacrebleu_score_of_row(row, 4, method, None, effective).score for row in ROWS.tolist()]
    assert out.tolist() == want
    assert explicit.tolist() == want


@needs_compiled
def test_compiled_log_of_zero_gives_the_specs_score() -> None:
    """The C recipe returns 0.0 at the first zero precision; the spec sums LOG_ZERO, which must
    make exp(mean) exactly 0.0 for every order the C recipe handles."""
    for orders in range(1, 17):
        assert math.exp((LOG_ZERO + orders * math.log(100.0)) / orders) == 0.0
    out = np.empty(len(ROWS))
    COMPILED.sacrebleu_sentence_scores(ROWS, 4, "none", None, False, NEUMAIER, out)
    assert out.tolist()[:2] == [0.0, 0.0]
    assert out.tolist() == [
        sacrebleu_score_of_row(r, 4, "none", None, False).score for r in ROWS.tolist()
    ]


def test_one_options_type_for_every_api() -> None:
    metric = BLEU(smooth_method="floor", smooth_value=0.2, max_ngram_order=3)
    assert metric.options == SacreBLEUOptions(3, "floor", 0.2, False)
    assert SacreBLEURecipe("add-k", 2, False, 5).options == SacreBLEUOptions(5, "add-k", 2, False)
    recipe = Recipe.of(metric)
    assert isinstance(recipe, SacreBLEUOptions) and recipe == Recipe(3, "floor", 0.2, False)
    assert Recipe.of(SacreBLEUOptions(2, "exp")) == Recipe(2, "exp")


@pytest.mark.parametrize(
    "make,error,message",
    [
        (lambda: SacreBLEUOptions(0), ValueError, "max_order must be an integer in 1..256, got 0"),
        (
            lambda: SacreBLEUOptions(smooth_method="nist"),
            ValueError,
            "unknown smooth_method='nist'",
        ),
        (lambda: SacreBLEUOptions(smooth_value="1"), TypeError, "smooth_value must be a number"),
        (lambda: Recipe(True), ValueError, "max_order must be an integer in 1..256, got True"),
        (lambda: SacreBLEURecipe(max_order=2.0), ValueError, "max_order must be an integer"),
        (
            lambda: BLEU(max_ngram_order=-1),
            ValueError,
            "max_ngram_order must be an integer in 1..256",
        ),
    ],
)
def test_options_name_the_bad_argument(make, error, message) -> None:
    with pytest.raises(error, match=message):
        make()


def test_options_are_frozen() -> None:
    options = SacreBLEUOptions()
    with pytest.raises(AttributeError):
        options.max_order = 3  # type: ignore[misc]


# -- NLTK ----------------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from turbobleu._engine.recipes import _nltk_scores_py  # noqa: E402
from turbobleu._engine.recipes import nltk as nltk_spec  # noqa: E402


@st.composite
def nltk_rows(draw):
    """A sentence's statistics row with 5..8 orders (methods 5 and 7 read the 5-gram). As in
    any real sentence, an order without a match has none above it (an n-gram match contains
    (n-1)-gram matches): the C recipe assumes it (it gives method6's prior 0 where NLTK on
    Python < 3.12 divides by an unreduced zero)."""
    orders = draw(st.integers(5, 8))
    hyp_len = draw(st.integers(0, 12))
    totals = [max(0, hyp_len - n + 1) for n in range(1, orders + 1)]
    matches = []
    for t in totals:
        matches.append(draw(st.integers(0, t)) if not matches or matches[-1] else 0)
    return [hyp_len, draw(st.integers(0, 14))] + matches + totals, orders


PARAMETERS = st.builds(
    nltk_spec.Parameters,
    epsilon=st.sampled_from([0.1, 1, 0.5]),
    alpha=st.sampled_from([5, 5.0, 0, 0.5]),
    k=st.sampled_from([5, 5.0, 3]),
)


def _outcome(fn):
    try:
        return fn()
    except (ArithmeticError, AssertionError, IndexError, ValueError) as exc:
        return type(exc)


@given(
    case=nltk_rows(), method=st.integers(0, 7), parameters=PARAMETERS, weights_len=st.integers(1, 8)
)
@settings(max_examples=300)
def test_fast_smoothing_evaluates_the_fraction_definitions(
    case, method, parameters, weights_len
) -> None:
    """smoothed_precisions (ints and int pairs) gives the floats of fraction_precisions
    (NLTK's definitions on its Fractions), or leaves the case to them."""
    row, orders = case
    k = min(weights_len, orders)
    nums = row[2 : 2 + k]
    dens = [max(1, t) for t in row[2 + orders : 2 + orders + k]]
    if nums[0] == 0:
        return
    fifth = (row[6], max(1, row[6 + orders]))
    zeros_exact: list = []
    exact = _outcome(
        lambda: nltk_spec.fraction_precisions(
            method, parameters, nums, dens, row[0], fifth, zeros_exact.append
        )
    )
    zeros_fast: list = []
    try:
        fast = nltk_spec.smoothed_precisions(
            method, parameters, nums, dens, row[0], row[0], fifth, zeros_fast.append
        )
    except nltk_spec.NeedsExactPath:
        return
    assert not isinstance(exact, type), exact
    assert fast == [float(p) for p in exact]
    assert zeros_fast == zeros_exact


COMPILED_NLTK = compiled_module("recipes._nltk_scores")


@pytest.mark.skipif(COMPILED_NLTK is None, reason="compiled extension not built")
@given(
    cases=st.lists(nltk_rows().filter(lambda c: c[1] == 8), min_size=1, max_size=6),
    method=st.integers(0, 7),
    parameters=PARAMETERS,
    weights=st.lists(st.sampled_from([0.25, 0.5, 1.0, 1 / 3]), min_size=3, max_size=8),
    reweigh=st.booleans(),
)
@settings(max_examples=200)
def test_compiled_nltk_recipe_equals_the_spec(cases, method, parameters, weights, reweigh) -> None:
    """The C recipe's scores and zero-order flags equal row_score's (where it keeps the row)."""
    rows = np.array([row for row, _ in cases], dtype=np.int64)
    out = np.empty(len(rows))
    status = np.zeros(len(rows), dtype=np.uint8)
    zero = np.zeros(len(weights), dtype=np.uint8)
    COMPILED_NLTK.nltk_sentence_scores(
        rows,
        8,
        np.array(weights),
        method,
        float(parameters.epsilon),
        parameters.alpha,
        float(parameters.k),
        reweigh,
        out,
        status,
        zero,
    )
    flags = [0] * len(weights)
    for i, row in enumerate(rows.tolist()):
        want = _outcome(
            lambda: _nltk_scores_py.nltk_row_score(
                row,
                8,
                weights,
                method,
                float(parameters.epsilon),
                parameters.alpha,
                float(parameters.k),
                reweigh,
                flags,
            )
        )
        if status[i]:
            continue  # handed back: the Python recipe decides (row_score itself)
        assert out[i] == want
    if not status.any():
        assert zero.tolist() == flags


def test_nltk_constants_are_nltks() -> None:
    """The defaults and the warning text NLTK users see (and filter on)."""
    from nltk.translate.bleu_score import SmoothingFunction as NLTKSmoothing

    reference = NLTKSmoothing()
    assert (nltk_spec.EPSILON, nltk_spec.ALPHA, nltk_spec.K) == (
        reference.epsilon,
        reference.alpha,
        reference.k,
    )
    assert nltk_spec.TINY == sys.float_info.min
    with pytest.warns(UserWarning) as caught:
        reference.method0([nltk_spec.Fraction(1, 2), nltk_spec.Fraction(0, 3)])
    assert str(caught[0].message) == nltk_spec.ZERO_ORDER_MESSAGE.format(2)
