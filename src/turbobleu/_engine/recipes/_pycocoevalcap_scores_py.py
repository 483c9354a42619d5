"""Pure-Python twin of ``_pycocoevalcap_scores.pyx``: pycocoevalcap's per-image BLEU-1..n over
statistics rows, by calling its specification (``pycocoevalcap.bleu_scores``) image by image."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from turbobleu._engine.buffer_types import F64, I64

from turbobleu._engine.recipes import pycocoevalcap as recipe

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["image_scores"]


def check_shapes(rows: I64, reflens: F64, orders: int, out: F64) -> int:
    """The number of orders the rows hold; ValueError for buffers that do not fit together."""
    if orders < 0:
        raise ValueError(f"orders must be >= 0, got {orders}")
    images = rows.shape[0]
    row_order = (rows.shape[1] - 2) // 2
    if rows.shape[1] < 4 or rows.shape[1] % 2 or row_order < orders:
        raise ValueError(
            f"image_scores: rows must have 2 + 2*N columns with N >= max(orders, 1), "
            f"got {rows.shape[1]} for orders={orders}"
        )
    if reflens.shape[0] != images or out.shape[0] != orders or out.shape[1] != images:
        raise ValueError(
            "image_scores: reflens must have one value per row and out the shape (orders, rows)"
        )
    return row_order


def image_scores(rows: I64, reflens: F64, orders: int, out: F64) -> None:
    """``out[k, i]`` = BLEU-(k+1) of image ``i``, from its row ``[testlen, _, matches_1..N,
    totals_1..N]`` and its effective reference length ``reflens[i]``."""
    row_order = check_shapes(rows, reflens, orders, out)
    for i, (row, reflen) in enumerate(zip(rows.tolist(), reflens.tolist())):
        scores = recipe.bleu_scores(
            row[0], reflen, row[2 : 2 + orders], row[2 + row_order : 2 + row_order + orders], orders
        )
        for k in range(orders):
            out[k, i] = scores[k]
