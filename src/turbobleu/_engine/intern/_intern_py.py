"""Kernel statistics for already-tokenized input: sequences of any hashable tokens.

The NLTK, evaluate and MATLAB front ends score token sequences, not strings. Here the tokens of one
call are interned into int32 ids with a dict, packed as CSR arrays and counted by
``_kernel_py.count_stats``. Only hypothesis tokens get their own ids: a reference token that no
hypothesis contains can never be part of a matching n-gram, so all of them share the id -1 (which
no hypothesis token has), and only the hypothesis vocabulary is built.

Token identity is dict identity (``hash`` and ``==``), which is what tuple-keyed ``Counter``s in
the mirrored libraries use too.

Both functions return None instead of raising when the input is unusual (a length that disagrees
with iteration, an unhashable token, a segment without references, ...): the callers then run
their library's own order of operations, which raises that library's exception from the same
place.

This module is the readable twin of the compiled ``_intern`` module beside it, which does the same
interning in C (no Python-level loop per token) and counts with the kernel's ``count_segment``;
``turbobleu._engine.intern.chosen.interning()`` is whichever of the two is in use.
"""

from __future__ import annotations

from itertools import accumulate, chain, count, repeat

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from turbobleu._engine.count import _kernel_py
from turbobleu._engine.recipes.gleu import choose_reference, ngram_total
from turbobleu._engine.recipes.nltk import unsmoothed_sentence

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = [
    "corpus_rows",
    "corpus_totals",
    "gleu_sentence_stats",
    "gleu_stats",
    "sentence_row",
    "unsmoothed_sentence_score",
]

_MAX_TOKENS = 2**31 - 2  # ids are int32 positions
_SPANS: Dict[int, np.ndarray] = {}


def _one_segment(n_refs: int) -> np.ndarray:
    """``[0, n_refs]``: one segment whose references are the first n_refs spans (cached)."""
    spans = _SPANS.get(n_refs)
    if spans is None:
        spans = np.array([0, n_refs], dtype=np.int64)
        spans.setflags(write=False)
        if n_refs < 64:
            _SPANS[n_refs] = spans
    return spans


def sentence_row(references: Any, hypothesis: Any, orders: int) -> Optional[List[int]]:
    """``[hyp_len, closest_ref_len, matches_1..N, totals_1..N]`` for one hypothesis, or None."""
    try:
        hyp_len = len(hypothesis)
        len(references)  # before iterating: a one-shot iterator stays untouched
        ref_lens = list(map(len, references))
        if not ref_lens or orders < 1:
            return None
        vocab: Dict[Any, int] = {}
        ids = list(map(vocab.setdefault, hypothesis, count()))
        if len(ids) != hyp_len:
            return None
        ids += map(vocab.get, chain.from_iterable(references), repeat(-1))
        if len(ids) != hyp_len + sum(ref_lens):
            return None
        # One buffer holds the hypothesis and then the references.
        buffer = np.array(ids, dtype=np.int32)
        offsets = np.array(list(accumulate(ref_lens, initial=hyp_len)), dtype=np.int64)
        row = np.zeros((1, 2 + 2 * orders), dtype=np.int64)
        _kernel_py.count_stats(
            buffer,
            np.array([0, hyp_len], dtype=np.int64),
            buffer,
            offsets,
            _one_segment(len(ref_lens)),
            orders,
            row,
        )
        result: List[int] = row[0].tolist()
        return result
    except Exception:
        return None


def corpus_rows(reference_lists: Any, hypotheses: Any, orders: int) -> Optional[np.ndarray]:
    """One kernel row per segment (an int64 array), or None. Segments pair up in order."""
    try:
        hyp_lens = list(map(len, hypotheses))
        ref_counts = list(map(len, reference_lists))
        if len(hyp_lens) != len(ref_counts) or not hyp_lens or 0 in ref_counts or orders < 1:
            return None
        refs = list(chain.from_iterable(reference_lists))
        if len(refs) != sum(ref_counts):
            return None
        ref_lens = list(map(len, refs))
        hyp_tokens = list(chain.from_iterable(hypotheses))
        if len(hyp_tokens) != sum(hyp_lens) or len(hyp_tokens) > _MAX_TOKENS:
            return None
        vocab: Dict[Any, int] = {}
        hyp_ids = np.array(list(map(vocab.setdefault, hyp_tokens, count())), dtype=np.int32)
        del hyp_tokens
        ref_ids = np.array(
            list(map(vocab.get, chain.from_iterable(refs), repeat(-1))), dtype=np.int32
        )
        del vocab, refs
        if len(ref_ids) != sum(ref_lens):
            return None
        rows = np.zeros((len(hyp_lens), 2 + 2 * orders), dtype=np.int64)
        _kernel_py.count_stats(
            hyp_ids,
            _offsets(hyp_lens),
            ref_ids,
            _offsets(ref_lens),
            _offsets(ref_counts),
            orders,
            rows,
        )
        return rows
    except Exception:
        return None


