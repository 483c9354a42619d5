"""NLTK's float recipe for BLEU, computed from integer n-gram statistics.

``nltk.translate.bleu_score.corpus_bleu`` sums, per order n, the numerators and (unreduced)
denominators of every sentence's ``modified_precision``, wraps each pair in an unreduced
``Fraction``, lets a smoothing function rewrite the list, and ends with::

    bp * exp(fsum(w_i * log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0))

``log(Fraction)`` converts with ``numerator / denominator`` (int true division, correctly rounded),
so a precision only has to be *valued* like NLTK's, not be a Fraction. This module reproduces the
eight built-in smoothing methods on plain ints and floats:

- methods 0 to 4 only divide integers (or NLTK's own float expressions, evaluated the same way);
- methods 5, 6 and 7 need exact rational arithmetic. Their definitions run on ``(numerator,
  denominator)`` integer pairs (``PairArithmetic``) that follow Python's numeric tower the way
  ``Fraction`` does (rational op int stays rational, rational op float turns into
  ``float(rational) op float``), without gcd reductions.

The eight methods as NLTK defines them, on its Fractions (``fraction_method0`` to ``6``), are the
specification: ``SmoothingFunction`` calls them, and so does the fast path where it cannot promise
NLTK's result. Methods 5 and 6 are written once for both kinds of number; methods 0 to 4 have a
second, integer form (``_method0`` to ``_method4_values``) because they run once per sentence in
``sentence_bleu`` loops, where the generic form costs 2x the instructions; tests check that both
forms give the same floats.

Anything outside the common case (smoothing parameters that are not plain ints or floats, a
precision whose float conversion would under- or overflow, a division by zero, a zero that NLTK
would compare with ``== 0``, where the answer depends on the Python version's Fraction internals)
raises :class:`NeedsExactPath`; the caller then runs the real smoothing function on ``Fraction``
objects, which raises or returns exactly what NLTK would.
"""

from __future__ import annotations

import fractions
import math
import operator
import sys
import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple, cast

# NLTK's text, word for word (users filter on it); "{}" is the 1-based n-gram order.
ZERO_ORDER_MESSAGE = (
    "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
    "Therefore the BLEU score evaluates to 0, independently of\n"
    "how many N-gram overlaps of lower order it contains.\n"
    "Consider using lower n-gram order or use SmoothingFunction()"
)

# SmoothingFunction's defaults: method1's epsilon, method6's alpha, method4's k.
EPSILON = 0.1
ALPHA = 5
K = 5

# What method0 puts in place of a zero precision: log() of it is about -708.4, not -inf.
TINY = sys.float_info.min

# On Python < 3.12 an unreduced Fraction(0, 5) is not == 0 (its stored denominator is not 1);
# on 3.12+ Fraction stores reduced values and the comparison is True.
UNREDUCED_ZERO_EQUALS_ZERO = sys.version_info >= (3, 12)

# An exact rational as an unreduced (numerator, denominator) tuple; floats and ints stay themselves.
# (Typed as Any: the operations below dispatch on the runtime type, as Python's numeric tower does.)
Value = Any


class NeedsExactPath(Exception):
    """The fast recipe cannot promise NLTK's result here; run the smoothing on Fractions."""


class Fraction(fractions.Fraction):
    """NLTK's Fraction: ``numerator``/``denominator`` report the values it was built with.

    With the default ``_normalize=False``, ``Fraction(6, 8).numerator`` is 6, not 3: BLEU sums the
    raw counts of every sentence, and custom smoothing functions read them. Arithmetic results are
    plain ``fractions.Fraction`` objects, as in NLTK. (On Python < 3.12 the stored value is also
    unreduced, so ``Fraction(0, 5) == 0`` is False there, as it is in NLTK.)
    """

    _normalize: bool
    _given_numerator: Any
    _given_denominator: Any

    def __new__(
        cls, numerator: Any = 0, denominator: Any = None, _normalize: bool = False
    ) -> "Fraction":
        new: Any = super().__new__
        self: Fraction
        if sys.version_info >= (3, 12):  # the _normalize argument is gone from Fraction there
            self = new(cls, numerator, denominator)
        else:
            self = new(cls, numerator, denominator, _normalize=_normalize)
        self._normalize = _normalize
        self._given_numerator = numerator
        self._given_denominator = denominator
        return self

    @property
    def numerator(self) -> Any:
        return super().numerator if self._normalize else self._given_numerator

    @property
    def denominator(self) -> Any:
        return super().denominator if self._normalize else self._given_denominator


