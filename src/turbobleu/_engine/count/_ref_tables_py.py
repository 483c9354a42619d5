"""Pure-Python twin of ``_ref_tables.pyx``: prepared reference groups, each a table of every
n-gram of its references with its maximum count in any one reference, and hypotheses scored
against them. The tables are laid out word for word as the compiled ones (``table_layout``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Tuple

    from turbobleu._engine.buffer_types import I32, I64, U64

import numpy as _np

from turbobleu._engine.count import table_layout as layout
from turbobleu._engine.count._kernel_py import closest_ref_len

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["build_ref_tables", "group_capacity_of", "score_ref_tables"]


def group_capacity_of(distinct: int) -> int:
    """The table capacity a group with ``distinct`` n-grams gets (a test hook)."""
    return layout.exact_capacity(distinct)


def _ngrams_first_seen(refs: list, max_order: int) -> dict:
    """Every n-gram (tuple) of the references -> max count in one reference, in first-seen
    order (a prefix always comes before its extensions)."""
    best: dict = {}
    for ref in refs:
        counts: dict = {}
        for i in range(len(ref)):
            for n in range(1, min(max_order, len(ref) - i) + 1):
                gram = tuple(ref[i : i + n])
                best.setdefault(gram, 0)
                counts[gram] = counts.get(gram, 0) + 1
        for gram, c in counts.items():
            if c > best[gram]:
                best[gram] = c
    return best


def build_ref_tables(
    ref_ids: I32,
    ref_off: I64,
    grp_ref_off: I64,
    max_order: int,
    g_start: int = 0,
    g_end: int = -1,
    hash_mask: int = layout.MASK64,
) -> Tuple[U64, I64]:
    """``(table, caps)``: the max-count tables of reference groups ``g_start..g_end``."""
    n_grp = len(grp_ref_off) - 1
    if g_end < 0:
        g_end = n_grp
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if not 0 <= g_start <= g_end <= n_grp:
        raise ValueError("build_ref_tables: inconsistent group range")
    hmask = hash_mask & 0xFFFFFFFF
    ids = ref_ids.tolist()
    regions = []
    caps = []
    for g in range(g_start, g_end):
        refs = [ids[ref_off[r] : ref_off[r + 1]] for r in range(grp_ref_off[g], grp_ref_off[g + 1])]
        grams = _ngrams_first_seen(refs, max_order)
        cap = group_capacity_of(len(grams))
        region = [layout.EMPTY_KEY, 0] * cap
        slot_of: dict = {}
        for gram, count in grams.items():
            prefix = slot_of[gram[:-1]] if len(gram) > 1 else -1
            key = layout.ngram_key(prefix, gram[-1])
            pos = layout.probe(region, 2, 0, cap, hmask, key)
            region[2 * pos] = key
            region[2 * pos + 1] = count
            slot_of[gram] = pos
        regions.extend(region)
        caps.append(cap)
    return _np.array(regions, dtype=_np.uint64), _np.array(caps, dtype=_np.int64)


def score_ref_tables(
    table: U64,
    tab_base: I64,
    tab_cap: I64,
    len_off: I64,
    ref_lens: I64,
    table_order: int,
    hyp_ids: I32,
    hyp_off: I64,
    hyp_group: I64,
    max_order: int,
    out: I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = layout.MASK64,
) -> None:
    """Rows of hypotheses ``seg_start..seg_end`` against their groups' tables."""
    n_seg = len(hyp_off) - 1
    seg_end = layout.segment_end(seg_end, n_seg, max_order, table_order, "the tables'")
    if not 0 <= seg_start <= seg_end <= n_seg or len(hyp_group) != n_seg:
        raise ValueError("score_ref_tables: inconsistent segment offsets")
    layout.check_out(out, seg_end, max_order, "score_ref_tables")
    hmask = hash_mask & 0xFFFFFFFF
    hyps = hyp_ids.tolist()
    lens = ref_lens.tolist()
    for seg in range(seg_start, seg_end):
        g = int(hyp_group[seg])
        if not 0 <= g < len(tab_base):
            raise ValueError(f"score_ref_tables: group {g} of hypothesis {seg} out of range")
        base, cap = int(tab_base[g]), int(tab_cap[g])
        hyp = hyps[hyp_off[seg] : hyp_off[seg + 1]]

        def reference_max(prefix: int, token: int) -> Tuple[int, int]:
            key = layout.ngram_key(prefix, token)
            pos = layout.probe(table, 2, base, cap, hmask, key)
            found = int(table[2 * (base + pos)]) == key
            return pos, int(table[2 * (base + pos) + 1]) if found else 0

        ref_len = closest_ref_len(len(hyp), lens[len_off[g] : len_off[g + 1]])
        out[seg, :] = layout.statistics_row(hyp, ref_len, max_order, reference_max)
