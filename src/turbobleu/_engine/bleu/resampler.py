"""How the significance tests (``turbobleu.significance``) score BLEU's resampled statistics
rows: sacrebleu's options (a ``SacreBLEUOptions``, checked the same way) with the arithmetic of
sacrebleu's bootstrap (float32 sums) and approximate randomization (int64 sums)."""

from __future__ import annotations

from typing import Any

import numpy as np

from turbobleu._engine import choice as _choice
from turbobleu._engine.recipes.sacrebleu import SacreBLEUOptions
from turbobleu._engine.recipes.sacrebleu_batch import bleu_scores
from turbobleu._engine.recipes.sacrebleu_rows import sacrebleu_from_row, sacrebleu_scores_into
from turbobleu._engine.stats import BLEUStats


class BLEUResampler(SacreBLEUOptions):
    """BLEU's scoring of resampled rows; a ``turbobleu.BLEU``'s ``resampler()``."""

    __slots__ = ()

    @property
    def width(self) -> int:
        """Columns of a statistics row."""
        return 2 + 2 * self.max_order

    def resampler(self) -> "BLEUResampler":
        return self

    @classmethod
    def of(cls, source: Any) -> "BLEUResampler":
        """The resampler of BLEU options (any ``SacreBLEUOptions``, e.g. ``BLEU.options``) or of
        a BLEU metric (its ``resampler()``)."""
        if isinstance(source, SacreBLEUOptions):
            return source if type(source) is cls else cls(*source._values())
        own = getattr(source, "resampler", None)
        if own is None:
            raise TypeError(f"BLEU options or a BLEU metric expected, got {type(source).__name__}")
        resampler: BLEUResampler = own()
        return resampler

    def rows(self, stats: Any, what: str) -> np.ndarray:
        """``stats`` (``BLEUStats`` or rows) as an array, its order checked."""
        if isinstance(stats, BLEUStats):
            if stats.max_order != self.max_order:
                raise ValueError(
                    f"{what} has max order {stats.max_order} but the metric uses {self.max_order}"
                )
            return stats.array
        return np.asarray(stats)

    def corpus_score(self, rows: np.ndarray) -> float:
        """The score of the whole corpus, as sacrebleu's ``_aggregate_and_compute``."""
        total = [int(x) for x in rows.sum(axis=0)]
        return sacrebleu_from_row(
            total, self.max_order, self.smooth_method, self.smooth_value, self.effective_order
        ).score

    def scores(self, sums: np.ndarray, arithmetic: str) -> np.ndarray:
        """sacrebleu's score of every aggregated row, in its ``arithmetic`` (see
        ``sacrebleu_batch``)."""
        if arithmetic == "int64" and self._kernel_matches_int64():
            # The compiled recipe computes exactly this (float64 precisions from integer rows).
            out = np.empty(len(sums), dtype=np.float64)
            sacrebleu_scores_into(np.ascontiguousarray(sums, dtype=np.int64), self, out)
            return out
        return bleu_scores(
            sums,
            self.max_order,
            self.smooth_method,
            self.smooth_value,
            self.effective_order,
            arithmetic,
        )

    def _kernel_matches_int64(self) -> bool:
        # The twin kernel is a Python loop (slower than the NumPy recipe); and in an int64 row a
        # fractional add-k value is truncated, which the kernel (Python-int semantics) does not do.
        if _choice.implementation != "cython":
            return False
        if self.smooth_method != "add-k" or self.smooth_value is None:
            return True
        return float(self.smooth_value).is_integer()
