"""How the significance tests (``turbobleu.significance``) score chrF's resampled statistics
rows.

sacrebleu scores a bootstrap resample from its float32 sums with chrF's Python recipe, so the
arithmetic (and the scores' dtype, float32) is NumPy's float32 scalar arithmetic: the same recipe
runs here on the same float32 values. Integer rows (approximate randomization) are scored by the
compiled recipe, which equals it on integers."""

from __future__ import annotations

from typing import Any, List

import numpy as np

from turbobleu._engine.chrf import chosen as _chrf_impl
from turbobleu._engine.chrf.recipe import f_score


class ChrFResampler:
    """chrF's scoring of resampled rows; a ``turbobleu.CHRF``'s ``resampler()``."""

    __slots__ = ("order", "beta", "eps_smoothing")

    def __init__(self, order: int, beta: Any, eps_smoothing: bool) -> None:
        self.order = order
        self.beta = beta
        self.eps_smoothing = bool(eps_smoothing)

    @property
    def width(self) -> int:
        return 3 * self.order

    def rows(self, stats: Any, what: str) -> np.ndarray:
        return np.asarray(stats)

    def corpus_score(self, rows: np.ndarray) -> float:
        total = [int(x) for x in rows.sum(axis=0)]
        return f_score(total, self.order, self.beta, self.eps_smoothing)

    def scores(self, sums: np.ndarray, arithmetic: str) -> np.ndarray:
        if arithmetic == "int64":
            out = np.empty(len(sums), dtype=np.float64)
            rows = np.ascontiguousarray(sums, dtype=np.int64)
            _chrf_impl.chrf_counts().sentence_scores(
                rows, self.order, self.beta, self.eps_smoothing, out
            )
            return out
        # sacrebleu's np.array([score of each float32 row]): float32 unless a score is a
        # Python float (a resample with no n-gram at all)
        if arithmetic == "float32":  # NumPy 2: float32 and a Python number give float32
            scores = _float32_scores(np.asarray(sums), self.order, self.beta, self.eps_smoothing)
        else:
            scores = [None] * len(sums)
        return np.array(
            [
                f_score(row, self.order, self.beta, self.eps_smoothing) if s is None else s
                for row, s in zip(sums, scores)
            ]
        )


def _float32_scores(sums: np.ndarray, order: int, beta: Any, eps_smoothing: bool) -> List[Any]:
    """``f_score`` of every float32 row at once, where the row takes none of its branches that
    mix in Python floats (an empty side, a zero denominator, all precisions and recalls zero):
    there every step is the same IEEE float32 operation, in the same order, on arrays as on
    scalars (NumPy 2's rule: float32 with a Python number stays float32). None for the other
    rows, which the caller scores one by one."""
    hyp, ref, match = sums[:, 0::3], sums[:, 1::3], sums[:, 2::3]
    factor = beta**2
    with np.errstate(all="ignore"):
        prec, rec = match / hyp, match / ref
        denom = factor * prec + rec
        terms = (1 + factor) * prec * rec / denom
        plain = (hyp > 0).all(axis=1) & (ref > 0).all(axis=1) & (denom > 0).all(axis=1)
        score, avg_prec, avg_rec = terms[:, 0], prec[:, 0], rec[:, 0]  # (0.0 + x is x)
        for i in range(1, order):  # left to right, as the scalar loop adds
            score = score + terms[:, i]
            avg_prec = avg_prec + prec[:, i]
            avg_rec = avg_rec + rec[:, i]
        if eps_smoothing:
            result = 100 * score / order
        else:
            avg_prec = avg_prec / order  # (every order is effective in a plain row)
            avg_rec = avg_rec / order
            plain &= (avg_prec + avg_rec) != 0
            result = (1 + factor) * avg_prec * avg_rec
            result = result / ((factor * avg_prec) + avg_rec)
            result = 100 * result
    return [value if ok else None for value, ok in zip(result, plain.tolist())]
