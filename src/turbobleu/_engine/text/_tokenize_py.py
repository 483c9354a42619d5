"""Pure-Python twin of ``_tokenize.pyx``: the readable rules of each tokenizer, and interning.

Same interface as the compiled module: ``tokenize(lines, kind, lowercase, vocab, frozen, what)``
returns ``(ids int32 array, offsets int64 array)``. BLEU's fused paths from text to statistics
rows (``bleu/_text_rows_py.py``) tokenize with ``split_tokens``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable, Dict, List, Tuple

import numpy as np

from turbobleu._engine.text.rules_13a import language_independent, rules_13a
from turbobleu._engine.text.unicode_classes import intl_classes, ranges_pattern

# The functions the compiled module beside it has, with the same parameters
# (tests/test_layout.py); the rest here is the specification's own helpers.
__all__ = [
    "Vocab",
    "count_tokenized_periods",
    "intl_class_of",
    "is_python_space",
    "is_zh_char_of",
    "newline_in_tail",
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
    check_kind(kind)
    return _REWRITERS[kind](line)


def check_kind(kind: int) -> None:
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
    check_kind(kind)
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


def count_tokenized_periods(lines: list) -> int:
    """How many of ``lines`` end with ' .' (sacrebleu warns at 100: text left tokenized)."""
    count = 0
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"lines[{i}] must be a str, got {type(line).__name__}")
        count += line.endswith(" .")
    return count


def newline_in_tail(lines: list) -> List[int]:
    """Indices of the lines whose trailing whitespace (what ``str.rstrip()`` removes) holds a
    newline: the only lines whose tokens change when the 13a steps run before that rstrip (as
    evaluate's tokenizer, which has none, does) instead of after it (as here: ``"a-\\n"``)."""
    found = []
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"lines[{i}] must be a str, got {type(line).__name__}")
        if "\n" in line[len(line.rstrip()) :]:
            found.append(i)
    return found


def tokenize_strings(lines: list, kind: int, lowercase: bool) -> List[List[str]]:
    """Test hook: the tokenizer's output as lists of token strings."""
    check_kind(kind)
    return [split_tokens(line, kind, lowercase) for line in lines]
