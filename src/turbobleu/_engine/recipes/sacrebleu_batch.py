"""sacrebleu's BLEU recipe on many aggregated statistics rows at once (NumPy), bit for bit.

Resampling tests score thousands of aggregated rows. sacrebleu scores each one with
``BLEU._compute_score_from_stats`` on a NumPy row, so its arithmetic depends on the row's dtype:

* ``"float32"`` (bootstrap resamples: sacrebleu casts the statistics to float32). Under NumPy 2
  (NEP 50) ``100. * c / t`` with ``c, t`` float32 scalars stays in float32, Python float constants
  are rounded to float32 first, and add-k adds ``float32(k)`` in float32.
* ``"int64"`` (approximate randomization: the shuffled sums are int64). Precisions are float64,
  and add-k assigns ``c + k`` back into the int64 row, which truncates a fractional ``k``.
* ``"float32-numpy1"``: float32 rows under NumPy 1.x, whose value-based casting makes
  ``np.float32 op float`` a float64: precisions are float64 of the float32 values, and add-k
  stores ``float32(float64(c) + k)`` back into the row. ``bootstrap_arithmetic()`` picks this
  or ``"float32"`` for the NumPy that is installed (sacrebleu's arithmetic follows it).

Element-wise +, -, *, / are IEEE-exact in NumPy as in scalar code, so they are vectorised here.
``log`` and ``exp`` are not: NumPy's SIMD versions may differ from libm in the last bit, so they
go through libm's ``log``/``exp``, the functions ``math.log``/``math.exp`` call for sacrebleu (in
C via ``resample._resample.libm_map``, or mapped through ``math`` in the pure-Python build).
The sum of the logs reproduces the built-in ``sum()`` of the running interpreter: left to right
before Python 3.12, Neumaier-compensated from 3.12 on.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Optional

import numpy as np

from turbobleu._engine.recipes.sacrebleu import (
    LOG_ZERO,
    NEUMAIER_SUM,
    SMOOTH_DEFAULTS,
    check_smoothing,
)
from turbobleu._engine.resample import chosen as _resample_impl

ARITHMETICS = ("float32", "int64", "float32-numpy1")

# NumPy 2 (NEP 50) keeps float32 scalar arithmetic in float32; NumPy 1.x promoted it to float64.
_NUMPY1 = int(np.__version__.split(".")[0]) < 2


def bootstrap_arithmetic() -> str:
    """The arithmetic of sacrebleu's bootstrap resamples under the installed NumPy."""
    return "float32-numpy1" if _NUMPY1 else "float32"


