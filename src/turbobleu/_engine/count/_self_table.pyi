"""Type stubs for ``_self_table.pyx`` (``_self_table_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]
_U64 = npt.NDArray[np.uint64]

def build_self_table(
    ids: _I32, off: _I64, max_order: int, hash_mask: int = 0xFFFFFFFFFFFFFFFF
) -> tuple[_U64, int]:
    """``(table, capacity)``: the self-BLEU table of the texts ``ids[off[i]:off[i+1]]``."""

def score_self_table(
    table: _U64,
    cap: int,
    table_order: int,
    ids: _I32,
    off: _I64,
    max_order: int,
    out: _I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = 0xFFFFFFFFFFFFFFFF,
) -> None:
    """Rows of texts ``seg_start..seg_end``, each against all the other texts."""
