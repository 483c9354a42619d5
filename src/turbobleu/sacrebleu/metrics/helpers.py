"""``sacrebleu.metrics.helpers``: word and character n-gram counts, as sacrebleu returns them.

The counts, their keys and the order the keys were first seen in are sacrebleu's: word n-grams
of ``extract_all_word_ngrams`` are tuples of tokens (all of one order before the next), those of
``extract_word_ngrams`` the tokens joined by a space; character n-grams are substrings, of the
line without its whitespace unless ``include_whitespace``. turbobleu's metrics count n-grams in
their compiled engine; these are for code that calls sacrebleu's helpers itself.
"""

from __future__ import annotations

from collections import Counter

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Iterator, List, Sequence, Tuple

__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]


def _check_line(line: object, what: str) -> None:
    if not isinstance(line, str):
        raise TypeError(f"{what} must be a str, got {type(line).__name__}")


def _check_order(value: object, what: str) -> int:
    # (bool is an int subclass: True as an order is a mistake)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{what} must be >= 1, got {value}")
    return value


def _windows(items: Sequence[str], n: int) -> Iterator[Tuple[str, ...]]:
    """The runs of ``n`` consecutive items, left to right."""
    return zip(*(items[k:] for k in range(n)))


def extract_all_word_ngrams(line: str, min_order: int, max_order: int) -> Tuple[Counter, int]:
    """The counts of the word n-grams of ``line`` (split on whitespace) for every order from
    ``min_order`` to ``max_order``, keyed by token tuples, and the number of words."""
    _check_line(line, "line")
    _check_order(min_order, "min_order")
    _check_order(max_order, "max_order")
    tokens = line.split()
    counts: Counter = Counter()
    for n in range(min_order, max_order + 1):
        counts.update(_windows(tokens, n))
    return counts, len(tokens)


def extract_word_ngrams(tokens: List[str], n: int) -> Counter:
    """The counts of the ``n``-grams of ``tokens``, each keyed by its tokens joined by a space."""
    if isinstance(tokens, str):
        raise TypeError("tokens must be a list of tokens, got a str (split it first)")
    _check_order(n, "n")
    return Counter(" ".join(gram) for gram in _windows(list(tokens), n))


def _characters(line: str, include_whitespace: bool) -> str:
    return line if include_whitespace else "".join(line.split())


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter:
    """The counts of the character ``n``-grams of ``line``, whose whitespace is removed first
    unless ``include_whitespace``."""
    _check_line(line, "line")
    _check_order(n, "n")
    text = _characters(line, include_whitespace)
    return Counter(text[i : i + n] for i in range(len(text) - n + 1))


def extract_all_char_ngrams(
    line: str, max_order: int, include_whitespace: bool = False
) -> List[Counter]:
    """``extract_char_ngrams`` of ``line`` for the orders 1 to ``max_order``, in order."""
    _check_line(line, "line")
    _check_order(max_order, "max_order")
    text = _characters(line, include_whitespace)
    return [
        Counter(text[i : i + n] for i in range(len(text) - n + 1)) for n in range(1, max_order + 1)
    ]
