"""Pure-Python twin of ``_nltk_scores.pyx``: NLTK's sentence_bleu over statistics rows, by
calling its specification (``nltk.row_score``)."""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Optional, Sequence

    from turbobleu._engine.buffer_types import F64, I64, U8

from turbobleu._engine.recipes import nltk as nltk_recipe

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["exact_sum_of", "nltk_sentence_scores", "rat_to_double_of"]

# how many NLTK smoothing methods (method0..method7) nltk_sentence_scores knows
NLTK_METHODS = 8


def rat_to_double_of(num: int, den: int) -> float:
    """num/den rounded once to the nearest double (den > 0)."""
    if den <= 0:
        raise ValueError("den must be > 0")
    return num / den


def exact_sum_of(values: Sequence[float]) -> float:
    return math.fsum(values)


def nltk_row_score(
    row: Sequence[int],
    row_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: Any,
    alpha: Any,
    k_value: Any,
    auto_reweigh: bool,
    zero_orders: Optional[list] = None,
) -> float:
    """NLTK's ``sentence_bleu`` of one statistics row (``_engine.recipes.nltk.row_score``), with
    method0's zero orders flagged in ``zero_orders`` (if given) instead of warned."""

    def flag(order: int) -> None:
        if zero_orders is not None:
            zero_orders[order - 1] = 1

    return nltk_recipe.row_score(
        row,
        row_order,
        weights,
        method,
        nltk_recipe.Parameters(epsilon, alpha, k_value),
        auto_reweigh,
        flag,
    )


def nltk_sentence_scores(
    rows: I64,
    row_order: int,
    weights: F64,
    method: int,
    epsilon: float,
    alpha: float,
    k_value: float,
    auto_reweigh: bool,
    out: F64,
    status: U8,
    zero_orders: U8,
    start: int = 0,
    end: int = -1,
) -> None:
    """out[i] = NLTK's sentence_bleu of row i; ``status[i]`` = 1 where NLTK raises for the row
    (as the compiled module marks the rows it hands back): the caller reruns ``nltk_row_score``
    on those to raise with context."""
    if end < 0:
        end = rows.shape[0]
    if not 0 <= method < NLTK_METHODS:
        raise ValueError(f"method must be 0..7, got {method}")
    K = len(weights)
    if K < 1 or K > row_order or rows.shape[1] != 2 + 2 * row_order:
        raise ValueError("nltk_sentence_scores: weights and rows do not match")
    w = [float(x) for x in weights]
    flags = [0] * K
    for i in range(start, end):
        try:
            out[i] = nltk_row_score(
                rows[i].tolist(), row_order, w, method, epsilon, alpha, k_value, auto_reweigh, flags
            )
            status[i] = 0
        except (ArithmeticError, AssertionError, IndexError, ValueError):
            status[i] = 1
    for i, f in enumerate(flags):
        if f:
            zero_orders[i] = 1
