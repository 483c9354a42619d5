"""Type stubs for ``_nltk_scores.pyx`` (``_nltk_scores_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

from typing import Sequence

import numpy as np
import numpy.typing as npt

_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]
_U8 = npt.NDArray[np.uint8]

# how many NLTK smoothing methods (method0..method7) nltk_sentence_scores knows
NLTK_METHODS: int

def rat_to_double_of(num: int, den: int) -> float:
    """``num / den`` correctly rounded (a test hook)."""

def exact_sum_of(values: Sequence[float]) -> float:
    """``math.fsum`` of finite floats, in C (a test hook)."""

def nltk_sentence_scores(
    rows: _I64,
    row_order: int,
    weights: _F64,
    method: int,
    epsilon: float,
    alpha: float,
    k_value: float,
    auto_reweigh: bool,
    out: _F64,
    status: _U8,
    zero_orders: _U8,
    start: int = 0,
    end: int = -1,
) -> None:
    """``out[i]`` = NLTK's sentence_bleu of statistics row ``i`` (``status[i]`` = 1: redo in
    Python)."""
