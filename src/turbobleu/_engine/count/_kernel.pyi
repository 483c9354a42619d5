"""Type stubs for the compiled kernel ``_kernel.pyx`` (``_kernel_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]

def count_stats(
    hyp_ids: _I32,
    hyp_off: _I64,
    ref_ids: _I32,
    ref_off: _I64,
    seg_ref_off: _I64,
    max_order: int,
    out: _I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = 0xFFFFFFFFFFFFFFFF,
    n_ids: int = 0,
) -> None:
    """Fill the zeroed rows ``out[seg_start:seg_end]`` with ``[hyp_len, ref_len, matches_1..N,
    totals_1..N]``; ``out`` has ``2 + 2*max_order`` columns."""

def table_slots_of(max_order: int, hyp_len: int) -> int:
    """The slots a hypothesis of ``hyp_len`` ids gets for orders 1..max_order (a test hook)."""
