"""MATLAB's ``bleuEvaluationScore`` (Text Analytics Toolbox, R2020a+) for Python ports.

``bleu_evaluation_score(candidate, references, ngram_weights=(0.25, 0.25, 0.25, 0.25))`` follows
the documented semantics:

- ``candidate`` is one document as a sequence of word tokens (``text.split()``, a list, a tuple or
  a NumPy array of strings): MATLAB's string array or ``tokenizedDocument`` scalar;
- ``references`` is either several documents (a list of token sequences, MATLAB's
  ``tokenizedDocument`` array) or a single document given as one sequence of words;
- the weights must be finite and non-negative; they are normalised to sum to one and their count
  is the largest n-gram order;
- clipped n-gram precisions (the clip is the largest count in any single reference) and the
  brevity penalty of the reference whose length is closest to the candidate's;
- a candidate with fewer words than there are weights scores 0; a candidate and references that
  are all empty score NaN.

Two points MATLAB leaves undocumented are decided in the float recipe
(``_engine.recipes.matlab``): on a tie for the closest reference length the shorter reference is
used (as NLTK and sacrebleu do), and an order with weight 0 contributes nothing even when its
precision is 0 (rather than ``0 * log(0) = NaN``). The log-precisions are summed with
``math.fsum``; MATLAB's documentation examples (0.7825 and 0.8367) are reproduced.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Sequence

from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.recipes.matlab import matlab_score

sentence_row = _intern_impl.interning().sentence_row

__all__ = ["bleu_evaluation_score"]


def _document(value: Any, what: str) -> List[Any]:
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{what} must be a sequence of word tokens (for example text.split()), "
            f"not a single {type(value).__name__}"
        )
    try:
        return list(value)
    except TypeError:
        raise TypeError(
            f"{what} must be a sequence of word tokens, got {type(value).__name__}"
        ) from None


def _reference_documents(references: Any) -> List[List[Any]]:
    """Several documents, or one document given as a flat sequence of words."""
    items = _document(references, "references")
    if all(isinstance(item, str) for item in items):
        return [items]  # one document (also an empty one: [] is a document without words)
    if any(isinstance(item, str) for item in items):
        raise TypeError(
            "references mixes words and documents; give one document as a sequence "
            "of words, or several documents as a list of such sequences"
        )
    return [_document(item, f"references[{i}]") for i, item in enumerate(items)]


def _normalised_weights(ngram_weights: Any) -> List[float]:
    if isinstance(ngram_weights, (str, bytes)):
        raise TypeError("ngram_weights must be a sequence of numbers")
    try:
        weights = [float(w) for w in ngram_weights]
    except (TypeError, ValueError):
        raise TypeError(
            f"ngram_weights must be a sequence of real numbers, got {ngram_weights!r}"
        ) from None
    if not weights:
        raise ValueError("ngram_weights is empty; give at least one weight (for unigrams)")
    if not all(math.isfinite(w) and w >= 0 for w in weights):
        raise ValueError(f"ngram_weights must be finite and non-negative, got {ngram_weights!r}")
    total = math.fsum(weights)
    if total == 0:
        raise ValueError("ngram_weights are all zero; they cannot be normalised to sum to one")
    return [w / total for w in weights]


def bleu_evaluation_score(
    candidate: Sequence[Any],
    references: Any,
    ngram_weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
) -> float:
    """BLEU of one candidate document against reference documents, on MATLAB's 0..1 scale."""
    words = _document(candidate, "candidate")
    documents = _reference_documents(references)
    weights = _normalised_weights(ngram_weights)
    max_order = len(weights)
    if not words and all(len(doc) == 0 for doc in documents):
        return math.nan
    if len(words) < max_order:
        return 0.0
    row = sentence_row(documents, words, max_order)
    if row is None:
        raise TypeError(
            "candidate and references must contain hashable word tokens (for example strings)"
        )
    return matlab_score(row, weights)