def corpus_totals(
    reference_lists: Any, hypotheses: Any, orders: int
) -> Optional[Tuple[List[int], List[int], List[int]]]:
    """``(sums, dens, last)`` of corpus_rows' rows: the column sums, the sums of
    ``max(1, totals_n)`` for n = 1..orders (NLTK's denominators) and the last row; or None."""
    rows = corpus_rows(reference_lists, hypotheses, orders)
    if rows is None:
        return None
    dens = np.maximum(rows[:, 2 + orders :], 1).sum(axis=0)
    return rows.sum(axis=0).tolist(), dens.tolist(), rows[-1].tolist()


def unsmoothed_sentence_score(references: Any, hypothesis: Any, weights: Tuple[Any, ...]) -> Any:
    """NLTK's sentence_bleu without smoothing or auto_reweigh, for a tuple of float weights
    (its warnings included); or None where NLTK's own path must decide (a declined input, a
    weight that is not a float, a non-finite intermediate, more than 16 weights), having warned
    nothing."""
    orders = len(weights)
    if not 1 <= orders <= 16 or any(type(w) is not float for w in weights):
        return None
    row = sentence_row(references, hypothesis, orders)
    return None if row is None else unsmoothed_sentence(row, weights)


def _offsets(lengths: List[int]) -> np.ndarray:
    out = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out


_TOKEN_SEQUENCES = (list, tuple, str)


def gleu_stats(
    list_of_references: Any, hypotheses: Any, min_len: int, max_len: int
) -> Optional[Tuple[int, int]]:
    """NLTK's corpus GLEU statistics ``(tp, n_all)``, summed over the sentences: per hypothesis,
    every reference is counted against it (one kernel row each, orders ``min_len`` up to the
    shorter length) and the first with the largest ``tp / n_all`` is kept, as NLTK's ``max()``
    keeps it. ``min_len >= 1`` and ``max_len >= 1``. None where NLTK's own order must decide
    (other sequence types, an unhashable token, a length mismatch)."""
    if min_len < 1 or max_len < 1:
        return None
    try:
        hypotheses, list_of_references = tuple(hypotheses), tuple(list_of_references)
        if len(hypotheses) != len(list_of_references):
            return None
        sum_tp = sum_all = 0
        for references, hypothesis in zip(list_of_references, hypotheses):
            if type(references) not in (list, tuple) or type(hypothesis) not in _TOKEN_SEQUENCES:
                return None
            if any(type(reference) not in _TOKEN_SEQUENCES for reference in references):
                return None
            # Every token hashed, as the compiled module interns them all.
            hash(tuple(hypothesis))
            hash(tuple(map(tuple, references)))
            tpfp = ngram_total(len(hypothesis), min_len, max_len)
            candidates = []
            for reference in references:
                n_all = max(tpfp, ngram_total(len(reference), min_len, max_len))
                if n_all == 0:
                    continue
                top = min(max_len, len(hypothesis), len(reference))
                tp = 0
                if top >= min_len:
                    row = sentence_row((reference,), hypothesis, top)
                    if row is None:
                        return None
                    tp = sum(row[1 + min_len : 2 + top])  # [hyp_len, ref_len, matches_1..top, ...]
                candidates.append((tp, n_all))
            chosen = choose_reference(candidates)
            if chosen is not None:
                sum_tp += chosen[0]
                sum_all += chosen[1]
    except Exception:
        return None  # e.g. an unhashable token: NLTK's order raises its own exception
    return sum_tp, sum_all


def gleu_sentence_stats(
    references: Any, hypothesis: Any, min_len: int, max_len: int
) -> Optional[Tuple[int, int]]:
    """``gleu_stats([references], [hypothesis], min_len, max_len)``."""
    return gleu_stats([references], [hypothesis], min_len, max_len)
