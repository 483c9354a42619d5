"""Float recipes: integer statistics -> score, in the exact operation order of each mirrored
tool."""

from __future__ import annotations

import math
import sys

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

from turbobleu._engine.results import BLEUScore
from turbobleu._engine.validate import check_order

# sacrebleu sums log precisions with the built-in sum(): compensated from Python 3.12 on, so the
# C recipes are told which summation to reproduce.
NEUMAIER_SUM = sys.version_info >= (3, 12)

# sacrebleu's smoothing methods and their default values.
SMOOTH_DEFAULTS: Dict[str, Optional[float]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

# sacrebleu's log(0) (utils.my_log): a huge negative int, so one zero precision makes the score
# exactly 0.0. The compiled recipe returns 0.0 at the first zero instead (tested equal).
LOG_ZERO = -9999999999


def check_smoothing(smooth_method: Any, smooth_value: Any) -> None:
    """ValueError for an unknown method, TypeError for a smoothing value that is not a number."""
    # Tested as a str first: `in` raises "unhashable type" for a list or an array.
    if not isinstance(smooth_method, str) or smooth_method not in SMOOTH_DEFAULTS:
        shown = (
            repr(smooth_method)
            if smooth_method is None or isinstance(smooth_method, (str, int, float))
            else f"a {type(smooth_method).__name__}"
        )
        raise ValueError(f"unknown smooth_method={shown}; choose one of {list(SMOOTH_DEFAULTS)}")
    if smooth_value is not None and (
        isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float))
    ):
        raise TypeError(f"smooth_value must be a number or None, got {type(smooth_value).__name__}")


def check_max_order(max_order: Any, name: str = "max_order") -> int:
    """``max_order`` as an int in 1..256 (a NumPy integer too); else ValueError naming the
    caller's argument."""
    return check_order(max_order, name)


class SacreBLEUOptions:
    """The options a sacrebleu score depends on, checked once: ``max_order`` (sacrebleu's
    ``max_ngram_order``), ``smooth_method`` (none | floor | add-k | exp), ``smooth_value`` (None:
    ``SMOOTH_DEFAULTS[smooth_method]``) and ``effective_order``. ``BLEU``, the batch API and the
    significance tests all hold one. An immutable value: equal when the type and the four
    options are, hashable, picklable. (Written out rather than a frozen dataclass: importing
    ``dataclasses`` costs ``import turbobleu`` several milliseconds.)"""

    __slots__ = ("max_order", "smooth_method", "smooth_value", "effective_order")
    max_order: int
    smooth_method: str
    smooth_value: Optional[float]
    effective_order: bool

    def __init__(
        self,
        max_order: int = 4,
        smooth_method: str = "exp",
        smooth_value: Optional[float] = None,
        effective_order: bool = False,
    ) -> None:
        check_smoothing(smooth_method, smooth_value)
        max_order = check_max_order(max_order)
        for name, value in zip(
            SacreBLEUOptions.__slots__,
            (max_order, smooth_method, smooth_value, bool(effective_order)),
        ):
            object.__setattr__(self, name, value)

    def _values(self) -> Tuple[int, str, Optional[float], bool]:
        return (self.max_order, self.smooth_method, self.smooth_value, self.effective_order)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.__class__, self._values()))

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return (self.__class__, self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(SacreBLEUOptions.__slots__, self._values()))
        return f"{type(self).__name__}({fields})"


def _log(p: float) -> Any:
    return LOG_ZERO if p == 0.0 else math.log(p)


def sacrebleu_score(
    correct: List[Any],
    total: List[Any],
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
    max_order: int = 4,
) -> BLEUScore:
    """sacrebleu's ``BLEU.compute_bleu``, operation for operation.

    Precisions are percentages before the log; add-k adds k to orders >= 2 of ``correct`` and
    ``total`` in place (so the score's counts show it); with ``effective_order`` only the leading
    orders that have n-grams count. The built-in ``sum`` is used on purpose: its float summation
    differs between Python versions, and so does sacrebleu's.
    """
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_order
    if not any(correct):
        return BLEUScore(0.0, correct, total, precisions, bp, sys_len, ref_len)

    halvings = 1.0
    used_orders = max_order
    for n in range(1, max_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            used_orders = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                halvings *= 2
                precisions[n - 1] = 100.0 / (halvings * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]  # type: ignore[operator]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    score = bp * math.exp(sum([_log(p) for p in precisions[:used_orders]]) / used_orders)
    return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)


def sacrebleu_score_of_row(
    row: List[Any],
    max_order: int,
    smooth_method: str,
    smooth_value: Optional[float],
    effective_order: bool,
) -> BLEUScore:
    """sacrebleu_score of one statistics row ``[sys_len, ref_len, correct..., total...]``."""
    return sacrebleu_score(
        row[2 : 2 + max_order],
        row[2 + max_order :],
        int(row[0]),
        int(row[1]),
        smooth_method,
        smooth_value,
        effective_order,
        max_order,
    )
