"""GLEU (Google-BLEU, Wu et al. 2016) as NLTK computes it: ``corpus_gleu`` and ``sentence_gleu``
with the signatures, defaults, results (``==`` on floats) and exceptions of
``nltk.translate.gleu_score``. ``turbobleu.nltk`` exports both; ``patch("nltk")`` installs them.

The recipe and NLTK's own order of operations are ``_engine.recipes.gleu``. Here the integer
statistics come from turbobleu's counting kernel: each (hypothesis, reference) pair is one kernel
row (the tokens interned, the n-grams counted and clipped in compiled code), whose matches of the
orders ``min_len..max_len`` are ``tp``; the n-gram totals are a closed form of the lengths.

Inputs the fast path leaves alone go to NLTK's order of operations, which raises NLTK's exception
from the same place: sequences other than lists, tuples and ``str``, ``min_len``/``max_len`` other
than ints with ``1 <= min_len`` and ``max_len >= 1`` (e.g. ``max_len=-1``, every length),
unhashable tokens. Tokens must follow Python's hash/equality contract, as for turbobleu's BLEU.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Optional, Sequence, Tuple

from turbobleu._engine import impl as _impl
from turbobleu._engine.recipes.gleu import (
    LENGTH_MESSAGE,
    corpus_gleu_in_nltk_order,
    gleu_score,
    ngram_total,
)

__all__ = ["corpus_gleu", "sentence_gleu"]

_sentence_row = _impl.interning().sentence_row
_corpus_totals = _impl.interning().corpus_totals
_SEQUENCES = (list, tuple)
_TOKEN_SEQUENCES = (list, tuple, str)


def _fast_orders(min_len: Any, max_len: Any) -> bool:
    """Whether the fast path takes these n-gram orders (plain ints, an ordinary range)."""
    return type(min_len) is int and type(max_len) is int and min_len >= 1 and max_len >= 1


_TABLE_LENGTHS = 128  # n-gram totals of the lengths below this are looked up, not computed


def _totals_table(min_len: int, max_len: int) -> List[int]:
    """``ngram_total(length, min_len, max_len)`` for the lengths below ``_TABLE_LENGTHS``."""
    return [ngram_total(length, min_len, max_len) for length in range(_TABLE_LENGTHS)]


_DEFAULT_TOTALS = _totals_table(1, 4)  # NLTK's default orders


def _default_totals(min_len: int, max_len: int) -> List[int]:
    """The totals table of these orders (NLTK's defaults: made once)."""
    return _DEFAULT_TOTALS if min_len == 1 and max_len == 4 else _totals_table(min_len, max_len)


def _sentence_stats(
    references: Any, hypothesis: Any, min_len: int, max_len: int, totals: List[int]
) -> Optional[Tuple[int, int]]:
    """``(tp, n_all)`` of the reference NLTK chooses for this hypothesis (``(0, 0)``: none), or
    None for input left to NLTK's order. May raise (the caller then leaves it to NLTK's order).
    ``totals`` is ``_totals_table(min_len, max_len)``."""
    if type(references) not in _SEQUENCES or type(hypothesis) not in _TOKEN_SEQUENCES:
        return None
    hyp_len = len(hypothesis)
    tpfp = totals[hyp_len] if hyp_len < _TABLE_LENGTHS else ngram_total(hyp_len, min_len, max_len)
    # NLTK hashes every n-gram it counts: where it counts a sequence's n-grams, so must we
    # (the kernel does; the few pairs that skip it are hashed here).
    hyp_hashed = tpfp == 0 or type(hypothesis) is str
    hyp_top = max_len if max_len < hyp_len else hyp_len
    best_tp = best_all = 0
    best_ratio = -1.0
    for reference in references:
        if type(reference) not in _TOKEN_SEQUENCES:
            return None
        ref_len = len(reference)
        tpfn = (
            totals[ref_len] if ref_len < _TABLE_LENGTHS else ngram_total(ref_len, min_len, max_len)
        )
        n_all = tpfp if tpfp > tpfn else tpfn
        if n_all == 0:
            continue
        top = hyp_top if hyp_top < ref_len else ref_len
        if top >= min_len:
            row: Optional[List[int]] = _sentence_row((reference,), hypothesis, top)
            if row is None:
                return None
            # row: [hyp_len, ref_len, matches_1..matches_top, totals_1..totals_top]
            tp = row[2] if top == 1 else sum(row[1 + min_len : 2 + top])
            hyp_hashed = True
        else:
            tp = 0
            if tpfn and type(reference) is not str:
                hash(tuple(reference))
        ratio = tp / n_all
        if ratio > best_ratio:  # the first of the largest ratios, as NLTK's max()
            best_tp, best_all, best_ratio = tp, n_all, ratio
    if not hyp_hashed:
        hash(tuple(hypothesis))
    return best_tp, best_all


def _corpus_stats(
    list_of_references: Any, hypotheses: Any, min_len: Any, max_len: Any
) -> Optional[Tuple[int, int]]:
    """The summed ``(tp, n_all)`` of the chosen pairs, or None for input left to NLTK's order."""
    if (
        not _fast_orders(min_len, max_len)
        or type(list_of_references) not in _SEQUENCES
        or type(hypotheses) not in _SEQUENCES
    ):
        return None
    try:
        if all(type(refs) in _SEQUENCES and len(refs) == 1 for refs in list_of_references):
            stats = _single_reference_stats(list_of_references, hypotheses, min_len, max_len)
            if stats is not None:
                return stats
        corpus_match = corpus_all = 0
        totals = _default_totals(min_len, max_len)
        for references, hypothesis in zip(list_of_references, hypotheses):
            found = _sentence_stats(references, hypothesis, min_len, max_len, totals)
            if found is None:
                return None
            corpus_match += found[0]
            corpus_all += found[1]
    except Exception:
        return None  # NLTK's order of operations raises its own exception
    return corpus_match, corpus_all


def _single_reference_stats(
    list_of_references: Any, hypotheses: Any, min_len: int, max_len: int
) -> Optional[Tuple[int, int]]:
    """``_corpus_stats`` where every hypothesis has one reference: nothing to choose, so the
    matches add up in one kernel call (``corpus_totals``, the column sums) and ``n_all`` is a sum
    over the lengths. None where that does not apply (the caller then goes pair by pair)."""
    longest = 0
    corpus_all = 0
    totals = _default_totals(min_len, max_len)
    for references, hypothesis in zip(list_of_references, hypotheses):
        reference = references[0]
        if type(hypothesis) not in _TOKEN_SEQUENCES or type(reference) not in _TOKEN_SEQUENCES:
            return None
        hyp_len, ref_len = len(hypothesis), len(reference)
        if hyp_len > longest:
            longest = hyp_len
        tpfp = (
            totals[hyp_len] if hyp_len < _TABLE_LENGTHS else ngram_total(hyp_len, min_len, max_len)
        )
        tpfn = (
            totals[ref_len] if ref_len < _TABLE_LENGTHS else ngram_total(ref_len, min_len, max_len)
        )
        corpus_all += tpfp if tpfp > tpfn else tpfn
    top = min(max_len, longest)
    if top < min_len or not hypotheses:
        return None  # no matches to count, but perhaps tokens NLTK hashes: pair by pair
    found = _corpus_totals(list_of_references, hypotheses, top)
    if found is None:
        return None
    sums = found[0]  # [hyp_len, ref_len, matches_1..matches_top, totals_1..totals_top]
    return sum(sums[1 + min_len : 2 + top]), corpus_all


def corpus_gleu(
    list_of_references: Sequence[Any], hypotheses: Sequence[Any], min_len: Any = 1, max_len: Any = 4
) -> float:
    """Corpus-level GLEU, as ``nltk.translate.gleu_score.corpus_gleu``.

    ``list_of_references`` holds, per hypothesis, a list of references; hypotheses and
    references are sequences of hashable tokens (a ``str`` is a sequence of characters, as in
    NLTK). Per sentence, the reference with the best sentence GLEU (the first on a tie) adds its
    clipped matches and ``max(hypothesis n-grams, reference n-grams)``; the score is the ratio of
    the sums, ``0.0`` when nothing was counted. Raises ``AssertionError`` when the two lengths
    differ, as NLTK does.
    """
    assert len(list_of_references) == len(hypotheses), LENGTH_MESSAGE
    stats = _corpus_stats(list_of_references, hypotheses, min_len, max_len)
    if stats is None:
        return corpus_gleu_in_nltk_order(list_of_references, hypotheses, min_len, max_len)
    return gleu_score(*stats)


def sentence_gleu(
    references: Sequence[Any], hypothesis: Sequence[Any], min_len: Any = 1, max_len: Any = 4
) -> float:
    """Sentence-level GLEU: exactly ``corpus_gleu([references], [hypothesis], ...)``, the
    minimum of n-gram precision and recall against the best reference."""
    stats = None
    if _fast_orders(min_len, max_len):
        try:
            stats = _sentence_stats(
                references, hypothesis, min_len, max_len, _default_totals(min_len, max_len)
            )
        except Exception:
            stats = None  # NLTK's order of operations raises its own exception
    if stats is None:
        return corpus_gleu_in_nltk_order([references], [hypothesis], min_len, max_len)
    return gleu_score(*stats)