def warn_zero_order(order: int) -> None:
    """method0's warning. The only place it is issued, so that Python's default "once per
    location" filter shows each distinct message once, as it does for NLTK's single call site."""
    warnings.warn(ZERO_ORDER_MESSAGE.format(order))


def brevity_penalty(closest_ref_len: Any, hyp_len: Any) -> Any:
    """NLTK's brevity penalty (reference length first): int 1 when the hypothesis is longer, int 0
    when it is empty, else ``exp(1 - r / c)`` (which is 1.0 when they are equal)."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


def final_scores(
    weights: Sequence[Any], p_n: Sequence[Any], bp: Any, hyp_lengths: int, auto_reweigh: Any
) -> Any:
    """The last step of ``corpus_bleu``: one score per weight vector, in NLTK's operation order.

    ``p_n`` holds what the smoothing produced (floats on the fast path, any numbers otherwise);
    the expressions below are the ones NLTK evaluates, so every type behaves as it would there.
    """
    scores = []
    for weight in weights:
        if auto_reweigh:
            # Tuple equality on purpose: a list never matches, a NumPy array raises ValueError.
            if hyp_lengths < 4 and weight == (0.25, 0.25, 0.25, 0.25):
                weight = (1 / hyp_lengths,) * hyp_lengths
        log_sum = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        scores.append(bp * math.exp(log_sum))
    return scores[0] if len(weights) == 1 else scores


# -- exact rationals as integer pairs ----------------------------------------------------------


def _add(a: Value, b: Value) -> Value:
    if type(a) is tuple:
        if type(b) is tuple:
            return (a[0] * b[1] + b[0] * a[1], a[1] * b[1])
        if type(b) is int:
            return (a[0] + b * a[1], a[1])
        return a[0] / a[1] + b
    if type(b) is tuple:
        if type(a) is int:
            return (a * b[1] + b[0], b[1])
        return a + b[0] / b[1]
    return a + b


def _mul(a: Value, b: Value) -> Value:
    if type(a) is tuple:
        if type(b) is tuple:
            return (a[0] * b[0], a[1] * b[1])
        if type(b) is int:
            return (a[0] * b, a[1])
        return a[0] / a[1] * b
    if type(b) is tuple:
        if type(a) is int:
            return (a * b[0], b[1])
        return a * (b[0] / b[1])
    return a * b


def _exact(n: int, d: int) -> Tuple[int, int]:
    """A rational with a positive denominator (Fraction raises ZeroDivisionError for d == 0, with
    its own message, so that case goes to the exact path)."""
    if d == 0:
        raise NeedsExactPath
    return (-n, -d) if d < 0 else (n, d)


def _div(a: Value, b: Value) -> Value:
    if type(a) is tuple:
        if type(b) is tuple:
            return _exact(a[0] * b[1], a[1] * b[0])
        if type(b) is int:
            return _exact(a[0], a[1] * b)
        return a[0] / a[1] / b
    if type(b) is tuple:
        if type(a) is int:
            return _exact(a * b[1], b[0])
        return a / (b[0] / b[1])
    return a / b


def _square(a: Value) -> Value:
    if type(a) is tuple:
        return (a[0] * a[0], a[1] * a[1])
    return a**2


def _equals_zero(a: Value) -> Any:
    """``a == 0`` for a smoothed value. A zero rational is ambiguous (its answer depends on how the
    Fraction happens to be stored), so it leaves the fast path."""
    if type(a) is tuple:
        if a[0] == 0:
            raise NeedsExactPath
        return False
    return a == 0


def _as_float(value: Value) -> Any:
    """The float NLTK's ``math.log`` would see. A positive rational too small for a float would
    pass NLTK's ``p > 0`` test and then fail in ``log``; one too large fails in the conversion; both
    are left to the exact path so that the same exception comes out at the same step."""
    if type(value) is not tuple:
        return value
    n, d = value
    try:
        f = n / d
    except OverflowError:
        raise NeedsExactPath from None
    if f == 0.0 and n != 0:
        raise NeedsExactPath
    return f


class PairArithmetic:
    """The operations methods 5 and 6 need, on ``Value``s (ints, floats, int pairs)."""

    numerator = staticmethod(operator.itemgetter(0))
    add = staticmethod(_add)
    mul = staticmethod(_mul)
    div = staticmethod(_div)
    square = staticmethod(_square)
    equals_zero = staticmethod(_equals_zero)

    @staticmethod
    def truth(a: Value) -> bool:
        return not _equals_zero(a)


class FractionArithmetic:
    """The same operations as Python runs them on NLTK's Fractions (and ints and floats)."""

    numerator = staticmethod(operator.attrgetter("numerator"))
    add = staticmethod(operator.add)
    mul = staticmethod(operator.mul)
    div = staticmethod(operator.truediv)

    @staticmethod
    def square(a: Any) -> Any:
        return a**2

    @staticmethod
    def equals_zero(a: Any) -> Any:
        return a == 0

    truth = staticmethod(bool)


