"""``sacrebleu.tokenizers.tokenizer_char``: ``TokenizerChar``, every character a token."""

from turbobleu.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer

__all__ = ["TokenizerChar"]


class TokenizerChar(BaseTokenizer):
    """``TokenizerChar()(line)``: the characters of ``line`` joined by single spaces, its own
    spaces included (BLEU splits the result, so they disappear there); ``signature()`` is
    ``"char"``."""

    def signature(self) -> str:
        return "char"

    def __call__(self, line: str) -> str:
        if not isinstance(line, str):
            raise TypeError(f"line must be a str, got {type(line).__name__}")
        return " ".join(line)
