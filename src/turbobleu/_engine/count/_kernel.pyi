"""Type stubs for the compiled kernel ``_kernel.pyx`` (``_kernel_py.py`` is its pure-Python twin).

Buffers are typed as the NumPy arrays the package passes; the compiled functions accept any
C-contiguous buffer of the same item type. tests/typing checks these against the compiled module
(mypy.stubtest): a function added to _kernel.pyx needs its line here.
"""

from typing import Sequence

import numpy as np
import numpy.typing as npt

_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]
_U64 = npt.NDArray[np.uint64]
_F64 = npt.NDArray[np.float64]
_U8 = npt.NDArray[np.uint8]

# smooth_method name -> the code sacrebleu_sentence_scores switches on
SMOOTH_CODES: dict[str, int]
# how many NLTK smoothing methods (method0..method7) nltk_sentence_scores knows
NLTK_METHODS: int

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

def sacrebleu_sentence_scores(
    rows: _I64,
    max_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
    out: _F64,
) -> None:
    """``out[i]`` = sacrebleu's sentence score of statistics row ``i``."""

def sacrebleu_score_parts(
    row: Sequence[int],
    max_order: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    neumaier: bool,
) -> tuple[float, list[float], float]:
    """(score, precisions, bp) of one statistics row; any smoothing but add-k, max_order <= 16."""

def pack_sequences(
    rows: Sequence[Sequence[int]], what: str, pad: int | None = None, first: int = 0
) -> tuple[_I32, _I64]:
    """``(ids, offsets)`` of integer sequences (CSR); items equal to ``pad`` are left out."""

def pack_groups(
    groups: Sequence[Sequence[Sequence[int]]], what: str, pad: int | None = None, first: int = 0
) -> tuple[_I32, _I64, _I64]:
    """``(ids, offsets, group_offsets)`` of groups of integer sequences."""

def group_capacity_of(distinct: int) -> int:
    """The table capacity a group with ``distinct`` n-grams gets (a test hook)."""

def table_slots_of(max_order: int, hyp_len: int) -> int:
    """The slots a hypothesis of ``hyp_len`` ids gets for orders 1..max_order (a test hook)."""

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

def resample_counts(
    rng: np.random.Generator, n_segments: int, counts: npt.NDArray[np.float32]
) -> None:
    """``counts[b, i]``: how often segment i is in resample b of NumPy's
    ``rng.choice(n_segments, size=(len(counts), n_segments), replace=True)``."""

def bounded_integers(rng: np.random.Generator, n: int, size: int) -> _I64:
    """``rng.integers(0, n, size)`` through the same draw (a test hook)."""

def libm_map(name: str, x: _F64, out: _F64) -> bool:
    """``out[i] = math.<name>(x[i])`` ("log" or "exp") in C; False where ``math`` must decide."""
