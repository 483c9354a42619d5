"""TER's scoring for the significance tests (``turbobleu.significance``): rows that the tests
resample as integers, and sacrebleu's TER of their sums in the arithmetic sacrebleu uses there.

sacrebleu resamples its rows ``[edits, average reference length]``: float32 sums for the
bootstrap, float64 matrix products for approximate randomization. With k references per segment
the row ``[edits, k * average]`` is integral, and while k is a power of two (1, 2, 4, ...) every
average and every partial sum of them is exact, so ``sum / k`` is sacrebleu's sum. Other
reference counts are refused (their averages round, and the sums would depend on the order).
"""

from __future__ import annotations

import numpy as np

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


def _score(edits: Any, length: Any) -> Any:
    """sacrebleu's ``TER._compute_score_from_stats(...).score``, the same expressions (so that
    NumPy scalars keep the type they have there: float32 in a bootstrap resample)."""
    if length > 0:
        return 100 * (edits / length)
    return 100 * (1.0 if edits > 0 else 0.0)


class TERRecipe:
    """TER's recipe for ``significance``: ``k`` references per segment."""

    __slots__ = ("k",)
    width = 2

    def __init__(self, refs_per_segment: int) -> None:
        k = refs_per_segment
        if k < 1 or k & (k - 1):
            raise ValueError(
                "TER's significance tests need the same number of references for every segment, "
                f"a power of two (1, 2, 4, ...), got {'a varying number' if k < 1 else k}: "
                "sacrebleu's sums of rounded average lengths are not reproduced otherwise"
            )
        self.k = k

    def integer_rows(self, stats: np.ndarray) -> np.ndarray:
        """sacrebleu's rows ``[edits, average length]`` as ``[edits, summed length]``."""
        rows = np.asarray(stats, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1:] != (2,):
            raise ValueError(f"TER statistics must have shape (segments, 2), got {rows.shape}")
        scaled = rows * np.array([1.0, float(self.k)])
        if not np.array_equal(scaled, np.trunc(scaled)):
            raise ValueError(
                f"TER statistics are not [edits, average length] rows of {self.k} references"
            )
        return scaled.astype(np.int64)

    def corpus_score(self, rows: np.ndarray) -> float:
        """The corpus TER of integer rows (``TER.corpus_score``'s number)."""
        total = rows.sum(axis=0)
        return float(_score(int(total[0]), int(total[1]) / self.k))

    def scores(self, sums: np.ndarray, arithmetic: str) -> np.ndarray:
        """The TER of every summed row: float64 for integer sums (approximate randomization),
        NumPy float32 scalars for float32 sums (the bootstrap), as in sacrebleu."""
        if arithmetic == "int64":
            totals = np.asarray(sums, dtype=np.float64)
        else:
            totals = np.asarray(sums, dtype=np.float32)
        k = totals.dtype.type(self.k)
        return np.array([_score(row[0], row[1] / k) for row in totals])
