"""One batch of ``update(preds, target)`` -> torchmetrics' BLEU counts, from turbobleu's kernel.

torchmetrics pairs ``preds`` with ``target`` by ``zip`` (the shorter one decides), tokenizes every
line that is truthy and takes ``[]`` for the others (``''``, ``None``), and per pair adds:

- ``preds_len``: the prediction's length;
- ``target_len``: the length of the reference closest to it, the **first** such reference in
  list order on a tie (sacrebleu and NLTK take the shorter one, which the kernel's own column
  follows, so the choice is made here from the reference lengths);
- ``numerator[n-1]``: the clipped n-gram matches (the clip is the largest count in any one
  reference); ``denominator[n-1]``: the prediction's n-grams.

The kernel gives the integers. :meth:`Batch.increments` gives them again, one addition at a time
in torchmetrics' own order (each distinct n-gram, orders ascending, first occurrence first), for
float states that could round (past 2**24 in float32).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.text import chosen as _text_impl
from turbobleu.torchmetrics._text import LineSplitter, lowercase_ids


def _line(value: Any, what: str) -> str:
    """A line as torchmetrics reads it: a falsy value is an empty line, else it must be a str."""
    if not value:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str (a line of text), got {type(value).__name__}")
    return value


def _iterable(value: Any, what: str) -> Any:
    if not hasattr(value, "__iter__"):
        raise TypeError(f"{what} must be a sequence, got {type(value).__name__}")
    return value


def pair_up(preds: Any, target: Any) -> Tuple[List[str], List[List[str]]]:
    """The prediction lines and their reference lines, paired as torchmetrics' ``zip`` pairs
    them; every paired prediction needs at least one reference."""
    hyps = [_line(p, f"preds[{i}]") for i, p in enumerate(_iterable(preds, "preds"))]
    groups = [
        [_line(r, f"target[{i}][{j}]") for j, r in enumerate(_iterable(refs, f"target[{i}]"))]
        for i, refs in enumerate(_iterable(target, "target"))
    ]
    n = min(len(hyps), len(groups))
    del hyps[n:], groups[n:]
    for i, refs in enumerate(groups):
        if not refs:
            raise ValueError(
                f"target[{i}] is empty: every prediction needs at least one reference "
                "(torchmetrics fails on it with 'min() arg is an empty sequence')"
            )
    return hyps, groups


def first_closest(hyp_len: np.ndarray, ref_len: np.ndarray, seg_ref_off: np.ndarray) -> np.ndarray:
    """Per segment, the length of its first reference among those closest to ``hyp_len``."""
    starts = seg_ref_off[:-1]
    per_segment = np.diff(seg_ref_off)
    if len(ref_len) == len(hyp_len):  # one reference each
        return ref_len.copy()
    gap = np.abs(ref_len - np.repeat(hyp_len, per_segment))
    best = np.minimum.reduceat(gap, starts) if len(gap) else gap
    candidates = np.flatnonzero(gap == np.repeat(best, per_segment))
    return ref_len[candidates[np.searchsorted(candidates, starts)]]


class Batch:
    """The token ids of one batch (CSR: predictions, references, references per segment) and
    its per-segment counts."""

    def __init__(
        self, preds: Any, target: Any, n_gram: int, splitter: LineSplitter, distinct: bool = False
    ) -> None:
        """``distinct``: every token gets its own id (else prediction tokens that no reference
        has share -1, which counts the same but not in torchmetrics' order of additions)."""
        hyps, groups = pair_up(preds, target)
        self.n_gram = n_gram
        self.segments = len(hyps)
        per_segment = np.fromiter((len(g) for g in groups), dtype=np.int64, count=len(groups))
        self.seg_ref_off = np.zeros(len(groups) + 1, dtype=np.int64)
        np.cumsum(per_segment, out=self.seg_ref_off[1:])
        vocab = _text_impl.tokenize.Vocab()
        flat = [r for g in groups for r in g]
        self.ref_ids, self.ref_off = splitter.encode(flat, vocab, False, "target")
        frozen = not (distinct or splitter.lowercase)
        self.hyp_ids, self.hyp_off = splitter.encode(hyps, vocab, frozen, "preds")
        if splitter.lowercase:
            self.ref_ids = lowercase_ids(self.ref_ids, vocab)
            self.hyp_ids = lowercase_ids(self.hyp_ids, vocab)
        self.n_ids = max(len(vocab), 1)

    def rows(self) -> np.ndarray:
        """Per segment: [pred_len, first closest ref_len, matches_1..N, totals_1..N] (int64)."""
        rows = np.zeros((self.segments, 2 + 2 * self.n_gram), dtype=np.int64)
        if self.segments:
            _count_impl.kernel.count_stats(
                self.hyp_ids,
                self.hyp_off,
                self.ref_ids,
                self.ref_off,
                self.seg_ref_off,
                self.n_gram,
                rows,
                n_ids=self.n_ids,
            )
            rows[:, 1] = first_closest(rows[:, 0], np.diff(self.ref_off), self.seg_ref_off)
        return rows

    def increments(self) -> Iterator[Tuple[int, int, List[Tuple[int, int]], List[Tuple[int, int]]]]:
        """Per segment, torchmetrics' additions in its order: (pred_len, target_len,
        [(order - 1, clipped count)...], [(order - 1, count)...]). Needs ``distinct`` ids."""
        hyp_ids = self.hyp_ids.tolist()
        ref_ids = self.ref_ids.tolist()
        hyp_off, ref_off, seg_ref_off = (
            a.tolist() for a in (self.hyp_off, self.ref_off, self.seg_ref_off)
        )
        for seg in range(self.segments):
            hyp = hyp_ids[hyp_off[seg] : hyp_off[seg + 1]]
            refs = [
                ref_ids[ref_off[r] : ref_off[r + 1]]
                for r in range(seg_ref_off[seg], seg_ref_off[seg + 1])
            ]
            gaps = [abs(len(hyp) - len(r)) for r in refs]
            chosen = len(refs[gaps.index(min(gaps))])
            counts = _ngram_counts(hyp, self.n_gram)
            most: Dict[Tuple[int, ...], int] = {}
            for ref in refs:
                for gram, c in _ngram_counts(ref, self.n_gram).items():
                    if c > most.get(gram, 0):
                        most[gram] = c
            clipped = [(len(g) - 1, min(c, most.get(g, 0))) for g, c in counts.items()]
            yield (
                len(hyp),
                chosen,
                [(k, c) for k, c in clipped if c > 0],
                [(len(g) - 1, c) for g, c in counts.items()],
            )


def _ngram_counts(ids: List[int], n_gram: int) -> Dict[Tuple[int, ...], int]:
    """n-gram -> count, orders 1..n_gram, each order in order of first occurrence."""
    counts: Dict[Tuple[int, ...], int] = {}
    for n in range(1, n_gram + 1):
        for i in range(len(ids) - n + 1):
            gram = tuple(ids[i : i + n])
            counts[gram] = counts.get(gram, 0) + 1
    return counts
