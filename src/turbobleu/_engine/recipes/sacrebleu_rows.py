"""sacrebleu's recipe over statistics rows: the compiled version (the same operations in C) where
it applies, the Python specification in ``sacrebleu.py`` otherwise."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import List, Optional

    import numpy as np

    from turbobleu._engine.recipes.sacrebleu import SacreBLEUOptions

from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes import chosen as _recipes_impl
from turbobleu._engine.recipes.sacrebleu import NEUMAIER_SUM, sacrebleu_score_of_row
from turbobleu._engine.results import BLEUScore

_COMPILED = _choice.implementation == "cython"


def c_recipe_applies(smooth_method: str, max_order: int) -> bool:
    """Whether sacrebleu_from_int_row may score rows of this configuration: the compiled
    recipe does every smoothing but add-k (a float k turns the counts into floats) up to 16
    orders."""
    return _COMPILED and smooth_method != "add-k" and max_order <= 16


def sacrebleu_from_int_row(
    row: List[int],
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
) -> BLEUScore:
    """sacrebleu_from_row of a list of Python ints where c_recipe_applies: the same operations
    in C (sentence_bleu loops call this once per sentence)."""
    score, precisions, bp = _recipes_impl.sacrebleu_scores().sacrebleu_score_parts(
        row, max_order, smooth_method, smooth_value, effective_order, NEUMAIER_SUM
    )
    return BLEUScore(
        score, row[2 : 2 + max_order], row[2 + max_order :], precisions, bp, row[0], row[1]
    )


def sacrebleu_from_row(
    row: List[int],
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
) -> BLEUScore:
    """The score of one aggregated statistics row. NumPy rows stay in Python (the bootstrap's
    float32 sums keep NumPy's float32 arithmetic)."""
    if c_recipe_applies(smooth_method, max_order) and type(row) is list and type(row[0]) is int:
        return sacrebleu_from_int_row(row, max_order, smooth_method, smooth_value, effective_order)
    return sacrebleu_score_of_row(row, max_order, smooth_method, smooth_value, effective_order)


def sacrebleu_scores_into(rows: np.ndarray, options: SacreBLEUOptions, out: np.ndarray) -> None:
    """``out[i]`` = sacrebleu's score of the int64 statistics row ``rows[i]``, by the compiled
    recipe (any smoothing: its counts stay Python ints)."""
    _recipes_impl.sacrebleu_scores().sacrebleu_sentence_scores(
        rows,
        options.max_order,
        options.smooth_method,
        options.smooth_value,
        options.effective_order,
        NEUMAIER_SUM,
        out,
    )
