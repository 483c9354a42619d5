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

import math as _math
from collections import Counter
from operator import index as _index

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as _np

from turbobleu._engine.recipes import nltk as nltk_recipe
from turbobleu._engine.recipes.sacrebleu import sacrebleu_score_of_row

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = [
    "bounded_integers",
    "build_ref_tables",
    "build_self_table",
    "count_stats",
    "exact_sum_of",
    "group_capacity_of",
    "libm_map",
    "nltk_sentence_scores",
    "pack_groups",
    "pack_sequences",
    "rat_to_double_of",
    "resample_counts",
    "sacrebleu_score_parts",
    "sacrebleu_sentence_scores",
    "score_ref_tables",
    "score_self_table",
]


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
    hyp_ids: Any,
    hyp_off: Any,
    ref_ids: Any,
    ref_off: Any,
    seg_ref_off: Any,
    max_order: int,
    out: Any,
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


def sacrebleu_sentence_scores(
    rows: Any,
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
    out: Any,
) -> None:
    """out[i] = sacrebleu's score of statistics row i (``neumaier`` is implied by Python here)."""
    for i, row in enumerate(rows.tolist()):
        out[i] = sacrebleu_score_of_row(
            row, max_order, smooth_method, smooth_value, effective_order
        ).score


def sacrebleu_score_parts(
    row: Sequence[int],
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
) -> Any:
    """(score, precisions, bp) of one statistics row (``neumaier`` is implied by Python here)."""
    if smooth_method == "add-k" or max_order > 16:
        raise ValueError("sacrebleu_score_parts: add-k and max_order > 16 take the Python recipe")
    result = sacrebleu_score_of_row(
        list(row), max_order, smooth_method, smooth_value, effective_order
    )
    return result.score, result.precisions, result.bp


# =============================================================================================
# Token-id batch path (batch.py): twins of the functions appended to _kernel.pyx. The hash
# tables are laid out exactly as the compiled ones (same hash, same probing, same insertion
# order), so tests can compare them word for word.
# =============================================================================================

_MASK64 = 0xFFFFFFFFFFFFFFFF
_EMPTY_KEY = _MASK64
_GOLDEN = 0x9E3779B97F4A7C15
NLTK_METHODS = 8


def _as_id(item: Any, what: str, i: int, j: int) -> int:
    try:
        v = _index(item)
    except TypeError:
        kind = type(item).__name__
        shown = kind if isinstance(item, (list, tuple)) else f"{kind} {item!r}"
        raise TypeError(f"{what}[{i}][{j}] must be an integer token id, got {shown}") from None
    if not 0 <= v <= 0x7FFFFFFF:
        raise ValueError(
            f"{what}[{i}][{j}] = {item!r}: token ids must be integers in "
            "0..2**31-1 (negative ids are reserved)"
        )
    return v


def _is_pad(item: Any, pad: Any) -> bool:
    try:
        return pad is not None and _index(item) == pad
    except TypeError:
        return False


def _items(seq: Any, name: str, give: str, expected: str) -> list:
    """``list(seq)`` for the input ``name``, which must not be text (``give`` says what to pass
    instead) and must be ``expected``."""
    if isinstance(seq, (str, bytes)):
        raise TypeError(
            f"{name} is a {type(seq).__name__}: {give}, or pass text with a "
            "tokenizer (tokenize=...)"
        )
    # As the compiled packer (PySequence_Check): a dict or a set is no row, whatever it holds.
    if isinstance(seq, (dict, set, frozenset)) or not hasattr(type(seq), "__getitem__"):
        raise TypeError(f"{name} must be {expected}, got {type(seq).__name__}")
    return list(seq)


def _extend_ids(flat: list, seq: Any, what: str, i: int, pad: Any) -> None:
    """Append the ids of ``what[i]``, a token-id sequence, to ``flat``, leaving out ``pad``."""
    items = _items(seq, f"{what}[{i}]", "give token ids", "a sequence of token ids")
    flat.extend(_as_id(item, what, i, j) for j, item in enumerate(items) if not _is_pad(item, pad))


