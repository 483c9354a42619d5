"""Integer sufficient statistics of BLEU, one row per segment.

Row layout (sacrebleu's): ``[hyp_len, ref_len, matches_1..matches_N, totals_1..totals_N]``.
Every BLEU variant is a float recipe over sums of such rows, so corpus scores, sentence scores,
resampling and parallel or distributed partitions all use this one container.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Iterable, List, Union

    import numpy as np

# NumPy is imported where rows are made or read, not at the top: `import turbobleu` and the plain
# scoring paths, which never build a BLEUStats, then load no NumPy.


class BLEUStats:
    """Segment rows of BLEU statistics (an ``int64`` array of shape ``(segments, 2 + 2N)``)."""

    __slots__ = ("_rows", "max_order")

    def __init__(self, rows: Any, max_order: int) -> None:
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=np.int64)
        if rows.ndim != 2 or rows.shape[1] != 2 + 2 * max_order:
            raise ValueError(
                f"rows must have shape (segments, {2 + 2 * max_order}) for "
                f"max_order={max_order}, got {rows.shape}"
            )
        self._rows = rows
        self.max_order = max_order

    @classmethod
    def empty(cls, max_order: int) -> "BLEUStats":
        import numpy as np

        return cls(np.zeros((0, 2 + 2 * max_order), dtype=np.int64), max_order)

    @property
    def array(self) -> np.ndarray:
        """A read-only NumPy view of the rows."""
        view = self._rows.view()
        view.flags.writeable = False
        return view

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """The rows for ``np.asarray`` (a copy when a dtype or ``copy=True`` asks for one)."""
        if copy or (dtype is not None and dtype != self._rows.dtype):
            return self._rows.astype(dtype or self._rows.dtype)
        return self.array

    def __len__(self) -> int:
        return self._rows.shape[0]

    def __getitem__(self, index: Union[int, slice, Any]) -> "BLEUStats":
        """Rows by slice, index array or single index (which keeps a one-row container)."""
        rows = self._rows[index]
        if rows.ndim == 1:
            rows = rows[None, :]
        return BLEUStats(rows, self.max_order)

    def __add__(self, other: "BLEUStats") -> "BLEUStats":
        """The segments of both (for partitions of one corpus)."""
        return BLEUStats.merge([self, other])

    @classmethod
    def merge(cls, parts: Iterable["BLEUStats"]) -> "BLEUStats":
        parts = list(parts)
        if not parts:
            raise ValueError("merge needs at least one BLEUStats")
        orders = {p.max_order for p in parts}
        if len(orders) != 1:
            raise ValueError(f"cannot merge statistics of different max orders {sorted(orders)}")
        import numpy as np

        return cls(np.concatenate([p._rows for p in parts]), parts[0].max_order)

    def total(self) -> List[int]:
        """The corpus row: the column sums, as Python ints."""
        return [int(x) for x in self._rows.sum(axis=0)]

    def rows(self) -> List[List[int]]:
        """The segment rows as lists of Python ints (sacrebleu's statistics format)."""
        return self._rows.tolist()

    def __eq__(self, other: object) -> bool:
        import numpy as np

        return (
            isinstance(other, BLEUStats)
            and self.max_order == other.max_order
            and np.array_equal(self._rows, other._rows)
        )

    def __repr__(self) -> str:
        return f"BLEUStats(segments={len(self)}, max_order={self.max_order})"

    def __getstate__(self) -> dict:
        return {"rows": self._rows, "max_order": self.max_order}

    def __setstate__(self, state: dict) -> None:
        self._rows = state["rows"]
        self.max_order = state["max_order"]
