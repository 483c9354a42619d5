"""Pure-Python twin of ``_sacrebleu_scores.pyx``: sacrebleu's sentence recipe over statistics
rows, by calling its specification (``sacrebleu.sacrebleu_score_of_row``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Sequence

from turbobleu._engine.recipes.sacrebleu import sacrebleu_score_of_row

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["sacrebleu_resample_scores", "sacrebleu_score_parts", "sacrebleu_sentence_scores"]


def sacrebleu_sentence_scores(
    rows: Any,
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
    out: Any,
) -> None:
    """out[i] = sacrebleu's score of statistics row i (``neumaier`` is implied by Python here)."""
    for i, row in enumerate(rows.tolist()):
        out[i] = sacrebleu_score_of_row(
            row, max_order, smooth_method, smooth_value, effective_order
        ).score


def sacrebleu_resample_scores(
    rows: Any,
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
    out: Any,
) -> None:
    """out[i] = sacrebleu's score of bootstrap resample sums i: its recipe on float32 values, as
    sacrebleu scores a resample (the arithmetic is float32 under NumPy 2, which the compiled
    module assumes)."""
    import numpy as np

    for i, row in enumerate(rows.tolist()):
        if any(abs(v) >= 2**24 for v in row):
            raise ValueError("sacrebleu_resample_scores: a value is not exact in float32")
        out[i] = sacrebleu_score_of_row(
            [np.float32(v) for v in row], max_order, smooth_method, smooth_value, effective_order
        ).score


def sacrebleu_score_parts(
    row: Sequence[int],
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
) -> Any:
    """(score, precisions, bp) of one statistics row (``neumaier`` is implied by Python here)."""
    if smooth_method == "add-k" or max_order > 16:
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    result = sacrebleu_score_of_row(
        list(row), max_order, smooth_method, smooth_value, effective_order
    )
    return result.score, result.precisions, result.bp