def pack_sequences(rows: Any, what: str, pad: Any = None, first: int = 0):
    """Pack a sequence of integer sequences into ``(ids int32, offsets int64)`` (CSR); items
    equal to ``pad`` are left out. Messages count rows from ``first``."""
    if isinstance(rows, (str, bytes)):
        raise TypeError(
            f"{what} must be a sequence of token-id sequences, got {type(rows).__name__}"
        )
    flat: list = []
    offsets = [0]
    for i, row in enumerate(rows, start=first):
        _extend_ids(flat, row, what, i, pad)
        offsets.append(len(flat))
    return _np.array(flat, dtype=_np.int32), _np.array(offsets, dtype=_np.int64)


def pack_groups(groups: Any, what: str, pad: Any = None, first: int = 0):
    """``(ids, offsets, group_offsets)`` of a sequence of groups of integer sequences; messages
    count groups from ``first``."""
    if isinstance(groups, (str, bytes)):
        raise TypeError(
            f"{what} must be a sequence of reference lists, got {type(groups).__name__}"
        )
    ids: list = []
    offsets = [0]
    group_offsets = [0]
    for g, grp in enumerate(groups, start=first):
        refs = _items(
            grp,
            f"{what}[{g}]",
            "give a list of token-id references",
            "a list of references (token-id sequences)",
        )
        for k, ref in enumerate(refs):
            if hasattr(ref, "__index__"):
                raise TypeError(
                    f"{what}[{g}][{k}] is an integer: {what}[{g}] must be a list of "
                    f"references, each a sequence of ids (for one reference per "
                    f"row, wrap it: [[ref] for ref in refs])"
                )
            _extend_ids(ids, ref, f"{what}[{g}]", k, pad)
            offsets.append(len(ids))
        group_offsets.append(len(offsets) - 1)
    return (
        _np.array(ids, dtype=_np.int32),
        _np.array(offsets, dtype=_np.int64),
        _np.array(group_offsets, dtype=_np.int64),
    )


def group_capacity_of(distinct: int) -> int:
    """Slots for ``distinct`` n-grams: load at most 2/3, and always one empty slot."""
    return distinct + distinct // 2 + 1


def _key(prefix_slot: int, token: int) -> int:
    return ((prefix_slot + 1) << 32) | (token & 0xFFFFFFFF)


def _start(key: int, cap: int, hmask: int) -> int:
    h = (key * _GOLDEN) & _MASK64
    return (((h >> 32) & hmask) * cap) >> 32


def _probe(keys: Any, stride: int, base: int, cap: int, hmask: int, key: int) -> int:
    """Slot (relative to base) of ``key`` or of the empty slot where it goes; keys[stride*s]."""
    i = _start(key, cap, hmask)
    while True:
        k = int(keys[stride * (base + i)])
        if k == key or k == _EMPTY_KEY:
            return i
        i += 1
        if i == cap:
            i = 0


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
    ref_ids: Any,
    ref_off: Any,
    grp_ref_off: Any,
    max_order: int,
    g_start: int = 0,
    g_end: int = -1,
    hash_mask: int = _MASK64,
):
    """Max-count tables of groups ``g_start..g_end`` as ``(table uint64, caps int64)``."""
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
        region = [_EMPTY_KEY, 0] * cap
        slot_of: dict = {}
        for gram, count in grams.items():
            prefix = slot_of[gram[:-1]] if len(gram) > 1 else -1
            key = _key(prefix, gram[-1])
            pos = _probe(region, 2, 0, cap, hmask, key)
            region[2 * pos] = key
            region[2 * pos + 1] = count
            slot_of[gram] = pos
        regions.extend(region)
        caps.append(cap)
    return _np.array(regions, dtype=_np.uint64), _np.array(caps, dtype=_np.int64)


def _closest(hyp_len: int, lens: list) -> int:
    return closest_ref_len(hyp_len, lens)


