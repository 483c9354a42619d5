"""The compiled n-gram tables' layout in Python, for the twins ``_ref_tables_py`` and
``_self_table_py``: they lay out their tables word for word as the compiled modules do (same keys,
same hash, same probing, same insertion order), so tests can compare the tables themselves.

Keys are exact: an n-gram's key is (slot of its (n-1)-gram prefix + 1) << 32 | its last id
(``ngram_keys.pxd``), so equal keys are equal id spans.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Tuple

MASK64 = 0xFFFFFFFFFFFFFFFF
EMPTY_KEY = MASK64  # the key of an unused slot
_GOLDEN = 0x9E3779B97F4A7C15


def ngram_key(prefix_slot: int, token: int) -> int:
    """The key of the n-gram ending in ``token`` whose prefix has ``prefix_slot`` (-1: none)."""
    return ((prefix_slot + 1) << 32) | (token & 0xFFFFFFFF)


def scaled_start(key: int, hmask: int, cap: int) -> int:
    """Where ``key``'s probe starts in a table of ``cap`` slots (``hmask``: the test hook)."""
    h = (key * _GOLDEN) & MASK64
    return (((h >> 32) & hmask) * cap) >> 32


def probe(keys: Any, stride: int, base: int, cap: int, hmask: int, key: int) -> int:
    """Slot (relative to base) of ``key`` or of the empty slot where it goes; keys[stride*s]."""
    i = scaled_start(key, hmask, cap)
    while True:
        k = int(keys[stride * (base + i)])
        if k == key or k == EMPTY_KEY:
            return i
        i += 1
        if i == cap:
            i = 0


def exact_capacity(entries: int) -> int:
    """Slots for ``entries`` keys: load at most 2/3, and always one empty slot."""
    return entries + entries // 2 + 1


def segment_end(seg_end: int, n_seg: int, max_order: int, table_order: int, whose: str) -> int:
    """``seg_end`` (-1: all segments), once ``max_order`` is checked against the table's."""
    if not 1 <= max_order <= table_order:
        raise ValueError(f"max_order must be in 1..{table_order} ({whose} order), got {max_order}")
    return n_seg if seg_end < 0 else seg_end


def check_out(out: Any, seg_end: int, max_order: int, caller: str) -> None:
    """``out`` has a row for every segment below ``seg_end``, each a statistics row."""
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError(f"{caller}: output array has the wrong shape")


def statistics_row(
    tokens: List[int],
    ref_len: int,
    max_order: int,
    limit_at: Callable[[int, int], Tuple[int, int]],
) -> List[int]:
    """``[len, ref_len, matches_1..N, totals_1..N]`` of ``tokens`` against a table (see
    ``clipped_matches``)."""
    totals = [max(0, len(tokens) - n + 1) for n in range(1, max_order + 1)]
    return [len(tokens), ref_len] + clipped_matches(tokens, max_order, limit_at) + totals


def clipped_matches(
    tokens: List[int], max_order: int, limit_at: Callable[[int, int], Tuple[int, int]]
) -> List[int]:
    """Matches per order of ``tokens`` against a table of prefix-chained n-grams:
    ``limit_at(prefix slot, token)`` is the n-gram's slot and how often it may match (0: not in
    the table, and so neither is any longer n-gram from here)."""
    matches = [0] * max_order
    used: dict = {}
    for i in range(len(tokens)):
        prefix = -1
        for n in range(1, min(max_order, len(tokens) - i) + 1):
            slot, limit = limit_at(prefix, tokens[i + n - 1])
            if limit == 0:
                break
            if used.get(slot, 0) < limit:
                used[slot] = used.get(slot, 0) + 1
                matches[n - 1] += 1
            prefix = slot
    return matches
