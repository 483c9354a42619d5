"""Pure-Python twin of ``_tokenize.pyx``: the readable rules of each tokenizer, and interning.

Same interface as the compiled module: ``tokenize(lines, kind, lowercase, vocab, frozen, what)``
returns ``(ids int32 array, offsets int64 array)``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from turbobleu._engine.count._kernel_py import segment_row
from turbobleu._engine.recipes._sacrebleu_scores_py import sacrebleu_score_parts
from turbobleu._engine.text.rules_13a import language_independent, rules_13a
from turbobleu._engine.text.unicode_classes import intl_classes, ranges_pattern

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = [
    "Vocab",
    "corpus_row",
    "count_tokenized_periods",
    "intl_class_of",
    "is_python_space",
    "is_zh_char_of",
    "sentence_row",
    "sentence_score_parts",
    "tokenize",
    "tokenize_strings",
]

TOK_NONE = 0
TOK_13A = 1
TOK_INTL = 2
TOK_ZH = 3
TOK_CHAR = 4

UNKNOWN = -1


def rewrite_13a(line: str) -> str:
    """mteval-v13a as sacrebleu runs it, on an rstripped line; the caller splits the result."""
    return rules_13a(f" {language_independent(line)} ")


_BMP_END = 0xFFFF


@lru_cache(maxsize=None)
def _intl_rules(bmp_only: bool) -> Tuple[Tuple["re.Pattern[str]", str], ...]:
    """mteval-v14's three rules with \\p{N}, \\p{P}, \\p{S} spelled out as code point ranges.

    ``bmp_only`` drops the ranges above U+FFFF: ``re`` then matches the classes with a bitmap
    (6x faster); only valid on lines without such characters.
    """

    def spell(ranges: Tuple[Tuple[int, int], ...]) -> str:
        if bmp_only:
            ranges = tuple((a, min(b, _BMP_END)) for a, b in ranges if a <= _BMP_END)
        return ranges_pattern(ranges)

    classes = intl_classes()
    num, punct, sym = spell(classes.number), spell(classes.punctuation), spell(classes.symbol)
    return (
        (re.compile(f"([^{num}])([{punct}])"), r"\1 \2 "),  # punctuation after a non-number
        (re.compile(f"([{punct}])([^{num}])"), r" \1 \2"),  # punctuation before a non-number
        (re.compile(f"([{sym}])"), r" \1 "),  # every symbol
    )


def rewrite_intl(line: str) -> str:
    """mteval-v14 (international) as sacrebleu runs it: no padding, no entities."""
    for pattern, replacement in _intl_rules(not line or ord(max(line)) <= _BMP_END):
        line = pattern.sub(replacement, line)
    return line


def intl_class_of(c: int) -> int:
    """The intl class code of one code point (1 N, 2 P, 4 S, 0 none)."""
    for code, ranges in intl_classes().by_code().items():
        k = bisect_right(ranges, (c, 0x110000)) - 1
        if k >= 0 and ranges[k][0] <= c <= ranges[k][1]:
            return code
    return 0


# The characters zh surrounds with spaces. sacrebleu lists Unicode blocks as pairs of strings
# and tests ``start <= char <= end``; two of its bounds are written with five hex digits after
# \u ('\u20000', '\u2a6d6'), which Python reads as a 4-digit escape plus a digit. The effective
# set is therefore U+2001..U+2A6D (quotes, dashes, currency, arrows, maths, ...) and none of
# Extension B; these are the resulting ranges, checked against sacrebleu for every code point.
ZH_RANGES: Tuple[Tuple[int, int], ...] = (
    (0x2001, 0x2A6D),
    (0x2E80, 0x2FDF),
    (0x2FF0, 0x303F),
    (0x3100, 0x312F),
    (0x31A0, 0x31EF),
    (0x3200, 0x4DB5),
    (0x4E00, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
)
_ZH_FIRSTS = [first for first, _ in ZH_RANGES]


def is_zh_char_of(c: int) -> bool:
    k = bisect_right(_ZH_FIRSTS, c) - 1
    return k >= 0 and c <= ZH_RANGES[k][1]


_ZH_CHAR = re.compile(f"([{ranges_pattern(ZH_RANGES)}])")


def rewrite_zh(line: str) -> str:
    """sacrebleu's zh: strip, spaces around Chinese characters, then 13a's rules (no padding)."""
    return rules_13a(_ZH_CHAR.sub(r" \1 ", line.strip()))


def rewrite_char(line: str) -> str:
    return " ".join(line)


_REWRITERS: Dict[int, Callable[[str], str]] = {
    TOK_NONE: lambda line: line,
    TOK_13A: rewrite_13a,
    TOK_INTL: rewrite_intl,
    TOK_ZH: rewrite_zh,
    TOK_CHAR: rewrite_char,
}


def rewrite(line: str, kind: int) -> str:
    """sacrebleu's tokenizer ``kind`` applied to ``line``: the tokens joined by spaces (not yet
    split, not right-stripped)."""
    _check_kind(kind)
    return _REWRITERS[kind](line)


def _check_kind(kind: int) -> None:
    if kind not in _REWRITERS:
        raise ValueError(f"unknown tokenizer code {kind}")


def is_python_space(c: int) -> bool:
    return chr(c).isspace()


class Vocab(dict):
    """Token string -> dense id, for the lifetime of one scoring job."""

    def token(self, token_id: int) -> str:
        for tok, i in self.items():
            if i == token_id:
                return tok
        raise KeyError(token_id)


def split_tokens(line: str, kind: int, lowercase: bool) -> List[str]:
    if lowercase:
        line = line.lower()
        if not isinstance(line, str):  # a str subclass may override lower()
            raise TypeError(f"lower() must return a str, got {type(line).__name__}")
    return _REWRITERS[kind](line.rstrip()).split()


def tokenize(
    lines: list, kind: int, lowercase: bool, vocab: Vocab, frozen: bool = False, what: str = "lines"
) -> Tuple[np.ndarray, np.ndarray]:
    _check_kind(kind)
    if vocab is None:
        raise TypeError("vocab must be a Vocab, not None")
    ids: List[int] = []
    offsets = [0]
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"{what}[{i}] must be a str, got {type(line).__name__}")
        for tok in split_tokens(line, kind, lowercase):
            tid = vocab.get(tok)
            if tid is None:
                tid = UNKNOWN if frozen else vocab.setdefault(tok, len(vocab))
            ids.append(tid)
        offsets.append(len(ids))
    return np.array(ids, dtype=np.int32), np.array(offsets, dtype=np.int64)


def _plain_corpus(hypotheses: Any, references: Any) -> Optional[Tuple[list, List[list]]]:
    """Copies of a corpus in the plain shape corpus_row handles (a non-empty list of str, and a
    non-empty list of lists of str, each as long), else None. Copies, because a str subclass'
    lower() may change the caller's lists while the corpus is read."""
    if type(hypotheses) is not list or type(references) is not list:
        return None
    hyps, streams = list(hypotheses), list(references)
    if not hyps or not streams:
        return None
    if any(type(stream) is not list or len(stream) != len(hyps) for stream in streams):
        return None
    streams = [list(stream) for stream in streams]
    if not all(isinstance(line, str) for line in hyps) or not all(
        isinstance(line, str) for stream in streams for line in stream
    ):
        return None
    return hyps, streams


