"""Pure-Python twin of ``_sacrebleu_scores.pyx``: sacrebleu's sentence recipe over statistics
rows, by calling its specification (``sacrebleu.sacrebleu_score_of_row``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Sequence

from turbobleu._engine.recipes.sacrebleu import sacrebleu_score_of_row

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["sacrebleu_score_parts", "sacrebleu_sentence_scores"]


def sacrebleu_sentence_scores(
    rows: Any,
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
    out: Any,
    arithmetic: str = "int64",
) -> None:
    """out[i] = sacrebleu's score of statistics row i (``neumaier`` is implied by Python here);
    ``"float32"``: the values as sacrebleu holds a bootstrap resample's sums, so its recipe runs
    on float32 scalars (float32 arithmetic under NumPy 2, which the compiled module assumes)."""
    if arithmetic not in ("int64", "float32"):
        raise ValueError(f"arithmetic must be 'int64' or 'float32', got {arithmetic!r}")
    as_float32 = arithmetic == "float32"
    if as_float32:
        import numpy as np
    for i, row in enumerate(rows.tolist()):
        if as_float32:
            if any(abs(v) >= 2**24 for v in row):
                raise ValueError("sacrebleu_sentence_scores: a value is not exact in float32")
            row = [np.float32(v) for v in row]
        out[i] = sacrebleu_score_of_row(
            row, max_order, smooth_method, smooth_value, effective_order
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