def _segment_end(seg_end: int, n_seg: int, max_order: int, table_order: int, whose: str) -> int:
    """``seg_end`` (-1: all segments), once ``max_order`` is checked against the table's."""
    if not 1 <= max_order <= table_order:
        raise ValueError(f"max_order must be in 1..{table_order} ({whose} order), got {max_order}")
    return n_seg if seg_end < 0 else seg_end


def _clipped_matches(
    tokens: list, max_order: int, limit_at: Callable[[int, int], Tuple[int, int]]
) -> list:
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


def score_ref_tables(
    table: Any,
    tab_base: Any,
    tab_cap: Any,
    len_off: Any,
    ref_lens: Any,
    table_order: int,
    hyp_ids: Any,
    hyp_off: Any,
    hyp_group: Any,
    max_order: int,
    out: Any,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = _MASK64,
) -> None:
    """Rows of hypotheses ``seg_start..seg_end`` against their groups' tables."""
    n_seg = len(hyp_off) - 1
    seg_end = _segment_end(seg_end, n_seg, max_order, table_order, "the tables'")
    if not 0 <= seg_start <= seg_end <= n_seg or len(hyp_group) != n_seg:
        raise ValueError("score_ref_tables: inconsistent segment offsets")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("score_ref_tables: output array has the wrong shape")
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
            key = _key(prefix, token)
            pos = _probe(table, 2, base, cap, hmask, key)
            found = int(table[2 * (base + pos)]) == key
            return pos, int(table[2 * (base + pos) + 1]) if found else 0

        matches = _clipped_matches(hyp, max_order, reference_max)
        totals = [max(0, len(hyp) - n + 1) for n in range(1, max_order + 1)]
        out[seg, :] = (
            [len(hyp), _closest(len(hyp), lens[len_off[g] : len_off[g + 1]])] + matches + totals
        )


def rat_to_double_of(num: int, den: int) -> float:
    """num/den rounded once to the nearest double (den > 0)."""
    if den <= 0:
        raise ValueError("den must be > 0")
    return num / den


def exact_sum_of(values: Any) -> float:
    return _math.fsum(values)


# -- NLTK's sentence recipe from one statistics row -------------------------------------------
def nltk_row_score(
    row: Sequence[int],
    row_order: int,
    weights: Sequence[float],
    method: int,
    epsilon: Any,
    alpha: Any,
    k_value: Any,
    auto_reweigh: bool,
    zero_orders: Optional[list] = None,
) -> float:
    """NLTK's ``sentence_bleu`` of one statistics row (``_engine.recipes.nltk.row_score``), with
    method0's zero orders flagged in ``zero_orders`` (if given) instead of warned."""

    def flag(order: int) -> None:
        if zero_orders is not None:
            zero_orders[order - 1] = 1

    return nltk_recipe.row_score(
        row,
        row_order,
        weights,
        method,
        nltk_recipe.Parameters(epsilon, alpha, k_value),
        auto_reweigh,
        flag,
    )


def nltk_sentence_scores(
    rows: Any,
    row_order: int,
    weights: Any,
    method: int,
    epsilon: Any,
    alpha: Any,
    k_value: Any,
    auto_reweigh: bool,
    out: Any,
    status: Any,
    zero_orders: Any,
    start: int = 0,
    end: int = -1,
) -> None:
    """out[i] = NLTK's sentence_bleu of row i; ``status[i]`` = 1 where NLTK raises for the row
    (as the compiled kernel marks the rows it hands back): the caller reruns ``nltk_row_score``
    on those to raise with context."""
    if end < 0:
        end = rows.shape[0]
    if not 0 <= method < NLTK_METHODS:
        raise ValueError(f"method must be 0..7, got {method}")
    K = len(weights)
    if K < 1 or K > row_order or rows.shape[1] != 2 + 2 * row_order:
        raise ValueError("nltk_sentence_scores: weights and rows do not match")
    w = [float(x) for x in weights]
    flags = [0] * K
    for i in range(start, end):
        try:
            out[i] = nltk_row_score(
                rows[i].tolist(), row_order, w, method, epsilon, alpha, k_value, auto_reweigh, flags
            )
            status[i] = 0
        except (ArithmeticError, AssertionError, IndexError, ValueError):
            status[i] = 1
    for i, f in enumerate(flags):
        if f:
            zero_orders[i] = 1


