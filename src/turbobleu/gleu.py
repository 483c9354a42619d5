"""GLEU (Google-BLEU, Wu et al. 2016) as NLTK computes it: ``corpus_gleu`` and ``sentence_gleu``
with the signatures, defaults, results (``==`` on floats) and exceptions of
``nltk.translate.gleu_score``. ``turbobleu.nltk`` exports both; ``patch("nltk")`` installs them.

The recipe and NLTK's own order of operations are ``_engine.recipes.gleu``. Here the integer
statistics come from turbobleu's counting kernel: each (hypothesis, reference) pair is one kernel
row (the tokens interned, the n-grams counted and clipped in compiled code), whose matches of the
orders ``min_len..max_len`` are ``tp``; the n-gram totals are a closed form of the lengths.

Inputs the fast path leaves alone go to NLTK's order of operations, which raises NLTK's exception
from the same place: sequences other than lists, tuples and ``str``, ``min_len``/``max_len`` other
than ints with ``1 <= min_len`` and ``1 <= max_len <= sys.maxsize`` (e.g. ``max_len=-1``, every
length; above sys.maxsize NLTK raises islice's ValueError),
unhashable tokens. Tokens must follow Python's hash/equality contract, as for turbobleu's BLEU.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Optional, Sequence, Tuple

from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.recipes.gleu import (
    LARGEST_MAX_LEN,
    LENGTH_MESSAGE,
    LONGEST_ORDER,
    compiled_orders,
    corpus_gleu_in_nltk_order,
    gleu_score,
)

__all__ = ["corpus_gleu", "sentence_gleu"]

_gleu_stats = _intern_impl.interning().gleu_stats
_gleu_sentence_stats = _intern_impl.interning().gleu_sentence_stats
_SEQUENCES = (list, tuple)


def _corpus_stats(
    list_of_references: Any, hypotheses: Any, min_len: Any, max_len: Any
) -> Optional[Tuple[int, int]]:
    """The summed ``(tp, n_all)`` of the chosen pairs (``_intern.gleu_stats``), or None for
    input left to NLTK's order: orders compiled_orders refuses, sequences other than
    lists, tuples and ``str``, unhashable tokens."""
    if not compiled_orders(min_len, max_len):
        return None
    if type(list_of_references) not in _SEQUENCES or type(hypotheses) not in _SEQUENCES:
        return None
    return _gleu_stats(
        list_of_references, hypotheses, min(min_len, LONGEST_ORDER), min(max_len, LONGEST_ORDER)
    )


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
    # (compiled_orders and min() written out: a sentence loop spends its time around the C call)
    if (
        type(min_len) is int
        and type(max_len) is int
        and min_len >= 1
        and 1 <= max_len <= LARGEST_MAX_LEN
    ):
        stats = _gleu_sentence_stats(
            references,
            hypothesis,
            min_len if min_len < LONGEST_ORDER else LONGEST_ORDER,
            max_len if max_len < LONGEST_ORDER else LONGEST_ORDER,
        )
    if stats is None:
        return corpus_gleu_in_nltk_order([references], [hypothesis], min_len, max_len)
    return gleu_score(*stats)