def corpus_row(
    hypotheses: Any,
    references: Any,
    kind: int,
    lowercase: bool,
    max_order: int,
    rows: Optional[np.ndarray] = None,
    hash_mask: int = 2**64 - 1,
) -> Optional[Tuple[List[int], int]]:
    """``(summed statistics row, lines ending in ' .')`` of a plain-shaped corpus, else None
    (the caller's general path handles other shapes and bad input); the per-segment rows go to
    ``rows`` when it is given. ``hash_mask`` is the compiled kernel's collision hook; n-grams
    here are compared as tuples, so it is ignored."""
    _check_kind(kind)
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    corpus = _plain_corpus(hypotheses, references)
    if corpus is None:
        return None
    hyps, streams = corpus
    width = 2 + 2 * max_order
    if rows is not None and rows.shape != (len(hyps), width):
        raise ValueError(f"corpus_row: rows must have shape ({len(hyps)}, {width})")
    total = [0] * width
    for i, hyp in enumerate(hyps):
        refs = [split_tokens(stream[i], kind, lowercase) for stream in streams]
        row = segment_row(split_tokens(hyp, kind, lowercase), refs, max_order)
        if rows is not None:
            rows[i] = row
        total = [a + b for a, b in zip(total, row)]
    return total, count_tokenized_periods(hyps)


def count_tokenized_periods(lines: list) -> int:
    """How many of ``lines`` end with ' .' (sacrebleu warns at 100: text left tokenized)."""
    count = 0
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"lines[{i}] must be a str, got {type(line).__name__}")
        count += line.endswith(" .")
    return count


def tokenize_strings(lines: list, kind: int, lowercase: bool) -> List[List[str]]:
    """Test hook: the tokenizer's output as lists of token strings."""
    _check_kind(kind)
    return [split_tokens(line, kind, lowercase) for line in lines]


def sentence_row(
    hypothesis: object, references: list, kind: int, lowercase: bool, max_order: int
) -> List[int]:
    """Statistics row of one hypothesis against its references (None entries are skipped)."""
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str, got {type(hypothesis).__name__}")
    if max_order < 1:
        raise ValueError(f"max_ngram_order must be an integer >= 1, got {max_order}")
    _check_kind(kind)
    vocab = Vocab()
    refs = []
    for k, ref in enumerate(references):
        if ref is None:
            continue
        if not isinstance(ref, str):
            raise TypeError(f"references[{k}] must be a str or None, got {type(ref).__name__}")
        refs.append([vocab.setdefault(t, len(vocab)) for t in split_tokens(ref, kind, lowercase)])
    hyp = [vocab.get(t, UNKNOWN) for t in split_tokens(hypothesis, kind, lowercase)]
    if not refs and hyp:
        raise ValueError(
            "references: every reference is None, so there is nothing to score "
            "the hypothesis against"
        )
    return segment_row(hyp, refs, max_order)


def sentence_score_parts(
    hypothesis: object,
    references: list,
    kind: int,
    lowercase: bool,
    max_order: int,
    smooth_method: str,
    smooth_value: Any,
    effective_order: bool,
    neumaier: bool,
) -> Tuple[Any, ...]:
    """``BLEUScore``'s arguments (score, counts, totals, precisions, bp, sys_len, ref_len) for one
    hypothesis: ``sentence_row`` and ``sacrebleu_score_parts`` in one call. Not for add-k."""
    if smooth_method == "add-k":
        raise ValueError("sentence_score_parts: add-k takes the Python recipe")
    row = sentence_row(hypothesis, references, kind, lowercase, max_order)
    score, precisions, bp = sacrebleu_score_parts(
        row, max_order, smooth_method, smooth_value, effective_order, neumaier
    )
    return (score, row[2 : 2 + max_order], row[2 + max_order :], precisions, bp, row[0], row[1])
