"""Pure-Python twin of ``_self_table.pyx``: self-BLEU, each text against all the others, from one
table over all texts. The table is laid out word for word as the compiled one
(``table_layout``)."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Tuple

    from turbobleu._engine.buffer_types import I32, I64, U64

import numpy as _np

from turbobleu._engine.count import table_layout as layout

# The functions the compiled module beside it has, with the same parameters (tests/test_layout.py).
__all__ = ["build_self_table", "score_self_table"]


def build_self_table(
    ids: I32, off: I64, max_order: int, hash_mask: int = layout.MASK64
) -> Tuple[U64, int]:
    """``(table uint64, capacity)``: slot s is words 3s..3s+2 = key, max1 | max2 << 32, owner."""
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    hmask = hash_mask & 0xFFFFFFFF
    texts = [ids[off[i] : off[i + 1]].tolist() for i in range(len(off) - 1)]
    occ = sum(max(0, len(t) - n + 1) for t in texts for n in range(1, max_order + 1))
    cap = layout.exact_capacity(occ)
    table = [layout.EMPTY_KEY, 0, 0xFFFFFFFF] * cap
    for j, txt in enumerate(texts):
        cur: dict = {}
        for i in range(len(txt)):
            prefix = -1
            for n in range(1, min(max_order, len(txt) - i) + 1):
                key = layout.ngram_key(prefix, txt[i + n - 1])
                s = layout.probe(table, 3, 0, cap, hmask, key)
                table[3 * s] = key
                cur[s] = cur.get(s, 0) + 1
                count = cur[s]
                max1, max2 = table[3 * s + 1] & 0xFFFFFFFF, table[3 * s + 1] >> 32
                if table[3 * s + 2] == j:
                    max1 = count
                elif count > max1:
                    max1, max2 = count, max1
                    table[3 * s + 2] = j
                elif count > max2:
                    max2 = count
                table[3 * s + 1] = max1 | (max2 << 32)
                prefix = s
    return _np.array(table, dtype=_np.uint64), cap


def score_self_table(
    table: U64,
    cap: int,
    table_order: int,
    ids: I32,
    off: I64,
    max_order: int,
    out: I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = layout.MASK64,
) -> None:
    """Rows of texts ``seg_start..seg_end`` against all the other texts (ref_len left -1)."""
    seg_end = layout.segment_end(seg_end, len(off) - 1, max_order, table_order, "the table's")
    layout.check_out(out, seg_end, max_order, "score_self_table")
    hmask = hash_mask & 0xFFFFFFFF
    for seg in range(seg_start, seg_end):
        txt = ids[off[seg] : off[seg + 1]].tolist()

        def others_max(prefix: int, token: int) -> Tuple[int, int]:
            s = layout.probe(table, 3, 0, cap, hmask, layout.ngram_key(prefix, token))
            word = int(table[3 * s + 1])
            # the largest count in another text: the second largest if this text has the largest
            return s, word >> 32 if int(table[3 * s + 2]) == seg else word & 0xFFFFFFFF

        out[seg, :] = layout.statistics_row(txt, -1, max_order, others_max)
