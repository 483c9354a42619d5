"""Pure-Python twin of ``_kernel.pyx``: the readable specification of the statistics.

Same signature and same results as the compiled kernel. For one segment with hypothesis ids ``h``
and references ``r_1..r_k``, the row is::

    [len(h), closest_ref_len, matches_1..matches_N, totals_1..totals_N]

- ``totals_n`` = number of n-grams in ``h`` = max(0, len(h) - n + 1);
- ``matches_n`` = sum over distinct n-grams g of h of min(count_h(g), max_j count_{r_j}(g));
- ``closest_ref_len`` = the reference length nearest to len(h), the shorter one on a tie, and -1
  when the segment has no reference.
"""

from __future__ import annotations

from collections import Counter

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Sequence

    from turbobleu._engine.buffer_types import I32, I64

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = ["count_stats"]


def ngram_counts(ids: Sequence[int], max_order: int) -> Counter:
    """Count every n-gram (as a tuple of ids) of orders 1..max_order."""
    counts: Counter = Counter()
    for n in range(1, max_order + 1):
        for i in range(len(ids) - n + 1):
            counts[tuple(ids[i : i + n])] += 1
    return counts


def closest_ref_len(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to hyp_len; ties go to the shorter; -1 without references."""
    best = -1
    for r in ref_lens:
        if best < 0 or (abs(r - hyp_len), r) < (abs(best - hyp_len), best):
            best = r
    return best


def segment_row(hyp: Sequence[Any], refs: Sequence[Sequence[Any]], max_order: int) -> list:
    hyp_counts = ngram_counts(hyp, max_order)
    ref_max: Counter = Counter()
    for ref in refs:
        for gram, c in ngram_counts(ref, max_order).items():
            if c > ref_max[gram]:
                ref_max[gram] = c
    matches = [0] * max_order
    for gram, c in hyp_counts.items():
        matches[len(gram) - 1] += min(c, ref_max[gram])
    totals = [max(0, len(hyp) - n + 1) for n in range(1, max_order + 1)]
    return [len(hyp), closest_ref_len(len(hyp), [len(r) for r in refs])] + matches + totals


def _check_offsets(
    hyp_ids: Any, hyp_off: Any, ref_ids: Any, ref_off: Any, seg_ref_off: Any
) -> None:
    for name, off in (("hyp_off", hyp_off), ("ref_off", ref_off), ("seg_ref_off", seg_ref_off)):
        if any(off[k] > off[k + 1] for k in range(len(off) - 1)) or (len(off) and off[0] < 0):
            raise ValueError(f"{name} must be non-decreasing from 0")
    if (
        hyp_off[-1] > len(hyp_ids)
        or seg_ref_off[-1] > len(ref_off) - 1
        or (len(ref_off) and ref_off[-1] > len(ref_ids))
    ):
        raise ValueError("count_stats: offsets point past the id buffers")


MAX_DENSE_IDS = 0x7FFFFFFF - 1


def _check_dense(ids: Any, n_ids: int, name: str) -> None:
    if n_ids > MAX_DENSE_IDS:
        raise ValueError(f"count_stats: n_ids must be at most {MAX_DENSE_IDS}, got {n_ids}")
    for k, token in enumerate(ids.tolist() if hasattr(ids, "tolist") else ids):
        if not -1 <= token < n_ids:
            raise ValueError(
                f"count_stats: with n_ids={n_ids}, {name} must be -1 or in "
                f"0..{n_ids - 1}; {name}[{k}] is {token}"
            )


def count_stats(
    hyp_ids: I32,
    hyp_off: I64,
    ref_ids: I32,
    ref_off: I64,
    seg_ref_off: I64,
    max_order: int,
    out: I64,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = 0xFFFFFFFFFFFFFFFF,
    n_ids: int = 0,
) -> None:
    """Fill ``out[seg_start:seg_end]`` with statistics rows (see the module docstring).

    ``hash_mask`` is accepted for signature parity with the compiled kernel; tuples need no hash.
    So is ``n_ids`` (> 0: the ids are -1 or below it, which the compiled kernel counts faster),
    checked the same way.
    """
    n_seg = len(hyp_off) - 1
    if seg_end < 0:
        seg_end = n_seg
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    if not (0 <= seg_start <= seg_end <= n_seg) or len(seg_ref_off) != n_seg + 1:
        raise ValueError("count_stats: inconsistent segment offsets")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("count_stats: output array has the wrong shape")
    _check_offsets(hyp_ids, hyp_off, ref_ids, ref_off, seg_ref_off)
    if n_ids > 0:
        _check_dense(hyp_ids, n_ids, "hyp_ids")
        _check_dense(ref_ids, n_ids, "ref_ids")
    hyp_list = hyp_ids.tolist() if hasattr(hyp_ids, "tolist") else list(hyp_ids)
    ref_list = ref_ids.tolist() if hasattr(ref_ids, "tolist") else list(ref_ids)
    for seg in range(seg_start, seg_end):
        hyp = hyp_list[hyp_off[seg] : hyp_off[seg + 1]]
        refs = [
            ref_list[ref_off[r] : ref_off[r + 1]]
            for r in range(seg_ref_off[seg], seg_ref_off[seg + 1])
        ]
        out[seg, :] = segment_row(hyp, refs, max_order)
