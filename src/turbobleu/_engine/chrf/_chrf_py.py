"""The pure-Python twin of ``_chrf.pyx``: chrF / chrF++ n-gram counting, the readable
specification of what the compiled module computes (same functions, same parameters).

Texts arrive preprocessed (lowercased when asked); a text's n-grams are character n-grams of
orders 1..char_order (over the text without its whitespace unless ``whitespace``) and word n-grams
of orders 1..word_order (over ``chrf_words``). Statistics rows are laid out as in
``chrf/recipe.py``.
"""

from __future__ import annotations

from collections import Counter

from turbobleu._engine.chrf.recipe import chrf_chars, chrf_words, f_score
from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional, Sequence

    from turbobleu._engine.buffer_types import F64, I64

__all__ = ["corpus_rows", "pairwise_scores", "sentence_scores"]


def _ngram_counts(text: str, char_order: int, word_order: int, whitespace: bool) -> List[Counter]:
    """One Counter per order: character orders first, then word orders (words as tuples)."""
    chars = chrf_chars(text, whitespace)
    counts: List[Counter] = [
        Counter(chars[i : i + n] for i in range(len(chars) - n + 1))
        for n in range(1, char_order + 1)
    ]
    if word_order:
        words = chrf_words(text)
        for n in range(1, word_order + 1):
            counts.append(Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1)))
    return counts


def _pair_row(hyp: List[Counter], ref: List[Counter]) -> List[int]:
    """[hyp, ref, matches] per order; the hypothesis count is 0 where the reference has none."""
    row: List[int] = []
    for h, r in zip(hyp, ref):
        n_ref = sum(r.values())
        n_hyp = sum(h.values()) if n_ref else 0
        row += [n_hyp, n_ref, sum(min(c, r[g]) for g, c in h.items() if g in r)]
    return row


def _best_row(
    hyp: List[Counter], refs: Sequence[List[Counter]], order: int, beta: Any, eps: bool
) -> Optional[List[int]]:
    """The row of the reference with the highest F-score (the first of equals), as sacrebleu."""
    best: Optional[List[int]] = None
    best_f = -1.0
    for ref in refs:
        row = _pair_row(hyp, ref)
        f = f_score(row, order, beta, eps)
        if f > best_f:
            best, best_f = row, f
    return best


def corpus_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    char_order: int,
    word_order: int,
    whitespace: bool,
    beta: Any,
    eps_smoothing: bool,
    out: I64,
) -> None:
    """Fill ``out[i]`` (``3 * (char_order + word_order)`` int64 columns) with segment i's
    statistics against its best reference (``references`` is a list of streams; None: absent)."""
    order = char_order + word_order
    for i, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(f"hypotheses[{i}] must be a str, got {type(hyp).__name__}")
        refs: List[List[Counter]] = []
        for k, stream in enumerate(references):
            ref = stream[i]
            if ref is None:
                continue
            if not isinstance(ref, str):
                raise TypeError(
                    f"references[{k}][{i}] must be a str or None, got {type(ref).__name__}"
                )
            refs.append(_ngram_counts(ref, char_order, word_order, whitespace))
        if not refs:
            raise ValueError(f"segment {i} has no reference (every one is None)")
        row = _best_row(
            _ngram_counts(hyp, char_order, word_order, whitespace), refs, order, beta, eps_smoothing
        )
        for j, v in enumerate(row or ()):
            out[i, j] = v


def sentence_scores(rows: I64, order: int, beta: Any, eps_smoothing: bool, out: F64) -> None:
    """``out[i]`` = the chrF score of statistics row i."""
    for i in range(len(rows)):
        out[i] = f_score([int(v) for v in rows[i]], order, beta, eps_smoothing)


def pairwise_scores(
    hypotheses: Sequence[str],
    references: Sequence[str],
    char_order: int,
    word_order: int,
    whitespace: bool,
    beta: Any,
    eps_smoothing: bool,
    out: F64,
    threads: int = 1,
) -> None:
    """``out[i, j]`` = sentence chrF of hypothesis i against reference j alone; each text's
    n-grams counted once. (``threads`` is the compiled module's; the twin runs in one.)"""
    order = char_order + word_order

    def profiles(texts: Sequence[str], what: str) -> List[List[Counter]]:
        for i, t in enumerate(texts):
            if not isinstance(t, str):
                raise TypeError(f"{what}[{i}] must be a str, got {type(t).__name__}")
        return [_ngram_counts(t, char_order, word_order, whitespace) for t in texts]

    hyps: List[List[Counter]] = profiles(hypotheses, "hypotheses")
    refs: List[List[Counter]] = profiles(references, "references")
    for i, h in enumerate(hyps):
        for j, r in enumerate(refs):
            out[i, j] = f_score(_pair_row(h, r), order, beta, eps_smoothing)
