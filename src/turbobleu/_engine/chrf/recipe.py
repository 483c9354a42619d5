"""sacrebleu's chrF / chrF++ float recipe: statistics rows -> score, in sacrebleu 2.6.0's exact
operation order (``CHRF._compute_f_score``), and the text preprocessing that decides what is
counted. The compiled counting (``_chrf.pyx``) follows these rules and is tested against them.

A statistics row has ``3 * (char_order + word_order)`` integers: per order (character orders
1..char_order, then word orders 1..word_order) ``[hyp n-grams, ref n-grams, matches]``, where the
hypothesis count is reported as 0 when the reference has no n-gram of that order.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, List, Sequence

# sacrebleu's smoothing constant for an undefined precision, recall or F-score.
EPS = 1e-16

# string.punctuation: chrF++ splits one of these off a word's end (else off its start).
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def chrf_words(text: str) -> List[str]:
    """chrF++'s words: whitespace-split, then one punctuation mark split off the word's end, or
    else off its start (so ``'(hi)'`` gives ``'(hi'``, ``')'``); one-character words stay."""
    words: List[str] = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCTUATION:
            words += [w[:-1], w[-1]]
        elif len(w) > 1 and w[0] in PUNCTUATION:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def chrf_chars(text: str, whitespace: bool) -> str:
    """The characters chrF counts n-grams over: all of them, or with whitespace removed."""
    return text if whitespace else "".join(text.split())


def f_score(stats: Sequence[Any], order: int, beta: Any, eps_smoothing: bool) -> float:
    """The chrF score (0..100) of one statistics row of ``order`` triples.

    With ``eps_smoothing`` every order counts (an undefined precision, recall or F is EPS) and
    the score is the mean F over orders; without it (sacrebleu's default, "effective order") the
    precisions and recalls are averaged over the orders that both sides have, then combined."""
    factor = beta**2
    score = 0.0
    effective = 0
    avg_prec = avg_rec = 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective == 0:
        return 0.0
    avg_prec /= effective
    avg_rec /= effective
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100 * score
    return 0.0


def check_options(char_order: Any, word_order: Any, beta: Any) -> None:
    """ValueError/TypeError naming the bad option (sacrebleu accepts anything and fails later)."""
    for name, value, low in (("char_order", char_order, 0), ("word_order", word_order, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if char_order + word_order < 1:
        raise ValueError("char_order + word_order must be at least 1 (nothing to count)")
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta < 0:
        raise ValueError(f"beta must be a number >= 0, got {beta!r}")
