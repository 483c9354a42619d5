"""pycocoevalcap's BLEU float recipe (``pycocoevalcap.bleu.bleu_scorer.BleuScorer``, 1.2), from
integer statistics, written in the library's own order of float operations:

- per image (and for the corpus, from the summed counts): ``bleu = 1.``; for k = 1..n,
  ``bleu *= (correct_k + 1e-15) / (guess_k + 1e-9)`` and BLEU-k is ``bleu ** (1./k)``;
- the length ratio is ``(testlen + 1e-15) / (reflen + 1e-9)``; when it is below 1 every BLEU-k is
  multiplied by ``math.exp(1 - 1/ratio)`` (so equal lengths are penalised a little, and an empty
  hypothesis scores 0.0);
- ``reflen`` is the option's reference length: ``"closest"`` (the one ``Bleu`` uses: nearest to
  the hypothesis length, the shorter on a tie), ``"shortest"``, or ``"average"`` (a float);
  ``None`` means ``"average"`` for a single image and ``"closest"`` otherwise. The corpus
  ``reflen`` is the per-image ones summed in image order.

``guess_k`` is the number of hypothesis k-grams, ``max(0, testlen - k + 1)``, and ``correct_k``
the clipped matches against the maximum count over the references: the kernel's totals and
matches columns. The compiled ``_pycocoevalcap_scores`` runs the per-image part in C with the
same libm ``pow`` and ``exp`` that Python's ``**`` and ``math.exp`` call.
"""

from __future__ import annotations

import math

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Union

    Length = Union[int, float]

SMALL = 1e-9  # added to every denominator
TINY = 1e-15  # added to every numerator ("so that if guess is 0 still return 0")
OPTIONS = ("closest", "shortest", "average")
# The n-gram orders counted per image, whatever the scorer's n: ``BleuScorer.cook_append`` calls
# ``cook_refs`` and ``cook_test`` with their default n=4. (So a scorer with n > 4 fails with an
# IndexError on the first image, and its verbose printout shows four orders per image.)
COOKED_ORDERS = 4


def resolve_option(option: Optional[str], images: int) -> str:
    """The reference-length rule ``option`` names for ``images`` images (None: the scorer's
    default, ``"average"`` for one image, else ``"closest"``)."""
    if option is None:
        return "average" if images == 1 else "closest"
    if option not in OPTIONS:
        raise ValueError(f"option must be one of {OPTIONS} or None, got {option!r}")
    return option


def reference_length(option: str, ref_lens: Sequence[int], testlen: int) -> Length:
    """One image's effective reference length under ``option`` (a resolved one)."""
    if option == "shortest":
        return min(ref_lens)
    if option == "average":
        return float(sum(ref_lens)) / len(ref_lens)
    return min((abs(length - testlen), length) for length in ref_lens)[1]


def bleu_scores(
    testlen: int, reflen: Length, correct: Sequence[int], guess: Sequence[int], n: int
) -> List[float]:
    """BLEU-1..n of one image, or of the corpus from the summed counts and lengths."""
    scores = []
    bleu = 1.0
    for k in range(n):
        bleu *= float(correct[k] + TINY) / (guess[k] + SMALL)
        scores.append(bleu ** (1.0 / (k + 1)))
    ratio = length_ratio(testlen, reflen)
    if ratio < 1:
        for k in range(n):
            scores[k] *= math.exp(1 - 1 / ratio)
    return scores


def length_ratio(testlen: Length, reflen: Length) -> float:
    """The hypothesis / reference length ratio, with the recipe's epsilons."""
    return (testlen + TINY) / (reflen + SMALL)


def total_reference_length(reflens: Sequence[Length]) -> Length:
    """The corpus ``reflen``: the images' lengths added in order, from the int 0 (so an int for
    "closest" and "shortest", a float for "average" unless there is no image)."""
    total: Length = 0
    for reflen in reflens:
        total += reflen
    return total


def totals_dict(
    testlen: int, reflen: Length, guess: Sequence[int], correct: Sequence[int]
) -> Dict[str, Any]:
    """The summed counts as the library prints them with ``verbose > 0``."""
    return {"testlen": testlen, "reflen": reflen, "guess": list(guess), "correct": list(correct)}


def image_dict(
    ref_lens: Sequence[int], testlen: int, guess: Sequence[int], correct: Sequence[int]
) -> Dict[str, Any]:
    """One image's counts as the library prints them with ``verbose > 1`` (followed by its
    effective reference length)."""
    return {
        "reflen": list(ref_lens),
        "testlen": testlen,
        "guess": list(guess),
        "correct": list(correct),
    }
