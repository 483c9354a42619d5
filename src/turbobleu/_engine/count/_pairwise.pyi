"""Type stubs for the compiled ``_pairwise.pyx`` (``_pairwise_py.py`` is its pure-Python twin)."""

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]

def ngram_profiles(ids: _I32, off: _I64, max_order: int) -> tuple[_I64, _I32, _I32, int]:
    """``(prof_off, prof_gram, prof_count, n_grams)``: each text's distinct n-grams per order,
    numbered across all texts, with their counts."""

def column_postings(
    prof_off: _I64,
    prof_gram: _I32,
    prof_count: _I32,
    n_grams: int,
    max_order: int,
    c_start: int,
    c_end: int,
) -> tuple[_I64, _I32, _I32]:
    """``(post_off, post_col, post_count)``: per n-gram, the columns c_start..c_end holding it."""

def pairwise_stats(
    prof_off: _I64,
    prof_gram: _I32,
    prof_count: _I32,
    lengths: _I64,
    max_order: int,
    post_off: _I64,
    post_col: _I32,
    post_count: _I32,
    r_start: int,
    r_end: int,
    c_start: int,
    c_end: int,
    out: _I64,
) -> None:
    """Statistics rows of texts r_start..r_end, each against each text c_start..c_end alone."""
