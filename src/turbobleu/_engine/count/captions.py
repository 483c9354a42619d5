"""Statistics rows of captioning data: one hypothesis and 1..k references per image ->
``[testlen, closest_reflen, matches_1..N, totals_1..N]`` per image, plus every reference length
(pycocoevalcap's "shortest" and "average" rules need them, not just the closest).

Text captions are split on Python's whitespace set and interned by the compiled tokenizer (no
Python object per word), references first, then the hypotheses against the references'
vocabulary (a word no reference has gets id -1, which never matches); the kernel counts. Captions
given as token sequences (a caption type's own ``.split()``) are interned by the interning stage;
tokens it declines (unhashable ones, say) are counted here as pycocoevalcap counts them, which
raises what pycocoevalcap would raise.
"""

from __future__ import annotations

from collections import defaultdict

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional

import numpy as np

from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.text import chosen as _text_impl


class CaptionStats:
    """Per-image statistics rows (int64, ``2 + 2 * max_order`` columns), reference lengths and
    the offsets of each image's references in them."""

    def __init__(self, rows: np.ndarray, ref_lens: np.ndarray, group_offsets: np.ndarray):
        self.rows = rows
        self.ref_lens = ref_lens
        self.group_offsets = group_offsets

    @property
    def images(self) -> int:
        return len(self.rows)

    def reference_lengths(self, option: str) -> np.ndarray:
        """Each image's effective reference length: int64 for "closest" and "shortest",
        float64 for "average" (the sum as a float divided by the count, as pycocoevalcap does)."""
        if option == "closest" or not self.images:
            return self.rows[:, 1].copy()
        starts = self.group_offsets[:-1]
        if option == "shortest":
            return np.minimum.reduceat(self.ref_lens, starts)
        sums = np.add.reduceat(self.ref_lens, starts).astype(np.float64)
        return sums / np.diff(self.group_offsets).astype(np.float64)


def text_statistics(captions: Any, max_order: int) -> Optional[CaptionStats]:
    """The statistics of text ``captions`` (a ``turbobleu.pycocoevalcap.Captions``), or None
    when some caption is not a ``str`` after all (the caller then reads them one by one)."""
    group_offsets = _group_offsets(captions.counts)
    try:
        rows, ref_lens = _text_rows(captions, group_offsets, max_order)
    except TypeError:
        return None
    return CaptionStats(rows, ref_lens, group_offsets)


def token_statistics(captions: Any, max_order: int) -> CaptionStats:
    """The statistics of ``captions`` given as token sequences."""
    rows, ref_lens = _token_rows(captions, max_order)
    return CaptionStats(rows, ref_lens, _group_offsets(captions.counts))


def _group_offsets(counts: List[int]) -> np.ndarray:
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(np.array(counts, dtype=np.int64), out=offsets[1:])
    return offsets


def _text_rows(captions: Any, group_offsets: np.ndarray, max_order: int) -> Any:
    tok = _text_impl.tokenize
    vocab = tok.Vocab()
    ref_ids, ref_off = tok.tokenize(captions.references, tok.TOK_NONE, False, vocab, False, "gts")
    hyp_ids, hyp_off = tok.tokenize(captions.hypotheses, tok.TOK_NONE, False, vocab, True, "res")
    rows = np.zeros((len(hyp_off) - 1, 2 + 2 * max_order), dtype=np.int64)
    if len(rows):
        # (dense ids: each -1 or below len(vocab), which the kernel counts faster)
        _count_impl.kernel.count_stats(
            hyp_ids, hyp_off, ref_ids, ref_off, group_offsets, max_order, rows, n_ids=len(vocab)
        )
    return rows, np.diff(ref_off)


def _token_rows(captions: Any, max_order: int) -> Any:
    hypotheses, references = captions.hypotheses, captions.references
    ref_lens = np.array([len(tokens) for tokens in references], dtype=np.int64)
    if not hypotheses:
        return np.zeros((0, 2 + 2 * max_order), dtype=np.int64), ref_lens
    starts = np.concatenate(([0], np.cumsum(captions.counts))).tolist()
    groups = [references[starts[i] : starts[i + 1]] for i in range(len(hypotheses))]
    rows = _intern_impl.interning().corpus_rows(groups, hypotheses, max_order)
    if rows is None:
        rows = np.array(
            [_row_as_pycocoevalcap_counts(h, g, max_order) for h, g in zip(hypotheses, groups)],
            dtype=np.int64,
        )
    return rows, ref_lens


def _ngram_counts(words: Any, max_order: int) -> Any:
    """pycocoevalcap's ``precook``: the length and the counts of every n-gram (as tuples)."""
    counts: Any = defaultdict(int)
    for k in range(1, max_order + 1):
        for i in range(len(words) - k + 1):
            counts[tuple(words[i : i + k])] += 1
    return len(words), counts


def _row_as_pycocoevalcap_counts(hypothesis: Any, references: Any, max_order: int) -> List[int]:
    """One statistics row, by pycocoevalcap's own counting (``cook_refs`` then ``cook_test``)."""
    ref_lens = []
    max_counts: dict = {}
    for reference in references:
        length, counts = _ngram_counts(reference, max_order)
        ref_lens.append(length)
        for gram, count in counts.items():
            max_counts[gram] = max(max_counts.get(gram, 0), count)
    testlen, counts = _ngram_counts(hypothesis, max_order)
    correct = [0] * max_order
    for gram, count in counts.items():
        correct[len(gram) - 1] += min(max_counts.get(gram, 0), count)
    closest = min((abs(length - testlen), length) for length in ref_lens)[1]
    guess = [max(0, testlen - k + 1) for k in range(1, max_order + 1)]
    return [testlen, closest] + correct + guess
