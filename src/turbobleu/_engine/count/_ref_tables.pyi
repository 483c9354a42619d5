"""Type stubs for ``_ref_tables.pyx`` (``_ref_tables_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to the .pyx needs its line here.
"""

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]
_U64 = npt.NDArray[np.uint64]

def group_capacity_of(distinct: int) -> int:
    """The table capacity a group with ``distinct`` n-grams gets (a test hook)."""

def build_ref_tables(
    ref_ids: _I32,
    ref_off: _I64,
    grp_ref_off: _I64,
    max_order: int,
    g_start: int = 0,
    g_end: int = -1,
    hash_mask: int = 0xFFFFFFFFFFFFFFFF,
) -> tuple[_U64, _I64]:
    """``(table, caps)``: the max-count tables of reference groups ``g_start..g_end``."""

def score_ref_tables(
    table: _U64,
    tab_base: _I64,
    tab_cap: _I64,
    len_off: _I64,
    ref_lens: _I64,
    table_order: int,
    hyp_ids: _I32,
    hyp_off: _I64,
    hyp_group: _I64,
    max_order: int,
    out: _I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = 0xFFFFFFFFFFFFFFFF,
) -> None:
    """Statistics rows of hypotheses ``seg_start..seg_end`` against their groups' tables."""
