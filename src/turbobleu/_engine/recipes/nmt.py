"""tensorflow/nmt's float recipe (``compute_bleu``, which Hugging Face evaluate's BLEU runs), from
integer corpus counts, operation for operation:

- the brevity penalty uses the **shortest** reference of each segment (not the closest), and
  ``1 - 1/ratio`` with ``ratio = c / r`` (so ``r / c`` is rounded twice);
- precisions are ``matches / possible`` (0.0 when nothing is possible); with ``smooth`` every
  order, unigrams included, is ``(matches + 1) / (possible + 1)``;
- the log-precisions are summed with the built-in ``sum`` (not ``fsum``), each weighted by
  ``1. / max_order``; a zero precision makes the geometric mean the int 0;
- a zero reference length raises ``ZeroDivisionError``, as there.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Sequence, Tuple


def nmt_score(
    matches: Sequence[int],
    possible: Sequence[int],
    translation_length: int,
    reference_length: int,
    max_order: int,
    smooth: Any,
) -> Tuple[Any, ...]:
    """``(bleu, precisions, bp, ratio, translation_length, reference_length)``, as nmt returns."""
    precisions: List[Any] = [0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
        else:
            precisions[i] = 0.0
    if min(precisions) > 0:
        # The built-in sum on purpose: that is what nmt uses (and its rounding is Python's).
        log_sum = sum((1.0 / max_order) * math.log(p) for p in precisions)
        geo_mean: Any = math.exp(log_sum)
    else:
        geo_mean = 0
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return (geo_mean * bp, precisions, bp, ratio, translation_length, reference_length)