# -- self-BLEU ----------------------------------------------------------------------------------
def build_self_table(ids: Any, off: Any, max_order: int, hash_mask: int = _MASK64):
    """``(table uint64, capacity)``: slot s is words 3s..3s+2 = key, max1 | max2 << 32, owner."""
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    hmask = hash_mask & 0xFFFFFFFF
    texts = [ids[off[i] : off[i + 1]].tolist() for i in range(len(off) - 1)]
    occ = sum(max(0, len(t) - n + 1) for t in texts for n in range(1, max_order + 1))
    cap = occ + occ // 2 + 1
    table = [_EMPTY_KEY, 0, 0xFFFFFFFF] * cap
    for j, txt in enumerate(texts):
        cur: dict = {}
        for i in range(len(txt)):
            prefix = -1
            for n in range(1, min(max_order, len(txt) - i) + 1):
                key = _key(prefix, txt[i + n - 1])
                s = _probe(table, 3, 0, cap, hmask, key)
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
    table: Any,
    cap: int,
    table_order: int,
    ids: Any,
    off: Any,
    max_order: int,
    out: Any,
    seg_start: int = 0,
    seg_end: int = -1,
    hash_mask: int = _MASK64,
) -> None:
    """Rows of texts ``seg_start..seg_end`` against all the other texts (ref_len left -1)."""
    seg_end = _segment_end(seg_end, len(off) - 1, max_order, table_order, "the table's")
    if out.shape[0] < seg_end or out.shape[1] != 2 + 2 * max_order:
        raise ValueError("score_self_table: output array has the wrong shape")
    hmask = hash_mask & 0xFFFFFFFF
    for seg in range(seg_start, seg_end):
        txt = ids[off[seg] : off[seg + 1]].tolist()

        def others_max(prefix: int, token: int) -> Tuple[int, int]:
            s = _probe(table, 3, 0, cap, hmask, _key(prefix, token))
            word = int(table[3 * s + 1])
            # the largest count in another text: the second largest if this text has the largest
            return s, word >> 32 if int(table[3 * s + 2]) == seg else word & 0xFFFFFFFF

        matches = _clipped_matches(txt, max_order, others_max)
        totals = [max(0, len(txt) - n + 1) for n in range(1, max_order + 1)]
        out[seg, :] = [len(txt), -1] + matches + totals


def resample_counts(rng: Any, n_segments: int, counts: Any) -> None:
    """``counts[b, i]`` = how often segment i is in resample b, for the next ``len(counts)`` rows
    of ``rng.choice(n_segments, size=(rows, n_segments), replace=True)`` (sacrebleu's draw)."""
    if counts.shape[1] != n_segments:
        raise ValueError("resample_counts: counts must have n_segments columns")
    indices = rng.choice(n_segments, size=counts.shape, replace=True)
    for b, row in enumerate(indices):
        counts[b] = _np.bincount(row, minlength=n_segments)


def bounded_integers(rng: Any, n: int, size: int) -> Any:
    """``rng.integers(0, n, size)`` (the draw the compiled ``resample_counts`` reproduces)."""
    return rng.integers(0, n, size=size, dtype=_np.int64)


def libm_map(name: str, x: Any, out: Any) -> bool:
    """``out[i] = math.<name>(x[i])`` for name "log" or "exp" (the compiled kernel calls the same
    libm functions in C); always succeeds here (``math`` raises where it would)."""
    if name not in ("log", "exp"):
        raise ValueError(f"libm_map: name must be 'log' or 'exp', got {name!r}")
    if len(out) != len(x):
        raise ValueError("libm_map: out must have the length of x")
    out[:] = _np.fromiter(map(getattr(_math, name), x.tolist()), dtype=_np.float64, count=len(x))
    return True