# -- the eight methods as NLTK defines them, on its unreduced Fractions --------------------------
# These are the specification: ``SmoothingFunction`` calls them, and so does the fast path below
# where it cannot promise the same result. Like NLTK's, methods 3 to 6 rewrite ``p_n`` in place.


def fraction_method0(p_n: List[Any], on_zero: Callable[[int], None] = warn_zero_order) -> List[Any]:
    """No smoothing: a zero precision is reported (NLTK warns) and becomes ``TINY``."""
    smoothed = []
    for i, p_i in enumerate(p_n):
        if p_i.numerator != 0:
            smoothed.append(p_i)
        else:
            on_zero(i + 1)
            smoothed.append(TINY)
    return smoothed


def fraction_method1(p_n: List[Any], epsilon: Any) -> List[Any]:
    """Add ``epsilon`` to the numerator of zero precisions."""
    return [
        (p_i.numerator + epsilon) / p_i.denominator if p_i.numerator == 0 else p_i for p_i in p_n
    ]


def fraction_method2(p_n: List[Any]) -> List[Any]:
    """Add one to numerator and denominator of every order but the first (Lin and Och)."""
    return [
        p_i if i == 0 else Fraction(p_i.numerator + 1, p_i.denominator + 1, _normalize=False)
        for i, p_i in enumerate(p_n)
    ]


def fraction_method3(p_n: List[Any]) -> List[Any]:
    """NIST geometric smoothing: the j-th zero precision becomes 1 / (2**j * denominator)."""
    halvings = 1
    for i, p_i in enumerate(p_n):
        if p_i.numerator == 0:
            p_n[i] = 1 / (2**halvings * p_i.denominator)
            halvings += 1
    return p_n


def fraction_method4(p_n: List[Any], hyp_len: Any, k: Any) -> List[Any]:
    """Zero precisions get smaller counts for shorter hypotheses: 1/(2**j * k / ln(hyp_len))."""
    step = 1
    for i, p_i in enumerate(p_n):
        if p_i.numerator == 0 and hyp_len > 1:
            numerator = 1 / (2**step * k / math.log(hyp_len))
            p_n[i] = numerator / p_i.denominator
            step += 1
    return p_n


def fraction_method5(p_n: List[Any], fifth: Any, ops: Any = FractionArithmetic) -> List[Any]:
    """Average each order with its neighbours (the smoothed previous one, the raw next one;
    after the last order comes ``fifth``, the last hypothesis's 5-gram precision). With
    ``ops=PairArithmetic`` the same on int pairs (the fast path)."""
    add, div = ops.add, ops.div
    following = p_n + [fifth]
    previous = add(p_n[0], 1)
    for i, p_i in enumerate(p_n):
        p_n[i] = div(add(add(previous, p_i), following[i + 1]), 3)
        previous = p_n[i]
    return p_n


def fraction_method6(
    p_n: List[Any], grams_of_order: Callable[[int], int], alpha: Any, ops: Any = FractionArithmetic
) -> List[Any]:
    """Interpolate orders >= 3 with the prior p_{n-1}**2 / p_{n-2} (Gao and He);
    ``grams_of_order(n)`` is the number of n-grams in the last hypothesis. With
    ``ops=PairArithmetic`` the same on int pairs (the fast path)."""
    add, mul, div, square, equals_zero = ops.add, ops.mul, ops.div, ops.square, ops.equals_zero
    assert ops.truth(p_n[2]), "This smoothing method requires non-zero precision for bigrams."
    for i, p_i in enumerate(p_n):
        if i < 2:
            continue
        prior = 0 if equals_zero(p_n[i - 2]) else div(square(p_n[i - 1]), p_n[i - 2])
        p_n[i] = div(add(ops.numerator(p_i), mul(alpha, prior)), grams_of_order(i + 1) + alpha)
    return p_n


