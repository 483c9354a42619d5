"""Each mirrored library's recipe is specified once, in Python (``_engine/recipes``); the compiled
versions hard-code some of its constants in C, so they are compared with the specification here
(with ``==``), and the one options type is checked where each API takes it."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from conftest import compiled_kernel
from turbobleu import BLEU, SacreBLEURecipe
from turbobleu._engine.recipes.sacrebleu import (LOG_ZERO, SMOOTH_DEFAULTS, SacreBLEUOptions,
                                                 sacrebleu_score_of_row)
from turbobleu.significance import Recipe

COMPILED = compiled_kernel()
needs_compiled = pytest.mark.skipif(COMPILED is None, reason="compiled extension not built")
NEUMAIER = sys.version_info >= (3, 12)

# rows [sys_len, ref_len, correct_1..4, total_1..4] with zero counts at several orders
ROWS = np.array([[9, 11, 5, 3, 0, 0, 9, 8, 7, 6],
                 [4, 3, 2, 0, 0, 0, 4, 3, 2, 1],
                 [6, 6, 4, 2, 1, 0, 6, 5, 4, 3],
                 [2, 5, 1, 0, 0, 0, 2, 1, 0, 0],
                 [5, 5, 0, 0, 0, 0, 5, 4, 3, 2]], dtype=np.int64)


@needs_compiled
@pytest.mark.parametrize("method", list(SMOOTH_DEFAULTS))
@pytest.mark.parametrize("effective", [False, True])
def test_compiled_smoothing_defaults_are_the_specs(method: str, effective: bool) -> None:
    """The C recipe fills in its own default smoothing value; it must be SMOOTH_DEFAULTS'."""
    out = np.empty(len(ROWS))
    COMPILED.sacrebleu_sentence_scores(ROWS, 4, method, None, effective, NEUMAIER, out)
    explicit = np.empty(len(ROWS))
    COMPILED.sacrebleu_sentence_scores(ROWS, 4, method, SMOOTH_DEFAULTS[method], effective,
                                       NEUMAIER, explicit)
    want = [sacrebleu_score_of_row(row, 4, method, None, effective).score
            for row in ROWS.tolist()]
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
    assert out.tolist() == [sacrebleu_score_of_row(r, 4, "none", None, False).score
                            for r in ROWS.tolist()]


def test_one_options_type_for_every_api() -> None:
    metric = BLEU(smooth_method="floor", smooth_value=0.2, max_ngram_order=3)
    assert metric.options == SacreBLEUOptions(3, "floor", 0.2, False)
    assert SacreBLEURecipe("add-k", 2, False, 5).options == SacreBLEUOptions(5, "add-k", 2, False)
    recipe = Recipe.of(metric)
    assert isinstance(recipe, SacreBLEUOptions) and recipe == Recipe(3, "floor", 0.2, False)
    assert Recipe.of(SacreBLEUOptions(2, "exp")) == Recipe(2, "exp")


@pytest.mark.parametrize("make,error,message", [
    (lambda: SacreBLEUOptions(0), ValueError, "max_order must be an integer >= 1, got 0"),
    (lambda: SacreBLEUOptions(smooth_method="nist"), ValueError, "unknown smooth_method='nist'"),
    (lambda: SacreBLEUOptions(smooth_value="1"), TypeError, "smooth_value must be a number"),
    (lambda: Recipe(True), ValueError, "max_order must be an integer >= 1, got True"),
    (lambda: SacreBLEURecipe(max_order=2.0), ValueError, "max_order must be an integer"),
    (lambda: BLEU(max_ngram_order=-1), ValueError, "max_ngram_order must be an integer >= 1"),
])
def test_options_name_the_bad_argument(make, error, message) -> None:
    with pytest.raises(error, match=message):
        make()


def test_options_are_frozen() -> None:
    options = SacreBLEUOptions()
    with pytest.raises(AttributeError):
        options.max_order = 3  # type: ignore[misc]
