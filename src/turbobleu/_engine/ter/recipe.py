"""TER's recipe: sacrebleu's sum of statistics rows and score of a summed row (``ter_score``), and
for the significance tests (``turbobleu.significance``) rows that they resample as integers, with
sacrebleu's TER of their sums in the arithmetic sacrebleu uses there.

sacrebleu resamples its rows ``[edits, average reference length]``: float32 sums for the
bootstrap, float64 matrix products for approximate randomization. With k references per segment
the row ``[edits, k * average]`` is integral, and while k is a power of two (1, 2, 4, ...) every
average and every partial sum of them is exact, so ``sum / k`` is sacrebleu's sum. Other
reference counts are refused (their averages round, and the sums would depend on the order).

The same holds for rows summed over partitions (``turbobleu.aggregate``): there a segment may
have any power of two up to ``ADDITIVE_DENOMINATOR`` references, and its row is
``[edits, average * ADDITIVE_DENOMINATOR]``, an integer.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

# NumPy is imported by the significance tests' methods: `import turbobleu.ter` stays without it.
if TYPE_CHECKING:
    from typing import Any, List, Sequence

    import numpy as np


# Average reference lengths carried as integers in 64ths: exact for 1, 2, 4, ... 64 references.
ADDITIVE_DENOMINATOR = 64


def ter_score(edits: Any, length: Any) -> Any:
    """sacrebleu's ``TER._compute_score_from_stats(...).score``: edits per reference word, in
    percent; with no reference words, 100 for any edit and 0 for none. The same expressions as
    there, so that NumPy scalars keep their type (float32 in a bootstrap resample)."""
    if length > 0:
        return 100 * (edits / length)
    return 100 * (1.0 if edits > 0 else 0.0)


def summed(edits: Sequence[Any], lengths: Sequence[Any]) -> List[Any]:
    """Statistics rows summed as sacrebleu sums them (``sum_of_lists``): one row is returned as
    it is; otherwise each column from a zero of the first value's type, left to right (the
    lengths are floats, so no ``sum()``: it compensates from Python 3.12 on)."""
    if len(edits) == 1:
        return [edits[0], lengths[0]]
    start = type(edits[0])(0.0)
    total_edits, total_length = start, start
    for e in edits:
        total_edits += e
    for n in lengths:
        total_length += n
    return [total_edits, total_length]


class TERResampler:
    """How ``turbobleu.significance`` scores TER's resampled rows (a ``turbobleu.TER``'s
    ``resampler()``): ``k`` references per segment."""

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

    def rows(self, stats: Any, what: str) -> np.ndarray:
        """sacrebleu's rows ``[edits, average length]`` as ``[edits, summed length]``."""
        import numpy as np

        rows = np.asarray(stats, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1:] != (2,):
            raise ValueError(
                f"{what} must be TER statistics of shape (segments, 2), got {rows.shape}"
            )
        scaled = rows * np.array([1.0, float(self.k)])
        if not np.array_equal(scaled, np.trunc(scaled)):
            raise ValueError(
                f"{what} are not TER's [edits, average length] rows of {self.k} references"
            )
        return scaled.astype(np.int64)

    def corpus_score(self, rows: np.ndarray) -> float:
        """The corpus TER of integer rows (``TER.corpus_score``'s number)."""
        total = rows.sum(axis=0)
        return float(ter_score(int(total[0]), int(total[1]) / self.k))

    def scores(self, sums: np.ndarray, arithmetic: str) -> np.ndarray:
        """The TER of every summed row: float64 for integer sums (approximate randomization),
        NumPy float32 scalars for float32 sums (the bootstrap), as in sacrebleu."""
        import numpy as np

        totals = np.asarray(sums, dtype=np.float64 if arithmetic == "int64" else np.float32)
        k = totals.dtype.type(self.k)
        edits, lengths = totals[:, 0], np.divide(totals[:, 1], k)
        if not (lengths > 0).all():  # 100 * (1.0 or 0.0): Python floats among the scores
            return np.array([ter_score(e, n) for e, n in zip(edits, lengths)])
        # ter_score's expression on every row at once: the same IEEE operations in the same
        # type (float64, or float32 as sacrebleu's float32 scalars)
        scores: np.ndarray = totals.dtype.type(100) * (edits / lengths)
        return scores


# (its name before the metric interface)
TERRecipe = TERResampler


def additive_rows(
    edits: Sequence[int], lengths: Sequence[float], refs_per_segment: Sequence[int]
) -> np.ndarray:
    """Rows ``[edits, average length * ADDITIVE_DENOMINATOR]`` (int64) that add up in any order
    to sacrebleu's sums; ValueError for a segment whose reference count is not a power of two
    up to ``ADDITIVE_DENOMINATOR``."""
    import numpy as np

    for i, k in enumerate(refs_per_segment):
        if k < 1 or k > ADDITIVE_DENOMINATOR or k & (k - 1):
            raise ValueError(
                f"segment {i} has {k} references: TER summed over partitions needs 1, 2, 4, ... "
                f"or {ADDITIVE_DENOMINATOR} references per segment (sacrebleu sums rounded "
                "average lengths in segment order; other counts depend on that order)"
            )
    rows = np.empty((len(edits), 2), dtype=np.int64)
    rows[:, 0] = edits
    rows[:, 1] = np.asarray(lengths, dtype=np.float64) * ADDITIVE_DENOMINATOR  # exact: k | 64
    return rows


def stats_of_additive(rows: np.ndarray) -> np.ndarray:
    """``additive_rows`` back as sacrebleu's float64 rows ``[edits, average length]`` (exact:
    the lengths are multiples of 1/64)."""
    import numpy as np

    stats = np.array(rows, dtype=np.float64)
    stats[:, 1] /= ADDITIVE_DENOMINATOR
    return stats


def additive_sums(sums: Sequence[int]) -> List[Any]:
    """sacrebleu's summed row ``[edits, reference length]`` of summed additive rows."""
    return [int(sums[0]), int(sums[1]) / ADDITIVE_DENOMINATOR]
