"""Type stubs for ``_sacrebleu_scores.pyx`` (``_sacrebleu_scores_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

from typing import Sequence

import numpy as np
import numpy.typing as npt

_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]

# smooth_method name -> the code sacrebleu_sentence_scores switches on
SMOOTH_CODES: dict[str, int]

def sacrebleu_sentence_scores(
    rows: _I64,
    max_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
    out: _F64,
    arithmetic: str = "int64",
) -> None:
    """``out[i]`` = sacrebleu's sentence score of statistics row ``i`` ("int64" values, or a
    bootstrap resample's "float32" sums)."""

def sacrebleu_score_parts(
    row: Sequence[int],
    max_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
) -> tuple[float, list[float], float]:
    """(score, precisions, bp) of one statistics row; any smoothing but add-k, max_order <= 16."""
