"""``sacrebleu.tokenizers.tokenizer_re``: ``TokenizerRegexp``, the four regular expressions of
mteval-v13a that 13a and zh apply after their own steps."""

from turbobleu._engine.text.rules_13a import rules_13a
from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

__all__ = ["TokenizerRegexp"]


class TokenizerRegexp(BaseTokenizer):
    """``TokenizerRegexp()(line)``: ASCII punctuation and symbols split off (periods and commas
    only next to a non-digit, dashes after a digit), tokens joined by single spaces; unlike
    13a, no entities are unescaped and the line is not padded. ``signature()`` is ``"re"``."""

    def signature(self) -> str:
        return "re"

    def __call__(self, line: str) -> str:
        if not isinstance(line, str):
            raise TypeError(f"line must be a str, got {type(line).__name__}")
        return " ".join(rules_13a(line).split())