def _mapped(name: str, values: np.ndarray) -> np.ndarray:
    """``math.<name>`` ("log" or "exp", libm) applied to every value, as a float64 array."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(values.size, dtype=np.float64)
    if not _resample_impl.resample().libm_map(name, values.ravel(), out):
        # a value where math raises (or has its own special case): let math decide
        out = np.fromiter(
            map(getattr(math, name), values.tolist()), dtype=np.float64, count=values.size
        )
    return out.reshape(values.shape)


def python_sum_rows(terms: np.ndarray, neumaier: bool = NEUMAIER_SUM) -> np.ndarray:
    """Row-wise ``sum(list(row))`` of a (rows, k) float64 array, as the interpreter computes it.

    Trailing 0.0 terms change neither summation, so rows with fewer terms are padded with 0.0.
    """
    total = terms[:, 0].copy()
    if not neumaier:
        for j in range(1, terms.shape[1]):
            total += terms[:, j]
        return total
    comp = np.zeros_like(total)
    for j in range(1, terms.shape[1]):
        x = terms[:, j]
        t = total + x
        comp += np.where(np.abs(total) >= np.abs(x), (total - t) + x, (x - t) + total)
        total = t
    fix = (comp != 0.0) & np.isfinite(comp)
    total[fix] += comp[fix]
    return total


def brevity_penalties(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """sacrebleu's ``bp`` per row: 1.0, ``exp(1 - ref_len/sys_len)``, or 0.0 for empty output.

    ``ref_len / sys_len`` is Python's int division, correctly rounded; so is the float64 division
    of the two exactly converted integers (below 2**53).
    """
    bp = np.ones(sys_len.shape, dtype=np.float64)
    short = sys_len < ref_len
    positive = short & (sys_len > 0)
    bp[short & ~positive] = 0.0
    if positive.any():
        ratio = ref_len[positive].astype(np.float64) / sys_len[positive].astype(np.float64)
        bp[positive] = _mapped("exp", 1.0 - ratio)
    return bp


def bleu_scores(
    rows: np.ndarray,
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
    arithmetic: str,
    neumaier: bool = NEUMAIER_SUM,
) -> np.ndarray:
    """sacrebleu's score of every aggregated row, with ``arithmetic`` as its NumPy dtype.

    ``rows`` is (R, 2 + 2N): ``[sys_len, ref_len, correct_1..N, total_1..N]``. For
    ``"float32"`` the values must already be the float32 sums sacrebleu would hold (integers
    while the sums stay below 2**24); for ``"int64"`` they are integers. Returns float64 scores.
    """
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"arithmetic must be one of {ARITHMETICS}, got {arithmetic!r}")
    check_smoothing(smooth_method, smooth_value)
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != 2 + 2 * max_order:
        raise ValueError(f"rows must have shape (R, {2 + 2 * max_order}), got {rows.shape}")
    n_rows = rows.shape[0]
    value: float = 0.0 if smooth_value is None else smooth_value
    if smooth_value is None:
        value = SMOOTH_DEFAULTS[smooth_method] or 0.0  # (none and exp never use it)
    as32 = arithmetic != "int64"  # the row itself is float32
    nep50 = arithmetic == "float32"  # ... and so is the arithmetic on it
    work = np.float32 if nep50 else np.float64

    # int(stats[0]), int(stats[1]): exact for the integral values these rows hold.
    sys_len = rows[:, 0].astype(np.int64)
    ref_len = rows[:, 1].astype(np.int64)
    bp = brevity_penalties(sys_len, ref_len)

    correct: np.ndarray = np.array(
        rows[:, 2 : 2 + max_order], dtype=np.float32 if as32 else np.int64
    )
    total: np.ndarray = np.array(rows[:, 2 + max_order :], dtype=np.float32 if as32 else np.int64)
    # `if not any(correct)` runs before add-k touches the counts.
    scored = (correct != 0).any(axis=1)

    if smooth_method == "add-k" and max_order > 1:
        if nep50:
            k32 = np.float32(value)  # a Python number meets float32 as float32 (NEP 50)
            correct[:, 1:] += k32
            total[:, 1:] += k32
        elif as32:
            # NumPy 1.x: float64(c) + k, rounded when stored back into the float32 row
            k = float(value)
            correct[:, 1:] = (correct[:, 1:].astype(np.float64) + k).astype(np.float32)
            total[:, 1:] = (total[:, 1:].astype(np.float64) + k).astype(np.float32)
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            correct[:, 1:] += value
            total[:, 1:] += value
        else:
            # int64 + float is a float64; assigning it into the int64 row truncates toward 0.
            k = float(value)
            correct[:, 1:] = np.trunc(correct[:, 1:].astype(np.float64) + k).astype(np.int64)
            total[:, 1:] = np.trunc(total[:, 1:].astype(np.float64) + k).astype(np.int64)

    c_all = correct.astype(work)
    t_all = total.astype(work)
    hundred = work(100.0)
    precisions = np.zeros((n_rows, max_order), dtype=np.float64)
    active = np.ones(n_rows, dtype=bool)  # the loop has not hit `total == 0` yet
    used = np.full(n_rows, max_order, dtype=np.int64)
    halvings = np.ones(n_rows, dtype=np.float64)
    for n in range(max_order):
        c, t = c_all[:, n], t_all[:, n]
        active &= t != 0
        if not active.any():
            break
        if effective_order:
            used[active] = n + 1
        hit = active & (c != 0)
        if hit.any():
            precisions[hit, n] = (hundred * c[hit]) / t[hit]
        miss = active & (c == 0)
        if miss.any():
            if smooth_method == "exp":
                halvings[miss] *= 2.0
                # 100. / (halvings * t): both operations in the row's dtype.
                precisions[miss, n] = hundred / (halvings[miss].astype(work) * t[miss])
            elif smooth_method == "floor":
                # (100. * v) is a Python float, then meets t in the row's dtype.
                precisions[miss, n] = work(100.0 * value) / t[miss]

    included = np.arange(max_order)[None, :] < used[:, None]
    zero = precisions == 0.0
    logs = np.zeros_like(precisions)
    take = included & ~zero & scored[:, None]
    logs[take] = _mapped("log", precisions[take])
    logs[included & zero] = LOG_ZERO
    log_sum = python_sum_rows(logs, neumaier)

    scores = np.zeros(n_rows, dtype=np.float64)
    if scored.any():
        mean_log = log_sum[scored] / used[scored]
        scores[scored] = bp[scored] * _mapped("exp", mean_log)
    return scores
