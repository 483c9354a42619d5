"""NLTK's GLEU (``nltk.translate.gleu_score``, Wu et al. 2016), from integer n-gram statistics.

For one hypothesis and one reference, with the n-grams of every order from ``min_len`` to
``max_len``:

- ``tpfp`` = how many n-grams the hypothesis has, ``tpfn`` = how many the reference has;
- ``tp`` = the clipped matches, sum over distinct n-grams of min(count in hyp, count in ref);
- ``n_all = max(tpfp, tpfn)``; a pair with ``n_all == 0`` is not a candidate.

Of a sentence's candidates, NLTK keeps the first one whose ``tp / n_all`` (int true division) is
the largest, and the corpus score is ``sum(tp) / sum(n_all)`` over the sentences that have one,
or ``0.0`` when that sum is 0. ``sentence_gleu`` is the corpus score of one sentence.

:func:`corpus_gleu_in_nltk_order` is the specification: NLTK's loop with its own order of
operations, n-grams counted as ``nltk.util.everygrams`` enumerates them (every edge case of its
arguments included). The fast paths (``turbobleu.gleu``) compute the same integers with the
counting kernel and end with :func:`choose_reference` and :func:`gleu_score`.
"""

from __future__ import annotations

import sys
from collections import Counter
from itertools import islice

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Iterable, Optional, Tuple

# NLTK's assertion text, word for word (no trailing space, unlike bleu_score's).
LENGTH_MESSAGE = "The number of hypotheses and their reference(s) should be the same"
# n-gram orders above any sequence's length count the same: the compiled paths take orders
# clamped to it (an int64).
LONGEST_ORDER = 1 << 62
# NLTK's everygrams slices with islice(sequence, max_len): a max_len above sys.maxsize raises
# its ValueError, which the compiled paths leave to NLTK's order of operations.
LARGEST_MAX_LEN = sys.maxsize


def compiled_orders(min_len: Any, max_len: Any) -> bool:
    """Whether the compiled GLEU paths take these orders: plain ints, ``min_len >= 1`` and
    ``1 <= max_len <= sys.maxsize`` (anything else goes NLTK's way, errors included)."""
    return (
        type(min_len) is int
        and type(max_len) is int
        and min_len >= 1
        and 1 <= max_len <= LARGEST_MAX_LEN
    )


# nltk.util.MAX_EVERYGRAMS_DEFAULT_LEN (NLTK 3.10): with max_len=-1, everygrams refuses longer
# sequences, with this text ("%d" twice: the length).
EVERYGRAMS_DEFAULT_LIMIT = 256
EVERYGRAMS_LIMIT_MESSAGE = (
    "everygrams() called with the default max_len on a sequence of "
    "%d items: enumerating every n-gram of every length up to %d "
    "yields O(n**2) tuples (O(n**3) elements) and can exhaust memory "
    "(CWE-770). Pass an explicit max_len (e.g. max_len=min_len), or "
    "raise nltk.util.MAX_EVERYGRAMS_DEFAULT_LEN."
)

_END = object()


def ngram_total(length: int, min_len: int, max_len: int) -> int:
    """How many n-grams of orders ``min_len..max_len`` a sequence of ``length`` items has
    (``min_len >= 1``): the sum of ``length - n + 1`` over the orders up to ``length``."""
    top = max_len if max_len < length else length
    if top < min_len:
        return 0
    orders = top - min_len + 1
    # an arithmetic series; (min_len + top) * orders is even
    return orders * (length + 1) - (min_len + top) * orders // 2


def choose_reference(candidates: Iterable[Tuple[int, int]]) -> Optional[Tuple[int, int]]:
    """NLTK's choice among one sentence's ``(tp, n_all)`` pairs (each ``n_all > 0``): the first
    with the largest ``tp / n_all``; None when there is none."""
    best: Optional[Tuple[int, int]] = None
    best_ratio = 0.0
    for candidate in candidates:
        ratio = candidate[0] / candidate[1]
        if best is None or ratio > best_ratio:
            best, best_ratio = candidate, ratio
    return best


def gleu_score(n_match: int, n_all: int) -> float:
    """The corpus score from the summed statistics of the chosen pairs."""
    return 0.0 if n_all == 0 else n_match / n_all


def everygram_counts(sequence: Any, min_len: Any, max_len: Any) -> Counter:
    """The counts of the n-grams ``nltk.util.everygrams(sequence, min_len, max_len)`` yields
    (NLTK 3.10), as tuples: from each position, the prefixes of lengths ``min_len`` up to the
    window's length of the next ``max_len`` items (``max_len == -1``: the whole sequence, which
    may hold at most ``EVERYGRAMS_DEFAULT_LIMIT`` items). The window is sliced as NLTK slices it,
    so a ``min_len`` below 1 gives empty and shortened prefixes there too; the sequence is
    iterated once."""
    if max_len == -1:
        try:
            max_len = len(sequence)
        except TypeError:
            sequence = list(sequence)
            max_len = len(sequence)
        if max_len > EVERYGRAMS_DEFAULT_LIMIT:
            raise ValueError(EVERYGRAMS_LIMIT_MESSAGE % (max_len, max_len))
    items = iter(sequence)
    window = list(islice(items, max_len))
    counts: Counter = Counter()
    while window:
        for n in range(min_len, len(window) + 1):
            counts[tuple(window[:n])] += 1
        following = next(items, _END)
        if following is not _END:
            window.append(following)
        del window[0]
    return counts


def corpus_gleu_in_nltk_order(
    list_of_references: Any, hypotheses: Any, min_len: Any, max_len: Any
) -> float:
    """``nltk.translate.gleu_score.corpus_gleu`` after its length assertion, sentence by
    sentence in NLTK's order: the same result, and the same exception from the same place."""
    corpus_match = 0
    corpus_all = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp_counts = everygram_counts(hypothesis, min_len, max_len)
        tpfp = sum(hyp_counts.values())
        candidates = []
        for reference in references:
            ref_counts = everygram_counts(reference, min_len, max_len)
            tpfn = sum(ref_counts.values())
            tp = sum((ref_counts & hyp_counts).values())
            n_all = max(tpfp, tpfn)
            if n_all > 0:
                candidates.append((tp, n_all))
        chosen = choose_reference(candidates)
        if chosen is not None:
            corpus_match += chosen[0]
            corpus_all += chosen[1]
    return gleu_score(corpus_match, corpus_all)
