"""Drop-in replacement for ``nltk.translate.bleu_score``: same functions, same numbers.

``sentence_bleu``, ``corpus_bleu``, ``SmoothingFunction`` (methods 0 to 7), ``modified_precision``,
``closest_ref_length``, ``brevity_penalty`` and the unreduced ``Fraction`` have NLTK's signatures,
defaults, warnings, exceptions and return types, and return bit-identical floats (compared with
``==``) for the inputs NLTK accepts: weights as a tuple, a list of tuples or a NumPy array,
``auto_reweigh``, hypotheses and references as sequences of any hashable tokens (a ``str`` is a
sequence of characters, as in NLTK) and user-written smoothing callables, which receive what NLTK
would pass them. ``sentence_gleu`` and ``corpus_gleu`` mirror ``nltk.translate.gleu_score``
(``turbobleu.gleu``).

How it is fast: the tokens of one call are interned into int32 ids with a dict, packed as CSR
arrays and counted by turbobleu's compiled n-gram kernel; NLTK's float recipe then runs on the
integer sums (see ``_engine.recipes.nltk``), with no per-sentence ``Fraction`` for the built-in
smoothing methods. Inputs the fast path does not handle (unhashable tokens, a segment without
references, one-shot iterators, ...) are scored by a sentence-by-sentence path that follows NLTK's
own order of operations, so that the same exception, if any, comes out.

Known limits: tokens must follow Python's hash/equality contract (``a == b`` implies equal hashes);
NLTK compares n-gram tuples and turbobleu compares interned tokens, which agree under that
contract. Results match NLTK 3.8 to 3.10 under the same Python version.
"""

from __future__ import annotations

from collections import Counter, deque
from itertools import islice
from types import MethodType

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, Iterator, List, Optional, Tuple

from turbobleu._engine.intern import chosen as _intern_impl
from turbobleu._engine.recipes.nltk import (
    Fraction,
    NeedsExactPath,
    Parameters,
    brevity_penalty,
    final_scores,
    fraction_method0,
    fraction_method1,
    fraction_method2,
    fraction_method3,
    fraction_method4,
    fraction_method5,
    fraction_method6,
    smoothed_precisions,
)
from turbobleu.gleu import corpus_gleu, sentence_gleu

_interning = _intern_impl.interning()
corpus_totals = _interning.corpus_totals
sentence_row = _interning.sentence_row
unsmoothed_sentence_score = _interning.unsmoothed_sentence_score

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "corpus_gleu",
    "modified_precision",
    "sentence_bleu",
    "sentence_gleu",
]

_LENGTH_MESSAGE = "The number of hypotheses and their reference(s) should be the same "


# -- NLTK's helper functions -------------------------------------------------------------------


def _ngrams(sequence: Any, n: int) -> Iterator[Tuple[Any, ...]]:
    """The n-grams of ``sequence`` as tuples, by one pass of iteration (nltk.util.ngrams)."""
    items = iter(sequence)
    window = deque(islice(items, n), maxlen=n)
    if len(window) == n:
        yield tuple(window)
    for item in items:
        window.append(item)
        yield tuple(window)


def modified_precision(references: Any, hypothesis: Any, n: int) -> Fraction:
    """Clipped n-gram precision of one hypothesis, as an unreduced ``Fraction``.

    Each hypothesis n-gram counts at most as often as it occurs in any single reference; the
    denominator is the number of hypothesis n-grams, but at least 1. Raises ``KeyError`` (the
    first n-gram) when there are no references and the hypothesis has n-grams, as NLTK does.
    """
    hyp_counts = Counter(_ngrams(hypothesis, n)) if len(hypothesis) >= n else Counter()
    best_in_a_reference: Dict[Tuple[Any, ...], int] = {}
    for reference in references:
        ref_counts = Counter(_ngrams(reference, n)) if len(reference) >= n else Counter()
        for gram in hyp_counts:
            best_in_a_reference[gram] = max(best_in_a_reference.get(gram, 0), ref_counts[gram])
    clipped = {gram: min(c, best_in_a_reference[gram]) for gram, c in hyp_counts.items()}
    return Fraction(sum(clipped.values()), max(1, sum(hyp_counts.values())), _normalize=False)