def fraction_precisions(
    method: int,
    owner: Any,
    nums: Sequence[int],
    dens: Sequence[int],
    hyp_len: int,
    fifth: Optional[Tuple[int, int]],
    on_zero: Callable[[int], None] = warn_zero_order,
) -> List[Any]:
    """What ``SmoothingFunction().method<method>`` gives for one sentence of ``hyp_len`` tokens
    (its precisions ``nums[i] / dens[i]``, ``fifth`` its 5-gram pair for methods 5 and 7),
    raising what NLTK raises."""
    p_n: List[Any] = [Fraction(n, d, _normalize=False) for n, d in zip(nums, dens)]
    if method == 0:
        return fraction_method0(p_n, on_zero)
    if method == 1:
        return fraction_method1(p_n, owner.epsilon)
    if method == 2:
        return fraction_method2(p_n)
    if method == 3:
        return fraction_method3(p_n)
    if method in (4, 7):
        p_n = fraction_method4(p_n, hyp_len, owner.k)
        if method == 4:
            return p_n
    if method in (5, 7):
        return fraction_method5(p_n, Fraction(*cast(Tuple[int, int], fifth), _normalize=False))
    if method == 6:
        return fraction_method6(p_n, lambda n: max(0, hyp_len - n + 1), owner.alpha)
    raise ValueError(f"unknown smoothing method {method}")


def _plain(x: Any) -> bool:
    return type(x) is int or type(x) is float


# -- the fast path: methods 0 to 4 on ints, 5 and 6 above on int pairs ------------------------


def _method0(
    nums: Sequence[int], dens: Sequence[int], on_zero: Callable[[int], None]
) -> List[float]:
    out = []
    for i, (n, d) in enumerate(zip(nums, dens)):
        if n != 0:
            out.append(n / d)
        else:
            on_zero(i + 1)
            out.append(TINY)
    return out


def _method1(nums: Sequence[int], dens: Sequence[int], epsilon: Any) -> List[float]:
    return [(0 + epsilon) / d if n == 0 else n / d for n, d in zip(nums, dens)]


def _method2(nums: Sequence[int], dens: Sequence[int]) -> List[float]:
    return [nums[0] / dens[0]] + [(n + 1) / (d + 1) for n, d in zip(nums[1:], dens[1:])]


def _method3(nums: Sequence[int], dens: Sequence[int]) -> List[float]:
    out = []
    halvings = 1
    for n, d in zip(nums, dens):
        if n == 0:
            out.append(1 / (2**halvings * d))
            halvings += 1
        else:
            out.append(n / d)
    return out


def _method4_values(nums: Sequence[int], dens: Sequence[int], hyp_len: int, k: Any) -> List[Value]:
    """method4 with the untouched precisions kept exact (method7 goes on from here)."""
    out: List[Value] = []
    step = 1
    for n, d in zip(nums, dens):
        if n == 0 and hyp_len > 1:
            # NLTK's expression, evaluated left to right as written there.
            numerator = 1 / (2**step * k / math.log(hyp_len))
            out.append(numerator / d)
            step += 1
        else:
            out.append((n, d))
    return out


