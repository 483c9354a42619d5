"""Type stubs for the compiled chrF counting ``_chrf.pyx`` (``_chrf_py.py`` is its twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type.
"""

from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]

def corpus_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int,
    word_order: int,
    whitespace: bool,
    beta: Any,
    eps_smoothing: bool,
    out: _I64,
) -> None:
    """Fill ``out[i]`` with segment i's statistics against its best reference."""

def sentence_scores(rows: _I64, order: int, beta: Any, eps_smoothing: bool, out: _F64) -> None:
    """``out[i]`` = the chrF score of statistics row i."""

def pairwise_scores(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int,
    word_order: int,
    whitespace: bool,
    beta: Any,
    eps_smoothing: bool,
    out: _F64,
    threads: int = 1,
) -> None:
    """``out[i, j]`` = sentence chrF of hypothesis i against reference j alone."""
