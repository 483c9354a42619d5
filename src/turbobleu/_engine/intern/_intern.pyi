"""Type stubs for the compiled ``_intern.pyx`` (``_intern_py.py`` is its pure-Python twin).

Every function returns None instead of raising for input they leave to the caller's own loop.
"""

from typing import Any, List, Optional, Tuple, final

import numpy as np
import numpy.typing as npt

def sentence_table_bytes() -> int: ...
def sentence_row(references: Any, hypothesis: Any, orders: int) -> Optional[List[int]]: ...
def corpus_rows(
    reference_lists: Any, hypotheses: Any, orders: int
) -> Optional[npt.NDArray[np.int64]]: ...
def corpus_totals(
    reference_lists: Any, hypotheses: Any, orders: int
) -> Optional[Tuple[List[int], List[int], List[int]]]: ...
def gleu_sentence_stats(
    references: Any, hypothesis: Any, min_len: int, max_len: int
) -> Optional[Tuple[int, int]]: ...
def gleu_stats(
    list_of_references: Any, hypotheses: Any, min_len: int, max_len: int
) -> Optional[Tuple[int, int]]: ...
def unsmoothed_sentence_score(
    references: Any, hypothesis: Any, weights: Tuple[Any, ...]
) -> Optional[float]: ...
def set_str_hash_mask(mask: int) -> int:
    """Test hook: keep only these bits of each str token's hash (-1: all) in the tables made
    from now on; returns the old mask."""

@final
class Interner:
    """Token -> id for one call (its methods are C-only)."""

    def __new__(cls, expected: int) -> "Interner": ...