def smoothed_precisions(
    method: int,
    owner: Any,
    nums: Sequence[int],
    dens: Sequence[int],
    hyp_lengths: int,
    last_hyp_len: int,
    fifth: Optional[Tuple[int, int]],
    on_zero: Callable[[int], None] = warn_zero_order,
) -> List[Any]:
    """The precisions ``SmoothingFunction().method<method>`` would give, as the floats NLTK's final
    step reads from them (tested equal to ``fraction_precisions``).

    ``nums``/``dens`` are the corpus sums (``nums[0] != 0``), ``hyp_lengths`` the corpus
    hypothesis length, ``last_hyp_len`` the length of the last hypothesis and ``fifth`` the last
    sentence's 5-gram ``(numerator, denominator)`` (methods 5 and 7 only). Raises
    :class:`NeedsExactPath` where only the real method on Fractions is sure to agree with NLTK.
    """
    if method == 0:
        return _method0(nums, dens, on_zero)
    if method == 1:
        epsilon = owner.epsilon
        if not _plain(epsilon):
            raise NeedsExactPath
        return _method1(nums, dens, epsilon)
    if method == 2:
        return _method2(nums, dens)
    if method == 3:
        return _method3(nums, dens)
    if method in (4, 7):
        k = owner.k
        if not _plain(k) or not hyp_lengths:
            raise NeedsExactPath
        try:
            values = _method4_values(nums, dens, hyp_lengths, k)
        except (ArithmeticError, ValueError):
            raise NeedsExactPath from None
        if method == 7:
            values = fraction_method5(values, fifth, PairArithmetic)
        return [_as_float(v) for v in values]
    if method == 5:
        values = fraction_method5(list(zip(nums, dens)), fifth, PairArithmetic)
        return [_as_float(v) for v in values]
    if method == 6:
        alpha = owner.alpha
        if not _plain(alpha) or len(nums) < 3 or nums[2] == 0:
            raise NeedsExactPath  # or IndexError, or NLTK's assertion: the exact path raises it
        try:
            values = fraction_method6(
                list(zip(nums, dens)), lambda n: max(0, last_hyp_len - n + 1), alpha, PairArithmetic
            )
        except (ArithmeticError, ValueError):
            raise NeedsExactPath from None
        return [_as_float(v) for v in values]
    raise ValueError(f"unknown smoothing method {method}")


def unsmoothed_sentence(row: List[int], weight: Tuple[Any, ...]) -> Any:
    """NLTK's sentence_bleu from a statistics row, for one weight vector, method0 and no
    auto_reweigh: the operations of the general path (``final_scores``) without its
    bookkeeping; or None, having warned nothing, where an intermediate is not finite (NLTK
    raises OverflowError or gives NaN there: its general path decides). The compiled
    ``_intern.unsmoothed_sentence_score`` does the same in C."""
    if row[2] == 0:
        return 0
    orders = len(weight)
    # method0 puts the smallest normal float for a zero count; NLTK's zip(weight, p_n) ...
    # if p_i > 0 then keeps every term.
    p_n = [row[2 + i] / row[2 + orders + i] if row[2 + i] else TINY for i in range(orders)]
    terms = [w * math.log(p) for w, p in zip(weight, p_n)]
    if not all(map(math.isfinite, terms)):
        return None
    try:
        score = math.exp(math.fsum(terms))
    except OverflowError:
        return None
    hyp_len, ref_len = row[0], row[1]
    if hyp_len <= ref_len:
        score = math.exp(1 - ref_len / hyp_len) * score
    # NLTK warns before taking the logs; nothing above can be observed, so warning last is the
    # same, and nothing is warned when None is returned.
    for i in range(orders):
        if not row[2 + i]:
            warn_zero_order(i + 1)
    return score


class Parameters:
    """``SmoothingFunction``'s parameters without its methods (what the recipes read)."""

    def __init__(self, epsilon: Any = EPSILON, alpha: Any = ALPHA, k: Any = K) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k


def row_score(
    row: Sequence[int],
    row_order: int,
    weights: Sequence[Any],
    method: int,
    parameters: Any,
    reweigh: bool,
    on_zero: Callable[[int], None] = warn_zero_order,
) -> Any:
    """NLTK's ``sentence_bleu`` of one statistics row with ``row_order`` orders, for one weight
    vector (``reweigh``: NLTK's ``auto_reweigh`` applies to it), built-in smoothing ``method``
    with ``parameters`` (epsilon, alpha, k). Raises what NLTK raises. The compiled
    ``nltk_sentence_scores`` does the same in C."""
    hyp_len, ref_len = int(row[0]), int(row[1])
    orders = len(weights)
    nums = [int(x) for x in row[2 : 2 + orders]]
    dens = [max(1, int(x)) for x in row[2 + row_order : 2 + row_order + orders]]
    if nums[0] == 0:
        return 0.0
    fifth = (int(row[6]), max(1, int(row[6 + row_order]))) if method in (5, 7) else None
    try:
        p_n = smoothed_precisions(method, parameters, nums, dens, hyp_len, hyp_len, fifth, on_zero)
    except NeedsExactPath:
        p_n = fraction_precisions(method, parameters, nums, dens, hyp_len, fifth, on_zero)
    if reweigh and hyp_len < 4:
        weights = (1 / hyp_len,) * hyp_len
    return final_scores([weights], p_n, brevity_penalty(ref_len, hyp_len), hyp_len, False)
