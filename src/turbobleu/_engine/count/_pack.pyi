"""Type stubs for ``_pack.pyx`` (``_pack_py.py`` is its pure-Python twin).

tests/typing checks these against the compiled module (mypy.stubtest).
"""

from typing import Sequence

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]

def pack_sequences(
    rows: Sequence[Sequence[int]], what: str, pad: int | None = None, first: int = 0
) -> tuple[_I32, _I64]:
    """``(ids, offsets)`` of integer sequences (CSR); items equal to ``pad`` are left out."""

def pack_groups(
    groups: Sequence[Sequence[Sequence[int]]], what: str, pad: int | None = None, first: int = 0
) -> tuple[_I32, _I64, _I64]:
    """``(ids, offsets, group_offsets)`` of groups of integer sequences."""
