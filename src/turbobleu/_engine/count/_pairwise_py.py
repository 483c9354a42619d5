"""Pure-Python twin of ``_pairwise.pyx``: the readable specification of pairwise statistics.

Same signatures and same results as the compiled module. For hypothesis text i and one reference
text j the row is ``[len(i), len(j), matches_1..N, totals_1..N]`` with ``totals_n = max(0,
len(i) - n + 1)`` and ``matches_n`` = sum over the distinct n-grams g of i of ``min(count_i(g),
count_j(g))`` (``_kernel_py``'s rows with a single reference).

The work is split so that no text is read twice: ``ngram_profiles`` numbers every distinct n-gram
and lists each text's n-grams with their counts; ``column_postings`` inverts a block of columns
(n-gram -> the columns holding it); ``pairwise_stats`` adds, for each hypothesis n-gram, its
clipped count to every column in its posting list.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

__all__ = ["column_postings", "ngram_profiles", "pairwise_stats"]


def _check_block(start: int, end: int, n_texts: int, what: str) -> None:
    if not 0 <= start <= end <= n_texts:
        raise ValueError(f"{what} range {start}..{end} is outside 0..{n_texts}")


def ngram_profiles(ids: Any, off: Any, max_order: int) -> Tuple[Any, Any, Any, int]:
    """``(prof_off, prof_gram, prof_count, n_grams)``: text t's distinct n-grams of order n
    (1..max_order) are ``prof_gram[prof_off[t*max_order + n-1] : prof_off[t*max_order + n]]``,
    numbered 0..n_grams-1 across all texts, each with its count in t."""
    if max_order < 1:
        raise ValueError(f"max_order must be >= 1, got {max_order}")
    n_texts = len(off) - 1
    if n_texts < 0:
        raise ValueError("off must hold at least one offset")
    numbers: Dict[Tuple[int, ...], int] = {}
    prof_off = [0]
    grams: List[int] = []
    counts: List[int] = []
    for t in range(n_texts):
        start, end = int(off[t]), int(off[t + 1])
        if start < 0 or end < start or end > len(ids):
            raise ValueError(f"off is not a valid CSR offset array at text {t}")
        text = [int(x) for x in ids[start:end]]
        for n in range(1, max_order + 1):
            here: Dict[int, int] = {}  # n-gram number -> count, in order of first occurrence
            for p in range(len(text) - n + 1):
                g = numbers.setdefault(tuple(text[p : p + n]), len(numbers))
                here[g] = here.get(g, 0) + 1
            grams.extend(here)
            counts.extend(here.values())
            prof_off.append(len(grams))
    return (
        np.array(prof_off, dtype=np.int64),
        np.array(grams, dtype=np.int32),
        np.array(counts, dtype=np.int32),
        len(numbers),
    )


def column_postings(
    prof_off: Any,
    prof_gram: Any,
    prof_count: Any,
    n_grams: int,
    max_order: int,
    c_start: int,
    c_end: int,
) -> Tuple[Any, Any, Any]:
    """``(post_off, post_col, post_count)``: for n-gram g, the texts ``c_start + post_col[q]``
    holding it, with their counts ``post_count[q]``, for q in ``post_off[g]..post_off[g+1]``
    (columns ascending)."""
    _check_block(c_start, c_end, (len(prof_off) - 1) // max_order, "column")
    lists: List[List[Tuple[int, int]]] = [[] for _ in range(n_grams)]
    for c in range(c_start, c_end):
        for e in range(int(prof_off[c * max_order]), int(prof_off[(c + 1) * max_order])):
            g = int(prof_gram[e])
            if not 0 <= g < n_grams:
                raise ValueError(f"prof_gram[{e}] = {g} is not below n_grams")
            lists[g].append((c - c_start, int(prof_count[e])))
    post_off = np.zeros(n_grams + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=post_off[1:])
    pairs = [pair for x in lists for pair in x]
    post_col = np.array([c for c, _ in pairs], dtype=np.int32)
    post_count = np.array([k for _, k in pairs], dtype=np.int32)
    return post_off, post_col, post_count


def pairwise_stats(
    prof_off: Any,
    prof_gram: Any,
    prof_count: Any,
    lengths: Any,
    max_order: int,
    post_off: Any,
    post_col: Any,
    post_count: Any,
    r_start: int,
    r_end: int,
    c_start: int,
    c_end: int,
    out: Any,
) -> None:
    """Row ``(i - r_start) * (c_end - c_start) + (j - c_start)`` of ``out`` = the statistics
    ``[hyp_len, ref_len, matches_1..N, totals_1..N]`` of text i (i in ``r_start..r_end``)
    against text j alone (j in ``c_start..c_end``, the columns of the postings)."""
    n_texts = len(lengths)
    _check_block(r_start, r_end, n_texts, "row")
    _check_block(c_start, c_end, n_texts, "column")
    nc = c_end - c_start
    if len(prof_off) != n_texts * max_order + 1:
        raise ValueError("prof_off does not match lengths and max_order")
    if out.shape != ((r_end - r_start) * nc, 2 + 2 * max_order):
        raise ValueError(f"out must have shape ({(r_end - r_start) * nc}, {2 + 2 * max_order})")
    n_grams = len(post_off) - 1
    for i in range(r_start, r_end):
        band = (i - r_start) * nc
        hyp_len = int(lengths[i])
        matches = [[0] * max_order for _ in range(nc)]
        for n in range(max_order):
            for e in range(int(prof_off[i * max_order + n]), int(prof_off[i * max_order + n + 1])):
                g = int(prof_gram[e])
                if not 0 <= g < n_grams:
                    raise ValueError(f"prof_gram[{e}] = {g} has no postings")
                ch = int(prof_count[e])
                for q in range(int(post_off[g]), int(post_off[g + 1])):
                    matches[int(post_col[q])][n] += min(ch, int(post_count[q]))
        for j in range(nc):
            totals = [max(0, hyp_len - n) for n in range(max_order)]
            out[band + j] = [hyp_len, int(lengths[c_start + j])] + matches[j] + totals