def closest_ref_length(references: Any, hyp_len: Any) -> Any:
    """The reference length nearest to ``hyp_len``; on a tie, the shorter one."""
    return min(
        (len(reference) for reference in references),
        key=lambda ref_len: (abs(ref_len - hyp_len), ref_len),
    )


# -- smoothing ---------------------------------------------------------------------------------


class SmoothingFunction(Parameters):
    """Chen and Cherry (2014)'s sentence-level smoothing methods, as NLTK implements them.

    ``epsilon`` is method1's added count, ``alpha`` method6's prior weight and ``k`` method4's
    constant (``SmoothingFunction(epsilon=0.1, alpha=5, k=5)``, NLTK's defaults, as the recipes'
    ``Parameters`` take them). Passing a bound method (``SmoothingFunction().method3``) to
    ``sentence_bleu`` or ``corpus_bleu`` runs it on integer counts in turbobleu's fast path;
    calling a method directly works on a list of ``Fraction`` precisions, like NLTK's.
    """

    def method0(self, p_n: List[Any], *args: Any, **kwargs: Any) -> List[Any]:
        """No smoothing: a zero precision warns and becomes ``sys.float_info.min``."""
        return fraction_method0(p_n)

    def method1(self, p_n: List[Any], *args: Any, **kwargs: Any) -> List[Any]:
        """Add ``epsilon`` to the numerator of zero precisions."""
        return fraction_method1(p_n, self.epsilon)

    def method2(self, p_n: List[Any], *args: Any, **kwargs: Any) -> List[Any]:
        """Add one to numerator and denominator of every order but the first (Lin and Och)."""
        return fraction_method2(p_n)

    def method3(self, p_n: List[Any], *args: Any, **kwargs: Any) -> List[Any]:
        """NIST geometric smoothing: the j-th zero precision becomes 1 / (2**j * denominator)."""
        return fraction_method3(p_n)

    def method4(
        self,
        p_n: List[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> List[Any]:
        """Zero precisions get smaller counts for shorter hypotheses: 1/(2**j * k / ln(len))."""
        return fraction_method4(p_n, hyp_len if hyp_len else len(hypothesis), self.k)

    def method5(
        self,
        p_n: List[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> List[Any]:
        """Average each order with its neighbours (the smoothed previous one, the raw next one;
        after the last order comes the 5-gram precision of ``hypothesis``)."""
        return fraction_method5(p_n, modified_precision(references, hypothesis, 5))

    def method6(
        self,
        p_n: List[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> List[Any]:
        """Interpolate orders >= 3 with the prior p_{n-1}**2 / p_{n-2} (Gao and He)."""
        return fraction_method6(p_n, lambda n: sum(1 for _ in _ngrams(hypothesis, n)), self.alpha)

    def method7(
        self,
        p_n: List[Any],
        references: Any,
        hypothesis: Any,
        hyp_len: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> List[Any]:
        """method4, then method5 on its output."""
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        return self.method5(p_n, references, hypothesis, hyp_len)


_METHOD_NUMBERS = {getattr(SmoothingFunction, f"method{i}"): i for i in range(8)}


def _builtin_method(smoothing_function: Any) -> Optional[int]:
    """Which built-in method a smoothing argument is (None: some other callable).

    Only bound methods of this module's ``SmoothingFunction`` (or a subclass that does not override
    what the method uses) qualify; anything else is called like NLTK calls it.
    """
    if smoothing_function is None:
        return 0
    if type(smoothing_function) is not MethodType:
        return None
    number = _METHOD_NUMBERS.get(smoothing_function.__func__)
    if number == 7:
        owner = smoothing_function.__self__
        for name in ("method4", "method5"):
            bound = getattr(owner, name, None)
            if type(bound) is not MethodType or bound.__func__ is not getattr(
                SmoothingFunction, name
            ):
                return None
    return number


# -- counting and scoring ----------------------------------------------------------------------


def _stats_nltk_order(
    list_of_references: Any, hypotheses: Any, max_order: int
) -> Tuple[List[int], List[int], int, int, Tuple[Any, Any]]:
    """Corpus sums sentence by sentence, in NLTK's order of operations. Used for the inputs the
    fast path leaves alone, so that NLTK's exception, if any, comes out from the same sentence."""
    nums = [0] * max_order
    dens = [0] * max_order
    hyp_lengths = ref_lengths = 0
    references = hypothesis = None
    for references, hypothesis in zip(list_of_references, hypotheses):
        for i in range(1, max_order + 1):
            p_i = modified_precision(references, hypothesis, i)
            nums[i - 1] += p_i.numerator
            dens[i - 1] += p_i.denominator
        hyp_len = len(hypothesis)
        hyp_lengths += hyp_len
        ref_lengths += closest_ref_length(references, hyp_len)
    return nums, dens, hyp_lengths, ref_lengths, (references, hypothesis)


def _weight_vectors(weights: Any) -> Any:
    """NLTK's rule: if ``weights[0][0]`` fails, ``weights`` is one vector; else a list of them."""
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    return weights


def _finish(
    nums: List[int],
    dens: List[int],
    hyp_lengths: int,
    ref_lengths: int,
    weights: Any,
    smoothing_function: Any,
    method: Optional[int],
    auto_reweigh: Any,
    last_hyp_len: int,
    fifth: Optional[Tuple[int, int]],
    last_pair: Any,
    exact_only: bool = False,
) -> Any:
    """From corpus sums to NLTK's return value. ``last_pair`` is the last sentence's
    ``(references, hypothesis)``, or a callable giving it (only smoothing callables need it)."""
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    if 0 in dens:
        # Only for an empty corpus: NLTK builds Fraction(0, 0), which raises ZeroDivisionError.
        [Fraction(n, d, _normalize=False) for n, d in zip(nums, dens)]
    if (nums[0] if nums else 0) == 0:
        return 0 if len(weights) == 1 else [0] * len(weights)
    if not smoothing_function:
        smoothing_function, method = None, 0
    p_n: Any = None
    if method is not None and (method == 0 or not exact_only):
        try:
            p_n = smoothed_precisions(
                method,
                getattr(smoothing_function, "__self__", None),
                nums,
                dens,
                hyp_lengths,
                last_hyp_len,
                fifth,
            )
        except NeedsExactPath:
            p_n = None
    if p_n is None:
        # A user's callable (or an unusual case of a built-in one): called as NLTK calls it,
        # with unreduced Fractions and the last sentence's references and hypothesis.
        references, hypothesis = last_pair() if callable(last_pair) else last_pair
        if smoothing_function is None:
            smoothing_function = SmoothingFunction().method0
        p_n = [Fraction(n, d, _normalize=False) for n, d in zip(nums, dens)]
        p_n = smoothing_function(
            p_n, references=references, hypothesis=hypothesis, hyp_len=hyp_lengths
        )
    return final_scores(weights, p_n, bp, hyp_lengths, auto_reweigh)


def _score_in_nltk_order(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any,
    smoothing_function: Any,
    method: Optional[int],
    auto_reweigh: Any,
    max_order: int,
) -> Any:
    """The inputs the fast path leaves alone: counted sentence by sentence as NLTK does (so that
    its exception, if any, comes out from the same sentence) and smoothed on Fractions."""
    nums, dens, hyp_lengths, ref_lengths, last = _stats_nltk_order(
        list_of_references, hypotheses, max_order
    )
    return _finish(
        nums,
        dens,
        hyp_lengths,
        ref_lengths,
        weights,
        smoothing_function,
        method,
        auto_reweigh,
        0,
        None,
        last,
        exact_only=True,
    )


def _orders_for(method: Optional[int], max_order: int) -> int:
    """Orders to count: methods 5 and 7 also read the last sentence's 5-gram precision."""
    return max(max_order, 5) if method == 5 or method == 7 else max_order


def _plan(weights: Any, smoothing_function: Any) -> Tuple[Any, int, Optional[int], int]:
    """(weight vectors, max order, built-in method or None, orders to count) of a call."""
    if type(weights) is tuple and weights and type(weights[0]) is float:
        # what _weight_vectors gives, without raising a TypeError first
        weights, max_order = [weights], len(weights)
    else:
        weights = _weight_vectors(weights)
        max_order = max(len(weight) for weight in weights)
    method = _builtin_method(smoothing_function)
    return weights, max_order, method, _orders_for(method, max_order)


def corpus_bleu(
    list_of_references: Any,
    hypotheses: Any,
    weights: Any = (0.25, 0.25, 0.25, 0.25),
    smoothing_function: Any = None,
    auto_reweigh: Any = False,
) -> Any:
    """Corpus-level BLEU, as ``nltk.translate.bleu_score.corpus_bleu`` computes it.

    Numerators and denominators of the modified precisions are summed over all sentences before
    dividing. Returns a float, int 0 when no unigram matches, or a list when ``weights`` is a list
    of weight vectors.
    """
    assert len(list_of_references) == len(hypotheses), _LENGTH_MESSAGE
    weights, max_order, method, orders = _plan(weights, smoothing_function)
    found = corpus_totals(list_of_references, hypotheses, orders) if max_order > 0 else None
    if found is None:
        return _score_in_nltk_order(
            list_of_references,
            hypotheses,
            weights,
            smoothing_function,
            method,
            auto_reweigh,
            max_order,
        )
    # NLTK's denominator is max(1, n-gram count) per sentence: short hypotheses still add 1.
    sums, all_dens, last = found
    dens = all_dens[:max_order]
    fifth = (last[6], last[6 + orders] or 1) if orders >= 5 else None

    def last_pair() -> Tuple[Any, Any]:
        return deque(zip(list_of_references, hypotheses), maxlen=1)[0]

    return _finish(
        sums[2 : 2 + max_order],
        dens,
        sums[0],
        sums[1],
        weights,
        smoothing_function,
        method,
        auto_reweigh,
        last[0],
        fifth,
        last_pair,
    )


def sentence_bleu(
    references: Any,
    hypothesis: Any,
    weights: Any = (0.25, 0.25, 0.25, 0.25),
    smoothing_function: Any = None,
    auto_reweigh: Any = False,
) -> Any:
    """Sentence-level BLEU: exactly ``corpus_bleu([references], [hypothesis], ...)``."""
    if (
        smoothing_function is None
        and not auto_reweigh
        and type(weights) is tuple
        and weights
        and type(weights[0]) is float
    ):
        # The common call (one weight vector, no smoothing), in the fewest steps.
        score = unsmoothed_sentence_score(references, hypothesis, weights)
        if score is not None:
            return score
    weights, max_order, method, orders = _plan(weights, smoothing_function)
    row = sentence_row(references, hypothesis, orders) if max_order > 0 else None
    if row is None:
        return _score_in_nltk_order(
            [references], [hypothesis], weights, smoothing_function, method, auto_reweigh, max_order
        )
    fifth = (row[6], row[6 + orders] or 1) if orders >= 5 else None
    return _finish(
        row[2 : 2 + max_order],
        [t or 1 for t in row[2 + orders : 2 + orders + max_order]],
        row[0],
        row[1],
        weights,
        smoothing_function,
        method,
        auto_reweigh,
        row[0],
        fifth,
        (references, hypothesis),
    )
