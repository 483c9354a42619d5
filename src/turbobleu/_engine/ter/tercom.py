"""TER's text preparation: sacrebleu 2.6.0's Tercom tokenizer (``TercomTokenizer``), text -> words.

Each option is one step, in sacrebleu's order: lowercase (unless ``case_sensitive``), the
``normalized`` rewrites (Tercom's Western rules, then with ``asian_support`` CJK characters
split off one by one), the ``no_punct`` removals, and whitespace collapsed. The steps are
regular-expression rewrites applied one after another, so their order is part of the result
(``&amp;lt;`` becomes ``<``, for instance). TER itself strips the end of a segment first, and
prepares references twice (``TercomWords.reference_words``).
"""

from __future__ import annotations

import re

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import List, Pattern, Tuple

# Tercom's Western normalization, in order. The punctuation class is ASCII's
# ``{|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ /``: every such character, the space included, gets a
# space on both sides (the text is padded with one space on each side first).
_WESTERN: List[Tuple[Pattern[str], str]] = [
    (re.compile(r"\n-"), ""),  # a line broken by a hyphen is joined
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
]
_PADDED_WESTERN: List[Tuple[Pattern[str], str]] = [
    (re.compile(r"([{-~\[-` -&(-+:-@/])"), r" \1 "),
    (re.compile(r"'s "), r" 's "),  # possessives
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # a period or comma not after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # ... or not before one
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # a dash after a digit
]

# The CJK punctuation that ``asian_support`` splits off (``normalized``) or removes
# (``no_punct``): ideographic comma and full stop, brackets, half-width forms, the katakana
# middle dot; and the full-width . , ? : ; ! " ( ).
_ASIAN_PUNCT = "\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
_FULL_WIDTH_PUNCT = "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09"
# Characters that ``normalized`` + ``asian_support`` make words of their own: CJK ideographs
# (with extension A), strokes, radicals, compatibility forms and ideographs, the block
# U+3200..U+3F22 that sacrebleu names "Enclosed CJK Letters and Months", and the punctuation.
# (sacrebleu also rewrites runs of hiragana, katakana and katakana extensions anchored at both
# ends of the text; the text is padded with spaces by then, so those rewrites never match.)
_ASIAN_SPLIT = re.compile(
    "([\u4e00-\u9fff\u3400-\u4dbf\u31c0-\u31ef\u2e80-\u2eff\u3300-\u33ff\uf900-\ufaff"
    "\ufe30-\ufe4f\u3200-\u3f22" + _ASIAN_PUNCT + _FULL_WIDTH_PUNCT + "])"
)
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT_ALL = re.compile("[" + _ASIAN_PUNCT + _FULL_WIDTH_PUNCT + "]")


def _western(text: str) -> str:
    for pattern, replacement in _WESTERN:
        text = pattern.sub(replacement, text)
    text = f" {text} "
    for pattern, replacement in _PADDED_WESTERN:
        text = pattern.sub(replacement, text)
    return text


class TercomWords:
    """A text -> words function with TER's options (``TER(...)``'s tokenizer)."""

    __slots__ = ("normalized", "no_punct", "asian_support", "case_sensitive", "plain")

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        # lowercasing and whitespace only: the common case, one line
        self.plain = not normalized and not no_punct

    def words(self, sent: str) -> List[str]:
        """The words of a segment as TER sees them (``TER._preprocess_segment(sent).split()``:
        its end stripped first, which matters to the rules anchored on spaces)."""
        return self.rewrite(sent.rstrip()).split()

    def reference_words(self, sent: str) -> List[str]:
        """The words of a reference as sacrebleu's TER sees them: its text is prepared twice
        (``_cache_references`` prepares each reference, then ``_extract_reference_info``
        prepares the result again). Lowercasing, whitespace and the punctuation removals give
        the same words the second time; ``normalized`` may not (``law's ,`` splits off
        ``'s`` only then), so with it the words are those of the words joined."""
        words = self.words(sent)
        return self.words(" ".join(words)) if self.normalized else words

    def rewrite(self, sent: str) -> str:
        """The text with every option applied, before whitespace is collapsed."""
        if not self.case_sensitive:
            sent = sent.lower()
        if self.plain:
            return sent
        if self.normalized:
            sent = _western(sent)
            if self.asian_support:
                sent = _ASIAN_SPLIT.sub(r" \1 ", sent)
        if self.no_punct:
            sent = _PUNCT.sub("", sent)
            if self.asian_support:
                sent = _ASIAN_PUNCT_ALL.sub("", sent)
        return sent
